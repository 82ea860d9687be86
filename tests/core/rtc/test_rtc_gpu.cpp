// GPU tests of cusci::rtc: raw kernels and modules, name expressions, elementwise and reduction
// kernels against NumPy goldens (tests/golden/gen_core_rtc.py), compile errors and the disk cache.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

#include "cusci/core.hpp"
#include "cusci/rtc.hpp"
#include "cusci/detail/rtc.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::check_allclose;

namespace {
host_array G(const std::string& name) { return cusci::testing::golden("core_rtc", name); }

std::map<std::string, cusci::testing::golden_case> by_name() {
  std::map<std::string, cusci::testing::golden_case> m;
  for (const auto& c : cusci::testing::cases("core_rtc")) m.emplace(c.name(), c);
  return m;
}

// The case's expected array with the case's shape (a 0-d result is stored with shape (1,)).
host_array expected(const cusci::testing::golden_case& c) {
  host_array stored = c.array("expected");
  host_array e(stored.dtype(), c.get<shape_t>("shape"));
  REQUIRE(e.nbytes() == stored.nbytes());
  std::memcpy(e.data(), stored.data(), stored.nbytes());
  return e;
}

void check_case(const ndarray& got, const std::string& name) {
  static const auto all = by_name();
  INFO("case " << name);
  const auto& c = all.at(name);
  check_allclose(got, expected(c), c.rtol(), c.atol());
}

// Each test uses its own cache directory so that runs do not see each other's files.
struct cache_dir_guard {
  std::filesystem::path dir;
  explicit cache_dir_guard(const std::string& tag) {
    dir = std::filesystem::temp_directory_path() / ("cusci_rtc_gpu_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    ::setenv("CUSCI_CACHE_DIR", dir.c_str(), 1);
    ::unsetenv("CUSCI_CACHE_IN_MEMORY");
  }
  ~cache_dir_guard() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

const char* saxpy_src = R"(
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
})";
}  // namespace

TEST_CASE("raw_kernel: saxpy with exactly representable values") {
  cache_dir_guard g("saxpy");
  const int n = 1000;
  std::vector<float> x(n), y(n), want(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 37) * 0.5f;
    y[i] = static_cast<float>(i % 11) - 5.0f;
    want[i] = 2.0f * x[i] + y[i];  // exact in float32
  }
  ndarray dx = asarray(x), dy = asarray(y), out = empty({n}, dtype::float32);
  rtc::raw_kernel k(saxpy_src, "saxpy");
  k(dim3((n + 127) / 128), dim3(128), {2.0f, dx, dy, out, std::int32_t(n)});
  check_allclose(out, host_array::from(want), 0, 0);
  const auto at = k.attributes();
  CHECK(at.max_threads_per_block >= 128);
  CHECK(at.num_regs > 0);
  CHECK(at.binary_version >= 50);
  CHECK(k.shared_size_bytes() == 0);
  // argument checks: count and sizes (an int64 for the int parameter)
  CHECK_THROWS_AS(k(dim3(1), dim3(128), {2.0f, dx, dy, out}), type_error);
  CHECK_THROWS_AS(k(dim3(1), dim3(128), {2.0f, dx, dy, out, std::int64_t(n)}), type_error);
  CHECK_THROWS_AS(k(dim3(1), dim3(128), {2.0, dx, dy, out, std::int32_t(n)}), type_error);
  // a missing kernel name
  rtc::raw_kernel missing(saxpy_src, "no_such_kernel");
  CHECK_THROWS_AS(missing.compile(), value_error);
  // dynamic shared memory cap
  k.set_max_dynamic_shared_size_bytes(64 * 1024);
  CHECK(k.max_dynamic_shared_size_bytes() == 64 * 1024);
  CHECK_THROWS_AS(k.set_max_dynamic_shared_size_bytes(-1), value_error);
}

