// Row-wise (Gustavson) SpGEMM C = A B of canonical CSR operands, merge based, in every value dtype,
// with exactly SciPy's csr_matmat arithmetic: the contributions to C[i, j] are summed from 0 in the
// order of A's (sorted) entries of row i, each product a * b rounded before the addition (this
// translation unit is compiled with -fmad=false, see products.cmake), and sums that are exactly zero
// are dropped. The result is canonical (sorted indices, no duplicates).
//
// Rows are binned by their entry count nA_i and product count P_i = sum of the lengths of the rows of
// B that row i of A selects:
//   tier 1: nA_i <= 8 and P_i <= 512   one thread per row merges the nA_i sorted rows of B, the heads
//                                      (position, end, current column, a value) in registers;
//   tier 2: nA_i <= 128, P_i <= 4096   one warp per row, four heads per lane (head h = 32 j + lane):
//                                      warp min-reduction of the head columns, ballot of the heads at
//                                      the minimum, contributions summed in head (= A's entry) order;
//   tier 3: longer rows                the sub-matrix of those rows is gathered and multiplied by the
//                                      expand-sort-compress kernel (stable sort: same summation order),
//                                      its rows are copied into place.
// Passes (m rows, work W = sum P_i products; bytes for int32 indices and float64 values):
//   symbolic  tier 1 thread kernel over all rows + tier 2 warp kernel over the long-row list: reads
//             A's indptr/indices (4 m + 4 nnz(A) bytes) and B's indptr and indices of every product
//             (8 W bytes through L1/L2, neighbouring rows share B's rows), writes 4 m bytes (counts);
//   scan      counts -> C.indptr (cub), one synchronization to learn nnz(C) (and the tier counts);
//   numeric   the same merges with values: reads also A's values and B's values of every product
//             (8 W bytes), writes C once (12 nnz(C) bytes; tier 1 through a shared-memory stage per
//             block, copied out coalesced), sorted, zero sums skipped;
//   compact   only when some sums were exactly zero: a scan of the kept counts and one copy of C.
// Memory: C plus four O(m) index arrays, all from the pool (no per-product buffers except for tier 3).
// The merge-based row product follows Gustavson, "Two fast algorithms for sparse matrices:
// multiplication and permuted transposition", ACM TOMS 4(3), 1978, with the per-row binning of
// Nagasaka, Nukada & Matsuoka, "High-performance and memory-saving sparse general matrix-matrix
// multiplication for NVIDIA Pascal GPU", ICPP 2017.

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "products/products_detail.hpp"

namespace cusci::sparse::detail {
namespace {

using cusci::detail::is_complex_v;
using cusci::detail::type_tag;

constexpr int kBlock = 256;
constexpr int kT1Heads = 8;                    // tier 1: at most 8 entries in the row of A ...
constexpr long long kT1Products = 512;         // ... and at most 512 products
constexpr int kT2PerLane = 4;                  // tier 2: four heads a lane,
constexpr int kT2Heads = 32 * kT2PerLane;      // at most 128 entries in the row of A ...
constexpr long long kT2Products = 4096;        // ... and at most 4096 products
constexpr unsigned kFull = 0xffffffffu;

// Counters on the device: number of long rows (tiers 2 and 3), number of tier-3 rows, total
// products (SciPy's upper bound of nnz(C), which decides the index dtype), entries dropped (zero sums),
// distinct columns of the tier-1 and tier-2 rows (nnz(C) when there is no tier-3 row: read with the
// other counters in one copy, instead of a second copy of C.indptr's last entry).
enum counter { c_long = 0, c_tier3 = 1, c_products = 2, c_dropped = 3, c_distinct = 4, c_count = 5 };

// --- SciPy's arithmetic (sparsetools): integers wrap, bool is OR of ANDs, complex multiply is the
// --- plain formula (re = ar br - ai bi, im = ar bi + ai br) --------------------------------------

template <class T>
__device__ __forceinline__ T mul_v(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (is_complex_v<T>) {
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < 4), std::uint32_t, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return a * b;
  }
}
template <class T>
__device__ __forceinline__ T add_v(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (is_complex_v<T>) {
    return T(a.real() + b.real(), a.imag() + b.imag());
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < 4), std::uint32_t, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}
template <class T>
__device__ __forceinline__ bool is_zero_v(const T& v) {
  if constexpr (is_complex_v<T>) return v.real() == 0 && v.imag() == 0;
  else return v == T(0);  // -0.0 == 0: dropped as SciPy's `sums != 0` test; NaN kept
}

// Shuffle of any trivially copyable value of at most 16 bytes.
template <class T>
__device__ __forceinline__ T shfl_v(const T& v, int src) {
  constexpr int words = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned u[words] = {};
  memcpy(u, &v, sizeof(T));
#pragma unroll
  for (int w = 0; w < words; ++w) u[w] = __shfl_sync(kFull, u[w], src);
  T r;
  memcpy(&r, u, sizeof(T));
  return r;
}

template <class V>
__device__ __forceinline__ V warp_min(V v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const V w = __shfl_xor_sync(kFull, v, o);
    v = w < v ? w : v;
  }
  return v;
}
__device__ __forceinline__ long long warp_sum(long long v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(kFull, v, o);
  return v;
}

