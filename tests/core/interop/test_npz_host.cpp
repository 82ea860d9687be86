// .npz archives: NumPy-written archives read by cusci (stored, deflated, data descriptors, reordered
// central directory, prepended bytes, ZIP64), malformed and unsupported archives, archives written
// by cusci compared member by member with listings of NumPy-written archives of the same arrays,
// round trips and argument errors. Archives and expected arrays come from tests/golden/gen_core_interop.py.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>
#include <zlib.h>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "testing.hpp"

namespace fs = std::filesystem;
using namespace cusci;

namespace {

const std::string mod = "core_interop";

std::string data_path(const std::string& f) { return testing::golden_file(mod, f); }

/// A copy of `a` with `shape` (the same elements): the case gives each array's shape, as a 0-d array
/// may be stored with shape (1,).
host_array with_shape(const host_array& a, const shape_t& shape) {
  host_array h(a.dtype(), shape);
  REQUIRE(h.nbytes() == a.nbytes());
  std::memcpy(h.data(), a.data(), a.nbytes());
  return h;
}

/// The arrays named by parameter `key` of case `c`, each with its shape from parameter `shapes`.
std::vector<host_array> case_arrays(const testing::golden_case& c, const std::string& key) {
  const auto names = c.get<std::vector<std::string>>(key);
  const auto shapes = c.get<std::vector<shape_t>>("shapes");
  REQUIRE(names.size() == shapes.size());
  std::vector<host_array> out;
  for (std::size_t i = 0; i < names.size(); ++i) out.push_back(with_shape(testing::golden(mod, names[i]), shapes[i]));
  return out;
}

const testing::golden_case& find_case(const std::string& name) {
  for (const auto& c : testing::cases(mod))
    if (c.name() == name) return c;
  throw std::runtime_error("no case " + name + " in " + mod);
}

std::string tmp_file(const std::string& name) {
  return (fs::temp_directory_path() / ("cusci_interop_" + std::to_string(::getpid()) + "_" + name)).string();
}

/// Same dtype, shape and bytes (exact), plus the tolerance check of testing.hpp.
void check_same(const host_array& got, const host_array& want) {
  testing::check_allclose(got, want, 0, 0);
  REQUIRE(got.nbytes() == want.nbytes());
  CHECK(std::memcmp(got.data(), want.data(), got.nbytes()) == 0);
}

std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::uint32_t u16(const unsigned char* p) { return p[0] | (p[1] << 8); }
std::uint32_t u32(const unsigned char* p) { return u16(p) | (u16(p + 2) << 16); }
std::uint64_t u64(const unsigned char* p) { return u32(p) | (std::uint64_t(u32(p + 4)) << 32); }

/// A minimal independent zip walker for the archives cusci writes: the members (name, method,
/// decompressed bytes) in central-directory order. ZIP64 end records and extra fields are followed.
struct zmember {
  std::string name;
  int method;
  std::vector<unsigned char> bytes;
  bool zip64_local;
};
std::vector<zmember> walk_zip(const std::vector<unsigned char>& z, bool* zip64_end = nullptr) {
  std::size_t e = z.size() - 22;
  while (u32(&z[e]) != 0x06054b50) --e;
  std::uint64_t n = u16(&z[e + 10]), cd_off = u32(&z[e + 16]);
  const bool z64 = e >= 20 && u32(&z[e - 20]) == 0x07064b50;
  if (zip64_end) *zip64_end = z64;
  if (z64) {
    const std::size_t rec = static_cast<std::size_t>(u64(&z[e - 20 + 8]));
    REQUIRE(u32(&z[rec]) == 0x06064b50);
    n = u64(&z[rec + 32]);
    cd_off = u64(&z[rec + 48]);
  }
  std::vector<zmember> out;
  std::size_t p = static_cast<std::size_t>(cd_off);
  for (std::uint64_t k = 0; k < n; ++k) {
    REQUIRE(u32(&z[p]) == 0x02014b50);
    zmember m;
    m.method = static_cast<int>(u16(&z[p + 10]));
    std::uint64_t csize = u32(&z[p + 20]), usize = u32(&z[p + 24]), off = u32(&z[p + 42]);
    const std::size_t nl = u16(&z[p + 28]), el = u16(&z[p + 30]), cl = u16(&z[p + 32]);
    m.name.assign(reinterpret_cast<const char*>(&z[p + 46]), nl);
    for (std::size_t q = p + 46 + nl; q < p + 46 + nl + el;) {
      const std::size_t id = u16(&z[q]), len = u16(&z[q + 2]);
      std::size_t v = q + 4;
      if (id == 1) {
        if (usize == 0xffffffffu) usize = u64(&z[v]), v += 8;
        if (csize == 0xffffffffu) csize = u64(&z[v]), v += 8;
        if (off == 0xffffffffu) off = u64(&z[v]);
      }
      q += 4 + len;
    }
    const std::size_t lh = static_cast<std::size_t>(off);
    REQUIRE(u32(&z[lh]) == 0x04034b50);
    m.zip64_local = u32(&z[lh + 18]) == 0xffffffffu;
    const std::size_t data = lh + 30 + u16(&z[lh + 26]) + u16(&z[lh + 28]);
    if (m.method == 0) {
      m.bytes.assign(z.begin() + data, z.begin() + data + csize);
    } else {
      REQUIRE(m.method == 8);
      m.bytes.resize(static_cast<std::size_t>(usize));
      z_stream zs{};
      REQUIRE(inflateInit2(&zs, -MAX_WBITS) == Z_OK);
      zs.next_in = const_cast<Bytef*>(&z[data]);
      zs.avail_in = static_cast<uInt>(csize);
      zs.next_out = m.bytes.data();
      zs.avail_out = static_cast<uInt>(usize);
      CHECK(inflate(&zs, Z_FINISH) == Z_STREAM_END);
      CHECK(zs.total_out == usize);
      inflateEnd(&zs);
    }
    out.push_back(std::move(m));
    p += 46 + nl + el + cl;
  }
  return out;
}

}  // namespace

