// Host FFT for design code: iterative radix-2 for powers of two, Bluestein's chirp-z algorithm (through
// radix-2 transforms of a power-of-two length >= 2n - 1) for every other length; twiddles, chirp and the
// transformed chirp filter are cached per thread and length. Twiddles and chirps are
// computed directly from exactly reduced angles (k^2 mod 2n), so errors stay at a few ulps of the scale.
// Conventions are numpy.fft's: forward sum x[j] e^{-2 pi i jk/n}, inverse scaled by 1/n.
#include <cmath>
#include <string>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"

namespace cusci::detail::hostla {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

bool is_pow2(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Complex product without the C99 Annex G inf/NaN recovery of operator* (a library call per product);
// the inputs here are finite transforms.
inline cplx mul(const cplx& a, const cplx& b) {
  return cplx(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

// e^{sign * 2 pi i k / n} with the angle reduced to the first octant for accuracy.
cplx unit_root(std::int64_t k, std::int64_t n, double sgn) {
  // reduce k to [0, n)
  k %= n;
  if (k < 0) k += n;
  // use symmetry: angle = 2 pi k / n; evaluate via the nearest quarter
  const std::int64_t k8 = 8 * k;  // compare against multiples of n
  double c, s;
  if (k8 <= n) {  // [0, pi/4]
    const double t = 2 * kPi * static_cast<double>(k) / static_cast<double>(n);
    c = std::cos(t);
    s = std::sin(t);
  } else if (k8 <= 3 * n) {  // around pi/2: angle = pi/2 + t
    const double t = 2 * kPi * static_cast<double>(4 * k - n) / static_cast<double>(4 * n);
    c = -std::sin(t);
    s = std::cos(t);
  } else if (k8 <= 5 * n) {  // around pi
    const double t = 2 * kPi * static_cast<double>(2 * k - n) / static_cast<double>(2 * n);
    c = -std::cos(t);
    s = -std::sin(t);
  } else if (k8 <= 7 * n) {  // around 3pi/2
    const double t = 2 * kPi * static_cast<double>(4 * k - 3 * n) / static_cast<double>(4 * n);
    c = std::sin(t);
    s = -std::cos(t);
  } else {  // around 2pi
    const double t = 2 * kPi * static_cast<double>(k - n) / static_cast<double>(n);
    c = std::cos(t);
    s = std::sin(t);
  }
  return cplx(c, sgn * s);
}

// Forward twiddles e^{-2 pi i k / n}, k < n/2, of the last power-of-two size used on this thread (design
// code transforms the same lengths repeatedly, and Bluestein makes three transforms of one size per call);
// the backward transform uses their conjugates.
const std::vector<cplx>& twiddles(std::size_t n) {
  thread_local std::vector<cplx> tw;
  thread_local std::size_t tw_n = 0;
  if (tw_n != n) {
    tw.resize(n / 2);
    for (std::size_t k = 0; k < n / 2; ++k)
      tw[k] = unit_root(static_cast<std::int64_t>(k), static_cast<std::int64_t>(n), -1.0);
    tw_n = n;
  }
  return tw;
}

// In-place radix-2 transform of length n (a power of two), sign -1 forward, +1 backward (unscaled).
void fft_pow2(std::vector<cplx>& a, double sgn) {
  const std::size_t n = a.size();
  if (n <= 1) return;
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  const std::vector<cplx>& tw = twiddles(n);
  const double conj = sgn > 0 ? -1.0 : 1.0;
  cplx* d = a.data();
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const std::size_t half = len / 2, step = n / len;
    for (std::size_t i = 0; i < n; i += len) {
      for (std::size_t j = 0; j < half; ++j) {
        const double wr = tw[j * step].real(), wi = conj * tw[j * step].imag();
        const double xr = d[i + j + half].real(), xi = d[i + j + half].imag();
        const double vr = xr * wr - xi * wi, vi = xr * wi + xi * wr;
        const double ur = d[i + j].real(), ui = d[i + j].imag();
        d[i + j] = cplx(ur + vr, ui + vi);
        d[i + j + half] = cplx(ur - vr, ui - vi);
      }
    }
  }
}

// Unscaled DFT of any length via Bluestein.
std::vector<cplx> dft_any(const std::vector<cplx>& x, double sgn) {
  const std::size_t n = x.size();
  if (n == 0) return {};
  if (is_pow2(n)) {
    std::vector<cplx> a = x;
    fft_pow2(a, sgn);
    return a;
  }
  std::size_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  // chirp w[k] = e^{sgn i pi k^2 / n} = unit_root(k^2 mod 2n, 2n)
  // The chirp of the last length used on this thread (its conjugate for the other direction).
  thread_local std::vector<cplx> chirp;
  thread_local std::size_t chirp_n = 0;
  const std::int64_t n2 = 2 * static_cast<std::int64_t>(n);
  if (chirp_n != n) {
    chirp.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t kk =
          static_cast<std::int64_t>((static_cast<unsigned __int128>(k) * k) % static_cast<unsigned __int128>(n2));
      chirp[k] = unit_root(kk, n2, -1.0);
    }
    chirp_n = n;
  }
  std::vector<cplx> w(n);
  for (std::size_t k = 0; k < n; ++k) w[k] = sgn < 0 ? chirp[k] : std::conj(chirp[k]);
  std::vector<cplx> a(m, cplx(0));
  for (std::size_t k = 0; k < n; ++k) a[k] = mul(x[k], w[k]);
  // The transformed chirp filter, per length and direction (cached with the chirp).
  thread_local std::vector<cplx> bf[2];
  thread_local std::size_t bf_n[2] = {0, 0};
  const int dir = sgn < 0 ? 0 : 1;
  if (bf_n[dir] != n) {
    std::vector<cplx>& b = bf[dir];
    b.assign(m, cplx(0));
    b[0] = std::conj(w[0]);
    for (std::size_t k = 1; k < n; ++k) b[k] = b[m - k] = std::conj(w[k]);
    fft_pow2(b, -1);
    bf_n[dir] = n;
  }
  const std::vector<cplx>& b = bf[dir];
  fft_pow2(a, -1);
  for (std::size_t k = 0; k < m; ++k) a[k] = mul(a[k], b[k]);
  fft_pow2(a, +1);
  const double inv_m = 1.0 / static_cast<double>(m);
  std::vector<cplx> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = mul(a[k] * inv_m, w[k]);
  return y;
}

}  // namespace

std::vector<cplx> fft(const std::vector<cplx>& x, bool inverse) {
  std::vector<cplx> y = dft_any(x, inverse ? +1.0 : -1.0);
  if (inverse && !y.empty()) {
    const double s = 1.0 / static_cast<double>(y.size());
    for (auto& v : y) v *= s;
  }
  return y;
}

std::vector<cplx> rfft(const std::vector<double>& x, std::int64_t n) {
  if (n < 1)
    throw cusci::value_error("cusci::detail::hostla::rfft: invalid number of FFT data points (" + std::to_string(n) +
                             ") specified");
  std::vector<cplx> a(static_cast<std::size_t>(n), cplx(0));
  const std::size_t c = std::min(x.size(), static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < c; ++i) a[i] = x[i];
  std::vector<cplx> y = dft_any(a, -1.0);
  y.resize(static_cast<std::size_t>(n / 2 + 1));
  return y;
}

std::vector<double> irfft(const std::vector<cplx>& x, std::int64_t n) {
  if (n < 1)
    throw cusci::value_error("cusci::detail::hostla::irfft: invalid number of FFT data points (" +
                             std::to_string(n) + ") specified");
  const std::size_t nn = static_cast<std::size_t>(n), h = nn / 2 + 1;
  std::vector<cplx> full(nn, cplx(0));
  for (std::size_t k = 0; k < h && k < x.size(); ++k) full[k] = x[k];
  full[0] = cplx(full[0].real(), 0.0);
  if (nn % 2 == 0) full[nn / 2] = cplx(full[nn / 2].real(), 0.0);
  for (std::size_t k = 1; k < h; ++k)
    if (nn - k != k) full[nn - k] = std::conj(full[k]);
  std::vector<cplx> y = dft_any(full, +1.0);
  std::vector<double> out(nn);
  const double s = 1.0 / static_cast<double>(n);
  for (std::size_t i = 0; i < nn; ++i) out[i] = y[i].real() * s;
  return out;
}

}  // namespace cusci::detail::hostla
