#pragma once
// (internal; nvcc only) The axis-pass engine's fast float32 / float64 kernels, for a policy P that
// provides, besides the generic interface (axis_engine.cuh):
//   template <class T> static constexpr int max_fast_taps;   windows up to this many taps (<= 64 / 32)
//   template <class T> __device__ static T fast_init();       the accumulator before the first tap
//   template <class T> __device__ static T fast_step(T acc, T w_k, T x);   one tap
// Included by the .cu file of each policy that has a fast path (one instantiation per policy).

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "engine/axis_engine.cuh"

namespace cusci::ndimage::detail {
namespace {

// ---------------------------------------------------------------------------------------------
// Fast paths: float32 -> float32 and float64 -> float64 with at most P::max_fast_taps<T> taps.
// A policy P supplies fast_init<T>() and fast_step(acc, w_k, x): the weights policy accumulates in T
// with fused multiply-adds in tap order (not NI_Correlate1D's pairing of symmetric taps: the
// difference from SciPy is a few ulp of T relative to sum |w_k x_k|); the minimum and maximum
// policies compare (exact). The generic kernels (axis_engine.cuh) remain for every other dtype pair,
// longer windows and short lines.
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
//    writes them with 16-byte stores where the row is aligned. The halo is loaded after the tile is
//    stored (a variant that hoisted the halo loads before the first barrier, with a padded shared
//    layout, measured no faster: docs/benchmarks.md).
//  - cols (inner > 1): a thread owns one inner position (consecutive threads are consecutive inner
//    positions, so every access is coalesced when the inner stride is the item size) and walks a
//    segment of the axis keeping a sliding register window of KMAX - 1 + G values; each input is
//    loaded once per segment, the next G inputs are prefetched while the current G outputs are
//    computed; no shared memory, no synchronization. Where the inner positions are unit-stride, a
//    multiple of the vector width and 16-byte aligned (with aligned axis and outer strides),
//    fast_cols_vec_kernel does the same with 16 / sizeof(T) adjacent positions per thread and
//    16-byte loads and stores (chosen automatically where it applies: cols_vec_applies).
// Out-of-range positions (edge tiles only) go through map_index; interior ones cost one compare.

template <class T>
struct fast_cfg;
template <>
struct fast_cfg<float> {
  static constexpr int V = 8;   // outputs per thread (rows)
  static constexpr int VE = 4;  // elements per 16-byte vector
  static constexpr int G = 8;   // outputs per group (cols); 16 when KMAX <= 32 (cols_group)
  static constexpr int max_taps = 64;
  using vec = float4;
};
template <>
struct fast_cfg<double> {
  static constexpr int V = 4;
  static constexpr int VE = 2;
  static constexpr int G = 4;
  static constexpr int max_taps = 32;
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
  int* nan_flag;  // pass_params::nan_flag (policies that watch for NaN)
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

/// Shared-memory values the row kernel needs for a tile of `tile` outputs.
template <class T, int KMAX>
std::int64_t rows_smem_slots(std::int64_t tile) {
  return tile + KMAX + fast_cfg<T>::VE;
}

/// Rows: requires in_sa == sizeof(T), n_inner == 1. Block (nt) handles nt * V outputs of one line;
/// n_blocks = n_outer * n_seg. Dynamic shared memory: rows_smem_slots<T, KMAX>(nt * V) values.
/// The tile's V values per thread are loaded, stored, then the halo beyond the tile (KMAX + VE
/// values) is loaded and stored.
template <class P, class T, int KMAX>
__global__ void __launch_bounds__(fast_threads)
    fast_rows_kernel(const fast_params<T> p, std::int64_t n_seg, std::int64_t n_blocks) {
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
    T v[V];
#pragma unroll
    for (int r = 0; r < V; ++r) v[r] = fast_load(p, line, p0 + tid + r * nt, static_cast<std::int64_t>(sizeof(T)));
    if constexpr (watches_nan<P>()) {
      bool nan = false;
#pragma unroll
      for (int r = 0; r < V; ++r) nan = nan || v[r] != v[r];
      if (nan && p.nan_flag != nullptr) *p.nan_flag = 1;
    }
    __syncthreads();  // the previous segment's reads of s are done
#pragma unroll
    for (int r = 0; r < V; ++r) s[tid + r * nt] = v[r];
    for (int j = tile + tid; j < w_s; j += nt) {
      const T hv = j < w_fill ? fast_load(p, line, p0 + j, static_cast<std::int64_t>(sizeof(T))) : T(0);
      note_nan<P>(p.nan_flag, hv);
      s[j] = hv;
    }
    __syncthreads();

    // Thread t: outputs x0 + t*V + j (j < V) = policy over k of w[k], staged[t*V + j + k].
    const int sv = tid * V;
    T win[V + KMAX];
#pragma unroll
    for (int m = 0; m < V; m += VE) vec_to<T>(win + m, *reinterpret_cast<const vec_t*>(s + sv + m));
    T acc[V];
#pragma unroll
    for (int j = 0; j < V; ++j) acc[j] = P::template fast_init<T>();
#pragma unroll
    for (int kc = 0; kc < KMAX; kc += VE) {
      if (kc >= p.K) break;
      vec_to<T>(win + V + kc, *reinterpret_cast<const vec_t*>(s + sv + V + kc));
#pragma unroll
      for (int kk = 0; kk < VE; ++kk) {
        const int k = kc + kk;
        if (k < p.K) {
          const T wk = p.w[k];
#pragma unroll
          for (int j = 0; j < V; ++j) acc[j] = P::fast_step(acc[j], wk, win[j + k]);
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
        *reinterpret_cast<vec_t*>(s + tid * V + m) = t;
      }
      __syncthreads();
#pragma unroll
      for (int r = 0; r < V; ++r) {
        const std::int64_t xi = x0 + tid + r * nt;
        if (xi < p.L) *reinterpret_cast<T*>(obase + xi * p.out_sa) = s[tid + r * nt];
      }
      // The next segment's first __syncthreads() orders these reads before s is refilled.
    }
  }
}

/// Columns: n_inner >= 1, any strides. Block: nt threads over inner positions; each thread walks
/// `ty` positions of the axis. n_blocks = n_nb * n_seg * n_outer.
template <class P, class T, int KMAX>
__global__ void __launch_bounds__(fast_threads)
    fast_cols_kernel(const fast_params<T> p, std::int64_t ty, std::int64_t n_nb, std::int64_t n_seg, std::int64_t n_blocks) {
  constexpr int G = cols_group<T, KMAX>();
  constexpr int WN = KMAX - 1 + G;
  const int off = KMAX - p.K;  // first window slot and weight slot in use
  // win[m] = ext(yb + c + m); output yb + i = policy over m >= off of w[m], win[i + m].
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
      if (m >= off) {
        win[m] = fast_load(p, line, y0 + c + m, p.in_sa);
        note_nan<P>(p.nan_flag, win[m]);
      }
    T nxt[G];
#pragma unroll
    for (int i = 0; i < G; ++i) nxt[i] = fast_load(p, line, y0 + c + (KMAX - 1) + i, p.in_sa);
    for (std::int64_t yb = y0; yb < y1; yb += G) {
#pragma unroll
      for (int i = 0; i < G; ++i) {
        win[KMAX - 1 + i] = nxt[i];
        note_nan<P>(p.nan_flag, nxt[i]);
      }
      if (yb + G < y1) {
#pragma unroll
        for (int i = 0; i < G; ++i) nxt[i] = fast_load(p, line, yb + G + c + (KMAX - 1) + i, p.in_sa);
      }
      T acc[G];
#pragma unroll
      for (int i = 0; i < G; ++i) acc[i] = P::template fast_init<T>();
#pragma unroll
      for (int m = 0; m < KMAX; ++m) {
        if (m >= off) {
          const T wm = p.w[m];
#pragma unroll
          for (int i = 0; i < G; ++i) acc[i] = P::fast_step(acc[i], wm, win[i + m]);
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

template <class P, class T, int KMAX>
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
      if (m >= off) {
        vec_to<T>(win[m], fast_load_vec(p, line, y0 + c + m));
#pragma unroll
        for (int j = 0; j < VE; ++j) note_nan<P>(p.nan_flag, win[m][j]);
      }
    vec_t nxt[G];
#pragma unroll
    for (int i = 0; i < G; ++i) nxt[i] = fast_load_vec(p, line, y0 + c + (KMAX - 1) + i);
    for (std::int64_t yb = y0; yb < y1; yb += G) {
#pragma unroll
      for (int i = 0; i < G; ++i) {
        vec_to<T>(win[KMAX - 1 + i], nxt[i]);
#pragma unroll
        for (int j = 0; j < VE; ++j) note_nan<P>(p.nan_flag, win[KMAX - 1 + i][j]);
      }
      if (yb + G < y1) {
#pragma unroll
        for (int i = 0; i < G; ++i) nxt[i] = fast_load_vec(p, line, yb + G + c + (KMAX - 1) + i);
      }
      T acc[G][VE];
#pragma unroll
      for (int i = 0; i < G; ++i)
#pragma unroll
        for (int j = 0; j < VE; ++j) acc[i][j] = P::template fast_init<T>();
#pragma unroll
      for (int m = 0; m < KMAX; ++m) {
        if (m >= off) {
          const T wm = p.w[m];
#pragma unroll
          for (int i = 0; i < G; ++i)
#pragma unroll
            for (int j = 0; j < VE; ++j) acc[i][j] = P::fast_step(acc[i][j], wm, win[i + m][j]);
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

template <class P, class T, int KMAX>
void launch_fast(const fast_params<T>& f, cudaStream_t stream);

inline void col_segments(std::int64_t L, int K, int G, std::int64_t lines, std::int64_t target, std::int64_t& ty,
                  std::int64_t& n_seg);
template <class T>
bool cols_vec_applies(const fast_params<T>& f);

/// Runs policy P's fast path when it applies (see fast_cfg); returns false otherwise. `w`: the
/// weights (K values) for a policy that uses them, else empty.
template <class P, class T>
bool try_fast(const pass_params& p, const std::vector<double>& w, cudaStream_t stream) {
  constexpr int max_taps = P::template max_fast_taps<T>;
  static_assert(max_taps <= fast_cfg<T>::max_taps, "a policy's fast taps exceed the kernels' buckets");
  if (p.K > max_taps) return false;
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
  f.nan_flag = p.nan_flag;
  const int kmax = p.K <= 8 ? 8 : p.K <= 16 ? 16 : p.K <= 24 ? 24 : p.K <= 32 ? 32 : 64;
  if constexpr (P::uses_weights)
    for (int k = 0; k < p.K; ++k) f.w[rows ? k : kmax - p.K + k] = static_cast<T>(w[k]);
  switch (kmax) {
    case 8: launch_fast<P, T, 8>(f, stream); break;
    case 16:
      if constexpr (max_taps >= 16) launch_fast<P, T, 16>(f, stream);
      break;
    case 24:
      if constexpr (max_taps >= 24) launch_fast<P, T, 24>(f, stream);
      break;
    case 32:
      if constexpr (max_taps >= 32) launch_fast<P, T, 32>(f, stream);
      break;
    default:
      if constexpr (max_taps >= 64) launch_fast<P, T, 64>(f, stream);
      break;
  }
  return true;
}

template <class P, class T, int KMAX>
void launch_fast(const fast_params<T>& f, cudaStream_t stream) {
  constexpr int V = fast_cfg<T>::V, VE = fast_cfg<T>::VE, G = cols_group<T, KMAX>();
  if (f.n_inner == 1) {
    // Threads per line segment: enough for the line (rounded to a warp), at most fast_threads.
    const std::int64_t need = (f.L + V - 1) / V;
    const int nt = static_cast<int>(std::min<std::int64_t>(fast_threads, (need + 31) / 32 * 32));
    const std::int64_t tile = static_cast<std::int64_t>(nt) * V;
    const std::int64_t n_seg = (f.L + tile - 1) / tile;
    const std::int64_t n_blocks = n_seg * f.n_outer;
    const std::size_t bytes = static_cast<std::size_t>(rows_smem_slots<T, KMAX>(tile)) * sizeof(T);
    fast_rows_kernel<P, T, KMAX><<<blocks_for(n_blocks), nt, bytes, stream>>>(f, n_seg, n_blocks);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  if constexpr (cols_vec_group<T, KMAX>() > 0) {
    if (cols_vec_applies(f)) {
      constexpr int GV = cols_vec_group<T, KMAX>();
      const std::int64_t n_vec = f.n_inner / VE;
      const int nt = static_cast<int>(std::min<std::int64_t>(fast_vec_threads, (n_vec + 31) / 32 * 32));
      const std::int64_t n_nb = (n_vec + nt - 1) / nt;
      // A thread does VE threads' work of the scalar kernel: aim at 1 / VE as many threads.
      std::int64_t ty = 0, n_seg = 0;
      col_segments(f.L, f.K, GV, n_nb * nt * f.n_outer, static_cast<std::int64_t>(sm_count()) * 2048 / VE, ty, n_seg);
      const std::int64_t n_blocks = n_nb * n_seg * f.n_outer;
      fast_cols_vec_kernel<P, T, KMAX><<<blocks_for(n_blocks), nt, 0, stream>>>(f, ty, n_nb, n_seg, n_blocks);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  }
  const int nt = static_cast<int>(std::min<std::int64_t>(fast_threads, (f.n_inner + 31) / 32 * 32));
  const std::int64_t n_nb = (f.n_inner + nt - 1) / nt;
  std::int64_t ty = 0, n_seg = 0;
  col_segments(f.L, f.K, G, n_nb * nt * f.n_outer, static_cast<std::int64_t>(sm_count()) * 2048, ty, n_seg);
  const std::int64_t n_blocks = n_nb * n_seg * f.n_outer;
  fast_cols_kernel<P, T, KMAX><<<blocks_for(n_blocks), nt, 0, stream>>>(f, ty, n_nb, n_seg, n_blocks);
  CUSCI_CHECK_LAUNCH();
}

/// Splits an axis of length L into n_seg segments of ty positions (a multiple of the group G) until
/// about `target` threads have work (`lines`: threads launched per segment row); each segment
/// re-reads K - 1 halo values, so segments stay >= 4 groups and >= 2 K long.
inline void col_segments(std::int64_t L, int K, int G, std::int64_t lines, std::int64_t target, std::int64_t& ty,
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

}  // namespace
}  // namespace cusci::ndimage::detail
