// SciPy's sparse .npz files (scipy.sparse.save_npz / load_npz): a zip archive (PKWARE APPNOTE.TXT)
// of .npy members. cusci's core .npz reader does not take string dtypes, and SciPy stores the
// format as a NumPy bytes scalar (dtype |S3), so this file has its own small archive reader and
// writer: stored and deflated members (zlib), ZIP64 sizes on read, .npy versions 1-3 on read and
// 1.0 on write (the header np.save writes: sorted keys, growth-axis spaces, 64-byte alignment).

#include <algorithm>
#include <cerrno>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <zlib.h>

#include "cusci/error.hpp"
#include "cusci/sparse/access.hpp"

namespace cusci::sparse {
namespace {

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

struct file_closer {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

std::string read_all(const std::string& path, const char* fn) {
  std::unique_ptr<std::FILE, file_closer> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw error(std::string(fn) + ": cannot open '" + path + "': " + std::strerror(errno));
  std::string buf;
  char chunk[1 << 16];
  std::size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, f.get())) > 0) buf.append(chunk, got);
  if (std::ferror(f.get())) throw error(std::string(fn) + ": cannot read '" + path + "'");
  return buf;
}

constexpr const char* rfn = "cusci::sparse::load_npz";
constexpr const char* wfn = "cusci::sparse::save_npz";

// ---- .npy members ---------------------------------------------------------------------------------

struct npy_member {
  host_array array;     // numeric members
  std::string text;     // string members (|S or <U), decoded to ASCII
  bool is_text = false;
};

[[noreturn]] void bad(const std::string& ctx, const std::string& what) { throw value_error(ctx + what); }

// Value of key `key` in a .npy header dict (a Python literal): the text up to the matching ',' at
// nesting level 0.
std::string dict_value(const std::string& h, const std::string& key, const std::string& ctx) {
  std::size_t k = h.find("'" + key + "'");
  if (k == std::string::npos) k = h.find("\"" + key + "\"");
  if (k == std::string::npos) bad(ctx, "the .npy header has no '" + key + "' key");
  std::size_t i = h.find(':', k);
  if (i == std::string::npos) bad(ctx, "malformed .npy header");
  ++i;
  while (i < h.size() && h[i] == ' ') ++i;
  int depth = 0;
  std::size_t j = i;
  for (; j < h.size(); ++j) {
    const char c = h[j];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if ((c == ',' || c == '}') && depth == 0) break;
  }
  std::string v = h.substr(i, j - i);
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return v;
}

