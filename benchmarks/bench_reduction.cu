// Reduction and scan benchmarks (cusci::core reduction family). Ids and minimal traffic:
//   R1  sum of 2^28 float32                                    (bytes 4 * N)
//   R2  argmax of 2^28 float32                                 (bytes 4 * N)
//   R3  cumsum of 2^28 float32                                 (bytes 2 * 4 * N: read + write)
//   R4  sum over axis 0 of a 16384 x 16384 float32 array       (bytes 4 * N)
//   R5  sum over axis 1 of the same                            (bytes 4 * N)
//   R6  var of 2^28 float32                                    (bytes 4 * N, one pass)
//   R7  nansum of 2^28 float32 with one NaN in 1024            (bytes 4 * N)
//   R8  cumsum along axis 0 of a 16384 x 16384 float32 array   (bytes 2 * 4 * N)
//   R3d cumsum of 2^27 float64 (CUB over the typed pointer)              (bytes 2 * 8 * N)
//   R8d cumsum along axis 0 of an 8192 x 16384 float64 array (2 columns per 16-byte vector)
// Inputs are random, non-zero, generated on the device by a hash kernel (values in [0.5, 1.5)).
// One JSON line per case (harness.hpp); CuPy's equivalents are in peers_reduction.py.

#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "cusci/core.hpp"
#include "cusci/reduction.hpp"
#include "bench_data.cuh"
#include "harness.hpp"

namespace {

/// x[i] in [0.5, 1.5); every `nan_every`-th element NaN (0: none).
cusci::ndarray random_f32(const cusci::shape_t& shape, std::uint32_t seed, std::int64_t nan_every = 0) {
  return cusci::bench::random_f32(shape, seed, 0.5f, nan_every);
}

}  // namespace

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  const std::int64_t n = std::int64_t{1} << 28;
  const double nb = static_cast<double>(n);
  {
    const ndarray a = random_f32({n}, 1);
    report("R1", "sum f32 2^28", time_it([&] { (void)cusci::sum(a); }), 4 * nb);
    report("R2", "argmax f32 2^28", time_it([&] { (void)cusci::argmax(a); }), 4 * nb);
    report("R3", "cumsum f32 2^28", time_it([&] { (void)cusci::cumsum(a); }), 2 * 4 * nb);
    report("R6", "var f32 2^28", time_it([&] { (void)cusci::var(a); }), 4 * nb);
  }
  {
    const ndarray a = random_f32({n}, 5, 1024);
    report("R7", "nansum f32 2^28, one NaN in 1024", time_it([&] { (void)cusci::nansum(a); }), 4 * nb);
  }
  {
    const ndarray m = random_f32({16384, 16384}, 3);
    const double bytes = 4.0 * 16384.0 * 16384.0;
    report("R4", "sum axis 0 of 16384^2 f32", time_it([&] { (void)cusci::sum(m, 0); }), bytes);
    report("R5", "sum axis 1 of 16384^2 f32", time_it([&] { (void)cusci::sum(m, 1); }), bytes);
    report("R8", "cumsum axis 0 of 16384^2 f32", time_it([&] { (void)cusci::cumsum(m, 0); }), 2 * bytes);
  }
  {
    const ndarray a = random_f32({n / 2}, 7).astype(dtype::float64);
    report("R3d", "cumsum f64 2^27", time_it([&] { (void)cusci::cumsum(a); }), 2 * 8 * (nb / 2));
    const ndarray m = random_f32({8192, 16384}, 9).astype(dtype::float64);
    report("R8d", "cumsum axis 0 of 8192x16384 f64", time_it([&] { (void)cusci::cumsum(m, 0); }),
           2 * 8.0 * 8192.0 * 16384.0);
  }
  return 0;
}
