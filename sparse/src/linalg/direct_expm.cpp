// scipy.sparse.linalg.expm for sparse matrices: SciPy 1.18's _expm (scipy/sparse/linalg/_matfuncs.py),
// the scaling-and-squaring Pade algorithm of Al-Mohy & Higham, "A new scaling and squaring algorithm
// for the matrix exponential", SIAM J. Matrix Anal. Appl. 31 (2009): the Pade orders 3, 5, 7, 9 and
// 13 chosen from one-norms of powers of A, the backward-error correction ell(A, m), r_m = Q^-1 P
// solved with spsolve (SuperLU), repeated squaring, and Code Fragment 2.1 for upper triangular A.
// Every product is a sparse-sparse product on the device.

#include <cmath>
#include <complex>
#include <optional>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/direct.hpp"
#include "cusci/sparse/products.hpp"

namespace cusci::sparse::linalg {
namespace {

double onenorm(const spmatrix& A) { return norm(A, norm_ord(1.0)).item<double>(); }

// ||abs(A)^p||_1 for A with non-negative entries, by p products with the transpose: SciPy's
// _onenorm_matrix_power_nnm.
double onenorm_power_nnm(const spmatrix& absA, int p) {
  const spmatrix M = absA.T();
  ndarray v = ones({absA.shape()[0], 1});
  for (int i = 0; i < p; ++i) v = M.dot(v);
  return max(v).item<double>();
}

// SciPy's _ell(A, m): the number of extra squarings the backward error bound asks for.
int ell(const spmatrix& A, int m) {
  double c = 0;
  switch (m) {
    case 3: c = 100800.; break;
    case 5: c = 10059033600.; break;
    case 7: c = 4487938430976000.; break;
    case 9: c = 5914384781877411840000.; break;
    default: c = 113250775606021113483283660800000000.; break;
  }
  const double u = std::ldexp(1.0, -53);
  const double nrm = onenorm_power_nnm(sparse::abs(A), 2 * m + 1);
  if (nrm == 0) return 0;
  const double alpha = nrm / (onenorm(A) * c);
  const double value = std::ceil(std::log2(alpha / u) / (2 * m));
  return std::max(static_cast<int>(value), 0);
}

spmatrix scaled(const spmatrix& A, double s) { return multiply(A, scalar(s)); }

// SciPy's _ExpmPadeHelper with exact one-norms.
struct pade_terms {
  spmatrix A, ident;
  std::optional<spmatrix> a2, a4, a6, a8, a10;
  std::optional<double> d4e, d6e, d8e, d10e;

  explicit pade_terms(const spmatrix& a)
      : A(a), ident(identity(a.shape()[0], a.dtype(), to_string(a.format()))) {}

  const spmatrix& A2() {
    if (!a2) a2 = dot(A, A);
    return *a2;
  }
  const spmatrix& A4() {
    if (!a4) a4 = dot(A2(), A2());
    return *a4;
  }
  const spmatrix& A6() {
    if (!a6) a6 = dot(A4(), A2());
    return *a6;
  }
  const spmatrix& A8() {
    if (!a8) a8 = dot(A6(), A2());
    return *a8;
  }
  const spmatrix& A10() {
    if (!a10) a10 = dot(A4(), A6());
    return *a10;
  }
  double d4() {
    if (!d4e) d4e = std::pow(onenorm(A4()), 1 / 4.);
    return *d4e;
  }
  double d6() {
    if (!d6e) d6e = std::pow(onenorm(A6()), 1 / 6.);
    return *d6e;
  }
  double d8() {
    if (!d8e) d8e = std::pow(onenorm(A8()), 1 / 8.);
    return *d8e;
  }
  double d10() {
    if (!d10e) d10e = std::pow(onenorm(A10()), 1 / 10.);
    return *d10e;
  }

