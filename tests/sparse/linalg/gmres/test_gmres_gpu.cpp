// GPU tests of cusci::sparse::linalg's gmres, lgmres, gcrotmk and minres against SciPy 1.18.1
// (tests/golden/gen_sparse_linalg_gmres.py): the bundled matrices (orsirr_1, west0479, young1c
// (complex), 1138_bus and bcsstk16 (SPD; minres with and without shift)) and generated Poisson,
// convection-diffusion, complex and Hermitian problems, float32 / float64 / complex64 / complex128;
// info codes, iteration counts (SciPy's callback counts), gmres's pr_norm sequence, solutions, the
// true residual, breakdowns (a matrix with three eigenvalues), b = 0, x0 = the solution, the
// iteration limits, every callback_type, and SciPy's errors. Also the operator paths: a user-function
// A and M, b of shape [n, 1], the in/out lists of lgmres (outer_v) and gcrotmk (CU).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/krylov_gmres.hpp"
#include "cusci/sparse/matrix.hpp"
#include "golden.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sl = cusci::sparse::linalg;
namespace t = cusci::testing;
using case_t = t::golden_case;
using cplx = std::complex<double>;

namespace {

const std::string kModule = "sparse_linalg_gmres";

ndarray dev(const std::string& name) { return asarray(t::golden(kModule, name)); }

std::vector<cplx> host_values(const ndarray& a) {
  host_array h = to_host(a).astype(dtype::complex128);
  const cplx* p = h.data_as<cplx>();
  return std::vector<cplx>(p, p + h.size());
}
std::vector<cplx> host_values(const host_array& a) {
  host_array h = a.astype(dtype::complex128);
  const cplx* p = h.data_as<cplx>();
  return std::vector<cplx>(p, p + h.size());
}
double norm2(const std::vector<cplx>& v) {
  double s = 0;
  for (const cplx& z : v) s += std::norm(z);
  return std::sqrt(s);
}
double rel_diff(const std::vector<cplx>& a, const std::vector<cplx>& b) {
  REQUIRE(a.size() == b.size());
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::norm(a[i] - b[i]);
  return std::sqrt(s) / std::max(norm2(b), 1e-300);
}

bool single(dtype dt) { return dt == dtype::float32 || dt == dtype::complex64; }

// The case's matrix in its dtype (cached).
const sparse::csr_matrix& matrix_of(const case_t& c) {
  static std::map<std::string, sparse::csr_matrix> cache;
  const std::string name = c.get<std::string>("matrix"), dts = c.get<std::string>("dtype");
  const std::string key = name + "/" + dts;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const dtype dt = dtype_from_string(dts);
  sparse::csr_matrix B;
  if (c.get<std::string>("source") == "mtx") {
    B = io::mmread(cusci::testing::example_matrix(name)).tocsr();
  } else {
    const auto sh = c.get<std::vector<std::int64_t>>("shape");
    B = sparse::csr_matrix(dev(name + "_data"), dev(name + "_indices"), dev(name + "_indptr"), sparse::shape2{sh[0], sh[1]});
  }
  sparse::csr_matrix A(B.data().astype(dt), B.indices(), B.indptr(), B.shape());
  return cache.emplace(key, std::move(A)).first->second;
}

struct outcome {
  sl::krylov_result r;
  std::int64_t callbacks = 0;
  std::vector<double> prn;
};

// Runs the case's solver on (A, b) with the case's options.
outcome run_case(const case_t& c, const sl::linear_operator& A, const ndarray& b) {
  outcome out;
  const std::string f = c.func();
  std::optional<ndarray> x0;
  if (c.has("x0")) x0 = dev(c.get<std::string>("x0"));
  std::optional<sl::linear_operator> M;
  if (c.get_or<std::string>("M", "") == "jacobi") M = sl::jacobi(matrix_of(c));
  const double rtol = c.get_or<double>("solver_rtol", 1e-5), atol = c.get_or<double>("solver_atol", 0.0);
  auto count = [&out](const ndarray&) { ++out.callbacks; };
  if (f == "gmres") {
    sl::gmres_options o;
    o.x0 = x0;
    o.rtol = rtol;
    o.atol = atol;
    if (c.has("restart")) o.restart = c.get<std::int64_t>("restart");
    if (c.has("maxiter")) o.maxiter = c.get<std::int64_t>("maxiter");
    o.M = M;
    if (c.has("callback_type")) o.callback_type = sl::gmres_callback_type_from_string(c.get<std::string>("callback_type"));
    const bool x_cb = o.callback_type == sl::gmres_callback_type::x;
    o.callback = [&out, x_cb](const ndarray& v) {
      ++out.callbacks;
      if (!x_cb) {
        CHECK(v.ndim() == 0);
        out.prn.push_back(v.item<double>());
      }
    };
    out.r = sl::gmres(A, b, o);
  } else if (f == "lgmres") {
    sl::lgmres_options o;
    o.x0 = x0;
    o.rtol = rtol;
    o.atol = atol;
    if (c.has("maxiter")) o.maxiter = c.get<std::int64_t>("maxiter");
    o.M = M;
    o.callback = count;
    if (c.has("inner_m")) o.inner_m = c.get<std::int64_t>("inner_m");
    if (c.has("outer_k")) o.outer_k = c.get<std::int64_t>("outer_k");
    if (c.has("store_outer_Av")) o.store_outer_Av = c.get<bool>("store_outer_Av");
    if (c.has("prepend_outer_v")) o.prepend_outer_v = c.get<bool>("prepend_outer_v");
    out.r = sl::lgmres(A, b, o);
  } else if (f == "gcrotmk") {
    sl::gcrotmk_options o;
    o.x0 = x0;
    o.rtol = rtol;
    o.atol = atol;
    if (c.has("maxiter")) o.maxiter = c.get<std::int64_t>("maxiter");
    o.M = M;
    o.callback = count;
    if (c.has("m")) o.m = c.get<std::int64_t>("m");
    if (c.has("k")) o.k = c.get<std::int64_t>("k");
    if (c.has("discard_C")) o.discard_C = c.get<bool>("discard_C");
    if (c.has("truncate")) o.truncate = sl::gcrotmk_truncate_from_string(c.get<std::string>("truncate"));
    out.r = sl::gcrotmk(A, b, o);
  } else if (f == "minres") {
    sl::minres_options o;
    o.x0 = x0;
    o.rtol = rtol;
    if (c.has("maxiter")) o.maxiter = c.get<std::int64_t>("maxiter");
    o.M = M;
    o.callback = count;
    if (c.has("shift")) o.shift = c.get<double>("shift");
    if (c.has("check")) o.check = c.get<bool>("check");
    out.r = sl::minres(A, b, o);
  } else {
    FAIL("unknown func " << f);
  }
  return out;
}

// Iteration counts may differ from SciPy's by rounding: cusci's classical Gram-Schmidt with DGKS
// reorthogonalisation (SciPy: modified Gram-Schmidt) and cuBLAS's reduction order change the residual
// estimates by a few ulps per step (a NumPy model of cusci's schedule reproduces SciPy's counts exactly
// in float64 on these cases), which can move the step at which a tolerance is crossed: +-3% (at least
// 1) in double precision, +-10% (at least 2) in single precision.
std::int64_t count_slack(std::int64_t ref, dtype dt) {
  if (single(dt)) return std::max<std::int64_t>(2, (ref + 9) / 10);
  return std::max<std::int64_t>(1, (3 * ref + 99) / 100);
}

void check_case(const case_t& c, const outcome& o, const ndarray& b) {
  const dtype dt = dtype_from_string(c.get<std::string>("dtype"));
  const std::int64_t n = c.get<std::vector<std::int64_t>>("shape")[0];
  const std::int64_t info = c.get<std::int64_t>("info"), calls = c.get<std::int64_t>("callbacks");
  const sl::krylov_result& r = o.r;
  CHECK(r.x.dtype() == dt);
  CHECK(r.x.shape() == shape_t{n});
  CHECK(r.info == info);
  const std::int64_t slack = count_slack(calls, dt);
  CHECK_MESSAGE(std::abs(o.callbacks - calls) <= slack, "callbacks " << o.callbacks << " vs SciPy " << calls);
  if (info > 0 && c.func() != "minres") CHECK(o.callbacks == calls);  // the limits are exact
  const std::string f = c.func();
  if (f == "gmres" || f == "minres") {
    CHECK(r.history.residual_norms.size() == static_cast<std::size_t>(r.iterations) + 1);
    CHECK(r.history.seconds.size() == r.history.residual_norms.size());
  }
  if (f == "gmres" && !o.prn.empty()) {
    CHECK(r.iterations == o.callbacks);
    const auto ref = host_values(c.array("prnorm"));
    const std::size_t k = std::min<std::size_t>({ref.size(), o.prn.size(), 20});
    const double tol = single(dt) ? 1e-2 : 1e-6;
    // A pr_norm at the rounding floor (below 10 eps of the dtype; pr_norm is relative to ||b||) has
    // no significant digits: it is the step where the Krylov space is exhausted (gmres_breakdown,
    // diag3: step 3), and its value is the orthogonalisation's rounding residual. SciPy 1.18.1's own
    // value there is 3.2e-16 for this b and ranges over 1.5e-16 .. 5.9e-16 (0.7 .. 2.7 eps) when b
    // moves by 10 eps (steps 1 and 2 move by 1e-15 relative); a NumPy model of cusci's classical
    // Gram-Schmidt with the DGKS second pass gives 7.5e-17, one pass 4.5e-16. Such an entry must be
    // at the floor too; every other reference entry compared here is above 70 eps (float32) / 1e10
    // eps (float64) and keeps the relative test.
    const double noise_floor = 10 * (single(dt) ? 1.1920928955078125e-07 : 2.220446049250313e-16);
    for (std::size_t i = 0; i < k; ++i) {
      if (ref[i].real() < noise_floor) {
        CHECK_MESSAGE(o.prn[i] < noise_floor, "pr_norm[" << i << "] " << o.prn[i] << " vs SciPy " << ref[i].real()
                                                   << " (rounding floor " << noise_floor << ")");
      } else {
        CHECK_MESSAGE(std::abs(o.prn[i] - ref[i].real()) <= tol * ref[i].real() + 1e-300,
                      "pr_norm[" << i << "] " << o.prn[i] << " vs SciPy " << ref[i].real());
      }
      CHECK(r.history.residual_norms[i + 1] == doctest::Approx(o.prn[i]).epsilon(1e-12));
    }
  }
  if (f == "minres") CHECK(r.iterations == o.callbacks);
  // The solution: SciPy's, within its rounding sensitivity when the iteration counts agree, else within
  // 10 times SciPy's own error against the direct solution.
  const auto x = host_values(r.x), xr = host_values(c.array("x"));
  const double d = rel_diff(x, xr);
  if (o.callbacks == calls && c.has("xtol_same")) {
    CHECK_MESSAGE(d <= c.get<double>("xtol_same"), "x differs from SciPy's by " << d);
  } else if (c.has("xtol")) {
    CHECK_MESSAGE(d <= c.get<double>("xtol"), "x differs from SciPy's by " << d);
  }
  // The true residual meets the tolerance wherever SciPy's did (not minres: its test is relative to
  // ||A|| ||x||).
  if (c.get<bool>("resid_ok") && info == 0 && f != "minres") {
    const auto bv = host_values(b);
    const auto ax = host_values(sl::linear_operator(matrix_of(c)).matvec(r.x));
    std::vector<cplx> res(bv.size());
    for (std::size_t i = 0; i < bv.size(); ++i) res[i] = bv[i] - ax[i];
    const double bound = std::max(c.get_or<double>("solver_rtol", 1e-5) * norm2(bv), c.get_or<double>("solver_atol", 0.0));
    CHECK_MESSAGE(norm2(res) <= bound * (single(dt) ? 1.5 : 1.01), "residual " << norm2(res) << " bound " << bound);
  }
}

}  // namespace

