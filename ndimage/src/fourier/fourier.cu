// Kernels of cusci::ndimage's Fourier filters (SciPy 1.18.1's NI_FourierFilter and NI_FourierShift,
// scipy/ndimage/src/ni_fourier.c, re-derived here).
//
// SciPy precomputes, for every axis, a table over the axis' positions (its "params" arrays) and then
// walks the elements, combining the tables' entries in axis order. cusci does the same on the device:
// 1. build_tables: one thread per table entry writes every axis' table (sum of the axis lengths
//    doubles, from the pool) with SciPy's formulas in double: gaussian exp(p k^2) (0 where |p k^2| >
//    50), uniform sin(t k) / (t k), ellipsoid (t k) or (t k)^2, shift s k, with k the signed FFT
//    frequency of the position (0, 1, ..., -1; 0, 1, ..., m - 1 along the real-FFT axis).
// 2. One elementwise kernel per filter family: products of table entries (gaussian, uniform), the
//    ellipsoid formula of the rank (sin x / x, 2 J1(r) / r, 3 (sin r - r cos r) / r^3), or the phase
//    sum and its sincos (shift). Each thread decomposes its C-order index into per-axis positions (one
//    division per axis but the last; 32-bit when the array has fewer than 2^32 elements), reads the
//    axes' entries in axis order (the innermost axis' entries are consecutive across a warp, the
//    others broadcast; all hit L1/L2: the tables are tiny), converts its input element to double,
//    multiplies in double with round-to-nearest operations (no contraction into FMAs, as SciPy's host
//    loop) and stores in the output dtype.
// Tables live in global memory rather than __constant__ memory: threads of a warp read different
// entries of the innermost axis' table, which the constant cache would serialize.
//
// Roofline: the elementwise kernel reads and writes each element once (the tables add sum(m_d) * 8
// bytes); for a 4096 x 4096 complex64 array that is 2 * 128 MiB, about 65 us at the H200's 4.1 TB/s
// copy ceiling. Each thread handles 4 elements (1024 per block of 256) whose loads are issued before
// any store, to keep enough bytes in flight. The ellipsoid (2-D: one J1 per element) and the shift
// (one double sincos per element) do tens of double operations per element, which the H200's FP64
// rate covers at that bandwidth.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda/std/complex>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "fourier/fourier_apply.hpp"

