// Bessel/Thomson analog prototype (host, double precision), following SciPy 1.18's besselap: the poles
// are the reciprocals of the zeros of the ordinary Bessel polynomial y_N, found with Campos & Calderon's
// start values, the Aberth-Ehrlich iteration (tol 1e-15, 50 iterations) and a Newton polish
// (scipy.optimize.newton, tol 1e-15) on f(x) = exp(1/x) K_{N+1/2}(1/x), then averaged with their
// conjugates and checked (sum of the zeros = -1 to 1e-15); normalized for phase, delay or magnitude (the
// -3 dB point by scipy.optimize.newton's secant method from 1.5).
//
// Evaluating f. SciPy calls scipy.special.kve (AMOS). For a half-integer order kve is elementary,
//   kve(m + 1/2, 1/x) = sqrt(pi x / 2) y_m(x),
// and the factor sqrt(pi x / 2) cancels in every Newton / Aberth step (f / f' is the same with or without
// it), so only y_{N-1}, y_N, y_{N+1} at x are needed. Summing the polynomial (or running its three-term
// recurrence y_{m+1} = (2m + 1) x y_m + y_{m-1}) is hopeless near the zeros, though: with w = -1/x
// (Re w > 0 for the zeros, which lie in the left half plane), y_m(x) is the sum of an I-part of size
// ~1 and a K-part, and the recurrence amplifies rounding by up to e^{2 Re w} (~1e23 at order 40, ~1e48
// at order 84): even binary128 fails above order ~45. Instead the two parts are computed separately, each without
// cancellation (AMOS does the same: K(z) for Re z < 0 by analytic continuation from -z):
//   y_m(-1/w) = ihat_m(w) + (-1)^m e^{-2w} y_m(1/w),    ihat_m(w) = sqrt(2 pi w) e^{-w} I_{m+1/2}(w),
// - y_m(1/w), Re(1/w) > 0: the forward recurrence, which is stable there (its solution is the dominant
//   K_{m+1/2}(w) one);
// - ihat_m: I_{m+1/2} is the minimal solution of the recurrence in m, so the ratio I_{N+3/2} / I_{N+1/2}
//   comes from its continued fraction (modified Lentz) and the backward recurrence runs from there down
//   to orders 1/2 and -1/2, where ihat is known (1 - e^{-2w} and 1 + e^{-2w}: normalize by the larger).
// Near x = 0 (|x| N (N + 1) <= 1, y_m ~ 1) and for Re x >= 0 the forward recurrence in x is accurate and
// used directly. Against exact values (orders 1-84, at the zeros, the start values and random points) the
// relative error is <= 1.5e-14 (AMOS': <= 2e-13); the Newton steps at the exact zeros are <= 5e-17
// (AMOS': <= 4e-16), and the zeros agree with SciPy's to ~3e-15 relative.
//
// Orders above 84: AMOS' kve returns 0 at some of the start values for orders >= 86.5, and SciPy's
// besselap fails (85: "Zeros failed to converge", 86: "Generated zeros are inaccurate", from 87:
// "Root-finding calculation failed"). The evaluation here has no such limit, but besselap raises SciPy's
// errors for those orders so that both accept the same orders.

#include <algorithm>
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

// Highest order SciPy 1.18.1's besselap handles (see the top of this file).
constexpr int kMaxOrder = 84;

// y_{N-1}(x), y_N(x), y_{N+1}(x).
struct ytrio {
  cplx lo, mid, hi;
};

// y_m(v) for m = N-1, N, N+1 by the forward recurrence (stable where Re v >= 0 or |v| N (N + 1) <= 1).
ytrio forward_y(int N, const cplx& v) {
  cplx before(0.0, 0.0), prev(1.0, 0.0), cur = 1.0 + v;  // y_{m-2}, y_{m-1}, y_m from m = 1
  for (int m = 1; m <= N; ++m) {
    const cplx next = static_cast<double>(2 * m + 1) * v * cur + prev;
    before = prev;
    prev = cur;
    cur = next;
  }
  return {before, prev, cur};
}

// ihat_m(w) = sqrt(2 pi w) e^{-w} I_{m+1/2}(w) for m = N-1, N, N+1 (Re w > 0), given e2 = e^{-2w}.
ytrio ihat(int N, const cplx& w, const cplx& e2) {
  // Ratio h = I_{N+3/2}(w) / I_{N+1/2}(w) = 1 / (b_1 + 1 / (b_2 + ...)), b_k = 2 (N + 1/2 + k) / w.
  const double tiny = 1e-300;
  const cplx winv = 1.0 / w;
  cplx h(tiny, 0.0), C = h, D(0.0, 0.0);
  const int kmax = 100000 + 4 * N;
  for (int k = 1; k <= kmax; ++k) {
    const cplx b = (2.0 * (N + 0.5 + k)) * winv;
    D = b + D;
    if (D == cplx(0.0, 0.0)) D = tiny;
    C = b + 1.0 / C;
    if (C == cplx(0.0, 0.0)) C = tiny;
    D = 1.0 / D;
    const cplx delta = C * D;
    h *= delta;
    if (std::abs(delta - 1.0) <= 2.3e-16) break;
  }
  // Backward: q_{m-1} = (2 (m + 1/2) / w) q_m + q_{m+1}, from q_N = 1, q_{N+1} = h down to q_{-1},
  // rescaled (with the kept q_{N-1..N+1}) before it can overflow.
  ytrio q{cplx(0.0, 0.0), cplx(1.0, 0.0), h};
  cplx qm = 1.0, qp = h;  // q_m, q_{m+1}
  cplx q0(0.0, 0.0);
  for (int m = N; m >= 0; --m) {
    const cplx qn = (2.0 * (m + 0.5)) * winv * qm + qp;  // q_{m-1}
    qp = qm;
    qm = qn;
    if (m == N) q.lo = qn;
    if (m == 1) q0 = qn;
    if (std::max(std::abs(qm.real()), std::abs(qm.imag())) > 1e200) {
      qm *= 1e-200;
      qp *= 1e-200;
      q0 *= 1e-200;
      q.lo *= 1e-200;
      q.mid *= 1e-200;
      q.hi *= 1e-200;
    }
  }
  // qm = q_{-1}, q0 = q_0 (orders -1/2 and 1/2).
  const cplx i_half = 1.0 - e2, i_mhalf = 1.0 + e2;
  const cplx scale = std::abs(i_half) >= std::abs(i_mhalf) ? i_half / q0 : i_mhalf / qm;
  return {q.lo * scale, q.mid * scale, q.hi * scale};
}

