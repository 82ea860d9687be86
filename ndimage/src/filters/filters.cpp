// Argument handling of the separable filters: SciPy's validation, output dtype and `output=` array
// rules, complex inputs and complex weights as real filters, gaussian kernels, and the chaining of
// passes. The kernels are in correlate1d.cu.

#include "cusci/detail/shape.hpp"
#include "cusci/ndimage/filters.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/gaussian_kernel.hpp"
#include "engine/axis_engine.hpp"
#include "filters/filter_common.hpp"
#include "filters/gaussian_weights.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::ext;
using detail::fname;
using detail::normalize_axis;
using detail::num;

/// Longest kernel half width accepted (a larger one is certainly a mistake, e.g. a huge truncate).
constexpr std::int64_t max_radius = std::int64_t{1} << 28;

/// A correlation pass of the axis engine along `axis` with weights `w`.
detail::axis_pass weights_pass(int axis, std::vector<double> w, ext mode, std::int64_t origin) {
  return {axis, [w = std::move(w), mode, origin](const ndarray& src, const ndarray& dst, int ax, double cval) {
            detail::correlate_pass(src, dst, ax, w, mode, cval, origin);
          }};
}

/// correlate1d's checks after the output (SciPy's order: weights, axis, origin, mode); returns the
/// normalized axis. `origin` is the correlation's origin (convolve1d's already transformed);
/// `user_origin` the one given, for the message.
int check_weights_args(const char* fn, const ndarray& input, std::size_t n_weights, int axis, std::int64_t origin,
                       std::int64_t user_origin, mode m) {
  if (n_weights == 0)
    throw runtime_error(fname(fn) + ": no filter weights given (weights must hold at least one value)");
  const auto K = static_cast<std::int64_t>(n_weights);
  if (K > 2 * max_radius + 1)
    throw value_error(fname(fn) + ": weights must have at most " + std::to_string(2 * max_radius + 1) +
                      " entries, got " + std::to_string(K));
  const int ax = normalize_axis(axis, input.ndim(), fn, "axis");
  if (origin < -(K / 2) || origin > (K - 1) / 2)
    throw value_error(fname(fn) + ": Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= "
                      "(len(weights) - 1) // 2, i.e. lie in [" + std::to_string(-(K / 2)) + ", " +
                      std::to_string((K - 1) / 2) + "] for " + std::to_string(K) + " weights, got " +
                      std::to_string(user_origin));
  detail::check_mode(m, fn);
  return ax;
}

ndarray correlate1d_impl(const char* fn, const ndarray& input, const std::vector<double>& weights, int axis,
                         const correlate1d_options& opts, std::int64_t origin) {
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, opts.output, fn, is_complex(input.dtype()));
  const int ax = check_weights_args(fn, input, weights.size(), axis, origin, opts.origin, opts.mode);
  detail::check_kernel_dtypes(input.dtype(), od, fn);
  ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
  detail::run_axis_filter_into(input, out, {weights_pass(ax, weights, detail::filter_ext(opts.mode), origin)},
                               opts.cval);
  return out;
}

