#pragma once
/// @file lombscargle.hpp
/// Periodograms of unevenly sampled data on the GPU: the generalized Lomb-Scargle periodogram
/// (`lombscargle`) and the vector strength of event times (`vectorstrength`).
///
/// Both reduce, for every frequency, sums of cos(f x) and sin(f x) over all samples: one tiled kernel
/// (frequencies across threads and blocks, samples streamed through shared memory, float64 sums, one
/// sincos per (frequency, sample) pair, or one rotation per pair where the frequencies are evenly spaced)
/// writes per-chunk partial sums, and a second kernel adds the chunks in a fixed order and forms the
/// result. Results are deterministic (no atomics).
///
/// Stream behaviour: asynchronous on the current stream, except where an argument check needs device
/// values (lombscargle with `weights`, vectorstrength with an array of periods): those synchronize once,
/// before the main kernel, to raise SciPy's error.

#include <optional>
#include <string_view>

#include "cusci/ndarray.hpp"

namespace cusci::signal {

// ------------------------------------------------------------------------------------ lombscargle

/// SciPy's `normalize=` values of `lombscargle` (False / True are "power" / "normalize").
enum class lombscargle_normalize {
  power,      ///< False or "power" (default): 2 (a YC + b YS) N / 4, SciPy's legacy power units
  normalize,  ///< True or "normalize": the power over the weighted variance around the model at 0
  amplitude,  ///< "amplitude": the complex amplitude (a + i b) exp(i tau)
};
/// Parses "power", "normalize", "amplitude" and the Python spellings of the booleans ("False" ->
/// power, "True" -> normalize). @throws cusci::value_error otherwise (SciPy's message).
lombscargle_normalize parse_lombscargle_normalize(std::string_view s);

/// Keyword arguments of `lombscargle` (SciPy 1.18: all keyword-only).
struct lombscargle_options {
  /// Deprecated in SciPy 1.17 (a DeprecationWarning through cusci::warn when given): subtract the
  /// unweighted mean of y first.
  std::optional<bool> precenter{};
  lombscargle_normalize normalize = lombscargle_normalize::power;
  /// Non-negative sample weights [n] (any real dtype, cast to float64), summing to a positive value;
  /// default all ones.
  std::optional<ndarray> weights{};
  /// Fit an offset per frequency (the floating-mean model of Zechmeister and Kürster).
  bool floating_mean = false;
};

/// The generalized (weighted, optionally floating-mean) Lomb-Scargle periodogram.
/// @param x      [n] sample times, any real dtype (cast to float64), any layout; n >= 1.
/// @param y      [n] measurements, as x.
/// @param freqs  [nf] angular frequencies (rad per unit of x), as x; nf >= 1.
/// @return float64 [nf] (complex128 [nf] for normalize == amplitude); a 0-d array when nf == 1 (SciPy
///         squeezes its (1, nf) result).
/// Asynchronous on the current stream; synchronizes once when weights are given (their check).
/// @throws cusci::value_error when x, y, weights are not 1-D of one non-zero length, freqs not 1-D and
///         non-empty, a weight is negative or NaN or the weights do not sum to a positive value (SciPy's
///         messages). Complex input is cast to its real part with a ComplexWarning (NumPy's cast).
/// Algorithm: SciPy evaluates cos / sin of f x twice (before and after the tau shift). cusci reduces
/// once, per frequency, the weighted sums of c, s, c^2, c s, y c, y s (c, s = cos, sin of f x) and forms
/// the shifted sums by the angle-difference identities with cos / sin of tau; the shifted CC, SS and the
/// epsneg clamp, a, b and the three normalizations then follow SciPy's formulas. Within a block's tile of
/// evenly spaced frequencies (|f_k - f_0 - k df| within a few ulps, as linspace / arange grids are),
/// each thread gets cos / sin of f x for 8 consecutive frequencies from one sincos and 7 rotations by
/// df x; otherwise it calls sincos per pair. Accuracy against SciPy: about 1e-13 of the peak value,
/// 1e-9 relative per value (values far below the peak carry SciPy's own rounding of f x).
/// SciPy: `scipy.signal.lombscargle(x, y, freqs, *, precenter=<deprecated>, normalize=False,
/// weights=None, floating_mean=False)`.
ndarray lombscargle(const ndarray& x, const ndarray& y, const ndarray& freqs, const lombscargle_options& opts = {});

// ------------------------------------------------------------------------------------ vectorstrength

/// `vectorstrength`'s outputs: the strength |mean(exp(2 pi i events / period))| and the phase (its
/// angle), each 0-d for a scalar period and [np] for an array of periods.
struct vectorstrength_result {
  ndarray strength;
  ndarray phase;
};

/// Vector strength (phase synchrony) of event times to one or several periods.
/// @param events  [ne] or 0-d event times, any real dtype, any layout.
/// @param period  a positive period (float64), or a device array [np] / 0-d of positive periods; the
///                events are cast to the period's dtype (integer periods: float64) and the sums computed
///                in float64 from SciPy's float32 angles for float32 periods.
/// @return 0-d arrays (scalar or 0-d period) or [np] arrays, of the period's floating dtype.
/// Asynchronous on the current stream; the array form synchronizes once (the positivity check).
/// @throws cusci::value_error for events or period of more than one dimension, a period <= 0 (SciPy's
///         messages). Complex input is cast to its real part with a ComplexWarning (NumPy's astype).
/// SciPy: `scipy.signal.vectorstrength(events, period)`. Deviations: float16 periods compute as float32;
/// no events give NaN results as SciPy's mean of an empty array (without its RuntimeWarning).
vectorstrength_result vectorstrength(const ndarray& events, double period);
vectorstrength_result vectorstrength(const ndarray& events, const ndarray& period);

}  // namespace cusci::signal
