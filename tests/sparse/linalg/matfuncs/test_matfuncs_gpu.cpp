// GPU tests of cusci::sparse::linalg's matrix functions and LaplacianNd against SciPy 1.18.1
// (tests/golden/gen_sparse_linalg_matfuncs.py):
//  - expm_multiply: SciPy's result (Poisson, convection-diffusion, west0479, orsirr_1, 1138_bus,
//    young1c (complex), float32, blocks B [n, k], the zero matrix, a wrapped operator with traceA,
//    LaplacianNd as the operator, time points in all three of SciPy's cases), SciPy's m_star and s
//    (exactly for CSR input: same exact 1-norm and, as checked against a NumPy model of cusci's
//    estimator, the same estimates of the powers), SciPy's interval status, and the number of series
//    products within max(2, 3%) (the early stop compares floating-point norms against 2^-53 ||F||, so a
//    rounding difference may stop a Taylor loop one term earlier or later); SciPy's errors.
//  - onenormest: a lower bound of the exact 1-norm, equal to it where SciPy's estimate is exact for
//    8 different random seeds (and for t >= n), at least half of SciPy's estimate otherwise (both are
//    lower bounds from different random columns); v and w consistent (||A v||_1 = est, w = A v);
//    reproducible for a seed; SciPy's errors.
//  - funm_multiply_krylov with f = expm: SciPy's result (Hermitian and general, restarts, the atol
//    stop, complex, float32, b = 0); SciPy's errors.
//  - LaplacianNd: toarray/tosparse/matvec/matmat exactly or to 1e-12, eigenvalues (all and m),
//    eigenvectors compared one to one where SciPy's order equals the stable one, else checked as
//    eigenvectors of SciPy's matrix for SciPy's eigenvalues.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "matfuncs_test_util.hpp"

using namespace cusci;
using namespace cusci::matfuncs_test;

namespace {

// The case's operator: "csr" (the matrix), "operator" (a function operator over it: no CSR fast
// path), "laplacian" (LaplacianNd float64 on the case's grid).
sl::linear_operator case_operator(const case_t& c, const sparse::csr_matrix& A) {
  const std::string form = c.get_or<std::string>("form", "csr");
  if (form == "operator") {
    const sl::linear_operator Ac(A);
    return sl::linear_operator(A.shape(), A.dtype(), [Ac](const ndarray& x) { return Ac.matvec(x); },
                               [Ac](const ndarray& x) { return Ac.rmatvec(x); });
  }
  if (form == "laplacian") {
    const sl::LaplacianNd L(c.get<std::vector<std::int64_t>>("grid_shape"), c.get<std::string>("boundary_conditions"),
                            dtype::float64);
    return L.aslinearoperator();
  }
  return sl::linear_operator(A);
}

std::vector<double> dvec(const ndarray& a) { return to_host(a).astype(dtype::float64).to_vector<double>(); }

}  // namespace

TEST_CASE("expm_multiply matches SciPy's result, parameters and product count") {
  const auto cs = cases_of("expm_multiply");
  REQUIRE(cs.size() >= 20);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const sparse::csr_matrix A = device_csr(c);
    const ndarray B = asarray(c.array("B"));
    sl::expm_multiply_options o;
    if (c.has("start")) o.start = c.get<double>("start");
    if (c.has("stop")) o.stop = c.get<double>("stop");
    if (c.has("num")) o.num = c.get<std::int64_t>("num");
    if (c.has("endpoint")) o.endpoint = c.get<bool>("endpoint");
    if (c.has("traceA")) o.traceA = c.get<std::complex<double>>("traceA");
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)sl::expm_multiply(sl::linear_operator(A), B, o); });
      continue;
    }
    const sl::linear_operator op = case_operator(c, A);
    sl::expm_multiply_info info;
    const ndarray X = sl::expm_multiply(op, B, o, &info);
    testing::check_allclose(X, c.array("x"), c.rtol(), c.atol());
    CHECK(info.status == c.get<std::int64_t>("status"));
    const std::int64_t m_ref = c.get<std::int64_t>("m_star"), s_ref = c.get<std::int64_t>("s");
    if (c.get<std::string>("form") == "csr") {
      CHECK(info.m_star == m_ref);
      CHECK(info.s == s_ref);
    } else {
      // The 1-norm of A itself is an estimate for operators (random columns): the cost m_star * s
      // within 25%.
      CHECK(std::abs(static_cast<double>(info.m_star * info.s - m_ref * s_ref)) <= 0.25 * static_cast<double>(m_ref * s_ref) + 1);
    }
    const std::int64_t mv_ref = c.get<std::int64_t>("matvecs");
    const double slack = std::max(2.0, std::ceil(0.03 * static_cast<double>(mv_ref)));
    if (info.m_star == m_ref && info.s == s_ref)
      CHECK_MESSAGE(std::abs(static_cast<double>(info.matvecs - mv_ref)) <= slack,
                    "products " << info.matvecs << " vs SciPy's " << mv_ref);
  }
}

