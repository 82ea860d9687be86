// GPU tests of cusci::linalg::ldl against scipy.linalg 1.18 (tests/golden/gen_linalg_ldl.py): every case of
// the references (dtypes, orders 0 to 70 on both sides of cuSOLVER's blocking, lower/upper, Hermitian and
// complex symmetric, forced 2x2 pivots, batches, C/F/strided layouts, promotion, ComplexWarning, non-finite
// input, bad shapes, empty arrays), on the null stream and on a non-blocking stream.

#include <doctest/doctest.h>

#include <string>

#include "cusci/linalg/ldl.hpp"
#include "cusci/warnings.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;

namespace {

const std::string mod = "linalg_ldl";

void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  const ndarray a = to_device(c.array("a"), c.get<std::string>("layout"));
  const linalg::ldl_options o{.lower = c.get<bool>("lower"),
                              .hermitian = c.get<bool>("hermitian"),
                              .check_finite = c.get<bool>("check_finite")};
  if (c.expects_error()) return expect_error(c, [&] { return linalg::ldl(a, o); });
  warning_capture w;
  linalg::ldl_result r;
  REQUIRE_NOTHROW(r = linalg::ldl(a, o));
  int nwarn = 0;
  for (const auto& x : w.warnings()) nwarn += x.category == "ComplexWarning";
  CHECK(nwarn == c.get<int>("complex_warnings"));
  check_output(c, r.lu, "expected_lu");
  check_output(c, r.d, "expected_d");
  INFO("output perm");
  cusci::testing::check_allclose(r.perm, c.array("expected_perm"), 0, 0);
}

}  // namespace

TEST_CASE("ldl matches scipy.linalg.ldl (references)") { run_func_cases(mod, "ldl", 120, run_case); }

TEST_CASE("ldl on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"ldl_f64_n8_l1_h1", "ldl_c128_n33_l0_h1", "ldl_c64_n70_l1_h0", "ldl_nan"},
                            run_case);
}

TEST_CASE("ldl's messages") {
  const ndarray a = asarray(cusci::testing::golden(mod, "ldl_zero_batch_a"));
  CHECK_THROWS_WITH_AS(linalg::ldl(a), doctest::Contains("`ldl` does not support zero-size batches"), value_error);
  const ndarray nan = asarray(cusci::testing::golden(mod, "ldl_nan_a"));
  CHECK_THROWS_WITH_AS(linalg::ldl(nan), "cusci::linalg::ldl: array must not contain infs or NaNs", value_error);
}
