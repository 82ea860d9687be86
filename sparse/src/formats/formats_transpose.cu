// CSR <-> CSC transposition (transpose_compressed): a counting sort of the entries by their minor
// index, made stable by a per-slice fix-up.
//
// SciPy's csr_tocsc keeps, within each output slice, the input order of the entries (position p in
// the input arrays; for a canonical input this is the major index, ascending). Duplicates are kept.
//
// Passes (nnz entries, n minor slices, I the index type, V the value item; bytes for I = int32,
// V = float64 in brackets, per entry or per slice):
//   0. clear      the counts and the long-slice counter, one launch (k_zero_counts)
//   1. count      n_k[indices[p]] += 1 [read 4 B/entry]: a block per row tile (256 major slices; its
//                 entries are one contiguous range) counts the entries whose minor index falls in a
//                 window of kWindow slices around the tile's diagonal in shared memory and adds each
//                 touched window slice once to global memory; the other entries use plain global
//                 atomics.
//   2. scan       exclusive sum of the counts -> fill counters (slice starts) [~8 B/slice]: one
//                 single-pass launch (k_scan_counts, decoupled look-back) whose tile states are
//                 cleared in pass 0, where CUB's scan needs an initialization launch of its own
//   3. scatter    block per row tile (entries read coalesced; an entry's major index from a byte table
//                 of row offsets in shared memory when the tile has at most kRowTable entries, else
//                 a binary search in the tile's indptr): slot = fill[c]++ (atomicAdd with return);
//                 the (row, p) pair written there [read 4 B, write 8 B scattered within the slice].
//                 Window entries take their slots as one global atomic per touched window slice (the
//                 tile's count of it), handed out with shared-memory atomics in a second pass over the
//                 tile. Afterwards fill[c] is the end of slice c, i.e. the output indptr[c + 1].
//   4. fix-up     staged (k_order_staged): a block per 256 minor slices, whose slots are one range;
//                 the pairs copied into shared memory (cp.async, coalesced), each slice ordered there
//                 by position (registers, tiers of 8, 16, 32; positions are distinct), then the block
//                 writes out.indices[s] = row, out.data[s] = data[p] over the range, consecutive
//                 threads on consecutive slots [read 8 B, gather 8 B, write 4 + 8 B per entry]. A
//                 range larger than the stage is ordered a thread per slice from global memory (slices
//                 of up to 16). Longer slices are listed.
//   5. long       only when the work list is not empty (its length is read back: one
//                 synchronization, the count stored into pinned host memory by a one-thread kernel
//                 rather than copied): cub::DeviceSegmentedSort of the listed slices' positions, with
//                 the rows along, then a thread per slot writes rows and gathers values.
// Passes 1 to 4 and the read-back kernel are chained by programmatic dependent launch when code
// compiled for compute capability 9.0 or later runs on such a device (pdl_supported): each kernel
// lets the next one's blocks start on the SMs its own last wave leaves idle, and they wait
// (griddepcontrol.wait) before reading what it wrote; the scatter sets up its row tile (indptr, row
// table) before that wait.
// The entry passes give each thread kUnroll entries kThreads apart (coalesced), issuing all their
// loads, then all their atomics, then all their stores.
//
// Why the window: every atomic of the count and scatter passes is an L2 operation, and Nsight Compute
// showed both passes bound by L2 throughput (85% and 93%), not DRAM (30%, 26%). In banded matrices
// (stencils, finite-element operators) neighbouring rows share columns near the diagonal: in the 2-D
// 5-point Poisson matrix three of a row's five entries fall in its tile's window, and each window
// column is hit by three rows of the tile, so the tile makes 770 global atomics instead of 1280. A
// matrix without that structure leaves the window mostly empty (the result never depends on it).
//
// Measured on the H200 (2-D Poisson 2048^2, float64, nnz 21M, int32 indices), whole call, in one
// run: 0.504 ms (CUB's scan, no chaining, count copied back to pageable memory: 0.517; with the own
// scan alone 0.516, dependent launch alone 0.513, both 0.510, both and the count copied into pinned
// memory instead of stored by a kernel 0.508); CuPy 1.045-1.078 ms in the same run. On a random
// pattern of the same shape and row lengths (no band structure) the window costs 1.5%. The
// pipelines this one replaced, and their numbers: docs/benchmarks.md ("Deleted CSR -> CSC variants").
// Per pass, before the single-pass scan and the chaining: clear 6 us, count 49, scan 14 + launch,
// scatter 206, fix-up 201, read-back of the long-slice count about 9. A window of 1024 slices instead
// of 512 measured 0.505-0.515 ms. Rejected: warp-aggregated atomics (__match_any_sync) 0.81 ms;
// recording each entry's rank in the count pass so the scatter needs no atomics 0.73-0.75 ms; for inputs without duplicates, scattering the indices and values themselves and
// sorting each slice in place by major index, 0.85 ms with an entry-parallel scatter and 0.75 ms with
// a thread per row (the scattered 12-byte writes cost more than the gathers they save); the staged
// kernel's loads and gathers unrolled 4 per thread, 0.566 ms against 0.548 ms; 8 or 2 entries per
// thread in the count and scatter instead of 4 (8: +2 and +35 us; 2: no change); a branch-free
// binary search in the scatter (no change: the pass is L2-bound, not issue-bound); reading the largest
// count back early (a max-reduction after the count) to skip the final synchronization when no slice
// can be long (the reduction cost more than the synchronization); skipping the window's second pass
// in tiles without window entries (__syncthreads_or: +20 us on the Poisson matrix); for inputs without
// duplicates, scattering 16-byte (row, value) records instead of pairs so that the fix-up gathers
// nothing: 0.998 ms (scatter 693 us reading 619 MB from DRAM against 206 us and 130 MB: the scattered
// partial-sector writes are read back and merged; fix-up 188 us against 201).

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::detail {
namespace {

using cusci::detail::grid_for;

constexpr int kThreads = 256;
constexpr int kUnroll = 4;  // entries per thread of the unrolled entry passes (loads and atomics in flight)

template <class T>
struct ttag {
  using type = T;
};

struct alignas(16) titem16 {
  unsigned long long a, b;
};

template <class F>
void t_dispatch_index(dtype t, F&& f) {
  if (t == dtype::int32) return f(ttag<std::int32_t>{});
  if (t == dtype::int64) return f(ttag<std::int64_t>{});
  throw type_error("cusci::sparse: internal index dtype must be int32 or int64, got " + std::string(dtype_name(t)));
}

template <class F>
void t_dispatch_size(std::size_t s, F&& f) {
  switch (s) {
    case 1: return f(ttag<std::uint8_t>{});
    case 2: return f(ttag<std::uint16_t>{});
    case 4: return f(ttag<std::uint32_t>{});
    case 8: return f(ttag<std::uint64_t>{});
    case 16: return f(ttag<titem16>{});
  }
  throw type_error("cusci::sparse: internal item size " + std::to_string(s));
}

// Unsigned counter of the index type's width (counts and fill pointers never exceed nnz, which fits I).
template <class I>
using counter_t = std::conditional_t<sizeof(I) == 4, unsigned int, unsigned long long>;
// Entry offsets in the tile kernels: 32-bit for int32 indices (nnz < 2^31, so an offset plus one
// chunk stays below 2^32), 64-bit otherwise.
template <class I>
using offset_t = std::conditional_t<sizeof(I) == 4, unsigned int, std::int64_t>;

// Programmatic dependent launch (sm_90 and later): each kernel of the sequence lets the next one be
// scheduled once all its own blocks have started (launch_dependents at entry), and waits for the
// previous kernel's completion and memory flush (wait) before it touches anything that kernel wrote.
// Blocks of the next kernel then fill the SMs that the previous one's last wave leaves idle, and the
// launch latency between the two is hidden. Both are no-ops in a kernel launched without the attribute.
__device__ __forceinline__ void pdl_trigger() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Clears cnt[0, n) (16-byte stores when cnt is 16-byte aligned, as the pool's blocks are) and
// aux[0, n_aux) (the long-slice counter, the scan's tile ticket and its tile states).
template <class C>
__global__ void k_zero_counts(C* __restrict__ cnt, std::int64_t n, bool vec, unsigned long long* __restrict__ aux,
                              std::int64_t n_aux) {
  pdl_trigger();
  const std::int64_t nv = vec ? n * static_cast<std::int64_t>(sizeof(C)) / 16 : 0;
  uint4* v = reinterpret_cast<uint4*>(cnt);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::int64_t i = t; i < nv; i += stride) v[i] = make_uint4(0u, 0u, 0u, 0u);
  for (std::int64_t i = nv * 16 / static_cast<std::int64_t>(sizeof(C)) + t; i < n; i += stride) cnt[i] = C{0};
  for (std::int64_t i = t; i < n_aux; i += stride) aux[i] = 0ull;
}

// Exclusive sum of the counts into the fill counters: one pass, tiles in the order of a ticket
// taken at entry, each tile's prefix found by a decoupled look-back over its predecessors' states
// (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", NVIDIA
// NVR-2016-002). A state is one 64-bit word, flag in the top two bits (0: not yet, 1: the tile's
// own sum, 2: the inclusive prefix through the tile) and value below; the states and the ticket
// are cleared by k_zero_counts, so the scan needs no initialization launch of its own.
constexpr int kScanThreads = 256;
template <class C>
constexpr int scan_items() {
  return sizeof(C) == 4 ? 16 : 8;
}
constexpr unsigned long long kTileAgg = 1ull << 62, kTileInc = 2ull << 62, kTileVal = (1ull << 62) - 1;

template <class C>
struct lookback_prefix {
  volatile unsigned long long* state;
  std::int64_t tile;
  // Called by the first warp with the tile's sum; lane 0's result is the tile's exclusive prefix.
  __device__ C operator()(C aggregate) {
    const int lane = static_cast<int>(threadIdx.x & 31);
    if (tile == 0) {
      if (lane == 0) state[0] = kTileInc | static_cast<unsigned long long>(aggregate);
      return C{0};
    }
    if (lane == 0) state[tile] = kTileAgg | static_cast<unsigned long long>(aggregate);
    unsigned long long prefix = 0;
    for (std::int64_t last = tile - 1;; last -= 32) {
      const std::int64_t j = last - lane;  // lane 0 reads the nearest predecessor
      unsigned long long w;
      do {
        w = j >= 0 ? static_cast<unsigned long long>(state[j]) : (kTileInc | 0ull);  // before tile 0: inclusive 0
      } while (__any_sync(0xffffffffu, (w >> 62) == 0));
      const unsigned inc = __ballot_sync(0xffffffffu, (w >> 62) == 2);
      const int stop = inc != 0 ? __ffs(inc) - 1 : 31;  // lanes up to the nearest inclusive one
      unsigned long long v = lane <= stop ? (w & kTileVal) : 0ull;
#pragma unroll
      for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
      prefix += v;
      if (inc != 0) break;
    }
    if (lane == 0) state[tile] = kTileInc | (prefix + static_cast<unsigned long long>(aggregate));
    return static_cast<C>(prefix);
  }
};

template <class C>
__global__ void __launch_bounds__(kScanThreads)
    k_scan_counts(const C* __restrict__ cnt, C* __restrict__ fill, std::int64_t n, unsigned long long* __restrict__ ticket,
                  unsigned long long* state) {
  constexpr int kItems = scan_items<C>();
  constexpr std::int64_t kTile = static_cast<std::int64_t>(kScanThreads) * kItems;
  using load_t = cub::BlockLoad<C, kScanThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using store_t = cub::BlockStore<C, kScanThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using scan_t = cub::BlockScan<C, kScanThreads>;
  __shared__ union {
    typename load_t::TempStorage load;
    typename store_t::TempStorage store;
    typename scan_t::TempStorage scan;
  } tmp;
  __shared__ std::int64_t s_tile;
  pdl_trigger();
  pdl_wait();
  if (threadIdx.x == 0) s_tile = static_cast<std::int64_t>(atomicAdd(ticket, 1ull));
  __syncthreads();
  const std::int64_t tile = s_tile;
  const std::int64_t base = tile * kTile;
  const int valid = static_cast<int>(n - base < kTile ? n - base : kTile);
  C v[kItems];
  if (valid == kTile) load_t(tmp.load).Load(cnt + base, v);
  else load_t(tmp.load).Load(cnt + base, v, valid, C{0});
  __syncthreads();
  lookback_prefix<C> op{state, tile};
  scan_t(tmp.scan).ExclusiveSum(v, v, op);
  __syncthreads();
  if (valid == kTile) store_t(tmp.store).Store(fill + base, v);
  else store_t(tmp.store).Store(fill + base, v, valid);
}

template <class C>
std::int64_t scan_tiles(std::int64_t n) {
  constexpr std::int64_t kTile = static_cast<std::int64_t>(kScanThreads) * scan_items<C>();
  return (n + kTile - 1) / kTile;
}

// Copies the long-slice count to pinned host memory (mapped under unified addressing), so that
// the host reads it after one stream synchronization without a copy-engine transfer.
__global__ void k_publish(const unsigned long long* __restrict__ src, unsigned long long* host) {
  pdl_wait();
  *host = *src;
}

// The entry passes' loads: the minor indices of entries base + u * kThreads + threadIdx.x
// (u < kUnroll) below end, all issued before any is used.
template <class C, class X, class I>
__device__ __forceinline__ void load_unrolled(const I* __restrict__ ind, X base, X end, C (&c)[kUnroll]) {
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const X i = base + static_cast<X>(u * kThreads + threadIdx.x);
    if (i < end) c[u] = static_cast<C>(ind[i]);
  }
}

// ---------------------------------------------------------------------------------------------
// Staged fix-up: a block takes 256 consecutive slices, whose slots are one contiguous range; the
// range's (row, p) pairs are read into shared memory with coalesced loads, each thread orders its
// slice there by p (into a second shared array), and the block then writes the outputs over the
// range, consecutive threads on consecutive slots: only the value gathers stay scattered. Ranges
// longer than the stage (kStageBytes of pairs) are ordered by a thread per slice from global memory.
// ---------------------------------------------------------------------------------------------
template <class I>
struct alignas(2 * sizeof(I)) row_pos {
  I row, p;
};

constexpr std::int64_t kShortSlice = 32;  // longest slice ordered in registers by one thread (staged)

constexpr int kStageBytes = 16384;  // per shared array (two per block)
constexpr std::int64_t kShortGlobal = 16;  // longest slice the staged kernel orders from global memory

// Orders in[0, len) (len <= CAP) by position into out[rank] (positions distinct).
template <int CAP, class I>
__device__ __forceinline__ void order_items(const row_pos<I>* in, row_pos<I>* out, int len) {
  constexpr I kMax = std::numeric_limits<I>::max();
  I v[CAP];
#pragma unroll
  for (int k = 0; k < CAP; ++k) v[k] = k < len ? in[k].p : kMax;
#pragma unroll
  for (int k = 0; k < CAP; ++k) {
    if (k < len) {
      int r = 0;
#pragma unroll
      for (int j = 0; j < CAP; ++j) r += v[j] < v[k] ? 1 : 0;
      out[r] = in[k];
    }
  }
}

// Orders one slice of len <= CAP pairs src[b, b + len) straight into the outputs at b + rank:
// positions in registers, each pair's row re-read at the store.
template <int CAP, class I, class V>
__device__ __forceinline__ void order_items_global(const row_pos<I>* src, std::int64_t b, int len, I* idx,
                                                   V* __restrict__ out, const V* __restrict__ data) {
  constexpr I kMax = std::numeric_limits<I>::max();
  I v[CAP];
#pragma unroll
  for (int k = 0; k < CAP; ++k) v[k] = k < len ? src[b + k].p : kMax;
#pragma unroll
  for (int k = 0; k < CAP; ++k) {
    if (k < len) {
      int r = 0;
#pragma unroll
      for (int j = 0; j < CAP; ++j) r += v[j] < v[k] ? 1 : 0;
      idx[b + r] = src[b + k].row;
      out[b + r] = data[v[k]];
    }
  }
}

template <class I, class V>
__global__ void __launch_bounds__(kThreads, sizeof(I) == 4 ? 4 : 2)
    k_order_staged(const counter_t<I>* __restrict__ fill, std::int64_t n, I* __restrict__ indptr,
                   const row_pos<I>* src, I* idx, V* __restrict__ out, const V* __restrict__ data,
                   unsigned long long* __restrict__ n_long, std::int64_t* __restrict__ long_begin,
                   std::int64_t* __restrict__ long_end) {
  using S = row_pos<I>;
  constexpr int kStage = kStageBytes / static_cast<int>(sizeof(S));
  __shared__ S s_in[kStage];
  __shared__ S s_out[kStage];
  pdl_trigger();
  pdl_wait();
  for (std::int64_t c0 = static_cast<std::int64_t>(blockIdx.x) * kThreads; c0 < n;
       c0 += static_cast<std::int64_t>(gridDim.x) * kThreads) {
    const std::int64_t c = c0 + threadIdx.x;
    const std::int64_t clast = (c0 + kThreads < n ? c0 + kThreads : n) - 1;
    const std::int64_t b0 = c0 > 0 ? static_cast<std::int64_t>(fill[c0 - 1]) : 0;
    const std::int64_t range = static_cast<std::int64_t>(fill[clast]) - b0;
    std::int64_t b = 0, e = 0;
    if (c < n) {
      b = c > 0 ? static_cast<std::int64_t>(fill[c - 1]) : 0;
      e = static_cast<std::int64_t>(fill[c]);
      indptr[c + 1] = static_cast<I>(e);
      if (c == 0) indptr[0] = I{0};
    }
    const std::int64_t len = e - b;
    // Longer than the register tiers (32 staged, 16 from global memory): listed.
    const bool is_long = len > (range <= kStage ? kShortSlice : kShortGlobal);
    if (is_long) {
      const unsigned long long k = atomicAdd(n_long, 1ull);
      long_begin[k] = b;
      long_end[k] = e;
    }
    if (range <= kStage) {  // uniform over the block
      // Asynchronous copies (cp.async): every load of the range in flight at once, none through registers.
      for (std::int64_t i = threadIdx.x; i < range; i += kThreads)
        __pipeline_memcpy_async(&s_in[i], &src[b0 + i], sizeof(S));
      __pipeline_commit();
      __pipeline_wait_prior(0);
      __syncthreads();
      const int lb = static_cast<int>(b - b0), ln = static_cast<int>(len);
      if (is_long) {
        for (int k = 0; k < ln; ++k) {
          S t = s_in[lb + k];
          t.p = I{-1};
          s_out[lb + k] = t;
        }
      } else if (ln == 1) {
        s_out[lb] = s_in[lb];
      } else if (ln > 1 && ln <= 8) {
        order_items<8>(s_in + lb, s_out + lb, ln);
      } else if (ln > 8 && ln <= 16) {
        order_items<16>(s_in + lb, s_out + lb, ln);
      } else if (ln > 16) {
        order_items<static_cast<int>(kShortSlice)>(s_in + lb, s_out + lb, ln);
      }
      __syncthreads();
      for (std::int64_t i = threadIdx.x; i < range; i += kThreads) {
        const S t = s_out[i];
        const I p = t.p;
        if (p >= 0) {
          idx[b0 + i] = t.row;
          out[b0 + i] = data[p];
        }
      }
      __syncthreads();  // the shared arrays are refilled by the next group of slices
    } else if (len > 0 && !is_long) {
      const int ln = static_cast<int>(len);
      if (ln <= 8) {
        order_items_global<8>(src, b, ln, idx, out, data);
      } else {
        order_items_global<static_cast<int>(kShortGlobal)>(src, b, ln, idx, out, data);
      }
    }
  }
}

// The count and the row-tile scatter with a shared-memory window of kWindow minor
// slices around the tile's diagonal (the slices near (r0 + rows / 2) * n / m). Entries whose minor
// index falls in the window are counted in shared memory, and the tile then makes one global atomic
// per window slice it touched instead of one per entry; other entries go to global memory
// directly. Banded matrices (finite-difference and finite-element operators, most entries near the
// diagonal) hit the same slice from neighbouring rows, so this removes a large part of the atomic
// traffic through L2, which bounds both passes; for matrices without that structure the window
// just stays mostly empty. The window's placement never affects the result.
constexpr int kWindow = 512;

// First minor slice of the window of the row tile [r0, r0 + nr) (m major, n minor slices).
__device__ __forceinline__ std::int64_t window_lo(std::int64_t r0, int nr, std::int64_t m, std::int64_t n) {
  if (n <= kWindow) return 0;
  const double mid = (static_cast<double>(r0) + 0.5 * nr) * (static_cast<double>(n) / static_cast<double>(m));
  std::int64_t lo = static_cast<std::int64_t>(mid) - kWindow / 2;
  if (lo < 0) lo = 0;
  if (lo > n - kWindow) lo = n - kWindow;
  return lo;
}

// Row of entry i of the tile whose indptr is in s_ptr[0, nr] (s_ptr[lo] <= i < s_ptr[lo + 1]).
template <class I>
__device__ __forceinline__ int tile_row(const I* s_ptr, int nr, std::int64_t i) {
  int lo = 0, hi = nr;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (static_cast<std::int64_t>(s_ptr[mid]) <= i) lo = mid;
    else hi = mid;
  }
  return lo;
}

