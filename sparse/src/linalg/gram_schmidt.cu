// The fused Gram-Schmidt step of the Arnoldi solvers (see gram_schmidt.hpp for what each kernel does).
//
// V is the [rows, n] row-major Krylov basis; a thread handles elements i of the vector and, for each,
// all k basis rows (k <= K, a compile-time bound, so the k sums live in registers). Each kernel is one
// pass over the k rows of V and over w: the update kernel computes the projections of the updated w
// from the V values it has just read, so a DGKS second pass costs one more pass over V only where it
// fires, and no pass decides anything on the host. Each kernel ends with a deterministic grid-wide sum
// whose last block adds the per-block partials one warp a value.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "linalg/gram_schmidt.hpp"
#include "linalg/solver_common.cuh"

namespace cusci::sparse::linalg::gs_detail {
namespace {

using solver_detail::warp_sum;

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

// Sums NV float64 values v[0..NV) over the grid, deterministically: each block's sums (warp
// butterflies, then the warps' totals in order) go to partials; the last block to finish adds the
// partials of each value in a fixed order, one warp a value, and calls fin(totals) in its thread 0,
// then resets *counter. Every thread of every block calls it once (blockDim.x == kBlock).
template <int NV, class Fin>
__device__ __forceinline__ void gs_reduce(const double* v, double* partials, unsigned* counter, const Fin& fin) {
  __shared__ double sh[NV][kWarps];
  __shared__ double tot[NV];
  __shared__ bool last;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int j = 0; j < NV; ++j) {
    const double s = warp_sum(v[j]);
    if (lane == 0) sh[j][warp] = s;
  }
  __syncthreads();
  for (int j = threadIdx.x; j < NV; j += blockDim.x) {
    double s = 0.0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) s += sh[j][w];
    partials[j * gridDim.x + blockIdx.x] = s;
  }
  __threadfence();  // each writer publishes its partials before the block signals
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  for (int j = warp; j < NV; j += kWarps) {
    double s = 0.0;
    for (unsigned b = lane; b < gridDim.x; b += 32) s += __ldcg(partials + j * gridDim.x + b);
    s = warp_sum(s);
    if (lane == 0) tot[j] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    fin(static_cast<const double*>(tot));
    *counter = 0u;
  }
}

template <class T> struct cplx : std::false_type { using real = T; };
template <class R> struct cplx<cuda::std::complex<R>> : std::true_type { using real = R; };
/// float64 values a T occupies in the sums: 1 (real) or 2 (complex).
template <class T> constexpr int kC = cplx<T>::value ? 2 : 1;
/// The row bound of the fused kernels for T (keep in step with fused_max_rows).
template <class T> constexpr int kRows = cplx<T>::value ? 16 : 32;

// Offsets into the float64 area: c [0, C K), s [C K, 2 C K), ||w||^2 before and after the first pass,
// then the result (h [C k], h0, h1, second-pass flag).
template <class T> constexpr int kOffS = kC<T> * kRows<T>;
template <class T> constexpr int kOffW2 = 2 * kC<T> * kRows<T>;
template <class T> constexpr int kOffRes = 2 * kC<T> * kRows<T> + 2;

// w_i - sum_{r < k} V[r, i] coef[r], in float64 (complex: coef as (re, im) pairs), rounded to T: the
// update of the first pass (coef = c) and of the second (coef = s). vi points at V[0, i].
template <class T, int K>
__device__ __forceinline__ T subtract_rows(const T* __restrict__ vi, std::int64_t n, int k, const double* coef, T wi) {
  if constexpr (kC<T> == 1) {
    double x = static_cast<double>(wi);
#pragma unroll
    for (int r = 0; r < K; ++r)
      if (r < k) x -= static_cast<double>(vi[r * n]) * coef[r];
    return static_cast<T>(x);
  } else {
    using R = typename cplx<T>::real;
    double xr = wi.real(), xi = wi.imag();
#pragma unroll
    for (int r = 0; r < K; ++r)
      if (r < k) {
        const T v = vi[r * n];
        const double vr = v.real(), vm = v.imag(), cr = coef[2 * r], ci = coef[2 * r + 1];
        xr -= vr * cr - vm * ci;
        xi -= vr * ci + vm * cr;
      }
    return T(static_cast<R>(xr), static_cast<R>(xi));
  }
}

