// GPU tests of the fast float32/float64 correlation kernels of cusci::ndimage against SciPy 1.18
// goldens (tests/golden/gen_ndimage_fast.py): row kernel (every mode and origin, odd row lengths,
// several segments, 1..64 taps, lines shorter than the filter) and column kernel (every mode,
// 3-D axes, segment splits), plus whole gaussian_filter calls over C/F/strided/reversed layouts and
// the fused 2-D kernel (every mode, per-axis modes and orders, several tiles, short lines).

#include <doctest/doctest.h>

#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "ndimage_cases.hpp"
#include "testing.hpp"

using cusci::testing::golden;
using cusci::testing::manifest;

namespace {

cusci::ndarray with_layout(const cusci::ndarray& a, const std::string& layout) {
  using cusci::slice;
  if (layout == "C") return a;
  if (layout == "F") return a.copy(cusci::order::F);
  if (layout == "rev") return a[{cusci::ellipsis, slice{std::nullopt, std::nullopt, -1}}];
  REQUIRE(layout == "step2");
  const slice s{std::nullopt, std::nullopt, 2};
  if (a.ndim() == 2) return a[{s, s}];
  REQUIRE(a.ndim() == 3);
  return a[{s, s, s}];
}

int run_prefix(const std::string& prefix) {
  int n = 0;
  for (const auto& r : manifest("ndimage_fast")) {
    if (r.at("case").rfind(prefix, 0) != 0) continue;
    INFO("case " << r.at("case"));
    const auto x = with_layout(cusci::asarray(golden("ndimage_fast", r.at("input"))), r.at("layout"));
    const auto y = ndimage_test::run_case(r, x);
    cusci::testing::check_allclose(y, golden("ndimage_fast", r.at("expected")), std::stod(r.at("rtol")),
                                   std::stod(r.at("atol")));
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("fast row kernel: modes, origins, odd lengths, segments") {
  CHECK(run_prefix("rows_") == 53);
}
TEST_CASE("fast kernels: tap-count buckets") { CHECK(run_prefix("taps_") == 32); }
TEST_CASE("fast kernels: lines shorter than the filter") { CHECK(run_prefix("short_") == 32); }
TEST_CASE("fast column kernel: modes, origins, axes, segments") { CHECK(run_prefix("cols_") == 50); }
TEST_CASE("gaussian_filter over layouts through the fast kernels") { CHECK(run_prefix("gf") == 10); }
namespace cusci::ndimage::detail {
void set_fused_2d(bool enabled);  // internal switch (ndimage/src/correlate_pass.hpp)
}

TEST_CASE("fused 2-D kernel: modes, mixed modes, orders, tiles, short lines, strides") {
  struct restore {
    ~restore() { cusci::ndimage::detail::set_fused_2d(false); }
  } r;
  cusci::ndimage::detail::set_fused_2d(true);
  CHECK(run_prefix("fused_") == 30);
  CHECK(run_prefix("gf") == 10);  // the layout cases again, through the fused kernel
}
