#pragma once
// Device helpers of the measurements (nvcc only): the label -> region ("slot") map, order-preserving
// 64-bit keys of every real dtype (for atomicMin / atomicMax and radix sorts), the loads of values as
// accumulators, and the warp aggregation of atomic adds over runs of equal slots.

#include <cuda_fp16.h>

#include <cstdint>
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

/// warp_run_add of 1 into counts[slot] and of v into sums[slot], sharing the run boundaries; the
/// counts come from the run lengths (no scan). Every lane of the warp must call it.
template <class V>
__device__ __forceinline__ void warp_run_count_add(unsigned long long* counts, V* sums, long long slot, V v) {
  const unsigned lane = threadIdx.x & 31u;
  const long long prev = __shfl_up_sync(0xffffffffu, slot, 1);
  const bool head = lane == 0 || prev != slot;
  const unsigned heads = __ballot_sync(0xffffffffu, head);
  const unsigned upto = heads & (0xffffffffu >> (31u - lane));  // heads at lanes <= lane
  const unsigned start = 31u - static_cast<unsigned>(__clz(upto));
  for (unsigned off = 1; off < 32; off <<= 1) {
    const V o = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= start + off) v += o;
  }
  const long long next = __shfl_down_sync(0xffffffffu, slot, 1);
  const bool tail = lane == 31u || next != slot;
  if (tail && slot >= 0) {
    atomicAdd(counts + slot, static_cast<unsigned long long>(lane - start + 1u));
    atomicAdd(sums + slot, v);
  }
}

}  // namespace cusci::ndimage::detail
