// Host tests of cusci::linalg's eigen family: SciPy's defaults, the string parsers, and the argument checks
// that throw before any device work (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include <limits>

#include "cusci/linalg/eigen.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::fake_array;
using cusci::testing::linalg_cases::f64;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("options default to SciPy's") {
  const linalg::eigh_options h{};
  CHECK(h.lower);
  CHECK_FALSE(h.eigvals_only);
  CHECK_FALSE(h.overwrite_a);
  CHECK_FALSE(h.overwrite_b);
  CHECK(h.type == 1);
  CHECK(h.check_finite);
  CHECK_FALSE(h.subset_by_index);
  CHECK_FALSE(h.subset_by_value);
  CHECK(h.driver == linalg::eigh_driver::none);
  const linalg::eigvalsh_options vh{};
  CHECK(vh.lower);
  CHECK(vh.type == 1);
  const linalg::eig_options e{};
  CHECK_FALSE(e.left);
  CHECK(e.right);
  CHECK(e.check_finite);
  CHECK_FALSE(e.homogeneous_eigvals);
  const linalg::eig_banded_options b{};
  CHECK_FALSE(b.lower);
  CHECK_FALSE(b.eigvals_only);
  CHECK(b.select == linalg::eig_select::a);
  CHECK(b.max_ev == 0);
  const linalg::eigh_tridiagonal_options t{};
  CHECK(t.tol == 0.0);
  CHECK(t.lapack_driver == "auto");
  const linalg::pinvh_options p{};
  CHECK_FALSE(p.atol);
  CHECK_FALSE(p.rtol);
  CHECK(p.lower);
  CHECK_FALSE(p.return_rank);
  CHECK(p.check_finite);
}

TEST_CASE("parsers take SciPy's strings") {
  CHECK(linalg::parse_eigh_driver("evr") == linalg::eigh_driver::evr);
  CHECK(linalg::parse_eigh_driver("gvx") == linalg::eigh_driver::gvx);
  CHECK(linalg::parse_eigh_driver("None") == linalg::eigh_driver::none);
  CHECK_THROWS_WITH_AS(linalg::parse_eigh_driver("evq"), doctest::Contains("\"evq\" is unknown"), value_error);
  CHECK(linalg::parse_eig_select("A") == linalg::eig_select::a);
  CHECK(linalg::parse_eig_select("value") == linalg::eig_select::v);
  CHECK(linalg::parse_eig_select("i") == linalg::eig_select::i);
  CHECK_THROWS_WITH_AS(linalg::parse_eig_select("x"), doctest::Contains("invalid argument for select"), value_error);
}

TEST_CASE("eigh checks its arguments before touching the device") {
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3})), "cusci::linalg::eigh: expected square \"a\" matrix", value_error);
  CHECK_THROWS_AS(linalg::eigh(f64({3, 4})), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({0, 3, 3})), doctest::Contains("`eigh` does not support zero-size batches"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::eigvalsh(f64({2, 0, 3, 3})), doctest::Contains("`eigvalsh` does not support"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), f64({4, 4})),
                       "cusci::linalg::eigh: wrong b dimensions (4, 4), should be (3, 3)", value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), f64({3})), doctest::Contains("expected square \"b\" matrix"),
                       value_error);
  CHECK_THROWS_AS(linalg::eigh(f64({2, 3, 3}), f64({3, 3, 3})), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), f64({3, 3}), {.type = 4}),
                       doctest::Contains("\"type\" keyword only accepts 1, 2, and 3."), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), {.subset_by_index = {{0, 3}}}),
                       doctest::Contains("Valid range is [0, 2] and start <= end, but start=0, end=3 is given"),
                       value_error);
  CHECK_THROWS_AS(linalg::eigh(f64({3, 3}), {.subset_by_index = {{2, 1}}}), value_error);
  CHECK_THROWS_AS(linalg::eigh(f64({3, 3}), {.subset_by_index = {{-1, 1}}}), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), {.subset_by_value = {{1.0, 1.0}}}),
                       doctest::Contains("Requested eigenvalue bounds are not valid"), value_error);
  CHECK_THROWS_AS(linalg::eigh(f64({3, 3}), {.subset_by_value = {{inf, inf}}}), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), {.subset_by_index = {{0, 1}}, .subset_by_value = {{0.0, 1.0}}}),
                       doctest::Contains("Either index or value subset can be requested."), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), {.driver = linalg::eigh_driver::gvd}),
                       doctest::Contains("gvd requires input b array"), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), f64({3, 3}), {.driver = linalg::eigh_driver::evd}),
                       doctest::Contains("does not accept input b array"), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), {.subset_by_index = {{0, 1}}, .driver = linalg::eigh_driver::ev}),
                       doctest::Contains("\"ev\" cannot compute subsets of eigenvalues"), value_error);
  const ndarray other(memory_ptr{}, dtype::float64, {3, 3}, {24, 8}, 0, 1);
  CHECK_THROWS_WITH_AS(linalg::eigh(f64({3, 3}), other), doctest::Contains("different devices"), value_error);
}

