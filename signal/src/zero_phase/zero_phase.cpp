// filtfilt, sosfiltfilt and lfiltic: SciPy's argument handling, the steady-state initial conditions,
// the orchestration of the extension kernel and the lfilter / sosfilt passes, and the host part of
// Gustafsson's method (observability matrix, least-squares operator by QR + one-sided Jacobi SVD).

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/products.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/zero_phase.hpp"
#include "zero_phase/zero_phase_impl.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

pad_type parse_pad_type(std::string_view s) {
  if (s == "odd") return pad_type::odd;
  if (s == "even") return pad_type::even;
  if (s == "constant") return pad_type::constant;
  if (s == "none" || s == "None") return pad_type::none;
  throw value_error("cusci::signal::parse_pad_type: Unknown value '" + std::string(s) +
                    "' given to padtype. padtype must be 'even', 'odd', 'constant', or None.");
}

filtfilt_method parse_filtfilt_method(std::string_view s) {
  if (s == "pad") return filtfilt_method::pad;
  if (s == "gust") return filtfilt_method::gust;
  throw value_error("cusci::signal::parse_filtfilt_method: method must be 'pad' or 'gust', got '" + std::string(s) +
                    "'.");
}

namespace detail::zero_phase {
namespace {

using cusci::detail::move_axis_last;
using cusci::detail::move_last_axis_to;
using cusci::detail::normalize_axis;
using cusci::detail::shape_str;

std::vector<cplx> as_cplx(const host_array& h) {
  host_array c = h.astype(dtype::complex128);
  return c.to_vector<cplx>();
}

// NumPy's result type of `dts`.
dtype promote_all(const std::vector<dtype>& dts) {
  dtype r = dts.at(0);
  for (std::size_t i = 1; i < dts.size(); ++i) r = promote_types(r, dts[i]);
  return r;
}

// The dtype of SciPy's lfilter_zi / sosfilt_zi for coefficients of dtype `c`: floating kept, integers
// and bool as float64.
dtype zi_dtype(dtype c) { return is_inexact(c) ? c : dtype::float64; }

void check_result_dtype(dtype dt, const std::string& fn) {
  CUSCI_EXPECTS(dt == dtype::float32 || dt == dtype::float64 || dt == dtype::complex64 || dt == dtype::complex128,
                not_implemented_error, fn + ": input type '" + std::string(dtype_name(dt)) + "' not supported");
}

// A host array holding `h`'s elements with a new shape of the same size.
host_array reshaped(const host_array& h, const shape_t& shape) {
  host_array r(h.dtype(), shape);
  if (h.nbytes() > 0) std::memcpy(r.data(), h.data(), h.nbytes());
  return r;
}

// The reversed view of `a` along its last axis.
ndarray reversed(const ndarray& a) { return a[{ellipsis, slice{{}, {}, -1}}]; }

ndarray c_contiguous(const ndarray& a) { return a.is_c_contiguous() ? a : a.copy(order::C); }

// Coefficients of filtfilt as host arrays, with SciPy's checks (filtfilt's own and lfilter_zi's).
struct ba_host {
  host_array b, a;
  std::vector<cplx> bc, ac;
  bool complex_coeffs = false;
};

ba_host coefficients(const array_like& b, const array_like& a, const std::string& fn, bool gust) {
  ba_host r;
  r.b = b.to_host();
  r.a = a.to_host();
  if (r.b.ndim() == 0) r.b = reshaped(r.b, {1});
  if (r.a.ndim() == 0) r.a = reshaped(r.a, {1});
  if (gust) {
    // Gustafsson's path reaches lfilter's checks first.
    for (const auto& [h, nm] : {std::pair<const host_array*, const char*>{&r.b, "b"}, {&r.a, "a"}})
      CUSCI_EXPECTS(h->ndim() == 1 && h->size() > 0, value_error,
                    fn + ": Parameter " + nm + " is not a non-empty 1d array, since " + nm + ".shape=" +
                        shape_str(h->shape()) + "!");
  } else {
    CUSCI_EXPECTS(r.b.ndim() == 1 && r.a.ndim() == 1, value_error,
                  fn + ": Numerator `b` and Denominator `a` must be 1-D arrays, but b.shape = " + shape_str(r.b.shape()) +
                      ", a.shape = " + shape_str(r.a.shape()) + "!");
    CUSCI_EXPECTS(r.a.size() > 0, index_error, fn + ": index 0 is out of bounds for axis 0 with size 0 (a is empty)");
    CUSCI_EXPECTS(r.b.size() > 0, value_error,
                  fn + ": Parameter b is not a non-empty 1d array, since b.shape=" + shape_str(r.b.shape()) + "!");
  }
  r.bc = as_cplx(r.b);
  r.ac = as_cplx(r.a);
  r.complex_coeffs = is_complex(r.b.dtype()) || is_complex(r.a.dtype());
  CUSCI_EXPECTS(r.ac[0] != 0.0, value_error,
                gust ? fn + ": BUG: filter coefficient a[0] == 0 not supported yet"
                     : fn + ": First coefficient of parameter `a` must be non-zero!");
  return r;
}

// ---------------------------------------------------------------------------------------- Gustafsson

template <class S> S cj(S v) { if constexpr (std::is_same_v<S, double>) return v; else return std::conj(v); }
template <class S> double ab2(S v) { if constexpr (std::is_same_v<S, double>) return v * v; else return std::norm(v); }
template <class S> S unit_phase(S v) {
  const double m = std::abs(v);
  return m == 0.0 ? S(1) : v / m;
}
template <class S> S from_cplx(cplx v) { if constexpr (std::is_same_v<S, double>) return v.real(); else return v; }

// Column-major k x c matrix.
template <class S>
struct colmat {
  std::int64_t k = 0, c = 0;
  std::vector<S> v;
  colmat(std::int64_t k_, std::int64_t c_) : k(k_), c(c_), v(static_cast<std::size_t>(k_ * c_), S(0)) {}
  S& operator()(std::int64_t i, std::int64_t j) { return v[static_cast<std::size_t>(j * k + i)]; }
  S operator()(std::int64_t i, std::int64_t j) const { return v[static_cast<std::size_t>(j * k + i)]; }
  S* col(std::int64_t j) { return v.data() + j * k; }
};

// One-sided Jacobi (Hestenes) on A (k x c): A <- A V with orthogonal columns, V unitary.
template <class S>
void jacobi_svd(colmat<S>& A, colmat<S>& V) {
  const std::int64_t k = A.k, c = A.c;
  for (std::int64_t j = 0; j < c; ++j) V(j, j) = S(1);
  const double tol = 1e-15;
  for (int sweep = 0; sweep < 80; ++sweep) {
    bool rotated = false;
    for (std::int64_t p = 0; p < c; ++p)
      for (std::int64_t q = p + 1; q < c; ++q) {
        S* ap = A.col(p);
        S* aq = A.col(q);
        double alpha = 0, beta = 0;
        S g = S(0);
        for (std::int64_t i = 0; i < k; ++i) {
          alpha += ab2(ap[i]);
          beta += ab2(aq[i]);
          g += cj(ap[i]) * aq[i];
        }
        const double ag = std::abs(g);
        if (ag == 0.0 || ag <= tol * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const S ph = cj(unit_phase(g));  // a_q * conj(phase(g)) makes <a_p, a_q> real, positive
        const double zeta = (beta - alpha) / (2.0 * ag);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1.0 + zeta * zeta));
        const double cs = 1.0 / std::sqrt(1.0 + t * t), sn = cs * t;
        for (std::int64_t i = 0; i < k; ++i) {
          const S x = ap[i], y = aq[i] * ph;
          ap[i] = cs * x - sn * y;
          aq[i] = sn * x + cs * y;
        }
        S* vp = V.col(p);
        S* vq = V.col(q);
        for (std::int64_t i = 0; i < c; ++i) {
          const S x = vp[i], y = vq[i] * ph;
          vp[i] = cs * x - sn * y;
          vq[i] = sn * x + cs * y;
        }
      }
    if (!rotated) break;
  }
}

// pinv(M)^T (rows x c, row-major) for M (rows x c): minimum-norm least squares with singular values
// below eps * max treated as zero (scipy.linalg.lstsq's default cond with gelsd).
template <class S>
std::vector<S> pinv_transposed(colmat<S> M) {
  const std::int64_t rows = M.k, c = M.c;
  const bool qr = rows >= 2 * c;
  std::vector<std::vector<S>> hv;  // Householder vectors (length rows - j each)
  colmat<S> A(qr ? c : rows, c);
  if (qr) {
    for (std::int64_t j = 0; j < c; ++j) {
      const std::int64_t len = rows - j;
      std::vector<S> v(static_cast<std::size_t>(len));
      double nx = 0;
      for (std::int64_t i = 0; i < len; ++i) {
        v[static_cast<std::size_t>(i)] = M(j + i, j);
        nx += ab2(v[static_cast<std::size_t>(i)]);
      }
      nx = std::sqrt(nx);
      if (nx == 0.0) {
        hv.emplace_back();  // identity
        continue;
      }
      const S alpha = -unit_phase(v[0]) * nx;
      v[0] -= alpha;
      double nv = 0;
      for (auto& e : v) nv += ab2(e);
      nv = std::sqrt(nv);
      for (auto& e : v) e /= nv;
      for (std::int64_t col = j; col < c; ++col) {
        S w = S(0);
        for (std::int64_t i = 0; i < len; ++i) w += cj(v[static_cast<std::size_t>(i)]) * M(j + i, col);
        for (std::int64_t i = 0; i < len; ++i) M(j + i, col) -= 2.0 * v[static_cast<std::size_t>(i)] * w;
      }
      hv.push_back(std::move(v));
    }
    for (std::int64_t j = 0; j < c; ++j)
      for (std::int64_t i = 0; i <= j; ++i) A(i, j) = M(i, j);
  } else {
    A = M;
  }
  colmat<S> V(c, c);
  jacobi_svd(A, V);
  std::vector<double> sig(static_cast<std::size_t>(c));
  double smax = 0;
  for (std::int64_t j = 0; j < c; ++j) {
    double s = 0;
    for (std::int64_t i = 0; i < A.k; ++i) s += ab2(A(i, j));
    sig[static_cast<std::size_t>(j)] = std::sqrt(s);
    smax = std::max(smax, sig[static_cast<std::size_t>(j)]);
  }
  const double cut = std::numeric_limits<double>::epsilon() * smax;
  // Y = U diag(1/sigma) V^H  (A.k x c), U_j = A_j / sigma_j.
  colmat<S> Y(A.k, c);
  for (std::int64_t j = 0; j < c; ++j) {
    const double s = sig[static_cast<std::size_t>(j)];
    if (!(s > cut) || s == 0.0) continue;
    for (std::int64_t l = 0; l < c; ++l) {
      const S f = cj(V(l, j)) / (s * s);
      for (std::int64_t i = 0; i < A.k; ++i) Y(i, l) += A(i, j) * f;
    }
  }
  // pinv(M)^H = Q [Y; 0] (QR case) or Y.
  colmat<S> Z(rows, c);
  for (std::int64_t j = 0; j < c; ++j)
    for (std::int64_t i = 0; i < A.k; ++i) Z(i, j) = Y(i, j);
  if (qr) {
    for (std::int64_t j = c - 1; j >= 0; --j) {
      const auto& v = hv[static_cast<std::size_t>(j)];
      if (v.empty()) continue;
      const std::int64_t len = rows - j;
      for (std::int64_t col = 0; col < c; ++col) {
        S w = S(0);
        for (std::int64_t i = 0; i < len; ++i) w += cj(v[static_cast<std::size_t>(i)]) * Z(j + i, col);
        for (std::int64_t i = 0; i < len; ++i) Z(j + i, col) -= 2.0 * v[static_cast<std::size_t>(i)] * w;
      }
    }
  }
  // pinv(M)^T = conj(pinv(M)^H), row-major rows x c.
  std::vector<S> out(static_cast<std::size_t>(rows * c));
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < c; ++j) out[static_cast<std::size_t>(i * c + j)] = cj(Z(i, j));
  return out;
}

