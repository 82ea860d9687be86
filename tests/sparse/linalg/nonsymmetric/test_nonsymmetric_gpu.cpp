// GPU tests of cusci::sparse::linalg's bicg, bicgstab, cgs, qmr and tfqmr against SciPy 1.18.1
// (tests/golden/gen_sparse_linalg_nonsymmetric.py): on 2-D convection-diffusion problems (real and
// complex), orsirr_1, west0479 and young1c (examples/data), in float32/float64/complex64/complex128,
// with no preconditioner, jacobi(A) (fused path), a diagonal CSR matrix (operator path), x0, b [n, 1],
// atol, maxiter; and SciPy's breakdown codes on tiny systems.
//
// What each case checks:
//   - info: SciPy's exactly (the generator keeps only runs whose info does not change under a
//     4-eps perturbation of b, so a rounding difference cannot legitimately change it);
//   - iterations: within SciPy's own spread under those perturbations, widened by max(2, 5 %) for
//     converging runs (cusci sums dot products in float64 in another order, and contracts updates
//     into fused multiply-adds: rounding differences of the same size), max(2, 10 %) in single
//     precision (SciPy sums float32 dot products in float32, cusci in float64: a more accurate
//     iteration that may converge a few percent sooner; a NumPy model of cusci's arithmetic needs
//     up to 6 % on young1c in complex64); exactly for maxiter-limited and breakdown runs; the
//     callback is called exactly `iterations` times;
//   - x: 1-D [n] in the system's dtype; relative difference from SciPy's x within the generator's
//     xtol (10 times SciPy's own spread, at least 1e-11 / 1e-4 for single precision);
//   - converged runs: the true relative residual norm(b - A x) / norm(b) within restol (10 times
//     SciPy's);
//   - the convergence history has an entry per iteration plus the start.
// The float64 convection-diffusion cases run a second time with A and M given as functions (the
// generic operator path: no fused SpMV, user products between the kernels).

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/sparse/linalg/krylov_nonsymmetric.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/stream.hpp"
#include "golden.hpp"
#include "testing.hpp"

using namespace cusci;
using sparse::csr_matrix;
using sparse::linalg::krylov_result;
using sparse::linalg::linear_operator;
using case_t = testing::golden_case;

