// Host symmetric eigenproblems.
// eigh: Householder reduction to tridiagonal form with the transformation accumulated, then the implicit
//   QL algorithm with Wilkinson shifts (EISPACK tred2 / tql2); eigenvalues ascending.
// eigh_tridiagonal: selected eigenvalues by bisection on Sturm counts (LAPACK stebz) and eigenvectors by
//   inverse iteration with a pivoted tridiagonal LU, reorthogonalised within clusters, normalised so
//   that the largest-magnitude component is positive (LAPACK stein). O(n) per eigenvalue and iteration.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"

namespace cusci::detail::hostla {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Householder tridiagonalisation of the symmetric n x n row-major z (overwritten with the orthogonal
// transformation); d diagonal, e[i] sub-diagonal with e[0] = 0 on return (EISPACK tred2 layout).
void tred2(std::int64_t n, rmat& z, std::vector<double>& d, std::vector<double>& e) {
  auto D = [&](std::int64_t i) -> double& { return d[static_cast<std::size_t>(i)]; };
  auto E = [&](std::int64_t i) -> double& { return e[static_cast<std::size_t>(i)]; };
  for (std::int64_t j = 0; j < n; ++j) D(j) = z(n - 1, j);
  for (std::int64_t i = n - 1; i > 0; --i) {
    double scale = 0, h = 0;
    for (std::int64_t k = 0; k < i; ++k) scale += std::fabs(D(k));
    if (scale == 0) {
      E(i) = D(i - 1);
      for (std::int64_t j = 0; j < i; ++j) {
        D(j) = z(i - 1, j);
        z(i, j) = 0;
        z(j, i) = 0;
      }
    } else {
      for (std::int64_t k = 0; k < i; ++k) {
        D(k) /= scale;
        h += D(k) * D(k);
      }
      double f = D(i - 1);
      double g = std::sqrt(h);
      if (f > 0) g = -g;
      E(i) = scale * g;
      h -= f * g;
      D(i - 1) = f - g;
      for (std::int64_t j = 0; j < i; ++j) E(j) = 0;
      for (std::int64_t j = 0; j < i; ++j) {
        f = D(j);
        z(j, i) = f;
        g = E(j) + z(j, j) * f;
        for (std::int64_t k = j + 1; k <= i - 1; ++k) {
          g += z(k, j) * D(k);
          E(k) += z(k, j) * f;
        }
        E(j) = g;
      }
      f = 0;
      for (std::int64_t j = 0; j < i; ++j) {
        E(j) /= h;
        f += E(j) * D(j);
      }
      const double hh = f / (h + h);
      for (std::int64_t j = 0; j < i; ++j) E(j) -= hh * D(j);
      for (std::int64_t j = 0; j < i; ++j) {
        f = D(j);
        g = E(j);
        for (std::int64_t k = j; k <= i - 1; ++k) z(k, j) -= (f * E(k) + g * D(k));
        D(j) = z(i - 1, j);
        z(i, j) = 0;
      }
    }
    D(i) = h;
  }
  // accumulate transformations
  for (std::int64_t i = 0; i < n - 1; ++i) {
    z(n - 1, i) = z(i, i);
    z(i, i) = 1;
    const double h = D(i + 1);
    if (h != 0) {
      for (std::int64_t k = 0; k <= i; ++k) D(k) = z(k, i + 1) / h;
      for (std::int64_t j = 0; j <= i; ++j) {
        double g = 0;
        for (std::int64_t k = 0; k <= i; ++k) g += z(k, i + 1) * z(k, j);
        for (std::int64_t k = 0; k <= i; ++k) z(k, j) -= g * D(k);
      }
    }
    for (std::int64_t k = 0; k <= i; ++k) z(k, i + 1) = 0;
  }
  for (std::int64_t j = 0; j < n; ++j) {
    D(j) = z(n - 1, j);
    z(n - 1, j) = 0;
  }
  z(n - 1, n - 1) = 1;
  E(0) = 0;
}

// Implicit QL with shifts on the tridiagonal (d, e from tred2), rotating the columns of z.
bool tql2(std::int64_t n, rmat& z, std::vector<double>& d, std::vector<double>& e) {
  auto D = [&](std::int64_t i) -> double& { return d[static_cast<std::size_t>(i)]; };
  auto E = [&](std::int64_t i) -> double& { return e[static_cast<std::size_t>(i)]; };
  for (std::int64_t i = 1; i < n; ++i) E(i - 1) = E(i);
  E(n - 1) = 0;
  double f = 0, tst1 = 0;
  for (std::int64_t l = 0; l < n; ++l) {
    tst1 = std::max(tst1, std::fabs(D(l)) + std::fabs(E(l)));
    std::int64_t m = l;
    while (m < n) {
      if (std::fabs(E(m)) <= kEps * tst1) break;
      ++m;
    }
    if (m == n) m = n - 1;
    if (m > l) {
      int iter = 0;
      do {
        if (++iter > 60) return false;
        double g = D(l);
        double p = (D(l + 1) - g) / (2 * E(l));
        double r = std::hypot(p, 1.0);
        if (p < 0) r = -r;
        D(l) = E(l) / (p + r);
        D(l + 1) = E(l) * (p + r);
        const double dl1 = D(l + 1);
        double h = g - D(l);
        for (std::int64_t i = l + 2; i < n; ++i) D(i) -= h;
        f += h;
        p = D(m);
        double c = 1, c2 = 1, c3 = 1, el1 = E(l + 1), s = 0, s2 = 0;
        for (std::int64_t i = m - 1; i >= l; --i) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * E(i);
          h = c * p;
          r = std::hypot(p, E(i));
          E(i + 1) = s * r;
          s = E(i) / r;
          c = p / r;
          p = c * D(i) - s * g;
          D(i + 1) = h + s * (c * g + s * D(i));
          for (std::int64_t k = 0; k < n; ++k) {
            h = z(k, i + 1);
            z(k, i + 1) = s * z(k, i) + c * h;
            z(k, i) = c * z(k, i) - s * h;
          }
        }
        p = -s * s2 * c3 * el1 * E(l) / dl1;
        E(l) = s * p;
        D(l) = c * p;
      } while (std::fabs(E(l)) > kEps * tst1);
    }
    D(l) = D(l) + f;
    E(l) = 0;
  }
  return true;
}

// Number of eigenvalues of the tridiagonal (d, e2 = e^2) strictly less than x (Sturm sequence).
std::int64_t sturm_count(const std::vector<double>& d, const std::vector<double>& e2, double x, double pivmin) {
  const std::size_t n = d.size();
  std::int64_t c = 0;
  double q = d[0] - x;
  if (std::fabs(q) < pivmin) q = -pivmin;
  if (q < 0) ++c;
  for (std::size_t i = 1; i < n; ++i) {
    q = d[i] - x - e2[i - 1] / q;
    if (std::fabs(q) < pivmin) q = -pivmin;
    if (q < 0) ++c;
  }
  return c;
}

// Inverse iteration for eigenvalue lam of the tridiagonal (d, e): x (size n) in/out. Work arrays given.
struct tri_lu {
  std::vector<double> a, b, c, c2;  // U diagonal, first and second super-diagonals; multipliers in l
  std::vector<double> l;
  std::vector<char> swapped;
};

void factor_shifted(const std::vector<double>& d, const std::vector<double>& e, double lam, double tiny, tri_lu& f) {
  const std::size_t n = d.size();
  for (std::size_t i = 0; i < n; ++i) {
    f.a[i] = d[i] - lam;
    f.b[i] = i + 1 < n ? e[i] : 0.0;
    f.c2[i] = 0.0;
  }
  // c[i] holds the sub-diagonal entry below row i (entry (i+1, i)) before elimination
  for (std::size_t i = 0; i + 1 < n; ++i) f.c[i] = e[i];
  for (std::size_t i = 0; i + 1 < n; ++i) {
    // rows i and i+1, column i: a[i] (pivot row i) and sub = c[i]
    const double sub = f.c[i];
    if (std::fabs(sub) > std::fabs(f.a[i])) {
      // swap rows i and i+1: row i+1 = [sub, d[i+1]-lam, e[i+1]]
      f.swapped[i] = 1;
      const double ra = sub, rb = f.a[i + 1], rc = (i + 2 < n) ? f.b[i + 1] : 0.0;
      const double oa = f.a[i], ob = f.b[i];
      const double mult = oa / ra;
      f.l[i] = mult;
      f.a[i] = ra;
      f.b[i] = rb;
      f.c2[i] = rc;
      f.a[i + 1] = ob - mult * rb;
      f.b[i + 1] = -mult * rc;
    } else {
      f.swapped[i] = 0;
      double piv = f.a[i];
      if (piv == 0) piv = f.a[i] = tiny;
      const double mult = sub / piv;
      f.l[i] = mult;
      f.c2[i] = 0.0;
      f.a[i + 1] -= mult * f.b[i];
    }
  }
  if (f.a[n - 1] == 0) f.a[n - 1] = tiny;
  for (std::size_t i = 0; i < n; ++i)
    if (f.a[i] == 0) f.a[i] = tiny;
}

void solve_shifted(const tri_lu& f, std::vector<double>& x) {
  const std::size_t n = x.size();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (f.swapped[i]) std::swap(x[i], x[i + 1]);
    x[i + 1] -= f.l[i] * x[i];
  }
  for (std::size_t ii = n; ii-- > 0;) {
    double s = x[ii];
    if (ii + 1 < n) s -= f.b[ii] * x[ii + 1];
    if (ii + 2 < n) s -= f.c2[ii] * x[ii + 2];
    x[ii] = s / f.a[ii];
    if (!std::isfinite(x[ii])) x[ii] = std::copysign(1e300, x[ii]);
  }
}

}  // namespace

