#pragma once
// (internal) Host helpers of the ShortTimeFFT family shared by short_time_fft.cpp and sft_transform.cpp.

#include <complex>
#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/short_time_fft.hpp"

namespace cusci::signal::detail {

// Python's floor division and modulo for b > 0.
inline std::int64_t fdiv(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline std::int64_t fmod_py(std::int64_t a, std::int64_t b) { return a - fdiv(a, b) * b; }

/// SciPy's name of an fft_mode.
inline const char* mode_name(sft_fft_mode m) {
  switch (m) {
    case sft_fft_mode::twosided: return "twosided";
    case sft_fft_mode::centered: return "centered";
    case sft_fft_mode::onesided: return "onesided";
    case sft_fft_mode::onesided2X: return "onesided2X";
  }
  return "?";
}

/// The elements of a 1-d host array of any numeric dtype as complex<double>.
std::vector<std::complex<double>> sft_values(const host_array& w);

/// SciPy's canonical dual window win / DD, DD[i] = sum over the shifts k = 0, +-hop, +-2 hop, ... of
/// |win[i + k]|^2 (same order of additions as SciPy). Returns win's dtype (float64 / complex128).
/// @throws cusci::value_error for hop > len(win), an integer window, or min(DD) < 1e-15 max(DD)
///         ("Short-time Fourier Transform not invertible!"); messages start with `fn`.
host_array sft_dual_canonical(const host_array& win, std::int64_t hop, bool win_integer, const char* fn);

}  // namespace cusci::signal::detail
