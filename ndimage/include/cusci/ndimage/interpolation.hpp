#pragma once
/// @file interpolation.hpp
/// Spline interpolation of cusci::ndimage with scipy.ndimage's semantics (SciPy 1.18): the B-spline
/// prefilters spline_filter1d and spline_filter, and the resampling functions geometric_transform,
/// map_coordinates, affine_transform, shift, zoom and rotate.
///
/// Common rules (as SciPy 1.18):
/// - `order` is the spline order, 0..5 (cusci::runtime_error otherwise, SciPy's RuntimeError
///   "spline order not supported").
/// - `mode` is SciPy's interpolation mode. Unlike the filters, the resampling functions distinguish
///   `wrap` (period len - 1, SciPy's historical rule) from `grid_wrap` (period len), `constant`
///   (points outside [0, len - 1] take cval; inside, the spline sees a mirrored input) from
///   `grid_constant` (the input is extended with cval, every tap outside takes cval), and treat
///   `reflect` and `grid_mirror` alike.
/// - Prefiltering (`prefilter` true and order > 1) converts the input to float64 B-spline
///   coefficients with spline_filter under the same mode; for `nearest` and `grid_constant` the input
///   is first padded by 12 samples per side (edge values / cval), as SciPy's
///   `_prepad_for_spline_filter`, and the coordinates are shifted by that padding.
/// - Values are interpolated in float64. A float output receives the value rounded to its
///   precision; an integer output receives it rounded to the nearest integer (halves away from zero)
///   and clipped to the dtype's range (unsigned: negatives give 0), as ni_interpolation.c; a bool
///   output receives (unsigned char) of the truncated value.
/// - Complex inputs are processed as their real and imaginary parts (cval's real part for the real
///   part, its imaginary part for the imaginary part); the output is complex (a real output dtype is
///   promoted to complex, a real output array is refused).
/// - Inputs: any real or complex dtype except float16, any layout (read through their strides).
///   The result is a new C-contiguous array, or the `output` array given (which may be the input).
/// - Every function enqueues its work on the current stream and returns without synchronizing;
///   temporaries (the prefiltered coefficients) come from the pool.
/// - Arithmetic follows ni_interpolation.c / ni_splines.c operation by operation (no fused
///   multiply-adds), so results agree with SciPy's to the last bit or within a few ulps. The one
///   exception: the prefilter's recursions on lines of 64 samples or more run in parallel chunks
///   (each chunk from a zero start, then corrected by the carried-in value times powers of the pole),
///   whose values differ from the sequential ones by rounding only; spline_filter1d / spline_filter
///   with an integer output keep the sequential order, so their truncated values are SciPy's.

#include <complex>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/device_function.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// Keyword arguments of spline_filter1d and spline_filter.
struct spline_filter_options {
  /// Output dtype or array; default float64 (SciPy's `output=numpy.float64`).
  ndimage::output_arg output = cusci::dtype::float64;
  /// Boundary condition of the spline (its initial conditions): mirror (default), reflect /
  /// grid_mirror and nearest (half-sample symmetric), grid_wrap (periodic), and constant,
  /// grid_constant and wrap, which use the mirror conditions as SciPy.
  ndimage::mode mode = mode::mirror;
};

/// One-dimensional B-spline prefilter along `axis`: each line becomes the coefficients of the
/// interpolating B-spline of `order` (Unser, Aldroubi & Eden 1991; causal and anticausal recursive
/// filters per pole with SciPy's initial conditions for the mode).
/// @param input [any shape] any real or complex dtype except float16, any layout.
/// @param order 0..5; orders 0 and 1 copy the input (cast to the output dtype).
/// @param axis  in [-ndim, ndim).
/// @param opts  output dtype / array, mode.
/// @return [input.shape] float64 by default; an integer output receives the C cast (truncation) of
///         the float64 coefficients.
/// Asynchronous on the current stream.
/// @throws cusci::runtime_error for order outside 0..5, an output array of another shape, a float16
///         input or output (SciPy's "array type not supported") or a real output array for a
///         complex input; cusci::index_error for a bad axis.
/// SciPy: `scipy.ndimage.spline_filter1d`.
ndarray spline_filter1d(const ndarray& input, int order = 3, int axis = -1, const spline_filter_options& opts = {});

