// Benchmarks of runtime-compiled kernels (cusci::rtc), ids as docs/core-rtc.md:
//   K1  elementwise_kernel z = a * x + y, float32 2^28, a weak scalar    (bytes 3 * 4 * N)
//   K2  reduction_kernel sum of squares, float32 2^28 (float accumulator) (bytes 4 * N)
//   K3  first use of a kernel with a warm disk cache: memory cache cleared, new raw_kernel, compile()
//       (read, verify and load the cached CUBIN): wall ms, median of 20
//   K4  host overhead of launching a cached raw kernel (1 block of 32 threads, 3 arguments): wall ms per
//       call over 20000 calls (divide by 1e-3 for microseconds)
// Inputs are in [0.5, 1.5), generated on the device from an integer hash. One JSON line per case.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "cusci/core.hpp"
#include "cusci/rtc.hpp"
#include "harness.hpp"

namespace {

__global__ void hash_fill(float* x, std::int64_t n, std::uint32_t seed) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    std::uint32_t h = static_cast<std::uint32_t>(i) ^ (seed * 0x9e3779b9u);
    h = (h ^ (h >> 16)) * 0x45d9f3bu;
    h = (h ^ (h >> 16)) * 0x45d9f3bu;
    h ^= h >> 16;
    x[i] = 0.5f + static_cast<float>(h & 0xffffff) * (1.0f / 16777216.0f);
  }
}

cusci::ndarray random_f32(std::int64_t n, std::uint32_t seed) {
  cusci::ndarray a = cusci::empty({n}, cusci::dtype::float32);
  hash_fill<<<2048, 256, 0, cusci::get_current_stream()>>>(a.data_as<float>(), n, seed);
  CUSCI_CHECK_LAUNCH();
  return a;
}

cusci::bench::result wall(int reps, const std::function<void()>& fn) {
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

}  // namespace

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  const auto dir = std::filesystem::temp_directory_path() / ("cusci_bench_rtc_" + std::to_string(::getpid()));
  ::setenv("CUSCI_CACHE_DIR", dir.c_str(), 1);
  const std::int64_t n = std::int64_t{1} << 28;
  const double nb = static_cast<double>(n);
  {
    const ndarray x = random_f32(n, 1), y = random_f32(n, 2);
    rtc::elementwise_kernel axpy("T a, T x, T y", "T z", "z = a * x + y", "axpy");
    (void)axpy({2.5, x, y});  // compile outside the timing
    report("K1", "elementwise_kernel a*x+y f32 2^28", time_it([&] { (void)axpy({2.5, x, y}); }), 3 * 4 * nb);
    ndarray z = empty({n}, dtype::float32);
    report("K1o", "elementwise_kernel a*x+y f32 2^28, given output",
           time_it([&] { (void)axpy.call({2.5, x, y, z}); }), 3 * 4 * nb);
    rtc::reduction_kernel sumsq("T x", "T y", "x * x", "a + b", "y = a", std::string("0"), "sumsq");
    (void)sumsq({x});
    report("K2", "reduction_kernel sum of squares f32 2^28", time_it([&] { (void)sumsq({x}); }), 4 * nb);
  }
  {
    const std::string src =
        "extern \"C\" __global__ void touch(float* p, float v, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) p[i] = v;\n}\n";
    rtc::raw_kernel(src, "touch").compile();  // writes the disk cache
    report("K3", "raw_kernel first use, warm disk cache (wall)", wall(20, [&] {
             rtc::clear_memory_cache();
             rtc::raw_kernel(src, "touch").compile();
           }));
    rtc::raw_kernel k(src, "touch");
    ndarray p = empty({32}, dtype::float32);
    k(dim3(1), dim3(32), {p, 1.0f, std::int32_t(32)});
    synchronize();
    const int calls = 20000;
    auto r = wall(5, [&] {
      for (int c = 0; c < calls; ++c) k(dim3(1), dim3(32), {p, 1.0f, std::int32_t(32)});
      synchronize();
    });
    report("K4", "raw_kernel launch host overhead per call (wall)", {r.median_ms / calls, r.min_ms / calls});
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return 0;
}
