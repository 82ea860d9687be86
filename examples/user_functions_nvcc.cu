// cusci example: filters with user functions as device functors, in a program compiled with nvcc
// (cusci/ndimage/nvcc/generic_filters.cuh; nothing is compiled at run time). The same local range as
// user_functions.cpp, as a __device__ lambda (nvcc --extended-lambda), a threshold captured by value
// (SciPy's extra_arguments), and generic_filter1d along the rows with a functor struct.
// Usage: cusci_user_functions_nvcc [image.npy] [output folder]

#include <cstdio>
#include <filesystem>
#include <string>

#include "cusci/core.hpp"
#include "cusci/ndimage/nvcc/generic_filters.cuh"

namespace nd = cusci::ndimage;

/// Each output: the difference between the last and the first value of its window of the line.
struct line_gradient {
  __device__ void operator()(const double* in, std::ptrdiff_t in_len, double* out, std::ptrdiff_t out_len) const {
    const std::ptrdiff_t fs = in_len - out_len + 1;
    for (std::ptrdiff_t i = 0; i < out_len; ++i) out[i] = in[i + fs - 1] - in[i];
  }
};

int main(int argc, char** argv) {
  const std::string image = argc > 1 ? argv[1] : std::string(CUSCI_EXAMPLE_DATA) + "/camera.npy";
  const std::string out = argc > 2 ? argv[2] : "user-functions-nvcc-out";
  if (!cusci::is_available()) {
    std::fprintf(stderr, "cusci_user_functions_nvcc: no CUDA GPU is visible.\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(out);
    const cusci::ndarray img = cusci::load(image);

    const cusci::ndarray edges = nd::generic_filter(
        img,
        [] __device__(const double* w, std::ptrdiff_t n) {
          double lo = w[0], hi = w[0];
          for (std::ptrdiff_t k = 1; k < n; ++k) {
            lo = fmin(lo, w[k]);
            hi = fmax(hi, w[k]);
          }
          return hi - lo;
        },
        5);
    cusci::save(out + "/camera_local_range5.npy", edges);

    const double threshold = 128.0;
    const cusci::ndarray frac = nd::generic_filter(
        img,
        [threshold] __device__(const double* w, std::ptrdiff_t n) {
          double c = 0.0;
          for (std::ptrdiff_t k = 0; k < n; ++k) c += w[k] > threshold ? 1.0 : 0.0;
          return c / n;
        },
        7, {.output = cusci::dtype::float32, .mode = nd::mode::nearest});
    cusci::save(out + "/camera_bright_fraction7.npy", frac);

    const cusci::ndarray grad =
        nd::generic_filter1d(img, line_gradient{}, 3, 1, {.output = cusci::dtype::float32, .mode = nd::mode::nearest});
    cusci::save(out + "/camera_row_gradient.npy", grad);

    std::printf("local range 5x5: max %d; bright fraction 7x7: mean %.4f; row gradient: max %.1f\n",
                cusci::max(edges).item<int>(), cusci::mean(frac).item<double>(), cusci::max(grad).item<double>());
    std::printf("results in %s/\n", out.c_str());
  } catch (const cusci::error& e) {
    std::fprintf(stderr, "cusci_user_functions_nvcc: %s\n", e.what());
    return 1;
  }
  return 0;
}
