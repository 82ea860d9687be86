// GPU tests of cusci::ndimage's separable filters against SciPy 1.18 goldens
// (tests/golden/gen_ndimage.py): every manifest row of correlate1d, convolve1d, gaussian_filter1d
// and gaussian_filter, over dtypes, sizes 0/1/odd/larger, 1-D..4-D, C/F/strided/reversed views,
// every mode, origins, cvals, orders, truncate/radius, per-axis parameters, axes subsets, a crop of
// the camera image, and the error cases.

#include <doctest/doctest.h>

#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "ndimage_cases.hpp"
#include "testing.hpp"

using cusci::testing::golden;
using cusci::testing::manifest;

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

int run_rows(const std::string& func_prefix) {
  int n = 0;
  for (const auto& r : manifest("ndimage")) {
    if (!ndimage_test::is_filter_row(r) || r.at("func").rfind(func_prefix, 0) != 0) continue;
    INFO("case " << r.at("case"));
    const auto x = with_layout(cusci::asarray(golden("ndimage", r.at("input"))), r.at("layout"));
    if (r.at("error") != "-") {
      ndimage_test::check_throws(r, x);
    } else {
      const auto y = ndimage_test::run_case(r, x);
      const auto ex = golden("ndimage", r.at("expected"));
      cusci::testing::check_allclose(y, ex, std::stod(r.at("rtol")), std::stod(r.at("atol")));
    }
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("correlate1d matches SciPy") { CHECK(run_rows("correlate1d") > 300); }
TEST_CASE("convolve1d matches SciPy") { CHECK(run_rows("convolve1d") >= 30); }
TEST_CASE("gaussian_filter1d matches SciPy") { CHECK(run_rows("gaussian_filter1d") > 60); }
TEST_CASE("gaussian_filter matches SciPy (camera crop included)") { CHECK(run_rows("gaussian_filter") > 40); }

TEST_CASE("filters run on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_rows("gaussian_filter") > 40);
  s.synchronize();
}

TEST_CASE("F-contiguous input gives an F-contiguous result, C input a C-contiguous one") {
  const auto h = golden("ndimage", "gf_2d_F_in");
  const auto c = cusci::asarray(h);
  const auto f = c.copy(cusci::order::F);
  CHECK(cusci::ndimage::gaussian_filter(c, 1.0).is_c_contiguous());
  CHECK(cusci::ndimage::gaussian_filter(f, 1.0).is_f_contiguous());
}
