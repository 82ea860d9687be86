// Device kernels of cusci::sparse::csgraph's shortest_path family:
//   - the grid path of the relaxation, for graphs with negative weights (Bellman-Ford, Johnson's
//     potentials) and for graphs the single-block path of shortest_path_block.cu (which relax_device
//     tries first) does not take (too large, or too little shared memory on the device): the
//     label-correcting relaxation (frontier / work-queue Bellman-Ford, asynchronous: improved
//     distances are visible to the same round) in one persistent cooperative kernel; block 0 alone
//     runs the rounds while the frontier is small (no grid barrier), the whole grid otherwise. Many
//     sources are batched as rows of one problem (work items are row * n + node);
//   - the negative-cycle check with SciPy's tolerance after the round bound;
//   - the predecessor pass: a breadth-first search over the tight edges (dist[u] + w == dist[v]) from
//     the sources, in the same persistent kernel scheme; the winner of a CAS on the level names the
//     predecessor, so the predecessors always form a tree (zero-weight cycles cannot make a cycle);
//   - blocked Floyd-Warshall (3 phases per 32 x 32 tile step) with SciPy's predecessor rule;
//   - small helpers (weight scan, unit weights, Johnson's reweighting).

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "csgraph/shortest_path/sp_internal.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"

namespace cg = cooperative_groups;

