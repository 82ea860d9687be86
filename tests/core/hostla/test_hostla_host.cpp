// cusci::detail::hostla (internal host dense linear algebra) against numpy.linalg / scipy.linalg /
// numpy.fft (references: tests/golden/gen_core_hostla.py; comparison rules in its docstring).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"
#include "testing.hpp"

using namespace cusci;
namespace hl = cusci::detail::hostla;
using cplx = std::complex<double>;

namespace {
const char* M = "core_hostla";
const char* FN = "cusci::test::hostla";

std::vector<double> rvec(const testing::golden_case& c, const std::string& k) {
  return c.array(k).astype(dtype::float64).to_vector<double>();
}
std::vector<cplx> cvec(const testing::golden_case& c, const std::string& k) {
  return c.array(k).astype(dtype::complex128).to_vector<cplx>();
}
hl::rmat rmat_of(const host_array& h) {
  const std::int64_t m = h.ndim() == 2 ? h.shape()[0] : 0, n = h.ndim() == 2 ? h.shape()[1] : 0;
  hl::rmat a(m, n);
  a.v = h.astype(dtype::float64).to_vector<double>();
  return a;
}
hl::cmat cmat_of(const host_array& h) {
  hl::cmat a(h.shape()[0], h.shape()[1]);
  a.v = h.astype(dtype::complex128).to_vector<cplx>();
  return a;
}
hl::rmat rmat_of(const testing::golden_case& c, const std::string& k) { return rmat_of(c.array(k)); }
hl::cmat cmat_of(const testing::golden_case& c, const std::string& k) { return cmat_of(c.array(k)); }

template <class T>
double maxabs(const std::vector<T>& v) {
  double m = 0;
  for (const auto& x : v) m = std::max(m, std::abs(x));
  return m;
}

// Elementwise |got - want| <= atol + rtol |want|.
template <class A, class B>
void check_close(const std::vector<A>& got, const std::vector<B>& want, double rtol, double atol, const std::string& what) {
  REQUIRE_MESSAGE(got.size() == want.size(), what << ": size " << got.size() << " vs " << want.size());
  std::size_t bad = 0;
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const cplx g(got[i]), w(want[i]);
    if (!std::isfinite(std::abs(w)) || !std::isfinite(std::abs(g))) {  // inf/nan must match exactly
      const auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
      if (!same(g.real(), w.real()) || !same(g.imag(), w.imag())) ++bad;
      continue;
    }
    const double d = std::abs(g - w);
    if (!(d <= atol + rtol * std::abs(w))) ++bad;
    worst = std::max(worst, d);
  }
  CHECK_MESSAGE(bad == 0, what << ": " << bad << " entries off, worst abs error " << worst);
}

// Eigenvalue sets: each expected value matched to the nearest unused computed one.
void check_set(const std::vector<cplx>& got, const std::vector<cplx>& want, double rtol, double atol,
               const std::string& what) {
  REQUIRE_MESSAGE(got.size() == want.size(), what << ": " << got.size() << " values vs " << want.size());
  std::vector<cplx> w = want;
  std::sort(w.begin(), w.end(), [](cplx a, cplx b) { return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag(); });
  std::vector<char> used(got.size(), 0);
  double worst = 0;
  std::size_t bad = 0;
  for (const cplx& x : w) {
    std::size_t best = got.size();
    double bd = 0;
    for (std::size_t j = 0; j < got.size(); ++j)
      if (!used[j] && (best == got.size() || std::abs(got[j] - x) < bd)) {
        best = j;
        bd = std::abs(got[j] - x);
      }
    used[best] = 1;
    worst = std::max(worst, bd);
    if (!(bd <= atol + rtol * std::abs(x))) ++bad;
  }
  CHECK_MESSAGE(bad == 0, what << ": " << bad << " values off, worst " << worst << " (atol " << atol << ")");
}

