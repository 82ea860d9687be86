#pragma once
// Boundary modes of the ndimage engines, in one place: SciPy's mode strings map to the extension
// codes here (host), and boundary.cuh maps an index outside [0, L) back into the line (device).
// Host C++ only.

#include "cusci/ndimage/mode.hpp"

namespace cusci::ndimage::detail {

/// SciPy's extension codes for filters (_ni_support._extend_mode_to_code(mode, is_filter=True)).
/// The footprint filters take SciPy's non-filter codes (grid-wrap 5, grid-constant 6), whose
/// filter offsets SciPy builds exactly as for wrap and constant, so one code list serves both.
enum class ext : int { nearest = 0, wrap = 1, reflect = 2, mirror = 3, constant = 4 };

inline ext filter_ext(mode m) noexcept {
  switch (m) {
    case mode::nearest: return ext::nearest;
    case mode::wrap:
    case mode::grid_wrap: return ext::wrap;
    case mode::mirror: return ext::mirror;
    case mode::constant:
    case mode::grid_constant: return ext::constant;
    case mode::reflect:
    case mode::grid_mirror: break;
  }
  return ext::reflect;
}

}  // namespace cusci::ndimage::detail
