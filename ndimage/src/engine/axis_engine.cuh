#pragma once
// (internal; nvcc only) The axis-pass engine's generic kernels, shared by every policy.
//
// The array is seen as [outer, L, inner]: the dims before the filtered axis, the axis, the dims after
// it (each group coalesced; any strides). Three kernels:
//  - rows:    inner == 1 (the axis is the last one): a block stages `lpb` line segments of `tile`
//             outputs plus the K - 1 halo in shared memory, then each thread computes outputs at a
//             block-stride, so loads and stores are coalesced along the line.
//  - columns: inner > 1: a 32 x 8 block stages a [tile_y + K - 1] x 32 tile (32 neighbouring inner
//             positions, coalesced) and each thread walks down its column.
//  - direct:  fallback when the tile would not fit in 48 KiB of shared memory (very long windows):
//             one thread per output, values read through the cache.
// Boundary extension is boundary.cuh's index map, applied only to positions outside [0, L).
//
// A policy P is the per-output arithmetic over the window of K extended values:
//   template <class Tin, class Tout> using acc = ...;   the type values are loaded and combined in
//   static constexpr bool uses_weights;                 stage p.w / p.wg (K values) in shared memory
//   template <class A, class Get, class W> __device__ static A compute(const Get& get, const W& w,
//                                                                      const pass_params& p);
//     get(k) = extended input under tap k (k = 0..K-1), w[k] = weight k (when uses_weights).
// The fast float kernels (axis_fast.cuh) take the same policy with fast_init / fast_step.
// Policies that need a whole line in order (the running mean) launch their own line kernel on
// pass_params (filters/uniform.cu).

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "engine/cast.cuh"
#include "cusci/ndarray.hpp"
#include "engine/boundary.cuh"

