#pragma once
// (internal; nvcc only) The footprint engine's kernels (see footprint_engine.hpp).
//
// A policy P is the reduction over the footprint's values:
//   template <class T, class Get> __device__ static T reduce(const Get& get, int n_taps, const double* w);
// get(k) = the (extended) input under footprint element k, in SciPy's C order; w = the weights per
// element or nullptr.
//  - tiled:   [z, y, x] tiles of outputs (x fastest over the 256 threads); the block loads the tile
//             plus the halo once into shared memory, mapping each axis with boundary.cuh; each output
//             then reads its footprint from shared memory at the precomputed offsets.
//  - generic: one thread per output (any ndim), every footprint element mapped per axis and read
//             through the cache.
//
// The weighted sum of correlate / convolve (weighted_sum_policy) has its own kernels below, since its
// input and output dtypes differ and its constant value is a double: weighted_strip_kernel (small full
// boxes: a strip of outputs per thread, each input value read and converted once per thread),
// weighted_blocked_kernel (tiles in double, R outputs per thread from registers) and
// weighted_generic_kernel (any ndim).

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "engine/axis_engine.cuh"
#include "engine/boundary.cuh"
#include "engine/footprint_engine.hpp"

namespace cusci::ndimage::detail {

inline constexpr int footprint_threads = 256;
/// Tap lists (footprint_plan::taps) up to this many entries travel in the kernel parameters
/// (fp_tap_list, footprint_launch); longer ones in a device buffer.
inline constexpr int fp_param_taps = 512;

struct fp_params {
  const char* in;
  char* out;
  int ndim;
  std::int64_t shape[footprint_max_dims];
  std::int64_t in_st[footprint_max_dims];
  std::int64_t out_st[footprint_max_dims];
  int shift[footprint_max_dims];
  int mode[footprint_max_dims];
  int n_taps;
  const std::int32_t* taps;
  const double* weights;
  int tile[3], halo[3];
  std::int64_t n_tiles[3];
};

/// A short tap list passed by value to the footprint kernels of footprint_launch (a second,
/// grid-constant kernel parameter, so the other users of fp_params keep their parameter size).
struct fp_tap_list {
  std::int32_t v[fp_param_taps];
};

/// The tap list of a footprint kernel: p.taps in device memory, or (p.taps null) the by-value list.
__device__ __forceinline__ const std::int32_t* fp_taps(const fp_params& p, const fp_tap_list& tl) {
  return p.taps != nullptr ? p.taps : tl.v;
}

/// Position i of an axis of length L after the boundary map; -1 for the constant value.
__device__ __forceinline__ std::int64_t fp_index(std::int64_t i, std::int64_t L, int mode) {
  return static_cast<std::uint64_t>(i) < static_cast<std::uint64_t>(L) ? i : map_index(i, L, mode);
}

/// Stages the halo tile of a block, [HZ][HY][HX] row-major, into `s`: element (hz, hy, hx) is the
/// extended input at (z0 + hz - shift[0], y0 + hy - shift[1], x0 + hx - shift[2]) (boundary.cuh's map
/// per axis; `cval` where the constant mode applies), read by load(ptr) as an S. Each thread issues
/// fp_stage_batch loads before it stores any of them, so that a block keeps that many loads per
/// thread in flight (one at a time leaves the memory system idle: the pass becomes latency bound).
/// Tiles wholly inside the array skip the boundary maps. Callers synchronize before and after.
inline constexpr int fp_stage_batch = 8;

template <class S, class Load>
__device__ __forceinline__ void stage_halo(S* s, const int halo[3], std::int64_t z0, std::int64_t y0, std::int64_t x0,
                                           const std::int64_t shape[3], const int shift[3], const int mode[3],
                                           const char* in, const std::int64_t st[3], S cval, const Load& load) {
  const int HZ = halo[0], HY = halo[1], HX = halo[2];
  const int n = HZ * HY * HX;
  const std::int64_t bz = z0 - shift[0], by = y0 - shift[1], bx = x0 - shift[2];
  const bool inside = bz >= 0 && by >= 0 && bx >= 0 && bz + HZ <= shape[0] && by + HY <= shape[1] &&
                      bx + HX <= shape[2];
  for (int base = 0; base < n; base += fp_stage_batch * static_cast<int>(blockDim.x)) {
    S v[fp_stage_batch];
#pragma unroll
    for (int i = 0; i < fp_stage_batch; ++i) {
      const int q = base + i * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x);
      v[i] = cval;
      if (q < n) {
        const int row = q / HX, hx = q - row * HX;
        const int hz = row / HY, hy = row - hz * HY;
        std::int64_t gz = bz + hz, gy = by + hy, gx = bx + hx;
        if (!inside) {
          gz = fp_index(gz, shape[0], mode[0]);
          gy = fp_index(gy, shape[1], mode[1]);
          gx = fp_index(gx, shape[2], mode[2]);
        }
        if (gz >= 0 && gy >= 0 && gx >= 0) v[i] = load(in + gz * st[0] + gy * st[1] + gx * st[2]);
      }
    }
#pragma unroll
    for (int i = 0; i < fp_stage_batch; ++i) {
      const int q = base + i * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x);
      if (q < n) s[q] = v[i];
    }
  }
}

