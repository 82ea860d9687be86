#include "cusci/ndimage/mode.hpp"

#include <string>

#include "cusci/error.hpp"

namespace cusci::ndimage {

mode parse_mode(std::string_view name) {
  std::string s(name);
  for (char& c : s)
    if (c == '_') c = '-';
  if (s == "reflect") return mode::reflect;
  if (s == "constant") return mode::constant;
  if (s == "nearest") return mode::nearest;
  if (s == "mirror") return mode::mirror;
  if (s == "wrap") return mode::wrap;
  if (s == "grid-mirror") return mode::grid_mirror;
  if (s == "grid-constant") return mode::grid_constant;
  if (s == "grid-wrap") return mode::grid_wrap;
  throw runtime_error("cusci::ndimage::parse_mode: boundary mode not supported: mode must be one of 'reflect', "
                      "'constant', 'nearest', 'mirror', 'wrap', 'grid-mirror', 'grid-constant', 'grid-wrap', got '" +
                      std::string(name) + "'");
}

std::string_view mode_name(mode m) noexcept {
  switch (m) {
    case mode::reflect: return "reflect";
    case mode::constant: return "constant";
    case mode::nearest: return "nearest";
    case mode::mirror: return "mirror";
    case mode::wrap: return "wrap";
    case mode::grid_mirror: return "grid-mirror";
    case mode::grid_constant: return "grid-constant";
    case mode::grid_wrap: return "grid-wrap";
  }
  return "unknown";
}

}  // namespace cusci::ndimage
