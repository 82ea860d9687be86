#pragma once
// Internal (host-only declarations) entry points shared by the indexing and manipulation sources.

#include <cstdint>
#include <vector>

#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::detail::ix {

/// Tile offsets of a boolean mask (C order over the mask's shape): offsets[t] is the number of true
/// flags before tile t (4096 elements a tile); offsets[tiles] == total. Computing it reads the total
/// back to the host: synchronizes the current stream once.
struct mask_scan {
  device_buffer<std::int64_t> offsets;
  std::int64_t total = 0, n = 0, tiles = 0;
};
/// `mask` must have dtype bool (any layout).
mask_scan scan_mask(const ndarray& mask);

/// NumPy's `nonzero(mask)`: one int64 array of coordinates per dimension (a 0-d mask gives one array),
/// C order. Any dtype (non-zero = true). Synchronizes once (the count).
std::vector<ndarray> mask_nonzero(const ndarray& mask);

}  // namespace cusci::detail::ix
