#pragma once
// (internal) The windows of scipy.signal.windows for the other families: firwin, resample_poly and
// resample draw their window through get_window_vec, which checks the window the way get_window does
// and names the caller.

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/windows.hpp"

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
/// `general_cosine_ok`: whether general_cosine is accepted. SciPy's get_window refuses it when given an
/// array namespace (`xp`), which firwin, firwin2 and resample always pass ("'general_cosine' does not
/// accept the parameters xp and device not being None!"); get_window itself and the spectral functions
/// (which call get_window without xp) pass true.
/// @throws cusci::value_error / cusci::type_error naming `fn`, as cusci::signal::get_window.
std::vector<double> get_window_vec(const window_spec& window, std::int64_t Nx, bool fftbins, const char* fn,
                                   bool general_cosine_ok = false);

}  // namespace cusci::signal::detail
