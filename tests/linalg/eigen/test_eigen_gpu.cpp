// GPU tests of cusci::linalg's eigen family against scipy.linalg 1.18 (tests/golden/gen_linalg_eigen.py):
// every case of the references (dtypes, sizes 0 to 100, batches and broadcasting, C/F/strided layouts,
// every option, promotion, subsets, generalized types, errors). Eigenvalues of symmetric problems are
// compared with SciPy's elementwise; nonsymmetric eigenvalues as multisets; eigenvectors through the
// residual a v - w b v and their normalization, scaled by the norms.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "cusci/linalg/eigen.hpp"
#include "cusci/stream.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden;
using cplx = std::complex<double>;

namespace {

const std::string mod = "linalg_eigen";

/// Host complex128 copy of an array (any layout).
std::vector<cplx> host_c(const host_array& h) {
  host_array c = h.astype(dtype::complex128);
  const cplx* p = c.data_as<cplx>();
  return std::vector<cplx>(p, p + c.size());
}
std::vector<cplx> host_c(const ndarray& d) { return host_c(cusci::to_host(d)); }

double max_abs(const std::vector<cplx>& v, std::size_t off, std::size_t count) {
  double m = 0;
  for (std::size_t i = 0; i < count; ++i) m = std::max(m, std::abs(v[off + i]));
  return m;
}

/// Broadcast-aware access to matrix b of a stacked (batch..., n, n) array with its own batch count.
struct mats {
  std::vector<cplx> v;
  std::int64_t count = 0, n = 0;
  const cplx* at(std::int64_t b) const { return v.data() + (count == 1 ? 0 : b) * n * n; }
};
mats load_mats(const host_array& h, std::int64_t n) {
  mats m;
  m.v = host_c(h);
  m.n = n;
  m.count = n ? static_cast<std::int64_t>(m.v.size()) / (n * n) : 0;
  return m;
}
mats identity(std::int64_t n) {
  mats m;
  m.n = n;
  m.count = 1;
  m.v.assign(static_cast<std::size_t>(n * n), 0);
  for (std::int64_t i = 0; i < n; ++i) m.v[i * n + i] = 1;
  return m;
}

/// y = M x for a C-order n x n matrix.
std::vector<cplx> mv(const cplx* m, const std::vector<cplx>& x, std::int64_t n) {
  std::vector<cplx> y(static_cast<std::size_t>(n), 0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < n; ++k) y[i] += m[i * n + k] * x[k];
  return y;
}
/// y = M^H x.
std::vector<cplx> mhv(const cplx* m, const std::vector<cplx>& x, std::int64_t n) {
  std::vector<cplx> y(static_cast<std::size_t>(n), 0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < n; ++k) y[i] += std::conj(m[k * n + i]) * x[k];
  return y;
}
cplx dotc(const std::vector<cplx>& x, const std::vector<cplx>& y) {
  cplx s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += std::conj(x[i]) * y[i];
  return s;
}

/// Column j of matrix b of a (batch, n, m) C-order host copy.
std::vector<cplx> column(const std::vector<cplx>& v, std::int64_t b, std::int64_t n, std::int64_t m, std::int64_t j) {
  std::vector<cplx> c(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) c[i] = v[(b * n + i) * m + j];
  return c;
}

/// Symmetric-problem eigenvectors: residual per type and the B-normalization, relative to the norms.
void check_sym_vectors(const cusci::testing::golden_case& c, const ndarray& w, const ndarray& v, const mats& A,
                       const mats& B, const mats* Binv, int type) {
  const std::int64_t n = v.shape(-2), m = v.shape(-1);
  const std::int64_t nb = n && m ? v.size() / (n * m) : 0;
  const std::vector<cplx> hv = host_c(v), hw = host_c(w);
  const double tol = c.get<double>("res_tol");
  double worst_res = 0, worst_orth = 0;
  for (std::int64_t b = 0; b < nb; ++b) {
    const double na = max_abs(A.v, (A.count == 1 ? 0 : b) * n * n, n * n);
    const double nbm = max_abs(B.v, (B.count == 1 ? 0 : b) * n * n, n * n);
    const double nw = max_abs(hw, b * m, m);
    std::vector<std::vector<cplx>> cols;
    for (std::int64_t j = 0; j < m; ++j) {
      const std::vector<cplx> x = column(hv, b, n, m, j);
      const cplx wj = hw[b * m + j];
      std::vector<cplx> lhs, rhs;
      double scale;
      if (type == 1) {
        lhs = mv(A.at(b), x, n);
        rhs = mv(B.at(b), x, n);
        for (auto& r : rhs) r *= wj;
        scale = n * (na + nw * nbm);
      } else if (type == 2) {
        lhs = mv(A.at(b), mv(B.at(b), x, n), n);
        rhs = x;
        for (auto& r : rhs) r *= wj;
        scale = n * (n * na * nbm + nw);
      } else {
        lhs = mv(B.at(b), mv(A.at(b), x, n), n);
        rhs = x;
        for (auto& r : rhs) r *= wj;
        scale = n * (n * na * nbm + nw);
      }
      double res = 0;
      for (std::int64_t i = 0; i < n; ++i) res = std::max(res, std::abs(lhs[i] - rhs[i]));
      worst_res = std::max(worst_res, res / std::max(scale, 1e-300));
      cols.push_back(x);
    }
    // normalization: V^H B V = I (types 1, 2), V^H B^-1 V = I (type 3)
    const mats& G = type == 3 ? *Binv : B;
    for (std::int64_t j = 0; j < m; ++j) {
      const std::vector<cplx> gj = mv(G.at(b), cols[j], n);
      for (std::int64_t k = 0; k < m; ++k) {
        const cplx g = dotc(cols[k], gj);
        worst_orth = std::max(worst_orth, std::abs(g - cplx(k == j ? 1.0 : 0.0)));
      }
    }
  }
  CHECK_MESSAGE(worst_res <= tol, "relative residual " << worst_res << " > " << tol);
  const double ntol = tol * std::max<double>(n, 1) * 10;
  CHECK_MESSAGE(worst_orth <= ntol, "normalization error " << worst_orth << " > " << ntol);
}

linalg::eig_select sel_of(const cusci::testing::golden_case& c) { return linalg::parse_eig_select(c.get<std::string>("select")); }

std::optional<std::array<double, 2>> range_of(const cusci::testing::golden_case& c, const std::string& key) {
  if (!c.has(key)) return std::nullopt;
  const auto v = c.get<std::vector<double>>(key);
  return std::array<double, 2>{v.at(0), v.at(1)};
}

void check_w(const cusci::testing::golden_case& c, const ndarray& w) {
  INFO("output w");
  cusci::testing::check_allclose(w, c.array("expected_w"), c.rtol(), c.atol());
}

void check_v_meta(const cusci::testing::golden_case& c, const ndarray& w, const ndarray& v) {
  INFO("output v");
  CHECK(std::string(dtype_name(v.dtype())) == c.get<std::string>("v_dtype"));
  REQUIRE(v.ndim() == w.ndim() + 1);
  CHECK(v.shape(-1) == c.get<std::int64_t>("v_cols"));
}

/// Input `key` of case `c` as the function sees it: the case's layout applied to the stored array (a
/// "strided" input is stored with its last axis doubled and passed as the [..., ::2] view, so the stored
/// array itself is not the matrix), as C-order matrices.
mats input_mats(const cusci::testing::golden_case& c, const std::string& key, std::int64_t n) {
  return load_mats(cusci::to_host(to_device(c.array(key), c.get<std::string>("layout"))), n);
}

/// The dense matrix the problem means: a_full when stored (stored plainly, whatever the layout), else the
/// input itself.
mats problem_matrix(const cusci::testing::golden_case& c, const std::string& full, const std::string& input,
                    std::int64_t n) {
  return c.has(full) ? load_mats(c.array(full), n) : input_mats(c, input, n);
}

void run_eigh(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray a = to_device(c.array("a"), layout);
  const bool gen = c.has("b");
  const ndarray b = gen ? to_device(c.array("b"), layout) : ndarray();
  linalg::eigh_options o;
  o.lower = c.get<bool>("lower");
  o.eigvals_only = c.get<bool>("eigvals_only");
  o.type = c.get<int>("type");
  o.check_finite = c.get<bool>("check_finite");
  if (c.has("subset_by_index")) {
    const auto v = c.get<std::vector<std::int64_t>>("subset_by_index");
    o.subset_by_index = std::array<std::int64_t, 2>{v.at(0), v.at(1)};
  }
  o.subset_by_value = range_of(c, "subset_by_value");
  o.driver = c.has("driver") ? linalg::parse_eigh_driver(c.get<std::string>("driver")) : linalg::eigh_driver::none;
  if (c.func() == "eigvalsh") {
    const linalg::eigvalsh_options vo{.lower = o.lower, .type = o.type, .check_finite = o.check_finite,
                                      .subset_by_index = o.subset_by_index, .subset_by_value = o.subset_by_value,
                                      .driver = o.driver};
    auto f = [&] { return gen ? linalg::eigvalsh(a, b, vo) : linalg::eigvalsh(a, vo); };
    if (c.expects_error()) return expect_error(c, f);
    ndarray w;
    REQUIRE_NOTHROW(w = f());
    return check_w(c, w);
  }
  auto f = [&] { return gen ? linalg::eigh(a, b, o) : linalg::eigh(a, o); };
  if (c.expects_error()) return expect_error(c, f);
  linalg::eigh_result r;
  REQUIRE_NOTHROW(r = f());
  check_w(c, r.w);
  if (o.eigvals_only) {
    CHECK_FALSE(r.v.memory());  // a default-constructed ndarray
    return;
  }
  check_v_meta(c, r.w, r.v);
  const std::int64_t n = a.shape(-1);
  if (n == 0 || !c.has("res_tol")) return;
  const mats A = problem_matrix(c, "a_full", "a", n);
  const mats B = gen ? problem_matrix(c, "b_full", "b", n) : identity(n);
  std::optional<mats> Bi;
  if (gen && o.type == 3) Bi = load_mats(c.array("binv_full"), n);
  check_sym_vectors(c, r.w, r.v, A, B, Bi ? &*Bi : nullptr, gen ? o.type : 1);
}

/// Nonsymmetric eigenvalues as multisets per matrix: each expected value matched to the nearest unused one.
void check_multiset(const cusci::testing::golden_case& c, const std::vector<cplx>& got,
                    const std::vector<cplx>& want, std::int64_t n) {
  REQUIRE(got.size() == want.size());
  const std::int64_t nb = n ? static_cast<std::int64_t>(want.size()) / n : 0;
  int bad = 0;
  for (std::int64_t b = 0; b < nb; ++b) {
    std::vector<bool> used(static_cast<std::size_t>(n), false);
    for (std::int64_t i = 0; i < n; ++i) {
      const cplx e = want[b * n + i];
      std::int64_t best = -1;
      double bd = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        if (used[j]) continue;
        const double d = std::abs(got[b * n + j] - e);
        if (best < 0 || d < bd) {
          best = j;
          bd = d;
        }
      }
      used[best] = true;
      if (!(bd <= c.atol() + c.rtol() * std::abs(e))) {
        if (!bad) MESSAGE("matrix " << b << ": expected eigenvalue " << e << ", nearest " << got[b * n + best]);
        ++bad;
      }
    }
  }
  CHECK_MESSAGE(bad == 0, bad << " eigenvalues differ (atol " << c.atol() << ")");
}

