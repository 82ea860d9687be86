// cusci::sparse dense x sparse benchmarks, X @ B (ids as in docs/sparse-products.md), on the 2-D
// Poisson matrix 2048^2 (5-point, n 4,194,304, nnz 20,963,328, float64, canonical CSR, int32 indices;
// stencil.cuh's poisson):
//   DS1    X [8, n] (C order) @ B (CSR), the column structure cached by an earlier call
//   DS1v   X [1, n] @ B (CSR)
//   DS1x   x [n] (1-D) @ B (CSR)
//   DS1f   X [8, n] in F order @ B (CSR): X read in place
//   DS1c   X [8, n] @ B (CSR) on a matrix object made for the call (its arrays shared): the column
//          structure is computed inside the timed call
//   DS2    X [8, n] @ B (CSC over the arrays of B^T = B: the same matrix; no structure to compute)
//   DS2v   X [1, n] @ B (CSC)
// "roof_pct": the minimal traffic (B's three arrays once, X once, the result once) over the measured
// time, against the 4139 GB/s copy ceiling; the cached column structure (CSR) adds 8 bytes a stored
// entry and 4 a column that the minimal traffic does not count.

#include <cstdio>
#include <string>

#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/random.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/stream.hpp"
#include "harness.hpp"
#include "stencil.cuh"

using namespace cusci;

namespace {

// Minimal bytes of X [k, m] @ B [m, n] (float64, int32 indices): B's arrays, X and the result.
double min_bytes(const sparse::csr_matrix& B, std::int64_t k) {
  const double m = static_cast<double>(B.shape()[0]), n = static_cast<double>(B.shape()[1]);
  return 12.0 * static_cast<double>(B.nnz()) + 4.0 * (m + 1) + 8.0 * k * m + 8.0 * k * n;
}

void run(const std::string& id, const std::string& name, const sparse::spmatrix& B, const ndarray& X,
         double bytes, int runs = 30) {
  auto r = bench::time_it([&] { ndarray Y = sparse::dot(X, B); }, runs, 5);
  bench::report(id, name, r, bytes, "\"k\":" + std::to_string(X.ndim() == 1 ? 0 : X.shape(0)));
}

}  // namespace

int main() {
  if (bench::no_device()) return 77;
  const sparse::csr_matrix B = bench::poisson(2048, 2);
  const std::int64_t n = B.shape()[0];
  const ndarray X8 = random::default_rng(1).standard_normal({8, n});
  const ndarray X1 = X8[{slice{0, 1}}].copy();
  const ndarray x = X8[0].copy();
  const ndarray X8f = X8.copy(order::F);
  run("DS1", "dense_at_csr_poisson2d_2048_k8", B, X8, min_bytes(B, 8));
  run("DS1v", "dense_at_csr_poisson2d_2048_k1", B, X1, min_bytes(B, 1));
  run("DS1x", "vector_at_csr_poisson2d_2048", B, x, min_bytes(B, 1));
  run("DS1f", "dense_F_at_csr_poisson2d_2048_k8", B, X8f, min_bytes(B, 8));
  {
    auto r = bench::time_it(
        [&] {
          const sparse::csr_matrix fresh = sparse::csr_matrix::from_valid(B.data(), B.indices(), B.indptr(), B.shape(), true);
          ndarray Y = sparse::dot(X8, fresh);
        },
        10, 2);
    bench::report("DS1c", "dense_at_csr_poisson2d_2048_k8_cold", r, min_bytes(B, 8), "\"k\":8");
  }
  // The Poisson matrix is symmetric: the CSC matrix over B's arrays is B itself.
  const sparse::csc_matrix Bc = sparse::csc_matrix::from_valid(B.data(), B.indices(), B.indptr(), B.shape(), true);
  run("DS2", "dense_at_csc_poisson2d_2048_k8", Bc, X8, min_bytes(B, 8));
  run("DS2v", "dense_at_csc_poisson2d_2048_k1", Bc, X1, min_bytes(B, 1));
  return 0;
}
