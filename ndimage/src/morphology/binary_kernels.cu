// Device passes of cusci::ndimage's binary morphology (SciPy 1.18.1's NI_BinaryErosion,
// scipy/ndimage/src/ni_morphology.c, re-derived here as a data-parallel pass).
//
// One pass computes, for every element i of a C-contiguous 0/1 byte image, the AND (erosion) or OR
// (dilation, whose structure binary.cpp has already mirrored) of in[i + d] over the structure's
// points d, elements outside the image reading the border value; where the mask is 0 the element
// keeps in[i]. Iterations are passes between two buffers (binary.cpp).
//
// Three kernels:
// - plane_kernel (the common case: every point lies in the last two axes, |offset| <= 127 per axis,
//   at most 256 points): bytes hold 0 or 1, so one 32-bit AND (erosion) or OR (dilation) combines 4
//   outputs. Each thread owns one word (4 adjacent bytes of a row) in 4 consecutive rows; per point
//   it reads the input word shifted by the point's offsets (aligned 32-bit loads, two and a funnel
//   shift when the column offset is not a multiple of 4, served by L1 for the neighbouring points
//   and rows; words at the image's edges assembled bytewise with the border value) and stops once
//   its 4 words are decided. A block of 32 x 8 threads covers 128 columns x 32 rows.
//   History: the first form staged a 16 x 128 tile plus halo in shared memory byte by byte and
//   tested every output point by point; it ran 120 us on 4096^2 with the full 3 x 3 structure on the
//   H200 (instruction bound: ~117 instructions per output); this form needs about a fifth of that.
//   Roofline: a 4096 x 4096 bool image read once and written once, about 34 MB, 8 us at 4.1 TB/s.
// - generic_kernel (any ndim up to 16, any structure): one thread per element, the index decomposed
//   into coordinates (32-bit arithmetic when the image has fewer than 2^31 elements); elements whose
//   whole neighbourhood lies inside the image read in[i + flat offset] without tests, the others test
//   each axis. The offset table lives in global memory (read through L1; all threads of a warp read
//   the same entry).
// - fused_kernel (iterations > 1 on the plane path with |offset| <= 2 along the last two axes):
//   temporal blocking, up to 8 passes (4 with an offset of 2) in one launch on a shared-memory tile
//   of 32-bit words loaded with a halo of passes x the structure's extent, each pass shrinking the
//   valid region, the last one writing the output region (details above the kernel). Reason: one
//   launch per pass costs ~15-25 us (expected) on 4096^2 plus ~10-20 us of host work per call, so
//   binary_opening(iterations=10) (10 erosion and 10 dilation passes) would exceed 10 single
//   erosions; fused, each pass costs ~7 us of integer work in shared memory and the image crosses
//   global memory once per launch: 10 + 10 iterations take 4 launches, ~150-190 us expected in all.
// plane_kernel and generic_kernel report "changed" with one __syncthreads_or per block and one
// store by thread 0, and return at once when the previous pass reported no change (iterations < 1:
// binary.cpp enqueues batches of passes without reading the flags back in between; those stay
// single passes).

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "morphology/binary_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

using u8 = std::uint8_t;
using i64 = std::int64_t;
using u32 = std::uint32_t;

constexpr int rows_per_thread = 4;
constexpr int tile_cols = 128;                     // outputs per block row (32 threads x 4 bytes)
constexpr int tile_rows = 8 * rows_per_thread;     // outputs per block column (8 threads x 4 rows)
constexpr int max_offset = 127;                    // largest |offset| per axis on the plane path
constexpr int max_plane_points = 256;

struct plane_params {
  const u8* in;
  u8* out;
  const u8* mask;
  i64 rows;          // length of the second-to-last axis (1 for a 1-D image)
  i64 cols;          // length of the last axis
  int points;
  bool use_or;
  u8 border;
  bool out_words;    // cols % 4 == 0 and the output is 4-byte aligned: word stores
  bool in_words;     // cols % 4 == 0 and the input is 4-byte aligned: word loads
  bool mask_words;   // likewise for the mask
  int* changed;
  const int* prev;
  signed char dy[max_plane_points];
  signed char dx[max_plane_points];
};