// 1. c = V^H w, ||w||^2.
template <class T, int KB>
__global__ void __launch_bounds__(kBlock) k_project(const T* __restrict__ V, std::int64_t n, int k,
                                                    const T* __restrict__ w, double* partials, unsigned* counter,
                                                    double* area) {
  constexpr int K = KB, C = kC<T>, NV = C * K + 1;
  double acc[NV];
#pragma unroll
  for (int j = 0; j < NV; ++j) acc[j] = 0.0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T wi = w[i];
    if constexpr (C == 1) {
      const double x = static_cast<double>(wi);
      acc[NV - 1] += x * x;
#pragma unroll
      for (int r = 0; r < K; ++r)
        if (r < k) acc[r] += static_cast<double>(V[r * n + i]) * x;
    } else {
      const double xr = wi.real(), xi = wi.imag();
      acc[NV - 1] += xr * xr + xi * xi;
#pragma unroll
      for (int r = 0; r < K; ++r)
        if (r < k) {
          const T v = V[r * n + i];
          const double vr = v.real(), vi = v.imag();
          acc[2 * r] += vr * xr + vi * xi;      // conj(v) w
          acc[2 * r + 1] += vr * xi - vi * xr;
        }
    }
  }
  gs_reduce<NV>(acc, partials, counter, [area](const double* t) {
    for (int j = 0; j < NV - 1; ++j) area[j] = t[j];
    area[kOffW2<T>] = t[NV - 1];
  });
}

// 2. w -= V c; s = V^H w and ||w||^2 of the updated (stored, rounded) w.
template <class T, int KB>
__global__ void __launch_bounds__(kBlock) k_update_project(const T* __restrict__ V, std::int64_t n, int k,
                                                           T* __restrict__ w, double* partials, unsigned* counter,
                                                           double* area) {
  constexpr int K = KB, C = kC<T>, NV = C * K + 1;
  __shared__ double cs[C * K];
  for (int j = threadIdx.x; j < C * K; j += blockDim.x) cs[j] = j < C * k ? area[j] : 0.0;
  __syncthreads();
  double acc[NV];
#pragma unroll
  for (int j = 0; j < NV; ++j) acc[j] = 0.0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    // V[r, i] feeds the update and then the projection of its result: read once into registers.
    T v[K];
#pragma unroll
    for (int r = 0; r < K; ++r) v[r] = r < k ? V[r * n + i] : T(0);
    if constexpr (C == 1) {
      double x = static_cast<double>(w[i]);
#pragma unroll
      for (int r = 0; r < K; ++r)
        if (r < k) x -= static_cast<double>(v[r]) * cs[r];
      const T xt = static_cast<T>(x);
      w[i] = xt;
      const double xd = static_cast<double>(xt);
      acc[NV - 1] += xd * xd;
#pragma unroll
      for (int r = 0; r < K; ++r)
        if (r < k) acc[r] += static_cast<double>(v[r]) * xd;
    } else {
      using R = typename cplx<T>::real;
      const T wi = w[i];
      double xr = wi.real(), xi = wi.imag();
#pragma unroll
      for (int r = 0; r < K; ++r)
        if (r < k) {
          const double vr = v[r].real(), vm = v[r].imag(), cr = cs[2 * r], ci = cs[2 * r + 1];
          xr -= vr * cr - vm * ci;
          xi -= vr * ci + vm * cr;
        }
      const T xt(static_cast<R>(xr), static_cast<R>(xi));
      w[i] = xt;
      const double yr = xt.real(), yi = xt.imag();
      acc[NV - 1] += yr * yr + yi * yi;
#pragma unroll
      for (int r = 0; r < K; ++r)
        if (r < k) {
          const double vr = v[r].real(), vm = v[r].imag();
          acc[2 * r] += vr * yr + vm * yi;
          acc[2 * r + 1] += vr * yi - vm * yr;
        }
    }
  }
  gs_reduce<NV>(acc, partials, counter, [area](const double* t) {
    for (int j = 0; j < NV - 1; ++j) area[kOffS<T> + j] = t[j];
    area[kOffW2<T> + 1] = t[NV - 1];
  });
}

