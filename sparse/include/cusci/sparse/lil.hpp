#pragma once
/// @file lil.hpp
/// `lil_matrix`: SciPy's row-based List of Lists format, held in HOST memory for fast incremental
/// building, with conversions to the device formats of matrix.hpp.
///
/// Storage: per row, the sorted column indices of its entries and their values (SciPy's `A.rows[i]`
/// and `A.data[i]`), no duplicates. Values are stored in the matrix's dtype, exactly.
///
/// Value dtypes: bool, int8..int64, uint8..uint64, float32, float64, complex64, complex128; float16 is
/// rejected with cusci::type_error.
///
/// Where things run: every member is host code and needs no GPU, except the constructors from a
/// device matrix or a dense ndarray and the conversions to device formats / dense arrays, which copy
/// to or from the current device on its current stream (each says whether it synchronizes).
///
/// Copying a lil_matrix object copies its contents (value semantics); `copy()` does the same.
/// Concurrent const use is safe; non-const use needs exclusive access.
///
/// SciPy: `scipy.sparse.lil_matrix` (spmatrix flavour). Deviations: `A[i, j]` is `A(i, j)` /
/// `A.get(i, j)`, `A[i, j] = v` is `A.set(i, j, v)`, `A[i, :] = row` is `A.setrow(i, row)`; no other
/// slicing or fancy indexing (convert to CSR and use access.hpp); no arithmetic operators; `data()`
/// returns a copy (SciPy's object array is mutable in place); `format()` returns the string "lil".

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/sparse/sputils.hpp"

namespace cusci::sparse {

class dok_matrix;

/// A sparse matrix in List of Lists format, on the host (see the file comment).
/// SciPy: `scipy.sparse.lil_matrix`.
class lil_matrix {
 public:
  /// An empty (rows, cols) matrix of `dtype`: one empty list per row (host memory proportional to
  /// rows, checked against the host's memory before anything is allocated).
  /// @throws cusci::value_error "'shape' elements cannot be negative" or "array is too big";
  ///         cusci::out_of_memory when the row lists cannot fit in host memory; cusci::type_error for
  ///         float16. SciPy: `lil_matrix((M, N), dtype=dtype)`.
  explicit lil_matrix(shape2 shape, cusci::dtype dtype = cusci::dtype::float64);
  /// An empty (0, 0) float64 matrix.
  lil_matrix() : lil_matrix(shape2{0, 0}) {}
  /// The entries of a device matrix of any format, as SciPy's `S.tocsr().tolil()`: duplicates summed,
  /// rows sorted, explicit zeros kept; `dtype` casts (NumPy's unsafe casting, entries kept).
  /// Copies to the host: synchronizes. @throws cusci::type_error for float16.
  /// SciPy: `lil_matrix(S, dtype=dtype)`.
  explicit lil_matrix(const spmatrix& other, std::optional<cusci::dtype> dtype = {});
  /// The nonzeros of a dense 2-D (or 1-D: (1, n), as spmatrix) device array of any supported dtype;
  /// `dtype` casts first. Synchronizes. @throws cusci::value_error for a 0-d or >2-d array;
  /// cusci::type_error for float16. SciPy: `lil_matrix(D, dtype=dtype)`.
  explicit lil_matrix(const ndarray& dense, std::optional<cusci::dtype> dtype = {});
  /// From host triplets, as `coo_matrix((data, (row, col)), shape=shape).tolil()`: duplicates summed
  /// (integers wrap, bool: or), explicit zeros kept. Host only. Parameters and throws as
  /// dok_matrix's triplet constructor.
  lil_matrix(shape2 shape, const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
             const host_array& data, std::optional<cusci::dtype> dtype = {});

  /// (rows, cols). SciPy: `A.shape`.
  shape2 shape() const noexcept { return shape_; }
  /// Number of stored entries (explicit zeros included). SciPy: `A.nnz`.
  std::int64_t nnz() const noexcept { return nnz_; }
  /// Value dtype. SciPy: `A.dtype`.
  cusci::dtype dtype() const noexcept { return dtype_; }
  /// "lil". SciPy: `A.format`.
  std::string_view format() const noexcept { return "lil"; }
  /// "lil", as a compile-time constant.
  static constexpr std::string_view format_name() noexcept { return "lil"; }

  // --- element and row access (host) ------------------------------------------------------------

  /// The value at (i, j) as a strong scalar of dtype() (int64/uint64: exact weak integer scalars, as
  /// sparse::get); negative indices wrap.
  /// @throws cusci::index_error "cusci::sparse::lil_matrix::get: row index (5) out of range".
  /// SciPy: `A[i, j]`.
  scalar get(std::int64_t i, std::int64_t j) const;
  /// Same as get(i, j).
  scalar operator()(std::int64_t i, std::int64_t j) const { return get(i, j); }
  /// `A[i, j] = value`, converted to dtype() as SciPy's `A.dtype.type(value)` (a C++ integer outside
  /// an integer dtype's range: value_error, NumPy 2's OverflowError; a complex value for a real dtype:
  /// type_error; NaN or infinity for an integer dtype: value_error; strong scalars: NumPy's unsafe
  /// cast). Zero removes the entry (SciPy's lil_insert); otherwise inserted in column order or
  /// overwritten. Negative indices wrap. Host only.
  /// @throws cusci::index_error "row index (5) out of range" / "column index (-7) out of range".
  /// SciPy: `A[i, j] = value`.
  void set(std::int64_t i, std::int64_t j, const scalar& value);
  /// `A[i, :] = values`: every position of row i is assigned, so the row becomes the nonzeros of
  /// `values` ([cols], or [1, cols], or a single element broadcast; any supported dtype, cast with
  /// NumPy's unsafe casting). Negative i wraps. Host only.
  /// @throws cusci::index_error for i out of range; cusci::value_error "shape mismatch in assignment"
  ///         for another length; cusci::type_error for float16. SciPy: `A[i, :] = values`.
  void setrow(std::int64_t i, const host_array& values);
  /// Row i as a (1, cols) lil_matrix (a copy). Negative i wraps.
  /// @throws cusci::index_error "row index out of bounds" (SciPy's text). SciPy: `A.getrow(i)`.
  lil_matrix getrow(std::int64_t i) const;
  /// Column j as a (rows, 1) lil_matrix. Negative j wraps. @throws cusci::index_error.
  /// SciPy: `A.getcol(j)`.
  lil_matrix getcol(std::int64_t j) const;
  /// The sorted column indices of every row (shared, read-only). SciPy: `A.rows`.
  const std::vector<std::vector<std::int64_t>>& rows() const noexcept { return rows_; }
  /// The values of every row, in the order of rows() (a copy). SciPy: `A.data`.
  std::vector<std::vector<scalar>> data() const;
  /// The values of row i as a 1-D host array of dtype() (exact, bulk access). Negative i wraps.
  /// @throws cusci::index_error for i out of range.
  host_array row_data(std::int64_t i) const;
  /// Number of stored values that are not zero. SciPy: `A.count_nonzero()`.
  std::int64_t count_nonzero() const;

