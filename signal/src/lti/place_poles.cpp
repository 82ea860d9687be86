// place_poles (host, double precision), following SciPy 1.18's scipy/signal/_ltisys.py: Kautsky, Nichols
// & Van Dooren's method 0 (KNV0) and Tits & Yang's method (YT), with SciPy's update order, its choice of
// initial transfer-matrix columns (the normalised sum of each pole's kernel basis), its convergence test
// on det(X) and its handling of B with full row rank (least squares, X = I). The QR factorizations are
// LAPACK's (core's host linear algebra) so that the kernel bases, and so the iterations, are SciPy's.

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/lti_functions.hpp"
#include "cusci/warnings.hpp"
#include "lti/lti_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace hl = cusci::detail::hostla;
using namespace detail::lti_impl;

place_poles_method parse_place_poles_method(std::string_view s) {
  if (s == "YT") return place_poles_method::YT;
  if (s == "KNV0") return place_poles_method::KNV0;
  throw value_error("cusci::signal::place_poles: The method keyword must be one of 'YT' or 'KNV0'");
}

namespace {

const char* const F = "cusci::signal::place_poles";

bool isreal(cplx p) { return p.imag() == 0.0; }

/// NumPy's complex sort order (real part, then imaginary part).
bool cless(cplx a, cplx b) { return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag()); }

/// SciPy's _order_complex_poles: real poles ascending, then each pole of negative imaginary part
/// (ascending) followed by its conjugate, when the conjugate is present.
std::vector<cplx> order_complex_poles(const std::vector<cplx>& poles) {
  std::vector<cplx> re, neg, out;
  for (cplx p : poles) {
    if (isreal(p)) re.push_back(p);
    if (p.imag() < 0) neg.push_back(p);
  }
  std::stable_sort(re.begin(), re.end(), cless);
  std::stable_sort(neg.begin(), neg.end(), cless);
  out = re;
  for (cplx p : neg)
    if (std::find(poles.begin(), poles.end(), std::conj(p)) != poles.end()) {
      out.push_back(p);
      out.push_back(std::conj(p));
    }
  CUSCI_EXPECTS(out.size() == poles.size(), value_error, std::string(F) + ": Complex poles must come with their conjugates");
  return out;
}

/// numpy.allclose(x, 0): every |x| <= 1e-8.
template <class T>
bool allclose0(const std::vector<T>& x) {
  for (const T& v : x)
    if (!(std::abs(v) <= 1e-8)) return false;
  return true;
}
bool allclose(double a, double b) { return std::abs(a - b) <= 1e-8 + 1e-5 * std::abs(b); }

rmat delete_cols(const rmat& a, std::int64_t i, std::int64_t j) {
  rmat r(a.m, a.n - (i == j ? 1 : 2));
  for (std::int64_t row = 0; row < a.m; ++row) {
    std::int64_t c = 0;
    for (std::int64_t col = 0; col < a.n; ++col)
      if (col != i && col != j) r(row, c++) = a(row, col);
  }
  return r;
}

cmat transpose_c(const cmat& a) {
  cmat r(a.n, a.m);
  for (std::int64_t i = 0; i < a.m; ++i)
    for (std::int64_t j = 0; j < a.n; ++j) r(j, i) = a(i, j);
  return r;
}

std::vector<double> col(const rmat& a, std::int64_t j) {
  std::vector<double> v(static_cast<std::size_t>(a.m));
  for (std::int64_t i = 0; i < a.m; ++i) v[i] = a(i, j);
  return v;
}

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}
double norm(const std::vector<cplx>& v) {
  double s = 0;
  for (cplx x : v) s += std::norm(x);
  return std::sqrt(s);
}

/// The kernel bases: real for real poles, complex for complex ones.
struct kernel {
  bool complex = false;
  rmat r;
  cmat c;
};

/// y = K K^T x (real kernel).
std::vector<double> project(const rmat& K, const std::vector<double>& x) {
  std::vector<double> t(static_cast<std::size_t>(K.n), 0.0), y(static_cast<std::size_t>(K.m), 0.0);
  for (std::int64_t i = 0; i < K.m; ++i)
    for (std::int64_t k = 0; k < K.n; ++k) t[k] += K(i, k) * x[i];
  for (std::int64_t i = 0; i < K.m; ++i)
    for (std::int64_t k = 0; k < K.n; ++k) y[i] += K(i, k) * t[k];
  return y;
}

