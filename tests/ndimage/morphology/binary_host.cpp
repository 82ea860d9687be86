// Host tests of cusci::ndimage's structuring elements and binary morphology against SciPy 1.18.1
// (tests/golden/gen_ndimage_morphology.py): generate_binary_structure and iterate_structure (host
// functions, every case), and SciPy's argument errors of the binary functions (C-layout error cases),
// which are raised before any device work, so they run on array headers without memory.

#include <doctest/doctest.h>

#include <string>

#include "binary_cases.hpp"
#include "cusci/error.hpp"

namespace {

using cusci::testing::fake_array;
namespace nd = cusci::ndimage;

int run_errors(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_morphology", func)) {
    if (!c.expects_error() || c.get<std::string>("layout") != "C") continue;
    INFO("case " << c.name());
    const cusci::host_array h = c.array("input");
    const auto x = fake_array(h.dtype(), h.shape());
    auto a = morph_test::args_of(c, [](const cusci::host_array& m) { return fake_array(m.dtype(), m.shape()); });
    if (c.has("out_array")) {
      cusci::shape_t shape = h.shape();
      if (c.has("out_shape")) shape = c.get<std::vector<std::int64_t>>("out_shape");
      a.output = fake_array(cusci::dtype_from_string(c.get<std::string>("out_array")), shape);
    }
    morph_test::check_throws(c, [&] { (void)morph_test::call(c, x, a); });
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("generate_binary_structure matches SciPy") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_morphology", "generate_binary_structure")) {
    INFO("case " << c.name());
    const auto r = nd::generate_binary_structure(c.get<int>("rank"), c.get<int>("connectivity"));
    cusci::testing::check_allclose(r, c.array("expected"), 0.0, 0.0);
    ++n;
  }
  CHECK(n == 42);
}

TEST_CASE("iterate_structure matches SciPy") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_morphology", "iterate_structure")) {
    INFO("case " << c.name());
    const cusci::host_array st = c.array("structure");
    const auto it = c.get<std::int64_t>("iterations");
    if (c.has("origin")) {
      const auto [r, o] = nd::iterate_structure(st, it, morph_test::origin_of(c, "origin"));
      cusci::testing::check_allclose(r, c.array("expected"), 0.0, 0.0);
      CHECK(o == c.get<std::vector<std::int64_t>>("expected_origin"));
    } else {
      cusci::testing::check_allclose(nd::iterate_structure(st, it), c.array("expected"), 0.0, 0.0);
    }
    ++n;
  }
  CHECK(n == 84);
}

TEST_CASE("binary morphology raises SciPy's errors before device work") {
  for (const auto& f : morph_test::binary_funcs()) {
    INFO(f);
    CHECK(run_errors(f) >= 1);
  }
}

TEST_CASE("iterate_structure refuses an origin sequence of the wrong length") {
  const auto s = nd::generate_binary_structure(2, 1);
  CHECK_THROWS_AS((void)nd::iterate_structure(s, 2, nd::per_axis<std::int64_t>{1, 2, 3}), cusci::runtime_error);
}

TEST_CASE("an origin outside the structure is a value_error naming the function") {
  const auto x = fake_array(cusci::dtype::bool_, {5, 5});
  nd::binary_options o;
  o.origin = std::int64_t{-2};
  try {
    (void)nd::binary_dilation(x, o);
    FAIL("no exception");
  } catch (const cusci::value_error& e) {
    CHECK(std::string(e.what()).rfind("cusci::ndimage::binary_dilation: invalid origin", 0) == 0);
  }
}
