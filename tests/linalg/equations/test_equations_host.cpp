// Host tests of cusci::linalg's matrix equation solvers: SciPy's defaults and the argument checks that throw
// before any device work (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include "cusci/linalg/equations.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::linalg_cases::f64;

TEST_CASE("options default to SciPy's") {
  const linalg::solve_discrete_lyapunov_options o{};
  CHECK_FALSE(o.method.has_value());
}

TEST_CASE("solve_sylvester checks shapes and batches") {
  CHECK_THROWS_WITH_AS(linalg::solve_sylvester(f64({2, 3}), f64({2, 2}), f64({2, 2})),
                       "cusci::linalg::solve_sylvester: expected square matrix", value_error);
  CHECK_THROWS_WITH_AS(linalg::solve_sylvester(f64({2, 2}), f64({3, 2}), f64({2, 3})),
                       "cusci::linalg::solve_sylvester: expected square matrix", value_error);
  CHECK_THROWS_WITH_AS(linalg::solve_sylvester(f64({3, 3}), f64({2, 2}), f64({2, 3})),
                       doctest::Contains("not aligned"), value_error);
  CHECK_THROWS_WITH_AS(linalg::solve_sylvester(f64({0, 2, 2}), f64({2, 2}), f64({2, 2})),
                       "cusci::linalg::solve_sylvester: `solve_sylvester` does not support zero-size batches.",
                       value_error);
  CHECK_THROWS_AS(linalg::solve_sylvester(f64({2, 2, 2}), f64({3, 2, 2}), f64({2, 2})), value_error);
}

TEST_CASE("the continuous Lyapunov solvers check shapes") {
  for (auto f : {linalg::solve_continuous_lyapunov, linalg::solve_lyapunov}) {
    CHECK_THROWS_WITH_AS(f(f64({2, 3}), f64({2, 2})), doctest::Contains("Matrix a should be square."), value_error);
    CHECK_THROWS_WITH_AS(f(f64({2, 2}), f64({2, 3})), doctest::Contains("Matrix q should be square."), value_error);
    CHECK_THROWS_WITH_AS(f(f64({2, 2}), f64({3, 3})),
                         doctest::Contains("Matrix a and q should have the same shape."), value_error);
    CHECK_THROWS_WITH_AS(f(f64({0, 2, 2}), f64({2, 2})),
                         doctest::Contains("`solve_continuous_lyapunov` does not support zero-size batches."),
                         value_error);
  }
  CHECK_THROWS_WITH_AS(linalg::solve_continuous_lyapunov(f64({3}), f64({2, 2})),
                       "cusci::linalg::solve_continuous_lyapunov: Matrix a should be square.", value_error);
}

TEST_CASE("solve_discrete_lyapunov checks its method and shapes") {
  CHECK_THROWS_WITH_AS(linalg::solve_discrete_lyapunov(f64({2, 2}), f64({2, 2}), {.method = "schur"}),
                       "cusci::linalg::solve_discrete_lyapunov: Unknown solver schur", value_error);
  CHECK_THROWS_AS(linalg::solve_discrete_lyapunov(f64({2, 3}), f64({2, 2}), {.method = "direct"}), value_error);
  CHECK_THROWS_AS(linalg::solve_discrete_lyapunov(f64({2, 3}), f64({2, 2}), {.method = "bilinear"}),
                  linalg::lin_alg_error);
  CHECK_THROWS_AS(linalg::solve_discrete_lyapunov(f64({2, 2}), f64({3, 3})), value_error);
  CHECK_THROWS_WITH_AS(linalg::solve_discrete_lyapunov(f64({0, 2, 2}), f64({2, 2})),
                       doctest::Contains("`solve_discrete_lyapunov` does not support zero-size batches."),
                       value_error);
}

TEST_CASE("the Riccati solvers check shapes with SciPy's messages") {
  const ndarray a = f64({4, 4}), b = f64({4, 2}), q = f64({4, 4}), r = f64({2, 2});
  for (auto f : {linalg::solve_continuous_are, linalg::solve_discrete_are}) {
    CHECK_THROWS_WITH_AS(f(f64({4, 3}), b, q, r, {}), doctest::Contains("Matrix a should be square."), value_error);
    CHECK_THROWS_WITH_AS(f(a, b, f64({4, 3}), r, {}), doctest::Contains("Matrix q should be square."), value_error);
    CHECK_THROWS_WITH_AS(f(a, f64({3, 2}), q, r, {}),
                         doctest::Contains("Matrix a and b should have the same number of rows."), value_error);
    CHECK_THROWS_WITH_AS(f(a, b, f64({3, 3}), r, {}), doctest::Contains("Matrix a and q should have the same shape."),
                         value_error);
    CHECK_THROWS_WITH_AS(f(a, b, q, f64({3, 3}), {}),
                         doctest::Contains("Matrix b and r should have the same number of cols."), value_error);
    CHECK_THROWS_WITH_AS(f(a, b, q, r, {.e = f64({3, 3}), .s = {}}), doctest::Contains("Matrix a and e should have the same shape."),
                         value_error);
    CHECK_THROWS_WITH_AS(f(a, b, q, r, {.e = f64({4, 3}), .s = {}}), doctest::Contains("Matrix e should be square."),
                         value_error);
    CHECK_THROWS_WITH_AS(f(a, b, q, r, {.e = {}, .s = f64({4, 3})}), doctest::Contains("Matrix b and s should have the same shape."),
                         value_error);
    CHECK_THROWS_WITH_AS(f(f64({0, 4, 4}), b, q, r, {}), doctest::Contains("does not support zero-size batches."),
                         value_error);
  }
  const linalg::are_options o{};
  CHECK(o.balanced);
  CHECK_FALSE(o.e.has_value());
  CHECK_FALSE(o.s.has_value());
}
