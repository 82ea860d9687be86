#pragma once
/// @file sparse/io.hpp
/// Matrix Market files (coordinate format) to and from sparse matrices: `scipy.io.mmread` /
/// `scipy.io.mmwrite`, with a host-level reader for use without a device.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cusci/sparse/matrix.hpp"

namespace cusci::io {

/// The `field` of a Matrix Market file.
enum class mm_field { real, integer, pattern, complex };
/// The `symmetry` of a Matrix Market file; `automatic` (mmwrite only) detects symmetric matrices.
enum class mm_symmetry { general, symmetric, skew_symmetric, hermitian, automatic };

/// Parses SciPy's strings: "real", "integer", "pattern", "complex" (case-insensitive). Host only.
/// @throws cusci::value_error for another string.
/// SciPy: the `field` argument of `scipy.io.mmwrite` / the field word of `scipy.io.mminfo`.
mm_field mm_field_from_string(std::string_view s);
/// Parses "general", "symmetric", "skew-symmetric", "hermitian", "AUTO" (case-insensitive). Host only.
/// @throws cusci::value_error for another string.
/// SciPy: the `symmetry` argument of `scipy.io.mmwrite` / the symmetry word of `scipy.io.mminfo`.
mm_symmetry mm_symmetry_from_string(std::string_view s);
/// The Matrix Market word for f ("real", ...). Host only.
std::string_view to_string(mm_field f) noexcept;
/// The Matrix Market word for s ("skew-symmetric", ...; `automatic` gives "AUTO"). Host only.
std::string_view to_string(mm_symmetry s) noexcept;

/// A coordinate Matrix Market file parsed in host memory, symmetric storage already expanded.
struct mm_host_matrix {
  std::int64_t rows = 0, cols = 0;
  /// Entries in the file (before expansion).
  std::int64_t entries = 0;
  mm_field field = mm_field::real;
  mm_symmetry symmetry = mm_symmetry::general;
  /// Comment lines after the banner, without their leading '%', joined with '\n'.
  std::string comment;
  /// 0-based indices and values of every stored entry: the file's entries in file order, then the
  /// mirrored off-diagonal entries of a symmetric (or skew-symmetric: negated) file, in file order.
  /// Pattern files get value 1.0.
  std::vector<std::int64_t> row, col;
  std::vector<double> data;
};

/// Reads a coordinate Matrix Market file into host memory (no device needed). The whole file is read
/// into one buffer and parsed with std::from_chars. Comment lines ('%', optionally indented) and blank
/// lines may appear anywhere after the banner. The entry count of the size line is checked against
/// the bytes left in the file (an entry takes at least 4) before any array is sized.
/// @throws cusci::error when the file cannot be opened; cusci::value_error for a malformed file,
///         naming the path and the 1-based line ("cusci::io::mmread: m.mtx:7: expected 3 values
///         (real field), got 2"; "m.mtx:2: the size line declares 4000000000000 entries, but the
///         file has only 6 bytes after it ..."); cusci::not_implemented_error for `array` (dense)
///         files and complex/hermitian fields.
/// SciPy: `scipy.io.mmread` (parsing part). Deviation: SciPy rejects an indented comment line among
/// the entries (it skips one only before the size line).
mm_host_matrix mmread_host(const std::string& path);

/// Reads a coordinate Matrix Market file into a device coo_matrix with float64 values (index dtype as
/// SciPy: int32 unless the size needs int64). Copies to the device asynchronously.
/// @throws as mmread_host.
/// SciPy: `scipy.io.mmread(path)`. Deviation: `integer` files give float64 values (SciPy: int64).
sparse::coo_matrix mmread(const std::string& path);

/// Options of `mmwrite`, SciPy's names and defaults.
struct mmwrite_options {
  /// Written after the banner, one '%' line per line of text (SciPy writes a lone '%' when empty).
  std::string comment{};
  /// real (default for float data), integer (values truncated toward zero; each must be finite and
  /// within the int64 range) or pattern.
  std::optional<mm_field> field{};
  /// Significant digits in %e format, 0 to 32 (0 writes one digit, as SciPy; 17 round-trips any
  /// double); none: the shortest representation that reads back exactly.
  std::optional<int> precision{};
  /// automatic (SciPy's 'AUTO') writes `symmetric` when A equals its transpose, else `general`.
  /// With symmetric / skew-symmetric only the lower triangle (row >= col) is written.
  mm_symmetry symmetry = mm_symmetry::automatic;
};

/// Writes A as a coordinate Matrix Market file (1-based indices). Copies A to the host (synchronizes).
/// Duplicates are written as stored (auto symmetry detection sums them first). Nothing is written
/// when an argument is rejected.
/// @throws cusci::error when the file cannot be written; cusci::value_error for complex/hermitian
///         requests, a precision outside [0, 32] (checked before the copy), symmetric/skew-symmetric
///         for a non-square matrix, or, with field integer, a value that is not finite or outside the
///         int64 range; cusci::out_of_memory when the host copy cannot be made.
/// SciPy: `scipy.io.mmwrite(target, a, comment, field, precision, symmetry)`. Deviations: without
/// `precision` numbers are written in C++'s shortest round-trip form ("0.1" where SciPy writes "1E-1");
/// precision is limited to 32 (SciPy accepts any value; from 22 on its output is truncated with NUL bytes);
/// field integer with a NaN, infinite or huge value is an error (SciPy casts it).
void mmwrite(const std::string& path, const sparse::coo_matrix& A, const mmwrite_options& options = {});
void mmwrite(const std::string& path, const sparse::csr_matrix& A, const mmwrite_options& options = {});

/// Writes host triplets (0-based) as a coordinate Matrix Market file; the host half of mmwrite. Host
/// only (no device needed). Nothing is written when an argument is rejected.
/// @param rows, cols  shape, both >= 0.
/// @param row, col    [nnz] 0-based indices, in [0, rows) and [0, cols).
/// @param data        [nnz] values (ignored for field pattern).
/// @throws as mmwrite; also cusci::value_error for a negative dimension, row/col/data of different
///         lengths, or an index out of range ("row index 5 of entry 0 out of range [0, 2)").
/// SciPy: `scipy.io.mmwrite(target, coo_matrix((data, (row, col)), shape=(rows, cols)), ...)`, with
/// mmwrite's deviations.
void mmwrite_host(const std::string& path, std::int64_t rows, std::int64_t cols,
                  const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
                  const std::vector<double>& data, const mmwrite_options& options = {});

}  // namespace cusci::io
