// Benchmarks of cusci::ndimage's derivative filters on a 4096 x 4096 float32 image (ids ND*):
//   ND1      sobel, axis -1 (derivative along rows, smoothing down columns)
//   ND1.ax0  sobel, axis 0
//   ND2      gaussian_gradient_magnitude, sigma 2
//   ND3      laplace
//   ND4      gaussian_laplace, sigma 2
//   ND5      generic_gradient_magnitude with sobel as the derivative (the usual edge magnitude)
//   ND6      prewitt, axis -1
// `bytes` is the traffic of cusci's composition: each correlation pass reads and writes the image
// once (2 * N * 4 bytes), each fused sum / magnitude step reads two images and writes one
// (3 * N * 4 bytes), a square alone reads and writes one (2 * N * 4). `roof_ms` is that traffic at
// the copy ceiling; `fused_roof_ms` a single read + write of the image (the bound of a filter fused
// into one kernel).
// The timed call includes the host work of the call (weights, allocations from the pool).

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/derivatives.hpp"
#include "bench_data.cuh"
#include "harness.hpp"

namespace nd = cusci::ndimage;

namespace {

/// `images`: the number of image reads + writes of cusci's composition.
void bench_case(const std::string& id, const std::string& name, const cusci::ndarray& a, double images,
                const std::function<void()>& fn) {
  const double n = static_cast<double>(a.size());
  const double item = static_cast<double>(cusci::itemsize(a.dtype()));
  const auto r = cusci::bench::time_it(fn, 50, 5);
  const double ceiling = cusci::bench::copy_ceiling_gbps * 1e9;
  const double roof_ms = images * n * item / ceiling * 1e3;
  const double fused_ms = 2.0 * n * item / ceiling * 1e3;
  char extra[160];
  std::snprintf(extra, sizeof extra, "\"images\":%.0f,\"roof_ms\":%.5f,\"fused_roof_ms\":%.5f", images, roof_ms,
                fused_ms);
  cusci::bench::report(id, name, r, images * n * item, extra);
}

}  // namespace

int main() {
  if (cusci::bench::no_device()) return 77;
  const auto img = cusci::bench::lcg_f32({4096, 4096});
  // sobel / prewitt: 2 passes.
  bench_case("ND1", "sobel axis -1, 4096^2 f32", img, 4, [&] { (void)nd::sobel(img); });
  bench_case("ND1.ax0", "sobel axis 0, 4096^2 f32", img, 4, [&] { (void)nd::sobel(img, 0); });
  bench_case("ND6", "prewitt axis -1, 4096^2 f32", img, 4, [&] { (void)nd::prewitt(img); });
  // gaussian_gradient_magnitude: 2 derivatives of 2 passes, then one fused o*o + t*t -> sqrt step.
  bench_case("ND2", "gaussian_gradient_magnitude 4096^2 f32 sigma=2", img, 4 * 2 + 3,
             [&] { (void)nd::gaussian_gradient_magnitude(img, 2.0); });
  // laplace: 2 single passes and one add.
  bench_case("ND3", "laplace 4096^2 f32", img, 2 * 2 + 3, [&] { (void)nd::laplace(img); });
  // gaussian_laplace: 2 derivatives of 2 passes and one add.
  bench_case("ND4", "gaussian_laplace 4096^2 f32 sigma=2", img, 4 * 2 + 3,
             [&] { (void)nd::gaussian_laplace(img, 2.0); });
  // generic_gradient_magnitude(sobel): 2 sobels of 2 passes, a square, one fused add + sqrt step.
  const nd::derivative_function sobel_d = [](const cusci::ndarray& in, int ax, const nd::output_arg& out,
                                             nd::mode m, double cval) {
    return nd::sobel(in, ax, {.output = out, .mode = m, .cval = cval});
  };
  bench_case("ND5", "generic_gradient_magnitude(sobel) 4096^2 f32", img, 4 * 2 + 2 + 3,
             [&] { (void)nd::generic_gradient_magnitude(img, sobel_d); });
  return 0;
}
