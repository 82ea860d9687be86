// cusci::linalg's matrix functions (expm, cosm, sinm, tanm, coshm, sinhm, tanhm, expm_frechet, expm_cond):
// SciPy 1.18.1's argument handling, shape and dtype rules; the device work is in matfuncs_kernels.cu
// (see matfuncs/matfuncs_engine.hpp).

#include "cusci/linalg/matfuncs.hpp"

#include <complex>
#include <string>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/linalg/solve.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/memory.hpp"
#include "common/detail.hpp"
#include "common/host_helpers.hpp"
#include "common/shapes.hpp"
#include "matfuncs/matfuncs_engine.hpp"

namespace cusci::linalg {

namespace {

using detail::cast_to;
using detail::prod;
using detail::throw_nonfinite;
using detail::shape_str;
using i64 = std::int64_t;

const std::string prefix = "cusci::linalg::";

/// expm's working dtype: integers and bool in float64, float16 in float32, the LAPACK types kept.
dtype expm_dtype(dtype t) {
  if (t == dtype::float16) return dtype::float32;
  if (!is_inexact(t)) return dtype::float64;
  return t;
}

ndarray c_contiguous(const ndarray& a) { return a.is_c_contiguous() ? a : a.copy(); }
shape_t batch_of(const ndarray& a) {
  const shape_t& s = a.shape();
  return a.ndim() > 2 ? shape_t(s.begin(), s.end() - 2) : shape_t{};
}

/// SciPy's expm (not batch-decorated: it batches itself).
ndarray expm_impl(const ndarray& A, const std::string& fn) {
  const shape_t& s = A.shape();
  if (A.size() == 1 && A.ndim() < 2) {
    // np.array([[np.exp(a.item())]]): the Python scalar's exp (bool -> float16, complex -> complex128,
    // other -> float64).
    const dtype t = A.dtype();
    const dtype src = t == dtype::bool_ ? t : (is_complex(t) ? dtype::complex128 : dtype::float64);
    return c_contiguous(cusci::exp(cast_to(A.reshape({1, 1}), src)));
  }
  if (A.ndim() < 2) throw lin_alg_error(fn + ": The input array must be at least two-dimensional");
  const i64 n = s[s.size() - 1];
  if (s[s.size() - 2] != n) throw lin_alg_error(fn + ": Last 2 dimensions of the array must be square");
  const dtype dt = expm_dtype(A.dtype());
  if (A.size() == 0) return cusci::empty(s, dt);
  if (n == 1) return c_contiguous(cusci::exp(A));  // SciPy: np.exp(a), NumPy's dtype
  const ndarray a = c_contiguous(cast_to(A, dt));
  ndarray out = cusci::empty(s, dt);
  detail::expm_engine(dt, a.data(), prod(batch_of(A)), n, out.data());
  return out;
}

/// _apply_over_batch(('A', 2)) and _asarray_square: the checks of cosm & co.
void check_square_batched(const ndarray& A, const std::string& name) {
  const std::string fn = prefix + name;
  if (A.ndim() > 2 && prod(batch_of(A)) == 0)
    throw value_error(fn + ": `" + name + "` does not support zero-size batches.");
  const shape_t& s = A.shape();
  if (A.ndim() < 2 || s[s.size() - 1] != s[s.size() - 2])
    throw value_error(fn + ": expected square array_like input, got shape " + shape_str(s));
}

const scalar j_pos(std::complex<double>(0.0, 1.0));
const scalar j_neg(std::complex<double>(0.0, -1.0));

/// expm of A and B stacked on a new leading axis (one batched call, one synchronization).
std::pair<ndarray, ndarray> expm_pair(const ndarray& a, const ndarray& b, const std::string& fn) {
  const ndarray e = expm_impl(cusci::stack({a, b}, 0), fn);
  return {e[0], e[1]};
}

struct cos_sin {
  ndarray c, s;
};

cos_sin trig(const ndarray& A, const std::string& name, bool want_c, bool want_s) {
  const std::string fn = prefix + name;
  cos_sin r;
  if (is_complex(A.dtype())) {
    auto [ep, em] = expm_pair(cusci::multiply(j_pos, A), cusci::multiply(j_neg, A), fn);
    if (want_c) r.c = c_contiguous(cusci::multiply(0.5, cusci::add(ep, em)));
    if (want_s) r.s = c_contiguous(cusci::multiply(scalar(std::complex<double>(0.0, -0.5)), cusci::subtract(ep, em)));
  } else {
    const ndarray e = expm_impl(cusci::multiply(j_pos, A), fn);
    if (want_c) r.c = c_contiguous(cusci::real(e));
    if (want_s) r.s = c_contiguous(cusci::imag(e));
  }
  return r;
}

cos_sin hyp(const ndarray& A, const std::string& name) {
  const std::string fn = prefix + name;
  if (A.dtype() == dtype::bool_)
    throw type_error(fn + ": The numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
                          "or the logical_not function instead.");
  auto [ep, em] = expm_pair(A, cusci::negative(A), fn);
  return {c_contiguous(cusci::multiply(0.5, cusci::add(ep, em))),
          c_contiguous(cusci::multiply(0.5, cusci::subtract(ep, em)))};
}

/// SciPy's solve(cos, sin) (float16, from NumPy's exp of a 1 x 1 small integer, solves in float32).
ndarray solve_cs(const cos_sin& r) {
  if (r.c.size() == 0) return r.s;
  if (r.c.dtype() == dtype::float16) return solve(r.c.astype(dtype::float32), r.s.astype(dtype::float32));
  return solve(r.c, r.s);
}

/// A and E broadcast to batch + (n, n), cast to dt, gathered C-contiguous; the finiteness of both read
/// with one synchronization when `check`.
struct pair_inputs {
  ndarray a, e;
};
pair_inputs gather_pair(const ndarray& A, const ndarray& E, const shape_t& batch, i64 n, dtype dt, bool check,
                        const std::string& fn) {
  const i64 nb = prod(batch);
  const shape_t full = detail::concat(batch, {n, n});
  pair_inputs p{cusci::empty(full, dt), cusci::empty(full, dt)};
  device_buffer<int> status(2);
  detail::clear_status(status.data());
  const ndarray* src[2] = {&A, &E};
  ndarray* dst[2] = {&p.a, &p.e};
  for (int k = 0; k < 2; ++k) {
    const ndarray x = cast_to(*src[k], dt);
    const detail::operand o = detail::atleast(x, 2);
    detail::gather(dt, detail::broadcast_view(x.data(), o, batch), nb, n, n, detail::fill_mode::full, false, check,
                   false, dst[k]->data(), status.data());
  }
  if (check && nb * n > 0 && detail::read_status(status.data()).nonfinite) throw_nonfinite(fn);
  return p;
}

}  // namespace

// --- expm and the trigonometric / hyperbolic functions ------------------------------------------

ndarray expm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::expm");
  return expm_impl(A, prefix + "expm");
}

