/// @file npz.cpp
/// NumPy `.npz` archives: zip files (PKWARE APPNOTE.TXT, sections 4.3 "general format" and 4.5
/// "ZIP64") whose members are `.npy` files (NumPy's numpy/lib/format.py).
///
/// Writing follows what `np.savez` produces through Python's zipfile: per member a local file header,
/// the data (stored, or raw deflate from zlib at level 6, window 2^15, memLevel 8), the sizes and CRC
/// patched into the local header afterwards (no data descriptor); then the central directory and the
/// end-of-central-directory record, with ZIP64 extra fields / records once a size or offset reaches
/// 2^31 - 1 (Python's ZIP64_LIMIT). The .npy member bytes are those `np.save` writes (NumPy 2's
/// header: sorted keys, growth-axis spaces, padding to 64 bytes with at least one space).
///
/// Reading goes through the central directory (so data descriptors and member order do not matter):
/// the end record is found by scanning back from the end of the file, ZIP64 end records are used when
/// present, data before the archive (a prepended stub) is tolerated as Python's zipfile does; each
/// member is read in 1 MiB chunks, inflated when deflated, its CRC-32 and size checked, and the .npy
/// stream parsed on the fly into the host array (only Fortran-order members need a second buffer).

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <zlib.h>

#include "cusci/detail/shape.hpp"
#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "io/npy_internal.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci {
namespace {

constexpr std::uint32_t sig_local = 0x04034b50, sig_central = 0x02014b50, sig_eocd = 0x06054b50,
                        sig_eocd64 = 0x06064b50, sig_locator64 = 0x07064b50;
constexpr std::uint64_t default_zip64_limit = (std::uint64_t{1} << 31) - 1;
std::atomic<std::uint64_t> zip64_limit{default_zip64_limit};
constexpr std::size_t chunk = std::size_t{1} << 20;

// ---- little-endian helpers ----------------------------------------------------------------------
std::uint16_t rd16(const unsigned char* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
std::uint32_t rd32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
std::uint64_t rd64(const unsigned char* p) { return rd32(p) | (static_cast<std::uint64_t>(rd32(p + 4)) << 32); }
void put16(std::string& s, std::uint32_t v) {
  s += static_cast<char>(v & 0xff);
  s += static_cast<char>((v >> 8) & 0xff);
}
void put32(std::string& s, std::uint32_t v) {
  put16(s, v & 0xffff);
  put16(s, v >> 16);
}
void put64(std::string& s, std::uint64_t v) {
  put32(s, static_cast<std::uint32_t>(v));
  put32(s, static_cast<std::uint32_t>(v >> 32));
}

std::uint32_t crc_update(std::uint32_t crc, const void* p, std::size_t n) {
  const auto* b = static_cast<const Bytef*>(p);
  while (n > 0) {  // zlib's length argument is a uInt
    const uInt k = static_cast<uInt>(std::min<std::size_t>(n, std::size_t{1} << 30));
    crc = static_cast<std::uint32_t>(crc32(crc, b, k));
    b += k;
    n -= k;
  }
  return crc;
}

// ---- files ----------------------------------------------------------------------------------------
struct file_closer {
  void operator()(std::FILE* f) const noexcept {
    if (f) std::fclose(f);
  }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

// ---- .npy bytes -----------------------------------------------------------------------------------

/// The preamble and header `np.save` writes for a C-order array of this descr and shape.
std::string npy_header(const std::string& descr, const shape_t& shape) {
  std::string h = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + detail::shape_str(shape) + ", }";
  if (!shape.empty()) {  // NumPy 2: room to grow the first axis' length in place (21 digits)
    const std::size_t digits = std::to_string(shape[0]).size();
    if (digits < 21) h.append(21 - digits, ' ');
  }
  const std::size_t hlen = h.size() + 1;  // + '\n'
  auto wrap = [&](int major) {
    const std::size_t prefix = 8 + (major == 1 ? 2 : 4);
    const std::size_t pad = 64 - (prefix + hlen) % 64;  // 1..64 spaces, as NumPy
    const std::size_t total = hlen + pad;
    std::string out("\x93NUMPY", 6);
    out += static_cast<char>(major);
    out += '\0';
    if (major == 1) put16(out, static_cast<std::uint32_t>(total));
    else put32(out, static_cast<std::uint32_t>(total));
    out += h;
    out.append(pad, ' ');
    out += '\n';
    return out;
  };
  const std::size_t pad1 = 64 - (10 + hlen) % 64;
  return hlen + pad1 <= 65535 ? wrap(1) : wrap(2);
}

/// Streaming .npy parser: bytes are fed in order; the header is parsed as soon as it is complete and
/// the elements are written straight into the result.
class npy_sink {
 public:
  npy_sink(std::string ctx, std::uint64_t member_size) : ctx_(std::move(ctx)), member_size_(member_size) {}

  void feed(const unsigned char* p, std::size_t n) {
    while (n > 0) {
      if (!parsed_) {
        const std::size_t k = std::min(n, need_ - head_.size());
        head_.append(reinterpret_cast<const char*>(p), k);
        p += k;
        n -= k;
        if (head_.size() == need_) advance_header();
        continue;
      }
      const std::uint64_t want = data_need_ - got_;
      const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, want));
      if (k) std::memcpy(dst_ + got_, p, k);
      got_ += k;
      return;  // trailing bytes after the elements are ignored (NumPy reads only what it needs)
    }
  }

  /// True when the member is a single-element string (`|S<n>` / `<U<n>`); its text is `text()`.
  bool is_text() const noexcept { return text_kind_ != 0; }
  const std::string& text() const noexcept { return text_; }

  host_array finish() {
    if (!parsed_) fail("the member ends inside the .npy header");
    if (got_ < data_need_)
      fail("data is truncated: shape " + detail::shape_str(shape_) + " of " + std::string(dtype_name(dt_)) + " needs " +
           std::to_string(data_need_) + " bytes, found " + std::to_string(got_));
    if (text_kind_ != 0) {
      decode_text();
      return host_array();
    }
    if (fortran_ && shape_.size() > 1) {
      host_array c(dt_, shape_);
      f_to_c(reinterpret_cast<const std::byte*>(ftmp_.data()), static_cast<std::byte*>(c.data()));
      out_ = std::move(c);
    }
    if (dt_ == dtype::bool_) {  // any non-zero byte is True, as NumPy reads it
      auto* b = static_cast<unsigned char*>(out_.data());
      for (std::size_t i = 0; i < out_.nbytes(); ++i) b[i] = b[i] != 0;
    }
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw value_error(ctx_ + "not a valid .npy member: " + what); }

  void advance_header() {
    const auto* u = reinterpret_cast<const unsigned char*>(head_.data());
    if (stage_ == 0) {  // magic + version + (part of) the length
      if (std::memcmp(u, "\x93NUMPY", 6) != 0) fail("missing the \\x93NUMPY magic string");
      major_ = u[6];
      if (!(major_ >= 1 && major_ <= 3 && u[7] == 0))
        fail("unsupported format version " + std::to_string(u[6]) + "." + std::to_string(u[7]));
      stage_ = 1;
      need_ = major_ == 1 ? 10 : 12;
      if (head_.size() < need_) return;
    }
    if (stage_ == 1) {
      const std::uint64_t hlen = major_ == 1 ? rd16(u + 8) : rd32(u + 8);
      if (need_ + hlen > member_size_) fail("header length " + std::to_string(hlen) + " runs past the member");
      stage_ = 2;
      need_ += static_cast<std::size_t>(hlen);
      if (head_.size() < need_) return;
    }
    parse_header(head_.substr(major_ == 1 ? 10 : 12));
  }

  // --- header dict: {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), } -----------------
  void ws(const std::string& t, std::size_t& i) const {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
  }
  std::string str_lit(const std::string& t, std::size_t& i) const {
    ws(t, i);
    if (i >= t.size() || (t[i] != '\'' && t[i] != '"')) fail("malformed header, expected a string");
    const char q = t[i++];
    const std::size_t e = t.find(q, i);
    if (e == std::string::npos) fail("malformed header, unterminated string");
    std::string s = t.substr(i, e - i);
    i = e + 1;
    return s;
  }
  bool eat(const std::string& t, std::size_t& i, char c) const {
    ws(t, i);
    if (i < t.size() && t[i] == c) {
      ++i;
      return true;
    }
    return false;
  }

  void parse_header(const std::string& t) {
    std::size_t i = 0;
    bool have_descr = false, have_fortran = false, have_shape = false;
    std::string descr;
    if (!eat(t, i, '{')) fail("malformed header, expected '{'");
    while (!eat(t, i, '}')) {
      const std::string key = str_lit(t, i);
      if (!eat(t, i, ':')) fail("malformed header, expected ':' after '" + key + "'");
      ws(t, i);
      if (key == "descr") {
        if (i < t.size() && t[i] == '[') throw type_error(ctx_ + "structured dtypes are not supported");
        descr = str_lit(t, i);
        have_descr = true;
      } else if (key == "fortran_order") {
        if (t.compare(i, 4, "True") == 0) fortran_ = true, i += 4;
        else if (t.compare(i, 5, "False") == 0) fortran_ = false, i += 5;
        else fail("'fortran_order' is not True or False");
        have_fortran = true;
      } else if (key == "shape") {
        if (!eat(t, i, '(')) fail("'shape' is not a tuple");
        while (!eat(t, i, ')')) {
          ws(t, i);
          std::int64_t v = 0;
          bool any = false;
          while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
            const int d = t[i++] - '0';
            if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) fail("shape entry too large");
            v = v * 10 + d;
            any = true;
          }
          if (!any) fail("'shape' must hold non-negative integers");
          if (i < t.size() && (t[i] == 'L' || t[i] == 'l')) ++i;
          shape_.push_back(v);
          if (!eat(t, i, ',')) {
            if (!eat(t, i, ')')) fail("malformed shape");
            break;
          }
        }
        have_shape = true;
      } else {
        fail("unexpected header key '" + key + "'");
      }
      if (!eat(t, i, ',')) {
        if (!eat(t, i, '}')) fail("malformed header, expected ',' or '}'");
        break;
      }
    }
    if (!have_descr || !have_fortran || !have_shape)
      fail("the header must have the keys 'descr', 'fortran_order' and 'shape'");
    // The shape as NumPy checks it (at most 64 dimensions; "array is too big" when the product of
    // the non-zero dimensions overflows), before any product is formed.
    try {
      (void)detail::checked_size(shape_, "shape");
    } catch (const value_error& e) {
      fail(e.what());
    }
    if (parse_text_descr(descr)) return;
    try {
      dt_ = dtype_from_string(descr);
    } catch (const type_error&) {
      throw type_error(ctx_ + "unsupported dtype '" + descr + "'");
    }
    if (!descr.empty() && descr[0] == '>' && itemsize(dt_) > 1)
      throw type_error(ctx_ + "big-endian data ('" + descr + "') is not supported");
    // The element bytes must fit in what the member holds, before anything is allocated.
    const std::uint64_t avail = member_size_ - need_;
    std::uint64_t n = 1;
    bool zero = false;
    for (std::int64_t d : shape_) zero = zero || d == 0;
    if (!zero) {
      for (std::int64_t d : shape_) {
        if (n > avail / itemsize(dt_) / static_cast<std::uint64_t>(d))
          fail("data is truncated: shape " + detail::shape_str(shape_) + " of " + std::string(dtype_name(dt_)) +
               " needs more than the " + std::to_string(avail) + " bytes in the member");
        n *= static_cast<std::uint64_t>(d);
      }
    } else {
      n = 0;
    }
    data_need_ = n * itemsize(dt_);
    // The bytes against the host's memory before the buffer is allocated (NumPy's MemoryError).
    (void)detail::checked_host_count(static_cast<std::int64_t>(data_need_), 1, ctx_.substr(0, ctx_.size() - 2),
                                     "array data");
    if (fortran_ && shape_.size() > 1) {
      ftmp_.resize(static_cast<std::size_t>(data_need_));
      dst_ = reinterpret_cast<unsigned char*>(ftmp_.data());
    } else {
      out_ = host_array(dt_, shape_);
      dst_ = static_cast<unsigned char*>(out_.data());
    }
    parsed_ = true;
  }

  // NumPy's bytes (`|S<n>`, `S<n>`) and unicode (`<U<n>`, `|U<n>`, `=U<n>`) descrs: one element only,
  // buffered whole and decoded by finish(). Returns false for any other descr.
  bool parse_text_descr(const std::string& descr) {
    std::size_t i = 0;
    if (i < descr.size() && (descr[i] == '|' || descr[i] == '<' || descr[i] == '=' || descr[i] == '>')) ++i;
    if (i >= descr.size() || (descr[i] != 'S' && descr[i] != 'U')) return false;
    const char kind = descr[i++];
    if (i >= descr.size() || descr.find_first_not_of("0123456789", i) != std::string::npos) return false;
    if (descr.size() - i > 9) fail("string width too large in '" + descr + "'");
    const std::uint64_t width = std::stoull(descr.substr(i));
    if (kind == 'U' && descr[0] == '>' && width > 0)
      throw type_error(ctx_ + "big-endian unicode ('" + descr + "') is not supported");
    std::uint64_t n = 1;
    for (std::int64_t d : shape_) n *= static_cast<std::uint64_t>(d);
    if (n != 1)
      throw type_error(ctx_ + "string members ('" + descr + "') are read only when they hold one element, got shape " +
                       detail::shape_str(shape_));
    data_need_ = width * (kind == 'U' ? 4 : 1);
    if (data_need_ > member_size_ - need_)
      fail("data is truncated: '" + descr + "' needs " + std::to_string(data_need_) + " bytes");
    ftmp_.resize(static_cast<std::size_t>(data_need_));
    dst_ = reinterpret_cast<unsigned char*>(ftmp_.data());
    text_kind_ = kind;
    parsed_ = true;
    return true;
  }

  // Bytes: as stored, trailing NULs dropped (as NumPy's item()). Unicode: UTF-32LE code points,
  // trailing NULs dropped, encoded as UTF-8.
  void decode_text() {
    const auto* b = reinterpret_cast<const unsigned char*>(ftmp_.data());
    text_.clear();
    if (text_kind_ == 'S') {
      std::size_t n = ftmp_.size();
      while (n > 0 && b[n - 1] == 0) --n;
      text_.assign(ftmp_.data(), n);
      return;
    }
    std::size_t n = ftmp_.size() / 4;
    while (n > 0 && rd32(b + 4 * (n - 1)) == 0) --n;
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t c = rd32(b + 4 * k);
      if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) fail("invalid unicode code point in a string member");
      if (c < 0x80) {
        text_ += static_cast<char>(c);
      } else if (c < 0x800) {
        text_ += static_cast<char>(0xc0 | (c >> 6));
        text_ += static_cast<char>(0x80 | (c & 0x3f));
      } else if (c < 0x10000) {
        text_ += static_cast<char>(0xe0 | (c >> 12));
        text_ += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
        text_ += static_cast<char>(0x80 | (c & 0x3f));
      } else {
        text_ += static_cast<char>(0xf0 | (c >> 18));
        text_ += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
        text_ += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
        text_ += static_cast<char>(0x80 | (c & 0x3f));
      }
    }
  }

  void f_to_c(const std::byte* src, std::byte* dst) const {
    detail::permute_copy(src, dst, shape_, itemsize(dt_), false);
  }

  std::string ctx_;
  std::uint64_t member_size_;
  std::string head_;
  std::size_t need_ = 8;
  int stage_ = 0, major_ = 1;
  bool parsed_ = false, fortran_ = false;
  dtype dt_ = dtype::float64;
  shape_t shape_;
  std::uint64_t data_need_ = 0, got_ = 0;
  unsigned char* dst_ = nullptr;
  host_array out_;
  std::vector<char> ftmp_;
  char text_kind_ = 0;  // 'S' or 'U' for a string member
  std::string text_;
};

