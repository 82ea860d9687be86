#pragma once
// (internal; nvcc only) Selection helpers of the rank filters (rank.cu, rank_box.cu):
//  - ni_select: SciPy's NI_Select (ni_filters.c) replayed step by step: Hoare partitions around the
//    first value of the range, recursing into the side that holds the rank. Given the window in
//    SciPy's order it returns SciPy's value, also for windows holding NaN (where the result depends
//    on the order because every comparison with NaN is false).
//  - select_network<N, R>: a pruned Batcher odd-even merge sort of N register values keeping only
//    the compare-exchanges that feed position R (computed at compile time); exact for NaN-free
//    values.
//  - c_cast: C's double -> T conversion as compiled for x86-64 (SciPy's `(_type)cval`; x86_cast of
//    engine/cast.cuh).

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "engine/cast.cuh"

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

/// C's conversion of a double to T as compiled for x86-64 (SciPy's `(_type)cval`): x86_cast of
/// engine/cast.cuh.
template <class T>
__host__ __device__ inline T c_cast(double v) {
  return x86_cast<T>(v);
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

// The 3x3x3 median from sorted plane lists (median3x3x3_kernel, rank_box.cu). All of these are
// min/max networks, exact for NaN-free values; each was checked exhaustively on every 0/1 input (by
// the 0-1 principle a min/max network that selects correctly on every 0/1 input selects correctly
// on every input) and against sorting on random and small-range inputs.
//
// 1. plane_lists: the sorted 9-values of the 3x3 windows (columns 0..2 and 1..3) of a 3 x 4 patch:
//    each column sorted (3 compare-exchanges), the rows of equal column rank sorted across the
//    window (sharing the pair of the middle columns between the two windows), which leaves a 3 x 3
//    grid sorted along both directions; 7 compare-exchanges sort such a grid (found by exhaustive
//    search over the 20 0/1 grids sorted both ways). 82 min/max for the two lists.
// 2. merge9_mid: ranks 4..13 of the union of two sorted 9-lists: Batcher's odd-even merge of
//    16 + 16 wires (the lists padded by -inf / +inf), comparators whose outcome the order of the
//    inputs already fixes turned into renames, then pruned to the 10 ranks: 46 min/max.
// 3. median27: with S = ranks 4..13 of planes p and q merged and c the sorted list of plane r, the
//    rank 13 of the 27 values: on 0/1 values it is 1 exactly when the ones of S and c number 14 or
//    more, i.e. max(S[4], max over k = 1..9 of min(S[4 + k], c[9 - k])) (ranks of S counted from
//    0 over its 18): 18 min/max.
// The windows of outputs z and z + 1 share planes z + 1 and z + 2, so their merge is shared: per
// output, one plane list (41), half a merge (23) and the final selection (18), 82 min/max (87 with
// the two extra planes of a walk of 16 outputs along z) against 252 for a pruned 27-value network.

template <class C>
__device__ __forceinline__ void cmp_exchange(C& a, C& b) {
  const C lo = vmin(a, b), hi = vmax(a, b);
  a = lo;
  b = hi;
}

/// Sorted 9-lists l0 (columns 0..2) and l1 (columns 1..3) of the 3 x 4 values v[row][column].
template <class C>
__device__ __forceinline__ void plane_lists(const C (&v)[3][4], C (&l0)[9], C (&l1)[9]) {
  C g[3][4];  // g[b][c]: the value of rank b in column c
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const C p0 = vmin(v[0][c], v[1][c]), p1 = vmax(v[0][c], v[1][c]);
    g[0][c] = vmin(p0, v[2][c]);
    g[1][c] = vmax(p0, vmin(p1, v[2][c]));
    g[2][c] = vmax(p1, v[2][c]);
  }
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    const C p0 = vmin(g[b][1], g[b][2]), p1 = vmax(g[b][1], g[b][2]);
    l0[3 * b] = vmin(p0, g[b][0]);
    l0[3 * b + 1] = vmax(p0, vmin(p1, g[b][0]));
    l0[3 * b + 2] = vmax(p1, g[b][0]);
    l1[3 * b] = vmin(p0, g[b][3]);
    l1[3 * b + 1] = vmax(p0, vmin(p1, g[b][3]));
    l1[3 * b + 2] = vmax(p1, g[b][3]);
  }
  // The grids (index 3 * row rank + column rank) sorted along both directions: sort them.
  auto young = [](C(&l)[9]) {
    cmp_exchange(l[1], l[3]);
    cmp_exchange(l[2], l[4]);
    cmp_exchange(l[2], l[6]);
    cmp_exchange(l[2], l[3]);
    cmp_exchange(l[4], l[6]);
    cmp_exchange(l[5], l[7]);
    cmp_exchange(l[5], l[6]);
  };
  young(l0);
  young(l1);
}

/// s[k] = the value of rank 4 + k (k = 0..9) among the 18 values of the sorted 9-lists a and b.
template <class C>
__device__ __forceinline__ void merge9_mid(const C (&a)[9], const C (&b)[9], C (&s)[10]) {
  C w[18];
#pragma unroll
  for (int i = 0; i < 9; ++i) w[i] = a[i], w[9 + i] = b[i];
  // (min position, max position), in order; unused outputs are dead code.
  constexpr signed char net[27][2] = {{1, 17}, {1, 9},   {5, 13},  {5, 9},   {13, 17}, {3, 11}, {7, 15},
                                      {7, 11}, {3, 5},   {7, 9},   {11, 13}, {2, 10},  {6, 14}, {6, 10},
                                      {4, 12}, {0, 16},  {8, 16},  {0, 4},   {8, 12},  {4, 6},  {8, 10},
                                      {12, 14}, {4, 5},  {6, 7},   {8, 9},   {10, 11}, {12, 13}};
#pragma unroll
  for (int i = 0; i < 27; ++i) cmp_exchange(w[net[i][0]], w[net[i][1]]);
#pragma unroll
  for (int k = 0; k < 10; ++k) s[k] = w[4 + k];
}

/// The median (rank 13) of 27 values from s (merge9_mid of two planes' lists) and the sorted list c
/// of the third plane.
template <class C>
__device__ __forceinline__ C median27(const C (&s)[10], const C (&c)[9]) {
  C m = s[0];
#pragma unroll
  for (int k = 1; k <= 9; ++k) m = vmax(m, vmin(s[k], c[9 - k]));
  return m;
}

}  // namespace cusci::ndimage::detail
