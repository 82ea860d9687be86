#pragma once
// (internal; nvcc only) Selection helpers of the rank filters (rank.cu, rank_box.cu):
//  - ni_select: SciPy's NI_Select (ni_filters.c) replayed step by step: Hoare partitions around the
//    first value of the range, recursing into the side that holds the rank. Given the window in
//    SciPy's order it returns SciPy's value, also for windows holding NaN (where the result depends
//    on the order because every comparison with NaN is false).
//  - select_network<N, R>: a pruned Batcher odd-even merge sort of N register values keeping only
//    the compare-exchanges that feed position R (computed at compile time); exact for NaN-free
//    values.
//  - c_cast: C's double -> T conversion as compiled for x86-64 (SciPy's `(_type)cval`).

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace cusci::ndimage::detail {

/// SciPy's NI_Select on the values b(lo..hi) (b(i) returns a reference), rank relative to lo.
template <class T, class B>
__device__ T ni_select(B&& b, int lo, int hi, int rank) {
  for (;;) {
    if (lo == hi) return b(lo);
    const T x = b(lo);
    int i = lo - 1, j = hi + 1;
    for (;;) {
      do {
        --j;
      } while (b(j) > x);
      do {
        ++i;
      } while (b(i) < x);
      if (i >= j) break;
      const T t = b(i);
      b(i) = b(j);
      b(j) = t;
    }
    const int n = j - lo + 1;
    if (rank < n) {
      hi = j;
    } else {
      lo = j + 1;
      rank -= n;
    }
  }
}

/// C's conversion of a double to T as compiled for x86-64 (SciPy's `(_type)cval`): cvttsd2si to
/// 32 bits for int8 .. int32 and uint8 / uint16 (NaN and out of range give INT32_MIN, then the low
/// bits), to 64 bits for uint32 and int64 (INT64_MIN, then the low bits), and for uint64 the
/// two-branch sequence (below 2^63 and NaN: the signed conversion; from 2^63: the signed conversion
/// of v - 2^63 with the top bit flipped, so 2^64 and above give 0).
template <class T>
__host__ __device__ inline T c_cast(double v) {
  constexpr double two31 = 2147483648.0, two63 = 9223372036854775808.0;
  auto cvt64 = [](double x) -> long long {
    return (x >= -two63 && x < two63) ? static_cast<long long>(x) : static_cast<long long>(0x8000000000000000ull);
  };
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    if (v >= two63) return static_cast<std::uint64_t>(cvt64(v - two63)) ^ (1ull << 63);
    return static_cast<std::uint64_t>(cvt64(v));
  } else if constexpr (sizeof(T) == 8 || std::is_same_v<T, std::uint32_t>) {
    return static_cast<T>(static_cast<std::uint64_t>(cvt64(v)));
  } else {
    const int i = (v > -two31 - 1.0 && v < two31) ? static_cast<int>(v) : static_cast<int>(0x80000000u);
    return static_cast<T>(static_cast<unsigned>(i));
  }
}

/// SciPy's N-D rank filter selects among the values converted to double and stores the selected
/// double with a C cast: the identity for every dtype but int64 / uint64, where values beyond 2^53
/// round (and 2^64 - 1 becomes 2^64, stored as 0). Selecting in T and applying this to the result
/// gives the same value, since the conversion to double is monotone.
template <class T>
__host__ __device__ inline T scipy_round_trip(T v) {
  if constexpr (std::is_integral_v<T> && sizeof(T) == 8) return c_cast<T>(static_cast<double>(v));
  else return v;
}

/// The compare-exchanges of Batcher's odd-even merge sort of N values (padded to a power of two,
/// comparators touching the padding dropped: those values are +infinity), pruned to the ones that
/// positions LO..HI depend on. Computed at compile time.
template <int N, int LO, int HI = LO>
struct network {
  static constexpr int max_cmp = 1024;
  int count = 0;
  short a[max_cmp] = {};
  short b[max_cmp] = {};
  constexpr network() {
    int p2 = 1;
    while (p2 < N) p2 *= 2;
    short ta[max_cmp] = {}, tb[max_cmp] = {};
    int m = 0;
    for (int p = 1; p < p2; p *= 2) {
      for (int k = p; k >= 1; k /= 2) {
        for (int j = k % p; j + k < p2; j += 2 * k) {
          for (int i = 0; i < k && i + j + k < p2; ++i) {
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < N) {
              ta[m] = static_cast<short>(i + j);
              tb[m] = static_cast<short>(i + j + k);
              ++m;
            }
          }
        }
      }
    }
    // Backwards: keep a comparator when one of its positions is still needed.
    bool need[N > 0 ? N : 1] = {};
    for (int r = LO; r <= HI; ++r) need[r] = true;
    bool keep[max_cmp] = {};
    for (int c = m - 1; c >= 0; --c) {
      if (need[ta[c]] || need[tb[c]]) {
        keep[c] = true;
        need[ta[c]] = need[tb[c]] = true;
      }
    }
    for (int c = 0; c < m; ++c) {
      if (keep[c]) {
        a[count] = ta[c];
        b[count] = tb[c];
        ++count;
      }
    }
  }
};

template <class C>
__device__ __forceinline__ C vmin(C x, C y) {
  if constexpr (std::is_same_v<C, float>) return fminf(x, y);
  else if constexpr (std::is_same_v<C, double>) return fmin(x, y);
  else return x < y ? x : y;
}
template <class C>
__device__ __forceinline__ C vmax(C x, C y) {
  if constexpr (std::is_same_v<C, float>) return fmaxf(x, y);
  else if constexpr (std::is_same_v<C, double>) return fmax(x, y);
  else return x < y ? y : x;
}

template <auto Net, class C, std::size_t... I>
__device__ __forceinline__ void apply_network(C* v, std::index_sequence<I...>) {
  (([&] {
     constexpr int A = Net.a[I], B = Net.b[I];
     const C x = v[A], y = v[B];
     v[A] = vmin(x, y);
     v[B] = vmax(x, y);
   }()),
   ...);
}

/// The value of rank R among the N NaN-free values v (registers; v is clobbered).
template <int N, int R, class C>
__device__ __forceinline__ C select_network(C* v) {
  constexpr network<N, R> net{};
  apply_network<net>(v, std::make_index_sequence<net.count>{});
  return v[R];
}

/// Moves the values of ranks LO..HI among the N NaN-free values v to v[LO..HI] (the others are
/// left below LO / above HI in any order).
template <int N, int LO, int HI, class C>
__device__ __forceinline__ void select_range_network(C* v) {
  constexpr network<N, LO, HI> net{};
  apply_network<net>(v, std::make_index_sequence<net.count>{});
}

}  // namespace cusci::ndimage::detail
