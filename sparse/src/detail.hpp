#pragma once
// Internal declarations shared by the host (.cpp) and device (.cu) sources of cusci::sparse.

#include <array>
#include <cstdint>
#include <memory>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::detail {

/// Result of a device check of COO indices (row/col int32 or int64, contiguous, same length).
struct coo_check {
  bool neg_row = false, big_row = false, neg_col = false, big_col = false;
};
/// Checks every row in [0, m) and col in [0, n). Synchronizes.
coo_check check_coo_indices(const ndarray& row, const ndarray& col, std::int64_t m, std::int64_t n);

/// indptr[0], indptr[-1] and whether indptr decreases anywhere (int32/int64, contiguous, size >= 1).
struct indptr_check {
  std::int64_t first = 0, last = 0;
  bool decreasing = false;
};
/// Synchronizes. With `monotone == false` only the two end values are read.
indptr_check check_indptr(const ndarray& indptr, bool monotone);

/// Whether any of the first `nnz` indices is < 0 or >= n. Synchronizes.
struct bounds_check {
  bool negative = false, too_big = false;
};
bounds_check check_indices(const ndarray& indices, std::int64_t nnz, std::int64_t n);

/// COO -> canonical CSR (sorted, duplicates summed, explicit zeros kept). data float32/float64;
/// row/col same index dtype, contiguous. Synchronizes (reads the count of distinct entries).
void coo_to_csr(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, ndarray& out_data,
                ndarray& out_indices, ndarray& out_indptr);

/// Row index of each of the nnz entries of a CSR matrix (index dtype of indptr). Asynchronous.
ndarray csr_expand_rows(const ndarray& indptr, std::int64_t nnz);

/// Dense C-order [m, n] array, duplicates summed. Asynchronous.
ndarray coo_todense(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape);

/// Main diagonal [min(m, n)] of a CSR matrix, duplicates summed. Asynchronous.
ndarray csr_diagonal(const ndarray& data, const ndarray& indices, const ndarray& indptr, shape2 shape);

/// y = d * x elementwise (d [n], x [n] or [n, 1], same float dtype, contiguous). Asynchronous.
ndarray diag_multiply(const ndarray& d, const ndarray& x);
/// 1 / a elementwise (float dtype, contiguous). Asynchronous.
ndarray reciprocal(const ndarray& a);

/// Creates the per-matrix cache of cuSPARSE descriptors (defined with the SpMV code).
std::shared_ptr<spmv_cache> make_spmv_cache();

/// SpMV kernel choice of csr_matrix::dot for one-dimensional x: 0 automatic (the CSR-stream kernel
/// when the mean row length is <= 10, else cuSPARSE), 1 always cuSPARSE, 2 always the CSR-stream
/// kernel; 3 and 4: the CSR-stream kernel with other tuning parameters (8 entries in flight a thread
/// and 4 blocks an SM; 6 and 5), int32 indices only (int64: the default parameters). Process-wide;
/// for benchmarks and tests.
void set_spmv_backend(int backend);
/// Whether csr_matrix::dot uses the CSR-stream kernel for an m-row matrix with nnz entries.
bool stream_spmv_preferred(std::int64_t m, std::int64_t nnz);
/// y = A x with the CSR-stream kernel. data, x, y of one float dtype, contiguous; indices, indptr of
/// one index dtype (int32/int64), contiguous; x [shape[1]], y [m]. Asynchronous.
void csr_spmv_stream(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m,
                     const ndarray& x, ndarray& y);
/// Mean device time (ms) of each kernel of one unpreconditioned cg iteration on the square matrix A:
/// {p update, SpMV with p.q, x and r update with r.r}, over `reps` launches each. Synchronizes.
std::array<double, 3> cg_kernel_ms(const csr_matrix& A, int reps);

/// A view of the first n elements of a contiguous 1-D array.
inline ndarray head(const ndarray& a, std::int64_t n) {
  if (n == a.size()) return a;
  return ndarray(a.memory(), a.dtype(), shape_t{n}, shape_t{static_cast<std::int64_t>(a.itemsize())}, a.offset(),
                 a.device());
}

}  // namespace cusci::sparse::detail
