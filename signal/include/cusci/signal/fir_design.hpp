#pragma once
/// @file fir_design.hpp
/// FIR filter design on the host, in double precision, with SciPy 1.18's semantics: Kaiser order
/// estimation (`kaiserord`), frequency sampling (`firwin2`), least squares (`firls`), Parks-McClellan
/// equiripple design (`remez`), minimum-phase conversion (`minimum_phase`) and 2-D window-method design
/// (`firwin_2d`). `firwin` itself is declared in filter_design.hpp.
///
/// Everything here is synchronous host code (SciPy runs these in NumPy / C on the CPU; designs are
/// small, O(numtaps^2) to O(numtaps^3) at most) and returns `cusci::host_array` results, float64 unless a
/// function says otherwise. Pass the taps to the filtering functions directly, or upload them with
/// `cusci::asarray`.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/windows.hpp"

namespace cusci::signal {

// ------------------------------------------------------------------------------------------ kaiserord

/// Result of `kaiserord`: the number of taps and the Kaiser window's beta.
struct kaiserord_result {
  std::int64_t numtaps = 0;
  double beta = 0.0;
};

/// Kaiser window design parameters for an FIR filter: the length and beta that meet a stopband
/// attenuation / passband ripple of `ripple` dB with a transition width `width`.
/// @param ripple  upper bound of the deviation of the response from the ideal, in dB (its absolute value
///                is used); >= 8.
/// @param width   transition width as a fraction of Nyquist (for fs: 2 * width_hz / fs).
/// @return {numtaps, beta}: numtaps = ceil((A - 7.95) / (2.285 pi width) + 1) (Kaiser's formula, as
///         Oppenheim & Schafer give it, plus one), beta = `kaiser_beta(A)`. Host only.
/// @throws cusci::value_error when |ripple| < 8 ("Requested maximum ripple attenuation ... is too small
///         for the Kaiser formula."), width == 0 (SciPy's ZeroDivisionError), or when numtaps is not a
///         finite number (NaN ripple, SciPy's ValueError; infinite, SciPy's OverflowError) or does not fit
///         an int64.
/// SciPy: `scipy.signal.kaiserord`. A negative width gives a negative numtaps, as in SciPy.
kaiserord_result kaiserord(double ripple, double width);

// ------------------------------------------------------------------------------------------- firwin2

/// Keyword arguments of `firwin2`, with SciPy's names and defaults.
struct firwin2_options {
  /// Size of the interpolation mesh used to build the response (unset: the smallest 2^k + 1 >= numtaps).
  /// Must exceed numtaps.
  std::optional<std::int64_t> nfreqs{};
  /// Window applied to the taps (`get_window(window, numtaps, fftbins=false)`); `std::nullopt` is SciPy's
  /// `window=None` (no window).
  std::optional<window_spec> window = window_spec("hamming");
  /// Design a type III (odd numtaps) or type IV (even numtaps) antisymmetric filter instead of a type I
  /// / II symmetric one.
  bool antisymmetric = false;
  /// Sampling frequency (unset: 2, so that freq is in half-cycles / sample).
  std::optional<double> fs{};
};

/// FIR filter design by frequency sampling: the gain is linearly interpolated on a uniform mesh of
/// `nfreqs` points in [0, fs/2], given the phase of a delay of (numtaps - 1) / 2 samples (times j for the
/// antisymmetric types), transformed with an inverse real FFT of 2 (nfreqs - 1) points, truncated to
/// numtaps and windowed.
/// @param numtaps  number of taps, >= 1.
/// @param freq     [n] frequencies (units of fs), nondecreasing from 0 to fs/2; a frequency may occur
///                 twice (a jump in the gain) except 0 and fs/2.
/// @param gain     [n] the gain at each frequency.
/// @return [numtaps] float64. Host only, synchronous.
/// @throws cusci::value_error (SciPy's messages) when freq and gain differ in length, numtaps >= nfreqs,
///         freq does not start with 0 and end with fs/2, decreases, holds a value three times, repeats 0
///         or fs/2, holds values closer than eps * fs/2 to a repeated one; a type II filter (even numtaps,
///         symmetric) without zero gain at Nyquist, a type III without zero gain at 0 and Nyquist, a type
///         IV without zero gain at 0; numtaps <= 0; nfreqs <= 1; window errors of `get_window`.
///         cusci::index_error for an empty freq (SciPy's IndexError).
/// SciPy: `scipy.signal.firwin2`. Deviation: numtaps <= 0 is always rejected (SciPy fails in `log` or
/// `get_window`, except with window=None and nfreqs given, where it returns a truncated array).
host_array firwin2(std::int64_t numtaps, const std::vector<double>& freq, const std::vector<double>& gain,
                   const firwin2_options& opts = {});

// --------------------------------------------------------------------------------------------- firls

/// Keyword arguments of `firls`.
struct firls_options {
  /// [n_bands] relative weight of each band's squared error (empty: all ones, SciPy's None).
  std::vector<double> weight{};
  /// Sampling frequency (unset: 2).
  std::optional<double> fs{};
};

/// Linear-phase FIR filter design minimising the weighted integrated squared error against a piecewise
/// linear desired response. The normal equations (a Toeplitz-plus-Hankel matrix, built in closed form)
/// are solved by Cholesky factorisation; when the matrix is not positive definite or its reciprocal
/// condition number is below machine epsilon, by least squares (minimum norm), as SciPy.
/// @param numtaps  number of taps, odd and >= 1.
/// @param bands    [2 n_bands] band edges (units of fs) in pairs, each pair increasing, pairs
///                 nondecreasing and not overlapping, within [0, fs/2].
/// @param desired  [2 n_bands] the desired gain at each band edge (linear in between), >= 0.
/// @return [numtaps] float64 (symmetric). Host only, synchronous.
/// @throws cusci::value_error (SciPy's messages) for an even or < 1 numtaps, fs <= 0, an odd number of
///         edges, edges outside [0, fs/2], a desired of another length than bands, a band of zero or
///         negative width, decreasing or overlapping bands, negative desired, a weight of another length
///         than the number of bands or negative.
/// SciPy: `scipy.signal.firls`. Deviation: the switch to least squares uses the exact 1-norm condition
/// number where LAPACK's `pocon` estimates it (they differ only for matrices near the eps threshold),
/// and the least-squares solution is the SVD minimum-norm one (SciPy: `gelsy`; both minimum norm).
host_array firls(std::int64_t numtaps, const std::vector<double>& bands, const std::vector<double>& desired,
                 const firls_options& opts = {});

// --------------------------------------------------------------------------------------------- remez

/// The kind of filter `remez` designs (SciPy's `type`).
enum class remez_type { bandpass, differentiator, hilbert };
/// Parses 'bandpass', 'differentiator', 'hilbert' (exact, case-sensitive as SciPy).
/// @throws cusci::value_error otherwise ("Type must be 'bandpass', 'differentiator', or 'hilbert'").
remez_type parse_remez_type(std::string_view s);

/// Keyword arguments of `remez`, with SciPy's names and defaults.
struct remez_options {
  /// [n_bands] weight of each band's error (empty: all ones, SciPy's None).
  std::vector<double> weight{};
  /// bandpass: symmetric taps, constant desired gain per band; differentiator: antisymmetric taps,
  /// desired gain proportional to frequency (desired[k] is the slope), weight inversely so; hilbert:
  /// antisymmetric taps.
  remez_type type = remez_type::bandpass;
  /// Maximum number of exchange iterations (SciPy returns the current approximation, without warning,
  /// when it is reached).
  std::int64_t maxiter = 25;
  /// Density of the frequency grid: about grid_density * (numtaps / 2) points over [0, fs/2].
  std::int64_t grid_density = 16;
  /// Sampling frequency (unset: 1, so band edges are in cycles / sample).
  std::optional<double> fs{};
};

/// Minimax (equiripple) FIR filter design by the Parks-McClellan algorithm: Remez exchange on a dense
/// grid with barycentric Lagrange interpolation, then the taps from an inverse DFT of the best
/// approximation (McClellan, Parks & Rabiner's program, as SciPy's C implementation runs it, step by
/// step, so that the taps agree with SciPy's to rounding).
/// @param numtaps  number of taps, >= 2.
/// @param bands    [2 n_bands] band edges (units of fs), nondecreasing from >= 0, each <= fs/2.
/// @param desired  [n_bands] desired gain of each band (the slope for differentiators).
/// @return [numtaps] float64. Host only, synchronous.
/// @throws cusci::value_error (SciPy's messages) for numtaps < 2, a weight / desired of other lengths
///         (bands must have twice desired's length), decreasing or negative band edges, an edge above
///         fs/2, a frequency grid with fewer points than extremal frequencies, a grid overflowing its
///         workspace or a decreasing deviation ("Failure to converge at iteration k, try reducing
///         transition band width."); maxiter < 1 and an empty desired (both undefined behaviour in
///         SciPy's C code).
/// SciPy: `scipy.signal.remez`.
host_array remez(std::int64_t numtaps, const std::vector<double>& bands, const std::vector<double>& desired,
                 const remez_options& opts = {});

// ------------------------------------------------------------------------------------- minimum_phase

/// How `minimum_phase` computes the minimum-phase filter (SciPy's `method`).
enum class minimum_phase_method { homomorphic, hilbert };
/// Parses 'homomorphic', 'hilbert'. @throws cusci::value_error otherwise.
minimum_phase_method parse_minimum_phase_method(std::string_view s);

/// Arguments of `minimum_phase` after `h`, with SciPy's names and defaults.
struct minimum_phase_options {
  minimum_phase_method method = minimum_phase_method::homomorphic;
  /// FFT length for the cepstrum (unset: 2^ceil(log2(2 (len(h) - 1) / 0.01))); >= len(h).
  std::optional<std::int64_t> n_fft{};
  /// homomorphic only: true halves the log-magnitude (the result's magnitude is the square root of h's,
  /// length (len(h) + 1) / 2); false keeps it (same magnitude as h, length len(h)).
  bool half = true;
};

/// Converts a linear-phase FIR filter to a minimum-phase one.
/// homomorphic: real cepstrum of |H| (zero-padded FFT of n_fft points), folded onto the causal side,
/// exponentiated; hilbert: the modified discrete Hilbert transform of the rescaled, square-rooted
/// amplitude response (Damera-Venkata, Evans & McCaslin), meant for equiripple (remez) filters.
/// @param h  [n] taps, n >= 3, a real dtype (integer, bool, float16/32/64).
/// @return [(n + 1) / 2] ([n] with half = false); float32 for float16 / float32 taps (SciPy's FFT works
///         in single precision; cusci computes in double and rounds), float64 otherwise. Host only.
/// @throws cusci::value_error (SciPy's messages) for complex taps, fewer than 3 taps or h not 1-D,
///         half = false with method hilbert, n_fft < len(h), an all-zero response (homomorphic: SciPy's
///         ValueError of an empty minimum). Issues cusci::warn("RuntimeWarning", ...) when h does not look
///         symmetric (SciPy's test).
/// SciPy: `scipy.signal.minimum_phase`. Accuracy: SciPy's floors (1e-10 on the amplitude for hilbert,
/// 1e-7 min|H| for homomorphic) make its result depend on its FFT's rounding where the amplitude reaches
/// its minimum or |H| has exact zeros off a power-of-two grid; there cusci's taps differ from SciPy's by
/// 1e-4 to 1e-2 (hilbert) or more for n_fft close to len(h); elsewhere they agree to ~1e-11
/// (docs/signal-fir.md). `h` is `array_like` (a device ndarray is copied to the host: synchronizes).
host_array minimum_phase(const array_like& h, const minimum_phase_options& opts = {});

// ----------------------------------------------------------------------------------------- firwin_2d

/// Keyword arguments of `firwin_2d`, with SciPy's names and defaults.
struct firwin_2d_options {
  /// Cutoff frequencies, as `firwin`'s cutoff (empty: SciPy's None; rejected by both designs, see
  /// firwin_2d).
  std::vector<double> fc{};
  /// Sampling frequency (SciPy's default 2).
  double fs = 2.0;
  /// true: a circularly symmetric filter, interpolated radially from one 1-D firwin design of
  /// 8 max(hsize) taps; false: the outer product of two 1-D firwin designs.
  bool circular = false;
  /// Accepted and unused, as in SciPy 1.18.1 (firwin is called with its defaults).
  bool pass_zero = true;
  /// Accepted and unused, as in SciPy 1.18.1.
  bool scale = true;
};

/// 2-D FIR filter design by the window method.
/// @param hsize   [2] filter size (rows, columns).
/// @param window  separable design: two windows (rows, columns), each `firwin`'s window argument;
///                circular design: one window.
/// @return separable: [hsize[0], hsize[1]] float64, outer(firwin(hsize[0], fc, window[0], fs),
///         firwin(hsize[1], fc, window[1], fs)). circular: [hsize[1], hsize[0]] float64 (SciPy's meshgrid
///         order), the 1-D design interpolated at the radius sqrt(u^2 + v^2), u, v on linspace(-1, 1).
///         Host only, synchronous.
/// @throws cusci::value_error when hsize does not have 2 entries ("hsize must be a 2-element tuple or
///         list"), circular without fc, a separable design without 2 windows ("window must be a
///         2-element tuple or list"), a circular one without exactly 1, and for firwin's errors.
/// SciPy: `scipy.signal.firwin_2d`. Deviations: the circular design takes its one window as a
/// one-element list (SciPy passes the `window` object itself to firwin); a separable design without fc
/// raises value_error (firwin's "At least one cutoff frequency must be given") where SciPy returns taps
/// that are all NaN.
host_array firwin_2d(const std::vector<std::int64_t>& hsize, const std::vector<window_spec>& window,
                     const firwin_2d_options& opts = {});

}  // namespace cusci::signal
