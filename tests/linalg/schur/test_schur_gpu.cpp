// GPU tests of cusci::linalg's schur family against scipy.linalg 1.18 (tests/golden/gen_linalg_schur.py):
// every case of the references (dtypes and promotion, sizes 0 to 40, batches and broadcasting, C/F/strided
// layouts, sorting, errors). Schur forms and vectors are not unique: the tests check SciPy's dtypes, the
// reconstructions, unitarity, the (quasi-)triangular / Hessenberg structure, the eigenvalues as multisets,
// sdim and the selected eigenvalues first; cdf2rdf and matrix_balance are compared elementwise.

#include <doctest/doctest.h>

#include <complex>
#include <string>
#include <vector>

#include "cusci/linalg/schur.hpp"
#include "cusci/stream.hpp"
#include "linalg_cases.hpp"
#include "schur_checks.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace schur_checks;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden_case;

namespace {

const std::string mod = "linalg_schur";

/// The matrices of a device (or stored) array as row-major complex128 host blocks.
std::vector<mat> host_mats(const host_array& h0, i64& n) {
  const host_array h = h0.astype(dtype::complex128);
  const shape_t& sh = h.shape();
  n = sh.size() >= 2 ? sh[sh.size() - 1] : 0;
  std::vector<mat> out;
  if (n == 0) return out;
  const i64 count = h.size() / (n * n);
  const cplx* p = h.data_as<cplx>();
  for (i64 b = 0; b < count; ++b) out.emplace_back(p + b * n * n, p + (b + 1) * n * n);
  return out;
}
std::vector<mat> host_mats(const ndarray& d, i64& n) { return host_mats(cusci::to_host(d), n); }

/// The logical input of a case (strided layouts store the last axis doubled).
std::vector<mat> input_mats(const golden_case& c, const std::string& key, i64& n) {
  return host_mats(to_device(c.array(key), c.get<std::string>("layout")), n);
}

std::vector<cplx> row_of(const host_array& h0, i64 row) {
  const host_array h = h0.astype(dtype::complex128);
  const i64 cols = h.ndim() ? h.shape().back() : 1;
  const cplx* p = h.data_as<cplx>() + row * cols;
  return std::vector<cplx>(p, p + cols);
}

std::vector<cplx> flat_c(const ndarray& d) {
  const host_array h = cusci::to_host(d).astype(dtype::complex128);
  const cplx* p = h.data_as<cplx>();
  return std::vector<cplx>(p, p + h.size());
}

void check_dtype(const golden_case& c, const ndarray& x, int i) {
  const std::string key = "dtype_" + std::to_string(i);
  if (c.has(key)) CHECK(std::string(dtype_name(x.dtype())) == c.get<std::string>(key));
}

const mat& pick(const std::vector<mat>& v, std::size_t b) { return v[v.size() == 1 ? 0 : b]; }

// --- per function ---------------------------------------------------------------------------------

void run_schur(const golden_case& c) {
  INFO("case " << c.name());
  const ndarray a = to_device(c.array("a"), c.get<std::string>("layout"));
  linalg::schur_options o;
  o.output = c.get_or<std::string>("output", "real");
  o.sort = c.get_or<std::string>("sort", "");
  o.check_finite = c.get_or<bool>("check_finite", true);
  if (c.has("lwork")) o.lwork = c.get<std::int64_t>("lwork");
  if (c.expects_error()) {
    expect_error(c, [&] { return linalg::schur(a, o); });
    return;
  }
  const linalg::schur_result r = linalg::schur(a, o);
  check_dtype(c, r.t, 0);
  check_dtype(c, r.z, 1);
  CHECK(r.t.shape() == a.shape());
  CHECK(r.z.shape() == a.shape());
  if (c.has("sdim")) {
    const host_array want = c.array("sdim").astype(dtype::int64);
    REQUIRE(r.sdim.size() == want.size());
    const host_array got = cusci::to_host(r.sdim);
    for (i64 i = 0; i < want.size(); ++i) CHECK(got.data_as<std::int64_t>()[i] == want.data_as<std::int64_t>()[i]);
  } else {
    CHECK(r.sdim.size() == 0);
  }
  if (c.has("empty")) return;
  i64 n = 0, n2 = 0, n3 = 0;
  const std::vector<mat> A = input_mats(c, "a", n), T = host_mats(r.t, n2), Z = host_mats(r.z, n3);
  const double tol = c.get<double>("tol");
  const bool cx = is_complex(r.t.dtype());
  const host_array sd = c.has("sdim") ? c.array("sdim").astype(dtype::int64) : host_array();
  for (std::size_t b = 0; b < T.size(); ++b) {
    CHECK(recon_err(Z[b], T[b], Z[b], A[b], n) < tol);
    CHECK(unitary_err(Z[b], n) < tol);
    CHECK((cx ? zero_below(T[b], n, 0) : quasi_triangular(T[b], n)));
    CHECK(same_multiset(diag_eigs(T[b], nullptr, n), row_of(c.array("w"), static_cast<i64>(b)), 1e3 * tol));
    if (c.has("sdim")) {
      const i64 k = sd.data_as<std::int64_t>()[b];
      CHECK(same_multiset(diag_eigs(T[b], nullptr, n, k), row_of(c.array("w_sel"), static_cast<i64>(b)), 1e3 * tol));
    }
  }
}

void run_rsf2csf(const golden_case& c) {
  INFO("case " << c.name());
  const ndarray t = to_device(c.array("t"), c.get<std::string>("layout"));
  const ndarray z = to_device(c.array("z"), c.get<std::string>("layout"));
  if (c.expects_error()) {
    expect_error(c, [&] { return linalg::rsf2csf(t, z); });
    return;
  }
  const linalg::rsf2csf_result r = linalg::rsf2csf(t, z);
  check_dtype(c, r.t, 0);
  check_dtype(c, r.z, 1);
  i64 n = 0, n2 = 0, n3 = 0;
  const std::vector<mat> A = host_mats(c.array("a_full"), n), T = host_mats(r.t, n2), Z = host_mats(r.z, n3);
  const double tol = c.get<double>("tol");
  for (std::size_t b = 0; b < T.size(); ++b) {
    CHECK(zero_below(T[b], n, 0));
    CHECK(recon_err(Z[b], T[b], Z[b], A[b], n) < tol);
    CHECK(unitary_err(Z[b], n) < tol);
    CHECK(same_multiset(diag_eigs(T[b], nullptr, n), row_of(c.array("w"), static_cast<i64>(b)), 1e3 * tol));
  }
}

void run_hessenberg(const golden_case& c) {
  INFO("case " << c.name());
  const ndarray a = to_device(c.array("a"), c.get<std::string>("layout"));
  if (c.expects_error()) {
    expect_error(c, [&] { return linalg::hessenberg(a, {.calc_q = true}); });
    return;
  }
  const linalg::hessenberg_result r = linalg::hessenberg(a, {.calc_q = true});
  const linalg::hessenberg_result h_only = linalg::hessenberg(a);
  check_dtype(c, r.h, 0);
  check_dtype(c, r.q, 1);
  CHECK(h_only.q.size() == 0);
  CHECK(r.h.shape() == a.shape());
  if (c.has("empty")) return;
  i64 n = 0, n2 = 0, n3 = 0;
  const std::vector<mat> A = input_mats(c, "a", n), H = host_mats(r.h, n2), Q = host_mats(r.q, n3);
  const double tol = c.get<double>("tol");
  for (std::size_t b = 0; b < H.size(); ++b) {
    CHECK(zero_below(H[b], n, 1));
    CHECK(recon_err(Q[b], H[b], Q[b], A[b], n) < tol);
    CHECK(unitary_err(Q[b], n) < tol);
  }
  CHECK(max_abs([&] {
          std::vector<cplx> d = flat_c(h_only.h), e = flat_c(r.h);
          for (std::size_t i = 0; i < d.size(); ++i) d[i] -= e[i];
          return d;
        }()) == 0.0);
}

void run_balance(const golden_case& c) {
  INFO("case " << c.name());
  const ndarray a = to_device(c.array("a"), c.get<std::string>("layout"));
  linalg::matrix_balance_options o;
  o.permute = c.get_or<bool>("permute", true);
  o.scale = c.get_or<bool>("scale", true);
  if (c.expects_error()) {
    expect_error(c, [&] { return linalg::matrix_balance(a, o); });
    return;
  }
  const linalg::matrix_balance_result r = linalg::matrix_balance(a, o);
  check_dtype(c, r.b, 0);
  check_dtype(c, r.t, 1);
  check_output(c, r.b, "b");
  check_output(c, r.t, "t");
  o.separate = true;
  const linalg::matrix_balance_result s = linalg::matrix_balance(a, o);
  CHECK(s.t.size() == 0);
  check_output(c, s.b, "b");
  check_output(c, s.scale, "scaling");
  check_output(c, s.perm, "perm");
}

void run_qz(const golden_case& c, bool ordered) {
  INFO("case " << c.name());
  const ndarray a = to_device(c.array("a"), c.get<std::string>("layout"));
  const ndarray b = to_device(c.array("b"), c.get<std::string>("layout"));
  ndarray aa, bb, q, z, alpha, beta;
  if (ordered) {
    linalg::ordqz_options o;
    o.sort = c.get_or<std::string>("sort", "lhp");
    o.output = c.get_or<std::string>("output", "real");
    if (c.expects_error()) {
      expect_error(c, [&] { return linalg::ordqz(a, b, o); });
      return;
    }
    linalg::ordqz_result r = linalg::ordqz(a, b, o);
    aa = r.aa, bb = r.bb, q = r.q, z = r.z, alpha = r.alpha, beta = r.beta;
    check_dtype(c, alpha, 2);
    check_dtype(c, beta, 3);
    check_dtype(c, q, 4);
    check_dtype(c, z, 5);
  } else {
    linalg::qz_options o;
    o.output = c.get_or<std::string>("output", "real");
    o.sort = c.get_or<std::string>("sort", "");
    if (c.expects_error()) {
      expect_error(c, [&] { return linalg::qz(a, b, o); });
      return;
    }
    linalg::qz_result r = linalg::qz(a, b, o);
    aa = r.aa, bb = r.bb, q = r.q, z = r.z;
    check_dtype(c, q, 2);
    check_dtype(c, z, 3);
  }
  check_dtype(c, aa, 0);
  check_dtype(c, bb, 1);
  i64 n = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0;
  const std::vector<mat> A = input_mats(c, "a", n), B = input_mats(c, "b", t1), AA = host_mats(aa, t2),
                         BB = host_mats(bb, t3), Q = host_mats(q, t4), Z = host_mats(z, t5);
  const double tol = c.get<double>("tol");
  const bool cx = is_complex(aa.dtype());
  const std::vector<cplx> al = ordered ? flat_c(alpha) : std::vector<cplx>(),
                          be = ordered ? flat_c(beta) : std::vector<cplx>();
  for (std::size_t i = 0; i < AA.size(); ++i) {
    CHECK(recon_err(Q[i], AA[i], Z[i], pick(A, i), n) < tol);
    CHECK(recon_err(Q[i], BB[i], Z[i], pick(B, i), n) < tol);
    CHECK(unitary_err(Q[i], n) < tol);
    CHECK(unitary_err(Z[i], n) < tol);
    CHECK(zero_below(BB[i], n, 0));
    CHECK((cx ? zero_below(AA[i], n, 0) : quasi_triangular(AA[i], n)));
    CHECK(same_multiset(diag_eigs(AA[i], &BB[i], n), row_of(c.array("w"), static_cast<i64>(i)), 1e4 * tol));
    if (ordered) {
      const i64 m = c.array("m").astype(dtype::int64).data_as<std::int64_t>()[i];
      std::vector<cplx> w;
      for (i64 j = 0; j < m; ++j) w.push_back(al[i * n + j] / be[i * n + j]);
      CHECK(same_multiset(w, row_of(c.array("w_sel"), static_cast<i64>(i)), 1e4 * tol));
      std::vector<cplx> all;
      for (i64 j = 0; j < n; ++j) all.push_back(al[i * n + j] / be[i * n + j]);
      CHECK(same_multiset(all, row_of(c.array("w"), static_cast<i64>(i)), 1e4 * tol));
    }
  }
}

void run_cdf2rdf(const golden_case& c) {
  INFO("case " << c.name());
  const ndarray w = to_device(c.array("w"), "C");
  const ndarray v = to_device(c.array("v"), c.get<std::string>("layout"));
  if (c.expects_error()) {
    expect_error(c, [&] { return linalg::cdf2rdf(w, v); });
    return;
  }
  const linalg::cdf2rdf_result r = linalg::cdf2rdf(w, v);
  check_dtype(c, r.wr, 0);
  check_dtype(c, r.vr, 1);
  check_output(c, r.wr, "wr");
  check_output(c, r.vr, "vr");
}

void run_any(const golden_case& c) {
  const std::string f = c.func();
  if (f == "schur") run_schur(c);
  else if (f == "rsf2csf") run_rsf2csf(c);
  else if (f == "hessenberg") run_hessenberg(c);
  else if (f == "matrix_balance") run_balance(c);
  else if (f == "qz") run_qz(c, false);
  else if (f == "ordqz") run_qz(c, true);
  else if (f == "cdf2rdf") run_cdf2rdf(c);
  else FAIL("unknown func " << f);
}

}  // namespace

