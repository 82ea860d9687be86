#pragma once
/// @file short_time_fft.hpp
/// SciPy's `ShortTimeFFT` class (the short-time Fourier transform with its inverse, spectrograms and
/// the time/frequency geometry of the slices) and the free function `closest_STFT_dual_window`.
///
/// Where things live: the windows (`win`, `dual_win`) and the small per-geometry arrays (`f`, `t`) are
/// host arrays (float64 or complex128; a window has at most a few thousand points), computed
/// synchronously on the host, as every property is. The signals and their transforms are device
/// `ndarray`s of any layout, transformed along one axis and batched over the others; `stft`, `istft`
/// and `spectrogram` enqueue their work on the current stream of the current device and return without
/// synchronizing (the windows travel to the device with each call through pinned staging, a few kB).
/// Window parameters are `array_like` (filtering.hpp): a host_array, braced list or std::vector; a
/// device ndarray is copied to the host first, which synchronizes.
///
/// Index conventions (SciPy's): slice p of a signal x is centred on sample k = p * hop, i.e. it covers
/// the samples [p * hop - m_num_mid, p * hop - m_num_mid + m_num); samples outside [0, n) come from the
/// padding. Slices p_min .. p_max(n) - 1 are the ones that touch the signal.
///
/// Precision (a deviation from SciPy, which computes every transform in complex128): float32 and
/// complex64 signals (and float16) are transformed in single precision (complex64 spectra, float32
/// spectrograms, float32/complex64 istft results); float64, complex128, integer and bool signals in
/// double precision (complex128 / float64), as SciPy. The window is rounded to the signal's precision.

#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/windows.hpp"

