// GPU tests of cusci::linalg::cossin against scipy.linalg 1.18 (tests/golden/gen_linalg_cossin.py): every
// case of the references (dtypes, partitions, separate, swap_sign, compute_u/compute_vh, batches, the
// four-block forms, promotion, bad arguments). theta and cs are compared with SciPy's; the unitary factors
// through their properties (unitary; u @ cs @ vdh reproduces x), since LAPACK builds may pick other signs.

#include <doctest/doctest.h>

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "cusci/linalg/cossin.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using C = std::complex<double>;

namespace {

const std::string mod = "linalg_cossin";

std::vector<C> host_c128(const ndarray& a) { return to_host(a.astype(dtype::complex128)).to_vector<C>(); }

/// Each k x k matrix of the batch in `a` is unitary (a^H a = I) to `tol`.
void check_unitary(const ndarray& a, double tol) {
  if (a.size() == 0) return;
  const std::int64_t k = a.shape().back(), nb = static_cast<std::int64_t>(a.size()) / (k * k);
  const std::vector<C> v = host_c128(a);
  for (std::int64_t b = 0; b < nb; ++b)
    for (std::int64_t i = 0; i < k; ++i)
      for (std::int64_t j = 0; j < k; ++j) {
        C s = 0;
        for (std::int64_t l = 0; l < k; ++l) s += std::conj(v[b * k * k + l * k + i]) * v[b * k * k + l * k + j];
        CHECK(std::abs(s - (i == j ? C(1) : C(0))) < tol);
      }
}

/// u @ cs @ vdh == x for each matrix of the batch, to `tol`.
void check_product(const ndarray& u, const ndarray& cs, const ndarray& vdh, const ndarray& x, double tol) {
  const std::int64_t m = x.shape().back(), nb = static_cast<std::int64_t>(x.size()) / (m * m);
  const std::vector<C> U = host_c128(u), S = host_c128(cs), V = host_c128(vdh), X = host_c128(x);
  for (std::int64_t b = 0; b < nb; ++b) {
    std::vector<C> t(static_cast<std::size_t>(m * m));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < m; ++j)
        for (std::int64_t l = 0; l < m; ++l) t[i * m + j] += U[b * m * m + i * m + l] * S[b * m * m + l * m + j];
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < m; ++j) {
        C s = 0;
        for (std::int64_t l = 0; l < m; ++l) s += t[i * m + l] * V[b * m * m + l * m + j];
        CHECK(std::abs(s - X[b * m * m + i * m + j]) < tol);
      }
  }
}

/// The matrix X an array of four blocks stands for (SciPy, p and q not given: X[0] = x11, X[1] = x12,
/// X[2] = x21, X[3] = x22 of one shape [batch..., r, c]): [batch..., 2r, 2c] = [[x11, x12], [x21, x22]].
ndarray assemble_blocks(const ndarray& xb) {
  REQUIRE(xb.ndim() >= 3);
  REQUIRE(xb.shape()[0] == 4);
  const shape_t& s = xb.shape();
  const std::int64_t r = s[s.size() - 2], c = s.back();
  const std::int64_t nb = static_cast<std::int64_t>(xb.size()) / (4 * r * c);
  shape_t out(s.begin() + 1, s.end());
  out[out.size() - 2] = 2 * r;
  out.back() = 2 * c;
  const std::vector<C> v = host_c128(xb);
  host_array h(dtype::complex128, out);
  C* d = h.data_as<C>();
  for (std::int64_t k = 0; k < 4; ++k)
    for (std::int64_t b = 0; b < nb; ++b)
      for (std::int64_t i = 0; i < r; ++i)
        for (std::int64_t j = 0; j < c; ++j)
          d[(b * 2 * r + (k / 2) * r + i) * 2 * c + (k % 2) * c + j] = v[((k * nb + b) * r + i) * c + j];
  return asarray(h);
}