TEST_CASE("raw_module: two kernels, a global and name expressions") {
  cache_dir_guard g("module");
  const char* src = R"(
extern "C" __device__ int counter_scale;
extern "C" __device__ int counter_scale = 3;
extern "C" __global__ void fill(int* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = i * counter_scale; }
extern "C" __global__ void add_one(int* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1; }
template <class T, int K> __global__ void scale(T* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= T(K); }
)";
  rtc::raw_module m(src, {}, {"scale<float, 4>", "scale<double, 3>"});
  const int n = 77;
  ndarray a = empty({n}, dtype::int32);
  m.get_function("fill")(dim3(1), dim3(128), {a, std::int32_t(n)});
  m.get_function("add_one")(dim3(1), dim3(128), {a, std::int32_t(n)});
  std::vector<std::int32_t> want(n);
  for (int i = 0; i < n; ++i) want[i] = 3 * i + 1;
  check_allclose(a, host_array::from(want), 0, 0);
  auto gsym = m.get_global("counter_scale");
  CHECK(gsym.size == sizeof(int));
  CHECK(gsym.ptr != nullptr);
  CHECK_THROWS_AS(m.get_function("nope"), value_error);
  CHECK_THROWS_AS(m.get_global("nope"), value_error);
  CHECK_THROWS_AS(m.lowered_name("scale<int, 1>"), value_error);
  CHECK(m.lowered_name("scale<float, 4>") != m.lowered_name("scale<double, 3>"));

  std::vector<float> xf(n);
  std::vector<double> xd(n);
  for (int i = 0; i < n; ++i) { xf[i] = 0.25f * static_cast<float>(i); xd[i] = 0.5 * i; }
  ndarray df = asarray(xf), dd = asarray(xd);
  m.get_function("scale<float, 4>")(dim3(1), dim3(128), {df, std::int32_t(n)});
  m.get_function("scale<double, 3>")(dim3(1), dim3(128), {dd, std::int32_t(n)});
  for (int i = 0; i < n; ++i) { xf[i] *= 4; xd[i] *= 3; }
  check_allclose(df, host_array::from(xf), 0, 0);
  check_allclose(dd, host_array::from(xd), 0, 0);
}

TEST_CASE("compile errors carry NVRTC's log") {
  cache_dir_guard g("error");
  rtc::raw_kernel k("extern \"C\" __global__ void broken() { this_is_not_declared = 1; }", "broken", {"-DFOO=1"});
  try {
    k.compile();
    FAIL("no throw");
  } catch (const rtc::compile_error& e) {
    CHECK(e.log().find("this_is_not_declared") != std::string::npos);
    CHECK(e.name() == "broken");
    CHECK(std::find(e.options().begin(), e.options().end(), "-DFOO=1") != e.options().end());
  }
  rtc::elementwise_kernel ew("T x", "T z", "z = x + undefined_name", "ew_broken");
  CHECK_THROWS_AS(ew({asarray(std::vector<float>{1, 2})}), rtc::compile_error);
}

TEST_CASE("elementwise_kernel: placeholders over dtypes with broadcasting") {
  cache_dir_guard g("ew");
  rtc::elementwise_kernel k("T x, T y", "T z", "z = x * y + x", "mul_add");
  int n = 0;
  for (const auto& c : cusci::testing::cases("core_rtc", "elementwise")) {
    CAPTURE(c.name());
    ndarray x = asarray(c.array("x")), y = asarray(c.array("y"));
    check_case(k({x, y}), c.name());
    ++n;
  }
  CHECK(n == 5);  // int32, float32, float64, complex128, float16
  // mismatched placeholder binding
  ndarray xf = asarray(G("ew_float32_x")), yd = asarray(G("ew_float64_y"));
  CHECK_THROWS_AS(k({xf, yd}), type_error);
  CHECK_THROWS_AS(k({xf}), type_error);                      // argument count
  CHECK_THROWS_AS(k({xf, asarray(G("ew_float32_x"))[{slice{0, 2}}]}), value_error);  // (5,7) with (2,7)
}

