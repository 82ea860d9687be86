// Prominences and widths: one thread per peak walks left and right through the min/max pyramid
// (peaks_walk.cuh), SciPy's _peak_prominences / _peak_widths step for step, with whole blocks taken
// at once where their summary proves the walk goes through them. A walk costs O(kFan * levels) loads
// however far the base lies (SciPy's loops are O(distance to the base): O(n) for the highest peak).

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "cusci/error.hpp"
#include "peaks/peaks_walk.cuh"

namespace cusci::signal::detail::peaks {
namespace {

__global__ void prominence_kernel(const double* __restrict__ x, i64 n, pyramid_view pyr, const i64* __restrict__ peaks,
                                  i64 m, i64 wlen, double* prom, i64* lbase, i64* rbase, interval_view cond,
                                  std::uint8_t* keep, int* zero_flag, unsigned long long* first_bad) {
  CUSCI_PEAKS_LOOP(k, m) {
    const i64 p = peaks[k];
    if (p < 0 || p >= n) {
      atomicMin(first_bad, static_cast<unsigned long long>(k));
      prom[k] = 0;
      lbase[k] = 0;
      rbase[k] = 0;
      if (keep) keep[k] = 0;
      continue;
    }
    i64 lo = 0, hi = n - 1;
    if (wlen >= 2) {  // an even wlen acts as the next odd one, as SciPy
      lo = p - wlen / 2 > 0 ? p - wlen / 2 : 0;
      hi = p + wlen / 2 < n - 1 ? p + wlen / 2 : n - 1;
    }
    const double v = x[p];
    // left: SciPy walks while x[i] <= x[peak], keeping the first (nearest) strict minimum
    double lmin = v;
    i64 lb = p;
    walk<-1>(
        x, pyr, p, lo, hi, [v](double s) { return !(s <= v); },
        [v](const summary& b) { return !b.nan && b.max <= v; },
        [&](const summary& b) {
          if (b.min < lmin) {
            lmin = b.min;
            lb = b.rpos;
          }
        },
        [&](i64 i) {
          const double s = x[i];
          if (s < lmin) {
            lmin = s;
            lb = i;
          }
        });
    double rmin = v;
    i64 rb = p;
    walk<+1>(
        x, pyr, p, lo, hi, [v](double s) { return !(s <= v); },
        [v](const summary& b) { return !b.nan && b.max <= v; },
        [&](const summary& b) {
          if (b.min < rmin) {
            rmin = b.min;
            rb = b.lpos;
          }
        },
        [&](i64 i) {
          const double s = x[i];
          if (s < rmin) {
            rmin = s;
            rb = i;
          }
        });
    const double pr = v - (lmin > rmin ? lmin : rmin);
    prom[k] = pr;
    lbase[k] = lb;
    rbase[k] = rb;
    if (pr == 0) *zero_flag = 1;
    if (keep) keep[k] = in_interval(cond, p, pr) ? 1 : 0;
  }
}

__global__ void width_kernel(const double* __restrict__ x, i64 n, pyramid_view pyr, const i64* __restrict__ peaks,
                             i64 m, double rel_height, const double* __restrict__ prom, const i64* __restrict__ lbase,
                             const i64* __restrict__ rbase, double* wheight, double* width, double* lips, double* rips,
                             interval_view cond, std::uint8_t* keep, int* zero_flag, unsigned long long* first_bad) {
  CUSCI_PEAKS_LOOP(k, m) {
    const i64 p = peaks[k], i_min = lbase[k], i_max = rbase[k];
    if (!(0 <= i_min && i_min <= p && p <= i_max && i_max < n)) {
      atomicMin(first_bad, static_cast<unsigned long long>(k));
      wheight[k] = width[k] = lips[k] = rips[k] = 0;
      if (keep) keep[k] = 0;
      continue;
    }
    // x[peak] - prominence * rel_height rounded twice, never fused (SciPy's arithmetic)
    const double h = __dsub_rn(x[p], __dmul_rn(prom[k], rel_height));
    auto stop = [h](double s) { return !(h < s); };
    auto skip = [h](const summary& b) { return !b.nan && b.min > h; };
    auto none_b = [](const summary&) {};
    auto none_s = [](i64) {};
    i64 i = walk<-1>(x, pyr, p, i_min + 1, p, stop, skip, none_b, none_s);
    if (i < i_min) i = i_min;
    double left = static_cast<double>(i);
    // (i + 1 < n and i > 0 below always hold unless a negative prominence puts h above x[p] at an end;
    // SciPy then reads past x, cusci gives NaN)
    if (x[i] < h) left += (h - x[i]) / ((i + 1 < n ? x[i + 1] : NAN) - x[i]);
    i = walk<+1>(x, pyr, p, p, i_max - 1, stop, skip, none_b, none_s);
    if (i > i_max) i = i_max;
    double right = static_cast<double>(i);
    if (x[i] < h) right -= (h - x[i]) / ((i > 0 ? x[i - 1] : NAN) - x[i]);
    const double w = right - left;
    wheight[k] = h;
    width[k] = w;
    lips[k] = left;
    rips[k] = right;
    if (w == 0) *zero_flag = 1;
    if (keep) keep[k] = in_interval(cond, p, w) ? 1 : 0;
  }
}

}  // namespace

void prominences(const double* x, i64 n, pyramid_view pyr, const i64* peaks, i64 m, i64 wlen, double* prom,
                 i64* lbase, i64* rbase, interval_view cond, std::uint8_t* keep, int* zero_flag,
                 unsigned long long* first_bad, cudaStream_t st) {
  if (m <= 0) return;
  prominence_kernel<<<grid_for(m), kBlock, 0, st>>>(x, n, pyr, peaks, m, wlen, prom, lbase, rbase, cond, keep,
                                                    zero_flag, first_bad);
  CUSCI_CHECK_LAUNCH();
}

void widths(const double* x, i64 n, pyramid_view pyr, const i64* peaks, i64 m, double rel_height,
            const double* prom, const i64* lbase, const i64* rbase, double* wheight, double* width, double* lips,
            double* rips, interval_view cond, std::uint8_t* keep, int* zero_flag, unsigned long long* first_bad,
            cudaStream_t st) {
  if (m <= 0) return;
  width_kernel<<<grid_for(m), kBlock, 0, st>>>(x, n, pyr, peaks, m, rel_height, prom, lbase, rbase, wheight, width,
                                               lips, rips, cond, keep, zero_flag, first_bad);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail::peaks
