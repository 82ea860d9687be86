// (internal) Host numerics of the smoothing family, written with the standard library only (so that
// they can be checked against SciPy without a GPU): Householder least squares, Savitzky-Golay design,
// and the Whittaker-Henderson solver with its REML search.

#include "smoothing/smoothing_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cusci::signal::detail {
namespace {

/// Householder QR of the m x n row-major `a` in place: R in the upper triangle, the unit reflection
/// vectors returned (v_k has m - k entries). Column k is left untouched if it is already zero below.
std::vector<std::vector<double>> householder(std::vector<double>& a, std::int64_t m, std::int64_t n) {
  std::vector<std::vector<double>> vs(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    double norm = 0.0;
    for (std::int64_t i = k; i < m; ++i) norm = std::hypot(norm, a[i * n + k]);
    std::vector<double> v(static_cast<std::size_t>(m - k), 0.0);
    if (norm == 0.0) {
      vs[k] = v;  // zero vector: identity reflection
      continue;
    }
    const double x0 = a[k * n + k];
    const double alpha = x0 >= 0 ? -norm : norm;
    for (std::int64_t i = k; i < m; ++i) v[i - k] = a[i * n + k];
    v[0] -= alpha;
    double vn = 0.0;
    for (double t : v) vn = std::hypot(vn, t);
    if (vn == 0.0) {
      vs[k] = std::vector<double>(v.size(), 0.0);
      continue;
    }
    for (double& t : v) t /= vn;
    for (std::int64_t j = k; j < n; ++j) {
      double d = 0.0;
      for (std::int64_t i = k; i < m; ++i) d += v[i - k] * a[i * n + j];
      for (std::int64_t i = k; i < m; ++i) a[i * n + j] -= 2.0 * d * v[i - k];
    }
    vs[k] = std::move(v);
  }
  return vs;
}

void reflect(const std::vector<double>& v, std::int64_t k, std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) d += v[i] * b[k + i];
  for (std::size_t i = 0; i < v.size(); ++i) b[k + i] -= 2.0 * d * v[i];
}

}  // namespace

std::vector<double> qr_lstsq(std::vector<double> a, std::int64_t m, std::int64_t n, std::vector<double> b) {
  auto vs = householder(a, m, n);
  for (std::int64_t k = 0; k < n; ++k) reflect(vs[k], k, b);
  std::vector<double> c(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t k = n - 1; k >= 0; --k) {
    double s = b[k];
    for (std::int64_t j = k + 1; j < n; ++j) s -= a[k * n + j] * c[j];
    const double r = a[k * n + k];
    c[k] = r != 0.0 ? s / r : 0.0;  // a zero column (rank deficiency): its coefficient is 0
  }
  return c;
}

std::vector<double> qr_min_norm(std::vector<double> a, std::int64_t m, std::int64_t n, const std::vector<double>& rhs) {
  auto vs = householder(a, m, n);
  // a = Q R, a^T c = R^T (Q^T c) = rhs: z = R^-T rhs are the first n entries of Q^T c, the rest 0.
  std::vector<double> c(static_cast<std::size_t>(m), 0.0);
  for (std::int64_t k = 0; k < n; ++k) {
    double s = rhs[k];
    for (std::int64_t j = 0; j < k; ++j) s -= a[j * n + k] * c[j];
    const double r = a[k * n + k];
    c[k] = r != 0.0 ? s / r : 0.0;
  }
  for (std::int64_t k = n - 1; k >= 0; --k) reflect(vs[k], k, c);
  return c;
}

std::vector<double> savgol_design(std::int64_t wl, std::int64_t polyorder, int deriv, double delta, double pos,
                                  bool conv) {
  std::vector<double> zeros(static_cast<std::size_t>(wl), 0.0);
  if (deriv > polyorder) return zeros;
  // Abscissae -pos .. wl - 1 - pos (reversed for a convolution), scaled into [-1, 1] so that the
  // Vandermonde columns are well conditioned; the right-hand side absorbs the scale (the solution
  // set, hence the minimum-norm solution, is unchanged).
  std::vector<double> xs(static_cast<std::size_t>(wl));
  double s = 0.0;
  for (std::int64_t i = 0; i < wl; ++i) {
    xs[i] = -pos + static_cast<double>(i);
    s = std::max(s, std::abs(xs[i]));
  }
  if (conv) std::reverse(xs.begin(), xs.end());
  if (s == 0.0) s = 1.0;
  const std::int64_t n = polyorder + 1;
  std::vector<double> V(static_cast<std::size_t>(wl * n));
  for (std::int64_t i = 0; i < wl; ++i) {
    const double t = xs[i] / s;
    double p = 1.0;
    for (std::int64_t k = 0; k < n; ++k) {
      V[i * n + k] = p;
      p *= t;
    }
  }
  double fact = 1.0;
  for (int k = 2; k <= deriv; ++k) fact *= k;
  std::vector<double> rhs(static_cast<std::size_t>(n), 0.0);
  rhs[deriv] = fact / std::pow(delta, deriv) / std::pow(s, deriv);
  return qr_min_norm(std::move(V), wl, n, rhs);
}