// Direct form II transposed of order `order` (b, a normalized and padded), from state z, over u.
template <class S>
void df2t(const std::vector<S>& b, const std::vector<S>& a, std::vector<S>& z, const S* u, S* y, std::int64_t n,
          std::int64_t ustride = 1, std::int64_t ystride = 1) {
  const std::size_t K = z.size();
  for (std::int64_t t = 0; t < n; ++t) {
    const S x = u ? u[t * ustride] : S(0);
    const S yv = b[0] * x + (K ? z[0] : S(0));
    for (std::size_t i = 0; i + 1 < K; ++i) z[i] = z[i + 1] + x * b[i + 1] - yv * a[i + 1];
    if (K) z[K - 1] = x * b[K] - yv * a[K];
    y[t * ystride] = yv;
  }
}

// Gustafsson's operators on the rows of SciPy's M = [S^R - O, O^R - S] (or its block form when irlen
// truncates) that are not negligible in M or W = [S^R, O^R]. Far from the ends of a long signal the
// impulse response has decayed below the smallest normal double (DBL_MIN, 2.2e-308; in IEEE arithmetic
// it then lingers as subnormals instead of reaching 0): rows whose entries are all below DBL_MIN in
// magnitude are dropped, with the response's subnormal tail. That perturbs the least-squares operator by
// about DBL_MIN relative to its entries (far below double rounding) and makes the host work
// proportional to the impulse response's length instead of the signal's.
struct gust_ops {
  std::vector<std::int64_t> pos;  // signal position of each kept row (distinct)
  host_array PT;                  // pinv(M)^T on the kept rows [Rc, 2 order] (float64 or complex128)
  host_array WT;                  // W^T on the kept rows [2 order, Rc]
};

