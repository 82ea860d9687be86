#pragma once
/// @file zero_phase.hpp
/// Zero-phase (forward-backward) filtering on the GPU: `filtfilt` (transfer function, with SciPy's
/// padding or Gustafsson's initial conditions) and `sosfiltfilt` (second-order sections), plus
/// `lfiltic` (initial state of `lfilter` from past inputs and outputs; host).
///
/// Algorithm (method "pad", SciPy's `filtfilt` / `sosfiltfilt`). Every 1-D line along `axis` is
/// extended by `padlen` samples at both ends (odd, even or constant extension, or none); the
/// extension kernel writes the extended lines C-contiguous with the filtered axis last and, in the
/// same pass, the initial state `zi * x0` (zi = `lfilter_zi(b, a)` or `sosfilt_zi(sos)` scaled by
/// the first extended sample of each line). The forward pass is `lfilter` / `sosfilt` with that
/// state; the backward pass filters the time-reversed forward output (a reversed view, no copy made
/// here) from `zi * y0` (y0 the last forward output of each line, scaled on the GPU: no host round
/// trip of the data). The result is a view of the backward output, reversed and cropped back to
/// x's length, with the filtered axis put back in place (as SciPy, which also returns a view).
///
/// Method "gust" (F. Gustafsson, "Determining the initial states in forward-backward filtering",
/// IEEE Trans. Signal Processing 44(4):988-992, 1996; SciPy's `_filtfilt_gust`): the observability
/// matrix O, the matrix S of the filter applied to the reversed propagated states and the
/// least-squares operator pinv([S^R - O, O^R - S]) are formed once on the host in double precision
/// (Householder QR and a one-sided Jacobi SVD, the same minimum-norm solution as LAPACK's gelsd with
/// SciPy's default rank cutoff eps); the four filtering passes (forward-backward and
/// backward-forward from rest) run on the GPU through `lfilter`, and the per-line least-squares
/// solutions and corrections are two small batched matrix products on the GPU.

#include <cstdint>
#include <optional>
#include <string_view>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"

