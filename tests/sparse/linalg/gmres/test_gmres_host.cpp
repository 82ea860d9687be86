// Host tests of cusci::sparse::linalg's long-recurrence Krylov solvers: every argument check raises its
// typed exception naming the function before any device work (data-less arrays), SciPy's option
// strings parse, and the Hessenberg least-squares helpers (Givens rotations, SciPy gmres's
// pseudo-solve, the triangular solve, H y) give the values of a hand-worked problem.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "bad_input.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/krylov_gmres.hpp"
#include "linalg/krylov_gmres_detail.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sl = cusci::sparse::linalg;
using testing::bad_input_case;
using testing::check_bad_inputs;
using testing::fake_array;
using testing::raises;

namespace {

sl::linear_operator op(std::int64_t m, std::int64_t n, dtype dt = dtype::float64) {
  return sl::linear_operator({m, n}, dt, [](const ndarray&) -> ndarray { throw std::logic_error("matvec called"); });
}

}  // namespace

TEST_CASE("gmres family: bad input raises before any device work") {
  const auto A = op(3, 3), A23 = op(2, 3), M4 = op(4, 4);
  const ndarray b = fake_array(dtype::float64, {3}), b4 = fake_array(dtype::float64, {4});
  const ndarray b31 = fake_array(dtype::float64, {3, 1}), b32 = fake_array(dtype::float64, {3, 2});
  const ndarray bb = fake_array(dtype::bool_, {3});
  check_bad_inputs({
      {"gmres: A not square", raises::value_error, "gmres: expected square matrix", [&] { sl::gmres(A23, b); }},
      {"gmres: b length", raises::value_error, "and b (4,) are incompatible", [&] { sl::gmres(A, b4); }},
      {"gmres: b 2 columns", raises::value_error, "cusci::sparse::linalg::gmres", [&] { sl::gmres(A, b32); }},
      {"gmres: bool b", raises::type_error, "gmres: b must be a numeric array", [&] { sl::gmres(A, bb); }},
      {"gmres: x0 length", raises::value_error, "x0 (4,) are incompatible",
       [&] { sl::gmres(A, b, {.x0 = b4}); }},
      {"gmres: M shape", raises::value_error, "matrix and preconditioner have different shapes",
       [&] { sl::gmres(A, b, {.M = M4}); }},
      {"gmres: atol < 0", raises::value_error, "invalid `atol`=-1", [&] { sl::gmres(A, b, {.atol = -1.0}); }},
      {"gmres: atol nan", raises::value_error, "gmres: called with invalid `atol`",
       [&] { sl::gmres(A, b, {.atol = std::numeric_limits<double>::quiet_NaN()}); }},
      {"gmres: restart 0", raises::value_error, "restart must be >= 1", [&] { sl::gmres(A, b, {.restart = 0}); }},
      {"gmres: maxiter 0", raises::value_error, "maxiter must be >= 1", [&] { sl::gmres(A, b, {.maxiter = 0}); }},
      {"lgmres: A not square", raises::value_error, "lgmres: expected square matrix", [&] { sl::lgmres(A23, b); }},
      {"lgmres: b length", raises::value_error, "lgmres: shapes of A", [&] { sl::lgmres(A, b4); }},
      {"lgmres: inner_m 0", raises::value_error, "inner_m must be >= 1", [&] { sl::lgmres(A, b, {.inner_m = 0}); }},
      {"lgmres: outer_k < 0", raises::value_error, "outer_k must be >= 0", [&] { sl::lgmres(A, b, {.outer_k = -1}); }},
      {"lgmres: maxiter < 0", raises::value_error, "maxiter must be >= 0", [&] { sl::lgmres(A, b, {.maxiter = -1}); }},
      {"lgmres: atol < 0", raises::value_error, "lgmres: called with invalid `atol`",
       [&] { sl::lgmres(A, b, {.atol = -2.0}); }},
      {"gcrotmk: A not square", raises::value_error, "gcrotmk: expected square matrix", [&] { sl::gcrotmk(A23, b); }},
      {"gcrotmk: m 0", raises::value_error, "m must be >= 1", [&] { sl::gcrotmk(A, b, {.m = 0}); }},
      {"gcrotmk: k 0", raises::value_error, "k must be >= 1", [&] { sl::gcrotmk(A, b, {.k = 0}); }},
      {"gcrotmk: maxiter 0", raises::value_error, "maxiter must be >= 1", [&] { sl::gcrotmk(A, b, {.maxiter = 0}); }},
      {"gcrotmk: M shape", raises::value_error, "gcrotmk: matrix and preconditioner",
       [&] { sl::gcrotmk(A, b, {.M = M4}); }},
      {"gcrotmk: smallest complex", raises::not_implemented_error, "truncate='smallest'",
       [&] {
         sl::gcrotmk(op(3, 3, dtype::complex128), b, {.truncate = sl::gcrotmk_truncate::smallest});
       }},
      {"minres: A not square", raises::value_error, "minres: expected square matrix", [&] { sl::minres(A23, b); }},
      {"minres: b length", raises::value_error, "minres: shapes of A", [&] { sl::minres(A, b4); }},
      {"minres: maxiter < 0", raises::value_error, "maxiter must be >= 0", [&] { sl::minres(A, b, {.maxiter = -1}); }},
      {"minres: M shape", raises::value_error, "minres: matrix and preconditioner",
       [&] { sl::minres(A, b, {.M = M4}); }},
  });
  (void)b31;
}