TEST_CASE("elementwise_kernel: weak scalars, given outputs, strided inputs, raw, size, loop_prep/after_loop") {
  cache_dir_guard g("ew2");
  rtc::elementwise_kernel axpy("T a, T x, T y", "T z", "z = a * x + y", "axpy");
  int n = 0;
  for (const auto& c : cusci::testing::cases("core_rtc", "axpy")) {
    CAPTURE(c.name());
    ndarray x = asarray(c.array("x")), y = asarray(c.array("y"));
    const double a = c.get<double>("a");
    check_case(axpy({a, x, y}), c.name());
    // given output
    ndarray z = empty(x.shape(), x.dtype());
    auto outs = axpy.call({a, x, y, z});
    CHECK(outs[0].data() == z.data());
    check_case(z, c.name());
    ++n;
  }
  CHECK(n == 3);  // float32, float64, complex128
  // strided input (a view): the kernel indexes it in place
  rtc::elementwise_kernel lin("T x", "T z", "z = 3 * x + 1", "lin");
  ndarray full = asarray(G("strided_x"));
  ndarray view = full[{slice{std::nullopt, std::nullopt, 2}, slice{1, std::nullopt, 3}}];
  check_case(lin({view}), "strided_z");
  // a strided output view (F-order output of a transposed input)
  ndarray zt = empty({view.shape()[1], view.shape()[0]}, dtype::float64).T();
  lin.call({view, zt});
  check_case(zt.copy(), "strided_z");
  // a fixed-dtype output not bound by inputs; an output placeholder needing the output array
  rtc::elementwise_kernel conv("T x", "U z", "z = (U)(x * 2)", "conv");
  CHECK_THROWS_AS(conv({view}), type_error);
  ndarray zi = empty(view.shape(), dtype::int64);
  conv.call({view, zi});
  CHECK(zi.dtype() == dtype::int64);
  // raw parameters with i and _ind.size(), and size= without array operands
  rtc::elementwise_kernel rev("raw T x", "raw T y", "y[i] = x[_ind.size() - 1 - i]", "rev");
  std::vector<std::int32_t> v(100), r(100);
  for (int i = 0; i < 100; ++i) { v[i] = i * i; r[i] = (99 - i) * (99 - i); }
  ndarray dv = asarray(v), dr = empty({100}, dtype::int32);
  rev.call({dv, dr}, 100);
  check_allclose(dr, host_array::from(r), 0, 0);
  CHECK_THROWS_AS(rev.call({dv, dr}), value_error);  // size needed
  // loop_prep / after_loop / preamble: count elements per thread into a raw output
  rtc::elementwise_kernel cnt("T x", "raw int32 c", "++mine", "cnt",
                              {.preamble = "__device__ int helper() { return 0; }",
                               .loop_prep = "int mine = helper();",
                               .after_loop = "atomicAdd(&c[0], mine);"});
  ndarray c = zeros({1}, dtype::int32);
  cnt.call({view, c});
  CHECK(c.item<std::int32_t>() == view.size());
  // a scalar for a raw parameter
  CHECK_THROWS_AS(rev.call({1, dr}, 100), type_error);
  // zero-size operands: nothing runs
  CHECK(lin({empty({0, 3}, dtype::float32)}).shape() == shape_t{0, 3});
}

TEST_CASE("reduction_kernel: sum of squares and max with axis and keepdims") {
  cache_dir_guard g("red");
  rtc::reduction_kernel sumsq("T x", "T y", "x * x", "a + b", "y = a", std::string("0"), "sumsq",
                              {.reduce_type = "double"});
  rtc::reduction_kernel mx("T x", "T y", "x", "(a > b ? a : b)", "y = a", std::nullopt, "mymax");
  ndarray x = asarray(G("red_x"));
  const std::vector<std::pair<std::string, axis_arg>> axes = {
      {"none", axis_arg()}, {"0", axis_arg(0)}, {"1", axis_arg(1)}, {"m1", axis_arg(-1)}, {"02", axis_arg({0, 2})}};
  for (const auto& [name, ax] : axes)
    for (bool keep : {false, true}) {
      const std::string k = keep ? "k" : "n";
      check_case(sumsq({x}, ax, keep), "red_" + name + "_" + k + "_sumsq");
      check_case(mx({x}, ax, keep), "red_" + name + "_" + k + "_max");
    }
  // a strided (transposed) input gives the same answers
  ndarray xt = x.transpose({2, 0, 1});
  check_case(sumsq({xt}, axis_arg({0, 1})), "red_02_n_sumsq");  // axes 0, 1 of xt are axes 2, 0 of x
  // split over many blocks
  std::vector<double> big(1048579);
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(big.size()); ++i)
    big[i] = static_cast<double>((i * 7919) % 1001 - 500) / 256.0;
  ndarray dbig = asarray(big);
  check_case(sumsq({dbig}), "red_big_sumsq");
  check_case(mx({dbig}), "red_big_max");
  // the kept axis contiguous
  check_case(sumsq({asarray(G("red_cols_x"))}, 0), "red_cols_sumsq");
  // errors
  CHECK_THROWS_AS(sumsq({x}, 3), index_error);
  CHECK_THROWS_AS(sumsq({x}, axis_arg({0, 0})), value_error);
  CHECK_THROWS_AS(mx({empty({0}, dtype::float32)}), value_error);  // no identity
  ndarray e = sumsq({empty({0}, dtype::float32)});
  CHECK(e.item<float>() == 0.0f);
  CHECK_THROWS_AS(sumsq({x, x}), type_error);
}

