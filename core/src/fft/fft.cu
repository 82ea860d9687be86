// cusci::fft: the discrete Fourier transforms (scipy.fft semantics) on cuFFT, and fftshift.
//
// Layout strategy. Every result is a new C-contiguous array. A complex input of the right precision that
// is C-contiguous and needs no cropping/padding is transformed straight into the output (C2C and R2C
// out of place, no copy); any other input is first copied (cast, cropped, zero-padded, with the norm
// scale folded in) into the output (C2C) or a contiguous real buffer (R2C); C2R always works on a copy,
// since cuFFT overwrites a C2R input. Transforms over the trailing k <= 3 axes use one rank-k plan;
// any other set of axes runs one batched 1-D transform per axis with cuFFT's advanced layout
// (stride = product of the inner lengths), in place on the output.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include <cuda/std/complex>
#include <cufft.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/copy.hpp"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/stream.hpp"
#include "fft/fft_kernels.cuh"

namespace cusci::fft {
namespace detail {
using cusci::detail::max_kernel_dims;

namespace {
template <class T> struct real_of { using type = T; };
template <class T> struct real_of<cuda::std::complex<T>> { using type = T; };

template <class D, class S>
__device__ __forceinline__ D convert_scaled(S s, typename real_of<D>::type scale, bool conj) {
  if constexpr (cusci::detail::is_complex_v<D>) {
    using R = typename real_of<D>::type;
    if constexpr (cusci::detail::is_complex_v<S>) {
      R re = static_cast<R>(s.real()) * scale, im = static_cast<R>(s.imag()) * scale;
      return D(re, conj ? -im : im);
    } else {
      return D(static_cast<R>(s) * scale, R(0));
    }
  } else {
    return static_cast<D>(s) * scale;
  }
}

struct pad_desc {
  int ndim;
  std::int64_t dshape[max_kernel_dims];
  std::int64_t sshape[max_kernel_dims];
  std::int64_t sstride[max_kernel_dims];  // bytes
};

// dst is C-contiguous [rows, L] (rows = product of dshape[:-1]); threads (x: along the row, y: rows).
template <class S, class D>
__global__ void pad_copy_kernel(const char* __restrict__ src, D* __restrict__ dst, pad_desc p, std::int64_t rows,
                                std::int64_t L, typename real_of<D>::type scale, bool conj) {
  const int last = p.ndim - 1;
  const std::int64_t Ls = p.sshape[last] < L ? p.sshape[last] : L;
  const std::int64_t cs = p.sstride[last];
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; r < rows;
       r += static_cast<std::int64_t>(gridDim.y) * blockDim.y) {
    std::int64_t rem = r, off = 0;
    bool inside = true;
    for (int d = last - 1; d >= 0; --d) {
      const std::int64_t q = rem / p.dshape[d];
      const std::int64_t c = rem - q * p.dshape[d];
      rem = q;
      inside = inside && c < p.sshape[d];
      off += c * p.sstride[d];
    }
    D* drow = dst + r * L;
    for (std::int64_t l = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; l < L;
         l += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
      D v{};
      if (inside && l < Ls) v = convert_scaled<D>(*reinterpret_cast<const S*>(src + off + l * cs), scale, conj);
      drow[l] = v;
    }
  }
}

template <class D>
__global__ void scale_kernel(D* __restrict__ a, std::int64_t n, typename real_of<D>::type scale, bool conj) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    a[i] = convert_scaled<D>(a[i], scale, conj);
}

template <class T>
__global__ void real_to_complex_kernel(const T* __restrict__ in, cuda::std::complex<T>* __restrict__ out,
                                       std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = cuda::std::complex<T>(in[i], T(0));
}
template <class T>
__global__ void complex_to_real_kernel(const cuda::std::complex<T>* __restrict__ in, T* __restrict__ out,
                                       std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = in[i].real();
}

// Copies the box [outer, len, inner] between two strided layouts (element strides), for the staging
// buffers of real transforms (see run_axis). Thread i handles element i of the box in C order.
struct box_desc {
  std::int64_t outer, len, inner;
  std::int64_t s_outer, s_len, s_inner;  // source strides
  std::int64_t d_outer, d_len, d_inner;  // destination strides
};
template <class E>
__global__ void box_copy_kernel(const E* __restrict__ src, E* __restrict__ dst, box_desc b, std::int64_t n) {
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = t % b.inner, q = t / b.inner;
    const std::int64_t j = q % b.len, o = q / b.len;
    dst[o * b.d_outer + j * b.d_len + i * b.d_inner] = src[o * b.s_outer + j * b.s_len + i * b.s_inner];
  }
}

// Makes the zero-frequency (and for even n the Nyquist) columns along axis `la` of the contiguous
// half spectrum W Hermitian over the other transformed axes: W[j] = (W[j] + conj(W[-j])) / 2, so that
// every C2R algorithm gives pocketfft's answer (which ignores their anti-Hermitian part, e.g. the
// imaginary parts of X[0] and X[n/2] in 1-D). Each thread owns one (j, -j) pair.
struct herm_desc {
  int ndim, la;
  std::int64_t shape[max_kernel_dims];
  bool mirror[max_kernel_dims];
  std::int64_t cols[2];
  int ncols;
};
template <class T>
__global__ void hermitian_fix_kernel(cuda::std::complex<T>* w, herm_desc h, std::int64_t count) {
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < count;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t rem = t / h.ncols;
    const std::int64_t col = h.cols[t - rem * h.ncols];
    std::int64_t lin = 0, mlin = 0, mul = 1;
    for (int d = h.ndim - 1; d >= 0; --d) {
      std::int64_t c;
      if (d == h.la) {
        c = col;
      } else {
        const std::int64_t q = rem / h.shape[d];
        c = rem - q * h.shape[d];
        rem = q;
      }
      const std::int64_t mc = (h.mirror[d] && c != 0) ? h.shape[d] - c : c;
      lin += c * mul;
      mlin += mc * mul;
      mul *= h.shape[d];
    }
    if (lin == mlin) {
      w[lin] = cuda::std::complex<T>(w[lin].real(), T(0));
    } else if (lin < mlin) {
      const cuda::std::complex<T> a = w[lin], b = w[mlin];
      const T re = (a.real() + b.real()) * T(0.5), im = (a.imag() - b.imag()) * T(0.5);
      w[lin] = cuda::std::complex<T>(re, im);
      w[mlin] = cuda::std::complex<T>(re, -im);
    }
  }
}

