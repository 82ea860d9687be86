#pragma once
/// @file matrix.hpp
/// Sparse matrices on the device in the five formats of `scipy.sparse` — `coo_matrix`, `csr_matrix`,
/// `csc_matrix`, `dia_matrix`, `bsr_matrix` — and `spmatrix`, a value holding any one of them (what a
/// SciPy function with a `format=` argument returns).
///
/// ## How C++ spells SciPy's sparse semantics (read this first)
///
/// cusci follows SciPy's *spmatrix* semantics (`scipy.sparse.csr_matrix`, not `csr_array`), in every
/// function of cusci::sparse:
///   - `A * x`, `A * B`, `A.dot(x)`, `sparse::dot(A, B)` are the MATRIX product (SciPy's `A @ B`);
///   - the elementwise product is `sparse::multiply(A, B)` and the elementwise power
///     `sparse::power(A, p)` (SciPy's `A.multiply(B)` and `A.power(p)`); `A * 2.0` and `A / 2.0` scale
///     every stored value;
///   - `sparse::matrix_power(A, n)` is the matrix power (SciPy's `A ** n` for spmatrix);
///   - matrices are always two-dimensional; a 1-D dense input of length n becomes (1, n), as spmatrix
///     does; reductions over an axis return 2-D results where SciPy's spmatrix returns np.matrix.
/// Dense results are `cusci::ndarray` (never np.matrix): `todense()` returns the same 2-D ndarray as
/// `toarray()`.
///
/// ## Values, indices, sharing
///
/// Value dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64,
/// complex64, complex128 (SciPy's supported set; float16 is rejected with cusci::type_error, SciPy's
/// message "scipy.sparse does not support dtype float16..."; SciPy raises ValueError).
/// Index dtypes: int32 or int64, chosen by SciPy's `get_index_dtype` rule (int32 unless nnz or a
/// dimension exceeds 2^31 - 1) or requested through `index_dtype`. All index arrays of one matrix have
/// the same dtype. Every array a matrix holds is contiguous and on the current device.
///
/// Copying a matrix object copies handles: the copy shares the arrays (as Python's `B = A` shares the
/// object). `copy()` gives an independent matrix. The structural in-place operations
/// (`sum_duplicates`, `sort_indices`, `eliminate_zeros`, `prune`) rebind *this object's* arrays to new
/// arrays and leave other handles unchanged; writing values through `data()` is seen by every handle.
///
/// ## Where the rest of scipy.sparse lives
///
/// Operations other than construction, conversion and format maintenance are free functions in the
/// headers of cusci::sparse (all included by `cusci/sparse/sparse.hpp`), taking `const spmatrix&`
/// (every matrix class converts implicitly) or a concrete class: `sparse::eye`, `sparse::diags`,
/// `sparse::kron`, `sparse::transpose`, `sparse::multiply`, operators `+ - * /`, comparisons
/// (construct.hpp); `sparse::dot`, reductions (products.hpp); `sparse::linalg::norm`,
/// `sparse::linalg::matrix_power` (also `sparse::matrix_power`), `cg` (linalg.hpp); `sparse::getrow`,
/// slicing, `sparse::reshape`, `save_npz`/`load_npz` (access.hpp); Matrix Market I/O (io.hpp). The few members declared here but defined elsewhere say so.
///
/// Stream behaviour: work is enqueued on the current stream of the current device. Each function says
/// whether it synchronizes; validation of index arrays on construction and anything that learns a
/// size on the device (duplicate summation, zero elimination, from dense) synchronize.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"

