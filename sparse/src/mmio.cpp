// Matrix Market (coordinate) reader and writer: a hand-written parser over one in-memory buffer
// (std::from_chars), and a writer with SciPy's header and symmetry conventions.

#include "cusci/sparse/io.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <system_error>

#include "cusci/error.hpp"
#include "detail.hpp"

namespace cusci::io {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

struct file_closer {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

std::string read_file(const std::string& path) {
  std::unique_ptr<std::FILE, file_closer> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw error("cusci::io::mmread: cannot open '" + path + "': " + std::strerror(errno));
  std::string buf;
  char chunk[1 << 16];
  std::size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, f.get())) > 0) buf.append(chunk, got);
  if (std::ferror(f.get())) throw error("cusci::io::mmread: cannot read '" + path + "'");
  return buf;
}

// Walks the buffer line by line, keeping the 1-based line number for messages.
class line_reader {
 public:
  line_reader(const std::string& buf, const std::string& path) : p_(buf.data()), end_(buf.data() + buf.size()), path_(path) {}
  bool next(std::string_view& line) {
    if (p_ >= end_) return false;
    const char* nl = static_cast<const char*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)));
    const char* e = nl ? nl : end_;
    line = std::string_view(p_, static_cast<std::size_t>(e - p_));
    p_ = nl ? nl + 1 : end_;
    ++line_no_;
    return true;
  }
  std::int64_t line_no() const { return line_no_; }
  /// Bytes not yet consumed (after the current line and its newline).
  std::int64_t remaining() const { return static_cast<std::int64_t>(end_ - p_); }
  [[noreturn]] void fail(const std::string& what, std::int64_t line) const {
    throw value_error("cusci::io::mmread: " + path_ + ":" + std::to_string(line) + ": " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { fail(what, line_no_); }

 private:
  const char* p_;
  const char* end_;
  const std::string& path_;
  std::int64_t line_no_ = 0;
};

// Splits a line into at most `max` whitespace-separated tokens; returns how many there were (up to max+1).
int tokenize(std::string_view line, std::string_view* tok, int max) {
  int n = 0;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size()) break;
    std::size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    if (n < max) tok[n] = line.substr(i, j - i);
    ++n;
    if (n > max) return n;
    i = j;
  }
  return n;
}

bool blank(std::string_view line) {
  for (char c : line)
    if (!is_space(c)) return false;
  return true;
}

// A comment line: '%' after optional leading whitespace (SciPy accepts indented comments before the
// size line; cusci accepts them among the entries too). Sets `text` to what follows the '%'.
bool comment_line(std::string_view line, std::string_view& text) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  if (i >= line.size() || line[i] != '%') return false;
  text = line.substr(i + 1);
  return true;
}

bool parse_int(std::string_view t, std::int64_t& v) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && ptr == t.data() + t.size();
}

bool parse_real(std::string_view t, double& v) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {  // over/underflow: strtod's answer (inf or 0), as C parsers give
    std::string s(t);
    v = std::strtod(s.c_str(), nullptr);
    return true;
  }
  return ec == std::errc() && ptr == t.data() + t.size();
}

}  // namespace

mm_field mm_field_from_string(std::string_view s) {
  const std::string l = lower(s);
  if (l == "real") return mm_field::real;
  if (l == "integer") return mm_field::integer;
  if (l == "pattern") return mm_field::pattern;
  if (l == "complex") return mm_field::complex;
  throw value_error("cusci::io: field must be one of 'real', 'integer', 'pattern', 'complex', got '" +
                    std::string(s) + "'");
}

mm_symmetry mm_symmetry_from_string(std::string_view s) {
  const std::string l = lower(s);
  if (l == "general") return mm_symmetry::general;
  if (l == "symmetric") return mm_symmetry::symmetric;
  if (l == "skew-symmetric") return mm_symmetry::skew_symmetric;
  if (l == "hermitian") return mm_symmetry::hermitian;
  if (l == "auto") return mm_symmetry::automatic;
  throw value_error("cusci::io: symmetry must be one of 'general', 'symmetric', 'skew-symmetric', "
                    "'hermitian', 'AUTO', got '" + std::string(s) + "'");
}

