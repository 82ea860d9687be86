// GPU tests of cusci::ndimage's filters against SciPy 1.18 references (tests/golden/gen_ndimage.py):
// every case of correlate1d, convolve1d, gaussian_filter1d, gaussian_filter, uniform_filter1d,
// uniform_filter, minimum_filter1d, maximum_filter1d, minimum_filter and maximum_filter, over dtypes,
// sizes 0/1/odd/larger, 1-D..4-D, C/F/strided/reversed views, every mode, origins, cvals, per-axis
// parameters, axes subsets, footprints, a crop of the camera image, and the error cases; SciPy's
// `output=` as an existing array (C, F, reversed and strided layouts, other dtypes, the input itself
// in place), C-contiguous new outputs whatever the input's layout, and complex weights.

#include <doctest/doctest.h>

#include <cmath>

#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "ndimage_cases.hpp"
#include "testing.hpp"

using cusci::testing::golden;

namespace {

/// Runs every case of `func` whose name contains `part`; returns how many ran.
int run_func(const std::string& func, const std::string& part = "") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage", func)) {
    if (c.name().find(part) == std::string::npos) continue;
    INFO("case " << c.name());
    const auto x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    if (c.expects_error()) ndimage_test::check_throws(c, x);
    else ndimage_test::check_case(c, x);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("correlate1d matches SciPy") { CHECK(run_func("correlate1d") > 300); }
TEST_CASE("convolve1d matches SciPy") { CHECK(run_func("convolve1d") >= 30); }
TEST_CASE("gaussian_filter1d matches SciPy") { CHECK(run_func("gaussian_filter1d") > 60); }
TEST_CASE("gaussian_filter matches SciPy (camera crop included)") { CHECK(run_func("gaussian_filter") > 40); }
TEST_CASE("uniform_filter1d matches SciPy") { CHECK(run_func("uniform_filter1d") > 300); }
TEST_CASE("uniform_filter matches SciPy (camera crop included)") { CHECK(run_func("uniform_filter") > 30); }
TEST_CASE("minimum_filter1d matches SciPy") { CHECK(run_func("minimum_filter1d") > 300); }
TEST_CASE("maximum_filter1d matches SciPy") { CHECK(run_func("maximum_filter1d") > 300); }
TEST_CASE("minimum_filter matches SciPy (sizes, footprints, camera crop)") { CHECK(run_func("minimum_filter") > 80); }
TEST_CASE("maximum_filter matches SciPy (sizes, footprints, camera crop)") { CHECK(run_func("maximum_filter") > 80); }

TEST_CASE("minimum / maximum filters with NaN and infinities give SciPy's values") {
  // 1-D passes: SciPy's running list, whose NaN results depend on position and history (sizes
  // 1..40, every mode, origins, NaN cval, rows / columns / layouts, lines holding NaN or not).
  CHECK(run_func("minimum_filter1d", "_nan") >= 2 * (40 + 32 + 12 + 15 + 12));
  CHECK(run_func("maximum_filter1d", "_nan") >= 2 * (40 + 32 + 12 + 15 + 12));
  // N-D: boxes as passes per axis (each pass's NaN feeds the next), footprints in SciPy's order.
  CHECK(run_func("minimum_filter", "_nan") >= 2 * 40);
  CHECK(run_func("maximum_filter", "_nan") >= 2 * 40);
}

TEST_CASE("minimum / maximum filters: long windows (van Herk), ties of signed zeros, cval outside the dtype") {
  for (const char* f : {"minimum_filter1d", "maximum_filter1d"}) {
    CHECK(run_func(f, "_vhg_") >= 2 * 8 + 6);
    CHECK(run_func(f, "_cval_") >= 8);
  }
  CHECK(run_func("minimum_filter", "_cval_u8_") == 4);
  CHECK(run_func("maximum_filter", "_cval_u8_") == 4);
}

TEST_CASE("filters run on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_func("gaussian_filter") > 40);
  CHECK(run_func("maximum_filter") > 80);
  CHECK(run_func("minimum_filter1d", "_nan2d_") > 40);
  s.synchronize();
}

TEST_CASE("new outputs are C-contiguous whatever the input's layout (SciPy allocates C order)") {
  namespace nd = cusci::ndimage;
  const auto h = golden("ndimage", "gf_2d_F_in");
  const auto c = cusci::asarray(h);
  const auto f = c.copy(cusci::order::F);
  REQUIRE(f.is_f_contiguous());
  const auto g3 = cusci::asarray(golden("ndimage", "gf_3d_F_in")).copy(cusci::order::F);
  CHECK(nd::gaussian_filter(c, 1.0).is_c_contiguous());
  CHECK(nd::gaussian_filter(f, 1.0).is_c_contiguous());
  CHECK(nd::gaussian_filter(g3, 1.0).is_c_contiguous());  // 3 passes: two temporaries
  CHECK(nd::gaussian_filter1d(f, 1.0, 0).is_c_contiguous());
  CHECK(nd::uniform_filter(f, 3).is_c_contiguous());
  CHECK(nd::uniform_filter1d(f, 3, 1).is_c_contiguous());
  CHECK(nd::minimum_filter(f, 3).is_c_contiguous());
  CHECK(nd::maximum_filter1d(f, 3, 0).is_c_contiguous());
  CHECK(nd::correlate1d(f, {1.0, 2.0}, 0).is_c_contiguous());
  CHECK(nd::uniform_filter(f, 1).is_c_contiguous());  // no axis filtered: a copy, C order
  // The values equal those of the C-contiguous input.
  cusci::testing::check_allclose(nd::gaussian_filter(f, 1.0), nd::gaussian_filter(c, 1.0).get(), 1e-6, 1e-6);
  // SciPy skips axes whose sigma is not > 1e-15, NaN included: a C-ordered copy.
  const auto skipped = nd::gaussian_filter(f, std::nan(""));
  CHECK(skipped.is_c_contiguous());
  cusci::testing::check_allclose(skipped, h, 0.0, 0.0);
}

TEST_CASE("output= the input itself gives the values of a separate output, for one and several passes") {
  namespace nd = cusci::ndimage;
  for (const char* name : {"gf_2d_F_in", "gf_3d_F_in"}) {
    const auto h = golden("ndimage", name);
    for (bool fortran : {false, true}) {
      INFO(name << (fortran ? " F" : " C"));
      const auto base = fortran ? cusci::asarray(h).copy(cusci::order::F) : cusci::asarray(h).copy();
      const auto want_g = nd::gaussian_filter(base, 1.5).get();
      const auto want_u = nd::uniform_filter1d(base, 4, 0).get();
      const auto want_m = nd::maximum_filter(base, 3).get();
      auto a = base.copy(fortran ? cusci::order::F : cusci::order::C);
      auto r = nd::gaussian_filter(a, 1.5, {.output = a});
      CHECK(r.data() == a.data());
      cusci::testing::check_allclose(a, want_g, 0.0, 0.0);
      a = base.copy(fortran ? cusci::order::F : cusci::order::C);
      (void)nd::uniform_filter1d(a, 4, 0, {.output = a});
      cusci::testing::check_allclose(a, want_u, 0.0, 0.0);
      a = base.copy(fortran ? cusci::order::F : cusci::order::C);
      (void)nd::maximum_filter(a, 3, {.output = a});
      cusci::testing::check_allclose(a, want_m, 0.0, 0.0);
    }
  }
}
