// cusci::signal spectral-family benchmarks (CuPy peers: peers_signal_spectral.py):
//   G5   welch of one (2^26,) float32 signal, nperseg 4096 (hann, noverlap 2048, detrend constant):
//        the framing kernel (read x, detrend, window, write the frames), one batched R2C cuFFT, one
//        averaging kernel over the spectra
//   G5b  welch of (256, 2^18) float32 along the last axis, nperseg 4096
//   G5s  stft of one (2^26,) float32 signal, nperseg 4096 (boundary zeros, padded): framing + R2C; the
//        result is SciPy's (freq, time) layout as a view of the (time, freq) spectra
//   G5g  spectrogram of one (2^26,) float32 signal, nperseg 4096 (tukey 0.25, noverlap 512, psd):
//        framing + R2C + one pass to the scaled power
// Bytes (the minimum traffic of this design): x read once, the frames written and read once, the
// spectra written once and read once (G5, G5b, G5g) or written once (G5s); G5g adds the power written.

#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/signal/spectral.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {
double frame_bytes(std::int64_t batch, std::int64_t n, std::int64_t nperseg, std::int64_t hop, bool power_out) {
  const std::int64_t nseg = batch * ((n - (nperseg - hop)) / hop);
  const double frames = 4.0 * double(nseg) * double(nperseg);
  const double spectra = 8.0 * double(nseg) * double(nperseg / 2 + 1);
  return 4.0 * double(batch) * double(n) + 2.0 * frames + 2.0 * spectra + (power_out ? 4.0 * double(nseg) * double(nperseg / 2 + 1) : 0.0);
}
}  // namespace

int main() {
  if (bench::no_device()) return 77;
  const std::int64_t n = 1 << 26;
  ndarray x = random::default_rng(1).random({n}, dtype::float32);
  sig::psd_result w;
  auto r = bench::time_it([&] { w = sig::welch(x, {.nperseg = 4096}); });
  bench::report("G5", "welch (2^26,) f32, nperseg 4096", r, frame_bytes(1, n, 4096, 2048, false));

  sig::stft_result s;
  r = bench::time_it([&] { s = sig::stft(x, {.nperseg = 4096}); });
  bench::report("G5s", "stft (2^26,) f32, nperseg 4096", r, frame_bytes(1, n, 4096, 2048, false) - 8.0 * double(n));
  s = {};

  sig::spectrogram_result g;
  r = bench::time_it([&] { g = sig::spectrogram(x, {.nperseg = 4096}); });
  bench::report("G5g", "spectrogram (2^26,) f32, nperseg 4096 (psd)", r, frame_bytes(1, n, 4096, 3584, true));
  g = {};
  x = ndarray();

  ndarray xb = random::default_rng(2).random({256, 1 << 18}, dtype::float32);
  r = bench::time_it([&] { w = sig::welch(xb, {.nperseg = 4096}); });
  bench::report("G5b", "welch (256, 2^18) f32, nperseg 4096", r, frame_bytes(256, 1 << 18, 4096, 2048, false));
  return 0;
}
