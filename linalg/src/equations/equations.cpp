// cusci::linalg's matrix equation solvers (solve_sylvester, solve_continuous_lyapunov / solve_lyapunov,
// solve_discrete_lyapunov): SciPy 1.18.1's argument handling, dtype rules and algorithms. The Schur
// decompositions go through linalg::schur, products through core's batched matmul (GPU), the triangular
// Sylvester solves through the system LAPACK's ?trsyl on the host (eq_host.cpp).

#include "cusci/linalg/equations.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <cctype>
#include <complex>
#include <string>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/linalg/lu.hpp"
#include "cusci/linalg/schur.hpp"
#include "cusci/linalg/qr.hpp"
#include "cusci/linalg/solve.hpp"
#include "cusci/linalg/svd.hpp"
#include "cusci/linalg/triangular.hpp"
#include "cusci/reduction.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/products.hpp"
#include "equations/eq_host.hpp"

namespace cusci::linalg {

namespace {

using detail::batch_shape;
using detail::cast;
using detail::cplx;
using detail::ctrans;
using detail::msg;
using i64 = std::int64_t;

shape_t with_core(const shape_t& batch, i64 r, i64 c) {
  shape_t s = batch;
  s.push_back(r);
  s.push_back(c);
  return s;
}

i64 dim(const ndarray& x, int from_end) { return x.shape()[x.ndim() - from_end]; }

bool is_square(const ndarray& x) { return x.ndim() >= 2 && dim(x, 1) == dim(x, 2); }

/// Y (batch, m, n) solving R Y + Y op(S) = F (tranb 'C' or 'T'), scaled by ?trsyl's scale (SciPy's
/// `y * scale`): R, S, F copied to the host in double precision of type T, ?trsyl per matrix, Y back
/// on the device (float64/complex128). Synchronizes.
template <class T>
ndarray host_trsyl(const ndarray& R, const ndarray& S, const ndarray& F, char tranb, std::vector<int>* infos) {
  const i64 m = dim(F, 2), n = dim(F, 1);
  const dtype hd = std::is_same_v<T, double> ? dtype::float64 : dtype::complex128;
  const std::vector<T> r = detail::to_host_colmajor<T>(cast(R, hd));
  const std::vector<T> s = detail::to_host_colmajor<T>(cast(S, hd));
  std::vector<T> f = detail::to_host_colmajor<T>(cast(F, hd));
  const i64 nb = m * n == 0 ? 0 : static_cast<i64>(f.size()) / (m * n);
  if (infos) infos->assign(static_cast<std::size_t>(nb), 0);
  for (i64 b = 0; b < nb; ++b) {
    double scale = 1.0;
    T* fb = f.data() + b * m * n;
    const int info = detail::trsyl('N', tranb, 1, static_cast<int>(m), static_cast<int>(n), r.data() + b * m * m,
                                   s.data() + b * n * n, fb, scale);
    if (infos) (*infos)[static_cast<std::size_t>(b)] = info;
    if (scale != 1.0)
      for (i64 k = 0; k < m * n; ++k) fb[k] *= scale;
  }
  return detail::from_host_colmajor<T>(f, F.shape());
}

/// The triangular solve in the working dtype `wd` (complex: ztrsyl on R and S cast to complex, SciPy's
/// get_lapack_funcs((r, s, f)) choice).
ndarray trsyl_any(const ndarray& R, const ndarray& S, const ndarray& F, char tranb, dtype wd,
                  std::vector<int>* infos = nullptr) {
  const ndarray y = is_complex(wd) ? host_trsyl<cplx>(R, S, F, tranb == 'N' ? 'N' : 'C', infos)
                                   : host_trsyl<double>(R, S, F, tranb == 'N' ? 'N' : 'T', infos);
  return cast(y, wd);
}

schur_result real_schur(const ndarray& a) {
  schur_options o;
  o.output = "real";
  return schur(a, o);
}

/// a as SciPy's schur reads it inside a computation of working type wd: its own precision class (real
/// stays real).
ndarray schur_input(const ndarray& a, dtype wd) {
  return cast(a, is_complex(a.dtype()) ? detail::complex_of(wd) : detail::real_of(wd));
}

ndarray lyapunov_impl(const ndarray& A, const ndarray& Q, const std::string& name, const std::string& scipy_name) {
  const ndarray a = A.ndim() < 2 ? cusci::atleast_2d(A) : A;
  const ndarray q = Q.ndim() < 2 ? cusci::atleast_2d(Q) : Q;
  const shape_t batch = detail::common_batch({&a, &q}, name, scipy_name);
  if (!is_square(a)) throw value_error(msg(name, "Matrix a should be square."));
  if (!is_square(q)) throw value_error(msg(name, "Matrix q should be square."));
  if (dim(a, 1) != dim(q, 1)) throw value_error(msg(name, "Matrix a and q should have the same shape."));
  const dtype wd = detail::schur_dtype({a.dtype(), q.dtype()});
  const i64 m = dim(a, 1);
  const shape_t full = with_core(batch, m, m);
  if (m == 0) return cusci::zeros(full, wd);
  detail::check_finite(a, name);
  detail::check_finite(q, name);
  const ndarray ab = schur_input(a, wd).broadcast_to(full);
  const ndarray qb = cast(q, wd).broadcast_to(full);
  const schur_result s = real_schur(ab);
  // f = u^H q u; r y + y r^T (r^H) = f.
  const ndarray u = cast(s.z, wd);
  const ndarray f = cusci::matmul(ctrans(u), cusci::matmul(qb, u));
  const ndarray y = trsyl_any(s.t, s.t, f, is_complex(wd) ? 'C' : 'T', wd);
  return cusci::ascontiguousarray(cusci::matmul(cusci::matmul(u, y), ctrans(u)));
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

// --- solve_sylvester ----------------------------------------------------------------------------

ndarray solve_sylvester(const ndarray& a, const ndarray& b, const ndarray& q) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_sylvester");
  const std::string name = "solve_sylvester";
  const shape_t batch = detail::common_batch({&a, &b, &q}, name, name);
  const dtype wd = detail::schur_dtype({a.dtype(), b.dtype(), q.dtype()});
  if ((a.size() == 0 || b.size() == 0) && a.ndim() >= 2 && b.ndim() >= 2)
    return cusci::zeros(q.ndim() >= 2 ? with_core(batch, dim(q, 2), dim(q, 1)) : q.shape(), wd);
  if (!is_square(a) || !is_square(b)) throw value_error(msg(name, "expected square matrix"));
  const i64 m = dim(a, 1), n = dim(b, 1);
  if (q.ndim() < 2 || dim(q, 2) != m || dim(q, 1) != n)
    throw value_error(msg(name, "shapes " + cusci::detail::shape_str(shape_t{m, m}) + " and " +
                                    cusci::detail::shape_str(q.shape()) + " not aligned: q must be (M, N) = " +
                                    cusci::detail::shape_str(shape_t{m, n})));
  detail::check_finite(a, name);  // SciPy: schur's check_finite (q is not checked)
  detail::check_finite(b, name);
  const ndarray ab = schur_input(a, wd).broadcast_to(with_core(batch, m, m));
  const ndarray bh = ctrans(schur_input(b, wd).broadcast_to(with_core(batch, n, n)));
  const ndarray qb = cast(q, wd).broadcast_to(with_core(batch, m, n));
  const schur_result sa = real_schur(ab);  // checks a: square, finite
  const schur_result sb = real_schur(bh);
  const ndarray u = cast(sa.z, wd), v = cast(sb.z, wd);
  const ndarray f = cusci::matmul(cusci::matmul(ctrans(u), qb), v);
  // R Y + Y S^H = F (tranb 'C'; for real types ?trsyl reads 'C' as 'T').
  const ndarray y = trsyl_any(sa.t, sb.t, f, 'C', wd);
  return cusci::ascontiguousarray(cusci::matmul(cusci::matmul(u, y), ctrans(v)));
}

// --- continuous Lyapunov --------------------------------------------------------------------------

ndarray solve_continuous_lyapunov(const ndarray& a, const ndarray& q) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_continuous_lyapunov");
  return lyapunov_impl(a, q, "solve_continuous_lyapunov", "solve_continuous_lyapunov");
}

ndarray solve_lyapunov(const ndarray& a, const ndarray& q) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_lyapunov");
  return lyapunov_impl(a, q, "solve_lyapunov", "solve_continuous_lyapunov");
}

