#pragma once
/// @file filters.hpp
/// Separable linear filters of cusci::ndimage with scipy.ndimage's semantics: correlate1d, convolve1d,
/// gaussian_filter1d, gaussian_filter.
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

}  // namespace cusci::ndimage
