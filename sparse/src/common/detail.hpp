#pragma once
// Internal declarations shared by the host (.cpp) and device (.cu) sources of cusci::sparse.

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "cusci/detail/shape.hpp"
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



/// y = d * x elementwise (d [n], x [n] or [n, 1], same float dtype, contiguous). Asynchronous.
ndarray diag_multiply(const ndarray& d, const ndarray& x);
/// 1 / a elementwise (float dtype, contiguous). Asynchronous.
ndarray reciprocal(const ndarray& a);

/// Creates the per-matrix cache of cuSPARSE descriptors (defined with the SpMV code).
std::shared_ptr<spmv_cache> make_spmv_cache();

/// SpMV kernel choice of csr_matrix::dot for one-dimensional x: 0 automatic (the CSR-stream kernel
/// when the mean row length is <= 10; else the CSR-vector kernel for at most 2^21 entries with
/// row lengths of coefficient of variation <= 1 (see rows_even); else cuSPARSE), 1 always
/// cuSPARSE, 2 always the CSR-stream kernel; 3 and 4: the CSR-stream kernel with other tuning
/// parameters (8 entries in flight a thread and 4 blocks an SM; 6 and 5), int32 indices only (int64:
/// the default parameters); 5 always the CSR-vector kernel. Process-wide; for benchmarks and tests.
void set_spmv_backend(int backend);
/// Whether csr_matrix::dot uses the CSR-stream kernel for an m-row matrix with nnz entries.
bool stream_spmv_preferred(std::int64_t m, std::int64_t nnz);
/// Whether csr_matrix::dot uses the CSR-vector kernel (`even_rows`: the row lengths' coefficient of
/// variation is at most 1).
bool vector_spmv_preferred(std::int64_t m, std::int64_t nnz, bool even_rows);
/// y = A x with the CSR-vector kernel (same operand rules as csr_spmv_stream). Asynchronous.
void csr_spmv_vector(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m,
                     const ndarray& x, ndarray& y);
/// y = A x with the CSR-stream kernel. data, x, y of one float dtype, contiguous; indices, indptr of
/// one index dtype (int32/int64), contiguous; x [shape[1]], y [m]. Asynchronous.
void csr_spmv_stream(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m,
                     const ndarray& x, ndarray& y);
/// Mean device time (ms) of each kernel of one unpreconditioned cg iteration on the square matrix A:
/// {p update, SpMV with p.q, x and r update with r.r}, over `reps` launches each. Synchronizes.
std::array<double, 3> cg_kernel_ms(const csr_matrix& A, int reps);

// ---------------------------------------------------------------------------------------------------
// Formats (formats_kernels.cu). Every value dtype of cusci::sparse; index arrays int32/int64 of one
// dtype, contiguous. "Synchronizes" where a count is read back.

/// Value, row and column arrays of COO entries.
struct coo_arrays {
  ndarray data, row, col;
};
/// Value, index and pointer arrays of a compressed (CSR/CSC/BSR) matrix.
struct compressed_arrays {
  ndarray data, indices, indptr;
};
/// Entries sorted by (major, minor): `major` (when not compressed) or `indptr` [n_major + 1].
struct sorted_entries {
  ndarray data, major, minor, indptr;
};
/// Sorts entries by (major, minor) with one radix sort of a packed 64-bit key (stable: equal keys keep
/// their order); vals [n, ...] move along (trailing dimensions kept, e.g. BSR blocks). sum: duplicates
/// summed (bool: or; integers wrap). compress: return indptr instead of major. Synchronizes when sum.
/// @throws cusci::not_implemented_error when bits(n_major-1) + bits(n_minor-1) > 64.
sorted_entries sort_entries(const ndarray& vals, const ndarray& major, const ndarray& minor, std::int64_t n_major,
                            std::int64_t n_minor, bool sum, bool compress);
