// GPU tests of the fast float32/float64 kernels of cusci::ndimage's axis-pass engine against SciPy
// 1.18 references (tests/golden/gen_ndimage_fast.py): row kernel (every mode and origin, odd row
// lengths, several segments, 1..64 taps, lines shorter than the filter) and column kernel (every
// mode, 3-D axes, segment splits), plus whole gaussian_filter calls over C/F/strided/reversed
// layouts and 2-D filters along both axes (the "fused_" cases: every mode, per-axis modes and
// orders, several tiles, short lines); the column cases again cut to vectorizable inner extents
// (the vectorized column kernel, chosen automatically), and run twice to check that the results
// are reproducible bit for bit.

#include <doctest/doctest.h>

#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "ndimage_cases.hpp"
#include "testing.hpp"

using cusci::testing::golden;

namespace {

int run_prefix(const std::string& prefix) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_fast")) {
    if (c.name().rfind(prefix, 0) != 0) continue;
    INFO("case " << c.name());
    const auto x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    const auto y = ndimage_test::run_case(c, x);
    cusci::testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
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
TEST_CASE("2-D filters along both axes: modes, mixed modes, orders, tiles, short lines, strides") {
  CHECK(run_prefix("fused_") == 30);
}

namespace {

/// The column cases (axis not last) with the last axis cut to a multiple of 8 elements and made
/// contiguous: a pass along another axis treats each position of the last axis on its own, so the
/// SciPy output cut the same way is the expected value; the inner extent is then a multiple of
/// the vector width with 16-byte aligned rows, so the vectorized column kernel applies (tap
/// buckets up to 32; 33..64 float32 taps take the scalar kernel).
int run_cols_cropped() {
  using cusci::slice;
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_fast")) {
    const auto name = c.name();
    if (name.rfind("cols_", 0) != 0 && name.rfind("taps_cols_", 0) != 0 && name.rfind("short_cols_", 0) != 0) continue;
    INFO("case " << name << " (last axis cut to a multiple of 8)");
    REQUIRE(c.get<std::string>("layout") == "C");
    const auto x0 = cusci::asarray(c.array("input"));
    const int axis = c.get<int>("axis");
    REQUIRE(x0.ndim() >= 2);
    REQUIRE((axis >= 0 && axis < x0.ndim() - 1));
    const std::int64_t w = x0.shape().back() / 8 * 8;
    REQUIRE(w > 0);
    const slice cut{0, w};
    const auto x = x0[{cusci::ellipsis, cut}].copy();
    const auto e = cusci::asarray(c.array("expected"))[{cusci::ellipsis, cut}].copy();
    const auto y = ndimage_test::run_case(c, x);
    cusci::testing::check_allclose(y, cusci::to_host(e), c.rtol(), c.atol());
    ++n;
  }
  return n;
}

/// Each case of `prefix` run twice: both against SciPy and bit for bit against each other.
int run_twice(const std::string& prefix) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_fast")) {
    if (c.name().rfind(prefix, 0) != 0) continue;
    INFO("case " << c.name());
    const auto x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    const auto e = c.array("expected");
    const auto y1 = ndimage_test::run_case(c, x);
    cusci::testing::check_allclose(y1, e, c.rtol(), c.atol());
    const auto y2 = ndimage_test::run_case(c, x);
    cusci::testing::check_allclose(y2, e, c.rtol(), c.atol());
    cusci::testing::check_allclose(y2, cusci::to_host(y1), 0.0, 0.0);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("fast column kernel, vectorizable inner extents (automatic choice of the vectorized kernel)") {
  for (int rep = 0; rep < 3; ++rep) CHECK(run_cols_cropped() == 82);
}

TEST_CASE("fast kernels: results reproducible bit for bit") {
  CHECK(run_twice("rows_") == 53);
  CHECK(run_twice("taps_") == 32);
  CHECK(run_twice("short_") == 32);
  CHECK(run_twice("gf") == 10);
  CHECK(run_twice("cols_") == 50);
  CHECK(run_twice("gf") == 10);
}
