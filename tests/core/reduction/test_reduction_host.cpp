// Argument validation of the reductions and scans that throws before any device work (runs without a
// GPU): bad / repeated axes, zero-size order reductions, diff's order and dimension checks. The
// expected exception kinds and message fragments are NumPy 2.5's.

#include <doctest/doctest.h>

#include "cusci/error.hpp"
#include "cusci/reduction.hpp"

using namespace cusci;

TEST_CASE("axis errors: out of range is index_error (NumPy's AxisError), repeated is value_error") {
  const ndarray a;  // float64, shape (0,), no device memory
  CHECK_THROWS_WITH_AS(cusci::sum(a, 1), doctest::Contains("axis 1 is out of bounds for array of dimension 1"),
                       cusci::index_error);
  CHECK_THROWS_AS(cusci::mean(a, -2), cusci::index_error);
  CHECK_THROWS_AS(cusci::var(a, 3), cusci::index_error);
  CHECK_THROWS_AS(cusci::any(a, {0, 1}), cusci::index_error);
  CHECK_THROWS_WITH_AS(cusci::sum(a, {0, -1}), doctest::Contains("duplicate value in 'axis'"), cusci::value_error);
  CHECK_THROWS_AS(cusci::nanstd(a, {0, 0}), cusci::value_error);
  CHECK_THROWS_AS(cusci::argmax(a, 1), cusci::index_error);
  CHECK_THROWS_AS(cusci::cumsum(a, 1), cusci::index_error);
  CHECK_THROWS_AS(cusci::cumprod(a, -2), cusci::index_error);
}

TEST_CASE("zero-size order reductions raise NumPy's ValueError") {
  const ndarray a;
  CHECK_THROWS_WITH_AS(cusci::min(a), doctest::Contains("zero-size array to reduction operation minimum which has no identity"),
                       cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::max(a), doctest::Contains("operation maximum"), cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::nanmin(a), doctest::Contains("operation fmin"), cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::nanmax(a), doctest::Contains("operation fmax"), cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::ptp(a), doctest::Contains("operation maximum"), cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::argmin(a), doctest::Contains("attempt to get argmin of an empty sequence"),
                       cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::argmax(a, 0), doctest::Contains("attempt to get argmax of an empty sequence"),
                       cusci::value_error);
  CHECK_THROWS_AS(cusci::nanargmax(a), cusci::value_error);
  CHECK_THROWS_AS(cusci::nanargmin(a, 0), cusci::value_error);
}

TEST_CASE("diff: order and dimension checks") {
  const ndarray a;
  CHECK_THROWS_WITH_AS(cusci::diff(a, -1), doctest::Contains("order must be non-negative but got -1"),
                       cusci::value_error);
  CHECK_THROWS_AS(cusci::diff(a, 1, 1), cusci::index_error);
  CHECK_THROWS_AS(cusci::diff(a, 1, -2), cusci::index_error);
}
