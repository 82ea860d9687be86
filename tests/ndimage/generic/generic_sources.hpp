#pragma once
// The user functions of the generic filter tests as CUDA C++ source (the run-time-compiled form).
// Each computes exactly what its Python twin in tests/golden/gen_ndimage_generic.py computes (same
// order of operations; wsum uses __dadd_rn / __dmul_rn so that no multiply-add is contracted); the
// functors of generic_functors.cuh are the same functions for the nvcc form.

#include <map>
#include <string>

#include "cusci/ndimage/device_function.hpp"

namespace generic_test {

inline const std::map<std::string, cusci::ndimage::device_function>& sources() {
  namespace nd = cusci::ndimage;
  static const std::map<std::string, nd::device_function> table = {
      {"range", nd::device_function(R"(
__device__ double range_fn(const double* b, std::ptrdiff_t n) {
  if (n == 0) return 0.0;
  double lo = b[0], hi = b[0];
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    if (b[k] != b[k]) return b[k];  // NaN propagates, as np.max / np.min
    lo = b[k] < lo ? b[k] : lo;
    hi = b[k] > hi ? b[k] : hi;
  }
  return hi - lo;
})",
                                    "range_fn")},
      {"wsum", nd::device_function(R"(
__device__ double wsum(const double* b, ptrdiff_t n) {
  double t = 0.0;
  for (ptrdiff_t k = 0; k < n; ++k) t = __dadd_rn(t, __dmul_rn(static_cast<double>(k + 1), b[k]));
  return t;
})",
                                   "wsum")},
      {"median", nd::device_function(R"(
__device__ double median(double* b, ptrdiff_t n) {  // sorts its own copy of the window
  if (n == 0) return 0.0;
  for (ptrdiff_t i = 1; i < n; ++i) {
    const double v = b[i];
    ptrdiff_t j = i;
    for (; j > 0 && b[j - 1] > v; --j) b[j] = b[j - 1];
    b[j] = v;
  }
  return n % 2 ? b[n / 2] : (b[n / 2 - 1] + b[n / 2]) / 2.0;
})",
                                     "median")},
      {"count", nd::device_function(R"(
__device__ double count_above(const double* b, ptrdiff_t n) {
  double c = 0.0;
  for (ptrdiff_t k = 0; k < n; ++k) c += b[k] > THRESHOLD ? 1.0 : 0.0;
  return c;
})",
                                    "count_above", {"-DTHRESHOLD=0.5"})},
      {"mean1d", nd::device_function(R"(
__device__ void mean1d(const double* in, ptrdiff_t in_len, double* out, ptrdiff_t out_len) {
  const ptrdiff_t fs = in_len - out_len + 1;
  for (ptrdiff_t i = 0; i < out_len; ++i) {
    double t = 0.0;
    for (ptrdiff_t k = 0; k < fs; ++k) t += in[i + k];
    out[i] = t / static_cast<double>(fs);
  }
})",
                                     "mean1d")},
      {"range1d", nd::device_function(R"(
__device__ void range1d(const double* in, ptrdiff_t in_len, double* out, ptrdiff_t out_len) {
  const ptrdiff_t fs = in_len - out_len + 1;
  for (ptrdiff_t i = 0; i < out_len; ++i) {
    double lo = in[i], hi = in[i];
    for (ptrdiff_t k = 1; k < fs; ++k) {
      lo = in[i + k] < lo ? in[i + k] : lo;
      hi = in[i + k] > hi ? in[i + k] : hi;
    }
    out[i] = hi - lo;
  }
})",
                                      "range1d")},
      {"diff1d", nd::device_function(R"(
__device__ void diff1d(const double* in, ptrdiff_t in_len, double* out, ptrdiff_t out_len) {
  const ptrdiff_t fs = in_len - out_len + 1;
  for (ptrdiff_t i = 0; i < out_len; ++i) out[i] = in[i + fs - 1] - in[i];
})",
                                     "diff1d")},
      {"vmax", nd::device_function(R"(
__device__ cusci_input_t vmax(const cusci_input_t* w, ptrdiff_t n) {
  cusci_input_t m = w[0];
  for (ptrdiff_t k = 1; k < n; ++k)
    if (w[k] > m) m = w[k];
  return m;
})",
                                   "vmax")},
      {"vsum", nd::device_function(R"(
__device__ cusci_input_t vsum(const cusci_input_t* w, ptrdiff_t n) {
  cusci_input_t t = cusci_input_t(0);
  for (ptrdiff_t k = 0; k < n; ++k) t = static_cast<cusci_input_t>(t + w[k]);
  return t;
})",
                                   "vsum")},
      {"vmean", nd::device_function(R"(
__device__ double vmean(const cusci_input_t* w, ptrdiff_t n) {
  double t = 0.0;
  for (ptrdiff_t k = 0; k < n; ++k) t += static_cast<double>(w[k]);
  return t / static_cast<double>(n);
})",
                                    "vmean")},
  };
  return table;
}

inline const cusci::ndimage::device_function& source(const std::string& name) { return sources().at(name); }

}  // namespace generic_test