/// Each byte of w that is non-zero becomes 1, each zero byte 0 (bool bytes other than 0 / 1 read as
/// true, as SciPy's `*pi ? 1 : 0`).
__device__ __forceinline__ u32 normalize_bytes(u32 w) {
  w |= w >> 4;
  w |= w >> 2;
  w |= w >> 1;
  return w & 0x01010101u;
}

/// Bytes xs .. xs + 3 of row y of the plane at `base` of `img` (byte j of the word: xs + j), each
/// 0 or 1; bytes outside the image read `outside` (0 or 1). `words`: rows start on 4-byte boundaries,
/// so interior words are one or two aligned 32-bit loads and a funnel shift.
__device__ __forceinline__ u32 load_word(const u8* img, bool words, i64 rows, i64 cols, i64 base, i64 y, i64 xs,
                                         u32 outside) {
  if (y < 0 || y >= rows) return outside * 0x01010101u;
  const u8* row = img + base + y * cols;
  if (xs >= 0 && xs + 3 < cols) {
    if (words) {
      const i64 a = xs & ~static_cast<i64>(3);
      const int sh = static_cast<int>(xs - a);
      const u32 lo = __ldg(reinterpret_cast<const u32*>(row + a));
      // With sh > 0 the next word starts at a + 4 <= xs + 3 < cols and, cols being a multiple of
      // 4, ends inside the row.
      if (sh == 0) return normalize_bytes(lo);
      const u32 hi = __ldg(reinterpret_cast<const u32*>(row + a + 4));
      return normalize_bytes(__funnelshift_r(lo, hi, 8 * sh));
    }
    const u32 w = static_cast<u32>(__ldg(row + xs)) | (static_cast<u32>(__ldg(row + xs + 1)) << 8) |
                  (static_cast<u32>(__ldg(row + xs + 2)) << 16) | (static_cast<u32>(__ldg(row + xs + 3)) << 24);
    return normalize_bytes(w);
  }
  u32 w = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const i64 x = xs + j;
    const u32 b = (x >= 0 && x < cols) ? (__ldg(row + x) != 0 ? 1u : 0u) : outside;
    w |= b << (8 * j);
  }
  return w;
}