// 3. Where ||w|| fell below 1/sqrt(2) of its value before: w -= V s and ||w||. Writes the result.
template <class T, int KB>
__global__ void __launch_bounds__(kBlock) k_correct(const T* __restrict__ V, std::int64_t n, int k,
                                                    T* __restrict__ w, double* partials, unsigned* counter,
                                                    double* area) {
  constexpr int K = KB, C = kC<T>;
  const double w2 = area[kOffW2<T>], wn2 = area[kOffW2<T> + 1];
  double* res = area + kOffRes<T>;
  // NaN fails the comparison: no second pass, and the NaN reaches h1.
  if (!(wn2 < 0.5 * w2)) {
    if (blockIdx.x == 0) {
      for (int j = threadIdx.x; j < C * k; j += blockDim.x) res[j] = area[j];
      if (threadIdx.x == 0) {
        res[C * k] = sqrt(w2);
        res[C * k + 1] = sqrt(wn2);
        res[C * k + 2] = 0.0;
      }
    }
    return;  // uniform over the grid: every block read the same two values
  }
  __shared__ double ss[C * K];
  for (int j = threadIdx.x; j < C * K; j += blockDim.x) ss[j] = j < C * k ? area[kOffS<T> + j] : 0.0;
  __syncthreads();
  double acc = 0.0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T xt = subtract_rows<T, K>(V + i, n, k, ss, w[i]);
    w[i] = xt;
    if constexpr (C == 1) {
      const double xd = static_cast<double>(xt);
      acc += xd * xd;
    } else {
      const double yr = xt.real(), yi = xt.imag();
      acc += yr * yr + yi * yi;
    }
  }
  const double a1[1] = {acc};
  gs_reduce<1>(a1, partials, counter, [area, res, k, w2](const double* t) {
    for (int j = 0; j < C * k; ++j) res[j] = area[j] + area[kOffS<T> + j];
    res[C * k] = sqrt(w2);
    res[C * k + 1] = sqrt(t[0]);
    res[C * k + 2] = 1.0;
  });
}

// 4. w *= 1 / h1 unless h1 <= eps h0 (SciPy multiplies by the reciprocal).
template <class T>
__global__ void __launch_bounds__(kBlock) k_scale(std::int64_t n, int k, T* __restrict__ w, const double* area,
                                                  double eps) {
  using R = typename cplx<T>::real;
  const double* res = area + kOffRes<T>;
  const double h0 = res[kC<T> * k], h1 = res[kC<T> * k + 1];
  if (h1 <= eps * h0) return;
  const R a = static_cast<R>(1.0 / h1);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    w[i] = w[i] * a;
}

template <class F>
void dispatch(dtype t, F&& f) {
  switch (t) {
    case dtype::float32: f(static_cast<float*>(nullptr)); return;
    case dtype::float64: f(static_cast<double*>(nullptr)); return;
    case dtype::complex64: f(static_cast<cuda::std::complex<float>*>(nullptr)); return;
    case dtype::complex128: f(static_cast<cuda::std::complex<double>*>(nullptr)); return;
    default: break;
  }
  throw type_error("cusci::sparse::linalg::gs_detail::orthogonalize: dtype must be float32, float64, complex64 or "
                   "complex128, got " + std::string(dtype_name(t)));
}

}  // namespace

std::int64_t fused_max_rows(dtype t) { return is_complex(t) ? 16 : 32; }

std::int64_t result_offset(dtype t) {
  std::int64_t off = 0;
  dispatch(t, [&](auto* p) { off = kOffRes<std::remove_pointer_t<decltype(p)>>; });
  return off;
}

std::int64_t result_doubles(dtype t, std::int64_t k) { return (is_complex(t) ? 2 : 1) * k + 3; }

