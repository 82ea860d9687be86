// Benchmarks of cusci::ndimage's interpolation functions (ids NI*), the cases of the CuPy H200
// baseline (N6, N7) and the spline prefilter and map_coordinates beside them:
//   NI1       zoom x2, order 1, 4096^2 float32 -> 8192^2                 (baseline N6: CuPy 0.381 ms)
//   NI2       zoom x2, order 3, prefilter (mode constant), 4096^2 float32 (baseline N6: CuPy 5.816 ms)
//   NI2.nopf  the same without prefilter: the resampling kernel alone, reading float32
//   NI3       rotate 30 degrees, order 1, 4096^2 float32, reshape (5595^2 output) (baseline N7: CuPy 0.324 ms)
//   NI4       map_coordinates order 3, 2^24 points: a smooth warp of a 4096^2 float32 image
//             (coordinates [2, 4096, 4096] float64 = the pixel grid plus a displacement of up to 3 pixels)
//   NI4.rand  map_coordinates order 3, 2^24 points uniformly random over the 4096^2 image ([2, 2^24] float64)
//   NI5       spline_filter order 3, 4096^2 float32 -> float64 (two passes)
//   NI5.ax0 / NI5.ax1  spline_filter1d order 3 along axis 0 / axis 1 alone
// `bytes` (gbps, roof_pct) is the minimal traffic of the operation: the input read once, the
// coordinates read once, the output written once. `roof_ms` is that traffic at the copy ceiling;
// `chain_roof_ms` the traffic of cusci's composition at the copy ceiling (prefilter passes on float64
// coefficients: pass 0 reads the input and writes 8 B / element, each further pass reads and writes
// 8 B / element, then the resampling reads the float64 coefficients), the bound of this design.
// The timed call includes the host work of the call (parameters, allocations from the pool).
// CuPy's equivalents: peers_ndimage_interpolation.py.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "bench_data.cuh"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

namespace nd = cusci::ndimage;

namespace {

/// c[0][i][j] = i + 3 sin(2 pi j / 512), c[1][i][j] = j + 3 cos(2 pi i / 512): a smooth warp.
__global__ void fill_warp(double* c, std::int64_t n) {
  const std::int64_t total = n * n;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < total;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = k / n, j = k - i * n;
    c[k] = static_cast<double>(i) + 3.0 * sin(6.283185307179586 * static_cast<double>(j) / 512.0);
    c[total + k] = static_cast<double>(j) + 3.0 * cos(6.283185307179586 * static_cast<double>(i) / 512.0);
  }
}

/// c[k] uniform in [0, hi) from a hash of k.
__global__ void fill_random_coords(double* c, std::int64_t total, double hi) {
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < total;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    c[k] = static_cast<double>(cusci::bench::hash32(k, 777u)) * (hi / 4294967296.0);
}

double bytes_of(double elements, double item) { return elements * item; }

void bench_case(const std::string& id, const std::string& name, double bytes, double chain_bytes,
                const std::function<void()>& fn) {
  const auto r = cusci::bench::time_it(fn, 30, 3);
  const double ceiling = cusci::bench::copy_ceiling_gbps * 1e9;
  char extra[160];
  std::snprintf(extra, sizeof extra, "\"roof_ms\":%.5f,\"chain_roof_ms\":%.5f", bytes / ceiling * 1e3,
                chain_bytes / ceiling * 1e3);
  cusci::bench::report(id, name, r, bytes, extra);
}

}  // namespace

int main() {
  if (cusci::bench::no_device()) return 77;
  const std::int64_t n = 4096;
  const double N = static_cast<double>(n * n);
  const auto img = cusci::bench::random_f32({n, n}, 11u);
  // Prefilter traffic of a 2-D float32 input: pass 0 reads 4 B and writes 8 B, pass 1 reads and writes 8 B.
  const double prefilter_bytes = bytes_of(N, 4) + bytes_of(N, 8) + 2 * bytes_of(N, 8);
  {
    const double out = 4.0 * N;  // 8192^2 points
    bench_case("NI1", "zoom x2 order 1, 4096^2 f32", bytes_of(N, 4) + bytes_of(out, 4), bytes_of(N, 4) + bytes_of(out, 4),
               [&] { (void)nd::zoom(img, 2.0, {.order = 1}); });
    bench_case("NI2", "zoom x2 order 3 prefilter, 4096^2 f32", bytes_of(N, 4) + bytes_of(out, 4),
               prefilter_bytes + bytes_of(N, 8) + bytes_of(out, 4), [&] { (void)nd::zoom(img, 2.0, {.order = 3}); });
    bench_case("NI2.nopf", "zoom x2 order 3 no prefilter, 4096^2 f32", bytes_of(N, 4) + bytes_of(out, 4),
               bytes_of(N, 4) + bytes_of(out, 4), [&] { (void)nd::zoom(img, 2.0, {.order = 3, .prefilter = false}); });
  }
  {
    const double out = static_cast<double>(nd::rotate(img, 30.0, {.order = 1}).size());
    bench_case("NI3", "rotate 30 deg order 1, 4096^2 f32 (reshape)", bytes_of(N, 4) + bytes_of(out, 4),
               bytes_of(N, 4) + bytes_of(out, 4), [&] { (void)nd::rotate(img, 30.0, {.order = 1}); });
  }
  {
    const auto warp = cusci::empty({2, n, n}, cusci::dtype::float64);
    fill_warp<<<2048, 256, 0, cusci::get_current_stream()>>>(warp.data_as<double>(), n);
    CUSCI_CHECK_LAUNCH();
    const double bytes = bytes_of(N, 4) + bytes_of(2 * N, 8) + bytes_of(N, 4);
    bench_case("NI4", "map_coordinates order 3, 2^24 points (warp of 4096^2 f32)", bytes,
               prefilter_bytes + bytes_of(N, 8) + bytes_of(2 * N, 8) + bytes_of(N, 4),
               [&] { (void)nd::map_coordinates(img, warp); });
    const auto rnd = cusci::empty({2, n * n}, cusci::dtype::float64);
    fill_random_coords<<<2048, 256, 0, cusci::get_current_stream()>>>(rnd.data_as<double>(), 2 * n * n,
                                                                        static_cast<double>(n - 1));
    CUSCI_CHECK_LAUNCH();
    bench_case("NI4.rand", "map_coordinates order 3, 2^24 random points in 4096^2 f32", bytes,
               prefilter_bytes + bytes_of(N, 8) + bytes_of(2 * N, 8) + bytes_of(N, 4),
               [&] { (void)nd::map_coordinates(img, rnd); });
  }
  {
    bench_case("NI5", "spline_filter order 3, 4096^2 f32 -> f64", bytes_of(N, 4) + bytes_of(N, 8), prefilter_bytes,
               [&] { (void)nd::spline_filter(img, 3); });
    bench_case("NI5.ax0", "spline_filter1d order 3 axis 0, 4096^2 f32 -> f64", bytes_of(N, 4) + bytes_of(N, 8),
               bytes_of(N, 4) + bytes_of(N, 8), [&] { (void)nd::spline_filter1d(img, 3, 0); });
    bench_case("NI5.ax1", "spline_filter1d order 3 axis 1, 4096^2 f32 -> f64", bytes_of(N, 4) + bytes_of(N, 8),
               bytes_of(N, 4) + bytes_of(N, 8), [&] { (void)nd::spline_filter1d(img, 3, 1); });
  }
  return 0;
}
