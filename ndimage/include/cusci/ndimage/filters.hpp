#pragma once
/// @file filters.hpp
/// Filters of cusci::ndimage with scipy.ndimage's semantics: the separable linear filters correlate1d,
/// convolve1d, gaussian_filter1d, gaussian_filter, uniform_filter1d, uniform_filter, and the minimum
/// and maximum filters minimum_filter1d, maximum_filter1d, minimum_filter, maximum_filter.
///
/// Common rules (as SciPy 1.18):
/// - Input: an ndarray of any dtype SciPy's filters accept (see each function; float16 never) and
///   any layout (C, F, strided or negative-stride views are read through their strides, never
///   copied).
/// - `output` (SciPy's `output=`, output.hpp): not given, the input dtype; a dtype, a new array of
///   that dtype; an existing device array (any layout, any dtype the filter can write, the input's
///   shape, else cusci::runtime_error "output shape not correct"), which receives the result and is
///   returned. It may be the input itself or overlap it: the values are those of a separate output
///   (the engine filters a copy of the input or keeps the first pass out of the output).
/// - Passes compute in double and store into the output dtype with a C cast: integers truncate
///   toward zero and out-of-range or NaN values convert as SciPy's C cast does on x86-64 (the
///   instruction's "integer indefinite" value, then the low bits), bool stores the truncated byte.
///   Exceptions, the fast paths: float32 -> float32 computes in float32 and float64 -> float64 in
///   float64 with fused multiply-adds in tap order (results within a few ulps of SciPy's, which
///   pairs symmetric taps). Filters of two or more axes store each intermediate result in the output
///   dtype (SciPy's chaining, which matters for integer outputs).
/// - New outputs are C-contiguous whatever the input's layout, as SciPy's. An input in Fortran
///   order is filtered as its transpose (coalesced loads) and the last pass writes the C-ordered
///   output through its strides (uncoalesced stores in that pass only).
/// - Complex input is filtered as its real and imaginary parts (SciPy's
///   `_complex_via_real_components`); `cval` applies to the real part and 0 to the imaginary part.
/// - Errors follow SciPy's exception kinds (docs/architecture.md, "Errors"): SciPy's RuntimeError
///   (no filter weights, incorrect filter size, a sequence argument of the wrong length, no
///   footprint, unsupported boundary mode or array type, output shape or dtype) is
///   cusci::runtime_error; ValueError (origins, axes, sigma / radius, all-zero footprint) is
///   cusci::value_error; TypeError (complex input of the minimum / maximum filters) is
///   cusci::type_error; numpy's AxisError (`axis`) is cusci::index_error.
/// - Every function enqueues its kernels on the current stream and returns without synchronizing.

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// A parameter given either once for all filtered axes or once per axis (SciPy's "scalar or
/// sequence" parameters: `sigma`, `order`, `mode`, `radius`). An empty, default-constructed value
/// means "not given" where the parameter is optional (`radius`).
template <class T>
struct per_axis {
  std::vector<T> values;
  bool is_scalar = false;
  per_axis() = default;
  per_axis(T v) : values{v}, is_scalar(true) {}  // NOLINT: implicit, as SciPy's scalars
  per_axis(std::initializer_list<T> v) : values(v) {}
  per_axis(std::vector<T> v) : values(std::move(v)) {}  // NOLINT
  bool empty() const noexcept { return values.empty(); }
};

/// Keyword arguments of correlate1d / convolve1d (SciPy's names and defaults).
struct correlate1d_options {
  /// Output dtype or array; default: the input dtype (complex weights or a complex input: a real
  /// dtype is promoted to complex as SciPy does for a dtype argument, a real array is refused).
  ndimage::output_arg output{};
  ndimage::mode mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant.
  double cval = 0.0;
  /// Shift of the filter: -(len(weights) // 2) <= origin <= (len(weights) - 1) // 2 (for
  /// convolve1d, of the correlation it runs: see convolve1d).
  std::int64_t origin = 0;
};

/// Keyword arguments of gaussian_filter1d.
struct gaussian_filter1d_options {
  /// Derivative order (0 = smoothing, 1 = first derivative, ...); any order >= 0.
  int order = 0;
  ndimage::output_arg output{};
  ndimage::mode mode = mode::reflect;
  double cval = 0.0;
  /// Kernel half width in standard deviations: radius = int(truncate * sigma + 0.5).
  double truncate = 4.0;
  /// Kernel half width in samples; overrides truncate when given.
  std::optional<std::int64_t> radius{};
};

