/// @file random.cu
/// cusci::random: Philox4x32-10 counter-based sampling kernels (uniform, integers, normal,
/// exponential, Poisson, keys for permutations and weighted sampling) and the generator's host logic.
/// Every kernel is a grid-stride loop over Philox blocks j of one call; block j's words come from
/// counter (position + j, round, 0) and key (seed), so values never depend on the launch shape.

#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>
#include <math_constants.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/random.hpp"
#include "cusci/stream.hpp"
#include "cusci/detail/copy.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"

namespace cusci::random {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

// ------------------------------------------------------------------------------------------------
// Philox4x32-10 (Salmon et al. 2011): ten rounds of two 32x32->64 multiplications with key bumps.

constexpr u32 philox_m0 = 0xD2511F53u, philox_m1 = 0xCD9E8D57u;
constexpr u32 philox_w0 = 0x9E3779B9u, philox_w1 = 0xBB67AE85u;

struct words {
  u32 x[4];
};

__host__ __device__ __forceinline__ u32 mulhi32(u32 a, u32 b) {
#ifdef __CUDA_ARCH__
  return __umulhi(a, b);
#else
  return static_cast<u32>((static_cast<u64>(a) * b) >> 32);
#endif
}

__host__ __device__ __forceinline__ words philox(u32 c0, u32 c1, u32 c2, u32 c3, u32 k0, u32 k1) {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int r = 0; r < 10; ++r) {
    const u32 hi0 = mulhi32(philox_m0, c0), lo0 = philox_m0 * c0;
    const u32 hi1 = mulhi32(philox_m1, c2), lo1 = philox_m1 * c2;
    const u32 n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 += philox_w0;
    k1 += philox_w1;
  }
  return {{c0, c1, c2, c3}};
}

/// The stream of one call: key and first counter.
struct rng_ctx {
  u32 k0, k1;
  u64 base;
  __device__ __forceinline__ words block(u64 j, u32 round = 0, u32 slot = 0) const {
    const u64 c = base + j;
    return philox(static_cast<u32>(c), static_cast<u32>(c >> 32), round, slot, k0, k1);
  }
};

__device__ __forceinline__ float u01_f32(u32 r) { return static_cast<float>(r >> 8) * 0x1.0p-24f; }
__device__ __forceinline__ double u01_f64(u32 hi, u32 lo) {
  return static_cast<double>(((static_cast<u64>(hi) << 32) | lo) >> 11) * 0x1.0p-53;
}

// ------------------------------------------------------------------------------------------------
// Launch configuration (grid-stride loops; the test hook can force any shape).

std::atomic<int> g_block{0}, g_grid{0};

struct launch {
  unsigned grid, block;
};
launch launch_for(u64 items) {
  const int b = g_block.load() > 0 ? g_block.load() : 256;
  const int g = g_grid.load();
  if (g > 0) return {static_cast<unsigned>(g), static_cast<unsigned>(b)};
  return {cusci::detail::grid_for(static_cast<i64>(items), b, 132 * 16), static_cast<unsigned>(b)};
}

#define CUSCI_GRID_STRIDE(j, count)                                                   \
  for (u64 j = static_cast<u64>(blockIdx.x) * blockDim.x + threadIdx.x; j < (count); \
       j += static_cast<u64>(gridDim.x) * blockDim.x)

// ------------------------------------------------------------------------------------------------
// Kernels

/// Stores the four float32 values of Philox block j (elements 4j .. 4j + 3 that are below n): one
/// 16-byte store for a full block (out is pool-aligned), item by item for the last partial one.
__device__ __forceinline__ void store_block(float* out, u64 n, u64 j, const float (&v)[4]) {
  const u64 i = 4 * j;
  if (i + 4 <= n) {
    reinterpret_cast<float4*>(out)[j] = make_float4(v[0], v[1], v[2], v[3]);
  } else {
    for (int q = 0; q < 4 && i + q < n; ++q) out[i + q] = v[q];
  }
}

/// Stores the two float64 values of Philox block j (elements 2j, 2j + 1 below n): one 16-byte store
/// for a full block.
__device__ __forceinline__ void store_block(double* out, u64 n, u64 j, double a, double b) {
  const u64 i = 2 * j;
  if (i + 2 <= n) reinterpret_cast<double2*>(out)[j] = make_double2(a, b);
  else out[i] = a;
}

/// Uniform [0, 1) float32, 4 per block (16-byte stores for full blocks; out is pool-aligned).
__global__ void k_random_f32(float* out, u64 n, rng_ctx ctx, float scale, float shift) {
  const u64 nb = (n + 3) / 4;
  CUSCI_GRID_STRIDE(j, nb) {
    const words w = ctx.block(j);
    float v[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) v[q] = shift + scale * u01_f32(w.x[q]);
    store_block(out, n, j, v);
  }
}