std::string_view to_string(mm_field f) noexcept {
  switch (f) {
    case mm_field::real: return "real";
    case mm_field::integer: return "integer";
    case mm_field::pattern: return "pattern";
    case mm_field::complex: return "complex";
  }
  return "real";
}

std::string_view to_string(mm_symmetry s) noexcept {
  switch (s) {
    case mm_symmetry::general: return "general";
    case mm_symmetry::symmetric: return "symmetric";
    case mm_symmetry::skew_symmetric: return "skew-symmetric";
    case mm_symmetry::hermitian: return "hermitian";
    case mm_symmetry::automatic: return "AUTO";
  }
  return "general";
}

mm_host_matrix mmread_host(const std::string& path) {
  const std::string buf = read_file(path);
  line_reader rd(buf, path);
  mm_host_matrix out;
  std::string_view line;

  // Banner.
  if (!rd.next(line)) rd.fail("empty file, expected the '%%MatrixMarket' banner", 1);
  {
    std::string_view tok[6];
    const int n = tokenize(line, tok, 5);
    if (n < 1 || lower(tok[0]) != "%%matrixmarket")
      rd.fail("expected the '%%MatrixMarket matrix coordinate <field> <symmetry>' banner");
    if (n != 5) rd.fail("the banner must have 5 words, got " + std::to_string(n));
    if (lower(tok[1]) != "matrix") rd.fail("unsupported object '" + std::string(tok[1]) + "', expected 'matrix'");
    const std::string fmt = lower(tok[2]);
    if (fmt == "array")
      throw not_implemented_error("cusci::io::mmread: " + path + ": 'array' (dense) Matrix Market files are not "
                                  "supported, only 'coordinate'");
    if (fmt != "coordinate") rd.fail("unknown format '" + std::string(tok[2]) + "', expected 'coordinate'");
    try {
      out.field = mm_field_from_string(tok[3]);
      out.symmetry = mm_symmetry_from_string(tok[4]);
    } catch (const value_error& e) {
      rd.fail(e.what());
    }
    if (out.symmetry == mm_symmetry::automatic) rd.fail("unknown symmetry 'AUTO'");
    if (out.field == mm_field::complex || out.symmetry == mm_symmetry::hermitian)
      throw not_implemented_error("cusci::io::mmread: " + path + ": complex and hermitian Matrix Market files are "
                                  "not supported");
  }

  // Comments, then the size line.
  std::int64_t rows = 0, cols = 0, nnz = 0;
  for (;;) {
    if (!rd.next(line)) rd.fail("missing the size line 'rows cols entries'", rd.line_no() + 1);
    std::string_view text;
    if (comment_line(line, text)) {
      if (!out.comment.empty()) out.comment += '\n';
      out.comment.append(text);
      if (!out.comment.empty() && out.comment.back() == '\r') out.comment.pop_back();
      continue;
    }
    if (blank(line)) continue;
    std::string_view tok[3];
    const int n = tokenize(line, tok, 3);
    if (n != 3) rd.fail("expected the size line 'rows cols entries' (3 integers), got " + std::to_string(n) + " values");
    if (!parse_int(tok[0], rows) || !parse_int(tok[1], cols) || !parse_int(tok[2], nnz))
      rd.fail("the size line must hold 3 integers, got '" + std::string(line) + "'");
    if (rows < 0 || cols < 0 || nnz < 0) rd.fail("negative value in the size line");
    break;
  }
  if (out.symmetry != mm_symmetry::general && rows != cols)
    rd.fail(std::string(to_string(out.symmetry)) + " matrix must be square, got " + std::to_string(rows) + " x " +
            std::to_string(cols));
  out.rows = rows;
  out.cols = cols;
  out.entries = nnz;

  // The declared count sizes the arrays, so it is checked against what the file can hold first: an
  // entry takes at least 4 bytes ("1 1" and a newline; the last one may lack its newline).
  const std::int64_t left = rd.remaining();
  if (nnz > (left + 1) / 4)
    rd.fail("the size line declares " + std::to_string(nnz) + " entries, but the file has only " +
            std::to_string(left) + " bytes after it (an entry takes at least 4)");
  const int want = out.field == mm_field::pattern ? 2 : 3;
  const bool integer = out.field == mm_field::integer;
  out.row.reserve(static_cast<std::size_t>(nnz));
  out.col.reserve(static_cast<std::size_t>(nnz));
  out.data.reserve(static_cast<std::size_t>(nnz));
  std::int64_t k = 0;
  while (rd.next(line)) {
    std::string_view text;
    if (blank(line) || comment_line(line, text)) continue;
    if (k >= nnz) rd.fail("more entries than the " + std::to_string(nnz) + " declared in the size line");
    std::string_view tok[3];
    const int n = tokenize(line, tok, 3);
    if (n != want)
      rd.fail("expected " + std::to_string(want) + " values (" + std::string(to_string(out.field)) + " field), got " +
              std::to_string(n));
    std::int64_t i = 0, j = 0;
    if (!parse_int(tok[0], i) || !parse_int(tok[1], j))
      rd.fail("indices must be integers, got '" + std::string(tok[0]) + " " + std::string(tok[1]) + "'");
    if (i < 1 || i > rows)
      rd.fail("row index " + std::to_string(i) + " out of range [1, " + std::to_string(rows) + "]");
    if (j < 1 || j > cols)
      rd.fail("column index " + std::to_string(j) + " out of range [1, " + std::to_string(cols) + "]");
    double v = 1.0;
    if (want == 3) {
      if (integer) {
        std::int64_t iv = 0;
        if (!parse_int(tok[2], iv)) rd.fail("expected an integer value, got '" + std::string(tok[2]) + "'");
        v = static_cast<double>(iv);
      } else if (!parse_real(tok[2], v)) {
        rd.fail("expected a real value, got '" + std::string(tok[2]) + "'");
      }
    }
    out.row.push_back(i - 1);
    out.col.push_back(j - 1);
    out.data.push_back(v);
    ++k;
  }
  if (k < nnz)
    rd.fail("expected " + std::to_string(nnz) + " entries, found " + std::to_string(k), rd.line_no() + 1);

  if (out.symmetry != mm_symmetry::general) {
    const double sign = out.symmetry == mm_symmetry::skew_symmetric ? -1.0 : 1.0;
    std::int64_t off = 0;
    for (std::int64_t e = 0; e < nnz; ++e) off += out.row[e] != out.col[e];
    out.row.reserve(static_cast<std::size_t>(nnz + off));
    out.col.reserve(static_cast<std::size_t>(nnz + off));
    out.data.reserve(static_cast<std::size_t>(nnz + off));
    for (std::int64_t e = 0; e < nnz; ++e) {
      if (out.row[e] == out.col[e]) continue;
      out.row.push_back(out.col[e]);
      out.col.push_back(out.row[e]);
      out.data.push_back(sign * out.data[e]);
    }
  }
  return out;
}