TEST_CASE("load_npz reads NumPy-written archives") {
  int n_cases = 0;
  for (const auto& c : testing::cases(mod, "load_npz")) {
    if (c.expects_error()) continue;
    ++n_cases;
    CAPTURE(c.name());
    const io::npz_file z = io::load_npz(data_path(c.get<std::string>("file")));
    const auto keys = c.get<std::vector<std::string>>("members");
    const auto want = case_arrays(c, "expected");
    CHECK(z.files() == keys);
    REQUIRE(z.size() == keys.size());
    REQUIRE(want.size() == keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::string& k = keys[i];
      CAPTURE(k);
      REQUIRE(z.contains(k));
      check_same(z[k], want[i]);
    }
  }
  CHECK(n_cases == 7);
}

TEST_CASE("load_npz rejects malformed archives and unsupported members") {
  int n_cases = 0;
  for (const auto& c : testing::cases(mod, "load_npz")) {
    if (!c.expects_error()) continue;
    ++n_cases;
    const std::string file_name = c.get<std::string>("file"), file = data_path(file_name);
    CAPTURE(c.name());
    std::string msg;
    bool right_type = false;
    try {
      (void)io::load_npz(file);
    } catch (const value_error& e) {
      msg = e.what();
      right_type = c.error() == "value_error";
    } catch (const type_error& e) {
      msg = e.what();
      right_type = c.error() == "type_error";
    } catch (const std::exception& e) {
      msg = e.what();
    }
    CHECK_MESSAGE(right_type, "expected " << c.error() << ", got: " << msg);
    CHECK(msg.find("cusci::io::load_npz") != std::string::npos);
    CHECK(msg.find(file_name) != std::string::npos);  // names the file
    if (c.has("message")) CHECK(msg.find(c.get<std::string>("message")) != std::string::npos);
  }
  CHECK(n_cases == 7);
}

