// Host symmetric eigenproblems.
// eigh: Householder reduction to tridiagonal form with the transformation accumulated, then the implicit
//   QL algorithm with Wilkinson shifts (EISPACK tred2 / tql2); eigenvalues ascending.
// eigh_solve: the minimum-norm solution through the same eigendecomposition without forming the
//   eigenvectors: a Householder reduction (LAPACK dsytd2's reflectors, one sweep of the trailing upper
//   triangle per step), the right-hand sides carried through the reflectors and the QL rotations
//   (tql2 on them), the rotations replayed backwards after the division by the eigenvalues.
// eigh_tridiagonal: selected eigenvalues by bisection on Sturm counts (LAPACK stebz; all wanted intervals
//   bisected side by side in one pass per round) and eigenvectors by inverse iteration with a pivoted
//   tridiagonal LU, reorthogonalised within clusters, stopped by stein's test and normalised so that the
//   largest-magnitude component is positive (LAPACK stein). O(n) per eigenvalue and iteration.
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

// sqrt(x^2 + y^2) directly where neither square can overflow or matter by underflowing (glibc's hypot,
// correctly rounded, is several times slower); std::hypot otherwise (and for inf / NaN).
inline double fast_hypot(double x, double y) {
  const double m = std::max(std::fabs(x), std::fabs(y));
  if (m < 1e100 && m > 1e-100) return std::sqrt(x * x + y * y);
  return std::hypot(x, y);
}

// A plane rotation of tql2 on columns (i, i + 1): col_i <- c col_i - s col_{i+1}, col_{i+1} <- s col_i + c col_{i+1}.
struct plane_rot {
  std::int64_t i;
  double c, s;
};

// Implicit QL with shifts on the tridiagonal (d, e from tred2), rotating the columns of z (z.m rows of n
// columns: the eigenvectors' matrix when z starts as the transformation, or z0 Z for any other start).
// rots, when given, records the rotations in order.
bool tql2(std::int64_t n, rmat& z, std::vector<double>& d, std::vector<double>& e,
          std::vector<plane_rot>* rots = nullptr) {
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
        double r = fast_hypot(p, 1.0);
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
          r = fast_hypot(p, E(i));
          E(i + 1) = s * r;
          s = E(i) / r;
          c = p / r;
          p = c * D(i) - s * g;
          D(i + 1) = h + s * (c * g + s * D(i));
          for (std::int64_t k = 0; k < z.m; ++k) {
            h = z(k, i + 1);
            z(k, i + 1) = s * z(k, i) + c * h;
            z(k, i) = c * z(k, i) - s * h;
          }
          if (rots) rots->push_back({i, c, s});
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

// Numbers of eigenvalues of the tridiagonal (d, e2 = e^2) strictly less than each of the m shifts
// x[0..m) (Sturm sequences), in one pass over the rows (q: work [m], c: counts out [m]).
// (Counts are accumulated as doubles, exact below 2^53, so that the loop over shifts vectorises.)
void sturm_counts(const std::vector<double>& d, const std::vector<double>& e2, const double* __restrict x,
                  std::size_t m, double pivmin, double* __restrict q, double* __restrict c) {
  const std::size_t n = d.size();
  const double* __restrict dd = d.data();
  const double* __restrict ee = e2.data();
  for (std::size_t t = 0; t < m; ++t) {
    double v = dd[0] - x[t];
    v = std::fabs(v) < pivmin ? -pivmin : v;
    q[t] = v;
    c[t] = v < 0 ? 1.0 : 0.0;
  }
  for (std::size_t i = 1; i < n; ++i) {
    const double di = dd[i], ei = ee[i - 1];
    for (std::size_t t = 0; t < m; ++t) {
      double v = di - x[t] - ei / q[t];
      v = std::fabs(v) < pivmin ? -pivmin : v;
      q[t] = v;
      c[t] += v < 0 ? 1.0 : 0.0;
    }
  }
}

// Inverse iteration for eigenvalue lam of the tridiagonal (d, e): x (size n) in/out. Work arrays given.
struct tri_lu {
  std::vector<double> a, b, c, c2;  // U diagonal, first and second super-diagonals; multipliers in l
  std::vector<double> l;
  std::vector<char> swapped;
  std::vector<double> ainv;  // 1 / a: the back substitution multiplies (no division on its dependency chain)
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
  for (std::size_t i = 0; i < n; ++i) f.ainv[i] = 1.0 / f.a[i];
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
    x[ii] = s * f.ainv[ii];
    if (!std::isfinite(x[ii])) x[ii] = std::copysign(1e300, x[ii]);
  }
}

