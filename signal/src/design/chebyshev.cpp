// Chebyshev type I and II filter design (host, double precision), following SciPy 1.18's
// scipy/signal/_filter_design.py: cheb1ap / cheb2ap, and iirfilter's pipeline for ftype 'cheby1' /
// 'cheby2' (checks, prototype, pre-warping, lp2lp / lp2hp / lp2bp / lp2bs, bilinear, output form).
// The zpk transforms and NumPy's complex arithmetic are design/zpk_transforms.hpp's, shared with butter.

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "design/zpk_transforms.hpp"
#include "windows/windows.hpp"

namespace cusci::signal {

namespace {

using namespace detail::zpk;
constexpr double pi = 3.14159265358979323846;

zpk_t cheb1_proto(int N, double rp) {
  CUSCI_EXPECTS(N >= 0, value_error, "cusci::signal::cheb1ap: Filter order must be a nonnegative integer");
  if (N == 0) return {{}, {}, std::pow(10.0, -rp / 20)};
  const double eps = std::sqrt(std::pow(10.0, 0.1 * rp) - 1.0);
  const double mu = 1.0 / N * std::asinh(1 / eps);
  zpk_t f{{}, {}, 1.0};
  for (int m = -N + 1; m < N; m += 2) {
    const double theta = pi * static_cast<double>(m) / (2.0 * N);
    f.p.push_back(-std::sinh(cplx(mu, theta)));
  }
  cplx k(1.0, 0.0);
  for (const auto& v : f.p) k = np_mul(k, -v);
  f.k = k.real();
  if (N % 2 == 0) f.k = f.k / std::sqrt(1 + eps * eps);
  return f;
}

zpk_t cheb2_proto(int N, double rs) {
  CUSCI_EXPECTS(N >= 0, value_error, "cusci::signal::cheb2ap: Filter order must be a nonnegative integer");
  if (N == 0) return {{}, {}, 1.0};
  const double de = 1.0 / std::sqrt(std::pow(10.0, 0.1 * rs) - 1);
  const double mu = std::asinh(1.0 / de) / N;
  zpk_t f{{}, {}, 1.0};
  std::vector<double> m;
  if (N % 2) {
    for (int i = -N + 1; i < 0; i += 2) m.push_back(i);
    for (int i = 2; i < N; i += 2) m.push_back(i);
  } else {
    for (int i = -N + 1; i < N; i += 2) m.push_back(i);
  }
  for (double v : m) f.z.push_back(np_div(cplx(0.0, 1.0), R(std::sin(v * pi / (2.0 * N)))));
  for (int i = -N + 1; i < N; i += 2) {
    const double theta = pi * static_cast<double>(i) / (2.0 * N);
    f.p.push_back(-np_div(R(1.0), std::sinh(cplx(mu, theta))));
  }
  f.k = np_div(prod(f.p, 0.0, -1.0), prod(f.z, 0.0, -1.0)).real();
  return f;
}

zpk_coeffs as_coeffs(const zpk_t& f) { return {host_array::from(f.z), host_array::from(f.p), f.k}; }

// scipy.signal.iirfilter for the two Chebyshev types: the checks in SciPy's order, then the pipeline.
iir_filter cheby_design(const char* fn, bool type1, int N, double r, std::vector<double> Wn, const butter_options& o) {
  const std::string F = std::string("cusci::signal::") + fn;
  if (o.fs) {
    CUSCI_EXPECTS(!o.analog, value_error, F + ": fs cannot be specified for an analog filter");
    for (auto& w : Wn) w = w / (*o.fs / 2);
  }
  CUSCI_EXPECTS(!Wn.empty(), value_error, F + ": Wn must not be empty");
  for (double w : Wn) CUSCI_EXPECTS(!(w <= 0), value_error, F + ": filter critical frequencies must be greater than 0");
  CUSCI_EXPECTS(!(Wn.size() > 1 && !(Wn[0] < Wn[1])), value_error, F + ": Wn[0] must be less than Wn[1]");
  if (type1)
    CUSCI_EXPECTS(!(r < 0), value_error, F + ": passband ripple (rp) must be positive");
  else
    CUSCI_EXPECTS(!(r < 0), value_error, F + ": stopband attenuation (rs) must be positive");
  CUSCI_EXPECTS(N >= 0, value_error, F + ": Filter order must be a nonnegative integer");
  zpk_t f = type1 ? cheb1_proto(N, r) : cheb2_proto(N, r);
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
  iir_filter out;
  out.output = o.output;
  const host_array z = host_array::from(f.z), p = host_array::from(f.p);
  switch (o.output) {
    case output_form::zpk:
      out.z = z;
      out.p = p;
      out.k = f.k;
      break;
    case output_form::ba: {
      ba_coeffs ba = zpk2tf(z, p, f.k);
      out.b = ba.b;
      out.a = ba.a;
      break;
    }
    case output_form::sos:
      out.sos = zpk2sos(z, p, f.k, {.analog = o.analog});
      break;
  }
  return out;
}

}  // namespace

zpk_coeffs cheb1ap(int N, double rp) { return as_coeffs(cheb1_proto(N, rp)); }
zpk_coeffs cheb2ap(int N, double rs) { return as_coeffs(cheb2_proto(N, rs)); }

iir_filter cheby1(int N, double rp, const std::vector<double>& Wn, const cheby1_options& opts) {
  return cheby_design("cheby1", true, N, rp, Wn, opts);
}
iir_filter cheby1(int N, double rp, double Wn, const cheby1_options& opts) {
  return cheby_design("cheby1", true, N, rp, std::vector<double>{Wn}, opts);
}
iir_filter cheby2(int N, double rs, const std::vector<double>& Wn, const cheby2_options& opts) {
  return cheby_design("cheby2", false, N, rs, Wn, opts);
}
iir_filter cheby2(int N, double rs, double Wn, const cheby2_options& opts) {
  return cheby_design("cheby2", false, N, rs, std::vector<double>{Wn}, opts);
}

}  // namespace cusci::signal
