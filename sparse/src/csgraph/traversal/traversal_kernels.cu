// Device kernels of the csgraph traversal family: weakly connected components (lock-free
// union-find), SciPy-ordered breadth-first search, construct_dist_matrix path walks and the
// laplacian cores. See traversal_internal.hpp for the contracts.
//
// Small graphs take paths without per-level launches or host round trips:
//   - weak components of a graph with n + nnz <= kFusedCcEntries: one cooperative kernel (init, hook,
//     compress, number the roots, label) with four grid barriers, instead of the launch sequence and
//     the device-wide scan of the general path;
//   - breadth-first order: levels of at most 4096 nodes and about 32K edges run in one thread block
//     (bfs_small_kernel) with the frontier and its edges in shared memory, until a level outgrows it;
//     a one-block search of the whole graph with a shared-memory visited bitmap measured slower on
//     nh2010 and was removed (docs/benchmarks.md, twenty-first table);
//   - Cuthill-McKee's order of a graph with n <= kBlockBfsNodes whose visited bitmap fits in shared
//     memory beside a claim table and the frontier: the whole search in one thread block
//     (rcm_block_device, rcm_block.hpp), each level's claims resolved in a shared-memory hash table;
//     reverse_cuthill_mckee falls back to its own kernel when a level does not fit.

#include <array>
#include <atomic>
#include <climits>
#include <cstdint>
#include <limits>
#include <mutex>

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>
#include <math_constants.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "csgraph/traversal/rcm_block.hpp"
#include "csgraph/traversal/traversal_internal.hpp"

namespace cusci::sparse::csgraph::detail {
namespace {

constexpr int kThreads = 256;
inline unsigned blocks_for(std::int64_t n, int threads = kThreads) {
  const std::int64_t b = (n + threads - 1) / threads;
  return static_cast<unsigned>(b < 1 ? 1 : (b > 2147483647 ? 2147483647 : b));
}

template <class T>
void exclusive_sum(const T* in, T* out, std::int64_t n, cudaStream_t s) {
  if (n <= 0) return;
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, s));
  device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(tmp.data(), bytes, in, out, n, s));
}

template <class T>
T read_one(const T* p, cudaStream_t s) {
  T v{};
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&v, p, sizeof v, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return v;
}

// ---- weak components ---------------------------------------------------------------------------
// Invariant: parent[x] <= x. Roots are hooked under smaller roots only, so each final root is the
// lowest node of its component.

__global__ void uf_init(std::int32_t* parent, std::int32_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    parent[i] = static_cast<std::int32_t>(i);
}

__device__ __forceinline__ std::int32_t uf_find(volatile std::int32_t* parent, std::int32_t x) {
  std::int32_t px = parent[x];
  while (px != x) {
    const std::int32_t ppx = parent[px];
    if (ppx != px) parent[x] = ppx;  // path halving: ppx is an ancestor of x, so this stays valid
    x = px;
    px = parent[x];
  }
  return x;
}

// Joins the trees of u and v: the larger root is hooked under the smaller (atomicCAS), retrying
// from the new roots when another thread hooked one first.
__device__ __forceinline__ void uf_unite(volatile std::int32_t* vp, std::int32_t* parent, std::int32_t u,
                                         std::int32_t v) {
  std::int32_t a = uf_find(vp, u), b = uf_find(vp, v);
  while (a != b) {
    if (a > b) { const std::int32_t t = a; a = b; b = t; }
    const std::int32_t old = atomicCAS(parent + b, b, a);
    if (old == b) break;
    b = uf_find(vp, old);
    a = uf_find(vp, a);
  }
}

__global__ void uf_hook(const std::int32_t* __restrict__ indptr, const std::int32_t* __restrict__ indices,
                        std::int32_t n, std::int64_t nnz, std::int32_t* parent) {
  volatile std::int32_t* vp = parent;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < nnz;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    // row of entry e: the last r with indptr[r] <= e
    std::int32_t lo = 0, hi = n - 1;
    while (lo < hi) {
      const std::int32_t mid = lo + (hi - lo + 1) / 2;
      if (indptr[mid] <= e) lo = mid; else hi = mid - 1;
    }
    uf_unite(vp, parent, lo, indices[e]);
  }
}

__global__ void uf_flatten(std::int32_t* parent, std::int32_t n, std::int32_t* is_root) {
  volatile std::int32_t* vp = parent;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int32_t r = uf_find(vp, static_cast<std::int32_t>(i));
    is_root[i] = (r == i) ? 1 : 0;
  }
}

__global__ void uf_label(const std::int32_t* parent, const std::int32_t* root_id, std::int32_t n,
                         std::int32_t* labels) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    // after uf_flatten every path has length <= 1 except nodes re-pointed concurrently; walk to the root
    std::int32_t r = parent[i];
    while (parent[r] != r) r = parent[r];
    labels[i] = root_id[r];
  }
}

// ---- breadth-first search ----------------------------------------------------------------------
// key[c]: the best claim on c so far, (position of the claiming node in the order) << 32 | (edge
// position in its adjacency: CSR row first, then transposed row). SciPy's queue gives c to the
// smallest key. Claims of earlier levels are < (lo << 32) and never change.

constexpr int kGroup = 8;  // lanes per frontier node
constexpr unsigned long long kNoKey = ~0ull;

struct adj {
  const std::int32_t* p1;
  const std::int32_t* i1;
  const std::int32_t* p2;  // nullptr: directed
  const std::int32_t* i2;
  std::int32_t start;  // i_start: its key 0 would equal the claim of its own edge 0 (a self-loop)
};

struct node_adj {
  std::int64_t b1, d1, b2, d2;
};

__device__ __forceinline__ node_adj adjacency_of(const adj& g, std::int32_t u) {
  node_adj a;
  a.b1 = g.p1[u];
  a.d1 = g.p1[u + 1] - a.b1;
  if (g.p2) {
    a.b2 = g.p2[u];
    a.d2 = g.p2[u + 1] - a.b2;
  } else {
    a.b2 = 0;
    a.d2 = 0;
  }
  return a;
}

__device__ __forceinline__ std::int32_t neighbour(const adj& g, const node_adj& a, std::int64_t k) {
  return k < a.d1 ? g.i1[a.b1 + k] : g.i2[a.b2 + (k - a.d1)];
}

