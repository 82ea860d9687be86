// GPU tests of cusci::signal's bsplines family against SciPy references (tests/golden/
// gen_signal_bsplines.py): every function over float32 / float64 / complex / integer inputs, 1-D,
// 2-D and N-D, C / F / strided layouts, sizes 1, 2, short and chunked (one- and two-level carry),
// lamb / lambda / precision values, evaluation points outside the knots, taps on host and device,
// a non-blocking stream for some cases, and SciPy's errors.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/signal/bsplines.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;
using case_t = testing::golden_case;

namespace {

const std::string kModule = "signal_bsplines";

ndarray input_of(const case_t& c, const std::string& key = "x") {
  ndarray d = asarray(c.array(key));
  const std::string layout = c.get_or<std::string>("layout", "C");
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{0, {}, 2}}];
  return d;
}

// Calls the case's function with its inputs; `device_taps` passes sepfir2d's taps as device arrays.
ndarray call(const case_t& c, bool device_taps) {
  const std::string f = c.func();
  if (f == "symiirorder1")
    return sig::symiirorder1(input_of(c), c.get<std::complex<double>>("c0"), c.get<std::complex<double>>("z1"),
                             c.get<double>("precision"));
  if (f == "symiirorder2")
    return sig::symiirorder2(input_of(c), c.get<double>("r"), c.get<double>("omega"), c.get<double>("precision"));
  if (f == "cspline1d") return sig::cspline1d(input_of(c), c.get<double>("lamb"));
  if (f == "qspline1d") return sig::qspline1d(input_of(c), c.get<double>("lamb"));
  if (f == "cspline2d") return sig::cspline2d(input_of(c), c.get<double>("lamb"), c.get<double>("precision"));
  if (f == "qspline2d") return sig::qspline2d(input_of(c), c.get<double>("lamb"), c.get<double>("precision"));
  if (f == "spline_filter") return sig::spline_filter(input_of(c), c.get<double>("lmbda"));
  if (f == "sepfir2d") {
    const host_array hr = c.array("hrow"), hc = c.array("hcol");
    if (device_taps) {
      const ndarray dr = asarray(hr), dc = asarray(hc);
      return sig::sepfir2d(input_of(c), dr, dc);
    }
    return sig::sepfir2d(input_of(c), hr, hc);
  }
  if (f == "gauss_spline") return sig::gauss_spline(input_of(c), c.get<double>("n"));
  if (f == "cspline1d_eval")
    return sig::cspline1d_eval(asarray(c.array("cj")), asarray(c.array("newx")), c.get<double>("dx"), c.get<double>("x0"));
  if (f == "qspline1d_eval")
    return sig::qspline1d_eval(asarray(c.array("cj")), asarray(c.array("newx")), c.get<double>("dx"), c.get<double>("x0"));
  FAIL("unknown function " << f);
  return {};
}

void run_func(const std::string& func, std::size_t min_cases) {
  const auto cases = testing::cases(kModule, func);
  REQUIRE(cases.size() >= min_cases);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const bool on_stream = (i % 3) == 2, device_taps = (i % 2) == 1;
    ++i;
    std::optional<stream_guard> g;
    if (on_stream) g.emplace(s);
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)call(c, device_taps); });
      continue;
    }
    const ndarray y = call(c, device_taps);
    const host_array expected = c.array("expected");
    testing::check_allclose(y, expected, c.rtol(), c.atol());
    if (func != "gauss_spline" && func != "cspline1d_eval" && func != "qspline1d_eval") CHECK(y.is_c_contiguous());
  }
}

}  // namespace

