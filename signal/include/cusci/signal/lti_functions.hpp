#pragma once
/// @file lti_functions.hpp
/// Analysis, discretisation, pole placement and simulation of the LTI systems of lti.hpp, with SciPy's
/// semantics: `cont2discrete`, `place_poles`, `freqresp` / `bode` / `dfreqresp` / `dbode`, `impulse` /
/// `step` / `dimpulse` / `dstep`, `lsim` / `dlsim`.
///
/// Where the work runs: everything taking or returning `host_array` is synchronous host code in double
/// precision (the matrices are those of a system's order; SciPy runs the same in NumPy). `lsim` and
/// `dlsim` also take device inputs (`ndarray`): the system is discretised on the host (lsim: SciPy's own
/// block-matrix exponential), and the recurrence x[k+1] = A x[k] + B u[k], y[k] = C x[k] + D u[k] runs on
/// the GPU through the chunked state-space engine, asynchronously on `cusci::get_current_stream()`,
/// returning float64 device arrays; that is the path for long signals (10^7 samples) and many systems.
/// The array parameters of the host functions (the tuples of `cont2discrete`, `place_poles`' A, B and
/// poles, `lsim`'s T, `dlsim`'s u) are `array_like` (filtering.hpp): a host_array, scalar, braced list
/// or std::vector; a device ndarray given there is copied to the host first, which synchronizes.
///
/// Systems are passed as the classes of lti.hpp (`TransferFunction`, `ZerosPolesGain`, `StateSpace`, or
/// the `lti` / `dlti` wrappers, which convert implicitly from them): SciPy's tuples `(num, den)`,
/// `(zeros, poles, gain)`, `(A, B, C, D)` are `lti(num, den)` etc.; a discrete tuple `(..., dt)` is
/// `dlti(..., {.dt = dt})`. `cont2discrete` also has tuple overloads returning SciPy's tuples.
///
/// Deviations from SciPy common to the functions here:
/// - complex-valued systems (complex128 matrices or coefficients) are not supported by `cont2discrete`,
///   `place_poles`, the continuous simulations and the GPU path (cusci::not_implemented_error); the
///   frequency responses accept them.
/// - SciPy raises `AttributeError` when a continuous function gets a discrete system or the reverse; here
///   the `lti` / `dlti` parameter types make that a compile-time error, or cusci::value_error when the
///   wrapper is built from an instance of the other time domain.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/lti.hpp"
#include "cusci/signal/responses.hpp"

