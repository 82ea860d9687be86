// Host tests of the statistics family: option parsing and the argument checks that throw before any
// device work (NumPy's exception kinds; tests/golden/gen_core_statistics.py checks that NumPy raises
// for the same calls). Arrays here own no device memory (testing.hpp's fake_array).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/statistics.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::fake_array;

TEST_CASE("parse_quantile_method accepts NumPy's thirteen names") {
  const std::vector<std::string> names = {"inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                                          "interpolated_inverted_cdf", "hazen", "weibull", "linear",
                                          "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint",
                                          "nearest"};
  for (std::size_t i = 0; i < names.size(); ++i)
    CHECK(parse_quantile_method(names[i]) == static_cast<quantile_method>(i));
  CHECK_THROWS_AS(parse_quantile_method("foo"), cusci::value_error);
  CHECK_THROWS_AS(parse_quantile_method("Linear"), cusci::value_error);
  CHECK_THROWS_AS(parse_quantile_method(""), cusci::value_error);
}

TEST_CASE("quantile argument checks before device work") {
  ndarray x = fake_array(dtype::float64, {3, 4});
  CHECK_THROWS_AS(percentile(x, 101.0), cusci::value_error);
  CHECK_THROWS_AS(percentile(x, -0.5), cusci::value_error);
  CHECK_THROWS_AS(percentile(x, {5.0, 50.0, 100.5}), cusci::value_error);
  CHECK_THROWS_AS(quantile(x, 1.5), cusci::value_error);
  CHECK_THROWS_AS(nanquantile(x, std::vector<double>{0.5, -1.0}), cusci::value_error);
  CHECK_THROWS_AS(nanpercentile(x, 200), cusci::value_error);
  CHECK_THROWS_AS(quantile(x, 0.5, 2), cusci::index_error);
  CHECK_THROWS_AS(quantile(x, 0.5, {0, -2}), cusci::value_error);
  CHECK_THROWS_AS(quantile(fake_array(dtype::complex128, {3}), 0.5), cusci::type_error);
  CHECK_THROWS_AS(quantile(fake_array(dtype::bool_, {3}), 0.5), cusci::type_error);
  CHECK_THROWS_AS(quantile(fake_array(dtype::bool_, {3}), 0.5, {}, {.method = quantile_method::midpoint}),
                  cusci::type_error);
  CHECK_THROWS_AS(quantile(x, 0.5, {}, {.weights = x}), cusci::value_error);
  CHECK_THROWS_AS(quantile(x, 0.5, {}, {.method = quantile_method::inverted_cdf, .weights = x}), cusci::value_error);
  CHECK_THROWS_AS(quantile(fake_array(dtype::float64, {3, 0}), 0.5, 1), cusci::index_error);
  try {
    percentile(x, 101.0);
    FAIL("no throw");
  } catch (const cusci::value_error& e) {
    CHECK(std::string(e.what()) == "cusci::percentile: Percentiles must be in the range [0, 100]");
  }
  try {
    quantile(x, 0.5, {}, {.method = quantile_method::nearest, .weights = x});
    FAIL("no throw");
  } catch (const cusci::value_error& e) {
    CHECK(std::string(e.what()).find("Only method 'inverted_cdf' supports weights. Got: nearest.") != std::string::npos);
  }
}

TEST_CASE("median, average and cov argument checks before device work") {
  ndarray x = fake_array(dtype::float32, {3, 4});
  CHECK_THROWS_AS(median(x, 2), cusci::index_error);
  CHECK_THROWS_AS(nanmedian(x, -3), cusci::index_error);
  CHECK_THROWS_AS(median(x, {1, 1}), cusci::value_error);
  try {
    median(x, 3);
    FAIL("no throw");
  } catch (const cusci::index_error& e) {
    CHECK(std::string(e.what()) == "cusci::median: axis 3 is out of bounds for array of dimension 2");
  }
  CHECK_THROWS_AS(average(x, {}, {.weights = fake_array(dtype::float64, {4})}), cusci::type_error);
  CHECK_THROWS_AS(average(x, 1, {.weights = fake_array(dtype::float64, {3})}), cusci::value_error);
  CHECK_THROWS_AS(average(x, 2, {.weights = fake_array(dtype::float64, {4})}), cusci::index_error);
  CHECK_THROWS_AS(average(x, {0, 1}, {.weights = fake_array(dtype::float64, {4, 3})}), cusci::value_error);
  CHECK_THROWS_AS(cov(fake_array(dtype::float64, {2, 2, 2})), cusci::value_error);
  CHECK_THROWS_AS(cov(x, fake_array(dtype::float64, {2, 2, 2})), cusci::value_error);
  CHECK_THROWS_AS(corrcoef(fake_array(dtype::float64, {2, 2, 2})), cusci::value_error);
}
