#pragma once
/// @file elementwise.hpp
/// Elementwise arithmetic, comparisons and math functions with NumPy 2's broadcasting and type
/// promotion (NEP 50: C++ arithmetic scalars are weak, like Python scalars).
///
/// All functions: operands on the same device (else cusci::value_error); shapes must broadcast
/// (else cusci::value_error naming both shapes); result C-contiguous with the broadcast shape.
/// Asynchronous on the current stream. Any layout (C, F, strided, broadcast views) is accepted.

#include "cusci/ndarray.hpp"

namespace cusci {

/// `np.add`. Result dtype `np.result_type(a, b)`; bool + bool is logical or (NumPy).
ndarray add(const ndarray& a, const ndarray& b);
ndarray add(const ndarray& a, const scalar& b);
ndarray add(const scalar& a, const ndarray& b);
/// `np.subtract`. @throws cusci::type_error for bool - bool (NumPy raises TypeError).
ndarray subtract(const ndarray& a, const ndarray& b);
ndarray subtract(const ndarray& a, const scalar& b);
ndarray subtract(const scalar& a, const ndarray& b);
/// `np.multiply`. bool * bool is logical and.
ndarray multiply(const ndarray& a, const ndarray& b);
ndarray multiply(const ndarray& a, const scalar& b);
ndarray multiply(const scalar& a, const ndarray& b);
/// `np.true_divide`: integer and bool operands give float64; x/0 gives inf or nan as IEEE does.
ndarray divide(const ndarray& a, const ndarray& b);
ndarray divide(const ndarray& a, const scalar& b);
ndarray divide(const scalar& a, const ndarray& b);

/// Comparisons; result dtype bool. Ordering comparisons of complex values compare lexicographically
/// (real part, then imaginary part), as NumPy does.
ndarray equal(const ndarray& a, const ndarray& b);
ndarray equal(const ndarray& a, const scalar& b);
ndarray not_equal(const ndarray& a, const ndarray& b);
ndarray not_equal(const ndarray& a, const scalar& b);
ndarray less(const ndarray& a, const ndarray& b);
ndarray less(const ndarray& a, const scalar& b);
ndarray less_equal(const ndarray& a, const ndarray& b);
ndarray less_equal(const ndarray& a, const scalar& b);
ndarray greater(const ndarray& a, const ndarray& b);
ndarray greater(const ndarray& a, const scalar& b);
ndarray greater_equal(const ndarray& a, const ndarray& b);
ndarray greater_equal(const ndarray& a, const scalar& b);

/// `np.abs`: same dtype, except complex gives the matching real dtype. Integer minimum wraps as in NumPy.
ndarray abs(const ndarray& a);
/// `np.sqrt`, `np.exp`, `np.log`, `np.sin`, `np.cos`: float32/float64/complex keep their dtype;
/// int16/uint16 give float32; bool, int8, uint8 give float32 (NumPy gives float16, which cusci does not
/// have yet: deviation); wider integers give float64. NaN and inf follow IEEE/C99 as NumPy's do.
ndarray sqrt(const ndarray& a);
ndarray exp(const ndarray& a);
ndarray log(const ndarray& a);
ndarray sin(const ndarray& a);
ndarray cos(const ndarray& a);

/// `np.where(condition, x, y)`: elements of x where condition is true, else of y; condition of any
/// dtype is tested for non-zero; result dtype `result_type(x, y)`; all three broadcast.
ndarray where(const ndarray& condition, const ndarray& x, const ndarray& y);
ndarray where(const ndarray& condition, const ndarray& x, const scalar& y);
ndarray where(const ndarray& condition, const scalar& x, const ndarray& y);
ndarray where(const ndarray& condition, const scalar& x, const scalar& y);

/// The shape two shapes broadcast to (`np.broadcast_shapes`). @throws cusci::value_error
shape_t broadcast_shapes(const shape_t& a, const shape_t& b);

inline ndarray operator+(const ndarray& a, const ndarray& b) { return add(a, b); }
inline ndarray operator+(const ndarray& a, const scalar& b) { return add(a, b); }
inline ndarray operator+(const scalar& a, const ndarray& b) { return add(a, b); }
inline ndarray operator-(const ndarray& a, const ndarray& b) { return subtract(a, b); }
inline ndarray operator-(const ndarray& a, const scalar& b) { return subtract(a, b); }
inline ndarray operator-(const scalar& a, const ndarray& b) { return subtract(a, b); }
inline ndarray operator*(const ndarray& a, const ndarray& b) { return multiply(a, b); }
inline ndarray operator*(const ndarray& a, const scalar& b) { return multiply(a, b); }
inline ndarray operator*(const scalar& a, const ndarray& b) { return multiply(a, b); }
inline ndarray operator/(const ndarray& a, const ndarray& b) { return divide(a, b); }
inline ndarray operator/(const ndarray& a, const scalar& b) { return divide(a, b); }
inline ndarray operator/(const scalar& a, const ndarray& b) { return divide(a, b); }
inline ndarray operator==(const ndarray& a, const ndarray& b) { return equal(a, b); }
inline ndarray operator==(const ndarray& a, const scalar& b) { return equal(a, b); }
inline ndarray operator!=(const ndarray& a, const ndarray& b) { return not_equal(a, b); }
inline ndarray operator!=(const ndarray& a, const scalar& b) { return not_equal(a, b); }
inline ndarray operator<(const ndarray& a, const ndarray& b) { return less(a, b); }
inline ndarray operator<(const ndarray& a, const scalar& b) { return less(a, b); }
inline ndarray operator<=(const ndarray& a, const ndarray& b) { return less_equal(a, b); }
inline ndarray operator<=(const ndarray& a, const scalar& b) { return less_equal(a, b); }
inline ndarray operator>(const ndarray& a, const ndarray& b) { return greater(a, b); }
inline ndarray operator>(const ndarray& a, const scalar& b) { return greater(a, b); }
inline ndarray operator>=(const ndarray& a, const ndarray& b) { return greater_equal(a, b); }
inline ndarray operator>=(const ndarray& a, const scalar& b) { return greater_equal(a, b); }

}  // namespace cusci