template <class S>
gust_ops gust_operators(const std::vector<cplx>& bc, const std::vector<cplx>& ac, std::int64_t order, std::int64_t n,
                        std::int64_t m) {
  std::vector<S> b(static_cast<std::size_t>(order + 1), S(0)), a(static_cast<std::size_t>(order + 1), S(0));
  for (std::size_t i = 0; i < bc.size(); ++i) b[i] = from_cplx<S>(bc[i] / ac[0]);
  for (std::size_t i = 0; i < ac.size(); ++i) a[i] = from_cplx<S>(ac[i] / ac[0]);
  // O[:, 0]: the zero-input response from zi = e0 (SciPy stores it in a float array: real part);
  // O[t, k] = h[t - k]. hlen: one past the last non-zero sample.
  const double tiny = std::numeric_limits<double>::min();
  std::vector<S> h(static_cast<std::size_t>(m), S(0));
  std::int64_t hlen = 0;
  {
    std::vector<cplx> bb(static_cast<std::size_t>(order + 1), 0.0), aa(static_cast<std::size_t>(order + 1), 0.0);
    for (std::size_t i = 0; i < bc.size(); ++i) bb[i] = bc[i] / ac[0];
    for (std::size_t i = 0; i < ac.size(); ++i) aa[i] = ac[i] / ac[0];
    std::vector<cplx> z(static_cast<std::size_t>(order), 0.0);
    z[0] = 1.0;
    for (std::int64_t t = 0; t < m; ++t) {
      cplx yv;
      df2t<cplx>(bb, aa, z, nullptr, &yv, 1);
      if (std::abs(yv.real()) >= tiny) {
        h[static_cast<std::size_t>(t)] = S(yv.real());
        hlen = t + 1;
      }
      bool small = true;
      for (const auto& v : z) small = small && std::abs(v) < tiny;
      if (small) break;  // the state has decayed below DBL_MIN: the rest of the response is dropped
    }
  }
  auto O = [&](std::int64_t t, std::int64_t k) { return t >= k && t - k < hlen ? h[static_cast<std::size_t>(t - k)] : S(0); };
  // S = lfilter(b, a, O[::-1], axis=0): column k's input O[m-1-t, k] is zero until t0 = m - k - hlen.
  colmat<S> Sm(m, order);
  for (std::int64_t k = 0; k < order; ++k) {
    const std::int64_t t0 = std::max<std::int64_t>(0, m - k - hlen);
    std::vector<S> z(static_cast<std::size_t>(order), S(0)), u(static_cast<std::size_t>(m - t0));
    for (std::int64_t t = t0; t < m; ++t) u[static_cast<std::size_t>(t - t0)] = O(m - 1 - t, k);
    df2t<S>(b, a, z, u.data(), Sm.col(k) + t0, m - t0);
  }
  const std::int64_t R = (m == n) ? m : 2 * m, c2 = 2 * order;
  // Row r of M and W, with the signal position of the row.
  auto row = [&](std::int64_t r, S* mrow, S* wrow) {
    for (std::int64_t j = 0; j < c2; ++j) mrow[j] = wrow[j] = S(0);
    const bool first = (m == n) || r < m, second = (m == n) || r >= m;
    const std::int64_t t1 = r, t2 = (m == n) ? r : r - m;
    for (std::int64_t k = 0; k < order; ++k) {
      if (first) {
        mrow[k] = Sm(m - 1 - t1, k) - O(t1, k);
        wrow[k] = Sm(m - 1 - t1, k);
      }
      if (second) {
        mrow[order + k] = O(m - 1 - t2, k) - Sm(t2, k);
        wrow[order + k] = O(m - 1 - t2, k);
      }
    }
    if (m != n) {
      // SciPy builds the truncated (irlen) block matrices as float arrays: complex parts are dropped.
      for (std::int64_t j = 0; j < c2; ++j) {
        mrow[j] = S(std::real(mrow[j]));
        wrow[j] = S(std::real(wrow[j]));
      }
    }
  };
  std::vector<S> mr(static_cast<std::size_t>(c2)), wr(static_cast<std::size_t>(c2));
  gust_ops ops;
  std::vector<S> mkeep, wkeep;
  for (std::int64_t r = 0; r < R; ++r) {
    row(r, mr.data(), wr.data());
    bool nz = false;
    for (std::int64_t j = 0; j < c2 && !nz; ++j)
      nz = std::abs(mr[static_cast<std::size_t>(j)]) >= tiny || std::abs(wr[static_cast<std::size_t>(j)]) >= tiny;
    if (!nz) continue;
    ops.pos.push_back((m == n || r < m) ? r : n - 2 * m + r);
    mkeep.insert(mkeep.end(), mr.begin(), mr.end());
    wkeep.insert(wkeep.end(), wr.begin(), wr.end());
  }
  const std::int64_t Rc = static_cast<std::int64_t>(ops.pos.size());
  colmat<S> M(Rc, c2);
  for (std::int64_t r = 0; r < Rc; ++r)
    for (std::int64_t j = 0; j < c2; ++j) M(r, j) = mkeep[static_cast<std::size_t>(r * c2 + j)];
  const dtype hd = std::is_same_v<S, double> ? dtype::float64 : dtype::complex128;
  ops.PT = host_array(hd, {Rc, c2});
  ops.WT = host_array(hd, {c2, Rc});
  if (Rc == 0) return ops;
  const std::vector<S> pt = pinv_transposed(M);
  S* ptp = static_cast<S*>(ops.PT.data());
  S* wtp = static_cast<S*>(ops.WT.data());
  std::copy(pt.begin(), pt.end(), ptp);
  for (std::int64_t r = 0; r < Rc; ++r)
    for (std::int64_t j = 0; j < c2; ++j) wtp[j * Rc + r] = wkeep[static_cast<std::size_t>(r * c2 + j)];
  return ops;
}

