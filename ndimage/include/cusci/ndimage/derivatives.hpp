#pragma once
/// @file derivatives.hpp
/// Derivative filters of cusci::ndimage with scipy.ndimage's semantics: prewitt, sobel, laplace,
/// gaussian_laplace, gaussian_gradient_magnitude, and the generic generic_laplace and
/// generic_gradient_magnitude that take the derivative as a callable.
///
/// Common rules (as SciPy 1.18):
/// - Every filter is a composition of one-dimensional correlations (correlate1d's passes) run in
///   SciPy's order. Intermediate results are stored in the output dtype, as SciPy writes them into
///   `output`: with an integer output every pass is stored with C's double-to-integer conversion as
///   compiled for x86-64 (truncation toward zero; out-of-range values as cvttsd2si gives them, e.g. a
///   negative value wraps into uint64 and a sum of 2**64 or more becomes 0) before the next one reads
///   it, exactly as SciPy. Passes compute in double except float32 -> float32 and
///   float64 -> float64, which compute in the array's precision with fused multiply-adds (within a
///   few ulps of SciPy's values; see filters.hpp).
/// - Sums and squares (laplace's `output += tmp`, the gradient magnitude's `output * output`,
///   `tmp * tmp`, `output += tmp` and final `sqrt`) are computed in the output dtype as NumPy does:
///   integers wrap around, bool adds as logical or and multiplies as logical and, float16 computes in
///   float32 and rounds each result, complex squares are complex products (not |z|^2) and the square
///   root is the complex principal root. The final square root of an integer output is taken in
///   NumPy's loop type (float16 for bool/int8/uint8, float32 for int16/uint16, float64 otherwise) and
///   cast back unsafely as NumPy does on x86-64 (truncation toward zero; the square root of a
///   negative, wrapped-around sum, NaN, becomes INT_MIN for int32/int64 and 0 for int8/int16).
///   These elementwise steps are fused into as few kernels as give the same values.
/// - Input: an ndarray of any layout (C, F, strided, negative strides); dtypes bool, integers,
///   float32, float64, complex64, complex128 (SciPy's correlate1d refuses float16). Complex input is
///   filtered as its real part (with `cval`) and its imaginary part (with 0).
/// - Output (`output`, SciPy's `output=`): not given, a new C-contiguous array of the input dtype; a
///   dtype, a new C-contiguous array of that dtype; an existing device array (any layout) of the
///   input's shape, which receives the result and is returned. The array may be the input itself:
///   then, as in SciPy, the derivatives after the first one read the partially updated array
///   (laplace, the gradient magnitudes), while prewitt and sobel give the same values as with a
///   separate output.
/// - Every function enqueues its kernels on the current stream and returns without synchronizing;
///   it allocates at most two temporary arrays of the output's size (one for the sums, one for the
///   chained passes of a derivative), from the pool.
/// - Errors of SciPy's RuntimeError kind (a per-axis sequence of the wrong length, an output array of
///   the wrong shape, a real output for a complex input, a complex output for a real input, float16
///   arrays) are cusci::runtime_error; messages start with "cusci::ndimage::<function>: ".

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// Keyword arguments of prewitt and sobel (SciPy's names and defaults).
struct sobel_options {
  /// Output dtype or array; default: a new array of the input dtype.
  ndimage::output_arg output{};
  /// One mode for every axis, or one per axis of the input (ndim values, as SciPy's
  /// `_normalize_sequence(mode, input.ndim)`): the derivative pass along `axis` uses mode[axis], the
  /// smoothing pass along each other axis its own mode.
  per_axis<ndimage::mode> mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant, in every pass.
  double cval = 0.0;
};
/// Keyword arguments of prewitt (the same as sobel's).
using prewitt_options = sobel_options;

/// Prewitt filter: the derivative [-1, 0, 1] (correlation) along `axis`, then the smoothing [1, 1, 1]
/// along every other axis in increasing order, each pass reading the previous pass's result stored in
/// the output dtype.
/// @param input [any shape, ndim >= 1] bool, integer, float32, float64, complex64 or complex128; any
///              layout.
/// @param axis  axis of the derivative, in [-ndim, ndim).
/// @param opts  output, mode (one or one per input axis), cval.
/// @return [input.shape] of the output dtype (the output array itself when one is given).
/// Asynchronous on the current stream (one temporary of the output's size for 2 or more passes, or
/// when the output array overlaps the input).
/// @throws cusci::index_error for an axis out of range (also for a 0-d input; SciPy's AxisError);
///         cusci::runtime_error for a mode sequence whose length is not ndim, an output array of
///         another shape, a real output for a complex input, a complex output for a real input or
///         float16 (SciPy's RuntimeError texts); cusci::value_error for an output array on another
///         device.
/// SciPy: `scipy.ndimage.prewitt`.
ndarray prewitt(const ndarray& input, int axis = -1, const prewitt_options& opts = {});