void run_eig(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray a = to_device(c.array("a"), layout);
  const bool gen = c.has("b");
  const ndarray b = gen ? to_device(c.array("b"), layout) : ndarray();
  const bool hom = c.get<bool>("homogeneous_eigvals");
  linalg::eig_result r;
  if (c.func() == "eigvals") {
    const linalg::eigvals_options vo{.check_finite = c.get<bool>("check_finite"), .homogeneous_eigvals = hom};
    auto f = [&] { return gen ? linalg::eigvals(a, b, vo) : linalg::eigvals(a, vo); };
    if (c.expects_error()) return expect_error(c, f);
    REQUIRE_NOTHROW(r.w = f());
  } else {
    const linalg::eig_options eo{.left = c.get<bool>("left"), .right = c.get<bool>("right"),
                                 .check_finite = c.get<bool>("check_finite"), .homogeneous_eigvals = hom};
    auto f = [&] { return gen ? linalg::eig(a, b, eo) : linalg::eig(a, eo); };
    if (c.expects_error()) return expect_error(c, f);
    REQUIRE_NOTHROW(r = f());
  }
  const host_array ew = c.array("expected_w");
  INFO("output w");
  CHECK(r.w.dtype() == ew.dtype());
  REQUIRE(r.w.shape() == ew.shape());
  const std::int64_t n = a.shape(-1);
  std::vector<cplx> got = host_c(r.w), want = host_c(ew), wv = got;
  if (hom) {
    // (alpha, beta) stacked on axis -2: compare alpha / beta
    auto ratio = [&](const std::vector<cplx>& x) {
      std::vector<cplx> out;
      const std::int64_t nb = n ? static_cast<std::int64_t>(x.size()) / (2 * n) : 0;
      for (std::int64_t bb = 0; bb < nb; ++bb)
        for (std::int64_t i = 0; i < n; ++i) out.push_back(x[bb * 2 * n + i] / x[bb * 2 * n + n + i]);
      return out;
    };
    got = ratio(got);
    want = ratio(want);
    wv = got;
  }
  check_multiset(c, got, want, n);
  if (n == 0 || !c.has("res_tol")) return;
  const mats A = input_mats(c, "a", n);
  const mats B = gen ? input_mats(c, "b", n) : identity(n);
  const double tol = c.get<double>("res_tol");
  const std::int64_t nb = static_cast<std::int64_t>(wv.size()) / n;
  auto check_vectors = [&](const ndarray& v, const std::string& key, bool left) {
    INFO("output " << key);
    CHECK(std::string(dtype_name(v.dtype())) == c.get<std::string>(key));
    REQUIRE(v.shape(-1) == n);
    const std::vector<cplx> hv = host_c(v);
    double worst = 0, worst_norm = 0;
    for (std::int64_t bb = 0; bb < nb; ++bb) {
      const double na = max_abs(A.v, (A.count == 1 ? 0 : bb) * n * n, n * n);
      const double nbm = max_abs(B.v, (B.count == 1 ? 0 : bb) * n * n, n * n);
      for (std::int64_t j = 0; j < n; ++j) {
        const std::vector<cplx> x = column(hv, bb, n, n, j);
        const cplx wj = wv[bb * n + j];
        // right: a x = w b x; left: x^H a = w x^H b, i.e. a^H x = conj(w) b^H x
        std::vector<cplx> lhs = left ? mhv(A.at(bb), x, n) : mv(A.at(bb), x, n);
        std::vector<cplx> rhs = left ? mhv(B.at(bb), x, n) : mv(B.at(bb), x, n);
        double res = 0;
        for (std::int64_t i = 0; i < n; ++i)
          res = std::max(res, std::abs(lhs[i] - (left ? std::conj(wj) : wj) * rhs[i]));
        worst = std::max(worst, res / (n * (na + std::abs(wj) * nbm)));
        worst_norm = std::max(worst_norm, std::abs(std::sqrt(std::real(dotc(x, x))) - 1.0));
      }
    }
    CHECK_MESSAGE(worst <= tol, "relative residual " << worst << " > " << tol);
    CHECK_MESSAGE(worst_norm <= tol * n, "column norm error " << worst_norm);
  };
  if (c.get<bool>("right") && c.func() == "eig") check_vectors(r.vr, "vr_dtype", false);
  if (c.get<bool>("left") && c.func() == "eig") check_vectors(r.vl, "vl_dtype", true);
}

