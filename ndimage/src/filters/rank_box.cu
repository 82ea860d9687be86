// The median of the common boxes (3x3, 5x5, 7x7 on 2-D or 3-D arrays, 3x3x3 on 3-D arrays) of
// float32, float64 and uint8: register selection networks on shared-memory tiles.
//
// 3x3 (median3x3_kernel): a block of 256 threads owns 128 x 32 outputs; the tile plus halo is
// staged once (checked for NaN: a tile holding NaN replays SciPy's quickselect per output instead),
// and each thread computes a 4 x 4 patch from its 6 x 6 values (vector shared reads) by sorted
// columns shared between the patch's outputs: 17.5 min/max and 2.25 shared reads per output.
// float32 / uint8 rows that are contiguous and aligned to 4 values are staged as quads of 4 values
// (16 / 4 bytes: one per lane and row, all of a thread's loads issued before its stores, the halo
// columns by the edge lanes) and the outputs stored as quads; other layouts and float64 go through
// tabulated row / column offsets.
//
// 3x3x3 (median3x3x3_kernel): sorted lists of the 3x3 windows of each plane, the merge of two
// planes shared by two outputs along z, an 18-operation final selection (rank_select.cuh): ~87
// min/max per output instead of 252.
//
// 5x5 and 7x7 (median_box_kernel): a block of 256 threads owns 32 x 32 outputs, stages them with
// their halo, and each thread computes two pairs of vertically adjacent outputs; the K (K - 1)
// values a pair shares are trimmed once by a network that keeps their middle 6 / 8 (the lowest and
// highest 7 / 17 lie below / above both medians), then each output takes the median of those plus
// its own row of K (11 / 15 values): 132 / 327 min-max operations per output instead of 202 / 590.
// A tile holding NaN instead replays SciPy's quickselect per output, in SciPy's order, so the
// value is SciPy's.
//
// Roofline (H200): 4096^2 float32 moves 2 x 64 MiB (halo +8%), ~35 us at 4 TB/s; 3x3 needs 16.7 M
// x 17.5 = 0.3 G min/max (~18 us on the min/max pipe), so it should sit near the copy roofline.
// 5x5 ~2.2 G ops, 7x7 ~5.5 G (0.13 / 0.33 ms). 512^3 float32 3x3x3: 2 x 512 MiB (~0.27 ms of
// DRAM), 134 M outputs x ~87 min/max = ~12 G ops plus ~7 shared reads per output: compute-bound,
// around 1 ms.

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
  /// median3x3_kernel, float32 / uint8: rows of the input (`vec_in`: unit x stride, shift[2] == 1) /
  /// output (`vec_out`: unit x stride) start aligned to 4 values, so they are read / written as quads.
  bool vec_in, vec_out;
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

/// 3x3 median, sorted columns shared (Paeth's decomposition): after sorting each column of 3, the
/// median of 9 is med3(max of the column minima, med3 of the column middles, min of the column
/// maxima). A thread computes a 4 x 4 patch of outputs (4 columns, 4 rows) from the 6 x 6 values
/// around it, read once from shared memory: per column, the 4 sorted triples of consecutive rows
/// share sorted pairs (2 pairs + 4 insertions: 20 min/max), and the 4 outputs of a row share the
/// maxima / minima / middle pairs of adjacent columns (40 min/max per row). Per output: 17.5
/// min/max (120 + 160 over 16) and 2.25 shared-memory reads, against 48 min/max and 9 reads for
/// a 9-value network per output. Staging: float32 / uint8 tiles whose 128 columns lie inside
/// aligned, contiguous rows load one quad (4 values) per lane and row (p.vec_in; ~1 load, shuffle
/// and store per 4 values); other tiles tabulate the row and column offsets (boundary modes
/// applied) once, so staging a value costs two table reads and an add. Outputs are stored as
/// quads where the output rows allow (p.vec_out).
constexpr int m3_tx = 128, m3_ty = 32;          // outputs per block tile (x, y)
constexpr int m3_hx = m3_tx + 2, m3_hy = m3_ty + 2;
constexpr int m3_sx = m3_tx + 4;  // shared row stride: 16-byte aligned rows for the vector reads

/// Four consecutive values as one aligned vector (16 bytes for float, 4 for uint8): rows of the 3x3
/// tiles are staged and stored in these where the layout allows.
template <class T>
struct alignas(4 * sizeof(T)) quad {
  T v[4];
};
template <class T>
inline constexpr bool has_quad = std::is_same_v<T, float> || std::is_same_v<T, std::uint8_t>;

