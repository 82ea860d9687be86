// GPU tests of cusci::linalg's matrix functions against scipy.linalg 1.18 (tests/golden/gen_linalg_matfuncs.py):
// every case of the references (every Pade order and scaling of expm and expm_frechet, mixed orders in one
// batch, orders 400 and above, diagonal and triangular matrices, dtypes and promotion, scalars, 1 x 1 and
// empty inputs, C/F/strided layouts, broadcasting, errors), on the null stream and on a non-blocking stream.

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "cusci/linalg/matfuncs.hpp"
#include "cusci/stream.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden;

namespace {

const std::string mod = "linalg_matfuncs";

void check(const cusci::testing::golden_case& c, const ndarray& x, const std::string& key) {
  INFO("output " << key);
  REQUIRE(x.is_c_contiguous());
  cusci::testing::check_allclose(x, c.array(key), c.rtol(), c.atol());
}

ndarray call_unary(const std::string& f, const ndarray& a) {
  if (f == "expm") return linalg::expm(a);
  if (f == "cosm") return linalg::cosm(a);
  if (f == "sinm") return linalg::sinm(a);
  if (f == "tanm") return linalg::tanm(a);
  if (f == "coshm") return linalg::coshm(a);
  if (f == "sinhm") return linalg::sinhm(a);
  if (f == "tanhm") return linalg::tanhm(a);
  FAIL("unknown func " << f);
  return {};
}

void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  const std::string layout = c.get<std::string>("layout");
  const std::string f = c.func();
  const ndarray a = to_device(c.array("a"), layout);
  if (f == "expm_frechet") {
    const ndarray e = to_device(c.array("e"), layout);
    const linalg::expm_frechet_options o{.method = linalg::parse_expm_frechet_method(c.get<std::string>("method")),
                                         .compute_expm = c.get<bool>("compute_expm"),
                                         .check_finite = c.get<bool>("check_finite")};
    if (c.expects_error()) return expect_error(c, [&] { return linalg::expm_frechet(a, e, o); });
    linalg::expm_frechet_result r;
    REQUIRE_NOTHROW(r = linalg::expm_frechet(a, e, o));
    // SciPy returns expm_frechet_AE alone without compute_expm; cusci's struct then holds a default
    // ndarray (shape (0,), no memory) as expm_A.
    if (o.compute_expm) check(c, r.expm_A, "expected_expm");
    else CHECK((r.expm_A.shape() == shape_t{0} && r.expm_A.size() == 0));
    check(c, r.expm_frechet_AE, "expected_frechet");
  } else if (f == "expm_cond") {
    const linalg::expm_cond_options o{.check_finite = c.get<bool>("check_finite")};
    if (c.expects_error()) return expect_error(c, [&] { return linalg::expm_cond(a, o); });
    ndarray k;
    REQUIRE_NOTHROW(k = linalg::expm_cond(a, o));
    check(c, k, "expected");
  } else {
    if (c.expects_error()) return expect_error(c, [&] { return call_unary(f, a); });
    ndarray x;
    REQUIRE_NOTHROW(x = call_unary(f, a));
    check(c, x, "expected");
  }
}

void run_func(const std::string& func, std::size_t at_least) { run_func_cases(mod, func, at_least, run_case); }

}  // namespace

TEST_CASE("expm matches scipy.linalg.expm") { run_func("expm", 140); }
TEST_CASE("cosm matches scipy.linalg.cosm") { run_func("cosm", 20); }
TEST_CASE("sinm matches scipy.linalg.sinm") { run_func("sinm", 20); }
TEST_CASE("tanm matches scipy.linalg.tanm") { run_func("tanm", 20); }
TEST_CASE("coshm matches scipy.linalg.coshm") { run_func("coshm", 20); }
TEST_CASE("sinhm matches scipy.linalg.sinhm") { run_func("sinhm", 20); }
TEST_CASE("tanhm matches scipy.linalg.tanhm") { run_func("tanhm", 20); }
TEST_CASE("expm_frechet matches scipy.linalg.expm_frechet") { run_func("expm_frechet", 50); }
TEST_CASE("expm_cond matches scipy.linalg.expm_cond") { run_func("expm_cond", 25); }

TEST_CASE("the matfuncs family on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"expm_f64_batch_mixed", "expm_f64_s6_n400", "expm_structures_batch",
                                  "tanm_c128_batch", "fr_f64_batch_mixed", "cond_batch"}, run_case);
}

TEST_CASE("messages follow SciPy's") {
  CHECK_THROWS_WITH_AS(linalg::expm(asarray(golden(mod, "expm_1d_a"))),
                       "cusci::linalg::expm: The input array must be at least two-dimensional",
                       linalg::lin_alg_error);
  CHECK_THROWS_WITH_AS(linalg::expm(asarray(golden(mod, "expm_nonsquare_a"))),
                       "cusci::linalg::expm: Last 2 dimensions of the array must be square", linalg::lin_alg_error);
  const ndarray nan = asarray(golden(mod, "fr_nan_a_a"));
  const ndarray ones = asarray(golden(mod, "fr_nan_a_e"));
  CHECK_THROWS_WITH_AS(linalg::expm_frechet(nan, ones),
                       "cusci::linalg::expm_frechet: array must not contain infs or NaNs", value_error);
  CHECK_THROWS_WITH_AS(linalg::expm_cond(nan), "cusci::linalg::expm_cond: array must not contain infs or NaNs",
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::expm_frechet(nan, ones, {.check_finite = false}),
                       "cusci::linalg::expm_frechet: cannot convert float NaN to integer", value_error);
}

TEST_CASE("inputs are not modified") {
  const host_array ha = golden(mod, "expm_f64_s6_n17_a");
  const ndarray a = asarray(ha);
  (void)linalg::expm(a);
  (void)linalg::cosm(a);
  (void)linalg::expm_frechet(a, a);
  cusci::testing::check_allclose(a, ha, 0, 0);
}
