// scipy.fft's fast Hankel transform (FFTLog) on cusci's real FFTs: the coefficients on the host
// (complex log-gamma by recurrence + Stirling's series), everything else as device array operations.

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

std::vector<double> fht_coefficients(std::int64_t n, double dln, double mu, double offset, double bias, bool inverse,
                                     bool* singular) {
  const double q = bias, lnkr = offset;
  const double xp = (mu + 1 + q) / 2, xm = (mu + 1 - q) / 2;
  const std::int64_t m = n / 2 + 1;
  std::vector<double> u(2 * static_cast<std::size_t>(m));
  const double step = m > 1 ? kPi * static_cast<double>(n / 2) / (static_cast<double>(n) * dln) / static_cast<double>(m - 1) : 0.0;
  for (std::int64_t k = 0; k < m; ++k) {
    // numpy.linspace(0, pi (n // 2) / (n dln), n // 2 + 1): the last point exact
    const double y = (k == m - 1 && m > 1) ? kPi * static_cast<double>(n / 2) / (static_cast<double>(n) * dln)
                                           : static_cast<double>(k) * step;
    const auto gm = log_gamma(xm, y), gp = log_gamma(xp, y);
    const double re = gp.first - gm.first + kLn2 * q;
    const double im = gp.second + gm.second + 2 * (kLn2 - lnkr) * y;
    const std::complex<double> v = std::exp(std::complex<double>(re, im));
    u[2 * k] = v.real();
    u[2 * k + 1] = v.imag();
  }
  if (n % 2 == 0) u[2 * (m - 1) + 1] = 0.0;  // the Nyquist coefficient is real
  if (!(std::isfinite(u[0]) && std::isfinite(u[1]))) {
    u[0] = std::pow(2.0, q) * poch(xm, xp - xm);
    u[1] = 0.0;
  }
  bool sing = false;
  if (std::isinf(u[0]) && !inverse) {
    sing = true;
    u[0] = 0.0;
    u[1] = 0.0;
  } else if (u[0] == 0.0 && u[1] == 0.0 && inverse) {
    sing = true;
    u[0] = std::numeric_limits<double>::infinity();
    u[1] = 0.0;
  }
  if (singular) *singular = sing;
  return u;
}

}  // namespace detail

namespace {

ndarray power_law(std::int64_t n, double factor, double dln, double add) {
  // exp(factor * ((j - j_c) dln + add)), j = 0 .. n - 1, float64
  std::vector<double> w(static_cast<std::size_t>(n));
  const double jc = (static_cast<double>(n) - 1) / 2;
  for (std::int64_t j = 0; j < n; ++j) w[j] = std::exp(factor * ((static_cast<double>(j) - jc) * dln + add));
  return asarray(w);
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
  const std::vector<double> uh = detail::fht_coefficients(n, dln, mu, o.offset, q, inverse, &singular);
  if (singular)
    warn("UserWarning", fn,
         inverse ? "singular inverse transform; consider changing the bias" : "singular transform; consider changing the bias");
  ndarray u = asarray(uh.data(), dtype::complex128, {n / 2 + 1});
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
  const double lnkr = o.initial, q = o.bias;
  const double xp = (mu + 1 + q) / 2, xm = (mu + 1 - q) / 2;
  const double y = detail::kPi / (2 * dln);
  const double zp = detail::log_gamma(xp, y).second, zm = detail::log_gamma(xm, y).second;
  const double arg = (detail::kLn2 - lnkr) / dln + (zp + zm) / detail::kPi;
  return lnkr + (arg - std::nearbyint(arg)) * dln;
}

}  // namespace cusci::fft
