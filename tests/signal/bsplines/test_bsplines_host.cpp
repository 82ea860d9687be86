// Host tests of cusci::signal's bsplines family: SciPy's argument errors, which every function
// raises before any device work (the inputs are array headers over no memory).

#include <doctest/doctest.h>

#include <complex>
#include <vector>

#include "cusci/signal/bsplines.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;
using testing::fake_array;

TEST_CASE("symiirorder1 / symiirorder2 argument errors") {
  const ndarray x = fake_array(dtype::float64, {40});
  CHECK_THROWS_AS(sig::symiirorder1(x, 0.5, 1.0), value_error);                     // |z1| >= 1
  CHECK_THROWS_AS(sig::symiirorder1(x, 0.5, std::complex<double>(0.8, 0.8)), value_error);
  CHECK_THROWS_AS(sig::symiirorder1(fake_array(dtype::float64, {2, 3, 40}), 0.5, 0.3), value_error);
  CHECK_THROWS_AS(sig::symiirorder1(fake_array(dtype::float64, {}), 0.5, 0.3), value_error);
  // 0.1^k reaches 1e-11 only at k = 12 (SciPy: "did not converge" for N = 12).
  CHECK_THROWS_AS(sig::symiirorder1(fake_array(dtype::float64, {12}), 0.5, 0.1), value_error);
  CHECK_THROWS_AS(sig::symiirorder1(fake_array(dtype::float64, {0}), 0.5, 0.1), value_error);
  CHECK_THROWS_AS(sig::symiirorder1(x, std::complex<double>(0.5, 1.0), 0.3), type_error);
  CHECK_THROWS_AS(sig::symiirorder1(x, 0.5, std::complex<double>(0.3, 0.1)), not_implemented_error);
  CHECK_THROWS_AS(sig::symiirorder2(x, 1.0, 0.3), value_error);
  CHECK_THROWS_AS(sig::symiirorder2(fake_array(dtype::complex128, {40}), 0.5, 0.3), type_error);
  CHECK_THROWS_AS(sig::symiirorder2(fake_array(dtype::float64, {8}), 0.5, 0.3), value_error);
  CHECK_THROWS_AS(sig::symiirorder2(fake_array(dtype::float32, {2, 2, 8}), 0.5, 0.3), value_error);
}

TEST_CASE("spline coefficient argument errors") {
  CHECK_THROWS_AS(sig::cspline1d(fake_array(dtype::float64, {})), type_error);
  CHECK_THROWS_AS(sig::cspline1d(fake_array(dtype::float64, {3, 4})), value_error);
  CHECK_THROWS_AS(sig::cspline1d(fake_array(dtype::float64, {0})), index_error);
  CHECK_THROWS_AS(sig::cspline1d(fake_array(dtype::float64, {20}), 0.001), value_error);  // no real roots
  CHECK_THROWS_AS(sig::cspline1d(fake_array(dtype::float64, {20}), -1.0), value_error);
  CHECK_THROWS_AS(sig::cspline1d(fake_array(dtype::float64, {1}), 0.5), index_error);
  CHECK_THROWS_AS(sig::cspline1d(fake_array(dtype::float64, {2}), 0.5), value_error);
  CHECK_THROWS_AS(sig::qspline1d(fake_array(dtype::float64, {20}), 0.5), value_error);
  CHECK_THROWS_AS(sig::cspline2d(fake_array(dtype::float64, {})), index_error);
  CHECK_THROWS_AS(sig::cspline2d(fake_array(dtype::float64, {5, 5})), value_error);
  CHECK_THROWS_AS(sig::cspline2d(fake_array(dtype::float64, {0, 20})), value_error);
  CHECK_THROWS_AS(sig::cspline2d(fake_array(dtype::complex64, {20, 30}), 1.0), type_error);
  CHECK_THROWS_AS(sig::qspline2d(fake_array(dtype::float64, {20, 30}), 0.5), value_error);
  CHECK_THROWS_AS(sig::spline_filter(fake_array(dtype::int64, {30, 40})), type_error);
  CHECK_THROWS_AS(sig::spline_filter(fake_array(dtype::float64, {40})), value_error);
  CHECK_THROWS_AS(sig::spline_filter(fake_array(dtype::float64, {})), index_error);
  CHECK_THROWS_AS(sig::spline_filter(fake_array(dtype::complex64, {30, 40}), 5.0), type_error);
}

TEST_CASE("sepfir2d, gauss_spline and eval argument errors") {
  const host_array h3 = host_array::from(std::vector<double>{1, 2, 1});
  const host_array h2 = host_array::from(std::vector<double>{1, 2});
  const host_array h2d = host_array::from(std::vector<double>{1, 2, 1}, {1, 3});
  const host_array hc = host_array::from(std::vector<std::complex<double>>{{1, 0}, {2, 1}, {1, 0}});
  const ndarray img = fake_array(dtype::float64, {20, 30});
  CHECK_THROWS_AS(sig::sepfir2d(img, h2, h3), value_error);
  CHECK_THROWS_AS(sig::sepfir2d(img, h3, h2d), value_error);
  CHECK_THROWS_AS(sig::sepfir2d(fake_array(dtype::float64, {30}), h3, h3), value_error);
  CHECK_THROWS_AS(sig::sepfir2d(img, hc, h3), type_error);
  CHECK_THROWS_AS(sig::sepfir2d(fake_array(dtype::float32, {20, 30}), h3, h3), type_error);  // float64 taps
  CHECK_THROWS_AS(sig::gauss_spline(fake_array(dtype::float64, {10}), -1), value_error);
  CHECK_THROWS_AS(sig::gauss_spline(fake_array(dtype::float64, {10}), -2), value_error);
  const ndarray nx = fake_array(dtype::float64, {5});
  CHECK_THROWS_AS(sig::cspline1d_eval(fake_array(dtype::float64, {0}), nx), value_error);
  CHECK_THROWS_AS(sig::cspline1d_eval(fake_array(dtype::float64, {3, 4}), nx), value_error);
  CHECK_THROWS_AS(sig::cspline1d_eval(fake_array(dtype::int64, {10}), nx), type_error);
  CHECK_THROWS_AS(sig::qspline1d_eval(fake_array(dtype::float64, {0}), nx), value_error);
  CHECK_THROWS_AS(sig::qspline1d_eval(fake_array(dtype::complex128, {10}), nx), type_error);
}
