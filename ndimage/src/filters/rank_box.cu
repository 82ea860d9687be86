// The median of the common boxes (3x3, 5x5, 7x7 on 2-D or 3-D arrays, 3x3x3 on 3-D arrays) of
// float32, float64 and uint8: register selection networks on shared-memory tiles.
//
// A block of 256 threads owns a tile of outputs (2-D boxes: 32 x 32; 3x3x3: 32 x 8 x 4) and loads
// the tile plus the halo into shared memory once (boundary modes mapped per axis, any input
// strides), checking it for NaN. Each thread then computes 4 outputs in registers (a warp stores 32
// consecutive values of a row):
//  - 3x3 and 3x3x3: per output, the N = 9 / 27 values gathered from shared memory and a pruned
//    Batcher network for rank N / 2 (rank_select.cuh; 40 / 226 min-max operations per output);
//  - 5x5 and 7x7: two pairs of vertically adjacent outputs; the K (K - 1) values a pair shares are
//    trimmed once by a network that keeps their middle 6 / 8 (the lowest and highest 7 / 17 lie
//    below / above both medians), then each output takes the median of those plus its own row of K
//    (11 / 15 values): 132 / 327 min-max operations per output instead of 202 / 590.
// A tile holding NaN instead replays SciPy's quickselect per output, in SciPy's order, so the
// value is SciPy's.
//
// Roofline (H200, 4096^2 float32): DRAM traffic is 2 x 64 MiB (+ halo (32+K-1)^2/32^2), ~35 us at
// 4 TB/s. The networks are bound by the min/max pipe (~64 ops/clk/SM, ~17 T ops/s): 3x3 ~0.7 G ops,
// 5x5 ~2.2 G, 7x7 ~5.5 G, i.e. about 0.04 / 0.13 / 0.33 ms, plus the shared-memory gathers (9 / 40 /
// 77 loads per output) and the tile loads. 512^3 float32 3x3x3: 134 M outputs x 226 ops = ~30 G ops,
// ~1.8 ms: compute-bound.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "engine/footprint_engine.cuh"
#include "engine/footprint_engine.hpp"
#include "filters/rank_pass.hpp"
#include "filters/rank_select.cuh"

