#pragma once
/// @file filters.hpp
/// Filters of cusci::ndimage with scipy.ndimage's semantics: the separable linear filters correlate1d,
/// convolve1d, gaussian_filter1d, gaussian_filter, uniform_filter1d, uniform_filter, and the minimum
/// and maximum filters minimum_filter1d, maximum_filter1d, minimum_filter, maximum_filter.
///
/// Common rules (as SciPy 1.18):
/// - Input: an ndarray of any dtype except complex weights (see each function) and any layout (C, F,
///   strided or negative-stride views are read through their strides, never copied).
/// - Output dtype: the input dtype unless `output` names another. Passes compute in double and store
///   into the output dtype with a C cast: integers truncate toward zero (values out of range wrap as
///   on x86-64), bool stores the truncated byte. Exceptions, the fast paths: float32 -> float32
///   computes in float32 and float64 -> float64 in float64 with fused multiply-adds in tap order
///   (results within a few ulps of SciPy's, which pairs symmetric taps).
/// - Output layout: C-contiguous; for an input that is F-contiguous (and not C-contiguous) the output
///   is F-contiguous (SciPy returns C order; the values are the same).
/// - Complex input is filtered as its real and imaginary parts (SciPy's
///   `_complex_via_real_components`); `cval` applies to the real part and 0 to the imaginary part.
/// - Every function enqueues its kernels on the current stream and returns without synchronizing.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/mode.hpp"

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
  /// Output dtype; default: the input dtype (for a complex input, a real dtype is promoted to complex
  /// as SciPy does for a dtype argument).
  std::optional<cusci::dtype> output{};
  ndimage::mode mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant.
  double cval = 0.0;
  /// Shift of the filter: -(len(weights) / 2) <= origin <= (len(weights) - 1) / 2.
  std::int64_t origin = 0;
};

