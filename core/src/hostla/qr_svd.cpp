// Host dense linear algebra: Householder QR with LAPACK's conventions (geqr2 + org2r/ung2r: reflectors
// from larfg, so R's diagonal and Q's signs are LAPACK's), singular value decomposition by one-sided
// (Hestenes) Jacobi rotations, numerical rank and minimum-norm least squares.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"
#include "hostla_kernels.hpp"

namespace cusci::detail::hostla {
namespace {

using namespace kern;

template <class T>
struct qr_work {
  mat<T> q, r;
};

// QR of a row-major m x n matrix.
template <class T>
qr_work<T> qr_impl(const mat<T>& a, bool complete) {
  const std::int64_t m = a.m, n = a.n, k = std::min(m, n);
  std::vector<T> w(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) w[static_cast<std::size_t>(j * m + i)] = a(i, j);
  fm<T> A{w.data(), std::max<std::int64_t>(m, 1)};
  std::vector<T> tau(static_cast<std::size_t>(std::max<std::int64_t>(k, 1)), T(0));
  std::vector<T> tmp(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
  // geqr2
  for (std::int64_t i = 1; i <= k; ++i) {
    T& ti = tau[static_cast<std::size_t>(i - 1)];
    larfg(m - i + 1, A(i, i), &A(std::min(i + 1, m), i), 1, ti);
    if (i < n && ti != T(0)) {
      const T aii = A(i, i);
      A(i, i) = T(1);
      const T tc = conjv(ti);  // apply H(i)^H from the left to A(i:m, i+1:n)
      for (std::int64_t c = i + 1; c <= n; ++c) {
        T s = T(0);
        for (std::int64_t r = i; r <= m; ++r) s += conjv(A(r, i)) * A(r, c);
        s *= tc;
        for (std::int64_t r = i; r <= m; ++r) A(r, c) -= A(r, i) * s;
      }
      A(i, i) = aii;
    }
  }
  const std::int64_t qc = complete ? m : k;  // columns of Q
  const std::int64_t rr = complete ? m : k;  // rows of R
  qr_work<T> out;
  out.r = mat<T>(rr, n);
  for (std::int64_t i = 0; i < std::min(rr, k); ++i)
    for (std::int64_t j = i; j < n; ++j) out.r(i, j) = A(i + 1, j + 1);
  // Q = H(1) H(2) ... H(k) applied to the first qc columns of I (org2r / ung2r)
  std::vector<T> q(static_cast<std::size_t>(m * qc), T(0));
  fm<T> Q{q.data(), std::max<std::int64_t>(m, 1)};
  for (std::int64_t j = 1; j <= std::min(m, qc); ++j) Q(j, j) = T(1);
  for (std::int64_t i = k; i >= 1; --i) {
    const T ti = tau[static_cast<std::size_t>(i - 1)];
    if (ti == T(0)) continue;
    auto v = [&](std::int64_t r) -> T { return r == i ? T(1) : A(r, i); };
    for (std::int64_t c = 1; c <= qc; ++c) {
      T s = T(0);
      for (std::int64_t r = i; r <= m; ++r) s += conjv(v(r)) * Q(r, c);
      if (s == T(0)) continue;
      s *= ti;
      for (std::int64_t r = i; r <= m; ++r) Q(r, c) -= v(r) * s;
    }
  }
  out.q = mat<T>(m, qc);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < qc; ++j) out.q(i, j) = Q(i + 1, j + 1);
  return out;
}

// One-sided Jacobi on the columns of a column-major m x n matrix u (m >= n); v (n x n, column-major)
// accumulates the rotations when non-null. On return the columns of u are mutually orthogonal.
void jacobi_columns(std::int64_t m, std::int64_t n, double* u, double* v) {
  const double eps = std::numeric_limits<double>::epsilon();
  const double tol = eps * std::sqrt(static_cast<double>(std::max<std::int64_t>(m, 1)));
  const int max_sweeps = 80;
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    bool rotated = false;
    for (std::int64_t p = 0; p < n - 1; ++p) {
      double* up = u + p * m;
      for (std::int64_t q = p + 1; q < n; ++q) {
        double* uq = u + q * m;
        double alpha = 0, beta = 0, gamma = 0;
        for (std::int64_t i = 0; i < m; ++i) {
          alpha += up[i] * up[i];
          beta += uq[i] * uq[i];
          gamma += up[i] * uq[i];
        }
        if (alpha == 0 || beta == 0 || gamma == 0) continue;
        if (std::fabs(gamma) <= tol * std::sqrt(alpha) * std::sqrt(beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        double t;
        if (std::fabs(zeta) > 1e150)
          t = 1 / (2 * zeta);
        else
          t = (zeta >= 0 ? 1.0 : -1.0) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), s = c * t;
        for (std::int64_t i = 0; i < m; ++i) {
          const double x = up[i], y = uq[i];
          up[i] = c * x - s * y;
          uq[i] = s * x + c * y;
        }
        if (v) {
          double* vp = v + p * n;
          double* vq = v + q * n;
          for (std::int64_t i = 0; i < n; ++i) {
            const double x = vp[i], y = vq[i];
            vp[i] = c * x - s * y;
            vq[i] = s * x + c * y;
          }
        }
      }
    }
    if (!rotated) return;
  }
}

// Fills columns r..cols-1 of the row-major m x cols matrix `u` (whose first r columns are orthonormal)
// with an orthonormal completion.
void complete_basis(rmat& u, std::int64_t r) {
  const std::int64_t m = u.m, cols = u.n;
  if (r >= cols) return;
  rmat first(m, r);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < r; ++j) first(i, j) = u(i, j);
  rmat q;
  if (r == 0) {
    q = rmat::identity(m);
  } else {
    q = qr_impl(first, true).q;
  }
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = r; j < cols; ++j) u(i, j) = q(i, j);
}

