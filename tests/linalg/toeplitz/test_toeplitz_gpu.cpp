// GPU tests of cusci::linalg's toeplitz family against scipy.linalg 1.18
// (tests/golden/gen_linalg_toeplitz.py): solve_toeplitz (float32/64, complex, integer inputs, with and
// without r, orders 1 to 300, 1 to 40 right-hand sides, batches and broadcasting, singular leading
// minors, non-finite inputs), matmul_toeplitz (square and rectangular T, real and complex, batches,
// empty products) and solve_circulant (dtypes, caxis / baxis / outaxis, broadcasting, singular with
// raise / lstsq, tol), in C, F and strided layouts, with every error; then a non-blocking stream and
// untouched inputs.

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "cusci/linalg/toeplitz.hpp"
#include "cusci/stream.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden_case;

namespace {

const std::string mod = "linalg_toeplitz";

ndarray call_case(const golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const std::string f = c.func();
  auto in = [&](const char* key) { return to_device(c.array(key), layout); };
  auto cr = [&]() { return c.has("r") ? linalg::c_or_cr(in("c"), in("r")) : linalg::c_or_cr(in("c")); };
  if (f == "solve_toeplitz")
    return linalg::solve_toeplitz(cr(), in("b"), {.check_finite = c.get_or<bool>("check_finite", true)});
  if (f == "matmul_toeplitz")
    return linalg::matmul_toeplitz(cr(), in("x"), {.check_finite = c.get_or<bool>("check_finite", false)});
  if (f == "solve_circulant") {
    std::optional<double> tol;
    if (c.has("tol")) tol = c.get<double>("tol");
    return linalg::solve_circulant(in("c"), in("b"),
                                   {.singular = linalg::parse_circulant_singular(c.get<std::string>("singular")),
                                    .tol = tol,
                                    .caxis = c.get<int>("caxis"),
                                    .baxis = c.get<int>("baxis"),
                                    .outaxis = c.get<int>("outaxis")});
  }
  FAIL("unknown func " << f);
  return {};
}

void run_case(const golden_case& c) {
  INFO("case " << c.name());
  if (c.expects_error()) {
    expect_error(c, [&] { return call_case(c); });
  } else {
    ndarray x;
    REQUIRE_NOTHROW(x = call_case(c));
    cusci::testing::check_allclose(x, c.array("expected"), c.rtol(), c.atol());
  }
}

}  // namespace

TEST_CASE("toeplitz family matches scipy.linalg (references)") {
  const auto& cases = cusci::testing::cases(mod);
  REQUIRE(cases.size() > 400);
  for (const auto& c : cases) run_case(c);
}

TEST_CASE("toeplitz family on a non-blocking stream, inputs untouched") {
  run_on_nonblocking_stream(mod, {"st_f64_n100_r1_b100x40", "st_c128_n33_r0_b33x3", "st_batch_c2x1_r3_b",
                                  "mt_c128_m257_n129_r1_x129x5", "mt_batch_c2x1_r3", "sc_doc_broadcast",
                                  "sc_singular_lstsq_c"}, run_case);
}

TEST_CASE("toeplitz family never writes its inputs") {
  const host_array ch = cusci::testing::golden(mod, "st_f64_n17_r1_b17x3_c");
  const host_array rh = cusci::testing::golden(mod, "st_f64_n17_r1_b17x3_r");
  const host_array bh = cusci::testing::golden(mod, "st_f64_n17_r1_b17x3_b");
  const ndarray c = asarray(ch), r = asarray(rh), b = asarray(bh);
  (void)linalg::solve_toeplitz({c, r}, b);
  (void)linalg::matmul_toeplitz({c, r}, b);
  (void)linalg::solve_circulant(c, b);
  cusci::testing::check_allclose(c, ch, 0.0, 0.0);
  cusci::testing::check_allclose(r, rh, 0.0, 0.0);
  cusci::testing::check_allclose(b, bh, 0.0, 0.0);
}