npy_member parse_npy(const std::string& b, const std::string& ctx) {
  const auto* u = reinterpret_cast<const unsigned char*>(b.data());
  if (b.size() < 10 || std::memcmp(b.data(), "\x93NUMPY", 6) != 0) bad(ctx, "the member is not a .npy file");
  const int major = u[6];
  std::size_t hlen = 0, start = 0;
  if (major == 1) {
    hlen = rd16(u + 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (b.size() < 12) bad(ctx, "truncated .npy header");
    hlen = rd32(u + 8);
    start = 12;
  } else {
    bad(ctx, "unsupported .npy version " + std::to_string(major));
  }
  if (start + hlen > b.size()) bad(ctx, "truncated .npy header");
  const std::string h = b.substr(start, hlen);
  std::string descr = dict_value(h, "descr", ctx);
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"')) bad(ctx, "unsupported descr " + descr);
  descr = descr.substr(1, descr.size() - 2);
  const bool fortran = dict_value(h, "fortran_order", ctx) == "True";
  const std::string shp = dict_value(h, "shape", ctx);
  shape_t shape;
  {
    std::size_t i = 0;
    while (i < shp.size()) {
      if (shp[i] >= '0' && shp[i] <= '9') {
        std::int64_t v = 0;
        while (i < shp.size() && shp[i] >= '0' && shp[i] <= '9') v = v * 10 + (shp[i++] - '0');
        shape.push_back(v);
      } else {
        ++i;
      }
    }
  }
  std::int64_t count = 1;
  for (std::int64_t d : shape) count *= d;
  const std::size_t data_start = start + hlen;
  npy_member m;
  if (descr.size() >= 2 && (descr[1] == 'S' || descr[1] == 'U') && (descr[0] == '|' || descr[0] == '<' || descr[0] == '=')) {
    // A string scalar or array: only the first element is used (SciPy's `format.item()`).
    const std::size_t n = static_cast<std::size_t>(std::stoll(descr.substr(2)));
    const std::size_t width = descr[1] == 'U' ? 4 : 1;
    if (count < 1 || data_start + n * width > b.size()) bad(ctx, "truncated string member");
    for (std::size_t k = 0; k < n; ++k) {
      const unsigned char c = u[data_start + k * width];
      if (c == 0) break;
      m.text += static_cast<char>(c);
    }
    m.is_text = true;
    return m;
  }
  dtype dt;
  try {
    dt = dtype_from_string(descr);
  } catch (const type_error&) {
    throw type_error(ctx + "unsupported dtype '" + descr + "'");
  }
  if (descr[0] == '>' && itemsize(dt) > 1) throw type_error(ctx + "big-endian data ('" + descr + "') is not supported");
  const std::size_t item = itemsize(dt);
  if (data_start + static_cast<std::size_t>(count) * item > b.size()) bad(ctx, "truncated .npy data");
  m.array = host_array(dt, shape);
  const auto* src = u + data_start;
  auto* dst = static_cast<unsigned char*>(m.array.data());
  if (!fortran || shape.size() < 2) {
    std::memcpy(dst, src, static_cast<std::size_t>(count) * item);
  } else {
    // Fortran order: element with C index (i0, ..., in) is at F linear position sum(i_d * prod(shape[:d])).
    const std::size_t nd = shape.size();
    std::vector<std::int64_t> idx(nd, 0);
    for (std::int64_t c = 0; c < count; ++c) {
      std::int64_t f = 0, mul = 1;
      for (std::size_t d = 0; d < nd; ++d) {
        f += idx[d] * mul;
        mul *= shape[d];
      }
      std::memcpy(dst + static_cast<std::size_t>(c) * item, src + static_cast<std::size_t>(f) * item, item);
      for (std::size_t d = nd; d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
  }
  if (dt == dtype::bool_) {
    auto* p = static_cast<unsigned char*>(m.array.data());
    for (std::int64_t k = 0; k < count; ++k) p[k] = p[k] != 0;
  }
  return m;
}

std::string shape_repr(const shape_t& s) {
  std::string r = "(";
  for (std::size_t d = 0; d < s.size(); ++d) {
    if (d) r += ", ";
    r += std::to_string(s[d]);
  }
  if (s.size() == 1) r += ",";
  return r + ")";
}

// The bytes np.save writes for an array with this descr and shape, then `payload`.
std::string npy_bytes(const std::string& descr, const shape_t& shape, const void* payload, std::size_t bytes) {
  std::string h = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_repr(shape) + ", }";
  // NumPy leaves room for the first axis to grow to 21 digits (GROWTH_AXIS_MAX_DIGITS).
  if (!shape.empty()) h.append(static_cast<std::size_t>(std::max<std::int64_t>(0, 21 - static_cast<std::int64_t>(std::to_string(shape[0]).size()))), ' ');
  const std::size_t total = 10 + h.size() + 1;
  h.append((64 - total % 64) % 64, ' ');
  h += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  put16(out, static_cast<std::uint32_t>(h.size()));
  out += h;
  out.append(static_cast<const char*>(payload), bytes);
  return out;
}

// ---- zip archives -------------------------------------------------------------------------------

std::vector<std::pair<std::string, std::string>> read_zip(const std::string& path) {
  const std::string buf = read_all(path, rfn);
  const auto* u = reinterpret_cast<const unsigned char*>(buf.data());
  const std::string ctx0 = std::string(rfn) + ": " + path + ": ";
  if (buf.size() < 22) bad(ctx0, "not a zip archive (too short)");
  std::size_t e = std::string::npos;
  for (std::size_t i = buf.size() - 22 + 1; i-- > 0 && buf.size() - i <= 22 + 65535;)
    if (rd32(u + i) == 0x06054b50) {
      e = i;
      break;
    }
  if (e == std::string::npos) bad(ctx0, "not a zip archive (no end of central directory record)");
  std::uint64_t n = rd16(u + e + 10), cd_size = rd32(u + e + 12), cd_off = rd32(u + e + 16);
  if ((n == 0xffff || cd_off == 0xffffffffu) && e >= 20 && rd32(u + e - 20) == 0x07064b50) {
    const std::uint64_t z = rd64(u + e - 20 + 8);
    if (z + 56 > buf.size() || rd32(u + z) != 0x06064b50) bad(ctx0, "bad ZIP64 end record");
    n = rd64(u + z + 32);
    cd_size = rd64(u + z + 40);
    cd_off = rd64(u + z + 48);
  }
  // Data before the archive (a prepended stub) shifts every offset, as Python's zipfile allows.
  const std::uint64_t concat = e >= cd_off + cd_size ? e - (cd_off + cd_size) : 0;
  std::vector<std::pair<std::string, std::string>> out;
  std::uint64_t p = cd_off + concat;
  for (std::uint64_t k = 0; k < n; ++k) {
    if (p + 46 > buf.size() || rd32(u + p) != 0x02014b50) bad(ctx0, "bad central directory entry");
    const std::uint16_t flags = rd16(u + p + 8), method = rd16(u + p + 10);
    const std::uint32_t crc = rd32(u + p + 16);
    std::uint64_t csize = rd32(u + p + 20), usize = rd32(u + p + 24);
    const std::uint16_t nlen = rd16(u + p + 28), xlen = rd16(u + p + 30), clen = rd16(u + p + 32);
    std::uint64_t loff = rd32(u + p + 42);
    if (p + 46 + nlen + xlen + clen > buf.size()) bad(ctx0, "truncated central directory");
    std::string name(buf.data() + p + 46, nlen);
    // ZIP64 extra field: the 0xffffffff values in order usize, csize, offset.
    for (std::uint64_t x = p + 46 + nlen; x + 4 <= p + 46 + nlen + xlen;) {
      const std::uint16_t id = rd16(u + x), len = rd16(u + x + 2);
      if (id == 0x0001) {
        std::uint64_t q = x + 4;
        if (usize == 0xffffffffu) { usize = rd64(u + q); q += 8; }
        if (csize == 0xffffffffu) { csize = rd64(u + q); q += 8; }
        if (loff == 0xffffffffu) { loff = rd64(u + q); }
      }
      x += 4 + len;
    }
    const std::string ctx = ctx0 + "member '" + name + "': ";
    if (flags & 1) bad(ctx, "encrypted members are not supported");
    loff += concat;
    if (loff + 30 > buf.size() || rd32(u + loff) != 0x04034b50) bad(ctx, "bad local header");
    const std::uint64_t dstart = loff + 30 + rd16(u + loff + 26) + rd16(u + loff + 28);
    if (dstart + csize > buf.size()) bad(ctx, "truncated member data");
    std::string data;
    if (method == 0) {
      data.assign(buf.data() + dstart, csize);
    } else if (method == 8) {
      data.resize(usize);
      z_stream zs{};
      if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw error(ctx + "zlib inflateInit2 failed");
      std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);
      zs.next_in = const_cast<Bytef*>(reinterpret_cast<const Bytef*>(buf.data() + dstart));
      zs.avail_in = static_cast<uInt>(csize);  // sparse .npz members are far below 4 GiB compressed
      zs.next_out = reinterpret_cast<Bytef*>(data.data());
      zs.avail_out = static_cast<uInt>(usize);
      const int st = inflate(&zs, Z_FINISH);
      if (st != Z_STREAM_END || zs.total_out != usize) bad(ctx, "corrupt deflate data");
    } else {
      bad(ctx, "unsupported compression method " + std::to_string(method) + " (only stored and deflated)");
    }
    const auto c = static_cast<std::uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
    if (c != crc) bad(ctx, "CRC-32 mismatch");
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0) name.resize(name.size() - 4);
    out.emplace_back(std::move(name), std::move(data));
    p += 46 + nlen + xlen + clen;
  }
  return out;
}

void dos_time_now(std::uint16_t& t, std::uint16_t& d) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  t = static_cast<std::uint16_t>((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
  d = static_cast<std::uint16_t>(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
}

void write_zip(const std::string& path, const std::vector<std::pair<std::string, std::string>>& members, bool compressed) {
  std::string out, central;
  std::uint16_t t = 0, d = 0;
  dos_time_now(t, d);
  for (const auto& [key, raw] : members) {
    const std::string name = key + ".npy";
    CUSCI_EXPECTS(raw.size() < 0x7fffffffu, value_error,
                  std::string(wfn) + ": member '" + name + "' is 2 GiB or larger (ZIP64 archives are not written)");
    const auto crc = static_cast<std::uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(raw.data()), static_cast<uInt>(raw.size())));
    std::string payload;
    if (compressed) {
      z_stream zs{};
      if (deflateInit2(&zs, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw error(std::string(wfn) + ": zlib deflateInit2 failed");
      std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, deflateEnd);
      payload.resize(deflateBound(&zs, static_cast<uLong>(raw.size())));
      zs.next_in = const_cast<Bytef*>(reinterpret_cast<const Bytef*>(raw.data()));
      zs.avail_in = static_cast<uInt>(raw.size());
      zs.next_out = reinterpret_cast<Bytef*>(payload.data());
      zs.avail_out = static_cast<uInt>(payload.size());
      if (deflate(&zs, Z_FINISH) != Z_STREAM_END) throw error(std::string(wfn) + ": zlib deflate failed");
      payload.resize(zs.total_out);
    }
    const std::string& body = compressed ? payload : raw;
    CUSCI_EXPECTS(out.size() < 0x7fffffffu, value_error,
                  std::string(wfn) + ": the archive reaches 2 GiB (ZIP64 archives are not written)");
    const auto offset = static_cast<std::uint32_t>(out.size());
    auto common = [&](std::string& s) {
      put16(s, 20);                 // version needed
      put16(s, 0);                  // flags
      put16(s, compressed ? 8 : 0);  // method
      put16(s, t);
      put16(s, d);
      put32(s, crc);
      put32(s, static_cast<std::uint32_t>(body.size()));
      put32(s, static_cast<std::uint32_t>(raw.size()));
      put16(s, static_cast<std::uint32_t>(name.size()));
      put16(s, 0);  // extra length
    };
    put32(out, 0x04034b50);
    common(out);
    out += name;
    out += body;
    put32(central, 0x02014b50);
    put16(central, 20);  // version made by
    common(central);
    put16(central, 0);  // comment length
    put16(central, 0);  // disk
    put16(central, 0);  // internal attributes
    put32(central, 0x1800000u);  // external attributes: -rw------- as Python's zipfile writes (0o600 << 16)
    put32(central, offset);
    central += name;
  }
  const auto cd_off = static_cast<std::uint32_t>(out.size());
  out += central;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<std::uint32_t>(members.size()));
  put16(out, static_cast<std::uint32_t>(members.size()));
  put32(out, static_cast<std::uint32_t>(central.size()));
  put32(out, cd_off);
  put16(out, 0);
  std::unique_ptr<std::FILE, file_closer> f(std::fopen(path.c_str(), "wb"));
  if (!f) throw error(std::string(wfn) + ": cannot open '" + path + "' for writing: " + std::strerror(errno));
  if (std::fwrite(out.data(), 1, out.size(), f.get()) != out.size()) throw error(std::string(wfn) + ": cannot write '" + path + "'");
}

std::string npy_of(const host_array& a) { return npy_bytes(dtype_descr(a.dtype()), a.shape(), a.data(), a.nbytes()); }

}  // namespace

