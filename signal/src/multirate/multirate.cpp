// Host side of the multirate family: upfirdn, resample_poly and resample (SciPy 1.18.1's
// scipy/signal/_upfirdn.py and _signaltools.py, step by step: argument checks in SciPy's order, the
// filter design and padding of resample_poly, the FFT-method spectrum handling of resample), then the
// kernels of upfirdn_kernels.cu / resample_kernels.cu.

#include <algorithm>
#include <cctype>
#include <complex>
#include <numeric>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/reduction.hpp"
#include "cusci/signal/multirate.hpp"
#include "cusci/sorting.hpp"
#include "filtering/filter_common.hpp"
#include "multirate/multirate_detail.hpp"
#include "windows/windows.hpp"

namespace cusci::signal {

namespace {

using cplx = std::complex<double>;
using i64 = std::int64_t;

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

i64 floor_div(i64 a, i64 b) {  // Python's //, b > 0
  i64 q = a / b;
  if ((a % b != 0) && (a < 0)) --q;
  return q;
}
i64 py_mod(i64 a, i64 b) { return a - floor_div(a, b) * b; }  // Python's %, b > 0

// scipy.signal._upfirdn._output_len (Python integer semantics).
i64 output_len(i64 len_h, i64 in_len, i64 up, i64 down) { return floor_div((in_len - 1) * up + len_h - 1, down) + 1; }

const char* mode_name(extension_mode m) {
  switch (m) {
    case extension_mode::constant: return "constant";
    case extension_mode::symmetric: return "symmetric";
    case extension_mode::reflect: return "reflect";
    case extension_mode::edge: return "edge";
    case extension_mode::wrap: return "wrap";
    case extension_mode::smooth: return "smooth";
    case extension_mode::antisymmetric: return "antisymmetric";
    case extension_mode::antireflect: return "antireflect";
    case extension_mode::line: return "line";
  }
  return "?";
}

const char* padtype_name(resample_padtype p) {
  switch (p) {
    case resample_padtype::mean: return "mean";
    case resample_padtype::median: return "median";
    case resample_padtype::maximum: return "maximum";
    case resample_padtype::minimum: return "minimum";
    default: return mode_name(static_cast<extension_mode>(static_cast<int>(p)));
  }
}

/// The extension needs samples SciPy's loop would read out of bounds (or divide by zero with).
void check_extension(extension_mode mode, i64 L, const std::string& F) {
  if (mode == extension_mode::constant) return;
  CUSCI_EXPECTS(L >= 1, value_error,
                F + ": mode '" + mode_name(mode) + "' needs a non-empty axis (SciPy fails on an empty one)");
  const bool two = mode == extension_mode::smooth || mode == extension_mode::reflect || mode == extension_mode::antireflect;
  CUSCI_EXPECTS(!(two && L < 2), value_error,
                F + ": mode '" + mode_name(mode) + "' needs at least 2 samples along axis (SciPy reads out of bounds or divides by zero)");
}

/// Taps rounded to `dt` (as SciPy casts h to the output type), as complex<double>.
std::vector<cplx> taps_as(const host_array& h, dtype dt) {
  return h.astype(dt).astype(dtype::complex128).to_vector<cplx>();
}

/// The polyphase run on x with axis moved last in dtype dt; outputs [o0, o0 + n_keep).
ndarray polyphase(const std::vector<cplx>& h, const ndarray& x, i64 up, i64 down, int axis, extension_mode mode,
                  cplx cval, i64 o0, i64 n_keep, dtype dt) {
  const ndarray xc = detail::canonical(x, axis, dt);
  shape_t ys = xc.shape();
  ys.back() = n_keep;
  ndarray yc = empty(ys, dt);
  if (yc.size() > 0) detail::upfirdn_lines(xc, yc, h, up, down, mode, cval, o0);
  return detail::move_last_axis_to(yc, axis);
}

host_array window_taps_host(const filter_window& w) {
  return w.host_taps ? *w.host_taps : to_host(*w.device_taps);
}

}  // namespace

extension_mode parse_extension_mode(std::string_view s) {
  const std::string l = lower(s);
  for (int i = 0; i <= static_cast<int>(extension_mode::line); ++i)
    if (l == mode_name(static_cast<extension_mode>(i))) return static_cast<extension_mode>(i);
  throw value_error("cusci::signal::parse_extension_mode: Unknown mode: " + std::string(s));
}

resample_padtype parse_resample_padtype(std::string_view s) {
  for (int i = 0; i <= static_cast<int>(resample_padtype::minimum); ++i)
    if (s == padtype_name(static_cast<resample_padtype>(i))) return static_cast<resample_padtype>(i);
  throw value_error("cusci::signal::parse_resample_padtype: padtype must be one of: maximum, mean, median, minimum, "
                    "constant, wrap, edge, smooth, symmetric, reflect, antisymmetric, antireflect, line; got '" +
                    std::string(s) + "'");
}

resample_domain parse_resample_domain(std::string_view s) {
  if (s == "time") return resample_domain::time;
  if (s == "freq") return resample_domain::freq;
  throw value_error("cusci::signal::parse_resample_domain: Parameter domain='" + std::string(s) +
                    "' not in ('time', 'freq')!");
}

decimate_ftype parse_decimate_ftype(std::string_view s) {
  if (s == "iir") return decimate_ftype::iir;
  if (s == "fir") return decimate_ftype::fir;
  throw value_error("cusci::signal::parse_decimate_ftype: invalid ftype '" + std::string(s) + "'");
}

// ------------------------------------------------------------------------------------------- upfirdn

ndarray upfirdn(const array_like& h, const ndarray& x, std::int64_t up, std::int64_t down, const upfirdn_options& o) {
  const std::string F = "cusci::signal::upfirdn";
  CUSCI_EXPECTS(h.ndim() == 1 && h.shape()[0] > 0, value_error, F + ": h must be 1-D with non-zero length");
  const dtype dt = promote_types(promote_types(h.dtype(), x.dtype()), dtype::float32);
  CUSCI_EXPECTS(is_inexact(dt), not_implemented_error,
                F + ": unsupported dtype " + std::string(dtype_name(dt)));
  CUSCI_EXPECTS(up >= 1 && down >= 1, value_error,
                F + ": Both up and down must be >= 1, got up=" + std::to_string(up) + ", down=" + std::to_string(down));
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, F + ": x must have at least one dimension (tuple index out of range)");
  const int axis = detail::normalize_axis(o.axis, x.ndim(), F);
  const i64 L = x.shape()[static_cast<std::size_t>(axis)];
  check_extension(o.mode, L, F);
  const std::vector<cplx> hv = taps_as(h.to_host(), dt);
  const i64 n_out = output_len(static_cast<i64>(hv.size()), L, up, down);
  CUSCI_EXPECTS(n_out >= 0, value_error, F + ": negative dimensions are not allowed (output length " +
                                             std::to_string(n_out) + " for an empty axis)");
  return polyphase(hv, x, up, down, axis, o.mode, cplx(o.cval, 0.0), 0, n_out, dt);
}

