// cusci::signal benchmarks (ids from docs/benchmarks.md):
//   G2   lfilter butter(4, 0.2) on (256, 2^18) float32 (float32 coefficients: float32 result)
//   G2s  the same filter on one (2^26,) float32 signal
//   G3   sosfilt butter(16, 0.2) (8 sections) on (256, 2^18) float32, float32 sos (float32 result)
//   G3d  the same with float64 sos (SciPy's promotion: float64 result, as CuPy's default call)
//   G3s  sosfilt order 16 on one (2^26,) float32 signal
//   G2b  lfilter of the ECG band-pass butter(4, [0.5, 40], fs=360) in transfer-function form (order 8,
//        poles at radius 0.9967: chunks of 8192 samples for a contracting carry) on (2^26,) float32 data
//        with float64 coefficients (float64 result, as SciPy; rounded to float32 the filter is unstable)
//   G3b  sosfilt of the same band-pass as sections on (2^26,) float32
// Bytes = one read of x and one write of y.

#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/signal/signal.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

int main() {
  if (device_count() == 0) {
    std::printf("no GPU\n");
    return 0;
  }
  const auto ba = sig::butter(4, 0.2);
  const host_array b32 = ba.b.astype(dtype::float32), a32 = ba.a.astype(dtype::float32);
  const auto sosf = sig::butter(16, 0.2, {.output = sig::output_form::sos});
  const host_array sos32 = sosf.sos.astype(dtype::float32);

  ndarray xb = full({256, 1 << 18}, 1.0, dtype::float32);
  ndarray xl = full({1 << 26}, 1.0, dtype::float32);
  const double bytes_f32 = 2.0 * 4.0 * (1 << 26);

  ndarray y;
  auto r = bench::time_it([&] { y = sig::lfilter(b32, a32, xb); });
  bench::report("G2", "lfilter butter4 (256,2^18) f32", r, bytes_f32);
  r = bench::time_it([&] { y = sig::lfilter(b32, a32, xl); });
  bench::report("G2s", "lfilter butter4 (2^26,) f32", r, bytes_f32);
  r = bench::time_it([&] { y = sig::sosfilt(sos32, xb); });
  bench::report("G3", "sosfilt order16 (256,2^18) f32", r, bytes_f32);
  r = bench::time_it([&] { y = sig::sosfilt(sosf.sos, xb); });
  bench::report("G3d", "sosfilt order16 (256,2^18) f32 data, f64 sos -> f64", r, 4.0 * (1 << 26) + 8.0 * (1 << 26));
  r = bench::time_it([&] { y = sig::sosfilt(sos32, xl); });
  bench::report("G3s", "sosfilt order16 (2^26,) f32", r, bytes_f32);
  const auto ecg = sig::butter(4, {0.5, 40.0}, {.btype = sig::band_type::bandpass, .fs = 360.0});
  const auto ecg_sos = sig::butter(4, {0.5, 40.0}, {.btype = sig::band_type::bandpass, .output = sig::output_form::sos, .fs = 360.0});
  const host_array esos32 = ecg_sos.sos.astype(dtype::float32);
  r = bench::time_it([&] { y = sig::lfilter(ecg.b, ecg.a, xl); });
  bench::report("G2b", "lfilter ECG band-pass order 8 (f64 ba) (2^26,) f32 -> f64", r, 12.0 * (1 << 26));
  r = bench::time_it([&] { y = sig::sosfilt(esos32, xl); });
  bench::report("G3b", "sosfilt ECG band-pass order 8 (sos) (2^26,) f32", r, bytes_f32);
  return 0;
}
