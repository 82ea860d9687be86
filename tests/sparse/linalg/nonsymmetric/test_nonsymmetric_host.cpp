// Host tests of cusci::sparse::linalg's bicg, bicgstab, cgs, qmr and tfqmr: SciPy's defaults in the
// options structs, and every argument check, which must throw the typed exception naming the
// function before any device work (data-less arrays from testing::fake_array, operators whose
// products fail the test if called). No GPU needed.

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>

#include "cusci/sparse/linalg/krylov_nonsymmetric.hpp"
#include "cusci/sparse/sparse.hpp"
#include "testing.hpp"

using namespace cusci;
using sparse::linalg::krylov_result;
using sparse::linalg::linear_operator;
using testing::fake_array;

namespace {

ndarray never(const ndarray&) {
  FAIL("an operator product must not be called");
  return ndarray();
}

linear_operator op(std::int64_t m, std::int64_t n, bool with_rmatvec = true, dtype dt = dtype::float64) {
  return with_rmatvec ? linear_operator({m, n}, dt, never, never) : linear_operator({m, n}, dt, never);
}

// The five solvers behind one signature: M goes to M (qmr: M1, and M2 when `second`).
struct solver {
  const char* name;
  bool needs_rmatvec;
  std::function<krylov_result(const linear_operator&, const ndarray&, const std::optional<ndarray>&, double,
                              const std::optional<linear_operator>&, bool)>
      call;
};

std::vector<solver> solvers() {
  namespace la = sparse::linalg;
  return {
      {"bicg", true,
       [](const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0, double atol,
          const std::optional<linear_operator>& M, bool) { return la::bicg(A, b, {.x0 = x0, .atol = atol, .M = M}); }},
      {"bicgstab", false,
       [](const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0, double atol,
          const std::optional<linear_operator>& M,
          bool) { return la::bicgstab(A, b, {.x0 = x0, .atol = atol, .M = M}); }},
      {"cgs", false,
       [](const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0, double atol,
          const std::optional<linear_operator>& M, bool) { return la::cgs(A, b, {.x0 = x0, .atol = atol, .M = M}); }},
      {"qmr", true,
       [](const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0, double atol,
          const std::optional<linear_operator>& M, bool second) {
         if (second) return la::qmr(A, b, {.x0 = x0, .atol = atol, .M2 = M});
         return la::qmr(A, b, {.x0 = x0, .atol = atol, .M1 = M});
       }},
      {"tfqmr", false,
       [](const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0, double atol,
          const std::optional<linear_operator>& M, bool) { return la::tfqmr(A, b, {.x0 = x0, .atol = atol, .M = M}); }},
  };
}

}  // namespace

TEST_CASE("nonsymmetric Krylov options have SciPy's names, order and defaults") {
  static_assert(std::is_same_v<sparse::linalg::bicg_options, sparse::linalg::krylov_options>);
  static_assert(std::is_same_v<sparse::linalg::bicgstab_options, sparse::linalg::krylov_options>);
  static_assert(std::is_same_v<sparse::linalg::cgs_options, sparse::linalg::krylov_options>);
  const sparse::linalg::krylov_options k;
  CHECK(!k.x0);
  CHECK(k.rtol == 1e-5);
  CHECK(k.atol == 0.0);
  CHECK(!k.maxiter);
  CHECK(!k.M);
  CHECK(!k.callback);
  const sparse::linalg::qmr_options q;
  CHECK(q.rtol == 1e-5);
  CHECK(q.atol == 0.0);
  CHECK(!q.maxiter);
  CHECK(!q.M1);
  CHECK(!q.M2);
  const sparse::linalg::tfqmr_options t;
  CHECK(t.rtol == 1e-5);
  CHECK(t.atol == 0.0);
  CHECK(!t.maxiter);
  CHECK(!t.M);
  CHECK(!t.show);
  // Designated initializers in SciPy's keyword order compile.
  const sparse::linalg::krylov_options o{.rtol = 1e-8, .atol = 1e-12, .maxiter = 7};
  CHECK(o.maxiter.value() == 7);
  const sparse::linalg::tfqmr_options o2{.rtol = 1e-6, .maxiter = 3, .show = true};
  CHECK(o2.show);
}

