#pragma once
/// @file construct.hpp
/// Construction of sparse matrices (SciPy's `scipy.sparse.eye`, `diags`, `random`, `kron`, stacks,
/// `tril`/`triu`, `find`) and their arithmetic: `+ - * /`, elementwise `multiply`/`divide`,
/// `maximum`/`minimum`, `power`, `abs`, negation, `conj`/`real`/`imag`, transposes and comparisons.
///
/// Semantics (see matrix.hpp): SciPy 1.18's *spmatrix* classes. `A * B` of two sparse matrices is the
/// matrix product (`sparse::dot`, defined by the products family); the elementwise product is
/// `sparse::multiply`. Scalars are `cusci::scalar`: a C++ number is a weak (Python) scalar, so
/// `A * 2` keeps an int8 matrix int8 and `A * 2.0` gives float64, as NumPy 2 does for `A.data * 2`.
///
/// Result formats follow SciPy: a function with a `format` argument returns `spmatrix` in that
/// format, or in SciPy's default for that function when the format is empty (`""`, SciPy's
/// `format=None`); each function names its default. Value dtypes: every sparse value dtype (bool,
/// int8..uint64, float32, float64, complex64, complex128); index dtypes int32 and int64.
///
/// Stream behaviour: everything is enqueued on the current stream. Functions that build a result
/// whose entry count is only known on the device (sums and differences, comparisons, `find`,
/// `tril`/`triu`, conversions to CSR/CSC) synchronize once or a few times; each says so.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse {

// =====================================================================================================
// Constructors
// =====================================================================================================

/// An m x n matrix with ones on diagonal k (k > 0 above the main diagonal).
/// @param m, n    shape (n defaults to m); >= 0.
/// @param k       diagonal offset; SciPy 1.18 raises for a diagonal entirely outside the matrix
///                (`k >= n` or `k <= -m`), so does cusci (value_error "Offset 5 (index 0) out of bounds").
/// @param dtype   value dtype (default float64; float16 is a type_error).
/// @param format  "" (SciPy's None: dia), "csr", "csc", "coo", "dia", "bsr".
/// @return m x n, `dtype`. m == n with k == 0 and csr/csc/coo: built directly (canonical), else via
///         a dia_matrix. Asynchronous except for conversions out of DIA (synchronize).
/// @throws cusci::value_error for negative m/n, an out-of-range k or an unknown format string.
/// SciPy: `scipy.sparse.eye(m, n, k, dtype, format)`.
spmatrix eye(std::int64_t m, std::optional<std::int64_t> n = {}, std::int64_t k = 0,
             cusci::dtype dtype = cusci::dtype::float64, std::string_view format = "");
/// The n x n identity: `eye(n, n, 0, dtype, format)`. SciPy: `scipy.sparse.identity(n, dtype, format)`.
spmatrix identity(std::int64_t n, cusci::dtype dtype = cusci::dtype::float64, std::string_view format = "");

/// Keyword arguments of `diags` / `diags_array`.
struct diags_options {
  /// (m, n); none: square, `len(diagonals[0]) + abs(offsets[0])`.
  std::optional<shape2> shape{};
  /// "" (SciPy's None: dia), or any format string.
  std::string_view format = "";
  /// Value dtype; none: SciPy 1.18's default (`np.common_type` of the diagonals: integer inputs give
  /// float64, float32 stays float32, complex64 stays complex64; bool diagonals are a type_error as
  /// in NumPy). SciPy's `dtype=None` (result_type) is spelled by passing that dtype explicitly.
  std::optional<cusci::dtype> dtype{};
};

