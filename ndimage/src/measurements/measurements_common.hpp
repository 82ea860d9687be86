#pragma once
// Host helpers shared by the measurements' host files (measurements.cpp, comprehension_rtc.cpp):
// SciPy's handling of input, labels and index turned into a region_view, and the delivery of
// per-region results per index entry. Plain C++.

#include <cstdint>
#include <optional>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/measurements.hpp"
#include "measurements/measure_kernels.hpp"

namespace cusci::ndimage::detail {

/// A measurement's elements and regions, and how its results are delivered.
struct regions {
  region_view view;
  bool array_index = false;              ///< an array index: one result per entry
  shape_t index_shape{};                 ///< its shape
  ndarray entry_slot;                    ///< int64 [index.size]: the region of each entry
  bool identity = false;                 ///< a 1-D index lo, lo + 1, ..., hi: entry i is slot i
  ndarray sorted;                        ///< slot_mode::search: the distinct labels (kept alive here)
  std::vector<std::int64_t> host_index;  ///< the index's values
  cusci::dtype labels_dtype = cusci::dtype::int64;  ///< the labels' dtype as given
};

/// NumPy's broadcast shape of input and labels (cusci::value_error when they do not broadcast).
shape_t measure_broadcast_shapes(const shape_t& a, const shape_t& b, const char* fn);

/// SciPy's handling of input / labels / index for function `fn` (checks, C-contiguous copies where
/// needed, the slot map). An array index is read to the host (synchronizes).
regions prepare_regions(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index,
                        const char* fn);

/// per_slot [nslots, ...] delivered per index entry: [index.shape..., ...] for an array index
/// ([index.size, ...] with `flat_index`: positions, centres of mass, histograms, which SciPy returns
/// as a list of tuples or arrays), else per_slot[0] ([...], 0-d for per-slot scalars).
ndarray per_entry(const regions& p, const ndarray& per_slot, bool flat_index = false);

}  // namespace cusci::ndimage::detail
