// Host tests of cusci::ndimage's rank filters: every error case of tests/golden/gen_ndimage_rank.py
// is raised, with its type and SciPy's text, before any device work (inputs without memory).

#include <doctest/doctest.h>

#include "rank_cases.hpp"

TEST_CASE("rank filters: argument errors before any device work, with SciPy's exception kinds and texts") {
  int n = 0;
  for (const auto& func : {"median_filter", "rank_filter", "percentile_filter"}) {
    for (const auto& c : cusci::testing::cases("ndimage_rank", func)) {
      if (!c.expects_error()) continue;
      INFO("case " << c.name());
      const cusci::host_array h = c.array("input");
      const cusci::ndarray x = cusci::testing::fake_array(h.dtype(), h.shape());
      rank_test::check_throws(c, x, /*fake=*/true);
      ++n;
    }
  }
  CHECK(n >= 24);
}

TEST_CASE("rank filters: a complex input is refused before the footprint is looked at") {
  namespace nd = cusci::ndimage;
  const auto xc = cusci::testing::fake_array(cusci::dtype::complex64, {4, 5});
  CHECK_THROWS_AS(nd::median_filter(xc, {}), cusci::type_error);
  CHECK_THROWS_AS(nd::rank_filter(xc, 100, 3), cusci::type_error);
  const auto x = cusci::testing::fake_array(cusci::dtype::float32, {4, 5});
  CHECK_THROWS_WITH_AS(nd::percentile_filter(x, 101.0, 3), doctest::Contains("invalid percentile"),
                       cusci::runtime_error);
  CHECK_THROWS_AS(nd::rank_filter(x, std::int64_t{1} << 40, 3), cusci::runtime_error);
}
