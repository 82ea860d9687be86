// scipy.fft's fast Hankel transform (FFTLog) on cusci's real FFTs: the coefficients u_m and the bias
// power laws are computed on the device (fftlog_kernels.cu, one thread per element, float64, written
// straight into the arrays the transform multiplies with); the m = 0 coefficient with its special cases
// and the singular-transform warning on the host (one point, no device read-back). The host
// implementation of all coefficients (detail::fht_coefficients, complex log-gamma by recurrence +
// Stirling's series) is kept as the reference the device kernel mirrors (tests compare the two).

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/fftlog.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/warnings.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::fft {
namespace detail {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kLn2 = 0.69314718055994530942;
constexpr double kHalfLog2Pi = 0.91893853320467274178;

bool is_pole(double x) { return x <= 0 && std::floor(x) == x; }

// Stirling's series for log Gamma(w), |w| >= 15 (Bernoulli terms B_2k / (2k (2k - 1) w^(2k - 1)), k <= 8).
std::complex<double> stirling(std::complex<double> w) {
  static const double c[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156,
                             -3617.0 / 122400};
  const std::complex<double> w2 = 1.0 / (w * w);
  std::complex<double> s = 0, p = 1.0 / w;
  for (double ck : c) {
    s += ck * p;
    p *= w2;
  }
  return (w - 0.5) * std::log(w) - w + kHalfLog2Pi + s;
}

// Gamma(a + m) / Gamma(a) for real a, m, with the limits SciPy's poch takes at the poles.
double poch(double a, double m) {
  const double b = a + m;
  const bool pa = is_pole(a), pb = is_pole(b);
  if (pa && pb) {
    // Gamma(b) / Gamma(a) = (-1)^m Gamma(1 - a) / Gamma(1 - b) (m integer here).
    const double r = std::exp(std::lgamma(1 - a) - std::lgamma(1 - b));
    return (std::fmod(std::fabs(m), 2.0) == 1.0) ? -r : r;
  }
  if (pa) return 0.0;
  if (pb) return std::numeric_limits<double>::infinity();
  const double r = std::exp(std::lgamma(b) - std::lgamma(a));
  // The sign of Gamma(x): positive for x > 0; (-1)^ceil(-x) for negative x between the poles.
  auto gsign = [](double x) { return x > 0 ? 1.0 : (std::fmod(std::ceil(-x), 2.0) == 1.0 ? -1.0 : 1.0); };
  return gsign(b) * gsign(a) * r;
}

}  // namespace

std::pair<double, double> log_gamma(double x, double y) {
  if (y == 0 && is_pole(x)) return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  std::complex<double> z(x, y), shift = 0;
  // Recurrence up to |z| >= 15 and Re z >= 15 - |Im z| > 0: log Gamma(z) = log Gamma(z + N) - sum log(z + k).
  while (std::abs(z) < 15.0 || z.real() < 0.5) {
    shift += std::log(z);
    z += 1.0;
  }
  const std::complex<double> r = stirling(z) - shift;
  return {r.real(), r.imag()};
}

namespace {

// The grid of the coefficients: numpy.linspace(0, pi (n // 2) / (n dln), n // 2 + 1), the last point
// ymax exact, the others k * step (the device kernel receives the same step and ymax).
struct coeff_grid {
  std::int64_t m;
  double step, ymax;
};
coeff_grid grid_of(std::int64_t n, double dln) {
  const std::int64_t m = n / 2 + 1;
  const double ymax = kPi * static_cast<double>(n / 2) / (static_cast<double>(n) * dln);
  const double step = m > 1 ? kPi * static_cast<double>(n / 2) / (static_cast<double>(n) * dln) / static_cast<double>(m - 1) : 0.0;
  return {m, step, ymax};
}

// The general formula of one coefficient at y: 2^(q + 2 i y) Gamma(xp + i y) / Gamma(xm - i y) exp(-2 i y lnkr), as
// exp(re + i im) of the log-gammas (fftlog_kernels.cu mirrors this operation by operation).
std::complex<double> coefficient(double y, double xm, double xp, double q, double lnkr) {
  const auto gm = log_gamma(xm, y), gp = log_gamma(xp, y);
  const double re = gp.first - gm.first + kLn2 * q;
  const double im = gp.second + gm.second + 2 * (kLn2 - lnkr) * y;
  return std::exp(std::complex<double>(re, im));
}

// SciPy's special cases of u_0: a non-finite value (a pole) replaced by its limit 2^q poch(xm, xp - xm);
// then the singular transforms (u_0 = inf for fht -> 0, u_0 = 0 for ifht -> inf), flagged for the warning.
std::complex<double> fix_u0(std::complex<double> u0, double xm, double xp, double q, bool inverse, bool& sing) {
  double r = u0.real(), i = u0.imag();
  if (!(std::isfinite(r) && std::isfinite(i))) {
    r = std::pow(2.0, q) * poch(xm, xp - xm);
    i = 0.0;
  }
  sing = false;
  if (std::isinf(r) && !inverse) {
    sing = true;
    r = 0.0;
    i = 0.0;
  } else if (r == 0.0 && i == 0.0 && inverse) {
    sing = true;
    r = std::numeric_limits<double>::infinity();
    i = 0.0;
  }
  return {r, i};
}

}  // namespace

// fftlog_kernels.cu
void launch_fht_coefficients(double* u, std::int64_t m, bool even, double xm, double xp, double q, double lnkr,
                             double step, double ymax, double u0re, double u0im);
void launch_power_law(double* w, std::int64_t n, double factor, double dln, double add, double jc);

std::vector<double> fht_coefficients(std::int64_t n, double dln, double mu, double offset, double bias, bool inverse,
                                     bool* singular) {
  const double q = bias, lnkr = offset;
  const double xp = (mu + 1 + q) / 2, xm = (mu + 1 - q) / 2;
  const coeff_grid g = grid_of(n, dln);
  const std::int64_t m = g.m;
  std::vector<double> u(2 * static_cast<std::size_t>(m));
  for (std::int64_t k = 0; k < m; ++k) {
    const double y = (k == m - 1 && m > 1) ? g.ymax : static_cast<double>(k) * g.step;
    const std::complex<double> v = coefficient(y, xm, xp, q, lnkr);
    u[2 * k] = v.real();
    u[2 * k + 1] = v.imag();
  }
  if (n % 2 == 0) u[2 * (m - 1) + 1] = 0.0;  // the Nyquist coefficient is real
  bool sing = false;
  const std::complex<double> u0 = fix_u0({u[0], u[1]}, xm, xp, q, inverse, sing);
  u[0] = u0.real();
  u[1] = u0.imag();
  if (singular) *singular = sing;
  return u;
}

/// The same n // 2 + 1 coefficients as fht_coefficients, as a complex128 device array [n // 2 + 1]
/// computed on the current stream (asynchronous; u_0 and `singular` on the host). Not in the public
/// header: declared by the GPU test that compares it with fht_coefficients.
ndarray fht_coefficients_device(std::int64_t n, double dln, double mu, double offset, double bias, bool inverse,
                                bool* singular) {
  const double q = bias, lnkr = offset;
  const double xp = (mu + 1 + q) / 2, xm = (mu + 1 - q) / 2;
  const coeff_grid g = grid_of(n, dln);
  bool sing = false;
  // y_0 = 0 (k = 0 is never the Nyquist point: for n = 1 the only point is not the last of a range).
  const std::complex<double> u0 = fix_u0(coefficient(0.0, xm, xp, q, lnkr), xm, xp, q, inverse, sing);
  ndarray u = empty({g.m}, dtype::complex128);
  launch_fht_coefficients(static_cast<double*>(u.data()), g.m, n % 2 == 0, xm, xp, q, lnkr, g.step, g.ymax,
                          u0.real(), u0.imag());
  if (singular) *singular = sing;
  return u;
}

}  // namespace detail

