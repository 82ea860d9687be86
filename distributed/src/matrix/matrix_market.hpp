#pragma once
// Internal (host only): a streaming Matrix Market reader that keeps one block of rows, for
// csr_matrix::read_matrix_market (matrix_market.cpp). The file is read in chunks (plain or gzip, through
// zlib) and never held whole; the header is cusci::io::mminfo's (same words, same checks and
// messages), the entries follow cusci::io::mmread_host's rules.

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/sparse/io.hpp"

namespace cusci::distributed::detail {

/// Rows [b, e) of a file, in CSR form with global column indices: the entries of each row in file
/// order, the mirrored entries of a symmetric file after them (duplicates not summed).
struct mm_rows {
  std::vector<std::int64_t> indptr{0};  ///< [e - b + 1], from 0
  std::vector<std::int64_t> cols;       ///< global columns, 0-based
  std::vector<double> vals;             ///< pattern: 1.0; integer: the value as double
};

/// The header of a coordinate file, then its entries streamed.
/// `fn` names the calling function in every message: "<fn>: <path>:<line>: <what>".
class mm_row_reader {
 public:
  /// Opens `path` and reads its header (cusci::io::mminfo).
  /// @throws cusci::error when the file cannot be opened; what cusci::io::mminfo throws for a bad
  ///         header.
  mm_row_reader(std::string path, const char* fn);

  const io::mm_info& info() const noexcept { return info_; }

  /// The entries of rows [b, e) (0 <= b <= e <= rows): the file's entries of those rows and, for a
  /// symmetric, skew-symmetric (negated) or hermitian (real values) file, the mirrors (j, i) of the
  /// off-diagonal entries (i, j) whose j lies in [b, e). Every entry of the file is checked (index
  /// range, value syntax, the count of the size line), so every rank reading the file reports the
  /// same error. Call once.
  /// @throws cusci::value_error naming the path and the 1-based line for a malformed entry;
  ///         cusci::error when the file cannot be read.
  mm_rows read_rows(std::int64_t b, std::int64_t e);

 private:
  std::string path_;
  const char* fn_;
  io::mm_info info_;
};

}  // namespace cusci::distributed::detail
