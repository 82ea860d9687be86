// label's and find_objects' kernels.
//
// label: union-find (Playne & Hawick, "A New Algorithm for Parallel Connected-Component Labelling on
// GPUs", IEEE TPDS 2018). Every foreground element starts as its own root; elements unite with their
// foreground neighbours of the structure's backward half (offsets before the centre in C order) by
// linking the larger root under the smaller with atomicMin. Invariant: a parent always has a smaller
// flat index than its child and lies in the same feature, so the final root of a feature is its
// smallest flat index, i.e. its first element in a C-order scan. After flattening, roots are numbered
// by an exclusive scan over the root flags: feature k is the k-th root in C order, which is SciPy's
// numbering (first appearance in a C-order scan), not merely an equivalent labelling.
//
// Two merge paths:
// - Tiled (ndim >= 2 and a structure without steps along the leading axes, so that each plane of the
//   last two axes is labelled on its own: every 2-D structure, and N-D structures that only link
//   within a plane). tile_label_kernel gives each block a 32 x 32 tile of one plane: it reads the
//   input (init fused, any dtype), finds the row runs of foreground with a warp ballot (a warp is a
//   tile row), starts every element linked to its run's first element when the structure links
//   left neighbours, unites the upward neighbours inside the tile in shared memory (shared-memory
//   atomicMin, tile-local index = row * 32 + column, which orders the elements of a tile as their
//   flat indices do), flattens in shared memory and writes the global flat index of each element's
//   tile root (-1 for background). tile_border_kernel then unites, on the global array, only the
//   elements with a backward neighbour in another tile (a tile's top row, left column and, for the
//   up-right step, right column). Unions implied by the left neighbour's unions are skipped (see
//   implied_by_left): on smooth images only run starts touch global memory.
// - Global (1-D inputs, structures with steps along leading axes, plane sides within 64 of 2**31):
//   init_kernel, then merge_kernel unites every element with its backward neighbours on the global
//   array.
// Both end with flatten (each element pointed at its root, roots flagged; it never re-points another
// thread's element with a plain store, see flatten_kernel), a CUB exclusive scan of the flags and
// relabel (ids + 1).
//
// Performance (H200, 4096**2 bool image; one int32 pass over it is about 16 us at the copy roofline):
// the global path measured merge_kernel 0.97 ms (smooth blobs, 4-connectivity) to 2.76 ms (random 50%
// fill, 8-connectivity) and flatten 0.16 to 1.05 ms (long chains of global links), for init 25 us,
// scan 45 us and relabel 37 us; most of merge's cost is global atomics and finds inside features. The
// tiled path keeps those inside shared memory: expected tile_label_kernel about 25-40 us (one read of
// the input and one write of the parents plus shared-memory work), tile_border_kernel about 10-30 us
// (3 of 32 elements per tile, most skipped on blobs), flatten about 30 us (trees of tile roots are
// short), so about 0.15-0.2 ms for the whole call with scan and relabel (target: <= 0.27 ms on blobs,
// <= 0.46 ms on random 8-connectivity images). Finds halve the paths they walk (find_root_halving):
// without that, long runs form chains that every later find walks again. The structure's steps travel
// in the kernel parameters (no host-to-device copy, which would wait for the stream).

#include <cub/device/device_scan.cuh>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <vector>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "measurements/measure_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

constexpr int kBlock = 256;
constexpr int kMaxDims = 32;

unsigned grid_for(std::int64_t n) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(blocks, 132 * 16)));
}

#define CUSCI_GRID_LOOP(i, n)                                                                  \
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<long long>(gridDim.x) * blockDim.x)

struct geometry {
  long long n[kMaxDims];       // shape
  long long stride[kMaxDims];  // C-order strides in elements
  int ndim;
  int n_offsets;
};

template <class T>
__device__ __forceinline__ bool nonzero(T v) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(v) != 0.0f || __hisnan(v);
  else if constexpr (std::is_floating_point_v<T>) return v != T(0) || v != v;
  else return v != T(0);
}

template <class T>
__global__ void init_kernel(const T* __restrict__ in, long long n, int* parent) {
  CUSCI_GRID_LOOP(i, n) parent[i] = nonzero(in[i]) ? static_cast<int>(i) : -1;
}

