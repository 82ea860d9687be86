#pragma once
/// @file waveforms.hpp
/// Waveform generators of scipy.signal on the GPU: `chirp`, `gausspulse`, `sawtooth`, `square`,
/// `sweep_poly`, `unit_impulse`, and the maximum length sequence `max_len_seq` (made on the host).
///
/// Time arrays `t` are device arrays of any shape and layout; the waveform is evaluated elementwise and
/// returned as a new C-contiguous array of t's shape (the broadcast shape of t and width / duty when
/// those are arrays). Dtypes follow SciPy's NumPy expressions: float32 t keeps float32 where SciPy's
/// arithmetic stays in float32 (sawtooth, square), and gives float64 where a float64 NumPy scalar
/// enters the expression (chirp, gausspulse, sweep_poly); integer and bool t compute in float64.
/// Where SciPy computes a phase in float32 before promoting (chirp of float32 t), cusci evaluates the
/// same float32 operations in the same order, each rounded (no fused multiply-add), so the answers agree
/// to the float32 rounding of SciPy's phase.
///
/// Stream behaviour: every function enqueues its work on the current stream of the current device and
/// returns without synchronizing, except `max_len_seq` (host computation, then an asynchronous copy)
/// and the host-valued `gausspulse_cutoff`.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::signal {

// ------------------------------------------------------------------------------------ chirp

/// SciPy's `method=` values of `chirp`.
enum class chirp_method {
  linear,       ///< "linear", "lin", "li": f(t) = f0 + (f1 - f0) t / t1
  quadratic,    ///< "quadratic", "quad", "q": a parabola through (0, f0) and (t1, f1)
  logarithmic,  ///< "logarithmic", "log", "lo": f(t) = f0 (f1 / f0)^(t / t1)
  hyperbolic,   ///< "hyperbolic", "hyp": f(t) = f0 f1 t1 / ((f0 - f1) t + f1 t1)
};
/// Parses SciPy's method names and their abbreviations (listed above).
/// @throws cusci::value_error for anything else (SciPy's message).
chirp_method parse_chirp_method(std::string_view s);

/// Keyword arguments of `chirp` after t, f0, t1, f1.
struct chirp_options {
  chirp_method method = chirp_method::linear;
  /// Phase offset in degrees.
  double phi = 0.0;
  /// Quadratic only: the vertex of the frequency parabola at t = 0 (true) or at t = t1 (false).
  bool vertex_zero = true;
  /// Return the complex analytic signal exp(i (phase + phi)) instead of cos(phase + phi).
  bool complex = false;
};

/// Frequency-swept cosine: cos(phase(t) + phi * pi / 180), phase the integral of 2 pi f(t) from 0.
/// @param t   [...] times, any real dtype, any layout. float32 t: the phase is computed in float32 as
///            SciPy does, the cosine in float64; float64, integer and bool t: float64 throughout.
/// @param f0  frequency at t = 0 (cycles per unit of t); f1 the frequency at time t1.
/// @return float64 [t's shape] (complex128 with opts.complex), C-contiguous.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for a logarithmic sweep with f0 * f1 <= 0, a hyperbolic sweep with f0 or
///         f1 zero, t1 == 0 for the linear and quadratic sweeps (SciPy's ZeroDivisionError);
///         cusci::type_error for complex t.
/// SciPy: `scipy.signal.chirp(t, f0, t1, f1, method='linear', phi=0, vertex_zero=True, *,
/// complex=False)`. Deviation: float16 t is computed as float32 t.
ndarray chirp(const ndarray& t, double f0, double t1, double f1, const chirp_options& opts = {});

// ------------------------------------------------------------------------------------ gausspulse

/// Keyword arguments of `gausspulse` (SciPy's names and defaults).
struct gausspulse_options {
  double fc = 1000.0;   ///< center frequency (Hz), >= 0
  double bw = 0.5;      ///< fractional bandwidth in the frequency domain, > 0
  double bwr = -6.0;    ///< reference level (dB) at which bw is measured, < 0
  double tpr = -60.0;   ///< for the cutoff form: level (dB) below which the pulse is cut, < 0
  bool retquad = false; ///< also return the quadrature (imaginary) part
  bool retenv = false;  ///< also return the envelope
};

/// The outputs of `gausspulse`, in SciPy's tuple order: yI always, yQ with retquad, yenv with retenv.
struct gausspulse_result {
  ndarray yI;
  std::optional<ndarray> yQ;
  std::optional<ndarray> yenv;
};

/// Gaussian-modulated sinusoid exp(-a t^2) cos(2 pi fc t) (and its quadrature and envelope), a chosen
/// so that the spectrum falls to bwr dB at fc (1 +- bw / 2).
/// @param t  [...] times, any real dtype, any layout.
/// @return float64 arrays [t's shape], C-contiguous (SciPy's promotion: a float64 NumPy scalar enters).
/// Asynchronous on the current stream.
/// @throws cusci::value_error for fc < 0, bw <= 0, bwr >= 0 (SciPy's messages); cusci::type_error for
///         complex t.
/// SciPy: `scipy.signal.gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False)`
/// with an array t (float32 t: SciPy's float32 cos(2 pi fc t) argument is reproduced).
gausspulse_result gausspulse(const ndarray& t, const gausspulse_options& opts = {});

/// SciPy's `gausspulse('cutoff', ...)`: the time at which the pulse envelope falls to tpr dB.
/// Host computation.
/// @throws cusci::value_error for fc < 0, bw <= 0, bwr >= 0, tpr >= 0 (SciPy's checks and order).
double gausspulse_cutoff(const gausspulse_options& opts = {});

