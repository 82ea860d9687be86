// Host tests of cusci::rtc: parameter-list parser, placeholder binding, generated sources, cache-key
// hashing, the disk-cache file format (naming, atomic write, corruption) and argument packing.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>

#include "cusci/rtc.hpp"
#include "cusci/detail/rtc.hpp"

using namespace cusci;
using namespace cusci::rtc::detail;

namespace {
bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

std::filesystem::path fresh_dir(const std::string& tag) {
  auto p = std::filesystem::temp_directory_path() /
           ("cusci_rtc_host_" + tag + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  return p;
}
}  // namespace

TEST_CASE("parse_params: CuPy's syntax") {
  auto p = parse_params("T x, T y", "f");
  REQUIRE(p.size() == 2);
  CHECK(p[0].name == "x");
  CHECK(p[0].type == "T");
  CHECK_FALSE(p[0].fixed.has_value());
  CHECK_FALSE(p[0].raw);
  auto q = parse_params("  float32 z ,raw T w,  raw   int64 idx ", "f");
  REQUIRE(q.size() == 3);
  CHECK(q[0].fixed == dtype::float32);
  CHECK(q[1].raw);
  CHECK(q[1].type == "T");
  CHECK(q[2].raw);
  CHECK(q[2].fixed == dtype::int64);
  CHECK(q[2].name == "idx");
  CHECK(parse_params("", "f").empty());
  CHECK(parse_params("   ", "f").empty());
  auto c = parse_params("complex128 a, bool b, uint8 u, float16 h", "f");
  CHECK(c[0].fixed == dtype::complex128);
  CHECK(c[1].fixed == dtype::bool_);
  CHECK(c[2].fixed == dtype::uint8);
  CHECK(c[3].fixed == dtype_from_string("float16"));
}

TEST_CASE("parse_params: malformed lists throw value_error") {
  for (const char* bad : {"T", "T x y", "raw x", "T x,", ",T x", "T 1x", "T x-y", "T i", "T _a", "_T a", "raw raw T x"})
    CHECK_THROWS_AS(parse_params(bad, "f"), value_error);
  try {
    parse_params("T x, T", "cusci::rtc::elementwise_kernel 'k'");
    FAIL("no throw");
  } catch (const value_error& e) {
    CHECK(contains(e.what(), "cusci::rtc::elementwise_kernel 'k'"));
    CHECK(contains(e.what(), "'T'"));
  }
  CHECK_THROWS_AS(check_unique_names(parse_params("T x, T y", "f"), parse_params("T x", "f"), "f"), value_error);
  CHECK_NOTHROW(check_unique_names(parse_params("T x, T y", "f"), parse_params("T z", "f"), "f"));
}

TEST_CASE("param_dtype and ctype_name") {
  CHECK(param_dtype("float64") == dtype::float64);
  CHECK(param_dtype("bool") == dtype::bool_);
  CHECK_FALSE(param_dtype("T").has_value());
  CHECK_FALSE(param_dtype("float").has_value());  // only NumPy names of sized dtypes
  CHECK(ctype_name(dtype::bool_) == "bool");
  CHECK(ctype_name(dtype::int8) == "signed char");
  CHECK(ctype_name(dtype::int16) == "short");
  CHECK(ctype_name(dtype::int32) == "int");
  CHECK(ctype_name(dtype::int64) == "long long");
  CHECK(ctype_name(dtype::uint8) == "unsigned char");
  CHECK(ctype_name(dtype::uint16) == "unsigned short");
  CHECK(ctype_name(dtype::uint32) == "unsigned int");
  CHECK(ctype_name(dtype::uint64) == "unsigned long long");
  CHECK(ctype_name(dtype::float32) == "float");
  CHECK(ctype_name(dtype::float64) == "double");
  CHECK(ctype_name(dtype::complex64) == "cuda::std::complex<float>");
  CHECK(ctype_name(dtype::complex128) == "cuda::std::complex<double>");
  CHECK(ctype_name(dtype_from_string("float16")) == "__half");
  CHECK(type_includes({dtype::float32}).empty());
  CHECK(contains(type_includes({dtype::complex64, dtype::complex128}), "#include <cuda/std/complex>"));
  CHECK(contains(type_includes({dtype_from_string("float16")}), "#include <cuda_fp16.h>"));
}

TEST_CASE("bind_types: placeholders bound from arrays, outputs and weak scalars") {
  const auto in = parse_params("T x, T y, float64 s", "f");
  const auto out = parse_params("T z", "f");
  auto b = bind_types(in, out, {{true, dtype::float32}, {true, dtype::float32}, {false, dtype::int64, true}}, {{}}, "f");
  CHECK(b.in_types == std::vector<dtype>{dtype::float32, dtype::float32, dtype::float64});
  CHECK(b.out_types == std::vector<dtype>{dtype::float32});
  REQUIRE(b.placeholders.size() == 1);
  CHECK(b.placeholders[0].first == "T");
  // two arrays disagree on T
  CHECK_THROWS_AS(bind_types(in, out, {{true, dtype::float32}, {true, dtype::float64}, {false, dtype::float64, true}}, {{}}, "f"),
                  type_error);
  // an array for a fixed-dtype parameter must match it
  CHECK_THROWS_AS(bind_types(in, out, {{true, dtype::float32}, {true, dtype::float32}, {true, dtype::float32}}, {{}}, "f"),
                  type_error);
  // a weak scalar takes the array's binding
  auto b2 = bind_types(in, out, {{false, dtype::float64, true}, {true, dtype::int32}, {false, dtype::int64, true}}, {{}}, "f");
  CHECK(b2.in_types[0] == dtype::int32);
  // only weak scalars: NumPy's default dtype of the kind
  auto b3 = bind_types(in, out, {{false, dtype::int64, true}, {false, dtype::int64, true}, {false, dtype::int64, true}}, {{}}, "f");
  CHECK(b3.out_types[0] == dtype::int64);
  // a strong scalar binds like an array
  CHECK_THROWS_AS(bind_types(in, out, {{false, dtype::float32, false}, {true, dtype::int32}, {false, dtype::int64, true}},
                             {{}}, "f"),
                  type_error);
  // an output placeholder not bound by inputs needs the output array
  const auto out2 = parse_params("U w", "f");
  CHECK_THROWS_AS(bind_types(in, out2, {{true, dtype::float32}, {true, dtype::float32}, {true, dtype::float64}}, {{}}, "f"),
                  type_error);
  auto b4 = bind_types(in, out2, {{true, dtype::float32}, {true, dtype::float32}, {true, dtype::float64}},
                       {dtype::complex64}, "f");
  CHECK(b4.out_types[0] == dtype::complex64);
  // a given output disagreeing with an input-bound placeholder
  CHECK_THROWS_AS(bind_types(in, out, {{true, dtype::float32}, {true, dtype::float32}, {true, dtype::float64}},
                             {dtype::float64}, "f"),
                  type_error);
  try {
    bind_types(in, out, {{true, dtype::float32}, {true, dtype::int16}, {true, dtype::float64}}, {{}}, "kern");
  } catch (const type_error& e) {
    CHECK(contains(e.what(), "kern"));
    CHECK(contains(e.what(), "float32"));
    CHECK(contains(e.what(), "int16"));
  }
}

TEST_CASE("elementwise_source: contiguous, strided, raw, scalars, options") {
  const auto in = parse_params("T x, T y, raw T w, float32 a", "f");
  const auto out = parse_params("T z", "f");
  auto b = bind_types(in, out,
                      {{true, dtype::float64}, {true, dtype::float64}, {true, dtype::float64}, {false, dtype::float64, true}},
                      {{}}, "f");
  rtc::elementwise_options o{.preamble = "#define MY_PRE 1", .loop_prep = "int my_prep = 0;", .after_loop = "(void)my_prep;"};
  ew_layout L;
  L.contiguous = true;
  L.n_arrays = 3;
  L.in_scalar = {false, false, false, true};
  L.raw_dims = {1, 1, 2, 1, 1};
  const std::string src = elementwise_source(in, out, b, "z = a * x + y + w[i]", "my_kernel", o, L);
  CHECK(contains(src, "typedef double T;"));
  CHECK(contains(src, "extern \"C\" __global__ void my_kernel("));
  CHECK(contains(src, "const T* _cp_x"));
  CHECK(contains(src, "const T x = _cp_x[_k];"));
  CHECK(contains(src, "T& z = _cp_z[_k];"));
  CHECK(contains(src, "_cusci_raw<T, 2> w"));
  CHECK(contains(src, "const float a"));
  CHECK(contains(src, "#define MY_PRE 1"));
  CHECK(src.find("int my_prep = 0;") < src.find("for (unsigned int _k"));
  CHECK(src.find("(void)my_prep;") > src.find("z = a * x + y + w[i]"));
  CHECK(contains(src, "const long long i = (long long)_k;"));
  CHECK(contains(src, "_ind{_n}"));
  CHECK_FALSE(contains(src, "_cusci_ix"));
  L.contiguous = false;
  L.ndim = 3;
  L.index64 = true;
  const std::string s2 = elementwise_source(in, out, b, "z = x", "k2", {}, L);
  CHECK(contains(s2, "struct _cusci_ix {\n  long long shape[3];\n  long long st[3][3];"));
  CHECK(contains(s2, "unsigned long long _k"));
  CHECK(contains(s2, "const char* _cp_x"));
  CHECK(contains(s2, "*reinterpret_cast<const T*>(_cp_x + _o0)"));
  CHECK(contains(s2, "*reinterpret_cast<T*>(_cp_z + _o2)"));
  CHECK(contains(s2, "_ix.st[2][0]"));
  // complex and half types
  const auto inc = parse_params("complex64 p, float16 h", "f");
  auto bc = bind_types(inc, parse_params("complex128 q", "f"), {{true, dtype::complex64}, {true, dtype_from_string("float16")}},
                       {{}}, "f");
  ew_layout Lc;
  Lc.n_arrays = 3;
  Lc.in_scalar = {false, false};
  Lc.raw_dims = {1, 1, 1};
  const std::string s3 = elementwise_source(inc, parse_params("complex128 q", "f"), bc, "q = p", "k3", {}, Lc);
  CHECK(contains(s3, "#include <cuda/std/complex>"));
  CHECK(contains(s3, "#include <cuda_fp16.h>"));
  CHECK(contains(s3, "const cuda::std::complex<float>* _cp_p"));
  CHECK(contains(s3, "const __half* _cp_h"));
}

TEST_CASE("reduction_source") {
  const auto in = parse_params("T x", "f");
  const auto out = parse_params("T y", "f");
  auto b = bind_types(in, out, {{true, dtype::float32}}, {{}}, "f");
  red_layout L;
  L.nk = 2;
  L.nr = 1;
  L.n_arrays = 1;
  L.in_scalar = {false};
  const std::string s = reduction_source(in, out, b, "x * x", "a + b", "y = sqrt(a)", std::string("0"), "l2norm", {}, L);
  CHECK(contains(s, "typedef float T;"));
  CHECK(contains(s, "typedef float type_in0_raw;"));
  CHECK(contains(s, "typedef float type_out0_raw;"));
  CHECK(contains(s, "typedef type_out0_raw _type_reduce;"));
  CHECK(contains(s, "return (a + b);"));
  CHECK(contains(s, "_type_reduce _acc = _type_reduce(0);"));
  CHECK(contains(s, "(_type_reduce)(x * x)"));
  CHECK(contains(s, "y = sqrt(a);"));
  CHECK(contains(s, "void __launch_bounds__(256) l2norm("));
  CHECK(contains(s, "void __launch_bounds__(256) l2norm_final("));
  CHECK(contains(s, "long long kshape[2];"));
  CHECK_FALSE(contains(s, "_smh"));
  rtc::reduction_options o{.reduce_type = "double"};
  const std::string s2 = reduction_source(in, out, b, "x", "max(a, b)", "y = a", std::nullopt, "mx", o, L);
  CHECK(contains(s2, "typedef double _type_reduce;"));
  CHECK(contains(s2, "bool _has = false;"));
  CHECK(contains(s2, "_smh"));
}

TEST_CASE("FNV-1a hashes (published test vectors) and cache keys") {
  CHECK(fnv1a_64("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a_64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a_64("foobar") == 0x85944171f73967e8ull);
  CHECK(hash_hex("") == "6c62272e07bb014262b821756295c58d");
  CHECK(hash_hex("a") == "d228cb696f1a8caf78912b704e4a8964");
  CHECK(hash_hex("a").size() == 32);
  const auto k1 = compile_key("src", {"ab", "c"}, {}, "sm_90", 13, 0);
  const auto k2 = compile_key("src", {"a", "bc"}, {}, "sm_90", 13, 0);
  CHECK(k1 != k2);
  CHECK(k1 != compile_key("src", {"ab", "c"}, {}, "sm_80", 13, 0));
  CHECK(k1 != compile_key("src", {"ab", "c"}, {}, "sm_90", 13, 1));
  CHECK(k1 != compile_key("src", {"ab", "c"}, {"f<int>"}, "sm_90", 13, 0));
  CHECK(k1 != compile_key("src2", {"ab", "c"}, {}, "sm_90", 13, 0));
  CHECK(k1 == compile_key("src", {"ab", "c"}, {}, "sm_90", 13, 0));
  CHECK(cache_file_name(k1) == hash_hex(k1) + ".cubin");
}

TEST_CASE("disk cache: round trip, atomic write, corruption and key check") {
  const auto dir = fresh_dir("disk") / "nested" / "deeper";
  cache_entry e;
  e.binary = std::string("\x7f" "ELF binary bytes \0 with a zero", 31);
  e.cubin = true;
  e.lowered = {{"f<int>", "_Z1fIiEvv"}, {"g<2>", "_Z1gILi2EEvv"}};
  const std::string key = compile_key("k", {"-arch=sm_90"}, {"f<int>", "g<2>"}, "sm_90", 13, 0);
  CHECK_FALSE(read_cache_file(dir.string(), key).has_value());  // absent: no file, not a rejection
  REQUIRE(write_cache_file(dir.string(), key, e));              // creates the directories
  const auto path = dir / cache_file_name(key);
  REQUIRE(std::filesystem::exists(path));
  int files = 0;
  for (auto& f : std::filesystem::directory_iterator(dir)) {
    ++files;
    CHECK(f.path().filename().string().find(".tmp.") == std::string::npos);
  }
  CHECK(files == 1);
  bool rejected = true;
  auto r = read_cache_file(dir.string(), key, &rejected);
  REQUIRE(r.has_value());
  CHECK_FALSE(rejected);
  CHECK(r->binary == e.binary);
  CHECK(r->cubin);
  CHECK(r->lowered == e.lowered);
  // another key with the same file name (a collision) is refused: the stored key is compared
  const std::string other = compile_key("other", {}, {}, "sm_90", 13, 0);
  std::filesystem::copy_file(path, dir / cache_file_name(other));
  CHECK_FALSE(read_cache_file(dir.string(), other, &rejected).has_value());
  CHECK(rejected);
  // a flipped byte is caught by the checksum
  std::string bytes = serialize_cache_entry(key, e);
  for (std::size_t pos : {std::size_t{0}, std::size_t{9}, bytes.size() / 2, bytes.size() - 12, bytes.size() - 1}) {
    std::string bad = bytes;
    bad[pos] = static_cast<char>(bad[pos] ^ 0x40);
    CHECK_FALSE(parse_cache_entry(bad, key).has_value());
  }
  // truncated files
  for (std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{20}, bytes.size() - 1})
    CHECK_FALSE(parse_cache_entry(std::string_view(bytes).substr(0, n), key).has_value());
  CHECK(parse_cache_entry(bytes, key).has_value());
  // a corrupted file on disk is rejected, then a rewrite replaces it
  { std::ofstream f(path, std::ios::binary | std::ios::trunc); f << "garbage"; }
  CHECK_FALSE(read_cache_file(dir.string(), key, &rejected).has_value());
  CHECK(rejected);
  REQUIRE(write_cache_file(dir.string(), key, e));
  CHECK(read_cache_file(dir.string(), key).has_value());
  // an unwritable location fails cleanly
  CHECK_FALSE(write_cache_file("/proc/cusci_no_such_dir", key, e));
  std::filesystem::remove_all(fresh_dir("disk"));
}

TEST_CASE("cache_dir follows CUSCI_CACHE_DIR and CUSCI_CACHE_IN_MEMORY") {
  ::setenv("CUSCI_CACHE_DIR", "/tmp/cusci_rtc_somewhere", 1);
  ::unsetenv("CUSCI_CACHE_IN_MEMORY");
  CHECK(rtc::cache_dir() == "/tmp/cusci_rtc_somewhere");
  ::setenv("CUSCI_CACHE_IN_MEMORY", "1", 1);
  CHECK(rtc::cache_dir().empty());
  ::unsetenv("CUSCI_CACHE_IN_MEMORY");
  ::unsetenv("CUSCI_CACHE_DIR");
  ::setenv("HOME", "/home/someone", 1);
  CHECK(rtc::cache_dir() == "/home/someone/.cusci/kernel_cache");
}

TEST_CASE("half_bits rounds to nearest even") {
  CHECK(half_bits(1.0) == 0x3c00);
  CHECK(half_bits(-2.0) == 0xc000);
  CHECK(half_bits(0.0) == 0x0000);
  CHECK(half_bits(65504.0) == 0x7bff);
  CHECK(half_bits(65519.0) == 0x7bff);
  CHECK(half_bits(65520.0) == 0x7c00);
  CHECK(half_bits(0.1) == 0x2e66);
  CHECK(half_bits(5.960464477539063e-08) == 0x0001);  // 2^-24
  CHECK(half_bits(2.98023223876953125e-08) == 0x0000);  // 2^-25: tie to even (0)
  CHECK(half_bits(4.470348358154297e-08) == 0x0001);  // 1.5 * 2^-25
  CHECK(half_bits(1.0 + 1.0 / 2048) == 0x3c00);        // tie to even
  CHECK(half_bits(1.0 + 3.0 / 2048) == 0x3c02);        // tie to even (up)
  CHECK((half_bits(std::nan("")) & 0x7c00) == 0x7c00);
  CHECK((half_bits(std::nan("")) & 0x03ff) != 0);
}

TEST_CASE("kernel arguments: exact sizes") {
  CHECK(rtc::arg(std::int32_t(3)).size() == 4);
  CHECK(rtc::arg(3.0).size() == 8);
  CHECK(rtc::arg(3.0f).size() == 4);
  CHECK(rtc::arg(true).size() == 1);
  CHECK(rtc::arg(std::int16_t(1)).size() == 2);
  CHECK(rtc::arg(std::complex<float>(1, 2)).size() == 8);
  CHECK(rtc::arg(std::complex<double>(1, 2)).size() == 16);
  CHECK(rtc::arg(static_cast<void*>(nullptr)).is_pointer());
  CHECK(rtc::arg(scalar(5)).size() == 8);
  CHECK(rtc::arg(scalar::of(5, dtype::int16)).size() == 2);
  CHECK(rtc::arg(scalar::of(1.5, dtype_from_string("float16"))).size() == 2);
  std::int32_t v = 0;
  std::memcpy(&v, rtc::arg(std::int32_t(-7)).data(), 4);
  CHECK(v == -7);
  const double s[3] = {1, 2, 3};
  CHECK(rtc::arg::bytes(s, sizeof(s), 8).size() == 24);
  CHECK_THROWS_AS(rtc::arg::bytes(s, sizeof(s), 3), value_error);
  CHECK_THROWS_AS(rtc::arg::bytes(s, 5000, 8), value_error);
}

TEST_CASE("kernel objects are built without a device; bad definitions throw") {
  CHECK_NOTHROW(rtc::raw_kernel("extern \"C\" __global__ void k() {}", "k"));
  CHECK_THROWS_AS(rtc::raw_kernel("", ""), value_error);
  CHECK_NOTHROW(rtc::raw_module("", {}, {"f<int>"}));
  CHECK_NOTHROW(rtc::elementwise_kernel("T x, T y", "T z", "z = x + y", "add"));
  CHECK_THROWS_AS(rtc::elementwise_kernel("T x, T x", "T z", "z = x", "k"), value_error);
  CHECK_THROWS_AS(rtc::elementwise_kernel("T x", "", "", "k"), value_error);
  CHECK_THROWS_AS(rtc::elementwise_kernel("T x", "T z", "z = x", ""), value_error);
  CHECK_THROWS_AS(rtc::elementwise_kernel("T", "T z", "z = 1", "k"), value_error);
  CHECK_NOTHROW(rtc::reduction_kernel("T x", "T y", "x", "a + b", "y = a", std::string("0"), "s"));
  CHECK_THROWS_AS(rtc::reduction_kernel("raw T x", "T y", "x", "a + b", "y = a", std::string("0"), "s"), value_error);
  CHECK_THROWS_AS(rtc::reduction_kernel("T x", "", "x", "a + b", "y = a", std::string("0"), "s"), value_error);
}

// NVRTC runs without a GPU: the generated sources must compile for the H200 (sm_90).
TEST_CASE("generated sources compile with NVRTC for sm_90") {
  const auto opts = default_options("sm_90", {});
  CHECK(opts[0] == "-arch=sm_90");
  CHECK(opts[1] == "-std=c++17");
  CHECK(default_options("sm_90", {"-std=c++20"})[1] != "-std=c++17");
  const dtype f16 = dtype_from_string("float16");
  for (dtype t : {dtype::int32, dtype::float32, dtype::float64, dtype::complex64, dtype::complex128, f16, dtype::bool_,
                  dtype::int8, dtype::uint64}) {
    CAPTURE(dtype_name(t));
    const auto in = parse_params("T x, T y, raw T w", "f");
    const auto out = parse_params("T z", "f");
    auto b = bind_types(in, out, {{true, t}, {true, t}, {true, t}}, {{}}, "f");
    for (bool contiguous : {true, false}) {
      ew_layout L;
      L.contiguous = contiguous;
      L.ndim = 3;
      L.n_arrays = 3;
      L.in_scalar = {false, false, false};
      L.raw_dims = {1, 1, 2, 1};
      const std::string op = t == dtype::bool_ ? "z = x && y && w[0]" : "z = x * y + w[i % w.size()]";
      const std::string src = elementwise_source(in, out, b, op, "ew", {}, L);
      CHECK_NOTHROW(compile_source(src, opts, {}, "ew", true));
    }
    if (t == dtype::bool_) continue;
    red_layout R;
    R.nk = 2;
    R.nr = 2;
    R.n_arrays = 1;
    R.in_scalar = {false};
    const auto rin = parse_params("T x", "f");
    auto rb = bind_types(rin, out, {{true, t}}, {{}}, "f");
    CHECK_NOTHROW(compile_source(reduction_source(rin, out, rb, "x * x", "a + b", "z = a", std::string("0"), "r", {}, R),
                                 opts, {}, "r", true));
    CHECK_NOTHROW(compile_source(reduction_source(rin, out, rb, "x", "a + b", "z = a", std::nullopt, "r", {}, R), opts,
                                 {}, "r", true));
  }
  // PTX for a virtual architecture (the fallback path)
  auto e = compile_source("extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 1.0f; }",
                          default_options("compute_90", {}), {}, "k", false);
  CHECK_FALSE(e.cubin);
  CHECK(e.binary.find(".visible .entry k") != std::string::npos);
  // name expressions
  auto t = compile_source("template <class T> __global__ void tk(T* p) { p[0] = T(1); }", opts, {"tk<float>", "tk<int>"},
                          "tk", true);
  REQUIRE(t.lowered.size() == 2);
  CHECK(t.lowered[0].first == "tk<float>");
  CHECK(t.lowered[0].second.find("tk") != std::string::npos);
  CHECK(t.lowered[0].second != t.lowered[1].second);
  // a compile error carries the log, the name and the options
  try {
    compile_source("extern \"C\" __global__ void bad() { undeclared_thing = 1; }", opts, {}, "bad", true);
    FAIL("no throw");
  } catch (const rtc::compile_error& err) {
    CHECK(err.log().find("undeclared_thing") != std::string::npos);
    CHECK(err.name() == "bad");
    CHECK(err.options() == opts);
    CHECK(std::string(err.what()).find("undeclared_thing") != std::string::npos);
  }
}
