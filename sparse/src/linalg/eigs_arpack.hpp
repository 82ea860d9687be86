#pragma once
// Internal (host): the ARPACK side of eigs. The selection, sorting, shift and convergence rules of
// ARPACK's dnaup2/znaup2 (dngets, dsortc, dnapps, dnconv, dneigh) and the final selection of dneupd,
// over a small Hessenberg matrix on the host, driving an Arnoldi "backend" that owns the basis (the
// device one in eigs.cpp; a dense host one in the host test). Plain C++.

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"

namespace cusci::sparse::linalg::arpack_detail {

using cplx = std::complex<double>;
namespace hl = cusci::detail::hostla;
inline constexpr const char* kEigsFn = "cusci::sparse::linalg::eigs";

enum class which_t { LM, SM, LR, SR, LI, SI };

inline which_t parse_which(const std::string& s) {
  if (s == "LM") return which_t::LM;
  if (s == "SM") return which_t::SM;
  if (s == "LR") return which_t::LR;
  if (s == "SR") return which_t::SR;
  if (s == "LI") return which_t::LI;
  if (s == "SI") return which_t::SI;
  throw value_error(std::string(kEigsFn) + ": Parameter which must be one of LM SM LR SR LI SI, got '" + s + "'");
}

// Ritz values x with their estimates b and their index id in the order of the eigen decomposition
// of H (the Schur order), sorted together.
struct ritz_set {
  std::vector<cplx> x;
  std::vector<double> b;
  std::vector<int> id;
  void swap_at(int i, int j) {
    std::swap(x[i], x[j]);
    std::swap(b[i], b[j]);
    std::swap(id[i], id[j]);
  }
};

// ARPACK's dsortc / zsortc: a shell sort of positions [off, off + n) that moves entry j after
// entry j + gap while gt(j, j + gap).
template <class Gt>
inline void shell_sort(ritz_set& s, int off, int n, Gt gt) {
  for (int gap = n / 2; gap > 0; gap /= 2)
    for (int i = gap; i < n; ++i)
      for (int j = i - gap; j >= 0; j -= gap) {
        if (!gt(off + j, off + j + gap)) break;
        s.swap_at(off + j, off + j + gap);
      }
}

// Sort by the Ritz values into the increasing order of `w` (dsortc for real problems: LI/SI by
// absolute imaginary part; zsortc for complex: algebraic).
inline void sort_values(ritz_set& s, which_t w, int off, int n, bool real) {
  auto& x = s.x;
  switch (w) {
    case which_t::LM: shell_sort(s, off, n, [&](int a, int b) { return std::abs(x[a]) > std::abs(x[b]); }); break;
    case which_t::SM: shell_sort(s, off, n, [&](int a, int b) { return std::abs(x[a]) < std::abs(x[b]); }); break;
    case which_t::LR: shell_sort(s, off, n, [&](int a, int b) { return x[a].real() > x[b].real(); }); break;
    case which_t::SR: shell_sort(s, off, n, [&](int a, int b) { return x[a].real() < x[b].real(); }); break;
    case which_t::LI:
      if (real) shell_sort(s, off, n, [&](int a, int b) { return std::abs(x[a].imag()) > std::abs(x[b].imag()); });
      else shell_sort(s, off, n, [&](int a, int b) { return x[a].imag() > x[b].imag(); });
      break;
    case which_t::SI:
      if (real) shell_sort(s, off, n, [&](int a, int b) { return std::abs(x[a].imag()) < std::abs(x[b].imag()); });
      else shell_sort(s, off, n, [&](int a, int b) { return x[a].imag() < x[b].imag(); });
      break;
  }
}

// Sort by the estimates: ascending (dsortc 'LR' / zsortc 'LM' on the bounds) or descending ('SR' /
// 'SM').
inline void sort_bounds(ritz_set& s, bool ascending, int off, int n) {
  auto& b = s.b;
  if (ascending) shell_sort(s, off, n, [&](int i, int j) { return b[i] > b[j]; });
  else shell_sort(s, off, n, [&](int i, int j) { return b[i] < b[j]; });
}

// dngets / zngets: the wanted values in the last kev positions, conjugate pairs kept together (kev
// may grow by one), and with ishift the shifts (first np) ordered by decreasing estimate.
inline void ngets(ritz_set& s, which_t w, std::int64_t& kev, std::int64_t& np, bool real, bool ishift) {
  const int n = static_cast<int>(kev + np);
  if (real) {
    which_t pre = which_t::LR;
    switch (w) {
      case which_t::LM: pre = which_t::LR; break;
      case which_t::SM: pre = which_t::SR; break;
      case which_t::LR: pre = which_t::LM; break;
      case which_t::SR: pre = which_t::SM; break;
      case which_t::LI: pre = which_t::LM; break;
      case which_t::SI: pre = which_t::SM; break;
    }
    sort_values(s, pre, 0, n, true);
  }
  sort_values(s, w, 0, n, real);
  if (real && np > 0) {
    const cplx a = s.x[np - 1], b = s.x[np];
    if (b.real() - a.real() == 0.0 && b.imag() + a.imag() == 0.0) {
      --np;
      ++kev;
    }
  }
  if (ishift) sort_bounds(s, false, 0, static_cast<int>(np));
}

// Givens rotation (LAPACK's dlartg / zlartg): c real, s, r with [c s; -conj(s) c] [f; g] = [r; 0].
inline void lartg(cplx f, cplx g, double& c, cplx& s, cplx& r) {
  const double af = std::abs(f), ag = std::abs(g);
  if (ag == 0.0) {
    c = 1.0;
    s = 0.0;
    r = f;
    return;
  }
  if (af == 0.0) {
    c = 0.0;
    s = std::conj(g) / ag;
    r = ag;
    return;
  }
  const double nrm = std::hypot(af, ag);
  const cplx ph = f / af;
  c = af / nrm;
  s = ph * std::conj(g) / nrm;
  r = ph * nrm;
}

// The small dense matrices of the iteration, row-major m x m, complex storage (imaginary parts zero
// for real problems).
struct dense {
  std::int64_t m = 0;
  std::vector<cplx> a;
  explicit dense(std::int64_t mm = 0) : m(mm), a(static_cast<std::size_t>(mm * mm)) {}
  cplx& operator()(std::int64_t i, std::int64_t j) { return a[static_cast<std::size_t>(i * m + j)]; }
  cplx operator()(std::int64_t i, std::int64_t j) const { return a[static_cast<std::size_t>(i * m + j)]; }
  static dense identity(std::int64_t mm) {
    dense d(mm);
    for (std::int64_t i = 0; i < mm; ++i) d(i, i) = 1.0;
    return d;
  }
};

// One implicitly shifted QR step with a single shift mu on the block [p, q] of H (a bulge chase with
// Givens rotations), accumulated into Q: H <- G H G^H, Q <- Q G^H (dnapps' real-shift / znapps'
// branch).
inline void single_shift(dense& H, dense& Q, std::int64_t p, std::int64_t q, cplx mu) {
  const std::int64_t m = H.m;
  cplx f = H(p, p) - mu, g = H(p + 1, p);
  for (std::int64_t i = p; i < q; ++i) {
    double c;
    cplx s, r;
    lartg(f, g, c, s, r);
    if (i > p) {
      H(i, i - 1) = r;
      H(i + 1, i - 1) = 0.0;
    }
    for (std::int64_t j = (i > p ? i : p); j < m; ++j) {
      const cplx a = H(i, j), b = H(i + 1, j);
      H(i, j) = c * a + s * b;
      H(i + 1, j) = -std::conj(s) * a + c * b;
    }
    const std::int64_t rmax = std::min(i + 2, q);
    for (std::int64_t rr = 0; rr <= rmax; ++rr) {
      const cplx a = H(rr, i), b = H(rr, i + 1);
      H(rr, i) = c * a + std::conj(s) * b;
      H(rr, i + 1) = -s * a + c * b;
    }
    for (std::int64_t rr = 0; rr < m; ++rr) {
      const cplx a = Q(rr, i), b = Q(rr, i + 1);
      Q(rr, i) = c * a + std::conj(s) * b;
      Q(rr, i + 1) = -s * a + c * b;
    }
    if (i < q - 1) {
      f = H(i + 1, i);
      g = H(i + 2, i);
    }
  }
}

// A Francis double-shift step with the complex conjugate pair mu, conj(mu) on the real block [p, q]
// (3 x 3 Householder reflectors chasing the bulge; dnapps' complex-shift branch). Real arithmetic.
inline void double_shift(dense& H, dense& Q, std::int64_t p, std::int64_t q, cplx mu) {
  const std::int64_t m = H.m;
  auto h = [&](std::int64_t i, std::int64_t j) { return H(i, j).real(); };
  const double sr = 2.0 * mu.real(), tt = std::norm(mu);
  double x = h(p, p) * h(p, p) + h(p, p + 1) * h(p + 1, p) - sr * h(p, p) + tt;
  double y = h(p + 1, p) * (h(p, p) + h(p + 1, p + 1) - sr);
  double z = (p + 2 <= q) ? h(p + 1, p) * h(p + 2, p + 1) : 0.0;
  for (std::int64_t i = p; i < q; ++i) {
    const int nr = static_cast<int>(std::min<std::int64_t>(3, q - i + 1));
    double v[3] = {x, y, z};
    // Householder (dlarfg): P = I - tau u u^T, u = [1, v1, v2] / ..., P [x y z]^T = [beta 0 0]^T.
    const double alpha = v[0];
    double xn = 0.0;
    for (int k = 1; k < nr; ++k) xn = std::hypot(xn, v[k]);
    double tau = 0.0, beta = alpha;
    double u[3] = {1.0, 0.0, 0.0};
    if (xn != 0.0) {
      beta = -std::copysign(std::hypot(alpha, xn), alpha);
      tau = (beta - alpha) / beta;
      for (int k = 1; k < nr; ++k) u[k] = v[k] / (alpha - beta);
    }
    if (tau != 0.0) {
      // Rows i..i+nr-1 from the left, columns from max(p, i - 1).
      for (std::int64_t j = (i > p ? i - 1 : p); j < m; ++j) {
        double sum = 0.0;
        for (int k = 0; k < nr; ++k) sum += u[k] * h(i + k, j);
        sum *= tau;
        for (int k = 0; k < nr; ++k) H(i + k, j) = h(i + k, j) - sum * u[k];
      }
      // Columns i..i+nr-1 from the right, rows 0..min(i + 3, q).
      const std::int64_t rmax = std::min(i + 3, q);
      for (std::int64_t rr = 0; rr <= rmax; ++rr) {
        double sum = 0.0;
        for (int k = 0; k < nr; ++k) sum += h(rr, i + k) * u[k];
        sum *= tau;
        for (int k = 0; k < nr; ++k) H(rr, i + k) = h(rr, i + k) - sum * u[k];
      }
      for (std::int64_t rr = 0; rr < m; ++rr) {
        double sum = 0.0;
        for (int k = 0; k < nr; ++k) sum += Q(rr, i + k).real() * u[k];
        sum *= tau;
        for (int k = 0; k < nr; ++k) Q(rr, i + k) = Q(rr, i + k).real() - sum * u[k];
      }
    }
    if (i > p) {
      H(i + 1, i - 1) = 0.0;
      if (i + 2 <= q) H(i + 2, i - 1) = 0.0;
    }
    if (i < q - 1) {
      x = h(i + 1, i);
      y = h(i + 2, i);
      z = (i + 3 <= q) ? h(i + 3, i) : 0.0;
    }
  }
}

// The eigen decomposition of H (dneigh / zneigh): Ritz values in dlahqr's order, unit eigenvectors,
// estimates rnorm |e_m^T y|.
struct ritz_info {
  std::vector<cplx> values;
  std::vector<double> bounds;
  hl::cmat vectors;
};

inline ritz_info neigh(const dense& H, double rnorm, bool real) {
  const std::int64_t m = H.m;
  hl::eig_result e;
  if (real) {
    hl::rmat a(m, m);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < m; ++j) a(i, j) = H(i, j).real();
    e = hl::eig(a, kEigsFn);
  } else {
    hl::cmat a(m, m);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < m; ++j) a(i, j) = H(i, j);
    e = hl::eig(a, kEigsFn);
  }
  ritz_info r;
  r.values = e.values;
  r.bounds.resize(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) {
    double nrm = 0.0;
    for (std::int64_t k = 0; k < m; ++k) nrm = std::hypot(nrm, std::abs(e.vectors(k, i)));
    r.bounds[i] = nrm > 0.0 ? rnorm * std::abs(e.vectors(m - 1, i)) / nrm : rnorm;
  }
  r.vectors = std::move(e.vectors);
  return r;
}

