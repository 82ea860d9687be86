#pragma once
/// @file dtype.hpp
/// The runtime dtype of cusci arrays, the single dtype list that drives explicit instantiation,
/// dispatch, tests and benchmarks, and NumPy 2's type promotion rules.

#include <bit>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace cusci {

/// IEEE 754 binary16 ("half") host storage type: the 16 bits of the value, with conversions to and
/// from the built-in arithmetic types that round to nearest, ties to even (as NumPy's `npy_half`
/// conversions: one rounding from float or double, overflow to +-inf, subnormals kept, NaN kept NaN).
/// Arithmetic on the host goes through the implicit conversion to float (NumPy computes float16 in
/// float32 too). Same size and bit layout as CUDA's `__half`. NumPy: `np.float16`.
struct float16 {
  std::uint16_t bits = 0;

  constexpr float16() noexcept = default;
  /// Rounds `v` to the nearest float16 (ties to even). Integers convert through double (every
  /// integer that is not exact in double lies far beyond float16's range and becomes +-inf).
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  constexpr explicit float16(T v) noexcept : bits(from_double(static_cast<double>(v))) {}
  /// The float16 with the given bit pattern.
  static constexpr float16 from_bits(std::uint16_t b) noexcept {
    float16 h;
    h.bits = b;
    return h;
  }
  /// The exact value as a float (every float16 is a float).
  constexpr operator float() const noexcept { return to_float(bits); }

  /// IEEE rounding of a double to binary16 bits (round to nearest, ties to even).
  static constexpr std::uint16_t from_double(double d) noexcept {
    const std::uint64_t b = std::bit_cast<std::uint64_t>(d);
    const std::uint16_t sign = static_cast<std::uint16_t>((b >> 48) & 0x8000u);
    const int exp = static_cast<int>((b >> 52) & 0x7ffu);
    const std::uint64_t mant = b & ((std::uint64_t{1} << 52) - 1);
    if (exp == 0x7ff) {  // inf or NaN (NaN payload's top bits kept, never turned into inf)
      if (mant == 0) return static_cast<std::uint16_t>(sign | 0x7c00u);
      std::uint16_t r = static_cast<std::uint16_t>(0x7c00u + (mant >> 42));
      if (r == 0x7c00u) ++r;
      return static_cast<std::uint16_t>(sign | r);
    }
    const int e = exp - 1023 + 15;  // biased half exponent
    if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (e <= 0) {  // half subnormal (or zero): value / 2^-24 = m >> (43 - e)
      if (e < -10) return sign;  // below 2^-25: rounds to zero
      const std::uint64_t m = mant | (std::uint64_t{1} << 52);
      const int s = 43 - e;
      std::uint64_t q = m >> s;
      const std::uint64_t r = m & ((std::uint64_t{1} << s) - 1), half = std::uint64_t{1} << (s - 1);
      if (r > half || (r == half && (q & 1u))) ++q;
      return static_cast<std::uint16_t>(sign | q);
    }
    std::uint64_t q = mant >> 42;
    const std::uint64_t r = mant & ((std::uint64_t{1} << 42) - 1), half = std::uint64_t{1} << 41;
    if (r > half || (r == half && (q & 1u))) ++q;
    std::uint64_t h = (static_cast<std::uint64_t>(e) << 10) + q;  // a mantissa carry bumps the exponent
    if (h >= 0x7c00u) h = 0x7c00u;
    return static_cast<std::uint16_t>(sign | h);
  }
  /// Exact binary16 bits -> float.
  static constexpr float to_float(std::uint16_t h) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0) {
      const float v = static_cast<float>(mant) * 5.9604644775390625e-08f;  // mant * 2^-24, exact
      return sign ? -v : v;
    }
    if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
    return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
  }
};
static_assert(sizeof(float16) == 2, "float16 must be two bytes");

/// Element types an ndarray can hold (NumPy's names, with a trailing `_` for `bool_`).
/// NumPy: `np.dtype` (cusci core mirrors NumPy/CuPy, not SciPy). Deviation: no longdouble, string,
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
  float16,
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
  X(float16, cusci::float16)             \
  X(float32, float)                      \
  X(float64, double)                     \
  X(complex64, std::complex<float>)      \
  X(complex128, std::complex<double>)

/// Real floating dtypes float32 and float64 only (not float16): the list most numerical kernels are
/// built for.
#define CUSCI_FOR_EACH_FLOAT_DTYPE(X) \
  X(float32, float)                   \
  X(float64, double)

inline constexpr int n_dtypes = 14;

/// Size in bytes of one element. NumPy: `np.dtype(t).itemsize`.
constexpr std::size_t itemsize(dtype t) noexcept {
  switch (t) {
    case dtype::bool_: case dtype::int8: case dtype::uint8: return 1;
    case dtype::int16: case dtype::uint16: case dtype::float16: return 2;
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
constexpr bool is_floating(dtype t) noexcept {
  return t == dtype::float16 || t == dtype::float32 || t == dtype::float64;
}
constexpr bool is_complex(dtype t) noexcept { return t == dtype::complex64 || t == dtype::complex128; }
/// Floating or complex ("inexact" in NumPy's words).
constexpr bool is_inexact(dtype t) noexcept { return is_floating(t) || is_complex(t); }

/// NumPy's name of the dtype: "bool", "int8", ..., "complex128". NumPy: `np.dtype(t).name`.
std::string_view dtype_name(dtype t) noexcept;

/// Parses NumPy's dtype names, character codes and array-protocol strings ("float32", "f4", "<f4",
/// "bool", "?", "c16", "float16", "f2", "e"), and NumPy 2's other names: the C type names (byte,
/// short, intc, long, longlong, half, single, double, csingle, cdouble and their unsigned forms) and
/// int / int_ / intp / uint / uintp / float / complex, as NumPy resolves them on 64-bit Linux.
/// @throws cusci::type_error for an unknown or unsupported name (big-endian multi-byte types,
///         longdouble, object, string and datetime types included).
/// NumPy: `np.dtype(name)`.
dtype dtype_from_string(std::string_view name);

/// NumPy's array-protocol type string, little-endian ("<f4", "|b1", "<c16"), as written in .npy headers.
/// NumPy: `np.dtype(t).str`.
std::string dtype_descr(dtype t);

/// NumPy's `np.result_type(a, b)` for two array dtypes (both "strong").
/// Mirrors NumPy 2's promotion table: int64 with uint64 gives float64, bool with any type gives that type,
/// float16 with bool/int8/uint8 gives float16, with int16/uint16 float32, with wider integers float64.
/// NumPy: `np.promote_types(a, b)` (no deviation over cusci's dtypes).
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