eigh_result eigh(const rmat& a, const char* fn) {
  if (a.m != a.n)
    throw cusci::value_error(std::string(fn) + ": matrix must be square, got shape (" + std::to_string(a.m) + ", " +
                             std::to_string(a.n) + ")");
  for (double x : a.v)
    if (!std::isfinite(x)) throw cusci::value_error(std::string(fn) + ": array must not contain infs or NaNs");
  const std::int64_t n = a.n;
  eigh_result r;
  if (n == 0) return r;
  // use the lower triangle, as LAPACK's default UPLO='L'
  rmat z(n, n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) z(i, j) = z(j, i) = a(i, j);
  std::vector<double> d(static_cast<std::size_t>(n)), e(static_cast<std::size_t>(n));
  tred2(n, z, d, e);
  if (!tql2(n, z, d, e)) throw cusci::runtime_error(std::string(fn) + ": eigenvalues did not converge");
  // sort ascending (selection keeps the cost O(n^2))
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
    return d[static_cast<std::size_t>(x)] < d[static_cast<std::size_t>(y)];
  });
  r.values.resize(static_cast<std::size_t>(n));
  r.vectors = rmat(n, n);
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t src = order[static_cast<std::size_t>(j)];
    r.values[static_cast<std::size_t>(j)] = d[static_cast<std::size_t>(src)];
    for (std::int64_t i = 0; i < n; ++i) r.vectors(i, j) = z(i, src);
  }
  return r;
}

