// Kernels of bandwidth, issymmetric and ishermitian: one thread block per matrix, reductions in shared
// memory. Integers and bool are compared bitwise (dispatched on item size); floating types as values.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "triangular/tri_detail.hpp"

namespace cusci::linalg::detail {
namespace {

constexpr int block = 256;

template <class T>
__device__ __forceinline__ bool nonzero(const T& v) {
  return v != T(0);
}

template <class T>
__global__ void bandwidth_kernel(const char* a, strided_indexer bix, std::int64_t sr, std::int64_t sc,
                                 std::int64_t rows, std::int64_t cols, std::int64_t* lo, std::int64_t* up) {
  __shared__ unsigned long long s_lo, s_up;
  if (threadIdx.x == 0) s_lo = s_up = 0;
  __syncthreads();
  const std::int64_t b = blockIdx.x;
  const char* base = a + bix.offset(b);
  std::int64_t l = 0, u = 0;
  const std::int64_t per = rows * cols;
  for (std::int64_t e = threadIdx.x; e < per; e += blockDim.x) {
    const std::int64_t i = e / cols, j = e - i * cols;
    if (i == j || !nonzero(load_at<T>(base, sr, sc, i, j))) continue;
    if (i > j) l = i - j > l ? i - j : l;
    else u = j - i > u ? j - i : u;
  }
  if (l) atomicMax(&s_lo, static_cast<unsigned long long>(l));
  if (u) atomicMax(&s_up, static_cast<unsigned long long>(u));
  __syncthreads();
  if (threadIdx.x == 0) {
    lo[b] = static_cast<std::int64_t>(s_lo);
    up[b] = static_cast<std::int64_t>(s_up);
  }
}

template <class T>
__device__ __forceinline__ bool same(const T& x, const T& y) {
  return x == y;  // integers: bitwise; floats: IEEE (NaN never equal, -0 == 0)
}

/// numpy.isclose(x, y) with y the reference: finite: |x - y| <= atol + rtol |y|; otherwise x == y.
template <class T>
__device__ __forceinline__ bool close(const T& x, const T& y, double atol, double rtol) {
  if constexpr (is_complex_v<T>) {
    const cuda::std::complex<double> xd(x.real(), x.imag()), yd(y.real(), y.imag());
    const bool fin = isfinite(xd.real()) && isfinite(xd.imag()) && isfinite(yd.real()) && isfinite(yd.imag());
    if (!fin) return xd == yd;
    return hypot(xd.real() - yd.real(), xd.imag() - yd.imag()) <= atol + rtol * hypot(yd.real(), yd.imag());
  } else {
    const double xd = static_cast<double>(x), yd = static_cast<double>(y);
    if (!(isfinite(xd) && isfinite(yd))) return xd == yd;
    return fabs(xd - yd) <= atol + rtol * fabs(yd);
  }
}

template <class T>
__device__ __forceinline__ T maybe_conj(const T& v, bool herm) {
  if constexpr (is_complex_v<T>) return herm ? conj_elem(v) : v;
  else return v;
}

template <class T>
__global__ void symmetry_kernel(const char* a, strided_indexer bix, std::int64_t sr, std::int64_t sc, std::int64_t n,
                                bool herm, bool tol, double atol, double rtol, bool* out) {
  __shared__ int s_bad;
  if (threadIdx.x == 0) s_bad = 0;
  __syncthreads();
  const std::int64_t b = blockIdx.x;
  const char* base = a + bix.offset(b);
  bool bad = false;
  const std::int64_t per = n * n;
  for (std::int64_t e = threadIdx.x; e < per && !bad; e += blockDim.x) {
    const std::int64_t i = e / n, j = e - i * n;
    const T x = load_at<T>(base, sr, sc, i, j);
    if (tol) {
      // numpy.allclose(a, a'.T) over every entry, a' = a or conj(a)
      bad = !close(x, maybe_conj(load_at<T>(base, sr, sc, j, i), herm), atol, rtol);
    } else if (i < j) {
      bad = !same(x, maybe_conj(load_at<T>(base, sr, sc, j, i), herm));
    } else if (i == j) {
      if constexpr (is_complex_v<T>) bad = herm && x.imag() != 0;
    }
  }
  if (bad) s_bad = 1;
  __syncthreads();
  if (threadIdx.x == 0) out[b] = !s_bad;
}

template <class F>
void dispatch_structure(dtype t, F&& f) {
  using cusci::detail::type_tag;
  switch (t) {
    case dtype::float32: return f(type_tag<float>{});
    case dtype::float64: return f(type_tag<double>{});
    case dtype::complex64: return f(type_tag<cuda::std::complex<float>>{});
    case dtype::complex128: return f(type_tag<cuda::std::complex<double>>{});
    case dtype::float16: break;
    default:
      switch (itemsize(t)) {
        case 1: return f(type_tag<std::uint8_t>{});
        case 2: return f(type_tag<std::uint16_t>{});
        case 4: return f(type_tag<std::uint32_t>{});
        case 8: return f(type_tag<std::uint64_t>{});
        default: break;
      }
  }
  throw type_error("cusci::linalg: structure queries do not support dtype " + std::string(dtype_name(t)));
}

}  // namespace

void band_width(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t rows, std::int64_t cols,
                std::int64_t* lo, std::int64_t* up) {
  if (nbatch == 0) return;
  const strided_indexer bix = batch_indexer(a);
  dispatch_structure(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    bandwidth_kernel<T><<<static_cast<unsigned>(nbatch), block, 0, get_current_stream()>>>(
        static_cast<const char*>(a.data), bix, a.s_row, a.s_col, rows, cols, lo, up);
    CUSCI_CHECK_LAUNCH();
  });
}

void symmetry(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t n, bool herm, bool tol, double atol,
              double rtol, bool* out) {
  if (nbatch == 0) return;
  const strided_indexer bix = batch_indexer(a);
  dispatch_structure(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    symmetry_kernel<T><<<static_cast<unsigned>(nbatch), block, 0, get_current_stream()>>>(
        static_cast<const char*>(a.data), bix, a.s_row, a.s_col, n, herm, tol, atol, rtol, out);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::linalg::detail
