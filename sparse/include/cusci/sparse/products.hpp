#pragma once
/// @file products.hpp
/// Products and reductions of sparse matrices (SciPy's spmatrix semantics, see matrix.hpp):
///   - sparse x dense: the `dot` members of every format (declared in matrix.hpp), `sparse::dot(A, x)`
///     and `spmv_batched` (a batch of vectors through one SpMM);
///   - dense x sparse: `sparse::dot(X, B)` / `X * B` (SciPy's `X @ B`);
///   - sparse x sparse: `sparse::dot(A, B)` / `A * B` (SpGEMM; the result format is SciPy's),
///     `sparse::dot(A, B, options)` (SpGEMM with options, CSR result);
///   - reductions: `sum`, `mean`, `max`, `min`, `argmax`, `argmin`, `count_nonzero`, `diagonal`,
///     `setdiag`, `trace`.
/// `sparse::linalg::norm` and `sparse::linalg::matrix_power` (SciPy's scipy.sparse.linalg functions)
/// are declared in linalg.hpp, which this header includes; `sparse::matrix_power` names the latter.
///
/// Value dtypes: every dtype of cusci::sparse (bool, the integers, float32/64, complex64/128); index
/// dtypes int32 and int64. Results follow NumPy's promotion and SciPy's dtype rules (each function
/// says which). float/complex sparse x dense products run on cuSPARSE's generic API (or cusci's
/// CSR-stream kernel); integer and bool products and sparse x sparse products on cusci's own kernels,
/// with exactly SciPy's arithmetic (wrapping integer overflow, bool `+` as OR).
///
/// Scalar results (SciPy returns a NumPy scalar) are 0-d ndarrays of SciPy's dtype, so that nothing
/// synchronizes; read them with `.item<T>()`. Axis reductions return 2-D arrays, (1, n) for axis 0 and
/// (m, 1) for axis 1, as spmatrix returns np.matrix. Axis `-2`/`-1` mean 0/1.

#include <cstdint>
#include <optional>
#include <variant>

#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse {

// ===================================================================================================
// Sparse x dense
// ===================================================================================================

/// Matrix product of any sparse matrix with a dense vector or matrix (the same as `A.dot(x)`).
/// @param A [m, n] any format and supported dtype.
/// @param x [n] or [n, k], any dtype and layout (float16 is computed as float32).
/// @returns [m] or [m, k] (C order), dtype NumPy's promotion of A's and x's dtypes (SciPy's `upcast`:
///          a float16 promotion becomes float32).
/// Kernels: CSR with a 1-D x of A's float dtype and at most 10 entries a row on average: cusci's
/// CSR-stream kernel; other float/complex products: cuSPARSE SpMV (CSR_ALG1, or CSR_ALG2 when the
/// row lengths vary strongly: coefficient of variation > 1) and SpMM (CSR_ALG2 for row-major x);
/// integer/bool: cusci's row kernel. CSC runs as the transpose of a CSR matrix over the same arrays;
/// COO, DIA and BSR are converted to CSR first (COO/DIA/BSR conversions synchronize).
/// Asynchronous for CSR/CSC except the first cuSPARSE product of a matrix (reads the row lengths).
/// @throws cusci::value_error "dimension mismatch" when x.shape[0] != n or x is not 1-D/2-D;
///         cusci::out_of_memory.
/// SciPy: `A @ x` / `A.dot(x)` / `A * x` (spmatrix).
ndarray dot(const spmatrix& A, const ndarray& x);

/// A batch of products: row b of the result is A @ X[b]. One cuSPARSE SpMM with column-major
/// operands for float/complex (X [k, n] row-major is the column-major [n, k] operand), else the
/// row kernel on X^T.
/// @param A [m, n] any format. @param X [k, n] any dtype.
/// @returns [k, m], dtype as `dot`. Asynchronous (as `dot`).
/// @throws cusci::value_error "dimension mismatch" when X is not 2-D with X.shape[1] == n.
/// SciPy: `(A @ X.T).T`.
ndarray spmv_batched(const spmatrix& A, const ndarray& X);

// ===================================================================================================
// Dense x sparse
// ===================================================================================================