/// The plane path: each thread computes 4 adjacent bytes of a row (one 32-bit word) for 4 rows, as
/// the AND (erosion) or OR (dilation) over the structure's points of the input word shifted by the
/// point's offsets: bytes hold 0 or 1, so one 32-bit AND / OR combines 4 outputs. Interior words are
/// read with aligned 32-bit loads (two and a funnel shift when the offset is not a multiple of 4),
/// which the L1 cache serves for the neighbouring points and rows; words at the image's edges are
/// assembled bytewise with the border value. The loop over the points stops once every word is
/// decided (all 0 for the erosion, all 1 for the dilation).
__global__ void __launch_bounds__(256) plane_kernel(const __grid_constant__ plane_params p) {
  if (p.prev != nullptr && *p.prev == 0) return;  // uniform across the grid
  constexpr int R = rows_per_thread;
  const i64 base = static_cast<i64>(blockIdx.z) * p.rows * p.cols;
  const i64 xw = (static_cast<i64>(blockIdx.x) * 32 + threadIdx.x) * 4;
  const i64 yb = (static_cast<i64>(blockIdx.y) * 8 + threadIdx.y) * R;
  const u32 all = 0x01010101u;
  const bool active = xw < p.cols && yb < p.rows;
  int any = 0;
  if (active) {
    u32 acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = p.use_or ? 0u : all;
    for (int q = 0; q < p.points; ++q) {
      const int dy = p.dy[q], dx = p.dx[q];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const u32 w = load_word(p.in, p.in_words, p.rows, p.cols, base, yb + r + dy, xw + dx, p.border);
        acc[r] = p.use_or ? (acc[r] | w) : (acc[r] & w);
      }
      if (p.use_or ? ((acc[0] & acc[1] & acc[2] & acc[3]) == all) : ((acc[0] | acc[1] | acc[2] | acc[3]) == 0u))
        break;
    }
    const i64 nbytes = p.cols - xw < 4 ? p.cols - xw : 4;
    const u32 valid = nbytes == 4 ? 0xffffffffu : ((1u << (8 * nbytes)) - 1u);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const i64 y = yb + r;
      if (y >= p.rows) break;
      const u32 centre = load_word(p.in, p.in_words, p.rows, p.cols, base, y, xw, 0u);
      u32 res = acc[r];
      if (p.mask != nullptr) {
        const u32 m = load_word(p.mask, p.mask_words, p.rows, p.cols, base, y, xw, 0u) * 0xffu;  // 0x00 / 0xff
        res = (res & m) | (centre & ~m);
      }
      any |= ((res ^ centre) & valid) != 0u;
      u8* dst = p.out + base + y * p.cols + xw;
      if (p.out_words && nbytes == 4) {
        *reinterpret_cast<u32*>(dst) = res;
      } else {
        for (int j = 0; j < nbytes; ++j) dst[j] = static_cast<u8>((res >> (8 * j)) & 0xffu);
      }
    }
  }
  if (p.changed != nullptr) {
    const int th = threadIdx.y * 32 + threadIdx.x;
    if (__syncthreads_or(any) && th == 0) *p.changed = 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Fused passes (temporal blocking): one launch performs `passes` consecutive passes of the plane
// path on a tile held in shared memory.
//
// Tile: fused_tile_rows rows x fused_tile_words 32-bit words (4 bytes of 0/1 each), loaded with a
// halo of hy = passes * RY rows and hw = ceil(passes * RX / 4) words on each side (RY, RX: the
// structure's largest |offset| along the rows / columns; RX at least 1), so that the block writes
// (fused_tile_rows - 2 hy) rows x (fused_tile_words - 2 hw) words. Pass j (1-based) computes rows
// j*RY .. fused_tile_rows - j*RY - 1 and every word of them: a byte at distance >= j*R from the
// tile's edge (in rows: j*RY, in bytes: j*RX) reads only bytes at distance >= (j-1)*R, which pass
// j - 1 computed exactly; bytes nearer the edge hold values that no byte of the output depends on.
// Words beyond the tile's sides read the zero padding of each shared row (fused_pad words).
// Elements outside the image hold the border value from the load on and keep it: their "mask" is
// 0 (res = (acc & M) | (centre & ~M) with M = user mask & inside-image), so they are never
// computed. The dilation (OR) is run as an erosion of the complemented image (De Morgan: bytes and
// border complemented on load, the result complemented on store), so the kernel only ANDs.
// The last pass writes its rows of the output region straight to global memory.
//
// Why: 20 passes of binary_opening(iterations=10) as 20 launches of plane_kernel cost 20 x (~15-25
// us) plus the host cost of the calls, more than the 10 single erosions (~25-45 us each with the
// host overhead) that the operation should not exceed. Fused, a pass costs ~45 integer instructions
// per 2 words (ALU bound, ~7 us per pass on 4096^2 on the H200) and the image crosses global memory
// once per launch (~35 MB, ~10 us) instead of once per pass.

constexpr int fused_max_passes = 8;   // passes per launch with radii <= 1 (4 with a radius of 2)
constexpr int fused_tile_words = 64;   // words per tile row: 2 per lane of a warp
constexpr int fused_tile_rows = 96;    // tile rows: 12 per warp of the 32 x 8 block
constexpr int fused_pad = 2;           // zero words before and after each shared row (8-byte aligned)
constexpr int fused_stride = fused_tile_words + 2 * fused_pad;
constexpr int fused_buf_words = fused_stride * fused_tile_rows;
constexpr int fused_mask_words = fused_tile_words * fused_tile_rows;
constexpr std::size_t fused_smem_plain = sizeof(u32) * 2 * fused_buf_words;
constexpr std::size_t fused_smem_mask = fused_smem_plain + sizeof(u32) * fused_mask_words;
constexpr u32 fused_square = 0x1ffu;  // bits of the 3 x 3 square (RY = RX = 1)
constexpr u32 fused_cross = 0x0bau;   // bits of the 3 x 3 cross: (-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)

struct fused_params {
  const u8* in;
  u8* out;
  const u8* mask;
  i64 rows;          // rows of a plane (all planes' rows together when RY == 0: they do not interact)
  i64 cols;
  int passes;        // passes of this launch (1 .. fused_max_passes)
  int halo_rows;     // passes * RY
  int halo_words;    // ceil(passes * RX / 4)
  u32 bits;          // structure: bit (dy + RY) * (2 RX + 1) + (dx + RX) for each point (dy, dx)
  u32 flip;          // 0x01010101 for the dilation (complemented domain), else 0
  u32 border;        // border value (0 or 1, not complemented)
  bool in_words;     // as plane_params
  bool out_words;
  bool mask_words;
};

/// The word at byte offset dx (|dx| < 4) from the word c, whose neighbours are l (before) and r.
template <int DX>
__device__ __forceinline__ u32 shifted(u32 l, u32 c, u32 r) {
  if constexpr (DX == 0) return c;
  else if constexpr (DX > 0) return __funnelshift_r(c, r, 8 * DX);
  else return __funnelshift_r(l, c, 8 * (4 + DX));
}

/// BITS: the structure's points known at compile time (the 3 x 3 cross and square, which let the
/// compiler merge the ANDs into 3-input operations), 0: read from p.bits.
template <int RY, int RX, u32 BITS>
__global__ void __launch_bounds__(256) fused_kernel(const __grid_constant__ fused_params p) {
  extern __shared__ u32 fused_smem[];
  constexpr int S = fused_stride, TH = fused_tile_rows, TW = fused_tile_words;
  constexpr int NX = 2 * RX + 1;
  u32* const buf0 = fused_smem;
  u32* const buf1 = fused_smem + fused_buf_words;
  u32* const mbuf = fused_smem + 2 * fused_buf_words;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
  const int ow = TW - 2 * p.halo_words;  // output words of the block
  const int oh = TH - 2 * p.halo_rows;   // output rows of the block
  const i64 base = static_cast<i64>(blockIdx.z) * p.rows * p.cols;
  const i64 x0 = (static_cast<i64>(blockIdx.x) * ow - p.halo_words) * 4;  // image column of tile byte 0
  const i64 y0 = static_cast<i64>(blockIdx.y) * oh - p.halo_rows;         // image row of tile row 0
  const bool has_mask = p.mask != nullptr;
  const u32 bits = BITS != 0 ? BITS : p.bits;

  for (int r = tid; r < TH; r += 256) {
#pragma unroll
    for (int e = 0; e < fused_pad; ++e) {
      buf0[r * S + e] = 0u;
      buf1[r * S + e] = 0u;
      buf0[r * S + S - 1 - e] = 0u;
      buf1[r * S + S - 1 - e] = 0u;
    }
  }
  for (int i = tid; i < TW * TH; i += 256) {
    const int r = i / TW, w = i % TW;
    const i64 y = y0 + r, xs = x0 + 4 * w;
    buf0[r * S + fused_pad + w] = load_word(p.in, p.in_words, p.rows, p.cols, base, y, xs, p.border) ^ p.flip;
    if (has_mask) mbuf[r * TW + w] = load_word(p.mask, p.mask_words, p.rows, p.cols, base, y, xs, 0u) * 0xffu;
  }
  // This lane's words 2 tx and 2 tx + 1: 0xff for each byte inside the image's columns.
  u32 colm[2];
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    const i64 xs = x0 + 4 * (2 * tx + e);
    u32 m = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) m |= (xs + j >= 0 && xs + j < p.cols) ? (0xffu << (8 * j)) : 0u;
    colm[e] = m;
  }
  const u32 all = 0x01010101u;
  __syncthreads();

  const u32* src = buf0;
  u32* dst = buf1;
  for (int j = 1; j <= p.passes; ++j) {
    const bool last = j == p.passes;
    for (int r = j * RY + ty; r < TH - j * RY; r += 8) {
      u32 a0 = all, a1 = all, c0 = 0, c1 = 0;
#pragma unroll
      for (int dy = -RY; dy <= RY; ++dy) {
        const u32* row = src + (r + dy) * S + fused_pad + 2 * tx;
        const uint2 c = *reinterpret_cast<const uint2*>(row);
        const u32 l = row[-1], rr = row[2];
        if (dy == 0) {
          c0 = c.x;
          c1 = c.y;
        }
        const int b0 = (dy + RY) * NX + RX;  // bit of (dy, 0)
        if constexpr (RX >= 2) {
          if ((bits >> (b0 - 2)) & 1u) { a0 &= shifted<-2>(l, c.x, c.y); a1 &= shifted<-2>(c.x, c.y, rr); }
        }
        if ((bits >> (b0 - 1)) & 1u) { a0 &= shifted<-1>(l, c.x, c.y); a1 &= shifted<-1>(c.x, c.y, rr); }
        if ((bits >> b0) & 1u) { a0 &= c.x; a1 &= c.y; }
        if ((bits >> (b0 + 1)) & 1u) { a0 &= shifted<1>(l, c.x, c.y); a1 &= shifted<1>(c.x, c.y, rr); }
        if constexpr (RX >= 2) {
          if ((bits >> (b0 + 2)) & 1u) { a0 &= shifted<2>(l, c.x, c.y); a1 &= shifted<2>(c.x, c.y, rr); }
        }
      }
      const i64 y = y0 + r;
      const u32 rowm = (y >= 0 && y < p.rows) ? 0xffffffffu : 0u;
      u32 m0 = colm[0] & rowm, m1 = colm[1] & rowm;
      if (has_mask) {
        const uint2 mk = *reinterpret_cast<const uint2*>(mbuf + r * TW + 2 * tx);
        m0 &= mk.x;
        m1 &= mk.y;
      }
      const u32 res0 = (a0 & m0) | (c0 & ~m0);
      const u32 res1 = (a1 & m1) | (c1 & ~m1);
      if (!last) {
        *reinterpret_cast<uint2*>(dst + r * S + fused_pad + 2 * tx) = make_uint2(res0, res1);
      } else if (rowm != 0u) {
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int w = 2 * tx + e;
          if (w < p.halo_words || w >= TW - p.halo_words) continue;
          const i64 xs = x0 + 4 * w;  // >= 0: w >= halo_words
          if (xs >= p.cols) continue;
          const u32 v = (e == 0 ? res0 : res1) ^ p.flip;
          u8* d = p.out + base + y * p.cols + xs;
          const i64 nbytes = p.cols - xs < 4 ? p.cols - xs : 4;
          if (p.out_words && nbytes == 4) {
            *reinterpret_cast<u32*>(d) = v;
          } else {
            for (int b = 0; b < nbytes; ++b) d[b] = static_cast<u8>((v >> (8 * b)) & 0xffu);
          }
        }
      }
    }
    if (last) break;
    __syncthreads();
    src = dst;
    dst = dst == buf1 ? buf0 : buf1;
  }
}

