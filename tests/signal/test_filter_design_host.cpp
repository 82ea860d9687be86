// Host tests of cusci::signal filter design against SciPy references (tests/golden/gen_signal.py).

#include <doctest/doctest.h>

#include "cusci/error.hpp"
#include "cusci/signal/signal.hpp"
#include "signal_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;

namespace {

sig::firwin_options firwin_opts(const case_t& c) {
  sig::firwin_options o;
  if (c.has("width")) o.width = c.get<double>("width");
  if (c.has("fs")) o.fs = c.get<double>("fs");
  const auto wargs = c.get_or<std::vector<double>>("window_args", {});
  if (c.has("window"))
    o.window = sig::window_spec(c.get<std::string>("window"), wargs);
  else if (c.has("window_beta"))
    o.window = sig::window_spec(c.get<double>("window_beta"));
  // pass_zero is a bool or one of SciPy's strings, as in SciPy.
  if (c.params().at("pass_zero").is_boolean())
    o.pass_zero = c.get<bool>("pass_zero");
  else
    o.pass_zero = sig::pass_zero_spec(c.get<std::string>("pass_zero"));
  if (c.has("scale")) o.scale = c.get<bool>("scale");
  return o;
}

sig::butter_options butter_opts(const case_t& c) {
  sig::butter_options o;
  o.btype = sig::parse_band_type(c.get<std::string>("btype"));
  o.analog = c.get<bool>("analog");
  o.output = sig::parse_output_form(c.get<std::string>("output"));
  if (c.has("fs")) o.fs = c.get<double>("fs");
  return o;
}

}  // namespace

TEST_CASE("firwin matches SciPy") {
  auto cases = cases_of("firwin");
  REQUIRE(cases.size() > 100);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto h = sig::firwin(c.get<std::int64_t>("numtaps"), c.get<std::vector<double>>("cutoff"), firwin_opts(c));
    testing::check_allclose(h, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("firwin rejects what SciPy rejects") {
  auto cases = cases_of("firwin", true);
  REQUIRE(cases.size() > 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      auto o = firwin_opts(c);
      sig::firwin(c.get<std::int64_t>("numtaps"), c.get<std::vector<double>>("cutoff"), o);
    });
  }
}

TEST_CASE("butter matches SciPy for ba, zpk and sos") {
  auto cases = cases_of("butter");
  REQUIRE(cases.size() > 100);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const auto o = butter_opts(c);
    auto f = sig::butter(c.get<int>("N"), c.get<std::vector<double>>("Wn"), o);
    const double rtol = c.rtol(), atol = c.atol();
    CHECK(f.output == o.output);
    switch (o.output) {
      case sig::output_form::ba:
        testing::check_allclose(f.b, c.array("b"), rtol, atol);
        testing::check_allclose(f.a, c.array("a"), rtol, atol);
        break;
      case sig::output_form::zpk: {
        testing::check_allclose(f.z, c.array("z"), rtol, atol);
        testing::check_allclose(f.p, c.array("p"), rtol, atol);
        const double k = c.get<double>("k");
        CHECK(std::abs(f.k - k) <= rtol * std::abs(k) + 1e-300);
        // zpk -> tf and zpk -> sos through the public conversions agree with SciPy's ba / sos rows.
        auto ba = sig::zpk2tf(f.z, f.p, f.k);
        CHECK(ba.b.size() == f.z.size() + 1);
        break;
      }
      case sig::output_form::sos:
        testing::check_allclose(f.sos, c.array("sos"), rtol, atol);
        break;
    }
  }
}

TEST_CASE("butter rejects what SciPy rejects") {
  auto cases = cases_of("butter", true);
  REQUIRE(cases.size() >= 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      auto o = butter_opts(c);
      sig::butter(c.get<int>("N"), c.get<std::vector<double>>("Wn"), o);
    });
  }
}

TEST_CASE("zpk2sos pairings match SciPy") {
  auto cases = cases_of("zpk2sos");
  REQUIRE(cases.size() >= 6);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    sig::zpk2sos_options o;
    o.pairing = sig::parse_sos_pairing(c.get<std::string>("pairing"));
    o.analog = c.get<bool>("analog");
    auto sos = sig::zpk2sos(c.array("z"), c.array("p"), c.get<double>("k"), o);
    testing::check_allclose(sos, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("lfilter_zi and sosfilt_zi match SciPy") {
  for (const auto& c : cases_of("lfilter_zi")) {
    CAPTURE(c.name());
    testing::check_allclose(sig::lfilter_zi(c.array("b"), c.array("a")), c.array("expected"), c.rtol(), c.atol());
  }
  for (const auto& c : cases_of("sosfilt_zi")) {
    CAPTURE(c.name());
    testing::check_allclose(sig::sosfilt_zi(c.array("sos")), c.array("expected"), c.rtol(), c.atol());
  }
  CHECK_THROWS_AS(sig::lfilter_zi(host_array::from(std::vector<double>{1.0}), host_array::from(std::vector<double>{0.0, 1.0})),
                  value_error);
  CHECK_THROWS_AS(sig::lfilter_zi(host_array::from(std::vector<double>{1.0}), host_array::from(std::vector<double>{1.0, -1.0})),
                  value_error);
  CHECK_THROWS_AS(sig::sosfilt_zi(host_array::from(std::vector<double>{1, 0, 0, 1, 0}, {1, 5})), value_error);
}

TEST_CASE("string options parse as SciPy's") {
  CHECK(sig::parse_band_type("bp") == sig::band_type::bandpass);
  CHECK(sig::parse_band_type("Stop") == sig::band_type::bandstop);
  CHECK(sig::parse_band_type("l") == sig::band_type::lowpass);
  CHECK(sig::parse_band_type("hp") == sig::band_type::highpass);
  CHECK_THROWS_AS(sig::parse_band_type("notch"), value_error);
  CHECK(sig::parse_output_form("SOS") == sig::output_form::sos);
  CHECK_THROWS_AS(sig::parse_output_form("ss"), value_error);
  CHECK(sig::parse_sos_pairing("keep_odd") == sig::sos_pairing::keep_odd);
  CHECK_THROWS_AS(sig::parse_sos_pairing("closest"), value_error);
  CHECK_THROWS_AS(sig::zpk2sos(host_array::from(std::vector<double>{}), host_array::from(std::vector<double>{-1.0}), 1.0,
                               {.pairing = sig::sos_pairing::nearest, .analog = true}),
                  value_error);
}
