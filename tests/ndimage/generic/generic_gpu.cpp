// GPU tests of the run-time-compiled generic_filter, generic_filter1d and vectorized_filter against
// SciPy 1.18.1 (tests/golden/gen_ndimage_generic.py): every mode, dtypes, integer outputs, origins,
// footprints, axes, layouts, output arrays, long windows (global scratch), the errors; the kernel
// cache (the same function and signature compile once) and compile errors.

#include <complex>
#include <doctest/doctest.h>

#include "cusci/ndarray.hpp"
#include "cusci/rtc.hpp"
#include "cusci/stream.hpp"
#include "generic_cases.hpp"
#include "generic_rtc_impl.hpp"

namespace {
using generic_test::rtc_form;
using generic_test::run_cases;
}  // namespace

TEST_CASE("generic_filter (rtc): functions in every mode, dtypes, outputs, footprints, origins, axes, layouts") {
  CHECK(run_cases<rtc_form>("generic_filter", "gf_") >= 100);
}
TEST_CASE("generic_filter1d (rtc): modes, filter sizes and origins, axes, dtypes, outputs, layouts") {
  CHECK(run_cases<rtc_form>("generic_filter1d", "g1_") >= 50);
}
TEST_CASE("vectorized_filter (rtc): modes incl. valid, every dtype, footprints, origins, axes, outputs") {
  CHECK(run_cases<rtc_form>("vectorized_filter", "vf_") >= 81);
}
TEST_CASE("generic filters (rtc): errors with SciPy's kinds and texts") {
  CHECK(run_cases<rtc_form>("generic_filter", "err_") >= 15);
  CHECK(run_cases<rtc_form>("generic_filter1d", "err_") >= 8);
  CHECK(run_cases<rtc_form>("vectorized_filter", "err_") >= 18);
}

TEST_CASE("generic filters (rtc): the same function and signature compile once") {
  namespace nd = cusci::ndimage;
  const auto x = cusci::asarray(cusci::host_array::from(std::vector<double>{1, 5, 2, 8, 3, 9, 4}));
  const nd::device_function f(
      "__device__ double cache_probe(const double* b, ptrdiff_t n) { return b[0] * 3.0 + n; }", "cache_probe");
  (void)nd::generic_filter(x, f, 3);
  cusci::get_current_stream();
  const auto before = cusci::rtc::get_cache_stats();
  const auto y = nd::generic_filter(x, f, 3, {.mode = nd::mode::wrap});
  const auto z = nd::generic_filter(x, f, 5);
  const auto after = cusci::rtc::get_cache_stats();
  CHECK(after.compiles == before.compiles);
  CHECK(after.disk_hits == before.disk_hits);
  // SciPy: generic_filter(x, lambda b: b[0] * 3 + len(b), 3, mode='wrap') = [15, 6, 18, 9, 27, 12, 30].
  const auto h = y.get();
  CHECK(h.data_as<double>()[0] == 15.0);
  CHECK(h.data_as<double>()[1] == 6.0);
  // Another signature (vectorized_filter on float32) is another kernel.
  const auto xf = x.astype(cusci::dtype::float32);
  const nd::device_function g("__device__ float first(const float* w, ptrdiff_t) { return w[0]; }", "first");
  (void)nd::vectorized_filter(xf, g, {.size = 3});
  CHECK(cusci::rtc::get_cache_stats().compiles + cusci::rtc::get_cache_stats().disk_hits >=
        after.compiles + after.disk_hits);
  const auto again = cusci::rtc::get_cache_stats();
  (void)nd::vectorized_filter(xf, g, {.size = 2});
  CHECK(cusci::rtc::get_cache_stats().compiles == again.compiles);
  (void)z;
}

TEST_CASE("generic filters (rtc): a compile error in the user's source is cusci::rtc::compile_error") {
  namespace nd = cusci::ndimage;
  const auto x = cusci::asarray(cusci::host_array::from(std::vector<double>{1, 2, 3}));
  const nd::device_function bad("__device__ double broken(const double* b, ptrdiff_t n) { return b[0] +; }", "broken");
  CHECK_THROWS_AS(nd::generic_filter(x, bad, 3), cusci::rtc::compile_error);
  const nd::device_function missing("__device__ double here(const double* b, ptrdiff_t n) { return 0; }", "elsewhere");
  CHECK_THROWS_AS(nd::generic_filter(x, missing, 3), cusci::rtc::compile_error);
  // A result type that cannot be stored as the output type.
  const nd::device_function opaque(
      "struct pair_t { int a, b; };\n"
      "__device__ pair_t pairs(const cusci_input_t* w, ptrdiff_t) { return pair_t{1, 2}; }", "pairs");
  CHECK_THROWS_AS(nd::vectorized_filter(x, opaque, {.size = 3}), cusci::rtc::compile_error);
}

TEST_CASE("vectorized_filter (rtc): a complex result into a real output keeps the real part, as NumPy's cast") {
  namespace nd = cusci::ndimage;
  // SciPy: output[...] = result with a float64 output drops the imaginary part (NumPy's ComplexWarning).
  const auto xc = cusci::asarray(cusci::host_array::from(
      std::vector<std::complex<double>>{{1.0, 5.0}, {2.0, 6.0}, {3.0, 7.0}}));
  const nd::device_function first("__device__ cusci_input_t first(const cusci_input_t* w, ptrdiff_t) { return w[0]; }",
                                  "first");
  // Windows of 3 with mode reflect: the first values are x[0], x[0], x[1].
  const auto y = cusci::to_host(nd::vectorized_filter(xc, first, {.size = 3, .output = cusci::dtype::float64}));
  REQUIRE(y.dtype() == cusci::dtype::float64);
  CHECK(y.data_as<double>()[0] == 1.0);
  CHECK(y.data_as<double>()[1] == 1.0);
  CHECK(y.data_as<double>()[2] == 2.0);
  const auto yc = cusci::to_host(nd::vectorized_filter(xc, first, {.size = 3}));
  REQUIRE(yc.dtype() == cusci::dtype::complex128);
  CHECK(yc.data_as<std::complex<double>>()[2] == std::complex<double>(2.0, 6.0));
}

TEST_CASE("generic filters (rtc) run on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_cases<rtc_form>("generic_filter", "gf_lay") >= 8);
  CHECK(run_cases<rtc_form>("vectorized_filter", "vf_lay") >= 8);
  s.synchronize();
}