npz_sparse_host load_npz_host(const std::string& path) {
  const auto members = read_zip(path);
  const std::string ctx0 = std::string(rfn) + ": " + path + ": ";
  npz_sparse_host m;
  std::string fmt;
  bool have_format = false, have_shape = false;
  std::vector<std::pair<std::string, host_array>> arrays;
  for (const auto& [name, bytes] : members) {
    npy_member x = parse_npy(bytes, ctx0 + "member '" + name + "': ");
    if (name == "format") {
      CUSCI_EXPECTS(x.is_text, value_error, ctx0 + "the 'format' member must be a string");
      fmt = x.text;
      have_format = true;
      continue;
    }
    CUSCI_EXPECTS(!x.is_text, value_error, ctx0 + "member '" + name + "' must be numeric");
    if (name == "shape") {
      const host_array s = x.array.astype(dtype::int64);
      CUSCI_EXPECTS(s.size() == 2, value_error,
                    ctx0 + "the 'shape' member must hold 2 values (n-D sparse arrays are not supported), got " +
                        std::to_string(s.size()));
      m.shape = {s.data_as<std::int64_t>()[0], s.data_as<std::int64_t>()[1]};
      have_shape = true;
    } else if (name == "_is_array") {
      m.is_array = x.array.size() > 0 && x.array.astype(dtype::bool_).data_as<bool>()[0];
    } else if (name == "coords") {
      throw value_error(ctx0 + "n-D COO files (a 'coords' member) are not supported");
    } else {
      arrays.emplace_back(name, std::move(x.array));
    }
  }
  if (!have_format) throw value_error(ctx0 + "The file " + path + " does not contain a sparse array or matrix.");
  try {
    m.fmt = format_from_string(fmt);
  } catch (const error&) {
    throw value_error(ctx0 + "Unknown format \"" + fmt + (m.is_array ? "_array" : "_matrix") + "\"");
  }
  CUSCI_EXPECTS(have_shape, value_error, ctx0 + "missing member 'shape'");
  auto take = [&](const char* key) -> host_array {
    for (auto& [n, a] : arrays)
      if (n == key) return std::move(a);
    throw value_error(ctx0 + "missing member '" + key + "' for format " + fmt);
  };
  m.data = take("data");
  switch (m.fmt) {
    case format::csr:
    case format::csc:
    case format::bsr:
      m.indices = take("indices");
      m.indptr = take("indptr");
      break;
    case format::dia: m.offsets = take("offsets"); break;
    case format::coo:
      m.row = take("row");
      m.col = take("col");
      break;
  }
  return m;
}

