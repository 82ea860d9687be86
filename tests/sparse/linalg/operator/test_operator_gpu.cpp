// GPU tests of cusci::sparse::linalg's LinearOperator algebra and the ILU(0) / IC(0) preconditioners
// against SciPy 1.18.1 / NumPy (tests/golden/gen_sparse_linalg_operator.py):
//   - operator: aslinearoperator of dense (rectangular float32 / complex128, square float64 /
//     complex64) and sparse matrices, then H, T, sums, products, scalar multiples, negation,
//     differences and powers: SciPy's shape and dtype of the operator, and matvec / rmatvec /
//     matmat / rmatmat of it;
//   - ilu0 / ic0: the factors (a row-wise ILU(0) and a right-looking IC(0) written in the generator,
//     whose defining property (L U = A on A's pattern) the generator asserts), M^-1 x (SciPy's
//     spsolve_triangular on those factors), float32 / float64 / complex64 / complex128 on generated
//     Poisson and convection-diffusion matrices and on orsirr_1, young1c (complex) and 1138_bus from
//     examples/data; the adjoint identity <M^-1 x, y> = <x, M^-H y>; matmat column by column;
//   - cg with M = ic0(A): SciPy's iteration count (with M = the same IC(0) preconditioner) and x;
//   - the errors: zero pivot, missing diagonal, indefinite matrix.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/sparse.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sl = cusci::sparse::linalg;
using testing::element;

namespace {

const std::string kModule = "sparse_linalg_operator";

sparse::shape2 shape_of(const testing::golden_case& c) {
  const auto s = c.get<std::vector<std::int64_t>>("shape");
  return {s.at(0), s.at(1)};
}

/// The CSR matrix stored under `prefix` (float64 / complex128 values), cast to dt when given.
sparse::csr_matrix stored_csr(const std::string& prefix, sparse::shape2 shape, std::optional<dtype> dt = {}) {
  sparse::csr_matrix A(asarray(testing::golden(kModule, prefix + "_data")),
                       asarray(testing::golden(kModule, prefix + "_indices")),
                       asarray(testing::golden(kModule, prefix + "_indptr")), shape);
  return dt ? A.astype(*dt) : A;
}

/// max |a - b| / max |b| (b != 0), on the host; sizes must agree.
double rel_err(const host_array& a, const host_array& b) {
  REQUIRE(a.size() == b.size());
  double num = 0, den = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    num = std::max(num, std::abs(element(a, i) - element(b, i)));
    den = std::max(den, std::abs(element(b, i)));
  }
  return den > 0 ? num / den : num;
}
double rel_err(const ndarray& a, const host_array& b) { return rel_err(a.get(), b); }

std::complex<double> host_vdot(const host_array& a, const host_array& b) {
  std::complex<double> s = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) s += std::conj(element(a, i)) * element(b, i);
  return s;
}

sl::linear_operator apply_steps(sl::linear_operator op, const testing::golden_value& steps) {
  for (const auto& st : steps) {
    const std::string k = st.at(0).as_string();
    if (k == "H") op = op.H();
    else if (k == "T") op = op.T();
    else if (k == "add_self_T") op = op + op.T();
    else if (k == "mul_self_H") op = op * op.H();
    else if (k == "scale") {
      const double re = st.at(1).as_double(), im = st.at(2).as_double();
      op = im != 0 ? std::complex<double>(re, im) * op : re * op;
    } else if (k == "neg") op = -op;
    else if (k == "sub_self") op = op - 0.5 * op;
    else if (k == "pow") op = sl::pow(op, st.at(1).as_int64());
    else FAIL("unknown step " << k);
  }
  return op;
}

}  // namespace

TEST_CASE("linear_operator algebra matches SciPy's shapes, dtypes and products") {
  const auto cs = testing::cases(kModule, "operator");
  REQUIRE(cs.size() >= 60);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const std::string a = c.get<std::string>("A");
    sl::linear_operator base = c.get<std::string>("kind") == "dense"
                                   ? sl::aslinearoperator(asarray(testing::golden(kModule, a)))
                                   : sl::aslinearoperator(sparse::spmatrix(stored_csr(a, {7, 7})));
    const sl::linear_operator op = apply_steps(base, c.params().at("ops"));
    CHECK(op.shape() == shape_of(c));
    CHECK(std::string(dtype_name(op.dtype())) == c.get<std::string>("dtype"));
    const std::string p = c.name();
    auto in = [&](const char* s) { return asarray(testing::golden(kModule, p + "_" + s)); };
    auto ref = [&](const char* s) { return testing::golden(kModule, p + "_" + s); };
    const ndarray mv = op.matvec(in("x")), rmv = op.rmatvec(in("y")), mm = op.matmat(in("X")), rmm = op.rmatmat(in("Y"));
    // SciPy's result dtypes (NumPy promotion of operator and operand) and shapes.
    for (auto [got, name] : {std::pair{mv, "mv"}, {rmv, "rmv"}, {mm, "mm"}, {rmm, "rmm"}}) {
      CAPTURE(name);
      const host_array r = ref(name);
      CHECK(got.dtype() == r.dtype());
      CHECK(got.shape() == r.shape());
      // float32 / complex64 operators: products rounded in single precision (1e-4 relative).
      CHECK(rel_err(got, r) <= 1e-4);
    }
    // The [n, 1] form and dot().
    const ndarray x = in("x");
    CHECK(op.dot(x.reshape({x.size(), 1})).shape() == shape_t{op.shape()[0], 1});
  }
}