// fftshift: out (contiguous, shape of x) [j] = x[(j + sh) mod n] per axis.
struct shift_desc {
  int ndim;
  std::int64_t shape[max_kernel_dims];
  std::int64_t shift[max_kernel_dims];
  std::int64_t sstride[max_kernel_dims];
};
template <class E>
__global__ void shift_kernel(const char* __restrict__ src, E* __restrict__ dst, shift_desc p, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t rem = i, off = 0;
    for (int d = p.ndim - 1; d >= 0; --d) {
      const std::int64_t q = rem / p.shape[d];
      std::int64_t c = rem - q * p.shape[d] + p.shift[d];
      if (c >= p.shape[d]) c -= p.shape[d];
      rem = q;
      off += c * p.sstride[d];
    }
    dst[i] = *reinterpret_cast<const E*>(src + off);
  }
}
struct alignas(8) bytes16 {
  std::uint64_t a, b;
};

// cuFFT requires its data aligned to the size of the complex type of the transform (CUFFT_INVALID_VALUE
// otherwise): an input view used in place of a copy must pass this (alignment in bytes).
bool aligned_to(const ndarray& x, std::size_t a) { return reinterpret_cast<std::uintptr_t>(x.data()) % a == 0; }

bool is_fft_dtype(dtype t) {
  return t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128;
}
dtype complex_of(dtype real) { return real == dtype::float64 ? dtype::complex128 : dtype::complex64; }

void exec(cufftHandle h, int type, const void* in, void* out, int dir) {
  void* i = const_cast<void*>(in);
  switch (type) {
    case CUFFT_C2C:
      CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecC2C)(h, static_cast<cufftComplex*>(i), static_cast<cufftComplex*>(out), dir));
      break;
    case CUFFT_Z2Z:
      CUSCI_CUFFT_TRY(
          CUSCI_LAZY(cufftExecZ2Z)(h, static_cast<cufftDoubleComplex*>(i), static_cast<cufftDoubleComplex*>(out), dir));
      break;
    case CUFFT_R2C:
      CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecR2C)(h, static_cast<cufftReal*>(i), static_cast<cufftComplex*>(out)));
      break;
    case CUFFT_D2Z:
      CUSCI_CUFFT_TRY(
          CUSCI_LAZY(cufftExecD2Z)(h, static_cast<cufftDoubleReal*>(i), static_cast<cufftDoubleComplex*>(out)));
      break;
    case CUFFT_C2R:
      CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecC2R)(h, static_cast<cufftComplex*>(i), static_cast<cufftReal*>(out)));
      break;
    case CUFFT_Z2D:
      CUSCI_CUFFT_TRY(
          CUSCI_LAZY(cufftExecZ2D)(h, static_cast<cufftDoubleComplex*>(i), static_cast<cufftDoubleReal*>(out)));
      break;
    default: throw value_error("cusci::fft: unknown cuFFT transform type");
  }
}

std::size_t in_elem(int type) {
  switch (type) {
    case CUFFT_C2C: case CUFFT_C2R: case CUFFT_D2Z: return 8;
    case CUFFT_R2C: return 4;
    default: return 16;  // Z2Z, Z2D
  }
}
std::size_t out_elem(int type) {
  switch (type) {
    case CUFFT_C2C: case CUFFT_R2C: return 8;
    case CUFFT_C2R: return 4;
    case CUFFT_Z2D: return 8;
    default: return 16;  // Z2Z, D2Z
  }
}
void box_copy(const void* src, void* dst, const box_desc& b, std::size_t es) {
  const std::int64_t n = b.outer * b.len * b.inner;
  if (n == 0) return;
  const cudaStream_t s = get_current_stream();
  const unsigned g = cusci::detail::grid_for(n);
  if (es == 4)
    box_copy_kernel<std::uint32_t><<<g, 256, 0, s>>>(static_cast<const std::uint32_t*>(src),
                                                     static_cast<std::uint32_t*>(dst), b, n);
  else
    box_copy_kernel<std::uint64_t><<<g, 256, 0, s>>>(static_cast<const std::uint64_t*>(src),
                                                     static_cast<std::uint64_t*>(dst), b, n);
  CUSCI_CHECK_LAUNCH();
}

int c2c_type(bool dbl) { return dbl ? CUFFT_Z2Z : CUFFT_C2C; }
int r2c_type(bool dbl) { return dbl ? CUFFT_D2Z : CUFFT_R2C; }
int c2r_type(bool dbl) { return dbl ? CUFFT_Z2D : CUFFT_C2R; }

// One rank-k transform over the trailing k axes (basic layout), `batch` of them.
void run_trailing(int type, int rank, const std::int64_t* n, std::int64_t batch, const void* in, void* out,
                  int dir) {
  cusci::detail::fft_plan_key k;
  k.rank = rank;
  for (int i = 0; i < rank; ++i) k.n[i] = n[i];
  k.istride = k.ostride = 1;
  k.idist = k.odist = 0;
  k.batch = batch;
  k.type = type;
  cusci::detail::fft_plan_lease l = cusci::detail::acquire_fft_plan(k);
  exec(l.handle, type, in, out, dir);
}