// ------------------------------------------------------------------------------ Whittaker-Henderson

namespace {

constexpr double eps64 = std::numeric_limits<double>::epsilon();

/// Values at 0..n-1 of the weighted least-squares polynomial of degree deg (numpy's Polynomial.fit:
/// abscissae mapped onto [-1, 1], each residual multiplied by its weight).
std::vector<double> poly_fit_values(const std::vector<double>& y, const std::vector<double>* w, int deg) {
  const std::int64_t n = static_cast<std::int64_t>(y.size()), m = deg + 1;
  std::vector<double> V(static_cast<std::size_t>(n * m)), b(static_cast<std::size_t>(n));
  const double half = n > 1 ? 0.5 * static_cast<double>(n - 1) : 1.0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / half - 1.0;
    const double wi = w ? (*w)[i] : 1.0;
    double p = 1.0;
    for (std::int64_t k = 0; k < m; ++k) {
      V[i * m + k] = wi * p;
      p *= t;
    }
    b[i] = wi * y[i];
  }
  const std::vector<double> c = qr_lstsq(std::move(V), n, m, std::move(b));
  std::vector<double> out(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / half - 1.0;
    double v = 0.0;
    for (std::int64_t k = m - 1; k >= 0; --k) v = v * t + c[k];
    out[i] = v;
  }
  return out;
}

/// log of binom(N, k) for integer-valued k >= 0 (N >= k).
double log_binom(double N, int k) {
  double s = 0.0;
  for (int j = 1; j <= k; ++j) s += std::log((N - k + j) / j);
  return s;
}

}  // namespace

double wh_logdet_difference_matrix(int p, std::int64_t n) {
  const double nn = static_cast<double>(n);
  if (p == 1) return std::log(nn);
  double s = 0.0;
  for (int i = 1; i <= p; ++i) s += log_binom(nn + i - 1, 2 * i - 1) - log_binom(2.0 * i, i);
  return s + log_binom(2.0 * p, p);
}

