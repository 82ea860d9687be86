#pragma once
/// @file sparse/io.hpp
/// Declares functions of namespace cusci::io in a sparse header: Matrix Market I/O is SciPy's
/// `scipy.io.mmread`/`mmwrite`/`mminfo` (hence cusci::io, beside core's npy/npz readers), but it
/// reads and writes sparse::coo_matrix, so it lives in, and links with, cusci::sparse.
///
/// Matrix Market files (coordinate and array; real, integer, complex, pattern; general, symmetric,
/// skew-symmetric, hermitian) to and from sparse matrices and dense arrays: `scipy.io.mmread`,
/// `scipy.io.mmwrite`, `scipy.io.mminfo`, with host-level readers and writers for use without a device.
///
/// What C++ returns where SciPy returns "a coo_matrix or an ndarray": SciPy 1.18's `mmread` returns a
/// `coo_matrix` for coordinate files (its `spmatrix=` default is still True in 1.18, with a
/// DeprecationWarning announcing coo_array) and an `np.ndarray` for array files. cusci offers
///   - `mmread(path)`       -> sparse::coo_matrix (an array file is converted: its nonzeros);
///   - `mmread_dense(path)` -> ndarray [rows, cols] (a coordinate file is densified, duplicates summed);
///   - `mmread_any(path)`   -> std::variant<sparse::coo_matrix, ndarray>: exactly SciPy's choice.
/// Value dtypes of what is read, as SciPy: real and pattern -> float64 (pattern values 1.0),
/// integer -> int64, complex -> complex128.
/// Every reader (mminfo, mmread_host, mmread, mmread_dense, mmread_any) takes a plain file or a
/// gzip-compressed one (e.g. "bcsstk16.mtx.gz"; zlib decompresses it while reading), as SciPy's mmread
/// accepts ".mtx.gz". A truncated or corrupt gzip stream raises cusci::error ("cusci::io::mmread: cannot
/// read '<path>': <zlib's reason>"). Writing is uncompressed.

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::io {

/// The `format` of a Matrix Market file: sparse `coordinate` or dense (column-major) `array`.
enum class mm_format { coordinate, array };
/// The `field` of a Matrix Market file.
enum class mm_field { real, integer, pattern, complex };
/// The `symmetry` of a Matrix Market file; `automatic` (mmwrite only) detects it.
enum class mm_symmetry { general, symmetric, skew_symmetric, hermitian, automatic };

/// Parses "coordinate", "array" (case-insensitive). Host only. @throws cusci::value_error otherwise.
/// SciPy: the format word of `scipy.io.mminfo`.
mm_format mm_format_from_string(std::string_view s);
/// Parses SciPy's strings: "real", "integer", "pattern", "complex" (case-insensitive). Host only.
/// @throws cusci::value_error for another string.
/// SciPy: the `field` argument of `scipy.io.mmwrite` / the field word of `scipy.io.mminfo`.
mm_field mm_field_from_string(std::string_view s);
/// Parses "general", "symmetric", "skew-symmetric", "hermitian", "AUTO" (case-insensitive). Host only.
/// @throws cusci::value_error for another string.
/// SciPy: the `symmetry` argument of `scipy.io.mmwrite` / the symmetry word of `scipy.io.mminfo`.
mm_symmetry mm_symmetry_from_string(std::string_view s);
/// The Matrix Market words. Host only.
std::string_view to_string(mm_format f) noexcept;
std::string_view to_string(mm_field f) noexcept;
/// `automatic` gives "AUTO".
std::string_view to_string(mm_symmetry s) noexcept;

/// The header of a Matrix Market file. SciPy: the tuple of `scipy.io.mminfo`.
struct mm_info {
  std::int64_t rows = 0, cols = 0;
  /// Coordinate: the entry count of the size line. Array: rows * cols (as SciPy, whatever the
  /// symmetry).
  std::int64_t entries = 0;
  mm_format format = mm_format::coordinate;
  mm_field field = mm_field::real;
  mm_symmetry symmetry = mm_symmetry::general;
};

/// Reads the banner and size line of a Matrix Market file (the rest is not read). Host only.
/// @throws as mmread_host for the header lines.
/// SciPy: `scipy.io.mminfo(source)` -> (rows, cols, entries, format, field, symmetry).
mm_info mminfo(const std::string& path);

/// A Matrix Market file parsed in host memory, symmetric storage already expanded.
struct mm_host_matrix {
  std::int64_t rows = 0, cols = 0;
  /// Entries in the file (before expansion); array files: rows * cols.
  std::int64_t entries = 0;
  mm_format format = mm_format::coordinate;
  mm_field field = mm_field::real;
  mm_symmetry symmetry = mm_symmetry::general;
  /// Comment lines after the banner, without their leading '%', joined with '\n'.
  std::string comment;
  /// Coordinate files: 0-based indices of every stored entry: the file's entries in file order, then
  /// the mirrored off-diagonal entries of a symmetric / skew-symmetric (negated) / hermitian
  /// (conjugated) file, in file order. Empty for array files. A hermitian file of real, integer or
  /// pattern values reads as symmetric, as SciPy's reader does.
  std::vector<std::int64_t> row, col;
  /// Values: coordinate files one per entry (as row/col); array files the full rows x cols matrix in
  /// column-major (Fortran) order, the implied triangle filled in. Real part for complex files; the
  /// value converted to double for integer files; 1.0 for pattern files.
  std::vector<double> data;
  /// Complex files only: the imaginary parts, as `data`.
  std::vector<double> imag;
  /// Integer files only: the exact int64 values, as `data`.
  std::vector<std::int64_t> idata;
};

/// Reads a Matrix Market file into host memory (no device needed). The whole file is read into one
/// buffer and parsed with std::from_chars. Comment lines ('%', optionally indented) and blank lines
/// may appear anywhere after the banner. The entry count of the size line is checked against the
/// bytes left in the file before any array is sized.
/// @throws cusci::error when the file cannot be opened; cusci::value_error for a malformed file,
///         naming the path and the 1-based line ("cusci::io::mmread: m.mtx:7: expected 3 values
///         (real field), got 2"): bad banner, unknown format/field/symmetry, pattern array files,
///         non-square symmetric matrices, a bad size line, a
///         wrong entry count, a value that does not parse (integers must fit int64), an index out
///         of range.
/// SciPy: `scipy.io.mmread` (parsing part). Deviation: SciPy rejects an indented comment line among
/// the entries (it skips one only before the size line).
mm_host_matrix mmread_host(const std::string& path);

/// Reads a Matrix Market file to the device, SciPy's result type: a coo_matrix for coordinate files,
/// a C-order ndarray [rows, cols] for array files. Values float64 (real, pattern), int64 (integer),
/// complex128 (complex); index dtype int32 unless the size needs int64. Parsing is synchronous on the
/// host, the copies to the device asynchronous.
/// @throws as mmread_host; cusci::out_of_memory.
/// SciPy: `scipy.io.mmread(path)` (spmatrix=True, SciPy 1.18's default).
std::variant<sparse::coo_matrix, ndarray> mmread_any(const std::string& path);
/// A coordinate file as coo_matrix (duplicates kept as stored); an array file becomes
/// `coo_matrix(mmread_dense(path))` (its nonzeros). @throws as mmread_any.
/// SciPy: `scipy.io.mmread(path)`; deviation: array files give a sparse matrix here (use mmread_dense
/// or mmread_any for SciPy's ndarray).
sparse::coo_matrix mmread(const std::string& path);
/// An array file as C-order ndarray [rows, cols]; a coordinate file densified (duplicates summed).
/// @throws as mmread_any. SciPy: `scipy.io.mmread(path)` for array files / `.toarray()` otherwise.
ndarray mmread_dense(const std::string& path);

/// Options of `mmwrite`, SciPy's names and defaults.
struct mmwrite_options {
  /// Written after the banner, one '%' line per line of text (SciPy writes a lone '%' when empty).
  std::string comment{};
  /// none: from the dtype as SciPy (bool and integers -> integer, floats -> real, complex ->
  /// complex). real: values cast to float64 (complex: real part); integer: cast to int64 (floats
  /// truncated toward zero; each must be finite and within the int64 range); complex; pattern
  /// (sparse only: no values written; dense input with pattern is a value_error).
  std::optional<mm_field> field{};
  /// Significant digits in %e format, 0 to 32 (0 writes one digit, as SciPy; 17 round-trips any
  /// double); none: the shortest representation that reads back exactly (float32 values: the
  /// shortest that reads back to the same float32, as SciPy).
  std::optional<int> precision{};
  /// automatic (SciPy's 'AUTO'): for matrices with max(shape) < 100 detect symmetric, then
  /// skew-symmetric, then hermitian (complex only), else general; general for larger matrices (as
  /// SciPy). With a symmetry other than general only the lower triangle is written (sparse: row >=
  /// col, as SciPy; dense: the lower triangle, without the diagonal for skew-symmetric).
  mm_symmetry symmetry = mm_symmetry::automatic;
};

/// Writes a sparse matrix (any format, any value dtype) as a coordinate Matrix Market file (1-based
/// indices, the matrix's COO entries in tocoo() order, duplicates as stored). Copies to the host
/// (synchronizes). Nothing is written when an argument is rejected.
/// @throws cusci::error when the file cannot be written; cusci::value_error for a precision outside
///         [0, 32] (checked before the copy), hermitian for non-complex data (field real
///         or integer), symmetric / skew-symmetric / hermitian for a non-square matrix, field
///         integer with a value that is not finite or outside the int64 range;
///         cusci::out_of_memory. (Real data with field complex gets zero imaginary parts.)
/// SciPy: `scipy.io.mmwrite(target, a, comment, field, precision, symmetry)`. Deviations: without
/// `precision` numbers are written in C++'s shortest round-trip form ("0.1" where SciPy writes "1E-1");
/// precision is limited to 32; field integer with a NaN, infinite or huge value is an error (SciPy
/// casts it); uint64 values above 2^63 - 1 are an error with the integer field.
void mmwrite(const std::string& path, const sparse::spmatrix& A, const mmwrite_options& options = {});
/// Writes a dense 2-D (or 1-D [n] -> (1, n)) array as an array Matrix Market file (column-major
/// values). Copies to the host (synchronizes). @throws as above; value_error for another ndim or
/// field pattern.
/// SciPy: `scipy.io.mmwrite(target, ndarray, ...)`.
void mmwrite(const std::string& path, const ndarray& dense, const mmwrite_options& options = {});

/// Writes host triplets (0-based) as a coordinate Matrix Market file; the host half of mmwrite. Host
/// only (no device needed). Nothing is written when an argument is rejected.
/// @param rows, cols  shape, both >= 0.
/// @param row, col    [nnz] 0-based indices, in [0, rows) and [0, cols).
/// @param data        [nnz] values (ignored for field pattern): doubles here; any dtype (a host_array,
///                    whose dtype also picks the default field) with `mmwrite_host_typed`.
/// @throws as mmwrite; also cusci::value_error for a negative dimension, row/col/data of different
///         lengths, or an index out of range ("row index 5 of entry 0 out of range [0, 2)").
/// SciPy: `scipy.io.mmwrite(target, coo_matrix((data, (row, col)), shape=(rows, cols)), ...)`, with
/// mmwrite's deviations.
void mmwrite_host(const std::string& path, std::int64_t rows, std::int64_t cols,
                  const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
                  const std::vector<double>& data, const mmwrite_options& options = {});
void mmwrite_host_typed(const std::string& path, std::int64_t rows, std::int64_t cols,
                        const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
                        const host_array& data, const mmwrite_options& options = {});
/// Writes a host [rows, cols] (or [n] -> (1, n)) array as an array file. Host only.
/// SciPy: `scipy.io.mmwrite(target, ndarray, ...)`.
void mmwrite_host(const std::string& path, const host_array& dense, const mmwrite_options& options = {});

}  // namespace cusci::io
