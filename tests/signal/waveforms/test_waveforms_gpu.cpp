// GPU tests of cusci::signal's waveforms family against SciPy 1.18.1 (gen_signal_waveforms.py): every
// chirp method and alias, vertex_zero, complex, float32 / float64 / int64 / C / F / strided time arrays;
// gausspulse with every return combination; sawtooth and square with scalar and broadcast array widths;
// sweep_poly; unit_impulse; max_len_seq (sequence on the device, state on the host); and a non-default
// stream.

#include <doctest/doctest.h>

#include "cusci/stream.hpp"
#include "waveforms_test_util.hpp"

using namespace cusci;
using namespace cusci::waveforms_test;

TEST_CASE("chirp matches SciPy") {
  auto cases = cases_of("chirp");
  REQUIRE(cases.size() >= 100);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ndarray y = signal::chirp(t_of(c), c.get<double>("f0"), c.get<double>("t1"), c.get<double>("f1"), chirp_opts(c));
    testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("gausspulse matches SciPy") {
  auto cases = cases_of("gausspulse");
  REQUIRE(cases.size() >= 30);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const auto o = gauss_opts(c);
    const auto r = signal::gausspulse(t_of(c), o);
    testing::check_allclose(r.yI, c.array("expected_I"), c.rtol(), c.atol());
    REQUIRE(r.yQ.has_value() == o.retquad);
    REQUIRE(r.yenv.has_value() == o.retenv);
    if (o.retquad) testing::check_allclose(*r.yQ, c.array("expected_Q"), c.rtol(), c.atol());
    if (o.retenv) testing::check_allclose(*r.yenv, c.array("expected_env"), c.rtol(), c.atol());
  }
}

TEST_CASE("sawtooth and square match SciPy") {
  for (const char* f : {"sawtooth", "square"}) {
    auto cases = cases_of(f);
    REQUIRE(cases.size() >= 20);
    for (const auto& c : cases) {
      CAPTURE(c.name());
      const bool sq = std::string(f) == "square";
      ndarray y;
      if (c.has("w_array")) {
        const ndarray w = asarray(c.array("w_array"));
        y = sq ? signal::square(t_of(c), w) : signal::sawtooth(t_of(c), w);
      } else {
        y = sq ? signal::square(t_of(c), c.get<double>("w")) : signal::sawtooth(t_of(c), c.get<double>("w"));
      }
      testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
    }
  }
}

TEST_CASE("sweep_poly matches SciPy") {
  auto cases = cases_of("sweep_poly");
  REQUIRE(cases.size() >= 15);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ndarray y = signal::sweep_poly(t_of(c), c.get<std::vector<double>>("poly"), c.get<double>("phi"));
    testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("unit_impulse matches SciPy") {
  auto cases = cases_of("unit_impulse");
  REQUIRE(cases.size() >= 9);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    testing::check_allclose(unit_impulse_of(c), c.array("expected"), 0, 0);
  }
}

TEST_CASE("max_len_seq matches SciPy") {
  auto cases = cases_of("max_len_seq");
  REQUIRE(cases.size() >= 25);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const auto r = signal::max_len_seq(c.get<int>("nbits"), mls_opts(c));
    testing::check_allclose(r.seq, c.array("seq"), 0, 0);
    testing::check_allclose(r.state, c.array("state_out"), 0, 0);
  }
}

TEST_CASE("the waveforms run on the current stream") {
  stream st(true);
  stream_guard g(st);
  auto cases = cases_of("chirp");
  const auto& c = cases.at(5);
  const ndarray y = signal::chirp(t_of(c), c.get<double>("f0"), c.get<double>("t1"), c.get<double>("f1"), chirp_opts(c));
  testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
}
