#pragma once
/// @file convolution.hpp
/// N-D convolution and correlation with SciPy's `scipy.signal` semantics: `convolve`, `correlate`
/// (direct or FFT method), `fftconvolve`, `oaconvolve`, `convolve2d`, `correlate2d` (with boundary
/// conditions), `choose_conv_method`, `correlation_lags` and `deconvolve`.
///
/// Algorithms (docs/signal-convolution.md has the details):
/// - direct: one thread per output element summing in2's window of the zero-extended in1, in the
///   result dtype (integers in int64, wrapped to the result's width at the end, which gives the
///   modular result NumPy's integer loops give); 2-D `convolve2d` / `correlate2d` use a
///   shared-memory tiled kernel that applies the boundary (fill / wrap / symm) while loading the tile.
/// - FFT: when the convolution runs along one axis with a 1-D filter (in2 of length 1 on every other
///   axis) and the signal is long, an overlap-save engine: the filter spectrum is computed once,
///   the signal is cut into overlapping blocks of a power-of-two length chosen for the filter
///   length, gathered into one buffer, transformed by one batched cuFFT R2C (C2C for complex) plan,
///   multiplied by the filter spectrum, transformed back by a batched C2R plan, and the valid part
///   of each block is written straight into the `mode` crop of the output. Otherwise
///   (several axes, per-line filters, short lines): SciPy's own scheme with core's rfftn / irfftn
///   (fftn / ifftn for complex) at next_fast_len sizes. Results equal SciPy's to rounding.
///
/// Stream behaviour: every function is asynchronous on the current stream, except where its
/// comment says "synchronizes" (`choose_conv_method` / method auto on integer inputs, which reads the
/// inputs' maxima as SciPy does, and `deconvolve`, which divides polynomials on the host).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"