TEST_CASE("savez writes the members NumPy writes (names, order, methods, decompressed bytes)") {
  const std::vector<std::string> names = {"a", "mask", "z", "empty", "s", "u", "wide"};
  int n_cases = 0;
  for (const auto& c : testing::cases(mod, "savez")) {
    ++n_cases;
    const bool compressed = c.get<bool>("compressed");
    const std::string tag = compressed ? "compressed" : "stored";
    CAPTURE(c.name());
    const auto sources = case_arrays(c, "sources");
    REQUIRE(sources.size() == names.size());
    std::vector<std::pair<std::string, host_array>> arrays;
    for (std::size_t i = 0; i < names.size(); ++i) arrays.emplace_back(names[i], sources[i]);
    const auto want_names = c.get<std::vector<std::string>>("members");
    const auto listing = c.get<std::vector<std::string>>("listing");
    REQUIRE(want_names.size() == names.size());
    REQUIRE(listing.size() == names.size());
    const std::string path = tmp_file("listing_" + tag + ".npz");
    io::savez(path, arrays, compressed);
    const auto members = walk_zip(read_bytes(path));
    REQUIRE(members.size() == want_names.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
      CAPTURE(i);
      CHECK(members[i].name == want_names[i]);
      CHECK(members[i].method == c.get<int>("method"));
      CHECK_FALSE(members[i].zip64_local);
      const host_array want = testing::golden(mod, listing[i]);
      REQUIRE(static_cast<std::size_t>(want.nbytes()) == members[i].bytes.size());
      CHECK(std::memcmp(want.data(), members[i].bytes.data(), members[i].bytes.size()) == 0);
    }
    // and cusci reads its own archive back
    const io::npz_file back = io::load_npz(path);
    CHECK(back.files() == names);
    for (const auto& [k, a] : arrays) check_same(back[k], a);
    fs::remove(path);
  }
  CHECK(n_cases == 2);
}

TEST_CASE("savez / load_npz round trips: every dtype, empty, 0-d, positional, map, large members") {
  const auto& every_dtype = find_case("numpy_stored");
  const auto row_keys = every_dtype.get<std::vector<std::string>>("members");
  const auto row_arrays = case_arrays(every_dtype, "expected");
  REQUIRE(row_arrays.size() == row_keys.size());
  std::vector<std::pair<std::string, host_array>> arrays;
  for (std::size_t i = 0; i < row_keys.size(); ++i) arrays.emplace_back(row_keys[i], row_arrays[i]);
  // A member larger than the 1 MiB I/O chunk, with incompressible and compressible parts.
  std::vector<double> big(300001);
  std::uint64_t s = 12345;
  for (std::size_t i = 0; i < big.size(); ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    big[i] = i % 3 == 0 ? static_cast<double>(i) : static_cast<double>(s >> 11);
  }
  arrays.emplace_back("big", host_array::from(big));
  for (bool compressed : {false, true}) {
    CAPTURE(compressed);
    const std::string path = tmp_file("roundtrip.npz");
    if (compressed) io::savez_compressed(path, arrays);
    else io::savez(path, arrays);
    const io::npz_file z = io::load_npz(path);
    REQUIRE(z.size() == arrays.size());
    std::size_t i = 0;
    for (const auto& [k, a] : z) {
      CHECK(k == arrays[i].first);
      check_same(a, arrays[i].second);
      ++i;
    }
    fs::remove(path);
  }
  SUBCASE("positional names arr_0, arr_1, ...") {
    const std::string path = tmp_file("positional.npz");
    io::savez(path, std::vector<host_array>{testing::golden(mod, "pos_arr_0"), testing::golden(mod, "pos_arr_1")});
    const io::npz_file z = io::load_npz(path);
    CHECK(z.files() == std::vector<std::string>{"arr_0", "arr_1"});
    check_same(z["arr_0"], testing::golden(mod, "pos_arr_0"));
    check_same(z["arr_1"], testing::golden(mod, "pos_arr_1"));
    fs::remove(path);
  }
  SUBCASE("a std::map is written in key order") {
    const std::string path = tmp_file("map.npz");
    std::map<std::string, host_array> m{{"zeta", testing::golden(mod, "set_i8")}, {"alpha", testing::golden(mod, "set_b")}};
    io::savez(path, m, true);
    const io::npz_file z = io::load_npz(path);
    CHECK(z.files() == std::vector<std::string>{"alpha", "zeta"});
    check_same(z["zeta"], testing::golden(mod, "set_i8"));
    fs::remove(path);
  }
}