// --- discrete Lyapunov ----------------------------------------------------------------------------

ndarray solve_discrete_lyapunov(const ndarray& a, const ndarray& q, const solve_discrete_lyapunov_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_discrete_lyapunov");
  const std::string name = "solve_discrete_lyapunov";
  const shape_t batch = detail::common_batch({&a, &q}, name, name);
  if (a.ndim() < 2 || q.ndim() < 2)
    throw value_error(msg(name, "expected a and q of at least two dimensions, got shapes " +
                                    cusci::detail::shape_str(a.shape()) + " and " +
                                    cusci::detail::shape_str(q.shape())));
  const i64 n = dim(a, 1);
  std::string method = opts.method ? *opts.method : (dim(a, 2) >= 10 ? "bilinear" : "direct");
  const std::string meth = lower(method);
  if (meth != "direct" && meth != "bilinear") throw value_error(msg(name, "Unknown solver " + method));
  if (!is_square(a)) {
    if (meth == "bilinear") throw lin_alg_error(msg(name, "Last 2 dimensions of the array must be square"));
    throw value_error(msg(name, "expected a square matrix a, got shape " + cusci::detail::shape_str(a.shape())));
  }
  if (dim(q, 2) != n || dim(q, 1) != n)
    throw value_error(msg(name, "Matrix a and q should have the same shape, got " +
                                    cusci::detail::shape_str(a.shape()) + " and " +
                                    cusci::detail::shape_str(q.shape())));
  const dtype dd = is_complex(a.dtype()) || is_complex(q.dtype()) ? dtype::complex128 : dtype::float64;
  const shape_t full = with_core(batch, n, n);
  const ndarray ab = cast(a, dd).broadcast_to(full);
  const ndarray qb = cast(q, dd).broadcast_to(full);
  if (n == 0) return cusci::zeros(full, dd);
  if (meth == "direct") {
    // lhs[(i n + k), (j n + l)] = delta - a[i, j] conj(a[k, l]) (np.kron(a, a.conj())).
    shape_t s1 = batch, s2 = batch;
    for (i64 d : {n, i64{1}, n, i64{1}}) s1.push_back(d);
    for (i64 d : {i64{1}, n, i64{1}, n}) s2.push_back(d);
    const ndarray k4 = cusci::multiply(ab.reshape(s1), cusci::conj(ab).reshape(s2));
    const ndarray kron = k4.reshape(with_core(batch, n * n, n * n));
    const ndarray lhs = cusci::subtract(cusci::eye(n * n, std::nullopt, 0, dd), kron);
    const ndarray x = solve(lhs, qb.reshape(with_core(batch, n * n, 1)));
    return cusci::ascontiguousarray(x.reshape(full));
  }
  // bilinear: b = (a^H - I)(a^H + I)^-1, c = 2 (a + I)^-1 q (a^H + I)^-1, x = lyap(b^H, -c).
  const ndarray eye = cusci::eye(n, std::nullopt, 0, dd);
  const ndarray aH = ctrans(ab);
  const ndarray aHI_inv = inv(cusci::add(aH, eye));
  const ndarray bb = cusci::matmul(cusci::subtract(aH, eye), aHI_inv);
  const ndarray c = cusci::multiply(2.0, cusci::matmul(cusci::matmul(inv(cusci::add(ab, eye)), qb), aHI_inv));
  return lyapunov_impl(ctrans(bb), cusci::negative(c), name, name);
}

