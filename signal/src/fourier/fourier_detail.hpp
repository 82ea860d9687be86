#pragma once
// (internal) The fourier family of cusci::signal: the host plans (pure functions, testable without a
// GPU) and the device entry points of hilbert.cu, envelope.cu, czt.cu and detrend.cu. Every entry point
// enqueues work on the current stream and launches nothing for empty arrays.

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/fourier.hpp"

namespace cusci::signal::detail {

// --- cuFFT (through core's plan cache) ------------------------------------------------------------

/// In-place batched 1-D complex transform of `batch` contiguous rows of length n (complex64 or, with
/// dbl, complex128); direction CUFFT_FORWARD (-1) or CUFFT_INVERSE (1); unnormalized.
void fft_c2c_rows(void* data, std::int64_t n, std::int64_t batch, bool dbl, int direction);
/// Batched real-to-complex transform: `batch` real rows of length n (row pitch in_pitch reals) to
/// complex rows of pitch out_pitch complex elements (the n/2 + 1 outputs at the front of each row).
void fft_r2c_rows(const void* in, void* out, std::int64_t n, std::int64_t batch, std::int64_t in_pitch,
                  std::int64_t out_pitch, bool dbl);
/// Batched complex-to-real transform of contiguous rows (n/2 + 1 complex in, n real out); overwrites in.
void fft_c2r_rows(void* in, void* out, std::int64_t n, std::int64_t batch, bool dbl);

/// The length-1 transforms without cuFFT (whose plans of length 1 are not portable): R2C writes
/// (x, 0) to out[r * out_pitch]; C2R (to_real) writes the real part of in[r] to out[r].
void r2c_length1(const void* in, void* out, std::int64_t batch, std::int64_t in_pitch, std::int64_t out_pitch,
                 bool dbl);
void c2r_length1(const void* in, void* out, std::int64_t batch, bool dbl);

// --- hilbert --------------------------------------------------------------------------------------

/// In place on `rows` contiguous half spectra of N/2 + 1 complex elements (an R2C of length N): element
/// k becomes -i X[k] / N for 0 < k < N/2 and 0 at k = 0 and (even N) k = N/2: the half spectrum whose
/// C2R is the Hilbert transform of the signal.
void hilbert_quadrature(void* spec, std::int64_t N, std::int64_t rows, bool dbl);
/// out[i] = x[i] + i h[i] for i < total (x, h real; out complex of the same precision).
void analytic_combine(const void* x, const void* h, void* out, std::int64_t total, bool dbl);
/// In place on the C-contiguous complex spectrum `X` (complex64/complex128): multiplies by
/// (1 + s(k0)) (1 + s(k1)) along axes ax0, ax1.
void hilbert2_weights(ndarray& X, int ax0, int ax1);

// --- envelope -------------------------------------------------------------------------------------

/// Everything envelope's kernels need, from SciPy's slicing rules (envelope_plan_of).
struct envelope_plan {
  std::int64_t n = 0, n_out = 0;
  // The band: output position j < band_len reads bin ((band_p0 + j + band_off) mod n).
  std::int64_t band_p0 = 0, band_len = 0, band_off = 0;
  // Real input: bins [dbl_lo, dbl_hi) are doubled (SciPy's "make the signal analytic").
  std::int64_t dbl_lo = 0, dbl_hi = 0;
  // The residual keeps every bin outside these ranges.
  std::int64_t zr_lo[4] = {0, 0, 0, 0}, zr_hi[4] = {0, 0, 0, 0};
  int n_zr = 0;
};

/// The plan for a signal of n samples. @throws cusci::value_error when the band does not satisfy
/// -n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2 (SciPy's message).
envelope_plan envelope_plan_of(std::int64_t n, std::int64_t n_out,
                               const std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>& bp_in,
                               envelope_residual residual);

/// The envelope and residual from the forward spectrum Z ([rows, zlen] contiguous complex; zlen =
/// n/2 + 1 for real input, n for complex input). env_out: [rows, n_out] contiguous, real (real_out) or
/// complex of Z's precision; res_out: [rows, n_out] contiguous (real for real input, complex for complex
/// input) or null for residual none.
void envelope_run(const ndarray& Z, bool real_input, const envelope_plan& p, bool squared, std::int64_t rows,
                  void* env_out, bool env_complex, void* res_out);

// --- chirp z ---------------------------------------------------------------------------------------

/// out[b, i] = (IFFT(fwk2 * FFT_nfft(x[b, :] * awk2)))[n - 1 + i] * wk2[i] for `rows` rows.
/// x: [rows, n] C-contiguous float32/float64/complex64/complex128; out: [rows, m] complex128.
void czt_apply(const ndarray& x, ndarray& out, std::int64_t rows, std::int64_t n, std::int64_t m, std::int64_t nfft,
               const ndarray& awk2, const ndarray& fwk2, const ndarray& wk2);

/// The chirps of a CZT / ZoomFFT object, as SciPy's numpy expressions define them.
struct chirp_spec {
  int kind = 0;  ///< 0: CZT with w = None; 1: CZT with a given w; 2: ZoomFFT
  std::int64_t n = 0, m = 0;
  double w_re = 0, w_im = 0, wlog_re = 0, wlog_im = 0;  ///< kind 1: w and log(w)
  double a_re = 1, a_im = 0, alog_re = 0, alog_im = 0;  ///< kinds 0, 1: a and log(a)
  double ps = 0;  ///< kind 2: pi * scale
  double f = 0;   ///< kind 2: -2 pi f1 / fs
};

/// Computes on the device (complex128): awk2 [n] = a^-k w^(k^2/2) (ZoomFFT: exp(i f k) w^(k^2/2)),
/// wk2 [m] = w^(k^2/2), and kern [n - 1 + m] = 1 / w^(j^2/2) for j = -(n-1) .. m-1 (the Bluestein
/// convolution kernel, SciPy's `1/np.hstack((wk2[n-1:0:-1], wk2[:m]))`).
void czt_chirps(const chirp_spec& s, ndarray& awk2, ndarray& wk2, ndarray& kern);

/// SciPy's numpy complex power w ** e for a real exponent e (npy_cpow: repeated multiplication for
/// integer |e| < 100, else exp(e log w)).
std::complex<double> npy_cpow(std::complex<double> w, double e);

// --- detrend ---------------------------------------------------------------------------------------

/// The segment bounds sorted(unique({0} + bp + {N})). @throws cusci::value_error for a point > N
/// (SciPy's message) or < 0.
std::vector<std::int64_t> detrend_bounds(const std::vector<std::int64_t>& bp, std::int64_t N);

/// Linear detrend of `rows` contiguous rows of length N of `x` (float32/float64/complex64/complex128)
/// into `out` (same dtype, [rows, N] contiguous), per segment of `bounds`.
void detrend_linear_rows(const ndarray& x, ndarray& out, std::int64_t rows, std::int64_t N,
                         const std::vector<std::int64_t>& bounds);

}  // namespace cusci::signal::detail
