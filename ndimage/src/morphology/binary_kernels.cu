// Device passes of cusci::ndimage's binary morphology (SciPy 1.18.1's NI_BinaryErosion,
// scipy/ndimage/src/ni_morphology.c, re-derived here as a data-parallel pass).
//
// One pass computes, for every element i of a C-contiguous 0/1 byte image, the AND (erosion) or OR
// (dilation, whose structure binary.cpp has already mirrored) of in[i + d] over the structure's
// points d, elements outside the image reading the border value; where the mask is 0 the element
// keeps in[i]. Iterations are passes between two buffers (binary.cpp).
//
// Two kernels:
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
// Both kernels report "changed" with one __syncthreads_or per block and one store by thread 0, and
// return at once when the previous pass reported no change (iterations < 1: binary.cpp enqueues
// batches of passes without reading the flags back in between).

#include <cuda_runtime.h>

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