TEST_CASE("linear_operator: errors and identities on the device") {
  const ndarray D = asarray(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3});
  const sl::linear_operator A = sl::aslinearoperator(D);
  CHECK_THROWS_AS((void)(A + A.H()), value_error);
  CHECK_THROWS_AS((void)(A * A), value_error);
  CHECK_THROWS_AS((void)sl::pow(A, 2), value_error);
  // A user operator without rmatvec: the adjoint's matvec is not defined; matmat goes column by column.
  const sl::linear_operator U({2, 3}, dtype::float64, [D](const ndarray& x) { return matmul(D, x); });
  CHECK_FALSE(U.has_rmatvec());
  CHECK_THROWS_AS((void)U.H().matvec(asarray(std::vector<double>{1, 1})), not_implemented_error);
  const ndarray X = asarray(std::vector<double>{1, 0, 0, 1, 2, -1}, {3, 2});
  CHECK(rel_err(U.matmat(X), matmul(D, X).get()) <= 1e-15);
  CHECK(U.matmat(X).shape() == shape_t{2, 2});
  // Every sparse format wraps to the same products.
  const sparse::csr_matrix S(D);
  const ndarray x = asarray(std::vector<double>{1, -2, 0.5});
  const host_array ref = matmul(D, x).get();
  for (const sparse::spmatrix& f : {sparse::spmatrix(S), sparse::spmatrix(S.tocsc()), sparse::spmatrix(S.tocoo()),
                                    sparse::spmatrix(S.todia()), sparse::spmatrix(S.tobsr())}) {
    CAPTURE(static_cast<int>(f.format()));
    const sl::linear_operator op = sl::aslinearoperator(f);
    CHECK(op.csr() != nullptr);
    CHECK(rel_err(op.matvec(x), ref) <= 1e-15);
  }
  // Integer matrices are wrapped as float64.
  const sl::linear_operator I = sl::aslinearoperator(asarray(std::vector<std::int32_t>{1, 2, 3, 4}, {2, 2}));
  CHECK(I.dtype() == dtype::float64);
}

TEST_CASE("ilu0 matches the reference ILU(0) factors and M^-1 x") {
  const auto cs = testing::cases(kModule, "ilu0");
  REQUIRE(cs.size() == 10);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const auto shape = shape_of(c);
    const sparse::csr_matrix A = stored_csr(c.get<std::string>("matrix"), shape, dt);
    const sl::incomplete_factorization f = sl::ilu0(A);
    CHECK(f.dtype() == dt);
    CHECK(f.shape() == shape);
    const std::string fp = c.get<std::string>("factors");
    // The factors (float32 factors of orsirr_1 lose digits to its dynamic range: the case rtol).
    CHECK(rel_err(f.L().toarray(), stored_csr(fp + "_L", shape).toarray().get()) <= c.rtol());
    CHECK(rel_err(f.U().toarray(), stored_csr(fp + "_U", shape).toarray().get()) <= c.rtol());
    CHECK(f.L().nnz() + f.U().nnz() - shape[0] == sparse::csr_matrix(A).nnz());
    const ndarray x = asarray(testing::golden(kModule, c.name() + "_x"));
    const ndarray y = f.matvec(x);
    CHECK(y.dtype() == dt);
    CHECK(rel_err(y, testing::golden(kModule, c.name() + "_y")) <= c.rtol());
    // matmat: one solve a column; M^-1 (2 x) = 2 M^-1 x.
    const ndarray Y = f.matmat(stack({x, multiply(x, 2.0)}, 1));
    CHECK(rel_err(Y.T()[1].copy(), multiply(y, 2.0).get()) <= 1e-6);
    if (dt == dtype::float64 || dt == dtype::complex128) {
      // <M^-1 x, v> == <x, M^-H v>.
      const ndarray v = asarray(testing::golden(kModule, c.name() + "_y"));
      const std::complex<double> lhs = host_vdot(y.get(), v.get()), rhs = host_vdot(x.get(), f.rmatvec(v).get());
      CHECK(std::abs(lhs - rhs) <= 1e-8 * std::max(1.0, std::abs(lhs)));
    }
  }
}

