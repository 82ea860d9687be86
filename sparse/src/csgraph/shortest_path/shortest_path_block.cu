// The single-block path of cusci::sparse::csgraph's shortest_path relaxation, for small graphs with
// non-negative weights (relax_block_device, called by relax_device in shortest_path_kernels.cu). A
// sparse graph of this size needs a few hundred short rounds of relaxation (a host emulation of this
// scheme on nh2010 from node 0: about 450 rounds, most of a few dozen nodes, then about 230 levels of
// the predecessor search), so the whole run of one source row stays inside one thread block of 1024
// threads: block barriers between rounds, no grid barrier, no launch and no host round trip. Each block takes
// rows blockIdx.x, blockIdx.x + gridDim.x, ... (one row per source, or one row for min_only).
//
// Relaxation: a near-far variant of delta-stepping (Meyer & Sanders, "Delta-stepping: a parallelizable
// shortest path algorithm", J. Algorithms 2003; Davidson et al., "Work-Efficient Parallel GPU Methods
// for Single-Source Shortest Paths", IPDPS 2014) with delta = the mean of the finite weights. Nodes
// whose distance improves to at most the threshold T go to the near queue (relaxed in the next
// round), the others to the far pile; when the near queue runs dry, T grows by delta (to the smallest
// far distance + delta when that bucket is empty) and the far pile is split: entries at or below the
// old T were already relaxed at their current distance and are dropped, entries at or below the new
// T join the near queue, the rest stay. A round loads up to 1024 queued nodes at a time, a block scan
// of their degrees spreads their edges over the threads (each finds its node by a binary search over
// the scanned offsets), and each edge does one 64-bit atomicMin on the distance word (non-negative
// doubles order like unsigned integers). Membership bits of the two near queues and of the far pile
// are shared-memory bitmaps (a node is queued at most once per round and held at most once in the
// pile); the queues keep their first entries in shared memory and spill to global memory. Every
// improvement lowers a distance to the float64 sum along a real path and the run stops only when no
// distance can improve, so the distances are the same fixed point as the grid path's and SciPy's
// (the smallest float64 sum along a shortest path), whatever the order of the relaxations.
//
// Predecessors: a breadth-first search from the sources over the tight edges (dist[v] + w ==
// dist[u], the same float64 sum), in the same rounds; the first to set a node's visited bit names its
// predecessor, so the predecessors form a tree (zero-weight cycles cannot close one); min_only's
// sources propagate along it.

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "csgraph/shortest_path/sp_internal.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"

