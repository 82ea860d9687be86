// GPU tests of cusci::signal's fourier family (hilbert, hilbert2, envelope, detrend, czt, zoom_fft, CZT,
// ZoomFFT) against SciPy references (tests/golden/gen_signal_fourier.py): dtypes (float16 ... complex128,
// integers, bool), 1-D to 3-D with every axis, C / F / strided inputs, N / n_out / m larger and smaller
// than the length, odd and even lengths, empty batches, break points across detrend's chunks, and a
// non-blocking stream for every other case.

#include <doctest/doctest.h>

#include <memory>
#include <optional>

#include "cusci/core.hpp"
#include "cusci/signal/fourier.hpp"
#include "fourier_test_util.hpp"

using namespace cusci;
using namespace cusci::fourier_test;

namespace {

ndarray input_of(const case_t& c) {
  ndarray d = asarray(c.array("x"));
  const std::string layout = c.get_or<std::string>("layout", "C");
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{0, {}, 2}}];
  return d;
}

void run_func(const std::string& func, std::size_t at_least) {
  auto cases = cases_of(func);
  REQUIRE(cases.size() >= at_least);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    std::optional<stream_guard> g;
    if (i++ % 2 == 1) g.emplace(s);
    const ndarray x = input_of(c);
    const ndarray y = call(c, x);
    testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
  }
}

}  // namespace

TEST_CASE("hilbert matches SciPy") { run_func("hilbert", 30); }
TEST_CASE("hilbert2 matches SciPy") { run_func("hilbert2", 10); }
TEST_CASE("envelope matches SciPy") { run_func("envelope", 100); }
TEST_CASE("detrend matches SciPy") { run_func("detrend", 30); }
TEST_CASE("czt matches SciPy") { run_func("czt", 10); }
TEST_CASE("zoom_fft matches SciPy") { run_func("zoom_fft", 5); }

TEST_CASE("CZT and ZoomFFT objects match SciPy, points included, and are reusable") {
  stream s(true);
  for (const std::string f : {"CZT", "ZoomFFT"}) {
    auto cases = cases_of(f);
    REQUIRE(cases.size() >= 3);
    for (const auto& c : cases) {
      CAPTURE(c.name());
      const ndarray x = input_of(c);
      testing::check_allclose(call(c, x), c.array("expected"), c.rtol(), c.atol());
      const int axis = c.get_or<int>("axis", -1);
      const auto m = c.get_or<std::optional<std::int64_t>>("m", std::nullopt);
      // Built on a non-blocking stream, called on the default one: the call waits for the chirps.
      std::optional<stream_guard> g(std::in_place, s);
      std::shared_ptr<signal::CZT> t;  // shared_ptr: deletes a ZoomFFT as a ZoomFFT
      if (f == "CZT")
        t = std::make_shared<signal::CZT>(c.get<std::int64_t>("n"), m,
                                          c.has("w") ? opt_complex(c, "w") : std::nullopt,
                                          c.get_or<std::complex<double>>("a", {1.0, 0.0}));
      else
        t = std::make_shared<signal::ZoomFFT>(c.get<std::int64_t>("n"), c.get<std::vector<double>>("fn"), m,
                                              signal::zoom_fft_params{.fs = c.get<double>("fs"),
                                                                      .endpoint = c.get<bool>("endpoint")});
      g.reset();
      const host_array pts = t->points();
      const ndarray y1 = (*t)(x, axis);
      const ndarray y2 = (*t)(x.copy(order::F), axis);  // the chirps are reused
      testing::check_allclose(pts, c.array("points"), 1e-12, 1e-12);
      testing::check_allclose(y1, c.array("expected"), c.rtol(), c.atol());
      testing::check_allclose(y2, c.array("expected"), c.rtol(), c.atol());
    }
  }
}

TEST_CASE("CZT's call rejects what SciPy rejects") {
  auto cases = cases_of("CZT_call", true);
  REQUIRE(cases.size() >= 2);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const signal::CZT t(c.get<std::int64_t>("n"));
    const ndarray x = zeros(c.get<std::vector<std::int64_t>>("shape"));
    testing::check_error(c, [&] { (void)t(x, c.get<int>("axis")); });
  }
}

TEST_CASE("hilbert of a long float32 signal is analytic") {
  // Beyond the references: 2^20 samples of cos(2 pi f t) give exp(2 pi i f t) (f on a bin).
  const std::int64_t n = 1 << 20;
  ndarray t = arange(0.0, static_cast<double>(n), 1.0, dtype::float64);
  const double f = 1000.0 / static_cast<double>(n);
  ndarray x = cos(multiply(t, 2.0 * 3.14159265358979323846 * f)).astype(dtype::float32);
  ndarray y = signal::hilbert(x);
  CHECK(y.dtype() == dtype::complex64);
  host_array h = to_host(y);
  const auto* p = h.data_as<std::complex<float>>();
  double worst = 0;
  for (std::int64_t i = 0; i < n; i += 997) {
    const double ph = 2.0 * 3.14159265358979323846 * f * static_cast<double>(i);
    worst = std::max(worst, std::abs(std::complex<double>(p[i]) - std::complex<double>(std::cos(ph), std::sin(ph))));
  }
  CHECK(worst < 1e-3);
}