/// Sobel filter: the derivative [-1, 0, 1] (correlation) along `axis`, then the smoothing [1, 2, 1]
/// along every other axis in increasing order, each pass reading the previous pass's result stored in
/// the output dtype (so an integer output truncates between passes, as SciPy).
/// Parameters, result, stream behaviour and exceptions as prewitt.
/// SciPy: `scipy.ndimage.sobel`.
ndarray sobel(const ndarray& input, int axis = -1, const sobel_options& opts = {});

/// Keyword arguments of laplace, generic_laplace and generic_gradient_magnitude.
struct laplace_options {
  /// Output dtype or array; default: a new array of the input dtype.
  ndimage::output_arg output{};
  /// One mode, or one per filtered axis (len(axes) values); the derivative along axes[i] uses mode[i].
  per_axis<ndimage::mode> mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant.
  double cval = 0.0;
  /// Axes to filter (negative values count from the end); default: all axes. No axes (also a 0-d
  /// input): the result is the input cast to the output dtype.
  std::optional<std::vector<int>> axes{};
};
using generic_laplace_options = laplace_options;
using generic_gradient_magnitude_options = laplace_options;

/// Laplace filter from second differences: out = sum over the filtered axes of the correlation with
/// [1, -2, 1] along that axis. As SciPy: the first axis's derivative is written into the output, the
/// others are computed into a temporary of the output dtype and added (`output += tmp`, integer sums
/// wrap).
/// @param input [any shape] bool, integer, float32, float64, complex64 or complex128; any layout.
/// @param opts  output, mode (one or one per filtered axis), cval, axes.
/// @return [input.shape] of the output dtype (the output array itself when one is given).
/// Asynchronous on the current stream (one temporary of the output's size for 2 or more axes, one
/// more when the output array overlaps the input).
/// @throws cusci::value_error for an axis out of range or repeated (SciPy's ValueError texts) or an
///         output array on another device; cusci::runtime_error for a mode sequence of the wrong
///         length, an output array of another shape, or the dtypes SciPy refuses (see the file
///         comment).
/// SciPy: `scipy.ndimage.laplace`.
ndarray laplace(const ndarray& input, const laplace_options& opts = {});

/// Keyword arguments of gaussian_laplace and gaussian_gradient_magnitude: SciPy's keywords and the
/// keyword arguments they pass on to gaussian_filter (`truncate`, `radius`).
struct gaussian_laplace_options {
  /// Output dtype or array; default: a new array of the input dtype.
  ndimage::output_arg output{};
  /// One mode, or one per filtered axis. As SciPy, the derivative along axes[i] is a gaussian_filter
  /// call whose passes along every axis all use mode[i].
  per_axis<ndimage::mode> mode = mode::reflect;
  double cval = 0.0;
  /// Axes to filter (negative values count from the end); default: all axes.
  std::optional<std::vector<int>> axes{};
  /// gaussian_filter's `truncate`: kernel half width int(truncate * sigma + 0.5).
  double truncate = 4.0;
  /// gaussian_filter's `radius`: empty (derived from truncate), one value, or one per axis of the
  /// input (ndim values, since SciPy passes it to gaussian_filter over all axes).
  per_axis<std::int64_t> radius{};
};
using gaussian_gradient_magnitude_options = gaussian_laplace_options;

/// Laplace filter from Gaussian second derivatives: out = sum over the filtered axes a of
/// gaussian_filter(input, sigma, order = 2 along a and 0 elsewhere). As SciPy, sigma is 0 (the axis
/// is not smoothed) along the axes that are not filtered, every derivative's passes run over the
/// axes in increasing order with sigma > 1e-15, and the sums are taken in the output dtype.
/// @param input [any shape] bool, integer, float32, float64, complex64 or complex128; any layout.
/// @param sigma standard deviation(s) in samples: one, or one per filtered axis (len(axes)). As
///              SciPy's gaussian_filter, an axis whose sigma is not > 1e-15 (0, negative or NaN) gets
///              no pass at all: neither smoothing nor, along the derivative's own axis, the second
///              derivative.
/// @param opts  output, mode, cval, axes, truncate, radius.
/// @return [input.shape] of the output dtype (the output array itself when one is given).
/// Asynchronous on the current stream (a temporary of the output's size for the passes of each
/// derivative, and one for the sum).
/// @throws cusci::value_error, for an axis with sigma > 1e-15, when truncate * sigma + 0.5 is
///         not finite (SciPy: OverflowError / ValueError), the radius (given or from truncate) is
///         negative ("Radius must be a nonnegative integer", SciPy's ValueError) or above 2**28, or
///         sigma**2 overflows; for an axis out of range or repeated, or an output array on another
///         device; cusci::runtime_error for a sigma / mode sequence whose length is not len(axes), a
///         radius sequence whose length is not ndim, and as laplace.
/// SciPy: `scipy.ndimage.gaussian_laplace` (its **kwargs are `truncate` and `radius`). Deviations
/// (as cusci::ndimage::gaussian_filter): a kernel radius above 2**28 or a sigma whose square
/// overflows raises value_error.
ndarray gaussian_laplace(const ndarray& input, const per_axis<double>& sigma,
                         const gaussian_laplace_options& opts = {});

