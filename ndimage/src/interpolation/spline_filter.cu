// The B-spline prefilter of cusci::ndimage (spline_filter1d, spline_filter): ni_splines.c's
// apply_filter, operation by operation. The array is seen as [outer, L, inner] around the filtered
// axis. A block of 32 threads owns 32 consecutive lines, one thread per line, and walks them in
// chunks of `chunk` samples staged in shared memory (tile[sample][line]): the block loads a chunk
// coalesced (along the line when the axis is the last one, across the lines otherwise), each thread
// runs its line's recursion over the chunk from shared memory, the block stores the chunk back. The
// recursions' dependency chains then wait on shared memory, not on global loads, and every global
// access is coalesced whatever the axis. Per line the operations and their order are the
// sequential algorithm's: only where the values live changes.
//
// Per line: c = gain * x (the gain of all poles), then per pole z the causal initial value (by
// mode: mirror, reflect or wrap conditions), the causal recursion c[i] += z c[i-1], the anticausal
// initial value and the recursion c[i] = z (c[i+1] - c[i]). The initial sums stop once the power of
// z has underflowed to 0 (every further term is then an exact 0 for finite data, so the sum is
// SciPy's to the bit); a line holding inf or nan runs the sums over the whole line as SciPy does.
// The initial values read the line in global memory (a few hundred samples at most for finite
// data). pow(z, L - 1) and pow(z, L) come from the host's pow, the one SciPy calls.
//
// Lines of min_parallel_length samples or more (unless the caller asks for SciPy's exact order) take
// spline_par_kernel instead, which is parallel along the line too: a block of 32 warps owns 32 lines
// (warp r computes line r), stages chunks of 128 samples of every line in shared memory, and splits
// each chunk into 32 parts of 4 samples, one per lane. The recursions c[i] = v[i] + z c[i-1] and
// c[i] = z (c[i+1] - c[i]) are linear, so each lane runs its part from a zero start, the lanes
// compose their parts' affine maps (carry -> z^4 carry + end value) with a warp scan, and each lane
// adds carry * z^(k+1) to its values: a two-level scan as signal's IIR filters use. The initial
// values' sums are warp reductions. The values differ from the sequential ones by rounding only. A
// line holding inf or nan runs the sequential operations (lane 0 of its warp) so that its values
// are SciPy's. Traffic per pole: one read and one write of the float64 line per direction, plus
// the read of the input and one write for the gain; each warp instruction of the recursion covers
// 32 samples of a line, so the 4096 lines of a 4096^2 array fill the GPU.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "cusci/detail/indexer.cuh"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "engine/axis_engine.cuh"
#include "interpolation/interp_detail.hpp"