// Phase 1 for frontier node at order position p (group-cooperative: lane `l` of kGroup).
__device__ __forceinline__ void bfs_claim(const adj& g, std::int32_t u, std::int64_t p, std::int64_t lo, int l,
                                          unsigned long long* key) {
  const node_adj a = adjacency_of(g, u);
  const std::int64_t deg = a.d1 + a.d2;
  const unsigned long long floor = static_cast<unsigned long long>(lo) << 32;
  for (std::int64_t k = l; k < deg; k += kGroup) {
    const std::int32_t c = neighbour(g, a, k);
    const unsigned long long cur = *(volatile unsigned long long*)(key + c);
    const unsigned long long mine = (static_cast<unsigned long long>(p) << 32) | static_cast<unsigned long long>(k);
    if (cur < floor || cur <= mine) continue;
    atomicMin(key + c, mine);
  }
}

// Phases 2/3: count (out == nullptr) or write the nodes u won, in edge order, from `base`.
// All kGroup lanes of the group call it together (uniform loop trip count); `mask` is the group's lanes.
__device__ __forceinline__ std::int32_t bfs_collect(const adj& g, std::int32_t u, std::int64_t p, int l,
                                                    unsigned mask, const unsigned long long* key,
                                                    std::int64_t base, std::int32_t* order, std::int32_t* pred) {
  const node_adj a = adjacency_of(g, u);
  const std::int64_t deg = a.d1 + a.d2;
  const int shift = (threadIdx.x & 31) & ~(kGroup - 1);
  std::int32_t count = 0;
  for (std::int64_t k0 = 0; k0 < deg; k0 += kGroup) {
    const std::int64_t k = k0 + l;
    bool win = false;
    std::int32_t c = 0;
    if (k < deg) {
      c = neighbour(g, a, k);
      const unsigned long long mine = (static_cast<unsigned long long>(p) << 32) | static_cast<unsigned long long>(k);
      win = key[c] == mine && c != g.start;
    }
    const unsigned bits = (__ballot_sync(mask, win) >> shift) & ((1u << kGroup) - 1);
    if (order && win) {
      const std::int64_t pos = base + count + __popc(bits & ((1u << l) - 1));
      order[pos] = c;
      pred[c] = u;
    }
    count += __popc(bits);
  }
  return count;
}

__device__ __forceinline__ unsigned group_mask() {
  const int lane = threadIdx.x & 31;
  return ((1u << kGroup) - 1) << (lane & ~(kGroup - 1));
}

__global__ void bfs_claim_kernel(adj g, const std::int32_t* order, std::int64_t lo, std::int64_t hi,
                                 unsigned long long* key) {
  const std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t p = lo + t / kGroup;
  if (p >= hi) return;
  bfs_claim(g, order[p], p, lo, static_cast<int>(t % kGroup), key);
}

// Whole groups exit together (blockDim is a multiple of kGroup), so the ballots see their full group.
__global__ void bfs_count_kernel(adj g, const std::int32_t* order, std::int64_t lo, std::int64_t hi,
                                 const unsigned long long* key, std::int32_t* cnt) {
  const std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t p = lo + t / kGroup;
  if (p >= hi) return;
  const int l = static_cast<int>(t % kGroup);
  const std::int32_t c = bfs_collect(g, order[p], p, l, group_mask(), key, 0, nullptr, nullptr);
  if (l == 0) cnt[p - lo] = c;
}

__global__ void bfs_write_kernel(adj g, std::int32_t* order, std::int64_t lo, std::int64_t hi,
                                 const unsigned long long* key, const std::int32_t* offs, std::int32_t* pred) {
  const std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t p = lo + t / kGroup;
  if (p >= hi) return;
  bfs_collect(g, order[p], p, static_cast<int>(t % kGroup), group_mask(), key, hi + offs[p - lo], order, pred);
}

// Many small levels in one block, the frontier and its edges in shared memory. Per level:
//   1. the frontier's degrees (thread t takes a contiguous run of frontier nodes) and one block scan
//      give every frontier edge a slot, in SciPy's queue order ((position, edge) order);
//   2. each slot's neighbour is loaded once into shared memory and claimed (atomicMin on its key);
//   3. after a barrier each slot tests whether its claim won, and one block scan over the winners
//      (thread t again a contiguous run of slots) places them in the order and the next frontier.
// Global memory is touched three times a level (row bounds, neighbours, keys), against a reload of
// the frontier's rows in each of the claim, count and write passes of the grid path. Runs while the
// frontier has at most `fcap` nodes and `scap` edges; writes the final (lo, hi) to state[0..1].
constexpr int kSmallThreads = 1024;
constexpr int kSmallMaxRun = 32;  // slots a thread at most (the win flags are one 32-bit mask)
using small_scan_t = cub::BlockScan<std::int32_t, kSmallThreads>;

// Shared-memory bytes of the per-level arrays for a frontier cap f and a slot cap s.
constexpr std::size_t bfs_small_bytes(std::int64_t f, std::int64_t s) {
  return sizeof(std::int32_t) * static_cast<std::size_t>(6 * f + 1 + s);
}

// The last frontier index i with offs[i] <= s (offs ascending; zero-degree nodes share a start).
__device__ __forceinline__ int slot_owner(const std::int32_t* offs, int f, std::int32_t s) {
  int a = 0, b = f - 1;
  while (a < b) {
    const int m = (a + b + 1) >> 1;
    if (offs[m] <= s) a = m;
    else b = m - 1;
  }
  return a;
}