void KNV0(const std::vector<kernel>& ker, rmat& X, std::int64_t j) {
  const rmat Xn = delete_cols(X, j, j);
  const hl::qr_result q = hl::qr(Xn, true);
  const std::vector<double> last = col(q.q, q.q.n - 1);
  const std::vector<double> yj = project(ker[j].r, last);
  if (!allclose0(yj)) {
    const double nr = norm(yj);
    for (std::int64_t i = 0; i < X.m; ++i) X(i, j) = yj[i] / nr;
  }
}

void YT_real(const std::vector<kernel>& ker, const rmat& Q, rmat& X, std::int64_t i, std::int64_t j) {
  const std::int64_t n = X.m;
  const std::vector<double> u = col(Q, Q.n - 2), v = col(Q, Q.n - 1);
  const rmat& Ki = ker[i].r;
  const rmat& Kj = ker[j].r;
  // m = Ki^T (u v^T - v u^T) Kj
  rmat W(n, n);
  for (std::int64_t a = 0; a < n; ++a)
    for (std::int64_t b = 0; b < n; ++b) W(a, b) = u[a] * v[b] - v[a] * u[b];
  const rmat m = hl::matmul(hl::matmul(hl::transpose(Ki), W), Kj);
  const hl::svd_result s = hl::svd(m, true, true);
  // mu1, mu2: the first two columns of U; nu1, nu2: the first two columns of V.
  rmat kmn;  // [2n, 1] or [2n, 2]
  if (!allclose(s.s[0], s.s[1])) {
    kmn = rmat(2 * n, 1);
    for (std::int64_t a = 0; a < n; ++a) {
      double x = 0, y = 0;
      for (std::int64_t k = 0; k < Ki.n; ++k) x += Ki(a, k) * s.u(k, 0);
      for (std::int64_t k = 0; k < Kj.n; ++k) y += Kj(a, k) * s.v(k, 0);
      kmn(a, 0) = x;
      kmn(n + a, 0) = y;
    }
  } else {
    kmn = rmat(2 * n, 2);
    for (std::int64_t c = 0; c < 2; ++c)
      for (std::int64_t a = 0; a < n; ++a) {
        double x = 0, y = 0;
        for (std::int64_t k = 0; k < Ki.n; ++k) x += Ki(a, k) * s.u(k, c);
        for (std::int64_t k = 0; k < Kj.n; ++k) y += Kj(a, k) * s.v(k, c);
        kmn(a, c) = x;
        kmn(n + a, c) = y;
      }
  }
  std::vector<double> xij(static_cast<std::size_t>(2 * n));
  for (std::int64_t a = 0; a < n; ++a) {
    xij[a] = X(a, i);
    xij[n + a] = X(a, j);
  }
  const std::vector<double> t = project(kmn, xij);
  if (!allclose0(t)) {
    const double sc = std::sqrt(2.0) / norm(t);
    for (std::int64_t a = 0; a < n; ++a) {
      X(a, i) = sc * t[a];
      X(a, j) = sc * t[n + a];
    }
  } else {
    for (std::int64_t a = 0; a < n; ++a) {
      X(a, i) = kmn(a, 0);
      X(a, j) = kmn(n + a, 0);
    }
  }
}

