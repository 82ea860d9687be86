// ndimage correlate / convolve benchmarks (N-D weights on the footprint engine's blocked kernel):
//   NC1    correlate 4096^2 float32, 3 x 3 weights
//   NC2    correlate 4096^2 float32, 5 x 5 weights
//   NC3    correlate 256^3 float32, 3 x 3 x 3 weights
//   NC1c   convolve 4096^2 float32, 3 x 3 weights
//   NC1d   correlate 4096^2 float64, 3 x 3 weights
//   NC1u   correlate 4096^2 uint8, 3 x 3 weights (run-time dtypes, SciPy's exact operation order)
// `gbps`/`roof_pct` count one read and one write of the array (2 * N * itemsize bytes): the copy
// roofline, 128 MiB and about 0.032 ms for 4096^2 float32 at 4.1 TB/s. `fp64_bound_ms` is the time of
// one double fused multiply-add per tap and output at the H200's FP64 rate (about 16.7e12 per s,
// 132 SMs x 64 lanes x 1.98 GHz): the arithmetic bound of the double accumulation.
// The timed call includes the host work of the call (the plan, output allocation from the pool).

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/correlate.hpp"
#include "cusci/stream.hpp"
#include "bench_data.cuh"
#include "harness.hpp"

namespace nd = cusci::ndimage;

namespace {

cusci::ndarray random_array(const cusci::shape_t& shape, cusci::dtype dt = cusci::dtype::float32) {
  const auto a = cusci::bench::lcg_f32(shape);
  if (dt == cusci::dtype::float32) return a;
  if (dt == cusci::dtype::uint8) return cusci::multiply(a, 255.0).astype(dt);
  return a.astype(dt);
}

/// Weights of `shape` with values 1 / (k + 2) (all nonzero, not separable).
cusci::host_array weights(const cusci::shape_t& shape) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<double> w(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < w.size(); ++k) w[k] = 1.0 / static_cast<double>(k + 2);
  return cusci::host_array::from(w, shape);
}

void bench_case(const std::string& id, const std::string& name, const cusci::ndarray& a, std::int64_t taps,
                const std::function<void()>& fn) {
  const double n = static_cast<double>(a.size());
  const double item = static_cast<double>(cusci::itemsize(a.dtype()));
  const auto r = cusci::bench::time_it(fn, 50, 5);
  const double roof_ms = 2.0 * n * item / (cusci::bench::copy_ceiling_gbps * 1e9) * 1e3;
  const double fp64_ms = n * static_cast<double>(taps) / 16.7e12 * 1e3;
  char extra[160];
  std::snprintf(extra, sizeof extra, "\"taps\":%lld,\"roof_ms\":%.5f,\"fp64_bound_ms\":%.5f",
                static_cast<long long>(taps), roof_ms, fp64_ms);
  cusci::bench::report(id, name, r, 2.0 * n * item, extra);
}

}  // namespace

int main() {
  {
    const auto img = random_array({4096, 4096});
    const auto w3 = weights({3, 3}), w5 = weights({5, 5});
    bench_case("NC1", "correlate 4096^2 f32 3x3", img, 9, [&] { (void)nd::correlate(img, w3); });
    bench_case("NC2", "correlate 4096^2 f32 5x5", img, 25, [&] { (void)nd::correlate(img, w5); });
    bench_case("NC1c", "convolve 4096^2 f32 3x3", img, 9, [&] { (void)nd::convolve(img, w3); });
    const auto imgd = random_array({4096, 4096}, cusci::dtype::float64);
    bench_case("NC1d", "correlate 4096^2 f64 3x3", imgd, 9, [&] { (void)nd::correlate(imgd, w3); });
    const auto imgu = random_array({4096, 4096}, cusci::dtype::uint8);
    bench_case("NC1u", "correlate 4096^2 u8 3x3", imgu, 9, [&] { (void)nd::correlate(imgu, w3); });
  }
  {
    const auto vol = random_array({256, 256, 256});
    const auto w333 = weights({3, 3, 3});
    bench_case("NC3", "correlate 256^3 f32 3x3x3", vol, 27, [&] { (void)nd::correlate(vol, w333); });
  }
  return 0;
}