// True when `axes` (unique) are exactly the trailing k <= 3 axes of an ndim array, all longer than 1.
bool trailing(const std::vector<int>& axes, int ndim, const shape_t& lens_by_axis) {
  const int k = static_cast<int>(axes.size());
  if (k < 1 || k > 3) return false;
  std::vector<int> s(axes);
  std::sort(s.begin(), s.end());
  for (int i = 0; i < k; ++i)
    if (s[i] != ndim - k + i || lens_by_axis[s[i]] < 2) return false;
  return true;
}

std::int64_t prod(const shape_t& s, int b, int e) {
  std::int64_t p = 1;
  for (int i = b; i < e; ++i) p *= s[i];
  return p;
}

// C2C over `axes` of the contiguous array of `shape`: in (may equal out) -> out.
void exec_c2c_axes(const void* in, void* out, const shape_t& shape, const std::vector<int>& axes, int dir,
                   bool dbl) {
  const int nd = static_cast<int>(shape.size());
  const int type = c2c_type(dbl);
  if (trailing(axes, nd, shape)) {
    const int k = static_cast<int>(axes.size());
    run_trailing(type, k, shape.data() + nd - k, prod(shape, 0, nd - k), in, out, dir);
    return;
  }
  const void* src = in;
  for (int a : axes) {
    run_axis(type, shape[a], shape[a], shape[a], prod(shape, 0, a), prod(shape, a + 1, nd), src, out, dir);
    src = out;
  }
  if (src != out) {  // no axis (cannot happen for callers) : plain copy
    CUSCI_CUDA_TRY(cudaMemcpyAsync(out, in, prod(shape, 0, nd) * (dbl ? 16 : 8), cudaMemcpyDeviceToDevice,
                                   get_current_stream()));
  }
}

void hermitian_fix(ndarray& w, int la, std::int64_t n_last, const std::vector<int>& other_axes) {
  herm_desc h{};
  h.ndim = w.ndim();
  CUSCI_EXPECTS(h.ndim <= max_kernel_dims, value_error, "cusci::fft: arrays of more than 16 dimensions");
  h.la = la;
  for (int d = 0; d < h.ndim; ++d) {
    h.shape[d] = w.shape()[d];
    h.mirror[d] = false;
  }
  for (int a : other_axes) h.mirror[a] = true;
  h.cols[0] = 0;
  h.ncols = 1;
  if (n_last % 2 == 0 && n_last / 2 != 0) h.cols[h.ncols++] = n_last / 2;
  const std::int64_t count = (w.size() / w.shape()[la]) * h.ncols;
  if (count == 0) return;
  const cudaStream_t s = get_current_stream();
  if (w.dtype() == dtype::complex128)
    hermitian_fix_kernel<double><<<cusci::detail::grid_for(count), 256, 0, s>>>(
        w.data_as<cuda::std::complex<double>>(), h, count);
  else
    hermitian_fix_kernel<float><<<cusci::detail::grid_for(count), 256, 0, s>>>(
        w.data_as<cuda::std::complex<float>>(), h, count);
  CUSCI_CHECK_LAUNCH();
}
}  // namespace

// ------------------------------------------------------------------------------------------------
ndarray promote(const ndarray& x, const char* fn) {
  const dtype t = x.dtype();
  if (is_fft_dtype(t)) return x;
  if (is_integer(t) || is_bool(t)) return x.astype(dtype::float64);
  if (itemsize(t) == 2) return x.astype(dtype::float32);  // float16
  throw type_error(std::string(fn) + ": x has an unsupported dtype " + std::string(dtype_name(t)));
}

