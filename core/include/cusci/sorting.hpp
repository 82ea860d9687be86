#pragma once
/// @file sorting.hpp
/// Sorting, searching and counting with NumPy's semantics: sort, argsort, partition, argpartition,
/// searchsorted, unique, nonzero, argwhere, flatnonzero, bincount and histogram.
///
/// Order (every function that compares): NumPy's. NaNs sort after every other value, -0.0 and +0.0
/// are equal (their input order is kept), complex values are ordered R+Rj < R+nanj < nan+Rj <
/// nan+nanj, lexicographically by (real, imaginary) inside each class. Sorts are stable whatever
/// `kind` is asked for (NumPy allows any algorithm for `quicksort`, so stable results are valid).
///
/// Dtypes: every cusci dtype (bool, int8..uint64, float16 where the dtype list has it, float32,
/// float64, complex64, complex128), any layout (C, F, strided, negative strides).
/// Stream behaviour: asynchronous on the current stream unless a function says "synchronizes";
/// the functions that synchronize are those whose output size depends on the data (unique, nonzero,
/// argwhere, flatnonzero, bincount) or whose errors depend on it (histogram's range and bins checks,
/// searchsorted with a sorter); each synchronizes once, to read the count or flag it needs. sort,
/// argsort, partition and argpartition over more than 300 rows synchronize once inside CUB's
/// segmented sort.
/// cusci core mirrors NumPy/CuPy (not SciPy).

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci {

/// NumPy's sorting algorithm names (`kind=`). Accepted for compatibility: every kind runs the same
/// stable radix sort.
enum class sort_kind { quicksort, mergesort, heapsort, stable };
/// Parses "quicksort", "mergesort", "heapsort", "stable" (NumPy also accepts their first letter
/// and any case; so does this).
/// @throws cusci::value_error for another string ("sort kind must be one of 'quick', 'heap', or
///         'stable' (got 'x')", as NumPy).
sort_kind parse_sort_kind(std::string_view s);

/// Options of sort / argsort (NumPy's keyword arguments; both accepted and ignored: the sort is
/// always stable).
struct sort_options {
  std::optional<sort_kind> kind{};
  std::optional<bool> stable{};
};

/// Sorted copy of `a` along `axis`.
/// @param a     input [any shape], any dtype, any layout.
/// @param axis  axis to sort along (default -1, the last); `std::nullopt` (NumPy's `axis=None`)
///              sorts the flattened array.
/// @param opts  kind / stable (ignored; always stable).
/// @return the same shape as `a` ((a.size,) for axis=None), `a`'s dtype, C-contiguous (an axis
///         other than the last is sorted as the last axis of a moved copy, then copied back).
///         NaN payloads and signs are not kept: each NaN comes out as the canonical quiet NaN
///         (NumPy keeps the bits).
/// Asynchronous on the current stream, except over more than 300 rows, where CUB's segmented sort
/// synchronizes once (it reads its segment-size groups back to the host).
/// Algorithm: CUB radix sort (DeviceRadixSort over one row, DeviceSegmentedSort over many rows) of
/// ordered unsigned keys of the element's width (-0.0 and +0.0 one key, every NaN one key), decoded
/// in place; the signs of zeros are then restored in input order (a pass that runs only when the
/// input holds a -0.0). Complex values through an argsort with composite radix keys and a gather.
/// @throws cusci::index_error for an axis out of range (a 0-d array with an integer axis included);
///         cusci::out_of_memory.
/// NumPy: `np.sort(a, axis, kind, order=None, stable)` (no `order=` for structured arrays).
ndarray sort(const ndarray& a, std::optional<int> axis = -1, sort_options opts = {});

/// Indices that sort `a` along `axis` (stable: equal keys keep their input order).
/// @param a     input [any shape], any dtype, any layout.
/// @param axis  as `sort`; `std::nullopt` gives indices into the flattened array.
/// @return int64, `a`'s shape ((a.size,) for axis=None), laid out as `sort`'s result.
/// Stream behaviour as `sort` (synchronizes once over more than 300 rows of a real dtype).
/// @throws cusci::index_error for an axis out of range; cusci::out_of_memory.
/// NumPy: `np.argsort(a, axis, kind, order=None, stable)`.
ndarray argsort(const ndarray& a, std::optional<int> axis = -1, sort_options opts = {});

/// Partitioned copy of `a`: for each k in `kth` the element at k along `axis` is the one a full
/// sort would put there, smaller-or-equal ones before it, greater-or-equal ones after.
/// Implemented by a full stable sort, which has the partition property (NumPy's introselect gives
/// another, equally valid, arrangement of the non-kth elements).
/// @param a     input [any shape], any dtype, any layout.
/// @param kth   positions along `axis`, each in [-n, n) (negative counts from the end).
/// @param axis  as `sort` (`std::nullopt` flattens).
/// @return as `sort`.
/// Stream behaviour as `sort`.
/// @throws cusci::value_error for a kth out of range ("kth(=7) out of bounds (5)", as NumPy) or an
///         empty kth list; cusci::index_error for an axis out of range; cusci::out_of_memory.
/// NumPy: `np.partition(a, kth, axis, kind='introselect')`.
ndarray partition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis = -1);
ndarray partition(const ndarray& a, std::int64_t kth, std::optional<int> axis = -1);
/// Indices that partition `a` (see `partition`): int64, `a`'s shape. As `argsort`, with kth checks.
/// NumPy: `np.argpartition(a, kth, axis)`.
ndarray argpartition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis = -1);
ndarray argpartition(const ndarray& a, std::int64_t kth, std::optional<int> axis = -1);

