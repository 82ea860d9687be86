// Device algorithms of the csgraph "flow" family:
//   - minimum_spanning_tree: Boruvka over edges ranked by a stable radix sort of their weights (the
//     unique minimum spanning forest of the order (weight, CSR position), which is SciPy's Kruskal tree);
//   - reverse_cuthill_mckee: SciPy's Cuthill-McKee order by a level-synchronous BFS in one persistent
//     thread block (each level's nodes claimed by their first parent in the order, placed by (parent
//     position, degree, storage offset in the parent's row)), host fallback for rows too long for it.

#include <algorithm>
#include <cstdint>
#include <vector>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda_runtime.h>

#include "csgraph/flow/flow_detail.hpp"
#include "csgraph/traversal/rcm_block.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::csgraph::detail {
namespace {

constexpr int kThreads = 256;
inline unsigned blocks_for(std::int64_t n) {
  return static_cast<unsigned>(std::max<std::int64_t>(1, (n + kThreads - 1) / kThreads));
}
constexpr unsigned kNone = 0xFFFFFFFFu;

template <class T>
T read_one(const T* p, cudaStream_t s) {
  T v{};
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&v, p, sizeof(T), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return v;
}

// ---- minimum spanning tree ----------------------------------------------------------------------

// The row of every entry (one thread per row).
__global__ void mst_rows(const std::int32_t* __restrict__ indptr, std::int32_t n, std::int32_t* __restrict__ row) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (std::int32_t e = indptr[i]; e < indptr[i + 1]; ++e) row[e] = i;
}

// Radix-sortable key of a weight in NumPy's sort order: -0.0 equal to 0.0, every NaN last.
__device__ inline unsigned long long weight_key(double w) {
  if (w != w) return ~0ull;
  if (w == 0.0) w = 0.0;
  const auto b = static_cast<unsigned long long>(__double_as_longlong(w));
  return (b & 0x8000000000000000ull) ? ~b : (b | 0x8000000000000000ull);
}

__global__ void mst_keys(const double* __restrict__ data, std::int32_t nnz, unsigned long long* __restrict__ keys,
                         std::int32_t* __restrict__ pos) {
  const std::int32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= nnz) return;
  keys[e] = weight_key(data[e]);
  pos[e] = e;
}

// Edge r of the ranked list: its endpoints, and the list of candidate edges (self loops dropped).
__global__ void mst_edges(const std::int32_t* __restrict__ perm, const std::int32_t* __restrict__ row,
                          const std::int32_t* __restrict__ col, std::int32_t nnz, std::int32_t* __restrict__ eu,
                          std::int32_t* __restrict__ ev, std::int32_t* __restrict__ ids, std::uint8_t* __restrict__ flag) {
  const std::int32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nnz) return;
  const std::int32_t e = perm[r];
  eu[r] = row[e];
  ev[r] = col[e];
  ids[r] = r;
  flag[r] = row[e] != col[e];
}

__global__ void mst_init(std::int32_t n, std::int32_t* __restrict__ comp, std::int32_t* __restrict__ parent) {
  const std::int32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  comp[v] = v;
  parent[v] = v;
}

// Every component's lowest-ranked outgoing edge.
__global__ void mst_min_edge(const std::int32_t* __restrict__ act, std::int32_t m, const std::int32_t* __restrict__ eu,
                             const std::int32_t* __restrict__ ev, const std::int32_t* __restrict__ comp,
                             unsigned* __restrict__ best) {
  const std::int32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const std::int32_t r = act[k];
  const std::int32_t cu = comp[eu[r]], cv = comp[ev[r]];
  if (cu == cv) return;
  const auto ur = static_cast<unsigned>(r);
  if (best[cu] > ur) atomicMin(best + cu, ur);
  if (best[cv] > ur) atomicMin(best + cv, ur);
}

