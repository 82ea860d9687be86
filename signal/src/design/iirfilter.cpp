// SciPy's general IIR designer (scipy/signal/_filter_design.py: iirfilter, buttap, butter, ellip, bessel)
// on the host in double precision: the checks in SciPy's order, the analog prototype, pre-warping, the
// frequency transformation, the bilinear transform and the output form, with SciPy's output dtypes.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "design/iir_internal.hpp"
#include "windows/windows.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {
constexpr double pi = 3.14159265358979323846;
std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}
}  // namespace

namespace detail::iir {

zpk_t buttap_zpk(int N, const std::string& F) {
  CUSCI_EXPECTS(N >= 0, value_error, F + ": Filter order must be a nonnegative integer");
  zpk_t f{{}, {}, 1.0, true, false};
  f.p.reserve(static_cast<std::size_t>(N));
  for (int m = -N + 1; m < N; m += 2) {
    const double theta = pi * static_cast<double>(m) / (2.0 * N);
    f.p.push_back(-cplx(std::cos(theta), std::sin(theta)));
  }
  return f;
}

namespace {
host_array as_array(const std::vector<cplx>& v, bool real) {
  if (!real) return host_array::from(v);
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = v[i].real();
  return host_array::from(r);
}
}  // namespace

zpk_coeffs to_coeffs(const zpk_t& f) { return {as_array(f.z, f.z_real), as_array(f.p, f.p_real), f.k}; }

host_array np_poly(const std::vector<cplx>& r, bool real_dtype, double k) {
  std::vector<cplx> a(r.size() + 1);
  a[0] = cplx(1.0, 0.0);
  std::size_t n = 1;
  for (const auto& root : r) {
    // convolve(a, [1, -root]): a[i] - root * a[i-1], from the top so that a[i-1] is still the old value.
    a[n] = zpk::np_mul(a[n - 1], -root);
    for (std::size_t i = n - 1; i >= 1; --i) a[i] = zpk::np_add(a[i], zpk::np_mul(a[i - 1], -root));
    ++n;
  }
  bool real = real_dtype;
  if (!real) {
    std::vector<double> im(r.size()), imc(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) {
      im[i] = r[i].imag();
      imc[i] = -r[i].imag();
    }
    std::sort(im.begin(), im.end());
    std::sort(imc.begin(), imc.end());
    real = im == imc;  // NaN never compares equal: complex, as numpy
  }
  if (real) {
    std::vector<double> out(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) out[i] = k * a[i].real();
    return host_array::from(out);
  }
  for (auto& v : a) v = zpk::np_mul(cplx(k, 0.0), v);
  return host_array::from(a);
}

iir_filter make_output(const zpk_t& f, output_form out, bool analog) {
  iir_filter r;
  r.output = out;
  switch (out) {
    case output_form::zpk: {
      zpk_coeffs c = to_coeffs(f);
      r.z = c.z;
      r.p = c.p;
      r.k = f.k;
      break;
    }
    case output_form::ba:
      r.b = np_poly(f.z, f.z_real, f.k);
      r.a = np_poly(f.p, f.p_real, 1.0);
      break;
    case output_form::sos:
      r.sos = zpk2sos(host_array::from(f.z), host_array::from(f.p), f.k, {.analog = analog});
      break;
  }
  return r;
}

iir_filter iirfilter_impl(const std::string& F, int N, std::vector<double> Wn, const iirfilter_options& o) {
  using namespace detail::zpk;
  if (o.fs) {
    CUSCI_EXPECTS(!o.analog, value_error, F + ": fs cannot be specified for an analog filter");
    for (auto& w : Wn) w = w / (*o.fs / 2);
  }
  for (double w : Wn) CUSCI_EXPECTS(!(w <= 0), value_error, F + ": filter critical frequencies must be greater than 0");
  CUSCI_EXPECTS(!(Wn.size() > 1 && !(Wn[0] < Wn[1])), value_error, F + ": Wn[0] must be less than Wn[1]");
  CUSCI_EXPECTS(!(o.rp && *o.rp < 0), value_error, F + ": passband ripple (rp) must be positive");
  CUSCI_EXPECTS(!(o.rs && *o.rs < 0), value_error, F + ": stopband attenuation (rs) must be positive");
  zpk_t f;
  switch (o.ftype) {
    case iir_ftype::butter: f = buttap_zpk(N, F); break;
    case iir_ftype::bessel_phase: f = besselap_zpk(N, bessel_norm::phase, F); break;
    case iir_ftype::bessel_delay: f = besselap_zpk(N, bessel_norm::delay, F); break;
    case iir_ftype::bessel_mag: f = besselap_zpk(N, bessel_norm::mag, F); break;
    case iir_ftype::cheby1:
      CUSCI_EXPECTS(o.rp.has_value(), value_error,
                    F + ": passband ripple (rp) must be provided to design a Chebyshev I filter.");
      f = cheb1ap_zpk(N, *o.rp, F);
      break;
    case iir_ftype::cheby2:
      CUSCI_EXPECTS(o.rs.has_value(), value_error,
                    F + ": stopband attenuation (rs) must be provided to design a Chebyshev II filter.");
      f = cheb2ap_zpk(N, *o.rs, F);
      break;
    case iir_ftype::ellip:
      CUSCI_EXPECTS(o.rs.has_value() && o.rp.has_value(), value_error,
                    F + ": Both rp and rs must be provided to design an elliptic filter.");
      f = ellipap_zpk(N, *o.rp, *o.rs, F);
      break;
  }
  std::vector<double> warped = Wn;
  if (!o.analog) {
    for (double w : Wn) {
      if (w <= 0 || w >= 1) {
        if (o.fs)
          throw value_error(F + ": Digital filter critical frequencies must be 0 < Wn < fs/2 (fs=" + detail::fmt(*o.fs) +
                            " -> fs/2=" + detail::fmt(*o.fs / 2) + ")");
        throw value_error(F + ": Digital filter critical frequencies must be 0 < Wn < 1");
      }
    }
    for (std::size_t i = 0; i < Wn.size(); ++i) warped[i] = 2 * 2.0 * std::tan(pi * Wn[i] / 2.0);
  }
  if (o.btype == band_type::lowpass || o.btype == band_type::highpass) {
    CUSCI_EXPECTS(Wn.size() == 1, value_error,
                  F + ": Must specify a single critical frequency Wn for lowpass or highpass filter");
    f = o.btype == band_type::lowpass ? lp2lp_zpk(f, warped[0]) : lp2hp_zpk(f, warped[0]);
  } else {
    CUSCI_EXPECTS(Wn.size() >= 2, value_error,
                  F + ": Wn must specify start and stop frequencies for bandpass or bandstop filter");
    const double bw = warped[1] - warped[0];
    const double wo = std::sqrt(warped[0] * warped[1]);
    f = o.btype == band_type::bandpass ? lp2bp_zpk(f, wo, bw) : lp2bs_zpk(f, wo, bw);
  }
  if (!o.analog) f = bilinear_zpk(f, 2.0);
  return make_output(f, o.output, o.analog);
}

}  // namespace detail::iir

