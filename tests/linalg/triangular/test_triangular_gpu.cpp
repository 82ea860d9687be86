// GPU tests of cusci::linalg's triangular family against scipy.linalg 1.18
// (tests/golden/gen_linalg_triangular.py): solve_triangular (every trans, lower, unit_diagonal, sizes 1 to
// 100 on the warp kernel and 64 to 80 with >= 8 columns on cuBLAS's trsmBatched, batches, broadcasting,
// dtype promotion), cho_factor / cho_solve (both paths), solve_banded (several (l, u) on the thread and
// warp paths, pivoting, the 1 x 1 special case), solveh_banded / cholesky_banded / cho_solve_banded (kd 0
// to 5, both forms, thread and warp factorizations), bandwidth, issymmetric and ishermitian (exact and with tolerances), in C, F and strided layouts,
// empty inputs and every error; then a non-blocking stream, error messages and untouched inputs.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

#include "cusci/linalg/triangular.hpp"
#include "cusci/stream.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden;
using cusci::testing::golden_case;

namespace {

const std::string mod = "linalg_triangular";

/// A copy of `h` (..., n, n) that keeps the entries of one part of each matrix and zeroes the rest: with
/// `factor`, the triangle chosen by `lower` (diagonal included), else the strictly opposite triangle.
host_array triangle_part(const host_array& h, bool lower, bool factor) {
  host_array r = h;
  if (h.ndim() < 2) return r;
  const std::int64_t n = h.shape().back(), m = h.shape()[h.ndim() - 2];
  const std::size_t item = itemsize(h.dtype());
  auto* p = static_cast<std::byte*>(r.data());
  const std::int64_t nmat = n * m == 0 ? 0 : h.size() / (n * m);
  for (std::int64_t b = 0; b < nmat; ++b)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const bool in_factor = lower ? j <= i : j >= i;
        if (in_factor != factor) std::memset(p + static_cast<std::size_t>((b * m + i) * n + j) * item, 0, item);
      }
  return r;
}

/// cho_factor's c against SciPy's: the factor's triangle with the case's tolerances (a different Cholesky
/// implementation rounds differently), the other triangle exactly (SciPy's zeros, or the cast input's
/// entries for a 2-d input it casts: no arithmetic involved).
void check_cho_factor(const ndarray& c, const host_array& expected, bool lower, double rtol, double atol) {
  const host_array h = to_host(c);
  {
    INFO("the factor's triangle");
    cusci::testing::check_allclose(triangle_part(h, lower, true), triangle_part(expected, lower, true), rtol, atol);
  }
  {
    INFO("the other triangle");
    cusci::testing::check_allclose(triangle_part(h, lower, false), triangle_part(expected, lower, false), 0.0, 0.0);
  }
}

std::optional<double> opt(const golden_case& c, const std::string& key) {
  if (!c.has(key)) return std::nullopt;
  return c.get<double>(key);
}

/// Runs one case; returns the result (the lower bandwidth for bandwidth) or nothing on expected errors.
void run_case(const golden_case& c) {
  INFO("case " << c.name());
  const std::string layout = c.get<std::string>("layout");
  const std::string f = c.func();
  auto in = [&](const char* key) { return to_device(c.array(key), layout); };
  const bool check = c.get_or<bool>("check_finite", true);
  const bool lower = c.get_or<bool>("lower", false);
  if (f == "bandwidth") {
    auto call = [&] { return linalg::bandwidth(in("a")); };
    if (c.expects_error()) {
      cusci::testing::check_error(c, call);
      return;
    }
    std::pair<ndarray, ndarray> r;
    REQUIRE_NOTHROW(r = call());
    cusci::testing::check_allclose(r.first, c.array("expected_lower"), 0.0, 0.0);
    cusci::testing::check_allclose(r.second, c.array("expected_upper"), 0.0, 0.0);
    return;
  }
  if (f == "cho_factor") {
    auto call = [&] { return linalg::cho_factor(in("a"), {.lower = lower, .check_finite = check}); };
    if (c.expects_error()) {
      expect_error(c, call);
    } else {
      linalg::cho_factor_result r;
      REQUIRE_NOTHROW(r = call());
      CHECK(r.lower == lower);
      check_cho_factor(r.c, c.array("expected"), lower, c.rtol(), c.atol());
    }
    return;
  }
  auto call = [&]() -> ndarray {
    if (f == "solve_triangular")
      return linalg::solve_triangular(in("a"), in("b"),
                                      {.trans = linalg::parse_transpose_mode(c.get<std::string>("trans")),
                                       .lower = lower,
                                       .unit_diagonal = c.get<bool>("unit_diagonal"),
                                       .check_finite = check});
    if (f == "cho_solve") return linalg::cho_solve({in("c"), lower}, in("b"), {.check_finite = check});
    if (f == "solve_banded")
      return linalg::solve_banded({c.get<std::int64_t>("l"), c.get<std::int64_t>("u")}, in("ab"), in("b"),
                                  {.check_finite = check});
    if (f == "solveh_banded")
      return linalg::solveh_banded(in("ab"), in("b"), {.lower = lower, .check_finite = check});
    if (f == "cholesky_banded") return linalg::cholesky_banded(in("ab"), {.lower = lower, .check_finite = check});
    if (f == "cho_solve_banded")
      return linalg::cho_solve_banded({in("cb"), lower}, in("b"), {.check_finite = check});
    const linalg::symmetry_options so{.atol = opt(c, "atol_"), .rtol = opt(c, "rtol_")};
    if (f == "issymmetric") return linalg::issymmetric(in("a"), so);
    if (f == "ishermitian") return linalg::ishermitian(in("a"), so);
    FAIL("unknown func " << f);
    return {};
  };
  if (c.expects_error()) {
    expect_error(c, call);
  } else {
    ndarray x;
    REQUIRE_NOTHROW(x = call());
    cusci::testing::check_allclose(x, c.array("expected"), c.rtol(), c.atol());
  }
}

}  // namespace