inline double norm1(const dense& H) {
  double best = 0.0;
  for (std::int64_t j = 0; j < H.m; ++j) {
    double s = 0.0;
    for (std::int64_t i = 0; i < H.m; ++i) s += std::abs(H(i, j));
    best = std::max(best, s);
  }
  return best;
}

// Applies the np shifts to H (dnapps / znapps); returns Q.
inline dense apply_shifts(dense& H, const std::vector<cplx>& shifts, std::int64_t np, std::int64_t kev, bool real,
                   double ulp) {
  const std::int64_t m = H.m;
  dense Q = dense::identity(m);
  const double smlnum = std::numeric_limits<double>::min() * (static_cast<double>(m) / ulp);
  auto small_sub = [&](std::int64_t i) {
    double tst1 = std::abs(H(i, i)) + std::abs(H(i + 1, i + 1));
    if (tst1 == 0.0) tst1 = norm1(H);
    return std::abs(H(i + 1, i)) <= std::max(ulp * tst1, smlnum);
  };
  bool cconj = false;
  for (std::int64_t jj = 0; jj < np; ++jj) {
    const cplx mu = shifts[jj];
    bool dbl = false;
    if (real) {
      if (cconj) {
        cconj = false;
        continue;
      }
      if (jj < np - 1 && std::abs(mu.imag()) > 0.0) {
        cconj = true;
        dbl = true;
      } else if (jj == np - 1 && std::abs(mu.imag()) > 0.0) {
        continue;  // a lone complex shift is discarded
      }
    }
    std::int64_t istart = 0;
    while (istart < m) {
      std::int64_t iend = m - 1;
      for (std::int64_t i = istart; i < m - 1; ++i)
        if (small_sub(i)) {
          H(i + 1, i) = 0.0;
          iend = i;
          break;
        }
      if (istart != iend && !(dbl && istart + 1 == iend)) {
        if (dbl) double_shift(H, Q, istart, iend, mu);
        else single_shift(H, Q, istart, iend, real ? cplx(mu.real(), 0.0) : mu);
      }
      istart = iend + 1;
    }
  }
  for (std::int64_t i = 0; i < kev && i + 1 < m; ++i)
    if (small_sub(i)) H(i + 1, i) = 0.0;
  return Q;
}