ndarray filtfilt_gust(const ba_host& co, const ndarray& x, int axis_in, std::optional<std::int64_t> irlen,
                      const std::string& fn) {
  CUSCI_EXPECTS(x.ndim() >= 1, index_error, fn + ": tuple index out of range (x is 0-d)");
  const int ax = normalize_axis(axis_in, x.ndim(), fn);
  const dtype dt = promote_all({co.b.dtype(), co.a.dtype(), x.dtype()});
  check_result_dtype(dt, fn);
  const std::int64_t order = static_cast<std::int64_t>(std::max(co.b.size(), co.a.size())) - 1;
  const lfilter_options lo{.axis = -1};
  if (order == 0) {
    // The filter is a scalar gain applied twice.
    return lfilter(co.b, co.a, lfilter(co.b, co.a, x, {.axis = ax}), {.axis = ax});
  }
  const ndarray xv = move_axis_last(x, ax);
  const std::int64_t n = xv.shape().back();
  CUSCI_EXPECTS(n > 0, value_error, fn + ": x.shape[axis] must be positive for method 'gust', got shape " +
                                        shape_str(x.shape()));
  const std::int64_t m = (!irlen || n <= 2 * *irlen) ? n : *irlen;
  CUSCI_EXPECTS(m > 0, value_error, fn + ": irlen must be positive, got " + std::to_string(m));
  const std::int64_t L = xv.size() / n;
  if (L == 0) return empty(x.shape(), dt);
  ndarray xc = xv.dtype() == dt ? xv : xv.astype(dt);
  xc = c_contiguous(xc);

  // Least-squares and correction operators on the host (double / complex double).
  const gust_ops ops = co.complex_coeffs ? gust_operators<cplx>(co.bc, co.ac, order, n, m)
                                         : gust_operators<double>(co.bc, co.ac, order, n, m);
  const std::int64_t Rc = static_cast<std::int64_t>(ops.pos.size());

  // Forward-backward and backward-forward passes from rest.
  const ndarray yf = lfilter(co.b, co.a, xc, lo);
  ndarray yfr = lfilter(co.b, co.a, reversed(yf), lo);  // y_fb, time-reversed
  if (!yfr.is_c_contiguous() || yfr.dtype() != dt) yfr = c_contiguous(yfr.astype(dt));
  if (Rc > 0) {
    const ndarray ybr = lfilter(co.b, co.a, reversed(xc), lo);
    const ndarray ybf = c_contiguous(lfilter(co.b, co.a, reversed(ybr), lo));
    // ic = pinv(M) delta and wic = W ic per line, in double (as SciPy's float64 lstsq).
    const dtype wd = is_complex(dt) ? dtype::complex128 : dtype::float64;
    const ndarray posd = asarray(ops.pos);
    ndarray delta = empty({L, Rc}, dt);
    gust_delta(ybf, yfr, posd, delta);
    if (delta.dtype() != wd) delta = delta.astype(wd);
    ndarray ptd = asarray(ops.PT), wtd = asarray(ops.WT);
    if (ptd.dtype() != wd) ptd = ptd.astype(wd);
    if (wtd.dtype() != wd) wtd = wtd.astype(wd);
    ndarray wic = matmul(matmul(delta, ptd), wtd);
    if (wic.dtype() != dt) wic = wic.astype(dt);
    wic = c_contiguous(wic);
    gust_correct(yfr, wic, posd);
  }
  // y_opt = y_fb (a reversed view, as SciPy's) with the corrections added in place.
  return move_last_axis_to(reversed(yfr), ax);
}

