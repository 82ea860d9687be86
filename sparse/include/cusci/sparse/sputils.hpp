#pragma once
/// @file sputils.hpp
/// Type queries over cusci's sparse classes (SciPy's `issparse` / `isspmatrix_*`, answered at compile
/// time for C++ types and at run time for an spmatrix), and SciPy's index-dtype utilities
/// (`get_index_dtype`, `safely_cast_index_arrays`).

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/warnings.hpp"

#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse {

/// Whether T is one of cusci's sparse classes: the five device formats, spmatrix, and the host
/// formats dok_matrix and lil_matrix (specialised in dok.hpp and lil.hpp). cv-qualifiers and
/// references are ignored. SciPy: `scipy.sparse.issparse(x)` (a compile-time question in C++).
template <class T>
struct is_sparse : std::false_type {};
template <class T>
struct is_sparse<const T> : is_sparse<T> {};
template <class T>
struct is_sparse<T&> : is_sparse<T> {};
template <class T>
struct is_sparse<T&&> : is_sparse<T> {};
template <>
struct is_sparse<csr_matrix> : std::true_type {};
template <>
struct is_sparse<csc_matrix> : std::true_type {};
template <>
struct is_sparse<coo_matrix> : std::true_type {};
template <>
struct is_sparse<dia_matrix> : std::true_type {};
template <>
struct is_sparse<bsr_matrix> : std::true_type {};
template <>
struct is_sparse<spmatrix> : std::true_type {};
/// `is_sparse<T>::value`.
template <class T>
inline constexpr bool is_sparse_v = is_sparse<T>::value;

/// Whether T is one of SciPy's spmatrix classes in cusci: the five device formats and spmatrix (the
/// host formats dok_matrix and lil_matrix specialise it in their headers; the n-D sparse arrays are
/// sparse but no spmatrix). cv-qualifiers and references are ignored.
/// SciPy: `scipy.sparse.isspmatrix(x)` (a compile-time question in C++).
template <class T>
struct is_spmatrix : std::false_type {};
template <class T>
struct is_spmatrix<const T> : is_spmatrix<T> {};
template <class T>
struct is_spmatrix<T&> : is_spmatrix<T> {};
template <class T>
struct is_spmatrix<T&&> : is_spmatrix<T> {};
template <>
struct is_spmatrix<csr_matrix> : std::true_type {};
template <>
struct is_spmatrix<csc_matrix> : std::true_type {};
template <>
struct is_spmatrix<coo_matrix> : std::true_type {};
template <>
struct is_spmatrix<dia_matrix> : std::true_type {};
template <>
struct is_spmatrix<bsr_matrix> : std::true_type {};
template <>
struct is_spmatrix<spmatrix> : std::true_type {};
/// `is_spmatrix<T>::value`.
template <class T>
inline constexpr bool is_spmatrix_v = is_spmatrix<T>::value;

// ----- run-time format queries (SciPy's isspmatrix_*) ----------------------------------------------
// Each takes any sparse matrix (every format class converts implicitly to spmatrix; the conversion
// copies handles only) and answers from its format on the host: no device work, never throws.

/// Always true: every object an `const spmatrix&` can refer to is an spmatrix. SciPy: `isspmatrix(A)`.
inline bool isspmatrix(const spmatrix&) noexcept { return true; }
/// Whether A holds a csr_matrix. SciPy: `isspmatrix_csr(A)`.
inline bool isspmatrix_csr(const spmatrix& A) noexcept { return A.format() == sparse::format::csr; }
/// Whether A holds a csc_matrix. SciPy: `isspmatrix_csc(A)`.
inline bool isspmatrix_csc(const spmatrix& A) noexcept { return A.format() == sparse::format::csc; }
/// Whether A holds a coo_matrix. SciPy: `isspmatrix_coo(A)`.
inline bool isspmatrix_coo(const spmatrix& A) noexcept { return A.format() == sparse::format::coo; }
/// Whether A holds a dia_matrix. SciPy: `isspmatrix_dia(A)`.
inline bool isspmatrix_dia(const spmatrix& A) noexcept { return A.format() == sparse::format::dia; }
/// Whether A holds a bsr_matrix. SciPy: `isspmatrix_bsr(A)`.
inline bool isspmatrix_bsr(const spmatrix& A) noexcept { return A.format() == sparse::format::bsr; }

