// cusci::linalg's Schur-based matrix functions (sqrtm, logm, funm, signm, fractional_matrix_power):
// SciPy 1.18.1's argument handling, dtype rules and algorithms. The Schur forms come from linalg::schur
// (+ rsf2csf for real input), the triangular work runs on the host (tri_host.cpp), the
// back-transformations Z U Z^H on the GPU (core's batched matmul).

#include "cusci/linalg/matfuncs_schur.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/linalg/lu.hpp"
#include "cusci/linalg/schur.hpp"
#include "cusci/linalg/svd.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"
#include "cusci/products.hpp"
#include "equations/eq_host.hpp"
#include "matfuncs_schur/tri_host.hpp"

namespace cusci::linalg {

namespace {

using detail::batch_shape;
using detail::cast;
using detail::cmat;
using detail::cplx;
using detail::ctrans;
using detail::msg;
using i64 = std::int64_t;

constexpr double eps64 = std::numeric_limits<double>::epsilon();
constexpr double eps32 = std::numeric_limits<float>::epsilon();

i64 dim(const ndarray& x, int from_end) { return x.shape()[x.ndim() - from_end]; }
bool square2(const ndarray& x) { return x.ndim() >= 2 && dim(x, 1) == dim(x, 2); }
bool single(dtype t) { return t == dtype::float32 || t == dtype::complex64; }

/// Complex Schur forms of a batch (n >= 1) on the host, column-major, complex double; `z` stays on the
/// device (complex128) for the back-transformation.
struct schur_host {
  shape_t shape;  // batch + (n, n)
  i64 n = 0, nb = 0;
  std::vector<cplx> T;
  ndarray z;
};

schur_host complex_schur(const ndarray& a, bool check_finite) {
  schur_options o;
  o.check_finite = check_finite;
  ndarray t, z;
  if (is_complex(a.dtype())) {
    o.output = "complex";
    schur_result s = schur(a, o);
    t = s.t;
    z = s.z;
  } else {
    o.output = "real";
    schur_result s = schur(a, o);
    rsf2csf_result c = rsf2csf(s.t, s.z, false);
    t = c.t;
    z = c.z;
  }
  schur_host h;
  h.shape = a.shape();
  h.n = dim(a, 1);
  h.nb = h.n == 0 ? 0 : a.size() / (h.n * h.n);
  h.T = detail::to_host_colmajor<cplx>(cast(t, dtype::complex128));
  h.z = cast(z, dtype::complex128);
  return h;
}

/// Z U Z^H on the GPU (complex128), U given column-major on the host.
ndarray back_transform(const schur_host& s, const std::vector<cplx>& U) {
  const ndarray u = detail::from_host_colmajor<cplx>(U, s.shape);
  return cusci::matmul(cusci::matmul(s.z, u), ctrans(s.z));
}

/// SciPy's _maybe_real per slice followed by NumPy's stacking: for real input, the slices whose imaginary
/// part is within `tol` become real; the result is real (dtype `rdt`) when all do, else complex (`cdt`)
/// with those slices' imaginary parts zeroed. X: complex128 batch + (n, n).
ndarray maybe_real_stack(const ndarray& X, bool input_real, double tol, dtype rdt, dtype cdt) {
  if (!input_real || X.size() == 0) return cusci::ascontiguousarray(cast(X, cdt));
  const i64 n = dim(X, 1);
  host_array h = cusci::to_host(X);
  cplx* p = h.data_as<cplx>();
  const i64 nb = X.size() / (n * n);
  bool all_real = true;
  for (i64 b = 0; b < nb; ++b) {
    bool real = true;
    for (i64 e = 0; e < n * n && real; ++e) real = std::abs(p[b * n * n + e].imag()) <= tol;
    if (real)
      for (i64 e = 0; e < n * n; ++e) p[b * n * n + e].imag(0.0);
    all_real = all_real && real;
  }
  const ndarray Y = cusci::asarray(h);
  return cusci::ascontiguousarray(all_real ? cast(cusci::real(Y), rdt) : cast(Y, cdt));
}

shape_t full_shape(const shape_t& batch, i64 n) {
  shape_t s = batch;
  s.push_back(n);
  s.push_back(n);
  return s;
}

/// The common prologue of the _apply_over_batch(('A', 2)) functions: batch checks and the square check.
shape_t check_batched_square(const ndarray& A, const std::string& name, const std::string& square_msg) {
  const shape_t batch = detail::common_batch({&A}, name, name);
  if (!square2(A)) throw value_error(msg(name, square_msg));
  return batch;
}

/// funm on a batch: `fdiag` maps the diagonal of one Schur form to F's diagonal.
struct funm_out {
  ndarray F;
  std::vector<double> err;
  dtype fdt;  // the slices' dtype before stacking (all equal here)
};

funm_out funm_impl(const ndarray& A, const std::string& name,
                   const std::function<void(std::vector<cplx>&, bool single_prec)>& fdiag) {
  const shape_t batch = check_batched_square(A, name, "expected square array_like input");
  const i64 n = dim(A, 1);
  if (n == 0) throw index_error(msg(name, "index 0 is out of bounds for axis 0 with size 0"));
  detail::check_finite(A, name);
  const dtype wd = detail::schur_dtype(A.dtype());
  const bool sp = single(wd);
  const dtype cdt = detail::complex_of(wd), rdt = detail::real_of(wd);
  const schur_host s = complex_schur(cast(A, wd).broadcast_to(full_shape(batch, n)), true);
  std::vector<cplx> F(s.T.size(), cplx(0));
  std::vector<double> minden(static_cast<std::size_t>(s.nb));
  std::vector<double> triu_norm(static_cast<std::size_t>(s.nb));
  for (i64 b = 0; b < s.nb; ++b) {
    const cplx* T = s.T.data() + b * n * n;
    std::vector<cplx> d(static_cast<std::size_t>(n));
    for (i64 i = 0; i < n; ++i) d[i] = T[i * n + i];
    fdiag(d, sp);
    cmat Fb(static_cast<std::size_t>(n * n), cplx(0));
    for (i64 i = 0; i < n; ++i) {
      cplx v = d[i];
      if (sp) v = cplx(std::complex<float>(v));  // F.astype(T.dtype.char)
      Fb[i * n + i] = v;
    }
    minden[b] = detail::tri_funm_loops(Fb, T, n, std::abs(T[0]));
    std::copy(Fb.begin(), Fb.end(), F.begin() + b * n * n);
    double nrm = 0;
    for (i64 j = 0; j < n; ++j) {
      double c = 0;
      for (i64 i = 0; i < j; ++i) c += std::abs(T[j * n + i]);
      nrm = std::max(nrm, c);
    }
    triu_norm[b] = nrm;
  }
  const bool real_in = !is_complex(A.dtype());
  const double mr_tol = sp ? eps32 * 1e3 : eps64 * 1e6;
  // Per slice: maybe_real, then the error estimate with the tolerance of the slice's final precision
  // (the same precision class either way).
  const ndarray X = back_transform(s, F);
  funm_out out;
  out.F = maybe_real_stack(X, real_in, mr_tol, rdt, cdt);
  out.fdt = out.F.dtype();
  const double tol = sp ? eps32 : eps64;
  const host_array hf = cusci::to_host(cast(out.F, dtype::complex128));
  const cplx* pf = hf.data_as<cplx>();
  out.err.resize(static_cast<std::size_t>(s.nb));
  for (i64 b = 0; b < s.nb; ++b) {
    double md = minden[b] == 0.0 ? tol : minden[b];
    double err = std::min(1.0, std::max(tol, (tol / md) * triu_norm[b]));
    bool all_nonfinite = true;
    for (i64 e = 0; e < n * n && all_nonfinite; ++e)
      all_nonfinite = !(std::isfinite(pf[b * n * n + e].real()) && std::isfinite(pf[b * n * n + e].imag()));
    if (all_nonfinite) err = std::numeric_limits<double>::infinity();
    out.err[b] = err;
  }
  return out;
}

ndarray host_scalars(const std::vector<double>& v, const shape_t& batch) { return cusci::asarray(v, batch); }

/// Lexicographic complex ordering (NumPy's for complex comparisons and amax).
bool lex_less(cplx a, cplx b) { return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag()); }

}  // namespace