/// The value of the lane before (lane 0: its own).
template <class T>
__device__ __forceinline__ T shfl_up1(T v) {
  if constexpr (std::is_same_v<T, float>) return __shfl_up_sync(0xffffffffu, v, 1);
  else return static_cast<T>(__shfl_up_sync(0xffffffffu, static_cast<unsigned>(v), 1));
}

/// The 6 consecutive shared values s[0 .. 5] (s 16-byte aligned for float / double, 4-byte for
/// uint8) in vector reads: a warp's reads of consecutive patches are conflict-free.
template <class C, class T>
__device__ __forceinline__ void load6(const T* s, C* v) {
  if constexpr (std::is_same_v<T, float>) {
    const float4 a = *reinterpret_cast<const float4*>(s);
    const float2 b = *reinterpret_cast<const float2*>(s + 4);
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w, v[4] = b.x, v[5] = b.y;
  } else if constexpr (std::is_same_v<T, double>) {
#pragma unroll
    for (int i = 0; i < 3; ++i) {
      const double2 a = *reinterpret_cast<const double2*>(s + 2 * i);
      v[2 * i] = a.x, v[2 * i + 1] = a.y;
    }
  } else {
    const unsigned a = *reinterpret_cast<const unsigned*>(s);
    const unsigned b = *reinterpret_cast<const unsigned short*>(s + 4);
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = (a >> (8 * i)) & 0xffu;
    v[4] = b & 0xffu, v[5] = b >> 8;
  }
}

