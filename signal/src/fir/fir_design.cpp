// FIR filter design on the host (cusci::signal::kaiserord, firwin2, firls, minimum_phase, firwin_2d), in
// double precision, following SciPy 1.18's scipy/signal/_fir_filter_design.py step by step (same checks
// in the same order, same operation order where it decides rounding). remez lives in remez.cpp.

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/fir_design.hpp"
#include "cusci/warnings.hpp"
#include "windows/windows.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {

using cplx = std::complex<double>;
namespace hostla = cusci::detail::hostla;
constexpr double kPi = 3.14159265358979323846;
constexpr double kEps = std::numeric_limits<double>::epsilon();

std::string num(double v) { return detail::fmt(v); }
std::string num(std::int64_t v) { return std::to_string(v); }

// numpy.sinc: sin(pi x) / (pi x), with x = 0 replaced by 1e-20.
double np_sinc(double x) {
  const double y = kPi * (x == 0 ? 1.0e-20 : x);
  return std::sin(y) / y;
}

// numpy.linspace(start, stop, n) (endpoint included): i * step + start, the last point set to stop.
std::vector<double> linspace(double start, double stop, std::int64_t n) {
  std::vector<double> y(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  if (n <= 0) return y;
  const std::int64_t div = n - 1;
  const double delta = stop - start;
  if (div > 0) {
    const double step = delta / static_cast<double>(div);
    for (std::int64_t i = 0; i < n; ++i) {
      const double t = static_cast<double>(i);
      y[static_cast<std::size_t>(i)] = (step == 0 ? (t / static_cast<double>(div)) * delta : t * step) + start;
    }
    y.back() = stop;
  } else {
    y[0] = 0.0 * delta + start;
  }
  return y;
}

// numpy.interp(x, xp, fp) for increasing xp (left = fp[0], right = fp[-1]), with NumPy's arithmetic:
// slope * (x - xp[j]) + fp[j], retried from the right end of the interval when that gives NaN.
struct interpolator {
  const std::vector<double>& xp;
  const std::vector<double>& fp;
  double operator()(double x) const {
    const std::size_t n = xp.size();
    if (n == 1) return fp[0];
    if (x > xp[n - 1]) return fp[n - 1];
    if (x < xp[0]) return fp[0];
    if (x == xp[n - 1]) return fp[n - 1];
    // Largest j with xp[j] <= x (x < xp[n-1] here).
    const std::size_t j = static_cast<std::size_t>(std::upper_bound(xp.begin(), xp.end(), x) - xp.begin()) - 1;
    if (xp[j] == x) return fp[j];
    const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    double r = slope * (x - xp[j]) + fp[j];
    if (std::isnan(r)) {
      r = slope * (x - xp[j + 1]) + fp[j + 1];
      if (std::isnan(r) && fp[j] == fp[j + 1]) r = fp[j];
    }
    return r;
  }
};

// Python's f"{v:f}".
std::string fixed6(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%f", v);
  return buf;
}

// 1-norm of the inverse of the SPD matrix with Cholesky factor L (A = L L^T), estimated as LAPACK's
// dlacn2 (Hager / Higham) does for dpocon: a few solves instead of the inverse.
struct chol_solver {
  const hostla::rmat& L;
  hostla::rmat Lt;  // L^T, so that both triangular solves run along contiguous rows
  explicit chol_solver(const hostla::rmat& l) : L(l), Lt(hostla::transpose(l)) {}
  // x <- A^{-1} x.
  void solve(std::vector<double>& x) const {
    const std::int64_t n = L.m;
    // L y = x by columns of L (rows of L^T): y_i final, then removed from the rows below
    for (std::int64_t i = 0; i < n; ++i) {
      const double yi = x[static_cast<std::size_t>(i)] / L(i, i);
      x[static_cast<std::size_t>(i)] = yi;
      const double* ci = &Lt.v[static_cast<std::size_t>(i * n)];
      for (std::int64_t k = i + 1; k < n; ++k) x[static_cast<std::size_t>(k)] -= ci[k] * yi;
    }
    // L^T x = y by columns of L^T (rows of L, contiguous): x_i final, then removed from the rows above
    for (std::int64_t i = n - 1; i >= 0; --i) {
      const double xi = x[static_cast<std::size_t>(i)] / L(i, i);
      x[static_cast<std::size_t>(i)] = xi;
      const double* li = &L.v[static_cast<std::size_t>(i * n)];
      for (std::int64_t k = 0; k < i; ++k) x[static_cast<std::size_t>(k)] -= li[k] * xi;
    }
  }
};

double inverse_norm1_estimate(const chol_solver& s, std::int64_t n) {
  const auto N = static_cast<std::size_t>(n);
  auto norm1 = [](const std::vector<double>& v) {
    double t = 0;
    for (double e : v) t += std::abs(e);
    return t;
  };
  auto sign = [](double v) { return v >= 0 ? 1.0 : -1.0; };
  auto argmax_abs = [](const std::vector<double>& v) {
    std::size_t j = 0;
    for (std::size_t i = 1; i < v.size(); ++i)
      if (std::abs(v[i]) > std::abs(v[j])) j = i;
    return j;
  };
  std::vector<double> x(N, 1.0 / static_cast<double>(n));
  s.solve(x);
  if (n == 1) return std::abs(x[0]);
  double est = norm1(x);
  std::vector<double> xi(N);
  for (std::size_t i = 0; i < N; ++i) xi[i] = sign(x[i]);
  std::vector<double> z = xi;
  s.solve(z);
  std::size_t j = argmax_abs(z);
  for (int iter = 2; iter <= 5; ++iter) {
    std::fill(x.begin(), x.end(), 0.0);
    x[j] = 1.0;
    s.solve(x);
    const double estold = est;
    est = norm1(x);
    bool same = true;
    for (std::size_t i = 0; i < N; ++i)
      if (sign(x[i]) != xi[i]) same = false;
    if (same || est <= estold) break;
    for (std::size_t i = 0; i < N; ++i) xi[i] = sign(x[i]);
    z = xi;
    s.solve(z);
    const std::size_t jlast = j;
    j = argmax_abs(z);
    if (std::abs(z[jlast]) == std::abs(z[j])) break;
  }
  // Alternating-sign test vector.
  double alt = 1.0;
  for (std::size_t i = 0; i < N; ++i) {
    x[i] = alt * (1.0 + static_cast<double>(i) / static_cast<double>(n - 1));
    alt = -alt;
  }
  s.solve(x);
  const double temp = 2.0 * norm1(x) / (3.0 * static_cast<double>(n));
  return std::max(est, temp);
}

}  // namespace

