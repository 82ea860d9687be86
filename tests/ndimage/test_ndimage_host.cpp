// Host-only tests of cusci::ndimage: mode parsing, the Gaussian kernel weights and NumPy's summation
// against SciPy / NumPy, and argument validation that throws before any device work.

#include <doctest/doctest.h>

#include <cmath>

#include "cusci/ndimage/gaussian_kernel.hpp"
#include "cusci/ndimage/mode.hpp"
#include "ndimage_cases.hpp"
#include "testing.hpp"

namespace nd = cusci::ndimage;
using cusci::testing::golden;
using cusci::testing::manifest;

TEST_CASE("parse_mode accepts SciPy's strings and round-trips mode_name") {
  const std::pair<const char*, nd::mode> all[] = {
      {"reflect", nd::mode::reflect},         {"constant", nd::mode::constant},
      {"nearest", nd::mode::nearest},         {"mirror", nd::mode::mirror},
      {"wrap", nd::mode::wrap},               {"grid-mirror", nd::mode::grid_mirror},
      {"grid-constant", nd::mode::grid_constant}, {"grid-wrap", nd::mode::grid_wrap}};
  for (auto& [s, m] : all) {
    CHECK(nd::parse_mode(s) == m);
    CHECK(nd::mode_name(m) == s);
  }
  CHECK(nd::parse_mode("grid_wrap") == nd::mode::grid_wrap);
  CHECK_THROWS_AS(nd::parse_mode("Reflect"), cusci::value_error);
  CHECK_THROWS_AS(nd::parse_mode(""), cusci::value_error);
  CHECK_THROWS_WITH_AS(nd::parse_mode("edge"), doctest::Contains("'edge'"), cusci::value_error);
}

TEST_CASE("gaussian_kernel1d matches scipy.ndimage._filters._gaussian_kernel1d") {
  int n = 0;
  for (const auto& r : manifest("ndimage")) {
    if (r.at("func") != "kernel1d") continue;
    INFO("case " << r.at("case"));
    const auto w = nd::detail::gaussian_kernel1d(std::stod(r.at("sigma")), std::stoi(r.at("order")),
                                                 std::stoll(r.at("radius")));
    const auto h = cusci::host_array::from(w);
    cusci::testing::check_allclose(h, golden("ndimage", r.at("expected")), std::stod(r.at("rtol")),
                                   std::stod(r.at("atol")));
    ++n;
  }
  CHECK(n >= 9);
  CHECK_THROWS_AS(nd::detail::gaussian_kernel1d(0.0, 0, 3), cusci::value_error);
  CHECK_THROWS_AS(nd::detail::gaussian_kernel1d(-1.0, 0, 3), cusci::value_error);
  CHECK_THROWS_AS(nd::detail::gaussian_kernel1d(1.0, -1, 3), cusci::value_error);
  CHECK_THROWS_AS(nd::detail::gaussian_kernel1d(1.0, 0, -1), cusci::value_error);
}

TEST_CASE("numpy_sum reproduces np.sum bit for bit") {
  int n = 0;
  for (const auto& r : manifest("ndimage")) {
    if (r.at("func") != "numpy_sum") continue;
    INFO("case " << r.at("case"));
    const auto in = golden("ndimage", r.at("input"));
    const auto ex = golden("ndimage", r.at("expected"));
    CHECK(nd::detail::numpy_sum(in.data_as<double>(), in.size()) == ex.data_as<double>()[0]);
    ++n;
  }
  CHECK(n >= 9);
}

TEST_CASE("argument errors are raised before any device work") {
  // Arrays with a shape and dtype but no memory: the checks must not touch them.
  int n = 0;
  for (const auto& r : manifest("ndimage")) {
    if (!ndimage_test::is_filter_row(r) || r.at("error") == "-") continue;
    INFO("case " << r.at("case"));
    const auto h = golden("ndimage", r.at("input"));
    cusci::shape_t strides(h.shape().size());
    std::int64_t s = static_cast<std::int64_t>(cusci::itemsize(h.dtype()));
    for (int d = h.ndim() - 1; d >= 0; --d) {
      strides[d] = s;
      s *= h.shape()[d];
    }
    const cusci::ndarray x(cusci::memory_ptr{}, h.dtype(), h.shape(), strides, 0, 0);
    ndimage_test::check_throws(r, x);
    ++n;
  }
  CHECK(n >= 15);
  const cusci::ndarray x(cusci::memory_ptr{}, cusci::dtype::float32, {4, 5}, {20, 4}, 0, 0);
  CHECK_THROWS_WITH_AS(nd::gaussian_filter1d(x, -2.0), doctest::Contains("cusci::ndimage::gaussian_filter1d: sigma"),
                       cusci::value_error);
  CHECK_THROWS_WITH_AS(nd::correlate1d(x, {1.0, 2.0, 3.0}, -1, {.origin = 2}),
                       doctest::Contains("origin"), cusci::value_error);
  CHECK_THROWS_AS(nd::gaussian_filter(x, {1.0, 2.0}, {.order = {0, 1, 2}}), cusci::value_error);
  CHECK_THROWS_AS(nd::gaussian_filter(x, 1.0, {.radius = -1}), cusci::value_error);
  CHECK_THROWS_AS(nd::gaussian_filter(x, std::nan(""), {}), cusci::value_error);
  CHECK_THROWS_AS(nd::gaussian_filter1d(x, 1.0, -1, {.truncate = 1e300}), cusci::value_error);
  CHECK_THROWS_AS(nd::convolve1d(x, {}, 0), cusci::value_error);
  const cusci::ndarray z(cusci::memory_ptr{}, cusci::dtype::float64, {}, {}, 0, 0);
  CHECK_THROWS_AS(nd::correlate1d(z, {1.0}), cusci::index_error);
}