int normalize_axis(int axis, int ndim, const char* fn) {
  CUSCI_EXPECTS(ndim >= 1, index_error, std::string(fn) + ": x must have at least one dimension, got a 0-d array");
  CUSCI_EXPECTS(axis >= -ndim && axis < ndim, index_error,
                std::string(fn) + ": axis " + std::to_string(axis) + " is out of bounds for an array of dimension " +
                    std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

void init_nd(const ndarray& x, const std::optional<shape_t>& s, const std::optional<std::vector<int>>& axes,
             const char* fn, shape_t& lens, std::vector<int>& out_axes, bool c2r_default_last) {
  const int nd = x.ndim();
  out_axes.clear();
  lens.clear();
  if (axes) {
    for (int a : *axes) {
      const int b = a < 0 ? a + nd : a;
      CUSCI_EXPECTS(b >= 0 && b < nd, value_error,
                    std::string(fn) + ": axes exceeds dimensionality of input (axis " + std::to_string(a) +
                        " for an array of dimension " + std::to_string(nd) + ")");
      out_axes.push_back(b);
    }
    for (std::size_t i = 0; i < out_axes.size(); ++i)
      for (std::size_t j = i + 1; j < out_axes.size(); ++j)
        CUSCI_EXPECTS(out_axes[i] != out_axes[j], value_error, std::string(fn) + ": all axes must be unique");
  }
  if (s) {
    if (axes && !axes->empty())
      CUSCI_EXPECTS(axes->size() == s->size(), value_error,
                    std::string(fn) + ": when given, axes and shape arguments have to be of the same length (" +
                        std::to_string(axes->size()) + " axes, " + std::to_string(s->size()) + " lengths)");
    if (!axes) {
      CUSCI_EXPECTS(static_cast<int>(s->size()) <= nd, value_error,
                    std::string(fn) + ": shape requires more axes than are present (" + std::to_string(s->size()) +
                        " lengths, " + std::to_string(nd) + " dimensions)");
      for (int i = nd - static_cast<int>(s->size()); i < nd; ++i) out_axes.push_back(i);
    }
    for (std::size_t i = 0; i < out_axes.size() && i < s->size(); ++i)
      lens.push_back((*s)[i] == -1 ? x.shape()[out_axes[i]] : (*s)[i]);
  } else {
    if (!axes)
      for (int i = 0; i < nd; ++i) out_axes.push_back(i);
    for (int a : out_axes) lens.push_back(x.shape()[a]);
    if (c2r_default_last && !lens.empty()) lens.back() = 2 * (x.shape()[out_axes.back()] - 1);
  }
  for (std::int64_t v : lens) {
    if (v < 1) {
      std::string l = "[";
      for (std::size_t i = 0; i < lens.size(); ++i) l += (i ? ", " : "") + std::to_string(lens[i]);
      throw value_error(std::string(fn) + ": invalid number of data points (" + l + "]) specified");
    }
  }
}

double norm_factor(norm_mode norm, double n, bool forward) {
  switch (norm) {
    case norm_mode::backward: return forward ? 1.0 : 1.0 / n;
    case norm_mode::ortho: return 1.0 / std::sqrt(n);
    case norm_mode::forward: return forward ? 1.0 / n : 1.0;
  }
  return 1.0;
}

void pad_copy(const ndarray& x, ndarray& dst, double scale, bool conj) {
  if (dst.size() == 0) return;
  const int nd = dst.ndim();
  CUSCI_EXPECTS(nd >= 1 && nd <= max_kernel_dims && x.ndim() == nd, value_error,
                "cusci::fft: arrays of 1 to 16 dimensions are supported");
  pad_desc p{};
  p.ndim = nd;
  for (int d = 0; d < nd; ++d) {
    p.dshape[d] = dst.shape()[d];
    p.sshape[d] = x.shape()[d];
    p.sstride[d] = x.strides()[d];
  }
  const std::int64_t L = dst.shape()[nd - 1];
  const std::int64_t rows = dst.size() / L;
  int bx = 256;
  while (bx > 32 && bx / 2 >= L) bx /= 2;
  const int by = 256 / bx;
  const std::int64_t gx = std::min<std::int64_t>((L + bx - 1) / bx, 1LL << 20);
  const std::int64_t gy = std::min<std::int64_t>((rows + by - 1) / by, 65535);
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), block(bx, by);
  const cudaStream_t s = get_current_stream();
  const char* src = static_cast<const char*>(x.data());
  using cf = cuda::std::complex<float>;
  using cd = cuda::std::complex<double>;
  const dtype st = x.dtype(), dt = dst.dtype();
  if (st == dtype::float32 && dt == dtype::float32)
    pad_copy_kernel<float, float><<<grid, block, 0, s>>>(src, dst.data_as<float>(), p, rows, L, float(scale), conj);
  else if (st == dtype::float32 && dt == dtype::complex64)
    pad_copy_kernel<float, cf><<<grid, block, 0, s>>>(src, dst.data_as<cf>(), p, rows, L, float(scale), conj);
  else if (st == dtype::complex64 && dt == dtype::complex64)
    pad_copy_kernel<cf, cf><<<grid, block, 0, s>>>(src, dst.data_as<cf>(), p, rows, L, float(scale), conj);
  else if (st == dtype::float64 && dt == dtype::float64)
    pad_copy_kernel<double, double><<<grid, block, 0, s>>>(src, dst.data_as<double>(), p, rows, L, scale, conj);
  else if (st == dtype::float64 && dt == dtype::complex128)
    pad_copy_kernel<double, cd><<<grid, block, 0, s>>>(src, dst.data_as<cd>(), p, rows, L, scale, conj);
  else if (st == dtype::complex128 && dt == dtype::complex128)
    pad_copy_kernel<cd, cd><<<grid, block, 0, s>>>(src, dst.data_as<cd>(), p, rows, L, scale, conj);
  else
    throw type_error("cusci::fft: internal copy from " + std::string(dtype_name(st)) + " to " +
                     std::string(dtype_name(dt)) + " is not supported");
  CUSCI_CHECK_LAUNCH();
}

void scale_inplace(ndarray& a, double scale, bool conj) {
  const std::int64_t n = a.size();
  if (n == 0 || (scale == 1.0 && !conj)) return;
  const cudaStream_t s = get_current_stream();
  const unsigned g = cusci::detail::grid_for(n);
  switch (a.dtype()) {
    case dtype::float32: scale_kernel<float><<<g, 256, 0, s>>>(a.data_as<float>(), n, float(scale), false); break;
    case dtype::float64: scale_kernel<double><<<g, 256, 0, s>>>(a.data_as<double>(), n, scale, false); break;
    case dtype::complex64:
      scale_kernel<cuda::std::complex<float>><<<g, 256, 0, s>>>(a.data_as<cuda::std::complex<float>>(), n,
                                                                   float(scale), conj);
      break;
    case dtype::complex128:
      scale_kernel<cuda::std::complex<double>><<<g, 256, 0, s>>>(a.data_as<cuda::std::complex<double>>(), n,
                                                                    scale, conj);
      break;
    default: throw type_error("cusci::fft: internal scale of a non-float array");
  }
  CUSCI_CHECK_LAUNCH();
}

void run_axis(int type, std::int64_t n, std::int64_t in_len, std::int64_t out_len, std::int64_t outer,
              std::int64_t inner, const void* in, void* out, int dir, const in_layout* lay) {
  const std::int64_t total = outer * inner;
  if (total == 0) return;
  const cudaStream_t s = get_current_stream();
  if (n == 1) {  // identity / real <-> complex, without cuFFT (whose plans of length 1 are not portable)
    CUSCI_EXPECTS(lay == nullptr, value_error, "cusci::fft: internal: strided input of a length-1 transform");
    if (type == CUFFT_C2C || type == CUFFT_Z2Z) {
      if (in != out)
        CUSCI_CUDA_TRY(cudaMemcpyAsync(out, in, total * in_len * in_elem(type), cudaMemcpyDeviceToDevice, s));
      return;
    }
    const std::int64_t cnt = total;  // in_len == out_len == 1
    const unsigned g = cusci::detail::grid_for(cnt);
    if (type == CUFFT_R2C)
      real_to_complex_kernel<float><<<g, 256, 0, s>>>(static_cast<const float*>(in),
                                                      static_cast<cuda::std::complex<float>*>(out), cnt);
    else if (type == CUFFT_D2Z)
      real_to_complex_kernel<double><<<g, 256, 0, s>>>(static_cast<const double*>(in),
                                                       static_cast<cuda::std::complex<double>*>(out), cnt);
    else if (type == CUFFT_C2R)
      complex_to_real_kernel<float><<<g, 256, 0, s>>>(static_cast<const cuda::std::complex<float>*>(in),
                                                      static_cast<float*>(out), cnt);
    else
      complex_to_real_kernel<double><<<g, 256, 0, s>>>(static_cast<const cuda::std::complex<double>*>(in),
                                                       static_cast<double*>(out), cnt);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  // Element strides as {axis, outer, inner}: the input's (given, or the contiguous [outer, in_len, inner])
  // and the output's (contiguous [outer, out_len, inner]).
  in_layout L = lay ? *lay : in_layout{inner, in_len * inner, 1};
  const in_layout Oc{inner, out_len * inner, 1};
  in_layout O = Oc;
  const std::int64_t ie = static_cast<std::int64_t>(in_elem(type)), oe = static_cast<std::int64_t>(out_elem(type));
  // Batch over the outer lines (inner == 1: a single call); else batch over the inner (interleaved)
  // lines and loop over the outer blocks, or batch over the outer blocks and loop over the inner
  // lines, whichever loops less.
  enum class mode { one, batch_inner, batch_outer };
  const mode m = inner == 1 ? mode::one : (outer <= inner ? mode::batch_inner : mode::batch_outer);
  const std::int64_t loops = m == mode::one ? 1 : (m == mode::batch_inner ? outer : inner);
  auto in_step_of = [&](const in_layout& l) { return m == mode::batch_inner ? l.outer : l.inner; };  // elements
  // cuFFT refuses (CUFFT_INVALID_VALUE) real data that is not aligned to the size of the complex type:
  // the real side's base pointer and every per-loop offset must be multiples of 2 * (real size) bytes.
  // Where they are not (odd block lengths, offset views), the real side goes through a staging buffer
  // whose block stride is rounded up to an even number of elements.
  const bool real_in = type == CUFFT_R2C || type == CUFFT_D2Z;
  const bool real_out = type == CUFFT_C2R || type == CUFFT_Z2D;
  auto misaligned = [&](const void* p, const in_layout& l, std::int64_t es) {
    const std::int64_t a = 2 * es;
    return reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(a) != 0 ||
           (loops > 1 && (in_step_of(l) * es) % a != 0);
  };
  // The staging layout of a [outer, len, inner] box for the chosen mode, and its element count.
  auto staging = [&](std::int64_t len, in_layout& st) {
    auto even = [](std::int64_t v) { return v + (v & 1); };
    switch (m) {
      case mode::one: st = {1, len, 1}; return outer * len;
      case mode::batch_inner: st = {inner, even(len * inner), 1}; return outer * st.outer;
      default: st = {1, len, even(outer * len)}; return inner * st.inner;
    }
  };
  const dtype real_dt = (real_in ? ie : oe) == 8 ? dtype::float64 : dtype::float32;
  ndarray in_stage, out_stage;
  const void* src = in;
  void* dst = out;
  if (real_in && misaligned(in, L, ie)) {
    in_layout st{};
    const std::int64_t cnt = staging(in_len, st);
    in_stage = empty(shape_t{cnt}, real_dt);
    box_copy(in, in_stage.data(), box_desc{outer, in_len, inner, L.outer, L.axis, L.inner, st.outer, st.axis, st.inner},
             static_cast<std::size_t>(ie));
    L = st;
    src = in_stage.data();
  }
  if (real_out && misaligned(out, O, oe)) {
    in_layout st{};
    const std::int64_t cnt = staging(out_len, st);
    out_stage = empty(shape_t{cnt}, real_dt);
    O = st;
    dst = out_stage.data();
  }
  cusci::detail::fft_plan_key k;
  k.rank = 1;
  k.n[0] = n;
  k.inembed[0] = in_len;
  k.onembed[0] = out_len;
  k.type = type;
  k.istride = L.axis;
  k.ostride = O.axis;
  std::int64_t in_step = 0, out_step = 0;  // bytes
  switch (m) {
    case mode::one:
      k.idist = L.outer;
      k.odist = O.outer;
      k.batch = outer;
      break;
    case mode::batch_inner:
      k.idist = L.inner;
      k.odist = O.inner;
      k.batch = inner;
      in_step = L.outer * ie;
      out_step = O.outer * oe;
      break;
    case mode::batch_outer:
      k.idist = L.outer;
      k.odist = O.outer;
      k.batch = outer;
      in_step = L.inner * ie;
      out_step = O.inner * oe;
      break;
  }
  cusci::detail::fft_plan_lease l = cusci::detail::acquire_fft_plan(k);
  for (std::int64_t i = 0; i < loops; ++i)
    exec(l.handle, type, static_cast<const char*>(src) + i * in_step, static_cast<char*>(dst) + i * out_step, dir);
  if (dst != out)
    box_copy(dst, out, box_desc{outer, out_len, inner, O.outer, O.axis, O.inner, Oc.outer, Oc.axis, Oc.inner},
             static_cast<std::size_t>(oe));
}

// x's element strides as [outer, axis, inner] around axis a, when the dims before a (and after a)
// merge into one and every stride is positive; false otherwise (the caller copies instead).
bool strided_layout(const ndarray& x, int a, in_layout& lay) {
  const std::int64_t es = static_cast<std::int64_t>(x.itemsize());
  const int nd = x.ndim();
  auto merge = [&](int b, int e, std::int64_t& stride) {
    std::int64_t expect = -1;  // stride the next non-1 dim must have (C-order merge), -1 before the first
    stride = 1;
    bool any = false;
    for (int d = e - 1; d >= b; --d) {
      const std::int64_t len = x.shape()[d], st = x.strides()[d];
      if (len == 1) continue;
      if (st <= 0 || st % es) return false;
      if (!any) {
        stride = st / es;
        any = true;
      } else if (st / es != expect) {
        return false;
      }
      expect = (st / es) * len;
    }
    return true;
  };
  const std::int64_t sa = x.strides()[a];
  if (x.shape()[a] > 1 && (sa <= 0 || sa % es)) return false;
  lay.axis = x.shape()[a] > 1 ? sa / es : 1;
  if (!merge(0, a, lay.outer) || !merge(a + 1, nd, lay.inner)) return false;
  std::int64_t outer = 1;
  for (int d = 0; d < a; ++d) outer *= x.shape()[d];
  if (outer == 1) lay.outer = lay.axis * x.shape()[a];  // a single batch: the distance is never used
  return true;
}

}  // namespace detail

// ------------------------------------------------------------------------------------------------
namespace {
using namespace detail;

enum class kind { c2c, r2c, c2r };

struct request {
  const char* fn;
  kind k;
  bool forward;  // direction for the norm and the C2C sign
  bool conj;     // hfft (conjugated input) / ihfft (conjugated output)
  std::vector<int> axes;
  shape_t lens;
  norm_mode norm;
};

ndarray run_c2c(const ndarray& x0, const request& r) {
  ndarray x = promote(x0, r.fn);
  const bool dbl = real_dtype(x.dtype()) == dtype::float64;
  const dtype cd = complex_of(real_dtype(x.dtype()));
  shape_t os = x.shape();
  double n = 1;
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    os[r.axes[i]] = r.lens[i];
    n *= static_cast<double>(r.lens[i]);
  }
  ndarray out = empty(os, cd);
  if (out.size() == 0) return out;
  const double scale = norm_factor(r.norm, n, r.forward);
  const int dir = r.forward ? CUFFT_FORWARD : CUFFT_INVERSE;
  const bool same = x.dtype() == cd && os == x.shape() && aligned_to(x, itemsize(cd));
  in_layout lay{};
  const int a0 = r.axes.front();
  if (same && x.is_c_contiguous()) {
    exec_c2c_axes(x.data(), out.data(), os, r.axes, dir, dbl);
    scale_inplace(out, scale, false);
  } else if (same && os[a0] > 1 && strided_layout(x, a0, lay)) {
    // Strided input (F order, sliced views): the first axis reads it through cuFFT's advanced layout
    // into the output; the other axes run in place.
    const int nd = x.ndim();
    run_axis(c2c_type(dbl), os[a0], os[a0], os[a0], prod(os, 0, a0), prod(os, a0 + 1, nd), x.data(), out.data(), dir,
             &lay);
    std::vector<int> rest(r.axes.begin() + 1, r.axes.end());
    if (!rest.empty()) exec_c2c_axes(out.data(), out.data(), os, rest, dir, dbl);
    scale_inplace(out, scale, false);
  } else {
    pad_copy(x, out, scale, false);
    exec_c2c_axes(out.data(), out.data(), os, r.axes, dir, dbl);
  }
  return out;
}

ndarray run_r2c(const ndarray& x0, const request& r) {
  ndarray x = promote(x0, r.fn);
  CUSCI_EXPECTS(!is_complex(x.dtype()), type_error,
                std::string(r.fn) + ": x must be a real sequence, got dtype " + std::string(dtype_name(x.dtype())));
  const dtype rd = x.dtype();
  const bool dbl = rd == dtype::float64;
  const dtype cd = complex_of(rd);
  const int nd = x.ndim();
  const int la = r.axes.back();
  shape_t rs = x.shape();
  double n = 1;
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    rs[r.axes[i]] = r.lens[i];
    n *= static_cast<double>(r.lens[i]);
  }
  shape_t os = rs;
  os[la] = rs[la] / 2 + 1;
  ndarray out = empty(os, cd);
  if (out.size() == 0) return out;
  const double scale = norm_factor(r.norm, n, r.forward);
  ndarray rin = x;
  bool scaled = false;
  std::vector<int> others(r.axes.begin(), r.axes.end() - 1);
  in_layout lay{};
  if (rs == x.shape() && !x.is_c_contiguous() && rs[la] > 1 && strided_layout(x, la, lay)) {
    // Strided real input read through cuFFT's advanced layout (R2C does not modify its input).
    run_axis(r2c_type(dbl), rs[la], rs[la], os[la], prod(rs, 0, la), prod(rs, la + 1, nd), x.data(), out.data(),
             CUFFT_FORWARD, &lay);
    if (!others.empty()) exec_c2c_axes(out.data(), out.data(), os, others, CUFFT_FORWARD, dbl);
    scale_inplace(out, scale, r.conj);
    return out;
  }
  if (!(x.is_c_contiguous() && rs == x.shape() && aligned_to(x, itemsize(cd)))) {
    rin = empty(rs, rd);
    pad_copy(x, rin, scale, false);
    scaled = true;
  }
  if (la == nd - 1 && trailing(r.axes, nd, rs)) {
    const int k = static_cast<int>(r.axes.size());
    run_trailing(r2c_type(dbl), k, rs.data() + nd - k, prod(rs, 0, nd - k), rin.data(), out.data(), CUFFT_FORWARD);
  } else {
    run_axis(r2c_type(dbl), rs[la], rs[la], os[la], prod(rs, 0, la), prod(rs, la + 1, nd), rin.data(), out.data(),
             CUFFT_FORWARD);
    if (!others.empty()) exec_c2c_axes(out.data(), out.data(), os, others, CUFFT_FORWARD, dbl);
  }
  scale_inplace(out, scaled ? 1.0 : scale, r.conj);
  return out;
}

