#pragma once
/// @file matrix.hpp
/// Sparse matrices in COO and CSR format on the device (SciPy's `scipy.sparse.coo_matrix` and
/// `scipy.sparse.csr_matrix`), with float32/float64 values and int32/int64 indices chosen at run time.
///
/// Stream behaviour: work is enqueued on the current stream of the current device. Constructors that
/// validate their arguments on the device, `coo_matrix::tocsr()` (which must learn the number of
/// stored entries after duplicates are summed) and nothing else synchronize; each function says so.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::sparse {

/// Shape of a sparse matrix: (rows, columns).
using shape2 = std::array<std::int64_t, 2>;

/// The index dtype for indices up to `maxval`: int32 when `maxval` <= 2^31 - 1, else int64. Host only.
/// SciPy: `scipy.sparse._sputils.get_index_dtype(maxval=maxval)` (private in SciPy; the `arrays` and
/// `check_contents` arguments are not supported).
dtype get_index_dtype(std::int64_t maxval) noexcept;

class csr_matrix;

namespace detail {
struct spmv_cache;
}  // namespace detail

/// A sparse matrix in coordinate format (`scipy.sparse.coo_matrix((data, (row, col)), shape)`).
/// Duplicate entries are kept as given; `tocsr()` sums them. The arrays are shared with copies of the
/// matrix (copying a coo_matrix copies handles, as ndarray does).
class coo_matrix {
 public:
  /// Builds a matrix from triplets: entry k is `data[k]` at (`row[k]`, `col[k]`). Duplicates and
  /// explicit zeros are kept; any order is accepted.
  /// @param data  [nnz] float32 or float64 (any layout; copied to contiguous storage when strided).
  /// @param row   [nnz] any integer dtype, values in [0, shape[0]).
  /// @param col   [nnz] any integer dtype, values in [0, shape[1]).
  /// @param shape (rows, columns), both >= 0.
  /// @param index_dtype int32 or int64 for the stored indices; default: SciPy's choice, int32 unless
  ///        nnz or a dimension exceeds 2^31 - 1.
  /// Synchronizes (the indices are checked on the device) when nnz > 0.
  /// @throws cusci::value_error for arrays that are not 1-D or differ in length, a negative
  ///         dimension, an index out of range (SciPy's messages: "row index exceeds matrix
  ///         dimensions", "negative column index found", ...), or int32 requested for indices that
  ///         do not fit; cusci::type_error for non-float data or non-integer indices.
  /// SciPy: `scipy.sparse.coo_matrix((data, (row, col)), shape=shape)`. Deviations: `shape` is
  /// required; integer and complex values are not supported.
  coo_matrix(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape,
             std::optional<cusci::dtype> index_dtype = {});

  shape2 shape() const noexcept { return shape_; }
  /// Number of stored entries, duplicates and explicit zeros included (SciPy's `nnz`).
  std::int64_t nnz() const noexcept { return data_.size(); }
  /// Value dtype (float32 or float64).
  cusci::dtype dtype() const noexcept { return data_.dtype(); }
  /// Index dtype (int32 or int64).
  cusci::dtype index_dtype() const noexcept { return row_.dtype(); }
  /// [nnz] values (shared, not copied).
  const ndarray& data() const noexcept { return data_; }
  /// [nnz] row indices (shared).
  const ndarray& row() const noexcept { return row_; }
  /// [nnz] column indices (shared).
  const ndarray& col() const noexcept { return col_; }

  /// CSR form with duplicates summed and column indices sorted within each row (SciPy's canonical
  /// format; explicit zeros are kept, as SciPy's `tocsr` does). Sorts (row, col) on the device
  /// (radix sort on one 64-bit key) and reduces by key.
  /// Synchronizes: reads the number of distinct entries.
  /// @throws cusci::not_implemented_error when bits(rows-1) + bits(cols-1) > 64.
  /// SciPy: `coo_matrix.tocsr()`.
  csr_matrix tocsr() const;
  /// Returns *this (shares the arrays). SciPy: `coo_matrix.tocoo(copy=False)`.
  coo_matrix tocoo() const { return *this; }
  /// Dense [rows, cols] C-order array of dtype(), duplicates summed. Asynchronous.
  /// @throws cusci::out_of_memory when the pool cannot provide rows * cols elements.
  /// SciPy: `coo_matrix.toarray()`.
  ndarray toarray() const;
  /// Matrix product with a dense vector or matrix, as `tocsr().dot(x)` (see csr_matrix::dot):
  /// x [cols] -> [rows], x [cols, k] -> [rows, k], dtype NumPy's promotion of dtype() and x.dtype().
  /// Synchronizes (through tocsr()).
  /// @throws as tocsr() and csr_matrix::dot (value_error "dimension mismatch", type_error for
  ///         complex x, value_error for x on another device); cusci::out_of_memory.
  /// SciPy: `coo_matrix.dot(x)` / `A @ x` / `A * x` (spmatrix semantics). Deviation: a 0-d x is an error.
  ndarray dot(const ndarray& x) const;
  ndarray operator*(const ndarray& x) const { return dot(x); }

  /// A coo_matrix over arrays the caller guarantees valid (1-D, contiguous, same length, indices of
  /// one dtype in range). For cusci's own conversions and readers; nothing is checked on the device.
  static coo_matrix from_valid(ndarray data, ndarray row, ndarray col, shape2 shape);