/// A matrix from diagonals: diagonal j (offset `offsets[j]`) gets `diagonals[j]`, its first element
/// at (max(0, -k), max(0, k)). A diagonal of length 1 is broadcast along the whole diagonal.
/// @param diagonals  one 1-D (or 0-d) array per offset, any sparse value dtype, any layout.
/// @param offsets    distinct offsets, as many as diagonals.
/// @return shape `o.shape` (or the default), dtype `o.dtype` (or common_type), format `o.format`.
///         Asynchronous except for conversions out of DIA.
/// @throws cusci::value_error "Different number of diagonals and offsets.", "Offset 9 (index 0) out
///         of bounds", "Diagonal length (index 0: 3 at offset 0) does not agree with array size
///         (4, 4).", "offset array contains duplicate values" (offsets and lengths are checked,
///         for any int64 offset, before anything is allocated); cusci::type_error for bool diagonals
///         without a dtype, or float16.
/// SciPy: `scipy.sparse.diags(diagonals, offsets, shape, format, dtype)`.
spmatrix diags(const std::vector<ndarray>& diagonals, const std::vector<std::int64_t>& offsets,
               const diags_options& o = {});
/// One diagonal: `diags({diagonal}, {offset}, o)`. SciPy: `diags(diagonal, offsets=k)`.
spmatrix diags(const ndarray& diagonal, std::int64_t offset = 0, const diags_options& o = {});
/// Same as `diags` (spmatrix semantics; SciPy's sparse-array variant has the same values and
/// formats). SciPy: `scipy.sparse.diags_array(diagonals, offsets=..., shape=..., format=..., dtype=...)`.
spmatrix diags_array(const std::vector<ndarray>& diagonals, const std::vector<std::int64_t>& offsets,
                     const diags_options& o = {});

/// `dia_matrix((data, diags), shape=(m, n)).asformat(format)`: row j of `data` holds diagonal
/// `diags[j]` in DIA's column-aligned layout (`data[j, c]` lands at (c - diags[j], c)).
/// @param data   [n_diags, L] (or [L]) any sparse value dtype.
/// @param diags  distinct offsets, as many as rows of data.
/// @param m, n   shape; none: (L, L). Only m given: value_error (SciPy reads m as a tuple).
/// @return spmatrix, dtype of data, format ("" -> dia). Synchronizes (offsets to the host).
/// @throws cusci::value_error as dia_matrix's constructor; unknown format.
/// SciPy: `scipy.sparse.spdiags(data, diags, m, n, format)`.
spmatrix spdiags(const ndarray& data, const std::vector<std::int64_t>& diags, std::optional<std::int64_t> m = {},
                 std::optional<std::int64_t> n = {}, std::string_view format = "");

/// Keyword arguments of `random`, `random_array`, `rand`.
struct random_options {
  /// Fraction of stored entries, in [0, 1]: exactly `round(density * m * n)` entries (Python's
  /// round: half to even), at distinct positions.
  double density = 0.01;
  /// Result format; SciPy's default "coo".
  std::string_view format = "coo";
  /// Value dtype (default float64). Floats: uniform in [0, 1); complex: uniform real and imaginary
  /// parts; integers: uniform in [iinfo.min, iinfo.max) (uint64: [0, 2^63 - 1), deviation); bool: all
  /// true (uniform values cast to bool, as SciPy).
  std::optional<cusci::dtype> dtype{};
  /// Seed of `cusci::random::default_rng`; none: a fresh nondeterministic seed.
  std::optional<std::uint64_t> seed{};
};
/// A random m x n sparse matrix: positions a sample without replacement of the m*n positions
/// (linear index r -> (r % m, r / m), Fortran order as SciPy), values as `o.dtype` says.
/// Deviation: cusci's generator (Philox) is not NumPy's PCG64, so positions and values differ from
/// SciPy's for the same seed; the distribution, count, dtype and format are SciPy's.
/// Synchronizes (the sample). For m*n >= 2^31 the positions are drawn by rounds of uniform integers
/// made unique (sorted order then), as SciPy does beyond int64; above density 1/2 the positions
/// left out are drawn that way instead (a few rounds at any density, density 1 included).
/// @throws cusci::value_error "density expected to be 0 <= density <= 1", negative m/n, m*n above
///         int64, an unknown format; cusci::type_error for float16; cusci::out_of_memory (SciPy's
///         MemoryError) when the sample does not fit on the device, before the draws.
/// SciPy: `scipy.sparse.random(m, n, density, format, dtype, rng)`.
spmatrix random(std::int64_t m, std::int64_t n, const random_options& o = {});
/// Same with a shape. SciPy: `scipy.sparse.random_array(shape, density=..., format=..., dtype=..., rng=...)`.
spmatrix random_array(shape2 shape, const random_options& o = {});
/// Same as `random`. SciPy: `scipy.sparse.rand(m, n, density, format, dtype, rng)`.
spmatrix rand(std::int64_t m, std::int64_t n, const random_options& o = {});