__global__ void __launch_bounds__(kSmallThreads) bfs_small_kernel(adj g, std::int32_t* order, std::int32_t* pred,
                                                                  unsigned long long* key, std::int64_t lo,
                                                                  std::int64_t hi, int fcap, int scap,
                                                                  std::int64_t* state) {
  __shared__ typename small_scan_t::TempStorage scan_tmp;
  extern __shared__ std::int32_t sm[];
  std::int32_t* front[2] = {sm, sm + fcap};
  std::int32_t* offs = sm + 2 * fcap;     // fcap + 1
  std::int32_t* b1 = offs + fcap + 1;     // row starts and lengths of the frontier's nodes
  std::int32_t* d1 = b1 + fcap;
  std::int32_t* b2 = d1 + fcap;
  std::int32_t* slot = b2 + fcap;         // scap neighbours
  const int t = threadIdx.x;
  int cur = 0;
  if (hi - lo <= fcap)
    for (std::int64_t i = t; i < hi - lo; i += kSmallThreads) front[0][i] = order[lo + i];
  __syncthreads();
  while (hi > lo && hi - lo <= fcap) {
    const int f = static_cast<int>(hi - lo);
    const std::int32_t* fu = front[cur];
    // 1. degrees and slots
    const int fr = (f + kSmallThreads - 1) / kSmallThreads;
    const int f0 = min(f, t * fr), f1 = min(f, f0 + fr);
    // degrees are clamped to scap + 1 so that the scan cannot overflow; any clamp sends the level
    // to the grid path (the aggregate then exceeds scap), so the clamped offsets are never used
    const std::int64_t clamp = static_cast<std::int64_t>(scap) + 1;
    std::int64_t run = 0;
    for (int i = f0; i < f1; ++i) {
      const std::int32_t u = fu[i];
      const std::int32_t a = g.p1[u], da = g.p1[u + 1] - a;
      std::int32_t b = 0, db = 0;
      if (g.p2) {
        b = g.p2[u];
        db = g.p2[u + 1] - b;
      }
      b1[i] = a;
      d1[i] = da;
      b2[i] = b;
      const std::int64_t d = static_cast<std::int64_t>(da) + db;
      offs[i] = static_cast<std::int32_t>(d < clamp ? d : clamp);  // the degree until the scan below
      run += d;
    }
    const std::int32_t mine_deg = static_cast<std::int32_t>(run < clamp ? run : clamp);
    std::int32_t ex = 0, agg = 0;
    small_scan_t(scan_tmp).ExclusiveSum(mine_deg, ex, agg);
    for (int i = f0; i < f1; ++i) {
      const std::int32_t d = offs[i];
      offs[i] = ex;
      ex += d;
    }
    if (t == 0) offs[f] = agg;
    __syncthreads();
    const std::int32_t e = agg;
    if (e > scap) break;  // this level goes to the grid path; nothing of it was written
    // 2. neighbours into their slots, and the claims
    const int sr = (e + kSmallThreads - 1) / kSmallThreads;
    const std::int32_t s0 = min(e, t * sr), s1 = min(e, s0 + sr);
    const unsigned long long floor = static_cast<unsigned long long>(lo) << 32;
    if (s0 < s1) {
      int i = slot_owner(offs, f, s0);
      for (std::int32_t s = s0; s < s1; ++s) {
        while (s >= offs[i + 1]) ++i;
        const std::int32_t k = s - offs[i];
        slot[s] = k < d1[i] ? g.i1[b1[i] + k] : g.i2[b2[i] + (k - d1[i])];
      }
      i = slot_owner(offs, f, s0);
      for (std::int32_t s = s0; s < s1; ++s) {
        while (s >= offs[i + 1]) ++i;
        const std::int32_t c = slot[s];
        const unsigned long long mine =
            (static_cast<unsigned long long>(lo + i) << 32) | static_cast<unsigned long long>(s - offs[i]);
        const unsigned long long cur_key = *(volatile unsigned long long*)(key + c);
        if (cur_key < floor || cur_key <= mine) continue;
        atomicMin(key + c, mine);
      }
    }
    __syncthreads();
    // 3. winners, in slot order
    unsigned won = 0;
    std::int32_t n_won = 0;
    if (s0 < s1) {
      int i = slot_owner(offs, f, s0);
      for (std::int32_t s = s0; s < s1; ++s) {
        while (s >= offs[i + 1]) ++i;
        const std::int32_t c = slot[s];
        const unsigned long long mine =
            (static_cast<unsigned long long>(lo + i) << 32) | static_cast<unsigned long long>(s - offs[i]);
        if (__ldcg(key + c) == mine && c != g.start) {
          won |= 1u << (s - s0);
          ++n_won;
        }
      }
    }
    std::int32_t base = 0, next_f = 0;
    small_scan_t(scan_tmp).ExclusiveSum(n_won, base, next_f);
    std::int32_t* nu = front[cur ^ 1];
    if (won) {
      int i = slot_owner(offs, f, s0);
      for (std::int32_t s = s0; s < s1; ++s) {
        while (s >= offs[i + 1]) ++i;
        if (!((won >> (s - s0)) & 1u)) continue;
        const std::int32_t c = slot[s];
        order[hi + base] = c;
        pred[c] = fu[i];
        if (base < fcap) nu[base] = c;
        ++base;
      }
    }
    __syncthreads();  // the slots, offsets and scan storage are reused by the next level
    cur ^= 1;
    lo = hi;
    hi += next_f;
  }
  if (t == 0) {
    state[0] = lo;
    state[1] = hi;
  }
}

__global__ void bfs_init(std::int32_t n, std::int32_t start, unsigned long long* key, std::int32_t* pred,
                         std::int32_t* order) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    key[i] = (i == start) ? 0ull : kNoKey;
    pred[i] = -9999;
    order[i] = (i == 0) ? start : -9999;
  }
}

// ---- weak components of small graphs: one cooperative kernel --------------------------------------
// Graphs with n + nnz <= kFusedCcEntries: one wave of resident blocks does everything, so the fixed
// costs of the general path (six kernels with the device-wide scan's two, its temporary storage, three
// scratch arrays, two copies back) do not dominate. Larger graphs keep the general path, whose hook
// spreads the edges over a full-occupancy grid (one thread per entry).
constexpr std::int64_t kFusedCcEntries = std::int64_t{1} << 22;
constexpr int kCcThreads = 256;

// The root of x without writing: other blocks write their own entries concurrently.
__device__ __forceinline__ std::int32_t uf_root(volatile std::int32_t* vp, std::int32_t x) {
  std::int32_t px = vp[x];
  while (px != x) {
    x = px;
    px = vp[x];
  }
  return x;
}

