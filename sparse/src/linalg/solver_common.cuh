#pragma once
// Internal helpers shared by the device sources of cusci::sparse::linalg (nvcc only): warp and
// grid-wide float64 sums, the device's multiprocessor count, the contiguous-vector conversion of the
// solvers' operands, and the dispatch over the four inexact dtypes.

#include <cstdint>
#include <string>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::sparse::linalg::solver_detail {

/// Sum over the 32 lanes of a warp (butterfly: every lane gets it); float, double or their
/// complex types. Every lane of the warp must call it.
template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  constexpr unsigned full = 0xffffffffu;
  if constexpr (cusci::detail::is_complex_v<T>) {
    auto re = v.real(), im = v.imag();
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      re += __shfl_xor_sync(full, re, o);
      im += __shfl_xor_sync(full, im, o);
    }
    return T(re, im);
  } else {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(full, v, o);
    return v;
  }
}

/// Sums NV float64 values v[0..NV) over the whole grid. Each block writes its partial sums to
/// partials (NV * gridDim.x values); the last block to finish adds the partials in a fixed order
/// (deterministic) and calls fin(totals) (totals: const double[NV]) in its thread 0, then resets
/// *counter to 0 for the next launch. Every thread of every block that reaches it must call it
/// (early returns before it must be uniform over the grid); blockDim.x a multiple of 32, at most
/// 1024. Once per kernel: it does not end with a barrier (the blocks other than the last return at
/// once).
template <int NV, class Fin>
__device__ __forceinline__ void grid_reduce(const double* v, double* partials, unsigned* counter, const Fin& fin) {
  __shared__ double sh[NV][32];
  __shared__ bool last;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
#pragma unroll
  for (int k = 0; k < NV; ++k) {
    const double s = warp_sum(v[k]);
    if (lane == 0) sh[k][warp] = s;
  }
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int k = 0; k < NV; ++k) {
      double s = lane < nwarps ? sh[k][lane] : 0.0;
      s = warp_sum(s);
      if (lane == 0) partials[k * gridDim.x + blockIdx.x] = s;
    }
    if (lane == 0) {
      __threadfence();
      last = atomicAdd(counter, 1u) == gridDim.x - 1;
    }
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double t[NV];
#pragma unroll
  for (int k = 0; k < NV; ++k) {
    t[k] = 0.0;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) t[k] += __ldcg(partials + k * gridDim.x + i);
    t[k] = warp_sum(t[k]);
  }
  __syncthreads();  // sh was read by every thread above; reuse it
#pragma unroll
  for (int k = 0; k < NV; ++k)
    if (lane == 0) sh[k][warp] = t[k];
  __syncthreads();
  if (threadIdx.x == 0) {
    double tot[NV];
#pragma unroll
    for (int k = 0; k < NV; ++k) {
      tot[k] = 0.0;
      for (int w = 0; w < nwarps; ++w) tot[k] += sh[k][w];
    }
    fin(tot);
    *counter = 0u;
  }
}

/// grid_reduce of one value, with fin(total) (total: double). Same rules.
template <class Fin>
__device__ __forceinline__ void grid_sum(double v, double* partials, unsigned* counter, const Fin& fin) {
  const double a[1] = {v};
  grid_reduce<1>(a, partials, counter, [&](const double* t) { fin(t[0]); });
}

/// The number of multiprocessors of the current device (at least 1).
inline int sm_count() {
  int dev = 0, sms = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return sms > 0 ? sms : 1;
}

/// a as a C-contiguous [n] array of dtype dt (a copy when force_copy or when a conversion is
/// needed; a must have n elements).
inline ndarray contiguous_vector(const ndarray& a, dtype dt, std::int64_t n, bool force_copy) {
  ndarray c = a.astype(dt, force_copy);
  if (!c.is_c_contiguous()) c = c.copy();
  return c.reshape({n});
}

/// Calls f(type_tag<T>{}) with T the device type of float32, float64, complex64 or complex128;
/// other dtypes throw type_error naming fn and what.
template <class F>
decltype(auto) dispatch_inexact(dtype t, const char* fn, const char* what, F&& f) {
  using cusci::detail::type_tag;
  switch (t) {
    case dtype::float32: return f(type_tag<float>{});
    case dtype::float64: return f(type_tag<double>{});
    case dtype::complex64: return f(type_tag<cuda::std::complex<float>>{});
    case dtype::complex128: return f(type_tag<cuda::std::complex<double>>{});
    default: break;
  }
  throw type_error(std::string(fn) + ": " + what + " must have dtype float32, float64, complex64 or complex128, got " +
                   std::string(dtype_name(t)));
}

}  // namespace cusci::sparse::linalg::solver_detail