/// The parameters of one run (ARPACK's nev, ncv, which, mxiter, tol).
struct arpack_params {
  std::int64_t nev = 6, ncv = 20, maxiter = 1;
  which_t which = which_t::LM;
  double tol = 0.0;  ///< <= 0: dlamch('EpsMach')
  double ulp = std::numeric_limits<double>::epsilon();  ///< spacing of 1 in the working precision
  bool real = true;
};

/// What a run produced: the counts, the decomposition of the final H, the Ritz values dneupd returns
/// (indices into last.values, in return order) and whether the iteration failed to converge.
struct arpack_outcome {
  std::int64_t iter = 0, nconv = 0;
  bool failed = false;
  ritz_info last;
  std::vector<int> chosen;
};

/// dnaup2 + the selection of dneupd. The backend B has: `dense H` (m x m), `double rnorm`,
/// `void extend(from, to)` (Arnoldi steps from..to-1, filling H and the residual),
/// `void restart(kev, const dense& Q)` (V <- V Q[:, :kev], residual update, H truncated to kev).
/// The backend's factorization of length nev must exist when this is called... it is built here:
/// extend(0, nev) first. `vectors`: select as dneupd with rvec (Schur order), else the exit order.
template <class B>
arpack_outcome run_arpack(B& b, const arpack_params& p, bool vectors) {
  const bool real = p.real;
  const std::int64_t m = p.ncv, nev0 = p.nev, np0 = m - nev0;
  const double eps_mach = p.ulp / 2.0;
  const double eps23 = std::pow(eps_mach, 2.0 / 3.0);
  const double tol = p.tol > 0.0 ? p.tol : eps_mach;
  auto converged = [&](const cplx& x, double bd) { return bd <= tol * std::max(eps23, std::abs(x)); };
  arpack_outcome out;
  b.extend(0, nev0);
  std::int64_t nev = nev0, np = np0, numcnv = nev0;
  ritz_set S;
  while (true) {
    ++out.iter;
    b.extend(nev, m);
    out.last = neigh(b.H, b.rnorm, real);
    S.x = out.last.values;
    S.b = out.last.bounds;
    S.id.resize(static_cast<std::size_t>(m));
    std::iota(S.id.begin(), S.id.end(), 0);
    nev = nev0;
    np = np0;
    numcnv = nev;
    ngets(S, p.which, nev, np, real, true);
    if (nev == nev0 + 1) numcnv = nev0 + 1;
    out.nconv = 0;
    for (std::int64_t i = np; i < np + nev; ++i)
      if (converged(S.x[i], S.b[i])) ++out.nconv;
    const std::int64_t nptemp = np;
    for (std::int64_t j = 0; j < nptemp; ++j)
      if (S.b[j] == 0.0) {
        --np;
        ++nev;
      }
    if (out.nconv >= numcnv || out.iter > p.maxiter || np == 0) {
      out.failed = out.iter > p.maxiter && out.nconv < numcnv;
      break;
    }
    const std::int64_t nevbef = nev;
    nev += std::min(out.nconv, np / 2);
    if (nev == 1 && m >= 6) nev = m / 2;
    else if (nev == 1 && m > (real ? 3 : 2)) nev = 2;
    if (nev > m - (real ? 2 : 1)) nev = m - (real ? 2 : 1);
    np = m - nev;
    if (nevbef < nev) ngets(S, p.which, nev, np, real, true);
    std::vector<cplx> shifts(S.x.begin(), S.x.begin() + np);
    dense Q = apply_shifts(b.H, shifts, np, nev, real, p.ulp);
    b.restart(nev, Q);
  }
  const std::int64_t nconv = out.nconv;

  // dnaup2's exit sorts (the order of the values returned without eigenvectors).
  {
    const int kp = static_cast<int>(m);
    which_t w1 = which_t::SM, w2 = which_t::SM;
    switch (p.which) {
      case which_t::LM: w1 = which_t::SR; w2 = which_t::SM; break;
      case which_t::SM: w1 = which_t::LR; w2 = which_t::LM; break;
      case which_t::LR: w1 = which_t::SM; w2 = which_t::SR; break;
      case which_t::SR: w1 = which_t::LM; w2 = which_t::LR; break;
      case which_t::LI: w1 = which_t::SM; w2 = which_t::SI; break;
      case which_t::SI: w1 = which_t::LM; w2 = which_t::LI; break;
    }
    if (real) sort_values(S, w1, 0, kp, true);
    sort_values(S, w2, 0, kp, real);
    const int k0 = static_cast<int>(std::min(nev0, m));
    for (int j = 0; j < k0; ++j) S.b[j] /= std::max(eps23, std::abs(S.x[j]));
    sort_bounds(S, true, 0, k0);
    for (int j = 0; j < k0; ++j) S.b[j] *= std::max(eps23, std::abs(S.x[j]));
    sort_values(S, p.which, 0, static_cast<int>(std::min(nconv, m)), real);
  }

  // dneupd: which values are returned, in which order.
  if (vectors) {
    ritz_set T;
    T.x = out.last.values;
    T.b = out.last.bounds;
    T.id.resize(static_cast<std::size_t>(m));
    std::iota(T.id.begin(), T.id.end(), 0);
    std::int64_t kev = nev0, npp = m - nev0;
    ngets(T, p.which, kev, npp, real, false);
    std::vector<char> sel(static_cast<std::size_t>(m), 0);
    std::int64_t cnt = 0;
    for (std::int64_t j = 1; j <= m; ++j) {
      const std::int64_t pos = m - j;
      const int jj = T.id[pos];
      if (cnt < nconv && converged(T.x[pos], out.last.bounds[jj])) {
        sel[jj] = 1;
        ++cnt;
      }
    }
    if (real)  // dtrsen moves conjugate pairs together
      for (std::int64_t i = 0; i < m; ++i)
        if (sel[i] && out.last.values[i].imag() != 0.0) {
          const std::int64_t q = out.last.values[i].imag() > 0.0 ? i + 1 : i - 1;
          if (q >= 0 && q < m) sel[q] = 1;
        }
    for (std::int64_t i = 0; i < m && static_cast<std::int64_t>(out.chosen.size()) < cnt; ++i)
      if (sel[i]) out.chosen.push_back(static_cast<int>(i));
  } else {
    for (std::int64_t i = 0; i < nconv && i < m; ++i) out.chosen.push_back(S.id[i]);
  }
  const std::int64_t cap = real ? nev0 + 1 : nev0;
  if (static_cast<std::int64_t>(out.chosen.size()) > cap) out.chosen.resize(static_cast<std::size_t>(cap));
  return out;
}