// Complex pairs of a real matrix's spectrum: adjacent, positive imaginary part first.
void check_pairs(const std::vector<cplx>& w, const std::string& what) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i].imag() == 0) continue;
    REQUIRE_MESSAGE(i + 1 < w.size(), what << ": unpaired complex value at the end");
    CHECK_MESSAGE(w[i].imag() > 0, what << ": pair at " << i << " starts with negative imaginary part");
    CHECK_MESSAGE(w[i + 1] == std::conj(w[i]), what << ": value " << i + 1 << " is not the conjugate of " << i);
    ++i;
  }
}

// Columns of got (n x k) equal to want up to a unit-modulus factor per column.
template <class MG>
void check_columns_up_to_phase(const MG& got, const hl::cmat& want, double tol, const std::string& what,
                               const std::vector<char>* skip = nullptr) {
  REQUIRE(got.m == want.m);
  REQUIRE(got.n == want.n);
  for (std::int64_t j = 0; j < want.n; ++j) {
    if (skip && (*skip)[static_cast<std::size_t>(j)]) continue;
    cplx dot = 0;
    for (std::int64_t i = 0; i < want.m; ++i) dot += std::conj(cplx(got(i, j))) * want(i, j);
    const cplx ph = std::abs(dot) > 0 ? dot / std::abs(dot) : cplx(1);
    double err = 0;
    for (std::int64_t i = 0; i < want.m; ++i) err = std::max(err, std::abs(cplx(got(i, j)) * ph - want(i, j)));
    CHECK_MESSAGE(err <= tol, what << ": column " << j << " differs by " << err);
  }
}

hl::cmat cmat_from_r(const hl::rmat& a) { return hl::to_complex(a); }

template <class F>
void for_cases(const char* func, F&& f) {
  const auto cs = testing::cases(M, func);
  REQUIRE_MESSAGE(!cs.empty(), "no cases for " << func);
  for (const auto& c : cs) {
    INFO("case " << c.name());
    if (c.expects_error()) {
      testing::check_error(c, [&] { f(c); });
      continue;
    }
    f(c);
  }
}
}  // namespace

TEST_CASE("matmul, transpose, conj_transpose, to_complex") {
  hl::rmat a(2, 3), b(3, 2);
  for (int i = 0; i < 6; ++i) {
    a.v[static_cast<std::size_t>(i)] = i + 1;
    b.v[static_cast<std::size_t>(i)] = 2 * i - 3;
  }
  const hl::rmat c = hl::matmul(a, b);
  REQUIRE(c.m == 2);
  REQUIRE(c.n == 2);
  CHECK(c(0, 0) == 1 * -3 + 2 * 1 + 3 * 5);
  CHECK(c(1, 1) == 4 * -1 + 5 * 3 + 6 * 7);
  const hl::rmat t = hl::transpose(a);
  CHECK(t.m == 3);
  CHECK(t(2, 1) == a(1, 2));
  hl::cmat z(1, 2);
  z(0, 1) = cplx(1, 2);
  const hl::cmat zh = hl::conj_transpose(z);
  CHECK(zh(1, 0) == cplx(1, -2));
  CHECK(hl::to_complex(a)(1, 2) == cplx(6, 0));
  const hl::cmat zz = hl::matmul(zh, z);
  CHECK(zz(1, 1) == cplx(5, 0));
  CHECK_THROWS_AS(hl::matmul(a, a), value_error);
}

TEST_CASE("eigvals (real and complex) match numpy.linalg.eigvals") {
  for_cases("eigvals", [](const testing::golden_case& c) {
    const auto w = hl::eigvals(rmat_of(c, "a"), FN);
    check_set(w, cvec(c, "w"), c.rtol(), c.atol(), "eigvals");
    check_pairs(w, "eigvals");
  });
  for_cases("eigvals_c", [](const testing::golden_case& c) {
    const auto w = hl::eigvals(cmat_of(c, "a"), FN);
    check_set(w, cvec(c, "w"), c.rtol(), c.atol(), "eigvals_c");
  });
}

