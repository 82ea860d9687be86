#pragma once
/// @file dtype.hpp
/// The runtime dtype of cusci arrays, the single dtype list that drives explicit instantiation,
/// dispatch, tests and benchmarks, and NumPy 2's type promotion rules.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cusci {

/// Element types an ndarray can hold (NumPy's names, with a trailing `_` for `bool_`).
/// NumPy: `np.dtype` (cusci core mirrors NumPy/CuPy, not SciPy). Deviation: no float16, no string,
/// datetime, object or structured dtypes.
enum class dtype : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float32,
  float64,
  complex64,
  complex128,
};

/// The dtype list, defined once. `X(enumerator, host C++ type)`; every instantiation list, dispatch
/// switch and test sweep is generated from it.
#define CUSCI_FOR_EACH_DTYPE(X)          \
  X(bool_, bool)                         \
  X(int8, std::int8_t)                   \
  X(int16, std::int16_t)                 \
  X(int32, std::int32_t)                 \
  X(int64, std::int64_t)                 \
  X(uint8, std::uint8_t)                 \
  X(uint16, std::uint16_t)               \
  X(uint32, std::uint32_t)               \
  X(uint64, std::uint64_t)               \
  X(float32, float)                      \
  X(float64, double)                     \
  X(complex64, std::complex<float>)      \
  X(complex128, std::complex<double>)

/// Real floating dtypes only (float32, float64): the list most numerical kernels are built for.
#define CUSCI_FOR_EACH_FLOAT_DTYPE(X) \
  X(float32, float)                   \
  X(float64, double)

inline constexpr int n_dtypes = 13;

/// Size in bytes of one element. NumPy: `np.dtype(t).itemsize`.
constexpr std::size_t itemsize(dtype t) noexcept {
  switch (t) {
    case dtype::bool_: case dtype::int8: case dtype::uint8: return 1;
    case dtype::int16: case dtype::uint16: return 2;
    case dtype::int32: case dtype::uint32: case dtype::float32: return 4;
    case dtype::int64: case dtype::uint64: case dtype::float64: case dtype::complex64: return 8;
    case dtype::complex128: return 16;
  }
  return 0;
}

/// Kind tests. NumPy: `np.issubdtype(t, np.bool_ / np.signedinteger / np.unsignedinteger /
/// np.integer / np.floating / np.complexfloating / np.inexact)`.
constexpr bool is_bool(dtype t) noexcept { return t == dtype::bool_; }
constexpr bool is_signed_integer(dtype t) noexcept {
  return t == dtype::int8 || t == dtype::int16 || t == dtype::int32 || t == dtype::int64;
}
constexpr bool is_unsigned_integer(dtype t) noexcept {
  return t == dtype::uint8 || t == dtype::uint16 || t == dtype::uint32 || t == dtype::uint64;
}
constexpr bool is_integer(dtype t) noexcept { return is_signed_integer(t) || is_unsigned_integer(t); }
constexpr bool is_floating(dtype t) noexcept { return t == dtype::float32 || t == dtype::float64; }
constexpr bool is_complex(dtype t) noexcept { return t == dtype::complex64 || t == dtype::complex128; }
/// Floating or complex ("inexact" in NumPy's words).
constexpr bool is_inexact(dtype t) noexcept { return is_floating(t) || is_complex(t); }

/// NumPy's name of the dtype: "bool", "int8", ..., "complex128". NumPy: `np.dtype(t).name`.
std::string_view dtype_name(dtype t) noexcept;

/// Parses NumPy's dtype names and array-protocol strings ("float32", "f4", "<f4", "bool", "?", "c16").
/// @throws cusci::type_error for an unknown or unsupported name (big-endian ones included).
/// NumPy: `np.dtype(name)`.
dtype dtype_from_string(std::string_view name);

/// NumPy's array-protocol type string, little-endian ("<f4", "|b1", "<c16"), as written in .npy headers.
/// NumPy: `np.dtype(t).str`.
std::string dtype_descr(dtype t);

/// NumPy's `np.result_type(a, b)` for two array dtypes (both "strong").
/// Mirrors NumPy 2's promotion table: int64 with uint64 gives float64, bool with any type gives that type.
/// NumPy: `np.promote_types(a, b)`. Deviation: where NumPy gives float16 (int8/uint8/bool with
/// nothing wider), cusci has no float16; this only matters with float16, which cusci lacks.
dtype promote_types(dtype a, dtype b) noexcept;

/// The real dtype that matches a complex one (complex64 -> float32); other dtypes are returned unchanged.
/// NumPy: `np.empty(0, t).real.dtype`.
constexpr dtype real_dtype(dtype t) noexcept {
  return t == dtype::complex64 ? dtype::float32 : t == dtype::complex128 ? dtype::float64 : t;
}

/// Compile-time map from a host C++ type to its dtype: `dtype_of<float>` is `dtype::float32`.
/// NumPy: `np.dtype(np.float32)`; an unlisted type does not compile.
template <class T> struct dtype_of_t;
#define CUSCI_DTYPE_OF_(name, type) \
  template <> struct dtype_of_t<type> { static constexpr dtype value = dtype::name; };
CUSCI_FOR_EACH_DTYPE(CUSCI_DTYPE_OF_)
#undef CUSCI_DTYPE_OF_
template <class T> inline constexpr dtype dtype_of = dtype_of_t<T>::value;

}  // namespace cusci
