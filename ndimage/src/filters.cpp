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

#include "correlate_pass.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/gaussian_kernel.hpp"

namespace cusci::ndimage {
namespace {

using detail::ext;

/// Longest kernel half width accepted (a larger one is certainly a mistake, e.g. a huge truncate).
constexpr std::int64_t max_radius = std::int64_t{1} << 28;

std::string fname(const char* fn) { return std::string("cusci::ndimage::") + fn; }

std::string num(double v) {
  std::string s = std::to_string(v);
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.push_back('0');
  }
  return s;
}

int normalize_axis(int axis, int ndim, const char* fn, const char* param) {
  if (axis < -ndim || axis >= ndim)
    throw index_error(fname(fn) + ": " + param + " " + std::to_string(axis) +
                      " is out of bounds for array of dimension " + std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

/// The real (part 0) or imaginary (part 1) component of a complex array as a strided real view.
ndarray component(const ndarray& a, int part) {
  const dtype rt = real_dtype(a.dtype());
  return ndarray(a.memory(), rt, a.shape(), a.strides(),
                 a.offset() + part * static_cast<std::int64_t>(itemsize(rt)), a.device());
}

/// SciPy's _get_output for a dtype argument (or None). With a complex input, correlate1d and
/// gaussian_filter1d promote a real output dtype to complex; gaussian_filter allocates the real
/// output first and then fails ("output must have complex dtype").
dtype output_dtype(const ndarray& in, std::optional<dtype> out, const char* fn, bool promote_complex = true) {
  if (is_complex(in.dtype())) {
    if (!out) return in.dtype();
    if (is_complex(*out)) return *out;
    if (!promote_complex)
      throw type_error(fname(fn) + ": output dtype must be complex for an input of dtype " +
                       std::string(dtype_name(in.dtype())) + ", got " + std::string(dtype_name(*out)));
    return promote_types(*out, dtype::complex64);
  }
  const dtype o = out.value_or(in.dtype());
  if (is_complex(o))
    throw type_error(fname(fn) + ": output dtype " + std::string(dtype_name(o)) +
                     " is not supported for an input of real dtype " + std::string(dtype_name(in.dtype())) +
                     " (expected a real output dtype)");
  return o;
}

struct pass_spec {
  int axis;
  std::vector<double> w;
  ext mode;
  std::int64_t origin;
};

/// Runs the passes in turn from `in` to `out` (real arrays of one shape). A pass never reads what
/// it writes: passes alternate between `out` and one temporary so the last lands in `out`. The
/// intermediate results are stored in the output dtype, as SciPy's chaining through `output`.
void run_chain(const ndarray& in, const ndarray& out, const std::vector<pass_spec>& passes, double cval) {
  const std::size_t n = passes.size();
  ndarray tmp;
  if (n > 1) tmp = cusci::empty(out.shape(), out.dtype());
  ndarray src = in;
  for (std::size_t k = 0; k < n; ++k) {
    const ndarray& dst = ((n - 1 - k) % 2 == 0) ? out : tmp;
    detail::correlate_pass(src, dst, passes[k].axis, passes[k].w, passes[k].mode, cval, passes[k].origin);
    src = dst;
  }
}

/// Allocates the output and runs the passes (axes in the input's numbering).
ndarray run_filter(const ndarray& input, dtype out_dt, std::vector<pass_spec> passes, double cval) {
  const int nd = input.ndim();
  // An F-contiguous input is processed as its (C-contiguous) transpose so that loads stay coalesced;
  // the result is then F-contiguous.
  const bool flip = nd > 1 && input.is_f_contiguous() && !input.is_c_contiguous();
  const ndarray in = flip ? input.T() : input;
  if (flip)
    for (auto& ps : passes) ps.axis = nd - 1 - ps.axis;
  ndarray out = cusci::empty(in.shape(), out_dt);
  if (out.size() > 0 && !passes.empty()) {
    if (is_complex(out_dt)) {
      run_chain(component(in, 0), component(out, 0), passes, cval);
      run_chain(component(in, 1), component(out, 1), passes, 0.0);
    } else {
      run_chain(in, out, passes, cval);
    }
  }
  return flip ? out.T() : out;
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
  return run_filter(input, od, {pass_spec{ax, weights, detail::filter_ext(opts.mode), origin}}, opts.cval);
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

template <class T>
std::vector<T> expand(const per_axis<T>& v, std::size_t n, const char* fn, const char* param) {
  if (v.is_scalar) return std::vector<T>(n, v.values.front());
  if (v.values.size() != n)
    throw value_error(fname(fn) + ": " + param + " must be a single value or have one value per filtered axis (" +
                      std::to_string(n) + "), got " + std::to_string(v.values.size()) + " values");
  return v.values;
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
  return run_filter(input, od, {pass_spec{ax, std::move(w), detail::filter_ext(opts.mode), 0}}, opts.cval);
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
  const std::vector<double> sigmas = expand(sigma, n, fn, "sigma");
  const std::vector<int> orders = expand(opts.order, n, fn, "order");
  const std::vector<mode> modes = expand(opts.mode, n, fn, "mode");
  std::vector<std::optional<std::int64_t>> radii(n);
  if (!opts.radius.empty()) {
    const std::vector<std::int64_t> r = expand(opts.radius, n, fn, "radius");
    for (std::size_t i = 0; i < n; ++i) radii[i] = r[i];
  }
  for (double s : sigmas)
    if (!std::isfinite(s) || s < 0)
      throw value_error(fname(fn) + ": sigma must be >= 0 and finite, got " + num(s));
  std::vector<pass_spec> passes;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(sigmas[i] > 1e-15)) continue;  // SciPy skips these axes
    passes.push_back(pass_spec{axes[i], gaussian_weights(fn, sigmas[i], orders[i], opts.truncate, radii[i]),
                               detail::filter_ext(modes[i]), 0});
  }
  if (passes.empty()) return input.astype(od, true);  // SciPy: output[...] = input
  return run_filter(input, od, std::move(passes), opts.cval);
}

}  // namespace cusci::ndimage