// Roots hook along their edge (of a mutual pair the lower id stays a root); the edge joins the tree.
__global__ void mst_hook(std::int32_t n, const std::int32_t* __restrict__ eu, const std::int32_t* __restrict__ ev,
                         const std::int32_t* __restrict__ perm, const std::int32_t* __restrict__ comp,
                         const unsigned* __restrict__ best, std::int32_t* __restrict__ parent,
                         std::uint8_t* __restrict__ in_tree) {
  const std::int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || comp[c] != c) return;
  const unsigned b = best[c];
  if (b == kNone) return;
  const std::int32_t a = comp[eu[b]], d = comp[ev[b]];
  const std::int32_t other = a == c ? d : a;
  in_tree[perm[b]] = 1;
  if (best[other] == b && c < other) return;  // mutual minimum: c stays the root
  parent[c] = other;
}

// Pointer jumping over the roots' parents (in place; a stale read still names an ancestor).
__global__ void mst_jump(std::int32_t n, const std::int32_t* __restrict__ comp, std::int32_t* parent,
                         int* __restrict__ changed) {
  const std::int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || comp[c] != c) return;
  volatile std::int32_t* p = parent;
  bool ch = false;
  for (int it = 0; it < 32; ++it) {
    const std::int32_t x = p[c], gx = p[x];
    if (x == gx) break;
    p[c] = gx;
    ch = true;
  }
  if (ch) *changed = 1;
}

__global__ void mst_relabel(std::int32_t n, std::int32_t* __restrict__ comp, const std::int32_t* __restrict__ parent) {
  const std::int32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  comp[v] = parent[comp[v]];
}

struct crosses {
  const std::int32_t* eu;
  const std::int32_t* ev;
  const std::int32_t* comp;
  __device__ bool operator()(std::int32_t r) const { return comp[eu[r]] != comp[ev[r]]; }
};

// Entries kept in the result: tree edges of non-zero weight (SciPy's eliminate_zeros()).
__global__ void mst_keep(const double* __restrict__ data, std::int32_t nnz, std::uint8_t* __restrict__ in_tree) {
  const std::int32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= nnz) return;
  if (in_tree[e] && data[e] == 0.0) in_tree[e] = 0;
}

__global__ void mst_row_counts(const std::int32_t* __restrict__ indptr, std::int32_t n,
                               const std::uint8_t* __restrict__ keep, std::int32_t* __restrict__ cnt) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  if (i == 0) {
    cnt[0] = 0;
    return;
  }
  std::int32_t c = 0;
  for (std::int32_t e = indptr[i - 1]; e < indptr[i]; ++e) c += keep[e];
  cnt[i] = c;
}

template <class T>
void select_flagged(const T* in, const std::uint8_t* flags, T* out, std::int32_t n, std::int32_t* count,
                    cudaStream_t s) {
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, bytes, in, flags, out, count, n, s));
  device_buffer<unsigned char> tmp(std::max<std::size_t>(bytes, 1), s);
  CUSCI_CUDA_TRY(cub::DeviceSelect::Flagged(tmp.data(), bytes, in, flags, out, count, n, s));
}

}  // namespace