  // U, V of the Pade approximant of order m (3, 5, 7, 9).
  std::pair<spmatrix, spmatrix> pade(int m) {
    static const double b3[] = {120., 60., 12., 1.};
    static const double b5[] = {30240., 15120., 3360., 420., 30., 1.};
    static const double b7[] = {17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.};
    static const double b9[] = {17643225600., 8821612800., 2075673600., 302702400., 30270240.,
                                2162160.,     110880.,     3960.,       90.,        1.};
    const double* b = m == 3 ? b3 : m == 5 ? b5 : m == 7 ? b7 : b9;
    // Powers A^(2j), j = 1 .. m/2 (as SciPy sums them: highest first).
    std::vector<const spmatrix*> pw;
    if (m >= 3) pw.push_back(&A2());
    if (m >= 5) pw.push_back(&A4());
    if (m >= 7) pw.push_back(&A6());
    if (m >= 9) pw.push_back(&A8());
    const int h = static_cast<int>(pw.size());
    spmatrix u = scaled(*pw[h - 1], b[2 * h + 1]);
    spmatrix v = scaled(*pw[h - 1], b[2 * h]);
    for (int j = h - 2; j >= 0; --j) {
      u = add(u, scaled(*pw[j], b[2 * j + 3]));
      v = add(v, scaled(*pw[j], b[2 * j + 2]));
    }
    u = add(u, scaled(ident, b[1]));
    v = add(v, scaled(ident, b[0]));
    return {dot(A, u), v};
  }