/// Which insertion point searchsorted returns for values equal to elements of `a` (`side=`).
enum class search_side { left, right };
/// Parses "left" / "right" (NumPy also accepts any prefix, e.g. "l"; so does this).
/// @throws cusci::value_error for another string.
search_side parse_search_side(std::string_view s);

/// Insertion indices of `v` into the sorted `a` that keep it sorted.
/// @param a       [n] sorted ascending in NumPy's order (NaNs last), any dtype and layout.
/// @param v       values [any shape], any dtype; `a` and `v` are compared in
///                `promote_types(a.dtype, v.dtype)`.
/// @param side    left: first i with a[i] >= v; right: first i with a[i] > v (NaN-aware: NaN is
///                greater than every number and equal to NaN).
/// @param sorter  optional [n] integer indices that sort `a` (a[sorter] is sorted).
/// @return int64 [v.shape], C-contiguous.
/// Asynchronous without `sorter`; with `sorter`, synchronizes once to report a sorter index out of
/// range that the search visited (as NumPy, which checks only the indices it reads).
/// Algorithm: one thread per query, binary search.
/// @throws cusci::value_error when `a` is not 1-D, when `sorter` is not 1-D of a's length or not
///         of an integer dtype (type_error), or for a sorter index out of range ("Sorter index out of
///         range."); cusci::out_of_memory.
/// NumPy: `np.searchsorted(a, v, side, sorter)` (v must be an array: wrap a scalar in a 0-d array).
ndarray searchsorted(const ndarray& a, const ndarray& v, search_side side = search_side::left,
                     const std::optional<ndarray>& sorter = {});

/// Options of unique (NumPy's keyword arguments).
struct unique_options {
  bool return_index = false;    ///< indices of the first occurrences
  bool return_inverse = false;  ///< indices that rebuild the input from the unique values
  bool return_counts = false;   ///< number of occurrences of each unique value
  /// Only axis=None (flattened) is supported; an integer axis throws not_implemented_error.
  std::optional<int> axis{};
  bool equal_nan = true;  ///< all NaNs (complex: values with a NaN part) count as one value
  bool sorted = true;     ///< accepted; the result is always sorted
};

/// Arrays returned by unique; the optional ones are set when asked for.
struct unique_result {
  ndarray values;                  ///< [k] sorted unique values, ar's dtype
  std::optional<ndarray> indices;  ///< [k] int64: first occurrence in the flattened input
  std::optional<ndarray> inverse;  ///< int64 of ar's shape: values[inverse] == ar
  std::optional<ndarray> counts;   ///< [k] int64
};

/// Sorted unique elements of `ar` (flattened), with the optional index arrays.
/// @param ar    input [any shape], any dtype, any layout.
/// @param opts  return flags, equal_nan (default true, as NumPy 2).
/// @return see unique_result. The inverse has ar's shape (NumPy 2.x for axis=None). -0.0 and +0.0
///         are one value, shown with the sign of its first occurrence; NaNs come out canonical.
/// Synchronizes once (to learn the number of unique values).
/// Algorithm: stable radix (arg)sort, flags of first elements of runs, CUB select and scans.
/// @throws cusci::not_implemented_error for an integer axis; cusci::out_of_memory.
/// NumPy: `np.unique(ar, return_index, return_inverse, return_counts, axis=None, equal_nan, sorted)`.
unique_result unique(const ndarray& ar, unique_options opts = {});

/// Indices of the non-zero elements (NaN counts as non-zero; complex: either part non-zero), one
/// int64 array [count] per dimension, in C order of the elements.
/// @param a  input [any shape, ndim >= 1], any dtype, any layout.
/// Synchronizes once (to learn the count).
/// Algorithm: CUB DeviceSelect over the flat indices flagged by a != 0, then an unravel kernel.
/// @throws cusci::value_error for a 0-d array (NumPy 2 raises: "Calling nonzero on 0d arrays is not
///         allowed"); cusci::out_of_memory.
/// NumPy: `np.nonzero(a)`.
std::vector<ndarray> nonzero(const ndarray& a);
/// Indices of the non-zero elements grouped by element: int64 [count, ndim] (a 0-d array gives
/// [count, 0] with count 0 or 1, as NumPy). Synchronizes once.
/// @throws cusci::out_of_memory. NumPy: `np.argwhere(a)`.
ndarray argwhere(const ndarray& a);
/// Indices of the non-zero elements of the flattened `a`: int64 [count]. Synchronizes once.
/// @throws cusci::out_of_memory. NumPy: `np.flatnonzero(a)`.
ndarray flatnonzero(const ndarray& a);