template <class T>
__global__ void __launch_bounds__(box_threads) median3x3_kernel(const __grid_constant__ box_params p, T cval,
                                                                std::int64_t n_blocks) {
  using C = net_t<T>;
  __shared__ __align__(16) T s[m3_hy * m3_sx];
  // Byte offsets of the tile's rows and columns (negative for negative strides); `outside` marks a
  // position that takes cval.
  constexpr std::int64_t outside = INT64_MIN;
  __shared__ std::int64_t row_off[m3_hy];
  __shared__ std::int64_t col_off[m3_hx];
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t r = b / p.n_tiles[2];
    const std::int64_t by = r % p.n_tiles[1];
    const std::int64_t z = r / p.n_tiles[1];
    const std::int64_t x0 = bx * m3_tx, y0 = by * m3_ty;
    __syncthreads();  // the previous tile's reads are done
    const std::int64_t gz = fp_index(z - p.shift[0], p.shape[0], p.mode[0]);
    bool nan = false;
    bool fast = false;
    if constexpr (has_quad<T>) fast = p.vec_in && x0 + m3_tx <= p.shape[2];
    if constexpr (has_quad<T>) {
      if (fast) {
        // Rows of aligned quads (tile column x0 + 4 k at shared column 4 k + 1): warp ty stages rows
        // ty, ty + 8, ..., one quad per lane, every load issued before any store; the value left of
        // a lane's four comes from the lane before (shuffle), lane 0 and lane 31 load the halo
        // columns x0 - 1 and x0 + 128.
        using Q = quad<T>;
        constexpr int per_warp = (m3_hy + 7) / 8;
        const std::int64_t gxl = fp_index(x0 - 1, p.shape[2], p.mode[2]);
        const std::int64_t gxr = fp_index(x0 + m3_tx, p.shape[2], p.mode[2]);
        const std::int64_t gxe = tx == 0 ? gxl : gxr;
        const bool edge = tx == 0 || tx == 31;
        Q a[per_warp];
        T e[per_warp];
#pragma unroll
        for (int k = 0; k < per_warp; ++k) {
          const int hy = ty + 8 * k;
          a[k] = Q{{cval, cval, cval, cval}};
          e[k] = cval;
          if (hy < m3_hy) {
            const std::int64_t gy = fp_index(y0 + hy - p.shift[1], p.shape[1], p.mode[1]);
            if (gz >= 0 && gy >= 0) {
              const char* row = p.in + gz * p.in_st[0] + gy * p.in_st[1];
              a[k] = reinterpret_cast<const Q*>(row)[x0 / 4 + tx];
              if (edge && gxe >= 0) e[k] = *reinterpret_cast<const T*>(row + gxe * p.in_st[2]);
            }
          }
        }
#pragma unroll
        for (int k = 0; k < per_warp; ++k) {
          const int hy = ty + 8 * k;
          T left = shfl_up1(a[k].v[3]);
          if (tx == 0) left = e[k];
          if (hy < m3_hy) {
            if constexpr (std::is_floating_point_v<T>) {
              bool n = edge && e[k] != e[k];
#pragma unroll
              for (int i = 0; i < 4; ++i) n = n || a[k].v[i] != a[k].v[i];
              nan = nan || n;
            }
            T* srow = s + hy * m3_sx;
            *reinterpret_cast<Q*>(srow + 4 * tx) = Q{{left, a[k].v[0], a[k].v[1], a[k].v[2]}};
            if (tx == 31) srow[m3_tx] = a[k].v[3], srow[m3_tx + 1] = e[k];
          }
        }
      }
    }
    if (!fast) {
      for (int q = threadIdx.x; q < m3_hy + m3_hx; q += box_threads) {
        if (q < m3_hy) {
          const std::int64_t gy = fp_index(y0 + q - p.shift[1], p.shape[1], p.mode[1]);
          row_off[q] = (gz < 0 || gy < 0) ? outside : gz * p.in_st[0] + gy * p.in_st[1];
        } else {
          const std::int64_t gx = fp_index(x0 + (q - m3_hy) - p.shift[2], p.shape[2], p.mode[2]);
          col_off[q - m3_hy] = gx < 0 ? outside : gx * p.in_st[2];
        }
      }
      __syncthreads();
      for (int q = threadIdx.x; q < m3_hy * m3_hx; q += box_threads) {
        const int hy = q / m3_hx, hx = q % m3_hx;
        const std::int64_t ro = row_off[hy], co = col_off[hx];
        const T v = (ro == outside || co == outside) ? cval : *reinterpret_cast<const T*>(p.in + ro + co);
        if constexpr (std::is_floating_point_v<T>) nan = nan || v != v;
        s[hy * m3_sx + hx] = v;
      }
    }
    const bool any_nan = __syncthreads_or(nan) != 0;
    const int ox = 4 * tx, oy = 4 * ty;  // the patch's first output, tile coordinates
    if (any_nan) {
      // SciPy's quickselect on each window, in C order.
      for (int k = 0; k < 16; ++k) {
        const int i = k % 4, j = k / 4;
        const std::int64_t x = x0 + ox + i, y = y0 + oy + j;
        if (x >= p.shape[2] || y >= p.shape[1]) continue;
        const T* c = s + (oy + j) * m3_sx + ox + i;
        T w[9];
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) w[ky * 3 + kx] = c[ky * m3_sx + kx];
        *reinterpret_cast<T*>(p.out + z * p.out_st[0] + y * p.out_st[1] + x * p.out_st[2]) =
            ni_select<T>([&](int t) -> T& { return w[t]; }, 0, 8, 4);
      }
      continue;
    }
    C v[6][6];
#pragma unroll
    for (int h = 0; h < 6; ++h) load6<C>(s + (oy + h) * m3_sx + ox, v[h]);
    // lo / mid / hi of the sorted column triple (rows j .. j + 2) for output row j, column c.
    C lo[4][6], mid[4][6], hi[4][6];