// 1. parent[i] = i; 2. hook every stored entry (u, v), u != v (a warp takes 32 consecutive rows and
// strides over their entries, each lane finding its entry's row by a search over the warp's row
// starts); 3. parent[i] = root(i) (the lowest node of the component) over each block's contiguous
// range of nodes, counting the roots per block; 4. number the roots in node order (the blocks before
// this one, then a block scan); 5. label every node with its root's number. count: the roots.
__global__ void __launch_bounds__(kCcThreads) cc_fused_kernel(const std::int32_t* __restrict__ indptr,
                                                              const std::int32_t* __restrict__ indices, std::int32_t n,
                                                              std::int32_t* parent, std::int32_t* labels,
                                                              std::int32_t* block_roots, std::int32_t* count) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  using scan_t = cub::BlockScan<std::int32_t, kCcThreads>;
  using reduce_t = cub::BlockReduce<std::int32_t, kCcThreads>;
  __shared__ union {
    typename scan_t::TempStorage scan;
    typename reduce_t::TempStorage reduce;
  } tmp;
  __shared__ std::int32_t s_base;
  volatile std::int32_t* vp = parent;
  const std::int64_t tid = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = tid; i < n; i += stride) parent[i] = static_cast<std::int32_t>(i);
  grid.sync();

  const int lane = static_cast<int>(threadIdx.x & 31);
  const std::int64_t groups = (static_cast<std::int64_t>(n) + 31) / 32;
  for (std::int64_t gi = tid >> 5; gi < groups; gi += stride >> 5) {
    const std::int32_t r0 = static_cast<std::int32_t>(gi * 32);
    const std::int32_t rr = r0 + lane;
    const std::int32_t my_b = rr < n ? __ldg(indptr + rr) : INT_MAX;  // INT_MAX: never a row of an entry
    const std::int32_t e1 = __ldg(indptr + (r0 + 32 < n ? r0 + 32 : n));
    const std::int32_t e0 = __shfl_sync(0xFFFFFFFFu, my_b, 0);
    for (std::int32_t k0 = e0; k0 < e1; k0 += 32) {  // the same trip count in every lane
      const std::int32_t k = k0 + lane;
      int j = 0;  // the last row of the group starting at or before k
      for (int step = 16; step > 0; step >>= 1) {
        const std::int32_t bj = __shfl_sync(0xFFFFFFFFu, my_b, j + step);
        if (bj <= k) j += step;
      }
      if (k < e1) {
        const std::int32_t v = __ldg(indices + k), u = r0 + j;
        if (u != v) uf_unite(vp, parent, u, v);
      }
    }
  }
  grid.sync();

  const std::int64_t chunk = (static_cast<std::int64_t>(n) + gridDim.x - 1) / gridDim.x;
  const std::int64_t beg = blockIdx.x * chunk < n ? blockIdx.x * chunk : n;
  const std::int64_t end = beg + chunk < n ? beg + chunk : n;
  std::int32_t roots = 0;
  for (std::int64_t i = beg + threadIdx.x; i < end; i += blockDim.x) {
    const std::int32_t r = uf_root(vp, static_cast<std::int32_t>(i));
    vp[i] = r;
    roots += r == i;
  }
  const std::int32_t block_total = reduce_t(tmp.reduce).Sum(roots);
  if (threadIdx.x == 0) block_roots[blockIdx.x] = block_total;
  grid.sync();

  std::int32_t before = 0;
  for (unsigned b = threadIdx.x; b < blockIdx.x; b += blockDim.x) before += __ldcg(block_roots + b);
  __syncthreads();  // tmp is reused
  const std::int32_t base = reduce_t(tmp.reduce).Sum(before);
  if (threadIdx.x == 0) s_base = base;
  __syncthreads();
  std::int32_t carry = s_base;
  for (std::int64_t i0 = beg; i0 < end; i0 += blockDim.x) {  // the same trip count in every thread
    const std::int64_t i = i0 + threadIdx.x;
    const std::int32_t is_root = (i < end && vp[i] == i) ? 1 : 0;
    std::int32_t ex = 0, agg = 0;
    scan_t(tmp.scan).ExclusiveSum(is_root, ex, agg);
    if (is_root) labels[i] = carry + ex;
    carry += agg;
    __syncthreads();
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *count = carry;
  grid.sync();

  for (std::int64_t i = beg + threadIdx.x; i < end; i += blockDim.x) {
    const std::int32_t r = vp[i];
    if (r != i) labels[i] = __ldcg(labels + r);
  }
}

// ---- breadth-first search of small graphs in one thread block ------------------------------------
// State in shared memory: the visited bitmap (n bits), the current and next level's nodes (up to
// kBlockFrontier each) and a claim table of kClaimSlots 64-bit entries, (node << 32) | (r << 20 | k)
// where r is the claimer's position in its level and k the edge's position in its adjacency: for one
// node the smallest entry is SciPy's parent (the first in the queue, then its first edge), as the
// grid path's 64-bit keys. Open addressing with linear probing; each new entry's slot is listed, and
// after the level only the listed slots are cleared.
// Per level: claims (atomicCAS / atomicMin in the table), a barrier, then in passes of the block size
// the children counted by table look-ups, a block scan for their positions, and their placement.
constexpr int kBlockThreads = 1024;
constexpr std::int32_t kBlockFrontier = 4096;
constexpr int kClaimSlots = 8192;
constexpr int kClaimLimit = 4096;  // new entries per level: the table stays at most half full
constexpr int kClaimEdgeBits = 20;  // k < 2^20 (r < kBlockFrontier = 2^12 takes the other 12 bits)
// Graphs of at most 2^19 nodes: the bitmap (64 KB) fits beside the table (64 KB) and the frontier
// (32 KB) in the 227 KB of shared memory a block may use on sm_90 (less elsewhere: the launch checks
// the device's limit). Larger graphs keep the general path, whose levels are large early anyway.
constexpr std::int64_t kBlockBfsNodes = std::int64_t{1} << 19;
constexpr unsigned long long kEmptySlot = ~0ull;
constexpr std::size_t kBlockFixedBytes = sizeof(unsigned long long) * kClaimSlots +
                                         sizeof(unsigned short) * kClaimLimit +
                                         2 * sizeof(std::int32_t) * kBlockFrontier;

__device__ __forceinline__ unsigned claim_slot(std::int32_t c) {
  return (static_cast<unsigned>(c) * 0x9E3779B1u) >> (32 - 13);  // 2^13 = kClaimSlots
}
static_assert(kClaimSlots == 1 << 13, "claim_slot hashes to 13 bits (a slot fits an unsigned short)");
static_assert(kBlockFrontier <= 1 << (32 - kClaimEdgeBits), "r must fit beside k in 32 bits");

__device__ __forceinline__ unsigned long long claim_entry(std::int32_t c, std::int32_t r, std::int64_t k) {
  return (static_cast<unsigned long long>(static_cast<unsigned>(c)) << 32) |
         (static_cast<unsigned long long>(static_cast<unsigned>(r)) << kClaimEdgeBits) |
         static_cast<unsigned long long>(k);
}

__device__ __forceinline__ void claim_insert(unsigned long long* tab, std::int32_t c, unsigned long long e, int* used,
                                             unsigned short* used_slots, volatile int* overflow) {
  unsigned h = claim_slot(c);
  for (;;) {
    unsigned long long cur = *reinterpret_cast<volatile unsigned long long*>(tab + h);
    if (cur == kEmptySlot) {
      // Reserve before inserting: at most kClaimLimit entries ever exist, so probing always ends. The
      // slot is listed whether or not this thread's CAS fills it (listing a filled slot is harmless).
      const int idx = atomicAdd(used, 1);
      if (idx >= kClaimLimit) {
        *overflow = 1;
        return;
      }
      used_slots[idx] = static_cast<unsigned short>(h);
      cur = atomicCAS(tab + h, kEmptySlot, e);
      if (cur == kEmptySlot) return;
    }
    if (static_cast<unsigned>(cur >> 32) == static_cast<unsigned>(c)) {
      if (e < cur) atomicMin(tab + h, e);
      return;
    }
    h = (h + 1) & (kClaimSlots - 1);
  }
}