// ---------------------------------------------------------------------------------------- kaiserord

kaiserord_result kaiserord(double ripple, double width) {
  CUSCI_NVTX_SCOPE("cusci::signal::kaiserord");
  const std::string F = "cusci::signal::kaiserord";
  const double A = std::abs(ripple);
  CUSCI_EXPECTS(!(A < 8), value_error,
                F + ": Requested maximum ripple attenuation " + fixed6(A) + " is too small for the Kaiser formula.");
  const double beta = kaiser_beta(A);
  CUSCI_EXPECTS(width != 0, value_error, F + ": width must be nonzero (float division by zero), got 0");
  const double n = (A - 7.95) / 2.285 / (kPi * width) + 1;
  CUSCI_EXPECTS(!std::isnan(n), value_error, F + ": cannot convert float NaN to integer (numtaps of ripple=" +
                                                 num(ripple) + ", width=" + num(width) + ")");
  const double c = std::ceil(n);
  CUSCI_EXPECTS(std::abs(c) < 9.2e18, value_error,
                F + ": the number of taps " + num(c) + " does not fit an int64 (ripple=" + num(ripple) +
                    ", width=" + num(width) + ")");
  return {static_cast<std::int64_t>(c), beta};
}

// ------------------------------------------------------------------------------------------ firwin2