// Householder reduction of the symmetric n x n row-major S (full storage, overwritten) to tridiagonal
// form T = Q^T S Q, Q = H_0 H_1 ... H_{n-3}, H_k = I - tau_k v_k v_k^T acting on indices k+1..n-1 (LAPACK
// dlarfg's reflector: v_k[0] = 1, beta = -sign(alpha) norm). d: diagonal, e[i] = T(i, i-1) with e[0] = 0
// (tql2's input layout); vs[k] holds v_k (n - k - 1 entries), taus[k] its tau. One pass over the
// trailing rows per step: the rank-2 update of step k (whole rows, vectorised) and, on the rows just
// updated, the product of step k + 1 (whose reflector comes from the first trailing row, updated first).
// Only the upper triangle of the trailing block is kept up to date (the lower one is never read again).
void householder_tridiag(std::int64_t n, rmat& S, std::vector<double>& d, std::vector<double>& e,
                         std::vector<std::vector<double>>& vs, std::vector<double>& taus) {
  d.assign(static_cast<std::size_t>(n), 0.0);
  e.assign(static_cast<std::size_t>(n), 0.0);
  vs.assign(static_cast<std::size_t>(std::max<std::int64_t>(n - 2, 0)), {});
  taus.assign(vs.size(), 0.0);
  if (n == 1) {
    d[0] = S(0, 0);
    return;
  }
  auto row = [&](std::int64_t i) { return &S.v[static_cast<std::size_t>(i * n)]; };
  // The reflector of step k from row k right of its diagonal (current values).
  auto make_reflector = [&](std::int64_t k) {
    const std::int64_t m = n - k - 1;
    const double* x = row(k) + k + 1;
    const double alpha = x[0];
    double xn = 0;
    double sc = 0;
    for (std::int64_t i = 1; i < m; ++i) sc = std::max(sc, std::fabs(x[i]));
    if (sc > 0) {
      for (std::int64_t i = 1; i < m; ++i) xn += (x[i] / sc) * (x[i] / sc);
      xn = sc * std::sqrt(xn);
    }
    std::vector<double>& v = vs[static_cast<std::size_t>(k)];
    v.assign(static_cast<std::size_t>(m), 0.0);
    v[0] = 1.0;
    d[static_cast<std::size_t>(k)] = row(k)[k];
    if (xn == 0) {  // H = I
      e[static_cast<std::size_t>(k + 1)] = alpha;
      taus[static_cast<std::size_t>(k)] = 0.0;
      return;
    }
    const double beta = -std::copysign(std::hypot(alpha, xn), alpha);
    const double inv = 1.0 / (alpha - beta);
    for (std::int64_t i = 1; i < m; ++i) v[static_cast<std::size_t>(i)] = x[i] * inv;
    taus[static_cast<std::size_t>(k)] = (beta - alpha) / beta;
    e[static_cast<std::size_t>(k + 1)] = beta;
  };
  std::vector<double> p(static_cast<std::size_t>(n)), pn(static_cast<std::size_t>(n)), w(static_cast<std::size_t>(n));
  if (n >= 3) {
    make_reflector(0);
    // p = S[1.., 1..] v_0 (rows of the symmetric block as columns: axpy form)
    const std::int64_t m = n - 1;
    const double* __restrict v = vs[0].data();
    double* __restrict pp = p.data();
    for (std::int64_t j = 0; j < m; ++j) pp[j] = 0;
    if (taus[0] != 0)
      for (std::int64_t i = 0; i < m; ++i) {
        const double* __restrict r = row(1 + i) + 1;
        const double vi = v[i];
        for (std::int64_t j = 0; j < m; ++j) pp[j] += r[j] * vi;
      }
  }
  for (std::int64_t k = 0; k + 2 < n; ++k) {
    const std::int64_t m = n - k - 1;  // the trailing block S[k+1.., k+1..], local indices 0..m-1
    const double tau = taus[static_cast<std::size_t>(k)];
    const double* __restrict v = vs[static_cast<std::size_t>(k)].data();
    double* __restrict ww = w.data();
    if (tau != 0) {
      // w = tau p - (tau/2)(tau p . v) v; the first trailing row updated in full
      double* __restrict pp = p.data();
      double pv = 0;
      for (std::int64_t i = 0; i < m; ++i) {
        pp[i] *= tau;
        pv += pp[i] * v[i];
      }
      const double K = -0.5 * tau * pv;
      for (std::int64_t i = 0; i < m; ++i) ww[i] = pp[i] + K * v[i];
      double* __restrict r0 = row(k + 1) + k + 1;
      const double v0 = v[0], w0 = ww[0];
      for (std::int64_t j = 0; j < m; ++j) r0[j] -= v0 * ww[j] + w0 * v[j];
    }
    const bool next = k + 3 < n;
    if (next) make_reflector(k + 1);
    const double taun = next ? taus[static_cast<std::size_t>(k + 1)] : 0.0;
    if (tau == 0 && taun == 0) continue;
    const double* __restrict vn = next ? vs[static_cast<std::size_t>(k + 1)].data() : nullptr;
    double* __restrict q = pn.data();
    for (std::int64_t j = 0; j + 1 < m; ++j) q[j] = 0;
    for (std::int64_t i = 1; i < m; ++i) {
      // local row i from its diagonal on (columns i..m-1; the upper triangle is the one kept)
      double* __restrict r = row(k + 1 + i) + k + 1;
      if (taun != 0) {
        // the next product from the upper triangle: row i's columns j >= i as column i (axpy, in the
        // same sweep as the update), and its columns j > i as row i (dot, eight interleaved partial sums)
        const double c = vn[i - 1];
        double* __restrict qq = q - 1;
        const double* __restrict vv = vn - 1;
        if (tau != 0) {
          const double vi = v[i], wi = ww[i];
          for (std::int64_t j = i; j < m; ++j) {
            const double t = r[j] - (vi * ww[j] + wi * v[j]);
            r[j] = t;
            qq[j] += t * c;
          }
        } else {
          for (std::int64_t j = i; j < m; ++j) qq[j] += r[j] * c;
        }
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        std::int64_t j = i + 1;
        for (; j + 7 < m; j += 8) {
          s0 += r[j] * vv[j];
          s1 += r[j + 1] * vv[j + 1];
          s2 += r[j + 2] * vv[j + 2];
          s3 += r[j + 3] * vv[j + 3];
          s4 += r[j + 4] * vv[j + 4];
          s5 += r[j + 5] * vv[j + 5];
          s6 += r[j + 6] * vv[j + 6];
          s7 += r[j + 7] * vv[j + 7];
        }
        for (; j < m; ++j) s0 += r[j] * vv[j];
        qq[i] += ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
      } else if (tau != 0) {
        const double vi = v[i], wi = ww[i];
        for (std::int64_t j = i; j < m; ++j) r[j] -= vi * ww[j] + wi * v[j];
      }
    }
    std::swap(p, pn);
  }
  d[static_cast<std::size_t>(n - 2)] = row(n - 2)[n - 2];
  e[static_cast<std::size_t>(n - 1)] = row(n - 2)[n - 1];
  d[static_cast<std::size_t>(n - 1)] = row(n - 1)[n - 1];
}