csr_matrix mst_boruvka(const csr_matrix& graph) {
  cudaStream_t s = get_current_stream();
  const auto n = static_cast<std::int32_t>(graph.shape()[0]);
  const auto nnz = static_cast<std::int32_t>(graph.nnz());
  const ndarray indptr = graph.indptr().astype(cusci::dtype::int32, false);
  const ndarray indices = graph.indices().astype(cusci::dtype::int32, false);
  const ndarray data = graph.data().astype(cusci::dtype::float64, false);
  const auto* ip = indptr.data_as<std::int32_t>();
  const auto* ix = indices.data_as<std::int32_t>();
  const auto* dv = data.data_as<double>();
  if (nnz == 0 || n <= 1) {
    return csr_matrix::from_valid(cusci::empty({0}, cusci::dtype::float64), cusci::empty({0}, cusci::dtype::int32),
                                  cusci::zeros({static_cast<std::int64_t>(n) + 1}, cusci::dtype::int32), {n, n}, true);
  }
  // Rank the edges: stable radix sort of the weight keys (ties keep the CSR order).
  device_buffer<std::int32_t> row(nnz, s), pos(nnz, s), perm(nnz, s);
  device_buffer<unsigned long long> keys(nnz, s), keys_sorted(nnz, s);
  mst_rows<<<blocks_for(n), kThreads, 0, s>>>(ip, n, row.data());
  CUSCI_CHECK_LAUNCH();
  mst_keys<<<blocks_for(nnz), kThreads, 0, s>>>(dv, nnz, keys.data(), pos.data());
  CUSCI_CHECK_LAUNCH();
  {
    std::size_t bytes = 0;
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.data(), keys_sorted.data(), pos.data(),
                                                   perm.data(), nnz, 0, 64, s));
    device_buffer<unsigned char> tmp(std::max<std::size_t>(bytes, 1), s);
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, keys.data(), keys_sorted.data(), pos.data(),
                                                   perm.data(), nnz, 0, 64, s));
  }
  keys = {};
  keys_sorted = {};
  device_buffer<std::int32_t> eu(nnz, s), ev(nnz, s), act(nnz, s), act2(nnz, s), count(1, s);
  device_buffer<std::uint8_t> flag(nnz, s), in_tree(nnz, s);
  mst_edges<<<blocks_for(nnz), kThreads, 0, s>>>(perm.data(), row.data(), ix, nnz, eu.data(), ev.data(), pos.data(),
                                                 flag.data());
  CUSCI_CHECK_LAUNCH();
  select_flagged(pos.data(), flag.data(), act.data(), nnz, count.data(), s);
  std::int32_t m = read_one(count.data(), s);
  device_buffer<std::int32_t> comp(n, s), parent(n, s);
  device_buffer<unsigned> best(n, s);
  device_buffer<int> changed(1, s);
  mst_init<<<blocks_for(n), kThreads, 0, s>>>(n, comp.data(), parent.data());
  CUSCI_CHECK_LAUNCH();
  CUSCI_CUDA_TRY(cudaMemsetAsync(in_tree.data(), 0, nnz, s));
  std::size_t sel_bytes = 0;
  const crosses pred{eu.data(), ev.data(), comp.data()};
  CUSCI_CUDA_TRY(cub::DeviceSelect::If(nullptr, sel_bytes, act.data(), act2.data(), count.data(), nnz, pred, s));
  device_buffer<unsigned char> sel_tmp(std::max<std::size_t>(sel_bytes, 1), s);
  while (m > 0) {  // Boruvka rounds: every round at least halves the number of components with edges
    CUSCI_CUDA_TRY(cudaMemsetAsync(best.data(), 0xFF, sizeof(unsigned) * n, s));
    mst_min_edge<<<blocks_for(m), kThreads, 0, s>>>(act.data(), m, eu.data(), ev.data(), comp.data(), best.data());
    CUSCI_CHECK_LAUNCH();
    mst_hook<<<blocks_for(n), kThreads, 0, s>>>(n, eu.data(), ev.data(), perm.data(), comp.data(), best.data(),
                                                parent.data(), in_tree.data());
    CUSCI_CHECK_LAUNCH();
    while (true) {
      CUSCI_CUDA_TRY(cudaMemsetAsync(changed.data(), 0, sizeof(int), s));
      mst_jump<<<blocks_for(n), kThreads, 0, s>>>(n, comp.data(), parent.data(), changed.data());
      CUSCI_CHECK_LAUNCH();
      if (read_one(changed.data(), s) == 0) break;
    }
    mst_relabel<<<blocks_for(n), kThreads, 0, s>>>(n, comp.data(), parent.data());
    CUSCI_CHECK_LAUNCH();
    CUSCI_CUDA_TRY(cub::DeviceSelect::If(sel_tmp.data(), sel_bytes, act.data(), act2.data(), count.data(), m, pred, s));
    std::swap(act, act2);
    m = read_one(count.data(), s);
  }
  // The result: the tree's entries of non-zero weight, in the graph's CSR order.
  mst_keep<<<blocks_for(nnz), kThreads, 0, s>>>(dv, nnz, in_tree.data());
  CUSCI_CHECK_LAUNCH();
  ndarray out_ptr = cusci::empty({static_cast<std::int64_t>(n) + 1}, cusci::dtype::int32);
  auto* op = out_ptr.data_as<std::int32_t>();
  mst_row_counts<<<blocks_for(static_cast<std::int64_t>(n) + 1), kThreads, 0, s>>>(ip, n, in_tree.data(), op);
  CUSCI_CHECK_LAUNCH();
  {
    std::size_t bytes = 0;
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, op, op, n + 1, s));
    device_buffer<unsigned char> tmp(std::max<std::size_t>(bytes, 1), s);
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp.data(), bytes, op, op, n + 1, s));
  }
  const std::int32_t kept = read_one(op + n, s);
  ndarray out_idx = cusci::empty({kept}, cusci::dtype::int32);
  ndarray out_data = cusci::empty({kept}, cusci::dtype::float64);
  if (kept > 0) {
    select_flagged(ix, in_tree.data(), out_idx.data_as<std::int32_t>(), nnz, count.data(), s);
    select_flagged(dv, in_tree.data(), out_data.data_as<double>(), nnz, count.data(), s);
  }
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));  // the temporaries are released to the pool after their use
  return csr_matrix::from_valid(out_data, out_idx, out_ptr, {n, n});
}

