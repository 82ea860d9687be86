#pragma once
// Benchmark inputs: deterministic pseudo-random float32 values made on the device (never zeros, so no
// data-dependent fast path is timed), or on the host (lcg_f32), shared by the benchmark programs.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

#include "cusci/core.hpp"

namespace cusci::bench {

/// A 32-bit hash of (i, seed): the lowbias32 finaliser.
__device__ __forceinline__ std::uint32_t hash32(std::int64_t i, std::uint32_t seed) {
  std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u ^ seed ^ static_cast<std::uint32_t>(i >> 32);
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

/// x[i] = lo + u with u in [0, 1) from hash32(i, seed); NaN at every `nan_every`-th element when > 0.
static __global__ void fill_uniform_f32(float* x, std::int64_t n, std::uint32_t seed, float lo, std::int64_t nan_every) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    float v = lo + static_cast<float>(hash32(i, seed) >> 8) * (1.0f / 16777216.0f);
    if (nan_every > 0 && i % nan_every == nan_every - 1) v = __int_as_float(0x7fc00000);
    x[i] = v;
  }
}

/// A float32 array of `shape` with values in [lo, lo + 1) (and NaNs every `nan_every` elements when > 0),
/// made on the current stream.
inline ndarray random_f32(const shape_t& shape, std::uint32_t seed, float lo = 0.5f, std::int64_t nan_every = 0) {
  ndarray a = empty(shape, dtype::float32);
  fill_uniform_f32<<<1024, 256, 0, get_current_stream()>>>(a.data_as<float>(), a.size(), seed, lo, nan_every);
  CUSCI_CHECK_LAUNCH();
  return a;
}

/// A float32 array of `shape` with deterministic pseudo-random values in [0, 1): the top 24 bits of
/// the states of a 32-bit linear congruential generator (multiplier 1664525, increment 1013904223,
/// seed 12345) over 2^24, made on the host and copied to the device.
inline ndarray lcg_f32(const shape_t& shape) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<float> h(static_cast<std::size_t>(n));
  std::uint32_t x = 12345u;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<float>(x >> 8) / 16777216.0f;
  }
  return asarray(h, shape);
}

}  // namespace cusci::bench
