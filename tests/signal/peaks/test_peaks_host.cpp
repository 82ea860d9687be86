// Host tests of cusci::signal's peaks family (no GPU): the string parsers, the condition types, and
// every argument check SciPy makes, run on data-less arrays of the dtype and shape SciPy rejected
// (tests/golden/gen_signal_peaks.py's error cases of stage "host"): the checks throw before any
// device work.

#include <doctest/doctest.h>

#include "peaks/peaks_detail.hpp"  // find_peaks_cwt_host (signal/src)
#include "peaks_test_util.hpp"

using namespace cusci;
using namespace cusci::peaks_test;

TEST_CASE("the string options parse SciPy's strings") {
  CHECK(sig::parse_extrema_comparator("greater") == sig::extrema_comparator::greater);
  CHECK(sig::parse_extrema_comparator("np.less") == sig::extrema_comparator::less);
  CHECK(sig::parse_extrema_comparator("greater_equal") == sig::extrema_comparator::greater_equal);
  CHECK(sig::parse_extrema_comparator("less_equal") == sig::extrema_comparator::less_equal);
  CHECK_THROWS_AS(sig::parse_extrema_comparator("equal"), value_error);
  CHECK(sig::parse_extrema_mode("clip") == sig::extrema_mode::clip);
  CHECK(sig::parse_extrema_mode("wrap") == sig::extrema_mode::wrap);
  CHECK(sig::parse_extrema_mode("raise") == sig::extrema_mode::raise);
  CHECK_THROWS_AS(sig::parse_extrema_mode("reflect"), value_error);
}

TEST_CASE("conditions take SciPy's forms") {
  sig::find_peaks_options o{.height = 1.0, .distance = 5.0, .prominence = sig::peak_interval{std::nullopt, 2.0},
                            .plateau_size = sig::peak_interval{1.0, 3.0}};
  REQUIRE(o.height);
  CHECK(std::get<double>(*o.height->min) == 1.0);
  CHECK_FALSE(o.height->max);
  CHECK_FALSE(o.prominence->min);
  CHECK(std::get<double>(*o.prominence->max) == 2.0);
  CHECK(std::get<double>(*o.plateau_size->max) == 3.0);
  CHECK(o.rel_height == 0.5);
  CHECK_FALSE(o.width);
}

TEST_CASE("the peaks functions reject what SciPy rejects, before any device work") {
  std::vector<case_t> cases;
  for (const char* f : {"find_peaks", "peak_prominences", "peak_widths", "argrelextrema", "find_peaks_cwt"})
    for (const auto& c : cases_of(f, true))
      if (c.get<std::string>("stage") == "host") cases.push_back(c);
  REQUIRE(cases.size() >= 20);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ndarray x = testing::fake_array(dtype_from_string(c.get<std::string>("dtype")),
                                          c.get<std::vector<std::int64_t>>("shape"));
    const std::string f = c.func();
    if (f == "find_peaks") {
      testing::check_error(c, [&] { (void)sig::find_peaks(x, fp_options(c)); });
    } else if (f == "peak_prominences" || f == "peak_widths") {
      const ndarray p = testing::fake_array(dtype_from_string(c.get<std::string>("peaks_dtype")),
                                            c.get<std::vector<std::int64_t>>("peaks_shape"));
      const auto wlen = c.get_or<std::optional<double>>("wlen", std::nullopt);
      if (f == "peak_prominences") testing::check_error(c, [&] { (void)sig::peak_prominences(x, p, wlen); });
      else testing::check_error(c, [&] { (void)sig::peak_widths(x, p, {.wlen = wlen}); });
    } else if (f == "argrelextrema") {
      testing::check_error(c, [&] {
        (void)sig::argrelextrema(x, sig::parse_extrema_comparator(c.get<std::string>("comparator")), ar_options(c));
      });
    } else {
      testing::check_error(c, [&] {
        (void)sig::find_peaks_cwt(x, c.get<std::vector<double>>("widths"), cwt_options(c));
      });
    }
  }
}

TEST_CASE("argrelextrema refuses complex data (a documented deviation) and find_peaks_cwt empty widths") {
  CHECK_THROWS_AS(sig::argrelmax(testing::fake_array(dtype::complex128, {5})), type_error);
  CHECK_THROWS_AS(sig::find_peaks_cwt(testing::fake_array(dtype::float64, {5}), {}), index_error);
  CHECK_THROWS_AS(sig::find_peaks(testing::fake_array(dtype::float64, {5}), {.distance = 0.0}), value_error);
}

TEST_CASE("find_peaks_cwt's host algorithm matches SciPy on noisy sines") {
  auto cases = cases_of("find_peaks_cwt");
  REQUIRE(cases.size() >= 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const std::vector<double> x = c.array("x").to_vector<double>();
    const auto got =
        sig::detail::peaks::find_peaks_cwt_host(x, c.get<std::vector<double>>("widths"), cwt_options(c));
    CHECK(got == c.array("expected").to_vector<std::int64_t>());
  }
}