/// Keyword arguments of gaussian_filter. `order`, `mode` and `radius` take one value or one value
/// per filtered axis.
struct gaussian_filter_options {
  per_axis<int> order = 0;
  ndimage::output_arg output{};
  per_axis<ndimage::mode> mode = mode::reflect;
  double cval = 0.0;
  double truncate = 4.0;
  /// Empty: derived from truncate; else one radius or one per filtered axis.
  per_axis<std::int64_t> radius{};
  /// Axes to filter (negative values count from the end); default: all axes.
  std::optional<std::vector<int>> axes{};
};

/// One-dimensional correlation along `axis`:
/// out[..., i, ...] = sum_k weights[k] * ext(input)[..., i + k - len(weights)/2 - origin, ...],
/// where ext extends the input beyond its edges according to `mode`.
/// @param input   [any shape, ndim >= 1] bool, integer, float32/64 or complex dtype, any layout.
/// @param weights [K >= 1] real filter weights (host values).
/// @param axis    axis to filter, in [-ndim, ndim).
/// @param opts    output (dtype or array), mode, cval, origin.
/// @return [input.shape] of dtype `opts.output` or input.dtype(): `opts.output`'s array when given.
/// Asynchronous on the current stream (weights longer than 128 taps are copied to the device first).
/// @throws cusci::runtime_error for empty weights ("no filter weights given"), an output array of
///         another shape, a real output array for a complex input, a complex output for a real input,
///         float16 (input or output), a mode outside the enum; cusci::value_error for an origin out of
///         range; cusci::index_error for a bad axis (also for a 0-d input).
/// SciPy: `scipy.ndimage.correlate1d` (complex weights: the overload below). No deviation.
ndarray correlate1d(const ndarray& input, const std::vector<double>& weights, int axis = -1,
                    const correlate1d_options& opts = {});

/// correlate1d with a braced list of real weights (`correlate1d(x, {1.0, 2.0})`).
inline ndarray correlate1d(const ndarray& input, std::initializer_list<double> weights, int axis = -1,
                           const correlate1d_options& opts = {}) {
  return correlate1d(input, std::vector<double>(weights), axis, opts);
}

/// One-dimensional correlation with complex weights, as SciPy 1.18: the correlation with the
/// conjugated weights, conj(weights[k]) in place of weights[k] above, computed through real
/// correlations (SciPy's `_complex_via_real_components`): for a real input, re = corr(x, Re w*) and
/// im = corr(x, Im w*), both with `cval`; for a complex input, re = corr(xr, Re w*) - corr(xi, Im w*)
/// and im = corr(xr, Im w*) + corr(xi, Re w*), the subtracted / added terms computed in the input's
/// real dtype with cval 0 (SciPy's `output=None` temporaries).
/// @param input   [any shape, ndim >= 1] bool, integer, float32/64 or complex dtype, any layout.
/// @param weights [K >= 1] complex weights (host values; also a braced list of complex values).
/// @param axis, opts as correlate1d.
/// @return [input.shape], complex: `opts.output`'s dtype (a real dtype promoted to complex), else
///         np.promote_types(input.dtype, complex64) (complex64 for bool, 8/16-bit integers and
///         float32; complex128 otherwise); `opts.output`'s array when given.
/// The passes run in SciPy's order (re from xr, minus the xi term; then im from xr, plus the xi
/// term), each reading the input as it then is. With `opts.output` the input itself (in place),
/// SciPy returns re as above but im = t + corr(t, Re w*), t = corr(re, Im w*) (with cval, then 0):
/// the third pass reads the real part already written and overwrites the imaginary part that the
/// fourth reads. cusci returns the same, not the correlation of the original values.
/// Asynchronous on the current stream. Runs 2 (real input) or 4 (complex input) real correlation
/// passes, plus for a complex input two elementwise combinations and two temporaries of the input's
/// real dtype (complex64 input into a complex128 output: summed in double, one float64 temporary
/// at a time, rounded to float32 as SciPy's temporaries).
/// @throws cusci::runtime_error for empty weights, an output array of another shape or a real output
///         array ("output must have complex dtype"), float16 input; cusci::value_error for an origin
///         out of range; cusci::index_error for a bad axis.
/// SciPy: `scipy.ndimage.correlate1d` with complex weights. No deviation (no complex `cval`: cusci's
/// cval is real).
ndarray correlate1d(const ndarray& input, const std::vector<std::complex<double>>& weights, int axis = -1,
                    const correlate1d_options& opts = {});