void save_npz_host(const std::string& path, const npz_sparse_host& m, bool compressed) {
  // SciPy's member order: the index arrays, then format, shape, data (and _is_array).
  std::vector<std::pair<std::string, std::string>> members;
  switch (m.fmt) {
    case format::csr:
    case format::csc:
    case format::bsr:
      members.emplace_back("indices", npy_of(m.indices));
      members.emplace_back("indptr", npy_of(m.indptr));
      break;
    case format::dia: members.emplace_back("offsets", npy_of(m.offsets)); break;
    case format::coo:
      members.emplace_back("row", npy_of(m.row));
      members.emplace_back("col", npy_of(m.col));
      break;
  }
  const std::string f(to_string(m.fmt));
  members.emplace_back("format", npy_bytes("|S" + std::to_string(f.size()), {}, f.data(), f.size()));
  const std::vector<std::int64_t> shp{m.shape[0], m.shape[1]};
  members.emplace_back("shape", npy_bytes(dtype_descr(dtype::int64), {2}, shp.data(), sizeof(std::int64_t) * 2));
  members.emplace_back("data", npy_of(m.data));
  if (m.is_array) {
    const unsigned char one = 1;
    members.emplace_back("_is_array", npy_bytes("|b1", {}, &one, 1));
  }
  write_zip(path, members, compressed);
}

