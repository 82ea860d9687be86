// cusci::sparse benchmarks (ids from docs/benchmarks.md):
//   S1  SpMV fp64, 3-D Poisson 256^3 (7-point, n 16.8M, nnz 117M)
//   S1s SpMV fp32, same matrix
//   S1r SpMV fp64 on bcsstk16 (path: argv[1], default examples/data/bcsstk16.mtx.gz)
//   L1  cg, 2-D Poisson 3162^2 (n ~10M, 5-point), exactly 200 iterations (rtol 1e-30, maxiter 200),
//       no preconditioner (as CuPy's baseline).
// Variants (not in the baseline): S1/S1s/S1r with the SpMV kernel forced ("-cusparse": cuSPARSE,
// "-stream": cusci's CSR-stream kernel; "-stream-u8b4" / "-stream-u6b5": the same with 8 entries in
// flight a thread and 4 blocks an SM / 6 and 5, for tuning; the plain id is the automatic choice),
// and L1k: the device time of each of the three kernels of one cg iteration (mean of 200 launches).
// The Poisson matrices are built on the device by stencil.cuh's poisson.

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"
#include "stencil.cuh"

using namespace cusci;

// Internal entry points of cusci::sparse (sparse/src/linalg/cg.cu), for the variants above.
namespace cusci::sparse::detail {
void set_spmv_backend(int backend);
std::array<double, 3> cg_kernel_ms(const csr_matrix& A, int reps);
}  // namespace cusci::sparse::detail

namespace {

using bench::poisson;

void bench_spmv(const std::string& id, const std::string& name, const sparse::csr_matrix& A) {
  ndarray x = ones({A.shape()[1]}, A.dtype());
  const double vb = static_cast<double>(itemsize(A.dtype()));
  // Minimal traffic: values + column indices, row pointers, x and y once each.
  const double bytes = (vb + 4.0) * A.nnz() + 4.0 * (A.shape()[0] + 1) + vb * (A.shape()[0] + A.shape()[1]);
  const char* suffix[6] = {"", "-cusparse", "-stream", "-stream-u8b4", "-stream-u6b5", "-vector"};
  for (int backend = 0; backend < 6; ++backend) {
    sparse::detail::set_spmv_backend(backend);
    auto r = bench::time_it([&] { ndarray y = A.dot(x); }, 50, 5);
    bench::report(id + suffix[backend], name + suffix[backend], r, bytes, "\"nnz\":" + std::to_string(A.nnz()));
  }
  sparse::detail::set_spmv_backend(0);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mtx = argc > 1 ? argv[1] : "examples/data/bcsstk16.mtx.gz";
  {
    sparse::csr_matrix A = poisson(256, 3, dtype::float64);
    bench_spmv("S1", "spmv_f64_poisson3d_256", A);
  }
  {
    sparse::csr_matrix A = poisson(256, 3, dtype::float32);
    bench_spmv("S1s", "spmv_f32_poisson3d_256", A);
  }
  if (std::filesystem::exists(mtx)) {
    sparse::csr_matrix A = io::mmread(mtx).tocsr();
    bench_spmv("S1r", "spmv_f64_bcsstk16", A);
  } else {
    std::fprintf(stderr, "S1r skipped: %s not found\n", mtx.c_str());
  }
  {
    const std::int64_t k = 3162;
    sparse::csr_matrix A = poisson(k, 2, dtype::float64);
    ndarray b = ones({k * k});
    std::int64_t iters = 0;
    auto r = bench::time_it(
        [&] {
          auto res = sparse::linalg::cg(A, b, {.rtol = 1e-30, .maxiter = 200});
          iters = res.iterations;
        },
        5, 1);
    // Per iteration: SpMV (12 B/nnz + 4 B/row + x, y) plus the vector updates (x, r, p, q traffic).
    const double n = static_cast<double>(k * k);
    const double bytes_per_iter = 12.0 * A.nnz() + 4.0 * n + 16.0 * n + 48.0 * n + 24.0 * n;
    bench::report("L1", "cg_poisson2d_3162_200it_noprecond", r, bytes_per_iter * 200,
                  "\"iters\":" + std::to_string(iters) + ",\"ms_per_iter\":" + std::to_string(r.median_ms / 200.0));
    // One iteration's kernels separately; bytes: p update 24 n, SpMV 12 nnz + 4 n + 8 n (p) + 8 n (q),
    // x/r update 48 n.
    const std::array<double, 3> ms = sparse::detail::cg_kernel_ms(A, 200);
    const double kb[3] = {24.0 * n, 12.0 * A.nnz() + 20.0 * n, 48.0 * n};
    const char* kn[3] = {"p_update", "spmv_pq", "xr_update"};
    for (int i = 0; i < 3; ++i)
      bench::report(std::string("L1k-") + kn[i], std::string("cg_kernel_") + kn[i], {ms[i], ms[i]}, kb[i]);
  }
  return 0;
}
