// PLplot drawing of the demo's signals (see signal_plot.hpp).
#include "signal_plot.hpp"

#include <plplot/plstream.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace demo {
namespace {

// Colour map 0 entries used for the traces, after 0 (background) and 1 (axes).
constexpr int trace_colors[][3] = {{150, 150, 150}, {200, 30, 30}, {30, 80, 200}, {20, 140, 60}};

void panel(plstream& pls, const std::vector<trace>& traces, const std::string& title, double seconds) {
  double lo = 0, hi = 0;
  bool first = true;
  for (const trace& t : traces) {
    const std::size_t n = std::min(t.samples.size(), static_cast<std::size_t>(seconds * t.fs));
    for (std::size_t i = 0; i < n; ++i) {
      if (first || t.samples[i] < lo) lo = t.samples[i];
      if (first || t.samples[i] > hi) hi = t.samples[i];
      first = false;
    }
  }
  const double pad = 0.05 * std::max(hi - lo, 1e-12);
  pls.adv(0);
  pls.vpor(0.08, 0.97, 0.18, 0.88);
  pls.wind(0.0, seconds, lo - pad, hi + pad);
  pls.col0(1);
  pls.box("bcnst", 0.0, 0, "bcnstv", 0.0, 0);
  pls.lab("time (s)", "mV", title.c_str());
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const trace& t = traces[k];
    const std::size_t n = std::min(t.samples.size(), static_cast<std::size_t>(seconds * t.fs));
    std::vector<PLFLT> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<double>(i) / t.fs;
      y[i] = t.samples[i];
    }
    pls.col0(static_cast<PLINT>(2 + std::clamp(t.color, 0, 3)));
    pls.width(t.color == 0 ? 1.0 : 1.6);
    pls.line(static_cast<PLINT>(n), x.data(), y.data());
    pls.mtex("t", -1.5 - 1.4 * static_cast<double>(k), 0.99, 1.0, t.label.c_str());
  }
  pls.width(1.0);
}

}  // namespace

void plot_traces(const std::string& png, const std::vector<trace>& top, const std::string& top_title,
                 const std::vector<trace>& bottom, const std::string& bottom_title, double seconds) {
  plstream pls;
  pls.sdev("pngcairo");
  pls.sfnam(png.c_str());
  pls.spage(0, 0, 1600, 900, 0, 0);
  pls.scolbg(255, 255, 255);
  pls.scol0(1, 0, 0, 0);
  for (int k = 0; k < 4; ++k) pls.scol0(2 + k, trace_colors[k][0], trace_colors[k][1], trace_colors[k][2]);
  pls.ssub(1, 2);
  pls.init();
  panel(pls, top, top_title, seconds);
  panel(pls, bottom, bottom_title, seconds);
}

void plot_ecg(const std::string& png, const std::vector<double>& raw, double fs, const std::vector<double>& filtered,
              const std::vector<double>& resampled, double fs2, double seconds) {
  char top[128], bottom[128], r[64], f2[64];
  std::snprintf(top, sizeof top, "ECG at %g Hz: raw and zero-phase band-passed (sosfiltfilt)", fs);
  std::snprintf(bottom, sizeof bottom, "band-passed at %g Hz and resampled to %g Hz (resample_poly)", fs, fs2);
  std::snprintf(r, sizeof r, "resampled, %g Hz", fs2);
  std::snprintf(f2, sizeof f2, "band-passed, %g Hz", fs);
  plot_traces(png, {{raw, fs, "raw", 0}, {filtered, fs, "band-passed 0.5-40 Hz", 1}}, top,
              {{filtered, fs, f2, 1}, {resampled, fs2, r, 2}}, bottom, seconds);
}

void plot_psd(const std::string& png, const std::vector<double>& f, const std::vector<double>& psd, double fmax,
              const std::string& title, const std::string& unit) {
  std::vector<PLFLT> x, y;
  for (std::size_t i = 1; i < f.size() && i < psd.size() && f[i] <= fmax; ++i) {
    x.push_back(f[i]);
    y.push_back(std::log10(std::max(psd[i], 1e-300)));
  }
  if (x.empty()) throw std::runtime_error("plot_psd: no frequencies to draw");
  const auto [lo, hi] = std::minmax_element(y.begin(), y.end());
  plstream pls;
  pls.sdev("pngcairo");
  pls.sfnam(png.c_str());
  pls.spage(0, 0, 1600, 900, 0, 0);
  pls.scolbg(255, 255, 255);
  pls.scol0(1, 0, 0, 0);
  pls.scol0(2, trace_colors[2][0], trace_colors[2][1], trace_colors[2][2]);
  pls.init();
  pls.adv(0);
  pls.vpor(0.08, 0.97, 0.10, 0.92);
  pls.wind(x.front(), x.back(), std::floor(*lo), std::ceil(*hi));
  pls.col0(1);
  pls.box("bcnst", 0.0, 0, "bcnstvl", 1.0, 0);
  pls.lab("frequency (Hz)", unit.c_str(), title.c_str());
  pls.col0(2);
  pls.width(1.6);
  pls.line(static_cast<PLINT>(x.size()), x.data(), y.data());
}

}  // namespace demo
