// GPU tests of cusci::ndimage's distance transforms against SciPy 1.18.1
// (tests/golden/gen_ndimage_distance.py): distance_transform_edt (1-D..4-D, scalar and per-axis
// sampling, special samplings, ties, no background / no foreground / single pixel, 0-d and empty
// inputs, every input dtype), distance_transform_cdt (chessboard, taxicab and its aliases, 2-D and 3-D
// structures including asymmetric and degenerate ones, rows longer than one scan chunk),
// distance_transform_bf (euclidean, taxicab, chessboard, sampling, letter case), every return form
// (distances, indices, both), preallocated outputs in C and F order, C/F/strided/reversed inputs, and
// SciPy's errors. Values are compared exactly (distances bit for bit, indices equal).

#include <doctest/doctest.h>

#include <string>

#include "../ndimage_layouts.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "distance_cases.hpp"

namespace {

using distance_test::golden_case;

cusci::ndarray device_array(cusci::dtype dt, const cusci::shape_t& shape, cusci::order ord, std::int32_t fill) {
  auto a = cusci::zeros(shape, dt, ord);
  if (fill != 0) a.fill(fill);
  return a;
}

void run_case(const golden_case& c) {
  INFO("case " << c.name());
  const cusci::host_array h = c.array("input");
  const auto x = ndimage_test::with_layout(cusci::asarray(h), c.get<std::string>("layout"));
  const auto p = distance_test::make_prealloc(c, x.shape(), device_array);
  if (c.expects_error()) {
    distance_test::check_throws(c, [&] { (void)distance_test::call(c, x, p); });
    return;
  }
  const auto r = distance_test::call(c, x, p);
  CHECK(r.distances.has_value() == c.has("expected_distances"));
  CHECK(r.indices.has_value() == c.has("expected_indices"));
  if (r.distances && c.has("expected_distances")) {
    CHECK(r.distances->is_c_contiguous());
    cusci::testing::check_allclose(*r.distances, c.array("expected_distances"), c.rtol(), c.atol());
  }
  if (r.indices && c.has("expected_indices")) {
    CHECK(r.indices->is_c_contiguous());
    cusci::testing::check_allclose(*r.indices, c.array("expected_indices"), 0.0, 0.0);
  }
  if (p.distances) cusci::testing::check_allclose(*p.distances, c.array("expected_dist_array"), c.rtol(), c.atol());
  if (p.indices) cusci::testing::check_allclose(*p.indices, c.array("expected_ind_array"), 0.0, 0.0);
}

int run_func(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_distance", func)) {
    run_case(c);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("distance_transform_edt matches SciPy") { CHECK(run_func("distance_transform_edt") > 250); }
TEST_CASE("distance_transform_cdt matches SciPy") { CHECK(run_func("distance_transform_cdt") > 200); }
TEST_CASE("distance_transform_bf matches SciPy") { CHECK(run_func("distance_transform_bf") > 200); }

TEST_CASE("distance transforms run on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_func("distance_transform_edt") > 250);
  CHECK(run_func("distance_transform_cdt") > 200);
  s.synchronize();
}

TEST_CASE("a distance transform leaves its input unchanged") {
  for (const auto& f : distance_test::funcs()) {
    const auto cs = cusci::testing::cases("ndimage_distance", f);
    const auto& c = cs.front();
    const cusci::host_array h = c.array("input");
    const auto x = cusci::asarray(h);
    (void)distance_test::call(c, x, {});
    cusci::testing::check_allclose(x, h, 0.0, 0.0);
  }
}