// ------------------------------------------------------------------------------------- resample_poly

ndarray resample_poly(const ndarray& x, std::int64_t up_in, std::int64_t down_in, const resample_poly_options& o) {
  const std::string F = "cusci::signal::resample_poly";
  CUSCI_EXPECTS(up_in >= 1 && down_in >= 1, value_error,
                F + ": up and down must be >= 1, got up=" + std::to_string(up_in) + ", down=" + std::to_string(down_in));
  CUSCI_EXPECTS(!(o.cval && o.padtype != resample_padtype::constant), value_error,
                F + ": cval has no effect when padtype is " + padtype_name(o.padtype));
  const i64 g = std::gcd(up_in, down_in);
  const i64 up = up_in / g, down = down_in / g;
  if (up == 1 && down == 1) return x.copy(order::C);
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, F + ": x must have at least one dimension (tuple index out of range)");
  const int axis = detail::normalize_axis(o.axis, x.ndim(), F);
  const i64 n_in = x.shape()[static_cast<std::size_t>(axis)];
  const i64 n_out = (n_in * up) / down + ((n_in * up) % down != 0 ? 1 : 0);

  // The filter, in its own dtype (SciPy: the designed taps in x's dtype for inexact x, else float64;
  // explicit taps keep theirs), scaled by up in that dtype.
  host_array h;
  i64 half_len;
  if (o.window.is_array()) {
    h = window_taps_host(o.window);
    CUSCI_EXPECTS(h.ndim() <= 1, value_error, F + ": window must be 1-D");
    CUSCI_EXPECTS(h.ndim() == 1, index_error, F + ": a 0-d window has no length (tuple index out of range)");
    half_len = floor_div(h.size() - 1, 2);
  } else {
    const i64 max_rate = std::max(up, down);
    half_len = 10 * max_rate;
    h = firwin(2 * half_len + 1, 1.0 / static_cast<double>(max_rate), {.window = *o.window.spec});
    if (is_inexact(x.dtype())) h = h.astype(x.dtype());
  }
  {
    const dtype hdt = h.dtype();
    host_array s = h.astype(dtype::complex128);
    auto v = s.to_vector<cplx>();
    for (auto& c : v) c *= static_cast<double>(up);
    h = host_array::from(v).astype(hdt == dtype::bool_ ? dtype::int64 : hdt);
  }
  const dtype dt = promote_types(promote_types(h.dtype(), x.dtype()), dtype::float32);
  CUSCI_EXPECTS(is_inexact(dt), not_implemented_error, F + ": unsupported dtype " + std::string(dtype_name(dt)));

  // Zero-pad the filter so that the kept outputs are centred.
  const i64 hl = h.size();
  const i64 n_pre_pad = down - py_mod(half_len, down);
  const i64 n_pre_remove = floor_div(half_len + n_pre_pad, down);
  const i64 need = (n_out + n_pre_remove - 1) * down - (n_in - 1) * up + 1;  // filter length for enough outputs
  const i64 n_post_pad = std::max<i64>(0, need - hl - n_pre_pad);
  std::vector<cplx> hv(static_cast<std::size_t>(n_pre_pad), 0.0);
  const auto core = taps_as(h, dt);
  hv.insert(hv.end(), core.begin(), core.end());
  hv.resize(hv.size() + static_cast<std::size_t>(n_post_pad), 0.0);

  const bool stat = o.padtype == resample_padtype::mean || o.padtype == resample_padtype::median ||
                    o.padtype == resample_padtype::maximum || o.padtype == resample_padtype::minimum;
  const extension_mode mode = stat ? extension_mode::constant : static_cast<extension_mode>(static_cast<int>(o.padtype));
  const cplx cval = (!stat && mode == extension_mode::constant) ? cplx(o.cval.value_or(0.0), 0.0) : cplx(0.0, 0.0);
  check_extension(mode, n_in, F);

  if (!stat) return polyphase(hv, x, up, down, axis, mode, cval, n_pre_remove, n_out, dt);

  // padtype mean / median / maximum / minimum: subtract the line's statistic, filter, add it back.
  ndarray xc = detail::canonical(x, axis, dt);
  ndarray bg;
  switch (o.padtype) {
    case resample_padtype::mean: bg = mean(xc, -1, {.keepdims = true}); break;
    case resample_padtype::maximum: bg = max(xc, -1, {.keepdims = true}); break;
    case resample_padtype::minimum: bg = min(xc, -1, {.keepdims = true}); break;
    default: {
      CUSCI_EXPECTS(!is_complex(dt), type_error, F + ": padtype 'median' of complex data is not supported");
      CUSCI_EXPECTS(n_in > 0, value_error, F + ": padtype 'median' needs a non-empty axis");
      const ndarray srt = sort(xc, -1);
      const ndarray a = detail::slice_along(srt, xc.ndim() - 1, slice{(n_in - 1) / 2, (n_in - 1) / 2 + 1, {}});
      const ndarray b = detail::slice_along(srt, xc.ndim() - 1, slice{n_in / 2, n_in / 2 + 1, {}});
      bg = n_in % 2 == 1 ? a.copy() : divide(add(a, b), scalar(2.0));
    }
  }
  const ndarray xs = subtract(xc, bg);
  shape_t ys = xs.shape();
  ys.back() = n_out;
  ndarray yc = empty(ys, dt);
  if (yc.size() > 0) detail::upfirdn_lines(xs, yc, hv, up, down, mode, cval, n_pre_remove);
  ndarray out = add(yc, bg);
  return detail::move_last_axis_to(out, axis);
}