namespace cusci::sparse {

/// Shape of a sparse matrix: (rows, columns). Also the block size (R, C) of a BSR matrix.
using shape2 = std::array<std::int64_t, 2>;

/// The storage formats. SciPy: the strings of `A.format` / `A.asformat(...)` / `format=`.
enum class format { csr, csc, coo, dia, bsr };

/// Parses SciPy's format strings "csr", "csc", "coo", "dia", "bsr" (exact, lower case). Host only.
/// @throws cusci::not_implemented_error for SciPy's "lil" and "dok" (not provided by cusci);
///         cusci::value_error "Format xyz is unknown." for any other string.
/// SciPy: the `format` argument of `asformat`, `eye`, `diags`, `random`, `kron`, `hstack`, ...
sparse::format format_from_string(std::string_view s);
/// SciPy's string for f ("csr", ...). Host only.
std::string_view to_string(sparse::format f) noexcept;

/// The index dtype for indices up to `maxval`: int32 when `maxval` <= 2^31 - 1, else int64. Host only.
/// SciPy: `scipy.sparse._sputils.get_index_dtype(maxval=maxval)` (private in SciPy; the `arrays` and
/// `check_contents` arguments are not supported).
dtype get_index_dtype(std::int64_t maxval) noexcept;

/// Whether `t` is a value dtype of cusci::sparse (every dtype but float16). Host only.
/// SciPy: `t in scipy.sparse._sputils.supported_dtypes`.
bool is_supported_dtype(cusci::dtype t) noexcept;

/// Keyword arguments of the matrix constructors (SciPy's `shape=`, `dtype=`, `copy=`), plus the
/// index dtype and whether the index arrays are validated on the device.
struct matrix_options {
  /// (rows, columns); none: inferred where SciPy infers it (from a dense array; from triplets as
  /// max index + 1; from compressed arrays as (len(indptr) - 1, max index + 1)). Required for DIA.
  std::optional<shape2> shape{};
  /// Value dtype of the result (the input's values are cast, NumPy's unsafe casting); none: the
  /// dtype of the input values. float16 is rejected (type_error).
  std::optional<cusci::dtype> dtype{};
  /// true: the matrix owns fresh copies of every given array; false: contiguous arrays of the
  /// right dtypes are shared with the caller (SciPy's `copy=False`).
  bool copy = false;
  /// int32 or int64 for the stored indices; none: SciPy's choice (int32 unless nnz or a dimension
  /// exceeds 2^31 - 1). int32 requested for indices that do not fit is a value_error.
  std::optional<cusci::dtype> index_dtype{};
  /// true (default): the full `check_format(full_check=true)` runs on construction from index arrays
  /// (every index in range, indptr non-decreasing; synchronizes). false: only the host-side checks
  /// (array lengths, indptr ends: still synchronizes to read them); the caller guarantees the rest.
  /// Deviation: SciPy's constructors run `check_format(full_check=False)`; cusci checks fully by
  /// default so that a malformed matrix never reaches a kernel.
  bool check = true;
};

/// Keyword arguments of the BSR constructors: matrix_options plus SciPy's `blocksize=`.
struct bsr_options {
  std::optional<shape2> shape{};
  std::optional<cusci::dtype> dtype{};
  bool copy = false;
  std::optional<cusci::dtype> index_dtype{};
  bool check = true;
  /// (R, C), both >= 1 and dividing the shape; none: from the data array ([nnzb, R, C]) for
  /// compressed input, else SciPy's `estimate_blocksize` choice (see csr_matrix::tobsr).
  std::optional<shape2> blocksize{};
};

/// The two compressed formats: CSR (major axis = rows) and CSC (major axis = columns).
enum class compressed_kind { csr, csc };

template <class Derived, sparse::format F>
class matrix_base;
template <compressed_kind K>
class compressed_matrix;

class coo_matrix;
/// A sparse matrix in compressed sparse row format (see compressed_matrix). SciPy: `scipy.sparse.csr_matrix`.
using csr_matrix = compressed_matrix<compressed_kind::csr>;
/// A sparse matrix in compressed sparse column format (see compressed_matrix). SciPy: `scipy.sparse.csc_matrix`.
using csc_matrix = compressed_matrix<compressed_kind::csc>;
class dia_matrix;
class bsr_matrix;
class spmatrix;

namespace detail {
struct spmv_cache;
}  // namespace detail

// ===================================================================================================
// Members common to every format, documented once (repeated in a format's class, without comment
// unless the format changes their meaning, where their implementation is the format's own):
//
//   tocsr(copy) / tocsc(copy) / tocoo(copy) / todia(copy) / tobsr(blocksize, copy)
//       conversions with SciPy's results (same stored entries, same order rules: tocsr/tocsc/tobsr from
//       COO sum duplicates and sort; from CSR/CSC they keep duplicates and explicit zeros as SciPy
//       does). With copy=false the result may share arrays with *this (the same-format call returns
//       *this). Synchronize where a count must be learned on the device (each says so); csr.tocsc()
//       and csc.tocsr() synchronize once (when nnz >= 33).
//   toarray(order)                                        dense [rows, cols] of dtype(), duplicates
//       summed, C or F order. Asynchronous. @throws cusci::out_of_memory. SciPy: `A.toarray(order)`;
//       deviation: no `out=`.
//   astype(dtype, copy)                                   values cast (NumPy unsafe casting), indices
//       shared. SciPy: `A.astype(t, casting='unsafe', copy=True)`.
//   copy()                                                deep copy. SciPy: `A.copy()`.
//   has_sorted_indices(), has_canonical_format()          computed on the device on first use and
//       remembered (synchronize then); set_has_... record a known answer (SciPy's attribute setters).
//   sum_duplicates(), sort_indices(), eliminate_zeros(), prune()     SciPy's.
//   check_format(full_check)                              SciPy's check_format.
//   dot(x)                                                matrix product with a dense vector/matrix
//       (see compressed_matrix::dot). Defined by the products family.
// ===================================================================================================

/// The members every format shares with one implementation: shape, value array, dtypes, format, the
/// dense form's second name, the generic conversion and the product operator. `Derived` is the format's
/// class (CRTP); F its format. Not used directly: every format class derives from it.
template <class Derived, sparse::format F>
class matrix_base {
 public:
  /// (rows, columns). Host only, never synchronizes.
  shape2 shape() const noexcept { return shape_; }
  /// Stored values, duplicates and explicit zeros included (== len(data); DIA: see dia_matrix::nnz).
  /// Host only, never synchronizes. SciPy: `A.nnz`.
  std::int64_t nnz() const noexcept { return data_.size(); }
  /// Value dtype. Host only. SciPy: `A.dtype`.
  cusci::dtype dtype() const noexcept { return data_.dtype(); }
  /// The dtype of the stored index arrays (int32 or int64). Host only.
  cusci::dtype index_dtype() const noexcept {
    if constexpr (F == sparse::format::coo) return self().row().dtype();
    else if constexpr (F == sparse::format::dia) return self().offsets().dtype();
    else return self().indices().dtype();
  }
  /// The storage format. Host only. SciPy: `A.format`.
  sparse::format format() const noexcept { return F; }
  /// The stored values (shared, contiguous; the shape of each format's class comment).
  const ndarray& data() const noexcept { return data_; }