wh_solution wh_solve(const std::vector<double>& y, const std::vector<double>* w, int p, double lamb,
                     bool calc_logdet) {
  const std::int64_t n = static_cast<std::int64_t>(y.size());
  // D'D of the p-th difference matrix, built for min(n, 2p + 1) points, as band rows ab[d][j] =
  // (D'D)[j + d][j]; for n > 2p + 1 the middle column repeats.
  const std::int64_t m = std::min<std::int64_t>(n, 2 * p + 1);
  std::vector<double> coef(static_cast<std::size_t>(p + 1));  // p-th difference: (-1)^(p-j) C(p, j)
  for (int j = 0; j <= p; ++j) {
    double c = 1.0;
    for (int t = 1; t <= j; ++t) c = c * (p - t + 1) / t;
    coef[j] = ((p - j) % 2 == 0) ? c : -c;
  }
  std::vector<double> P(static_cast<std::size_t>(m * m), 0.0);
  for (std::int64_t r = 0; r + p < m; ++r)
    for (int a = 0; a <= p; ++a)
      for (int b = 0; b <= p; ++b) P[(r + a) * m + (r + b)] += coef[a] * coef[b];
  const std::size_t np1 = static_cast<std::size_t>(p + 1);
  std::vector<std::vector<double>> small(np1, std::vector<double>(static_cast<std::size_t>(m), 0.0));
  for (std::size_t d = 0; d < np1; ++d)
    for (std::int64_t j = 0; j + static_cast<std::int64_t>(d) < m; ++j) small[d][j] = P[(j + d) * m + j];
  std::vector<std::vector<double>> ab(np1, std::vector<double>(static_cast<std::size_t>(n), 0.0));
  for (std::size_t d = 0; d < np1; ++d) {
    for (std::int64_t j = 0; j < n; ++j) {
      std::int64_t src;
      if (n <= 2 * p + 1 || j <= p) src = j;
      else if (j >= n - p) src = j - (n - m);
      else src = p;
      ab[d][j] = small[d][src] * lamb;
    }
  }
  auto poly = [&]() {
    wh_solution s;
    s.x = poly_fit_values(y, w, p - 1);
    s.logdet = calc_logdet ? static_cast<double>(n - p) * std::log(lamb) + wh_logdet_difference_matrix(p, n) : 0.0;
    s.polynomial = true;
    return s;
  };
  std::vector<double> rhs(y);
  if (w == nullptr) {
    if (lamb * eps64 > 8) return poly();
    for (std::int64_t j = 0; j < n; ++j) ab[0][j] += 1.0;
  } else {
    bool all_same = true;
    for (std::int64_t j = 0; j < n; ++j) all_same = all_same && (ab[0][j] == ab[0][j] + (*w)[j] * 8);
    if (all_same) return poly();
    for (std::int64_t j = 0; j < n; ++j) {
      ab[0][j] += (*w)[j];
      rhs[j] = (*w)[j] * y[j];
    }
  }
  // Banded Cholesky A = L L' in place (L[d][j] = L(j + d, j)), LAPACK pbtrf's breakdown test.
  for (std::int64_t j = 0; j < n; ++j) {
    double ajj = ab[0][j];
    for (int k = 1; k <= p && j - k >= 0; ++k) ajj -= ab[k][j - k] * ab[k][j - k];
    if (!(ajj > 0.0)) return poly();
    const double ljj = std::sqrt(ajj);
    ab[0][j] = ljj;
    for (int d = 1; d <= p && j + d < n; ++d) {
      // L(j + d, j) = (A(j + d, j) - sum_k L(j + d, k) L(j, k)) / L(j, j), k in [j + d - p, j)
      double s = ab[d][j];
      for (int k = 1; k <= p - d && j - k >= 0; ++k) s -= ab[d + k][j - k] * ab[k][j - k];
      ab[d][j] = s / ljj;
    }
  }
  // Solve L z = rhs, then L' x = z.
  std::vector<double> x(rhs);
  for (std::int64_t j = 0; j < n; ++j) {
    double s = x[j];
    for (int k = 1; k <= p && j - k >= 0; ++k) s -= ab[k][j - k] * x[j - k];
    x[j] = s / ab[0][j];
  }
  for (std::int64_t j = n - 1; j >= 0; --j) {
    double s = x[j];
    for (int k = 1; k <= p && j + k < n; ++k) s -= ab[k][j] * x[j + k];
    x[j] = s / ab[0][j];
  }
  wh_solution s;
  s.x = std::move(x);
  if (calc_logdet) {
    double ld = 0.0;
    for (std::int64_t j = 0; j < n; ++j) ld += std::log(ab[0][j]);
    s.logdet = 2.0 * ld;
  }
  return s;
}

double wh_reml(double lamb, const std::vector<double>& y, int p, const std::vector<double>* w) {
  const std::int64_t n = static_cast<std::int64_t>(y.size());
  const wh_solution s = wh_solve(y, w, p, lamb, true);
  const double ldd = wh_logdet_difference_matrix(p, n);
  double r2 = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double r = y[i] - s.x[i];
    r2 += w ? r * ((*w)[i] * r) : r * r;
  }
  // lamb * sum(diff(x, p)^2), the differences formed as numpy's repeated diff.
  std::vector<double> d(s.x);
  for (int k = 0; k < p; ++k) {
    for (std::size_t i = 0; i + 1 < d.size(); ++i) d[i] = d[i + 1] - d[i];
    d.pop_back();
  }
  double pen = 0.0;
  for (double v : d) pen += v * v;
  r2 += lamb * pen;
  const double nm = static_cast<double>(n - p);
  double reml = nm * (1.0 + std::log(r2 / nm));
  reml -= nm * std::log(lamb) + ldd;
  reml += s.logdet;
  return -0.5 * reml;
}