sparse::coo_matrix mmread(const std::string& path) {
  mm_host_matrix h = mmread_host(path);
  const std::int64_t nnz = static_cast<std::int64_t>(h.data.size());
  const dtype it = sparse::get_index_dtype(std::max({h.rows, h.cols, nnz}));
  ndarray data = asarray(h.data);
  ndarray row, col;
  if (it == dtype::int32) {
    std::vector<std::int32_t> r(h.row.begin(), h.row.end()), c(h.col.begin(), h.col.end());
    row = asarray(r);
    col = asarray(c);
  } else {
    row = asarray(h.row);
    col = asarray(h.col);
  }
  return sparse::coo_matrix::from_valid(std::move(data), std::move(row), std::move(col), {h.rows, h.cols});
}

namespace {

// Symmetry of a matrix given by triplets, as SciPy's MMFile._get_symmetry: symmetric, then
// skew-symmetric, else general (a missing entry counts as 0; duplicates are summed first).
mm_symmetry detect_symmetry(std::int64_t rows, std::int64_t cols, const std::vector<std::int64_t>& row,
                            const std::vector<std::int64_t>& col, const std::vector<double>& data) {
  if (rows != cols) return mm_symmetry::general;
  std::vector<std::size_t> order(data.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return row[a] != row[b] ? row[a] < row[b] : col[a] < col[b];
  });
  struct entry {
    std::int64_t r, c;
    double v;
  };
  std::vector<entry> e;
  for (std::size_t k : order) {
    if (!e.empty() && e.back().r == row[k] && e.back().c == col[k]) e.back().v += data[k];
    else e.push_back({row[k], col[k], data[k]});
  }
  auto value_at = [&](std::int64_t r, std::int64_t c) {
    auto it = std::lower_bound(e.begin(), e.end(), entry{r, c, 0.0},
                               [](const entry& a, const entry& b) { return a.r != b.r ? a.r < b.r : a.c < b.c; });
    return (it != e.end() && it->r == r && it->c == c) ? it->v : 0.0;
  };
  bool sym = true, skew = true;
  for (const entry& x : e) {
    const double t = value_at(x.c, x.r);
    if (x.v != t) sym = false;
    if (x.v != -t) skew = false;
    if (!sym && !skew) break;
  }
  if (sym) return mm_symmetry::symmetric;
  if (skew) return mm_symmetry::skew_symmetric;
  return mm_symmetry::general;
}

