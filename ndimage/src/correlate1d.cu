// Kernels of the separable 1-D correlation that every linear filter of this module is built on.
//
// The array is seen as [outer, L, inner]: the dims before the filtered axis, the axis, the dims after
// it (each group coalesced; any strides). Three kernels:
//  - rows:    inner == 1 (the axis is the last one): a block stages `lpb` line segments of `tile`
//             outputs plus the K - 1 halo in shared memory, then each thread computes outputs at a
//             block-stride, so loads and stores are coalesced along the line.
//  - columns: inner > 1: a 32 x 8 block stages a [tile_y + K - 1] x 32 tile (32 neighbouring inner
//             positions, coalesced) and each thread walks down its column.
//  - direct:  fallback when the tile would not fit in 48 KiB of shared memory (very long kernels):
//             one thread per output, taps read through the cache.
// Boundary extension is an index map applied only to positions outside [0, L) (SciPy's
// NI_ExtendLine expressed as a map; it holds for any line length, including lines shorter than the
// filter). Sums follow NI_Correlate1D's order exactly (symmetric and antisymmetric kernels pair taps)
// with IEEE double operations and no fused multiply-add, so double results match SciPy bit for bit;
// float32 -> float32 runs in float32.

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "correlate_pass.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::ndimage::detail {
namespace {

using cusci::detail::strided_indexer;

/// Weights up to this many taps travel in the kernel parameters; longer ones in a device buffer.
constexpr int max_param_taps = 128;
/// Shared memory a block may use without opting in to more.
constexpr std::size_t smem_limit = 48 * 1024;
constexpr int block_threads = 256;
constexpr int col_tx = 32, col_ty = 8;

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
  int symmetric;  // 1 symmetric, -1 antisymmetric, 0 general (NI_Correlate1D's test)
  int mode;       // ext
  int in_code;    // input dtype, for the run-time loader
  double w[max_param_taps];
};

/// Tag: the input dtype is read at run time (p.in_code).
struct any_in {};

template <class Tin, class Tout>
struct acc_of {
  using type = double;
};
template <>
struct acc_of<float, float> {
  using type = float;
};

__device__ __forceinline__ std::int64_t map_index(std::int64_t i, std::int64_t L, int mode) {
  switch (mode) {
    case static_cast<int>(ext::nearest): return i < 0 ? 0 : L - 1;
    case static_cast<int>(ext::wrap): {
      std::int64_t r = i % L;
      return r < 0 ? r + L : r;
    }
    case static_cast<int>(ext::reflect): {
      const std::int64_t per = 2 * L;
      std::int64_t r = i % per;
      if (r < 0) r += per;
      return r < L ? r : per - 1 - r;
    }
    case static_cast<int>(ext::mirror): {
      if (L == 1) return 0;
      const std::int64_t per = 2 * L - 2;
      std::int64_t r = i % per;
      if (r < 0) r += per;
      return r < L ? r : per - r;
    }
    default: return -1;  // constant
  }
}

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
/// CASE_COPY_LINE_TO_DATA does): truncation toward zero, then wrap-around to the target width.
template <class Tout, class A>
__device__ __forceinline__ void store_value(char* ptr, A v) {
  if constexpr (std::is_floating_point_v<Tout>) {
    *reinterpret_cast<Tout*>(ptr) = static_cast<Tout>(v);
  } else if constexpr (std::is_same_v<Tout, std::uint64_t>) {
    const double d = static_cast<double>(v);
    constexpr double two63 = 9223372036854775808.0;
    *reinterpret_cast<Tout*>(ptr) =
        d >= two63 ? static_cast<std::uint64_t>(static_cast<long long>(d - two63)) + (1ull << 63)
                   : static_cast<std::uint64_t>(static_cast<long long>(d));
  } else {
    *reinterpret_cast<Tout*>(ptr) = static_cast<Tout>(static_cast<long long>(static_cast<double>(v)));
  }
}

template <class A>
__device__ __forceinline__ A op_add(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dadd_rn(a, b);
  else return a + b;
}
template <class A>
__device__ __forceinline__ A op_sub(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dsub_rn(a, b);
  else return a - b;
}
template <class A>
__device__ __forceinline__ A op_mul(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dmul_rn(a, b);
  else return a * b;
}

/// One output: `get(k)` returns the extended input under tap k (k = 0..K-1), `w` the weights.
template <class A, class Get, class Wt>
__device__ __forceinline__ A correlate_at(const Get& get, const Wt& w, int K, int symmetric) {
  if (symmetric > 0) {
    const int c = K >> 1;
    A acc = op_mul(get(c), w[c]);
    for (int k = 0; k < c; ++k) acc = op_add(acc, op_mul(op_add(get(k), get(K - 1 - k)), w[k]));
    return acc;
  }
  if (symmetric < 0) {
    const int c = K >> 1;
    A acc = op_mul(get(c), w[c]);
    for (int k = 0; k < c; ++k) acc = op_add(acc, op_mul(op_sub(get(k), get(K - 1 - k)), w[k]));
    return acc;
  }
  A acc = op_mul(get(K - 1), w[K - 1]);
  for (int k = 0; k < K - 1; ++k) acc = op_add(acc, op_mul(get(k), w[k]));
  return acc;
}

template <class A>
struct smem_get {
  const A* s;
  int stride;
  __device__ __forceinline__ A operator()(int k) const { return s[k * stride]; }
};

template <class Tin, class A>
__device__ __forceinline__ A load_ext(const pass_params& p, const char* line_base, std::int64_t i) {
  if (static_cast<std::uint64_t>(i) < static_cast<std::uint64_t>(p.L))
    return load_value<Tin, A>(line_base + i * p.in_sa, p.in_code);
  const std::int64_t m = map_index(i, p.L, p.mode);  // edge tiles only
  if (m < 0) return static_cast<A>(p.cval);
  return load_value<Tin, A>(line_base + m * p.in_sa, p.in_code);
}

