#pragma once
/// @file windows.hpp
/// Window functions on the host (scipy.signal.windows and scipy.signal.get_window), in double
/// precision: synchronous host code returning float64 `host_array`s. `window_spec` is the window
/// argument of `get_window` and of the FIR design functions (`firwin`, ...).

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::signal {

/// A window for `firwin`, as SciPy's `window` argument: a name ("hamming", "hann_periodic", ...)
/// with optional parameters (`("kaiser", 8.6)` is `{"kaiser", {8.6}}`), or a bare number, which means
/// a Kaiser window with that beta (SciPy's `get_window(float)`).
///
/// Supported names (with SciPy's aliases): boxcar (box, ones, rect, rectangular), triang (triangle,
/// tri), bartlett (bart, brt), hann (han), hamming (hamm, ham), blackman (black, blk), blackmanharris
/// (blackharr, bkh), nuttall (nutl, nut), flattop (flat, flt), cosine (halfcosine), kaiser (ksr;
/// needs beta), general_hamming ('general hamming'; needs alpha), general_cosine ('general cosine';
/// the coefficients), tukey (tuk; alpha, default 0.5). A suffix `_periodic` / `_symmetric` selects
/// the DFT-even / symmetric form as in SciPy.
struct window_spec {
  std::string name = "hamming";
  std::vector<double> args{};
  window_spec() = default;
  window_spec(const char* n) : name(n) {}
  window_spec(std::string n) : name(std::move(n)) {}
  window_spec(std::string n, std::vector<double> a) : name(std::move(n)), args(std::move(a)) {}
  /// A Kaiser window with shape parameter `beta`.
  window_spec(double beta) : name("kaiser"), args{beta} {}
};

/// A named window of length M (SciPy's `get_window(window, M, fftbins=!sym)`), float64 [M].
/// @throws cusci::value_error for M <= 0 or an unknown / unsupported window.
/// SciPy: `scipy.signal.get_window` (the windows listed at `window_spec`).
host_array get_window(const window_spec& window, std::int64_t M, bool fftbins = true);

}  // namespace cusci::signal
