// GPU tests of cusci::linalg::solve and cholesky against scipy.linalg 1.18 (tests/golden/gen_linalg.py):
// every case of the manifest (dtypes, sizes 0 to 100 on both the register-kernel and the cuSOLVER paths,
// batches, C/F/strided layouts, every assume_a, lower, transposed, broadcasting, dtype promotion,
// singular / not positive definite / non-finite inputs, empty arrays), on the null stream and on a
// non-blocking stream.

#include <doctest/doctest.h>

#include <string>

#include "cusci/linalg/linalg.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::golden;

namespace {

const std::string mod = "linalg";

ndarray to_device(const host_array& h, const std::string& layout) {
  ndarray d = asarray(h);
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{std::nullopt, std::nullopt, 2}}];
  return d;
}

linalg::matrix_structure structure(const std::string& s) { return linalg::parse_matrix_structure(s); }

/// Runs one manifest row; returns a description for failure messages.
void run_case(const std::map<std::string, std::string>& row) {
  const std::string c = row.at("case");
  const std::string layout = row.at("layout");
  const bool lower = row.at("lower") == "1";
  const bool check_finite = row.at("check_finite") == "1";
  const std::string expect = row.at("expect");
  INFO("case " << c);
  const ndarray a = to_device(golden(mod, c + "_a"), layout);
  auto call = [&]() -> ndarray {
    if (row.at("func") == "solve") {
      const ndarray b = to_device(golden(mod, c + "_b"), layout);
      return linalg::solve(a, b,
                           {.lower = lower,
                            .check_finite = check_finite,
                            .assume_a = structure(row.at("assume_a")),
                            .transposed = row.at("transposed") == "1"});
    }
    return linalg::cholesky(a, {.lower = lower, .check_finite = check_finite});
  };
  if (expect == "lin_alg_error") {
    CHECK_THROWS_AS(call(), linalg::lin_alg_error);
  } else if (expect == "value_error") {
    CHECK_THROWS_AS(call(), value_error);
  } else {
    ndarray x;
    REQUIRE_NOTHROW(x = call());
    cusci::testing::check_allclose(x, golden(mod, c + "_x"), std::stod(row.at("rtol")), std::stod(row.at("atol")));
  }
}

}  // namespace

TEST_CASE("solve and cholesky match scipy.linalg (golden manifest)") {
  const auto rows = cusci::testing::manifest(mod);
  REQUIRE(rows.size() > 200);
  for (const auto& row : rows) run_case(row);
}

TEST_CASE("solve and cholesky on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  const auto rows = cusci::testing::manifest(mod);
  int n = 0;
  for (const auto& row : rows) {
    const std::string c = row.at("case");
    // one case of each path: register kernels, cuSOLVER, failures
    if (c == "solve_gen_f64_n8_bcol" || c == "solve_gen_f64_n100_bmat" || c == "solve_pos_f64_n33_l0" ||
        c == "chol_c128_n17_l1" || c == "chol_f64_n100_l0" || c == "solve_singular_batch" || c == "chol_notpd_batch") {
      run_case(row);
      ++n;
    }
  }
  CHECK(n == 7);
  s.synchronize();
}

TEST_CASE("error messages follow SciPy's") {
  // singular: flat batch index of the failing slice
  {
    const host_array h = golden(mod, "solve_singular_batch_a");
    const ndarray a = asarray(h), b = asarray(golden(mod, "solve_singular_batch_b"));
    CHECK_THROWS_WITH_AS(linalg::solve(a, b),
                         "cusci::linalg::solve: A singular matrix detected: slice(s) [1] are singular.",
                         linalg::lin_alg_error);
  }
  // not positive definite: first failing slice (2) and its leading minor order (5), as SciPy reports
  {
    const ndarray a = asarray(golden(mod, "chol_notpd_batch_a"));
    CHECK_THROWS_WITH_AS(linalg::cholesky(a), doctest::Contains("Internal potrf return info = [5] for slices [2]."),
                         linalg::lin_alg_error);
  }
  {
    const ndarray a = asarray(golden(mod, "solve_nan_a_a")), b = asarray(golden(mod, "solve_nan_a_b"));
    CHECK_THROWS_WITH_AS(linalg::solve(a, b), "cusci::linalg::solve: array must not contain infs or NaNs",
                         value_error);
    // without the check, no value_error (SciPy: garbage in, garbage out)
    bool value_err = false;
    try {
      (void)linalg::solve(a, b, {.check_finite = false});
    } catch (const value_error&) {
      value_err = true;
    } catch (const linalg::lin_alg_error&) {
    }
    CHECK_FALSE(value_err);
  }
}

TEST_CASE("inputs are not modified") {
  const host_array ha = golden(mod, "solve_gen_f64_n8_bmat_a");
  const ndarray a = asarray(ha), b = asarray(golden(mod, "solve_gen_f64_n8_bmat_b"));
  (void)linalg::solve(a, b, {.overwrite_a = true, .overwrite_b = true});
  (void)linalg::cholesky(asarray(golden(mod, "chol_f64_n8_l0_a")), {.overwrite_a = true});
  cusci::testing::check_allclose(a, ha, 0, 0);
}