void run_banded(const cusci::testing::golden_case& c) {
  const ndarray ab = to_device(c.array("ab"), c.get<std::string>("layout"));
  const bool lower = c.get<bool>("lower");
  if (c.func() == "eigvals_banded") {
    const linalg::eigvals_banded_options o{.lower = lower, .select = sel_of(c), .select_range = range_of(c, "select_range"),
                                           .check_finite = c.get<bool>("check_finite")};
    auto f = [&] { return linalg::eigvals_banded(ab, o); };
    if (c.expects_error()) return expect_error(c, f);
    ndarray w;
    REQUIRE_NOTHROW(w = f());
    return check_w(c, w);
  }
  const linalg::eig_banded_options o{.lower = lower, .eigvals_only = c.get<bool>("eigvals_only"), .select = sel_of(c),
                                     .select_range = range_of(c, "select_range"),
                                     .check_finite = c.get<bool>("check_finite")};
  auto f = [&] { return linalg::eig_banded(ab, o); };
  if (c.expects_error()) return expect_error(c, f);
  linalg::eigh_result r;
  REQUIRE_NOTHROW(r = f());
  check_w(c, r.w);
  if (o.eigvals_only) return;
  check_v_meta(c, r.w, r.v);
  if (!c.has("a_full")) return;
  const std::int64_t n = ab.shape(-1);
  check_sym_vectors(c, r.w, r.v, load_mats(c.array("a_full"), n), identity(n), nullptr, 1);
}

