#pragma once
/// @file dok.hpp
/// `dok_matrix`: SciPy's Dictionary Of Keys format, held in HOST memory for fast incremental building
/// (`A.set(i, j, v)` in a loop), with conversions to the device formats of matrix.hpp.
///
/// Storage: an insertion-ordered hash map (row, col) -> value, as SciPy's `dok_matrix._dict` (a Python
/// dict, which keeps insertion order): `keys()`, `items()`, `tocoo()` and the within-row order of
/// `tocsr()` follow the order in which keys were first inserted (an overwritten key keeps its place, an
/// erased and re-inserted key moves to the end). Values are stored in the matrix's dtype, exactly (an
/// int64 or uint64 value is never routed through double).
///
/// Value dtypes: bool, int8..int64, uint8..uint64, float32, float64, complex64, complex128; float16 is
/// rejected with cusci::type_error, as by the device formats.
///
/// Where things run: every member is host code and needs no GPU, except the constructors from a
/// device matrix or a dense ndarray and the conversions to device formats / dense arrays (`tocoo`,
/// `tocsr`, `tocsc`, `toarray`, `todense`, `asformat`), which copy the entries to or from the current
/// device on its current stream (each says whether it synchronizes).
///
/// Copying a dok_matrix object copies its contents (host containers, value semantics); `copy()` does
/// the same. Not thread-safe for concurrent non-const use; concurrent const use is safe.
///
/// SciPy: `scipy.sparse.dok_matrix` (spmatrix flavour). Deviations: C++ spells `A[i, j]` as
/// `A(i, j)` / `A.get(i, j)` and `A[i, j] = v` as `A.set(i, j, v)`; there is no slicing or fancy
/// indexing (convert to CSR and use access.hpp); arithmetic operators are not provided (convert with
/// tocsr()); `format()` returns the string "dok" (sparse::format enumerates the device formats only).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/sparse/sputils.hpp"

namespace cusci::sparse {

class lil_matrix;

/// A sparse matrix in Dictionary Of Keys format, on the host (see the file comment).
/// SciPy: `scipy.sparse.dok_matrix`.
class dok_matrix {
 public:
  /// A key: (row, column).
  using key_type = std::array<std::int64_t, 2>;

  /// An empty (rows, cols) matrix of `dtype`. Host only; allocates nothing proportional to the shape
  /// (as SciPy, any non-negative shape is accepted, even one whose element count exceeds int64;
  /// toarray() of such a matrix fails with value_error "array is too big").
  /// @throws cusci::value_error "'shape' elements cannot be negative"; cusci::type_error for float16.
  /// SciPy: `dok_matrix((M, N), dtype=dtype)`.
  explicit dok_matrix(shape2 shape, cusci::dtype dtype = cusci::dtype::float64);
  /// An empty (0, 0) float64 matrix.
  dok_matrix() : dok_matrix(shape2{0, 0}) {}
  /// The entries of a device matrix of any format: `other.tocoo()`, duplicates summed and sorted by
  /// (row, col) unless already canonical, explicit zeros kept (as SciPy's coo.todok()); keys in
  /// row-major order. `dtype`: the values are cast (NumPy's unsafe casting; entries that become zero
  /// stay stored, as SciPy's astype). Copies the entries to the host: synchronizes.
  /// @throws cusci::type_error for float16. SciPy: `dok_matrix(S, dtype=dtype)`.
  explicit dok_matrix(const spmatrix& other, std::optional<cusci::dtype> dtype = {});
  /// The nonzeros of a dense 2-D device array (any supported dtype, any layout), keys in row-major
  /// order; `dtype` casts first. Synchronizes.
  /// @throws cusci::value_error for an array that is not 2-D (SciPy: "shape must have length in
  ///         (2,)"); cusci::type_error for float16. SciPy: `dok_matrix(D, dtype=dtype)`.
  explicit dok_matrix(const ndarray& dense, std::optional<cusci::dtype> dtype = {});
  /// From host triplets, as `coo_matrix((data, (row, col)), shape=shape).todok()`: duplicates summed
  /// (integers wrap, bool: or), keys in row-major order, explicit zeros kept. Host only.
  /// @param row, col [nnz] indices in [0, rows) / [0, cols) (no wrapping of negatives, as COO).
  /// @param data [nnz] host array of any supported dtype; cast to `dtype` when given.
  /// @throws cusci::value_error "row, column, and data array must all be the same length", "row index
  ///         exceeds matrix dimensions", "negative row index found" (and the column ones), negative
  ///         shape; cusci::type_error for float16 data or dtype.
  dok_matrix(shape2 shape, const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
             const host_array& data, std::optional<cusci::dtype> dtype = {});