/// Uniform [0, 1) float64 (times `scale` plus `shift`), 2 per block.
__global__ void k_random_f64(double* out, u64 n, rng_ctx ctx, double scale, double shift) {
  const u64 nb = (n + 1) / 2;
  CUSCI_GRID_STRIDE(j, nb) {
    const words w = ctx.block(j);
    const double a = shift + scale * u01_f64(w.x[0], w.x[1]);
    const double b = shift + scale * u01_f64(w.x[2], w.x[3]);
    store_block(out, n, j, a, b);
  }
}

/// Hardware square root (MUFU; error of the order of one ulp, sqrt(0) = 0): the correctly rounded
/// sqrtf adds a refinement and a slow-path branch to a kernel that is compute-bound.
__device__ __forceinline__ float sqrt_approx(float x) {
  float r;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

/// Normal float32 by Box-Muller: (r0, r1) and (r2, r3) give two values each. Radius from
/// u1 = ((r >> 8) + 1) 2^-24 in (0, 1] (accurate logf, hardware square root); angle pi t with
/// t = 2^-22 (r >> 9) - 1, uniform on [-1, 1) and built from the bits (no integer conversion), whose
/// sine and cosine come from the hardware approximations (MUFU.SIN/COS, absolute error below 2^-21
/// on [-pi, pi]) instead of the polynomial sincospif that made this kernel compute-bound: each value
/// is within about 4e-6 (radius at most 5.8 times the sine error) of the exact Box-Muller transform
/// of its bits.
__global__ void k_normal_f32(float* out, u64 n, rng_ctx ctx) {
  const u64 nb = (n + 3) / 4;
  CUSCI_GRID_STRIDE(j, nb) {
    const words w = ctx.block(j);
    float v[4];
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      const float u1 = static_cast<float>((w.x[2 * q] >> 8) + 1) * 0x1.0p-24f;
      const float t = __uint_as_float(0x40000000u | (w.x[2 * q + 1] >> 9)) - 3.0f;  // [2, 4) - 3, exact
      const float rad = sqrt_approx(-2.0f * logf(u1));
      float s, c;
      __sincosf(CUDART_PI_F * t, &s, &c);
      v[2 * q] = rad * c;
      v[2 * q + 1] = rad * s;
    }
    store_block(out, n, j, v);
  }
}

/// Normal float64 loc + scale * Z by Box-Muller, 2 per block. u1 in (0, 1].
__global__ void k_normal_f64(double* out, u64 n, rng_ctx ctx, double loc, double scale) {
  const u64 nb = (n + 1) / 2;
  CUSCI_GRID_STRIDE(j, nb) {
    const words w = ctx.block(j);
    const double u1 = 1.0 - u01_f64(w.x[0], w.x[1]);
    const double u2 = u01_f64(w.x[2], w.x[3]);
    const double rad = sqrt(-2.0 * log(u1));
    double s, c;
    sincospi(2.0 * u2, &s, &c);
    const double a = loc + scale * (rad * c), b = loc + scale * (rad * s);
    store_block(out, n, j, a, b);
  }
}

/// Exponential float64 -scale * log1p(-U), 2 per block.
__global__ void k_exponential(double* out, u64 n, rng_ctx ctx, double scale) {
  const u64 nb = (n + 1) / 2;
  CUSCI_GRID_STRIDE(j, nb) {
    const words w = ctx.block(j);
    const double a = -scale * log1p(-u01_f64(w.x[0], w.x[1]));
    const double b = -scale * log1p(-u01_f64(w.x[2], w.x[3]));
    store_block(out, n, j, a, b);
  }
}

/// Storage type of an integers output element (bool written as 0/1 bytes).
template <class T>
using int_store_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

/// Stores E elements of S at out + E * j with one vector store (E * sizeof(S) bytes; the output is
/// pool-aligned, so element E * j sits at a multiple of that size) or two 16-byte ones (32 bytes).
template <class S, int E>
__device__ __forceinline__ void store_vec(S* out, u64 j, const S (&v)[E]) {
  constexpr int B = static_cast<int>(sizeof(S)) * E;
  S* p = out + static_cast<u64>(E) * j;
  if constexpr (B == 32) {
    union { S s[E]; uint4 w[2]; } u;
#pragma unroll
    for (int q = 0; q < E; ++q) u.s[q] = v[q];
    reinterpret_cast<uint4*>(p)[0] = u.w[0];
    reinterpret_cast<uint4*>(p)[1] = u.w[1];
  } else if constexpr (B == 16) {
    union { S s[E]; uint4 w; } u;
#pragma unroll
    for (int q = 0; q < E; ++q) u.s[q] = v[q];
    *reinterpret_cast<uint4*>(p) = u.w;
  } else if constexpr (B == 8) {
    union { S s[E]; uint2 w; } u;
#pragma unroll
    for (int q = 0; q < E; ++q) u.s[q] = v[q];
    *reinterpret_cast<uint2*>(p) = u.w;
  } else if constexpr (B == 4) {
    union { S s[E]; u32 w; } u;
#pragma unroll
    for (int q = 0; q < E; ++q) u.s[q] = v[q];
    *reinterpret_cast<u32*>(p) = u.w;
  } else {
    union { S s[E]; std::uint16_t w; } u;
#pragma unroll
    for (int q = 0; q < E; ++q) u.s[q] = v[q];
    *reinterpret_cast<std::uint16_t*>(p) = u.w;
  }
}

