/// @file npy.cpp
/// NumPy `.npy` reading and writing (format description: numpy/lib/format.py, "NEP 1").
///
/// Layout of a file: the magic string "\x93NUMPY", a major and a minor version byte, the header length
/// (uint16 little-endian for version 1.0, uint32 for 2.0 and 3.0), then the header: a Python dict
/// literal with exactly the keys 'descr', 'fortran_order' and 'shape', padded with spaces and a final
/// newline so that the data starts at a multiple of 64 bytes; then the raw elements.

#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "io/npy_internal.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci {
namespace {

constexpr char magic[] = "\x93NUMPY";
constexpr std::size_t magic_len = 6;
constexpr std::size_t array_align = 64;

/// A parsed header value: a string, a bool, an int tuple, a parenthesized integer, or a list
/// (structured descr).
struct py_value {
  enum kind_t { str, boolean, tuple, integer, list } kind = str;
  std::string s;
  bool b = false;
  shape_t t;
};

/// Parser for the subset of Python literals .npy headers use.
class header_parser {
 public:
  header_parser(const std::string& text, const std::string& path) : t_(text), path_(path) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw value_error("cusci::io::read_npy: '" + path_ + "' is not a valid .npy file: " + what);
  }

  void ws() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }
  bool eat(char c) {
    ws();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("malformed header, expected '") + c + "' at offset " + std::to_string(p_));
  }
  std::string string_lit() {
    ws();
    if (p_ >= t_.size() || (t_[p_] != '\'' && t_[p_] != '"')) fail("malformed header, expected a string");
    const char q = t_[p_++];
    const std::size_t e = t_.find(q, p_);
    if (e == std::string::npos) fail("malformed header, unterminated string");
    std::string s = t_.substr(p_, e - p_);
    p_ = e + 1;
    return s;
  }
  std::int64_t int_lit() {
    ws();
    const std::size_t b = p_;
    if (p_ < t_.size() && (t_[p_] == '-' || t_[p_] == '+')) ++p_;
    std::int64_t v = 0;
    bool neg = t_[b] == '-', any = false;
    while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') {
      const int dgt = t_[p_++] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - dgt) / 10) fail("shape entry too large");
      v = v * 10 + dgt;
      any = true;
    }
    if (!any) fail("malformed header, expected an integer in the shape");
    if (p_ < t_.size() && (t_[p_] == 'L' || t_[p_] == 'l')) ++p_;  // Python 2 long suffix
    return neg ? -v : v;
  }
  py_value value() {
    ws();
    py_value v;
    if (p_ >= t_.size()) fail("malformed header, value missing");
    const char c = t_[p_];
    if (c == '\'' || c == '"') {
      v.kind = py_value::str;
      v.s = string_lit();
    } else if (t_.compare(p_, 4, "True") == 0) {
      v.kind = py_value::boolean;
      v.b = true;
      p_ += 4;
    } else if (t_.compare(p_, 5, "False") == 0) {
      v.kind = py_value::boolean;
      v.b = false;
      p_ += 5;
    } else if (c == '(') {
      ++p_;
      v.kind = py_value::tuple;
      while (!eat(')')) {
        v.t.push_back(int_lit());
        if (!eat(',')) {
          expect(')');
          // Python: (2) is the integer 2, a 1-tuple needs its comma (NumPy: "shape is not valid").
          if (v.t.size() == 1) v.kind = py_value::integer;
          break;
        }
      }
    } else if (c == '[') {
      v.kind = py_value::list;
      int depth = 0;
      for (; p_ < t_.size(); ++p_) {
        if (t_[p_] == '[') ++depth;
        else if (t_[p_] == ']' && --depth == 0) break;
      }
      if (p_ >= t_.size()) fail("malformed header, unterminated list");
      ++p_;
    } else {
      fail("malformed header, unexpected character '" + std::string(1, c) + "'");
    }
    return v;
  }
  /// Only whitespace may follow the dictionary (Python's literal evaluation of the header).
  void end() {
    ws();
    if (p_ != t_.size()) fail("malformed header, unexpected text after the dictionary at offset " + std::to_string(p_));
  }

 private:
  const std::string& t_;
  const std::string& path_;
  std::size_t p_ = 0;
};

dtype parse_descr(const std::string& descr, const std::string& path) {
  const std::string fn = "cusci::io::read_npy: '" + path + "': ";
  char order = '=';
  std::string rest = descr;
  if (!rest.empty() && (rest[0] == '<' || rest[0] == '>' || rest[0] == '|' || rest[0] == '=')) {
    order = rest[0];
    rest = rest.substr(1);
  }
  for (int i = 0; i < n_dtypes; ++i) {
    const auto t = static_cast<dtype>(i);
    const std::string d = dtype_descr(t);
    if (d.substr(1) != rest) continue;
    if (order == '>' && itemsize(t) > 1)
      throw type_error(fn + "big-endian data ('" + descr + "') is not supported");
    return t;
  }
  throw type_error(fn + "unsupported dtype '" + descr + "'");
}

}  // namespace

