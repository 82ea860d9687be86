#pragma once
/// @file indexing.hpp
/// NumPy's advanced indexing (integer-array and boolean-mask indexing, reading and assignment) and
/// the indexing functions: take, put, compress, extract, place, putmask, diagonal, diag, tril, triu,
/// tril_indices, triu_indices. cusci core mirrors NumPy/CuPy (not SciPy).
///
/// Every dtype is accepted (data movement is dispatched on the item size: 1, 2, 4, 8 or 16 bytes), any
/// layout (C, F, strided, negative or zero strides). Results are new C-contiguous arrays unless the
/// function says it returns a view.
///
/// Stream behaviour: work is enqueued on the current stream of the array's device. A function
/// synchronizes only where its documentation says so: (1) integer-array indexing in `raise` mode
/// checks the bounds on the device and reads one status word back after the kernel (one
/// synchronization) to throw `index_error`; (2) boolean-mask reads must learn the number of selected
/// elements to allocate the result (one synchronization, after the counting pass).

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"

namespace cusci {

/// How out-of-range indices are treated by take / put (NumPy's `mode=`).
enum class clip_mode {
  raise,  ///< out of range -> cusci::index_error (negative indices count from the end)
  wrap,   ///< index modulo the length
  clip,   ///< clamp to [0, n-1] (negative indices clamp to 0, as NumPy)
};
/// Parses "raise", "wrap", "clip". @throws cusci::value_error for another string.
clip_mode clip_mode_from_string(std::string_view s);

/// One entry of an advanced index: an integer, a slice, `newaxis`, `ellipsis`, or an array (integer
/// dtype: indices; bool dtype: a mask over as many axes as it has dimensions).
using fancy_index = std::variant<std::int64_t, slice, newaxis_t, ellipsis_t, ndarray>;

/// Advanced indexing read, `a[index...]`, with NumPy's rules: index arrays (and integers, when any
/// array is present) broadcast together to a shape B; when all of them are adjacent the B dimensions
/// replace them in place, otherwise B goes first ("advanced indices separated by a slice go first").
/// Boolean arrays are replaced by their `nonzero()` coordinate arrays. Negative indices count from the
/// end. Without any array entry this is basic indexing and returns a view; otherwise a new C-contiguous
/// array of a's dtype.
/// @param a      input [any shape], any dtype and layout.
/// @param index  entries as NumPy's index tuple.
/// Synchronizes once (bounds status) when an integer array is present; once more per boolean array
/// (its count).
/// @throws cusci::index_error for an index out of bounds ("index 7 is out of bounds for axis 0 with
///         size 5"), too many indices, a boolean index whose shape does not match; cusci::value_error
///         for index arrays that do not broadcast; cusci::type_error for a float index array;
///         cusci::not_implemented_error for more than 16 index arrays.
/// NumPy: `a[index]` (advanced indexing).
ndarray getitem(const ndarray& a, const std::vector<fancy_index>& index);
/// `a[index]` with a single array: a boolean mask of a's shape (or of its leading dimensions) gives a
/// 1-D copy of the selected elements in C order (shape (count,) + a.shape[mask.ndim:]); an integer
/// array indexes axis 0. Synchronizes once (count for a mask, bounds status for integers).
/// @throws as above; cusci::index_error for a mask whose shape does not match ("boolean index did not
///         match indexed array along axis 0; size of axis is 3 but size of corresponding boolean axis
///         is 4").
/// NumPy: `a[mask]`, `a[idx]`.
ndarray getitem(const ndarray& a, const ndarray& index);

/// Advanced indexing assignment, `a[index...] = value`: `value` is cast to a's dtype (NumPy's unsafe
/// casting) and broadcast to the shape `getitem` would return. For duplicate indices one of the
/// writes wins (which one is not defined, as NumPy documents for `a[idx] = v`: "undefined which").
/// A boolean mask of a's full shape with a scalar or size-1 value does not synchronize; with an array
/// value the selected count is read back (one synchronization) to check value's length. Integer arrays
/// in bounds-checked mode synchronize once.
/// @throws as `getitem`; cusci::value_error when value does not broadcast to the selection ("shape
///         mismatch: value array of shape (3,) could not be broadcast to indexing result of shape
///         (4,)"; for a mask: "NumPy boolean array indexing assignment cannot assign 3 input values to
///         the 4 output values where the mask is true").
/// NumPy: `a[index] = value`.
void setitem(ndarray& a, const std::vector<fancy_index>& index, const ndarray& value);
void setitem(ndarray& a, const std::vector<fancy_index>& index, const scalar& value);
void setitem(ndarray& a, const ndarray& index, const ndarray& value);
void setitem(ndarray& a, const ndarray& index, const scalar& value);

/// Elements of `a` at `indices` along `axis` (along the flattened array when `axis` is empty).
/// @param a        input [any shape], any dtype and layout.
/// @param indices  [any shape], integer dtype (bool is refused, as NumPy's 'same_kind' rule does).
/// @param axis     axis of `a`, negative counts from the end; empty = flattened `a`.
/// @param mode     raise / wrap / clip.
/// @return shape a.shape[:axis] + indices.shape + a.shape[axis+1:] (indices.shape for axis=None), a's
///         dtype, C-contiguous.
/// Synchronizes once in `raise` mode (bounds status); never in wrap / clip modes.
/// @throws cusci::index_error for an index out of range in raise mode, an axis out of range, or a
///         non-empty take from an empty axis; cusci::type_error for a non-integer `indices`.
/// NumPy: `np.take(a, indices, axis, mode=mode)` (no `out=`).
ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis = {},
             clip_mode mode = clip_mode::raise);