/// find_root with path halving (each visited element re-pointed to its grandparent): the merge's
/// chains stay short (without it a run of n foreground elements along a row becomes a chain of n
/// links that every later find walks). Only elements that are no longer roots are written, always
/// with an ancestor, so every element stays in its feature's tree; a link that unite's atomicMin made
/// on an element that had stopped being a root may be overwritten, and unite's retry (old != b)
/// makes that union again through the roots.
__device__ __forceinline__ int find_root_halving(int* parent, int x) {
  volatile int* p = parent;
  int y = p[x];
  while (y != x) {
    const int z = p[y];
    if (z != y) p[x] = z;
    x = z == y ? y : z;
    y = p[x];
  }
  return x;
}

__device__ __forceinline__ void unite(int* parent, int a, int b) {
  bool done = false;
  while (!done) {
    a = find_root_halving(parent, a);
    b = find_root_halving(parent, b);
    if (a < b) {
      const int old = atomicMin(parent + b, a);
      done = old == b;
      b = old;
    } else if (b < a) {
      const int old = atomicMin(parent + a, b);
      done = old == a;
      a = old;
    } else {
      done = true;
    }
  }
}

/// deltas: [n_offsets, ndim] coordinate steps of the structure's backward half. Sizes are below
/// 2**31 (label refuses larger inputs), so coordinates use 32-bit arithmetic (64-bit division costs
/// several times more on the GPU).
/// The structure's steps passed by value when they fit (the usual structures: up to 3-D full), so
/// that no host-to-device copy (which would wait for the stream) precedes the merge.
struct delta_list {
  int v[96];
};

__global__ void merge_kernel(int* parent, int n, const __grid_constant__ geometry g,
                             const __grid_constant__ delta_list dl, const long long* __restrict__ deltas) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (parent[i] < 0) continue;
    int c[kMaxDims];
    int rem = i;
    for (int d = g.ndim - 1; d >= 0; --d) {
      const int nd = static_cast<int>(g.n[d]);
      c[d] = rem % nd;
      rem /= nd;
    }
    for (int k = 0; k < g.n_offsets; ++k) {
      int q = i;
      bool inside = true;
      for (int d = 0; d < g.ndim; ++d) {
        const int step = deltas != nullptr ? static_cast<int>(deltas[k * g.ndim + d]) : dl.v[k * g.ndim + d];
        const int cd = c[d] + step;
        if (cd < 0 || cd >= static_cast<int>(g.n[d])) {
          inside = false;
          break;
        }
        q += step * static_cast<int>(g.stride[d]);
      }
      if (!inside) continue;
      const int pq = parent[q];
      // Background, or already linked to the same element (common inside a feature): nothing to do.
      if (pq < 0 || pq == parent[i]) continue;
      unite(parent, i, q);
    }
  }
}

// ---- Tiled path ---------------------------------------------------------------------------------

constexpr int kTileW = 32;                         // a tile row is one warp
constexpr int kTileH = 32;
constexpr int kTileThreadRows = 8;                 // block: kTileW x kTileThreadRows threads
constexpr int kTileRowsPerThread = kTileH / kTileThreadRows;
constexpr int kBorderTilesPerBlock = 4;            // border kernel: one warp per tile
constexpr int kBorderSlots = kTileW + 2 * (kTileH - 1);  // top row, left column, right column
static_assert(kTileW == 32, "a tile row must be one warp (ballot masks, 5-bit column of a local index)");
static_assert(kTileH % kTileThreadRows == 0, "every thread of a tile block handles the same number of rows");

// The in-plane steps of the structure's backward half, as bits: (row step, column step).
constexpr int kUpLeft = 1;   // (-1, -1)
constexpr int kUp = 2;       // (-1, 0)
constexpr int kUpRight = 4;  // (-1, +1)
constexpr int kLeft = 8;     // (0, -1)
constexpr int kUpAny = kUpLeft | kUp | kUpRight;

__host__ __device__ constexpr int up_bit(int dx) { return dx < 0 ? kUpLeft : dx == 0 ? kUp : dx == 1 ? kUpRight : 0; }

/// Planes of the last two axes cut into kTileH x kTileW tiles (edge tiles partial), numbered with the
/// column of tiles fastest, then the row of tiles, then the plane. All counts are below 2**31.
struct tile_grid {
  int h, w;          // plane shape: rows, columns
  int tiles_x, tiles_y;
  int ntiles;
};

struct tile_pos {
  int base;  // flat index of the plane's first element
  int y0, x0;
};

