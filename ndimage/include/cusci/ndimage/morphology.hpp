#pragma once
/// @file morphology.hpp
/// Structuring elements and binary morphology of cusci::ndimage with scipy.ndimage's semantics
/// (SciPy 1.18.1, scipy/ndimage/_morphology.py and its C loops NI_BinaryErosion / NI_BinaryErosion2):
/// generate_binary_structure, iterate_structure (host functions), binary_erosion, binary_dilation,
/// binary_opening, binary_closing, binary_hit_or_miss, binary_propagation, binary_fill_holes.
///
/// Common rules:
/// - Input: a device array of any shape (0-d included) and layout (C, F, strided, negative and zero
///   strides); dtypes bool, int8..int64, uint8..uint64, float32, float64. An element is "set" when
///   it is non-zero (NaN counts as set). Complex inputs raise cusci::type_error ("Complex type not
///   supported"), float16 inputs cusci::runtime_error ("data type not supported"), as SciPy.
/// - `structure`: a host array of any dtype (non-zero elements belong to the structure) with one
///   axis per filtered axis (`axes`; all axes by default); default generate_binary_structure(number
///   of filtered axes, 1). Its element at index k sits at offset k - size // 2 - origin from the
///   output element along each axis (for an even size the centre is the element at size / 2).
///   Erosion uses the structure as given; dilation mirrors it (offset -(k - size // 2) + origin'),
///   with SciPy's origin adjustment for even sizes, so dilation(x) = OR over the structure's points
///   p of x[i - p] and erosion(x) = AND over p of x[i + p].
/// - `origin`: one value or one per filtered axis; each must satisfy
///   -(size // 2) <= origin <= (size - 1) // 2 for the structure's size along that axis, else
///   cusci::value_error "invalid origin" (SciPy does not check: it raises IndexError for some such
///   origins and reads outside the array for others).
/// - `border_value`: the value (0 or non-zero) that elements outside the array take.
/// - `mask`: a device array of the input's shape (bool, integer, float32/64; any layout); where it is
///   zero the output keeps the input's value (for iterated operations: the previous iteration's).
/// - `output`: nothing or a dtype gives a new C-contiguous bool array (SciPy ignores a dtype given to
///   the binary functions and returns bool); an existing device array (bool, integer, float32/64, the
///   input's shape, any layout) receives 0/1 and is returned; it may be the input or the mask itself
///   or overlap them, which gives the same values as a separate output.
/// - `axes`: the axes the structure spans (SciPy's `axes`); the others are filtered with size 1.
/// - Stream behaviour: every function enqueues its work on the current stream and returns without
///   synchronizing, except where `iterations < 1` (repeat until nothing changes): that loop runs in
///   batches of 32 launches per batch whose "changed" flags are read back once per batch (one
///   synchronization per 32 iterations; launches after convergence return at once on the device).
///   binary_propagation and binary_fill_holes iterate this way.
/// - Errors follow SciPy's exception types (RuntimeError: cusci::runtime_error, ValueError:
///   cusci::value_error, TypeError: cusci::type_error); messages start with
///   "cusci::ndimage::<function>: ". Arrays with more than 16 axes raise cusci::value_error.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// The binary structure of `rank` dimensions, each of length 3, whose elements at squared distance
/// at most `connectivity` from the centre are true (connectivity < 1 counts as 1; rank < 1 gives a
/// 0-d array holding true).
/// @return a bool host array of shape (3,) * rank.
/// @throws cusci::value_error when 3^rank elements do not fit in memory sizes ("array is too big").
/// SciPy: `scipy.ndimage.generate_binary_structure(rank, connectivity)`. No deviation.
host_array generate_binary_structure(int rank, int connectivity);

