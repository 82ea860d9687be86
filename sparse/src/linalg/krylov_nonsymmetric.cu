// scipy.sparse.linalg's bicg, bicgstab, cgs, qmr and tfqmr on the device, SciPy 1.18.1's iterations
// (scipy/sparse/linalg/_isolve/iterative.py, tfqmr.py) step by step.
//
// Every scalar of an iteration (rho, alpha, beta, omega, ...) lives in device memory: a dot product's
// kernel ends with a grid reduction whose last block computes the scalars from the totals (in float64,
// complex128 for complex systems) and runs SciPy's breakdown tests; a failed test writes SciPy's info
// code into a device status word, and every later kernel of the iteration sees it and does nothing,
// so that x keeps its value from before the iteration, as SciPy's early return. The host waits once
// an iteration, for the status word and the residual norm, copied together into pinned memory.
//
// The vector work is written once, as device lambdas run by two kernels (an elementwise pass, and an
// elementwise pass with up to four float64 sums): each solver fuses its updates with the dot
// products and norms that follow them, and applies a Jacobi preconditioner inside those passes
// (mode 1) instead of as a separate product. A csr_matrix A of a real dtype is multiplied with the
// CSR-stream kernel of csr_matrix::dot into preallocated vectors when its rows are short, else with
// csr_matrix::dot; A^H (bicg, qmr) is formed once. With A and M cusci's own, bicgstab and cgs enqueue
// the next iteration's first half, and tfqmr the second half of the current one, before the host
// waits (that work changes neither x nor r; it is wasted once, when the iteration converges).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/checks.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/krylov_nonsymmetric.hpp"
#include "cusci/stream.hpp"
#include "linalg/solver_common.cuh"

namespace cusci::sparse::detail::krylov_nonsymmetric_impl {

using cusci::detail::is_complex_v;
using linalg::krylov_result;
using linalg::linear_operator;
using linalg::solver_detail::contiguous_vector;
using linalg::solver_detail::grid_reduce;
using linalg::solver_detail::rn_add;
using linalg::solver_detail::rn_div;
using linalg::solver_detail::rn_mul;
using linalg::solver_detail::rn_sub;
using linalg::solver_detail::sm_count;

constexpr int kBlock = 256;
constexpr int kMaxSums = 4;  // float64 sums a reduction pass carries at most
constexpr int kEarly = 1;    // bicgstab: converged on norm(s) in the middle of an iteration

/// The status the host reads each iteration (one copy into pinned memory).
struct status_t {
  double rr;  // the convergence quantity of the iteration (see each solver)
  double bb;  // norm(b)^2, written once
  int flag;   // 0, a breakdown code (< 0) or kEarly
  int pad;
};

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<cuda::std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;
/// Device scalar type of a system of dtype T: float64, or complex128.
template <class T> using acc_t = std::conditional_t<is_complex_v<T>, cuda::std::complex<double>, double>;
/// float64 sums a dot product takes.
template <class T> constexpr int W = is_complex_v<T> ? 2 : 1;

template <class V> __host__ __device__ __forceinline__ V conj_(const V& v) {
  if constexpr (is_complex_v<V>) return cuda::std::conj(v);
  else return v;
}
template <class V> __host__ __device__ __forceinline__ double abs_(const V& v) {
  if constexpr (is_complex_v<V>) return cuda::std::abs(v);
  else return fabs(static_cast<double>(v));
}
template <class V> __device__ __forceinline__ double abs2_(const V& v) {
  if constexpr (is_complex_v<V>) {
    const double re = static_cast<double>(v.real()), im = static_cast<double>(v.imag());
    return re * re + im * im;
  } else {
    return static_cast<double>(v) * static_cast<double>(v);
  }
}
/// T -> its device scalar type, and back.
template <class T> __device__ __forceinline__ acc_t<T> up(const T& v) {
  if constexpr (is_complex_v<T>) return acc_t<T>(static_cast<double>(v.real()), static_cast<double>(v.imag()));
  else return static_cast<double>(v);
}
template <class T> __device__ __forceinline__ T down(const acc_t<T>& v) {
  if constexpr (is_complex_v<T>) return T(static_cast<real_t<T>>(v.real()), static_cast<real_t<T>>(v.imag()));
  else return static_cast<T>(v);
}
/// sums[k..] += conj(a) * b (vdot's term), in float64.
template <class T> __device__ __forceinline__ void add_vdot(double* sums, int k, const T& a, const T& b) {
  if constexpr (is_complex_v<T>) {
    const double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    sums[k] += ar * br + ai * bi;
    sums[k + 1] += ar * bi - ai * br;
  } else {
    sums[k] += static_cast<double>(a) * static_cast<double>(b);
  }
}
/// The dot product summed from sums[k..].
template <class T> __device__ __forceinline__ acc_t<T> total(const double* t, int k) {
  if constexpr (is_complex_v<T>) return acc_t<T>(t[k], t[k + 1]);
  else return t[k];
}

// Vector updates round every product and sum on its own, as NumPy does (solver_common.cuh's rn_*):
// the breakdown tests compare against exact zero (bicgstab's and tfqmr's vdot(r~, v) == 0) and a
// contracted a * b + c, rounded once, leaves a 1e-16 residue where NumPy's twice-rounded update
// cancels exactly (bicgstab on [[0, 2], [0, 1]], b = [-1, 1]: p = (p - omega v) beta + r is
// [6, 1.1e-16] with contraction and [6, 0] in NumPy, so rv = -1.1e-16 and no breakdown is seen).

/// a / b as NumPy divides complex numbers (Smith's method with the reciprocal scl = 1 / (br + bi rat),
/// numpy/_core/src/umath/loops: (ar + ai rat) scl, ...), each operation rounded; a real quotient for
/// real V. A complex quotient by a real number is then a * (1 / b), as in NumPy, not a / b.
template <class V> __device__ __forceinline__ V cdiv_(const V& a, const V& b) {
  if constexpr (is_complex_v<V>) {
    const double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const double abr = fabs(br), abi = fabs(bi);
    if (abr >= abi) {
      if (abr == 0 && abi == 0) return V(ar / abr, ai / abi);
      const double rat = rn_div(bi, br);
      const double scl = rn_div(1.0, rn_add(br, rn_mul(bi, rat)));
      return V(rn_mul(rn_add(ar, rn_mul(ai, rat)), scl), rn_mul(rn_sub(ai, rn_mul(ar, rat)), scl));
    }
    const double rat = rn_div(br, bi);
    const double scl = rn_div(1.0, rn_add(bi, rn_mul(br, rat)));
    return V(rn_mul(rn_add(rn_mul(ar, rat), ai), scl), rn_mul(rn_sub(rn_mul(ai, rat), ar), scl));
  } else {
    return a / b;
  }
}
/// The real part (qmr's rho and xi are norms, stored as S).
template <class V> __device__ __forceinline__ double re_(const V& v) {
  if constexpr (is_complex_v<V>) return v.real();
  else return v;
}

struct no_pre {
  __device__ int operator()(int) const { return 0; }
};

// An elementwise pass f(i, flag) over [0, n). It runs when the status word is 0 or `allow`; `pre`
// (evaluated by every thread from device scalars, hence the same everywhere) may return a breakdown
// code, which the pass stores and then does nothing.
template <class Pre, class F>
__global__ void __launch_bounds__(kBlock) k_map(std::int64_t n, int* flag, int allow, Pre pre, F f) {
  const int fl = *flag;
  if (fl != 0 && fl != allow) return;
  const int code = pre(fl);
  if (code != 0) {
    if (blockIdx.x == 0 && threadIdx.x == 0) *flag = code;
    return;
  }
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) f(i, fl);
}

