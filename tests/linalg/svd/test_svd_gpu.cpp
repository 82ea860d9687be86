// GPU tests of cusci::linalg's SVD family against scipy.linalg 1.18 (tests/golden/gen_linalg_svd.py): every
// case of the references (dtypes, sizes 1 to 64 on the Jacobi kernel, 150 to 300 on the cuSOLVER path with
// both drivers, with and without vectors, tall/wide, rank-deficient and zero matrices, batches, C/F/strided
// layouts, promotion, empty arrays, errors), on the null stream and on a non-blocking stream. Singular values
// are compared with SciPy's; U and Vh (not unique) through u @ diag(s) @ vh == a and the orthonormality of
// their columns/rows.

#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/linalg/svd.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/products.hpp"
#include "cusci/stream.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden;

namespace {

const std::string mod = "linalg_svd";

ndarray mH(const ndarray& a) { return conj(swapaxes(a, -1, -2)); }

/// Tolerance of orthonormality checks for matrices of order up to n.
double ortho_tol(dtype t, std::int64_t n) {
  const double e = real_dtype(t) == dtype::float32 ? 1.2e-7 : 2.3e-16;
  return 100 * e * std::max(1.0, std::sqrt(static_cast<double>(n)));
}

/// g (square, [..., k, k]) is the identity.
void check_identity(const ndarray& g, const std::string& what) {
  INFO(what);
  const std::int64_t k = g.shape(-1);
  const ndarray id = eye(k, {}, 0, g.dtype()).broadcast_to(g.shape()).copy();
  cusci::testing::check_allclose(g, id.get(), 0, ortho_tol(g.dtype(), k));
}

void check_svd_factors(const cusci::testing::golden_case& c, const ndarray& a, const linalg::svd_result& r) {
  CHECK(r.u.shape() == c.get<shape_t>("u_shape"));
  CHECK(r.vh.shape() == c.get<shape_t>("vh_shape"));
  CHECK(std::string(dtype_name(r.u.dtype())) == c.get<std::string>("u_dtype"));
  CHECK(r.vh.dtype() == r.u.dtype());
  if (r.u.size() == 0 && r.vh.size() == 0) return;
  check_identity(matmul(mH(r.u), r.u), "u^H u");
  check_identity(matmul(r.vh, mH(r.vh)), "vh vh^H");
  if (a.size() == 0) return;
  const std::int64_t k = r.s.shape(-1);
  const ndarray uk = r.u[{ellipsis, slice{}, slice{0, k}}];
  const ndarray vk = r.vh[{ellipsis, slice{0, k}, slice{}}];
  const ndarray rec = matmul(multiply(uk, r.s.expand_dims(-2)), vk);
  INFO("u @ diag(s) @ vh == a");
  cusci::testing::check_allclose(rec, ascontiguousarray(a).astype(r.u.dtype()).get(), 10 * c.rtol(), 10 * c.atol());
}

void check_out(const cusci::testing::golden_case& c, const ndarray& x, std::size_t i) {
  const auto names = c.get<std::vector<std::optional<std::string>>>("expected");
  REQUIRE(i < names.size());
  INFO("output " << i);
  if (!names[i]) {
    CHECK(x.data() == nullptr);
    return;
  }
  cusci::testing::check_allclose(x, golden(mod, *names[i]), c.rtol(), c.atol());
}

/// Runs one case of the references.
void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  const std::string layout = c.get<std::string>("layout");
  const std::string f = c.func();
  auto in = [&](int i) { return to_device(c.array("in" + std::to_string(i)), layout); };
  if (f == "svd" || f == "svdvals") {
    const ndarray a = to_device(c.array("a"), layout);
    const bool check_finite = c.get<bool>("check_finite");
    if (f == "svdvals") {
      if (c.expects_error()) return expect_error(c, [&] { return linalg::svdvals(a, {.check_finite = check_finite}); });
      ndarray s;
      REQUIRE_NOTHROW(s = linalg::svdvals(a, {.check_finite = check_finite}));
      cusci::testing::check_allclose(s, c.array("expected_s"), c.rtol(), c.atol());
      return;
    }
    const linalg::svd_options o{.full_matrices = c.get<bool>("full_matrices"),
                                .compute_uv = c.get<bool>("compute_uv"),
                                .check_finite = check_finite,
                                .lapack_driver = linalg::parse_svd_driver(c.get<std::string>("lapack_driver"))};
    if (c.expects_error()) return expect_error(c, [&] { return linalg::svd(a, o); });
    linalg::svd_result r;
    REQUIRE_NOTHROW(r = linalg::svd(a, o));
    {
      INFO("s");
      cusci::testing::check_allclose(r.s, c.array("expected_s"), c.rtol(), c.atol());
    }
    if (o.compute_uv) check_svd_factors(c, a, r);
    else CHECK(r.u.data() == nullptr);
  } else if (f == "orth" || f == "null_space") {
    const ndarray a = to_device(c.array("a"), layout);
    const std::optional<double> rcond = c.has("rcond") ? std::optional<double>(c.get<double>("rcond")) : std::nullopt;
    auto call = [&] { return f == "orth" ? linalg::orth(a, rcond) : linalg::null_space(a, {.rcond = rcond}); };
    if (c.expects_error()) return expect_error(c, call);
    ndarray q;
    REQUIRE_NOTHROW(q = call());
    CHECK(q.shape(-1) == c.get<std::int64_t>("ncols"));
    if (q.size()) check_identity(matmul(mH(q), q), "q^H q");
    INFO("projector q q^H");
    cusci::testing::check_allclose(matmul(q, mH(q)), c.array("expected_proj"), c.rtol(), c.atol());
  } else if (f == "diagsvd") {
    const ndarray s = in(0);
    auto call = [&] { return linalg::diagsvd(s, c.get<std::int64_t>("opt_M"), c.get<std::int64_t>("opt_N")); };
    if (c.expects_error()) return expect_error(c, call);
    ndarray x;
    REQUIRE_NOTHROW(x = call());
    check_out(c, x, 0);
  } else if (f == "pinv") {
    const ndarray a = in(0);
    linalg::pinv_options o{.return_rank = true};
    if (c.has("opt_atol")) o.atol = c.get<double>("opt_atol");
    if (c.has("opt_rtol")) o.rtol = c.get<double>("opt_rtol");
    if (c.expects_error()) return expect_error(c, [&] { return linalg::pinv(a, o); });
    linalg::pinv_result r;
    REQUIRE_NOTHROW(r = linalg::pinv(a, o));
    check_out(c, r.B, 0);
    check_out(c, r.rank, 1);
  } else if (f == "polar") {
    const ndarray a = in(0);
    auto call = [&] { return linalg::polar(a, linalg::parse_polar_side(c.get<std::string>("opt_side"))); };
    if (c.expects_error()) return expect_error(c, call);
    linalg::polar_result r;
    REQUIRE_NOTHROW(r = call());
    check_out(c, r.u, 0);
    check_out(c, r.p, 1);
  } else if (f == "orthogonal_procrustes") {
    const ndarray a = in(0), b = in(1);
    if (c.expects_error()) return expect_error(c, [&] { return linalg::orthogonal_procrustes(a, b); });
    linalg::orthogonal_procrustes_result r;
    REQUIRE_NOTHROW(r = linalg::orthogonal_procrustes(a, b));
    check_out(c, r.R, 0);
    check_out(c, r.scale, 1);
  } else if (f == "subspace_angles") {
    const ndarray a = in(0), b = in(1);
    if (c.expects_error()) return expect_error(c, [&] { return linalg::subspace_angles(a, b); });
    ndarray t;
    REQUIRE_NOTHROW(t = linalg::subspace_angles(a, b));
    check_out(c, t, 0);
  } else if (f == "lstsq") {
    const ndarray a = in(0), b = in(1);
    linalg::lstsq_options o;
    if (c.has("opt_cond")) o.cond = c.get<double>("opt_cond");
    if (c.has("opt_lapack_driver")) o.lapack_driver = linalg::parse_lstsq_driver(c.get<std::string>("opt_lapack_driver"));
    if (c.expects_error()) return expect_error(c, [&] { return linalg::lstsq(a, b, o); });
    linalg::lstsq_result r;
    REQUIRE_NOTHROW(r = linalg::lstsq(a, b, o));
    check_out(c, r.x, 0);
    check_out(c, r.residues, 1);
    check_out(c, r.rank, 2);
    check_out(c, r.s, 3);
  } else {
    FAIL("unknown func " << f);
  }
}