/// The structure dilated with itself `iterations - 1` times (its Minkowski sum with itself taken
/// `iterations` times), of shape size + (iterations - 1) * (size - 1) along each axis.
/// @param structure any dtype, any ndim (non-zero elements belong to it).
/// @return for iterations < 2 a copy of `structure` (same dtype); otherwise a bool array.
/// @throws cusci::value_error when the iterated shape overflows ("array is too big").
/// SciPy: `scipy.ndimage.iterate_structure(structure, iterations)`. Computed on the host.
host_array iterate_structure(const host_array& structure, std::int64_t iterations);

/// iterate_structure with an origin: also returns `iterations * origin` per axis.
/// @throws cusci::runtime_error when `origin` is a sequence whose length is not structure.ndim().
/// SciPy: `iterate_structure(structure, iterations, origin)`. Deviation: for iterations < 2 SciPy
/// returns the structure alone; this overload returns it with the origin unchanged.
std::pair<host_array, std::vector<std::int64_t>> iterate_structure(const host_array& structure,
                                                                   std::int64_t iterations,
                                                                   const per_axis<std::int64_t>& origin);

/// Keyword arguments of binary_erosion and binary_dilation (SciPy's names, defaults and order).
struct binary_options {
  /// The structuring element (host, any dtype); default generate_binary_structure(len(axes), 1).
  std::optional<host_array> structure{};
  /// Number of repetitions; < 1 repeats until the result does not change any more.
  std::int64_t iterations = 1;
  /// Elements where the mask is zero keep their value (see the file's rules).
  std::optional<ndarray> mask{};
  /// Where the result goes (nothing, a dtype: a new bool array; or an array).
  ndimage::output_arg output{};
  /// Value of the elements outside the array (0, or anything else for 1).
  int border_value = 0;
  /// One origin or one per filtered axis.
  per_axis<std::int64_t> origin = std::int64_t{0};
  /// SciPy selects its algorithm with it (an update list or full passes); both give the same values,
  /// and cusci runs full passes either way. Kept for the mask's conversion (see binary_erosion).
  bool brute_force = false;
  /// Axes the structure spans; default all.
  std::optional<std::vector<int>> axes{};
};

/// Binary erosion: out[i] = AND over the structure's points p of x[i + p] (outside the array:
/// border_value), repeated `iterations` times (until nothing changes when iterations < 1); where
/// `mask` is zero, out[i] = the iteration's input at i.
/// @param input [any shape] see the file's rules.
/// @return [input.shape] bool (or `output`'s array, holding 0/1).
/// Asynchronous on the current stream (see the file's rules for iterations < 1).
/// @throws cusci::type_error for a complex input or output array; cusci::runtime_error for a structure
///         whose ndim is not the input's (or len(axes)), an empty structure, a mask or output of
///         another shape, an origin sequence of the wrong length, float16 (input, mask or output),
///         complex masks; cusci::value_error for an invalid origin, bad axes or more than 16 axes.
/// SciPy: `scipy.ndimage.binary_erosion(input, structure, iterations, mask, output, border_value,
/// origin, brute_force, axes=axes)`. With several iterations, a centred structure and brute_force
/// false, SciPy converts the mask to int8 for the iterations after the first; cusci does the same
/// (so a float mask value in (-1, 1) counts as zero from the second iteration on, as SciPy). A
/// structure whose centre is false with iterations < 1 may oscillate forever in SciPy; cusci stops
/// with cusci::runtime_error after 2 * size + 2 iterations without convergence.
ndarray binary_erosion(const ndarray& input, const binary_options& opts = {});

/// Binary dilation: out[i] = OR over the structure's points p of x[i - p] (outside the array:
/// border_value), repeated as binary_erosion; where `mask` is zero, out[i] = the iteration's input.
/// Same parameters, result, stream behaviour and errors as binary_erosion.
/// SciPy: `scipy.ndimage.binary_dilation(...)`. Deviation: a structure with fewer axes than the
/// filtered axes raises cusci::runtime_error where SciPy raises IndexError.
ndarray binary_dilation(const ndarray& input, const binary_options& opts = {});