// As k_map, with NV float64 sums f adds to (f(i, sums, flag)), and fin(totals, flag) once at the end.
template <int NV, class Pre, class F, class Fin>
__global__ void __launch_bounds__(kBlock)
    k_reduce(std::int64_t n, int* flag, int allow, Pre pre, F f, Fin fin, double* partials, unsigned* counter) {
  const int fl = *flag;
  if (fl != 0 && fl != allow) return;
  const int code = pre(fl);
  if (code != 0) {
    if (blockIdx.x == 0 && threadIdx.x == 0) *flag = code;
    return;
  }
  double v[NV];
#pragma unroll
  for (int k = 0; k < NV; ++k) v[k] = 0.0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    f(i, v, fl);
  grid_reduce<NV>(v, partials, counter, [&](const double* t) { fin(t, fl); });
}

/// How a preconditioner is applied: 0 identity, 1 diagonal (fused into the passes), 2 an operator.
struct precond {
  int mode = 0;
  const linear_operator* op = nullptr;
  ndarray d;  // mode 1: the diagonal in the system's dtype
};

/// What every solver shares: the operator products, the passes, the status and the history.
template <class T>
struct engine {
  using S = acc_t<T>;
  using R = real_t<T>;
  const char* fn;
  const linear_operator& A;
  dtype xt;
  std::int64_t n;
  cudaStream_t st;
  unsigned grid = 1;
  device_buffer<double> partials;
  device_buffer<unsigned> counter;
  device_buffer<status_t> status;
  device_buffer<S> sc;  // the solver's scalars
  memory_ptr pinned;
  status_t* h = nullptr;
  event ev{true};
  // A as a CSR matrix of the system's dtype (and its conjugate transpose, formed on first use).
  std::optional<csr_matrix> Ax, AH;
  bool stream_spmv = false;
  std::chrono::steady_clock::time_point t0;
  linalg::convergence_history hist;

  engine(const char* f, const linear_operator& a, dtype t, std::int64_t nn, int nslots)
      : fn(f), A(a), xt(t), n(nn), st(get_current_stream()), t0(std::chrono::steady_clock::now()) {
    grid = cusci::detail::grid_for(n, kBlock, static_cast<std::int64_t>(sm_count()) * (2048 / kBlock));
    partials = device_buffer<double>(static_cast<std::size_t>(kMaxSums) * grid, st);
    counter = device_buffer<unsigned>(1, st);
    status = device_buffer<status_t>(1, st);
    sc = device_buffer<S>(static_cast<std::size_t>(nslots), st);
    CUSCI_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned), st));
    CUSCI_CUDA_TRY(cudaMemsetAsync(status.data(), 0, sizeof(status_t), st));
    CUSCI_CUDA_TRY(cudaMemsetAsync(sc.data(), 0, sizeof(S) * static_cast<std::size_t>(nslots), st));
    pinned = pinned_malloc(sizeof(status_t));
    h = static_cast<status_t*>(pinned->ptr());
    if (const csr_matrix* c = A.csr()) {
      Ax = c->dtype() == xt ? *c : c->astype(xt);
      stream_spmv = !is_complex_v<T> && stream_spmv_preferred(n, Ax->nnz());
    }
  }

  int* flag() const { return &status.data()->flag; }
  status_t* stat() const { return status.data(); }
  S* s() const { return sc.data(); }

  template <class F, class Pre = no_pre>
  void map(F f, int allow = 0, Pre pre = {}) {
    k_map<<<grid, kBlock, 0, st>>>(n, flag(), allow, pre, f);
    CUSCI_CHECK_LAUNCH();
  }
  template <int NV, class F, class Fin, class Pre = no_pre>
  void reduce(F f, Fin fin, int allow = 0, Pre pre = {}) {
    static_assert(NV <= kMaxSums, "too many sums for the partials buffer");
    k_reduce<NV><<<grid, kBlock, 0, st>>>(n, flag(), allow, pre, f, fin, partials.data(), counter.data());
    CUSCI_CHECK_LAUNCH();
  }

  ndarray vec() const { return empty({n}, xt); }

  /// y = A x (y [n] of the system's dtype; reallocated unless the CSR-stream kernel writes into it).
  void amul(const ndarray& x, ndarray& y) {
    if (stream_spmv) {
      if (y.data() == nullptr || y.size() != n || y.dtype() != xt) y = vec();
      csr_spmv_stream(Ax->data(), Ax->indices(), Ax->indptr(), n, x, y);
    } else if (Ax) {
      y = contiguous_vector(Ax->dot(x), xt, n, false);
    } else {
      y = contiguous_vector(A.matvec(x), xt, n, false);
    }
  }
  /// y = A^H x.
  void ahmul(const ndarray& x, ndarray& y) {
    if (Ax) {
      if (!AH) AH = conj_transpose(spmatrix(*Ax)).tocsr();
      y = contiguous_vector(AH->dot(x), xt, n, false);
    } else {
      y = contiguous_vector(A.rmatvec(x), xt, n, false);
    }
  }
  /// y = M x (mode 0: y shares x; mode 1: a pass; mode 2: M's matvec), or M^H x with `adjoint`.
  void papply(const precond& M, const ndarray& x, ndarray& y, bool adjoint = false) {
    if (M.mode == 0) {
      y = x;
    } else if (M.mode == 1) {
      if (y.data() == nullptr || y.size() != n || y.dtype() != xt || y.data() == x.data()) y = vec();
      const T* d = M.d.template data_as<T>();
      const T* xp = x.template data_as<T>();
      T* yp = y.template data_as<T>();
      map([=] __device__(std::int64_t i, int) { yp[i] = conj_(d[i]) * xp[i]; });  // real d: conj_ is d
    } else {
      y = contiguous_vector(adjoint ? M.op->rmatvec(x) : M.op->matvec(x), xt, n, false);
    }
  }

  /// Copies the status to pinned memory and records the event the host waits on.
  void post() {
    CUSCI_CUDA_TRY(cudaMemcpyAsync(h, status.data(), sizeof(status_t), cudaMemcpyDeviceToHost, st));
    ev.record(st);
  }
  status_t wait() {
    ev.synchronize();
    return *h;
  }
  void record(double v) {
    hist.residual_norms.push_back(v);
    hist.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  krylov_result result(ndarray x, std::int64_t info, std::int64_t iterations) {
    krylov_result r;
    r.x = std::move(x);
    r.info = info;
    r.iterations = iterations;
    r.history = std::move(hist);
    return r;
  }

  /// r = b - A x0 (or a copy of b), with norm(b)^2 into status.bb; returns r.
  ndarray residual0(const ndarray& b, const std::optional<ndarray>& x0, ndarray& x) {
    ndarray r = vec();
    T* rp = r.template data_as<T>();
    const T* bp = b.template data_as<T>();
    status_t* stp = stat();
    if (x0) {
      x = contiguous_vector(*x0, xt, n, true);
      ndarray ax;
      amul(x, ax);
      const T* axp = ax.template data_as<T>();
      reduce<1>([=] __device__(std::int64_t i, double* v, int) {
        const T bi = bp[i];
        rp[i] = bi - axp[i];
        v[0] += abs2_(bi);
      }, [=] __device__(const double* t, int) { stp->bb = t[0]; });
    } else {
      x = zeros({n}, xt);
      reduce<1>([=] __device__(std::int64_t i, double* v, int) {
        const T bi = bp[i];
        rp[i] = bi;
        v[0] += abs2_(bi);
      }, [=] __device__(const double* t, int) { stp->bb = t[0]; });
    }
    return r;
  }
};