iir_ftype parse_iir_ftype(std::string_view s) {
  const std::string l = lower(s);
  if (l == "butter" || l == "butterworth") return iir_ftype::butter;
  if (l == "cauer" || l == "elliptic" || l == "ellip") return iir_ftype::ellip;
  if (l == "bessel" || l == "bessel_phase") return iir_ftype::bessel_phase;
  if (l == "bessel_delay") return iir_ftype::bessel_delay;
  if (l == "bessel_mag") return iir_ftype::bessel_mag;
  if (l == "cheby1" || l == "chebyshev1" || l == "chebyshevi") return iir_ftype::cheby1;
  if (l == "cheby2" || l == "chebyshev2" || l == "chebyshevii") return iir_ftype::cheby2;
  throw value_error("cusci::signal::parse_iir_ftype: '" + l + "' is not a valid basic IIR filter.");
}

bessel_norm parse_bessel_norm(std::string_view s) {
  if (s == "phase") return bessel_norm::phase;
  if (s == "delay") return bessel_norm::delay;
  if (s == "mag") return bessel_norm::mag;
  throw value_error("cusci::signal::parse_bessel_norm: normalization not understood");
}

iir_filter iirfilter(int N, const std::vector<double>& Wn, const iirfilter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::iirfilter");
  return detail::iir::iirfilter_impl("cusci::signal::iirfilter", N, Wn, opts);
}
iir_filter iirfilter(int N, double Wn, const iirfilter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::iirfilter");
  return detail::iir::iirfilter_impl("cusci::signal::iirfilter", N, std::vector<double>{Wn}, opts);
}

zpk_coeffs buttap(int N) { return detail::iir::to_coeffs(detail::iir::buttap_zpk(N, "cusci::signal::buttap")); }

iir_filter butter(int N, const std::vector<double>& Wn, const butter_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::butter");
  return detail::iir::iirfilter_impl(
      "cusci::signal::butter", N, Wn,
      {.btype = o.btype, .analog = o.analog, .ftype = iir_ftype::butter, .output = o.output, .fs = o.fs});
}
iir_filter butter(int N, double Wn, const butter_options& o) { return butter(N, std::vector<double>{Wn}, o); }

iir_filter ellip(int N, double rp, double rs, const std::vector<double>& Wn, const ellip_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::ellip");
  return detail::iir::iirfilter_impl("cusci::signal::ellip", N, Wn,
                                     {.rp = rp,
                                      .rs = rs,
                                      .btype = o.btype,
                                      .analog = o.analog,
                                      .ftype = iir_ftype::ellip,
                                      .output = o.output,
                                      .fs = o.fs});
}
iir_filter ellip(int N, double rp, double rs, double Wn, const ellip_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::ellip");
  return ellip(N, rp, rs, std::vector<double>{Wn}, o);
}

iir_filter bessel(int N, const std::vector<double>& Wn, const bessel_options& o) {
  CUSCI_NVTX_SCOPE("cusci::signal::bessel");
  const iir_ftype ft = o.norm == bessel_norm::phase   ? iir_ftype::bessel_phase
                       : o.norm == bessel_norm::delay ? iir_ftype::bessel_delay
                                                      : iir_ftype::bessel_mag;
  return detail::iir::iirfilter_impl("cusci::signal::bessel", N, Wn,
                                     {.btype = o.btype, .analog = o.analog, .ftype = ft, .output = o.output, .fs = o.fs});
}
iir_filter bessel(int N, double Wn, const bessel_options& o) { return bessel(N, std::vector<double>{Wn}, o); }

}  // namespace cusci::signal