template <class I>
constexpr I kNone = std::numeric_limits<I>::max();  // column of an exhausted head (columns < n <= max)

// Sum over the warp of the lanes' v; lane 0 adds it to *counter when nonzero. Every lane must call.
__device__ __forceinline__ void warp_count(unsigned long long v, unsigned long long* counter) {
  const long long s = warp_sum(static_cast<long long>(v));
  if ((threadIdx.x & 31) == 0 && s != 0) atomicAdd(counter, static_cast<unsigned long long>(s));
}

// Appends row i to list (count at *counter) for the lanes with `take`, one atomic a warp. Every lane
// of the warp must call.
template <class I>
__device__ __forceinline__ void warp_append(bool take, std::int64_t i, I* list, unsigned long long* counter) {
  const unsigned mask = __ballot_sync(kFull, take);
  if (mask == 0) return;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const int leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(counter, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(kFull, base, leader);
  if (take) list[base + __popc(mask & ((1u << lane) - 1u))] = static_cast<I>(i);
}

// --- tier 1: a thread per row ----------------------------------------------------------------------

// Loads the heads of row i (na <= kT1Heads entries from a0); returns the row's product count.
template <class I>
__device__ __forceinline__ long long t1_heads(I a0, I na, const I* __restrict__ aind, const I* __restrict__ bptr,
                                              I (&pos)[kT1Heads], I (&end)[kT1Heads]) {
  long long P = 0;
#pragma unroll
  for (int h = 0; h < kT1Heads; ++h) {
    if (h < na) {
      const I k = aind[a0 + h];
      pos[h] = bptr[k];
      end[h] = bptr[k + 1];
      P += static_cast<long long>(end[h] - pos[h]);
    } else {
      pos[h] = 0;
      end[h] = 0;
    }
  }
  return P;
}

// Symbolic: counts the distinct columns of tier-1 rows into cnt; other rows go to the long list.
// Adds the tier-1 products and distinct columns to their counters (one block reduction of both,
// packed in one 64-bit word: a block's products are at most 256 * 512 < 2**32 and its distinct
// columns at most its products, so the low half never carries into the high half).
template <class I>
__global__ void __launch_bounds__(kBlock)
    k_sym_thread(std::int64_t m, const I* __restrict__ aptr, const I* __restrict__ aind, const I* __restrict__ bptr,
                 const I* __restrict__ bind, I* __restrict__ cnt, I* __restrict__ long_rows,
                 unsigned long long* __restrict__ ctr) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  unsigned long long products = 0, distinct = 0;
  bool is_long = false;
  if (i < m) {
    const I a0 = aptr[i], na = aptr[i + 1] - a0;
    is_long = true;
    if (na <= kT1Heads) {
      I pos[kT1Heads], end[kT1Heads], col[kT1Heads];
      const long long P = t1_heads(a0, na, aind, bptr, pos, end);
      if (P <= kT1Products) {
        is_long = false;
        products = static_cast<unsigned long long>(P);
#pragma unroll
        for (int h = 0; h < kT1Heads; ++h) col[h] = pos[h] < end[h] ? bind[pos[h]] : kNone<I>;
        I c = 0;
        while (true) {
          I mn = col[0];
#pragma unroll
          for (int h = 1; h < kT1Heads; ++h) mn = col[h] < mn ? col[h] : mn;
          if (mn == kNone<I>) break;
          ++c;
#pragma unroll
          for (int h = 0; h < kT1Heads; ++h) {
            if (col[h] == mn) {
              ++pos[h];
              col[h] = pos[h] < end[h] ? bind[pos[h]] : kNone<I>;
            }
          }
        }
        cnt[i] = c;
        distinct = static_cast<unsigned long long>(c);
      }
    }
    if (is_long) cnt[i] = 0;
  }
  warp_append(is_long, i, long_rows, ctr + c_long);
  using reduce_t = cub::BlockReduce<unsigned long long, kBlock>;
  __shared__ typename reduce_t::TempStorage tmp;
  const unsigned long long total = reduce_t(tmp).Sum((products << 32) | distinct);
  if (threadIdx.x == 0 && total != 0) {
    atomicAdd(ctr + c_products, total >> 32);
    atomicAdd(ctr + c_distinct, total & 0xffffffffull);
  }
}