void YT_complex(const std::vector<kernel>& ker, const rmat& Q, rmat& X, std::int64_t i, std::int64_t j) {
  const std::int64_t n = X.m;
  std::vector<cplx> u(static_cast<std::size_t>(n));
  for (std::int64_t a = 0; a < n; ++a) u[a] = cplx(std::sqrt(2.0) * Q(a, Q.n - 2), std::sqrt(2.0) * Q(a, Q.n - 1));
  const cmat& K = ker[i].c;
  cmat W(n, n);
  for (std::int64_t a = 0; a < n; ++a)
    for (std::int64_t b = 0; b < n; ++b) W(a, b) = u[a] * std::conj(u[b]) - std::conj(u[a]) * u[b];
  const cmat m = hl::matmul(hl::matmul(hl::conj_transpose(K), W), K);
  const hl::eig_result e = hl::eig(m, F);
  const std::int64_t k = static_cast<std::int64_t>(e.values.size());
  std::vector<std::int64_t> idx(static_cast<std::size_t>(k));
  for (std::int64_t a = 0; a < k; ++a) idx[a] = a;
  // numpy.argsort (quicksort, not stable for ties: for the sizes here, introsort's insertion sort on
  // small arrays keeps ties in order, as std::stable_sort).
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
    return std::abs(e.values[a]) < std::abs(e.values[b]);
  });
  const std::int64_t i1 = idx[k - 1], i2 = idx[k - 2];
  const bool two = allclose(std::abs(e.values[i1]), std::abs(e.values[i2]));
  const std::int64_t nc = two ? 2 : 1;
  cmat km(n, nc);
  for (std::int64_t c = 0; c < nc; ++c) {
    const std::int64_t ev = c == 0 ? i1 : i2;
    for (std::int64_t a = 0; a < n; ++a) {
      cplx s = 0;
      for (std::int64_t b = 0; b < K.n; ++b) s += K(a, b) * e.vectors(b, ev);
      km(a, c) = s;
    }
  }
  std::vector<cplx> x(static_cast<std::size_t>(n)), tmp(static_cast<std::size_t>(nc), 0.0), t(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t a = 0; a < n; ++a) x[a] = cplx(X(a, i), X(a, j));
  for (std::int64_t c = 0; c < nc; ++c)
    for (std::int64_t a = 0; a < n; ++a) tmp[c] += std::conj(km(a, c)) * x[a];
  for (std::int64_t a = 0; a < n; ++a)
    for (std::int64_t c = 0; c < nc; ++c) t[a] += km(a, c) * tmp[c];
  if (!allclose0(t)) {
    const double nr = norm(t);
    for (std::int64_t a = 0; a < n; ++a) {
      X(a, i) = (t[a] / nr).real();
      X(a, j) = (t[a] / nr).imag();
    }
  } else {
    for (std::int64_t a = 0; a < n; ++a) {
      X(a, i) = km(a, 0).real();
      X(a, j) = km(a, 0).imag();
    }
  }
}

struct loop_result {
  bool stop = false;
  double cur_rtol = 0;
  std::int64_t nb_iter = 0;
};

double absdet(const rmat& X) { return std::abs(hl::det(X, F)); }

/// SciPy's convergence test after a sweep.
bool converged(double detb, const rmat& X, double rtol, double& cur) {
  const double floor = std::sqrt(std::nextafter(1.0, 2.0) - 1.0);
  const double d = std::max(floor, absdet(X));
  cur = std::abs((d - detb) / d);
  return cur < rtol && d > floor;
}

loop_result KNV0_loop(const std::vector<kernel>& ker, rmat& X, std::int64_t n, int maxiter, double rtol) {
  loop_result r;
  while (r.nb_iter < maxiter && !r.stop) {
    const double detb = absdet(X);
    for (std::int64_t j = 0; j < n; ++j) KNV0(ker, X, j);
    r.stop = converged(detb, X, rtol, r.cur_rtol);
    ++r.nb_iter;
  }
  return r;
}