// ---------------------------------------------------------------------------------------- pad method

// The common pad-method driver: `filter(ext, zi)` runs lfilter or sosfilt with initial states and
// returns the output; z holds G x C state coefficients.
template <class Filter>
ndarray pad_method(const ndarray& x, int ax, pad_type padtype, std::int64_t edge_in, dtype dt,
                   const std::vector<cplx>& z, std::int64_t G, std::int64_t C, bool sos_layout, Filter&& filter) {
  const std::int64_t edge = (padtype != pad_type::none && edge_in > 0) ? edge_in : 0;
  ndarray xv = move_axis_last(x, ax);
  if (!extend_supports(xv.dtype(), dt)) xv = xv.astype(dt);  // integers, bool, float16
  const std::int64_t n = xv.shape().back();
  shape_t eshape = xv.shape();
  eshape.back() = n + 2 * edge;
  ndarray ext = empty(eshape, dt);
  shape_t zshape;
  if (sos_layout) zshape.push_back(G);  // sosfilt's leading n_sections axis
  zshape.insert(zshape.end(), xv.shape().begin(), xv.shape().end() - 1);
  zshape.push_back(C);
  ndarray zi0 = empty(zshape, dt);
  extend_lines(xv, padtype, edge, ext, z, G, C, zi0);
  const ndarray y1 = filter(ext, zi0);
  ndarray zi1 = empty(zshape, dt);
  scale_by_last(y1, z, G, C, zi1);
  const ndarray y2 = filter(reversed(y1), zi1);
  const std::int64_t Ne = n + 2 * edge;
  const ndarray out = y2[{ellipsis, slice{Ne - 1 - edge, edge > 0 ? std::optional<std::int64_t>(edge - 1) : std::nullopt, -1}}];
  return move_last_axis_to(out, ax);
}

