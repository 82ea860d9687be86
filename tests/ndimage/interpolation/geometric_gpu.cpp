// GPU tests of cusci::ndimage::geometric_transform's run-time-compiled form (device_function,
// NVRTC through cusci::rtc) against SciPy 1.18.1 (tests/golden/gen_ndimage_geometric.py): shift,
// scaling, rotation, swirl, barrel, polar and rank-changing mappings over orders 0..5, every mode,
// prefilter on and off, float32 / float64 / uint8 / int16 / bool / complex inputs, output dtypes and
// arrays (C, F, the input itself), C / F / strided / reversed layouts, outputs of several chunks and
// SciPy's errors; plus the compile cache (the same source and options never compile twice), compile
// errors and the order of the checks.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "cusci/rtc.hpp"
#include "geometric_cases.hpp"

namespace ndi = cusci::ndimage;

namespace {

// the mappings' source text (geometric_mappings.inc), compiled by NVRTC
#define GEOMETRIC_MAPPINGS(...) const char* const kMappingSource = #__VA_ARGS__;
#include "geometric_mappings.inc"
#undef GEOMETRIC_MAPPINGS

ndi::device_function mapping_of(const std::string& name) {
  return ndi::device_function(kMappingSource, "gt_" + name, geometric_test::kRotationOptions);
}

cusci::ndarray transform(const std::string& name, const cusci::ndarray& x, const ndi::geometric_transform_options& o) {
  return ndi::geometric_transform(x, mapping_of(name), o);
}

/// A source no earlier call (in this process or a disk cache) has compiled.
std::string unique_shift_source() {
  static std::atomic<int> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "// unique " + std::to_string(now) + " " + std::to_string(counter++) +
         "\n__device__ int shift_half(const std::ptrdiff_t* o, double* c, int orank, int irank) {\n"
         "  for (int d = 0; d < irank; ++d) c[d] = o[d] - 0.5;\n  return 1;\n}\n";
}

}  // namespace

TEST_CASE("geometric_transform (device_function): mappings, orders, modes, dtypes, layouts, outputs, errors") {
  CHECK(geometric_test::run_cases(transform) > 200);
}

TEST_CASE("geometric_transform (device_function): outputs of several chunks") {
  CHECK(geometric_test::run_chunk_cases(transform) == 2);
}

TEST_CASE("geometric_transform (device_function): one compilation per source and options") {
  const auto x = cusci::asarray(std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  const std::string src = unique_shift_source();
  const auto s0 = cusci::rtc::get_cache_stats();
  const auto a = ndi::geometric_transform(x, ndi::device_function(src, "shift_half"), {.order = 1});
  const auto s1 = cusci::rtc::get_cache_stats();
  CHECK(s1.compiles == s0.compiles + 1);
  // SciPy: geometric_transform(np.arange(12.).reshape(3, 4), lambda o: (o[0] - 0.5, o[1] - 0.5), order=1)
  cusci::testing::check_allclose(
      a, cusci::host_array::from(std::vector<double>{0, 0, 0, 0, 0, 2.5, 3.5, 4.5, 0, 6.5, 7.5, 8.5}, {3, 4}), 0.0,
      0.0);
  // a separate device_function with the same source, name and options: no compilation, no cache lookup
  for (int i = 0; i < 3; ++i) {
    const auto b = ndi::geometric_transform(x, ndi::device_function(src, "shift_half"), {.order = 1});
    cusci::testing::check_allclose(b, a.get(), 0.0, 0.0);
  }
  const auto s2 = cusci::rtc::get_cache_stats();
  CHECK(s2.compiles == s1.compiles);
  CHECK(s2.disk_hits == s1.disk_hits);
  CHECK(s2.memory_hits == s1.memory_hits);
  // other options are another kernel
  (void)ndi::geometric_transform(x, ndi::device_function(src, "shift_half", {"-DUNUSED_FLAG=1"}), {.order = 1});
  CHECK(cusci::rtc::get_cache_stats().compiles == s2.compiles + 1);
}

TEST_CASE("geometric_transform (device_function): compile errors, bad names, checks before compiling") {
  const auto x = cusci::zeros({4, 5});
  // a syntax error, a missing function, a wrong signature: NVRTC's error as rtc::compile_error
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function("__device__ int broken(", "broken")),
                  cusci::rtc::compile_error);
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function(kMappingSource, "gt_missing",
                                                                   geometric_test::kRotationOptions)),
                  cusci::rtc::compile_error);
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function("__device__ double f(double v) { return v; }", "f")),
                  cusci::rtc::compile_error);
  try {
    (void)ndi::geometric_transform(
        x, ndi::device_function("__device__ int g(const std::ptrdiff_t* o) { return }", "g"));
    FAIL("no compile_error");
  } catch (const cusci::rtc::compile_error& e) {
    CHECK(!e.log().empty());
  }
  // the name must be an identifier
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function(kMappingSource, "gt shift")), cusci::value_error);
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function(kMappingSource, "")), cusci::value_error);
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function("", "f")), cusci::value_error);
  // argument errors come first: nothing is compiled for a call that fails its checks
  const auto s0 = cusci::rtc::get_cache_stats();
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function("__device__ int broken(", "broken"), {.order = 6}),
                  cusci::runtime_error);
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function(unique_shift_source(), "shift_half"),
                                           {.output_shape = cusci::shape_t{}}),
                  cusci::runtime_error);
  CHECK_THROWS_AS(ndi::geometric_transform(x, ndi::device_function(unique_shift_source(), "shift_half"),
                                           {.cval = std::complex<double>(0, 1)}),
                  cusci::type_error);
  CHECK(cusci::rtc::get_cache_stats().compiles == s0.compiles);
  // a qualified name
  const auto y = ndi::geometric_transform(
      x, ndi::device_function("namespace m { __device__ void f(const long* o, double* c, int, int irank) "
                              "{ for (int d = 0; d < irank; ++d) c[d] = o[d]; } }",
                              "m::f"));
  CHECK(y.shape() == x.shape());
}