/// Keyword arguments of binary_opening and binary_closing: binary_options' fields in these
/// functions' own SciPy order (structure, iterations, output, origin, mask, border_value, brute_force,
/// axes), so that designated initializers follow SciPy's keyword order.
struct binary_opening_options {
  std::optional<host_array> structure{};
  std::int64_t iterations = 1;
  ndimage::output_arg output{};
  per_axis<std::int64_t> origin = std::int64_t{0};
  std::optional<ndarray> mask{};
  int border_value = 0;
  bool brute_force = false;
  std::optional<std::vector<int>> axes{};
};

/// binary_dilation(binary_erosion(input)) with the same structure, iterations, mask, border_value
/// and origin (the erosion into a temporary bool array, the dilation into `output`).
/// SciPy: `scipy.ndimage.binary_opening(input, structure, iterations, output, origin, mask,
/// border_value, brute_force, axes)`. As binary_erosion otherwise.
ndarray binary_opening(const ndarray& input, const binary_opening_options& opts = {});

/// binary_erosion(binary_dilation(input)), as binary_opening.
/// SciPy: `scipy.ndimage.binary_closing(...)`.
ndarray binary_closing(const ndarray& input, const binary_opening_options& opts = {});

/// Keyword arguments of binary_hit_or_miss.
struct hit_or_miss_options {
  /// Part that must be set; default generate_binary_structure(len(axes), 1).
  std::optional<host_array> structure1{};
  /// Part that must be clear; default: the complement of structure1.
  std::optional<host_array> structure2{};
  ndimage::output_arg output{};
  per_axis<std::int64_t> origin1 = std::int64_t{0};
  /// Default: origin1.
  std::optional<per_axis<std::int64_t>> origin2{};
  std::optional<std::vector<int>> axes{};
};

/// Hit-or-miss transform: out[i] = erosion of x by structure1 (border 0) AND erosion of NOT x by
/// structure2 (outside the array counts as clear for structure2), at origins origin1 / origin2.
/// @return [input.shape] bool, or `output`'s array (SciPy returns None then; cusci returns the array).
/// Asynchronous. @throws as binary_erosion (for either structure and origin).
/// SciPy: `scipy.ndimage.binary_hit_or_miss(input, structure1, structure2, output, origin1, origin2,
/// axes=axes)`.
ndarray binary_hit_or_miss(const ndarray& input, const hit_or_miss_options& opts = {});

/// Keyword arguments of binary_propagation.
struct propagation_options {
  std::optional<host_array> structure{};
  std::optional<ndarray> mask{};
  ndimage::output_arg output{};
  int border_value = 0;
  per_axis<std::int64_t> origin = std::int64_t{0};
  std::optional<std::vector<int>> axes{};
};

/// binary_dilation repeated until nothing changes (iterations = -1), inside `mask`.
/// SciPy: `scipy.ndimage.binary_propagation(input, structure, mask, output, border_value, origin,
/// axes=axes)`. Synchronizes once per 32 iterations (see the file's rules). Errors as binary_dilation.
ndarray binary_propagation(const ndarray& input, const propagation_options& opts = {});

/// Keyword arguments of binary_fill_holes.
struct fill_holes_options {
  std::optional<host_array> structure{};
  ndimage::output_arg output{};
  per_axis<std::int64_t> origin = std::int64_t{0};
  std::optional<std::vector<int>> axes{};
};

/// Fills the holes of the set elements: NOT (the clear elements connected, through `structure`, to
/// the outside of the array), computed as SciPy: dilation of an empty array with border_value 1 and
/// mask NOT input, until nothing changes, then negated. Complex inputs are accepted (as SciPy, which
/// only negates the input). Synchronizes once per 32 iterations. Errors as binary_dilation.
/// SciPy: `scipy.ndimage.binary_fill_holes(input, structure, output, origin, axes=axes)` (SciPy returns
/// None for an output array; cusci returns the array).
ndarray binary_fill_holes(const ndarray& input, const fill_holes_options& opts = {});

}  // namespace cusci::ndimage