template <class A>
__device__ __forceinline__ A* stage_weights(const pass_params& p, unsigned char* smem, int tid, int nthreads) {
  A* sw = reinterpret_cast<A*>(smem);
  for (int k = tid; k < p.K; k += nthreads)
    sw[k] = static_cast<A>(p.K <= max_param_taps ? p.w[k] : p.wg[k]);
  return sw;  // visible after the next __syncthreads()
}

template <class Tin, class Tout>
__global__ void __launch_bounds__(block_threads)
    rows_kernel(const pass_params p, int tile, int lpb, std::int64_t n_seg, std::int64_t n_blocks) {
  using A = typename acc_of<Tin, Tout>::type;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = threadIdx.x;
  const A* sw = stage_weights<A>(p, smem, tid, blockDim.x);
  A* buf = reinterpret_cast<A*>(smem) + p.K;
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
      for (int q = tid; q < W; q += blockDim.x) row[q] = load_ext<Tin, A>(p, base, x0 + q - p.shift);
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
        const A r = correlate_at<A>(smem_get<A>{row + q, 1}, sw, p.K, p.symmetric);
        store_value<Tout>(obase + x * p.out_sa, r);
      }
    }
  }
}

template <class Tin, class Tout>
__global__ void __launch_bounds__(col_tx* col_ty)
    cols_kernel(const pass_params p, int tile_y, std::int64_t n_bx, std::int64_t n_by, std::int64_t n_blocks) {
  using A = typename acc_of<Tin, Tout>::type;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const A* sw = stage_weights<A>(p, smem, ty * col_tx + tx, col_tx * col_ty);
  A* buf = reinterpret_cast<A*>(smem) + p.K;
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
    for (int r = ty; r < rows; r += col_ty)
      buf[r * col_tx + tx] = col_ok ? load_ext<Tin, A>(p, base, y0 + r - p.shift) : A(0);
    __syncthreads();
    if (col_ok) {
      char* obase = p.out + p.out_outer.offset(o) + p.out_inner.offset(n);
      for (int r = ty; r < tile_y; r += col_ty) {
        const std::int64_t y = y0 + r;
        if (y >= p.L) break;
        const A v = correlate_at<A>(smem_get<A>{buf + r * col_tx + tx, col_tx}, sw, p.K, p.symmetric);
        store_value<Tout>(obase + y * p.out_sa, v);
      }
    }
  }
}

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

template <class Tin, class Tout>
__global__ void __launch_bounds__(block_threads) direct_kernel(const pass_params p, std::int64_t n_total) {
  using A = typename acc_of<Tin, Tout>::type;
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n_total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t n = t % p.n_inner;
    const std::int64_t rem = t / p.n_inner;
    const std::int64_t y = rem % p.L;
    const std::int64_t o = rem / p.L;
    const global_get<Tin, A> get{p.in + p.in_outer.offset(o) + p.in_inner.offset(n), y - p.shift, p.L, p.in_sa,
                                 p.cval, p.mode, p.in_code};
    // Only used for kernels longer than max_param_taps, whose weights are in p.wg.
    const A acc = correlate_at<A>(get, global_weights<A>{p.wg}, p.K, p.symmetric);
    store_value<Tout>(p.out + p.out_outer.offset(o) + y * p.out_sa + p.out_inner.offset(n), acc);
  }
}

// ---------------------------------------------------------------------------------------------
// Fast paths: float32 -> float32 and float64 -> float64 with at most fast_max_taps<T> taps.
// Sums are accumulated in T with fused multiply-adds in tap order (not NI_Correlate1D's pairing
// of symmetric taps): the difference from SciPy is a few ulp of T relative to sum |w_k x_k|.
// The generic kernels above remain for every other dtype pair, longer kernels and short lines.
//
// Why the generic kernels run at ~1/4 of the copy roofline: one scalar load in flight per thread
// in the staging loop (a branch between load and store), 64-bit index arithmetic per element, and
// every output re-reading K values (and K weights) from shared memory.
// The fast kernels instead:
//  - rows (axis contiguous, unit stride): a block stages one row segment of nt * V outputs plus
//    the halo in shared memory with V independent coalesced loads per thread issued before any
//    store; each thread then computes V consecutive outputs from a register window filled with
//    16-byte shared-memory loads (one vector load per VE taps serves all V outputs), with the
//    weights as compile-time-indexed kernel parameters (constant bank operands of the FMA), and
//    writes them with 16-byte stores where the row is aligned. The default variant loads the halo
//    with the tile (one round of loads per segment) and pads the shared layout against bank
//    conflicts (rows_slot); see set_fast_rows_variant.
//  - cols (inner > 1): a thread owns one inner position (consecutive threads are consecutive inner
//    positions, so every access is coalesced when the inner stride is the item size) and walks a
//    segment of the axis keeping a sliding register window of KMAX - 1 + G values; each input is
//    loaded once per segment, the next G inputs are prefetched while the current G outputs are
//    computed; no shared memory, no synchronization. Where the inner positions are unit-stride, a
//    multiple of the vector width and 16-byte aligned (with aligned axis and outer strides),
//    fast_cols_vec_kernel does the same with 16 / sizeof(T) adjacent positions per thread and
//    16-byte loads and stores (see set_fast_cols_variant).
// Out-of-range positions (edge tiles only) go through map_index; interior ones cost one compare.

template <class T>
struct fast_cfg;
template <>
struct fast_cfg<float> {
  static constexpr int V = 8;   // outputs per thread (rows)
  static constexpr int VE = 4;  // elements per 16-byte vector
  static constexpr int G = 8;   // outputs per group (cols); 16 when KMAX <= 32 (cols_group)
  static constexpr int max_taps = 64;
  static constexpr int pad_shift = 5;  // rows, padded layout: VE slots of padding every 2^5 values
  using vec = float4;
};
template <>
struct fast_cfg<double> {
  static constexpr int V = 4;
  static constexpr int VE = 2;
  static constexpr int G = 4;
  static constexpr int max_taps = 32;
  static constexpr int pad_shift = 4;
  using vec = double2;
};

