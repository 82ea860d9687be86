// Host matrix exponential as scipy.linalg.expm: the scaling and squaring algorithm of Al-Mohy & Higham,
// "A new scaling and squaring algorithm for the matrix exponential", SIAM J. Matrix Anal. Appl. 31(3),
// 2009 (Pade degrees 3, 5, 7, 9, 13 chosen from exact 1-norms of A^4, A^6, A^8, A^10 and the ell()
// backward-error correction; Code Fragment 2.1 recomputes the diagonal and first off-diagonal of
// triangular matrices at every squaring). Diagonal matrices are exponentiated entrywise.
#include <algorithm>
#include <cmath>
#include <string>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"

namespace cusci::detail::hostla {
namespace {

double norm1(const rmat& a) {
  double best = 0;
  for (std::int64_t j = 0; j < a.n; ++j) {
    double s = 0;
    for (std::int64_t i = 0; i < a.m; ++i) s += std::fabs(a(i, j));
    best = std::max(best, s);
  }
  return best;
}

// 1-norm of |A|^p (|A| entrywise) by p row-vector products with the all-ones vector.
double norm1_abs_power(const rmat& a, int p) {
  const std::int64_t n = a.n;
  std::vector<double> x(static_cast<std::size_t>(n), 1.0), y(static_cast<std::size_t>(n));
  for (int k = 0; k < p; ++k) {
    std::fill(y.begin(), y.end(), 0.0);
    for (std::int64_t i = 0; i < n; ++i) {
      const double xi = x[static_cast<std::size_t>(i)];
      for (std::int64_t j = 0; j < n; ++j) y[static_cast<std::size_t>(j)] += xi * std::fabs(a(i, j));
    }
    x.swap(y);
  }
  return *std::max_element(x.begin(), x.end());
}

// ell(A, m) of Al-Mohy & Higham (2009), eq. (3.11) / Algorithm 6.1.
int ell(const rmat& a, int m, double scale) {
  double c;
  switch (m) {
    case 3: c = 100800.; break;
    case 5: c = 10059033600.; break;
    case 7: c = 4487938430976000.; break;
    case 9: c = 5914384781877411840000.; break;
    default: c = 113250775606021113483283660800000000.; break;
  }
  rmat s = a;
  if (scale != 1.0)
    for (auto& x : s.v) x *= scale;
  const double pn = norm1_abs_power(s, 2 * m + 1);
  if (pn == 0) return 0;
  const double alpha = pn / (norm1(s) * c);
  const double u = std::ldexp(1.0, -53);
  const double v = std::ceil(std::log2(alpha / u) / (2 * m));
  return v > 0 ? static_cast<int>(v) : 0;
}

void axpy_mat(rmat& y, double a, const rmat& x) {
  for (std::size_t i = 0; i < y.v.size(); ++i) y.v[i] += a * x.v[i];
}

double exp_sinch(double a1, double a2) {
  // (exp(a2) - exp(a1)) / (a2 - a1) = exp(mid) sinh(d) / d with d = (a2 - a1) / 2, stable for a1 ~ a2
  if (a1 == a2) return std::exp(a1);
  const double d = 0.5 * (a2 - a1), mid = 0.5 * (a1 + a2);
  const double sinch = std::fabs(d) < 1e-8 ? 1.0 + d * d / 6.0 : std::sinh(d) / d;
  const double r = std::exp(mid) * sinch;
  if (std::isfinite(r)) return r;
  return (std::exp(a2) - std::exp(a1)) / (a2 - a1);
}

}  // namespace

rmat expm(const rmat& a, const char* fn) {
  if (a.m != a.n)
    throw cusci::value_error(std::string(fn) + ": matrix must be square, got shape (" + std::to_string(a.m) + ", " +
                             std::to_string(a.n) + ")");
  const std::int64_t n = a.n;
  if (n == 0) return rmat(0, 0);
  for (double x : a.v)
    if (!std::isfinite(x)) {  // as SciPy: a NaN or infinite entry gives all NaN
      rmat r(n, n, std::nan(""));
      return r;
    }
  if (n == 1) {
    rmat r(1, 1);
    r(0, 0) = std::exp(a(0, 0));
    return r;
  }
  // bandwidth: lower (entries below the diagonal) and upper
  bool has_lower = false, has_upper = false;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      if (a(i, j) != 0) {
        if (i > j) has_lower = true;
        if (j > i) has_upper = true;
      }
  if (!has_lower && !has_upper) {
    rmat r(n, n);
    for (std::int64_t i = 0; i < n; ++i) r(i, i) = std::exp(a(i, i));
    return r;
  }
  static const double th[5] = {1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1,
                               2.097847961257068e0, 4.25e0};
  rmat A2 = matmul(a, a);
  rmat A4 = matmul(A2, A2);
  rmat A6 = matmul(A4, A2);
  const double d4 = std::pow(norm1(A4), 0.25), d6 = std::pow(norm1(A6), 1.0 / 6);
  const double eta1 = std::max(d4, d6);
  int m = 0, s = 0;
  rmat A8;
  if (eta1 <= th[0] && ell(a, 3, 1.0) == 0) {
    m = 3;
  } else if (eta1 <= th[1] && ell(a, 5, 1.0) == 0) {
    m = 5;
  } else {
    A8 = matmul(A4, A4);
    const double d8 = std::pow(norm1(A8), 1.0 / 8);
    const double eta3 = std::max(d6, d8);
    if (eta3 <= th[2] && ell(a, 7, 1.0) == 0) {
      m = 7;
    } else if (eta3 <= th[3] && ell(a, 9, 1.0) == 0) {
      m = 9;
    } else {
      const double d10 = std::pow(norm1(matmul(A4, A6)), 1.0 / 10);
      const double eta4 = std::max(d8, d10);
      const double eta5 = std::min(eta3, eta4);
      s = std::max(0, static_cast<int>(std::ceil(std::log2(eta5 / th[4]))));
      s += ell(a, 13, std::ldexp(1.0, -s));
      m = 13;
    }
  }
  rmat A1 = a;
  if (s != 0) {
    for (auto& x : A1.v) x = std::ldexp(x, -s);
    for (auto& x : A2.v) x = std::ldexp(x, -2 * s);
    for (auto& x : A4.v) x = std::ldexp(x, -4 * s);
    for (auto& x : A6.v) x = std::ldexp(x, -6 * s);
  }
  const rmat I = rmat::identity(n);
  rmat U, V;
  auto lin = [&](std::initializer_list<std::pair<double, const rmat*>> terms) {
    rmat r(n, n);
    for (const auto& t : terms) axpy_mat(r, t.first, *t.second);
    return r;
  };
  switch (m) {
    case 3:
      U = matmul(A1, lin({{1., &A2}, {60., &I}}));
      V = lin({{12., &A2}, {120., &I}});
      break;
    case 5:
      U = matmul(A1, lin({{1., &A4}, {420., &A2}, {15120., &I}}));
      V = lin({{30., &A4}, {3360., &A2}, {30240., &I}});
      break;
    case 7:
      U = matmul(A1, lin({{1., &A6}, {1512., &A4}, {277200., &A2}, {8648640., &I}}));
      V = lin({{56., &A6}, {25200., &A4}, {1995840., &A2}, {17297280., &I}});
      break;
    case 9:
      U = matmul(A1, lin({{1., &A8}, {3960., &A6}, {2162160., &A4}, {302702400., &A2}, {8821612800., &I}}));
      V = lin({{90., &A8}, {110880., &A6}, {30270240., &A4}, {2075673600., &A2}, {17643225600., &I}});
      break;
    default: {
      const double b[14] = {64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
                            129060195264000.,   10559470521600.,    670442572800.,     33522128640.,
                            1323241920.,        40840800.,          960960.,           16380.,
                            182.,               1.};
      rmat u1 = matmul(A6, lin({{b[13], &A6}, {b[11], &A4}, {b[9], &A2}}));
      axpy_mat(u1, b[7], A6);
      axpy_mat(u1, b[5], A4);
      axpy_mat(u1, b[3], A2);
      axpy_mat(u1, b[1], I);
      U = matmul(A1, u1);
      V = matmul(A6, lin({{b[12], &A6}, {b[10], &A4}, {b[8], &A2}}));
      axpy_mat(V, b[6], A6);
      axpy_mat(V, b[4], A4);
      axpy_mat(V, b[2], A2);
      axpy_mat(V, b[0], I);
      break;
    }
  }
  rmat P = V, Q = V;
  axpy_mat(P, 1.0, U);
  axpy_mat(Q, -1.0, U);
  rmat E = solve(Q, P, fn);
  const bool upper = !has_lower, lower = !has_upper;
  if (s != 0) {
    if (upper || lower) {
      std::vector<double> dg(static_cast<std::size_t>(n)), sd(static_cast<std::size_t>(n - 1));
      for (std::int64_t i = 0; i < n; ++i) dg[static_cast<std::size_t>(i)] = a(i, i);
      for (std::int64_t i = 0; i + 1 < n; ++i) sd[static_cast<std::size_t>(i)] = upper ? a(i, i + 1) : a(i + 1, i);
      for (std::int64_t i = 0; i < n; ++i) E(i, i) = std::exp(std::ldexp(dg[static_cast<std::size_t>(i)], -s));
      for (int k = s - 1; k >= 0; --k) {
        E = matmul(E, E);
        for (std::int64_t i = 0; i < n; ++i) E(i, i) = std::exp(std::ldexp(dg[static_cast<std::size_t>(i)], -k));
        for (std::int64_t i = 0; i + 1 < n; ++i) {
          const double e = exp_sinch(std::ldexp(dg[static_cast<std::size_t>(i)], -k),
                                     std::ldexp(dg[static_cast<std::size_t>(i + 1)], -k)) *
                           std::ldexp(sd[static_cast<std::size_t>(i)], -k);
          if (upper)
            E(i, i + 1) = e;
          else
            E(i + 1, i) = e;
        }
      }
    } else {
      for (int k = 0; k < s; ++k) E = matmul(E, E);
    }
  }
  if (upper || lower)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        if ((upper && i > j) || (lower && j > i)) E(i, j) = 0;
  return E;
}

}  // namespace cusci::detail::hostla