void run_tridiag(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray d = to_device(c.array("d"), layout), e = to_device(c.array("e"), layout);
  if (c.func() == "eigvalsh_tridiagonal") {
    const linalg::eigvalsh_tridiagonal_options o{.select = sel_of(c), .select_range = range_of(c, "select_range"),
                                                 .check_finite = c.get<bool>("check_finite"),
                                                 .tol = c.get<double>("tol"),
                                                 .lapack_driver = c.get<std::string>("lapack_driver")};
    auto f = [&] { return linalg::eigvalsh_tridiagonal(d, e, o); };
    if (c.expects_error()) return expect_error(c, f);
    ndarray w;
    REQUIRE_NOTHROW(w = f());
    return check_w(c, w);
  }
  const linalg::eigh_tridiagonal_options o{.eigvals_only = c.get<bool>("eigvals_only"), .select = sel_of(c),
                                           .select_range = range_of(c, "select_range"),
                                           .check_finite = c.get<bool>("check_finite"), .tol = c.get<double>("tol"),
                                           .lapack_driver = c.get<std::string>("lapack_driver")};
  auto f = [&] { return linalg::eigh_tridiagonal(d, e, o); };
  if (c.expects_error()) return expect_error(c, f);
  linalg::eigh_result r;
  REQUIRE_NOTHROW(r = f());
  check_w(c, r.w);
  if (o.eigvals_only) return;
  check_v_meta(c, r.w, r.v);
  const std::int64_t n = d.shape(-1);
  if (r.v.shape(-1) == 0) return;
  check_sym_vectors(c, r.w, r.v, load_mats(c.array("a_full"), n), identity(n), nullptr, 1);
}

