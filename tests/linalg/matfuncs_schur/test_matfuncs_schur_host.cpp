// Host tests of cusci::linalg's Schur-based matrix functions: the argument checks that throw before any
// device work (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include <complex>

#include "cusci/linalg/matfuncs_schur.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::linalg_cases::f64;

namespace {
std::complex<double> ident(std::complex<double> x) { return x; }
}  // namespace

TEST_CASE("sqrtm rejects bad shapes as SciPy 1.18 does") {
  CHECK_THROWS_WITH_AS(linalg::sqrtm(f64({3})),
                       "cusci::linalg::sqrtm: The input array must be at least two-dimensional", linalg::lin_alg_error);
  CHECK_THROWS_WITH_AS(linalg::sqrtm(f64({2, 3, 4})),
                       "cusci::linalg::sqrtm: Last 2 dimensions of the array must be square", linalg::lin_alg_error);
}

TEST_CASE("logm, funm, signm and fractional_matrix_power check their input") {
  CHECK_THROWS_WITH_AS(linalg::logm(f64({2, 3})), "cusci::linalg::logm: expected a square matrix", value_error);
  CHECK_THROWS_WITH_AS(linalg::logm(f64({3})), "cusci::linalg::logm: expected a square matrix", value_error);
  CHECK_THROWS_WITH_AS(linalg::logm(f64({0, 0})), doctest::Contains("empty sequence"), value_error);
  CHECK_THROWS_WITH_AS(linalg::logm(f64({0, 2, 2})), "cusci::linalg::logm: `logm` does not support zero-size batches.",
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::funm(f64({2, 3}), ident), "cusci::linalg::funm: expected square array_like input",
                       value_error);
  CHECK_THROWS_AS(linalg::funm(f64({0, 0}), ident), index_error);
  CHECK_THROWS_WITH_AS(linalg::funm(f64({2, 0, 3, 3}), ident), doctest::Contains("does not support zero-size batches."),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::signm(f64({3, 2})), "cusci::linalg::signm: expected square array_like input",
                       value_error);
  CHECK_THROWS_AS(linalg::signm(f64({0, 0})), value_error);
  CHECK_THROWS_WITH_AS(linalg::fractional_matrix_power(f64({2, 3}), 0.5),
                       "cusci::linalg::fractional_matrix_power: expected square array_like input", value_error);
  CHECK_THROWS_AS(linalg::fractional_matrix_power(f64({0, 0}), 0.5), index_error);
  CHECK_THROWS_AS(linalg::fractional_matrix_power(f64({0, 3, 3}), 2.0), value_error);
}
