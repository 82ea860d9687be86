// GPU tests of cusci::sparse::linalg::eigs against SciPy 1.18.1 (tests/golden/gen_sparse_linalg_eigs.py):
// eigenvalues (as sets; SciPy's order wherever SciPy's is a sort order), iteration counts on the
// well-conditioned problems, eigenvector residuals ||A z - w M z||, for the generated problems
// (convection-diffusion, random dense, complex), the bundled nonsymmetric matrices (west0479,
// orsirr_1, the complex young1c), float32/float64/complex64/complex128, every `which`, shift-invert
// (real, complex, OPpart "r"), the generalized problem, without eigenvectors; errors (zero v0, no
// convergence carrying the partial result, a v0 of the wrong size).

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/products.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg/eigs.hpp"
#include "eigs_test_util.hpp"

using namespace cusci;
using namespace cusci::eigs_test;
namespace la = cusci::sparse::linalg;

namespace {

sparse::csr_matrix stored_csr(const std::string& g, std::int64_t n) {
  return sparse::csr_matrix(asarray(testing::golden(kModule, g + "_data")),
                            asarray(testing::golden(kModule, g + "_indices")),
                            asarray(testing::golden(kModule, g + "_indptr")), sparse::matrix_options{.shape = sparse::shape2{n, n}});
}

sparse::csr_matrix matrix_of(const testing::golden_case& c) {
  const std::int64_t n = c.get<std::int64_t>("n");
  const dtype t = dtype_from_string(c.get<std::string>("dtype"));
  sparse::csr_matrix A = c.has("mtx") ? io::mmread(cusci::testing::example_matrix(c.get<std::string>("mtx"))).tocsr()
                                      : stored_csr(c.get<std::string>("matrix"), n);
  return A.astype(t);
}

// A z for a complex block z [n, k] (real A: real and imaginary parts separately).
ndarray apply(const sparse::csr_matrix& A, const ndarray& z) {
  if (is_complex(A.dtype())) return A.dot(z);
  ndarray re = A.dot(real(z).copy()), im = A.dot(imag(z).copy());
  return add(re.astype(z.dtype()), multiply(im.astype(z.dtype()), scalar(cplx(0.0, 1.0))));
}

// max_j ||A z_j - w_j M z_j|| / (||A||_F ||z_j||).
double residual(const sparse::csr_matrix& A, const sparse::csr_matrix* M, const ndarray& w, const ndarray& z) {
  if (z.size() == 0) return 0.0;
  ndarray az = apply(A, z);
  ndarray mz = M ? apply(*M, z) : z;
  ndarray r = subtract(az, multiply(mz, w.reshape({1, w.size()})));
  const auto rh = as_cplx(to_host(r)), zh = as_cplx(to_host(z));
  const double an = to_host(sparse::linalg::norm(A).astype(dtype::float64)).to_vector<double>()[0];
  const std::int64_t n = z.shape(0), k = z.shape(1);
  double worst = 0.0;
  for (std::int64_t j = 0; j < k; ++j) {
    double rn = 0.0, zn = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
      rn += std::norm(rh[i * k + j]);
      zn += std::norm(zh[i * k + j]);
    }
    worst = std::max(worst, std::sqrt(rn) / (an * std::sqrt(zn)));
  }
  return worst;
}

}  // namespace

TEST_CASE("eigs matches SciPy on every reference problem") {
  const auto cs = cases_of("eigs");
  REQUIRE(cs.size() >= 30);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const sparse::csr_matrix A = matrix_of(c);
    const dtype t = A.dtype();
    const bool real_a = !is_complex(t);
    const bool single = t == dtype::float32 || t == dtype::complex64;
    la::eigs_options o;
    o.k = c.get<std::int64_t>("k");
    o.which = c.get<std::string>("which");
    o.ncv = c.get<std::int64_t>("ncv");
    o.tol = c.get<double>("tol");
    o.v0 = asarray(c.array("v0"));
    o.return_eigenvectors = c.get<bool>("return_eigenvectors");
    if (c.has("sigma_re")) o.sigma = cplx(c.get<double>("sigma_re"), c.get<double>("sigma_im"));
    if (c.has("OPpart")) o.OPpart = c.get<std::string>("OPpart");
    std::optional<sparse::csr_matrix> M;
    if (c.has("M")) {
      M = stored_csr(c.get<std::string>("M"), c.get<std::int64_t>("n")).astype(t);
      o.M = la::linear_operator(*M);
    }
    const la::eigs_result r = la::eigs(A, o);
    CHECK(r.w.dtype() == (single ? dtype::complex64 : dtype::complex128));
    const auto got = as_cplx(to_host(r.w));
    const auto ref = as_cplx(c.array("w"));
    CHECK(same_set(got, ref, c.rtol(), real_a));
    const std::string which = c.get<std::string>("which");
    if (!c.has("sigma_re")) {
      if (c.get<bool>("sorted_desc")) CHECK(monotone(got, which, true, single ? 1e-5 : 1e-10));
      if (c.get<bool>("sorted_asc")) CHECK(monotone(got, which, false, single ? 1e-5 : 1e-10));
    }
    if (c.get<bool>("iter_check")) {
      CAPTURE(r.iterations);
      CHECK(iterations_close(r.iterations, c.get<std::int64_t>("iterations")));
    }
    if (o.return_eigenvectors) {
      CHECK(r.v.shape() == shape_t{A.shape()[0], r.w.size()});
      CHECK(residual(A, M ? &*M : nullptr, r.w, r.v) < (single ? 1e-3 : 1e-8));
    } else {
      CHECK(r.v.size() == 0);
    }
  }
}

TEST_CASE("eigs: errors that need the device") {
  const sparse::csr_matrix A = stored_csr("cd", 144);
  la::eigs_options o;
  o.v0 = ones({5});
  CHECK_THROWS_AS(la::eigs(A, o), value_error);
  o.v0 = zeros({144});
  CHECK_THROWS_AS(la::eigs(A, o), la::arpack_error);
  la::eigs_options n;
  n.maxiter = 1;
  n.tol = 1e-15;
  n.v0 = ones({144});
  try {
    (void)la::eigs(A, n);
    FAIL("expected arpack_no_convergence");
  } catch (const la::arpack_no_convergence& e) {
    CHECK(e.info() == -1);
    CHECK(e.eigenvalues().size() <= 6);
    CHECK(e.eigenvectors().ndim() == 2);
  }
  // An operator without a csr matrix needs OPinv for shift-invert.
  la::eigs_options s;
  s.sigma = 1.0;
  const la::linear_operator f({144, 144}, dtype::float64, [A](const ndarray& x) { return A.dot(x); });
  CHECK_THROWS_AS(la::eigs(f, s), not_implemented_error);
}

TEST_CASE("eigs: a function operator and OPinv give the csr results") {
  const sparse::csr_matrix A = stored_csr("cd", 144);
  const la::linear_operator f({144, 144}, dtype::float64, [A](const ndarray& x) { return A.dot(x); });
  la::eigs_options o;
  o.v0 = ones({144});
  const auto a = as_cplx(to_host(la::eigs(A, o).w));
  const auto b = as_cplx(to_host(la::eigs(f, o).w));
  CHECK(same_set(a, b, 1e-10, true));
}
