// cusci::signal smoothing benchmarks (ids from docs/benchmarks.md; CuPy peers in
// peers_signal_smoothing.py):
//   G8   savgol_filter window 31, polyorder 3, mode interp on one (2^26,) float32 signal
//   G8m  the same with mode mirror
//   G9   medfilt kernel_size 11 on one (2^24,) float32 signal (the 1-D selection kernel)
//   G9b  medfilt2d kernel_size 5 on (4096, 4096) float32
//   G9w  wiener mysize 5 on (4096, 4096) float32 (float64 result, as SciPy)
// Inputs: uniform values in [0, 1) from a fixed LCG. Bytes = one read of the input and one write of
// the output.

#include <cstdint>
#include <cstdio>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/signal/smoothing.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {

ndarray random_f32(const shape_t& shape) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<float> h(static_cast<std::size_t>(n));
  std::uint32_t x = 12345u;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<float>(x >> 8) * (1.0f / 16777216.0f);
  }
  return asarray(h, shape);
}

}  // namespace

int main() {
  if (bench::no_device()) return 77;
  ndarray y;
  {
    ndarray x = random_f32({std::int64_t{1} << 26});
    const double bytes = 2.0 * 4.0 * static_cast<double>(std::int64_t{1} << 26);
    auto r = bench::time_it([&] { y = sig::savgol_filter(x, 31, 3); });
    bench::report("G8", "savgol_filter (2^26,) f32 w31 p3 interp", r, bytes);
    r = bench::time_it([&] { y = sig::savgol_filter(x, 31, 3, {.mode = sig::savgol_mode::mirror}); });
    bench::report("G8m", "savgol_filter (2^26,) f32 w31 p3 mirror", r, bytes);
  }
  {
    ndarray x = random_f32({std::int64_t{1} << 24});
    auto r = bench::time_it([&] { y = sig::medfilt(x, 11); });
    bench::report("G9", "medfilt (2^24,) f32 k11", r, 2.0 * 4.0 * static_cast<double>(std::int64_t{1} << 24));
  }
  {
    ndarray img = random_f32({4096, 4096});
    auto r = bench::time_it([&] { y = sig::medfilt2d(img, 5); });
    bench::report("G9b", "medfilt2d (4096,4096) f32 k5", r, 2.0 * 4.0 * 4096.0 * 4096.0);
    r = bench::time_it([&] { y = sig::wiener(img, 5); });
    bench::report("G9w", "wiener (4096,4096) f32 mysize5 -> f64", r, (4.0 + 8.0) * 4096.0 * 4096.0);
  }
  return 0;
}