__device__ __forceinline__ tile_pos tile_at(const tile_grid& tg, int t) {
  const int tx = t % tg.tiles_x;
  const int rest = t / tg.tiles_x;
  const int ty = rest % tg.tiles_y;
  const int plane = rest / tg.tiles_y;
  return {plane * tg.h * tg.w, ty * kTileH, tx * kTileW};  // plane * h * w < n < 2**31
}

/// Whether the union of a foreground element e (column gx) with its foreground neighbour q = e +
/// (-1, dx) (column qx = gx + dx) is implied by unions that e's left neighbour L = e + (0, -1) makes,
/// so that e may skip it. Needs the left step in the structure, L in e's tile (gx not on a tile's
/// first column) and L foreground: then e and L share a row run of the tile and are linked by the
/// tile kernel. Rule A: q - L = (-1, dx + 1) is a step of the structure, so L unites with q itself.
/// Rule B: Lq = q + (0, -1) is foreground and in q's tile (qx not on a tile's first column), so L
/// unites with Lq by the same step and Lq shares q's row run. L's own union is made or, by the same
/// rules, implied by L's left neighbour: the chain ends at a tile's first column, where nothing is
/// skipped. The unions L makes are in the same kernel as e's (both inside the tile when q is, both
/// across tiles when q is not, since L and e share a tile).
__device__ __forceinline__ bool implied_by_left(int conn, int gx, int dx, bool left_fg, int qx, bool left_q_fg) {
  if (!(conn & kLeft) || (gx % kTileW) == 0 || !left_fg) return false;
  if (conn & up_bit(dx + 1)) return true;       // rule A
  return (qx % kTileW) != 0 && left_q_fg;       // rule B
}

/// One block per tile: reads the input (fused init), labels the tile in shared memory and writes
/// parent[i] = flat index of i's tile root (the tile's first element of i's feature-in-tile in C
/// order), -1 for background. conn: the in-plane steps (k* bits).
template <class T>
__global__ void __launch_bounds__(kTileW * kTileThreadRows)
    tile_label_kernel(const T* __restrict__ in, int* __restrict__ parent, const tile_grid tg, int conn) {
  __shared__ int s_par[kTileH * kTileW];
  __shared__ unsigned s_fg[kTileH];
  const tile_pos tp = tile_at(tg, static_cast<int>(blockIdx.x));
  const int c = static_cast<int>(threadIdx.x);
  const int gx = tp.x0 + c;
  const unsigned lanes_le = c == 31 ? 0xffffffffu : (2u << c) - 1u;
  // Phase 1: foreground flags (one ballot per tile row) and the initial links: every foreground
  // element to the first element of its row run when the structure links left neighbours (that run
  // is connected by those links alone), to itself otherwise. Outside the image: background.
  for (int k = 0; k < kTileRowsPerThread; ++k) {
    const int r = static_cast<int>(threadIdx.y) + k * kTileThreadRows;
    const int gy = tp.y0 + r;
    const bool fg = gx < tg.w && gy < tg.h && nonzero(in[tp.base + gy * tg.w + gx]);
    const unsigned m = __ballot_sync(0xffffffffu, fg);
    if (c == 0) s_fg[r] = m;
    int p = -1;
    if (fg) {
      if (conn & kLeft) {
        const unsigned starts = m & ~(m << 1);  // bit j: foreground with a background (or no) left neighbour
        p = r * kTileW + (31 - __clz(starts & lanes_le));
      } else {
        p = r * kTileW + c;
      }
    }
    s_par[r * kTileW + c] = p;
  }
  __syncthreads();
  // Phase 2: unions with the upward neighbours inside the tile (shared-memory atomicMin; local
  // indices order the tile's elements as their flat indices do).
  if (conn & kUpAny) {
    for (int k = 0; k < kTileRowsPerThread; ++k) {
      const int r = static_cast<int>(threadIdx.y) + k * kTileThreadRows;
      if (r == 0) continue;
      const unsigned m = s_fg[r];
      if (!((m >> c) & 1u)) continue;
      const unsigned mu = s_fg[r - 1];
      const bool left_fg = c > 0 && ((m >> (c - 1)) & 1u);
      for (int dx = -1; dx <= 1; ++dx) {
        if (!(conn & up_bit(dx))) continue;
        const int qc = c + dx;
        if (qc < 0 || qc >= kTileW || !((mu >> qc) & 1u)) continue;  // outside the tile, or background
        const bool left_q_fg = qc > 0 && ((mu >> (qc - 1)) & 1u);
        if (implied_by_left(conn, gx, dx, left_fg, tp.x0 + qc, left_q_fg)) continue;
        unite(s_par, r * kTileW + c, (r - 1) * kTileW + qc);
      }
    }
    __syncthreads();
  }
  // Phase 3: flatten in shared memory (no unions run now: halving only re-points elements to
  // ancestors) and write the global flat index of each element's tile root.
  for (int k = 0; k < kTileRowsPerThread; ++k) {
    const int r = static_cast<int>(threadIdx.y) + k * kTileThreadRows;
    const int gy = tp.y0 + r;
    if (gx >= tg.w || gy >= tg.h) continue;
    const int l = r * kTileW + c;
    int p = -1;
    if (s_par[l] >= 0) {
      const int root = find_root_halving(s_par, l);
      p = tp.base + (tp.y0 + root / kTileW) * tg.w + tp.x0 + root % kTileW;
    }
    parent[tp.base + gy * tg.w + gx] = p;
  }
}

