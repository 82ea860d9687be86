#pragma once
// Device helpers shared by cusci::linalg's kernels (nvcc only).

#include <cuda/std/complex>

#include <cstdint>
#include <vector>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "common/detail.hpp"

/// Grid-stride loop of the calling thread over e = 0 .. total - 1 (std::int64_t).
#define CUSCI_LINALG_GRID_LOOP(e, total)                                                                   \
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < (total);     \
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

namespace cusci::linalg::detail {

using cusci::detail::is_complex_v;
using cusci::detail::strided_indexer;

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<cuda::std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;

template <class T>
__device__ __forceinline__ bool is_finite_elem(const T& v) {
  if constexpr (is_complex_v<T>) return isfinite(v.real()) && isfinite(v.imag());
  else return isfinite(v);
}
/// |re| + |im| for complex (BLAS i?amax's measure), |x| for real.
template <class T>
__device__ __forceinline__ real_t<T> abs1(const T& v) {
  if constexpr (is_complex_v<T>) return fabs(v.real()) + fabs(v.imag());
  else return fabs(v);
}
/// Modulus.
template <class T>
__device__ __forceinline__ real_t<T> absval(const T& v) {
  if constexpr (is_complex_v<T>) return hypot(v.real(), v.imag());
  else return fabs(v);
}
template <class T>
__device__ __forceinline__ T conj_elem(const T& v) {
  if constexpr (is_complex_v<T>) return T(v.real(), -v.imag());
  else return v;
}
template <class T>
__device__ __forceinline__ real_t<T> real_part(const T& v) {
  if constexpr (is_complex_v<T>) return v.real();
  else return v;
}
/// Shuffle within groups of `width` lanes (all 32 lanes of the warp must call it).
template <class T>
__device__ __forceinline__ T shfl(const T& v, int src, int width) {
  if constexpr (is_complex_v<T>) {
    return T(__shfl_sync(0xffffffffu, v.real(), src, width), __shfl_sync(0xffffffffu, v.imag(), src, width));
  } else {
    return __shfl_sync(0xffffffffu, v, src, width);
  }
}

template <class T>
__device__ __forceinline__ T load_at(const char* base, std::int64_t sr, std::int64_t sc, std::int64_t i,
                                     std::int64_t j) {
  return *reinterpret_cast<const T*>(base + i * sr + j * sc);
}

/// Element (i, j) of the matrix stored at `base` as formed by `mode` (see fill_mode); the stored entry
/// (i, j) is always read, and `bad` is set when it is not finite (SciPy checks the whole array).
template <class T>
__device__ __forceinline__ T structured_elem(const char* base, std::int64_t sr, std::int64_t sc, std::int64_t i,
                                             std::int64_t j, int mode, bool lower, bool& bad) {
  const T v = load_at<T>(base, sr, sc, i, j);
  if (!is_finite_elem(v)) bad = true;
  switch (static_cast<fill_mode>(mode)) {
    case fill_mode::full: return v;
    case fill_mode::sym:
    case fill_mode::her: {
      const bool her = static_cast<fill_mode>(mode) == fill_mode::her;
      if (i == j) return her ? T(real_part(v)) : v;
      const bool referenced = lower ? (i > j) : (i < j);
      if (referenced) return v;
      const T w = load_at<T>(base, sr, sc, j, i);
      return her ? conj_elem(w) : w;
    }
    case fill_mode::diag: return i == j ? v : T(0);
    case fill_mode::triu: return i <= j ? v : T(0);
    case fill_mode::tril: return i >= j ? v : T(0);
    case fill_mode::tridiag: return (i - j <= 1 && j - i <= 1) ? v : T(0);
  }
  return v;
}

/// Batch indexer of a view, with mergeable batch dimensions coalesced.
inline strided_indexer batch_indexer(const batch_view& v) {
  shape_t shape = v.batch_shape, strides = v.batch_strides;
  cusci::detail::coalesce(shape, {&strides});
  return cusci::detail::make_indexer(shape, strides);
}

/// Calls f(type_tag<T>) for the four LAPACK dtypes.
template <class F>
decltype(auto) dispatch_lapack(dtype t, F&& f) {
  using cusci::detail::type_tag;
  switch (t) {
    case dtype::float32: return f(type_tag<float>{});
    case dtype::float64: return f(type_tag<double>{});
    case dtype::complex64: return f(type_tag<cuda::std::complex<float>>{});
    case dtype::complex128: return f(type_tag<cuda::std::complex<double>>{});
    default: break;
  }
  throw type_error("cusci::linalg: internal dtype must be float32, float64, complex64 or complex128, got " +
                   std::string(dtype_name(t)));
}

}  // namespace cusci::linalg::detail
