// Benchmarks of core's products (cuBLAS GemmEx family, float32 compute without TF32):
//   P1  matmul 8192 x 8192 float32                      (flops 2 n^3)
//   P2  matmul 8192 x 8192 float64
//   P3  batched matmul (4096, 64, 64) @ (4096, 64, 64) float32 (strided-batched GEMM)
//   P4  dot of two 2^26 float32 vectors                  (bytes 2 * 4 * N)
//   P5  einsum 'bij,bjk->bik' (512, 256, 256) float32
//   P6  matmul 4096 x 4096 complex64
// Inputs are random values in [0.5, 1.5) from a hash kernel. One JSON line per case.

#include <cstdint>
#include <cstdio>
#include <string>

#include <cuda_runtime.h>

#include "cusci/core.hpp"
#include "cusci/products.hpp"
#include "bench_data.cuh"
#include "harness.hpp"

namespace {

using cusci::bench::random_f32;

std::string tflops(double flops, const cusci::bench::result& r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "\"tflops\":%.2f", flops / (r.median_ms * 1e-3) / 1e12);
  return buf;
}

}  // namespace

int main() {
  using namespace cusci;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  {
    const std::int64_t n = 8192;
    const ndarray a = random_f32({n, n}, 1), b = random_f32({n, n}, 2);
    const double fl = 2.0 * n * n * n;
    auto r = time_it([&] { (void)matmul(a, b); }, 10, 2);
    report("P1", "matmul 8192^2 f32", r, 0, tflops(fl, r));
    const ndarray a64 = a.astype(dtype::float64), b64 = b.astype(dtype::float64);
    r = time_it([&] { (void)matmul(a64, b64); }, 10, 2);
    report("P2", "matmul 8192^2 f64", r, 0, tflops(fl, r));
  }
  {
    const ndarray a = random_f32({4096, 64, 64}, 3), b = random_f32({4096, 64, 64}, 4);
    const auto r = time_it([&] { (void)matmul(a, b); });
    report("P3", "batched matmul (4096,64,64) f32", r, 3.0 * 4096 * 64 * 64 * 4, tflops(2.0 * 4096 * 64 * 64 * 64, r));
  }
  {
    const std::int64_t n = std::int64_t{1} << 26;
    const ndarray x = random_f32({n}, 5), y = random_f32({n}, 6);
    report("P4", "dot 2^26 f32", time_it([&] { (void)dot(x, y); }), 2.0 * 4 * n);
  }
  {
    const ndarray a = random_f32({512, 256, 256}, 7), b = random_f32({512, 256, 256}, 8);
    const auto r = time_it([&] { (void)einsum("bij,bjk->bik", a, b); });
    report("P5", "einsum bij,bjk->bik (512,256,256) f32", r, 3.0 * 512 * 256 * 256 * 4,
           tflops(2.0 * 512 * 256 * 256 * 256, r));
  }
  {
    const std::int64_t n = 4096;
    const ndarray ar = random_f32({n, 2 * n}, 9), br = random_f32({n, 2 * n}, 10);
    // Reinterpret interleaved float pairs as complex64 [n, n].
    const ndarray a(ar.memory(), dtype::complex64, {n, n}, {n * 8, 8}, ar.offset(), ar.device());
    const ndarray b(br.memory(), dtype::complex64, {n, n}, {n * 8, 8}, br.offset(), br.device());
    const auto r = time_it([&] { (void)matmul(a, b); }, 10, 2);
    report("P6", "matmul 4096^2 complex64", r, 0, tflops(8.0 * n * n * n, r));
  }
  return 0;
}