namespace cusci::signal {

// ---------------------------------------------------------------------------------- cont2discrete

/// cont2discrete's `method`: SciPy's strings "gbt", "bilinear" (alias "tustin"), "euler" (alias
/// "forward_diff"), "backward_diff", "zoh", "foh", "impulse".
enum class discretization_method { gbt, bilinear, euler, backward_diff, zoh, foh, impulse };
/// Parses SciPy's method strings (aliases included).
/// @throws cusci::value_error for any other string ("Unknown transformation method '...'").
discretization_method parse_discretization_method(std::string_view s);

/// Keyword arguments of `cont2discrete` (SciPy's names and defaults).
struct cont2discrete_options {
  discretization_method method = discretization_method::zoh;
  /// The generalized bilinear transformation's weight in [0, 1]; required for `gbt`, ignored otherwise.
  std::optional<double> alpha{};
};

/// SciPy's tuple `(A, B, C, D, dt)` of a discretised state-space system (float64 matrices
/// A [n, n], B [n, m], C [p, n], D [p, m]).
struct discrete_ss {
  host_array A, B, C, D;
  double dt = 1.0;
};
/// SciPy's tuple `(num, den, dt)`: num [1, n + 1] (2-D, as `ss2tf` returns it) and den [n + 1], float64.
struct discrete_tf {
  host_array num, den;
  double dt = 1.0;
};
/// SciPy's tuple `(zeros, poles, gain, dt)`: zeros and poles 1-D (float64 when all real, else
/// complex128, as `ss2zpk`), gain.
struct discrete_zpk {
  host_array zeros, poles;
  double gain = 0.0;
  double dt = 1.0;
};

/// Transforms a continuous state-space system to a discrete one with sampling period `dt`.
/// Methods: zoh (zero-order hold: the exponential of [[A, B], [0, 0]] dt), foh (first-order hold,
/// Franklin, Powell & Workman), impulse (Ad = expm(A dt), Bd = Ad B dt, Dd = C B dt; strictly proper
/// systems only), gbt with `alpha` (Zhang, Chen & Chen 2009) and its special cases bilinear (0.5), euler
/// (0), backward_diff (1).
/// @param A [n, n], B [n, m], C [p, n], D [p, m] float64 (other real dtypes converted); completed as
///          `abcd_normalize` does.
/// @param dt the sampling period (any value, as SciPy).
/// @return (Ad, Bd, Cd, Dd, dt) float64. Host, synchronous.
/// @throws cusci::value_error for gbt without alpha or alpha outside [0, 1], impulse with D not all
///         close to 0 ("Impulse method is only applicable to strictly proper systems"), inconsistent
///         matrix shapes; cusci::runtime_error for a singular I - alpha dt A (gbt: SciPy's LinAlgError);
///         cusci::not_implemented_error for complex matrices.
/// SciPy: `scipy.signal.cont2discrete((A, B, C, D), dt, method, alpha)`.
discrete_ss cont2discrete(const array_like& A, const array_like& B, const array_like& C, const array_like& D,
                          double dt, const cont2discrete_options& opts = {});
/// Transfer-function form: SciPy's tf2ss, the state-space transformation, then ss2tf.
/// @param num [n] (or [1, n]) and den [m] float64. @return (num [1, k], den [k], dt).
/// @throws as the state-space form, and as `TransferFunction` for bad coefficients.
/// SciPy: `scipy.signal.cont2discrete((num, den), dt, method, alpha)`.
discrete_tf cont2discrete(const array_like& num, const array_like& den, double dt,
                          const cont2discrete_options& opts = {});
/// Zeros-poles-gain form: SciPy's zpk2ss, the state-space transformation, then ss2zpk.
/// SciPy: `scipy.signal.cont2discrete((z, p, k), dt, method, alpha)`.
discrete_zpk cont2discrete(const array_like& zeros, const array_like& poles, double gain, double dt,
                           const cont2discrete_options& opts = {});
/// The classes: a discrete system of the same form with `dt()` == dt (SciPy: `cont2discrete` of an lti
/// instance, i.e. its `to_discrete(dt, method, alpha)`).
/// @throws cusci::value_error for a discrete-time instance, and as above.
TransferFunction cont2discrete(const TransferFunction& system, double dt, const cont2discrete_options& opts = {});
ZerosPolesGain cont2discrete(const ZerosPolesGain& system, double dt, const cont2discrete_options& opts = {});
StateSpace cont2discrete(const StateSpace& system, double dt, const cont2discrete_options& opts = {});
dlti cont2discrete(const lti& system, double dt, const cont2discrete_options& opts = {});

// ---------------------------------------------------------------------------------- place_poles

/// place_poles' `method`: "YT" (Tits & Yang) or "KNV0" (Kautsky, Nichols & Van Dooren, method 0).
enum class place_poles_method { YT, KNV0 };
/// @throws cusci::value_error for other strings ("The method keyword must be one of 'YT' or 'KNV0'").
place_poles_method parse_place_poles_method(std::string_view s);

/// Keyword arguments of `place_poles` (SciPy's names and defaults).
struct place_poles_options {
  place_poles_method method = place_poles_method::YT;
  /// Relative change of det(X) below which the iteration stops; <= 0 forces maxiter iterations.
  double rtol = 1e-3;
  int maxiter = 30;
};

/// SciPy's Bunch returned by `place_poles`.
struct place_poles_result {
  host_array gain_matrix;      ///< K [m, n] float64 such that eig(A - B K) are the poles
  host_array computed_poles;   ///< [n] complex128: the eigenvalues of A - B K, ordered as requested_poles
  host_array requested_poles;  ///< [n] the poles ordered: real ones ascending, then conjugate pairs
                               ///< (negative imaginary part first); complex128 when given complex, else float64
  host_array X;                ///< [n, n] transfer matrix (A - B K = X diag(poles) X^-1): complex128, or the
                               ///< float64 identity when B has full row rank (nothing to optimise)
  double rtol = 0.0;           ///< relative tolerance reached (NaN when nothing was optimised)
  /// Iterations done; empty where SciPy returns NaN (B square / full row rank: nothing to optimise).
  std::optional<std::int64_t> nb_iter{};
};

/// Pole placement by full state feedback: K such that eig(A - B K) = poles, maximising the robustness
/// of the placement (Kautsky, Nichols & Van Dooren 1985; Tits & Yang 1996), as SciPy's implementation.
/// @param A [n, n] float64; @param B [n, m] float64 (other real dtypes converted).
/// @param poles [n] float64 or complex128; complex poles must come with their conjugates.
/// @return the Bunch's fields. Host, synchronous.
/// Warns ("UserWarning" through cusci::warn) when rtol > 0 is not reached within maxiter iterations.
/// @throws cusci::value_error (SciPy's messages): poles not 1-D, A not square or not 2-D, B not 2-D,
///         wrong number of poles, a pole repeated more than rank(B) times, complex poles without their
///         conjugates, complex poles with KNV0, maxiter < 1, rtol > 1, poles that cannot be placed (an
///         uncontrollable system); cusci::not_implemented_error for complex A or B.
/// SciPy: `scipy.signal.place_poles(A, B, poles, method='YT', rtol=1e-3, maxiter=30)`. Deviations:
/// nb_iter is empty where SciPy returns NaN; columns of X may differ from SciPy's in sign (once the sweeps
/// have converged, SciPy's updates project onto nearly orthogonal vectors and rounding, or LAPACK's SVD
/// sign convention, picks the sign; the gain matrix and the poles do not depend on it).
place_poles_result place_poles(const array_like& A, const array_like& B, const array_like& poles,
                               const place_poles_options& opts = {});

// ---------------------------------------------------------------------------------- frequency responses

/// (The results of `freqresp` / `dfreqresp` are responses.hpp's `freq_response {w, h}`.)
/// `bode`'s frequencies, magnitude in dB and unwrapped phase in degrees (all float64).
struct bode_result {
  host_array w, mag, phase;
};

/// Frequency response of a continuous SISO system, H(jw).
/// @param system a continuous system (TransferFunction / ZerosPolesGain evaluated directly, StateSpace
///        through its zeros, poles and gain, as SciPy).
/// @param w  [k] frequencies in rad/s (float64); empty (std::nullopt): `n` frequencies chosen by
///           `findfreqs` from the poles and zeros.
/// @return w [k] float64, h [k] complex128. Host, synchronous.
/// @throws cusci::value_error for a system that is not single-input single-output.
/// SciPy: `scipy.signal.freqresp(system, w=None, n=10000)`.
freq_response freqresp(const lti& system, const std::optional<host_array>& w = std::nullopt, std::int64_t n = 10000);
/// Bode magnitude (20 log10 |H|) and phase (unwrapped, degrees) of a continuous SISO system.
/// SciPy: `scipy.signal.bode(system, w=None, n=100)`.
bode_result bode(const lti& system, const std::optional<host_array>& w = std::nullopt, std::int64_t n = 100);

/// Keyword arguments of `dfreqresp` (SciPy's names and defaults).
struct dfreqresp_options {
  std::optional<host_array> w{};  ///< [k] frequencies in rad/sample; empty: `n` points of [0, pi) or [0, 2 pi)
  std::int64_t n = 10000;
  bool whole = false;  ///< with w empty: frequencies over the whole unit circle
};
/// Frequency response of a discrete SISO system, H(e^{jw}).
/// @return w [k] rad/sample (float64), h [k] complex128. Host, synchronous.
/// @throws cusci::value_error for a system that is not single-input single-output.
/// SciPy: `scipy.signal.dfreqresp(system, w=None, n=10000, whole=False)`.
freq_response dfreqresp(const dlti& system, const dfreqresp_options& opts = {});
/// Bode magnitude and phase of a discrete SISO system; w is returned in rad per time unit (w / dt).
/// SciPy: `scipy.signal.dbode(system, w=None, n=100)`.
bode_result dbode(const dlti& system, const std::optional<host_array>& w = std::nullopt, std::int64_t n = 100);

// ---------------------------------------------------------------------------------- simulation (host)

/// Keyword arguments of `lsim` (SciPy's names and defaults).
struct lsim_options {
  std::optional<host_array> X0{};  ///< [n] initial state; empty: zero
  /// Linear interpolation of the input between samples (first-order hold); false: zero-order hold.
  bool interp = true;
};
/// `lsim`'s (and `dlsim`'s) results: tout [N] (T as given), yout [N, p], xout [N, n], float64, squeezed
/// as SciPy squeezes them (yout [N] for one output, xout [N] for one state; a single time step drops N).
struct lsim_result {
  host_array tout, yout, xout;
};
/// Simulates a continuous system: the exact solution for piecewise-linear (interp) or piecewise-constant
/// input between the samples, one matrix exponential for the whole run.
/// @param system continuous system (converted to state space as SciPy's `_as_ss`).
/// @param U  [N] or [N, m] input samples (float64; other real dtypes converted); std::nullopt (SciPy's
///           None or 0): no input.
/// @param T  [N] time samples, non-negative start, evenly spaced (np.allclose).
/// @return SciPy's (T, yout, xout). Host, synchronous.
/// @throws cusci::value_error: T not 1-D, T[0] < 0, unevenly spaced T, U rows != N, U columns != inputs;
///         cusci::not_implemented_error for complex systems or inputs.
/// SciPy: `scipy.signal.lsim(system, U, T, X0=None, interp=True)`.
lsim_result lsim(const lti& system, const std::optional<host_array>& U, const array_like& T,
                 const lsim_options& opts = {});

/// Keyword arguments of `impulse` and `step` (SciPy's names and defaults).
struct impulse_options {
  std::optional<host_array> X0{};  ///< [n] initial state; empty: zero
  std::optional<host_array> T{};   ///< [N] time points; empty: SciPy's default grid of N points
  std::optional<std::int64_t> N{}; ///< number of default time points (100 when empty)
};
using step_options = impulse_options;
/// Times and output: T [N] float64, yout [N] float64 (squeezed as SciPy).
struct time_response {
  host_array T, yout;
};
/// Impulse response of a continuous single-input system (lsim with no input from x0 = B + X0). The default
/// grid is linspace(0, 7 / min|Re(eig(A))|, N) (1 / r replaced by 1 when r == 0).
/// @throws cusci::value_error for a multiple-input system (SciPy fails to broadcast), and as `lsim`.
/// SciPy: `scipy.signal.impulse(system, X0=None, T=None, N=None)`.
time_response impulse(const lti& system, const impulse_options& opts = {});
/// Step response of a continuous system (lsim with a unit input, zero-order hold); default grid as
/// `impulse`. SciPy: `scipy.signal.step(system, X0=None, T=None, N=None)`.
time_response step(const lti& system, const step_options& opts = {});

/// Keyword arguments of `dlsim` (SciPy's names and defaults).
struct dlsim_options {
  /// [M] times of the input samples; when given, the output runs over linspace(0, t[-1], floor(t[-1] /
  /// dt) + 1) and the input is linearly interpolated onto it. Empty: one output per input sample.
  std::optional<host_array> t{};
  std::optional<host_array> x0{};  ///< [n] initial state; empty: zero
};
/// Simulates a discrete system: x[k+1] = A x[k] + B u[k], y[k] = C x[k] + D u[k].
/// @param u [N] or [N, m] input (float64; other real dtypes converted).
/// @return tout [N'], yout [N', p] and, only when the system is a StateSpace (as SciPy returns it only
///         then), xout [N', n]; otherwise xout is empty. Not squeezed (as SciPy). Host, synchronous.
/// @throws cusci::value_error for input columns != inputs, a wrong x0 length.
/// SciPy: `scipy.signal.dlsim(system, u, t=None, x0=None)`.
lsim_result dlsim(const dlti& system, const array_like& u, const dlsim_options& opts = {});

/// Keyword arguments of `dimpulse` / `dstep` (SciPy's names and defaults).
struct dimpulse_options {
  std::optional<host_array> x0{};  ///< initial state; empty: zero
  std::optional<host_array> t{};   ///< time points; empty: n samples spaced by dt from 0
  std::optional<std::int64_t> n{}; ///< number of default time points (100 when empty)
};
using dstep_options = dimpulse_options;
/// Times and one output array per input: yout[i] [N, p] is the response to an impulse / step on input i.
struct dtime_response {
  host_array t;
  std::vector<host_array> yout;
};
/// Impulse response of a discrete system, input by input. SciPy: `scipy.signal.dimpulse(system, x0=None,
/// t=None, n=None)`.
dtime_response dimpulse(const dlti& system, const dimpulse_options& opts = {});
/// Step response of a discrete system, input by input. SciPy: `scipy.signal.dstep`.
dtime_response dstep(const dlti& system, const dstep_options& opts = {});

// ---------------------------------------------------------------------------------- simulation (GPU)

/// `lsim` / `dlsim` results on the device (float64, C-contiguous): tout [N], yout, xout shaped as the
/// host forms (lsim: squeezed; dlsim: [N, p], [N, n], xout only for StateSpace systems).
struct lsim_device_result {
  ndarray tout, yout, xout;
};
/// Keyword arguments of the device `lsim`.
struct lsim_device_options {
  std::optional<ndarray> X0{};  ///< [n] (or [S, n] for many systems) initial state, on the device
  bool interp = true;
};
/// `lsim` of a continuous system over a device input: discretised on the host with SciPy's block-matrix
/// exponential (interp: first-order hold with the lookahead input, else zero-order hold), then simulated
/// on the GPU by the chunked state-space recurrence.
/// @param U [N] or [N, m] device input (real float dtypes; computed in float64).
/// @param T [N] device (or host-built) time samples, evenly spaced from T[0] >= 0. Read back to check
///          the spacing: synchronizes the current stream once, before any GPU work.
/// @return tout (T itself), yout, xout float64 device arrays; the simulation is asynchronous on the
///         current stream.
/// @throws as the host `lsim`; cusci::type_error for complex U or T.
/// SciPy: `scipy.signal.lsim` (U on the GPU; results on the GPU). Deviation: U is not read to detect an
/// all-zero input (SciPy then propagates with expm(A dt) alone and leaves out D u; the results agree to
/// rounding); U must have N rows.
lsim_device_result lsim(const lti& system, const ndarray& U, const ndarray& T, const lsim_device_options& opts = {});
/// Many systems at once (same numbers of states, inputs and outputs): U [S, N, m] (or [S, N] for one
/// input), results yout [S, N, p], xout [S, N, n] (not squeezed), tout [N].
/// @throws cusci::value_error when the systems differ in size or U's first axis != systems.size().
lsim_device_result lsim(const std::vector<lti>& systems, const ndarray& U, const ndarray& T,
                        const lsim_device_options& opts = {});

/// Keyword arguments of the device `dlsim`.
struct dlsim_device_options {
  /// [M] times of the input samples (host or device): the input is then read back, linearly interpolated
  /// onto linspace(0, t[-1], floor(t[-1] / dt) + 1) on the host and copied back (synchronizes; meant for
  /// moderate lengths). Empty: one output per input sample, nothing read back. Single system only.
  std::optional<ndarray> t{};
  std::optional<ndarray> x0{};  ///< [n] (or [S, n] for many systems) initial state on the device
};
/// `dlsim` over a device input, on the GPU: u [N] or [N, m] (real float dtypes, computed in float64).
/// @return tout [N'] (linspace(0, (N - 1) dt, N), or the grid of `t`), yout [N', p], xout [N', n]
///         (StateSpace systems only; otherwise empty) float64 device arrays, asynchronous on the current
///         stream.
/// @throws as the host `dlsim`; cusci::type_error for complex u; cusci::index_error for an empty u.
/// SciPy: `scipy.signal.dlsim(system, u, t=None, x0=None)`.
lsim_device_result dlsim(const dlti& system, const ndarray& u, const dlsim_device_options& opts = {});
/// Many systems at once (same sizes and dt): u [S, N, m] (or [S, N]); yout [S, N, p], xout [S, N, n]
/// (only when every system is a StateSpace). @throws cusci::value_error with `t` (not supported here).
lsim_device_result dlsim(const std::vector<dlti>& systems, const ndarray& u, const dlsim_device_options& opts = {});

}  // namespace cusci::signal
