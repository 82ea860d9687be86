// Host tests of cusci::linalg::ldl: SciPy's defaults, and the argument checks that throw before any device
// work (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include "cusci/linalg/ldl.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::linalg_cases::f64;

TEST_CASE("ldl's options default to SciPy's") {
  const linalg::ldl_options o{};
  CHECK(o.lower);
  CHECK(o.hermitian);
  CHECK_FALSE(o.overwrite_a);
  CHECK(o.check_finite);
}

TEST_CASE("ldl rejects bad shapes before touching the device") {
  CHECK_THROWS_WITH_AS(linalg::ldl(f64({3, 4})), doctest::Contains("The input array \"a\" should be square"),
                       value_error);
  CHECK_THROWS_AS(linalg::ldl(f64({3})), value_error);
  CHECK_THROWS_AS(linalg::ldl(f64({2, 5, 4})), value_error);
  CHECK_THROWS_WITH_AS(linalg::ldl(f64({0, 3, 3})), doctest::Contains("zero-size batches"), value_error);
}
