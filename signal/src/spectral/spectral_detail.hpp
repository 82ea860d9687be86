#pragma once
// (internal) The spectral family of cusci::signal: the host plans (SciPy's parameter resolution, pure
// functions testable without a GPU: spectral_host.cpp) and the device entry points of spectral.cu.

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/spectral.hpp"

namespace cusci::signal::detail {

// --- host plans (spectral_host.cpp) ---------------------------------------------------------------

/// A window's values on the host: float64 or complex128, 1-D.
host_array window_host_values(const spectral_window& w, std::int64_t nperseg);
/// Whether the window is given by name (SciPy's `isinstance(window, str) or tuple`).
inline bool window_is_named(const spectral_window& w) { return w.spec.has_value(); }
/// Length of an array window (host or device), after checking it is 1-D (`what` names the function).
std::int64_t window_array_length(const spectral_window& w, const std::string& fn, bool check_1d);

/// Segmentation of one analysis.
struct seg_plan {
  std::int64_t nperseg = 0, noverlap = 0, nfft = 0, hop = 0, nseg = 0, nfreq = 0;
  bool onesided = true;
  host_array win;           ///< float64 or complex128 [nperseg]
  bool win_complex = false;
  double scale = 1.0;       ///< window_scale()
  // stft extension: segment s starts at first + s*hop; samples outside [zero_before, zero_after) read 0.
  std::int64_t first = 0, zero_before = 0, zero_after = 0;
};

/// The scale of a PSD (1 / (fs sum(w^2))) or power spectrum (1 / sum(w)^2). sft: ShortTimeFFT's forms,
/// which welch/csd use (sum |w|^2 and |sum w|^2); otherwise _spectral_helper's (spectrogram, stft) with
/// the complex sums of a complex window, of which the real part is kept.
double window_scale(const host_array& win, spectral_scaling scaling, double fs, bool sft);
/// _spectral_helper's complex scale 1 / (fs sum(w*w)) or 1 / sum(w)^2 (complex for a complex window).
std::complex<double> window_scale_complex(const host_array& win, spectral_scaling scaling, double fs);

/// csd()'s parameter resolution (SciPy 1.18: welch, csd, coherence, periodogram). n: the (padded) signal
/// length; x_complex/y_complex: complexity of the inputs (y_complex with onesided and a real x throws).
seg_plan csd_plan(const std::string& fn, std::int64_t n, const spectral_window& window,
                  std::optional<std::int64_t> nperseg, std::optional<std::int64_t> noverlap,
                  std::optional<std::int64_t> nfft, bool x_complex, bool y_complex, bool return_onesided,
                  spectral_scaling scaling, double fs);

/// _spectral_helper()'s resolution (spectrogram, stft): nperseg default 256 (named windows) with the
/// nperseg > n warning, nfft, noverlap (default given by the caller: nperseg/8 or /2), boundary, padded.
seg_plan helper_plan(const std::string& fn, std::int64_t n, const spectral_window& window,
                     std::optional<std::int64_t> nperseg, std::optional<std::int64_t> noverlap, int noverlap_div,
                     std::optional<std::int64_t> nfft, bool x_complex, bool return_onesided,
                     spectral_scaling scaling, double fs, stft_boundary boundary, bool padded);

/// SciPy's segment times of _spectral_helper: arange(nperseg/2, n_ext - nperseg/2 + 1, hop)/fs
/// (minus (nperseg/2)/fs with a boundary).
host_array helper_times(const seg_plan& p, double fs, bool boundary);
/// SciPy's frequencies: rfftfreq(nfft, 1/fs) one-sided, fftfreq(nfft, 1/fs) two-sided.
host_array plan_freqs(const seg_plan& p, double fs);

/// 1 + sum_{i=1}^{(n-1)//2} (1/(2i+1) - 1/(2i)): SciPy's bias of the median of n chi^2_2 values.
double median_bias(std::int64_t n);

/// istft's plan.
struct istft_plan {
  std::int64_t nperseg = 0, noverlap = 0, nfft = 0, hop = 0, nseg = 0, nfreq = 0;
  std::int64_t out_len = 0, crop = 0, n_out = 0;  ///< full overlap-add length, samples cut at each end, kept
  host_array win;
  bool win_complex = false;
  double xscale = 1.0;  ///< sum(w) (spectrum) or sqrt(fs sum(w^2)) (psd)
  bool nola_ok = true;  ///< every kept sample's window sum > 1e-10
};
istft_plan make_istft_plan(std::int64_t nfreq, std::int64_t nseg, const istft_options& o);

/// The window's overlapped sums of w (squared: sum of |w|^2) over one hop period (check_COLA/NOLA).
std::vector<double> window_binsums(const host_array& win, std::int64_t nperseg, std::int64_t noverlap, bool squared);

// --- device (spectral.cu) ---------------------------------------------------------------------------

/// What the averaging kernel computes from the spectra X (and Y) [batch, nseg, nfreq].
enum class avg_kind : int {
  power,      ///< mean |X|^2 -> real
  cross,      ///< mean conj(X) Y -> complex
  coherence,  ///< |mean conj(X) Y|^2 / (mean |X|^2 mean |Y|^2) (scaled, doubled) -> real
};

/// Mean over segments with SciPy's scaling and one-sided doubling (bins 1..nfreq-1, the last excluded
/// for an even nfft). X, Y: complex [batch, nseg, nfreq] C-contiguous (Y only for cross/coherence).
/// Returns [batch, nfreq] real (power, coherence) or complex (cross) of X's precision.
ndarray spectra_mean(const ndarray& X, const ndarray* Y, avg_kind kind, double scale, bool onesided_double,
                     bool even_nfft);
/// Median over segments (SciPy: median of the real and imaginary parts separately for cross), divided by
/// `bias`, scaled and doubled. Returns [batch, nfreq].
ndarray spectra_median(const ndarray& X, const ndarray* Y, bool cross, double scale, double bias,
                       bool onesided_double, bool even_nfft);

/// Spectrogram modes on X [batch, nseg, nfreq]: psd (real |X|^2 scale, doubled), magnitude |X| * s,
/// angle arg(X), phase (arg unwrapped along frequency); complex handled by the caller. s = sqrt(scale)
/// for the non-psd modes is folded into the window by the caller. Returns [batch, nseg, nfreq] real.
ndarray spectrogram_mode_apply(const ndarray& X, spectrogram_mode mode, double scale, bool onesided_double,
                               bool even_nfft);

/// istft's overlap-add: xs [batch, nseg, nperseg] (real or complex: the cropped inverse FFTs); returns
/// [batch, n_out] with y[i] = sum_s xs[s, j] w[j] xscale / norm(i) (norm = sum_s |w[j]|^2 as SciPy:
/// w**2, complex squares for a complex window), i over the kept range [crop, crop + n_out).
ndarray istft_ola(const ndarray& xs, const ndarray& win, double xscale, std::int64_t hop, std::int64_t crop,
                  std::int64_t n_out);

}  // namespace cusci::signal::detail
