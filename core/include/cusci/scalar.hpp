#pragma once
/// @file scalar.hpp
/// A host scalar with a dtype, for elementwise operands, fill values and `full`.
///
/// NumPy 2 (NEP 50) semantics: a scalar built from a C++ arithmetic value is "weak" like a Python
/// scalar: `float32_array + 2.0` stays float32, `int8_array + 3` stays int8, and only the kind
/// (bool < integer < floating < complex) of a weak scalar takes part in promotion. A scalar built with
/// an explicit dtype is "strong" like a NumPy scalar (`np.float64(2.0)`) and promotes as an array would.
/// NumPy: Python scalars and `np.generic` scalars (cusci core mirrors NumPy/CuPy, not SciPy).

#include <complex>
#include <cstdint>
#include <type_traits>

#include "cusci/dtype.hpp"

namespace cusci {

class scalar {
 public:
  /// Weak scalars from C++ values (Python bool / int / float / complex).
  scalar(bool v) noexcept : dtype_(dtype::bool_), weak_(true) { c_ = v ? 1.0 : 0.0; i_ = v; }
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  scalar(T v) noexcept
      : dtype_(std::is_signed_v<T> ? dtype::int64 : dtype::uint64), weak_(true) {
    if constexpr (std::is_signed_v<T>) { i_ = static_cast<std::int64_t>(v); c_ = static_cast<double>(v); }
    else { u_ = static_cast<std::uint64_t>(v); i_ = static_cast<std::int64_t>(v); c_ = static_cast<double>(v); }
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  scalar(T v) noexcept : dtype_(dtype::float64), weak_(true) { c_ = static_cast<double>(v); i_ = 0; }
  template <class T>
  scalar(std::complex<T> v) noexcept : dtype_(dtype::complex128), weak_(true) {
    c_ = std::complex<double>(v.real(), v.imag());
  }
  /// A strong scalar of dtype `t` holding `v` converted as NumPy's `np.dtype(t).type(v)` would
  /// (complex to real keeps the real part, float to integer truncates, an integer value wider than
  /// the target wraps). Host only; never throws.
  /// NumPy: `np.dtype(t).type(v)`. Deviation: NumPy raises OverflowError for an out-of-range Python
  /// int; here a value outside int64/uint64 is not defined, keep `v` in the target's range.
  static scalar of(std::complex<double> v, dtype t) noexcept;

  cusci::dtype dtype() const noexcept { return dtype_; }
  bool is_weak() const noexcept { return weak_; }
  /// The value converted to T with C++ conversion rules (complex -> real takes the real part; float16
  /// rounds to nearest even once, from the stored double or integer).
  template <class T> T value() const noexcept {
    if constexpr (std::is_same_v<T, bool>) return c_ != std::complex<double>(0.0);
    else if constexpr (std::is_same_v<T, float16>) {
      if (dtype_ == dtype::uint64) return float16(u_);
      if (is_integer(dtype_) || dtype_ == dtype::bool_) return float16(i_);
      return float16(c_.real());
    }
    else if constexpr (std::is_integral_v<T>) {
      if (dtype_ == dtype::uint64) return static_cast<T>(u_);
      if (is_integer(dtype_) || dtype_ == dtype::bool_) return static_cast<T>(i_);
      return static_cast<T>(c_.real());
    } else if constexpr (std::is_floating_point_v<T>) {
      if (dtype_ == dtype::uint64) return static_cast<T>(u_);
      if (is_integer(dtype_) || dtype_ == dtype::bool_) return static_cast<T>(i_);
      return static_cast<T>(c_.real());
    } else {
      using R = typename T::value_type;
      if (dtype_ == dtype::uint64) return T(static_cast<R>(u_), 0);
      if (is_integer(dtype_) || dtype_ == dtype::bool_) return T(static_cast<R>(i_), 0);
      return T(static_cast<R>(c_.real()), static_cast<R>(c_.imag()));
    }
  }

 private:
  scalar() = default;
  cusci::dtype dtype_ = dtype::float64;
  bool weak_ = true;
  std::complex<double> c_{};
  std::int64_t i_ = 0;
  std::uint64_t u_ = 0;
};

/// The result dtype of an array of `array_dtype` combined with `s`, with NEP 50 weak-scalar rules.
/// Host only; never throws. NumPy: `np.result_type(array_dtype, s)`.
dtype promote_with_scalar(dtype array_dtype, const scalar& s) noexcept;

}  // namespace cusci
