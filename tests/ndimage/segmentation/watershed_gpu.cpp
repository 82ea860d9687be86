// GPU tests of cusci::ndimage::watershed_ift against SciPy 1.18.1
// (tests/golden/gen_ndimage_watershed.py), every result and error case:
// - the default GPU flooding, compared with SciPy on the elements whose least-cost label is unique
//   (every element of the cases marked `exact`), checking dtype, shape and the output array;
// - scipy_order = true, compared with SciPy bit for bit everywhere;
// - C, F, every-other and reversed layouts of input and markers; output arrays in C and F order.

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "../ndimage_layouts.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "watershed_cases.hpp"

namespace {

namespace nd = cusci::ndimage;
using ws_test::golden_case;

struct call_args {
  cusci::ndarray input, markers;
  nd::watershed_options opts;
};

call_args args_of(const golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  call_args a{ndimage_test::with_layout(cusci::asarray(c.array("input")), layout),
              ndimage_test::with_layout(cusci::asarray(c.array("markers")), layout), {}};
  if (c.has("structure")) a.opts.structure = cusci::asarray(c.array("structure"));
  if (c.has("output")) a.opts.output = cusci::dtype_from_string(c.get<std::string>("output"));
  if (c.has("out_array")) {
    cusci::shape_t shape = a.input.shape();
    if (c.has("out_shape")) shape = c.get<std::vector<std::int64_t>>("out_shape");
    const auto ord = c.get_or<std::string>("out_order", "C") == "F" ? cusci::order::F : cusci::order::C;
    a.opts.output = cusci::zeros(shape, cusci::dtype_from_string(c.get<std::string>("out_array")), ord);
  }
  return a;
}

void run_case(const golden_case& c, bool scipy_order) {
  INFO("case " << c.name() << (scipy_order ? " (scipy_order)" : " (GPU flooding)"));
  call_args a = args_of(c);
  a.opts.scipy_order = scipy_order;
  if (c.expects_error()) {
    ws_test::check_throws(c, [&] { (void)nd::watershed_ift(a.input, a.markers, a.opts); });
    return;
  }
  const cusci::ndarray y = nd::watershed_ift(a.input, a.markers, a.opts);
  if (a.opts.output.is_array()) CHECK(y.data() == a.opts.output.array().data());
  else CHECK(y.is_c_contiguous());
  const bool everywhere = scipy_order || c.get<bool>("exact");
  const std::int64_t compared = ws_test::check_labels(cusci::to_host(y), c, everywhere);
  if (c.get<bool>("exact")) CHECK(compared == y.size());
}

}  // namespace

TEST_CASE("watershed_ift (GPU flooding) matches SciPy wherever the label is unique") {
  int n = 0;
  for (const auto& c : ws_test::all_cases()) {
    run_case(c, false);
    ++n;
  }
  CHECK(n == 183);
}

TEST_CASE("watershed_ift with scipy_order matches SciPy everywhere") {
  for (const auto& c : ws_test::all_cases()) run_case(c, true);
}

TEST_CASE("watershed_ift: the output array may be the markers array itself") {
  for (const auto& c : ws_test::all_cases()) {
    if (c.expects_error() || c.name() != "walls_s8") continue;
    auto a = args_of(c);
    cusci::ndarray m = a.markers.copy();
    a.opts.output = m;
    const auto y = nd::watershed_ift(a.input, m, a.opts);
    CHECK(y.data() == m.data());
    ws_test::check_labels(cusci::to_host(y), c, c.get<bool>("exact"));
  }
}

TEST_CASE("watershed_ift runs on a non-default stream") {
  cusci::stream s;
  cusci::stream_guard g(s);
  for (const auto& c : ws_test::all_cases()) {
    if (c.name() != "camera_gradient_s8") continue;
    auto a = args_of(c);
    const auto y = nd::watershed_ift(a.input, a.markers, a.opts);
    ws_test::check_labels(cusci::to_host(y), c, false);
  }
}
