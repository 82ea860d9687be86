#pragma once
/// @file mode.hpp
/// Boundary modes of cusci::ndimage (SciPy's `mode=` strings) and their parser.

#include <string_view>

namespace cusci::ndimage {

/// How an input is extended beyond its edges (SciPy's `mode`). For the filters of this module the
/// `grid_*` spellings behave as their classic counterparts, as in SciPy:
/// grid_mirror = reflect, grid_wrap = wrap, grid_constant = constant.
enum class mode {
  reflect,        ///< `d c b a | a b c d | d c b a` (half-sample symmetric; SciPy's default)
  constant,       ///< `k k k k | a b c d | k k k k` with k = cval
  nearest,        ///< `a a a a | a b c d | d d d d`
  mirror,         ///< `d c b | a b c d | c b a` (whole-sample symmetric)
  wrap,           ///< `a b c d | a b c d | a b c d` (periodic)
  grid_mirror,    ///< SciPy's "grid-mirror": same as reflect
  grid_constant,  ///< SciPy's "grid-constant": same as constant for filters
  grid_wrap,      ///< SciPy's "grid-wrap": same as wrap for filters
};

/// Parses SciPy's mode strings: "reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror",
/// "grid-constant", "grid-wrap" (underscores are accepted in place of the hyphen).
/// Host only; never touches the device.
/// @throws cusci::runtime_error naming the string for anything else (SciPy's RuntimeError
///         "boundary mode not supported").
/// SciPy: `scipy.ndimage._ni_support._extend_mode_to_code`.
mode parse_mode(std::string_view name);

/// SciPy's string for `m` ("reflect", ..., "grid-wrap").
std::string_view mode_name(mode m) noexcept;

}  // namespace cusci::ndimage
