#pragma once
// Internal interface of the peaks family: the launchers of the kernels (*.cu) that the host
// orchestration (peaks.cpp) calls. Plain C++ (no device code), so peaks.cpp compiles with g++.
//
// The min/max pyramid: level 1 holds, per aligned block of kFan samples of x, the max and min of its
// non-NaN samples, whether it holds a NaN, and the leftmost and rightmost position of its min; level
// k + 1 summarises kFan entries of level k (blocks of kFan^(k+1) samples). Walks (plateau ends,
// prominence bases, width crossings) consume whole aligned blocks whose summary proves the walk goes
// through them, so a walk costs O(kFan * levels) loads, never O(n). /tmp/peaks/emulate.py (and
// docs/signal-peaks.md) hold the reference of this index arithmetic, checked against SciPy.

#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "cusci/signal/peaks.hpp"

namespace cusci::signal::detail::peaks {

using i64 = std::int64_t;

/// Fan-out of the pyramid (samples per level-1 block, entries per higher block) and threads per block
/// of the tile pass (one sample each).
inline constexpr int kFan = 128;
/// Look-ahead of the tile pass over a flat run; longer runs are resolved through the pyramid.
inline constexpr int kLookAhead = 64;
/// Code of a rising sample whose flat run is longer than kLookAhead.
inline constexpr std::uint8_t kUnresolved = 255;
/// Levels of the pyramid at most (kFan^8 = 2^56 samples).
inline constexpr int kMaxLevels = 8;

struct summary {
  double max;       ///< max of the non-NaN samples (-inf when none)
  double min;       ///< min of the non-NaN samples (+inf when none)
  std::int64_t lpos;  ///< leftmost position of min (-1 when none)
  std::int64_t rpos;  ///< rightmost position of min
  std::int32_t nan;   ///< the block holds a NaN
  std::int32_t pad;
};

/// Device pointers of the pyramid's levels (level l + 1 at lv[l]).
struct pyramid_view {
  const summary* lv[kMaxLevels];
  int levels;
};

/// One border of an interval condition: none, a number, or a float64 array over x's samples.
struct border_view {
  int kind = 0;  ///< 0 none, 1 scalar, 2 per-sample array
  double v = 0;
  const double* a = nullptr;
};
struct interval_view {
  border_view lo, hi;
  bool given = false;
};

/// Tile pass: code[i] for every sample (0: no peak starts here; 1..kLookAhead: a peak's plateau of
/// that size starts here; kUnresolved: a rising sample before a flat run longer than kLookAhead) and
/// the level-1 summaries (ceil(n / kFan) entries). code may be null (summaries only).
void tile_pass(const double* x, i64 n, std::uint8_t* code, summary* level1, cudaStream_t st);
/// One pyramid level from the level below (nin entries -> ceil(nin / kFan)).
void reduce_level(const summary* in, i64 nin, summary* out, cudaStream_t st);

/// Per candidate (a compacted rising sample): resolves a long plateau through the pyramid, applies
/// plateau_size, height and threshold, writes mid / left / right (left/right may be null) and keep.
void resolve_candidates(const double* x, i64 n, pyramid_view pyr, const i64* cand, const std::uint8_t* code,
                        i64 m, interval_view plateau, interval_view height, interval_view threshold, i64* mid,
                        i64* left, i64* right, std::uint8_t* keep, cudaStream_t st);

/// One round of the distance selection over peaks (positions increasing) with heights h (= x[peaks]):
/// state 3 undecided, 1 kept, 0 removed; adds the number still undecided after the round to
/// *undecided (which the caller zeroes). first_round: every state is still 3.
void distance_round(const double* h, const i64* peaks, i64 m, double dist, std::uint8_t* state,
                    unsigned long long* undecided, bool first_round, cudaStream_t st);

/// Prominences of peaks (any index; invalid ones recorded as the smallest position k in *first_bad,
/// which the caller sets to all ones). wlen < 2: unbounded. keep (may be null) from cond. *zero_flag set
/// when a prominence is 0.
void prominences(const double* x, i64 n, pyramid_view pyr, const i64* peaks, i64 m, i64 wlen, double* prom,
                 i64* lbase, i64* rbase, interval_view cond, std::uint8_t* keep, int* zero_flag,
                 unsigned long long* first_bad, cudaStream_t st);

/// Widths at x[p] - prom * rel_height within the bases; invalid bases -> *first_bad (smallest k);
/// keep (may be null) from cond; *zero_flag when a width is 0.
void widths(const double* x, i64 n, pyramid_view pyr, const i64* peaks, i64 m, double rel_height,
            const double* prom, const i64* lbase, const i64* rbase, double* wheight, double* width,
            double* lips, double* rips, interval_view cond, std::uint8_t* keep, int* zero_flag,
            unsigned long long* first_bad, cudaStream_t st);

/// dst[j] = src[sel[j]] for 8-byte words, j < k.
void gather8(const void* src, const i64* sel, i64 k, void* dst, cudaStream_t st);

/// heights[j] = x[p], lthr[j] = x[p] - x[p-1], rthr[j] = x[p] - x[p+1] (either may be null).
void peak_values(const double* x, const i64* peaks, i64 k, double* heights, double* lthr, double* rthr,
                 cudaStream_t st);

/// plateau_sizes[j] = right[j] - left[j] + 1.
void plateau_sizes(const i64* left, const i64* right, i64 k, i64* sizes, cudaStream_t st);

/// mask (outer * len * inner bytes, C order of [outer, len, inner]) of relative extrema of a
/// C-contiguous array of dtype `dt` (any real dtype id of cusci::dtype as int). cmp: 0 greater,
/// 1 less, 2 greater_equal, 3 less_equal; mode: 0 clip, 1 wrap.
void relextrema_mask(const void* data, int dt, i64 outer, i64 len, i64 inner, int cmp, i64 order, int mode,
                     std::uint8_t* mask, cudaStream_t st);

/// find_peaks_cwt on host data (peaks_cwt.cpp): SciPy's checks on widths / max_distances /
/// noise_perc, the transform, the ridge lines; sorted indices.
std::vector<std::int64_t> find_peaks_cwt_host(const std::vector<double>& data, const std::vector<double>& widths,
                                              const find_peaks_cwt_options& o);

}  // namespace cusci::signal::detail::peaks