host_array firwin2(std::int64_t numtaps, const std::vector<double>& freq_in, const std::vector<double>& gain,
                   const firwin2_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::firwin2");
  const std::string F = "cusci::signal::firwin2";
  const double fs = opts.fs.value_or(2.0);
  const double nyq = 0.5 * fs;
  CUSCI_EXPECTS(freq_in.size() == gain.size(), value_error,
                F + ": freq and gain must be of same length, got " + num(static_cast<std::int64_t>(freq_in.size())) +
                    " and " + num(static_cast<std::int64_t>(gain.size())));
  if (opts.nfreqs && numtaps >= *opts.nfreqs)
    throw value_error(F + ": ntaps must be less than nfreqs, but firwin2 was called with ntaps=" + num(numtaps) +
                      " and nfreqs=" + num(*opts.nfreqs));
  CUSCI_EXPECTS(!freq_in.empty(), index_error, F + ": index 0 is out of bounds for freq of size 0");
  const std::size_t n = freq_in.size();
  CUSCI_EXPECTS(freq_in[0] == 0 && freq_in[n - 1] == nyq, value_error,
                F + ": freq must start with 0 and end with fs/2, got " + num(freq_in[0]) + " ... " +
                    num(freq_in[n - 1]) + " with fs/2 = " + num(nyq));
  bool repeated = false;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const double d = freq_in[k + 1] - freq_in[k];
    CUSCI_EXPECTS(!(d < 0), value_error, F + ": The values in freq must be nondecreasing.");
    if (d == 0) repeated = true;
  }
  for (std::size_t k = 0; k + 2 < n; ++k)
    CUSCI_EXPECTS(!((freq_in[k + 1] - freq_in[k]) + (freq_in[k + 2] - freq_in[k + 1]) == 0), value_error,
                  F + ": A value in freq must not occur more than twice, got " + num(freq_in[k]) + " three times");
  CUSCI_EXPECTS(n >= 2, index_error, F + ": index 1 is out of bounds for freq of size 1");
  CUSCI_EXPECTS(freq_in[1] != 0, value_error, F + ": Value 0 must not be repeated in freq");
  CUSCI_EXPECTS(freq_in[n - 2] != nyq, value_error, F + ": Value fs/2 must not be repeated in freq");

  int ftype;
  if (opts.antisymmetric)
    ftype = numtaps % 2 == 0 ? 4 : 3;
  else
    ftype = numtaps % 2 == 0 ? 2 : 1;
  if (ftype == 2 && gain[n - 1] != 0.0)
    throw value_error(F + ": A Type II filter must have zero gain at the Nyquist frequency.");
  if (ftype == 3 && (gain[0] != 0.0 || gain[n - 1] != 0.0))
    throw value_error(F + ": A Type III filter must have zero gain at zero and Nyquist frequencies.");
  if (ftype == 4 && gain[0] != 0.0)
    throw value_error(F + ": A Type IV filter must have zero gain at zero frequency.");
  CUSCI_EXPECTS(numtaps > 0, value_error, F + ": numtaps must be positive, got " + num(numtaps));

  std::int64_t nfreqs;
  if (opts.nfreqs) {
    nfreqs = *opts.nfreqs;
  } else {
    // 1 + 2 ** ceil(log(numtaps, 2)), with Python's log(x, base) = log(x) / log(base).
    const double e = std::ceil(std::log(static_cast<double>(numtaps)) / std::log(2.0));
    CUSCI_EXPECTS(e < 62, value_error, F + ": numtaps is too large, got " + num(numtaps));
    nfreqs = 1 + (std::int64_t{1} << static_cast<int>(e));
  }
  CUSCI_EXPECTS(nfreqs >= 2, value_error,
                F + ": Invalid number of FFT data points (" + num(2 * (nfreqs - 1)) + ") specified (nfreqs=" +
                    num(nfreqs) + ")");
  CUSCI_EXPECTS(nfreqs <= (std::int64_t{1} << 40), value_error, F + ": nfreqs is too large, got " + num(nfreqs));

  std::vector<double> freq = freq_in;
  if (repeated) {
    // Move each repeated value apart by eps * nyq so that the interpolation sees a jump.
    const double eps = kEps * nyq;
    for (std::size_t k = 0; k + 1 < n; ++k)
      if (freq[k] == freq[k + 1]) {
        freq[k] = freq[k] - eps;
        freq[k + 1] = freq[k + 1] + eps;
      }
    for (std::size_t k = 0; k + 1 < n; ++k)
      CUSCI_EXPECTS(freq[k + 1] - freq[k] > 0, value_error,
                    F + ": freq cannot contain numbers that are too close (within eps * (fs/2): " + num(eps) +
                        ") to a repeated value");
  }
  // The window first: its errors come before any work (SciPy computes it after the FFT).
  std::vector<double> wind;
  if (opts.window) wind = detail::get_window_vec(*opts.window, numtaps, false, "cusci::signal::firwin2");

  // Desired response on a uniform mesh, with the phase of a delay of (numtaps - 1) / 2 samples.
  const std::vector<double> x = linspace(0.0, nyq, nfreqs);
  const interpolator interp{freq, gain};
  const double c = (-(static_cast<double>(numtaps) - 1) / 2.) * kPi;
  const double inv_nyq = 1.0 / nyq;
  std::vector<cplx> fx2(static_cast<std::size_t>(nfreqs));
  for (std::size_t i = 0; i < fx2.size(); ++i) {
    const double fx = interp(x[i]);
    const double theta = (c * x[i]) * inv_nyq;  // NumPy's complex division by nyq + 0j
    cplx shift(std::cos(theta), std::sin(theta));
    if (ftype > 2) shift = cplx(-shift.imag(), shift.real());
    fx2[i] = cplx(fx * shift.real(), fx * shift.imag());
  }
  const std::vector<double> out_full = hostla::irfft(fx2, 2 * (nfreqs - 1));
  std::vector<double> out(static_cast<std::size_t>(std::min<std::int64_t>(numtaps, 2 * (nfreqs - 1))));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = out_full[i] * (opts.window ? wind[i] : 1.0);
  if (ftype == 3) out[out.size() / 2] = 0.0;
  return host_array::from(out);
}

