#pragma once
// Plots of the demo's signals, drawn with PLplot (Debian: libplplot-dev, plplot-driver-cairo) into a PNG.
// Host only: it reads nothing from the GPU.

#include <string>
#include <vector>

namespace demo {

/// One trace: samples at a rate (Hz), drawn from time 0, with a legend label.
struct trace {
  std::vector<double> samples;
  double fs = 1.0;
  std::string label;
  int color = 0;  ///< 0 grey, 1 red, 2 blue, 3 green
};

/// Draws two panels into `png` (1600 x 900 px): the traces of `top` and of `bottom`, each over the first
/// `seconds` of signal, with the titles given. Throws std::runtime_error when PLplot cannot open the
/// PNG device.
void plot_traces(const std::string& png, const std::vector<trace>& top, const std::string& top_title,
                 const std::vector<trace>& bottom, const std::string& bottom_title, double seconds);

/// The demo's ECG figure: raw against zero-phase band-passed (top), and the band-passed signal at its
/// rate against its resampled version (bottom), over the first `seconds`.
void plot_ecg(const std::string& png, const std::vector<double>& raw, double fs, const std::vector<double>& filtered,
              const std::vector<double>& resampled, double fs2, double seconds = 10.0);

/// A power spectral density on a logarithmic vertical axis (1600 x 900 px PNG): `psd` against `f` (Hz),
/// drawn from f[1] (the DC bin is left out) up to `fmax` Hz, with the title and the unit of the values.
/// Throws std::runtime_error when PLplot cannot open the PNG device.
void plot_psd(const std::string& png, const std::vector<double>& f, const std::vector<double>& psd, double fmax,
              const std::string& title, const std::string& unit);

}  // namespace demo