/// Matrix product of a dense vector or matrix with any sparse matrix: X @ B.
/// @param X [m] or [k, m], any dtype (float16 included), any layout: C order, F order and strided
///        views are read in place when X has the result dtype (otherwise one cast copy of X); k may
///        be 0.
/// @param B [m, n], any format and supported dtype, int32 or int64 indices.
/// @returns [n] for a 1-D X, [k, n] (C order) for a 2-D X; dtype NumPy's promotion of X's and B's
///          dtypes, a float16 promotion computed as float32 (SciPy's `upcast`).
/// Algorithm: out[b, j] sums X[b, i] * B[i, j] over the stored entries of column j of B, one thread
/// per column j and up to 8 rows b of X (register accumulators), in the result dtype's own arithmetic
/// (integers wrap, bool is OR of ANDs, as SciPy's sparsetools), each product rounded before the
/// addition (no fused multiply-add) and the entries of a column taken in B's storage order (for CSR:
/// by row, as SciPy's csc_matvecs over B.T): bit-reproducible run to run, no cuSPARSE call.
///   - CSC B: its own column arrays; asynchronous.
///   - CSR B: the column structure of B (indptr [n + 1], row indices and the position of each entry in
///     B's arrays, nnz each, B's index dtype) is computed on the first dense x sparse product of the
///     matrix (a CSR -> CSC transposition of the structure alone; that first product synchronizes)
///     and cached with the matrix (shared by its copies, dropped when the matrix rebinds its arrays);
///     the values are always read from B.data() through those positions, so writes into B.data() are
///     seen. Later products are asynchronous. Memory: (n + 1 + 2 nnz) indices while B lives.
///   - COO (duplicates kept, each one multiplied separately, as SciPy), DIA and BSR: converted to CSR
///     and transposed with their values for this call (synchronizes).
/// A B whose dtype differs from the result dtype has its values cast (one copy of B.data()).
/// @throws cusci::value_error "dimension mismatch" when X is not 1-D or 2-D (SciPy: "could not
///         interpret dimensions" for more dimensions; a 0-d X, which SciPy treats as a scalar, is
///         rejected too) or X.shape[-1] != m; cusci::value_error when X and B are on different
///         devices; cusci::out_of_memory.
/// SciPy: `X @ B` / `B.__rmatmul__(X)` (spmatrix: `(B.T @ X.T).T`).
ndarray dot(const ndarray& X, const spmatrix& B);

/// `X * B` is the matrix product `dot(X, B)`, as spmatrix's `X * B` (SciPy: `B.__rmul__(X)` for a
/// dense X, the matrix product for spmatrix). Unambiguous with the elementwise `ndarray * ndarray`
/// and `ndarray * scalar` operators of elementwise.hpp: no sparse class converts to ndarray or scalar,
/// and ndarray converts to no sparse class (their constructors from a dense array are explicit).
inline ndarray operator*(const ndarray& X, const spmatrix& B) { return dot(X, B); }

// ===================================================================================================
// Sparse x sparse
// ===================================================================================================

/// Algorithm of SpGEMM.
enum class spgemm_algorithm {
  /// `rowwise` (every dtype and index dtype).
  automatic,
  /// cuSPARSE's memory-frugal CUSPARSE_SPGEMM_ALG2 (float/complex only; operands and result of
  /// int32 size, else `esc`).
  cusparse_alg2,
  /// cuSPARSE CUSPARSE_SPGEMM_ALG3: the intermediate products are processed in chunks of
  /// `chunk_fraction` of all products, lowering peak memory further (float/complex only).
  cusparse_alg3,
  /// cusci's expand-sort-compress SpGEMM (every dtype, int32/int64 indices; more memory).
  esc,
  /// cusci's row-wise merge SpGEMM (every dtype, int32/int64 indices; memory: C plus O(m)): a
  /// symbolic pass counts each row's distinct columns, a numeric pass merges the sorted rows of B
  /// selected by a row of A (a thread per row for rows of at most 8 entries and 512 products, a warp
  /// per row up to 128 entries and 4096 products, expand-sort-compress for the longer rows).
  rowwise,
};

/// Options of SpGEMM (not in SciPy).
struct spgemm_options {
  spgemm_algorithm algorithm = spgemm_algorithm::automatic;
  /// Fraction (0, 1] of the intermediate products computed at once by cusparse_alg3.
  float chunk_fraction = 0.2f;
};