namespace {

const std::string kModule = "sparse_linalg_nonsymmetric";

host_array garray(const std::string& name) { return testing::golden(kModule, name); }

/// The CSR matrix stored under `name` (data converted to dt).
csr_matrix stored_csr(const std::string& name, dtype dt) {
  const host_array data = garray(name + "_data"), indices = garray(name + "_indices"), indptr = garray(name + "_indptr");
  const std::int64_t n = indptr.size() - 1;
  const csr_matrix m(asarray(data.astype(dt)), asarray(indices), asarray(indptr),
                     sparse::matrix_options{.shape = sparse::shape2{n, n}});
  return m;
}

std::vector<std::complex<double>> to_complex(const host_array& a) {
  const host_array c = a.astype(dtype::complex128);
  const auto* p = c.data_as<std::complex<double>>();
  return std::vector<std::complex<double>>(p, p + c.size());
}

double norm(const std::vector<std::complex<double>>& v) {
  double s = 0;
  for (const auto& z : v) s += std::norm(z);
  return std::sqrt(s);
}

/// The case's preconditioner `kind` for matrix `mat`: none, jacobi(A), or a stored CSR matrix.
std::optional<linear_operator> precond(const std::string& kind, const std::string& mat, const csr_matrix& A, dtype dt) {
  if (kind == "none") return std::nullopt;
  if (kind == "jacobi") return sparse::linalg::jacobi(A);
  return linear_operator(stored_csr(mat + "_" + kind, dt));
}

/// A as an operator given by functions (no csr(): the solvers' generic path).
linear_operator as_function(const csr_matrix& A) {
  const csr_matrix AH = sparse::conj_transpose(sparse::spmatrix(A)).tocsr();
  return linear_operator(
      A.shape(), A.dtype(), [A](const ndarray& x) { return A.dot(x); }, [AH](const ndarray& x) { return AH.dot(x); });
}
/// An operator (a wrapped CSR matrix or jacobi()'s diagonal) behind functions (operator path).
linear_operator as_function(const linear_operator& op) {
  return linear_operator(
      op.shape(), op.dtype(), [op](const ndarray& x) { return op.matvec(x); },
      [op](const ndarray& x) { return op.rmatvec(x); });
}

krylov_result solve(const case_t& c, const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0,
                    const std::optional<linear_operator>& M, const std::optional<linear_operator>& M1,
                    const std::optional<linear_operator>& M2, std::int64_t& calls) {
  namespace la = sparse::linalg;
  const std::string f = c.func();
  const double rtol = c.get<double>("rtol_arg"), atol = c.get<double>("atol_arg");
  const std::optional<std::int64_t> maxiter = c.get<std::optional<std::int64_t>>("maxiter");
  auto cb = [&calls](const ndarray& x) {
    CHECK(x.ndim() == 1);
    ++calls;
  };
  if (f == "bicg") return la::bicg(A, b, {.x0 = x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = M, .callback = cb});
  if (f == "bicgstab")
    return la::bicgstab(A, b, {.x0 = x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = M, .callback = cb});
  if (f == "cgs") return la::cgs(A, b, {.x0 = x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = M, .callback = cb});
  if (f == "qmr")
    return la::qmr(A, b,
                   {.x0 = x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M1 = M1, .M2 = M2, .callback = cb});
  REQUIRE(f == "tfqmr");
  return la::tfqmr(A, b, {.x0 = x0, .rtol = rtol, .atol = atol, .maxiter = maxiter, .M = M, .callback = cb});
}

void run_case(const case_t& c, bool functions) {
  CAPTURE(c.name());
  CAPTURE(functions);
  const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
  const std::string mat = c.get<std::string>("matrix");
  const csr_matrix A = stored_csr(mat, dt);
  const std::int64_t n = A.shape()[0];
  const host_array bh = garray(c.get<std::string>("b")).astype(dt);
  ndarray b = asarray(bh);
  if (c.get<std::string>("b_shape") == "n1") b = b.reshape({n, 1});
  std::optional<ndarray> x0;
  if (c.has("x0")) x0 = asarray(c.array("x0").astype(dt));
  std::optional<linear_operator> M = precond(c.get<std::string>("M"), mat, A, dt);
  std::optional<linear_operator> M1 = precond(c.get_or<std::string>("M1", "none"), mat, A, dt);
  std::optional<linear_operator> M2 = precond(c.get_or<std::string>("M2", "none"), mat, A, dt);
  if (functions) {
    if (M) M = as_function(*M);
    if (M1) M1 = as_function(*M1);
    if (M2) M2 = as_function(*M2);
  }
  std::int64_t calls = 0;
  const krylov_result r = functions ? solve(c, as_function(A), b, x0, M, M1, M2, calls)
                                    : solve(c, linear_operator(A), b, x0, M, M1, M2, calls);

  const std::int64_t info = c.get<std::int64_t>("info"), it = c.get<std::int64_t>("iterations");
  const std::int64_t lo = c.get<std::int64_t>("it_lo"), hi = c.get<std::int64_t>("it_hi");
  const bool steps = c.get<bool>("steps");
  CHECK(r.info == info);
  const bool single = dt == dtype::float32 || dt == dtype::complex64;
  const std::int64_t pct = single ? 10 : 5;
  const std::int64_t slack = steps ? 0 : std::max<std::int64_t>(2, (hi * pct + 99) / 100);
  CHECK_MESSAGE(r.iterations >= lo - slack, "iterations " << r.iterations << ", SciPy " << it << " [" << lo << ", " << hi << "]");
  CHECK_MESSAGE(r.iterations <= hi + slack, "iterations " << r.iterations << ", SciPy " << it << " [" << lo << ", " << hi << "]");
  CHECK(calls == r.iterations);
  const auto& hist = r.history;
  CHECK(hist.residual_norms.size() == hist.seconds.size());
  const bool zero_b = norm(to_complex(bh)) == 0;
  if (!zero_b) {
    CHECK(hist.residual_norms.size() >= static_cast<std::size_t>(r.iterations + 1));
    CHECK(hist.residual_norms.size() <= static_cast<std::size_t>(r.iterations + 2));
  }

  REQUIRE(r.x.ndim() == 1);
  CHECK(r.x.shape(0) == n);
  CHECK(r.x.dtype() == dt);
  const std::vector<std::complex<double>> x = to_complex(to_host(r.x)), xs = to_complex(c.array("x"));
  const double xtol = c.get<double>("xtol");
  if (std::isfinite(xtol)) {
    std::vector<std::complex<double>> d(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) d[i] = x[i] - xs[i];
    const double ns = norm(xs);
    const double rel = norm(d) / (ns > 0 ? ns : 1.0);
    CHECK_MESSAGE(rel <= xtol, "relative difference from SciPy's x " << rel << " > " << xtol);
  }
  const double restol = c.get<double>("restol");
  if (info == 0 && std::isfinite(restol) && !zero_b) {
    const std::vector<std::complex<double>> ax = to_complex(to_host(A.dot(r.x))), bv = to_complex(bh);
    std::vector<std::complex<double>> res(ax.size());
    for (std::size_t i = 0; i < ax.size(); ++i) res[i] = bv[i] - ax[i];
    const double rr = norm(res) / norm(bv);
    CHECK_MESSAGE(rr <= restol, "relative residual " << rr << " > " << restol);
  }
}

}  // namespace

