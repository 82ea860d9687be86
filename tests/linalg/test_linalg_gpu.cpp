// GPU tests of cusci::linalg::solve and cholesky against scipy.linalg 1.18 (tests/golden/gen_linalg.py):
// every case of the references (dtypes, sizes 0 to 100 on both the register-kernel and the cuSOLVER paths,
// batches, C/F/strided layouts, every assume_a, lower, transposed, broadcasting, dtype promotion,
// singular / not positive definite / non-finite inputs, empty arrays), on the null stream and on a
// non-blocking stream.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cusci/linalg/linalg.hpp"
#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
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

/// The rcond values of a LinAlgWarning text ("... slice 0 has rcond = 1.2e-20,slice 1 has rcond = ...").
std::vector<double> rconds(const std::string& msg, std::string& skeleton) {
  std::vector<double> r;
  skeleton.clear();
  std::size_t p = 0;
  const std::string key = "rcond = ";
  while (true) {
    const std::size_t q = msg.find(key, p);
    if (q == std::string::npos) break;
    skeleton += msg.substr(p, q + key.size() - p) + "#";
    std::size_t end = q + key.size();
    while (end < msg.size() && msg[end] != ',' && !(msg[end] == '.' && end + 1 == msg.size())) ++end;
    r.push_back(std::stod(msg.substr(q + key.size(), end - q - key.size())));
    p = end;
  }
  skeleton += msg.substr(p);
  return r;
}

/// The warning text must be SciPy's, slice for slice; the rcond values are estimates (LAPACK's from its
/// own factors, cusci's from the device's), compared within a factor of 10, or both below 1e-30 (that far
/// below float64's epsilon an estimate is rounding noise of the factorization).
void check_warning_text(const std::string& got, const std::string& want) {
  std::string sg, sw;
  const std::vector<double> g = rconds(got, sg), w = rconds(want, sw);
  CHECK(sg == sw);
  REQUIRE(g.size() == w.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    INFO("rcond " << i << ": got " << g[i] << ", SciPy " << w[i]);
    if (w[i] == 0.0 || g[i] == 0.0) CHECK(g[i] == w[i]);
    else CHECK((std::abs(std::log10(g[i] / w[i])) < 1.0 || (g[i] < 1e-30 && w[i] < 1e-30)));
  }
}

/// Runs one case of the references.
void run_case(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const bool lower = c.get<bool>("lower");
  const bool check_finite = c.get<bool>("check_finite");
  INFO("case " << c.name());
  const ndarray a = to_device(c.array("a"), layout);
  auto call = [&]() -> ndarray {
    if (c.func() == "solve") {
      const ndarray b = to_device(c.array("b"), layout);
      return linalg::solve(a, b,
                           {.lower = lower,
                            .check_finite = check_finite,
                            .assume_a = c.has("assume_a")
                                            ? linalg::parse_matrix_structure(c.get<std::string>("assume_a"))
                                            : linalg::matrix_structure::auto_,
                            .transposed = c.get<bool>("transposed")});
    }
    return linalg::cholesky(a, {.lower = lower, .check_finite = check_finite});
  };
  if (c.error() == "lin_alg_error") {
    if (c.func() == "solve" && c.has("message")) {
      // SciPy's text: the singular slices' positions in its error list
      CHECK_THROWS_WITH_AS(call(), ("cusci::linalg::solve: " + c.get<std::string>("message")).c_str(),
                           linalg::lin_alg_error);
    } else {
      CHECK_THROWS_AS(call(), linalg::lin_alg_error);
    }
  } else if (c.expects_error()) {
    cusci::testing::check_error(c, call);
  } else {
    ndarray x;
    cusci::warning_capture wc;
    REQUIRE_NOTHROW(x = call());
    cusci::testing::check_allclose(x, c.array("expected"), c.rtol(), c.atol());
    if (c.func() == "solve") {
      if (c.has("warning")) {
        REQUIRE(wc.has(std::string(linalg::lin_alg_warning)));
        check_warning_text(wc.warnings().back().message, c.get<std::string>("warning"));
      } else {
        CHECK_FALSE(wc.has("LinAlgWarning"));
      }
    }
  }
}

}  // namespace

TEST_CASE("solve and cholesky match scipy.linalg (references)") {
  const auto& cases = cusci::testing::cases(mod);
  REQUIRE(cases.size() > 200);
  for (const auto& c : cases) run_case(c);
}

TEST_CASE("solve and cholesky on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  int n = 0;
  for (const auto& c : cusci::testing::cases(mod)) {
    const std::string name = c.name();
    // one case of each path: register kernels, cuSOLVER, failures
    if (name == "solve_gen_f64_n8_bcol" || name == "solve_gen_f64_n100_bmat" || name == "solve_pos_f64_n33_l0" ||
        name == "chol_c128_n17_l1" || name == "chol_f64_n100_l0" || name == "solve_singular_batch" ||
        name == "chol_notpd_batch") {
      run_case(c);
      ++n;
    }
  }
  CHECK(n == 7);
  s.synchronize();
}

TEST_CASE("error messages follow SciPy's") {
  // singular: SciPy 1.18.1 names the position of the singular slice in its error list (here the only entry)
  {
    const host_array h = golden(mod, "solve_singular_batch_a");
    const ndarray a = asarray(h), b = asarray(golden(mod, "solve_singular_batch_b"));
    CHECK_THROWS_WITH_AS(linalg::solve(a, b),
                         "cusci::linalg::solve: A singular matrix detected: slice(s) [0] are singular.",
                         linalg::lin_alg_error);
  }
  // ill-conditioned slices: one LinAlgWarning naming each (diagonal: SciPy reports max|a| * max|1/a|)
  {
    const ndarray a = asarray(golden(mod, "cond_diag_ill_n4_a")), b = asarray(golden(mod, "cond_diag_ill_n4_b"));
    cusci::warning_capture wc;
    (void)linalg::solve(a, b, {.assume_a = linalg::matrix_structure::diagonal});
    REQUIRE(wc.warnings().size() == 1);
    CHECK(wc.warnings()[0].category == "LinAlgWarning");
    CHECK(wc.warnings()[0].function == "cusci::linalg::solve");
    CHECK(wc.warnings()[0].message ==
          "An ill-conditioned matrix detected: slice 0 has rcond = 9.999999999999999e+17,slice 1 has rcond = "
          "9.999999999999999e+17.");
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