  /// (rows, cols). SciPy: `A.shape`.
  shape2 shape() const noexcept { return shape_; }
  /// Number of stored entries (explicit zeros included). SciPy: `A.nnz` / `len(A)`.
  std::int64_t nnz() const noexcept { return live_; }
  /// Value dtype. SciPy: `A.dtype`.
  cusci::dtype dtype() const noexcept { return dtype_; }
  /// "dok". SciPy: `A.format`. (sparse::format enumerates the five device formats only.)
  std::string_view format() const noexcept { return "dok"; }
  /// "dok", as a compile-time constant.
  static constexpr std::string_view format_name() noexcept { return "dok"; }

  // --- element access (host) -------------------------------------------------------------------

  /// The value at (i, j) (zero of dtype() when not stored) as a strong scalar of dtype() (int64 and
  /// uint64 as exact weak integer scalars, as sparse::get). Negative indices wrap.
  /// @throws cusci::index_error "cusci::sparse::dok_matrix::get: row index (5) out of range" (SciPy:
  ///         "index (5) out of range"). SciPy: `A[i, j]`.
  scalar get(std::int64_t i, std::int64_t j) const;
  /// Same as get(i, j).
  scalar operator()(std::int64_t i, std::int64_t j) const { return get(i, j); }
  /// SciPy's dict-style `A.get(key, default)`: the stored value of `key`; else the key's negative
  /// entries wrap and the value stored there, or `default_value` as given (not cast) when none is.
  /// @throws cusci::index_error "Index out of bounds." for a key outside the shape.
  scalar get(key_type key, const scalar& default_value) const;
  /// `A[i, j] = value`: the value is converted to dtype() as SciPy converts it (a C++ integer outside
  /// an integer dtype's range is NumPy 2's OverflowError, a complex value for a real dtype its
  /// TypeError, a NaN or infinity for an integer dtype its ValueError; a strong scalar is cast with
  /// NumPy's unsafe casting). A value that is zero after the conversion removes the key (as SciPy's
  /// `if x: ... else: del`); otherwise the key is inserted (at the end of the order) or overwritten
  /// (in place). Negative indices wrap. Host only.
  /// @throws cusci::index_error for (i, j) out of range; cusci::value_error, cusci::type_error as above.
  /// SciPy: `A[i, j] = value`.
  void set(std::int64_t i, std::int64_t j, const scalar& value);

  // --- dict interface (host) -------------------------------------------------------------------

