#pragma once
/// @file correlate.hpp
/// Multidimensional correlation and convolution of cusci::ndimage with scipy.ndimage's semantics:
/// `correlate` and `convolve`.
///
/// Common rules (as SciPy 1.18):
/// - Input: an ndarray of any dtype except float16, any shape (0-d included), any layout (C, F,
///   strided or negative-stride views are read through their strides, never copied).
/// - Weights: an N-D array given on the host (`host_array`, any real or complex dtype; bool and
///   integers are converted to float64 as SciPy's `np.asarray(weights, dtype=np.float64)`). They
///   are needed on the host to plan the kernel (the taps, their offsets, and the weights travel in
///   the kernel's parameters for small footprints), so the overload taking a device `ndarray` copies
///   them to the host first (a synchronizing copy).
/// - Sums: as SciPy's NI_Correlate. The taps are the weights with |w| > DBL_EPSILON (SciPy drops the
///   others, so an inf or NaN under a zero weight does not reach the result), visited in C order of
///   the weights; each product and the running sum are doubles starting from 0.0, the constant mode
///   contributes `w * cval` with cval as a double; the sum is stored into the output dtype with C's
///   conversion (integers truncate toward zero, out-of-range values as on x86-64; bool stores the
///   truncated byte). Every combination of dtypes repeats SciPy's operations exactly, except
///   float32 -> float32 and float64 -> float64 on 2-D and 3-D arrays with at most 256 weights, which
///   accumulate in double with fused multiply-adds (each step rounded once instead of twice): the
///   float32 results equal SciPy's but for rare double-rounding ties, the float64 ones lie within a
///   few ulps.
/// - Output: `opts.output` as SciPy's `output=` (nothing: a new C-contiguous array of the input
///   dtype; a dtype; or an existing device array of the result's shape, any layout, which receives
///   the result and is returned; it may be the input itself).
/// - Complex input or complex weights: as SciPy's `_complex_via_real_components`, a combination of
///   real correlations: complex input with real weights filters the real part with real(cval) and
///   the imaginary part with imag(cval); real input with complex weights filters the input with the
///   real and with the imaginary weights; both complex: real = corr(re, w.re) - corr(im, w.im),
///   imag = corr(re, w.im) + corr(im, w.re), the subtracted / added terms rounded to the input's real
///   dtype first, as SciPy's temporaries. `correlate` conjugates complex weights first (as
///   np.correlate), `convolve` does not. The output dtype is complex: the input dtype promoted with
///   complex64 by default, a real dtype argument promoted likewise (SciPy also warns).
/// - Every function enqueues its kernels on the current stream and returns without synchronizing
///   (apart from the weights copy of the ndarray overloads).
///
/// Kernels: the footprint engine. 2-D and 3-D arrays whose weights have at most 256 elements and
/// whose tile fits take a shared-memory tiled kernel: a block of 256 threads stages a [1, 64, 32]
/// (2-D) or [8, 8, 32] (3-D) tile of outputs plus the weights' halo once, converted to double, and
/// each thread accumulates 8 outputs along y (2-D) or z (3-D) from registers. The bound for a small
/// float32 stencil is the copy roofline: one read and one write of the array (4096 x 4096 float32:
/// 128 MiB moved, about 0.03 ms on an H200 at 4.1 TB/s); the double arithmetic (one fused
/// multiply-add per tap and output) stays below it up to about 5 x 5 taps on an H200. Other arrays
/// (1-D, more than 3 dims, bigger weights) take a generic kernel, one thread per output, the taps
/// read through the cache.

#include <complex>
#include <cstdint>
#include <optional>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// Keyword arguments of correlate and convolve (SciPy's names and defaults).
struct correlate_options {
  /// Output dtype or array (see the file comment).
  ndimage::output_arg output{};
  /// One boundary mode for all axes (SciPy's correlate takes a single mode).
  ndimage::mode mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant. A nonzero imaginary part is allowed
  /// only for a complex input (it applies to the imaginary part's correlation).
  std::complex<double> cval = 0.0;
  /// Shift of the weights: one value for all filtered axes or one per filtered axis; for each
  /// axis k, -(weights.shape[k] // 2) <= origin[k] <= (weights.shape[k] - 1) // 2 (convolve: after
  /// its negation and even-size adjustment, as SciPy).
  per_axis<std::int64_t> origin = 0;
  /// Axes to filter (negative values count from the end); default: all axes. With fewer axes than
  /// the input has, the weights have one dimension per filtered axis, assigned to the filtered axes
  /// in increasing order, and the origins follow the axes in the order given (SciPy's
  /// _expand_footprint / _expand_origin).
  std::optional<std::vector<int>> axes{};
};

/// Multidimensional correlation:
/// out[i] = sum_k weights[k] * ext(input)[i + k - weights.shape // 2 - origin] over the taps k of
/// the weights (|w| > DBL_EPSILON) in C order, where ext extends the input beyond its edges according
/// to `opts.mode`.
/// @param input   [any shape] any dtype except float16, any layout; complex included.
/// @param weights [one dimension per filtered axis, each >= 1] host array of any real or complex
///                dtype (see the file comment).
/// @param opts    output, mode, cval, origin, axes.
/// @return [input.shape] of dtype `opts.output` or input.dtype() (complex: see the file comment);
///         the output array itself when one is given.
/// Asynchronous on the current stream.
/// @throws cusci::runtime_error (SciPy's RuntimeError) when the weights' number of nonzero-length
///         dimensions differs from the number of filtered axes ("weights.ndim (W) must match
///         len(axes) (N)"), an origin sequence's length differs from it ("sequence argument must have
///         length equal to input rank"), the output array's shape differs from the input's ("output
///         shape not correct"), a real output array is given for a complex result ("output must have
///         complex dtype"), a complex output is asked for a real result or a float16 array is given
///         ("array type not supported");
///         cusci::value_error for an origin out of range ("Invalid origin"), an axis out of range or
///         repeated, a complex cval with a real input and complex weights;
///         cusci::type_error for a complex cval with real input and real weights (SciPy: TypeError
///         "must be real number, not complex").
/// SciPy: `scipy.ndimage.correlate`. Deviations: a cval whose imaginary part is 0 counts as real
/// (SciPy treats any Python complex as complex); mode sequences cannot be expressed (SciPy raises).
ndarray correlate(const ndarray& input, const host_array& weights, const correlate_options& opts = {});

/// correlate with device weights: copied to the host first (synchronizes the current stream), then
/// as the host_array overload.
ndarray correlate(const ndarray& input, const ndarray& weights, const correlate_options& opts = {});

/// Multidimensional convolution: correlate with the weights reversed along every axis and each
/// origin negated and, for an even weights extent, decreased by one (SciPy's rule; the origin test
/// applies to the adjusted values). Complex weights are not conjugated.
/// Parameters, result, stream behaviour and exceptions as correlate.
/// SciPy: `scipy.ndimage.convolve` (same deviations as correlate).
ndarray convolve(const ndarray& input, const host_array& weights, const correlate_options& opts = {});

/// convolve with device weights (copied to the host first, synchronizing the current stream).
ndarray convolve(const ndarray& input, const ndarray& weights, const correlate_options& opts = {});

}  // namespace cusci::ndimage