/// Lemire's 32-bit draw for slot q of block j: the slot's word of round 0, then (if rejected) the
/// words of the slot's own retry blocks (round r >= 1, counter word 3 = q + 1) in order.
__device__ __forceinline__ u64 lemire32(const rng_ctx& ctx, u64 j, int q, u32 first, u64 s, u64 thresh) {
  const u64 m = static_cast<u64>(first) * s;
  if (static_cast<u32>(m) >= thresh) return m >> 32;
  for (u32 round = 1;; ++round) {
    const words w = ctx.block(j, round, static_cast<u32>(q) + 1u);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const u64 mm = static_cast<u64>(w.x[k]) * s;
      if (static_cast<u32>(mm) >= thresh) return mm >> 32;
    }
  }
}

/// Lemire's 64-bit draw for slot q (words 2q, 2q+1) of block j, retries as lemire32 (two candidates
/// per retry block).
__device__ __forceinline__ u64 lemire64(const rng_ctx& ctx, u64 j, int q, u64 first, u64 s, u64 thresh) {
  if (first * s >= thresh) return __umul64hi(first, s);
  for (u32 round = 1;; ++round) {
    const words w = ctx.block(j, round, static_cast<u32>(q) + 1u);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const u64 x = (static_cast<u64>(w.x[2 * k]) << 32) | w.x[2 * k + 1];
      if (x * s >= thresh) return __umul64hi(x, s);
    }
  }
}

/// Integers low + v, v uniform in [0, rng] by Lemire's method. E = 4 (rng < 2^32: one 32-bit word
/// per element) or 2 (64-bit range: two words per element) elements per Philox block, written with
/// one vector store. `thresh` = 2^32 mod (rng + 1) (E = 4) or 2^64 mod (rng + 1) (E = 2).
template <class T, int E>
__global__ void k_integers(T* out_, u64 n, rng_ctx ctx, u64 low, u64 rng, u64 thresh) {
  using S = int_store_t<T>;
  S* out = reinterpret_cast<S*>(out_);
  const u64 nb = (n + E - 1) / E;
  const u64 s = rng + 1;  // 0 when rng == 2^64 - 1 (not used then)
  CUSCI_GRID_STRIDE(j, nb) {
    u64 v[E];
    if (rng == 0) {
#pragma unroll
      for (int q = 0; q < E; ++q) v[q] = 0;
    } else {
      const words w = ctx.block(j);
      if constexpr (E == 4) {
#pragma unroll
        for (int q = 0; q < 4; ++q)
          v[q] = rng == 0xFFFFFFFFull ? w.x[q] : lemire32(ctx, j, q, w.x[q], s, thresh);
      } else {
#pragma unroll
        for (int q = 0; q < 2; ++q) {
          const u64 x = (static_cast<u64>(w.x[2 * q]) << 32) | w.x[2 * q + 1];
          v[q] = rng == ~0ull ? x : lemire64(ctx, j, q, x, s, thresh);
        }
      }
    }
    S r[E];
#pragma unroll
    for (int q = 0; q < E; ++q) {
      const u64 x = low + v[q];  // modulo 2^64, then to T (two's complement wrap into T's range)
      if constexpr (std::is_same_v<T, bool>) r[q] = x != 0 ? 1 : 0;
      else r[q] = static_cast<S>(x);
    }
    const u64 i = static_cast<u64>(E) * j;
    if (i + E <= n) {
      store_vec<S, E>(out, j, r);
    } else {
      for (int q = 0; q < E && i + q < n; ++q) out[i + q] = r[q];
    }
  }
}