namespace cusci::ndimage::detail {
namespace {

using i64 = std::int64_t;

constexpr int max_axes = 16;          // axes longer than 1 a kernel handles (as cusci's other kernels)
constexpr int block_threads = 256;    // threads of a block
constexpr int items = 4;              // elements a thread handles per step (loads before stores)
constexpr double pi = 3.14159265358979323846;  // SciPy's M_PI

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

struct table_axis {
  i64 dim = 0;     // axis length
  i64 off = 0;     // first entry of its table
  int half = 0;    // the real-FFT axis (frequencies 0 .. dim - 1)
  double a = 0.0;  // gaussian: -2 (sigma pi / m)^2; uniform, ellipsoid: pi size / m; shift: -2 pi shift / m
};

struct table_params {
  int nd = 0;
  int kind = 0;
  int square = 0;  // ellipsoid of rank > 1: entries squared
  i64 total = 0;
  double* table = nullptr;
  table_axis ax[max_axes];
};

__global__ void __launch_bounds__(block_threads) build_tables(const table_params p) {
  for (i64 t = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; t < p.total;
       t += static_cast<i64>(gridDim.x) * blockDim.x) {
    int d = 0;
    while (d + 1 < p.nd && t >= p.ax[d + 1].off) ++d;
    const table_axis& a = p.ax[d];
    const i64 k = t - a.off;
    // The signed frequency of position k (SciPy's table order).
    const double f = static_cast<double>(a.half || k < (a.dim + 1) / 2 ? k : k - a.dim);
    double v;
    switch (p.kind) {
      case static_cast<int>(fourier_kind::gaussian): {
        const double e = __dmul_rn(__dmul_rn(a.a, f), f);
        v = fabs(e) > 50.0 ? 0.0 : exp(e);
        break;
      }
      case static_cast<int>(fourier_kind::uniform): {
        const double x = __dmul_rn(a.a, f);
        v = k == 0 ? 1.0 : (a.a > 0.0 ? sin(x) / x : 0.0);
        break;
      }
      case static_cast<int>(fourier_kind::ellipsoid): {
        v = __dmul_rn(f, a.a);
        if (p.square) v = __dmul_rn(v, v);
        break;
      }
      default:  // shift
        v = __dmul_rn(a.a, f);
        break;
    }
    p.table[t] = v;
  }
}

// ---------------------------------------------------------------------------------------------
// The elementwise kernel
// ---------------------------------------------------------------------------------------------

struct elem_params {
  int nd = 0;        // axes in the kernel (C order of the input's axes)
  int rank = 0;      // ellipsoid: the input's rank (1, 2 or 3)
  int small = 0;     // fewer than 2^32 elements: 32-bit index arithmetic
  int in_complex = 0;
  dtype in_t = dtype::float64;
  dtype out_t = dtype::float64;
  i64 size = 0;
  const char* in = nullptr;
  char* out = nullptr;
  const double* table = nullptr;
  i64 pitch[max_axes];   // elements per unit step of each axis (C order over the kernel's axes)
  i64 in_st[max_axes];   // byte strides
  i64 out_st[max_axes];
  i64 toff[max_axes];    // first entry of each axis' table
};

enum : int { k_product = 0, k_ellipsoid = 1, k_shift = 2 };

__device__ __forceinline__ i64 div_index(i64 a, i64 b, bool small) {
  if (small) return static_cast<i64>(static_cast<std::uint32_t>(a) / static_cast<std::uint32_t>(b));
  return a / b;
}

/// 2 J1(r) / r for r > 0 as SciPy's loop: J1(inf) evaluates to NaN there (Cephes' asymptotic form
/// takes cos(inf)), so an infinite radius gives NaN.
__device__ __forceinline__ double disk_factor(double r) {
  if (isinf(r)) return __longlong_as_double(0x7ff8000000000000LL);
  return 2.0 * j1(r) / r;
}

/// The factor (gaussian, uniform, ellipsoid) or the phase (shift) of element `i`, and its byte offsets.
template <int K>
__device__ __forceinline__ double element_factor(const elem_params& p, i64 i, i64& oi, i64& oo) {
  const bool small = p.small != 0;
  double acc = K == k_product ? 1.0 : 0.0;
  double first = 0.0;  // ellipsoid of rank 1: the unsquared entry
  i64 rem = i;
  oi = 0;
  oo = 0;
  for (int d = 0; d < p.nd; ++d) {
    i64 c = rem;
    if (d + 1 < p.nd) {
      c = div_index(rem, p.pitch[d], small);
      rem -= c * p.pitch[d];
    }
    oi += c * p.in_st[d];
    oo += c * p.out_st[d];
    const double v = __ldg(p.table + p.toff[d] + c);
    if constexpr (K == k_product) acc = __dmul_rn(acc, v);
    else acc = __dadd_rn(acc, v);
    first = v;
  }
  if constexpr (K == k_ellipsoid) {
    switch (p.rank) {
      case 1:
        return first != 0.0 ? sin(first) / first : 1.0;
      case 2: {
        const double r = sqrt(acc);
        return r > 0.0 ? disk_factor(r) : 1.0;
      }
      default: {
        const double r = sqrt(acc);
        if (!(r > 0.0)) return 1.0;
        const double num = 3.0 * __dsub_rn(sin(r), __dmul_rn(r, cos(r)));
        return num / __dmul_rn(__dmul_rn(r, r), r);
      }
    }
  }
  return acc;
}

template <class T>
__device__ __forceinline__ void load_items(const char* base, const i64 (&off)[items], const bool (&ok)[items],
                                           double (&re)[items], double (&im)[items]) {
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (!ok[k]) continue;
    const T v = *reinterpret_cast<const T*>(base + off[k]);
    if constexpr (std::is_same_v<T, cuda::std::complex<float>> || std::is_same_v<T, cuda::std::complex<double>>) {
      re[k] = static_cast<double>(v.real());
      im[k] = static_cast<double>(v.imag());
    } else {
      re[k] = static_cast<double>(v);
      im[k] = 0.0;
    }
  }
}

template <class T>
__device__ __forceinline__ void store_items(char* base, const i64 (&off)[items], const bool (&ok)[items],
                                            const double (&re)[items], const double (&im)[items]) {
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (!ok[k]) continue;
    T* q = reinterpret_cast<T*>(base + off[k]);
    if constexpr (std::is_same_v<T, cuda::std::complex<float>>) {
      *q = T(static_cast<float>(re[k]), static_cast<float>(im[k]));
    } else if constexpr (std::is_same_v<T, cuda::std::complex<double>>) {
      *q = T(re[k], im[k]);
    } else {
      *q = static_cast<T>(re[k]);
    }
  }
}

