// GPU tests of cusci::signal's spectral family (periodogram, welch, csd, coherence, spectrogram in every
// mode, stft, istft and the stft -> istft round trip) against SciPy references
// (tests/golden/gen_signal_spectral.py): window types (named, with parameters, host / device / complex
// arrays), odd and even nperseg, overlaps (none, default, large, negative), nfft padding, detrend,
// scaling, one- and two-sided, mean and median, complex input, 1-D to 3-D with several axes, C / F /
// strided inputs, the bundled ECG, audio, ENSO and sunspot recordings, the warnings SciPy issues, and a
// non-blocking stream for every other case.

#include <doctest/doctest.h>

#include <cmath>
#include <optional>

#include "cusci/core.hpp"
#include "cusci/signal/spectral.hpp"
#include "spectral_test_util.hpp"

using namespace cusci;
using namespace cusci::spectral_test;

namespace {

ndarray device_input(const case_t& c, const std::string& key) {
  if (key == "x" && c.has("data")) {
    host_array h = io::read_npy(std::string(CUSCI_EXAMPLE_DATA) + "/" + c.get<std::string>("data"));
    ndarray d = asarray(h);
    if (c.has("data_col")) d = d[{slice{}, c.get<std::int64_t>("data_col")}];
    if (c.has("data_len")) d = d[{slice{0, c.get<std::int64_t>("data_len")}}];
    return d;
  }
  ndarray d = asarray(c.array(key));
  const std::string layout = c.get_or<std::string>("layout", "C");
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{0, {}, 2}}];
  return d;
}

// angle / phase values as (cos, sin): the sign of a zero imaginary part (DC, Nyquist of a real input) is
// not portable across FFT libraries, so +-pi must compare equal.
host_array unit_circle(const host_array& a) {
  host_array d = a.astype(dtype::float64);
  host_array out(dtype::complex128, a.shape());
  for (std::int64_t i = 0; i < d.size(); ++i) {
    const double v = d.data_as<double>()[i];
    out.data_as<std::complex<double>>()[i] = {std::cos(v), std::sin(v)};
  }
  return out;
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
    const ndarray x = device_input(c, func == "istft" ? "Z" : "x");
    std::optional<ndarray> y;
    if (c.has("y")) y = device_input(c, "y");
    warning_capture wc;
    const outputs r = call(c, x, y ? &*y : nullptr);
    const host_array P = to_host(r.P);
    CHECK_MESSAGE((wc.warnings().size() > 0) == (c.get_or<int>("warns", 0) > 0),
                  "warnings: " << wc.warnings().size() << ", SciPy: " << c.get_or<int>("warns", 0));
    testing::check_allclose(r.f, c.array(func == "istft" || func == "roundtrip" ? "t" : "f"), 1e-12, 1e-12);
    if (c.has("t") && func != "istft" && func != "roundtrip") testing::check_allclose(r.t, c.array("t"), 1e-12, 1e-12);
    const std::string mode = c.get_or<std::string>("mode", "psd");
    if (func == "spectrogram" && (mode == "angle" || mode == "phase")) {
      const host_array e = c.array("P");
      CHECK(P.dtype() == e.dtype());
      testing::check_allclose(unit_circle(P), unit_circle(e), 0.0, e.dtype() == dtype::float32 ? 2e-3 : 1e-8);
    } else {
      testing::check_allclose(P, c.array("P"), c.rtol(), c.atol());
    }
  }
}

}  // namespace

TEST_CASE("welch matches SciPy") { run_func("welch", 60); }
TEST_CASE("periodogram matches SciPy") { run_func("periodogram", 12); }
TEST_CASE("csd matches SciPy") { run_func("csd", 10); }
TEST_CASE("coherence matches SciPy") { run_func("coherence", 5); }
TEST_CASE("spectrogram matches SciPy in every mode") { run_func("spectrogram", 30); }
TEST_CASE("stft matches SciPy with every boundary") { run_func("stft", 25); }
TEST_CASE("istft matches SciPy") { run_func("istft", 12); }
TEST_CASE("stft -> istft round trips as SciPy's") { run_func("roundtrip", 8); }

TEST_CASE("csd of an array with itself is real, as SciPy's `y is x`") {
  ndarray x = asarray(std::vector<double>{1, 3, -2, 5, 0, 1, 2, -1, 4, 4, 1, 0, -3, 2, 1, 7});
  auto r = signal::csd(x, x, {.nperseg = 8});
  auto w = signal::welch(x, {.nperseg = 8});
  CHECK(r.Pxy.dtype() == dtype::float64);
  testing::check_allclose(r.Pxy, to_host(w.Pxx), 0.0, 0.0);
}

TEST_CASE("welch of a long float32 signal finds its tone (several segment chunks)") {
  // 2^22 samples: the averaging kernel splits the segments into chunks and combines them.
  const std::int64_t n = 1 << 22;
  ndarray t = arange(0.0, static_cast<double>(n), 1.0, dtype::float64);
  ndarray x = sin(multiply(t, 2.0 * 3.14159265358979323846 * 0.125)).astype(dtype::float32);
  auto r = signal::welch(x, {.nperseg = 256});
  CHECK(r.Pxx.dtype() == dtype::float32);
  host_array h = to_host(r.Pxx);
  const float* p = h.data_as<float>();
  // A unit sine at bin 32 of 256: one-sided density 0.5 / (fs * sum(w^2)) * sum(w)^2 / ... peak at 32.
  std::int64_t best = 0;
  for (std::int64_t k = 1; k < h.size(); ++k)
    if (p[k] > p[best]) best = k;
  CHECK(best == 32);
  // Parseval: the integral of the density is the mean power 0.5 (hann window, up to leakage into 31/33).
  double sum = 0;
  for (std::int64_t k = 0; k < h.size(); ++k) sum += p[k];
  CHECK(std::abs(sum * r.f.data_as<double>()[1] - 0.5) < 1e-3);
}