TEST_CASE("eigvals names the caller in its errors") {
  try {
    hl::eigvals(hl::rmat(2, 3), "cusci::signal::tf2zpk");
    FAIL("no exception");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("cusci::signal::tf2zpk: ") == 0);
  }
}

TEST_CASE("roots and poly match numpy.roots / numpy.poly") {
  for_cases("roots", [](const testing::golden_case& c) {
    const auto r = hl::roots(rvec(c, "p"), FN);
    check_set(r, cvec(c, "r"), c.rtol(), c.atol(), "roots");
    check_pairs(r, "roots");
  });
  for_cases("roots_c", [](const testing::golden_case& c) {
    const auto r = hl::roots(cvec(c, "p"), FN);
    check_set(r, cvec(c, "r"), c.rtol(), c.atol(), "roots_c");
  });
  for_cases("poly", [](const testing::golden_case& c) {
    const auto p = hl::poly(cvec(c, "r"));
    const auto want = cvec(c, "p");
    check_close(p, want, c.rtol(), c.atol(), "poly");
    // NumPy's convolution order: real parts are bit-identical where the platform's BLAS zdotu sums as
    // OpenBLAS does (a warning, not a failure, elsewhere)
    bool exact = p.size() == want.size();
    for (std::size_t i = 0; exact && i < p.size(); ++i) exact = p[i].real() == want[i].real();
    WARN_MESSAGE(exact, "poly: coefficients not bit-identical to numpy.poly");
  });
  for_cases("poly_mat", [](const testing::golden_case& c) {
    const auto p = hl::poly(rmat_of(c, "a"), FN);
    check_close(p, cvec(c, "p"), c.rtol(), c.atol(), "poly_mat");
  });
  // numpy.poly's convolution order gives bit-identical coefficients for real roots
  const std::vector<cplx> r{cplx(0.1), cplx(-0.7), cplx(1.3), cplx(0.25)};
  const auto p = hl::poly(r);
  CHECK(p.size() == 5);
  CHECK(p[0] == cplx(1));
}

TEST_CASE("lu_factor, solve, inv, det, cholesky match numpy / scipy.linalg") {
  for_cases("lu", [](const testing::golden_case& c) {
    const auto f = hl::lu_factor(rmat_of(c, "a"), FN);
    check_close(f.lu.v, rvec(c, "lu"), c.rtol(), c.atol(), "lu");
    const auto piv = c.array("piv").to_vector<std::int64_t>();
    CHECK(f.piv == piv);
    CHECK_FALSE(f.singular);
  });
  for_cases("solve", [](const testing::golden_case& c) {
    const auto x = hl::solve(rmat_of(c, "a"), rmat_of(c, "b"), FN);
    check_close(x.v, rvec(c, "x"), c.rtol(), c.atol(), "solve");
  });
  for_cases("solve_c", [](const testing::golden_case& c) {
    const auto x = hl::solve(cmat_of(c, "a"), cmat_of(c, "b"), FN);
    check_close(x.v, cvec(c, "x"), c.rtol(), c.atol(), "solve_c");
  });
  for_cases("inv", [](const testing::golden_case& c) {
    const auto x = hl::inv(rmat_of(c, "a"), FN);
    check_close(x.v, rvec(c, "x"), c.rtol(), c.atol(), "inv");
  });
  for_cases("det", [](const testing::golden_case& c) {
    const double d = hl::det(rmat_of(c, "a"), FN), want = c.get<double>("det");
    CHECK(std::fabs(d - want) <= c.atol() + c.rtol() * std::fabs(want));
  });
  for_cases("cholesky", [](const testing::golden_case& c) {
    const auto r = hl::cholesky(rmat_of(c, "a"));
    const bool ok = c.get_or<bool>("ok", true);
    CHECK(r.ok == ok);
    if (ok) check_close(r.l.v, rvec(c, "l"), c.rtol(), c.atol(), "cholesky");
  });
  hl::cmat z(2, 2);
  z(0, 1) = cplx(0, 1);
  z(1, 0) = cplx(2, 0);
  const auto f = hl::lu_factor(z, FN);
  CHECK(f.piv[0] == 1);
  CHECK_THROWS_AS(hl::inv(hl::rmat(2, 2), FN), runtime_error);
}

