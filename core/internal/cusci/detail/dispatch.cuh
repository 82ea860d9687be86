#pragma once
/// @file dispatch.cuh  (internal; nvcc only)
/// Runtime dtype -> compile-time type dispatch, generated from the one dtype list in dtype.hpp.
/// Host C++ types map to device types: std::complex<T> -> cuda::std::complex<T>, cusci::float16 ->
/// __half (same sizes and layouts).

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda/std/complex>
#include <cuda_fp16.h>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"

namespace cusci::detail {

template <class T> struct device_type { using type = T; };
template <class T> struct device_type<std::complex<T>> { using type = cuda::std::complex<T>; };
template <> struct device_type<cusci::float16> { using type = __half; };
static_assert(sizeof(__half) == sizeof(cusci::float16), "__half and cusci::float16 differ in size");
template <class T> using device_type_t = typename device_type<T>::type;

/// The type arithmetic is done in for storage type T: float for __half (float16 is a storage type,
/// computed in float32, as NumPy's float16 loops do), T itself otherwise.
template <class T> struct compute_type { using type = T; };
template <> struct compute_type<__half> { using type = float; };
template <class T> using compute_t = typename compute_type<T>::type;

/// A type tag passed to dispatch lambdas: `[&](auto tag) { using T = typename decltype(tag)::type; }`.
template <class T> struct type_tag { using type = T; };

template <class T> struct is_complex_t : std::false_type {};
template <class T> struct is_complex_t<cuda::std::complex<T>> : std::true_type {};
template <class T> inline constexpr bool is_complex_v = is_complex_t<T>::value;

/// Converts between __half and the other device element types with one rounding (round to
/// nearest, ties to even, as NumPy's float16 casts): double -> __half rounds directly, integers go
/// through float (exact for every integer that does not overflow float16 anyway).
template <class T>
__host__ __device__ __forceinline__ __half to_half(T v) {
  if constexpr (std::is_same_v<T, __half>) return v;
  else if constexpr (std::is_same_v<T, double>) return __double2half(v);
  else if constexpr (std::is_same_v<T, float>) return __float2half_rn(v);
  else if constexpr (std::is_same_v<T, bool>) return __float2half_rn(v ? 1.0f : 0.0f);
  else if constexpr (sizeof(T) == 8 && std::is_integral_v<T>) return __double2half(static_cast<double>(v));
  else return __float2half_rn(static_cast<float>(v));
}

/// Calls `f(type_tag<T>{})` with T the device type of `t`, for every dtype of the list.
template <class F>
decltype(auto) dispatch(dtype t, F&& f) {
  switch (t) {
#define CUSCI_DISPATCH_CASE_(name, type) \
  case dtype::name: return f(type_tag<device_type_t<type>>{});
    CUSCI_FOR_EACH_DTYPE(CUSCI_DISPATCH_CASE_)
#undef CUSCI_DISPATCH_CASE_
  }
  throw type_error("cusci: unknown dtype");
}

/// Like `dispatch`, for float32 and float64 only; other dtypes throw cusci::type_error naming
/// `function` and `parameter`.
template <class F>
decltype(auto) dispatch_float(dtype t, const char* function, const char* parameter, F&& f) {
  switch (t) {
    case dtype::float32: return f(type_tag<float>{});
    case dtype::float64: return f(type_tag<double>{});
    default: break;
  }
  throw type_error(std::string(function) + ": " + parameter + " must have dtype float32 or float64, got " +
                   std::string(dtype_name(t)));
}

/// Like `dispatch`, for bool and the eight integer dtypes (host integer types: bool, std::int8_t, ...,
/// std::uint64_t); other dtypes throw cusci::type_error "<function>: <what>, got <dtype>".
template <class F>
decltype(auto) dispatch_integer(dtype t, const char* function, const char* what, F&& f) {
  switch (t) {
    case dtype::bool_: return f(type_tag<bool>{});
    case dtype::int8: return f(type_tag<std::int8_t>{});
    case dtype::int16: return f(type_tag<std::int16_t>{});
    case dtype::int32: return f(type_tag<std::int32_t>{});
    case dtype::int64: return f(type_tag<std::int64_t>{});
    case dtype::uint8: return f(type_tag<std::uint8_t>{});
    case dtype::uint16: return f(type_tag<std::uint16_t>{});
    case dtype::uint32: return f(type_tag<std::uint32_t>{});
    case dtype::uint64: return f(type_tag<std::uint64_t>{});
    default: break;
  }
  throw type_error(std::string(function) + ": " + what + ", got " + std::string(dtype_name(t)));
}

}  // namespace cusci::detail
