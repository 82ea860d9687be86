// CSR <-> CSC transposition (transpose_compressed): a counting sort of the entries by their minor
// index, made stable by a per-slice fix-up.
//
// SciPy's csr_tocsc keeps, within each output slice, the input order of the entries (position p in
// the input arrays; for a canonical input this is the major index, ascending). Duplicates are kept.
//
// Passes (nnz entries, n minor slices, I the index type, V the value item; bytes for I = int32,
// V = float64 in brackets, per entry or per slice):
//   1. count      thread per entry: n_k[indices[p]] += 1 [read 4 B/entry]; plain atomics (variant 1,
//                 the default) or warp-aggregated ones (variant 0: __match_any_sync, one atomic per
//                 distinct slice in a warp; fewer atomics on hot slices, a slow instruction otherwise)
//   2. scan       CUB exclusive sum of the counts -> fill counters (slice starts) [~8 B/slice]
//   3. rows       major index of every entry (expand_indptr) [write 4 B/entry, read indptr]
//      Variant 2 records rank[p] = the old count (atomicAdd with return) and scans inclusively
//      (slice ends) [write 4 B/entry more].
//   4. scatter    thread per entry: slot = fill[c]++ (atomicAdd with return; variant 0 aggregates it
//                 over the lanes of a warp sharing c); out.indices[slot] = p
//                 [read 4 B, write 4 B (scattered within the slice) per entry]. Afterwards fill[c] is
//                 the end of slice c, i.e. the output indptr[c + 1]: no separate copy of the scan.
//                 Variant 2: slot = start of slice c + rank[p], no atomic [read 4 B/entry more]: one
//                 atomic pass over the entries instead of two.
//   5. fix-up     thread per slice: bounds [fill[c - 1], fill[c]) (0 for c = 0), written out as the
//                 output indptr [read 4 B, write 4 B per slice]; the slice's positions (atomic order is arbitrary) are loaded into
//                 registers (capacity 8, 16 or 32), ranked by counting smaller positions (positions are
//                 distinct), and out.indices[b + rank] = row[p], out.data[b + rank] = data[p]
//                 [read 4 B, gather 4 + 8 B, write 4 + 8 B per entry; read indptr]
//      Slices longer than 32 entries are appended to a work list (atomic counter) instead.
//   6. long slices (only when the work list is not empty; its size is read back, one synchronization):
//                 cub::DeviceSegmentedSort of the listed slices' positions, then a thread per entry
//                 gathers rows and values for the listed slices.
// Variant 3 (inputs without duplicates, has_canonical_format; others run as variant 1): passes 1-2,
// then
//   3'. scatter   thread per major slice r (a warp per slice longer than 32): slot = fill[c]++;
//                 out.indices[slot] = r, out.data[slot] = data[p] [read 4 + 8 B, write 4 + 8 B
//                 scattered per entry]; no expand_indptr, no positions
//   4'. fix-up    thread per minor slice of up to 16 (8 for wider items) entries: indices (and, when out of order, values)
//                 in registers, sorted by the major index (distinct without duplicates), written back
//                 in place only when out of order [read 4 B (+ 8 B), write 0 or 4 + 8 B per entry]
//   5'. long      longer slices: cub::DeviceSegmentedSort::SortPairs of (index,
//                 value) into a copy, copied back (one synchronization to read their number).
// In all about 56 B per entry for int32 / float64 (the old radix sort of packed 64-bit keys with a
// payload moved about 3x that), and 2 x nnz atomics (before warp aggregation in variant 0).

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda_runtime.h>

#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "detail.hpp"

