// Host tests of cusci::linalg: SciPy's assume_a strings, and the argument checks that throw before any
// device work (arrays here are views with no memory behind them; they are never read).

#include <doctest/doctest.h>

#include "testing.hpp"

#include "cusci/linalg/linalg.hpp"

using namespace cusci;
using linalg::matrix_structure;

namespace {
/// testing::fake_array with the dtype last (float64 unless given).
ndarray shape_only(const shape_t& shape, dtype dt = dtype::float64) { return testing::fake_array(dt, shape); }
}  // namespace

TEST_CASE("parse_matrix_structure accepts SciPy's assume_a strings") {
  CHECK(linalg::parse_matrix_structure("gen") == matrix_structure::general);
  CHECK(linalg::parse_matrix_structure("general") == matrix_structure::general);
  CHECK(linalg::parse_matrix_structure("sym") == matrix_structure::symmetric);
  CHECK(linalg::parse_matrix_structure("symmetric") == matrix_structure::symmetric);
  CHECK(linalg::parse_matrix_structure("her") == matrix_structure::hermitian);
  CHECK(linalg::parse_matrix_structure("hermitian") == matrix_structure::hermitian);
  CHECK(linalg::parse_matrix_structure("pos") == matrix_structure::positive_definite);
  CHECK(linalg::parse_matrix_structure("positive definite") == matrix_structure::positive_definite);
  CHECK(linalg::parse_matrix_structure("diagonal") == matrix_structure::diagonal);
  CHECK(linalg::parse_matrix_structure("tridiagonal") == matrix_structure::tridiagonal);
  CHECK(linalg::parse_matrix_structure("banded") == matrix_structure::banded);
  CHECK(linalg::parse_matrix_structure("upper triangular") == matrix_structure::upper_triangular);
  CHECK(linalg::parse_matrix_structure("lower triangular") == matrix_structure::lower_triangular);
  CHECK(linalg::parse_matrix_structure("None") == matrix_structure::auto_);
  CHECK(linalg::parse_matrix_structure("") == matrix_structure::auto_);
  CHECK_THROWS_WITH_AS(linalg::parse_matrix_structure("foo"),
                       "cusci::linalg::parse_matrix_structure: foo is not a recognized matrix structure",
                       value_error);
  CHECK_THROWS_AS(linalg::parse_matrix_structure("GEN"), value_error);
}

TEST_CASE("options default to SciPy's") {
  const linalg::solve_options s{};
  CHECK_FALSE(s.lower);
  CHECK_FALSE(s.overwrite_a);
  CHECK_FALSE(s.overwrite_b);
  CHECK(s.check_finite);
  CHECK(s.assume_a == matrix_structure::auto_);
  CHECK_FALSE(s.transposed);
  const linalg::cholesky_options c{};
  CHECK_FALSE(c.lower);
  CHECK(c.check_finite);
}

TEST_CASE("lin_alg_error is a cusci::error") {
  CHECK_THROWS_AS(throw linalg::lin_alg_error("x"), cusci::error);
}

TEST_CASE("solve rejects bad shapes before touching the device") {
  // a not square
  CHECK_THROWS_AS(linalg::solve(shape_only({2, 3}), shape_only({2})), value_error);
  CHECK_THROWS_AS(linalg::solve(shape_only({4, 2, 3}), shape_only({2})), value_error);
  // 1-d a of length 3 is (1, 3): not square
  CHECK_THROWS_AS(linalg::solve(shape_only({3}), shape_only({3})), value_error);
  // b rows != N
  CHECK_THROWS_AS(linalg::solve(shape_only({3, 3}), shape_only({2})), value_error);
  CHECK_THROWS_AS(linalg::solve(shape_only({3, 3}), shape_only({0})), value_error);
  CHECK_THROWS_AS(linalg::solve(shape_only({3, 3}), shape_only({0, 3})), value_error);
  // SciPy 1.18: a 2-d b is one (N, K) matrix, never a batch of vectors
  CHECK_THROWS_AS(linalg::solve(shape_only({4, 3, 3}), shape_only({4, 3})), value_error);
  // batch dimensions that do not broadcast
  CHECK_THROWS_AS(linalg::solve(shape_only({2, 3, 3}), shape_only({3, 3, 1})), value_error);
  CHECK_THROWS_AS(linalg::solve(shape_only({2, 2, 3, 3}), shape_only({3, 1, 3, 2})), value_error);
  // transposed with a complex dtype (also when only b is complex: the common dtype is complex)
  CHECK_THROWS_AS(linalg::solve(shape_only({3, 3}, dtype::complex128), shape_only({3}), {.transposed = true}),
                  not_implemented_error);
  CHECK_THROWS_AS(linalg::solve(shape_only({3, 3}), shape_only({3}, dtype::complex64), {.transposed = true}),
                  not_implemented_error);
  // a of size 1 broadcast to a batch > 1 (SciPy raises: size-1 array to scalar)
  CHECK_THROWS_AS(linalg::solve(shape_only({1, 1}), shape_only({2, 1, 3})), value_error);
}

TEST_CASE("solve's messages name the function and the shapes") {
  CHECK_THROWS_WITH_AS(linalg::solve(shape_only({2, 3}), shape_only({2})),
                       doctest::Contains("cusci::linalg::solve: a must be square"), value_error);
  CHECK_THROWS_WITH_AS(linalg::solve(shape_only({3, 3}), shape_only({2})),
                       doctest::Contains("incompatible shapes"), value_error);
  CHECK_THROWS_WITH_AS(linalg::solve(shape_only({2, 3, 3}), shape_only({3, 3, 1})),
                       doctest::Contains("(2, 3, 3)"), value_error);
}

TEST_CASE("cholesky rejects non-square input before touching the device") {
  CHECK_THROWS_AS(linalg::cholesky(shape_only({2, 3})), value_error);
  CHECK_THROWS_AS(linalg::cholesky(shape_only({5, 3, 4})), value_error);
  CHECK_THROWS_AS(linalg::cholesky(shape_only({3})), value_error);  // atleast_2d: (1, 3)
  CHECK_THROWS_AS(linalg::cholesky(shape_only({0})), value_error);  // (1, 0)
  CHECK_THROWS_WITH_AS(linalg::cholesky(shape_only({2, 3})),
                       doctest::Contains("cusci::linalg::cholesky: a must be a square matrix"), value_error);
}

TEST_CASE("solve refuses a and b on different devices") {
  const ndarray a = shape_only({3, 3});
  const ndarray b0 = shape_only({3});
  const ndarray b1(memory_ptr{}, b0.dtype(), b0.shape(), b0.strides(), 0, 1);
  CHECK_THROWS_WITH_AS(linalg::solve(a, b1), doctest::Contains("different devices"), value_error);
}