__device__ __forceinline__ unsigned long long claim_find(const unsigned long long* tab, std::int32_t c) {
  unsigned h = claim_slot(c);
  for (;;) {
    const unsigned long long cur = tab[h];
    if (cur == kEmptySlot || static_cast<unsigned>(cur >> 32) == static_cast<unsigned>(c)) return cur;
    h = (h + 1) & (kClaimSlots - 1);
  }
}

__device__ __forceinline__ bool bit_of(const unsigned* vis, std::int32_t c) { return (vis[c >> 5] >> (c & 31)) & 1u; }

constexpr int kEdgeChunk = 8;  // a node's edges are loaded kEdgeChunk at a time (independent loads)

// ---- Cuthill-McKee order of small graphs in one thread block ---------------------------------------
// A block search with SciPy's Cuthill-McKee rules: start nodes taken from `seeds` (the nodes
// by ascending degree, stable) when a component is done, and each parent's children placed by
// (degree, offset in its row) (SciPy's stable insertion sort of the newly appended nodes), sorted in
// their segment of the next level in shared memory. A level of more than kBlockFrontier nodes or one
// claiming more than kClaimLimit makes the kernel give up (status 0); the caller then runs its
// general kernel.

__global__ void __launch_bounds__(kBlockThreads) rcm_block_kernel(const std::int64_t* __restrict__ indptr,
                                                                  const std::int32_t* __restrict__ indices,
                                                                  const std::int32_t* __restrict__ degree,
                                                                  const std::int32_t* __restrict__ seeds, std::int32_t n,
                                                                  std::int32_t* order, int* status) {
  using scan_t = cub::BlockScan<std::int32_t, kBlockThreads>;
  __shared__ typename scan_t::TempStorage scan_tmp;
  __shared__ int s_used;
  __shared__ int s_overflow;
  __shared__ std::int32_t s_next;
  extern __shared__ unsigned long long smem[];
  unsigned long long* tab = smem;
  unsigned short* used_slots = reinterpret_cast<unsigned short*>(smem + kClaimSlots);  // [kClaimLimit]
  std::int32_t* front = reinterpret_cast<std::int32_t*>(used_slots + kClaimLimit);    // [2][kBlockFrontier]
  std::int32_t* kd = front + 2 * kBlockFrontier;  // [kBlockFrontier]: the degrees beside the next level
  unsigned* vis = reinterpret_cast<unsigned*>(kd + kBlockFrontier);
  const int t = static_cast<int>(threadIdx.x);
  for (std::int64_t w = t; w < (static_cast<std::int64_t>(n) + 31) / 32; w += kBlockThreads) vis[w] = 0;
  for (int i = t; i < kClaimSlots; i += kBlockThreads) tab[i] = kEmptySlot;
  if (t == 0) {
    s_next = n;
    s_overflow = 0;
  }
  __syncthreads();
  // Nodes of degree 0 lead the seeds and are components of their own: the first positions, in bulk.
  for (std::int32_t q = t; q < n; q += kBlockThreads) {
    const std::int32_t v = seeds[q];
    if (degree[v] == 0) {
      order[q] = v;
      atomicOr(vis + (v >> 5), 1u << (v & 31));
    } else if (q == 0 || degree[seeds[q - 1]] == 0) {
      s_next = q;  // the first seed of positive degree (one thread writes it)
    }
  }
  __syncthreads();
  std::int32_t filled = s_next, z = s_next;
  __syncthreads();
  while (filled < n) {
    // the next start: the first seed not placed yet (one exists while filled < n)
    for (;;) {
      const std::int32_t q = z + t;
      if (__syncthreads_or(q < n && !bit_of(vis, seeds[q]))) break;
      z += kBlockThreads;
    }
    if (t == 0) s_next = n;
    __syncthreads();
    if (z + t < n && !bit_of(vis, seeds[z + t])) atomicMin(&s_next, z + t);
    __syncthreads();
    z = s_next;
    if (t == 0) {
      const std::int32_t seed = seeds[z];
      order[filled] = seed;
      vis[seed >> 5] |= 1u << (seed & 31);
      front[0] = seed;
    }
    std::int64_t lo = filled, hi = filled + 1;
    int cur = 0;
    while (hi > lo) {
      if (hi - lo > kBlockFrontier) {
        if (t == 0) *status = 0;
        return;  // every thread: lo and hi are the same in all
      }
      const std::int32_t m = static_cast<std::int32_t>(hi - lo);
      if (t == 0) s_used = 0;
      __syncthreads();  // also: the previous level's table slots are cleared
      const std::int32_t* fr = front + cur * kBlockFrontier;
      for (std::int32_t r = t; r < m; r += kBlockThreads) {
        const std::int32_t u = fr[r];
        const std::int64_t b = __ldg(indptr + u), deg = __ldg(indptr + u + 1) - b;
        if (deg > (std::int64_t{1} << kClaimEdgeBits)) {
          s_overflow = 1;
          continue;
        }
        for (std::int64_t k0 = 0; k0 < deg; k0 += kEdgeChunk) {
          std::int32_t c[kEdgeChunk];
#pragma unroll
          for (int j = 0; j < kEdgeChunk; ++j) c[j] = k0 + j < deg ? __ldg(indices + b + k0 + j) : -1;
#pragma unroll
          for (int j = 0; j < kEdgeChunk; ++j)
            if (c[j] >= 0 && !bit_of(vis, c[j])) claim_insert(tab, c[j], claim_entry(c[j], r, k0 + j), &s_used, used_slots,
                         &s_overflow);
        }
      }
      __syncthreads();
      const int n_used = s_used < kClaimLimit ? s_used : kClaimLimit;  // read by all before the next reset
      if (s_overflow) {
        if (t == 0) *status = 0;
        return;
      }
      std::int32_t* nx = front + (cur ^ 1) * kBlockFrontier;
      std::int64_t carry = 0;
      for (std::int32_t base = 0; base < m; base += kBlockThreads) {
        const std::int32_t r = base + t;
        std::int32_t cnt = 0, u = 0;
        std::int64_t b = 0, deg = 0;
        if (r < m) {
          u = fr[r];
          b = __ldg(indptr + u);
          deg = __ldg(indptr + u + 1) - b;
          for (std::int64_t k0 = 0; k0 < deg; k0 += kEdgeChunk) {
            std::int32_t c[kEdgeChunk];
#pragma unroll
            for (int j = 0; j < kEdgeChunk; ++j) c[j] = k0 + j < deg ? __ldg(indices + b + k0 + j) : -1;
#pragma unroll
            for (int j = 0; j < kEdgeChunk; ++j)
              cnt += (c[j] >= 0 && claim_find(tab, c[j]) == claim_entry(c[j], r, k0 + j)) ? 1 : 0;
          }
        }
        std::int32_t ex = 0, total = 0;
        scan_t(scan_tmp).ExclusiveSum(cnt, ex, total);
        // The children go to their segment [o, o + cnt) of the next frontier in row order, each
        // inserted after those of no greater degree (a stable insertion sort, as SciPy's), then out.
        const std::int64_t o = carry + ex;
        if (cnt > 0 && o + cnt > kBlockFrontier) {
          s_overflow = 1;  // the next level does not fit: give up
        } else if (cnt > 0) {
          std::int32_t placed = 0;
          for (std::int64_t k = 0; k < deg && placed < cnt; ++k) {
            const std::int32_t c = __ldg(indices + b + k);
            if (claim_find(tab, c) != claim_entry(c, r, k)) continue;
            const std::int32_t dc = __ldg(degree + c);
            std::int32_t l = placed;
            while (l > 0 && kd[o + l - 1] > dc) {
              nx[o + l] = nx[o + l - 1];
              kd[o + l] = kd[o + l - 1];
              --l;
            }
            nx[o + l] = c;
            kd[o + l] = dc;
            ++placed;
          }
          for (std::int32_t i = 0; i < cnt; ++i) {
            const std::int32_t c = nx[o + i];
            order[hi + o + i] = c;
            atomicOr(vis + (c >> 5), 1u << (c & 31));
          }
        }
        carry += total;
        __syncthreads();  // scan_tmp is reused; the last pass's barrier also ends the level
      }
      if (s_overflow) {  // the next level does not fit (seen by all after the barrier)
        if (t == 0) *status = 0;
        return;
      }
      for (int i = t; i < n_used; i += kBlockThreads) tab[used_slots[i]] = kEmptySlot;
      cur ^= 1;
      lo = hi;
      hi += carry;
    }
    filled = static_cast<std::int32_t>(hi);
  }
  if (t == 0) *status = 1;
}

