// Host tests of cusci::sparse::linalg's eigsh and svds (no GPU): SciPy's defaults, every argument
// error (raised before any device work: the operators here fail the test if they are ever applied),
// and the ARPACK exception types.

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <type_traits>

#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/eigen.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sl = cusci::sparse::linalg;

namespace {

/// An n x m operator whose products must never run in these tests.
sl::linear_operator never(std::int64_t n, std::int64_t m, bool with_rmatvec = true) {
  auto fail = [](const ndarray& x) -> ndarray {
    FAIL("an operator was applied during argument checking");
    return x;
  };
  return sl::linear_operator({n, m}, dtype::float64, fail,
                             with_rmatvec ? sl::linear_operator::matvec_fn(fail) : sl::linear_operator::matvec_fn());
}

}  // namespace

TEST_CASE("eigsh_options and svds_options carry SciPy's defaults") {
  const sl::eigsh_options o;
  CHECK(o.k == 6);
  CHECK_FALSE(o.M);
  CHECK_FALSE(o.sigma);
  CHECK(o.which == "LM");
  CHECK_FALSE(o.v0);
  CHECK_FALSE(o.ncv);
  CHECK_FALSE(o.maxiter);
  CHECK(o.tol == 0.0);
  CHECK(o.return_eigenvectors);
  CHECK_FALSE(o.Minv);
  CHECK_FALSE(o.OPinv);
  CHECK(o.mode == "normal");
  const sl::svds_options s;
  CHECK(s.k == 6);
  CHECK_FALSE(s.ncv);
  CHECK(s.tol == 0.0);
  CHECK(s.which == "LM");
  CHECK_FALSE(s.v0);
  CHECK_FALSE(s.maxiter);
  CHECK(s.return_singular_vectors == sl::singular_vectors::both);
  CHECK(s.solver == "arpack");
}

TEST_CASE("the ARPACK exceptions are cusci errors with SciPy's info codes") {
  static_assert(std::is_base_of_v<cusci::runtime_error, sl::arpack_error>);
  static_assert(std::is_base_of_v<sl::arpack_error, sl::arpack_no_convergence>);
  static_assert(std::is_same_v<sl::ArpackError, sl::arpack_error>);
  const sl::arpack_error e(-9, "ARPACK error -9: Starting vector is zero.");
  CHECK(e.info() == -9);
  CHECK(std::string(e.what()) == "ARPACK error -9: Starting vector is zero.");
  const sl::arpack_no_convergence nc("ARPACK error -1: No convergence (2 iterations, 0/4 eigenvectors converged)",
                                     ndarray(), ndarray());
  CHECK(nc.info() == -1);
  CHECK(nc.eigenvalues().size() == 0);
  CHECK(nc.eigenvectors().size() == 0);
}

TEST_CASE("eigsh rejects bad arguments before any device work") {
  const auto A = never(50, 50);
  auto run = [&](sl::eigsh_options o) { (void)sl::eigsh(A, o); };
  sl::eigsh_options o;
  CHECK_THROWS_AS((void)sl::eigsh(never(5, 6)), value_error);
  o = {};
  o.k = 0;
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("k must be greater than 0."), value_error);
  o = {};
  o.k = 50;
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("Cannot use scipy.linalg.eigh for LinearOperator A"), type_error);
  o = {};
  o.which = "XX";
  CHECK_THROWS_AS(run(o), value_error);
  o = {};
  o.which = "lm";  // SciPy's which is case-sensitive
  CHECK_THROWS_AS(run(o), value_error);
  o = {};
  o.ncv = 6;
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("ncv must be k<ncv<=n, ncv=6"), value_error);
  o = {};
  o.maxiter = 0;
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("maxiter must be positive"), value_error);
  o = {};
  o.sigma = 0.5;
  o.mode = "bogus";
  o.OPinv = never(50, 50);
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("unrecognized mode 'bogus'"), value_error);
  o = {};
  o.OPinv = never(50, 50);
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("OPinv should not be specified with sigma = None."), value_error);
  o = {};
  o.Minv = never(50, 50);
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("Minv should not be specified with M = None."), value_error);
  o = {};
  o.sigma = 0.5;
  o.M = never(50, 50);
  o.Minv = never(50, 50);
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("Minv should not be specified when sigma is specified."), value_error);
  o = {};
  o.M = never(40, 40);
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("wrong M dimensions (40, 40), should be (50, 50)"), value_error);
  o = {};
  o.v0 = testing::fake_array(dtype::float64, {49});
  CHECK_THROWS_AS(run(o), value_error);
  o = {};
  o.sigma = std::numeric_limits<double>::quiet_NaN();
  o.OPinv = never(50, 50);
  CHECK_THROWS_AS(run(o), value_error);
  // sigma on an operator without OPinv: no factorization can be built.
  o = {};
  o.sigma = 0.5;
  CHECK_THROWS_AS(run(o), not_implemented_error);
  // M as an operator without Minv: likewise.
  o = {};
  o.M = never(50, 50);
  CHECK_THROWS_AS(run(o), not_implemented_error);
  // OPinv of the wrong shape.
  o = {};
  o.sigma = 0.5;
  o.OPinv = never(50, 49);
  CHECK_THROWS_AS(run(o), value_error);
}

TEST_CASE("svds rejects bad arguments before any device work") {
  const auto A = never(30, 20);
  auto run = [&](sl::svds_options o) { (void)sl::svds(A, o); };
  sl::svds_options o;
  o.k = 20;
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("`k` must be an integer satisfying `0 < k < min(A.shape)`."),
                       value_error);
  o = {};
  o.k = 0;
  CHECK_THROWS_AS(run(o), value_error);
  o = {};
  o.ncv = 20;
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("`ncv` must be an integer satisfying `k < ncv < min(A.shape)`."),
                       value_error);
  o = {};
  o.ncv = 6;
  CHECK_THROWS_AS(run(o), value_error);
  o = {};
  o.tol = -1;
  CHECK_THROWS_AS(run(o), value_error);
  o = {};
  o.which = "LA";
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("`which` must be in {'LM', 'SM'}."), value_error);
  o = {};
  o.solver = "lapack";
  CHECK_THROWS_AS(run(o), value_error);
  o = {};
  o.v0 = testing::fake_array(dtype::float64, {30});
  CHECK_THROWS_WITH_AS(run(o), doctest::Contains("`v0` must have shape (20,)."), value_error);
  o = {};
  o.maxiter = 0;
  CHECK_THROWS_AS(run(o), value_error);
  o = {};
  CHECK_THROWS_AS((void)sl::svds(never(30, 20, false), o), not_implemented_error);
  CHECK_THROWS_AS((void)sl::svds(never(0, 20), o), value_error);
}
