// savgol_coeffs (host least squares in double) and savgol_filter (ndimage's convolve1d plus, in mode
// "interp", the edge fits evaluated on the GPU: savgol_edges.cu), with the shared QR helpers.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/signal/smoothing.hpp"
#include "smoothing/smoothing_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {
namespace detail {
namespace {

double default_pos(std::int64_t wl) {
  // Python's divmod: floor division.
  std::int64_t half = wl / 2, rem = wl % 2;
  if (rem < 0) {
    rem += 2;
    half -= 1;
  }
  return rem == 0 ? static_cast<double>(half) - 0.5 : static_cast<double>(half);
}

/// savgol_coeffs' checks in SciPy's order; returns the coefficients.
std::vector<double> checked_coeffs(const std::string& F, std::int64_t wl, std::int64_t polyorder, int deriv,
                                   double delta, std::optional<double> pos_in, bool conv) {
  CUSCI_EXPECTS(polyorder < wl, value_error,
                F + ": polyorder must be less than window_length., got polyorder=" + std::to_string(polyorder) +
                    ", window_length=" + std::to_string(wl));
  const double pos = pos_in ? *pos_in : default_pos(wl);
  CUSCI_EXPECTS(pos >= 0 && pos < static_cast<double>(wl), value_error,
                F + ": pos must be nonnegative and less than window_length., got pos=" + std::to_string(pos) +
                    ", window_length=" + std::to_string(wl));
  if (deriv > polyorder) return std::vector<double>(static_cast<std::size_t>(wl), 0.0);
  CUSCI_EXPECTS(deriv >= 0, value_error,
                F + ": deriv must be non-negative (factorial() not defined for negative values), got " +
                    std::to_string(deriv));
  CUSCI_EXPECTS(!(deriv > 0 && delta == 0.0), value_error,
                F + ": delta must be nonzero for deriv > 0 (float division by zero)");
  return savgol_design(wl, polyorder, deriv, delta, pos, conv);
}

}  // namespace
}  // namespace detail

savgol_use parse_savgol_use(std::string_view name) {
  if (name == "conv") return savgol_use::conv;
  if (name == "dot") return savgol_use::dot;
  throw value_error("cusci::signal::savgol_coeffs: `use` must be 'conv' or 'dot', got '" + std::string(name) + "'");
}

savgol_mode parse_savgol_mode(std::string_view name) {
  if (name == "mirror") return savgol_mode::mirror;
  if (name == "constant") return savgol_mode::constant;
  if (name == "nearest") return savgol_mode::nearest;
  if (name == "wrap") return savgol_mode::wrap;
  if (name == "interp") return savgol_mode::interp;
  throw value_error("cusci::signal::savgol_filter: mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'., got '" +
                    std::string(name) + "'");
}

host_array savgol_coeffs(std::int64_t window_length, std::int64_t polyorder, const savgol_coeffs_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::savgol_coeffs");
  const std::string F = "cusci::signal::savgol_coeffs";
  CUSCI_EXPECTS(opts.use == savgol_use::conv || opts.use == savgol_use::dot, value_error,
                F + ": `use` must be 'conv' or 'dot'");
  auto c = detail::checked_coeffs(F, window_length, polyorder, opts.deriv, opts.delta, opts.pos,
                                  opts.use == savgol_use::conv);
  return host_array::from(c);
}

ndarray savgol_filter(const ndarray& x, std::int64_t window_length, std::int64_t polyorder,
                      const savgol_filter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::savgol_filter");
  const std::string F = "cusci::signal::savgol_filter";
  const savgol_mode md = opts.mode;
  CUSCI_EXPECTS(md == savgol_mode::mirror || md == savgol_mode::constant || md == savgol_mode::nearest ||
                    md == savgol_mode::wrap || md == savgol_mode::interp,
                value_error, F + ": mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.");
  CUSCI_EXPECTS(!is_complex(x.dtype()), not_implemented_error,
                F + ": complex input is not supported by cusci (SciPy discards the imaginary part), got " +
                    std::string(dtype_name(x.dtype())));
  const std::vector<double> coeffs =
      detail::checked_coeffs(F, window_length, polyorder, opts.deriv, opts.delta, std::nullopt, true);
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, F + ": x must have at least one dimension (tuple index out of range)");
  const int axis = cusci::detail::normalize_axis(opts.axis, x.ndim(), F);
  const std::int64_t n = x.shape()[static_cast<std::size_t>(axis)];
  if (md == savgol_mode::interp) {
    CUSCI_EXPECTS(window_length <= n, value_error,
                  F + ": If mode is 'interp', window_length must be less than or equal to the size of x., got "
                      "window_length=" + std::to_string(window_length) + ", size " + std::to_string(n));
    CUSCI_EXPECTS(polyorder >= 0, value_error,
                  F + ": expected deg >= 0 (polyorder), got " + std::to_string(polyorder));
  }
  const dtype dt = (x.dtype() == dtype::float32 || x.dtype() == dtype::float64) ? x.dtype() : dtype::float64;
  ndarray xf = x.dtype() == dt ? x : x.astype(dt);
  ndimage::correlate1d_options co;
  switch (md) {
    case savgol_mode::mirror: co.mode = ndimage::mode::mirror; break;
    case savgol_mode::constant: co.mode = ndimage::mode::constant; break;
    case savgol_mode::nearest: co.mode = ndimage::mode::nearest; break;
    case savgol_mode::wrap: co.mode = ndimage::mode::wrap; break;
    case savgol_mode::interp: co.mode = ndimage::mode::constant; break;
  }
  co.cval = md == savgol_mode::interp ? 0.0 : opts.cval;
  if (md != savgol_mode::interp) return ndimage::convolve1d(xf, coeffs, axis, co);

  // interp: the edge kernel reads x as a C-ordered [outer, n, inner] block.
  if (!xf.is_c_contiguous()) xf = ascontiguousarray(xf);
  ndarray y = ndimage::convolve1d(xf, coeffs, axis, co);
  const auto lv = cusci::detail::line_view_of(xf.shape(), axis);
  const std::int64_t h = window_length / 2;
  if (lv.lines() == 0 || h == 0) return y;
  std::vector<double> edge(static_cast<std::size_t>(2 * h * window_length));
  for (std::int64_t e = 0; e < h; ++e) {
    auto l = detail::savgol_design(window_length, polyorder, opts.deriv, opts.delta, static_cast<double>(e), false);
    auto r = detail::savgol_design(window_length, polyorder, opts.deriv, opts.delta,
                                   static_cast<double>(window_length - h + e), false);
    std::copy(l.begin(), l.end(), edge.begin() + e * window_length);
    std::copy(r.begin(), r.end(), edge.begin() + (h + e) * window_length);
  }
  ndarray coef = asarray(edge);
  if (!y.is_c_contiguous()) y = ascontiguousarray(y);
  detail::savgol_edges(xf, y, lv.outer, n, lv.inner, window_length, h, coef);
  return y;
}

}  // namespace cusci::signal