#pragma unroll
    for (int c = 0; c < 6; ++c) {
#pragma unroll
      for (int pr = 0; pr < 2; ++pr) {
        const int a = 2 * pr + 1;  // the pair (rows a, a + 1) is shared by triples a - 1 and a
        const C p0 = vmin(v[a][c], v[a + 1][c]), p1 = vmax(v[a][c], v[a + 1][c]);
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int j = a - 1 + e;
          const C q = v[e == 0 ? a - 1 : a + 2][c];
          lo[j][c] = vmin(p0, q);
          hi[j][c] = vmax(p1, q);
          mid[j][c] = vmax(p0, vmin(p1, q));
        }
      }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const std::int64_t y = y0 + oy + j;
      if (y >= p.shape[1]) break;
      const C l12 = vmax(lo[j][1], lo[j][2]), l34 = vmax(lo[j][3], lo[j][4]);
      const C h12 = vmin(hi[j][1], hi[j][2]), h34 = vmin(hi[j][3], hi[j][4]);
      const C n12 = vmin(mid[j][1], mid[j][2]), x12 = vmax(mid[j][1], mid[j][2]);
      const C n34 = vmin(mid[j][3], mid[j][4]), x34 = vmax(mid[j][3], mid[j][4]);
      C L[4], M[4], H[4];
      L[0] = vmax(lo[j][0], l12);
      L[1] = vmax(l12, lo[j][3]);
      L[2] = vmax(lo[j][2], l34);
      L[3] = vmax(l34, lo[j][5]);
      H[0] = vmin(hi[j][0], h12);
      H[1] = vmin(h12, hi[j][3]);
      H[2] = vmin(hi[j][2], h34);
      H[3] = vmin(h34, hi[j][5]);
      M[0] = vmax(n12, vmin(x12, mid[j][0]));
      M[1] = vmax(n12, vmin(x12, mid[j][3]));
      M[2] = vmax(n34, vmin(x34, mid[j][2]));
      M[3] = vmax(n34, vmin(x34, mid[j][5]));
      char* row = p.out + z * p.out_st[0] + y * p.out_st[1];
      if constexpr (has_quad<T>) {
        if (p.vec_out && x0 + ox + 3 < p.shape[2]) {
          quad<T> o;
#pragma unroll
          for (int i = 0; i < 4; ++i) o.v[i] = static_cast<T>(vmax(vmin(L[i], M[i]), vmin(vmax(L[i], M[i]), H[i])));
          reinterpret_cast<quad<T>*>(row)[(x0 + ox) / 4] = o;
          continue;
        }
      }
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const std::int64_t x = x0 + ox + i;
        if (x >= p.shape[2]) break;
        const C med = vmax(vmin(L[i], M[i]), vmin(vmax(L[i], M[i]), H[i]));
        *reinterpret_cast<T*>(row + x * p.out_st[2]) = static_cast<T>(med);
      }
    }
  }
}

/// 3x3x3 median by sorted plane lists (rank_select.cuh: plane_lists, merge9_mid, median27): a block
/// of 128 threads owns 32 x 8 x TZ outputs (x, y, z), staged with their halo once (tabulated row
/// and column offsets, 8 loads in flight per thread; a tile holding NaN replays SciPy's quickselect
/// per output instead). A thread takes two x-adjacent outputs and walks their TZ outputs along z.
/// For each plane of the walk, the two 3x3 windows (3 rows x 4 columns read from shared memory)
/// become sorted 9-lists; outputs z and z + 1 then share the merge of planes z + 1 and z + 2 (its
/// ranks 4..13), and each takes the median of that with the list of its own third plane. Per
/// output: (TZ + 2) / TZ plane lists of 41 min/max, half a merge (23) and 18 for the final
/// selection: ~87 min/max (TZ = 16) and 6.75 shared reads, against 252 min/max and 27 reads for a
/// pruned 27-value network. Registers (~100 a thread) limit a multiprocessor to ~20 warps.
constexpr int m27_threads = 128;
template <class T>
struct m27_tile {
  static constexpr int TX = 32, TY = 8, TZ = sizeof(T) == 8 ? 8 : 16;  // TZ a multiple of 4
  static constexpr int HX = TX + 2, HY = TY + 2, HZ = TZ + 2;
};

/// The 4 consecutive shared values s[0 .. 3] (s 8-byte aligned for float, 16-byte for double).
template <class C, class T>
__device__ __forceinline__ void load4(const T* s, C (&v)[4]) {
  if constexpr (std::is_same_v<T, float>) {
    const float2 a = *reinterpret_cast<const float2*>(s), b = *reinterpret_cast<const float2*>(s + 2);
    v[0] = a.x, v[1] = a.y, v[2] = b.x, v[3] = b.y;
  } else if constexpr (std::is_same_v<T, double>) {
    const double2 a = *reinterpret_cast<const double2*>(s), b = *reinterpret_cast<const double2*>(s + 2);
    v[0] = a.x, v[1] = a.y, v[2] = b.x, v[3] = b.y;
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = s[i];
  }
}

