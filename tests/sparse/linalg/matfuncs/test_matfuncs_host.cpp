// Host tests of cusci::sparse::linalg's matrix functions and LaplacianNd (no GPU): every bad argument
// raises SciPy's exception kind, naming the function, before any device work (data-less arrays and
// function operators that must never be called); the options carry SciPy's defaults; LaplacianNd's
// host side (shape, defaults, SciPy's boundary-condition message).

#include <doctest/doctest.h>

#include <stdexcept>

#include "bad_input.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/laplacian_nd.hpp"
#include "cusci/sparse/linalg/matfuncs.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sl = cusci::sparse::linalg;
using testing::fake_array;
using testing::raises;

namespace {

// An operator whose products must never run (argument checks come first).
sl::linear_operator never(std::int64_t m, std::int64_t n, bool with_rmatvec = true) {
  auto fail = [](const ndarray&) -> ndarray { throw std::logic_error("the operator was applied"); };
  if (with_rmatvec) return sl::linear_operator({m, n}, dtype::float64, fail, fail);
  return sl::linear_operator({m, n}, dtype::float64, fail);
}

host_array identity_f(const host_array& h) { return h; }

}  // namespace

TEST_CASE("options carry SciPy's defaults") {
  const sl::expm_multiply_options e{};
  CHECK_FALSE(e.start.has_value());
  CHECK_FALSE(e.stop.has_value());
  CHECK_FALSE(e.num.has_value());
  CHECK_FALSE(e.endpoint.has_value());
  CHECK_FALSE(e.traceA.has_value());
  const sl::funm_multiply_krylov_options f{};
  CHECK(f.assume_a == "general");
  CHECK(f.t == 1.0);
  CHECK(f.atol == 0.0);
  CHECK(f.rtol == 1e-6);
  CHECK_FALSE(f.restart_every_m.has_value());
  CHECK(f.max_restarts == 20);
  const sl::expm_multiply_info i{};
  CHECK(i.status == -1);
}