namespace cusci::ndimage::detail {
namespace {

constexpr int box_threads = 256;
constexpr int box_rows = 4;  // outputs per thread

template <int KZ, int KY, int KX>
struct box_tile {
  static constexpr int N = KZ * KY * KX;
  static constexpr int TX = 32;
  static constexpr int TY = KZ == 1 ? 8 * box_rows : 8;
  static constexpr int TZ = KZ == 1 ? 1 : box_rows;
  static constexpr int HX = TX + KX - 1, HY = TY + KY - 1, HZ = TZ + KZ - 1;
  /// 5x5 and 7x7: each thread takes two pairs of adjacent rows, sharing K - 1 rows within a pair.
  static constexpr bool pairs = KZ == 1 && KY == KX && KX >= 5;
};

/// Compute type of the networks: the value itself for floats, a 32-bit integer for uint8.
template <class T>
using net_t = std::conditional_t<std::is_floating_point_v<T>, T, unsigned>;

struct box_params {
  const char* in;
  char* out;
  std::int64_t shape[3], in_st[3], out_st[3];
  int shift[3], mode[3];
  std::int64_t n_tiles[3];
};

template <class T, int KZ, int KY, int KX>
__global__ void __launch_bounds__(box_threads) median_box_kernel(const box_params p, T cval, std::int64_t n_blocks) {
  using G = box_tile<KZ, KY, KX>;
  using C = net_t<T>;
  constexpr int N = G::N, R = N / 2;
  __shared__ T s[G::HZ * G::HY * G::HX];
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t r = b / p.n_tiles[2];
    const std::int64_t by = r % p.n_tiles[1];
    const std::int64_t bz = r / p.n_tiles[1];
    const std::int64_t x0 = bx * G::TX, y0 = by * G::TY, z0 = bz * G::TZ;
    __syncthreads();  // the previous tile's reads are done
    bool nan = false;
    for (int q = threadIdx.x; q < G::HZ * G::HY * G::HX; q += box_threads) {
      const int hx = q % G::HX;
      const int t = q / G::HX;
      const int hy = t % G::HY;
      const int hz = t / G::HY;
      const std::int64_t gz = fp_index(z0 + hz - p.shift[0], p.shape[0], p.mode[0]);
      const std::int64_t gy = fp_index(y0 + hy - p.shift[1], p.shape[1], p.mode[1]);
      const std::int64_t gx = fp_index(x0 + hx - p.shift[2], p.shape[2], p.mode[2]);
      const T v = (gz < 0 || gy < 0 || gx < 0)
                      ? cval
                      : *reinterpret_cast<const T*>(p.in + gz * p.in_st[0] + gy * p.in_st[1] + gx * p.in_st[2]);
      if constexpr (std::is_floating_point_v<T>) nan = nan || v != v;
      s[q] = v;
    }
    const bool any_nan = __syncthreads_or(nan) != 0;
    // SciPy's quickselect on the window of the output at tile offset (oz, oy, tx), in C order.
    auto replay = [&](int oz, int oy) -> T {
      const T* c = s + (oz * G::HY + oy) * G::HX + tx;
      T w[N];
      for (int kz = 0; kz < KZ; ++kz)
        for (int ky = 0; ky < KY; ++ky)
          for (int kx = 0; kx < KX; ++kx) w[(kz * KY + ky) * KX + kx] = c[(kz * G::HY + ky) * G::HX + kx];
      return ni_select<T>([&](int i) -> T& { return w[i]; }, 0, N - 1, R);
    };
    auto store = [&](std::int64_t z, std::int64_t y, std::int64_t x, T v) {
      *reinterpret_cast<T*>(p.out + z * p.out_st[0] + y * p.out_st[1] + x * p.out_st[2]) = v;
    };
    const std::int64_t x = x0 + tx;
    if constexpr (G::pairs) {
      // Rows 2 ty + 16 m and the next: the two windows share K - 1 rows (S = K (K - 1) values).
      // Of S, the lowest `cut` and the highest `cut` lie below / above both medians, so each median
      // is the median of the middle S - 2 cut values of S with its own row of K.
      constexpr int K = KX, S = K * (K - 1), cut = S - 1 - N + R + 1, keep = S - 2 * cut, M = keep + K;
      static_assert(R - cut == M / 2, "pair split");
#pragma unroll
      for (int m = 0; m < 2; ++m) {
        const int oy = 2 * ty + 16 * m;
        const std::int64_t y = y0 + oy;
        if (x >= p.shape[2] || y >= p.shape[1]) continue;
        const bool second = y + 1 < p.shape[1];
        if (any_nan) {
          store(z0, y, x, replay(0, oy));
          if (second) store(z0, y + 1, x, replay(0, oy + 1));
          continue;
        }
        const T* c = s + oy * G::HX + tx;
        C sh[S];
#pragma unroll
        for (int ky = 1; ky < K; ++ky)
#pragma unroll
          for (int kx = 0; kx < K; ++kx) sh[(ky - 1) * K + kx] = static_cast<C>(c[ky * G::HX + kx]);
        select_range_network<S, cut, cut + keep - 1>(sh);
        C v[M];
#pragma unroll
        for (int i = 0; i < keep; ++i) v[i] = sh[cut + i];
#pragma unroll
        for (int kx = 0; kx < K; ++kx) v[keep + kx] = static_cast<C>(c[kx]);
        store(z0, y, x, static_cast<T>(select_network<M, M / 2>(v)));
        if (second) {
#pragma unroll
          for (int i = 0; i < keep; ++i) v[i] = sh[cut + i];
#pragma unroll
          for (int kx = 0; kx < K; ++kx) v[keep + kx] = static_cast<C>(c[K * G::HX + kx]);
          store(z0, y + 1, x, static_cast<T>(select_network<M, M / 2>(v)));
        }
      }
    } else {
#pragma unroll
      for (int k = 0; k < box_rows; ++k) {
        const int oz = KZ == 1 ? 0 : k;
        const int oy = KZ == 1 ? ty + 8 * k : ty;
        const std::int64_t y = y0 + oy, z = z0 + oz;
        if (x >= p.shape[2] || y >= p.shape[1] || z >= p.shape[0]) continue;
        if (any_nan) {
          store(z, y, x, replay(oz, oy));
          continue;
        }
        const T* c = s + (oz * G::HY + oy) * G::HX + tx;
        C v[N];
#pragma unroll
        for (int kz = 0; kz < KZ; ++kz)
#pragma unroll
          for (int ky = 0; ky < KY; ++ky)
#pragma unroll
            for (int kx = 0; kx < KX; ++kx)
              v[(kz * KY + ky) * KX + kx] = static_cast<C>(c[(kz * G::HY + ky) * G::HX + kx]);
        store(z, y, x, static_cast<T>(select_network<N, R>(v)));
      }
    }
  }
}

template <class T, int KZ, int KY, int KX>
void launch_box(const box_params& p0, T cval) {
  using G = box_tile<KZ, KY, KX>;
  box_params p = p0;
  p.n_tiles[0] = (p.shape[0] + G::TZ - 1) / G::TZ;
  p.n_tiles[1] = (p.shape[1] + G::TY - 1) / G::TY;
  p.n_tiles[2] = (p.shape[2] + G::TX - 1) / G::TX;
  const std::int64_t n_blocks = p.n_tiles[0] * p.n_tiles[1] * p.n_tiles[2];
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(n_blocks, 1), 1LL << 22));
  median_box_kernel<T, KZ, KY, KX><<<grid, box_threads, 0, get_current_stream()>>>(p, cval, n_blocks);
  CUSCI_CHECK_LAUNCH();
}

