// Matrix Market reader and writer (coordinate and array files, every field and symmetry): a
// hand-written parser over one in-memory buffer (std::from_chars), and a writer with SciPy's
// header, field and symmetry conventions. Files are read through zlib's gz* stream, which reads
// gzip-compressed files (".mtx.gz", as SciPy's mmread) and plain ones alike.

#include "cusci/sparse/io.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cerrno>
#include <complex>
#include <limits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <system_error>

#include "common/detail.hpp"
#include "cusci/error.hpp"
#include "cusci/detail/nvtx.hpp"

#include <zlib.h>

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

struct gz_closer {
  void operator()(gzFile_s* f) const noexcept { gzclose(f); }
};

// Reads `path` (gzip-compressed or plain: zlib passes plain files through) into one buffer; at most
// `limit` decompressed bytes when limit > 0. `fn` names the calling function in messages.
std::string read_file(const std::string& path, const char* fn, std::size_t limit = 0) {
  errno = 0;
  std::unique_ptr<gzFile_s, gz_closer> f(gzopen(path.c_str(), "rb"));
  if (!f) {
    const std::string why = errno ? std::strerror(errno) : "out of memory";
    throw error(std::string(fn) + ": cannot open '" + path + "': " + why);
  }
  gzbuffer(f.get(), 1u << 17);
  std::string buf;
  char chunk[1 << 16];
  for (;;) {
    unsigned want = sizeof chunk;
    if (limit > 0) {
      if (buf.size() >= limit) break;
      want = static_cast<unsigned>(std::min<std::size_t>(want, limit - buf.size()));
    }
    const int got = gzread(f.get(), chunk, want);
    if (got < 0) break;
    buf.append(chunk, static_cast<std::size_t>(got));
    if (static_cast<unsigned>(got) < want) break;
  }
  int zerr = Z_OK;
  const char* msg = gzerror(f.get(), &zerr);
  // Z_BUF_ERROR is a truncated gzip stream ("unexpected end of file"); with a byte limit it can only
  // mean that the limit cut the stream, which mminfo accepts.
  if (zerr != Z_OK && zerr != Z_STREAM_END && !(limit > 0 && zerr == Z_BUF_ERROR && buf.size() >= limit))
    throw error(std::string(fn) + ": cannot read '" + path + "': " + (zerr == Z_ERRNO ? std::strerror(errno) : msg));
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

mm_format mm_format_from_string(std::string_view s) {
  const std::string l = lower(s);
  if (l == "coordinate") return mm_format::coordinate;
  if (l == "array") return mm_format::array;
  throw value_error("cusci::io: format must be one of 'coordinate', 'array', got '" + std::string(s) + "'");
}

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

std::string_view to_string(mm_format f) noexcept { return f == mm_format::array ? "array" : "coordinate"; }

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

namespace {

// Banner, comments and size line. Leaves the reader after the size line.
void parse_header(line_reader& rd, mm_host_matrix& out) {
  std::string_view line;
  if (!rd.next(line)) rd.fail("empty file, expected the '%%MatrixMarket' banner", 1);
  {
    std::string_view tok[6];
    const int n = tokenize(line, tok, 5);
    if (n < 1 || lower(tok[0]) != "%%matrixmarket")
      rd.fail("expected the '%%MatrixMarket matrix <format> <field> <symmetry>' banner");
    if (n != 5) rd.fail("the banner must have 5 words, got " + std::to_string(n));
    if (lower(tok[1]) != "matrix") rd.fail("unsupported object '" + std::string(tok[1]) + "', expected 'matrix'");
    try {
      out.format = mm_format_from_string(tok[2]);
      out.field = mm_field_from_string(tok[3]);
      out.symmetry = mm_symmetry_from_string(tok[4]);
    } catch (const value_error& e) {
      rd.fail(e.what());
    }
    if (out.symmetry == mm_symmetry::automatic) rd.fail("unknown symmetry 'AUTO'");
    if (out.format == mm_format::array && out.field == mm_field::pattern)
      rd.fail("the pattern field is only allowed with the coordinate format");
  }
  const int nsize = out.format == mm_format::array ? 2 : 3;
  const char* what = out.format == mm_format::array ? "the size line 'rows cols'" : "the size line 'rows cols entries'";
  for (;;) {
    if (!rd.next(line)) rd.fail(std::string("missing ") + what, rd.line_no() + 1);
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
    if (n != nsize)
      rd.fail(std::string("expected ") + what + " (" + std::to_string(nsize) + " integers), got " + std::to_string(n) +
              " values");
    std::int64_t v[3] = {0, 0, 0};
    for (int k = 0; k < nsize; ++k)
      if (!parse_int(tok[k], v[k]))
        rd.fail(std::string("the size line must hold ") + std::to_string(nsize) + " integers, got '" +
                std::string(line) + "'");
    if (v[0] < 0 || v[1] < 0 || v[2] < 0) rd.fail("negative value in the size line");
    out.rows = v[0];
    out.cols = v[1];
    if (nsize == 3) {
      out.entries = v[2];
    } else {
      if (v[1] != 0 && v[0] > std::numeric_limits<std::int64_t>::max() / v[1])
        rd.fail("the size line's rows * cols overflows");
      out.entries = v[0] * v[1];
    }
    break;
  }
  if (out.symmetry != mm_symmetry::general && out.rows != out.cols)
    rd.fail(std::string(to_string(out.symmetry)) + " matrix must be square, got " + std::to_string(out.rows) + " x " +
            std::to_string(out.cols));
}

// Parses the value tokens of one entry (field real/integer/complex) into the output vectors.
struct value_sink {
  mm_host_matrix& m;
  line_reader& rd;
  void push(const std::string_view* tok) {
    switch (m.field) {
      case mm_field::pattern: m.data.push_back(1.0); break;
      case mm_field::integer: {
        std::int64_t iv = 0;
        if (!parse_int(tok[0], iv)) rd.fail("expected an integer value (int64), got '" + std::string(tok[0]) + "'");
        m.idata.push_back(iv);
        m.data.push_back(static_cast<double>(iv));
        break;
      }
      case mm_field::real: {
        double v = 0;
        if (!parse_real(tok[0], v)) rd.fail("expected a real value, got '" + std::string(tok[0]) + "'");
        m.data.push_back(v);
        break;
      }
      case mm_field::complex: {
        double re = 0, im = 0;
        if (!parse_real(tok[0], re) || !parse_real(tok[1], im))
          rd.fail("expected a complex value (two reals), got '" + std::string(tok[0]) + " " + std::string(tok[1]) + "'");
        m.data.push_back(re);
        m.imag.push_back(im);
        break;
      }
    }
  }
  void reserve(std::size_t n) {
    m.data.reserve(n);
    if (m.field == mm_field::integer) m.idata.reserve(n);
    if (m.field == mm_field::complex) m.imag.reserve(n);
  }
};

int value_count(mm_field f) { return f == mm_field::pattern ? 0 : f == mm_field::complex ? 2 : 1; }

std::string values_word(int want, mm_field f) {
  return "expected " + std::to_string(want) + " values (" + std::string(to_string(f)) + " field)";
}

void parse_coordinate(line_reader& rd, mm_host_matrix& out) {
  const std::int64_t nnz = out.entries;
  // The declared count sizes the arrays, so it is checked against what the file can hold first: an
  // entry takes at least 4 bytes ("1 1" and a newline; the last one may lack its newline).
  const std::int64_t left = rd.remaining();
  if (nnz > (left + 1) / 4)
    rd.fail("the size line declares " + std::to_string(nnz) + " entries, but the file has only " +
            std::to_string(left) + " bytes after it (an entry takes at least 4)");
  const int want = 2 + value_count(out.field);
  out.row.reserve(static_cast<std::size_t>(nnz));
  out.col.reserve(static_cast<std::size_t>(nnz));
  value_sink sink{out, rd};
  sink.reserve(static_cast<std::size_t>(nnz));
  std::int64_t k = 0;
  std::string_view line;
  while (rd.next(line)) {
    std::string_view text;
    if (blank(line) || comment_line(line, text)) continue;
    if (k >= nnz) rd.fail("more entries than the " + std::to_string(nnz) + " declared in the size line");
    std::string_view tok[4];
    const int n = tokenize(line, tok, 4);
    if (n != want) rd.fail(values_word(want, out.field) + ", got " + std::to_string(n));
    std::int64_t i = 0, j = 0;
    if (!parse_int(tok[0], i) || !parse_int(tok[1], j))
      rd.fail("indices must be integers, got '" + std::string(tok[0]) + " " + std::string(tok[1]) + "'");
    if (i < 1 || i > out.rows)
      rd.fail("row index " + std::to_string(i) + " out of range [1, " + std::to_string(out.rows) + "]");
    if (j < 1 || j > out.cols)
      rd.fail("column index " + std::to_string(j) + " out of range [1, " + std::to_string(out.cols) + "]");
    sink.push(tok + 2);
    out.row.push_back(i - 1);
    out.col.push_back(j - 1);
    ++k;
  }
  if (k < nnz) rd.fail("expected " + std::to_string(nnz) + " entries, found " + std::to_string(k), rd.line_no() + 1);

  if (out.symmetry != mm_symmetry::general) {
    const bool skew = out.symmetry == mm_symmetry::skew_symmetric;
    const bool herm = out.symmetry == mm_symmetry::hermitian;
    std::int64_t off = 0;
    for (std::int64_t e = 0; e < nnz; ++e) off += out.row[e] != out.col[e];
    const auto total = static_cast<std::size_t>(nnz + off);
    out.row.reserve(total);
    out.col.reserve(total);
    sink.reserve(total);
    for (std::int64_t e = 0; e < nnz; ++e) {
      if (out.row[e] == out.col[e]) continue;
      out.row.push_back(out.col[e]);
      out.col.push_back(out.row[e]);
      out.data.push_back(skew ? -out.data[e] : out.data[e]);
      if (out.field == mm_field::integer)
        out.idata.push_back(skew ? static_cast<std::int64_t>(0ULL - static_cast<std::uint64_t>(out.idata[e]))
                                 : out.idata[e]);
      if (out.field == mm_field::complex) out.imag.push_back(skew || herm ? -out.imag[e] : out.imag[e]);
    }
  }
}

void parse_array(line_reader& rd, mm_host_matrix& out) {
  const std::int64_t m = out.rows, n = out.cols;
  std::int64_t expect = out.entries;  // general: rows * cols
  if (out.symmetry == mm_symmetry::symmetric || out.symmetry == mm_symmetry::hermitian) expect = n * (n + 1) / 2;
  if (out.symmetry == mm_symmetry::skew_symmetric) expect = n > 0 ? n * (n - 1) / 2 : 0;
  const std::int64_t left = rd.remaining();
  if (expect > (left + 1) / 2)
    rd.fail("the size line declares " + std::to_string(expect) + " values, but the file has only " +
            std::to_string(left) + " bytes after it (a value takes at least 2)");
  const int want = value_count(out.field);
  // Values in file order (column-major, lower triangle for the symmetric kinds).
  mm_host_matrix raw;
  raw.field = out.field;
  value_sink sink{raw, rd};
  sink.reserve(static_cast<std::size_t>(expect));
  std::int64_t k = 0;
  std::string_view line;
  while (rd.next(line)) {
    std::string_view text;
    if (blank(line) || comment_line(line, text)) continue;
    if (k >= expect) rd.fail("more values than the " + std::to_string(expect) + " the size line implies");
    std::string_view tok[2];
    const int got = tokenize(line, tok, 2);
    if (got != want) rd.fail(values_word(want, out.field) + ", got " + std::to_string(got));
    sink.push(tok);
    ++k;
  }
  if (k < expect) rd.fail("expected " + std::to_string(expect) + " values, found " + std::to_string(k), rd.line_no() + 1);
  if (out.symmetry == mm_symmetry::general) {
    out.data = std::move(raw.data);
    out.imag = std::move(raw.imag);
    out.idata = std::move(raw.idata);
    return;
  }
  const auto total = static_cast<std::size_t>(m * n);
  out.data.assign(total, 0.0);
  if (out.field == mm_field::complex) out.imag.assign(total, 0.0);
  if (out.field == mm_field::integer) out.idata.assign(total, 0);
  const bool skew = out.symmetry == mm_symmetry::skew_symmetric;
  const bool herm = out.symmetry == mm_symmetry::hermitian;
  std::size_t e = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = skew ? j + 1 : j; i < n; ++i, ++e) {
      const auto lo = static_cast<std::size_t>(i + j * m), up = static_cast<std::size_t>(j + i * m);
      out.data[lo] = raw.data[e];
      if (i != j) out.data[up] = skew ? -raw.data[e] : raw.data[e];
      if (out.field == mm_field::complex) {
        out.imag[lo] = raw.imag[e];
        if (i != j) out.imag[up] = skew || herm ? -raw.imag[e] : raw.imag[e];
      }
      if (out.field == mm_field::integer) {
        out.idata[lo] = raw.idata[e];
        if (i != j)
          out.idata[up] = skew ? static_cast<std::int64_t>(0ULL - static_cast<std::uint64_t>(raw.idata[e])) : raw.idata[e];
      }
    }
  }
}

}  // namespace

