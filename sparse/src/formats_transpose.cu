// CSR <-> CSC transposition (transpose_compressed): a counting sort of the entries by their minor
// index, made stable by a per-slice fix-up.
//
// SciPy's csr_tocsc keeps, within each output slice, the input order of the entries (position p in
// the input arrays; for a canonical input this is the major index, ascending). Duplicates are kept.
//
// Passes (nnz entries, n minor slices, I the index type, V the value item; bytes for I = int32,
// V = float64 in brackets, per entry or per slice):
//   1. count      n_k[indices[p]] += 1, plain atomics [read 4 B/entry]
//   2. scan       CUB exclusive sum of the counts -> fill counters (slice starts) [~8 B/slice]
//   3. rows       major index of every entry (expand_indptr) [write 4 B/entry, read indptr]
//   4. scatter    slot = fill[c]++ (atomicAdd with return); out.indices[slot] = p [read 4 B, write 4 B
//                 scattered within the slice]. Afterwards fill[c] is the end of slice c, i.e. the
//                 output indptr[c + 1]: no separate copy of the scan.
//   5. fix-up     thread per slice: bounds [fill[c - 1], fill[c]) (0 for c = 0), written out as the
//                 output indptr; the slice's positions (atomic order is arbitrary) loaded into
//                 registers (capacity 8, 16 or 32), ranked by counting smaller positions (positions are
//                 distinct), out.indices[b + rank] = row[p], out.data[b + rank] = data[p] [read 4 B,
//                 gather 4 + 8 B, write 4 + 8 B per entry]; slices longer than 32 entries appended to
//                 a work list instead.
//   6. long       only when the work list is not empty (its length is read back: one
//                 synchronization): cub::DeviceSegmentedSort of the listed slices' positions, then a
//                 thread per entry gathers rows and values for them.
// The entry passes (1 and 4) give each thread kUnroll entries kThreads apart (coalesced), issuing all
// their loads, then all their atomics, then all their stores.
// In all about 56 B per entry for int32 / float64 (the old radix sort of packed 64-bit keys with a
// payload moved about 3x that), and 2 x nnz atomics.
// Alternatives measured on the H200 (2-D Poisson 2048^2, float64, nnz 21M; this pipeline 0.72 ms):
// warp-aggregated atomics (__match_any_sync) 0.81 ms; recording each entry's rank in the count pass
// so the scatter needs no atomics 0.73-0.75 ms; for inputs without duplicates, scattering the
// indices and values themselves and sorting each slice in place by major index (no position
// gathers, nothing written for slices already in order) 0.85 ms with an entry-parallel scatter and
// 0.75 ms with a thread per row (the scattered 12-byte writes cost more than the gathers they save).

#include <algorithm>
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
constexpr int kUnroll = 4;  // entries per thread of the unrolled entry passes (loads and atomics in flight)
constexpr std::int64_t kShortSlice = 32;  // longest slice ordered in registers by one thread


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

// The count pass: kUnroll coalesced loads, then kUnroll fire-and-forget atomics.
template <class I>
__global__ void k_count_unrolled(const I* __restrict__ ind, std::int64_t nnz, counter_t<I>* __restrict__ cnt) {
  using C = counter_t<I>;
  constexpr std::int64_t chunk = static_cast<std::int64_t>(kThreads) * kUnroll;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * chunk; base < nnz;
       base += static_cast<std::int64_t>(gridDim.x) * chunk) {
    C c[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t i = base + u * kThreads + threadIdx.x;
      if (i < nnz) c[u] = static_cast<C>(ind[i]);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (base + u * kThreads + threadIdx.x < nnz) atomicAdd(&cnt[c[u]], C{1});
    }
  }
}

// The positions path's scatter, unrolled the same way.
template <class I>
__global__ void k_scatter_unrolled(const I* __restrict__ ind, std::int64_t nnz, counter_t<I>* __restrict__ fill,
                                   I* __restrict__ slot_pos) {
  using C = counter_t<I>;
  constexpr std::int64_t chunk = static_cast<std::int64_t>(kThreads) * kUnroll;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * chunk; base < nnz;
       base += static_cast<std::int64_t>(gridDim.x) * chunk) {
    C c[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t i = base + u * kThreads + threadIdx.x;
      if (i < nnz) c[u] = static_cast<C>(ind[i]);
    }
    C slot[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (base + u * kThreads + threadIdx.x < nnz) slot[u] = atomicAdd(&fill[c[u]], C{1});
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t i = base + u * kThreads + threadIdx.x;
      if (i < nnz) slot_pos[slot[u]] = static_cast<I>(i);
    }
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
  const ndarray row = expand_indptr(indptr, nnz);  // major index of every entry
  t_dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    using C = counter_t<I>;
    static_assert(sizeof(C) == sizeof(I));
    const I* ind = indices.data_as<I>();
    I* optr = out.indptr.data_as<I>();
    I* oidx = out.indices.data_as<I>();
    // 1-2: counts -> exclusive scan -> fill counters (slice starts).
    const std::int64_t nb = n_minor > 0 ? n_minor : 1;
    device_buffer<C> cnt(nb, s), fill(nb, s);
    CUSCI_CUDA_TRY(cudaMemsetAsync(cnt.data(), 0, nb * sizeof(C), s));
    k_count_unrolled<I><<<grid_for(nnz, kThreads * kUnroll), kThreads, 0, s>>>(ind, nnz, cnt.data());
    CUSCI_CHECK_LAUNCH();
    {
      std::size_t bytes = 0;
      CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, cnt.data(), fill.data(), n_minor, s));
      device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
      CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(tmp.data(), bytes, cnt.data(), fill.data(), n_minor, s));
    }
    // 4: positions into their slices' slots (arbitrary order within a slice); fill[c] ends as the
    // end of slice c.
    k_scatter_unrolled<I><<<grid_for(nnz, kThreads * kUnroll), kThreads, 0, s>>>(ind, nnz, fill.data(), oidx);
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