void run_pinvh(const cusci::testing::golden_case& c) {
  const ndarray a = to_device(c.array("a"), c.get<std::string>("layout"));
  linalg::pinvh_options o;
  if (c.has("p_atol")) o.atol = c.get<double>("p_atol");
  if (c.has("p_rtol")) o.rtol = c.get<double>("p_rtol");
  o.lower = c.get<bool>("lower");
  o.return_rank = c.get<bool>("return_rank");
  o.check_finite = c.get<bool>("check_finite");
  auto f = [&] { return linalg::pinvh(a, o); };
  if (c.expects_error()) return expect_error(c, f);
  linalg::pinvh_result r;
  REQUIRE_NOTHROW(r = f());
  {
    INFO("output b");
    cusci::testing::check_allclose(r.b, c.array("expected"), c.rtol(), c.atol());
  }
  if (o.return_rank) {
    INFO("output rank");
    cusci::testing::check_allclose(r.rank, c.array("expected_rank"), 0, 0);
  } else {
    CHECK_FALSE(r.rank.memory());
  }
}

void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  const std::string f = c.func();
  if (f == "eigh" || f == "eigvalsh") run_eigh(c);
  else if (f == "eig" || f == "eigvals") run_eig(c);
  else if (f == "eig_banded" || f == "eigvals_banded") run_banded(c);
  else if (f == "eigh_tridiagonal" || f == "eigvalsh_tridiagonal") run_tridiag(c);
  else if (f == "pinvh") run_pinvh(c);
  else FAIL("unknown func " << f);
}

