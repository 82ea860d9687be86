#pragma once
/// @file elementwise.hpp
/// Elementwise arithmetic, comparisons and math functions with NumPy 2's broadcasting and type
/// promotion (NEP 50: C++ arithmetic scalars are weak, like Python scalars).
///
/// All functions (cusci core mirrors NumPy/CuPy, not SciPy): operands of any dtype and layout (C,
/// F, strided, broadcast views); shapes must broadcast; the result is a new array of the broadcast
/// shape on the operands' device, laid out as NumPy's ufuncs do (`order='K'`): contiguous in the
/// axis order the operands agree on (F-contiguous for F-contiguous operands, transposed for
/// transposed ones; operands broadcast along an axis or scalars abstain), C order when they
/// disagree. (Comparisons: that layout only when every array operand has the result's shape,
/// compute dtype and that same layout, C order otherwise; `where`: C order.) Asynchronous on the
/// current stream; never synchronizes.
/// Common errors (listed as "@throws common" below): cusci::value_error when the shapes do not
/// broadcast (naming both shapes), the array operands are on different devices, or the operands
/// have more than 16 axes that cannot be merged; cusci::out_of_memory.
///
/// `out=`: the ufuncs below take an optional `ndarray* out`. When given, the result is written into
/// *out (any layout, views included) and *out (a view of the same memory) is returned. *out must have
/// exactly the broadcast shape (else cusci::value_error, NumPy's "non-broadcastable output operand")
/// and a dtype the result casts to under NumPy's same_kind rule (else cusci::type_error, NumPy's
/// UFuncTypeError "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with
/// casting rule 'same_kind'"). *out may be one of the inputs (in-place) or overlap them: the result
/// is then computed into a temporary and copied in, as NumPy does. No `where=`, `casting=`, `dtype=`
/// arguments (deviation from NumPy's ufuncs).

#include "cusci/ndarray.hpp"

