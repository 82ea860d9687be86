// Host tests of cusci::linalg's schur family: SciPy's defaults, the argument checks that throw before any
// device work (arrays here are headers over no memory), and the host LAPACK part (schur_lapack.cpp,
// compiled into this test) on the references of tests/golden/gen_linalg_schur.py: reconstructions,
// unitarity, structure, eigenvalue multisets, sdim and the selected eigenvalues first; matrix_balance
// elementwise.

#include <doctest/doctest.h>

#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "cusci/linalg/schur.hpp"
#include "linalg_cases.hpp"
#include "schur/schur_lapack.hpp"
#include "schur_checks.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace schur_checks;
using cusci::testing::fake_array;
namespace sd = cusci::linalg::schur_detail;

namespace {

const std::string mod = "linalg_schur";

ndarray f64(const shape_t& s) { return fake_array(dtype::float64, s); }

// --- host copies of the references ----------------------------------------------------------------

/// The matrices of a stored input (row-major complex128), `strided`: the even columns.
struct stack {
  std::vector<mat> m;
  i64 n = 0;
};
stack load(const host_array& h0, bool strided) {
  const host_array h = h0.astype(dtype::complex128);
  const cplx* p = h.data_as<cplx>();
  stack s;
  const shape_t& sh = h.shape();
  const i64 rows = sh[sh.size() - 2], cols = sh[sh.size() - 1], n = strided ? cols / 2 : cols;
  s.n = rows;
  (void)n;
  const i64 count = (rows > 0 && cols > 0) ? h.size() / (rows * cols) : 0;
  for (i64 b = 0; b < count; ++b) {
    mat m(static_cast<std::size_t>(rows * rows));
    for (i64 i = 0; i < rows; ++i)
      for (i64 j = 0; j < rows; ++j) m[i * rows + j] = p[b * rows * cols + i * cols + (strided ? 2 * j : j)];
    s.m.push_back(m);
  }
  return s;
}

sd::kind kind_of(const std::string& dt) {
  if (dt == "float32") return sd::kind::s;
  if (dt == "float64") return sd::kind::d;
  if (dt == "complex64") return sd::kind::c;
  return sd::kind::z;
}

/// Row-major complex128 -> column-major LAPACK storage of kind k, and back.
std::vector<unsigned char> to_buf(const mat& m, i64 n, sd::kind k) {
  std::vector<unsigned char> b(static_cast<std::size_t>(n * n) * sd::elem_size(k));
  for (i64 i = 0; i < n; ++i)
    for (i64 j = 0; j < n; ++j) {
      const cplx x = m[i * n + j];
      const std::size_t e = static_cast<std::size_t>(j * n + i);
      switch (k) {
        case sd::kind::s: reinterpret_cast<float*>(b.data())[e] = static_cast<float>(x.real()); break;
        case sd::kind::d: reinterpret_cast<double*>(b.data())[e] = x.real(); break;
        case sd::kind::c: reinterpret_cast<std::complex<float>*>(b.data())[e] = std::complex<float>(x); break;
        case sd::kind::z: reinterpret_cast<cplx*>(b.data())[e] = x; break;
      }
    }
  return b;
}
mat from_buf(const std::vector<unsigned char>& b, i64 n, sd::kind k) {
  mat m(static_cast<std::size_t>(n * n));
  for (i64 i = 0; i < n; ++i)
    for (i64 j = 0; j < n; ++j) {
      const std::size_t e = static_cast<std::size_t>(j * n + i);
      switch (k) {
        case sd::kind::s: m[i * n + j] = reinterpret_cast<const float*>(b.data())[e]; break;
        case sd::kind::d: m[i * n + j] = reinterpret_cast<const double*>(b.data())[e]; break;
        case sd::kind::c: m[i * n + j] = cplx(reinterpret_cast<const std::complex<float>*>(b.data())[e]); break;
        case sd::kind::z: m[i * n + j] = reinterpret_cast<const cplx*>(b.data())[e]; break;
      }
    }
  return m;
}

std::vector<cplx> row_of(const host_array& h0, i64 row) {
  const host_array h = h0.astype(dtype::complex128);
  const i64 cols = h.ndim() ? h.shape().back() : 1;
  const cplx* p = h.data_as<cplx>() + row * cols;
  return std::vector<cplx>(p, p + cols);
}

sd::select1 schur_select(const std::string& s) {
  if (s == "lhp") return [](cplx w) { return w.real() < 0.0; };
  if (s == "rhp") return [](cplx w) { return w.real() >= 0.0; };
  if (s == "iuc") return [](cplx w) { return std::abs(w) <= 1.0; };
  return [](cplx w) { return std::abs(w) > 1.0; };
}

bool qz_select(const std::string& s, cplx al, cplx be) {
  if (s == "ouc") return be == cplx(0) ? al != cplx(0) : std::abs(al / be) > 1.0;
  if (be == cplx(0)) return false;
  const cplx q = al / be;
  if (s == "lhp") return q.real() < 0.0;
  if (s == "rhp") return q.real() > 0.0;
  return std::abs(q) < 1.0;
}

bool usable(const cusci::testing::golden_case& c) { return !c.expects_error() && !c.has("empty"); }

}  // namespace

