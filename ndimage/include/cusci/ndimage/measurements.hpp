#pragma once
/// @file measurements.hpp
/// scipy.ndimage's labelling and measurements: label, find_objects, value_indices, and the
/// measurements over labelled regions (sum_labels, mean, variance, standard_deviation, minimum,
/// maximum, median, minimum_position, maximum_position, extrema, center_of_mass, histogram,
/// labeled_comprehension). Plain C++ (no CUDA types); the functor form of labeled_comprehension is
/// in the opt-in header nvcc/measurements.cuh.
///
/// Results, as a SciPy user knows them:
/// - SciPy returns a NumPy scalar where `index` is a scalar or None, and an array of `index`'s shape
///   where it is an array: cusci returns a device `ndarray` in both cases, 0-d for a scalar or no index
///   (`r.item<double>()` reads it), of `index`'s shape otherwise, with SciPy's dtype.
/// - Positions (SciPy: a tuple of `ndim` integers, or a list of tuples): an int64 `ndarray` of shape
///   [ndim] for a scalar or no index, [index.size, ndim] for an array index (row i is the position of
///   index entry i, in C order of `index`).
/// - center_of_mass (SciPy: a tuple of floats, or a list of tuples): float64, shaped like positions.
/// - histogram (SciPy: an array of counts, or an object array of arrays): int64 [bins], or
///   [index.size, bins]; a label absent from `labels` has all-zero counts (SciPy: None).
/// - label: `label_result{labels, num_features}` (SciPy's `(output, num_features)` tuple; usable with
///   structured bindings); find_objects: a host vector of optional slice tuples; value_indices: a
///   host map from value to the tuple of index arrays.
///
/// Streams: everything is enqueued on the current stream; the functions that return host values
/// (label's count, find_objects, value_indices) or that read the index / counts to decide SciPy's
/// result (an array index is read to the host; minimum, maximum and the positions with a scalar or
/// no index check that the region is not empty) synchronize, and say so.
///
/// Inputs of any layout (C, F, strided, reversed, zero strides) are accepted; labels and input are
/// broadcast against each other as NumPy does. Labels are integers or bool (labels of int32 or int64
/// are read in place; other integer dtypes are converted to int64 first).

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/device_function.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

// ------------------------------------------------------------------------------------------------
// label, find_objects, value_indices
// ------------------------------------------------------------------------------------------------

/// Options of `label` (SciPy's keyword arguments).
struct label_options {
  /// The connectivity: an array of any dtype read as bool (nonzero = connected), of the input's rank,
  /// every dimension 3, symmetric about its centre. Not given: `generate_binary_structure(ndim, 1)`
  /// (faces only: 4-connectivity in 2-D, 6 in 3-D). Device or host copy; it is read to the host.
  std::optional<ndarray> structure{};
  /// `output=`: nothing (int32; int64 from 2**31 - 2 elements on), a dtype, or an existing array of
  /// the input's shape that receives the labels.
  output_arg output{};
};

/// label's result: SciPy's `(labeled_array, num_features)`. When an output array was given, `labels`
/// is that array (SciPy then returns only the count).
struct label_result {
  ndarray labels;
  std::int64_t num_features = 0;
};

