#pragma once
/// @file setops.hpp
/// NumPy's set operations on 1-D arrays (isin, setdiff1d, intersect1d, union1d) and the sorting
/// helpers lexsort and digitize, composed from cusci's sort, argsort, unique and searchsorted
/// (sorting.hpp). cusci core mirrors NumPy/CuPy (not SciPy).
///
/// Order and equality: NumPy's (sorting.hpp): NaNs sort last; NaN never equals NaN in a membership
/// test (`isin([nan], [nan])` is false, as NumPy), while `unique` (and so union1d / setdiff1d) keeps
/// one NaN (NumPy's `equal_nan=True` default). -0.0 and +0.0 are one value.
///
/// Dtypes: every cusci dtype (bool, int8..uint64, float16, float32, float64, complex64, complex128),
/// any layout. Two inputs are compared in `promote_types(a, b)`.
/// Stream behaviour: asynchronous on the current stream unless a function says "synchronizes"; those
/// that do are the ones whose output size depends on the data (setdiff1d, intersect1d, union1d, via
/// unique and a boolean selection) or whose errors depend on it (digitize's monotonicity check).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci {

/// isin's algorithm choice (NumPy's `kind=`): `sort` (NumPy's default for most inputs) or `table`
/// (NumPy's lookup table over [min, max], integer and bool inputs only). cusci accepts both and always
/// runs the sort-based algorithm (same result).
enum class isin_kind { sort, table };
/// Parses "sort" / "table".
/// @throws cusci::value_error for another string ("Invalid kind: 'x'. Please use None, 'sort' or
///         'table'.", as NumPy).
isin_kind parse_isin_kind(std::string_view s);

/// Options of isin (NumPy's keyword arguments, in its order).
struct isin_options {
  bool assume_unique = false;        ///< accepted; the algorithm does not need unique inputs
  bool invert = false;               ///< return "not in" instead of "in"
  std::optional<isin_kind> kind{};  ///< NumPy's None (empty), 'sort' or 'table'
};

/// Whether each element of `element` is in `test_elements`.
/// @param element        [any shape, 0-d included], any dtype, any layout.
/// @param test_elements  [any shape] (flattened), any dtype, any layout.
/// @param opts           assume_unique (ignored), invert, kind.
/// @return bool of element's shape, C-contiguous.
/// Asynchronous (never synchronizes).
/// Algorithm: the flattened test set is sorted (radix sort), each element's insertion point is found
/// by binary search (searchsorted, in the promoted dtype) and the element is compared with the value
/// at that point (take with clipping, then `equal`): O((n + m) log m). NaN is never a member (NaN !=
/// NaN), as NumPy.
/// @throws cusci::value_error for kind=table with a float or complex input ("The 'table' method is
///         only supported for boolean or integer arrays. Please select 'sort' or None for kind.");
///         cusci::out_of_memory.
/// NumPy: `np.isin(element, test_elements, assume_unique, invert, kind)`. Deviations: kind=table runs
/// the sort algorithm (never NumPy's RuntimeError for a value range beyond the dtype's maximum); the
/// comparison is always in the promoted dtype, so int64 with uint64 compares in float64 (exact below
/// 2^53), where NumPy's table method (its default for integers of a small range) compares exactly.
ndarray isin(const ndarray& element, const ndarray& test_elements, isin_options opts = {});

/// Options of setdiff1d.
struct setdiff1d_options {
  /// Both inputs are already unique: ar1 is only flattened (its order is kept, as NumPy's).
  bool assume_unique = false;
};
/// Sorted unique values of `ar1` that are not in `ar2`.
/// @param ar1, ar2  [any shape] (flattened), any dtype, any layout.
/// @return [k], ar1's dtype (NumPy keeps ar1's dtype; ar2 is only compared, in the promoted dtype).
///         With assume_unique, the elements of ravel(ar1) not in ar2, in ar1's order.
/// Synchronizes (unique and the boolean selection read their counts).
/// @throws cusci::out_of_memory.
/// NumPy: `np.setdiff1d(ar1, ar2, assume_unique)`.
ndarray setdiff1d(const ndarray& ar1, const ndarray& ar2, setdiff1d_options opts = {});

