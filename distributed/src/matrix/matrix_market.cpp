// Streaming Matrix Market reader for csr_matrix::read_matrix_market (matrix_market.hpp): the file is
// read through zlib in chunks of 1 MiB (plain and gzip-compressed files alike), line by line, and only
// the entries of one block of rows are kept, so that no rank holds the whole matrix.

#include "matrix/matrix_market.hpp"

#include <zlib.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "cusci/error.hpp"

namespace cusci::distributed::detail {
namespace {

struct gz_close {
  void operator()(gzFile_s* f) const noexcept { gzclose(f); }
};
using gz_file = std::unique_ptr<gzFile_s, gz_close>;

gz_file open_gz(const std::string& path, const char* fn) {
  errno = 0;
  gz_file f(gzopen(path.c_str(), "rb"));
  if (!f) {
    const std::string why = errno ? std::strerror(errno) : "out of memory";
    throw error(std::string(fn) + ": cannot open '" + path + "': " + why);
  }
  gzbuffer(f.get(), 1u << 17);
  return f;
}

// The lines of a (possibly gzip-compressed) file, read in chunks; a line is valid until the next call.
class line_stream {
 public:
  line_stream(const std::string& path, const char* fn) : f_(open_gz(path, fn)), path_(path), fn_(fn) {}

  bool next(std::string_view& line) {
    for (;;) {
      const std::size_t nl = buf_.find('\n', scan_);
      if (nl != std::string::npos) {
        line = std::string_view(buf_).substr(pos_, nl - pos_);
        pos_ = scan_ = nl + 1;
        ++line_no_;
        return true;
      }
      if (eof_) {
        if (pos_ >= buf_.size()) return false;
        line = std::string_view(buf_).substr(pos_);
        pos_ = scan_ = buf_.size();
        ++line_no_;
        return true;
      }
      buf_.erase(0, pos_);
      scan_ = buf_.size();  // no newline before here
      pos_ = 0;
      refill();
    }
  }

  std::int64_t line_no() const noexcept { return line_no_; }

 private:
  void refill() {
    constexpr unsigned chunk = 1u << 20;
    const std::size_t old = buf_.size();
    buf_.resize(old + chunk);
    const int got = gzread(f_.get(), buf_.data() + old, chunk);
    buf_.resize(old + (got > 0 ? static_cast<std::size_t>(got) : 0));
    if (got < static_cast<int>(chunk)) {
      int zerr = Z_OK;
      const char* why = gzerror(f_.get(), &zerr);
      if (got < 0 || (zerr != Z_OK && zerr != Z_STREAM_END))
        throw error(std::string(fn_) + ": cannot read '" + path_ + "': " + (zerr == Z_ERRNO ? std::strerror(errno) : why));
      eof_ = true;
    }
  }

