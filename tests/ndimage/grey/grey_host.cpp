// Host tests of cusci::ndimage's grey morphology: every error case of tests/golden/gen_ndimage_grey.py
// that SciPy raises before any computation is raised, with its type and SciPy's text, before any
// device work (inputs and output arrays without memory).

#include <doctest/doctest.h>

#include "grey_cases.hpp"

TEST_CASE("grey morphology: argument errors before any device work, with SciPy's exception kinds and texts") {
  int n = 0;
  for (const char* func : grey_test::funcs) {
    for (const auto& c : cusci::testing::cases("ndimage_grey", func)) {
      if (!c.expects_error() || c.get_or<bool>("after_work", false)) continue;
      INFO("case " << c.name());
      const cusci::host_array h = c.array("input");
      const cusci::ndarray x = cusci::testing::fake_array(h.dtype(), h.shape());
      grey_test::check_throws(c, x, /*fake=*/true);
      ++n;
    }
  }
  CHECK(n >= 65);
}

TEST_CASE("grey morphology: SciPy's order of checks") {
  namespace nd = cusci::ndimage;
  const auto x = cusci::testing::fake_array(cusci::dtype::float64, {5, 6});
  const auto xc = cusci::testing::fake_array(cusci::dtype::complex64, {5, 6});
  // Nothing given is a ValueError before the input is looked at.
  CHECK_THROWS_WITH_AS(nd::grey_erosion(xc), doctest::Contains("size, footprint, or structure"), cusci::value_error);
  CHECK_THROWS_AS(nd::white_tophat(xc), cusci::value_error);
  // An all-zero footprint before a complex input.
  CHECK_THROWS_AS(nd::grey_erosion(xc, {}, {.footprint = cusci::host_array(cusci::dtype::bool_, {3, 3})}),
                  cusci::value_error);
  // Complex input before the output shape.
  CHECK_THROWS_AS(nd::grey_dilation(xc, 3, {.output = cusci::testing::fake_array(cusci::dtype::float64, {2, 2})}),
                  cusci::type_error);
  // grey_dilation checks the axes and the origins' length before the input's dtype.
  CHECK_THROWS_AS(nd::grey_dilation(xc, 3, {.origin = nd::per_axis<std::int64_t>({0, 0, 0})}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::grey_dilation(xc, 3, {.axes = std::vector<int>{3}}), cusci::value_error);
  // The structure's rank against the filtered axes.
  CHECK_THROWS_WITH_AS(
      nd::grey_erosion(x, {}, {.structure = cusci::host_array(cusci::dtype::float64, {3, 3}), .axes = std::vector<int>{0}}),
      doctest::Contains("must match len(axes)"), cusci::runtime_error);
  // A structure with another element count than the footprint.
  CHECK_THROWS_WITH_AS(nd::grey_erosion(x, {},
                                        {.footprint = cusci::host_array::from(std::vector<std::uint8_t>{1, 0, 1}, {1, 3}),
                                         .structure = cusci::host_array(cusci::dtype::float64, {2, 2})}),
                       doctest::Contains("structure array has incorrect shape"), cusci::runtime_error);
}