// Tiles of at most kRowTable entries look their entries' rows up in a byte table in shared memory
// (row offset within the tile, < kThreads), filled a thread per row; larger tiles search s_ptr.
constexpr int kRowTable = 8192;

template <class I>
__device__ __forceinline__ void fill_row_table(unsigned char* tab, const I* s_ptr, int nr, std::int64_t e0) {
  for (int j = threadIdx.x; j < nr; j += kThreads) {
    const int b = static_cast<int>(static_cast<std::int64_t>(s_ptr[j]) - e0);
    const int e = static_cast<int>(static_cast<std::int64_t>(s_ptr[j + 1]) - e0);
    for (int k = b; k < e; ++k) tab[k] = static_cast<unsigned char>(j);
  }
}

template <class I>
__global__ void k_count_window(const I* __restrict__ ptr, std::int64_t m, std::int64_t n, const I* __restrict__ ind,
                               counter_t<I>* __restrict__ cnt) {
  pdl_trigger();
  pdl_wait();
  using C = counter_t<I>;
  using X = offset_t<I>;
  __shared__ C s_cnt[kWindow];
  for (std::int64_t r0 = static_cast<std::int64_t>(blockIdx.x) * kThreads; r0 < m;
       r0 += static_cast<std::int64_t>(gridDim.x) * kThreads) {
    const int nr = static_cast<int>(m - r0 < kThreads ? m - r0 : kThreads);
    const X e0 = static_cast<X>(ptr[r0]), e1 = static_cast<X>(ptr[r0 + nr]);
    const std::int64_t lo = window_lo(r0, nr, m, n);
    for (int j = threadIdx.x; j < kWindow; j += kThreads) s_cnt[j] = 0;
    __syncthreads();
    for (X base = e0; base < e1; base += static_cast<X>(kThreads * kUnroll)) {
      C c[kUnroll];
      load_unrolled(ind, base, e1, c);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (base + static_cast<X>(u * kThreads + threadIdx.x) < e1) {
          const C w = c[u] - static_cast<C>(lo);  // wraps below lo: outside the window
          if (w < static_cast<C>(kWindow)) atomicAdd(&s_cnt[w], C{1});
          else atomicAdd(&cnt[c[u]], C{1});
        }
      }
    }
    __syncthreads();
    for (int j = threadIdx.x; j < kWindow; j += kThreads) {
      const C k = s_cnt[j];
      if (k != 0) atomicAdd(&cnt[lo + j], k);
    }
    __syncthreads();  // s_cnt is cleared for the next tile
  }
}