// ---- reading the archive ---------------------------------------------------------------------------

struct reader {
  std::string path;
  file_ptr f;
  std::uint64_t size = 0;

  [[noreturn]] void bad(const std::string& what) const {
    throw value_error("cusci::io::load_npz: '" + path + "' is not a valid .npz (zip) archive: " + what);
  }
  void read_at(std::uint64_t off, void* dst, std::size_t n) const {
    if (off > size || n > size - off) bad("a record runs past the end of the file (truncated archive?)");
    if (fseeko(f.get(), static_cast<off_t>(off), SEEK_SET) != 0 || std::fread(dst, 1, n, f.get()) != n)
      throw error("cusci::io::load_npz: error reading '" + path + "'");
  }
};

struct member_info {
  std::string name;
  std::uint16_t flags = 0, method = 0;
  std::uint32_t crc = 0;
  std::uint64_t csize = 0, usize = 0, offset = 0;
};

struct member_value {
  host_array array;
  std::string text;
  bool is_text = false;
};

member_value read_member(const reader& r, const member_info& m, std::uint64_t concat) {
  const std::string ctx = "cusci::io::load_npz: '" + r.path + "', member '" + m.name + "': ";
  unsigned char lh[30];
  r.read_at(m.offset + concat, lh, 30);
  if (rd32(lh) != sig_local) throw value_error(ctx + "bad local file header signature");
  const std::uint64_t data_start = m.offset + concat + 30 + rd16(lh + 26) + rd16(lh + 28);
  if (data_start > r.size || m.csize > r.size - data_start)
    throw value_error(ctx + "the member's data runs past the end of the file (truncated archive?)");
  if (fseeko(r.f.get(), static_cast<off_t>(data_start), SEEK_SET) != 0)
    throw error("cusci::io::load_npz: error reading '" + r.path + "'");
  // The recorded uncompressed size decides what the .npy header may ask to allocate, so it is capped
  // by what the member's bytes can really produce before anything is allocated: a stored member
  // holds exactly its bytes (checked above), and deflate expands at most 1032:1 (a 258-byte match in
  // 2 bits), so a deflated member claiming more (a 257-byte file claiming 4 GiB) is corrupt.
  constexpr std::uint64_t max_deflate_ratio = 1032, deflate_slack = 1024;
  if (m.method != 0 && m.usize > m.csize * max_deflate_ratio + deflate_slack)
    throw value_error(ctx + "the recorded uncompressed size " + std::to_string(m.usize) +
                      " is more than its " + std::to_string(m.csize) + " deflated bytes can hold (at most " +
                      std::to_string(max_deflate_ratio) + ":1): corrupt archive");

  npy_sink sink(ctx, m.usize);
  std::uint32_t crc = 0;
  std::uint64_t produced = 0;
  std::vector<unsigned char> in(chunk);
  auto take = [&](const unsigned char* p, std::size_t n) {
    if (n > m.usize - produced) throw value_error(ctx + "the member inflates to more than its recorded size");
    produced += n;
    crc = crc_update(crc, p, n);
    sink.feed(p, n);
  };
  std::uint64_t left = m.csize;
  if (m.method == 0) {
    if (m.csize != m.usize)
      throw value_error(ctx + "stored member with different compressed and uncompressed sizes");
    while (left > 0) {
      const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk));
      if (std::fread(in.data(), 1, k, r.f.get()) != k) throw error("cusci::io::load_npz: error reading '" + r.path + "'");
      left -= k;
      take(in.data(), k);
    }
  } else {
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw error(ctx + "zlib inflateInit2 failed");
    std::unique_ptr<z_stream, int (*)(z_stream*)> zguard(&zs, inflateEnd);
    std::vector<unsigned char> out(chunk);
    int st = Z_OK;
    while (st != Z_STREAM_END) {
      if (zs.avail_in == 0) {
        if (left == 0) throw value_error(ctx + "the deflate stream is truncated");
        const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk));
        if (std::fread(in.data(), 1, k, r.f.get()) != k) throw error("cusci::io::load_npz: error reading '" + r.path + "'");
        left -= k;
        zs.next_in = in.data();
        zs.avail_in = static_cast<uInt>(k);
      }
      zs.next_out = out.data();
      zs.avail_out = static_cast<uInt>(out.size());
      st = inflate(&zs, Z_NO_FLUSH);
      if (st != Z_OK && st != Z_STREAM_END && st != Z_BUF_ERROR)
        throw value_error(ctx + "corrupt deflate data (" + std::string(zs.msg ? zs.msg : "zlib error") + ")");
      const std::size_t got = out.size() - zs.avail_out;
      if (st == Z_BUF_ERROR && got == 0 && zs.avail_in != 0)
        throw value_error(ctx + "corrupt deflate data (no progress)");
      take(out.data(), got);
    }
  }
  if (produced != m.usize)
    throw value_error(ctx + "size mismatch: " + std::to_string(produced) + " bytes instead of the recorded " +
                      std::to_string(m.usize));
  if (crc != m.crc) throw value_error(ctx + "CRC-32 mismatch (corrupt data)");
  member_value v;
  v.array = sink.finish();
  v.is_text = sink.is_text();
  v.text = sink.text();
  return v;
}

