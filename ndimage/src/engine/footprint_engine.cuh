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

}  // namespace cusci::ndimage::detail