// ---- Reverse Cuthill-McKee ----------------------------------------------------------------------
namespace {

constexpr int kRcmThreads = 1024;
constexpr std::int64_t kRcmMaxRow = 2048;  // longer rows: host fallback (the placement is quadratic in a row)
constexpr unsigned long long kFree = ~0ull;

// SciPy's _node_degrees: row length, +1 when the diagonal is stored. Also the longest row.
__global__ void rcm_degrees(const std::int64_t* __restrict__ indptr, const std::int32_t* __restrict__ indices,
                            std::int32_t n, std::int32_t* __restrict__ degree, std::int32_t* __restrict__ node,
                            unsigned long long* __restrict__ claim, unsigned long long* __restrict__ max_row) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::int64_t b = indptr[i], e = indptr[i + 1];
  std::int64_t d = e - b;
  for (std::int64_t k = b; k < e; ++k)
    if (indices[k] == i) {
      ++d;
      break;
    }
  degree[i] = static_cast<std::int32_t>(d);
  node[i] = i;
  claim[i] = kFree;
  if (e - b > 0) atomicMax(max_row, static_cast<unsigned long long>(e - b));
}

// The whole Cuthill-McKee order in one block. order[pos]: the node at position pos; claim[v]: the
// ((position of the first parent + 1) << 32 | offset in its row) that reached v (0 for a start node,
// which no offer matches; kFree while unreached). off: scratch [n]. seeds: the nodes by ascending degree (stable).
__global__ void __launch_bounds__(kRcmThreads) rcm_block(const std::int64_t* __restrict__ indptr,
                                                         const std::int32_t* __restrict__ indices,
                                                         const std::int32_t* __restrict__ degree,
                                                         const std::int32_t* __restrict__ seeds, std::int32_t n,
                                                         unsigned long long* claim, std::int32_t* order,
                                                         std::int32_t* off, int gshift) {
  using scan_t = cub::BlockScan<std::int32_t, kRcmThreads>;
  const int group = 1 << gshift, lane = static_cast<int>(threadIdx.x) & (group - 1);
  const std::int32_t per_pass = kRcmThreads >> gshift;
  __shared__ typename scan_t::TempStorage scan_tmp;
  __shared__ std::int32_t s_next;
  const int t = threadIdx.x;
  // Nodes of degree 0 lead the degree argsort and are components of their own: they take the first
  // positions in seed order, in bulk.
  if (t == 0) s_next = n;
  __syncthreads();
  for (std::int32_t q = t; q < n; q += kRcmThreads) {
    const std::int32_t v = seeds[q];
    if (degree[v] == 0) {
      order[q] = v;
      claim[v] = 0;
    } else if (q == 0 || degree[seeds[q - 1]] == 0) {
      s_next = q;  // the first seed of positive degree (one thread writes it)
    }
  }
  __syncthreads();
  std::int32_t filled = s_next;  // positions assigned so far (the same in every thread)
  std::int32_t z = s_next;       // scan position in seeds
  __syncthreads();
  while (filled < n) {
    // Next start node: the first seed still free (SciPy's outer loop over the degree argsort). Every
    // seed before z is placed, and a free node exists while filled < n.
    while (true) {
      const std::int32_t q = z + t;
      if (__syncthreads_or(q < n && claim[seeds[q]] == kFree)) break;
      z += kRcmThreads;
    }
    if (t == 0) s_next = n;
    __syncthreads();
    if (z + t < n && claim[seeds[z + t]] == kFree) atomicMin(&s_next, z + t);
    __syncthreads();
    z = s_next;
    const std::int32_t seed = seeds[z];
    __syncthreads();
    if (t == 0) {
      claim[seed] = 0;
      order[filled] = seed;
    }
    std::int32_t ls = filled, le = filled + 1;
    filled = le;
    __syncthreads();
    while (ls < le) {
      // Each frontier node is handled by a group of G = 2^gshift lanes of one warp (G chosen from the
      // mean row length), the lanes striding over its row.
      // 1. Claims: every frontier node offers itself to its neighbours; the first parent in the order
      //    (then the first offset in its row) wins. Nodes placed earlier hold smaller keys.
      for (std::int32_t p = ls + (t >> gshift); p < le; p += per_pass) {
        const std::int32_t u = order[p];
        const std::int64_t b = indptr[u], e = indptr[u + 1];
        for (std::int64_t k = b + lane; k < e; k += group) {
          const std::int32_t v = indices[k];
          const unsigned long long key = (static_cast<unsigned long long>(p + 1) << 32) | static_cast<unsigned long long>(k - b);
          if (claim[v] > key) atomicMin(claim + v, key);
        }
      }
      __syncthreads();
      // 2. Children per frontier node (summed over its group), and their offsets (block scan over the
      //    frontier in chunks of per_pass nodes; only the group leaders contribute).
      std::int32_t carry = 0;
      for (std::int32_t base = ls; base < le; base += per_pass) {
        const std::int32_t p = base + (t >> gshift);
        std::int32_t c = 0;
        if (p < le) {
          const std::int32_t u = order[p];
          const std::int64_t b = indptr[u], e = indptr[u + 1];
          for (std::int64_t k = b + lane; k < e; k += group) {
            const unsigned long long key = (static_cast<unsigned long long>(p + 1) << 32) | static_cast<unsigned long long>(k - b);
            c += claim[indices[k]] == key;
          }
        }
        for (int o = group >> 1; o > 0; o >>= 1) c += __shfl_down_sync(0xFFFFFFFFu, c, o, group);
        if (lane != 0) c = 0;
        std::int32_t excl = 0, agg = 0;
        scan_t(scan_tmp).ExclusiveSum(c, excl, agg);
        if (p < le && lane == 0) off[p] = carry + excl;
        carry += agg;
        __syncthreads();
      }
      // 3. Placement: the children of a parent sorted by (degree, offset in its row) (SciPy's stable
      //    insertion sort of the newly appended nodes); each lane ranks the children at its offsets.
      for (std::int32_t p = ls + (t >> gshift); p < le; p += per_pass) {
        const std::int32_t u = order[p];
        const std::int64_t b = indptr[u], e = indptr[u + 1];
        const unsigned long long pk = static_cast<unsigned long long>(p + 1) << 32;
        for (std::int64_t k = b + lane; k < e; k += group) {
          const std::int32_t v = indices[k];
          if (claim[v] != (pk | static_cast<unsigned long long>(k - b))) continue;
          const std::int32_t dv = degree[v];
          std::int32_t rank = 0;
          for (std::int64_t k2 = b; k2 < e; ++k2) {
            if (k2 == k) continue;
            const std::int32_t w = indices[k2];
            if (claim[w] != (pk | static_cast<unsigned long long>(k2 - b))) continue;
            const std::int32_t dw = degree[w];
            rank += dw < dv || (dw == dv && k2 < k);
          }
          order[le + off[p] + rank] = v;
        }
      }
      __syncthreads();
      ls = le;
      le += carry;
      filled = le;
      __syncthreads();
    }
  }
}