// ---- construct_dist_matrix ---------------------------------------------------------------------
__device__ __forceinline__ double undirected_weight(const double* g, std::int64_t n, std::int64_t a, std::int64_t b) {
  double x = g[a * n + b], y = g[b * n + a];
  if (x == 0.0) x = CUDART_INF;
  if (y == 0.0) y = CUDART_INF;
  return y <= x ? y : x;  // SciPy's symmetrization: graph[j, i] <= graph[i, j] takes [j, i]
}

__global__ void dist_kernel(std::int64_t n, const double* __restrict__ g, const std::int32_t* __restrict__ pred,
                            bool directed, double null_value, double* __restrict__ dist, int* flag) {
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n * n;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = t / n, j = t % n;
    const std::int32_t* row = pred + i * n;
    double d = 0.0;
    std::int64_t k2 = j, steps = 0;
    if (j != i && row[j] == -9999) d = null_value;
    while (k2 != i) {
      const std::int32_t k1 = row[k2];
      if (k1 == -9999) break;
      if (k1 < 0 || k1 >= n) {
        atomicOr(flag, 1);
        break;
      }
      if (++steps > n) {
        atomicOr(flag, 2);
        break;
      }
      d += directed ? g[static_cast<std::int64_t>(k1) * n + k2] : undirected_weight(g, n, k1, k2);
      k2 = k1;
    }
    dist[t] = d;
  }
}

// ---- laplacian ---------------------------------------------------------------------------------
__global__ void lap_degrees(std::int64_t nnz, const std::int64_t* row, const std::int64_t* col, const double* val,
                            int axis, double* w, std::int64_t* keep) {
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < nnz;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const bool off = row[e] != col[e];
    keep[e] = off ? 1 : 0;
    if (off) atomicAdd(w + (axis == 0 ? col[e] : row[e]), val[e]);
  }
}

__global__ void lap_scale(std::int64_t n, bool normed, const double* w, double* s) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    s[i] = normed ? (w[i] == 0.0 ? 1.0 : sqrt(w[i])) : w[i];
}

__global__ void lap_write(std::int64_t n, std::int64_t nnz, const std::int64_t* row, const std::int64_t* col,
                          const double* val, const std::int64_t* keep, const std::int64_t* pos, bool normed,
                          const double* w, const double* s, std::int64_t n_off, std::int64_t* orow, std::int64_t* ocol,
                          double* oval) {
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < nnz + n;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (e < nnz) {
      if (!keep[e]) continue;
      const std::int64_t q = pos[e];
      double v = val[e];
      if (normed) v = v / s[row[e]] / s[col[e]];
      orow[q] = row[e];
      ocol[q] = col[e];
      oval[q] = -v;
    } else {
      const std::int64_t i = e - nnz, q = n_off + i;
      orow[q] = i;
      ocol[q] = i;
      oval[q] = normed ? (w[i] == 0.0 ? 0.0 : 1.0) : w[i];
    }
  }
}

__global__ void dense_zero_diag(std::int64_t n, double* m) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    m[i * n + i] = 0.0;
}

// axis 0: column sums (thread per column, coalesced); axis 1: row sums.
__global__ void dense_sums(std::int64_t n, const double* m, int axis, double* w) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    double s = 0.0;
    if (axis == 0)
      for (std::int64_t r = 0; r < n; ++r) s += m[r * n + i];
    else
      for (std::int64_t c = 0; c < n; ++c) s += m[i * n + c];
    w[i] = s;
  }
}

__global__ void dense_finish(std::int64_t n, double* m, bool normed, double* w) {
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n * n;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = t / n, j = t % n;
    const double wi = w[i], wj = w[j];
    if (normed) {
      const double si = wi == 0.0 ? 1.0 : sqrt(wi), sj = wj == 0.0 ? 1.0 : sqrt(wj);
      m[t] = (i == j) ? (wi == 0.0 ? 0.0 : 1.0) : -(m[t] / sj / si);
    } else {
      m[t] = (i == j) ? wi : -m[t];
    }
  }
}

__global__ void dense_normed_diag(std::int64_t n, double* w) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    w[i] = w[i] == 0.0 ? 1.0 : sqrt(w[i]);
}

__global__ void dense_sym(std::int64_t n, const double* a, double* out) {
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n * n;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = t / n, j = t % n;
    out[t] = a[t] + a[j * n + i];
  }
}

}  // namespace