TEST_CASE("qr matches numpy.linalg.qr exactly (LAPACK signs), real and complex") {
  for_cases("qr", [](const testing::golden_case& c) {
    const auto r = hl::qr(rmat_of(c, "a"), c.get<bool>("complete"));
    const auto q = c.array("q"), rr = c.array("r");
    CHECK(r.q.m == q.shape()[0]);
    CHECK(r.q.n == q.shape()[1]);
    CHECK(r.r.m == rr.shape()[0]);
    CHECK(r.r.n == rr.shape()[1]);
    check_close(r.q.v, rvec(c, "q"), c.rtol(), c.atol(), "q");
    check_close(r.r.v, rvec(c, "r"), c.rtol(), c.atol(), "r");
  });
  for_cases("qr_c", [](const testing::golden_case& c) {
    const auto r = hl::qr(cmat_of(c, "a"), c.get<bool>("complete"));
    CHECK(r.q.n == c.array("q").shape()[1]);
    check_close(r.q.v, cvec(c, "q"), c.rtol(), c.atol(), "q");
    check_close(r.r.v, cvec(c, "r"), c.rtol(), c.atol(), "r");
  });
}

TEST_CASE("svd, matrix_rank, lstsq match numpy.linalg") {
  for_cases("svd", [](const testing::golden_case& c) {
    const hl::rmat a = rmat_of(c, "a");
    const bool full = c.get<bool>("full");
    const auto d = hl::svd(a, full, true);
    const auto s = rvec(c, "s");
    check_close(d.s, s, c.rtol(), c.atol(), "s");
    const hl::rmat uw = rmat_of(c, "u"), vw = rmat_of(c, "v");
    REQUIRE(d.u.m == uw.m);
    REQUIRE(d.u.n == uw.n);
    REQUIRE(d.v.m == vw.m);
    REQUIRE(d.v.n == vw.n);
    // reconstruction and orthonormality
    const std::int64_t k = static_cast<std::int64_t>(s.size());
    double rec = 0;
    for (std::int64_t i = 0; i < a.m; ++i)
      for (std::int64_t j = 0; j < a.n; ++j) {
        double t = 0;
        for (std::int64_t q = 0; q < k; ++q) t += d.u(i, q) * d.s[static_cast<std::size_t>(q)] * d.v(j, q);
        rec = std::max(rec, std::fabs(t - a(i, j)));
      }
    CHECK(rec <= 1e-13 * std::max(1.0, s.empty() ? 1.0 : s[0]) * static_cast<double>(std::max(a.m, a.n)));
    for (const hl::rmat* u : {&d.u, &d.v}) {
      const hl::rmat g = hl::matmul(hl::transpose(*u), *u);
      double orth = 0;
      for (std::int64_t i = 0; i < g.m; ++i)
        for (std::int64_t j = 0; j < g.n; ++j) orth = std::max(orth, std::fabs(g(i, j) - (i == j ? 1.0 : 0.0)));
      CHECK(orth <= 1e-13);
    }
    // singular vectors of simple, nonzero singular values agree up to sign
    std::vector<char> skip_u(static_cast<std::size_t>(uw.n), 1), skip_v(static_cast<std::size_t>(vw.n), 1);
    for (std::int64_t q = 0; q < k; ++q) {
      const double sq = s[static_cast<std::size_t>(q)];
      bool simple = sq > 1e-8 * s[0];
      if (q > 0 && std::fabs(s[static_cast<std::size_t>(q - 1)] - sq) < 1e-6 * s[0]) simple = false;
      if (q + 1 < k && std::fabs(s[static_cast<std::size_t>(q + 1)] - sq) < 1e-6 * s[0]) simple = false;
      if (simple) skip_u[static_cast<std::size_t>(q)] = skip_v[static_cast<std::size_t>(q)] = 0;
    }
    check_columns_up_to_phase(d.u, cmat_from_r(uw), 1e-9, "u", &skip_u);
    check_columns_up_to_phase(d.v, cmat_from_r(vw), 1e-9, "v", &skip_v);
    const auto s_only = hl::svd(a, full, false);
    check_close(s_only.s, s, c.rtol(), c.atol(), "s (compute_uv false)");
  });
  for_cases("matrix_rank", [](const testing::golden_case& c) {
    CHECK(hl::matrix_rank(rmat_of(c, "a")) == c.get<std::int64_t>("rank"));
  });
  for_cases("lstsq", [](const testing::golden_case& c) {
    const auto x = hl::lstsq(rmat_of(c, "a"), rmat_of(c, "b"));
    check_close(x.v, rvec(c, "x"), c.rtol(), c.atol(), "lstsq");
  });
}