loop_result YT_loop(const std::vector<kernel>& ker, rmat& X, const std::vector<cplx>& poles, int maxiter,
                    double rtol) {
  const std::int64_t np_ = static_cast<std::int64_t>(poles.size());
  std::int64_t nb_real = 0;
  for (cplx p : poles) nb_real += isreal(p) ? 1 : 0;
  const std::int64_t hnb = nb_real / 2;
  std::vector<std::int64_t> o0, o1;  // 1-based, as the paper and SciPy
  if (nb_real > 0) {
    o0.push_back(nb_real);
    o1.push_back(1);
  }
  std::vector<std::int64_t> r_comp;
  for (std::int64_t v = nb_real + 1; v < np_ + 1; v += 2) r_comp.push_back(v);
  auto add_comp = [&] {
    for (auto v : r_comp) {
      o0.push_back(v);
      o1.push_back(v + 1);
    }
  };
  const bool first_real = np_ > 0 && isreal(poles[0]);
  // step 1.a
  for (std::int64_t p = 1; p < hnb + nb_real % 2; ++p) {
    o0.push_back(2 * p);
    o1.push_back(2 * p + 1);
  }
  add_comp();  // 1.b
  for (std::int64_t p = 1; p < hnb + 1; ++p) {  // 1.c
    o0.push_back(2 * p - 1);
    o1.push_back(2 * p);
  }
  if (hnb == 0 && first_real) {  // 1.d
    o0.push_back(1);
    o1.push_back(1);
  }
  add_comp();
  for (std::int64_t j = 2; j < hnb + nb_real % 2; ++j)  // 2.a
    for (std::int64_t i = 1; i < hnb + 1; ++i) {
      o0.push_back(i);
      o1.push_back(i + j);
    }
  if (hnb == 0 && first_real) {  // 2.b
    o0.push_back(1);
    o1.push_back(1);
  }
  add_comp();
  for (std::int64_t j = 2; j < hnb + nb_real % 2; ++j)  // 2.c
    for (std::int64_t i = hnb + 1; i < nb_real + 1; ++i) {
      std::int64_t idx = i + j;
      if (idx > nb_real) idx = i + j - nb_real;
      o0.push_back(i);
      o1.push_back(idx);
    }
  if (hnb == 0 && first_real) {  // 2.d
    o0.push_back(1);
    o1.push_back(1);
  }
  add_comp();
  for (std::int64_t i = 1; i < hnb + 1; ++i) {  // 3.a
    o0.push_back(i);
    o1.push_back(i + hnb);
  }
  if (hnb == 0 && first_real) {  // 3.b
    o0.push_back(1);
    o1.push_back(1);
  }
  add_comp();

  loop_result r;
  while (r.nb_iter < maxiter && !r.stop) {
    const double detb = absdet(X);
    for (std::size_t u = 0; u < o0.size(); ++u) {
      const std::int64_t i = o0[u] - 1, j = o1[u] - 1;
      if (i == j) {
        KNV0(ker, X, i);
      } else {
        const rmat Xn = delete_cols(X, i, j);
        const hl::qr_result q = hl::qr(Xn, true);
        if (isreal(poles[i]))
          YT_real(ker, q.q, X, i, j);
        else
          YT_complex(ker, q.q, X, i, j);
      }
    }
    r.stop = converged(detb, X, rtol, r.cur_rtol);
    ++r.nb_iter;
  }
  return r;
}

std::string num_text(double v) {
  std::ostringstream o;
  o.precision(17);
  o << v;
  return o.str();
}

}  // namespace

