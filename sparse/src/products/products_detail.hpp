#pragma once
// Internal entry points of the products family of cusci::sparse (host code <-> kernels).

#include <cstdint>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::detail {

/// Y = A X with cusci's row kernel: A in CSR arrays (indptr/indices of one index dtype, data of
/// dtype T), X [n, k] and Y [m, k] of dtype T given with element strides (any layout). k == 0 means a
/// vector (X [n], Y [m]). Exact arithmetic of T (integers wrap, bool is OR/AND). Asynchronous.
void csr_rowprod(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m, std::int64_t k,
                 const ndarray& X, std::int64_t xs0, std::int64_t xs1, ndarray& Y, std::int64_t ys0,
                 std::int64_t ys1);

/// out[line] = sum of data over each line of a compressed matrix (R = data's dtype, one of int64,
/// uint64, float32, float64, complex64, complex128). out [nlines] contiguous. Asynchronous.
void line_sum(const ndarray& data, const ndarray& indptr, ndarray& out);
/// out[idx[p]] += data[p] for every p (atomics; out zero-filled first by the caller). Same dtypes.
void scatter_sum(const ndarray& data, const ndarray& idx, ndarray& out);

/// Per line of a canonical compressed matrix whose lines have `line_len` positions: the maximum
/// (is_max) or minimum with implicit zeros counted (NaN-propagating). out [nlines] of data's dtype.
void line_minmax(const ndarray& data, const ndarray& indptr, std::int64_t line_len, bool is_max, ndarray& out);
/// Per line: SciPy's argmax/argmin rule (see products.hpp). out [nlines] int64.
void line_argminmax(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t line_len,
                    bool is_max, ndarray& out);
/// Over a canonical COO (sorted by (row, col), no duplicates): the first k with row[k] * ncols +
/// col[k] != k, or nnz when every k matches (0 for nnz 0). Synchronizes.
std::int64_t first_missing_flat(const ndarray& row, const ndarray& col, std::int64_t ncols);

/// Diagonal k of CSR arrays (rows m, cols n), duplicates summed; out [len] of data's dtype.
void csr_diagonal_k(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m,
                    std::int64_t k, ndarray& out);

/// Expand-sort-compress SpGEMM of CSR operands with one value dtype T (any) and one index dtype each
/// (converted inside to int64 keys). Entries summing to zero are dropped. Synchronizes.
csr_matrix spgemm_esc(const csr_matrix& A, const csr_matrix& B);

/// Row-wise merge SpGEMM (products_spgemm_rows.cu) of canonical CSR operands with one value dtype
/// (any but float16) and one index dtype (int32 or int64, all four index arrays). SciPy's
/// csr_matmat arithmetic and summation order; zero sums dropped; canonical result with the
/// operands' index dtype (int64 when the product count exceeds int32). Synchronizes.
csr_matrix spgemm_rows(const csr_matrix& A, const csr_matrix& B);

/// Y[b, j] = sum over q in [ptr[j], ptr[j + 1]) of val[perm ? perm[q] : q] * X[b * xs_b + idx[q] * xs_i]
/// for b < k, j < n (dense_sparse.cu): the column kernel of X @ B. val, X and Y of one value dtype
/// (any but float16); ptr, idx, perm of one index dtype (int32/int64), contiguous; X given by element
/// strides (any layout); Y [k, n] (or [n] with k == 1) C-contiguous. Exact arithmetic of the dtype,
/// no fused multiply-add. Asynchronous.
void colprod(const ndarray& val, const ndarray& idx, const ndarray& ptr, const ndarray* perm, std::int64_t n,
             std::int64_t k, const ndarray& X, std::int64_t xs_b, std::int64_t xs_i, ndarray& Y);

/// The column structure of a CSR matrix [m, n]: indptr [n + 1], the row index of each entry and its
/// position in the matrix's arrays ([nnz] each), entries of a column in storage order; index dtype of
/// the matrix.
struct column_structure {
  ndarray indptr, rows, pos;
};
/// The column structure of B, computed on first use and cached in B's spmv_cache (spmv.cpp).
/// Synchronizes on first use (the build completes before the cached arrays are shared).
column_structure csr_column_structure(const csr_matrix& B);

/// The CSR form of a COO matrix with its duplicates kept (spmv.cpp).
csr_matrix csr_keeping_duplicates(const coo_matrix& A);

/// A view of the first n elements of a contiguous 1-D array.
inline ndarray view_head(const ndarray& a, std::int64_t n) {
  if (n == a.size()) return a;
  return ndarray(a.memory(), a.dtype(), shape_t{n}, shape_t{static_cast<std::int64_t>(a.itemsize())}, a.offset(),
                 a.device());
}

}  // namespace cusci::sparse::detail