/// Multidimensional B-spline prefilter: spline_filter1d along every axis in turn, each pass reading
/// the previous one stored in the output dtype (as SciPy).
/// @param order 2..5 (SciPy refuses 0 and 1 here).
/// Other parameters, result, stream behaviour and exceptions as spline_filter1d.
/// SciPy: `scipy.ndimage.spline_filter`.
ndarray spline_filter(const ndarray& input, int order = 3, const spline_filter_options& opts = {});

/// Keyword arguments of geometric_transform (SciPy's `extra_arguments` / `extra_keywords` have no
/// counterpart: constants go into the mapping's source, its NVRTC options (`-DNAME=value`) or the
/// functor's members).
struct geometric_transform_options {
  /// Output shape (any rank >= 1); default: the input's shape, also when an output array is given
  /// (SciPy's rule: the array's shape must then equal it).
  std::optional<shape_t> output_shape{};
  /// Output dtype or array; default: the input dtype.
  ndimage::output_arg output{};
  int order = 3;
  ndimage::mode mode = mode::constant;
  /// Value outside the input for constant / grid_constant; complex for complex inputs.
  std::complex<double> cval = 0.0;
  bool prefilter = true;
};

/// Resampling through an arbitrary mapping (pull): out[o] = spline(input)(mapping(o)), where the
/// mapping, a CUDA `__device__` function compiled at run time, gives the input coordinates of every
/// output point. The function named `mapping.name` in `mapping.code` must be callable as
///
///     int mapping(const std::ptrdiff_t* output_coordinates, double* input_coordinates,
///                 int output_rank, int input_rank);
///
/// SciPy's LowLevelCallable signature without `user_data`: it reads the output point's
/// `output_rank` indices and writes `input_rank` coordinates (entries it leaves unwritten are 0),
/// and returns nonzero on success, 0 on failure. A function returning `void` is accepted too (it
/// cannot fail). Parameters may also be declared non-const or as `long` (std::ptrdiff_t is `long`).
/// The source is compiled by NVRTC (C++17 unless an `-std=` option is given) together with a kernel
/// cusci generates around the function, with `--fmad=false` before `mapping.options` (so the
/// mapping's arithmetic rounds as SciPy's does; `--fmad=true` in the options restores contraction);
/// `ptrdiff_t` and `std::ptrdiff_t` are declared for it (NVRTC has no standard headers; include
/// `<cuda/std/...>` headers for more). The first call with a given (code, name, options) compiles
/// (blocking the host; the binary is cached in memory and on disk as every cusci::rtc kernel, see
/// cusci/rtc.hpp); later calls reuse the loaded kernel without compiling. Programs built with nvcc
/// can pass a device functor instead (cusci/ndimage/nvcc/geometric_transform.cuh).
///
/// The input coordinates are interpolated as map_coordinates does (SciPy runs both through
/// NI_GeometricTransform): same prefilter, modes, cval, rounding of integer outputs, complex inputs
/// part by part (the mapping is evaluated once per output point for both parts); values agree with
/// SciPy's to the bit wherever map_coordinates' do and the mapping computes the same coordinates.
/// The output points are processed in chunks of at most 2^22 points (the mapping kernel fills a
/// float64 coordinate buffer of input_rank x chunk points, then the interpolation kernels read it),
/// so the extra memory stays bounded (32 MiB per input axis).
/// @param input   [n_0, ..., n_{d-1}], d >= 1: any real or complex dtype except float16, any layout.
/// @param mapping CUDA C++ source of the `__device__` mapping (see above).
/// @param opts    output_shape (its rank may differ from the input's), output dtype / array (may be
///                the input itself: the result is then the one a separate output gets), order 0..5,
///                mode, cval, prefilter.
/// @return [output_shape] of the input dtype or `opts.output` (a given array is returned).
/// Asynchronous on the current stream when the mapping returns void; with a status-returning
/// mapping the call synchronizes the current stream once, at its end, to read whether any point
/// failed. Compiling blocks the host on first use.
/// @throws cusci::runtime_error for order outside 0..5 ("spline order not supported"), a 0-d input or
///         an empty output_shape ("input and output rank must be > 0"), an output array whose shape
///         is not output_shape ("output shape not correct"), a real output array for a complex input
///         ("output must have complex dtype"), a complex output for a real input or float16 data
///         ("data type not supported"), and when the mapping returned 0 for some point ("unknown
///         error in mapping function", SciPy's RuntimeError; the output's content is then
///         unspecified), an input without elements for a non-empty output; cusci::value_error for a negative output_shape entry or a `mapping.name`
///         that is not an identifier; cusci::type_error for a complex cval with a real input;
///         cusci::not_implemented_error for ranks above 16; cusci::rtc::compile_error (with NVRTC's
///         log) when the source does not compile or the function does not have the signature above.
///         Argument errors are raised before anything is compiled or allocated.
/// SciPy: `scipy.ndimage.geometric_transform`. Deviations: `mapping` is CUDA source (or a device
/// functor), not a Python callable; no `extra_arguments` / `extra_keywords`; a mapping cannot raise
/// an exception of its own (it returns 0, which raises cusci::runtime_error); the failure check
/// happens after every point is mapped (SciPy stops at the first failure); with the output array
/// being the input itself and no prefiltered copy (order <= 1 or prefilter false), SciPy overwrites
/// input values it still reads, cusci gives the result of a separate output; an input without
/// elements raises cusci::runtime_error (SciPy fills the output with cval in constant mode and
/// reads out of bounds in the others).
ndarray geometric_transform(const ndarray& input, const device_function& mapping,
                            const geometric_transform_options& opts = {});

