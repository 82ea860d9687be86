// Host tests of cusci::linalg's special matrices: SciPy's option strings, and the argument checks that
// throw before any device work (arrays here are views with no memory behind them; they are never read).
// The exception kinds are SciPy 1.18.1's (the same cases run against the references in the gpu test).

#include <doctest/doctest.h>

#include "testing.hpp"

#include "cusci/linalg/special_matrices.hpp"

using namespace cusci;

namespace {
/// testing::fake_array with the dtype last (float64 unless given).
ndarray shape_only(const shape_t& shape, dtype dt = dtype::float64) { return testing::fake_array(dt, shape); }
}  // namespace

TEST_CASE("option strings") {
  CHECK(linalg::parse_convolution_mode("full") == linalg::convolution_mode::full);
  CHECK(linalg::parse_convolution_mode("same") == linalg::convolution_mode::same);
  CHECK(linalg::parse_convolution_mode("valid") == linalg::convolution_mode::valid);
  CHECK_THROWS_AS(linalg::parse_convolution_mode("Full"), value_error);
  CHECK(linalg::parse_pascal_kind("symmetric") == linalg::pascal_kind::symmetric);
  CHECK(linalg::parse_pascal_kind("lower") == linalg::pascal_kind::lower);
  CHECK(linalg::parse_pascal_kind("upper") == linalg::pascal_kind::upper);
  CHECK_THROWS_WITH_AS(linalg::parse_pascal_kind("sym"), doctest::Contains("kind must be 'symmetric', 'lower', or 'upper'"),
                       value_error);
  CHECK(linalg::parse_dft_scale("sqrtn") == linalg::dft_scale::sqrtn);
  CHECK(linalg::parse_dft_scale("n") == linalg::dft_scale::n);
  CHECK(linalg::parse_dft_scale("") == linalg::dft_scale::none);
  CHECK_THROWS_WITH_AS(linalg::parse_dft_scale("N"), doctest::Contains("scale must be None, 'sqrtn', or 'n'"), value_error);
}

TEST_CASE("functions of n: checks before any device work") {
  CHECK_THROWS_AS(linalg::hadamard(0), value_error);
  CHECK_THROWS_AS(linalg::hadamard(12), value_error);
  CHECK_THROWS_AS(linalg::hadamard(-4), value_error);
  CHECK_THROWS_AS(linalg::hadamard(4, dtype::bool_), type_error);
  CHECK_THROWS_AS(linalg::helmert(-1), value_error);
  CHECK_THROWS_AS(linalg::helmert(0, true), index_error);
  CHECK_THROWS_AS(linalg::invhilbert(-1), value_error);
  CHECK_THROWS_AS(linalg::invhilbert(15, true), not_implemented_error);
  CHECK_THROWS_AS(linalg::pascal(-1), value_error);
  CHECK_THROWS_AS(linalg::pascal(35), not_implemented_error);
  CHECK_THROWS_AS(linalg::pascal(35, linalg::pascal_kind::lower), not_implemented_error);
  CHECK_THROWS_AS(linalg::invpascal(-1, linalg::pascal_kind::symmetric, false), value_error);
  CHECK_THROWS_AS(linalg::invpascal(35), not_implemented_error);
  CHECK_THROWS_AS(linalg::dft(-3, linalg::dft_scale::sqrtn), value_error);
  CHECK_THROWS_WITH_AS(linalg::hadamard(6), doctest::Contains("cusci::linalg::hadamard: n must be a positive integer"),
                       value_error);
}

TEST_CASE("array functions: shape checks before any device work") {
  const auto f64 = dtype::float64;
  CHECK_THROWS_WITH_AS(linalg::toeplitz(shape_only({0, 3})), doctest::Contains("does not support zero-size batches"),
                       value_error);
  CHECK_THROWS_AS(linalg::toeplitz(shape_only({2, 3}), shape_only({3, 3})), value_error);
  CHECK_THROWS_AS(linalg::hankel(shape_only({}), shape_only({3})), value_error);
  CHECK_THROWS_AS(linalg::hankel(shape_only({3}), shape_only({})), index_error);
  CHECK_THROWS_AS(linalg::companion(shape_only({4, 1})), value_error);
  CHECK_THROWS_AS(linalg::convolution_matrix(shape_only({3}), 0), value_error);
  CHECK_THROWS_AS(linalg::convolution_matrix(shape_only({0}), 2), value_error);
  CHECK_THROWS_AS(linalg::convolution_matrix(shape_only({}), 2), index_error);
  CHECK_THROWS_AS(linalg::fiedler(shape_only({3}, dtype::bool_)), type_error);
  CHECK_THROWS_AS(linalg::fiedler_companion(shape_only({0, 3})), value_error);
  CHECK_THROWS_AS(linalg::leslie(shape_only({4}), shape_only({2})), value_error);
  CHECK_THROWS_AS(linalg::leslie(shape_only({1}), shape_only({0})), value_error);
  CHECK_THROWS_AS(linalg::leslie(shape_only({0, 3}), shape_only({0, 2})), value_error);
  CHECK_THROWS_AS(linalg::block_diag({shape_only({2, 2, 2}), shape_only({3, 2, 2})}), value_error);
  CHECK_THROWS_AS(linalg::khatri_rao(shape_only({3}), shape_only({3})), value_error);
  CHECK_THROWS_AS(linalg::khatri_rao(shape_only({2, 3}, f64), shape_only({2, 4})), value_error);
  CHECK_THROWS_AS(linalg::khatri_rao(shape_only({0, 2, 3}), shape_only({3, 3})), value_error);
}
