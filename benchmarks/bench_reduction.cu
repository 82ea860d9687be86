// Reduction and scan benchmarks (cusci::core reduction family). Ids and minimal traffic:
//   R1  sum of 2^28 float32                                    (bytes 4 * N)
//   R2  argmax of 2^28 float32                                 (bytes 4 * N)
//   R3  cumsum of 2^28 float32                                 (bytes 2 * 4 * N: read + write)
//   R4  sum over axis 0 of a 16384 x 16384 float32 array       (bytes 4 * N)
//   R5  sum over axis 1 of the same                            (bytes 4 * N)
//   R6  var of 2^28 float32                                    (bytes 4 * N, one pass)
//   R7  nansum of 2^28 float32 with one NaN in 1024            (bytes 4 * N)
//   R8  cumsum along axis 0 of a 16384 x 16384 float32 array   (bytes 2 * 4 * N)
// Inputs are random, non-zero, generated on the device by a hash kernel (values in [0.5, 1.5)).
// One JSON line per case (harness.hpp); CuPy's equivalents are in peers_reduction.py.

#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "cusci/core.hpp"
#include "cusci/reduction.hpp"
#include "harness.hpp"

namespace {

/// x[i] in [0.5, 1.5) from a 32-bit hash of i and the seed; every `nan_every`-th element NaN (0: none).
__global__ void fill_hash(float* x, std::int64_t n, std::uint32_t seed, std::int64_t nan_every) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u ^ seed ^ static_cast<std::uint32_t>(i >> 32);
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    float v = 0.5f + static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
    if (nan_every > 0 && i % nan_every == 7) v = __int_as_float(0x7fc00000);
    x[i] = v;
  }
}

cusci::ndarray random_f32(const cusci::shape_t& shape, std::uint32_t seed, std::int64_t nan_every = 0) {
  cusci::ndarray a = cusci::empty(shape, cusci::dtype::float32);
  fill_hash<<<1024, 256, 0, cusci::get_current_stream()>>>(a.data_as<float>(), a.size(), seed, nan_every);
  CUSCI_CHECK_LAUNCH();
  return a;
}

}  // namespace

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (device_count() == 0) {
    std::printf("{\"error\":\"no CUDA device\"}\n");
    return 77;
  }
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
  return 0;
}