template <int K>
__global__ void __launch_bounds__(block_threads) fourier_kernel(const elem_params p) {
  const i64 chunk = static_cast<i64>(block_threads) * items;
  for (i64 base = blockIdx.x * chunk; base < p.size; base += static_cast<i64>(gridDim.x) * chunk) {
    i64 oi[items], oo[items];
    double f[items], re[items], im[items];
    bool ok[items];
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const i64 i = base + k * block_threads + threadIdx.x;
      ok[k] = i < p.size;
      oi[k] = oo[k] = 0;
      f[k] = 0.0;
      re[k] = im[k] = 0.0;
      if (ok[k]) f[k] = element_factor<K>(p, i, oi[k], oo[k]);
    }
    switch (p.in_t) {
      case dtype::bool_: load_items<std::uint8_t>(p.in, oi, ok, re, im); break;
      case dtype::int8: load_items<std::int8_t>(p.in, oi, ok, re, im); break;
      case dtype::uint8: load_items<std::uint8_t>(p.in, oi, ok, re, im); break;
      case dtype::int16: load_items<std::int16_t>(p.in, oi, ok, re, im); break;
      case dtype::uint16: load_items<std::uint16_t>(p.in, oi, ok, re, im); break;
      case dtype::int32: load_items<std::int32_t>(p.in, oi, ok, re, im); break;
      case dtype::uint32: load_items<std::uint32_t>(p.in, oi, ok, re, im); break;
      case dtype::int64: load_items<std::int64_t>(p.in, oi, ok, re, im); break;
      case dtype::uint64: load_items<std::uint64_t>(p.in, oi, ok, re, im); break;
      case dtype::float32: load_items<float>(p.in, oi, ok, re, im); break;
      case dtype::float64: load_items<double>(p.in, oi, ok, re, im); break;
      case dtype::complex64: load_items<cuda::std::complex<float>>(p.in, oi, ok, re, im); break;
      default: load_items<cuda::std::complex<double>>(p.in, oi, ok, re, im); break;
    }
#pragma unroll
    for (int k = 0; k < items; ++k) {
      double r, q;
      if constexpr (K == k_shift) {
        double s, c;
        sincos(f[k], &s, &c);
        if (p.in_complex) {
          r = __dsub_rn(__dmul_rn(re[k], c), __dmul_rn(im[k], s));
          q = __dadd_rn(__dmul_rn(re[k], s), __dmul_rn(im[k], c));
        } else {
          r = __dmul_rn(re[k], c);
          q = __dmul_rn(re[k], s);
        }
      } else {
        r = __dmul_rn(re[k], f[k]);
        q = p.in_complex ? __dmul_rn(im[k], f[k]) : 0.0;  // a real input gives an imaginary part of 0
      }
      re[k] = r;
      im[k] = q;
    }
    switch (p.out_t) {
      case dtype::float32: store_items<float>(p.out, oo, ok, re, im); break;
      case dtype::float64: store_items<double>(p.out, oo, ok, re, im); break;
      case dtype::complex64: store_items<cuda::std::complex<float>>(p.out, oo, ok, re, im); break;
      default: store_items<cuda::std::complex<double>>(p.out, oo, ok, re, im); break;
    }
  }
}

unsigned blocks_for(i64 work_items, i64 per_block) {
  i64 g = (work_items + per_block - 1) / per_block;
  if (g < 1) g = 1;
  const i64 cap = i64{1} << 20;  // grid-stride beyond this
  return static_cast<unsigned>(g > cap ? cap : g);
}

}  // namespace