/// Keyword arguments of map_coordinates.
struct map_coordinates_options {
  /// Output dtype or array; default: the input dtype.
  ndimage::output_arg output{};
  int order = 3;
  ndimage::mode mode = mode::constant;
  /// Value outside the input for constant / grid_constant; complex for complex inputs.
  std::complex<double> cval = 0.0;
  bool prefilter = true;
};

/// Interpolates the input at the given coordinates: out[j...] = spline(input)(coordinates[:, j...]).
/// @param input       [n_0, ..., n_{d-1}], d >= 1.
/// @param coordinates [d, m_0, ..., m_{k-1}], k >= 1: any real dtype except float16 (integers are
///                    converted to float64 exactly), any layout.
/// @return [m_0, ..., m_{k-1}] of the input dtype or `opts.output`.
/// Asynchronous on the current stream.
/// @throws cusci::runtime_error for a bad order, a 0-d input or 1-d coordinates ("input and output
///         rank must be > 0"), coordinates.shape[0] != input.ndim ("invalid shape for coordinate
///         array"), an output array of the wrong shape, float16 data or coordinates ("data type not
///         supported"), a real output array for a complex input; cusci::type_error for complex
///         coordinates or a complex cval with a real input.
/// SciPy: `scipy.ndimage.map_coordinates`.
ndarray map_coordinates(const ndarray& input, const ndarray& coordinates, const map_coordinates_options& opts = {});

/// Keyword arguments of affine_transform.
struct affine_transform_options {
  /// Offset added to matrix @ o: one value or one per input axis (ignored for a homogeneous matrix).
  per_axis<double> offset = 0.0;
  /// Output shape; default: the output array's shape if one is given, else the input's.
  std::optional<shape_t> output_shape{};
  ndimage::output_arg output{};
  int order = 3;
  ndimage::mode mode = mode::constant;
  std::complex<double> cval = 0.0;
  bool prefilter = true;
};

