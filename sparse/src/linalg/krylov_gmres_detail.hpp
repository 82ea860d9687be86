#pragma once
// Internal pieces of the long-recurrence Krylov solvers (krylov_gmres.cpp) that need no device:
// Givens rotations of the small Hessenberg problems, the triangular solves, and the argument checks.
// Host only; also used by the host test.

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace cusci::sparse::linalg::gmres_detail {

inline double abs2(double v) { return v * v; }
inline double abs2(const std::complex<double>& v) { return std::norm(v); }
inline double conj(double v) { return v; }
inline std::complex<double> conj(const std::complex<double>& v) { return std::conj(v); }

/// A plane rotation [c s; -conj(s) c] with real c (LAPACK's lartg convention): applied to (f, g) it
/// gives (r, 0), |r| = hypot(|f|, |g|). The signs may differ from LAPACK's; only |r| and the
/// rotation's effect on norms matter to the solvers.
template <class S>
struct givens {
  double c = 1.0;
  S s = S(0);
};

/// The rotation that zeroes g in (f, g), and r. f == g == 0 gives the identity and r = 0.
template <class S>
givens<S> make_givens(const S& f, const S& g, S& r) {
  givens<S> G;
  const double nf = std::abs(f), ng = std::abs(g);
  if (ng == 0.0) {
    G.c = 1.0;
    G.s = S(0);
    r = f;
  } else if (nf == 0.0) {
    G.c = 0.0;
    G.s = conj(g) / ng;
    r = S(ng);
  } else {
    const double d = std::hypot(nf, ng);
    const S sgn = f / nf;
    G.c = nf / d;
    G.s = sgn * conj(g) / d;
    r = sgn * d;
  }
  return G;
}

/// Applies G to (a, b) in place: (c a + s b, -conj(s) a + c b).
template <class S>
void apply_givens(const givens<S>& G, S& a, S& b) {
  const S a0 = a, b0 = b;
  a = G.c * a0 + G.s * b0;
  b = -conj(G.s) * a0 + G.c * b0;
}

/// The least-squares problem min ||g e1 - H y|| of an Arnoldi process, updated a column at a time
/// with Givens rotations (SciPy's gmres). Columns are stored as SciPy stores them, h[col][row].
template <class S>
struct hessenberg_lsq {
  std::vector<std::vector<S>> R;   ///< rotated columns: R[col][0..col] is the triangular factor
  std::vector<std::vector<S>> H;   ///< the columns as given (unrotated), R[col].size() == col + 2
  std::vector<givens<S>> rot;
  std::vector<S> g;                ///< rotated right-hand side, size cols + 1

  explicit hessenberg_lsq(S beta) { g.assign(1, beta); }
  std::int64_t cols() const { return static_cast<std::int64_t>(R.size()); }

  /// Adds column h (size col + 2, h[col + 1] the new subdiagonal entry); returns the new residual
  /// estimate |g[col + 1]|.
  double add_column(std::vector<S> h) {
    const std::size_t col = R.size();
    H.push_back(h);
    for (std::size_t k = 0; k < col; ++k) apply_givens(rot[k], h[k], h[k + 1]);
    S mag;
    const givens<S> G = make_givens(h[col], h[col + 1], mag);
    rot.push_back(G);
    h[col] = mag;
    h[col + 1] = S(0);
    const S gc = g[col];
    g[col] = G.c * gc;
    g.push_back(-conj(G.s) * gc);
    R.push_back(std::move(h));
    return std::abs(g[col + 1]);
  }

  /// SciPy gmres's pseudo-solve of R y = g over the first k columns: a zero last diagonal entry
  /// zeroes the last right-hand side entry, and zero entries of y are not divided.
  std::vector<S> solve_gmres(std::int64_t k) const {
    const std::int64_t col = k - 1;
    std::vector<S> y(g.begin(), g.begin() + k);
    if (R[col][col] == S(0)) y[col] = S(0);
    for (std::int64_t j = col; j > 0; --j) {
      if (y[j] != S(0)) {
        y[j] /= R[j][j];
        const S t = y[j];
        for (std::int64_t i = 0; i < j; ++i) y[i] -= t * R[j][i];
      }
    }
    if (y[0] != S(0)) y[0] /= R[0][0];
    return y;
  }

  /// Back substitution R y = g over the first k columns (zero diagonal entries give inf / nan, as
  /// a solve of a singular triangle).
  std::vector<S> solve(std::int64_t k) const {
    std::vector<S> y(g.begin(), g.begin() + k);
    for (std::int64_t j = k - 1; j >= 0; --j) {
      y[j] /= R[j][j];
      for (std::int64_t i = 0; i < j; ++i) y[i] -= y[j] * R[j][i];
    }
    return y;
  }

  /// H y for the unrotated columns (size k + 1 for k columns).
  std::vector<S> h_times(const std::vector<S>& y) const {
    const std::size_t k = y.size();
    std::vector<S> q(k + 1, S(0));
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t i = 0; i < H[j].size() && i <= k; ++i) q[i] += H[j][i] * y[j];
    return q;
  }
};

/// SciPy gmres's inner tolerance update between restart cycles (gh-8400).
struct gmres_ptol {
  double max_factor = 1.0;
  /// After a cycle: presid its final estimate, ptol its tolerance, rnorm the true residual.
  double next(double presid, double ptol, double rnorm, double atol, double eps) {
    if (presid <= ptol) max_factor = std::max(eps, 0.25 * max_factor);
    else max_factor = std::min(1.0, 1.5 * max_factor);
    return presid * std::min(max_factor, atol / rnorm);
  }
};

}  // namespace cusci::sparse::linalg::gmres_detail
