#pragma once
/// @file bsplines.hpp
/// B-spline filtering of scipy.signal on the GPU: the spline coefficients of 1-D signals and images
/// (cspline1d, qspline1d, cspline2d, qspline2d), their evaluation (cspline1d_eval, qspline1d_eval),
/// the smoothing filter spline_filter, the symmetric IIR filters they are built on (symiirorder1,
/// symiirorder2), the separable mirror-symmetric FIR filter sepfir2d and gauss_spline.
///
/// Algorithm. Every spline-coefficient function is a pair of recursions of order 1 or 2: a causal
/// one and the same one run backwards, each started from SciPy's mirror-symmetric initial values
/// (sums of the first / last samples weighted by the filter's impulse response, truncated where
/// SciPy truncates them: at `precision` for symiirorder1/2, cspline2d, qspline2d; never for
/// cspline1d / qspline1d, which SciPy computes in Python over the whole signal). One engine runs
/// them over every line of an array: lines are cut into chunks so long lines stay parallel
/// (blocked linear-recurrence scan with a two-level carry between chunks), a warp moves 32 chunks
/// of the contiguous axis through shared memory, and along other axes consecutive threads own
/// consecutive columns. sepfir2d runs scipy.ndimage's convolve1d with mode "reflect" (SciPy's
/// mirror-symmetric boundary) along rows, then columns.
///
/// Parameters named as SciPy's; SciPy's `lambda` (a C++ keyword) is spelled `lambda_`. SciPy's
/// optional parameters here are all positional-or-keyword, so they are defaulted C++ parameters.

#include <complex>
#include <cstdint>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"  // array_like

