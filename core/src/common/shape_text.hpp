#pragma once
/// @file shape_text.hpp  (private to core/src)
/// NumPy writes the shapes of some of its error messages without spaces: the broadcast error
/// "(4,1,2) (3,3)" and matmul's / dot's "shapes (2,3) and (4,5) not aligned". The spaced tuple text
/// "(2, 3)" is `cusci::detail::shape_str` (cusci/detail/shape.hpp).

#include <string>

#include "cusci/ndarray.hpp"

namespace cusci::detail {

/// A shape as NumPy's compact tuple text: "()", "(3,)", "(2,3)".
inline std::string compact_shape_str(const shape_t& s) {
  std::string r = "(";
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  if (s.size() == 1) r += ",";
  return r + ")";
}

}  // namespace cusci::detail