namespace cusci::signal {

/// SciPy's `mode=` of the convolutions: the size of the output.
enum class conv_mode {
  full,   ///< "full": the full discrete linear convolution, in1.shape + in2.shape - 1
  valid,  ///< "valid": only elements that do not rely on zero-padding (the larger shape minus the smaller + 1)
  same,   ///< "same": in1's shape, centred on the full output
};
/// Parses "full", "valid", "same".
/// @throws cusci::value_error for any other string (SciPy's message).
conv_mode parse_conv_mode(std::string_view s);

/// SciPy's `method=` of convolve / correlate.
enum class conv_method {
  auto_,   ///< "auto": choose_conv_method's estimate
  direct,  ///< "direct": the sum of products
  fft,     ///< "fft": fftconvolve
};
/// Parses "auto", "direct", "fft". @throws cusci::value_error otherwise (SciPy's message).
conv_method parse_conv_method(std::string_view s);

/// SciPy's `boundary=` of convolve2d / correlate2d.
enum class conv_boundary {
  fill,  ///< "fill": pad with `fillvalue`
  wrap,  ///< "wrap" (or "circular"): periodic
  symm,  ///< "symm" (or "symmetric"): mirror including the edge sample
};
/// Parses "fill", "wrap", "circular", "symm", "symmetric". @throws cusci::value_error otherwise.
conv_boundary parse_conv_boundary(std::string_view s);

/// Keyword arguments of convolve / correlate.
struct convolve_options {
  conv_mode mode = conv_mode::full;
  conv_method method = conv_method::auto_;
};

/// Keyword arguments of fftconvolve / oaconvolve. `axes`: the axes to convolve over (default: all);
/// the other axes must match or be 1 in one input (broadcast).
struct fftconvolve_options {
  conv_mode mode = conv_mode::full;
  std::optional<std::vector<int>> axes{};
};

/// Keyword arguments of convolve2d / correlate2d.
struct convolve2d_options {
  conv_mode mode = conv_mode::full;
  conv_boundary boundary = conv_boundary::fill;
  scalar fillvalue = 0;
};

/// Convolves two N-D arrays.
/// @param in1  [any shape] first input; bool, integer, float16/32/64, complex64/128; any layout.
/// @param in2  [same ndim as in1] second input, same dtypes and layouts.
/// @param opts mode (full / valid / same), method (auto / direct / fft).
/// @return shape by mode (full: in1 + in2 - 1; same: in1's; valid: |in1 - in2| + 1 per axis),
///         dtype NumPy's result_type(in1, in2) for every method (fft on integer inputs rounds, as
///         SciPy); C-contiguous. 0-d inputs give their product.
/// Asynchronous on the current stream; method auto with an integer input synchronizes (see
/// choose_conv_method).
/// @throws cusci::value_error for in1.ndim != in2.ndim; valid mode where neither input is at least
///         as large as the other in every dimension; an empty input with the direct method
///         (SciPy fails there too; the fft method returns an empty float64 array, as SciPy); bool
///         or float16 inputs of more than one dimension with the direct method (SciPy's
///         "Unsupported type"); cusci::index_error for an empty input with the fft method (SciPy
///         fails reading out[0]); cusci::not_implemented_error for more than 8 dimensions with the
///         direct method (cusci's limit).
/// SciPy: `scipy.signal.convolve`. Deviations: no warning for NaN / inf with the fft method; the
///   direct method sums in the result dtype in another order than SciPy (float rounding differs).
ndarray convolve(const ndarray& in1, const ndarray& in2, const convolve_options& opts = {});

/// Cross-correlates two N-D arrays: z[k] = sum_l in1[l + k - K] * conj(in2[l]) (K by mode).
/// Parameters, result, stream behaviour and errors as convolve (with SciPy's swap in valid mode:
/// when in2 is larger the result is the reversed and conjugated correlation of the swapped inputs).
/// SciPy: `scipy.signal.correlate`.
ndarray correlate(const ndarray& in1, const ndarray& in2, const convolve_options& opts = {});

/// Convolves two N-D arrays with the FFT.
/// @param in1, in2  [same ndim] any dtype (float16 computes in float32, integers and bool in
///         float64); any layout.
/// @param opts mode; axes (default all; axes where either input has length 1 are dropped, as SciPy).
/// @return shape by mode over `axes` (the other axes broadcast); dtype float32 / complex64 for
///         single-precision inputs (float16 gives float32), float64 / complex128 otherwise (integer
///         and bool inputs give float64, as scipy.fft). An empty input gives an empty float64 [0].
/// Asynchronous on the current stream.
/// @throws cusci::value_error for ndim mismatch, `axes` given empty, an axis out of range ("axes
///         exceeds dimensionality of input", as SciPy: not an index_error), repeated axes,
///         incompatible non-convolved axes, valid mode with neither input at least as large.
/// SciPy: `scipy.signal.fftconvolve`. Deviation: a 1-D filter on a long signal is convolved by
///   overlap-save (blocks of a power-of-two length) instead of one transform of the full length;
///   the values agree to rounding (float32: relative to the output's scale, see the doc page).
ndarray fftconvolve(const ndarray& in1, const ndarray& in2, const fftconvolve_options& opts = {});

/// Convolves two N-D arrays with the overlap-add method (block FFTs). Parameters, result, stream
/// behaviour and errors as fftconvolve.
/// SciPy: `scipy.signal.oaconvolve`. Deviation: the block length is chosen for the GPU (a power of
///   two minimising the transform work per output sample, at most 2^14) rather than by SciPy's
///   Lambert-W formula, and the blocks overlap-save rather than overlap-add; values agree to rounding.
ndarray oaconvolve(const ndarray& in1, const ndarray& in2, const fftconvolve_options& opts = {});

/// Convolves two 2-D arrays with boundary conditions.
/// @param in1, in2  [rows, cols] integer, float32/64, complex64/128; any layout.
/// @param opts mode; boundary (fill / wrap / symm); fillvalue (used by fill; a complex fillvalue
///         needs a complex result dtype).
/// @return shape by mode; dtype result_type(in1, in2); C-contiguous.
/// Asynchronous on the current stream.
/// @throws cusci::value_error when an input is not 2-D ("convolve2d inputs must both be 2-D
///         arrays"), valid mode with neither input at least as large, an empty input, a bool or
///         float16 dtype ("convolve2d not available for this type"), a complex fillvalue for a
///         real result, boundary wrap / symm with an empty in1 (cusci's: SciPy's result there is
///         not meaningful); an empty in1 with fill gives fillvalue * sum(in2) everywhere, as SciPy.
/// SciPy: `scipy.signal.convolve2d`.
ndarray convolve2d(const ndarray& in1, const ndarray& in2, const convolve2d_options& opts = {});

/// Cross-correlates two 2-D arrays with boundary conditions (in2 conjugated). As convolve2d; in
/// valid mode with in2 larger the inputs are swapped and the output reversed (not conjugated),
/// exactly as SciPy does.
/// SciPy: `scipy.signal.correlate2d`.
ndarray correlate2d(const ndarray& in1, const ndarray& in2, const convolve2d_options& opts = {});

/// Keyword arguments of choose_conv_method (`measure=True` is not offered).
struct choose_conv_method_options {
  conv_mode mode = conv_mode::full;
};

/// The faster of direct and fft for convolve / correlate, by SciPy's measure=False heuristic (an
/// operation count with SciPy's constants; direct for bool inputs and for integer inputs whose
/// exact result could exceed 2^52).
/// @param in1, in2  [same ndim] as convolve.
/// @return conv_method::direct or conv_method::fft.
/// Synchronizes when an input has an integer dtype (reads max |in1| and max |in2|, as SciPy);
/// otherwise touches no device (only the shapes and dtypes are read).
/// @throws cusci::value_error for an empty integer input (NumPy's max of an empty array).
/// SciPy: `scipy.signal.choose_conv_method(in1, in2, mode, measure=False)`. Deviation: the constants
///   are SciPy's (fitted on a CPU), so the GPU crossover is only approximate; measure=True is absent.
conv_method choose_conv_method(const ndarray& in1, const ndarray& in2, const choose_conv_method_options& opts = {});

/// The lag index of each element of the 1-D cross-correlation of signals of lengths in1_len and
/// in2_len with `mode`.
/// @return a host int64 array of the lags (NumPy's arange and slicing rules for any lengths, as
///         SciPy, which checks nothing). Touches no device.
/// SciPy: `scipy.signal.correlation_lags`.
host_array correlation_lags(std::int64_t in1_len, std::int64_t in2_len, conv_mode mode = conv_mode::full);

/// Quotient and remainder of deconvolve.
struct deconvolve_result {
  ndarray quotient;   ///< [N - D + 1] (empty float64 when D > N)
  ndarray remainder;  ///< [N]
};

/// Deconvolves `divisor` out of `signal` by polynomial division: signal = convolve(divisor,
/// quotient) + remainder.
/// @param signal   [N] 1-D, non-empty (a 0-d array counts as [1]); real or complex dtype.
/// @param divisor  [D] 1-D, non-empty, divisor[0] != 0.
/// @return quotient and remainder, float64 (complex128 when an input is complex); when D > N the
///         quotient is empty and the remainder is `signal` itself (its dtype), as SciPy.
/// Synchronizes: the division runs on the host in double precision (SciPy's lfilter of an impulse),
/// the results are uploaded.
/// @throws cusci::value_error for an empty or more than 1-D input (SciPy's message), divisor[0] == 0.
/// SciPy: `scipy.signal.deconvolve`. Deviation: divisor[0] == 0 raises (SciPy divides by zero).
deconvolve_result deconvolve(const ndarray& signal, const ndarray& divisor);

}  // namespace cusci::signal
