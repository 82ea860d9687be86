#pragma once
/// @file spectral.hpp
/// Spectral analysis of scipy.signal on the GPU: power spectral densities (`periodogram`, `welch`), cross
/// spectra (`csd`), coherence (`coherence`), spectrograms (`spectrogram`, every mode), the short-time
/// Fourier transform and its inverse (`stft`, `istft`), and the host checks `check_COLA` / `check_NOLA`.
///
/// Data: `x` (and `y`) are device arrays of any shape and layout; the analysis runs along `axis` and is
/// batched over every other axis. float32 (and float16) data compute in single precision and give
/// float32 / complex64 results, float64 / integer / bool data double precision (float64 / complex128),
/// as SciPy's result dtypes. Complex data give two-sided spectra.
///
/// The frequencies `f` and segment times `t` are small host arrays (float64), not device arrays: they
/// are computed from the parameters alone, and most programs print, plot or index them on the host.
/// `cusci::asarray(f)` puts them on the device.
///
/// Windows: every function takes SciPy's `window` as a `spectral_window`: a name or a name with
/// parameters (a `window_spec`: `"hann"`, `{"tukey", {0.25}}`), or the window's values as a host array
/// or a device array (1-D, real or complex). Values given on the device are read back to the host once
/// (the scaling factors need their sums): such a call synchronizes.
///
/// Stream behaviour: every function enqueues its work on the current stream of the current device and
/// returns without synchronizing, except where a window is given as a device array (above) and
/// `istft`, whose NOLA check is done on the host from the window alone (no synchronization either).
///
/// Warnings (cusci::warn, category "UserWarning", SciPy's text): nperseg greater than the input length
/// (nperseg is reduced to it), complex input with return_onesided (switched to two-sided; periodogram,
/// welch, csd and coherence switch silently, as SciPy 1.18), and istft's failed NOLA condition.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "cusci/ndarray.hpp"
#include "cusci/signal/windows.hpp"

namespace cusci::signal {

// ------------------------------------------------------------------------------------ options

/// SciPy's `window` argument of the spectral functions: a window name / tuple (`window_spec`), or the
/// window's values as a host or device array (1-D).
struct spectral_window {
  std::optional<window_spec> spec{};
  std::optional<host_array> host{};
  std::optional<ndarray> device{};

