// Host tests of cusci::ndimage::watershed_ift against SciPy 1.18.1
// (tests/golden/gen_ndimage_watershed.py): the host form, which runs SciPy's queue order, on every
// result case (2-D, 3-D, 4-D, 1-D, 0-d and empty; uint8 / uint16; plateaus and ties; object,
// background, duplicated and adjacent markers; generated, asymmetric and row-only structures; int8 to
// int64 markers; output dtypes; layouts as values), compared with SciPy bit for bit everywhere; and
// SciPy's argument errors through the host form and the device form (raised before device work).

#include <doctest/doctest.h>

#include <string>

#include "cusci/error.hpp"
#include "watershed_cases.hpp"

namespace {

namespace nd = cusci::ndimage;
using cusci::host_array;
using ws_test::golden_case;

nd::watershed_host_options host_options(const golden_case& c) {
  nd::watershed_host_options o;
  if (c.has("structure")) o.structure = c.array("structure");
  if (c.has("out_array")) o.output = cusci::dtype_from_string(c.get<std::string>("out_array"));
  return o;
}

}  // namespace

TEST_CASE("watershed_ift's host form is SciPy's result everywhere") {
  int n = 0, tied_cases = 0;
  for (const auto& c : ws_test::all_cases()) {
    if (c.expects_error()) continue;
    INFO("case " << c.name());
    const std::string layout = c.get<std::string>("layout");
    const host_array in = ws_test::host_layout(c.array("input"), layout);
    const host_array mk = ws_test::host_layout(c.array("markers"), layout);
    const host_array r = nd::watershed_ift(in, mk, host_options(c));
    ws_test::check_labels(r, c, /*everywhere=*/true);
    if (!c.get<bool>("exact")) ++tied_cases;
    ++n;
  }
  CHECK(n == 169);
  CHECK(tied_cases > 0);  // the cases exercise SciPy's queue order on ties, not only unique labels
}

TEST_CASE("watershed_ift raises SciPy's errors (host form)") {
  int n = 0;
  for (const auto& c : ws_test::all_cases()) {
    if (!c.expects_error() || c.has("out_shape")) continue;  // the host form takes no output array
    INFO("case " << c.name());
    const host_array in = c.array("input");
    const host_array mk = c.array("markers");
    ws_test::check_throws(c, [&] { (void)nd::watershed_ift(in, mk, host_options(c)); });
    ++n;
  }
  CHECK(n == 13);
}

TEST_CASE("watershed_ift raises SciPy's errors before device work (device form)") {
  int n = 0;
  for (const auto& c : ws_test::all_cases()) {
    if (!c.expects_error() || c.has("structure")) continue;  // a structure is read from the device
    INFO("case " << c.name());
    const host_array h = c.array("input");
    const host_array m = c.array("markers");
    nd::watershed_options o;
    if (c.has("out_array")) {
      cusci::shape_t shape = h.shape();
      if (c.has("out_shape")) shape = c.get<std::vector<std::int64_t>>("out_shape");
      o.output = cusci::testing::fake_array(cusci::dtype_from_string(c.get<std::string>("out_array")), shape);
    }
    const auto x = cusci::testing::fake_array(h.dtype(), h.shape());
    const auto mk = cusci::testing::fake_array(m.dtype(), m.shape());
    ws_test::check_throws(c, [&] { (void)nd::watershed_ift(x, mk, o); });
    ++n;
  }
  CHECK(n == 12);
}

TEST_CASE("watershed_ift: the output dtype of the host form must be a signed integer") {
  const host_array in(cusci::dtype::uint8, {3, 3});
  const host_array mk(cusci::dtype::int32, {3, 3});
  CHECK_THROWS_AS((void)nd::watershed_ift(in, mk, {.output = cusci::dtype::uint16}), cusci::runtime_error);
  CHECK_THROWS_AS((void)nd::watershed_ift(in, mk, {.output = cusci::dtype::float32}), cusci::runtime_error);
  CHECK(nd::watershed_ift(in, mk, {.output = cusci::dtype::int8}).dtype() == cusci::dtype::int8);
}