/// The fused path's geometry: radii and the effective rows / planes; false when it does not apply.
struct fused_geometry {
  int ry = 0, rx = 1;
  i64 rows = 1, cols = 1, planes = 1;
  int max_passes = 0;
};

struct generic_params {
  const u8* in;
  u8* out;
  const u8* mask;
  const i64* offsets;  // points * (ndim + 1)
  binary_geometry g;
  bool use_or;
  u8 border;
  int* changed;
  const int* prev;
};

template <class I>
__global__ void __launch_bounds__(256) generic_kernel(const __grid_constant__ generic_params p) {
  if (p.prev != nullptr && *p.prev == 0) return;
  const int nd = p.g.ndim;
  const int stride_pts = nd + 1;
  int any = 0;
  const I size = static_cast<I>(p.g.size);
  for (I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; i < size;
       i += static_cast<I>(gridDim.x) * blockDim.x) {
    const u8 v = p.in[i];
    u8 o = v;
    if (p.mask == nullptr || p.mask[i] != 0) {
      I c[binary_max_axes];
      I rem = i;
      bool interior = true;
      for (int d = nd - 1; d >= 0; --d) {
        const I n = static_cast<I>(p.g.shape[d]);
        c[d] = rem % n;
        rem /= n;
        if (c[d] + p.g.lo[d] < 0 || c[d] + p.g.hi[d] >= n) interior = false;
      }
      o = p.use_or ? 0 : 1;
      for (int q = 0; q < p.g.points; ++q) {
        const i64* e = p.offsets + static_cast<i64>(q) * stride_pts;
        u8 w;
        if (interior) {
          w = p.in[static_cast<i64>(i) + e[0]];
        } else {
          bool inside = true;
          for (int d = 0; d < nd; ++d) {
            const i64 cc = static_cast<i64>(c[d]) + e[1 + d];
            if (cc < 0 || cc >= p.g.shape[d]) { inside = false; break; }
          }
          w = inside ? p.in[static_cast<i64>(i) + e[0]] : p.border;
        }
        if (p.use_or ? (w != 0) : (w == 0)) { o = p.use_or ? 1 : 0; break; }
      }
    }
    p.out[i] = o;
    any |= (o != v);
  }
  if (p.changed != nullptr) {
    if (__syncthreads_or(any) && threadIdx.x == 0) *p.changed = 1;
  }
}

