// GPU tests of cusci::linalg's matrix equation solvers against scipy.linalg 1.18
// (tests/golden/gen_linalg_equations.py): every case (dtypes and promotion, 1 x 1 to 50 x 50, broadcast
// batches, C/F/strided layouts, empty inputs, errors), the values against SciPy's (the solutions are
// unique) and the residuals of the equations scaled by the norms.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <optional>
#include <string>

#include "cusci/elementwise.hpp"
#include "cusci/linalg/equations.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/products.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;

namespace {

const std::string mod = "linalg_equations";

ndarray ct(const ndarray& x) { return cusci::conj(cusci::swapaxes(x, x.ndim() - 2, x.ndim() - 1)); }

/// max |x| over all elements (host).
double amax(const ndarray& x) {
  if (x.size() == 0) return 0;
  const host_array h = to_host(x.astype(dtype::complex128));
  const auto* p = h.data_as<std::complex<double>>();
  double m = 0;
  for (std::int64_t i = 0; i < h.size(); ++i) m = std::max(m, std::abs(p[i]));
  return m;
}

/// ||lhs - rhs||_max <= tol (||terms||_max) with tol by the result's precision.
void check_residual(const ndarray& lhs, const ndarray& rhs, double scale, dtype dt) {
  const bool single = dt == dtype::float32 || dt == dtype::complex64;
  const double r = amax(cusci::subtract(lhs.astype(dtype::complex128), rhs.astype(dtype::complex128)));
  CHECK(r <= (single ? 1e-3 : 1e-9) * std::max(1.0, scale));
}

void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  const std::string layout = c.get<std::string>("layout");
  const std::string f = c.func();
  const ndarray a = to_device(c.array("a"), layout);
  const ndarray q = to_device(c.array("q"), layout);
  if (f == "solve_continuous_are" || f == "solve_discrete_are") {
    const ndarray b = to_device(c.array("b"), layout), r = to_device(c.array("r"), layout);
    linalg::are_options o;
    if (c.has("e")) o.e = to_device(c.array("e"), layout);
    if (c.has("s")) o.s = to_device(c.array("s"), layout);
    o.balanced = c.get<bool>("balanced");
    auto call = [&] {
      return f == "solve_continuous_are" ? linalg::solve_continuous_are(a, b, q, r, o)
                                         : linalg::solve_discrete_are(a, b, q, r, o);
    };
    if (c.expects_error()) return expect_error(c, call);
    ndarray x;
    REQUIRE_NOTHROW(x = call());
    REQUIRE(x.is_c_contiguous());
    // Hermitian solution
    check_residual(x, ct(x), amax(x), x.dtype());
    return check_output(c, x, "expected");
  }
  ndarray x;
  if (f == "solve_sylvester") {
    const ndarray b = to_device(c.array("b"), layout);
    if (c.expects_error()) return expect_error(c, [&] { return linalg::solve_sylvester(a, b, q); });
    REQUIRE_NOTHROW(x = linalg::solve_sylvester(a, b, q));
    if (x.size() > 0) {
      const ndarray lhs = cusci::add(cusci::matmul(a, x), cusci::matmul(x, b));
      check_residual(lhs, q.broadcast_to(x.shape()), amax(a) * amax(x) + amax(b) * amax(x) + amax(q), x.dtype());
    }
  } else if (f == "solve_continuous_lyapunov" || f == "solve_lyapunov") {
    auto call = [&] {
      return f == "solve_lyapunov" ? linalg::solve_lyapunov(a, q) : linalg::solve_continuous_lyapunov(a, q);
    };
    if (c.expects_error()) return expect_error(c, call);
    REQUIRE_NOTHROW(x = call());
    if (x.size() > 0 && a.ndim() >= 2) {
      const ndarray lhs = cusci::add(cusci::matmul(a, x), cusci::matmul(x, ct(a)));
      check_residual(lhs, q.broadcast_to(x.shape()), 2 * amax(a) * amax(x) + amax(q), x.dtype());
    }
  } else {
    linalg::solve_discrete_lyapunov_options o;
    if (c.has("method")) o.method = c.get<std::string>("method");
    if (c.expects_error()) return expect_error(c, [&] { return linalg::solve_discrete_lyapunov(a, q, o); });
    REQUIRE_NOTHROW(x = linalg::solve_discrete_lyapunov(a, q, o));
    if (x.size() > 0) {
      const ndarray lhs = cusci::subtract(x, cusci::matmul(cusci::matmul(a, x), ct(a)));
      check_residual(lhs, q.broadcast_to(x.shape()), amax(a) * amax(a) * amax(x) + amax(q), x.dtype());
    }
  }
  REQUIRE(x.is_c_contiguous());
  check_output(c, x, "expected");
}

void run_func(const std::string& func, std::size_t at_least) { run_func_cases(mod, func, at_least, run_case); }

}  // namespace

TEST_CASE("solve_sylvester matches scipy.linalg.solve_sylvester") { run_func("solve_sylvester", 30); }
TEST_CASE("solve_continuous_lyapunov matches scipy.linalg") { run_func("solve_continuous_lyapunov", 30); }
TEST_CASE("solve_lyapunov matches scipy.linalg.solve_lyapunov") { run_func("solve_lyapunov", 20); }
TEST_CASE("solve_discrete_lyapunov matches scipy.linalg") { run_func("solve_discrete_lyapunov", 40); }

TEST_CASE("solve_continuous_are matches scipy.linalg") { run_func("solve_continuous_are", 25); }
TEST_CASE("solve_discrete_are matches scipy.linalg") { run_func("solve_discrete_are", 25); }

TEST_CASE("the equations family on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"syl_f64_batch", "syl_c64_batch", "clyap_f32_batch", "lyap_c128_batch",
                                  "dlyap_bilinear_batch", "dlyap_f64_batch", "care_batch", "dare_e_s"}, run_case);
}

TEST_CASE("inputs are not modified") {
  const auto cs = cusci::testing::cases(mod, "solve_sylvester");
  const auto& c = cs.front();
  const host_array ha = c.array("a"), hb = c.array("b"), hq = c.array("q");
  const ndarray a = asarray(ha), b = asarray(hb), q = asarray(hq);
  (void)linalg::solve_sylvester(a, b, q);
  cusci::testing::check_allclose(a, ha, 0, 0);
  cusci::testing::check_allclose(b, hb, 0, 0);
  cusci::testing::check_allclose(q, hq, 0, 0);
}
