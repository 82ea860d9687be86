// Host tests of cusci::ndimage's Fourier filters: SciPy's argument errors (tests/golden/gen_ndimage_fourier.py,
// C-layout error cases) are raised before any device work, so they run on array headers without
// memory; plus the checks SciPy has no counterpart for (an output array with a zero stride).

#include <doctest/doctest.h>

#include <string>

#include "cusci/error.hpp"
#include "fourier_cases.hpp"

namespace {

using cusci::testing::fake_array;

int run_errors(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_fourier", func)) {
    if (!c.expects_error() || c.get_or<std::string>("layout", "C") != "C") continue;
    INFO("case " << c.name());
    const cusci::host_array h = c.array("input");
    const auto x = fake_array(h.dtype(), h.shape());
    auto opts = fourier_test::options_of(c);
    if (c.has("out_array")) {
      cusci::shape_t shape = h.shape();
      if (c.has("out_shape")) shape = c.get<std::vector<std::int64_t>>("out_shape");
      opts.output = fake_array(cusci::dtype_from_string(c.get<std::string>("out_array")), shape);
    }
    if (c.get_or<bool>("inplace", false)) opts.output = x;
    fourier_test::check_throws(c, [&] { (void)fourier_test::call(c, x, opts); });
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("Fourier filters raise SciPy's errors before device work") {
  for (const auto& f : fourier_test::funcs()) {
    INFO(f);
    CHECK(run_errors(f) >= 10);
  }
}

TEST_CASE("sequence length errors name the parameter and the rank") {
  namespace nd = cusci::ndimage;
  const auto x = fake_array(cusci::dtype::complex128, {4, 5});
  try {
    (void)nd::fourier_gaussian(x, {1.0, 2.0, 3.0});
    FAIL("no exception");
  } catch (const cusci::runtime_error& e) {
    const std::string what = e.what();
    CHECK(what.find("cusci::ndimage::fourier_gaussian: sequence argument must have length equal to input rank") == 0);
    CHECK(what.find("sigma has 3 values") != std::string::npos);
  }
  CHECK_THROWS_AS((void)nd::fourier_shift(x, nd::per_axis<double>{}), cusci::runtime_error);
}

TEST_CASE("an output array with a zero stride is refused") {
  namespace nd = cusci::ndimage;
  const auto x = fake_array(cusci::dtype::complex128, {4, 5});
  const cusci::ndarray o(cusci::memory_ptr{}, cusci::dtype::complex128, {4, 5}, {0, 16}, 0, 0);
  CHECK_THROWS_AS((void)nd::fourier_uniform(x, 2.0, {.output = o}), cusci::value_error);
  CHECK_THROWS_AS((void)nd::fourier_shift(x, 2.0, {.output = o}), cusci::value_error);
}
