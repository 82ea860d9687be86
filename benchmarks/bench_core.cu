// Benchmarks of core's elementwise and reduction engine and the memory pool, with the ids of
// docs/benchmarks.md (CuPy 14.2.0 on an H200):
//   C1   add of two 2^28 float32 arrays into a new array      (bytes 3 * 4 * N)
//   C1s  x * 2 (weak Python int scalar), 2^28 float32         (bytes 2 * 4 * N)
//   C1e  exp, 2^28 float32                                    (bytes 2 * 4 * N)
//   C1c  x < y, 2^28 float32 -> bool                          (bytes 2 * 4 * N + N)
//   C2   sum of 2^28 float32                                  (bytes 4 * N)
//   C2m  max of 2^28 float32                                  (bytes 4 * N)
//   C2x0 sum over axis 0 of a 16384 x 16384 float32 array     (bytes 4 * N)
//   C2x1 sum over axis 1 of the same                          (bytes 4 * N)
//   C4   x + 1 on a 1-element array: host wall time per call over 10000 calls, in ms
//   C4a  6 pool allocations of mixed sizes then their release: wall time per round, in ms
// Inputs are random, non-zero, generated on the device by a hash kernel. One JSON line per case.

#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "cusci/core.hpp"
#include "bench_data.cuh"
#include "harness.hpp"

namespace {

using cusci::bench::random_f32;
using cusci::bench::wall_ms_per_call;

}  // namespace

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  const std::int64_t n = std::int64_t{1} << 28;
  const double nb = static_cast<double>(n);
  {
    const ndarray a = random_f32({n}, 1), b = random_f32({n}, 2);
    report("C1", "add f32 2^28, new output", time_it([&] { (void)add(a, b); }), 3 * 4 * nb);
    report("C1s", "multiply f32 2^28 by weak int 2", time_it([&] { (void)(a * scalar(2)); }), 2 * 4 * nb);
    report("C1e", "exp f32 2^28", time_it([&] { (void)cusci::exp(a); }), 2 * 4 * nb);
    report("C1c", "less f32 2^28 -> bool", time_it([&] { (void)less(a, b); }), 2 * 4 * nb + nb);
    report("C2", "sum f32 2^28", time_it([&] { (void)cusci::sum(a); }), 4 * nb);
    report("C2m", "max f32 2^28", time_it([&] { (void)cusci::max(a); }), 4 * nb);
  }
  {
    const ndarray m = random_f32({16384, 16384}, 3);
    const double bytes = 4.0 * 16384.0 * 16384.0;
    report("C2x0", "sum axis 0 of 16384^2 f32", time_it([&] { (void)cusci::sum(m, 0); }), bytes);
    report("C2x1", "sum axis 1 of 16384^2 f32", time_it([&] { (void)cusci::sum(m, 1); }), bytes);
  }
  {
    const ndarray x = random_f32({1}, 4);
    const double ms = wall_ms_per_call(10000, [&] { (void)(x + scalar(1)); });
    report("C4", "x + 1 on one element, host wall time per call", bench::result{ms, ms}, 0, "\"calls\":10000");
  }
  {
    const std::size_t sizes[6] = {256, 4096, 1 << 16, 1 << 20, 3 << 20, 16 << 20};
    const double ms = wall_ms_per_call(10000, [&] {
      std::vector<memory_ptr> blocks;
      blocks.reserve(6);
      for (std::size_t s : sizes) blocks.push_back(cusci::malloc(s));
    });
    report("C4a", "6 pool alloc/free of mixed sizes, wall time per round", bench::result{ms, ms}, 0,
           "\"rounds\":10000");
  }
  return 0;
}
