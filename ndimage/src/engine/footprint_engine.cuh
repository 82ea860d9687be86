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
// input and output dtypes differ and its constant value is a double: weighted_blocked_kernel (tiles in
// double, R outputs per thread from registers) and weighted_generic_kernel (any ndim).

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

/// Position i of an axis of length L after the boundary map; -1 for the constant value.
__device__ __forceinline__ std::int64_t fp_index(std::int64_t i, std::int64_t L, int mode) {
  return static_cast<std::uint64_t>(i) < static_cast<std::uint64_t>(L) ? i : map_index(i, L, mode);
}

template <class P, class T>
__global__ void __launch_bounds__(footprint_threads)
    footprint_tiled_kernel(const fp_params p, T cval, std::int64_t n_blocks) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* s = reinterpret_cast<T*>(smem);
  const int HX = p.halo[2], HY = p.halo[1], HZ = p.halo[0];
  const int TX = p.tile[2], TY = p.tile[1], TZ = p.tile[0];
  const int n_halo = HX * HY * HZ, n_out = TX * TY * TZ;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t r = b / p.n_tiles[2];
    const std::int64_t by = r % p.n_tiles[1];
    const std::int64_t bz = r / p.n_tiles[1];
    const std::int64_t x0 = bx * TX, y0 = by * TY, z0 = bz * TZ;
    __syncthreads();  // the previous tile's reads of s are done
    for (int q = threadIdx.x; q < n_halo; q += blockDim.x) {
      const int hx = q % HX;
      const int t = q / HX;
      const int hy = t % HY;
      const int hz = t / HY;
      const std::int64_t gz = fp_index(z0 + hz - p.shift[0], p.shape[0], p.mode[0]);
      const std::int64_t gy = fp_index(y0 + hy - p.shift[1], p.shape[1], p.mode[1]);
      const std::int64_t gx = fp_index(x0 + hx - p.shift[2], p.shape[2], p.mode[2]);
      s[q] = (gz < 0 || gy < 0 || gx < 0)
                 ? cval
                 : *reinterpret_cast<const T*>(p.in + gz * p.in_st[0] + gy * p.in_st[1] + gx * p.in_st[2]);
    }
    __syncthreads();
    for (int q = threadIdx.x; q < n_out; q += blockDim.x) {
      const int ox = q % TX;
      const int t = q / TX;
      const int oy = t % TY;
      const int oz = t / TY;
      const std::int64_t x = x0 + ox, y = y0 + oy, z = z0 + oz;
      if (x >= p.shape[2] || y >= p.shape[1] || z >= p.shape[0]) continue;
      const T* c = s + (oz * HY + oy) * HX + ox;
      const std::int32_t* taps = p.taps;
      const T v = P::template reduce<T>([&](int k) { return c[__ldg(taps + k)]; }, p.n_taps, p.weights);
      *reinterpret_cast<T*>(p.out + z * p.out_st[0] + y * p.out_st[1] + x * p.out_st[2]) = v;
    }
  }
}

template <class P, class T>
__global__ void __launch_bounds__(footprint_threads)
    footprint_generic_kernel(const fp_params p, T cval, std::int64_t n_total) {
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
      const std::int32_t* tap = p.taps + static_cast<std::int64_t>(k) * p.ndim;
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
  device_buffer<std::int32_t> taps(plan.taps.size(), stream);
  // From pageable memory: returns once the host data is staged, so the plan may go away afterwards.
  CUSCI_CUDA_TRY(cudaMemcpyAsync(taps.data(), plan.taps.data(), plan.taps.size() * sizeof(std::int32_t),
                                 cudaMemcpyHostToDevice, stream));
  device_buffer<double> weights;
  if (!plan.weights.empty()) {
    weights = device_buffer<double>(plan.weights.size(), stream);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(weights.data(), plan.weights.data(), plan.weights.size() * sizeof(double),
                                   cudaMemcpyHostToDevice, stream));
  }
  fp_params p{};
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
  p.taps = taps.data();
  p.weights = plan.weights.empty() ? nullptr : weights.data();
  for (int a = 0; a < 3; ++a) {
    p.tile[a] = plan.tile[a];
    p.halo[a] = plan.halo[a];
    p.n_tiles[a] = plan.n_tiles[a];
  }
  if (plan.tiled) {
    const std::int64_t n_blocks = plan.n_tiles[0] * plan.n_tiles[1] * plan.n_tiles[2];
    footprint_tiled_kernel<P, T><<<blocks_for(n_blocks), footprint_threads, plan.smem_bytes, stream>>>(p, cval, n_blocks);
  } else {
    const std::int64_t n = out.size();
    footprint_generic_kernel<P, T><<<blocks_for((n + footprint_threads - 1) / footprint_threads), footprint_threads, 0,
                                     stream>>>(p, cval, n);
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

/// C's conversion of a double to an integer type as compiled for x86-64: cvttsd2si into 32 bits for
/// types up to 32 bits signed (INT_MIN when out of range or NaN), into 64 bits for uint32 and int64
/// (INT64_MIN likewise), and the two-range sequence for uint64; then the low bits.
template <class T>
__device__ __forceinline__ T x86_cast(double d) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(d);
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    constexpr double two63 = 9223372036854775808.0;
    auto cvt64 = [](double v) -> long long {
      return (v >= -two63 && v < two63) ? static_cast<long long>(v) : static_cast<long long>(1ull << 63);
    };
    return d >= two63 ? static_cast<std::uint64_t>(cvt64(d - two63)) ^ (1ull << 63)
                      : static_cast<std::uint64_t>(cvt64(d));
  } else if constexpr (sizeof(T) == 8 || std::is_same_v<T, std::uint32_t>) {
    constexpr double two63 = 9223372036854775808.0;
    const long long i = (d >= -two63 && d < two63) ? static_cast<long long>(d) : static_cast<long long>(1ull << 63);
    return static_cast<T>(i);
  } else {
    const int i = (d >= -2147483648.0 && d < 2147483648.0) ? static_cast<int>(d) : static_cast<int>(0x80000000u);
    return static_cast<T>(i);
  }
}

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

