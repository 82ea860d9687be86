#pragma once
/// @file fourier.hpp
/// Fourier-domain filters of cusci::ndimage with scipy.ndimage's semantics (SciPy 1.18.1):
/// fourier_gaussian, fourier_uniform, fourier_ellipsoid and fourier_shift multiply an array that holds
/// a discrete Fourier transform by the transform of a Gaussian, a box, an ellipsoid or a shift.
///
/// Common rules (as SciPy's scipy.ndimage._fourier and its C loops NI_FourierFilter /
/// NI_FourierShift):
/// - Input: the result of a complex FFT (`n < 0`, every axis holds the frequencies 0, 1, ...,
///   ceil(m/2) - 1, -floor(m/2), ..., -1 of its length m) or of a real FFT along `axis` (`n >= 0`:
///   that axis holds the frequencies 0, 1, ..., m - 1 and `n` is the length of the signal before the
///   transform; the other axes are complex-FFT axes). Any layout (C, F, strided, negative strides);
///   dtypes bool, int8..int64, uint8..uint64, float32, float64, complex64, complex128 (float16 is
///   refused, as SciPy's "data type not supported").
/// - The factor of each element is computed in double exactly as SciPy's loops do (per-axis tables
///   of double values, combined in axis order); the input element is converted to double, multiplied
///   in double and stored in the output dtype. Values agree with SciPy's to the last bit or two (the
///   device's exp/sin/cos/j1 differ from the host C library by at most a few ulps).
/// - `output` (SciPy's `output=`): nothing (a new C-contiguous array of the default dtype below), a
///   dtype (a new array of that dtype) or an existing device array of the input's shape and any
///   layout, which receives the result and is returned; it may be the input itself (in place).
/// - Every function enqueues its kernels on the current stream and returns without synchronizing.
///   It uses one small temporary (the per-axis tables, sum of the axis lengths doubles) and, only when
///   an output array shares memory with the input without being the very same view, a temporary of
///   the output's size.
/// - Errors follow SciPy's exception types: SciPy's RuntimeError is cusci::runtime_error, its
///   AxisError is cusci::index_error, its NotImplementedError cusci::not_implemented_error. Arrays
///   with more than 16 axes longer than 1 raise cusci::value_error (the kernels' limit, as cusci's
///   other kernels); allocation failures raise cusci::out_of_memory.

#include <cstdint>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// Keyword arguments of the Fourier filters (SciPy's names and defaults).
struct fourier_options {
  /// < 0: the input is the result of a complex FFT. >= 0: the input is the result of a real FFT
  /// along `axis`, and `n` is the length of that axis before the transform.
  std::int64_t n = -1;
  /// The axis of the real transform (negative counts from the end); normalized and checked even when
  /// `n < 0`, as SciPy.
  int axis = -1;
  /// Where the result goes (see the file's rules and each function's output dtypes).
  ndimage::output_arg output{};
};

/// Multiplies the input by the Fourier transform of a Gaussian of standard deviation sigma_d (in
/// samples) along each axis d: factor = prod_d g_d(k_d) with g_d(k) = exp(-2 (pi sigma_d / m_d)^2 k^2),
/// or 0 where the exponent's magnitude exceeds 50 (m_d the axis length, `n` along the real-FFT
/// axis; axes of length 1 contribute 1).
/// @param input [any shape, ndim >= 1] bool, integer, float32/64, complex64/128; any layout.
/// @param sigma one value for all axes or one per axis (exactly input.ndim() values); any double.
/// @param opts  n, axis, output.
/// @return [input.shape]: by default float32 for float32, complex64 / complex128 for complex64 /
///         complex128, float64 otherwise; with `output` a dtype: that dtype (float32, float64,
///         complex64 or complex128; a complex output of a real input has imaginary part 0; a complex
///         input needs a complex output).
/// Asynchronous on the current stream.
/// @throws cusci::index_error for `axis` out of range (also for a 0-d input; SciPy: AxisError);
///         cusci::runtime_error (SciPy: RuntimeError) for a sigma sequence whose length is not
///         input.ndim() ("sequence argument must have length equal to input rank"), an output dtype
///         other than float32/float64/complex64/complex128 ("output type not supported"), an output
///         array of another shape ("output shape not correct"), and, for a non-empty input, a float16
///         input or an output array / dtype that cannot hold the result (a real output for a complex
///         input, an integer output array: "data type not supported"); cusci::value_error for an
///         output array on another device or with a zero stride on an axis longer than 1.
/// SciPy: `scipy.ndimage.fourier_gaussian(input, sigma, n, axis, output)`. No deviation in values or
/// errors; `output=` as a dtype behaves as SciPy's dtype class (np.float32).
ndarray fourier_gaussian(const ndarray& input, const per_axis<double>& sigma, const fourier_options& opts = {});

