#pragma once
// Device helpers of the peaks family (nvcc only): the pyramid walk every search uses, the condition
// test and the grid size. Reference of the index arithmetic: /tmp/peaks/emulate.py `walk`.

#include <algorithm>
#include <cstdint>

#include "peaks/peaks_detail.hpp"

namespace cusci::signal::detail::peaks {

inline constexpr int kBlock = 256;

inline unsigned grid_for(i64 n, int block = kBlock) {
  const i64 b = (n + block - 1) / block;
  return static_cast<unsigned>(std::max<i64>(1, std::min<i64>(b, 132 * 32)));
}

#define CUSCI_PEAKS_LOOP(i, n)                                                                      \
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n);                    \
       i += static_cast<i64>(gridDim.x) * blockDim.x)

/// The value of a border at peak position p (a per-sample array is indexed by p).
__device__ __forceinline__ double border_at(const border_view& b, i64 p) { return b.kind == 2 ? b.a[p] : b.v; }

/// SciPy's `_select_by_property`: (lo <= v) and (v <= hi) for the given borders (NaN fails both).
__device__ __forceinline__ bool in_interval(const interval_view& c, i64 p, double v) {
  if (c.lo.kind != 0 && !(border_at(c.lo, p) <= v)) return false;
  if (c.hi.kind != 0 && !(v <= border_at(c.hi, p))) return false;
  return true;
}

/// Walks from sample i in direction S (-1 or +1) over [lo, hi] (lo <= i <= hi or the walk is empty):
/// an aligned block of the pyramid that starts at i in walking order, lies inside [lo, hi] and that
/// `skip(summary)` accepts is consumed at once (`on_block(summary)`); otherwise the walk descends a
/// level, and at single samples `stop(x[i])` ends the walk at i, else `on_sample(i)` and one step.
/// Returns the index it stopped at, or lo - 1 / hi + 1 when it left the range.
/// Cost: at most about 2 * kFan steps per level.
template <int S, class Stop, class Skip, class OnBlock, class OnSample>
__device__ i64 walk(const double* __restrict__ x, const pyramid_view& pyr, i64 i, i64 lo, i64 hi, Stop stop,
                    Skip skip, OnBlock on_block, OnSample on_sample) {
  while (i >= lo && i <= hi) {
    int lvl = 0;
    i64 size = 1;
    while (lvl < pyr.levels) {
      const i64 s2 = size * kFan;  // kFan^kMaxLevels = 2^56: no overflow
      const bool ok = S < 0 ? (((i + 1) & (s2 - 1)) == 0 && i + 1 - s2 >= lo) : ((i & (s2 - 1)) == 0 && i + s2 - 1 <= hi);
      if (!ok) break;
      ++lvl;
      size = s2;
    }
    bool taken = false;
    while (lvl >= 1) {
      const summary& b = pyr.lv[lvl - 1][i / size];
      if (skip(b)) {
        on_block(b);
        i += S * size;
        taken = true;
        break;
      }
      --lvl;
      size /= kFan;
    }
    if (taken) continue;
    if (stop(x[i])) return i;
    on_sample(i);
    i += S;
  }
  return i;
}

}  // namespace cusci::signal::detail::peaks