shape_t shape_of(const cusci::testing::golden_case& c, const std::string& key) {
  const auto v = c.get<std::vector<std::int64_t>>(key);
  return shape_t(v.begin(), v.end());
}

void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  linalg::cossin_options o;
  if (c.has("p")) o.p = c.get<std::int64_t>("p");
  if (c.has("q")) o.q = c.get<std::int64_t>("q");
  o.separate = c.get<bool>("separate");
  o.swap_sign = c.get<bool>("swap_sign");
  o.compute_u = c.get<bool>("compute_u");
  o.compute_vh = c.get<bool>("compute_vh");
  const bool blocks = c.get<bool>("blocks");
  ndarray x;
  std::vector<ndarray> bl;
  if (blocks) {
    for (const char* k : {"x11", "x12", "x21", "x22"}) bl.push_back(asarray(c.array(k)));
  } else {
    x = asarray(c.array("x"));
  }
  auto call = [&] { return blocks ? linalg::cossin(bl, o) : linalg::cossin(x, o); };
  if (c.expects_error()) return expect_error(c, call);
  linalg::cossin_result r;
  REQUIRE_NOTHROW(r = call());
  const double tol = c.atol() > 0 ? c.atol() : 1e-10;
  if (o.separate) {
    check_output(c, r.theta, "theta");
    CHECK(r.u1.shape() == shape_of(c, "shape_u1"));
    CHECK(r.u2.shape() == shape_of(c, "shape_u2"));
    CHECK(r.v1h.shape() == shape_of(c, "shape_v1h"));
    CHECK(r.v2h.shape() == shape_of(c, "shape_v2h"));
    for (const ndarray* f : {&r.u1, &r.u2, &r.v1h, &r.v2h}) check_unitary(*f, tol);
  } else {
    check_output(c, r.cs, "cs");
    CHECK(r.u.shape() == shape_of(c, "shape_u"));
    CHECK(r.vdh.shape() == shape_of(c, "shape_vdh"));
    check_unitary(r.u, tol);
    check_unitary(r.vdh, tol);
    // x is the matrix when p or q is given (SciPy's `if p or q`), else the array of its four blocks
    const bool pq = (o.p && *o.p != 0) || (o.q && *o.q != 0);
    if (!blocks && o.compute_u && o.compute_vh) {
      const ndarray xm = pq ? x : assemble_blocks(x);
      if (xm.shape().back() == xm.shape()[xm.ndim() - 2]) check_product(r.u, r.cs, r.vdh, xm, tol * 10);
    }
  }
}

}  // namespace

TEST_CASE("cossin matches scipy.linalg.cossin (references)") { run_func_cases(mod, "cossin", 120, run_case); }

TEST_CASE("cossin's messages follow SciPy's") {
  const ndarray x = asarray(cusci::testing::golden(mod, "cs_p_too_big_x"));
  CHECK_THROWS_WITH_AS(linalg::cossin(x, {.p = 4, .q = 2}), "cusci::linalg::cossin: invalid p=4, 0<p<4 must hold",
                       value_error);
  // without p and q a 4 x 4 array is iterated as four 1 x 4 blocks (SciPy's `len(X) == 4` passes), which
  // form a 2 x 8 array
  CHECK_THROWS_WITH_AS(linalg::cossin(x), "cusci::linalg::cossin: The subblocks have compatible sizes but don't "
                                          "form a square array (instead they form a 2x8 array). This might be due "
                                          "to missing p, q arguments.",
                       value_error);
  // the count message needs a first axis other than 4
  const ndarray x3 = x[{slice{0, 3}, slice{0, 3}}];
  CHECK_THROWS_WITH_AS(linalg::cossin(x3), "cusci::linalg::cossin: When p and q are None, exactly four arrays "
                                           "should be in X, got 3",
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(std::vector<ndarray>{x3, x3, x3}),
                       "cusci::linalg::cossin: When p and q are None, exactly four arrays should be in X, got 3",
                       value_error);
}