// SVD for m >= n of the row-major matrix a.
svd_result svd_tall(const rmat& a, bool full, bool compute_uv) {
  const std::int64_t m = a.m, n = a.n;
  std::vector<double> u(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) u[static_cast<std::size_t>(j * m + i)] = a(i, j);
  std::vector<double> v;
  if (compute_uv) {
    v.assign(static_cast<std::size_t>(n * n), 0.0);
    for (std::int64_t j = 0; j < n; ++j) v[static_cast<std::size_t>(j * n + j)] = 1.0;
  }
  jacobi_columns(m, n, u.data(), compute_uv ? v.data() : nullptr);
  std::vector<double> norms(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) norms[static_cast<std::size_t>(j)] = nrm2(m, u.data() + j * m, 1);
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
    return norms[static_cast<std::size_t>(x)] > norms[static_cast<std::size_t>(y)];
  });
  svd_result out;
  out.s.resize(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) out.s[static_cast<std::size_t>(j)] = norms[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])];
  if (!compute_uv) return out;
  const std::int64_t ucols = full ? m : n;
  out.u = rmat(m, ucols);
  std::int64_t r = 0;  // columns with a nonzero singular value come first (sorted)
  for (std::int64_t j = 0; j < n; ++j) {
    const double sj = out.s[static_cast<std::size_t>(j)];
    if (!(sj > 0)) break;
    const double* col = u.data() + order[static_cast<std::size_t>(j)] * m;
    for (std::int64_t i = 0; i < m; ++i) out.u(i, j) = col[i] / sj;
    ++r;
  }
  complete_basis(out.u, r);
  out.v = rmat(n, n);
  for (std::int64_t j = 0; j < n; ++j) {
    const double* col = v.data() + order[static_cast<std::size_t>(j)] * n;
    for (std::int64_t i = 0; i < n; ++i) out.v(i, j) = col[i];
  }
  return out;
}

}  // namespace

qr_result qr(const rmat& a, bool complete) {
  auto w = qr_impl(a, complete);
  return {std::move(w.q), std::move(w.r)};
}

cqr_result qr(const cmat& a, bool complete) {
  auto w = qr_impl(a, complete);
  return {std::move(w.q), std::move(w.r)};
}

svd_result svd(const rmat& a, bool full, bool compute_uv) {
  for (double x : a.v)
    if (!std::isfinite(x)) throw cusci::value_error("cusci::detail::hostla::svd: array must not contain infs or NaNs");
  if (a.m >= a.n) return svd_tall(a, full, compute_uv);
  svd_result t = svd_tall(transpose(a), full, compute_uv);
  svd_result out;
  out.s = std::move(t.s);
  if (compute_uv) {
    // a^T = U' S V'^T  =>  a = V' S U'^T
    out.u = std::move(t.v);
    out.v = std::move(t.u);
  }
  return out;
}

std::int64_t matrix_rank(const rmat& a) {
  if (a.m == 0 || a.n == 0) return 0;
  svd_result r = svd(a, false, false);
  const double smax = r.s.empty() ? 0.0 : r.s[0];
  const double tol = smax * static_cast<double>(std::max(a.m, a.n)) * std::numeric_limits<double>::epsilon();
  std::int64_t rank = 0;
  for (double s : r.s)
    if (s > tol) ++rank;
  return rank;
}

rmat lstsq(const rmat& a, const rmat& b) {
  if (b.m != a.m)
    throw cusci::value_error("cusci::detail::hostla::lstsq: incompatible dimensions, a has " + std::to_string(a.m) +
                             " rows and b has " + std::to_string(b.m));
  const std::int64_t m = a.m, n = a.n, k = b.n;
  rmat x(n, k);
  if (m == 0 || n == 0) return x;
  svd_result d = svd(a, false, true);
  const std::int64_t r = std::min(m, n);
  const double rcond = std::numeric_limits<double>::epsilon() * static_cast<double>(std::max(m, n));
  const double cutoff = rcond * d.s[0];
  std::vector<double> c(static_cast<std::size_t>(k));
  for (std::int64_t j = 0; j < r; ++j) {
    const double sj = d.s[static_cast<std::size_t>(j)];
    if (!(sj > cutoff)) break;
    std::fill(c.begin(), c.end(), 0.0);
    for (std::int64_t i = 0; i < m; ++i) {
      const double uij = d.u(i, j);
      for (std::int64_t q = 0; q < k; ++q) c[static_cast<std::size_t>(q)] += uij * b(i, q);
    }
    for (std::int64_t i = 0; i < n; ++i) {
      const double vij = d.v(i, j) / sj;
      for (std::int64_t q = 0; q < k; ++q) x(i, q) += vij * c[static_cast<std::size_t>(q)];
    }
  }
  return x;
}

}  // namespace cusci::detail::hostla