// The scatter: pass 1 over the tile's entries takes slots for the entries outside the
// window (global atomics, pairs written at once) and counts the window's entries in shared memory;
// then one global atomic per touched window slice reserves that many slots (their first slot kept in
// shared memory); pass 2 re-reads the tile's indices (L1/L2-resident) and hands the reserved slots
// out with shared-memory atomics.
template <class I>
__global__ void k_scatter_window(const I* __restrict__ ptr, std::int64_t m, std::int64_t n,
                                 const I* __restrict__ ind, counter_t<I>* __restrict__ fill,
                                 row_pos<I>* __restrict__ tmp) {
  using C = counter_t<I>;
  using X = offset_t<I>;
  __shared__ I s_ptr[kThreads + 1];
  __shared__ C s_cnt[kWindow];
  __shared__ unsigned char s_row[kRowTable];
  pdl_trigger();
  for (std::int64_t r0 = static_cast<std::int64_t>(blockIdx.x) * kThreads; r0 < m;
       r0 += static_cast<std::int64_t>(gridDim.x) * kThreads) {
    const int nr = static_cast<int>(m - r0 < kThreads ? m - r0 : kThreads);
    for (int j = threadIdx.x; j <= nr; j += kThreads) s_ptr[j] = ptr[r0 + j];
    for (int j = threadIdx.x; j < kWindow; j += kThreads) s_cnt[j] = 0;
    const std::int64_t lo = window_lo(r0, nr, m, n);
    __syncthreads();
    const X e0 = static_cast<X>(s_ptr[0]), e1 = static_cast<X>(s_ptr[nr]);
    const bool table = e1 - e0 <= kRowTable;  // uniform over the block
    if (table) {
      fill_row_table(s_row, s_ptr, nr, e0);
      __syncthreads();
    }
    pdl_wait();  // the fill counters come from the scan (the tile set-up above reads inputs only)
    for (X base = e0; base < e1; base += static_cast<X>(kThreads * kUnroll)) {
      C c[kUnroll];
      load_unrolled(ind, base, e1, c);
      C slot[kUnroll];
      bool out_w[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        out_w[u] = false;
        if (base + static_cast<X>(u * kThreads + threadIdx.x) < e1) {
          const C w = c[u] - static_cast<C>(lo);
          if (w < static_cast<C>(kWindow)) {
            atomicAdd(&s_cnt[w], C{1});
          } else {
            out_w[u] = true;
            slot[u] = atomicAdd(&fill[c[u]], C{1});
          }
        }
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (out_w[u]) {
          const X i = base + static_cast<X>(u * kThreads + threadIdx.x);
          const int rr = table ? s_row[i - e0] : tile_row(s_ptr, nr, static_cast<std::int64_t>(i));
          tmp[slot[u]] = row_pos<I>{static_cast<I>(r0 + rr), static_cast<I>(i)};
        }
      }
    }
    __syncthreads();
    for (int j = threadIdx.x; j < kWindow; j += kThreads) {
      const C k = s_cnt[j];
      if (k != 0) s_cnt[j] = atomicAdd(&fill[lo + j], k);
    }
    __syncthreads();
    for (X base = e0; base < e1; base += static_cast<X>(kThreads * kUnroll)) {
      C c[kUnroll];
      load_unrolled(ind, base, e1, c);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const X i = base + static_cast<X>(u * kThreads + threadIdx.x);
        if (i < e1) {
          const C w = c[u] - static_cast<C>(lo);
          if (w < static_cast<C>(kWindow)) {
            const C sl = atomicAdd(&s_cnt[w], C{1});
            const int rr = table ? s_row[i - e0] : tile_row(s_ptr, nr, static_cast<std::int64_t>(i));
            tmp[sl] = row_pos<I>{static_cast<I>(r0 + rr), static_cast<I>(i)};
          }
        }
      }
    }
    __syncthreads();  // s_ptr and s_cnt are refilled by the next tile
  }
}

