#pragma once
// Device helpers of the measurements (nvcc only): the label -> region ("slot") map, order-preserving
// 64-bit keys of every real dtype (for atomicMin / atomicMax and radix sorts), the loads of values as
// accumulators, and the aggregation of atomic adds over runs of equal slots (per warp of one element
// per lane, and per warp of kChunk consecutive elements per lane).

#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "measurements/measure_kernels.hpp"

namespace cusci::ndimage::detail {

/// The slot of a label under `m` (see slot_map), -1 when the element is in no region.
__device__ __forceinline__ long long slot_of(const slot_map& m, long long label) {
  switch (m.mode) {
    case slot_mode::all: return 0;
    case slot_mode::positive: return label > 0 ? 0 : -1;
    case slot_mode::equal: return label == m.lo ? 0 : -1;
    case slot_mode::dense: return (label >= m.lo && label <= m.hi) ? label - m.lo : -1;
    case slot_mode::search: {
      long long a = 0, b = m.count;  // lower_bound in the sorted distinct labels
      while (a < b) {
        const long long c = (a + b) >> 1;
        if (m.sorted[c] < label) a = c + 1;
        else b = c;
      }
      return (a < m.count && m.sorted[a] == label) ? a : -1;
    }
  }
  return -1;
}

/// The label of element i (0-based C order), read as long long; labels == nullptr: 0 (slot_mode::all).
template <class L>
__device__ __forceinline__ long long label_at(const L* labels, long long i) {
  return labels ? static_cast<long long>(labels[i]) : 0;
}

/// An unsigned 64-bit key whose order is the value order of T (NaN of either sign above +inf).
template <class T>
__device__ __forceinline__ unsigned long long order_key(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? 1ull : 0ull;
  } else if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, float>) {
    const float f = static_cast<float>(v);
    if (f != f) return ~0ull;
    const unsigned u = __float_as_uint(f);
    return (u & 0x80000000u) ? static_cast<unsigned long long>(~u) : static_cast<unsigned long long>(u | 0x80000000u);
  } else if constexpr (std::is_same_v<T, double>) {
    if (v != v) return ~0ull;
    const unsigned long long u = static_cast<unsigned long long>(__double_as_longlong(v));
    return (u >> 63) ? ~u : (u | (1ull << 63));
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<unsigned long long>(static_cast<long long>(v)) ^ (1ull << 63);
  } else {
    return static_cast<unsigned long long>(v);
  }
}

/// The value of key k (the inverse of order_key; NaN keys give a quiet NaN).
template <class T>
__device__ __forceinline__ T from_key(unsigned long long k) {
  if constexpr (std::is_same_v<T, bool>) {
    return k != 0;
  } else if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, float>) {
    float f;
    if (k == ~0ull) {
      f = __uint_as_float(0x7fc00000u);
    } else {
      const unsigned u = static_cast<unsigned>(k);
      f = __uint_as_float((u & 0x80000000u) ? (u & 0x7fffffffu) : ~u);
    }
    if constexpr (std::is_same_v<T, __half>) return __float2half_rn(f);
    else return f;
  } else if constexpr (std::is_same_v<T, double>) {
    if (k == ~0ull) return __longlong_as_double(0x7ff8000000000000ll);
    return __longlong_as_double(static_cast<long long>((k >> 63) ? (k & ~(1ull << 63)) : ~k));
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(static_cast<long long>(k ^ (1ull << 63)));
  } else {
    return static_cast<T>(k);
  }
}

/// Whether sums of T accumulate in 64-bit integers (bool and integers: exact, wrapping as NumPy's
/// int64 / uint64 sums) rather than double.
template <class T>
inline constexpr bool integer_sum_v = std::is_integral_v<T>;

/// v as double (any real device type).
template <class T>
__device__ __forceinline__ double to_double(T v) {
  if constexpr (std::is_same_v<T, __half>) return static_cast<double>(__half2float(v));
  else return static_cast<double>(v);
}

/// The accumulator type of sums of T: unsigned 64-bit two's complement for bool and integers,
/// double for floats.
template <class T>
using sum_acc_t = std::conditional_t<integer_sum_v<T>, unsigned long long, double>;