/// Labels the connected features of `input` (nonzero elements; NaN counts as nonzero).
///
/// @param input [any shape] bool, integer or float, any layout.
/// @param opts  structure and output (label_options).
/// @returns the labels (C-contiguous when new; 1..num_features, 0 for the background), numbered as
///          SciPy numbers them: in the order of each feature's first element in a C-order scan, so
///          the result is SciPy's array, not merely an equivalent one; and the number of features.
/// Synchronizes (reads the count). 0-d input: label 1 if nonzero; empty input: count 0.
/// Algorithm: union-find over the image with lock-free atomicMin linking of the larger root under
/// the smaller (Playne & Hawick, "A New Algorithm for Parallel Connected-Component Labelling on
/// GPUs", IEEE TPDS 2018), so that each root is its feature's first element in C order; roots are
/// then numbered by an exclusive scan over root flags, which is exactly SciPy's numbering. Structures
/// within the last two axes first label 32 x 32 tiles in shared memory, then link tile borders.
/// @throws type_error complex input ("Complex type not supported").
/// @throws runtime_error structure of another rank ("structure and input must have equal rank");
///         an output dtype that cannot hold num_features ("insufficient bit-depth in requested
///         output type", as SciPy: bool holds 1, int8 127, uint8 255, int16 32767, uint16 65535,
///         float16 2048, float32 2**24); a complex output dtype.
/// @throws value_error structure dimensions other than 3 ("structure dimensions must be equal to
///         3"); an output array of another shape ("output shape not correct"); an asymmetric
///         structure ("Structuring element is not symmetric"; SciPy raises AssertionError).
/// @throws not_implemented_error inputs of 2**31 - 2 elements or more.
/// SciPy: `scipy.ndimage.label`.
label_result label(const ndarray& input, const label_options& opts = {});

/// One feature's bounding box: a slice (start, stop, step 1) per dimension.
using object_slices = std::vector<cusci::slice>;

/// The bounding boxes of the labelled features of `input`.
///
/// @param input     [any shape] integer or bool labels, any layout; labels <= 0 are ignored.
/// @param max_label the labels 1..max_label are searched; < 1: the input's maximum.
/// @returns a host vector of max_label entries: entry i holds the slices of label i + 1, or nothing
///          when label i + 1 does not occur (SciPy's None). Synchronizes.
/// @throws type_error complex or float input (SciPy: "Complex type not supported"; SciPy accepts a
///         float input with an explicit max_label, cusci does not); bool input without max_label
///         (SciPy: "'numpy.bool' object cannot be interpreted as an integer").
/// SciPy: `scipy.ndimage.find_objects`. Algorithm: one pass of per-label atomicMin / atomicMax on the
/// coordinates.
std::vector<std::optional<object_slices>> find_objects(const ndarray& input, std::int64_t max_label = 0);

/// Options of `value_indices`.
struct value_indices_options {
  /// A value whose indices are not returned, converted to the array's dtype (SciPy's ignore_value).
  std::optional<std::int64_t> ignore_value{};
};

/// For each distinct value of `arr`, the indices of its elements, as `np.nonzero(arr == value)`.
///
/// @param arr [any shape] integer array (bool is refused as by SciPy), any layout.
/// @returns a host map from each value (ascending, as SciPy's dict order) to `ndim` int64 device
///          arrays (the coordinates along each axis, in C order of the elements; views of one
///          buffer). Synchronizes (reads the distinct values).
/// @throws value_error non-integer `arr` ("Parameter 'arr' must be an integer array"); an
///         ignore_value outside the dtype's range (SciPy: OverflowError "Python integer -1 out of
///         bounds for uint8").
/// SciPy: `scipy.ndimage.value_indices`. Deviation: uint64 values above 2**63 - 1 are keyed by
/// their int64 bit pattern. Algorithm: a stable radix sort of positions by value and a
/// run-length encoding.
std::map<std::int64_t, std::vector<ndarray>> value_indices(const ndarray& arr, const value_indices_options& opts = {});

// ------------------------------------------------------------------------------------------------
// measurements
// ------------------------------------------------------------------------------------------------

/// SciPy's `index` of the measurements: none (every element whose label is > 0, as one region), one
/// label (a scalar), or labels (an array: a host list or an integer device array of any shape).
class label_index {
 public:
  label_index() = default;
  label_index(std::nullopt_t) noexcept {}  // NOLINT: implicit, as SciPy's None
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  label_index(I v) : scalar_(static_cast<std::int64_t>(v)) {}  // NOLINT: implicit, as a Python int
  label_index(std::vector<std::int64_t> v) : list_(std::move(v)) {}  // NOLINT: as a Python list
  label_index(std::initializer_list<std::int64_t> v) : list_(std::vector<std::int64_t>(v)) {}  // NOLINT
  label_index(ndarray a) : array_(std::move(a)) {}  // NOLINT: as a NumPy array