constexpr int fast_threads = 256;

/// Outputs per group of the cols kernel (= loads in flight per thread). float with KMAX <= 32:
/// 16 (64 B in flight, ~100 registers, no spills); KMAX = 64 would spill with 16, so 8.
template <class T, int KMAX>
constexpr int cols_group() {
  return (std::is_same_v<T, float> && KMAX <= 32) ? 16 : fast_cfg<T>::G;
}

template <class T>
struct fast_params {
  const char* in;
  char* out;
  std::int64_t L, n_outer, n_inner;
  std::int64_t in_sa, out_sa;  // byte strides along the axis
  strided_indexer in_outer, out_outer, in_inner, out_inner;
  T cval;
  int K;
  int shift;  // output i reads ext[i - shift + k] for tap k
  int mode;
  // rows: w[k] = weight k (k < K), zero after; cols: right-aligned to the kernel's KMAX:
  // w[KMAX - K + k] = weight k, zero before.
  T w[fast_cfg<T>::max_taps];
};

/// Extended input at position i of a line (`sa`: byte stride along the line).
template <class T>
__device__ __forceinline__ T fast_load(const fast_params<T>& p, const char* line, std::int64_t i, std::int64_t sa) {
  if (static_cast<std::uint64_t>(i) >= static_cast<std::uint64_t>(p.L)) {
    i = map_index(i, p.L, p.mode);
    if (i < 0) return p.cval;
  }
  return __ldg(reinterpret_cast<const T*>(line + i * sa));
}

template <class T>
__device__ __forceinline__ void vec_to(T* dst, const typename fast_cfg<T>::vec& v) {
  if constexpr (std::is_same_v<T, float>) {
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
    dst[3] = v.w;
  } else {
    dst[0] = v.x;
    dst[1] = v.y;
  }
}

/// Shared-memory slot of staged value j in the row kernel. PAD: VE slots (16 bytes) of padding
/// after every 128 bytes of values. Thread t's compute-phase vector loads start at t * V + c (c a
/// multiple of VE, 32 bytes apart between neighbouring threads): unpadded, the 8 threads of a
/// 16-byte-load phase hit each 16-byte bank group twice (2-way conflict); padded, the two threads
/// 128 bytes apart land 16 bytes apart, so every load is conflict-free. A vector [j, j + VE) with
/// j a multiple of VE never straddles a padding gap and stays 16-byte aligned.
template <class T, bool PAD>
__device__ __forceinline__ int rows_slot(int j) {
  if constexpr (PAD) {
    return j + (j >> fast_cfg<T>::pad_shift) * fast_cfg<T>::VE;
  } else {
    return j;
  }
}

/// Shared-memory values the row kernel needs for a tile of `tile` outputs.
template <class T, int KMAX, bool PAD>
std::int64_t rows_smem_slots(std::int64_t tile) {
  const std::int64_t w_s = tile + KMAX + fast_cfg<T>::VE;
  return PAD ? w_s + (w_s >> fast_cfg<T>::pad_shift) * fast_cfg<T>::VE : w_s;
}

