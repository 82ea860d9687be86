// Host tests of cusci::linalg's SVD family: SciPy's defaults, the string parsers, and the argument checks
// that throw before any device work (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include "cusci/linalg/svd.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::linalg_cases::f64;

TEST_CASE("options default to SciPy's") {
  const linalg::svd_options s{};
  CHECK(s.full_matrices);
  CHECK(s.compute_uv);
  CHECK_FALSE(s.overwrite_a);
  CHECK(s.check_finite);
  CHECK(s.lapack_driver == linalg::svd_driver::gesdd);
  const linalg::svdvals_options v{};
  CHECK_FALSE(v.overwrite_a);
  CHECK(v.check_finite);
  const linalg::null_space_options n{};
  CHECK_FALSE(n.rcond.has_value());
  CHECK(n.check_finite);
  CHECK(n.lapack_driver == linalg::svd_driver::gesdd);
  const linalg::pinv_options p{};
  CHECK_FALSE(p.atol.has_value());
  CHECK_FALSE(p.rtol.has_value());
  CHECK_FALSE(p.return_rank);
  CHECK(p.check_finite);
  const linalg::lstsq_options l{};
  CHECK_FALSE(l.cond.has_value());
  CHECK_FALSE(l.overwrite_a);
  CHECK_FALSE(l.overwrite_b);
  CHECK(l.check_finite);
  CHECK_FALSE(l.lapack_driver.has_value());
  CHECK(linalg::orthogonal_procrustes_options{}.check_finite);
}

TEST_CASE("string options parse SciPy's strings") {
  CHECK(linalg::parse_svd_driver("gesdd") == linalg::svd_driver::gesdd);
  CHECK(linalg::parse_svd_driver("gesvd") == linalg::svd_driver::gesvd);
  CHECK_THROWS_WITH_AS(linalg::parse_svd_driver("gesvj"), doctest::Contains("lapack_driver must be \"gesdd\" or \"gesvd\", not \"gesvj\""),
                       value_error);
  CHECK(linalg::parse_polar_side("right") == linalg::polar_side::right);
  CHECK(linalg::parse_polar_side("left") == linalg::polar_side::left);
  CHECK_THROWS_WITH_AS(linalg::parse_polar_side("up"), doctest::Contains("`side` must be either 'right' or 'left'"),
                       value_error);
  CHECK(linalg::parse_lstsq_driver("gelsd") == linalg::lstsq_driver::gelsd);
  CHECK(linalg::parse_lstsq_driver("gelsy") == linalg::lstsq_driver::gelsy);
  CHECK(linalg::parse_lstsq_driver("gelss") == linalg::lstsq_driver::gelss);
  CHECK_THROWS_WITH_AS(linalg::parse_lstsq_driver("gels"), doctest::Contains("LAPACK driver \"gels\" is not found"),
                       value_error);
}

TEST_CASE("bad shapes throw before touching the device") {
  CHECK_THROWS_WITH_AS(linalg::svd(f64({3})), "cusci::linalg::svd: Expected at least ndim=2, got a1.ndim=1",
                       value_error);
  CHECK_THROWS_AS(linalg::svd(f64({})), value_error);
  CHECK_THROWS_AS(linalg::svdvals(f64({4})), value_error);
  CHECK_THROWS_AS(linalg::orth(f64({4})), value_error);
  CHECK_THROWS_AS(linalg::null_space(f64({4})), value_error);
  CHECK_THROWS_AS(linalg::pinv(f64({4})), value_error);
  CHECK_THROWS_WITH_AS(linalg::pinv(f64({4, 4}), {.atol = -1.0}), doctest::Contains("atol and rtol values must be positive"),
                       value_error);
  CHECK_THROWS_AS(linalg::pinv(f64({4, 4}), {.rtol = -1e-3}), value_error);
  CHECK_THROWS_WITH_AS(linalg::polar(f64({4})), doctest::Contains("`a` must be a 2-D array."), value_error);
  CHECK_THROWS_WITH_AS(linalg::diagsvd(f64({3}), 4, 5), doctest::Contains("Length of s must be M or N."), value_error);
  CHECK_THROWS_WITH_AS(linalg::diagsvd(f64({3}), 3, 2), doctest::Contains("negative dimensions are not allowed"),
                       value_error);
  CHECK_THROWS_AS(linalg::diagsvd(f64({}), 1, 1), value_error);
  CHECK_THROWS_WITH_AS(linalg::orthogonal_procrustes(f64({4, 3}), f64({4, 2})),
                       doctest::Contains("the shapes of A and B differ ((4, 3) vs (4, 2))"), value_error);
  CHECK_THROWS_AS(linalg::orthogonal_procrustes(f64({3}), f64({3})), value_error);
  CHECK_THROWS_AS(linalg::orthogonal_procrustes(f64({2, 4, 3}), f64({3, 4, 3})), value_error);
  CHECK_THROWS_WITH_AS(linalg::subspace_angles(f64({4, 3}), f64({5, 2})),
                       doctest::Contains("A and B must have the same number of rows, got 4 and 5"), value_error);
  CHECK_THROWS_WITH_AS(linalg::subspace_angles(f64({4}), f64({4, 2})), doctest::Contains("expected 2D array"),
                       value_error);
  CHECK_THROWS_AS(linalg::subspace_angles(f64({2, 4, 3}), f64({3, 4, 2})), value_error);
  CHECK_THROWS_WITH_AS(linalg::lstsq(f64({4, 3}), f64({5})),
                       doctest::Contains("Shape mismatch: a and b should have the same number of rows (4 != 5)."),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::lstsq(f64({4}), f64({4})), doctest::Contains("Input array a should be at least 2D"),
                       value_error);
  CHECK_THROWS_AS(linalg::lstsq(f64({4, 3}), f64({})), value_error);
  CHECK_THROWS_AS(linalg::lstsq(f64({2, 4, 3}), f64({3, 4, 1})), value_error);
}