  /// Same as toarray(ord). SciPy: `A.todense(order)`; deviation: returns an ndarray, not np.matrix.
  ndarray todense(cusci::order ord = cusci::order::C) const { return self().toarray(ord); }
  /// This matrix in format f (`spmatrix(*this).asformat(f, copy)`). SciPy: `A.asformat(format, copy)`.
  spmatrix asformat(sparse::format f, bool copy = false) const;
  /// A copy with the entries sorted (see sort_indices; COO: a deep copy, the other formats share the
  /// arrays until the sort rebinds them). SciPy: `A.sorted_indices()`.
  Derived sorted_indices() const {
    Derived a = F == sparse::format::coo ? self().copy() : self();
    a.sort_indices();
    return a;
  }
  /// Matrix product with a dense vector/matrix: `dot(x)`. SciPy: `A @ x` / `A * x` (spmatrix semantics).
  ndarray operator*(const ndarray& x) const { return self().dot(x); }

 protected:
  matrix_base() = default;
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }

  ndarray data_;
  shape2 shape_{0, 0};
};

/// A sparse matrix in coordinate format: entry k is `data[k]` at (`row[k]`, `col[k]`); duplicates and
/// explicit zeros are kept as given, in any order.
/// SciPy: `scipy.sparse.coo_matrix`.
class coo_matrix : public matrix_base<coo_matrix, sparse::format::coo> {
 public:
  /// An empty (rows, cols) matrix (nnz 0), value dtype `o.dtype` or float64. Asynchronous.
  /// @throws cusci::value_error for a negative dimension; type_error for float16.
  /// SciPy: `coo_matrix((M, N), dtype=...)`.
  explicit coo_matrix(shape2 shape, const matrix_options& o = {});
  /// The nonzero entries of a dense array, in C (row-major) order; has_canonical_format() is true.
  /// @param dense [rows, cols] or [n] (-> (1, n)), any supported dtype and layout.
  /// `o.shape`, if given, must equal the array's (2-D) shape. Synchronizes (counts the nonzeros).
  /// @throws cusci::value_error for a 0-d or >2-d array or a mismatching shape; cusci::type_error for
  ///         float16.
  /// SciPy: `coo_matrix(D)`.
  explicit coo_matrix(const ndarray& dense, const matrix_options& o = {});
  /// From triplets (`data`, (`row`, `col`)); duplicates kept; has_canonical_format() false.
  /// @param data [nnz] any supported dtype, any layout.
  /// @param row_col ([nnz], [nnz]) any integer dtypes, row in [0, rows), col in [0, cols).
  /// shape: `o.shape`, or (max(row) + 1, max(col) + 1) (0 for nnz 0). Synchronizes when nnz > 0
  /// (checks the indices, and reads their maxima when the shape is inferred).
  /// @throws cusci::value_error "row, column, and data array must all be the same length", "row index
  ///         exceeds matrix dimensions", "negative column index found", ...; cusci::type_error for
  ///         non-integer indices or float16 data.
  /// SciPy: `coo_matrix((data, (row, col)), shape=..., dtype=..., copy=...)`.
  coo_matrix(const ndarray& data, const std::pair<ndarray, ndarray>& row_col, const matrix_options& o = {});
  /// Same as `coo_matrix(data, {row, col}, {.shape = shape, .index_dtype = index_dtype})`.
  coo_matrix(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape,
             std::optional<cusci::dtype> index_dtype = {});
  /// A COO form of any sparse matrix (`other.tocoo()`, then `o.dtype` / `o.copy` / `o.index_dtype`
  /// applied; `o.shape` must equal other's shape). SciPy: `coo_matrix(S)`.
  explicit coo_matrix(const spmatrix& other, const matrix_options& o = {});

