#pragma once
// Checks shared by the schur family's host and GPU tests: reconstructions, unitarity, structure and
// eigenvalue multisets of matrices held on the host as row-major complex128 n x n blocks.


#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

namespace schur_checks {

using cplx = std::complex<double>;
using i64 = std::int64_t;
using mat = std::vector<cplx>;  // row-major n x n

inline mat matmul(const mat& a, const mat& b, i64 n, bool conj_b = false) {
  mat c(static_cast<std::size_t>(n * n));
  for (i64 i = 0; i < n; ++i)
    for (i64 k = 0; k < n; ++k) {
      const cplx x = a[i * n + k];
      if (x == cplx(0)) continue;
      for (i64 j = 0; j < n; ++j) c[i * n + j] += x * (conj_b ? std::conj(b[j * n + k]) : b[k * n + j]);
    }
  return c;
}

inline double max_abs(const mat& a) {
  double m = 0;
  for (const cplx& x : a) m = std::max(m, std::abs(x));
  return m;
}

/// max |u v w^H - a| / (max(|a|, 1) n).
inline double recon_err(const mat& u, const mat& v, const mat& w, const mat& a, i64 n) {
  const mat r = matmul(matmul(u, v, n), w, n, true);
  double e = 0;
  for (std::size_t i = 0; i < r.size(); ++i) e = std::max(e, std::abs(r[i] - a[i]));
  return e / (std::max(max_abs(a), 1.0) * static_cast<double>(std::max<i64>(n, 1)));
}

/// max |q^H q - I| / n.
inline double unitary_err(const mat& q, i64 n) {
  double e = 0;
  for (i64 i = 0; i < n; ++i)
    for (i64 j = 0; j < n; ++j) {
      cplx s = 0;
      for (i64 k = 0; k < n; ++k) s += std::conj(q[k * n + i]) * q[k * n + j];
      e = std::max(e, std::abs(s - cplx(i == j ? 1.0 : 0.0)));
    }
  return e / static_cast<double>(std::max<i64>(n, 1));
}

/// Entries below the subdiagonal `below` (0: the diagonal's lower part is checked from row i > j, 1:
/// from i > j + 1) are exactly zero.
inline bool zero_below(const mat& t, i64 n, i64 below) {
  for (i64 i = 0; i < n; ++i)
    for (i64 j = 0; j + below < i; ++j)
      if (t[i * n + j] != cplx(0)) return false;
  return true;
}

/// Real quasi-triangular: upper Hessenberg and no two consecutive non-zero subdiagonal entries.
inline bool quasi_triangular(const mat& t, i64 n) {
  if (!zero_below(t, n, 1)) return false;
  for (i64 i = 1; i + 1 < n; ++i)
    if (t[i * n + i - 1] != cplx(0) && t[(i + 1) * n + i] != cplx(0)) return false;
  return true;
}

/// Eigenvalues of the 2x2 pencil (a, b) (b = I for the standard problem): det(a - l b) = 0.
inline void eig2(const cplx a[4], const cplx b[4], cplx out[2]) {
  // det([a00 - l b00, a01 - l b01; a10 - l b10, a11 - l b11]) = A l^2 + B l + C
  const cplx A = b[0] * b[3] - b[1] * b[2];
  const cplx B = -(a[0] * b[3] + a[3] * b[0] - a[1] * b[2] - a[2] * b[1]);
  const cplx C = a[0] * a[3] - a[1] * a[2];
  const cplx d = std::sqrt(B * B - 4.0 * A * C);
  out[0] = (-B + d) / (2.0 * A);
  out[1] = (-B - d) / (2.0 * A);
}

/// Eigenvalues of a (quasi-)upper triangular t (with bb upper triangular for a pencil; null: identity),
/// in diagonal order; blocks where t[i+1, i] != 0. Infinite values (beta == 0) are left out when
/// `finite_only`.
inline std::vector<cplx> diag_eigs(const mat& t, const mat* bb, i64 n, i64 count = -1) {
  if (count < 0) count = n;
  std::vector<cplx> w;
  for (i64 i = 0; i < count; ++i) {
    if (i + 1 < n && t[(i + 1) * n + i] != cplx(0)) {
      const cplx a[4] = {t[i * n + i], t[i * n + i + 1], t[(i + 1) * n + i], t[(i + 1) * n + i + 1]};
      const cplx b[4] = {bb ? (*bb)[i * n + i] : 1.0, bb ? (*bb)[i * n + i + 1] : 0.0,
                         bb ? (*bb)[(i + 1) * n + i] : 0.0, bb ? (*bb)[(i + 1) * n + i + 1] : 1.0};
      cplx o[2];
      eig2(a, b, o);
      w.push_back(o[0]);
      if (i + 1 < count) w.push_back(o[1]);
      ++i;
    } else {
      const cplx be = bb ? (*bb)[i * n + i] : cplx(1);
      w.push_back(be == cplx(0) ? cplx(std::numeric_limits<double>::infinity()) : t[i * n + i] / be);
    }
  }
  return w;
}

/// Whether the finite values of `got` and the finite (non-nan) values of `want` agree as multisets (greedy
/// nearest match), within tol * max(1, |value|).
inline bool same_multiset(std::vector<cplx> got, const std::vector<cplx>& want, double tol) {
  auto finite = [](cplx x) { return std::isfinite(x.real()) && std::isfinite(x.imag()); };
  got.erase(std::remove_if(got.begin(), got.end(), [&](cplx x) { return !finite(x); }), got.end());
  std::vector<cplx> w;
  for (cplx x : want)
    if (finite(x)) w.push_back(x);
  if (got.size() != w.size()) return false;
  std::vector<bool> used(got.size(), false);
  for (cplx x : w) {
    double best = 1e300;
    std::size_t bi = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!used[i] && std::abs(got[i] - x) < best) {
        best = std::abs(got[i] - x);
        bi = i;
      }
    if (best > tol * std::max(1.0, std::abs(x))) return false;
    used[bi] = true;
  }
  return true;
}

}  // namespace schur_checks
