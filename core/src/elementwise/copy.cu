/// @file copy.cu
/// Kernels behind ndarray copies, casts, fill and the creation functions (arange, linspace, eye).
/// One strided copy-with-cast kernel template is instantiated for the 14 x 14 dtype pairs; fill,
/// arange, linspace and the diagonal writer are instantiated once per dtype.

#include <cstring>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"

namespace cusci::detail {
namespace {

constexpr int block_size = 256;

/// Host C++ type matching a device element type (cuda::std::complex<R> -> std::complex<R>).
template <class T> struct host_of { using type = T; };
template <class R> struct host_of<cuda::std::complex<R>> { using type = std::complex<R>; };
template <> struct host_of<__half> { using type = cusci::float16; };

/// A scalar converted to the device element type T (C++ conversion rules, as scalar::value).
template <class T>
T device_value(const scalar& s) {
  using H = typename host_of<T>::type;
  static_assert(sizeof(H) == sizeof(T), "host and device element types differ in size");
  const H h = s.value<H>();
  T d;
  std::memcpy(static_cast<void*>(&d), static_cast<const void*>(&h), sizeof(T));
  return d;
}

/// NumPy's unsafe cast of one element: complex -> real keeps the real part, anything -> bool is
/// "!= 0", bool -> number is 0 or 1, float -> int truncates toward zero (C conversion).
template <class D, class S>
__device__ __forceinline__ D cast_value(const S& v) {
  if constexpr (std::is_same_v<S, __half>) {
    // float16 reads as its exact float value, then casts as float32 would.
    if constexpr (std::is_same_v<D, __half>) return v;
    else return cast_value<D>(__half2float(v));
  } else if constexpr (std::is_same_v<D, __half>) {
    if constexpr (is_complex_v<S>) return to_half(v.real());
    else return to_half(v);
  } else if constexpr (std::is_same_v<D, bool>) {
    if constexpr (is_complex_v<S>) return v.real() != 0 || v.imag() != 0;
    else return v != S(0);
  } else if constexpr (is_complex_v<D>) {
    using R = typename D::value_type;
    if constexpr (is_complex_v<S>) return D(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    else return D(static_cast<R>(v), R(0));
  } else {
    if constexpr (is_complex_v<S>) return static_cast<D>(v.real());
    else return static_cast<D>(v);
  }
}

template <class S, class D>
__global__ void copy_cast_kernel(const char* __restrict__ src, char* __restrict__ dst, std::int64_t n,
                                 strided_indexer si, strided_indexer di, bool contiguous) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (contiguous) {
    const S* s = reinterpret_cast<const S*>(src);
    D* d = reinterpret_cast<D*>(dst);
    for (; i < n; i += stride) d[i] = cast_value<D>(s[i]);
  } else {
    for (; i < n; i += stride)
      *reinterpret_cast<D*>(dst + di.offset(i)) = cast_value<D>(*reinterpret_cast<const S*>(src + si.offset(i)));
  }
}

template <class T>
__global__ void fill_kernel(char* __restrict__ dst, std::int64_t n, strided_indexer di, bool contiguous, T value) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (contiguous) {
    T* d = reinterpret_cast<T*>(dst);
    for (; i < n; i += stride) d[i] = value;
  } else {
    for (; i < n; i += stride) *reinterpret_cast<T*>(dst + di.offset(i)) = value;
  }
}

// first + i * delta without contraction into an FMA (NumPy's fill loops round twice).
__device__ __forceinline__ float affine(float a, std::int64_t i, float d) {
  return __fadd_rn(a, __fmul_rn(static_cast<float>(i), d));
}
__device__ __forceinline__ double affine(double a, std::int64_t i, double d) {
  return __dadd_rn(a, __dmul_rn(static_cast<double>(i), d));
}

template <class T>
__device__ __forceinline__ T arange_value(T first, T second, std::int64_t i) {
  if (i == 0) return first;
  if (i == 1) return second;
  if constexpr (std::is_same_v<T, bool>) {
    const std::int64_t a = first, b = second;
    return (a + i * (b - a)) != 0;
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    const R dr = second.real() - first.real(), dim = second.imag() - first.imag();
    return T(affine(first.real(), i, dr), affine(first.imag(), i, dim));
  } else if constexpr (std::is_same_v<T, __half>) {
    // NumPy's float16 fill: start and delta in float32, each value rounded to float16.
    const float a = __half2float(first), d = __half2float(second) - a;
    return to_half(affine(a, i, d));
  } else if constexpr (std::is_floating_point_v<T>) {
    return affine(first, i, second - first);
  } else {
    // Integers: modular arithmetic in the unsigned type of the same width (NumPy computes in intp and
    // truncates, which gives the same bits).
    using U = std::make_unsigned_t<T>;
    const U d = static_cast<U>(static_cast<U>(second) - static_cast<U>(first));
    return static_cast<T>(static_cast<U>(static_cast<U>(first) + static_cast<U>(i) * d));
  }
}

template <class T>
__global__ void arange_kernel(T* __restrict__ out, std::int64_t n, T first, T second) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = arange_value(first, second, i);
}