/// SciPy's _complex_via_real_components for correlate1d with complex weights: the correlation with
/// wr + i wi (already conjugated as SciPy's correlate1d does) as real correlations, into a complex
/// output. Real input: re = corr(x, wr), im = corr(x, wi), both with cval. Complex input:
/// re = corr(xr, wr) - corr(xi, wi), im = corr(xr, wi) + corr(xi, wr), where the subtracted / added
/// terms are separate arrays of the input's real dtype (SciPy's output=None) filtered with cval 0.
/// The passes run in SciPy's order, each reading the input as it is at that point: an output that
/// overlaps the input (in place) gives SciPy's result, whose imaginary part is computed from the
/// real part already written.
ndarray correlate1d_complex_impl(const char* fn, const ndarray& input, const std::vector<double>& wr,
                                 const std::vector<double>& wi, int axis, const correlate1d_options& opts,
                                 std::int64_t origin) {
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, opts.output, fn, /*complex_output=*/true);
  const int ax = check_weights_args(fn, input, wr.size(), axis, origin, opts.origin, opts.mode);
  detail::check_real_kernel_dtype(input.dtype(), fn, "input");
  ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
  if (out.size() == 0) return out;
  ndarray re = detail::component(out, 0), im = detail::component(out, 1);
  const ext e = detail::filter_ext(opts.mode);
  auto pass = [&](const std::vector<double>& w) {
    return std::vector<detail::axis_pass>{weights_pass(ax, w, e, origin)};
  };
  if (!is_complex(input.dtype())) {
    detail::run_axis_filter_into(input, re, pass(wr), opts.cval);
    detail::run_axis_filter_into(input, im, pass(wi), opts.cval);
    return out;
  }
  const ndarray xr = detail::component(input, 0), xi = detail::component(input, 1);
  const dtype part = real_dtype(input.dtype());
  // SciPy's temporaries: float32 for a complex64 input, each value summed in double and rounded
  // once. Into a float64 output that rounding shows, so the sums run in double (a float64 pass)
  // and are rounded to float32; into a float32 output the float32 pass is as accurate as the result.
  const bool round_temp = part == dtype::float32 && real_dtype(od) == dtype::float64;
  auto temp = [&](const std::vector<double>& w) {
    return round_temp ? detail::run_axis_filter(xi, dtype::float64, pass(w), 0.0).astype(dtype::float32)
                      : detail::run_axis_filter(xi, part, pass(w), 0.0);
  };
  detail::run_axis_filter_into(xr, re, pass(wr), opts.cval);
  cusci::subtract(re, temp(wi), &re);
  detail::run_axis_filter_into(xr, im, pass(wi), opts.cval);
  cusci::add(im, temp(wr), &im);
  return out;
}

std::vector<double> real_parts(const std::vector<std::complex<double>>& w) {
  std::vector<double> r(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) r[i] = w[i].real();
  return r;
}

std::vector<double> imag_parts(const std::vector<std::complex<double>>& w, double sign) {
  std::vector<double> r(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) r[i] = sign * w[i].imag();
  return r;
}

/// convolve1d's correlation origin: the weights reversed, the origin negated and decreased by one
/// for an even number of weights (SciPy).
std::int64_t convolve_origin(std::size_t n_weights, std::int64_t origin) {
  return n_weights % 2 == 0 ? -origin - 1 : -origin;
}

}  // namespace

std::vector<double> detail::gaussian_weights(const char* fn, double sigma, int order, double truncate,
                                             std::optional<std::int64_t> radius) {
  const double r = truncate * sigma + 0.5;
  if (!std::isfinite(r))
    throw value_error(fname(fn) + ": cannot convert truncate * sigma + 0.5 to an integer radius (got truncate " +
                      num(truncate) + " and sigma " + num(sigma) + ")");
  std::int64_t lw;
  if (radius) {
    lw = *radius;
  } else {
    if (std::fabs(r) > static_cast<double>(max_radius) + 1.0)
      throw value_error(fname(fn) + ": radius int(truncate * sigma + 0.5) must be at most " +
                        std::to_string(max_radius) + ", got truncate " + num(truncate) + " and sigma " + num(sigma));
    lw = static_cast<std::int64_t>(r);  // Python's int(): truncation toward zero
  }
  if (lw < 0)
    throw value_error(fname(fn) + ": Radius must be a nonnegative integer, got " + std::to_string(lw) +
                      (radius ? std::string() : " (int(truncate * sigma + 0.5) with truncate " + num(truncate) +
                                                    " and sigma " + num(sigma) + ")"));
  if (lw > max_radius)
    throw value_error(fname(fn) + ": radius must be at most " + std::to_string(max_radius) + ", got " +
                      std::to_string(lw));
  if (order < 0) throw value_error(fname(fn) + ": order must be non-negative, got " + std::to_string(order));
  // SciPy's derivative builds the (order + 1, order + 1) int64 matrix np.diag(arange(1, order + 1), 1):
  // an absurd order fails there (MemoryError, or ValueError "array is too big"), and here at once,
  // before the O(order^2) recurrence.
  if (order > 0) {
    const std::int64_t o1 = static_cast<std::int64_t>(order) + 1;
    (void)cusci::detail::checked_host_count(cusci::detail::saturating_mul(o1, o1), sizeof(std::int64_t), fname(fn),
                                            "order");
  }
  const double s = std::fabs(sigma);
  if (s * s == 0)
    throw value_error(fname(fn) + ": sigma**2 must be > 0 (SciPy: ZeroDivisionError), got sigma " + num(sigma));
  if (!std::isfinite(s * s))
    throw value_error(fname(fn) + ": sigma**2 must be finite, got sigma " + num(sigma));
  std::vector<double> w = detail::gaussian_kernel1d(s, order, lw);
  std::reverse(w.begin(), w.end());
  return w;
}