  /// Whether `key` is stored (no wrapping, no bounds check: a dict lookup). SciPy: `key in A`.
  bool contains(key_type key) const noexcept;
  /// 1 if `key` is stored, else 0 (std::map's spelling of contains).
  std::int64_t count(key_type key) const noexcept { return contains(key) ? 1 : 0; }
  /// Removes `key` (no wrapping). @throws cusci::index_error (Python's KeyError) when not stored.
  /// SciPy: `del A[key]` on the dict.
  void erase(key_type key);
  /// Removes `key` and returns its value. @throws cusci::index_error (KeyError) when not stored.
  /// SciPy: `A.pop(key)`.
  scalar pop(key_type key);
  /// Removes `key` and returns its value, or `default_value` when not stored. SciPy: `A.pop(key, d)`.
  scalar pop(key_type key, const scalar& default_value);
  /// Removes and returns the last inserted entry. @throws cusci::index_error (KeyError) when empty.
  /// SciPy: `A.popitem()`.
  std::pair<key_type, scalar> popitem();
  /// Removes every entry (shape and dtype kept). SciPy: `A.clear()`.
  void clear() noexcept;
  /// Stores every (row[k], col[k]) -> data[k] in order (later pairs overwrite earlier ones; zeros ARE
  /// stored, as SciPy's dict update). `data` (any supported dtype) is cast to dtype() with NumPy's
  /// unsafe casting. Nothing is changed when a check fails. Host only.
  /// @throws cusci::value_error for lengths that differ; cusci::index_error "negative index (-1, 2) not
  ///         allowed in update", "index (5, 2) is too large for self.shape" (SciPy's texts);
  ///         cusci::type_error for float16 data. SciPy: `A.update(dict(zip(zip(row, col), data)))`.
  void update(const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col, const host_array& data);
  /// The stored keys, values and (key, value) pairs in insertion order. SciPy: `A.keys()`,
  /// `A.values()`, `A.items()` (lists, not views).
  std::vector<key_type> keys() const;
  std::vector<scalar> values() const;
  std::vector<std::pair<key_type, scalar>> items() const;
  /// The stored values as a 1-D host array [nnz] of dtype(), in the order of keys() (bulk, exact
  /// access). Host only.
  host_array values_array() const;
  /// Number of stored values that are not zero. SciPy: `A.count_nonzero()`.
  std::int64_t count_nonzero() const;

  // --- shape and copies (host) -----------------------------------------------------------------

  /// Sets the shape in place; entries outside the new shape are removed (the others keep their
  /// order). @throws cusci::value_error for a negative dimension. SciPy: `A.resize(shape)`.
  void resize(shape2 shape);
  /// The transpose (keys swapped, same order). Host only. SciPy: `A.transpose()` / `A.T`.
  dok_matrix transpose() const;
  dok_matrix T() const { return transpose(); }
  /// A deep copy (same order). SciPy: `A.copy()`.
  dok_matrix copy() const { return *this; }
  /// The values cast to `t` (NumPy's unsafe casting; entries that become zero stay stored, as
  /// SciPy's). `t == dtype()`: a copy (SciPy's `copy=False` sharing has no C++ counterpart: the
  /// result is always independent). @throws cusci::type_error for float16. SciPy: `A.astype(t)`.
  dok_matrix astype(cusci::dtype t, bool copy = true) const;

  // --- conversions -----------------------------------------------------------------------------