template <class P, class T>
__global__ void __launch_bounds__(footprint_threads)
    footprint_tiled_kernel(const __grid_constant__ fp_params p, const __grid_constant__ fp_tap_list tl, T cval,
                           std::int64_t n_blocks) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* s = reinterpret_cast<T*>(smem);
  const int HX = p.halo[2], HY = p.halo[1];
  const int TX = p.tile[2], TY = p.tile[1], TZ = p.tile[0];
  const int n_out = TX * TY * TZ;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t r = b / p.n_tiles[2];
    const std::int64_t by = r % p.n_tiles[1];
    const std::int64_t bz = r / p.n_tiles[1];
    const std::int64_t x0 = bx * TX, y0 = by * TY, z0 = bz * TZ;
    __syncthreads();  // the previous tile's reads of s are done
    stage_halo<T>(s, p.halo, z0, y0, x0, p.shape, p.shift, p.mode, p.in, p.in_st, cval,
                  [](const char* ptr) { return *reinterpret_cast<const T*>(ptr); });
    __syncthreads();
    for (int q = threadIdx.x; q < n_out; q += blockDim.x) {
      const int ox = q % TX;
      const int t = q / TX;
      const int oy = t % TY;
      const int oz = t / TY;
      const std::int64_t x = x0 + ox, y = y0 + oy, z = z0 + oz;
      if (x >= p.shape[2] || y >= p.shape[1] || z >= p.shape[0]) continue;
      const T* c = s + (oz * HY + oy) * HX + ox;
      const std::int32_t* taps = fp_taps(p, tl);
      const T v = P::template reduce<T>([&](int k) { return c[taps[k]]; }, p.n_taps, p.weights);
      *reinterpret_cast<T*>(p.out + z * p.out_st[0] + y * p.out_st[1] + x * p.out_st[2]) = v;
    }
  }
}

template <class P, class T>
__global__ void __launch_bounds__(footprint_threads)
    footprint_generic_kernel(const __grid_constant__ fp_params p, const __grid_constant__ fp_tap_list tl, T cval,
                             std::int64_t n_total) {
  const std::int32_t* taps = fp_taps(p, tl);
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n_total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t coord[footprint_max_dims];
    std::int64_t rem = t, out_off = 0;
    for (int d = p.ndim - 1; d >= 0; --d) {
      coord[d] = rem % p.shape[d];
      rem /= p.shape[d];
      out_off += coord[d] * p.out_st[d];
    }
    auto get = [&](int k) -> T {
      const std::int32_t* tap = taps + static_cast<std::int64_t>(k) * p.ndim;
      std::int64_t off = 0;
      for (int d = 0; d < p.ndim; ++d) {
        const std::int64_t i = fp_index(coord[d] + tap[d] - p.shift[d], p.shape[d], p.mode[d]);
        if (i < 0) return cval;
        off += i * p.in_st[d];
      }
      return *reinterpret_cast<const T*>(p.in + off);
    };
    *reinterpret_cast<T*>(p.out + out_off) = P::template reduce<T>(get, p.n_taps, p.weights);
  }
}