mm_info mminfo(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::io::mminfo");
  // Only the header is needed, but the reader works on one buffer; header lines are short, so read
  // the file in full only when it is small, else its first 1 MiB (comments longer than that are
  // not expected in practice; the size line must lie within it).
  const std::string buf = read_file(path, "cusci::io::mminfo", std::size_t{1} << 20);
  line_reader rd(buf, path);
  mm_host_matrix h;
  parse_header(rd, h);
  return {h.rows, h.cols, h.entries, h.format, h.field, h.symmetry};
}

mm_host_matrix mmread_host(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::io::mmread_host");
  const std::string buf = read_file(path, "cusci::io::mmread");
  line_reader rd(buf, path);
  mm_host_matrix out;
  parse_header(rd, out);
  if (out.format == mm_format::coordinate) parse_coordinate(rd, out);
  else parse_array(rd, out);
  return out;
}

namespace {

// The values of a parsed file as a host array of SciPy's dtype (float64 / int64 / complex128).
host_array host_values(const mm_host_matrix& h, shape_t shape) {
  if (h.field == mm_field::integer) return host_array::from(h.idata, std::move(shape));
  if (h.field == mm_field::complex) {
    std::vector<std::complex<double>> z(h.data.size());
    for (std::size_t k = 0; k < z.size(); ++k) z[k] = {h.data[k], h.imag[k]};
    return host_array::from(z, std::move(shape));
  }
  return host_array::from(h.data, std::move(shape));
}

ndarray dense_from_host(const mm_host_matrix& h) {
  // Column-major values: a host transpose into C order.
  host_array f = host_values(h, {h.cols, h.rows});  // F-order [rows, cols] == C-order [cols, rows]
  host_array c(f.dtype(), {h.rows, h.cols});
  const std::size_t sz = itemsize(f.dtype());
  const auto* src = static_cast<const unsigned char*>(f.data());
  auto* dst = static_cast<unsigned char*>(c.data());
  for (std::int64_t i = 0; i < h.rows; ++i)
    for (std::int64_t j = 0; j < h.cols; ++j)
      std::memcpy(dst + static_cast<std::size_t>(i * h.cols + j) * sz, src + static_cast<std::size_t>(j * h.rows + i) * sz,
                  sz);
  return asarray(c);
}

sparse::coo_matrix coo_from_host(const mm_host_matrix& h) {
  const auto nnz = static_cast<std::int64_t>(h.data.size());
  const dtype it = sparse::get_index_dtype(std::max({h.rows, h.cols, nnz}));
  ndarray data = asarray(host_values(h, {nnz}));
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

}  // namespace

std::variant<sparse::coo_matrix, ndarray> mmread_any(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::io::mmread_any");
  mm_host_matrix h = mmread_host(path);
  if (h.format == mm_format::array) return dense_from_host(h);
  return coo_from_host(h);
}

sparse::coo_matrix mmread(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::io::mmread");
  mm_host_matrix h = mmread_host(path);
  if (h.format == mm_format::array) return sparse::coo_matrix(dense_from_host(h));
  return coo_from_host(h);
}

ndarray mmread_dense(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::io::mmread_dense");
  mm_host_matrix h = mmread_host(path);
  if (h.format == mm_format::array) return dense_from_host(h);
  return coo_from_host(h).toarray();
}

namespace {

// Largest accepted `precision`: 17 significant digits already round-trip any double; more digits
// print more of the exact binary value (as printf does), up to this bound.
constexpr int max_precision = 32;
constexpr const char* wfn = "cusci::io::mmwrite";

void check_precision(const std::optional<int>& precision) {
  CUSCI_EXPECTS(!precision || (*precision >= 0 && *precision <= max_precision), value_error,
                std::string(wfn) + ": precision must be in [0, " + std::to_string(max_precision) + "], got " +
                    std::to_string(precision.value_or(0)));
}

template <class F>
void append_number(std::string& s, F v, const std::optional<int>& precision) {
  // Longest output: sign, digit, point, max_precision - 1 digits, "e+308": 37 characters.
  char b[64];
  if (precision) {
    // %e takes digits after the point; precision 0 writes one significant digit, as SciPy.
    const int n = std::snprintf(b, sizeof b, "%.*e", std::max(*precision, 1) - 1, static_cast<double>(v));
    CUSCI_EXPECTS(n > 0 && static_cast<std::size_t>(n) < sizeof b, error, std::string(wfn) + ": cannot format a value");
    s.append(b, static_cast<std::size_t>(n));
  } else {
    auto [p, ec] = std::to_chars(b, b + sizeof b, v);  // shortest form that reads back to the same F
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

// The values to write, converted for the field: exactly one of the vectors is used.
struct write_values {
  mm_field field = mm_field::real;
  bool single = false;  // float32 / complex64 source: print the float form
  std::vector<double> re, im;
  std::vector<std::int64_t> iv;
  std::size_t size() const { return field == mm_field::integer ? iv.size() : re.size(); }
  // Value k as a complex number, for symmetry detection.
  bool equal(std::size_t a, std::size_t b, int mode) const {  // mode 0 sym, 1 skew, 2 herm: v[a] == f(v[b])
    if (field == mm_field::integer) {
      const std::int64_t y = mode == 1 ? static_cast<std::int64_t>(0ULL - static_cast<std::uint64_t>(iv[b])) : iv[b];
      return iv[a] == y;
    }
    const double yr = mode == 1 ? -re[b] : re[b];
    if (field != mm_field::complex) return re[a] == yr;
    const double yi = mode == 0 ? im[b] : -im[b];
    return re[a] == yr && im[a] == yi;
  }
  bool is_zero(std::size_t a) const {
    if (field == mm_field::integer) return iv[a] == 0;
    return re[a] == 0 && (field != mm_field::complex || im[a] == 0);
  }
};

mm_field default_field(dtype t) {
  if (is_complex(t)) return mm_field::complex;
  if (is_floating(t)) return mm_field::real;
  return mm_field::integer;  // bool and integers, as SciPy
}

write_values convert_values(const host_array& data, mm_field field) {
  write_values w;
  w.field = field;
  const dtype t = data.dtype();
  const auto n = static_cast<std::size_t>(data.size());
  switch (field) {
    case mm_field::pattern: break;
    case mm_field::real: {
      w.single = t == dtype::float32 || t == dtype::complex64;
      w.re = data.astype(dtype::float64).to_vector<double>();
      break;
    }
    case mm_field::complex: {
      w.single = t == dtype::float32 || t == dtype::complex64;
      const host_array z = data.astype(dtype::complex128);
      const auto* p = z.data_as<std::complex<double>>();
      w.re.resize(n);
      w.im.resize(n);
      for (std::size_t k = 0; k < n; ++k) {
        w.re[k] = p[k].real();
        w.im[k] = p[k].imag();
      }
      break;
    }
    case mm_field::integer: {
      if (t == dtype::uint64) {
        const auto* p = data.data_as<std::uint64_t>();
        for (std::size_t k = 0; k < n; ++k)
          CUSCI_EXPECTS(p[k] <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()), value_error,
                        std::string(wfn) + ": field 'integer' holds int64 values, entry " + std::to_string(k) +
                            " is " + std::to_string(p[k]));
        w.iv = data.astype(dtype::int64).to_vector<std::int64_t>();
      } else if (is_integer(t) || t == dtype::bool_) {
        w.iv = data.astype(dtype::int64).to_vector<std::int64_t>();
      } else {
        const std::vector<double> d = data.astype(dtype::float64).to_vector<double>();
        w.iv.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
          // Truncation toward zero; the result must be an int64 (NaN fails both tests).
          CUSCI_EXPECTS(d[k] >= -0x1p63 && d[k] < 0x1p63, value_error,
                        std::string(wfn) + ": field 'integer' needs finite values in the int64 range, entry " +
                            std::to_string(k) + " is " + num_str(d[k]));
          w.iv[k] = static_cast<std::int64_t>(std::trunc(d[k]));
        }
      }
      break;
    }
  }
  return w;
}

void append_value(std::string& s, const write_values& w, std::size_t k, const std::optional<int>& precision) {
  switch (w.field) {
    case mm_field::pattern: return;
    case mm_field::integer: append_int(s, w.iv[k]); return;
    case mm_field::real:
      if (w.single) append_number(s, static_cast<float>(w.re[k]), precision);
      else append_number(s, w.re[k], precision);
      return;
    case mm_field::complex:
      if (w.single) {
        append_number(s, static_cast<float>(w.re[k]), precision);
        s += ' ';
        append_number(s, static_cast<float>(w.im[k]), precision);
      } else {
        append_number(s, w.re[k], precision);
        s += ' ';
        append_number(s, w.im[k], precision);
      }
      return;
  }
}

// SciPy's MMFile._get_symmetry over entries (sparse: duplicates summed first; missing entries are 0).
// `at(i, j)` gives the index of the value at (i, j) or npos.
template <class At>
mm_symmetry detect(std::int64_t n, const std::vector<std::pair<std::int64_t, std::int64_t>>& lower_or_all,
                   const write_values& w, At at, std::size_t zero_index) {
  bool sym = true, skew = true, herm = w.field == mm_field::complex;
  for (const auto& [i, j] : lower_or_all) {
    const std::size_t a = at(i, j), b = at(j, i);
    // Values missing in the sparse structure compare as zero: index zero_index holds a zero.
    const std::size_t va = a == std::string::npos ? zero_index : a, vb = b == std::string::npos ? zero_index : b;
    if (i == j) {
      if (!w.is_zero(va)) skew = false;
      if (herm && !w.equal(va, va, 2)) herm = false;
      continue;
    }
    if (sym && !w.equal(va, vb, 0)) sym = false;
    if (skew && !w.equal(va, vb, 1)) skew = false;
    if (herm && !w.equal(va, vb, 2)) herm = false;
    if (!sym && !skew && !herm) break;
  }
  (void)n;
  if (sym) return mm_symmetry::symmetric;
  if (skew) return mm_symmetry::skew_symmetric;
  if (herm) return mm_symmetry::hermitian;
  return mm_symmetry::general;
}

void write_file(const std::string& path, const std::string& s) {
  std::unique_ptr<std::FILE, file_closer> f(std::fopen(path.c_str(), "wb"));
  if (!f) throw error(std::string(wfn) + ": cannot open '" + path + "' for writing: " + std::strerror(errno));
  if (std::fwrite(s.data(), 1, s.size(), f.get()) != s.size()) throw error(std::string(wfn) + ": cannot write '" + path + "'");
}

void append_header(std::string& s, mm_format fmt, mm_field field, mm_symmetry sym, const std::string& comment) {
  s += "%%MatrixMarket matrix ";
  s += to_string(fmt);
  s += ' ';
  s += to_string(field);
  s += ' ';
  s += to_string(sym);
  s += '\n';
  if (comment.empty()) {
    s += "%\n";
    return;
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t nl = comment.find('\n', start);
    s += '%';
    s.append(comment, start, nl == std::string::npos ? std::string::npos : nl - start);
    s += '\n';
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
}

void check_symmetry_request(mm_symmetry sym, mm_field field, std::int64_t rows, std::int64_t cols) {
  CUSCI_EXPECTS(sym != mm_symmetry::hermitian || field == mm_field::complex || field == mm_field::pattern, value_error,
                std::string(wfn) + ": symmetry 'hermitian' needs complex values (field complex), got field '" +
                    std::string(to_string(field)) + "'");
  CUSCI_EXPECTS(sym == mm_symmetry::general || sym == mm_symmetry::automatic || rows == cols, value_error,
                std::string(wfn) + ": symmetry '" + std::string(to_string(sym)) + "' needs a square matrix, got (" +
                    std::to_string(rows) + ", " + std::to_string(cols) + ")");
}

}  // namespace

void mmwrite_host_typed(const std::string& path, std::int64_t rows, std::int64_t cols,
                        const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
                        const host_array& data, const mmwrite_options& o) {
  CUSCI_NVTX_SCOPE("cusci::io::mmwrite_host_typed");
  check_precision(o.precision);
  const mm_field field = o.field.value_or(default_field(data.dtype()));
  check_symmetry_request(o.symmetry, field, rows, cols);
  CUSCI_EXPECTS(rows >= 0 && cols >= 0, value_error,
                std::string(wfn) + ": shape must be >= 0, got (" + std::to_string(rows) + ", " + std::to_string(cols) +
                    ")");
  CUSCI_EXPECTS(data.ndim() == 1 && row.size() == col.size() && static_cast<std::int64_t>(row.size()) == data.size(),
                value_error, std::string(wfn) + ": row, col and data must be 1-D of the same length");
  for (std::size_t k = 0; k < row.size(); ++k) {
    CUSCI_EXPECTS(row[k] >= 0 && row[k] < rows, value_error,
                  std::string(wfn) + ": row index " + std::to_string(row[k]) + " of entry " + std::to_string(k) +
                      " out of range [0, " + std::to_string(rows) + ")");
    CUSCI_EXPECTS(col[k] >= 0 && col[k] < cols, value_error,
                  std::string(wfn) + ": column index " + std::to_string(col[k]) + " of entry " + std::to_string(k) +
                      " out of range [0, " + std::to_string(cols) + ")");
  }
  const write_values w = convert_values(data, field == mm_field::pattern ? mm_field::real : field);
  mm_symmetry sym = o.symmetry;
  if (sym == mm_symmetry::automatic) {
    sym = mm_symmetry::general;
    if (rows == cols && std::max(rows, cols) < 100) {
      // Duplicates summed into a sorted entry list (plus a trailing zero for missing entries).
      std::vector<std::size_t> order(row.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) { return row[a] != row[b] ? row[a] < row[b] : col[a] < col[b]; });
      std::vector<std::pair<std::int64_t, std::int64_t>> keys;
      write_values s;
      s.field = w.field;
      for (std::size_t k : order) {
        const bool dup = !keys.empty() && keys.back() == std::make_pair(row[k], col[k]);
        if (!dup) keys.emplace_back(row[k], col[k]);
        if (w.field == mm_field::integer) {
          if (dup) s.iv.back() = static_cast<std::int64_t>(static_cast<std::uint64_t>(s.iv.back()) + static_cast<std::uint64_t>(w.iv[k]));
          else s.iv.push_back(w.iv[k]);
        } else {
          if (dup) s.re.back() += w.re[k];
          else s.re.push_back(w.re[k]);
          if (w.field == mm_field::complex) {
            if (dup) s.im.back() += w.im[k];
            else s.im.push_back(w.im[k]);
          }
        }
      }
      const std::size_t zero = keys.size();
      s.iv.push_back(0);
      s.re.push_back(0.0);
      s.im.push_back(0.0);
      auto at = [&](std::int64_t i, std::int64_t j) {
        auto it = std::lower_bound(keys.begin(), keys.end(), std::make_pair(i, j));
        return (it != keys.end() && *it == std::make_pair(i, j)) ? static_cast<std::size_t>(it - keys.begin())
                                                                 : std::string::npos;
      };
      if (field == mm_field::pattern) {
        // SciPy detects on the values even for a pattern file.
        sym = detect(rows, keys, s, at, zero);
        if (sym == mm_symmetry::hermitian) sym = mm_symmetry::general;
      } else {
        sym = detect(rows, keys, s, at, zero);
      }
    }
  }
  CUSCI_EXPECTS(sym != mm_symmetry::hermitian || field == mm_field::complex, value_error,
                std::string(wfn) + ": symmetry 'hermitian' needs complex values");