  /// COO on the current device: the entries in insertion order (as SciPy's dok.tocoo()), index dtype
  /// by SciPy's rule on max(shape) (int32 unless a dimension exceeds 2^31 - 1); one pass over the
  /// entries into a pinned staging block and one host-to-device copy per array. has_canonical_format() is true only when the insertion order is sorted by
  /// (row, col) (SciPy sets the flag unconditionally; cusci's COO relies on it). Waits for the upload, then asynchronous.
  /// @throws cusci::out_of_memory. SciPy: `A.tocoo()`. `copy` has no effect (always a new matrix).
  coo_matrix tocoo(bool copy = false) const;
  /// CSR on the current device, the same arrays as SciPy's `A.tocsr()`: entries grouped by row, each
  /// row in insertion order (SciPy's dok.tocsr() does not sort the columns: has_sorted_indices() is
  /// false unless the insertion order was sorted), no duplicates, explicit zeros kept. Index dtype
  /// int32 unless a dimension or nnz exceeds 2^31 - 1. The triplets are written in one pass into a
  /// pinned staging block and uploaded (one copy per array), then grouped by a stable radix sort on the
  /// device; when the keys are already in row-major order (e.g. a DOK built from a device matrix) only
  /// the row pointers are computed and has_canonical_format() is true. Waits for the upload, then asynchronous.
  /// @throws cusci::out_of_memory; cusci::not_implemented_error when rows and nnz need more than 64
  ///         key bits together (bit_width(rows - 1) + bit_width(nnz - 1) > 64). SciPy: `A.tocsr()`.
  csr_matrix tocsr(bool copy = false) const;
  /// CSC likewise: grouped by column, each column in insertion order (SciPy's `A.tocsc()`).
  /// Waits for the upload, then asynchronous. @throws as tocsr.
  csc_matrix tocsc(bool copy = false) const;
  /// Dense [rows, cols] array of dtype() on the current device (zeros where nothing is stored).
  /// Waits for the upload, then asynchronous. @throws cusci::value_error "array is too big"; cusci::out_of_memory.
  /// SciPy: `A.toarray(order)`.
  ndarray toarray(cusci::order ord = cusci::order::C) const;
  /// Same as toarray(ord). SciPy: `A.todense()` (an ndarray, not np.matrix).
  ndarray todense(cusci::order ord = cusci::order::C) const { return toarray(ord); }
  /// The device format `f` (tocoo(), tocsr(), tocsc(); dia and bsr through tocoo()). For "dok" and
  /// "lil" use todok() / tolil(). SciPy: `A.asformat(format)`.
  spmatrix asformat(sparse::format f, bool copy = false) const;
  /// *this (a copy; SciPy's copy=False returns the same object). SciPy: `A.todok()`.
  dok_matrix todok(bool /*copy*/ = false) const { return *this; }
  /// LIL with the same entries (rows sorted, explicit zeros kept). Host only. SciPy: `A.tolil()`.
  lil_matrix tolil(bool copy = false) const;

 private:
  friend class lil_matrix;
  // Table position of key (i, j) when stored (>= 0); otherwise -2 - the empty position where it would
  // go, or -1 when the table is empty.
  std::int64_t find_slot(std::int64_t i, std::int64_t j) const noexcept;
  void erase_slot_at(std::size_t pos);
  void rehash(std::size_t capacity);
  void compact();
  void append_raw(std::int64_t i, std::int64_t j, const std::byte* value);  // key known absent
  struct packed {
    std::vector<std::int64_t> row, col;
    std::vector<std::byte> val;
    bool row_major_sorted = true;
  };
  packed live_entries() const;
  // The live entries on the current device (values, rows, cols of index dtype it), one pass over the
  // slots and one host-to-device copy; `sorted`: the order is row-major sorted without repeats.
  void upload_entries(cusci::dtype it, ndarray& val, ndarray& row, ndarray& col, bool& sorted) const;

  shape2 shape_{0, 0};
  cusci::dtype dtype_ = cusci::dtype::float64;
  std::size_t item_ = 8;
  // Entry slots in insertion order; row_[k] < 0 marks an erased slot.
  std::vector<std::int64_t> row_, col_;
  std::vector<std::byte> val_;
  std::int64_t live_ = 0;
  // Open-addressing hash table (linear probing) of (row, col, slot); slot -1 is an empty bucket.
  std::vector<std::array<std::int64_t, 3>> table_;
};

template <>
struct is_sparse<dok_matrix> : std::true_type {};
/// SciPy's `isspmatrix` is true for a dok_matrix (it is one of SciPy's spmatrix classes).
template <>
struct is_spmatrix<dok_matrix> : std::true_type {};

/// SciPy's `dok_array` flavour of the same format. cusci's sparse formats follow spmatrix semantics
/// (matrix.hpp) and `dok_matrix` provides no arithmetic operators, so every member behaves as
/// `scipy.sparse.dok_array`'s on a 2-D array: this is the same class. Deviation: the 1-D
/// `dok_array` shapes of SciPy 1.18 are not provided (a 1-D array is a [1, n] matrix here).
using dok_array = dok_matrix;

}  // namespace cusci::sparse

#include "cusci/sparse/lil.hpp"