/// One warp per tile: unites, on the global array, the foreground elements of the tile's border with
/// their foreground backward neighbours in other tiles. Only a tile's top row (any upward step), left
/// column (steps with column step -1) and right column (the up-right step) have such neighbours.
__global__ void __launch_bounds__(kTileW * kBorderTilesPerBlock)
    tile_border_kernel(int* parent, const tile_grid tg, int conn) {
  const int t = static_cast<int>(blockIdx.x) * kBorderTilesPerBlock + static_cast<int>(threadIdx.y);
  if (t >= tg.ntiles) return;
  const tile_pos tp = tile_at(tg, t);
  for (int s = static_cast<int>(threadIdx.x); s < kBorderSlots; s += kTileW) {
    int r, c;
    if (s < kTileW) {
      if (!(conn & kUpAny) && s != 0) continue;  // the corner (0, 0) is also on the left column
      r = 0;
      c = s;
    } else if (s < kTileW + kTileH - 1) {
      if (!(conn & (kUpLeft | kLeft))) continue;
      r = s - kTileW + 1;
      c = 0;
    } else {
      if (!(conn & kUpRight)) continue;
      r = s - (kTileW + kTileH - 1) + 1;
      c = kTileW - 1;
    }
    const int gy = tp.y0 + r, gx = tp.x0 + c;
    if (gy >= tg.h || gx >= tg.w) continue;
    const int e = tp.base + gy * tg.w + gx;
    const int pe = parent[e];
    if (pe < 0) continue;
    for (int o = 0; o < 4; ++o) {
      const int bit = 1 << o;
      if (!(conn & bit)) continue;
      const int dy = bit == kLeft ? 0 : -1;
      const int dx = bit == kLeft ? -1 : o - 1;
      const int ny = gy + dy, nx = gx + dx;
      if (ny < 0 || nx < 0 || nx >= tg.w) continue;                       // outside the plane
      if (ny >= tp.y0 && nx >= tp.x0 && nx < tp.x0 + kTileW) continue;     // same tile: done already
      const int q = e + dy * tg.w + dx;
      const int pq = parent[q];
      if (pq < 0) continue;
      if (dy < 0 && (conn & kLeft) && (gx % kTileW) != 0 &&
          implied_by_left(conn, gx, dx, parent[e - 1] >= 0, nx, (nx % kTileW) != 0 && parent[q - 1] >= 0))
        continue;
      if (pq == pe) continue;  // linked to the same element: same feature already
      unite(parent, pe, pq);
    }
  }
}

/// Points every foreground element at its root and flags the roots (no unions run now, so a root is
/// the smallest flat index of its feature). Elements of other threads met on the walk are shortened
/// with atomicMin (kCompress) or not at all, never with a plain store: a plain store of a stale
/// ancestor could land after that element's own thread had stored its root and leave it pointing at a
/// non-root, which relabel would number wrongly. atomicMin cannot raise an element above its root,
/// the set's minimum. The tiled path walks without writing (an element points at its tile root, tile
/// roots form short trees, and thousands of elements share each tile root: atomics on it would
/// contend); the global path's trees can be deep, so it shortens them as it walks.
template <bool kCompress>
__global__ void flatten_kernel(int* parent, long long n, int* flags) {
  CUSCI_GRID_LOOP(i, n) {
    const int p0 = parent[i];
    if (p0 < 0) {
      flags[i] = 0;
      continue;
    }
    volatile int* p = parent;
    int r = p0;
    int y = p[r];
    while (y != r) {
      if constexpr (kCompress) {
        const int z = p[y];
        if (z != y) atomicMin(parent + r, z);
        r = z == y ? y : z;
      } else {
        r = y;
      }
      y = p[r];
    }
    if (r != p0) parent[i] = r;
    flags[i] = r == static_cast<int>(i) ? 1 : 0;
  }
}