place_poles_result place_poles(const array_like& A_arg, const array_like& B_arg, const array_like& poles_arg,
                               const place_poles_options& opts) {
  const host_array A_ = A_arg.to_host();
  const host_array B_ = B_arg.to_host();
  const host_array poles_ = poles_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::place_poles");
  const std::string fn = F;
  // ---- checks (SciPy's _valid_inputs order) ----
  CUSCI_EXPECTS(poles_.ndim() <= 1, value_error, fn + ": Poles must be a 1D array like.");
  const bool complex_poles = is_complex(poles_);
  std::vector<cplx> poles = order_complex_poles(to_cvec(poles_));
  CUSCI_EXPECTS(A_.ndim() <= 2, value_error, fn + ": A must be a 2D array/matrix.");
  CUSCI_EXPECTS(B_.ndim() <= 2, value_error, fn + ": B must be a 2D array/matrix");
  if (A_.ndim() < 2) throw index_error(fn + ": A must be a 2D array/matrix, got " + std::to_string(A_.ndim()) + " dimensions");
  CUSCI_EXPECTS(A_.shape()[0] == A_.shape()[1], value_error, fn + ": A must be square");
  const std::int64_t n = A_.shape()[0];
  const std::int64_t npl = static_cast<std::int64_t>(poles.size());
  CUSCI_EXPECTS(npl <= n, value_error,
                fn + ": maximum number of poles is " + std::to_string(n) + " but you asked for " + std::to_string(npl));
  CUSCI_EXPECTS(npl >= n, value_error,
                fn + ": number of poles is " + std::to_string(npl) + " but you should provide " + std::to_string(n));
  CUSCI_EXPECTS(B_.ndim() == 2, value_error, fn + ": expected a 2-D array B, got " + std::to_string(B_.ndim()) + " dimensions");
  const rmat A = to_rmat(A_, fn, "A");
  const rmat B = to_rmat(B_, fn, "B");
  CUSCI_EXPECTS(B.m == n, value_error,
                fn + ": B must have as many rows as A, got " + std::to_string(B.m) + " and " + std::to_string(n));
  const std::int64_t rankB = hl::matrix_rank(B);
  for (cplx p : poles) {
    std::int64_t cnt = 0;
    for (cplx q : poles) cnt += (p == q) ? 1 : 0;
    CUSCI_EXPECTS(cnt <= rankB, value_error,
                  fn + ": at least one of the requested pole is repeated more than rank(B) times");
  }
  if (opts.method == place_poles_method::KNV0)
    for (cplx p : poles) CUSCI_EXPECTS(isreal(p), value_error, fn + ": Complex poles are not supported by KNV0");
  CUSCI_EXPECTS(opts.maxiter >= 1, value_error, fn + ": maxiter must be at least equal to 1");
  CUSCI_EXPECTS(!(opts.rtol > 1), value_error, fn + ": rtol can not be greater than 1");

  place_poles_result res;
  const hl::qr_result qb = hl::qr(B, true);
  const std::int64_t m = B.n;
  rmat u0(n, rankB), u1(n, n - rankB), z(rankB, m);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t k = 0; k < rankB; ++k) u0(i, k) = qb.q(i, k);
    for (std::int64_t k = rankB; k < n; ++k) u1(i, k - rankB) = qb.q(i, k);
  }
  for (std::int64_t i = 0; i < rankB; ++i)
    for (std::int64_t k = 0; k < m; ++k) z(i, k) = qb.r(i, k);

  rmat gain;
  if (n == rankB) {
    rmat diag(n, n);
    for (std::int64_t idx = 0; idx < n; ++idx) {
      const cplx p = poles[idx];
      diag(idx, idx) = p.real();
      if (!isreal(p)) {
        diag(idx, idx + 1) = -p.imag();
        diag(idx + 1, idx + 1) = p.real();
        diag(idx + 1, idx) = p.imag();
        ++idx;
      }
    }
    rmat rhs(n, n);
    for (std::size_t i = 0; i < rhs.v.size(); ++i) rhs.v[i] = diag.v[i] - A.v[i];
    gain = hl::lstsq(B, rhs);
    res.X = from_rmat(rmat::identity(n));
    res.rtol = std::numeric_limits<double>::quiet_NaN();
    res.nb_iter = std::nullopt;
  } else {
    std::vector<kernel> ker;
    rmat X(n, n);
    std::int64_t xc = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const cplx p = poles[j];
      kernel k;
      std::vector<cplx> tj(static_cast<std::size_t>(n), 0.0);
      if (isreal(p)) {
        // pole_space_j = (u1^T (A - p I))^T = (A - p I)^T u1, [n, n - rankB]
        rmat ps(n, n - rankB);
        for (std::int64_t a = 0; a < n; ++a)
          for (std::int64_t c = 0; c < n - rankB; ++c) {
            double s = 0;
            for (std::int64_t b = 0; b < n; ++b) s += (A(b, a) - (a == b ? p.real() : 0.0)) * u1(b, c);
            ps(a, c) = s;
          }
        const hl::qr_result q = hl::qr(ps, true);
        k.r = rmat(n, rankB);
        for (std::int64_t a = 0; a < n; ++a)
          for (std::int64_t c = 0; c < rankB; ++c) k.r(a, c) = q.q(a, n - rankB + c);
        for (std::int64_t a = 0; a < n; ++a)
          for (std::int64_t c = 0; c < rankB; ++c) tj[a] += k.r(a, c);
      } else {
        cmat ps(n, n - rankB);
        for (std::int64_t a = 0; a < n; ++a)
          for (std::int64_t c = 0; c < n - rankB; ++c) {
            cplx s = 0;
            for (std::int64_t b = 0; b < n; ++b) s += (cplx(A(b, a)) - (a == b ? p : cplx(0.0))) * u1(b, c);
            ps(a, c) = s;
          }
        const hl::cqr_result q = hl::qr(ps, true);
        k.complex = true;
        k.c = cmat(n, rankB);
        for (std::int64_t a = 0; a < n; ++a)
          for (std::int64_t c = 0; c < rankB; ++c) k.c(a, c) = q.q(a, n - rankB + c);
        for (std::int64_t a = 0; a < n; ++a)
          for (std::int64_t c = 0; c < rankB; ++c) tj[a] += k.c(a, c);
      }
      const double nr = norm(tj);
      for (auto& v : tj) v /= nr;
      if (!isreal(p)) {
        for (std::int64_t a = 0; a < n; ++a) {
          X(a, xc) = tj[a].real();
          X(a, xc + 1) = tj[a].imag();
        }
        xc += 2;
        ker.push_back(k);
        ker.push_back(k);
        ++j;  // skip the conjugate
      } else {
        for (std::int64_t a = 0; a < n; ++a) X(a, xc) = tj[a].real();
        xc += 1;
        ker.push_back(k);
      }
    }
    loop_result lr;
    if (rankB > 1) {
      lr = opts.method == place_poles_method::KNV0 ? KNV0_loop(ker, X, n, opts.maxiter, opts.rtol)
                                                    : YT_loop(ker, X, poles, opts.maxiter, opts.rtol);
      if (!lr.stop && opts.rtol > 0)
        cusci::warn("UserWarning", fn,
                    "Convergence was not reached after maxiter iterations.\nYou asked for a tolerance of " +
                        num_text(opts.rtol) + ", we got " + num_text(lr.cur_rtol) + ".");
    }
    // Complex pairs: columns (Re, Im) become (Re - i Im, Re + i Im).
    cmat Xc = hl::to_complex(X);
    for (std::int64_t idx = 0; idx < n - 1; ++idx)
      if (!isreal(poles[idx])) {
        for (std::int64_t a = 0; a < n; ++a) {
          const double re = X(a, idx), im = X(a, idx + 1);
          Xc(a, idx) = cplx(re, -im);
          Xc(a, idx + 1) = cplx(re, im);
        }
        ++idx;
      }
    // M = (solve(X^T, diag(poles) X^T))^T; gain = solve(z, u0^T (M - A))
    cmat rhs(n, n);
    for (std::int64_t a = 0; a < n; ++a)
      for (std::int64_t b = 0; b < n; ++b) rhs(a, b) = poles[a] * Xc(b, a);
    cmat Mt;
    try {
      Mt = hl::solve(transpose_c(Xc), rhs, F);
    } catch (const runtime_error&) {
      throw value_error(fn + ": The poles you've chosen can't be placed. Check the controllability matrix and "
                             "try another set of poles");
    }
    CUSCI_EXPECTS(z.m == z.n, value_error,
                  fn + ": The poles you've chosen can't be placed. Check the controllability matrix and try "
                       "another set of poles");
    cmat rhs2(rankB, n);
    for (std::int64_t a = 0; a < rankB; ++a)
      for (std::int64_t b = 0; b < n; ++b) {
        cplx s = 0;
        for (std::int64_t c = 0; c < n; ++c) s += u0(c, a) * (Mt(b, c) - A(c, b));
        rhs2(a, b) = s;
      }
    cmat g;
    try {
      g = hl::solve(hl::to_complex(z), rhs2, F);
    } catch (const runtime_error&) {
      throw value_error(fn + ": The poles you've chosen can't be placed. Check the controllability matrix and "
                             "try another set of poles");
    }
    gain = rmat(g.m, g.n);
    for (std::size_t i = 0; i < g.v.size(); ++i) gain.v[i] = g.v[i].real();
    res.X = from_cmat(Xc);
    res.rtol = lr.cur_rtol;
    res.nb_iter = lr.nb_iter;
  }
  for (auto& v : gain.v) v = -v;
  res.gain_matrix = from_rmat(gain);
  // computed poles: eig(A - B K), ordered as the requested ones
  rmat cl = hl::matmul(B, gain);
  for (std::size_t i = 0; i < cl.v.size(); ++i) cl.v[i] = A.v[i] - cl.v[i];
  // numpy.linalg.eig returns complex eigenvalues (NumPy 2.5), whatever their values.
  res.computed_poles = from_cvec(order_complex_poles(hl::eigvals(cl, F)));
  if (complex_poles) {
    res.requested_poles = from_cvec(poles);
  } else {
    std::vector<double> r;
    for (cplx p : poles) r.push_back(p.real());
    res.requested_poles = from_dvec(r);
  }
  return res;
}

}  // namespace cusci::signal
