// .npy reading and writing and host_array casts, on the host only: files written by NumPy (every
// dtype, C and Fortran order, 0-d, 0-size, format versions 2.0 and 3.0), byte-identical output,
// malformed files, unsupported dtypes, non-0/1 bool bytes, directories, host_array::astype over all
// dtype pairs against NumPy, and what the reduction axis argument holds.

#include <filesystem>

#include <unistd.h>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/reduction.hpp"
#include "testing.hpp"

namespace {

using namespace cusci;
const char* module_name = "core_array";

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// The file NumPy wrote for case `c` (its parameter file), beside the manifest.
std::string npy_path(const testing::golden_case& c) {
  return testing::golden_file(module_name, c.get<std::string>("file"));
}

struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    // One folder per process: two builds' test runs at once must not share it.
    path = std::filesystem::temp_directory_path() / ("cusci_test_npy_host_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

/// A valid version 1.0 header for `dict`, padded like NumPy's.
std::string npy_v1(const std::string& dict, const std::string& data) {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(h.size() & 0xff);
  out += static_cast<char>(h.size() >> 8);
  return out + h + data;
}

}  // namespace

TEST_CASE("read_npy decodes NumPy's files: every dtype, C and F order, 0-d, 0-size, versions 2.0 and 3.0") {
  int n = 0;
  for (const auto& c : testing::cases(module_name, "npy")) {
    INFO("case " << c.name());
    host_array h = io::read_npy(npy_path(c));
    CHECK(std::string(dtype_name(h.dtype())) == c.get<std::string>("dtype"));
    CHECK(h.shape() == c.get<shape_t>("shape"));
    // the sum NumPy computed, as a check on the decoded bytes
    std::complex<double> s = 0;
    for (std::int64_t i = 0; i < h.size(); ++i) s += testing::element(h, i);
    const std::complex<double> want = c.get<std::complex<double>>("sum");
    CHECK(std::abs(s - want) <= c.rtol() * (1 + std::abs(want)));
    // Fortran-order files read as the C-order array NumPy started from
    if (c.has("input")) testing::check_allclose(h, c.array("input"), 0, 0);
    ++n;
  }
  CHECK(n >= 13 * 5);
}

TEST_CASE("write_npy produces NumPy's bytes, in C and Fortran order") {
  temp_dir tmp;
  int n = 0;
  for (const auto& c : testing::cases(module_name, "npy")) {
    // write_npy writes format 1.0; the 2.0 and 3.0 files are for the reader
    if (c.get<std::vector<int>>("version") != std::vector<int>{1, 0}) continue;
    INFO("case " << c.name());
    const bool fortran = c.get<bool>("fortran_order");
    const std::string gold = npy_path(c);
    const std::string out = tmp.file(c.name() + ".npy");
    io::write_npy(out, io::read_npy(gold), fortran);
    CHECK(file_bytes(out) == file_bytes(gold));
    ++n;
  }
  CHECK(n >= 13 * 5);
}

TEST_CASE("write_npy / read_npy round trips for every dtype, 0-d, 0-size and Fortran order") {
  temp_dir tmp;
  for (int t = 0; t < n_dtypes; ++t) {
    const auto dt = static_cast<dtype>(t);
    INFO("dtype " << dtype_name(dt));
    for (const shape_t& shape : {shape_t{}, shape_t{0}, shape_t{2, 0, 3}, shape_t{7}, shape_t{3, 4}, shape_t{2, 3, 5}}) {
      host_array src = host_array::from(std::vector<double>([&] {
                                          std::vector<double> v;
                                          std::int64_t k = 1;
                                          for (auto d : shape) k *= d;
                                          for (std::int64_t i = 0; i < k; ++i) v.push_back(static_cast<double>(i % 5));
                                          return v;
                                        }()),
                                        shape)
                           .astype(dt);
      for (bool fortran : {false, true}) {
        const std::string p = tmp.file("rt.npy");
        io::write_npy(p, src, fortran);
        host_array back = io::read_npy(p);
        CHECK(back.dtype() == dt);
        CHECK(back.shape() == shape);
        CHECK(file_bytes(p).size() % 64 == src.nbytes() % 64);  // header padded to 64 bytes
        testing::check_allclose(back, src, 0, 0);
      }
    }
  }
}

TEST_CASE("read_npy rejects unsupported dtypes with type_error (big-endian, structured, str, object)") {
  int n = 0;
  for (const auto& c : testing::cases(module_name, "npy_bad")) {
    if (c.name() == "npy_bad_float16") continue;  // float16 is supported now: read below
    INFO("case " << c.name());
    REQUIRE(c.error() == "type_error");
    CHECK_THROWS_AS(io::read_npy(npy_path(c)), cusci::type_error);
    ++n;
  }
  CHECK(n == 4);
}

TEST_CASE("read_npy reads NumPy's '<f2' (float16) files, write_npy writes them back byte for byte") {
  // npy_bad_float16 was written by NumPy as np.arange(6, dtype='<f2'); f16_arange6 is the same array.
  const std::string f16 = testing::golden_file(module_name, "npy_bad_float16.npy");
  host_array a = io::read_npy(f16);
  CHECK(a.dtype() == dtype::float16);
  CHECK(a.shape() == shape_t{6});
  testing::check_allclose(a, testing::golden("core_elementwise", "f16_arange6"), 0, 0);
  temp_dir tmp;
  const std::string p = tmp.file("f16.npy");
  io::write_npy(p, a);
  CHECK(file_bytes(p) == file_bytes(f16));
}

TEST_CASE("read_npy rejects malformed files with value_error naming the path") {
  temp_dir tmp;
  const std::string good = file_bytes(testing::golden_file(module_name, "npy_float64_C.npy"));
  REQUIRE(good.size() > 128);
  std::map<std::string, std::string> bad;
  bad["short"] = good.substr(0, 7);
  bad["magic"] = "\x92" + good.substr(1);
  bad["version_4"] = good.substr(0, 6) + std::string("\x04\x00", 2) + good.substr(8);
  bad["version_1_1"] = good.substr(0, 6) + std::string("\x01\x01", 2) + good.substr(8);
  bad["truncated_data"] = good.substr(0, good.size() - 1);
  bad["header_past_eof"] = good.substr(0, 8) + std::string("\xff\x7f", 2) + good.substr(10, 50);
  bad["missing_key"] = npy_v1("{'descr': '<f8', 'shape': (2,), }", std::string(16, '\0'));
  bad["extra_key"] = npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1, }", std::string(16, '\0'));
  bad["negative_shape"] = npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }", std::string(16, '\0'));
  bad["shape_not_tuple"] = npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': 2, }", std::string(16, '\0'));
  // NumPy 2.5 rejects both: "shape is not valid: 2" and "Cannot parse header".
  bad["shape_paren_int"] = npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (2), }", std::string(16, '\0'));
  bad["trailing_text"] = npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), } x", std::string(16, '\0'));
  bad["trailing_brace"] = npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }}", std::string(16, '\0'));
  bad["bad_bool"] = npy_v1("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2,), }", std::string(16, '\0'));
  bad["not_a_dict"] = npy_v1("['descr', '<f8']", std::string(16, '\0'));
  bad["unterminated"] = npy_v1("{'descr': '<f8", std::string(16, '\0'));
  bad["huge_shape"] = npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", "");
  for (const auto& [name, bytes] : bad) {
    INFO("malformed file: " << name);
    const std::string p = tmp.file(name + ".npy");
    write_bytes(p, bytes);
    try {
      io::read_npy(p);
      FAIL_CHECK("no exception");
    } catch (const cusci::value_error& e) {
      CHECK(std::string(e.what()).find(p) != std::string::npos);
    } catch (const std::exception& e) {
      FAIL_CHECK("wrong exception: " << e.what());
    }
  }
  // a valid hand-made header is accepted (the test's builder is right)
  const std::string ok = tmp.file("ok.npy");
  write_bytes(ok, npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", std::string(16, '\0')));
  CHECK(io::read_npy(ok).shape() == shape_t{2});
  // ... as are spaces inside the tuple and after the dictionary, no trailing commas, and () (NumPy too)
  const std::string ok2 = tmp.file("ok2.npy");
  write_bytes(ok2, npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': ( 2 , 1 )}   ", std::string(16, '\0')));
  CHECK(io::read_npy(ok2).shape() == shape_t{2, 1});
  const std::string ok3 = tmp.file("ok3.npy");
  write_bytes(ok3, npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", std::string(8, '\0')));
  CHECK(io::read_npy(ok3).shape() == shape_t{});
  CHECK_THROWS_AS(io::read_npy(tmp.file("does_not_exist.npy")), cusci::error);
}

TEST_CASE("host_array::astype matches NumPy over all 13 x 13 dtype pairs") {
  int n = 0;
  for (const auto& c : testing::cases(module_name, "astype")) {
    if (c.has("pre") || c.get<std::string>("layout") != "C" || c.name().rfind("astype_view", 0) == 0) continue;
    INFO("case " << c.name());
    host_array in = c.array("input");
    host_array want = c.array("expected");
    testing::check_allclose(in.astype(want.dtype()), want, 0, 0);
    ++n;
  }
  CHECK(n == 169);
}

TEST_CASE("host_array construction and typed access errors") {
  host_array z(dtype::int16, {2, 3});
  CHECK(z.size() == 6);
  CHECK(z.nbytes() == 12);
  for (auto v : z.to_vector<std::int16_t>()) CHECK(v == 0);
  CHECK_THROWS_AS(z.data_as<float>(), cusci::type_error);
  CHECK_THROWS_AS(host_array(dtype::float32, {2, -1}), cusci::value_error);
  CHECK_THROWS_AS(host_array::from(std::vector<float>{1, 2, 3}, {2, 2}), cusci::value_error);
  host_array s(dtype::complex64, {});
  CHECK(s.size() == 1);
  CHECK(s.ndim() == 0);
}

TEST_CASE("read_npy reads bool bytes other than 0 and 1 as True, as NumPy does") {
  // np.frombuffer(b"\x00\x02\xff\x01", bool).astype(np.int32) is [0, 1, 1, 1]
  temp_dir tmp;
  const std::string p = tmp.file("bool_bytes.npy");
  write_bytes(p, npy_v1("{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }", std::string("\x00\x02\xff\x01", 4)));
  host_array h = io::read_npy(p);
  REQUIRE(h.dtype() == dtype::bool_);
  const auto* raw = static_cast<const unsigned char*>(h.data());
  CHECK(raw[0] == 0);
  CHECK(raw[1] == 1);
  CHECK(raw[2] == 1);
  CHECK(raw[3] == 1);
  CHECK(h.astype(dtype::int32).to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 1, 1, 1});
  CHECK(h.astype(dtype::float64).to_vector<double>() == std::vector<double>{0, 1, 1, 1});
  // Fortran order goes through the permuting copy
  const std::string pf = tmp.file("bool_bytes_F.npy");
  write_bytes(pf, npy_v1("{'descr': '|b1', 'fortran_order': True, 'shape': (2, 2), }", std::string("\x00\x02\xff\x01", 4)));
  CHECK(io::read_npy(pf).astype(dtype::uint8).to_vector<std::uint8_t>() == std::vector<std::uint8_t>{0, 1, 1, 1});
}

TEST_CASE("host_array::astype treats any non-zero bool byte as True") {
  host_array h(dtype::bool_, {3});
  auto* raw = static_cast<unsigned char*>(h.data());
  raw[0] = 0x02;
  raw[1] = 0xff;
  raw[2] = 0x00;
  CHECK(h.astype(dtype::int32).to_vector<std::int32_t>() == std::vector<std::int32_t>{1, 1, 0});
  CHECK(h.astype(dtype::complex64).to_vector<std::complex<float>>() ==
        std::vector<std::complex<float>>{{1, 0}, {1, 0}, {0, 0}});
}

TEST_CASE("read_npy and write_npy on a directory throw cusci::error naming the path") {
  temp_dir tmp;
  const std::string dir = tmp.file("a_directory.npy");
  std::filesystem::create_directories(dir);
  for (int which = 0; which < 2; ++which) {
    INFO((which == 0 ? "read_npy" : "write_npy"));
    try {
      if (which == 0) io::read_npy(dir);
      else io::write_npy(dir, host_array(dtype::float64, {2}));
      FAIL_CHECK("no exception");
    } catch (const cusci::error& e) {
      CHECK(std::string(e.what()).find(dir) != std::string::npos);
    } catch (const std::exception& e) {
      FAIL_CHECK("wrong exception type: " << e.what());
    }
  }
  // a path under a missing directory cannot be written
  CHECK_THROWS_AS(io::write_npy(tmp.file("missing/x.npy"), host_array(dtype::float64, {2})), cusci::error);
}

TEST_CASE("axis_arg: {} is NumPy's axis=None (all axes), axis_arg::none() is axis=()") {
  const auto take = [](axis_arg a) { return a; };  // as the reductions receive it
  CHECK_FALSE(take({}).axes.has_value());
  CHECK_FALSE(axis_arg().axes.has_value());
  const axis_arg none = axis_arg::none();
  REQUIRE(none.axes.has_value());
  CHECK(none.axes->empty());
  REQUIRE(take(std::vector<int>{}).axes.has_value());
  CHECK(take(std::vector<int>{}).axes->empty());
  CHECK(*take(-1).axes == std::vector<int>{-1});
  CHECK(*take({0, 2}).axes == std::vector<int>{0, 2});
}