/// Gradient magnitude from Gaussian first derivatives: out = sqrt(sum over the filtered axes a of
/// d_a * d_a), d_a = gaussian_filter(input, sigma, order = 1 along a and 0 elsewhere), the squares,
/// sums and square root computed in the output dtype as SciPy (see the file comment). As SciPy, each
/// derivative smooths along every axis of the input (also those not in `axes`) with the sigma given
/// for it, and `sigma` has one value or one per input axis.
/// @param input [any shape] bool, integer, float32, float64, complex64 or complex128; any layout.
/// @param sigma standard deviation(s) in samples: one, or one per input axis (ndim values); an axis
///              whose sigma is not > 1e-15 (0, negative or NaN) gets no pass, as in gaussian_laplace.
/// @param opts  output, mode (one or one per filtered axis), cval, axes, truncate, radius.
/// @return [input.shape] of the output dtype (the output array itself when one is given).
/// Asynchronous on the current stream.
/// @throws as gaussian_laplace, except that a sigma sequence must have ndim values.
/// SciPy: `scipy.ndimage.gaussian_gradient_magnitude` (its **kwargs are `truncate` and `radius`).
/// Deviations: as gaussian_laplace.
ndarray gaussian_gradient_magnitude(const ndarray& input, const per_axis<double>& sigma,
                                    const gaussian_gradient_magnitude_options& opts = {});

/// A derivative along one axis, as SciPy's `derivative` / `derivative2` callables:
/// `derivative(input, axis, output, mode, cval)` returns the derivative of `input` along `axis`
/// (normalized, in [0, ndim)), with boundary `mode` and `cval`. `output` is either an existing array
/// (the first axis: the filter's output array, which the derivative should fill and return) or a
/// dtype (the other axes: the derivative returns a new array of that dtype), exactly the `output=`
/// argument the filters of this module take. Example:
/// `[](const ndarray& in, int ax, const output_arg& out, mode m, double cval) {
///    return cusci::ndimage::sobel(in, ax, {.output = out, .mode = m, .cval = cval}); }`.
/// SciPy's `extra_arguments` and `extra_keywords` have no counterpart: capture them in the callable.
using derivative_function =
    std::function<ndarray(const ndarray& input, int axis, const output_arg& output, ndimage::mode mode, double cval)>;

/// Laplace filter with a given second derivative: out = derivative2(input, axes[0], output array, ...)
/// plus derivative2(input, axes[i], output dtype, ...) for the other filtered axes, summed in the
/// output dtype (`output += tmp`, NumPy's add with same_kind casting when the derivative returns
/// another dtype).
/// @param input       [any shape] any dtype the derivative accepts; any layout.
/// @param derivative2 the second derivative (see derivative_function); called once per filtered axis,
///                    in the order of `opts.axes`, on the calling thread.
/// @param opts        output, mode (one or one per filtered axis), cval, axes.
/// @return [input.shape] of the output dtype (the output array itself when one is given).
/// Asynchronous on the current stream as far as the derivative is.
/// @throws what the derivative throws; cusci::value_error for an axis out of range or repeated, an
///         output array on another device, or a derivative result whose shape does not broadcast to
///         the input's (or an empty callable); cusci::type_error when a result's dtype does not cast
///         to the output dtype under NumPy's same_kind rule; cusci::runtime_error for a mode sequence
///         of the wrong length or an output array of another shape.
/// SciPy: `scipy.ndimage.generic_laplace`. Deviations: `extra_arguments` / `extra_keywords` are
/// replaced by the callable's captures; when the first call returns an array other than the output
/// array it was given, that array is copied into the output (SciPy ignores the return value there).
ndarray generic_laplace(const ndarray& input, const derivative_function& derivative2,
                        const generic_laplace_options& opts = {});

/// Gradient magnitude with a given derivative: out = sqrt(sum over the filtered axes of d * d), with
/// d = derivative(input, axes[0], output array, ...) for the first axis and derivative(input,
/// axes[i], output dtype, ...) for the others, squares, sums and the square root computed in the
/// output dtype as SciPy (see the file comment).
/// @param input      [any shape] any dtype the derivative accepts; any layout.
/// @param derivative the first derivative (see derivative_function).
/// @param opts       output, mode (one or one per filtered axis), cval, axes.
/// @return [input.shape] of the output dtype (the output array itself when one is given).
/// Asynchronous on the current stream as far as the derivative is.
/// @throws as generic_laplace.
/// SciPy: `scipy.ndimage.generic_gradient_magnitude`. Deviations: as generic_laplace; the arrays the
/// derivative returns for the other axes are not modified (SciPy squares them in place).
ndarray generic_gradient_magnitude(const ndarray& input, const derivative_function& derivative,
                                   const generic_gradient_magnitude_options& opts = {});

}  // namespace cusci::ndimage