ndarray cosm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cosm");
  check_square_batched(A, "cosm");
  return trig(A, "cosm", true, false).c;
}

ndarray sinm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::sinm");
  check_square_batched(A, "sinm");
  return trig(A, "sinm", false, true).s;
}

ndarray tanm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::tanm");
  check_square_batched(A, "tanm");
  return solve_cs(trig(A, "tanm", true, true));
}

ndarray coshm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::coshm");
  check_square_batched(A, "coshm");
  return hyp(A, "coshm").c;
}

ndarray sinhm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::sinhm");
  check_square_batched(A, "sinhm");
  return hyp(A, "sinhm").s;
}

ndarray tanhm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::tanhm");
  check_square_batched(A, "tanhm");
  return solve_cs(hyp(A, "tanhm"));
}

// --- expm_frechet -------------------------------------------------------------------------------

expm_frechet_method parse_expm_frechet_method(std::string_view s) {
  if (s == "SPS") return expm_frechet_method::SPS;
  if (s == "blockEnlarge") return expm_frechet_method::blockEnlarge;
  throw value_error(prefix + "expm_frechet: Unknown implementation " + std::string(s));
}

expm_frechet_result expm_frechet(const ndarray& A, const ndarray& E, const expm_frechet_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::expm_frechet");
  const std::string fn = prefix + "expm_frechet";
  shape_t batch;
  if (A.ndim() > 2 || E.ndim() > 2) {
    batch = cusci::broadcast_shapes(batch_of(A), batch_of(E));
    if (prod(batch) == 0) throw value_error(fn + ": `expm_frechet` does not support zero-size batches.");
  }
  auto square = [](const ndarray& x) {
    return x.ndim() >= 2 && x.shape()[x.ndim() - 1] == x.shape()[x.ndim() - 2];
  };
  if (!square(A)) throw value_error(fn + ": expected A to be a square matrix, got shape " + shape_str(A.shape()));
  if (!square(E)) throw value_error(fn + ": expected E to be a square matrix, got shape " + shape_str(E.shape()));
  const i64 n = A.shape()[A.ndim() - 1];
  if (E.shape()[E.ndim() - 1] != n)
    throw value_error(fn + ": expected A and E to be the same shape, got " + shape_str(A.shape()) + " and " +
                      shape_str(E.shape()));
  const i64 nb = prod(batch);
  const shape_t full = detail::concat(batch, {n, n});
  expm_frechet_result r;
  if (o.method == expm_frechet_method::SPS) {
    const dtype cd = is_complex(A.dtype()) || is_complex(E.dtype()) ? dtype::complex128 : dtype::float64;
    const pair_inputs p = gather_pair(A, E, batch, n, cd, o.check_finite, fn);
    ndarray R = cusci::empty(full, cd);
    ndarray L = cusci::empty(full, cd);
    detail::expm_frechet_engine(cd, p.a.data(), p.e.data(), nb, n, R.data(), L.data());
    // SciPy's R comes from A and its float64 identity alone (lu_solve(lu_factor(V - U), U + V)): float64
    // for a real A even when E is complex. The complex computation of a real A keeps exactly zero
    // imaginary parts, so its real part is that R.
    if (o.compute_expm) r.expm_A = is_complex(A.dtype()) || !is_complex(cd) ? R : c_contiguous(cusci::real(R));
    r.expm_frechet_AE = L;
    return r;
  }
  // blockEnlarge: expm of [[A, E], [0, A]] in expm's dtype of result_type(A, E).
  const dtype dt = expm_dtype(promote_types(A.dtype(), E.dtype()));
  const pair_inputs p = gather_pair(A, E, batch, n, dt, o.check_finite, fn);
  ndarray R = o.compute_expm ? cusci::empty(full, dt) : ndarray();
  ndarray L = cusci::empty(full, dt);
  if (nb * n > 0) {
    ndarray M = cusci::empty(detail::concat(batch, {2 * n, 2 * n}), dt);
    detail::block_enlarge(dt, p.a.data(), p.e.data(), nb, n, M.data());
    ndarray X = cusci::empty(M.shape(), dt);
    detail::expm_engine(dt, M.data(), nb, 2 * n, X.data());
    detail::block_split(dt, X.data(), nb, n, o.compute_expm ? R.data() : nullptr, L.data());
  }
  if (o.compute_expm) r.expm_A = R;
  r.expm_frechet_AE = L;
  return r;
}

// --- expm_cond ----------------------------------------------------------------------------------

ndarray expm_cond(const ndarray& A, const expm_cond_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::expm_cond");
  const std::string fn = prefix + "expm_cond";
  const shape_t batch = batch_of(A);
  if (A.ndim() > 2 && prod(batch) == 0) throw value_error(fn + ": `expm_cond` does not support zero-size batches.");
  const shape_t& s = A.shape();
  if (A.ndim() < 2 || s[s.size() - 1] != s[s.size() - 2])
    throw value_error(fn + ": expected a square matrix, got shape " + shape_str(s));
  const i64 n = s[s.size() - 1];
  const dtype cd = is_complex(A.dtype()) ? dtype::complex128 : dtype::float64;
  if (n == 0) throw value_error(fn + ": need at least one array to concatenate");
  const pair_inputs p = gather_pair(A, A, batch, n, cd, o.check_finite, fn);
  const ndarray X = c_contiguous(cast_to(expm_impl(A, fn), cd));
  ndarray kappa = cusci::empty(batch, dtype::float64);
  detail::expm_cond_engine(cd, p.a.data(), X.data(), prod(batch), n, static_cast<double*>(kappa.data()));
  return kappa;
}

}  // namespace cusci::linalg
