// cusci_plot_signals: draws the demo's ECG outputs (.npy files the demo wrote) as a PNG, without a GPU.
//   cusci_plot_signals RAW.npy FS FILTERED.npy RESAMPLED.npy FS2 OUT.png [SECONDS]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cusci/io.hpp"
#include "signal_plot.hpp"

namespace {
std::vector<double> read(const std::string& path) {
  return cusci::io::read_npy(path).astype(cusci::dtype::float64).to_vector<double>();
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s RAW.npy FS FILTERED.npy RESAMPLED.npy FS2 OUT.png [SECONDS]\n", argv[0]);
    return 2;
  }
  try {
    const double fs = std::atof(argv[2]), fs2 = std::atof(argv[5]);
    const double seconds = argc > 7 ? std::atof(argv[7]) : 10.0;
    const auto raw = read(argv[1]), filtered = read(argv[3]), resampled = read(argv[4]);
    demo::plot_ecg(argv[6], raw, fs, filtered, resampled, fs2, seconds);
    std::printf("wrote %s\n", argv[6]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cusci_plot_signals: %s\n", e.what());
    return 1;
  }
  return 0;
}