TEST_CASE("options default to SciPy's") {
  const linalg::schur_options s{};
  CHECK(s.output == "real");
  CHECK_FALSE(s.lwork);
  CHECK_FALSE(s.overwrite_a);
  CHECK(s.sort.empty());
  CHECK_FALSE(s.sort_fn);
  CHECK(s.check_finite);
  const linalg::hessenberg_options h{};
  CHECK_FALSE(h.calc_q);
  CHECK_FALSE(h.overwrite_a);
  CHECK(h.check_finite);
  const linalg::matrix_balance_options b{};
  CHECK(b.permute);
  CHECK(b.scale);
  CHECK_FALSE(b.separate);
  CHECK_FALSE(b.overwrite_a);
  const linalg::qz_options q{};
  CHECK(q.output == "real");
  CHECK(q.sort.empty());
  CHECK(q.check_finite);
  const linalg::ordqz_options o{};
  CHECK(o.sort == "lhp");
  CHECK(o.output == "real");
  CHECK_FALSE(o.overwrite_a);
  CHECK_FALSE(o.overwrite_b);
  CHECK(o.check_finite);
}

TEST_CASE("argument errors are raised before device work") {
  CHECK_THROWS_AS(linalg::schur(f64({3, 4})), value_error);
  CHECK_THROWS_AS(linalg::schur(f64({3})), value_error);
  linalg::schur_options so;
  so.output = "hermitian";
  CHECK_THROWS_AS(linalg::schur(f64({3, 3}), so), value_error);
  so = {};
  so.sort = "xyz";
  CHECK_THROWS_AS(linalg::schur(f64({3, 3}), so), value_error);
  CHECK_THROWS_AS(linalg::schur(f64({0, 3, 3})), value_error);
  so = {};
  so.lwork = 2;
  CHECK_THROWS_AS(linalg::schur(f64({4, 4}), so), value_error);
  CHECK_THROWS_AS(linalg::hessenberg(f64({2, 3})), value_error);
  CHECK_THROWS_AS(linalg::hessenberg(f64({2, 0, 3, 3})), value_error);
  CHECK_THROWS_AS(linalg::matrix_balance(f64({2, 3})), value_error);
  CHECK_THROWS_AS(linalg::matrix_balance(f64({3})), value_error);
  linalg::qz_options qo;
  qo.sort = "lhp";
  CHECK_THROWS_AS(linalg::qz(f64({3, 3}), f64({3, 3}), qo), value_error);
  CHECK_THROWS_AS(linalg::qz(f64({3, 3}), f64({4, 4})), value_error);
  qo = {};
  qo.output = "x";
  CHECK_THROWS_AS(linalg::qz(f64({3, 3}), f64({3, 3}), qo), value_error);
  CHECK_THROWS_AS(linalg::qz(f64({2, 3, 3}), f64({4, 3, 3})), value_error);
  qo = {};
  qo.lwork = 3;
  CHECK_THROWS_AS(linalg::qz(f64({3, 3}), f64({3, 3}), qo), value_error);
  linalg::ordqz_options oo;
  oo.sort = "xyz";
  CHECK_THROWS_AS(linalg::ordqz(f64({3, 3}), f64({3, 3}), oo), value_error);
  CHECK_THROWS_AS(linalg::ordqz(f64({3, 3}), f64({3, 2})), value_error);
  CHECK_THROWS_AS(linalg::rsf2csf(f64({3, 3}), f64({3, 2})), value_error);
  CHECK_THROWS_AS(linalg::rsf2csf(f64({3, 3}), f64({2, 2})), value_error);
  CHECK_THROWS_AS(linalg::rsf2csf(fake_array(dtype::int8, {2, 2}), f64({2, 2})), type_error);
  CHECK_THROWS_AS(linalg::cdf2rdf(f64({}), f64({3, 3})), value_error);
  CHECK_THROWS_AS(linalg::cdf2rdf(f64({3}), f64({3})), value_error);
  CHECK_THROWS_AS(linalg::cdf2rdf(f64({3}), f64({2, 3, 3})), value_error);
  CHECK_THROWS_AS(linalg::cdf2rdf(f64({3}), f64({3, 2})), value_error);
  CHECK_THROWS_AS(linalg::cdf2rdf(f64({2}), f64({3, 3})), value_error);
}