// --- sqrtm ------------------------------------------------------------------------------------------

ndarray sqrtm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::sqrtm");
  const std::string name = "sqrtm";
  if (A.size() == 1 && A.ndim() < 2) {
    // SciPy 1.18.1: np.array([[np.exp(a.item())]]).
    const dtype src = is_complex(A.dtype()) ? dtype::complex128 : dtype::float64;
    return cusci::ascontiguousarray(cusci::exp(cast(A, src).reshape({1, 1})));
  }
  if (A.ndim() < 2) throw lin_alg_error(msg(name, "The input array must be at least two-dimensional"));
  if (dim(A, 1) != dim(A, 2)) throw lin_alg_error(msg(name, "Last 2 dimensions of the array must be square"));
  const dtype wd = detail::schur_dtype(A.dtype());
  const bool real_in = !is_complex(wd);
  if (A.size() == 0) return cusci::empty(A.shape(), wd);
  const i64 n = dim(A, 1);
  if (n == 1) {
    // np.emath.sqrt: complex for a negative real entry.
    const ndarray a = cast(A, wd);
    if (real_in && cusci::any(cusci::less(a, 0.0)).item<bool>())
      return cusci::ascontiguousarray(cusci::sqrt(cast(a, detail::complex_of(wd))));
    return cusci::ascontiguousarray(cusci::sqrt(a));
  }
  // SciPy skips the Schur decomposition (and the back-transformation) of a slice that is already upper
  // triangular: its root is the triangular recursion's result itself, inf entries of singular slices
  // included (Z R Z^H would turn them into NaN).
  const ndarray aw = cast(A, wd);
  const std::vector<cplx> Ah = detail::to_host_colmajor<cplx>(cast(aw, dtype::complex128));
  const i64 nb = A.size() / (n * n);
  std::vector<char> tri(static_cast<std::size_t>(nb), 1);
  bool all_tri = true;
  for (i64 b = 0; b < nb; ++b) {
    const cplx* a = Ah.data() + b * n * n;
    for (i64 j = 0; j < n && tri[b]; ++j)
      for (i64 i = j + 1; i < n; ++i)
        if (a[j * n + i] != cplx(0)) {
          tri[b] = 0;
          break;
        }
    all_tri = all_tri && tri[b];
  }
  std::optional<schur_host> s;
  if (!all_tri) s = complex_schur(aw, false);
  std::vector<cplx> R(Ah.size());
  bool keep_real = real_in;
  for (i64 b = 0; b < nb; ++b) {
    const cplx* T = (tri[b] ? Ah.data() : s->T.data()) + b * n * n;
    bool slice_real = real_in;  // SciPy: no negative real eigenvalue, the root stays real
    for (i64 i = 0; i < n; ++i)
      if (T[i * n + i].imag() == 0.0 && T[i * n + i].real() < 0.0) slice_real = false;
    keep_real = keep_real && slice_real;
    // SciPy's real-arithmetic rules where the triangular form is real (complex conjugate eigenvalues
    // make rsf2csf's form complex: the complex recursion, whose result is real up to rounding).
    bool real_form = slice_real;
    for (i64 e = 0; e < n * n && real_form; ++e) real_form = T[e].imag() == 0.0;
    const cmat r = detail::tri_sqrtm_recursive(T, n, real_form);
    std::copy(r.begin(), r.end(), R.begin() + b * n * n);
  }
  ndarray X;
  if (all_tri) {
    X = detail::from_host_colmajor<cplx>(R, A.shape());
  } else {
    X = back_transform(*s, R);
    bool any_tri = false;
    for (char t : tri) any_tri = any_tri || t;
    if (any_tri) {  // the triangular slices' roots replace their (never needed) back-transformations
      std::vector<cplx> Xh = detail::to_host_colmajor<cplx>(X);
      for (i64 b = 0; b < nb; ++b)
        if (tri[b]) std::copy(R.begin() + b * n * n, R.begin() + (b + 1) * n * n, Xh.begin() + b * n * n);
      X = detail::from_host_colmajor<cplx>(Xh, A.shape());
    }
  }
  if (keep_real) return cusci::ascontiguousarray(cast(cusci::real(X), wd));
  return cusci::ascontiguousarray(cast(X, detail::complex_of(wd)));
}