void fourier_apply(fourier_kind kind, const ndarray& in, const ndarray& out, const std::vector<double>& params,
                   std::int64_t n, int axis) {
  const int ndim = in.ndim();
  const bool ellipsoid = kind == fourier_kind::ellipsoid;
  // The kernel's axes: every axis for the ellipsoid (rank <= 3), else the axes longer than 1 (SciPy
  // skips the others: their factor is 1, their phase 0).
  std::vector<int> axes;
  for (int d = 0; d < ndim; ++d)
    if (ellipsoid || in.shape()[static_cast<std::size_t>(d)] > 1) axes.push_back(d);
  CUSCI_EXPECTS(axes.size() <= static_cast<std::size_t>(max_axes), value_error,
                "cusci::ndimage::" + std::string(kind == fourier_kind::gaussian   ? "fourier_gaussian"
                                                 : kind == fourier_kind::uniform  ? "fourier_uniform"
                                                 : kind == fourier_kind::shift    ? "fourier_shift"
                                                                                  : "fourier_ellipsoid") +
                    ": arrays with more than 16 axes longer than 1 are not supported");
  const int nd = static_cast<int>(axes.size());

  table_params tp;
  tp.nd = nd;
  tp.kind = static_cast<int>(kind);
  tp.square = ellipsoid && ndim > 1;
  elem_params ep;
  ep.nd = nd;
  ep.rank = ndim;
  ep.size = in.size();
  ep.small = ep.size <= static_cast<i64>(0xFFFFFFFFu);
  ep.in_complex = in.dtype() == dtype::complex64 || in.dtype() == dtype::complex128;
  ep.in_t = in.dtype();
  ep.out_t = out.dtype();
  ep.in = static_cast<const char*>(in.data());
  ep.out = static_cast<char*>(out.data());
  i64 total = 0;
  for (int j = 0; j < nd; ++j) {
    const int d = axes[static_cast<std::size_t>(j)];
    const i64 dim = in.shape()[static_cast<std::size_t>(d)];
    const bool half = d == axis && n >= 0;
    const double s = params[static_cast<std::size_t>(d)];
    double a = 0.0;
    switch (kind) {
      case fourier_kind::gaussian: {
        // SciPy: int shape; parameters = sigma * M_PI / shape; -2.0 * p * p
        const double shape = static_cast<double>(static_cast<std::int32_t>(half ? n : dim));
        const double q = s * pi / shape;
        a = -2.0 * q * q;
        break;
      }
      case fourier_kind::shift: {
        const double shape = static_cast<double>(static_cast<std::int32_t>(half ? n : dim));
        a = -2.0 * pi * s / shape;
        break;
      }
      default:  // uniform, ellipsoid: M_PI * size / n (npy_intp) or / dim
        a = pi * s / static_cast<double>(half ? n : dim);
        break;
    }
    tp.ax[j] = table_axis{dim, total, half ? 1 : 0, a};
    ep.toff[j] = total;
    ep.in_st[j] = in.strides()[static_cast<std::size_t>(d)];
    ep.out_st[j] = out.strides()[static_cast<std::size_t>(d)];
    total += dim;
  }
  i64 pitch = 1;
  for (int j = nd - 1; j >= 0; --j) {
    ep.pitch[j] = pitch;
    pitch *= tp.ax[j].dim;
  }
  tp.total = total;

  cudaStream_t stream = get_current_stream();
  device_buffer<double> table(static_cast<std::size_t>(total > 0 ? total : 1), stream);
  tp.table = table.data();
  ep.table = table.data();
  if (total > 0) {
    build_tables<<<blocks_for(total, block_threads), block_threads, 0, stream>>>(tp);
    CUSCI_CHECK_LAUNCH();
  }
  const unsigned grid = blocks_for(ep.size, static_cast<i64>(block_threads) * items);
  switch (kind) {
    case fourier_kind::gaussian:
    case fourier_kind::uniform:
      fourier_kernel<k_product><<<grid, block_threads, 0, stream>>>(ep);
      break;
    case fourier_kind::ellipsoid:
      fourier_kernel<k_ellipsoid><<<grid, block_threads, 0, stream>>>(ep);
      break;
    case fourier_kind::shift:
      fourier_kernel<k_shift><<<grid, block_threads, 0, stream>>>(ep);
      break;
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::ndimage::detail