  /// [nnz] row indices, [nnz] column indices (shared, contiguous). data(): [nnz] values; nnz()
  /// counts duplicates and explicit zeros.
  const ndarray& row() const noexcept { return row_; }
  const ndarray& col() const noexcept { return col_; }

  /// True when the entries are sorted by (row, col) with no duplicates. As SciPy, a flag: false for
  /// a matrix built from triplets until sum_duplicates() runs; never computed on the device.
  bool has_canonical_format() const noexcept { return canonical_ > 0; }
  void set_has_canonical_format(bool v) noexcept { canonical_ = v ? 1 : 0; }
  /// Whether the entries are sorted by (row, col) (duplicates allowed). Computed on the device the
  /// first time (synchronizes). Not in SciPy's coo_matrix.
  bool has_sorted_indices() const;
  /// Sorts the entries by (row, col) and sums duplicates (explicit zeros kept). Synchronizes.
  /// SciPy: `coo_matrix.sum_duplicates()`.
  void sum_duplicates();
  /// Sorts the entries by (row, col), stably, keeping duplicates. Asynchronous. Not in SciPy's coo.
  void sort_indices();
  /// Removes stored zeros. Synchronizes. SciPy: `coo_matrix.eliminate_zeros()`.
  void eliminate_zeros();
  /// No-op (COO arrays have no slack). Not in SciPy's coo_matrix.
  void prune() noexcept {}
  /// Checks lengths, 1-D-ness, index dtypes, and (full_check) every index in range. Synchronizes
  /// when nnz > 0. @throws cusci::value_error with SciPy's wording.
  /// SciPy: `coo_matrix._check()` (coo has no public check_format).
  void check_format(bool full_check = true) const;

  csr_matrix tocsr(bool copy = false) const;
  csc_matrix tocsc(bool copy = false) const;
  coo_matrix tocoo(bool copy = false) const;
  dia_matrix todia(bool copy = false) const;
  bsr_matrix tobsr(std::optional<shape2> blocksize = {}, bool copy = false) const;
  ndarray toarray(cusci::order ord = cusci::order::C) const;
  coo_matrix astype(cusci::dtype t, bool copy = true) const;
  coo_matrix copy() const;

  /// Matrix product with a dense vector or matrix, as `tocsr().dot(x)` (see csr_matrix::dot).
  /// Synchronizes (through tocsr()). Defined by the products family (sparse/src/spmv.cpp and
  /// products_*.cu). SciPy: `A @ x` / `A * x` (spmatrix semantics).
  ndarray dot(const ndarray& x) const;

  /// A coo_matrix over arrays the caller guarantees valid (1-D, contiguous, same length, indices of
  /// one dtype in range, supported value dtype). For cusci's own conversions and readers; nothing is
  /// checked. `canonical`: the entries are known sorted by (row, col) without duplicates.
  static coo_matrix from_valid(ndarray data, ndarray row, ndarray col, shape2 shape, bool canonical = false);

 private:
  coo_matrix() = default;
  ndarray row_, col_;
  std::int8_t canonical_ = 0;      // SciPy's flag
  mutable std::int8_t sorted_ = -1;  // -1 unknown
};