namespace cusci::sparse::csgraph::detail::sp {
namespace {

constexpr int threads = 256;
constexpr int relax_threads = 512;
constexpr unsigned unset_level = 0xFFFFFFFFu;
constexpr unsigned source_stamp = 0xFFFFFFFEu;

inline unsigned blocks_for(std::int64_t n, int t = threads) {
  std::int64_t b = (n + t - 1) / t;
  if (b < 1) b = 1;
  if (b > 65535LL * 32) b = 65535LL * 32;
  return static_cast<unsigned>(b);
}

// Control words of one persistent run.
struct control {
  unsigned long long count[3];  // frontier sizes, rotating by round % 3
  long long round;              // handed from block 0 to the grid after a block-local stretch
  unsigned long long overflow;  // the round bound was reached with a non-empty frontier
  long long bad;                // negative-cycle node (LLONG_MAX: none)
};

struct kparams {
  const std::int32_t* indptr;
  const std::int32_t* indices;
  const double* w;
  std::int64_t n;
  double* dist;  // [rows, n]
  unsigned* q0;
  unsigned* q1;
  unsigned* mark;  // relaxation: stamp of the round an item was queued for; BFS: the level
  control* ctl;
  double limit;
  long long max_rounds;
  unsigned small;
  // BFS only
  std::int32_t* pred;
  std::int32_t* src_of;
};

__device__ inline unsigned long long vload(const unsigned long long* p) {
  return *reinterpret_cast<const volatile unsigned long long*>(p);
}

// atomic min on a double of any sign (CAS loop); returns true when v lowered the value.
__device__ inline bool atomic_min_any(double* a, double v) {
  auto* p = reinterpret_cast<unsigned long long*>(a);
  unsigned long long old = __ldcg(p);
  while (v < __longlong_as_double(static_cast<long long>(old))) {
    const unsigned long long prev = atomicCAS(p, old, static_cast<unsigned long long>(__double_as_longlong(v)));
    if (prev == old) return true;
    old = prev;
  }
  return false;
}

// Queues `idx` into qout with one atomicAdd per group of active lanes (warp-aggregated: the queue
// counter is a single hot address).
__device__ inline void push(unsigned long long* cout, unsigned* qout, std::int64_t idx) {
  cg::coalesced_group g = cg::coalesced_threads();
  unsigned long long base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(cout, static_cast<unsigned long long>(g.size()));
  base = g.shfl(base, 0);
  qout[base + g.thread_rank()] = static_cast<unsigned>(idx);
}

constexpr int ilp = 4;  // edges of one item handled together (independent loads and atomics)

// One round of the relaxation over the items [tid, m) with stride.
template <bool NONNEG>
__device__ void relax_round(const kparams& p, long long r, std::int64_t tid, std::int64_t stride) {
  const unsigned* qin = (r & 1) ? p.q1 : p.q0;
  unsigned* qout = (r & 1) ? p.q0 : p.q1;
  const unsigned long long m = vload(&p.ctl->count[r % 3]);
  unsigned long long* cout = &p.ctl->count[(r + 1) % 3];
  const unsigned next_stamp = static_cast<unsigned>(r + 1);
  for (std::int64_t i = tid; i < static_cast<std::int64_t>(m); i += stride) {
    const unsigned item = __ldcg(qin + i);  // written by another SM last round: bypass L1
    const std::int64_t row = item / p.n;
    const std::int64_t v = item - row * p.n;
    double* drow = p.dist + row * p.n;
    const double dv = __ldcg(drow + v);
    const std::int32_t e0 = p.indptr[v], e1 = p.indptr[v + 1];
    for (std::int32_t e = e0; e < e1; e += ilp) {
      std::int32_t u[ilp];
      double nd[ilp];
      bool imp[ilp];
#pragma unroll
      for (int k = 0; k < ilp; ++k) {
        const bool in = e + k < e1;
        u[k] = in ? p.indices[e + k] : 0;
        nd[k] = in ? dv + p.w[e + k] : NAN;
      }
#pragma unroll
      for (int k = 0; k < ilp; ++k) {
        imp[k] = false;
        if (!(nd[k] <= p.limit)) continue;  // also NaN and the padding
        if constexpr (NONNEG) {
          const unsigned long long nb = static_cast<unsigned long long>(__double_as_longlong(nd[k]));
          imp[k] = nb < atomicMin(reinterpret_cast<unsigned long long*>(drow + u[k]), nb);
        } else {
          imp[k] = atomic_min_any(drow + u[k], nd[k]);
        }
      }
#pragma unroll
      for (int k = 0; k < ilp; ++k) {
        if (imp[k]) {
          const std::int64_t idx = row * p.n + u[k];
          if (atomicExch(p.mark + idx, next_stamp) != next_stamp) push(cout, qout, idx);
        }
      }
    }
  }
}

// One BFS level over tight edges.
__device__ void bfs_round(const kparams& p, long long r, std::int64_t tid, std::int64_t stride) {
  const unsigned* qin = (r & 1) ? p.q1 : p.q0;
  unsigned* qout = (r & 1) ? p.q0 : p.q1;
  const unsigned long long m = vload(&p.ctl->count[r % 3]);
  unsigned long long* cout = &p.ctl->count[(r + 1) % 3];
  const unsigned lvl = static_cast<unsigned>(r + 1);
  for (std::int64_t i = tid; i < static_cast<std::int64_t>(m); i += stride) {
    const unsigned item = __ldcg(qin + i);
    const std::int64_t row = item / p.n;
    const std::int64_t v = item - row * p.n;
    const double* drow = p.dist + row * p.n;
    const double dv = drow[v];
    const std::int32_t sv = p.src_of ? __ldcg(p.src_of + v) : 0;
    const std::int32_t e0 = p.indptr[v], e1 = p.indptr[v + 1];
    for (std::int32_t e = e0; e < e1; e += ilp) {
      std::int32_t u[ilp];
      bool tight[ilp];
#pragma unroll
      for (int k = 0; k < ilp; ++k) {
        const bool in = e + k < e1;
        u[k] = in ? p.indices[e + k] : 0;
        const double du = in ? drow[u[k]] : INFINITY;
        tight[k] = in && isfinite(du) && dv + p.w[e + k] == du;
      }
#pragma unroll
      for (int k = 0; k < ilp; ++k) {
        if (!tight[k]) continue;
        const std::int64_t idx = row * p.n + u[k];
        if (p.mark[idx] != unset_level) continue;
        if (atomicCAS(p.mark + idx, unset_level, lvl) == unset_level) {
          p.pred[idx] = static_cast<std::int32_t>(v);
          if (p.src_of) p.src_of[u[k]] = sv;
          push(cout, qout, idx);
        }
      }
    }
  }
}

// The persistent driver: MODE 0 = relaxation with NONNEG, MODE 1 = BFS.
template <int MODE, bool NONNEG>
__global__ void __launch_bounds__(relax_threads) persistent_kernel(kparams p) {
  cg::grid_group grid = cg::this_grid();
  const std::int64_t gtid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t gstride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  long long round = 0;
  for (;;) {
    const unsigned long long m = vload(&p.ctl->count[round % 3]);
    if (m == 0) break;
    if (round >= p.max_rounds) {
      if (gtid == 0) p.ctl->overflow = 1;
      break;
    }
    if (m <= p.small) {
      // Block 0 alone runs rounds while the frontier stays small; the others wait at the barrier.
      if (blockIdx.x == 0) {
        long long r = round;
        for (;;) {
          const unsigned long long mm = vload(&p.ctl->count[r % 3]);
          if (mm == 0 || mm > p.small || r >= p.max_rounds) break;
          if constexpr (MODE == 0) relax_round<NONNEG>(p, r, threadIdx.x, blockDim.x);
          else bfs_round(p, r, threadIdx.x, blockDim.x);
          if (threadIdx.x == 0) p.ctl->count[(r + 2) % 3] = 0;
          __threadfence();
          __syncthreads();
          ++r;
        }
        if (threadIdx.x == 0) *reinterpret_cast<volatile long long*>(&p.ctl->round) = r;
        __threadfence();
      }
      grid.sync();
      round = *reinterpret_cast<volatile long long*>(&p.ctl->round);
      continue;
    }
    if constexpr (MODE == 0) relax_round<NONNEG>(p, round, gtid, gstride);
    else bfs_round(p, round, gtid, gstride);
    if (gtid == 0) p.ctl->count[(round + 2) % 3] = 0;
    __threadfence();
    grid.sync();
    ++round;
  }
}

__global__ void fill_kernel(double* a, std::int64_t n, double v) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    a[i] = v;
}

__global__ void fill_i32_kernel(std::int32_t* a, std::int64_t n, std::int32_t v) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    a[i] = v;
}

