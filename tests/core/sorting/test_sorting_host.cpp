// Host tests of the sorting family: option parsing and argument checks that throw before any device
// work (NumPy's exception kinds; see tests/golden/gen_core_sorting.py, which checks NumPy raises).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/sorting.hpp"

using namespace cusci;

TEST_CASE("parse_sort_kind accepts NumPy's names and first letters") {
  CHECK(parse_sort_kind("quicksort") == sort_kind::quicksort);
  CHECK(parse_sort_kind("q") == sort_kind::quicksort);
  CHECK(parse_sort_kind("mergesort") == sort_kind::mergesort);
  CHECK(parse_sort_kind("heapsort") == sort_kind::heapsort);
  CHECK(parse_sort_kind("stable") == sort_kind::stable);
  CHECK(parse_sort_kind("Stable") == sort_kind::stable);
  CHECK_THROWS_AS(parse_sort_kind("bogo"), cusci::value_error);
  CHECK_THROWS_AS(parse_sort_kind(""), cusci::value_error);
}

TEST_CASE("parse_search_side") {
  CHECK(parse_search_side("left") == search_side::left);
  CHECK(parse_search_side("right") == search_side::right);
  CHECK(parse_search_side("r") == search_side::right);
  CHECK_THROWS_AS(parse_search_side("middle"), cusci::value_error);
}

TEST_CASE("argument checks before device work") {
  ndarray e;  // float64 (0,), no device memory
  CHECK_THROWS_AS(sort(e, 1), cusci::index_error);
  CHECK_THROWS_AS(argsort(e, -2), cusci::index_error);
  CHECK_THROWS_AS(partition(e, 0), cusci::value_error);  // kth(=0) out of bounds (0)
  CHECK_THROWS_AS(argpartition(e, std::vector<std::int64_t>{}), cusci::value_error);
  CHECK_THROWS_AS(bincount(e), cusci::type_error);       // float64 cannot be cast safely to int64
  CHECK_THROWS_AS(histogram(e, 0), cusci::value_error);
  CHECK_THROWS_AS(histogram(e, -1), cusci::value_error);
  CHECK_THROWS_AS(histogram(e, 3, {.range = std::make_pair(1.0, 0.0)}), cusci::value_error);
  CHECK_THROWS_AS(histogram(e, 3, {.range = std::make_pair(0.0, 1.0 / 0.0)}), cusci::value_error);
  CHECK_THROWS_AS(unique(e, {.axis = 0}), cusci::not_implemented_error);
  try {
    partition(e, 7);
    FAIL("no throw");
  } catch (const cusci::value_error& ex) {
    CHECK(std::string(ex.what()).find("kth(=7) out of bounds (0)") != std::string::npos);
  }
}