/// Arguments of every solver after the checks.
struct args {
  const char* fn;
  const linear_operator& A;
  const ndarray& b;
  const std::optional<ndarray>& x0;
  double rtol, atol;
  std::int64_t maxiter;
  const std::function<void(const ndarray&)>& callback;
};

template <class T>
precond make_precond(const std::optional<linear_operator>& M, dtype xt, std::int64_t n) {
  precond p;
  if (!M) return p;
  if (const ndarray* d = M->diagonal_values(); d && !is_complex(d->dtype())) {
    p.mode = 1;
    p.d = contiguous_vector(*d, xt, n, false);
  } else {
    p.mode = 2;
    p.op = &*M;
  }
  return p;
}

// ------------------------------------------------------------------------------------------------
// bicg

template <class T>
krylov_result solve_bicg(const args& a, const std::optional<linear_operator>& Mopt, dtype xt) {
  using S = acc_t<T>;
  const std::int64_t n = a.A.shape()[0];
  enum { RHO, RHO_PREV, BETA, ALPHA, NSLOTS };
  engine<T> e(a.fn, a.A, xt, n, NSLOTS);
  const precond M = make_precond<T>(Mopt, xt, n);
  const double rhotol = static_cast<double>(std::numeric_limits<real_t<T>>::epsilon()) *
                        static_cast<double>(std::numeric_limits<real_t<T>>::epsilon());
  ndarray bv = contiguous_vector(a.b, xt, n, false), x;
  ndarray r = e.residual0(bv, a.x0, x);
  ndarray rt = r.copy(), p = e.vec(), pt = e.vec(), q = e.vec(), qt = e.vec(), z, zt;
  S* s = e.s();
  status_t* stp = e.stat();
  int* flag = e.flag();
  {
    const T* rp = r.template data_as<T>();
    e.template reduce<1>([=] __device__(std::int64_t i, double* v, int) { v[0] += abs2_(rp[i]); },
                         [=] __device__(const double* t, int) { stp->rr = t[0]; });
  }
  e.post();
  status_t h = e.wait();
  if (h.bb == 0) return e.result(zeros({n}, xt), 0, 0);
  const double atol = std::max(a.atol, a.rtol * std::sqrt(h.bb));
  double rnorm = std::sqrt(h.rr);
  e.record(rnorm);
  const int mode = M.mode;
  const T* d = mode == 1 ? M.d.template data_as<T>() : nullptr;
  for (std::int64_t it = 0; it < a.maxiter; ++it) {
    if (rnorm < atol) return e.result(x, 0, it);
    if (mode == 2) {
      e.papply(M, r, z);
      e.papply(M, rt, zt, true);
    }
    const bool first = it == 0;
    T *rp = r.template data_as<T>(), *rtp = rt.template data_as<T>(), *pp = p.template data_as<T>(),
      *ptp = pt.template data_as<T>(), *xp = x.template data_as<T>();
    const T* zp = mode == 2 ? z.template data_as<T>() : nullptr;
    const T* ztp = mode == 2 ? zt.template data_as<T>() : nullptr;
    // rho = vdot(r~, z); breakdown -10; beta = rho / rho_prev.
    e.template reduce<W<T>>(
        [=] __device__(std::int64_t i, double* v, int) {
          const T zi = mode == 0 ? rp[i] : mode == 1 ? d[i] * rp[i] : zp[i];
          add_vdot(v, 0, rtp[i], zi);
        },
        [=] __device__(const double* t, int) {
          const S rho = total<T>(t, 0);
          s[RHO] = rho;
          if (abs_(rho) < rhotol) *flag = -10;
          else if (!first) s[BETA] = cdiv_(rho, s[RHO_PREV]);
        });
    // p = z + beta p, p~ = z~ + conj(beta) p~.
    e.map([=] __device__(std::int64_t i, int) {
      const T zi = mode == 0 ? rp[i] : mode == 1 ? d[i] * rp[i] : zp[i];
      const T zti = mode == 0 ? rtp[i] : mode == 1 ? conj_(d[i]) * rtp[i] : ztp[i];
      if (first) {
        pp[i] = zi;
        ptp[i] = zti;
      } else {
        const T beta = down<T>(s[BETA]);
        pp[i] = rn_add(rn_mul(pp[i], beta), zi);  // p *= beta; p += z
        ptp[i] = rn_add(rn_mul(ptp[i], conj_(beta)), zti);
      }
    });
    e.amul(p, q);
    e.ahmul(pt, qt);
    const T *qp = q.template data_as<T>(), *qtp = qt.template data_as<T>();
    // alpha = rho / vdot(p~, q); breakdown -11.
    e.template reduce<W<T>>([=] __device__(std::int64_t i, double* v, int) { add_vdot(v, 0, ptp[i], qp[i]); },
                            [=] __device__(const double* t, int) {
                              const S rv = total<T>(t, 0);
                              if (rv == S(0)) {
                                *flag = -11;
                                return;
                              }
                              s[ALPHA] = cdiv_(s[RHO], rv);
                              s[RHO_PREV] = s[RHO];
                            });
    // x += alpha p, r -= alpha q, r~ -= conj(alpha) q~; norm(r)^2.
    e.template reduce<1>(
        [=] __device__(std::int64_t i, double* v, int) {
          const T alpha = down<T>(s[ALPHA]);
          xp[i] = rn_add(xp[i], rn_mul(alpha, pp[i]));
          const T ri = rn_sub(rp[i], rn_mul(alpha, qp[i]));
          rp[i] = ri;
          rtp[i] = rn_sub(rtp[i], rn_mul(conj_(alpha), qtp[i]));
          v[0] += abs2_(ri);
        },
        [=] __device__(const double* t, int) { stp->rr = t[0]; });
    e.post();
    h = e.wait();
    if (h.flag != 0) return e.result(x, h.flag, it);
    rnorm = std::sqrt(h.rr);
    e.record(rnorm);
    if (a.callback) a.callback(x);
  }
  return e.result(x, a.maxiter, std::max<std::int64_t>(a.maxiter, 0));
}

// ------------------------------------------------------------------------------------------------
// bicgstab

