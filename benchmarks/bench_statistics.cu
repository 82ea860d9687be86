// Benchmarks of core's statistics family (ids of docs/core-statistics.md; CuPy's same calls in
// peers_statistics.py on inputs of the same size and distribution):
//   ST1 median of 2^26 float32                          (bytes 4 * N: one read)
//   ST2 percentile([5, 50, 95]) of 2^26 float32         (bytes 4 * N)
//   ST3 median axis=-1 of a (4096, 4096) float32        (bytes 4 * N)
//   ST4 cov of a (256, 2^16) float64                    (bytes 8 * N)
//   ST1sort, ST2sort: ST1 and ST2 with the radix-selection path off (the segmented-sort path), no
//   CuPy counterpart: they show which of the two algorithms is faster on this GPU
// Inputs are uniform in [0.5, 1.5) (float32, bench_data.cuh's hash generator) or [0, 1) (float64).
// One JSON line per case.

#include <cstdint>

#include <cuda_runtime.h>

#include "bench_data.cuh"
#include "cusci/core.hpp"
#include "cusci/statistics.hpp"
#include "harness.hpp"

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  const std::int64_t n26 = 1LL << 26;
  {
    ndarray x = bench::random_f32({n26}, 1);
    report("ST1", "median 2^26 f32", time_it([&] { median(x); }, 20, 3), 4.0 * n26);
    report("ST2", "percentile [5, 50, 95] 2^26 f32", time_it([&] { percentile(x, {5.0, 50.0, 95.0}); }, 20, 3),
           4.0 * n26);
    // the same two through the sort path (radix selection off), to compare the two algorithms
    detail::set_statistics_selection(false);
    report("ST1sort", "median 2^26 f32 (sort path)", time_it([&] { median(x); }, 20, 3), 4.0 * n26);
    report("ST2sort", "percentile [5, 50, 95] 2^26 f32 (sort path)",
           time_it([&] { percentile(x, {5.0, 50.0, 95.0}); }, 20, 3), 4.0 * n26);
    detail::set_statistics_selection(true);
  }
  {
    ndarray x = bench::random_f32({4096, 4096}, 2);
    report("ST3", "median axis -1 of (4096, 4096) f32", time_it([&] { median(x, -1); }, 20, 3), 4.0 * 4096 * 4096);
  }
  {
    ndarray x = bench::random_f32({256, 1 << 16}, 3).astype(dtype::float64);
    report("ST4", "cov (256, 2^16) f64", time_it([&] { cov(x); }, 20, 3), 8.0 * 256 * (1 << 16));
  }
  return 0;
}