namespace cusci::signal {

// ------------------------------------------------------------------------------------ options

/// SciPy's `fft_mode` values (`FFT_MODE_TYPE`).
enum class sft_fft_mode {
  twosided,    ///< "twosided": all mfft bins, in the order of fftfreq
  centered,    ///< "centered": all mfft bins, fftshift-ed (zero frequency in the middle)
  onesided,    ///< "onesided" (default): the mfft // 2 + 1 non-negative bins of a real signal
  onesided2X,  ///< "onesided2X": onesided with the bins other than 0 and Nyquist multiplied by 2
               ///< (scaling "magnitude") or sqrt(2) (scaling "psd")
};
/// Parses "twosided", "centered", "onesided", "onesided2X".
/// @throws cusci::value_error otherwise ("fft_mode='x' not in (...)!").
sft_fft_mode parse_sft_fft_mode(std::string_view s);

/// SciPy's `scaling` property / `scale_to` argument values.
enum class sft_scaling {
  none,       ///< None: the window as given
  magnitude,  ///< "magnitude": window scaled by 1 / |sum(win)|
  psd,        ///< "psd": window scaled by 1 / sqrt(sum(|win|^2) / T)
  unitary,    ///< "unitary" (only from_win_equals_dual): window divided by sqrt(mfft)
};
/// Parses "magnitude", "psd", "unitary" and "None" (or "").
/// @throws cusci::value_error otherwise.
sft_scaling parse_sft_scaling(std::string_view s);

/// SciPy's `padding` values (`PAD_TYPE`): how samples outside [0, n) are read.
enum class sft_padding {
  zeros,  ///< "zeros" (default): 0
  edge,   ///< "edge": the end sample repeated
  even,   ///< "even": mirrored about the end sample (numpy.pad mode 'reflect')
  odd,    ///< "odd": 2 x[end] - the even extension (numpy.pad 'reflect', reflect_type 'odd')
};
/// Parses "zeros", "edge", "even", "odd". @throws cusci::value_error otherwise.
sft_padding parse_sft_padding(std::string_view s);

/// SciPy's `detr` argument of `stft_detrend` / `spectrogram` (its callable form is not supported).
enum class sft_detrend {
  none,      ///< None: no detrending
  constant,  ///< "constant": subtract each slice's mean
  linear,    ///< "linear": subtract each slice's least-squares line
};
/// Parses "constant", "linear" and "None" (or ""). @throws cusci::value_error otherwise.
sft_detrend parse_sft_detrend(std::string_view s);

/// SciPy's `axes_seq` of `extent`.
enum class sft_axes_seq { tf, ft };
/// Parses "tf", "ft". @throws cusci::value_error otherwise ("Parameter axes_seq='x' not in ...").
sft_axes_seq parse_sft_axes_seq(std::string_view s);

/// Keyword-only arguments of the ShortTimeFFT constructor (SciPy's names and defaults).
struct short_time_fft_params {
  sft_fft_mode fft_mode = sft_fft_mode::onesided;
  /// FFT length (zero-padding each slice); default: the window length m_num; must be >= m_num.
  std::optional<std::int64_t> mfft{};
  /// A dual window (host [m_num], float or complex); default: the canonical dual, computed on demand.
  std::optional<host_array> dual_win{};
  /// none, magnitude or psd (scale_to applied after construction, as SciPy).
  sft_scaling scale_to = sft_scaling::none;
  /// Phase shift in samples (-mfft < phase_shift < mfft), or nullopt (SciPy's None: no shift).
  std::optional<std::int64_t> phase_shift = 0;
};

/// Keyword-only arguments of `from_dual` and `from_win_equals_dual` (scale_to unitary only there).
struct sft_factory_params {
  sft_fft_mode fft_mode = sft_fft_mode::onesided;
  std::optional<std::int64_t> mfft{};
  sft_scaling scale_to = sft_scaling::none;
  std::optional<std::int64_t> phase_shift = 0;
};

/// Keyword-only arguments of `from_window`.
struct sft_from_window_params {
  /// false (default): the periodic window (get_window(..., fftbins=True)); true: the symmetric one.
  bool symmetric_win = false;
  sft_fft_mode fft_mode = sft_fft_mode::onesided;
  std::optional<std::int64_t> mfft{};
  sft_scaling scale_to = sft_scaling::none;
  std::optional<std::int64_t> phase_shift = 0;
};

/// Arguments of `stft` / `stft_detrend` after x (SciPy's p0, p1 and keyword-only arguments).
struct sft_stft_options {
  std::optional<std::int64_t> p0{};  ///< first slice (default p_min)
  std::optional<std::int64_t> p1{};  ///< one past the last slice (default p_max(n))
  std::int64_t k_offset = 0;         ///< shift of every slice by k_offset samples
  sft_padding padding = sft_padding::zeros;
  int axis = -1;
};

/// Arguments of `spectrogram` after x (and y).
struct sft_spectrogram_options {
  sft_detrend detr = sft_detrend::none;
  std::optional<std::int64_t> p0{};
  std::optional<std::int64_t> p1{};
  std::int64_t k_offset = 0;
  sft_padding padding = sft_padding::zeros;
  int axis = -1;
};

/// Arguments of `istft` after S.
struct sft_istft_options {
  std::int64_t k0 = 0;              ///< first sample of the result
  std::optional<std::int64_t> k1{}; ///< one past its last sample (default: the last reconstructable one)
  int f_axis = -2;
  int t_axis = -1;
};

/// Keyword arguments of `closest_STFT_dual_window` after desired_dual.
struct closest_STFT_dual_window_options {
  /// true: the closest dual of the scaled desired_dual (alpha * desired_dual); false: alpha = 1.
  bool scaled = true;
};

// ------------------------------------------------------------------------------------ dual window

/// The dual window of `win` for `hop` closest (least squares) to alpha * desired_dual, and alpha.
/// @param win           host [m] float or complex, finite.
/// @param hop           1 <= hop <= m.
/// @param desired_dual  host [m], finite; default: ones (a window of ones).
/// @return (the dual window, host [m]: float64, or complex128 when win or desired_dual is complex;
///          alpha: 1 when not scaled, else the least-squares scale, real for real windows).
/// Host only, synchronous.
/// @throws cusci::value_error for shapes that differ or are not 1-d, non-finite entries, hop out of
///         range, an integer win, a non-invertible STFT ("Short-time Fourier Transform not
///         invertible!") and, with scaled, an unstable scale factor (SciPy's messages).
/// SciPy: `scipy.signal.closest_STFT_dual_window(win, hop, desired_dual=None, *, scaled=True)`.
/// Deviation: float32/complex64 windows are computed (and returned) in double precision, with
/// float64's resolution in the invertibility test.
std::pair<host_array, std::complex<double>> closest_STFT_dual_window(
    const array_like& win, std::int64_t hop, const std::optional<host_array>& desired_dual = std::nullopt,
    const closest_STFT_dual_window_options& opts = {});

// ------------------------------------------------------------------------------------ ShortTimeFFT

/// The short-time Fourier transform of a fixed window, hop and sampling rate: slices of m_num samples
/// every hop samples, each multiplied by conj(win), zero-padded to mfft and Fourier-transformed
/// (SciPy's definition S[q, p] = sum_k x[k] conj(win[k - p hop + m_num_mid]) exp(-2 pi i q k' / mfft),
/// with the phase of k' set by phase_shift); its inverse by the dual window's overlap-add.
///
/// The object holds host data only (windows, parameters) and may be used from any device and stream.
/// Const methods compute the canonical dual window once, on first use, without locking: do not make
/// that first call from several threads at once.
/// SciPy: `scipy.signal.ShortTimeFFT(win, hop, fs, *, fft_mode='onesided', mfft=None,
/// dual_win=None, scale_to=None, phase_shift=0)`. Deviations: the precision rule of this file's
/// header; setters are overloads (`sft.fs(8.0)` for `SFT.fs = 8.0`); windows are stored in double
/// precision (float32 windows are promoted); `x_slices` is not offered (the slices never leave the
/// GPU); detr cannot be a callable.
class ShortTimeFFT {
 public:
  /// @param win  host [m_num] (m_num >= 1), float32/float64 (stored as float64) or complex, finite;
  ///             integer windows are accepted (stored as float64) but have no canonical dual.
  /// @param hop  slice increment in samples, >= 1.
  /// @param fs   sampling frequency, > 0.
  /// @throws cusci::value_error for a window that is not 1-d or is empty or not finite, hop < 1,
  ///         fs <= 0, mfft < m_num, a dual_win of another shape or not finite, an fft_mode onesided*
  ///         with a complex window, onesided2X without scaling, phase_shift out of (-mfft, mfft),
  ///         scale_to unitary (SciPy's messages).
  ShortTimeFFT(const array_like& win, std::int64_t hop, double fs, const short_time_fft_params& p = {});

