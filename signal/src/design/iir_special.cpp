// The numerical helpers SciPy's IIR design borrows from scipy.special and scipy.optimize, written for
// cusci (host, double precision): complete elliptic integral K (cephes ellpk's domain rules, computed
// by the arithmetic-geometric mean), Jacobi elliptic functions (cephes ellpj: descending Landen / AGM
// with the small-m and m-near-1 expansions), bounded Brent minimization (scipy.optimize.fminbound) and
// Newton / secant iterations (scipy.optimize.newton), each following SciPy's iteration step by step so
// that results (and iteration counts) agree.

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <utility>

#include "cusci/error.hpp"
#include "design/iir_internal.hpp"
#include "windows/windows.hpp"

namespace cusci::signal::detail::iir {

namespace {
constexpr double pi = 3.14159265358979323846;
constexpr double machep = 1.11022302462515654042e-16;
}  // namespace

double ellpk(double x) {
  if (std::isnan(x) || x < 0.0) return std::numeric_limits<double>::quiet_NaN();
  if (x > 1.0) {
    if (std::isinf(x)) return 0.0;
    return ellpk(1.0 / x) / std::sqrt(x);
  }
  if (x == 0.0) return std::numeric_limits<double>::infinity();
  // K(m) = pi / (2 agm(1, sqrt(1 - m))), 1 - m = x.
  double a = 1.0, g = std::sqrt(x);
  for (int i = 0; i < 64 && std::abs(a - g) > 2.0 * machep * a; ++i) {
    const double an = 0.5 * (a + g);
    g = std::sqrt(a * g);
    a = an;
  }
  return pi / (a + g);
}

jacobi_t ellipj(double u, double m) {
  jacobi_t r{};
  if (std::isnan(m) || m < 0.0 || m > 1.0) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, nan, nan};
  }
  if (m < 1.0e-9) {
    const double t = std::sin(u), b = std::cos(u);
    const double ai = 0.25 * m * (u - t * b);
    r.sn = t - ai * b;
    r.cn = b + ai * t;
    r.ph = u - ai;
    r.dn = 1.0 - 0.5 * m * t * t;
    return r;
  }
  if (m >= 0.9999999999) {
    double ai = 0.25 * (1.0 - m);
    const double b = std::cosh(u), t = std::tanh(u), phi = 1.0 / b;
    const double twon = b * std::sinh(u);
    r.sn = t + ai * (twon - u) / (b * b);
    r.ph = 2.0 * std::atan(std::exp(u)) - pi / 2 + ai * (twon - u) / b;
    ai *= t * phi;
    r.cn = phi - ai * (twon - u);
    r.dn = phi + ai * (twon + u);
    return r;
  }
  double a[9], c[9];
  a[0] = 1.0;
  double b = std::sqrt(1.0 - m);
  c[0] = std::sqrt(m);
  double twon = 1.0;
  int i = 0;
  while (std::abs(c[i] / a[i]) > machep) {
    if (i > 7) break;  // cephes: overflow error, continues with what it has
    const double ai = a[i];
    ++i;
    c[i] = (ai - b) / 2.0;
    const double t = std::sqrt(ai * b);
    a[i] = (ai + b) / 2.0;
    b = t;
    twon *= 2.0;
  }
  double phi = twon * a[i] * u;
  double bb = 0.0;
  do {
    const double t = c[i] * std::sin(phi) / a[i];
    bb = phi;
    phi = (std::asin(t) + phi) / 2.0;
  } while (--i);
  r.sn = std::sin(phi);
  const double t = std::cos(phi);
  r.cn = t;
  r.dn = t / std::cos(phi - bb);
  r.ph = phi;
  return r;
}

