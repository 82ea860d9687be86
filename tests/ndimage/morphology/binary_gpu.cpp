// GPU tests of cusci::ndimage's binary morphology against SciPy 1.18.1
// (tests/golden/gen_ndimage_morphology.py): binary_erosion, binary_dilation, binary_opening,
// binary_closing, binary_hit_or_miss, binary_propagation and binary_fill_holes on 0-d..3-D inputs,
// generated / iterated / asymmetric / even-sized / centre-less structures, iterations 1, 2, 3, 0, -1,
// masks (bool, int16, float with values SciPy's int8 conversion zeroes), border_value 0 / 1, origins,
// brute_force, axes, bool / integer / float inputs, C / F / strided / reversed / broadcast layouts,
// output dtypes and arrays (C and F), in place, and SciPy's errors.

#include <doctest/doctest.h>

#include <string>

#include "../ndimage_layouts.hpp"
#include "binary_cases.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"

namespace {

using morph_test::golden_case;

cusci::ndarray input_of(const golden_case& c) {
  const cusci::host_array h = c.array("input");
  const std::string layout = c.get<std::string>("layout");
  const auto x = cusci::asarray(h);
  if (layout == "bcast") {
    cusci::shape_t shape = h.shape();
    shape.insert(shape.begin(), c.get<std::int64_t>("bcast_rows"));
    return x.broadcast_to(shape);
  }
  return ndimage_test::with_layout(x, layout);
}

void run_case(const golden_case& c) {
  INFO("case " << c.name());
  const auto x = input_of(c);
  auto a = morph_test::args_of(c, [](const cusci::host_array& h) { return cusci::asarray(h); });
  if (c.has("out_array")) {
    cusci::shape_t shape = x.shape();
    if (c.has("out_shape")) shape = c.get<std::vector<std::int64_t>>("out_shape");
    const auto ord = c.get_or<std::string>("out_order", "C") == "F" ? cusci::order::F : cusci::order::C;
    a.output = cusci::zeros(shape, cusci::dtype_from_string(c.get<std::string>("out_array")), ord);
  }
  std::optional<cusci::ndarray> inplace;
  if (c.get_or<bool>("inplace", false)) {
    inplace = x.copy(x.is_f_contiguous() && !x.is_c_contiguous() ? cusci::order::F : cusci::order::C);
    a.output = *inplace;
  }
  const cusci::ndarray in = inplace ? *inplace : x;
  if (c.expects_error()) {
    morph_test::check_throws(c, [&] { (void)morph_test::call(c, in, a); });
    return;
  }
  const auto y = morph_test::call(c, in, a);
  if (a.output.is_array()) {
    const auto& o = a.output.array();
    CHECK(y.data() == o.data());
    cusci::testing::check_allclose(o, c.array("expected"), 0.0, 0.0);
  } else {
    CHECK(y.dtype() == cusci::dtype::bool_);
    CHECK(y.is_c_contiguous());
    cusci::testing::check_allclose(y, c.array("expected"), 0.0, 0.0);
  }
}

int run_func(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_morphology", func)) {
    run_case(c);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("binary_erosion matches SciPy") { CHECK(run_func("binary_erosion") > 120); }
TEST_CASE("binary_dilation matches SciPy") { CHECK(run_func("binary_dilation") > 120); }
TEST_CASE("binary_opening matches SciPy") { CHECK(run_func("binary_opening") > 120); }
TEST_CASE("binary_closing matches SciPy") { CHECK(run_func("binary_closing") > 120); }
TEST_CASE("binary_hit_or_miss matches SciPy") { CHECK(run_func("binary_hit_or_miss") > 15); }
TEST_CASE("binary_propagation matches SciPy") { CHECK(run_func("binary_propagation") > 8); }
TEST_CASE("binary_fill_holes matches SciPy") { CHECK(run_func("binary_fill_holes") > 12); }

TEST_CASE("binary morphology runs on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_func("binary_propagation") > 8);
  CHECK(run_func("binary_fill_holes") > 12);
  s.synchronize();
}

TEST_CASE("binary_erosion leaves its input and mask unchanged") {
  for (const auto& c : cusci::testing::cases("ndimage_morphology", "binary_erosion")) {
    if (c.expects_error() || !c.has("mask") || c.get<std::string>("layout") != "C") continue;
    const cusci::host_array h = c.array("input");
    const cusci::host_array hm = c.array("mask");
    const auto x = cusci::asarray(h);
    auto a = morph_test::args_of(c, [](const cusci::host_array& m) { return cusci::asarray(m); });
    (void)morph_test::call(c, x, a);
    cusci::testing::check_allclose(x, h, 0.0, 0.0);
    cusci::testing::check_allclose(*a.mask, hm, 0.0, 0.0);
    break;
  }
}