/// SciPy's extract for the eigenvalues d (of A) and nu (of OP) in dneupd's order: the positions
/// returned, in return order (real problems: a conjugate pair cut at k drops its first half; more
/// than k values: the k most wanted by rd = d (modes 1, 2) or 1 / (d - sigma), descending).
inline std::vector<std::int64_t> scipy_extract(const std::vector<cplx>& d, const std::vector<cplx>& nu,
                                               std::int64_t k, which_t which, bool real, bool shift_invert,
                                               cplx sigma) {
  const std::int64_t L = static_cast<std::int64_t>(d.size());
  std::vector<std::int64_t> ind;
  if (!real) {
    for (std::int64_t i = 0; i < std::min(L, k); ++i) ind.push_back(i);
    return ind;
  }
  std::int64_t nret = L;
  for (std::int64_t i = 0; i <= k && i < L; ++i)
    if (d[i].imag() != 0.0 || nu[i].imag() != 0.0) {
      if (i < k) ++i;
      else --nret;
    }
  if (nret <= k) {
    for (std::int64_t i = 0; i < nret; ++i) ind.push_back(i);
    return ind;
  }
  std::vector<cplx> rd(d.begin(), d.begin() + nret);
  if (shift_invert)
    for (auto& x : rd) x = 1.0 / (x - sigma);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(nret));
  std::iota(idx.begin(), idx.end(), 0);
  auto key = [&](std::int64_t i) {
    switch (which) {
      case which_t::LR: case which_t::SR: return rd[i].real();
      case which_t::LI: case which_t::SI: return std::abs(rd[i].imag());
      default: return std::abs(rd[i]);
    }
  };
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) { return key(a) < key(b); });
  if (which == which_t::LR || which == which_t::LM || which == which_t::LI)
    for (std::int64_t i = 0; i < k; ++i) ind.push_back(idx[nret - 1 - i]);
  else
    for (std::int64_t i = 0; i < k; ++i) ind.push_back(idx[i]);
  return ind;
}

}  // namespace cusci::sparse::linalg::arpack_detail