__global__ void relabel_kernel(const int* __restrict__ parent, const int* __restrict__ ids, long long n, int* out) {
  CUSCI_GRID_LOOP(i, n) {
    const int p = parent[i];
    out[i] = p < 0 ? 0 : ids[p] + 1;
  }
}

__global__ void count_kernel(const int* ids, const int* flags, long long n, long long* count) {
  *count = static_cast<long long>(ids[n - 1]) + flags[n - 1];
}

template <class L>
__global__ void bbox_kernel(const L* __restrict__ lab, long long n, long long max_label, geometry g, long long* bbox) {
  CUSCI_GRID_LOOP(i, n) {
    const long long l = static_cast<long long>(lab[i]);
    if (l < 1 || l > max_label) continue;
    long long rem = i;
    long long* b = bbox + (l - 1) * g.ndim * 2;
    for (int d = g.ndim - 1; d >= 0; --d) {
      const long long c = rem % g.n[d];
      rem /= g.n[d];
      // Skip the atomics when the box already holds c (most elements of a feature do).
      if (c < b[2 * d]) atomicMin(reinterpret_cast<long long*>(b + 2 * d), c);
      if (c > b[2 * d + 1]) atomicMax(reinterpret_cast<long long*>(b + 2 * d + 1), c);
    }
  }
}

__global__ void bbox_init_kernel(long long* bbox, long long count) {
  CUSCI_GRID_LOOP(i, count) bbox[i] = (i & 1) ? -1 : std::numeric_limits<long long>::max();
}

geometry geometry_of(const shape_t& shape, int n_offsets) {
  geometry g{};
  g.ndim = static_cast<int>(shape.size());
  CUSCI_EXPECTS(g.ndim <= kMaxDims, value_error, "cusci::ndimage: at most 32 dimensions");
  long long s = 1;
  for (int d = g.ndim - 1; d >= 0; --d) {
    g.n[d] = shape[d];
    g.stride[d] = s;
    s *= shape[d];
  }
  g.n_offsets = n_offsets;
  return g;
}

}  // namespace

