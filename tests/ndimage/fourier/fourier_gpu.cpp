// GPU tests of cusci::ndimage's Fourier filters against SciPy 1.18.1 (tests/golden/gen_ndimage_fourier.py):
// fourier_gaussian, fourier_uniform, fourier_ellipsoid and fourier_shift on complex-FFT (n = -1) and
// real-FFT (n >= 0, the half axis on every axis) inputs of 1-D..4-D (1-D..3-D for the ellipsoid),
// complex64/complex128/float32/float64/integer/bool inputs, scalar and per-axis parameters, special
// values (0, negative, NaN, inf, the exp cutoff, n = 0), length-1 and zero-size axes, C/F/strided/
// reversed inputs, output dtypes, output arrays (C and F), in place, an output overlapping the input,
// and SciPy's errors.

#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "../ndimage_layouts.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "fourier_cases.hpp"

namespace {

using fourier_test::golden_case;

/// The output array a case asks for (out_array: dtype, out_order, out_shape), zero-filled.
cusci::ndarray output_array(const golden_case& c, const cusci::shape_t& in_shape) {
  cusci::shape_t shape = in_shape;
  if (c.has("out_shape")) shape = c.get<std::vector<std::int64_t>>("out_shape");
  const auto ord = c.get_or<std::string>("out_order", "C") == "F" ? cusci::order::F : cusci::order::C;
  return cusci::zeros(shape, cusci::dtype_from_string(c.get<std::string>("out_array")), ord);
}

/// Runs one case; checks values, dtype, shape and where the result went.
void run_case(const golden_case& c) {
  INFO("case " << c.name());
  const cusci::host_array h = c.array("input");
  auto opts = fourier_test::options_of(c);
  if (c.get_or<bool>("overlap", false)) {
    // input = big[:-1], output = big[1:]: the same memory, another view.
    REQUIRE(h.ndim() == 1);
    cusci::host_array hb(h.dtype(), {h.shape()[0] + 1});
    std::memcpy(hb.data(), h.data(), h.nbytes());
    std::memset(static_cast<char*>(hb.data()) + h.nbytes(), 0, hb.nbytes() - h.nbytes());
    const auto big = cusci::asarray(hb);
    const auto x = big[{cusci::slice{0, h.shape()[0]}}];
    const auto o = big[{cusci::slice{1, std::nullopt}}];
    opts.output = o;
    const auto y = fourier_test::call(c, x, opts);
    CHECK(y.data() == o.data());
    cusci::testing::check_allclose(o, c.array("expected"), c.rtol(), c.atol());
    return;
  }
  const auto x = ndimage_test::with_layout(cusci::asarray(h), c.get<std::string>("layout"));
  if (c.has("out_array")) opts.output = output_array(c, x.shape());
  if (c.get_or<bool>("inplace", false)) opts.output = x;
  if (c.expects_error()) {
    fourier_test::check_throws(c, [&] { (void)fourier_test::call(c, x, opts); });
    return;
  }
  const auto y = fourier_test::call(c, x, opts);
  if (opts.output.is_array()) {
    const auto& o = opts.output.array();
    CHECK(y.data() == o.data());
    CHECK(y.strides() == o.strides());
    cusci::testing::check_allclose(o, c.array("expected"), c.rtol(), c.atol());
  } else {
    CHECK(y.is_c_contiguous());
    cusci::testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
  }
}

int run_func(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_fourier", func)) {
    run_case(c);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("fourier_gaussian matches SciPy") { CHECK(run_func("fourier_gaussian") > 150); }
TEST_CASE("fourier_uniform matches SciPy") { CHECK(run_func("fourier_uniform") > 150); }
TEST_CASE("fourier_ellipsoid matches SciPy (rank 1..3, NotImplementedError beyond)") {
  CHECK(run_func("fourier_ellipsoid") > 120);
}
TEST_CASE("fourier_shift matches SciPy") { CHECK(run_func("fourier_shift") > 150); }

TEST_CASE("Fourier filters run on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  CHECK(run_func("fourier_shift") > 150);
  CHECK(run_func("fourier_ellipsoid") > 120);
  s.synchronize();
}

TEST_CASE("a Fourier filter leaves its input unchanged") {
  const auto cs = cusci::testing::cases("ndimage_fourier", "fourier_gaussian");
  const auto& c = cs.front();
  const cusci::host_array h = c.array("input");
  const auto x = cusci::asarray(h);
  (void)fourier_test::call(c, x, fourier_test::options_of(c));
  cusci::testing::check_allclose(x, h, 0.0, 0.0);
}