TEST_CASE("eig checks its arguments") {
  CHECK_THROWS_WITH_AS(linalg::eig(f64({3})),
                       "cusci::linalg::eig: Expected a square matrix or a batch of square matrices. Got a.shape = (3,)",
                       value_error);
  CHECK_THROWS_AS(linalg::eigvals(f64({2, 3, 4})), value_error);
  CHECK_THROWS_WITH_AS(linalg::eig(f64({3, 3}), f64({4, 4})), doctest::Contains("a and b must have the same shape"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::eig(f64({3, 3}), f64({3, 4})), doctest::Contains("expected square matrix"), value_error);
  CHECK_THROWS_AS(linalg::eig(f64({2, 3, 3}), f64({3, 3, 3})), value_error);
}

TEST_CASE("banded and tridiagonal checks") {
  CHECK_THROWS_WITH_AS(linalg::eig_banded(f64({4})), doctest::Contains("expected a 2-D array"), value_error);
  CHECK_THROWS_WITH_AS(linalg::eig_banded(f64({0, 2, 4})), doctest::Contains("`eig_banded` does not support"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::eig_banded(f64({2, 4}), {.select = linalg::eig_select::v}),
                       doctest::Contains("select_range must be a 2-element array-like in nondecreasing order"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::eigvals_banded(f64({2, 4}), {.select = linalg::eig_select::i, .select_range = {{0, 4}}}),
                       doctest::Contains("select_range out of bounds"), value_error);
  CHECK_THROWS_AS(linalg::eig_banded(f64({2, 4}), {.select = linalg::eig_select::i, .select_range = {{2, 1}}}),
                  value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh_tridiagonal(fake_array(dtype::complex128, {3}), f64({2})),
                       doctest::Contains("Only real arrays currently supported"), type_error);
  CHECK_THROWS_WITH_AS(linalg::eigh_tridiagonal(f64({3}), f64({3})),
                       doctest::Contains("d (3) must have one more element than e (3)"), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh_tridiagonal(f64({}), f64({0})), doctest::Contains("expected a 1-D array"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh_tridiagonal(f64({3}), f64({2}), {.lapack_driver = "xyz"}),
                       doctest::Contains("lapack_driver must be one of"), value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh_tridiagonal(f64({3}), f64({2}), {.lapack_driver = "sterf"}),
                       doctest::Contains("sterf can only be used when eigvals_only is True"), value_error);
  CHECK_THROWS_AS(linalg::eigvalsh_tridiagonal(f64({3}), f64({2}), {.select = linalg::eig_select::i,
                                                                    .select_range = {{0, 1}},
                                                                    .lapack_driver = "stevd"}),
                  value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh_tridiagonal(f64({3}), f64({2}), {.select = linalg::eig_select::i,
                                                                     .select_range = {{0.5, 1.0}}}),
                       doctest::Contains("select_range must contain integers"), value_error);
  CHECK_THROWS_AS(linalg::eigh_tridiagonal(f64({0, 3}), f64({0, 2})), value_error);
  CHECK_THROWS_AS(linalg::eigh_tridiagonal(f64({2, 3}), f64({3, 2})), value_error);
}

TEST_CASE("pinvh checks its arguments") {
  CHECK_THROWS_WITH_AS(linalg::pinvh(f64({3, 3}), {.atol = -1.0}),
                       "cusci::linalg::pinvh: atol and rtol values must be positive.", value_error);
  CHECK_THROWS_AS(linalg::pinvh(f64({3, 3}), {.rtol = -1e-3}), value_error);
  CHECK_THROWS_AS(linalg::pinvh(f64({3, 4})), value_error);
  CHECK_THROWS_AS(linalg::pinvh(f64({0, 3, 3})), value_error);
}