void run_func(const std::string& func, std::size_t at_least) { run_func_cases(mod, func, at_least, run_case); }

}  // namespace

TEST_CASE("svd matches scipy.linalg.svd") { run_func("svd", 200); }
TEST_CASE("svdvals matches scipy.linalg.svdvals") { run_func("svdvals", 4); }
TEST_CASE("diagsvd matches scipy.linalg.diagsvd") { run_func("diagsvd", 9); }
TEST_CASE("orth matches scipy.linalg.orth") { run_func("orth", 8); }
TEST_CASE("null_space matches scipy.linalg.null_space") { run_func("null_space", 8); }
TEST_CASE("pinv matches scipy.linalg.pinv") { run_func("pinv", 10); }
TEST_CASE("polar matches scipy.linalg.polar") { run_func("polar", 9); }
TEST_CASE("orthogonal_procrustes matches scipy.linalg.orthogonal_procrustes") { run_func("orthogonal_procrustes", 6); }
TEST_CASE("subspace_angles matches scipy.linalg.subspace_angles") { run_func("subspace_angles", 7); }
TEST_CASE("lstsq matches scipy.linalg.lstsq") { run_func("lstsq", 25); }

TEST_CASE("the svd family on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"svd_f32_batch256_64", "svd_c128_17x17_b1", "svd_lib_f64_300x200_gesdd",
                                  "svd_lib_f64_200x300_econ_gesvd", "svd_f64_rankdef", "lstsq_f64_batch", "pinv_c64",
                                  "null_c128"}, run_case);
}