// --- logm -------------------------------------------------------------------------------------------

ndarray logm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::logm");
  const std::string name = "logm";
  const shape_t batch = check_batched_square(A, name, "expected a square matrix");
  const i64 n = dim(A, 1);
  if (n == 0) throw value_error(msg(name, "attempt to get argmax of an empty sequence"));
  detail::check_finite(A, name);
  const dtype wd = detail::schur_dtype(A.dtype());
  const schur_host s = complex_schur(cast(A, wd).broadcast_to(full_shape(batch, n)), true);
  std::vector<cplx> U(s.T.size());
  for (i64 b = 0; b < s.nb; ++b) {
    cmat T(s.T.begin() + b * n * n, s.T.begin() + (b + 1) * n * n);
    for (i64 i = 0; i < n; ++i)  // _logm_force_nonsingular_triangular_matrix
      if (T[i * n + i] == cplx(0)) T[i * n + i] = 1e-20;
    const cmat u = detail::tri_logm(T, n);
    std::copy(u.begin(), u.end(), U.begin() + b * n * n);
  }
  return maybe_real_stack(back_transform(s, U), !is_complex(A.dtype()), eps64 * 1e6, dtype::float64,
                          dtype::complex128);
}

// --- funm ---------------------------------------------------------------------------------------------