namespace cusci::ndimage::detail {
namespace {

using cusci::detail::strided_indexer;

struct spline_params {
  const char* src;
  double* dst;
  std::int64_t L, n_outer, n_inner, src_sa;
  strided_indexer src_outer, src_inner;
  int src_code;
  int init;  // 0 mirror, 1 reflect, 2 wrap
  int npoles;
  double gain;
  double poles[2];
  double z_l1[2];  // pow(z, L - 1)
  double z_l[2];   // pow(z, L)
};

enum { init_mirror = 0, init_reflect = 1, init_wrap = 2 };

/// The causal initial value c[0] of one line (stride s, length n >= 2) in global memory.
__device__ __forceinline__ void causal_init(double* c, std::int64_t s, std::int64_t n, double z, double z_n_1,
                                            double z_n, int init, bool exact) {
  if (init == init_mirror) {
    double c0 = c[0] + z_n_1 * c[(n - 1) * s];
    double z_i = z;
    for (std::int64_t i = 1; i < n - 1; ++i) {
      if (!exact && z_i == 0.0) break;
      c0 += z_i * (c[i * s] + z_n_1 * c[(n - 1 - i) * s]);
      z_i *= z;
    }
    c[0] = c0 / (1 - z_n_1 * z_n_1);
  } else if (init == init_reflect) {
    const double c0_in = c[0];
    double c0 = c[0] + z_n * c[(n - 1) * s];
    double z_i = z;
    for (std::int64_t i = 1; i < n; ++i) {
      if (!exact && z_i == 0.0) break;
      c0 += z_i * (c[i * s] + z_n * c[(n - 1 - i) * s]);
      z_i *= z;
    }
    // (c0 * z) / (1 - z^2n): the rounding SciPy 1.18's binaries give (checked bit for bit)
    c0 = c0 * z / (1 - z_n * z_n);
    c[0] = c0 + c0_in;
  } else {
    double c0 = c[0];
    double z_i = z;
    for (std::int64_t i = 1; i < n; ++i) {
      if (!exact && z_i == 0.0) break;
      c0 += z_i * c[(n - i) * s];
      z_i *= z;
    }
    c[0] = c0 / (1 - z_i);
  }
}

/// The anticausal initial value c[n - 1] of one line in global memory (after the causal recursion).
__device__ __forceinline__ void anticausal_init(double* c, std::int64_t s, std::int64_t n, double z, int init,
                                                bool exact) {
  const std::int64_t last = (n - 1) * s;
  if (init == init_mirror) {
    c[last] = (z * c[last - s] + c[last]) * z / (z * z - 1);
  } else if (init == init_reflect) {
    c[last] *= z / (z - 1);
  } else {
    double cl = c[last];
    double z_i = z;
    for (std::int64_t i = 0; i < n - 1; ++i) {
      if (!exact && z_i == 0.0) break;
      cl += z_i * c[i * s];
      z_i *= z;
    }
    c[last] = cl * (z / (z_i - 1));
  }
}

constexpr int tile_lines = 32;  // lines per block = threads per block
constexpr int chunk = 128;      // samples per line staged at once (33.8 KB of shared memory)

struct tile_t {
  double v[chunk][tile_lines + 1];  // + 1: the loads along a line hit distinct banks
  std::int64_t dst[tile_lines];     // element offset of each line's first sample in dst
  const char* src[tile_lines];      // each line's first sample in src
};

/// Samples each lane loads before writing them to the tile: the loads of a chunk are issued in
/// batches of this many (in flight together) instead of one load waiting per store.
constexpr int batch = 16;

/// Reads sample i of tile line r (a global load through `get(r, i)`) for samples [i0, i0 + n) of the
/// block's `nl` lines into the tile. Along the last axis (along) the lanes take consecutive samples of
/// one line, else one line each; either way the warp's loads are coalesced.
template <class Get>
__device__ __forceinline__ void load_chunk(tile_t& t, bool along, std::int64_t i0, int n, int nl, Get&& get) {
  const int lane = threadIdx.x;
  if (along) {
    constexpr int per_lane = chunk / tile_lines;  // samples of one line per lane
    constexpr int lines_at_once = batch / per_lane;
    for (int r0 = 0; r0 < nl; r0 += lines_at_once) {
      double buf[lines_at_once][per_lane];
#pragma unroll
      for (int rr = 0; rr < lines_at_once; ++rr)
#pragma unroll
        for (int m = 0; m < per_lane; ++m) {
          const int k = lane + m * tile_lines;
          buf[rr][m] = (r0 + rr < nl && k < n) ? get(r0 + rr, i0 + k) : 0.0;
        }
#pragma unroll
      for (int rr = 0; rr < lines_at_once; ++rr)
#pragma unroll
        for (int m = 0; m < per_lane; ++m)
          if (r0 + rr < nl) t.v[lane + m * tile_lines][r0 + rr] = buf[rr][m];
    }
  } else if (lane < nl) {
    for (int k0 = 0; k0 < n; k0 += batch) {
      double buf[batch];
#pragma unroll
      for (int m = 0; m < batch; ++m) buf[m] = k0 + m < n ? get(lane, i0 + k0 + m) : 0.0;
#pragma unroll
      for (int m = 0; m < batch; ++m) t.v[k0 + m][lane] = buf[m];
    }
  }
}

/// Writes samples [i0, i0 + n) of the block's lines from the tile to dst.
__device__ __forceinline__ void store_chunk(const tile_t& t, double* dst, std::int64_t s, std::int64_t i0, int n,
                                            int nl) {
  const int lane = threadIdx.x;
  if (s == 1) {
    for (int r = 0; r < nl; ++r) {
      double* line = dst + t.dst[r] + i0;
      for (int k = lane; k < n; k += tile_lines) line[k] = t.v[k][r];
    }
  } else if (lane < nl) {
    double* line = dst + t.dst[lane] + i0 * s;
    for (int k = 0; k < n; ++k) line[k * s] = t.v[k][lane];
  }
}

__global__ void __launch_bounds__(tile_lines) spline_tile_kernel(const spline_params p) {
  __shared__ tile_t t;
  const int lane = threadIdx.x;
  const std::int64_t n_lines = p.n_outer * p.n_inner;
  const std::int64_t L = p.L, s = p.n_inner;
  const std::int64_t n_chunks = (L + chunk - 1) / chunk;
  for (std::int64_t t0 = blockIdx.x * static_cast<std::int64_t>(tile_lines); t0 < n_lines;
       t0 += static_cast<std::int64_t>(gridDim.x) * tile_lines) {
    const bool active = t0 + lane < n_lines;
    const int nl = n_lines - t0 < tile_lines ? static_cast<int>(n_lines - t0) : tile_lines;
    __syncthreads();  // the previous group's last chunk is stored
    if (active) {
      const std::int64_t o = (t0 + lane) / p.n_inner;
      const std::int64_t j = t0 + lane - o * p.n_inner;
      t.dst[lane] = o * L * p.n_inner + j;
      t.src[lane] = p.src + p.src_outer.offset(o) + p.src_inner.offset(j);
    }
    __syncthreads();
    double* c = p.dst + (active ? t.dst[lane] : 0);
    // c = gain * x; a line of one value is copied as is
    const double gain = L > 1 ? p.gain : 1.0;
    bool finite = true;
    for (std::int64_t q = 0; q < n_chunks; ++q) {
      const std::int64_t i0 = q * chunk;
      const int n = L - i0 < chunk ? static_cast<int>(L - i0) : chunk;
      load_chunk(t, s == 1, i0, n, nl, [&](int r, std::int64_t i) {
        return load_value<any_in, double>(t.src[r] + i * p.src_sa, p.src_code) * gain;
      });
      __syncthreads();
      if (active)
        for (int k = 0; k < n; ++k) finite = finite && isfinite(t.v[k][lane]);
      store_chunk(t, p.dst, s, i0, n, nl);
      __syncthreads();
    }
    if (L < 2) continue;
    for (int pole = 0; pole < p.npoles; ++pole) {
      const double z = p.poles[pole];
      if (active) causal_init(c, s, L, z, p.z_l1[pole], p.z_l[pole], p.init, !finite);
      __syncthreads();
      double prev = 0.0;
      for (std::int64_t q = 0; q < n_chunks; ++q) {
        const std::int64_t i0 = q * chunk;
        const int n = L - i0 < chunk ? static_cast<int>(L - i0) : chunk;
        load_chunk(t, s == 1, i0, n, nl, [&](int r, std::int64_t i) { return p.dst[t.dst[r] + i * s]; });
        __syncthreads();
        if (active) {
          int k = 0;
          if (q == 0) {
            prev = t.v[0][lane];
            k = 1;
          }
          for (; k < n; ++k) {
            const double v = t.v[k][lane] + z * prev;
            t.v[k][lane] = v;
            prev = v;
          }
        }
        __syncthreads();
        store_chunk(t, p.dst, s, i0, n, nl);
        __syncthreads();
      }
      if (active) anticausal_init(c, s, L, z, p.init, !finite);
      __syncthreads();
      double next = 0.0;
      for (std::int64_t q = n_chunks - 1; q >= 0; --q) {
        const std::int64_t i0 = q * chunk;
        const int n = L - i0 < chunk ? static_cast<int>(L - i0) : chunk;
        load_chunk(t, s == 1, i0, n, nl, [&](int r, std::int64_t i) { return p.dst[t.dst[r] + i * s]; });
        __syncthreads();
        if (active) {
          int k = n - 1;
          if (q == n_chunks - 1) {
            next = t.v[k][lane];
            --k;
          }
          for (; k >= 0; --k) {
            const double v = z * (next - t.v[k][lane]);
            t.v[k][lane] = v;
            next = v;
          }
        }
        __syncthreads();
        store_chunk(t, p.dst, s, i0, n, nl);
        __syncthreads();
      }
    }
  }
}


// ---- the parallel (chunked) kernel ----------------------------------------------------------------

constexpr int par_lines = 32;                  // lines per block: one warp each
constexpr int par_sub = 4;                     // samples of a part (one lane)
constexpr int par_chunk = 32 * par_sub;        // samples of a line staged at once
constexpr int par_part_pitch = par_sub + 1;    // + 1: lanes of a warp hit distinct banks
constexpr int par_pitch = 32 * par_part_pitch + 1;  // doubles per staged line (odd: loads across lines)
constexpr std::size_t par_smem = sizeof(double) * par_lines * par_pitch;
constexpr unsigned full_mask = 0xffffffffu;

__device__ __forceinline__ int par_idx(int line, int k) {
  return line * par_pitch + (k / par_sub) * par_part_pitch + k % par_sub;
}

__device__ __forceinline__ double warp_sum(double v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(full_mask, v, o);
  return v;
}

/// sum over i in [i_lo, i_hi) of z^(i + e) * f(i), across the lanes of a warp (every lane gets it);
/// stops once the powers have underflowed to 0 (finite data: every further term is 0).
template <class F>
__device__ __forceinline__ double power_sum(double z, std::int64_t i_lo, std::int64_t i_hi, int e, F&& f) {
  const int lane = threadIdx.x;
  double zl = 1.0;
  for (int k = 0; k < lane + e + static_cast<int>(i_lo); ++k) zl *= z;  // z^(i_lo + lane + e)
  double z32 = 1.0;
  for (int k = 0; k < 32; ++k) z32 *= z;
  double acc = 0.0;
  for (std::int64_t b = i_lo; b < i_hi; b += 32) {
    const std::int64_t i = b + lane;
    if (i < i_hi) acc += zl * f(i);
    zl *= z32;
    if (__all_sync(full_mask, zl == 0.0)) break;
  }
  return warp_sum(acc);
}

/// causal_init with the sums as warp reductions (finite lines; every lane of the warp calls it).
__device__ __forceinline__ void causal_init_par(double* c, std::int64_t s, std::int64_t n, double z, double z_n_1,
                                                double z_n, int init) {
  if (init == init_mirror) {
    const double sum = power_sum(z, 1, n - 1, 0, [&](std::int64_t i) { return c[i * s] + z_n_1 * c[(n - 1 - i) * s]; });
    if (threadIdx.x == 0) c[0] = (c[0] + z_n_1 * c[(n - 1) * s] + sum) / (1 - z_n_1 * z_n_1);
  } else if (init == init_reflect) {
    const double sum = power_sum(z, 1, n, 0, [&](std::int64_t i) { return c[i * s] + z_n * c[(n - 1 - i) * s]; });
    if (threadIdx.x == 0) {
      const double c0_in = c[0];
      double c0 = c[0] + z_n * c[(n - 1) * s] + sum;
      c0 = c0 * z / (1 - z_n * z_n);
      c[0] = c0 + c0_in;
    }
  } else {
    const double sum = power_sum(z, 1, n, 0, [&](std::int64_t i) { return c[(n - i) * s]; });
    if (threadIdx.x == 0) c[0] = (c[0] + sum) / (1 - z_n);
  }
}

/// anticausal_init with the wrap sum as a warp reduction (finite lines; every lane calls it).
__device__ __forceinline__ void anticausal_init_par(double* c, std::int64_t s, std::int64_t n, double z, double z_n,
                                                    int init) {
  const std::int64_t last = (n - 1) * s;
  if (init == init_wrap) {
    const double sum = power_sum(z, 0, n - 1, 1, [&](std::int64_t i) { return c[i * s]; });
    if (threadIdx.x == 0) c[last] = (c[last] + sum) * (z / (z_n - 1));
  } else if (threadIdx.x == 0) {
    anticausal_init(c, s, n, z, init, false);
  }
}

struct par_tile {
  std::int64_t dst[par_lines];
  const char* src[par_lines];
  int bad[par_lines];  // the line holds inf or nan
};

/// Moves samples [i0, i0 + n) of the block's nl lines between global memory and the staged tile:
/// along the last axis warp w takes line w, lanes consecutive samples; otherwise lane r takes line r
/// and warp w samples w, w + 32, ...: coalesced either way. Each thread has par_sub accesses in
/// flight. `op(r, k, i, m)` does the work for sample k (index i in the line) of line r, the thread's
/// m-th access.
template <class Op>
__device__ __forceinline__ void par_sweep(bool along, std::int64_t i0, int n, int nl, Op&& op) {
  const int lane = threadIdx.x, w = threadIdx.y;
  if (along) {
    if (w < nl) {
#pragma unroll
      for (int m = 0; m < par_sub; ++m) {
        const int k = lane + 32 * m;
        if (k < n) op(w, k, i0 + k, m);
      }
    }
  } else if (lane < nl) {
#pragma unroll
    for (int m = 0; m < par_sub; ++m) {
      const int k = w + 32 * m;
      if (k < n) op(lane, k, i0 + k, m);
    }
  }
}

__global__ void __launch_bounds__(1024, 1) spline_par_kernel(const spline_params p) {
  extern __shared__ double sm[];
  __shared__ par_tile t;
  const int lane = threadIdx.x, w = threadIdx.y;
  const std::int64_t n_lines = p.n_outer * p.n_inner;
  const std::int64_t L = p.L, s = p.n_inner;
  const bool along = s == 1;
  const std::int64_t n_chunks = (L + par_chunk - 1) / par_chunk;
  for (std::int64_t t0 = blockIdx.x * static_cast<std::int64_t>(par_lines); t0 < n_lines;
       t0 += static_cast<std::int64_t>(gridDim.x) * par_lines) {
    const int nl = n_lines - t0 < par_lines ? static_cast<int>(n_lines - t0) : par_lines;
    __syncthreads();  // the previous group is done with the tile
    if (w == 0 && lane < nl) {
      const std::int64_t o = (t0 + lane) / p.n_inner;
      const std::int64_t j = t0 + lane - o * p.n_inner;
      t.dst[lane] = o * L * p.n_inner + j;
      t.src[lane] = p.src + p.src_outer.offset(o) + p.src_inner.offset(j);
      t.bad[lane] = 0;
    }
    __syncthreads();
    // c = gain * x (each thread loads its samples before storing them: src may be dst)
    for (std::int64_t q = 0; q < n_chunks; ++q) {
      const std::int64_t i0 = q * par_chunk;
      const int n = L - i0 < par_chunk ? static_cast<int>(L - i0) : par_chunk;
      double v[par_sub];
      par_sweep(along, i0, n, nl, [&](int r, int, std::int64_t i, int m) {
        v[m] = load_value<any_in, double>(t.src[r] + i * p.src_sa, p.src_code) * p.gain;
      });
      bool bad = false;
      par_sweep(along, i0, n, nl, [&](int r, int, std::int64_t i, int m) {
        bad = bad || !isfinite(v[m]);
        p.dst[t.dst[r] + i * s] = v[m];
      });
      if (bad) t.bad[along ? w : lane] = 1;
    }
    __syncthreads();
    const bool in_tile = w < nl;
    const bool bad_line = in_tile && t.bad[w] != 0;
    double* c = p.dst + (in_tile ? t.dst[w] : 0);
    for (int pole = 0; pole < p.npoles; ++pole) {
      const double z = p.poles[pole];
      if (in_tile) {
        if (bad_line) {
          if (lane == 0) causal_init(c, s, L, z, p.z_l1[pole], p.z_l[pole], p.init, true);
        } else {
          causal_init_par(c, s, L, z, p.z_l1[pole], p.z_l[pole], p.init);
        }
      }
      __syncthreads();
      double prev = 0.0;  // the last value of the previous chunk (uniform over the warp)
      for (std::int64_t q = 0; q < n_chunks; ++q) {
        const std::int64_t i0 = q * par_chunk;
        const int n = L - i0 < par_chunk ? static_cast<int>(L - i0) : par_chunk;
        par_sweep(along, i0, n, nl,
                  [&](int r, int k, std::int64_t i, int) { sm[par_idx(r, k)] = p.dst[t.dst[r] + i * s]; });
        __syncthreads();
        if (in_tile && !bad_line) {
          const int k0 = lane * par_sub;
          const int cnt = n - k0 < 0 ? 0 : (n - k0 > par_sub ? par_sub : n - k0);
          double y[par_sub];
          double acc = 0.0, a = 1.0;
#pragma unroll
          for (int k = 0; k < par_sub; ++k) {
            if (k < cnt) {
              acc = sm[par_idx(w, k0 + k)] + z * acc;
              a *= z;
            }
            y[k] = acc;
          }
          double b = acc;
          // inclusive scan of the parts' maps carry -> a carry + b over the lanes
#pragma unroll
          for (int o = 1; o < 32; o <<= 1) {
            const double ap = __shfl_up_sync(full_mask, a, o), bp = __shfl_up_sync(full_mask, b, o);
            if (lane >= o) {
              b = a * bp + b;
              a = a * ap;
            }
          }
          const double ae = __shfl_up_sync(full_mask, a, 1), be = __shfl_up_sync(full_mask, b, 1);
          const double carry = lane == 0 ? prev : ae * prev + be;
          double zp = z;
#pragma unroll
          for (int k = 0; k < par_sub; ++k) {
            if (k < cnt) {
              y[k] += zp * carry;
              zp *= z;
              sm[par_idx(w, k0 + k)] = y[k];
            }
          }
          prev = __shfl_sync(full_mask, y[par_sub - 1], 31);
        } else if (in_tile && lane == 0) {
          int k = 0;
          if (q == 0) {
            prev = sm[par_idx(w, 0)];
            k = 1;
          }
          for (; k < n; ++k) {
            const double v = sm[par_idx(w, k)] + z * prev;
            sm[par_idx(w, k)] = v;
            prev = v;
          }
        }
        __syncthreads();
        par_sweep(along, i0, n, nl,
                  [&](int r, int k, std::int64_t i, int) { p.dst[t.dst[r] + i * s] = sm[par_idx(r, k)]; });
        __syncthreads();
      }
      if (in_tile) {
        if (bad_line) {
          if (lane == 0) anticausal_init(c, s, L, z, p.init, true);
        } else {
          anticausal_init_par(c, s, L, z, p.z_l[pole], p.init);
        }
      }
      __syncthreads();
      double next = 0.0;  // the first value of the following chunk
      for (std::int64_t q = n_chunks - 1; q >= 0; --q) {
        const std::int64_t i0 = q * par_chunk;
        const int n = L - i0 < par_chunk ? static_cast<int>(L - i0) : par_chunk;
        par_sweep(along, i0, n, nl,
                  [&](int r, int k, std::int64_t i, int) { sm[par_idx(r, k)] = p.dst[t.dst[r] + i * s]; });
        __syncthreads();
        if (in_tile && !bad_line) {
          const int k0 = lane * par_sub;
          const int cnt = n - k0 < 0 ? 0 : (n - k0 > par_sub ? par_sub : n - k0);
          double y[par_sub];
          double acc = 0.0, a = 1.0;
#pragma unroll
          for (int k = par_sub - 1; k >= 0; --k) {
            if (k < cnt) {
              const double v = sm[par_idx(w, k0 + k)];
              // the line's last value is the anticausal initial value itself
              acc = i0 + k0 + k == L - 1 ? v : z * (acc - v);
              a *= z;
            }
            y[k] = acc;
          }
          double b = acc;
          // inclusive scan from the right: lane l composes the maps of parts l..31
#pragma unroll
          for (int o = 1; o < 32; o <<= 1) {
            const double ap = __shfl_down_sync(full_mask, a, o), bp = __shfl_down_sync(full_mask, b, o);
            if (lane + o < 32) {
              b = a * bp + b;
              a = a * ap;
            }
          }
          const double ae = __shfl_down_sync(full_mask, a, 1), be = __shfl_down_sync(full_mask, b, 1);
          const double carry = lane == 31 ? next : ae * next + be;
          double zp = z;
#pragma unroll
          for (int k = par_sub - 1; k >= 0; --k) {
            if (k < cnt) {
              y[k] += zp * carry;
              zp *= z;
              sm[par_idx(w, k0 + k)] = y[k];
            }
          }
          next = __shfl_sync(full_mask, y[0], 0);
        } else if (in_tile && lane == 0) {
          int k = n - 1;
          if (q == n_chunks - 1) {
            next = sm[par_idx(w, k)];
            --k;
          }
          for (; k >= 0; --k) {
            const double v = z * (next - sm[par_idx(w, k)]);
            sm[par_idx(w, k)] = v;
            next = v;
          }
        }
        __syncthreads();
        par_sweep(along, i0, n, nl,
                  [&](int r, int k, std::int64_t i, int) { p.dst[t.dst[r] + i * s] = sm[par_idx(r, k)]; });
        __syncthreads();
      }
    }
  }
}

// ---- C's conversions from double (x86-64) --------------------------------------------------------

__device__ __forceinline__ int c_i32(double t) {
  return (t > -2147483649.0 && t < 2147483648.0) ? static_cast<int>(t) : static_cast<int>(0x80000000u);
}
__device__ __forceinline__ long long c_i64(double t) {
  return (t >= -9223372036854775808.0 && t < 9223372036854775808.0) ? static_cast<long long>(t)
                                                                     : static_cast<long long>(1ull << 63);
}

__device__ __forceinline__ void store_c_cast(char* ptr, int code, double t) {
  switch (code) {
    case static_cast<int>(dtype::bool_): *reinterpret_cast<std::uint8_t*>(ptr) = (c_i32(t) & 0xff) != 0; return;
    case static_cast<int>(dtype::int8): *reinterpret_cast<std::int8_t*>(ptr) = static_cast<std::int8_t>(c_i32(t)); return;
    case static_cast<int>(dtype::uint8): *reinterpret_cast<std::uint8_t*>(ptr) = static_cast<std::uint8_t>(c_i32(t)); return;
    case static_cast<int>(dtype::int16): *reinterpret_cast<std::int16_t*>(ptr) = static_cast<std::int16_t>(c_i32(t)); return;
    case static_cast<int>(dtype::uint16):
      *reinterpret_cast<std::uint16_t*>(ptr) = static_cast<std::uint16_t>(c_i32(t));
      return;
    case static_cast<int>(dtype::int32): *reinterpret_cast<std::int32_t*>(ptr) = c_i32(t); return;
    case static_cast<int>(dtype::uint32):
      *reinterpret_cast<std::uint32_t*>(ptr) = static_cast<std::uint32_t>(static_cast<unsigned long long>(c_i64(t)));
      return;
    case static_cast<int>(dtype::int64): *reinterpret_cast<std::int64_t*>(ptr) = c_i64(t); return;
    case static_cast<int>(dtype::uint64): {
      // gcc: x < 2^63 (or unordered) ? (long)x : (long)(x - 2^63) ^ 2^63
      std::uint64_t v;
      if (!(t >= 9223372036854775808.0)) v = static_cast<std::uint64_t>(c_i64(t));
      else v = static_cast<std::uint64_t>(c_i64(t - 9223372036854775808.0)) ^ (1ull << 63);
      *reinterpret_cast<std::uint64_t*>(ptr) = v;
      return;
    }
    case static_cast<int>(dtype::float32): *reinterpret_cast<float*>(ptr) = static_cast<float>(t); return;
    default: *reinterpret_cast<double*>(ptr) = t; return;
  }
}

__global__ void c_cast_kernel(const char* src, strided_indexer src_ix, int src_code, char* dst,
                              strided_indexer dst_ix, int dst_code, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    store_c_cast(dst + dst_ix.offset(i), dst_code, load_value<any_in, double>(src + src_ix.offset(i), src_code));
}

}  // namespace

void c_cast_copy(const ndarray& src, const ndarray& dst) {
  CUSCI_EXPECTS(src.shape() == dst.shape(), value_error, "cusci::ndimage: c_cast_copy: shapes differ");
  const std::int64_t n = dst.size();
  if (n == 0) return;
  const auto si = cusci::detail::make_indexer(src.shape(), src.strides());
  const auto di = cusci::detail::make_indexer(dst.shape(), dst.strides());
  c_cast_kernel<<<cusci::detail::grid_for(n, 256), 256, 0, get_current_stream()>>>(
      static_cast<const char*>(src.data()), si, static_cast<int>(src.dtype()), static_cast<char*>(dst.data()), di,
      static_cast<int>(dst.dtype()), n);
  CUSCI_CHECK_LAUNCH();
}

void spline_filter_pass(const ndarray& src, const ndarray& dst, int axis, int order, int code, bool sequential) {
  if (dst.size() == 0) return;
  spline_params p{};
  const auto v = cusci::detail::line_view_of(src.shape(), axis);
  p.L = v.length;
  p.n_outer = v.outer;
  p.n_inner = v.inner;
  p.src_sa = src.strides()[static_cast<std::size_t>(axis)];
  shape_t os, ost, is, ist;
  for (int d = 0; d < src.ndim(); ++d) {
    if (d < axis) {
      os.push_back(src.shape()[static_cast<std::size_t>(d)]);
      ost.push_back(src.strides()[static_cast<std::size_t>(d)]);
    } else if (d > axis) {
      is.push_back(src.shape()[static_cast<std::size_t>(d)]);
      ist.push_back(src.strides()[static_cast<std::size_t>(d)]);
    }
  }
  cusci::detail::coalesce(os, {&ost});
  cusci::detail::coalesce(is, {&ist});
  p.src_outer = cusci::detail::make_indexer(os, ost);
  p.src_inner = cusci::detail::make_indexer(is, ist);
  p.src = static_cast<const char*>(src.data());
  p.dst = static_cast<double*>(dst.data());
  p.src_code = static_cast<int>(src.dtype());
  // ni_splines.c's apply_filter: which initial conditions each mode uses.
  switch (code) {
    case ic_grid_wrap: p.init = init_wrap; break;
    case ic_nearest:
    case ic_reflect: p.init = init_reflect; break;
    default: p.init = init_mirror; break;  // mirror, constant, grid-constant, wrap
  }
  // get_filter_poles
  switch (order) {
    case 2: p.npoles = 1; p.poles[0] = -0.171572875253809902396622551580603843; break;
    case 3: p.npoles = 1; p.poles[0] = -0.267949192431122706472553658494127633; break;
    case 4:
      p.npoles = 2;
      p.poles[0] = -0.361341225900220177092212841325675255;
      p.poles[1] = -0.013725429297339121360331226939128204;
      break;
    default:
      p.npoles = 2;
      p.poles[0] = -0.430575347099973791851434783493520110;
      p.poles[1] = -0.043096288203264653822712376822550182;
      break;
  }
  volatile double gain = 1.0;  // the host's arithmetic, one rounding per operation
  for (int k = 0; k < p.npoles; ++k) {
    const double z = p.poles[k];
    volatile double a = 1.0 - z;
    volatile double b = 1.0 - 1.0 / z;
    volatile double ab = a * b;
    gain = gain * ab;
    p.z_l1[k] = std::pow(z, static_cast<double>(p.L - 1));
    p.z_l[k] = std::pow(z, static_cast<double>(p.L));
  }
  p.gain = gain;
  const std::int64_t n_lines = p.n_outer * p.n_inner;
  if (sequential || p.L < min_parallel_length) {
    spline_tile_kernel<<<cusci::detail::grid_for(n_lines, tile_lines), tile_lines, 0, get_current_stream()>>>(p);
  } else {
    CUSCI_CUDA_TRY(cudaFuncSetAttribute(spline_par_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(par_smem)));
    const std::int64_t tiles = (n_lines + par_lines - 1) / par_lines;
    const unsigned grid = static_cast<unsigned>(tiles < 65535 ? tiles : 65535);
    spline_par_kernel<<<grid, dim3(32, par_lines), par_smem, get_current_stream()>>>(p);
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::ndimage::detail