 private:
  coo_matrix() = default;
  ndarray data_, row_, col_;
  shape2 shape_{0, 0};
};

/// A sparse matrix in compressed sparse row format (`scipy.sparse.csr_matrix((data, indices, indptr),
/// shape)`). Copies share the arrays and the cached cuSPARSE descriptors and workspace.
class csr_matrix {
 public:
  /// Builds a matrix from CSR arrays: the entries of row i are `data[indptr[i]:indptr[i+1]]` in columns
  /// `indices[indptr[i]:indptr[i+1]]`. As SciPy, only the first indptr[-1] entries of data/indices are
  /// used when they are longer.
  /// @param data    [>= nnz] float32 or float64.
  /// @param indices [len(data)] any integer dtype, values in [0, shape[1]).
  /// @param indptr  [shape[0] + 1] any integer dtype, non-decreasing, indptr[0] == 0,
  ///                indptr[-1] <= len(data).
  /// @param shape   (rows, columns), both >= 0.
  /// @param index_dtype int32 or int64 for the stored indices; default as SciPy (int32 when it fits).
  /// @param check   when true (default) the full SciPy `check_format(full_check=True)` runs on the
  ///                device: indptr monotone, indices in range. Synchronizes. With false only the
  ///                host-side checks run and indptr[0], indptr[-1] are still read (synchronizes).
  /// @throws cusci::value_error with SciPy's wording ("index pointer size (5) should be (4)",
  ///         "index pointer values must form a non-decreasing sequence", "column index values must be
  ///         < 7", ...); cusci::type_error for non-float data or non-integer index arrays.
  /// SciPy: `scipy.sparse.csr_matrix((data, indices, indptr), shape=shape)` followed by
  /// `check_format(full_check=True)`. Deviation: `shape` is required; only float values.
  csr_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr, shape2 shape,
             std::optional<cusci::dtype> index_dtype = {}, bool check = true);

  shape2 shape() const noexcept { return shape_; }
  /// Number of stored entries (explicit zeros included).
  std::int64_t nnz() const noexcept { return data_.size(); }
  cusci::dtype dtype() const noexcept { return data_.dtype(); }
  cusci::dtype index_dtype() const noexcept { return indices_.dtype(); }
  /// [nnz] values (shared).
  const ndarray& data() const noexcept { return data_; }
  /// [nnz] column indices (shared).
  const ndarray& indices() const noexcept { return indices_; }
  /// [rows + 1] row pointers (shared).
  const ndarray& indptr() const noexcept { return indptr_; }

  /// Returns *this. SciPy: `csr_matrix.tocsr(copy=False)`.
  csr_matrix tocsr() const { return *this; }
  /// COO form (data and column indices shared; row indices expanded on the device). Asynchronous.
  /// @throws cusci::out_of_memory when the pool cannot provide the [nnz] row indices.
  /// SciPy: `csr_matrix.tocoo(copy=False)`.
  coo_matrix tocoo() const;
  /// Dense [rows, cols] C-order array of dtype(), duplicates summed. Asynchronous.
  /// @throws cusci::out_of_memory when the pool cannot provide rows * cols elements.
  /// SciPy: `csr_matrix.toarray()`.
  ndarray toarray() const;
  /// [min(rows, cols)] main diagonal, duplicates summed, dtype(). Asynchronous.
  /// @throws cusci::out_of_memory when the pool cannot provide the result.
  /// SciPy: `csr_matrix.diagonal()` (k = 0 only).
  ndarray diagonal() const;

  /// Matrix product with a dense vector or matrix: x [cols] -> [rows], x [cols, k] -> [rows, k]
  /// (C order). The result dtype is NumPy's promotion of dtype() and x.dtype() (float32 @ float64 ->
  /// float64; integer or bool x is converted). x of any layout (copied when not contiguous).
  /// Kernel: for a 1-D x of A's dtype when A has at most 10 entries a row on average, cusci's own
  /// CSR-stream SpMV (Greathouse & Daga, SC 2014; no workspace, nothing cached); otherwise cuSPARSE
  /// SpMV (1-D x) or SpMM (2-D x). The cuSPARSE descriptors and workspace are cached in the matrix per
  /// (stream, k), up to 4 plans, so a repeated product is one cuSPARSE call (SpMV runs
  /// cusparseSpMV_preprocess once per plan); mixed precision (float32 A, float64 x) uses an uncached
  /// float64 copy of the values. Asynchronous.
  /// @throws cusci::value_error "dimension mismatch" when x.shape[0] != cols, when x is not 1-D/2-D,
  ///         or when x is on another device; cusci::type_error for complex x; cusci::out_of_memory.
  /// SciPy: `csr_matrix.dot(x)` / `A @ x` / `A * x` (spmatrix semantics: matrix product).
  /// Deviation: a 0-d x (scalar multiplication in SciPy) is a value_error.
  ndarray dot(const ndarray& x) const;
  ndarray operator*(const ndarray& x) const { return dot(x); }

  /// A csr_matrix over arrays the caller guarantees valid (contiguous, canonical or not, indices of
  /// one dtype in range, len(indptr) == rows + 1, indptr[-1] == len(data)). Nothing is checked.
  static csr_matrix from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape);

 private:
  csr_matrix() = default;
  ndarray data_, indices_, indptr_;
  shape2 shape_{0, 0};
  std::shared_ptr<detail::spmv_cache> cache_;
};

}  // namespace cusci::sparse
