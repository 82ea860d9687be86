#pragma once
/// @file detail/measurements_plan.hpp
/// (detail; not a public API) The precompiled host half of labeled_comprehension, shared by the
/// run-time-compiled form (measurements.hpp) and the nvcc functor form (nvcc/measurements.cuh):
/// SciPy's argument checks, the grouping of the values by region (each region's values contiguous,
/// in C order of their positions), and the delivery of the per-region results per index entry with
/// SciPy's default for absent labels and out_dtype. The caller launches only the kernel that calls
/// the user function once per region, between prepare and finish, on the current stream. Plain C++.

#include <cstdint>
#include <optional>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/measurements.hpp"

namespace cusci::ndimage::detail {

/// Region s holds values[offsets[s] .. offsets[s + 1]) and their flat C-order positions; the kernel
/// writes result[s] (float64) = f(values + offsets[s], [positions + offsets[s],] count) for count > 0
/// and `default_value` otherwise.
struct comprehension_plan {
  ndarray values;     ///< [m] the input's dtype: the values of every region, region after region
  ndarray positions;  ///< int64 [m]
  ndarray offsets;    ///< int64 [nslots + 1]
  ndarray result;     ///< float64 [nslots]
  std::int64_t nslots = 0;
  double default_value = 0.0;
  bool pass_positions = false;
  cusci::dtype input_dtype = cusci::dtype::float64;
  cusci::dtype out_dtype = cusci::dtype::float64;
  unsigned grid = 1, block = 128;  ///< launch shape: grid-stride over the regions
  // delivery
  bool array_index = false;
  shape_t index_shape{};
  ndarray entry_slot;  ///< int64 [index.size]: the region of each index entry
  bool identity = false;  ///< a 1-D index lo, lo + 1, ..., hi: entry i is region i (entry_slot unused)
};

/// SciPy's labeled_comprehension up to the calls of the function (checks, grouping). Enqueues.
comprehension_plan prepare_labeled_comprehension(const ndarray& input, const std::optional<ndarray>& labels,
                                                 const label_index& index, const labeled_comprehension_options& opts);
/// The results per index entry, converted to out_dtype. Enqueues; returns the result.
ndarray finish_labeled_comprehension(const comprehension_plan& plan);

}  // namespace cusci::ndimage::detail
