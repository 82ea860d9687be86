// GPU tests of cusci::linalg's QR family (qr, rq, qr_multiply, qr_update, qr_delete, qr_insert) against scipy.linalg
// 1.18 (tests/golden/gen_linalg_qr.py): every
// case of the references (dtypes, sizes 0 to 150 on the cuSOLVER and batched-kernel paths, rectangular
// matrices, batches and broadcasting, C/F/strided layouts, every mode and option, column pivoting,
// rank-deficient and badly scaled inputs, promotion, empty arrays, errors), plus a non-blocking stream.
//
// QR factors are unique up to the signs (phases) of R's rows / Q's columns, so each case checks the
// properties SciPy's output has: the reconstruction (Q @ R = a[..., :, P], R @ Q = a), orthonormality,
// |R| against |R_scipy|, P exactly, and every output's shape and dtype (see the generator's docstring).

#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/linalg/qr.hpp"
#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden;

namespace {

const std::string mod = "linalg_qr";
using cd = std::complex<double>;
using i64 = std::int64_t;

/// A batch of dense complex<double> matrices on the host (C order), from an array of ndim >= 2.
struct mats {
  shape_t batch;
  i64 r = 0, c = 0, nb = 1;
  std::vector<cd> v;
  cd& at(i64 b, i64 i, i64 j) { return v[static_cast<std::size_t>((b * r + i) * c + j)]; }
  cd at(i64 b, i64 i, i64 j) const { return v[static_cast<std::size_t>((b * r + i) * c + j)]; }
};

mats make(const shape_t& batch, i64 r, i64 c) {
  mats m;
  m.batch = batch;
  m.r = r;
  m.c = c;
  for (auto d : batch) m.nb *= d;
  m.v.assign(static_cast<std::size_t>(m.nb * r * c), cd(0));
  return m;
}

/// h viewed as matrices; a 1-d array is the row (1, L) unless `column`.
mats host_mats(const host_array& h, bool column = false) {
  shape_t s = h.shape();
  if (s.empty()) s = {1, 1};
  else if (s.size() == 1) s = column ? shape_t{s[0], 1} : shape_t{1, s[0]};
  mats m = make(shape_t(s.begin(), s.end() - 2), s[s.size() - 2], s.back());
  const host_array hc = h.astype(dtype::complex128);
  const cd* p = hc.data_as<cd>();
  for (std::size_t i = 0; i < m.v.size(); ++i) m.v[i] = p[i];
  return m;
}
mats dev_mats(const ndarray& x, bool column = false) { return host_mats(to_host(x), column); }

/// Flat index into `from_batch` of the broadcast batch index b of `to_batch`.
i64 bcast(const shape_t& to_batch, const shape_t& from_batch, i64 b) {
  i64 idx = 0, mul = 1;
  for (int d = static_cast<int>(to_batch.size()) - 1, e = static_cast<int>(from_batch.size()) - 1; d >= 0; --d, --e) {
    const i64 coord = b % to_batch[static_cast<std::size_t>(d)];
    b /= to_batch[static_cast<std::size_t>(d)];
    if (e >= 0) {
      const i64 n = from_batch[static_cast<std::size_t>(e)];
      idx += (n == 1 ? 0 : coord) * mul;
      mul *= n;
    }
  }
  return idx;
}

/// x[b] @ y[b] (conj_x: conj(x[b])^T @ y[b]); batch of x; y broadcast.
mats matmul(const mats& x, const mats& y, bool adj_x = false) {
  const i64 rr = adj_x ? x.c : x.r, inner = adj_x ? x.r : x.c;
  REQUIRE(inner == y.r);
  mats z = make(x.batch, rr, y.c);
  for (i64 b = 0; b < x.nb; ++b) {
    const i64 yb = bcast(x.batch, y.batch, b);
    for (i64 i = 0; i < rr; ++i)
      for (i64 j = 0; j < y.c; ++j) {
        cd s = 0;
        for (i64 l = 0; l < inner; ++l) s += (adj_x ? std::conj(x.at(b, l, i)) : x.at(b, i, l)) * y.at(yb, l, j);
        z.at(b, i, j) = s;
      }
  }
  return z;
}

void check_close(const mats& x, const mats& y, double rtol, double atol, const char* what) {
  INFO(what);
  REQUIRE(x.v.size() == y.v.size());
  std::size_t bad = 0, first = 0;
  double worst = 0;
  for (std::size_t i = 0; i < x.v.size(); ++i) {
    const double e = std::abs(x.v[i] - y.v[i]);
    worst = std::max(worst, e);
    if (!(e <= atol + rtol * std::abs(y.v[i]))) {
      if (!bad) first = i;
      ++bad;
    }
  }
  if (bad)
    FAIL_CHECK(what << ": " << bad << " of " << x.v.size() << " differ; first at " << first << ": " << x.v[first]
                    << " vs " << y.v[first] << " (max error " << worst << ", atol " << atol << ")");
}

mats absolute(mats x) {
  for (auto& e : x.v) e = std::abs(e);
  return x;
}

mats identity_like(const shape_t& batch, i64 n) {
  mats m = make(batch, n, n);
  for (i64 b = 0; b < m.nb; ++b)
    for (i64 i = 0; i < n; ++i) m.at(b, i, i) = 1;
  return m;
}

/// a[..., :, p] with p [..., N] (or unbatched).
mats permute_cols(const mats& a, const std::optional<ndarray>& p, const shape_t& batch) {
  mats out = make(batch, a.r, a.c);
  std::vector<std::int32_t> pv;
  shape_t pb;
  if (p) {
    const host_array hp = to_host(*p).astype(dtype::int32);
    pv.assign(hp.data_as<std::int32_t>(), hp.data_as<std::int32_t>() + hp.size());
    pb = shape_t(p->shape().begin(), p->shape().end() - 1);
  }
  for (i64 b = 0; b < out.nb; ++b) {
    const i64 ab = bcast(batch, a.batch, b), pbi = p ? bcast(batch, pb, b) : 0;
    for (i64 i = 0; i < a.r; ++i)
      for (i64 j = 0; j < a.c; ++j)
        out.at(b, i, j) = a.at(ab, i, p ? pv[static_cast<std::size_t>(pbi * a.c + j)] : j);
  }
  return out;
}

/// A batch of vectors [..., L] as the rows (1, L) of a batch of matrices: tau of a batched raw QR is
/// [batch..., K], one vector per matrix (host_mats would read a 2-d tau as one K-column matrix).
mats host_rows(const host_array& h) {
  const shape_t& s = h.shape();
  REQUIRE(!s.empty());
  mats m = make(shape_t(s.begin(), s.end() - 1), 1, s.back());
  const host_array hc = h.astype(dtype::complex128);
  const cd* p = hc.data_as<cd>();
  for (std::size_t i = 0; i < m.v.size(); ++i) m.v[i] = p[i];
  return m;
}

/// Q (m x k) = H_0 ... H_{k-1} I[:, :k] from LAPACK's packed factors (m x n) and tau (k), batch by batch
/// (tau: host_rows of [batch..., k], the same batch as qr).
mats q_from_raw(const mats& qr, const mats& tau) {
  REQUIRE(tau.r == 1);
  REQUIRE(tau.nb == qr.nb);
  const i64 m = qr.r, k = tau.c;
  mats q = make(qr.batch, m, k);
  for (i64 b = 0; b < q.nb; ++b) {
    for (i64 i = 0; i < std::min(m, k); ++i) q.at(b, i, i) = 1;
    for (i64 h = k - 1; h >= 0; --h) {
      const cd t = tau.at(b, 0, h);
      for (i64 j = 0; j < k; ++j) {
        cd w = q.at(b, h, j);
        for (i64 i = h + 1; i < m; ++i) w += std::conj(qr.at(b, i, h)) * q.at(b, i, j);
        q.at(b, h, j) -= t * w;
        for (i64 i = h + 1; i < m; ++i) q.at(b, i, j) -= t * qr.at(b, i, h) * w;
      }
    }
  }
  return q;
}

void check_meta(const ndarray& x, const host_array& e, const char* what) {
  INFO(what);
  CHECK_MESSAGE(x.dtype() == e.dtype(), "dtype " << dtype_name(x.dtype()) << " vs " << dtype_name(e.dtype()));
  REQUIRE(x.shape() == e.shape());
}

void run_qr(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray a = to_device(c.array("a"), layout);
  linalg::qr_options o;
  o.mode = linalg::parse_qr_mode(c.get<std::string>("mode"));
  o.pivoting = c.get<bool>("pivoting");
  o.check_finite = c.get<bool>("check_finite");
  if (c.has("lwork")) o.lwork = c.get<std::int64_t>("lwork");
  if (c.expects_error()) return expect_error(c, [&] { return linalg::qr(a, o); });
  linalg::qr_result r;
  REQUIRE_NOTHROW(r = linalg::qr(a, o));
  const host_array er = c.array("expected_r");
  check_meta(r.r, er, "r");
  CHECK(r.q.has_value() == c.has("expected_q"));
  CHECK(r.tau.has_value() == c.has("expected_tau"));
  CHECK(r.p.has_value() == c.has("expected_p"));
  if (c.has("expected_p")) {
    INFO("p");
    REQUIRE(r.p);
    cusci::testing::check_allclose(*r.p, c.array("expected_p"), 0, 0);
  }
  if (r.q) check_meta(*r.q, c.array("expected_q"), "q");
  if (r.tau) check_meta(*r.tau, c.array("expected_tau"), "tau");
  if (r.r.size() == 0 || a.size() == 0) {  // empty: the identity Q of full mode and raw's zero tau are values
    if (o.mode == linalg::qr_mode::full && r.q) cusci::testing::check_allclose(*r.q, c.array("expected_q"), 0, 0);
    if (r.tau) cusci::testing::check_allclose(*r.tau, c.array("expected_tau"), 0, 0);
    return;
  }
  const double rtol = c.rtol(), atol = c.atol();
  const mats R = dev_mats(r.r);
  check_close(absolute(R), absolute(host_mats(er)), rtol, atol, "|R| vs |R_scipy|");
  const mats A = dev_mats(a);
  const shape_t batch = R.batch;
  const mats AP = permute_cols(A, r.p, batch);
  mats Q;
  mats Rk = R;
  if (o.mode == linalg::qr_mode::raw) {
    const mats packed = dev_mats(*r.q);
    Q = q_from_raw(packed, host_rows(to_host(*r.tau)));
    // R is the upper triangle of the packed factors
    mats up = make(batch, R.r, R.c);
    for (i64 b = 0; b < up.nb; ++b)
      for (i64 i = 0; i < R.r; ++i)
        for (i64 j = i; j < R.c; ++j) up.at(b, i, j) = packed.at(b, i, j);
    check_close(up, R, 0, 0, "raw: R = triu(qr)");
  } else if (r.q) {
    Q = dev_mats(*r.q);
  } else {
    return;  // mode r
  }
  check_close(matmul(Q, Rk), AP, rtol, atol, "Q @ R = a[:, P]");
  check_close(matmul(Q, Q, true), identity_like(batch, Q.c), 0, rtol * 10, "Q^H Q = I");
}

void run_rq(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray a = to_device(c.array("a"), layout);
  linalg::rq_options o;
  o.mode = linalg::parse_rq_mode(c.get<std::string>("mode"));
  o.check_finite = c.get<bool>("check_finite");
  if (c.has("lwork")) o.lwork = c.get<std::int64_t>("lwork");
  if (c.expects_error()) return expect_error(c, [&] { return linalg::rq(a, o); });
  linalg::rq_result r;
  REQUIRE_NOTHROW(r = linalg::rq(a, o));
  const host_array er = c.array("expected_r");
  check_meta(r.r, er, "r");
  CHECK(r.q.has_value() == c.has("expected_q"));
  if (r.q) check_meta(*r.q, c.array("expected_q"), "q");
  if (a.size() == 0) {
    if (o.mode == linalg::rq_mode::full && r.q) cusci::testing::check_allclose(*r.q, c.array("expected_q"), 0, 0);
    return;
  }
  const double rtol = c.rtol(), atol = c.atol();
  const mats R = dev_mats(r.r);
  check_close(absolute(R), absolute(host_mats(er)), rtol, atol, "|R| vs |R_scipy|");
  if (!r.q) return;
  const mats Q = dev_mats(*r.q);
  check_close(matmul(R, Q), dev_mats(a), rtol, atol, "R @ Q = a");
  // rows orthonormal: Q Q^H = I, checked as (Q^H)^H (Q^H)
  mats QH = make(Q.batch, Q.c, Q.r);
  for (i64 b = 0; b < Q.nb; ++b)
    for (i64 i = 0; i < Q.r; ++i)
      for (i64 j = 0; j < Q.c; ++j) QH.at(b, j, i) = std::conj(Q.at(b, i, j));
  check_close(matmul(QH, QH, true), identity_like(Q.batch, Q.r), 0, rtol * 10, "Q Q^H = I");
}

void run_qr_multiply(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray a = to_device(c.array("a"), layout), cc = to_device(c.array("c"), layout);
  linalg::qr_multiply_options o;
  o.mode = linalg::parse_qr_multiply_mode(c.get<std::string>("mode"));
  o.pivoting = c.get<bool>("pivoting");
  o.conjugate = c.get<bool>("conjugate");
  o.overwrite_c = c.get<bool>("overwrite_c");
  if (c.expects_error()) return expect_error(c, [&] { return linalg::qr_multiply(a, cc, o); });
  linalg::qr_multiply_result r;
  REQUIRE_NOTHROW(r = linalg::qr_multiply(a, cc, o));
  check_meta(r.cq, c.array("expected_cq"), "cq");
  check_meta(r.r, c.array("expected_r"), "r");
  CHECK(r.p.has_value() == c.has("expected_p"));
  if (c.has("expected_p")) {
    INFO("p");
    REQUIRE(r.p);
    cusci::testing::check_allclose(*r.p, c.array("expected_p"), 0, 0);
  }
  if (r.cq.size() == 0 || r.r.size() == 0) return;
  const double rtol = c.rtol(), atol = c.atol();
  const mats R = dev_mats(r.r);
  check_close(absolute(R), absolute(host_mats(c.array("expected_r"))), rtol, atol, "|R| vs |R_scipy|");
  // Q_econ = a[:, P][:, :K] @ inv(R[:K, :K]) per matrix (forward substitution on rows of X R1 = B)
  const shape_t batch = R.batch;
  const i64 k = R.r;
  const mats AP = permute_cols(dev_mats(a), r.p, batch);
  mats Qe = make(batch, AP.r, k);
  for (i64 b = 0; b < Qe.nb; ++b)
    for (i64 i = 0; i < AP.r; ++i)
      for (i64 j = 0; j < k; ++j) {
        cd s = AP.at(b, i, j);
        for (i64 l = 0; l < j; ++l) s -= Qe.at(b, i, l) * R.at(b, l, j);
        Qe.at(b, i, j) = s / R.at(b, j, j);
      }
  if (o.conjugate)
    for (auto& e : Qe.v) e = std::conj(e);
  const bool left = o.mode == linalg::qr_multiply_mode::left;
  const bool onedim = cc.ndim() < 2;
  const mats C = dev_mats(cc, left);   // a 1-d c: a column for left, a row for right
  const mats CQ = dev_mats(r.cq, left);
  if (left) {
    if (C.r == k) {
      check_close(CQ, matmul(Qe, C), rtol, atol, "Q @ c");
    } else {  // overwrite_c with M > N: the full Q; check Q_econ^H (Q c) = c[:K] and column norms
      const mats proj = matmul(Qe, CQ, true);
      mats ck = make(C.batch, k, C.c);
      for (i64 b = 0; b < C.nb; ++b)
        for (i64 i = 0; i < k; ++i)
          for (i64 j = 0; j < C.c; ++j) ck.at(b, i, j) = C.at(b, i, j);
      check_close(proj, ck, rtol, atol, "Q_econ^H (Q @ c) = c[:K]");
      const mats g1 = matmul(CQ, CQ, true), g0 = matmul(C, C, true);
      check_close(g1, g0, rtol, atol * 10, "(Qc)^H (Qc) = c^H c");
    }
  } else {
    mats ref = make(batch, C.r, k);
    for (i64 b = 0; b < ref.nb; ++b) {
      const i64 cb = bcast(batch, C.batch, b);
      for (i64 i = 0; i < C.r; ++i)
        for (i64 j = 0; j < k; ++j) {
          cd s = 0;
          for (i64 l = 0; l < C.c; ++l) s += C.at(cb, i, l) * Qe.at(b, l, j);
          ref.at(b, i, j) = s;
        }
    }
    check_close(CQ, ref, rtol, atol, "c @ Q");
  }
  (void)onedim;
}

void run_qr_update(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray q = to_device(c.array("q"), layout), r = to_device(c.array("r"), layout);
  const ndarray u = to_device(c.array("u"), layout), v = to_device(c.array("v"), layout);
  const linalg::qr_update_options o{.check_finite = c.get<bool>("check_finite")};
  if (c.expects_error()) return expect_error(c, [&] { return linalg::qr_update(q, r, u, v, o); });
  linalg::qr_update_result res;
  REQUIRE_NOTHROW(res = linalg::qr_update(q, r, u, v, o));
  check_meta(res.q, c.array("expected_q"), "q1");
  check_meta(res.r, c.array("expected_r"), "r1");
  const double rtol = c.rtol(), atol = c.atol();
  const mats Q = dev_mats(q), R = dev_mats(r), U = dev_mats(u, true), V = dev_mats(v, true);
  const mats Q1 = dev_mats(res.q), R1 = dev_mats(res.r);
  // A1 = Q R + U V^H per matrix of the broadcast batch
  mats A1 = make(R1.batch, Q.r, R.c);
  const bool vec = u.ndim() < 2;
  for (i64 b = 0; b < A1.nb; ++b) {
    const i64 qb = bcast(A1.batch, Q.batch, b), rb = bcast(A1.batch, R.batch, b);
    const i64 ub = vec ? 0 : bcast(A1.batch, U.batch, b), vb = vec ? 0 : bcast(A1.batch, V.batch, b);
    for (i64 i = 0; i < A1.r; ++i)
      for (i64 j = 0; j < A1.c; ++j) {
        cd s = 0;
        for (i64 l = 0; l < Q.c; ++l) s += Q.at(qb, i, l) * R.at(rb, l, j);
        for (i64 l = 0; l < U.c; ++l) s += U.at(ub, i, l) * std::conj(V.at(vb, j, l));
        A1.at(b, i, j) = s;
      }
  }
  check_close(matmul(Q1, R1), A1, rtol, atol, "Q1 @ R1 = Q @ R + u v^H");
  check_close(matmul(Q1, Q1, true), identity_like(Q1.batch, Q1.c), 0, rtol * 10, "Q1^H Q1 = I");
  check_close(absolute(R1), absolute(host_mats(c.array("expected_r"))), rtol, atol, "|R1| vs |R1_scipy|");
  for (i64 b = 0; b < R1.nb; ++b)
    for (i64 i = 0; i < R1.r; ++i)
      for (i64 j = 0; j < std::min(i, R1.c); ++j) CHECK(R1.at(b, i, j) == cd(0));
}

void run_qr_delete(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray q = to_device(c.array("q"), layout), r = to_device(c.array("r"), layout);
  const i64 k = c.get<std::int64_t>("k");
  const linalg::qr_delete_options o{.p = c.get<std::int64_t>("p"),
                                    .which = linalg::parse_qr_which(c.get<std::string>("which")),
                                    .check_finite = c.get<bool>("check_finite")};
  if (c.expects_error()) return expect_error(c, [&] { return linalg::qr_delete(q, r, k, o); });
  linalg::qr_update_result res;
  REQUIRE_NOTHROW(res = linalg::qr_delete(q, r, k, o));
  check_meta(res.q, c.array("expected_q"), "q1");
  check_meta(res.r, c.array("expected_r"), "r1");
  if (res.q.size() == 0 || res.r.size() == 0) return;
  const double rtol = c.rtol(), atol = c.atol();
  const mats Q = dev_mats(q), R = dev_mats(r), Q1 = dev_mats(res.q), R1 = dev_mats(res.r);
  const bool rows = o.which == linalg::qr_which::row;
  const i64 lim = rows ? Q.r : R.c, k0 = k < 0 ? k + lim : k, p = o.p;
  // A with rows / columns [k0, k0 + p) removed, per matrix of the broadcast batch
  mats A1 = make(R1.batch, Q1.r, R1.c);
  for (i64 b = 0; b < A1.nb; ++b) {
    const i64 qb = bcast(A1.batch, Q.batch, b), rb = bcast(A1.batch, R.batch, b);
    for (i64 i = 0; i < A1.r; ++i)
      for (i64 j = 0; j < A1.c; ++j) {
        const i64 si = rows && i >= k0 ? i + p : i, sj = !rows && j >= k0 ? j + p : j;
        cd s = 0;
        for (i64 l = 0; l < Q.c; ++l) s += Q.at(qb, si, l) * R.at(rb, l, sj);
        A1.at(b, i, j) = s;
      }
  }
  check_close(matmul(Q1, R1), A1, rtol, atol, "Q1 @ R1 = a without the deleted rows / columns");
  check_close(matmul(Q1, Q1, true), identity_like(Q1.batch, Q1.c), 0, rtol * 10, "Q1^H Q1 = I");
  check_close(absolute(R1), absolute(host_mats(c.array("expected_r"))), rtol, atol, "|R1| vs |R1_scipy|");
  for (i64 b = 0; b < R1.nb; ++b)
    for (i64 i = 0; i < R1.r; ++i)
      for (i64 j = 0; j < std::min(i, R1.c); ++j) CHECK(R1.at(b, i, j) == cd(0));
}

void run_qr_insert(const cusci::testing::golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  const ndarray q = to_device(c.array("q"), layout), r = to_device(c.array("r"), layout);
  const ndarray u = to_device(c.array("u"), layout);
  const i64 k = c.get<std::int64_t>("k");
  linalg::qr_insert_options o;
  o.which = linalg::parse_qr_which(c.get<std::string>("which"));
  if (c.has("rcond")) o.rcond = c.get<double>("rcond");
  o.check_finite = c.get<bool>("check_finite");
  if (c.expects_error()) return expect_error(c, [&] { return linalg::qr_insert(q, r, u, k, o); });
  linalg::qr_update_result res;
  REQUIRE_NOTHROW(res = linalg::qr_insert(q, r, u, k, o));
  check_meta(res.q, c.array("expected_q"), "q1");
  check_meta(res.r, c.array("expected_r"), "r1");
  const double rtol = c.rtol(), atol = c.atol();
  const bool rows = o.which == linalg::qr_which::row;
  const mats Q = dev_mats(q), R = dev_mats(r), Q1 = dev_mats(res.q), R1 = dev_mats(res.r);
  const mats U = dev_mats(u, !rows);  // a 1-d u: one row (rows) or one column (columns)
  const i64 lim = rows ? Q.r : R.c, k0 = k < 0 ? k + lim : k, p = rows ? U.r : U.c;
  // A with u's rows / columns inserted before k0, per matrix of the broadcast batch
  mats A1 = make(R1.batch, Q1.r, R1.c);
  for (i64 b = 0; b < A1.nb; ++b) {
    const i64 qb = bcast(A1.batch, Q.batch, b), rb = bcast(A1.batch, R.batch, b), ubi = bcast(A1.batch, U.batch, b);
    for (i64 i = 0; i < A1.r; ++i)
      for (i64 j = 0; j < A1.c; ++j) {
        const i64 t = rows ? i : j;
        if (t >= k0 && t < k0 + p) {
          A1.at(b, i, j) = rows ? U.at(ubi, t - k0, j) : U.at(ubi, i, t - k0);
          continue;
        }
        const i64 si = rows && i >= k0 + p ? i - p : i, sj = !rows && j >= k0 + p ? j - p : j;
        cd s = 0;
        for (i64 l = 0; l < Q.c; ++l) s += Q.at(qb, si, l) * R.at(rb, l, sj);
        A1.at(b, i, j) = s;
      }
  }
  check_close(matmul(Q1, R1), A1, rtol, atol, "Q1 @ R1 = a with u inserted");
  check_close(matmul(Q1, Q1, true), identity_like(Q1.batch, Q1.c), 0, rtol * 10, "Q1^H Q1 = I");
  check_close(absolute(R1), absolute(host_mats(c.array("expected_r"))), rtol, atol, "|R1| vs |R1_scipy|");
  for (i64 b = 0; b < R1.nb; ++b)
    for (i64 i = 0; i < R1.r; ++i)
      for (i64 j = 0; j < std::min(i, R1.c); ++j) CHECK(R1.at(b, i, j) == cd(0));
}

void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  const std::string f = c.func();
  if (f == "qr") run_qr(c);
  else if (f == "rq") run_rq(c);
  else if (f == "qr_multiply") run_qr_multiply(c);
  else if (f == "qr_update") run_qr_update(c);
  else if (f == "qr_delete") run_qr_delete(c);
  else if (f == "qr_insert") run_qr_insert(c);
  else FAIL("unknown func " << f);
}