// SciPy's _validate_pad: the edge length, with its checks (x.shape[axis] raises IndexError for a
// 0-d x or a bad axis in SciPy).
std::int64_t validate_pad(pad_type padtype, std::optional<std::int64_t> padlen, const ndarray& x, int ax,
                          std::int64_t ntaps, const std::string& fn) {
  const std::int64_t edge = padtype == pad_type::none ? 0 : padlen ? *padlen : 3 * ntaps;
  const std::int64_t n = x.shape()[static_cast<std::size_t>(ax)];
  CUSCI_EXPECTS(n > edge, value_error,
                fn + ": The length of the input vector x must be greater than padlen, which is " +
                    std::to_string(edge) + ".");
  return edge;
}

}  // namespace
}  // namespace detail::zero_phase

ndarray filtfilt(const array_like& b, const array_like& a, const ndarray& x, const filtfilt_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::filtfilt");
  using namespace detail::zero_phase;
  const std::string F = "cusci::signal::filtfilt";
  const bool gust = opts.method == filtfilt_method::gust;
  const ba_host co = coefficients(b, a, F, gust);
  if (gust) return filtfilt_gust(co, x, opts.axis, opts.irlen, F);

  CUSCI_EXPECTS(x.ndim() >= 1, index_error, F + ": tuple index out of range (x is 0-d)");
  const int ax = cusci::detail::normalize_axis(opts.axis, x.ndim(), F);
  const std::int64_t ntaps = static_cast<std::int64_t>(std::max(co.a.size(), co.b.size()));
  const std::int64_t edge = validate_pad(opts.padtype, opts.padlen, x, ax, ntaps, F);
  // Steady-state initial conditions (SciPy's lfilter_zi, real or complex).
  const dtype zdt = co.complex_coeffs ? promote_types(co.b.dtype(), co.a.dtype())
                                      : zi_dtype(promote_types(co.b.dtype(), co.a.dtype()));
  const dtype dt = promote_all({co.b.dtype(), co.a.dtype(), x.dtype(), zdt});
  check_result_dtype(dt, F);
  const std::vector<cplx> zi = as_cplx(lfilter_zi(co.b, co.a));
  const std::int64_t K = ntaps - 1;
  if (K == 0) {
    // No state: filter the (extended) signal twice from rest.
    std::vector<cplx> none;
    return pad_method(x, ax, opts.padtype, edge, dt, none, 0, 0, false, [&](const ndarray& e, const ndarray&) {
      return lfilter(co.b, co.a, e, {.axis = -1});
    });
  }
  return pad_method(x, ax, opts.padtype, edge, dt, zi, 1, K, false, [&](const ndarray& e, const ndarray& z0) {
    return lfilter(co.b, co.a, e, z0, {.axis = -1}).y;
  });
}

