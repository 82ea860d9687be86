#pragma once
/// @file filter_design.hpp
/// Digital and analog filter design on the host, in double precision, with SciPy's semantics:
/// `firwin` (window method FIR design), `butter` (Butterworth IIR design through SciPy's
/// `iirfilter` pipeline; the other IIR designs are in iir_design.hpp) and the conversions it uses
/// (`zpk2tf`, `zpk2sos`), plus the steady-state initial conditions `lfilter_zi` / `sosfilt_zi`.
/// Nothing here touches the GPU: every function is synchronous host code and returns
/// `cusci::host_array` results with SciPy's dtypes (float64 or complex128).
/// Array parameters are `array_like` (filtering.hpp): a host_array, a scalar (0-d), a braced list
/// `{1.0, -0.5}` or a std::vector; a device ndarray is copied to the host first, which synchronizes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/windows.hpp"

namespace cusci::signal {

/// Band type of a filter (SciPy's `btype`).
enum class band_type { lowpass, highpass, bandpass, bandstop };

/// Parses SciPy's `btype` strings with the aliases of `scipy.signal._filter_design.band_dict`
/// ('band', 'bandpass', 'pass', 'bp', 'bs', 'bandstop', 'bands', 'stop', 'l', 'low', 'lowpass', 'lp',
/// 'high', 'highpass', 'h', 'hp'); case-insensitive as `iirfilter` lowers it.
/// @throws cusci::value_error for any other string ("'x' is an invalid bandtype for filter.").
band_type parse_band_type(std::string_view s);

/// The form in which an IIR design is returned (SciPy's `output`).
enum class output_form { ba, zpk, sos };
/// Parses 'ba', 'zpk', 'sos' (case-insensitive). @throws cusci::value_error otherwise.
output_form parse_output_form(std::string_view s);

/// Pole/zero pairing of `zpk2sos` (SciPy's `pairing`).
enum class sos_pairing { nearest, keep_odd, minimal };
/// Parses 'nearest', 'keep_odd', 'minimal'. @throws cusci::value_error otherwise.
sos_pairing parse_sos_pairing(std::string_view s);

/// SciPy's `pass_zero` of `firwin`: `true` / `false`, or one of the strings 'bandpass', 'lowpass',
/// 'highpass', 'bandstop' (validated by `firwin`), or a `band_type`.
struct pass_zero_spec {
  pass_zero_spec(bool v) : is_bool(true), value(v) {}
  pass_zero_spec(band_type b) : is_bool(false), band(b) {}
  pass_zero_spec(const char* s) : is_bool(false), text(s) {}
  pass_zero_spec(std::string s) : is_bool(false), text(std::move(s)) {}
  bool is_bool = true;
  bool value = true;
  std::optional<band_type> band{};
  std::string text{};
};

/// Keyword arguments of `firwin`, with SciPy's names and defaults.
struct firwin_options {
  /// Approximate transition width (units of `fs`); when set, a Kaiser window is designed from it
  /// (`kaiser_atten` / `kaiser_beta`) and `window` is ignored.
  std::optional<double> width{};
  window_spec window = "hamming";
  pass_zero_spec pass_zero = true;
  /// Scale so that the response is exactly 1 at DC, at Nyquist, or at the centre of the first
  /// passband.
  bool scale = true;
  /// Sampling frequency; default 2 (so cutoffs are fractions of Nyquist).
  std::optional<double> fs{};
};

/// FIR filter design by the window method.
/// @param numtaps  number of coefficients (filter order + 1); must be odd when a passband includes
///                 Nyquist; > 0.
/// @param cutoff   [n_edges] band edges in the units of `fs`, strictly increasing in (0, fs/2).
/// @return [numtaps] float64 coefficients. Host only, synchronous.
/// @throws cusci::value_error for every condition SciPy rejects (empty cutoff, cutoff out of
///         (0, fs/2) or not increasing, pass_zero string inconsistent with the number of cutoffs,
///         an even numtaps with a passband at Nyquist, numtaps <= 0, an unknown or unsupported window
///         name, a wrong number of window parameters); cusci::out_of_memory (SciPy's MemoryError) at once
///         for more numtaps float64 taps than the host's memory.
/// SciPy: `scipy.signal.firwin`. Windows outside the list of `window_spec` (chebwin, dpss, taylor,
/// gaussian, ...) are rejected with value_error.
host_array firwin(std::int64_t numtaps, const std::vector<double>& cutoff, const firwin_options& opts = {});
host_array firwin(std::int64_t numtaps, double cutoff, const firwin_options& opts = {});

/// `kaiser_beta(a)`: the Kaiser window beta for a stopband attenuation of `a` dB.
/// SciPy: `scipy.signal.kaiser_beta`.
double kaiser_beta(double a);
/// `kaiser_atten(numtaps, width)`: Kaiser's attenuation formula, width as a fraction of Nyquist.
/// SciPy: `scipy.signal.kaiser_atten`.
double kaiser_atten(std::int64_t numtaps, double width);

/// Keyword arguments of `butter`, with SciPy's names and defaults.
struct butter_options {
  band_type btype = band_type::lowpass;
  bool analog = false;
  output_form output = output_form::ba;
  /// Sampling frequency of a digital filter (Wn in the same units); unset: Wn in half-cycles/sample.
  std::optional<double> fs{};
};

/// Transfer-function coefficients `b` / `a` (1-D; float64, or complex128 where SciPy's are complex).
struct ba_coeffs {
  host_array b, a;
};

/// Zeros, poles (1-D) and gain. Each array is float64 or complex128 with the dtype SciPy's array has:
/// e.g. the zeros of a Butterworth / Chebyshev I / Bessel low-pass or high-pass design are float64
/// (SciPy's prototypes have float64 zero arrays), those of band designs complex128; poles are complex128.
struct zpk_coeffs {
  host_array z, p;
  double k = 0.0;
};

/// The result of an IIR design; the fields of the requested `output` are set, the others empty.
struct iir_filter {
  output_form output = output_form::ba;
  host_array b, a;    ///< output == ba: [N+1] (or [2N+1] for band filters), float64 (as SciPy)
  host_array z, p;    ///< output == zpk: float64 or complex128, as SciPy's arrays (see zpk_coeffs)
  double k = 0.0;     ///< output == zpk: gain
  host_array sos;     ///< output == sos: [n_sections, 6] float64
  ba_coeffs ba() const { return {b, a}; }
  zpk_coeffs zpk() const { return {z, p, k}; }
};

/// Butterworth digital or analog filter design (SciPy's `iirfilter` with ftype='butter': analog
/// prototype `buttap`, frequency transformation `lp2lp_zpk` / `lp2hp_zpk` / `lp2bp_zpk` /
/// `lp2bs_zpk`, pre-warping and `bilinear_zpk` for digital filters, then `zpk2tf` or `zpk2sos`).
/// @param N   filter order, >= 0.
/// @param Wn  critical frequency [1] (lowpass/highpass) or band edges [2] (bandpass/bandstop); for
///            digital filters in (0, 1) half-cycles/sample, or in (0, fs/2) when fs is given; for
///            analog filters in rad/s.
/// @return an `iir_filter` with the `output` form filled in; 'zpk' zeros are float64 for lowpass /
///         highpass and complex128 for band filters, poles complex128, as SciPy. Host only, synchronous.
/// @throws cusci::value_error for N < 0, fs with analog, Wn <= 0, Wn[0] >= Wn[1], digital Wn >= 1
///         (>= fs/2), a wrong number of frequencies for the band type (SciPy's messages).
/// SciPy: `scipy.signal.butter` (= iirfilter(ftype='butter'), see iir_design.hpp).
iir_filter butter(int N, const std::vector<double>& Wn, const butter_options& opts = {});
iir_filter butter(int N, double Wn, const butter_options& opts = {});

/// Zeros/poles/gain to transfer function: b = k * poly(z), a = poly(p), in complex arithmetic; each is
/// returned real (float64) when its roots come in conjugate pairs and complex128 otherwise, as SciPy.
/// @param z, p  [n] any real or complex dtype.
/// @throws cusci::value_error for z or p of more than one dimension.
/// SciPy: `scipy.signal.zpk2tf` (1-D z and scalar k; the N-D form is in conversions.hpp).
ba_coeffs zpk2tf(const array_like& z, const array_like& p, double k);

/// Keyword arguments of `zpk2sos`.
struct zpk2sos_options {
  /// Default: 'nearest' for digital, 'minimal' for analog filters (SciPy's `pairing=None`).
  std::optional<sos_pairing> pairing{};
  bool analog = false;
};

/// Zeros/poles/gain to second-order sections, with SciPy's pairing algorithm and section order (the
/// poles closest to the unit circle, or to the imaginary axis for analog filters, go last) and the
/// gain in the first section.
/// @return [n_sections, 6] float64. Host only.
/// @throws cusci::value_error for an analog conversion with a pairing other than 'minimal', fewer
///         poles than zeros with 'minimal', complex values without a matching conjugate.
/// SciPy: `scipy.signal.zpk2sos`.
host_array zpk2sos(const array_like& z, const array_like& p, double k, const zpk2sos_options& opts = {});

/// Initial state of `lfilter` for the steady state of a unit step input.
/// @param b, a  [nb], [na] any real or complex dtype; a[0] != 0.
/// @return [max(nb, na) - 1], dtype `np.result_type(b, a)` made inexact (float32 when both are float32,
///         else float64; complex64 / complex128 for complex coefficients), as SciPy. Host only.
///         Computed as SciPy computes it (the closed form cumsum(b - y_inf a) with y_inf = sum(b) /
///         sum(a)), with NumPy's pairwise order for the sums, so that filters with poles near z = 1,
///         where sum(a) is tiny, round as SciPy's do. To start a filter in the steady state of a
///         signal, multiply by its first sample on the device, as SciPy's `zi * x[0]`:
///         `cusci::asarray(lfilter_zi(b, a)) * x[{0}]` is a device array `lfilter` accepts as `zi`.
/// @throws cusci::value_error when b or a is empty or not 1-D, a[0] == 0, or sum(a) == 0.
/// SciPy: `scipy.signal.lfilter_zi`.
host_array lfilter_zi(const array_like& b, const array_like& a);

/// Initial state of `sosfilt` for the steady state of a unit step input.
/// @param sos  [n_sections, 6] any real or complex dtype.
/// @return [n_sections, 2] float64 (float32 for a float32 `sos`, complex128 / complex64 for a complex
///         one, as SciPy keeps sos's dtype).
/// @throws cusci::value_error for a shape other than (n_sections, 6), or as lfilter_zi per section.
/// SciPy: `scipy.signal.sosfilt_zi`.
host_array sosfilt_zi(const array_like& sos);

}  // namespace cusci::signal