template <class T>
krylov_result solve_bicgstab(const args& a, const std::optional<linear_operator>& Mopt, dtype xt) {
  using S = acc_t<T>;
  const std::int64_t n = a.A.shape()[0];
  enum { RHO, RHO_PREV, ALPHA, OMEGA, NSLOTS };
  engine<T> e(a.fn, a.A, xt, n, NSLOTS);
  const precond M = make_precond<T>(Mopt, xt, n);
  const double rhotol = static_cast<double>(std::numeric_limits<real_t<T>>::epsilon()) *
                        static_cast<double>(std::numeric_limits<real_t<T>>::epsilon());
  const double omegatol = rhotol;
  ndarray bv = contiguous_vector(a.b, xt, n, false), x;
  ndarray r = e.residual0(bv, a.x0, x);
  ndarray rt = r.copy(), p = e.vec(), v = e.vec(), t = e.vec(), phat, shat;
  S* s = e.s();
  status_t* stp = e.stat();
  int* flag = e.flag();
  {
    const T* rp = r.template data_as<T>();
    // rho of the first iteration is vdot(r~, r) = norm(r)^2 (r~ = r).
    e.template reduce<1>([=] __device__(std::int64_t i, double* w, int) { w[0] += abs2_(rp[i]); },
                         [=] __device__(const double* tt, int) {
                           stp->rr = tt[0];
                           s[RHO] = S(tt[0]);
                         });
  }
  e.post();
  status_t h = e.wait();
  if (h.bb == 0) return e.result(zeros({n}, xt), 0, 0);
  const double atol = std::max(a.atol, a.rtol * std::sqrt(h.bb));
  double rnorm = std::sqrt(h.rr);
  e.record(rnorm);
  const int mode = M.mode;
  const T* d = mode == 1 ? M.d.template data_as<T>() : nullptr;
  if (mode != 0) {
    phat = e.vec();
    shat = e.vec();
  }
  // The first half of iteration k: the breakdown tests on rho (-10) and omega (-11), p = r + beta
  // (p - omega v), p^ = M p, v = A p^. It changes neither x nor r: with A and M cusci's own, the next
  // iteration's is enqueued before the host waits for this one's convergence test (wasted once, at
  // the end), so that the GPU does not idle during the wait.
  const bool speculate = e.Ax.has_value() && mode != 2;
  auto front = [&](std::int64_t k) {
    const bool first = k == 0;
    T *rp = r.template data_as<T>(), *pp = p.template data_as<T>(), *vp = v.template data_as<T>();
    T* php = mode == 1 ? phat.template data_as<T>() : nullptr;
    e.map(
        [=] __device__(std::int64_t i, int) {
          T pi;
          if (first) {
            pi = rp[i];
          } else {
            const T beta = down<T>(rn_mul(cdiv_(s[RHO], s[RHO_PREV]), cdiv_(s[ALPHA], s[OMEGA])));
            pi = rn_add(rn_mul(rn_sub(pp[i], rn_mul(down<T>(s[OMEGA]), vp[i])), beta), rp[i]);
          }
          pp[i] = pi;
          if (mode == 1) php[i] = rn_mul(d[i], pi);
        },
        0,
        [=] __device__(int) {
          if (abs_(s[RHO]) < rhotol) return -10;
          if (!first && abs_(s[OMEGA]) < omegatol) return -11;
          return 0;
        });
    if (mode == 0) phat = p;
    else if (mode == 2) e.papply(M, p, phat);
    e.amul(phat, v);
  };
  for (std::int64_t it = 0; it < a.maxiter; ++it) {
    if (rnorm < atol) return e.result(x, 0, it);
    if (!speculate || it == 0) front(it);
    T *rp = r.template data_as<T>(), *xp = x.template data_as<T>();
    const T* rtp = rt.template data_as<T>();
    const T* vp = v.template data_as<T>();
    // alpha = rho / vdot(r~, v); breakdown -11.
    e.template reduce<W<T>>([=] __device__(std::int64_t i, double* w, int) { add_vdot(w, 0, rtp[i], vp[i]); },
                            [=] __device__(const double* tt, int) {
                              const S rv = total<T>(tt, 0);
                              if (rv == S(0)) {
                                *flag = -11;
                                return;
                              }
                              s[ALPHA] = cdiv_(s[RHO], rv);
                            });
    // s = r - alpha v (in r); norm(s) < atol ends the iteration early.
    T* shp = mode == 1 ? shat.template data_as<T>() : nullptr;
    e.template reduce<1>(
        [=] __device__(std::int64_t i, double* w, int) {
          const T si = rn_sub(rp[i], rn_mul(down<T>(s[ALPHA]), vp[i]));
          rp[i] = si;
          if (mode == 1) shp[i] = rn_mul(d[i], si);
          w[0] += abs2_(si);
        },
        [=] __device__(const double* tt, int) {
          stp->rr = tt[0];
          if (sqrt(tt[0]) < atol) *flag = kEarly;
        });
    if (mode == 0) shat = r;
    else if (mode == 2) e.papply(M, r, shat);
    e.amul(shat, t);
    const T* tp = t.template data_as<T>();
    // omega = vdot(t, s) / vdot(t, t).
    e.template reduce<1 + W<T>>(
        [=] __device__(std::int64_t i, double* w, int) {
          const T ti = tp[i];
          w[0] += abs2_(ti);
          add_vdot(w, 1, ti, rp[i]);
        },
        [=] __device__(const double* tt, int) { s[OMEGA] = cdiv_(total<T>(tt, 1), S(tt[0])); });
    // x += alpha p^ + omega s^, r = s - omega t; norm(r)^2 and the next rho = vdot(r~, r). After an
    // early end (flag kEarly): x += alpha p^ only.
    const T* phc = phat.template data_as<T>();
    const T* shc = shat.template data_as<T>();
    e.template reduce<1 + W<T>>(
        [=] __device__(std::int64_t i, double* w, int fl) {
          const T alpha = down<T>(s[ALPHA]);
          if (fl == kEarly) {
            xp[i] = rn_add(xp[i], rn_mul(alpha, phc[i]));
            return;
          }
          const T omega = down<T>(s[OMEGA]);
          const T si = rp[i];
          const T shi = mode == 0 ? si : shc[i];
          xp[i] = rn_add(rn_add(xp[i], rn_mul(alpha, phc[i])), rn_mul(omega, shi));
          const T ri = rn_sub(si, rn_mul(omega, tp[i]));
          rp[i] = ri;
          w[0] += abs2_(ri);
          add_vdot(w, 1, rtp[i], ri);
        },
        [=] __device__(const double* tt, int fl) {
          if (fl == kEarly) return;
          stp->rr = tt[0];
          s[RHO_PREV] = s[RHO];
          s[RHO] = total<T>(tt, 1);
        },
        kEarly);
    e.post();
    if (speculate && it + 1 < a.maxiter) front(it + 1);
    h = e.wait();
    if (h.flag == kEarly) {
      e.record(std::sqrt(h.rr));
      return e.result(x, 0, it);
    }
    if (h.flag != 0) return e.result(x, h.flag, it);
    rnorm = std::sqrt(h.rr);
    e.record(rnorm);
    if (a.callback) a.callback(x);
  }
  return e.result(x, a.maxiter, std::max<std::int64_t>(a.maxiter, 0));
}

// ------------------------------------------------------------------------------------------------
// cgs