/// Rows: requires in_sa == sizeof(T), n_inner == 1. Block (nt) handles nt * V outputs of one line;
/// n_blocks = n_outer * n_seg. Dynamic shared memory: rows_smem_slots<T, KMAX, HOIST>(nt * V) values.
/// HOIST (set_fast_rows_variant 0 / 2): the halo beyond the tile (KMAX + VE values) is loaded into
/// registers together with the tile's V values per thread, before the first barrier, so a segment
/// waits for one round of global loads instead of two (tile, then halo after the tile's stores).
/// HOIST also pads the shared layout (rows_slot) so the compute phase has no bank conflicts.
/// Without it (variant 1) the halo is loaded after the tile is stored, unpadded. Same staged
/// values and the same FMA order either way, so the results are bit-identical.
template <class T, int KMAX, bool HOIST>
__device__ __forceinline__ void fast_rows_body(const fast_params<T>& p, std::int64_t n_seg, std::int64_t n_blocks) {
  constexpr int V = fast_cfg<T>::V, VE = fast_cfg<T>::VE;
  using vec_t = typename fast_cfg<T>::vec;
  extern __shared__ __align__(16) unsigned char smem[];
  T* s = reinterpret_cast<T*>(smem);
  const int tid = threadIdx.x, nt = blockDim.x;
  const int tile = nt * V;
  const int w_fill = tile + p.K - 1;  // staged values that taps can reach
  const int w_s = tile + KMAX + VE;   // staged region (zero beyond w_fill)
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t o = b / n_seg;
    const std::int64_t x0 = (b - o * n_seg) * tile;
    const char* line = p.in + p.in_outer.offset(o);
    const std::int64_t p0 = x0 - p.shift;  // s[j] = ext(p0 + j)
    // HR halo values per thread cover the KMAX + VE halo slots for any nt >= 32 (launch_fast).
    constexpr int HR = (KMAX + VE + 31) / 32;
    T v[V];
    T h[HR];
#pragma unroll
    for (int r = 0; r < V; ++r) v[r] = fast_load(p, line, p0 + tid + r * nt, static_cast<std::int64_t>(sizeof(T)));
    if constexpr (HOIST) {
#pragma unroll
      for (int q = 0; q < HR; ++q) {
        const int j = tile + tid + q * nt;
        h[q] = j < w_fill ? fast_load(p, line, p0 + j, static_cast<std::int64_t>(sizeof(T))) : T(0);
      }
    }
    __syncthreads();  // the previous segment's reads of s are done
#pragma unroll
    for (int r = 0; r < V; ++r) s[rows_slot<T, HOIST>(tid + r * nt)] = v[r];
    if constexpr (HOIST) {
#pragma unroll
      for (int q = 0; q < HR; ++q) {
        const int j = tile + tid + q * nt;
        if (j < w_s) s[rows_slot<T, true>(j)] = h[q];
      }
    } else {
      for (int j = tile + tid; j < w_s; j += nt)
        s[j] = j < w_fill ? fast_load(p, line, p0 + j, static_cast<std::int64_t>(sizeof(T))) : T(0);
    }
    __syncthreads();

    // Thread t: outputs x0 + t*V + j (j < V) = sum_k w[k] * staged[t*V + j + k] (staged value i
    // in slot rows_slot(i)).
    const int sv = tid * V;
    T win[V + KMAX];
#pragma unroll
    for (int m = 0; m < V; m += VE)
      vec_to<T>(win + m, *reinterpret_cast<const vec_t*>(s + rows_slot<T, HOIST>(sv + m)));
    T acc[V];
#pragma unroll
    for (int j = 0; j < V; ++j) acc[j] = T(0);
#pragma unroll
    for (int kc = 0; kc < KMAX; kc += VE) {
      if (kc >= p.K) break;
      vec_to<T>(win + V + kc, *reinterpret_cast<const vec_t*>(s + rows_slot<T, HOIST>(sv + V + kc)));
#pragma unroll
      for (int kk = 0; kk < VE; ++kk) {
        const int k = kc + kk;
        if (k < p.K) {
          const T wk = p.w[k];
#pragma unroll
          for (int j = 0; j < V; ++j) acc[j] = fma(wk, win[j + k], acc[j]);
        }
      }
    }

    const std::int64_t x = x0 + static_cast<std::int64_t>(tid) * V;
    char* obase = p.out + p.out_outer.offset(o);
    // Block-uniform: whether the segment starts on a 16-byte boundary of a unit-stride output.
    const bool seg_aligned = p.out_sa == static_cast<std::int64_t>(sizeof(T)) &&
                             (reinterpret_cast<std::uintptr_t>(obase + x0 * static_cast<std::int64_t>(sizeof(T))) & 15) == 0;
    if (seg_aligned) {
      if (x + V <= p.L) {
        vec_t* dst = reinterpret_cast<vec_t*>(obase + x * static_cast<std::int64_t>(sizeof(T)));
#pragma unroll
        for (int m = 0; m < V; m += VE) {
          vec_t t;
          if constexpr (std::is_same_v<T, float>) {
            t = make_float4(acc[m], acc[m + 1], acc[m + 2], acc[m + 3]);
          } else {
            t = make_double2(acc[m], acc[m + 1]);
          }
          dst[m / VE] = t;
        }
      } else {
#pragma unroll
        for (int j = 0; j < V; ++j)
          if (x + j < p.L) *reinterpret_cast<T*>(obase + (x + j) * p.out_sa) = acc[j];
      }
    } else {
      // Misaligned rows (odd row lengths) or strided output: per-thread scalar stores of V
      // consecutive outputs would touch V times as many sectors per instruction; stage the
      // tile's outputs in shared memory instead and store them with consecutive threads on
      // consecutive elements. s[0, tile) is free once every thread has filled its window.
      __syncthreads();
#pragma unroll
      for (int m = 0; m < V; m += VE) {
        vec_t t;
        if constexpr (std::is_same_v<T, float>) {
          t = make_float4(acc[m], acc[m + 1], acc[m + 2], acc[m + 3]);
        } else {
          t = make_double2(acc[m], acc[m + 1]);
        }
        *reinterpret_cast<vec_t*>(s + rows_slot<T, HOIST>(tid * V + m)) = t;
      }
      __syncthreads();
#pragma unroll
      for (int r = 0; r < V; ++r) {
        const std::int64_t xi = x0 + tid + r * nt;
        if (xi < p.L) *reinterpret_cast<T*>(obase + xi * p.out_sa) = s[rows_slot<T, HOIST>(tid + r * nt)];
      }
      // The next segment's first __syncthreads() orders these reads before s is refilled.
    }
  }
}

/// The previous row kernel (set_fast_rows_variant(1)).
template <class T, int KMAX>
__global__ void __launch_bounds__(fast_threads)
    fast_rows_kernel(const fast_params<T> p, std::int64_t n_seg, std::int64_t n_blocks) {
  fast_rows_body<T, KMAX, false>(p, n_seg, n_blocks);
}

/// Resident blocks asked of the hoisted row kernel: 5 (<= 48 registers, sm_90); unconstrained it
/// took 52-58 registers in several buckets, which the allocation granularity (8 per thread) rounds
/// to 56-64, i.e. 4 blocks of 256 threads. float KMAX 8, 16 and 24 spill at 48, so 4 there.
template <class T, int KMAX>
constexpr int rows_min_blocks = (std::is_same_v<T, float> && KMAX <= 24) ? 4 : 5;

/// The default row kernel (halo loads hoisted, padded shared layout).
template <class T, int KMAX>
__global__ void __launch_bounds__(fast_threads, rows_min_blocks<T, KMAX>)
    fast_rows_hoist_kernel(const fast_params<T> p, std::int64_t n_seg, std::int64_t n_blocks) {
  fast_rows_body<T, KMAX, true>(p, n_seg, n_blocks);
}

