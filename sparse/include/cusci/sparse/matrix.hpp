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
/// The members every format shares (shape and dtypes, conversions, format maintenance, `dot`) are
/// declared and documented once, in `matrix_base`, the base of every format class; a format class adds
/// its constructors and its own arrays.
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

#include <atomic>
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
/// @throws cusci::not_implemented_error for SciPy's "lil" and "dok": they are host formats
///         (`dok_matrix`, `lil_matrix` in dok.hpp / lil.hpp), which no `format=` argument returns;
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
  /// compressed input, else SciPy's `estimate_blocksize` choice (see matrix_base::tobsr).
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

/// A tri-state flag (-1 unknown, 0 false, 1 true) that a const member may fill in while other threads
/// read it: every access is a relaxed atomic byte load or store (a plain byte access on x86), so
/// concurrent const use of one matrix (has_sorted_indices(), has_canonical_format(), the products
/// that ask them) is free of data races. Any thread computes the same answer from the same arrays, so
/// no ordering is needed. Copyable (a copy takes the current value).
class lazy_flag {
 public:
  constexpr lazy_flag(std::int8_t v = -1) noexcept : v_(v) {}  // NOLINT: implicit, as the int8 it replaces
  lazy_flag(const lazy_flag& o) noexcept : v_(o.load()) {}
  lazy_flag& operator=(const lazy_flag& o) noexcept {
    store(o.load());
    return *this;
  }
  lazy_flag& operator=(std::int8_t v) noexcept {
    store(v);
    return *this;
  }
  operator std::int8_t() const noexcept { return load(); }  // NOLINT: implicit read
  std::int8_t load() const noexcept { return v_.load(std::memory_order_relaxed); }
  void store(std::int8_t v) noexcept { v_.store(v, std::memory_order_relaxed); }

 private:
  std::atomic<std::int8_t> v_;
};
}  // namespace detail