template <class T>
krylov_result solve_cgs(const args& a, const std::optional<linear_operator>& Mopt, dtype xt) {
  using S = acc_t<T>;
  const std::int64_t n = a.A.shape()[0];
  enum { RHO, RHO_PREV, ALPHA, NSLOTS };
  engine<T> e(a.fn, a.A, xt, n, NSLOTS);
  const precond M = make_precond<T>(Mopt, xt, n);
  const double rhotol = static_cast<double>(std::numeric_limits<real_t<T>>::epsilon()) *
                        static_cast<double>(std::numeric_limits<real_t<T>>::epsilon());
  ndarray bv = contiguous_vector(a.b, xt, n, false), x;
  ndarray r = e.residual0(bv, a.x0, x);
  ndarray rt = r.copy(), p = e.vec(), u = e.vec(), q = e.vec(), vhat = e.vec(), ax = e.vec(), phat, w, uhat;
  S* s = e.s();
  status_t* stp = e.stat();
  int* flag = e.flag();
  {
    const T* rp = r.template data_as<T>();
    e.template reduce<1>([=] __device__(std::int64_t i, double* v, int) { v[0] += abs2_(rp[i]); },
                         [=] __device__(const double* t, int) {
                           stp->rr = t[0];
                           s[RHO] = S(t[0]);
                         });
  }
  e.post();
  status_t h = e.wait();
  if (h.bb == 0) return e.result(zeros({n}, xt), 0, 0);
  const double atol = std::max(a.atol, a.rtol * std::sqrt(h.bb));
  double rnorm = std::sqrt(h.rr);
  e.record(rnorm);
  const int mode = M.mode;
  const T* d = mode == 1 ? M.d.template data_as<T>() : nullptr;
  if (mode == 1) phat = e.vec();
  if (mode == 2) w = e.vec();
  const T* bp = bv.template data_as<T>();
  // The first half of iteration k: the breakdown test on rho (-10), u = r + beta q, p = u + beta (q +
  // beta p), p^ = M p, v^ = A p^. It changes neither x nor r: with A and M cusci's own, the next
  // iteration's is enqueued before the host waits (as in bicgstab).
  const bool speculate = e.Ax.has_value() && mode != 2;
  auto front = [&](std::int64_t k) {
    const bool first = k == 0;
    T *rp = r.template data_as<T>(), *pp = p.template data_as<T>(), *up_ = u.template data_as<T>(),
      *qp = q.template data_as<T>();
    T* php = mode == 1 ? phat.template data_as<T>() : nullptr;
    e.map(
        [=] __device__(std::int64_t i, int) {
          const T ri = rp[i];
          T pi, ui;
          if (first) {
            pi = ri;
            ui = ri;
          } else {
            const T beta = down<T>(cdiv_(s[RHO], s[RHO_PREV]));
            const T qi = qp[i];
            ui = ri + beta * qi;
            pi = (pp[i] * beta + qi) * beta + ui;
          }
          up_[i] = ui;
          pp[i] = pi;
          if (mode == 1) php[i] = d[i] * pi;
        },
        0, [=] __device__(int) { return abs_(s[RHO]) < rhotol ? -10 : 0; });
    if (mode == 0) phat = p;
    else if (mode == 2) e.papply(M, p, phat);
    e.amul(phat, vhat);
  };
  for (std::int64_t it = 0; it < a.maxiter; ++it) {
    if (rnorm < atol) return e.result(x, 0, it);
    if (!speculate || it == 0) front(it);
    T *rp = r.template data_as<T>(), *up_ = u.template data_as<T>(), *qp = q.template data_as<T>(),
      *xp = x.template data_as<T>();
    const T* rtp = rt.template data_as<T>();
    const T* vp = vhat.template data_as<T>();
    // alpha = rho / vdot(r~, v^); breakdown -11.
    e.template reduce<W<T>>([=] __device__(std::int64_t i, double* v, int) { add_vdot(v, 0, rtp[i], vp[i]); },
                            [=] __device__(const double* t, int) {
                              const S rv = total<T>(t, 0);
                              if (rv == S(0)) {
                                *flag = -11;
                                return;
                              }
                              s[ALPHA] = cdiv_(s[RHO], rv);
                            });
    // q = u - alpha v^; u^ = M (u + q); x += alpha u^ (fused unless M is an operator).
    T* wp = mode == 2 ? w.template data_as<T>() : nullptr;
    e.map([=] __device__(std::int64_t i, int) {
      const T alpha = down<T>(s[ALPHA]);
      const T ui = up_[i];
      const T qi = ui - alpha * vp[i];
      qp[i] = qi;
      const T wi = ui + qi;
      if (mode == 0) xp[i] += alpha * wi;
      else if (mode == 1) xp[i] += alpha * (d[i] * wi);
      else wp[i] = wi;
    });
    if (mode == 2) {
      e.papply(M, w, uhat);
      const T* uhp = uhat.template data_as<T>();
      e.map([=] __device__(std::int64_t i, int) { xp[i] += down<T>(s[ALPHA]) * uhp[i]; });
    }
    // r = b - A x; norm(r)^2 and the next rho = vdot(r~, r).
    e.amul(x, ax);
    const T* axp = ax.template data_as<T>();
    e.template reduce<1 + W<T>>(
        [=] __device__(std::int64_t i, double* v, int) {
          const T ri = bp[i] - axp[i];
          rp[i] = ri;
          v[0] += abs2_(ri);
          add_vdot(v, 1, rtp[i], ri);
        },
        [=] __device__(const double* t, int) {
          stp->rr = t[0];
          s[RHO_PREV] = s[RHO];
          s[RHO] = total<T>(t, 1);
        });
    e.post();
    if (speculate && it + 1 < a.maxiter) front(it + 1);
    h = e.wait();
    if (h.flag != 0) return e.result(x, h.flag, it);
    rnorm = std::sqrt(h.rr);
    e.record(rnorm);
    if (a.callback) a.callback(x);
  }
  return e.result(x, a.maxiter, std::max<std::int64_t>(a.maxiter, 0));
}

// ------------------------------------------------------------------------------------------------
// qmr

