#pragma once
/// @file grey_morphology.hpp
/// Grey-scale morphology of cusci::ndimage with scipy.ndimage's semantics: grey_erosion,
/// grey_dilation, grey_opening, grey_closing, morphological_gradient, morphological_laplace,
/// white_tophat and black_tophat.
///
/// Common rules (as SciPy 1.18.1):
/// - The structuring element is a box (`size`: one length or one per filtered axis), a flat
///   `footprint` (a host array, nonzero = inside, one dimension per filtered axis) or a non-flat
///   `structure` (a host array of values, converted to float64, one dimension per filtered axis;
///   without a footprint every element is inside, with one the footprint says which). The footprint
///   wins over `size`; `structure` makes the filter non-separable.
/// - grey_erosion is SciPy's minimum filter with the structure's value subtracted from each
///   neighbour: out[i] = min over footprint elements k of (ext(input)[i + k - shift] - structure[k]),
///   shift = extent / 2 + origin per axis; grey_dilation is the maximum filter with the structure
///   added, the footprint and structure mirrored (all axes reversed) and the origin negated (minus
///   one more along axes of even extent), so that dilation is the adjoint of erosion.
/// - Values: without `structure` the result is exact in the input dtype (minimum_filter /
///   maximum_filter, filters.hpp, NaN included). With `structure` each neighbour (bool and integers
///   included) is converted to double, the structure value added (its negation for the erosion), the
///   sums compared in double in SciPy's order (the first footprint element, then each later one that
///   compares strictly smaller / larger: a NaN first value is the result, a later NaN is never taken)
///   and the winner stored into the output dtype with C's conversion as compiled for x86-64, as
///   SciPy's NI_MinOrMaxFilter (so uint8 0 eroded by 1 stores 255, a bool output stores the byte).
///   `cval` is first converted to the input dtype with a C cast (SciPy's `(_type)cval`).
/// - Input: bool, int8..int64, uint8..uint64, float32, float64, any shape and layout (C, F, strided,
///   reversed and zero-stride views are read through their strides). float16 and complex inputs are
///   refused as SciPy refuses them.
/// - `output` (output.hpp): not given, the input dtype; a dtype, a new array of it; an existing
///   device array of the input's shape that receives the result and is returned. It may be the input
///   itself: the result is that of a separate output array (see each function for the composites).
///   New outputs are C-contiguous.
/// - `mode` is one mode, or one per filtered axis where the filter is separable (a box or an
///   all-true footprint, no structure); `origin` one value or one per filtered axis.
/// - Every function enqueues its kernels on the current stream and returns without synchronizing.

#include <cstdint>
#include <optional>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// Keyword arguments of the grey morphology functions (SciPy's names and defaults).
struct grey_morphology_options {
  /// Flat structuring element (nonzero = inside), one dimension per filtered axis; replaces `size`.
  std::optional<host_array> footprint{};
  /// Non-flat structuring element: a value per element (converted to float64), one dimension per
  /// filtered axis; with a footprint, as many elements as the footprint (read in C order).
  std::optional<host_array> structure{};
  ndimage::output_arg output{};
  /// One mode, or one per filtered axis for separable filters (box or all-true footprint).
  per_axis<ndimage::mode> mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant.
  double cval = 0.0;
  /// Shift of the structuring element per axis: -(extent / 2) <= origin <= (extent - 1) / 2 (the
  /// dilation negates it and subtracts 1 along even extents, which keeps this range).
  per_axis<std::int64_t> origin = 0;
  /// Axes to filter (negative values count from the end); default: all axes.
  std::optional<std::vector<int>> axes{};
};

/// Grey-scale erosion: minimum over the structuring element of the input minus the structure.
/// @param input [any shape] bool, integer, float32 or float64 dtype, any layout.
/// @param size  box extents, one or one per filtered axis (ignored when a footprint or structure is
///              given; extents <= 1 leave an axis unfiltered for a box).
/// @param opts  footprint, structure, output, mode, cval, origin, axes.
/// @return [input.shape], dtype `opts.output` or input.dtype() (the output array when given).
/// Asynchronous on the current stream (footprints of more than 512 elements are copied to the
/// device first).
/// @throws cusci::value_error when none of size, footprint and structure is given ("size,
///         footprint, or structure must be specified"), for an all-zero footprint, an origin out of
///         range ("invalid origin"), axes out of range or repeated;
///         cusci::type_error for a complex input ("Complex type not supported");
///         cusci::runtime_error for an output array of another shape ("output shape not correct"),
///         a sequence (size, origin, mode) of the wrong length, a footprint or structure whose rank
///         is not the number of filtered axes or with an extent 0, a structure whose element count
///         differs from the footprint's, several modes for a non-separable element, float16 or
///         complex dtypes, a mode outside the enum.
/// SciPy: `scipy.ndimage.grey_erosion`. Deviations: no UserWarning when both size and footprint are
/// given; a structure whose element count differs from the footprint's is refused (SciPy reads it
/// flat, past its end when it is smaller); 64-bit integers with a flat footprint that is not all
/// true are compared and stored exactly (SciPy rounds them to double; they differ beyond 2^53 only).
ndarray grey_erosion(const ndarray& input, const per_axis<std::int64_t>& size = {},
                     const grey_morphology_options& opts = {});

