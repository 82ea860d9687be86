// Host-only tests of cusci::ndimage: mode parsing, the Gaussian kernel weights and NumPy's summation
// against SciPy / NumPy, and argument validation that throws before any device work (every error
// case of tests/golden/gen_ndimage.py, on arrays without memory, and the messages of the new
// filters' errors).

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "cusci/ndimage/gaussian_kernel.hpp"
#include "cusci/ndimage/mode.hpp"
#include "ndimage_cases.hpp"
#include "testing.hpp"

namespace nd = cusci::ndimage;
using cusci::testing::golden;

TEST_CASE("parse_mode accepts SciPy's strings and round-trips mode_name") {
  const std::pair<const char*, nd::mode> all[] = {
      {"reflect", nd::mode::reflect},         {"constant", nd::mode::constant},
      {"nearest", nd::mode::nearest},         {"mirror", nd::mode::mirror},
      {"wrap", nd::mode::wrap},               {"grid-mirror", nd::mode::grid_mirror},
      {"grid-constant", nd::mode::grid_constant}, {"grid-wrap", nd::mode::grid_wrap}};
  for (auto& [s, m] : all) {
    CHECK(nd::parse_mode(s) == m);
    CHECK(nd::mode_name(m) == s);
  }
  CHECK(nd::parse_mode("grid_wrap") == nd::mode::grid_wrap);
  // SciPy: RuntimeError "boundary mode not supported".
  CHECK_THROWS_AS(nd::parse_mode("Reflect"), cusci::runtime_error);
  CHECK_THROWS_AS(nd::parse_mode(""), cusci::runtime_error);
  CHECK_THROWS_WITH_AS(nd::parse_mode("edge"), doctest::Contains("'edge'"), cusci::runtime_error);
  CHECK_THROWS_WITH_AS(nd::parse_mode("edge"), doctest::Contains("boundary mode not supported"), cusci::runtime_error);
}

TEST_CASE("gaussian_kernel1d matches scipy.ndimage._filters._gaussian_kernel1d") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage", "kernel1d")) {
    INFO("case " << c.name());
    const auto w = nd::detail::gaussian_kernel1d(c.get<double>("sigma"), c.get<int>("order"),
                                                 c.get<std::int64_t>("radius"));
    const auto h = cusci::host_array::from(w);
    cusci::testing::check_allclose(h, c.array("expected"), c.rtol(), c.atol());
    ++n;
  }
  CHECK(n >= 9);
  CHECK_THROWS_AS(nd::detail::gaussian_kernel1d(0.0, 0, 3), cusci::value_error);
  CHECK_THROWS_AS(nd::detail::gaussian_kernel1d(-1.0, 0, 3), cusci::value_error);
  CHECK_THROWS_AS(nd::detail::gaussian_kernel1d(1.0, -1, 3), cusci::value_error);
  CHECK_THROWS_AS(nd::detail::gaussian_kernel1d(1.0, 0, -1), cusci::value_error);
}

TEST_CASE("numpy_sum reproduces np.sum bit for bit") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage", "numpy_sum")) {
    INFO("case " << c.name());
    const auto in = c.array("input");
    const auto ex = c.array("expected");
    CHECK(nd::detail::numpy_sum(in.data_as<double>(), in.size()) == ex.data_as<double>()[0]);
    ++n;
  }
  CHECK(n >= 9);
}

