#pragma once
/// @file manipulation.hpp
/// NumPy's array-manipulation functions: joining (concatenate, stack, hstack, vstack, dstack,
/// column_stack), splitting (split, array_split), tiling (tile, repeat), rearranging (flip, fliplr,
/// flipud, roll, moveaxis, swapaxes, ravel, ascontiguousarray), dimension changes (atleast_1d/2d/3d,
/// expand_dims, squeeze) and padding (pad with all of NumPy's modes). cusci core mirrors NumPy/CuPy.
///
/// Every dtype and layout is accepted; data movement is dispatched on the item size. Functions that
/// NumPy documents as returning views return views (no device work); the others return new
/// C-contiguous arrays. Stream behaviour: asynchronous on the current stream of the input's device;
/// none of these functions synchronizes.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"

namespace cusci {

// --- joining ----------------------------------------------------------------------------------

/// Joins arrays along an existing axis (`axis` empty: the arrays are flattened first). The result
/// dtype is NumPy's result_type of the inputs, or `dt`. Same-dtype C-contiguous inputs are copied by
/// one kernel launch for up to 64 arrays (input descriptors passed as kernel parameters); other inputs
/// are cast/copied into their slice of the result by one strided copy each.
/// @param arrays  at least one array; all of one ndim (>= 1), equal shapes except along `axis`.
/// @return C-contiguous array of the joined shape.
/// @throws cusci::value_error for an empty list, a 0-d input ("zero-dimensional arrays cannot be
///         concatenated"), different ndims or mismatched shapes (NumPy's message: "all the input array
///         dimensions except for the concatenation axis must match exactly, but along dimension 1, the
///         array at index 0 has size 3 and the array at index 1 has size 4"), lengths along `axis`
///         that add up past 2^63 - 1 ("array is too big"); cusci::index_error for an axis out of range
///         (checked before any device work).
/// NumPy: `np.concatenate(arrays, axis, dtype=dt)` (no `out=`, casting is 'unsafe' when `dt` is given,
/// NumPy's default is 'same_kind').
ndarray concatenate(const std::vector<ndarray>& arrays, std::optional<int> axis = 0,
                    std::optional<dtype> dt = {});
/// Joins arrays of one shape along a new axis (in [-ndim-1, ndim]).
/// @throws cusci::value_error for an empty list or different shapes ("all input arrays must have the
///         same shape"); cusci::index_error for an axis out of range. NumPy: `np.stack`.
ndarray stack(const std::vector<ndarray>& arrays, int axis = 0, std::optional<dtype> dt = {});
/// Column-wise (axis 1; axis 0 for 1-D inputs), row-wise (after atleast_2d, axis 0) and depth-wise
/// (after atleast_3d, axis 2) joins. @throws as concatenate.
/// NumPy: `np.hstack`, `np.vstack`, `np.dstack`.
ndarray hstack(const std::vector<ndarray>& arrays, std::optional<dtype> dt = {});
ndarray vstack(const std::vector<ndarray>& arrays, std::optional<dtype> dt = {});
ndarray dstack(const std::vector<ndarray>& arrays);
/// 1-D inputs become columns; 2-D inputs are stacked as they are; then hstack. NumPy: `np.column_stack`.
ndarray column_stack(const std::vector<ndarray>& arrays);

// --- splitting (views) ------------------------------------------------------------------------

/// Splits into `sections` equal parts along `axis` (views).
/// @throws cusci::value_error when the axis length is not divisible ("array split does not result in
///         an equal division") or sections <= 0; cusci::index_error for an axis out of range.
/// NumPy: `np.split(a, sections, axis)`.
std::vector<ndarray> split(const ndarray& a, std::int64_t sections, int axis = 0);
/// Splits at the given indices along `axis` (views; indices past the end give empty parts, as
/// NumPy's slicing). NumPy: `np.split(a, indices, axis)` / `np.array_split(a, indices, axis)`.
std::vector<ndarray> split(const ndarray& a, const std::vector<std::int64_t>& indices, int axis = 0);
/// Splits into `sections` parts whose lengths differ by at most one, the longer ones first (views).
/// @throws cusci::value_error for sections <= 0 ("number sections must be larger than 0.").
/// NumPy: `np.array_split(a, sections, axis)`.
std::vector<ndarray> array_split(const ndarray& a, std::int64_t sections, int axis = 0);
std::vector<ndarray> array_split(const ndarray& a, const std::vector<std::int64_t>& indices, int axis = 0);

// --- tiling ----------------------------------------------------------------------------------

/// `a` repeated `reps` times per axis (reps shorter than ndim is padded with leading ones; a longer
/// one promotes a with leading axes). One strided copy of a broadcast view.
/// @throws cusci::value_error for a negative repetition or a result whose size overflows ("array is
///         too big", as NumPy), before any device work. NumPy: `np.tile(a, reps)`.
ndarray tile(const ndarray& a, const std::vector<std::int64_t>& reps);
/// Each element repeated `repeats` times along `axis` (flattened input when empty).
/// @throws cusci::value_error for a negative count; cusci::index_error for an axis out of range.
/// NumPy: `np.repeat(a, repeats, axis)`.
ndarray repeat(const ndarray& a, std::int64_t repeats, std::optional<int> axis = {});
/// Per-element counts (length 1 or the axis length); host values (NumPy accepts any array_like).
/// @throws cusci::value_error for a negative count or a length mismatch ("operands could not be
///         broadcast together with shape (5,) (3,)").
ndarray repeat(const ndarray& a, const std::vector<std::int64_t>& repeats, std::optional<int> axis = {});

// --- rearranging ------------------------------------------------------------------------------

/// Reverses the order of elements along all axes, or the given ones; a view (negative strides).
/// @throws cusci::index_error for an axis out of range; cusci::value_error for a repeated axis.
/// NumPy: `np.flip(m, axis)`.
ndarray flip(const ndarray& m);
ndarray flip(const ndarray& m, int axis);
ndarray flip(const ndarray& m, const std::vector<int>& axes);
/// Reverses axis 1 (fliplr, needs ndim >= 2) / axis 0 (flipud, needs ndim >= 1); views.
/// @throws cusci::value_error for too few dimensions. NumPy: `np.fliplr`, `np.flipud`.
ndarray fliplr(const ndarray& m);
ndarray flipud(const ndarray& m);
/// Elements shifted cyclically by `shift` along `axis` (flattened and reshaped back when empty). One
/// kernel; a new C-contiguous array.
/// @throws cusci::index_error for an axis out of range. NumPy: `np.roll(a, shift, axis)`.
ndarray roll(const ndarray& a, std::int64_t shift, std::optional<int> axis = {});
/// Several shifts; `shift` and `axes` broadcast against each other (one of them may have length 1);
/// shifts on a repeated axis add up, as NumPy.
/// @throws cusci::value_error when the lengths do not broadcast; cusci::index_error for an axis out
///         of range.
ndarray roll(const ndarray& a, const std::vector<std::int64_t>& shift, const std::vector<int>& axes);
/// Moves axes to new positions (others keep their order); a view.
/// @throws cusci::value_error for different lengths or repeated axes; cusci::index_error for an axis
///         out of range. NumPy: `np.moveaxis(a, source, destination)`.
ndarray moveaxis(const ndarray& a, const std::vector<int>& source, const std::vector<int>& destination);
ndarray moveaxis(const ndarray& a, int source, int destination);
/// Interchanges two axes; a view. @throws cusci::index_error for an axis out of range.
/// NumPy: `np.swapaxes(a, axis1, axis2)`.
ndarray swapaxes(const ndarray& a, int axis1, int axis2);
/// The elements as a 1-D array in `ord` order: a view when the layout allows it, otherwise a copy.
/// NumPy: `np.ravel(a, order)` (orders 'C' and 'F'; no 'A'/'K').
ndarray ravel(const ndarray& a, order ord = order::C);
/// `a` itself when C-contiguous, else a C-contiguous copy. 2-D transpositions (and any layout that
/// reduces to one after merging axes) go through a shared-memory tiled transpose kernel; other layouts
/// through the strided copy. NumPy: `np.ascontiguousarray(a)` (no dtype argument).
ndarray ascontiguousarray(const ndarray& a);

// --- dimensions (views) --------------------------------------------------------------------------

/// Views with at least 1, 2 or 3 dimensions: a 0-d array becomes (1,), (1, 1), (1, 1, 1); a 1-D (n,)
/// becomes (1, n) and (1, n, 1); a 2-D (m, n) becomes (m, n, 1) for atleast_3d.
/// NumPy: `np.atleast_1d`, `np.atleast_2d`, `np.atleast_3d` (one array at a time).
ndarray atleast_1d(const ndarray& a);
ndarray atleast_2d(const ndarray& a);
ndarray atleast_3d(const ndarray& a);
/// Inserts length-1 axes at the given positions of the result; a view.
/// @throws cusci::index_error for a position out of range; cusci::value_error for a repeated one.
/// NumPy: `np.expand_dims(a, axis)` with a tuple.
ndarray expand_dims(const ndarray& a, const std::vector<int>& axes);
/// Removes the given length-1 axes (all of them when `axes` is empty); a view.
/// @throws cusci::value_error for an axis whose length is not 1 ("cannot select an axis to squeeze
///         out which has size not equal to one"); cusci::index_error for an axis out of range.
/// NumPy: `np.squeeze(a, axis)`.
ndarray squeeze(const ndarray& a, const std::vector<int>& axes = {});

// --- padding ---------------------------------------------------------------------------------

/// np.pad's `mode`.
enum class pad_mode { constant, edge, linear_ramp, maximum, mean, median, minimum, reflect, symmetric, wrap, empty };
/// Parses NumPy's mode names ("constant", "edge", ...). @throws cusci::value_error ("mode 'x' is not
/// supported").
pad_mode pad_mode_from_string(std::string_view s);
/// np.pad's `reflect_type`.
enum class pad_reflect_type { even, odd };
/// Parses "even" / "odd". @throws cusci::value_error.
pad_reflect_type pad_reflect_type_from_string(std::string_view s);

/// A (before, after) pair of values.
using scalar_pair = std::pair<scalar, scalar>;
/// np.pad's keyword arguments. Each per-axis list is empty (NumPy's default), holds one pair (used
/// for every axis) or one pair per axis.
struct pad_options {
  /// Numbers of edge values the statistic of maximum/mean/median/minimum is taken over (empty
  /// optional = the whole axis, NumPy's None).
  std::vector<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>> stat_length{};
  /// Values of mode constant (default 0), cast to a's dtype as NumPy's assignment does.
  std::vector<scalar_pair> constant_values{};
  /// End values of mode linear_ramp (default 0).
  std::vector<scalar_pair> end_values{};
  /// Reflection of modes reflect and symmetric: even (plain) or odd (2*edge - reflected).
  pad_reflect_type reflect_type = pad_reflect_type::even;
};

/// A pad width per axis: (before, after) element counts.
using pad_width_t = std::vector<std::pair<std::int64_t, std::int64_t>>;

/// Pads `array` by `pad_width` with NumPy's semantics for every mode: constant, edge, reflect and
/// symmetric (even), wrap and empty run as one gather kernel (each output element maps to one input
/// element or a constant; for constant, the value of the last padded axis wins, as NumPy's
/// axis-by-axis filling gives); linear_ramp, maximum, mean, median, minimum and the odd reflections
/// copy the input into the centre and then run one kernel per padded axis that fills each line along
/// that axis as NumPy does (later axes see earlier axes' padding). Statistics are computed in float64
/// (complex128 for complex); integer results are rounded half to even, as NumPy's `round`.
/// @param array      input [any shape], any dtype and layout (statistic modes and odd reflection need
///                   a numeric, non-bool dtype; maximum/minimum/median need a real one).
/// @param pad_width  one pair for every axis, or one pair per axis; an integer n means (n, n).
/// @return shape array.shape[i] + before[i] + after[i], array's dtype, C-contiguous. Asynchronous.
/// @throws cusci::value_error for a negative width ("index can't contain negative values"), a list
///         of the wrong length, extending an empty axis in a mode other than constant/empty ("can't
///         extend empty axis 0 using modes other than 'constant' or 'empty'"), or a stat_length of 0
///         for maximum/minimum ("stat_length of 0 yields no value for padding"); cusci::type_error for a
///         dtype the mode cannot compute with.
/// NumPy: `np.pad(array, pad_width, mode, **kwargs)`. Deviations: no callable mode; median is an
/// O(k^2) selection per line (slow for very long stat lengths); float32/float16 statistics and ramps
/// are computed in float64 and may differ from NumPy's float32 arithmetic in the last bit.
ndarray pad(const ndarray& array, const pad_width_t& pad_width, pad_mode mode = pad_mode::constant,
            const pad_options& opts = {});
ndarray pad(const ndarray& array, std::int64_t pad_width, pad_mode mode = pad_mode::constant,
            const pad_options& opts = {});
ndarray pad(const ndarray& array, std::pair<std::int64_t, std::int64_t> pad_width, pad_mode mode = pad_mode::constant,
            const pad_options& opts = {});

}  // namespace cusci