/// The blocked kernel (see weighted_plan): 256 threads = 32 lanes (x) x 8 groups. Blocked axis y
/// (2-D): tile [1, 8R, 32], group g owns rows g*R .. g*R+R-1; blocked axis z (3-D): tile [R, 8, 32],
/// group g owns row g of planes 0..R-1. Loop nest per thread, with kb the blocked axis's footprint
/// index of output r: for a (kz when y is blocked), for j (halo rows of the blocked axis), for b (ky
/// when z is blocked), for kx: v = tile value; output r adds w[tap(kb = j - r)] * v. Output r thus
/// visits its taps in C order (kz, ky, kx), as SciPy.
template <class Tin, class Tout, bool Fused, int R>
__global__ void __launch_bounds__(footprint_threads)
    weighted_blocked_kernel(const __grid_constant__ fw_params p, std::int64_t n_blocks) {
  using P = weighted_sum_policy<Fused>;
  extern __shared__ __align__(16) unsigned char smem[];
  double* s = reinterpret_cast<double*>(smem);
  const int HX = p.halo[2], HY = p.halo[1], HZ = p.halo[0];
  const int KX = p.ext[2], KY = p.ext[1], KZ = p.ext[0];
  const int lane = threadIdx.x & 31, grp = threadIdx.x >> 5;
  const bool zb = p.blocked_axis == 0;
  // Loop extents and strides (smem elements; box elements) of the nest above.
  const int NA = zb ? 1 : KZ, sA = zb ? 0 : HY * HX, tA = zb ? 0 : KY * KX;
  const int KB = zb ? KZ : KY, sJ = zb ? HY * HX : HX, tB = zb ? KY * KX : KX;
  const int NB = zb ? KY : 1, sB = zb ? HX : 0, tBB = zb ? KX : 0;
  const int oy0 = zb ? grp : grp * R;  // the thread's first output row in the tile (plane 0)
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t rr = b / p.n_tiles[2];
    const std::int64_t by = rr % p.n_tiles[1];
    const std::int64_t bz = rr / p.n_tiles[1];
    const std::int64_t x0 = bx * p.tile[2], y0 = by * p.tile[1], z0 = bz * p.tile[0];
    __syncthreads();  // the previous tile's reads of s are done
    // Stage the halo tile: one row (hz, hy) per warp at a time, lanes along x (coalesced).
    for (int row = grp; row < HZ * HY; row += footprint_threads / 32) {
      const int hz = row / HY, hy = row - hz * HY;
      const std::int64_t gz = fp_index(z0 + hz - p.shift[0], p.shape[0], p.mode[0]);
      const std::int64_t gy = fp_index(y0 + hy - p.shift[1], p.shape[1], p.mode[1]);
      double* srow = s + row * HX;
      if (gz < 0 || gy < 0) {
        for (int hx = lane; hx < HX; hx += 32) srow[hx] = p.cval;
        continue;
      }
      const char* base = p.in + gz * p.in_st[0] + gy * p.in_st[1];
      for (int hx = lane; hx < HX; hx += 32) {
        const std::int64_t gx = fp_index(x0 + hx - p.shift[2], p.shape[2], p.mode[2]);
        srow[hx] = gx < 0 ? p.cval : load_value<Tin, double>(base + gx * p.in_st[2], p.in_code);
      }
    }
    __syncthreads();
    const double* c = s + oy0 * HX + lane;
    double acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = 0.0;
    for (int a = 0; a < NA; ++a) {
      for (int j = 0; j < R + KB - 1; ++j) {
        for (int bb = 0; bb < NB; ++bb) {
          const double* cr = c + a * sA + j * sJ + bb * sB;
          const int t0 = a * tA + bb * tBB;
          for (int kx = 0; kx < KX; ++kx) {
            const double v = cr[kx];
#pragma unroll
            for (int r = 0; r < R; ++r) {
              const int kb = j - r;
              if (kb >= 0 && kb < KB) {
                const double w = p.box[t0 + kb * tB + kx];
                if (p.all_active || __double_as_longlong(w) != 0) acc[r] = P::step(acc[r], w, v);
              }
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
    weighted_blocked_kernel<Tin, Tout, Fused, R>
        <<<blocks_for(n_blocks), footprint_threads, plan.smem_bytes, stream>>>(p, n_blocks);
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
