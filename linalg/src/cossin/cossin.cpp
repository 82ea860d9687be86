// cusci::linalg::cossin: host work throughout (LAPACK ?orcsd / ?uncsd per matrix, SciPy's assembly of u,
// cs and vdh); the device only holds the inputs and the results.

#include "cusci/linalg/cossin.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "common/host_helpers.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/linalg/lin_alg_error.hpp"

// LAPACK's CS decompositions (Fortran, LP64 integers, six hidden string lengths last).
extern "C" {
#define CUSCI_CSD_HEAD                                                                                          \
  const char *ju1, const char *ju2, const char *jv1, const char *jv2, const char *tr, const char *sg, const int *m, \
      const int *p, const int *q
#define CUSCI_CSD_TAIL std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t
void sorcsd_(CUSCI_CSD_HEAD, float* x11, const int* l11, float* x12, const int* l12, float* x21, const int* l21,
             float* x22, const int* l22, float* theta, float* u1, const int* lu1, float* u2, const int* lu2, float* v1t,
             const int* lv1, float* v2t, const int* lv2, float* work, const int* lwork, int* iwork, int* info,
             CUSCI_CSD_TAIL);
void dorcsd_(CUSCI_CSD_HEAD, double* x11, const int* l11, double* x12, const int* l12, double* x21, const int* l21,
             double* x22, const int* l22, double* theta, double* u1, const int* lu1, double* u2, const int* lu2,
             double* v1t, const int* lv1, double* v2t, const int* lv2, double* work, const int* lwork, int* iwork,
             int* info, CUSCI_CSD_TAIL);
void cuncsd_(CUSCI_CSD_HEAD, std::complex<float>* x11, const int* l11, std::complex<float>* x12, const int* l12,
             std::complex<float>* x21, const int* l21, std::complex<float>* x22, const int* l22, float* theta,
             std::complex<float>* u1, const int* lu1, std::complex<float>* u2, const int* lu2,
             std::complex<float>* v1t, const int* lv1, std::complex<float>* v2t, const int* lv2,
             std::complex<float>* work, const int* lwork, float* rwork, const int* lrwork, int* iwork, int* info,
             CUSCI_CSD_TAIL);
void zuncsd_(CUSCI_CSD_HEAD, std::complex<double>* x11, const int* l11, std::complex<double>* x12, const int* l12,
             std::complex<double>* x21, const int* l21, std::complex<double>* x22, const int* l22, double* theta,
             std::complex<double>* u1, const int* lu1, std::complex<double>* u2, const int* lu2,
             std::complex<double>* v1t, const int* lv1, std::complex<double>* v2t, const int* lv2,
             std::complex<double>* work, const int* lwork, double* rwork, const int* lrwork, int* iwork, int* info,
             CUSCI_CSD_TAIL);
#undef CUSCI_CSD_HEAD
#undef CUSCI_CSD_TAIL
}