/// Affine resampling (pull): out[o] = spline(input)(matrix @ o + offset).
/// @param matrix host array (converted to float64) of shape [d] (the diagonal: SciPy's separable
///               path, coordinates (o + offset / m) * m), [d, k] (k = output rank), [d, d + 1]
///               (last column = offset) or [d + 1, d + 1] (homogeneous; the last row must be
///               [0, ..., 0, 1]), d = input.ndim.
/// @return [output_shape] of the input dtype or `opts.output`.
/// Asynchronous on the current stream.
/// @throws cusci::runtime_error for a bad order, rank 0, "no proper affine matrix provided",
///         "affine matrix has wrong number of rows / columns", an offset sequence of the wrong
///         length, an output array of the wrong shape; cusci::value_error for a homogeneous matrix
///         whose last row is not [0, ..., 0, 1]; cusci::type_error as map_coordinates.
/// SciPy: `scipy.ndimage.affine_transform`.
ndarray affine_transform(const ndarray& input, const host_array& matrix, const affine_transform_options& opts = {});

/// Keyword arguments of shift.
struct shift_options {
  ndimage::output_arg output{};
  int order = 3;
  ndimage::mode mode = mode::constant;
  std::complex<double> cval = 0.0;
  bool prefilter = true;
};

/// Shifts the array: out[o] = spline(input)(o - shift).
/// @param shift one value or one per axis.
/// @return [input.shape] of the input dtype or `opts.output`.
/// Asynchronous on the current stream.
/// @throws cusci::runtime_error for a bad order, a 0-d input, a shift sequence of the wrong length
///         ("sequence argument must have length equal to input rank"); cusci::type_error as
///         map_coordinates.
/// SciPy: `scipy.ndimage.shift`.
ndarray shift(const ndarray& input, const per_axis<double>& shift, const shift_options& opts = {});

/// Keyword arguments of zoom.
struct zoom_options {
  ndimage::output_arg output{};
  int order = 3;
  ndimage::mode mode = mode::constant;
  std::complex<double> cval = 0.0;
  bool prefilter = true;
  /// False: the distance between the first and last pixel centres is zoomed (out[o] samples
  /// o * (n_in - 1) / (n_out - 1)); true: the full pixel extent is ((o + 0.5) * n_in / n_out - 0.5).
  bool grid_mode = false;
};

/// Zooms the array: output shape round(n_i * zoom_i) (Python's round, halves to even).
/// A zoom of 1 on every axis with prefilter returns a copy of the input (SciPy's early exit).
/// @param zoom one factor or one per axis.
/// @return [round(shape * zoom)] of the input dtype or `opts.output`.
/// Asynchronous on the current stream. SciPy warns for grid_mode with constant / wrap; cusci does
/// not warn. As SciPy 1.18, a complex input is zoomed part by part without grid_mode (SciPy does
/// not pass grid_mode on to the calls for the real and imaginary parts).
/// @throws as shift.
/// SciPy: `scipy.ndimage.zoom`.
ndarray zoom(const ndarray& input, const per_axis<double>& zoom, const zoom_options& opts = {});

/// Keyword arguments of rotate.
struct rotate_options {
  /// The two axes spanning the rotation plane (negative values count from the end).
  std::vector<int> axes{1, 0};
  /// True: the output plane grows to contain the whole rotated input.
  bool reshape = true;
  ndimage::output_arg output{};
  int order = 3;
  ndimage::mode mode = mode::constant;
  std::complex<double> cval = 0.0;
  bool prefilter = true;
};

/// Rotates the array by `angle` degrees in the plane of `opts.axes` (SciPy's matrix from cosdg /
/// sindg, exact for multiples of 90 degrees, and its centre offsets); arrays of more than 2
/// dimensions are rotated plane by plane (each plane prefiltered on its own, as SciPy).
/// @return the input shape, with the plane's extent grown when `reshape`.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for ndim < 2 ("input array should be at least 2D"), axes not two
///         values or out of range ("invalid rotation plane specified"); otherwise as affine_transform.
/// SciPy: `scipy.ndimage.rotate`.
ndarray rotate(const ndarray& input, double angle, const rotate_options& opts = {});

}  // namespace cusci::ndimage