TEST_CASE("symiirorder1 matches SciPy") { run_func("symiirorder1", 50); }
TEST_CASE("symiirorder2 matches SciPy") { run_func("symiirorder2", 25); }
TEST_CASE("cspline1d matches SciPy") { run_func("cspline1d", 60); }
TEST_CASE("qspline1d matches SciPy") { run_func("qspline1d", 25); }
TEST_CASE("cspline2d matches SciPy") { run_func("cspline2d", 25); }
TEST_CASE("qspline2d matches SciPy") { run_func("qspline2d", 25); }
TEST_CASE("spline_filter matches SciPy") { run_func("spline_filter", 10); }
TEST_CASE("sepfir2d matches SciPy") { run_func("sepfir2d", 15); }
TEST_CASE("gauss_spline matches SciPy") { run_func("gauss_spline", 8); }
TEST_CASE("cspline1d_eval matches SciPy") { run_func("cspline1d_eval", 15); }
TEST_CASE("qspline1d_eval matches SciPy") { run_func("qspline1d_eval", 15); }

namespace {

std::vector<double> pattern(std::size_t n, unsigned seed) {
  std::vector<double> v(n);
  std::uint64_t st = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (std::size_t k = 0; k < n; ++k) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    v[k] = std::sin(0.01 * static_cast<double>(k)) + static_cast<double>(st >> 40) / static_cast<double>(1ull << 24) - 0.5;
  }
  return v;
}

}  // namespace

// Self-consistency on sizes the references keep small: long lines (thousands of chunks, the
// two-level carry with many groups) and large images.
TEST_CASE("cspline1d / qspline1d then their eval reproduce a long signal") {
  // Interpolating splines: evaluating at the knots gives the signal back.
  const std::size_t n = std::size_t{1} << 20;
  const std::vector<double> v = pattern(n, 1);
  const ndarray x = asarray(v);
  const ndarray knots = arange(0.0, static_cast<double>(n), 1.0, dtype::float64);
  testing::check_allclose(sig::cspline1d_eval(sig::cspline1d(x), knots), host_array::from(v), 1e-9, 1e-9);
  testing::check_allclose(sig::qspline1d_eval(sig::qspline1d(x), knots), host_array::from(v), 1e-9, 1e-9);
}

TEST_CASE("cspline2d equals symiirorder1 along rows, then along columns") {
  // SciPy's definition; the column pass of cspline2d (strided kernel) against the row pass of
  // symiirorder1 (tiled kernel) on the transposed data, given as a non-contiguous view.
  const std::int64_t M = 600, N = 700;
  const ndarray x = asarray(pattern(static_cast<std::size_t>(M * N), 2), {M, N});
  const double r = -2 + std::sqrt(3.0);
  const ndarray a = sig::cspline2d(x);
  const ndarray t = sig::symiirorder1(x, -6 * r, r, 1e-6);
  const ndarray u = sig::symiirorder1(t.T(), -6 * r, r, 1e-6);
  testing::check_allclose(ascontiguousarray(u.T()), to_host(a), 1e-12, 1e-12);
  // float32 against float64 through the smoothing (second-order) path, at the same precision
  // (float32's default, 1e-3, truncates the initial sums visibly: SciPy differs by ~0.07 there too).
  const ndarray a32 = sig::cspline2d(x.astype(dtype::float32), 2.0, 1e-6);
  const ndarray a64 = sig::cspline2d(x, 2.0, 1e-6);
  CHECK(a32.dtype() == dtype::float32);
  testing::check_allclose(a32, to_host(a64), 1e-4, 1e-4, false);
}

TEST_CASE("symiirorder2 in float32 agrees with float64 on long rows") {
  const ndarray x = asarray(pattern(3 * 200000, 3), {3, 200000});
  const ndarray y64 = sig::symiirorder2(x, 0.6, 0.7);
  const ndarray y32 = sig::symiirorder2(x.astype(dtype::float32), 0.6, 0.7);
  CHECK(y32.dtype() == dtype::float32);
  testing::check_allclose(y32, to_host(y64), 1e-3, 5e-3, false);
  // Complex data through the real view: real and imaginary parts filtered independently.
  const ndarray z = sig::symiirorder1(x.astype(dtype::complex128), 0.5, 0.4);
  testing::check_allclose(ndarray(real(z)), to_host(sig::symiirorder1(x, 0.5, 0.4)), 1e-12, 1e-12, false);
}
