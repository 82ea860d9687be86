// GPU tests of cusci::ndimage's rank filters against SciPy 1.18.1 (tests/golden/gen_ndimage_rank.py):
// box sizes 1..7 and even sizes in every mode (the register networks for 3x3, 5x5, 7x7, 3x3x3 and
// the generic kernel), non-box footprints, ranks (negative too), percentiles, origins, axes, every
// real dtype (1-D and N-D paths), NaN and infinity (SciPy's quickselect and 1-D mediator values),
// C / F / strided / reversed inputs, output dtypes, output arrays and in place, sizes 0 and 1, errors.

#include <doctest/doctest.h>

#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "rank_cases.hpp"

namespace {

/// Runs every case of `func` whose name starts with `prefix`; returns how many ran.
int run_func(const std::string& func, const std::string& prefix = "") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_rank", func)) {
    if (c.name().rfind(prefix, 0) != 0) continue;
    INFO("case " << c.name());
    const auto x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    if (c.expects_error()) rank_test::check_throws(c, x);
    else ndimage_test::check_case_with(c, x, rank_test::call);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("median_filter: box sizes 1..7 in every mode, 3x3x3, tiles, long windows") {
  CHECK(run_func("median_filter", "med_") > 150);
  CHECK(run_func("median_filter", "med3d_") >= 26);
}
TEST_CASE("median_filter: NaN and infinity give SciPy's values (N-D quickselect, 1-D mediator)") {
  CHECK(run_func("median_filter", "nan") > 60);
  CHECK(run_func("median_filter", "inf_") == 2);
}
TEST_CASE("rank_filter: ranks, footprints, origins, NaN") { CHECK(run_func("rank_filter") > 50); }
TEST_CASE("percentile_filter: percentiles, footprints, axes, NaN") { CHECK(run_func("percentile_filter") > 20); }
TEST_CASE("rank filters: every real dtype, 1-D and N-D paths, output dtypes") {
  CHECK(run_func("median_filter", "dt") >= 30);
  CHECK(run_func("median_filter", "out_") >= 7);
}
TEST_CASE("rank filters: layouts, output arrays, in place, sizes 0 and 1") {
  CHECK(run_func("median_filter", "lay_") >= 20);
  CHECK(run_func("median_filter", "outarr_") >= 10);
  CHECK(run_func("median_filter", "empty_") == 2);
  CHECK(run_func("median_filter", "one_") == 2);
}
TEST_CASE("rank filters: axes") { CHECK(run_func("median_filter", "med_axes") >= 7); }
TEST_CASE("rank filters: ranks 0 and n - 1 and medians of two with NaN give SciPy's minimum / maximum values") {
  // SciPy hands these to minimum_filter / maximum_filter: its running list for boxes (NaN
  // propagation by position and history), its footprint order otherwise.
  CHECK(run_func("rank_filter", "nan_float") >= 2 * 27);
  CHECK(run_func("rank_filter", "nan1d_float") >= 2 * 20);
  CHECK(run_func("rank_filter", "nan3d_float") >= 2);
  CHECK(run_func("median_filter", "nan_float32_median_s2") == 2);
  CHECK(run_func("median_filter", "nan_float64_median_s2") == 2);
  CHECK(run_func("median_filter", "nan1d_float32_s2_") == 5);
  CHECK(run_func("percentile_filter", "nan_float64_pct") == 3);
}

TEST_CASE("rank filters: errors with SciPy's kinds and texts") { CHECK(run_func("median_filter", "err_") >= 18); }

TEST_CASE("rank filters run on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_func("median_filter", "nan1d_") > 20);
  CHECK(run_func("median_filter", "med_float32_") >= 24);
  s.synchronize();
}