namespace cusci::sparse::detail {
namespace {

using cusci::detail::grid_for;

constexpr int kThreads = 256;
constexpr std::int64_t kShortSlice = 32;  // longest slice ordered in registers by one thread

// 0: warp-aggregated atomics in the count and scatter passes; 1 (default): plain atomics; 2: one
// atomic pass (the count pass records each entry's rank in its slice; the scatter reads it back);
// 3: scatter of indices and values by major slices, for inputs without duplicates (others as 1).
std::atomic<int> transpose_variant{1};

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

// Thread per entry, warp-uniform trip count (the loop bound depends only on the block's base).
// AGG: one atomic per distinct slice among the warp's lanes (__match_any_sync); else one per entry
// (its result unused: a fire-and-forget reduction in L2).
template <bool AGG, class I>
__global__ void k_count_minor(const I* __restrict__ ind, std::int64_t nnz, counter_t<I>* __restrict__ cnt) {
  using C = counter_t<I>;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const int lane = threadIdx.x & 31;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x; base < nnz; base += stride) {
    const std::int64_t i = base + threadIdx.x;
    const bool active = i < nnz;
    if constexpr (AGG) {
      const unsigned act = __ballot_sync(0xffffffffu, active);
      if (active) {
        const C c = static_cast<C>(ind[i]);
        const unsigned peers = __match_any_sync(act, c);
        if (lane == __ffs(peers) - 1) atomicAdd(&cnt[c], static_cast<C>(__popc(peers)));
      }
    } else {
      if (active) atomicAdd(&cnt[static_cast<C>(ind[i])], C{1});
    }
  }
}

// Thread per entry: a slot in its slice from the fill counter; writes the entry's position there.
// AGG: lanes of a warp with the same slice take one atomic and consecutive slots (in p order); else
// an atomic per entry. Either way the order inside a slice is arbitrary (k_order_slices fixes it).
template <bool AGG, class I>
__global__ void k_scatter_positions(const I* __restrict__ ind, std::int64_t nnz, counter_t<I>* __restrict__ fill,
                                    I* __restrict__ slot_pos) {
  using C = counter_t<I>;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const int lane = threadIdx.x & 31;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x; base < nnz; base += stride) {
    const std::int64_t i = base + threadIdx.x;
    const bool active = i < nnz;
    if constexpr (AGG) {
      const unsigned act = __ballot_sync(0xffffffffu, active);
      if (active) {
        const C c = static_cast<C>(ind[i]);
        const unsigned peers = __match_any_sync(act, c);
        const int leader = __ffs(peers) - 1;
        C start = 0;
        if (lane == leader) start = atomicAdd(&fill[c], static_cast<C>(__popc(peers)));
        start = __shfl_sync(act, start, leader);
        const C rank = static_cast<C>(__popc(peers & ((1u << lane) - 1u)));
        slot_pos[start + rank] = static_cast<I>(i);
      }
    } else {
      if (active) slot_pos[atomicAdd(&fill[static_cast<C>(ind[i])], C{1})] = static_cast<I>(i);
    }
  }
}

// Variant 2, count pass: thread per entry, rank[p] = the entry's arrival order in its slice (the
// atomic's old value; any order), and the slice counts.
template <class I>
__global__ void k_count_rank(const I* __restrict__ ind, std::int64_t nnz, counter_t<I>* __restrict__ cnt,
                             I* __restrict__ rank) {
  using C = counter_t<I>;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nnz; i += stride)
    rank[i] = static_cast<I>(atomicAdd(&cnt[static_cast<C>(ind[i])], C{1}));
}

// Variant 2, scatter pass without atomics: slot = start of the slice (end[c - 1], 0 for c = 0; `end`
// is the inclusive scan of the counts) + rank[p].
template <class I>
__global__ void k_scatter_ranked(const I* __restrict__ ind, const I* __restrict__ rank, std::int64_t nnz,
                                 const counter_t<I>* __restrict__ end, I* __restrict__ slot_pos) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nnz; i += stride) {
    const std::int64_t c = static_cast<std::int64_t>(ind[i]);
    const std::int64_t start = c > 0 ? static_cast<std::int64_t>(end[c - 1]) : 0;
    slot_pos[start + static_cast<std::int64_t>(rank[i])] = static_cast<I>(i);
  }
}

