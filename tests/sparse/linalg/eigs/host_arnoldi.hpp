#pragma once
// A dense host Arnoldi backend for the ARPACK driver of eigs (sparse/src/linalg/eigs_arpack.hpp),
// with the same steps as the device one (classical Gram-Schmidt with a reorthogonalisation pass and
// ARPACK's 0.717 test, residual update of dnapps), so that the host test can run the whole
// iteration without a GPU and compare counts and values with SciPy.

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "linalg/eigs_arpack.hpp"

namespace cusci::eigs_test {

using cplx = std::complex<double>;
using vec = std::vector<cplx>;
namespace ad = cusci::sparse::linalg::arpack_detail;

struct host_arnoldi {
  std::int64_t n, m;
  bool real;
  std::function<vec(const vec&)> op;
  std::vector<vec> V;
  vec F;
  ad::dense H;
  double rnorm = 0.0;
  std::int64_t nops = 0;
  std::mt19937_64 gen{0};

  host_arnoldi(std::int64_t nn, std::int64_t mm, bool r, std::function<vec(const vec&)> f, const vec& v0)
      : n(nn), m(mm), real(r), op(std::move(f)), V(mm, vec(nn)), F(v0), H(mm) {
    rnorm = norm(F);
  }

  static double norm(const vec& x) {
    double s = 0.0;
    for (const cplx& v : x) s += std::norm(v);
    return std::sqrt(s);
  }

  // F -= V[0..j) (V^H F); returns the coefficients.
  vec project(std::int64_t j) {
    vec h(static_cast<std::size_t>(j));
    for (std::int64_t i = 0; i < j; ++i) {
      cplx s = 0.0;
      for (std::int64_t k = 0; k < n; ++k) s += std::conj(V[i][k]) * F[k];
      h[i] = s;
    }
    for (std::int64_t i = 0; i < j; ++i)
      for (std::int64_t k = 0; k < n; ++k) F[k] -= V[i][k] * h[i];
    return h;
  }

  void step(std::int64_t j) {
    if (rnorm > 0.0) {
      for (std::int64_t k = 0; k < n; ++k) V[j][k] = F[k] / rnorm;
      if (j > 0) H(j, j - 1) = rnorm;
    } else {
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      for (auto& v : F) v = real ? cplx(u(gen), 0.0) : cplx(u(gen), u(gen));
      project(j);
      project(j);
      const double r = norm(F);
      for (std::int64_t k = 0; k < n; ++k) V[j][k] = F[k] / r;
      if (j > 0) H(j, j - 1) = 0.0;
    }
    F = op(V[j]);
    ++nops;
    const double wnorm = norm(F);
    vec h1 = project(j + 1);
    const double r1 = norm(F);
    vec h2 = project(j + 1);
    double r2 = norm(F);
    for (std::int64_t i = 0; i <= j; ++i) H(i, j) = h1[i] + h2[i];
    if (!(r1 > 0.717 * wnorm) && !(r2 > 0.717 * r1)) {
      vec h3 = project(j + 1);
      const double r3 = norm(F);
      for (std::int64_t i = 0; i <= j; ++i) H(i, j) += h3[i];
      if (r3 > 0.717 * r2) {
        r2 = r3;
      } else {
        for (auto& v : F) v = 0.0;
        r2 = 0.0;
      }
    }
    rnorm = r2;
  }

  void extend(std::int64_t from, std::int64_t to) {
    for (std::int64_t j = from; j < to; ++j) step(j);
  }

  void restart(std::int64_t kev, const ad::dense& Q) {
    std::vector<vec> W(static_cast<std::size_t>(kev + 1), vec(n));
    for (std::int64_t c = 0; c <= kev; ++c)
      for (std::int64_t r = 0; r < m; ++r) {
        const cplx q = real ? cplx(Q(r, c).real(), 0.0) : Q(r, c);
        for (std::int64_t k = 0; k < n; ++k) W[c][k] += V[r][k] * q;
      }
    const cplx betak = H(kev, kev - 1), sigmak = Q(m - 1, kev - 1);
    for (std::int64_t k = 0; k < n; ++k) F[k] = sigmak * F[k] + betak * W[kev][k];
    for (std::int64_t c = 0; c < kev; ++c) V[c] = W[c];
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < m; ++j)
        if (i >= kev || j >= kev) H(i, j) = 0.0;
    rnorm = norm(F);
  }
};

/// A dense row-major n x n matrix as an operator.
inline std::function<vec(const vec&)> dense_op(const std::vector<cplx>& a, std::int64_t n) {
  return [a, n](const vec& x) {
    vec y(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      cplx s = 0.0;
      for (std::int64_t j = 0; j < n; ++j) s += a[i * n + j] * x[j];
      y[i] = s;
    }
    return y;
  };
}

/// The whole eigs iteration on the host (modes 1 and shift-invert through a given OP): eigenvalues
/// of OP in return order (SciPy's extract applied with d = nu), the iteration count and nconv.
struct host_eigs_result {
  std::vector<cplx> nu;
  std::int64_t iterations = 0, nconv = 0;
  bool failed = false;
};

inline host_eigs_result host_eigs(std::function<vec(const vec&)> op, std::int64_t n, const vec& v0,
                                  const ad::arpack_params& p, bool vectors) {
  host_arnoldi b(n, p.ncv, p.real, std::move(op), v0);
  const ad::arpack_outcome out = ad::run_arpack(b, p, vectors);
  std::vector<cplx> nu;
  for (int c : out.chosen) nu.push_back(out.last.values[c]);
  const auto ind = ad::scipy_extract(nu, nu, p.nev, p.which, p.real, false, 0.0);
  host_eigs_result r;
  for (auto i : ind) r.nu.push_back(nu[i]);
  r.iterations = out.iter;
  r.nconv = out.nconv;
  r.failed = out.failed;
  return r;
}

}  // namespace cusci::eigs_test
