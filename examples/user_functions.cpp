// cusci example: filters with user functions in a program compiled with plain g++ (no nvcc).
// The functions are CUDA C++ source strings (cusci::ndimage::device_function) that cusci compiles at
// run time with NVRTC the first time they are used (and caches in memory and on disk):
//   1. generic_filter: the local range (maximum - minimum) over a 5 x 5 window of the camera image,
//      an edge-strength map; SciPy: ndimage.generic_filter(img, lambda b: b.max() - b.min(), size=5).
//   2. generic_filter with a disk footprint and a threshold passed as a -D option (SciPy's
//      extra_arguments): the fraction of bright pixels around each pixel.
//   3. vectorized_filter on the uint8 image itself: the window's maximum in uint8.
// Usage: cusci_user_functions [image.npy] [output folder]

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "cusci/core.hpp"
#include "cusci/ndimage/generic.hpp"

namespace nd = cusci::ndimage;

int main(int argc, char** argv) {
  const std::string image = argc > 1 ? argv[1] : std::string(CUSCI_EXAMPLE_DATA) + "/camera.npy";
  const std::string out = argc > 2 ? argv[2] : "user-functions-out";
  if (!cusci::is_available()) {
    std::fprintf(stderr, "cusci_user_functions: no CUDA GPU is visible.\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(out);
    const cusci::ndarray img = cusci::load(image);  // 512 x 512 uint8

    const nd::device_function local_range(R"(
      __device__ double local_range(const double* window, ptrdiff_t n) {
        double lo = window[0], hi = window[0];
        for (ptrdiff_t k = 1; k < n; ++k) {
          lo = fmin(lo, window[k]);
          hi = fmax(hi, window[k]);
        }
        return hi - lo;
      })",
                                          "local_range");
    auto t0 = std::chrono::steady_clock::now();
    const cusci::ndarray edges = nd::generic_filter(img, local_range, 5);  // uint8, as SciPy
    cusci::synchronize();
    auto t1 = std::chrono::steady_clock::now();
    const cusci::ndarray edges2 = nd::generic_filter(img, local_range, 5);  // compiled already
    cusci::synchronize();
    auto t2 = std::chrono::steady_clock::now();
    cusci::save(out + "/camera_local_range5.npy", edges);

    // A disk of radius 3 as footprint; THRESHOLD given as an NVRTC option.
    cusci::host_array disk(cusci::dtype::bool_, {7, 7});
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 7; ++j) disk.data_as<bool>()[i * 7 + j] = (i - 3) * (i - 3) + (j - 3) * (j - 3) <= 9;
    const nd::device_function bright(R"(
      __device__ double bright_fraction(const double* window, ptrdiff_t n) {
        double c = 0.0;
        for (ptrdiff_t k = 0; k < n; ++k) c += window[k] > THRESHOLD ? 1.0 : 0.0;
        return c / n;
      })",
                                     "bright_fraction", {"-DTHRESHOLD=128.0"});
    const cusci::ndarray frac = nd::generic_filter(img, bright, {}, {.footprint = disk, .output = cusci::dtype::float32,
                                                                     .mode = nd::mode::nearest});
    cusci::save(out + "/camera_bright_fraction.npy", frac);

    // vectorized_filter: the window arrives in the input's own type (unsigned char here).
    const nd::device_function wmax(R"(
      __device__ cusci_input_t wmax(const cusci_input_t* w, ptrdiff_t n) {
        cusci_input_t m = w[0];
        for (ptrdiff_t k = 1; k < n; ++k) m = w[k] > m ? w[k] : m;
        return m;
      })",
                                   "wmax");
    const cusci::ndarray dil = nd::vectorized_filter(img, wmax, {.size = 3, .mode = "valid"});
    cusci::save(out + "/camera_max3_valid.npy", dil);

    const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("local range 5x5: first call %.1f ms (includes compilation), second %.3f ms; max %d\n", ms(t0, t1),
                ms(t1, t2), cusci::max(edges2).item<int>());
    std::printf("bright fraction (disk r=3): mean %.4f\n", cusci::mean(frac).item<double>());
    std::printf("3x3 maximum, mode 'valid': shape %lld x %lld\n", static_cast<long long>(dil.shape()[0]),
                static_cast<long long>(dil.shape()[1]));
    std::printf("results in %s/\n", out.c_str());
  } catch (const cusci::rtc::compile_error& e) {
    std::fprintf(stderr, "cusci_user_functions: %s\n%s\n", e.what(), e.log().c_str());
    return 1;
  } catch (const cusci::error& e) {
    std::fprintf(stderr, "cusci_user_functions: %s\n", e.what());
    return 1;
  }
  return 0;
}
