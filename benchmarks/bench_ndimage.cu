// ndimage benchmarks (ids as in the CuPy H200 baseline):
//   N1   gaussian_filter 4096^2 float32, sigma 2   (CuPy 14.2: 1.123 ms)
//   N1v  gaussian_filter 512^3 float32, sigma 2    (CuPy 14.2: 11.99 ms)
//   N1u  uniform_filter 4096^2 float32, size 31    (CuPy: 1.723 ms)
// plus the single passes (gaussian_filter1d along each axis) that make them up, uniform_filter on
// 512^3, minimum_filter / maximum_filter (boxes of 3 and 7 on 4096^2, 3 on 512^3: axis engine; a
// disk of diameter 7 on 4096^2 and a 3-D cross on 256^3: footprint engine).
// `gbps`/`roof_pct` count one read and one write of the array per pass (passes * 2 * N * itemsize
// bytes), i.e. the mean bandwidth of a pass; `ms_per_pass` is ms / passes and `pass_roof_ms` the
// time of one pass at the copy ceiling; `fused_roof_ms` is the time of a single read + write of the
// array at the copy ceiling (the bound a fused multi-axis kernel could reach).
// The timed call includes the host work of the call (weights, output allocation from the pool).

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/stream.hpp"
#include "bench_data.cuh"
#include "harness.hpp"

namespace nd = cusci::ndimage;

namespace {

cusci::ndarray random_f32(const cusci::shape_t& shape, cusci::dtype dt = cusci::dtype::float32) {
  const auto a = cusci::bench::lcg_f32(shape);
  return dt == cusci::dtype::float32 ? a : a.astype(dt);
}

void bench_case(const std::string& id, const std::string& name, const cusci::ndarray& a, int passes,
                const std::function<void()>& fn) {
  const double n = static_cast<double>(a.size());
  const double item = static_cast<double>(cusci::itemsize(a.dtype()));
  const auto r = cusci::bench::time_it(fn, 50, 5);
  const double fused_ms = 2.0 * n * item / (cusci::bench::copy_ceiling_gbps * 1e9) * 1e3;
  char extra[192];
  std::snprintf(extra, sizeof extra, "\"passes\":%d,\"ms_per_pass\":%.5f,\"pass_roof_ms\":%.5f,\"fused_roof_ms\":%.5f",
                passes, r.median_ms / passes, fused_ms, fused_ms);
  cusci::bench::report(id, name, r, passes * 2.0 * n * item, extra);
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
    bench_case("N1u", "uniform_filter 4096^2 f32 size=31", img, 2, [&] { (void)nd::uniform_filter(img, 31); });
    // 3 and 7: the direct window scan; 17 and 31: the van Herk/Gil-Werman pass (cost independent of size).
    for (int size : {3, 7, 17, 31}) {
      const std::string sz = std::to_string(size);
      bench_case("N2min.s" + sz, "minimum_filter 4096^2 f32 size=" + sz, img, 2,
                 [&] { (void)nd::minimum_filter(img, size); });
      bench_case("N2max.s" + sz, "maximum_filter 4096^2 f32 size=" + sz, img, 2,
                 [&] { (void)nd::maximum_filter(img, size); });
    }
    // A disk of diameter 7 (37 of 49 elements): the footprint engine, one pass.
    std::vector<std::uint8_t> disk(49);
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 7; ++j) disk[i * 7 + j] = (i - 3) * (i - 3) + (j - 3) * (j - 3) <= 10;
    const auto disk_fp = cusci::host_array::from(disk, {7, 7});
    bench_case("N2max.disk7", "maximum_filter 4096^2 f32 disk footprint 7x7", img, 1,
               [&] { (void)nd::maximum_filter(img, {}, {.footprint = disk_fp}); });
  }
  {
    const auto vol = random_f32({512, 512, 512});
    bench_case("N1v", "gaussian_filter 512^3 f32 sigma=2", vol, 3, [&] { (void)nd::gaussian_filter(vol, 2.0); });
    for (int ax = 0; ax < 3; ++ax)
      bench_case("N1v.ax" + std::to_string(ax), "gaussian_filter1d axis " + std::to_string(ax) + ", 512^3 f32 sigma=2",
                 vol, 1, [&] { (void)nd::gaussian_filter1d(vol, 2.0, ax); });
    bench_case("N1uv", "uniform_filter 512^3 f32 size=5", vol, 3, [&] { (void)nd::uniform_filter(vol, 5); });
    bench_case("N2minv.s3", "minimum_filter 512^3 f32 size=3", vol, 3, [&] { (void)nd::minimum_filter(vol, 3); });
  }
  {
    // A 3-D cross (7 of 27 elements): the footprint engine on a volume.
    const auto vol = random_f32({256, 256, 256});
    std::vector<std::uint8_t> cross(27, 0);
    for (int k : {4, 10, 12, 13, 14, 16, 22}) cross[static_cast<std::size_t>(k)] = 1;
    const auto cross_fp = cusci::host_array::from(cross, {3, 3, 3});
    bench_case("N2maxv.cross3", "maximum_filter 256^3 f32 3-D cross footprint", vol, 1,
               [&] { (void)nd::maximum_filter(vol, {}, {.footprint = cross_fp}); });
  }
  {
    // Rows whose length is not a multiple of the vector width (scalar stores on most rows), and
    // float64.
    const auto odd = random_f32({4093, 4091});
    bench_case("N1o", "gaussian_filter 4093x4091 f32 sigma=2", odd, 2, [&] { (void)nd::gaussian_filter(odd, 2.0); });
    const auto img64 = random_f32({4096, 4096}, cusci::dtype::float64);
    bench_case("N1d", "gaussian_filter 4096^2 f64 sigma=2", img64, 2, [&] { (void)nd::gaussian_filter(img64, 2.0); });
  }
  return 0;
}