/// Options of bincount (NumPy's keyword arguments).
struct bincount_options {
  std::optional<ndarray> weights{};  ///< [n] of any real dtype (bool, integer, float)
  std::int64_t minlength = 0;        ///< minimum number of bins
};
/// Number of occurrences of each value in `x`.
/// @param x     [n] non-negative values, bool or integer dtype, any layout.
/// @param opts  weights [n] (optional), minlength >= 0.
/// @return [max(max(x) + 1, minlength)]: int64 counts, or float64 sums of the weights.
/// Synchronizes once (to learn max(x) and min(x)).
/// Algorithm: block-private shared-memory histograms merged with atomics (global atomics when the
/// bins do not fit in shared memory). Weighted sums use float64 atomics, so their order (and the
/// last bits of a sum) varies from run to run.
/// @throws cusci::type_error for a dtype other than bool/integer (NumPy: "Cannot cast array data
///         from dtype('float64') to dtype('int64') according to the rule 'safe'") or complex
///         weights; cusci::value_error for a negative value ("'list' argument must have no negative
///         elements"), a negative minlength, x not 1-D ("object too deep for desired array") or
///         weights of another length ("The weights and list don't have the same length.");
///         cusci::out_of_memory.
/// NumPy: `np.bincount(x, weights, minlength)`.
ndarray bincount(const ndarray& x, bincount_options opts = {});

/// Options of histogram (NumPy's keyword arguments).
struct histogram_options {
  /// Lower and upper edge of the bins (default: a.min(), a.max()); ignored for explicit edges.
  std::optional<std::pair<double, double>> range{};
  /// Return the probability density (hist / bin widths / total) instead of counts.
  bool density = false;
  /// [a.shape] weights of a real dtype (optional).
  std::optional<ndarray> weights{};
};
/// The histogram and its bin edges.
struct histogram_result {
  ndarray hist;       ///< [bins]: int64 counts, the weights' dtype with weights, float64 with density
  ndarray bin_edges;  ///< [bins + 1]
};

/// Histogram of `a` (flattened) over `bins` equal-width bins.
/// @param a     input [any shape], bool, integer or real float dtype, any layout.
/// @param bins  number of bins (> 0).
/// @param opts  range, density, weights (NumPy's keyword order).
/// @return hist [bins] and bin_edges [bins + 1]; edges in `result_type(a, float)` (float32 for
///         float32 input, float16 for float16, float64 for integers and bool), computed as NumPy's
///         linspace over the range. Bins are half-open [e_i, e_{i+1}) except the last, closed on the
///         right; values outside the range (and NaNs, with an explicit range) are not counted.
///         Bin indices are found by NumPy's arithmetic on the range, with its correction against the
///         edges, in the edges' dtype.
/// Synchronizes once when the range is computed from the data (to read min and max); asynchronous
/// with an explicit range.
/// @throws cusci::value_error for bins <= 0 ("`bins` must be positive, when an integer"), a range
///         with min > max ("max must be larger than min in range parameter."), a non-finite range
///         ("supplied range of [0, inf] is not finite", or "autodetected range of [nan, nan] is not
///         finite" when a holds NaN or inf without a range), weights of another shape, bins + 1
///         float64 edges above 2^63 - 1 bytes ("array is too big");
///         cusci::type_error for a complex `a` or complex weights; cusci::out_of_memory, at once
///         (before the edges are built) when bins + 1 float64 edges exceed the host's memory.
/// NumPy: `np.histogram(a, bins, range, density, weights)` (no string bin estimators).
histogram_result histogram(const ndarray& a, std::int64_t bins = 10, histogram_options opts = {});
/// Histogram over explicit, monotonically increasing edges `bins` [m + 1] (m >= 1 bins); values
/// and edges are compared in their promoted dtype; bin_edges is `bins` itself. `opts.range` is
/// ignored (as NumPy).
/// Synchronizes once (to check that the edges increase).
/// @throws cusci::value_error for edges that are not 1-D, fewer than 2, or not monotonically
///         increasing ("`bins` must increase monotonically, when an array"), weights of another
///         shape; cusci::type_error for complex input or weights; cusci::out_of_memory.
/// NumPy: `np.histogram(a, bins=array, density, weights)`.
histogram_result histogram(const ndarray& a, const ndarray& bins, histogram_options opts = {});

}  // namespace cusci
