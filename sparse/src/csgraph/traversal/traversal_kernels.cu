// Device kernels of the csgraph traversal family: weakly connected components (lock-free
// union-find), SciPy-ordered breadth-first search, construct_dist_matrix path walks and the
// laplacian cores. See traversal_internal.hpp for the contracts.

#include <cstdint>
#include <limits>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>
#include <math_constants.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
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
    std::int32_t a = uf_find(vp, lo), b = uf_find(vp, indices[e]);
    while (a != b) {
      if (a > b) { const std::int32_t t = a; a = b; b = t; }
      const std::int32_t old = atomicCAS(parent + b, b, a);
      if (old == b) break;
      b = uf_find(vp, old);
      a = uf_find(vp, a);
    }
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

// Many small levels in one block: runs levels while the frontier has at most `limit` nodes; writes the
// final (lo, hi) to state[0..1]. cnt: scratch of >= limit entries.
constexpr int kSmallThreads = 1024;
__global__ void __launch_bounds__(kSmallThreads) bfs_small_kernel(adj g, std::int32_t* order, std::int32_t* pred,
                                                                  unsigned long long* key, std::int32_t* cnt,
                                                                  std::int64_t lo, std::int64_t hi, std::int64_t limit,
                                                                  std::int64_t* state) {
  using scan_t = cub::BlockScan<std::int32_t, kSmallThreads>;
  __shared__ typename scan_t::TempStorage scan_tmp;
  __shared__ std::int32_t carry;
  constexpr int groups = kSmallThreads / kGroup;
  const int gid = threadIdx.x / kGroup, l = threadIdx.x % kGroup;
  const unsigned mask = group_mask();
  while (hi > lo && hi - lo <= limit) {
    for (std::int64_t p = lo + gid; p < hi; p += groups) bfs_claim(g, order[p], p, lo, l, key);
    __syncthreads();
    for (std::int64_t p = lo + gid; p < hi; p += groups) {
      const std::int32_t c = bfs_collect(g, order[p], p, l, mask, key, 0, nullptr, nullptr);
      if (l == 0) cnt[p - lo] = c;
    }
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    // exclusive scan of cnt[0, hi - lo) in chunks of the block size
    for (std::int64_t b = 0; b < hi - lo; b += kSmallThreads) {
      const std::int64_t i = b + threadIdx.x;
      const std::int32_t v = i < hi - lo ? cnt[i] : 0;
      std::int32_t ex = 0, total = 0;
      scan_t(scan_tmp).ExclusiveSum(v, ex, total);
      const std::int32_t base = carry;
      __syncthreads();
      if (i < hi - lo) cnt[i] = base + ex;
      if (threadIdx.x == 0) carry = base + total;
      __syncthreads();
    }
    for (std::int64_t p = lo + gid; p < hi; p += groups)
      bfs_collect(g, order[p], p, l, mask, key, hi + cnt[p - lo], order, pred);
    const std::int64_t next = hi + carry;
    __syncthreads();
    lo = hi;
    hi = next;
  }
  if (threadIdx.x == 0) {
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

std::int64_t weak_components_device(std::int32_t n, std::int64_t nnz, const std::int32_t* indptr,
                                    const std::int32_t* indices, std::int32_t* labels, cudaStream_t s) {
  if (n == 0) return 0;
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
  device_buffer<std::int32_t> cnt(static_cast<std::size_t>(n) + 1, s), offs(static_cast<std::size_t>(n) + 1, s);
  device_buffer<std::int64_t> state(2, s);
  bfs_init<<<blocks_for(n), kThreads, 0, s>>>(n, start, key.data(), pred, order);
  CUSCI_CHECK_LAUNCH();
  constexpr std::int64_t small_limit = 4096;
  std::int64_t lo = 0, hi = 1;
  while (hi > lo) {
    if (hi - lo <= small_limit) {
      bfs_small_kernel<<<1, kSmallThreads, 0, s>>>(g, order, pred, key.data(), cnt.data(), lo, hi, small_limit,
                                                   state.data());
      CUSCI_CHECK_LAUNCH();
      std::int64_t st[2];
      CUSCI_CUDA_TRY(cudaMemcpyAsync(st, state.data(), sizeof st, cudaMemcpyDeviceToHost, s));
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
      lo = st[0];
      hi = st[1];
      continue;
    }
    const std::int64_t f = hi - lo;
    const unsigned blocks = blocks_for(f * kGroup);
    bfs_claim_kernel<<<blocks, kThreads, 0, s>>>(g, order, lo, hi, key.data());
    CUSCI_CHECK_LAUNCH();
    CUSCI_CUDA_TRY(cudaMemsetAsync(cnt.data() + f, 0, sizeof(std::int32_t), s));
    bfs_count_kernel<<<blocks, kThreads, 0, s>>>(g, order, lo, hi, key.data(), cnt.data());
    CUSCI_CHECK_LAUNCH();
    exclusive_sum(cnt.data(), offs.data(), f + 1, s);
    bfs_write_kernel<<<blocks, kThreads, 0, s>>>(g, order, lo, hi, key.data(), offs.data(), pred);
    CUSCI_CHECK_LAUNCH();
    const std::int32_t total = read_one(offs.data() + f, s);
    lo = hi;
    hi += total;
  }
  return hi;
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
