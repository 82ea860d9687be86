// cusci::signal bsplines benchmarks (ids from docs/benchmarks.md):
//   G10   cspline1d on one (2^24,) float32 signal (SciPy's result is float64)
//   G10b  cspline2d on a (4096, 4096) float32 image (float32 result; rows then columns)
//   G10s  symiirorder2 r = 0.5, omega = pi/4 on (256, 2^16) float32 (each row)
//   G10f  sepfir2d of a (4096, 4096) float32 image with 7-tap float32 filters
// Bytes = one read of the input and one write of the result.
// Inputs: deterministic sin/cos patterns (the recursions' cost does not depend on the values).

#include <cmath>
#include <cstdio>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/signal/bsplines.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {

ndarray pattern(const shape_t& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = std::sin(0.001f * static_cast<float>(i % 100003)) + 0.25f * std::cos(0.37f * static_cast<float>(i % 977));
  return asarray(v, shape);
}

}  // namespace

int main() {
  if (bench::no_device()) return 77;
  const std::int64_t n1 = std::int64_t{1} << 24;
  const ndarray x1 = pattern({n1});
  const ndarray img = pattern({4096, 4096});
  const ndarray rows = pattern({256, std::int64_t{1} << 16});
  const host_array h7 = host_array::from(std::vector<float>{0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f});
  const double npx = 4096.0 * 4096.0;

  ndarray y;
  auto r = bench::time_it([&] { y = sig::cspline1d(x1); });
  bench::report("G10", "cspline1d (2^24,) f32 -> f64", r, (4.0 + 8.0) * static_cast<double>(n1));
  r = bench::time_it([&] { y = sig::cspline2d(img); });
  bench::report("G10b", "cspline2d (4096,4096) f32", r, 2.0 * 4.0 * npx);
  r = bench::time_it([&] { y = sig::symiirorder2(rows, 0.5, 0.7853981633974483); });
  bench::report("G10s", "symiirorder2 (256,2^16) f32", r, 2.0 * 4.0 * 256.0 * 65536.0);
  r = bench::time_it([&] { y = sig::sepfir2d(img, h7, h7); });
  bench::report("G10f", "sepfir2d (4096,4096) f32 7x7 taps", r, 2.0 * 4.0 * npx);
  return 0;
}