__global__ void and_not_kernel(const u8* a, const u8* b, u8* out, i64 n) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    out[i] = (a[i] != 0 && b[i] == 0) ? 1 : 0;
}

__global__ void not_kernel(const u8* in, u8* out, i64 n) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    out[i] = in[i] == 0 ? 1 : 0;
}

fused_geometry fused_geom(const binary_geometry& g) {
  fused_geometry f;
  if (g.size == 0 || !binary_plane_fits(g)) return f;
  const int nd = g.ndim, ax = nd - 1, ay = nd - 2;
  const i64 cols = g.shape[ax];
  const i64 rows = nd >= 2 ? g.shape[ay] : 1;
  const i64 planes = g.size / (rows * cols);
  i64 ry = 0, rx = 0;
  if (g.points > 0) {
    rx = -g.lo[ax] > g.hi[ax] ? -g.lo[ax] : g.hi[ax];
    if (nd >= 2) ry = -g.lo[ay] > g.hi[ay] ? -g.lo[ay] : g.hi[ay];
  }
  if (ry < 0 || rx < 0 || ry > 2 || rx > 2) return f;
  f.ry = static_cast<int>(ry);
  f.rx = rx < 1 ? 1 : static_cast<int>(rx);
  f.cols = cols;
  f.rows = f.ry == 0 ? rows * planes : rows;  // without a row extent all rows are independent
  f.planes = f.ry == 0 ? 1 : planes;
  const int mp = (f.ry == 2 || f.rx == 2) ? fused_max_passes / 2 : fused_max_passes;
  // The grid at the smallest output tile (most passes).
  const i64 hw = (static_cast<i64>(mp) * f.rx + 3) / 4, hy = static_cast<i64>(mp) * f.ry;
  const i64 gy = (f.rows + (fused_tile_rows - 2 * hy) - 1) / (fused_tile_rows - 2 * hy);
  const i64 gx = (cols + 4 * (fused_tile_words - 2 * hw) - 1) / (4 * (fused_tile_words - 2 * hw));
  if (gy > 65535 || f.planes > 65535 || gx > 0x7fffffff) return f;
  f.max_passes = mp;
  return f;
}

