// Host tests of cusci::linalg::cossin: SciPy's defaults, and the argument checks that throw before any
// transfer (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include <vector>

#include "cusci/linalg/cossin.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::linalg_cases::f64;

TEST_CASE("cossin's options default to SciPy's") {
  const linalg::cossin_options o{};
  CHECK_FALSE(o.p.has_value());
  CHECK_FALSE(o.q.has_value());
  CHECK_FALSE(o.separate);
  CHECK_FALSE(o.swap_sign);
  CHECK(o.compute_u);
  CHECK(o.compute_vh);
}

TEST_CASE("cossin rejects bad partitions and shapes before any transfer") {
  CHECK_THROWS_WITH_AS(linalg::cossin(f64({4, 4}), {.p = 0, .q = 4}), doctest::Contains("invalid p=0, 0<p<4"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(f64({4, 4}), {.p = -1, .q = {}}), doctest::Contains("invalid p=-1, 0<p<4"), value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(f64({4, 5}), {.p = 2, .q = {}}), doctest::Contains("only supports square matrices"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(f64({3, 4, 4})), doctest::Contains("exactly four arrays should be in X, got 3"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(f64({})), doctest::Contains("X must be an Iterable"), value_error);
  CHECK_THROWS_AS(linalg::cossin(std::vector<ndarray>{f64({2, 2}), f64({2, 2})}), value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(std::vector<ndarray>{f64({2, 0}), f64({2, 2}), f64({2, 0}), f64({2, 2})}),
                       doctest::Contains("x11 can't be empty"), value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(std::vector<ndarray>{f64({2, 2}), f64({2, 1}), f64({2, 2}), f64({2, 2})}),
                       doctest::Contains("Invalid x12 dimensions: desired (2, 2), got (2, 1)"), value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(std::vector<ndarray>{f64({2, 2}), f64({2, 1}), f64({2, 2}), f64({2, 1})}),
                       doctest::Contains("don't form a square array"), value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(std::vector<ndarray>{f64({3, 2, 2}), f64({2, 2, 2}), f64({2, 2}), f64({2, 2})}),
                       doctest::Contains("cannot be broadcast"), value_error);
}