namespace cusci::linalg {
namespace {

using i64 = std::int64_t;
using cusci::detail::shape_str;
const std::string fn = "cusci::linalg::cossin";

i64 prod(const shape_t& s) {
  i64 r = 1;
  for (i64 v : s) r *= v;
  return r;
}

/// One block on the host (C order) with its own batch dimensions, read through the broadcast batch.
struct host_block {
  host_array h;
  shape_t own_batch;
  i64 rows = 0, cols = 0;
  /// Offset (in elements) of matrix `b` (flat index over `batch`) of this block.
  i64 offset(i64 b, const shape_t& batch) const {
    i64 off = 0, stride = rows * cols;
    for (std::size_t k = batch.size(); k-- > 0;) {
      const i64 idx = b % batch[k];
      b /= batch[k];
      const std::size_t own = own_batch.size();
      const std::size_t lead = batch.size() - own;
      if (k >= lead) {
        const i64 d = own_batch[k - lead];
        if (d != 1) off += idx * stride;
        stride *= d;
      }
    }
    return off;
  }
};

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };

template <class T>
int call_csd(char ju, char jv, char sg, int m, int p, int q, T* x11, T* x12, T* x21, T* x22,
             typename real_of<T>::type* theta, T* u1, T* u2, T* v1t, T* v2t, std::vector<T>& work,
             std::vector<typename real_of<T>::type>& rwork, std::vector<int>& iwork, bool query) {
  using R = typename real_of<T>::type;
  const char tr = 'N';
  const int l11 = std::max(1, p), l21 = std::max(1, m - p), lu1 = std::max(1, p), lu2 = std::max(1, m - p),
            lv1 = std::max(1, q), lv2 = std::max(1, m - q);
  int lwork = query ? -1 : static_cast<int>(work.size());
  int lrwork = query ? -1 : static_cast<int>(rwork.size());
  int info = 0;
  T wq(0);
  R rq(0);
  T* w = query ? &wq : work.data();
  R* rw = query ? &rq : rwork.data();
  if constexpr (std::is_same_v<T, float>)
    sorcsd_(&ju, &ju, &jv, &jv, &tr, &sg, &m, &p, &q, x11, &l11, x12, &l11, x21, &l21, x22, &l21, theta, u1, &lu1,
            u2, &lu2, v1t, &lv1, v2t, &lv2, w, &lwork, iwork.data(), &info, 1, 1, 1, 1, 1, 1);
  else if constexpr (std::is_same_v<T, double>)
    dorcsd_(&ju, &ju, &jv, &jv, &tr, &sg, &m, &p, &q, x11, &l11, x12, &l11, x21, &l21, x22, &l21, theta, u1, &lu1,
            u2, &lu2, v1t, &lv1, v2t, &lv2, w, &lwork, iwork.data(), &info, 1, 1, 1, 1, 1, 1);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    cuncsd_(&ju, &ju, &jv, &jv, &tr, &sg, &m, &p, &q, x11, &l11, x12, &l11, x21, &l21, x22, &l21, theta, u1, &lu1,
            u2, &lu2, v1t, &lv1, v2t, &lv2, w, &lwork, rw, &lrwork, iwork.data(), &info, 1, 1, 1, 1, 1, 1);
  else
    zuncsd_(&ju, &ju, &jv, &jv, &tr, &sg, &m, &p, &q, x11, &l11, x12, &l11, x21, &l21, x22, &l21, theta, u1, &lu1,
            u2, &lu2, v1t, &lv1, v2t, &lv2, w, &lwork, rw, &lrwork, iwork.data(), &info, 1, 1, 1, 1, 1, 1);
  if (query) {
    work.assign(static_cast<std::size_t>(std::max<R>(R(1), std::real(wq))), T(0));
    rwork.assign(static_cast<std::size_t>(std::max<R>(R(1), rq)), R(0));
  }
  return info;
}

/// C-order block `src` (rows x cols) into column-major `dst`.
template <class T>
void to_colmajor(const T* src, i64 rows, i64 cols, std::vector<T>& dst) {
  dst.assign(static_cast<std::size_t>(std::max<i64>(1, rows * cols)), T(0));
  for (i64 i = 0; i < rows; ++i)
    for (i64 j = 0; j < cols; ++j) dst[static_cast<std::size_t>(j * rows + i)] = src[i * cols + j];
}

/// Column-major k x k `src` into C order at `dst`.
template <class T>
void from_colmajor(const std::vector<T>& src, i64 k, T* dst) {
  for (i64 i = 0; i < k; ++i)
    for (i64 j = 0; j < k; ++j) dst[i * k + j] = src[static_cast<std::size_t>(j * k + i)];
}

template <class T>
cossin_result run(const host_block (&blk)[4], const shape_t& batch, i64 p, i64 q, i64 m, dtype dt,
                  const cossin_options& o) {
  using R = typename real_of<T>::type;
  const dtype rdt = is_complex(dt) ? (dt == dtype::complex64 ? dtype::float32 : dtype::float64) : dt;
  const i64 nb = prod(batch);
  const i64 r = std::min({p, q, m - p, m - q});
  const i64 ku1 = o.compute_u ? p : 0, ku2 = o.compute_u ? m - p : 0;
  const i64 kv1 = o.compute_vh ? q : 0, kv2 = o.compute_vh ? m - q : 0;
  auto shp = [&](std::initializer_list<i64> tail) {
    shape_t s = batch;
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
  };
  host_array hu1(dt, shp({ku1, ku1})), hu2(dt, shp({ku2, ku2})), hv1(dt, shp({kv1, kv1})), hv2(dt, shp({kv2, kv2}));
  host_array hth(rdt, shp({r}));
  const char ju = o.compute_u ? 'Y' : 'N', jv = o.compute_vh ? 'Y' : 'N', sg = o.swap_sign ? 'O' : 'D';
  const int mi = static_cast<int>(m), pi = static_cast<int>(p), qi = static_cast<int>(q);
  std::vector<T> x11, x12, x21, x22, u1(static_cast<std::size_t>(std::max<i64>(1, p * p))),
      u2(static_cast<std::size_t>(std::max<i64>(1, (m - p) * (m - p)))),
      v1(static_cast<std::size_t>(std::max<i64>(1, q * q))),
      v2(static_cast<std::size_t>(std::max<i64>(1, (m - q) * (m - q)))), work;
  std::vector<R> theta(static_cast<std::size_t>(std::max<i64>(1, r))), rwork;
  std::vector<int> iwork(static_cast<std::size_t>(std::max<i64>(1, m)));
  const char* tname = std::is_same_v<T, float>                 ? "s"
                      : std::is_same_v<T, double>              ? "d"
                      : std::is_same_v<T, std::complex<float>> ? "c"
                                                               : "z";
  const std::string method = std::string(tname) + (is_complex(dt) ? "uncsd" : "orcsd");
  const i64 dims[4][2] = {{p, q}, {p, m - q}, {m - p, q}, {m - p, m - q}};
  std::vector<T>* xs[4] = {&x11, &x12, &x21, &x22};
  for (i64 b = 0; b < nb; ++b) {
    for (int k = 0; k < 4; ++k)
      to_colmajor(blk[k].h.data_as<T>() + blk[k].offset(b, batch), dims[k][0], dims[k][1], *xs[k]);
    if (b == 0)
      call_csd<T>(ju, jv, sg, mi, pi, qi, x11.data(), x12.data(), x21.data(), x22.data(), theta.data(), u1.data(),
                  u2.data(), v1.data(), v2.data(), work, rwork, iwork, true);
    const int info = call_csd<T>(ju, jv, sg, mi, pi, qi, x11.data(), x12.data(), x21.data(), x22.data(), theta.data(),
                                 u1.data(), u2.data(), v1.data(), v2.data(), work, rwork, iwork, false);
    if (info < 0)
      throw value_error(fn + ": illegal value in argument " + std::to_string(-info) + " of internal " + method);
    if (info > 0) throw lin_alg_error(fn + ": " + method + " did not converge: " + std::to_string(info));
    std::copy(theta.begin(), theta.begin() + r, hth.data_as<R>() + b * r);
    from_colmajor(u1, ku1, hu1.data_as<T>() + b * ku1 * ku1);
    from_colmajor(u2, ku2, hu2.data_as<T>() + b * ku2 * ku2);
    from_colmajor(v1, kv1, hv1.data_as<T>() + b * kv1 * kv1);
    from_colmajor(v2, kv2, hv2.data_as<T>() + b * kv2 * kv2);
  }
  cossin_result res;
  if (o.separate) {
    res.u1 = asarray(hu1);
    res.u2 = asarray(hu2);
    res.theta = asarray(hth);
    res.v1h = asarray(hv1);
    res.v2h = asarray(hv2);
    return res;
  }
  // SciPy's assembly: U = block_diag(u1, u2), VDH = block_diag(v1h, v2h), and the CS factor.
  auto block_diag = [&](const host_array& a1, i64 k1, const host_array& a2, i64 k2) {
    const i64 k = k1 + k2;
    host_array out(dt, shp({k, k}));
    T* d = out.data_as<T>();
    const T* s1 = a1.data_as<T>();
    const T* s2 = a2.data_as<T>();
    for (i64 b = 0; b < nb; ++b) {
      for (i64 i = 0; i < k1; ++i)
        for (i64 j = 0; j < k1; ++j) d[b * k * k + i * k + j] = s1[b * k1 * k1 + i * k1 + j];
      for (i64 i = 0; i < k2; ++i)
        for (i64 j = 0; j < k2; ++j) d[b * k * k + (k1 + i) * k + k1 + j] = s2[b * k2 * k2 + i * k2 + j];
    }
    return out;
  };
  res.u = asarray(block_diag(hu1, ku1, hu2, ku2));
  res.vdh = asarray(block_diag(hv1, kv1, hv2, kv2));
  host_array hcs(rdt, shp({m, m}));
  R* cs = hcs.data_as<R>();
  const i64 n11 = std::min(p, q) - r, n12 = std::min(p, m - q) - r, n21 = std::min(m - p, q) - r,
            n22 = std::min(m - p, m - q) - r;
  const R sw = o.swap_sign ? R(1) : R(-1);
  for (i64 b = 0; b < nb; ++b) {
    R* c = cs + b * m * m;
    const R* th = hth.data_as<R>() + b * r;
    auto at = [&](i64 i, i64 j) -> R& { return c[i * m + j]; };
    for (i64 i = 0; i < n11; ++i) at(i, i) = 1;
    for (i64 i = 0; i < n12; ++i) at(n11 + r + i, n11 + n21 + n22 + 2 * r + i) = sw;
    for (i64 i = 0; i < n21; ++i) at(p + n22 + r + i, n11 + r + i) = -sw;
    for (i64 i = 0; i < n22; ++i) at(p + i, q + i) = 1;
    for (i64 i = 0; i < r; ++i) {
      const R cv = std::cos(th[i]), sv = std::sin(th[i]);
      at(n11 + i, n11 + i) = cv;
      at(p + n22 + i, n11 + r + n21 + n22 + i) = cv;
      at(n11 + i, n11 + n21 + n22 + r + i) = o.swap_sign ? sv : -sv;
      at(p + n22 + i, n11 + i) = o.swap_sign ? -sv : sv;
    }
  }
  res.cs = asarray(hcs);
  return res;
}

/// Validation of the four blocks (SciPy's _cossin) and the decomposition.
cossin_result decompose(const ndarray (&x)[4], const cossin_options& o, bool check_finite) {
  static const char* names[4] = {"x11", "x12", "x21", "x22"};
  dtype t = x[0].dtype();
  for (int k = 1; k < 4; ++k) t = promote_types(t, x[k].dtype());
  const dtype dt = cusci::linalg::detail::lapack_dtype(t);
  shape_t batch;
  for (int k = 0; k < 4; ++k) {
    const shape_t& s = x[k].shape();
    const shape_t own(s.begin(), s.end() - 2);
    const std::size_t nd = std::max(batch.size(), own.size());
    shape_t r(nd, 1);
    for (std::size_t i = 0; i < nd; ++i) {
      const i64 a = i < nd - batch.size() ? 1 : batch[i - (nd - batch.size())];
      const i64 c = i < nd - own.size() ? 1 : own[i - (nd - own.size())];
      if (a != c && a != 1 && c != 1)
        throw value_error(fn + ": the batch dimensions of the blocks cannot be broadcast together (" + names[k] +
                          " has shape " + shape_str(s) + ")");
      r[i] = a == 1 ? c : a;
    }
    batch = r;
  }
  for (int k = 0; k < 4; ++k)
    if (x[k].shape().back() == 0) throw value_error(fn + ": " + names[k] + " can't be empty");
  const i64 p = x[0].shape()[x[0].ndim() - 2], q = x[0].shape().back();
  const i64 mmp = x[3].shape()[x[3].ndim() - 2], mmq = x[3].shape().back();
  const shape_t s12(x[1].shape().end() - 2, x[1].shape().end()), s21(x[2].shape().end() - 2, x[2].shape().end());
  if (s12 != shape_t{p, mmq})
    throw value_error(fn + ": Invalid x12 dimensions: desired " + shape_str(shape_t{p, mmq}) + ", got " + shape_str(s12));
  if (s21 != shape_t{mmp, q})
    throw value_error(fn + ": Invalid x21 dimensions: desired " + shape_str(shape_t{mmp, q}) + ", got " + shape_str(s21));
  if (p + mmp != q + mmq)
    throw value_error(fn + ": The subblocks have compatible sizes but don't form a square array (instead they form a " +
                      std::to_string(p + mmp) + "x" + std::to_string(q + mmq) +
                      " array). This might be due to missing p, q arguments.");
  const i64 m = p + mmp;
  CUSCI_EXPECTS(m <= 46340, value_error, fn + ": order " + std::to_string(m) + " is too large for LAPACK");
  host_block blk[4];
  for (int k = 0; k < 4; ++k) {
    blk[k].h = to_host(x[k].dtype() == dt ? x[k] : x[k].astype(dt));
    const shape_t& s = x[k].shape();
    blk[k].own_batch.assign(s.begin(), s.end() - 2);
    blk[k].rows = s[s.size() - 2];
    blk[k].cols = s.back();
  }
  if (check_finite) {
    for (int k = 0; k < 4; ++k) {
      const host_array& h = blk[k].h;
      const i64 cnt = h.size() * (is_complex(dt) ? 2 : 1);
      bool bad = false;
      if (dt == dtype::float32 || dt == dtype::complex64) {
        const float* v = static_cast<const float*>(h.data());
        for (i64 i = 0; i < cnt; ++i) bad |= !std::isfinite(v[i]);
      } else {
        const double* v = static_cast<const double*>(h.data());
        for (i64 i = 0; i < cnt; ++i) bad |= !std::isfinite(v[i]);
      }
      if (bad) throw value_error(fn + ": array must not contain infs or NaNs");
    }
  }
  switch (dt) {
    case dtype::float32: return run<float>(blk, batch, p, q, m, dt, o);
    case dtype::float64: return run<double>(blk, batch, p, q, m, dt, o);
    case dtype::complex64: return run<std::complex<float>>(blk, batch, p, q, m, dt, o);
    default: return run<std::complex<double>>(blk, batch, p, q, m, dt, o);
  }
}

ndarray atleast_2d(const ndarray& a) {
  if (a.ndim() >= 2) return a;
  if (a.ndim() == 1) return a.reshape({1, a.shape()[0]});
  return a.reshape({1, 1});
}

}  // namespace