template <int RY, int RX, u32 BITS = 0>
void launch_fused(const fused_params& fp, dim3 grid, std::size_t smem, cudaStream_t stream) {
  // The dynamic shared memory exceeds the default 48 KiB: raise the limit once per device.
  static std::atomic<std::uint64_t> ready{0};
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  const std::uint64_t bit = dev < 64 ? std::uint64_t{1} << dev : 0;
  if (bit == 0 || (ready.load(std::memory_order_relaxed) & bit) == 0) {
    CUSCI_CUDA_TRY(cudaFuncSetAttribute(fused_kernel<RY, RX, BITS>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(fused_smem_mask)));
    ready.fetch_or(bit, std::memory_order_relaxed);
  }
  fused_kernel<RY, RX, BITS><<<grid, dim3(32, 8), smem, stream>>>(fp);
  CUSCI_CHECK_LAUNCH();
}

unsigned grid_for(i64 n) {
  i64 b = (n + 255) / 256;
  if (b > 132 * 32) b = 132 * 32;  // grid-stride beyond a few waves of the H200's 132 SMs
  return static_cast<unsigned>(b < 1 ? 1 : b);
}

}  // namespace

bool binary_plane_fits(const binary_geometry& g) {
  const int nd = g.ndim;
  bool plane = nd >= 1 && g.points <= max_plane_points;
  for (int d = 0; d + 2 < nd && plane; ++d) plane = g.lo[d] == 0 && g.hi[d] == 0;
  if (!plane) return false;
  const int ax = nd - 1, ay = nd - 2;
  const i64 cols = g.shape[ax];
  const i64 rows = nd >= 2 ? g.shape[ay] : 1;
  const i64 lo_x = g.points ? g.lo[ax] : 0, hi_x = g.points ? g.hi[ax] : 0;
  const i64 lo_y = (g.points && nd >= 2) ? g.lo[ay] : 0, hi_y = (g.points && nd >= 2) ? g.hi[ay] : 0;
  const i64 planes = g.size / (rows * cols);
  const i64 gy = (rows + tile_rows - 1) / tile_rows;
  const i64 gx = (cols + tile_cols - 1) / tile_cols;
  return lo_x >= -max_offset && hi_x <= max_offset && lo_y >= -max_offset && hi_y <= max_offset && planes <= 65535 &&
         gy <= 65535 && gx <= 0x7fffffff;
}

