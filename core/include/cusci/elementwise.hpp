#pragma once
/// @file elementwise.hpp
/// Elementwise arithmetic, comparisons and math functions with NumPy 2's broadcasting and type
/// promotion (NEP 50: C++ arithmetic scalars are weak, like Python scalars).
///
/// All functions (cusci core mirrors NumPy/CuPy, not SciPy): operands of any dtype and layout (C,
/// F, strided, broadcast views); shapes must broadcast; the result is a new C-contiguous array of the
/// broadcast shape on the operands' device. Asynchronous on the current stream; never synchronizes.
/// Common errors (listed as "@throws common" below): cusci::value_error when the shapes do not
/// broadcast (naming both shapes), the array operands are on different devices, or the operands
/// have more than 16 axes that cannot be merged; cusci::out_of_memory. No `out=`, `where=` or `casting=` arguments (deviation from NumPy's ufuncs).

#include "cusci/ndarray.hpp"

namespace cusci {

/// Elementwise sum a + b. Result dtype `np.result_type(a, b)`; bool + bool is logical or; integer
/// overflow wraps.
/// @throws common; cusci::value_error when a weak integer scalar does not fit the integer result dtype
///         (NumPy's OverflowError "Python integer 300 out of bounds for int8").
/// NumPy: `np.add`.
ndarray add(const ndarray& a, const ndarray& b);
ndarray add(const ndarray& a, const scalar& b);
ndarray add(const scalar& a, const ndarray& b);
/// Elementwise difference a - b; result dtype as `add`.
/// @throws common; cusci::type_error for bool - bool (NumPy raises TypeError); cusci::value_error
///         for a weak integer scalar out of range, as `add`.
/// NumPy: `np.subtract`.
ndarray subtract(const ndarray& a, const ndarray& b);
ndarray subtract(const ndarray& a, const scalar& b);
ndarray subtract(const scalar& a, const ndarray& b);
/// Elementwise product a * b; result dtype as `add`; bool * bool is logical and.
/// @throws common; cusci::value_error for a weak integer scalar out of range, as `add`.
/// NumPy: `np.multiply`.
ndarray multiply(const ndarray& a, const ndarray& b);
ndarray multiply(const ndarray& a, const scalar& b);
ndarray multiply(const scalar& a, const ndarray& b);
/// Elementwise true division a / b: integer and bool operands compute in and give float64; x/0
/// gives inf or nan as IEEE does; complex division uses Smith's algorithm, as NumPy.
/// @throws common.
/// NumPy: `np.true_divide` (`np.divide`).
ndarray divide(const ndarray& a, const ndarray& b);
ndarray divide(const ndarray& a, const scalar& b);
ndarray divide(const scalar& a, const ndarray& b);

/// Elementwise comparisons ==, !=, <, <=, >, >=; result dtype bool. Ordering comparisons of
/// complex values compare lexicographically (real part, then imaginary part), as NumPy does. A weak
/// integer scalar out of the array's range is compared exactly (`int8_array < 300` is all true), as
/// NumPy 2 does.
/// @throws common.
/// NumPy: `np.equal`, `np.not_equal`, `np.less`, `np.less_equal`, `np.greater`, `np.greater_equal`.
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

/// Elementwise absolute value: same dtype, except complex gives the matching real dtype (hypot).
/// Integer minimum wraps as in NumPy.
/// @throws cusci::out_of_memory.
/// NumPy: `np.abs` (`np.absolute`).
ndarray abs(const ndarray& a);
/// Elementwise square root, exponential, natural logarithm, sine and cosine (radians):
/// float32/float64/complex keep their dtype; int16/uint16 give float32; bool, int8, uint8 give float32
/// (NumPy gives float16, which cusci does not have yet: deviation); wider integers give float64.
/// NaN and inf follow IEEE/C99 as NumPy's do.
/// @throws cusci::out_of_memory.
/// NumPy: `np.sqrt`, `np.exp`, `np.log`, `np.sin`, `np.cos`.
ndarray sqrt(const ndarray& a);
ndarray exp(const ndarray& a);
ndarray log(const ndarray& a);
ndarray sin(const ndarray& a);
ndarray cos(const ndarray& a);

/// Elements of x where condition is true, else of y; a condition of any dtype is tested for
/// non-zero (NaN is true); result dtype `result_type(x, y)` (two scalars promote by kind unless one
/// is strong); all three broadcast.
/// @throws common (any of the three shapes; the arrays' devices); cusci::value_error for a weak
///         integer scalar that does not fit the result dtype.
/// NumPy: `np.where(condition, x, y)` (the three-argument form only).
ndarray where(const ndarray& condition, const ndarray& x, const ndarray& y);
ndarray where(const ndarray& condition, const ndarray& x, const scalar& y);
ndarray where(const ndarray& condition, const scalar& x, const ndarray& y);
ndarray where(const ndarray& condition, const scalar& x, const scalar& y);

/// The shape two shapes broadcast to. Host only.
/// @throws cusci::value_error when they do not broadcast or a dimension is negative.
/// NumPy: `np.broadcast_shapes`.
shape_t broadcast_shapes(const shape_t& a, const shape_t& b);

/// Operators: the functions above (`+ - * /` and comparisons), with the same throws. NumPy: the
/// ndarray operators.
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