namespace {

// Per-device launch facts, queried once per device (the queries cost host time on every call).
struct launch_facts {
  int cc_blocks = 0;       // resident blocks of cc_fused_kernel (0: no cooperative launch)
  int rcm_smem_limit = 0;  // dynamic shared memory rcm_block_kernel may use (0: it cannot run)
  int bfs_fcap = 0;        // frontier cap of bfs_small_kernel (0: it cannot run)
  int bfs_scap = 0;        // its slot (frontier edge) cap
};

// The dynamic shared memory `kernel` (1024 threads) may use on device `dev` after raising its limit to
// that, or 0 when it cannot hold the fixed part.
template <class Kernel>
int block_smem_limit(Kernel kernel, int optin) {
  cudaFuncAttributes fa{};
  CUSCI_CUDA_TRY(cudaFuncGetAttributes(&fa, kernel));
  const long long dyn = static_cast<long long>(optin) - static_cast<long long>(fa.sharedSizeBytes);
  if (fa.maxThreadsPerBlock < kBlockThreads || dyn < static_cast<long long>(kBlockFixedBytes) + 4) return 0;
  CUSCI_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dyn)));
  return static_cast<int>(dyn);
}

// The largest frontier cap (4096 down to 64) whose arrays fit beside four slots a frontier node, then
// every slot the rest of the shared memory holds (at most kSmallMaxRun a thread).
void bfs_small_caps(int optin, launch_facts& f) {
  cudaFuncAttributes fa{};
  CUSCI_CUDA_TRY(cudaFuncGetAttributes(&fa, bfs_small_kernel));
  const long long dyn = static_cast<long long>(optin) - static_cast<long long>(fa.sharedSizeBytes);
  if (fa.maxThreadsPerBlock < kSmallThreads) return;
  long long fcap = 4096;
  while (fcap > 64 && static_cast<long long>(bfs_small_bytes(fcap, 4 * fcap)) > dyn) fcap /= 2;
  if (static_cast<long long>(bfs_small_bytes(fcap, 4 * fcap)) > dyn) return;
  long long scap = (dyn - static_cast<long long>(bfs_small_bytes(fcap, 0))) / static_cast<long long>(sizeof(std::int32_t));
  if (scap > static_cast<long long>(kSmallMaxRun) * kSmallThreads) scap = static_cast<long long>(kSmallMaxRun) * kSmallThreads;
  CUSCI_CUDA_TRY(cudaFuncSetAttribute(bfs_small_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(bfs_small_bytes(fcap, scap))));
  f.bfs_fcap = static_cast<int>(fcap);
  f.bfs_scap = static_cast<int>(scap);
}

constexpr int kMaxDevices = 64;
std::array<std::atomic<int>, kMaxDevices> g_facts_ready{};
std::array<launch_facts, kMaxDevices> g_facts{};
std::mutex g_facts_mutex;

launch_facts facts() {
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  const bool cached = dev >= 0 && dev < kMaxDevices;
  if (cached && g_facts_ready[dev].load(std::memory_order_acquire)) return g_facts[dev];
  std::lock_guard<std::mutex> lock(g_facts_mutex);
  if (cached && g_facts_ready[dev].load(std::memory_order_acquire)) return g_facts[dev];
  launch_facts f;
  int coop = 0, sms = 0, optin = 0;
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (coop) {
    int per_sm = 0;
    CUSCI_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cc_fused_kernel, kCcThreads, 0));
    f.cc_blocks = per_sm * sms;
  }
  f.rcm_smem_limit = block_smem_limit(rcm_block_kernel, optin);
  bfs_small_caps(optin, f);
  if (cached) {
    g_facts[dev] = f;
    g_facts_ready[dev].store(1, std::memory_order_release);
  }
  return f;
}

// One level of the grid path: frontier order[lo, hi) -> the next level's nodes from order[hi];
// returns the new end. cnt, offs: scratch of n + 1. Synchronizes (reads the level's size).
std::int64_t bfs_level(const adj& g, std::int32_t* order, std::int32_t* pred, unsigned long long* key,
                       std::int32_t* cnt, std::int32_t* offs, std::int64_t lo, std::int64_t hi, cudaStream_t s) {
  const std::int64_t f = hi - lo;
  const unsigned blocks = blocks_for(f * kGroup);
  bfs_claim_kernel<<<blocks, kThreads, 0, s>>>(g, order, lo, hi, key);
  CUSCI_CHECK_LAUNCH();
  CUSCI_CUDA_TRY(cudaMemsetAsync(cnt + f, 0, sizeof(std::int32_t), s));
  bfs_count_kernel<<<blocks, kThreads, 0, s>>>(g, order, lo, hi, key, cnt);
  CUSCI_CHECK_LAUNCH();
  exclusive_sum(cnt, offs, f + 1, s);
  bfs_write_kernel<<<blocks, kThreads, 0, s>>>(g, order, lo, hi, key, offs, pred);
  CUSCI_CHECK_LAUNCH();
  return hi + read_one(offs + f, s);
}

std::int64_t weak_components_fused(std::int32_t n, const std::int32_t* indptr, const std::int32_t* indices,
                                   std::int32_t* labels, int resident_blocks, cudaStream_t s) {
  const std::int64_t want = (static_cast<std::int64_t>(n) + kCcThreads - 1) / kCcThreads;
  const int grid = static_cast<int>(want < resident_blocks ? want : resident_blocks);
  device_buffer<std::int32_t> scratch(static_cast<std::size_t>(n) + grid + 1, s);
  std::int32_t* parent = scratch.data();
  std::int32_t* block_roots = parent + n;
  std::int32_t* count = block_roots + grid;
  void* args[] = {&indptr, &indices, &n, &parent, &labels, &block_roots, &count};
  CUSCI_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(cc_fused_kernel), dim3(grid),
                                             dim3(kCcThreads), args, 0, s));
  CUSCI_CHECK_LAUNCH();
  return read_one(count, s);  // synchronizes, so scratch is free to go back to the pool
}

}  // namespace

std::int64_t weak_components_device(std::int32_t n, std::int64_t nnz, const std::int32_t* indptr,
                                    const std::int32_t* indices, std::int32_t* labels, cudaStream_t s) {
  if (n == 0) return 0;
  if (static_cast<std::int64_t>(n) + nnz <= kFusedCcEntries) {
    const launch_facts f = facts();
    if (f.cc_blocks > 0) return weak_components_fused(n, indptr, indices, labels, f.cc_blocks, s);
  }
  device_buffer<std::int32_t> parent(n, s), root(n, s), id(n, s);
  uf_init<<<blocks_for(n), kThreads, 0, s>>>(parent.data(), n);
  CUSCI_CHECK_LAUNCH();
  if (nnz > 0) {
    uf_hook<<<blocks_for(nnz), kThreads, 0, s>>>(indptr, indices, n, nnz, parent.data());
    CUSCI_CHECK_LAUNCH();
  }
  uf_flatten<<<blocks_for(n), kThreads, 0, s>>>(parent.data(), n, root.data());
  CUSCI_CHECK_LAUNCH();
  exclusive_sum(root.data(), id.data(), n, s);
  uf_label<<<blocks_for(n), kThreads, 0, s>>>(parent.data(), id.data(), n, labels);
  CUSCI_CHECK_LAUNCH();
  // count = id[n-1] + root[n-1]
  std::int32_t last[2];
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&last[0], id.data() + (n - 1), sizeof(std::int32_t), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&last[1], root.data() + (n - 1), sizeof(std::int32_t), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return static_cast<std::int64_t>(last[0]) + last[1];
}

