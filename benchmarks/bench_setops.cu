// Benchmarks of core's setops family (setops.hpp, index_tricks.hpp; ids of docs/core-setops.md; CuPy's
// same calls in peers_setops.py on inputs of the same size and distribution):
//   SO1  isin of 2^24 int64 in [0, 2^21) into 2^20 int64 in [0, 2^21)   (bytes 8 * (N + M) + N)
//   SO2  intersect1d of two 2^24 int64 in [0, 2^25)                       (bytes 2 * 8 * N)
//   SO3  lexsort of 3 int64 keys of 2^24, each in [0, 1024)                (bytes 3 * 8 * N + 8 * N)
//   SO4  digitize of 2^26 float32 uniform [0, 1) into 1024 increasing bins (bytes 4 * N + 8 * N)
//   SO5  unravel_index of 2^24 int64 in [0, 2^27) into (512, 512, 512)     (bytes 8 * N + 3 * 8 * N)
// Inputs are pseudo-random, generated on the device by a hash kernel. One JSON line per case.

#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "bench_data.cuh"
#include "cusci/index_tricks.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/setops.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"

namespace {

using cusci::bench::hash32;

/// kind 0: float32 uniform [0, 1); 1: int64 in [0, 2^bits)
__global__ void fill(void* p, std::int64_t n, std::uint32_t seed, int kind, int bits) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const std::uint32_t h = hash32(i, seed);
    if (kind == 0) {
      static_cast<float*>(p)[i] = static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
    } else {
      const std::uint64_t w = (static_cast<std::uint64_t>(hash32(i, seed ^ 0x9e3779b9u)) << 32) | h;
      static_cast<std::int64_t*>(p)[i] = static_cast<std::int64_t>(w & ((std::uint64_t{1} << bits) - 1));
    }
  }
}

cusci::ndarray random_input(std::int64_t n, cusci::dtype dt, int kind, int bits, std::uint32_t seed) {
  cusci::ndarray a = cusci::empty({n}, dt);
  fill<<<2048, 256, 0, cusci::get_current_stream()>>>(a.data(), a.size(), seed, kind, bits);
  CUSCI_CHECK_LAUNCH();
  return a;
}

}  // namespace

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  const std::int64_t n24 = 1LL << 24, n20 = 1LL << 20, n26 = 1LL << 26;
  {
    ndarray e = random_input(n24, dtype::int64, 1, 21, 1);
    ndarray t = random_input(n20, dtype::int64, 1, 21, 2);
    report("SO1", "isin 2^24 int64 in 2^20", time_it([&] { isin(e, t); }), 8.0 * (n24 + n20) + n24);
  }
  {
    ndarray a = random_input(n24, dtype::int64, 1, 25, 3);
    ndarray b = random_input(n24, dtype::int64, 1, 25, 4);
    report("SO2", "intersect1d two 2^24 int64", time_it([&] { intersect1d(a, b); }, 20, 3), 2.0 * 8 * n24);
  }
  {
    ndarray k0 = random_input(n24, dtype::int64, 1, 10, 5);
    ndarray k1 = random_input(n24, dtype::int64, 1, 10, 6);
    ndarray k2 = random_input(n24, dtype::int64, 1, 10, 7);
    report("SO3", "lexsort 3 int64 keys of 2^24", time_it([&] { lexsort({k0, k1, k2}); }, 20, 3),
           3.0 * 8 * n24 + 8.0 * n24);
  }
  {
    ndarray x = random_input(n26, dtype::float32, 0, 0, 8);
    ndarray bins = linspace(0.0, 1.0, 1024, true, dtype::float32);
    report("SO4", "digitize 2^26 f32 into 1024 bins", time_it([&] { digitize(x, bins); }), 12.0 * n26);
  }
  {
    ndarray idx = random_input(n24, dtype::int64, 1, 27, 9);
    report("SO5", "unravel_index 2^24 into (512,512,512)",
           time_it([&] { unravel_index(idx, {512, 512, 512}); }), 8.0 * n24 + 24.0 * n24);
  }
  return 0;
}
