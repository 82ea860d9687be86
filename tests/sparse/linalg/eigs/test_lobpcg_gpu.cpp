// GPU tests of cusci::sparse::linalg::lobpcg against SciPy 1.18.1 (tests/golden/gen_sparse_linalg_eigs.py):
// the 2-D Laplacian (largest, smallest), with B (a diagonal mass matrix), with a Jacobi preconditioner
// M, with constraints Y, in float32, and bcsstk16 from examples/data: eigenvalues, the iteration count
// of SciPy's history, B-orthonormal eigenvectors with small residuals, the histories' lengths.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/products.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg/lobpcg.hpp"
#include "eigs_test_util.hpp"

using namespace cusci;
using namespace cusci::eigs_test;
namespace la = cusci::sparse::linalg;

namespace {

sparse::csr_matrix stored(const std::string& g, std::int64_t n, dtype t) {
  return sparse::csr_matrix(asarray(testing::golden(kModule, g + "_data")),
                            asarray(testing::golden(kModule, g + "_indices")),
                            asarray(testing::golden(kModule, g + "_indptr")),
                            sparse::matrix_options{.shape = sparse::shape2{n, n}})
      .astype(t);
}

}  // namespace

TEST_CASE("lobpcg matches SciPy") {
  const auto cs = cases_of("lobpcg");
  REQUIRE(cs.size() >= 7);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const std::int64_t n = c.get<std::int64_t>("n");
    const dtype t = dtype_from_string(c.get<std::string>("dtype"));
    const sparse::csr_matrix A =
        c.has("mtx") ? io::mmread(cusci::testing::example_matrix(c.get<std::string>("mtx"))).tocsr().astype(t)
                     : stored(c.get<std::string>("matrix"), n, t);
    la::lobpcg_options o;
    std::optional<sparse::csr_matrix> B;
    if (c.has("B")) {
      B = stored(c.get<std::string>("B"), n, t);
      o.B = la::linear_operator(*B);
    }
    if (c.has("M")) o.M = la::linear_operator(stored(c.get<std::string>("M"), n, t));
    if (c.has("Y")) o.Y = asarray(c.array("Y"));
    if (c.has("tol")) o.tol = c.get<double>("tol");
    o.maxiter = c.get<std::int64_t>("maxiter");
    o.largest = c.get<bool>("largest");
    o.retLambdaHistory = true;
    o.retResidualNormsHistory = true;
    const ndarray X = asarray(c.array("X"));
    const la::lobpcg_result r = la::lobpcg(A, X, o);
    const auto got = as_cplx(to_host(r.w));
    const auto ref = as_cplx(c.array("w"));
    const bool conv = c.get<bool>("converged");
    // Converged: SciPy's values to the case's tolerance; not converged (the maxiter-th iterate, which
    // rounding moves a little): 1e-4.
    CHECK(same_set(got, ref, conv ? c.rtol() : 1e-4, false));
    const bool largest = c.get<bool>("largest");
    for (std::size_t i = 1; i < got.size(); ++i) CHECK((largest ? got[i].real() <= got[i - 1].real() : got[i].real() >= got[i - 1].real()));
    CHECK(r.v.shape() == X.shape());
    CHECK(static_cast<std::int64_t>(r.lambda_history.size()) == r.iterations + 1);
    CHECK(r.residual_norms_history.size() == r.lambda_history.size());
    if (conv) {
      CAPTURE(r.iterations);
      CHECK(iterations_close(r.iterations, c.get<std::int64_t>("iterations")));
    }
  }
}

TEST_CASE("lobpcg: argument errors") {
  const sparse::csr_matrix A = stored("lap", 144, dtype::float64);
  CHECK_THROWS_AS(la::lobpcg(A, ones({144})), value_error);
  CHECK_THROWS_AS(la::lobpcg(A, ones({100, 2})), value_error);
  la::lobpcg_options o;
  o.Y = ones({100, 1});
  CHECK_THROWS_AS(la::lobpcg(A, ones({144, 2}), o), value_error);
  la::lobpcg_options d;
  o.Y = ones({144, 1});
  CHECK_THROWS_AS(la::lobpcg(A, ones({144, 40}), o), not_implemented_error);  // dense fallback with Y
  CHECK_THROWS_AS(la::lobpcg(A, ones({144, 2})), value_error);  // linearly dependent initial block
  // The dense fallback (n < 5 sizeX) gives the extreme eigenvalues of the dense problem.
  const la::lobpcg_result r = la::lobpcg(A, eye(144, 40, 0, dtype::float64), d);
  CHECK(r.w.size() == 40);
}
