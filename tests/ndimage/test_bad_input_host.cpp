// Bad input to ndimage's Gaussian filters and 1-D correlations, table-driven (tests/common/bad_input.hpp):
// each call raises the typed exception SciPy's error maps to and fails within a second, before any
// device work (data-less arrays from testing::fake_array).

#include <doctest/doctest.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "bad_input.hpp"
#include "cusci/ndimage/filters.hpp"
#include "testing.hpp"

using namespace cusci;
using testing::check_bad_inputs;
using testing::fake_array;
using testing::raises;

TEST_CASE("ndimage: gaussian_filter1d / gaussian_filter refuse absurd orders and negative radii at once") {
  const ndarray x = fake_array(dtype::float64, {5}), img = fake_array(dtype::float32, {4, 6});
  check_bad_inputs({
      {"gaussian_filter1d: order 2^20 (SciPy: MemoryError for its (order+1)^2 matrix)", raises::out_of_memory,
       "gaussian_filter1d", [&] { (void)ndimage::gaussian_filter1d(x, 1.0, -1, {.order = 1 << 20}); }},
      {"gaussian_filter1d: order INT_MAX (SciPy: array is too big)", raises::value_error, "array is too big",
       [&] { (void)ndimage::gaussian_filter1d(x, 1.0, -1, {.order = INT_MAX}); }},
      {"gaussian_filter1d: order -1", raises::value_error, "order", [&] { (void)ndimage::gaussian_filter1d(x, 1.0, -1, {.order = -1}); }},
      {"gaussian_filter1d: truncate -2 (SciPy: Radius must be a nonnegative integer)", raises::value_error,
       "Radius must be a nonnegative integer", [&] { (void)ndimage::gaussian_filter1d(x, 1.0, -1, {.truncate = -2.0}); }},
      {"gaussian_filter1d: radius -1", raises::value_error, "Radius must be a nonnegative integer",
       [&] { (void)ndimage::gaussian_filter1d(x, 1.0, -1, {.radius = -1}); }},
      {"gaussian_filter1d: sigma 0 (SciPy: ZeroDivisionError)", raises::value_error, "sigma",
       [&] { (void)ndimage::gaussian_filter1d(x, 0.0); }},
      {"gaussian_filter1d: infinite truncate", raises::value_error, "truncate",
       [&] { (void)ndimage::gaussian_filter1d(x, 1.0, -1, {.truncate = 1e308 * 10}); }},
      {"gaussian_filter: truncate -5", raises::value_error, "Radius must be a nonnegative integer",
       [&] { (void)ndimage::gaussian_filter(img, 2.0, {.truncate = -5.0}); }},
      {"gaussian_filter: order 2^20 on one axis", raises::out_of_memory, "gaussian_filter",
       [&] { (void)ndimage::gaussian_filter(img, 1.0, {.order = std::vector<int>{0, 1 << 20}}); }},
      {"gaussian_filter: three orders for two axes", raises::runtime_error, "sequence argument",
       [&] { (void)ndimage::gaussian_filter(img, 1.0, {.order = std::vector<int>{0, 1, 2}}); }},
      {"correlate1d: no weights", raises::runtime_error, "no filter weights given",
       [&] { (void)ndimage::correlate1d(x, std::vector<double>{}); }},
  });
}