// y_{N-1}, y_N, y_{N+1} at x (see the top of this file).
ytrio bessel_y(int N, const cplx& x) {
  const double nn = static_cast<double>(N) * (N + 1);
  if (!(x.real() < 0.0) || !(std::abs(x) * nn > 1.0)) return forward_y(N, x);
  const cplx w = -1.0 / x;
  const cplx e2 = std::exp(-2.0 * w);
  const ytrio i = ihat(N, w, e2);
  const ytrio k = forward_y(N, -x);  // y_m(1/w)
  // (-1)^m e^{-2w} for m = N - 1, N, N + 1
  const cplx sN = (N % 2 == 0) ? e2 : -e2;
  return {i.lo - sN * k.lo, i.mid + sN * k.mid, i.hi - sN * k.hi};
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
  // SciPy's failures above order 84 (AMOS' kve; see the top of this file), in its words.
  CUSCI_EXPECTS(N != kMaxOrder + 1, runtime_error, F + ": Zeros failed to converge");
  CUSCI_EXPECTS(N != kMaxOrder + 2, runtime_error, F + ": Generated zeros are inaccurate");
  CUSCI_EXPECTS(N <= kMaxOrder, runtime_error, F + ": Root-finding calculation failed");
  std::vector<cplx> x = campos_zeros(N);
  // f = kve(N + 1/2, 1/x) ~ y_N(x) and f' = [kve(N - 1/2, 1/x) - 2 kve(N + 1/2, 1/x) + kve(N + 3/2, 1/x)] /
  // (2 x^2) ~ [y_{N-1}(x) / 2 - y_N(x) + y_{N+1}(x) / 2] / x^2, both without the factor sqrt(pi x / 2).
  auto deriv = [](const ytrio& y, const cplx& v) {
    return np_div(np_sub(np_mul(R(0.5), np_add(y.lo, y.hi)), y.mid), np_mul(v, v));
  };
  // Aberth-Ehrlich iteration (SciPy's _aberth: tol 1e-15, maxiter 50).
  const std::size_t n = x.size();
  std::vector<cplx> alpha(n), beta(n);
  bool converged = false;
  for (int it = 0; it < 50 && !converged; ++it) {
    bool small = true;
    for (std::size_t k = 0; k < n; ++k) {
      const ytrio y = bessel_y(N, x[k]);
      // kve overflows to inf (and alpha to NaN) where sqrt(pi |x| / 2) |y_N(x)| exceeds the double range.
      CUSCI_EXPECTS(std::isfinite(std::abs(y.mid) * std::sqrt(3.14159265358979323846 * std::abs(x[k]) / 2)),
                    runtime_error, F + ": Root-finding calculation failed");
      alpha[k] = np_sub(R(0.0), np_div(y.mid, deriv(y, x[k])));
      if (!(std::abs(alpha[k]) <= 1e-15)) small = false;
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
    converged = small;
  }
  CUSCI_EXPECTS(converged, runtime_error, F + ": Zeros failed to converge");
  // Newton polish of each zero (scipy.optimize.newton with fprime, tol 1e-15, maxiter 50).
  for (auto& v : x) {
    cplx p0 = v;
    bool done = false;
    for (int itr = 0; itr < 50 && !done; ++itr) {
      const ytrio y = bessel_y(N, p0);
      if (y.mid == cplx(0.0, 0.0)) {  // an exact zero: newton returns it
        done = true;
        break;
      }
      const cplx fder = deriv(y, p0);
      CUSCI_EXPECTS(fder != cplx(0.0, 0.0), runtime_error,
                    F + ": Derivative was zero. Failed to converge after " + std::to_string(itr + 1) + " iterations.");
      const cplx p = np_sub(p0, np_div(y.mid, fder));
      done = std::abs(p - p0) <= 1e-15 || p == p0;
      p0 = p;
    }
    CUSCI_EXPECTS(done, runtime_error, F + ": Failed to converge after 50 iterations.");
    v = p0;
  }
  std::vector<cplx> y(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = np_div(np_add(x[i], std::conj(x[n - 1 - i])), R(2.0));
  cplx s(0.0, 0.0);
  for (const auto& v : y) s = np_add(s, v);
  CUSCI_EXPECTS(!(std::abs(np_add(s, R(1.0))) > 1e-15), runtime_error, F + ": Generated zeros are inaccurate");
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
  CUSCI_NVTX_SCOPE("cusci::signal::besselap");
  return detail::iir::to_coeffs(detail::iir::besselap_zpk(N, norm, "cusci::signal::besselap"));
}
}  // namespace cusci::signal
