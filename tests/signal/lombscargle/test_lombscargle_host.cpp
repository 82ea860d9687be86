// Host tests of cusci::signal's lombscargle family (no GPU): the normalize parser, the launch plan, and
// every shape check on data-less arrays of the shapes SciPy rejected (gen_signal_lombscargle.py's error
// cases): the checks throw before any device work.

#include <doctest/doctest.h>

#include "lombscargle/lombscargle_detail.hpp"
#include "lombscargle_test_util.hpp"

using namespace cusci;
using namespace cusci::lombscargle_test;

TEST_CASE("parse_lombscargle_normalize takes SciPy's values") {
  using signal::lombscargle_normalize;
  CHECK(signal::parse_lombscargle_normalize("power") == lombscargle_normalize::power);
  CHECK(signal::parse_lombscargle_normalize("False") == lombscargle_normalize::power);
  CHECK(signal::parse_lombscargle_normalize("normalize") == lombscargle_normalize::normalize);
  CHECK(signal::parse_lombscargle_normalize("True") == lombscargle_normalize::normalize);
  CHECK(signal::parse_lombscargle_normalize("amplitude") == lombscargle_normalize::amplitude);
  CHECK_THROWS_AS(signal::parse_lombscargle_normalize("psd"), value_error);
}

TEST_CASE("the trigonometric-sum plan covers every sample and frequency once") {
  using signal::detail::trig_plan_of;
  for (std::int64_t n : {0LL, 1LL, 255LL, 256LL, 257LL, 5000LL, 100000LL, 10000000LL}) {
    for (std::int64_t nf : {1LL, 10LL, 1024LL, 1025LL, 10000LL, 3000000LL}) {
      CAPTURE(n);
      CAPTURE(nf);
      const auto p = trig_plan_of(n, nf);
      CHECK(p.freq_blocks * signal::detail::trig_freqs_per_block >= nf);
      CHECK((p.freq_blocks - 1) * signal::detail::trig_freqs_per_block < nf);
      CHECK(p.chunks >= 1);
      CHECK(p.chunks <= 65535);
      CHECK(p.chunk % signal::detail::trig_tile == 0);
      CHECK(p.chunks * p.chunk >= n);
      if (n > 0) CHECK((p.chunks - 1) * p.chunk < n);  // no empty chunk
    }
  }
  const auto p = trig_plan_of(100000, 10000);  // the benchmark: 10 x 49 blocks
  CHECK(p.freq_blocks == 10);
  CHECK(p.chunks * p.freq_blocks >= 400);
}

TEST_CASE("lombscargle and vectorstrength reject what SciPy rejects, before any device work") {
  auto cases = cases_of("lombscargle", true);
  auto vs = cases_of("vectorstrength", true);
  REQUIRE(cases.size() >= 6);
  REQUIRE(vs.size() >= 4);
  auto shape = [](const case_t& c, const char* k) { return c.get<std::vector<std::int64_t>>(k); };
  for (const auto& c : cases) {
    if (!c.has("x_shape")) continue;  // weight values: GPU test
    CAPTURE(c.name());
    const ndarray x = testing::fake_array(dtype::float64, shape(c, "x_shape"));
    const ndarray y = testing::fake_array(dtype::float64, shape(c, "y_shape"));
    const ndarray f = testing::fake_array(dtype::float64, shape(c, "f_shape"));
    signal::lombscargle_options o;
    if (c.has("w_shape")) o.weights = testing::fake_array(dtype::float64, shape(c, "w_shape"));
    testing::check_error(c, [&] { (void)signal::lombscargle(x, y, f, o); });
  }
  for (const auto& c : vs) {
    if (!c.has("e_shape")) continue;  // an array of periods: GPU test
    CAPTURE(c.name());
    const ndarray e = testing::fake_array(dtype::float64, shape(c, "e_shape"));
    if (c.has("period")) {
      testing::check_error(c, [&] { (void)signal::vectorstrength(e, c.get<double>("period")); });
    } else {
      const ndarray p = testing::fake_array(dtype::float64, shape(c, "p_shape"));
      testing::check_error(c, [&] { (void)signal::vectorstrength(e, p); });
    }
  }
}