// Seeds the sources: dist 0, queued once (duplicates skipped through the mark).
__global__ void seed_kernel(const std::int32_t* src, std::int64_t ns, std::int64_t n, bool one_row, double* dist,
                            unsigned* mark, unsigned* q, control* ctl, bool bfs, std::int32_t* src_of) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < ns;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
  const std::int64_t row = one_row ? 0 : i;
  const std::int64_t idx = row * n + src[i];
  bool first;
  if (bfs) {
    first = atomicCAS(mark + idx, unset_level, 0u) == unset_level;
    if (first && src_of) src_of[src[i]] = src[i];
  } else {
    dist[idx] = 0.0;
    first = atomicExch(mark + idx, source_stamp) != source_stamp;
  }
  if (first) q[atomicAdd(&ctl->count[0], 1ull)] = static_cast<unsigned>(idx);
  }
}

// Johnson's virtual source: every node at 0 and queued.
__global__ void seed_all_kernel(std::int64_t n, double* dist, unsigned* q, control* ctl) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    dist[i] = 0.0;
    q[i] = static_cast<unsigned>(i);
    if (i == 0) ctl->count[0] = static_cast<unsigned long long>(n);
  }
}

// SciPy's negative-cycle test after the round bound: d[v] + w + eps < d[u] for some edge v -> u.
__global__ void cycle_check_kernel(const std::int32_t* indptr, const std::int32_t* indices, const double* w,
                                   std::int64_t n, std::int64_t rows, const double* dist, const std::int32_t* src,
                                   bool virtual_source, double limit, control* ctl) {
  const std::int64_t total = rows * n;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t row = i / n, v = i - row * n;
    const double dv = dist[i];
    if (!isfinite(dv)) continue;
    for (std::int32_t e = indptr[v]; e < indptr[v + 1]; ++e) {
      const double nd = dv + w[e];
      if (nd <= limit && nd + dtype_eps < dist[row * n + indices[e]]) {
        const long long node = virtual_source ? v : (src ? src[row] : v);
        atomicMin(&ctl->bad, node);
        break;
      }
    }
  }
}

