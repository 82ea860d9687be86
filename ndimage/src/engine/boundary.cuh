#pragma once
// (internal; nvcc only) The boundary index map of every ndimage engine: SciPy's NI_ExtendLine
// expressed as a map from a position outside a line of length L to the position it copies.

#include <cstdint>

#include "engine/boundary.hpp"

namespace cusci::ndimage::detail {

/// The position in [0, L) that position `i` (outside [0, L)) of the extended line copies, or -1 for
/// the constant mode (the value is cval). Holds for any L >= 1, including lines shorter than the
/// filter. Inside [0, L) callers do not call it (one compare on the interior path).
__device__ __forceinline__ std::int64_t map_index(std::int64_t i, std::int64_t L, int mode) {
  switch (mode) {
    case static_cast<int>(ext::nearest): return i < 0 ? 0 : L - 1;
    case static_cast<int>(ext::wrap): {
      std::int64_t r = i % L;
      return r < 0 ? r + L : r;
    }
    case static_cast<int>(ext::reflect): {
      const std::int64_t per = 2 * L;
      std::int64_t r = i % per;
      if (r < 0) r += per;
      return r < L ? r : per - 1 - r;
    }
    case static_cast<int>(ext::mirror): {
      if (L == 1) return 0;
      const std::int64_t per = 2 * L - 2;
      std::int64_t r = i % per;
      if (r < 0) r += per;
      return r < L ? r : per - r;
    }
    default: return -1;  // constant
  }
}

}  // namespace cusci::ndimage::detail