TEST_CASE("expm_multiply: a single time equals the last of two time points") {
  const auto cs = cases_of("expm_multiply");
  for (const auto& c : cs) {
    if (c.name() != "expm_poisson_small") continue;
    const sparse::csr_matrix A = device_csr(c);
    const ndarray B = asarray(c.array("B"));
    sl::expm_multiply_options o;
    o.start = 0.0;
    o.stop = 1.0;
    o.num = 2;
    const ndarray X2 = sl::expm_multiply(A, B, o);
    REQUIRE(X2.ndim() == 2);
    testing::check_allclose(X2[1], c.array("x"), 1e-9, 1e-9);
    testing::check_allclose(X2[0], c.array("B"), 1e-12, 1e-12);
  }
}

TEST_CASE("onenormest: lower bounds, SciPy's value where it is exact, v and w consistent") {
  const auto cs = cases_of("onenormest");
  REQUIRE(cs.size() >= 10);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const sparse::csr_matrix A = device_csr(c);
    const int t = static_cast<int>(c.get<std::int64_t>("t")), itmax = static_cast<int>(c.get<std::int64_t>("itmax"));
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)sl::onenormest(A, t, itmax); });
      continue;
    }
    const bool cv = c.get_or<bool>("compute_v", false), cw = c.get_or<bool>("compute_w", false);
    const auto r = sl::onenormest(A, t, itmax, cv, cw);
    const double exact = c.get<double>("exact"), est_scipy = c.get<double>("est_scipy");
    CHECK(r.est <= exact * (1 + 1e-12));
    if (c.get<bool>("always_exact")) CHECK(std::abs(r.est - exact) <= 1e-12 * std::max(exact, 1.0));
    else CHECK(r.est >= 0.5 * est_scipy);
    CHECK(r.nmults >= 1);
    if (cv) {
      const auto v = dvec(r.v);
      REQUIRE(static_cast<std::int64_t>(v.size()) == A.shape()[1]);
      CHECK(std::count(v.begin(), v.end(), 1.0) == 1);
      CHECK(std::count(v.begin(), v.end(), 0.0) == static_cast<std::int64_t>(v.size()) - 1);
      const ndarray Av = A.dot(r.v.astype(A.dtype()));
      const double n1 = to_host(cusci::sum(cusci::abs(Av))).astype(dtype::float64).to_vector<double>()[0];
      CHECK(std::abs(n1 - r.est) <= 1e-12 * std::max(1.0, r.est));
      if (cw) testing::check_allclose(to_host(r.w), to_host(Av), 1e-12, 1e-12 * std::max(1.0, r.est), false);
    }
    const auto r2 = sl::onenormest(A, t, itmax);
    CHECK(std::abs(r2.est - r.est) <= 1e-14 * std::max(1.0, r.est));  // same seed: the same estimate
  }
}

TEST_CASE("funm_multiply_krylov with f = expm matches SciPy") {
  const auto cs = cases_of("funm_multiply_krylov");
  REQUIRE(cs.size() >= 10);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const sparse::csr_matrix A = device_csr(c);
    const host_array bh = c.array("b");
    const ndarray b = asarray(bh);
    sl::funm_multiply_krylov_options o;
    o.assume_a = c.get_or<std::string>("assume_a", "general");
    o.t = c.get_or<double>("t", 1.0);
    o.atol = c.get_or<double>("f_atol", 0.0);
    o.rtol = c.get_or<double>("f_rtol", 1e-6);
    if (c.has("restart_every_m")) o.restart_every_m = c.get<std::int64_t>("restart_every_m");
    o.max_restarts = c.get_or<std::int64_t>("max_restarts", 20);
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)sl::funm_multiply_krylov(host_expm, A, b, o); });
      continue;
    }
    const ndarray y = sl::funm_multiply_krylov(host_expm, A, b, o);
    testing::check_allclose(y, c.array("y"), c.rtol(), c.atol());
  }
}

