// cusci::sparse products benchmarks (ids as in docs/sparse-products.md):
//   SP1   SpMV fp64, 3-D Poisson 256^3 (7-point, n 16.8M, nnz 117M); SP1s: fp32
//   SP2   SpMV fp64 (automatic path) on real matrices: SP2-bcsstk16, SP2-cage10, SP2-nh2010 (us per
//         call). Arguments: `bench_sparse_products [bcsstk16.mtx.gz] [cage10.mtx] [nh2010.mtx]` (files,
//         matched by name) or directories; else examples/data, then ../shared/data/matrices. A
//         matrix not found skips its case.
//   SP3   SpGEMM A @ A, 2-D Poisson 2048^2 (nnz 21M), fp64, automatic algorithm (cusci's row-wise
//         merge), with the pool's peak memory ("peak_bytes": highest bytes in use during the call,
//         "extra_bytes": above what was in use before), also as the row SP3-peak_bytes (the value in
//         "ms", beside CuPy's); SP3-alg2: CUSPARSE_SPGEMM_ALG2; SP3-alg3: CUSPARSE_SPGEMM_ALG3, chunk
//         fraction 0.2; SP3-esc: cusci's expand-sort-compress
//   SP4   SpMM 3-D Poisson 128^3 (fp64) x 8 dense columns (row-major)
//   SP4b  batched SpMV: the same as 8 vectors ([8, n] -> [8, m], column-major SpMM)
//   SP4c  SpMM 3-D Poisson 128^3 (fp64) x 40 row-major columns (above cuSPARSE's former cut-over at 32)
//   SP4d  SpMM 3-D Poisson 128^3 (fp64) x 128 row-major columns
//   SP5   sum(axis=0) of 2-D Poisson 2048^2 (fp64)
// The Poisson matrices are built on the device by stencil.cuh's poisson (canonical CSR, int32 indices).

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"
#include "stencil.cuh"

using namespace cusci;

namespace {

using bench::poisson;

void spmv(const std::string& id, const std::string& name, const sparse::csr_matrix& A) {
  ndarray x = ones({A.shape()[1]}, A.dtype());
  const double vb = static_cast<double>(itemsize(A.dtype()));
  // The issue's roofline traffic: (value + index) per entry, row pointer + x + y per row (12 nnz + 20 n
  // for float64).
  const double bytes = (vb + 4.0) * A.nnz() + (4.0 + 2.0 * vb) * A.shape()[0];
  auto r = bench::time_it([&] { ndarray y = A.dot(x); }, 50, 5);
  bench::report(id, name, r, bytes,
                "\"nnz\":" + std::to_string(A.nnz()) + ",\"us_per_call\":" + std::to_string(r.median_ms * 1e3));
}

// Returns the pool's peak bytes during one product.
std::size_t spgemm(const std::string& id, const std::string& name, const sparse::csr_matrix& A,
                   const sparse::spgemm_options& o) {
  auto& pool = get_default_memory_pool();
  synchronize();
  const std::size_t before = pool.statistics().used_bytes;
  pool.reset_peak_used_bytes();
  std::int64_t nnz = 0;
  {
    sparse::csr_matrix C = sparse::dot(A, A, o);
    nnz = C.nnz();
    synchronize();
  }
  const std::size_t peak = pool.peak_used_bytes();
  auto r = bench::time_it([&] { sparse::csr_matrix C = sparse::dot(A, A, o); }, 10, 2);
  bench::report(id, name, r, 0,
                "\"nnz_c\":" + std::to_string(nnz) + ",\"peak_bytes\":" + std::to_string(peak) +
                    ",\"extra_bytes\":" + std::to_string(peak - before));
  return peak;
}

// A command-line argument naming `file` (or `file`.gz) itself, else `file` or `file`.gz (a gzip-compressed
// Matrix Market file) in an argument directory or the defaults.
std::string find_matrix(const std::vector<std::string>& args, const std::string& file) {
  namespace fs = std::filesystem;
  for (const std::string& a : args)
    if ((fs::path(a).filename() == file || fs::path(a).filename() == file + ".gz") && fs::exists(a)) return a;
  std::vector<std::string> dirs;
  for (const std::string& a : args)
    if (fs::is_directory(a)) dirs.push_back(a);
  dirs.push_back("examples/data");
  dirs.push_back("../shared/data/matrices");
  for (const std::string& d : dirs) {
    const std::string p = d + "/" + file;
    if (fs::exists(p)) return p;
    if (fs::exists(p + ".gz")) return p + ".gz";
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  spmv("SP1", "spmv_f64_poisson3d_256", poisson(256, 3, dtype::float64));
  spmv("SP1s", "spmv_f32_poisson3d_256", poisson(256, 3, dtype::float32));
  for (const char* m : {"bcsstk16", "cage10", "nh2010"}) {
    const std::string p = find_matrix(args, std::string(m) + ".mtx");
    if (p.empty()) {
      std::fprintf(stderr, "SP2-%s skipped: %s.mtx not found\n", m, m);
      continue;
    }
    const sparse::csr_matrix A = io::mmread(p).tocsr().astype(dtype::float64);
    spmv(std::string("SP2-") + m, std::string("spmv_f64_") + m, A);
  }
  {
    const sparse::csr_matrix A = poisson(2048, 2, dtype::float64);
    const std::size_t peak = spgemm("SP3", "spgemm_poisson2d_2048", A, {});
    std::printf("{\"id\":\"SP3-peak_bytes\",\"case\":\"peak pool bytes of one A @ A\",\"ms\":%zu}\n", peak);
    std::fflush(stdout);
    spgemm("SP3-alg2", "spgemm_poisson2d_2048_alg2", A, {.algorithm = sparse::spgemm_algorithm::cusparse_alg2});
    spgemm("SP3-alg3", "spgemm_poisson2d_2048_alg3", A,
           {.algorithm = sparse::spgemm_algorithm::cusparse_alg3, .chunk_fraction = 0.2f});
    spgemm("SP3-esc", "spgemm_poisson2d_2048_esc", A, {.algorithm = sparse::spgemm_algorithm::esc});
    auto r = bench::time_it([&] { ndarray s = sparse::sum(A, 0); }, 30, 5);
    bench::report("SP5", "sum_axis0_poisson2d_2048", r, 12.0 * A.nnz() + 8.0 * A.shape()[1]);
  }
  {
    const sparse::csr_matrix A = poisson(128, 3, dtype::float64);
    const std::int64_t n = A.shape()[0];
    ndarray X = ones({n, 8});
    const double bytes = 12.0 * A.nnz() + 4.0 * n + 2.0 * 8 * 8 * n;
    auto r = bench::time_it([&] { ndarray Y = A.dot(X); }, 30, 5);
    bench::report("SP4", "spmm_poisson3d_128_k8", r, bytes);
    ndarray Xb = ones({8, n});
    auto rb = bench::time_it([&] { ndarray Y = sparse::spmv_batched(A, Xb); }, 30, 5);
    bench::report("SP4b", "spmv_batched_poisson3d_128_k8", rb, bytes);
    for (const std::int64_t k : {40, 128}) {
      ndarray Xk = ones({n, k});
      auto rk = bench::time_it([&] { ndarray Y = A.dot(Xk); }, 30, 5);
      bench::report(k == 40 ? "SP4c" : "SP4d", k == 40 ? "spmm_poisson3d_128_k40" : "spmm_poisson3d_128_k128", rk,
                    12.0 * A.nnz() + 4.0 * n + 2.0 * 8 * k * n);
    }
  }
  return 0;
}