// ---- writing ------------------------------------------------------------------------------------

struct central_rec {
  std::string name;
  std::uint16_t method, dostime, dosdate, flags;
  std::uint32_t crc;
  std::uint64_t csize, usize, offset;
  bool zip64_local;
};

struct writer {
  std::string path;
  file_ptr f;

  [[noreturn]] void io_fail() const {
    throw error("cusci::io::savez: error writing '" + path + "': " + std::strerror(errno));
  }
  void write(const void* p, std::size_t n) const {
    if (n && std::fwrite(p, 1, n, f.get()) != n) io_fail();
  }
  void write(const std::string& s) const { write(s.data(), s.size()); }
  std::uint64_t tell() const {
    const off_t o = ftello(f.get());
    if (o < 0) io_fail();
    return static_cast<std::uint64_t>(o);
  }
  void seek(std::uint64_t o) const {
    if (fseeko(f.get(), static_cast<off_t>(o), SEEK_SET) != 0) io_fail();
  }
};

void dos_time_now(std::uint16_t& t, std::uint16_t& d) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  int year = tm.tm_year + 1900;
  if (year < 1980) year = 1980;
  t = static_cast<std::uint16_t>((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
  d = static_cast<std::uint16_t>(((year - 1980) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
}

bool ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

std::string local_header(const central_rec& e) {
  std::string h;
  put32(h, sig_local);
  put16(h, e.zip64_local ? 45 : 20);
  put16(h, e.flags);
  put16(h, e.method);
  put16(h, e.dostime);
  put16(h, e.dosdate);
  put32(h, e.crc);
  put32(h, e.zip64_local ? 0xffffffffu : static_cast<std::uint32_t>(e.csize));
  put32(h, e.zip64_local ? 0xffffffffu : static_cast<std::uint32_t>(e.usize));
  put16(h, static_cast<std::uint32_t>(e.name.size()));
  put16(h, e.zip64_local ? 20 : 0);
  h += e.name;
  if (e.zip64_local) {
    put16(h, 1);
    put16(h, 16);
    put64(h, e.usize);
    put64(h, e.csize);
  }
  return h;
}

/// Writes one member (npy header `head` + `nbytes` element bytes at `payload`) and returns its
/// central directory record.
central_rec write_member(writer& w, const std::string& name, const std::string& head, const void* payload,
                         std::size_t nbytes, bool compressed, std::uint64_t limit) {
  central_rec e{};
  e.name = name + ".npy";
  e.method = compressed ? 8 : 0;
  e.flags = ascii(e.name) ? 0 : 0x800;  // bit 11: UTF-8 name
  dos_time_now(e.dostime, e.dosdate);
  e.offset = w.tell();
  e.usize = head.size() + nbytes;
  // Sizes are only known after compression: reserve the ZIP64 form of the local header whenever the
  // (worst-case deflated) size could reach the limit, as Python's zipfile does when it must guess.
  e.zip64_local = compressBound(static_cast<uLong>(std::min<std::uint64_t>(e.usize, std::numeric_limits<uLong>::max()))) >= limit ||
                  e.usize >= limit;
  w.write(local_header(e));
  const std::uint64_t data_start = w.tell();
  std::uint32_t crc = crc_update(0, head.data(), head.size());
  crc = crc_update(crc, payload, nbytes);
  e.crc = crc;
  if (!compressed) {
    w.write(head);
    w.write(payload, nbytes);
    e.csize = e.usize;
  } else {
    z_stream zs{};
    if (deflateInit2(&zs, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw error("cusci::io::savez: zlib deflateInit2 failed");
    std::unique_ptr<z_stream, int (*)(z_stream*)> zguard(&zs, deflateEnd);
    std::vector<unsigned char> out(chunk);
    auto pump = [&](const void* p, std::size_t n, bool last) {
      const auto* b = static_cast<const unsigned char*>(p);
      do {
        const std::size_t k = std::min<std::size_t>(n, std::size_t{1} << 30);
        zs.next_in = const_cast<Bytef*>(b);
        zs.avail_in = static_cast<uInt>(k);
        b += k;
        n -= k;
        const int flush = (last && n == 0) ? Z_FINISH : Z_NO_FLUSH;
        int st;
        do {
          zs.next_out = out.data();
          zs.avail_out = static_cast<uInt>(out.size());
          st = deflate(&zs, flush);
          if (st == Z_STREAM_ERROR) throw error("cusci::io::savez: zlib deflate failed");
          w.write(out.data(), out.size() - zs.avail_out);
        } while (zs.avail_out == 0 || (flush == Z_FINISH && st != Z_STREAM_END));
      } while (n > 0);
    };
    pump(head.data(), head.size(), false);
    pump(payload, nbytes, true);
    e.csize = w.tell() - data_start;
  }
  const std::uint64_t end = w.tell();
  if (!e.zip64_local && (e.csize >= limit || e.usize >= limit))
    throw error("cusci::io::savez: internal error: member '" + e.name + "' outgrew its local header");
  w.seek(e.offset);
  w.write(local_header(e));
  w.seek(end);
  return e;
}

// One member to write: an array, or (array == nullptr) a byte string as a 0-d |S<n> array.
struct out_member {
  std::string key;
  const host_array* array = nullptr;
  const std::string* bytes = nullptr;
};

void write_archive(const std::string& path, const std::vector<out_member>& arrays, bool compressed) {
  std::set<std::string> seen;
  for (const auto& [k, a, b] : arrays) {
    CUSCI_EXPECTS(!k.empty(), value_error, "cusci::io::savez: array names must not be empty");
    CUSCI_EXPECTS(seen.insert(k).second, value_error, "cusci::io::savez: the name '" + k + "' is used twice");
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw error("cusci::io::savez: cannot write '" + path + "': it is a directory");
  writer w{path, file_ptr(std::fopen(path.c_str(), "wb"))};
  if (!w.f) throw error("cusci::io::savez: cannot open '" + path + "' for writing: " + std::strerror(errno));
  const std::uint64_t limit = zip64_limit.load();
  std::vector<central_rec> recs;
  recs.reserve(arrays.size());
  for (const auto& [k, a, b] : arrays) {
    if (a) {
      recs.push_back(write_member(w, k, npy_header(dtype_descr(a->dtype()), a->shape()), a->data(), a->nbytes(),
                                  compressed, limit));
    } else {
      // np.array(b'') has dtype |S1 holding one NUL byte.
      const std::string body = b->empty() ? std::string(1, '\0') : *b;
      recs.push_back(write_member(w, k, npy_header("|S" + std::to_string(body.size()), {}), body.data(), body.size(),
                                  compressed, limit));
    }
  }

  const std::uint64_t cd_start = w.tell();
  for (const auto& e : recs) {
    std::string extra;
    const bool big_u = e.usize >= limit, big_c = e.csize >= limit, big_o = e.offset >= limit;
    if (big_u || big_c || big_o) {
      std::string fields;
      if (big_u) put64(fields, e.usize);
      if (big_c) put64(fields, e.csize);
      if (big_o) put64(fields, e.offset);
      put16(extra, 1);
      put16(extra, static_cast<std::uint32_t>(fields.size()));
      extra += fields;
    }
    const bool z64 = !extra.empty() || e.zip64_local;
    std::string c;
    put32(c, sig_central);
    put16(c, (3u << 8) | (z64 ? 45u : 20u));  // made by: Unix
    put16(c, z64 ? 45 : 20);
    put16(c, e.flags);
    put16(c, e.method);
    put16(c, e.dostime);
    put16(c, e.dosdate);
    put32(c, e.crc);
    put32(c, big_c ? 0xffffffffu : static_cast<std::uint32_t>(e.csize));
    put32(c, big_u ? 0xffffffffu : static_cast<std::uint32_t>(e.usize));
    put16(c, static_cast<std::uint32_t>(e.name.size()));
    put16(c, static_cast<std::uint32_t>(extra.size()));
    put16(c, 0);  // comment
    put16(c, 0);  // disk
    put16(c, 0);  // internal attributes
    put32(c, 0600u << 16);  // external attributes: -rw-------, as Python's zipfile
    put32(c, big_o ? 0xffffffffu : static_cast<std::uint32_t>(e.offset));
    c += e.name;
    c += extra;
    w.write(c);
  }
  const std::uint64_t cd_end = w.tell(), cd_size = cd_end - cd_start, count = recs.size();
  std::string tail;
  if (count >= 0xffff || cd_size >= limit || cd_start >= limit) {
    put32(tail, sig_eocd64);
    put64(tail, 44);
    put16(tail, 45);
    put16(tail, 45);
    put32(tail, 0);
    put32(tail, 0);
    put64(tail, count);
    put64(tail, count);
    put64(tail, cd_size);
    put64(tail, cd_start);
    put32(tail, sig_locator64);
    put32(tail, 0);
    put64(tail, cd_end);
    put32(tail, 1);
  }
  put32(tail, sig_eocd);
  put16(tail, 0);
  put16(tail, 0);
  put16(tail, static_cast<std::uint32_t>(std::min<std::uint64_t>(count, 0xffff)));
  put16(tail, static_cast<std::uint32_t>(std::min<std::uint64_t>(count, 0xffff)));
  put32(tail, static_cast<std::uint32_t>(std::min<std::uint64_t>(cd_size, 0xffffffffu)));
  put32(tail, static_cast<std::uint32_t>(std::min<std::uint64_t>(cd_start, 0xffffffffu)));
  put16(tail, 0);
  w.write(tail);
  if (std::fflush(w.f.get()) != 0) w.io_fail();
  std::FILE* raw = w.f.release();
  if (std::fclose(raw) != 0) w.io_fail();
}

}  // namespace

namespace io {

std::vector<std::string> npz_file::files() const {
  if (!order_.empty()) return order_;
  std::vector<std::string> out;
  out.reserve(entries_.size() + strings_.size());
  for (const auto& e : entries_) out.push_back(e.first);
  for (const auto& e : strings_) out.push_back(e.first);
  return out;
}

const host_array& npz_file::operator[](const std::string& key) const {
  for (const auto& e : entries_)
    if (e.first == key) return e.second;
  if (is_string(key))
    throw type_error("cusci::io::npz_file: '" + key + "' is a string member: read it with member_string");
  throw index_error("cusci::io::npz_file: '" + key + "' is not a file in the archive");
}

const std::string& npz_file::member_string(const std::string& key) const {
  for (const auto& e : strings_)
    if (e.first == key) return e.second;
  if (contains(key))
    throw type_error("cusci::io::npz_file::member_string: '" + key + "' is an array member, not a string");
  throw index_error("cusci::io::npz_file::member_string: '" + key + "' is not a file in the archive");
}

bool npz_file::is_string(const std::string& key) const noexcept {
  return std::any_of(strings_.begin(), strings_.end(), [&](const auto& e) { return e.first == key; });
}

bool npz_file::contains(const std::string& key) const noexcept {
  return is_string(key) ||
         std::any_of(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == key; });
}

npz_file load_npz(const std::string& path) {
  CUSCI_NVTX_SCOPE("cusci::io::load_npz");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw error("cusci::io::load_npz: cannot read '" + path + "': it is a directory");
  reader r{path, file_ptr(std::fopen(path.c_str(), "rb"))};
  if (!r.f) throw error("cusci::io::load_npz: cannot open '" + path + "': " + std::strerror(errno));
  if (fseeko(r.f.get(), 0, SEEK_END) != 0) throw error("cusci::io::load_npz: error reading '" + path + "'");
  const off_t sz = ftello(r.f.get());
  if (sz < 0) throw error("cusci::io::load_npz: error reading '" + path + "'");
  r.size = static_cast<std::uint64_t>(sz);
  if (r.size < 22) r.bad("too short for an end-of-central-directory record");

  // End of central directory: the last signature whose record (with its comment) fits in the file.
  const std::uint64_t tail_len = std::min<std::uint64_t>(r.size, 22 + 65535);
  std::vector<unsigned char> tail(static_cast<std::size_t>(tail_len));
  r.read_at(r.size - tail_len, tail.data(), tail.size());
  std::int64_t at = -1;
  for (std::int64_t i = static_cast<std::int64_t>(tail_len) - 22; i >= 0; --i) {
    if (rd32(&tail[static_cast<std::size_t>(i)]) == sig_eocd &&
        static_cast<std::uint64_t>(i) + 22 + rd16(&tail[static_cast<std::size_t>(i) + 20]) <= tail_len) {
      at = i;
      break;
    }
  }
  if (at < 0) r.bad("no end-of-central-directory record (not a zip file)");
  const unsigned char* eo = &tail[static_cast<std::size_t>(at)];
  const std::uint64_t eocd_pos = r.size - tail_len + static_cast<std::uint64_t>(at);
  if (rd16(eo + 4) != 0 || rd16(eo + 6) != 0) r.bad("multi-disk archives are not supported");
  std::uint64_t count = rd16(eo + 10), cd_size = rd32(eo + 12), cd_off = rd32(eo + 16);
  std::uint64_t cd_end_actual = eocd_pos;
  if (eocd_pos >= 20) {
    unsigned char loc[20];
    r.read_at(eocd_pos - 20, loc, 20);
    if (rd32(loc) == sig_locator64) {
      // The ZIP64 end record sits right before the locator; its recorded offset ignores any data
      // prepended to the archive, so look where it must be first.
      unsigned char rec[56];
      std::uint64_t rec_pos = eocd_pos - 20 >= 56 ? eocd_pos - 20 - 56 : 0;
      bool found = false;
      if (eocd_pos - 20 >= 56) {
        r.read_at(rec_pos, rec, 56);
        found = rd32(rec) == sig_eocd64;
      }
      if (!found) {
        rec_pos = rd64(loc + 8);
        r.read_at(rec_pos, rec, 56);
        if (rd32(rec) != sig_eocd64) r.bad("the ZIP64 end-of-central-directory record is missing");
      }
      if (rd32(loc + 16) > 1 || rd32(rec + 16) != 0 || rd32(rec + 20) != 0)
        r.bad("multi-disk archives are not supported");
      count = rd64(rec + 32);
      cd_size = rd64(rec + 40);
      cd_off = rd64(rec + 48);
      cd_end_actual = rec_pos;
    }
  }
  if (cd_size > cd_end_actual || cd_off > cd_end_actual - cd_size)
    r.bad("the central directory's offset and size do not fit in the file");
  const std::uint64_t concat = cd_end_actual - cd_size - cd_off;  // bytes prepended to the archive
  if (count > cd_size / 46 + 1 && count > 0) r.bad("the entry count does not fit in the central directory");
  std::vector<unsigned char> cd(static_cast<std::size_t>(cd_size));
  r.read_at(cd_off + concat, cd.data(), cd.size());

  std::vector<member_info> members;
  std::size_t p = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    if (cd.size() - p < 46 || rd32(&cd[p]) != sig_central) r.bad("bad central directory entry " + std::to_string(k));
    const unsigned char* c = &cd[p];
    member_info m;
    m.flags = rd16(c + 8);
    m.method = rd16(c + 10);
    m.crc = rd32(c + 16);
    m.csize = rd32(c + 20);
    m.usize = rd32(c + 24);
    const std::size_t nlen = rd16(c + 28), elen = rd16(c + 30), clen = rd16(c + 32);
    const std::uint32_t disk = rd16(c + 34);
    m.offset = rd32(c + 42);
    if (cd.size() - p - 46 < nlen + elen + clen) r.bad("central directory entry " + std::to_string(k) + " is truncated");
    m.name.assign(reinterpret_cast<const char*>(c + 46), nlen);
    // ZIP64 extended information: the 8-byte values of the fields set to 0xffffffff, in order.
    const unsigned char* x = c + 46 + nlen;
    for (std::size_t q = 0; q + 4 <= elen;) {
      const std::uint16_t id = rd16(x + q), len = rd16(x + q + 2);
      if (q + 4 + len > elen) r.bad("member '" + m.name + "': malformed extra field");
      if (id == 1) {
        const unsigned char* v = x + q + 4;
        std::size_t left = len;
        auto next = [&](std::uint64_t& field) {
          if (left < 8) r.bad("member '" + m.name + "': ZIP64 extra field too short");
          field = rd64(v);
          v += 8;
          left -= 8;
        };
        if (m.usize == 0xffffffffu) next(m.usize);
        if (m.csize == 0xffffffffu) next(m.csize);
        if (m.offset == 0xffffffffu) next(m.offset);
      }
      q += 4 + len;
    }
    if (disk != 0 && disk != 0xffff) r.bad("multi-disk archives are not supported");
    if (m.flags & 1) r.bad("member '" + m.name + "' is encrypted (not supported)");
    if (m.method != 0 && m.method != 8) {
      const char* known = m.method == 12 ? " (bzip2)" : m.method == 14 ? " (LZMA)" : m.method == 9 ? " (deflate64)"
                          : m.method == 93 ? " (zstd)" : "";
      throw value_error("cusci::io::load_npz: '" + path + "', member '" + m.name + "': unsupported compression method " +
                        std::to_string(m.method) + known + "; only stored (0) and deflated (8) are supported");
    }
    p += 46 + nlen + elen + clen;
    members.push_back(std::move(m));
  }

  std::vector<npz_file::entry> out;
  std::vector<npz_file::string_entry> strings;
  std::vector<std::string> order;
  std::set<std::string> keys;
  for (const auto& m : members) {
    if (!m.name.empty() && m.name.back() == '/' && m.usize == 0) continue;  // directory entry
    std::string key = m.name;
    if (key.size() > 4 && key.compare(key.size() - 4, 4, ".npy") == 0) key.resize(key.size() - 4);
    if (!keys.insert(key).second) r.bad("the name '" + key + "' appears twice");
    member_value v = read_member(r, m, concat);
    order.push_back(key);
    if (v.is_text) strings.emplace_back(key, std::move(v.text));
    else out.emplace_back(key, std::move(v.array));
  }
  return npz_file(std::move(out), std::move(strings), std::move(order));
}

void savez(const std::string& path, const std::vector<std::pair<std::string, host_array>>& arrays, bool compressed) {
  CUSCI_NVTX_SCOPE("cusci::io::savez");
  std::vector<out_member> v;
  v.reserve(arrays.size());
  for (const auto& [k, a] : arrays) v.push_back({k, &a, nullptr});
  write_archive(path, v, compressed);
}

void savez(const std::string& path, const std::vector<std::pair<std::string, ndarray>>& arrays, bool compressed) {
  CUSCI_NVTX_SCOPE("cusci::io::savez");
  std::vector<std::pair<std::string, host_array>> h;
  h.reserve(arrays.size());
  for (const auto& [k, a] : arrays) h.emplace_back(k, to_host(a));
  savez(path, h, compressed);
}

void savez(const std::string& path, const std::vector<npz_member>& members, bool compressed) {
  CUSCI_NVTX_SCOPE("cusci::io::savez");
  std::vector<out_member> v;
  v.reserve(members.size());
  for (const auto& m : members)
    v.push_back({m.key(), m.is_bytes() ? nullptr : &m.array_value(), m.is_bytes() ? &m.bytes_value() : nullptr});
  write_archive(path, v, compressed);
}

void savez(const std::string& path, const std::vector<host_array>& arrays, bool compressed) {
  CUSCI_NVTX_SCOPE("cusci::io::savez");
  std::vector<out_member> v;
  v.reserve(arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i) v.push_back({"arr_" + std::to_string(i), &arrays[i], nullptr});
  write_archive(path, v, compressed);
}

void savez(const std::string& path, const std::vector<ndarray>& arrays, bool compressed) {
  CUSCI_NVTX_SCOPE("cusci::io::savez");
  std::vector<host_array> h;
  h.reserve(arrays.size());
  for (const auto& a : arrays) h.push_back(to_host(a));
  savez(path, h, compressed);
}

namespace detail {
void set_npz_zip64_limit(std::uint64_t bytes) noexcept { zip64_limit.store(bytes ? bytes : default_zip64_limit); }
}  // namespace detail

}  // namespace io
}  // namespace cusci