// ------------------------------------------------------------------------------------------ resample

namespace {

/// W as a device float64 [n_x] array, or an empty optional (no window).
std::optional<ndarray> spectral_window(const std::optional<filter_window>& w, i64 n_x, const std::string& F,
                                       dtype& wdt) {
  if (!w) return std::nullopt;
  std::vector<double> v;
  if (w->is_array()) {
    const shape_t& s = w->host_taps ? w->host_taps->shape() : w->device_taps->shape();
    CUSCI_EXPECTS(s.size() == 1 && s[0] == n_x, value_error,
                  F + ": window.shape=" + detail::shape_str(s) + " != (" + std::to_string(n_x) +
                      ",), i.e., window length is not equal to number of frequency bins!");
    host_array h = window_taps_host(*w);
    CUSCI_EXPECTS(!is_complex(h.dtype()), type_error, F + ": a complex window is not supported");
    wdt = is_inexact(h.dtype()) ? h.dtype() : dtype::float64;
    v = h.astype(dtype::float64).to_vector<double>();
  } else {
    const auto g = detail::get_window_vec(*w->spec, n_x, true, F.c_str());
    v.resize(g.size());
    const i64 sh = n_x / 2;  // fftshift
    for (i64 k = 0; k < n_x; ++k) v[static_cast<std::size_t>(k)] = g[static_cast<std::size_t>(py_mod(k - sh, n_x))];
    wdt = dtype::float64;
  }
  return asarray(host_array::from(v));
}

}  // namespace

