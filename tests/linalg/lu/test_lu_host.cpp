// Host tests of cusci::linalg's LU family: SciPy's defaults, and the argument checks that throw before any
// device work (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include "cusci/linalg/lu.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::fake_array;
using cusci::testing::linalg_cases::f64;

TEST_CASE("options default to SciPy's") {
  const linalg::lu_options l{};
  CHECK_FALSE(l.permute_l);
  CHECK_FALSE(l.overwrite_a);
  CHECK(l.check_finite);
  CHECK_FALSE(l.p_indices);
  const linalg::lu_factor_options f{};
  CHECK_FALSE(f.overwrite_a);
  CHECK(f.check_finite);
  const linalg::lu_solve_options s{};
  CHECK(s.trans == 0);
  CHECK_FALSE(s.overwrite_b);
  CHECK(s.check_finite);
  const linalg::inv_options i{};
  CHECK_FALSE(i.overwrite_a);
  CHECK(i.check_finite);
  CHECK(i.assume_a == linalg::matrix_structure::auto_);
  CHECK_FALSE(i.lower);
  const linalg::det_options d{};
  CHECK_FALSE(d.overwrite_a);
  CHECK(d.check_finite);
}

TEST_CASE("lu and lu_factor reject bad shapes before touching the device") {
  CHECK_THROWS_WITH_AS(linalg::lu(f64({3})), doctest::Contains("cusci::linalg::lu: the input array must be at least two"),
                       value_error);
  CHECK_THROWS_AS(linalg::lu(f64({})), value_error);
  CHECK_THROWS_WITH_AS(linalg::lu_factor(f64({0, 3, 3})), doctest::Contains("does not support zero-size batches"),
                       value_error);
  CHECK_THROWS_AS(linalg::lu_factor(f64({2, 0, 4, 4})), value_error);
}

TEST_CASE("lu_solve checks its arguments") {
  const ndarray lu = f64({4, 4});
  const ndarray piv = fake_array(dtype::int32, {4});
  CHECK_THROWS_WITH_AS(linalg::lu_solve(lu, piv, f64({4}), {.trans = 3}), doctest::Contains("trans must be 0, 1 or 2"),
                       value_error);
  CHECK_THROWS_AS(linalg::lu_solve(lu, piv, f64({4}), {.trans = -1}), value_error);
  CHECK_THROWS_WITH_AS(linalg::lu_solve(lu, piv, f64({5})),
                       "cusci::linalg::lu_solve: Shapes of lu (4, 4) and b (5,) are incompatible", value_error);
  CHECK_THROWS_AS(linalg::lu_solve(lu, piv, f64({2, 4})), value_error);  // a 2-d b is one (N, K) matrix
  CHECK_THROWS_AS(linalg::lu_solve(f64({4, 5}), piv, f64({4})), value_error);
  CHECK_THROWS_AS(linalg::lu_solve(f64({4}), piv, f64({4})), value_error);
  CHECK_THROWS_AS(linalg::lu_solve(lu, fake_array(dtype::int32, {3}), f64({4})), value_error);
  CHECK_THROWS_AS(linalg::lu_solve(lu, fake_array(dtype::int32, {}), f64({4})), value_error);
  CHECK_THROWS_AS(linalg::lu_solve(lu, piv, f64({})), value_error);
  CHECK_THROWS_AS(linalg::lu_solve(lu, fake_array(dtype::complex128, {4}), f64({4})), type_error);
  // batch dimensions that do not broadcast; zero-size batches
  CHECK_THROWS_WITH_AS(linalg::lu_solve(f64({2, 4, 4}), fake_array(dtype::int32, {3, 4}), f64({4})),
                       doctest::Contains("cannot be broadcast"), value_error);
  CHECK_THROWS_AS(linalg::lu_solve(f64({2, 4, 4}), fake_array(dtype::int32, {2, 4}), f64({3, 4, 1})), value_error);
  CHECK_THROWS_WITH_AS(linalg::lu_solve(lu, piv, f64({0, 4, 2})), doctest::Contains("zero-size batches"), value_error);
  // a and b on different devices
  const ndarray b1(memory_ptr{}, dtype::float64, {4}, {8}, 0, 1);
  CHECK_THROWS_WITH_AS(linalg::lu_solve(lu, piv, b1), doctest::Contains("different devices"), value_error);
}

TEST_CASE("inv and det check their arguments") {
  CHECK_THROWS_WITH_AS(linalg::inv(f64({3})), doctest::Contains("cusci::linalg::inv: expected at least ndim=2"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::inv(f64({3, 4})), doctest::Contains("expected a square matrix"), value_error);
  CHECK_THROWS_AS(linalg::inv(f64({2, 4, 3})), value_error);
  CHECK_THROWS_AS(linalg::inv(f64({3, 3}), {.assume_a = linalg::matrix_structure::tridiagonal}), value_error);
  CHECK_THROWS_AS(linalg::inv(f64({3, 3}), {.assume_a = linalg::matrix_structure::banded}), value_error);
  CHECK_THROWS_WITH_AS(linalg::det(f64({3})), doctest::Contains("cusci::linalg::det: the input array must be at least"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::det(f64({3, 4})), doctest::Contains("must be square but received shape (3, 4)"),
                       value_error);
  CHECK_THROWS_AS(linalg::det(f64({})), value_error);
}