TEST_CASE("gmres, lgmres, gcrotmk, minres match SciPy") {
  const auto& all = t::cases(kModule);
  REQUIRE(all.size() >= 55);
  for (const auto& c : all) {
    CAPTURE(c.name());
    if (c.expects_error()) {
      t::check_error(c, [&] {
        const sparse::csr_matrix& A = matrix_of(c);
        (void)run_case(c, A, dev(c.get<std::string>("b")));
      });
      continue;
    }
    const sparse::csr_matrix& A = matrix_of(c);
    const ndarray b = dev(c.get<std::string>("b"));
    const outcome o = run_case(c, A, b);
    check_case(c, o, b);
  }
}

TEST_CASE("gmres family: user-function operators, b of shape [n, 1]") {
  for (const char* name : {"gmres_convdiff_float64", "lgmres_convdiff_float64", "gcrotmk_m10k4", "minres_poisson_float64"}) {
    CAPTURE(name);
    const case_t* cp = nullptr;
    for (const auto& c : t::cases(kModule))
      if (c.name() == name) cp = &c;
    REQUIRE(cp);
    const case_t& c = *cp;
    const sparse::csr_matrix& A = matrix_of(c);
    std::int64_t products = 0;
    const sl::linear_operator Af(A.shape(), A.dtype(), [&](const ndarray& x) {
      ++products;
      return sl::linear_operator(A).matvec(x);
    });
    const ndarray b = dev(c.get<std::string>("b"));
    const ndarray b2 = b.reshape({b.size(), 1});
    const outcome o = run_case(c, Af, b2);
    CHECK(products > 0);
    CHECK(o.r.x.shape() == shape_t{b.size()});
    check_case(c, o, b);
  }
}

