// The two windows built with spectral / eigen solvers: chebwin (Chebyshev polynomial samples through a
// host FFT) and dpss (Slepian sequences: eigenvectors of a symmetric tridiagonal matrix, concentration
// ratios from FFT autocorrelations), both following SciPy 1.18's construction and sign conventions, on
// core's host linear algebra (cusci::detail::hostla).

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"
#include "cusci/warnings.hpp"
#include "windows/window_impl.hpp"

namespace cusci::signal::windows::impl {

namespace {
constexpr double pi = 3.14159265358979323846;
using i64 = std::int64_t;
using cplx = std::complex<double>;
namespace hl = cusci::detail::hostla;
}  // namespace

std::vector<double> chebwin(i64 M, double at, bool sym, const std::string& F) {
  if (std::abs(at) < 45)
    cusci::warn("UserWarning", F,
                "This window is not suitable for spectral analysis for attenuation values lower than about 45dB "
                "because the equivalent noise bandwidth of a Chebyshev window does not grow monotonically with "
                "increasing sidelobe attenuation when the attenuation is smaller than about 45 dB.");
  if (len_guard(M, F)) return std::vector<double>(static_cast<std::size_t>(M), 1.0);
  const i64 Me = sym ? M : M + 1;
  const double m = static_cast<double>(Me);
  const double order = m - 1.0;
  const double beta = std::cosh(1.0 / order * std::acosh(std::pow(10.0, std::abs(at) / 20.0)));
  const double sgn = static_cast<double>(2 * (Me % 2) - 1);
  std::vector<double> p(static_cast<std::size_t>(Me));
  // The samples are odd or even about k = Me/2: x[Me - k] = -x[k] (cos(pi - t) = -cos t) and the
  // Chebyshev polynomial of integer order has T(-x) = (-1)^order T(x) = sgn T(x) (both branches), so the
  // second half mirrors the first (SciPy evaluates both halves; they agree to rounding, the
  // ill-conditioning of cos(order * acos(x)) near |x| = 1 included).
  const i64 half = Me / 2;
  for (i64 k = 0; k <= half; ++k) {
    const double x = beta * std::cos(pi * static_cast<double>(k) / m);
    double v;
    if (x > 1)
      v = std::cosh(order * std::acosh(x));
    else if (x < -1)
      v = sgn * std::cosh(order * std::acosh(-x));
    else
      v = std::cos(order * std::acos(x));
    p[k] = v;
    if (k > 0 && Me - k != k) p[Me - k] = sgn * v;
  }
  std::vector<double> w;
  w.reserve(static_cast<std::size_t>(Me));
  if (Me % 2) {
    // real(fft(p)) of the real samples: the first (Me + 1) / 2 bins of their real transform
    const std::vector<cplx> P = hl::rfft(p, Me);
    const i64 n = (Me + 1) / 2;
    for (i64 i = n - 1; i >= 1; --i) w.push_back(P[i].real());
    for (i64 i = 0; i < n; ++i) w.push_back(P[i].real());
  } else {
    // SciPy: real(fft(p e^{i pi k / Me})). Bin j of that is sum_k p_k e^{-2 pi i k (2j - 1) / (2 Me)}: the
    // odd bin 2j - 1 of the real transform of p zero-padded to 2 Me (no phase factors to evaluate).
    const std::vector<cplx> P = hl::rfft(p, 2 * Me);
    const i64 n = Me / 2 + 1;
    for (i64 i = n - 1; i >= 1; --i) w.push_back(P[2 * i - 1].real());
    for (i64 i = 1; i < n; ++i) w.push_back(P[2 * i - 1].real());
  }
  const double mx = *std::max_element(w.begin(), w.end());
  for (double& v : w) v /= mx;
  if (!sym) w.pop_back();
  return w;
}

dpss_values dpss(i64 M, double NW, std::optional<i64> Kmax, bool sym, dpss_norm norm, bool return_ratios,
                 const std::string& F) {
  if (norm == dpss_norm::none) norm = Kmax ? dpss_norm::two : dpss_norm::approximate;
  const i64 K = Kmax ? *Kmax : 1;
  dpss_values r;
  if (len_guard(M, F)) {
    r.rows = 1;
    r.cols = M;
    r.windows.assign(static_cast<std::size_t>(M), 1.0);
    if (return_ratios) r.ratios.assign(1, 1.0);
    return r;
  }
  CUSCI_EXPECTS(0 < K && K <= M, value_error,
                F + ": Kmax must be greater than 0 and less than M, got Kmax=" + std::to_string(K) +
                    ", M=" + std::to_string(M));
  CUSCI_EXPECTS(!(NW >= static_cast<double>(M) / 2.0), value_error,
                F + ": NW must be less than M/2., got NW=" + std::to_string(NW) + ", M=" + std::to_string(M));
  CUSCI_EXPECTS(!(NW <= 0), value_error, F + ": NW must be positive, got NW=" + std::to_string(NW));
  CUSCI_EXPECTS(!std::isnan(NW), value_error, F + ": NW must not be NaN (array must not contain infs or NaNs)");
  const i64 Me = sym ? M : M + 1;
  const double m = static_cast<double>(Me);
  const double W = NW / m;
  const std::size_t n = static_cast<std::size_t>(Me);
  // The tridiagonal matrix that commutes with the time-and-band limiting operator (Slepian 1978).
  std::vector<double> d(n), e(n - 1);
  const double c = std::cos(2 * pi * W);
  for (i64 i = 0; i < Me; ++i) {
    const double h = (m - 1 - 2 * static_cast<double>(i)) / 2.0;
    d[i] = h * h * c;
    if (i > 0) e[i - 1] = static_cast<double>(i) * (m - static_cast<double>(i)) / 2.0;
  }
  const auto eg = hl::eigh_tridiagonal(d, e, Me - K, Me - 1, F.c_str());
  // Rows in decreasing eigenvalue order.
  std::vector<double> win(static_cast<std::size_t>(K) * n);
  for (i64 k = 0; k < K; ++k)
    for (i64 i = 0; i < Me; ++i) win[k * n + i] = eg.vectors(i, K - 1 - k);
  // SciPy's sign conventions: symmetric tapers have a positive sum, antisymmetric ones start positive.
  const double thresh = std::max(1e-7, 1.0 / m);
  for (i64 k = 0; k < K; ++k) {
    double* row = &win[k * n];
    bool flip = false;
    if (k % 2 == 0) {
      double s = 0.0;
      for (std::size_t i = 0; i < n; ++i) s += row[i];
      flip = s < 0;
    } else {
      for (std::size_t i = 0; i < n; ++i)
        if (row[i] * row[i] > thresh) {
          flip = row[i] < 0;
          break;
        }
    }
    if (flip)
      for (std::size_t i = 0; i < n; ++i) row[i] = -row[i];
  }
  if (return_ratios) {
    // Autocorrelation of each taper by FFT (any length >= 2 Me - 1 gives the same values; a power of two
    // keeps the host FFT on its radix-2 path), then the ratio sum_lag rxx[lag] * r[lag].
    i64 L = 1;
    while (L < 2 * Me - 1) L *= 2;
    std::vector<double> rv(n);
    rv[0] = 2 * W;
    for (i64 i = 1; i < Me; ++i) {
      const double x = 2 * W * static_cast<double>(i);
      const double y = pi * x;
      rv[i] = 4 * W * (std::sin(y) / y);
    }
    r.ratios.resize(static_cast<std::size_t>(K));
    for (i64 k = 0; k < K; ++k) {
      std::vector<double> row(win.begin() + k * n, win.begin() + (k + 1) * n);
      auto X = hl::rfft(row, L);
      for (auto& z : X) z = z * std::conj(z);
      const auto cxy = hl::irfft(X, L);
      double s = 0.0;
      for (std::size_t i = 0; i < n; ++i) s += cxy[i] * rv[i];
      r.ratios[k] = s;
    }
  }
  if (norm != dpss_norm::two) {
    const double mx = *std::max_element(win.begin(), win.end());
    for (double& v : win) v /= mx;
    if (Me % 2 == 0) {
      double correction;
      if (norm == dpss_norm::approximate) {
        correction = m * m / (m * m + NW);
      } else {
        std::vector<double> row0(win.begin(), win.begin() + n);
        auto s = hl::rfft(row0, Me);
        double sum = s[0].real();
        for (i64 k = 1; k <= Me / 2; ++k) {
          const double shift = -(1 - 1.0 / m) * static_cast<double>(k);
          const cplx f = 2.0 * std::exp(cplx(0.0, -pi * shift));
          sum += (s[k] * f).real();
        }
        correction = m / sum;
      }
      for (double& v : win) v *= correction;
    }
  }
  const i64 cols = sym ? Me : Me - 1;
  r.rows = K;
  r.cols = cols;
  r.windows.resize(static_cast<std::size_t>(K * cols));
  for (i64 k = 0; k < K; ++k)
    for (i64 i = 0; i < cols; ++i) r.windows[k * cols + i] = win[k * n + i];
  return r;
}

}  // namespace cusci::signal::windows::impl