  // --- shape and copies (host) -----------------------------------------------------------------

  /// Sets the shape in place: rows beyond the new row count dropped, new rows empty, columns at or
  /// beyond the new column count removed. @throws cusci::value_error for a negative dimension;
  /// out_of_memory / "array is too big" for a row count that cannot be held. SciPy: `A.resize(shape)`.
  void resize(shape2 shape);
  /// The transpose (rows sorted). Host only. SciPy: `A.transpose()` / `A.T`.
  lil_matrix transpose() const;
  lil_matrix T() const { return transpose(); }
  /// A deep copy. SciPy: `A.copy()`.
  lil_matrix copy() const { return *this; }
  /// The values cast to `t` (NumPy's unsafe casting; entries kept even where they become zero, as
  /// SciPy's astype through CSR). Always an independent matrix. @throws cusci::type_error for
  /// float16. SciPy: `A.astype(t)`.
  lil_matrix astype(cusci::dtype t, bool copy = true) const;

  // --- conversions -----------------------------------------------------------------------------

  /// CSR on the current device, SciPy's `A.tocsr()` arrays: the rows concatenated on the host
  /// (sorted, canonical: has_canonical_format() true) and uploaded, one copy per array; index dtype
  /// int32 unless a dimension or nnz exceeds 2^31 - 1. Waits for the upload, then asynchronous. @throws cusci::out_of_memory.
  csr_matrix tocsr(bool copy = false) const;
  /// CSC: tocsr() then the device CSR -> CSC conversion (sorted). Synchronizes once when nnz >= 17
  /// (see csr_matrix::tocsc). SciPy: `A.tocsc()`.
  csc_matrix tocsc(bool copy = false) const;
  /// COO: tocsr().tocoo() (row-major order, as SciPy). Waits for the upload, then asynchronous. SciPy: `A.tocoo()`.
  coo_matrix tocoo(bool copy = false) const;
  /// Dense [rows, cols] of dtype() on the current device: tocsr().toarray(ord). Waits for the upload, then asynchronous.
  /// @throws cusci::value_error "array is too big"; out_of_memory. SciPy: `A.toarray(order)`.
  ndarray toarray(cusci::order ord = cusci::order::C) const;
  /// Same as toarray(ord). SciPy: `A.todense()` (an ndarray, not np.matrix).
  ndarray todense(cusci::order ord = cusci::order::C) const { return toarray(ord); }
  /// The device format `f` (through tocsr()). For "dok" / "lil" use todok() / tolil().
  /// SciPy: `A.asformat(format)`.
  spmatrix asformat(sparse::format f, bool copy = false) const;
  /// DOK with the same entries, keys in row-major order (explicit zeros kept). Host only.
  /// SciPy: `A.todok()`.
  dok_matrix todok(bool copy = false) const;
  /// *this (a copy). SciPy: `A.tolil()`.
  lil_matrix tolil(bool /*copy*/ = false) const { return *this; }

 private:
  friend class dok_matrix;
  struct no_init {};
  lil_matrix(no_init, shape2 shape, cusci::dtype dtype);
  void fill_from_csr(const std::vector<std::int64_t>& indptr, const std::vector<std::int64_t>& indices,
                     const std::byte* vals);

  shape2 shape_{0, 0};
  cusci::dtype dtype_ = cusci::dtype::float64;
  std::size_t item_ = 8;
  std::int64_t nnz_ = 0;
  std::vector<std::vector<std::int64_t>> rows_;
  std::vector<std::vector<std::byte>> vals_;  // per row, itemsize() bytes per entry
};

template <>
struct is_sparse<lil_matrix> : std::true_type {};
/// SciPy's `isspmatrix` is true for a lil_matrix (it is one of SciPy's spmatrix classes).
template <>
struct is_spmatrix<lil_matrix> : std::true_type {};

/// SciPy's `lil_array` flavour of the same format. cusci's sparse formats follow spmatrix semantics
/// (matrix.hpp) and `lil_matrix` provides no arithmetic operators, so every member behaves as
/// `scipy.sparse.lil_array`'s on a 2-D array: this is the same class. Deviation: the 1-D
/// `lil_array` shapes of SciPy 1.18 are not provided (a 1-D array is a [1, n] matrix here).
using lil_array = lil_matrix;

}  // namespace cusci::sparse

#include "cusci/sparse/dok.hpp"