/// Policy P's footprint pass from `in` to `out` (both of device type T, one shape), `cval` already
/// in T. Enqueues on the current stream.
template <class P, class T>
void footprint_launch(const ndarray& in, const ndarray& out, const footprint_spec& f, T cval) {
  if (out.size() == 0) return;
  const footprint_plan plan = make_footprint_plan(in, out, f, sizeof(T));
  cudaStream_t stream = get_current_stream();
  fp_params p{};
  fp_tap_list tl{};
  // Short tap lists travel in the kernel parameters (no allocation, no host-to-device copy);
  // longer ones in a buffer from the pool, copied from pageable memory (the call returns once the
  // host data is staged, so the plan may go away afterwards).
  device_buffer<std::int32_t> taps;
  if (plan.taps.size() <= static_cast<std::size_t>(fp_param_taps)) {
    for (std::size_t k = 0; k < plan.taps.size(); ++k) tl.v[k] = plan.taps[k];
  } else {
    taps = device_buffer<std::int32_t>(plan.taps.size(), stream);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(taps.data(), plan.taps.data(), plan.taps.size() * sizeof(std::int32_t),
                                   cudaMemcpyHostToDevice, stream));
  }
  device_buffer<double> weights;
  if (!plan.weights.empty()) {
    weights = device_buffer<double>(plan.weights.size(), stream);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(weights.data(), plan.weights.data(), plan.weights.size() * sizeof(double),
                                   cudaMemcpyHostToDevice, stream));
  }
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  p.ndim = plan.ndim;
  for (int d = 0; d < footprint_max_dims; ++d) {
    p.shape[d] = plan.shape[d];
    p.in_st[d] = plan.in_strides[d];
    p.out_st[d] = plan.out_strides[d];
    p.shift[d] = plan.shift[d];
    p.mode[d] = plan.mode[d];
  }
  p.n_taps = plan.n_taps;
  p.taps = taps.data();  // nullptr when the taps are in tl
  p.weights = plan.weights.empty() ? nullptr : weights.data();
  for (int a = 0; a < 3; ++a) {
    p.tile[a] = plan.tile[a];
    p.halo[a] = plan.halo[a];
    p.n_tiles[a] = plan.n_tiles[a];
  }
  if (plan.tiled) {
    const std::int64_t n_blocks = plan.n_tiles[0] * plan.n_tiles[1] * plan.n_tiles[2];
    footprint_tiled_kernel<P, T><<<blocks_for(n_blocks), footprint_threads, plan.smem_bytes, stream>>>(p, tl, cval,
                                                                                                       n_blocks);
  } else {
    const std::int64_t n = out.size();
    footprint_generic_kernel<P, T><<<blocks_for((n + footprint_threads - 1) / footprint_threads), footprint_threads, 0,
                                     stream>>>(p, tl, cval, n);
  }
  CUSCI_CHECK_LAUNCH();
}

// ---------------------------------------------------------------------------------------------
// Weighted sum (SciPy's NI_Correlate).

/// Tag: the output dtype is chosen at run time (fw_params::out_code).
struct any_out {};

/// One step of SciPy's sum `tmp += w * v` in double: rounded twice as SciPy (Fused = false: no
/// contraction into a fused multiply-add), or once (Fused = true).
template <bool Fused>
struct weighted_sum_policy {
  __device__ __forceinline__ static double step(double acc, double w, double v) {
    if constexpr (Fused) return fma(w, v, acc);
    else return __dadd_rn(acc, __dmul_rn(w, v));
  }
  /// The sum over taps 0..n-1 in order, from 0.0: get(k) the (extended) value under tap k.
  template <class Get>
  __device__ __forceinline__ static double sum(const Get& get, int n, const double* w) {
    double acc = 0.0;
    for (int k = 0; k < n; ++k) acc = step(acc, w[k], get(k));
    return acc;
  }
};