/// Poisson counts: multiplication method below 10, PTRS (Hörmann 1993) from 10. Each round of the
/// element's counter gives two float64 uniforms.
__global__ void k_poisson(i64* out, u64 n, rng_ctx ctx, double lam) {
  CUSCI_GRID_STRIDE(j, n) {
    i64 result = 0;
    if (lam < 10.0) {
      const double enlam = exp(-lam);
      double prod = 1.0;
      i64 x = 0;
      bool done = false;
      for (u32 round = 0; !done; ++round) {
        const words w = ctx.block(j, round);
        for (int q = 0; q < 2 && !done; ++q) {
          prod *= u01_f64(w.x[2 * q], w.x[2 * q + 1]);
          if (prod > enlam) ++x;
          else done = true;
        }
      }
      result = x;
    } else {
      const double slam = sqrt(lam), loglam = log(lam);
      const double b = 0.931 + 2.53 * slam;
      const double a = -0.059 + 0.02483 * b;
      const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
      const double vr = 0.9277 - 3.6224 / (b - 2.0);
      for (u32 round = 0;; ++round) {
        const words w = ctx.block(j, round);
        const double U = u01_f64(w.x[0], w.x[1]) - 0.5;
        const double V = u01_f64(w.x[2], w.x[3]);
        const double us = 0.5 - fabs(U);
        const double kf = floor((2.0 * a / us + b) * U + lam + 0.43);
        if (us >= 0.07 && V <= vr) {
          result = static_cast<i64>(kf);
          break;
        }
        if (kf < 0.0 || (us < 0.013 && V > us)) continue;
        // log(V) + log(invalpha) - log(a / us^2 + b) <= -lam + k log(lam) - log(k!)
        if (log(V) + log(invalpha) - log(a / (us * us) + b) <= -lam + kf * loglam - lgamma(kf + 1.0)) {
          result = static_cast<i64>(kf);
          break;
        }
      }
    }
    out[j] = result;
  }
}

/// Sort keys for permutations: keys[i] a random 64-bit word (2 per block), vals[i] = i.
__global__ void k_perm_keys(u64* keys, i64* vals, u64 n, rng_ctx ctx) {
  const u64 nb = (n + 1) / 2;
  CUSCI_GRID_STRIDE(j, nb) {
    const words w = ctx.block(j);
    const u64 i = 2 * j;
    keys[i] = (static_cast<u64>(w.x[0]) << 32) | w.x[1];
    vals[i] = static_cast<i64>(i);
    if (i + 1 < n) {
      keys[i + 1] = (static_cast<u64>(w.x[2]) << 32) | w.x[3];
      vals[i + 1] = static_cast<i64>(i + 1);
    }
  }
}

/// Efraimidis-Spirakis keys E_i / p_i (E_i exponential; +inf for p_i = 0), 2 per block, vals = i.
__global__ void k_weighted_keys(double* keys, i64* vals, const double* p, u64 n, rng_ctx ctx) {
  const u64 nb = (n + 1) / 2;
  CUSCI_GRID_STRIDE(j, nb) {
    const words w = ctx.block(j);
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      const u64 i = 2 * j + q;
      if (i < n) {
        const double e = -log1p(-u01_f64(w.x[2 * q], w.x[2 * q + 1]));
        const double pi = p[i];
        keys[i] = pi > 0.0 ? e / pi : CUDART_INF;
        vals[i] = static_cast<i64>(i);
      }
    }
  }
}

/// Inverse-CDF sampling: out[i] = number of cdf entries <= U (searchsorted side='right'), clamped
/// to [0, m - 1]. 2 per block.
__global__ void k_choice_cdf(i64* out, u64 n, const double* cdf, i64 m, rng_ctx ctx) {
  const u64 nb = (n + 1) / 2;
  CUSCI_GRID_STRIDE(j, nb) {
    const words w = ctx.block(j);
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      const u64 i = 2 * j + q;
      if (i < n) {
        const double u = u01_f64(w.x[2 * q], w.x[2 * q + 1]);
        i64 lo = 0, hi = m;  // first index with cdf > u
        while (lo < hi) {
          const i64 mid = lo + (hi - lo) / 2;
          if (cdf[mid] <= u) lo = mid + 1;
          else hi = mid;
        }
        out[i] = lo < m ? lo : m - 1;
      }
    }
  }
}

/// Row gather: dst row r = src row idx[r]; rows of `words_per_row` elements of W bytes each.
template <class W>
__global__ void k_gather_rows(W* dst, const W* src, const i64* idx, u64 rows, u64 words_per_row) {
  const u64 total = rows * words_per_row;
  CUSCI_GRID_STRIDE(t, total) {
    const u64 r = t / words_per_row, c = t - r * words_per_row;
    dst[t] = src[static_cast<u64>(idx[r]) * words_per_row + c];
  }
}

// ------------------------------------------------------------------------------------------------
// Host helpers

