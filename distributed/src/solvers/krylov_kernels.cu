// The rank-local passes of the distributed Krylov solvers (declared and described in krylov_kernels.hpp).
//
// Every pass is a grid-stride loop over this rank's block; a pass with sums accumulates them per thread
// in float64, then `block_sums` reduces them over the grid without atomics on the values: each block
// writes its partial sums, the last block to finish (a counter) adds the partials of each value in
// block order, one warp a value, and runs the pass's epilogue in its thread 0 (writing the totals into
// the scalar area), so a pass is deterministic for a given grid and needs no second launch.
//
// Passes that may have to do nothing (bicgstab after a breakdown) decide it from device scalars every
// thread reads alike, before any work, so that the whole grid returns together (block_sums needs every
// block).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "solvers/krylov_kernels.hpp"

namespace cusci::distributed::solver_detail {
namespace {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

// ---- rounded arithmetic: each operation rounded on its own (never contracted into an FMA) --------------
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double sub_rn(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float sub_rn(float a, float b) { return __fsub_rn(a, b); }

__device__ __forceinline__ double sq(double v) { return v * v; }
template <class T>
__device__ __forceinline__ double prod(T a, T b) {
  return static_cast<double>(a) * static_cast<double>(b);
}

__device__ __forceinline__ double warp_total(double v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Sums v[0..NV) over the grid (see the file comment) and calls fin(totals) once, in thread 0 of the
// last block. Every thread of every block must call it (blockDim.x == kBlock).
template <int NV, class Fin>
__device__ void block_sums(const double (&v)[NV], double* partials, unsigned* counter, const Fin& fin) {
  __shared__ double warp_part[NV][kWarps];
  __shared__ double totals[NV];
  __shared__ bool is_last;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int j = 0; j < NV; ++j) {
    const double w = warp_total(v[j]);
    if (lane == 0) warp_part[j][warp] = w;
  }
  __syncthreads();
  for (int j = threadIdx.x; j < NV; j += blockDim.x) {
    double b = 0.0;
    for (int w = 0; w < kWarps; ++w) b += warp_part[j][w];
    partials[static_cast<std::size_t>(j) * gridDim.x + blockIdx.x] = b;
  }
  __threadfence();  // the partials are visible before this block is counted
  __syncthreads();
  if (threadIdx.x == 0) is_last = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!is_last) return;
  __threadfence();
  for (int j = warp; j < NV; j += kWarps) {
    double a = 0.0;
    for (unsigned b = lane; b < gridDim.x; b += 32) a += __ldcg(partials + static_cast<std::size_t>(j) * gridDim.x + b);
    a = warp_total(a);
    if (lane == 0) totals[j] = a;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    fin(static_cast<const double*>(totals));
    *counter = 0u;
  }
}

#define CUSCI_GRID_LOOP(i, n)                                                                      \
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

// ---- generic passes ---------------------------------------------------------------------------------

template <class T>
__global__ void __launch_bounds__(kBlock) k_dot(std::int64_t n, const T* __restrict__ a, const T* __restrict__ b,
                                                double* s, int dst, int shift_to, double* partials,
                                                unsigned* counter) {
  double v[1] = {0.0};
  CUSCI_GRID_LOOP(i, n) v[0] += prod(a[i], b[i]);
  block_sums(v, partials, counter, [=](const double* t) {
    if (shift_to >= 0) s[shift_to] = s[dst];
    s[dst] = t[0];
  });
}

struct vec4 {
  const void* p[4];
};

template <class T, int NV>
__global__ void __launch_bounds__(kBlock) k_sumsq(std::int64_t n, vec4 vs, double* dst, double* partials,
                                                  unsigned* counter) {
  double v[NV];
#pragma unroll
  for (int j = 0; j < NV; ++j) v[j] = 0.0;
  CUSCI_GRID_LOOP(i, n) {
#pragma unroll
    for (int j = 0; j < NV; ++j) v[j] += sq(static_cast<double>(static_cast<const T*>(vs.p[j])[i]));
  }
  block_sums(v, partials, counter, [=](const double* t) {
    for (int j = 0; j < NV; ++j) dst[j] = t[j];
  });
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_scale(std::int64_t n, T a, const T* x, T* y) {
  CUSCI_GRID_LOOP(i, n) y[i] = mul_rn(a, x[i]);
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_diag_mul(std::int64_t n, const T* __restrict__ d, const T* __restrict__ x,
                                                     T* __restrict__ y) {
  CUSCI_GRID_LOOP(i, n) y[i] = mul_rn(d[i], x[i]);
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_reciprocal(std::int64_t n, const T* __restrict__ d, T* __restrict__ dinv,
                                                       unsigned long long* first_zero) {
  CUSCI_GRID_LOOP(i, n) {
    const T di = d[i];
    if (di == T(0)) atomicMin(first_zero, static_cast<unsigned long long>(i));
    dinv[i] = T(1) / di;
  }
}

// ---- cg ------------------------------------------------------------------------------------------------

// z_i of the preconditioned residual: r, d r (rounded to T) or the given z.
template <class T, int MODE>
__device__ __forceinline__ T precond_at(std::int64_t i, const T* r, const T* d, const T* z) {
  if constexpr (MODE == 0) return r[i];
  else if constexpr (MODE == 1) return mul_rn(d[i], r[i]);
  else return z[i];
}

template <class T, int MODE>
__global__ void __launch_bounds__(kBlock) k_cg_start(std::int64_t n, const T* __restrict__ b, const T* __restrict__ ax,
                                                     T* __restrict__ r, const T* __restrict__ d, double* s,
                                                     double* partials, unsigned* counter) {
  double v[3] = {0.0, 0.0, 0.0};
  CUSCI_GRID_LOOP(i, n) {
    const T bi = b[i];
    const T ri = ax != nullptr ? sub_rn(bi, ax[i]) : bi;
    r[i] = ri;
    v[0] += sq(static_cast<double>(bi));
    v[1] += sq(static_cast<double>(ri));
    if constexpr (MODE == 1) v[2] += prod(ri, mul_rn(d[i], ri));
  }
  block_sums(v, partials, counter, [=](const double* t) {
    s[CG_BB] = t[0];
    s[CG_RR] = t[1];
    if constexpr (MODE != 2) s[CG_RHO] = MODE == 0 ? t[1] : t[2];
  });
}

template <class T, int MODE>
__global__ void __launch_bounds__(kBlock) k_cg_update_p(std::int64_t n, bool first, T* __restrict__ p,
                                                        const T* __restrict__ r, const T* __restrict__ d,
                                                        const T* __restrict__ z, const double* s) {
  const T beta = first ? T(0) : static_cast<T>(s[CG_RHO] / s[CG_RHO_PREV]);
  CUSCI_GRID_LOOP(i, n) {
    const T zi = precond_at<T, MODE>(i, r, d, z);
    p[i] = first ? zi : add_rn(mul_rn(p[i], beta), zi);  // SciPy: p *= beta; p += z
  }
}

template <class T, int MODE>
__global__ void __launch_bounds__(kBlock) k_cg_update_xr(std::int64_t n, T* __restrict__ x, T* __restrict__ r,
                                                         const T* __restrict__ p, const T* __restrict__ q,
                                                         const T* __restrict__ d, double* s, double* partials,
                                                         unsigned* counter) {
  const T alpha = static_cast<T>(s[CG_RHO] / s[CG_PQ]);
  double v[2] = {0.0, 0.0};
  CUSCI_GRID_LOOP(i, n) {
    x[i] = add_rn(x[i], mul_rn(alpha, p[i]));
    const T ri = sub_rn(r[i], mul_rn(alpha, q[i]));
    r[i] = ri;
    v[0] += sq(static_cast<double>(ri));
    if constexpr (MODE == 1) v[1] += prod(ri, mul_rn(d[i], ri));
  }
  block_sums(v, partials, counter, [=](const double* t) {
    s[CG_RR] = t[0];
    if constexpr (MODE != 2) {
      s[CG_RHO_PREV] = s[CG_RHO];
      s[CG_RHO] = MODE == 0 ? t[0] : t[1];
    }
  });
}

// ---- bicgstab ---------------------------------------------------------------------------------------------

// The status word as every thread reads it (an int in a double slot).
__device__ __forceinline__ int flag_of(const double* s) { return static_cast<int>(s[BS_FLAG]); }
__device__ __forceinline__ void set_flag(double* s, int code) {
  if (blockIdx.x == 0 && threadIdx.x == 0) s[BS_FLAG] = static_cast<double>(code);
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_bicgstab_start(std::int64_t n, const T* __restrict__ b,
                                                           const T* __restrict__ ax, T* __restrict__ r,
                                                           T* __restrict__ rt, double* s, double* partials,
                                                           unsigned* counter) {
  double v[2] = {0.0, 0.0};
  CUSCI_GRID_LOOP(i, n) {
    const T bi = b[i];
    const T ri = ax != nullptr ? sub_rn(bi, ax[i]) : bi;
    r[i] = ri;
    rt[i] = ri;
    v[0] += sq(static_cast<double>(bi));
    v[1] += sq(static_cast<double>(ri));
  }
  block_sums(v, partials, counter, [=](const double* t) {
    s[BS_FLAG] = 0.0;
    s[BS_BB] = t[0];
    s[BS_RR] = t[1];
    s[BS_RHO] = t[1];  // rho of the first iteration: r~.r = r.r
  });
}

template <class T, int MODE>
__global__ void __launch_bounds__(kBlock) k_bicgstab_p(std::int64_t n, bool first, T* __restrict__ p,
                                                       const T* __restrict__ r, const T* __restrict__ v,
                                                       const T* __restrict__ d, T* __restrict__ phat, double* s,
                                                       double rhotol, double omegatol) {
  if (flag_of(s) != 0) return;
  if (fabs(s[BS_RHO]) < rhotol) {
    set_flag(s, -10);
    return;
  }
  if (!first && fabs(s[BS_OMEGA]) < omegatol) {
    set_flag(s, -11);
    return;
  }
  const T omega = first ? T(0) : static_cast<T>(s[BS_OMEGA]);
  const T beta = first ? T(0) : static_cast<T>((s[BS_RHO] / s[BS_RHO_PREV]) * (s[BS_ALPHA] / s[BS_OMEGA]));
  CUSCI_GRID_LOOP(i, n) {
    // SciPy: p -= omega v; p *= beta; p += r
    const T pi = first ? r[i] : add_rn(mul_rn(sub_rn(p[i], mul_rn(omega, v[i])), beta), r[i]);
    p[i] = pi;
    if constexpr (MODE == 1) phat[i] = mul_rn(d[i], pi);
  }
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_bicgstab_rv(std::int64_t n, const T* __restrict__ rt,
                                                        const T* __restrict__ v, double* s, double* partials,
                                                        unsigned* counter) {
  if (flag_of(s) != 0) return;
  double w[1] = {0.0};
  CUSCI_GRID_LOOP(i, n) w[0] += prod(rt[i], v[i]);
  block_sums(w, partials, counter, [=](const double* t) { s[BS_RV] = t[0]; });
}

template <class T, int MODE>
__global__ void __launch_bounds__(kBlock) k_bicgstab_s(std::int64_t n, T* __restrict__ r, const T* __restrict__ v,
                                                       const T* __restrict__ d, T* __restrict__ shat, double* s,
                                                       double* partials, unsigned* counter) {
  if (flag_of(s) != 0) return;
  const double rv = s[BS_RV];
  if (rv == 0.0) {
    set_flag(s, -11);
    return;
  }
  const double alpha_d = s[BS_RHO] / rv;
  if (blockIdx.x == 0 && threadIdx.x == 0) s[BS_ALPHA] = alpha_d;
  const T alpha = static_cast<T>(alpha_d);
  double w[1] = {0.0};
  CUSCI_GRID_LOOP(i, n) {
    const T si = sub_rn(r[i], mul_rn(alpha, v[i]));
    r[i] = si;
    if constexpr (MODE == 1) shat[i] = mul_rn(d[i], si);
    w[0] += sq(static_cast<double>(si));
  }
  block_sums(w, partials, counter, [=](const double* t) { s[BS_SS] = t[0]; });
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_bicgstab_omega(std::int64_t n, const T* __restrict__ tv,
                                                           const T* __restrict__ r, double* s, double atol,
                                                           double* partials, unsigned* counter) {
  if (flag_of(s) != 0) return;
  if (sqrt(s[BS_SS]) < atol) {
    set_flag(s, kEarly);
    return;
  }
  double w[2] = {0.0, 0.0};
  CUSCI_GRID_LOOP(i, n) {
    const T ti = tv[i];
    w[0] += sq(static_cast<double>(ti));
    w[1] += prod(ti, r[i]);
  }
  block_sums(w, partials, counter, [=](const double* t) {
    s[BS_TT] = t[0];
    s[BS_TS] = t[1];
  });
}

template <class T, int MODE>
__global__ void __launch_bounds__(kBlock) k_bicgstab_x(std::int64_t n, T* __restrict__ x, T* __restrict__ r,
                                                       const T* phat, const T* shat, const T* __restrict__ tv,
                                                       const T* __restrict__ rt, double* s, double* partials,
                                                       unsigned* counter) {
  const int fl = flag_of(s);
  if (fl != 0 && fl != kEarly) return;
  const T alpha = static_cast<T>(s[BS_ALPHA]);
  if (fl == kEarly) {  // SciPy: x += alpha phat, converged
    CUSCI_GRID_LOOP(i, n) x[i] = add_rn(x[i], mul_rn(alpha, phat[i]));
    return;
  }
  const double omega_d = s[BS_TS] / s[BS_TT];
  if (blockIdx.x == 0 && threadIdx.x == 0) s[BS_OMEGA] = omega_d;
  const T omega = static_cast<T>(omega_d);
  double w[2] = {0.0, 0.0};
  CUSCI_GRID_LOOP(i, n) {
    const T si = r[i];
    const T shi = MODE == 0 ? si : shat[i];
    x[i] = add_rn(add_rn(x[i], mul_rn(alpha, phat[i])), mul_rn(omega, shi));  // x += alpha phat; x += omega shat
    const T ri = sub_rn(si, mul_rn(omega, tv[i]));
    r[i] = ri;
    w[0] += sq(static_cast<double>(ri));
    w[1] += prod(rt[i], ri);
  }
  block_sums(w, partials, counter, [=](const double* t) {
    s[BS_RR] = t[0];
    s[BS_RHO_PREV] = s[BS_RHO];
    s[BS_RHO] = t[1];
  });
}

// ---- gmres ---------------------------------------------------------------------------------------------

// One Gram-Schmidt pass over rows [r0, r0 + kc) of V (kc <= K): with UPDATE, first w_i -= sum_{j < kupd}
// c[j] V[j, i] (float64, rounded once to T) and store it; then dst_proj[j] = V[r0 + j] . w and, when
// dst_norm is given, *dst_norm = w.w. The kc rows' values are read once into registers.
template <class T, int K, bool UPDATE>
__global__ void __launch_bounds__(kBlock) k_gs(std::int64_t n, const T* __restrict__ V, std::int64_t ldv,
                                               std::int64_t kupd, const double* __restrict__ c, std::int64_t r0,
                                               int kc, T* __restrict__ w, double* dst_proj, double* dst_norm,
                                               double* partials, unsigned* counter) {
  double acc[K + 1];
#pragma unroll
  for (int j = 0; j <= K; ++j) acc[j] = 0.0;
  CUSCI_GRID_LOOP(i, n) {
    T vr[K];
#pragma unroll
    for (int j = 0; j < K; ++j) vr[j] = j < kc ? V[(r0 + j) * ldv + i] : T(0);
    T wi = w[i];
    if constexpr (UPDATE) {
      double x = static_cast<double>(wi);
      if (r0 == 0 && kupd <= kc) {  // the rows are in registers already
#pragma unroll
        for (int j = 0; j < K; ++j)
          if (j < kupd) x -= static_cast<double>(vr[j]) * __ldg(c + j);
      } else {
        for (std::int64_t j = 0; j < kupd; ++j) x -= static_cast<double>(V[j * ldv + i]) * __ldg(c + j);
      }
      wi = static_cast<T>(x);
      w[i] = wi;
    }
    const double wd = static_cast<double>(wi);
    acc[K] += wd * wd;
#pragma unroll
    for (int j = 0; j < K; ++j)
      if (j < kc) acc[j] += static_cast<double>(vr[j]) * wd;
  }
  block_sums(acc, partials, counter, [=](const double* t) {
    for (int j = 0; j < kc; ++j) dst_proj[j] = t[j];
    if (dst_norm != nullptr) *dst_norm = t[K];
  });
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_add_basis(std::int64_t n, const T* __restrict__ V, std::int64_t ldv,
                                                      std::int64_t k, const double* __restrict__ y, T* __restrict__ x) {
  CUSCI_GRID_LOOP(i, n) {
    double a = 0.0;
    for (std::int64_t j = 0; j < k; ++j) a += __ldg(y + j) * static_cast<double>(V[j * ldv + i]);
    x[i] = add_rn(x[i], static_cast<T>(a));  // SciPy: x += y @ V
  }
}

template <class T, int MODE>
__global__ void __launch_bounds__(kBlock) k_gmres_residual(std::int64_t n, const T* __restrict__ b,
                                                           const T* __restrict__ ax, T* __restrict__ r,
                                                           const T* __restrict__ d, T* __restrict__ z, double* dst,
                                                           double* partials, unsigned* counter) {
  double v[2] = {0.0, 0.0};
  CUSCI_GRID_LOOP(i, n) {
    const T ri = sub_rn(b[i], ax[i]);
    r[i] = ri;
    v[0] += sq(static_cast<double>(ri));
    if constexpr (MODE == 1) {
      const T zi = mul_rn(d[i], ri);
      z[i] = zi;
      v[1] += sq(static_cast<double>(zi));
    }
  }
  block_sums(v, partials, counter, [=](const double* t) {
    dst[0] = t[0];
    if constexpr (MODE == 0) dst[1] = t[0];
    if constexpr (MODE == 1) dst[1] = t[1];
  });
}

// ---- launch helpers -----------------------------------------------------------------------------------

/// Multiprocessors of the current device (cached per device).
int sm_count() {
  static std::mutex mu;
  static std::map<int, int> cache;
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lk(mu);
  auto it = cache.find(dev);
  if (it != cache.end()) return it->second;
  int sms = 0;
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cache[dev] = std::max(sms, 1);
  return cache[dev];
}

unsigned elementwise_grid(std::int64_t n) {
  return cusci::detail::grid_for(n, kBlock, static_cast<std::int64_t>(sm_count()) * (2048 / kBlock));
}

template <class F>
void by_dtype(dtype t, const char* what, F&& f) {
  cusci::detail::dispatch_float(t, what, "the vectors", std::forward<F>(f));
}

template <class F>
void by_mode(int mode, F&& f) {
  switch (mode) {
    case 0: f(std::integral_constant<int, 0>{}); return;
    case 1: f(std::integral_constant<int, 1>{}); return;
    case 2: f(std::integral_constant<int, 2>{}); return;
    default: break;
  }
  throw value_error("cusci::distributed: internal error: preconditioner mode " + std::to_string(mode));
}

template <class T>
const T* cp(const void* p) {
  return static_cast<const T*>(p);
}
template <class T>
T* mp(void* p) {
  return static_cast<T*>(p);
}

// Launches the Gram-Schmidt pass over rows [r0, r0 + kc) with the smallest register bound that fits.
template <class T, bool UPDATE>
void launch_gs(std::int64_t n, const T* V, std::int64_t ldv, std::int64_t kupd, const double* c, std::int64_t r0,
               int kc, T* w, double* dst_proj, double* dst_norm, sum_workspace& ws, cudaStream_t st) {
  auto go = [&](auto kb) {
    constexpr int K = decltype(kb)::value;
    k_gs<T, K, UPDATE><<<ws.gs_grid, kBlock, 0, st>>>(n, V, ldv, kupd, c, r0, kc, w, dst_proj, dst_norm,
                                                      ws.partials.data(), ws.counter.data());
    CUSCI_CHECK_LAUNCH();
  };
  if (kc <= 8) go(std::integral_constant<int, 8>{});
  else if (kc <= 16) go(std::integral_constant<int, 16>{});
  else go(std::integral_constant<int, kGsChunk>{});
}

}  // namespace

sum_workspace::sum_workspace(std::int64_t n, cudaStream_t st) {
  grid = elementwise_grid(n);
  // The Gram-Schmidt passes keep up to 32 basis values and 33 sums a thread: two resident blocks an SM.
  gs_grid = cusci::detail::grid_for(n, kBlock, static_cast<std::int64_t>(sm_count()) * 2);
  partials = device_buffer<double>(static_cast<std::size_t>(kMaxSums) * std::max(grid, gs_grid), st);
  counter = device_buffer<unsigned>(1, st);
  CUSCI_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned), st));
}

void dot(dtype t, std::int64_t n, const void* a, const void* b, double* s, int dst, int shift_to, sum_workspace& ws,
         cudaStream_t st) {
  by_dtype(t, "cusci::distributed::dot", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_dot<T><<<ws.grid, kBlock, 0, st>>>(n, cp<T>(a), cp<T>(b), s, dst, shift_to, ws.partials.data(),
                                         ws.counter.data());
    CUSCI_CHECK_LAUNCH();
  });
}

void sumsq(dtype t, std::int64_t n, int nv, const void* const* v, double* dst, sum_workspace& ws, cudaStream_t st) {
  CUSCI_EXPECTS(nv >= 1 && nv <= 4, value_error, "cusci::distributed: internal error: sumsq of " + std::to_string(nv));
  vec4 vs{{v[0], nv > 1 ? v[1] : v[0], nv > 2 ? v[2] : v[0], nv > 3 ? v[3] : v[0]}};
  by_dtype(t, "cusci::distributed::sumsq", [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto go = [&](auto nvc) {
      k_sumsq<T, decltype(nvc)::value><<<ws.grid, kBlock, 0, st>>>(n, vs, dst, ws.partials.data(), ws.counter.data());
      CUSCI_CHECK_LAUNCH();
    };
    switch (nv) {
      case 1: go(std::integral_constant<int, 1>{}); break;
      case 2: go(std::integral_constant<int, 2>{}); break;
      case 3: go(std::integral_constant<int, 3>{}); break;
      default: go(std::integral_constant<int, 4>{}); break;
    }
  });
}

void scale(dtype t, std::int64_t n, double alpha, const void* x, void* y, cudaStream_t st) {
  if (n == 0) return;
  by_dtype(t, "cusci::distributed::scale", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_scale<T><<<elementwise_grid(n), kBlock, 0, st>>>(n, static_cast<T>(alpha), cp<T>(x), mp<T>(y));
    CUSCI_CHECK_LAUNCH();
  });
}

void diag_mul(dtype t, std::int64_t n, const void* d, const void* x, void* y, cudaStream_t st) {
  if (n == 0) return;
  by_dtype(t, "cusci::distributed::diag_mul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_diag_mul<T><<<elementwise_grid(n), kBlock, 0, st>>>(n, cp<T>(d), cp<T>(x), mp<T>(y));
    CUSCI_CHECK_LAUNCH();
  });
}

void reciprocal(dtype t, std::int64_t n, const void* d, void* dinv, unsigned long long* first_zero, cudaStream_t st) {
  if (n == 0) return;
  by_dtype(t, "cusci::distributed::jacobi", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_reciprocal<T><<<elementwise_grid(n), kBlock, 0, st>>>(n, cp<T>(d), mp<T>(dinv), first_zero);
    CUSCI_CHECK_LAUNCH();
  });
}

void cg_start(dtype t, int mode, std::int64_t n, const void* b, const void* ax, void* r, const void* d, double* s,
              sum_workspace& ws, cudaStream_t st) {
  by_dtype(t, "cusci::distributed::cg", [&](auto tag) {
    using T = typename decltype(tag)::type;
    by_mode(mode, [&](auto mc) {
      k_cg_start<T, decltype(mc)::value><<<ws.grid, kBlock, 0, st>>>(n, cp<T>(b), cp<T>(ax), mp<T>(r), cp<T>(d), s,
                                                                     ws.partials.data(), ws.counter.data());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void cg_update_p(dtype t, int mode, std::int64_t n, bool first, void* p, const void* r, const void* d, const void* z,
                 const double* s, cudaStream_t st) {
  if (n == 0) return;
  by_dtype(t, "cusci::distributed::cg", [&](auto tag) {
    using T = typename decltype(tag)::type;
    by_mode(mode, [&](auto mc) {
      k_cg_update_p<T, decltype(mc)::value><<<elementwise_grid(n), kBlock, 0, st>>>(n, first, mp<T>(p), cp<T>(r),
                                                                                    cp<T>(d), cp<T>(z), s);
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void cg_update_xr(dtype t, int mode, std::int64_t n, void* x, void* r, const void* p, const void* q, const void* d,
                  double* s, sum_workspace& ws, cudaStream_t st) {
  by_dtype(t, "cusci::distributed::cg", [&](auto tag) {
    using T = typename decltype(tag)::type;
    by_mode(mode, [&](auto mc) {
      k_cg_update_xr<T, decltype(mc)::value><<<ws.grid, kBlock, 0, st>>>(
          n, mp<T>(x), mp<T>(r), cp<T>(p), cp<T>(q), cp<T>(d), s, ws.partials.data(), ws.counter.data());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void bicgstab_start(dtype t, std::int64_t n, const void* b, const void* ax, void* r, void* rt, double* s,
                    sum_workspace& ws, cudaStream_t st) {
  by_dtype(t, "cusci::distributed::bicgstab", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_bicgstab_start<T><<<ws.grid, kBlock, 0, st>>>(n, cp<T>(b), cp<T>(ax), mp<T>(r), mp<T>(rt), s, ws.partials.data(),
                                                    ws.counter.data());
    CUSCI_CHECK_LAUNCH();
  });
}

void bicgstab_p(dtype t, int mode, std::int64_t n, bool first, void* p, const void* r, const void* v, const void* d,
                void* phat, double* s, double rhotol, double omegatol, cudaStream_t st) {
  // Launched also for n == 0: the breakdown tests write the flag.
  by_dtype(t, "cusci::distributed::bicgstab", [&](auto tag) {
    using T = typename decltype(tag)::type;
    by_mode(mode, [&](auto mc) {
      k_bicgstab_p<T, decltype(mc)::value><<<elementwise_grid(n), kBlock, 0, st>>>(
          n, first, mp<T>(p), cp<T>(r), cp<T>(v), cp<T>(d), mp<T>(phat), s, rhotol, omegatol);
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void bicgstab_rv(dtype t, std::int64_t n, const void* rt, const void* v, double* s, sum_workspace& ws,
                 cudaStream_t st) {
  by_dtype(t, "cusci::distributed::bicgstab", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_bicgstab_rv<T><<<ws.grid, kBlock, 0, st>>>(n, cp<T>(rt), cp<T>(v), s, ws.partials.data(), ws.counter.data());
    CUSCI_CHECK_LAUNCH();
  });
}

void bicgstab_s(dtype t, int mode, std::int64_t n, void* r, const void* v, const void* d, void* shat, double* s,
                sum_workspace& ws, cudaStream_t st) {
  by_dtype(t, "cusci::distributed::bicgstab", [&](auto tag) {
    using T = typename decltype(tag)::type;
    by_mode(mode, [&](auto mc) {
      k_bicgstab_s<T, decltype(mc)::value><<<ws.grid, kBlock, 0, st>>>(n, mp<T>(r), cp<T>(v), cp<T>(d), mp<T>(shat), s,
                                                                       ws.partials.data(), ws.counter.data());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void bicgstab_omega(dtype t, std::int64_t n, const void* tv, const void* r, double* s, double atol, sum_workspace& ws,
                    cudaStream_t st) {
  by_dtype(t, "cusci::distributed::bicgstab", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_bicgstab_omega<T><<<ws.grid, kBlock, 0, st>>>(n, cp<T>(tv), cp<T>(r), s, atol, ws.partials.data(),
                                                    ws.counter.data());
    CUSCI_CHECK_LAUNCH();
  });
}

void bicgstab_x(dtype t, int mode, std::int64_t n, void* x, void* r, const void* phat, const void* shat,
                const void* tv, const void* rt, double* s, sum_workspace& ws, cudaStream_t st) {
  by_dtype(t, "cusci::distributed::bicgstab", [&](auto tag) {
    using T = typename decltype(tag)::type;
    by_mode(mode, [&](auto mc) {
      k_bicgstab_x<T, decltype(mc)::value><<<ws.grid, kBlock, 0, st>>>(n, mp<T>(x), mp<T>(r), cp<T>(phat), cp<T>(shat),
                                                                       cp<T>(tv), cp<T>(rt), s, ws.partials.data(),
                                                                       ws.counter.data());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void gs_project(dtype t, std::int64_t n, const void* V, std::int64_t ldv, std::int64_t k, const void* w, double* dst,
                sum_workspace& ws, cudaStream_t st) {
  by_dtype(t, "cusci::distributed::gmres", [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::int64_t r0 = 0; r0 < k; r0 += kGsChunk) {
      const int kc = static_cast<int>(std::min<std::int64_t>(kGsChunk, k - r0));
      launch_gs<T, false>(n, cp<T>(V), ldv, 0, nullptr, r0, kc, const_cast<T*>(cp<T>(w)), dst + r0,
                          r0 == 0 ? dst + k : nullptr, ws, st);
    }
  });
}

void gs_update(dtype t, std::int64_t n, const void* V, std::int64_t ldv, std::int64_t k, const double* c, void* w,
               bool project, double* dst, sum_workspace& ws, cudaStream_t st) {
  by_dtype(t, "cusci::distributed::gmres", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (!project) {
      launch_gs<T, true>(n, cp<T>(V), ldv, k, c, 0, 0, mp<T>(w), dst, dst, ws, st);
      return;
    }
    // The first launch updates w and projects it on the first chunk of rows; the others project the
    // updated w on the remaining chunks.
    const int kc0 = static_cast<int>(std::min<std::int64_t>(kGsChunk, k));
    launch_gs<T, true>(n, cp<T>(V), ldv, k, c, 0, kc0, mp<T>(w), dst, dst + k, ws, st);
    for (std::int64_t r0 = kGsChunk; r0 < k; r0 += kGsChunk) {
      const int kc = static_cast<int>(std::min<std::int64_t>(kGsChunk, k - r0));
      launch_gs<T, false>(n, cp<T>(V), ldv, 0, nullptr, r0, kc, mp<T>(w), dst + r0, nullptr, ws, st);
    }
  });
}

void gmres_add_basis(dtype t, std::int64_t n, const void* V, std::int64_t ldv, std::int64_t k, const double* y, void* x,
                     cudaStream_t st) {
  if (n == 0) return;
  by_dtype(t, "cusci::distributed::gmres", [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_add_basis<T><<<elementwise_grid(n), kBlock, 0, st>>>(n, cp<T>(V), ldv, k, y, mp<T>(x));
    CUSCI_CHECK_LAUNCH();
  });
}

void gmres_residual(dtype t, int mode, std::int64_t n, const void* b, const void* ax, void* r, const void* d, void* z,
                    double* dst, sum_workspace& ws, cudaStream_t st) {
  by_dtype(t, "cusci::distributed::gmres", [&](auto tag) {
    using T = typename decltype(tag)::type;
    by_mode(mode, [&](auto mc) {
      k_gmres_residual<T, decltype(mc)::value><<<ws.grid, kBlock, 0, st>>>(
          n, cp<T>(b), cp<T>(ax), mp<T>(r), cp<T>(d), mp<T>(z), dst, ws.partials.data(), ws.counter.data());
      CUSCI_CHECK_LAUNCH();
    });
  });
}

}  // namespace cusci::distributed::solver_detail