double fminbound(const std::function<double(double)>& func, double x1, double x2, double xatol, int maxfun,
                 const std::string& F) {
  CUSCI_EXPECTS(std::isfinite(x1) && std::isfinite(x2), value_error, F + ": Optimization bounds must be finite scalars.");
  CUSCI_EXPECTS(!(x1 > x2), value_error, F + ": The lower bound exceeds the upper bound.");
  const double sqrt_eps = std::sqrt(2.2e-16);
  const double golden_mean = 0.5 * (3.0 - std::sqrt(5.0));
  double a = x1, b = x2;
  double fulc = a + golden_mean * (b - a);
  double nfc = fulc, xf = fulc;
  double rat = 0.0, e = 0.0;
  double x = xf;
  double fx = func(x);
  int num = 1;
  double ffulc = fx, fnfc = fx;
  double xm = 0.5 * (a + b);
  double tol1 = sqrt_eps * std::abs(xf) + xatol / 3.0;
  double tol2 = 2.0 * tol1;
  auto sign = [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : (v == 0 ? 0.0 : v)); };
  while (std::abs(xf - xm) > (tol2 - 0.5 * (b - a))) {
    bool golden = true;
    if (std::abs(e) > tol1) {
      golden = false;
      double r = (xf - nfc) * (fx - ffulc);
      double q = (xf - fulc) * (fx - fnfc);
      double p = (xf - fulc) * q - (xf - nfc) * r;
      q = 2.0 * (q - r);
      if (q > 0.0) p = -p;
      q = std::abs(q);
      r = e;
      e = rat;
      if ((std::abs(p) < std::abs(0.5 * q * r)) && (p > q * (a - xf)) && (p < q * (b - xf))) {
        rat = (p + 0.0) / q;
        x = xf + rat;
        if (((x - a) < tol2) || ((b - x) < tol2)) {
          const double si = sign(xm - xf) + ((xm - xf) == 0 ? 1.0 : 0.0);
          rat = tol1 * si;
        }
      } else {
        golden = true;
      }
    }
    if (golden) {
      e = (xf >= xm) ? a - xf : b - xf;
      rat = golden_mean * e;
    }
    const double si = sign(rat) + (rat == 0 ? 1.0 : 0.0);
    x = xf + si * std::max(std::abs(rat), tol1);
    const double fu = func(x);
    ++num;
    if (fu <= fx) {
      if (x >= xf)
        a = xf;
      else
        b = xf;
      fulc = nfc;
      ffulc = fnfc;
      nfc = xf;
      fnfc = fx;
      xf = x;
      fx = fu;
    } else {
      if (x < xf)
        a = x;
      else
        b = x;
      if ((fu <= fnfc) || (nfc == xf)) {
        fulc = nfc;
        ffulc = fnfc;
        nfc = x;
        fnfc = fu;
      } else if ((fu <= ffulc) || (fulc == xf) || (fulc == nfc)) {
        fulc = x;
        ffulc = fu;
      }
    }
    xm = 0.5 * (a + b);
    tol1 = sqrt_eps * std::abs(xf) + xatol / 3.0;
    tol2 = 2.0 * tol1;
    if (num >= maxfun) break;
  }
  return xf;
}

double newton_secant(const std::function<double(double)>& func, double x0, const std::string& F, double tol,
                     int maxiter) {
  double p0 = x0;
  const double eps = 1e-4;
  double p1 = x0 * (1 + eps);
  p1 += (p1 >= 0 ? eps : -eps);
  double q0 = func(p0), q1 = func(p1);
  if (std::abs(q1) < std::abs(q0)) {
    std::swap(p0, p1);
    std::swap(q0, q1);
  }
  double p = p1;
  for (int itr = 0; itr < maxiter; ++itr) {
    if (q1 == q0) {
      if (p1 != p0)
        throw runtime_error(F + ": Tolerance of " + fmt(p1 - p0) + " reached. Failed to converge after " +
                            std::to_string(itr + 1) + " iterations, value is " + fmt(p1) + ".");
      return (p1 + p0) / 2.0;
    }
    if (std::abs(q1) > std::abs(q0))
      p = (-q0 / q1 * p1 + p0) / (1 - q0 / q1);
    else
      p = (-q1 / q0 * p0 + p1) / (1 - q1 / q0);
    if (std::abs(p - p1) <= tol || p == p1) return p;
    p0 = p1;
    q0 = q1;
    p1 = p;
    q1 = func(p1);
  }
  throw runtime_error(F + ": Failed to converge after " + std::to_string(maxiter) + " iterations, value is " + fmt(p) +
                      ".");
}

cplx newton_complex(const std::function<cplx(cplx)>& func, const std::function<cplx(cplx)>& fprime, cplx x0,
                    const std::string& F, double tol, int maxiter) {
  cplx p0 = x0;
  for (int itr = 0; itr < maxiter; ++itr) {
    const cplx fval = func(p0);
    if (fval == cplx(0.0, 0.0)) return p0;
    const cplx fder = fprime(p0);
    if (fder == cplx(0.0, 0.0))
      throw runtime_error(F + ": Derivative was zero. Failed to converge after " + std::to_string(itr + 1) +
                          " iterations.");
    const cplx step = zpk::np_div(fval, fder);
    const cplx p = p0 - step;
    if (std::abs(p - p0) <= tol || p == p0) return p;
    p0 = p;
  }
  throw runtime_error(F + ": Failed to converge after " + std::to_string(maxiter) + " iterations.");
}

}  // namespace cusci::signal::detail::iir
