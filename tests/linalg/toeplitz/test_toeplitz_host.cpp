// Host tests of cusci::linalg's toeplitz family: option defaults, SciPy's `singular` strings, and the
// argument checks that throw before any allocation or device work (the arrays are views with no memory
// behind them; they are never read).

#include <doctest/doctest.h>

#include "cusci/linalg/toeplitz.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::linalg_cases::f64;

TEST_CASE("toeplitz options default to SciPy's") {
  CHECK(linalg::solve_toeplitz_options{}.check_finite);
  CHECK_FALSE(linalg::matmul_toeplitz_options{}.check_finite);
  CHECK_FALSE(linalg::matmul_toeplitz_options{}.workers.has_value());
  const linalg::solve_circulant_options o{};
  CHECK(o.singular == linalg::circulant_singular::raise);
  CHECK_FALSE(o.tol.has_value());
  CHECK(o.caxis == -1);
  CHECK(o.baxis == 0);
  CHECK(o.outaxis == 0);
}

TEST_CASE("parse_circulant_singular follows SciPy's test singular == 'raise'") {
  CHECK(linalg::parse_circulant_singular("raise") == linalg::circulant_singular::raise);
  CHECK(linalg::parse_circulant_singular("lstsq") == linalg::circulant_singular::lstsq);
  CHECK(linalg::parse_circulant_singular("anything") == linalg::circulant_singular::lstsq);
}

TEST_CASE("solve_toeplitz: argument checks") {
  const std::string fn = "cusci::linalg::solve_toeplitz: ";
  CHECK_THROWS_WITH_AS(linalg::solve_toeplitz({f64({3}), f64({2})}, f64({3})), (fn + "Incompatible dimensions.").c_str(),
                       value_error);
  CHECK_THROWS_AS(linalg::solve_toeplitz(f64({3}), f64({2})), value_error);
  CHECK_THROWS_AS(linalg::solve_toeplitz(f64({3}), f64({2, 3})), value_error);
  CHECK_THROWS_AS(linalg::solve_toeplitz(f64({}), f64({1})), index_error);
  CHECK_THROWS_AS(linalg::solve_toeplitz({f64({1}), f64({})}, f64({1})), index_error);
  CHECK_THROWS_AS(linalg::solve_toeplitz(f64({1}), f64({})), index_error);
  CHECK_THROWS_WITH_AS(linalg::solve_toeplitz(f64({0, 3}), f64({3})),
                       (fn + "`_solve_toeplitz` does not support zero-size batches.").c_str(), value_error);
  CHECK_THROWS_AS(linalg::solve_toeplitz(f64({2, 3}), f64({3, 3, 1})), value_error);
  CHECK_THROWS_AS(linalg::solve_toeplitz({f64({2, 3}), f64({4, 3})}, f64({3})), value_error);
}

TEST_CASE("matmul_toeplitz: argument checks") {
  CHECK_THROWS_WITH_AS(linalg::matmul_toeplitz({f64({3}), f64({4})}, f64({3})),
                       "cusci::linalg::matmul_toeplitz: Incompatible dimensions.", value_error);
  CHECK_THROWS_AS(linalg::matmul_toeplitz({f64({3}), f64({4})}, f64({4, 2, 2})), value_error);
  CHECK_THROWS_AS(linalg::matmul_toeplitz(f64({1}), f64({})), index_error);
  CHECK_THROWS_AS(linalg::matmul_toeplitz(f64({0, 3}), f64({3})), value_error);
}

TEST_CASE("solve_circulant: argument checks") {
  const std::string fn = "cusci::linalg::solve_circulant: ";
  CHECK_THROWS_WITH_AS(linalg::solve_circulant(f64({3}), f64({3}), {.caxis = 2}),
                       (fn + "'caxis' entry is out of bounds").c_str(), value_error);
  CHECK_THROWS_WITH_AS(linalg::solve_circulant(f64({3}), f64({3}), {.baxis = -2}),
                       (fn + "'baxis' entry is out of bounds").c_str(), value_error);
  CHECK_THROWS_WITH_AS(linalg::solve_circulant(f64({3}), f64({4})),
                       (fn + "Shapes of c (3,) and b (4,) are incompatible").c_str(), value_error);
  CHECK_THROWS_AS(linalg::solve_circulant(f64({2, 3}), f64({4, 3}), {.baxis = -1}), value_error);
  CHECK_THROWS_AS(linalg::solve_circulant(f64({3}), f64({3}), {.outaxis = 1}), index_error);
  CHECK_THROWS_AS(linalg::solve_circulant(f64({3}), f64({3}), {.outaxis = -2}), index_error);
}
