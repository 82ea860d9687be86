// Benchmarks of core's random sampling (Philox4x32-10 kernels), against CuPy's default_rng:
//   Q1  standard_normal 2^28 float32   (bytes 4 * N written)
//   Q2  random 2^28 float32            (bytes 4 * N)
//   Q3  integers(0, 1000) 2^27 int64   (bytes 8 * N)
// One JSON line per case.

#include <cstdint>
#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/random.hpp"
#include "harness.hpp"

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  auto g = random::default_rng(0);
  const std::int64_t n28 = std::int64_t{1} << 28, n27 = std::int64_t{1} << 27;
  report("Q1", "standard_normal 2^28 f32", time_it([&] { (void)g.standard_normal({n28}, dtype::float32); }), 4.0 * n28);
  report("Q2", "random 2^28 f32", time_it([&] { (void)g.random({n28}, dtype::float32); }), 4.0 * n28);
  report("Q3", "integers(0,1000) 2^27 int64", time_it([&] { (void)g.integers(0, 1000, {n27}); }), 8.0 * n27);
  return 0;
}