/// One-dimensional convolution along `axis`: correlate1d with the weights reversed and the origin
/// negated (and decreased by one for an even number of weights), as SciPy; the origin test applies
/// to that correlation's origin: -(K // 2) <= -origin - (K even) <= (K - 1) // 2.
/// Parameters, result, stream behaviour and exceptions as correlate1d.
/// SciPy: `scipy.ndimage.convolve1d`. No deviation.
ndarray convolve1d(const ndarray& input, const std::vector<double>& weights, int axis = -1,
                   const correlate1d_options& opts = {});

/// convolve1d with a braced list of real weights.
inline ndarray convolve1d(const ndarray& input, std::initializer_list<double> weights, int axis = -1,
                          const correlate1d_options& opts = {}) {
  return convolve1d(input, std::vector<double>(weights), axis, opts);
}

/// One-dimensional convolution with complex weights, as SciPy 1.18: the correlation with the
/// reversed weights, not conjugated (SciPy conjugates them before correlate1d conjugates them
/// again), origin as convolve1d. Parameters, result, stream behaviour and exceptions as the complex
/// correlate1d. SciPy: `scipy.ndimage.convolve1d` with complex weights. No deviation.
ndarray convolve1d(const ndarray& input, const std::vector<std::complex<double>>& weights, int axis = -1,
                   const correlate1d_options& opts = {});

/// One-dimensional Gaussian filter (or derivative of Gaussian of order `opts.order`) along `axis`:
/// correlate1d with SciPy's kernel of radius `opts.radius` or int(truncate * sigma + 0.5).
/// @param input [any shape, ndim >= 1] bool, integer, float32/64 or complex dtype, any layout.
/// @param sigma standard deviation in samples; as SciPy, a negative sigma gives the kernel of |sigma|
///              (the kernel depends on sigma**2) with the radius int(truncate * sigma + 0.5), which
///              must be >= 0 (so a negative sigma needs a negative truncate or an explicit radius).
/// @param axis  in [-ndim, ndim).
/// @param opts  order, output (dtype or array), mode, cval, truncate (any finite value; negative
///              ones give radius 0 down to truncate * sigma > -1.5, as SciPy), radius.
/// @return [input.shape] of dtype `opts.output` or input.dtype(): `opts.output`'s array when given.
/// Asynchronous on the current stream.
/// @throws cusci::value_error, as SciPy's ValueError, for a radius < 0 (explicit, or from truncate
///         and sigma), order < 0, truncate * sigma not finite (SciPy: ValueError / OverflowError from
///         int()), sigma**2 == 0 (SciPy: ZeroDivisionError) or sigma**2 not finite, a radius above
///         2^28, an order whose (order + 1)^2 int64 derivative matrix (SciPy's) exceeds 2^63 - 1 bytes;
///         cusci::out_of_memory (SciPy's MemoryError) at once when that matrix exceeds the host's
///         memory (order 2^20); cusci::index_error for a bad axis; cusci::runtime_error for the
///         output's shape or dtype, float16, a mode outside the enum (as correlate1d).
/// SciPy: `scipy.ndimage.gaussian_filter1d`. Deviations: sigma == 0 raises value_error (SciPy:
/// ZeroDivisionError); |sigma| above ~1.3e154 with an explicit radius raises value_error (SciPy gives
/// the box kernel that its infinite sigma**2 makes).
ndarray gaussian_filter1d(const ndarray& input, double sigma, int axis = -1,
                          const gaussian_filter1d_options& opts = {});

/// Multidimensional Gaussian filter: gaussian_filter1d along each axis of `opts.axes` in turn, each
/// pass reading the previous pass's result stored in the output dtype (SciPy's chaining, which
/// matters for integer outputs). Axes whose sigma is not > 1e-15 (zero, negative or NaN) are
/// skipped, as SciPy; when all are skipped the result is a copy of the input cast to the output
/// dtype (SciPy's output[...] = input).
/// @param input [any shape] bool, integer, float32/64 or complex dtype, any layout; a 0-d input is
///              copied.
/// @param sigma standard deviation(s) in samples, one or one per filtered axis.
/// @param opts  order, output (dtype or array), mode, cval, truncate, radius, axes.
/// @return [input.shape] of dtype `opts.output` or input.dtype(): `opts.output`'s array when given.
/// Asynchronous on the current stream (uses one or two temporaries of the output's size for 2 or
/// more passes: two for 3 or more passes when the output is not C-contiguous in the processing
/// order, e.g. for an input in Fortran order).
/// @throws cusci::runtime_error for a per-axis sequence (sigma, order, mode, radius) whose length
///         differs from the number of filtered axes, an output array of another shape, a real output
///         (dtype or array) for a complex input or a complex one for a real input (where an axis is
///         filtered), float16; cusci::value_error for an axis out of range or repeated, and as
///         gaussian_filter1d for each filtered axis (radius, order, sigma, truncate).
/// SciPy: `scipy.ndimage.gaussian_filter`. Deviations: as gaussian_filter1d.
ndarray gaussian_filter(const ndarray& input, const per_axis<double>& sigma,
                        const gaussian_filter_options& opts = {});