// Orders one slice of len <= CAP entries starting at b: positions in registers, rank of each by
// counting the smaller ones (positions are distinct), then rows and values gathered to b + rank.
template <int CAP, class I, class V>
__device__ __forceinline__ void order_short(I* __restrict__ idx, V* __restrict__ out, const I* __restrict__ row,
                                            const V* __restrict__ data, std::int64_t b, int len) {
  constexpr I kMax = std::numeric_limits<I>::max();
  I v[CAP];
#pragma unroll
  for (int k = 0; k < CAP; ++k) v[k] = k < len ? idx[b + k] : kMax;
#pragma unroll
  for (int k = 0; k < CAP; ++k) {
    if (k < len) {
      int r = 0;
#pragma unroll
      for (int j = 0; j < CAP; ++j) r += v[j] < v[k] ? 1 : 0;
      const std::int64_t p = static_cast<std::int64_t>(v[k]);
      const I rw = row[p];
      const V dv = data[p];
      idx[b + r] = rw;
      out[b + r] = dv;
    }
  }
}

// Thread per slice: bounds from the fill counters after the scatter (fill[c] = end of slice c; the
// start is the previous slice's end), written out as indptr[c + 1] (and indptr[0] = 0); short slices
// ordered in place; long ones appended to the work list.
// Launch bounds: at most 64 registers for int32 indices (4 blocks of 256 per SM; the 32-entry tier
// then fits without spilling), 128 for int64 (its 32-entry tier spills below that).
template <class I, class V>
__global__ void __launch_bounds__(kThreads, sizeof(I) == 4 ? 4 : 2)
    k_order_slices(const counter_t<I>* __restrict__ fill, std::int64_t n, I* __restrict__ indptr,
                   I* __restrict__ idx, V* __restrict__ out,
                   const I* __restrict__ row, const V* __restrict__ data, unsigned long long* __restrict__ n_long,
                   std::int64_t* __restrict__ long_begin, std::int64_t* __restrict__ long_end) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; c < n; c += stride) {
    const std::int64_t b = c > 0 ? static_cast<std::int64_t>(fill[c - 1]) : 0;
    const std::int64_t e = static_cast<std::int64_t>(fill[c]), len = e - b;
    indptr[c + 1] = static_cast<I>(e);
    if (c == 0) indptr[0] = I{0};
    if (len <= 0) continue;
    if (len <= 8) {
      order_short<8>(idx, out, row, data, b, static_cast<int>(len));
    } else if (len <= 16) {
      order_short<16>(idx, out, row, data, b, static_cast<int>(len));
    } else if (len <= kShortSlice) {
      order_short<static_cast<int>(kShortSlice)>(idx, out, row, data, b, static_cast<int>(len));
    } else {
      const unsigned long long k = atomicAdd(n_long, 1ull);
      long_begin[k] = b;
      long_end[k] = e;
    }
  }
}