/// Multiplies the input by the Fourier transform of a box of size s_d (in samples) along each axis:
/// factor = prod_d u_d(k_d) with u_d(0) = 1 and u_d(k) = sin(t k) / (t k), t = pi s_d / m_d, for
/// t > 0, and 0 for k != 0 when t <= 0 (m_d the axis length, `n` along the real-FFT axis; axes of
/// length 1 contribute 1).
/// @param input [any shape, ndim >= 1] as fourier_gaussian.
/// @param size  one value for all axes or one per axis (exactly input.ndim() values); any double.
/// @param opts  n, axis, output.
/// @return as fourier_gaussian.
/// Asynchronous on the current stream.
/// @throws as fourier_gaussian (with `size` for `sigma`).
/// SciPy: `scipy.ndimage.fourier_uniform(input, size, n, axis, output)`. No deviation.
ndarray fourier_uniform(const ndarray& input, const per_axis<double>& size, const fourier_options& opts = {});

/// Multiplies the input by the Fourier transform of an ellipsoid (1-D: a box, 2-D: an ellipse, 3-D:
/// an ellipsoid) of diameters s_d (in samples). With x_d = pi s_d k_d / m_d (m_d the axis length, `n`
/// along the real-FFT axis): 1-D factor sin(x) / x (1 at x = 0); 2-D with r = sqrt(x_0^2 + x_1^2):
/// 2 J1(r) / r (1 where r is not > 0); 3-D with r = sqrt(x_0^2 + x_1^2 + x_2^2):
/// 3 (sin r - r cos r) / r^3 (1 where r is not > 0).
/// @param input [any shape, 1 <= ndim <= 3] as fourier_gaussian.
/// @param size  one value for all axes or one per axis (exactly input.ndim() values); any double.
/// @param opts  n, axis, output.
/// @return as fourier_gaussian. An input with no elements returns the (empty) output before `axis`
///         and `size` are checked, as SciPy.
/// Asynchronous on the current stream.
/// @throws cusci::not_implemented_error for ndim > 3 ("Only 1d, 2d and 3d inputs are supported");
///         otherwise as fourier_gaussian (with `size` for `sigma`).
/// SciPy: `scipy.ndimage.fourier_ellipsoid(input, size, n, axis, output)`. J1 is the device's
/// double-precision Bessel function (SciPy evaluates its own Cephes-derived j1); results agree to
/// about 1e-15 absolute.
ndarray fourier_ellipsoid(const ndarray& input, const per_axis<double>& size, const fourier_options& opts = {});

/// Multiplies the input by the Fourier transform of a shift by s_d samples along each axis:
/// factor = exp(i phi), phi = sum_d (-2 pi s_d / m_d) k_d (m_d the axis length, `n` along the
/// real-FFT axis; axes of length 1 contribute 0), evaluated as cos(phi) + i sin(phi).
/// @param input [any shape, ndim >= 1] as fourier_gaussian.
/// @param shift one value for all axes or one per axis (exactly input.ndim() values); any double.
/// @param opts  n, axis, output.
/// @return [input.shape]: always complex: complex64 for complex64 input, complex128 otherwise by
///         default; with `output` a dtype: complex64 or complex128.
/// Asynchronous on the current stream.
/// @throws as fourier_gaussian (with `shift` for `sigma`), where the output dtype must be complex64 or
///         complex128 ("output type not supported" for another dtype, "data type not supported" for
///         a real output array of a non-empty input).
/// SciPy: `scipy.ndimage.fourier_shift(input, shift, n, axis, output)`. No deviation.
ndarray fourier_shift(const ndarray& input, const per_axis<double>& shift, const fourier_options& opts = {});

}  // namespace cusci::ndimage
