#pragma once
/// @file gaussian_kernel.hpp
/// Host-side construction of the 1-D Gaussian (derivative) kernels used by gaussian_filter1d and
/// gaussian_filter. Exposed for tests and for callers that want the weights themselves.

#include <cstdint>
#include <vector>

namespace cusci::ndimage::detail {

/// The 1-D Gaussian kernel of standard deviation `sigma`, derivative order `order`, on the integer
/// grid x = -radius..radius, computed in double on the host exactly as SciPy's private
/// `scipy.ndimage._filters._gaussian_kernel1d` (normalized so the order-0 kernel sums to 1, with
/// NumPy's pairwise summation; derivative kernels as q(x) * phi(x) with the polynomial q obtained by
/// applying d/dx + p'(x) `order` times). Note this is the convolution kernel: gaussian_filter1d
/// correlates with it reversed.
/// @param sigma  standard deviation in samples, > 0
/// @param order  derivative order, >= 0
/// @param radius half width, >= 0; the result has 2 * radius + 1 entries
/// @return [2 * radius + 1] weights
/// @throws cusci::value_error for sigma <= 0 (or sigma * sigma == 0), order < 0 or radius < 0.
std::vector<double> gaussian_kernel1d(double sigma, int order, std::int64_t radius);

/// NumPy's `np.add.reduce` of a contiguous float64 vector (pairwise summation with blocks of 8
/// accumulators), bit for bit.
double numpy_sum(const double* a, std::int64_t n) noexcept;

}  // namespace cusci::ndimage::detail