ndarray run_c2r(const ndarray& x0, const request& r) {
  ndarray x = promote(x0, r.fn);
  const dtype rd = real_dtype(x.dtype());
  const bool dbl = rd == dtype::float64;
  const dtype cd = complex_of(rd);
  const int nd = x.ndim();
  const int la = r.axes.back();
  const std::int64_t n_last = r.lens.back();
  shape_t ws = x.shape();
  double n = 1;
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    ws[r.axes[i]] = r.lens[i];
    n *= static_cast<double>(r.lens[i]);
  }
  ws[la] = n_last / 2 + 1;
  shape_t os = ws;
  os[la] = n_last;
  ndarray out = empty(os, rd);
  if (out.size() == 0) return out;
  const double scale = norm_factor(r.norm, n, r.forward);
  ndarray xc = x;
  if (!is_complex(x.dtype())) {  // SciPy promotes a real input to complex
    xc = empty(x.shape(), cd);
    pad_copy(x, xc, 1.0, false);
  }
  ndarray w = empty(ws, cd);
  pad_copy(xc, w, scale, r.conj);
  std::vector<int> others(r.axes.begin(), r.axes.end() - 1);
  hermitian_fix(w, la, n_last, others);
  shape_t lens_by_axis = os;
  if (la == nd - 1 && trailing(r.axes, nd, lens_by_axis)) {
    const int k = static_cast<int>(r.axes.size());
    run_trailing(c2r_type(dbl), k, os.data() + nd - k, prod(os, 0, nd - k), w.data(), out.data(), CUFFT_INVERSE);
  } else {
    if (!others.empty()) exec_c2c_axes(w.data(), w.data(), ws, others, CUFFT_INVERSE, dbl);
    run_axis(c2r_type(dbl), n_last, ws[la], os[la], prod(ws, 0, la), prod(ws, la + 1, nd), w.data(), out.data(),
             CUFFT_INVERSE);
  }
  return out;
}