void check_shape(const shape_t& shape, const char* fn) {
  for (i64 d : shape)
    if (d < 0) throw value_error(std::string("cusci::random::generator::") + fn + ": negative dimensions are not allowed");
}

rng_ctx ctx_for(u64 seed, u64 base) { return {static_cast<u32>(seed), static_cast<u32>(seed >> 32), base}; }

u64 count(const ndarray& a) { return static_cast<u64>(a.size()); }

/// Sorts (keys, vals) pairs ascending with CUB (temp storage from the pool); returns sorted vals.
template <class K>
device_buffer<i64> sort_pairs(device_buffer<K>& keys, device_buffer<i64>& vals, i64 n, const char* fn) {
  if (n > INT_MAX)
    throw value_error(std::string("cusci::random::generator::") + fn + ": at most 2147483647 elements can be sorted, got " +
                      std::to_string(n));
  cudaStream_t s = get_current_stream();
  device_buffer<K> keys_out(static_cast<std::size_t>(n), s);
  device_buffer<i64> vals_out(static_cast<std::size_t>(n), s);
  std::size_t temp = 0;
  CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, temp, keys.data(), keys_out.data(), vals.data(),
                                                 vals_out.data(), static_cast<int>(n), 0, int(sizeof(K) * 8), s));
  device_buffer<char> tmp(temp, s);
  CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp.data(), temp, keys.data(), keys_out.data(), vals.data(),
                                                 vals_out.data(), static_cast<int>(n), 0, int(sizeof(K) * 8), s));
  return vals_out;
}