// Long slices: the pairs split into positions and rows for the segmented sort.
template <class I>
__global__ void k_split_pairs(const row_pos<I>* __restrict__ tmp, std::int64_t nnz, I* __restrict__ pos,
                              I* __restrict__ rows) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nnz; i += stride) {
    const row_pos<I> t = tmp[i];
    pos[i] = t.p;
    rows[i] = t.row;
  }
}

// Long slices after the sort: slots of listed slices (sorted position >= 0) take the
// sorted row and the gathered value.
template <class I, class V>
__global__ void k_gather_long_pairs(const I* __restrict__ spos, const I* __restrict__ srow, std::int64_t nnz,
                                    I* __restrict__ idx, V* __restrict__ out, const V* __restrict__ data) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nnz; i += stride) {
    const I p = spos[i];
    if (p >= 0) {
      idx[i] = srow[i];
      out[i] = data[p];
    }
  }
}

// Whether the current device runs these kernels with programmatic dependent launch: compute
// capability 9.0 and later, and code compiled for it (a build for an older virtual architecture,
// JIT-compiled on a newer device, has no griddepcontrol instructions: launched with the attribute,
// its kernels would not wait for the previous one's writes).
bool pdl_supported() {
  static std::atomic<int> cached[64] = {};
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  if (dev < 0 || dev >= 64) return false;
  int v = cached[dev].load(std::memory_order_relaxed);
  if (v == 0) {
    int major = 0;
    CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    cudaFuncAttributes fa{};
    CUSCI_CUDA_TRY(cudaFuncGetAttributes(&fa, k_publish));
    v = major >= 9 && fa.ptxVersion >= 90 ? 1 : 2;
    cached[dev].store(v, std::memory_order_relaxed);
  }
  return v == 1;
}

