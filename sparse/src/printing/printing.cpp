// SciPy's repr/str of the sparse formats (see cusci/sparse/printing.hpp). Host code composing the
// format conversions and cusci::scalar_str (core printing).

#include "cusci/sparse/printing.hpp"

#include <algorithm>
#include <string>
#include <variant>

#include "cusci/error.hpp"
#include "cusci/printing.hpp"

namespace cusci::sparse {

namespace {

std::string_view format_title(sparse::format f) {
  switch (f) {
    case sparse::format::csr: return "Compressed Sparse Row";
    case sparse::format::csc: return "Compressed Sparse Column";
    case sparse::format::coo: return "COOrdinate";
    case sparse::format::dia: return "DIAgonal";
    case sparse::format::bsr: return "Block Sparse Row";
  }
  return "Undefined";
}

std::string header(sparse::format f, cusci::dtype t, std::int64_t nnz, const std::string& extra, shape2 shape) {
  std::string out = "<";
  out += format_title(f);
  out += " sparse matrix of dtype '";
  out += dtype_name(t);
  out += "'\n\twith ";
  out += std::to_string(nnz);
  out += " stored elements";
  out += extra;
  out += " and shape (";
  out += std::to_string(shape[0]);
  out += ", ";
  out += std::to_string(shape[1]);
  out += ")>";
  return out;
}

/// Lines "  (i, j)\tv" of the COO entries [begin, end).
std::string entry_lines(const coo_matrix& C, std::int64_t begin, std::int64_t end) {
  if (end <= begin) return "";
  const std::vector<index_spec> sl{slice{begin, end, {}}};
  const host_array r = to_host(C.row()[sl]).astype(dtype::int64);
  const host_array c = to_host(C.col()[sl]).astype(dtype::int64);
  // SciPy prints each value as a Python scalar (`.item()`): float32 and complex64 values appear as
  // their exact float64 / complex128 value ("0.10000000149011612"), not NumPy's float32 repr.
  host_array v = to_host(C.data()[sl]);
  if (v.dtype() == dtype::float32) v = v.astype(dtype::float64);
  if (v.dtype() == dtype::complex64) v = v.astype(dtype::complex128);
  const std::int64_t* pr = r.data_as<std::int64_t>();
  const std::int64_t* pc = c.data_as<std::int64_t>();
  std::string out;
  for (std::int64_t k = 0; k < end - begin; ++k) {
    if (k) out += '\n';
    out += "  (" + std::to_string(pr[k]) + ", " + std::to_string(pc[k]) + ")\t" + scalar_str(v, k);
  }
  return out;
}

/// SciPy's _base.__str__: `nnz` is the matrix's own count, C its COO form.
std::string body(const std::string& rep, std::int64_t nnz, const coo_matrix& C, std::int64_t maxprint) {
  if (nnz == 0) return rep;
  const std::int64_t n = C.nnz();
  std::string out = rep + "\n  Coords\tValues\n";
  if (nnz > maxprint) {
    // Python's c[:half] and c[-half2:] (c[-0:] is the whole array)
    const std::int64_t half = maxprint / 2, half2 = maxprint - half;
    out += entry_lines(C, 0, std::min(half, n));
    out += "\n  :\t:\n";
    const std::int64_t start = half2 == 0 ? 0 : std::max<std::int64_t>(n - half2, 0);
    out += entry_lines(C, start, n);
  } else {
    out += entry_lines(C, 0, n);
  }
  return out;
}

void check_maxprint(std::int64_t maxprint) {
  if (maxprint < 0)
    throw value_error("cusci::sparse::to_string: maxprint must be >= 0, got " + std::to_string(maxprint));
}

}  // namespace

std::string repr(const coo_matrix& A) { return header(A.format(), A.dtype(), A.nnz(), "", A.shape()); }
std::string repr(const csr_matrix& A) { return header(A.format(), A.dtype(), A.nnz(), "", A.shape()); }
std::string repr(const csc_matrix& A) { return header(A.format(), A.dtype(), A.nnz(), "", A.shape()); }
std::string repr(const dia_matrix& A) {
  const std::int64_t ndiag = A.data().ndim() >= 1 ? A.data().shape()[0] : 0;
  return header(A.format(), A.dtype(), A.nnz(), " (" + std::to_string(ndiag) + " diagonals)", A.shape());
}
std::string repr(const bsr_matrix& A) {
  const shape2 b = A.blocksize();
  return header(A.format(), A.dtype(), A.nnz(),
                " (blocksize=" + std::to_string(b[0]) + "x" + std::to_string(b[1]) + ")", A.shape());
}
std::string repr(const spmatrix& A) {
  return A.visit([](const auto& m) { return repr(m); });
}

std::string to_string(const coo_matrix& A, std::int64_t maxprint) {
  check_maxprint(maxprint);
  return body(repr(A), A.nnz(), A, maxprint);
}
std::string to_string(const csr_matrix& A, std::int64_t maxprint) {
  check_maxprint(maxprint);
  if (A.nnz() == 0) return repr(A);
  return body(repr(A), A.nnz(), A.tocoo(), maxprint);
}
std::string to_string(const csc_matrix& A, std::int64_t maxprint) {
  check_maxprint(maxprint);
  if (A.nnz() == 0) return repr(A);
  return body(repr(A), A.nnz(), A.tocoo(), maxprint);
}
std::string to_string(const dia_matrix& A, std::int64_t maxprint) {
  check_maxprint(maxprint);
  if (A.nnz() == 0) return repr(A);
  return body(repr(A), A.nnz(), A.tocsr().tocoo(), maxprint);
}
std::string to_string(const bsr_matrix& A, std::int64_t maxprint) {
  check_maxprint(maxprint);
  if (A.nnz() == 0) return repr(A);
  return body(repr(A), A.nnz(), A.tocoo(), maxprint);
}
std::string to_string(const spmatrix& A, std::int64_t maxprint) {
  return A.visit([maxprint](const auto& m) { return to_string(m, maxprint); });
}

std::ostream& operator<<(std::ostream& os, const coo_matrix& A) { return os << to_string(A); }
std::ostream& operator<<(std::ostream& os, const csr_matrix& A) { return os << to_string(A); }
std::ostream& operator<<(std::ostream& os, const csc_matrix& A) { return os << to_string(A); }
std::ostream& operator<<(std::ostream& os, const dia_matrix& A) { return os << to_string(A); }
std::ostream& operator<<(std::ostream& os, const bsr_matrix& A) { return os << to_string(A); }
std::ostream& operator<<(std::ostream& os, const spmatrix& A) { return os << to_string(A); }

}  // namespace cusci::sparse