ndarray correlate1d(const ndarray& input, const std::vector<double>& weights, int axis,
                    const correlate1d_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::correlate1d");
  return correlate1d_impl("correlate1d", input, weights, axis, opts, opts.origin);
}

ndarray correlate1d(const ndarray& input, const std::vector<std::complex<double>>& weights, int axis,
                    const correlate1d_options& opts) {
  // SciPy's correlate1d correlates with the conjugated weights.
  return correlate1d_complex_impl("correlate1d", input, real_parts(weights), imag_parts(weights, -1.0), axis, opts,
                                  opts.origin);
}

ndarray convolve1d(const ndarray& input, const std::vector<double>& weights, int axis,
                   const correlate1d_options& opts) {
  std::vector<double> w(weights.rbegin(), weights.rend());
  return correlate1d_impl("convolve1d", input, w, axis, opts, convolve_origin(w.size(), opts.origin));
}

ndarray convolve1d(const ndarray& input, const std::vector<std::complex<double>>& weights, int axis,
                   const correlate1d_options& opts) {
  // SciPy conjugates the reversed weights before correlate1d conjugates them again: the
  // correlation uses the reversed weights as given.
  std::vector<std::complex<double>> w(weights.rbegin(), weights.rend());
  return correlate1d_complex_impl("convolve1d", input, real_parts(w), imag_parts(w, 1.0), axis, opts,
                                  convolve_origin(w.size(), opts.origin));
}

ndarray gaussian_filter1d(const ndarray& input, double sigma, int axis, const gaussian_filter1d_options& opts) {
  const char* fn = "gaussian_filter1d";
  std::vector<double> w = detail::gaussian_weights(fn, sigma, opts.order, opts.truncate, opts.radius);
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, opts.output, fn, is_complex(input.dtype()));
  const int ax = check_weights_args(fn, input, w.size(), axis, 0, 0, opts.mode);
  detail::check_kernel_dtypes(input.dtype(), od, fn);
  ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
  detail::run_axis_filter_into(input, out, {weights_pass(ax, std::move(w), detail::filter_ext(opts.mode), 0)},
                               opts.cval);
  return out;
}

ndarray gaussian_filter(const ndarray& input, const per_axis<double>& sigma, const gaussian_filter_options& opts) {
  const char* fn = "gaussian_filter";
  // SciPy's order: the output (no complex promotion here), the axes, the sequences, then per
  // filtered axis gaussian_filter1d's checks.
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, opts.output, fn, /*complex_output=*/false);
  const std::vector<int> axes = detail::check_axes(opts.axes, input.ndim(), fn);
  const std::size_t n = axes.size();
  const std::vector<int> orders = detail::expand(opts.order, n, fn, "order");
  const std::vector<double> sigmas = detail::expand(sigma, n, fn, "sigma");
  const std::vector<mode> modes = detail::expand(opts.mode, n, fn, "mode");
  std::vector<std::optional<std::int64_t>> radii(n);
  if (!opts.radius.empty()) {
    const std::vector<std::int64_t> r = detail::expand(opts.radius, n, fn, "radius");
    for (std::size_t i = 0; i < n; ++i) radii[i] = r[i];
  }
  std::vector<detail::axis_pass> passes;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(sigmas[i] > 1e-15)) continue;  // SciPy skips these axes (negative and NaN sigmas too)
    std::vector<double> w = detail::gaussian_weights(fn, sigmas[i], orders[i], opts.truncate, radii[i]);
    detail::check_mode(modes[i], fn);
    passes.push_back(weights_pass(axes[i], std::move(w), detail::filter_ext(modes[i]), 0));
  }
  if (!passes.empty()) detail::check_kernel_dtypes(input.dtype(), od, fn);
  ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
  if (passes.empty()) detail::copy_into(input, out);  // SciPy: output[...] = input[...]
  else detail::run_axis_filter_into(input, out, std::move(passes), opts.cval);
  return out;
}

}  // namespace cusci::ndimage