/// Kronecker product: block (i, j) is A[i, j] * B.
/// @return (Am*Bm, An*Bn), dtype result_type(A, B). With format "" or "bsr" and B at least half
///         full (2 * B.nnz >= Bm*Bn), a bsr_matrix with blocksize B.shape whose blocks are A's entries
///         times dense B (B's zeros stored, as SciPy); otherwise COO products of every pair of
///         entries (duplicates and explicit zeros of the inputs carried), converted to `format`
///         ("" -> coo). An empty A or B gives an empty float64 COO matrix (SciPy's quirk).
///         Asynchronous except for conversions (tocsr of A in the BSR path synchronizes).
/// @throws cusci::value_error for an unknown format, or a result shape Am*Bm or An*Bn beyond int64
///         (checked before any device work).
/// SciPy: `scipy.sparse.kron(A, B, format)`.
spmatrix kron(const spmatrix& A, const spmatrix& B, std::string_view format = "");
/// Kronecker sum kron(I_m, A) + kron(B, I_n) of square A (n x n) and B (m x m); dtype
/// result_type(A, B); format "" -> csr. Synchronizes (the sum).
/// @throws cusci::value_error "A is not square" / "B is not square".
/// SciPy: `scipy.sparse.kronsum(A, B, format)`.
spmatrix kronsum(const spmatrix& A, const spmatrix& B, std::string_view format = "");

/// A grid of blocks for `bmat` / `block_array`: rows of optional matrices (none: an empty block).
using block_grid = std::vector<std::vector<std::optional<spmatrix>>>;

/// Assembles a matrix from a 2-D grid of blocks. Every block of a block row has the same number
/// of rows, every block of a block column the same number of columns.
/// All blocks present and csr with format "" or "csr": stacked directly as csr (duplicates and
/// order kept); likewise all csc with "" or "csc" -> csc. Otherwise the blocks' COO entries are
/// concatenated with offsets (dtype: `dtype`, or result_type of the blocks; float64 when the grid
/// has no block) and converted to `format` ("" -> coo).
/// Synchronizes in the csr/csc paths with more than one block along the minor axis.
/// @throws cusci::value_error "blocks[0,:] has incompatible row dimensions. Got blocks[0,1].shape[0]
///         == 3, expected 2.", "blocks[:,0] has incompatible column dimensions. ...",
///         "incompatible dimensions for axis 1", "Mismatching dimensions along axis 0: ...",
///         "blocks must be 2-D" (ragged grid), an unknown format, block heights or widths adding up
///         past 2^63 - 1 ("array is too big", checked before any device work).
/// SciPy: `scipy.sparse.bmat(blocks, format, dtype)`.
spmatrix bmat(const block_grid& blocks, std::string_view format = "", std::optional<cusci::dtype> dtype = {});
/// Same as `bmat`. SciPy: `scipy.sparse.block_array(blocks, format=..., dtype=...)`.
spmatrix block_array(const block_grid& blocks, std::string_view format = "", std::optional<cusci::dtype> dtype = {});
/// Side by side: `bmat({blocks})`. SciPy: `scipy.sparse.hstack(blocks, format, dtype)`.
spmatrix hstack(const std::vector<spmatrix>& blocks, std::string_view format = "",
                std::optional<cusci::dtype> dtype = {});