namespace cusci::sparse::csgraph::detail::sp {
namespace {

constexpr int bt = 1024;                         // threads of the block (a multiple of 32, at most 1024)
constexpr int shared_queue = 2048;               // entries of each near queue held in shared memory
constexpr int weight_parts = 64;                 // blocks of the mean-weight reduction
constexpr int weight_threads = 256;
// Graphs the single block takes: 3 * N / 8 bytes of bitmaps fit in shared memory, and the edges are few
// enough for one SM to relax them all (with delta-stepping's repeats). Larger graphs go to the grid
// path, where a graph of low diameter relaxes in a few wide rounds over every SM.
constexpr std::int64_t block_max_nodes = std::int64_t{1} << 17;
constexpr std::int64_t block_max_edges = std::int64_t{1} << 19;

struct bparams {
  const std::int32_t* indptr;
  const std::int32_t* indices;
  const double* w;
  std::int32_t n;
  const std::int32_t* sources;  // [num_sources]; row r's source is sources[r] unless one_row
  std::int64_t num_sources;
  bool one_row;  // min_only: one row, every source at distance 0
  std::int64_t rows;
  double limit;
  const double* parts;  // [weight_parts][2]: sum and count of the finite non-negative weights
  double* dist;         // [rows, n]
  std::int32_t* pred;   // [rows, n] or nullptr
  std::int32_t* src_of; // [n] (one_row with predecessors) or nullptr
  std::int32_t* ws;     // [gridDim.x][3][n]: the two near queues' spill and the far pile
};

// Per-block scratch of fixed size.
struct fixed_shared {
  std::int32_t item[bt];   // the nodes of the chunk being relaxed
  std::int32_t start[bt];  // their first edge
  std::int32_t off[bt];    // exclusive prefix sum of their degrees
  std::int32_t src[bt];    // their source (BFS with min_only)
  double dv[bt];           // their distance
  std::int32_t wsum[32];
  double wmin[32];
  int count[2];            // sizes of the two near queues
  int far_count;           // size of the far pile
  int kept;
  double delta;
};

// The queues of one block: membership bitmaps in shared memory, entries in shared memory then spilled
// (bases and strides rather than arrays of pointers, which would live in local memory).
struct queues {
  unsigned* bits0;       // near queue k holds node u iff bit u of bits(k) is set (relaxation only)
  unsigned* farbits;     // far-pile membership; the visited set of the BFS
  std::int32_t* sq0;     // first shared_queue entries of each near queue: sq0 + k * shared_queue
  std::int32_t* gq0;     // the rest (global): gq0 + k * n
  std::int32_t* pile;    // the far pile (global, n)
  int words;             // bitmap words, (n + 31) / 32
  std::int32_t n;
  __device__ unsigned* bits(int k) const { return bits0 + k * words; }
};

__device__ inline std::int32_t q_at(const queues& q, int k, int i) {
  return i < shared_queue ? q.sq0[k * shared_queue + i]
                          : __ldcg(q.gq0 + static_cast<std::int64_t>(k) * q.n + (i - shared_queue));
}

__device__ inline void q_push(const queues& q, int* count, int k, std::int32_t u) {
  const int i = atomicAdd(count + k, 1);
  if (i < shared_queue) q.sq0[k * shared_queue + i] = u;
  else q.gq0[static_cast<std::int64_t>(k) * q.n + (i - shared_queue)] = u;
}

// Sets bit u; true when it was clear.
__device__ inline bool set_bit(unsigned* bits, std::int32_t u) {
  const unsigned m = 1u << (u & 31);
  return (atomicOr(bits + (u >> 5), m) & m) == 0u;
}

__device__ inline void clear_bit(unsigned* bits, std::int32_t u) { atomicAnd(bits + (u >> 5), ~(1u << (u & 31))); }

// Exclusive prefix sum of x over the block; *total gets the sum. Two barriers; wsum is read until the
// caller's next barrier.
__device__ inline int block_exclusive_scan(int x, std::int32_t* wsum, int* total) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  int incl = x;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const int y = __shfl_up_sync(0xFFFFFFFFu, incl, d);
    if (lane >= d) incl += y;
  }
  if (lane == 31) wsum[wid] = incl;
  __syncthreads();
  if (wid == 0) {
    int s = lane < bt / 32 ? wsum[lane] : 0;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const int y = __shfl_up_sync(0xFFFFFFFFu, s, d);
      if (lane >= d) s += y;
    }
    if (lane < bt / 32) wsum[lane] = s;
  }
  __syncthreads();
  *total = wsum[bt / 32 - 1];
  return incl - x + (wid > 0 ? wsum[wid - 1] : 0);
}

// Minimum of x over the block. One barrier; wmin is read until the caller's next barrier.
__device__ inline double block_min(double x, double* wmin) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) x = fmin(x, __shfl_xor_sync(0xFFFFFFFFu, x, d));
  if (lane == 0) wmin[wid] = x;
  __syncthreads();
  double m = wmin[0];
  for (int i = 1; i < bt / 32; ++i) m = fmin(m, wmin[i]);
  return m;
}

// Runs rounds until near queue `cur` is empty (cur ends on the empty queue; both counts are 0 then).
// BFS = false: relaxation with threshold T; BFS = true: the tight-edge search (visited = farbits).
// Called and left with every thread at a barrier.
template <bool BFS>
__device__ void run_rounds(const bparams& p, const queues& q, fixed_shared& f, int& cur, double* drow,
                           std::int32_t* prow, double T) {
  const int t = threadIdx.x;
  for (;;) {
    const int m = f.count[cur];
    if (m == 0) break;
    const int nxt = cur ^ 1;
    for (int base = 0; base < m; base += bt) {
      const int i = base + t;
      int deg = 0;
      if (i < m) {
        const std::int32_t v = q_at(q, cur, i);
        if (!BFS) clear_bit(q.bits(cur), v);  // this bitmap serves the queue of the round after next
        const std::int32_t e0 = __ldg(p.indptr + v);
        deg = __ldg(p.indptr + v + 1) - e0;
        f.item[t] = v;
        f.start[t] = e0;
        f.dv[t] = __ldcg(drow + v);  // the current distance (atomics change it in L2)
        if (BFS && p.src_of) f.src[t] = __ldcg(p.src_of + v);
      }
      int total = 0;
      f.off[t] = block_exclusive_scan(deg, f.wsum, &total);
      __syncthreads();
      const int cnt = min(bt, m - base);
      for (int k = t; k < total; k += bt) {
        int lo = 0, hi = cnt - 1;  // the last chunk node whose edges start at or before k
        while (lo < hi) {
          const int mid = (lo + hi + 1) >> 1;
          if (f.off[mid] <= k) lo = mid;
          else hi = mid - 1;
        }
        const std::int32_t e = f.start[lo] + (k - f.off[lo]);
        const std::int32_t u = __ldg(p.indices + e);
        const double nd = f.dv[lo] + __ldg(p.w + e);
        if constexpr (BFS) {
          const double du = __ldcg(drow + u);
          if (isfinite(du) && nd == du && set_bit(q.farbits, u)) {
            prow[u] = f.item[lo];
            if (p.src_of) p.src_of[u] = f.src[lo];
            q_push(q, f.count, nxt, u);
          }
        } else if (nd <= p.limit) {  // also false for NaN
          const unsigned long long nb = static_cast<unsigned long long>(__double_as_longlong(nd));
          if (nb < atomicMin(reinterpret_cast<unsigned long long*>(drow + u), nb)) {
            if (nd <= T) {
              if (set_bit(q.bits(nxt), u)) q_push(q, f.count, nxt, u);
            } else if (set_bit(q.farbits, u)) {
              q.pile[atomicAdd(&f.far_count, 1)] = u;
            }
          }
        }
      }
      __syncthreads();  // the chunk's scratch is free again
    }
    if (t == 0) f.count[cur] = 0;
    cur = nxt;
    __syncthreads();
  }
}