TEST_CASE("bad arguments raise before any device work") {
  const ndarray b64 = fake_array(dtype::float64, {64});
  const sl::linear_operator A = never(64, 64);
  std::vector<testing::bad_input_case> cases = {
      // expm_multiply
      {"expm: non-square A", raises::value_error, "expected A to be like a square matrix",
       [&] { (void)sl::expm_multiply(never(3, 4), fake_array(dtype::float64, {4}), {.traceA = 1.0}); }},
      {"expm: B of another length", raises::value_error, "are incompatible",
       [&] { (void)sl::expm_multiply(A, fake_array(dtype::float64, {63}), {.traceA = 1.0}); }},
      {"expm: 3-D B", raises::value_error, "expected B to be like a matrix or a vector",
       [&] { (void)sl::expm_multiply(A, fake_array(dtype::float64, {64, 2, 2}), {.traceA = 1.0}); }},
      {"expm: operator without traceA", raises::value_error, "traceA is required",
       [&] { (void)sl::expm_multiply(A, b64); }},
      {"expm: one time point", raises::value_error, "at least two time points are required",
       [&] { (void)sl::expm_multiply(A, b64, {.start = 0.0, .stop = 1.0, .num = 1, .traceA = 0.0}); }},
      {"expm: stop missing", raises::value_error, "start and stop",
       [&] { (void)sl::expm_multiply(A, b64, {.start = 0.0, .num = 5, .traceA = 0.0}); }},
      {"expm: negative num", raises::value_error, "must be non-negative",
       [&] { (void)sl::expm_multiply(A, b64, {.start = 0.0, .stop = 1.0, .num = -3, .traceA = 0.0}); }},
      {"expm: bool B of another length", raises::value_error, "expm_multiply",
       [&] { (void)sl::expm_multiply(never(5, 5), fake_array(dtype::bool_, {4})); }},
      {"expm: operator without rmatvec", raises::not_implemented_error, "rmatvec",
       [&] { (void)sl::expm_multiply(never(64, 64, false), b64, {.traceA = 0.0}); }},
      // onenormest
      {"onenormest: non-square", raises::value_error, "expected the operator to act like a square matrix",
       [&] { (void)sl::onenormest(never(3, 4)); }},
      {"onenormest: t = 0", raises::value_error, "at least one column is required",
       [&] { (void)sl::onenormest(A, 0); }},
      {"onenormest: itmax = 1", raises::value_error, "at least two iterations are required",
       [&] { (void)sl::onenormest(A, 2, 1); }},
      {"onenormest: no rmatvec", raises::not_implemented_error, "rmatvec",
       [&] { (void)sl::onenormest(never(64, 64, false)); }},
      // funm_multiply_krylov
      {"funm: assume_a", raises::value_error, "is not a recognized matrix structure",
       [&] { (void)sl::funm_multiply_krylov(identity_f, A, b64, {.assume_a = "symmetric"}); }},
      {"funm: 2-D b", raises::value_error, "argument 'b' must be a 1D array.",
       [&] { (void)sl::funm_multiply_krylov(identity_f, A, fake_array(dtype::float64, {64, 1})); }},
      {"funm: b of another length", raises::value_error, "are incompatible",
       [&] { (void)sl::funm_multiply_krylov(identity_f, A, fake_array(dtype::float64, {10})); }},
      {"funm: restart_every_m = 0", raises::value_error, "argument 'restart_every_m' must be positive.",
       [&] { (void)sl::funm_multiply_krylov(identity_f, A, b64, {.restart_every_m = 0}); }},
      {"funm: max_restarts = 0", raises::value_error, "argument 'max_restarts' must be positive.",
       [&] { (void)sl::funm_multiply_krylov(identity_f, A, b64, {.max_restarts = 0}); }},
      {"funm: atol < 0", raises::value_error, "funm_multiply_krylov",
       [&] { (void)sl::funm_multiply_krylov(identity_f, A, b64, {.atol = -1.0}); }},
      // LaplacianNd
      {"LaplacianNd: boundary conditions", raises::value_error,
       "Unknown value 'robin' is given for 'boundary_conditions' parameter.",
       [&] { sl::LaplacianNd L({3, 3}, "robin"); }},
      {"LaplacianNd: empty grid", raises::value_error, "LaplacianNd", [&] { sl::LaplacianNd L({}); }},
      {"LaplacianNd: zero length", raises::value_error, "LaplacianNd", [&] { sl::LaplacianNd L({3, 0}); }},
      {"LaplacianNd: bool dtype", raises::type_error, "LaplacianNd",
       [&] { sl::LaplacianNd L({3}, "neumann", dtype::bool_); }},
      {"LaplacianNd: eigenvalues(m < 0)", raises::value_error, "m must be >= 0",
       [&] { (void)sl::LaplacianNd({3}).eigenvalues(-1); }},
      {"LaplacianNd: eigenvectors(m < 0)", raises::value_error, "m must be >= 0",
       [&] { (void)sl::LaplacianNd({3}).eigenvectors(-1); }},
      {"LaplacianNd: matvec length", raises::value_error, "dimension mismatch",
       [&] { (void)sl::LaplacianNd({3, 4}).matvec(fake_array(dtype::float64, {11})); }},
      {"LaplacianNd: 3-D x", raises::value_error, "dimension mismatch",
       [&] { (void)sl::LaplacianNd({3, 4}).matvec(fake_array(dtype::float64, {12, 1, 1})); }},
  };
  testing::check_bad_inputs(cases);
}

TEST_CASE("LaplacianNd's host side: SciPy's defaults, shape and operator view") {
  const sl::LaplacianNd L({3, 4, 5});
  CHECK(L.boundary_conditions() == "neumann");
  CHECK(L.dtype() == dtype::int8);
  CHECK(L.shape() == sparse::shape2{60, 60});
  CHECK(L.grid_shape() == std::vector<std::int64_t>{3, 4, 5});
  const sl::linear_operator op = L;  // no device work
  CHECK(op.shape() == sparse::shape2{60, 60});
  CHECK(op.dtype() == dtype::float64);  // an integer Laplacian computes in float64
  CHECK(op.has_rmatvec());
  const sl::LaplacianNd P({7}, "periodic", dtype::int32);
  CHECK(P.shape() == sparse::shape2{7, 7});
  const sl::LaplacianNd D({2, 2}, "dirichlet", dtype::float32);
  CHECK(D.aslinearoperator().dtype() == dtype::float32);
}
