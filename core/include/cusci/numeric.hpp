#pragma once
/// @file numeric.hpp
/// Numerical helpers of NumPy: interpolation (`interp`), finite differences (`gradient`), integration
/// (`trapezoid`), tolerant comparison (`isclose`, `allclose`, `array_equal`), `nan_to_num`, `cross`,
/// and `linalg::norm`.
///
/// Dtypes: every cusci dtype where NumPy accepts it (bool, int8..uint64, float16, float32, float64,
/// complex64, complex128), any layout (C, F, strided, negative strides, broadcast views).
/// Stream behaviour: asynchronous on the current stream, except `allclose` and `array_equal`, which
/// return a host bool and synchronize once to read it.
/// Axes out of range throw cusci::index_error (NumPy's AxisError, a subclass of IndexError).
/// cusci core mirrors NumPy/CuPy (not SciPy). Details, algorithms and deviations: docs/core-numeric.md.

#include <complex>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/reduction.hpp"

namespace cusci {

// --- interp --------------------------------------------------------------------------------------

/// Options of `interp` (NumPy's keyword arguments, in NumPy's order).
struct interp_options {
  /// Value for x < xp[0]; default fp[0]. For real fp only the real part is used.
  std::optional<std::complex<double>> left{};
  /// Value for x > xp[-1]; default fp[-1]. For real fp only the real part is used.
  std::optional<std::complex<double>> right{};
  /// Period of the x-coordinates: x and xp are reduced modulo |period|, xp is sorted and extended by
  /// one point at each end, and left/right are ignored (as NumPy). Must be non-zero.
  std::optional<double> period{};
};

/// One-dimensional piecewise linear interpolation of the points (xp, fp), evaluated at x.
/// @param x   [any shape], any real dtype (converted to float64).
/// @param xp  [n >= 1] increasing x-coordinates (not checked, as NumPy: a non-increasing xp gives
///            meaningless results unless a period is given), any real dtype (converted to float64).
/// @param fp  [n] values: real dtypes give a float64 result, complex ones complex128.
/// @return x's shape (C order), float64 or complex128. x beyond the ends gives left / right; NaN in
///         x gives NaN (complex: NaN + 0j); for xp of one point, x < xp[0] gives left, x > xp[0]
///         right, otherwise (NaN included) fp[0], as NumPy. Where the slope formula gives NaN (inf in
///         fp), NumPy's alternative formulas are used (interpolating from the right end, then the
///         equal-value rule).
/// Algorithm: one thread per x value, binary search (the last j with xp[j] <= x), NumPy's formula
/// slope * (x - xp[j]) + fp[j]. Asynchronous.
/// @throws cusci::value_error when xp or fp are not 1-D, differ in length ("fp and xp are not of the
///         same length."), are empty ("array of sample points is empty"), or period == 0 ("period
///         must be a non-zero value"); cusci::type_error for complex x or xp (NumPy's TypeError
///         "Cannot cast array data from complex128 to float64"); cusci::out_of_memory.
/// NumPy: `np.interp(x, xp, fp, left, right, period)`.
ndarray interp(const ndarray& x, const ndarray& xp, const ndarray& fp, const interp_options& opts = {});

// --- gradient ------------------------------------------------------------------------------------

/// The sample distances of one axis for `gradient`: a scalar spacing, or the coordinates of the
/// samples along the axis (1-D, the axis's length; integer coordinates are converted to float64).
using gradient_spacing = std::variant<double, ndarray>;

/// Options of `gradient` (NumPy's keyword arguments).
struct gradient_options {
  /// Axes to differentiate (NumPy's `axis=`): default all, one, or several (negative count from the
  /// end; a repeated axis throws cusci::value_error).
  axis_arg axis{};
  /// Accuracy of the one-sided differences at the boundaries: 1 or 2.
  int edge_order = 1;
};

/// Gradient of `f` by second-order central differences inside and first- or second-order one-sided
/// differences at the boundaries.
/// @param f        [any shape, ndim >= 1], any dtype except bool (integers are converted to float64).
/// @param spacing  none (unit spacing), one entry (used for every axis; a scalar), or one entry per
///                 selected axis (scalar or coordinate array), as NumPy's `*varargs`.
/// @param opts     axes and edge_order.
/// @return one array per selected axis, in the order of the axes (NumPy returns a bare array when
///         one axis is selected; here a vector of one), each of f's shape, dtype f's (float64 for
///         integers), C order.
/// Coordinate arrays always use NumPy's non-uniform formulas (NumPy first checks whether the
/// coordinates are evenly spaced, which needs a device read; the formulas agree to rounding).
/// Asynchronous.
/// @throws cusci::value_error for edge_order other than 1 or 2 ("'edge_order' greater than 2 not
///         supported"), an axis of fewer than edge_order + 1 elements ("Shape of array too small to
///         calculate a numerical gradient, at least (edge_order + 1) elements are required."), a
///         coordinate array that is not 1-D or whose length differs from the axis, a 0-d f, or a
///         repeated axis; cusci::type_error for a number of spacings other than 0, 1 (scalar) or the
///         number of axes ("invalid number of arguments"), or bool f (NumPy's boolean subtract
///         TypeError); cusci::index_error for an axis out of range; cusci::out_of_memory.
/// NumPy: `np.gradient(f, *varargs, axis, edge_order)`.
std::vector<ndarray> gradient(const ndarray& f, const std::vector<gradient_spacing>& spacing = {},
                              const gradient_options& opts = {});

// --- trapezoid -----------------------------------------------------------------------------------

/// Options of `trapezoid` (NumPy's keyword arguments, in NumPy's order).
struct trapezoid_options {
  /// Sample points: 1-D of y's length along `axis`, or an array of y's shape (differenced along
  /// `axis`). When given, `dx` is ignored.
  std::optional<ndarray> x{};
  /// Spacing of the samples when x is not given (a scalar; NumPy also accepts an array).
  double dx = 1.0;
  /// Axis to integrate along.
  int axis = -1;
};

/// Integral of y along `axis` by the composite trapezoidal rule: sum(d * (y[1:] + y[:-1]) / 2).
/// @param y  [any shape, ndim >= 1], any dtype (bool and integer sums of neighbours follow NumPy's
///           addition, then the float spacing makes them float64).
/// @return y's shape without `axis`; dtype as NumPy's: the promotion of y's neighbour sum with dx
///         (weak float: float64 for bool/integers, y's dtype for float/complex) or with diff(x).
///         An axis of length 0 or 1 gives 0.
/// Composed of diff, add, multiply, divide and sum (sum accumulates float32 in float64). Asynchronous.
/// @throws cusci::index_error for an axis out of range or a 0-d y; cusci::value_error when x's
///         shape does not broadcast; cusci::out_of_memory.
/// NumPy: `np.trapezoid(y, x, dx, axis)` (dx a scalar only).
ndarray trapezoid(const ndarray& y, const trapezoid_options& opts = {});

// --- comparisons ---------------------------------------------------------------------------------

/// Options of `isclose` / `allclose` (NumPy's keyword arguments, in NumPy's order).
struct isclose_options {
  double rtol = 1e-05;
  double atol = 1e-08;
  /// Whether NaN compares equal to NaN (a complex value is NaN when either part is).
  bool equal_nan = false;
};

/// Elementwise `|a - b| <= atol + rtol * |b|` with b finite, or a == b (so equal infinities are
/// close), as NumPy: b is first cast to an inexact dtype (`result_type(b, 1.0)`: float64 for bool
/// and integers), then the arithmetic follows NumPy's promotion (weak rtol/atol).
/// @param a, b  broadcastable shapes, any dtypes.
/// @return bool, the broadcast shape. Float32/float64 operands of the same dtype run one fused
///         kernel; other dtypes compose the elementwise ufuncs. Asynchronous.
/// @throws cusci::value_error when the shapes do not broadcast; cusci::out_of_memory.
/// NumPy: `np.isclose(a, b, rtol, atol, equal_nan)` (scalar tolerances only).
ndarray isclose(const ndarray& a, const ndarray& b, const isclose_options& opts = {});

/// Whether every element of `isclose(a, b, opts)` is true (true for empty arrays).
/// Synchronizes the current stream (reads one device bool).
/// @throws as `isclose`. NumPy: `np.allclose`.
bool allclose(const ndarray& a, const ndarray& b, const isclose_options& opts = {});

/// Options of `array_equal`.
struct array_equal_options {
  /// Whether NaNs in the same places count as equal.
  bool equal_nan = false;
};

/// Whether a1 and a2 have the same shape (no broadcasting) and equal elements (compared in their
/// promoted dtype). Different shapes give false without device work; otherwise synchronizes the
/// current stream (reads one device bool).
/// @throws cusci::out_of_memory. NumPy: `np.array_equal(a1, a2, equal_nan)`.
bool array_equal(const ndarray& a1, const ndarray& a2, const array_equal_options& opts = {});

// --- nan_to_num ----------------------------------------------------------------------------------

/// Options of `nan_to_num` (NumPy's keyword arguments, in NumPy's order).
struct nan_to_num_options {
  /// Return a new array (true) or replace in x's memory and return x (false).
  bool copy = true;
  /// Replacement of NaN.
  double nan = 0.0;
  /// Replacement of +inf; default the largest finite value of the (real) dtype.
  std::optional<double> posinf{};
  /// Replacement of -inf; default the most negative finite value of the (real) dtype.
  std::optional<double> neginf{};
};

/// Replaces NaN, +inf and -inf by finite numbers (the replacement values are converted to x's
/// dtype, so a value beyond float16/float32's range becomes inf, as NumPy's cast). Complex arrays:
/// the real and imaginary parts separately. Integer and bool arrays are returned unchanged (a copy
/// when opts.copy).
/// @param x  [any shape], any dtype and layout.
/// @return x's shape and dtype: a new C-order array, or x itself (its memory rewritten) when
///         !opts.copy.
/// Asynchronous.
/// @throws cusci::out_of_memory. NumPy: `np.nan_to_num(x, copy, nan, posinf, neginf)`.
ndarray nan_to_num(const ndarray& x, const nan_to_num_options& opts = {});

// --- cross ---------------------------------------------------------------------------------------

/// Options of `cross` (NumPy's keyword arguments, in NumPy's order).
struct cross_options {
  int axisa = -1;  ///< axis of a that holds the vectors
  int axisb = -1;  ///< axis of b that holds the vectors
  int axisc = -1;  ///< axis of the result that holds the vectors
  /// When given, overrides axisa, axisb and axisc.
  std::optional<int> axis{};
};

/// Cross product of 3-element vectors, broadcast over the other axes.
/// @param a, b  [..., 3, ...] along axisa / axisb; the other axes broadcast; any non-bool dtypes.
/// @return dtype `promote_types(a, b)`; shape the broadcast of the other axes with 3 inserted at
///         axisc (a view of a new C-order array with the vector axis last, as NumPy's moveaxis).
/// NumPy 2 (2.5 included) accepts only 3-element vectors: 2-element ones throw, as NumPy's
/// ValueError. Integer products wrap, as NumPy's. Asynchronous.
/// @throws cusci::value_error for a 0-d input ("At least one array has zero dimension"), vectors
///         of length other than 3 ("Both input arrays must be (arrays of) 3-dimensional vectors,
///         but they are 2 and 3 dimensional instead."), shapes that do not broadcast;
///         cusci::index_error for axisa/axisb/axisc out of range; cusci::type_error for bool
///         operands (NumPy's boolean subtract TypeError); cusci::out_of_memory.
/// NumPy: `np.cross(a, b, axisa, axisb, axisc, axis)`.
ndarray cross(const ndarray& a, const ndarray& b, const cross_options& opts = {});

namespace linalg {

/// The string orders of `norm`: Frobenius ('fro', also 'f') and nuclear ('nuc').
enum class norm_kind { fro, nuc };

/// Parses NumPy's "fro", "f", "nuc".
/// @throws cusci::value_error for another string ("Invalid norm order 'x'").
norm_kind parse_norm_kind(std::string_view s);

/// NumPy's `ord=` of `norm`: none (the default: 2-norm of vectors, Frobenius of matrices), a number
/// (any real; `INFINITY`, `-INFINITY`, 0 included) or a `norm_kind`.
struct norm_ord {
  norm_ord() = default;
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, int> = 0>
  norm_ord(T v) : value(static_cast<double>(v)) {}
  norm_ord(norm_kind k) : value(k) {}
  /// monostate: `ord=None`.
  std::variant<std::monostate, double, norm_kind> value{};
  bool is_none() const noexcept { return std::holds_alternative<std::monostate>(value); }
};

/// Options of `norm` (NumPy's keyword arguments, in NumPy's order).
struct norm_options {
  norm_ord ord{};
  /// One axis (vector norms), two axes (matrix norms) or all (default: a 1-D x gives a vector norm,
  /// a 2-D x a matrix norm; with ord none any x is flattened to a vector).
  axis_arg axis{};
  /// Keep the normed axes with length 1.
  bool keepdims = false;
};

/// Vector or matrix norm.
/// Vector norms (one axis, or ord none with no axis): none/2: sqrt(sum |x|^2) (computed scaled by
/// max|x|, so no overflow or underflow; NumPy does not scale: its results agree to rounding where
/// its own computation does not overflow); inf: max|x| (0 for an empty selection); -inf: min|x|;
/// 0: number of non-zeros (as x's real dtype); 1: sum|x|; other p: (sum |x|^p)^(1/p).
/// Matrix norms (two axes): none/fro: sqrt(sum |x|^2); nuc: sum of singular values; 2 / -2: largest
/// / smallest singular value; 1 / -1: max / min column sum of |x|; inf / -inf: max / min row sum.
/// The singular values come from cuSOLVER's gesvd (values only), one call per matrix of the stack.
/// @param x  [any shape], any dtype; bool and integers are converted to float64.
/// @return the real dtype of x (float64 for bool/integers; complex64 gives float32); x's shape
///         without the normed axes (kept as 1 with keepdims). A full vector 2-norm of a 1-D
///         float32/float64/complex array of fewer than 2^31 elements is cuBLAS's nrm2. Asynchronous.
/// @throws cusci::value_error for a string order with one axis ("Invalid norm order 'fro' for
///         vectors"), an invalid matrix order ("Invalid norm order for matrices."), more than two
///         axes or an ord with ndim > 2 and no axis ("Improper number of dimensions to norm."),
///         duplicate axes ("Duplicate axes given."), a zero-size reduction for -inf / -1 / -2
///         (NumPy's "zero-size array to reduction operation minimum which has no identity");
///         cusci::type_error for float16 with the singular-value orders ("array type float16 is
///         unsupported in linalg"); cusci::index_error for an axis out of range;
///         cusci::cusolver_error; cusci::out_of_memory.
/// NumPy: `numpy.linalg.norm(x, ord, axis, keepdims)`; deviation: the SVD's convergence failure
/// (NumPy's LinAlgError, not seen in practice) is not reported.
ndarray norm(const ndarray& x, const norm_options& opts = {});

}  // namespace linalg

}  // namespace cusci
