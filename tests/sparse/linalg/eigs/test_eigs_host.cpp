// Host tests of cusci::sparse::linalg::eigs (no GPU): the argument checks (SciPy's exception kinds,
// raised before any device work), and the ARPACK iteration itself (sparse/src/linalg/eigs_arpack.hpp:
// the selection, shifts, convergence test and final selection) driven by a dense host Arnoldi on the
// generated problems, against SciPy 1.18.1 (tests/golden/gen_sparse_linalg_eigs.py): eigenvalues,
// their order, and iteration counts.

#include <doctest/doctest.h>

#include <complex>
#include <string>
#include <vector>

#include "cusci/sparse/linalg/eigs.hpp"
#include "eigs_test_util.hpp"
#include "host_arnoldi.hpp"

using namespace cusci;
using namespace cusci::eigs_test;
namespace la = cusci::sparse::linalg;

namespace {

// The dense host copy of a stored CSR matrix.
std::vector<cplx> dense_of(const std::string& name, std::int64_t n) {
  const auto data = as_cplx(testing::golden(kModule, name + "_data"));
  const auto ind = testing::golden(kModule, name + "_indices").astype(dtype::int64).to_vector<std::int64_t>();
  const auto ptr = testing::golden(kModule, name + "_indptr").astype(dtype::int64).to_vector<std::int64_t>();
  std::vector<cplx> a(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t p = ptr[i]; p < ptr[i + 1]; ++p) a[i * n + ind[p]] += data[p];
  return a;
}

la::linear_operator fake_op(std::int64_t n, dtype t = dtype::float64) {
  return la::linear_operator({n, n}, t, [](const ndarray& x) { return x; });
}

}  // namespace

TEST_CASE("eigs: argument errors are SciPy's, before any device work") {
  const auto cs = cases_of("eigs_error");
  REQUIRE(cs.size() >= 10);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const std::int64_t n = c.get<std::int64_t>("n");
    la::eigs_options o;
    if (c.has("k")) o.k = c.get<std::int64_t>("k");
    if (c.has("which")) o.which = c.get<std::string>("which");
    if (c.has("ncv")) o.ncv = c.get<std::int64_t>("ncv");
    if (c.has("maxiter")) o.maxiter = c.get<std::int64_t>("maxiter");
    if (c.has("sigma")) o.sigma = c.get<double>("sigma");
    if (c.has("OPpart")) o.OPpart = c.get<std::string>("OPpart");
    if (c.has("OPinv")) o.OPinv = fake_op(n);
    if (c.has("Minv")) o.Minv = fake_op(n);
    testing::check_error(c, [&] { (void)la::eigs(fake_op(n), o); });
  }
}

TEST_CASE("eigs: more argument checks") {
  la::eigs_options o;
  CHECK_THROWS_AS(la::eigs(la::linear_operator({4, 5}, dtype::float64, [](const ndarray& x) { return x; }), o),
                  value_error);
  o.M = fake_op(10);
  CHECK_THROWS_AS(la::eigs(fake_op(40), o), value_error);  // wrong M shape
  la::eigs_options c;
  c.ncv = 7;  // complex: k < ncv is enough, but 7 <= k + 1 for real
  CHECK_THROWS_AS(la::eigs(fake_op(40), c), value_error);
  la::eigs_options s;
  s.sigma = std::complex<double>(1.0, 1.0);
  s.OPpart = "r";
  CHECK_THROWS_AS(la::eigs(fake_op(40, dtype::complex128), s), value_error);  // OPpart with complex A
  la::eigs_options m;
  m.sigma = 1.0;
  m.Minv = fake_op(40);
  CHECK_THROWS_AS(la::eigs(fake_op(40), m), value_error);
  la::eigs_options d;
  CHECK(d.k == 6);
  CHECK(d.which == "LM");
  CHECK(d.tol == 0.0);
  CHECK(d.return_eigenvectors);
  CHECK_FALSE(d.sigma.has_value());
  CHECK_THROWS_AS(la::arpack_detail::parse_which("lm"), value_error);
  CHECK(la::arpack_detail::parse_which("SI") == la::arpack_detail::which_t::SI);
}

TEST_CASE("eigs: the ARPACK iteration on the host gives SciPy's eigenvalues, order and counts") {
  int ran = 0;
  for (const auto& c : cases_of("eigs")) {
    if (!c.get_or<bool>("host", false)) continue;
    CAPTURE(c.name());
    const std::int64_t n = c.get<std::int64_t>("n");
    const std::string dt = c.get<std::string>("dtype");
    const bool real = dt == "float64";
    la::arpack_detail::arpack_params p;
    p.nev = c.get<std::int64_t>("k");
    p.ncv = c.get<std::int64_t>("ncv");
    p.maxiter = 10 * n;
    p.which = la::arpack_detail::parse_which(c.get<std::string>("which"));
    p.tol = c.get<double>("tol");
    p.real = real;
    const bool vec = c.get<bool>("return_eigenvectors");
    const auto a = dense_of(c.get<std::string>("matrix"), n);
    const auto v0 = as_cplx(c.array("v0"));
    const host_eigs_result r = host_eigs(dense_op(a, n), n, v0, p, vec);
    const auto ref = as_cplx(c.array("w"));
    CHECK_FALSE(r.failed);
    CHECK(same_set(r.nu, ref, std::max(c.rtol(), 1e-8), real));
    const std::string which = c.get<std::string>("which");
    if (c.get<bool>("sorted_desc")) CHECK(monotone(r.nu, which, true, 1e-10));
    if (c.get<bool>("sorted_asc")) CHECK(monotone(r.nu, which, false, 1e-10));
    if (c.get<bool>("iter_check")) {
      CAPTURE(r.iterations);
      CAPTURE(c.get<std::int64_t>("iterations"));
      CHECK(iterations_close(r.iterations, c.get<std::int64_t>("iterations")));
    }
    ++ran;
  }
  CHECK(ran >= 15);
}