// --- algebraic Riccati equations ------------------------------------------------------------------------

namespace {

/// Rows [r0, r1) and columns [c0, c1) of a 2-d array (a view).
ndarray sub(const ndarray& x, i64 r0, i64 r1, i64 c0, i64 c1) { return x[{slice{r0, r1}, slice{c0, c1}}]; }

/// The matrix of a 2-d device array on the host (C order, complex double). Synchronizes.
std::vector<cplx> host_c(const ndarray& x) { return cusci::to_host(cast(x, dtype::complex128)).to_vector<cplx>(); }

/// NumPy's norm(x, 1) of a rows x cols C-order host matrix.
double norm1(const std::vector<cplx>& x, i64 rows, i64 cols) {
  double best = 0;
  for (i64 j = 0; j < cols; ++j) {
    double s = 0;
    for (i64 i = 0; i < rows; ++i) s += std::abs(x[i * cols + j]);
    best = std::max(best, s);
  }
  return best;
}

double spacing(double x) { return std::nextafter(std::abs(x), std::numeric_limits<double>::infinity()) - std::abs(x); }

/// norm(x - x^H, 1) of a square host matrix.
double asym_norm1(const std::vector<cplx>& x, i64 n) {
  std::vector<cplx> d(x.size());
  for (i64 i = 0; i < n; ++i)
    for (i64 j = 0; j < n; ++j) d[i * n + j] = x[i * n + j] - std::conj(x[j * n + i]);
  return norm1(d, n, n);
}

/// The smallest singular value of a square matrix (svdvals on the GPU). Synchronizes.
double min_sv(const ndarray& x) {
  const std::vector<cplx> s = host_c(svdvals(x));
  return s.empty() ? 0.0 : s.back().real();
}

/// [[x00, x01, ...], [x10, ...], ...] (np.block).
ndarray block(const std::vector<std::vector<ndarray>>& rows) {
  std::vector<ndarray> r;
  for (const auto& row : rows) r.push_back(cusci::concatenate(row, 1));
  return cusci::concatenate(r, 0);
}

struct are_args {
  ndarray a, b, q, r;
  std::optional<ndarray> e, s;
};

/// SciPy's _solve_continuous_are / _solve_discrete_are on one set of 2-d matrices (shapes checked).
ndarray are_slice(const are_args& in, bool care, bool balanced, dtype dt, const std::string& name) {
  const i64 m = dim(in.b, 2), n = dim(in.b, 1);
  // _are_validate_args' value checks.
  for (int k = 0; k < 2; ++k) {
    const ndarray& x = k == 0 ? in.q : in.r;
    const i64 d = dim(x, 1);
    const std::vector<cplx> h = host_c(x);
    if (asym_norm1(h, d) > spacing(norm1(h, d, d)) * 100)
      throw value_error(msg(name, std::string("Matrix ") + (k == 0 ? "q" : "r") + " should be symmetric/hermitian."));
  }
  if (care) {
    const double sv = min_sv(in.r);
    if (sv == 0.0 || sv < spacing(1.0) * norm1(host_c(in.r), n, n))
      throw value_error(msg(name, "Matrix r is numerically singular."));
  }
  if (in.e) {
    const double sv = min_sv(*in.e);
    if (sv == 0.0 || sv < spacing(1.0) * norm1(host_c(*in.e), m, m))
      throw value_error(msg(name, "Matrix e is numerically singular."));
  }
  const ndarray a = cast(in.a, dt), b = cast(in.b, dt), q = cast(in.q, dt), r = cast(in.r, dt);
  const ndarray Im = cusci::eye(m, std::nullopt, 0, dt);
  const ndarray Zmm = cusci::zeros({m, m}, dt), Zmn = cusci::zeros({m, n}, dt), Znm = cusci::zeros({n, m}, dt),
                Znn = cusci::zeros({n, n}, dt);
  const ndarray e = in.e ? cast(*in.e, dt) : Im;
  const ndarray ms = in.s ? cusci::negative(cast(*in.s, dt)) : Zmn;
  const ndarray sH = in.s ? ctrans(cast(*in.s, dt)) : Znm;
  ndarray H, J;
  if (care) {
    H = block({{a, Zmm, b}, {cusci::negative(q), cusci::negative(ctrans(a)), ms}, {sH, ctrans(b), r}});
    J = block({{e, Zmm, Zmn}, {Zmm, ctrans(e), Zmn}, {Znm, Znm, Znn}});
  } else {
    H = block({{a, Zmm, b}, {cusci::negative(q), in.e ? ctrans(e) : Im, ms}, {sH, Znm, r}});
    J = block({{e, Zmm, Zmn}, {Zmm, ctrans(a), Zmn}, {Znm, cusci::negative(ctrans(b)), Znn}});
  }
  const i64 N = 2 * m + n;
  std::vector<double> sca;
  if (balanced) {
    ndarray M = cusci::add(cusci::abs(H), cusci::abs(J));
    M = cusci::multiply(M, cusci::subtract(1.0, cusci::eye(N)));  // np.fill_diagonal(M, 0.)
    matrix_balance_options bo;
    bo.separate = true;
    bo.permute = false;
    const ndarray scale = matrix_balance(M, bo).scale;
    sca = cusci::to_host(cast(scale, dtype::float64)).to_vector<double>();
    bool close = true;
    for (double v : sca) close = close && std::abs(v - 1.0) <= 1e-8 + 1e-5;
    if (!close) {
      std::vector<double> l(sca.size());
      for (std::size_t i = 0; i < sca.size(); ++i) l[i] = std::log2(sca[i]);
      for (i64 i = 0; i < m; ++i) {
        const double si = std::nearbyint((l[m + i] - l[i]) / 2);
        sca[i] = std::exp2(si);
        sca[m + i] = std::exp2(-si);
      }
      for (i64 i = 2 * m; i < N; ++i) sca[i] = std::exp2(l[i]);
      std::vector<double> w(static_cast<std::size_t>(N * N));
      for (i64 i = 0; i < N; ++i)
        for (i64 j = 0; j < N; ++j) w[i * N + j] = sca[i] * (1.0 / sca[j]);
      const ndarray W = cusci::asarray(w, shape_t{N, N});
      H = cusci::multiply(H, W);
      J = cusci::multiply(J, W);
    }
  }
  qr_options qo;
  const ndarray Q = *qr(sub(H, 0, N, 2 * m, N), qo).q;
  const ndarray Qn = sub(Q, 0, N, n, N);
  H = cusci::matmul(ctrans(Qn), sub(H, 0, N, 0, 2 * m));
  J = care ? cusci::matmul(ctrans(sub(Q, 0, 2 * m, n, N)), sub(J, 0, 2 * m, 0, 2 * m))
           : cusci::matmul(ctrans(Qn), sub(J, 0, N, 0, 2 * m));
  ordqz_options oo;
  oo.sort = care ? "lhp" : "iuc";
  oo.output = is_complex(dt) ? "complex" : "real";
  oo.check_finite = false;
  ndarray u = ordqz(H, J, oo).z;
  if (in.e) u = *qr(cusci::concatenate({cusci::matmul(e, sub(u, 0, m, 0, m)), sub(u, m, 2 * m, 0, m)}, 0), qo).q;
  const ndarray u00 = sub(u, 0, m, 0, m), u10 = sub(u, m, 2 * m, 0, m);
  const lu_result f = lu(u00);
  {
    const std::vector<cplx> sv = host_c(svdvals(f.u));
    const double smax = sv.front().real(), smin = sv.back().real();
    const double inv_cond = smin == 0.0 ? 0.0 : smin / smax;
    if (!(inv_cond >= spacing(1.0))) throw lin_alg_error(msg(name, "Failed to find a finite solution."));
  }
  solve_triangular_options lo;
  lo.lower = true;
  const ndarray y = solve_triangular(ctrans(f.u), ctrans(u10), lo);
  solve_triangular_options uo;
  uo.unit_diagonal = true;
  ndarray x = cusci::matmul(ctrans(solve_triangular(ctrans(f.l), y, uo)), ctrans(f.p));
  if (balanced) {
    std::vector<double> w(static_cast<std::size_t>(m * m));
    for (i64 i = 0; i < m; ++i)
      for (i64 j = 0; j < m; ++j) w[i * m + j] = sca[i] * sca[j];
    x = cusci::multiply(x, cusci::asarray(w, shape_t{m, m}));
  }
  const std::vector<cplx> us = host_c(cusci::matmul(ctrans(u00), u10));
  const double n_u_sym = norm1(us, m, m);
  if (asym_norm1(us, m) > std::max(spacing(1000.0), 0.1 * n_u_sym))
    throw lin_alg_error(msg(name, care ? "The associated Hamiltonian pencil has eigenvalues too close to the imaginary axis"
                                       : "The associated symplectic pencil has eigenvalues too close to the unit circle"));
  return cast(cusci::multiply(0.5, cusci::add(x, ctrans(x))), dt);
}

ndarray are_impl(const ndarray& A, const ndarray& B, const ndarray& Q, const ndarray& R, const are_options& o,
                 bool care) {
  const std::string name = care ? "solve_continuous_are" : "solve_discrete_are";
  const std::string inner = care ? "_solve_continuous_are" : "_solve_discrete_are";
  const ndarray a = A.ndim() < 2 ? cusci::atleast_2d(A) : A, b = B.ndim() < 2 ? cusci::atleast_2d(B) : B;
  const ndarray q = Q.ndim() < 2 ? cusci::atleast_2d(Q) : Q, r = R.ndim() < 2 ? cusci::atleast_2d(R) : R;
  std::optional<ndarray> e, s;
  if (o.e) e = o.e->ndim() < 2 ? cusci::atleast_2d(*o.e) : *o.e;
  if (o.s) s = o.s->ndim() < 2 ? cusci::atleast_2d(*o.s) : *o.s;
  const shape_t batch = detail::common_batch({&a, &b, &q, &r, e ? &*e : nullptr, s ? &*s : nullptr}, name, inner);
  const char* names = "aqr";
  const ndarray* sq[3] = {&a, &q, &r};
  bool cplx_any = is_complex(b.dtype());
  for (int k = 0; k < 3; ++k) {
    cplx_any = cplx_any || is_complex(sq[k]->dtype());
    if (!is_square(*sq[k])) throw value_error(msg(name, std::string("Matrix ") + names[k] + " should be square."));
  }
  const i64 m = dim(b, 2), n = dim(b, 1);
  if (m != dim(a, 1)) throw value_error(msg(name, "Matrix a and b should have the same number of rows."));
  if (m != dim(q, 1)) throw value_error(msg(name, "Matrix a and q should have the same shape."));
  if (n != dim(r, 1)) throw value_error(msg(name, "Matrix b and r should have the same number of cols."));
  if (e) {
    if (!is_square(*e)) throw value_error(msg(name, "Matrix e should be square."));
    if (m != dim(*e, 1)) throw value_error(msg(name, "Matrix a and e should have the same shape."));
    cplx_any = cplx_any || is_complex(e->dtype());
  }
  if (s) {
    if (dim(*s, 2) != m || dim(*s, 1) != n) throw value_error(msg(name, "Matrix b and s should have the same shape."));
    cplx_any = cplx_any || is_complex(s->dtype());
  }
  for (const ndarray* x : {&a, &b, &q, &r}) detail::check_finite(*x, name);
  if (e) detail::check_finite(*e, name);
  if (s) detail::check_finite(*s, name);
  const dtype dt = cplx_any ? dtype::complex128 : dtype::float64;
  i64 nb = 1;
  for (i64 d : batch) nb *= d;
  auto slice_of = [&](const ndarray& x, i64 k) {
    const ndarray full = x.broadcast_to(with_core(batch, dim(x, 2), dim(x, 1)));
    return full.reshape({nb, dim(x, 2), dim(x, 1)})[k];
  };
  std::vector<ndarray> out;
  for (i64 k = 0; k < nb; ++k) {
    are_args in{slice_of(a, k), slice_of(b, k), slice_of(q, k), slice_of(r, k), {}, {}};
    if (e) in.e = slice_of(*e, k);
    if (s) in.s = slice_of(*s, k);
    out.push_back(are_slice(in, care, o.balanced, dt, name));
  }
  if (batch.empty()) return cusci::ascontiguousarray(out.front());
  return cusci::ascontiguousarray(cusci::stack(out, 0).reshape(with_core(batch, m, m)));
}

}  // namespace

ndarray solve_continuous_are(const ndarray& a, const ndarray& b, const ndarray& q, const ndarray& r,
                             const are_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_continuous_are");
  return are_impl(a, b, q, r, opts, true);
}

ndarray solve_discrete_are(const ndarray& a, const ndarray& b, const ndarray& q, const ndarray& r,
                           const are_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_discrete_are");
  return are_impl(a, b, q, r, opts, false);
}

}  // namespace cusci::linalg