// Thread per entry over all slots: slots of listed (long) slices hold a sorted position (>= 0), the
// others -1 (already done by k_order_slices).
template <class I, class V>
__global__ void k_gather_long(const I* __restrict__ sorted, std::int64_t nnz, I* __restrict__ idx, V* __restrict__ out,
                              const I* __restrict__ row, const V* __restrict__ data) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nnz; i += stride) {
    const I p = sorted[i];
    if (p >= 0) {
      idx[i] = row[p];
      out[i] = data[p];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Variant 3, for an input without duplicate entries (has_canonical_format): the major index alone
// orders a slice, so no position has to travel. The scatter moves the major index and the value
// themselves; the fix-up sorts each slice by major index in registers, reading and writing only
// contiguous slots, and writes nothing for a slice that is already in order.
// ---------------------------------------------------------------------------------------------
constexpr std::int64_t kThreadRow = 32;  // longest major slice scattered by one thread

// Thread per major slice r of at most kThreadRow entries: each entry takes a slot in its minor slice
// (atomic fill counter) and writes r and its value there. Entries are visited from the last to the
// first: in a banded matrix the later rows meet a column at earlier positions of their own rows, so
// this order makes a warp's atomics on one column arrive in row order more often (a fix-up that finds
// a slice in order writes nothing). Longer slices are listed for k_scatter_long_rows.
template <class I, class V>
__global__ void k_scatter_rows(const I* __restrict__ ptr, std::int64_t m, const I* __restrict__ ind,
                               const V* __restrict__ data, counter_t<I>* __restrict__ fill, I* __restrict__ oidx,
                               V* __restrict__ oval, unsigned long long* __restrict__ n_list,
                               I* __restrict__ list) {
  using C = counter_t<I>;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < m; r += stride) {
    const std::int64_t b = static_cast<std::int64_t>(ptr[r]), e = static_cast<std::int64_t>(ptr[r + 1]);
    if (e - b > kThreadRow) {
      list[atomicAdd(n_list, 1ull)] = static_cast<I>(r);
      continue;
    }
#pragma unroll 4
    for (std::int64_t p = e - 1; p >= b; --p) {
      const C slot = atomicAdd(&fill[static_cast<C>(ind[p])], C{1});
      oidx[slot] = static_cast<I>(r);
      oval[slot] = data[p];
    }
  }
}

// Warp per listed (long) major slice: the lanes stride over its entries. `n_list` is read on the
// device (written by k_scatter_rows earlier on the stream); the grid is sized for the most there can be.
template <class I, class V>
__global__ void k_scatter_long_rows(const I* __restrict__ ptr, const I* __restrict__ ind, const V* __restrict__ data,
                                    counter_t<I>* __restrict__ fill, I* __restrict__ oidx, V* __restrict__ oval,
                                    const unsigned long long* __restrict__ n_list, const I* __restrict__ list) {
  using C = counter_t<I>;
  const std::int64_t nl = static_cast<std::int64_t>(*n_list);
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (blockDim.x / 32);
  const int lane = threadIdx.x & 31;
  for (std::int64_t w = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; w < nl; w += warps) {
    const I r = list[w];
    const std::int64_t b = static_cast<std::int64_t>(ptr[r]), e = static_cast<std::int64_t>(ptr[r + 1]);
    for (std::int64_t p = b + lane; p < e; p += 32) {
      const C slot = atomicAdd(&fill[static_cast<C>(ind[p])], C{1});
      oidx[slot] = r;
      oval[slot] = data[p];
    }
  }
}

// Longest minor slice variant 3 orders in registers (indices and values there): 16 where an index
// and a value take at most 8 bytes, else 8 (more would spill under the launch bounds below).
template <class I, class V>
constexpr std::int64_t rows_tier() {
  return sizeof(I) + sizeof(V) <= 8 ? 16 : 8;
}

// Orders one slice of len <= CAP entries at b by major index (distinct: no duplicates), in place:
// indices in registers; when out of order, the values too, each entry moved to b + its rank.
template <int CAP, class I, class V>
__device__ __forceinline__ void order_rows_short(I* __restrict__ idx, V* __restrict__ out, std::int64_t b, int len) {
  constexpr I kMax = std::numeric_limits<I>::max();
  I r[CAP];
#pragma unroll
  for (int k = 0; k < CAP; ++k) r[k] = k < len ? idx[b + k] : kMax;
  bool sorted = true;
#pragma unroll
  for (int k = 1; k < CAP; ++k) sorted &= r[k - 1] <= r[k];
  if (sorted) return;
  V v[CAP];
#pragma unroll
  for (int k = 0; k < CAP; ++k) {
    if (k < len) v[k] = out[b + k];
  }
#pragma unroll
  for (int k = 0; k < CAP; ++k) {
    if (k < len) {
      int rank = 0;
#pragma unroll
      for (int j = 0; j < CAP; ++j) rank += r[j] < r[k] ? 1 : 0;
      idx[b + rank] = r[k];
      out[b + rank] = v[k];
    }
  }
}

// Thread per minor slice: bounds from the fill counters (as k_order_slices), indptr written, slices
// of up to rows_tier<I, V>() entries ordered in place, longer ones listed.
template <class I, class V>
__global__ void __launch_bounds__(kThreads, sizeof(I) + sizeof(V) > 16 ? 2 : 4)
    k_order_rows(const counter_t<I>* __restrict__ fill, std::int64_t n, I* __restrict__ indptr, I* __restrict__ idx,
                 V* __restrict__ out, unsigned long long* __restrict__ n_long, std::int64_t* __restrict__ long_begin,
                 std::int64_t* __restrict__ long_end) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; c < n; c += stride) {
    const std::int64_t b = c > 0 ? static_cast<std::int64_t>(fill[c - 1]) : 0;
    const std::int64_t e = static_cast<std::int64_t>(fill[c]), len = e - b;
    indptr[c + 1] = static_cast<I>(e);
    if (c == 0) indptr[0] = I{0};
    if (len <= 1) continue;
    constexpr std::int64_t tier = rows_tier<I, V>();
    if (len <= 8) {
      order_rows_short<8>(idx, out, b, static_cast<int>(len));
    } else if (tier > 8 && len <= tier) {
      order_rows_short<static_cast<int>(tier > 8 ? tier : 8)>(idx, out, b, static_cast<int>(len));
    } else {
      const unsigned long long k = atomicAdd(n_long, 1ull);
      long_begin[k] = b;
      long_end[k] = e;
    }
  }
}