// -------------------------------------------------------------------------------------------- firls

host_array firls(std::int64_t numtaps, const std::vector<double>& bands_in, const std::vector<double>& desired,
                 const firls_options& opts) {
  const std::string F = "cusci::signal::firls";
  const double fs = opts.fs.value_or(2.0);
  double nyq = 0.5 * fs;
  CUSCI_EXPECTS(!(numtaps % 2 == 0 || numtaps < 1), value_error,
                F + ": numtaps must be odd and >= 1, got " + num(numtaps));
  const std::int64_t M = (numtaps - 1) / 2;
  CUSCI_EXPECTS(!(nyq <= 0), value_error, F + ": nyq must be positive, got " + num(nyq) + " <= 0.");
  std::vector<double> f(bands_in.size());
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = bands_in[i] / nyq;
  CUSCI_EXPECTS(f.size() % 2 == 0, value_error, F + ": bands must contain frequency pairs.");
  for (double v : f)
    CUSCI_EXPECTS(!(v < 0 || v > 1), value_error, F + ": bands must be between 0 and 1 relative to Nyquist");
  const std::size_t nb = f.size() / 2;
  CUSCI_EXPECTS(desired.size() == f.size(), value_error,
                F + ": desired must have one entry per frequency, got " +
                    num(static_cast<std::int64_t>(desired.size())) + " gains for " +
                    num(static_cast<std::int64_t>(f.size())) + " frequencies.");
  for (std::size_t b = 0; b < nb; ++b) {
    CUSCI_EXPECTS(!(f[2 * b + 1] - f[2 * b] <= 0) && !(b > 0 && f[2 * b] - f[2 * b - 2] < 0), value_error,
                  F + ": bands must be monotonically nondecreasing and have width > 0.");
  }
  for (std::size_t b = 0; b + 1 < nb; ++b)
    CUSCI_EXPECTS(!(f[2 * b + 1] > f[2 * b + 2]), value_error, F + ": bands must not overlap.");
  for (double d : desired) CUSCI_EXPECTS(!(d < 0), value_error, F + ": desired must be non-negative.");
  const std::vector<double> weight = opts.weight.empty() ? std::vector<double>(nb, 1.0) : opts.weight;
  CUSCI_EXPECTS(weight.size() == nb, value_error,
                F + ": weight must be the same size as the number of band pairs (" +
                    num(static_cast<std::int64_t>(nb)) + ").");
  for (double w : weight) CUSCI_EXPECTS(!(w < 0), value_error, F + ": weight must be non-negative.");
  CUSCI_EXPECTS(numtaps <= (std::int64_t{1} << 20), value_error,
                F + ": numtaps is too large for a dense solve, got " + num(numtaps));

  // q(n) = sum over bands of w * [f sinc(f n)] from f1 to f2 (the integral of W cos(pi n f)).
  const auto N = static_cast<std::size_t>(numtaps);
  const auto K = static_cast<std::size_t>(M + 1);
  std::vector<double> q(N, 0.0);
  for (std::size_t n = 0; n < N; ++n) {
    const double dn = static_cast<double>(n);
    double s = 0.0;
    for (std::size_t b = 0; b < nb; ++b) {
      const double f1 = f[2 * b], f2 = f[2 * b + 1];
      s += (np_sinc(f2 * dn) * f2 - np_sinc(f1 * dn) * f1) * weight[b];
    }
    q[n] = s;
  }
  // Q = toeplitz(q[:M+1]) + hankel(q[:M+1], q[M:]): Q[i][j] = q[|i-j|] + q[i+j].
  hostla::rmat Q(static_cast<std::int64_t>(K), static_cast<std::int64_t>(K));
  for (std::size_t i = 0; i < K; ++i)
    for (std::size_t j = 0; j < K; ++j)
      Q(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j)) = q[i > j ? i - j : j - i] + q[i + j];
  // b(n) = sum over bands of w * [integral of (m f + c) cos(pi n f)] from f1 to f2.
  hostla::rmat rhs(static_cast<std::int64_t>(K), 1);
  std::vector<double> slope(nb), icpt(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    slope[b] = (desired[2 * b + 1] - desired[2 * b]) / (f[2 * b + 1] - f[2 * b]);
    icpt[b] = desired[2 * b] - f[2 * b] * slope[b];
  }
  for (std::size_t n = 0; n < K; ++n) {
    const double dn = static_cast<double>(n);
    double s = 0.0;
    for (std::size_t b = 0; b < nb; ++b) {
      const double m = slope[b], c = icpt[b];
      double v[2];
      for (int e = 0; e < 2; ++e) {
        const double fb = f[2 * b + static_cast<std::size_t>(e)];
        double t = fb * (m * fb + c) * np_sinc(fb * dn);
        if (n == 0)
          t -= m * fb * fb / 2.;
        else
          t += m * std::cos(dn * kPi * fb) / ((kPi * dn) * (kPi * dn));
        v[e] = t;
      }
      s += (v[1] - v[0]) * weight[b];
    }
    rhs(static_cast<std::int64_t>(n), 0) = s;
  }

  // Cholesky solve; least squares when Q is not positive definite or is ill-conditioned (SciPy's solve
  // with assume_a='pos' raising LinAlgError or warning 'Ill-conditioned matrix').
  std::vector<double> a(K);
  bool solved = false;
  {
    hostla::cholesky_result ch = hostla::cholesky(Q);
    if (ch.ok) {
      const chol_solver s{ch.l};
      double anorm = 0;
      for (std::size_t j = 0; j < K; ++j) {  // Q is symmetric: its column sums are its row sums
        double col = 0;
        for (std::size_t i = 0; i < K; ++i) col += std::abs(Q(static_cast<std::int64_t>(j), static_cast<std::int64_t>(i)));
        anorm = std::max(anorm, col);
      }
      const double ainv = inverse_norm1_estimate(s, static_cast<std::int64_t>(K));
      const double rcond = (anorm == 0 || ainv == 0) ? 0.0 : (1.0 / ainv) / anorm;
      // LAPACK's dlamch('E') (eps / 2) is SciPy's threshold.
      if (!(rcond < kEps / 2) && std::isfinite(rcond)) {
        for (std::size_t i = 0; i < K; ++i) a[i] = rhs(static_cast<std::int64_t>(i), 0);
        s.solve(a);
        solved = true;
      }
    }
  }
  if (!solved) {
    // Minimum-norm least squares, the directions with eigenvalues below eps * max|eigenvalue| dropped
    // (SciPy's gelsy uses cond = eps; for the symmetric positive semidefinite Q the eigen-decomposition
    // is its SVD). The minimum-norm solution of a rank-deficient Q depends on that decision only.
    // (hostla::eigh_solve: the same eigendecomposition, b carried through it, no eigenvectors formed.)
    const hostla::rmat sol = hostla::eigh_solve(Q, rhs, kEps, "cusci::signal::firls");
    for (std::size_t i = 0; i < K; ++i) a[i] = sol(static_cast<std::int64_t>(i), 0);
  }
  // Symmetric taps: a[M], ..., a[1], 2 a[0], a[1], ..., a[M].
  std::vector<double> h(N);
  for (std::size_t i = 0; i < K - 1; ++i) {
    h[i] = a[K - 1 - i];
    h[N - 1 - i] = a[K - 1 - i];
  }
  h[K - 1] = 2 * a[0];
  return host_array::from(h);
}