TEST_CASE("schur") { run_func_cases(mod, "schur", 30, run_schur); }
TEST_CASE("rsf2csf") { run_func_cases(mod, "rsf2csf", 8, run_rsf2csf); }
TEST_CASE("hessenberg") { run_func_cases(mod, "hessenberg", 10, run_hessenberg); }
TEST_CASE("matrix_balance") { run_func_cases(mod, "matrix_balance", 10, run_balance); }
TEST_CASE("qz") { run_func_cases(mod, "qz", 10, [](const golden_case& c) { run_qz(c, false); }); }
TEST_CASE("ordqz") { run_func_cases(mod, "ordqz", 10, [](const golden_case& c) { run_qz(c, true); }); }
TEST_CASE("cdf2rdf") { run_func_cases(mod, "cdf2rdf", 6, run_cdf2rdf); }

TEST_CASE("schur: callable sort and batch sdim") {
  const host_array h = cusci::testing::golden(mod, "schur_sort_batch_a");
  const ndarray a = asarray(h);
  linalg::schur_options o;
  o.sort_fn = [](std::complex<double> w) { return w.real() < 0.0; };
  const linalg::schur_result r = linalg::schur(a, o);
  const host_array want = cusci::testing::golden(mod, "schur_sort_batch_sdim").astype(dtype::int64);
  const host_array got = cusci::to_host(r.sdim);
  REQUIRE(got.size() == want.size());
  for (i64 i = 0; i < want.size(); ++i) CHECK(got.data_as<std::int64_t>()[i] == want.data_as<std::int64_t>()[i]);
  linalg::schur_options bad;
  bad.sort_fn = [](std::complex<double>) -> bool { throw cusci::value_error("from the callable"); };
  CHECK_THROWS_AS(linalg::schur(a, bad), cusci::value_error);
}

TEST_CASE("on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"schur_batch", "rsf2csf_batch", "hess_batch", "qz_batch", "ordqz_batch",
                                  "cdf_batch", "bal_f64"},
                            run_any);
}