TEST_CASE("gmres family: SciPy's option strings") {
  CHECK(sl::gmres_callback_type_from_string("legacy") == sl::gmres_callback_type::legacy);
  CHECK(sl::gmres_callback_type_from_string("pr_norm") == sl::gmres_callback_type::pr_norm);
  CHECK(sl::gmres_callback_type_from_string("x") == sl::gmres_callback_type::x);
  CHECK_THROWS_WITH_AS(sl::gmres_callback_type_from_string("y"), doctest::Contains("Unknown callback_type: 'y'"),
                       value_error);
  CHECK(sl::gcrotmk_truncate_from_string("oldest") == sl::gcrotmk_truncate::oldest);
  CHECK(sl::gcrotmk_truncate_from_string("smallest") == sl::gcrotmk_truncate::smallest);
  CHECK_THROWS_WITH_AS(sl::gcrotmk_truncate_from_string("newest"),
                       doctest::Contains("Invalid value for 'truncate': 'newest'"), value_error);
  // SciPy's defaults.
  const sl::gmres_options g;
  CHECK(g.rtol == 1e-5);
  CHECK(g.atol == 0.0);
  CHECK(!g.restart);
  CHECK(!g.maxiter);
  CHECK(!g.callback_type);
  const sl::lgmres_options l;
  CHECK(l.maxiter == 1000);
  CHECK(l.inner_m == 30);
  CHECK(l.outer_k == 3);
  CHECK(l.store_outer_Av);
  CHECK(!l.prepend_outer_v);
  const sl::gcrotmk_options c;
  CHECK(c.maxiter == 1000);
  CHECK(c.m == 20);
  CHECK(!c.k);
  CHECK(!c.discard_C);
  CHECK(c.truncate == sl::gcrotmk_truncate::oldest);
  const sl::minres_options m;
  CHECK(m.rtol == 1e-5);
  CHECK(m.shift == 0.0);
  CHECK(!m.maxiter);
  CHECK(!m.check);
}