void save_npz(const std::string& path, const spmatrix& A, bool compressed) {
  npz_sparse_host m;
  m.fmt = A.format();
  m.shape = A.shape();
  A.visit([&](const auto& M) {
    using T = std::decay_t<decltype(M)>;
    m.data = to_host(M.data());
    if constexpr (std::is_same_v<T, coo_matrix>) {
      m.row = to_host(M.row());
      m.col = to_host(M.col());
    } else if constexpr (std::is_same_v<T, dia_matrix>) {
      m.offsets = to_host(M.offsets());
    } else {
      m.indices = to_host(M.indices());
      m.indptr = to_host(M.indptr());
    }
  });
  save_npz_host(path, m, compressed);
}

spmatrix load_npz(const std::string& path) {
  const npz_sparse_host m = load_npz_host(path);
  const ndarray data = asarray(m.data);
  switch (m.fmt) {
    case format::csr:
      return csr_matrix(data, asarray(m.indices), asarray(m.indptr), matrix_options{.shape = m.shape});
    case format::csc:
      return csc_matrix(data, asarray(m.indices), asarray(m.indptr), matrix_options{.shape = m.shape});
    case format::bsr:
      return bsr_matrix(data, asarray(m.indices), asarray(m.indptr), bsr_options{.shape = m.shape});
    case format::dia: return dia_matrix(data, asarray(m.offsets), matrix_options{.shape = m.shape});
    case format::coo:
      return coo_matrix(data, std::pair<ndarray, ndarray>{asarray(m.row), asarray(m.col)}, matrix_options{.shape = m.shape});
  }
  throw value_error(std::string(rfn) + ": unknown format");
}

}  // namespace cusci::sparse
