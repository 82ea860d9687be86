// Benchmarks of cusci::ndimage's Fourier filters (ids NF*), each on a 4096 x 4096 complex64 array (the
// spectrum layout of a complex FFT, n = -1), plus the real-FFT layout (4096 x 2049, n = 4096 along the
// last axis) and a complex128 case:
//   NF1 fourier_gaussian sigma 4    NF2 fourier_uniform size 20    NF3 fourier_ellipsoid size 20
//   NF4 fourier_shift shift 200     NF*r: the same on the 4096 x 2049 rfft layout
//   NF4d fourier_shift on complex128 4096^2
// `gbps`/`roof_pct` count one read and one write of the array (2 * N * itemsize bytes): the kernels'
// minimal traffic (the per-axis tables add 64 KiB). The timed call includes the host work (table
// parameters, output allocation from the pool, two launches). CuPy's equivalents: peers_ndimage_fourier.py.

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/fourier.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

namespace nd = cusci::ndimage;

namespace {

cusci::ndarray random_c64(const cusci::shape_t& shape) {
  // Deterministic pseudo-random values, generated on the host once (the timings do not depend on them).
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<float> h(static_cast<std::size_t>(2 * n));
  std::uint32_t x = 12345u;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<float>(x >> 8) / 16777216.0f - 0.5f;
  }
  cusci::shape_t s2 = shape;
  s2.push_back(2);
  const auto pairs = cusci::asarray(h, s2);
  // float32 pairs reinterpreted as complex64 (same bytes).
  return cusci::ndarray(pairs.memory(), cusci::dtype::complex64, shape,
                        cusci::ndarray(shape, cusci::dtype::complex64).strides(), pairs.offset(), pairs.device());
}

void bench_case(const std::string& id, const std::string& name, const cusci::ndarray& a,
                const std::function<void()>& fn) {
  const double bytes = 2.0 * static_cast<double>(a.size()) * static_cast<double>(cusci::itemsize(a.dtype()));
  const auto r = cusci::bench::time_it(fn, 50, 5);
  char extra[96];
  std::snprintf(extra, sizeof extra, "\"roof_ms\":%.5f", bytes / (cusci::bench::copy_ceiling_gbps * 1e9) * 1e3);
  cusci::bench::report(id, name, r, bytes, extra);
}

}  // namespace

int main() {
  if (cusci::bench::no_device()) return 77;
  {
    const auto a = random_c64({4096, 4096});
    bench_case("NF1", "fourier_gaussian 4096^2 c64 sigma=4", a, [&] { (void)nd::fourier_gaussian(a, 4.0); });
    bench_case("NF2", "fourier_uniform 4096^2 c64 size=20", a, [&] { (void)nd::fourier_uniform(a, 20.0); });
    bench_case("NF3", "fourier_ellipsoid 4096^2 c64 size=20", a, [&] { (void)nd::fourier_ellipsoid(a, 20.0); });
    bench_case("NF4", "fourier_shift 4096^2 c64 shift=200", a, [&] { (void)nd::fourier_shift(a, 200.0); });
    const auto d = a.astype(cusci::dtype::complex128);
    bench_case("NF4d", "fourier_shift 4096^2 c128 shift=200", d, [&] { (void)nd::fourier_shift(d, 200.0); });
  }
  {
    const auto r = random_c64({4096, 2049});
    const nd::fourier_options o{.n = 4096, .axis = -1};
    bench_case("NF1r", "fourier_gaussian 4096x2049 c64 rfft n=4096 sigma=4", r,
               [&] { (void)nd::fourier_gaussian(r, 4.0, o); });
    bench_case("NF2r", "fourier_uniform 4096x2049 c64 rfft n=4096 size=20", r,
               [&] { (void)nd::fourier_uniform(r, 20.0, o); });
    bench_case("NF3r", "fourier_ellipsoid 4096x2049 c64 rfft n=4096 size=20", r,
               [&] { (void)nd::fourier_ellipsoid(r, 20.0, o); });
    bench_case("NF4r", "fourier_shift 4096x2049 c64 rfft n=4096 shift=200", r,
               [&] { (void)nd::fourier_shift(r, 200.0, o); });
  }
  cusci::synchronize();
  return 0;
}