  gz_file f_;
  const std::string& path_;
  const char* fn_;
  std::string buf_;
  std::size_t pos_ = 0, scan_ = 0;
  bool eof_ = false;
  std::int64_t line_no_ = 0;
};

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Up to `max` whitespace-separated tokens into tok; returns the count found (max + 1 when there are more).
int split(std::string_view line, std::string_view* tok, int max) {
  int n = 0;
  std::size_t i = 0;
  for (;;) {
    while (i < line.size() && space(line[i])) ++i;
    if (i >= line.size()) return n;
    const std::size_t j0 = i;
    while (i < line.size() && !space(line[i])) ++i;
    if (n == max) return n + 1;
    tok[n++] = line.substr(j0, i - j0);
  }
}

// A line to skip among the entries: blank, or a comment ('%' after optional indentation; cusci's
// mmread accepts both anywhere after the banner).
bool skipped(std::string_view line) {
  for (char c : line) {
    if (space(c)) continue;
    return c == '%';
  }
  return true;
}

std::string_view unplus(std::string_view t) { return !t.empty() && t[0] == '+' ? t.substr(1) : t; }

bool to_int(std::string_view t, std::int64_t& v) {
  t = unplus(t);
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

bool to_real(std::string_view t, double& v) {
  t = unplus(t);
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
  if (r.ec == std::errc::result_out_of_range && r.ptr == t.data() + t.size()) {
    v = std::strtod(std::string(t).c_str(), nullptr);  // over/underflow: inf or 0, as strtod gives
    return true;
  }
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

}  // namespace

mm_row_reader::mm_row_reader(std::string path, const char* fn) : path_(std::move(path)), fn_(fn) {
  open_gz(path_, fn_);  // the caller's name in the message when the file cannot be opened
  info_ = io::mminfo(path_);
}

mm_rows mm_row_reader::read_rows(std::int64_t b, std::int64_t e) {
  const std::int64_t nrows = info_.rows, ncols = info_.cols, declared = info_.entries;
  const bool mirror = info_.symmetry != io::mm_symmetry::general;
  const bool negate = info_.symmetry == io::mm_symmetry::skew_symmetric;
  const int want = info_.field == io::mm_field::pattern ? 2 : 3;
  line_stream in(path_, fn_);
  auto fail = [&](const std::string& what) -> void {
    throw value_error(std::string(fn_) + ": " + path_ + ":" + std::to_string(in.line_no()) + ": " + what);
  };
  std::string_view line;
  // The banner, then comments and blank lines, then the size line: mminfo has checked them.
  in.next(line);
  while (in.next(line) && skipped(line)) {
  }
  // Entries of rows [b, e) as (local row, column, value), bucketed by row afterwards.
  std::vector<std::int64_t> row, col;
  std::vector<double> val;
  auto keep = [&](std::int64_t i, std::int64_t j, double v) {
    if (i < b || i >= e) return;
    row.push_back(i - b);
    col.push_back(j);
    val.push_back(v);
  };
  std::int64_t k = 0;
  std::string_view tok[3];
  while (in.next(line)) {
    if (skipped(line)) continue;
    if (k >= declared) fail("more entries than the " + std::to_string(declared) + " declared in the size line");
    const int n = split(line, tok, want);
    if (n != want)
      fail("expected " + std::to_string(want) + " values (" + std::string(io::to_string(info_.field)) + " field), got " +
           std::to_string(n));
    std::int64_t i = 0, j = 0;
    if (!to_int(tok[0], i) || !to_int(tok[1], j))
      fail("indices must be integers, got '" + std::string(tok[0]) + " " + std::string(tok[1]) + "'");
    if (i < 1 || i > nrows) fail("row index " + std::to_string(i) + " out of range [1, " + std::to_string(nrows) + "]");
    if (j < 1 || j > ncols) fail("column index " + std::to_string(j) + " out of range [1, " + std::to_string(ncols) + "]");
    double v = 1.0;
    if (info_.field == io::mm_field::integer) {
      std::int64_t iv = 0;
      if (!to_int(tok[2], iv)) fail("expected an integer value (int64), got '" + std::string(tok[2]) + "'");
      v = static_cast<double>(iv);
    } else if (info_.field == io::mm_field::real) {
      if (!to_real(tok[2], v)) fail("expected a real value, got '" + std::string(tok[2]) + "'");
    }
    keep(i - 1, j - 1, v);
    if (mirror && i != j) keep(j - 1, i - 1, negate ? -v : v);
    ++k;
  }
  if (k < declared) {
    throw value_error(std::string(fn_) + ": " + path_ + ":" + std::to_string(in.line_no() + 1) + ": expected " +
                      std::to_string(declared) + " entries, found " + std::to_string(k));
  }
  // Counting sort by row, stable: each row keeps the order of its entries.
  mm_rows out;
  const std::int64_t m = e - b;
  out.indptr.assign(static_cast<std::size_t>(m) + 1, 0);
  for (const std::int64_t r : row) ++out.indptr[static_cast<std::size_t>(r) + 1];
  for (std::int64_t r = 0; r < m; ++r) out.indptr[static_cast<std::size_t>(r) + 1] += out.indptr[static_cast<std::size_t>(r)];
  std::vector<std::int64_t> next(out.indptr.begin(), out.indptr.end() - 1);
  out.cols.resize(row.size());
  out.vals.resize(row.size());
  for (std::size_t t = 0; t < row.size(); ++t) {
    const auto dst = static_cast<std::size_t>(next[static_cast<std::size_t>(row[t])]++);
    out.cols[dst] = col[t];
    out.vals[dst] = val[t];
  }
  return out;
}

}  // namespace cusci::distributed::detail
