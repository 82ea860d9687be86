#pragma once
// (internal) The window functions of scipy.signal.windows for the design family: firwin draws its
// window through get_window_vec, which checks the window the way get_window does and names the caller.

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/signal/filter_design.hpp"

namespace cusci::signal::detail {

/// `v` with 17 significant digits, as the parameters of a window or a filter are shown in messages.
inline std::string fmt(double v) {
  std::ostringstream o;
  o.precision(17);
  o << v;
  return o.str();
}

/// The window `window` of length `Nx` as float64 values: symmetric unless `fftbins` (DFT-even), a
/// `_symmetric` / `_periodic` suffix of the name overriding it, as SciPy's get_window.
/// @throws cusci::value_error naming `fn` for Nx <= 0, an unknown or unsupported name, or parameters
/// the window does not take (SciPy's texts).
std::vector<double> get_window_vec(const window_spec& window, std::int64_t Nx, bool fftbins, const char* fn);

}  // namespace cusci::signal::detail