__global__ void scan_kernel(const double* a, std::int64_t n, bool dense_rule, unsigned long long* out) {
  unsigned long long nn = 0, neg = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const double x = a[i];
    if (dense_rule) {
      if (isfinite(x) && x != 0.0) {
        ++nn;
        if (x < 0) ++neg;
      }
    } else if (x < 0) {
      ++neg;
    }
  }
  if (nn) atomicAdd(out, nn);
  if (neg) atomicAdd(out + 1, neg);
}

__global__ void reweight_kernel(const std::int32_t* indptr, const std::int32_t* indices, const double* w,
                                std::int64_t n, const double* h, double* out) {
  for (std::int64_t v = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const double hv = h[v];
    for (std::int32_t e = indptr[v]; e < indptr[v + 1]; ++e) {
      const double x = w[e] + hv - h[indices[e]];
      out[e] = x < 0.0 ? 0.0 : x;  // NaN stays NaN (never relaxed)
    }
  }
}

__global__ void unreweight_kernel(double* dist, std::int64_t rows, std::int64_t n, const std::int32_t* src,
                                  const double* h) {
  const std::int64_t total = rows * n;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t row = i / n, v = i - row * n;
    const double d = dist[i];
    if (isfinite(d)) dist[i] = d + h[v] - h[src[row]];
  }
}

// ---- Floyd-Warshall ---------------------------------------------------------------------------

constexpr int T = 32;

__global__ void fw_prepare_kernel(double* d, std::int32_t* pred, std::int64_t n, bool unweighted) {
  const std::int64_t total = n * n;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = i / n, c = i - r * n;
    double x = d[i];
    if (unweighted && !isinf(x)) x = 1.0;
    if (r == c) x = 0.0;
    d[i] = x;
  }
}

__global__ void fw_symmetrize_kernel(double* d, std::int64_t n) {
  const std::int64_t total = n * n;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = i / n, c = i - r * n;
    if (c <= r) continue;
    const double a = d[r * n + c], b = d[c * n + r];
    const double m = (b <= a) ? b : a;
    d[r * n + c] = m;
    d[c * n + r] = m;
  }
}

__global__ void fw_pred_init_kernel(const double* d, std::int32_t* pred, std::int64_t n) {
  const std::int64_t total = n * n;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = i / n, c = i - r * n;
    pred[i] = (r != c && !isinf(d[i])) ? static_cast<std::int32_t>(r) : null_predecessor;
  }
}

__device__ inline void load_tile(const double* d, const std::int32_t* pred, std::int64_t n, std::int64_t r0,
                                 std::int64_t c0, double (*D)[T + 1], std::int32_t (*P)[T + 1]) {
  for (int y = threadIdx.y; y < T; y += blockDim.y) {
    const int x = threadIdx.x;
    const std::int64_t r = r0 + y, c = c0 + x;
    const bool in = r < n && c < n;
    D[y][x] = in ? d[r * n + c] : INFINITY;
    if (P) P[y][x] = (in && pred) ? pred[r * n + c] : null_predecessor;
  }
}

__device__ inline void store_tile(double* d, std::int32_t* pred, std::int64_t n, std::int64_t r0, std::int64_t c0,
                                  double (*D)[T + 1], std::int32_t (*P)[T + 1]) {
  for (int y = threadIdx.y; y < T; y += blockDim.y) {
    const int x = threadIdx.x;
    const std::int64_t r = r0 + y, c = c0 + x;
    if (r < n && c < n) {
      d[r * n + c] = D[y][x];
      if (pred) pred[r * n + c] = P[y][x];
    }
  }
}

// Phase 1: the diagonal tile kb, in place (32 x 32 threads).
__global__ void fw_phase1(double* d, std::int32_t* pred, std::int64_t n, std::int64_t kb) {
  __shared__ double D[T][T + 1];
  __shared__ std::int32_t P[T][T + 1];
  const std::int64_t o = kb * T;
  load_tile(d, pred, n, o, o, D, P);
  __syncthreads();
  const int y = threadIdx.y, x = threadIdx.x;
  for (int k = 0; k < T; ++k) {
    const double nd = D[y][k] + D[k][x];
    const bool better = nd < D[y][x];
    const std::int32_t np = P[k][x];
    __syncthreads();
    if (better) {
      D[y][x] = nd;
      P[y][x] = np;
    }
    __syncthreads();
  }
  store_tile(d, pred, n, o, o, D, P);
}