  bool is_none() const noexcept { return !scalar_ && !list_ && !array_; }
  bool is_scalar() const noexcept { return scalar_.has_value(); }
  /// A list or an array.
  bool is_array() const noexcept { return list_.has_value() || array_.has_value(); }
  std::int64_t scalar() const { return *scalar_; }
  const std::optional<std::vector<std::int64_t>>& list() const noexcept { return list_; }
  const std::optional<ndarray>& array() const noexcept { return array_; }

 private:
  std::optional<std::int64_t> scalar_{};
  std::optional<std::vector<std::int64_t>> list_{};
  std::optional<ndarray> array_{};
};

// Common to the measurements below:
// @param input  [any shape] bool, integer or float (float16/32/64), any layout.
// @param labels [broadcastable with input] integer or bool labels, or nothing (every element is in
//               the one region and `index` is ignored, as SciPy).
// @param index  none: the elements whose label is > 0, as one region; a scalar: the elements of that
//               label; an array: one result per entry (duplicates allowed, any order). A label that
//               does not occur gives SciPy's value for an absent label (0 for sums, NaN for means and
//               variances, 0 for minimum / maximum and their positions, ...).
// An array index is read to the host (synchronizes); results are device arrays.
// @throws type_error complex input (SciPy accepts complex in sum_labels / mean / variance with a
//         scalar or no index; cusci does not), float or complex labels, a non-integer index array.
// @throws value_error input and labels that do not broadcast.

/// Sum of the values of each region. dtype: with a scalar or no index, NumPy's sum dtype (int64 for
/// bool and signed integers, uint64 for unsigned integers, the input's for floats); with an array
/// index, float64 (SciPy's bincount). With a scalar or no index, integer sums are exact (64-bit
/// arithmetic, wrapping as NumPy's beyond 2**63); with an array index every value is converted to
/// float64 and summed in float64, as SciPy's np.bincount(labels, weights=input) (the order of the
/// additions differs: sums beyond 2**53 may differ in their last bits). SciPy: `scipy.ndimage.sum_labels`.
ndarray sum_labels(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                   const label_index& index = {});
/// Mean of each region, float64 (NaN for an empty region): the sum as sum_labels computes it (so
/// 64-bit integer sums wrap with a scalar or no index, as SciPy's) over the count.
/// SciPy: `scipy.ndimage.mean`.
ndarray mean(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt, const label_index& index = {});
/// Population variance of each region, float64 (two passes: means from float64 sums, as SciPy's
/// vals.mean() / bincount, then centred squares).
/// SciPy: `scipy.ndimage.variance`.
ndarray variance(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                 const label_index& index = {});
/// Square root of variance, float64. SciPy: `scipy.ndimage.standard_deviation`.
ndarray standard_deviation(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                           const label_index& index = {});
/// Minimum of each region, of the input's dtype (0 for an absent label of an array index).
/// Synchronizes with a scalar or no index (an empty region raises SciPy's ValueError).
/// @throws value_error an empty region with a scalar or no index ("zero-size array to reduction
///         operation minimum which has no identity"). NaN handling is not SciPy's (NaN is ordered
///         above +inf). SciPy: `scipy.ndimage.minimum`.
ndarray minimum(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                const label_index& index = {});
/// Maximum of each region; as minimum. SciPy: `scipy.ndimage.maximum`.
ndarray maximum(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                const label_index& index = {});
/// Median of each region: float64 for bool and integer inputs (the mean of the two middle values in
/// float64, so int8 values never overflow), the input's dtype for floats. NaN for an empty region
/// with a scalar or no index; with an array index an absent label gets SciPy's value (the smallest
/// value of the smallest label present). Algorithm: two stable radix sorts (by value, then by
/// region). SciPy: `scipy.ndimage.median`.
ndarray median(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
               const label_index& index = {});