// The near queue `cur` is empty and the far pile is not: raises T (by delta; to the smallest far
// distance + delta when nothing lies in between) and moves the pile's entries at or below it to queue
// `cur`. Entries at or below the old T are dropped: their last improvement either queued them near or
// a previous split did, so they were relaxed at their current distance. Compacts the pile in place.
// Called and left with every thread at a barrier.
__device__ void split_far(const queues& q, fixed_shared& f, int cur, const double* drow, double& T, double delta) {
  const int t = threadIdx.x;
  double lower = T;
  T = T + delta;
  int F = f.far_count;
  for (;;) {
    __syncthreads();  // every thread has read far_count, kept and wmin
    if (t == 0) f.kept = 0;
    __syncthreads();
    double mn = INFINITY;
    for (int base = 0; base < F; base += bt) {
      const int i = base + t;
      std::int32_t u = -1;
      double d = 0.0;
      if (i < F) {
        u = __ldcg(q.pile + i);
        d = __ldcg(drow + u);
      }
      __syncthreads();  // this chunk is read before kept entries are written back (at lower indices)
      if (u >= 0) {
        if (d <= T) {
          clear_bit(q.farbits, u);
          if (d > lower && set_bit(q.bits(cur), u)) q_push(q, f.count, cur, u);
        } else {
          q.pile[atomicAdd(&f.kept, 1)] = u;
          mn = fmin(mn, d);
        }
      }
    }
    mn = block_min(mn, f.wmin);  // its barrier makes kept and count final
    const int kept = f.kept;
    if (f.count[cur] > 0 || kept == 0) {
      __syncthreads();
      if (t == 0) f.far_count = kept;
      __syncthreads();
      return;
    }
    lower = T;  // every kept entry lies above T: an empty bucket, skip to the smallest
    T = mn + delta;
    F = kept;
  }
}

__global__ void __launch_bounds__(bt, 1) block_sssp_kernel(bparams p) {
  extern __shared__ unsigned dyn[];
  __shared__ fixed_shared f;
  const int t = threadIdx.x;
  const std::int32_t n = p.n;
  const int words = (n + 31) / 32;
  queues q;
  q.bits0 = dyn;
  q.farbits = dyn + 2 * words;
  q.sq0 = reinterpret_cast<std::int32_t*>(dyn + 3 * words);
  q.gq0 = p.ws + static_cast<std::int64_t>(blockIdx.x) * 3 * n;
  q.pile = q.gq0 + 2 * static_cast<std::int64_t>(n);
  q.words = words;
  q.n = n;
  if (t == 0) {
    double sum = 0.0, cnt = 0.0;
    for (int i = 0; i < weight_parts; ++i) {
      sum += p.parts[2 * i];
      cnt += p.parts[2 * i + 1];
    }
    f.delta = cnt > 0.0 ? sum / cnt : 0.0;  // +inf when the sum overflows: plain label-correcting
  }
  const std::int64_t nsrc = p.one_row ? p.num_sources : 1;
  for (std::int64_t row = blockIdx.x; row < p.rows; row += gridDim.x) {
    double* drow = p.dist + row * n;
    std::int32_t* prow = p.pred ? p.pred + row * n : nullptr;
    for (int i = t; i < 3 * words; i += bt) dyn[i] = 0u;
    for (std::int32_t i = t; i < n; i += bt) {
      drow[i] = INFINITY;
      if (prow) prow[i] = null_predecessor;
      if (p.src_of) p.src_of[i] = null_predecessor;
    }
    if (t == 0) {
      f.count[0] = 0;
      f.count[1] = 0;
      f.far_count = 0;
    }
    __syncthreads();
    const double delta = f.delta;
    int cur = 0;
    for (std::int64_t i = t; i < nsrc; i += bt) {
      const std::int32_t s = __ldg(p.sources + (p.one_row ? i : row));
      drow[s] = 0.0;
      if (set_bit(q.bits(0), s)) q_push(q, f.count, 0, s);
    }
    __syncthreads();
    double T = delta;  // the sources are at 0
    for (;;) {
      run_rounds<false>(p, q, f, cur, drow, prow, T);
      if (f.far_count == 0) break;
      split_far(q, f, cur, drow, T, delta);
      if (f.count[cur] == 0) break;  // the pile held only relaxed entries
    }
    if (prow) {
      for (int i = t; i < words; i += bt) q.farbits[i] = 0u;
      __syncthreads();
      for (std::int64_t i = t; i < nsrc; i += bt) {
        const std::int32_t s = __ldg(p.sources + (p.one_row ? i : row));
        if (set_bit(q.farbits, s)) {
          if (p.src_of) p.src_of[s] = s;
          q_push(q, f.count, cur, s);
        }
      }
      __syncthreads();
      run_rounds<true>(p, q, f, cur, drow, prow, 0.0);
    }
    __syncthreads();  // before the next row resets the shared state
  }
}

