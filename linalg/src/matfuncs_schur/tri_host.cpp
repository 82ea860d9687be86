// Host triangular kernels of the matfuncs_schur family (see tri_host.hpp). Follows SciPy 1.18.1's
// scipy/linalg/_matfuncs_inv_ssq.py (Higham and Lin 2011; Al-Mohy and Higham 2012) and _funm_loops.

#include "matfuncs_schur/tri_host.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "equations/eq_host.hpp"

namespace cusci::linalg::detail {

namespace {

using cplx = std::complex<double>;
using i64 = std::int64_t;
constexpr double pi = std::numbers::pi;

struct view {
  cplx* p;
  i64 n;
  cplx& operator()(i64 i, i64 j) const { return p[j * n + i]; }
};
struct cview {
  const cplx* p;
  i64 n;
  const cplx& operator()(i64 i, i64 j) const { return p[j * n + i]; }
};

cmat identity(i64 n) {
  cmat I(static_cast<std::size_t>(n * n), cplx(0));
  for (i64 i = 0; i < n; ++i) I[i * n + i] = 1.0;
  return I;
}

/// a @ b for upper triangular a, b (the result upper triangular).
cmat tri_mul(const cmat& a, const cmat& b, i64 n) {
  cmat c(a.size(), cplx(0));
  cview A{a.data(), n}, B{b.data(), n};
  view C{c.data(), n};
  for (i64 j = 0; j < n; ++j)
    for (i64 i = 0; i <= j; ++i) {
      cplx s = 0;
      for (i64 k = i; k <= j; ++k) s += A(i, k) * B(k, j);
      C(i, j) = s;
    }
  return c;
}

/// solve_triangular(m, b): m upper triangular (only its upper triangle read), b any n x n.
cmat tri_solve(const cmat& m, const cmat& b, i64 n) {
  cmat x = b;
  cview M{m.data(), n};
  view X{x.data(), n};
  for (i64 j = 0; j < n; ++j)
    for (i64 i = n - 1; i >= 0; --i) {
      cplx s = X(i, j);
      for (i64 k = i + 1; k < n; ++k) s -= M(i, k) * X(k, j);
      X(i, j) = s / M(i, i);
    }
  return x;
}

/// ||(T - I)^p||_1 (exact; SciPy: onenormest).
double onenorm_m1_power(const cmat& T, i64 n, int p) {
  cmat m1 = T;
  for (i64 i = 0; i < n; ++i) m1[i * n + i] -= 1.0;
  cmat P = m1;
  for (int k = 1; k < p; ++k) P = tri_mul(P, m1, n);
  double best = 0;
  for (i64 j = 0; j < n; ++j) {
    double s = 0;
    for (i64 i = 0; i < n; ++i) s += std::abs(P[j * n + i]);
    best = std::max(best, s);
  }
  return best;
}

int unwindk(cplx z) { return static_cast<int>(std::ceil((z.imag() - pi) / (2 * pi))); }

cplx briggs_helper(cplx a, int k) {
  if (k == 0) return a - 1.0;
  if (k == 1) return std::sqrt(a) - 1.0;
  int k_hat = k;
  if (std::arg(a) >= pi / 2) {
    a = std::sqrt(a);
    k_hat = k - 1;
  }
  const cplx z0 = a - 1.0;
  a = std::sqrt(a);
  cplx r = 1.0 + a;
  for (int j = 1; j < k_hat; ++j) {
    a = std::sqrt(a);
    r = r * (1.0 + a);
  }
  return z0 / r;
}

cplx frac_superdiag(cplx l1, cplx l2, cplx t12, double p) {
  if (l1 == l2) return t12 * p * std::pow(l1, p - 1);
  if (std::abs(l2 - l1) > std::abs(l1 + l2) / 2) return t12 * (std::pow(l2, p) - std::pow(l1, p)) / (l2 - l1);
  const cplx z = (l2 - l1) / (l2 + l1);
  const cplx log_l1 = std::log(l1), log_l2 = std::log(l2);
  const cplx arctanh_z = std::atanh(z);
  const cplx tmp_a = t12 * std::exp((p / 2) * (log_l2 + log_l1));
  const int tmp_u = unwindk(log_l2 - log_l1);
  const cplx tmp_b = tmp_u ? p * (arctanh_z + pi * cplx(0, 1) * double(tmp_u)) : p * arctanh_z;
  const cplx tmp_c = 2.0 * std::sinh(tmp_b) / (l2 - l1);
  return tmp_a * tmp_c;
}

cplx logm_superdiag(cplx l1, cplx l2, cplx t12) {
  if (l1 == l2) return t12 / l1;
  if (std::abs(l2 - l1) > std::abs(l1 + l2) / 2) return t12 * (std::log(l2) - std::log(l1)) / (l2 - l1);
  const cplx z = (l2 - l1) / (l2 + l1);
  const int u = unwindk(std::log(l2) - std::log(l1));
  if (u) return t12 * 2.0 * (std::atanh(z) + pi * cplx(0, 1) * double(u)) / (l2 - l1);
  return t12 * 2.0 * std::atanh(z) / (l2 - l1);
}

bool has_principal_branch(const cmat& T0, i64 n) {
  for (i64 i = 0; i < n; ++i) {
    const cplx x = T0[i * n + i];
    if (!(x.real() > 0 || x.imag() != 0)) return false;
  }
  return true;
}

struct iss {
  cmat R;
  int s;
  int m;
};

/// SciPy's _inverse_squaring_helper; theta[1..7] used.
iss inverse_squaring_helper(const cmat& T0, i64 n, const double* theta) {
  cmat T = T0;
  int s0 = 0;
  std::vector<cplx> d(static_cast<std::size_t>(n));
  for (i64 i = 0; i < n; ++i) d[i] = T0[i * n + i];
  auto maxdev = [&] {
    double m = 0;
    for (const cplx& x : d) m = std::max(m, std::abs(x - 1.0));
    return m;
  };
  while (maxdev() > theta[7]) {
    for (cplx& x : d) x = std::sqrt(x);
    ++s0;
  }
  for (int i = 0; i < s0; ++i) T = tri_sqrt(T.data(), n);
  int s = s0, k = 0, m = 0;
  double d2 = std::pow(onenorm_m1_power(T, n, 2), 1.0 / 2);
  double d3 = std::pow(onenorm_m1_power(T, n, 3), 1.0 / 3);
  const double a2 = std::max(d2, d3);
  for (int i : {1, 2})
    if (a2 <= theta[i]) {
      m = i;
      break;
    }
  while (m == 0) {
    if (s > s0) d3 = std::pow(onenorm_m1_power(T, n, 3), 1.0 / 3);
    const double d4 = std::pow(onenorm_m1_power(T, n, 4), 1.0 / 4);
    const double a3 = std::max(d3, d4);
    if (a3 <= theta[7]) {
      int j1 = 7;
      for (int i = 3; i <= 7; ++i)
        if (a3 <= theta[i]) {
          j1 = i;
          break;
        }
      if (j1 <= 6) {
        m = j1;
        break;
      } else if (a3 / 2 <= theta[5] && k < 2) {
        ++k;
        T = tri_sqrt(T.data(), n);
        ++s;
        continue;
      }
    }
    const double d5 = std::pow(onenorm_m1_power(T, n, 5), 1.0 / 5);
    const double a4 = std::max(d4, d5);
    const double eta = std::min(a3, a4);
    for (int i : {6, 7})
      if (eta <= theta[i]) {
        m = i;
        break;
      }
    if (m != 0) break;
    T = tri_sqrt(T.data(), n);
    ++s;
  }
  cmat R = T;
  for (i64 i = 0; i < n; ++i) R[i * n + i] -= 1.0;
  if (has_principal_branch(T0, n)) {
    cview A{T0.data(), n};
    view Rv{R.data(), n};
    for (i64 j = 0; j < n; ++j) Rv(j, j) = briggs_helper(A(j, j), s);
    const double p = std::exp2(-s);
    for (i64 j = 0; j + 1 < n; ++j) Rv(j, j + 1) = frac_superdiag(A(j, j), A(j + 1, j + 1), A(j, j + 1), p);
  }
  return {std::move(R), s, m};
}

/// Gauss-Legendre nodes (ascending) and weights on [-1, 1] (scipy.special.p_roots).
void gauss_legendre(int m, std::vector<double>& x, std::vector<double>& w) {
  x.assign(m, 0.0);
  w.assign(m, 0.0);
  for (int i = 0; i < m; ++i) {
    double z = std::cos(pi * (i + 0.75) / (m + 0.5));
    double dp = 1;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = z;
      for (int k = 2; k <= m; ++k) {
        const double p2 = ((2.0 * k - 1) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      if (m == 1) {
        p1 = z;
        p0 = 1;
      }
      dp = m * (z * p1 - p0) / (z * z - 1);
      const double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    double p0 = 1, p1 = z;
    for (int k = 2; k <= m; ++k) {
      const double p2 = ((2.0 * k - 1) * z * p1 - (k - 1.0) * p0) / k;
      p0 = p1;
      p1 = p2;
    }
    if (m == 1) p0 = 1;
    dp = m * (z * p1 - p0) / (z * z - 1);
    x[m - 1 - i] = z;
    w[m - 1 - i] = 2 / ((1 - z * z) * dp * dp);
  }
}

double pade_constant(int i, double t) {
  if (i == 1) return -t;
  if (i % 2 == 0) {
    const int j = i / 2;
    return (-j + t) / (2 * (2 * j - 1));
  }
  const int j = (i - 1) / 2;
  return (-j - t) / (2 * (2 * j + 1));
}

}  // namespace

cmat tri_sqrt(const cplx* T, i64 n) {
  cmat r(static_cast<std::size_t>(n * n), cplx(0));
  cview A{T, n};
  view R{r.data(), n};
  for (i64 j = 0; j < n; ++j) {
    R(j, j) = std::sqrt(A(j, j));
    for (i64 i = j - 1; i >= 0; --i) {
      cplx s = 0;
      for (i64 k = i + 1; k < j; ++k) s += R(i, k) * R(k, j);
      const cplx num = A(i, j) - s;
      R(i, j) = num == cplx(0) ? cplx(0) : num / (R(i, i) + R(j, j));
    }
  }
  return r;
}

namespace {

/// One level of tri_sqrtm_recursive on the m x m diagonal block at p (leading dimension ld).
void sqrtm_recursion(cplx* p, i64 ld, i64 m, bool real_rules) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (m == 1) {
    p[0] = std::sqrt(p[0]);
    return;
  }
  if (m == 2) {
    const cplx a = p[0], b = p[ld], d = p[ld + 1];
    if (a == cplx(0) && d == cplx(0) && b == cplx(0)) return;
    if (real_rules && a == cplx(0) && d == cplx(0)) {
      p[ld] = inf;
      return;
    }
    p[0] = std::sqrt(a);
    p[ld + 1] = std::sqrt(d);
    p[ld] = b / (p[0] + p[ld + 1]);
    return;
  }
  const i64 h = m / 2, o = m - h;
  cplx* r11 = p;
  cplx* r22 = p + h * (ld + 1);
  cplx* r12 = p + h * ld;
  sqrtm_recursion(r11, ld, h, real_rules);
  sqrtm_recursion(r22, ld, o, real_rules);
  if (m == 3 && r11[0] == cplx(0) && (r22[0] == cplx(0) || r22[ld + 1] == cplx(0))) {
    // SciPy: ?trsyl's perturbed result replaced by inf for this singular 1 x 2 equation.
    r12[0] = inf;
    r12[ld] = inf;
    return;
  }
  // R11 X + X R22 = T12 on contiguous column-major copies; X times ?trsyl's scale, as SciPy.
  double scale = 1.0;
  if (real_rules) {
    std::vector<double> A(static_cast<std::size_t>(h * h)), B(static_cast<std::size_t>(o * o)),
        C(static_cast<std::size_t>(h * o));
    for (i64 j = 0; j < h; ++j)
      for (i64 i = 0; i < h; ++i) A[j * h + i] = r11[j * ld + i].real();
    for (i64 j = 0; j < o; ++j)
      for (i64 i = 0; i < o; ++i) B[j * o + i] = r22[j * ld + i].real();
    for (i64 j = 0; j < o; ++j)
      for (i64 i = 0; i < h; ++i) C[j * h + i] = r12[j * ld + i].real();
    trsyl('N', 'N', 1, static_cast<int>(h), static_cast<int>(o), A.data(), B.data(), C.data(), scale);
    for (i64 j = 0; j < o; ++j)
      for (i64 i = 0; i < h; ++i) r12[j * ld + i] = C[j * h + i] * scale;
  } else {
    cmat A(static_cast<std::size_t>(h * h)), B(static_cast<std::size_t>(o * o)), C(static_cast<std::size_t>(h * o));
    for (i64 j = 0; j < h; ++j)
      for (i64 i = 0; i < h; ++i) A[j * h + i] = r11[j * ld + i];
    for (i64 j = 0; j < o; ++j)
      for (i64 i = 0; i < o; ++i) B[j * o + i] = r22[j * ld + i];
    for (i64 j = 0; j < o; ++j)
      for (i64 i = 0; i < h; ++i) C[j * h + i] = r12[j * ld + i];
    trsyl('N', 'N', 1, static_cast<int>(h), static_cast<int>(o), A.data(), B.data(), C.data(), scale);
    for (i64 j = 0; j < o; ++j)
      for (i64 i = 0; i < h; ++i) r12[j * ld + i] = C[j * h + i] * scale;
  }
}

}  // namespace

cmat tri_sqrtm_recursive(const cplx* T, i64 n, bool real_rules) {
  cmat r(static_cast<std::size_t>(n * n), cplx(0));
  for (i64 j = 0; j < n; ++j)
    for (i64 i = 0; i <= j; ++i) r[j * n + i] = T[j * n + i];
  if (n > 0) sqrtm_recursion(r.data(), n, n, real_rules);
  return r;
}

cmat tri_logm(const cmat& T0, i64 n) {
  static const double theta[] = {0,        1.59e-5, 2.31e-3, 1.94e-2, 6.21e-2, 1.28e-1, 2.06e-1, 2.88e-1, 3.67e-1,
                                 4.39e-1, 5.03e-1, 5.60e-1, 6.09e-1, 6.52e-1, 6.89e-1, 7.21e-1, 7.49e-1};
  const iss h = inverse_squaring_helper(T0, n, theta);
  std::vector<double> nodes, weights;
  gauss_legendre(h.m, nodes, weights);
  const cmat I = identity(n);
  cmat U(static_cast<std::size_t>(n * n), cplx(0));
  for (int q = 0; q < h.m; ++q) {
    const double alpha = 0.5 * weights[q], beta = 0.5 + 0.5 * nodes[q];
    cmat M(I.size()), B(I.size());
    for (std::size_t e = 0; e < I.size(); ++e) {
      M[e] = I[e] + beta * h.R[e];
      B[e] = alpha * h.R[e];
    }
    const cmat X = tri_solve(M, B, n);
    for (std::size_t e = 0; e < U.size(); ++e) U[e] += X[e];
  }
  const double sc = std::exp2(h.s);
  for (cplx& x : U) x *= sc;
  if (has_principal_branch(T0, n)) {
    cview A{T0.data(), n};
    view Uv{U.data(), n};
    for (i64 i = 0; i < n; ++i) Uv(i, i) = std::log(A(i, i));
    for (i64 i = 0; i + 1 < n; ++i) Uv(i, i + 1) = logm_superdiag(A(i, i), A(i + 1, i + 1), A(i, i + 1));
  }
  return U;
}

cmat tri_fractional_power(const cmat& T0, i64 n, double t) {
  static const double theta[] = {0, 1.51e-5, 2.24e-3, 1.88e-2, 6.04e-2, 1.24e-1, 2.00e-1, 2.79e-1};
  cview A{T0.data(), n};
  bool diagonal = true;
  for (i64 j = 0; j < n && diagonal; ++j)
    for (i64 i = 0; i < n; ++i)
      if (i != j && A(i, j) != cplx(0)) {
        diagonal = false;
        break;
      }
  cmat U(static_cast<std::size_t>(n * n), cplx(0));
  view Uv{U.data(), n};
  if (diagonal) {
    for (i64 i = 0; i < n; ++i) Uv(i, i) = std::pow(A(i, i), t);
    return U;
  }
  const iss h = inverse_squaring_helper(T0, n, theta);
  // _fractional_power_pade(-R, t, m)
  cmat Rn = h.R;
  for (cplx& x : Rn) x = -x;
  const cmat I = identity(n);
  cmat Y(Rn.size());
  for (std::size_t e = 0; e < Y.size(); ++e) Y[e] = Rn[e] * pade_constant(2 * h.m, t);
  for (int j = 2 * h.m - 1; j >= 1; --j) {
    cmat M(I.size()), B(I.size());
    const double c = pade_constant(j, t);
    for (std::size_t e = 0; e < I.size(); ++e) {
      M[e] = I[e] + Y[e];
      B[e] = Rn[e] * c;
    }
    Y = tri_solve(M, B, n);
  }
  for (std::size_t e = 0; e < U.size(); ++e) U[e] = I[e] + Y[e];
  const bool hpb = has_principal_branch(T0, n);
  for (int i = h.s; i >= 0; --i) {
    if (i < h.s) {
      U = tri_mul(U, U, n);
      Uv = view{U.data(), n};
    } else if (hpb) {
      const double p = t * std::exp2(-i);
      for (i64 j = 0; j < n; ++j) Uv(j, j) = std::pow(A(j, j), p);
      for (i64 j = 0; j + 1 < n; ++j) Uv(j, j + 1) = frac_superdiag(A(j, j), A(j + 1, j + 1), A(j, j + 1), p);
    }
  }
  return U;
}

double tri_funm_loops(cmat& F, const cplx* T, i64 n, double minden) {
  cview A{T, n};
  view Fv{F.data(), n};
  for (i64 p = 1; p < n; ++p)
    for (i64 i = 1; i <= n - p; ++i) {
      const i64 j = i + p;
      cplx s = A(i - 1, j - 1) * (Fv(j - 1, j - 1) - Fv(i - 1, i - 1));
      cplx val = 0;
      for (i64 k = i; k < j - 1; ++k) val += A(i - 1, k) * Fv(k, j - 1);
      cplx val2 = 0;
      for (i64 k = i; k < j - 1; ++k) val2 += Fv(i - 1, k) * A(k, j - 1);
      s = s + (val - val2);
      const cplx den = A(j - 1, j - 1) - A(i - 1, i - 1);
      if (den != cplx(0)) s = s / den;
      Fv(i - 1, j - 1) = s;
      minden = std::min(minden, std::abs(den));
    }
  return minden;
}

}  // namespace cusci::linalg::detail
