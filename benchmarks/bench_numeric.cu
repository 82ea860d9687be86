// Numeric family benchmarks (cusci::core, cusci/numeric.hpp). Ids and minimal traffic:
//   NU1  interp of 2^24 float64 points on 2^16 sample points           (bytes 8 * 2 * 2^24)
//   NU2  gradient of a 4096 x 4096 float32 array along both axes       (bytes 4 * N * 3: read, two outputs)
//   NU3  trapezoid of 2^26 float64                                     (bytes 8 * N)
//   NU4  isclose of two 2^26 float32 arrays                            (bytes (4 + 4 + 1) * N)
//   NU5  linalg.norm (2-norm) of 2^26 float32                          (bytes 4 * N)
//   NU6  linalg.norm(ord=2) of a 1024 x 1024 float64 matrix (cuSOLVER gesvd, values only)
// Inputs are random values in [0.5, 1.5) from a device hash kernel; interp's sample points are
// increasing (a cumulative sum of positive steps) and its x values span them.
// One JSON line per case (harness.hpp); CuPy's equivalents are in peers_numeric.py.

#include <cstdint>
#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/numeric.hpp"
#include "cusci/reduction.hpp"
#include "bench_data.cuh"
#include "harness.hpp"

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  {
    const std::int64_t n = std::int64_t{1} << 24, m = std::int64_t{1} << 16;
    // xp: increasing, from about 0.5 to about m; x uniform in [0, m): nearly all inside xp's range
    const ndarray xp = cumsum(bench::random_f32({m}, 11).astype(dtype::float64));
    const ndarray fp = bench::random_f32({m}, 12).astype(dtype::float64);
    const ndarray x =
        multiply(subtract(bench::random_f32({n}, 13).astype(dtype::float64), 0.5), static_cast<double>(m));
    report("NU1", "interp 2^24 f64 on 2^16 points", time_it([&] { (void)interp(x, xp, fp); }),
           8.0 * 2.0 * static_cast<double>(n));
  }
  {
    const ndarray f = bench::random_f32({4096, 4096}, 21);
    const double nb = 4096.0 * 4096.0;
    report("NU2", "gradient 4096^2 f32 both axes", time_it([&] { (void)gradient(f); }), 4.0 * 3.0 * nb);
  }
  {
    const std::int64_t n = std::int64_t{1} << 26;
    const ndarray y = bench::random_f32({n}, 31).astype(dtype::float64);
    report("NU3", "trapezoid 2^26 f64", time_it([&] { (void)trapezoid(y); }), 8.0 * static_cast<double>(n));
  }
  {
    const std::int64_t n = std::int64_t{1} << 26;
    const ndarray a = bench::random_f32({n}, 41);
    const ndarray b = add(a, 1e-6f);
    report("NU4", "isclose 2^26 f32", time_it([&] { (void)isclose(a, b); }), 9.0 * static_cast<double>(n));
    report("NU5", "linalg.norm 2^26 f32", time_it([&] { (void)linalg::norm(a); }), 4.0 * static_cast<double>(n));
  }
  {
    const ndarray m = bench::random_f32({1024, 1024}, 51).astype(dtype::float64);
    report("NU6", "linalg.norm ord=2 1024^2 f64", time_it([&] { (void)linalg::norm(m, {.ord = 2}); }, 10, 2));
  }
  return 0;
}