/// [min, max] of an integer dtype as int64 (uint64's max clipped to int64's, see the deviation).
void dtype_bounds(dtype t, i64& lo, i64& hi) {
  switch (t) {
    case dtype::bool_: lo = 0; hi = 1; return;
    case dtype::int8: lo = INT8_MIN; hi = INT8_MAX; return;
    case dtype::int16: lo = INT16_MIN; hi = INT16_MAX; return;
    case dtype::int32: lo = INT32_MIN; hi = INT32_MAX; return;
    case dtype::int64: lo = INT64_MIN; hi = INT64_MAX; return;
    case dtype::uint8: lo = 0; hi = UINT8_MAX; return;
    case dtype::uint16: lo = 0; hi = UINT16_MAX; return;
    case dtype::uint32: lo = 0; hi = UINT32_MAX; return;
    case dtype::uint64: lo = 0; hi = INT64_MAX; return;
    default: lo = hi = 0; return;
  }
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// generator

ndarray generator::random(const shape_t& shape, dtype dt) {
  check_shape(shape, "random");
  if (dt != dtype::float32 && dt != dtype::float64)
    throw type_error("cusci::random::generator::random: Unsupported dtype " + std::string(dtype_name(dt)) +
                     " for random (expected float32 or float64)");
  ndarray out = empty(shape, dt);
  const u64 n = count(out);
  if (n == 0) return out;
  cudaStream_t s = get_current_stream();
  if (dt == dtype::float32) {
    const u64 nb = (n + 3) / 4;
    const launch l = launch_for(nb);
    k_random_f32<<<l.grid, l.block, 0, s>>>(out.data_as<float>(), n, ctx_for(seed_, advance(nb)), 1.0f, 0.0f);
  } else {
    const u64 nb = (n + 1) / 2;
    const launch l = launch_for(nb);
    k_random_f64<<<l.grid, l.block, 0, s>>>(out.data_as<double>(), n, ctx_for(seed_, advance(nb)), 1.0, 0.0);
  }
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray generator::uniform(double low, double high, const shape_t& shape) {
  check_shape(shape, "uniform");
  const double range = high - low;
  if (!std::isfinite(low) || !std::isfinite(high) || !std::isfinite(range))
    throw value_error("cusci::random::generator::uniform: Range exceeds valid bounds (low " + std::to_string(low) +
                      ", high " + std::to_string(high) + ")");
  ndarray out = empty(shape, dtype::float64);
  const u64 n = count(out);
  if (n == 0) return out;
  const u64 nb = (n + 1) / 2;
  const launch l = launch_for(nb);
  k_random_f64<<<l.grid, l.block, 0, get_current_stream()>>>(out.data_as<double>(), n, ctx_for(seed_, advance(nb)),
                                                              range, low);
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray generator::integers(std::int64_t low, std::optional<std::int64_t> high, const shape_t& shape, dtype dt,
                            bool endpoint) {
  check_shape(shape, "integers");
  i64 lo = low, hi;
  if (high) hi = *high;
  else {
    lo = 0;
    hi = low;
  }
  i64 tmin = 0, tmax = 0;
  if (!is_bool(dt) && !is_integer(dt))
    throw type_error("cusci::random::generator::integers: Unsupported dtype " + std::string(dtype_name(dt)) +
                     " for integers (expected bool or an integer dtype)");
  dtype_bounds(dt, tmin, tmax);
  const std::string name(dtype_name(dt));
  if (lo < tmin) throw value_error("cusci::random::generator::integers: low is out of bounds for " + name);
  if (endpoint ? hi > tmax : (hi != INT64_MIN && hi - 1 > tmax))
    throw value_error("cusci::random::generator::integers: high is out of bounds for " + name);
  if (endpoint ? lo > hi : lo >= hi)
    throw value_error(std::string("cusci::random::generator::integers: ") + (endpoint ? "low > high" : "low >= high") +
                      " (low " + std::to_string(lo) + ", high " + std::to_string(hi) + ")");
  // Inclusive range size minus one, in uint64 arithmetic (high >= low so the difference fits).
  const u64 rng = static_cast<u64>(hi) - static_cast<u64>(lo) - (endpoint ? 0u : 1u);
  u64 thresh = 0;
  if (rng != 0 && rng < 0xFFFFFFFFull) {
    const u64 s = rng + 1;
    thresh = ((1ull << 32) - s) % s;  // 2^32 mod s
  } else if (rng > 0xFFFFFFFFull && rng != ~0ull) {
    const u64 s = rng + 1;
    thresh = (0 - s) % s;  // 2^64 mod s
  }
  ndarray out = empty(shape, dt);
  const u64 n = count(out);
  if (n == 0) return out;
  // Four elements per Philox block when the range fits 32 bits, two otherwise.
  const bool wide = rng > 0xFFFFFFFFull;
  const u64 nb = wide ? (n + 1) / 2 : (n + 3) / 4;
  const launch l = launch_for(nb);
  const rng_ctx ctx = ctx_for(seed_, advance(nb));
  cudaStream_t s = get_current_stream();
  const char* fn = "cusci::random::generator::integers";
  cusci::detail::dispatch_integer(dt, fn, "expected bool or an integer dtype", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (wide)
      k_integers<T, 2><<<l.grid, l.block, 0, s>>>(out.data_as<T>(), n, ctx, static_cast<u64>(lo), rng, thresh);
    else
      k_integers<T, 4><<<l.grid, l.block, 0, s>>>(out.data_as<T>(), n, ctx, static_cast<u64>(lo), rng, thresh);
    CUSCI_CHECK_LAUNCH();
  });
  return out;
}

ndarray generator::standard_normal(const shape_t& shape, dtype dt) {
  check_shape(shape, "standard_normal");
  if (dt != dtype::float32 && dt != dtype::float64)
    throw type_error("cusci::random::generator::standard_normal: Unsupported dtype " + std::string(dtype_name(dt)) +
                     " for standard_normal (expected float32 or float64)");
  if (dt == dtype::float64) return normal(0.0, 1.0, shape);
  ndarray out = empty(shape, dt);
  const u64 n = count(out);
  if (n == 0) return out;
  const u64 nb = (n + 3) / 4;
  const launch l = launch_for(nb);
  k_normal_f32<<<l.grid, l.block, 0, get_current_stream()>>>(out.data_as<float>(), n, ctx_for(seed_, advance(nb)));
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray generator::normal(double loc, double scale, const shape_t& shape) {
  check_shape(shape, "normal");
  if (!(scale >= 0)) throw value_error("cusci::random::generator::normal: scale < 0 (got " + std::to_string(scale) + ")");
  ndarray out = empty(shape, dtype::float64);
  const u64 n = count(out);
  if (n == 0) return out;
  const u64 nb = (n + 1) / 2;
  const launch l = launch_for(nb);
  k_normal_f64<<<l.grid, l.block, 0, get_current_stream()>>>(out.data_as<double>(), n, ctx_for(seed_, advance(nb)), loc,
                                                              scale);
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray generator::exponential(double scale, const shape_t& shape) {
  check_shape(shape, "exponential");
  if (!(scale >= 0))
    throw value_error("cusci::random::generator::exponential: scale < 0 (got " + std::to_string(scale) + ")");
  ndarray out = empty(shape, dtype::float64);
  const u64 n = count(out);
  if (n == 0) return out;
  const u64 nb = (n + 1) / 2;
  const launch l = launch_for(nb);
  k_exponential<<<l.grid, l.block, 0, get_current_stream()>>>(out.data_as<double>(), n, ctx_for(seed_, advance(nb)),
                                                               scale);
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray generator::poisson(double lam, const shape_t& shape) {
  check_shape(shape, "poisson");
  if (!(lam >= 0)) throw value_error("cusci::random::generator::poisson: lam < 0 or lam is NaN (got " + std::to_string(lam) + ")");
  // NumPy's bound: the largest lam for which lam + 10 sqrt(lam) stays below 2^63.
  if (lam > 9.223372006484771e18)
    throw value_error("cusci::random::generator::poisson: lam value too large (got " + std::to_string(lam) + ")");
  ndarray out = empty(shape, dtype::int64);
  const u64 n = count(out);
  if (n == 0) return out;
  if (lam == 0) {
    out.fill(0);
    return out;
  }
  const launch l = launch_for(n);
  k_poisson<<<l.grid, l.block, 0, get_current_stream()>>>(out.data_as<i64>(), n, ctx_for(seed_, advance(n)), lam);
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray generator::random_keys(std::int64_t n) {
  if (n > INT_MAX)
    throw value_error("cusci::random::generator::permutation: at most 2147483647 elements can be permuted, got " +
                      std::to_string(n));
  cudaStream_t s = get_current_stream();
  ndarray out = empty({n}, dtype::int64);
  if (n == 0) return out;
  device_buffer<u64> keys(static_cast<std::size_t>(n), s);
  device_buffer<i64> vals(static_cast<std::size_t>(n), s);
  const u64 nb = (static_cast<u64>(n) + 1) / 2;
  const launch l = launch_for(nb);
  k_perm_keys<<<l.grid, l.block, 0, s>>>(keys.data(), vals.data(), static_cast<u64>(n), ctx_for(seed_, advance(nb)));
  CUSCI_CHECK_LAUNCH();
  device_buffer<i64> sorted = sort_pairs(keys, vals, n, "permutation");
  CUSCI_CUDA_TRY(cudaMemcpyAsync(out.data(), sorted.data(), static_cast<std::size_t>(n) * sizeof(i64),
                                 cudaMemcpyDeviceToDevice, s));
  return out;
}

ndarray generator::gather_rows(const ndarray& a0, const ndarray& idx) {
  const ndarray a = a0.is_c_contiguous() ? a0 : a0.copy();
  shape_t oshape = idx.shape();
  i64 row_elems = 1;
  for (int d = 1; d < a.ndim(); ++d) {
    oshape.push_back(a.shape()[d]);
    row_elems *= a.shape()[d];
  }
  ndarray out = empty(oshape, a.dtype());
  const u64 rows = static_cast<u64>(idx.size());
  const u64 row_bytes = static_cast<u64>(row_elems) * a.itemsize();
  if (rows == 0 || row_bytes == 0) return out;
  cudaStream_t s = get_current_stream();
  const auto src_addr = reinterpret_cast<std::uintptr_t>(a.data());
  auto run = [&](auto w) {
    using W = decltype(w);
    const u64 wpr = row_bytes / sizeof(W);
    const launch l = launch_for(rows * wpr);
    k_gather_rows<W><<<l.grid, l.block, 0, s>>>(static_cast<W*>(out.data()), static_cast<const W*>(a.data()),
                                                 idx.data_as<const i64>(), rows, wpr);
    CUSCI_CHECK_LAUNCH();
  };
  // The widest word that divides the row size and the source alignment (out is pool-aligned).
  if (row_bytes % 16 == 0 && src_addr % 16 == 0) run(uint4{});
  else if (row_bytes % 8 == 0 && src_addr % 8 == 0) run(u64{});
  else if (row_bytes % 4 == 0 && src_addr % 4 == 0) run(u32{});
  else if (row_bytes % 2 == 0 && src_addr % 2 == 0) run(std::uint16_t{});
  else run(std::uint8_t{});
  return out;
}

ndarray generator::choice(std::int64_t a, const shape_t& size, bool replace, const std::optional<std::vector<double>>& p) {
  check_shape(size, "choice");
  i64 ns = 1;
  for (i64 d : size) ns *= d;
  if (a < 0)
    throw value_error("cusci::random::generator::choice: a must be a positive integer unless no samples are taken (got " +
                      std::to_string(a) + ")");
  if (a == 0 && ns > 0)
    throw value_error("cusci::random::generator::choice: a cannot be empty unless no samples are taken");
  std::vector<double> cdf;
  i64 nonzero = 0;
  if (p) {
    if (static_cast<i64>(p->size()) != a)
      throw value_error("cusci::random::generator::choice: a and p must have same size (" + std::to_string(a) + " and " +
                        std::to_string(p->size()) + ")");
    double total = 0;
    cdf.resize(p->size());
    for (std::size_t i = 0; i < p->size(); ++i) {
      const double v = (*p)[i];
      if (!std::isfinite(v)) throw value_error("cusci::random::generator::choice: probabilities contain NaN or inf");
      if (v < 0) throw value_error("cusci::random::generator::choice: probabilities are not non-negative");
      if (v > 0) ++nonzero;
      total += v;
      cdf[i] = total;
    }
    const double atol = std::sqrt(std::numeric_limits<double>::epsilon());
    if (std::fabs(total - 1.0) > atol)
      throw value_error("cusci::random::generator::choice: probabilities do not sum to 1 (sum " + std::to_string(total) + ")");
    for (double& c : cdf) c /= total;
  }
  if (!replace) {
    if (ns > a)
      throw value_error("cusci::random::generator::choice: Cannot take a larger sample than population when replace is False");
    if (p && nonzero < ns) throw value_error("cusci::random::generator::choice: Fewer non-zero entries in p than size");
  }
  if (ns == 0) return empty(size, dtype::int64);
  if (replace && !p) return integers(0, a, size, dtype::int64, false);
  cudaStream_t s = get_current_stream();
  ndarray out = empty(size, dtype::int64);
  if (replace) {
    const ndarray dcdf = asarray(cdf);
    const u64 nb = (static_cast<u64>(ns) + 1) / 2;
    const launch l = launch_for(nb);
    k_choice_cdf<<<l.grid, l.block, 0, s>>>(out.data_as<i64>(), static_cast<u64>(ns), dcdf.data_as<const double>(), a,
                                             ctx_for(seed_, advance(nb)));
    CUSCI_CHECK_LAUNCH();
    return out;
  }
  if (!p) {
    const ndarray perm = random_keys(a);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(out.data(), perm.data(), static_cast<std::size_t>(ns) * sizeof(i64),
                                   cudaMemcpyDeviceToDevice, s));
    return out;
  }
  if (a > INT_MAX)
    throw value_error("cusci::random::generator::choice: at most 2147483647 weighted keys can be sorted, got " +
                      std::to_string(a));
  const ndarray dp = asarray(*p);
  device_buffer<double> keys(static_cast<std::size_t>(a), s);
  device_buffer<i64> vals(static_cast<std::size_t>(a), s);
  const u64 nb = (static_cast<u64>(a) + 1) / 2;
  const launch l = launch_for(nb);
  k_weighted_keys<<<l.grid, l.block, 0, s>>>(keys.data(), vals.data(), dp.data_as<const double>(), static_cast<u64>(a),
                                             ctx_for(seed_, advance(nb)));
  CUSCI_CHECK_LAUNCH();
  device_buffer<i64> sorted = sort_pairs(keys, vals, a, "choice");
  CUSCI_CUDA_TRY(cudaMemcpyAsync(out.data(), sorted.data(), static_cast<std::size_t>(ns) * sizeof(i64),
                                 cudaMemcpyDeviceToDevice, s));
  return out;
}

ndarray generator::choice(const ndarray& a, const shape_t& size, bool replace, const std::optional<std::vector<double>>& p) {
  if (a.ndim() == 0) throw index_error("cusci::random::generator::choice: a must be an integer or at least 1-dimensional");
  const ndarray idx = choice(a.shape()[0], size, replace, p);
  return gather_rows(a, idx);
}

ndarray generator::permutation(std::int64_t n) {
  if (n < 0) throw value_error("cusci::random::generator::permutation: n must be non-negative (got " + std::to_string(n) + ")");
  return random_keys(n);
}

ndarray generator::permutation(const ndarray& x) {
  if (x.ndim() == 0) throw index_error("cusci::random::generator::permutation: x must be an integer or at least 1-dimensional");
  return gather_rows(x, random_keys(x.shape()[0]));
}

void generator::shuffle(ndarray& x) {
  if (x.ndim() == 0) throw index_error("cusci::random::generator::shuffle: x must be at least 1-dimensional");
  if (x.size() == 0) return;
  const ndarray tmp = permutation(x);
  cusci::detail::copy_cast(tmp, x);
}

generator default_rng() {
  std::random_device rd;
  const u64 seed = (static_cast<u64>(rd()) << 32) ^ static_cast<u64>(rd());
  return generator(seed);
}

namespace detail {

std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> c, std::array<std::uint32_t, 2> k) noexcept {
  const words w = philox(c[0], c[1], c[2], c[3], k[0], k[1]);
  return {w.x[0], w.x[1], w.x[2], w.x[3]};
}

void set_launch_config(int block_size, int grid_size) {
  if (block_size < 0 || block_size > 1024)
    throw value_error("cusci::random::detail::set_launch_config: block_size must be in [0, 1024], got " +
                      std::to_string(block_size));
  if (grid_size < 0)
    throw value_error("cusci::random::detail::set_launch_config: grid_size must be >= 0, got " + std::to_string(grid_size));
  g_block.store(block_size);
  g_grid.store(grid_size);
}

}  // namespace detail

}  // namespace cusci::random