/// Columns: n_inner >= 1, any strides. Block: nt threads over inner positions; each thread walks
/// `ty` positions of the axis. n_blocks = n_nb * n_seg * n_outer.
template <class T, int KMAX>
__global__ void __launch_bounds__(fast_threads)
    fast_cols_kernel(const fast_params<T> p, std::int64_t ty, std::int64_t n_nb, std::int64_t n_seg, std::int64_t n_blocks) {
  constexpr int G = cols_group<T, KMAX>();
  constexpr int WN = KMAX - 1 + G;
  const int off = KMAX - p.K;  // first window slot and weight slot in use
  // win[m] = ext(yb + c + m); output yb + i = sum_{m >= off} w[m] * win[i + m].
  const std::int64_t c = static_cast<std::int64_t>(p.K) - KMAX - p.shift;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t nb = b % n_nb;
    const std::int64_t rest = b / n_nb;
    const std::int64_t seg = rest % n_seg;
    const std::int64_t o = rest / n_seg;
    const std::int64_t n = nb * blockDim.x + threadIdx.x;
    if (n >= p.n_inner) continue;  // no block-wide synchronization in this kernel
    const char* line = p.in + p.in_outer.offset(o) + p.in_inner.offset(n);
    char* oline = p.out + p.out_outer.offset(o) + p.out_inner.offset(n);
    const std::int64_t y0 = seg * ty;
    const std::int64_t y1 = y0 + ty < p.L ? y0 + ty : p.L;
    T win[WN];
#pragma unroll
    for (int m = 0; m < WN; ++m) win[m] = T(0);
#pragma unroll
    for (int m = 0; m < KMAX - 1; ++m)
      if (m >= off) win[m] = fast_load(p, line, y0 + c + m, p.in_sa);
    T nxt[G];
#pragma unroll
    for (int i = 0; i < G; ++i) nxt[i] = fast_load(p, line, y0 + c + (KMAX - 1) + i, p.in_sa);
    for (std::int64_t yb = y0; yb < y1; yb += G) {
#pragma unroll
      for (int i = 0; i < G; ++i) win[KMAX - 1 + i] = nxt[i];
      if (yb + G < y1) {
#pragma unroll
        for (int i = 0; i < G; ++i) nxt[i] = fast_load(p, line, yb + G + c + (KMAX - 1) + i, p.in_sa);
      }
      T acc[G];
#pragma unroll
      for (int i = 0; i < G; ++i) acc[i] = T(0);
#pragma unroll
      for (int m = 0; m < KMAX; ++m) {
        if (m >= off) {
          const T wm = p.w[m];
#pragma unroll
          for (int i = 0; i < G; ++i) acc[i] = fma(wm, win[i + m], acc[i]);
        }
      }
#pragma unroll
      for (int i = 0; i < G; ++i)
        if (yb + i < y1) *reinterpret_cast<T*>(oline + (yb + i) * p.out_sa) = acc[i];
#pragma unroll
      for (int m = 0; m < KMAX - 1; ++m) win[m] = win[m + G];
    }
  }
}

/// Columns, vectorized: the cols kernel with each thread owning VE = 16 / sizeof(T) adjacent inner
/// positions, read and written with 16-byte accesses. Requires (cols_vec_applies): unit-stride
/// inner positions (one coalesced inner dim, item-size stride, in and out), n_inner a multiple of
/// VE, and 16-byte aligned base pointers, axis strides and outer strides, so every vector access
/// is aligned. The window holds VE columns; each output is the same fused multiply-add chain, in
/// the same tap order, as in fast_cols_kernel, so results are bit-identical to it. The boundary
/// map is per axis position, so one mapped row serves all VE columns (constant mode: cval in all).
/// Block: nt threads over n_inner / VE vectors; each walks `ty` positions of the axis.
/// n_blocks = n_nb * n_seg * n_outer.
constexpr int fast_vec_threads = 128;

/// Outputs (axis positions) per group of the vectorized cols kernel; 0 where it is not used. The
/// window is (KMAX - 1 + G) x VE values, plus G x VE prefetched and G x VE accumulators.
template <class T, int KMAX>
constexpr int cols_vec_group() {
  if constexpr (std::is_same_v<T, float>) return KMAX <= 24 ? 8 : KMAX <= 32 ? 4 : 0;
  else return KMAX <= 16 ? 4 : KMAX <= 32 ? 2 : 0;
}

template <class T>
__device__ __forceinline__ typename fast_cfg<T>::vec fast_load_vec(const fast_params<T>& p, const char* line,
                                                                   std::int64_t i) {
  using vec_t = typename fast_cfg<T>::vec;
  if (static_cast<std::uint64_t>(i) >= static_cast<std::uint64_t>(p.L)) {
    i = map_index(i, p.L, p.mode);
    if (i < 0) {
      vec_t v;
      if constexpr (std::is_same_v<T, float>) v = make_float4(p.cval, p.cval, p.cval, p.cval);
      else v = make_double2(p.cval, p.cval);
      return v;
    }
  }
  return __ldg(reinterpret_cast<const vec_t*>(line + i * p.in_sa));
}