  /// An STFT whose dual window is `dual_win` (its window is the canonical dual of dual_win).
  /// @throws cusci::value_error as the constructor, and for hop > m_num or a non-invertible STFT.
  /// SciPy: `ShortTimeFFT.from_dual(dual_win, hop, fs, *, fft_mode, mfft, scale_to, phase_shift)`.
  static ShortTimeFFT from_dual(const array_like& dual_win, std::int64_t hop, double fs,
                                const sft_factory_params& p = {});

  /// An STFT with the window get_window(win_param, nperseg, fftbins = !symmetric_win) and
  /// hop = nperseg - noverlap.
  /// @throws cusci::value_error from get_window and the constructor (nperseg - noverlap < 1).
  /// SciPy: `ShortTimeFFT.from_window(win_param, fs, nperseg, noverlap, *, symmetric_win=False,
  /// fft_mode, mfft, scale_to, phase_shift)`.
  static ShortTimeFFT from_window(const window_spec& win_param, double fs, std::int64_t nperseg,
                                  std::int64_t noverlap, const sft_from_window_params& p = {});

  /// An STFT whose window equals its dual window, as close as possible to desired_win (each
  /// hop-decimated subsequence of desired_win normalized to unit norm); scale_to unitary divides the
  /// window (and multiplies the dual) by sqrt(mfft).
  /// @throws cusci::value_error for a window that is not 1-d, empty, integer or not finite, hop out of
  ///         [1, m_num], no valid dual window, and as the constructor.
  /// SciPy: `ShortTimeFFT.from_win_equals_dual(desired_win, hop, fs, *, fft_mode, mfft, scale_to,
  /// phase_shift)`.
  static ShortTimeFFT from_win_equals_dual(const array_like& desired_win, std::int64_t hop, double fs,
                                           const sft_factory_params& p = {});