template <class T>
__global__ void __launch_bounds__(m27_threads) median3x3x3_kernel(const __grid_constant__ box_params p, T cval,
                                                                  std::int64_t n_blocks) {
  using G = m27_tile<T>;
  using C = net_t<T>;
  constexpr int n_rows = G::HZ * G::HY;
  constexpr std::int64_t outside = INT64_MIN;
  __shared__ __align__(16) T s[n_rows * G::HX];
  __shared__ std::int64_t row_off[n_rows];
  __shared__ std::int64_t col_off[G::HX];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int ox = 2 * tx;  // the thread's first output column in the tile
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t r = b / p.n_tiles[2];
    const std::int64_t by = r % p.n_tiles[1];
    const std::int64_t bz = r / p.n_tiles[1];
    const std::int64_t x0 = bx * G::TX, y0 = by * G::TY, z0 = bz * G::TZ;
    __syncthreads();  // the previous tile's reads are done
    // Byte offsets of the halo's rows (z, y) and columns (boundary modes applied; `outside`: cval),
    // then the halo in batches of loads issued before their stores.
    for (int q = threadIdx.x; q < n_rows + G::HX; q += m27_threads) {
      if (q < n_rows) {
        const int hz = q / G::HY, hy = q % G::HY;
        const std::int64_t gz = fp_index(z0 + hz - p.shift[0], p.shape[0], p.mode[0]);
        const std::int64_t gy = fp_index(y0 + hy - p.shift[1], p.shape[1], p.mode[1]);
        row_off[q] = (gz < 0 || gy < 0) ? outside : gz * p.in_st[0] + gy * p.in_st[1];
      } else {
        const std::int64_t gx = fp_index(x0 + (q - n_rows) - p.shift[2], p.shape[2], p.mode[2]);
        col_off[q - n_rows] = gx < 0 ? outside : gx * p.in_st[2];
      }
    }
    __syncthreads();
    bool nan = false;
    constexpr int n_halo = n_rows * G::HX, batch = 8;
    for (int q0 = 0; q0 < n_halo; q0 += batch * m27_threads) {
      T v[batch];
#pragma unroll
      for (int i = 0; i < batch; ++i) {
        const int q = q0 + i * m27_threads + static_cast<int>(threadIdx.x);
        v[i] = cval;
        if (q < n_halo) {
          const std::int64_t ro = row_off[q / G::HX], co = col_off[q % G::HX];
          if (ro != outside && co != outside) v[i] = *reinterpret_cast<const T*>(p.in + ro + co);
        }
      }
#pragma unroll
      for (int i = 0; i < batch; ++i) {
        const int q = q0 + i * m27_threads + static_cast<int>(threadIdx.x);
        if (q < n_halo) {
          if constexpr (std::is_floating_point_v<T>) nan = nan || v[i] != v[i];
          s[q] = v[i];
        }
      }
    }
    const bool any_nan = __syncthreads_or(nan) != 0;
    const std::int64_t y = y0 + ty, x = x0 + ox;
    if (y >= p.shape[1] || x >= p.shape[2]) continue;
    const bool second = x + 1 < p.shape[2];
    char* out = p.out + y * p.out_st[1] + x * p.out_st[2];
    const T* base = s + ty * G::HX + ox;
    if (any_nan) {
      // SciPy's quickselect on each window, in C order.
      for (int oz = 0; oz < G::TZ && z0 + oz < p.shape[0]; ++oz) {
        for (int i = 0; i < (second ? 2 : 1); ++i) {
          const T* c = base + oz * G::HY * G::HX + i;
          T w[27];
          for (int kz = 0; kz < 3; ++kz)
            for (int ky = 0; ky < 3; ++ky)
              for (int kx = 0; kx < 3; ++kx) w[(kz * 3 + ky) * 3 + kx] = c[(kz * G::HY + ky) * G::HX + kx];
          *reinterpret_cast<T*>(out + (z0 + oz) * p.out_st[0] + i * p.out_st[2]) =
              ni_select<T>([&](int t) -> T& { return w[t]; }, 0, 26, 13);
        }
      }
      continue;
    }
    // The sorted lists of plane hz for the two windows.
    auto plane = [&](int hz, C(&l0)[9], C(&l1)[9]) {
      C v[3][4];
#pragma unroll
      for (int row = 0; row < 3; ++row) load4<C>(base + (hz * G::HY + row) * G::HX, v[row]);
      plane_lists(v, l0, l1);
    };
    auto store = [&](std::int64_t z, int i, C v) {
      *reinterpret_cast<T*>(out + z * p.out_st[0] + i * p.out_st[2]) = static_cast<T>(v);
    };
    // Outputs oz and oz + 1 from the lists of planes oz, oz + 1 (a, b); computes those of planes
    // oz + 2 and oz + 3 into c, d.
    using L = C[9];
    auto step = [&](int oz, const L& a0, const L& a1, const L& b0, const L& b1, L& c0, L& c1, L& d0, L& d1) {
      const std::int64_t z = z0 + oz;
      plane(oz + 2, c0, c1);
      plane(oz + 3, d0, d1);
      C m[10];
      merge9_mid(b0, c0, m);
      store(z, 0, median27(m, a0));
      if (z + 1 < p.shape[0]) store(z + 1, 0, median27(m, d0));
      if (second) {
        merge9_mid(b1, c1, m);
        store(z, 1, median27(m, a1));
        if (z + 1 < p.shape[0]) store(z + 1, 1, median27(m, d1));
      }
    };
    L a0, a1, b0, b1, c0, c1, d0, d1;
    plane(0, a0, a1);
    plane(1, b0, b1);
    // Two steps per iteration, the lists changing roles (no copies; the loop stays rolled).
#pragma unroll 1
    for (int oz = 0; oz < G::TZ && z0 + oz < p.shape[0]; oz += 4) {
      step(oz, a0, a1, b0, b1, c0, c1, d0, d1);
      if (z0 + oz + 2 >= p.shape[0]) break;
      step(oz + 2, c0, c1, d0, d1, a0, a1, b0, b1);
    }
  }
}