// Numeric: the tier-1 rows' sorted columns and nonzero sums at C's row offsets.
// The block's rows are consecutive, so their slots in C are one range; when it fits the stage
// (kNumStageBytes of indices and values), the rows are written there and the block copies the
// range out with consecutive threads on consecutive slots. A thread's own row written straight to
// global memory puts every lane of a store on a different sector, each sector written by several
// instructions: Nsight Compute counted 77% of the kernel's L2 sectors as excess, and the staged
// stores took the kernel on the 2-D Poisson 2048^2 square (H200) from 1.90 ms to 0.60 ms. Slots the block does not fill (tier-2 and tier-3 rows, written by later
// kernels; kept counts below the symbolic ones, compacted later) are copied out unset: the later
// writes and the compaction never read them.
constexpr int kNumStageBytes = 48 * 1024;
template <class T, class I>
constexpr std::int64_t num_stage_slots() {
  return static_cast<std::int64_t>(kNumStageBytes / (sizeof(T) + sizeof(I))) / 16 * 16;
}

template <class T, class I>
__global__ void __launch_bounds__(kBlock)
    k_num_thread(std::int64_t m, const I* __restrict__ aptr, const I* __restrict__ aind, const T* __restrict__ aval,
                 const I* __restrict__ bptr, const I* __restrict__ bind, const T* __restrict__ bval,
                 const I* __restrict__ cptr, I* __restrict__ cnt, I* __restrict__ cind_g, T* __restrict__ cval_g,
                 unsigned long long* __restrict__ ctr) {
  constexpr std::int64_t kSlots = num_stage_slots<T, I>();
  __shared__ alignas(16) unsigned char s_stage[kNumStageBytes];
  const std::int64_t r0 = blockIdx.x * static_cast<std::int64_t>(blockDim.x);
  const std::int64_t r1 = r0 + blockDim.x < m ? r0 + blockDim.x : m;
  const std::int64_t s0 = static_cast<std::int64_t>(cptr[r0]);
  const std::int64_t span = static_cast<std::int64_t>(cptr[r1]) - s0;
  const bool staged = span <= kSlots;  // uniform over the block
  // Slot o of C goes to cval[o - base] / cind[o - base]: the stage (base s0) or C itself (base 0).
  T* cval = staged ? reinterpret_cast<T*>(s_stage) : cval_g;
  I* cind = staged ? reinterpret_cast<I*>(s_stage + kSlots * sizeof(T)) : cind_g;
  const std::int64_t base = staged ? s0 : 0;
  const std::int64_t i = r0 + threadIdx.x;
  unsigned long long dropped = 0;
  if (i < m) {
    const I a0 = aptr[i], na = aptr[i + 1] - a0;
    if (na <= kT1Heads) {
      I pos[kT1Heads], end[kT1Heads], col[kT1Heads];
      if (t1_heads(a0, na, aind, bptr, pos, end) <= kT1Products) {
        T av[kT1Heads];
#pragma unroll
        for (int h = 0; h < kT1Heads; ++h) {
          av[h] = h < na ? aval[a0 + h] : T(0);
          col[h] = pos[h] < end[h] ? bind[pos[h]] : kNone<I>;
        }
        const I o0 = cptr[i];
        I o = o0;
        while (true) {
          I mn = col[0];
#pragma unroll
          for (int h = 1; h < kT1Heads; ++h) mn = col[h] < mn ? col[h] : mn;
          if (mn == kNone<I>) break;
          T acc = T(0);
#pragma unroll
          for (int h = 0; h < kT1Heads; ++h) {  // heads in A's entry order: SciPy's summation order
            if (col[h] == mn) {
              acc = add_v(acc, mul_v(av[h], bval[pos[h]]));
              ++pos[h];
              col[h] = pos[h] < end[h] ? bind[pos[h]] : kNone<I>;
            }
          }
          if (!is_zero_v(acc)) {
            cind[o - base] = mn;
            cval[o - base] = acc;
            ++o;
          }
        }
        const I want = cptr[i + 1] - o0, kept = o - o0;
        if (kept != want) {
          cnt[i] = kept;
          dropped = static_cast<unsigned long long>(want - kept);
        }
      }
    }
  }
  warp_count(dropped, ctr + c_dropped);
  if (staged) {
    __syncthreads();
    const T* sv = reinterpret_cast<const T*>(s_stage);
    const I* si = reinterpret_cast<const I*>(s_stage + kSlots * sizeof(T));
    for (std::int64_t j = threadIdx.x; j < span; j += blockDim.x) {
      cind_g[s0 + j] = si[j];
      cval_g[s0 + j] = sv[j];
    }
  }
}