cossin_result cossin(const ndarray& x, const cossin_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cossin");
  const bool has_pq = (o.p && *o.p != 0) || (o.q && *o.q != 0);  // SciPy: `if p or q`
  if (!has_pq) {
    if (x.ndim() == 0)
      throw value_error(fn + ": When p and q are None, X must be an Iterable containing the subblocks of X");
    if (x.shape()[0] != 4)
      throw value_error(fn + ": When p and q are None, exactly four arrays should be in X, got " +
                        std::to_string(x.shape()[0]));
    const ndarray blocks[4] = {atleast_2d(x[0]), atleast_2d(x[1]), atleast_2d(x[2]), atleast_2d(x[3])};
    return decompose(blocks, o, false);
  }
  const i64 p = o.p ? *o.p : 1, q = o.q ? *o.q : 1;
  if (x.ndim() < 2 || x.shape()[x.ndim() - 1] != x.shape()[x.ndim() - 2])
    throw value_error(fn + ": Cosine Sine decomposition only supports square matrices, got shape " +
                      shape_str(x.shape()));
  const i64 m = x.shape()[x.ndim() - 2];
  if (p >= m || p <= 0)
    throw value_error(fn + ": invalid p=" + std::to_string(p) + ", 0<p<" + std::to_string(m) + " must hold");
  if (q >= m || q <= 0)
    throw value_error(fn + ": invalid q=" + std::to_string(q) + ", 0<q<" + std::to_string(m) + " must hold");
  using cusci::ellipsis;
  using cusci::slice;
  const ndarray blocks[4] = {x[{ellipsis, slice{0, p}, slice{0, q}}], x[{ellipsis, slice{0, p}, slice{q, m}}],
                             x[{ellipsis, slice{p, m}, slice{0, q}}], x[{ellipsis, slice{p, m}, slice{q, m}}]};
  return decompose(blocks, o, true);
}

cossin_result cossin(const std::vector<ndarray>& blocks, const cossin_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cossin");
  if (blocks.size() != 4)
    throw value_error(fn + ": When p and q are None, exactly four arrays should be in X, got " +
                      std::to_string(blocks.size()));
  if ((o.p && *o.p != 0) || (o.q && *o.q != 0))
    throw value_error(fn + ": p and q must not be given with the four blocks x11, x12, x21, x22");
  const ndarray b[4] = {atleast_2d(blocks[0]), atleast_2d(blocks[1]), atleast_2d(blocks[2]), atleast_2d(blocks[3])};
  return decompose(b, o, false);
}

}  // namespace cusci::linalg