__global__ void rcm_reverse(const std::int32_t* __restrict__ order, std::int32_t n, std::int32_t* __restrict__ out) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[n - 1 - i] = order[i];
}

}  // namespace

ndarray rcm_ordering(const ndarray& indices_in, const ndarray& indptr_in, std::int64_t n64) {
  cudaStream_t s = get_current_stream();
  const auto n = static_cast<std::int32_t>(n64);
  const ndarray indptr = indptr_in.astype(cusci::dtype::int64, false);
  const ndarray indices = indices_in.astype(cusci::dtype::int32, false);
  const auto* ip = indptr.data_as<std::int64_t>();
  const auto* ix = indices.data_as<std::int32_t>();
  device_buffer<std::int32_t> degree(n, s), node(n, s), seeds(n, s), degree_sorted(n, s), order(n, s), off(n, s);
  device_buffer<unsigned long long> claim(n, s), max_row(1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(max_row.data(), 0, sizeof(unsigned long long), s));
  rcm_degrees<<<blocks_for(n), kThreads, 0, s>>>(ip, ix, n, degree.data(), node.data(), claim.data(), max_row.data());
  CUSCI_CHECK_LAUNCH();
  if (static_cast<std::int64_t>(read_one(max_row.data(), s)) > kRcmMaxRow) {
    // Host fallback: both blocks' placement steps are quadratic in a row's length.
    host_csr h;
    h.nr = h.nc = n;
    h.indptr = to_host(indptr).to_vector<std::int64_t>();
    h.indices = to_host(indices).to_vector<std::int32_t>();
    return asarray(rcm_host(h));
  }
  {  // start-node order: stable argsort of the degrees
    std::size_t bytes = 0;
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, degree.data(), degree_sorted.data(), node.data(),
                                                   seeds.data(), n, 0, 32, s));
    device_buffer<unsigned char> tmp(std::max<std::size_t>(bytes, 1), s);
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, degree.data(), degree_sorted.data(), node.data(),
                                                   seeds.data(), n, 0, 32, s));
  }
  ndarray out = cusci::empty({n64}, cusci::dtype::int32);
  // Small graphs with short rows: the whole search in one block with its levels in shared memory
  // (traversal family); false when a level does not fit, and the general kernel below runs instead. Rows
  // longer than about 8 entries on average go to the general kernel, which gives a node as many lanes as
  // the mean row length (twenty-third table of docs/benchmarks.md: bcsstk16, 59 a row, 2.68 ms against
  // 1.34 ms; nh2010, 4.8 a row, 3.43 ms against 3.63 ms).
  if (indices.size() <= 8 * n64 && rcm_block_device(ip, ix, degree.data(), seeds.data(), n, order.data(), s)) {
    rcm_reverse<<<blocks_for(n), kThreads, 0, s>>>(order.data(), n, out.data_as<std::int32_t>());
    CUSCI_CHECK_LAUNCH();
    CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
    return out;
  }
  // lanes per frontier node: the mean row length rounded up to a power of 2, at most a warp
  int gshift = 0;
  while (gshift < 5 && (std::int64_t{1} << gshift) * n < indices.size()) ++gshift;
  rcm_block<<<1, kRcmThreads, 0, s>>>(ip, ix, degree.data(), seeds.data(), n, claim.data(), order.data(), off.data(),
                                      gshift);
  CUSCI_CHECK_LAUNCH();
  rcm_reverse<<<blocks_for(n), kThreads, 0, s>>>(order.data(), n, out.data_as<std::int32_t>());
  CUSCI_CHECK_LAUNCH();
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return out;
}

}  // namespace cusci::sparse::csgraph::detail
