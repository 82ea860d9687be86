// Host tests of cusci::signal's spectral family (no GPU): check_COLA / check_NOLA against SciPy, the
// string parsers, and every argument check, run on data-less arrays of the dtype and shape SciPy rejected
// (tests/golden/gen_signal_spectral.py's error cases): the checks throw before any device work.

#include <doctest/doctest.h>

#include "cusci/signal/spectral.hpp"
#include "spectral_test_util.hpp"

using namespace cusci;
using namespace cusci::spectral_test;

TEST_CASE("check_COLA and check_NOLA match SciPy") {
  std::size_t n = 0;
  for (const char* f : {"check_COLA", "check_NOLA"}) {
    for (const auto& c : cases_of(f)) {
      CAPTURE(c.name());
      CHECK(call_check(c) == c.get<bool>("expected"));
      ++n;
    }
  }
  CHECK(n >= 20);
}

TEST_CASE("the string options parse SciPy's strings") {
  CHECK(signal::parse_spectral_detrend("constant") == signal::spectral_detrend::constant);
  CHECK(signal::parse_spectral_detrend("linear") == signal::spectral_detrend::linear);
  CHECK(signal::parse_spectral_detrend("none") == signal::spectral_detrend::none);
  CHECK_THROWS_AS(signal::parse_spectral_detrend("foo"), value_error);
  CHECK(signal::parse_spectral_scaling("density") == signal::spectral_scaling::density);
  CHECK(signal::parse_spectral_scaling("psd") == signal::spectral_scaling::density);
  CHECK(signal::parse_spectral_scaling("spectrum") == signal::spectral_scaling::spectrum);
  CHECK_THROWS_AS(signal::parse_spectral_scaling("power"), value_error);
  CHECK(signal::parse_spectral_average("median") == signal::spectral_average::median);
  CHECK_THROWS_AS(signal::parse_spectral_average("max"), value_error);
  CHECK(signal::parse_spectrogram_mode("phase") == signal::spectrogram_mode::phase);
  CHECK_THROWS_AS(signal::parse_spectrogram_mode("power"), value_error);
  CHECK(signal::parse_stft_boundary("none") == signal::stft_boundary::none);
  CHECK(signal::parse_stft_boundary("odd") == signal::stft_boundary::odd);
  CHECK_THROWS_AS(signal::parse_stft_boundary("reflect"), value_error);
}

TEST_CASE("the spectral functions reject what SciPy rejects, before any device work") {
  std::vector<case_t> cases;
  for (const char* f : {"welch", "csd", "coherence", "periodogram", "spectrogram", "stft", "istft", "check_COLA",
                        "check_NOLA"}) {
    auto v = cases_of(f, true);
    cases.insert(cases.end(), v.begin(), v.end());
  }
  REQUIRE(cases.size() >= 30);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    if (c.func() == "check_COLA" || c.func() == "check_NOLA") {
      testing::check_error(c, [&] { (void)call_check(c); });
      continue;
    }
    const ndarray x = testing::fake_array(dtype_from_string(c.get<std::string>("dtype")),
                                          c.get<std::vector<std::int64_t>>("shape"));
    std::optional<ndarray> y;
    if (c.has("shape_y"))
      y = testing::fake_array(dtype_from_string(c.get_or<std::string>("dtype_y", c.get<std::string>("dtype"))),
                              c.get<std::vector<std::int64_t>>("shape_y"));
    testing::check_error(c, [&] { (void)call(c, x, y ? &*y : nullptr); });
  }
}

TEST_CASE("nperseg greater than the signal warns and shrinks, as SciPy") {
  // Checked on the host through the error path: an array window longer than the signal is refused.
  const ndarray x = testing::fake_array(dtype::float64, {10});
  host_array w(dtype::float64, {16});
  CHECK_THROWS_AS(signal::spectrogram(x, {.window = w}), value_error);
}