  // --- properties (host, synchronous) ------------------------------------------------------------
  /// The window, host [m_num] float64 or complex128 (scaled by scale_to).
  const host_array& win() const noexcept { return win_; }
  /// The dual window, host [m_num]: the one given, or the canonical dual win / DD computed on first
  /// use. @throws cusci::value_error when the STFT is not invertible (SciPy's messages).
  const host_array& dual_win() const;
  /// Whether a dual window exists (false where dual_win throws).
  bool invertible() const;
  std::int64_t hop() const noexcept { return hop_; }
  /// Sampling interval 1 / fs. Setter: @throws cusci::value_error for v <= 0.
  double T() const noexcept { return 1.0 / fs_; }
  void T(double v);
  /// Sampling frequency. Setter: @throws cusci::value_error for v <= 0.
  double fs() const noexcept { return fs_; }
  void fs(double v);
  sft_fft_mode fft_mode() const noexcept { return fft_mode_; }
  /// @throws cusci::value_error for onesided* with a complex window or onesided2X without scaling.
  void fft_mode(sft_fft_mode t);
  std::int64_t mfft() const noexcept { return mfft_; }
  /// @throws cusci::value_error for n < m_num.
  void mfft(std::int64_t n);
  sft_scaling scaling() const noexcept { return scaling_; }
  /// Scales the window (and divides the dual window) so that the spectra have "magnitude" or "psd"
  /// scaling; nothing when already so. @throws cusci::value_error for none or unitary.
  void scale_to(sft_scaling scaling);
  std::optional<std::int64_t> phase_shift() const noexcept { return phase_shift_; }
  /// @throws cusci::value_error unless -mfft < v < mfft.
  void phase_shift(std::optional<std::int64_t> v);
  /// 1 / |sum(win)| (1 when scaling is magnitude).
  double fac_magnitude() const;
  /// 1 / sqrt(sum(|win|^2) / T) (1 when scaling is psd).
  double fac_psd() const;
  std::int64_t m_num() const noexcept { return m_num_; }
  std::int64_t m_num_mid() const noexcept { return m_num_ / 2; }
  /// Smallest sample index of the slices that touch the signal (<= 0).
  std::int64_t k_min() const { return pre_padding().first; }
  /// Index of the first slice that touches the signal (<= 0).
  std::int64_t p_min() const { return pre_padding().second; }
  /// One past the largest sample index of the slices touching a signal of n samples.
  /// @throws cusci::value_error for n < ceil(m_num / 2).
  std::int64_t k_max(std::int64_t n) const { return post_padding(n).first; }
  /// One past the last slice touching a signal of n samples. @throws as k_max.
  std::int64_t p_max(std::int64_t n) const { return post_padding(n).second; }
  /// Number of slices: p_max(n) - p_min. @throws as k_max.
  std::int64_t p_num(std::int64_t n) const { return p_max(n) - p_min(); }
  /// (first sample, first slice) not touched by the padding at the signal's start.
  /// @throws cusci::index_error for a window of zeros only (SciPy's IndexError).
  std::pair<std::int64_t, std::int64_t> lower_border_end() const;
  /// (first sample, first slice) touched by the padding at the end of a signal of n samples.
  /// @throws cusci::value_error for n < ceil(m_num / 2).
  std::pair<std::int64_t, std::int64_t> upper_border_begin(std::int64_t n) const;
  /// Time between slices: T * hop.
  double delta_t() const noexcept { return T() * static_cast<double>(hop_); }
  /// (p0, p1) with the defaults p_min, p_max(n) filled in.
  /// @throws cusci::value_error unless p_min <= p0 < p1 <= p_max(n).
  std::pair<std::int64_t, std::int64_t> p_range(std::int64_t n, std::optional<std::int64_t> p0 = std::nullopt,
                                                std::optional<std::int64_t> p1 = std::nullopt) const;
  /// Times of the slices p0 .. p1-1: p * delta_t + k_offset * T. Host float64 [p1 - p0].
  /// @throws cusci::value_error for n <= 0 and as p_range.
  host_array t(std::int64_t n, std::optional<std::int64_t> p0 = std::nullopt,
               std::optional<std::int64_t> p1 = std::nullopt, std::int64_t k_offset = 0) const;
  /// k rounded down (left) or up to a multiple of hop.
  std::int64_t nearest_k_p(std::int64_t k, bool left = true) const noexcept;
  /// Frequency resolution 1 / (mfft * T).
  double delta_f() const noexcept { return 1.0 / (static_cast<double>(mfft_) * T()); }
  /// Number of frequency bins: mfft // 2 + 1 for onesided*, else mfft.
  std::int64_t f_pts() const noexcept { return onesided_fft() ? mfft_ / 2 + 1 : mfft_; }
  bool onesided_fft() const noexcept {
    return fft_mode_ == sft_fft_mode::onesided || fft_mode_ == sft_fft_mode::onesided2X;
  }
  /// Frequencies of the bins (rfftfreq / fftfreq / fftshift(fftfreq) of mfft, T). Host float64 [f_pts].
  host_array f() const;
  /// (t0, t1, f0, f1) (or (f0, f1, t0, t1) for ft) bounding the spectrogram of n samples, for plots.
  /// @throws cusci::value_error for fft_mode twosided and as p_max.
  std::array<double, 4> extent(std::int64_t n, sft_axes_seq axes_seq = sft_axes_seq::tf,
                               bool center_bins = false) const;