// --- tier 2: a warp per row ------------------------------------------------------------------------

struct warp_row {
  std::int64_t first, stride;
};
__device__ __forceinline__ warp_row warp_range() {
  return {(blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) >> 5,
          (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5};
}

// The row's product count (every lane gets it).
template <class I>
__device__ __forceinline__ long long warp_products(I a0, I na, const I* __restrict__ aind,
                                                   const I* __restrict__ bptr) {
  long long P = 0;
  for (I p = static_cast<I>(threadIdx.x & 31); p < na; p += 32) {
    const I k = aind[a0 + p];
    P += static_cast<long long>(bptr[k + 1] - bptr[k]);
  }
  return warp_sum(P);
}
__device__ __forceinline__ bool is_tier2(long long na, long long P) { return na <= kT2Heads && P <= kT2Products; }

template <class I>
__device__ __forceinline__ void t2_heads(I a0, I na, const I* __restrict__ aind, const I* __restrict__ bptr,
                                         const I* __restrict__ bind, I (&pos)[kT2PerLane], I (&end)[kT2PerLane],
                                         I (&col)[kT2PerLane]) {
  const int lane = static_cast<int>(threadIdx.x & 31);
#pragma unroll
  for (int j = 0; j < kT2PerLane; ++j) {
    const I h = static_cast<I>(j * 32 + lane);
    if (h < na) {
      const I k = aind[a0 + h];
      pos[j] = bptr[k];
      end[j] = bptr[k + 1];
    } else {
      pos[j] = 0;
      end[j] = 0;
    }
    col[j] = pos[j] < end[j] ? bind[pos[j]] : kNone<I>;
  }
}
template <class I>
__device__ __forceinline__ I t2_min(const I (&col)[kT2PerLane]) {
  I mn = col[0];
#pragma unroll
  for (int j = 1; j < kT2PerLane; ++j) mn = col[j] < mn ? col[j] : mn;
  return warp_min(mn);
}

// Symbolic for the long rows: product count (to the counter), tier-2 rows counted, tier-3 rows listed.
template <class I>
__global__ void __launch_bounds__(kBlock)
    k_sym_warp(const I* __restrict__ aptr, const I* __restrict__ aind, const I* __restrict__ bptr,
               const I* __restrict__ bind, I* __restrict__ cnt, const I* __restrict__ long_rows,
               I* __restrict__ tier3_rows, unsigned long long* __restrict__ ctr) {
  const int lane = static_cast<int>(threadIdx.x & 31);
  const std::int64_t nlong = static_cast<std::int64_t>(ctr[c_long]);
  const warp_row wr = warp_range();
  for (std::int64_t w = wr.first; w < nlong; w += wr.stride) {
    const I i = long_rows[w];
    const I a0 = aptr[i], na = aptr[i + 1] - a0;
    const long long P = warp_products(a0, na, aind, bptr);
    if (lane == 0 && P != 0) atomicAdd(ctr + c_products, static_cast<unsigned long long>(P));
    if (!is_tier2(na, P)) {
      if (lane == 0) tier3_rows[atomicAdd(ctr + c_tier3, 1ull)] = i;
      continue;
    }
    I pos[kT2PerLane], end[kT2PerLane], col[kT2PerLane];
    t2_heads(a0, na, aind, bptr, bind, pos, end, col);
    I c = 0;
    while (true) {
      const I mn = t2_min(col);
      if (mn == kNone<I>) break;
      ++c;
#pragma unroll
      for (int j = 0; j < kT2PerLane; ++j) {
        if (col[j] == mn) {
          ++pos[j];
          col[j] = pos[j] < end[j] ? bind[pos[j]] : kNone<I>;
        }
      }
    }
    if (lane == 0) {
      cnt[i] = c;
      if (c != 0) atomicAdd(ctr + c_distinct, static_cast<unsigned long long>(c));
    }
  }
}

// Numeric for the tier-2 rows.
template <class T, class I>
__global__ void __launch_bounds__(kBlock)
    k_num_warp(const I* __restrict__ aptr, const I* __restrict__ aind, const T* __restrict__ aval,
               const I* __restrict__ bptr, const I* __restrict__ bind, const T* __restrict__ bval,
               const I* __restrict__ cptr, I* __restrict__ cnt, I* __restrict__ cind, T* __restrict__ cval,
               const I* __restrict__ long_rows, unsigned long long* __restrict__ ctr) {
  const int lane = static_cast<int>(threadIdx.x & 31);
  const std::int64_t nlong = static_cast<std::int64_t>(ctr[c_long]);
  const warp_row wr = warp_range();
  unsigned long long dropped = 0;
  for (std::int64_t w = wr.first; w < nlong; w += wr.stride) {
    const I i = long_rows[w];
    const I a0 = aptr[i], na = aptr[i + 1] - a0;
    if (!is_tier2(na, warp_products(a0, na, aind, bptr))) continue;  // tier 3 (uniform over the warp)
    I pos[kT2PerLane], end[kT2PerLane], col[kT2PerLane];
    t2_heads(a0, na, aind, bptr, bind, pos, end, col);
    T av[kT2PerLane];
#pragma unroll
    for (int j = 0; j < kT2PerLane; ++j) {
      const I h = static_cast<I>(j * 32 + lane);
      av[j] = h < na ? aval[a0 + h] : T(0);
    }
    const I o0 = cptr[i];
    I o = o0;
    while (true) {
      const I mn = t2_min(col);
      if (mn == kNone<I>) break;
      // Every lane accumulates the same contributions in head order h = 32 j + lane (A's entry
      // order), so acc and o stay uniform over the warp.
      T acc = T(0);
#pragma unroll
      for (int j = 0; j < kT2PerLane; ++j) {
        if (j * 32 < na) {
          const bool at = col[j] == mn;
          unsigned mask = __ballot_sync(kFull, at);
          T pv = T(0);
          if (at) {
            pv = mul_v(av[j], bval[pos[j]]);
            ++pos[j];
            col[j] = pos[j] < end[j] ? bind[pos[j]] : kNone<I>;
          }
          while (mask) {
            const int src = __ffs(mask) - 1;
            mask &= mask - 1;
            acc = add_v(acc, shfl_v(pv, src));
          }
        }
      }
      if (!is_zero_v(acc)) {
        if (lane == 0) {
          cind[o] = mn;
          cval[o] = acc;
        }
        ++o;
      }
    }
    const I want = cptr[i + 1] - o0, kept = o - o0;
    if (kept != want && lane == 0) {
      cnt[i] = kept;
      dropped += static_cast<unsigned long long>(want - kept);
    }
  }
  if (lane == 0 && dropped != 0) atomicAdd(ctr + c_dropped, dropped);
}

// --- row copies (tier-3 gather and placement, compaction) ------------------------------------------

// For r < nrows (count: *nrows_dev when given, else nrows): row rs = src_map ? src_map[r] : r from
// offset src_ptr[rs] to offset dst_ptr[rd], rd = dst_map ? dst_map[r] : r; length lens[rd] when given,
// else src_ptr[rs + 1] - src_ptr[rs]. Indices and values (W: a word of the value's size) copied.
template <class I, class W>
__global__ void __launch_bounds__(kBlock)
    k_copy_rows(std::int64_t nrows, const I* __restrict__ src_ptr, const I* __restrict__ src_map,
                const I* __restrict__ dst_ptr, const I* __restrict__ dst_map, const I* __restrict__ lens,
                const I* __restrict__ src_ind, const W* __restrict__ src_val, I* __restrict__ dst_ind,
                W* __restrict__ dst_val) {
  const int lane = static_cast<int>(threadIdx.x & 31);
  const warp_row wr = warp_range();
  for (std::int64_t r = wr.first; r < nrows; r += wr.stride) {
    const std::int64_t rs = src_map ? static_cast<std::int64_t>(src_map[r]) : r;
    const std::int64_t rd = dst_map ? static_cast<std::int64_t>(dst_map[r]) : r;
    const I s = src_ptr[rs], d = dst_ptr[rd];
    const I len = lens ? lens[rd] : static_cast<I>(src_ptr[rs + 1] - s);
    for (I p = static_cast<I>(lane); p < len; p += 32) {
      dst_ind[d + p] = src_ind[s + p];
      dst_val[d + p] = src_val[s + p];
    }
  }
}

// Lengths of the tier-3 rows of A (into len[r]) and, after their product, their counts into cnt.
template <class I>
__global__ void k_tier3_lengths(std::int64_t n3, const I* __restrict__ rows, const I* __restrict__ ptr,
                                I* __restrict__ out, bool scatter) {
  for (std::int64_t r = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; r < n3;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const I i = rows[r];
    if (scatter) out[i] = ptr[r + 1] - ptr[r];  // ptr: the product's indptr; out: cnt
    else out[r] = ptr[i + 1] - ptr[i];          // ptr: A's indptr; out: lengths
  }
}

struct alignas(8) word16 {
  std::uint64_t lo, hi;
};
template <class F>
void dispatch_word(std::size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(type_tag<std::uint8_t>{});
    case 2: return f(type_tag<std::uint16_t>{});
    case 4: return f(type_tag<std::uint32_t>{});
    case 8: return f(type_tag<std::uint64_t>{});
    case 16: return f(type_tag<word16>{});
    default: break;
  }
  throw type_error("cusci::sparse::dot: internal: value size " + std::to_string(itemsize));
}

