// cusci::linalg's toeplitz family: solve_toeplitz (Levinson-Durbin kernel in toeplitz_kernels.cu),
// matmul_toeplitz and solve_circulant (core's cuFFT transforms and elementwise kernels). Argument
// handling mirrors SciPy 1.18.1's _solve_toeplitz / _matmul_toeplitz (with _apply_over_batch and
// _validate_args_for_toeplitz_ops) and solve_circulant.

#include "cusci/linalg/toeplitz.hpp"

#include <climits>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/fft.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/memory.hpp"
#include "cusci/reduction.hpp"
#include "common/detail.hpp"
#include "common/host_helpers.hpp"
#include "common/shapes.hpp"
#include "toeplitz/toeplitz_detail.hpp"

namespace cusci::linalg {

namespace {

using namespace detail;

/// The operands of a Toeplitz operation after SciPy's batching: c [..., M], r [..., N], the right
/// operand [N] or [..., N, K], their broadcast batch, and the working dtype (complex128 when any
/// input is complex, else float64).
struct toeplitz_args {
  std::int64_t m = 0;  // len(c)
  std::int64_t n = 0;  // len(r)
  std::int64_t rows = 0, k = 1;  // right operand's core shape (rows, k); k = 1 for a vector
  bool vec = false;
  shape_t batch;
  std::int64_t nbatch = 1;
  dtype dt = dtype::float64;
};

shape_t drop_tail(const shape_t& s, std::size_t k) { return shape_t(s.begin(), s.end() - static_cast<long>(k)); }

toeplitz_args toeplitz_shapes(const std::string& fn, const std::string& inner, const c_or_cr& t, const ndarray& b,
                              bool square) {
  toeplitz_args p;
  const ndarray& c = t.c;
  if (c.ndim() == 0 || (t.r && t.r->ndim() == 0) || b.ndim() == 0)
    throw index_error(fn + ": c, r and the right operand must have at least one dimension (tuple index out of range)");
  p.m = c.shape().back();
  p.n = t.r ? t.r->shape().back() : p.m;
  p.vec = b.ndim() == 1;
  p.rows = p.vec ? b.shape()[0] : b.shape()[b.ndim() - 2];
  p.k = p.vec ? 1 : b.shape().back();
  const shape_t cb = drop_tail(c.shape(), 1), rb = t.r ? drop_tail(t.r->shape(), 1) : shape_t{},
                bb = p.vec ? shape_t{} : drop_tail(b.shape(), 2);
  bool ok = true, ok2 = true;
  p.batch = broadcast_batch(broadcast_batch(cb, rb, ok), bb, ok2);
  if (!ok || !ok2)
    throw value_error(fn + ": shape mismatch: batch dimensions of c " + shape_str(c.shape()) +
                      (t.r ? ", r " + shape_str(t.r->shape()) : std::string()) + " and " + shape_str(b.shape()) +
                      " cannot be broadcast to a single shape");
  p.nbatch = prod(p.batch);
  const bool batched = !cb.empty() || !rb.empty() || !bb.empty();
  if (batched && p.nbatch == 0) throw value_error(fn + ": `" + inner + "` does not support zero-size batches.");
  if ((square && p.n != p.m) || p.rows != p.n) throw value_error(fn + ": Incompatible dimensions.");
  const bool cplx = is_complex(c.dtype()) || (t.r && is_complex(t.r->dtype())) || is_complex(b.dtype());
  p.dt = cplx ? dtype::complex128 : dtype::float64;
  return p;
}

/// Contiguous (nbatch, len) copy of a vector operand v [..., len] broadcast to `batch`, in dtype dt;
/// sets status[0] when `check` and a value is not finite.
ndarray gather_vectors(const ndarray& v, const shape_t& batch, std::int64_t nbatch, dtype dt, bool check,
                       int* status) {
  const ndarray vc = cast_to(v, dt);
  const std::int64_t len = vc.shape().back();
  operand o;
  o.shape = drop_tail(vc.shape(), 1);
  o.strides = drop_tail(vc.strides(), 1);
  o.shape.push_back(1);
  o.strides.push_back(0);
  o.shape.push_back(len);
  o.strides.push_back(vc.strides().back());
  ndarray out = cusci::empty({nbatch, len}, dt);
  gather(dt, broadcast_view(vc.data(), o, batch), nbatch, 1, len, fill_mode::full, false, check, false, out.data(),
         status);
  return out;
}

/// The right operand b [N] or [..., N, K] as an operand [..., N, K] (K = 1 for a vector).
operand rhs_operand(const ndarray& bc, bool vec) {
  operand o;
  if (vec) {
    o.shape = {bc.shape()[0], 1};
    o.strides = {bc.strides()[0], 0};
  } else {
    o.shape = bc.shape();
    o.strides = bc.strides();
  }
  return o;
}

void throw_if_not_finite(const std::string& fn, const ndarray& v) {
  if (v.size() == 0 || !(is_inexact(v.dtype()))) return;
  if (!all(isfinite(v)).item<bool>()) throw_nonfinite(fn);
}

/// Length of `axis` of a (SciPy's _get_axis_len).
std::int64_t axis_len(const std::string& fn, const char* name, const ndarray& a, int axis) {
  int ax = axis;
  if (ax < 0) ax += a.ndim();
  if (ax < 0 || ax >= a.ndim()) throw value_error(fn + ": '" + name + "axis' entry is out of bounds");
  return a.shape(ax);
}

/// NumPy's FFT dtype of an input: complex64 for float16/float32/complex64, complex128 otherwise.
dtype fft_dtype(dtype t) {
  return (t == dtype::float16 || t == dtype::float32 || t == dtype::complex64) ? dtype::complex64 : dtype::complex128;
}

}  // namespace

circulant_singular parse_circulant_singular(std::string_view s) noexcept {
  return s == "raise" ? circulant_singular::raise : circulant_singular::lstsq;
}

ndarray solve_toeplitz(const c_or_cr& t, const ndarray& b, const solve_toeplitz_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_toeplitz");
  const std::string fn = "cusci::linalg::solve_toeplitz";
  const toeplitz_args p = toeplitz_shapes(fn, "_solve_toeplitz", t, b, true);
  shape_t out_shape = p.batch;
  out_shape.push_back(p.rows);
  // SciPy reshapes an empty 2-D b to (N, 0) and returns np.empty_like of it.
  if (!p.vec) out_shape.push_back(p.rows * p.k == 0 ? 0 : p.k);
  if (p.rows == 0 || p.k == 0) return cusci::empty(out_shape, p.dt);
  if (p.nbatch > INT_MAX) throw value_error(fn + ": more than 2^31 - 1 systems are not supported");

  device_buffer<int> status(2);
  device_buffer<int> info(static_cast<std::size_t>(p.nbatch));
  clear_status(status.data());
  const ndarray cbuf = gather_vectors(t.c, p.batch, p.nbatch, p.dt, opts.check_finite, status.data());
  ndarray rbuf;
  if (t.r) rbuf = gather_vectors(*t.r, p.batch, p.nbatch, p.dt, opts.check_finite, status.data());
  ndarray x = cusci::empty(out_shape, p.dt);
  {
    const ndarray bc = cast_to(b, p.dt);
    gather(p.dt, broadcast_view(bc.data(), rhs_operand(bc, p.vec), p.batch), p.nbatch, p.rows, p.k, fill_mode::full,
           false, opts.check_finite, false, x.data(), status.data());
  }
  ndarray work = cusci::empty({p.nbatch, 2 * p.n}, p.dt);
  levinson(p.dt, cbuf.data(), t.r ? rbuf.data() : nullptr, p.nbatch, p.n, p.k, x.data(), work.data(), info.data(),
           status.data());
  const status_flags f = read_status(status.data());
  if (f.nonfinite) throw_nonfinite(fn);
  if (f.failed) {
    const std::vector<int> infos = read_info(info.data(), p.nbatch);
    std::size_t s = 0;
    while (s < infos.size() && infos[s] == 0) ++s;
    throw lin_alg_error(fn + ": Singular principal minor" +
                        (p.nbatch > 1 || !p.batch.empty() ? " (batch slice " + std::to_string(s) + ")" : std::string()));
  }
  return x;
}

ndarray matmul_toeplitz(const c_or_cr& t, const ndarray& x, const matmul_toeplitz_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::linalg::matmul_toeplitz");
  const std::string fn = "cusci::linalg::matmul_toeplitz";
  const toeplitz_args p = toeplitz_shapes(fn, "_matmul_toepltiz", t, x, false);
  shape_t out_shape = p.batch;
  out_shape.push_back(p.m);
  // SciPy reshapes an empty 2-D x to (N, 0): the result is then (M, 0).
  if (!p.vec) out_shape.push_back(p.rows * p.k == 0 ? 0 : p.k);
  if (opts.check_finite) {
    throw_if_not_finite(fn, t.c);
    if (t.r) throw_if_not_finite(fn, *t.r);
    throw_if_not_finite(fn, x);
  }
  // An empty product (SciPy returns uninitialized memory when only x is empty; zeros here).
  if (p.m == 0 || p.rows == 0 || p.k == 0) return cusci::zeros(out_shape, p.dt);

  const std::int64_t len = p.m + p.n - 1;  // length of the embedding circulant's column
  const ndarray c = cast_to(t.c, p.dt);
  const ndarray r = t.r ? cast_to(*t.r, p.dt) : (is_complex(p.dt) ? conj(c) : c);
  // embedded column [c, r[N-1], ..., r[1]] of every batch element, [batch_c/r..., P]
  std::vector<ndarray> parts;
  shape_t cr_batch = broadcast_shapes(drop_tail(c.shape(), 1), drop_tail(r.shape(), 1));
  {
    shape_t cs = cr_batch, rs = cr_batch;
    cs.push_back(p.m);
    rs.push_back(p.n - 1);
    parts.push_back(c.broadcast_to(cs));
    const ndarray rtail = r[{ellipsis, slice{1, {}, {}}}];
    rs.back() = p.n - 1;
    parts.push_back(flip(rtail.broadcast_to(rs), -1));
  }
  const ndarray col = concatenate(parts, -1);
  // x as [..., N, K]
  const ndarray xm = cast_to(x, p.dt);
  const ndarray x2 = p.vec ? xm.reshape({p.n, 1}) : xm;
  ndarray y;
  if (is_complex(p.dt)) {
    const ndarray fc = expand_dims(fft::fft(col, {.axis = -1}), {-1});
    const ndarray fx = fft::fft(x2, {.n = len, .axis = -2});
    y = fft::ifft(multiply(fc, fx), {.axis = -2});
  } else {
    const ndarray fc = expand_dims(fft::rfft(col, {.axis = -1}), {-1});
    const ndarray fx = fft::rfft(x2, {.n = len, .axis = -2});
    y = fft::irfft(multiply(fc, fx), {.n = len, .axis = -2});
  }
  // y: [batch..., P, K] -> first M rows
  ndarray head = y[{ellipsis, slice{0, p.m, {}}, slice{}}];
  return ascontiguousarray(head).reshape(out_shape);
}

ndarray solve_circulant(const ndarray& c_in, const ndarray& b_in, const solve_circulant_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_circulant");
  const std::string fn = "cusci::linalg::solve_circulant";
  const ndarray c = atleast_1d(c_in);
  const std::int64_t nc = axis_len(fn, "c", c, o.caxis);
  const ndarray b = atleast_1d(b_in);
  const std::int64_t nb = axis_len(fn, "b", b, o.baxis);
  if (nc != nb)
    throw value_error(fn + ": Shapes of c " + shape_str(c.shape()) + " and b " + shape_str(b.shape()) +
                      " are incompatible");
  const dtype qt = promote_types(fft_dtype(c.dtype()), fft_dtype(b.dtype()));
  const bool cplx = is_complex(c.dtype()) || is_complex(b.dtype());
  const dtype out_dt = cplx ? qt : real_dtype(qt);
  if (b.size() == 0) return cusci::empty(b.shape(), out_dt);

  const int cax = o.caxis < 0 ? o.caxis + c.ndim() : o.caxis;
  const int bax = o.baxis < 0 ? o.baxis + b.ndim() : o.baxis;
  const ndarray cm = moveaxis(c, cax, -1), bm = moveaxis(b, bax, -1);
  // the quotient's shape, and outaxis, before any device work
  shape_t qshape;
  try {
    qshape = broadcast_shapes(cm.shape(), bm.shape());
  } catch (const value_error&) {
    throw value_error(fn + ": operands could not be broadcast together with shapes " + shape_str(cm.shape()) + " " +
                      shape_str(bm.shape()));
  }
  const int out_nd = static_cast<int>(qshape.size());
  if (o.outaxis != -1 && (o.outaxis < -out_nd || o.outaxis >= out_nd))
    throw index_error(fn + ": outaxis " + std::to_string(o.outaxis) + " is out of bounds for array of dimension " +
                      std::to_string(out_nd));

  ndarray fc = fft::fft(cm, {.axis = -1});
  const ndarray abs_fc = abs(fc);
  ndarray near;
  if (o.tol) {
    near = less_equal(abs_fc, scalar(*o.tol));
  } else {
    // abs_fc.max(axis=-1) * nc * eps(float64), computed as SciPy (the eps factor in float64)
    const ndarray mx = multiply(max(abs_fc, -1, {.keepdims = true}), scalar(static_cast<double>(nc)));
    const ndarray tol = multiply(mx.astype(dtype::float64), scalar(std::numeric_limits<double>::epsilon()));
    near = less_equal(abs_fc, tol);
  }
  const bool singular = any(near).item<bool>();
  if (singular) {
    if (o.singular == circulant_singular::raise) throw lin_alg_error(fn + ": near singular circulant matrix.");
    fc = where(near, scalar(1.0), fc);
  }
  const ndarray fb = fft::fft(bm, {.axis = -1});
  ndarray q = divide(fb, fc);
  if (singular) q = where(near, scalar(0.0), q);
  ndarray xr = fft::ifft(q, {.axis = -1});
  if (!cplx) xr = ascontiguousarray(real(xr));
  if (o.outaxis != -1) xr = moveaxis(xr, -1, o.outaxis);
  return xr;
}

}  // namespace cusci::linalg
