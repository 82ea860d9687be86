#pragma once
// Internal helpers shared by the device sources of cusci::sparse::linalg (nvcc only): arithmetic
// rounded in NumPy's order, warp and grid-wide float64 sums, the device's multiprocessor count, the
// contiguous-vector conversion of the solvers' operands, and the dispatch over the four inexact dtypes.

#include <cstdint>
#include <string>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::sparse::linalg::solver_detail {

// Arithmetic rounded as NumPy computes it: each product, sum and quotient rounded to the operand's
// precision on its own. nvcc contracts a * b + c into one fused multiply-add (one rounding) by default;
// NumPy evaluates a vector expression one operation at a time, rounding twice. Solvers whose results
// depend on that rounding use these for their vector updates: a breakdown test against exact zero
// (a contracted update leaves a 1e-16 residue where NumPy's cancels exactly), or estimates that follow
// rounding once orthogonality is lost. The __*_rn intrinsics are never contracted.
//   float64: __dmul_rn, __dadd_rn, __dsub_rn, __ddiv_rn;  float32: __fmul_rn, __fadd_rn, __fsub_rn,
//   __fdiv_rn (float32 rounding throughout, as NumPy's float32 arrays);
//   complex: NumPy's componentwise formulas over the real overloads, (ar br - ai bi) + (ar bi + ai br) i
//   for a product (four rounded products, then one rounded difference and one rounded sum),
//   componentwise rounded sums and differences.
// Both operands have the same type (no mixed real / complex or float / double overloads).
__device__ __forceinline__ double rn_mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double rn_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double rn_sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ double rn_div(double a, double b) { return __ddiv_rn(a, b); }
__device__ __forceinline__ float rn_mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float rn_add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float rn_sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ float rn_div(float a, float b) { return __fdiv_rn(a, b); }
template <class R>
__device__ __forceinline__ cuda::std::complex<R> rn_mul(const cuda::std::complex<R>& a,
                                                       const cuda::std::complex<R>& b) {
  return cuda::std::complex<R>(rn_sub(rn_mul(a.real(), b.real()), rn_mul(a.imag(), b.imag())),
                               rn_add(rn_mul(a.real(), b.imag()), rn_mul(a.imag(), b.real())));
}
template <class R>
__device__ __forceinline__ cuda::std::complex<R> rn_add(const cuda::std::complex<R>& a,
                                                       const cuda::std::complex<R>& b) {
  return cuda::std::complex<R>(rn_add(a.real(), b.real()), rn_add(a.imag(), b.imag()));
}
template <class R>
__device__ __forceinline__ cuda::std::complex<R> rn_sub(const cuda::std::complex<R>& a,
                                                       const cuda::std::complex<R>& b) {
  return cuda::std::complex<R>(rn_sub(a.real(), b.real()), rn_sub(a.imag(), b.imag()));
}

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