/// Position of the minimum of each region: int64 [ndim] or [index.size, ndim]. Ties: the first in C
/// order (SciPy's with a scalar or no index; with an array index SciPy's choice among ties depends
/// on NumPy's unstable argsort). Absent labels: all zeros. Synchronizes with a scalar or no index.
/// @throws value_error an empty region with a scalar or no index. SciPy: `scipy.ndimage.minimum_position`.
ndarray minimum_position(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                         const label_index& index = {});
/// Position of the maximum; as minimum_position. SciPy: `scipy.ndimage.maximum_position`.
ndarray maximum_position(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                         const label_index& index = {});

/// extrema's result: SciPy's `(minimums, maximums, min_positions, max_positions)`.
struct extrema_result {
  ndarray minimums, maximums, min_positions, max_positions;
};
/// minimum, maximum, minimum_position and maximum_position in one pass pair.
/// SciPy: `scipy.ndimage.extrema`.
extrema_result extrema(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                       const label_index& index = {});
/// Centre of mass (sum of value * coordinate / sum of values) of each region: float64 [ndim] or
/// [index.size, ndim]; NaN for an empty region. SciPy: `scipy.ndimage.center_of_mass`.
ndarray center_of_mass(const ndarray& input, const std::optional<ndarray>& labels = std::nullopt,
                       const label_index& index = {});
/// Histogram of each region over `bins` equal bins between `min` and `max` (edges
/// `np.linspace(min, max, bins + 1)`; a value v counts in bin i when edge[i] <= v < edge[i + 1], the
/// last bin also holding v == max; values outside or NaN are not counted): int64 [bins] or
/// [index.size, bins].
/// @throws value_error bins < 0 ("Number of samples, -1, must be non-negative."); max < min ("bins
///         must increase monotonically"); an index with no labels ("index without defined labels");
///         index values that the labels' dtype cannot hold. SciPy: `scipy.ndimage.histogram`
///         (deviation: absent labels give zero counts where SciPy gives None).
ndarray histogram(const ndarray& input, double min, double max, std::int64_t bins,
                  const std::optional<ndarray>& labels = std::nullopt, const label_index& index = {});

/// Options of labeled_comprehension (SciPy's parameters after `func`).
struct labeled_comprehension_options {
  /// dtype of the results (SciPy's out_dtype).
  cusci::dtype out_dtype = cusci::dtype::float64;
  /// The value of an absent label, converted to out_dtype (SciPy's default).
  double default_value = 0.0;
  /// Also pass the flat C-order positions of the values (SciPy's pass_positions).
  bool pass_positions = false;
};

/// Calls `func` on the values of each region and stores its results (SciPy's
/// labeled_comprehension). `func` is a device_function (CUDA source, compiled with NVRTC once per
/// source, options and dtype, cached) defining `R name(const T* values, std::ptrdiff_t n)` or, with
/// pass_positions, `R name(const T* values, const long long* positions, std::ptrdiff_t n)`; T is
/// the input's device type (bool, signed char ... unsigned long long, __half, float, double),
/// `cusci_input_t` names it; the result is converted to double and then to out_dtype with NumPy's
/// casting. One thread calls `func` per region; the values are in C order of their positions.
///
/// @returns out_dtype, 0-d for a scalar or no index or no labels, of index's shape otherwise
///          (absent labels: default_value).
/// @throws value_error an index with no labels ("index without defined labels"); index values the
///         labels' dtype cannot hold ("Cannot convert index values from <int64> to <int8> (labels'
///         type) without loss of precision"); an empty function name.
/// SciPy: `scipy.ndimage.labeled_comprehension`. Deviations: the function is device code, not a
/// Python callable; SciPy passes each region's values in the order of NumPy's (unstable) argsort,
/// cusci in C order; results go through double (int64 results beyond 2**53 are rounded).
ndarray labeled_comprehension(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index,
                              const device_function& func, const labeled_comprehension_options& opts = {});

}  // namespace cusci::ndimage