/// On top of each other: `bmat({{b0}, {b1}, ...})`. SciPy: `scipy.sparse.vstack(blocks, format, dtype)`.
spmatrix vstack(const std::vector<spmatrix>& blocks, std::string_view format = "",
                std::optional<cusci::dtype> dtype = {});
/// Block-diagonal matrix of `mats` (COO concatenation with offsets; dtype result_type of the mats
/// or `dtype`; format "" -> coo). @throws cusci::value_error for an empty list ("need at least one
/// array to concatenate"), or dimensions adding up past 2^63 - 1 ("array is too big", checked before
/// any device work). SciPy: `scipy.sparse.block_diag(mats, format, dtype)` (sparse inputs).
spmatrix block_diag(const std::vector<spmatrix>& mats, std::string_view format = "",
                    std::optional<cusci::dtype> dtype = {});

/// Lower triangle: the stored entries (duplicates and explicit zeros kept) with col <= row + k,
/// as a COO matrix of A's shape and dtype converted to `format` ("" -> coo). Synchronizes. Any k:
/// k >= cols keeps every entry, k < -rows none.
/// @throws cusci::value_error (SciPy's OverflowError "Python integer ... out of bounds for int32")
///         for a k outside the int32 range when A's COO indices are int32, as SciPy's `A.row + k`.
/// SciPy: `scipy.sparse.tril(A, k, format)`.
spmatrix tril(const spmatrix& A, std::int64_t k = 0, std::string_view format = "");
/// Upper triangle: entries with col >= row + k. SciPy: `scipy.sparse.triu(A, k, format)`.
spmatrix triu(const spmatrix& A, std::int64_t k = 0, std::string_view format = "");

/// The nonzero entries of A: duplicates summed, explicit zeros removed, in row-major order.
struct find_result {
  ndarray row;   ///< [k] A's index dtype
  ndarray col;   ///< [k] A's index dtype
  ndarray data;  ///< [k] A's dtype
};
/// Synchronizes. SciPy: `scipy.sparse.find(A)` (returns the tuple (row, col, data)).
find_result find(const spmatrix& A);

// =====================================================================================================
// Arithmetic (SciPy's operators and methods of spmatrix)
// =====================================================================================================

/// Sum of two sparse matrices of one shape. Entries are `A + B` over the union of the patterns
/// (duplicates summed first), zero results dropped; sorted, canonical. dtype result_type(A, B)
/// (bool + bool is logical or). Format: csc when A is csc (or A dia and B csc), bsr of A's blocksize
/// when A is bsr (every block holding a nonzero result entry, zeros inside it stored), dia when both
/// are dia (deviation: cusci returns csr there; values equal), else csr.
/// Kernel: per row, a count pass of the merged sorted rows, an exclusive scan (CUB) and a fill pass.
/// Synchronizes (canonical checks, the result's entry count).
/// @throws cusci::value_error "inconsistent shapes".
/// SciPy: `A + B`.
spmatrix add(const spmatrix& A, const spmatrix& B);
/// Dense sum: the broadcast of `D` to A's shape plus A (duplicates summed); dtype result_type.
/// @throws cusci::value_error when D does not broadcast to A's shape. Asynchronous.
/// SciPy: `A + D` (np.matrix there; an ndarray here).
ndarray add(const spmatrix& A, const ndarray& D);
/// `A + s`: s == 0 gives a copy of A. @throws cusci::not_implemented_error "adding a nonzero scalar to
/// a sparse array is not supported". SciPy: `A + s`.
spmatrix add(const spmatrix& A, const scalar& s);
/// Difference (as `add`, bsr A included; bool - bool is logical xor, as SciPy's sparsetools).
/// SciPy: `A - B`.
spmatrix subtract(const spmatrix& A, const spmatrix& B);
/// Dense A - D / D - A. @throws cusci::type_error for bool - bool (NumPy). SciPy: `A - D`, `D - A`.
ndarray subtract(const spmatrix& A, const ndarray& D);
ndarray subtract(const ndarray& D, const spmatrix& A);
/// `A - s`: s == 0 gives a copy. @throws cusci::not_implemented_error otherwise. SciPy: `A - s`.
spmatrix subtract(const spmatrix& A, const scalar& s);