namespace cusci::ndimage::detail {

using cusci::detail::strided_indexer;

/// Weights up to this many taps travel in the kernel parameters; longer ones in a device buffer.
inline constexpr int max_param_taps = 128;
/// Shared memory a block may use without opting in to more.
inline constexpr std::size_t smem_limit = 48 * 1024;
inline constexpr int block_threads = 256;
inline constexpr int col_tx = 32, col_ty = 8;

struct pass_params {
  const char* in;
  char* out;
  std::int64_t L, n_outer, n_inner;
  std::int64_t in_sa, out_sa;  // byte strides along the axis
  strided_indexer in_outer, out_outer, in_inner, out_inner;
  const double* wg;  // device weights when K > max_param_taps
  double cval;
  int K;
  int shift;      // K / 2 + origin: output i reads ext[i - shift + k] for tap k
  int symmetric;  // weights: 1 symmetric, -1 antisymmetric, 0 general (NI_Correlate1D's test)
  int mode;       // ext
  int in_code;    // input dtype, for the run-time loader
  int* nan_flag;  // set to 1 by a policy that watches for NaN (watches_nan) when a loaded value is NaN
  double w[max_param_taps];
};

/// Whether policy P asks the kernels to report NaN among the values they load (P::watch_nan): the
/// minimum / maximum policies, whose windows holding NaN are recomputed afterwards in SciPy's
/// comparison order (filters/min_max.cu).
template <class P>
constexpr bool watches_nan() {
  if constexpr (requires { P::watch_nan; }) return P::watch_nan;
  else return false;
}

/// Reports a NaN value `v` through `flag` (when not null) for a policy that watches for NaN (no-op
/// otherwise). Threads race to store the same value; the next kernel on the stream sees it.
template <class P, class A>
__device__ __forceinline__ void note_nan(int* flag, A v) {
  if constexpr (watches_nan<P>() && std::is_floating_point_v<A>) {
    if (v != v && flag != nullptr) *flag = 1;
  }
}

/// Tag: the input dtype is read at run time (p.in_code) and converted to the accumulator type.
struct any_in {};

template <class Tin, class A>
__device__ __forceinline__ A load_value(const char* ptr, int code) {
  if constexpr (std::is_same_v<Tin, any_in>) {
    switch (code) {
      case static_cast<int>(dtype::bool_):
      case static_cast<int>(dtype::uint8): return static_cast<A>(*reinterpret_cast<const std::uint8_t*>(ptr));
      case static_cast<int>(dtype::int8): return static_cast<A>(*reinterpret_cast<const std::int8_t*>(ptr));
      case static_cast<int>(dtype::int16): return static_cast<A>(*reinterpret_cast<const std::int16_t*>(ptr));
      case static_cast<int>(dtype::uint16): return static_cast<A>(*reinterpret_cast<const std::uint16_t*>(ptr));
      case static_cast<int>(dtype::int32): return static_cast<A>(*reinterpret_cast<const std::int32_t*>(ptr));
      case static_cast<int>(dtype::uint32): return static_cast<A>(*reinterpret_cast<const std::uint32_t*>(ptr));
      case static_cast<int>(dtype::int64): return static_cast<A>(*reinterpret_cast<const std::int64_t*>(ptr));
      case static_cast<int>(dtype::uint64): return static_cast<A>(*reinterpret_cast<const std::uint64_t*>(ptr));
      case static_cast<int>(dtype::float32): return static_cast<A>(*reinterpret_cast<const float*>(ptr));
      default: return static_cast<A>(*reinterpret_cast<const double*>(ptr));
    }
  } else {
    return static_cast<A>(*reinterpret_cast<const Tin*>(ptr));
  }
}

/// Stores with C's conversion from double as compiled for x86-64 (what SciPy's
/// CASE_COPY_LINE_TO_DATA does; x86_cast in cast.cuh): truncation toward zero within the range of
/// the conversion instruction, its "integer indefinite" value outside it or for NaN, then the low bits
/// of the target width. bool stores the truncated value's low byte. An accumulator of the output type
/// itself (the exact integer minimum / maximum) is stored as is.
template <class Tout, class A>
__device__ __forceinline__ void store_value(char* ptr, A v) {
  if constexpr (std::is_floating_point_v<Tout> || std::is_same_v<A, Tout>) {
    *reinterpret_cast<Tout*>(ptr) = static_cast<Tout>(v);
  } else if constexpr (std::is_same_v<Tout, bool>) {
    *reinterpret_cast<Tout*>(ptr) = static_cast<Tout>(static_cast<long long>(static_cast<double>(v)));
  } else {
    *reinterpret_cast<Tout*>(ptr) = x86_cast<Tout>(static_cast<double>(v));
  }
}

/// The extended input at position i of the line starting at `line_base`.
template <class Tin, class A>
__device__ __forceinline__ A load_ext(const pass_params& p, const char* line_base, std::int64_t i) {
  if (static_cast<std::uint64_t>(i) < static_cast<std::uint64_t>(p.L))
    return load_value<Tin, A>(line_base + i * p.in_sa, p.in_code);
  const std::int64_t m = map_index(i, p.L, p.mode);  // edge tiles only
  if (m < 0) return static_cast<A>(p.cval);
  return load_value<Tin, A>(line_base + m * p.in_sa, p.in_code);
}

template <class A>
struct smem_get {
  const A* s;
  int stride;
  __device__ __forceinline__ A operator()(int k) const { return s[k * stride]; }
};

template <class Tin, class A>
struct global_get {
  const char* base;
  std::int64_t i0, L, sa;
  double cval;
  int mode, code;
  __device__ __forceinline__ A operator()(int k) const {
    std::int64_t i = i0 + k;
    if (static_cast<std::uint64_t>(i) >= static_cast<std::uint64_t>(L)) {
      i = map_index(i, L, mode);
      if (i < 0) return static_cast<A>(cval);
    }
    return load_value<Tin, A>(base + i * sa, code);
  }
};

template <class A>
struct global_weights {
  const double* w;
  __device__ __forceinline__ A operator[](int k) const { return static_cast<A>(w[k]); }
};

/// Values the policy stages before the line tile (its weights).
template <class P>
__device__ __forceinline__ int staged_weights(const pass_params& p) {
  if constexpr (P::uses_weights) return p.K;
  else return 0;
}

template <class P, class A>
__device__ __forceinline__ A* stage_weights(const pass_params& p, unsigned char* smem, int tid, int nthreads) {
  A* sw = reinterpret_cast<A*>(smem);
  if constexpr (P::uses_weights) {
    for (int k = tid; k < p.K; k += nthreads)
      sw[k] = static_cast<A>(p.K <= max_param_taps ? p.w[k] : p.wg[k]);
  }
  return sw;  // visible after the next __syncthreads()
}

template <class P, class Tin, class Tout>
__global__ void __launch_bounds__(block_threads)
    rows_kernel(const pass_params p, int tile, int lpb, std::int64_t n_seg, std::int64_t n_blocks) {
  using A = typename P::template acc<Tin, Tout>;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = threadIdx.x;
  const A* sw = stage_weights<P, A>(p, smem, tid, blockDim.x);
  A* buf = reinterpret_cast<A*>(smem) + staged_weights<P>(p);
  const int W = tile + p.K - 1;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t seg = b % n_seg;
    const std::int64_t line0 = (b / n_seg) * lpb;
    const std::int64_t x0 = seg * tile;
    __syncthreads();  // the previous block's reads of buf are done
    for (int l = 0; l < lpb; ++l) {
      const std::int64_t o = line0 + l;
      if (o >= p.n_outer) break;
      const char* base = p.in + p.in_outer.offset(o);
      A* row = buf + l * W;
      for (int q = tid; q < W; q += blockDim.x) {
        const A v = load_ext<Tin, A>(p, base, x0 + q - p.shift);
        note_nan<P>(p.nan_flag, v);
        row[q] = v;
      }
    }
    __syncthreads();
    for (int l = 0; l < lpb; ++l) {
      const std::int64_t o = line0 + l;
      if (o >= p.n_outer) break;
      char* obase = p.out + p.out_outer.offset(o);
      const A* row = buf + l * W;
      for (int q = tid; q < tile; q += blockDim.x) {
        const std::int64_t x = x0 + q;
        if (x >= p.L) break;
        const A r = P::template compute<A>(smem_get<A>{row + q, 1}, sw, p);
        store_value<Tout>(obase + x * p.out_sa, r);
      }
    }
  }
}