std::int64_t bfs_device(std::int32_t n, const std::int32_t* indptr1, const std::int32_t* indices1,
                        const std::int32_t* indptr2, const std::int32_t* indices2, std::int32_t start,
                        std::int32_t* order, std::int32_t* pred, cudaStream_t s) {
  if (n == 0) return 0;
  const adj g{indptr1, indices1, indptr2, indices2, start};
  device_buffer<unsigned long long> key(n, s);
  device_buffer<std::int64_t> state(3, s);
  device_buffer<std::int32_t> cnt(static_cast<std::size_t>(n) + 1, s), offs(static_cast<std::size_t>(n) + 1, s);
  bfs_init<<<blocks_for(n), kThreads, 0, s>>>(n, start, key.data(), pred, order);
  CUSCI_CHECK_LAUNCH();
  const launch_facts f = facts();
  const std::int64_t fcap = f.bfs_fcap;
  const std::size_t smem = bfs_small_bytes(f.bfs_fcap, f.bfs_scap);
  std::int64_t lo = 0, hi = 1;
  while (hi > lo) {
    if (hi - lo <= fcap) {
      bfs_small_kernel<<<1, kSmallThreads, smem, s>>>(g, order, pred, key.data(), lo, hi, f.bfs_fcap, f.bfs_scap,
                                                      state.data());
      CUSCI_CHECK_LAUNCH();
      std::int64_t st[2];
      CUSCI_CUDA_TRY(cudaMemcpyAsync(st, state.data(), sizeof st, cudaMemcpyDeviceToHost, s));
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
      lo = st[0];
      hi = st[1];
      if (hi <= lo || hi - lo > fcap) continue;
      // the kernel stopped at a level whose edges outgrow its slots: that level takes the grid path
    }
    const std::int64_t next = bfs_level(g, order, pred, key.data(), cnt.data(), offs.data(), lo, hi, s);
    lo = hi;
    hi = next;
  }
  return hi;
}

bool rcm_block_device(const std::int64_t* indptr, const std::int32_t* indices, const std::int32_t* degree,
                      const std::int32_t* seeds, std::int32_t n, std::int32_t* order, cudaStream_t s) {
  if (n < 1 || n > kBlockBfsNodes) return false;
  const std::size_t smem = kBlockFixedBytes + sizeof(std::int32_t) * kBlockFrontier +
                           sizeof(unsigned) * ((static_cast<std::size_t>(n) + 31) / 32);
  if (smem > static_cast<std::size_t>(facts().rcm_smem_limit)) return false;
  device_buffer<int> status(1, s);
  rcm_block_kernel<<<1, kBlockThreads, smem, s>>>(indptr, indices, degree, seeds, n, order, status.data());
  CUSCI_CHECK_LAUNCH();
  return read_one(status.data(), s) == 1;
}

int dist_matrix_device(std::int64_t n, const double* graph, const std::int32_t* pred, bool directed,
                       double null_value, double* dist, cudaStream_t s) {
  if (n == 0) return 0;
  device_buffer<int> flag(1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(flag.data(), 0, sizeof(int), s));
  dist_kernel<<<blocks_for(n * n), kThreads, 0, s>>>(n, graph, pred, directed, null_value, dist, flag.data());
  CUSCI_CHECK_LAUNCH();
  return read_one(flag.data(), s);
}

std::int64_t laplacian_coo_device(std::int64_t n, std::int64_t nnz, const std::int64_t* row, const std::int64_t* col,
                                  const double* val, bool normed, int axis, double* w, std::int64_t* out_row,
                                  std::int64_t* out_col, double* out_val, cudaStream_t s) {
  if (n > 0) CUSCI_CUDA_TRY(cudaMemsetAsync(w, 0, sizeof(double) * n, s));
  device_buffer<std::int64_t> keep(nnz + 1, s), pos(nnz + 1, s);
  device_buffer<double> sc(n > 0 ? n : 1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(keep.data() + nnz, 0, sizeof(std::int64_t), s));
  if (nnz > 0) {
    lap_degrees<<<blocks_for(nnz), kThreads, 0, s>>>(nnz, row, col, val, axis, w, keep.data());
    CUSCI_CHECK_LAUNCH();
  }
  exclusive_sum(keep.data(), pos.data(), nnz + 1, s);
  const std::int64_t n_off = read_one(pos.data() + nnz, s);
  if (n > 0) {
    lap_scale<<<blocks_for(n), kThreads, 0, s>>>(n, normed, w, sc.data());
    CUSCI_CHECK_LAUNCH();
  }
  if (nnz + n > 0) {
    lap_write<<<blocks_for(nnz + n), kThreads, 0, s>>>(n, nnz, row, col, val, keep.data(), pos.data(), normed, w,
                                                       sc.data(), n_off, out_row, out_col, out_val);
    CUSCI_CHECK_LAUNCH();
  }
  // the returned degrees: normed -> sqrt (1 for isolated nodes)
  if (normed && n > 0) {
    dense_normed_diag<<<blocks_for(n), kThreads, 0, s>>>(n, w);
    CUSCI_CHECK_LAUNCH();
  }
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));  // the scratch buffers are released on return
  return n_off + n;
}

void laplacian_dense_device(std::int64_t n, double* m, bool normed, int axis, double* w, cudaStream_t s) {
  if (n == 0) return;
  dense_zero_diag<<<blocks_for(n), kThreads, 0, s>>>(n, m);
  CUSCI_CHECK_LAUNCH();
  dense_sums<<<blocks_for(n), kThreads, 0, s>>>(n, m, axis, w);
  CUSCI_CHECK_LAUNCH();
  dense_finish<<<blocks_for(n * n), kThreads, 0, s>>>(n, m, normed, w);
  CUSCI_CHECK_LAUNCH();
  if (normed) {
    dense_normed_diag<<<blocks_for(n), kThreads, 0, s>>>(n, w);
    CUSCI_CHECK_LAUNCH();
  }
}

void symmetrize_dense_device(std::int64_t n, const double* a, double* out, cudaStream_t s) {
  if (n == 0) return;
  dense_sym<<<blocks_for(n * n), kThreads, 0, s>>>(n, a, out);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::sparse::csgraph::detail
