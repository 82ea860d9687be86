// Host tests of cusci::ndimage's distance transforms: SciPy's argument errors
// (tests/golden/gen_ndimage_distance.py, C-layout error cases) are raised before any device work, so
// they run on array headers without memory; plus the checks SciPy has no counterpart for.

#include <doctest/doctest.h>

#include <string>

#include "cusci/error.hpp"
#include "distance_cases.hpp"

namespace {

using cusci::testing::fake_array;

cusci::ndarray fake(cusci::dtype dt, const cusci::shape_t& shape, cusci::order, std::int32_t) {
  return fake_array(dt, shape);
}

int run_errors(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_distance", func)) {
    if (!c.expects_error() || c.get_or<std::string>("layout", "C") != "C") continue;
    INFO("case " << c.name());
    const cusci::host_array h = c.array("input");
    const auto x = fake_array(h.dtype(), h.shape());
    const auto p = distance_test::make_prealloc(c, x.shape(), fake);
    distance_test::check_throws(c, [&] { (void)distance_test::call(c, x, p); });
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("distance transforms raise SciPy's errors before device work") {
  CHECK(run_errors("distance_transform_edt") >= 10);
  CHECK(run_errors("distance_transform_cdt") >= 12);
  CHECK(run_errors("distance_transform_bf") >= 10);
}

TEST_CASE("the return-flag error joins SciPy's messages") {
  namespace nd = cusci::ndimage;
  const auto x = fake_array(cusci::dtype::bool_, {4, 5});
  try {
    (void)nd::distance_transform_edt(x, {.return_distances = false,
                                         .distances = fake_array(cusci::dtype::float64, {4, 5})});
    FAIL("no exception");
  } catch (const cusci::runtime_error& e) {
    CHECK(std::string(e.what()) ==
          "cusci::ndimage::distance_transform_edt: at least one of return_distances/return_indices must be True, "
          "return_distances must be True if distances is supplied");
  }
}

TEST_CASE("a structure whose rank is not the input's is refused") {
  namespace nd = cusci::ndimage;
  const auto x = fake_array(cusci::dtype::bool_, {4, 5});
  nd::cdt_options o;
  o.metric = cusci::host_array(cusci::dtype::bool_, {3, 3, 3});
  CHECK_THROWS_AS((void)nd::distance_transform_cdt(x, o), cusci::value_error);
  o.metric = cusci::host_array(cusci::dtype::bool_, {3});
  CHECK_THROWS_AS((void)nd::distance_transform_cdt(x, o), cusci::value_error);
}

TEST_CASE("preallocated arrays with a zero stride are refused") {
  namespace nd = cusci::ndimage;
  const auto x = fake_array(cusci::dtype::bool_, {4, 5});
  const cusci::ndarray d(cusci::memory_ptr{}, cusci::dtype::float64, {4, 5}, {0, 8}, 0, 0);
  CHECK_THROWS_AS((void)nd::distance_transform_edt(x, {.distances = d}), cusci::value_error);
  const cusci::ndarray i(cusci::memory_ptr{}, cusci::dtype::int32, {2, 4, 5}, {80, 0, 4}, 0, 0);
  CHECK_THROWS_AS((void)nd::distance_transform_bf(x, {.return_indices = true, .indices = i}), cusci::value_error);
  nd::cdt_options o;
  o.return_indices = true;
  o.indices = i;
  CHECK_THROWS_AS((void)nd::distance_transform_cdt(x, o), cusci::value_error);
}

TEST_CASE("inputs with more axes than the kernels handle are refused") {
  namespace nd = cusci::ndimage;
  const auto x = fake_array(cusci::dtype::bool_, cusci::shape_t(33, 1));
  CHECK_THROWS_AS((void)nd::distance_transform_edt(x), cusci::value_error);
}
