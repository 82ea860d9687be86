// Host tests of the responses family (freqz, freqz_sos, freqz_zpk, freqs, freqs_zpk, group_delay,
// findfreqs) with host coefficients, against SciPy 1.18.1 (tests/golden/gen_signal_responses.py).

#include <doctest/doctest.h>

#include "cusci/warnings.hpp"
#include "responses_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;

namespace {

sig::freq_response call_freqz(const case_t& c) {
  std::optional<host_array> a;
  if (c.has("a")) a = c.array("a");
  return sig::freqz(c.array("b"), a, worN_of(c),
                    {.whole = c.get_or<bool>("whole", false), .fs = fs_of(c),
                     .include_nyquist = c.get_or<bool>("include_nyquist", false)});
}

sig::freqz_sos_options sos_opts(const case_t& c) { return {.whole = c.get_or<bool>("whole", false), .fs = fs_of(c)}; }

}  // namespace

TEST_CASE("freqz (host) matches SciPy") {
  int n = 0;
  for (const auto& c : cases_in(kResponses, "freqz")) {
    auto r = call_freqz(c);
    check_response(c, r.w, r.h);
    ++n;
  }
  CHECK(n > 50);
  for (const auto& c : cases_in(kResponses, "freqz", true)) {
    INFO("case " << c.name());
    testing::check_error(c, [&] { call_freqz(c); });
  }
}

TEST_CASE("freqz (host) of SciPy's N-D b form") {
  for (const auto& c : cases_in(kResponses, "freqz_batch")) {
    auto r = call_freqz(c);
    check_response(c, r.w, r.h);
  }
}

TEST_CASE("freqz_sos and sosfreqz (host) match SciPy") {
  int n = 0;
  for (const auto& c : cases_in(kResponses, "freqz_sos")) {
    auto r = sig::freqz_sos(c.array("sos"), worN_of(c), sos_opts(c));
    check_response(c, r.w, r.h);
    auto r2 = sig::sosfreqz(c.array("sos"), worN_of(c), sos_opts(c));
    check_response(c, r2.w, r2.h);
    ++n;
  }
  CHECK(n > 5);
  for (const auto& c : cases_in(kResponses, "freqz_sos", true)) {
    INFO("case " << c.name());
    testing::check_error(c, [&] { sig::freqz_sos(c.array("sos"), worN_of(c), sos_opts(c)); });
  }
}

TEST_CASE("freqz_zpk (host) matches SciPy") {
  for (const auto& c : cases_in(kResponses, "freqz_zpk")) {
    auto r = sig::freqz_zpk(c.array("z"), c.array("p"), c.get<double>("k"), worN_of(c), sos_opts(c));
    check_response(c, r.w, r.h);
  }
  for (const auto& c : cases_in(kResponses, "freqz_zpk", true)) {
    INFO("case " << c.name());
    testing::check_error(c, [&] { sig::freqz_zpk(c.array("z"), c.array("p"), c.get<double>("k"), worN_of(c), sos_opts(c)); });
  }
}

TEST_CASE("freqs and freqs_zpk match SciPy") {
  for (const auto& c : cases_in(kResponses, "freqs")) {
    auto r = sig::freqs(c.array("b"), c.array("a"), worN_of(c));
    check_response(c, r.w, r.h);
  }
  for (const auto& c : cases_in(kResponses, "freqs", true)) {
    INFO("case " << c.name());
    testing::check_error(c, [&] { sig::freqs(c.array("b"), c.array("a"), worN_of(c)); });
  }
  for (const auto& c : cases_in(kResponses, "freqs_zpk")) {
    auto r = sig::freqs_zpk(c.array("z"), c.array("p"), c.get<double>("k"), worN_of(c));
    check_response(c, r.w, r.h);
  }
  for (const auto& c : cases_in(kResponses, "freqs_zpk", true)) {
    INFO("case " << c.name());
    testing::check_error(c, [&] { sig::freqs_zpk(c.array("z"), c.array("p"), c.get<double>("k"), worN_of(c)); });
  }
}

TEST_CASE("findfreqs matches SciPy") {
  for (const auto& c : cases_in(kResponses, "findfreqs")) {
    INFO("case " << c.name());
    auto w = sig::findfreqs(c.array("num"), c.array("den"), c.get<std::int64_t>("N"),
                            sig::parse_findfreqs_kind(c.get<std::string>("kind")));
    testing::check_allclose(w, c.array("w"), c.rtol(), c.atol());
  }
  for (const auto& c : cases_in(kResponses, "findfreqs", true)) {
    INFO("case " << c.name());
    testing::check_error(c, [&] {
      sig::findfreqs(c.array("num"), c.array("den"), c.get<std::int64_t>("N"),
                     sig::parse_findfreqs_kind(c.get<std::string>("kind")));
    });
  }
}

TEST_CASE("group_delay matches SciPy, warnings included") {
  for (const auto& c : cases_in(kResponses, "group_delay")) {
    INFO("case " << c.name());
    warning_capture cap;
    auto r = sig::group_delay({c.array("b"), c.array("a")}, worN_of(c), sos_opts(c));
    const host_array we = c.array("w");
    testing::check_allclose(r.w, we, 1e-13, 1e-13 * scale_of(we));
    testing::check_allclose(r.gd, c.array("gd"), c.rtol(), c.atol());
    const auto ws = cap.warnings();
    if (c.has("warns")) {
      REQUIRE(ws.size() == 1);
      CHECK(ws[0].category == "UserWarning");
      CHECK(ws[0].message.rfind(c.get<std::string>("warns"), 0) == 0);
    } else {
      CHECK(ws.empty());
    }
  }
  for (const auto& c : cases_in(kResponses, "group_delay", true)) {
    INFO("case " << c.name());
    testing::check_error(c, [&] { sig::group_delay({c.array("b"), c.array("a")}, worN_of(c), sos_opts(c)); });
  }
}

TEST_CASE("group_delay's singular-frequency message") {
  warning_capture cap;
  auto r = sig::group_delay({host_array::from(std::vector<double>{1.0, -1.0}), host_array::from(std::vector<double>{1.0})},
                            host_array::from(std::vector<double>{0.0, 1.0}));
  CHECK(r.gd.data_as<double>()[0] == 0.0);
  REQUIRE(cap.warnings().size() == 1);
  CHECK(cap.warnings()[0].message == "The group delay is singular at frequencies [0.000], setting to 0");
}

TEST_CASE("parse_findfreqs_kind") {
  CHECK(sig::parse_findfreqs_kind("ba") == sig::findfreqs_kind::ba);
  CHECK(sig::parse_findfreqs_kind("zp") == sig::findfreqs_kind::zp);
  CHECK_THROWS_AS(sig::parse_findfreqs_kind("ss"), cusci::value_error);
}