// parts[2b], parts[2b + 1]: sum and count of the finite non-negative weights of block b's share, in a
// fixed order (delta, and so the schedule, is the same in every run).
__global__ void weight_parts_kernel(const double* w, std::int64_t nnz, double* parts) {
  __shared__ double ss[weight_threads], sc[weight_threads];
  const int t = threadIdx.x;
  double sum = 0.0, cnt = 0.0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * weight_threads + t; i < nnz;
       i += static_cast<std::int64_t>(gridDim.x) * weight_threads) {
    const double x = w[i];
    if (x >= 0.0 && x < INFINITY) {
      sum += x;
      cnt += 1.0;
    }
  }
  ss[t] = sum;
  sc[t] = cnt;
  __syncthreads();
  for (int s = weight_threads / 2; s > 0; s >>= 1) {
    if (t < s) {
      ss[t] += ss[t + s];
      sc[t] += sc[t + s];
    }
    __syncthreads();
  }
  if (t == 0) {
    parts[2 * blockIdx.x] = ss[0];
    parts[2 * blockIdx.x + 1] = sc[0];
  }
}

}  // namespace

bool relax_block_device(const relax_request& r, cudaStream_t s) {
  const std::int64_t n = r.g.n, nnz = r.g.nnz;
  if (!r.nonneg || r.virtual_source || n < 1 || n > block_max_nodes || nnz > block_max_edges) return false;
  const std::int64_t rows = r.min_only ? 1 : r.num_sources;
  if (rows < 1) return false;
  const std::int64_t words = (n + 31) / 32;
  const std::size_t dyn = static_cast<std::size_t>(3 * words + 2 * shared_queue) * sizeof(unsigned);
  int dev = 0, optin = 0, sms = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cudaFuncAttributes fa{};
  CUSCI_CUDA_TRY(cudaFuncGetAttributes(&fa, block_sssp_kernel));
  if (fa.sharedSizeBytes + dyn > static_cast<std::size_t>(optin) || fa.maxThreadsPerBlock < bt) return false;
  CUSCI_CUDA_TRY(cudaFuncSetAttribute(block_sssp_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(dyn)));
  int per_sm = 0;
  CUSCI_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, block_sssp_kernel, bt, dyn));
  if (per_sm < 1) return false;
  const std::int64_t grid = std::min<std::int64_t>(rows, std::int64_t{per_sm} * std::max(sms, 1));

  device_buffer<double> parts(2 * weight_parts, s);
  device_buffer<std::int32_t> ws(static_cast<std::size_t>(grid * 3 * n), s);
  weight_parts_kernel<<<weight_parts, weight_threads, 0, s>>>(r.g.w, nnz, parts.data());
  CUSCI_CHECK_LAUNCH();
  bparams p{};
  p.indptr = r.g.indptr;
  p.indices = r.g.indices;
  p.w = r.g.w;
  p.n = static_cast<std::int32_t>(n);
  p.sources = r.sources;
  p.num_sources = r.num_sources;
  p.one_row = r.min_only;
  p.rows = rows;
  p.limit = r.limit;
  p.parts = parts.data();
  p.dist = r.dist;
  p.pred = r.pred;
  p.src_of = r.pred ? r.src_of : nullptr;
  p.ws = ws.data();
  block_sssp_kernel<<<static_cast<unsigned>(grid), bt, dyn, s>>>(p);
  CUSCI_CHECK_LAUNCH();
  return true;
}

}  // namespace cusci::sparse::csgraph::detail::sp
