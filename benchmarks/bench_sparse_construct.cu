// Benchmarks of cusci::sparse's construct family (ids SC1..SC3; CuPy peers in
// peers_sparse_construct.py):
//   SC1  A + B, 2-D Poisson 2048^2 (5-point, 21M entries), float64 csr + csr (CuPy 4.33 ms)
//   SC2  kron building the 3-D Poisson 128^3 (kronsum of 1-D Laplacians), csr result
//   SC3  transpose (csr -> csc: transpose(A).tocsr(), the real data movement), 2-D Poisson 2048^2
// Minimal traffic of SC1: indices and values of both inputs read twice (count and fill passes)
// and the result written once.
#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/sparse/construct.hpp"
#include "harness.hpp"

namespace sp = cusci::sparse;
using cusci::ndarray;

static sp::spmatrix laplacian_1d(std::int64_t n) {
  return sp::diags({cusci::full({1}, -1.0), cusci::full({1}, 2.0), cusci::full({1}, -1.0)}, {-1, 0, 1},
                   {.shape = sp::shape2{n, n}, .format = "csr"});
}

int main() {
  const std::int64_t n2 = 2048;
  sp::spmatrix T = laplacian_1d(n2);
  sp::csr_matrix A = sp::kronsum(T, T, "csr").tocsr();
  sp::csr_matrix B = A.copy();
  (void)A.has_canonical_format();
  (void)B.has_canonical_format();
  const double nnz = static_cast<double>(A.nnz());
  {
    auto r = cusci::bench::time_it([&] { sp::spmatrix C = A + B; }, 20, 3);
    const double bytes = 2.0 * 2.0 * nnz * 12.0 + nnz * 12.0 + 3.0 * 4.0 * (n2 * n2 + 1);
    cusci::bench::report("SC1", "A+B csr f64 2-D Poisson 2048^2", r, bytes, "\"nnz\":" + std::to_string(A.nnz()));
  }
  {
    sp::spmatrix T3 = laplacian_1d(128);
    auto r = cusci::bench::time_it(
        [&] {
          sp::spmatrix A2 = sp::kronsum(T3, T3, "csr");
          sp::spmatrix A3 = sp::kronsum(A2, T3, "csr");
          (void)A3;
        },
        10, 2);
    cusci::bench::report("SC2", "kronsum 3-D Poisson 128^3 csr f64", r);
  }
  {
    auto r = cusci::bench::time_it([&] { sp::csr_matrix At = sp::transpose(A).tocsr(); }, 20, 3);
    cusci::bench::report("SC3", "transpose csr->csc 2-D Poisson 2048^2", r, 2.0 * nnz * 12.0);
  }
  return 0;
}
