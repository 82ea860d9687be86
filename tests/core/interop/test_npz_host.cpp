// .npz archives: NumPy-written archives read by cusci (stored, deflated, data descriptors, reordered
// central directory, prepended bytes, ZIP64), malformed and unsupported archives, archives written
// by cusci compared member by member with listings of NumPy-written archives of the same arrays,
// round trips and argument errors. Expected arrays come from the .npy files the generator wrote.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
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

std::string data_path(const std::string& f) { return std::string(CUSCI_GOLDEN_DIR) + "/" + mod + "/" + f; }

std::vector<std::string> split(const std::string& s, char sep = ',') {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::string cur;
  std::istringstream is(s);
  while (std::getline(is, cur, sep)) out.push_back(cur);
  return out;
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

std::string golden_prefix(const std::string& c) {
  if (c == "numpy_stored" || c == "numpy_compressed") return "set_";
  if (c == "numpy_positional") return "pos_";
  return "small_";
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
  for (const auto& row : testing::manifest(mod)) {
    if (row.at("kind") != "read") continue;
    ++n_cases;
    const std::string c = row.at("case");
    CAPTURE(c);
    const io::npz_file z = io::load_npz(data_path(row.at("file")));
    const auto keys = split(row.at("members"));
    CHECK(z.files() == keys);
    REQUIRE(z.size() == keys.size());
    for (const auto& k : keys) {
      CAPTURE(k);
      REQUIRE(z.contains(k));
      check_same(z[k], testing::golden(mod, golden_prefix(c) + k));
    }
  }
  CHECK(n_cases == 7);
}

TEST_CASE("load_npz rejects malformed archives and unsupported members") {
  int n_cases = 0;
  for (const auto& row : testing::manifest(mod)) {
    if (row.at("kind") != "error") continue;
    ++n_cases;
    const std::string c = row.at("case"), file = data_path(row.at("file"));
    CAPTURE(c);
    std::string msg;
    bool right_type = false;
    try {
      (void)io::load_npz(file);
    } catch (const value_error& e) {
      msg = e.what();
      right_type = row.at("expect") == "value_error";
    } catch (const type_error& e) {
      msg = e.what();
      right_type = row.at("expect") == "type_error";
    } catch (const std::exception& e) {
      msg = e.what();
    }
    CHECK_MESSAGE(right_type, "expected " << row.at("expect") << ", got: " << msg);
    CHECK(msg.find("cusci::io::load_npz") != std::string::npos);
    CHECK(msg.find(row.at("file")) != std::string::npos);  // names the file
    if (c == "method_bzip2") CHECK(msg.find("12 (bzip2)") != std::string::npos);
    if (c == "method_lzma") CHECK(msg.find("14 (LZMA)") != std::string::npos);
    if (c == "badcrc") CHECK(msg.find("CRC-32") != std::string::npos);
    if (c == "textmember") CHECK(msg.find("readme.txt") != std::string::npos);
  }
  CHECK(n_cases == 7);
}

TEST_CASE("savez writes the members NumPy writes (names, order, methods, decompressed bytes)") {
  const std::vector<std::string> names = {"a", "mask", "z", "empty", "s", "u", "wide"};
  std::vector<std::pair<std::string, host_array>> arrays;
  for (const auto& k : names) arrays.emplace_back(k, testing::golden(mod, "lst_" + k));
  for (bool compressed : {false, true}) {
    const std::string tag = compressed ? "compressed" : "stored";
    CAPTURE(tag);
    std::vector<std::string> want_names;
    for (const auto& row : testing::manifest(mod))
      if (row.at("case") == "listing_" + tag) want_names = split(row.at("members"));
    REQUIRE(want_names.size() == names.size());
    const std::string path = tmp_file("listing_" + tag + ".npz");
    io::savez(path, arrays, compressed);
    const auto members = walk_zip(read_bytes(path));
    REQUIRE(members.size() == want_names.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
      CAPTURE(i);
      CHECK(members[i].name == want_names[i]);
      CHECK(members[i].method == (compressed ? 8 : 0));
      CHECK_FALSE(members[i].zip64_local);
      const host_array want = testing::golden(mod, "listing_" + tag + "_" + std::to_string(i));
      REQUIRE(static_cast<std::size_t>(want.nbytes()) == members[i].bytes.size());
      CHECK(std::memcmp(want.data(), members[i].bytes.data(), members[i].bytes.size()) == 0);
    }
    // and cusci reads its own archive back
    const io::npz_file back = io::load_npz(path);
    CHECK(back.files() == names);
    for (const auto& [k, a] : arrays) check_same(back[k], a);
    fs::remove(path);
  }
}

TEST_CASE("savez / load_npz round trips: every dtype, empty, 0-d, positional, map, large members") {
  const auto row_keys = split(testing::manifest(mod).front().at("members"));
  std::vector<std::pair<std::string, host_array>> arrays;
  for (const auto& k : row_keys) arrays.emplace_back(k, testing::golden(mod, "set_" + k));
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