ndarray run(const ndarray& x, request r) {
  switch (r.k) {
    case kind::c2c: return run_c2c(x, r);
    case kind::r2c: return run_r2c(x, r);
    case kind::c2r: return run_c2r(x, r);
  }
  return {};
}

request make_1d(const ndarray& x, const fft_options& o, const char* fn, kind k, bool forward, bool conj) {
  request r{fn, k, forward, conj, {}, {}, o.norm};
  const int a = normalize_axis(o.axis, x.ndim(), fn);
  std::int64_t n;
  if (o.n) n = *o.n;
  else n = (k == kind::c2r) ? 2 * (x.shape()[a] - 1) : x.shape()[a];
  CUSCI_EXPECTS(n >= 1, value_error, std::string(fn) + ": invalid number of data points (" + std::to_string(n) +
                                         ") specified");
  r.axes = {a};
  r.lens = {n};
  return r;
}

ndarray run_nd(const ndarray& x, const std::optional<shape_t>& s, const std::optional<std::vector<int>>& axes,
               norm_mode norm, const char* fn, kind k, bool forward, bool conj = false) {
  request r{fn, k, forward, conj, {}, {}, norm};
  init_nd(x, s, axes, fn, r.lens, r.axes, k == kind::c2r && !s);
  if (r.axes.empty()) {
    CUSCI_EXPECTS(k == kind::c2c, value_error, std::string(fn) + ": at least 1 axis must be transformed");
    return x.copy();
  }
  return run(x, r);
}
}  // namespace