template <class T>
void launch_median3x3x3(const box_params& p0, T cval) {
  using G = m27_tile<T>;
  box_params p = p0;
  p.n_tiles[0] = (p.shape[0] + G::TZ - 1) / G::TZ;
  p.n_tiles[1] = (p.shape[1] + G::TY - 1) / G::TY;
  p.n_tiles[2] = (p.shape[2] + G::TX - 1) / G::TX;
  const std::int64_t n_blocks = p.n_tiles[0] * p.n_tiles[1] * p.n_tiles[2];
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(n_blocks, 1), 1LL << 22));
  median3x3x3_kernel<T><<<grid, m27_threads, 0, get_current_stream()>>>(p, cval, n_blocks);
  CUSCI_CHECK_LAUNCH();
}

template <class T>
void launch_median3x3(const box_params& p0, T cval) {
  box_params p = p0;
  p.n_tiles[0] = p.shape[0];
  p.n_tiles[1] = (p.shape[1] + m3_ty - 1) / m3_ty;
  p.n_tiles[2] = (p.shape[2] + m3_tx - 1) / m3_tx;
  const std::int64_t n_blocks = p.n_tiles[0] * p.n_tiles[1] * p.n_tiles[2];
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(n_blocks, 1), 1LL << 22));
  median3x3_kernel<T><<<grid, box_threads, 0, get_current_stream()>>>(p, cval, n_blocks);
  CUSCI_CHECK_LAUNCH();
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

/// median3x3_kernel's quads (4 values of `e` bytes): rows with a unit x stride (and shift[2] == 1
/// for the input) whose starts are aligned to a quad.
void set_quads(box_params& p, std::int64_t e) {
  const std::int64_t q = 4 * e;
  auto al = [q](std::int64_t v) { return v % q == 0; };
  auto al_ptr = [q](const void* ptr) {
    return reinterpret_cast<std::uintptr_t>(ptr) % static_cast<std::uintptr_t>(q) == 0;
  };
  p.vec_in = p.in_st[2] == e && p.shift[2] == 1 && al_ptr(p.in) && al(p.in_st[1]) && al(p.in_st[0]);
  p.vec_out = p.out_st[2] == e && al_ptr(p.out) && al(p.out_st[1]) && al(p.out_st[0]);
}

template <class T>
bool run_box(const box_params& p, const std::int64_t* k, T cval) {
  if (k[0] == 1 && k[1] == 3 && k[2] == 3) return launch_median3x3<T>(p, cval), true;
  if (k[0] == 1 && k[1] == 5 && k[2] == 5) return launch_box<T, 1, 5, 5>(p, cval), true;
  if (k[0] == 1 && k[1] == 7 && k[2] == 7) return launch_box<T, 1, 7, 7>(p, cval), true;
  if (k[0] == 3 && k[1] == 3 && k[2] == 3) return launch_median3x3x3<T>(p, cval), true;
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
  if (dt == dtype::float32) set_quads(p, 4);
  if (dt == dtype::uint8) set_quads(p, 1);
  switch (dt) {
    case dtype::float32: return run_box<float>(p, k, c_cast<float>(cval));
    case dtype::float64: return run_box<double>(p, k, c_cast<double>(cval));
    default: return run_box<std::uint8_t>(p, k, c_cast<std::uint8_t>(cval));
  }
}

}  // namespace cusci::ndimage::detail