/// `a.flat[ind] = v`: writes `v` (cast to a's dtype, repeated cyclically when shorter than `ind`) at
/// the flat C-order positions `ind` of `a` (any layout). Duplicate positions: one write wins.
/// @param a    destination [any shape], modified in place.
/// @param ind  [any shape], integer dtype.
/// @param v    values [any shape], flattened.
/// Synchronizes once in raise mode.
/// @throws cusci::index_error out of range (raise), or a non-empty put into an empty array;
///         cusci::type_error for non-integer `ind`; cusci::value_error for an empty `v` with a
///         non-empty `ind`.
/// NumPy: `np.put(a, ind, v, mode)`.
void put(ndarray& a, const ndarray& ind, const ndarray& v, clip_mode mode = clip_mode::raise);

/// Slices of `a` along `axis` where `condition` (1-D, any dtype, non-zero = true) holds; along the
/// flattened array when `axis` is empty. A shorter condition selects from the leading slices only.
/// Synchronizes (count, then bounds status).
/// @throws cusci::value_error for a condition that is not 1-D; cusci::index_error for an axis out of
///         range or a true entry beyond the axis length.
/// NumPy: `np.compress(condition, a, axis)`.
ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis = {});

/// The elements of ravel(arr) where ravel(condition) is non-zero, 1-D, arr's dtype. Synchronizes.
/// @throws cusci::index_error when a true entry of condition lies beyond arr.size.
/// NumPy: `np.extract(condition, arr)`.
ndarray extract(const ndarray& condition, const ndarray& arr);

/// Writes `vals[0], vals[1], ...` (cyclically, cast to arr's dtype) into the positions of `arr` where
/// `mask` (same size, any dtype, non-zero = true) holds, in C order. Never synchronizes.
/// @throws cusci::value_error when mask.size != arr.size, or `vals` is empty and mask has a true entry
///         (that case is detected on the device: synchronizes once only when vals is empty).
/// NumPy: `np.place(arr, mask, vals)`.
void place(ndarray& arr, const ndarray& mask, const ndarray& vals);

/// `a.flat[n] = values[n % values.size]` wherever `mask.flat[n]` is non-zero. Never synchronizes.
/// @throws cusci::value_error when mask.size != a.size ("putmask: mask and data must be the same
///         size"), or values is empty while a is not.
/// NumPy: `np.putmask(a, mask, values)`.
void putmask(ndarray& a, const ndarray& mask, const ndarray& values);

/// The diagonal with the given offset of the 2-D sub-arrays over (axis1, axis2); a VIEW (no device
/// work): axes axis1 and axis2 are removed and the diagonal becomes the last axis.
/// @throws cusci::value_error when a.ndim < 2 or axis1 == axis2; cusci::index_error for an axis out of
///         range. NumPy: `np.diagonal(a, offset, axis1, axis2)` (NumPy 2 returns a read-only view;
///         cusci's view is writable).
ndarray diagonal(const ndarray& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1);

/// 1-D v: a new 2-D array of shape (n+|k|, n+|k|) with v on the k-th diagonal; 2-D v: a copy of its
/// k-th diagonal (1-D). Asynchronous.
/// @throws cusci::value_error for other dimensions ("Input must be 1- or 2-d.").
/// NumPy: `np.diag(v, k)`.
ndarray diag(const ndarray& v, std::int64_t k = 0);

/// Lower (tril) / upper (triu) triangle of the last two axes of `m`; other elements are zero. A 1-D
/// `m` is treated as a (n, n) matrix with m on every row (as NumPy). New C-contiguous array of m's
/// dtype; one kernel, reading only the kept elements. Asynchronous.
/// @throws cusci::value_error for a 0-d input. NumPy: `np.tril(m, k)`, `np.triu(m, k)`.
ndarray tril(const ndarray& m, std::int64_t k = 0);
ndarray triu(const ndarray& m, std::int64_t k = 0);

/// Row and column indices (int64, 1-D, row-major order) of the lower / upper triangle of an (n, m)
/// array with diagonal offset k. Computed on the host (time proportional to n plus the result's
/// length, any k) and copied to the device (asynchronous).
/// @throws cusci::value_error for a negative n or m, or an n * m that does not fit in int64 (NumPy's
///         "array is too big"); cusci::out_of_memory when n or m int64s or the (n, m) boolean mask NumPy
///         builds exceed the host's memory (NumPy's MemoryError), at once. NumPy: `np.tril_indices(n, k, m)`,
/// `np.triu_indices(n, k, m)`.
std::pair<ndarray, ndarray> tril_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = {});
std::pair<ndarray, ndarray> triu_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = {});

}  // namespace cusci