void run_func(const std::string& func, std::size_t at_least) { run_func_cases(mod, func, at_least, run_case); }

}  // namespace

TEST_CASE("qr matches scipy.linalg.qr") { run_func("qr", 300); }
TEST_CASE("rq matches scipy.linalg.rq") { run_func("rq", 80); }
TEST_CASE("qr_multiply matches scipy.linalg.qr_multiply") { run_func("qr_multiply", 90); }
TEST_CASE("qr_update matches scipy.linalg.qr_update") { run_func("qr_update", 50); }
TEST_CASE("qr_delete matches scipy.linalg.qr_delete") { run_func("qr_delete", 110); }
TEST_CASE("qr_insert matches scipy.linalg.qr_insert") { run_func("qr_insert", 140); }

TEST_CASE("the qr family on a non-blocking stream") {
  // one case of each path: cuSOLVER, batched kernels, pivoting, rq, qr_multiply both ways, errors
  run_on_nonblocking_stream(mod, {"qr_f64_150x120_full", "qr_b_f64_3x6x4_economic_piv", "qr_f64_100x100_raw_piv",
                                  "rq_b_c128_2x40x33_full", "qrm_b_both", "qrm_f64_60x40_right_piv", "qr_nan",
                                  "qrm_nan_c", "qru_b_both_econ", "qrd_econ_rows_to_full", "qri_econ_cols_to_full",
                                  "qri_econ_in_span"}, run_case);
}

TEST_CASE("qr messages and warnings follow SciPy's") {
  const ndarray bad = asarray(golden(mod, "qr_nan_a"));
  CHECK_THROWS_WITH_AS(linalg::qr(bad), "cusci::linalg::qr: array must not contain infs or NaNs", value_error);
  CHECK_NOTHROW((void)linalg::qr(bad, {.check_finite = false}));
  const ndarray a = asarray(golden(mod, "qr_lwork_ok_a"));
  warning_capture w;
  (void)linalg::qr(a, {.lwork = 5});
  REQUIRE(w.warnings().size() == 1);
  CHECK(w.warnings()[0].category == "DeprecationWarning");
}

TEST_CASE("qr does not modify its input and returns Fortran-ordered Q") {
  const host_array ha = golden(mod, "qr_f64_64x40_full_a");
  const ndarray a = asarray(ha);
  const linalg::qr_result r = linalg::qr(a, {.overwrite_a = true});
  cusci::testing::check_allclose(a, ha, 0, 0);
  REQUIRE(r.q);
  CHECK(r.q->is_f_contiguous());
  CHECK(r.r.is_c_contiguous());
}