std::int64_t label_pass(const ndarray& input, const std::int64_t* deltas, int n_offsets, ndarray& out) {
  const std::int64_t n = input.size();
  if (n == 0) return 0;
  cudaStream_t st = get_current_stream();
  int* parent = static_cast<int*>(out.data());
  const geometry g = geometry_of(input.shape(), n_offsets);
  // The tiled path applies when every step of the backward half lies in the plane of the last two
  // axes (leading steps 0): the planes are then labelled independently.
  bool tiled = g.ndim >= 2;
  int conn = 0;
  for (int k = 0; tiled && k < n_offsets; ++k) {
    const std::int64_t* o = deltas + static_cast<std::ptrdiff_t>(k) * g.ndim;
    for (int d = 0; d + 2 < g.ndim; ++d)
      if (o[d] != 0) tiled = false;
    const std::int64_t dy = o[g.ndim - 2], dx = o[g.ndim - 1];
    if (dy == -1 && dx >= -1 && dx <= 1) conn |= up_bit(static_cast<int>(dx));
    else if (dy == 0 && dx == -1) conn |= kLeft;
    else tiled = false;  // not a backward step
  }
  // Tile coordinates run up to a plane side + 31 in 32-bit arithmetic.
  constexpr long long kMaxSide = std::numeric_limits<int>::max() - 2 * kTileH;
  if (tiled && (g.n[g.ndim - 2] > kMaxSide || g.n[g.ndim - 1] > kMaxSide)) tiled = false;
  tile_grid tg{};
  if (tiled) {
    tg.h = static_cast<int>(g.n[g.ndim - 2]);
    tg.w = static_cast<int>(g.n[g.ndim - 1]);
    tg.tiles_x = (tg.w + kTileW - 1) / kTileW;
    tg.tiles_y = (tg.h + kTileH - 1) / kTileH;
    // At most one tile per element: below 2**31.
    tg.ntiles = static_cast<int>(n / (static_cast<std::int64_t>(tg.h) * tg.w) * tg.tiles_x * tg.tiles_y);
  }
  cusci::detail::dispatch(input.dtype(), [&](auto tv) {
    using T = typename decltype(tv)::type;
    if constexpr (cusci::detail::is_complex_v<T>) {
      throw type_error("cusci::ndimage::label: Complex type not supported");
    } else if (tiled) {
      tile_label_kernel<T><<<static_cast<unsigned>(tg.ntiles), dim3(kTileW, kTileThreadRows), 0, st>>>(
          static_cast<const T*>(input.data()), parent, tg, conn);
      CUSCI_CHECK_LAUNCH();
    } else {
      init_kernel<T><<<grid_for(n), kBlock, 0, st>>>(static_cast<const T*>(input.data()), n, parent);
      CUSCI_CHECK_LAUNCH();
    }
  });
  if (tiled) {
    if (conn != 0) {
      const unsigned blocks = static_cast<unsigned>((tg.ntiles + kBorderTilesPerBlock - 1) / kBorderTilesPerBlock);
      tile_border_kernel<<<blocks, dim3(kTileW, kBorderTilesPerBlock), 0, st>>>(parent, tg, conn);
      CUSCI_CHECK_LAUNCH();
    }
  } else if (n_offsets > 0) {
    const std::size_t nsteps = static_cast<std::size_t>(n_offsets) * static_cast<std::size_t>(g.ndim);
    delta_list dl{};
    if (nsteps <= std::size(dl.v)) {
      for (std::size_t k = 0; k < nsteps; ++k) dl.v[k] = static_cast<int>(deltas[k]);
      merge_kernel<<<grid_for(n), kBlock, 0, st>>>(parent, static_cast<int>(n), g, dl, nullptr);
      CUSCI_CHECK_LAUNCH();
    } else {
      std::vector<std::int64_t> host(deltas, deltas + nsteps);
      ndarray d = asarray(host);
      merge_kernel<<<grid_for(n), kBlock, 0, st>>>(parent, static_cast<int>(n), g, dl,
                                                   static_cast<const long long*>(d.data()));
      CUSCI_CHECK_LAUNCH();  // `d` may go back to the pool now: its block is reused only on this stream
    }
  }
  ndarray flags = empty({n}, dtype::int32);
  ndarray ids = empty({n}, dtype::int32);
  if (tiled) flatten_kernel<false><<<grid_for(n), kBlock, 0, st>>>(parent, n, static_cast<int*>(flags.data()));
  else flatten_kernel<true><<<grid_for(n), kBlock, 0, st>>>(parent, n, static_cast<int*>(flags.data()));
  CUSCI_CHECK_LAUNCH();
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const int*>(flags.data()),
                                               static_cast<int*>(ids.data()), n, st));
  ndarray tmp = empty({static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1))}, dtype::uint8);
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(tmp.data(), bytes, static_cast<const int*>(flags.data()),
                                               static_cast<int*>(ids.data()), n, st));
  relabel_kernel<<<grid_for(n), kBlock, 0, st>>>(parent, static_cast<const int*>(ids.data()), n, parent);
  CUSCI_CHECK_LAUNCH();
  // num_features = ids[n - 1] + flags[n - 1], read back once.
  ndarray count = empty({}, dtype::int64);
  count_kernel<<<1, 1, 0, st>>>(static_cast<const int*>(ids.data()), static_cast<const int*>(flags.data()), n,
                                static_cast<long long*>(count.data()));
  CUSCI_CHECK_LAUNCH();
  return count.item<std::int64_t>();
}

void find_objects_pass(const ndarray& labels, std::int64_t max_label, ndarray& bbox) {
  const auto nd = static_cast<std::int64_t>(labels.ndim());
  bbox = empty({max_label, nd, 2}, dtype::int64);
  const std::int64_t count = max_label * nd * 2;
  cudaStream_t st = get_current_stream();
  if (count == 0) return;
  bbox_init_kernel<<<grid_for(count), kBlock, 0, st>>>(static_cast<long long*>(bbox.data()), count);
  CUSCI_CHECK_LAUNCH();
  const std::int64_t n = labels.size();
  if (n == 0) return;
  const geometry g = geometry_of(labels.shape(), 0);
  if (labels.dtype() == dtype::int64) {
    bbox_kernel<long long><<<grid_for(n), kBlock, 0, st>>>(static_cast<const long long*>(labels.data()), n, max_label, g,
                                                            static_cast<long long*>(bbox.data()));
  } else {
    bbox_kernel<int><<<grid_for(n), kBlock, 0, st>>>(static_cast<const int*>(labels.data()), n, max_label, g,
                                                      static_cast<long long*>(bbox.data()));
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::ndimage::detail
