// cusci::signal zero-phase filtering benchmarks (ids from docs/benchmarks.md):
//   G11   filtfilt butter(4, 0.2) (b, a in float32) on (256, 2^18) float32 uniform data: float32 result
//   G11s  sosfiltfilt butter(16, 0.2) (8 sections, float32 sos) on (256, 2^18) float32: float32 result
//   G11g  filtfilt butter(4, 0.2) (float64) with method "gust" on (16, 2^16) float64
// Bytes = one read of x and one write of y. CuPy's peers: peers_signal_zero_phase.py.

#include <cstdio>

#include "bench_data.cuh"
#include "cusci/core.hpp"
#include "cusci/signal/signal.hpp"
#include "cusci/signal/zero_phase.hpp"
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

  const ndarray x = bench::random_f32({256, 1 << 18}, 11);
  const double bytes_f32 = 2.0 * 4.0 * (1 << 26);
  ndarray y;
  auto r = bench::time_it([&] { y = sig::filtfilt(b32, a32, x); });
  bench::report("G11", "filtfilt butter4 (256,2^18) f32", r, bytes_f32);
  r = bench::time_it([&] { y = sig::sosfiltfilt(sos32, x); });
  bench::report("G11s", "sosfiltfilt order16 (256,2^18) f32", r, bytes_f32);

  const ndarray xg = bench::random_f32({16, 1 << 16}, 12).astype(dtype::float64);
  r = bench::time_it([&] { y = sig::filtfilt(ba.b, ba.a, xg, {.method = sig::filtfilt_method::gust}); }, 10, 2);
  bench::report("G11g", "filtfilt gust butter4 (16,2^16) f64", r, 2.0 * 8.0 * (1 << 20));
  return 0;
}
