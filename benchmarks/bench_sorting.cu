// Benchmarks of core's sorting family (ids of docs/core-sorting.md; CuPy's same calls in
// peers_sorting.py on inputs of the same size and distribution):
//   T1  sort f32 2^28                                  (bytes 2 * 4 * N: one read, one write)
//   T2  argsort f32 2^28                               (bytes 4 * N + 8 * N)
//   T3  sort int64 2^27                                (bytes 2 * 8 * N)
//   T4  unique int32 2^26 drawn from [0, 2^20)         (bytes 4 * N)
//   T5  sort along the last axis of (2^14, 2^14) f32   (bytes 2 * 4 * N)
//   T6  searchsorted 2^24 f32 queries into 2^24 sorted (bytes 4 * N + 8 * N)
//   T7  nonzero of 2^28 bool, 50% true                 (bytes N + 8 * N / 2)
//   T8  bincount of 2^28 int64 in [0, 1024)            (bytes 8 * N)
//   T9  histogram of 2^26 f32 into 1000 bins           (bytes 4 * N)
//   T10 sort f64 2^27                                  (bytes 2 * 8 * N)
//   T11 bincount of 2^28 int64 in [0, 65536)           (bytes 8 * N; two passes: values past the
//       first pass's 4096 shared bins)
// Inputs are pseudo-random, generated on the device by a hash kernel. One JSON line per case.

#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "cusci/core.hpp"
#include "bench_data.cuh"
#include "cusci/sorting.hpp"
#include "harness.hpp"

namespace {

using cusci::bench::hash32;

/// kind 0: float32 uniform [0, 1); 1: int64 full range; 2: int32 in [0, 2^20); 3: bool 50%;
/// 4: int64 in [0, 1024); 5: float64 uniform [0, 1); 6: int64 in [0, 65536)
__global__ void fill(void* p, std::int64_t n, std::uint32_t seed, int kind) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const std::uint32_t h = hash32(i, seed);
    switch (kind) {
      case 0: static_cast<float*>(p)[i] = static_cast<float>(h >> 8) * (1.0f / 16777216.0f); break;
      case 1: static_cast<std::int64_t*>(p)[i] =
                  static_cast<std::int64_t>((static_cast<std::uint64_t>(h) << 32) | hash32(i, seed ^ 0x9e3779b9u)); break;
      case 2: static_cast<std::int32_t*>(p)[i] = static_cast<std::int32_t>(h & ((1u << 20) - 1)); break;
      case 3: static_cast<bool*>(p)[i] = (h & 1u) != 0; break;
      case 4: static_cast<std::int64_t*>(p)[i] = static_cast<std::int64_t>(h & 1023u); break;
      case 5: static_cast<double*>(p)[i] = static_cast<double>(h) * (1.0 / 4294967296.0); break;
      case 6: static_cast<std::int64_t*>(p)[i] = static_cast<std::int64_t>(h & 65535u); break;
    }
  }
}

cusci::ndarray random_input(const cusci::shape_t& shape, cusci::dtype dt, int kind, std::uint32_t seed) {
  cusci::ndarray a = cusci::empty(shape, dt);
  fill<<<2048, 256, 0, cusci::get_current_stream()>>>(a.data(), a.size(), seed, kind);
  CUSCI_CHECK_LAUNCH();
  return a;
}

}  // namespace

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  const std::int64_t n28 = 1LL << 28, n27 = 1LL << 27, n26 = 1LL << 26, n24 = 1LL << 24;
  {
    ndarray x = random_input({n28}, dtype::float32, 0, 1);
    report("T1", "sort f32 2^28", time_it([&] { sort(x); }, 20, 3), 2.0 * 4 * n28);
    report("T2", "argsort f32 2^28", time_it([&] { argsort(x); }, 20, 3), 12.0 * n28);
  }
  {
    ndarray x = random_input({n27}, dtype::int64, 1, 2);
    report("T3", "sort int64 2^27", time_it([&] { sort(x); }, 20, 3), 2.0 * 8 * n27);
  }
  {
    ndarray x = random_input({n26}, dtype::int32, 2, 3);
    report("T4", "unique int32 2^26 in [0, 2^20)", time_it([&] { unique(x); }, 20, 3), 4.0 * n26);
  }
  {
    ndarray x = random_input({1 << 14, 1 << 14}, dtype::float32, 0, 4);
    report("T5", "sort axis -1 of (2^14, 2^14) f32", time_it([&] { sort(x, -1); }, 20, 3), 2.0 * 4 * n28);
  }
  {
    ndarray a = sort(random_input({n24}, dtype::float32, 0, 5));
    ndarray v = random_input({n24}, dtype::float32, 0, 6);
    report("T6", "searchsorted 2^24 into 2^24 f32", time_it([&] { searchsorted(a, v); }), 12.0 * n24);
  }
  {
    ndarray x = random_input({n28}, dtype::bool_, 3, 7);
    report("T7", "nonzero 2^28 bool 50%", time_it([&] { nonzero(x); }, 20, 3), 1.0 * n28 + 4.0 * n28);
  }
  {
    ndarray x = random_input({n28}, dtype::int64, 4, 8);
    report("T8", "bincount 2^28 int64 in [0, 1024)", time_it([&] { bincount(x); }, 20, 3), 8.0 * n28);
  }
  {
    ndarray x = random_input({n26}, dtype::float32, 0, 9);
    report("T9", "histogram 2^26 f32 1000 bins", time_it([&] { histogram(x, 1000); }), 4.0 * n26);
  }
  {
    ndarray x = random_input({n27}, dtype::float64, 5, 10);
    report("T10", "sort f64 2^27", time_it([&] { sort(x); }, 20, 3), 2.0 * 8 * n27);
  }
  {
    ndarray x = random_input({n28}, dtype::int64, 6, 11);
    report("T11", "bincount 2^28 int64 in [0, 65536)", time_it([&] { bincount(x); }, 20, 3), 8.0 * n28);
  }
  return 0;
}
