// cusci::signal multirate benchmarks (ids of ../shared/cupy-h200-baseline.md / docs/benchmarks.md):
//   G4   resample_poly 2^26 float32, up 2 / down 3 (SciPy's default Kaiser(5.0) filter, 61 taps)
//   G4u  upfirdn of the same 2^26 float32 signal with the same (padded, scaled) 64-tap filter, up 2 / down 3
//   G4r  resample (FFT method) 2^26 -> 2^26 * 2 / 3 float32
//   G4d  decimate 2^24 float32 by q = 4, iir (cheby1 order 8, sosfiltfilt: zero_phase)
// Bytes = one read of x and one write of y (the copy roofline of the operation).

#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/multirate.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

int main() {
  if (bench::no_device()) return 77;
  const std::int64_t n = std::int64_t{1} << 26;
  ndarray x = random::default_rng(1).standard_normal({n}, dtype::float32);
  ndarray y;

  const std::int64_t n_poly = (n * 2 + 2) / 3;
  auto r = bench::time_it([&] { y = sig::resample_poly(x, 2, 3, {.axis = -1}); });
  bench::report("G4", "resample_poly 2^26 f32 2/3", r, 4.0 * n + 4.0 * n_poly);

  // The filter resample_poly uses: firwin(61, 1/3, kaiser 5) in float32, times up, 3 zeros in front.
  host_array h = sig::firwin(61, 1.0 / 3, {.window = sig::window_spec("kaiser", {5.0})}).astype(dtype::float32);
  std::vector<float> hv = h.to_vector<float>();
  for (auto& v : hv) v *= 2.0f;
  hv.insert(hv.begin(), 3, 0.0f);
  const host_array h64 = host_array::from(hv);
  r = bench::time_it([&] { y = sig::upfirdn(h64, x, 2, 3); });
  bench::report("G4u", "upfirdn 2^26 f32 64 taps 2/3", r, 4.0 * n + 4.0 * static_cast<double>(y.size()));

  const std::int64_t num = n * 2 / 3;
  r = bench::time_it([&] { y = sig::resample(x, num, {.axis = -1}); });
  bench::report("G4r", "resample (FFT) 2^26 -> 2^26*2/3 f32", r, 4.0 * n + 4.0 * num);

  const std::int64_t nd = std::int64_t{1} << 24;
  ndarray xd = random::default_rng(2).standard_normal({nd}, dtype::float32);
  r = bench::time_it([&] { y = sig::decimate(xd, 4); });
  bench::report("G4d", "decimate 2^24 f32 q=4 iir zero_phase", r, 4.0 * nd + 4.0 * (nd / 4));
  return 0;
}