TEST_CASE("gmres family: Givens rotations zero the second entry") {
  using sl::gmres_detail::apply_givens;
  using sl::gmres_detail::make_givens;
  {
    double r = 0;
    const auto G = make_givens(3.0, 4.0, r);
    CHECK(std::abs(r) == doctest::Approx(5.0));
    double a = 3.0, b = 4.0;
    apply_givens(G, a, b);
    CHECK(a == doctest::Approx(r));
    CHECK(std::abs(b) < 1e-15);
  }
  {
    using c = std::complex<double>;
    c r;
    const c f(1.0, 2.0), g(-3.0, 0.5);
    const auto G = make_givens(f, g, r);
    CHECK(std::abs(r) == doctest::Approx(std::hypot(std::abs(f), std::abs(g))));
    c a = f, b = g;
    apply_givens(G, a, b);
    CHECK(std::abs(a - r) < 1e-14);
    CHECK(std::abs(b) < 1e-14);
    // Unitary: norms kept.
    c u(0.3, -1.0), v(2.0, 0.25);
    const double n0 = std::norm(u) + std::norm(v);
    apply_givens(G, u, v);
    CHECK(std::norm(u) + std::norm(v) == doctest::Approx(n0));
  }
  {
    double r = 0;
    const auto G = make_givens(0.0, -2.0, r);
    double a = 0.0, b = -2.0;
    apply_givens(G, a, b);
    CHECK(a == doctest::Approx(2.0));
    CHECK(b == 0.0);
    const auto I = make_givens(7.0, 0.0, r);
    CHECK(I.c == 1.0);
    CHECK(r == 7.0);
  }
}

TEST_CASE("gmres family: Hessenberg least squares of a hand-worked 2-step Arnoldi process") {
  // H = [[2, 1], [1, 3], [0, 0.5]] (columns [2, 1, -] and [1, 3, 0.5]), beta = 1: the least-squares
  // solution of H y = e1 and its residual, from the normal equations: H^T H = [[5, 5], [5, 10.25]],
  // H^T e1 = [2, 1] -> y = [0.6097560975609756, -0.19512195121951217]; residual norm
  // ||e1 - H y|| = 0.0975609756097561 * sqrt(1 + ... ) computed below from y.
  sl::gmres_detail::hessenberg_lsq<double> H(1.0);
  const double r1 = H.add_column({2.0, 1.0});
  CHECK(r1 == doctest::Approx(1.0 / std::sqrt(5.0)));
  const double r2 = H.add_column({1.0, 3.0, 0.5});
  const std::vector<double> y = H.solve(2);
  const double y0 = (2.0 * 10.25 - 5.0 * 1.0) / (5.0 * 10.25 - 25.0), y1 = (5.0 * 1.0 - 5.0 * 2.0) / (5.0 * 10.25 - 25.0);
  CHECK(y[0] == doctest::Approx(y0));
  CHECK(y[1] == doctest::Approx(y1));
  const double e0 = 1.0 - (2.0 * y0 + 1.0 * y1), e1 = -(1.0 * y0 + 3.0 * y1), e2 = -(0.5 * y1);
  CHECK(r2 == doctest::Approx(std::sqrt(e0 * e0 + e1 * e1 + e2 * e2)));
  const std::vector<double> yg = H.solve_gmres(2);
  CHECK(yg[0] == doctest::Approx(y0));
  CHECK(yg[1] == doctest::Approx(y1));
  const std::vector<double> q = H.h_times(y);
  REQUIRE(q.size() == 3);
  CHECK(q[0] == doctest::Approx(2.0 * y0 + y1));
  CHECK(q[1] == doctest::Approx(y0 + 3.0 * y1));
  CHECK(q[2] == doctest::Approx(0.5 * y1));
  // Breakdown: a zero subdiagonal gives residual 0 and the exact solution.
  sl::gmres_detail::hessenberg_lsq<double> B(2.0);
  CHECK(B.add_column({4.0, 0.0}) == 0.0);
  CHECK(B.solve_gmres(1)[0] == doctest::Approx(0.5));
}

TEST_CASE("gmres family: SciPy's inner tolerance control") {
  sl::gmres_detail::gmres_ptol c;
  // presid <= ptol: the factor shrinks by 4; else grows by 1.5 up to 1.
  const double p1 = c.next(1e-3, 2e-3, 1e-2, 1e-4, 1e-16);
  CHECK(c.max_factor == doctest::Approx(0.25));
  CHECK(p1 == doctest::Approx(1e-3 * std::min(0.25, 1e-4 / 1e-2)));
  c.next(1e-1, 1e-3, 1.0, 1e-4, 1e-16);
  CHECK(c.max_factor == doctest::Approx(0.375));
}