// Phase 2: the tiles of row kb (blockIdx.y == 0) and column kb (blockIdx.y == 1).
__global__ void fw_phase2(double* d, std::int32_t* pred, std::int64_t n, std::int64_t kb) {
  const std::int64_t j = blockIdx.x;
  if (j == kb) return;
  __shared__ double K[T][T + 1];
  __shared__ std::int32_t PK[T][T + 1];
  __shared__ double D[T][T + 1];
  __shared__ std::int32_t P[T][T + 1];
  const std::int64_t o = kb * T;
  const bool row = blockIdx.y == 0;
  const std::int64_t r0 = row ? o : j * T, c0 = row ? j * T : o;
  load_tile(d, pred, n, o, o, K, PK);
  load_tile(d, pred, n, r0, c0, D, P);
  __syncthreads();
  const int y = threadIdx.y, x = threadIdx.x;
  for (int k = 0; k < T; ++k) {
    double nd;
    std::int32_t np;
    if (row) {  // d[o+y][c] via k: K[y][k] + D[k][x], pred of (k, c): P[k][x]
      nd = K[y][k] + D[k][x];
      np = P[k][x];
    } else {  // d[r][o+x] via k: D[y][k] + K[k][x], pred of (k, o+x): PK[k][x]
      nd = D[y][k] + K[k][x];
      np = PK[k][x];
    }
    const bool better = nd < D[y][x];
    __syncthreads();
    if (better) {
      D[y][x] = nd;
      P[y][x] = np;
    }
    __syncthreads();
  }
  store_tile(d, pred, n, r0, c0, D, P);
}

// Phase 3: every tile (i, j) off row and column kb.
__global__ void fw_phase3(double* d, std::int32_t* pred, std::int64_t n, std::int64_t kb) {
  const std::int64_t i = blockIdx.y, j = blockIdx.x;
  if (i == kb || j == kb) return;
  __shared__ double A[T][T + 1];
  __shared__ double B[T][T + 1];
  __shared__ std::int32_t PB[T][T + 1];
  const std::int64_t o = kb * T;
  load_tile(d, nullptr, n, i * T, o, A, nullptr);
  load_tile(d, pred, n, o, j * T, B, pred ? PB : nullptr);
  __syncthreads();
  const int y = threadIdx.y, x = threadIdx.x;
  const std::int64_t r = i * T + y, c = j * T + x;
  if (r >= n || c >= n) return;
  double cur = d[r * n + c];
  std::int32_t cp = 0;
  bool changed = false;
  for (int k = 0; k < T; ++k) {
    const double nd = A[y][k] + B[k][x];
    if (nd < cur) {
      cur = nd;
      if (pred) cp = PB[k][x];
      changed = true;
    }
  }
  if (changed) {
    d[r * n + c] = cur;
    if (pred) pred[r * n + c] = cp;
  }
}

// ---- host side of the relaxation ----------------------------------------------------------------

struct device_info {
  int sms = 0;
  bool coop = false;
};
device_info info() {
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  device_info d;
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, dev));
  int coop = 0;
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  d.coop = coop != 0;
  return d;
}

template <int MODE, bool NONNEG>
void launch_persistent(kparams& p, cudaStream_t s) {
  const device_info di = info();
  CUSCI_EXPECTS(di.coop, runtime_error, "cusci::sparse::csgraph: the device does not support cooperative launches");
  int per_sm = 0;
  CUSCI_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent_kernel<MODE, NONNEG>,
                                                               relax_threads, 0));
  if (per_sm < 1) per_sm = 1;
  const unsigned grid = static_cast<unsigned>(per_sm * di.sms);
  void* args[] = {&p};
  CUSCI_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(persistent_kernel<MODE, NONNEG>),
                                             dim3(grid), dim3(relax_threads), args, 0, s));
  CUSCI_CHECK_LAUNCH();
}