TEST_CASE("argument errors are raised before any device work") {
  // Arrays with a shape and dtype but no memory: the checks must not touch them.
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage")) {
    if (!ndimage_test::is_filter(c.func()) || !c.expects_error()) continue;
    INFO("case " << c.name());
    const auto h = c.array("input");
    const cusci::ndarray x = cusci::testing::fake_array(h.dtype(), h.shape());
    ndimage_test::check_throws(c, x, /*fake=*/true);
    ++n;
  }
  CHECK(n >= 15 + 40 + 30);
  const cusci::ndarray x(cusci::memory_ptr{}, cusci::dtype::float32, {4, 5}, {20, 4}, 0, 0);
  // A negative sigma gives radius int(4 * -2 + 0.5) = -7: SciPy's ValueError on the radius.
  CHECK_THROWS_WITH_AS(nd::gaussian_filter1d(x, -2.0),
                       doctest::Contains("cusci::ndimage::gaussian_filter1d: Radius must be a nonnegative integer"),
                       cusci::value_error);
  CHECK_THROWS_WITH_AS(nd::gaussian_filter1d(x, 1.0, -1, {.truncate = -1.5}),
                       doctest::Contains("Radius must be a nonnegative integer"), cusci::value_error);
  CHECK_THROWS_AS(nd::gaussian_filter1d(x, 0.0), cusci::value_error);  // SciPy: ZeroDivisionError
  CHECK_THROWS_AS(nd::gaussian_filter1d(x, 1.0, -1, {.truncate = std::nan(""), .radius = 2}), cusci::value_error);
  CHECK_THROWS_WITH_AS(nd::correlate1d(x, {1.0, 2.0, 3.0}, -1, {.origin = 2}),
                       doctest::Contains("origin"), cusci::value_error);
  CHECK_THROWS_WITH_AS(nd::gaussian_filter(x, {1.0, 2.0}, {.order = {0, 1, 2}}),
                       doctest::Contains("sequence argument must have length equal to input rank"),
                       cusci::runtime_error);
  CHECK_THROWS_AS(nd::gaussian_filter(x, 1.0, {.radius = -1}), cusci::value_error);
  CHECK_THROWS_AS(nd::gaussian_filter(x, 1.0, {.axes = std::vector<int>{2}}), cusci::value_error);
  CHECK_THROWS_AS(nd::gaussian_filter1d(x, 1.0, -1, {.truncate = 1e300}), cusci::value_error);
  CHECK_THROWS_WITH_AS(nd::convolve1d(x, {}, 0), doctest::Contains("no filter weights given"), cusci::runtime_error);
  const cusci::ndarray z(cusci::memory_ptr{}, cusci::dtype::float64, {}, {}, 0, 0);
  CHECK_THROWS_AS(nd::correlate1d(z, {1.0}), cusci::index_error);
  CHECK_THROWS_AS(nd::correlate1d(z, {}), cusci::runtime_error);  // SciPy checks the weights first
}