template <class T>
krylov_result solve_qmr(const args& a, const std::optional<linear_operator>& M1opt,
                        const std::optional<linear_operator>& M2opt, dtype xt) {
  using S = acc_t<T>;
  const std::int64_t n = a.A.shape()[0];
  enum { RHO, XI, DELTA, EPS, BETA, GAMMA, ETA, THETA, COEF, NSLOTS };
  engine<T> e(a.fn, a.A, xt, n, NSLOTS);
  // Identity (shares the vector, as SciPy's identity operator) or an operator: the diagonal case is
  // not fused here (a diagonal M1/M2 is applied through its matvec).
  precond M1, M2;
  if (M1opt) {
    M1.mode = 2;
    M1.op = &*M1opt;
  }
  if (M2opt) {
    M2.mode = 2;
    M2.op = &*M2opt;
  }
  const double tol = static_cast<double>(std::numeric_limits<real_t<T>>::epsilon());
  ndarray bv = contiguous_vector(a.b, xt, n, false), x;
  ndarray r = e.residual0(bv, a.x0, x);
  ndarray vt = r.copy(), wt = r.copy(), v = e.vec(), w = e.vec(), p = e.vec(), q = e.vec(), dd = e.vec(),
          ss = e.vec(), y, z, ytl, ztl, ptl, aq;
  e.papply(M1, vt, y);
  e.papply(M2, wt, z, true);
  S* s = e.s();
  status_t* stp = e.stat();
  int* flag = e.flag();
  {
    const T *rp = r.template data_as<T>(), *yp = y.template data_as<T>(), *zp = z.template data_as<T>();
    e.template reduce<3>(
        [=] __device__(std::int64_t i, double* vv, int) {
          vv[0] += abs2_(rp[i]);
          vv[1] += abs2_(yp[i]);
          vv[2] += abs2_(zp[i]);
        },
        [=] __device__(const double* t, int) {
          stp->rr = t[0];
          s[RHO] = S(sqrt(t[1]));
          s[XI] = S(sqrt(t[2]));
          s[GAMMA] = S(1.0);
          s[ETA] = S(-1.0);
          s[THETA] = S(0.0);
        });
  }
  e.post();
  status_t h = e.wait();
  if (h.bb == 0) return e.result(zeros({n}, xt), 0, 0);
  const double atol = std::max(a.atol, a.rtol * std::sqrt(h.bb));
  double rnorm = std::sqrt(h.rr);
  e.record(rnorm);
  for (std::int64_t it = 0; it < a.maxiter; ++it) {
    if (rnorm < atol) return e.result(x, 0, it);
    const bool first = it == 0;
    {
      // Breakdown tests on rho (-10), xi (-15); v = vt / rho, y /= rho, w = wt / xi, z /= xi (y may
      // share vt, z wt: each element is read before it is written); delta = vdot(z, y), -13.
      T *vtp = vt.template data_as<T>(), *wtp = wt.template data_as<T>(), *vp = v.template data_as<T>(),
        *wp = w.template data_as<T>(), *yp = y.template data_as<T>(), *zp = z.template data_as<T>();
      e.template reduce<W<T>>(
          [=] __device__(std::int64_t i, double* vv, int) {
            // SciPy: v *= (1 / rho) with rho, xi real norms: a real reciprocal, then the products.
            const T ir = down<T>(S(1.0 / re_(s[RHO]))), ix = down<T>(S(1.0 / re_(s[XI])));
            const T vti = vtp[i], yi = yp[i], wti = wtp[i], zi = zp[i];
            vp[i] = rn_mul(vti, ir);
            const T yn = rn_mul(yi, ir);
            yp[i] = yn;
            wp[i] = rn_mul(wti, ix);
            const T zn = rn_mul(zi, ix);
            zp[i] = zn;
            add_vdot(vv, 0, zn, yn);
          },
          [=] __device__(const double* t, int) {
            const S delta = total<T>(t, 0);
            s[DELTA] = delta;
            if (abs_(delta) < tol) *flag = -13;
          },
          0,
          [=] __device__(int) {
            if (abs_(s[RHO]) < tol) return -10;
            if (abs_(s[XI]) < tol) return -15;
            return 0;
          });
    }
    e.papply(M2, y, ytl);
    e.papply(M1, z, ztl, true);
    {
      // p = y~ - (xi delta / eps) p, q = z~ - (rho conj(delta / eps)) q.
      T *pp = p.template data_as<T>(), *qp = q.template data_as<T>();
      const T *ytp = ytl.template data_as<T>(), *ztp = ztl.template data_as<T>();
      e.map([=] __device__(std::int64_t i, int) {
        if (first) {
          pp[i] = ytp[i];
          qp[i] = ztp[i];
        } else {
          // SciPy: (xi * delta / epsilon) and (rho * (delta / epsilon).conj()), left to right.
          const T cp = down<T>(cdiv_(rn_mul(s[XI], s[DELTA]), s[EPS]));
          const T cq = down<T>(rn_mul(s[RHO], conj_(cdiv_(s[DELTA], s[EPS]))));
          pp[i] = rn_sub(ytp[i], rn_mul(cp, pp[i]));
          qp[i] = rn_sub(ztp[i], rn_mul(cq, qp[i]));
        }
      });
    }
    e.amul(p, ptl);
    e.ahmul(q, aq);
    {
      // eps = vdot(q, p~), -14; beta = eps / delta, -11.
      const T *qp = q.template data_as<T>(), *ptp = ptl.template data_as<T>();
      e.template reduce<W<T>>([=] __device__(std::int64_t i, double* vv, int) { add_vdot(vv, 0, qp[i], ptp[i]); },
                              [=] __device__(const double* t, int) {
                                const S eps = total<T>(t, 0);
                                s[EPS] = eps;
                                if (abs_(eps) < tol) {
                                  *flag = -14;
                                  return;
                                }
                                const S beta = cdiv_(eps, s[DELTA]);
                                s[BETA] = beta;
                                if (abs_(beta) < tol) *flag = -11;
                              });
    }
    {
      // vt = p~ - beta v, wt = A^H q - conj(beta) w.
      T *vtp = vt.template data_as<T>(), *wtp = wt.template data_as<T>();
      const T *vp = v.template data_as<T>(), *wp = w.template data_as<T>(), *ptp = ptl.template data_as<T>(),
              *aqp = aq.template data_as<T>();
      e.map([=] __device__(std::int64_t i, int) {
        const T beta = down<T>(s[BETA]);
        vtp[i] = rn_sub(ptp[i], rn_mul(beta, vp[i]));
        wtp[i] = rn_add(rn_mul(wp[i], -conj_(beta)), aqp[i]);
      });
    }
    e.papply(M1, vt, y);
    e.papply(M2, wt, z, true);
    {
      // rho = norm(y), xi = norm(z); theta, gamma (-12), eta and the d/s coefficient.
      const T *yp = y.template data_as<T>(), *zp = z.template data_as<T>();
      e.template reduce<2>(
          [=] __device__(std::int64_t i, double* vv, int) {
            vv[0] += abs2_(yp[i]);
            vv[1] += abs2_(zp[i]);
          },
          [=] __device__(const double* t, int) {
            const double rho_prev = abs_(s[RHO]);  // rho is real
            const double rho = sqrt(t[0]);
            s[RHO] = S(rho);
            s[XI] = S(sqrt(t[1]));
            const double gamma_prev = abs_(s[GAMMA]), theta_prev = abs_(s[THETA]);
            const S beta = s[BETA];
            const double theta = rho / (gamma_prev * abs_(beta));
            const double gamma = 1.0 / sqrt(1.0 + theta * theta);
            s[THETA] = S(theta);
            s[GAMMA] = S(gamma);
            if (fabs(gamma) < tol) {
              *flag = -12;
              return;
            }
            const double g = gamma / gamma_prev;
            s[ETA] = rn_mul(s[ETA], rn_mul(-cdiv_(S(rho_prev), beta), S(g * g)));
            const double c = theta_prev * gamma;
            s[COEF] = S(c * c);
          });
    }
    {
      // d = coef d + eta p, s = coef s + eta p~; x += d, r -= s; norm(r)^2.
      T *dp = dd.template data_as<T>(), *sp = ss.template data_as<T>(), *xp = x.template data_as<T>(),
        *rp = r.template data_as<T>();
      const T *pp = p.template data_as<T>(), *ptp = ptl.template data_as<T>();
      e.template reduce<1>(
          [=] __device__(std::int64_t i, double* vv, int) {
            const T eta = down<T>(s[ETA]);
            T di, si;
            if (first) {
              di = rn_mul(pp[i], eta);  // d = p.copy(); d *= eta
              si = rn_mul(ptp[i], eta);
            } else {
              const T c = down<T>(s[COEF]);
              di = rn_add(rn_mul(dp[i], c), rn_mul(eta, pp[i]));
              si = rn_add(rn_mul(sp[i], c), rn_mul(eta, ptp[i]));
            }
            dp[i] = di;
            sp[i] = si;
            xp[i] = rn_add(xp[i], di);
            const T ri = rn_sub(rp[i], si);
            rp[i] = ri;
            vv[0] += abs2_(ri);
          },
          [=] __device__(const double* t, int) { stp->rr = t[0]; });
    }
    e.post();
    h = e.wait();
    if (h.flag != 0) return e.result(x, h.flag, it);
    rnorm = std::sqrt(h.rr);
    e.record(rnorm);
    if (a.callback) a.callback(x);
  }
  return e.result(x, a.maxiter, std::max<std::int64_t>(a.maxiter, 0));
}

// ------------------------------------------------------------------------------------------------
// tfqmr