template <class P, class Tin, class Tout>
__global__ void __launch_bounds__(col_tx* col_ty)
    cols_kernel(const pass_params p, int tile_y, std::int64_t n_bx, std::int64_t n_by, std::int64_t n_blocks) {
  using A = typename P::template acc<Tin, Tout>;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const A* sw = stage_weights<P, A>(p, smem, ty * col_tx + tx, col_tx * col_ty);
  A* buf = reinterpret_cast<A*>(smem) + staged_weights<P>(p);
  const int rows = tile_y + p.K - 1;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % n_bx;
    const std::int64_t t = b / n_bx;
    const std::int64_t by = t % n_by;
    const std::int64_t o = t / n_by;
    const std::int64_t n = bx * col_tx + tx;
    const std::int64_t y0 = by * tile_y;
    const bool col_ok = n < p.n_inner;
    const char* base = p.in + p.in_outer.offset(o) + (col_ok ? p.in_inner.offset(n) : 0);
    __syncthreads();
    for (int r = ty; r < rows; r += col_ty) {
      const A v = col_ok ? load_ext<Tin, A>(p, base, y0 + r - p.shift) : A(0);
      note_nan<P>(p.nan_flag, v);
      buf[r * col_tx + tx] = v;
    }
    __syncthreads();
    if (col_ok) {
      char* obase = p.out + p.out_outer.offset(o) + p.out_inner.offset(n);
      for (int r = ty; r < tile_y; r += col_ty) {
        const std::int64_t y = y0 + r;
        if (y >= p.L) break;
        const A v = P::template compute<A>(smem_get<A>{buf + r * col_tx + tx, col_tx}, sw, p);
        store_value<Tout>(obase + y * p.out_sa, v);
      }
    }
  }
}

template <class P, class Tin, class Tout>
__global__ void __launch_bounds__(block_threads) direct_kernel(const pass_params p, std::int64_t n_total) {
  using A = typename P::template acc<Tin, Tout>;
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n_total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t n = t % p.n_inner;
    const std::int64_t rem = t / p.n_inner;
    const std::int64_t y = rem % p.L;
    const std::int64_t o = rem / p.L;
    const global_get<Tin, A> get{p.in + p.in_outer.offset(o) + p.in_inner.offset(n), y - p.shift, p.L, p.in_sa,
                                 p.cval, p.mode, p.in_code};
    // Weights policies reach this kernel only for windows longer than max_param_taps, whose
    // weights are in p.wg.
    const A acc = P::template compute<A>(get, global_weights<A>{p.wg}, p);
    // Every element of a line is some thread's own position y: checking it covers the line.
    if constexpr (watches_nan<P>()) {
      const char* own = p.in + p.in_outer.offset(o) + y * p.in_sa + p.in_inner.offset(n);
      note_nan<P>(p.nan_flag, load_value<Tin, A>(own, p.in_code));
    }
    store_value<Tout>(p.out + p.out_outer.offset(o) + y * p.out_sa + p.out_inner.offset(n), acc);
  }
}

inline unsigned blocks_for(std::int64_t n_blocks) {
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(n_blocks, 1), 1LL << 22));
}

/// The number of SMs of the current device, cached per device (queried once): this runs on every pass.
inline int sm_count() {
  constexpr int max_dev = 64;
  static std::atomic<int> cache[max_dev] = {};
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  if (dev >= 0 && dev < max_dev) {
    const int c = cache[dev].load(std::memory_order_relaxed);
    if (c > 0) return c;
  }
  int sms = 0;
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  sms = sms > 0 ? sms : 1;
  if (dev >= 0 && dev < max_dev) cache[dev].store(sms, std::memory_order_relaxed);
  return sms;
}

