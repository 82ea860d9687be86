#pragma once
/// Internal engine of the short-time Fourier family (spectral.hpp's welch/csd/stft/spectrogram/istft and
/// short_time_fft.hpp's ShortTimeFFT): cut a batch of signals into overlapping segments, detrend and window
/// each, and Fourier-transform them in one batched cuFFT call; and the inverse's overlap-add.
/// Not installed; included only from signal/src.

#include <cstdint>
#include <limits>

#include "cusci/ndarray.hpp"

namespace cusci::signal::detail {

/// How `stft_frames` reads samples of `x` outside [0, n).
enum class frame_pad : int {
  zeros,     ///< 0
  edge,      ///< x[0] / x[n-1]
  even,      ///< mirror about the end sample, end not repeated (numpy 'reflect')
  odd,       ///< 2*x[end] - even extension
  constant,  ///< `pad_value`
};

/// Per-segment trend removal, applied to the `nperseg` samples before the window (SciPy's order).
enum class frame_detrend : int { none, constant, linear };

/// Geometry of the segments of `stft_frames`.
struct frame_spec {
  std::int64_t nperseg = 0;  ///< samples per segment (the window's length), >= 1
  std::int64_t hop = 1;      ///< distance between the first samples of neighbouring segments, >= 1
  std::int64_t first = 0;    ///< index into x of segment 0's first sample; may be < 0 (padding is read)
  std::int64_t nseg = 0;     ///< number of segments, >= 1; segments may run past n (padding is read)
  std::int64_t nfft = 0;     ///< transform length >= nperseg; each segment is zero-padded at its end
  frame_pad pad = frame_pad::zeros;
  double pad_value = 0.0;    ///< for frame_pad::constant
  /// Samples with index < zero_before or >= zero_after read 0 whatever `pad` says (inside [0, n) x is
  /// always read): SciPy's stft extends x by its boundary rule and then zero-pads the end (`padded`).
  std::int64_t zero_before = std::numeric_limits<std::int64_t>::min();
  std::int64_t zero_after = std::numeric_limits<std::int64_t>::max();
  frame_detrend detrend = frame_detrend::none;
  bool onesided = true;      ///< real x only: nfft/2 + 1 bins (real-to-complex); otherwise all nfft bins
};

/// Spectra of the windowed segments of each signal.
/// x: device (batch, n), C-contiguous, float32/float64/complex64/complex128 (callers move the axis last and
/// flatten the others). win: device (nperseg,), real or complex. Precision of the work and the result: the
/// promotion of x's and win's (float32 + float32 -> complex64; anything with float64 -> complex128).
/// Returns device (batch, nseg, nfreq) complex, nfreq = onesided ? nfft/2 + 1 : nfft, with
///   out[b, s, k] = sum_{j < nperseg} win[j] * d(xp[b, first + s*hop + j]) * exp(-2 pi i j k / nfft)
/// where xp is x extended by `pad` and d the segment's detrend (SciPy's least-squares line or mean,
/// computed in double). even/odd repeat the reflection as numpy.pad's 'reflect' does when the padding
/// exceeds n - 1. Asynchronous on the current stream.
/// @throws type_error when x or win is not float32/float64/complex64/complex128.
/// @throws value_error for inconsistent geometry (also onesided with complex x or win), out_of_memory.
ndarray stft_frames(const ndarray& x, const ndarray& win, const frame_spec& spec);

/// Overlap-add: y[b, i] = sum over segments s covering i of frames[b, s, j] * (win ? win[j] : 1),
/// j = i - (first + s*hop), 0 <= j < L, for 0 <= i < n_out (a gather: no atomics).
/// frames: device (batch, nseg, L) C-contiguous, real or complex; win: nullptr or device (L,) real or complex.
/// Returns device (batch, n_out) of the promoted dtype. Asynchronous on the current stream.
/// @throws value_error for inconsistent shapes, out_of_memory.
ndarray overlap_add(const ndarray& frames, std::int64_t hop, std::int64_t first, std::int64_t n_out,
                    const ndarray* win = nullptr);

}  // namespace cusci::signal::detail