namespace cusci::signal {

/// Cubic spline coefficients of a 1-D signal with mirror-symmetric boundaries (convolving them
/// mirror-symmetrically with [1, 4, 1] / 6 gives the signal back when lamb == 0).
/// @param signal [N] any layout; bool, integer, float or complex dtype.
/// @param lamb   smoothing coefficient; 0: interpolating spline; otherwise a smoothing spline,
///               which needs lamb >= 1/144 (smaller values have no real roots: value_error, as
///               SciPy's "math domain error"; lamb == 1/144 gives NaN as SciPy).
/// @return [N] float64 (complex128 for complex input): SciPy computes in float64 whatever the input.
/// Asynchronous on the current stream.
/// @throws cusci::type_error for a 0-d signal; cusci::value_error for ndim > 1, lamb out of range,
///         N == 2 with lamb != 0; cusci::index_error for N == 0, or N == 1 with lamb != 0 (SciPy's
///         IndexError).
/// SciPy: `scipy.signal.cspline1d`. The initial sums run over the whole signal as SciPy's (terms
/// whose weight underflows to 0 are skipped); N == 1 returns SciPy's unscaled value.
ndarray cspline1d(const ndarray& signal, double lamb = 0.0);

/// Quadratic spline coefficients of a 1-D signal (mirror-symmetric boundaries; convolve with
/// [1, 6, 1] / 8 to get the signal back).
/// @param signal [N] as cspline1d. @param lamb must be 0.
/// @return [N] float64 (complex128 for complex input). Asynchronous on the current stream.
/// @throws cusci::value_error for lamb != 0 ("Smoothing quadratic splines not supported yet.") or
///         ndim > 1; cusci::type_error for a 0-d signal; cusci::index_error for N == 0.
/// SciPy: `scipy.signal.qspline1d`.
ndarray qspline1d(const ndarray& signal, double lamb = 0.0);

/// Evaluates a cubic spline with coefficients `cj` (knots x0 + j dx) at `newx`, mirror-symmetric
/// outside [x0, x0 + (N-1) dx].
/// @param cj   [N], N >= 1: float32, float64, complex64 or complex128 (float16 is computed in float32).
/// @param newx [any shape] real dtype (bool, integer, float).
/// @param dx, x0 old sample spacing and origin.
/// @return [newx.shape] of cj's dtype. Asynchronous on the current stream.
/// @throws cusci::value_error for an empty cj ("Spline coefficients 'cj' must not be empty.") or a
///         cj of ndim > 1; cusci::type_error for a 0-d, integer or bool cj (SciPy cannot add the
///         float64 basis into an integer result) or a complex newx.
/// SciPy: `scipy.signal.cspline1d_eval`. Deviations: the mirror images are folded with fmod
/// instead of SciPy's recursion, so far points (where SciPy raises RecursionError) and N == 1
/// (where SciPy recurses forever for any point but 0) get values (N == 1: cj[0] everywhere);
/// +-inf gives NaN; positions are computed in float64 (SciPy: in newx's float type).
ndarray cspline1d_eval(const ndarray& cj, const ndarray& newx, double dx = 1.0, double x0 = 0.0);

/// Evaluates a quadratic spline (as cspline1d_eval).
/// @param cj   [N] bool, integer or float dtype (not complex: SciPy's result is real).
/// @param newx [any shape] real dtype.
/// @return [newx.shape]: float32 for float32 newx, float16 for float16 newx, float64 otherwise
///         (SciPy's (newx - x0) / dx dtype). An empty newx returns an empty result before cj is
///         looked at, as SciPy. Asynchronous on the current stream.
/// @throws cusci::value_error for an empty cj or ndim > 1; cusci::type_error for a complex cj or
///         newx, or a 0-d cj.
/// SciPy: `scipy.signal.qspline1d_eval`. Deviations as cspline1d_eval.
ndarray qspline1d_eval(const ndarray& cj, const ndarray& newx, double dx = 1.0, double x0 = 0.0);

/// Cubic B-spline coefficients of an image: the symmetric filter along the last axis, then along
/// axis 0 (SciPy's order; a 1-D input is filtered twice along its axis, an N-D input along its last
/// and first axes).
/// @param input     [ndim >= 1] any layout; bool, integer (computed in float64), float16 (computed
///                  in float32), float32, float64, complex64, complex128.
/// @param lambda_   SciPy's `lambda`: <= 1/144 gives the interpolating spline (symiirorder1 with
///                  z1 = -2 + sqrt(3)), larger values the smoothing spline (symiirorder2, real
///                  input only).
/// @param precision truncation of the initial sums; outside [0, 1): 1e-3 for float32/complex64
///                  input, 1e-6 otherwise; 0 then means SciPy's C default (1e-6 single, 1e-11 double).
/// @return [input.shape], C-contiguous: float32 for float16/float32 input, float64 for float64,
///         bool and integers, complex64/complex128 kept. Asynchronous on the current stream.
/// @throws cusci::index_error for a 0-d input; cusci::value_error when an axis is too short for the
///         sum to converge (SciPy's message) or an input of ndim > 1 has no elements;
///         cusci::type_error for complex input with lambda_ > 1/144.
/// SciPy: `scipy.signal.cspline2d`. Deviation: float16 input is filtered in float32 with float32
/// coefficients (SciPy rounds the recursion's coefficients to float16).
ndarray cspline2d(const ndarray& input, double lambda_ = 0.0, double precision = -1.0);

/// Quadratic B-spline coefficients of an image (symiirorder1 with z1 = -3 + 2 sqrt(2), last axis
/// then axis 0). Parameters, result and errors as cspline2d, except:
/// @param lambda_ must be <= 0 (value_error "lambda must be negative or zero"); complex input works.
/// SciPy: `scipy.signal.qspline2d`.
ndarray qspline2d(const ndarray& input, double lambda_ = 0.0, double precision = -1.0);

/// Smoothing-spline filter of an image: cspline2d(Iin, lmbda) convolved mirror-symmetrically with
/// [1, 4, 1] / 6 (float32 taps) along both axes.
/// @param Iin   [M, N] float32, float64, complex64 or complex128 (complex128 is computed in
///              complex64, as SciPy).
/// @param lmbda smoothing (> 1/144: smoothing spline, real input only).
/// @return [M, N] of Iin's dtype. Asynchronous on the current stream.
/// @throws cusci::type_error for other dtypes ("Invalid data type for Iin") and complex input with
///         lmbda > 1/144; cusci::value_error for ndim != 2 (after cspline2d's own checks, as SciPy)
///         or a sum that does not converge; cusci::index_error for a 0-d input.
/// SciPy: `scipy.signal.spline_filter`.
ndarray spline_filter(const ndarray& Iin, double lmbda = 5.0);

/// Gaussian approximation of the B-spline basis function of order n:
/// exp(-x^2 / (2 s)) / sqrt(2 pi s) with s = (n + 1) / 12.
/// @param x [any shape] float16/32/64, complex (kept), bool/integers (float64).
/// @param n order, n > -1.
/// @return [x.shape]. Asynchronous on the current stream.
/// @throws cusci::value_error for n == -1 (SciPy's ZeroDivisionError) or n < -1 ("math domain error").
/// SciPy: `scipy.signal.gauss_spline`. Deviation: integer x is squared in float64 (SciPy squares in
/// the integer type, which wraps for small types).
ndarray gauss_spline(const ndarray& x, double n);

/// Convolution with the separable filter hrow (along rows, axis 1) and hcol (along columns, axis 0)
/// with mirror-symmetric boundaries (x[-1] = x[0], SciPy's C code): out[m, n] = sum_i sum_j
/// hcol[i] hrow[j] x[m + Kc/2 - i, n + Kr/2 - j].
/// @param input [M, N] any layout; the result type is promote_types(input.dtype, float32) (bool,
///              8/16-bit integers and float16 -> float32; wider integers -> float64; float32,
///              float64, complex64, complex128 kept).
/// @param hrow  [Kr] odd length, a dtype that casts safely to the result type (host or device).
/// @param hcol  [Kc] likewise.
/// @return [M, N] C-contiguous, the result type. Asynchronous on the current stream (a device hrow
///         or hcol is copied to the host first: synchronizes).
/// @throws cusci::value_error for input.ndim != 2, hrow/hcol not 1-D or of even length;
///         cusci::type_error for taps that do not cast safely ("Cannot cast array data ... 'safe'").
/// SciPy: `scipy.signal.sepfir2d`. Deviation: taps longer than the image (Kr / 2 >= N or
/// Kc / 2 >= M), where SciPy reads outside the image, are mirrored again (scipy.ndimage "reflect").
ndarray sepfir2d(const ndarray& input, const array_like& hrow, const array_like& hcol);

/// Mirror-symmetric smoothing IIR filter of two first-order sections, c0 / ((1 - z1/z)(1 - z1 z)),
/// along the last axis of a 1-D or 2-D signal.
/// @param signal    [N] or [M, N] any layout; bool/integers -> float64, float16 -> float32;
///                  float32, float64, complex64, complex128 kept.
/// @param c0, z1    coefficients; |z1| < 1. Complex values need complex input (SciPy's TypeError
///                  for a complex c0 and real input).
/// @param precision truncation of the initial sum (<= 0 or > 1: 1e-6 single, 1e-11 double).
/// @return signal's shape, the computation dtype, C-contiguous. Asynchronous on the current stream.
/// @throws cusci::value_error for |z1| >= 1, ndim 0 or > 2, N too short for the sum to converge
///         ("Sum to find symmetric boundary conditions did not converge."); cusci::type_error for a
///         complex c0 with real input; cusci::not_implemented_error for a complex z1 with real input.
/// SciPy: `scipy.signal.symiirorder1`. Deviations: a complex z1 with real input (SciPy mixes the real
/// part and the complex value in a complex128 result) is refused; a non-C-contiguous input (F order,
/// strided view) gets SciPy's answer for the same values in C order (SciPy's C helper reads such a
/// buffer as if it were C-contiguous, so its initial sums take other samples).
ndarray symiirorder1(const ndarray& signal, std::complex<double> c0, std::complex<double> z1,
                     double precision = -1.0);

/// Mirror-symmetric smoothing IIR filter of two second-order sections,
/// cs^2 / ((1 - a2/z - a3/z^2)(1 - a2 z - a3 z^2)), a2 = 2 r cos(omega), a3 = -r^2,
/// cs = 1 - 2 r cos(omega) + r^2, along the last axis of a 1-D or 2-D signal.
/// @param input     [N] or [M, N] any layout; bool/integers -> float64, float16 -> float32; float32,
///                  float64 kept.
/// @param r, omega  pole radius (r < 1) and angle (radians).
/// @param precision as symiirorder1 (the backward initial sums stop at precision, not its square,
///                  exactly as SciPy's C code).
/// @return input's shape, the computation dtype. Asynchronous on the current stream.
/// @throws cusci::value_error for r >= 1, ndim 0 or > 2, a sum that does not converge;
///         cusci::type_error for complex input (SciPy: "Cannot cast ... according to the rule 'safe'").
/// SciPy: `scipy.signal.symiirorder2`.
ndarray symiirorder2(const ndarray& input, double r, double omega, double precision = -1.0);

}  // namespace cusci::signal