template <class T>
krylov_result solve_tfqmr(const args& a, const std::optional<linear_operator>& Mopt, dtype xt, bool show) {
  using S = acc_t<T>;
  const std::int64_t n = a.A.shape()[0];
  enum { RHO, RHOLAST, ALPHA, THETA, ETA, TAU, BETA, NSLOTS };
  engine<T> e(a.fn, a.A, xt, n, NSLOTS);
  const precond M = make_precond<T>(Mopt, xt, n);
  ndarray bv = contiguous_vector(a.b, xt, n, false), x;
  ndarray r = e.residual0(bv, a.x0, x);  // r* = r0, never changed
  ndarray u = r.copy(), w = r.copy(), unext = e.vec(), d = zeros({n}, xt), v = e.vec(), uhat = e.vec(), tmp, z;
  S* s = e.s();
  status_t* stp = e.stat();
  int* flag = e.flag();
  const int mode = M.mode;
  const T* dg = mode == 1 ? M.d.template data_as<T>() : nullptr;
  // uhat = M tmp (mode 0: the buffers are exchanged; tmp is scratch).
  auto precondition = [&](ndarray& out) {
    if (mode == 0) {
      std::swap(out, tmp);
    } else if (mode == 1) {
      const T* tp = tmp.template data_as<T>();
      T* op = out.template data_as<T>();
      e.map([=] __device__(std::int64_t i, int) { op[i] = dg[i] * tp[i]; });
    } else {
      out = contiguous_vector(M.op->matvec(tmp), xt, n, false);
    }
  };
  tmp = e.vec();
  e.amul(r, tmp);
  precondition(v);
  {
    const T* rp = r.template data_as<T>();
    const T* vp = v.template data_as<T>();
    T* uhp = uhat.template data_as<T>();
    e.template reduce<1>(
        [=] __device__(std::int64_t i, double* vv, int) {
          uhp[i] = vp[i];
          vv[0] += abs2_(rp[i]);
        },
        [=] __device__(const double* t, int) {
          stp->rr = t[0];
          s[RHO] = S(t[0]);
          s[RHOLAST] = S(t[0]);
          s[TAU] = S(sqrt(t[0]));
          s[THETA] = S(0.0);
          s[ETA] = S(0.0);
        });
  }
  e.post();
  status_t h = e.wait();
  if (h.bb == 0) return e.result(zeros({n}, xt), 0, 0);
  const double r0norm = std::sqrt(h.rr);
  e.record(r0norm);
  if (r0norm == 0) return e.result(x, 0, 0);
  const double atol = std::max(a.atol, a.rtol * r0norm);
  const T* rsp = r.template data_as<T>();
  // Whether the iteration's second half (which does not change x) is enqueued before the host tests
  // convergence: only when A and M are cusci's own (user operators run only when needed).
  const bool speculate = (e.stream_spmv || e.Ax) && mode != 2;
  auto second_half = [&](std::int64_t k) {
    if (k % 2 == 1) {
      // rho = vdot(r*, w), beta = rho / rho_last; u = w + beta u, v = beta u^ + beta^2 v.
      const T* wp = w.template data_as<T>();
      e.template reduce<W<T>>([=] __device__(std::int64_t i, double* vv, int) { add_vdot(vv, 0, rsp[i], wp[i]); },
                              [=] __device__(const double* t, int) {
                                const S rho = total<T>(t, 0);
                                s[RHO] = rho;
                                s[BETA] = cdiv_(rho, s[RHOLAST]);
                              });
      T *up_ = u.template data_as<T>(), *vp = v.template data_as<T>();
      const T* uhp = uhat.template data_as<T>();
      e.map([=] __device__(std::int64_t i, int) {
        const T beta = down<T>(s[BETA]);
        up_[i] = rn_add(wp[i], rn_mul(beta, up_[i]));
        vp[i] = rn_add(rn_mul(beta, uhp[i]), rn_mul(rn_mul(beta, beta), vp[i]));  // (beta**2) * v
      });
      e.amul(u, tmp);
      precondition(uhat);
      const T* uh2 = uhat.template data_as<T>();
      e.map([=] __device__(std::int64_t i, int) { vp[i] = rn_add(vp[i], uh2[i]); });
    } else {
      e.amul(unext, tmp);
      precondition(uhat);
      std::swap(u, unext);
    }
  };
  for (std::int64_t k = 0; k < a.maxiter; ++k) {
    const bool even = k % 2 == 0;
    const T *vp = v.template data_as<T>(), *uhp = uhat.template data_as<T>();
    T *up_ = u.template data_as<T>(), *unp = unext.template data_as<T>(), *wp = w.template data_as<T>(),
      *dp = d.template data_as<T>(), *xp = x.template data_as<T>();
    if (even) {
      // alpha = rho / vdot(r*, v); breakdown -1.
      e.template reduce<W<T>>([=] __device__(std::int64_t i, double* vv, int) { add_vdot(vv, 0, rsp[i], vp[i]); },
                              [=] __device__(const double* t, int) {
                                const S vr = total<T>(t, 0);
                                if (vr == S(0)) {
                                  *flag = -1;
                                  return;
                                }
                                s[ALPHA] = cdiv_(s[RHO], vr);
                              });
    }
    // (even: u_next = u - alpha v); w -= alpha u^; d = u + (theta^2 / alpha) eta d; theta, c, tau, eta.
    e.template reduce<1>(
        [=] __device__(std::int64_t i, double* vv, int) {
          const S alpha_s = s[ALPHA];
          const T alpha = down<T>(alpha_s);
          const double th = abs_(s[THETA]);
          const T cd = down<T>(rn_mul(cdiv_(S(th * th), alpha_s), s[ETA]));
          const T ui = up_[i];
          if (even) unp[i] = rn_sub(ui, rn_mul(alpha, vp[i]));
          const T wi = rn_sub(wp[i], rn_mul(alpha, uhp[i]));
          wp[i] = wi;
          dp[i] = rn_add(ui, rn_mul(cd, dp[i]));
          vv[0] += abs2_(wi);
        },
        [=] __device__(const double* t, int) {
          const double tau = abs_(s[TAU]);
          const double theta = sqrt(t[0]) / tau;
          const double c = sqrt(1.0 / (1.0 + theta * theta));
          const double tau_new = tau * theta * c;
          s[THETA] = S(theta);
          s[TAU] = S(tau_new);
          s[ETA] = S(c * c) * s[ALPHA];
          stp->rr = tau_new;
          if (even) s[RHOLAST] = s[RHO];
        });
    // x += eta M d.
    if (mode == 2) {
      z = contiguous_vector(M.op->matvec(d), xt, n, false);
      const T* zp = z.template data_as<T>();
      e.map([=] __device__(std::int64_t i, int) { xp[i] = rn_add(xp[i], rn_mul(down<T>(s[ETA]), zp[i])); });
    } else {
      e.map([=] __device__(std::int64_t i, int) {
        const T di = dp[i];
        xp[i] = rn_add(xp[i], rn_mul(down<T>(s[ETA]), mode == 0 ? di : rn_mul(dg[i], di)));
      });
    }
    e.post();
    if (speculate) second_half(k);
    h = e.wait();
    if (h.flag != 0) return e.result(x, h.flag, k);
    const double bound = h.rr * std::sqrt(static_cast<double>(k + 1));
    e.record(bound);
    if (a.callback) a.callback(x);
    if (bound < atol) {
      if (show)
        std::printf("TFQMR: Linear solve converged due to reach TOL iterations %lld\n", static_cast<long long>(k + 1));
      return e.result(x, 0, k + 1);
    }
    if (!speculate) second_half(k);
  }
  if (show)
    std::printf("TFQMR: Linear solve not converged due to reach MAXIT iterations %lld\n",
                static_cast<long long>(a.maxiter));
  return e.result(x, a.maxiter, std::max<std::int64_t>(a.maxiter, 0));
}

