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
    if (!blocks && o.compute_u && o.compute_vh && x.shape().back() == x.shape()[x.ndim() - 2])
      check_product(r.u, r.cs, r.vdh, x, tol * 10);
  }
}

}  // namespace

TEST_CASE("cossin matches scipy.linalg.cossin (references)") { run_func_cases(mod, "cossin", 120, run_case); }

TEST_CASE("cossin's messages follow SciPy's") {
  const ndarray x = asarray(cusci::testing::golden(mod, "cs_p_too_big_x"));
  CHECK_THROWS_WITH_AS(linalg::cossin(x, {.p = 4, .q = 2}), "cusci::linalg::cossin: invalid p=4, 0<p<4 must hold",
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::cossin(x), "cusci::linalg::cossin: When p and q are None, exactly four arrays should "
                                          "be in X, got 4",
                       value_error);
}
