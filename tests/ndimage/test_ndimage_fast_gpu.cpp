// GPU tests of the fast float32/float64 correlation kernels of cusci::ndimage against SciPy 1.18
// goldens (tests/golden/gen_ndimage_fast.py): row kernel (every mode and origin, odd row lengths,
// several segments, 1..64 taps, lines shorter than the filter) and column kernel (every mode,
// 3-D axes, segment splits), plus whole gaussian_filter calls over C/F/strided/reversed layouts and
// 2-D filters along both axes (the "fused_" cases: every mode, per-axis modes and orders, several
// tiles, short lines); the
// column cases again with the scalar column kernel forced and with the automatic choice, and cut
// to vectorizable inner extents under each variant of the column kernel; the row cases under the
// previous and the current row kernel, each against SciPy and bit for bit against each other.

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
TEST_CASE("2-D filters along both axes: modes, mixed modes, orders, tiles, short lines, strides") {
  CHECK(run_prefix("fused_") == 30);
}

namespace cusci::ndimage::detail {
void set_fast_cols_variant(int v);  // internal switch (ndimage/src/correlate_pass.hpp)
int fast_cols_variant();
}

TEST_CASE("fast column kernel: scalar variant forced, then automatic (vectorized where it applies)") {
  namespace d = cusci::ndimage::detail;
  struct restore {
    int v;
    ~restore() { cusci::ndimage::detail::set_fast_cols_variant(v); }
  } r{d::fast_cols_variant()};
  d::set_fast_cols_variant(1);
  CHECK(run_prefix("cols_") == 50);
  CHECK(run_prefix("gf") == 10);
  d::set_fast_cols_variant(0);
  CHECK(run_prefix("cols_") == 50);
  CHECK(run_prefix("gf") == 10);
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
  for (const auto& r : manifest("ndimage_fast")) {
    const auto& c = r.at("case");
    if (c.rfind("cols_", 0) != 0 && c.rfind("taps_cols_", 0) != 0 && c.rfind("short_cols_", 0) != 0) continue;
    INFO("case " << c << " (last axis cut to a multiple of 8)");
    REQUIRE(r.at("layout") == "C");
    const auto x0 = cusci::asarray(golden("ndimage_fast", r.at("input")));
    const int axis = std::stoi(r.at("axis"));
    REQUIRE(x0.ndim() >= 2);
    REQUIRE((axis >= 0 && axis < x0.ndim() - 1));
    const std::int64_t w = x0.shape().back() / 8 * 8;
    REQUIRE(w > 0);
    const slice cut{0, w};
    const auto x = x0[{cusci::ellipsis, cut}].copy();
    const auto e = cusci::asarray(golden("ndimage_fast", r.at("expected")))[{cusci::ellipsis, cut}].copy();
    const auto y = ndimage_test::run_case(r, x);
    cusci::testing::check_allclose(y, cusci::to_host(e), std::stod(r.at("rtol")), std::stod(r.at("atol")));
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("fast column kernel, vectorizable inner extents: scalar, automatic and vectorized variants") {
  namespace d = cusci::ndimage::detail;
  struct restore {
    int v;
    ~restore() { cusci::ndimage::detail::set_fast_cols_variant(v); }
  } r{d::fast_cols_variant()};
  for (int v : {1, 0, 2}) {
    INFO("variant " << v);
    d::set_fast_cols_variant(v);
    CHECK(run_cols_cropped() == 82);
  }
}

TEST_CASE("set_fast_cols_variant rejects values other than 0, 1, 2") {
  namespace d = cusci::ndimage::detail;
  const int before = d::fast_cols_variant();
  CHECK_THROWS_AS(d::set_fast_cols_variant(3), cusci::value_error);
  CHECK_THROWS_AS(d::set_fast_cols_variant(-1), cusci::value_error);
  CHECK(d::fast_cols_variant() == before);
}

namespace cusci::ndimage::detail {
void set_fast_rows_variant(int v);  // internal switch (ndimage/src/correlate_pass.hpp)
int fast_rows_variant();
}

namespace {

/// The row-kernel cases (and the whole-filter layouts) under the previous row kernel and the
/// automatic choice, each against SciPy, and the two outputs against each other bit for bit.
int run_rows_both_variants(const std::string& prefix) {
  namespace d = cusci::ndimage::detail;
  int n = 0;
  for (const auto& r : manifest("ndimage_fast")) {
    if (r.at("case").rfind(prefix, 0) != 0) continue;
    INFO("case " << r.at("case"));
    const auto x = with_layout(cusci::asarray(golden("ndimage_fast", r.at("input"))), r.at("layout"));
    const auto e = golden("ndimage_fast", r.at("expected"));
    const double rtol = std::stod(r.at("rtol")), atol = std::stod(r.at("atol"));
    d::set_fast_rows_variant(1);
    const auto y_old = ndimage_test::run_case(r, x);
    cusci::testing::check_allclose(y_old, e, rtol, atol);
    d::set_fast_rows_variant(2);
    const auto y_new = ndimage_test::run_case(r, x);
    cusci::testing::check_allclose(y_new, e, rtol, atol);
    cusci::testing::check_allclose(y_new, cusci::to_host(y_old), 0.0, 0.0);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("fast row kernel: previous variant forced, then automatic; bit-identical results") {
  namespace d = cusci::ndimage::detail;
  struct restore {
    int v;
    ~restore() { cusci::ndimage::detail::set_fast_rows_variant(v); }
  } r{d::fast_rows_variant()};
  CHECK(run_rows_both_variants("rows_") == 53);
  CHECK(run_rows_both_variants("taps_") == 32);
  CHECK(run_rows_both_variants("short_") == 32);
  CHECK(run_rows_both_variants("gf") == 10);
}

TEST_CASE("set_fast_rows_variant rejects values other than 0, 1, 2") {
  namespace d = cusci::ndimage::detail;
  const int before = d::fast_rows_variant();
  CHECK_THROWS_AS(d::set_fast_rows_variant(3), cusci::value_error);
  CHECK_THROWS_AS(d::set_fast_rows_variant(-1), cusci::value_error);
  CHECK(d::fast_rows_variant() == before);
}
