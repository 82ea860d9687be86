// ndimage benchmarks (ids as in the CuPy H200 baseline):
//   N1   gaussian_filter 4096^2 float32, sigma 2   (CuPy 14.2: 1.123 ms)
//   N1v  gaussian_filter 512^3 float32, sigma 2    (CuPy 14.2: 11.99 ms)
// plus the single passes (gaussian_filter1d along each axis) that make them up.
// `gbps`/`roof_pct` count one read and one write of the array per pass (passes * 2 * N * 4 bytes);
// `fused_roof_ms` is the time of a single read + write of the array at the copy ceiling (the bound
// a fused multi-axis kernel could reach).

#include <cstdio>
#include <string>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

namespace nd = cusci::ndimage;

namespace {

cusci::ndarray random_f32(const cusci::shape_t& shape) {
  // Deterministic pseudo-random values, generated on the host once.
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<float> h(static_cast<std::size_t>(n));
  std::uint32_t x = 12345u;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<float>(x >> 8) / 16777216.0f;
  }
  return cusci::asarray(h, shape);
}

void bench_case(const std::string& id, const std::string& name, const cusci::ndarray& a, int passes,
                const std::function<void()>& fn) {
  const double n = static_cast<double>(a.size());
  const auto r = cusci::bench::time_it(fn, 50, 5);
  const double fused_ms = 2.0 * n * 4.0 / (cusci::bench::copy_ceiling_gbps * 1e9) * 1e3;
  char extra[128];
  std::snprintf(extra, sizeof extra, "\"passes\":%d,\"fused_roof_ms\":%.5f", passes, fused_ms);
  cusci::bench::report(id, name, r, passes * 2.0 * n * 4.0, extra);
}

}  // namespace

int main() {
  {
    const auto img = random_f32({4096, 4096});
    bench_case("N1", "gaussian_filter 4096^2 f32 sigma=2", img, 2, [&] { (void)nd::gaussian_filter(img, 2.0); });
    bench_case("N1.ax0", "gaussian_filter1d axis 0, 4096^2 f32 sigma=2", img, 1,
               [&] { (void)nd::gaussian_filter1d(img, 2.0, 0); });
    bench_case("N1.ax1", "gaussian_filter1d axis 1, 4096^2 f32 sigma=2", img, 1,
               [&] { (void)nd::gaussian_filter1d(img, 2.0, 1); });
  }
  {
    const auto vol = random_f32({512, 512, 512});
    bench_case("N1v", "gaussian_filter 512^3 f32 sigma=2", vol, 3, [&] { (void)nd::gaussian_filter(vol, 2.0); });
    for (int ax = 0; ax < 3; ++ax)
      bench_case("N1v.ax" + std::to_string(ax), "gaussian_filter1d axis " + std::to_string(ax) + ", 512^3 f32 sigma=2",
                 vol, 1, [&] { (void)nd::gaussian_filter1d(vol, 2.0, ax); });
  }
  return 0;
}
