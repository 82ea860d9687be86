// Bessel/Thomson analog prototype (host, double precision), following SciPy 1.18's besselap: the poles
// are the reciprocals of the zeros of the ordinary Bessel polynomial y_N, found with Campos & Calderon's
// start values, the Aberth-Ehrlich iteration and a Newton polish (scipy.optimize.newton, tol 1e-15) on
// exp(1/x) K_{N+1/2}(1/x), then averaged with their conjugates; normalized for phase, delay or
// magnitude (the -3 dB point by scipy.optimize.newton's secant method from 1.5).
//
// SciPy evaluates scipy.special.kve(N + 1/2, 1/x) (AMOS). For half-integer orders
//   kve(n + 1/2, 1/x) = sqrt(pi x / 2) * sum_{k=0..n} (n+k)! / (k! (n-k)! 2^k) x^k,
// and the factor sqrt(pi x / 2) is common to f and f' (so it cancels in every Newton / Aberth step, and
// f == 0 / f' == 0 exactly when the polynomials are): the polynomials alone are evaluated here.

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "design/iir_internal.hpp"

namespace cusci::signal::detail::iir {

namespace {
using namespace detail::zpk;

// Extended precision for the polynomial evaluations: near a zero, y_N(x) is a cancellation of terms
// thousands of times larger than the result, and SciPy's convergence test (|f / f'| <= 1e-15, which
// AMOS' kve meets) needs f to about 1e-17 absolute. Binary128 (GCC / Clang __float128, software) where
// available, else long double. The coefficients are integers (exact in binary128 for N < ~40).
#if defined(__SIZEOF_FLOAT128__)
using qreal = __float128;
#else
using qreal = long double;
#endif
struct qc {
  qreal re, im;
};
inline qc qadd(const qc& a, const qc& b) { return {a.re + b.re, a.im + b.im}; }
inline qc qmul(const qc& a, const qc& b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
inline qc qscale(const qc& a, qreal s) { return {a.re * s, a.im * s}; }
inline qc qdiv(const qc& a, const qc& b) {
  const qreal d = b.re * b.re + b.im * b.im;
  return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}
inline cplx to_cplx(const qc& a) { return {static_cast<double>(a.re), static_cast<double>(a.im)}; }

// Coefficients of sum_{k=0..n} (n+k)! / (k! (n-k)! 2^k) x^k, lowest power first.
std::vector<qreal> kve_poly(int n) {
  std::vector<qreal> a(static_cast<std::size_t>(n) + 1);
  a[0] = 1;
  for (int k = 1; k <= n; ++k) a[k] = a[k - 1] * static_cast<qreal>((n + k) * (n - k + 1)) / static_cast<qreal>(2 * k);
  return a;
}

qc horner(const std::vector<qreal>& a, const cplx& x) {
  const qc xq{x.real(), x.imag()};
  qc r{a.back(), 0};
  for (std::size_t i = a.size() - 1; i-- > 0;) {
    r = qmul(r, xq);
    r.re += a[i];
  }
  return r;
}

// numpy.polynomial.polynomial.polyval(x, c) for a real x (Horner from the highest coefficient).
double npp_polyval(double x, std::initializer_list<double> c) {
  std::vector<double> v(c);
  double r = v.back() + x * 0;
  for (std::size_t i = v.size() - 1; i-- > 0;) r = v[i] + r * x;
  return r;
}

std::vector<cplx> campos_zeros(int n) {
  if (n == 1) return {cplx(-1.0, 0.0)};
  const double N = n;
  const double s = npp_polyval(N, {0, 0, 2, 0, -3, 1});
  const double b3 = npp_polyval(N, {16, -8}) / s;
  const double b2 = npp_polyval(N, {-24, -12, 12}) / s;
  const double b1 = npp_polyval(N, {8, 24, -12, -2}) / s;
  const double b0 = npp_polyval(N, {0, -6, 0, 5, -1}) / s;
  const double r = npp_polyval(N, {0, 0, 2, 1});
  const double a1 = npp_polyval(N, {-6, -6}) / r;
  const double a2 = 6 / r;
  std::vector<cplx> out(static_cast<std::size_t>(n));
  for (int k = 1; k <= n; ++k) {
    const double K = k;
    out[k - 1] = cplx(npp_polyval(K, {0, a1, a2}), npp_polyval(K, {b0, b1, b2, b3}));
  }
  return out;
}

std::vector<cplx> bessel_zeros(int N, const std::string& F) {
  if (N == 0) return {};
  std::vector<cplx> x = campos_zeros(N);
  const std::vector<qreal> pm = kve_poly(N - 1), p0 = kve_poly(N), pp = kve_poly(N + 1);
  // f(x) = kve(N + 1/2, 1/x), f'(x) = kve(N - 1/2, 1/x) / (2 x^2) - kve(N + 1/2, 1/x) / x^2 +
  // kve(N + 3/2, 1/x) / (2 x^2), without the common factor sqrt(pi x / 2).
  auto dfq = [&](const cplx& v) {
    const qc x{v.real(), v.imag()};
    const qc x2 = qmul(x, x), x22 = qscale(x2, 2);
    const qc t1 = qdiv(horner(pm, v), x22), t2 = qdiv(horner(p0, v), x2), t3 = qdiv(horner(pp, v), x22);
    return qadd(qadd(t1, qscale(t2, -1)), t3);
  };
  auto f = [&](const cplx& v) { return to_cplx(horner(p0, v)); };
  auto fp = [&](const cplx& v) { return to_cplx(dfq(v)); };
  // alpha = -f / f', in extended precision before rounding.
  auto newton_step = [&](const cplx& v) { return to_cplx(qscale(qdiv(horner(p0, v), dfq(v)), -1)); };
  // Aberth-Ehrlich iteration (SciPy's _aberth: tol 1e-15, maxiter 50).
  const std::size_t n = x.size();
  std::vector<cplx> alpha(n), beta(n);
  bool converged = false;
  double noise = 0.0;  // max |alpha| of the last iteration
  for (int it = 0; it < 50; ++it) {
    bool small = true;
    noise = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      // SciPy's kve overflows to inf (and alpha to NaN) where sqrt(pi |x| / 2) |y_N(x)| exceeds the double
      // range: the same failure here.
      const qc fq = horner(p0, x[k]);
      const double scale = std::sqrt(3.14159265358979323846 * std::abs(x[k]) / 2);
      const cplx fd = to_cplx(fq);
      CUSCI_EXPECTS(std::isfinite(std::abs(fd) * scale), runtime_error, F + ": Root-finding calculation failed");
      alpha[k] = newton_step(x[k]);
      if (!(std::abs(alpha[k]) <= 1e-15)) small = false;
      noise = std::max(noise, std::abs(alpha[k]));
    }
    for (std::size_t k = 0; k < n; ++k) {
      cplx s1(0.0, 0.0), s2(0.0, 0.0);
      for (std::size_t j = k + 1; j < n; ++j) s1 = np_add(s1, np_div(R(1.0), np_sub(x[k], x[j])));
      for (std::size_t j = 0; j < k; ++j) s2 = np_add(s2, np_div(R(1.0), np_sub(x[k], x[j])));
      beta[k] = np_add(s1, s2);
    }
    bool finite = true;
    for (std::size_t k = 0; k < n; ++k) {
      x[k] = np_add(x[k], np_div(alpha[k], np_add(R(1.0), np_mul(alpha[k], beta[k]))));
      if (!std::isfinite(x[k].real()) || !std::isfinite(x[k].imag())) finite = false;
    }
    CUSCI_EXPECTS(finite, runtime_error, F + ": Root-finding calculation failed");
    if (small) {
      converged = true;
      break;
    }
  }
  // Above order ~40 the zeros are so ill-conditioned (y_N is ~1e-20 of its terms near them) that even
  // binary128 leaves |f / f'| at ~1e-13, above SciPy's 1e-15 (AMOS evaluates K with its exponential
  // scale factored out analytically). There the iteration has converged to its noise floor: the zeros
  // are accepted when that floor is below 1e-10 |x| (accurate to ~1e-12 relative), the Newton polish and
  // the 1e-15 sum check are skipped (the sum is checked to 1e-10 instead).
  double xmax = 0.0;
  for (const auto& v : x) xmax = std::max(xmax, std::abs(v));
  const bool floor_reached = !converged && noise <= 1e-10 * xmax;
  CUSCI_EXPECTS(converged || floor_reached, runtime_error, F + ": Zeros failed to converge");
  if (converged)
    for (auto& v : x) v = newton_complex(f, fp, v, F, 1e-15, 50);
  std::vector<cplx> y(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = np_div(np_add(x[i], std::conj(x[n - 1 - i])), R(2.0));
  cplx s(0.0, 0.0);
  for (const auto& v : y) s = np_add(s, v);
  CUSCI_EXPECTS(!(std::abs(np_add(s, R(1.0))) > (converged ? 1e-15 : 1e-10)), runtime_error,
                F + ": Generated zeros are inaccurate");
  return y;
}
}  // namespace

zpk_t besselap_zpk(int N, bessel_norm norm, const std::string& F) {
  CUSCI_EXPECTS(N >= 0, value_error, F + ": Filter order must be a nonnegative integer");
  zpk_t f{{}, {}, 1.0, true, false};
  if (N == 0) return f;
  const std::vector<cplx> zeros = bessel_zeros(N, F);
  f.p.resize(zeros.size());
  for (std::size_t i = 0; i < zeros.size(); ++i) f.p[i] = np_div(R(1.0), zeros[i]);
  // a_last = (2N)! / N! // 2^N = (2N - 1)!!, in double (and its log10 exactly enough).
  double a_last = 1.0, log10_a = 0.0;
  for (int j = 1; j <= 2 * N - 1; j += 2) {
    a_last *= j;
    log10_a += std::log10(static_cast<double>(j));
  }
  if (norm == bessel_norm::phase) {
    const double scale = std::pow(10.0, -log10_a / N);
    for (auto& p : f.p) p = np_mul(p, R(scale));
    f.k = 1.0;
  } else {
    f.k = a_last;
    if (norm == bessel_norm::mag) {
      const std::vector<cplx> p = f.p;
      const double k = a_last;
      auto cutoff = [&](double w) {
        cplx prod_(1.0, 0.0);
        for (const auto& v : p) prod_ = np_mul(prod_, np_sub(cplx(0.0, w), v));
        return std::abs(np_div(R(k), prod_)) - 1 / std::sqrt(2.0);
      };
      const double nf = newton_secant(cutoff, 1.5, F);
      for (auto& v : f.p) v = np_div(v, R(nf));
      f.k = std::pow(nf, -static_cast<double>(N)) * a_last;
    }
  }
  return f;
}

}  // namespace cusci::signal::detail::iir

namespace cusci::signal {
zpk_coeffs besselap(int N, bessel_norm norm) {
  return detail::iir::to_coeffs(detail::iir::besselap_zpk(N, norm, "cusci::signal::besselap"));
}
}  // namespace cusci::signal