  // --- transforms (device, asynchronous) ---------------------------------------------------------
  /// The STFT of x along `axis`.
  /// @param x  [..., n, ...] float16/32/64, integer, bool, or (twosided/centered only) complex64/128;
  ///           any layout; n >= ceil(m_num / 2).
  /// @return complex [..., f_pts, ..., p1 - p0]: the axis replaced by the f_pts bins and the slices
  ///         appended last (SciPy's layout; C-contiguous for axis -1); complex64 for single precision
  ///         input, else complex128.
  /// Asynchronous on the current stream.
  /// @throws cusci::value_error for complex x with onesided*, n too short, bad p0/p1;
  ///         cusci::index_error for a 0-d x or an axis out of range.
  /// SciPy: `ShortTimeFFT.stft(x, p0=None, p1=None, *, k_offset=0, padding='zeros', axis=-1)`.
  ndarray stft(const ndarray& x, const sft_stft_options& opts = {}) const;
  /// stft with each slice detrended (before the window). As stft.
  /// SciPy: `ShortTimeFFT.stft_detrend(x, detr, p0=None, p1=None, *, k_offset=0, padding='zeros',
  /// axis=-1)` (detr: a string or None).
  ndarray stft_detrend(const ndarray& x, sft_detrend detr, const sft_stft_options& opts = {}) const;
  /// |stft(x)|^2: real [..., f_pts, ..., p1 - p0], float32 for single precision input, else float64.
  /// As stft. SciPy: `ShortTimeFFT.spectrogram(x, y=None, detr=None, *, p0, p1, k_offset, padding,
  /// axis)`.
  ndarray spectrogram(const ndarray& x, const sft_spectrogram_options& opts = {}) const;
  /// The cross-spectrogram stft(x) * conj(stft(y)): complex, as stft; x and y of one shape (complex64
  /// only when both are single precision).
  /// @throws as stft, and cusci::value_error when the shapes differ.
  ndarray spectrogram(const ndarray& x, const ndarray& y, const sft_spectrogram_options& opts = {}) const;
  /// The inverse STFT: the samples k0 .. k1-1 of the signal whose STFT is S.
  /// @param S  [..., f_pts (f_axis), ..., q (t_axis) ...] real or complex, any layout;
  ///           q >= p_num(ceil(m_num / 2)); its slice 0 is slice p_min.
  /// @return [..., k1 - k0, ...] (the f axis replaced by the samples, the t axis removed; as SciPy):
  ///         real for onesided* (float32 for single precision S, else float64), else complex.
  /// Asynchronous on the current stream.
  /// @throws cusci::value_error for f_axis == t_axis, S.shape[f_axis] != f_pts, too few slices,
  ///         k0/k1 out of range, a non-invertible STFT; cusci::index_error for an axis out of range or
  ///         an S of fewer than 2 dimensions.
  /// SciPy: `ShortTimeFFT.istft(S, k0=0, k1=None, *, f_axis=-2, t_axis=-1)`.
  ndarray istft(const ndarray& S, const sft_istft_options& opts = {}) const;

 private:
  std::pair<std::int64_t, std::int64_t> pre_padding() const;
  std::pair<std::int64_t, std::int64_t> post_padding(std::int64_t n) const;
  ndarray transform(const ndarray& x, const ndarray* y, sft_detrend detr, const sft_stft_options& o,
                    int mode, const char* fn) const;

  host_array win_;  ///< float64 or complex128 [m_num]
  bool win_integer_ = false;
  std::int64_t m_num_ = 0, hop_ = 1, mfft_ = 0;
  double fs_ = 1.0;
  sft_fft_mode fft_mode_ = sft_fft_mode::onesided;
  sft_scaling scaling_ = sft_scaling::none;
  std::optional<std::int64_t> phase_shift_ = 0;
  mutable std::optional<host_array> dual_win_{};
  mutable std::optional<double> fac_mag_{}, fac_psd_{};
};

}  // namespace cusci::signal