/// Stores the sum `v` at `ptr` in dtype Tout (or the run-time dtype `code` for any_out).
template <class Tout>
__device__ __forceinline__ void weighted_store(char* ptr, double v, int code) {
  if constexpr (std::is_same_v<Tout, any_out>) {
    switch (code) {
      case static_cast<int>(dtype::bool_):
      case static_cast<int>(dtype::uint8): *reinterpret_cast<std::uint8_t*>(ptr) = x86_cast<std::uint8_t>(v); return;
      case static_cast<int>(dtype::int8): *reinterpret_cast<std::int8_t*>(ptr) = x86_cast<std::int8_t>(v); return;
      case static_cast<int>(dtype::int16): *reinterpret_cast<std::int16_t*>(ptr) = x86_cast<std::int16_t>(v); return;
      case static_cast<int>(dtype::uint16): *reinterpret_cast<std::uint16_t*>(ptr) = x86_cast<std::uint16_t>(v); return;
      case static_cast<int>(dtype::int32): *reinterpret_cast<std::int32_t*>(ptr) = x86_cast<std::int32_t>(v); return;
      case static_cast<int>(dtype::uint32): *reinterpret_cast<std::uint32_t*>(ptr) = x86_cast<std::uint32_t>(v); return;
      case static_cast<int>(dtype::int64): *reinterpret_cast<std::int64_t*>(ptr) = x86_cast<std::int64_t>(v); return;
      case static_cast<int>(dtype::uint64): *reinterpret_cast<std::uint64_t*>(ptr) = x86_cast<std::uint64_t>(v); return;
      case static_cast<int>(dtype::float32): *reinterpret_cast<float*>(ptr) = static_cast<float>(v); return;
      default: *reinterpret_cast<double*>(ptr) = v; return;
    }
  } else {
    *reinterpret_cast<Tout*>(ptr) = x86_cast<Tout>(v);
  }
}

struct fw_params {
  const char* in;
  char* out;
  int ndim;
  std::int64_t shape[footprint_max_dims];
  std::int64_t in_st[footprint_max_dims];
  std::int64_t out_st[footprint_max_dims];
  int shift[footprint_max_dims];
  int mode[footprint_max_dims];
  int in_code, out_code;
  double cval;
  // blocked kernel
  int ext[3], tile[3], halo[3];
  std::int64_t n_tiles[3];
  int blocked_axis;
  int all_active;
  double box[weighted_param_taps];
  // generic kernel
  int n_taps;
  const std::int32_t* taps;
  const double* weights;
};

/// The staged type of the blocked weighted kernel: float32 input stays float32 in shared memory
/// (converted to double exactly when read; the host picks this variant only where the constant
/// value is a float too), every other input is converted to double once when staged.
template <class Tin>
using weighted_stage_t = std::conditional_t<std::is_same_v<Tin, float>, float, double>;

/// The blocked kernel (see weighted_plan): 256 threads = 32 lanes (x) x 8 groups. Blocked axis y
/// (2-D): tile [1, 8R, 32], group g owns rows g*R .. g*R+R-1; blocked axis z (3-D): tile [R, 8, 32],
/// group g owns row g of planes 0..R-1. The block stages its halo tile (stage_halo: several loads in
/// flight per thread), then each thread runs the taps in SciPy's C order (kz, ky, kx) as the loop nest
/// a (kz when y is blocked), kb (the blocked axis), b (ky when z is blocked), kx, and for each tap
/// updates its R outputs from shared memory: one weight read per tap for R outputs, each output's
/// sum in C order.
template <class Tin, class Tout, bool Fused, int R>
__global__ void __launch_bounds__(footprint_threads, 3)
    weighted_blocked_kernel(const __grid_constant__ fw_params p, std::int64_t n_blocks) {
  using P = weighted_sum_policy<Fused>;
  using S = weighted_stage_t<Tin>;
  extern __shared__ __align__(16) unsigned char smem[];
  S* s = reinterpret_cast<S*>(smem);
  const int HX = p.halo[2], HY = p.halo[1];
  const int KX = p.ext[2], KY = p.ext[1], KZ = p.ext[0];
  const int lane = threadIdx.x & 31, grp = threadIdx.x >> 5;
  const bool zb = p.blocked_axis == 0;
  // Loop extents and strides (smem elements; box elements) of the nest above; sJ is also the step
  // from one of the thread's outputs to the next.
  const int NA = zb ? 1 : KZ, sA = zb ? 0 : HY * HX, tA = zb ? 0 : KY * KX;
  const int KB = zb ? KZ : KY, sJ = zb ? HY * HX : HX, tB = zb ? KY * KX : KX;
  const int NB = zb ? KY : 1, sB = zb ? HX : 0, tBB = zb ? KX : 0;
  const int oy0 = zb ? grp : grp * R;  // the thread's first output row in the tile (plane 0)
  const S cval = static_cast<S>(p.cval);
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t rr = b / p.n_tiles[2];
    const std::int64_t by = rr % p.n_tiles[1];
    const std::int64_t bz = rr / p.n_tiles[1];
    const std::int64_t x0 = bx * p.tile[2], y0 = by * p.tile[1], z0 = bz * p.tile[0];
    __syncthreads();  // the previous tile's reads of s are done
    stage_halo<S>(s, p.halo, z0, y0, x0, p.shape, p.shift, p.mode, p.in, p.in_st, cval,
                  [code = p.in_code](const char* ptr) { return load_value<Tin, S>(ptr, code); });
    __syncthreads();
    const S* c = s + oy0 * HX + lane;
    double acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = 0.0;
    for (int a = 0; a < NA; ++a) {
      for (int kb = 0; kb < KB; ++kb) {
        for (int bb = 0; bb < NB; ++bb) {
          const S* cr = c + a * sA + kb * sJ + bb * sB;
          const double* wr = p.box + (a * tA + kb * tB + bb * tBB);
          for (int kx = 0; kx < KX; ++kx) {
            const double w = wr[kx];
            if (p.all_active || __double_as_longlong(w) != 0) {
#pragma unroll
              for (int r = 0; r < R; ++r) acc[r] = P::step(acc[r], w, static_cast<double>(cr[r * sJ + kx]));
            }
          }
        }
      }
    }
    const std::int64_t x = x0 + lane;
    if (x < p.shape[2]) {
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const std::int64_t z = z0 + (zb ? r : 0);
        const std::int64_t y = y0 + oy0 + (zb ? 0 : r);
        if (z < p.shape[0] && y < p.shape[1])
          weighted_store<Tout>(p.out + z * p.out_st[0] + y * p.out_st[1] + x * p.out_st[2], acc[r], p.out_code);
      }
    }
  }
}

