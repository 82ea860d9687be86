// cusci::signal ShortTimeFFT benchmarks (the issue's stft / spectrogram targets: 2^26 float32, window
// 4096, hop 2048; CuPy's stft takes 3.761 ms, the target is 3x):
//   G5sft  ShortTimeFFT.from_window("hann", fs=1, 4096, 2048).stft of one (2^26,) float32 signal
//          (complex64 result (2049, 32770)): the engine's framing + batched R2C, then ONE transpose
//          kernel into SciPy's (f, t) layout applying the default phase shift
//   G5sfs  the same object's spectrogram (float32 result): the transpose kernel writes |S|^2
// Bytes: one read of x (4 n) and one write of the result: f_pts x p_num(n) = 2049 x 32770 (about n)
// cells of 8 (complex64) or 4 (float32) bytes. The engine's intermediate (slice, bin) spectra add one
// write and one read of 8 bytes a cell that this count leaves out.

#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/signal/short_time_fft.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

int main() {
  if (bench::no_device()) return 77;
  const std::int64_t n = 1 << 26;
  ndarray x = random::default_rng(1).random({n}, dtype::float32);
  const sig::ShortTimeFFT sft = sig::ShortTimeFFT::from_window("hann", 1.0, 4096, 2048);
  const double cells = static_cast<double>(sft.f_pts()) * static_cast<double>(sft.p_num(n));
  ndarray y;
  auto r = bench::time_it([&] { y = sft.stft(x); });
  bench::report("G5sft", "ShortTimeFFT.stft (2^26,) f32, hann 4096, hop 2048 -> c64", r, 4.0 * n + 8.0 * cells);
  y = ndarray();
  r = bench::time_it([&] { y = sft.spectrogram(x); });
  bench::report("G5sfs", "ShortTimeFFT.spectrogram (2^26,) f32, hann 4096, hop 2048 -> f32", r, 4.0 * n + 4.0 * cells);
  return 0;
}