/// Keyword arguments of gaussian_filter1d.
struct gaussian_filter1d_options {
  /// Derivative order (0 = smoothing, 1 = first derivative, ...); any order >= 0.
  int order = 0;
  std::optional<cusci::dtype> output{};
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
  std::optional<cusci::dtype> output{};
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
/// @param input   [any shape, ndim >= 1] any real or complex dtype, any layout.
/// @param weights [K >= 1] real filter weights (host values).
/// @param axis    axis to filter, in [-ndim, ndim).
/// @param opts    output dtype, mode, cval, origin.
/// @return [input.shape] of dtype `opts.output` or input.dtype().
/// Asynchronous on the current stream (weights longer than 128 taps are copied to the device first).
/// @throws cusci::value_error for empty weights or an origin out of range; cusci::index_error for a
///         bad axis (also for a 0-d input); cusci::type_error for a complex output with a real input.
/// SciPy: `scipy.ndimage.correlate1d`. Deviations: weights must be real (SciPy also accepts complex
/// weights); the output is a new array (no in-place `output=` array); empty weights raise
/// value_error where SciPy raises RuntimeError.
ndarray correlate1d(const ndarray& input, const std::vector<double>& weights, int axis = -1,
                    const correlate1d_options& opts = {});

/// One-dimensional convolution along `axis`: correlate1d with the weights reversed and the origin
/// negated (and decreased by one for an even number of weights), as SciPy.
/// Parameters, result, stream behaviour and exceptions as correlate1d.
/// SciPy: `scipy.ndimage.convolve1d` (same deviations as correlate1d).
ndarray convolve1d(const ndarray& input, const std::vector<double>& weights, int axis = -1,
                   const correlate1d_options& opts = {});

/// One-dimensional Gaussian filter (or derivative of Gaussian of order `opts.order`) along `axis`.
/// @param input [any shape, ndim >= 1] any real or complex dtype, any layout.
/// @param sigma standard deviation in samples, > 0.
/// @param axis  in [-ndim, ndim).
/// @param opts  order, output dtype, mode, cval, truncate, radius.
/// @return [input.shape] of dtype `opts.output` or input.dtype().
/// Asynchronous on the current stream.
/// @throws cusci::value_error for sigma <= 0 or not finite, order < 0, radius < 0 (explicit or from
///         truncate); cusci::index_error for a bad axis; cusci::type_error for a complex output with a
///         real input.
/// SciPy: `scipy.ndimage.gaussian_filter1d`. Deviations: sigma < 0 raises (SciPy uses |sigma| when the
/// radius stays >= 0); sigma == 0 raises value_error (SciPy: ZeroDivisionError).
ndarray gaussian_filter1d(const ndarray& input, double sigma, int axis = -1,
                          const gaussian_filter1d_options& opts = {});

/// Multidimensional Gaussian filter: gaussian_filter1d along each axis of `opts.axes` in turn, each
/// pass reading the previous pass's result stored in the output dtype (SciPy's chaining, which
/// matters for integer outputs). Axes whose sigma is <= 1e-15 are skipped; when all are skipped the
/// result is a copy of the input cast to the output dtype.
/// @param input [any shape] any real or complex dtype, any layout; a 0-d input is copied.
/// @param sigma standard deviation(s) in samples, one or one per filtered axis, each >= 0.
/// @param opts  order, output dtype, mode, cval, truncate, radius, axes.
/// @return [input.shape] of dtype `opts.output` or input.dtype().
/// Asynchronous on the current stream (uses one temporary array of the output's size for 2 or more
/// passes).
/// @throws cusci::value_error for a negative or non-finite sigma, order < 0, radius < 0, a per-axis
///         sequence whose length differs from the number of filtered axes, or repeated axes;
///         cusci::index_error for an axis out of range; cusci::type_error for a complex output with a
///         real input or a real output with a complex input (SciPy: RuntimeError).
/// SciPy: `scipy.ndimage.gaussian_filter`. Deviations: sigma < 0 raises (SciPy skips the axis);
/// the output is a new array.
ndarray gaussian_filter(const ndarray& input, const per_axis<double>& sigma,
                        const gaussian_filter_options& opts = {});

/// Keyword arguments of uniform_filter1d, minimum_filter1d and maximum_filter1d (SciPy's names and
/// defaults).
struct filter1d_options {
  /// Output dtype; default: the input dtype (uniform_filter1d: a real dtype is promoted to complex
  /// for a complex input, as SciPy does for a dtype argument).
  std::optional<cusci::dtype> output{};
  ndimage::mode mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant.
  double cval = 0.0;
  /// Shift of the window: -(size / 2) <= origin <= (size - 1) / 2.
  std::int64_t origin = 0;
};

/// Keyword arguments of uniform_filter. `mode` and `origin` take one value or one per filtered axis.
struct uniform_filter_options {
  std::optional<cusci::dtype> output{};
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
  std::optional<cusci::dtype> output{};
  per_axis<ndimage::mode> mode = mode::reflect;
  double cval = 0.0;
  per_axis<std::int64_t> origin = 0;
  std::optional<std::vector<int>> axes{};
};

/// One-dimensional uniform (moving average) filter of `size` values along `axis`:
/// out[..., i, ...] = mean of ext(input)[..., i - size/2 - origin + k, ...] for k in [0, size).
/// @param input [any shape, ndim >= 1] any real or complex dtype except float16, any layout.
/// @param size  window length, >= 1.
/// @param axis  in [-ndim, ndim).
/// @param opts  output dtype, mode, cval, origin.
/// @return [input.shape] of dtype `opts.output` or input.dtype(). Computed as SciPy: a running sum in
///         double in SciPy's order (so integer outputs truncate exactly as SciPy's), cast to the output
///         dtype; float32 -> float32 and float64 -> float64 with size <= 64 / 32 on a contiguous line
///         or a non-last axis take the engine's fast path (a correlation with weights 1 / size in the
///         array's precision: within a few ulps of SciPy's values).
/// Asynchronous on the current stream.
/// @throws cusci::index_error for a bad axis (also for a 0-d input); cusci::value_error for size < 1
///         (SciPy: RuntimeError) or an origin out of range; cusci::type_error for a complex output
///         with a real input or a float16 array (SciPy: RuntimeError).
/// SciPy: `scipy.ndimage.uniform_filter1d`. Deviations: the output is a new array.
ndarray uniform_filter1d(const ndarray& input, std::int64_t size, int axis = -1, const filter1d_options& opts = {});

/// Multidimensional uniform filter: uniform_filter1d along each axis of `opts.axes` whose size is
/// > 1, in turn, each pass reading the previous pass's result stored in the output dtype (SciPy's
/// chaining). When no axis is filtered the result is a copy of the input cast to the output dtype.
/// @param input [any shape] any real or complex dtype except float16, any layout.
/// @param size  window length(s), one or one per filtered axis (values <= 1 skip the axis).
/// @param opts  output dtype, mode, cval, origin, axes.
/// @return [input.shape] of dtype `opts.output` or input.dtype().
/// Asynchronous on the current stream (one temporary of the output's size for 2 or more passes).
/// @throws cusci::value_error for a per-axis sequence whose length differs from the number of
///         filtered axes (SciPy: RuntimeError), an axis out of range or repeated, or an origin out of
///         range; cusci::type_error as uniform_filter1d.
/// SciPy: `scipy.ndimage.uniform_filter`. Deviations: the output is a new array.
ndarray uniform_filter(const ndarray& input, const per_axis<std::int64_t>& size = 3,
                       const uniform_filter_options& opts = {});

/// One-dimensional minimum filter of `size` values along `axis`:
/// out[..., i, ...] = min of ext(input)[..., i - size/2 - origin + k, ...] for k in [0, size).
/// @param input [any shape, ndim >= 1] any real dtype except float16 (bool included), any layout.
/// @param size  window length, >= 1.
/// @param axis  in [-ndim, ndim).
/// @param opts  output dtype, mode, cval, origin.
/// @return [input.shape] of dtype `opts.output` or input.dtype(); exact (64-bit integers compared
///         as integers; SciPy compares them as doubles, which differs only beyond 2^53).
/// Asynchronous on the current stream.
/// @throws cusci::type_error for a complex input ("Complex type not supported"), a complex output or
///         float16; cusci::index_error for a bad axis; cusci::value_error for size < 1 or an origin
///         out of range.
/// SciPy: `scipy.ndimage.minimum_filter1d`. Deviations: the output is a new array; windows holding
/// NaN may give other values than SciPy's (the comparison order differs).
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
/// @param opts  footprint, output dtype, mode, cval, origin, axes.
/// @return [input.shape] of dtype `opts.output` or input.dtype(); exact.
/// Asynchronous on the current stream.
/// @throws cusci::value_error when neither size nor footprint is given (SciPy: RuntimeError "no
///         footprint provided"), for an all-false footprint ("All-zero footprint is not supported."),
///         a footprint whose ndim differs from the number of filtered axes, a per-axis sequence of the
///         wrong length, several modes with a footprint that is not all true (SciPy: RuntimeError), a
///         size < 1, an origin out of range, an axis out of range or repeated; cusci::type_error for a
///         complex input or output, or float16.
/// SciPy: `scipy.ndimage.minimum_filter`. Deviations: the output is a new array; `size` is ignored
/// without a warning when a footprint is given.
ndarray minimum_filter(const ndarray& input, const per_axis<std::int64_t>& size = {},
                       const min_max_filter_options& opts = {});

/// Multidimensional maximum filter; as minimum_filter with the maximum.
/// SciPy: `scipy.ndimage.maximum_filter` (same deviations as minimum_filter).
ndarray maximum_filter(const ndarray& input, const per_axis<std::int64_t>& size = {},
                       const min_max_filter_options& opts = {});

}  // namespace cusci::ndimage