control read_control(const control* c, cudaStream_t s) {
  control h{};
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, c, sizeof(control), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

__global__ void reset_control_kernel(control* c) {
  c->count[0] = c->count[1] = c->count[2] = 0;
  c->round = 0;
  c->overflow = 0;
  c->bad = LLONG_MAX;
}

void reset_control(control* c, cudaStream_t s) {
  reset_control_kernel<<<1, 1, 0, s>>>(c);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

std::int64_t relax_device(const relax_request& r, cudaStream_t s) {
  const std::int64_t n = r.g.n;
  if (n == 0) return -1;
  const bool one_row = r.min_only || r.virtual_source;
  const std::int64_t rows_total = one_row ? 1 : r.num_sources;
  if (rows_total == 0) return -1;
  if (!r.grid_only && relax_block_device(r, s)) return -1;  // small graph, non-negative weights
  // Sources per chunk: keep rows * n <= 2^26 work items (queues and marks are 12 bytes per item).
  const std::int64_t cap_items = std::int64_t{1} << 26;
  const std::int64_t chunk_rows = one_row ? 1 : std::max<std::int64_t>(1, std::min(rows_total, cap_items / n));
  const std::int64_t items = chunk_rows * n;
  device_buffer<unsigned> q0(static_cast<std::size_t>(items), s), q1(static_cast<std::size_t>(items), s),
      mark(static_cast<std::size_t>(items), s);
  device_buffer<control> ctl(1, s);
  const long long bound = r.nonneg ? std::numeric_limits<long long>::max() : static_cast<long long>(n);

  for (std::int64_t r0 = 0; r0 < rows_total; r0 += chunk_rows) {
    const std::int64_t rows = std::min(chunk_rows, rows_total - r0);
    const std::int64_t cnt = rows * n;
    double* dist = r.dist + r0 * n;
    const std::int32_t* src = r.sources ? r.sources + (one_row ? 0 : r0) : nullptr;
    const std::int64_t nsrc = one_row ? r.num_sources : rows;

    // relaxation
    reset_control(ctl.data(), s);
    CUSCI_CUDA_TRY(cudaMemsetAsync(mark.data(), 0, static_cast<std::size_t>(cnt) * sizeof(unsigned), s));
    fill_kernel<<<blocks_for(cnt), threads, 0, s>>>(dist, cnt, std::numeric_limits<double>::infinity());
    CUSCI_CHECK_LAUNCH();
    if (r.virtual_source) {
      seed_all_kernel<<<blocks_for(n), threads, 0, s>>>(n, dist, q0.data(), ctl.data());
    } else if (nsrc > 0) {
      seed_kernel<<<blocks_for(nsrc), threads, 0, s>>>(src, nsrc, n, one_row, dist, mark.data(), q0.data(),
                                                       ctl.data(), false, nullptr);
    }
    CUSCI_CHECK_LAUNCH();
    kparams p{};
    p.indptr = r.g.indptr;
    p.indices = r.g.indices;
    p.w = r.g.w;
    p.n = n;
    p.dist = dist;
    p.q0 = q0.data();
    p.q1 = q1.data();
    p.mark = mark.data();
    p.ctl = ctl.data();
    p.limit = r.limit;
    p.max_rounds = bound;
    p.small = relax_threads;  // block 0 alone while every item has its own thread
    if (r.nonneg) launch_persistent<0, true>(p, s);
    else launch_persistent<0, false>(p, s);
    control h = read_control(ctl.data(), s);
    if (h.overflow) {
      cycle_check_kernel<<<blocks_for(cnt), threads, 0, s>>>(r.g.indptr, r.g.indices, r.g.w, n, rows, dist, src,
                                                             r.virtual_source, r.limit, ctl.data());
      CUSCI_CHECK_LAUNCH();
      h = read_control(ctl.data(), s);
      if (h.bad != std::numeric_limits<long long>::max()) return h.bad;
    }

    // predecessors: BFS over the tight edges
    if (r.pred && !r.virtual_source) {
      std::int32_t* pred = r.pred + r0 * n;
      fill_i32_kernel<<<blocks_for(cnt), threads, 0, s>>>(pred, cnt, null_predecessor);
      CUSCI_CHECK_LAUNCH();
      if (r.src_of) {
        fill_i32_kernel<<<blocks_for(n), threads, 0, s>>>(r.src_of, n, null_predecessor);
        CUSCI_CHECK_LAUNCH();
      }
      reset_control(ctl.data(), s);
      CUSCI_CUDA_TRY(cudaMemsetAsync(mark.data(), 0xFF, static_cast<std::size_t>(cnt) * sizeof(unsigned), s));
      if (nsrc > 0) {
        seed_kernel<<<blocks_for(nsrc), threads, 0, s>>>(src, nsrc, n, one_row, dist, mark.data(), q0.data(),
                                                         ctl.data(), true, r.src_of);
        CUSCI_CHECK_LAUNCH();
      }
      p.pred = pred;
      p.src_of = r.src_of;
      p.max_rounds = std::numeric_limits<long long>::max();
      launch_persistent<1, true>(p, s);
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
    }
  }
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return -1;
}

void scan_weights_device(const double* a, std::int64_t n, bool dense_rule, std::int64_t* nonnull,
                         std::int64_t* negative, cudaStream_t s) {
  *nonnull = 0;
  *negative = 0;
  if (n == 0) return;
  device_buffer<unsigned long long> out(2, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(out.data(), 0, 2 * sizeof(unsigned long long), s));
  scan_kernel<<<std::min<unsigned>(blocks_for(n), 4096), threads, 0, s>>>(a, n, dense_rule, out.data());
  CUSCI_CHECK_LAUNCH();
  unsigned long long h[2] = {0, 0};
  CUSCI_CUDA_TRY(cudaMemcpyAsync(h, out.data(), sizeof(h), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  *nonnull = static_cast<std::int64_t>(h[0]);
  *negative = static_cast<std::int64_t>(h[1]);
}

void fill_ones_device(double* w, std::int64_t nnz, cudaStream_t s) {
  if (nnz == 0) return;
  fill_kernel<<<blocks_for(nnz), threads, 0, s>>>(w, nnz, 1.0);
  CUSCI_CHECK_LAUNCH();
}

void reweight_device(const dcsr& g, const double* h, double* out, cudaStream_t s) {
  if (g.n == 0) return;
  reweight_kernel<<<blocks_for(g.n), threads, 0, s>>>(g.indptr, g.indices, g.w, g.n, h, out);
  CUSCI_CHECK_LAUNCH();
}

void unreweight_device(double* dist, std::int64_t rows, std::int64_t n, const std::int32_t* src, const double* h,
                       cudaStream_t s) {
  if (rows * n == 0) return;
  unreweight_kernel<<<blocks_for(rows * n), threads, 0, s>>>(dist, rows, n, src, h);
  CUSCI_CHECK_LAUNCH();
}

void floyd_warshall_device(double* d, std::int32_t* pred, std::int64_t n, bool directed, bool unweighted,
                           cudaStream_t s) {
  if (n == 0) return;
  const std::int64_t total = n * n;
  fw_prepare_kernel<<<blocks_for(total), threads, 0, s>>>(d, pred, n, unweighted);
  CUSCI_CHECK_LAUNCH();
  if (!directed) {
    fw_symmetrize_kernel<<<blocks_for(total), threads, 0, s>>>(d, n);
    CUSCI_CHECK_LAUNCH();
  }
  if (pred) {
    fw_pred_init_kernel<<<blocks_for(total), threads, 0, s>>>(d, pred, n);
    CUSCI_CHECK_LAUNCH();
  }
  const std::int64_t nb = (n + T - 1) / T;
  const dim3 block(T, T);
  for (std::int64_t kb = 0; kb < nb; ++kb) {
    fw_phase1<<<1, block, 0, s>>>(d, pred, n, kb);
    CUSCI_CHECK_LAUNCH();
    if (nb > 1) {
      fw_phase2<<<dim3(static_cast<unsigned>(nb), 2), block, 0, s>>>(d, pred, n, kb);
      CUSCI_CHECK_LAUNCH();
      fw_phase3<<<dim3(static_cast<unsigned>(nb), static_cast<unsigned>(nb)), block, 0, s>>>(d, pred, n, kb);
      CUSCI_CHECK_LAUNCH();
    }
  }
}

}  // namespace cusci::sparse::csgraph::detail::sp
