#include "cusci/ndimage/gaussian_kernel.hpp"

#include <cmath>
#include <string>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"

namespace cusci::ndimage::detail {

// NumPy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src): below 8 elements a plain
// loop, up to 128 elements eight interleaved accumulators combined as a tree, above that a split at
// a multiple of 8 near the middle.
double numpy_sum(const double* a, std::int64_t n) noexcept {
  if (n < 8) {
    double res = 0.0;
    for (std::int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return numpy_sum(a, n2) + numpy_sum(a + n2, n - n2);
}

std::vector<double> gaussian_kernel1d(double sigma, int order, std::int64_t radius) {
  const char* fn = "cusci::ndimage::detail::gaussian_kernel1d";
  if (order < 0) throw value_error(std::string(fn) + ": order must be >= 0, got " + std::to_string(order));
  if (order > 0) {  // SciPy's (order + 1, order + 1) int64 matrix: MemoryError / "array is too big" at once
    const std::int64_t o1 = static_cast<std::int64_t>(order) + 1;
    (void)cusci::detail::checked_host_count(cusci::detail::saturating_mul(o1, o1), sizeof(std::int64_t), fn, "order");
  }
  if (!(radius >= 0)) throw value_error(std::string(fn) + ": radius must be >= 0, got " + std::to_string(radius));
  // The filters cap the radius at 2^28 too; beyond it 2 * radius + 1 taps would not fit in memory (and
  // radius * radius overflows past 3e9).
  constexpr std::int64_t max_radius = std::int64_t{1} << 28;
  if (radius > max_radius)
    throw value_error(std::string(fn) + ": radius must be at most " + std::to_string(max_radius) + ", got " +
                      std::to_string(radius));
  const double sigma2 = sigma * sigma;
  if (!(sigma > 0) || sigma2 == 0 || !std::isfinite(sigma2))
    throw value_error(std::string(fn) + ": sigma must be > 0 and finite (with sigma**2 > 0), got " +
                      std::to_string(sigma));
  const std::int64_t n = 2 * radius + 1;
  std::vector<double> phi(static_cast<std::size_t>(n));
  const double c = -0.5 / sigma2;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t x = i - radius;
    phi[i] = std::exp(c * static_cast<double>(x * x));
  }
  const double s = numpy_sum(phi.data(), n);
  for (auto& v : phi) v = v / s;
  if (order == 0) return phi;

  // q(x) = sum_k q[k] x^k; one derivative step maps q to q' + q * p' with p'(x) = -x / sigma^2,
  // i.e. new_q[i] = (i + 1) q[i + 1] + (1 / -sigma^2) q[i - 1].
  const double pm = 1.0 / -sigma2;
  std::vector<double> q(order + 1, 0.0), nq(order + 1);
  q[0] = 1.0;
  for (int it = 0; it < order; ++it) {
    for (int i = 0; i <= order; ++i) {
      double v = 0.0;
      if (i > 0) v += pm * q[i - 1];
      if (i < order) v += static_cast<double>(i + 1) * q[i + 1];
      nq[i] = v;
    }
    q.swap(nq);
  }
  std::vector<double> out(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t x = i - radius;
    double v = 0.0, xp = 1.0;  // x**k as NumPy's int64 power, exact for the sizes used here
    for (int k = 0; k <= order; ++k) {
      v += xp * q[k];
      xp *= static_cast<double>(x);
    }
    out[i] = v * phi[i];
  }
  return out;
}

}  // namespace cusci::ndimage::detail
