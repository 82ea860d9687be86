// cusci::linalg's SVD family: SciPy 1.18's argument handling, shape and dtype rules; the decomposition is
// svd_batched (svd_kernels.cu), the composite functions add core's matmul and elementwise kernels.

#include "cusci/linalg/svd.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/memory.hpp"
#include "cusci/products.hpp"
#include "cusci/reduction.hpp"
#include "common/detail.hpp"
#include "common/host_helpers.hpp"
#include "common/shapes.hpp"
#include "svd/svd_engine.hpp"

namespace cusci::linalg {

namespace {

using detail::batch_view;
using detail::cast_to;
using detail::lapack_dtype;
using detail::throw_nonfinite;
using detail::prod;
using detail::shape_str;
using i64 = std::int64_t;

double eps_of(dtype t) {
  return real_dtype(t) == dtype::float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                         : std::numeric_limits<double>::epsilon();
}

/// a.mT
ndarray mT(const ndarray& a) { return swapaxes(a, -1, -2); }
/// a.mT.conj() (a copy)
ndarray mH(const ndarray& a) { return conj(swapaxes(a, -1, -2)); }

void require_2d(const ndarray& a, const std::string& fn) {
  if (a.ndim() < 2)
    throw value_error(fn + ": Expected at least ndim=2, got a1.ndim=" + std::to_string(a.ndim()));
}

/// The SVD with SciPy's checks and errors; `fn` names the public function in messages.
svd_result svd_impl(const ndarray& a, bool full, bool uv, bool check, svd_driver drv, const std::string& fn) {
  require_2d(a, fn);
  const dtype dt = lapack_dtype(a.dtype());
  const dtype rdt = real_dtype(dt);
  const shape_t& sh = a.shape();
  const std::size_t nd = sh.size();
  const i64 m = sh[nd - 2], n = sh[nd - 1], k = std::min(m, n);
  const shape_t batch(sh.begin(), sh.end() - 2);
  const i64 nbatch = prod(batch);
  svd_result r;
  if (nbatch * m * n == 0) {
    r.s = cusci::empty(detail::concat(batch, {0}), rdt);
    if (!uv) return r;
    if (full) {
      r.u = eye(m, {}, 0, dt).broadcast_to(detail::concat(batch, {m, m})).copy();
      r.vh = eye(n, {}, 0, dt).broadcast_to(detail::concat(batch, {n, n})).copy();
    } else {
      r.u = cusci::empty(detail::concat(batch, {m, 0}), dt);
      r.vh = cusci::empty(detail::concat(batch, {0, n}), dt);
    }
    return r;
  }
  const ndarray ac = cast_to(a, dt);
  const detail::operand o = detail::atleast(ac, 2);
  const batch_view v = detail::broadcast_view(ac.data(), o, batch);
  r.s = cusci::empty(detail::concat(batch, {k}), rdt);
  if (uv) {
    r.u = cusci::empty(detail::concat(batch, {m, full ? m : k}), dt);
    r.vh = cusci::empty(detail::concat(batch, {full ? n : k, n}), dt);
  }
  device_buffer<int> status(2);
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  detail::clear_status(status.data());
  detail::svd_batched(dt, v, nbatch, m, n, uv, full, check,
                      drv == svd_driver::gesvd ? detail::svd_lib::gesvd : detail::svd_lib::gesdd, r.s.data(),
                      uv ? r.u.data() : nullptr, uv ? r.vh.data() : nullptr, info.data(), status.data());
  const detail::status_flags f = detail::read_status(status.data());
  if (f.nonfinite) throw_nonfinite(fn);
  const std::vector<int> infos = detail::read_info(info.data(), nbatch);
  for (std::size_t b = 0; b < infos.size(); ++b) {
    if (infos[b] > 0) throw lin_alg_error(fn + ": SVD did not converge for slice = " + std::to_string(b) + ".");
    if (infos[b] < 0) throw value_error(fn + ": slice " + std::to_string(b) + " has a NaN entry");
  }
  return r;
}

/// Number of singular values above rcond * max(s) for each matrix; all must agree for a batch.
i64 common_rank(const ndarray& s, double rcond, const std::string& fn) {
  const shape_t& sh = s.shape();
  const i64 k = sh.back();
  const i64 nb = prod(shape_t(sh.begin(), sh.end() - 1));
  if (nb == 0) return 0;
  const host_array h = s.get().astype(dtype::float64);
  const double* p = static_cast<const double*>(h.data());
  i64 num = -1;
  for (i64 b = 0; b < nb; ++b) {
    double mx = 0;
    for (i64 j = 0; j < k; ++j) mx = std::max(mx, p[b * k + j]);
    const double tol = mx * rcond;
    i64 c = 0;
    for (i64 j = 0; j < k; ++j) c += p[b * k + j] > tol ? 1 : 0;
    if (num >= 0 && c != num)
      throw value_error(fn + ": all input arrays must have the same shape (the matrices of the batch have ranks " +
                        std::to_string(num) + " and " + std::to_string(c) + ")");
    num = c;
  }
  return num;
}

/// w = 1/s where s > val, else 0 (val [..., 1]); rank = count (int64 [...]).
void invert_above(const ndarray& s, const ndarray& val, ndarray& w, ndarray& rank) {
  const ndarray large = greater(s, val);
  rank = sum(large, -1, {.dtype = dtype::int64});
  w = where(large, divide(scalar(1.0), s), scalar(0.0)).astype(s.dtype(), false);
}

}  // namespace

svd_driver parse_svd_driver(std::string_view s) {
  if (s == "gesdd") return svd_driver::gesdd;
  if (s == "gesvd") return svd_driver::gesvd;
  throw value_error("cusci::linalg::svd: lapack_driver must be \"gesdd\" or \"gesvd\", not \"" + std::string(s) +
                    "\"");
}

polar_side parse_polar_side(std::string_view s) {
  if (s == "right") return polar_side::right;
  if (s == "left") return polar_side::left;
  throw value_error("cusci::linalg::polar: `side` must be either 'right' or 'left'");
}

lstsq_driver parse_lstsq_driver(std::string_view s) {
  if (s == "gelsd") return lstsq_driver::gelsd;
  if (s == "gelsy") return lstsq_driver::gelsy;
  if (s == "gelss") return lstsq_driver::gelss;
  throw value_error("cusci::linalg::lstsq: LAPACK driver \"" + std::string(s) + "\" is not found");
}

// --- svd, svdvals, diagsvd ---------------------------------------------------------------------

svd_result svd(const ndarray& a, const svd_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::svd");
  return svd_impl(a, o.full_matrices, o.compute_uv, o.check_finite, o.lapack_driver, "cusci::linalg::svd");
}

ndarray svdvals(const ndarray& a, const svdvals_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::svdvals");
  return svd_impl(a, true, false, o.check_finite, svd_driver::gesdd, "cusci::linalg::svdvals").s;
}

ndarray diagsvd(const ndarray& s, i64 M, i64 N) {
  CUSCI_NVTX_SCOPE("cusci::linalg::diagsvd");
  const std::string fn = "cusci::linalg::diagsvd";
  if (s.ndim() < 1) throw value_error(fn + ": s must have at least 1 dimension, got a 0-d array");
  const i64 k = s.shape().back();
  if (k != M && k != N) throw value_error(fn + ": Length of s must be M or N.");
  if (M < 0 || N < 0 || (k == M ? N - M : M - N) < 0)
    throw value_error(fn + ": negative dimensions are not allowed");
  const shape_t batch(s.shape().begin(), s.shape().end() - 1);
  ndarray out = zeros(detail::concat(batch, {M, N}), s.dtype());
  const ndarray sc = ascontiguousarray(s);
  detail::scatter_diagonal(s.itemsize(), sc.data(), prod(batch), k, out.data(), M, N);
  return out;
}

// --- orth, null_space, subspace_angles -------------------------------------------------------------

namespace {

/// orth's and null_space's cutoff: rcond, else eps(s's dtype) * max(M, N) of A.
double rcond_or_default(std::optional<double> rcond, const ndarray& A, const ndarray& s) {
  const i64 m = A.shape(-2), n = A.shape(-1);
  return rcond ? *rcond : eps_of(s.dtype()) * static_cast<double>(std::max(m, n));
}

/// The batch dimensions of A and B broadcast together (SciPy's _apply_over_batch), else value_error.
void check_batches_broadcast(const std::string& fn, const ndarray& A, const ndarray& B) {
  bool ok = true;
  (void)detail::broadcast_batch(shape_t(A.shape().begin(), A.shape().end() - 2),
                                shape_t(B.shape().begin(), B.shape().end() - 2), ok);
  if (!ok)
    throw value_error(fn + ": batch dimensions of A " + shape_str(A.shape()) + " and B " + shape_str(B.shape()) +
                      " cannot be broadcast together");
}

}  // namespace

ndarray orth(const ndarray& A, std::optional<double> rcond) {
  CUSCI_NVTX_SCOPE("cusci::linalg::orth");
  const std::string fn = "cusci::linalg::orth";
  const svd_result r = svd_impl(A, false, true, true, svd_driver::gesdd, fn);
  const i64 num = common_rank(r.s, rcond_or_default(rcond, A, r.s), fn);
  return ascontiguousarray(r.u[{ellipsis, slice{}, slice{0, num}}]);
}

ndarray null_space(const ndarray& A, const null_space_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::null_space");
  const std::string fn = "cusci::linalg::null_space";
  const svd_result r = svd_impl(A, true, true, o.check_finite, o.lapack_driver, fn);
  const i64 num = common_rank(r.s, rcond_or_default(o.rcond, A, r.s), fn);
  return ascontiguousarray(mH(r.vh[{ellipsis, slice{num, std::nullopt}, slice{}}]));
}

ndarray subspace_angles(const ndarray& A, const ndarray& B) {
  CUSCI_NVTX_SCOPE("cusci::linalg::subspace_angles");
  const std::string fn = "cusci::linalg::subspace_angles";
  cusci::detail::check_same_device(fn.c_str(), {&A, &B});
  if (A.ndim() < 2) throw value_error(fn + ": expected 2D array, got shape " + shape_str(A.shape()));
  if (B.ndim() < 2) throw value_error(fn + ": expected 2D array, got shape " + shape_str(B.shape()));
  if (A.shape(-2) != B.shape(-2))
    throw value_error(fn + ": A and B must have the same number of rows, got " + std::to_string(A.shape(-2)) +
                      " and " + std::to_string(B.shape(-2)));
  check_batches_broadcast(fn, A, B);
  const ndarray QA = orth(A), QB = orth(B);
  const ndarray QA_H_QB = matmul(mH(QA), QB);
  const ndarray sigma = svdvals(QA_H_QB);
  const ndarray Bm = QA.shape(-1) >= QB.shape(-1) ? subtract(QB, matmul(QA, QA_H_QB))
                                                  : subtract(QA, matmul(QB, mH(QA_H_QB)));
  const ndarray mask = greater_equal(multiply(sigma, sigma), scalar(0.5));
  const ndarray mu = arcsin(clip(svdvals(Bm), scalar(-1.0), scalar(1.0)));
  return where(mask, mu, arccos(clip(flip(sigma, -1), scalar(-1.0), scalar(1.0))));
}

// --- orthogonal_procrustes, polar, pinv ---------------------------------------------------------------

orthogonal_procrustes_result orthogonal_procrustes(const ndarray& A, const ndarray& B,
                                                   const orthogonal_procrustes_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::orthogonal_procrustes");
  const std::string fn = "cusci::linalg::orthogonal_procrustes";
  cusci::detail::check_same_device(fn.c_str(), {&A, &B});
  if (A.ndim() < 2) throw value_error(fn + ": expected ndim to be 2, but observed " + std::to_string(A.ndim()));
  if (B.ndim() < 2 || A.shape(-1) != B.shape(-1) || A.shape(-2) != B.shape(-2))
    throw value_error(fn + ": the shapes of A and B differ (" + shape_str(A.shape()) + " vs " + shape_str(B.shape()) +
                      ")");
  check_batches_broadcast(fn, A, B);
  // (B^T conj(A))^T = A^H B; its finiteness stands for A's and B's (an inf or NaN in either reaches it,
  // except an inf multiplied only by zeros).
  const ndarray M = matmul(mH(A), B);
  const svd_result r = svd_impl(M, true, true, o.check_finite, svd_driver::gesdd, fn);
  return {matmul(r.u, r.vh), sum(r.s, -1)};
}

polar_result polar(const ndarray& a, polar_side side) {
  CUSCI_NVTX_SCOPE("cusci::linalg::polar");
  const std::string fn = "cusci::linalg::polar";
  if (a.ndim() < 2) throw value_error(fn + ": `a` must be a 2-D array.");
  const svd_result r = svd_impl(a, false, true, true, svd_driver::gesdd, fn);
  const ndarray s_row = r.s.expand_dims(-2);  // [..., 1, K]
  polar_result out;
  out.u = matmul(r.u, r.vh);
  if (side == polar_side::right) out.p = matmul(multiply(mH(r.vh), s_row), r.vh);
  else out.p = matmul(multiply(r.u, s_row), mH(r.u));
  return out;
}

pinv_result pinv(const ndarray& a, const pinv_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::pinv");
  const std::string fn = "cusci::linalg::pinv";
  require_2d(a, fn);
  const double atol = o.atol.value_or(0.0);
  const dtype dt = lapack_dtype(a.dtype());
  const i64 m = a.shape(-2), n = a.shape(-1);
  const double rtol = o.rtol ? *o.rtol : static_cast<double>(std::max(m, n)) * eps_of(dt);
  if (atol < 0 || rtol < 0) throw value_error(fn + ": atol and rtol values must be positive.");
  const shape_t batch(a.shape().begin(), a.shape().end() - 2);
  pinv_result out;
  if (prod(batch) * m * n == 0) {
    out.B = zeros(detail::concat(batch, {n, m}), dt);
    if (o.return_rank) out.rank = zeros(batch, dtype::int64);
    return out;
  }
  const svd_result r = svd_impl(a, false, true, o.check_finite, svd_driver::gesdd, fn);
  const ndarray val = add(scalar(atol), multiply(max(r.s, -1, {.keepdims = true}), scalar(rtol)));
  ndarray w, rank;
  invert_above(r.s, val, w, rank);
  out.B = matmul(mH(r.vh), multiply(w.expand_dims(-1), mH(r.u)));
  if (o.return_rank) out.rank = rank;
  return out;
}

// --- lstsq ----------------------------------------------------------------------------------------------

lstsq_result lstsq(const ndarray& a, const ndarray& b, const lstsq_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::lstsq");
  const std::string fn = "cusci::linalg::lstsq";
  cusci::detail::check_same_device(fn.c_str(), {&a, &b});
  const lstsq_driver drv = o.lapack_driver.value_or(lstsq_driver::gelsd);
  if (a.ndim() < 2)
    throw value_error(fn + ": Input array a should be at least 2D, got a.shape = " + shape_str(a.shape()));
  if (b.ndim() < 1) throw value_error(fn + ": b must have at least 1 dimension, got a 0-d array");
  // _ensure_dtype_cdsz: the result type, single or double precision, float64 when not inexact.
  dtype dt = promote_types(a.dtype(), b.dtype());
  if (!is_floating(dt) && !is_complex(dt)) dt = dtype::float64;
  else if (is_complex(dt)) dt = itemsize(dt) <= 8 ? dtype::complex64 : dtype::complex128;
  else dt = itemsize(dt) <= 4 ? dtype::float32 : dtype::float64;
  const i64 m = a.shape(-2), n = a.shape(-1);
  const bool b1d = b.ndim() == 1;
  const ndarray b2 = b1d ? b.expand_dims(-1) : b;
  if (m != 0 && n != 0 && b2.shape(-2) != m)
    throw value_error(fn + ": Shape mismatch: a and b should have the same number of rows (" + std::to_string(m) +
                      " != " + std::to_string(b2.shape(-2)) + ").");
  bool ok = true;
  const shape_t batch = detail::broadcast_batch(shape_t(a.shape().begin(), a.shape().end() - 2),
                                                shape_t(b2.shape().begin(), b2.shape().end() - 2), ok);
  if (!ok)
    throw value_error(fn + ": batch dimensions of a " + shape_str(a.shape()) + " and b " + shape_str(b.shape()) +
                      " cannot be broadcast together");
  const i64 K = b2.shape(-1);
  lstsq_result out;
  if (m == 0 || n == 0) {  // SciPy's early exit
    out.x = zeros(b1d ? detail::concat(batch, {n}) : detail::concat(batch, {n, K}), dt);
    if (n == 0) {
      const ndarray bc = cast_to(b2, dt);
      ndarray res = sum(real(multiply(bc, conj(bc))), -2);
      out.residues = b1d ? res.squeeze(-1) : res;
    } else {
      out.residues = zeros({0}, dtype::float64);
    }
    out.rank = zeros({}, dtype::int64);
    out.s = zeros({0}, dtype::float64);
    return out;
  }
  // SciPy broadcasts a and b to the common batch first: rank and s have the full batch shape.
  const ndarray ac = cast_to(a, dt).broadcast_to(detail::concat(batch, {m, n})), bc = cast_to(b2, dt);
  const svd_result r = svd_impl(ac, false, true, o.check_finite, svd_driver::gesdd, fn);
  if (o.check_finite) {
    // SciPy checks b too: its finiteness through the product below (one reduction, no extra pass on a).
    const ndarray fin = cusci::all(isfinite(bc));
    if (!fin.item<bool>()) throw_nonfinite(fn);
  }
  const double cond = (o.cond && *o.cond >= 0) ? *o.cond : eps_of(dt);
  const ndarray val = multiply(max(r.s, -1, {.keepdims = true}), scalar(cond));
  ndarray w, rank;
  invert_above(r.s, val, w, rank);
  // x = V diag(w) U^H b
  const ndarray x2 = matmul(mH(r.vh), multiply(w.expand_dims(-1), matmul(mH(r.u), bc)));
  out.x = b1d ? x2.squeeze(-1) : x2;
  out.rank = rank;
  if (drv != lstsq_driver::gelsy) out.s = r.s;
  if (m > n && drv != lstsq_driver::gelsy) {
    const ndarray res_vec = subtract(bc, matmul(ac, x2));
    ndarray res = sum(multiply(res_vec, conj(res_vec)), -2);  // [..., K], x's dtype
    const ndarray deficient = expand_dims(less(rank, scalar(static_cast<std::int64_t>(n))), {-1});
    res = where(deficient, scalar(std::numeric_limits<double>::quiet_NaN()), res).astype(dt, false);
    out.residues = b1d ? res.squeeze(-1) : res;
  } else {
    out.residues = zeros(detail::concat(batch, {0}), dt);
  }
  return out;
}

}  // namespace cusci::linalg
