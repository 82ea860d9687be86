// Chebyshev type I and II filter design (host, double precision), following SciPy 1.18's
// scipy/signal/_filter_design.py: cheb1ap / cheb2ap, and iirfilter's pipeline for ftype 'cheby1' /
// 'cheby2' (checks, prototype, pre-warping, lp2lp / lp2hp / lp2bp / lp2bs, bilinear, output form).
//
// The zpk frequency transformations below are a minimal private copy of the ones filter_design.cpp
// keeps in its anonymous namespace (that file belongs to another family and exposes only zpk2tf and
// zpk2sos); the output conversions call those public functions.

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "windows/windows.hpp"

namespace cusci::signal {

namespace {

using cplx = std::complex<double>;
constexpr double pi = 3.14159265358979323846;

struct zpk_v {
  std::vector<cplx> z, p;
  double k = 1.0;
};

// NumPy's complex division (Smith's algorithm, as NumPy's loops), so that signed zeros and rounding
// follow SciPy's arrays; a real operand is (r + 0j).
cplx cdiv(const cplx& a, const cplx& b) {
  const double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (std::abs(br) >= std::abs(bi)) {
    if (br == 0 && bi == 0) return {ar / std::abs(br), ai / std::abs(bi)};
    const double rat = bi / br, scl = 1.0 / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const double rat = br / bi, scl = 1.0 / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}
cplx cmul(const cplx& a, const cplx& b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
cplx C(double r) { return {r, 0.0}; }

cplx prod_shift(const std::vector<cplx>& v, double s) {  // prod(s - v), prod(-v) for s == 0
  cplx r(1.0, 0.0);
  for (const auto& x : v) r = cmul(r, s == 0.0 ? -x : cplx(s - x.real(), -x.imag()));
  return r;
}

std::size_t degree_of(const zpk_v& f) {
  CUSCI_EXPECTS(f.p.size() >= f.z.size(), value_error,
                "cusci::signal: Improper transfer function. Must have at least as many poles as zeros.");
  return f.p.size() - f.z.size();
}

zpk_v to_lowpass(const zpk_v& f, double wo) {
  const std::size_t d = degree_of(f);
  zpk_v r{f.z, f.p, f.k * std::pow(wo, static_cast<double>(d))};
  for (auto& v : r.z) v = cmul(C(wo), v);
  for (auto& v : r.p) v = cmul(C(wo), v);
  return r;
}

zpk_v to_highpass(const zpk_v& f, double wo) {
  const std::size_t d = degree_of(f);
  zpk_v r{{}, {}, f.k * cdiv(prod_shift(f.z, 0.0), prod_shift(f.p, 0.0)).real()};
  for (const auto& v : f.z) r.z.push_back(cdiv(C(wo), v));
  for (const auto& v : f.p) r.p.push_back(cdiv(C(wo), v));
  r.z.insert(r.z.end(), d, cplx(0.0, 0.0));
  return r;
}

// v + sqrt(v^2 - wo^2) for every v, then v - sqrt(v^2 - wo^2) for every v (SciPy's concatenation).
std::vector<cplx> band_split(const std::vector<cplx>& v, double wo) {
  std::vector<cplx> out(2 * v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const cplx s = std::sqrt(cplx(cmul(v[i], v[i]).real() - wo * wo, cmul(v[i], v[i]).imag()));
    out[i] = v[i] + s;
    out[v.size() + i] = v[i] - s;
  }
  return out;
}

zpk_v to_bandpass(const zpk_v& f, double wo, double bw) {
  const std::size_t d = degree_of(f);
  auto scale = [&](std::vector<cplx> v) {
    for (auto& x : v) x = cdiv(cmul(x, C(bw)), C(2.0));
    return v;
  };
  zpk_v r{band_split(scale(f.z), wo), band_split(scale(f.p), wo), f.k * std::pow(bw, static_cast<double>(d))};
  r.z.insert(r.z.end(), d, cplx(0.0, 0.0));
  return r;
}

zpk_v to_bandstop(const zpk_v& f, double wo, double bw) {
  const std::size_t d = degree_of(f);
  auto invert = [&](std::vector<cplx> v) {
    for (auto& x : v) x = cdiv(C(bw / 2), x);
    return v;
  };
  zpk_v r{band_split(invert(f.z), wo), band_split(invert(f.p), wo),
          f.k * cdiv(prod_shift(f.z, 0.0), prod_shift(f.p, 0.0)).real()};
  r.z.insert(r.z.end(), d, cplx(0.0, wo));
  r.z.insert(r.z.end(), d, cplx(0.0, -wo));
  return r;
}

zpk_v bilinear(const zpk_v& f, double fs) {
  const std::size_t d = degree_of(f);
  const double fs2 = 2.0 * fs;
  zpk_v r{{}, {}, f.k * cdiv(prod_shift(f.z, fs2), prod_shift(f.p, fs2)).real()};
  for (const auto& v : f.z) r.z.push_back(cdiv(cplx(fs2 + v.real(), v.imag()), cplx(fs2 - v.real(), -v.imag())));
  for (const auto& v : f.p) r.p.push_back(cdiv(cplx(fs2 + v.real(), v.imag()), cplx(fs2 - v.real(), -v.imag())));
  r.z.insert(r.z.end(), d, cplx(-1.0, 0.0));
  return r;
}

zpk_v cheb1_proto(int N, double rp) {
  CUSCI_EXPECTS(N >= 0, value_error, "cusci::signal::cheb1ap: Filter order must be a nonnegative integer");
  if (N == 0) return {{}, {}, std::pow(10.0, -rp / 20)};
  const double eps = std::sqrt(std::pow(10.0, 0.1 * rp) - 1.0);
  const double mu = 1.0 / N * std::asinh(1 / eps);
  zpk_v f;
  for (int m = -N + 1; m < N; m += 2) {
    const double theta = pi * static_cast<double>(m) / (2.0 * N);
    f.p.push_back(-std::sinh(cplx(mu, theta)));
  }
  cplx k(1.0, 0.0);
  for (const auto& v : f.p) k = cmul(k, -v);
  f.k = k.real();
  if (N % 2 == 0) f.k = f.k / std::sqrt(1 + eps * eps);
  return f;
}

zpk_v cheb2_proto(int N, double rs) {
  CUSCI_EXPECTS(N >= 0, value_error, "cusci::signal::cheb2ap: Filter order must be a nonnegative integer");
  if (N == 0) return {{}, {}, 1.0};
  const double de = 1.0 / std::sqrt(std::pow(10.0, 0.1 * rs) - 1);
  const double mu = std::asinh(1.0 / de) / N;
  zpk_v f;
  std::vector<double> m;
  if (N % 2) {
    for (int i = -N + 1; i < 0; i += 2) m.push_back(i);
    for (int i = 2; i < N; i += 2) m.push_back(i);
  } else {
    for (int i = -N + 1; i < N; i += 2) m.push_back(i);
  }
  for (double v : m) f.z.push_back(cdiv(cplx(0.0, 1.0), C(std::sin(v * pi / (2.0 * N)))));
  for (int i = -N + 1; i < N; i += 2) {
    const double theta = pi * static_cast<double>(i) / (2.0 * N);
    f.p.push_back(-cdiv(C(1.0), std::sinh(cplx(mu, theta))));
  }
  f.k = cdiv(prod_shift(f.p, 0.0), prod_shift(f.z, 0.0)).real();
  return f;
}

zpk_coeffs as_coeffs(const zpk_v& f) { return {host_array::from(f.z), host_array::from(f.p), f.k}; }

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
  zpk_v f = type1 ? cheb1_proto(N, r) : cheb2_proto(N, r);
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
    f = o.btype == band_type::lowpass ? to_lowpass(f, warped[0]) : to_highpass(f, warped[0]);
  } else {
    CUSCI_EXPECTS(Wn.size() >= 2, value_error,
                  F + ": Wn must specify start and stop frequencies for bandpass or bandstop filter");
    const double bw = warped[1] - warped[0];
    const double wo = std::sqrt(warped[0] * warped[1]);
    f = o.btype == band_type::bandpass ? to_bandpass(f, wo, bw) : to_bandstop(f, wo, bw);
  }
  if (!o.analog) f = bilinear(f, 2.0);
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