funm_result funm(const ndarray& A, const funm_function& func, bool disp) {
  CUSCI_NVTX_SCOPE("cusci::linalg::funm");
  funm_out o = funm_impl(A, "funm", [&](std::vector<cplx>& d, bool) {
    for (cplx& x : d) x = func(x);
  });
  const double tol = single(o.fdt) ? eps32 : eps64;
  if (disp)
    for (double e : o.err)
      if (e > 1000 * tol) std::cout << "funm result may be inaccurate, approximate err = " << e << std::endl;
  return {o.F, host_scalars(o.err, batch_shape(A))};
}

// --- signm --------------------------------------------------------------------------------------------

ndarray signm(const ndarray& A) {
  CUSCI_NVTX_SCOPE("cusci::linalg::signm");
  const std::string name = "signm";
  const shape_t batch = check_batched_square(A, name, "expected square array_like input");
  if (dim(A, 1) == 0) throw value_error(msg(name, "zero-size array to reduction operation maximum which has no identity"));
  funm_out o = funm_impl(A, name, [](std::vector<cplx>& d, bool sp) {
    // rounded_sign: c = 1e3 eps amax(x) (NumPy's lexicographic complex max), sign((|re x| > c) re x).
    cplx mx = d[0];
    for (const cplx& x : d)
      if (lex_less(mx, x)) mx = x;
    const cplx c = (sp ? 1e3 * eps32 : 1e3 * eps64) * mx;
    for (cplx& x : d) {
      const double rx = x.real(), ax = std::abs(rx);
      const bool gt = ax > c.real() || (ax == c.real() && 0.0 > c.imag());
      const double v = gt ? rx : 0.0;
      x = v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
    }
  });
  const double errtol = single(o.fdt) ? 1e3 * eps32 : 1e3 * eps64;
  const i64 n = dim(A, 1);
  const i64 nb = static_cast<i64>(o.err.size());
  bool any_fallback = false;
  for (double e : o.err) any_fallback = any_fallback || !(e < errtol);
  if (!any_fallback) return o.F;
  // Newton iteration for the slices whose estimate is too large (SciPy: per slice).
  const ndarray Ab = A.broadcast_to(full_shape(batch, n)).reshape({nb, n, n});
  const ndarray Fb = o.F.reshape({nb, n, n});
  std::vector<ndarray> slices;
  dtype out_dt = o.F.dtype();
  const dtype sdt = detail::schur_dtype(A.dtype());
  for (i64 b = 0; b < nb; ++b) {
    if (o.err[b] < errtol) {
      slices.push_back(Fb[b]);
      continue;
    }
    const ndarray a = cast(Ab[b], sdt);
    const double max_sv = cast(svdvals(a), dtype::float64)[0].item<double>();
    const double c = 0.5 / max_sv;
    ndarray S0 = cusci::add(a, cusci::multiply(c, cusci::eye(n, std::nullopt, 0, sdt)));
    double prev = o.err[b], errest = prev;
    auto norm1 = [&](const ndarray& m) {
      const host_array h = cusci::to_host(cast(m, dtype::complex128));
      const cplx* p = h.data_as<cplx>();
      double best = 0;
      for (i64 j = 0; j < n; ++j) {
        double s = 0;
        for (i64 i = 0; i < n; ++i) s += std::abs(p[i * n + j]);
        best = std::max(best, s);
      }
      return best;
    };
    for (int it = 0; it < 100; ++it) {
      const ndarray iS0 = inv(S0);
      S0 = cusci::multiply(0.5, cusci::add(S0, iS0));
      const ndarray Pp = cusci::multiply(0.5, cusci::add(cusci::matmul(S0, S0), S0));
      errest = norm1(cusci::subtract(cusci::matmul(Pp, Pp), Pp));
      if (errest < errtol || prev == errest) break;
      prev = errest;
    }
    if (!std::isfinite(errest) || errest >= errtol)
      std::cout << "signm result may be inaccurate, approximate err = " << errest << std::endl;
    slices.push_back(S0);
    out_dt = promote_types(out_dt, S0.dtype());
  }
  return cusci::ascontiguousarray(cusci::stack(slices, 0, out_dt).reshape(o.F.shape()));
}

// --- fractional_matrix_power --------------------------------------------------------------------------