// Largest accepted `precision`: 17 significant digits already round-trip any double; more digits
// print more of the exact binary value (as printf does), up to this bound.
constexpr int max_precision = 32;

void check_precision(const std::optional<int>& precision) {
  CUSCI_EXPECTS(!precision || (*precision >= 0 && *precision <= max_precision), value_error,
                "cusci::io::mmwrite: precision must be in [0, " + std::to_string(max_precision) + "], got " +
                    std::to_string(precision.value_or(0)));
}

void append_number(std::string& s, double v, const std::optional<int>& precision) {
  // Longest output: sign, digit, point, max_precision - 1 digits, "e+308": 37 characters.
  char b[64];
  if (precision) {
    // %e takes digits after the point; precision 0 writes one significant digit, as SciPy.
    const int n = std::snprintf(b, sizeof b, "%.*e", std::max(*precision, 1) - 1, v);
    CUSCI_EXPECTS(n > 0 && static_cast<std::size_t>(n) < sizeof b, error,
                  "cusci::io::mmwrite: cannot format a value");
    s.append(b, static_cast<std::size_t>(n));
  } else {
    auto [p, ec] = std::to_chars(b, b + sizeof b, v);
    s.append(b, p);
  }
}

std::string num_str(double v) {
  char b[32];
  const int n = std::snprintf(b, sizeof b, "%.17g", v);
  return std::string(b, static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(sizeof b) - 1)));
}

void append_int(std::string& s, std::int64_t v) {
  char b[32];
  auto [p, ec] = std::to_chars(b, b + sizeof b, v);
  s.append(b, p);
}

}  // namespace

