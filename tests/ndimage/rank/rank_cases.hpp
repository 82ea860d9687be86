#pragma once
// Shared by the rank filter tests: the cases of tests/golden/gen_ndimage_rank.py run through the
// public API (rank_filter, median_filter, percentile_filter), with the case parameters of
// ../ndimage_cases.hpp (size, footprint, mode, cval, origin, axes, output, output_array, layout).

#include <string>

#include "../ndimage_cases.hpp"
#include "cusci/ndimage/rank.hpp"

namespace rank_test {

namespace nd = cusci::ndimage;
using cusci::testing::golden_case;
using ndimage_test::axes_of;
using ndimage_test::ints_of;
using ndimage_test::modes_of;
using ndimage_test::output_array_of;
using ndimage_test::output_of;

inline nd::rank_filter_options options_of(const golden_case& c, const std::optional<cusci::ndarray>& arr) {
  nd::rank_filter_options o;
  if (c.has("footprint")) o.footprint = c.array("footprint");
  o.output = output_of(c, arr);
  o.mode = modes_of(c);
  o.cval = c.get_or<double>("cval", 0.0);
  o.origin = ints_of(c, "origin", 0);
  o.axes = axes_of(c);
  return o;
}

inline nd::per_axis<std::int64_t> size_of(const golden_case& c) {
  return c.has("size") ? ints_of(c, "size", 0) : nd::per_axis<std::int64_t>{};
}

/// Calls the case's function on `x` (with the case's output array when it has one).
inline cusci::ndarray run_case(const golden_case& c, const cusci::ndarray& x, bool fake = false) {
  const auto arr = output_array_of(c, x, fake);
  const auto o = options_of(c, arr);
  if (c.func() == "median_filter") return nd::median_filter(x, size_of(c), o);
  if (c.func() == "rank_filter") return nd::rank_filter(x, c.get<std::int64_t>("rank"), size_of(c), o);
  REQUIRE(c.func() == "percentile_filter");
  return nd::percentile_filter(x, c.get<double>("percentile"), size_of(c), o);
}

/// Checks that error case `c` throws the exception it names, with SciPy's text where it gives one.
inline void check_throws(const golden_case& c, const cusci::ndarray& x, bool fake = false) {
  if (c.error() == "runtime_error") CHECK_THROWS_AS((void)run_case(c, x, fake), cusci::runtime_error);
  else cusci::testing::check_error(c, [&] { (void)run_case(c, x, fake); });
  if (c.has("error_text")) {
    const std::string text = c.get<std::string>("error_text");
    std::string what;
    try {
      (void)run_case(c, x, fake);
    } catch (const cusci::error& e) {
      what = e.what();
    }
    CHECK_MESSAGE(what.find(text) != std::string::npos, "message '" << what << "' lacks '" << text << "'");
    CHECK_MESSAGE(what.find("cusci::ndimage::" + c.func()) != std::string::npos, "message '" << what
                                                                                  << "' does not name the function");
  }
}

}  // namespace rank_test