/// The members every format shares, declared and documented here once: shape, values, dtypes, format,
/// conversions, format maintenance and the product with a dense operand. `Derived` is the format's
/// class (CRTP), F its format. Where a member's meaning differs between formats, its comment says how;
/// the format classes add only their own constructors and arrays. Not used directly: every format
/// class derives from it. Defined in the library (sparse/src/formats/matrix.cpp; dot():
/// sparse/src/products/spmv.cpp) and instantiated there for the five formats.
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

  // Conversions. Every result holds SciPy's stored entries in SciPy's order. With copy=false a result
  // may share arrays with *this; the same-format call returns *this (copy=false) or copy().

  /// CSR form. From COO: duplicates summed and each row sorted (has_canonical_format() true);
  /// synchronizes unless has_canonical_format(). From CSC: the transposition (each row sorted,
  /// duplicates and explicit zeros kept as SciPy does); synchronizes once when nnz >= 17. From DIA:
  /// through tocoo() (synchronizes). From BSR: every stored value of the blocks (asynchronous).
  /// SciPy: `A.tocsr(copy)`.
  csr_matrix tocsr(bool copy = false) const;
  /// CSC form. From COO: duplicates summed, each column sorted (synchronizes). From CSR: the
  /// transposition (duplicates and explicit zeros kept); synchronizes once when nnz >= 17. From DIA:
  /// through tocoo(); from BSR: through tocsr() (both synchronize). SciPy: `A.tocsc(copy)`.
  csc_matrix tocsc(bool copy = false) const;
  /// COO form. From CSR/CSC: every stored entry, the major indices expanded, values and minor
  /// indices shared unless copy (asynchronous). From DIA: the nonzero values of the in-matrix
  /// positions, diagonal by diagonal (synchronizes). From BSR: every stored value, block by block
  /// (asynchronous). has_canonical_format() of the result is false (except coo.tocoo()).
  /// SciPy: `A.tocoo(copy)`.
  coo_matrix tocoo(bool copy = false) const;
  /// DIA form: one diagonal per offset holding an entry, offsets ascending, data width max(col) + 1,
  /// duplicates summed (as SciPy); formats other than COO go through tocoo(). Synchronizes.
  /// SciPy: `A.todia(copy)`.
  dia_matrix todia(bool copy = false) const;
  /// BSR form with R x C blocks: blocks sorted, duplicates summed; for CSC, COO and DIA through
  /// tocsr(). `blocksize` none: SciPy's `estimate_blocksize` choice (efficiency 0.7 among 6x6, 3x3,
  /// 4x4, 2x2, else 1x1); a BSR matrix with no or its own blocksize returns *this / copy(), another
  /// blocksize goes through tocsr(). Synchronizes.
  /// @throws cusci::value_error "invalid blocksize=(0, 2)", "shape must be multiple of blocksize".
  /// SciPy: `A.tobsr(blocksize, copy)`.
  bsr_matrix tobsr(std::optional<shape2> blocksize = {}, bool copy = false) const;
  /// Dense [rows, cols] of dtype(), duplicates summed, C or F order. Asynchronous when the entries
  /// are known canonical (COO, CSR, CSC: has_canonical_format(), which CSR and CSC learn on the device
  /// on first use); otherwise, and for DIA and BSR, synchronizes (sums duplicates; DIA: through
  /// tocoo()). @throws cusci::out_of_memory. SciPy: `A.toarray(order)`; deviation: no `out=`.
  ndarray toarray(cusci::order ord = cusci::order::C) const;
  /// Same as toarray(ord). SciPy: `A.todense(order)`; deviation: returns an ndarray, not np.matrix.
  ndarray todense(cusci::order ord = cusci::order::C) const { return toarray(ord); }
  /// This matrix in format f (`spmatrix(*this).asformat(f, copy)`). SciPy: `A.asformat(format, copy)`.
  spmatrix asformat(sparse::format f, bool copy = false) const;
  /// The values cast to t (NumPy's unsafe casting), index arrays and format flags kept: shared, or
  /// copied with copy. t == dtype() and !copy: *this. Asynchronous.
  /// @throws cusci::type_error for float16. SciPy: `A.astype(t, casting='unsafe', copy=copy)`.
  Derived astype(cusci::dtype t, bool copy = true) const;
  /// A deep copy (every array copied, format flags kept). Asynchronous. SciPy: `A.copy()`.
  Derived copy() const;

  // Format maintenance. The in-place members rebind this object's arrays (see the file comment).

  /// Whether the indices are sorted within each major slice (CSR: row, CSC: column, BSR: block row;
  /// duplicates allowed): computed on the device the first time and remembered (synchronizes then);
  /// set_has_sorted_indices records a known answer. SciPy: `A.has_sorted_indices`.
  /// COO: entries sorted by (row, col), computed likewise (not in SciPy's coo_matrix). DIA: offsets
  /// ascending, checked on the host each time, never throws (not in SciPy's dia_matrix).
  bool has_sorted_indices() const noexcept(F == sparse::format::dia);
  /// Sorted indices and no duplicate within a major slice. CSR, CSC, BSR: computed on the device the
  /// first time and remembered (synchronizes then); set_has_canonical_format records a known answer.
  /// SciPy: `A.has_canonical_format`.
  /// COO: as SciPy, a flag, never computed and never throwing: sorted by (row, col) without
  /// duplicates; false for a matrix built from triplets until sum_duplicates() runs. DIA: same as
  /// has_sorted_indices() (offsets are distinct by construction).
  bool has_canonical_format() const noexcept(F == sparse::format::coo || F == sparse::format::dia);
  /// Sorts the entries and sums duplicates (explicit zeros kept): CSR/CSC within each row/column,
  /// BSR duplicate blocks within each block row, COO by (row, col). Nothing to do when
  /// has_canonical_format(); synchronizes otherwise. DIA: sort_indices() (no duplicates can exist).
  /// SciPy: `A.sum_duplicates()`.
  void sum_duplicates();
  /// Sorts the indices within each major slice, stably, keeping duplicates (COO: entries by
  /// (row, col), not in SciPy's coo_matrix; DIA: the diagonals by offset). Nothing to do when known
  /// sorted. Asynchronous. SciPy: `A.sort_indices()`.
  void sort_indices();
  /// A copy with the entries sorted (see sort_indices; COO: a deep copy, the other formats share the
  /// arrays until the sort rebinds them). SciPy: `A.sorted_indices()`.
  Derived sorted_indices() const {
    Derived a = F == sparse::format::coo ? copy() : self();
    a.sort_indices();
    return a;
  }
  /// Removes stored zeros: entries (COO, CSR, CSC), blocks entirely zero (BSR), diagonals whose
  /// in-matrix values are all zero (DIA, not in SciPy's dia_matrix). Synchronizes.
  /// SciPy: `A.eliminate_zeros()`.
  void eliminate_zeros();
  /// CSR, CSC, BSR: trims data and indices to indptr[-1] entries (a no-op for the matrices cusci
  /// builds); synchronizes (reads indptr[-1]). @throws cusci::value_error "indices array has fewer
  /// than nnz elements". SciPy: `A.prune()`. COO, DIA: no-op, never throws (not in SciPy's
  /// coo_matrix and dia_matrix).
  void prune() noexcept(F == sparse::format::coo || F == sparse::format::dia);
  /// SciPy's check_format. CSR, CSC: host checks of the array shapes, indptr length and ends; with
  /// full_check every index in range and indptr non-decreasing. BSR: the checks of the constructor
  /// from arrays. COO: lengths, 1-D-ness and, with full_check, every index in range (SciPy:
  /// `coo_matrix._check()`, coo has no public check_format). Synchronizes (reads indptr's ends;
  /// COO: when nnz > 0 and full_check). DIA: data 2-D, offsets 1-D, one offset per diagonal, distinct
  /// offsets; host only, full_check has no effect.
  /// @throws cusci::value_error with SciPy's wording.
  void check_format(bool full_check = true) const;

  // Products.

  /// Matrix product with a dense vector or matrix: x [cols] -> [rows], x [cols, k] -> [rows, k]
  /// (C order). The result dtype is NumPy's promotion of dtype() and x.dtype().
  /// CSR kernels: for a 1-D x of A's dtype when A has at most 10 entries a row on average, cusci's
  /// own CSR-stream SpMV (Greathouse & Daga, SC 2014); integer and bool results, and a C-order x of
  /// at most 32 columns, cusci's row kernel; otherwise cuSPARSE SpMV (1-D x) or SpMM (2-D x),
  /// descriptors and workspace cached in the matrix per (stream, k), up to 4 plans. CSC: cuSPARSE's
  /// transposed product on its own arrays (integer and bool results: through tocsr()). COO: through
  /// its CSR form with the duplicates kept (every stored entry added, as SciPy's coo_matvec). DIA,
  /// BSR: through tocsr().
  /// Asynchronous, except where the conversion to CSR synchronizes (see tocsr()) and, once per
  /// matrix, where cuSPARSE's SpMV algorithm is chosen from the row lengths (reads two numbers).
  /// Defined by the products family (sparse/src/products/spmv.cpp).
  /// @throws cusci::value_error "dimension mismatch" when x.shape[0] != cols, when x is not 1-D/2-D,
  ///         or when x is on another device; cusci::type_error for an unsupported dtype;
  ///         cusci::out_of_memory.
  /// SciPy: `A.dot(x)` / `A @ x` / `A * x` (spmatrix semantics: matrix product).
  /// Deviation: a 0-d x (scalar multiplication in SciPy) is a value_error.
  ndarray dot(const ndarray& x) const;
  /// Matrix product with a dense vector/matrix: `dot(x)`. SciPy: `A @ x` / `A * x` (spmatrix semantics).
  ndarray operator*(const ndarray& x) const { return dot(x); }

 protected:
  matrix_base() = default;
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
  Derived& self() noexcept { return static_cast<Derived&>(*this); }

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
  /// An empty (0, 0) float64 matrix, as `coo_matrix(shape2{0, 0})` (for declaring a matrix assigned
  /// later). Asynchronous; needs a device like any constructor.
  coo_matrix() : coo_matrix(shape2{0, 0}) {}
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

  /// The transpose (`sparse::transpose(*this)`). SciPy: `A.T`.
  coo_matrix T() const;

  /// [nnz] row indices, [nnz] column indices (shared, contiguous). data(): [nnz] values; nnz()
  /// counts duplicates and explicit zeros.
  const ndarray& row() const noexcept { return row_; }
  const ndarray& col() const noexcept { return col_; }

  /// Records SciPy's has_canonical_format flag (nothing is checked). SciPy: setting
  /// `A.has_canonical_format`.
  void set_has_canonical_format(bool v) noexcept { canonical_ = v ? 1 : 0; }

  /// A coo_matrix over arrays the caller guarantees valid (1-D, contiguous, same length, indices of
  /// one dtype in range, supported value dtype). For cusci's own conversions and readers; nothing is
  /// checked. `canonical`: the entries are known sorted by (row, col) without duplicates.
  static coo_matrix from_valid(ndarray data, ndarray row, ndarray col, shape2 shape, bool canonical = false);

 private:
  friend class matrix_base<coo_matrix, sparse::format::coo>;  // the shared members use the arrays and flags
  struct raw_tag {};
  explicit coo_matrix(raw_tag) {}
  ndarray row_, col_;
  detail::lazy_flag canonical_ = 0;      // SciPy's flag
  mutable detail::lazy_flag sorted_ = -1;  // -1 unknown
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
  /// An empty (0, 0) float64 matrix, as `csr_matrix(shape2{0, 0})` (for declaring a matrix assigned
  /// later). Asynchronous; allocates its one-element indptr, so it needs a device.
  compressed_matrix() : compressed_matrix(shape2{0, 0}) {}
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

  /// Record a known answer of has_sorted_indices() (false also clears has_canonical_format()) and
  /// of has_canonical_format() (true also sets has_sorted_indices()); nothing is checked.
  /// SciPy: setting `A.has_sorted_indices` / `A.has_canonical_format`.
  void set_has_sorted_indices(bool v) noexcept;
  void set_has_canonical_format(bool v) noexcept;

  /// CSR only. [min(rows, cols)] main diagonal, duplicates summed, dtype(), every value dtype.
  /// Asynchronous. Other offsets and formats: `sparse::diagonal(A, k)` (products.hpp).
  /// SciPy: `csr_matrix.diagonal()` (k = 0 only).
  ndarray diagonal() const
    requires(K == compressed_kind::csr);

  /// A matrix over arrays the caller guarantees valid (contiguous, indices of one dtype in range,
  /// len(indptr) == rows + 1 (CSC: cols + 1), indptr[0] == 0, indptr[-1] == len(data) == len(indices),
  /// supported value dtype). Nothing is checked. `canonical`: known sorted without duplicates (else
  /// computed lazily).
  static compressed_matrix from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape,
                                      bool canonical = false);

  /// The transpose, in the other compressed format over the same arrays (`sparse::transpose(*this)`:
  /// CSR gives CSC and CSC gives CSR, no copy). SciPy: `A.T`.
  compressed_matrix<K == compressed_kind::csr ? compressed_kind::csc : compressed_kind::csr> T() const;

  /// The products family's cache of cuSPARSE descriptors of this matrix (shared by copies).
  const std::shared_ptr<detail::spmv_cache>& spmv_cache() const noexcept { return cache_; }

 private:
  friend base_type;  // the shared members use the arrays, flags and cache
  struct raw_tag {};
  explicit compressed_matrix(raw_tag) {}
  void rebind(ndarray data, ndarray indices, ndarray indptr, int canonical);
  using base_type::data_;
  using base_type::shape_;
  ndarray indices_, indptr_;
  std::shared_ptr<detail::spmv_cache> cache_;
  mutable detail::lazy_flag sorted_ = -1, canonical_ = -1;  // -1 unknown
};
template <>
csc_matrix csr_matrix::T() const;
template <>
csr_matrix csc_matrix::T() const;