namespace {

ndarray power_law(std::int64_t n, double factor, double dln, double add) {
  // exp(factor * ((j - j_c) dln + add)), j = 0 .. n - 1, float64, on the device
  ndarray w = empty({n}, dtype::float64);
  detail::launch_power_law(static_cast<double*>(w.data()), n, factor, dln, add, (static_cast<double>(n) - 1) / 2);
  return w;
}

ndarray transform(const ndarray& in, double dln, double mu, const fht_options& o, bool inverse) {
  const char* fn = inverse ? "cusci::fft::ifht" : "cusci::fft::fht";
  CUSCI_EXPECTS(!is_complex(in.dtype()), type_error,
                std::string(fn) + ": the input must be real, got dtype " + std::string(dtype_name(in.dtype())));
  CUSCI_EXPECTS(in.ndim() >= 1, value_error, std::string(fn) + ": the input must have at least one dimension");
  const std::int64_t n = in.shape().back();
  CUSCI_EXPECTS(n >= 1, value_error, std::string(fn) + ": invalid number of data points (0) specified");
  const double q = o.bias;
  ndarray a = in;
  if (q != 0) a = inverse ? multiply(a, power_law(n, q, dln, o.offset)) : multiply(a, power_law(n, -q, dln, 0.0));
  bool singular = false;
  const ndarray u = detail::fht_coefficients_device(n, dln, mu, o.offset, q, inverse, &singular);
  if (singular)
    warn("UserWarning", fn,
         inverse ? "singular inverse transform; consider changing the bias" : "singular transform; consider changing the bias");
  ndarray A = rfft(a, {.axis = -1});
  const dtype spec = A.dtype();
  A = inverse ? divide(A, conj(u)) : multiply(A, u);
  if (A.dtype() != spec) A = A.astype(spec);  // NumPy's in-place A *= u keeps A's dtype
  ndarray r = flip(irfft(A, {.n = n, .axis = -1}), -1);
  if (q != 0)
    r = inverse ? divide(r, power_law(n, -q, dln, 0.0)) : multiply(r, power_law(n, -q, dln, o.offset));
  return r;
}

}  // namespace

ndarray fht(const ndarray& a, double dln, double mu, const fht_options& o) { return transform(a, dln, mu, o, false); }
ndarray ifht(const ndarray& A, double dln, double mu, const fht_options& o) { return transform(A, dln, mu, o, true); }

double fhtoffset(double dln, double mu, const fhtoffset_options& o) {
  CUSCI_NVTX_SCOPE("cusci::fft::fhtoffset");
  const double lnkr = o.initial, q = o.bias;
  const double xp = (mu + 1 + q) / 2, xm = (mu + 1 - q) / 2;
  const double y = detail::kPi / (2 * dln);
  const double zp = detail::log_gamma(xp, y).second, zm = detail::log_gamma(xm, y).second;
  const double arg = (detail::kLn2 - lnkr) / dln + (zp + zm) / detail::kPi;
  return lnkr + (arg - std::nearbyint(arg)) * dln;
}

}  // namespace cusci::fft
