// Host tests of the numeric family: option types and argument checks that throw before any device
// work (NumPy's exception kinds; tests/golden/gen_core_numeric.py checks that NumPy raises them). The
// arrays are headers over no memory (testing::fake_array): a check that touched the device would fail.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/numeric.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::fake_array;

TEST_CASE("parse_norm_kind and norm_ord") {
  CHECK(linalg::parse_norm_kind("fro") == linalg::norm_kind::fro);
  CHECK(linalg::parse_norm_kind("f") == linalg::norm_kind::fro);
  CHECK(linalg::parse_norm_kind("nuc") == linalg::norm_kind::nuc);
  CHECK_THROWS_AS(linalg::parse_norm_kind("max"), cusci::value_error);
  CHECK_THROWS_AS(linalg::parse_norm_kind(""), cusci::value_error);
  linalg::norm_ord none;
  CHECK(none.is_none());
  linalg::norm_ord two = 2;
  CHECK(std::get<double>(two.value) == 2.0);
  linalg::norm_ord minf = -INFINITY;
  CHECK(std::get<double>(minf.value) == -INFINITY);
  linalg::norm_ord nuc = linalg::norm_kind::nuc;
  CHECK(std::get<linalg::norm_kind>(nuc.value) == linalg::norm_kind::nuc);
  linalg::norm_options o{.ord = 1, .axis = {0, 1}, .keepdims = true};
  CHECK(o.axis.axes->size() == 2);
}

TEST_CASE("option defaults are NumPy's") {
  interp_options io;
  CHECK_FALSE(io.left.has_value());
  CHECK_FALSE(io.period.has_value());
  gradient_options go;
  CHECK(go.edge_order == 1);
  CHECK_FALSE(go.axis.axes.has_value());
  trapezoid_options to;
  CHECK(to.dx == 1.0);
  CHECK(to.axis == -1);
  isclose_options co;
  CHECK(co.rtol == 1e-05);
  CHECK(co.atol == 1e-08);
  CHECK_FALSE(co.equal_nan);
  nan_to_num_options no;
  CHECK(no.copy);
  CHECK(no.nan == 0.0);
  cross_options xo;
  CHECK(xo.axisa == -1);
  CHECK(xo.axisc == -1);
  CHECK_FALSE(xo.axis.has_value());
}

TEST_CASE("interp argument checks") {
  const ndarray x = fake_array(dtype::float64, {5});
  const ndarray xp = fake_array(dtype::float64, {4});
  CHECK_THROWS_AS(interp(x, xp, fake_array(dtype::float64, {3})), cusci::value_error);
  CHECK_THROWS_AS(interp(x, fake_array(dtype::float64, {0}), fake_array(dtype::float64, {0})), cusci::value_error);
  CHECK_THROWS_AS(interp(x, fake_array(dtype::float64, {2, 2}), fake_array(dtype::float64, {2, 2})),
                  cusci::value_error);
  CHECK_THROWS_AS(interp(fake_array(dtype::complex128, {5}), xp, xp), cusci::type_error);
  CHECK_THROWS_AS(interp(x, fake_array(dtype::complex64, {4}), xp), cusci::type_error);
  CHECK_THROWS_AS(interp(x, xp, xp, {.period = 0.0}), cusci::value_error);
  try {
    interp(x, xp, fake_array(dtype::float64, {3}));
  } catch (const cusci::value_error& e) {
    CHECK(std::string(e.what()).find("cusci::interp") != std::string::npos);
  }
}

