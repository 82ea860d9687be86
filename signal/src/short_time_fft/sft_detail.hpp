#pragma once
// (internal) The ShortTimeFFT family: the per-bin kernels of sft_kernels.cu. The framing, windowing,
// detrending and forward FFT of the slices are the spectral engine's (spectral/framing.hpp); the inverse
// FFTs are core's (cusci/fft.hpp). Every entry point enqueues work on the current stream.

#include <cstdint>

#include "cusci/ndarray.hpp"

namespace cusci::signal::detail {

/// What sft_post writes.
enum class sft_post_mode : int {
  spectrum = 0,  ///< out = in[src] * fac[src]                    (complex, the stft)
  power = 1,     ///< out = |in[src]|^2 * |fac[src]|^2             (real, the spectrogram)
  cross = 2,     ///< out = in[src] * conj(in_y[src]) * |fac[src]|^2 (complex, the cross-spectrogram)
};

/// Transposes the engine's spectra into SciPy's layout with the per-bin work:
/// out[b, k, s] = op(frames[b, s, src(k)]), src(k) = (k + shift) % nfreq, for k < nfreq, s < nseg.
/// frames (and frames_y for cross): device (batch, nseg, nfreq) C-contiguous complex64/complex128 of
/// one precision; fac: device (nfreq,) of the same complex dtype (indexed by the source bin);
/// out: device (batch, nfreq, nseg) C-contiguous: complex of that precision, or real for power.
void sft_post(const ndarray& frames, const ndarray* frames_y, const ndarray& fac, std::int64_t shift,
              sft_post_mode mode, ndarray& out);

/// The inverse's spectra of the slices, from S in SciPy's layout:
/// X[b, s, j] = S[b, (j + shift) % nfreq, col(s)] * fac[j], col(s) = c0 + s (+ nS when negative,
/// Python's index wrap), for s < nq, j < nfreq.
/// S: device (batch, nfreq, nS) C-contiguous complex; fac: device (nfreq,) of S's dtype;
/// X: device (batch, nq, nfreq) C-contiguous of S's dtype. The caller guarantees 0 <= col(s) < nS.
void sft_pre_inverse(const ndarray& S, const ndarray& fac, std::int64_t shift, std::int64_t c0, ndarray& X);

}  // namespace cusci::signal::detail