// --- public entry points ----------------------------------------------------------------------
ndarray fft(const ndarray& x, const fft_options& o) { return run(x, make_1d(x, o, "cusci::fft::fft", kind::c2c, true, false)); }
ndarray ifft(const ndarray& x, const fft_options& o) {
  return run(x, make_1d(x, o, "cusci::fft::ifft", kind::c2c, false, false));
}
ndarray rfft(const ndarray& x, const fft_options& o) {
  CUSCI_EXPECTS(!is_complex(x.dtype()), type_error,
                std::string("cusci::fft::rfft: x must be a real sequence, got dtype ") + std::string(dtype_name(x.dtype())));
  return run(x, make_1d(x, o, "cusci::fft::rfft", kind::r2c, true, false));
}
ndarray irfft(const ndarray& x, const fft_options& o) {
  return run(x, make_1d(x, o, "cusci::fft::irfft", kind::c2r, false, false));
}
ndarray hfft(const ndarray& x, const fft_options& o) {
  return run(x, make_1d(x, o, "cusci::fft::hfft", kind::c2r, true, true));
}
ndarray ihfft(const ndarray& x, const fft_options& o) {
  CUSCI_EXPECTS(!is_complex(x.dtype()), type_error,
                std::string("cusci::fft::ihfft: x must be a real sequence, got dtype ") + std::string(dtype_name(x.dtype())));
  return run(x, make_1d(x, o, "cusci::fft::ihfft", kind::r2c, false, true));
}