ndarray resample(const ndarray& x, std::int64_t num, const resample_options& o) {
  const std::string F = "cusci::signal::resample";
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, F + ": x must have at least one dimension (tuple index out of range)");
  // SciPy moves the axis only for x.ndim > 1 (a 1-D x ignores axis).
  const int axis = x.ndim() > 1 ? detail::normalize_axis(o.axis, x.ndim(), F) : 0;
  const i64 n_x = x.shape()[static_cast<std::size_t>(axis)];
  CUSCI_EXPECTS(num >= 1, value_error, F + ": num must be >= 1, got " + std::to_string(num) +
                                           " (SciPy: division by zero / invalid number of data points)");
  CUSCI_EXPECTS(n_x >= 1, value_error, F + ": invalid number of data points (0) along axis");
  const double s_fac = static_cast<double>(n_x) / static_cast<double>(num);
  const i64 m = std::min(num, n_x), m2 = m / 2 + 1;
  dtype wdt = dtype::float64;
  const std::optional<ndarray> W = spectral_window(o.window, n_x, F, wdt);
  const ndarray xm = cusci::detail::move_axis_last(x, axis);

  ndarray out;
  if (o.domain == resample_domain::time && !is_complex(x.dtype())) {
    const ndarray X = cusci::fft::rfft(xm, {.axis = -1});  // complex64 / complex128, C-contiguous
    const i64 nX = X.shape().back();
    std::optional<ndarray> Wf;
    if (W) {  // fold: W1[l] = (W[l] + W[-l]) / 2 for 0 < l < nX
      host_array wh = to_host(*W);
      auto v = wh.to_vector<double>();
      std::vector<double> f(static_cast<std::size_t>(nX));
      f[0] = v[0];
      for (i64 l = 1; l < nX; ++l)
        f[static_cast<std::size_t>(l)] = (v[static_cast<std::size_t>(l)] + v[static_cast<std::size_t>(n_x - l)]) / 2;
      if (wdt == dtype::float32 || wdt == dtype::float16) {
        for (i64 l = 1; l < nX; ++l) {  // fold in the window's precision
          const float a = static_cast<float>(v[static_cast<std::size_t>(l)]), b = static_cast<float>(v[static_cast<std::size_t>(n_x - l)]);
          f[static_cast<std::size_t>(l)] = static_cast<double>(static_cast<float>(a + b) / 2.0f);
        }
      }
      Wf = asarray(host_array::from(f));
    }
    shape_t ys = X.shape();
    ys.back() = m2;
    ndarray Y = empty(ys, X.dtype());
    const double nyq = (m % 2 == 0 && num != n_x) ? (num < n_x ? 2.0 : 0.5) : 1.0;
    detail::resample_rspectrum(X, Y, Wf ? &*Wf : nullptr, m, nyq, s_fac);
    out = cusci::fft::irfft(Y, {.n = num, .axis = -1});
  } else {
    ndarray X = o.domain == resample_domain::time ? cusci::fft::fft(xm, {.axis = -1}) : xm;
    dtype cdt = X.dtype();
    if (!is_complex(cdt)) cdt = (cdt == dtype::float32 || cdt == dtype::float16) ? dtype::complex64 : dtype::complex128;
    if (W) cdt = promote_types(cdt, wdt);
    X = detail::contiguous_as(X, cdt);
    shape_t ys = X.shape();
    ys.back() = num;
    ndarray Y = empty(ys, cdt);
    detail::resample_cspectrum(X, Y, W ? &*W : nullptr, n_x, num, s_fac);
    out = cusci::fft::ifft(Y, {.axis = -1});
  }
  return detail::move_last_axis_to(out, axis);
}

