// Host tests of cusci::linalg's triangular family: SciPy's trans strings, option defaults, and the
// argument checks that throw before any allocation or device work (the arrays are views with no memory
// behind them; they are never read).

#include <doctest/doctest.h>

#include "testing.hpp"

#include "cusci/linalg/triangular.hpp"

using namespace cusci;
using linalg::transpose_mode;

namespace {
/// testing::fake_array with the dtype last (float64 unless given).
ndarray shape_only(const shape_t& shape, dtype dt = dtype::float64) { return testing::fake_array(dt, shape); }
}  // namespace

TEST_CASE("parse_transpose_mode accepts SciPy's trans values") {
  CHECK(linalg::parse_transpose_mode("N") == transpose_mode::N);
  CHECK(linalg::parse_transpose_mode("0") == transpose_mode::N);
  CHECK(linalg::parse_transpose_mode("T") == transpose_mode::T);
  CHECK(linalg::parse_transpose_mode("1") == transpose_mode::T);
  CHECK(linalg::parse_transpose_mode("C") == transpose_mode::C);
  CHECK(linalg::parse_transpose_mode("2") == transpose_mode::C);
  CHECK_THROWS_AS(linalg::parse_transpose_mode("X"), value_error);
  CHECK_THROWS_AS(linalg::parse_transpose_mode("n"), value_error);
}

TEST_CASE("triangular options default to SciPy's") {
  const linalg::solve_triangular_options st{};
  CHECK(st.trans == transpose_mode::N);
  CHECK_FALSE(st.lower);
  CHECK_FALSE(st.unit_diagonal);
  CHECK(st.check_finite);
  CHECK_FALSE(linalg::cho_factor_options{}.lower);
  CHECK(linalg::cho_solve_options{}.check_finite);
  CHECK(linalg::solve_banded_options{}.check_finite);
  CHECK_FALSE(linalg::solveh_banded_options{}.lower);
  CHECK_FALSE(linalg::cholesky_banded_options{}.lower);
  CHECK(linalg::cho_solve_banded_options{}.check_finite);
  CHECK_FALSE(linalg::symmetry_options{}.atol.has_value());
  CHECK_FALSE(linalg::symmetry_options{}.rtol.has_value());
}

TEST_CASE("solve_triangular: argument checks") {
  CHECK_THROWS_WITH_AS(linalg::solve_triangular(shape_only({3, 4}), shape_only({3})),
                       doctest::Contains("cusci::linalg::solve_triangular: expected square matrix"), value_error);
  CHECK_THROWS_AS(linalg::solve_triangular(shape_only({3}), shape_only({3})), value_error);
  CHECK_THROWS_WITH_AS(linalg::solve_triangular(shape_only({3, 3}), shape_only({4, 2})),
                       "cusci::linalg::solve_triangular: shapes of a (3, 3) and b (4, 2) are incompatible",
                       value_error);
  CHECK_THROWS_AS(linalg::solve_triangular(shape_only({3, 3}), shape_only({})), value_error);
  CHECK_THROWS_AS(linalg::solve_triangular(shape_only({2, 3, 3}), shape_only({3, 3, 1})), value_error);
  CHECK_THROWS_AS(linalg::solve_triangular(shape_only({0, 3, 3}), shape_only({3})), value_error);
  CHECK_THROWS_AS(linalg::solve_triangular(shape_only({3, 3}), shape_only({3}), {.trans = transpose_mode(3)}),
                  value_error);
}

TEST_CASE("cho_factor / cho_solve: argument checks") {
  CHECK_THROWS_WITH_AS(linalg::cho_factor(shape_only({2, 3})), doctest::Contains("cusci::linalg::cho_factor:"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::cho_solve({shape_only({2, 3}), false}, shape_only({2})),
                       doctest::Contains("The factored matrix c is not square"), value_error);
  CHECK_THROWS_WITH_AS(linalg::cho_solve({shape_only({3, 3}), false}, shape_only({2})),
                       doctest::Contains("incompatible dimensions ((3, 3) and (2,))"), value_error);
}

TEST_CASE("banded solvers: argument checks") {
  CHECK_THROWS_WITH_AS(linalg::solve_banded({1, 1}, shape_only({2, 4}), shape_only({4})),
                       "cusci::linalg::solve_banded: invalid values for the number of lower and upper diagonals: "
                       "l+u+1 (3) does not equal ab.shape[0] (2)",
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::solve_banded({1, 1}, shape_only({3, 4}), shape_only({5})),
                       "cusci::linalg::solve_banded: shapes of ab and b are not compatible.", value_error);
  CHECK_THROWS_AS(linalg::solve_banded({-1, 2}, shape_only({2, 4}), shape_only({4})), value_error);
  CHECK_THROWS_AS(linalg::solve_banded({0, 0}, shape_only({4}), shape_only({4})), value_error);
  CHECK_THROWS_WITH_AS(linalg::solveh_banded(shape_only({2, 4}), shape_only({3})),
                       "cusci::linalg::solveh_banded: shapes of ab and b are not compatible.", value_error);
  CHECK_THROWS_AS(linalg::solveh_banded(shape_only({0, 3}), shape_only({3})), value_error);
  CHECK_THROWS_AS(linalg::solveh_banded(shape_only({2, 1}), shape_only({1})), value_error);
  CHECK_THROWS_AS(linalg::solveh_banded(shape_only({2, 2, 4}), shape_only({3, 4, 1})), value_error);
  CHECK_THROWS_AS(linalg::cholesky_banded(shape_only({4})), value_error);
  CHECK_THROWS_AS(linalg::cholesky_banded(shape_only({0, 2, 4})), value_error);
  CHECK_THROWS_WITH_AS(linalg::cho_solve_banded({shape_only({2, 4}), false}, shape_only({3})),
                       "cusci::linalg::cho_solve_banded: shapes of cb and b are not compatible.", value_error);
  CHECK_THROWS_AS(linalg::cho_solve_banded({shape_only({0, 3}), false}, shape_only({3})), value_error);
}

TEST_CASE("structure queries: argument checks") {
  CHECK_THROWS_WITH_AS(linalg::bandwidth(shape_only({3})), "cusci::linalg::bandwidth: Input array must be at least 2D.",
                       value_error);
  CHECK_THROWS_AS(linalg::bandwidth(shape_only({2, 2}, dtype::float16)), type_error);
  CHECK_THROWS_WITH_AS(linalg::issymmetric(shape_only({3})),
                       "cusci::linalg::issymmetric: Input array must be a 2D NumPy array.", value_error);
  CHECK_THROWS_WITH_AS(linalg::ishermitian(shape_only({2, 3})),
                       doctest::Contains("cusci::linalg::ishermitian: Input array must be square"), value_error);
  CHECK_THROWS_AS(linalg::issymmetric(shape_only({2, 2}, dtype::float16)), type_error);
  CHECK_THROWS_AS(linalg::ishermitian(shape_only({0, 2, 2})), value_error);
}