void binary_pass(const u8* in, u8* out, const u8* mask, const binary_geometry& g, const i64* host_offsets,
                 const i64* offsets, bool use_or, bool border, int* changed, const int* prev) {
  if (g.size == 0) return;
  cudaStream_t stream = get_current_stream();
  const int nd = g.ndim;
  const u8 bv = static_cast<u8>(border ? 1 : 0);
  if (binary_plane_fits(g)) {
    {
      const int ax = nd - 1, ay = nd - 2;
      const i64 cols = g.shape[ax];
      const i64 rows = nd >= 2 ? g.shape[ay] : 1;
      const i64 planes = g.size / (rows * cols);
      const i64 gy = (rows + tile_rows - 1) / tile_rows;
      const i64 gx = (cols + tile_cols - 1) / tile_cols;
      plane_params pp{};
      pp.in = in;
      pp.out = out;
      pp.mask = mask;
      pp.rows = rows;
      pp.cols = cols;
      pp.points = g.points;
      pp.use_or = use_or;
      pp.border = bv;
      pp.out_words = cols % 4 == 0 && reinterpret_cast<std::uintptr_t>(out) % 4 == 0;
      pp.in_words = cols % 4 == 0 && reinterpret_cast<std::uintptr_t>(in) % 4 == 0;
      pp.mask_words = cols % 4 == 0 && reinterpret_cast<std::uintptr_t>(mask) % 4 == 0;
      pp.changed = changed;
      pp.prev = prev;
      for (int q = 0; q < g.points; ++q) {
        const i64* e = host_offsets + static_cast<i64>(q) * (nd + 1);
        pp.dx[q] = static_cast<signed char>(e[1 + ax]);
        pp.dy[q] = static_cast<signed char>(nd >= 2 ? e[1 + ay] : 0);
      }
      const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(planes));
      plane_kernel<<<grid, dim3(32, 8), 0, stream>>>(pp);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  }
  CUSCI_EXPECTS(offsets != nullptr, runtime_error,
                "cusci::ndimage: internal error: the generic binary pass needs the device offset table");
  generic_params gp{in, out, mask, offsets, g, use_or, bv, changed, prev};
  const unsigned grid = grid_for(g.size);
  if (g.size < (i64{1} << 31)) generic_kernel<std::int32_t><<<grid, 256, 0, stream>>>(gp);
  else generic_kernel<i64><<<grid, 256, 0, stream>>>(gp);
  CUSCI_CHECK_LAUNCH();
}

