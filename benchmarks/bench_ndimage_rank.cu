// Rank filter benchmarks (ids as in the CuPy H200 baseline, ../shared/cupy-h200-baseline.md):
//   N2.s3 / N2.s5 / N2.s7     median_filter 4096^2 float32, size 3 / 5 / 7  (CuPy 14.2: 0.452 / 1.505 / 4.446 ms)
//   N2b.s3 / N2b.s5 / N2b.s7  median_filter 4096^2 uint8,   size 3 / 5 / 7  (CuPy 14.2: 0.447 / 1.353 / 3.552 ms)
//   N2v                       median_filter 512^3 float32, size 3           (CuPy 14.2: 13.01 ms)
// Inputs: uniform pseudo-random values (float32 in [0, 1), uint8 in [0, 255]), no NaN (so the
// register networks of rank_box.cu run on every tile). `gbps` / `roof_pct` count one read and one
// write of the array (the memory bound; these filters are compute-bound beyond 3x3).
// The timed call includes the host work of the call (output allocation from the pool).

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/rank.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

namespace nd = cusci::ndimage;

namespace {

cusci::ndarray random_array(const cusci::shape_t& shape, cusci::dtype dt) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::uint32_t x = 12345u;
  if (dt == cusci::dtype::uint8) {
    std::vector<std::uint8_t> h(static_cast<std::size_t>(n));
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      v = static_cast<std::uint8_t>(x >> 24);
    }
    return cusci::asarray(h, shape);
  }
  std::vector<float> h(static_cast<std::size_t>(n));
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<float>(x >> 8) / 16777216.0f;
  }
  return cusci::asarray(h, shape);
}

void bench_case(const std::string& id, const std::string& name, const cusci::ndarray& a, const std::function<void()>& fn,
                int runs = 50) {
  const double bytes = 2.0 * static_cast<double>(a.size()) * static_cast<double>(cusci::itemsize(a.dtype()));
  const auto r = cusci::bench::time_it(fn, runs, 5);
  cusci::bench::report(id, name, r, bytes);
}

}  // namespace

int main() {
  if (cusci::bench::no_device()) return 77;
  {
    const auto img = random_array({4096, 4096}, cusci::dtype::float32);
    for (int size : {3, 5, 7}) {
      const std::string sz = std::to_string(size);
      bench_case("N2.s" + sz, "median_filter 4096^2 f32 size=" + sz, img, [&] { (void)nd::median_filter(img, size); });
    }
  }
  {
    const auto img = random_array({4096, 4096}, cusci::dtype::uint8);
    for (int size : {3, 5, 7}) {
      const std::string sz = std::to_string(size);
      bench_case("N2b.s" + sz, "median_filter 4096^2 u8 size=" + sz, img, [&] { (void)nd::median_filter(img, size); });
    }
  }
  {
    const auto vol = random_array({512, 512, 512}, cusci::dtype::float32);
    bench_case("N2v", "median_filter 512^3 f32 size=3", vol, [&] { (void)nd::median_filter(vol, 3); }, 20);
  }
  return 0;
}