/// A sparse matrix in a compressed format: `csr_matrix` (K = csr: the entries of row i are
/// `data[indptr[i]:indptr[i+1]]` in columns `indices[indptr[i]:indptr[i+1]]`) or `csc_matrix`
/// (K = csc: the entries of column j are `data[indptr[j]:indptr[j+1]]` in rows
/// `indices[indptr[j]:indptr[j+1]]`). The members below are written for CSR; for CSC exchange rows and
/// columns ("row index values must be < m"). Copies share the arrays and the cached cuSPARSE
/// descriptors/workspace of products. Instantiated by cusci for both kinds (users write csr_matrix
/// and csc_matrix).
/// SciPy: `scipy.sparse.csr_matrix`, `scipy.sparse.csc_matrix`.
template <compressed_kind K>
class compressed_matrix
    : public matrix_base<compressed_matrix<K>, K == compressed_kind::csr ? sparse::format::csr : sparse::format::csc> {
  using base_type =
      matrix_base<compressed_matrix<K>, K == compressed_kind::csr ? sparse::format::csr : sparse::format::csc>;

 public:
  /// An empty (rows, cols) matrix. Asynchronous. SciPy: `csr_matrix((M, N), dtype=...)`.
  explicit compressed_matrix(shape2 shape, const matrix_options& o = {});
  /// From a dense [rows, cols] (or [n] -> (1, n)) array of any supported dtype and layout: its
  /// nonzeros, canonical. Synchronizes. SciPy: `csr_matrix(D)`.
  explicit compressed_matrix(const ndarray& dense, const matrix_options& o = {});
  /// From triplets, as SciPy: through COO, duplicates summed, canonical. Synchronizes.
  /// SciPy: `csr_matrix((data, (row, col)), shape=...)`.
  compressed_matrix(const ndarray& data, const std::pair<ndarray, ndarray>& row_col, const matrix_options& o = {});
  /// From compressed arrays. As SciPy, only the first indptr[-1] entries of data/indices are kept.
  /// @param data    [>= nnz] any supported dtype.
  /// @param indices [len(data)] any integer dtype, values in [0, cols) (CSC: row indices in [0, rows)).
  /// @param indptr  [rows + 1] (CSC: [cols + 1]) any integer dtype, non-decreasing, indptr[0] == 0,
  ///                indptr[-1] <= len(data).
  /// shape: `o.shape` or (len(indptr) - 1, max(indices) + 1) (CSC: (max(indices) + 1, len(indptr) - 1)).
  /// Synchronizes (reads indptr's ends; with o.check the full check).
  /// @throws cusci::value_error with SciPy's wording ("index pointer size (5) should be (4)", "index
  ///         pointer values must form a non-decreasing sequence", "column index values must be < 7",
  ///         ...); cusci::type_error for non-integer index arrays or float16 data.
  /// SciPy: `csr_matrix((data, indices, indptr), shape=..., dtype=..., copy=...)`.
  compressed_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr, const matrix_options& o = {});
  /// CSR only. Same as `csr_matrix(data, indices, indptr, {.shape = shape, .index_dtype = index_dtype,
  /// .check = check})`.
  compressed_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr, shape2 shape,
                    std::optional<cusci::dtype> index_dtype = {}, bool check = true)
    requires(K == compressed_kind::csr);
  /// A CSR (CSC) form of any sparse matrix. SciPy: `csr_matrix(S)`.
  explicit compressed_matrix(const spmatrix& other, const matrix_options& o = {});

  /// [nnz] column indices (CSC: row indices), [rows + 1] row pointers (CSC: [cols + 1] column
  /// pointers) (shared, contiguous). data(): [nnz] values; nnz() == indptr[-1].
  const ndarray& indices() const noexcept { return indices_; }
  const ndarray& indptr() const noexcept { return indptr_; }

  bool has_sorted_indices() const;
  void set_has_sorted_indices(bool v) noexcept;
  /// Sorted indices and no duplicate within a row. SciPy: `csr_matrix.has_canonical_format`.
  bool has_canonical_format() const;
  void set_has_canonical_format(bool v) noexcept;
  /// Sorts each row and sums duplicates. Synchronizes unless already canonical.
  void sum_duplicates();
  /// Sorts the column indices of each row (stable; duplicates kept). Asynchronous.
  void sort_indices();
  /// Removes stored zeros. Synchronizes.
  void eliminate_zeros();
  /// Trims data/indices to indptr[-1] (a no-op for matrices cusci builds). Host only.
  void prune();
  /// SciPy's check_format: host checks of the array shapes, indptr length and ends; with full_check
  /// every index in range and indptr non-decreasing. Synchronizes.
  /// @throws cusci::value_error with SciPy's wording.
  void check_format(bool full_check = true) const;

  /// The same format (csr.tocsr(), csc.tocsc()): returns *this (copy=false) or a deep copy.
  csr_matrix tocsr(bool copy = false) const;
  csc_matrix tocsc(bool copy = false) const;
  /// COO form (data and indices shared unless copy; major indices expanded). Asynchronous.
  coo_matrix tocoo(bool copy = false) const;
  dia_matrix todia(bool copy = false) const;
  bsr_matrix tobsr(std::optional<shape2> blocksize = {}, bool copy = false) const;
  ndarray toarray(cusci::order ord = cusci::order::C) const;
  compressed_matrix astype(cusci::dtype t, bool copy = true) const;
  compressed_matrix copy() const;

  /// CSR only. [min(rows, cols)] main diagonal, duplicates summed, dtype(), every value dtype.
  /// Asynchronous. Other offsets and formats: `sparse::diagonal(A, k)` (products.hpp).
  /// SciPy: `csr_matrix.diagonal()` (k = 0 only).
  ndarray diagonal() const
    requires(K == compressed_kind::csr);

  /// Matrix product with a dense vector or matrix: x [cols] -> [rows], x [cols, k] -> [rows, k]
  /// (C order). The result dtype is NumPy's promotion of dtype() and x.dtype().
  /// Kernel: for a 1-D x of A's dtype when A has at most 10 entries a row on average, cusci's own
  /// CSR-stream SpMV (Greathouse & Daga, SC 2014); otherwise cuSPARSE SpMV (1-D x) or SpMM (2-D x),
  /// descriptors and workspace cached in the matrix per (stream, k), up to 4 plans. Asynchronous.
  /// Defined by the products family (sparse/src/products/spmv.cpp).
  /// @throws cusci::value_error "dimension mismatch" when x.shape[0] != cols, when x is not 1-D/2-D,
  ///         or when x is on another device; cusci::type_error for an unsupported dtype;
  ///         cusci::out_of_memory.
  /// SciPy: `csr_matrix.dot(x)` / `A @ x` / `A * x` (spmatrix semantics: matrix product).
  /// Deviation: a 0-d x (scalar multiplication in SciPy) is a value_error.
  ndarray dot(const ndarray& x) const;

  /// A matrix over arrays the caller guarantees valid (contiguous, indices of one dtype in range,
  /// len(indptr) == rows + 1 (CSC: cols + 1), indptr[0] == 0, indptr[-1] == len(data) == len(indices),
  /// supported value dtype). Nothing is checked. `canonical`: known sorted without duplicates (else
  /// computed lazily).
  static compressed_matrix from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape,
                                      bool canonical = false);

  /// The products family's cache of cuSPARSE descriptors of this matrix (shared by copies).
  const std::shared_ptr<detail::spmv_cache>& spmv_cache() const noexcept { return cache_; }

 private:
  compressed_matrix() = default;
  void rebind(ndarray data, ndarray indices, ndarray indptr, int canonical);
  using base_type::data_;
  using base_type::shape_;
  ndarray indices_, indptr_;
  std::shared_ptr<detail::spmv_cache> cache_;
  mutable std::int8_t sorted_ = -1, canonical_ = -1;  // -1 unknown
};

