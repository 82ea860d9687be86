// cusci::linalg's QR family (qr, rq, qr_multiply): SciPy 1.18's argument handling, shape and dtype rules;
// the device work is in qr_kernels.cu (see qr/qr_engine.hpp).

#include "cusci/linalg/qr.hpp"

#include <climits>
#include <cstdio>
#include <string>
#include <utility>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/memory.hpp"
#include "cusci/warnings.hpp"
#include "common/detail.hpp"
#include "common/host_helpers.hpp"
#include "common/shapes.hpp"
#include "qr/qr_engine.hpp"

namespace cusci::linalg {

namespace {

using detail::batch_view;
using detail::cast_to;
using detail::lapack_dtype;
using detail::throw_nonfinite;
using detail::prod;
using detail::shape_str;
using i64 = std::int64_t;

constexpr i64 no_mask = LLONG_MIN / 4;

/// The column-major factorization of a batch: buf [batch..., ncolbuf, m] in C order (so matrix b is
/// column-major with leading dimension m), tau [batch..., k], jpvt [batch..., n] with pivoting.
struct qr_work {
  shape_t batch;
  i64 nbatch = 0, m = 0, n = 0, k = 0, ncolbuf = 0;
  dtype dt = dtype::float64;
  ndarray buf, tau;
  std::optional<ndarray> p;
  i64 bs() const { return m * ncolbuf; }
};

/// Gathers the m x n matrices of `av` (conjugated when `conj`) and factors them; ncolbuf >= n columns are
/// allocated per matrix (M for qr's full mode with M > N, so that Q is formed in place).
qr_work factor_all(const batch_view& av, const shape_t& batch, i64 m, i64 n, dtype dt, bool conj, i64 ncolbuf,
                   bool pivoting, bool check, int* status) {
  qr_work w;
  w.batch = batch;
  w.nbatch = prod(batch);
  w.m = m;
  w.n = n;
  w.k = std::min(m, n);
  w.ncolbuf = ncolbuf;
  w.dt = dt;
  w.buf = cusci::empty(detail::concat(batch, {ncolbuf, m}), dt);
  w.tau = cusci::empty(detail::concat(batch, {w.k}), dt);
  if (pivoting) w.p = cusci::empty(detail::concat(batch, {n}), dtype::int32);
  detail::qr_gather(dt, av, w.nbatch, m, n, conj, check, w.buf.data(), m, w.bs(), status);
  detail::qr_factor(dt, w.nbatch, m, n, w.buf.data(), m, w.bs(), w.tau.data(),
                    pivoting ? static_cast<int*>(w.p->data()) : nullptr);
  return w;
}

/// View of the first `cols` columns (rows x cols, Fortran order per matrix) of the work buffer.
ndarray buffer_view(const qr_work& w, i64 rows, i64 cols) {
  const ndarray& b = w.buf;
  shape_t shape = detail::concat(w.batch, {rows, cols});
  shape_t strides(b.strides().begin(), b.strides().end() - 2);
  const i64 isz = static_cast<i64>(b.itemsize());
  strides.push_back(isz);
  strides.push_back(w.m * isz);
  return ndarray(b.memory(), b.dtype(), shape, strides, b.offset(), b.device());
}

/// A new C-order [batch..., rows, cols] array: element (i, j) = (conj) buffer element at
/// base + i * si + j * sj (elements) of each matrix, zero where j - i < diag_min.
ndarray copy_out(const qr_work& w, i64 base, i64 si, i64 sj, i64 rows, i64 cols, bool conj, i64 diag_min) {
  ndarray out = cusci::empty(detail::concat(w.batch, {rows, cols}), w.dt);
  const char* src = static_cast<const char*>(w.buf.data()) + base * static_cast<i64>(w.buf.itemsize());
  detail::qr_copy_out(w.dt, src, w.bs(), si, sj, w.nbatch, rows, cols, conj, diag_min, out.data());
  return out;
}

ndarray identity_batch(const shape_t& batch, i64 n, dtype dt) {
  ndarray q = cusci::empty(detail::concat(batch, {n, n}), dt);
  detail::qr_eye(dt, prod(batch), n, q.data());
  return q;
}

ndarray arange_int32(i64 n) { return cusci::arange(0, n, 1, dtype::int32); }

/// Matrix view of an operand after atleast_2d, its batch dimensions broadcast to `batch`.
batch_view view_of(const ndarray& x, const shape_t& batch) {
  return detail::broadcast_view(x.data(), detail::atleast(x, 2), batch);
}

/// The checks qr_update and qr_delete share on (Q, R): ndim, dtype, shapes. Returns the core shapes.
void check_factors(const std::string& fn, const ndarray& q, const ndarray& r, shape_t& qc, shape_t& rc) {
  if (q.ndim() < 2 || r.ndim() < 2) throw value_error(fn + ": Q and R must be 2-D");
  const dtype dt = q.dtype();
  if (r.dtype() != dt) throw value_error(fn + ": Q and R must have the same dtype");
  if (dt != dtype::float32 && dt != dtype::float64 && dt != dtype::complex64 && dt != dtype::complex128)
    throw value_error(fn + ": Only arrays with dtypes float32, float64, complex64, and complex128 are supported.");
  qc = shape_t(q.shape().end() - 2, q.shape().end());
  rc = shape_t(r.shape().end() - 2, r.shape().end());
  if (qc[1] != rc[0])
    throw value_error(fn + ": Q and R do not have compatible shapes. Expected (M,M) (M,N) or (M,N) (N,N) but found " +
                      shape_str(qc) + " " + shape_str(rc) + " for Q and R respectively");
  if (qc[0] != qc[1] && rc[0] != rc[1])
    throw value_error(fn + ": Expected (M,M) (M,N) or (M,N) (N,N) but found " + shape_str(qc) + " " + shape_str(rc) +
                      " for Q and R respectively");
}

}  // namespace

// --- mode strings -----------------------------------------------------------------------------------

qr_mode parse_qr_mode(std::string_view s) {
  if (s == "full" || s == "qr") return qr_mode::full;
  if (s == "r") return qr_mode::r;
  if (s == "economic") return qr_mode::economic;
  if (s == "raw") return qr_mode::raw;
  throw value_error("cusci::linalg::qr: Mode argument should be one of ['full', 'qr', 'r', 'raw', 'economic'], got '" +
                    std::string(s) + "'");
}

rq_mode parse_rq_mode(std::string_view s) {
  if (s == "full") return rq_mode::full;
  if (s == "r") return rq_mode::r;
  if (s == "economic") return rq_mode::economic;
  throw value_error("cusci::linalg::rq: Mode argument should be one of ['full', 'r', 'economic'], got '" +
                    std::string(s) + "'");
}

qr_multiply_mode parse_qr_multiply_mode(std::string_view s) {
  if (s == "left") return qr_multiply_mode::left;
  if (s == "right") return qr_multiply_mode::right;
  throw value_error("cusci::linalg::qr_multiply: Mode argument can only be 'left' or 'right' but not '" +
                    std::string(s) + "'");
}

// --- qr -------------------------------------------------------------------------------------------

qr_result qr(const ndarray& a, const qr_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::qr");
  const std::string fn = "cusci::linalg::qr";
  if (a.ndim() < 2) throw value_error(fn + ": Expected at least a 2-D array, got shape " + shape_str(a.shape()));
  const shape_t& s = a.shape();
  const std::size_t nd = s.size();
  const i64 m = s[nd - 2], n = s[nd - 1], k = std::min(m, n);
  if (o.lwork) {
    if (*o.lwork != -1 && *o.lwork <= m)
      throw value_error(fn + ": lwork should be None, -1 or > M, got " + std::to_string(*o.lwork));
    warn("DeprecationWarning", fn,
         "scipy.linalg: the `lwork` keyword is deprecated and no longer in use as of SciPy 1.18.0 and will be "
         "removed in SciPy 1.20.0");
  }
  const dtype dt = lapack_dtype(a.dtype());
  const shape_t batch(s.begin(), s.end() - 2);
  const i64 nbatch = prod(batch);
  const bool wide_q = o.mode == qr_mode::full || o.mode == qr_mode::r;
  qr_result r;
  if (nbatch * m * n == 0) {  // SciPy's empty results
    if (wide_q) {
      if (o.mode == qr_mode::full) r.q = identity_batch(batch, m, dt);
      r.r = cusci::empty(s, dt);
    } else {
      if (o.mode == qr_mode::economic) r.q = cusci::empty(detail::concat(batch, {m, k}), dt);
      r.r = cusci::empty(detail::concat(batch, {k, n}), dt);
    }
    if (o.mode == qr_mode::raw) {
      r.q = cusci::empty(s, dt);
      r.tau = cusci::zeros(detail::concat(batch, {k}), dt);
    }
    if (o.pivoting) r.p = arange_int32(n);  // not batched, as SciPy
    return r;
  }

  const ndarray ac = cast_to(a, dt);
  const i64 ncolbuf = o.mode == qr_mode::full ? std::max(m, n) : n;
  device_buffer<int> status(2);
  detail::clear_status(status.data());
  qr_work w = factor_all(view_of(ac, batch), batch, m, n, dt, false, ncolbuf, o.pivoting, o.check_finite,
                         status.data());
  // R before Q: forming Q overwrites the factors
  r.r = copy_out(w, 0, 1, m, wide_q ? m : k, n, false, 0);
  switch (o.mode) {
    case qr_mode::full:
      detail::qr_form_q(dt, nbatch, m, m, k, w.buf.data(), m, w.bs(), w.tau.data());
      r.q = buffer_view(w, m, m);
      break;
    case qr_mode::economic:
      detail::qr_form_q(dt, nbatch, m, k, k, w.buf.data(), m, w.bs(), w.tau.data());
      r.q = buffer_view(w, m, k);
      break;
    case qr_mode::raw:
      r.q = buffer_view(w, m, n);
      r.tau = w.tau;
      break;
    case qr_mode::r: break;
  }
  r.p = w.p;
  if (o.check_finite && detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  return r;
}

// --- rq -------------------------------------------------------------------------------------------

rq_result rq(const ndarray& a, const rq_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::rq");
  const std::string fn = "cusci::linalg::rq";
  if (a.ndim() < 2) throw value_error(fn + ": expected matrix, got shape " + shape_str(a.shape()));
  const shape_t& s = a.shape();
  const std::size_t nd = s.size();
  const i64 m = s[nd - 2], n = s[nd - 1], k = std::min(m, n);
  const shape_t batch(s.begin(), s.end() - 2);
  const i64 nbatch = prod(batch);
  if (!batch.empty() && nbatch == 0) throw value_error(fn + ": `rq` does not support zero-size batches.");
  const dtype dt = lapack_dtype(a.dtype());
  const bool econ = o.mode == rq_mode::economic;
  rq_result r;
  if (m * n == 0) {  // SciPy's empty results, of a's own dtype (rq does not normalise it before)
    const dtype ed = a.dtype();
    if (!econ) {
      r.r = cusci::empty(detail::concat(batch, {m, n}), ed);
      if (o.mode == rq_mode::full)
        r.q = cusci::eye(n, std::nullopt, 0, ed).broadcast_to(detail::concat(batch, {n, n})).copy();
    } else {
      r.r = cusci::empty(detail::concat(batch, {m, k}), ed);
      r.q = cusci::empty(detail::concat(batch, {k, n}), ed);
    }
    return r;
  }
  if (o.lwork && *o.lwork != -1) {  // LAPACK's workspace checks (f2py's messages)
    const i64 lw = *o.lwork;
    if (lw < std::max<i64>(1, m))
      throw value_error(fn + ": (lwork>=m||lwork==-1) failed for 1st keyword lwork: gerqf:lwork=" + std::to_string(lw));
    const i64 rows_q = (n < m) ? n : (econ ? m : n);
    if (o.mode != rq_mode::r && lw < std::max<i64>(1, rows_q))
      throw value_error(fn + ": (lwork>=m||lwork==-1) failed for 1st keyword lwork: orgrq:lwork=" + std::to_string(lw));
  }

  // B = J_n a^H J_m (n x m): B[i, j] = conj(a[m-1-j, n-1-i]), read by the gather through a reversed view.
  const ndarray ac = cast_to(a, dt);
  batch_view bv = view_of(ac, batch);
  bv.data = static_cast<const char*>(ac.data()) + (m - 1) * bv.s_row + (n - 1) * bv.s_col;
  const i64 sr = bv.s_row;
  bv.s_row = -bv.s_col;
  bv.s_col = -sr;
  const bool full_q = o.mode == rq_mode::full;
  const i64 ncolbuf = full_q ? std::max(n, m) : m;
  device_buffer<int> status(2);
  detail::clear_status(status.data());
  qr_work w = factor_all(bv, batch, n, m, dt, true, ncolbuf, false, o.check_finite, status.data());
  // B = Q1 R1 (ld = n). R = J_m R1^H J: R[i, j] = conj(R1[kr-1-j, m-1-i]), kr = R's column count.
  const i64 rc = econ ? k : n;
  r.r = copy_out(w, (rc - 1) + (m - 1) * n, -n, -1, m, rc, true, rc - m);
  if (o.mode != rq_mode::r) {
    // Q = J Q1^H J_n: Q[i, j] = conj(Q1[n-1-j, kq-1-i]), kq = Q's row count (n for full, k for economic).
    const i64 kq = full_q ? n : k;
    detail::qr_form_q(dt, nbatch, n, kq, k, w.buf.data(), n, w.bs(), w.tau.data());
    r.q = copy_out(w, (n - 1) + (kq - 1) * n, -n, -1, kq, n, true, no_mask);
  }
  if (o.check_finite && detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  return r;
}

// --- qr_multiply ----------------------------------------------------------------------------------

qr_multiply_result qr_multiply(const ndarray& a, const ndarray& c, const qr_multiply_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::qr_multiply");
  const std::string fn = "cusci::linalg::qr_multiply";
  cusci::detail::check_same_device("cusci::linalg::qr_multiply", {&a, &c});
  const bool left = o.mode == qr_multiply_mode::left;
  // SciPy's _apply_over_batch(('a', 2), ('c', '1|2')), then atleast_2d inside.
  const shape_t& as = a.shape();
  const shape_t a_batch = a.ndim() > 2 ? shape_t(as.begin(), as.end() - 2) : shape_t{};
  const i64 m = a.ndim() >= 2 ? as[as.size() - 2] : 1;
  const i64 n = a.ndim() >= 1 ? as.back() : 1;
  const i64 k = std::min(m, n);
  const shape_t& cs = c.shape();
  const bool onedim = c.ndim() < 2;
  const shape_t c_batch = c.ndim() > 2 ? shape_t(cs.begin(), cs.end() - 2) : shape_t{};
  detail::operand co = detail::atleast(c, 2);  // (1, L) for a 1-d c
  if (onedim && left) {                         // c.T: (L, 1)
    std::swap(co.shape[0], co.shape[1]);
    std::swap(co.strides[0], co.strides[1]);
  }
  const std::size_t cnd = co.shape.size();
  const i64 c_rows = co.shape[cnd - 2], c_cols = co.shape[cnd - 1];
  bool ok = true;
  const shape_t batch = detail::broadcast_batch(a_batch, c_batch, ok);
  if (!ok)
    throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                           "arg 0 with shape " + shape_str(a_batch) + " and arg 1 with shape " + shape_str(c_batch) +
                      ".");
  const bool batched = !a_batch.empty() || !c_batch.empty();
  const i64 nbatch = prod(batch);
  if (batched && nbatch == 0) throw value_error(fn + ": `qr_multiply` does not support zero-size batches.");
  const shape_t a2{m, n}, c2{c_rows, c_cols};
  if (left) {
    const i64 need = o.overwrite_c ? m : k;
    if (c_rows != need)
      throw value_error(fn + ": Array shapes are not compatible for Q @ c operation: " + shape_str(a2) + " vs " +
                        shape_str(c2));
  } else if (c_cols != m) {
    throw value_error(fn + ": Array shapes are not compatible for c @ Q operation: " + shape_str(c2) + " vs " +
                      shape_str(a2));
  }
  const bool c_empty = nbatch * c_rows * c_cols == 0;
  if (k == 0 && !c_empty)
    throw value_error(fn + ": unexpected array size: the QR factors of a are empty (min(M, N) = 0) but c is not "
                           "(SciPy's ormqr wrapper rejects this)");
  const dtype dt = lapack_dtype(a.dtype());

  qr_multiply_result res;
  if (m * n == 0) {  // then c is empty too
    res.cq = cusci::empty(detail::concat(batch, {c_rows, c_cols}), c.dtype());
    res.r = cusci::empty(detail::concat(batch, {k, n}), dt);
    if (o.pivoting) res.p = arange_int32(n).broadcast_to(detail::concat(batch, {n})).copy();
    return res;
  }

  const ndarray ac = cast_to(a, dt);
  const ndarray cc = cast_to(c, dt);  // SciPy's ormqr wrapper casts c to Q's type (complex to real: real part)
  device_buffer<int> status(2);
  detail::clear_status(status.data());
  qr_work w = factor_all(view_of(ac, batch), batch, m, n, dt, false, n, o.pivoting, true, status.data());
  res.r = copy_out(w, 0, 1, m, k, n, false, 0);
  res.p = w.p;
  if (c_empty) {
    res.cq = cusci::empty(detail::concat(batch, {c_rows, c_cols}), c.dtype());
  } else {
    detail::operand cco = detail::atleast(cc, 2);  // the layout of the cast copy
    if (onedim && left) {
      std::swap(cco.shape[0], cco.shape[1]);
      std::swap(cco.strides[0], cco.strides[1]);
    }
    const batch_view cv = detail::broadcast_view(cc.data(), cco, batch);
    if (left) {  // X = [c; 0] (m x P, conjugated with `conjugate`), X := Q X, CQ = X (conjugated back)
      const i64 p = c_cols;
      ndarray x = cusci::empty(detail::concat(batch, {p, m}), dt);
      detail::qr_gather(dt, cv, nbatch, c_rows, p, o.conjugate, true, x.data(), m, m * p, status.data());
      detail::qr_apply_q(dt, nbatch, m, k, w.buf.data(), m, w.bs(), w.tau.data(), false, x.data(), m, p, m * p);
      res.cq = cusci::empty(detail::concat(batch, {m, p}), dt);
      detail::qr_copy_out(dt, x.data(), m * p, 1, m, nbatch, m, p, o.conjugate, no_mask, res.cq.data());
      if (onedim) res.cq = res.cq.reshape(detail::concat(batch, {m}));
    } else {  // X = c^H (c^T with `conjugate`), X := Q^H X, CQ = X^H (X^T), first k columns
      const i64 p = c_rows;
      batch_view xt = cv;
      std::swap(xt.s_row, xt.s_col);
      ndarray x = cusci::empty(detail::concat(batch, {p, m}), dt);
      detail::qr_gather(dt, xt, nbatch, m, p, !o.conjugate, true, x.data(), m, m * p, status.data());
      detail::qr_apply_q(dt, nbatch, m, k, w.buf.data(), m, w.bs(), w.tau.data(), true, x.data(), m, p, m * p);
      res.cq = cusci::empty(detail::concat(batch, {p, k}), dt);
      detail::qr_copy_out(dt, x.data(), m * p, m, 1, nbatch, p, k, !o.conjugate, no_mask, res.cq.data());
      if (onedim) res.cq = res.cq.reshape(detail::concat(batch, {k}));
    }
  }
  if (detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  return res;
}

// --- qr_update ------------------------------------------------------------------------------------

qr_update_result qr_update(const ndarray& q, const ndarray& r, const ndarray& u, const ndarray& v,
                           const qr_update_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::qr_update");
  const std::string fn = "cusci::linalg::qr_update";
  cusci::detail::check_same_device("cusci::linalg::qr_update", {&q, &r, &u, &v});
  // SciPy's _apply_over_batch(('Q', 2), ('R', 2), ('u', '1|2'), ('v', '1|2'))
  auto batch_of = [](const ndarray& x, int core) {
    const int nd = x.ndim();
    const int c = core == 2 ? 2 : (nd >= 2 ? 2 : 1);
    return nd > c ? shape_t(x.shape().begin(), x.shape().end() - c) : shape_t{};
  };
  const shape_t qb = batch_of(q, 2), rb = batch_of(r, 2), ub = batch_of(u, 1), vb = batch_of(v, 1);
  bool ok1 = true, ok2 = true, ok3 = true;
  const shape_t batch =
      detail::broadcast_batch(detail::broadcast_batch(detail::broadcast_batch(qb, rb, ok1), ub, ok2), vb, ok3);
  if (!ok1 || !ok2 || !ok3)
    throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape (batch shapes " +
                      shape_str(qb) + ", " + shape_str(rb) + ", " + shape_str(ub) + ", " + shape_str(vb) + ")");
  const bool batched = !qb.empty() || !rb.empty() || !ub.empty() || !vb.empty();
  const i64 nbatch = prod(batch);
  if (batched && nbatch == 0) throw value_error(fn + ": `qr_update` does not support zero-size batches.");
  shape_t qc, rc;
  check_factors(fn, q, r, qc, rc);
  const dtype dt = q.dtype();
  if (u.dtype() != dt || v.dtype() != dt) throw value_error(fn + ": u and v must have the same type as Q and R");
  if (u.ndim() < 1) throw value_error(fn + ": u must be either 1- or 2-D.");
  if (v.ndim() < 1) throw value_error(fn + ": v must be either 1- or 2-D.");
  const bool u2 = u.ndim() >= 2, v2 = v.ndim() >= 2;
  if (u2 != v2) throw value_error(fn + ": u and v must have the same number of dimensions");
  const i64 m = qc[0], n = rc[1];
  const bool econ = qc[0] != qc[1];
  const i64 um = u2 ? u.shape(-2) : u.shape(-1), vn = v2 ? v.shape(-2) : v.shape(-1);
  if (um != m) throw value_error(fn + ": u.shape[0] must equal Q.shape[0]");
  if (vn != n) throw value_error(fn + ": v.shape[0] must equal R.shape[1]");
  if (u2 && u.shape(-1) != v.shape(-1)) throw value_error(fn + ": Second dimension of u and v must be the same");
  const i64 k = u2 ? u.shape(-1) : 1;
  if (k > std::min(m, n)) throw value_error(fn + ": Update rank larger than np.dot(Q, R).");

  qr_update_result res;
  const shape_t qs = detail::concat(batch, {qc[0], qc[1]}), rs = detail::concat(batch, {rc[0], rc[1]});
  if (k == 0 || m * n == 0) {
    res.q = q.broadcast_to(qs).copy();
    res.r = r.broadcast_to(rs).copy();
    return res;
  }
  const i64 qcols = econ ? n + 1 : m, rrows = econ ? n + 1 : m;
  ndarray qw = cusci::empty(detail::concat(batch, {qcols, m}), dt);
  ndarray rw = cusci::empty(detail::concat(batch, {n, rrows}), dt);
  ndarray uw = cusci::empty(detail::concat(batch, {k, m}), dt);
  ndarray vw = cusci::empty(detail::concat(batch, {k, n}), dt);
  ndarray scratch = cusci::empty({nbatch * (m + 2 * n + 2)}, dt);
  auto vec_view = [&](const ndarray& x, bool two) {
    detail::operand op = detail::atleast(x, 1);
    if (!two) {  // one vector: the column (L, 1)
      op.shape.push_back(1);
      op.strides.push_back(0);
    }
    return detail::broadcast_view(x.data(), op, batch);
  };
  device_buffer<int> status(2);
  detail::clear_status(status.data());
  const bool chk = o.check_finite;
  detail::qr_gather(dt, view_of(q, batch), nbatch, m, qc[1], false, chk, qw.data(), m, m * qcols, status.data());
  detail::qr_gather(dt, view_of(r, batch), nbatch, rc[0], n, false, chk, rw.data(), rrows, rrows * n, status.data());
  detail::qr_gather(dt, vec_view(u, u2), nbatch, m, k, false, chk, uw.data(), m, m * k, status.data());
  detail::qr_gather(dt, vec_view(v, v2), nbatch, n, k, false, chk, vw.data(), n, n * k, status.data());
  detail::qr_update_run(dt, nbatch, m, n, econ, qw.data(), qcols, rw.data(), rrows, uw.data(), vw.data(), k,
                        scratch.data());
  res.q = cusci::empty(qs, dt);
  res.r = cusci::empty(rs, dt);
  detail::qr_copy_out(dt, qw.data(), m * qcols, 1, m, nbatch, qc[0], qc[1], false, no_mask, res.q.data());
  detail::qr_copy_out(dt, rw.data(), rrows * n, 1, rrows, nbatch, rc[0], n, false, 0, res.r.data());
  if (chk && detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  return res;
}

// --- qr_delete ------------------------------------------------------------------------------------

qr_which parse_qr_which(std::string_view s) {
  if (s == "row") return qr_which::row;
  if (s == "col") return qr_which::col;
  throw value_error("cusci::linalg::parse_qr_which: 'which' must be either 'row' or 'col', got '" + std::string(s) +
                    "'");
}


qr_update_result qr_delete(const ndarray& q, const ndarray& r, std::int64_t k, const qr_delete_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::qr_delete");
  const std::string fn = "cusci::linalg::qr_delete";
  cusci::detail::check_same_device("cusci::linalg::qr_delete", {&q, &r});
  // SciPy's _apply_over_batch(('Q', 2), ('R', 2))
  const shape_t qb = q.ndim() > 2 ? shape_t(q.shape().begin(), q.shape().end() - 2) : shape_t{};
  const shape_t rb = r.ndim() > 2 ? shape_t(r.shape().begin(), r.shape().end() - 2) : shape_t{};
  bool ok = true;
  const shape_t batch = detail::broadcast_batch(qb, rb, ok);
  if (!ok)
    throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                           "arg 0 with shape " + shape_str(qb) + " and arg 1 with shape " + shape_str(rb) + ".");
  const i64 nbatch = prod(batch);
  if ((!qb.empty() || !rb.empty()) && nbatch == 0)
    throw value_error(fn + ": `qr_delete` does not support zero-size batches.");
  shape_t qc, rc;
  check_factors(fn, q, r, qc, rc);
  const i64 m = qc[0], c = qc[1], n = rc[1];
  const bool econ = m != c;
  const bool col = o.which == qr_which::col;
  const i64 lim = col ? n : m;
  if (k < -lim || k >= lim) throw value_error(fn + ": 'k' is out of bounds");
  if (k < 0) k += lim;
  if (o.p < 1 || k + o.p > lim) throw value_error(fn + ": 'p' is out of range");
  const i64 p = o.p;
  i64 q1r, q1c, r1r, r1c;
  if (col) {
    q1r = m;
    q1c = econ ? n - p : m;
    r1r = econ ? n - p : m;
    r1c = n - p;
  } else {
    q1r = m - p;
    q1c = (econ && m - p >= c) ? c : m - p;
    r1r = q1c;
    r1c = n;
  }
  const dtype dt = q.dtype();
  ndarray qw = cusci::empty(detail::concat(batch, {c + 1, m}), dt);
  ndarray qs = cusci::empty(detail::concat(batch, {c + 1, m}), dt);
  ndarray rw = cusci::empty(detail::concat(batch, {n, c + 1}), dt);
  ndarray scratch = cusci::empty({nbatch * (m + c + 2)}, dt);
  device_buffer<int> status(2);
  detail::clear_status(status.data());
  const bool chk = o.check_finite;
  detail::qr_gather(dt, view_of(q, batch), nbatch, m, c, false, chk, qw.data(), m, m * (c + 1), status.data());
  detail::qr_gather(dt, view_of(r, batch), nbatch, c, n, false, chk, rw.data(), c + 1, (c + 1) * n, status.data());
  detail::qr_delete_run(dt, nbatch, m, c, n, k, p, col, qw.data(), qs.data(), rw.data(), scratch.data());
  qr_update_result res;
  res.q = cusci::empty(detail::concat(batch, {q1r, q1c}), dt);
  res.r = cusci::empty(detail::concat(batch, {r1r, r1c}), dt);
  detail::qr_copy_out(dt, qw.data(), m * (c + 1), 1, m, nbatch, q1r, q1c, false, no_mask, res.q.data());
  detail::qr_copy_out(dt, rw.data(), (c + 1) * n, 1, c + 1, nbatch, r1r, r1c, false, 0, res.r.data());
  if (chk && detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  return res;
}

// --- qr_insert ------------------------------------------------------------------------------------

qr_update_result qr_insert(const ndarray& q, const ndarray& r, const ndarray& u, std::int64_t k,
                           const qr_insert_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::qr_insert");
  const std::string fn = "cusci::linalg::qr_insert";
  cusci::detail::check_same_device("cusci::linalg::qr_insert", {&q, &r, &u});
  // SciPy's _apply_over_batch(('Q', 2), ('R', 2), ('u', '1|2'))
  const shape_t qb = q.ndim() > 2 ? shape_t(q.shape().begin(), q.shape().end() - 2) : shape_t{};
  const shape_t rb = r.ndim() > 2 ? shape_t(r.shape().begin(), r.shape().end() - 2) : shape_t{};
  const shape_t ub = u.ndim() > 2 ? shape_t(u.shape().begin(), u.shape().end() - 2) : shape_t{};
  bool ok1 = true, ok2 = true;
  const shape_t batch = detail::broadcast_batch(detail::broadcast_batch(qb, rb, ok1), ub, ok2);
  if (!ok1 || !ok2)
    throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape (batch shapes " +
                      shape_str(qb) + ", " + shape_str(rb) + ", " + shape_str(ub) + ")");
  const i64 nbatch = prod(batch);
  if ((!qb.empty() || !rb.empty() || !ub.empty()) && nbatch == 0)
    throw value_error(fn + ": `qr_insert` does not support zero-size batches.");
  shape_t qc, rc;
  check_factors(fn, q, r, qc, rc);
  const dtype dt = q.dtype();
  if (u.dtype() != dt) throw value_error(fn + ": 'u' must have the same type as 'Q' and 'R'");
  const i64 m = qc[0], c = qc[1], n = rc[1];
  const bool econ = m != c;
  const bool col = o.which == qr_which::col;
  if (!col && o.rcond) throw value_error(fn + ": 'rcond' is unused when inserting rows and must be None");
  if (col && !econ && o.rcond)
    throw value_error(fn + ": 'rcond' is not used when updating full, (M,M) (M,N) decompositions and must be None.");
  const shape_t ucore = u.ndim() >= 2 ? shape_t(u.shape().end() - 2, u.shape().end()) : u.shape();
  const bool u1 = u.ndim() == 1;
  i64 p = 0;
  if (!col) {
    if (u.ndim() < 1 || (u1 ? ucore[0] != n : ucore[1] != n))
      throw value_error(fn + ": 'u' should be either (N,) or (p,N) when inserting rows. Found " + shape_str(ucore) +
                        ".");
    p = u1 ? 1 : ucore[0];
  } else {
    if (u.ndim() < 1 || ucore[0] != m)
      throw value_error(fn + ": 'u' should be either (M,) or (M,p) when inserting columns. Found " +
                        shape_str(ucore) + ".");
    p = u1 ? 1 : ucore[1];
  }
  const i64 lim = col ? n : m;
  if (k < -lim || k > lim) throw value_error(fn + ": 'k' is out of bounds");
  if (k < 0) k += lim;
  if (p == 0) throw value_error(fn + ": u holds no row or column to insert (SciPy fails on this input too)");

  // final shapes and buffer sizes (see qr_insert_run)
  i64 q1r, q1c, r1r, r1c, ldq, qcols, ldr, ncols;
  if (!col) {
    q1r = m + p;
    q1c = econ ? c : m + p;
    r1r = q1c;
    r1c = n;
    ldq = m + p;
    qcols = econ ? c + 1 : m + p;
    ldr = econ ? c + 1 : m + p;
    ncols = n;
  } else {
    q1r = m;
    q1c = econ ? std::min(m, c + p) : m;
    r1r = q1c;
    r1c = n + p;
    ldq = m;
    qcols = m;
    ldr = m;
    ncols = n + p;
  }
  ndarray qw = cusci::empty(detail::concat(batch, {qcols, ldq}), dt);
  ndarray qs = cusci::empty(detail::concat(batch, {qcols, ldq}), dt);
  ndarray rw = cusci::zeros(detail::concat(batch, {ncols, ldr}), dt);
  ndarray uw = cusci::empty(detail::concat(batch, {p, col ? m : n}), dt);
  ndarray scratch = cusci::empty({nbatch * (2 * (m + p + n) + 2)}, dt);
  const bool want_est = col && econ;
  ndarray est = want_est ? cusci::empty(shape_t{nbatch}, dtype::float64) : ndarray();
  device_buffer<int> status(2);
  detail::clear_status(status.data());
  const bool chk = o.check_finite;
  detail::qr_gather(dt, view_of(q, batch), nbatch, m, c, false, chk, qw.data(), ldq, ldq * qcols, status.data());
  detail::qr_gather(dt, view_of(r, batch), nbatch, c, n, false, chk, rw.data(), ldr, ldr * ncols, status.data());
  // u as column-major blocks: rows -> [p, n] with row l contiguous (the transposed view), columns -> m x p
  detail::operand uo = detail::atleast(u, 1);
  if (u1) {
    if (col) {
      uo.shape.push_back(1);
      uo.strides.push_back(0);
    } else {
      uo.shape.insert(uo.shape.begin(), 1);
      uo.strides.insert(uo.strides.begin(), 0);
    }
  }
  batch_view uv = detail::broadcast_view(u.data(), uo, batch);
  if (!col) std::swap(uv.s_row, uv.s_col);  // element (i, j) = u[j, i]: n x p
  detail::qr_gather(dt, uv, nbatch, col ? m : n, p, false, chk, uw.data(), col ? m : n, (col ? m : n) * p,
                    status.data());
  detail::qr_insert_run(dt, nbatch, m, c, n, k, p, col, qw.data(), qs.data(), ldq, qcols, rw.data(), ldr, ncols,
                        uw.data(), scratch.data(), want_est ? static_cast<double*>(est.data()) : nullptr);
  qr_update_result res;
  res.q = cusci::empty(detail::concat(batch, {q1r, q1c}), dt);
  res.r = cusci::empty(detail::concat(batch, {r1r, r1c}), dt);
  detail::qr_copy_out(dt, qw.data(), ldq * qcols, 1, ldq, nbatch, q1r, q1c, false, no_mask, res.q.data());
  detail::qr_copy_out(dt, rw.data(), ldr * ncols, 1, ldr, nbatch, r1r, r1c, false, 0, res.r.data());
  if (chk && detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  if (want_est) {
    const host_array he = to_host(est);
    const double* e = he.data_as<double>();
    double worst = 1e300;
    for (i64 b = 0; b < nbatch; ++b) worst = std::min(worst, e[b]);
    const double eps = (dt == dtype::float32 || dt == dtype::complex64) ? 1.1920928955078125e-07
                                                                         : 2.220446049250313e-16;
    const double rc0 = o.rcond ? *o.rcond : eps;
    if (worst < rc0) {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%.16g", worst);
      throw lin_alg_error(fn + ": One of the columns of u lies in the span of Q. Found reciprocal condition number of " +
                          std::string(buf) + " for Q augmented with u/||u||.");
    }
  }
  return res;
}

}  // namespace cusci::linalg