namespace {

/// np.linalg.matrix_power(a, k) for one matrix (GPU: repeated squaring with matmul; k < 0 through
/// linalg::inv of a in float64/complex128 for integer a, as NumPy's inv).
ndarray matrix_power(const ndarray& a, i64 k) {
  const i64 n = dim(a, 1);
  if (k == 0) return cusci::ascontiguousarray(cusci::eye(n, std::nullopt, 0, a.dtype()).broadcast_to(a.shape()));
  ndarray base = k < 0 ? inv(is_inexact(a.dtype()) ? a : cast(a, dtype::float64)) : a;
  i64 e = k < 0 ? -k : k;
  ndarray result;
  bool have = false;
  while (e > 0) {
    if (e & 1) {
      result = have ? cusci::matmul(result, base) : base;
      have = true;
    }
    e >>= 1;
    if (e) base = cusci::matmul(base, base);
  }
  return cusci::ascontiguousarray(result);
}

/// SciPy's _remainder_matrix_power(a, t) for one matrix; false when the Schur form is singular
/// (SciPy's FractionalMatrixPowerError).
bool remainder_matrix_power(const ndarray& a, double t, ndarray& out) {
  const i64 n = dim(a, 1);
  const schur_host s = complex_schur(a, true);
  bool keep_real = !is_complex(a.dtype());
  for (i64 i = 0; i < n; ++i) {
    const cplx d = s.T[i * n + i];
    if (d == cplx(0)) return false;
    if (d.imag() != 0.0 || d.real() < 0.0) keep_real = false;
  }
  const cmat U = detail::tri_fractional_power(s.T, n, t);
  const ndarray X = back_transform(s, U);
  out = keep_real ? cusci::real(X) : X;
  return true;
}

ndarray fmp_slice(const ndarray& A, double p) {
  const dtype wd = detail::schur_dtype(A.dtype());
  const ndarray a = cast(A, wd);
  const host_array sv = cusci::to_host(cast(svdvals(a), dtype::float64));
  const double* s = sv.data_as<double>();
  const i64 n = dim(A, 1);
  if (s[n - 1] != 0.0) {
    const double k2 = s[0] / s[n - 1];
    const double p1 = p - std::floor(p), p2 = p - std::ceil(p);
    i64 ea;
    double b;
    if (p1 * std::pow(k2, 1 - p1) <= -p2 * k2) {
      ea = static_cast<i64>(std::floor(p));
      b = p1;
    } else {
      ea = static_cast<i64>(std::ceil(p));
      b = p2;
    }
    ndarray R;
    if (remainder_matrix_power(a, b, R)) {
      try {
        const ndarray Q = matrix_power(A, ea);
        return cusci::matmul(Q, R);
      } catch (const lin_alg_error&) {
      }
    }
  }
  if (p < 0) return cusci::full(A.shape(), std::numeric_limits<double>::quiet_NaN(), wd);
  const double b = p - std::floor(p);
  const i64 ea = static_cast<i64>(std::floor(p));
  const funm_result f = funm(A, [b](cplx x) { return std::pow(x, b); }, false);
  return cusci::matmul(matrix_power(A, ea), f.F);
}

}  // namespace

ndarray fractional_matrix_power(const ndarray& A, double t) {
  CUSCI_NVTX_SCOPE("cusci::linalg::fractional_matrix_power");
  const std::string name = "fractional_matrix_power";
  const shape_t batch = check_batched_square(A, name, "expected square array_like input");
  const i64 n = dim(A, 1);
  const bool integral = std::isfinite(t) && t == std::trunc(t);
  if (integral) {
    if (n == 0) return cusci::empty(A.shape(), t < 0 && !is_inexact(A.dtype()) ? dtype::float64 : A.dtype());
    return matrix_power(A.broadcast_to(full_shape(batch, n)), static_cast<i64>(t));
  }
  if (n == 0) throw index_error(msg(name, "index -1 is out of bounds for axis 0 with size 0"));
  detail::check_finite(A, name);
  i64 nb = 1;
  for (i64 d : batch) nb *= d;
  const ndarray Ab = A.broadcast_to(full_shape(batch, n)).reshape({nb, n, n});
  std::vector<ndarray> slices;
  std::optional<dtype> dt;
  for (i64 b = 0; b < nb; ++b) {
    slices.push_back(fmp_slice(Ab[b], t));
    dt = dt ? promote_types(*dt, slices.back().dtype()) : slices.back().dtype();
  }
  return cusci::ascontiguousarray(cusci::stack(slices, 0, dt).reshape(full_shape(batch, n)));
}

}  // namespace cusci::linalg