ndarray sosfiltfilt(const array_like& sos, const ndarray& x, const sosfiltfilt_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::sosfiltfilt");
  using namespace detail::zero_phase;
  const std::string F = "cusci::signal::sosfiltfilt";
  host_array s = sos.to_host();
  if (s.ndim() < 2) s = reshaped(s, {1, s.ndim() == 1 ? s.shape()[0] : 1});
  CUSCI_EXPECTS(s.ndim() == 2, value_error, F + ": sos array must be 2D, got shape " + shape_str(s.shape()));
  CUSCI_EXPECTS(s.shape()[1] == 6, value_error,
                F + ": sos array must be shape (n_sections, 6), got " + shape_str(s.shape()));
  const std::vector<cplx> sc = as_cplx(s);
  const std::int64_t ns = s.shape()[0];
  for (std::int64_t i = 0; i < ns; ++i)
    CUSCI_EXPECTS(sc[static_cast<std::size_t>(6 * i + 3)] == 1.0, value_error, F + ": sos[:, 3] should be all ones");
  CUSCI_EXPECTS(x.ndim() >= 1, value_error, F + ": x must be at least 1-D");
  CUSCI_EXPECTS(ns > 0, value_error, F + ": sos must have at least one section, got shape " + shape_str(s.shape()));
  const int ax = cusci::detail::normalize_axis(opts.axis, x.ndim(), F);
  std::int64_t z2 = 0, z5 = 0;
  for (std::int64_t i = 0; i < ns; ++i) {
    z2 += sc[static_cast<std::size_t>(6 * i + 2)] == 0.0;
    z5 += sc[static_cast<std::size_t>(6 * i + 5)] == 0.0;
  }
  const std::int64_t ntaps = 2 * ns + 1 - std::min(z2, z5);
  const std::int64_t edge = validate_pad(opts.padtype, opts.padlen, x, ax, ntaps, F);
  const dtype dt = promote_all({s.dtype(), x.dtype(), zi_dtype(s.dtype())});
  check_result_dtype(dt, F);
  const std::vector<cplx> zi = as_cplx(sosfilt_zi(s));
  return pad_method(x, ax, opts.padtype, edge, dt, zi, ns, 2, true, [&](const ndarray& e, const ndarray& z0) {
    return sosfilt(s, e, z0, {.axis = -1}).y;
  });
}

