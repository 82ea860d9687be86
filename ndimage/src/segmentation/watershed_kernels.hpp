#pragma once
// Internal interface between watershed.cpp (argument handling) and watershed_kernels.cu (the
// flooding). Host C++ only.

#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::ndimage::detail {

/// The image foresting transform of watershed_ift on prepared arrays.
/// @param values   C-contiguous uint16 (the input's values), n elements.
/// @param is_mark  C-contiguous int32: the markers read as C ints (non-zero = marker).
/// @param labels   C-contiguous int64: each element's label as the output dtype holds it.
/// @param offsets  the neighbour offsets in flat C-order elements, in structure order (centre and
///                 zero offsets removed).
/// @returns a new C-contiguous int64 array: for each element the label of its flooding root, or
///          its own `labels` value when no marker reaches it. Synchronizes once per 32 waves.
ndarray watershed_flood(const ndarray& values, const ndarray& is_mark, const ndarray& labels,
                        const std::vector<std::int64_t>& offsets);

}  // namespace cusci::ndimage::detail

namespace cusci::ndimage::detail {

/// SciPy's queue (ni_measure.c, NI_WatershedIFT) run on the host, element for element: bucket queue
/// over costs 0..max(values), doubly linked lists, object labels pushed at a bucket's front,
/// background labels at its back, and SciPy's unlink test (an element whose links are both null is
/// taken as not queued). Gives SciPy's exact result.
/// @param values  n values (the input, C order, widened to uint16).
/// @param is_mark n ints (markers read as C ints; non-zero = marker).
/// @param labels  n labels as the output dtype holds them; overwritten with the result.
void watershed_queue_host(const std::uint16_t* values, const std::int32_t* is_mark, std::int64_t* labels,
                          std::int64_t n, const std::vector<std::int64_t>& offsets);

}  // namespace cusci::ndimage::detail
