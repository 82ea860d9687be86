// Argument handling of the separable filters: SciPy's validation, output dtype rules, complex
// inputs as two real filters, gaussian kernels, and the chaining of passes. The kernels are in
// correlate1d.cu.

#include "cusci/ndimage/filters.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "engine/axis_engine.hpp"
#include "filters/filter_common.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/gaussian_kernel.hpp"

namespace cusci::ndimage {
namespace {

using detail::ext;
using detail::fname;
using detail::normalize_axis;
using detail::num;
using detail::output_dtype;

/// Longest kernel half width accepted (a larger one is certainly a mistake, e.g. a huge truncate).
constexpr std::int64_t max_radius = std::int64_t{1} << 28;

/// A correlation pass of the axis engine along `axis` with weights `w`.
detail::axis_pass weights_pass(int axis, std::vector<double> w, ext mode, std::int64_t origin) {
  return {axis, [w = std::move(w), mode, origin](const ndarray& src, const ndarray& dst, int ax, double cval) {
            detail::correlate_pass(src, dst, ax, w, mode, cval, origin);
          }};
}

ndarray correlate1d_impl(const char* fn, const ndarray& input, const std::vector<double>& weights, int axis,
                         const correlate1d_options& opts, std::int64_t origin) {
  const dtype od = output_dtype(input, opts.output, fn);
  if (weights.empty())
    throw value_error(fname(fn) + ": weights must be a non-empty 1-D sequence, got 0 weights");
  const auto K = static_cast<std::int64_t>(weights.size());
  if (K > 2 * max_radius + 1)
    throw value_error(fname(fn) + ": weights must have at most " + std::to_string(2 * max_radius + 1) +
                      " entries, got " + std::to_string(K));
  const int ax = normalize_axis(axis, input.ndim(), fn, "axis");
  if (origin < -(K / 2) || origin > (K - 1) / 2)
    throw value_error(fname(fn) + ": origin must satisfy -(len(weights) // 2) <= origin <= (len(weights) - 1) // 2, "
                      "i.e. lie in [" + std::to_string(-(K / 2)) + ", " + std::to_string((K - 1) / 2) + "] for " +
                      std::to_string(K) + " weights, got " + std::to_string(opts.origin));
  return detail::run_axis_filter(input, od, {weights_pass(ax, weights, detail::filter_ext(opts.mode), origin)}, opts.cval);
}

/// gaussian_filter1d's weights for correlation (the kernel reversed), after SciPy's checks.
std::vector<double> gaussian_weights(const char* fn, double sigma, int order, double truncate,
                                     std::optional<std::int64_t> radius) {
  if (!std::isfinite(sigma) || sigma < 0)
    throw value_error(fname(fn) + ": sigma must be >= 0 and finite, got " + num(sigma));
  if (sigma == 0 || sigma * sigma == 0)
    throw value_error(fname(fn) + ": sigma must be > 0 (SciPy divides by sigma**2), got " + num(sigma));
  std::int64_t lw;
  if (radius) {
    lw = *radius;
  } else {
    const double r = truncate * sigma + 0.5;
    if (!std::isfinite(r) || std::fabs(r) > static_cast<double>(max_radius))
      throw value_error(fname(fn) + ": radius int(truncate * sigma + 0.5) must be a nonnegative integer of at most " +
                        std::to_string(max_radius) + ", got truncate " + num(truncate) + " and sigma " + num(sigma));
    lw = static_cast<std::int64_t>(r);  // Python's int(): truncation toward zero
  }
  if (lw < 0)
    throw value_error(fname(fn) + ": radius must be a nonnegative integer, got " + std::to_string(lw));
  if (lw > max_radius)
    throw value_error(fname(fn) + ": radius must be at most " + std::to_string(max_radius) + ", got " +
                      std::to_string(lw));
  if (order < 0) throw value_error(fname(fn) + ": order must be >= 0, got " + std::to_string(order));
  std::vector<double> w = detail::gaussian_kernel1d(sigma, order, lw);
  std::reverse(w.begin(), w.end());
  return w;
}

}  // namespace

ndarray correlate1d(const ndarray& input, const std::vector<double>& weights, int axis,
                    const correlate1d_options& opts) {
  return correlate1d_impl("correlate1d", input, weights, axis, opts, opts.origin);
}

ndarray convolve1d(const ndarray& input, const std::vector<double>& weights, int axis,
                   const correlate1d_options& opts) {
  std::vector<double> w(weights.rbegin(), weights.rend());
  std::int64_t origin = -opts.origin;
  if (w.size() % 2 == 0) origin -= 1;
  return correlate1d_impl("convolve1d", input, w, axis, opts, origin);
}

ndarray gaussian_filter1d(const ndarray& input, double sigma, int axis, const gaussian_filter1d_options& opts) {
  const char* fn = "gaussian_filter1d";
  std::vector<double> w = gaussian_weights(fn, sigma, opts.order, opts.truncate, opts.radius);
  const dtype od = output_dtype(input, opts.output, fn);
  const int ax = normalize_axis(axis, input.ndim(), fn, "axis");
  return detail::run_axis_filter(input, od, {weights_pass(ax, std::move(w), detail::filter_ext(opts.mode), 0)}, opts.cval);
}

ndarray gaussian_filter(const ndarray& input, const per_axis<double>& sigma, const gaussian_filter_options& opts) {
  const char* fn = "gaussian_filter";
  const int nd = input.ndim();
  const dtype od = output_dtype(input, opts.output, fn, /*promote_complex=*/false);
  std::vector<int> axes;
  if (!opts.axes) {
    for (int d = 0; d < nd; ++d) axes.push_back(d);
  } else {
    for (int a : *opts.axes) axes.push_back(normalize_axis(a, nd, fn, "axes entry"));
    std::vector<int> sorted = axes;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw value_error(fname(fn) + ": axes must be unique");
  }
  const std::size_t n = axes.size();
  if (sigma.empty()) throw value_error(fname(fn) + ": sigma must be given (one value or one per filtered axis)");
  const std::vector<double> sigmas = detail::expand(sigma, n, fn, "sigma");
  const std::vector<int> orders = detail::expand(opts.order, n, fn, "order");
  const std::vector<mode> modes = detail::expand(opts.mode, n, fn, "mode");
  std::vector<std::optional<std::int64_t>> radii(n);
  if (!opts.radius.empty()) {
    const std::vector<std::int64_t> r = detail::expand(opts.radius, n, fn, "radius");
    for (std::size_t i = 0; i < n; ++i) radii[i] = r[i];
  }
  for (double s : sigmas)
    if (!std::isfinite(s) || s < 0)
      throw value_error(fname(fn) + ": sigma must be >= 0 and finite, got " + num(s));
  std::vector<detail::axis_pass> passes;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(sigmas[i] > 1e-15)) continue;  // SciPy skips these axes
    passes.push_back(weights_pass(axes[i], gaussian_weights(fn, sigmas[i], orders[i], opts.truncate, radii[i]),
                                  detail::filter_ext(modes[i]), 0));
  }
  if (passes.empty()) return input.astype(od, true);  // SciPy: output[...] = input
  return detail::run_axis_filter(input, od, std::move(passes), opts.cval);
}

}  // namespace cusci::ndimage