namespace {

/// Bracket a minimum downhill from xa, xb (the golden-ratio expansion with parabolic steps of
/// Numerical Recipes' mnbrak, as scipy.optimize.bracket, grow limit 110). Returns false when no
/// valid bracket was found (then x holds the best of the three points).
template <class F>
bool bracket_min(F&& f, double xa, double xb, double& a, double& b, double& c, double& fa, double& fb, double& fc) {
  const double gold = 1.618034, tiny = 1e-21, grow = 110.0;
  fa = f(xa);
  fb = f(xb);
  if (fa < fb) {
    std::swap(xa, xb);
    std::swap(fa, fb);
  }
  double xc = xb + gold * (xb - xa);
  fc = f(xc);
  int iter = 0;
  while (fc < fb) {
    const double t1 = (xb - xa) * (fb - fc), t2 = (xb - xc) * (fb - fa);
    const double val = t2 - t1;
    const double denom = std::abs(val) < tiny ? 2.0 * tiny : 2.0 * val;
    double w = xb - ((xb - xc) * t2 - (xb - xa) * t1) / denom;
    const double wlim = xb + grow * (xc - xb);
    if (iter > 1000) throw std::runtime_error("No valid bracket was found before the iteration limit was reached.");
    ++iter;
    double fw;
    if ((w - xc) * (xb - w) > 0.0) {
      fw = f(w);
      if (fw < fc) {
        xa = xb;
        xb = w;
        fa = fb;
        fb = fw;
        break;
      } else if (fw > fb) {
        xc = w;
        fc = fw;
        break;
      }
      w = xc + gold * (xc - xb);
      fw = f(w);
    } else if ((w - wlim) * (wlim - xc) >= 0.0) {
      w = wlim;
      fw = f(w);
    } else if ((w - wlim) * (xc - w) > 0.0) {
      fw = f(w);
      if (fw < fc) {
        xb = xc;
        xc = w;
        w = xc + gold * (xc - xb);
        fb = fc;
        fc = fw;
        fw = f(w);
      }
    } else {
      w = xc + gold * (xc - xb);
      fw = f(w);
    }
    xa = xb;
    xb = xc;
    xc = w;
    fa = fb;
    fb = fc;
    fc = fw;
  }
  a = xa;
  b = xb;
  c = xc;
  const bool c1 = (fb < fc && fb <= fa) || (fb < fa && fb <= fc);
  const bool c2 = (xa < xb && xb < xc) || (xc < xb && xb < xa);
  const bool c3 = std::isfinite(xa) && std::isfinite(xb) && std::isfinite(xc);
  return c1 && c2 && c3;
}

/// Brent's minimisation (golden section with parabolic interpolation) inside the bracket, with
/// scipy.optimize.Brent's tolerances (tol 1.48e-8 relative, 1e-11 absolute, 500 iterations).
template <class F>
double brent_min(F&& f, double xa, double xb, double xc, double fb) {
  const double tol = 1.48e-8, mintol = 1.0e-11, cg = 0.3819660;
  double x = xb, w = xb, v = xb, fw = fb, fv = fb, fx = fb;
  double a = xa < xc ? xa : xc, b = xa < xc ? xc : xa;
  double deltax = 0.0, rat = 0.0;
  for (int iter = 0; iter < 500; ++iter) {
    const double tol1 = tol * std::abs(x) + mintol, tol2 = 2.0 * tol1;
    const double xmid = 0.5 * (a + b);
    if (std::abs(x - xmid) < (tol2 - 0.5 * (b - a))) break;
    if (std::abs(deltax) <= tol1) {
      deltax = x >= xmid ? a - x : b - x;
      rat = cg * deltax;
    } else {
      double t1 = (x - w) * (fx - fv);
      double t2 = (x - v) * (fx - fw);
      double p = (x - v) * t2 - (x - w) * t1;
      t2 = 2.0 * (t2 - t1);
      if (t2 > 0.0) p = -p;
      t2 = std::abs(t2);
      const double dx_temp = deltax;
      deltax = rat;
      if (p > t2 * (a - x) && p < t2 * (b - x) && std::abs(p) < std::abs(0.5 * t2 * dx_temp)) {
        rat = p * 1.0 / t2;
        const double u = x + rat;
        if ((u - a) < tol2 || (b - u) < tol2) rat = (xmid - x >= 0) ? tol1 : -tol1;
      } else {
        deltax = x >= xmid ? a - x : b - x;
        rat = cg * deltax;
      }
    }
    const double u = std::abs(rat) < tol1 ? (rat >= 0 ? x + tol1 : x - tol1) : x + rat;
    const double fu = f(u);
    if (fu > fx) {
      if (u < x) a = u;
      else b = u;
      if (fu <= fw || w == x) {
        v = w;
        w = u;
        fv = fw;
        fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u;
        fv = fu;
      }
    } else {
      if (u >= x) a = x;
      else b = x;
      v = w;
      w = x;
      x = u;
      fv = fw;
      fw = fx;
      fx = fu;
    }
  }
  return x;
}

}  // namespace

double wh_reml_lamb(const std::vector<double>& y, int p, const std::vector<double>* w) {
  auto crit = [&](double loglamb) { return -wh_reml(std::exp(loglamb), y, p, w); };
  double a, b, c, fa, fb, fc;
  if (!bracket_min(crit, -10.0, 10.0, a, b, c, fa, fb, fc)) {
    // scipy.optimize.minimize_scalar: the best of the three points (NaN if any is NaN).
    const double xs[3] = {a, b, c}, fs[3] = {fa, fb, fc};
    for (int i = 0; i < 3; ++i)
      if (std::isnan(xs[i]) || std::isnan(fs[i])) return std::exp(std::nan(""));
    int best = 0;
    for (int i = 1; i < 3; ++i)
      if (fs[i] < fs[best]) best = i;
    return std::exp(xs[best]);
  }
  return std::exp(brent_min(crit, a, b, c, fb));
}

}  // namespace cusci::signal::detail