namespace detail {

/// Copies between C order and Fortran order: `c_to_f` reads `src` in C order and writes `dst` in F
/// order; otherwise the reverse.
void permute_copy(const std::byte* src, std::byte* dst, const shape_t& shape, std::size_t isz, bool c_to_f) {
  const std::size_t nd = shape.size();
  for (std::int64_t d : shape)
    if (d == 0) return;  // before the product: other dimensions may be huge (checked_size allows it)
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  shape_t fstride(nd), idx(nd, 0);
  std::int64_t s = 1;
  for (std::size_t k = 0; k < nd; ++k) {
    fstride[k] = s;
    s *= shape[k];
  }
  std::int64_t foff = 0;
  for (std::int64_t c = 0; c < n; ++c) {
    if (c_to_f) std::memcpy(dst + foff * isz, src + c * isz, isz);
    else std::memcpy(dst + c * isz, src + foff * isz, isz);
    // advance the C-order odometer, keeping the F-order offset in step
    for (std::size_t k = nd; k-- > 0;) {
      ++idx[k];
      foff += fstride[k];
      if (idx[k] < shape[k] || k == 0) break;
      foff -= shape[k] * fstride[k];
      idx[k] = 0;
    }
  }
}

}  // namespace detail

using detail::permute_copy;

namespace io {

host_array read_npy(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::io::read_npy");
  // A directory opens as a stream on some platforms and then fails inside the stream buffer with
  // std::ios_base::failure; refuse it up front, and turn any other stream error into cusci::error.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw error("cusci::io::read_npy: cannot read '" + path + "': it is a directory");
  std::vector<char> buf;
  try {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw error("cusci::io::read_npy: cannot open '" + path + "'");
    buf.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (f.bad()) throw error("cusci::io::read_npy: error reading '" + path + "'");
  } catch (const error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw error("cusci::io::read_npy: error reading '" + path + "': " + e.what());
  }
  const std::string bad = "cusci::io::read_npy: '" + path + "' is not a valid .npy file: ";
  if (buf.size() < magic_len + 4 || std::memcmp(buf.data(), magic, magic_len) != 0)
    throw value_error(bad + "missing the \\x93NUMPY magic string");
  const int major = static_cast<unsigned char>(buf[6]), minor = static_cast<unsigned char>(buf[7]);
  if (!(major >= 1 && major <= 3 && minor == 0))
    throw value_error(bad + "unsupported format version " + std::to_string(major) + "." + std::to_string(minor) +
                      " (1.0, 2.0 and 3.0 are supported)");
  std::size_t start, hlen;
  const auto* u = reinterpret_cast<const unsigned char*>(buf.data());
  if (major == 1) {
    hlen = static_cast<std::size_t>(u[8]) | (static_cast<std::size_t>(u[9]) << 8);
    start = 10;
  } else {
    if (buf.size() < 12) throw value_error(bad + "file too short for a version 2/3 preamble");
    hlen = static_cast<std::size_t>(u[8]) | (static_cast<std::size_t>(u[9]) << 8) |
           (static_cast<std::size_t>(u[10]) << 16) | (static_cast<std::size_t>(u[11]) << 24);
    start = 12;
  }
  if (hlen > buf.size() - start)
    throw value_error(bad + "header length " + std::to_string(hlen) + " runs past the end of the file");
  const std::string header(buf.data() + start, hlen);

  header_parser p(header, path);
  std::optional<py_value> descr, fortran, shape;
  p.expect('{');
  while (!p.eat('}')) {
    const std::string key = p.string_lit();
    p.expect(':');
    py_value v = p.value();
    if (key == "descr") descr = v;
    else if (key == "fortran_order") fortran = v;
    else if (key == "shape") shape = v;
    else p.fail("unexpected header key '" + key + "'");
    if (!p.eat(',')) {
      p.expect('}');
      break;
    }
  }
  p.end();
  if (!descr || !fortran || !shape) p.fail("header must have the keys 'descr', 'fortran_order' and 'shape'");
  if (descr->kind == py_value::list)
    throw type_error("cusci::io::read_npy: '" + path + "': structured dtypes are not supported");
  if (descr->kind != py_value::str) p.fail("'descr' is not a string");
  if (fortran->kind != py_value::boolean) p.fail("'fortran_order' is not True or False");
  if (shape->kind != py_value::tuple) p.fail("'shape' is not a tuple of integers");
  for (std::int64_t d : shape->t)
    if (d < 0) p.fail("negative dimension in shape " + cusci::detail::shape_str(shape->t));
  // NumPy's shape checks (at most 64 dimensions; "array is too big" when the product of the non-zero
  // dimensions overflows), before any product below is formed.
  try {
    (void)cusci::detail::checked_size(shape->t, "shape");
  } catch (const value_error& e) {
    p.fail(e.what());
  }
  const dtype t = parse_descr(descr->s, path);

  // Size check before allocating: the data must be in the file.
  const std::size_t avail = buf.size() - start - hlen;
  std::int64_t n = 1;
  bool zero = false;
  for (std::int64_t d : shape->t) zero = zero || d == 0;
  if (!zero)
    for (std::int64_t d : shape->t) {
      if (n > static_cast<std::int64_t>(avail / itemsize(t)) / d)
        throw value_error(bad + "data is truncated: shape " + cusci::detail::shape_str(shape->t) + " of " +
                          std::string(dtype_name(t)) + " needs more than the " + std::to_string(avail) +
                          " bytes present");
      n *= d;
    }
  else
    n = 0;
  host_array out(t, shape->t);
  const std::size_t need = static_cast<std::size_t>(n) * itemsize(t);
  if (avail < need)
    throw value_error(bad + "data is truncated: expected " + std::to_string(need) + " bytes, found " +
                      std::to_string(avail));
  const auto* src = reinterpret_cast<const std::byte*>(buf.data() + start + hlen);
  if (fortran->b && shape->t.size() > 1)
    permute_copy(src, static_cast<std::byte*>(out.data()), shape->t, itemsize(t), false);
  else if (need)
    std::memcpy(out.data(), src, need);
  if (t == dtype::bool_) {
    // NumPy reads any non-zero byte of a bool array as True (np.frombuffer(b"\x02", bool).astype(int)
    // is 1); a C++ bool holding a byte other than 0 or 1 is undefined behaviour, so normalize.
    auto* b = static_cast<unsigned char*>(out.data());
    for (std::size_t i = 0; i < need; ++i) b[i] = b[i] != 0 ? 1 : 0;
  }
  return out;
}

/// Writes the preamble, header and data of a .npy file (stream errors come back as cusci::error).
static void write_file(const std::string& path, const std::string& pre, const std::string& header,
                       const host_array& a, bool fortran_order);

void write_npy(const std::string& path, const host_array& a, bool fortran_order) {
  CUSCI_NVTX_SCOPE("cusci::io::write_npy");
  std::string header = "{'descr': '" + dtype_descr(a.dtype()) + "', 'fortran_order': " +
                       (fortran_order ? "True" : "False") + ", 'shape': " + cusci::detail::shape_str(a.shape()) + ", }";
  // Pad with spaces and end with '\n' so that preamble + header is a multiple of 64 bytes.
  std::size_t prefix = magic_len + 2 + 2;
  int major = 1;
  auto pad = [&] {
    const std::size_t used = prefix + header.size() + 1;
    return (array_align - used % array_align) % array_align;
  };
  if (header.size() + 1 + pad() > 65535) {
    major = 2;
    prefix = magic_len + 2 + 4;
  }
  header += std::string(pad(), ' ') + "\n";

  std::string pre(magic, magic_len);
  pre += static_cast<char>(major);
  pre += static_cast<char>(0);
  const std::size_t hl = header.size();
  pre += static_cast<char>(hl & 0xff);
  pre += static_cast<char>((hl >> 8) & 0xff);
  if (major == 2) {
    pre += static_cast<char>((hl >> 16) & 0xff);
    pre += static_cast<char>((hl >> 24) & 0xff);
  }

  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw error("cusci::io::write_npy: cannot write '" + path + "': it is a directory");
  try {
    write_file(path, pre, header, a, fortran_order);
  } catch (const error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw error("cusci::io::write_npy: error writing '" + path + "': " + e.what());
  }
}

static void write_file(const std::string& path, const std::string& pre, const std::string& header,
                       const host_array& a, bool fortran_order) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw error("cusci::io::write_npy: cannot open '" + path + "' for writing");
  f.write(pre.data(), static_cast<std::streamsize>(pre.size()));
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  if (fortran_order && a.ndim() > 1 && a.size() > 0) {
    std::vector<std::byte> tmp(a.nbytes());
    permute_copy(static_cast<const std::byte*>(a.data()), tmp.data(), a.shape(), itemsize(a.dtype()), true);
    f.write(reinterpret_cast<const char*>(tmp.data()), static_cast<std::streamsize>(tmp.size()));
  } else if (a.nbytes()) {
    f.write(static_cast<const char*>(a.data()), static_cast<std::streamsize>(a.nbytes()));
  }
  f.flush();
  if (!f) throw error("cusci::io::write_npy: error writing '" + path + "'");
}

}  // namespace io

ndarray load(const std::string& path) { return asarray(io::read_npy(path)); }

void save(const std::string& path, const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::save");
  const bool fortran = a.ndim() > 1 && a.is_f_contiguous() && !a.is_c_contiguous();
  io::write_npy(path, to_host(a), fortran);
}

}  // namespace cusci
