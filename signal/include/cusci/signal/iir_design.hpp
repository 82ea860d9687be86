#pragma once
/// @file iir_design.hpp
/// IIR filter design on the host (double precision), with SciPy 1.18's names, parameters, defaults,
/// algorithms and output dtypes: the general designer `iirfilter` and `iirdesign`, the analog low-pass
/// prototypes (`buttap`, `cheb1ap`, `cheb2ap`, `ellipap`, `besselap`), the designs `cheby1`, `cheby2`,
/// `ellip`, `bessel` (`butter` is declared in filter_design.hpp), order selection (`buttord`,
/// `cheb1ord`, `cheb2ord`, `ellipord`, `band_stop_obj`) and the second-order / comb / auditory designs
/// `iirnotch`, `iirpeak`, `iircomb`, `gammatone`.
///
/// Where results live: designs are small, so every function here is synchronous host code and returns
/// `cusci::host_array` results (SciPy computes them in NumPy on the CPU too). Every filtering function
/// (`lfilter`, `sosfilt`, `filtfilt`, ...) accepts these arrays directly.
///
/// Output dtypes are SciPy's: 'ba' and 'sos' coefficients are float64 (a 'ba' polynomial is complex128
/// only when numpy.poly would return complex, i.e. its roots are not closed under conjugation, which
/// the designs here do not produce); 'zpk' zeros are float64 for low-pass / high-pass designs from the
/// Butterworth, Chebyshev I and Bessel prototypes (whose zero arrays are float64) and complex128
/// otherwise (Chebyshev II, elliptic, and every band-pass / band-stop design); poles are complex128.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/signal/filter_design.hpp"