/// The exact double of an input value. Integers of up to 32 bits go through the bits of 2^52 + u
/// (one exact double subtraction on the FP64 pipe instead of a quarter-rate conversion instruction);
/// every result equals static_cast<double> (+0.0 for 0).
template <class T>
__device__ __forceinline__ double strip_to_double(T v) {
  if constexpr (std::is_integral_v<T> && sizeof(T) <= 4) {
    if constexpr (std::is_unsigned_v<T>) {
      return __dsub_rn(__hiloint2double(0x43300000, static_cast<int>(static_cast<std::uint32_t>(v))),
                       4503599627370496.0);  // 2^52
    } else {
      const std::uint32_t u = static_cast<std::uint32_t>(static_cast<std::int32_t>(v)) ^ 0x80000000u;
      return __dsub_rn(__hiloint2double(0x43300000, static_cast<int>(u)), 4503601774854144.0);  // 2^52 + 2^31
    }
  } else {
    return static_cast<double>(v);
  }
}

/// fp_index for the strip kernel, its boundary map out of line: the map (a switch with 64-bit
/// remainders) runs for the few rows at the array's edges only, and the unrolled strip stays small.
__device__ __noinline__ inline std::int64_t strip_map(std::int64_t i, std::int64_t L, int mode) {
  return map_index(i, L, mode);
}
__device__ __forceinline__ std::int64_t strip_index(std::int64_t i, std::int64_t L, int mode) {
  return static_cast<std::uint64_t>(i) < static_cast<std::uint64_t>(L) ? i : strip_map(i, L, mode);
}