/// A sparse matrix in diagonal format: diagonal k (offset `offsets[k]`) stores
/// `data[k, j] = A[j - offsets[k], j]` for the columns j where that row exists (SciPy's layout:
/// column-aligned; the other entries of data[k, :] are ignored).
/// SciPy: `scipy.sparse.dia_matrix`.
class dia_matrix : public matrix_base<dia_matrix, sparse::format::dia> {
 public:
  explicit dia_matrix(shape2 shape, const matrix_options& o = {});
  /// An empty (0, 0) float64 matrix, as `dia_matrix(shape2{0, 0})`.
  dia_matrix() : dia_matrix(shape2{0, 0}) {}
  /// From a dense array: one diagonal per offset with a nonzero, offsets ascending. Synchronizes.
  explicit dia_matrix(const ndarray& dense, const matrix_options& o = {});
  /// From (data, offsets). `o.shape` is required.
  /// @param data    [n_diags, L] (or [L] -> [1, L]) any supported dtype.
  /// @param offsets [n_diags] (or 0-d) any integer dtype, distinct. Read to the host (synchronizes).
  /// @throws cusci::value_error "expected a shape argument", "offsets array must have rank 1",
  ///         "number of diagonals (2) does not match the number of offsets (3)", "offset array
  ///         contains duplicate values", an offset outside int32 when the index dtype is int32 (SciPy:
  ///         OverflowError); cusci::type_error for non-integer offsets or float16 data.
  /// SciPy: `dia_matrix((data, offsets), shape=(M, N))`.
  dia_matrix(const ndarray& data, const ndarray& offsets, const matrix_options& o = {});
  explicit dia_matrix(const spmatrix& other, const matrix_options& o = {});