ndarray fftn(const ndarray& x, const fftn_options& o) {
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::fftn", kind::c2c, true);
}
ndarray ifftn(const ndarray& x, const fftn_options& o) {
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::ifftn", kind::c2c, false);
}
ndarray rfftn(const ndarray& x, const fftn_options& o) {
  CUSCI_EXPECTS(!is_complex(x.dtype()), type_error,
                std::string("cusci::fft::rfftn: x must be a real sequence, got dtype ") + std::string(dtype_name(x.dtype())));
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::rfftn", kind::r2c, true);
}
ndarray irfftn(const ndarray& x, const fftn_options& o) {
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::irfftn", kind::c2r, false);
}
// hfftn / ihfftn: the C2R transform of the conjugated input with a forward transform's normalization,
// and the conjugated R2C transform with an inverse's (SciPy's c2rn(forward=True) / r2cn(forward=False)).
ndarray hfftn(const ndarray& x, const fftn_options& o) {
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::hfftn", kind::c2r, true, true);
}
ndarray ihfftn(const ndarray& x, const fftn_options& o) {
  CUSCI_EXPECTS(!is_complex(x.dtype()), type_error,
                std::string("cusci::fft::ihfftn: x must be a real sequence, got dtype ") + std::string(dtype_name(x.dtype())));
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::ihfftn", kind::r2c, false, true);
}
ndarray hfft2(const ndarray& x, const fft2_options& o) {
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::hfft2", kind::c2r, true, true);
}
ndarray ihfft2(const ndarray& x, const fft2_options& o) {
  CUSCI_EXPECTS(!is_complex(x.dtype()), type_error,
                std::string("cusci::fft::ihfft2: x must be a real sequence, got dtype ") + std::string(dtype_name(x.dtype())));
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::ihfft2", kind::r2c, false, true);
}
ndarray fft2(const ndarray& x, const fft2_options& o) {
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::fft2", kind::c2c, true);
}
ndarray ifft2(const ndarray& x, const fft2_options& o) {
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::ifft2", kind::c2c, false);
}
ndarray rfft2(const ndarray& x, const fft2_options& o) {
  CUSCI_EXPECTS(!is_complex(x.dtype()), type_error,
                std::string("cusci::fft::rfft2: x must be a real sequence, got dtype ") + std::string(dtype_name(x.dtype())));
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::rfft2", kind::r2c, true);
}
ndarray irfft2(const ndarray& x, const fft2_options& o) {
  return run_nd(x, o.s, o.axes, o.norm, "cusci::fft::irfft2", kind::c2r, false);
}

// --- shifts --------------------------------------------------------------------------------------
namespace {
ndarray shift(const ndarray& x, const std::optional<std::vector<int>>& axes, bool inverse, const char* fn) {
  const int nd = x.ndim();
  std::vector<std::int64_t> sh(nd, 0);
  std::vector<int> ax;
  if (axes) {
    for (int a : *axes) {
      CUSCI_EXPECTS(a >= -nd && a < nd, index_error,
                    std::string(fn) + ": axis " + std::to_string(a) + " is out of bounds for an array of dimension " +
                        std::to_string(nd));
      ax.push_back(a < 0 ? a + nd : a);
    }
  } else {
    for (int i = 0; i < nd; ++i) ax.push_back(i);
  }
  // Output j takes input (j - k) mod n for a roll by k (k = n // 2, or -(n // 2) for the inverse).
  for (int a : ax) {
    const std::int64_t n = x.shape()[a];
    if (n == 0) continue;
    const std::int64_t k = inverse ? -(n / 2) : n / 2;
    sh[a] = (((sh[a] - k) % n) + n) % n;  // repeated axes roll again, as NumPy
  }
  ndarray out = empty(x.shape(), x.dtype());
  const std::int64_t n = out.size();
  if (n == 0) return out;
  CUSCI_EXPECTS(nd <= max_kernel_dims, value_error, std::string(fn) + ": arrays of more than 16 dimensions");
  shift_desc p{};
  p.ndim = nd;
  for (int d = 0; d < nd; ++d) {
    p.shape[d] = x.shape()[d];
    p.shift[d] = sh[d];
    p.sstride[d] = x.strides()[d];
  }
  if (nd == 0) {  // 0-d: a plain copy
    p.ndim = 0;
  }
  const cudaStream_t s = get_current_stream();
  const unsigned g = cusci::detail::grid_for(n);
  const char* src = static_cast<const char*>(x.data());
  switch (x.itemsize()) {
    case 1: shift_kernel<std::uint8_t><<<g, 256, 0, s>>>(src, out.data_as<std::uint8_t>(), p, n); break;
    case 2: shift_kernel<std::uint16_t><<<g, 256, 0, s>>>(src, out.data_as<std::uint16_t>(), p, n); break;
    case 4: shift_kernel<std::uint32_t><<<g, 256, 0, s>>>(src, out.data_as<std::uint32_t>(), p, n); break;
    case 8: shift_kernel<std::uint64_t><<<g, 256, 0, s>>>(src, out.data_as<std::uint64_t>(), p, n); break;
    case 16: shift_kernel<bytes16><<<g, 256, 0, s>>>(src, out.data_as<bytes16>(), p, n); break;
    default: throw type_error(std::string(fn) + ": unsupported item size");
  }
  CUSCI_CHECK_LAUNCH();
  return out;
}
}  // namespace

ndarray fftshift(const ndarray& x, const std::optional<std::vector<int>>& axes) {
  return shift(x, axes, false, "cusci::fft::fftshift");
}
ndarray ifftshift(const ndarray& x, const std::optional<std::vector<int>>& axes) {
  return shift(x, axes, true, "cusci::fft::ifftshift");
}

}  // namespace cusci::fft
