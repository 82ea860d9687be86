// cusci::signal peaks-family benchmarks:
//   G6   find_peaks(x, distance=100, prominence=1.0) on 2^24 float64 samples of a real-like signal
//        (three sines of periods 2000, 317 and 53.3 samples plus uniform noise from a seeded hash,
//        the same data peers_signal_peaks.py gives CuPy)
//   G6n  find_peaks(x) with no condition (the local-maximum pass and its compaction alone)
//   G6h  find_peaks(x, height=0.5, threshold=0.01, distance=100, prominence=1.0, width=5)
//   G6a  argrelmax(x) on the same 2^24 samples
//   G6s, G6hs  G6 and G6h on the first 2^16 samples: CuPy's distance selection is a Python loop with
//        device reads per peak (about 5.6 million local maxima at 2^24: minutes a call), so
//        peers_signal_peaks.py times CuPy's G6/G6h on this prefix and scales by 2^24 / 2^16 (its cost
//        is linear in the number of peaks); G6s/G6hs are the like-for-like pair
// Bytes: one read of x (8 B/sample) and the 1 B/sample of candidate flags written and read back by
// the compaction; everything after the first pass works on the (about n/3) candidates.

#include <cmath>
#include <cstdint>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/signal/peaks.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {

/// splitmix64 of i as a uniform double in [0, 1) (the peers compute the same with NumPy's uint64).
double hash_uniform(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

}  // namespace

int main() {
  if (bench::no_device()) return 77;
  const std::int64_t n = 1 << 24;
  std::vector<double> h(static_cast<std::size_t>(n));
  const double tau = 6.283185307179586;
  for (std::int64_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i);
    h[static_cast<std::size_t>(i)] = std::sin(tau * t / 2000.0) + 0.5 * std::sin(tau * t / 317.0) +
                                     0.3 * std::sin(tau * t / 53.3) + 0.5 * (hash_uniform(static_cast<std::uint64_t>(i)) - 0.5);
  }
  const ndarray x = asarray(host_array::from(h));
  sig::find_peaks_result r;
  auto t = bench::time_it([&] { r = sig::find_peaks(x, {.distance = 100.0, .prominence = 1.0}); }, 20, 3);
  bench::report("G6", "find_peaks (2^24,) f64 distance=100 prominence=1", t, 9.0 * n,
                "\"npeaks\":" + std::to_string(r.peaks.size()));
  t = bench::time_it([&] { r = sig::find_peaks(x); }, 20, 3);
  bench::report("G6n", "find_peaks (2^24,) f64 no condition", t, 9.0 * n,
                "\"npeaks\":" + std::to_string(r.peaks.size()));
  t = bench::time_it([&] {
    r = sig::find_peaks(x, {.height = 0.5, .threshold = 0.01, .distance = 100.0, .prominence = 1.0, .width = 5.0});
  }, 20, 3);
  bench::report("G6h", "find_peaks (2^24,) f64 height threshold distance prominence width", t, 9.0 * n,
                "\"npeaks\":" + std::to_string(r.peaks.size()));
  const ndarray xs = x[{slice{0, 1 << 16}}];
  t = bench::time_it([&] { r = sig::find_peaks(xs, {.distance = 100.0, .prominence = 1.0}); }, 20, 3);
  bench::report("G6s", "find_peaks (2^16,) f64 distance=100 prominence=1", t, 9.0 * 65536,
                "\"npeaks\":" + std::to_string(r.peaks.size()));
  t = bench::time_it([&] {
    r = sig::find_peaks(xs, {.height = 0.5, .threshold = 0.01, .distance = 100.0, .prominence = 1.0, .width = 5.0});
  }, 20, 3);
  bench::report("G6hs", "find_peaks (2^16,) f64 height threshold distance prominence width", t, 9.0 * 65536,
                "\"npeaks\":" + std::to_string(r.peaks.size()));
  std::vector<ndarray> a;
  t = bench::time_it([&] { a = sig::argrelmax(x); }, 20, 3);
  bench::report("G6a", "argrelmax (2^24,) f64", t, 9.0 * n, "\"npeaks\":" + std::to_string(a[0].size()));
  return 0;
}