// ---------------------------------------------------------------------------------------- lfiltic

namespace {

host_array lfiltic_impl(const array_like& b_in, const array_like& a_in, const array_like& y_in,
                        const array_like* x_in) {
  const std::string F = "cusci::signal::lfiltic";
  host_array a = a_in.to_host(), b = b_in.to_host();
  CUSCI_EXPECTS(a.ndim() <= 1, value_error, F + ": Filter coefficients `a` must be 1-D.");
  CUSCI_EXPECTS(b.ndim() <= 1, value_error, F + ": Filter coefficients `b` must be 1-D.");
  const std::int64_t N = a.size() - 1, M = b.size() - 1, K = std::max(M, N);
  CUSCI_EXPECTS(N >= 0, value_error, F + ": There must be at least one `a` coefficient.");
  host_array y = y_in.to_host();
  std::vector<dtype> dts{b.dtype(), a.dtype(), y.dtype()};
  host_array x;
  if (x_in) {
    x = x_in->to_host();
    dts.push_back(x.dtype());
  }
  dtype rt = detail::zero_phase::promote_all(dts);
  if (!is_inexact(rt)) rt = dtype::float64;
  CUSCI_EXPECTS(N < 1 || y.ndim() >= 1, value_error, F + ": y must be at least 1-D (zero-dimensional arrays cannot be concatenated)");
  CUSCI_EXPECTS(!x_in || M < 1 || x.ndim() >= 1, value_error,
                F + ": x must be at least 1-D (zero-dimensional arrays cannot be concatenated)");
  using detail::zero_phase::cplx;
  const auto bv = detail::zero_phase::as_cplx(b), av = detail::zero_phase::as_cplx(a);
  auto yv = detail::zero_phase::as_cplx(y);
  std::vector<cplx> xv = x_in ? detail::zero_phase::as_cplx(x) : std::vector<cplx>{};
  if (static_cast<std::int64_t>(yv.size()) < N) yv.resize(static_cast<std::size_t>(N), 0.0);
  if (static_cast<std::int64_t>(xv.size()) < M) xv.resize(static_cast<std::size_t>(M), 0.0);
  std::vector<cplx> zi(static_cast<std::size_t>(K), 0.0);
  for (std::int64_t m = 0; m < M; ++m) {
    cplx s = 0;
    for (std::int64_t j = 0; j < M - m; ++j) s += bv[static_cast<std::size_t>(m + 1 + j)] * xv[static_cast<std::size_t>(j)];
    zi[static_cast<std::size_t>(m)] = s;
  }
  for (std::int64_t m = 0; m < N; ++m) {
    cplx s = 0;
    for (std::int64_t j = 0; j < N - m; ++j) s += av[static_cast<std::size_t>(m + 1 + j)] * yv[static_cast<std::size_t>(j)];
    zi[static_cast<std::size_t>(m)] -= s;
  }
  if (av[0] != 1.0) {
    CUSCI_EXPECTS(av[0] != 0.0, value_error, F + ": First `a` filter coefficient must be non-zero.");
    for (auto& v : zi) v /= av[0];
  }
  host_array out = host_array::from(zi, {K});
  return out.astype(rt);
}

}  // namespace

host_array lfiltic(const array_like& b, const array_like& a, const array_like& y) {
  CUSCI_NVTX_SCOPE("cusci::signal::lfiltic");
  return lfiltic_impl(b, a, y, nullptr);
}

host_array lfiltic(const array_like& b, const array_like& a, const array_like& y, const array_like& x) {
  CUSCI_NVTX_SCOPE("cusci::signal::lfiltic");
  return lfiltic_impl(b, a, y, &x);
}

}  // namespace cusci::signal