  /// As SciPy: the number of positions of the stored diagonals that lie inside the matrix (and
  /// within data's width), zeros included. Host only.
  std::int64_t nnz() const noexcept;
  /// [n_diags] diagonal offsets (index_dtype(): int32 unless a dimension needs int64; data():
  /// [n_diags, L] values, C-contiguous) on the device, and a host copy.
  const ndarray& offsets() const noexcept { return offsets_; }
  /// The transpose (`sparse::transpose`, as an spmatrix). SciPy: `A.T`.
  spmatrix T() const;
  const std::vector<std::int64_t>& offsets_host() const noexcept { return offsets_host_; }

  /// Over arrays the caller guarantees valid: data [n_diags, L] C-contiguous, offsets [n_diags]
  /// (int32/int64) distinct, `offsets_host` equal to offsets.
  static dia_matrix from_valid(ndarray data, ndarray offsets, std::vector<std::int64_t> offsets_host, shape2 shape);

 private:
  friend class matrix_base<dia_matrix, sparse::format::dia>;  // the shared members use the arrays
  struct raw_tag {};
  explicit dia_matrix(raw_tag) {}
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
  /// An empty (0, 0) float64 matrix, as `bsr_matrix(shape2{0, 0})`.
  bsr_matrix() : bsr_matrix(shape2{0, 0}) {}
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
  /// The transpose (`sparse::transpose`, as an spmatrix). SciPy: `A.T`.
  spmatrix T() const;
  const ndarray& indices() const noexcept { return indices_; }
  const ndarray& indptr() const noexcept { return indptr_; }

  /// Record a known answer of has_sorted_indices() / has_canonical_format(), as compressed_matrix.
  void set_has_sorted_indices(bool v) noexcept;
  void set_has_canonical_format(bool v) noexcept;

  /// Over arrays the caller guarantees valid: data [nnzb, R, C] C-contiguous, indices [nnzb] in range,
  /// indptr [rows / R + 1], R and C dividing the shape.
  static bsr_matrix from_valid(ndarray data, ndarray indices, ndarray indptr, shape2 shape, bool canonical = false);
  const std::shared_ptr<detail::spmv_cache>& spmv_cache() const noexcept { return cache_; }

 private:
  friend class matrix_base<bsr_matrix, sparse::format::bsr>;  // the shared members use the arrays, flags and cache
  struct raw_tag {};
  explicit bsr_matrix(raw_tag) {}
  void rebind(ndarray data, ndarray indices, ndarray indptr, int canonical);
  ndarray indices_, indptr_;
  shape2 blocksize_{1, 1};
  std::shared_ptr<detail::spmv_cache> cache_;
  mutable detail::lazy_flag sorted_ = -1, canonical_ = -1;
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

  /// The transpose (`sparse::transpose(*this)`). SciPy: `A.T`.
  spmatrix T() const;
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