/// Every stored value times s (explicit zeros and duplicates kept), A's format; dtype NumPy's
/// `A.data * s` (weak scalar rules). Asynchronous. SciPy: `A * s` / `s * A`.
spmatrix multiply(const spmatrix& A, const scalar& s);
/// Elementwise product with a sparse matrix of the same shape: csr (csc when A is csc, bsr of A's
/// blocksize when A is bsr, as `add`) over the intersection, zeros dropped; B of shape (1, 1) scales A; A of shape (1, 1) scales B by A's sum.
/// Synchronizes. @throws cusci::value_error "inconsistent shapes (3, 4) and (2, 4)";
/// cusci::not_implemented_error for row/column broadcasting between sparse operands (SciPy: a
/// matrix product with a diagonal matrix; not provided).
/// SciPy: `A.multiply(B)`.
spmatrix multiply(const spmatrix& A, const spmatrix& B);
/// Elementwise product with a dense array of A's shape: a COO matrix with A's entries (duplicates
/// kept) times D at those positions (SciPy 1.18 returns sparse); a size-1 D scales A. dtype
/// result_type. Asynchronous. @throws cusci::value_error for another shape ("inconsistent shapes");
/// cusci::not_implemented_error for row/column broadcasting of D.
/// SciPy: `A.multiply(D)`.
spmatrix multiply(const spmatrix& A, const ndarray& D);

/// `A / s`: bool, integer, float32 and float64 matrices are cast to float64 (duplicates summed)
/// and multiplied by 1/s; complex matrices are multiplied by 1/s. A's format. Asynchronous.
/// Deviation: s == 0 gives inf/nan values (SciPy raises ZeroDivisionError for a Python 0).
/// SciPy: `A / s`.
spmatrix divide(const spmatrix& A, const scalar& s);
/// Elementwise A / B of sparse matrices: a DENSE array (SciPy returns np.matrix) of dtype
/// float64 for bool/integer/float A (complex A: A's dtype), NaN where both are zero (0/0), as
/// SciPy's `_divide_sparse`; complex quotients by sparsetools' formula (re, im of a * conj(b)) *
/// (1 / |b|^2), so a complex a / 0 is nan+nanj (NumPy's own division would give infinities), and a
/// real A over a complex B keeps the real part. Synchronizes. @throws cusci::value_error "inconsistent shapes".
/// SciPy: `A / B`.
ndarray divide(const spmatrix& A, const spmatrix& B);
/// A times 1/D elementwise: `multiply(A, 1 / D)` (sparse COO). SciPy: `A / D`.
spmatrix divide(const spmatrix& A, const ndarray& D);

/// Elementwise maximum with a sparse matrix of A's shape (csr, or csc when A is csc; zeros
/// dropped; NaN handling as SciPy's sparsetools: `a < b ? b : a`). Synchronizes.
/// @throws cusci::value_error "inconsistent shapes". SciPy: `A.maximum(B)`.
spmatrix maximum(const spmatrix& A, const spmatrix& B);
/// With a scalar: s > 0 or s NaN (np.maximum(0, s) nonzero; complex s ordered lexicographically)
/// gives the dense result made sparse again (A's format, SciPy warns); else
/// max(A.data, s) over the stored entries with zeros removed (csr/csc). Synchronizes.
/// SciPy: `A.maximum(s)`.
spmatrix maximum(const spmatrix& A, const scalar& s);
/// With a dense array: dense `np.maximum(A.todense(), D)`. SciPy: `A.maximum(D)`.
ndarray maximum(const spmatrix& A, const ndarray& D);
/// Minimum, as maximum (the scalar path densifies for s < 0 or NaN). SciPy: `A.minimum(...)`.
spmatrix minimum(const spmatrix& A, const spmatrix& B);
spmatrix minimum(const spmatrix& A, const scalar& s);
ndarray minimum(const spmatrix& A, const ndarray& D);

