// cusci::linalg benchmarks (ids from the CuPy baseline): A1 batched solve (1e5, 8, 8) fp64, A1b batched
// solve (1e4, 32, 32) fp64, A2 cholesky 8192^2 fp64, A2b batched cholesky (1e4, 32, 32) fp64.
// Inputs are generated on the device: general matrices = uniform(-1, 1) + n I (well conditioned),
// SPD matrices = symmetric uniform(-1, 1) off the diagonal with n + 1 on it (diagonally dominant).
// `bytes` is the minimal traffic (read a and b, write x or the factor).

#include <cstdint>
#include <string>

#include "cusci/core.hpp"
#include "cusci/linalg/linalg.hpp"
#include "harness.hpp"

namespace {

__device__ double uniform_pm1(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

__global__ void fill_general(double* a, std::int64_t nb, std::int64_t n) {
  const std::int64_t total = nb * n * n;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = e % (n * n), i = r / n, j = r % n;
    a[e] = uniform_pm1(e) + (i == j ? static_cast<double>(n) : 0.0);
  }
}

__global__ void fill_spd(double* a, std::int64_t nb, std::int64_t n) {
  const std::int64_t total = nb * n * n;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t b = e / (n * n), r = e % (n * n), i = r / n, j = r % n;
    const std::int64_t lo = i < j ? i : j, hi = i < j ? j : i;
    a[e] = i == j ? static_cast<double>(n + 1) : uniform_pm1((b * n + lo) * n + hi);
  }
}

__global__ void fill_uniform(double* x, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < count;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    x[e] = uniform_pm1(seed + static_cast<std::uint64_t>(e));
}

unsigned blocks(std::int64_t n) {
  std::int64_t g = (n + 255) / 256;
  return static_cast<unsigned>(g < 1 ? 1 : (g > 65535 * 16 ? 65535 * 16 : g));
}

cusci::ndarray general(std::int64_t nb, std::int64_t n) {
  cusci::ndarray a = cusci::empty({nb, n, n});
  fill_general<<<blocks(nb * n * n), 256, 0, cusci::get_current_stream()>>>(a.data_as<double>(), nb, n);
  return a;
}

cusci::ndarray spd(cusci::shape_t shape) {
  const std::int64_t n = shape.back();
  const std::int64_t nb = shape.size() == 3 ? shape[0] : 1;
  cusci::ndarray a = cusci::empty(shape);
  fill_spd<<<blocks(nb * n * n), 256, 0, cusci::get_current_stream()>>>(a.data_as<double>(), nb, n);
  return a;
}

cusci::ndarray rhs(std::int64_t nb, std::int64_t n) {
  cusci::ndarray b = cusci::empty({nb, n, 1});
  fill_uniform<<<blocks(nb * n), 256, 0, cusci::get_current_stream()>>>(b.data_as<double>(), nb * n, 77);
  return b;
}

void bench_solve(const std::string& id, std::int64_t nb, std::int64_t n) {
  const cusci::ndarray a = general(nb, n), b = rhs(nb, n);
  const auto r = cusci::bench::time_it([&] {
    (void)cusci::linalg::solve(a, b, {.assume_a = cusci::linalg::matrix_structure::general});
  });
  cusci::bench::report(id, "solve batched (" + std::to_string(nb) + ", " + std::to_string(n) + ", " +
                               std::to_string(n) + ") fp64, b (..., n, 1)",
                       r, static_cast<double>(nb * (n * n + 2 * n)) * 8.0);
}

void bench_cholesky(const std::string& id, const cusci::shape_t& shape) {
  const cusci::ndarray a = spd(shape);
  const std::int64_t n = shape.back(), nb = shape.size() == 3 ? shape[0] : 1;
  const auto r = cusci::bench::time_it([&] { (void)cusci::linalg::cholesky(a); }, shape.size() == 3 ? 30 : 10, 2);
  const double gflops = static_cast<double>(nb) * n * n * n / 3.0 / (r.median_ms * 1e-3) / 1e9;
  cusci::bench::report(id, "cholesky " + std::string(shape.size() == 3 ? "batched (" + std::to_string(nb) + ", " : "(") +
                               std::to_string(n) + ", " + std::to_string(n) + ") fp64",
                       r, static_cast<double>(nb * n * n) * 16.0, "\"gflops\":" + std::to_string(gflops));
}

}  // namespace

int main() {
  bench_solve("A1", 100000, 8);
  bench_solve("A1b", 10000, 32);
  bench_cholesky("A2", {8192, 8192});
  bench_cholesky("A2b", {10000, 32, 32});
  return 0;
}