TEST_CASE("LaplacianNd: matrices, products, eigenvalues and eigenvectors as SciPy's") {
  const auto cs = cases_of("laplacian");
  REQUIRE(cs.size() >= 40);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const auto grid = c.get<std::vector<std::int64_t>>("grid_shape");
    const std::string bc = c.get<std::string>("boundary_conditions");
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    if (c.expects_error()) {
      testing::check_error(c, [&] { sl::LaplacianNd L(grid, bc, dt); });
      continue;
    }
    const sl::LaplacianNd L(grid, bc, dt);
    testing::check_allclose(L.toarray(), c.array("dense"), 0, 0);
    const sparse::csr_matrix S = L.tosparse();
    CHECK(S.dtype() == dt);
    testing::check_allclose(S.toarray(), c.array("sparse_dense"), 0, 0);
    testing::check_allclose(L.matvec(asarray(c.array("x1"))), c.array("y1"), 1e-12, 1e-12);
    testing::check_allclose(L.matvec(asarray(c.array("x2"))), c.array("y2"), 1e-12, 1e-12);
    testing::check_allclose(L.aslinearoperator().matvec(asarray(c.array("x1"))), c.array("y1"), 1e-12, 1e-12);
    testing::check_allclose(L.eigenvalues(), c.array("eigenvalues"), 1e-12, 1e-12);
    const std::int64_t m = c.get<std::int64_t>("m");
    testing::check_allclose(L.eigenvalues(m), c.array("eigenvalues_m"), 1e-12, 1e-12);

    // Eigenvectors: one to one where SciPy's order is the stable one; else (ties ordered otherwise)
    // L v = lambda v with SciPy's operator and eigenvalues, when the eigenvalue grid lies in the grid.
    // The operator is SciPy's matmat(eye(N)), not toarray(): for Neumann and periodic conditions an
    // axis of length 1 adds -1 to toarray()'s diagonal but 0 to matvec, and SciPy's eigenpairs are
    // those of matvec. SciPy 1.18.1, grid (7, 1), periodic: max|toarray() V - V diag(lam)| per column
    // = 0.53, 0.52, ..., 0.38, while max|matmat(V) - V diag(lam)| <= 5e-15.
    const host_array dense = c.array("op_dense").astype(dtype::float64);
    const auto D = dense.to_vector<double>();
    const std::int64_t N = L.shape()[0];
    auto check_pairs = [&](const ndarray& V, const host_array& lam) {
      const auto v = dvec(V);
      const auto l = lam.astype(dtype::float64).to_vector<double>();
      const std::int64_t k = static_cast<std::int64_t>(l.size());
      REQUIRE(V.shape(1) == k);
      for (std::int64_t j = 0; j < k; ++j) {
        double err = 0;
        for (std::int64_t i = 0; i < N; ++i) {
          double s = 0;
          for (std::int64_t q = 0; q < N; ++q) s += D[static_cast<std::size_t>(i * N + q)] * v[static_cast<std::size_t>(q * k + j)];
          err = std::max(err, std::abs(s - l[static_cast<std::size_t>(j)] * v[static_cast<std::size_t>(i * k + j)]));
        }
        CHECK(err <= 1e-10);
      }
    };
    // Python's min of tuples: whether SciPy's eigenvalue grid for m stays inside the grid.
    std::vector<std::int64_t> mm(grid.size(), m), g = std::min(grid, mm);
    bool inside = true;
    for (std::size_t a = 0; a < grid.size(); ++a) inside = inside && g[a] <= grid[a];
    const ndarray Vm = L.eigenvectors(m);
    if (c.get<bool>("order_stable")) testing::check_allclose(Vm, c.array("eigenvectors_m"), 1e-12, 1e-12);
    else if (inside) check_pairs(Vm, c.array("eigenvalues_m"));
    const ndarray Va = L.eigenvectors();
    if (c.get<bool>("order_stable_all")) testing::check_allclose(Va, c.array("eigenvectors_all"), 1e-12, 1e-12);
    else check_pairs(Va, c.array("eigenvalues"));
  }
}

TEST_CASE("LaplacianNd works as a linear_operator in cg") {
  const sl::LaplacianNd L({6, 5}, "dirichlet", dtype::float64);
  const ndarray b = ones({30}, dtype::float64);
  sl::cg_options o;
  o.rtol = 1e-10;
  // -L is positive definite: solve (-L) x = b through a function operator.
  const sl::linear_operator negL(L.shape(), dtype::float64, [L](const ndarray& x) { return negative(L.matvec(x)); });
  const auto r = sl::cg(negL, b, o);
  CHECK(r.info == 0);
  const ndarray res = add(L.matvec(r.x), b);  // L x + b = 0
  const double rn = to_host(cusci::linalg::norm(res)).astype(dtype::float64).to_vector<double>()[0];
  CHECK(rn <= 1e-8);
}