TEST_CASE("triangular family matches scipy.linalg (references)") {
  const auto& cases = cusci::testing::cases(mod);
  REQUIRE(cases.size() > 700);
  for (const auto& c : cases) run_case(c);
}

TEST_CASE("triangular family on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"st_c128_n40_l1_t2", "st_f64_n100_l0_t1", "cs_c64_n17_l1", "sb_f64_n60_l4u2",
                                  "shb_c128_n50_kd5_l0", "cb_f32_n17_kd2_l1", "csb_f64_n50_kd1_l1", "bw_batch_c64",
                                  "ishermitian_herm_atol", "st_singular", "cb_notpd", "st_blas_c128_n64_l1_tC_u0",
                                  "cs_blas_f64_l1", "sb_batch_warp"}, run_case);
}

TEST_CASE("triangular family: error messages follow SciPy's") {
  {
    const ndarray a = asarray(golden(mod, "st_singular_a")), b = asarray(golden(mod, "st_singular_b"));
    CHECK_THROWS_WITH_AS(linalg::solve_triangular(a, b),
                         doctest::Contains("cusci::linalg::solve_triangular: singular matrix: resolution failed at "
                                           "diagonal 2"),
                         linalg::lin_alg_error);
  }
  {
    const ndarray a = asarray(golden(mod, "st_nan_a_a")), b = asarray(golden(mod, "st_nan_a_b"));
    CHECK_THROWS_WITH_AS(linalg::solve_triangular(a, b),
                         "cusci::linalg::solve_triangular: array must not contain infs or NaNs", value_error);
    // without the check: no value_error (the NaN is outside the used triangle)
    CHECK_NOTHROW((void)linalg::solve_triangular(a, b, {.check_finite = false}));
  }
  {
    const ndarray ab = asarray(golden(mod, "sb_singular_ab")), b = asarray(golden(mod, "sb_singular_b"));
    CHECK_THROWS_WITH_AS(linalg::solve_banded({1, 1}, ab, b), "cusci::linalg::solve_banded: singular matrix",
                         linalg::lin_alg_error);
  }
  {
    const ndarray ab = asarray(golden(mod, "cb_notpd_ab"));
    CHECK_THROWS_WITH_AS(linalg::cholesky_banded(ab),
                         "cusci::linalg::cholesky_banded: 5-th leading minor not positive definite",
                         linalg::lin_alg_error);
    CHECK_THROWS_WITH_AS(linalg::solveh_banded(ab, asarray(golden(mod, "shb_notpd_b"))),
                         "cusci::linalg::solveh_banded: 5th leading minor not positive definite",
                         linalg::lin_alg_error);
  }
  {
    const ndarray a = asarray(golden(mod, "cf_notpd_a"));
    CHECK_THROWS_WITH_AS(linalg::cho_factor(a), doctest::Contains("cusci::linalg::cho_factor: Internal potrf return"),
                         linalg::lin_alg_error);
  }
}

TEST_CASE("triangular family: inputs are not modified") {
  const host_array ha = golden(mod, "st_f64_n17_l0_t0_a"), hb = golden(mod, "st_f64_n17_l0_t0_b");
  const ndarray a = asarray(ha), b = asarray(hb);
  (void)linalg::solve_triangular(a, b, {.overwrite_b = true});
  cusci::testing::check_allclose(a, ha, 0.0, 0.0);
  cusci::testing::check_allclose(b, hb, 0.0, 0.0);
  const host_array hab = golden(mod, "shb_f64_n17_kd2_l0_ab");
  const ndarray ab = asarray(hab);
  (void)linalg::solveh_banded(ab, asarray(golden(mod, "shb_f64_n17_kd2_l0_b")));
  (void)linalg::cholesky_banded(ab);
  cusci::testing::check_allclose(ab, hab, 0.0, 0.0);
}

TEST_CASE("cho_factor then cho_solve solves the system") {
  // round trip without SciPy in the middle: cho_solve(cho_factor(a), b) == golden cho_solve of SciPy's factor
  const ndarray a = asarray(golden(mod, "cf_f64_n17_l1_a"));
  const linalg::cho_factor_result f = linalg::cho_factor(a, {.lower = true});
  const host_array expected = golden(mod, "cs_f64_n17_l1_x");
  const ndarray x = linalg::cho_solve(f, asarray(golden(mod, "cs_f64_n17_l1_b")));
  cusci::testing::check_allclose(x, expected, 1e-10, 1e-10);
}