workspace::workspace(dtype t, std::int64_t n, cudaStream_t st) {
  max_rows = fused_max_rows(t);
  std::int64_t nv = 0, area_n = 0;
  dispatch(t, [&](auto* p) {
    using T = std::remove_pointer_t<decltype(p)>;
    nv = kC<T> * kRows<T> + 1;
    area_n = kOffRes<T> + kC<T> * kRows<T> + 3;
  });
  // One wave of resident blocks per kernel (the occupancy its registers allow): each thread keeps k
  // loads in flight, which covers the memory latency without more warps.
  const std::int64_t sms = solver_detail::sm_count();
  dispatch(t, [&](auto* p) {
    using T = std::remove_pointer_t<decltype(p)>;
    auto wave = [&](auto kernel) {
      int per_sm = 0;
      CUSCI_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0));
      return cusci::detail::grid_for(n, kBlock, sms * std::max(per_sm, 1));
    };
    constexpr int K0 = kRows<T>;
    grid_project = wave(k_project<T, K0>);
    grid_update = wave(k_update_project<T, K0>);
    grid_correct = wave(k_correct<T, K0>);
    grid_project_s[0] = wave(k_project<T, K0 / 4>);
    grid_update_s[0] = wave(k_update_project<T, K0 / 4>);
    grid_correct_s[0] = wave(k_correct<T, K0 / 4>);
    grid_project_s[1] = wave(k_project<T, K0 / 2>);
    grid_update_s[1] = wave(k_update_project<T, K0 / 2>);
    grid_correct_s[1] = wave(k_correct<T, K0 / 2>);
  });
  grid_scale = cusci::detail::grid_for(n, kBlock, sms * 8);
  const unsigned grid = std::max({grid_project, grid_update, grid_correct, grid_project_s[0], grid_update_s[0],
                                  grid_correct_s[0], grid_project_s[1], grid_update_s[1], grid_correct_s[1]});
  partials = device_buffer<double>(static_cast<std::size_t>(nv) * grid, st);
  counter = device_buffer<unsigned>(1, st);
  area = device_buffer<double>(static_cast<std::size_t>(area_n), st);
  CUSCI_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned), st));
}

void orthogonalize(dtype t, const void* V, std::int64_t n, std::int64_t k, void* w, double eps, workspace& ws,
                   cudaStream_t st) {
  CUSCI_EXPECTS(k >= 1 && k <= ws.max_rows && n > 0, value_error,
                "cusci::sparse::linalg::gs_detail::orthogonalize: expected 1 <= k <= " + std::to_string(ws.max_rows) +
                    " and n > 0, got k = " + std::to_string(k) + ", n = " + std::to_string(n));
  dispatch(t, [&](auto* p) {
    using T = std::remove_pointer_t<decltype(p)>;
    const T* Vp = static_cast<const T*>(V);
    T* wp = static_cast<T*>(w);
    const int kk = static_cast<int>(k);
    auto run = [&](auto kb, unsigned gp, unsigned gu, unsigned gc) {
      constexpr int KB = decltype(kb)::value;
      k_project<T, KB><<<gp, kBlock, 0, st>>>(Vp, n, kk, wp, ws.partials.data(), ws.counter.data(), ws.area.data());
      CUSCI_CHECK_LAUNCH();
      k_update_project<T, KB><<<gu, kBlock, 0, st>>>(Vp, n, kk, wp, ws.partials.data(), ws.counter.data(),
                                                     ws.area.data());
      CUSCI_CHECK_LAUNCH();
      k_correct<T, KB><<<gc, kBlock, 0, st>>>(Vp, n, kk, wp, ws.partials.data(), ws.counter.data(), ws.area.data());
      CUSCI_CHECK_LAUNCH();
    };
    constexpr int K0 = kRows<T>;
    if (kk <= K0 / 4)
      run(std::integral_constant<int, K0 / 4>{}, ws.grid_project_s[0], ws.grid_update_s[0], ws.grid_correct_s[0]);
    else if (kk <= K0 / 2)
      run(std::integral_constant<int, K0 / 2>{}, ws.grid_project_s[1], ws.grid_update_s[1], ws.grid_correct_s[1]);
    else
      run(std::integral_constant<int, K0>{}, ws.grid_project, ws.grid_update, ws.grid_correct);
    k_scale<T><<<ws.grid_scale, kBlock, 0, st>>>(n, kk, wp, ws.area.data(), eps);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::sparse::linalg::gs_detail
