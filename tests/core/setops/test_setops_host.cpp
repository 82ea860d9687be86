// Host tests of the setops family: option parsing and the argument checks that throw before any
// device work (NumPy's exception kinds; tests/golden/gen_core_setops.py checks that NumPy raises for
// the same calls, which the GPU test repeats on real arrays).

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/index_tricks.hpp"
#include "cusci/setops.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::fake_array;

TEST_CASE("option parsers") {
  CHECK(parse_isin_kind("sort") == isin_kind::sort);
  CHECK(parse_isin_kind("table") == isin_kind::table);
  CHECK_THROWS_AS(parse_isin_kind("hash"), cusci::value_error);
  CHECK_THROWS_AS(parse_isin_kind(""), cusci::value_error);
  CHECK(parse_meshgrid_indexing("xy") == meshgrid_indexing::xy);
  CHECK(parse_meshgrid_indexing("ij") == meshgrid_indexing::ij);
  CHECK_THROWS_AS(parse_meshgrid_indexing("yx"), cusci::value_error);
}

TEST_CASE("isin: kind=table needs integer or bool inputs") {
  const ndarray f = fake_array(dtype::float64, {4}), i = fake_array(dtype::int64, {4});
  CHECK_THROWS_AS(isin(f, i, {.kind = isin_kind::table}), cusci::value_error);
  CHECK_THROWS_AS(isin(i, fake_array(dtype::complex64, {2}), {.kind = isin_kind::table}), cusci::value_error);
  try {
    (void)isin(f, i, {.kind = isin_kind::table});
  } catch (const cusci::value_error& e) {
    CHECK(std::string(e.what()).find("cusci::isin") != std::string::npos);
  }
}

TEST_CASE("lexsort argument checks") {
  CHECK_THROWS_AS(lexsort(std::vector<ndarray>{}), cusci::type_error);
  CHECK_THROWS_AS(lexsort(fake_array(dtype::int64, {})), cusci::type_error);
  CHECK_THROWS_AS(lexsort(fake_array(dtype::int64, {0, 3})), cusci::type_error);
  CHECK_THROWS_AS(lexsort({fake_array(dtype::int64, {4}), fake_array(dtype::int64, {5})}), cusci::value_error);
  CHECK_THROWS_AS(lexsort({fake_array(dtype::int64, {4}), fake_array(dtype::int64, {2, 2})}), cusci::value_error);
  CHECK_THROWS_AS(lexsort({fake_array(dtype::int64, {4}), fake_array(dtype::float32, {4})}, {.axis = 1}),
                  cusci::index_error);
  CHECK_THROWS_AS(lexsort({fake_array(dtype::int64, {2, 2})}, {.axis = -3}), cusci::index_error);
}

TEST_CASE("digitize argument checks") {
  const ndarray x = fake_array(dtype::float64, {4});
  CHECK_THROWS_AS(digitize(fake_array(dtype::complex128, {4}), x), cusci::type_error);
  CHECK_THROWS_AS(digitize(x, fake_array(dtype::complex64, {4})), cusci::type_error);
  CHECK_THROWS_AS(digitize(x, fake_array(dtype::float64, {})), cusci::value_error);
  CHECK_THROWS_AS(digitize(x, fake_array(dtype::float64, {2, 2})), cusci::value_error);
}

TEST_CASE("unravel_index argument checks") {
  const ndarray i = fake_array(dtype::int64, {3});
  CHECK_THROWS_AS(unravel_index(fake_array(dtype::float64, {3}), {3, 4}), cusci::type_error);
  CHECK_THROWS_AS(unravel_index(fake_array(dtype::complex64, {3}), {3, 4}), cusci::type_error);
  CHECK_THROWS_AS(unravel_index(i, {3, -1}), cusci::value_error);
  CHECK_THROWS_AS(unravel_index(i, {}), cusci::value_error);  // multiple indices for a 0d shape
  CHECK_THROWS_AS(unravel_index(i, {std::int64_t{1} << 40, std::int64_t{1} << 40}), cusci::value_error);
  CHECK_THROWS_AS(unravel_index(i, shape_t(65, 1)), cusci::value_error);
}

TEST_CASE("ravel_multi_index argument checks") {
  const ndarray c = fake_array(dtype::int64, {3});
  CHECK_THROWS_AS(ravel_multi_index({c}, {3, 4}), cusci::value_error);
  CHECK_THROWS_AS(ravel_multi_index({c, c}, {3}), cusci::value_error);
  CHECK_THROWS_AS(ravel_multi_index({c, c}, {3, 4}, {.mode = {clip_mode::wrap, clip_mode::clip, clip_mode::raise}}),
                  cusci::value_error);
  CHECK_THROWS_AS(ravel_multi_index({c, fake_array(dtype::float32, {3})}, {3, 4}), cusci::type_error);
  CHECK_THROWS_AS(ravel_multi_index({c, c}, {3, 0}, {.mode = {clip_mode::wrap}}), cusci::value_error);
  CHECK_THROWS_AS(ravel_multi_index({c, c}, {3, 0}, {.mode = {clip_mode::raise, clip_mode::clip}}), cusci::value_error);
  CHECK_THROWS_AS(ravel_multi_index({c, c}, {3, -4}), cusci::value_error);
  CHECK_THROWS_AS(ravel_multi_index({c, c}, {std::int64_t{1} << 40, std::int64_t{1} << 40}), cusci::value_error);
  CHECK_THROWS_AS(ravel_multi_index({c, fake_array(dtype::int64, {2})}, {3, 4}), cusci::value_error);  // broadcast
}

TEST_CASE("indices and meshgrid argument checks") {
  CHECK_THROWS_AS(indices({2, -1}), cusci::value_error);
  CHECK_THROWS_AS(indices({2, 3}, {.dtype = dtype::bool_}), cusci::type_error);
  CHECK_THROWS_AS(indices({3}, {.dtype = dtype::bool_, .sparse = true}), cusci::type_error);
  CHECK(meshgrid({}).empty());
  CHECK(meshgrid({}, {.copy = false, .sparse = true, .indexing = meshgrid_indexing::ij}).empty());
}
