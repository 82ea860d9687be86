// GPU tests of cusci::ndimage's filters against SciPy 1.18 references (tests/golden/gen_ndimage.py):
// every case of correlate1d, convolve1d, gaussian_filter1d, gaussian_filter, uniform_filter1d,
// uniform_filter, minimum_filter1d, maximum_filter1d, minimum_filter and maximum_filter, over dtypes,
// sizes 0/1/odd/larger, 1-D..4-D, C/F/strided/reversed views, every mode, origins, cvals, per-axis
// parameters, axes subsets, footprints, a crop of the camera image, and the error cases.

#include <doctest/doctest.h>

#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "ndimage_cases.hpp"
#include "testing.hpp"

using cusci::testing::golden;

namespace {

cusci::ndarray with_layout(const cusci::ndarray& a, const std::string& layout) {
  using cusci::slice;
  if (layout == "C") return a;
  if (layout == "F") {
    auto f = a.copy(cusci::order::F);
    REQUIRE(f.is_f_contiguous());
    return f;
  }
  if (layout == "rev") return a[{cusci::ellipsis, slice{std::nullopt, std::nullopt, -1}}];
  REQUIRE(layout == "step2");
  const slice s{std::nullopt, std::nullopt, 2};
  switch (a.ndim()) {
    case 1: return a[{s}];
    case 2: return a[{s, s}];
    case 3: return a[{s, s, s}];
    case 4: return a[{s, s, s, s}];
    default: FAIL("step2 layout for ndim " << a.ndim());
  }
  return a;
}

/// Runs every case of `func`; returns how many ran.
int run_func(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage", func)) {
    INFO("case " << c.name());
    const auto x = with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    if (c.expects_error()) {
      ndimage_test::check_throws(c, x);
    } else {
      const auto y = ndimage_test::run_case(c, x);
      cusci::testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
    }
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

TEST_CASE("filters run on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_func("gaussian_filter") > 40);
  CHECK(run_func("maximum_filter") > 80);
  s.synchronize();
}

TEST_CASE("F-contiguous input gives an F-contiguous result, C input a C-contiguous one") {
  const auto h = golden("ndimage", "gf_2d_F_in");
  const auto c = cusci::asarray(h);
  const auto f = c.copy(cusci::order::F);
  CHECK(cusci::ndimage::gaussian_filter(c, 1.0).is_c_contiguous());
  CHECK(cusci::ndimage::gaussian_filter(f, 1.0).is_f_contiguous());
  CHECK(cusci::ndimage::uniform_filter(f, 3).is_f_contiguous());
}