/// Elementwise power of the stored values (duplicates summed first, A's format), optionally cast
/// to `dtype` first; dtype NumPy's `data ** p` (a bool A with a weak int/bool p gives int8, as
/// np.power). Asynchronous except for the duplicate sum.
/// @throws cusci::not_implemented_error for p == 0 ("zero power is not supported as it would
///         densify the matrix."); cusci::value_error "Integers to negative integer powers are not
///         allowed." for integer data with a negative integer p.
/// SciPy: `A.power(p, dtype)`.
spmatrix power(const spmatrix& A, const scalar& p, std::optional<cusci::dtype> dtype = {});
/// |A| (duplicates summed; complex gives the real dtype), A's format. SciPy: `abs(A)`.
spmatrix abs(const spmatrix& A);
/// -A, A's format. @throws cusci::not_implemented_error "negating a boolean sparse array is not
/// supported". SciPy: `-A`.
spmatrix negative(const spmatrix& A);
/// Complex conjugate (a copy for real dtypes), A's format. SciPy: `A.conj()` / `A.conjugate()`.
spmatrix conj(const spmatrix& A);
/// Real / imaginary part of the stored values (real dtypes: the values / zeros of A's dtype),
/// A's format, explicit entries kept. SciPy: `A.real`, `A.imag`.
spmatrix real(const spmatrix& A);
spmatrix imag(const spmatrix& A);

/// Transpose. csr <-> csc sharing the arrays (no device work, as SciPy), coo with row and col
/// swapped (shared); dia and bsr through csr (deviation: SciPy keeps dia/bsr; values equal).
/// SciPy: `A.transpose()` / `A.T`.
spmatrix transpose(const spmatrix& A);
csc_matrix transpose(const csr_matrix& A);
csr_matrix transpose(const csc_matrix& A);
coo_matrix transpose(const coo_matrix& A);
/// Conjugate transpose. SciPy: `A.getH()` / `A.H` (spmatrix).
spmatrix conj_transpose(const spmatrix& A);

/// Comparison operators of SciPy (`==, !=, <, <=, >, >=`).
enum class compare_op { eq, ne, lt, le, gt, ge };
/// Sparse with sparse of the same shape: bool csr/csc (A's compressed format) holding the true
/// entries. For ==, <=, >= (true where both are zero) SciPy computes the negated comparison and
/// subtracts it from an all-true matrix: the result stores every true entry, as SciPy's.
/// Synchronizes. @throws cusci::value_error "inconsistent shapes" (deviation: SciPy returns the
/// Python bool False/True for == / != of different shapes).
/// SciPy: `A == B`, `A != B`, `A < B`, ...
spmatrix compare(const spmatrix& A, const spmatrix& B, compare_op op);
/// Sparse with a scalar: when `0 op s` is false, the stored entries satisfying it (csr/csc, A's
/// format for a NaN scalar); when true, the all-true matrix minus the negated comparison (SciPy's
/// path, with its SparseEfficiencyWarning). Synchronizes. SciPy: `A == s`, ...
spmatrix compare(const spmatrix& A, const scalar& s, compare_op op);
/// Sparse with dense: dense bool `op(A.todense(), D)` (broadcasting). SciPy: `A == D`, ...
ndarray compare(const spmatrix& A, const ndarray& D, compare_op op);

/// The matrix product of two sparse matrices. Defined by the products family (products.hpp).
/// SciPy: `A @ B` / `A * B` (spmatrix).
spmatrix dot(const spmatrix& A, const spmatrix& B);