int binary_fused_max_passes(const binary_geometry& g) { return fused_geom(g).max_passes; }

void binary_fused_passes(const u8* in, u8* out, const u8* mask, const binary_geometry& g, const i64* host_offsets,
                         bool use_or, bool border, int passes) {
  const fused_geometry f = fused_geom(g);
  CUSCI_EXPECTS(passes >= 1 && passes <= f.max_passes, runtime_error,
                "cusci::ndimage: internal error: fused binary passes outside the fused path's limits");
  const int nd = g.ndim, ax = nd - 1, ay = nd - 2;
  fused_params fp{};
  fp.in = in;
  fp.out = out;
  fp.mask = mask;
  fp.rows = f.rows;
  fp.cols = f.cols;
  fp.passes = passes;
  fp.halo_rows = passes * f.ry;
  fp.halo_words = (passes * f.rx + 3) / 4;
  fp.flip = use_or ? 0x01010101u : 0u;
  fp.border = border ? 1u : 0u;
  fp.in_words = f.cols % 4 == 0 && reinterpret_cast<std::uintptr_t>(in) % 4 == 0;
  fp.out_words = f.cols % 4 == 0 && reinterpret_cast<std::uintptr_t>(out) % 4 == 0;
  fp.mask_words = f.cols % 4 == 0 && reinterpret_cast<std::uintptr_t>(mask) % 4 == 0;
  u32 bits = 0;
  for (int q = 0; q < g.points; ++q) {
    const i64* e = host_offsets + static_cast<i64>(q) * (nd + 1);
    const i64 dx = e[1 + ax];
    const i64 dy = nd >= 2 ? e[1 + ay] : 0;
    bits |= u32{1} << ((dy + f.ry) * (2 * f.rx + 1) + (dx + f.rx));
  }
  fp.bits = bits;
  const i64 ow = fused_tile_words - 2 * fp.halo_words, oh = fused_tile_rows - 2 * fp.halo_rows;
  const dim3 grid(static_cast<unsigned>((f.cols + 4 * ow - 1) / (4 * ow)),
                  static_cast<unsigned>((f.rows + oh - 1) / oh), static_cast<unsigned>(f.planes));
  const std::size_t smem = mask != nullptr ? fused_smem_mask : fused_smem_plain;
  cudaStream_t stream = get_current_stream();
  switch (f.ry * 4 + f.rx) {
    case 0 * 4 + 1: launch_fused<0, 1>(fp, grid, smem, stream); break;
    case 0 * 4 + 2: launch_fused<0, 2>(fp, grid, smem, stream); break;
    case 1 * 4 + 1:
      if (bits == fused_square) launch_fused<1, 1, fused_square>(fp, grid, smem, stream);
      else if (bits == fused_cross) launch_fused<1, 1, fused_cross>(fp, grid, smem, stream);
      else launch_fused<1, 1>(fp, grid, smem, stream);
      break;
    case 1 * 4 + 2: launch_fused<1, 2>(fp, grid, smem, stream); break;
    case 2 * 4 + 1: launch_fused<2, 1>(fp, grid, smem, stream); break;
    default: launch_fused<2, 2>(fp, grid, smem, stream); break;
  }
}

void bytes_and_not(const u8* a, const u8* b, u8* out, i64 n) {
  if (n == 0) return;
  and_not_kernel<<<grid_for(n), 256, 0, get_current_stream()>>>(a, b, out, n);
  CUSCI_CHECK_LAUNCH();
}

void bytes_not(const u8* in, u8* out, i64 n) {
  if (n == 0) return;
  not_kernel<<<grid_for(n), 256, 0, get_current_stream()>>>(in, out, n);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::ndimage::detail