/// Stores the first n of a strip's R sums at o + (s0 + r) * st (r = 0 .. n-1) in dtype Tout, or for
/// any_out in the run-time dtype `code` (one switch for the strip, each case a typed loop).
template <class Tout, int R>
__device__ __forceinline__ void strip_store(char* o, std::int64_t st, std::int64_t s0, int n, const double (&acc)[R],
                                            int code) {
  if constexpr (std::is_same_v<Tout, any_out>) {
    switch (code) {
      case static_cast<int>(dtype::bool_):
      case static_cast<int>(dtype::uint8): return strip_store<std::uint8_t, R>(o, st, s0, n, acc, code);
      case static_cast<int>(dtype::int8): return strip_store<std::int8_t, R>(o, st, s0, n, acc, code);
      case static_cast<int>(dtype::int16): return strip_store<std::int16_t, R>(o, st, s0, n, acc, code);
      case static_cast<int>(dtype::uint16): return strip_store<std::uint16_t, R>(o, st, s0, n, acc, code);
      case static_cast<int>(dtype::int32): return strip_store<std::int32_t, R>(o, st, s0, n, acc, code);
      case static_cast<int>(dtype::uint32): return strip_store<std::uint32_t, R>(o, st, s0, n, acc, code);
      case static_cast<int>(dtype::int64): return strip_store<std::int64_t, R>(o, st, s0, n, acc, code);
      case static_cast<int>(dtype::uint64): return strip_store<std::uint64_t, R>(o, st, s0, n, acc, code);
      case static_cast<int>(dtype::float32): return strip_store<float, R>(o, st, s0, n, acc, code);
      default: return strip_store<double, R>(o, st, s0, n, acc, code);
    }
  } else {
#pragma unroll
    for (int r = 0; r < R; ++r)
      if (r < n) *reinterpret_cast<Tout*>(o + (s0 + r) * st) = x86_cast<Tout>(acc[r]);
  }
}

/// The strip kernel's work for input type T (see weighted_plan): 256 threads = 32 lanes (x) x 8
/// groups. Z = false (2-D, box KB x CX): tile [1, 8R, 32], group g owns rows g*R .. g*R+R-1 at one x;
/// Z = true (3-D, box KB x CY x CX): tile [R, 8, 32], group g owns row g of planes 0..R-1. Along the
/// strip the thread reads input row (plane) j = 0 .. R+KB-2 (the strip start + j - shift), its CY x CX
/// values once each (converted to double once), and adds them into each output r = j - kb
/// (0 <= r < R) with the weights of box row kb: output r meets its rows in increasing kb and each
/// row's taps in C order, so every output's sum runs in SciPy's order.
template <class T, class Tout, bool Fused, bool Z, int KB, int CY, int CX, int R>
__device__ __forceinline__ void weighted_strip(const fw_params& p, std::int64_t n_blocks) {
  using P = weighted_sum_policy<Fused>;
  constexpr int NC = CY * CX;
  const int lane = threadIdx.x & 31, grp = threadIdx.x >> 5;
  const int ab = Z ? 0 : 1;  // the strip's axis of [z, y, x]
  const std::int64_t L = p.shape[ab];
  const std::int64_t st_b = p.in_st[ab], ost_b = p.out_st[ab];
  const int sh_b = p.shift[ab], mode_b = p.mode[ab];
  const double cval = p.cval;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t rr = b / p.n_tiles[2];
    const std::int64_t by = rr % p.n_tiles[1];
    const std::int64_t bz = rr / p.n_tiles[1];
    const std::int64_t x = bx * 32 + lane;
    const std::int64_t y = Z ? by * 8 + grp : 0;
    const std::int64_t s0 = Z ? bz * R : by * (8 * R) + grp * R;  // the strip's first output
    if (x >= p.shape[2] || (Z && y >= p.shape[1]) || s0 >= L) continue;
    // The cross-section's offsets (bytes, without the strip axis) and which of them are inside.
    std::int64_t off[NC];
    unsigned ok = 0;
#pragma unroll
    for (int ky = 0; ky < CY; ++ky) {
      std::int64_t gy = 0;
      if constexpr (Z) gy = strip_index(y + ky - p.shift[1], p.shape[1], p.mode[1]);
#pragma unroll
      for (int kx = 0; kx < CX; ++kx) {
        const std::int64_t gx = strip_index(x + kx - p.shift[2], p.shape[2], p.mode[2]);
        off[ky * CX + kx] = gy * p.in_st[1] + gx * p.in_st[2];
        if (gy >= 0 && gx >= 0) ok |= 1u << (ky * CX + kx);
      }
    }
    // The rows (planes) of the strip: lo + j for j = 0 .. R+KB-2. Strips wholly inside the array take
    // a copy of the loop without boundary maps (no branch between the rows, so the loads of later
    // rows can be issued before earlier rows' sums); the others map each row.
    const std::int64_t lo = s0 - sh_b;
    char* o = p.out + x * p.out_st[2] + (Z ? y * p.out_st[1] : 0);
    auto run = [&](auto interior) {
      double acc[R];
#pragma unroll
      for (int r = 0; r < R; ++r) acc[r] = 0.0;
#pragma unroll
      for (int j = 0; j < R + KB - 1; ++j) {
        std::int64_t gi = lo + j;
        if constexpr (!decltype(interior)::value) gi = strip_index(gi, L, mode_b);
        const char* row = p.in + gi * st_b;
        double v[NC];
#pragma unroll
        for (int c = 0; c < NC; ++c) {
          v[c] = cval;
          if ((decltype(interior)::value || gi >= 0) && ((ok >> c) & 1u))
            v[c] = strip_to_double(__ldg(reinterpret_cast<const T*>(row + off[c])));
        }
#pragma unroll
        for (int kb = 0; kb < KB; ++kb) {
          const int r = j - kb;
          if (r >= 0 && r < R) {
#pragma unroll
            for (int c = 0; c < NC; ++c) acc[r] = P::step(acc[r], p.box[kb * NC + c], v[c]);
          }
        }
      }
      // An interior strip lies wholly inside (shift <= KB - 1): all R outputs exist.
      const int n_out = decltype(interior)::value ? R : static_cast<int>(L - s0 < R ? L - s0 : R);
      strip_store<Tout, R>(o, ost_b, s0, n_out, acc, p.out_code);
    };
    if (lo >= 0 && lo + (R + KB - 1) <= L) run(std::true_type{});
    else run(std::false_type{});
  }
}