TEST_CASE("nonsymmetric Krylov solvers refuse bad arguments before any device work") {
  const linear_operator A = op(4, 4), R = op(4, 3), M5 = op(5, 5);
  const ndarray b = fake_array(dtype::float64, {4});
  for (const solver& s : solvers()) {
    CAPTURE(s.name);
    const std::string fn = std::string("cusci::sparse::linalg::") + s.name;
    // A not square.
    CHECK_THROWS_WITH_AS(s.call(R, b, {}, 0.0, {}, false), doctest::Contains((fn + ": expected square matrix").c_str()),
                         value_error);
    // b of another length or shape.
    CHECK_THROWS_WITH_AS(s.call(A, fake_array(dtype::float64, {3}), {}, 0.0, {}, false),
                         doctest::Contains("shapes of A (4, 4) and b (3,) are incompatible"), value_error);
    CHECK_THROWS_AS(s.call(A, fake_array(dtype::float64, {4, 2}), {}, 0.0, {}, false), value_error);
    CHECK_THROWS_AS(s.call(A, fake_array(dtype::float64, {1, 4}), {}, 0.0, {}, false), value_error);
    CHECK_THROWS_AS(s.call(A, fake_array(dtype::float64, {2, 2}), {}, 0.0, {}, false), value_error);
    // x0 of another shape; complex x0 for a real system.
    CHECK_THROWS_WITH_AS(s.call(A, b, fake_array(dtype::float64, {5}), 0.0, {}, false),
                         doctest::Contains("x0 (5,) are incompatible"), value_error);
    CHECK_THROWS_AS(s.call(A, b, fake_array(dtype::float64, {4, 4}), 0.0, {}, false), value_error);
    CHECK_THROWS_WITH_AS(s.call(A, b, fake_array(dtype::complex128, {4}), 0.0, {}, false),
                         doctest::Contains(fn.c_str()), type_error);
    // A preconditioner of another shape (qmr: M1 and M2).
    CHECK_THROWS_WITH_AS(s.call(A, b, {}, 0.0, M5, false),
                         doctest::Contains("matrix and preconditioner have different shapes"), value_error);
    if (std::string(s.name) == "qmr")
      CHECK_THROWS_WITH_AS(s.call(A, b, {}, 0.0, M5, true),
                           doctest::Contains("matrix and preconditioner have different shapes"), value_error);
    // atol < 0 or NaN.
    CHECK_THROWS_WITH_AS(s.call(A, b, {}, -1.0, {}, false), doctest::Contains("`atol`"), value_error);
    CHECK_THROWS_WITH_AS(s.call(A, b, {}, std::numeric_limits<double>::quiet_NaN(), {}, false),
                         doctest::Contains((fn + ": called with invalid `atol`").c_str()), value_error);
    // Methods that need A^H (and M^H): an operator without rmatvec.
    const linear_operator An = op(4, 4, false), Mn = op(4, 4, false);
    if (s.needs_rmatvec) {
      CHECK_THROWS_WITH_AS(s.call(An, b, {}, 0.0, {}, false), doctest::Contains("rmatvec"), not_implemented_error);
      CHECK_THROWS_WITH_AS(s.call(A, b, {}, 0.0, Mn, false), doctest::Contains("rmatvec"), not_implemented_error);
    }
  }
}

TEST_CASE("nonsymmetric Krylov solvers: the shape checks come before the dtype and rmatvec checks") {
  // A not square and without rmatvec: SciPy's make_system raises the shape error first.
  const linear_operator Rn = op(4, 3, false);
  CHECK_THROWS_AS(sparse::linalg::bicg(Rn, fake_array(dtype::float64, {4})), value_error);
  CHECK_THROWS_AS(sparse::linalg::qmr(Rn, fake_array(dtype::float64, {4})), value_error);
  // A wrong b with an operator without rmatvec: the shape error.
  const linear_operator An = op(4, 4, false);
  CHECK_THROWS_AS(sparse::linalg::bicg(An, fake_array(dtype::float64, {3})), value_error);
  // A float32 operator and float32 b make a real system: a complex64 x0 is refused (a complex b would
  // make the system complex and the x0 acceptable; that path does device work, see the gpu test).
  const linear_operator A32 = op(4, 4, true, dtype::float32);
  CHECK_THROWS_AS(sparse::linalg::cgs(A32, fake_array(dtype::float32, {4}), {.x0 = fake_array(dtype::complex64, {4})}),
                  type_error);
}