/// v as the accumulator of its sum: the 64-bit two's complement pattern for integers, else double.
template <class T>
__device__ __forceinline__ sum_acc_t<T> sum_value(T v) {
  if constexpr (integer_sum_v<T>) {
    if constexpr (std::is_signed_v<T>) return static_cast<unsigned long long>(static_cast<long long>(v));
    else return static_cast<unsigned long long>(v);
  } else {
    return to_double(v);
  }
}

/// Adds v into target[slot] for every lane with slot >= 0, aggregating first over runs of lanes
/// (consecutive lanes of the warp) that hold the same slot: labelled images put long runs of one
/// label side by side in C order, so one atomic per run replaces one per element. Every lane of the
/// warp must call it (slot -1 for none).
template <class V>
__device__ __forceinline__ void warp_run_add(V* target, long long slot, V v) {
  const unsigned lane = threadIdx.x & 31u;
  const long long prev = __shfl_up_sync(0xffffffffu, slot, 1);
  const bool head = lane == 0 || prev != slot;
  const unsigned heads = __ballot_sync(0xffffffffu, head);
  const unsigned upto = heads & (0xffffffffu >> (31u - lane));  // heads at lanes <= lane
  const unsigned start = 31u - static_cast<unsigned>(__clz(upto));
  // Inclusive segmented scan within the run [start, lane].
  for (unsigned off = 1; off < 32; off <<= 1) {
    const V o = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= start + off) v += o;
  }
  const long long next = __shfl_down_sync(0xffffffffu, slot, 1);
  const bool tail = lane == 31u || next != slot;
  if (tail && slot >= 0) atomicAdd(target + slot, v);
}

// --- Chunked passes ---------------------------------------------------------------------------------
// Each thread reads kChunk consecutive elements (one warp: 32 * kChunk consecutive elements, with
// 16-byte loads where the alignment allows), reduces the runs of equal slots among its own elements in
// registers, and then combines across the warp only the runs that cross its chunk's edges.

/// Elements per thread of the chunked passes.
inline constexpr int kChunk = 8;

/// An unsigned type of `Bytes` bytes (1, 2, 4, 8 or 16: uint4).
template <int Bytes> struct load_unit;
template <> struct load_unit<1> { using type = unsigned char; };
template <> struct load_unit<2> { using type = unsigned short; };
template <> struct load_unit<4> { using type = unsigned; };
template <> struct load_unit<8> { using type = unsigned long long; };
template <> struct load_unit<16> { using type = uint4; };

/// out[j] = p[i0 + j] for i0 + j < n, else T{} (zero). p == nullptr (no labels): all zero. Whole
/// chunks of a suitably aligned array are read with loads of up to 16 bytes.
template <int E, class T>
__device__ __forceinline__ void load_chunk(const T* __restrict__ p, long long i0, long long n, T (&out)[E]) {
  constexpr int kBytes = E * static_cast<int>(sizeof(T));
  constexpr int kUnit = kBytes >= 16 ? 16 : kBytes;
  using U = typename load_unit<kUnit>::type;
  if (p == nullptr) {
#pragma unroll
    for (int j = 0; j < E; ++j) out[j] = T{};
    return;
  }
  if (i0 + E <= n && (reinterpret_cast<std::uintptr_t>(p) % kUnit) == 0) {
    U u[kBytes / kUnit];
    const U* q = reinterpret_cast<const U*>(p + i0);
#pragma unroll
    for (int k = 0; k < kBytes / kUnit; ++k) u[k] = q[k];
    memcpy(out, u, kBytes);
  } else {
#pragma unroll
    for (int j = 0; j < E; ++j) out[j] = i0 + j < n ? p[i0 + j] : T{};
  }
}

/// s[j] = the slot of element i0 + j (-1 past n or outside every region); an element with the label of
/// its predecessor reuses its slot (no search).
template <int E, class L>
__device__ __forceinline__ void chunk_slots(const slot_map& m, const L (&lab)[E], long long i0, long long n,
                                            long long (&s)[E]) {
#pragma unroll
  for (int j = 0; j < E; ++j) {
    if (i0 + j >= n) s[j] = -1;
    else if (j > 0 && lab[j] == lab[j - 1]) s[j] = s[j - 1];
    else s[j] = slot_of(m, static_cast<long long>(lab[j]));
  }
}

