// cusci::linalg's LU family (lu, lu_factor, lu_solve, inv, det): SciPy 1.18's argument handling, shape
// and dtype rules; the device work is in lu_kernels.cu (see lu/lu_engine.hpp).

#include "cusci/linalg/lu.hpp"

#include <string>
#include <utility>
#include <vector>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/memory.hpp"
#include "cusci/warnings.hpp"
#include "common/detail.hpp"
#include "common/host_helpers.hpp"
#include "common/shapes.hpp"
#include "lu/lu_engine.hpp"

namespace cusci::linalg {

namespace {

using detail::batch_view;
using detail::cast_to;
using detail::lapack_dtype;
using detail::throw_nonfinite;
using detail::prod;
using detail::shape_str;
using i64 = std::int64_t;

std::string slice_list(const std::vector<int>& info) {
  std::string r = "[";
  int shown = 0;
  for (std::size_t i = 0; i < info.size(); ++i) {
    if (info[i] == 0) continue;
    if (shown == 20) {
      r += ", ...";
      break;
    }
    if (shown++) r += ", ";
    r += std::to_string(i);
  }
  return r + "]";
}

/// Matrix view of `x` (ndim >= 2) with its own batch dimensions.
batch_view matrix_view(const ndarray& x) {
  const detail::operand o = detail::atleast(x, 2);
  return detail::broadcast_view(x.data(), o, shape_t(o.shape.begin(), o.shape.end() - 2));
}

/// Factors every matrix of `a` (already of LAPACK dtype, ndim >= 2, non-empty) into C-order packed factors
/// `lu` ([..., m, n]) and 0-based int32 pivots `piv` ([..., k]); returns the status flags (synchronizing
/// only when `sync`), and the getrf info values when `want_info`. `status` (2 ints) receives the device
/// flags.
struct factored {
  detail::status_flags flags;
  std::vector<int> infos;
};

factored factor(const ndarray& a, ndarray& lu, ndarray& piv, bool check, bool sync, bool want_info,
                device_buffer<int>& status) {
  const shape_t& s = a.shape();
  const std::size_t nd = s.size();
  const i64 m = s[nd - 2], n = s[nd - 1];
  const i64 nbatch = prod(shape_t(s.begin(), s.end() - 2));
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  detail::clear_status(status.data());
  detail::lu_factor_any(a.dtype(), matrix_view(a), nbatch, m, n, check, lu.data(), static_cast<int*>(piv.data()),
                        info.data(), status.data());
  factored f;
  if (sync) f.flags = detail::read_status(status.data());
  if (want_info && !f.flags.nonfinite) f.infos = detail::read_info(info.data(), nbatch);
  return f;
}

}  // namespace

// --- lu -----------------------------------------------------------------------------------------

lu_result lu(const ndarray& a, const lu_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::lu");
  const std::string fn = "cusci::linalg::lu";
  if (a.ndim() < 2)
    throw value_error(fn + ": the input array must be at least two-dimensional, got shape " + shape_str(a.shape()));
  const dtype dt = lapack_dtype(a.dtype());
  const dtype rdt = real_dtype(dt);
  const shape_t& s = a.shape();
  const std::size_t nd = s.size();
  const i64 m = s[nd - 2], n = s[nd - 1], k = std::min(m, n);
  const shape_t batch(s.begin(), s.end() - 2);
  const i64 nbatch = prod(batch);
  lu_result r;
  if (nbatch * m * n == 0) {  // SciPy: P has shape (..., 0, 0) or (..., 0) whatever M is
    r.l = cusci::empty(detail::concat(batch, {m, k}), dt);
    r.u = cusci::empty(detail::concat(batch, {k, n}), dt);
    if (!o.permute_l)
      r.p = o.p_indices ? cusci::empty(detail::concat(batch, {0}), dtype::int32)
                        : cusci::empty(detail::concat(batch, {0, 0}), rdt);
    return r;
  }
  const ndarray ac = cast_to(a, dt);
  ndarray packed = cusci::empty(s, dt);
  ndarray piv = cusci::empty(detail::concat(batch, {k}), dtype::int32);
  device_buffer<int> status(2);
  const factored f = factor(ac, packed, piv, o.check_finite, o.check_finite, false, status);
  if (f.flags.nonfinite) throw_nonfinite(fn);

  r.l = cusci::empty(detail::concat(batch, {m, k}), dt);
  r.u = cusci::empty(detail::concat(batch, {k, n}), dt);
  detail::p_kind pk = detail::p_kind::none;
  if (!o.permute_l) {
    if (o.p_indices) {
      pk = detail::p_kind::indices;
      r.p = cusci::empty(detail::concat(batch, {m}), dtype::int32);
    } else {
      pk = detail::p_kind::matrix;
      r.p = cusci::empty(detail::concat(batch, {m, m}), rdt);
    }
  }
  device_buffer<int> perm(static_cast<std::size_t>(2 * nbatch * m));
  detail::lu_unpack(dt, packed.data(), static_cast<const int*>(piv.data()), nbatch, m, n, pk, o.permute_l,
                    r.p.data(), r.l.data(), r.u.data(), perm.data());
  if (m == 1 && n == 1 && !o.permute_l) {
    // SciPy's scalar case: P is np.zeros(..., dtype=int) with p_indices, else np.ones_like(a) (a's dtype).
    r.p = o.p_indices ? r.p.astype(dtype::int64) : r.p.astype(dt);
  }
  return r;
}

// --- lu_factor ----------------------------------------------------------------------------------

lu_factor_result lu_factor(const ndarray& a, const lu_factor_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::lu_factor");
  const std::string fn = "cusci::linalg::lu_factor";
  // f2py's getrf takes a 0-d array as (1, 1) and a 1-d array of length M as the column (M, 1).
  shape_t s = a.shape();
  const shape_t out_shape = s;
  if (s.empty()) s = {1, 1};
  else if (s.size() == 1) s.push_back(1);
  const std::size_t nd = s.size();
  const i64 m = s[nd - 2], n = s[nd - 1], k = std::min(m, n);
  const shape_t batch(s.begin(), s.end() - 2);
  const i64 nbatch = prod(batch);
  if (!batch.empty() && nbatch == 0)
    throw value_error(fn + ": `lu_factor` does not support zero-size batches (a has shape " + shape_str(a.shape()) +
                      ")");
  if (nbatch * m * n == 0)  // SciPy (per matrix): np.empty_like(a) (a's own dtype) and an empty int32 piv
    return {cusci::empty(out_shape, a.dtype()), cusci::empty(detail::concat(batch, {k}), dtype::int32)};

  const dtype dt = lapack_dtype(a.dtype());
  const ndarray ac = cast_to(a, dt).reshape(s);
  ndarray packed = cusci::empty(s, dt);
  ndarray piv = cusci::empty(detail::concat(batch, {k}), dtype::int32);
  device_buffer<int> status(2);
  const factored f = factor(ac, packed, piv, o.check_finite, true, true, status);
  if (f.flags.nonfinite) throw_nonfinite(fn);
  for (int v : f.infos) {
    if (v > 0) {
      warn("LinAlgWarning", fn, "Diagonal number " + std::to_string(v) + " is exactly zero. Singular matrix.");
      break;
    }
  }
  return {out_shape.size() < 2 ? packed.reshape(out_shape) : packed, piv};
}

// --- lu_solve -----------------------------------------------------------------------------------

ndarray lu_solve(const lu_factor_result& lu_and_piv, const ndarray& b, const lu_solve_options& o) {
  return lu_solve(lu_and_piv.lu, lu_and_piv.piv, b, o);
}

ndarray lu_solve(const ndarray& lu, const ndarray& piv, const ndarray& b, const lu_solve_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::lu_solve");
  const std::string fn = "cusci::linalg::lu_solve";
  cusci::detail::check_same_device("cusci::linalg::lu_solve", {&lu, &piv, &b});
  if (o.trans < 0 || o.trans > 2)
    throw value_error(fn + ": trans must be 0, 1 or 2, got " + std::to_string(o.trans));
  if (lu.ndim() < 2)
    throw value_error(fn + ": lu must have at least 2 dimensions (shape (..., N, N)), got shape " +
                      shape_str(lu.shape()));
  if (piv.ndim() < 1) throw value_error(fn + ": piv must have at least 1 dimension (shape (..., N)), got a 0-d array");
  if (b.ndim() < 1) throw value_error(fn + ": b must have at least 1 dimension, got a 0-d array");
  if (is_complex(piv.dtype())) throw type_error(fn + ": piv must hold integers, got dtype " + std::string(dtype_name(piv.dtype())));
  const shape_t& ls = lu.shape();
  const std::size_t lnd = ls.size();
  const i64 n = ls[lnd - 2];
  const bool b_is_1d = b.ndim() == 1;
  const shape_t& bs = b.shape();
  const shape_t b_core = b_is_1d ? bs : shape_t(bs.end() - 2, bs.end());
  if (b_core[0] != n)
    throw value_error(fn + ": Shapes of lu " + shape_str(shape_t(ls.end() - 2, ls.end())) + " and b " +
                      shape_str(b_core) + " are incompatible");
  if (ls[lnd - 1] != n)
    throw value_error(fn + ": lu must be square in its last two dimensions, got shape " + shape_str(ls));
  if (piv.shape().back() != n)
    throw value_error(fn + ": piv must have N = " + std::to_string(n) + " entries in its last dimension, got shape " +
                      shape_str(piv.shape()));
  const shape_t lb(ls.begin(), ls.end() - 2), pb(piv.shape().begin(), piv.shape().end() - 1),
      bb(bs.begin(), bs.end() - static_cast<std::ptrdiff_t>(b_core.size()));
  bool ok1 = true, ok2 = true;
  const shape_t batch = detail::broadcast_batch(detail::broadcast_batch(lb, pb, ok1), bb, ok2);
  if (!ok1 || !ok2)
    throw value_error(fn + ": batch dimensions of lu " + shape_str(ls) + ", piv " + shape_str(piv.shape()) + " and b " +
                      shape_str(bs) + " cannot be broadcast together");
  const bool batched = !lb.empty() || !pb.empty() || !bb.empty();
  const i64 nbatch = prod(batch);
  if (batched && nbatch == 0) throw value_error(fn + ": `lu_solve` does not support zero-size batches");
  const dtype dt = promote_types(lapack_dtype(lu.dtype()), lapack_dtype(b.dtype()));
  const i64 nrhs = b_is_1d ? 1 : b_core[1];
  shape_t x_shape = batch;
  x_shape.insert(x_shape.end(), b_core.begin(), b_core.end());
  if (nbatch * n * nrhs == 0) return cusci::empty(x_shape, dt);

  const ndarray lc = cast_to(lu, dt), bc = cast_to(b, dt), pc = cast_to(piv, dtype::int32);
  const batch_view lv = detail::broadcast_view(lc.data(), detail::atleast(lc, 2), batch);
  detail::operand bo = detail::atleast(bc, 1);
  if (b_is_1d) {
    bo.shape.push_back(1);
    bo.strides.push_back(0);
  }
  const batch_view bv = detail::broadcast_view(bc.data(), bo, batch);
  // piv as a batch of (N, 1) "matrices": s_row steps along the pivots.
  detail::operand po{pc.shape(), pc.strides()};
  po.shape.push_back(1);
  po.strides.push_back(0);
  const batch_view pv = detail::broadcast_view(pc.data(), po, batch);

  ndarray x = cusci::empty(x_shape, dt);
  device_buffer<int> status(2);
  detail::clear_status(status.data());
  detail::lu_solve_any(dt, lv, pv, bv, nbatch, n, nrhs, o.trans, o.check_finite, x.data(), status.data());
  if (o.check_finite && detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  return x;
}

// --- inv ----------------------------------------------------------------------------------------

ndarray inv(const ndarray& a, const inv_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::inv");
  const std::string fn = "cusci::linalg::inv";
  if (a.ndim() < 2) throw value_error(fn + ": expected at least ndim=2, got ndim=" + std::to_string(a.ndim()));
  const shape_t& s = a.shape();
  const std::size_t nd = s.size();
  const i64 n = s[nd - 1];
  if (s[nd - 2] != n) throw value_error(fn + ": expected a square matrix, got shape " + shape_str(s));
  detail::fill_mode mode = detail::fill_mode::full;
  switch (o.assume_a) {
    case matrix_structure::auto_:
    case matrix_structure::general: mode = detail::fill_mode::full; break;
    case matrix_structure::diagonal: mode = detail::fill_mode::diag; break;
    case matrix_structure::upper_triangular: mode = detail::fill_mode::triu; break;
    case matrix_structure::lower_triangular: mode = detail::fill_mode::tril; break;
    case matrix_structure::symmetric: mode = detail::fill_mode::sym; break;
    case matrix_structure::hermitian:
    case matrix_structure::positive_definite: mode = detail::fill_mode::her; break;
    default:
      throw value_error(fn + ": assume_a must be one of general, diagonal, upper triangular, lower triangular, pos, "
                             "sym, her or None (tridiagonal and banded are solve's only)");
  }
  const dtype dt = lapack_dtype(a.dtype());
  const shape_t batch(s.begin(), s.end() - 2);
  const i64 nbatch = prod(batch);
  if (nbatch * n == 0) return cusci::empty(s, dt);

  const ndarray ac = cast_to(a, dt);
  ndarray x = cusci::empty(s, dt);
  device_buffer<int> status(2);
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  detail::clear_status(status.data());
  if (mode == detail::fill_mode::diag)  // SciPy: the diagonal inverted in place, the rest of `a` kept
    detail::diag_inv(dt, matrix_view(ac), nbatch, n, o.check_finite, x.data(), info.data(), status.data());
  else
    detail::inv_any(dt, matrix_view(ac), mode, o.lower, nbatch, n, o.check_finite, x.data(), info.data(),
                    status.data());
  detail::status_flags flags = detail::read_status(status.data());
  if (flags.nonfinite) throw_nonfinite(fn);
  std::vector<int> infos;
  if (flags.failed || n > detail::small_max_n) {
    infos = detail::read_info(info.data(), nbatch);
    for (int v : infos) flags.failed |= v > 0;
  }
  if (flags.failed)
    throw lin_alg_error(fn + ": A singular matrix detected: slice(s) " + slice_list(infos) + " are singular.");
  return x;
}

// --- det ----------------------------------------------------------------------------------------

ndarray det(const ndarray& a, const det_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::det");
  const std::string fn = "cusci::linalg::det";
  if (a.ndim() < 2)
    throw value_error(fn + ": the input array must be at least two-dimensional, got shape " + shape_str(a.shape()));
  const shape_t& s = a.shape();
  const std::size_t nd = s.size();
  const i64 n = s[nd - 1];
  if (s[nd - 2] != n)
    throw value_error(fn + ": last 2 dimensions of the array must be square but received shape " + shape_str(s));
  const dtype dt = lapack_dtype(a.dtype());
  const dtype out_dt = is_complex(dt) ? dtype::complex128 : dtype::float64;
  const shape_t batch(s.begin(), s.end() - 2);
  const i64 nbatch = prod(batch);
  if (nbatch == 0) return cusci::empty(batch, out_dt);
  if (n == 0) return cusci::ones(batch, out_dt);  // the empty matrix has determinant 1

  const ndarray ac = cast_to(a, dt);
  ndarray d = cusci::empty(batch, out_dt);
  device_buffer<int> status(2);
  if (detail::medium_fits(dt, n)) {  // one block a matrix, no factors written out
    detail::clear_status(status.data());
    detail::medium_det(dt, matrix_view(ac), nbatch, n, o.check_finite, d.data(), status.data());
  } else {
    ndarray packed = cusci::empty(s, dt);
    ndarray piv = cusci::empty(detail::concat(batch, {n}), dtype::int32);
    (void)factor(ac, packed, piv, o.check_finite, false, false, status);
    detail::det_from_lu(dt, packed.data(), static_cast<const int*>(piv.data()), nbatch, n, d.data());
  }
  if (o.check_finite && detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  return d;
}

}  // namespace cusci::linalg
