// GPU tests of cusci::sparse::linalg's lsqr and lsmr against SciPy 1.18.1
// (tests/golden/gen_sparse_linalg_lsq.py): solutions, istop codes, iteration counts and SciPy's norm
// and condition estimates on random tall / wide / square / rank-deficient matrices, 2-D Poisson and
// convection-diffusion problems, lp_e226, west0479 (as stored and with unit column norms) and the
// complex young1c; float32 / float64 / complex64 / complex128; damped problems, x0, b as [m, 1], integer
// and complex right-hand sides, calc_var, the breakdowns (b == 0, A^H b == 0, n == 0, no iteration);
// the same cases through an operator given by functions (the unfused path); a non-default stream;
// SciPy's errors.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/products.hpp"
#include "cusci/stream.hpp"
#include "lsq_test_util.hpp"

using namespace cusci;
using namespace cusci::lsq_test;

namespace {

sparse::csr_matrix device_matrix(const case_t& c) {
  const std::string g = c.get<std::string>("matrix");
  return sparse::csr_matrix(asarray(garray(g + "_data")), asarray(garray(g + "_indices")),
                            asarray(garray(g + "_indptr")), sparse::matrix_options{.shape = shape_of(c)});
}

ndarray device_b(const case_t& c) {
  ndarray b = asarray(c.array("b"));
  if (c.get_or<bool>("b_2d", false)) b = b.reshape({b.size(), 1});
  return b;
}

std::optional<ndarray> device_x0(const case_t& c) {
  if (!c.has("x0")) return std::nullopt;
  return asarray(c.array("x0"));
}

// The matrix as an operator given by functions (real dtypes only: linear_operator's function form
// takes float32/float64), so that the solvers take their unfused path.
la::linear_operator function_operator(const sparse::csr_matrix& A) {
  const sparse::csr_matrix AH(sparse::conj_transpose(A));
  return la::linear_operator(
      A.shape(), A.dtype(), [A](const ndarray& x) { return A.dot(x); }, [AH](const ndarray& x) { return AH.dot(x); });
}

void run_lsqr(const case_t& c, const la::linear_operator& A) {
  la::lsqr_options o = lsqr_opts(c);
  o.x0 = device_x0(c);
  const la::lsqr_result r = la::lsqr(A, device_b(c), o);
  check_result(c, r.x, r.istop, r.itn,
               {{"r1norm", r.r1norm}, {"r2norm", r.r2norm}, {"anorm", r.anorm}, {"acond", r.acond},
                {"arnorm", r.arnorm}, {"xnorm", r.xnorm}},
               r.history, r.r2norm);
  const host_array var = to_host(r.var);
  CHECK(dtype_name(var.dtype()) == c.get<std::string>("var_dtype"));
  REQUIRE(var.ndim() == 1);
  CHECK(var.shape()[0] == shape_of(c)[1]);
  if (c.has("var")) {
    const double tol = c.get<double>(r.itn == c.get<std::int64_t>("itn") ? "var_rtol" : "var_rtol_itn");
    const double err = rel_err(var, c.array("var"));
    CHECK_MESSAGE(err <= tol, "var relative error " << err << " > " << tol);
  } else {
    double mx = 0;
    for (std::int64_t i = 0; i < var.size(); ++i) mx = std::max(mx, std::abs(testing::element(var, i)));
    CHECK(mx == 0.0);
  }
}

void run_lsmr(const case_t& c, const la::linear_operator& A) {
  la::lsmr_options o = lsmr_opts(c);
  o.x0 = device_x0(c);
  const la::lsmr_result r = la::lsmr(A, device_b(c), o);
  check_result(c, r.x, r.istop, r.itn,
               {{"normr", r.normr}, {"normar", r.normar}, {"norma", r.norma}, {"conda", r.conda},
                {"normx", r.normx}},
               r.history, r.normr);
}

}  // namespace

TEST_CASE("lsqr matches SciPy on every reference case") {
  const auto cs = cases_of("lsqr");
  int n = 0;
  for (const auto& c : cs) {
    if (c.expects_error()) continue;
    CAPTURE(c.name());
    run_lsqr(c, device_matrix(c));
    ++n;
  }
  CHECK(n >= 70);
}

TEST_CASE("lsmr matches SciPy on every reference case") {
  const auto cs = cases_of("lsmr");
  int n = 0;
  for (const auto& c : cs) {
    if (c.expects_error()) continue;
    CAPTURE(c.name());
    run_lsmr(c, device_matrix(c));
    ++n;
  }
  CHECK(n >= 65);
}

TEST_CASE("lsqr and lsmr through an operator given by functions match SciPy") {
  int n = 0;
  for (const std::string func : {"lsqr", "lsmr"}) {
    for (const auto& c : cases_of(func)) {
      if (c.expects_error()) continue;
      const sparse::csr_matrix A = device_matrix(c);
      if (is_complex(A.dtype())) continue;
      CAPTURE(c.name());
      if (func == "lsqr") run_lsqr(c, function_operator(A));
      else run_lsmr(c, function_operator(A));
      ++n;
    }
  }
  CHECK(n >= 100);
}

TEST_CASE("lsqr and lsmr run on the current stream") {
  // The first float64 case of each solver, on a non-blocking stream: the same answer.
  const cusci::stream s(true);
  const cusci::stream_guard g(s);
  for (const std::string func : {"lsqr", "lsmr"}) {
    for (const auto& c : cases_of(func)) {
      if (c.expects_error() || c.get<std::string>("x_dtype") != "float64" || c.get<std::int64_t>("itn") < 10)
        continue;
      CAPTURE(c.name());
      if (func == "lsqr") run_lsqr(c, device_matrix(c));
      else run_lsmr(c, device_matrix(c));
      break;
    }
  }
}

TEST_CASE("lsqr and lsmr raise SciPy's errors") {
  int n = 0;
  for (const std::string func : {"lsqr", "lsmr"}) {
    for (const auto& c : cases_of(func)) {
      if (!c.expects_error()) continue;
      CAPTURE(c.name());
      const sparse::csr_matrix A = device_matrix(c);
      const ndarray b = asarray(c.array("b"));
      const std::optional<ndarray> x0 = device_x0(c);
      if (func == "lsqr") {
        la::lsqr_options o;
        o.x0 = x0;
        testing::check_error(c, [&] { (void)la::lsqr(A, b, o); });
      } else {
        la::lsmr_options o;
        o.x0 = x0;
        testing::check_error(c, [&] { (void)la::lsmr(A, b, o); });
      }
      ++n;
    }
  }
  CHECK(n >= 7);
}