unsigned blocks_for(std::int64_t threads) {
  const std::int64_t g = (threads + kBlock - 1) / kBlock;
  return static_cast<unsigned>(g < 1 ? 1 : g);
}
// Warp-per-row kernels (grid-stride over the rows): a block of 8 warps for every 8 rows, at most
// `cap` blocks.
unsigned warp_blocks(std::int64_t rows, std::int64_t cap = 4096) {
  const std::int64_t g = (rows + kBlock / 32 - 1) / (kBlock / 32);
  return static_cast<unsigned>(g < 1 ? 1 : (g > cap ? cap : g));
}
// The tier-2 symbolic kernel runs before the long-row count reaches the host: 1024 blocks of 8 warps
// (about one resident wave on an H200's 132 SMs at its 32 registers a thread) cover any count by
// their grid stride, and when there is no long row (the common case) the launch costs one wave of
// blocks that exit at once instead of up to four.
constexpr std::int64_t kSymWarpBlocks = 1024;

template <class I>
void copy_rows(std::int64_t nrows, const I* src_ptr, const I* src_map, const I* dst_ptr, const I* dst_map,
               const I* lens, const ndarray& src_ind, const ndarray& src_val, ndarray& dst_ind, ndarray& dst_val,
               cudaStream_t s) {
  if (nrows == 0) return;
  dispatch_word(src_val.itemsize(), [&](auto wt) {
    using W = typename decltype(wt)::type;
    k_copy_rows<I, W><<<warp_blocks(nrows), kBlock, 0, s>>>(nrows, src_ptr, src_map, dst_ptr, dst_map, lens,
                                                            src_ind.data_as<I>(), src_val.data_as<W>(),
                                                            dst_ind.data_as<I>(), dst_val.data_as<W>());
    CUSCI_CHECK_LAUNCH();
  });
}

