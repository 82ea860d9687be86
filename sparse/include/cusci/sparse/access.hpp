#pragma once
/// @file sparse/access.hpp
/// Indexing, slicing and assignment of sparse matrices (`A[i, j]`, `A[1:5:2, :]`, `A[[1, 3], :]`,
/// 1-D and 2-D boolean masks, `getrow`/`getcol`), `reshape`/`resize`, and SciPy's `.npz` sparse files
/// (`save_npz`/`load_npz`).
///
/// Which formats can be indexed, as SciPy 1.18's spmatrix classes: csr_matrix and csc_matrix.
/// coo_matrix and dia_matrix are "not subscriptable" in SciPy (cusci::type_error here), bsr_matrix
/// raises NotImplementedError (cusci::not_implemented_error). `getrow`/`getcol`, `reshape`, `resize`,
/// `save_npz`/`load_npz` take every format.
///
/// Index conventions (Python's): a negative integer counts from the end; a slice is
/// `cusci::slice{start, stop, step}` with Python's defaults and clipping; an integer array (host
/// `std::vector<std::int64_t>` or a 1-D integer ndarray) selects rows/columns in the given order,
/// repeats allowed, negative entries wrapped; a boolean mask (host `std::vector<bool>` or a 1-D bool
/// ndarray) must have the length of the axis and selects where true. Index arrays given as device
/// ndarrays are copied to the host for validation (synchronizes).
///
/// Stream behaviour: everything is enqueued on the current stream; functions that read a count or a
/// value on the host synchronize (each says so).

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse {

/// One axis of an index: an integer, a slice, an integer array, or a boolean mask (see the file
/// comment). `cusci::slice{}` is SciPy's `:`.
using axis_index = std::variant<std::int64_t, cusci::slice, std::vector<std::int64_t>, std::vector<bool>, ndarray>;

// --- element access ------------------------------------------------------------------------------

/// The value at (i, j), duplicates summed (bool: any), as a strong scalar of A's dtype. Negative
/// indices wrap. Synchronizes.
/// @param A  csr_matrix or csc_matrix.
/// @throws cusci::index_error "cusci::sparse::get: row index (5) out of range" (SciPy's "index (5)
///         out of range"); cusci::type_error for coo/dia ("'coo_matrix' object is not
///         subscriptable"); cusci::not_implemented_error for bsr.
/// SciPy: `A[i, j]`.
scalar get(const spmatrix& A, std::int64_t i, std::int64_t j);

/// Paired selection `A[rows, cols]`: element k is A[rows[k], cols[k]] (duplicates summed).
/// @param rows, cols  [n] integer indices (host vectors or 1-D integer ndarrays), negative wrapped;
///                    equal lengths (or one of length 1, broadcast).
/// @return [1, n] dense ndarray of A's dtype (SciPy returns np.matrix of shape (1, n)). Synchronizes
///         (validates the indices on the host).
/// @throws cusci::index_error "index (7) out of range"; cusci::value_error for lengths that do not
///         broadcast; type_error / not_implemented_error as get.
/// SciPy: `A[[1, 2], [3, 4]]` (spmatrix).
ndarray get(const spmatrix& A, const axis_index& rows, const axis_index& cols);

/// Boolean-mask selection `A[mask]`: the values of A at the true positions of a 2-D bool mask of A's
/// shape, in row-major (C) order of the mask, duplicates of A summed (bool: logical or); explicit
/// zeros read as zero.
/// @param A     csr_matrix or csc_matrix, any value dtype, int32/int64 indices, duplicates and
///              unsorted indices allowed (a canonical A is searched by binary search, another by a
///              scan of the row/column).
/// @param mask  bool ndarray of shape A.shape(), any layout, on the device.
/// @return [1, n] dense ndarray of A's dtype, n the number of true entries (SciPy returns np.matrix
///         of shape (1, n); deviation: for n == 0 SciPy returns an empty (1, 0) csr_matrix, here an
///         empty [1, 0] ndarray). Synchronizes (counts the true entries).
/// @throws cusci::index_error "cusci::sparse::get: bool index 0 has shape (3, 4) instead of (3, 3)"
///         for a 2-D mask of another shape (SciPy's words, which name A's shape first), "too many
///         indices" for a mask of more than 2 dimensions; cusci::type_error for a non-bool mask
///         (SciPy treats a 2-D integer array as row indices, not supported here) and, as get, for
///         coo/dia A; cusci::value_error for a mask of fewer than 2 dimensions (a 1-D mask selects
///         rows: `getitem(A, mask, cusci::slice{})`); cusci::not_implemented_error for bsr A.
/// SciPy: `A[mask]` for csr_matrix / csc_matrix with a 2-D boolean ndarray.
ndarray get(const spmatrix& A, const ndarray& mask);
/// Selection with a sparse boolean mask: the positions are `mask.nonzero()` (stored entries that are
/// true; explicit false entries select nothing, a position stored twice is selected twice), in
/// SciPy's order: the mask's storage order for csr, coo and bsr masks (row-major for a canonical
/// csr; block by block, row-major within a block, for bsr), row-major for a csc mask (a stable sort
/// by row of the storage order) and for a dia mask (through its CSR form, as SciPy). Values as
/// `get(A, mask)` for a dense mask. Synchronizes.
/// @param mask  bool spmatrix of any format, shape A.shape().
/// @throws cusci::index_error "Indexing with sparse matrices is not supported except boolean
///         indexing where matrix and index are equal shapes." for a non-bool mask (SciPy's message),
///         "bool index 0 has shape ..." for another shape; type_error / not_implemented_error as get.
/// SciPy: `A[mask]` with a sparse boolean matrix.
ndarray get(const spmatrix& A, const spmatrix& mask);

/// Outer selection `A[rows, cols]` (slices, integer arrays, masks, integers; an integer keeps its
/// axis as length 1, as SciPy's spmatrix). Returns A's format (csr for csr, csc for csc) with A's
/// value and index dtypes; entries keep A's order within a row (csr) / column (csc); duplicates and
/// explicit zeros are kept. Both axes integer arrays (or masks) is SciPy's *paired* selection: use
/// `get(A, rows, cols)` (value_error here). Synchronizes (learns the result's nnz).
/// @throws cusci::index_error for an index out of range or a mask of the wrong length ("bool index
///         0 has shape (5,) instead of (2,)"); cusci::value_error for a zero slice step, two integer
///         arrays, or two integers (use get); type_error / not_implemented_error as get.
/// SciPy: `A[rows, cols]` for csr_matrix / csc_matrix.
spmatrix getitem(const spmatrix& A, const axis_index& rows, const axis_index& cols);

/// Row i as a 1 x cols csr_matrix (every format, as SciPy). Synchronizes.
/// @throws cusci::index_error "index (7) out of range". SciPy: `A.getrow(i)`.
csr_matrix getrow(const spmatrix& A, std::int64_t i);
/// Column j as a rows x 1 matrix in SciPy's format: csc for csc, bsr with blocksize (R, 1) for a bsr
/// with blocksize (R, C), csr for csr/coo/dia. Synchronizes.
/// @throws cusci::index_error "index (-7) out of range". SciPy: `A.getcol(j)`.
spmatrix getcol(const spmatrix& A, std::int64_t j);

// --- assignment ---------------------------------------------------------------------------------

/// How an assignment to positions that are not stored is handled.
enum class new_entries {
  /// Insert them (SciPy's behaviour): the matrix is rebuilt as a canonical matrix holding the old
  /// entries and the new ones (the last value wins for a position given twice; zeros are stored
  /// explicitly, as SciPy). SciPy's SparseEfficiencyWarning is issued once per call through
  /// cusci::warn (category "SparseEfficiencyWarning", message "Changing the sparsity structure of
  /// a csr_matrix is expensive. lil and dok are more efficient.", csc_matrix for CSC).
  /// Synchronizes.
  insert,
  /// Throw cusci::value_error when a position is not stored (nothing is changed).
  raise,
};

/// `A[i, j] = value` (value converted to A's dtype, NumPy's unsafe casting). An existing entry is
/// written in place on the device; a matrix with duplicates is first summed (SciPy does the same).
/// Synchronizes. @throws as get; cusci::value_error with new_entries::raise and a missing entry.
/// SciPy: `A[i, j] = x`.
void setitem(csr_matrix& A, std::int64_t i, std::int64_t j, const scalar& value,
             new_entries mode = new_entries::insert);
void setitem(csc_matrix& A, std::int64_t i, std::int64_t j, const scalar& value,
             new_entries mode = new_entries::insert);
/// The same for an spmatrix holding a csr/csc matrix (type_error / not_implemented_error otherwise).
void setitem(spmatrix& A, std::int64_t i, std::int64_t j, const scalar& value,
             new_entries mode = new_entries::insert);

/// `A[rows, cols] = values` for outer selections (slices, arrays, masks, integers) or, when both
/// are integer arrays, paired positions. `values` is a scalar or a dense array broadcast to the
/// selection's shape ([len(rows), len(cols)] outer; [n] paired), converted to A's dtype. Positions
/// given twice take the last value (NumPy's order). Synchronizes.
/// @throws as getitem; cusci::value_error when values does not broadcast ("shape mismatch in
///         assignment").
/// SciPy: `A[rows, cols] = x` (dense x).
void setitem(csr_matrix& A, const axis_index& rows, const axis_index& cols, const ndarray& values,
             new_entries mode = new_entries::insert);
void setitem(csc_matrix& A, const axis_index& rows, const axis_index& cols, const ndarray& values,
             new_entries mode = new_entries::insert);
void setitem(spmatrix& A, const axis_index& rows, const axis_index& cols, const ndarray& values,
             new_entries mode = new_entries::insert);
void setitem(csr_matrix& A, const axis_index& rows, const axis_index& cols, const scalar& value,
             new_entries mode = new_entries::insert);
void setitem(csc_matrix& A, const axis_index& rows, const axis_index& cols, const scalar& value,
             new_entries mode = new_entries::insert);
void setitem(spmatrix& A, const axis_index& rows, const axis_index& cols, const scalar& value,
             new_entries mode = new_entries::insert);

/// `A[mask] = values` for a 2-D boolean mask (dense bool ndarray, or a bool spmatrix whose true
/// entries are selected, as `get(A, mask)`): the true positions, in the order `get` reads them, take
/// the values. `values` is converted to A's dtype (NumPy's unsafe casting) and shaped as SciPy does:
/// an array whose squeezed shape is (n,) (() when n == 1) is used in C order; otherwise it must
/// broadcast to (n,) (a 0-d or size-1 1-D array; (1, 1) does not broadcast for n != 1, as in
/// SciPy). n == 0 changes nothing. A position given twice (a sparse mask storing it twice) takes
/// the last value. Stored positions are written on the device; missing positions are inserted as
/// with `setitem(A, rows, cols, values)` (the matrix is rebuilt canonical), with SciPy's
/// SparseEfficiencyWarning ("Changing the sparsity structure of a csr_matrix is expensive. lil and
/// dok are more efficient.") issued through cusci::warn; new_entries::raise throws instead.
/// A with duplicates is summed first (SciPy does the same). Synchronizes.
/// @throws as `get(A, mask)` (mask checks come first); cusci::value_error when values does not
///         broadcast ("shape mismatch in assignment: values of shape (5,) do not broadcast to the 6
///         selected positions"; SciPy raises NumPy's broadcast ValueError) or with
///         new_entries::raise and a missing entry.
/// SciPy: `A[mask] = x` (dense x) for csr_matrix / csc_matrix.
void setitem(csr_matrix& A, const ndarray& mask, const ndarray& values, new_entries mode = new_entries::insert);
void setitem(csc_matrix& A, const ndarray& mask, const ndarray& values, new_entries mode = new_entries::insert);
void setitem(spmatrix& A, const ndarray& mask, const ndarray& values, new_entries mode = new_entries::insert);
void setitem(csr_matrix& A, const ndarray& mask, const scalar& value, new_entries mode = new_entries::insert);
void setitem(csc_matrix& A, const ndarray& mask, const scalar& value, new_entries mode = new_entries::insert);
void setitem(spmatrix& A, const ndarray& mask, const scalar& value, new_entries mode = new_entries::insert);
void setitem(csr_matrix& A, const spmatrix& mask, const ndarray& values, new_entries mode = new_entries::insert);
void setitem(csc_matrix& A, const spmatrix& mask, const ndarray& values, new_entries mode = new_entries::insert);
void setitem(spmatrix& A, const spmatrix& mask, const ndarray& values, new_entries mode = new_entries::insert);
void setitem(csr_matrix& A, const spmatrix& mask, const scalar& value, new_entries mode = new_entries::insert);
void setitem(csc_matrix& A, const spmatrix& mask, const scalar& value, new_entries mode = new_entries::insert);
void setitem(spmatrix& A, const spmatrix& mask, const scalar& value, new_entries mode = new_entries::insert);

// --- shape --------------------------------------------------------------------------------------

/// A with a new shape (same number of elements; one entry may be -1), entries moved to the same
/// positions in the C (row-major) or F (column-major) flattening. Same shape: A itself (a deep copy
/// with `copy`). Otherwise a coo_matrix, as SciPy (whatever A's format); index dtype by SciPy's rule
/// for the new shape (int32 unless a new dimension needs int64). Asynchronous (COO input), else as A.tocoo().
/// @throws cusci::value_error "cannot reshape array of size 30 into shape (4, 4)", more than one -1,
///         another negative entry.
/// SciPy: `A.reshape(shape, order=order, copy=copy)` (spmatrix).
spmatrix reshape(const spmatrix& A, shape2 shape, cusci::order ord = cusci::order::C, bool copy = false);

/// Resizes A in place to `shape`: entries outside the new shape are dropped, new rows/columns are
/// empty (SciPy's `resize`, not NumPy's). Rebinds A's arrays (other handles keep the old matrix).
/// csr/csc/coo: asynchronous except that the number of kept entries is read (synchronizes).
/// dia: data truncated to the new column count, values that an added row would expose cleared, as
/// SciPy. bsr: the shape must stay a multiple of the blocksize ("shape must be divisible into
/// (2, 3) blocks. Got (4, 5)", as SciPy), through CSR.
/// @throws cusci::value_error for a negative dimension.
/// SciPy: `A.resize(shape)`.
void resize(csr_matrix& A, shape2 shape);
void resize(csc_matrix& A, shape2 shape);
void resize(coo_matrix& A, shape2 shape);
void resize(dia_matrix& A, shape2 shape);
void resize(bsr_matrix& A, shape2 shape);
void resize(spmatrix& A, shape2 shape);

// --- .npz files ----------------------------------------------------------------------------------

/// The arrays of a sparse `.npz` file in host memory, SciPy's member names. Unused members are
/// empty (size 0) host arrays.
struct npz_sparse_host {
  sparse::format fmt = sparse::format::csr;
  shape2 shape{0, 0};
  /// csr/csc/coo: [nnz]; dia: [n_diags, L]; bsr: [nnzb, R, C].
  host_array data;
  /// csr/csc/bsr.
  host_array indices, indptr;
  /// coo.
  host_array row, col;
  /// dia.
  host_array offsets;
  /// True when the file says `_is_array` (written by SciPy for sparse arrays, csr_array, ...).
  bool is_array = false;
};

/// Reads a sparse `.npz` file into host memory (no device needed). Accepts what
/// `scipy.sparse.save_npz` writes (stored or deflated members, `format` as a NumPy bytes (|S3) or
/// unicode (<U3) scalar, `_is_array`), any member order.
/// @throws cusci::error when the file cannot be opened or read; cusci::value_error naming the file
///         for a malformed archive, a missing member ("The file x.npz does not contain a sparse
///         array or matrix." when `format` is missing, as SciPy), an unknown format
///         ("Unknown format \"lil_matrix\""), a coords member of an n-D COO file; cusci::type_error
///         for a member dtype cusci lacks.
/// SciPy: the reading half of `scipy.sparse.load_npz`.
npz_sparse_host load_npz_host(const std::string& path);
/// Writes host sparse arrays as SciPy writes them: members in SciPy's order (indices, indptr /
/// offsets / row, col; then format (|S3), shape (int64 [2]), data; `_is_array` (0-d bool) when
/// `m.is_array`), stored or deflated (zlib level 6, as Python's zipfile). Host only.
/// @throws cusci::error when the file cannot be written.
/// SciPy: `scipy.sparse.save_npz(file, matrix, compressed)` (the path is used as given: no `.npz`
/// suffix is added).
void save_npz_host(const std::string& path, const npz_sparse_host& m, bool compressed = true);

/// Saves a sparse matrix (any format) to `path` in SciPy's `.npz` layout (scipy.sparse.load_npz
/// returns the same matrix, as a *_matrix class). Copies the arrays to the host (synchronizes).
/// @throws as save_npz_host. SciPy: `scipy.sparse.save_npz(file, matrix, compressed=True)`.
void save_npz(const std::string& path, const spmatrix& matrix, bool compressed = true);
/// Loads a sparse matrix saved by `scipy.sparse.save_npz` or `save_npz`, in the file's format,
/// through the format's checked constructor (`csr_matrix((data, indices, indptr), shape=shape)`,
/// ...). The copies to the device are asynchronous; the index check synchronizes.
/// @throws as load_npz_host and the constructors (value_error for inconsistent arrays).
/// SciPy: `scipy.sparse.load_npz(file)` (deviation: sparse-array files load as matrices too; an
/// n-D coo_array file is a value_error).
spmatrix load_npz(const std::string& path);

}  // namespace cusci::sparse
