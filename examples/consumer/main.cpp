// Uses cusci through its installed headers and libraries only. Without a GPU it reports that and exits 0.
#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/linalg/linalg.hpp"
#include "cusci/ndimage/ndimage.hpp"
#include "cusci/signal/signal.hpp"
#include "cusci/sparse/sparse.hpp"

int main() {
  // Host-only functionality works everywhere.
  cusci::host_array taps = cusci::signal::firwin(31, 0.25);
  std::printf("firwin(31, 0.25): %lld taps, dtype %s\n", static_cast<long long>(taps.size()),
              std::string(cusci::dtype_name(taps.dtype())).c_str());
  if (!cusci::is_available()) {
    std::printf("no CUDA device visible: skipping the GPU part\n");
    return 0;
  }
  cusci::ndarray img = cusci::arange(0, 64, 1, cusci::dtype::float32).reshape({8, 8});
  cusci::ndarray smooth = cusci::ndimage::gaussian_filter(img, 1.0);
  std::printf("gaussian_filter: sum before %.3f, after %.3f\n", cusci::sum(img).item<double>(),
              cusci::sum(smooth).item<double>());
  return 0;
}