TEST_CASE("lgmres outer_v and gcrotmk CU carry the subspace to a second solve") {
  const case_t* cp = nullptr;
  for (const auto& c : t::cases(kModule))
    if (c.name() == "gcrotmk_m10k4") cp = &c;
  REQUIRE(cp);
  const sparse::csr_matrix& A = matrix_of(*cp);
  const ndarray b = dev(cp->get<std::string>("b"));
  {
    std::vector<sl::lgmres_outer_vector> outer;
    sl::lgmres_options o;
    o.inner_m = 10;
    o.outer_v = &outer;
    const auto r1 = sl::lgmres(A, b, o);
    CHECK(r1.info == 0);
    CHECK(outer.size() <= 3);
    CHECK(!outer.empty());
    for (const auto& ov : outer) {  // SciPy keeps dx / ||dx|| and A dx / ||dx||
      CHECK(norm2(host_values(ov.z)) == doctest::Approx(1.0).epsilon(1e-10));
      REQUIRE(ov.Az.has_value());
      const auto az = host_values(*ov.Az), ref = host_values(sl::linear_operator(A).matvec(ov.z));
      CHECK(rel_diff(az, ref) < 1e-6);
    }
    const auto r2 = sl::lgmres(A, b, o);  // the same system again, augmented by the first solve's vectors
    CHECK(r2.info == 0);
    CHECK(r2.iterations <= r1.iterations + 1);
  }
  {
    std::vector<sl::gcrotmk_cu> CU;
    sl::gcrotmk_options o;
    o.m = 10;
    o.k = 4;
    o.CU = &CU;
    const auto r1 = sl::gcrotmk(A, b, o);
    CHECK(r1.info == 0);
    REQUIRE(!CU.empty());
    CHECK(!CU.back().c.has_value());  // (None, x) appended, as SciPy
    const auto r2 = sl::gcrotmk(A, b, o);  // x lies in span(U): the projection solves it
    CHECK(r2.info == 0);
    CHECK(r2.iterations <= 1);
    // Both residuals are below rtol ||b||, so ||x2 - x1|| <= 2 rtol ||A^-1|| ||b||: about 2e-5 cond(A)
    // relative (cond of this 324-point convection-diffusion matrix: a few hundred).
    const auto x1 = host_values(r1.x), x2 = host_values(r2.x);
    CHECK(rel_diff(x2, x1) < 2e-2);
  }
}