namespace cusci::signal {

/// The extension used by `filtfilt` / `sosfiltfilt` (SciPy's `padtype`; SciPy's `None` is `none`).
enum class pad_type { odd, even, constant, none };

/// Parses SciPy's `padtype` strings: "odd", "even", "constant", and "none" or "None" (SciPy's None).
/// @throws cusci::value_error for any other string (SciPy's message "Unknown value 'x' given to
///         padtype. padtype must be 'even', 'odd', 'constant', or None.").
pad_type parse_pad_type(std::string_view s);

/// Edge handling of `filtfilt` (SciPy's `method`).
enum class filtfilt_method { pad, gust };

/// Parses "pad" and "gust". @throws cusci::value_error otherwise ("method must be 'pad' or 'gust'.").
filtfilt_method parse_filtfilt_method(std::string_view s);

/// Keyword arguments of `filtfilt`, with SciPy's names and defaults.
struct filtfilt_options {
  /// Axis of x to filter (negative counts from the end).
  int axis = -1;
  /// Extension type (method "pad" only).
  pad_type padtype = pad_type::odd;
  /// Samples added at each end (method "pad" only); unset: 3 * max(len(a), len(b)). 0 (or a negative
  /// value, as SciPy) means no padding; forced to 0 when padtype is none.
  std::optional<std::int64_t> padlen{};
  filtfilt_method method = filtfilt_method::pad;
  /// Method "gust" only: length of the non-negligible part of the impulse response; unset (or
  /// x.shape[axis] <= 2 * irlen) uses the whole signal.
  std::optional<std::int64_t> irlen{};
};

/// Applies the filter b(z)/a(z) forward and backward along one axis (zero phase, squared magnitude).
/// @param b  [nb] numerator (host_array or device ndarray; real or complex; normalized by a[0]).
/// @param a  [na] denominator, a[0] != 0.
/// @param x  [..., n, ...] any layout (C, F, strided, negative strides); float32 / float64 /
///           complex64 / complex128 (integer and bool data promote as NumPy).
/// @param opts  axis, padtype, padlen, method, irlen (see filtfilt_options).
/// @return y with x's shape and dtype `result_type(b, a, x, lfilter_zi(b, a))` (float32 only when b, a
///         and x are float32 or narrower; complex when any input is). Method "pad" returns a view
///         (negative stride along the axis, as SciPy's); method "gust" a new array (axis last, viewed
///         back into place).
/// Asynchronous on the current stream, except that device coefficients are copied to the host
/// (synchronizes) and method "gust" forms its least-squares operator on the host (host work
/// O(n * order^2) per call, no data round trip).
/// @throws cusci::value_error for an empty or non-1-D b / a, a[0] == 0, sum(a) == 0 (method "pad":
///         lfilter_zi's unstable-filter error), a 0-d x, and x.shape[axis] <= padlen ("The length of
///         the input vector x must be greater than padlen, which is N."); cusci::index_error for axis
///         out of range; cusci::not_implemented_error for a result dtype that is not float32 / float64
///         / complex64 / complex128, or what lfilter rejects.
/// SciPy: `scipy.signal.filtfilt`. Deviations: integer data are converted to the result dtype before
/// the extension (SciPy extends in the integer dtype; differs only where that overflows); float16
/// computes in float32; with method "gust" and order 0 the axis is checked (SciPy does not), and the
/// result is b0/a0 * (b0/a0 * x) rather than (b0/a0)^2 * x (one rounding apart).
ndarray filtfilt(const array_like& b, const array_like& a, const ndarray& x, const filtfilt_options& opts = {});

/// Keyword arguments of `sosfiltfilt`, with SciPy's names and defaults.
struct sosfiltfilt_options {
  int axis = -1;
  pad_type padtype = pad_type::odd;
  /// Unset: 3 * (2 * n_sections + 1 - min(#(sos[:, 2] == 0), #(sos[:, 5] == 0))) (SciPy's rule, which
  /// discounts poles and zeros at the origin).
  std::optional<std::int64_t> padlen{};
};

/// Forward-backward filtering with cascaded second-order sections.
/// @param sos  [n_sections, 6] rows (b0, b1, b2, a0 == 1, a1, a2); host or device; real or complex.
/// @param x    [..., n, ...] any layout; float32 / float64 / complex64 / complex128 (integers promote).
/// @return y with x's shape and dtype `result_type(sos, x)` (a float64 `sos` gives float64 output for
///         float32 data, as SciPy); a view of the backward pass's output, as SciPy's.
/// Asynchronous on the current stream (a device `sos` is copied to the host: synchronizes).
/// @throws cusci::value_error when sos is not [n_sections, 6] (n_sections >= 1) or sos[:, 3] != 1, x is
///         0-d, x.shape[axis] <= padlen, or a section has sum(a) == 0 (sosfilt_zi);
///         cusci::index_error for axis out of range; cusci::not_implemented_error for a result dtype
///         other than float32 / float64 / complex64 / complex128.
/// SciPy: `scipy.signal.sosfiltfilt`. Deviations as filtfilt's (integer data, float16).
ndarray sosfiltfilt(const array_like& sos, const ndarray& x, const sosfiltfilt_options& opts = {});

/// Initial state of `lfilter` (direct form II transposed) from past outputs and inputs.
/// @param b  [M + 1] numerator; @param a  [N + 1] denominator, a[0] != 0 (real or complex).
/// @param y  past outputs {y[-1], y[-2], ..., y[-N]}; shorter is zero-padded, extra values ignored.
/// @param x  past inputs {x[-1], ..., x[-M]} (optional; zeros when not given), same rules.
/// @return [max(M, N)] host array of dtype `result_type(b, a, y[, x])`, float64 for integer/bool
///         results; computed in double / complex double and rounded once to that dtype.
/// Host only (synchronizes when an argument is a device array).
/// @throws cusci::value_error when a or b is more than 1-D ("Filter coefficients `a` must be 1-D."),
///         a is empty ("There must be at least one `a` coefficient."), or a[0] == 0 ("First `a`
///         filter coefficient must be non-zero.").
/// SciPy: `scipy.signal.lfiltic`. Deviations: y and x of more than one dimension are read flattened
/// (C order) and a 0-d y / x counts as one value; float32 inputs are accumulated in double (SciPy sums
/// in float32).
host_array lfiltic(const array_like& b, const array_like& a, const array_like& y);
host_array lfiltic(const array_like& b, const array_like& a, const array_like& y, const array_like& x);

}  // namespace cusci::signal
