// Kernels of find_peaks before the prominences: the tile pass over x (rising samples and their flat
// runs, the pyramid's first level, in one read of x), the upper pyramid levels, the per-candidate
// resolution with the pointwise conditions (plateau_size, height, threshold), the rounds of the
// distance selection and the small gathers. Host side: peaks.cpp.
//
// Bytes: the tile pass reads x once (8 B/sample, the neighbours come from L1) and writes 1 B/sample
// of codes plus 32 B per 128 samples; everything after works on the candidates (about n/3 for noise).

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "cusci/error.hpp"
#include "peaks/peaks_walk.cuh"

namespace cusci::signal::detail::peaks {
namespace {

struct acc {
  double mx, mn;
  i64 lp, rp;
  int nan;
};

/// a (left) then b (right): the rightmost position of a tied min comes from b.
__device__ __forceinline__ acc combine(const acc& a, const acc& b) {
  acc r = a;
  r.nan = a.nan | b.nan;
  r.mx = b.mx > a.mx ? b.mx : a.mx;
  if (b.mn < a.mn) {
    r.mn = b.mn;
    r.lp = b.lp;
    r.rp = b.rp;
  } else if (b.mn == a.mn && b.lp >= 0) {
    r.rp = b.rp;
  }
  return r;
}

__device__ __forceinline__ acc shfl_down(const acc& a, int off) {
  acc r;
  r.mx = __shfl_down_sync(0xffffffffu, a.mx, off);
  r.mn = __shfl_down_sync(0xffffffffu, a.mn, off);
  r.lp = __shfl_down_sync(0xffffffffu, a.lp, off);
  r.rp = __shfl_down_sync(0xffffffffu, a.rp, off);
  r.nan = __shfl_down_sync(0xffffffffu, a.nan, off);
  return r;
}

__device__ __forceinline__ acc identity() { return acc{-INFINITY, INFINITY, -1, -1, 0}; }

/// Reduces one acc per thread (blockDim.x == kFan) in thread order; thread 0 returns the total.
__device__ acc block_reduce(acc a) {
  __shared__ acc part[kFan / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 1; off < 32; off <<= 1) {
    // lane l combines [l, l + off) with [l + off, l + 2 off); lanes past the warp's end get identity
    const acc o = shfl_down(a, off);
    if (lane + off < 32) a = combine(a, o);
  }
  __syncthreads();  // part[] of the previous tile is consumed
  if (lane == 0) part[warp] = a;
  __syncthreads();
  acc r = part[0];
  if (threadIdx.x == 0)
    for (int w = 1; w < kFan / 32; ++w) r = combine(r, part[w]);
  return r;
}

__device__ __forceinline__ void store(summary* out, const acc& r) {
  summary s;
  s.max = r.mx;
  s.min = r.mn;
  s.lpos = r.lp;
  s.rpos = r.rp;
  s.nan = r.nan;
  s.pad = 0;
  *out = s;
}

__global__ void __launch_bounds__(kFan) tile_kernel(const double* __restrict__ x, i64 n, std::uint8_t* code,
                                                    summary* l1, i64 ntiles) {
  for (i64 t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const i64 i = t * kFan + threadIdx.x;
    acc a = identity();
    if (i < n) {
      const double v = x[i];
      std::uint8_t c = 0;
      // SciPy's _local_maxima_1d: a rise into i, then the flat run [i, j) and a fall at j
      if (code && i >= 1 && i <= n - 2 && x[i - 1] < v) {
        i64 j = i + 1;
        int steps = 0;
        while (j < n - 1 && x[j] == v && steps < kLookAhead) {
          ++j;
          ++steps;
        }
        if (j < n - 1 && x[j] == v) c = kUnresolved;
        else if (x[j] < v) c = static_cast<std::uint8_t>(j - i);
      }
      if (code) code[i] = c;
      if (v != v) a.nan = 1;
      else a = acc{v, v, i, i, 0};
    }
    const acc r = block_reduce(a);
    if (threadIdx.x == 0) store(l1 + t, r);
  }
}

__global__ void __launch_bounds__(kFan) level_kernel(const summary* __restrict__ in, i64 nin, summary* out,
                                                     i64 nout) {
  for (i64 t = blockIdx.x; t < nout; t += gridDim.x) {
    const i64 i = t * kFan + threadIdx.x;
    acc a = identity();
    if (i < nin) {
      const summary s = in[i];
      a = acc{s.max, s.min, s.lpos, s.rpos, s.nan};
    }
    const acc r = block_reduce(a);
    if (threadIdx.x == 0) store(out + t, r);
  }
}

/// NumPy's min / max of two values (NaN propagates).
__device__ __forceinline__ double np_min(double a, double b) { return (a != a || b != b) ? NAN : (b < a ? b : a); }
__device__ __forceinline__ double np_max(double a, double b) { return (a != a || b != b) ? NAN : (b > a ? b : a); }

__global__ void resolve_kernel(const double* __restrict__ x, i64 n, pyramid_view pyr, const i64* __restrict__ cand,
                               const std::uint8_t* __restrict__ code, i64 m, interval_view plateau,
                               interval_view height, interval_view threshold, i64* mid, i64* left, i64* right,
                               std::uint8_t* keep) {
  CUSCI_PEAKS_LOOP(k, m) {
    const i64 L = cand[k];
    const std::uint8_t c = code[L];
    const double v = x[L];
    bool peak = true;
    i64 R = L + static_cast<i64>(c) - 1;
    if (c == kUnresolved) {
      // the first j > L with x[j] != v, searched up to n - 1 as SciPy's look-ahead
      const i64 j = walk<+1>(
          x, pyr, L + kLookAhead + 1, L + kLookAhead + 1, n - 2, [v](double s) { return s != v; },
          [v](const summary& b) { return !b.nan && b.max == v && b.min == v; }, [](const summary&) {},
          [](i64) {});
      peak = x[j] < v;
      R = j - 1;
    }
    const i64 p = (L + R) / 2;
    bool ok = peak;
    if (ok && plateau.given) ok = in_interval(plateau, p, static_cast<double>(R - L + 1));
    if (ok && height.given) ok = in_interval(height, p, x[p]);
    if (ok && threshold.given) {
      const double lt = x[p] - x[p - 1], rt = x[p] - x[p + 1];
      if (threshold.lo.kind != 0 && !(border_at(threshold.lo, p) <= np_min(lt, rt))) ok = false;
      if (threshold.hi.kind != 0 && !(np_max(lt, rt) <= border_at(threshold.hi, p))) ok = false;
    }
    mid[k] = p;
    if (left) left[k] = L;
    if (right) right[k] = R;
    keep[k] = ok ? 1 : 0;
  }
}

/// The cap on neighbours one thread scans per side and round; a peak with more stays undecided for
/// the round (always safe) and, if never decided, goes to the host's sequential finish.
constexpr int kScanCap = 512;

__global__ void distance_kernel(const double* __restrict__ h, const i64* __restrict__ peaks, i64 m, double dist,
                                std::uint8_t* state, unsigned long long* undecided, int first_round) {
  const volatile std::uint8_t* vs = state;
  for (i64 base = static_cast<i64>(blockIdx.x) * blockDim.x; base < m; base += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 p = base + threadIdx.x;
    int still = 0;
    if (p < m && vs[p] == 3) {
      const i64 pos = peaks[p];
      const double hp = h[p];
      bool blocked = false, removed = false, capped = false;
      // left neighbours: higher when strictly higher (equal ones to the left rank lower)
      int cnt = 0;
      for (i64 q = p - 1; q >= 0 && static_cast<double>(pos - peaks[q]) < dist; --q) {
        if (++cnt > kScanCap) { capped = true; break; }
        const std::uint8_t s = vs[q];
        if (s == 1) { removed = true; break; }
        if (s == 3 && h[q] > hp) {
          blocked = true;
          if (first_round) break;
        }
      }
      if (!removed && !(first_round && blocked)) {
        cnt = 0;
        for (i64 q = p + 1; q < m && static_cast<double>(peaks[q] - pos) < dist; ++q) {
          if (++cnt > kScanCap) { capped = true; break; }
          const std::uint8_t s = vs[q];
          if (s == 1) { removed = true; break; }
          if (s == 3 && h[q] >= hp) {
            blocked = true;
            if (first_round) break;
          }
        }
      }
      // Monotone states make in-place updates safe: a kept (removed) neighbour read here is kept
      // (removed) for good, and a stale "undecided" only delays a decision.
      if (removed) state[p] = 0;
      else if (!blocked && !capped) state[p] = 1;
      else still = 1;
    }
    const int c = __syncthreads_count(still);
    if (threadIdx.x == 0 && c > 0) atomicAdd(undecided, static_cast<unsigned long long>(c));
  }
}

__global__ void gather8_kernel(const unsigned long long* __restrict__ src, const i64* __restrict__ sel, i64 k,
                               unsigned long long* dst) {
  CUSCI_PEAKS_LOOP(j, k) dst[j] = src[sel[j]];
}

__global__ void values_kernel(const double* __restrict__ x, const i64* __restrict__ peaks, i64 k, double* h,
                              double* lt, double* rt) {
  CUSCI_PEAKS_LOOP(j, k) {
    const i64 p = peaks[j];
    const double v = x[p];
    if (h) h[j] = v;
    if (lt) lt[j] = v - x[p - 1];
    if (rt) rt[j] = v - x[p + 1];
  }
}

__global__ void plateau_kernel(const i64* __restrict__ l, const i64* __restrict__ r, i64 k, i64* s) {
  CUSCI_PEAKS_LOOP(j, k) s[j] = r[j] - l[j] + 1;
}

}  // namespace

void tile_pass(const double* x, i64 n, std::uint8_t* code, summary* level1, cudaStream_t st) {
  if (n <= 0) return;
  const i64 ntiles = (n + kFan - 1) / kFan;
  const unsigned g = static_cast<unsigned>(std::min<i64>(ntiles, 132 * 64));
  tile_kernel<<<g, kFan, 0, st>>>(x, n, code, level1, ntiles);
  CUSCI_CHECK_LAUNCH();
}

void reduce_level(const summary* in, i64 nin, summary* out, cudaStream_t st) {
  if (nin <= 0) return;
  const i64 nout = (nin + kFan - 1) / kFan;
  const unsigned g = static_cast<unsigned>(std::min<i64>(nout, 132 * 64));
  level_kernel<<<g, kFan, 0, st>>>(in, nin, out, nout);
  CUSCI_CHECK_LAUNCH();
}

void resolve_candidates(const double* x, i64 n, pyramid_view pyr, const i64* cand, const std::uint8_t* code, i64 m,
                        interval_view plateau, interval_view height, interval_view threshold, i64* mid, i64* left,
                        i64* right, std::uint8_t* keep, cudaStream_t st) {
  if (m <= 0) return;
  resolve_kernel<<<grid_for(m), kBlock, 0, st>>>(x, n, pyr, cand, code, m, plateau, height, threshold, mid, left,
                                                 right, keep);
  CUSCI_CHECK_LAUNCH();
}

void distance_round(const double* h, const i64* peaks, i64 m, double dist, std::uint8_t* state,
                    unsigned long long* undecided, bool first_round, cudaStream_t st) {
  if (m <= 0) return;
  // first round: every state is undecided, so a blocked peak cannot be removed: it stops scanning
  distance_kernel<<<grid_for(m), kBlock, 0, st>>>(h, peaks, m, dist, state, undecided, first_round ? 1 : 0);
  CUSCI_CHECK_LAUNCH();
}

void gather8(const void* src, const i64* sel, i64 k, void* dst, cudaStream_t st) {
  if (k <= 0) return;
  gather8_kernel<<<grid_for(k), kBlock, 0, st>>>(static_cast<const unsigned long long*>(src), sel, k,
                                                 static_cast<unsigned long long*>(dst));
  CUSCI_CHECK_LAUNCH();
}

void peak_values(const double* x, const i64* peaks, i64 k, double* heights, double* lthr, double* rthr,
                 cudaStream_t st) {
  if (k <= 0) return;
  values_kernel<<<grid_for(k), kBlock, 0, st>>>(x, peaks, k, heights, lthr, rthr);
  CUSCI_CHECK_LAUNCH();
}

void plateau_sizes(const i64* left, const i64* right, i64 k, i64* sizes, cudaStream_t st) {
  if (k <= 0) return;
  plateau_kernel<<<grid_for(k), kBlock, 0, st>>>(left, right, k, sizes);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail::peaks
