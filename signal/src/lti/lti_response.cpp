// Frequency responses of LTI systems (host), following SciPy 1.18's scipy/signal/_ltisys.py: freqresp and
// bode through freqs / freqs_zpk (state-space systems through their zeros, poles and gain), dfreqresp and
// dbode through freqz / freqz_zpk (state-space systems through their transfer function, the numerator and
// denominator padded to the same length so that powers of z become powers of z^-1).

#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/lti_functions.hpp"
#include "cusci/signal/responses.hpp"
#include "lti/lti_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

using namespace detail::lti_impl;

namespace {

constexpr double pi = 3.14159265358979323846;

/// numpy.mod for floats (the result has the sign of the divisor).
double np_mod(double x, double y) {
  double r = std::fmod(x, y);
  if (r != 0) {
    if ((r < 0) != (y < 0)) r += y;
  } else {
    r = std::copysign(0.0, y);
  }
  return r;
}

/// numpy.unwrap(p) with the default discont = pi, period = 2 pi.
std::vector<double> unwrap(const std::vector<double>& p) {
  std::vector<double> out(p);
  double cum = 0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    const double dd = p[i] - p[i - 1];
    double ddmod = np_mod(dd + pi, 2 * pi) - pi;
    if (ddmod == -pi && dd > 0) ddmod = pi;
    double corr = ddmod - dd;
    if (std::abs(dd) < pi) corr = 0;
    cum += corr;
    out[i] = p[i] + cum;
  }
  return out;
}

bode_result bode_of(const freq_response& r, double wscale) {
  const std::vector<cplx> h = to_cvec(r.h);
  std::vector<double> mag(h.size()), ph(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    mag[i] = 20.0 * std::log10(std::abs(h[i]));
    ph[i] = std::atan2(h[i].imag(), h[i].real());
  }
  ph = unwrap(ph);
  for (auto& v : ph) v = v * 180.0 / pi;
  host_array w = r.w;
  if (wscale != 1.0) {
    std::vector<double> wv = to_dvec(r.w, "cusci::signal::dbode", "w");
    for (auto& v : wv) v /= wscale;
    w = from_dvec(wv);
  }
  return {w, from_dvec(mag), from_dvec(ph)};
}

/// The numerator of a transfer function raveled to 1-D (SciPy's num.ravel()).
host_array ravel(const host_array& a) {
  host_array r = a;
  if (a.ndim() != 1) {
    host_array o(a.dtype(), shape_t{a.size()});
    if (a.nbytes()) std::memcpy(o.data(), a.data(), a.nbytes());
    r = o;
  }
  return r;
}

freq_points points(const std::optional<host_array>& w, std::int64_t n) {
  if (w) return freq_points(*w);
  return freq_points(n);
}

void check_siso(std::int64_t inputs, std::int64_t outputs, const char* msg) {
  CUSCI_EXPECTS(inputs == 1 && outputs == 1, value_error, std::string(msg));
}

}  // namespace

freq_response freqresp(const lti& system, const std::optional<host_array>& w, std::int64_t n) {
  CUSCI_NVTX_SCOPE("cusci::signal::freqresp");
  const char* msg = "cusci::signal::freqresp: freqresp() requires a SISO (single input, single output) system.";
  if (const auto* tf = std::get_if<TransferFunction>(&system.system())) {
    check_siso(tf->inputs(), tf->outputs(), msg);
    return freqs(ravel(tf->num()), tf->den(), points(w, n));
  }
  // State space: through ss2zpk of input 0, as SciPy's _as_zpk (several inputs are not refused there).
  const ZerosPolesGain z = system.to_zpk();
  return freqs_zpk(z.zeros(), z.poles(), z.gain(), points(w, n));
}

bode_result bode(const lti& system, const std::optional<host_array>& w, std::int64_t n) {
  CUSCI_NVTX_SCOPE("cusci::signal::bode");
  return bode_of(freqresp(system, w, n), 1.0);
}

freq_response dfreqresp(const dlti& system, const dfreqresp_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::dfreqresp");
  const char* msg = "cusci::signal::dfreqresp: dfreqresp requires a SISO (single input, single output) system.";
  const freqz_options fo{.whole = opts.whole};
  if (const auto* z = std::get_if<ZerosPolesGain>(&system.system()))
    return freqz_zpk(z->zeros(), z->poles(), z->gain(), points(opts.w, opts.n), {.whole = opts.whole});
  const TransferFunction tf = system.to_tf();
  check_siso(tf.inputs(), tf.outputs(), msg);
  // _z_to_zinv: pad the shorter of num / den with leading zeros.
  host_array num = ravel(tf.num()), den = tf.den();
  const std::int64_t diff = num.size() - den.size();
  auto pad = [](const host_array& a, std::int64_t k) {
    const dtype dt = (a.dtype() == dtype::complex128 || a.dtype() == dtype::complex64) ? dtype::complex128
                                                                                          : dtype::float64;
    host_array src = a.astype(dt);
    host_array o(dt, shape_t{a.size() + k});
    const std::size_t isz = itemsize(dt);
    if (src.nbytes()) std::memcpy(static_cast<char*>(o.data()) + k * isz, src.data(), src.nbytes());
    return o;
  };
  if (diff > 0) den = pad(den, diff);
  if (diff < 0) num = pad(num, -diff);
  return freqz(num, den, points(opts.w, opts.n), fo);
}

bode_result dbode(const dlti& system, const std::optional<host_array>& w, std::int64_t n) {
  CUSCI_NVTX_SCOPE("cusci::signal::dbode");
  return bode_of(dfreqresp(system, {.w = w, .n = n}), system.dt());
}

}  // namespace cusci::signal