namespace cusci::signal {

// ------------------------------------------------------------------------------------------------
// Options and string parsers

/// The type of IIR filter of `iirfilter` / `iirdesign` (SciPy's `ftype`).
enum class iir_ftype { butter, cheby1, cheby2, ellip, bessel_phase, bessel_delay, bessel_mag };

/// Parses SciPy's `ftype` strings with the aliases of `scipy.signal._filter_design.filter_dict`:
/// 'butter', 'butterworth'; 'cheby1', 'chebyshev1', 'chebyshevi'; 'cheby2', 'chebyshev2',
/// 'chebyshevii'; 'ellip', 'elliptic', 'cauer'; 'bessel' (= 'bessel_phase'), 'bessel_phase',
/// 'bessel_delay', 'bessel_mag'. Case-insensitive, as iirfilter lowers it.
/// @throws cusci::value_error otherwise ("'x' is not a valid basic IIR filter.").
iir_ftype parse_iir_ftype(std::string_view s);

/// Keyword arguments of `iirfilter`, with SciPy's names and defaults (note btype defaults to
/// 'bandpass' here, as SciPy's iirfilter).
struct iirfilter_options {
  /// Passband ripple in dB (Chebyshev I and elliptic), >= 0; required by those types.
  std::optional<double> rp{};
  /// Stopband attenuation in dB (Chebyshev II and elliptic), >= 0; required by those types.
  std::optional<double> rs{};
  band_type btype = band_type::bandpass;
  bool analog = false;
  iir_ftype ftype = iir_ftype::butter;
  output_form output = output_form::ba;
  /// Sampling frequency of a digital filter (Wn in the same units); unset: Wn in half-cycles/sample.
  std::optional<double> fs{};
};

/// Normalization of the Bessel/Thomson filter (SciPy's `norm`).
enum class bessel_norm { phase, delay, mag };
/// Parses 'phase', 'delay', 'mag'. @throws cusci::value_error ("normalization not understood").
bessel_norm parse_bessel_norm(std::string_view s);

/// Keyword arguments of `cheby1` / `cheby2` / `ellip` (SciPy's btype, analog, output, fs; the same
/// fields and defaults as `butter`: btype lowpass).
using cheby1_options = butter_options;
using cheby2_options = butter_options;
using ellip_options = butter_options;

/// Keyword arguments of `bessel`, with SciPy's names and defaults.
struct bessel_options {
  band_type btype = band_type::lowpass;
  bool analog = false;
  output_form output = output_form::ba;
  bessel_norm norm = bessel_norm::phase;
  std::optional<double> fs{};
};

// ------------------------------------------------------------------------------------------------
// The general designer

/// IIR digital or analog filter design of order N from critical frequencies: analog low-pass prototype
/// of `ftype`, frequency transformation (lp2lp / lp2hp / lp2bp / lp2bs; band filters use sqrt(Wn0 Wn1)
/// and Wn1 - Wn0), pre-warping (2 fs tan(pi Wn / fs) with fs = 2) and the bilinear transform for digital
/// filters, then the output form (ba through zpk2tf, sos through zpk2sos).
/// @param N   filter order, >= 0 (a band filter has order 2N).
/// @param Wn  [1] (lowpass / highpass) or [2+] (bandpass / bandstop: Wn[0], Wn[1]) critical
///            frequencies: digital in (0, 1) half-cycles/sample, or (0, fs/2) with fs; analog in rad/s.
/// @return an `iir_filter` with the requested output form (dtypes: see the file comment). Host only,
///         synchronous.
/// @throws cusci::value_error, in SciPy's order: fs with analog; Wn <= 0; Wn[0] >= Wn[1]; rp < 0;
///         rs < 0; rp / rs missing for the types that need them; N < 0; digital Wn >= 1 (>= fs/2);
///         a wrong number of frequencies for the band type.
/// SciPy: `scipy.signal.iirfilter`. Deviation: ftype / btype / output are enums (parsers take SciPy's
/// strings).
iir_filter iirfilter(int N, const std::vector<double>& Wn, const iirfilter_options& opts = {});
iir_filter iirfilter(int N, double Wn, const iirfilter_options& opts = {});

// ------------------------------------------------------------------------------------------------
// Analog prototypes (cutoff 1 rad/s)

/// Analog Butterworth low-pass prototype of order N: poles -exp(i pi m / (2N)), m = -N+1, -N+3, ...,
/// N-1; no zeros; k = 1.
/// @return z [0] float64, p [N] complex128, k. @throws cusci::value_error for N < 0.
/// SciPy: `scipy.signal.buttap`.
zpk_coeffs buttap(int N);

/// Analog Chebyshev type I low-pass prototype of order N with `rp` dB of passband ripple, cutoff
/// 1 rad/s (where the gain first drops below -rp dB).
/// @return z [0] float64, p [N] complex128, k (N == 0: 10^(-rp / 20)).
/// @throws cusci::value_error for N < 0 ("Filter order must be a nonnegative integer").
/// SciPy: `scipy.signal.cheb1ap`.
zpk_coeffs cheb1ap(int N, double rp);

/// Analog Chebyshev type II low-pass prototype of order N with `rs` dB of stopband attenuation,
/// stopband edge 1 rad/s.
/// @return z [N or N - 1] and p [N] complex128, k.
/// @throws cusci::value_error for N < 0. SciPy: `scipy.signal.cheb2ap`.
zpk_coeffs cheb2ap(int N, double rs);

/// Analog elliptic (Cauer) low-pass prototype of order N, `rp` dB passband ripple, `rs` dB stopband
/// attenuation, passband edge 1 rad/s. Orfanidis' method as SciPy: degree equation by Jacobi's nome
/// series (7 terms), zeros and poles from Jacobi elliptic functions (cephes ellpj, descending Landen),
/// the inverse sn / sc by Landen transformations; K and K' by the arithmetic-geometric mean.
/// @return z [2 floor(N/2)] and p [N] complex128, k (N == 0: 10^(-rp / 20)).
/// @throws cusci::value_error for N < 0, for rp / rs that make the selectivity underflow to 0 ("Cannot
///         design a filter with given rp and rs specifications."), or when the Landen recursion does not
///         converge. SciPy: `scipy.signal.ellipap`.
zpk_coeffs ellipap(int N, double rp, double rs);

/// Analog Bessel/Thomson low-pass prototype of order N. The poles are the reciprocals of the zeros of the
/// Bessel polynomial, found as SciPy does: Campos-Calderon start values, Aberth-Ehrlich iteration on
/// exp(1/x) K_{N+1/2}(1/x), a Newton polish of each zero (both to 1e-15), conjugate averaging and the
/// check that the zeros sum to -1. K_{N+1/2} is evaluated without cancellation (for Re x < 0 as an
/// I-part by continued fraction and backward recurrence plus a K-part by forward recurrence, the
/// analytic continuation AMOS uses), so every order SciPy handles (1 to 84) converges and agrees with
/// SciPy to ~1e-14 (poles; k of 'mag' ~1e-12). `norm`: 'phase' (phase midpoint at 1 rad/s, Butterworth asymptotes, k = 1),
/// 'delay' (unit group delay at DC, k = (2N-1)!!), 'mag' (-3 dB at 1 rad/s, by a secant solve from 1.5).
/// @return z [0] float64, p [N] complex128, k.
/// @throws cusci::value_error for N < 0; cusci::runtime_error when the zeros do not converge (SciPy's
///         RuntimeError / Exception), and for every N > 84, where SciPy's kve (AMOS) breaks down and
///         SciPy raises (85: "Zeros failed to converge", 86: "Generated zeros are inaccurate", above:
///         "Root-finding calculation failed"; docs/signal-iir.md). SciPy: `scipy.signal.besselap`.
zpk_coeffs besselap(int N, bessel_norm norm = bessel_norm::phase);

// ------------------------------------------------------------------------------------------------
// Designs (iirfilter with a fixed ftype; parameters and checks as iirfilter)

/// Chebyshev type I digital or analog filter design: `rp` dB passband ripple (>= 0), Wn the passband
/// edge(s). SciPy: `scipy.signal.cheby1`.
iir_filter cheby1(int N, double rp, const std::vector<double>& Wn, const cheby1_options& opts = {});
iir_filter cheby1(int N, double rp, double Wn, const cheby1_options& opts = {});

/// Chebyshev type II digital or analog filter design; `rs` is the stopband attenuation in dB, >= 0,
/// Wn the stopband edge(s). SciPy: `scipy.signal.cheby2`.
iir_filter cheby2(int N, double rs, const std::vector<double>& Wn, const cheby2_options& opts = {});
iir_filter cheby2(int N, double rs, double Wn, const cheby2_options& opts = {});

/// Elliptic (Cauer) digital or analog filter design: `rp` dB passband ripple, `rs` dB stopband
/// attenuation, Wn the passband edge(s). SciPy: `scipy.signal.ellip`.
iir_filter ellip(int N, double rp, double rs, const std::vector<double>& Wn, const ellip_options& opts = {});
iir_filter ellip(int N, double rp, double rs, double Wn, const ellip_options& opts = {});

/// Bessel/Thomson digital or analog filter design (ftype 'bessel_' + norm). With norm 'phase' Wn is
/// where the phase reaches half its final value, with 'delay' the inverse of the group delay, with
/// 'mag' the -3 dB frequency. SciPy: `scipy.signal.bessel`.
iir_filter bessel(int N, const std::vector<double>& Wn, const bessel_options& opts = {});
iir_filter bessel(int N, double Wn, const bessel_options& opts = {});

// ------------------------------------------------------------------------------------------------
// Order selection

/// Keyword arguments of `buttord` / `cheb1ord` / `cheb2ord` / `ellipord`.
struct iirord_options {
  bool analog = false;
  std::optional<double> fs{};
};

/// The result of an order selection: the lowest order N meeting the specification and the natural
/// frequencies Wn to pass to the design. `Wn` has one element for lowpass / highpass (SciPy returns a
/// scalar there) and two for bandpass / bandstop; in the units of fs for digital filters with fs,
/// half-cycles/sample without, rad/s for analog ones.
struct iir_order {
  int N = 0;
  std::vector<double> Wn;
};

/// Butterworth order selection. The band type follows from wp / ws as SciPy's: one frequency each,
/// lowpass when wp < ws, highpass otherwise; two each, bandstop when wp[0] < ws[0], else bandpass.
/// For a bandstop the passband edges are first moved by bounded Brent minimizations (fminbound,
/// xtol 1e-5, maxfun 500) of `band_stop_obj`, as SciPy.
/// @param wp, ws   [1] or [2] passband and stopband edge frequencies (digital: as Wn; analog: rad/s).
/// @param gpass    maximum passband loss (dB), > 0.   @param gstop  minimum stopband attenuation (dB).
/// @throws cusci::value_error for gpass <= 0, gstop <= 0, gpass > gstop, fs with analog, wp / ws of
///         different lengths or more than two elements, bandstop edges where fminbound's bounds are
///         reversed, and specifications whose order is not a finite number (SciPy's ValueError /
///         OverflowError / ZeroDivisionError of int(), math.log10, division). An order of 0 warns
///         "RuntimeWarning" ("Order is zero...check input parameters.") through cusci::warn.
/// SciPy: `scipy.signal.buttord`. Deviation: wp / ws of different lengths raise value_error (SciPy
/// fails in NumPy broadcasting).
iir_order buttord(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                  const iirord_options& opts = {});
iir_order buttord(double wp, double ws, double gpass, double gstop, const iirord_options& opts = {});

/// Chebyshev type I order selection; Wn are the passband edges. As `buttord` otherwise.
/// SciPy: `scipy.signal.cheb1ord`.
iir_order cheb1ord(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                   const iirord_options& opts = {});
iir_order cheb1ord(double wp, double ws, double gpass, double gstop, const iirord_options& opts = {});

/// Chebyshev type II order selection; Wn is the critical (stopband-edge) frequency to pass to `cheby2`
/// so that the response is exactly -gpass dB at the passband edge(s). As `buttord` otherwise.
/// SciPy: `scipy.signal.cheb2ord`.
iir_order cheb2ord(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                   const iirord_options& opts = {});
iir_order cheb2ord(double wp, double ws, double gpass, double gstop, const iirord_options& opts = {});

/// Elliptic order selection (complete elliptic integrals by the AGM); Wn are the passband edges.
/// As `buttord` otherwise. SciPy: `scipy.signal.ellipord`.
iir_order ellipord(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                   const iirord_options& opts = {});
iir_order ellipord(double wp, double ws, double gpass, double gstop, const iirord_options& opts = {});

/// The filter type of `band_stop_obj` (SciPy's `type`).
enum class band_stop_type { butter, cheby, ellip };
/// Parses 'butter', 'cheby', 'ellip'. @throws cusci::value_error ("Incorrect type: x").
band_stop_type parse_band_stop_type(std::string_view s);

/// The order a bandstop filter needs when passband edge `ind` (0 or 1) is moved to `wp`: the objective
/// the ord functions minimize.
/// @param passb, stopb  [2] analog passband and stopband edges.
/// @return the (non-integer) order.
/// @throws cusci::value_error for the gpass / gstop checks of `buttord`, ind not 0 or 1, passb / stopb
///         not of length 2. SciPy: `scipy.signal.band_stop_obj`.
double band_stop_obj(double wp, int ind, const std::vector<double>& passb, const std::vector<double>& stopb,
                     double gpass, double gstop, band_stop_type type);

/// Keyword arguments of `iirdesign`, with SciPy's names and defaults (ftype elliptic).
struct iirdesign_options {
  bool analog = false;
  iir_ftype ftype = iir_ftype::ellip;
  output_form output = output_form::ba;
  std::optional<double> fs{};
};

/// Complete IIR design from passband / stopband specifications: the order selection of `ftype`
/// (buttord / cheb1ord / cheb2ord / ellipord), then `iirfilter` with rp = gpass, rs = gstop.
/// @param wp, ws  [1] or [2] each, same length; digital values in (0, 1) (or (0, fs/2)); for two,
///                the passband inside the stopband or vice versa.
/// @throws cusci::value_error for a Bessel ftype ("bessel does not have order selection. Use
///         iirfilter function."), the gpass / gstop checks, wp / ws of different or wrong lengths,
///         values <= 0, digital values >= 1 (fs/2), bands that do not nest strictly, and what the order
///         selection and iirfilter raise. SciPy: `scipy.signal.iirdesign`.
iir_filter iirdesign(const std::vector<double>& wp, const std::vector<double>& ws, double gpass, double gstop,
                     const iirdesign_options& opts = {});
iir_filter iirdesign(double wp, double ws, double gpass, double gstop, const iirdesign_options& opts = {});

// ------------------------------------------------------------------------------------------------
// Notch, peak, comb and gammatone filters

/// Second-order IIR notch filter at `w0` with quality factor `Q` (-3 dB bandwidth w0 / Q).
/// @param w0  frequency to remove, in [0, fs/2] (units of fs).   @param fs  sampling frequency.
/// @return b [3], a [3] float64. @throws cusci::value_error for w0 outside [0, fs/2]
///         ("w0 should be such that 0 < w0 < 1"). SciPy: `scipy.signal.iirnotch`.
ba_coeffs iirnotch(double w0, double Q, double fs = 2.0);

/// Second-order IIR peak (resonator) filter at `w0` with quality factor `Q`. As `iirnotch`.
/// SciPy: `scipy.signal.iirpeak`.
ba_coeffs iirpeak(double w0, double Q, double fs = 2.0);

/// The type of `iircomb` (SciPy's `ftype`).
enum class comb_type { notch, peak };
/// Parses 'notch', 'peak' (case-insensitive). @throws cusci::value_error ("ftype must be either notch or
/// peak.").
comb_type parse_comb_type(std::string_view s);

/// Keyword arguments of `iircomb`, with SciPy's names and defaults.
struct iircomb_options {
  comb_type ftype = comb_type::notch;
  double fs = 2.0;
  /// Notching comb: whether the notches sit at odd multiples of w0/2 (true) or at k w0 (false, SciPy's
  /// default); peaking comb: whether the peaks include DC.
  bool pass_zero = false;
};

/// IIR comb notch or peak filter of order N = round(fs / w0) (half to even, as Python's round).
/// @param w0  fundamental frequency, 0 < w0 < fs/2, with fs / w0 an integer (to 1e-14 relative).
/// @return b [N+1], a [N+1] float64.
/// @throws cusci::value_error for w0 out of range, fs not divisible by w0.
/// SciPy: `scipy.signal.iircomb`.
ba_coeffs iircomb(double w0, double Q, const iircomb_options& opts = {});

/// The type of `gammatone` (SciPy's `ftype`).
enum class gammatone_type { fir, iir };
/// Parses 'fir', 'iir' (case-insensitive). @throws cusci::value_error ("ftype must be either fir or iir.").
gammatone_type parse_gammatone_type(std::string_view s);

/// Keyword arguments of `gammatone`, with SciPy's names and defaults.
struct gammatone_options {
  /// FIR only: order of the filter, 0 < order <= 24; default 4. Given with 'iir': ignored, with a
  /// "UserWarning" through cusci::warn as SciPy.
  std::optional<int> order{};
  /// FIR only: length of the filter; default max(int(fs * 0.015), 15). Given with 'iir': ignored, with
  /// a "UserWarning".
  std::optional<std::int64_t> numtaps{};
  /// Sampling frequency; default 2.
  std::optional<double> fs{};
};

/// Gammatone (auditory) filter centred at `freq` (units of fs): FIR (sampled impulse response
/// t^(order-1) exp(-2 pi b t) cos(2 pi f t), scaled to unit gain at freq) or 4th-order IIR
/// (Slaney's design).
/// @return FIR: b [numtaps], a [1] = {1}; IIR: b [5], a [9]; float64.
/// @throws cusci::value_error for freq outside (0, fs/2), order outside (0, 24].
/// SciPy: `scipy.signal.gammatone`.
ba_coeffs gammatone(double freq, gammatone_type ftype, const gammatone_options& opts = {});

}  // namespace cusci::signal