TEST_CASE("schur: host LAPACK part on the references") {
  int tested = 0;
  for (const auto& c : cusci::testing::cases(mod, "schur")) {
    if (!usable(c) || !c.has("w")) continue;
    INFO("case " << c.name());
    const stack s = load(c.array("a"), c.get<std::string>("layout") == "strided");
    const sd::kind k = kind_of(c.get<std::string>("dtype_0"));
    const i64 n = s.n;
    const double tol = c.get<double>("tol");
    const bool sorted = c.has("sort");
    const sd::select1 sel = sorted ? schur_select(c.get<std::string>("sort")) : sd::select1();
    const host_array wall = c.array("w");
    for (std::size_t b = 0; b < s.m.size(); ++b) {
      auto A = to_buf(s.m[b], n, k);
      std::vector<unsigned char> Z(A.size());
      int sdim = -1;
      REQUIRE(sd::gees(k, static_cast<int>(n), A.data(), Z.data(), sorted ? &sel : nullptr, &sdim) == 0);
      const mat T = from_buf(A, n, k), Zm = from_buf(Z, n, k);
      CHECK(recon_err(Zm, T, Zm, s.m[b], n) < tol);
      CHECK(unitary_err(Zm, n) < tol);
      CHECK((sd::is_complex(k) ? zero_below(T, n, 0) : quasi_triangular(T, n)));
      CHECK(same_multiset(diag_eigs(T, nullptr, n), row_of(wall, static_cast<i64>(b)), 1e3 * tol));
      if (sorted) {
        const host_array want_sdim = c.array("sdim").astype(dtype::int64);
        CHECK(sdim == want_sdim.data_as<std::int64_t>()[b]);
        CHECK(same_multiset(diag_eigs(T, nullptr, n, sdim), row_of(c.array("w_sel"), static_cast<i64>(b)),
                            1e3 * tol));
      }
    }
    ++tested;
  }
  CHECK(tested >= 20);
}

TEST_CASE("hessenberg: host LAPACK part on the references") {
  int tested = 0;
  for (const auto& c : cusci::testing::cases(mod, "hessenberg")) {
    if (!usable(c)) continue;
    INFO("case " << c.name());
    const stack s = load(c.array("a"), c.get<std::string>("layout") == "strided");
    const sd::kind k = kind_of(c.get<std::string>("dtype_0"));
    const i64 n = s.n;
    if (n <= 2) continue;  // identity q, h = a: no LAPACK call
    for (const mat& a : s.m) {
      auto A = to_buf(a, n, k);
      std::vector<unsigned char> Q(A.size());
      REQUIRE(sd::hessenberg(k, static_cast<int>(n), A.data(), Q.data()) == 0);
      const mat H = from_buf(A, n, k), Qm = from_buf(Q, n, k);
      CHECK(zero_below(H, n, 1));
      CHECK(recon_err(Qm, H, Qm, a, n) < c.get<double>("tol"));
      CHECK(unitary_err(Qm, n) < c.get<double>("tol"));
    }
    ++tested;
  }
  CHECK(tested >= 8);
}

TEST_CASE("matrix_balance: host ?gebal against SciPy") {
  int tested = 0;
  for (const auto& c : cusci::testing::cases(mod, "matrix_balance")) {
    if (!usable(c)) continue;
    INFO("case " << c.name());
    const stack s = load(c.array("a"), c.get<std::string>("layout") == "strided");
    const sd::kind k = kind_of(c.get<std::string>("dtype_0"));
    const i64 n = s.n;
    const bool permute = c.get_or<bool>("permute", true), scale = c.get_or<bool>("scale", true);
    const char job = permute ? (scale ? 'B' : 'P') : (scale ? 'S' : 'N');
    auto A = to_buf(s.m[0], n, k);
    int ilo = 0, ihi = 0;
    std::vector<double> ps(static_cast<std::size_t>(n)), scaling(static_cast<std::size_t>(n));
    std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
    REQUIRE(sd::gebal(k, job, static_cast<int>(n), A.data(), &ilo, &ihi, ps.data()) == 0);
    sd::balance_scaling_perm(static_cast<int>(n), ilo, ihi, ps.data(), scaling.data(), perm.data());
    const mat B = from_buf(A, n, k);
    const mat want_b = load(c.array("b"), false).m[0];
    for (std::size_t i = 0; i < B.size(); ++i)
      CHECK(std::abs(B[i] - want_b[i]) <= c.atol() + c.rtol() * std::abs(want_b[i]));
    const std::vector<cplx> want_s = row_of(c.array("scaling"), 0);
    const host_array want_p = c.array("perm").astype(dtype::int64);
    for (i64 i = 0; i < n; ++i) {
      CHECK(scaling[i] == doctest::Approx(want_s[i].real()));
      CHECK(perm[i] == want_p.data_as<std::int64_t>()[i]);
    }
    ++tested;
  }
  CHECK(tested >= 8);
}

