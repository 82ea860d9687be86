// Host tests of the labelling and measurements: every error case of
// tests/golden/gen_ndimage_measurements.py that SciPy raises from its argument checks is raised here
// too, with its type and SciPy's text, before any device work (arrays without memory), and the
// documented refusals (complex input, float labels) with their messages.

#include <doctest/doctest.h>

#include "cusci/ndimage/measurements.hpp"
#include "measurements_cases.hpp"

TEST_CASE("measurements: argument errors before any device work, with SciPy's exception kinds and texts") {
  int n = 0;
  for (const auto& c : cusci::testing::cases(measure_test::kModule)) {
    if (!c.expects_error() || c.get_or<bool>("needs_device", false)) continue;
    INFO("case " << c.name());
    ndimage_test::check_throws_with(c, [&] { measure_test::run_any(c, true); }, /*names_function=*/true);
    ++n;
  }
  CHECK(n >= 30);
}

TEST_CASE("measurements: complex input and float labels are refused with type_error") {
  namespace nd = cusci::ndimage;
  const auto z = cusci::testing::fake_array(cusci::dtype::complex128, {4, 5});
  const auto x = cusci::testing::fake_array(cusci::dtype::float64, {4, 5});
  const auto fl = cusci::testing::fake_array(cusci::dtype::float32, {4, 5});
  CHECK_THROWS_WITH_AS(nd::sum_labels(z), doctest::Contains("cusci::ndimage::sum_labels: complex input"),
                       cusci::type_error);
  CHECK_THROWS_WITH_AS(nd::mean(x, fl, 1), doctest::Contains("labels must be an integer or bool array"),
                       cusci::type_error);
  CHECK_THROWS_AS(nd::median(z, std::nullopt, {1, 2}), cusci::type_error);
  CHECK_THROWS_WITH_AS(nd::find_objects(fl), doctest::Contains("integer or bool"), cusci::type_error);
}

TEST_CASE("labeled_comprehension: an empty function name is refused") {
  namespace nd = cusci::ndimage;
  const auto x = cusci::testing::fake_array(cusci::dtype::float64, {4, 5});
  CHECK_THROWS_AS(nd::labeled_comprehension(x, std::nullopt, {}, nd::device_function("", "")), cusci::value_error);
}

TEST_CASE("label_index: SciPy's index forms") {
  namespace nd = cusci::ndimage;
  CHECK(nd::label_index().is_none());
  CHECK(nd::label_index(std::nullopt).is_none());
  CHECK(nd::label_index(3).is_scalar());
  CHECK(nd::label_index(3).scalar() == 3);
  CHECK(nd::label_index({1, 2, 3}).is_array());
  CHECK(nd::label_index(std::vector<std::int64_t>{}).is_array());
}