// out[0] = 0, out[1 .. n] = inclusive sum of in[0 .. n - 1].
template <class I>
void offsets_from_counts(const I* in, I* out, std::int64_t n, cudaStream_t s) {
  CUSCI_CUDA_TRY(cudaMemsetAsync(out, 0, sizeof(I), s));
  if (n == 0) return;
  std::size_t tb = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, tb, in, out + 1, n, s));
  memory_ptr tmp = cusci::malloc(tb > 0 ? tb : 1, s);
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp->ptr(), tb, in, out + 1, n, s));
}

template <class I>
I read_last(const ndarray& ptr, std::int64_t m, cudaStream_t s) {
  I h = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, ptr.data_as<I>() + m, sizeof h, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

// The product with index type I for both operands and C; nullopt when I is int32 and the product
// count exceeds int32 (SciPy's result then has int64 indices: the caller retries with int64).
template <class T, class I>
std::optional<csr_matrix> rows_impl(const csr_matrix& A, const csr_matrix& B) {
  const std::int64_t m = A.shape()[0], n = B.shape()[1];
  const dtype it = dtype_of<I>, vt = A.dtype();
  cudaStream_t s = get_current_stream();
  const I* aptr = A.indptr().data_as<I>();
  const I* aind = A.indices().data_as<I>();
  const T* aval = A.data().data_as<T>();
  const I* bptr = B.indptr().data_as<I>();
  const I* bind = B.indices().data_as<I>();
  const T* bval = B.data().data_as<T>();

  ndarray cnt = empty({m}, it), long_rows = empty({m}, it), tier3_rows = empty({m}, it), cptr = empty({m + 1}, it);
  device_buffer<unsigned long long> ctr(c_count, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(ctr.data(), 0, c_count * sizeof(unsigned long long), s));

  // Symbolic pass and C's row offsets; one synchronization for the counters (nnz(C) among them).
  k_sym_thread<I><<<blocks_for(m), kBlock, 0, s>>>(m, aptr, aind, bptr, bind, cnt.data_as<I>(),
                                                   long_rows.data_as<I>(), ctr.data());
  CUSCI_CHECK_LAUNCH();
  k_sym_warp<I><<<warp_blocks(m, kSymWarpBlocks), kBlock, 0, s>>>(aptr, aind, bptr, bind, cnt.data_as<I>(), long_rows.data_as<I>(),
                                                  tier3_rows.data_as<I>(), ctr.data());
  CUSCI_CHECK_LAUNCH();
  offsets_from_counts<I>(cnt.data_as<I>(), cptr.data_as<I>(), m, s);
  unsigned long long hc[c_count] = {};
  CUSCI_CUDA_TRY(cudaMemcpyAsync(hc, ctr.data(), sizeof hc, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  std::int64_t nnz = static_cast<std::int64_t>(hc[c_distinct]);
  if (std::is_same_v<I, std::int32_t> && hc[c_products] > static_cast<unsigned long long>(
                                                              std::numeric_limits<std::int32_t>::max()))
    return std::nullopt;

  // Tier 3: the long rows' sub-matrix through expand-sort-compress (synchronizes), counts into cnt.
  const std::int64_t n3 = static_cast<std::int64_t>(hc[c_tier3]);
  std::optional<csr_matrix> sub_c;
  if (n3 > 0) {
    ndarray len = empty({n3}, it), sptr = empty({n3 + 1}, it);
    k_tier3_lengths<I><<<blocks_for(n3), kBlock, 0, s>>>(n3, tier3_rows.data_as<I>(), aptr, len.data_as<I>(), false);
    CUSCI_CHECK_LAUNCH();
    offsets_from_counts<I>(len.data_as<I>(), sptr.data_as<I>(), n3, s);
    const std::int64_t snnz = static_cast<std::int64_t>(read_last<I>(sptr, n3, s));
    ndarray sind = empty({snnz}, it), sval = empty({snnz}, vt);
    copy_rows<I>(n3, aptr, tier3_rows.data_as<I>(), sptr.data_as<I>(), nullptr, nullptr, A.indices(), A.data(), sind,
                 sval, s);
    const csr_matrix sub_a = csr_matrix::from_valid(sval, sind, sptr, {n3, A.shape()[1]}, true);
    const csr_matrix p = spgemm_esc(sub_a, B);
    sub_c = csr_matrix::from_valid(p.data(), p.indices().astype(it, false), p.indptr().astype(it, false), p.shape(),
                                   true);
    k_tier3_lengths<I><<<blocks_for(n3), kBlock, 0, s>>>(n3, tier3_rows.data_as<I>(), sub_c->indptr().data_as<I>(),
                                                         cnt.data_as<I>(), true);
    CUSCI_CHECK_LAUNCH();
    offsets_from_counts<I>(cnt.data_as<I>(), cptr.data_as<I>(), m, s);
    nnz = static_cast<std::int64_t>(read_last<I>(cptr, m, s));
  }

  // Numeric pass: C's sorted columns and nonzero sums; kept counts of rows with dropped sums in cnt.
  ndarray cind = empty({nnz}, it), cval = empty({nnz}, vt);
  if (nnz == 0) return csr_matrix::from_valid(cval, cind, cptr, {m, n}, true);
  k_num_thread<T, I><<<blocks_for(m), kBlock, 0, s>>>(m, aptr, aind, aval, bptr, bind, bval, cptr.data_as<I>(),
                                                      cnt.data_as<I>(), cind.data_as<I>(), cval.data_as<T>(),
                                                      ctr.data());
  CUSCI_CHECK_LAUNCH();
  const std::int64_t nlong = static_cast<std::int64_t>(hc[c_long]);
  if (nlong > n3) {  // tier-2 rows exist (the kernel walks the long list and skips the tier-3 rows)
    k_num_warp<T, I><<<warp_blocks(nlong), kBlock, 0, s>>>(aptr, aind, aval, bptr, bind, bval, cptr.data_as<I>(),
                                                           cnt.data_as<I>(), cind.data_as<I>(), cval.data_as<T>(),
                                                           long_rows.data_as<I>(), ctr.data());
    CUSCI_CHECK_LAUNCH();
  }
  if (sub_c)  // tier-3 rows: zero sums already dropped by the expand-sort-compress product
    copy_rows<I>(n3, sub_c->indptr().data_as<I>(), nullptr, cptr.data_as<I>(), tier3_rows.data_as<I>(), nullptr,
                 sub_c->indices(), sub_c->data(), cind, cval, s);
  unsigned long long dropped = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&dropped, ctr.data() + c_dropped, sizeof dropped, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  if (dropped == 0) return csr_matrix::from_valid(cval, cind, cptr, {m, n}, true);

  // Compaction: each row's kept entries (at the start of its slot) to the offsets of the kept counts.
  const std::int64_t kept = nnz - static_cast<std::int64_t>(dropped);
  ndarray kptr = empty({m + 1}, it), kind = empty({kept}, it), kval = empty({kept}, vt);
  offsets_from_counts<I>(cnt.data_as<I>(), kptr.data_as<I>(), m, s);
  copy_rows<I>(m, cptr.data_as<I>(), nullptr, kptr.data_as<I>(), nullptr, cnt.data_as<I>(), cind, cval, kind, kval,
               s);
  return csr_matrix::from_valid(kval, kind, kptr, {m, n}, true);
}

}  // namespace

csr_matrix spgemm_rows(const csr_matrix& A, const csr_matrix& B) {
  static constexpr const char* fn = "cusci::sparse::dot";
  CUSCI_EXPECTS(A.dtype() == B.dtype(), type_error, std::string(fn) + ": internal: operand dtypes differ");
  const dtype it = A.indices().dtype();
  CUSCI_EXPECTS((it == dtype::int32 || it == dtype::int64) && A.indptr().dtype() == it &&
                    B.indices().dtype() == it && B.indptr().dtype() == it,
                type_error, std::string(fn) + ": internal: operand index dtypes differ");
  const std::int64_t m = A.shape()[0], n = B.shape()[1];
  if (m == 0) return csr_matrix::from_valid(empty({0}, A.dtype()), empty({0}, it), zeros({1}, it), {m, n}, true);
  return cusci::detail::dispatch(A.dtype(), [&](auto vt) -> csr_matrix {
    using T = typename decltype(vt)::type;
    if constexpr (std::is_same_v<T, __half>) {
      throw type_error(std::string(fn) + ": float16 values are not supported by cusci::sparse");
    } else {
      if (it == dtype::int64) return *rows_impl<T, std::int64_t>(A, B);
      if (auto c = rows_impl<T, std::int32_t>(A, B)) return *c;
      // More than 2**31 - 1 products: SciPy's result has int64 indices.
      const csr_matrix a = csr_matrix::from_valid(A.data(), A.indices().astype(dtype::int64, false),
                                                  A.indptr().astype(dtype::int64, false), A.shape(), true);
      const csr_matrix b = csr_matrix::from_valid(B.data(), B.indices().astype(dtype::int64, false),
                                                  B.indptr().astype(dtype::int64, false), B.shape(), true);
      return *rows_impl<T, std::int64_t>(a, b);
    }
  });
}

}  // namespace cusci::sparse::detail
