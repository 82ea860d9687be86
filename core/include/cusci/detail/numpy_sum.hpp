#pragma once
/// @file numpy_sum.hpp
/// (for the modules; host) NumPy's summation order for small host vectors, so that host code that
/// mirrors a NumPy expression such as `np.sum(a)` rounds exactly as NumPy does. NumPy sums a
/// contiguous float64 array pairwise: fewer than 8 values in order; up to 128 values in 8 interleaved
/// partial sums combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), the rest added in order;
/// longer arrays split in two halves (the first a multiple of 8) summed recursively. A complex array is
/// summed as its interleaved (re, im) doubles, so the 8 partial sums hold 4 complex values.
/// (numpy/_core/src/umath/loops_utils.h.src, pairwise_sum.)

#include <complex>
#include <cstddef>
#include <vector>

namespace cusci::detail {

/// NumPy's pairwise sum of n doubles at p (stride 1).
inline double numpy_pairwise_sum(const double* p, std::size_t n) {
  if (n < 8) {
    double r = -0.0;
    for (std::size_t i = 0; i < n; ++i) r += p[i];
    return r;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = p[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += p[i + j];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += p[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return numpy_pairwise_sum(p, n2) + numpy_pairwise_sum(p + n2, n - n2);
}

/// `np.sum(v)` of a float64 vector.
inline double numpy_sum(const std::vector<double>& v) { return numpy_pairwise_sum(v.data(), v.size()); }

namespace numpy_sum_detail {
// n doubles of interleaved (re, im) pairs; returns the complex sum.
inline std::complex<double> pairwise(const double* p, std::size_t n) {
  if (n < 8) {
    double re = -0.0, im = -0.0;
    for (std::size_t i = 0; i < n; i += 2) {
      re += p[i];
      im += p[i + 1];
    }
    return {re, im};
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = p[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += p[i + j];
    double re = (r[0] + r[2]) + (r[4] + r[6]), im = (r[1] + r[3]) + (r[5] + r[7]);
    for (; i < n; i += 2) {
      re += p[i];
      im += p[i + 1];
    }
    return {re, im};
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise(p, n2) + pairwise(p + n2, n - n2);
}
}  // namespace numpy_sum_detail

/// `np.sum(v)` of a complex128 vector.
inline std::complex<double> numpy_sum(const std::vector<std::complex<double>>& v) {
  return numpy_sum_detail::pairwise(reinterpret_cast<const double*>(v.data()), 2 * v.size());
}

}  // namespace cusci::detail