TEST_CASE("disk cache: a cleared memory cache loads the file; a corrupted file is recompiled") {
  cache_dir_guard g("disk");
  const std::string src = std::string(saxpy_src) + "\n// disk-cache test\n";
  ndarray dx = asarray(std::vector<float>{1, 2, 3}), dy = asarray(std::vector<float>{4, 5, 6}),
          out = empty({3}, dtype::float32);
  auto s0 = rtc::get_cache_stats();
  rtc::raw_kernel(src, "saxpy")(dim3(1), dim3(32), {1.0f, dx, dy, out, std::int32_t(3)});
  auto s1 = rtc::get_cache_stats();
  CHECK(s1.compiles == s0.compiles + 1);
  int files = 0;
  std::filesystem::path file;
  for (auto& f : std::filesystem::directory_iterator(g.dir)) {
    ++files;
    file = f.path();
  }
  REQUIRE(files == 1);
  CHECK(file.extension() == ".cubin");
  rtc::clear_memory_cache();
  rtc::raw_kernel(src, "saxpy")(dim3(1), dim3(32), {1.0f, dx, dy, out, std::int32_t(3)});
  auto s2 = rtc::get_cache_stats();
  CHECK(s2.disk_hits == s1.disk_hits + 1);
  CHECK(s2.compiles == s1.compiles);
  // corrupt the file: it is rejected, recompiled and rewritten
  { std::ofstream f(file, std::ios::binary | std::ios::trunc); f << "not a cache file"; }
  rtc::clear_memory_cache();
  rtc::raw_kernel(src, "saxpy")(dim3(1), dim3(32), {1.0f, dx, dy, out, std::int32_t(3)});
  auto s3 = rtc::get_cache_stats();
  CHECK(s3.disk_rejects == s2.disk_rejects + 1);
  CHECK(s3.compiles == s2.compiles + 1);
  check_allclose(out, host_array::from(std::vector<float>{5, 7, 9}), 0, 0);
  CHECK(std::filesystem::file_size(file) > 100);
  // the memory cache alone: same source, no new compile
  rtc::raw_kernel(src, "saxpy")(dim3(1), dim3(32), {1.0f, dx, dy, out, std::int32_t(3)});
  CHECK(rtc::get_cache_stats().memory_hits > s3.memory_hits);
  // CUSCI_CACHE_IN_MEMORY=1: nothing written
  ::setenv("CUSCI_CACHE_IN_MEMORY", "1", 1);
  rtc::raw_kernel(src + "// in memory only\n", "saxpy")(dim3(1), dim3(32), {1.0f, dx, dy, out, std::int32_t(3)});
  ::unsetenv("CUSCI_CACHE_IN_MEMORY");
  files = 0;
  for (auto& f : std::filesystem::directory_iterator(g.dir)) (void)f, ++files;
  CHECK(files == 1);
}

TEST_CASE("launches follow the current stream") {
  cache_dir_guard g("stream");
  cusci::stream s(true);
  cusci::stream_guard sg(s);
  rtc::elementwise_kernel k("T x", "T z", "z = x + x", "twice");
  ndarray x = asarray(std::vector<double>{1, 2, 3});
  ndarray z = k({x});
  s.synchronize();
  check_allclose(z, host_array::from(std::vector<double>{2, 4, 6}), 0, 0);
}