// ------------------------------------------------------------------------------------ minimum_phase

minimum_phase_method parse_minimum_phase_method(std::string_view s) {
  if (s == "homomorphic") return minimum_phase_method::homomorphic;
  if (s == "hilbert") return minimum_phase_method::hilbert;
  throw value_error("cusci::signal::minimum_phase: method must be \"homomorphic\" or \"hilbert\", got '" +
                    std::string(s) + "'");
}

host_array minimum_phase(const array_like& h_in_arg, const minimum_phase_options& opts) {
  const host_array h_in = h_in_arg.to_host();
  const std::string F = "cusci::signal::minimum_phase";
  CUSCI_EXPECTS(!is_complex(h_in.dtype()), value_error, F + ": Complex filters not supported");
  CUSCI_EXPECTS(!is_bool(h_in.dtype()), type_error,
                F + ": h must have a numeric dtype (numpy boolean subtract is not supported), got bool");
  CUSCI_EXPECTS(h_in.ndim() == 1 && h_in.shape()[0] > 2, value_error,
                F + ": h must be 1-D and at least 2 samples long");
  const std::vector<double> h = h_in.astype(dtype::float64).to_vector<double>();
  const std::int64_t len = static_cast<std::int64_t>(h.size());
  const std::int64_t n_half = len / 2;
  const bool single = h_in.dtype() == dtype::float32 || h_in.dtype() == dtype::float16;
  {
    // SciPy warns only when no pair passes its symmetry test. Single-precision taps are compared in
    // single precision, as SciPy does.
    bool any_ok = false;
    for (std::int64_t i = 0; i < n_half && !any_ok; ++i) {
      const double lo = h[static_cast<std::size_t>(i)], hi = h[static_cast<std::size_t>(len - 1 - i)];
      if (single) {
        const float d = static_cast<float>(hi) - static_cast<float>(lo);
        any_ok = d <= static_cast<float>(1e-8 + 1e-6 * std::abs(static_cast<float>(lo)));
      } else {
        any_ok = hi - lo <= 1e-8 + 1e-6 * std::abs(lo);
      }
    }
    if (!any_ok) warn("RuntimeWarning", F, "h does not appear to by symmetric, conversion may fail");
  }
  const bool hilbert = opts.method == minimum_phase_method::hilbert;
  CUSCI_EXPECTS(!(hilbert && !opts.half), value_error,
                F + ": `half=False` is only supported when `method='homomorphic'`");
  std::int64_t n_fft;
  if (opts.n_fft) {
    n_fft = *opts.n_fft;
  } else {
    const double e = std::ceil(std::log2(2 * static_cast<double>(len - 1) / 0.01));
    CUSCI_EXPECTS(e < 40, value_error, F + ": h is too long for the default n_fft, got len(h)=" + num(len));
    n_fft = std::int64_t{1} << static_cast<int>(e);
  }
  CUSCI_EXPECTS(n_fft >= len, value_error, F + ": n_fft must be at least len(h)==" + num(len) + ", got " + num(n_fft));
  CUSCI_EXPECTS(n_fft <= (std::int64_t{1} << 32), value_error, F + ": n_fft is too large, got " + num(n_fft));
  const auto NF = static_cast<std::size_t>(n_fft);

  std::vector<double> hmin;
  if (hilbert) {
    hmin.resize(NF);
    std::vector<cplx> H(NF, cplx(0.0, 0.0));
    for (std::size_t i = 0; i < h.size(); ++i) H[i] = cplx(h[i], 0.0);
    H = hostla::fft(H, false);
    const double wstep = 2 * kPi / static_cast<double>(n_fft) * static_cast<double>(n_half);
    // The amplitude response of the linear-phase h (real and even in frequency: computed on [0, n_fft/2]
    // and mirrored, so that mirror bins are bitwise equal as in SciPy; the 1e-10 floor added below makes
    // the result sensitive to which bins reach the minimum exactly).
    std::vector<double> A(NF);
    for (std::size_t i = 0; i <= NF / 2; ++i) {
      const double w = static_cast<double>(i) * wstep;
      A[i] = H[i].real() * std::cos(w) - H[i].imag() * std::sin(w);
    }
    for (std::size_t i = NF / 2 + 1; i < NF; ++i) A[i] = A[NF - i];
    const double dp = *std::max_element(A.begin(), A.end()) - 1;
    const double ds = 0 - *std::min_element(A.begin(), A.end());
    const double r = std::sqrt(1 + dp + ds) + std::sqrt(1 - dp + ds);
    const double S = 4. / (r * r);
    std::vector<cplx> logmag(NF);
    std::vector<double> mag(NF);
    for (std::size_t i = 0; i < NF; ++i) {
      mag[i] = std::sqrt((A[i] + ds) * S) + 1e-10;
      logmag[i] = cplx(std::log(mag[i]), 0.0);
    }
    // The modified discrete Hilbert transform: the phase of the minimum-phase filter with magnitude mag.
    std::vector<cplx> cep = hostla::fft(logmag, true);
    const std::size_t mid = NF / 2;
    for (std::size_t i = 0; i < NF; ++i) {
      const double sig = (i >= 1 && i < mid) ? 1.0 : (i > mid ? -1.0 : 0.0);
      cep[i] *= sig;
    }
    std::vector<cplx> ph = hostla::fft(cep, false);
    for (std::size_t i = 0; i < NF; ++i) ph[i] = mag[i] * std::exp(ph[i]);
    ph = hostla::fft(ph, true);
    for (std::size_t i = 0; i < NF; ++i) hmin[i] = ph[i].real();
  } else {
    // The spectrum of the real h, its log magnitude (real and even) and the folded cepstrum (real) are
    // Hermitian-symmetric: SciPy's four complex transforms of n_fft points are real transforms here, on
    // the n_fft/2 + 1 non-negative frequencies (the same values to rounding; the inverse transforms of
    // Hermitian spectra are real, so SciPy's .real drops only rounding).
    // Two buffers carry the whole chain (spectrum A, signal B), so that it touches no new memory.
    std::vector<cplx> A;
    std::vector<double> B;
    hostla::rfft(h.data(), h.size(), n_fft, A);
    const std::size_t NH = A.size();
    double min_pos = std::numeric_limits<double>::infinity();
    bool any_pos = false;
    for (std::size_t i = 0; i < NH; ++i) {
      // |A| (sqrt(re^2 + im^2) unless a square could overflow or underflow: hypot's value to an ulp)
      const double re = A[i].real(), im = A[i].imag();
      const double big = std::max(std::abs(re), std::abs(im));
      const double m = (big < 1e100 && big > 1e-100) ? std::sqrt(re * re + im * im) : std::hypot(re, im);
      A[i] = cplx(m, 0.0);
      if (m > 0) {
        any_pos = true;
        min_pos = std::min(min_pos, m);
      }
    }
    CUSCI_EXPECTS(any_pos, value_error,
                  F + ": the frequency response of h is zero everywhere (zero-size array to reduction operation "
                      "minimum which has no identity)");
    for (std::size_t i = 0; i < NH; ++i) {
      double v = std::log(A[i].real() + 1e-7 * min_pos);
      if (opts.half) v *= 0.5;
      A[i] = cplx(v, 0.0);
    }
    hostla::irfft(A.data(), A.size(), n_fft, B);
    // Fold the real cepstrum onto the causal side: 2 u[n] - d[n], the Nyquist bin kept once (even n_fft).
    const std::size_t stop = NF / 2;
    for (std::size_t i = 1; i < NF; ++i) {
      if (i < stop)
        B[i] *= 2;
      else if (i == stop)
        B[i] *= 1 + static_cast<double>(NF % 2);
      else
        B[i] = 0;
    }
    hostla::rfft(B.data(), B.size(), n_fft, A);
    for (auto& v : A) {  // finite here: exp(re) (cos im, sin im) without cexp's special cases
      const double m = std::exp(v.real());
      v = cplx(m * std::cos(v.imag()), m * std::sin(v.imag()));
    }
    hostla::irfft(A.data(), A.size(), n_fft, B);
    hmin.swap(B);
  }
  const std::int64_t n_out = opts.half ? (n_half + len % 2) : len;
  std::vector<double> out(hmin.begin(), hmin.begin() + n_out);
  host_array r = host_array::from(out);
  // SciPy's homomorphic path stays in the FFT's single precision for float16/32 taps; the hilbert path
  // mixes in float64 arrays and returns float64.
  return (single && !hilbert) ? r.astype(dtype::float32) : r;
}