  std::pair<spmatrix, spmatrix> pade13_scaled(int s) {
    static const double b[] = {64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
                               129060195264000.,   10559470521600.,    670442572800.,     33522128640.,
                               1323241920.,        40840800.,          960960.,           16380.,
                               182.,               1.};
    const spmatrix B = scaled(A, std::ldexp(1.0, -s));
    const spmatrix B2 = scaled(A2(), std::ldexp(1.0, -2 * s));
    const spmatrix B4 = scaled(A4(), std::ldexp(1.0, -4 * s));
    const spmatrix B6 = scaled(A6(), std::ldexp(1.0, -6 * s));
    const spmatrix U2 = dot(B6, add(add(scaled(B6, b[13]), scaled(B4, b[11])), scaled(B2, b[9])));
    const spmatrix U =
        dot(B, add(add(add(add(U2, scaled(B6, b[7])), scaled(B4, b[5])), scaled(B2, b[3])), scaled(ident, b[1])));
    const spmatrix V2 = dot(B6, add(add(scaled(B6, b[12]), scaled(B4, b[10])), scaled(B2, b[8])));
    const spmatrix V =
        add(add(add(add(V2, scaled(B6, b[6])), scaled(B4, b[4])), scaled(B2, b[2])), scaled(ident, b[0]));
    return {U, V};
  }
};

// SciPy's _solve_P_Q: r = (V - U)^-1 (U + V) with spsolve (sparse right-hand side).
spmatrix solve_pq(const spmatrix& U, const spmatrix& V) {
  const spmatrix P = add(U, V);
  const spmatrix Q = subtract(V, U);
  return spsolve(Q, P);
}

// SciPy's _exp_sinch and Eq. (10.42) of Higham's "Functions of Matrices".
std::complex<double> exp_sinch(std::complex<double> a, std::complex<double> x) {
  if (std::abs(x) < 0.0135) {
    const std::complex<double> x2 = x * x;
    return std::exp(a) * (1.0 + (x2 / 6.) * (1.0 + (x2 / 20.) * (1.0 + (x2 / 42.))));
  }
  return (std::exp(a + x) - std::exp(a - x)) / (2.0 * x);
}

// X with its diagonal k replaced by `values` (a host vector), in X's format.
spmatrix replace_diagonal(const spmatrix& X, const std::vector<std::complex<double>>& values, std::int64_t k,
                          dtype t) {
  const std::int64_t n = X.shape()[0];
  const ndarray old = diagonal(X, k);
  const ndarray fresh = asarray(host_array::from(values).astype(t));
  const diags_options o{.shape = shape2{n, n}, .format = to_string(X.format())};
  return add(subtract(X, diags(old, k, o)), diags(fresh, k, o));
}

// SciPy's _fragment_2_1 (Al-Mohy & Higham 2009, Code Fragment 2.1) for an upper triangular T.
spmatrix fragment_2_1(spmatrix X, const spmatrix& T, int s) {
  const std::int64_t n = X.shape()[0];
  const dtype t = X.dtype();
  const host_array dT = to_host(diagonal(T, 0)).astype(dtype::complex128);
  const host_array sT = to_host(diagonal(T, 1)).astype(dtype::complex128);
  const auto* d = dT.data_as<std::complex<double>>();
  const auto* e = sT.data_as<std::complex<double>>();
  auto exp_diag = [&](double scale) {
    std::vector<std::complex<double>> v(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) v[k] = std::exp(scale * d[k]);
    return v;
  };
  X = replace_diagonal(X, exp_diag(std::ldexp(1.0, -s)), 0, t);
  for (int i = s - 1; i >= 0; --i) {
    X = dot(X, X);
    const double scale = std::ldexp(1.0, -i);
    X = replace_diagonal(X, exp_diag(scale), 0, t);
    if (n > 1) {
      std::vector<std::complex<double>> sup(static_cast<std::size_t>(n - 1));
      for (std::int64_t k = 0; k + 1 < n; ++k) {
        const std::complex<double> l1 = scale * d[k], l2 = scale * d[k + 1], t12 = scale * e[k];
        sup[k] = t12 * exp_sinch(0.5 * (l1 + l2), 0.5 * (l1 - l2));
      }
      X = replace_diagonal(X, sup, 1, t);
    }
  }
  return X;
}

}  // namespace

spmatrix expm(const spmatrix& A_in) {
  CUSCI_EXPECTS(A_in.shape()[0] == A_in.shape()[1], value_error,
                "cusci::sparse::linalg::expm: A: expected a square matrix");
  const std::int64_t n = A_in.shape()[0];
  if (n == 0) return A_in.copy();
  if (n == 1) {
    // exp of the single entry, in A's format (SciPy: A.__class__([[np.exp(A[0, 0])]])).
    ndarray a = A_in.toarray();
    if (!is_inexact(a.dtype())) a = a.astype(dtype::float64);
    const ndarray ea = cusci::exp(a);
    return csr_matrix(ea).asformat(A_in.format());
  }
  spmatrix A = is_inexact(A_in.dtype()) ? A_in : A_in.astype(dtype::float64);
  // Upper triangularity: no nonzero strictly below the diagonal.
  const bool upper = count_nonzero(tril(A, -1)).item<std::int64_t>() == 0;
  pade_terms h(A);

  const double eta_1 = std::max(h.d4(), h.d6());
  if (eta_1 < 1.495585217958292e-002 && ell(h.A, 3) == 0) {
    auto [U, V] = h.pade(3);
    return solve_pq(U, V);
  }
  const double eta_2 = std::max(h.d4(), h.d6());
  if (eta_2 < 2.539398330063230e-001 && ell(h.A, 5) == 0) {
    auto [U, V] = h.pade(5);
    return solve_pq(U, V);
  }
  const double eta_3 = std::max(h.d6(), h.d8());
  if (eta_3 < 9.504178996162932e-001 && ell(h.A, 7) == 0) {
    auto [U, V] = h.pade(7);
    return solve_pq(U, V);
  }
  if (eta_3 < 2.097847961257068e+000 && ell(h.A, 9) == 0) {
    auto [U, V] = h.pade(9);
    return solve_pq(U, V);
  }
  const double eta_4 = std::max(h.d8(), h.d10());
  const double eta_5 = std::min(eta_3, eta_4);
  const double theta_13 = 4.25;
  int s = eta_5 == 0 ? 0 : std::max(static_cast<int>(std::ceil(std::log2(eta_5 / theta_13))), 0);
  s += ell(scaled(h.A, std::ldexp(1.0, -s)), 13);
  auto [U, V] = h.pade13_scaled(s);
  spmatrix X = solve_pq(U, V);
  if (upper) return fragment_2_1(X, h.A, s);
  for (int i = 0; i < s; ++i) X = dot(X, X);
  return X;
}

}  // namespace cusci::sparse::linalg