template <class T>
__global__ void linspace_kernel(T* __restrict__ out, std::int64_t n, double start, double stop, double step,
                                double delta, std::int64_t div, bool set_last) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const double fi = static_cast<double>(i);
    double y;
    if (div > 0 && step != 0.0) y = __dmul_rn(fi, step);                    // y = y * step
    else if (div > 0) y = __dmul_rn(__ddiv_rn(fi, static_cast<double>(div)), delta);  // y /= div; y *= delta
    else y = __dmul_rn(fi, delta);                                           // num <= 1: y * delta
    y = __dadd_rn(y, start);
    if (set_last && i == n - 1) y = stop;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) y = floor(y);
    out[i] = cast_value<T>(y);
  }
}

template <class T>
__global__ void diagonal_kernel(char* __restrict__ out, std::int64_t count, std::int64_t row0, std::int64_t k,
                                std::int64_t s0, std::int64_t s1) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < count; t += stride) {
    const std::int64_t r = row0 + t;
    *reinterpret_cast<T*>(out + r * s0 + (r + k) * s1) = cast_value<T>(1);
  }
}

bool all_zero_bytes(const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i)
    if (b[i] != 0) return false;
  return true;
}

}  // namespace

void copy_cast(const ndarray& src, ndarray& dst) {
  CUSCI_EXPECTS(src.shape() == dst.shape(), value_error,
                "cusci::copy_cast: dst must have the shape of src " + shape_str(src.shape()) + ", got " +
                    shape_str(dst.shape()));
  const std::int64_t n = src.size();
  if (n == 0) return;
  CUSCI_EXPECTS(src.device() == dst.device(), value_error,
                "cusci::copy_cast: src and dst must be on the same device, got devices " +
                    std::to_string(src.device()) + " and " + std::to_string(dst.device()));
  device_guard guard(dst.device());
  cudaStream_t stream = get_current_stream();

  shape_t shape = src.shape(), ss = src.strides(), ds = dst.strides();
  coalesce(shape, {&ss, &ds});
  const bool contiguous =
      shape.empty() || (shape.size() == 1 && ss[0] == static_cast<std::int64_t>(src.itemsize()) &&
                        ds[0] == static_cast<std::int64_t>(dst.itemsize()));
  if (src.dtype() == dst.dtype() && contiguous) {
    if (src.data() != dst.data())
      CUSCI_CUDA_TRY(cudaMemcpyAsync(dst.data(), src.data(), static_cast<std::size_t>(n) * src.itemsize(),
                                     cudaMemcpyDeviceToDevice, stream));
    return;
  }
  strided_indexer si{}, di{};
  if (!contiguous) {
    si = make_indexer(shape, ss);
    di = make_indexer(shape, ds);
  }
  const char* s = static_cast<const char*>(src.data());
  char* d = static_cast<char*>(dst.data());
  dispatch(src.dtype(), [&](auto stag) {
    using S = typename decltype(stag)::type;
    dispatch(dst.dtype(), [&](auto dtag) {
      using D = typename decltype(dtag)::type;
      copy_cast_kernel<S, D><<<grid_for(n, block_size), block_size, 0, stream>>>(s, d, n, si, di, contiguous);
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void fill(ndarray& dst, const scalar& value) {
  const std::int64_t n = dst.size();
  if (n == 0) return;
  device_guard guard(dst.device());
  cudaStream_t stream = get_current_stream();
  shape_t shape = dst.shape(), ds = dst.strides();
  coalesce(shape, {&ds});
  const bool contiguous = shape.empty() || (shape.size() == 1 && ds[0] == static_cast<std::int64_t>(dst.itemsize()));
  strided_indexer di{};
  if (!contiguous) di = make_indexer(shape, ds);
  dispatch(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = device_value<T>(value);
    if (contiguous && all_zero_bytes(&v, sizeof(T))) {
      CUSCI_CUDA_TRY(cudaMemsetAsync(dst.data(), 0, static_cast<std::size_t>(n) * sizeof(T), stream));
      return;
    }
    fill_kernel<T><<<grid_for(n, block_size), block_size, 0, stream>>>(static_cast<char*>(dst.data()), n, di,
                                                                        contiguous, v);
    CUSCI_CHECK_LAUNCH();
  });
}

void arange_fill(ndarray& out, const scalar& first, const scalar& second) {
  const std::int64_t n = out.size();
  if (n == 0) return;
  CUSCI_EXPECTS(out.ndim() == 1 && out.strides()[0] == static_cast<std::int64_t>(out.itemsize()), value_error,
                "cusci::detail::arange_fill: out must be a contiguous 1-D array");
  device_guard guard(out.device());
  cudaStream_t stream = get_current_stream();
  dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    arange_kernel<T><<<grid_for(n, block_size), block_size, 0, stream>>>(out.data_as<T>(), n, device_value<T>(first),
                                                                         device_value<T>(second));
    CUSCI_CHECK_LAUNCH();
  });
}

void linspace_fill(ndarray& out, double start, double stop, double step, double delta, std::int64_t div,
                   bool set_last) {
  const std::int64_t n = out.size();
  if (n == 0) return;
  CUSCI_EXPECTS(out.ndim() == 1 && out.strides()[0] == static_cast<std::int64_t>(out.itemsize()), value_error,
                "cusci::detail::linspace_fill: out must be a contiguous 1-D array");
  device_guard guard(out.device());
  cudaStream_t stream = get_current_stream();
  dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    linspace_kernel<T><<<grid_for(n, block_size), block_size, 0, stream>>>(out.data_as<T>(), n, start, stop, step,
                                                                           delta, div, set_last);
    CUSCI_CHECK_LAUNCH();
  });
}

void set_diagonal_one(ndarray& out, std::int64_t k) {
  CUSCI_EXPECTS(out.ndim() == 2, value_error, "cusci::detail::set_diagonal_one: out must be 2-D");
  const std::int64_t rows = out.shape()[0], cols = out.shape()[1];
  // Rows r with 0 <= r < rows and 0 <= r + k < cols.
  if (k >= cols || k <= -rows) return;  // the diagonal lies outside the matrix
  const std::int64_t row0 = k < 0 ? -k : 0;
  const std::int64_t row_end = std::min(rows, cols - k);
  const std::int64_t count = row_end > row0 ? row_end - row0 : 0;
  if (count == 0) return;
  device_guard guard(out.device());
  cudaStream_t stream = get_current_stream();
  dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    diagonal_kernel<T><<<grid_for(count, block_size), block_size, 0, stream>>>(
        static_cast<char*>(out.data()), count, row0, k, out.strides()[0], out.strides()[1]);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::detail
