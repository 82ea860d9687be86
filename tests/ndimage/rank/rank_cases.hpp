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
using ndimage_test::out_array;
using ndimage_test::output_array_of;
using ndimage_test::size_of;

inline nd::rank_filter_options options_of(const golden_case& c, const out_array& arr) {
  return ndimage_test::footprint_options_of<nd::rank_filter_options>(c, arr);
}

/// Calls the case's function on `x` with the output array `arr` (or none).
inline cusci::ndarray call(const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
  const auto o = options_of(c, arr);
  if (c.func() == "median_filter") return nd::median_filter(x, size_of(c), o);
  if (c.func() == "rank_filter") return nd::rank_filter(x, c.get<std::int64_t>("rank"), size_of(c), o);
  REQUIRE(c.func() == "percentile_filter");
  return nd::percentile_filter(x, c.get<double>("percentile"), size_of(c), o);
}

/// Calls the case's function on `x` (with the case's output array when it has one).
inline cusci::ndarray run_case(const golden_case& c, const cusci::ndarray& x, bool fake = false) {
  return call(c, x, output_array_of(c, x, fake));
}

/// Checks that error case `c` throws the exception it names, with SciPy's text where it gives one
/// and a message that names the function.
inline void check_throws(const golden_case& c, const cusci::ndarray& x, bool fake = false) {
  ndimage_test::check_throws_with(c, [&] { (void)run_case(c, x, fake); }, /*names_function=*/true);
}

}  // namespace rank_test
