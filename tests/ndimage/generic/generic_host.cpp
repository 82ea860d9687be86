// Host tests of the generic filters: every error case of tests/golden/gen_ndimage_generic.py is
// raised, with its type and SciPy's text, before any device work or compilation (inputs without
// memory), and vectorized_mode parses SciPy's strings.

#include <doctest/doctest.h>

#include "generic_cases.hpp"
#include "generic_rtc_impl.hpp"

TEST_CASE("generic filters: argument errors before any device work, with SciPy's exception kinds and texts") {
  int n = 0;
  for (const auto& func : {"generic_filter", "generic_filter1d", "vectorized_filter"}) {
    for (const auto& c : cusci::testing::cases("ndimage_generic", func)) {
      if (!c.expects_error()) continue;
      INFO("case " << c.name());
      const cusci::host_array h = c.array("input");
      const cusci::ndarray x = cusci::testing::fake_array(h.dtype(), h.shape());
      ndimage_test::check_throws_with(
          c,
          [&] {
            (void)generic_test::call<generic_test::rtc_form>(c, x, ndimage_test::output_array_of(c, x, true));
          },
          /*names_function=*/true);
      ++n;
    }
  }
  CHECK(n >= 40);
}

TEST_CASE("vectorized_mode: SciPy's strings, valid, and a bad string") {
  namespace nd = cusci::ndimage;
  CHECK(nd::vectorized_mode("valid").is_valid());
  CHECK(nd::vectorized_mode::valid().is_valid());
  CHECK(nd::vectorized_mode("grid-mirror").boundary() == nd::mode::grid_mirror);
  CHECK(nd::vectorized_mode(nd::mode::wrap).boundary() == nd::mode::wrap);
  CHECK_FALSE(nd::vectorized_mode("nearest").is_valid());
  CHECK_THROWS_WITH_AS(nd::vectorized_mode("bogus"), doctest::Contains("`mode` must be one of"), cusci::value_error);
}

TEST_CASE("generic filters: an empty function name is refused") {
  namespace nd = cusci::ndimage;
  const auto x = cusci::testing::fake_array(cusci::dtype::float64, {4, 5});
  CHECK_THROWS_AS(nd::generic_filter(x, nd::device_function("", ""), 3), cusci::value_error);
  CHECK_THROWS_AS(nd::generic_filter(x, nd::device_function("x", "f"), 3, {.origin = 5}), cusci::value_error);
}
