#pragma once
// (internal) The waveforms family of cusci::signal: the constants the host derives from SciPy's Python
// expressions, and the device entry points of waveforms.cu. Every entry point takes C-contiguous
// float32 or float64 time arrays (the host converts other layouts and dtypes first), writes a
// C-contiguous output, enqueues its work on the current stream and launches nothing for n == 0.

#include <cstdint>

#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/waveforms.hpp"

namespace cusci::signal::detail {

/// chirp's phase, as SciPy's _chirp_phase evaluates it. Constants are Python floats (double) that the
/// kernel rounds to T where NumPy would (weak scalars); `strong` is a float64 NumPy scalar factor.
struct chirp_consts {
  int kind = 0;      ///< 0 linear, 1 quadratic vertex 0, 2 quadratic vertex t1, 3 log, 4 hyperbolic,
                     ///< 5 constant frequency (log / hyperbolic with f0 == f1): phase = k * t
  double k = 0;      ///< 2 pi (kinds 0-2), 2 pi f0 (kind 5), 2 pi (-sing f0) (kind 4)
  double a = 0;      ///< f0 (0, 1), f1 (2), f1 / f0 (3), sing (4)
  double b = 0;      ///< 0.5 beta (0), beta (1, 2)
  double c = 0;      ///< t1 (2, 3)
  double d = 0;      ///< t1 ** 3 (2)
  double strong = 0; ///< 2 pi beta f0 (3), float64 NumPy scalar
  double phi = 0;    ///< np.deg2rad(phi)
  bool complex = false;
};

/// SciPy's _chirp_phase constants for f0, t1, f1 and the options (Python's float arithmetic), with
/// SciPy's checks (the t1 == 0 division of the linear and quadratic sweeps included).
/// @throws cusci::value_error as chirp.
chirp_consts chirp_consts_of(double f0, double t1, double f1, const chirp_options& o);

/// SciPy's default taps of max_len_seq for nbits 2..32 (null otherwise).
const std::vector<std::int64_t>* mls_default_taps(int nbits);
/// SciPy's shift-register loop: `length` bits into seq, state updated and rolled as SciPy returns it.
void mls_run(const std::vector<std::int64_t>& taps, std::vector<std::int8_t>& state, int nbits, std::int64_t length,
             std::int8_t* seq);

/// out[i] = cos(phase(t[i]) + phi) (float64) or exp(i (phase + phi)) (complex128). t: float32/float64.
void chirp_run(const ndarray& t, const chirp_consts& c, ndarray& out);

/// gausspulse: env = exp((-a t) t), yI = env cos(c t), yQ = env sin(c t), c = 2 pi fc (rounded to
/// float32 and multiplied in float32 for float32 t, as NumPy). Outputs float64; null pointers skip.
void gausspulse_run(const ndarray& t, double a, double c, double* yI, double* yQ, double* yenv);

/// sawtooth (square = false) or square of t (float32/float64) with width / duty `w` (same dtype and
/// size as t, or null for the scalar w_scalar); out of t's dtype.
void periodic_run(const ndarray& t, const ndarray* w, double w_scalar, bool square, ndarray& out);

/// out[i] = cos(k * polyval(q, t[i]) + phi) for the float64 coefficients q (device, m >= 1), t cast
/// to float64 (float32 or float64 input).
void sweep_poly_run(const ndarray& t, const ndarray& q, double k, double phi, ndarray& out);

}  // namespace cusci::signal::detail
