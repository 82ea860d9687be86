// Host tests of cusci::signal filter design against SciPy goldens (tests/golden/gen_signal.py).

#include <doctest/doctest.h>

#include "cusci/error.hpp"
#include "cusci/signal/signal.hpp"
#include "signal_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;

namespace {

sig::firwin_options firwin_opts(const row_t& r) {
  sig::firwin_options o;
  if (has(r, "width")) o.width = num(r, "width");
  if (has(r, "fs")) o.fs = num(r, "fs");
  const std::string w = field(r, "window");
  const auto wargs = nums(r, "window_args");
  if (w.empty() && wargs.size() == 1)
    o.window = sig::window_spec(wargs[0]);
  else if (!w.empty())
    o.window = sig::window_spec(w, wargs);
  const std::string pz = field(r, "pass_zero");
  if (pz == "1" || pz.empty())
    o.pass_zero = true;
  else if (pz == "0")
    o.pass_zero = false;
  else
    o.pass_zero = sig::pass_zero_spec(pz);
  if (has(r, "scale")) o.scale = field(r, "scale") == "1";
  return o;
}

sig::butter_options butter_opts(const row_t& r) {
  sig::butter_options o;
  o.btype = sig::parse_band_type(field(r, "btype"));
  o.analog = field(r, "analog") == "1";
  o.output = sig::parse_output_form(field(r, "output"));
  if (has(r, "fs")) o.fs = num(r, "fs");
  return o;
}

}  // namespace

TEST_CASE("firwin matches SciPy") {
  auto rows = rows_of("firwin");
  REQUIRE(rows.size() > 100);
  for (const auto& r : rows) {
    CAPTURE(field(r, "case"));
    auto h = sig::firwin(static_cast<std::int64_t>(num(r, "numtaps")), nums(r, "cutoff"), firwin_opts(r));
    testing::check_allclose(h, gold(r, "h"), num(r, "rtol"), num(r, "atol"));
  }
}

TEST_CASE("firwin rejects what SciPy rejects") {
  auto rows = rows_of("firwin_error");
  REQUIRE(rows.size() > 10);
  for (const auto& r : rows) {
    CAPTURE(field(r, "case"));
    CHECK_THROWS_AS(
        {
          auto o = firwin_opts(r);
          sig::firwin(static_cast<std::int64_t>(num(r, "numtaps")), nums(r, "cutoff"), o);
        },
        value_error);
  }
}

TEST_CASE("butter matches SciPy for ba, zpk and sos") {
  auto rows = rows_of("butter");
  REQUIRE(rows.size() > 100);
  for (const auto& r : rows) {
    CAPTURE(field(r, "case"));
    const auto o = butter_opts(r);
    auto f = sig::butter(static_cast<int>(num(r, "N")), nums(r, "Wn"), o);
    const double rtol = num(r, "rtol"), atol = num(r, "atol");
    CHECK(f.output == o.output);
    switch (o.output) {
      case sig::output_form::ba:
        testing::check_allclose(f.b, gold(r, "b"), rtol, atol);
        testing::check_allclose(f.a, gold(r, "a"), rtol, atol);
        break;
      case sig::output_form::zpk: {
        testing::check_allclose(f.z, gold(r, "z"), rtol, atol);
        testing::check_allclose(f.p, gold(r, "p"), rtol, atol);
        const double k = gold(r, "k").data_as<double>()[0];
        CHECK(std::abs(f.k - k) <= rtol * std::abs(k) + 1e-300);
        // zpk -> tf and zpk -> sos through the public conversions agree with SciPy's ba / sos rows.
        auto ba = sig::zpk2tf(f.z, f.p, f.k);
        CHECK(ba.b.size() == f.z.size() + 1);
        break;
      }
      case sig::output_form::sos:
        testing::check_allclose(f.sos, gold(r, "sos"), rtol, atol);
        break;
    }
  }
}

TEST_CASE("butter rejects what SciPy rejects") {
  auto rows = rows_of("butter_error");
  REQUIRE(rows.size() >= 10);
  for (const auto& r : rows) {
    CAPTURE(field(r, "case"));
    CHECK_THROWS_AS(
        {
          auto o = butter_opts(r);
          sig::butter(static_cast<int>(num(r, "N")), nums(r, "Wn"), o);
        },
        value_error);
  }
}

TEST_CASE("zpk2sos pairings match SciPy") {
  auto rows = rows_of("zpk2sos");
  REQUIRE(rows.size() >= 6);
  for (const auto& r : rows) {
    CAPTURE(field(r, "case"));
    sig::zpk2sos_options o;
    o.pairing = sig::parse_sos_pairing(field(r, "output"));
    o.analog = field(r, "analog") == "1";
    auto sos = sig::zpk2sos(gold(r, "z"), gold(r, "p"), gold(r, "k").data_as<double>()[0], o);
    testing::check_allclose(sos, gold(r, "sos"), num(r, "rtol"), num(r, "atol"));
  }
}

TEST_CASE("lfilter_zi and sosfilt_zi match SciPy") {
  for (const auto& r : rows_of("lfilter_zi")) {
    CAPTURE(field(r, "case"));
    testing::check_allclose(sig::lfilter_zi(gold(r, "b"), gold(r, "a")), gold(r, "zi_out"), num(r, "rtol"), num(r, "atol"));
  }
  for (const auto& r : rows_of("sosfilt_zi")) {
    CAPTURE(field(r, "case"));
    testing::check_allclose(sig::sosfilt_zi(gold(r, "sos")), gold(r, "zi_out"), num(r, "rtol"), num(r, "atol"));
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
