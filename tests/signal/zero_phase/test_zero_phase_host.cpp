// Host tests of the zero_phase family: lfiltic against SciPy (tests/golden/gen_signal_zero_phase.py),
// the string parsers, and every filtfilt / sosfiltfilt error SciPy raises (checked before any device
// work, so they run on arrays over no memory).

#include <doctest/doctest.h>

#include "cusci/signal/zero_phase.hpp"
#include "zero_phase_cases.hpp"

using namespace cusci;
using namespace cusci::zero_phase_test;

TEST_CASE("parse_pad_type and parse_filtfilt_method take SciPy's strings") {
  CHECK(sig::parse_pad_type("odd") == sig::pad_type::odd);
  CHECK(sig::parse_pad_type("even") == sig::pad_type::even);
  CHECK(sig::parse_pad_type("constant") == sig::pad_type::constant);
  CHECK(sig::parse_pad_type("none") == sig::pad_type::none);
  CHECK(sig::parse_pad_type("None") == sig::pad_type::none);
  CHECK_THROWS_AS(sig::parse_pad_type("zero"), value_error);
  CHECK_THROWS_AS(sig::parse_pad_type("Odd"), value_error);
  CHECK(sig::parse_filtfilt_method("pad") == sig::filtfilt_method::pad);
  CHECK(sig::parse_filtfilt_method("gust") == sig::filtfilt_method::gust);
  CHECK_THROWS_AS(sig::parse_filtfilt_method("Gust"), value_error);
  const sig::filtfilt_options d{};
  CHECK(d.axis == -1);
  CHECK(d.padtype == sig::pad_type::odd);
  CHECK(!d.padlen);
  CHECK(d.method == sig::filtfilt_method::pad);
  CHECK(!d.irlen);
  const sig::sosfiltfilt_options sd{.padlen = 4};
  CHECK(sd.axis == -1);
  CHECK(*sd.padlen == 4);
}

TEST_CASE("lfiltic matches SciPy") {
  const auto cases = cases_of("lfiltic");
  REQUIRE(cases.size() >= 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const host_array b = c.array("b"), a = c.array("a"), y = c.array("y");
    const host_array zi = c.has("x") ? sig::lfiltic(b, a, y, c.array("x")) : sig::lfiltic(b, a, y);
    testing::check_allclose(zi, c.array("expected"), c.rtol(), c.atol());
  }
  for (const auto& c : cases_of("lfiltic", true)) {
    CAPTURE(c.name());
    const host_array b = c.array("b"), a = c.array("a"), y = c.array("y");
    testing::check_error(c, [&]() { c.has("x") ? sig::lfiltic(b, a, y, c.array("x")) : sig::lfiltic(b, a, y); });
  }
}

TEST_CASE("filtfilt and sosfiltfilt reject what SciPy rejects (before any device work)") {
  const auto cases = cases_of("filtfilt", true);
  REQUIRE(cases.size() >= 20);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const host_array xh = c.array("x"), b = c.array("b"), a = c.array("a");
    const ndarray x = testing::fake_array(xh.dtype(), xh.shape());
    testing::check_error(c, [&]() { sig::filtfilt(b, a, x, filtfilt_opts(c)); });
  }
  const auto scases = cases_of("sosfiltfilt", true);
  REQUIRE(scases.size() >= 8);
  for (const auto& c : scases) {
    CAPTURE(c.name());
    const host_array xh = c.array("x"), sos = c.array("sos");
    const ndarray x = testing::fake_array(xh.dtype(), xh.shape());
    testing::check_error(c, [&]() { sig::sosfiltfilt(sos, x, sosfiltfilt_opts(c)); });
  }
}