TEST_CASE("qz / ordqz: host LAPACK part on the references") {
  int tested = 0;
  for (const std::string func : {"qz", "ordqz"}) {
    for (const auto& c : cusci::testing::cases(mod, func)) {
      if (!usable(c)) continue;
      INFO("case " << c.name());
      const bool strided = c.get<std::string>("layout") == "strided";
      const stack sa = load(c.array("a"), strided), sb = load(c.array("b"), strided);
      const sd::kind k = kind_of(c.get<std::string>("dtype_0"));
      const i64 n = sa.n, count = static_cast<i64>(std::max(sa.m.size(), sb.m.size()));
      const double tol = c.get<double>("tol");
      for (i64 b = 0; b < count; ++b) {
        const mat& a = sa.m[sa.m.size() == 1 ? 0 : b];
        const mat& bm = sb.m[sb.m.size() == 1 ? 0 : b];
        auto A = to_buf(a, n, k), B = to_buf(bm, n, k);
        std::vector<unsigned char> Q(A.size()), Z(A.size());
        std::vector<cplx> al(static_cast<std::size_t>(n)), be(static_cast<std::size_t>(n));
        REQUIRE(sd::gges(k, static_cast<int>(n), A.data(), B.data(), Q.data(), Z.data(), al.data(), be.data()) == 0);
        i64 m = -1;
        if (func == "ordqz") {
          const std::string s = c.get<std::string>("sort");
          std::vector<int> sel(static_cast<std::size_t>(n));
          for (i64 j = 0; j < n; ++j) sel[j] = qz_select(s, al[j], be[j]);
          int mm = 0;
          REQUIRE(sd::tgsen(k, static_cast<int>(n), A.data(), B.data(), Q.data(), Z.data(), sel.data(), al.data(),
                            be.data(), &mm) == 0);
          m = c.array("m").astype(dtype::int64).data_as<std::int64_t>()[b];
          CHECK(mm == m);
        }
        const mat AA = from_buf(A, n, k), BB = from_buf(B, n, k), Qm = from_buf(Q, n, k), Zm = from_buf(Z, n, k);
        CHECK(recon_err(Qm, AA, Zm, a, n) < tol);
        CHECK(recon_err(Qm, BB, Zm, bm, n) < tol);
        CHECK(unitary_err(Qm, n) < tol);
        CHECK(unitary_err(Zm, n) < tol);
        CHECK(zero_below(BB, n, 0));
        CHECK((sd::is_complex(k) ? zero_below(AA, n, 0) : quasi_triangular(AA, n)));
        std::vector<cplx> w(static_cast<std::size_t>(n));
        for (i64 j = 0; j < n; ++j) w[j] = al[j] / be[j];
        CHECK(same_multiset(w, row_of(c.array("w"), b), 1e4 * tol));
        if (m >= 0) {
          w.resize(static_cast<std::size_t>(m));
          CHECK(same_multiset(w, row_of(c.array("w_sel"), b), 1e4 * tol));
        }
      }
      ++tested;
    }
  }
  CHECK(tested >= 20);
}

TEST_CASE("rsf2csf: the host reference sweep") {
  int tested = 0;
  for (const auto& c : cusci::testing::cases(mod, "rsf2csf")) {
    if (!usable(c)) continue;
    INFO("case " << c.name());
    const bool strided = c.get<std::string>("layout") == "strided";
    const stack st = load(c.array("t"), strided), sz = load(c.array("z"), strided);
    const stack sa = load(c.array("a_full"), false);
    const i64 n = st.n;
    const sd::kind k = kind_of(c.get<std::string>("dtype_0"));
    for (std::size_t b = 0; b < st.m.size(); ++b) {
      auto T = to_buf(st.m[b], n, k), Z = to_buf(sz.m[b], n, k);
      sd::rsf2csf_host(k, static_cast<int>(n), T.data(), Z.data());
      const mat Tm = from_buf(T, n, k), Zm = from_buf(Z, n, k);
      CHECK(zero_below(Tm, n, 0));
      CHECK(recon_err(Zm, Tm, Zm, sa.m[b], n) < c.get<double>("tol"));
      CHECK(unitary_err(Zm, n) < c.get<double>("tol"));
      CHECK(same_multiset(diag_eigs(Tm, nullptr, n), row_of(c.array("w"), static_cast<i64>(b)), 1e3 * c.get<double>("tol")));
    }
    ++tested;
  }
  CHECK(tested >= 6);
}

TEST_CASE("parallel_for covers every index once") {
  std::vector<int> hits(1000, 0);
  sd::parallel_for(1000, [&](i64 i) { hits[i] += 1; }, 4);
  for (int h : hits) CHECK(h == 1);
}