/// A sparse matrix in diagonal format: diagonal k (offset `offsets[k]`) stores
/// `data[k, j] = A[j - offsets[k], j]` for the columns j where that row exists (SciPy's layout:
/// column-aligned; the other entries of data[k, :] are ignored).
/// SciPy: `scipy.sparse.dia_matrix`.
class dia_matrix : public matrix_base<dia_matrix, sparse::format::dia> {
 public:
  explicit dia_matrix(shape2 shape, const matrix_options& o = {});
  /// From a dense array: one diagonal per offset with a nonzero, offsets ascending. Synchronizes.
  explicit dia_matrix(const ndarray& dense, const matrix_options& o = {});
  /// From (data, offsets). `o.shape` is required.
  /// @param data    [n_diags, L] (or [L] -> [1, L]) any supported dtype.
  /// @param offsets [n_diags] (or 0-d) any integer dtype, distinct. Read to the host (synchronizes).
  /// @throws cusci::value_error "expected a shape argument", "offsets array must have rank 1",
  ///         "number of diagonals (2) does not match the number of offsets (3)", "offset array
  ///         contains duplicate values"; cusci::type_error for non-integer offsets or float16 data.
  /// SciPy: `dia_matrix((data, offsets), shape=(M, N))`.
  dia_matrix(const ndarray& data, const ndarray& offsets, const matrix_options& o = {});
  explicit dia_matrix(const spmatrix& other, const matrix_options& o = {});

  /// As SciPy: the number of positions of the stored diagonals that lie inside the matrix (and
  /// within data's width), zeros included. Host only.
  std::int64_t nnz() const noexcept;
  /// [n_diags] diagonal offsets (index_dtype(): int32 unless a dimension needs int64; data():
  /// [n_diags, L] values, C-contiguous) on the device, and a host copy.
  const ndarray& offsets() const noexcept { return offsets_; }
  const std::vector<std::int64_t>& offsets_host() const noexcept { return offsets_host_; }

  /// Offsets ascending. Host only. Not in SciPy's dia_matrix.
  bool has_sorted_indices() const noexcept;
  /// Same as has_sorted_indices() (offsets are distinct by construction).
  bool has_canonical_format() const noexcept { return has_sorted_indices(); }
  /// Sorts the diagonals by offset. Asynchronous.
  void sort_indices();
  /// Same as sort_indices() (no duplicates can exist).
  void sum_duplicates() { sort_indices(); }
  /// Drops diagonals whose in-matrix values are all zero. Synchronizes. Not in SciPy's dia_matrix.
  void eliminate_zeros();
  /// No-op. Not in SciPy's dia_matrix.
  void prune() noexcept {}
  /// Checks data 2-D, offsets 1-D, matching counts and distinct offsets. Host only.
  void check_format(bool full_check = true) const;