TEST_CASE("messages follow SciPy's") {
  const ndarray bad = asarray(golden(mod, "svd_err_nan_a"));
  CHECK_THROWS_WITH_AS(linalg::svd(bad), "cusci::linalg::svd: array must not contain infs or NaNs", value_error);
  CHECK_THROWS_WITH_AS(linalg::svd(bad, {.check_finite = false}), "cusci::linalg::svd: slice 0 has a NaN entry",
                       value_error);
  // orth of a batch whose matrices have different ranks: SciPy cannot stack the results
  const ndarray two = asarray(std::vector<double>{1, 0, 0, 1, 1, 0, 0, 0}, {2, 2, 2});
  CHECK_THROWS_WITH_AS(linalg::orth(two), doctest::Contains("all input arrays must have the same shape"), value_error);
}

TEST_CASE("rank-deficient and repeated singular values give orthonormal full factors") {
  // the zero matrix and a matrix with a repeated singular value: completion of the bases in the kernel
  for (dtype t : {dtype::float32, dtype::float64, dtype::complex64, dtype::complex128}) {
    INFO(dtype_name(t));
    const ndarray z = zeros({3, 5, 9}, t);
    const linalg::svd_result r = linalg::svd(z);
    check_identity(matmul(mH(r.u), r.u), "u of zeros");
    check_identity(matmul(r.vh, mH(r.vh)), "vh of zeros");
    const ndarray e = eye(7, 4, 0, t);
    const linalg::svd_result q = linalg::svd(e);
    check_identity(matmul(mH(q.u), q.u), "u of eye(7, 4)");
    check_identity(matmul(q.vh, mH(q.vh)), "vh of eye(7, 4)");
  }
}