/// The generic kernels for policy P from Tin (a device type, or any_in) to Tout.
template <class P, class Tin, class Tout>
void launch(const pass_params& p, cudaStream_t stream) {
  using A = typename P::template acc<Tin, Tout>;
  const std::size_t as = sizeof(A);
  const std::int64_t K = p.K;
  const std::int64_t nw = P::uses_weights ? K : 0;
  if (p.n_inner == 1) {
    // Tile length: the line rounded up to a warp, at most 2048 outputs; short lines are packed
    // several to a block so a block always has work for its 256 threads.
    std::int64_t tile = std::min<std::int64_t>((p.L + 31) / 32 * 32, 2048);
    std::int64_t lpb = std::max<std::int64_t>(1, 2048 / tile);
    lpb = std::min<std::int64_t>(lpb, p.n_outer);
    auto bytes = [&] { return static_cast<std::size_t>(nw + lpb * (tile + K - 1)) * as; };
    while (bytes() > smem_limit && lpb > 1) lpb /= 2;
    while (bytes() > smem_limit && tile > 256) tile /= 2;
    if (bytes() <= smem_limit) {
      const std::int64_t n_seg = (p.L + tile - 1) / tile;
      const std::int64_t n_blocks = n_seg * ((p.n_outer + lpb - 1) / lpb);
      rows_kernel<P, Tin, Tout><<<blocks_for(n_blocks), block_threads, bytes(), stream>>>(
          p, static_cast<int>(tile), static_cast<int>(lpb), n_seg, n_blocks);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  } else {
    std::int64_t tile_y = std::is_same_v<A, float> ? 128 : 64;
    tile_y = std::min<std::int64_t>(tile_y, (p.L + col_ty - 1) / col_ty * col_ty);
    auto bytes = [&] { return static_cast<std::size_t>(nw + (tile_y + K - 1) * col_tx) * as; };
    while (bytes() > smem_limit && tile_y > col_ty) tile_y -= col_ty;
    if (bytes() <= smem_limit) {
      const std::int64_t n_bx = (p.n_inner + col_tx - 1) / col_tx;
      const std::int64_t n_by = (p.L + tile_y - 1) / tile_y;
      const std::int64_t n_blocks = n_bx * n_by * p.n_outer;
      cols_kernel<P, Tin, Tout><<<blocks_for(n_blocks), dim3(col_tx, col_ty), bytes(), stream>>>(
          p, static_cast<int>(tile_y), n_bx, n_by, n_blocks);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  }
  // Fallback for windows whose tile does not fit (a weights policy gets here only for
  // K > max_param_taps, so p.wg is set).
  const std::int64_t n_total = p.n_outer * p.L * p.n_inner;
  direct_kernel<P, Tin, Tout><<<blocks_for((n_total + block_threads - 1) / block_threads), block_threads, 0, stream>>>(
      p, n_total);
  CUSCI_CHECK_LAUNCH();
}

/// launch<P, Tin, Tout> with Tout chosen at run time among the real dtypes (bool stores the
/// truncated byte, as SciPy's npy_bool).
template <class P, class Tin>
void launch_out(dtype out, const pass_params& p, cudaStream_t stream) {
  switch (out) {
    case dtype::bool_:
    case dtype::uint8: return launch<P, Tin, std::uint8_t>(p, stream);
    case dtype::int8: return launch<P, Tin, std::int8_t>(p, stream);
    case dtype::int16: return launch<P, Tin, std::int16_t>(p, stream);
    case dtype::uint16: return launch<P, Tin, std::uint16_t>(p, stream);
    case dtype::int32: return launch<P, Tin, std::int32_t>(p, stream);
    case dtype::uint32: return launch<P, Tin, std::uint32_t>(p, stream);
    case dtype::int64: return launch<P, Tin, std::int64_t>(p, stream);
    case dtype::uint64: return launch<P, Tin, std::uint64_t>(p, stream);
    case dtype::float32: return launch<P, Tin, float>(p, stream);
    case dtype::float64: return launch<P, Tin, double>(p, stream);
    default: break;
  }
  throw type_error("cusci::ndimage: output dtype " + std::string(dtype_name(out)) + " is not supported by the kernel");
}

/// The [outer, L, inner] view of `in` and `out` around `axis` for a window of K taps shifted by
/// `origin` (SciPy's K / 2 + origin), boundary `mode` and `cval`. Weights are left to the caller.
pass_params make_pass_params(const ndarray& in, const ndarray& out, int axis, int K, std::int64_t origin, ext mode,
                             double cval);

}  // namespace cusci::ndimage::detail