/// The string form of `t`: "cutoff" gives `gausspulse_cutoff(opts)`.
/// @throws cusci::value_error for any other string (SciPy's message) and as gausspulse_cutoff.
double gausspulse(std::string_view t, const gausspulse_options& opts = {});

// ------------------------------------------------------------------------------------ sawtooth, square

/// Sawtooth / triangle wave of period 2 pi: rises from -1 to 1 on [0, 2 pi width), falls back on
/// [2 pi width, 2 pi); NaN where width is outside [0, 1].
/// @param t      [...] any real dtype, any layout.
/// @param width  scalar (weak, as a Python float: float32 t stays float32) or a device array
///               broadcastable with t (NumPy promotion of the two dtypes).
/// @return floating [broadcast shape]: float32 for float32 t (and float16 t, see below), else float64.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for shapes that do not broadcast; cusci::type_error for complex input.
/// SciPy: `scipy.signal.sawtooth(t, width=1.)`. Deviation: float16 inputs are computed and returned as
/// float32.
ndarray sawtooth(const ndarray& t, double width = 1.0);
ndarray sawtooth(const ndarray& t, const ndarray& width);

/// Square wave of period 2 pi: +1 on [0, 2 pi duty), -1 on [2 pi duty, 2 pi); NaN where duty is
/// outside [0, 1].
/// @param duty  scalar or device array, as sawtooth's width.
/// @return as sawtooth.
/// Asynchronous on the current stream.
/// @throws as sawtooth.
/// SciPy: `scipy.signal.square(t, duty=0.5)` (same float16 deviation as sawtooth).
ndarray square(const ndarray& t, double duty = 0.5);
ndarray square(const ndarray& t, const ndarray& duty);

// ------------------------------------------------------------------------------------ sweep_poly

/// Frequency-swept cosine with the instantaneous frequency given by the polynomial `poly` (highest
/// power first): cos(2 pi polyval(polyint(poly), t) + phi * pi / 180).
/// @param t     [...] any real dtype, any layout.
/// @param poly  host coefficients (numpy.poly1d's coefficients for a poly1d); may be empty (f = 0).
/// @param phi   phase offset in degrees.
/// @return float64 [t's shape], C-contiguous.
/// Asynchronous on the current stream.
/// @throws cusci::type_error for complex t.
/// SciPy: `scipy.signal.sweep_poly(t, poly, phi=0)` (Horner's rule with separately rounded products
/// and sums, as numpy.polyval).
ndarray sweep_poly(const ndarray& t, const std::vector<double>& poly, double phi = 0.0);

// ------------------------------------------------------------------------------------ unit_impulse

/// Unit impulse: zeros of `shape` and `dtype` with a one at `idx`.
/// @param shape  output shape (one entry for SciPy's int shape).
/// @param idx    none: index 0 along every axis; one int: that index along every axis; a list: one
///               index per leading axis (NumPy's indexing: negative indices count from the end, fewer
///               indices than axes set a whole sub-array to one).
/// @return a new device array; asynchronous on the current stream.
/// @throws cusci::value_error for a negative dimension; cusci::index_error for an index out of range or
///         more indices than axes.
/// SciPy: `scipy.signal.unit_impulse(shape, idx=None, dtype=float)`.
ndarray unit_impulse(const shape_t& shape, std::optional<std::int64_t> idx = {}, dtype dt = dtype::float64);
ndarray unit_impulse(const shape_t& shape, const std::vector<std::int64_t>& idx, dtype dt = dtype::float64);
/// The string form of idx: "mid" puts the one at shape // 2 along every axis.
/// @throws cusci::index_error for another string (NumPy's error indexing with a string), and as above.
ndarray unit_impulse(const shape_t& shape, std::string_view idx, dtype dt = dtype::float64);

// ------------------------------------------------------------------------------------ max_len_seq

/// Keyword arguments of `max_len_seq` after nbits.
struct max_len_seq_options {
  /// Initial register (nbits values, nonzero counts as 1); default all ones.
  std::optional<std::vector<double>> state{};
  /// Number of samples; default 2^nbits - 1.
  std::optional<std::int64_t> length{};
  /// Feedback taps (values in [0, nbits]; repeats are dropped); default SciPy's table for nbits 2..32.
  std::optional<std::vector<std::int64_t>> taps{};
};

/// `max_len_seq`'s outputs: the sequence and the final register.
struct max_len_seq_result {
  ndarray seq;        ///< int8 [length] on the device, values 0 / 1
  host_array state;   ///< int8 [nbits] on the host, rolled so that a later call continues the sequence
};

/// Maximum length sequence from a linear feedback shift register.
/// Host computation: each output bit depends on the previous ones (a strictly sequential recurrence of
/// one XOR per tap), so the register runs on the CPU (about 1 ns a bit) and the sequence is copied to
/// the device asynchronously; a GPU version would need the jump-ahead polynomial arithmetic that the
/// small sizes used in practice do not pay for.
/// @return {seq [length] int8 device array, state [nbits] int8 host array}.
/// @throws cusci::value_error for nbits outside 2..32 without taps, taps empty or outside [0, nbits],
///         length < 0, a state that is not of size nbits or is all zeros (SciPy's messages and order),
///         and a default length 2^nbits - 1 that does not fit (nbits > 62); cusci::out_of_memory when the
///         host sequence cannot be allocated.
/// SciPy: `scipy.signal.max_len_seq(nbits, state=None, length=None, taps=None)`.
max_len_seq_result max_len_seq(int nbits, const max_len_seq_options& opts = {});

}  // namespace cusci::signal