/// Keyword arguments of uniform_filter1d, minimum_filter1d and maximum_filter1d (SciPy's names and
/// defaults).
struct filter1d_options {
  /// Output dtype or array; default: the input dtype (uniform_filter1d: a real dtype is promoted to
  /// complex for a complex input, as SciPy does for a dtype argument; a real array is refused).
  ndimage::output_arg output{};
  ndimage::mode mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant.
  double cval = 0.0;
  /// Shift of the window: -(size / 2) <= origin <= (size - 1) / 2.
  std::int64_t origin = 0;
};

/// Keyword arguments of uniform_filter. `mode` and `origin` take one value or one per filtered axis.
struct uniform_filter_options {
  ndimage::output_arg output{};
  per_axis<ndimage::mode> mode = mode::reflect;
  double cval = 0.0;
  per_axis<std::int64_t> origin = 0;
  /// Axes to filter (negative values count from the end); default: all axes.
  std::optional<std::vector<int>> axes{};
};

/// Keyword arguments of minimum_filter and maximum_filter. `footprint`: the neighbourhood as a host
/// array (nonzero = inside), one dimension per filtered axis; it replaces `size` when given.
/// `mode` and `origin` take one value or one per filtered axis (one mode only for a footprint that is
/// not all true, as SciPy).
struct min_max_filter_options {
  std::optional<host_array> footprint{};
  ndimage::output_arg output{};
  per_axis<ndimage::mode> mode = mode::reflect;
  double cval = 0.0;
  per_axis<std::int64_t> origin = 0;
  std::optional<std::vector<int>> axes{};
};

/// One-dimensional uniform (moving average) filter of `size` values along `axis`:
/// out[..., i, ...] = mean of ext(input)[..., i - size/2 - origin + k, ...] for k in [0, size).
/// @param input [any shape, ndim >= 1] bool, integer, float32/64 or complex dtype, any layout.
/// @param size  window length, >= 1.
/// @param axis  in [-ndim, ndim).
/// @param opts  output (dtype or array), mode, cval, origin.
/// @return [input.shape] of dtype `opts.output` or input.dtype() (`opts.output`'s array when given).
///         Computed as SciPy: a running sum in double in SciPy's order (so integer outputs truncate
///         exactly as SciPy's), cast to the output dtype; float32 -> float32 and float64 -> float64
///         with size <= 64 / 32 on a contiguous line or a non-last axis take the engine's fast path
///         (a correlation with weights 1 / size in the array's precision: within a few ulps of
///         SciPy's values).
/// Asynchronous on the current stream.
/// @throws cusci::index_error for a bad axis (also for a 0-d input); cusci::runtime_error for
///         size < 1 ("incorrect filter size"), an output array of another shape, a real output array
///         for a complex input, a complex output for a real input, float16, a mode outside the enum;
///         cusci::value_error for an origin out of range ("invalid origin") or a size above 2^30.
/// SciPy: `scipy.ndimage.uniform_filter1d`. No deviation.
ndarray uniform_filter1d(const ndarray& input, std::int64_t size, int axis = -1, const filter1d_options& opts = {});

/// Multidimensional uniform filter: uniform_filter1d along each axis of `opts.axes` whose size is
/// > 1, in turn, each pass reading the previous pass's result stored in the output dtype (SciPy's
/// chaining). When no axis is filtered the result is a copy of the input cast to the output dtype.
/// @param input [any shape] bool, integer, float32/64 or complex dtype, any layout.
/// @param size  window length(s), one or one per filtered axis (values <= 1 skip the axis).
/// @param opts  output (dtype or array), mode, cval, origin, axes.
/// @return [input.shape] of dtype `opts.output` or input.dtype() (`opts.output`'s array when given).
/// Asynchronous on the current stream (one or two temporaries of the output's size for 2 or more
/// passes, as gaussian_filter).
/// @throws cusci::runtime_error for a per-axis sequence (size, origin, mode) whose length differs
///         from the number of filtered axes, and as uniform_filter1d for the output and dtypes
///         (where an axis is filtered); cusci::value_error for an axis out of range or repeated, or
///         an origin out of range.
/// SciPy: `scipy.ndimage.uniform_filter`. No deviation.
ndarray uniform_filter(const ndarray& input, const per_axis<std::int64_t>& size = 3,
                       const uniform_filter_options& opts = {});

