// Elliptic (Cauer) analog prototype (host, double precision), following SciPy 1.18's ellipap:
// Orfanidis' method ("Lecture Notes on Elliptic Filter Design"): the degree equation solved by Jacobi's
// nome series (_ellipdeg), zeros and poles from the Jacobi elliptic functions, the inverse of sn / sc by
// descending Landen transformations (_arc_jac_sn, _arc_jac_sc1). K / K' and sn / cn / dn are
// iir_special.cpp's.

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "design/iir_internal.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal::detail::iir {

namespace {
using namespace detail::zpk;
constexpr double pi = 3.14159265358979323846;
constexpr double EPSILON = 2e-16;
constexpr int ellipdeg_mmax = 7;
constexpr int arc_jac_sn_maxiter = 10;

double pow10m1(double x) { return std::expm1(std::log(10.0) * x); }

// _ellipdeg: the modulus m of the elliptic prototype of order n with selectivity parameter m1.
double ellipdeg(int n, double m1) {
  const double K1 = ellipk(m1), K1p = ellipkm1(m1);
  const double q1 = std::exp(-pi * K1p / K1);
  const double q = std::pow(q1, 1.0 / n);
  double num = 0.0, den = 0.0;
  for (int m = 0; m <= ellipdeg_mmax; ++m) num += std::pow(q, static_cast<double>(m * (m + 1)));
  for (int m = 1; m <= ellipdeg_mmax + 1; ++m) den += std::pow(q, static_cast<double>(m * m));
  den = 1 + 2 * den;
  const double r = num / den;
  return 16 * q * (r * r * r * r);
}

// Python's complex ** 0.5 of ((1 - x)(1 + x)): the principal square root.
cplx complement(const cplx& kx) { return std::sqrt(np_mul(np_sub(R(1.0), kx), np_add(R(1.0), kx))); }

// _arc_jac_sn: the inverse Jacobian elliptic sn of complex w for parameter m (Landen transformations).
cplx arc_jac_sn(const cplx& w, double m, const std::string& F) {
  const double k = std::sqrt(m);
  if (k > 1) return {std::nan(""), 0.0};
  if (k == 1) return std::atanh(w);
  std::vector<double> ks{k};
  int niter = 0;
  while (ks.back() != 0) {
    const double k_ = ks.back();
    const double k_p = std::sqrt((1 - k_) * (1 + k_));
    ks.push_back((1 - k_p) / (1 + k_p));
    ++niter;
    CUSCI_EXPECTS(niter <= arc_jac_sn_maxiter, value_error, F + ": Landen transformation not converging");
  }
  double K = 1.0;
  for (std::size_t i = 1; i < ks.size(); ++i) K *= 1 + ks[i];
  K *= pi / 2;
  cplx wn = w;
  for (std::size_t i = 0; i + 1 < ks.size(); ++i) {
    const double kn = ks[i], knext = ks[i + 1];
    const cplx denom = np_mul(R(1 + knext), np_add(R(1.0), complement(np_mul(R(kn), wn))));
    wn = np_div(np_mul(R(2.0), wn), denom);
  }
  const cplx u = np_mul(R(2 / pi), std::asin(wn));
  return np_mul(R(K), u);
}

// _arc_jac_sc1: real inverse Jacobian sc with complementary modulus.
double arc_jac_sc1(double w, double m, const std::string& F) {
  const cplx z = arc_jac_sn(cplx(0.0, w), m, F);
  CUSCI_EXPECTS(!(std::abs(z.real()) > 1e-14), value_error, F + ": the inverse elliptic sc did not come out real");
  return z.imag();
}
}  // namespace

zpk_t ellipap_zpk(int N, double rp, double rs, const std::string& F) {
  CUSCI_EXPECTS(N >= 0, value_error, F + ": Filter order must be a nonnegative integer");
  if (N == 0) return {{}, {}, std::pow(10.0, -rp / 20), false, false};
  if (N == 1) {
    CUSCI_EXPECTS(pow10m1(0.1 * rp) != 0, value_error, F + ": float division by zero (rp = 0)");
    const double p = -std::sqrt(1.0 / pow10m1(0.1 * rp));
    return {{}, {cplx(p, 0.0)}, -p, false, false};
  }
  const double eps_sq = pow10m1(0.1 * rp);
  const double eps = std::sqrt(eps_sq);
  CUSCI_EXPECTS(pow10m1(0.1 * rs) != 0, value_error, F + ": float division by zero (rs = 0)");
  const double ck1_sq = eps_sq / pow10m1(0.1 * rs);
  CUSCI_EXPECTS(ck1_sq != 0, value_error, F + ": Cannot design a filter with given rp and rs specifications.");
  const double val0 = ellipk(ck1_sq);
  const double m = ellipdeg(N, ck1_sq);
  const double capk = ellipk(m);
  std::vector<double> s, c, d;
  for (int j = 1 - N % 2; j < N; j += 2) {
    const jacobi_t e = ellipj(j * capk / N, m);
    s.push_back(e.sn);
    c.push_back(e.cn);
    d.push_back(e.dn);
  }
  zpk_t f{{}, {}, 0.0, false, false};
  const double sqm = std::sqrt(m);
  for (double sv : s)
    if (std::abs(sv) > EPSILON) f.z.push_back(cplx(0.0, 1.0 / (sqm * sv)));
  const std::size_t nz = f.z.size();
  for (std::size_t i = 0; i < nz; ++i) f.z.push_back(std::conj(f.z[i]));

  const double r = arc_jac_sc1(1. / eps, ck1_sq, F);
  const double v0 = capk * r / (N * val0);
  const jacobi_t e0 = ellipj(v0, 1 - m);
  std::vector<cplx> p(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const cplx num(c[i] * d[i] * e0.sn * e0.cn, s[i] * e0.dn);
    const double dsv = d[i] * e0.sn;
    p[i] = -np_div(num, R(1 - dsv * dsv));
  }
  f.p = p;
  if (N % 2) {
    double ss = 0.0;
    for (const auto& v : p) ss += (v * std::conj(v)).real();
    const double thr = EPSILON * std::sqrt(ss);
    for (const auto& v : p)
      if (std::abs(v.imag()) > thr) f.p.push_back(std::conj(v));
  } else {
    for (const auto& v : p) f.p.push_back(std::conj(v));
  }
  double k = np_div(prod(f.p, 0.0, -1.0), prod(f.z, 0.0, -1.0)).real();
  if (N % 2 == 0) k = k / std::sqrt(1 + eps_sq);
  f.k = k;
  return f;
}

}  // namespace cusci::signal::detail::iir

namespace cusci::signal {
zpk_coeffs ellipap(int N, double rp, double rs) {
  CUSCI_NVTX_SCOPE("cusci::signal::ellipap");
  return detail::iir::to_coeffs(detail::iir::ellipap_zpk(N, rp, rs, "cusci::signal::ellipap"));
}
}  // namespace cusci::signal