// ----- operators (spmatrix and, through implicit conversion, every format class) ------------------

inline spmatrix operator+(const spmatrix& A, const spmatrix& B) { return add(A, B); }
inline ndarray operator+(const spmatrix& A, const ndarray& D) { return add(A, D); }
inline ndarray operator+(const ndarray& D, const spmatrix& A) { return add(A, D); }
inline spmatrix operator+(const spmatrix& A, const scalar& s) { return add(A, s); }
inline spmatrix operator+(const scalar& s, const spmatrix& A) { return add(A, s); }
inline spmatrix operator-(const spmatrix& A, const spmatrix& B) { return subtract(A, B); }
inline ndarray operator-(const spmatrix& A, const ndarray& D) { return subtract(A, D); }
inline ndarray operator-(const ndarray& D, const spmatrix& A) { return subtract(D, A); }
inline spmatrix operator-(const spmatrix& A, const scalar& s) { return subtract(A, s); }
inline spmatrix operator-(const spmatrix& A) { return negative(A); }
/// Matrix product (spmatrix semantics), not the elementwise one.
inline spmatrix operator*(const spmatrix& A, const spmatrix& B) { return dot(A, B); }
inline spmatrix operator*(const spmatrix& A, const scalar& s) { return multiply(A, s); }
inline spmatrix operator*(const scalar& s, const spmatrix& A) { return multiply(A, s); }
inline spmatrix operator/(const spmatrix& A, const scalar& s) { return divide(A, s); }
inline ndarray operator/(const spmatrix& A, const spmatrix& B) { return divide(A, B); }
inline spmatrix operator/(const spmatrix& A, const ndarray& D) { return divide(A, D); }
inline spmatrix operator==(const spmatrix& A, const spmatrix& B) { return compare(A, B, compare_op::eq); }
inline spmatrix operator!=(const spmatrix& A, const spmatrix& B) { return compare(A, B, compare_op::ne); }
inline spmatrix operator<(const spmatrix& A, const spmatrix& B) { return compare(A, B, compare_op::lt); }
inline spmatrix operator<=(const spmatrix& A, const spmatrix& B) { return compare(A, B, compare_op::le); }
inline spmatrix operator>(const spmatrix& A, const spmatrix& B) { return compare(A, B, compare_op::gt); }
inline spmatrix operator>=(const spmatrix& A, const spmatrix& B) { return compare(A, B, compare_op::ge); }
inline spmatrix operator==(const spmatrix& A, const scalar& s) { return compare(A, s, compare_op::eq); }
inline spmatrix operator!=(const spmatrix& A, const scalar& s) { return compare(A, s, compare_op::ne); }
inline spmatrix operator<(const spmatrix& A, const scalar& s) { return compare(A, s, compare_op::lt); }
inline spmatrix operator<=(const spmatrix& A, const scalar& s) { return compare(A, s, compare_op::le); }
inline spmatrix operator>(const spmatrix& A, const scalar& s) { return compare(A, s, compare_op::gt); }
inline spmatrix operator>=(const spmatrix& A, const scalar& s) { return compare(A, s, compare_op::ge); }
inline ndarray operator==(const spmatrix& A, const ndarray& D) { return compare(A, D, compare_op::eq); }
inline ndarray operator!=(const spmatrix& A, const ndarray& D) { return compare(A, D, compare_op::ne); }
inline ndarray operator<(const spmatrix& A, const ndarray& D) { return compare(A, D, compare_op::lt); }
inline ndarray operator<=(const spmatrix& A, const ndarray& D) { return compare(A, D, compare_op::le); }
inline ndarray operator>(const spmatrix& A, const ndarray& D) { return compare(A, D, compare_op::gt); }
inline ndarray operator>=(const spmatrix& A, const ndarray& D) { return compare(A, D, compare_op::ge); }

}  // namespace cusci::sparse