TEST_CASE("expm matches scipy.linalg.expm") {
  for_cases("expm", [](const testing::golden_case& c) {
    const auto e = hl::expm(rmat_of(c, "a"), FN);
    check_close(e.v, rvec(c, "e"), c.rtol(), c.atol(), "expm");
  });
  CHECK(hl::expm(hl::rmat(0, 0), FN).m == 0);
  CHECK_THROWS_AS(hl::expm(hl::rmat(2, 3), FN), value_error);
}

TEST_CASE("eigh and eigh_tridiagonal match numpy.linalg.eigh / scipy.linalg.eigh_tridiagonal") {
  for_cases("eigh", [](const testing::golden_case& c) {
    const auto r = hl::eigh(rmat_of(c, "a"), FN);
    const auto w = rvec(c, "w");
    check_close(r.values, w, c.rtol(), c.atol(), "eigh values");
    std::vector<char> skip(w.size(), 0);
    for (std::size_t q = 0; q < w.size(); ++q) {
      if (q > 0 && std::fabs(w[q] - w[q - 1]) < 1e-6) skip[q] = 1;
      if (q + 1 < w.size() && std::fabs(w[q + 1] - w[q]) < 1e-6) skip[q] = 1;
    }
    check_columns_up_to_phase(r.vectors, cmat_from_r(rmat_of(c, "v")), 1e-10, "eigh vectors", &skip);
    const hl::rmat g = hl::matmul(hl::transpose(r.vectors), r.vectors);
    double orth = 0;
    for (std::int64_t i = 0; i < g.m; ++i)
      for (std::int64_t j = 0; j < g.n; ++j) orth = std::max(orth, std::fabs(g(i, j) - (i == j ? 1.0 : 0.0)));
    CHECK(orth <= 1e-13);
  });
  for_cases("eigh_tridiagonal", [](const testing::golden_case& c) {
    const auto r = hl::eigh_tridiagonal(rvec(c, "d"), rvec(c, "e"), c.get<std::int64_t>("lo"),
                                        c.get<std::int64_t>("hi"), FN);
    check_close(r.values, rvec(c, "w"), c.rtol(), c.atol(), "values");
    const hl::rmat v = rmat_of(c, "v");
    check_columns_up_to_phase(r.vectors, cmat_from_r(v), 1e-9, "vectors");
    // stein's sign: the first largest-magnitude component is positive
    for (std::int64_t j = 0; j < r.vectors.n; ++j) {
      std::int64_t jm = 0;
      for (std::int64_t i = 1; i < r.vectors.m; ++i)
        if (std::fabs(r.vectors(i, j)) > std::fabs(r.vectors(jm, j))) jm = i;
      CHECK(r.vectors(jm, j) > 0);
    }
  });
}