template <class T, int KMAX>
__global__ void __launch_bounds__(fast_vec_threads)
    fast_cols_vec_kernel(const fast_params<T> p, std::int64_t ty, std::int64_t n_nb, std::int64_t n_seg,
                         std::int64_t n_blocks) {
  constexpr int VE = fast_cfg<T>::VE;
  constexpr int G = cols_vec_group<T, KMAX>();
  static_assert(G > 0, "no vectorized column kernel for this tap bucket");
  constexpr int WN = KMAX - 1 + G;
  using vec_t = typename fast_cfg<T>::vec;
  constexpr std::int64_t vb = VE * static_cast<std::int64_t>(sizeof(T));  // 16 bytes
  const int off = KMAX - p.K;
  const std::int64_t c = static_cast<std::int64_t>(p.K) - KMAX - p.shift;
  const std::int64_t n_vec = p.n_inner / VE;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t nb = b % n_nb;
    const std::int64_t rest = b / n_nb;
    const std::int64_t seg = rest % n_seg;
    const std::int64_t o = rest / n_seg;
    const std::int64_t q = nb * blockDim.x + threadIdx.x;
    if (q >= n_vec) continue;  // no block-wide synchronization in this kernel
    const char* line = p.in + p.in_outer.offset(o) + q * vb;
    char* oline = p.out + p.out_outer.offset(o) + q * vb;
    const std::int64_t y0 = seg * ty;
    const std::int64_t y1 = y0 + ty < p.L ? y0 + ty : p.L;
    T win[WN][VE];
#pragma unroll
    for (int m = 0; m < WN; ++m)
#pragma unroll
      for (int j = 0; j < VE; ++j) win[m][j] = T(0);
#pragma unroll
    for (int m = 0; m < KMAX - 1; ++m)
      if (m >= off) vec_to<T>(win[m], fast_load_vec(p, line, y0 + c + m));
    vec_t nxt[G];
#pragma unroll
    for (int i = 0; i < G; ++i) nxt[i] = fast_load_vec(p, line, y0 + c + (KMAX - 1) + i);
    for (std::int64_t yb = y0; yb < y1; yb += G) {
#pragma unroll
      for (int i = 0; i < G; ++i) vec_to<T>(win[KMAX - 1 + i], nxt[i]);
      if (yb + G < y1) {
#pragma unroll
        for (int i = 0; i < G; ++i) nxt[i] = fast_load_vec(p, line, yb + G + c + (KMAX - 1) + i);
      }
      T acc[G][VE];
#pragma unroll
      for (int i = 0; i < G; ++i)
#pragma unroll
        for (int j = 0; j < VE; ++j) acc[i][j] = T(0);
#pragma unroll
      for (int m = 0; m < KMAX; ++m) {
        if (m >= off) {
          const T wm = p.w[m];
#pragma unroll
          for (int i = 0; i < G; ++i)
#pragma unroll
            for (int j = 0; j < VE; ++j) acc[i][j] = fma(wm, win[i + m][j], acc[i][j]);
        }
      }
#pragma unroll
      for (int i = 0; i < G; ++i) {
        if (yb + i < y1) {
          vec_t t;
          if constexpr (std::is_same_v<T, float>) t = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
          else t = make_double2(acc[i][0], acc[i][1]);
          *reinterpret_cast<vec_t*>(oline + (yb + i) * p.out_sa) = t;
        }
      }
#pragma unroll
      for (int m = 0; m < KMAX - 1; ++m)
#pragma unroll
        for (int j = 0; j < VE; ++j) win[m][j] = win[m + G][j];
    }
  }
}

int sm_count() {
  // Cached per device (queried once): this runs on every pass.
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

template <class T, int KMAX>
void launch_fast(const fast_params<T>& f, cudaStream_t stream);

unsigned blocks_for(std::int64_t n_blocks);
void col_segments(std::int64_t L, int K, int G, std::int64_t lines, std::int64_t target, std::int64_t& ty,
                  std::int64_t& n_seg);
template <class T>
bool cols_vec_applies(const fast_params<T>& f);

/// set_fast_cols_variant's value: 0 automatic, 1 scalar kernel, 2 vectorized where it applies.
std::atomic<int> fast_cols_variant_flag{0};
/// set_fast_rows_variant's value: 0 automatic (= 1, measured faster), 1 halo after the tile, 2 hoisted.
std::atomic<int> fast_rows_variant_flag{0};

/// Runs the fast path when it applies (see fast_cfg); returns false otherwise.
template <class T>
bool try_fast(const pass_params& p, const std::vector<double>& w, cudaStream_t stream) {
  constexpr int V = fast_cfg<T>::V;
  if (p.K > fast_cfg<T>::max_taps) return false;
  const bool rows = p.n_inner == 1;
  // Lines shorter than one warp's outputs would leave most of a row block idle: the generic rows
  // kernel packs several of them into a block.
  if (rows && (p.in_sa != static_cast<std::int64_t>(sizeof(T)) || p.L < 32)) return false;
  fast_params<T> f{};
  f.in = p.in;
  f.out = p.out;
  f.L = p.L;
  f.n_outer = p.n_outer;
  f.n_inner = p.n_inner;
  f.in_sa = p.in_sa;
  f.out_sa = p.out_sa;
  f.in_outer = p.in_outer;
  f.out_outer = p.out_outer;
  f.in_inner = p.in_inner;
  f.out_inner = p.out_inner;
  f.cval = static_cast<T>(p.cval);
  f.K = p.K;
  f.shift = p.shift;
  f.mode = p.mode;
  const int kmax = p.K <= 8 ? 8 : p.K <= 16 ? 16 : p.K <= 24 ? 24 : p.K <= 32 ? 32 : 64;
  for (int k = 0; k < p.K; ++k) f.w[rows ? k : kmax - p.K + k] = static_cast<T>(w[k]);
  (void)V;
  switch (kmax) {
    case 8: launch_fast<T, 8>(f, stream); break;
    case 16: launch_fast<T, 16>(f, stream); break;
    case 24: launch_fast<T, 24>(f, stream); break;
    case 32: launch_fast<T, 32>(f, stream); break;
    default:
      if constexpr (fast_cfg<T>::max_taps >= 64) launch_fast<T, 64>(f, stream);
      break;
  }
  return true;
}

template <class T, int KMAX>
void launch_fast(const fast_params<T>& f, cudaStream_t stream) {
  constexpr int V = fast_cfg<T>::V, VE = fast_cfg<T>::VE, G = cols_group<T, KMAX>();
  if (f.n_inner == 1) {
    // Threads per line segment: enough for the line (rounded to a warp), at most fast_threads.
    const std::int64_t need = (f.L + V - 1) / V;
    const int nt = static_cast<int>(std::min<std::int64_t>(fast_threads, (need + 31) / 32 * 32));
    const std::int64_t tile = static_cast<std::int64_t>(nt) * V;
    const std::int64_t n_seg = (f.L + tile - 1) / tile;
    const std::int64_t n_blocks = n_seg * f.n_outer;
    if (fast_rows_variant_flag.load(std::memory_order_relaxed) != 2) {  // 0 (automatic) and 1
      const std::size_t bytes = static_cast<std::size_t>(rows_smem_slots<T, KMAX, false>(tile)) * sizeof(T);
      fast_rows_kernel<T, KMAX><<<blocks_for(n_blocks), nt, bytes, stream>>>(f, n_seg, n_blocks);
    } else {
      const std::size_t bytes = static_cast<std::size_t>(rows_smem_slots<T, KMAX, true>(tile)) * sizeof(T);
      fast_rows_hoist_kernel<T, KMAX><<<blocks_for(n_blocks), nt, bytes, stream>>>(f, n_seg, n_blocks);
    }
    CUSCI_CHECK_LAUNCH();
    return;
  }
  if constexpr (cols_vec_group<T, KMAX>() > 0) {
    if (fast_cols_variant_flag.load(std::memory_order_relaxed) != 1 && cols_vec_applies(f)) {
      constexpr int GV = cols_vec_group<T, KMAX>();
      const std::int64_t n_vec = f.n_inner / VE;
      const int nt = static_cast<int>(std::min<std::int64_t>(fast_vec_threads, (n_vec + 31) / 32 * 32));
      const std::int64_t n_nb = (n_vec + nt - 1) / nt;
      // A thread does VE threads' work of the scalar kernel: aim at 1 / VE as many threads.
      std::int64_t ty = 0, n_seg = 0;
      col_segments(f.L, f.K, GV, n_nb * nt * f.n_outer, static_cast<std::int64_t>(sm_count()) * 2048 / VE, ty, n_seg);
      const std::int64_t n_blocks = n_nb * n_seg * f.n_outer;
      fast_cols_vec_kernel<T, KMAX><<<blocks_for(n_blocks), nt, 0, stream>>>(f, ty, n_nb, n_seg, n_blocks);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  }
  const int nt = static_cast<int>(std::min<std::int64_t>(fast_threads, (f.n_inner + 31) / 32 * 32));
  const std::int64_t n_nb = (f.n_inner + nt - 1) / nt;
  std::int64_t ty = 0, n_seg = 0;
  col_segments(f.L, f.K, G, n_nb * nt * f.n_outer, static_cast<std::int64_t>(sm_count()) * 2048, ty, n_seg);
  const std::int64_t n_blocks = n_nb * n_seg * f.n_outer;
  fast_cols_kernel<T, KMAX><<<blocks_for(n_blocks), nt, 0, stream>>>(f, ty, n_nb, n_seg, n_blocks);
  CUSCI_CHECK_LAUNCH();
}

/// Splits an axis of length L into n_seg segments of ty positions (a multiple of the group G) until
/// about `target` threads have work (`lines`: threads launched per segment row); each segment
/// re-reads K - 1 halo values, so segments stay >= 4 groups and >= 2 K long.
void col_segments(std::int64_t L, int K, int G, std::int64_t lines, std::int64_t target, std::int64_t& ty,
                  std::int64_t& n_seg) {
  n_seg = std::max<std::int64_t>(1, (target + lines - 1) / lines);
  const std::int64_t min_ty = std::max<std::int64_t>(4 * static_cast<std::int64_t>(G), 2 * static_cast<std::int64_t>(K));
  n_seg = std::min<std::int64_t>(n_seg, std::max<std::int64_t>(1, L / min_ty));
  ty = (L + n_seg - 1) / n_seg;
  ty = (ty + G - 1) / G * G;
  n_seg = (L + ty - 1) / ty;
}

template <class T>
bool cols_vec_applies(const fast_params<T>& f) {
  constexpr std::int64_t item = sizeof(T), VE = fast_cfg<T>::VE;
  auto a16 = [](std::int64_t v) { return v % 16 == 0; };
  if (f.n_inner % VE != 0) return false;  // tails: the scalar kernel handles the whole pass
  if (f.in_inner.ndim != 1 || f.out_inner.ndim != 1) return false;
  if (f.in_inner.strides[0] != item || f.out_inner.strides[0] != item) return false;
  if ((reinterpret_cast<std::uintptr_t>(f.in) & 15) != 0 || (reinterpret_cast<std::uintptr_t>(f.out) & 15) != 0)
    return false;
  if (!a16(f.in_sa) || !a16(f.out_sa)) return false;
  for (int d = 0; d < f.in_outer.ndim; ++d)
    if (!a16(f.in_outer.strides[d])) return false;
  for (int d = 0; d < f.out_outer.ndim; ++d)
    if (!a16(f.out_outer.strides[d])) return false;
  return true;
}

unsigned blocks_for(std::int64_t n_blocks) {
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(n_blocks, 1), 1LL << 22));
}