  csr_matrix tocsr(bool copy = false) const;
  csc_matrix tocsc(bool copy = false) const;
  coo_matrix tocoo(bool copy = false) const;
  dia_matrix todia(bool copy = false) const;
  bsr_matrix tobsr(std::optional<shape2> blocksize = {}, bool copy = false) const;
  ndarray toarray(cusci::order ord = cusci::order::C) const;
  dia_matrix astype(cusci::dtype t, bool copy = true) const;
  dia_matrix copy() const;

  ndarray dot(const ndarray& x) const;

  /// Over arrays the caller guarantees valid: data [n_diags, L] C-contiguous, offsets [n_diags]
  /// (int32/int64) distinct, `offsets_host` equal to offsets.
  static dia_matrix from_valid(ndarray data, ndarray offsets, std::vector<std::int64_t> offsets_host, shape2 shape);

 private:
  dia_matrix() = default;
  ndarray offsets_;
  std::vector<std::int64_t> offsets_host_;
};

/// A sparse matrix in block compressed row format with dense R x C blocks: block row I holds blocks
/// `data[indptr[I]:indptr[I+1]]` ([R, C] each) at block columns `indices[indptr[I]:indptr[I+1]]`.
/// SciPy: `scipy.sparse.bsr_matrix`.
class bsr_matrix : public matrix_base<bsr_matrix, sparse::format::bsr> {
 public:
  /// Empty; `o.blocksize` default (1, 1). SciPy: `bsr_matrix((M, N), blocksize=...)`.
  explicit bsr_matrix(shape2 shape, const bsr_options& o = {});
  /// From a dense array through CSR (`csr_matrix(dense).tobsr(blocksize)`). Synchronizes.
  explicit bsr_matrix(const ndarray& dense, const bsr_options& o = {});
  /// From triplets through COO (duplicates summed). Synchronizes.
  bsr_matrix(const ndarray& data, const std::pair<ndarray, ndarray>& row_col, const bsr_options& o = {});
  /// From block-compressed arrays.
  /// @param data    [>= nnzb, R, C] any supported dtype.
  /// @param indices [len(data)] block column indices in [0, cols / C).
  /// @param indptr  [rows / R + 1] non-decreasing block row pointers.
  /// shape: `o.shape` or ((len(indptr) - 1) * R, (max(indices) + 1) * C). Synchronizes.
  /// @throws cusci::value_error with SciPy's wording ("data should be 3-D", "Invalid shape",
  ///         "inconsistent blocksize", "column index values must be < 3", ...).
  /// SciPy: `bsr_matrix((data, indices, indptr), shape=..., blocksize=...)`.
  bsr_matrix(const ndarray& data, const ndarray& indices, const ndarray& indptr, const bsr_options& o = {});
  explicit bsr_matrix(const spmatrix& other, const bsr_options& o = {});

  /// Stored blocks (len(indices)). nnz(): stored values, nnz_blocks * R * C (SciPy's `nnz`).
  std::int64_t nnz_blocks() const noexcept { return indices_.size(); }
  /// (R, C).
  shape2 blocksize() const noexcept { return blocksize_; }
  /// [nnzb] block column indices, [rows / R + 1] block row pointers. data(): [nnzb, R, C] blocks.
  const ndarray& indices() const noexcept { return indices_; }
  const ndarray& indptr() const noexcept { return indptr_; }

  bool has_sorted_indices() const;
  void set_has_sorted_indices(bool v) noexcept;
  bool has_canonical_format() const;
  void set_has_canonical_format(bool v) noexcept;
  /// Sorts each block row by block column and sums duplicate blocks. Synchronizes.
  void sum_duplicates();
  void sort_indices();
  /// Removes blocks that are entirely zero. Synchronizes.
  void eliminate_zeros();
  void prune();
  void check_format(bool full_check = true) const;

  csr_matrix tocsr(bool copy = false) const;
  csc_matrix tocsc(bool copy = false) const;
  coo_matrix tocoo(bool copy = false) const;
  dia_matrix todia(bool copy = false) const;
  /// Same blocksize (or none): *this / copy; another blocksize: through CSR.
  bsr_matrix tobsr(std::optional<shape2> blocksize = {}, bool copy = false) const;
  ndarray toarray(cusci::order ord = cusci::order::C) const;
  bsr_matrix astype(cusci::dtype t, bool copy = true) const;
  bsr_matrix copy() const;

  ndarray dot(const ndarray& x) const;