/// Options of intersect1d (NumPy's keyword arguments, in its order).
struct intersect1d_options {
  /// Both inputs are already unique (not checked; NumPy: with non-unique inputs the result is
  /// undefined). The unique passes are skipped (no synchronization for them).
  bool assume_unique = false;
  /// Also return the indices of the common values in the flattened ar1 and ar2 (first occurrences).
  bool return_indices = false;
};
/// The values common to both inputs and, with return_indices, where they are.
struct intersect1d_result {
  ndarray values;                      ///< [k] sorted common values, promote_types(ar1, ar2)
  std::optional<ndarray> ar1_indices;  ///< [k] int64: ravel(ar1)[ar1_indices] == values
  std::optional<ndarray> ar2_indices;  ///< [k] int64: ravel(ar2)[ar2_indices] == values
};
/// Sorted unique values present in both `ar1` and `ar2`.
/// @param ar1, ar2  [any shape] (flattened), any dtype, any layout.
/// @param opts      assume_unique, return_indices.
/// @return see intersect1d_result (values in `promote_types(ar1.dtype, ar2.dtype)`). NaN is never
///         common (NumPy compares with ==). Indices are those of the first occurrences (NumPy's
///         unique with return_index).
/// Synchronizes (unique, unless assume_unique, and the boolean selection of the common values).
/// Algorithm: u1 = unique(ar1) (or a sort / argsort when assume_unique), u2 = unique(ar2) (or a sort);
/// each u1 value is searched in u2 (searchsorted) and kept when equal (NumPy concatenates and sorts
/// both; the result is the same when no two distinct values of one input become equal in the promoted
/// dtype, e.g. int64 values above 2^53 compared with float64).
/// @throws cusci::out_of_memory.
/// NumPy: `np.intersect1d(ar1, ar2, assume_unique, return_indices)` (the tuple becomes the struct).
intersect1d_result intersect1d(const ndarray& ar1, const ndarray& ar2, intersect1d_options opts = {});

/// Sorted unique values found in either input.
/// @param ar1, ar2  [any shape] (flattened), any dtype, any layout.
/// @return [k], `promote_types(ar1.dtype, ar2.dtype)`; one NaN at most (NumPy's unique default).
/// Synchronizes once (unique's count).
/// Algorithm: unique(concatenate((ravel(ar1), ravel(ar2)))), as NumPy.
/// @throws cusci::out_of_memory.
/// NumPy: `np.union1d(ar1, ar2)`.
ndarray union1d(const ndarray& ar1, const ndarray& ar2);

/// Options of lexsort.
struct lexsort_options {
  int axis = -1;  ///< axis of the keys to sort along
};
/// Indirect stable sort over several keys: the LAST key is the primary one, ties are broken by the
/// one before it, and so on; equal rows keep their input order.
/// @param keys  k >= 1 arrays of one shape (any dtypes, mixed, any layouts; NaNs sort last, complex
///              lexicographically, as sort).
/// @param opts  axis (default -1).
/// @return int64 of the keys' shape, C-contiguous: indices along `axis` (0-d keys: a 0-d 0, as
///         NumPy, whatever the axis).
/// Asynchronous (argsort synchronizes once over more than 300 rows, see sorting.hpp).
/// Algorithm: least-significant-key-first radix composition: idx = argsort(keys[0]); for each later
/// key, idx = idx[argsort(key[idx])] (stable argsorts and gathers); k argsorts and 2(k - 1) gathers.
/// @throws cusci::type_error for an empty key list ("need sequence of keys with len > 0 in lexsort");
///         cusci::value_error for keys of different shapes ("all keys need to be the same shape");
///         cusci::index_error for an axis out of range (NumPy's AxisError); cusci::out_of_memory.
/// NumPy: `np.lexsort(keys, axis)`.
ndarray lexsort(const std::vector<ndarray>& keys, lexsort_options opts = {});
/// The same with the keys as the rows of one array: keys[i] = keys_array[i] (shape keys.shape[1:]).
/// @throws as above; cusci::type_error for a 0-d array (NumPy: "need sequence of keys with len > 0").
ndarray lexsort(const ndarray& keys, lexsort_options opts = {});

/// Options of digitize.
struct digitize_options {
  /// Whether bins are closed on the right (bins[i-1] < x <= bins[i]) instead of on the left.
  bool right = false;
};
/// Index of the bin each value of `x` falls in.
/// @param x     [any shape], any real dtype (bool, integers, floats), any layout.
/// @param bins  [n] monotonically increasing or decreasing (ties allowed), any real dtype.
/// @param opts  right.
/// @return int64 of x's shape: increasing bins: i with bins[i-1] <= x < bins[i] (right:
///         bins[i-1] < x <= bins[i]), 0 below and n above; decreasing bins: the mirror image
///         (n - searchsorted(bins[::-1], x)), as NumPy. NaN goes past the largest bin.
/// Synchronizes once (the monotonicity check reads one small result back).
/// Algorithm: monotonicity as NumPy's (on bins cast to float64: after the run of values equal to
/// bins[0], the first differing value decides the direction, then no step may go the other way),
/// computed by one kernel; then searchsorted (side right, or left when right=true).
/// @throws cusci::type_error for complex x ("x may not be complex") or complex bins (NumPy: "Cannot
///         cast array data from dtype('complex128') to dtype('float64') according to the rule
///         'safe'"); cusci::value_error for bins that are not 1-D ("object of too small depth for
///         desired array" for 0-d, "object too deep for desired array" for 2-D and more) or not
///         monotonic ("bins must be monotonically increasing or decreasing"); cusci::out_of_memory.
/// NumPy: `np.digitize(x, bins, right)`.
ndarray digitize(const ndarray& x, const ndarray& bins, digitize_options opts = {});

}  // namespace cusci