TEST_CASE("nonsymmetric Krylov solvers match SciPy (CSR A, fused paths)") {
  const auto& cs = testing::cases(kModule);
  REQUIRE(cs.size() >= 150);
  for (std::size_t i = 0; i < cs.size(); ++i)
    if (testing::in_shard(i)) run_case(cs[i], false);
}

TEST_CASE("nonsymmetric Krylov solvers match SciPy with A and M given as functions") {
  std::size_t n = 0;
  for (const auto& c : testing::cases(kModule)) {
    if (c.get<std::string>("matrix") != "cd" || c.get<std::string>("dtype") != "float64") continue;
    if (testing::in_shard(n++)) run_case(c, true);
  }
  CHECK(n >= 30);
}

TEST_CASE("nonsymmetric Krylov solvers: complex b with a real matrix makes a complex system") {
  // SciPy's coerce: float64 A, complex128 b -> complex128 x. The reference: the complex
  // convection-diffusion matrix is cd + 5i I; here A is real, so solve A x = b with b complex and
  // check the residual only.
  const csr_matrix A = stored_csr("cd", dtype::float64);
  const std::int64_t n = A.shape()[0];
  const host_array b1 = garray("cd_b_ones");
  std::vector<std::complex<double>> bc(static_cast<std::size_t>(n));
  const auto* p = b1.data_as<double>();
  for (std::int64_t i = 0; i < n; ++i) bc[i] = {p[i], -0.5 * p[i]};
  const ndarray b = asarray(host_array::from(bc));
  for (const char* f : {"bicg", "bicgstab", "cgs", "qmr", "tfqmr"}) {
    CAPTURE(f);
    namespace la = sparse::linalg;
    const std::string s = f;
    const krylov_result r = s == "bicg"       ? la::bicg(A, b)
                            : s == "bicgstab" ? la::bicgstab(A, b)
                            : s == "cgs"      ? la::cgs(A, b)
                            : s == "qmr"      ? la::qmr(A, b)
                                              : la::tfqmr(A, b);
    CHECK(r.info == 0);
    CHECK(r.x.dtype() == dtype::complex128);
    const auto ax = to_complex(to_host(A.dot(r.x)));
    std::vector<std::complex<double>> res(ax.size());
    for (std::size_t i = 0; i < ax.size(); ++i) res[i] = bc[i] - ax[i];
    CHECK(norm(res) / norm(bc) < 1e-4);
  }
}

TEST_CASE("nonsymmetric Krylov solvers run on the current stream") {
  // A non-default stream: the result is the same as on the default stream.
  const csr_matrix A = stored_csr("cd", dtype::float64);
  const ndarray b = asarray(garray("cd_b_rand"));
  const krylov_result r0 = sparse::linalg::bicgstab(A, b);
  cusci::synchronize();  // the uploads and r0 on the default stream land before the other stream reads
  cusci::stream s(true);
  krylov_result r1;
  {
    const cusci::stream_guard g(s);
    r1 = sparse::linalg::bicgstab(A, b);
    s.synchronize();
  }
  CHECK(r1.info == r0.info);
  CHECK(r1.iterations == r0.iterations);
  testing::check_allclose(r1.x, to_host(r0.x), 1e-12, 1e-12);
}