/// Major index of each of the nnz entries (indptr [m + 1]). Asynchronous.
ndarray expand_indptr(const ndarray& indptr, std::int64_t nnz);
/// indptr [m + 1] of sorted major indices. Asynchronous.
ndarray compress_major(const ndarray& major_sorted, std::int64_t m);
/// CSR -> CSC (or back): the transposed compressed arrays, minor slices sorted by major index.
/// Synchronizes once when a slice can be too long for the register tiers (nnz >= 17)
/// to read the number of listed slices; otherwise asynchronous.
compressed_arrays transpose_compressed(const ndarray& data, const ndarray& indices, const ndarray& indptr,
                                       std::int64_t n_minor);
/// Entries of vals [n, ...] with any nonzero value: `index` [kept] int64 positions, `pos` [n + 1] int64
/// exclusive scan of the keep flags. Synchronizes.
struct compacted {
  std::int64_t kept = 0;
  ndarray pos, index;
};
compacted compact_nonzero(const ndarray& vals);
/// a[index] along axis 0 (index int64 contiguous). Asynchronous.
ndarray take_rows(const ndarray& a, const ndarray& index);
/// pos[indptr] (pos int64). Asynchronous.
ndarray remap_indptr(const ndarray& indptr, const ndarray& pos);
/// Nonzeros of a C-contiguous [m, n] array in C order. Synchronizes.
coo_arrays dense_to_coo(const ndarray& dense, dtype index_dtype);
/// Dense [m, n] array in order `ord` with the entries stored (positions must be distinct). Asynchronous.
ndarray scatter_dense(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, order ord);
/// Minor indices sorted within each major slice; canonical: strictly increasing. Synchronizes.
struct sortedness {
  bool sorted = true, canonical = true;
};
sortedness check_sorted(const ndarray& indptr, const ndarray& indices);
/// DIA -> COO: in-matrix nonzero entries, diagonal by diagonal (tocoo then sorts them into SciPy 1.18's
/// row-major order). Synchronizes.
coo_arrays dia_to_coo(const ndarray& data, const ndarray& offsets, shape2 shape, dtype index_dtype);
/// COO without duplicates -> DIA data [n_diags, width] and ascending offsets. Synchronizes.
struct dia_arrays {
  ndarray data, offsets;
};
dia_arrays coo_to_dia(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, std::int64_t width);
/// `c.todia()` without SciPy's many-diagonals SparseEfficiencyWarning (for conversions SciPy makes
/// without it: the transpose of a DIA matrix, zero elimination). Duplicates summed; synchronizes.
dia_matrix coo_to_dia_matrix(coo_matrix c);
/// BSR -> COO (every stored value, block by block). Asynchronous.
coo_arrays bsr_to_coo(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t R,
                      std::int64_t C);
/// BSR -> CSR with m rows (every stored value). Asynchronous.
compressed_arrays bsr_to_csr(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m,
                             std::int64_t R, std::int64_t C);
/// COO -> BSR, blocks sorted, duplicates summed. Synchronizes.
compressed_arrays coo_to_bsr(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, std::int64_t R,
                             std::int64_t C);
/// Number of distinct R x C blocks holding an entry. Synchronizes.
std::int64_t count_blocks(const ndarray& row, const ndarray& col, std::int64_t R, std::int64_t C, shape2 shape);

/// Throws type_error with SciPy's wording when t is not a value dtype of cusci::sparse.
void check_value_dtype(const char* fn, dtype t);
/// "(3, 4)" for shape2 (and any other shape): core's NumPy tuple text.
using cusci::detail::shape_str;

/// A view of the first n elements of a contiguous 1-D array.
inline ndarray head(const ndarray& a, std::int64_t n) {
  if (n == a.size()) return a;
  return ndarray(a.memory(), a.dtype(), shape_t{n}, shape_t{static_cast<std::int64_t>(a.itemsize())}, a.offset(),
                 a.device());
}

}  // namespace cusci::sparse::detail