void run_func(const std::string& func, std::size_t at_least) { run_func_cases(mod, func, at_least, run_case); }

}  // namespace

TEST_CASE("eigh matches scipy.linalg.eigh") { run_func("eigh", 250); }
TEST_CASE("eigvalsh matches scipy.linalg.eigvalsh") { run_func("eigvalsh", 10); }
TEST_CASE("eig matches scipy.linalg.eig") { run_func("eig", 60); }
TEST_CASE("eigvals matches scipy.linalg.eigvals") { run_func("eigvals", 25); }
TEST_CASE("eig_banded matches scipy.linalg.eig_banded") { run_func("eig_banded", 40); }
TEST_CASE("eigvals_banded matches scipy.linalg.eigvals_banded") { run_func("eigvals_banded", 30); }
TEST_CASE("eigh_tridiagonal matches scipy.linalg.eigh_tridiagonal") { run_func("eigh_tridiagonal", 30); }
TEST_CASE("eigvalsh_tridiagonal matches scipy.linalg.eigvalsh_tridiagonal") { run_func("eigvalsh_tridiagonal", 10); }
TEST_CASE("pinvh matches scipy.linalg.pinvh") { run_func("pinvh", 30); }

TEST_CASE("the eigen family on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"eigh_f64_n64_b1", "eigh_c64_n100_b0", "eigh_f32_gen_t2_n40",
                                  "eigh_sub_val_f64_n50_batch", "eigh_sub_idx_c64_n50", "eig_f64_n16_lr",
                                  "eb_f64_n40_u5_l1", "et_f64_batch", "pinvh_c128_rankdef", "eigh_b_not_pd_batch"},
                            run_case);
}

TEST_CASE("messages follow SciPy's") {
  const ndarray a = asarray(golden(mod, "eigh_b_not_pd_a")), b = asarray(golden(mod, "eigh_b_not_pd_b"));
  CHECK_THROWS_WITH_AS(linalg::eigh(a, b),
                       "cusci::linalg::eigh: The leading minor of order 3 of B is not positive definite. The "
                       "factorization of B could not be completed and no eigenvalues or eigenvectors were computed.",
                       linalg::lin_alg_error);
  const ndarray nan = asarray(golden(mod, "eigh_nan_a"));
  CHECK_THROWS_WITH_AS(linalg::eigh(nan), "cusci::linalg::eigh: array must not contain infs or NaNs", value_error);
  CHECK_THROWS_WITH_AS(linalg::eigh(asarray(golden(mod, "eigh_uneven_value_subset_a")), {.subset_by_value = {{1.5, 4.0}}}),
                       doctest::Contains("all input arrays must have the same shape"), value_error);
}

TEST_CASE("inputs are not modified") {
  const host_array ha = golden(mod, "eigh_f64_n64_b1_a");
  const ndarray a = asarray(ha);
  (void)linalg::eigh(a, {.overwrite_a = true});
  (void)linalg::eig(a, {.left = true, .overwrite_a = true});
  (void)linalg::pinvh(a);
  cusci::testing::check_allclose(a, ha, 0, 0);
}

TEST_CASE("eigenvector arrays are Fortran-ordered per matrix") {
  const ndarray a = asarray(golden(mod, "eigh_f64_n5_b0_a"));
  const linalg::eigh_result r = linalg::eigh(a);
  CHECK(r.v.is_f_contiguous());
  CHECK(r.w.is_c_contiguous());
}