/// Whether a warning issued by cusci (warnings.hpp) belongs to SciPy's `SparseWarning` family: the
/// category "SparseWarning" itself or its subclass "SparseEfficiencyWarning" (what sparse functions
/// issue: inserting assignments, densifying comparisons, many-diagonal DIA conversions). C++ spells
/// Python's `warnings.filterwarnings(..., category=SparseWarning)` as a handler that tests this. Host only.
/// SciPy: `issubclass(w.category, scipy.sparse.SparseWarning)`.
inline bool is_sparse_warning(const warning& w) noexcept {
  return w.category == "SparseWarning" || w.category == "SparseEfficiencyWarning";
}

// ----- index dtypes ---------------------------------------------------------------------------------

/// The index dtype able to hold the values of `arrays` and `maxval`: int64 when `maxval` exceeds
/// 2**31 - 1, or when an array's dtype cannot be cast safely to int32 (NumPy's `can_cast`: int64,
/// uint32, uint64, the float and complex dtypes) — except, with `check_contents`, an empty array or an
/// integer array whose values all lie in [-2**31, 2**31 - 1]; else int32. The one-argument
/// `get_index_dtype(maxval)` of matrix.hpp is the case without arrays.
/// @param arrays any dtypes, shapes and layouts, on the current device.
/// Synchronizes only with `check_contents` and an array that needs the check (its minimum and maximum
/// are computed on the device and read back); otherwise host only.
/// @throws cusci::out_of_memory (the reductions).
/// SciPy: `scipy.sparse._sputils.get_index_dtype(arrays, maxval, check_contents)` (also
/// `scipy.sparse.get_index_dtype`). Deviation: SciPy returns int64 always on a platform whose C int
/// is not 4 bytes (none that cusci supports).
dtype get_index_dtype(const std::vector<ndarray>& arrays, std::optional<std::int64_t> maxval = {},
                      bool check_contents = false);
/// The same for one array (SciPy accepts a single ndarray for `arrays`).
dtype get_index_dtype(const ndarray& array, std::optional<std::int64_t> maxval = {}, bool check_contents = false);

/// The index arrays of A cast to `idx_dtype` (NumPy's `astype(idx_dtype, copy=False)`: an array that
/// already has that dtype is returned itself, shared), after checking that their values fit:
///   - CSR, CSC: {indices, indptr}; value_error "indptr values too large for <msg>" when indptr[-1]
///     exceeds the dtype's maximum; when max(shape) exceeds it, "indices values too large for <msg>"
///     when an index does;
///   - COO: {row, col}; when max(shape) exceeds the maximum, "coords values too large for <msg>" when
///     a coordinate does;
///   - DIA: {offsets}; when max(shape) exceeds the maximum, "offsets values too large for <msg>" when
///     an offset does;
///   - BSR: {indices, indptr}; "indptr values too large for {msg}" (SciPy's text, literally: its
///     message is not formatted) when indptr[-1] * R exceeds the maximum; when max(shape) exceeds
///     it, "indices values too large for <msg>" when an index times C does.
/// Only maxima are checked (as SciPy: a negative value cast to an unsigned dtype wraps).
/// @param idx_dtype any integer dtype (SciPy: "Should be an integer dtype").
/// @param msg the end of the messages; empty: "dtype <name>" (SciPy's default text names the dtype
///        as `str(idx_dtype)`, e.g. "dtype <class 'numpy.int32'>" for its default `np.int32`; cusci
///        writes "dtype int32").
/// @returns the cast arrays (asynchronous casts). Synchronizes to read indptr[-1] (CSR, CSC, BSR)
///          and, where max(shape) exceeds the maximum, the indices' maximum.
/// @throws cusci::value_error as listed (the message: "cusci::sparse::safely_cast_index_arrays: "
///         followed by SciPy's text), and when idx_dtype is not an integer dtype (SciPy: np.iinfo's
///         ValueError).
/// SciPy: `scipy.sparse.safely_cast_index_arrays(A, idx_dtype, msg)` (1.15+).
std::vector<ndarray> safely_cast_index_arrays(const spmatrix& A, dtype idx_dtype = dtype::int32,
                                              const std::string& msg = "");

}  // namespace cusci::sparse