// Thread per slot: slots of listed slices (sorted copy >= 0) take the sorted index and value back.
template <class I, class V>
__global__ void k_copy_sorted(const I* __restrict__ skey, const V* __restrict__ sval, std::int64_t nnz,
                              I* __restrict__ idx, V* __restrict__ out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nnz; i += stride) {
    const I k = skey[i];
    if (k >= 0) {
      idx[i] = k;
      out[i] = sval[i];
    }
  }
}

// Variant 3 after the counts and their exclusive scan (fill = slice starts): scatter by major
// slices, order the minor slices in place, long minor slices through a segmented sort of (index,
// value) pairs. Synchronizes once when a minor slice can be longer than the register tier.
template <class I>
void transpose_by_rows(const ndarray& data, const ndarray& indptr, const I* ind, std::int64_t nnz, std::int64_t n_minor,
                       std::size_t item, counter_t<I>* fill, compressed_arrays& out, cudaStream_t s) {
  const std::int64_t m = indptr.size() - 1;
  const I* ptr = indptr.data_as<I>();
  I* optr = out.indptr.data_as<I>();
  I* oidx = out.indices.data_as<I>();
  const std::int64_t max_rows = std::min<std::int64_t>(m, nnz / (kThreadRow + 1));
  device_buffer<unsigned long long> counters(2, s);  // listed major slices, listed minor slices
  CUSCI_CUDA_TRY(cudaMemsetAsync(counters.data(), 0, 2 * sizeof(unsigned long long), s));
  device_buffer<I> row_list(max_rows > 0 ? max_rows : 1, s);
  std::int64_t max_long = 0;  // most minor slices longer than the register tier
  t_dispatch_size(item, [&](auto vtag) {
    using V = typename decltype(vtag)::type;
    max_long = std::min<std::int64_t>(n_minor, nnz / (rows_tier<I, V>() + 1));
  });
  device_buffer<std::int64_t> long_begin(max_long > 0 ? max_long : 1, s), long_end(max_long > 0 ? max_long : 1, s);
  t_dispatch_size(item, [&](auto vtag) {
    using V = typename decltype(vtag)::type;
    V* oval = static_cast<V*>(out.data.data());
    const V* dv = static_cast<const V*>(data.data());
    k_scatter_rows<I, V><<<grid_for(m, kThreads), kThreads, 0, s>>>(ptr, m, ind, dv, fill, oidx, oval, counters.data(),
                                                                     row_list.data());
    CUSCI_CHECK_LAUNCH();
    if (max_rows > 0) {
      const unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>((max_rows + 7) / 8, 1024));
      k_scatter_long_rows<I, V><<<blocks, kThreads, 0, s>>>(ptr, ind, dv, fill, oidx, oval, counters.data(),
                                                           row_list.data());
      CUSCI_CHECK_LAUNCH();
    }
    k_order_rows<I, V><<<grid_for(n_minor, kThreads), kThreads, 0, s>>>(fill, n_minor, optr, oidx, oval,
                                                                         counters.data() + 1, long_begin.data(),
                                                                         long_end.data());
    CUSCI_CHECK_LAUNCH();
  });
  if (max_long == 0) return;  // no minor slice can be longer than the register tier
  unsigned long long h_long = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h_long, counters.data() + 1, sizeof(h_long), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  if (h_long == 0) return;
  const std::int64_t nl = static_cast<std::int64_t>(h_long);
  device_buffer<I> skey(nnz, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(skey.data(), 0xff, nnz * sizeof(I), s));  // -1: not in a listed slice
  t_dispatch_size(item, [&](auto vtag) {
    using V = typename decltype(vtag)::type;
    V* oval = static_cast<V*>(out.data.data());
    device_buffer<V> sval(nnz, s);
    std::size_t bytes = 0;
    CUSCI_CUDA_TRY(cub::DeviceSegmentedSort::SortPairs(nullptr, bytes, static_cast<const I*>(oidx), skey.data(),
                                                       static_cast<const V*>(oval), sval.data(), nnz, nl,
                                                       long_begin.data(), long_end.data(), s));
    device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
    CUSCI_CUDA_TRY(cub::DeviceSegmentedSort::SortPairs(tmp.data(), bytes, static_cast<const I*>(oidx), skey.data(),
                                                       static_cast<const V*>(oval), sval.data(), nnz, nl,
                                                       long_begin.data(), long_end.data(), s));
    k_copy_sorted<I, V><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(skey.data(), sval.data(), nnz, oidx, oval);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace

void set_transpose_variant(int variant) {
  if (variant < 0 || variant > 3)
    throw value_error("cusci::sparse::detail::set_transpose_variant: variant must be 0, 1, 2 or 3, got " +
                      std::to_string(variant));
  transpose_variant.store(variant, std::memory_order_relaxed);
}

compressed_arrays transpose_compressed(const ndarray& data, const ndarray& indices, const ndarray& indptr,
                                       std::int64_t n_minor, bool no_duplicates) {
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
  ndarray row;  // major index of every entry (not needed by variant 3)
  t_dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    using C = counter_t<I>;
    static_assert(sizeof(C) == sizeof(I));
    const I* ind = indices.data_as<I>();
    I* optr = out.indptr.data_as<I>();
    I* oidx = out.indices.data_as<I>();
    // 1-2: counts -> exclusive scan -> fill counters (slice starts); variant 2: counts and ranks ->
    // inclusive scan (slice ends).
    const int variant = transpose_variant.load(std::memory_order_relaxed);
    const bool agg = variant == 0, ranked = variant == 2;
    const bool by_rows = variant == 3 && no_duplicates;  // else variant 3 runs as 1
    const std::int64_t nb = n_minor > 0 ? n_minor : 1;
    device_buffer<C> cnt(nb, s), fill(nb, s);
    device_buffer<I> rank(ranked ? nnz : 1, s);
    CUSCI_CUDA_TRY(cudaMemsetAsync(cnt.data(), 0, nb * sizeof(C), s));
    if (ranked) {
      k_count_rank<I><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(ind, nnz, cnt.data(), rank.data());
    } else if (agg) {
      k_count_minor<true, I><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(ind, nnz, cnt.data());
    } else {
      k_count_minor<false, I><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(ind, nnz, cnt.data());
    }
    CUSCI_CHECK_LAUNCH();
    {
      std::size_t bytes = 0;
      if (ranked)
        CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, cnt.data(), fill.data(), n_minor, s));
      else
        CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, cnt.data(), fill.data(), n_minor, s));
      device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
      if (ranked)
        CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp.data(), bytes, cnt.data(), fill.data(), n_minor, s));
      else
        CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(tmp.data(), bytes, cnt.data(), fill.data(), n_minor, s));
    }
    if (by_rows) {
      transpose_by_rows<I>(data, indptr, ind, nnz, n_minor, item, fill.data(), out, s);
      return;
    }
    row = expand_indptr(indptr, nnz);
    // 4: positions into their slices' slots (arbitrary order within a slice); fill[c] ends as the
    // end of slice c (variant 2: it is that already).
    if (ranked) {
      k_scatter_ranked<I><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(ind, rank.data(), nnz, fill.data(), oidx);
    } else if (agg) {
      k_scatter_positions<true, I><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(ind, nnz, fill.data(), oidx);
    } else {
      k_scatter_positions<false, I><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(ind, nnz, fill.data(), oidx);
    }
    CUSCI_CHECK_LAUNCH();
    // 5: order short slices; list long ones.
    const std::int64_t max_long = std::min<std::int64_t>(n_minor, nnz / (kShortSlice + 1));
    device_buffer<unsigned long long> n_long(1, s);
    device_buffer<std::int64_t> long_begin(max_long > 0 ? max_long : 1, s), long_end(max_long > 0 ? max_long : 1, s);
    CUSCI_CUDA_TRY(cudaMemsetAsync(n_long.data(), 0, sizeof(unsigned long long), s));
    t_dispatch_size(item, [&](auto vtag) {
      using V = typename decltype(vtag)::type;
      k_order_slices<I, V><<<grid_for(n_minor, kThreads), kThreads, 0, s>>>(
          fill.data(), n_minor, optr, oidx, static_cast<V*>(out.data.data()), row.data_as<I>(), static_cast<const V*>(data.data()),
          n_long.data(), long_begin.data(), long_end.data());
      CUSCI_CHECK_LAUNCH();
    });
    if (max_long == 0) return;  // no slice can be longer than kShortSlice: no work list to read
    // 6: long slices (synchronizes to read their number).
    unsigned long long h_long = 0;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&h_long, n_long.data(), sizeof(h_long), cudaMemcpyDeviceToHost, s));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
    if (h_long == 0) return;
    const std::int64_t nl = static_cast<std::int64_t>(h_long);
    device_buffer<I> sorted(nnz, s);
    CUSCI_CUDA_TRY(cudaMemsetAsync(sorted.data(), 0xff, nnz * sizeof(I), s));  // -1: not in a listed slice
    {
      std::size_t bytes = 0;
      CUSCI_CUDA_TRY(cub::DeviceSegmentedSort::SortKeys(nullptr, bytes, static_cast<const I*>(oidx), sorted.data(),
                                                        nnz, nl, long_begin.data(), long_end.data(), s));
      device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
      CUSCI_CUDA_TRY(cub::DeviceSegmentedSort::SortKeys(tmp.data(), bytes, static_cast<const I*>(oidx), sorted.data(),
                                                        nnz, nl, long_begin.data(), long_end.data(), s));
    }
    t_dispatch_size(item, [&](auto vtag) {
      using V = typename decltype(vtag)::type;
      k_gather_long<I, V><<<grid_for(nnz, kThreads), kThreads, 0, s>>>(
          sorted.data(), nnz, oidx, static_cast<V*>(out.data.data()), row.data_as<I>(),
          static_cast<const V*>(data.data()));
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

}  // namespace cusci::sparse::detail