TEST_CASE("eig matches numpy.linalg.eig (values; vectors unit norm, up to phase)") {
  auto check = [](const testing::golden_case& c, const hl::cmat& a, const hl::eig_result& r) {
    const auto w = cvec(c, "w");
    check_set(r.values, w, c.rtol(), c.atol(), "values");
    const hl::cmat v = cmat_of(c, "v");
    REQUIRE(r.vectors.m == a.m);
    REQUIRE(r.vectors.n == a.n);
    const double anorm = std::max(1.0, maxabs(a.v));
    for (std::int64_t j = 0; j < a.n; ++j) {
      double nrm = 0, res = 0;
      const cplx lam = r.values[static_cast<std::size_t>(j)];
      for (std::int64_t i = 0; i < a.n; ++i) {
        nrm += std::norm(r.vectors(i, j));
        cplx t = -lam * r.vectors(i, j);
        for (std::int64_t q = 0; q < a.n; ++q) t += a(i, q) * r.vectors(q, j);
        res = std::max(res, std::abs(t));
      }
      CHECK(std::fabs(std::sqrt(nrm) - 1) <= 1e-13);
      CHECK_MESSAGE(res <= 1e-12 * anorm * static_cast<double>(a.n), "residual of vector " << j << ": " << res);
      // against NumPy's vector of the nearest value, when that value is well separated
      std::size_t k = 0;
      for (std::size_t q = 1; q < w.size(); ++q)
        if (std::abs(w[q] - lam) < std::abs(w[k] - lam)) k = q;
      double sep = 1e300;
      for (std::size_t q = 0; q < w.size(); ++q)
        if (q != k) sep = std::min(sep, std::abs(w[q] - w[k]));
      if (sep < 1e-3 * anorm) continue;
      cplx dot = 0;
      for (std::int64_t i = 0; i < a.n; ++i) dot += std::conj(r.vectors(i, j)) * v(i, static_cast<std::int64_t>(k));
      const cplx ph = std::abs(dot) > 0 ? dot / std::abs(dot) : cplx(1);
      double err = 0;
      for (std::int64_t i = 0; i < a.n; ++i)
        err = std::max(err, std::abs(r.vectors(i, j) * ph - v(i, static_cast<std::int64_t>(k))));
      CHECK_MESSAGE(err <= 1e-8, "vector " << j << " differs from NumPy's by " << err);
    }
  };
  for_cases("eig", [&](const testing::golden_case& c) {
    const hl::rmat a = rmat_of(c, "a");
    const auto r = hl::eig(a, FN);
    check_pairs(r.values, "eig");
    check(c, hl::to_complex(a), r);
  });
  for_cases("eig_c", [&](const testing::golden_case& c) {
    const hl::cmat a = cmat_of(c, "a");
    check(c, a, hl::eig(a, FN));
  });
}

TEST_CASE("fft, rfft, irfft match numpy.fft") {
  for_cases("fft", [](const testing::golden_case& c) {
    const auto y = hl::fft(cvec(c, "x"));
    check_close(y, cvec(c, "y"), 0.0, c.atol(), "fft");
  });
  for_cases("ifft", [](const testing::golden_case& c) {
    const auto y = hl::fft(cvec(c, "x"), true);
    check_close(y, cvec(c, "y"), 0.0, c.atol(), "ifft");
  });
  for_cases("rfft", [](const testing::golden_case& c) {
    const auto y = hl::rfft(rvec(c, "x"), c.get<std::int64_t>("n"));
    check_close(y, cvec(c, "y"), 0.0, c.atol(), "rfft");
  });
  for_cases("irfft", [](const testing::golden_case& c) {
    const auto y = hl::irfft(cvec(c, "x"), c.get<std::int64_t>("n"));
    check_close(y, rvec(c, "y"), 0.0, c.atol(), "irfft");
  });
  CHECK(hl::fft({}).empty());
  CHECK_THROWS_AS(hl::irfft({cplx(1)}, 0), value_error);
}
