#pragma once
// The user functions of the generic filter tests as device functors (the nvcc form): the same
// arithmetic as the CUDA C++ sources of generic_sources.hpp, in the same order.

#include <cuda/std/complex>
#include <cuda_fp16.h>

#include <cstddef>

namespace generic_test {

struct range_fn {
  __device__ double operator()(const double* b, std::ptrdiff_t n) const {
    if (n == 0) return 0.0;
    double lo = b[0], hi = b[0];
    for (std::ptrdiff_t k = 0; k < n; ++k) {
      if (b[k] != b[k]) return b[k];
      lo = b[k] < lo ? b[k] : lo;
      hi = b[k] > hi ? b[k] : hi;
    }
    return hi - lo;
  }
};

struct wsum_fn {
  __device__ double operator()(const double* b, std::ptrdiff_t n) const {
    double t = 0.0;
    for (std::ptrdiff_t k = 0; k < n; ++k) t = __dadd_rn(t, __dmul_rn(static_cast<double>(k + 1), b[k]));
    return t;
  }
};

struct median_fn {
  __device__ double operator()(double* b, std::ptrdiff_t n) const {
    if (n == 0) return 0.0;
    for (std::ptrdiff_t i = 1; i < n; ++i) {
      const double v = b[i];
      std::ptrdiff_t j = i;
      for (; j > 0 && b[j - 1] > v; --j) b[j] = b[j - 1];
      b[j] = v;
    }
    return n % 2 ? b[n / 2] : (b[n / 2 - 1] + b[n / 2]) / 2.0;
  }
};

/// The threshold is captured (SciPy's extra_arguments).
struct count_fn {
  double threshold;
  __device__ double operator()(const double* b, std::ptrdiff_t n) const {
    double c = 0.0;
    for (std::ptrdiff_t k = 0; k < n; ++k) c += b[k] > threshold ? 1.0 : 0.0;
    return c;
  }
};

struct mean1d_fn {
  __device__ void operator()(const double* in, std::ptrdiff_t in_len, double* out, std::ptrdiff_t out_len) const {
    const std::ptrdiff_t fs = in_len - out_len + 1;
    for (std::ptrdiff_t i = 0; i < out_len; ++i) {
      double t = 0.0;
      for (std::ptrdiff_t k = 0; k < fs; ++k) t += in[i + k];
      out[i] = t / static_cast<double>(fs);
    }
  }
};

struct range1d_fn {
  __device__ void operator()(const double* in, std::ptrdiff_t in_len, double* out, std::ptrdiff_t out_len) const {
    const std::ptrdiff_t fs = in_len - out_len + 1;
    for (std::ptrdiff_t i = 0; i < out_len; ++i) {
      double lo = in[i], hi = in[i];
      for (std::ptrdiff_t k = 1; k < fs; ++k) {
        lo = in[i + k] < lo ? in[i + k] : lo;
        hi = in[i + k] > hi ? in[i + k] : hi;
      }
      out[i] = hi - lo;
    }
  }
};

struct diff1d_fn {
  __device__ void operator()(const double* in, std::ptrdiff_t in_len, double* out, std::ptrdiff_t out_len) const {
    const std::ptrdiff_t fs = in_len - out_len + 1;
    for (std::ptrdiff_t i = 0; i < out_len; ++i) out[i] = in[i + fs - 1] - in[i];
  }
};

struct vmax_fn {
  template <class T>
  __device__ T operator()(const T* w, std::ptrdiff_t n) const {
    T m = w[0];
    for (std::ptrdiff_t k = 1; k < n; ++k)
      if (w[k] > m) m = w[k];
    return m;
  }
};

struct vsum_fn {
  template <class T>
  __device__ T operator()(const T* w, std::ptrdiff_t n) const {
    T t = T(0);
    for (std::ptrdiff_t k = 0; k < n; ++k) t = static_cast<T>(t + w[k]);
    return t;
  }
};

struct vmean_fn {
  template <class T>
  __device__ double operator()(const T* w, std::ptrdiff_t n) const {
    double t = 0.0;
    for (std::ptrdiff_t k = 0; k < n; ++k) t += static_cast<double>(w[k]);
    return t / static_cast<double>(n);
  }
};

}  // namespace generic_test