TEST_CASE("output= arrays, complex weights and modes: argument errors before any device work") {
  const auto x = cusci::testing::fake_array(cusci::dtype::float64, {4, 5});
  const auto xc = cusci::testing::fake_array(cusci::dtype::complex128, {4, 5});
  const auto wrong = cusci::testing::fake_array(cusci::dtype::float64, {5, 4});
  const auto real_out = cusci::testing::fake_array(cusci::dtype::float64, {4, 5});
  const auto f16 = cusci::testing::fake_array(cusci::dtype::float16, {4, 5});
  // SciPy's _get_output: RuntimeError "output shape not correct" / "output must have complex dtype".
  CHECK_THROWS_WITH_AS(nd::correlate1d(x, {1.0, 2.0}, -1, {.output = wrong}),
                       doctest::Contains("output shape not correct"), cusci::runtime_error);
  CHECK_THROWS_AS(nd::gaussian_filter(x, 1.0, {.output = wrong}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::gaussian_filter1d(x, 1.0, 0, {.output = wrong}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::uniform_filter(x, 3, {.output = wrong}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::uniform_filter(x, 1, {.output = wrong}), cusci::runtime_error);  // also with no axis filtered
  CHECK_THROWS_AS(nd::uniform_filter1d(x, 3, 0, {.output = wrong}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::minimum_filter1d(x, 3, 0, {.output = wrong}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::maximum_filter(x, 3, {.output = wrong}), cusci::runtime_error);
  const auto cross = cusci::host_array::from(std::vector<std::uint8_t>{0, 1, 0, 1, 1, 1, 0, 1, 0}, {3, 3});
  CHECK_THROWS_AS(nd::maximum_filter(x, {}, {.footprint = cross, .output = wrong}), cusci::runtime_error);
  CHECK_THROWS_WITH_AS(nd::correlate1d(xc, {1.0, 2.0}, -1, {.output = real_out}),
                       doctest::Contains("output must have complex dtype"), cusci::runtime_error);
  CHECK_THROWS_AS(nd::uniform_filter1d(xc, 3, -1, {.output = real_out}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::gaussian_filter(xc, 1.0, {.output = cusci::dtype::float64}), cusci::runtime_error);
  // SciPy's C filters: RuntimeError "array type ... not supported".
  CHECK_THROWS_AS(nd::correlate1d(x, {1.0, 2.0}, -1, {.output = cusci::dtype::complex64}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::minimum_filter(x, 3, {.output = cusci::dtype::complex64}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::gaussian_filter(f16, 1.0), cusci::runtime_error);
  CHECK_THROWS_AS(nd::correlate1d(x, {1.0}, -1, {.output = cusci::dtype::float16}), cusci::runtime_error);
  // Complex weights: the overloads (a vector and a braced list of complex values).
  const std::vector<std::complex<double>> none;
  CHECK_THROWS_WITH_AS(nd::correlate1d(x, none), doctest::Contains("no filter weights given"), cusci::runtime_error);
  CHECK_THROWS_AS(nd::convolve1d(xc, none), cusci::runtime_error);
  CHECK_THROWS_AS(nd::correlate1d(x, {{1.0, 2.0}, {0.5, 0.0}}, 2), cusci::index_error);
  CHECK_THROWS_AS(nd::convolve1d(x, std::vector<std::complex<double>>{{1.0, 1.0}, {2.0, 0.0}}, -1, {.origin = 1}),
                  cusci::value_error);  // even length: correlation origin -1 - 1 = -2 < -(2 // 2)
  CHECK_THROWS_AS(nd::correlate1d(x, std::vector<std::complex<double>>{{1.0, 1.0}}, -1, {.output = wrong}),
                  cusci::runtime_error);
  CHECK_THROWS_AS(nd::correlate1d(x, std::vector<std::complex<double>>{{1.0, 1.0}}, -1, {.output = real_out}),
                  cusci::runtime_error);
  CHECK_THROWS_AS(nd::correlate1d(f16, std::vector<std::complex<double>>{{1.0, 1.0}}), cusci::runtime_error);
  // A mode outside the enum: SciPy's "boundary mode not supported".
  const auto bad = static_cast<nd::mode>(42);
  CHECK_THROWS_WITH_AS(nd::correlate1d(x, {1.0, 2.0}, -1, {.mode = bad}),
                       doctest::Contains("boundary mode not supported"), cusci::runtime_error);
  CHECK_THROWS_AS(nd::uniform_filter1d(x, 3, -1, {.mode = bad}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::minimum_filter(x, {}, {.footprint = cross, .mode = bad}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::gaussian_filter(x, 1.0, {.mode = bad}), cusci::runtime_error);
}

TEST_CASE("uniform, minimum and maximum filters: argument errors before any device work, with SciPy's texts") {
  const auto x = cusci::testing::fake_array(cusci::dtype::float32, {4, 5});
  CHECK_THROWS_WITH_AS(nd::uniform_filter1d(x, 0), doctest::Contains("cusci::ndimage::uniform_filter1d: incorrect filter size"),
                       cusci::runtime_error);
  CHECK_THROWS_WITH_AS(nd::uniform_filter1d(x, 3, -1, {.origin = 2}), doctest::Contains("invalid origin"),
                       cusci::value_error);
  CHECK_THROWS_AS(nd::uniform_filter1d(x, 3, 2), cusci::index_error);
  CHECK_THROWS_WITH_AS(nd::uniform_filter(x, 3, {.axes = std::vector<int>{2}}),
                       doctest::Contains("specified axis: 2 is out of range"), cusci::value_error);
  CHECK_THROWS_WITH_AS(nd::uniform_filter(x, 3, {.axes = std::vector<int>{1, -1}}),
                       doctest::Contains("axes must be unique"), cusci::value_error);
  CHECK_THROWS_AS(nd::uniform_filter(x, {3, 3, 3}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::uniform_filter(x, 3, {.output = cusci::dtype::complex64}), cusci::runtime_error);
  CHECK_THROWS_AS(nd::uniform_filter(cusci::testing::fake_array(cusci::dtype::float16, {4, 5}), 3),
                  cusci::runtime_error);
  CHECK_THROWS_WITH_AS(nd::minimum_filter(x), doctest::Contains("no footprint provided"), cusci::runtime_error);
  const auto none = cusci::host_array::from(std::vector<std::uint8_t>(9, 0), {3, 3}).astype(cusci::dtype::bool_);
  CHECK_THROWS_WITH_AS(nd::maximum_filter(x, {}, {.footprint = none}),
                       doctest::Contains("All-zero footprint is not supported."), cusci::value_error);
  const auto cross = cusci::host_array::from(std::vector<std::uint8_t>{0, 1, 0, 1, 1, 1, 0, 1, 0}, {3, 3});
  CHECK_THROWS_WITH_AS(nd::maximum_filter(x, {}, {.footprint = cross, .mode = {nd::mode::wrap, nd::mode::reflect}}),
                       doctest::Contains("A sequence of modes is not supported for non-separable footprints"),
                       cusci::runtime_error);
  CHECK_THROWS_AS(nd::maximum_filter(x, {}, {.footprint = cross, .origin = 2}), cusci::value_error);
  CHECK_THROWS_WITH_AS(nd::maximum_filter(x, {}, {.footprint = cross, .axes = std::vector<int>{0}}),
                       doctest::Contains("footprint.ndim (2) must match len(axes) (1)"), cusci::runtime_error);
  CHECK_THROWS_WITH_AS(nd::minimum_filter1d(cusci::testing::fake_array(cusci::dtype::complex64, {4}), 3),
                       doctest::Contains("Complex type not supported"), cusci::type_error);
  CHECK_THROWS_AS(nd::maximum_filter(cusci::testing::fake_array(cusci::dtype::complex128, {4, 5}), 3),
                  cusci::type_error);
  CHECK_THROWS_AS(nd::maximum_filter1d(x, 3, 0, {.origin = -2}), cusci::value_error);
}