  /// Over arrays the caller guarantees valid: data [nnzb, R, C] C-contiguous, indices [nnzb] in range,
  /// indptr [rows / R + 1], R and C dividing the shape.
  static bsr_matrix from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape, bool canonical = false);
  const std::shared_ptr<detail::spmv_cache>& spmv_cache() const noexcept { return cache_; }

 private:
  bsr_matrix() = default;
  void rebind(ndarray data, ndarray indices, ndarray indptr, int canonical);
  ndarray indices_, indptr_;
  shape2 blocksize_{1, 1};
  std::shared_ptr<detail::spmv_cache> cache_;
  mutable std::int8_t sorted_ = -1, canonical_ = -1;
};

/// Any sparse matrix: one of the five formats, held by value (std::variant). Every matrix class
/// converts to it implicitly; functions with SciPy's `format=` argument return it. Members forward to
/// the held matrix; `get<csr_matrix>()` gives it back.
/// SciPy: the common base `scipy.sparse.spmatrix` (`issparse(A)` is true for every spmatrix).
class spmatrix {
 public:
  using variant_type = std::variant<csr_matrix, csc_matrix, coo_matrix, dia_matrix, bsr_matrix>;

  spmatrix(csr_matrix a);  // NOLINT: implicit, as any SciPy sparse matrix is an spmatrix
  spmatrix(csc_matrix a);  // NOLINT
  spmatrix(coo_matrix a);  // NOLINT
  spmatrix(dia_matrix a);  // NOLINT
  spmatrix(bsr_matrix a);  // NOLINT

  sparse::format format() const noexcept;
  shape2 shape() const noexcept;
  std::int64_t nnz() const noexcept;
  cusci::dtype dtype() const noexcept;
  cusci::dtype index_dtype() const noexcept;

  /// Whether the held matrix is an M (csr_matrix, ...).
  template <class M>
  bool holds() const noexcept {
    return std::holds_alternative<M>(v_);
  }
  /// The held matrix. @throws cusci::type_error "expected a csr matrix, got csc" for another format.
  template <class M>
  const M& get() const {
    if (!holds<M>()) throw_wrong_format(index_of<M>());
    return std::get<M>(v_);
  }
  template <class M>
  M& get() {
    if (!holds<M>()) throw_wrong_format(index_of<M>());
    return std::get<M>(v_);
  }
  const variant_type& variant() const noexcept { return v_; }
  variant_type& variant() noexcept { return v_; }
  /// std::visit on the held matrix.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), v_);
  }
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(std::forward<F>(f), v_);
  }

  spmatrix asformat(sparse::format f, bool copy = false) const;
  /// `asformat(format_from_string(f))`; an empty string returns *this (SciPy's `format=None`).
  spmatrix asformat(std::string_view f, bool copy = false) const;
  csr_matrix tocsr(bool copy = false) const;
  csc_matrix tocsc(bool copy = false) const;
  coo_matrix tocoo(bool copy = false) const;
  dia_matrix todia(bool copy = false) const;
  bsr_matrix tobsr(std::optional<shape2> blocksize = {}, bool copy = false) const;
  ndarray toarray(cusci::order ord = cusci::order::C) const;
  ndarray todense(cusci::order ord = cusci::order::C) const { return toarray(ord); }
  spmatrix astype(cusci::dtype t, bool copy = true) const;
  spmatrix copy() const;

  bool has_sorted_indices() const;
  bool has_canonical_format() const;
  void sum_duplicates();
  void sort_indices();
  spmatrix sorted_indices() const;
  void eliminate_zeros();
  void prune();
  void check_format(bool full_check = true) const;

  /// Matrix product with a dense vector/matrix. Defined by the products family.
  ndarray dot(const ndarray& x) const;
  ndarray operator*(const ndarray& x) const { return dot(x); }

 private:
  template <class M>
  static constexpr int index_of() noexcept {
    if constexpr (std::is_same_v<M, csr_matrix>) return 0;
    else if constexpr (std::is_same_v<M, csc_matrix>) return 1;
    else if constexpr (std::is_same_v<M, coo_matrix>) return 2;
    else if constexpr (std::is_same_v<M, dia_matrix>) return 3;
    else return 4;
  }
  [[noreturn]] void throw_wrong_format(int wanted) const;
  variant_type v_;
};

// Instantiated in the library (sparse/src/formats and products), never implicitly in user code.
extern template class matrix_base<coo_matrix, sparse::format::coo>;
extern template class matrix_base<csr_matrix, sparse::format::csr>;
extern template class matrix_base<csc_matrix, sparse::format::csc>;
extern template class matrix_base<dia_matrix, sparse::format::dia>;
extern template class matrix_base<bsr_matrix, sparse::format::bsr>;
extern template class compressed_matrix<compressed_kind::csr>;
extern template class compressed_matrix<compressed_kind::csc>;

}  // namespace cusci::sparse
