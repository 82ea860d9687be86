// GPU tests of cusci::ndimage's interpolation functions against SciPy 1.18.1
// (tests/golden/gen_ndimage_interpolation.py): spline_filter1d / spline_filter (orders 0..5, every
// mode, axes, C/F/strided/reversed inputs, float32/int16/uint8 outputs, complex), map_coordinates,
// affine_transform (every matrix form, output_shape), shift, zoom (grid_mode on and off, zoom 1),
// rotate (reshape, angles, 3-D planes and axes), each over orders 0..5 and every mode with and
// without prefilter, plus SciPy's errors. Also: output arrays (a given array, the input itself).

#include <doctest/doctest.h>

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "../ndimage_layouts.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace ndi = cusci::ndimage;
using cusci::testing::golden_case;

namespace {

const char* kModule = "ndimage_interpolation";

template <class T>
ndi::per_axis<T> per_axis_param(const golden_case& c, const std::string& key) {
  const auto& j = c.params().at(key);
  if (j.is_array()) return ndi::per_axis<T>(j.get<std::vector<T>>());
  return ndi::per_axis<T>(j.get<T>());
}

std::complex<double> cval_of(const golden_case& c) { return c.get_or<std::complex<double>>("cval", 0.0); }

ndi::output_arg output_of(const golden_case& c, ndi::output_arg fallback = {}) {
  if (!c.has("output")) return fallback;
  return cusci::dtype_from_string(c.get<std::string>("output"));
}

ndi::mode mode_of(const golden_case& c, const char* fallback) {
  return ndi::parse_mode(c.get_or<std::string>("mode", fallback));
}

cusci::ndarray run(const golden_case& c, const cusci::ndarray& x) {
  const std::string f = c.func();
  const int order = c.get_or<int>("order", 3);
  const bool prefilter = c.get_or<bool>("prefilter", true);
  if (f == "spline_filter1d")
    return ndi::spline_filter1d(x, order, c.get_or<int>("axis", -1),
                                {.output = output_of(c, cusci::dtype::float64), .mode = mode_of(c, "mirror")});
  if (f == "spline_filter")
    return ndi::spline_filter(x, order, {.output = output_of(c, cusci::dtype::float64), .mode = mode_of(c, "mirror")});
  if (f == "map_coordinates") {
    const auto coords = cusci::asarray(c.array("coordinates"));
    return ndi::map_coordinates(x, coords,
                                {.output = output_of(c), .order = order, .mode = mode_of(c, "constant"),
                                 .cval = cval_of(c), .prefilter = prefilter});
  }
  if (f == "affine_transform") {
    ndi::affine_transform_options o{.output = output_of(c), .order = order, .mode = mode_of(c, "constant"),
                                    .cval = cval_of(c), .prefilter = prefilter};
    if (c.has("offset")) o.offset = per_axis_param<double>(c, "offset");
    if (c.has("output_shape")) o.output_shape = c.get<std::vector<std::int64_t>>("output_shape");
    const auto& m = c.params().at("matrix");
    cusci::host_array mat = m.is_string() ? c.array("matrix") : cusci::host_array();
    return ndi::affine_transform(x, mat, o);
  }
  if (f == "shift")
    return ndi::shift(x, per_axis_param<double>(c, "shift"),
                      {.output = output_of(c), .order = order, .mode = mode_of(c, "constant"), .cval = cval_of(c),
                       .prefilter = prefilter});
  if (f == "zoom")
    return ndi::zoom(x, per_axis_param<double>(c, "zoom"),
                     {.output = output_of(c), .order = order, .mode = mode_of(c, "constant"), .cval = cval_of(c),
                      .prefilter = prefilter, .grid_mode = c.get_or<bool>("grid_mode", false)});
  if (f == "rotate") {
    ndi::rotate_options o{.reshape = c.get_or<bool>("reshape", true), .output = output_of(c), .order = order,
                          .mode = mode_of(c, "constant"), .cval = cval_of(c), .prefilter = prefilter};
    if (c.has("axes")) o.axes = c.get<std::vector<int>>("axes");
    return ndi::rotate(x, c.get<double>("angle"), o);
  }
  FAIL("unknown func " << f);
  return x;
}

int run_func(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases(kModule, func)) {
    INFO("case " << c.name());
    const auto x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    if (c.expects_error()) {
      if (c.error() == "runtime_error") CHECK_THROWS_AS(run(c, x), cusci::runtime_error);
      else cusci::testing::check_error(c, [&] { return run(c, x); });
    } else {
      const auto y = run(c, x);
      CHECK(y.is_c_contiguous());
      cusci::testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
    }
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("spline_filter1d: orders, modes, axes, layouts, output dtypes, complex") {
  CHECK(run_func("spline_filter1d") > 60);
}
TEST_CASE("spline_filter: orders, modes, layouts, output dtypes, complex") { CHECK(run_func("spline_filter") > 30); }
TEST_CASE("map_coordinates: orders, modes, prefilter, edges, dtypes, complex, errors") {
  CHECK(run_func("map_coordinates") > 100);
}
TEST_CASE("affine_transform: matrix forms, output_shape, modes, errors") { CHECK(run_func("affine_transform") > 50); }
TEST_CASE("shift: orders, modes, dtypes, complex") { CHECK(run_func("shift") > 50); }
TEST_CASE("zoom: orders, modes, grid_mode, zoom 1, dtypes, complex") { CHECK(run_func("zoom") > 100); }
TEST_CASE("rotate: angles, reshape, axes, 3-D, dtypes, complex") { CHECK(run_func("rotate") > 60); }

TEST_CASE("output arrays: a given array and the input itself") {
  for (const auto& c : cusci::testing::cases(kModule)) {
    const std::string name = c.name();
    if (name != "shift_o3_reflect" && name != "map_2d_o3_mirror" && name != "sf_2d_o3_mirror") continue;
    INFO("case " << name);
    const auto x0 = cusci::asarray(c.array("input"));
    const auto expected = c.array("expected");
    // a separate output array receives the result and is returned
    auto out = cusci::empty(expected.shape(), expected.dtype());
    cusci::ndarray r;
    if (c.func() == "shift") {
      r = ndi::shift(x0, per_axis_param<double>(c, "shift"),
                     {.output = out, .order = 3, .mode = ndi::mode::reflect, .cval = cval_of(c)});
      // in place: the input as the output
      auto x1 = x0.copy();
      auto r1 = ndi::shift(x1, per_axis_param<double>(c, "shift"),
                           {.output = x1, .order = 3, .mode = ndi::mode::reflect, .cval = cval_of(c)});
      CHECK(r1.data() == x1.data());
      cusci::testing::check_allclose(x1, expected, c.rtol(), c.atol());
    } else if (c.func() == "map_coordinates") {
      r = ndi::map_coordinates(x0, cusci::asarray(c.array("coordinates")),
                               {.output = out, .order = 3, .mode = ndi::mode::mirror, .cval = cval_of(c)});
    } else {
      r = ndi::spline_filter(x0, 3, {.output = out, .mode = ndi::mode::mirror});
      auto x1 = x0.copy();
      ndi::spline_filter(x1, 3, {.output = x1, .mode = ndi::mode::mirror});
      cusci::testing::check_allclose(x1, expected, c.rtol(), c.atol());
    }
    CHECK(r.data() == out.data());
    cusci::testing::check_allclose(out, expected, c.rtol(), c.atol());
  }
}

TEST_CASE("argument errors cusci checks beyond the references") {
  const auto x = cusci::zeros({4, 5});
  CHECK_THROWS_AS(ndi::shift(x, 1.0, {.cval = std::complex<double>(0, 1)}), cusci::type_error);
  CHECK_THROWS_AS(ndi::zoom(x, 2.0, {.output = cusci::zeros({3, 3})}), cusci::runtime_error);
  CHECK_THROWS_AS(ndi::map_coordinates(x, cusci::zeros({2, 3}, cusci::dtype::float16)), cusci::runtime_error);
  // SciPy: RuntimeError "array type dtype('float16') not supported" (input) / "data type not supported"
  CHECK_THROWS_AS(ndi::shift(cusci::zeros({4}, cusci::dtype::float16), 1.0), cusci::runtime_error);
  CHECK_THROWS_AS(ndi::shift(cusci::zeros({4}, cusci::dtype::float16), 1.0, {.order = 1}), cusci::runtime_error);
  CHECK_THROWS_AS(ndi::zoom(x, 2.0, {.output = cusci::dtype::float16}), cusci::runtime_error);
  CHECK_THROWS_AS(ndi::spline_filter1d(cusci::zeros({4}, cusci::dtype::float16)), cusci::runtime_error);
  CHECK_THROWS_AS(ndi::shift(cusci::zeros({4}, cusci::dtype::complex128), 1.0, {.output = cusci::zeros({4})}),
                  cusci::runtime_error);
  CHECK_THROWS_AS(ndi::rotate(x, 10.0, {.axes = {0, 5}}), cusci::value_error);
}