TEST_CASE("savez writes ZIP64 records past the limit, and load_npz reads them") {
  std::vector<std::pair<std::string, host_array>> arrays;
  for (const auto& k : {"x", "flag", "n"}) arrays.emplace_back(k, testing::golden(mod, std::string("small_") + k));
  for (bool compressed : {false, true}) {
    CAPTURE(compressed);
    const std::string path = tmp_file(compressed ? "zip64_deflated.npz" : "zip64_stored.npz");
    io::detail::set_npz_zip64_limit(100);  // every size and offset from 100 bytes on
    io::savez(path, arrays, compressed);
    io::detail::set_npz_zip64_limit(0);
    bool z64_end = false;
    const auto members = walk_zip(read_bytes(path), &z64_end);
    CHECK(z64_end);
    REQUIRE(members.size() == 3);
    for (const auto& m : members) CHECK(m.zip64_local);
    const io::npz_file z = io::load_npz(path);
    CHECK(z.files() == std::vector<std::string>{"x", "flag", "n"});
    for (const auto& [k, a] : arrays) check_same(z[k], a);
    fs::remove(path);
  }
}

TEST_CASE("savez and load_npz argument and file errors") {
  const host_array a = testing::golden(mod, "small_x");
  const std::string path = tmp_file("errors.npz");
  CHECK_THROWS_AS(io::savez(path, {{"x", a}, {"x", a}}), value_error);
  CHECK_THROWS_AS(io::savez(path, {{"", a}}), value_error);
  CHECK_THROWS_AS(io::savez(fs::temp_directory_path().string(), {{"x", a}}), cusci::error);
  CHECK_THROWS_AS(io::savez("/nonexistent-dir/x.npz", {{"x", a}}), cusci::error);
  CHECK_THROWS_AS((void)io::load_npz("/nonexistent-dir/x.npz"), cusci::error);
  CHECK_THROWS_AS((void)io::load_npz(fs::temp_directory_path().string()), cusci::error);
  io::savez(path, {{"x", a}});
  const io::npz_file z = io::load_npz(path);
  CHECK(z.contains("x"));
  CHECK_FALSE(z.contains("y"));
  CHECK_THROWS_AS((void)z["y"], index_error);
  {  // an empty file and a file holding only an end record with a bad directory
    std::ofstream(tmp_file("empty.npz"), std::ios::binary).flush();
    CHECK_THROWS_AS((void)io::load_npz(tmp_file("empty.npz")), value_error);
    fs::remove(tmp_file("empty.npz"));
  }
  fs::remove(path);
}

TEST_CASE("savez writes byte-string members as 0-d |S<n> arrays; load_npz reads them back as strings") {
  const host_array a = testing::golden(mod, "small_x");
  const std::string path = tmp_file("strings.npz");
  for (bool compressed : {false, true}) {
    CAPTURE(compressed);
    io::savez(path,
              std::vector<io::npz_member>{io::npz_member::array("x", a), io::npz_member::bytes("format", "csr"),
                                          io::npz_member::bytes("empty", "")},
              compressed);
    if (!compressed) {  // stored members: the .npy header is readable in the file (np.array(b'csr') is |S3, 0-d)
      std::ifstream in(path, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      CHECK(bytes.find("'descr': '|S3', 'fortran_order': False, 'shape': ()") != std::string::npos);
      CHECK(bytes.find("'descr': '|S1', 'fortran_order': False, 'shape': ()") != std::string::npos);
    }
    const io::npz_file z = io::load_npz(path);
    CHECK(z.files() == std::vector<std::string>{"x", "format", "empty"});
    CHECK(z.size() == 1);
    CHECK(z.contains("format"));
    CHECK(z.is_string("format"));
    CHECK_FALSE(z.is_string("x"));
    CHECK(z.member_string("format") == "csr");
    CHECK(z.member_string("empty").empty());
    check_same(z["x"], a);
    CHECK_THROWS_AS((void)z["format"], type_error);
    CHECK_THROWS_AS((void)z.member_string("x"), type_error);
    CHECK_THROWS_AS((void)z.member_string("nope"), index_error);
  }
  CHECK_THROWS_AS(io::savez(path, std::vector<io::npz_member>{io::npz_member::bytes("k", "a"),
                                                              io::npz_member::array("k", a)}),
                  value_error);
  fs::remove(path);
}