/// Sparse matrix product C = A @ B with explicit SpGEMM options.
/// @param A [m, k], B [k, n]: any formats (converted to CSR), any supported dtypes.
/// @returns a csr_matrix [m, n] of NumPy's promotion of the two dtypes. Integer products wrap as
///          NumPy's; bool products use OR/AND (SciPy's sparsetools). Synchronizes (learns nnz(C)).
/// Index dtype: `rowwise`/`automatic` as SciPy: int64 when an operand has int64 indices or the
///          product count (SciPy's bound on nnz(C)) exceeds 2**31 - 1, else int32; `esc`: int32 unless
///          nnz(C) or a dimension needs int64; cuSPARSE: int32.
/// Entries: `rowwise`/`automatic` and `esc` drop entries whose sum is exactly zero and return sorted
/// indices, as SciPy (canonical). `rowwise` sums each entry's products from zero in the order of A's
/// entries, each product rounded before the addition (no fused multiply-add), as SciPy's csr_matmat:
/// float results equal SciPy's bitwise (rows of more than 128 entries or 4096 products excepted: they
/// run through `esc`, whose reduce-by-key may group the additions differently). The cuSPARSE paths keep cancellations as explicit zeros
/// (`toarray()` is equal; `nnz` may exceed SciPy's) and round differently.
/// Duplicate entries of A or B are summed first (on private handles; A and B are not changed).
/// Memory (`rowwise`): C plus four arrays of m indices, and for the rows of more than 128 entries or
/// 4096 products the expand-sort-compress buffers of those rows only.
/// @throws cusci::value_error "dimension mismatch" when A.shape[1] != B.shape[0], or chunk_fraction
///         outside (0, 1]; cusci::type_error when a cuSPARSE algorithm is requested for an integer or
///         bool result; cusci::out_of_memory.
/// SciPy: `A @ B` / `A.dot(B)` / `A * B` (spmatrix). Algorithms: row-wise after Gustavson, "Two fast
/// algorithms for sparse matrices: multiplication and permuted transposition", ACM TOMS 4(3), 1978,
/// with per-row binning as Nagasaka, Nukada & Matsuoka, ICPP 2017; cuSPARSE SpGEMM (ALG2/ALG3);
/// expand-sort-compress after Dalton, Olson & Bell, "Optimizing Sparse Matrix-Matrix Multiplication
/// for the GPU", ACM TOMS 41(4), 2015.
csr_matrix dot(const spmatrix& A, const spmatrix& B, const spgemm_options& options);

/// The matrix product with the default options (declared in construct.hpp too, where `A * B`
/// forwards to it), in SciPy's result format (its `_matmul_sparse` of each format):
///   - A CSR, COO, or DIA with B not DIA: CSR (`dot(A, B, spgemm_options{})`);
///   - A CSC: CSC, computed as the CSR product B^T A^T over the transposed arrays (no conversion of a
///     CSC A or B; a B of another format is converted to CSR of B^T as SciPy converts it to CSC) and
///     returned as its transpose over the same arrays: the same arithmetic and summation order as
///     SciPy's csr_matmat on the swapped operands;
///   - A and B DIA: DIA (the CSR product's `todia()`; SciPy's dia_matmat may keep diagonals whose
///     values are all zero, cusci stores the diagonals holding an entry);
///   - A BSR with blocksize (R, *): BSR with blocksize (R, C), C = B's column blocksize for a BSR B,
///     else 1 (the CSR product's `tobsr({R, C})`; SciPy's bsr_matmat keeps every block of the block
///     structure's product, zero blocks included, cusci the blocks holding a nonzero entry).
/// dtype: NumPy's promotion (SciPy's `upcast`); values as `dot(A, B, options)` (zero sums dropped).
/// Synchronizes. @throws as `dot(A, B, options)`.
/// SciPy: `A @ B` / `A * B` (spmatrix).
spmatrix dot(const spmatrix& A, const spmatrix& B);

/// The matrix power, declared in linalg.hpp where SciPy has it (`scipy.sparse.linalg.matrix_power`);
/// also reachable here as `sparse::matrix_power` (spmatrix's `A ** n`).
using linalg::matrix_power;

// ===================================================================================================
// Reductions
// ===================================================================================================

/// Sum of all entries or along an axis. Duplicate entries are first summed in A's dtype, as SciPy's
/// canonical form (bool: or, so a duplicated True counts once; integers wrap), then the distinct
/// entries are summed in the result dtype. A is not changed (private handle); a matrix not known to
/// be canonical is checked (synchronizes) and, with duplicates, sorted and summed first.
/// @param axis none (all), 0/-2 (over rows -> [1, n]) or 1/-1 (over columns -> [m, 1]).
/// @param dt result dtype (NumPy's `dtype=`); none: SciPy's `get_sum_dtype` (bool and signed ints ->
///        int64, unsigned -> uint64, floats and complex unchanged).
/// @returns 0-d (axis none) or 2-D ndarray. Asynchronous for CSR/CSC/COO; other formats convert
/// to CSR first.
/// @throws cusci::index_error for another axis.
/// SciPy: `A.sum(axis, dtype)`. Deviation: no `out=`.
ndarray sum(const spmatrix& A, std::optional<int> axis = {}, std::optional<cusci::dtype> dt = {});