  spectral_window() : spec(window_spec("hann_periodic")) {}
  spectral_window(const char* name) : spec(window_spec(name)) {}
  spectral_window(std::string name) : spec(window_spec(std::move(name))) {}
  spectral_window(window_spec s) : spec(std::move(s)) {}
  spectral_window(std::string name, std::initializer_list<window_param> a) : spec(window_spec(std::move(name), a)) {}
  spectral_window(host_array values) : host(std::move(values)) {}
  spectral_window(ndarray values) : device(std::move(values)) {}
};

/// SciPy's `detrend=` values: False, 'constant', 'linear' (callables are not taken).
enum class spectral_detrend { none, constant, linear };
/// Parses "constant", "linear" and "none"/"false" (SciPy's False). @throws cusci::value_error otherwise.
spectral_detrend parse_spectral_detrend(std::string_view s);

/// SciPy's `scaling=`: 'density' (power spectral density, V^2/Hz) or 'spectrum' (power spectrum, V^2).
enum class spectral_scaling { density, spectrum };
/// Parses "density", "spectrum", and "psd" (stft/istft's spelling of density).
/// @throws cusci::value_error otherwise.
spectral_scaling parse_spectral_scaling(std::string_view s);

/// SciPy's `average=` of welch / csd.
enum class spectral_average { mean, median };
/// Parses "mean", "median". @throws cusci::value_error otherwise.
spectral_average parse_spectral_average(std::string_view s);

/// SciPy's `mode=` of spectrogram.
enum class spectrogram_mode { psd, complex, magnitude, angle, phase };
/// Parses "psd", "complex", "magnitude", "angle", "phase". @throws cusci::value_error otherwise
/// (SciPy's message "unknown value for mode ...").
spectrogram_mode parse_spectrogram_mode(std::string_view s);

/// SciPy's `boundary=` of stft: None or the signal extension at both ends.
enum class stft_boundary { none, even, odd, constant, zeros };
/// Parses "even", "odd", "constant", "zeros" and "none" (None). @throws cusci::value_error otherwise
/// (SciPy's "Unknown boundary option ...").
stft_boundary parse_stft_boundary(std::string_view s);

/// Keyword arguments of `periodogram`.
struct periodogram_options {
  double fs = 1.0;
  spectral_window window = "boxcar";
  /// FFT length; default: the input's length. A shorter nfft crops the input, as SciPy.
  std::optional<std::int64_t> nfft{};
  spectral_detrend detrend = spectral_detrend::constant;
  bool return_onesided = true;
  spectral_scaling scaling = spectral_scaling::density;
  int axis = -1;
};

/// Keyword arguments of `welch` and `csd`.
struct welch_options {
  double fs = 1.0;
  spectral_window window = "hann_periodic";
  /// Samples per segment; default 256 (a named window) or the window's length (an array window).
  std::optional<std::int64_t> nperseg{};
  /// Samples shared by neighbouring segments; default nperseg / 2.
  std::optional<std::int64_t> noverlap{};
  /// FFT length (zero-padding of each segment); default nperseg.
  std::optional<std::int64_t> nfft{};
  spectral_detrend detrend = spectral_detrend::constant;
  bool return_onesided = true;
  spectral_scaling scaling = spectral_scaling::density;
  int axis = -1;
  spectral_average average = spectral_average::mean;
};
using csd_options = welch_options;

/// Keyword arguments of `coherence`.
struct coherence_options {
  double fs = 1.0;
  spectral_window window = "hann_periodic";
  std::optional<std::int64_t> nperseg{};
  std::optional<std::int64_t> noverlap{};
  std::optional<std::int64_t> nfft{};
  spectral_detrend detrend = spectral_detrend::constant;
  int axis = -1;
};

/// Keyword arguments of `spectrogram`.
struct spectrogram_options {
  double fs = 1.0;
  spectral_window window = spectral_window("tukey_periodic", {0.25});
  /// Default 256 (a named window, reduced to the input's length) or the window's length.
  std::optional<std::int64_t> nperseg{};
  /// Default nperseg / 8.
  std::optional<std::int64_t> noverlap{};
  std::optional<std::int64_t> nfft{};
  spectral_detrend detrend = spectral_detrend::constant;
  bool return_onesided = true;
  spectral_scaling scaling = spectral_scaling::density;
  int axis = -1;
  spectrogram_mode mode = spectrogram_mode::psd;
};

/// Keyword arguments of `stft`.
struct stft_options {
  double fs = 1.0;
  spectral_window window = "hann_periodic";
  std::int64_t nperseg = 256;
  std::optional<std::int64_t> noverlap{};  ///< default nperseg / 2
  std::optional<std::int64_t> nfft{};
  spectral_detrend detrend = spectral_detrend::none;
  bool return_onesided = true;
  stft_boundary boundary = stft_boundary::zeros;
  bool padded = true;
  int axis = -1;
  spectral_scaling scaling = spectral_scaling::spectrum;
};

/// Keyword arguments of `istft`.
struct istft_options {
  double fs = 1.0;
  spectral_window window = "hann_periodic";
  /// Default: 2 (nfreq - 1) for a one-sided input, nfreq otherwise.
  std::optional<std::int64_t> nperseg{};
  std::optional<std::int64_t> noverlap{};  ///< default nperseg / 2
  std::optional<std::int64_t> nfft{};
  bool input_onesided = true;
  bool boundary = true;
  int time_axis = -1;
  int freq_axis = -2;
  spectral_scaling scaling = spectral_scaling::spectrum;
};

// ------------------------------------------------------------------------------------ results

/// Result of `periodogram` / `welch`: frequencies (host float64 [nfreq]) and the PSD or power spectrum
/// (device, x's shape with `axis` of length nfreq; float32 or float64).
struct psd_result {
  host_array f;
  ndarray Pxx;
};
/// Result of `csd`: frequencies and the cross spectral density (device, complex64 / complex128; real when
/// `y` is `x`, see csd).
struct csd_result {
  host_array f;
  ndarray Pxy;
};
/// Result of `coherence`: frequencies and the magnitude-squared coherence (device, float32 / float64).
struct coherence_result {
  host_array f;
  ndarray Cxy;
};
/// Result of `spectrogram`: frequencies, segment times (host float64 [nseg]) and the spectrogram
/// (device, x's shape with `axis` of length nfreq and a last axis of length nseg).
struct spectrogram_result {
  host_array f;
  host_array t;
  ndarray Sxx;
};
/// Result of `stft`: frequencies, segment times and the STFT (device, complex, shaped as spectrogram's).
struct stft_result {
  host_array f;
  host_array t;
  ndarray Zxx;
};
/// Result of `istft`: sample times (host float64) and the signal (device).
struct istft_result {
  host_array t;
  ndarray x;
};

// ------------------------------------------------------------------------------------ functions

/// Power spectral density by the periodogram: one segment of the whole signal (welch with
/// nperseg = the input's length, or nfft when shorter, and noverlap 0).
/// @param x  device [..., n, ...], real or complex (float16/32/64, integers, bool, complex64/128).
/// @return f: host float64 [nfreq] (nfreq = nfft/2 + 1 one-sided, nfft two-sided); Pxx: device, x's
///         shape with axis of length nfreq, float32 (float16/float32/complex64 x) or float64. An empty x
///         gives two empty float64 arrays of x's shape (f then a device-free host array).
/// Asynchronous on the current stream.
/// @throws cusci::value_error for a window array whose size is not nperseg, nfft < 1, fs <= 0 is not
///         checked (SciPy neither); cusci::index_error for an axis out of range.
/// SciPy: `scipy.signal.periodogram(x, fs, window, nfft, detrend, return_onesided, scaling, axis)`.
psd_result periodogram(const ndarray& x, const periodogram_options& opts = {});

/// Welch's averaged, modified periodogram: the signal is cut into segments of nperseg samples
/// overlapping by noverlap, each detrended, windowed and transformed; the mean (or the median, divided
/// by SciPy's bias factor) of their squared magnitudes is scaled to a density (1 / (fs sum(w^2))) or a
/// spectrum (1 / sum(w)^2) and, one-sided, doubled except at 0 and Nyquist.
/// @param x  device [..., n, ...], as periodogram.
/// @return f host float64 [nfreq]; Pxx device, x's shape with axis of length nfreq, float32 / float64.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for nperseg < 1, a window array of another length than nperseg, nfft <
///         nperseg, noverlap >= nperseg (SciPy's messages); cusci::index_error for an axis out of range.
/// Warns (UserWarning) when nperseg > n for a named window (nperseg is then n).
/// Algorithm: one fused framing kernel (read the segment, detrend, window, zero-pad), one batched
/// real-to-complex cuFFT, one averaging kernel over the spectra (coalesced along frequency, all
/// segments of a bin summed by one thread) that applies the scaling and the one-sided doubling.
/// SciPy: `scipy.signal.welch`. Computes in the input's precision (SciPy 1.18 in float64 for a float32 x
/// with a float64 window, then rounds to float32).
psd_result welch(const ndarray& x, const welch_options& opts = {});

/// Cross spectral density of x and y by Welch's method: the average of conj(X) Y over the segments.
/// @param x, y  device [..., n, ...], outer shapes broadcastable (the shorter signal is zero-padded to
///              the longer one's length, as SciPy).
/// @return f host float64; Pxy device complex64 / complex128, the broadcast outer shape with axis of
///         length nfreq. When `y` is the very same array as `x` (same data, dtype, shape and strides:
///         SciPy's `y is x`) Pxy is real (float32 / float64), as SciPy.
/// Asynchronous on the current stream.
/// @throws cusci::value_error as welch, and for outer shapes that do not broadcast ("x and y cannot be
///         broadcast together."); cusci::index_error for an axis out of range.
/// SciPy: `scipy.signal.csd`. The median of a complex Pxy is taken of the real and imaginary parts
/// separately, as SciPy.
csd_result csd(const ndarray& x, const ndarray& y, const csd_options& opts = {});

/// Magnitude-squared coherence |Pxy|^2 / (Pxx Pyy) by Welch's method.
/// @param x, y  device [..., n, ...] (as csd).
/// @return f host float64; Cxy device float32 / float64, the broadcast outer shape with axis of length nfreq.
/// Asynchronous on the current stream.
/// @throws as csd.
/// Algorithm: when x and y have the same shape the three averages come from one averaging kernel over
/// the two segment spectra.
/// SciPy: `scipy.signal.coherence`.
coherence_result coherence(const ndarray& x, const ndarray& y, const coherence_options& opts = {});

/// Spectrogram: the spectra of consecutive segments (default window ('tukey_periodic', 0.25), noverlap
/// nperseg / 8), in one of SciPy's modes: psd (scaled squared magnitude, one-sided bins doubled),
/// complex (the scaled STFT, scale square-rooted), magnitude (its absolute value), angle (its argument)
/// and phase (the argument unwrapped along the frequency axis, as SciPy does).
/// @param x  device [..., n, ...], real or complex.
/// @return f host float64 [nfreq]; t host float64 [nseg] (segment centres / fs); Sxx device, x's shape
///         with axis of length nfreq plus a last axis of length nseg: float32/float64 for psd, magnitude,
///         angle and phase, complex64/complex128 for complex.
/// Asynchronous on the current stream.
/// @throws cusci::value_error as welch, and for a window array that is not 1-D or longer than the input.
/// Warns (UserWarning) for nperseg > n and for complex x with return_onesided.
/// SciPy: `scipy.signal.spectrogram`.
spectrogram_result spectrogram(const ndarray& x, const spectrogram_options& opts = {});

/// Short-time Fourier transform: the signal extended at both ends by `boundary` (nperseg / 2 samples)
/// and zero-padded to whole segments (`padded`), then the scaled spectra of its segments.
/// @param x  device [..., n, ...], real or complex.
/// @return f host float64 [nfreq]; t host float64 [nseg]; Zxx device complex64/complex128, x's shape
///         with axis of length nfreq plus a last axis of length nseg.
/// Asynchronous on the current stream.
/// @throws cusci::value_error as spectrogram, and for an even/odd boundary wider than n - 1 samples
///         (SciPy's "The extension length n ... is too big").
/// Algorithm: the boundary extension and padding are read virtually by the framing kernel (no padded
/// copy of x): one framing pass, one batched cuFFT that writes the result, one transposing pass into
/// SciPy's (..., freq, time) layout with the scale.
/// SciPy: `scipy.signal.stft` (`scaling` 'psd' is spectral_scaling::density).
stft_result stft(const ndarray& x, const stft_options& opts = {});

/// Inverse short-time Fourier transform by weighted overlap-add: each segment's inverse FFT, cropped
/// to nperseg, scaled back, multiplied by the window and summed; divided by the overlapped sum of the
/// squared window where it exceeds 1e-10; with `boundary` the nperseg / 2 extension samples are removed
/// at both ends.
/// @param Zxx  device [..., nfreq, ..., nseg, ...] (at least 2-D), complex (a real one is taken as
///             complex); complex64 gives float32 (one-sided) / complex64, anything else float64 /
///             complex128.
/// @return t host float64 (arange(x.shape[0]) / fs, as SciPy); x device, Zxx's shape without the two
///         axes plus the time axis put back at `time_axis`' place.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for Zxx.ndim < 2, equal time and frequency axes, nperseg < 1, nfft <
///         nperseg, noverlap >= nperseg, a window array that is not 1-D or not of length nperseg;
///         cusci::index_error for an axis out of range.
/// Warns (UserWarning) "NOLA condition failed, STFT may not be invertible." when the window sum is
/// <= 1e-10 anywhere in the output.
/// Algorithm: one batched inverse FFT, then one gather kernel computing every output sample's
/// overlap-add sum and window normalization (no atomics, no intermediate signal).
/// SciPy: `scipy.signal.istft`.
istft_result istft(const ndarray& Zxx, const istft_options& opts = {});

/// Whether the window satisfies the Constant OverLap-Add condition for the given overlap: the
/// overlapped window sums deviate from their median by less than `tol`.
/// @param window  a name / tuple or a host or device array (1-D, length nperseg; a device array is
///                read back: synchronizes).
/// Host only.
/// @throws cusci::value_error for nperseg < 1, noverlap >= nperseg, a window array that is not 1-D or
///         not of length nperseg.
/// SciPy: `scipy.signal.check_COLA(window, nperseg, noverlap, tol=1e-10)`.
bool check_COLA(const spectral_window& window, std::int64_t nperseg, std::int64_t noverlap, double tol = 1e-10);

/// Whether the window satisfies the Nonzero OverLap-Add condition: the overlapped sums of the squared
/// window all exceed `tol`. Host only (a device window is read back).
/// @throws cusci::value_error for nperseg < 1, noverlap >= nperseg, noverlap < 0, a window array that
///         is not 1-D or not of length nperseg.
/// SciPy: `scipy.signal.check_NOLA(window, nperseg, noverlap, tol=1e-10)`.
bool check_NOLA(const spectral_window& window, std::int64_t nperseg, std::int64_t noverlap, double tol = 1e-10);

}  // namespace cusci::signal
