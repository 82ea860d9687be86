// Host tests of cusci::linalg's matrix functions: SciPy's defaults, and the argument checks that throw before
// any device work (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include "cusci/linalg/matfuncs.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::fake_array;
using cusci::testing::linalg_cases::f64;

TEST_CASE("options default to SciPy's") {
  const linalg::expm_frechet_options f{};
  CHECK(f.method == linalg::expm_frechet_method::SPS);
  CHECK(f.compute_expm);
  CHECK(f.check_finite);
  const linalg::expm_cond_options c{};
  CHECK(c.check_finite);
  CHECK(linalg::parse_expm_frechet_method("SPS") == linalg::expm_frechet_method::SPS);
  CHECK(linalg::parse_expm_frechet_method("blockEnlarge") == linalg::expm_frechet_method::blockEnlarge);
  CHECK_THROWS_WITH_AS(linalg::parse_expm_frechet_method("sps"),
                       "cusci::linalg::expm_frechet: Unknown implementation sps", value_error);
}

TEST_CASE("expm rejects bad shapes before touching the device") {
  CHECK_THROWS_WITH_AS(linalg::expm(f64({3})),
                       "cusci::linalg::expm: The input array must be at least two-dimensional", linalg::lin_alg_error);
  CHECK_THROWS_AS(linalg::expm(f64({0})), linalg::lin_alg_error);
  CHECK_THROWS_WITH_AS(linalg::expm(f64({2, 3, 4})),
                       "cusci::linalg::expm: Last 2 dimensions of the array must be square", linalg::lin_alg_error);
}

TEST_CASE("the trigonometric and hyperbolic functions check their input") {
  using fn_t = ndarray (*)(const ndarray&);
  const fn_t fs[] = {linalg::cosm, linalg::sinm, linalg::tanm, linalg::coshm, linalg::sinhm, linalg::tanhm};
  for (fn_t f : fs) {
    CHECK_THROWS_WITH_AS(f(f64({3})), doctest::Contains("expected square array_like input"), value_error);
    CHECK_THROWS_WITH_AS(f(f64({3, 4})), doctest::Contains("expected square array_like input"), value_error);
    CHECK_THROWS_WITH_AS(f(f64({0, 3, 3})), doctest::Contains("does not support zero-size batches."), value_error);
  }
  CHECK_THROWS_WITH_AS(linalg::cosm(f64({2, 0, 3, 3})), "cusci::linalg::cosm: `cosm` does not support zero-size batches.",
                       value_error);
  CHECK_THROWS_AS(linalg::coshm(fake_array(dtype::bool_, {2, 2})), type_error);
  CHECK_THROWS_AS(linalg::tanhm(fake_array(dtype::bool_, {2, 2})), type_error);
}

TEST_CASE("expm_frechet and expm_cond check their arguments") {
  const ndarray a = f64({3, 3});
  CHECK_THROWS_WITH_AS(linalg::expm_frechet(f64({3, 4}), a), doctest::Contains("expected A to be a square matrix"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::expm_frechet(a, f64({3})), doctest::Contains("expected E to be a square matrix"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::expm_frechet(a, f64({4, 4})),
                       doctest::Contains("expected A and E to be the same shape"), value_error);
  CHECK_THROWS_AS(linalg::expm_frechet(f64({2, 3, 3}), f64({3, 3, 3})), value_error);
  CHECK_THROWS_WITH_AS(linalg::expm_frechet(f64({0, 3, 3}), a),
                       doctest::Contains("`expm_frechet` does not support zero-size batches."), value_error);
  CHECK_THROWS_WITH_AS(linalg::expm_cond(f64({3, 2})), doctest::Contains("expected a square matrix"), value_error);
  CHECK_THROWS_WITH_AS(linalg::expm_cond(f64({0, 0})), doctest::Contains("need at least one array to concatenate"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::expm_cond(f64({0, 2, 2})),
                       doctest::Contains("`expm_cond` does not support zero-size batches."), value_error);
}