// ---------------------------------------------------------------------------------------- firwin_2d

host_array firwin_2d(const std::vector<std::int64_t>& hsize, const std::vector<window_spec>& window,
                     const firwin_2d_options& opts) {
  const std::string F = "cusci::signal::firwin_2d";
  CUSCI_EXPECTS(hsize.size() == 2, value_error,
                F + ": hsize must be a 2-element tuple or list, got " + num(static_cast<std::int64_t>(hsize.size())) +
                    " elements");
  if (opts.circular) {
    CUSCI_EXPECTS(!opts.fc.empty(), value_error,
                  F + ": Cutoff frequency `fc` must be provided when `circular` is True");
    CUSCI_EXPECTS(window.size() == 1, value_error,
                  F + ": the circular design takes one window, got " + num(static_cast<std::int64_t>(window.size())));
    CUSCI_EXPECTS(hsize[0] >= 0 && hsize[1] >= 0, value_error,
                  F + ": Number of samples, " + num(std::min(hsize[0], hsize[1])) + ", must be non-negative.");
    const std::int64_t n_r = std::max(hsize[0], hsize[1]) * 8;  // the 1-D design, oversampled 8 times
    firwin_options fo;
    fo.window = window[0];
    fo.fs = opts.fs;
    const host_array win_r_h = firwin(n_r, opts.fc, fo);
    const std::vector<double> win_r = win_r_h.to_vector<double>();
    const std::vector<double> radius_grid = linspace(0.0, 1.0, n_r);
    const std::vector<double> u = linspace(-1.0, 1.0, hsize[0]), v = linspace(-1.0, 1.0, hsize[1]);
    const interpolator interp{radius_grid, win_r};
    std::vector<double> out(static_cast<std::size_t>(hsize[0] * hsize[1]));
    for (std::size_t i = 0; i < v.size(); ++i)
      for (std::size_t j = 0; j < u.size(); ++j)
        out[i * u.size() + j] = interp(std::sqrt(u[j] * u[j] + v[i] * v[i]));
    return host_array::from(out, shape_t{hsize[1], hsize[0]});
  }
  CUSCI_EXPECTS(window.size() == 2, value_error,
                F + ": window must be a 2-element tuple or list, got " + num(static_cast<std::int64_t>(window.size())) +
                    " windows");
  firwin_options fo;
  fo.fs = opts.fs;
  fo.window = window[0];
  const std::vector<double> row = firwin(hsize[0], opts.fc, fo).to_vector<double>();
  fo.window = window[1];
  const std::vector<double> col = firwin(hsize[1], opts.fc, fo).to_vector<double>();
  std::vector<double> out(row.size() * col.size());
  for (std::size_t i = 0; i < row.size(); ++i)
    for (std::size_t j = 0; j < col.size(); ++j) out[i * col.size() + j] = row[i] * col[j];
  return host_array::from(out, shape_t{hsize[0], hsize[1]});
}

}  // namespace cusci::signal