// ------------------------------------------------------------------------------------------------
// Argument checks (before any device work) and dispatch.

/// SciPy's coerce(A.dtype, b.dtype) over float32/float64/complex64/complex128 (anything else
/// counts as float64).
dtype system_dtype(dtype a, dtype b) {
  auto norm = [](dtype t) {
    return (t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128)
               ? t
               : dtype::float64;
  };
  a = norm(a);
  b = norm(b);
  const bool cplx = is_complex(a) || is_complex(b);
  const bool wide = a == dtype::float64 || a == dtype::complex128 || b == dtype::float64 || b == dtype::complex128;
  if (cplx) return wide ? dtype::complex128 : dtype::complex64;
  return wide ? dtype::float64 : dtype::float32;
}

struct checked {
  dtype xt;
  std::int64_t n;
};

checked check_system(const char* fn, const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0,
                     std::initializer_list<const std::optional<linear_operator>*> Ms, double atol, bool need_rmatvec) {
  using cusci::detail::shape_str;
  cusci::detail::check_same_device(fn, {A.csr() ? &A.csr()->data() : nullptr, &b, x0 ? &*x0 : nullptr});
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  const std::string a_shape = shape_str(A.shape());
  CUSCI_EXPECTS(m == n, value_error, std::string(fn) + ": expected square matrix, but got shape=(" + a_shape + ",)");
  auto vec_ok = [n](const ndarray& v) {
    return (v.ndim() == 1 && v.shape(0) == n) || (v.ndim() == 2 && v.shape(0) == n && v.shape(1) == 1);
  };
  CUSCI_EXPECTS(vec_ok(b), value_error,
                std::string(fn) + ": shapes of A " + a_shape + " and b " + shape_str(b.shape()) + " are incompatible");
  const dtype xt = system_dtype(A.dtype(), b.dtype());
  if (x0) {
    CUSCI_EXPECTS(vec_ok(*x0), value_error,
                  std::string(fn) + ": shapes of A " + a_shape + " and x0 " + shape_str(x0->shape()) +
                      " are incompatible");
    CUSCI_EXPECTS(!is_complex(x0->dtype()) || is_complex(xt), type_error,
                  std::string(fn) + ": complex x0 (" + std::string(dtype_name(x0->dtype())) +
                      ") for a real system (" + std::string(dtype_name(xt)) + ")");
  }
  for (const auto* M : Ms)
    if (*M)
      CUSCI_EXPECTS((*M)->shape() == A.shape(), value_error,
                    std::string(fn) + ": matrix and preconditioner have different shapes");
  if (!(atol >= 0.0)) {
    std::ostringstream os;
    os << fn << ": called with invalid `atol`=" << atol << "; if set, `atol` must be a real, non-negative number.";
    throw value_error(os.str());
  }
  if (need_rmatvec) {
    CUSCI_EXPECTS(A.csr() != nullptr || A.has_rmatvec(), not_implemented_error,
                  std::string(fn) + ": A has no rmatvec (the method needs A^H x)");
    for (const auto* M : Ms)
      if (*M)
        CUSCI_EXPECTS((*M)->has_rmatvec(), not_implemented_error,
                      std::string(fn) + ": the preconditioner has no rmatvec (the method needs its adjoint)");
  }
  return {xt, n};
}

template <class F>
krylov_result dispatch(dtype xt, F&& f) {
  switch (xt) {
    case dtype::float32: return f(cusci::detail::type_tag<float>{});
    case dtype::float64: return f(cusci::detail::type_tag<double>{});
    case dtype::complex64: return f(cusci::detail::type_tag<cuda::std::complex<float>>{});
    case dtype::complex128: return f(cusci::detail::type_tag<cuda::std::complex<double>>{});
    default: break;
  }
  throw type_error("cusci::sparse::linalg: unsupported system dtype " + std::string(dtype_name(xt)));
}

}  // namespace cusci::sparse::detail::krylov_nonsymmetric_impl

namespace cusci::sparse::linalg {

namespace kns = cusci::sparse::detail::krylov_nonsymmetric_impl;

krylov_result bicg(const linear_operator& A, const ndarray& b, const bicg_options& o) {
  static constexpr const char* fn = "cusci::sparse::linalg::bicg";
  CUSCI_NVTX_SCOPE(fn);
  const kns::checked c = kns::check_system(fn, A, b, o.x0, {&o.M}, o.atol, true);
  const kns::args a{fn, A, b, o.x0, o.rtol, o.atol, o.maxiter.value_or(10 * c.n), o.callback};
  return kns::dispatch(c.xt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kns::solve_bicg<T>(a, o.M, c.xt);
  });
}

krylov_result bicgstab(const linear_operator& A, const ndarray& b, const bicgstab_options& o) {
  static constexpr const char* fn = "cusci::sparse::linalg::bicgstab";
  CUSCI_NVTX_SCOPE(fn);
  const kns::checked c = kns::check_system(fn, A, b, o.x0, {&o.M}, o.atol, false);
  const kns::args a{fn, A, b, o.x0, o.rtol, o.atol, o.maxiter.value_or(10 * c.n), o.callback};
  return kns::dispatch(c.xt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kns::solve_bicgstab<T>(a, o.M, c.xt);
  });
}

krylov_result cgs(const linear_operator& A, const ndarray& b, const cgs_options& o) {
  static constexpr const char* fn = "cusci::sparse::linalg::cgs";
  CUSCI_NVTX_SCOPE(fn);
  const kns::checked c = kns::check_system(fn, A, b, o.x0, {&o.M}, o.atol, false);
  const kns::args a{fn, A, b, o.x0, o.rtol, o.atol, o.maxiter.value_or(10 * c.n), o.callback};
  return kns::dispatch(c.xt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kns::solve_cgs<T>(a, o.M, c.xt);
  });
}

krylov_result qmr(const linear_operator& A, const ndarray& b, const qmr_options& o) {
  static constexpr const char* fn = "cusci::sparse::linalg::qmr";
  CUSCI_NVTX_SCOPE(fn);
  const kns::checked c = kns::check_system(fn, A, b, o.x0, {&o.M1, &o.M2}, o.atol, true);
  const kns::args a{fn, A, b, o.x0, o.rtol, o.atol, o.maxiter.value_or(10 * c.n), o.callback};
  return kns::dispatch(c.xt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kns::solve_qmr<T>(a, o.M1, o.M2, c.xt);
  });
}

krylov_result tfqmr(const linear_operator& A, const ndarray& b, const tfqmr_options& o) {
  static constexpr const char* fn = "cusci::sparse::linalg::tfqmr";
  CUSCI_NVTX_SCOPE(fn);
  const kns::checked c = kns::check_system(fn, A, b, o.x0, {&o.M}, o.atol, false);
  const kns::args a{fn, A, b, o.x0, o.rtol, o.atol,
                    o.maxiter.value_or(std::min<std::int64_t>(10000, 10 * c.n)), o.callback};
  return kns::dispatch(c.xt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kns::solve_tfqmr<T>(a, o.M, c.xt, o.show);
  });
}

}  // namespace cusci::sparse::linalg