resample_result resample(const ndarray& x, std::int64_t num, const array_ref& t, const resample_options& o) {
  const std::string F = "cusci::signal::resample";
  host_array th = t.to_host();
  CUSCI_EXPECTS(th.size() >= 2, index_error, F + ": t must hold at least two timestamps (index out of range)");
  resample_result r;
  r.x = resample(x, num, o);
  const i64 n_x = x.ndim() > 1 ? x.shape()[static_cast<std::size_t>(detail::normalize_axis(o.axis, x.ndim(), F))]
                               : x.shape()[0];
  const double s_fac = static_cast<double>(n_x) / static_cast<double>(num);
  std::vector<double> tv(static_cast<std::size_t>(num));
  const dtype tdt = th.dtype();
  if (tdt == dtype::float32 || tdt == dtype::float16) {
    // t[0] and (t[1] - t[0]) * s_fac stay float32 scalars; times arange (int64) -> float64.
    const auto f = th.astype(dtype::float32).to_vector<float>();
    const float d = static_cast<float>(f[1] - f[0]) * static_cast<float>(s_fac);
    for (i64 i = 0; i < num; ++i) tv[static_cast<std::size_t>(i)] = static_cast<double>(f[0]) + static_cast<double>(d) * static_cast<double>(i);
  } else {
    const auto f = th.astype(dtype::float64).to_vector<double>();
    const double d = (f[1] - f[0]) * s_fac;
    for (i64 i = 0; i < num; ++i) tv[static_cast<std::size_t>(i)] = f[0] + d * static_cast<double>(i);
  }
  r.t = asarray(host_array::from(tv));
  return r;
}

}  // namespace cusci::signal
