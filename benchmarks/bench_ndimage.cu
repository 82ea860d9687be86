// ndimage benchmarks (ids as in the CuPy H200 baseline):
//   N1   gaussian_filter 4096^2 float32, sigma 2   (CuPy 14.2: 1.123 ms)
//   N1v  gaussian_filter 512^3 float32, sigma 2    (CuPy 14.2: 11.99 ms)
// plus the single passes (gaussian_filter1d along each axis) that make them up.
// `gbps`/`roof_pct` count one read and one write of the array per pass (passes * 2 * N * itemsize
// bytes), i.e. the mean bandwidth of a pass; `ms_per_pass` is ms / passes and `pass_roof_ms` the
// time of one pass at the copy ceiling; `fused_roof_ms` is the time of a single read + write of the
// array at the copy ceiling (the bound a fused multi-axis kernel could reach).
// The timed call includes the host work of the call (weights, output allocation from the pool).

#include <cstdio>
#include <string>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

namespace nd = cusci::ndimage;

namespace cusci::ndimage::detail {
void set_fast_cols_variant(int v);  // internal switches (ndimage/src/correlate_pass.hpp)
void set_fast_rows_variant(int v);
}

namespace {

cusci::ndarray random_f32(const cusci::shape_t& shape, cusci::dtype dt = cusci::dtype::float32) {
  // Deterministic pseudo-random values, generated on the host once.
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<float> h(static_cast<std::size_t>(n));
  std::uint32_t x = 12345u;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<float>(x >> 8) / 16777216.0f;
  }
  const auto a = cusci::asarray(h, shape);
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
    nd::detail::set_fast_cols_variant(1);
    bench_case("N1.ax0-scalar", "gaussian_filter1d axis 0, 4096^2 f32 sigma=2, scalar column kernel", img, 1,
               [&] { (void)nd::gaussian_filter1d(img, 2.0, 0); });
    nd::detail::set_fast_cols_variant(0);
    bench_case("N1.ax1", "gaussian_filter1d axis 1, 4096^2 f32 sigma=2", img, 1,
               [&] { (void)nd::gaussian_filter1d(img, 2.0, 1); });
    nd::detail::set_fast_rows_variant(2);
    bench_case("N1.ax1-hoisted", "gaussian_filter1d axis 1, 4096^2 f32 sigma=2, hoisted-halo row kernel", img, 1,
               [&] { (void)nd::gaussian_filter1d(img, 2.0, 1); });
    nd::detail::set_fast_rows_variant(0);
  }
  {
    const auto vol = random_f32({512, 512, 512});
    bench_case("N1v", "gaussian_filter 512^3 f32 sigma=2", vol, 3, [&] { (void)nd::gaussian_filter(vol, 2.0); });
    for (int ax = 0; ax < 3; ++ax)
      bench_case("N1v.ax" + std::to_string(ax), "gaussian_filter1d axis " + std::to_string(ax) + ", 512^3 f32 sigma=2",
                 vol, 1, [&] { (void)nd::gaussian_filter1d(vol, 2.0, ax); });
    nd::detail::set_fast_cols_variant(1);
    bench_case("N1v.ax0-scalar", "gaussian_filter1d axis 0, 512^3 f32 sigma=2, scalar column kernel", vol, 1,
               [&] { (void)nd::gaussian_filter1d(vol, 2.0, 0); });
    nd::detail::set_fast_cols_variant(0);
    nd::detail::set_fast_rows_variant(2);
    bench_case("N1v.ax2-hoisted", "gaussian_filter1d axis 2, 512^3 f32 sigma=2, hoisted-halo row kernel", vol, 1,
               [&] { (void)nd::gaussian_filter1d(vol, 2.0, 2); });
    nd::detail::set_fast_rows_variant(0);
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