/// One-dimensional minimum filter of `size` values along `axis`:
/// out[..., i, ...] = min of ext(input)[..., i - size/2 - origin + k, ...] for k in [0, size).
/// @param input [any shape, ndim >= 1] any real dtype except float16 (bool included), any layout.
/// @param size  window length, >= 1.
/// @param axis  in [-ndim, ndim).
/// @param opts  output (dtype or array), mode, cval, origin.
/// @return [input.shape] of dtype `opts.output` or input.dtype() (`opts.output`'s array when given);
///         SciPy's values: compared as doubles as SciPy's line buffers hold them (64-bit integers
///         beyond 2^53 rounded as SciPy rounds them; a cval outside the input type's range, such as
///         -1 for unsigned inputs, compares as itself and is stored with C's conversion).
/// Asynchronous on the current stream.
/// @throws cusci::type_error for a complex input ("Complex type not supported"); cusci::index_error
///         for a bad axis; cusci::runtime_error for size < 1 ("incorrect filter size"), an output
///         array of another shape, a complex output, float16, a mode outside the enum;
///         cusci::value_error for an origin out of range.
/// NaN and infinities give SciPy's values. SciPy keeps a running list of candidates (compared in
/// double), so near a NaN its result depends on the values' order and on values that have already
/// left the window (a NaN cval in constant mode included, for every dtype); lines holding NaN are
/// recomputed in SciPy's order, one thread per line (sequential: O(length + size) per such line).
/// Among equal values (-0.0 and +0.0) the last one in the window is returned, as SciPy.
/// SciPy: `scipy.ndimage.minimum_filter1d`.
ndarray minimum_filter1d(const ndarray& input, std::int64_t size, int axis = -1, const filter1d_options& opts = {});

/// One-dimensional maximum filter; as minimum_filter1d with the maximum.
/// SciPy: `scipy.ndimage.maximum_filter1d` (same deviations as minimum_filter1d).
ndarray maximum_filter1d(const ndarray& input, std::int64_t size, int axis = -1, const filter1d_options& opts = {});

/// Multidimensional minimum filter over a neighbourhood given by `size` (a box: one length or one
/// per filtered axis) or by `opts.footprint` (any boolean shape, one dimension per filtered axis).
/// A box, or a footprint that is all true, is separated into minimum_filter1d passes (as SciPy);
/// any other footprint runs on the footprint engine (shared-memory tiles for 1-D to 3-D arrays,
/// a generic N-D kernel otherwise).
/// @param input [any shape] any real dtype except float16, any layout.
/// @param size  window length(s); empty (the default) when `opts.footprint` is given.
/// @param opts  footprint, output (dtype or array), mode, cval, origin, axes.
/// @return [input.shape] of dtype `opts.output` or input.dtype() (`opts.output`'s array when given);
///         exact. Sizes <= 1 skip their axis; with no axis filtered, a copy of the input.
/// Asynchronous on the current stream (a footprint that is not all true with an output overlapping
/// the input goes through a temporary, as SciPy).
/// @throws cusci::runtime_error when neither size nor footprint is given ("no footprint provided"),
///         for a footprint whose ndim differs from the number of filtered axes, a per-axis sequence
///         of the wrong length, a sequence of modes with a footprint that is not all true, an output
///         array of another shape, a complex output or float16 (where an axis is filtered), a mode
///         outside the enum; cusci::value_error for an all-false footprint ("All-zero footprint is not
///         supported."), an origin out of range, an axis out of range or repeated;
///         cusci::type_error for a complex input ("Complex type not supported").
/// NaN: a box (or an all-true footprint) gives minimum_filter1d's values per axis in turn (see
/// there); any other footprint SciPy's: the first footprint element's value (C order, after the
/// origin), replaced by each later one that compares strictly smaller, so a NaN first value is the
/// result and a later NaN is never taken.
/// SciPy: `scipy.ndimage.minimum_filter`. Deviations: `size` is ignored without a warning when a
/// footprint is given; with a footprint that is not all true, 64-bit integers are compared and
/// stored exactly (SciPy rounds them to double: they differ beyond 2^53 only).
ndarray minimum_filter(const ndarray& input, const per_axis<std::int64_t>& size = {},
                       const min_max_filter_options& opts = {});

/// Multidimensional maximum filter; as minimum_filter with the maximum.
/// SciPy: `scipy.ndimage.maximum_filter` (same deviations as minimum_filter).
ndarray maximum_filter(const ndarray& input, const per_axis<std::int64_t>& size = {},
                       const min_max_filter_options& opts = {});

}  // namespace cusci::ndimage