// Launches kernel<<<grid, kThreads-style block, 0, s>>>(args...), as a programmatic dependent of the
// stream's previous kernel when pdl is set.
template <class... P, class... A>
void launch(bool pdl, void (*kernel)(P...), unsigned grid, unsigned block, cudaStream_t s, A&&... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = pdl ? attr : nullptr;
  cfg.numAttrs = pdl ? 1 : 0;
  CUSCI_CUDA_TRY(cudaLaunchKernelEx(&cfg, kernel, std::forward<A>(args)...));
}

}  // namespace

compressed_arrays transpose_compressed(const ndarray& data, const ndarray& indices, const ndarray& indptr,
                                       std::int64_t n_minor) {
  const std::int64_t nnz = indices.size();
  const dtype it = indices.dtype();
  compressed_arrays out;
  if (nnz == 0) {
    out.data = empty(data.shape(), data.dtype());
    out.indices = empty({0}, it);
    out.indptr = zeros({n_minor + 1}, it);
    return out;
  }
  cudaStream_t s = get_current_stream();
  const std::size_t item = data.itemsize() * static_cast<std::size_t>(data.size() / nnz);
  out.data = empty(data.shape(), data.dtype());
  out.indices = empty({nnz}, it);
  out.indptr = empty({n_minor + 1}, it);
  const bool pdl = pdl_supported();
  t_dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    using C = counter_t<I>;
    static_assert(sizeof(C) == sizeof(I));
    const I* ind = indices.data_as<I>();
    I* optr = out.indptr.data_as<I>();
    I* oidx = out.indices.data_as<I>();
    // 0-2: clear, counts -> exclusive scan -> fill counters (slice starts).
    const std::int64_t nb = n_minor > 0 ? n_minor : 1;
    device_buffer<C> cnt(nb, s), fill(nb, s);
    const std::int64_t n_tiles = scan_tiles<C>(nb);
    // aux: [0] long-slice count, [1] the scan's tile ticket, [2, 2 + n_tiles) its tile states.
    device_buffer<unsigned long long> aux(2 + n_tiles, s);
    unsigned long long* n_long = aux.data();
    {  // one launch clears the counts and aux (separate memsets cost about twice as much)
      const bool vec = reinterpret_cast<std::uintptr_t>(cnt.data()) % 16 == 0;
      const std::int64_t work = vec ? nb * static_cast<std::int64_t>(sizeof(C)) / 16 + 4 : nb;
      k_zero_counts<C><<<grid_for(work, kThreads, 2048), kThreads, 0, s>>>(cnt.data(), nb, vec, aux.data(), 2 + n_tiles);
      CUSCI_CHECK_LAUNCH();
    }
    const std::int64_t m_major = indptr.size() - 1;
    launch(pdl, k_count_window<I>, grid_for(m_major, kThreads), kThreads, s, indptr.data_as<I>(), m_major, n_minor,
           ind, cnt.data());
    launch(pdl, k_scan_counts<C>, static_cast<unsigned>(n_tiles), kScanThreads, s, static_cast<const C*>(cnt.data()),
           fill.data(), nb, aux.data() + 1, aux.data() + 2);
    // 3: (row, position) pairs into their slices' slots, in arbitrary order within a slice; fill[c]
    // ends as the end of slice c.
    device_buffer<row_pos<I>> pairs(nnz, s);
    launch(pdl, k_scatter_window<I>, grid_for(m_major, kThreads), kThreads, s, indptr.data_as<I>(), m_major, n_minor,
           ind, fill.data(), pairs.data());
    // 4: order short slices; list long ones.
    const std::int64_t max_long = std::min<std::int64_t>(n_minor, nnz / (kShortGlobal + 1));
    device_buffer<std::int64_t> long_begin(max_long > 0 ? max_long : 1, s), long_end(max_long > 0 ? max_long : 1, s);
    t_dispatch_size(item, [&](auto vtag) {
      using V = typename decltype(vtag)::type;
      V* oval = static_cast<V*>(out.data.data());
      const V* dv = static_cast<const V*>(data.data());
      launch(pdl, k_order_staged<I, V>, grid_for(n_minor, kThreads), kThreads, s, static_cast<const C*>(fill.data()),
             n_minor, optr, static_cast<const row_pos<I>*>(pairs.data()), oidx, oval, dv, n_long, long_begin.data(),
             long_end.data());
    });
    if (max_long == 0) return;  // no slice can be longer than kShortGlobal: no work list to read
    // 5: long slices (synchronizes to read their number).
    unsigned long long h_long = 0;
    {
      memory_ptr host = pinned_malloc(sizeof(unsigned long long));
      auto* hp = static_cast<unsigned long long*>(host->ptr());
      launch(pdl, k_publish, 1, 1, s, static_cast<const unsigned long long*>(n_long), hp);
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
      h_long = *static_cast<volatile unsigned long long*>(hp);
    }
    if (h_long == 0) return;
    const std::int64_t nl = static_cast<std::int64_t>(h_long);
    device_buffer<I> sorted(nnz, s);
    CUSCI_CUDA_TRY(cudaMemsetAsync(sorted.data(), 0xff, nnz * sizeof(I), s));  // -1: not in a listed slice
    {
      // Positions and rows apart; the rows sorted along as values.
      device_buffer<I> pos(nnz, s), rows(nnz, s), srows(nnz, s);
      k_split_pairs<I><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(pairs.data(), nnz, pos.data(), rows.data());
      CUSCI_CHECK_LAUNCH();
      std::size_t bytes = 0;
      CUSCI_CUDA_TRY(cub::DeviceSegmentedSort::SortPairs(nullptr, bytes, static_cast<const I*>(pos.data()),
                                                         sorted.data(), static_cast<const I*>(rows.data()),
                                                         srows.data(), nnz, nl, long_begin.data(), long_end.data(), s));
      device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
      CUSCI_CUDA_TRY(cub::DeviceSegmentedSort::SortPairs(tmp.data(), bytes, static_cast<const I*>(pos.data()),
                                                         sorted.data(), static_cast<const I*>(rows.data()),
                                                         srows.data(), nnz, nl, long_begin.data(), long_end.data(), s));
      t_dispatch_size(item, [&](auto vtag) {
        using V = typename decltype(vtag)::type;
        k_gather_long_pairs<I, V><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(
            sorted.data(), srows.data(), nnz, oidx, static_cast<V*>(out.data.data()), static_cast<const V*>(data.data()));
        CUSCI_CHECK_LAUNCH();
      });
    }
  });
  return out;
}

}  // namespace cusci::sparse::detail
