// cusci::sparse formats benchmarks (ids from docs/benchmarks.md; CuPy peers in peers_sparse_formats.py):
//   SF1  COO -> CSR, 2^27 float64 entries on a 2^24 x 2^24 grid, 25% duplicates, unsorted (CuPy S3: 342.7 ms)
//   SF2  CSR -> CSC, 2-D Poisson 2048^2 float64 (nnz 21M) (CuPy S4: 1.032 ms)
//   SF3  csr.toarray(), 1138_bus (path on the command line; default examples/data/1138_bus.mtx)
//   SF4  dense -> CSR, 4096^2 float64 with 1% nonzeros
// Usage: bench_sparse_formats [path/to/1138_bus.mtx]

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/matrix.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sp = cusci::sparse;

namespace {

// A bijection of [0, 2^48): odd multiply and xor-shift, modulo 2^48.
__device__ __forceinline__ unsigned long long mix48(unsigned long long v) {
  const unsigned long long mask = (1ull << 48) - 1ull;
  v = (v * 0x9E3779B97F4Bull) & mask;
  v ^= v >> 24;
  v = (v * 0xC2B2AE3D27D5ull) & mask;
  v ^= v >> 21;
  return v & mask;
}

// Entry i: ids 0..3n/4-1 distinct; the last quarter repeats a hashed earlier id (a duplicate). Position
// = mix48(id) on a 2^24 x 2^24 grid, so the order is random.
__global__ void k_make_coo(std::int64_t n, std::int32_t* row, std::int32_t* col, double* val) {
  const std::int64_t u = n - n / 4;
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < n;
       i += (std::int64_t)gridDim.x * blockDim.x) {
    std::int64_t id = i < u ? i : static_cast<std::int64_t>(mix48(static_cast<unsigned long long>(i)) % u);
    const unsigned long long p = mix48(static_cast<unsigned long long>(id));
    row[i] = static_cast<std::int32_t>(p >> 24);
    col[i] = static_cast<std::int32_t>(p & ((1ull << 24) - 1ull));
    val[i] = 1.0 + static_cast<double>(i & 7);
  }
}

sp::csr_matrix poisson2d(std::int64_t k) {
  const std::int64_t n = k * k;
  std::vector<double> d(5 * n, -1.0);
  for (std::int64_t j = 0; j < n; ++j) {
    d[2 * n + j] = 4.0;
    if (j % k == 0) d[3 * n + j] = 0.0;          // offset +1: A[j-1, j] crosses a grid row
    if ((j + 1) % k == 0) d[1 * n + j] = 0.0;    // offset -1: A[j+1, j]
  }
  sp::dia_matrix D(asarray(d, {5, n}), asarray(std::vector<std::int32_t>{static_cast<std::int32_t>(-k), -1, 0, 1,
                                                                         static_cast<std::int32_t>(k)}),
                   {.shape = sp::shape2{n, n}});
  return D.tocsr();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mtx = argc > 1 ? argv[1] : "examples/data/1138_bus.mtx";
  {
    const std::int64_t n = std::int64_t{1} << 27;
    ndarray row = empty({n}, dtype::int32), col = empty({n}, dtype::int32), val = empty({n}, dtype::float64);
    k_make_coo<<<4096, 256, 0, get_current_stream()>>>(n, row.data_as<std::int32_t>(), col.data_as<std::int32_t>(),
                                                         val.data_as<double>());
    CUSCI_CHECK_LAUNCH();
    sp::coo_matrix A = sp::coo_matrix::from_valid(val, row, col, {1 << 24, 1 << 24});
    std::int64_t out_nnz = 0;
    auto r = bench::time_it([&] { out_nnz = A.tocsr().nnz(); }, 10, 2);
    bench::report("SF1", "coo_tocsr_2^27_dup25_f64", r, 16.0 * n, "\"nnz_out\":" + std::to_string(out_nnz));
  }
  {
    sp::csr_matrix A = poisson2d(2048);
    auto r = bench::time_it([&] { (void)A.tocsc(); }, 30, 5);
    bench::report("SF2", "csr_tocsc_poisson2d_2048_f64", r, 2.0 * (12.0 * A.nnz() + 4.0 * A.shape()[0]),
                  "\"nnz\":" + std::to_string(A.nnz()));
  }
  try {
    sp::csr_matrix A = io::mmread(mtx).tocsr();
    auto r = bench::time_it([&] { (void)A.toarray(); }, 50, 5);
    bench::report("SF3", "csr_toarray_1138_bus", r, 8.0 * A.shape()[0] * A.shape()[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "SF3 skipped: %s\n", e.what());
  }
  {
    ndarray x = random::default_rng(1).random({4096, 4096});
    ndarray d = cusci::where(cusci::less(x, 0.01), x, zeros({1}));
    auto r = bench::time_it([&] { (void)sp::csr_matrix(d); }, 20, 3);
    bench::report("SF4", "dense_tocsr_4096^2_1pct_f64", r, 8.0 * 4096 * 4096);
  }
  return 0;
}
