// GPU tests of cusci::linalg's LU family against scipy.linalg 1.18 (tests/golden/gen_linalg_lu.py): every
// case of the references (dtypes, sizes 0 to 100 on the register-kernel, cuBLAS batched and cuSOLVER paths,
// rectangular matrices, batches and broadcasting, C/F/strided layouts, every option, promotion, singular and
// non-finite inputs, empty arrays), on the null stream and on a non-blocking stream.

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "cusci/linalg/lu.hpp"
#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden;

namespace {

const std::string mod = "linalg_lu";

/// Runs one case of the references.
void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  const std::string layout = c.get<std::string>("layout");
  const bool check_finite = c.get<bool>("check_finite");
  const std::string f = c.func();
  if (f == "lu") {
    const ndarray a = to_device(c.array("a"), layout);
    const linalg::lu_options o{.permute_l = c.get<bool>("permute_l"),
                               .check_finite = check_finite,
                               .p_indices = c.get<bool>("p_indices")};
    if (c.expects_error()) return expect_error(c, [&] { return linalg::lu(a, o); });
    linalg::lu_result r;
    REQUIRE_NOTHROW(r = linalg::lu(a, o));
    if (!o.permute_l) {
      INFO("output p");
      cusci::testing::check_allclose(r.p, c.array("expected_p"), 0, 0);
    }
    check_output(c, r.l, "expected_l");
    check_output(c, r.u, "expected_u");
  } else if (f == "lu_factor") {
    const ndarray a = to_device(c.array("a"), layout);
    const linalg::lu_factor_options o{.check_finite = check_finite};
    if (c.expects_error()) return expect_error(c, [&] { return linalg::lu_factor(a, o); });
    warning_capture w;
    linalg::lu_factor_result r;
    REQUIRE_NOTHROW(r = linalg::lu_factor(a, o));
    CHECK(w.has("LinAlgWarning") == c.get<bool>("warns"));
    check_output(c, r.lu, "expected_lu");
    INFO("output piv");
    cusci::testing::check_allclose(r.piv, c.array("expected_piv"), 0, 0);
  } else if (f == "lu_solve") {
    const ndarray lu = to_device(c.array("lu"), layout), b = to_device(c.array("b"), layout);
    const ndarray piv = asarray(c.array("piv"));
    const linalg::lu_solve_options o{.trans = c.get<int>("trans"), .check_finite = check_finite};
    if (c.expects_error()) return expect_error(c, [&] { return linalg::lu_solve(lu, piv, b, o); });
    ndarray x;
    REQUIRE_NOTHROW(x = linalg::lu_solve({lu, piv}, b, o));
    check_output(c, x, "expected");
  } else if (f == "inv") {
    const ndarray a = to_device(c.array("a"), layout);
    const linalg::inv_options o{.check_finite = check_finite,
                                .assume_a = c.has("assume_a")
                                                ? linalg::parse_matrix_structure(c.get<std::string>("assume_a"))
                                                : linalg::matrix_structure::auto_,
                                .lower = c.get<bool>("lower")};
    if (c.expects_error()) return expect_error(c, [&] { return linalg::inv(a, o); });
    ndarray x;
    REQUIRE_NOTHROW(x = linalg::inv(a, o));
    check_output(c, x, "expected");
  } else if (f == "det") {
    const ndarray a = to_device(c.array("a"), layout);
    const linalg::det_options o{.check_finite = check_finite};
    if (c.expects_error()) return expect_error(c, [&] { return linalg::det(a, o); });
    ndarray x;
    REQUIRE_NOTHROW(x = linalg::det(a, o));
    check_output(c, x, "expected");
  } else {
    FAIL("unknown func " << f);
  }
}

void run_func(const std::string& func, std::size_t at_least) { run_func_cases(mod, func, at_least, run_case); }

}  // namespace

TEST_CASE("lu matches scipy.linalg.lu") { run_func("lu", 100); }
TEST_CASE("lu_factor matches scipy.linalg.lu_factor") { run_func("lu_factor", 40); }
TEST_CASE("lu_solve matches scipy.linalg.lu_solve") { run_func("lu_solve", 60); }
TEST_CASE("inv matches scipy.linalg.inv") { run_func("inv", 60); }
TEST_CASE("det matches scipy.linalg.det") { run_func("det", 50); }

TEST_CASE("the lu family on a non-blocking stream") {
  // one case of each path: register kernel, cuBLAS batched, cuSOLVER, rectangular loop, failures
  run_on_nonblocking_stream(mod, {"lu_f64_n8", "lu_f64_n64", "lu_rect_40x20_b1", "luf_f64_n50_2d", "lus_f64_n33_t1",
                                  "lus_f64_n60_vec", "inv_f64_n17", "inv_f64_n64", "inv_f64_n70_2d", "det_f64_n64",
                                  "inv_singular_batch_n40", "luf_singular_batch"}, run_case);
}

TEST_CASE("messages and warnings follow SciPy's") {
  {
    const ndarray a = asarray(golden(mod, "inv_singular_batch_a"));
    CHECK_THROWS_WITH_AS(linalg::inv(a), "cusci::linalg::inv: A singular matrix detected: slice(s) [1] are singular.",
                         linalg::lin_alg_error);
  }
  {
    const ndarray a = asarray(golden(mod, "inv_singular_batch_n40_a"));
    CHECK_THROWS_WITH_AS(linalg::inv(a), "cusci::linalg::inv: A singular matrix detected: slice(s) [2] are singular.",
                         linalg::lin_alg_error);
  }
  {
    warning_capture w;
    (void)linalg::lu_factor(asarray(golden(mod, "luf_singular_batch_a")));
    const auto ws = w.warnings();
    REQUIRE(ws.size() == 1);
    CHECK(ws[0].category == "LinAlgWarning");
    CHECK(ws[0].function == "cusci::linalg::lu_factor");
    CHECK(ws[0].message == "Diagonal number 2 is exactly zero. Singular matrix.");
  }
  {
    const ndarray a = asarray(golden(mod, "lu_nan_a"));
    CHECK_THROWS_WITH_AS(linalg::lu(a), "cusci::linalg::lu: array must not contain infs or NaNs", value_error);
    // without the check: no error
    CHECK_NOTHROW((void)linalg::lu(a, {.check_finite = false}));
    CHECK_NOTHROW((void)linalg::det(a, {.check_finite = false}));
  }
}

TEST_CASE("inputs are not modified") {
  const host_array ha = golden(mod, "inv_f64_n64_a");
  const ndarray a = asarray(ha);
  (void)linalg::inv(a, {.overwrite_a = true});
  (void)linalg::det(a, {.overwrite_a = true});
  (void)linalg::lu_factor(a, {.overwrite_a = true});
  (void)linalg::lu(a, {.overwrite_a = true});
  cusci::testing::check_allclose(a, ha, 0, 0);
}

TEST_CASE("det without check_finite is asynchronous and complete once read") {
  // Results computed asynchronously are complete once read (to_host synchronizes).
  const host_array h = golden(mod, "det_f64_n17_a");
  const ndarray a = asarray(h);
  const ndarray d = linalg::det(a, {.check_finite = false});
  cusci::testing::check_allclose(d, golden(mod, "det_f64_n17_x"), 1e-10, 0);
}