/// The strip kernel (see weighted_plan, weighted_strip): Tin a device type, or any_in (one switch on
/// the input dtype for the whole kernel, each case a typed copy of the body; bool, int8 to int32,
/// int64, float32 and float64 inputs).
template <class Tin, class Tout, bool Fused, bool Z, int KB, int CY, int CX, int R>
__global__ void __launch_bounds__(footprint_threads)
    weighted_strip_kernel(const __grid_constant__ fw_params p, std::int64_t n_blocks) {
  if constexpr (std::is_same_v<Tin, any_in>) {
    switch (p.in_code) {
      case static_cast<int>(dtype::bool_):
      case static_cast<int>(dtype::uint8):
        return weighted_strip<std::uint8_t, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
      case static_cast<int>(dtype::int8): return weighted_strip<std::int8_t, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
      case static_cast<int>(dtype::int16):
        return weighted_strip<std::int16_t, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
      case static_cast<int>(dtype::uint16):
        return weighted_strip<std::uint16_t, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
      case static_cast<int>(dtype::int32):
        return weighted_strip<std::int32_t, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
      case static_cast<int>(dtype::int64):
        return weighted_strip<long long, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
      // uint32 and uint64 inputs take the blocked kernel (make_weighted_plan).
      case static_cast<int>(dtype::float32): return weighted_strip<float, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
      default: return weighted_strip<double, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
    }
  } else {
    weighted_strip<Tin, Tout, Fused, Z, KB, CY, CX, R>(p, n_blocks);
  }
}

/// The generic kernel: one thread per output of any ndim, its taps (p.taps, p.weights) in order.
template <class Tin, class Tout, bool Fused>
__global__ void __launch_bounds__(footprint_threads)
    weighted_generic_kernel(const __grid_constant__ fw_params p, std::int64_t n_total) {
  using P = weighted_sum_policy<Fused>;
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n_total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t coord[footprint_max_dims];
    std::int64_t rem = t, out_off = 0;
    for (int d = p.ndim - 1; d >= 0; --d) {
      coord[d] = rem % p.shape[d];
      rem /= p.shape[d];
      out_off += coord[d] * p.out_st[d];
    }
    auto get = [&](int k) -> double {
      const std::int32_t* tap = p.taps + static_cast<std::int64_t>(k) * p.ndim;
      std::int64_t off = 0;
      for (int d = 0; d < p.ndim; ++d) {
        const std::int64_t i = fp_index(coord[d] + tap[d] - p.shift[d], p.shape[d], p.mode[d]);
        if (i < 0) return p.cval;
        off += i * p.in_st[d];
      }
      return load_value<Tin, double>(p.in + off, p.in_code);
    };
    weighted_store<Tout>(p.out + out_off, P::sum(get, p.n_taps, p.weights), p.out_code);
  }
}