/// Mean of all entries or along an axis, implicit zeros included. dtype: float64 for bool/integer
/// values, else A's dtype (or `dt`). Duplicates summed first (as sum); each entry is multiplied by
/// 1 / count before summing, as SciPy.
/// @returns 0-d or 2-D ndarray (see sum). Asynchronous as sum.
/// @throws cusci::index_error for another axis; cusci::value_error "division by zero" when the count
///         is 0 (axis none with an empty matrix, or an axis of length 0: SciPy's ZeroDivisionError).
/// SciPy: `A.mean(axis, dtype)`.
ndarray mean(const spmatrix& A, std::optional<int> axis = {}, std::optional<cusci::dtype> dt = {});

/// Maximum / minimum of all entries (axis none: 0-d ndarray of A's dtype) or along an axis (a
/// coo_matrix [1, n] or [m, 1] of A's dtype holding the nonzero results, as SciPy). Implicit zeros
/// count: the max of a matrix with an implicit zero and only negative stored values is 0. NaN
/// propagates (np.maximum). Complex values compare lexicographically (NumPy).
/// Synchronizes (sums duplicates first; the axis form also learns the result's nnz).
/// @throws cusci::value_error "zero-size array to reduction operation" for an empty reduction;
///         cusci::index_error for another axis.
/// SciPy: `A.max()`, `A.max(axis)`, `A.min()`, `A.min(axis)` (explicit=False).
ndarray max(const spmatrix& A);
ndarray min(const spmatrix& A);
coo_matrix max(const spmatrix& A, int axis);
coo_matrix min(const spmatrix& A, int axis);

/// Flat index (row * n + col) of the first maximum / minimum, implicit zeros included, with SciPy's
/// exact rule (when the stored extreme equals zero and implicit zeros exist, the result is
/// `min(first implicit zero's flat index, position of the stored extreme)`, as SciPy 1.18 computes).
/// A matrix without stored entries gives 0. Returns a 0-d int64 device array, as every scalar-valued
/// result in cusci (`.item<std::int64_t>()` reads it); synchronizes (the rule needs the extreme's value).
/// @throws cusci::value_error "Cannot apply argmax to an empty matrix." for a 0-size matrix.
/// SciPy: `A.argmax()`, `A.argmin()` (explicit=False).
ndarray argmax(const spmatrix& A);
ndarray argmin(const spmatrix& A);
/// Along an axis: int64 [1, n] (axis 0: row index per column) or [m, 1] (axis 1: column index per
/// row), SciPy's per-line rule (as above, within the line). Synchronizes (sums duplicates).
/// @throws cusci::value_error "Cannot apply argmax along a zero-sized dimension."; index_error.
ndarray argmax(const spmatrix& A, int axis);
ndarray argmin(const spmatrix& A, int axis);

/// Number of nonzero values after summing duplicates (explicit zeros are not counted), as a 0-d int64
/// device array (every scalar-valued result in cusci is one; `.item<std::int64_t>()` reads it).
/// Synchronizes only when duplicates must be summed first. SciPy: `A.count_nonzero()`.
ndarray count_nonzero(const spmatrix& A);
/// Along an axis: int64 [n] (axis 0) or [m] (axis 1), 1-D as SciPy. Synchronizes (sums duplicates).
/// SciPy: `A.count_nonzero(axis)`. Deviation: always int64 (SciPy gives intp or the index dtype).
ndarray count_nonzero(const spmatrix& A, int axis);

/// Stored entries (`A.nnz()`). SciPy: `A.nnz`.
inline std::int64_t nnz(const spmatrix& A) noexcept { return A.nnz(); }

/// Diagonal k of A (A[i, i + k]), duplicates summed, A's dtype; empty when k is outside the matrix.
/// @returns [len] ndarray. Asynchronous for CSR/CSC (other formats: through CSR).
/// SciPy: `A.diagonal(k)`.
ndarray diagonal(const spmatrix& A, std::int64_t k = 0);

/// A copy of A whose diagonal k is set to `values` (A[i, i + k] = values[i] for i < len(values) and
/// i within the diagonal; a 0-d `values` sets the whole diagonal). Set positions become stored
/// entries (explicit zeros included, as SciPy); the other entries are kept. The result has A's format
/// (DIA and BSR through CSR/COO), dtype and index dtype; the values are cast to A's dtype.
/// Synchronizes. (C++: a free function returning the new matrix; A itself is unchanged.)
/// @throws cusci::value_error "k exceeds array dimensions"; "values must be 0-d or 1-D".
/// SciPy: `A.setdiag(values, k)` (in place in SciPy).
spmatrix setdiag(const spmatrix& A, const ndarray& values, std::int64_t k = 0);
spmatrix setdiag(const spmatrix& A, const scalar& value, std::int64_t k = 0);

/// Sum of diagonal `offset`: a 0-d ndarray, dtype as NumPy's sum of A's dtype. Asynchronous.
/// SciPy: `A.trace(offset)`.
ndarray trace(const spmatrix& A, std::int64_t offset = 0);

}  // namespace cusci::sparse