/// K accumulators of type A summed together (components below a warp-uniform `klo` unused).
template <class A, int K>
struct acc_vec {
  A v[K];
};

/// Sums per run of equal slots over a warp's 32 chunks of E consecutive elements (lane l holds
/// elements [l * E, l * E + E) of the warp's span; s: their slots, -1 for none): `elem(j, acc)` adds
/// element j's contribution into acc (called once per j, in increasing j); `flush(slot, acc, len)`
/// adds a finished run (len elements) into the per-slot results. Every lane of the warp must call it.
///
/// Runs inside a chunk are flushed by their lane. The run a chunk ends with (its whole chunk when it
/// holds one slot) goes through one segmented inclusive scan over the lanes: a lane continues its left
/// neighbour's segment when its chunk holds one slot equal to the neighbour's last one. A lane whose
/// last run does not continue into the next lane's first element flushes its scanned value; a lane
/// with several runs adds its left neighbour's scanned value (when the slots match) to its first run.
/// Each run of the warp's span is flushed exactly once, by its last lane.
template <int E, class A, int K, class Elem, class Flush>
__device__ __forceinline__ void chunk_run_reduce(const long long (&s)[E], int klo, Elem&& elem, Flush&& flush) {
  using acc = acc_vec<A, K>;
  constexpr unsigned kFull = 0xffffffffu;
  const unsigned lane = threadIdx.x & 31u;
  acc cur, lead;
#pragma unroll
  for (int k = 0; k < K; ++k) cur.v[k] = lead.v[k] = A(0);
  unsigned len = 1, lead_len = 0;
  bool uniform = true;  // the chunk holds a single run
  elem(0, cur);
#pragma unroll
  for (int j = 1; j < E; ++j) {
    if (s[j] != s[j - 1]) {
      if (uniform) {
        lead = cur;
        lead_len = len;
        uniform = false;
      } else if (s[j - 1] >= 0) {
        flush(s[j - 1], cur, len);  // a run inside the chunk
      }
#pragma unroll
      for (int k = 0; k < K; ++k) cur.v[k] = A(0);
      len = 0;
    }
    elem(j, cur);
    ++len;
  }
  // cur / len: the chunk's last run (the whole chunk when uniform).
  const long long first = s[0], last = s[E - 1];
  const long long prev_last = __shfl_up_sync(kFull, last, 1);
  const long long next_first = __shfl_down_sync(kFull, first, 1);
  const bool joins = lane != 0 && prev_last == first;  // the left neighbour's last run continues here
  const bool ends = lane == 31u || next_first != last;  // the last run stops at this chunk's end
  const bool head = !(uniform && joins);                 // a segment of the scan starts here
  const unsigned heads = __ballot_sync(kFull, head);     // lane 0 is always a head
  const unsigned start = 31u - static_cast<unsigned>(__clz(heads & (kFull >> (31u - lane))));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned span = __reduce_max_sync(kFull, lane - start);
#else
  unsigned span = lane - start;
  for (unsigned off = 16; off > 0; off >>= 1) span = max(span, __shfl_xor_sync(kFull, span, off));
#endif
  acc out = cur;
  for (unsigned off = 1; off <= span; off <<= 1) {  // span is the same on every lane
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (k < klo) continue;
      const A o = __shfl_up_sync(kFull, out.v[k], off);
      if (lane >= start + off) out.v[k] += o;
    }
  }
  // The lanes after `start` in a segment hold E elements each.
  const unsigned out_len = __shfl_sync(kFull, len, start) + (lane - start) * static_cast<unsigned>(E);
  acc cin;
#pragma unroll
  for (int k = 0; k < K; ++k) cin.v[k] = k < klo ? A(0) : __shfl_up_sync(kFull, out.v[k], 1);
  const unsigned cin_len = __shfl_up_sync(kFull, out_len, 1);
  if (!uniform && first >= 0) {
    if (joins) {
#pragma unroll
      for (int k = 0; k < K; ++k) lead.v[k] += cin.v[k];
      lead_len += cin_len;
    }
    flush(first, lead, lead_len);
  }
  if (ends && last >= 0) flush(last, out, out_len);
}

}  // namespace cusci::ndimage::detail