TEST_CASE("ic0 matches the reference IC(0) factor and M^-1 x") {
  const auto cs = testing::cases(kModule, "ic0");
  REQUIRE(cs.size() == 6);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
    const auto shape = shape_of(c);
    const sparse::csr_matrix A = stored_csr(c.get<std::string>("matrix"), shape, dt);
    const sl::incomplete_factorization f = sl::ic0(A);
    const std::string fp = c.get<std::string>("factors");
    const host_array Lref = stored_csr(fp + "_L", shape).toarray().get();
    CHECK(rel_err(f.L().toarray(), Lref) <= c.rtol());
    CHECK(rel_err(f.U().toarray(), conj(stored_csr(fp + "_L", shape).toarray().T()).get()) <= c.rtol());
    const ndarray x = asarray(testing::golden(kModule, c.name() + "_x"));
    const ndarray y = f.matvec(x);
    CHECK(y.dtype() == dt);
    CHECK(rel_err(y, testing::golden(kModule, c.name() + "_y")) <= c.rtol());
    CHECK(rel_err(f.rmatvec(x), y.get()) == 0.0);  // M is Hermitian: the same solves
  }
}

TEST_CASE("cg with M = ic0(A) takes SciPy's iterations") {
  const auto cs = testing::cases(kModule, "ic0_cg");
  REQUIRE(cs.size() == 2);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const auto shape = shape_of(c);
    const sparse::csr_matrix A = stored_csr(c.get<std::string>("matrix"), shape);
    const ndarray b = asarray(testing::golden(kModule, c.name() + "_b"));
    sl::cg_options o;
    o.rtol = c.get<double>("rtol_cg");
    o.M = sl::ic0(A);
    const sl::cg_result r = sl::cg(A, b, o);
    CHECK(r.info == c.get<std::int64_t>("info"));
    // Same algorithm and the same preconditioner: only the rounding of the triangular solves and of
    // the dot products differs. 1138_bus (condition ~1e6, 148 iterations) drifts by a few
    // iterations in such cases; allow 5% (and 1 for the short run).
    const auto its = c.get<std::int64_t>("iterations");
    const auto tol = std::max<std::int64_t>(1, its / 20);
    CHECK(std::abs(r.iterations - its) <= tol);
    CHECK(r.iterations < c.get<std::int64_t>("iterations_unpreconditioned"));
    // x as close to the exact solution as SciPy's (x_rtol: 20 times SciPy's error), and the true
    // residual below the tolerance cg tested its recursive residual against.
    const host_array xs = testing::golden(kModule, c.name() + "_xs");
    const host_array xh = r.x.get();
    double num = 0, den = 0;
    for (std::int64_t i = 0; i < xs.size(); ++i) {
      num += std::norm(element(xh, i) - element(xs, i));
      den += std::norm(element(xs, i));
    }
    CHECK(std::sqrt(num / den) <= c.get<double>("x_rtol"));
    const host_array res = subtract(b, A.dot(r.x)).get(), bh = b.get();
    double rr = 0, bb = 0;
    for (std::int64_t i = 0; i < bh.size(); ++i) {
      rr += std::norm(element(res, i));
      bb += std::norm(element(bh, i));
    }
    CHECK(std::sqrt(rr / bb) <= 1.01 * o.rtol);
  }
}

TEST_CASE("ilu0 / ic0 report a zero pivot, a missing diagonal and an indefinite matrix") {
  const auto cs = testing::cases(kModule, "errors");
  REQUIRE(cs.size() == 4);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const sparse::csr_matrix A = stored_csr(c.get<std::string>("matrix"), shape_of(c));
    if (c.get<std::string>("target") == "ilu0") testing::check_error(c, [&] { (void)sl::ilu0(A); });
    else testing::check_error(c, [&] { (void)sl::ic0(A); });
  }
}

TEST_CASE("ilu0 / ic0 of empty and int64-indexed matrices") {
  const sparse::csr_matrix E(sparse::shape2{0, 0});
  const sl::incomplete_factorization f = sl::ilu0(E);
  CHECK(f.matvec(zeros({0})).size() == 0);
  CHECK(sl::ic0(E).L().nnz() == 0);
  // int64 indices: the same factors as int32 (Poisson 8x8).
  const auto cs = testing::cases(kModule, "ic0");
  const auto& c = cs.front();
  const sparse::csr_matrix A = stored_csr(c.get<std::string>("matrix"), shape_of(c));
  const sparse::csr_matrix A64(A.data(), A.indices().astype(dtype::int64), A.indptr().astype(dtype::int64), A.shape(),
                               dtype::int64);
  CHECK(rel_err(sl::ic0(A64).L().toarray(), sl::ic0(A).L().toarray().get()) <= 1e-14);
  CHECK(rel_err(sl::ilu0(A64).U().toarray(), sl::ilu0(A).U().toarray().get()) <= 1e-14);
}
