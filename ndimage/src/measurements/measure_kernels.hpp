#pragma once
// The device passes of the measurements (measure_kernels.cu, measure_sort.cu, label_kernels.cu),
// called by the host code of measurements.cpp / label.cpp. Plain C++.
//
// A measurement runs over "regions": the elements of a region share a slot in [0, nslots); the slot
// of an element comes from its label through a slot_map (one region of all elements when there are
// no labels, the labels > 0 when there is no index, one label for a scalar index, and for an array
// index either a dense range of labels [lo, hi] or a sorted list of distinct labels searched by
// bisection). Per-slot results are then gathered per index entry on the host side (cusci::take).

#include <cstdint>

#include "cusci/ndarray.hpp"

namespace cusci::ndimage::detail {

enum class slot_mode : int { all = 0, positive = 1, equal = 2, dense = 3, search = 4 };

/// label -> slot (see slot_of in measure_common.cuh).
struct slot_map {
  slot_mode mode = slot_mode::all;
  long long lo = 0;                   ///< equal: the label; dense: the first label of the range
  long long hi = 0;                   ///< dense: the last label of the range
  const long long* sorted = nullptr;  ///< search: the distinct labels, ascending (device)
  long long count = 0;                ///< search: their number
};

/// The elements of a measurement: `values` and `labels` C-contiguous and of the same shape (labels
/// int32 or int64, or an empty array when there are none: slot_mode::all), the slot map and the
/// number of slots.
struct region_view {
  ndarray values;
  ndarray labels;
  bool has_labels = false;
  slot_map map{};
  std::int64_t nslots = 1;
  shape_t shape{};
  std::int64_t size = 0;
};

// --- measure_kernels.cu ---------------------------------------------------------------------------
/// counts (uint64 [nslots], zeroed here; an empty ndarray when not `want_counts`) and sums ([nslots]:
/// uint64 two's complement sums for bool and integer values, float64 for floats; zeroed here).
/// `double_sums`: float64 sums for every dtype (each value converted to double first, as SciPy's
/// np.bincount(..., weights=input) for an index array).
void sum_count_pass(const region_view& r, ndarray& counts, ndarray& sums, bool double_sums = false,
                    bool want_counts = true);
/// out[s] (float64 [nslots], zeroed here) = sum over slot s of (x - means[s])**2.
void centered_pass(const region_view& r, const ndarray& means, ndarray& out);
/// out[s, d] (float64 [nslots, ndim + 1], zeroed here) = sum over slot s of x * coordinate d for
/// d < ndim, and out[s, ndim] = sum over slot s of x (one pass for center_of_mass).
void moment_pass(const region_view& r, ndarray& out);
/// counts (uint64 [nslots]: 1 where the slot has elements, else 0), min keys and max keys (uint64
/// [nslots]; order keys, see order_key) of each slot.
void extreme_pass(const region_view& r, ndarray& counts, ndarray& minkey, ndarray& maxkey);
/// extreme_pass and position_pass in one pass for values of at most 4 bytes and fewer than
/// 2**32 - 1 elements (the value's 32-bit key and the position packed into one 64-bit atomic):
/// counts (1 where the slot has elements, else 0), the keys and first positions of the minimum
/// (want_min) and / or the maximum (want_max). Returns false (nothing done) for other inputs.
bool packed_extreme_pass(const region_view& r, bool want_min, bool want_max, ndarray& counts, ndarray& minkey,
                         ndarray& maxkey, ndarray& minpos, ndarray& maxpos);
/// The first C-order flat position of each slot whose key equals minkey / maxkey (uint64 [nslots],
/// UINT64_MAX where none). Either output may be empty (not computed).
void position_pass(const region_view& r, const ndarray& minkey, const ndarray& maxkey, ndarray& minpos,
                   ndarray& maxpos);
/// out[s] (values' dtype) = the value of keys[s], or 0 where counts[s] == 0.
void keys_to_values(const ndarray& keys, const ndarray& counts, ndarray& out);
/// out[s, d] (int64 [nslots, ndim]) = coordinate d of flat position pos[s] in `shape`, 0 where
/// counts[s] == 0.
void unravel_positions(const ndarray& pos, const ndarray& counts, const shape_t& shape, ndarray& out);
/// counts[s, b] (int64 [nslots, bins], zeroed here): the values of slot s in bin b of `edges`
/// (float64 [bins + 1], non-decreasing; numpy.histogram's rule).
void histogram_pass(const region_view& r, const ndarray& edges, std::int64_t bins, ndarray& counts);

/// The minimum and maximum of a non-empty integer or bool index array (values as int64, wrapping as
/// NumPy's astype(int64)), and whether its elements in C order are lo, lo + 1, ... (consecutive).
/// One pass and one read-back: synchronizes.
struct index_summary {
  std::int64_t lo = 0, hi = 0;
  bool consecutive = false;
};
index_summary summarize_index(const ndarray& index);

// --- measure_sort.cu ------------------------------------------------------------------------------
/// The elements of each slot in slot order, each slot's elements in C order (`by_value` false) or in
/// value order (`by_value` true; stable): `positions` (int64 [m]: flat C-order positions of the m
/// elements that have a slot), `offsets` (int64 [nslots + 1]: slot s holds [offsets[s], offsets[s+1])).
/// Enqueues; no synchronization.
void group_by_slot(const region_view& r, bool by_value, ndarray& positions, ndarray& offsets);
/// out[i] = values[positions[i]] (values C-contiguous; any dtype; by item size).
void gather_flat(const ndarray& values, const ndarray& positions, ndarray& out);
/// The median of each slot from the value-ordered grouping (values gathered in that order):
/// out[s] (float64 for bool / integer values, else the values' dtype) = (v[lo] + v[hi]) / 2 with
/// lo, hi the middle elements, computed as SciPy does; `absent` (0-d, out's dtype) where the slot is
/// empty.
void median_finish(const ndarray& sorted_values, const ndarray& offsets, const ndarray& absent, ndarray& out);
/// value_indices: sorts positions 0..n-1 by `keys` (int64, stable) and run-length encodes them:
/// `positions` (int64 [n]), `unique` (int64 [runs]), `counts` (int64 [runs]); returns runs.
/// Synchronizes (reads the number of runs).
std::int64_t sort_and_encode(const ndarray& keys, ndarray& positions, ndarray& unique, ndarray& counts);
/// coords[d, i] (int64 [ndim, n]) = coordinate d of flat position positions[i] in `shape`.
void unravel_flat(const ndarray& positions, const shape_t& shape, ndarray& coords);

// --- label_kernels.cu -----------------------------------------------------------------------------
/// Labels `input` (C-contiguous, any real dtype, size < 2**31 - 2) into `out` (int32, C-contiguous, same
/// shape) with SciPy's numbering; `offsets` are the flat offsets (backward half of the structure,
/// as element counts along each axis: `deltas` [n_offsets, ndim]). Returns the number of features.
/// Synchronizes.
std::int64_t label_pass(const ndarray& input, const std::int64_t* deltas, int n_offsets, ndarray& out);
/// bbox (int64 [max_label, ndim, 2], set here to (INT64_MAX, -1)) of labels 1..max_label of `labels`
/// (C-contiguous int32 or int64).
void find_objects_pass(const ndarray& labels, std::int64_t max_label, ndarray& bbox);

}  // namespace cusci::ndimage::detail