namespace cusci {

/// Declares the three forms of a binary ufunc: array with array, array with scalar, scalar with array.
#define CUSCI_BINARY_UFUNC_(name)                                                   \
  ndarray name(const ndarray& a, const ndarray& b, ndarray* out = nullptr);         \
  ndarray name(const ndarray& a, const scalar& b, ndarray* out = nullptr);          \
  ndarray name(const scalar& a, const ndarray& b, ndarray* out = nullptr);

/// Elementwise sum a + b. Parameters: a, b [broadcastable shapes], any dtype, or a scalar on one side;
/// out: optional, see "`out=`" above. Returns the broadcast shape, dtype `np.result_type(a, b)`;
/// bool + bool is logical or; integer overflow wraps.
/// @throws common; cusci::value_error when a weak integer scalar does not fit the integer result
///         dtype (NumPy's OverflowError "Python integer 300 out of bounds for int8").
/// NumPy: `np.add`.
CUSCI_BINARY_UFUNC_(add)
/// Elementwise difference a - b; result dtype as `add`.
/// @throws common; cusci::type_error for bool - bool (NumPy raises TypeError).
/// NumPy: `np.subtract`.
CUSCI_BINARY_UFUNC_(subtract)
/// Elementwise product a * b; result dtype as `add`; bool * bool is logical and.
/// @throws common. NumPy: `np.multiply`.
CUSCI_BINARY_UFUNC_(multiply)
/// Elementwise true division a / b: bool and integer operands (of any width) compute in and give
/// float64, float16/32/64 and complex keep their dtype; x/0 gives inf or nan as IEEE does; complex
/// division uses Smith's algorithm, as NumPy.
/// @throws common. NumPy: `np.true_divide` (`np.divide`).
CUSCI_BINARY_UFUNC_(divide)
/// Elementwise floor division a // b, Python's rounding toward -inf. Dtype as `add`, except bool //
/// bool gives int8. Integer division by zero gives 0 (NumPy gives 0 with a warning; no warning here);
/// INT_MIN // -1 wraps to INT_MIN. Floats follow NumPy's `npy_floor_divide` (fmod based; x // 0 is
/// x / 0).
/// @throws common; cusci::type_error for complex operands (NumPy's TypeError).
/// NumPy: `np.floor_divide`.
CUSCI_BINARY_UFUNC_(floor_divide)
/// Elementwise remainder with the sign of the divisor (Python's `%`): a - floor(a / b) * b; dtype as
/// `floor_divide`; integer x % 0 gives 0, float x % 0 gives nan, as NumPy.
/// @throws common; cusci::type_error for complex operands. NumPy: `np.remainder` (`np.mod`).
CUSCI_BINARY_UFUNC_(remainder)
/// Elementwise power a ** b. Dtype as `add`, except bool ** bool gives int8; integers by repeated
/// squaring with wrapping; floats with pow; complex with the complex pow. A bool array with a weak
/// Python int gives int64 and with a weak float float64, as np.power (NumPy's `**` operator alone
/// turns `bool_array ** 2` into np.square, int8: callers mirroring `**` cast to int8 first).
/// @throws common; cusci::value_error "Integers to negative integer powers are not allowed." when
///         the loop is a signed integer one and any exponent is negative (as NumPy's ValueError);
///         checking an exponent array synchronizes the current stream (one flag is read back).
/// NumPy: `np.power`.
CUSCI_BINARY_UFUNC_(power)
/// Elementwise maximum / minimum; NaN-propagating (a NaN in either operand gives NaN); complex
/// values order lexicographically. Dtype as `add` (bool kept).
/// @throws common. NumPy: `np.maximum`, `np.minimum`.
CUSCI_BINARY_UFUNC_(maximum)
CUSCI_BINARY_UFUNC_(minimum)
/// Elementwise maximum / minimum ignoring NaN (NaN only when both are NaN). Dtype as `maximum`.
/// @throws common. NumPy: `np.fmax`, `np.fmin`.
CUSCI_BINARY_UFUNC_(fmax)
CUSCI_BINARY_UFUNC_(fmin)
/// Elementwise float functions of two arguments: magnitude of a with the sign of b; arctan(a / b) in
/// radians using both signs (quadrant-correct); sqrt(a^2 + b^2) without overflow. Loop dtype: the
/// promoted dtype made floating (bool/int8/uint8 -> float16, int16/uint16 -> float32, wider integers
/// -> float64).
/// @throws common; cusci::type_error for complex operands.
/// NumPy: `np.copysign`, `np.arctan2`, `np.hypot`.
CUSCI_BINARY_UFUNC_(copysign)
CUSCI_BINARY_UFUNC_(arctan2)
CUSCI_BINARY_UFUNC_(hypot)
/// Elementwise bitwise and / or / xor of booleans or integers; dtype as `add`.
/// @throws common; cusci::type_error for float or complex operands (NumPy's TypeError).
/// NumPy: `np.bitwise_and`, `np.bitwise_or`, `np.bitwise_xor`.
CUSCI_BINARY_UFUNC_(bitwise_and)
CUSCI_BINARY_UFUNC_(bitwise_or)
CUSCI_BINARY_UFUNC_(bitwise_xor)
/// Elementwise shifts of integers (bool gives int8); a shift count at or beyond the bit width (or
/// negative) gives 0 for left shifts and 0 or -1 (sign fill) for right shifts, as NumPy.
/// @throws common; cusci::type_error for float or complex operands.
/// NumPy: `np.left_shift`, `np.right_shift`.
CUSCI_BINARY_UFUNC_(left_shift)
CUSCI_BINARY_UFUNC_(right_shift)
/// Elementwise logical and / or / xor of the truth values (non-zero is true, NaN is true) of any
/// dtypes; result dtype bool.
/// @throws common. NumPy: `np.logical_and`, `np.logical_or`, `np.logical_xor`.
CUSCI_BINARY_UFUNC_(logical_and)
CUSCI_BINARY_UFUNC_(logical_or)
CUSCI_BINARY_UFUNC_(logical_xor)

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

/// Declares a unary ufunc.
#define CUSCI_UNARY_UFUNC_(name) ndarray name(const ndarray& a, ndarray* out = nullptr);

/// Elementwise absolute value: same dtype, except complex gives the matching real dtype (hypot);
/// |INT_MIN| wraps to INT_MIN as in NumPy. a: any shape, any dtype; out: see "`out=`".
/// @throws common. NumPy: `np.abs` (`np.absolute`).
CUSCI_UNARY_UFUNC_(abs)
/// Elementwise float-valued math: result dtype float16 for bool/int8/uint8, float32 for
/// int16/uint16, float64 for wider integers; float and complex dtypes are kept (NumPy 2.5's loops).
/// float16 is computed in float32 and rounded once. NaN, inf and branch cuts as C99 (Annex G for
/// complex), as NumPy's. Real functions are CUDA's libdevice ones (within 1-2 ulp for float32/64;
/// sqrt correctly rounded); complex ones libcu++'s `cuda::std` functions.
/// @throws common; cusci::type_error for complex input to cbrt.
/// NumPy: `np.sqrt`, `np.cbrt`, `np.exp`, `np.exp2`, `np.expm1`, `np.log`, `np.log2`, `np.log10`,
/// `np.log1p`, `np.sin`, `np.cos`, `np.tan`, `np.arcsin`, `np.arccos`, `np.arctan`, `np.sinh`,
/// `np.cosh`, `np.tanh`, `np.arcsinh`, `np.arccosh`, `np.arctanh`, `np.rint`.
CUSCI_UNARY_UFUNC_(sqrt)
CUSCI_UNARY_UFUNC_(cbrt)
CUSCI_UNARY_UFUNC_(exp)
CUSCI_UNARY_UFUNC_(exp2)
CUSCI_UNARY_UFUNC_(expm1)
CUSCI_UNARY_UFUNC_(log)
CUSCI_UNARY_UFUNC_(log2)
CUSCI_UNARY_UFUNC_(log10)
CUSCI_UNARY_UFUNC_(log1p)
CUSCI_UNARY_UFUNC_(sin)
CUSCI_UNARY_UFUNC_(cos)
CUSCI_UNARY_UFUNC_(tan)
CUSCI_UNARY_UFUNC_(arcsin)
CUSCI_UNARY_UFUNC_(arccos)
CUSCI_UNARY_UFUNC_(arctan)
CUSCI_UNARY_UFUNC_(sinh)
CUSCI_UNARY_UFUNC_(cosh)
CUSCI_UNARY_UFUNC_(tanh)
CUSCI_UNARY_UFUNC_(arcsinh)
CUSCI_UNARY_UFUNC_(arccosh)
CUSCI_UNARY_UFUNC_(arctanh)
CUSCI_UNARY_UFUNC_(rint)
/// Elementwise floor / ceil / truncation toward zero: integer and bool dtypes are returned unchanged
/// in value and dtype (NumPy 2), floats keep their dtype.
/// @throws common; cusci::type_error for complex input. NumPy: `np.floor`, `np.ceil`, `np.trunc`.
CUSCI_UNARY_UFUNC_(floor)
CUSCI_UNARY_UFUNC_(ceil)
CUSCI_UNARY_UFUNC_(trunc)
/// Elementwise -a, +a (a copy), a*a, 1/a and sign(a). Same dtype, except bool: square and
/// reciprocal give int8. Integer reciprocal is 1/x truncated (0 for |x| > 1; x == 0 gives 0, where
/// NumPy's result is undefined). sign: -1, 0, 1 (NaN stays NaN; -0.0 gives 0.0); complex gives z/|z|
/// (0 for 0), NumPy 2's definition.
/// @throws common; cusci::type_error for bool input to negative, positive and sign (NumPy's TypeError).
/// NumPy: `np.negative`, `np.positive`, `np.square`, `np.reciprocal`, `np.sign`.
CUSCI_UNARY_UFUNC_(negative)
CUSCI_UNARY_UFUNC_(positive)
CUSCI_UNARY_UFUNC_(square)
CUSCI_UNARY_UFUNC_(reciprocal)
CUSCI_UNARY_UFUNC_(sign)
/// Elementwise NaN / inf / finite tests of any dtype (integers are finite); result dtype bool; a
/// complex value is NaN (inf) when either part is, finite when both are.
/// @throws common. NumPy: `np.isnan`, `np.isinf`, `np.isfinite`.
CUSCI_UNARY_UFUNC_(isnan)
CUSCI_UNARY_UFUNC_(isinf)
CUSCI_UNARY_UFUNC_(isfinite)
/// Elementwise logical not of the truth value (any dtype); result dtype bool.
/// @throws common. NumPy: `np.logical_not`.
CUSCI_UNARY_UFUNC_(logical_not)
/// Elementwise bitwise not of booleans (logical not) and integers.
/// @throws common; cusci::type_error for float or complex input. NumPy: `np.invert` (`np.bitwise_not`).
CUSCI_UNARY_UFUNC_(invert)
CUSCI_UNARY_UFUNC_(bitwise_not)
/// Elementwise complex conjugate; real dtypes are returned as a copy (bool gives int8, as NumPy).
/// @throws common. NumPy: `np.conjugate` (`np.conj`).
CUSCI_UNARY_UFUNC_(conjugate)
CUSCI_UNARY_UFUNC_(conj)

/// The real / imaginary part. For complex a: a view of a's memory (dtype float32/float64, same
/// shape, strides of a; writing to it writes a), as NumPy's `a.real` / `a.imag`. For real a: `real`
/// returns a itself (a view), `imag` a new zero array of a's dtype (NumPy returns a read-only zero
/// array). Host only; no kernel; never synchronizes.
/// @throws nothing beyond cusci::out_of_memory. NumPy: `np.real`, `np.imag`.
ndarray real(const ndarray& a);
ndarray imag(const ndarray& a);
/// Elementwise angle (argument) arctan2(imag, real), in radians or, with deg, degrees. Result dtype
/// the real float loop of a (complex64 -> float32, int8 -> float16, ...).
/// @throws common. NumPy: `np.angle(z, deg)`.
ndarray angle(const ndarray& a, bool deg = false, ndarray* out = nullptr);
/// Rounds to `decimals` decimal places, halves to even (NumPy's algorithm: rint(a * 10**d) / 10**d,
/// or rint(a / 10**-d) * 10**-d for negative d, in the array's dtype; complex parts separately).
/// Integers: decimals >= 0 returns a copy; negative decimals round in float64 and cast back.
/// Result dtype: a's.
/// @throws common. NumPy: `np.round` (`np.around`).
ndarray around(const ndarray& a, int decimals = 0, ndarray* out = nullptr);
ndarray round(const ndarray& a, int decimals = 0, ndarray* out = nullptr);
/// Limits values to [a_min, a_max]: minimum(maximum(a, a_min), a_max), NaN propagating; result dtype
/// `np.result_type(a, a_min, a_max)` with weak scalars (NEP 50); a weak integer bound outside an
/// integer array's range clips at the range's end (NumPy 2 gives the same values).
/// @throws common. NumPy: `np.clip(a, a_min, a_max)` (both bounds given).
ndarray clip(const ndarray& a, const scalar& a_min, const scalar& a_max, ndarray* out = nullptr);
ndarray clip(const ndarray& a, const ndarray& a_min, const ndarray& a_max, ndarray* out = nullptr);

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

/// Operators: the functions above (`+ - * / % & | ^ << >>`, unary `- ~`, comparisons), with the same
/// throws. `%` is `remainder` (Python's sign rule); `&`/`|`/`^` are the bitwise functions. NumPy: the
/// ndarray operators.
#define CUSCI_BINARY_OP_(op, fn)                                                                   \
  inline ndarray operator op(const ndarray& a, const ndarray& b) { return fn(a, b); }             \
  inline ndarray operator op(const ndarray& a, const scalar& b) { return fn(a, b); }              \
  inline ndarray operator op(const scalar& a, const ndarray& b) { return fn(a, b); }
CUSCI_BINARY_OP_(+, add)
CUSCI_BINARY_OP_(-, subtract)
CUSCI_BINARY_OP_(*, multiply)
CUSCI_BINARY_OP_(/, divide)
CUSCI_BINARY_OP_(%, remainder)
CUSCI_BINARY_OP_(&, bitwise_and)
CUSCI_BINARY_OP_(|, bitwise_or)
CUSCI_BINARY_OP_(^, bitwise_xor)
CUSCI_BINARY_OP_(<<, left_shift)
CUSCI_BINARY_OP_(>>, right_shift)
#undef CUSCI_BINARY_OP_
inline ndarray operator-(const ndarray& a) { return negative(a); }
inline ndarray operator~(const ndarray& a) { return invert(a); }
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

/// In-place operators: write the result into a's memory (a may be a view: the viewed elements
/// change), with NumPy's same_kind rule: `int_array += 1.5` throws cusci::type_error (NumPy's
/// UFuncTypeError); b must broadcast to a's shape (else cusci::value_error). Return a.
/// NumPy: `a += b` etc. (`np.add(a, b, out=a)`).
#define CUSCI_INPLACE_OP_(op, fn)                                                                  \
  inline ndarray& operator op(ndarray& a, const ndarray& b) { fn(a, b, &a); return a; }           \
  inline ndarray& operator op(ndarray& a, const scalar& b) { fn(a, b, &a); return a; }
CUSCI_INPLACE_OP_(+=, add)
CUSCI_INPLACE_OP_(-=, subtract)
CUSCI_INPLACE_OP_(*=, multiply)
CUSCI_INPLACE_OP_(/=, divide)
CUSCI_INPLACE_OP_(%=, remainder)
CUSCI_INPLACE_OP_(&=, bitwise_and)
CUSCI_INPLACE_OP_(|=, bitwise_or)
CUSCI_INPLACE_OP_(^=, bitwise_xor)
CUSCI_INPLACE_OP_(<<=, left_shift)
CUSCI_INPLACE_OP_(>>=, right_shift)
#undef CUSCI_INPLACE_OP_

#undef CUSCI_BINARY_UFUNC_
#undef CUSCI_UNARY_UFUNC_

}  // namespace cusci