/// Grey-scale dilation: maximum over the mirrored structuring element of the input plus the
/// (mirrored) structure; origins negated, minus one along axes of even extent (SciPy's rule).
/// Parameters, result and exceptions as grey_erosion, plus cusci::index_error when `size` is a
/// sequence shorter than the number of filtered axes, or the footprint / structure has fewer
/// dimensions (SciPy's IndexError while adjusting the origins).
/// SciPy: `scipy.ndimage.grey_dilation`. Deviations as grey_erosion.
ndarray grey_dilation(const ndarray& input, const per_axis<std::int64_t>& size = {},
                      const grey_morphology_options& opts = {});

/// Grey-scale opening: grey_dilation(grey_erosion(input)) with the same element; the erosion into a
/// new array of the input dtype, the dilation into `opts.output`.
/// Parameters, result and exceptions as grey_erosion.
/// SciPy: `scipy.ndimage.grey_opening`. Deviations as grey_erosion.
ndarray grey_opening(const ndarray& input, const per_axis<std::int64_t>& size = {},
                     const grey_morphology_options& opts = {});

/// Grey-scale closing: grey_erosion(grey_dilation(input)), the dilation into a new array of the
/// input dtype, the erosion into `opts.output`.
/// SciPy: `scipy.ndimage.grey_closing`. Deviations as grey_erosion.
ndarray grey_closing(const ndarray& input, const per_axis<std::int64_t>& size = {},
                     const grey_morphology_options& opts = {});

/// Morphological gradient: grey_dilation(input) - grey_erosion(input). With an output array the
/// erosion goes into it and the difference is computed in place with NumPy's rules (result dtype of
/// the two, same_kind cast into the output); otherwise both are in the input dtype and the result
/// has the input dtype (a dtype given as `opts.output` is ignored, as SciPy ignores it).
/// @throws as grey_erosion; cusci::type_error for a bool input without an output array (NumPy's
///         boolean subtract) or an output array the difference cannot be cast into (NumPy's
///         same_kind rule).
/// SciPy: `scipy.ndimage.morphological_gradient`. Deviations as grey_erosion.
ndarray morphological_gradient(const ndarray& input, const per_axis<std::int64_t>& size = {},
                               const grey_morphology_options& opts = {});

/// Morphological Laplace: grey_dilation(input) + grey_erosion(input) - 2 * input, computed as SciPy
/// (dilation + erosion, then input subtracted twice, each step in the dtype NumPy gives: integers
/// wrap). With an output array the steps run in it; otherwise in the input dtype (a dtype given as
/// `opts.output` is ignored, as SciPy ignores it).
/// @throws as morphological_gradient (bool inputs: NumPy's boolean subtract).
/// SciPy: `scipy.ndimage.morphological_laplace`. Deviations as grey_erosion; an output array that
/// is the input (or overlaps it) gives the values of a separate output (SciPy's steps read the
/// overwritten input).
ndarray morphological_laplace(const ndarray& input, const per_axis<std::int64_t>& size = {},
                              const grey_morphology_options& opts = {});

/// White top-hat: input - grey_opening(input), the opening's dilation into `opts.output`, then
/// `input - opening` (NumPy's rules, into the output) or, for bool input and bool output,
/// `input ^ opening`.
/// @throws as grey_erosion; cusci::type_error where NumPy's subtract cannot cast into the output
///         (same_kind rule).
/// SciPy: `scipy.ndimage.white_tophat`. Deviations as morphological_laplace.
ndarray white_tophat(const ndarray& input, const per_axis<std::int64_t>& size = {},
                     const grey_morphology_options& opts = {});

/// Black top-hat: grey_closing(input) - input (bool input and output: `closing ^ input`), the
/// closing's erosion into `opts.output`.
/// SciPy: `scipy.ndimage.black_tophat`. Deviations as morphological_laplace.
ndarray black_tophat(const ndarray& input, const per_axis<std::int64_t>& size = {},
                     const grey_morphology_options& opts = {});

}  // namespace cusci::ndimage
