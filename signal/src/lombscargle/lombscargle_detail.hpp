#pragma once
// (internal) The lombscargle family of cusci::signal: the launch plan of the tiled trigonometric-sum
// kernel (a pure function, testable without a GPU) and the device entry points of lombscargle.cu. All
// arrays are C-contiguous float64 on the device; every entry point enqueues work on the current stream.

#include <cstdint>

#include "cusci/ndarray.hpp"

namespace cusci::signal::detail {

/// Tiling constants of the trigonometric-sum kernel: 128 threads a block, 8 consecutive frequencies a
/// thread (one sincos and 7 rotations on evenly spaced frequencies), samples staged through shared
/// memory 256 at a time.
inline constexpr int trig_threads = 128;
inline constexpr int trig_per_thread = 8;
inline constexpr std::int64_t trig_freqs_per_block = trig_threads * trig_per_thread;
inline constexpr std::int64_t trig_tile = 256;

/// The grid: freq_blocks x chunks blocks; block (i, c) sums the samples [c chunk, (c + 1) chunk) for
/// the frequencies [i 1024, (i + 1) 1024). Chunks are a multiple of the tile, and their number is
/// chosen to give about `target_blocks` blocks (at most 65535 chunks).
struct trig_plan {
  std::int64_t freq_blocks = 0;
  std::int64_t chunks = 0;
  std::int64_t chunk = 0;
};
trig_plan trig_plan_of(std::int64_t n, std::int64_t nf, std::int64_t target_blocks = 1056);

/// mom[0..3] = {sum w, sum w y, sum w y^2, 1 if some weight is negative or NaN else 0} (w = 1 when
/// null). mom: float64 [4].
void ls_moments(const ndarray& y, const double* w, ndarray& mom);

/// The periodogram: x, y [n], w [n] or null, freqs [nf], mom from ls_moments; mode 0 power, 1 normalize,
/// 2 amplitude; out: float64 [nf] (complex128 for amplitude).
void ls_run(const ndarray& x, const ndarray& y, const double* w, const ndarray& freqs, const ndarray& mom,
            bool floating_mean, int mode, ndarray& out);

/// The vector strength: events [ne] (float64, holding float32 values when f32), periods [np] (float64,
/// likewise); strength and phase [np] of float64, or float32 when f32 (SciPy's float32 angles).
void vs_run(const ndarray& events, const ndarray& periods, bool f32, ndarray& strength, ndarray& phase);

}  // namespace cusci::signal::detail
