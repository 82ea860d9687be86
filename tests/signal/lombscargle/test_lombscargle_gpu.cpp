// GPU tests of cusci::signal's lombscargle family against SciPy 1.18.1 (gen_signal_lombscargle.py):
// the sunspot and Nino 3 recordings with dropped samples, synthetic sets spanning several frequency
// blocks and sample chunks on even, uneven and mixed frequency grids, weights, floating_mean, every
// normalize, the deprecated precenter (and its warning), float32 / integer / strided inputs, one
// frequency (0-d result); vectorstrength with scalar, 0-d and array periods of float64 / float32 /
// integer dtypes; the weight and period checks that need device values.

#include <doctest/doctest.h>

#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
#include "lombscargle_test_util.hpp"

using namespace cusci;
using namespace cusci::lombscargle_test;

TEST_CASE("lombscargle matches SciPy") {
  auto cases = cases_of("lombscargle");
  REQUIRE(cases.size() >= 45);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    warning_capture w;
    const ndarray p = lombscargle_of(c);
    testing::check_allclose(p, c.array("expected"), c.rtol(), c.atol());
    CHECK(w.has("DeprecationWarning") == c.has("precenter"));
  }
}

TEST_CASE("lombscargle checks the weights' values") {
  auto cases = cases_of("lombscargle", true);
  int n = 0;
  for (const auto& c : cases) {
    if (!c.has("x")) continue;
    CAPTURE(c.name());
    ++n;
    testing::check_error(c, [&] { (void)lombscargle_of(c); });
  }
  CHECK(n == 3);
}

TEST_CASE("vectorstrength matches SciPy") {
  auto cases = cases_of("vectorstrength");
  REQUIRE(cases.size() >= 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ndarray e = asarray(c.array("events"));
    const auto r = c.has("period") ? signal::vectorstrength(e, c.get<double>("period"))
                                   : signal::vectorstrength(e, asarray(c.array("period_array")));
    testing::check_allclose(r.strength, c.array("strength"), c.rtol(), c.atol());
    testing::check_allclose(r.phase, c.array("phase"), c.rtol(), c.atol());
  }
  for (const auto& c : cases_of("vectorstrength", true)) {
    if (!c.has("period_array")) continue;
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      (void)signal::vectorstrength(asarray(c.array("events")), asarray(c.array("period_array")));
    });
  }
}

TEST_CASE("lombscargle runs on the current stream") {
  stream st(true);
  stream_guard g(st);
  auto cases = cases_of("lombscargle");
  const auto& c = cases.at(3);
  testing::check_allclose(lombscargle_of(c), c.array("expected"), c.rtol(), c.atol());
}