template <class Tin, class Tout>
void launch(const pass_params& p, cudaStream_t stream) {
  using A = typename acc_of<Tin, Tout>::type;
  const std::size_t as = sizeof(A);
  const std::int64_t K = p.K;
  if (p.n_inner == 1) {
    // Tile length: the line rounded up to a warp, at most 2048 outputs; short lines are packed
    // several to a block so a block always has work for its 256 threads.
    std::int64_t tile = std::min<std::int64_t>((p.L + 31) / 32 * 32, 2048);
    std::int64_t lpb = std::max<std::int64_t>(1, 2048 / tile);
    lpb = std::min<std::int64_t>(lpb, p.n_outer);
    auto bytes = [&] { return static_cast<std::size_t>(K + lpb * (tile + K - 1)) * as; };
    while (bytes() > smem_limit && lpb > 1) lpb /= 2;
    while (bytes() > smem_limit && tile > 256) tile /= 2;
    if (bytes() <= smem_limit) {
      const std::int64_t n_seg = (p.L + tile - 1) / tile;
      const std::int64_t n_blocks = n_seg * ((p.n_outer + lpb - 1) / lpb);
      rows_kernel<Tin, Tout><<<blocks_for(n_blocks), block_threads, bytes(), stream>>>(
          p, static_cast<int>(tile), static_cast<int>(lpb), n_seg, n_blocks);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  } else {
    std::int64_t tile_y = std::is_same_v<A, float> ? 128 : 64;
    tile_y = std::min<std::int64_t>(tile_y, (p.L + col_ty - 1) / col_ty * col_ty);
    auto bytes = [&] { return static_cast<std::size_t>(K + (tile_y + K - 1) * col_tx) * as; };
    while (bytes() > smem_limit && tile_y > col_ty) tile_y -= col_ty;
    if (bytes() <= smem_limit) {
      const std::int64_t n_bx = (p.n_inner + col_tx - 1) / col_tx;
      const std::int64_t n_by = (p.L + tile_y - 1) / tile_y;
      const std::int64_t n_blocks = n_bx * n_by * p.n_outer;
      cols_kernel<Tin, Tout><<<blocks_for(n_blocks), dim3(col_tx, col_ty), bytes(), stream>>>(
          p, static_cast<int>(tile_y), n_bx, n_by, n_blocks);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  }
  // Fallback, reached only for K > max_param_taps (shorter kernels always fit), so p.wg is set.
  const std::int64_t n_total = p.n_outer * p.L * p.n_inner;
  direct_kernel<Tin, Tout><<<blocks_for((n_total + block_threads - 1) / block_threads), block_threads, 0, stream>>>(
      p, n_total);
  CUSCI_CHECK_LAUNCH();
}

template <class Tin>
void launch_out(dtype out, const pass_params& p, cudaStream_t stream) {
  switch (out) {
    case dtype::bool_:  // SciPy stores the truncated byte into a bool (npy_bool is unsigned char)
    case dtype::uint8: return launch<Tin, std::uint8_t>(p, stream);
    case dtype::int8: return launch<Tin, std::int8_t>(p, stream);
    case dtype::int16: return launch<Tin, std::int16_t>(p, stream);
    case dtype::uint16: return launch<Tin, std::uint16_t>(p, stream);
    case dtype::int32: return launch<Tin, std::int32_t>(p, stream);
    case dtype::uint32: return launch<Tin, std::uint32_t>(p, stream);
    case dtype::int64: return launch<Tin, std::int64_t>(p, stream);
    case dtype::uint64: return launch<Tin, std::uint64_t>(p, stream);
    case dtype::float32: return launch<Tin, float>(p, stream);
    case dtype::float64: return launch<Tin, double>(p, stream);
    default: break;
  }
  throw type_error("cusci::ndimage: output dtype " + std::string(dtype_name(out)) + " is not supported by the kernel");
}

void split_axes(const ndarray& in, const ndarray& out, int begin, int end, strided_indexer& ii, strided_indexer& oi,
                std::int64_t& count) {
  shape_t shape(in.shape().begin() + begin, in.shape().begin() + end);
  shape_t is(in.strides().begin() + begin, in.strides().begin() + end);
  shape_t os(out.strides().begin() + begin, out.strides().begin() + end);
  count = 1;
  for (auto s : shape) count *= s;
  cusci::detail::coalesce(shape, {&is, &os});
  ii = cusci::detail::make_indexer(shape, is);
  oi = cusci::detail::make_indexer(shape, os);
}

}  // namespace

void correlate_pass(const ndarray& in, const ndarray& out, int axis, const std::vector<double>& w, ext mode,
                    double cval, std::int64_t origin) {
  if (out.size() == 0) return;
  pass_params p{};
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  p.L = in.shape()[axis];
  p.in_sa = in.strides()[axis];
  p.out_sa = out.strides()[axis];
  split_axes(in, out, 0, axis, p.in_outer, p.out_outer, p.n_outer);
  split_axes(in, out, axis + 1, in.ndim(), p.in_inner, p.out_inner, p.n_inner);
  const int K = static_cast<int>(w.size());
  p.K = K;
  p.shift = static_cast<int>(K / 2 + origin);
  p.mode = static_cast<int>(mode);
  p.cval = cval;
  p.in_code = static_cast<int>(in.dtype());
  // NI_Correlate1D's symmetry test, on odd lengths only.
  const int s1 = K / 2;
  p.symmetric = 0;
  if (K & 1) {
    p.symmetric = 1;
    for (int i = 1; i <= s1; ++i)
      if (std::fabs(w[s1 + i] - w[s1 - i]) > DBL_EPSILON) {
        p.symmetric = 0;
        break;
      }
    if (p.symmetric == 0) {
      p.symmetric = -1;
      for (int i = 1; i <= s1; ++i)
        if (std::fabs(w[s1 + i] + w[s1 - i]) > DBL_EPSILON) {
          p.symmetric = 0;
          break;
        }
    }
  }
  cudaStream_t stream = get_current_stream();
  device_buffer<double> wbuf;
  if (K <= max_param_taps) {
    for (int k = 0; k < K; ++k) p.w[k] = w[k];
  } else {
    wbuf = device_buffer<double>(static_cast<std::size_t>(K), stream);
    // From pageable memory: returns once the host data is staged, so `w` may go away afterwards.
    CUSCI_CUDA_TRY(cudaMemcpyAsync(wbuf.data(), w.data(), K * sizeof(double), cudaMemcpyHostToDevice, stream));
    p.wg = wbuf.data();
  }
  if (in.dtype() == dtype::float32 && out.dtype() == dtype::float32) {
    if (try_fast<float>(p, w, stream)) return;
    return launch<float, float>(p, stream);
  }
  if (in.dtype() == dtype::float64 && out.dtype() == dtype::float64) {
    if (try_fast<double>(p, w, stream)) return;
    return launch<double, double>(p, stream);
  }
  launch_out<any_in>(out.dtype(), p, stream);
}

void set_fast_cols_variant(int v) {
  CUSCI_EXPECTS(v >= 0 && v <= 2, value_error,
                "cusci::ndimage::detail::set_fast_cols_variant: v must be 0, 1 or 2, got " + std::to_string(v));
  fast_cols_variant_flag.store(v, std::memory_order_relaxed);
}
int fast_cols_variant() { return fast_cols_variant_flag.load(std::memory_order_relaxed); }

void set_fast_rows_variant(int v) {
  CUSCI_EXPECTS(v >= 0 && v <= 2, value_error,
                "cusci::ndimage::detail::set_fast_rows_variant: v must be 0, 1 or 2, got " + std::to_string(v));
  fast_rows_variant_flag.store(v, std::memory_order_relaxed);
}
int fast_rows_variant() { return fast_rows_variant_flag.load(std::memory_order_relaxed); }

}  // namespace cusci::ndimage::detail
