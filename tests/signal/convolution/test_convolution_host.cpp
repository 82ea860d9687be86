// Host tests of cusci::signal's convolution family: the string parsers, correlation_lags and
// choose_conv_method on float inputs (which reads only shapes), against SciPy
// (tests/golden/gen_signal_convolution.py).

#include <doctest/doctest.h>

#include "cusci/core.hpp"
#include "cusci/signal/convolution.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;

TEST_CASE("convolution parsers take SciPy's strings") {
  CHECK(sig::parse_conv_mode("full") == sig::conv_mode::full);
  CHECK(sig::parse_conv_mode("same") == sig::conv_mode::same);
  CHECK(sig::parse_conv_mode("valid") == sig::conv_mode::valid);
  CHECK_THROWS_AS(sig::parse_conv_mode("Full"), value_error);
  CHECK(sig::parse_conv_method("auto") == sig::conv_method::auto_);
  CHECK(sig::parse_conv_method("direct") == sig::conv_method::direct);
  CHECK(sig::parse_conv_method("fft") == sig::conv_method::fft);
  CHECK_THROWS_AS(sig::parse_conv_method("measure"), value_error);
  CHECK(sig::parse_conv_boundary("fill") == sig::conv_boundary::fill);
  CHECK(sig::parse_conv_boundary("wrap") == sig::conv_boundary::wrap);
  CHECK(sig::parse_conv_boundary("circular") == sig::conv_boundary::wrap);
  CHECK(sig::parse_conv_boundary("symm") == sig::conv_boundary::symm);
  CHECK(sig::parse_conv_boundary("symmetric") == sig::conv_boundary::symm);
  CHECK_THROWS_AS(sig::parse_conv_boundary("reflect"), value_error);
}

TEST_CASE("correlation_lags matches SciPy") {
  auto cases = testing::cases("signal_convolution", "correlation_lags");
  REQUIRE(cases.size() > 20);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    host_array lags = sig::correlation_lags(c.get<std::int64_t>("in1_len"), c.get<std::int64_t>("in2_len"),
                                            sig::parse_conv_mode(c.get<std::string>("mode")));
    testing::check_allclose(lags, c.array("expected"), 0.0, 0.0);
  }
}

TEST_CASE("choose_conv_method on float inputs matches SciPy's heuristic") {
  int n = 0;
  for (const auto& c : testing::cases("signal_convolution", "choose_conv_method")) {
    if (!c.has("shape1")) continue;  // integer inputs: the GPU test
    CAPTURE(c.name());
    ++n;
    const ndarray a = testing::fake_array(dtype_from_string(c.get<std::string>("dtype1")), c.get<std::vector<std::int64_t>>("shape1"));
    const ndarray b = testing::fake_array(dtype_from_string(c.get<std::string>("dtype2")), c.get<std::vector<std::int64_t>>("shape2"));
    const auto m = sig::choose_conv_method(a, b, {.mode = sig::parse_conv_mode(c.get<std::string>("mode"))});
    CHECK(m == sig::parse_conv_method(c.get<std::string>("expected")));
  }
  CHECK(n > 30);
}
