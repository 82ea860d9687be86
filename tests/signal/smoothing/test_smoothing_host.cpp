// Host tests of cusci::signal's smoothing family: savgol_coeffs against SciPy
// (tests/golden/gen_signal_smoothing.py, with its error cases), the option parsers, and the
// argument checks of the GPU functions that throw before any device work (on array headers without
// memory, testing::fake_array).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cusci/signal/smoothing.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;
using testing::fake_array;

TEST_CASE("savgol_coeffs matches SciPy") {
  int n_good = 0, n_err = 0;
  for (const auto& c : testing::cases("signal_smoothing", "savgol_coeffs")) {
    CAPTURE(c.name());
    auto call = [&] {
      sig::savgol_coeffs_options o;
      o.deriv = c.get<int>("deriv");
      o.delta = c.get<double>("delta");
      o.pos = c.get<std::optional<double>>("pos");
      o.use = sig::parse_savgol_use(c.get<std::string>("use"));
      return sig::savgol_coeffs(c.get<std::int64_t>("window_length"), c.get<std::int64_t>("polyorder"), o);
    };
    if (c.expects_error()) {
      testing::check_error(c, call);
      ++n_err;
    } else {
      testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
      ++n_good;
    }
  }
  CHECK(n_good > 200);
  CHECK(n_err >= 8);
}

TEST_CASE("savgol_coeffs: designated options and known values") {
  // SciPy's docstring values: savgol_coeffs(5, 2) and savgol_coeffs(5, 2, deriv=1).
  host_array c = sig::savgol_coeffs(5, 2);
  const std::vector<double> e{-3.0 / 35, 12.0 / 35, 17.0 / 35, 12.0 / 35, -3.0 / 35};
  testing::check_allclose(c, host_array::from(e), 1e-13, 1e-14);
  host_array d = sig::savgol_coeffs(5, 2, {.deriv = 1, .use = sig::savgol_use::dot});
  const std::vector<double> ed{-0.2, -0.1, 0.0, 0.1, 0.2};
  testing::check_allclose(d, host_array::from(ed), 1e-13, 1e-14);
}

TEST_CASE("option parsers take SciPy's strings") {
  CHECK(sig::parse_savgol_mode("interp") == sig::savgol_mode::interp);
  CHECK(sig::parse_savgol_mode("mirror") == sig::savgol_mode::mirror);
  CHECK(sig::parse_savgol_mode("constant") == sig::savgol_mode::constant);
  CHECK(sig::parse_savgol_mode("nearest") == sig::savgol_mode::nearest);
  CHECK(sig::parse_savgol_mode("wrap") == sig::savgol_mode::wrap);
  CHECK_THROWS_AS(sig::parse_savgol_mode("reflect"), value_error);
  CHECK(sig::parse_savgol_use("conv") == sig::savgol_use::conv);
  CHECK(sig::parse_savgol_use("dot") == sig::savgol_use::dot);
  CHECK_THROWS_AS(sig::parse_savgol_use("x"), value_error);
  sig::whittaker_henderson_options o;
  CHECK(o.lamb.is_name());
  CHECK(o.lamb.name() == "reml");
  CHECK(o.order == 2);
  sig::whittaker_henderson_options o2{.lamb = 3.5};
  CHECK(!o2.lamb.is_name());
  CHECK(o2.lamb.value() == 3.5);
}

TEST_CASE("argument checks throw before device work") {
  const ndarray f1 = fake_array(dtype::float32, {100});
  const ndarray f2 = fake_array(dtype::float64, {10, 20});
  // savgol_filter
  CHECK_THROWS_AS(sig::savgol_filter(f1, 5, 5), value_error);
  CHECK_THROWS_AS(sig::savgol_filter(f1, 101, 2), value_error);
  CHECK_THROWS_AS(sig::savgol_filter(f1, 5, -1), value_error);
  CHECK_THROWS_AS(sig::savgol_filter(f1, 5, 2, {.deriv = -1}), value_error);
  CHECK_THROWS_AS(sig::savgol_filter(f1, 5, 2, {.axis = 1}), index_error);
  CHECK_THROWS_AS(sig::savgol_filter(f2, 5, 2, {.axis = -3}), index_error);
  CHECK_THROWS_AS(sig::savgol_filter(fake_array(dtype::float64, {}), 1, 0), index_error);
  CHECK_THROWS_AS(sig::savgol_filter(fake_array(dtype::complex64, {10}), 3, 1), not_implemented_error);
  // medfilt / medfilt2d / order_filter
  CHECK_THROWS_AS(sig::medfilt(f1, 4), value_error);
  CHECK_THROWS_AS(sig::medfilt(fake_array(dtype::bool_, {10}), 3), value_error);
  CHECK_THROWS_AS(sig::medfilt(fake_array(dtype::float16, {10}), 3), value_error);
  CHECK_THROWS_AS(sig::medfilt(f2, std::vector<std::int64_t>{3}), index_error);
  CHECK_THROWS_AS(sig::medfilt(f1, std::vector<std::int64_t>{3, 3}), runtime_error);
  CHECK_THROWS_AS(sig::medfilt(f1, -3), value_error);
  CHECK_THROWS_AS(sig::medfilt2d(f1), value_error);
  CHECK_THROWS_AS(sig::medfilt2d(f2, 2), value_error);
  CHECK_THROWS_AS(sig::medfilt2d(f2, std::vector<std::int64_t>{3}), value_error);
  host_array even(dtype::float64, {3, 2});
  CHECK_THROWS_AS(sig::order_filter(f2, even, 0), value_error);
  host_array dom(dtype::float64, {3, 3});
  CHECK_THROWS_AS(sig::order_filter(fake_array(dtype::bool_, {4, 4}), dom, 0), value_error);
  // wiener
  CHECK_THROWS_AS(sig::wiener(f2, std::vector<std::int64_t>{3}), value_error);
  CHECK_THROWS_AS(sig::wiener(f2, 0), value_error);
  CHECK_THROWS_AS(sig::wiener(fake_array(dtype::complex128, {4, 4})), not_implemented_error);
  // whittaker_henderson (checks before the copy to the host)
  CHECK_THROWS_AS(sig::whittaker_henderson(f1, {.order = 0}), value_error);
  CHECK_THROWS_AS(sig::whittaker_henderson(f2), value_error);
  CHECK_THROWS_AS(sig::whittaker_henderson(fake_array(dtype::float64, {2})), value_error);
  CHECK_THROWS_AS(sig::whittaker_henderson(f1, {.lamb = "gcv"}), value_error);
  CHECK_THROWS_AS(sig::whittaker_henderson(fake_array(dtype::complex128, {10})), not_implemented_error);
}
