// GPU tests of cusci::linalg's Schur-based matrix functions against scipy.linalg 1.18
// (tests/golden/gen_linalg_matfuncs_schur.py): every case (dtypes and SciPy's real/complex output rules,
// batches mixing real and complex slices, 1 x 1, 0-d, empty, singular inputs, C/F/strided layouts, errors),
// the values against SciPy's (principal roots and logarithms are unique), and the round trips
// sqrtm(A) @ sqrtm(A) = A and expm(logm(A)) = A.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>

#include "cusci/elementwise.hpp"
#include "cusci/linalg/matfuncs.hpp"
#include "cusci/linalg/matfuncs_schur.hpp"
#include "cusci/products.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;

namespace {

const std::string mod = "linalg_matfuncs_schur";
using cplx = std::complex<double>;

linalg::funm_function named(const std::string& f) {
  if (f == "exp") return [](cplx x) { return std::exp(x); };
  if (f == "sin") return [](cplx x) { return std::sin(x); };
  if (f == "cos") return [](cplx x) { return std::cos(x); };
  if (f == "sqrt") return [](cplx x) { return std::sqrt(x); };
  if (f == "square") return [](cplx x) { return x * x; };
  if (f == "log") return [](cplx x) { return std::log(x); };
  FAIL("unknown function " << f);
  return {};
}

double amax(const ndarray& x) {
  if (x.size() == 0) return 0;
  const host_array h = to_host(x.astype(dtype::complex128));
  const auto* p = h.data_as<cplx>();
  double m = 0;
  for (std::int64_t i = 0; i < h.size(); ++i) m = std::max(m, std::abs(p[i]));
  return m;
}

bool single(dtype t) { return t == dtype::float32 || t == dtype::complex64; }

/// ||x - a|| <= tol ||a|| for a round trip result x of a.
void check_round_trip(const ndarray& x, const ndarray& a, double tol) {
  const double r = amax(cusci::subtract(x.astype(dtype::complex128), a.astype(dtype::complex128)));
  CHECK(r <= tol * std::max(1.0, amax(a)));
}

void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  const std::string layout = c.get<std::string>("layout");
  const std::string f = c.func();
  const ndarray a = to_device(c.array("a"), layout);
  ndarray x;
  if (f == "sqrtm") {
    if (c.expects_error()) return expect_error(c, [&] { return linalg::sqrtm(a); });
    REQUIRE_NOTHROW(x = linalg::sqrtm(a));
    if (a.ndim() >= 2 && a.size() > 0 && c.name().find("zero") == std::string::npos)
      check_round_trip(cusci::matmul(x, x), a, single(x.dtype()) ? 1e-3 : 1e-9);
  } else if (f == "logm") {
    if (c.expects_error()) return expect_error(c, [&] { return linalg::logm(a); });
    REQUIRE_NOTHROW(x = linalg::logm(a));
    check_round_trip(linalg::expm(x), a, single(a.dtype()) ? 1e-4 : 1e-9);
  } else if (f == "funm") {
    const auto fn = named(c.get<std::string>("fname"));
    const bool disp = c.get<bool>("disp");
    if (c.expects_error()) return expect_error(c, [&] { return linalg::funm(a, fn, disp); });
    linalg::funm_result r;
    REQUIRE_NOTHROW(r = linalg::funm(a, fn, disp));
    x = r.F;
    if (!disp) {
      // SciPy's estimate depends on the Schur form's rounding: same order of magnitude.
      const host_array e = to_host(r.errest), ref = c.array("expected_err");
      REQUIRE(e.size() == ref.size());
      for (std::int64_t i = 0; i < e.size(); ++i) {
        const double u = e.data_as<double>()[i], v = ref.data_as<double>()[i];
        CHECK(u <= 100 * v);
        CHECK(v <= 100 * u);
      }
    }
  } else if (f == "signm") {
    if (c.expects_error()) return expect_error(c, [&] { return linalg::signm(a); });
    REQUIRE_NOTHROW(x = linalg::signm(a));
    // sign(A)^2 = I
    const std::int64_t n = x.shape()[x.ndim() - 1];
    check_round_trip(cusci::matmul(x, x), cusci::eye(n).broadcast_to(x.shape()), single(x.dtype()) ? 1e-2 : 1e-6);
  } else {
    const double t = c.get<double>("t");
    if (c.expects_error()) return expect_error(c, [&] { return linalg::fractional_matrix_power(a, t); });
    REQUIRE_NOTHROW(x = linalg::fractional_matrix_power(a, t));
  }
  REQUIRE(x.is_c_contiguous());
  check_output(c, x, "expected");
}

void run_func(const std::string& func, std::size_t at_least) { run_func_cases(mod, func, at_least, run_case); }

}  // namespace

TEST_CASE("sqrtm matches scipy.linalg.sqrtm") { run_func("sqrtm", 50); }
TEST_CASE("logm matches scipy.linalg.logm") { run_func("logm", 40); }
TEST_CASE("funm matches scipy.linalg.funm") { run_func("funm", 60); }
TEST_CASE("signm matches scipy.linalg.signm") { run_func("signm", 20); }
TEST_CASE("fractional_matrix_power matches scipy.linalg") { run_func("fractional_matrix_power", 40); }

TEST_CASE("the matfuncs_schur family on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"sqrtm_batch_mixed", "logm_f64_batch", "funm_c128_batch_err", "signm_f32_batch",
                                  "fmp_f64_batch"}, run_case);
}

TEST_CASE("messages follow SciPy's") {
  CHECK_THROWS_WITH_AS(linalg::sqrtm(asarray(cusci::testing::golden(mod, "sqrtm_1d_a"))),
                       "cusci::linalg::sqrtm: The input array must be at least two-dimensional", linalg::lin_alg_error);
  CHECK_THROWS_WITH_AS(linalg::logm(asarray(cusci::testing::golden(mod, "logm_nan_a"))),
                       "cusci::linalg::logm: array must not contain infs or NaNs", value_error);
}
