// Host tests of cusci::sparse's construct family: argument checks that throw before any device work
// (CI has no GPU). Expected exception types are SciPy 1.18's (ValueError -> value_error, TypeError ->
// type_error, NotImplementedError -> not_implemented_error).

#include <cmath>
#include <limits>
#include <string>

#include "cusci/sparse/construct.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sp = cusci::sparse;

TEST_CASE("eye/identity: bad shape, dtype and format throw before device work") {
  CHECK_THROWS_AS(sp::eye(-1), value_error);
  CHECK_THROWS_AS(sp::eye(3, -2), value_error);
  CHECK_THROWS_AS(sp::eye(3, 3, 0, dtype::float16), type_error);
  CHECK_THROWS_AS(sp::eye(3, 3, 0, dtype::float64, "xyz"), value_error);
  CHECK_THROWS_AS(sp::eye(3, 3, 0, dtype::float64, "lil"), not_implemented_error);
  CHECK_THROWS_AS(sp::identity(2, dtype::float16), type_error);
  try {
    sp::eye(2, 2, 0, dtype::float64, "CSR");
    FAIL("no exception");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("CSR") != std::string::npos);
  }
}

TEST_CASE("random: density, shape and format are checked first") {
  CHECK_THROWS_AS(sp::random(3, 3, {.density = 1.5}), value_error);
  CHECK_THROWS_AS(sp::random(3, 3, {.density = -0.1}), value_error);
  CHECK_THROWS_AS(sp::random(3, 3, {.density = std::nan("")}), value_error);
  CHECK_THROWS_AS(sp::random(-3, 3), value_error);
  CHECK_THROWS_AS(sp::random(3, 3, {.format = "xyz"}), value_error);
  CHECK_THROWS_AS(sp::random(3, 3, {.dtype = dtype::float16}), type_error);
  CHECK_THROWS_AS(sp::random_array({std::numeric_limits<std::int64_t>::max(), 4}), value_error);
  try {
    sp::rand(2, 2, {.density = 2.0});
    FAIL("no exception");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("density expected to be 0 <= density <= 1") != std::string::npos);
  }
}

TEST_CASE("diags/spdiags: counts, shapes and format") {
  CHECK_THROWS_AS(sp::diags(std::vector<ndarray>{}, {0}), value_error);
  CHECK_THROWS_AS(sp::diags_array(std::vector<ndarray>{}, {}), value_error);  // no shape to infer
  CHECK_THROWS_AS(sp::diags(std::vector<ndarray>{}, {}, {.format = "abc"}), value_error);
  try {
    sp::diags(std::vector<ndarray>{}, {0, 1});
    FAIL("no exception");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("Different number of diagonals and offsets.") != std::string::npos);
  }
}

TEST_CASE("bmat/block_diag: grids and lists are checked first") {
  sp::block_grid ragged{{std::nullopt, std::nullopt}, {std::nullopt}};
  CHECK_THROWS_AS(sp::bmat(ragged), value_error);
  CHECK_THROWS_AS(sp::bmat({{std::nullopt}}, "dok"), not_implemented_error);
  CHECK_THROWS_AS(sp::bmat({{std::nullopt}}, "", dtype::float16), type_error);
  CHECK_THROWS_AS(sp::block_diag({}), value_error);
  CHECK_THROWS_AS(sp::hstack({}, "qq"), value_error);
}
