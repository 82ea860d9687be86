// Host tests of cusci::signal's fourier family (no GPU): czt_points against SciPy, the string parsers,
// and every argument check, run on data-less arrays of the dtype and shape SciPy rejected
// (tests/golden/gen_signal_fourier.py's error cases): the checks throw before any device work.

#include <doctest/doctest.h>

#include "cusci/signal/fourier.hpp"
#include "fourier_test_util.hpp"

using namespace cusci;
using namespace cusci::fourier_test;

TEST_CASE("czt_points matches SciPy") {
  auto cases = cases_of("czt_points");
  REQUIRE(cases.size() >= 5);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    host_array p = signal::czt_points(c.get<std::int64_t>("m"), c.has("w") ? opt_complex(c, "w") : std::nullopt,
                                      c.get<std::complex<double>>("a"));
    testing::check_allclose(p, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("the string options parse SciPy's strings") {
  CHECK(signal::parse_detrend_type("linear") == signal::detrend_type::linear);
  CHECK(signal::parse_detrend_type("l") == signal::detrend_type::linear);
  CHECK(signal::parse_detrend_type("constant") == signal::detrend_type::constant);
  CHECK(signal::parse_detrend_type("c") == signal::detrend_type::constant);
  CHECK_THROWS_AS(signal::parse_detrend_type("quadratic"), value_error);
  CHECK(signal::parse_envelope_residual("lowpass") == signal::envelope_residual::lowpass);
  CHECK(signal::parse_envelope_residual("all") == signal::envelope_residual::all);
  CHECK(signal::parse_envelope_residual("None") == signal::envelope_residual::none);
  CHECK_THROWS_AS(signal::parse_envelope_residual("highpass"), value_error);
}

TEST_CASE("the fourier functions reject what SciPy rejects, before any device work") {
  std::vector<case_t> cases;
  for (const char* f : {"hilbert", "hilbert2", "envelope", "detrend", "czt", "zoom_fft", "czt_points", "CZT"}) {
    auto v = cases_of(f, true);
    cases.insert(cases.end(), v.begin(), v.end());
  }
  REQUIRE(cases.size() >= 35);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    if (c.func() == "czt_points") {
      testing::check_error(c, [&] { (void)signal::czt_points(c.get<std::int64_t>("m")); });
      continue;
    }
    if (c.func() == "CZT") {
      testing::check_error(c, [&] {
        (void)signal::CZT(c.get<std::int64_t>("n"), c.get_or<std::optional<std::int64_t>>("m", std::nullopt));
      });
      continue;
    }
    const ndarray x = testing::fake_array(dtype_from_string(c.get<std::string>("dtype")),
                                          c.get<std::vector<std::int64_t>>("shape"));
    testing::check_error(c, [&] { (void)call(c, x); });
  }
}