/// The weighted pass of `plan` from `in` to `out` with kernels <Tin, Tout, Fused> (device types or
/// the any_in / any_out tags). Enqueues on the current stream.
template <class Tin, class Tout, bool Fused>
void weighted_launch(const ndarray& in, const ndarray& out, const weighted_plan& plan, double cval) {
  if (out.size() == 0 || plan.n_taps == 0) return;
  cudaStream_t stream = get_current_stream();
  fw_params p{};
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  p.ndim = plan.ndim;
  for (int d = 0; d < footprint_max_dims; ++d) {
    p.shape[d] = plan.shape[d];
    p.in_st[d] = plan.in_strides[d];
    p.out_st[d] = plan.out_strides[d];
    p.shift[d] = plan.shift[d];
    p.mode[d] = plan.mode[d];
  }
  p.in_code = static_cast<int>(in.dtype());
  p.out_code = static_cast<int>(out.dtype());
  p.cval = cval;
  p.n_taps = plan.n_taps;
  if (plan.blocked) {
    constexpr int R = weighted_rows_per_thread;
    for (int a = 0; a < 3; ++a) {
      p.ext[a] = plan.ext[a];
      p.tile[a] = plan.tile[a];
      p.halo[a] = plan.halo[a];
      p.n_tiles[a] = plan.n_tiles[a];
    }
    p.blocked_axis = plan.blocked_axis;
    p.all_active = plan.all_active ? 1 : 0;
    for (std::size_t k = 0; k < plan.box.size(); ++k) p.box[k] = plan.box[k];
    const std::int64_t n_blocks = plan.n_tiles[0] * plan.n_tiles[1] * plan.n_tiles[2];
    if (plan.strip) {
      constexpr int R2 = weighted_strip_rows_2d, R3 = weighted_strip_rows_3d;
      const unsigned grid = blocks_for(n_blocks);
      if (plan.blocked_axis == 0)
        weighted_strip_kernel<Tin, Tout, Fused, true, 3, 3, 3, R3><<<grid, footprint_threads, 0, stream>>>(p, n_blocks);
      else if (plan.ext[2] == 3)
        weighted_strip_kernel<Tin, Tout, Fused, false, 3, 1, 3, R2><<<grid, footprint_threads, 0, stream>>>(p, n_blocks);
      else if constexpr (!std::is_same_v<Tin, any_in>)  // 5 x 5: typed variants only (make_weighted_plan)
        weighted_strip_kernel<Tin, Tout, Fused, false, 5, 1, 5, R2><<<grid, footprint_threads, 0, stream>>>(p, n_blocks);
      else
        throw runtime_error("cusci::ndimage: internal error: a 5 x 5 strip plan on the run-time-dtype kernel");
      CUSCI_CHECK_LAUNCH();
      return;
    }
    const std::size_t smem = static_cast<std::size_t>(plan.halo[0]) * static_cast<std::size_t>(plan.halo[1]) *
                             static_cast<std::size_t>(plan.halo[2]) * sizeof(weighted_stage_t<Tin>);
    weighted_blocked_kernel<Tin, Tout, Fused, R><<<blocks_for(n_blocks), footprint_threads, smem, stream>>>(p, n_blocks);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  if constexpr (!std::is_same_v<Tin, any_in>) {
    // Typed variants are chosen for blocked plans only (one generic kernel serves every dtype).
    throw runtime_error("cusci::ndimage: internal error: a typed weighted kernel was chosen for a generic plan");
  } else {
    device_buffer<std::int32_t> taps(plan.taps.size(), stream);
    device_buffer<double> weights(plan.weights.size(), stream);
    // From pageable memory: returns once the host data is staged, so the plan may go away afterwards.
    CUSCI_CUDA_TRY(cudaMemcpyAsync(taps.data(), plan.taps.data(), plan.taps.size() * sizeof(std::int32_t),
                                   cudaMemcpyHostToDevice, stream));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(weights.data(), plan.weights.data(), plan.weights.size() * sizeof(double),
                                   cudaMemcpyHostToDevice, stream));
    p.taps = taps.data();
    p.weights = weights.data();
    const std::int64_t n = out.size();
    weighted_generic_kernel<Tin, Tout, Fused>
        <<<blocks_for((n + footprint_threads - 1) / footprint_threads), footprint_threads, 0, stream>>>(p, n);
    CUSCI_CHECK_LAUNCH();
  }
}

}  // namespace cusci::ndimage::detail