TEST_CASE("gradient argument checks") {
  const ndarray f = fake_array(dtype::float64, {4, 3});
  CHECK_THROWS_AS(gradient(fake_array(dtype::float64, {})), cusci::value_error);
  CHECK_THROWS_AS(gradient(f, {}, {.axis = 2}), cusci::index_error);
  CHECK_THROWS_AS(gradient(f, {}, {.axis = -3}), cusci::index_error);
  CHECK_THROWS_AS(gradient(f, {}, {.axis = {0, -2}}), cusci::value_error);
  CHECK_THROWS_AS(gradient(f, {1.0, 2.0, 3.0}), cusci::type_error);
  CHECK_THROWS_AS(gradient(f, {fake_array(dtype::float64, {4})}), cusci::type_error);  // one array, two axes
  CHECK_THROWS_AS(gradient(f, {fake_array(dtype::float64, {5}), 1.0}), cusci::value_error);
  CHECK_THROWS_AS(gradient(f, {fake_array(dtype::float64, {4, 1}), 1.0}), cusci::value_error);
  CHECK_THROWS_AS(gradient(f, {fake_array(dtype::bool_, {4}), 1.0}), cusci::type_error);
  CHECK_THROWS_AS(gradient(f, {}, {.edge_order = 3}), cusci::value_error);
  CHECK_THROWS_AS(gradient(f, {}, {.edge_order = 0}), cusci::value_error);
  CHECK_THROWS_AS(gradient(fake_array(dtype::bool_, {4})), cusci::type_error);
  CHECK_THROWS_AS(gradient(fake_array(dtype::float32, {1})), cusci::value_error);
  CHECK_THROWS_AS(gradient(fake_array(dtype::float32, {4, 2}), {}, {.edge_order = 2}), cusci::value_error);
}

TEST_CASE("trapezoid, cross and norm argument checks") {
  CHECK_THROWS_AS(trapezoid(fake_array(dtype::float64, {3, 3}), {.axis = 2}), cusci::index_error);
  CHECK_THROWS_AS(trapezoid(fake_array(dtype::float64, {}), {}), cusci::index_error);

  const ndarray v3 = fake_array(dtype::float64, {3});
  CHECK_THROWS_AS(cross(fake_array(dtype::float64, {}), v3), cusci::value_error);
  CHECK_THROWS_AS(cross(fake_array(dtype::float64, {2}), fake_array(dtype::float64, {2})), cusci::value_error);
  CHECK_THROWS_AS(cross(v3, fake_array(dtype::float64, {2})), cusci::value_error);
  CHECK_THROWS_AS(cross(v3, v3, {.axisa = 1}), cusci::index_error);
  CHECK_THROWS_AS(cross(v3, v3, {.axisc = 1}), cusci::index_error);
  CHECK_THROWS_AS(cross(v3, v3, {.axis = -2}), cusci::index_error);
  CHECK_THROWS_AS(cross(fake_array(dtype::bool_, {3}), fake_array(dtype::bool_, {3})), cusci::type_error);
  CHECK_THROWS_AS(cross(fake_array(dtype::float64, {2, 3}), fake_array(dtype::float64, {3, 3})), cusci::value_error);

  const ndarray m = fake_array(dtype::float64, {3, 3});
  CHECK_THROWS_AS(linalg::norm(v3, {.ord = linalg::norm_kind::fro}), cusci::value_error);
  CHECK_THROWS_AS(linalg::norm(v3, {.ord = linalg::norm_kind::nuc, .axis = 0}), cusci::value_error);
  CHECK_THROWS_AS(linalg::norm(m, {.ord = 3}), cusci::value_error);
  CHECK_THROWS_AS(linalg::norm(m, {.ord = 0}), cusci::value_error);
  CHECK_THROWS_AS(linalg::norm(fake_array(dtype::float64, {2, 2, 2}), {.ord = 2}), cusci::value_error);
  CHECK_THROWS_AS(linalg::norm(m, {.axis = {0, 0}}), cusci::value_error);
  CHECK_THROWS_AS(linalg::norm(m, {.axis = {1, -1}}), cusci::value_error);
  CHECK_THROWS_AS(linalg::norm(m, {.axis = 2}), cusci::index_error);
  CHECK_THROWS_AS(linalg::norm(m, {.axis = {0, 5}}), cusci::index_error);
  CHECK_THROWS_AS(linalg::norm(m, {.axis = {0, 1, 2}}), cusci::value_error);
  CHECK_THROWS_AS(linalg::norm(fake_array(dtype::float16, {3, 3}), {.ord = 2}), cusci::type_error);
  CHECK_THROWS_AS(linalg::norm(fake_array(dtype::float16, {3, 3}), {.ord = linalg::norm_kind::nuc}),
                  cusci::type_error);
}

TEST_CASE("array_equal of different shapes is false without device work") {
  CHECK_FALSE(array_equal(fake_array(dtype::float64, {3}), fake_array(dtype::float64, {1, 3})));
  CHECK_FALSE(array_equal(fake_array(dtype::int8, {0}), fake_array(dtype::int8, {0, 1})));
  CHECK(array_equal(fake_array(dtype::int8, {0, 2}), fake_array(dtype::float64, {0, 2})));
}