// y <- H y for the reflector (v, tau) acting on y[0..v.size()) (H is its own transpose).
void apply_reflector(const std::vector<double>& v, double tau, double* y) {
  if (tau == 0) return;
  double d0 = 0, d1 = 0, d2 = 0, d3 = 0;  // four partial sums: independent additions
  const std::size_t m = v.size();
  std::size_t i = 0;
  for (; i + 3 < m; i += 4) {
    d0 += v[i] * y[i];
    d1 += v[i + 1] * y[i + 1];
    d2 += v[i + 2] * y[i + 2];
    d3 += v[i + 3] * y[i + 3];
  }
  for (; i < m; ++i) d0 += v[i] * y[i];
  const double dot = tau * ((d0 + d1) + (d2 + d3));
  for (std::size_t i = 0; i < v.size(); ++i) y[i] -= dot * v[i];
}

}  // namespace

rmat eigh_solve(const rmat& a, const rmat& b, double rcond, const char* fn) {
  if (a.m != a.n)
    throw cusci::value_error(std::string(fn) + ": matrix must be square, got shape (" + std::to_string(a.m) + ", " +
                             std::to_string(a.n) + ")");
  if (b.m != a.n)
    throw cusci::value_error(std::string(fn) + ": right-hand side must have " + std::to_string(a.n) +
                             " rows, got shape (" + std::to_string(b.m) + ", " + std::to_string(b.n) + ")");
  for (double x : a.v)
    if (!std::isfinite(x)) throw cusci::value_error(std::string(fn) + ": array must not contain infs or NaNs");
  const std::int64_t n = a.n, nr = b.n;
  rmat x(n, nr);
  if (n == 0 || nr == 0) return x;
  rmat S(n, n);  // the lower triangle, mirrored
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) S(i, j) = S(j, i) = a(i, j);
  std::vector<double> d, e, taus;
  std::vector<std::vector<double>> vs;
  householder_tridiag(n, S, d, e, vs, taus);
  // z: the right-hand sides as rows, carried through Q^T (reflectors H_0 first) and then through the
  // QL rotations (z <- z G), which leaves z = (Q^T b)^T Z: the coefficients along the eigenvectors.
  rmat z(nr, n);
  for (std::int64_t r = 0; r < nr; ++r) {
    double* zr = &z.v[static_cast<std::size_t>(r * n)];
    for (std::int64_t i = 0; i < n; ++i) zr[i] = b(i, r);
    for (std::size_t k = 0; k < vs.size(); ++k) apply_reflector(vs[k], taus[k], zr + k + 1);
  }
  std::vector<plane_rot> rots;
  rots.reserve(static_cast<std::size_t>(16 * n));  // typically about n^2 / 4 in all: grown as needed
  if (!tql2(n, z, d, e, &rots)) throw cusci::runtime_error(std::string(fn) + ": eigenvalues did not converge");
  double emax = 0;
  for (double ev : d) emax = std::max(emax, std::fabs(ev));
  const double thr = rcond * emax;
  for (std::int64_t r = 0; r < nr; ++r) {
    double* zr = &z.v[static_cast<std::size_t>(r * n)];
    for (std::int64_t i = 0; i < n; ++i) {
      const double lam = d[static_cast<std::size_t>(i)];
      zr[i] = std::fabs(lam) > thr ? zr[i] / lam : 0.0;
    }
    // back: Z c (the rotations' transposes in reverse order), then Q (reflectors H_{n-3} first)
    for (std::size_t q = rots.size(); q-- > 0;) {
      const plane_rot& g = rots[q];
      const double u = zr[g.i], w = zr[g.i + 1];
      zr[g.i] = g.c * u + g.s * w;
      zr[g.i + 1] = g.c * w - g.s * u;
    }
    for (std::size_t k = vs.size(); k-- > 0;) apply_reflector(vs[k], taus[k], zr + k + 1);
    for (std::int64_t i = 0; i < n; ++i) x(i, r) = zr[i];
  }
  return x;
}

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
  // Bisection for each wanted index j: the smallest x with count(x) > j. The k bisections run side by
  // side, one Sturm sequence pass serving every interval still open (k independent recurrences per row:
  // their divisions overlap instead of waiting on each other); each interval is bisected exactly as it
  // would be alone.
  {
    std::vector<double> A(static_cast<std::size_t>(k), gl), Bv(static_cast<std::size_t>(k), gu);
    std::vector<double> mid(static_cast<std::size_t>(k)), qv(static_cast<std::size_t>(k));
    std::vector<double> cnt(static_cast<std::size_t>(k));
    std::vector<std::int64_t> idx(static_cast<std::size_t>(k));
    for (int it = 0; it < 2000; ++it) {
      std::size_t na = 0;  // open intervals this round, packed
      for (std::int64_t q = 0; q < k; ++q) {
        const double a = A[static_cast<std::size_t>(q)], b = Bv[static_cast<std::size_t>(q)];
        const double m = 0.5 * (a + b);
        const double tol = std::max({atoli, pivmin, 2 * kEps * std::max(std::fabs(a), std::fabs(b))});
        if (b - a <= tol || m <= a || m >= b) continue;
        idx[na] = q;
        mid[na] = m;
        ++na;
      }
      if (na == 0) break;
      sturm_counts(d, e2, mid.data(), na, pivmin, qv.data(), cnt.data());
      for (std::size_t t = 0; t < na; ++t) {
        const auto q = static_cast<std::size_t>(idx[t]);
        if (cnt[t] > static_cast<double>(lo + idx[t]))
          Bv[q] = mid[t];
        else
          A[q] = mid[t];
      }
    }
    for (std::int64_t q = 0; q < k; ++q)
      r.values[static_cast<std::size_t>(q)] = 0.5 * (A[static_cast<std::size_t>(q)] + Bv[static_cast<std::size_t>(q)]);
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
  f.ainv.resize(static_cast<std::size_t>(n));
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
    // stein's iteration: the right-hand side scaled to n ||T||_1 max(eps, |u_nn|) in its largest
    // component, solved, reorthogonalised against the cluster; accepted two iterations after its
    // largest component first reaches sqrt(0.1 / n) (at most 5 iterations).
    const double dtpcrt = std::sqrt(0.1 / static_cast<double>(n));
    const double target = static_cast<double>(n) * tnorm * std::max(kEps, std::fabs(f.a[static_cast<std::size_t>(n - 1)]));
    int nrmchk = 0;
    for (int it = 0; it < 5; ++it) {
      double mx = 0;
      for (double xi : x) mx = std::max(mx, std::fabs(xi));
      if (mx == 0) {
        x[static_cast<std::size_t>(q % n)] = 1;
        mx = 1;
      }
      const double scl = target / mx;
      for (auto& xi : x) xi *= scl;
      solve_shifted(f, x);
      // reorthogonalise against the cluster
      for (std::int64_t p = cluster_start; p < q; ++p) {
        const auto& v = vecs[static_cast<std::size_t>(p)];
        double dot = 0;
        for (std::int64_t i = 0; i < n; ++i) dot += v[static_cast<std::size_t>(i)] * x[static_cast<std::size_t>(i)];
        for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] -= dot * v[static_cast<std::size_t>(i)];
      }
      double nrm = 0;
      for (double xi : x) nrm = std::max(nrm, std::fabs(xi));
      if (nrm < dtpcrt) continue;
      if (++nrmchk >= 3) break;
    }
    {  // unit 2-norm
      double nrm = 0, mx = 0;
      for (double xi : x) mx = std::max(mx, std::fabs(xi));
      if (mx == 0) {
        x[static_cast<std::size_t>(q % n)] = 1;
        mx = 1;
      }
      const double inv = 1.0 / mx;
      for (double xi : x) nrm += (xi * inv) * (xi * inv);
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