void mmwrite_host(const std::string& path, std::int64_t rows, std::int64_t cols, const std::vector<std::int64_t>& row,
                  const std::vector<std::int64_t>& col, const std::vector<double>& data, const mmwrite_options& o) {
  static constexpr const char* fn = "cusci::io::mmwrite";
  const mm_field field = o.field.value_or(mm_field::real);
  CUSCI_EXPECTS(field != mm_field::complex, value_error, std::string(fn) + ": field 'complex' needs complex values");
  CUSCI_EXPECTS(o.symmetry != mm_symmetry::hermitian, value_error,
                std::string(fn) + ": symmetry 'hermitian' needs complex values");
  check_precision(o.precision);
  CUSCI_EXPECTS(rows >= 0 && cols >= 0, value_error,
                std::string(fn) + ": shape must be >= 0, got (" + std::to_string(rows) + ", " + std::to_string(cols) +
                    ")");
  CUSCI_EXPECTS(row.size() == col.size() && row.size() == data.size(), value_error,
                std::string(fn) + ": row, col and data must have the same length");
  for (std::size_t k = 0; k < data.size(); ++k) {
    CUSCI_EXPECTS(row[k] >= 0 && row[k] < rows, value_error,
                  std::string(fn) + ": row index " + std::to_string(row[k]) + " of entry " + std::to_string(k) +
                      " out of range [0, " + std::to_string(rows) + ")");
    CUSCI_EXPECTS(col[k] >= 0 && col[k] < cols, value_error,
                  std::string(fn) + ": column index " + std::to_string(col[k]) + " of entry " + std::to_string(k) +
                      " out of range [0, " + std::to_string(cols) + ")");
    // An integer field truncates toward zero; the result must be an int64 (NaN fails both tests).
    CUSCI_EXPECTS(field != mm_field::integer || (data[k] >= -0x1p63 && data[k] < 0x1p63),
                  value_error,
                  std::string(fn) + ": field 'integer' needs finite values in the int64 range, entry " +
                      std::to_string(k) + " is " + num_str(data[k]));
  }
  mm_symmetry sym = o.symmetry;
  if (sym == mm_symmetry::automatic)
    sym = std::max(rows, cols) < 100 ? detect_symmetry(rows, cols, row, col, data) : mm_symmetry::general;
  CUSCI_EXPECTS(sym == mm_symmetry::general || rows == cols, value_error,
                std::string(fn) + ": symmetry '" + std::string(to_string(sym)) + "' needs a square matrix, got (" +
                    std::to_string(rows) + ", " + std::to_string(cols) + ")");

  std::string s;
  s.reserve(64 + data.size() * 32);
  s += "%%MatrixMarket matrix coordinate ";
  s += to_string(field);
  s += ' ';
  s += to_string(sym);
  s += '\n';
  if (o.comment.empty()) {
    s += "%\n";
  } else {
    std::size_t start = 0;
    for (;;) {
      const std::size_t nl = o.comment.find('\n', start);
      s += '%';
      s.append(o.comment, start, nl == std::string::npos ? std::string::npos : nl - start);
      s += '\n';
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
  }
  const bool lower_only = sym != mm_symmetry::general;
  std::int64_t count = 0;
  for (std::size_t k = 0; k < data.size(); ++k) count += !lower_only || row[k] >= col[k];
  append_int(s, rows);
  s += ' ';
  append_int(s, cols);
  s += ' ';
  append_int(s, count);
  s += '\n';
  for (std::size_t k = 0; k < data.size(); ++k) {
    if (lower_only && row[k] < col[k]) continue;
    append_int(s, row[k] + 1);
    s += ' ';
    append_int(s, col[k] + 1);
    if (field == mm_field::real) {
      s += ' ';
      append_number(s, data[k], o.precision);
    } else if (field == mm_field::integer) {
      s += ' ';
      append_int(s, static_cast<std::int64_t>(std::trunc(data[k])));
    }
    s += '\n';
  }
  std::unique_ptr<std::FILE, file_closer> f(std::fopen(path.c_str(), "wb"));
  if (!f) throw error(std::string(fn) + ": cannot open '" + path + "' for writing: " + std::strerror(errno));
  if (std::fwrite(s.data(), 1, s.size(), f.get()) != s.size())
    throw error(std::string(fn) + ": cannot write '" + path + "'");
}

void mmwrite(const std::string& path, const sparse::coo_matrix& A, const mmwrite_options& o) {
  // Checks that do not need the data first, so that bad options fail before the copy.
  check_precision(o.precision);
  host_array d = to_host(A.data()).astype(dtype::float64);
  host_array r = to_host(A.row()).astype(dtype::int64);
  host_array c = to_host(A.col()).astype(dtype::int64);
  mmwrite_host(path, A.shape()[0], A.shape()[1], r.to_vector<std::int64_t>(), c.to_vector<std::int64_t>(),
               d.to_vector<double>(), o);
}

void mmwrite(const std::string& path, const sparse::csr_matrix& A, const mmwrite_options& o) {
  mmwrite(path, A.tocoo(), o);
}

}  // namespace cusci::io
