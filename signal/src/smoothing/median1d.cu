// medfilt's 1-D path for float32 / float64 and odd windows of 3..25: the zero-padded running median
// by forgetful selection in registers over a shared-memory tile.
//
// A block loads a tile of `tile` outputs plus the K halo values (zero outside the line) once,
// coalesced, then each thread produces `items` / 2 pairs of neighbouring outputs. The two windows of a
// pair share K - 1 = 2m values; forgetful selection (Paeth; the variant used by median filters on
// GPUs) finds their m-th and (m+1)-th smallest (lo, hi): keep m + 2 candidates, repeatedly move the
// minimum and maximum of the candidates out (neither can be a middle value) and take in the next
// shared value. Each median is then clamp(a, lo, hi) with a the window's own extra value. About
// K^2 / 8 compare-exchanges per output, all in registers (every loop bound is a compile-time
// constant after unrolling); this pairing halved the per-output selection of an earlier version.
//
// NaN: SciPy's 1-D rank filter (a two-heap mediator) gives history-dependent results for windows
// holding NaN; this kernel only raises a flag when it meets one, and the caller recomputes the
// result through ndimage's rank filter, which replays SciPy's algorithm.
//
// Roofline: one read and one write per element (plus K / tile halo); for K = 11 about 17
// compare-exchanges per output.

#include <cuda_runtime.h>

#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "smoothing/smoothing_detail.hpp"

namespace cusci::signal::detail {
namespace {

constexpr int med_threads = 256;
constexpr int med_items = 4;
constexpr int med_tile = med_threads * med_items;

// min / max instructions (FMNMX); the inputs hold no NaN here (a NaN sends the call to the fallback).
__device__ __forceinline__ float vmin(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ float vmax(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double vmin(double a, double b) { return fmin(a, b); }
__device__ __forceinline__ double vmax(double a, double b) { return fmax(a, b); }

template <class T>
__device__ __forceinline__ void cswap(T& a, T& b) {
  const T lo = vmin(a, b);
  const T hi = vmax(a, b);
  a = lo;
  b = hi;
}

/// The two middle values (the m-th and (m+1)-th smallest, K - 1 = 2m) of v[1 .. K), no NaN.
template <class T, int K>
__device__ __forceinline__ void middle_pair(const T (&v)[K + 1], T& lo, T& hi) {
  constexpr int n = K - 1, m = n / 2;
  if constexpr (m == 1) {
    lo = vmin(v[1], v[2]);
    hi = vmax(v[1], v[2]);
  } else {
    // Forgetful selection keeping m + 2 candidates: the minimum of them has m + 1 values above it and
    // the maximum m + 1 below, so neither is a middle value; after the n - R rounds four candidates
    // are left whose second and third are the middle pair.
    constexpr int R = m + 2;
    T w[R];
#pragma unroll
    for (int i = 0; i < R; ++i) w[i] = v[1 + i];
#pragma unroll
    for (int t = 0; t < n - R; ++t) {
      const int c = R - t;  // candidates w[0 .. c)
#pragma unroll
      for (int i = 1; i < R; ++i)
        if (i < c) cswap(w[0], w[i]);
#pragma unroll
      for (int i = 1; i < R - 1; ++i)
        if (i < c - 1) cswap(w[i], w[c - 1]);
      w[0] = v[1 + R + t];
    }
    cswap(w[0], w[1]);
    cswap(w[2], w[3]);
    const T p = vmax(w[0], w[2]), q = vmin(w[1], w[3]);
    lo = vmin(p, q);
    hi = vmax(p, q);
  }
}

// Each thread produces pairs of neighbouring outputs: their windows share K - 1 values, whose middle
// pair (lo, hi) is selected once; the median of the shared values plus one more value a is then
// clamp(a, lo, hi). About half the compare-exchanges of one selection per output.
template <class T, int K>
__global__ void __launch_bounds__(med_threads)
    median1d_kernel(const T* __restrict__ x, std::int64_t stride, std::int64_t n, T* __restrict__ y, int* nan_flag) {
  __shared__ T s[med_tile + K];
  const std::int64_t n_tiles = (n + med_tile - 1) / med_tile;
  bool saw_nan = false;
  for (std::int64_t tile = blockIdx.x; tile < n_tiles; tile += gridDim.x) {
    const std::int64_t base = tile * med_tile;
    for (int j = threadIdx.x; j < med_tile + K; j += med_threads) {
      const std::int64_t src = base - K / 2 + j;
      T v = T(0);
      if (src >= 0 && src < n) v = x[src * stride];
      saw_nan |= (v != v);
      s[j] = v;
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < med_items / 2; ++q) {
      const int idx = 2 * (threadIdx.x + q * med_threads);
      const std::int64_t out = base + idx;
      if (out < n) {
        T v[K + 1];
#pragma unroll
        for (int k = 0; k <= K; ++k) v[k] = s[idx + k];
        T lo, hi;
        middle_pair<T, K>(v, lo, hi);
        y[out] = vmin(vmax(v[0], lo), hi);
        if (out + 1 < n) y[out + 1] = vmin(vmax(v[K], lo), hi);
      }
    }
    __syncthreads();
  }
  if (__syncthreads_or(saw_nan ? 1 : 0) && threadIdx.x == 0) atomicExch(nan_flag, 1);
}

template <class T, int K>
void launch(const ndarray& x, ndarray& y, int* nan_flag, cudaStream_t stream) {
  const std::int64_t n = x.shape()[0];
  const std::int64_t stride = x.strides()[0] / static_cast<std::int64_t>(sizeof(T));
  const std::int64_t tiles = (n + med_tile - 1) / med_tile;
  const unsigned grid = static_cast<unsigned>(tiles < 65535LL * 16 ? tiles : 65535LL * 16);
  median1d_kernel<T, K><<<grid, med_threads, 0, stream>>>(x.data_as<T>(), stride, n, y.data_as<T>(), nan_flag);
  CUSCI_CHECK_LAUNCH();
}

template <class T>
void dispatch_k(const ndarray& x, ndarray& y, int k, int* nan_flag, cudaStream_t stream) {
  switch (k) {
    case 3: launch<T, 3>(x, y, nan_flag, stream); break;
    case 5: launch<T, 5>(x, y, nan_flag, stream); break;
    case 7: launch<T, 7>(x, y, nan_flag, stream); break;
    case 9: launch<T, 9>(x, y, nan_flag, stream); break;
    case 11: launch<T, 11>(x, y, nan_flag, stream); break;
    case 13: launch<T, 13>(x, y, nan_flag, stream); break;
    case 15: launch<T, 15>(x, y, nan_flag, stream); break;
    case 17: launch<T, 17>(x, y, nan_flag, stream); break;
    case 19: launch<T, 19>(x, y, nan_flag, stream); break;
    case 21: launch<T, 21>(x, y, nan_flag, stream); break;
    case 23: launch<T, 23>(x, y, nan_flag, stream); break;
    case 25: launch<T, 25>(x, y, nan_flag, stream); break;
    default: throw value_error("cusci::signal::medfilt: internal: no 1-D median kernel for window " + std::to_string(k));
  }
}

}  // namespace

void median1d(const ndarray& x, ndarray& y, int k, int* nan_flag) {
  cudaStream_t stream = get_current_stream();
  CUSCI_CUDA_TRY(cudaMemsetAsync(nan_flag, 0, sizeof(int), stream));
  if (x.shape()[0] == 0) return;
  if (x.dtype() == dtype::float32) dispatch_k<float>(x, y, k, nan_flag, stream);
  else dispatch_k<double>(x, y, k, nan_flag, stream);
}

}  // namespace cusci::signal::detail