  std::string s;
  s.reserve(64 + row.size() * 32);
  append_header(s, mm_format::coordinate, field, sym, o.comment);
  const bool lower_only = sym != mm_symmetry::general;
  std::int64_t count = 0;
  for (std::size_t k = 0; k < row.size(); ++k) count += !lower_only || row[k] >= col[k];
  append_int(s, rows);
  s += ' ';
  append_int(s, cols);
  s += ' ';
  append_int(s, count);
  s += '\n';
  for (std::size_t k = 0; k < row.size(); ++k) {
    if (lower_only && row[k] < col[k]) continue;
    append_int(s, row[k] + 1);
    s += ' ';
    append_int(s, col[k] + 1);
    if (field != mm_field::pattern) {
      s += ' ';
      append_value(s, w, k, o.precision);
    }
    s += '\n';
  }
  write_file(path, s);
}

void mmwrite_host(const std::string& path, std::int64_t rows, std::int64_t cols, const std::vector<std::int64_t>& row,
                  const std::vector<std::int64_t>& col, const std::vector<double>& data, const mmwrite_options& o) {
  check_precision(o.precision);
  CUSCI_EXPECTS(row.size() == col.size() && row.size() == data.size(), value_error,
                std::string(wfn) + ": row, col and data must have the same length");
  mmwrite_host_typed(path, rows, cols, row, col, host_array::from(data), o);
}

void mmwrite_host(const std::string& path, const host_array& dense, const mmwrite_options& o) {
  check_precision(o.precision);
  CUSCI_EXPECTS(dense.ndim() == 1 || dense.ndim() == 2, value_error,
                std::string(wfn) + ": a dense array must be 1-D or 2-D, got " + std::to_string(dense.ndim()) + "-D");
  const std::int64_t rows = dense.ndim() == 2 ? dense.shape()[0] : 1;
  const std::int64_t cols = dense.ndim() == 2 ? dense.shape()[1] : dense.shape()[0];
  const mm_field field = o.field.value_or(default_field(dense.dtype()));
  CUSCI_EXPECTS(field != mm_field::pattern, value_error,
                std::string(wfn) + ": field 'pattern' needs a sparse matrix (array files hold values)");
  check_symmetry_request(o.symmetry, field, rows, cols);
  host_array flat = dense;  // C order values; written column-major below
  const write_values w = convert_values(flat, field);
  auto idx = [&](std::int64_t i, std::int64_t j) { return static_cast<std::size_t>(i * cols + j); };
  mm_symmetry sym = o.symmetry;
  if (sym == mm_symmetry::automatic) {
    sym = mm_symmetry::general;
    if (rows == cols && std::max(rows, cols) < 100) {
      std::vector<std::pair<std::int64_t, std::int64_t>> lower;
      for (std::int64_t j = 0; j < cols; ++j)
        for (std::int64_t i = j; i < rows; ++i) lower.emplace_back(i, j);
      sym = detect(rows, lower, w, idx, 0);
    }
  }
  CUSCI_EXPECTS(sym != mm_symmetry::hermitian || field == mm_field::complex, value_error,
                std::string(wfn) + ": symmetry 'hermitian' needs complex values");
  std::string s;
  s.reserve(64 + static_cast<std::size_t>(rows * cols) * 24);
  append_header(s, mm_format::array, field, sym, o.comment);
  append_int(s, rows);
  s += ' ';
  append_int(s, cols);
  s += '\n';
  const bool skew = sym == mm_symmetry::skew_symmetric;
  for (std::int64_t j = 0; j < cols; ++j) {
    const std::int64_t i0 = sym == mm_symmetry::general ? 0 : skew ? j + 1 : j;
    for (std::int64_t i = i0; i < rows; ++i) {
      append_value(s, w, idx(i, j), o.precision);
      s += '\n';
    }
  }
  write_file(path, s);
}

void mmwrite(const std::string& path, const sparse::spmatrix& A, const mmwrite_options& o) {
  // Checks that do not need the data first, so that bad options fail before the copy.
  check_precision(o.precision);
  check_symmetry_request(o.symmetry, o.field.value_or(default_field(A.dtype())), A.shape()[0], A.shape()[1]);
  const sparse::coo_matrix C = A.tocoo();
  host_array d = to_host(C.data());
  host_array r = to_host(C.row()).astype(dtype::int64);
  host_array c = to_host(C.col()).astype(dtype::int64);
  mmwrite_host_typed(path, C.shape()[0], C.shape()[1], r.to_vector<std::int64_t>(), c.to_vector<std::int64_t>(), d, o);
}

void mmwrite(const std::string& path, const ndarray& dense, const mmwrite_options& o) {
  check_precision(o.precision);
  CUSCI_EXPECTS(dense.ndim() == 1 || dense.ndim() == 2, value_error,
                std::string(wfn) + ": a dense array must be 1-D or 2-D, got " + std::to_string(dense.ndim()) + "-D");
  mmwrite_host(path, to_host(dense), o);
}

}  // namespace cusci::io