eigh_result eigh_tridiagonal(const std::vector<double>& d, const std::vector<double>& e, std::int64_t lo,
                             std::int64_t hi, const char* fn) {
  const std::int64_t n = static_cast<std::int64_t>(d.size());
  if (n == 0) throw cusci::value_error(std::string(fn) + ": the diagonal must not be empty");
  if (static_cast<std::int64_t>(e.size()) != n - 1)
    throw cusci::value_error(std::string(fn) + ": the off-diagonal must have length " + std::to_string(n - 1) +
                             ", got " + std::to_string(e.size()));
  if (lo < 0 || hi < lo || hi >= n)
    throw cusci::value_error(std::string(fn) + ": select_range must satisfy 0 <= lo <= hi < " + std::to_string(n) +
                             ", got (" + std::to_string(lo) + ", " + std::to_string(hi) + ")");
  for (double x : d)
    if (!std::isfinite(x)) throw cusci::value_error(std::string(fn) + ": array must not contain infs or NaNs");
  for (double x : e)
    if (!std::isfinite(x)) throw cusci::value_error(std::string(fn) + ": array must not contain infs or NaNs");
  const std::int64_t k = hi - lo + 1;
  std::vector<double> e2(static_cast<std::size_t>(std::max<std::int64_t>(n - 1, 0)));
  double emax2 = 0, tnorm = 0;
  for (std::int64_t i = 0; i + 1 < n; ++i) {
    e2[static_cast<std::size_t>(i)] = e[static_cast<std::size_t>(i)] * e[static_cast<std::size_t>(i)];
    emax2 = std::max(emax2, e2[static_cast<std::size_t>(i)]);
  }
  // Gershgorin interval
  double gl = std::numeric_limits<double>::infinity(), gu = -gl;
  for (std::int64_t i = 0; i < n; ++i) {
    const double r = (i > 0 ? std::fabs(e[static_cast<std::size_t>(i - 1)]) : 0.0) +
                     (i + 1 < n ? std::fabs(e[static_cast<std::size_t>(i)]) : 0.0);
    gl = std::min(gl, d[static_cast<std::size_t>(i)] - r);
    gu = std::max(gu, d[static_cast<std::size_t>(i)] + r);
    tnorm = std::max(tnorm, std::fabs(d[static_cast<std::size_t>(i)]) + r);
  }
  const double safmin = std::numeric_limits<double>::min();
  const double pivmin = std::max(safmin, safmin * emax2);
  const double span = gu - gl;
  gl -= 2 * kEps * span * static_cast<double>(n) + 2 * pivmin;
  gu += 2 * kEps * span * static_cast<double>(n) + 2 * pivmin;
  // stebz's tolerances with abstol <= 0 (SciPy's tol=0): ulp * max(|gl|, |gu|) absolute, 2 ulp relative
  const double atoli = kEps * std::max(std::fabs(gl), std::fabs(gu));
  eigh_result r;
  r.values.resize(static_cast<std::size_t>(k));
  // bisection for each wanted index j: the smallest x with count(x) > j
  for (std::int64_t q = 0; q < k; ++q) {
    const std::int64_t j = lo + q;
    double a = gl, b = gu;
    if (q > 0) a = std::max(a, r.values[static_cast<std::size_t>(q - 1)] - 4 * kEps * tnorm);
    for (int it = 0; it < 2000; ++it) {
      const double mid = 0.5 * (a + b);
      const double tol = std::max({atoli, pivmin, 2 * kEps * std::max(std::fabs(a), std::fabs(b))});
      if (b - a <= tol || mid <= a || mid >= b) break;
      if (sturm_count(d, e2, mid, pivmin) > j)
        b = mid;
      else
        a = mid;
    }
    r.values[static_cast<std::size_t>(q)] = 0.5 * (a + b);
  }
  // eigenvectors by inverse iteration
  r.vectors = rmat(n, k);
  if (n == 1) {
    r.vectors(0, 0) = 1.0;
    return r;
  }
  tri_lu f;
  f.a.resize(static_cast<std::size_t>(n));
  f.b.resize(static_cast<std::size_t>(n));
  f.c.resize(static_cast<std::size_t>(n));
  f.c2.resize(static_cast<std::size_t>(n));
  f.l.resize(static_cast<std::size_t>(n));
  f.swapped.resize(static_cast<std::size_t>(n));
  std::vector<double> x(static_cast<std::size_t>(n));
  std::vector<std::vector<double>> vecs(static_cast<std::size_t>(k));
  const double ortol = 1e-3 * tnorm;
  const double tiny = std::max(kEps * tnorm, safmin);
  std::int64_t cluster_start = 0;
  double prev_shift = 0;
  std::uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (std::int64_t q = 0; q < k; ++q) {
    double lam = r.values[static_cast<std::size_t>(q)];
    if (q > 0 && lam - r.values[static_cast<std::size_t>(q - 1)] >= ortol) cluster_start = q;
    if (q > cluster_start) {
      // separate the shift from the previous one inside a cluster (as stein's pertol)
      const double pertol = 10 * std::fabs(kEps * lam);
      if (lam - prev_shift < pertol) lam = prev_shift + pertol;
    }
    prev_shift = lam;
    factor_shifted(d, e, lam, tiny, f);
    for (auto& xi : x) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      xi = static_cast<double>(static_cast<std::int64_t>(seed >> 11)) / 9007199254740992.0 - 0.5;
    }
    for (int it = 0; it < 5; ++it) {
      solve_shifted(f, x);
      // reorthogonalise against the cluster
      for (std::int64_t p = cluster_start; p < q; ++p) {
        const auto& v = vecs[static_cast<std::size_t>(p)];
        double dot = 0;
        for (std::int64_t i = 0; i < n; ++i) dot += v[static_cast<std::size_t>(i)] * x[static_cast<std::size_t>(i)];
        for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] -= dot * v[static_cast<std::size_t>(i)];
      }
      double nrm = 0, mx = 0;
      for (double xi : x) mx = std::max(mx, std::fabs(xi));
      if (mx == 0) {
        x[static_cast<std::size_t>(q % n)] = 1;
        continue;
      }
      for (double xi : x) nrm += (xi / mx) * (xi / mx);
      nrm = mx * std::sqrt(nrm);
      for (auto& xi : x) xi /= nrm;
    }
    // sign: the first largest-magnitude component positive (stein)
    std::int64_t jmax = 0;
    for (std::int64_t i = 1; i < n; ++i)
      if (std::fabs(x[static_cast<std::size_t>(i)]) > std::fabs(x[static_cast<std::size_t>(jmax)])) jmax = i;
    if (x[static_cast<std::size_t>(jmax)] < 0)
      for (auto& xi : x) xi = -xi;
    vecs[static_cast<std::size_t>(q)] = x;
    for (std::int64_t i = 0; i < n; ++i) r.vectors(i, q) = x[static_cast<std::size_t>(i)];
  }
  return r;
}

}  // namespace cusci::detail::hostla