template <class T>
bool run_box(const box_params& p, const std::int64_t* k, T cval) {
  if (k[0] == 1 && k[1] == 3 && k[2] == 3) return launch_box<T, 1, 3, 3>(p, cval), true;
  if (k[0] == 1 && k[1] == 5 && k[2] == 5) return launch_box<T, 1, 5, 5>(p, cval), true;
  if (k[0] == 1 && k[1] == 7 && k[2] == 7) return launch_box<T, 1, 7, 7>(p, cval), true;
  if (k[0] == 3 && k[1] == 3 && k[2] == 3) return launch_box<T, 3, 3, 3>(p, cval), true;
  return false;
}

}  // namespace

bool median_box_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, std::int64_t rank, double cval) {
  const int nd = in.ndim();
  if (nd < 2 || nd > 3 || in.dtype() != out.dtype()) return false;
  const dtype dt = in.dtype();
  if (dt != dtype::float32 && dt != dtype::float64 && dt != dtype::uint8) return false;
  std::int64_t count = 1;
  for (auto e : f.shape) count *= e;
  for (auto m : f.mask)
    if (!m) return false;
  if (rank != count / 2) return false;
  const int pad = 3 - nd;
  std::int64_t k[3] = {1, 1, 1};
  box_params p{};
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  for (int a = 0; a < 3; ++a) {
    p.shape[a] = 1;
    p.mode[a] = static_cast<int>(ext::nearest);
  }
  for (int d = 0; d < nd; ++d) {
    const auto ud = static_cast<std::size_t>(d);
    k[pad + d] = f.shape[ud];
    p.shape[pad + d] = in.shape()[ud];
    p.in_st[pad + d] = in.strides()[ud];
    p.out_st[pad + d] = out.strides()[ud];
    p.shift[pad + d] = static_cast<int>(f.shape[ud] / 2 + f.origins[ud]);
    p.mode[pad + d] = static_cast<int>(f.modes[ud]);
  }
  switch (dt) {
    case dtype::float32: return run_box<float>(p, k, c_cast<float>(cval));
    case dtype::float64: return run_box<double>(p, k, c_cast<double>(cval));
    default: return run_box<std::uint8_t>(p, k, c_cast<std::uint8_t>(cval));
  }
}

}  // namespace cusci::ndimage::detail
