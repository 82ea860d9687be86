// Host plans of the symmetric IIR engine (sym_iir.hpp): the recursions' coefficients and the
// weights of SciPy's mirror-symmetric initial values, computed in the precision SciPy computes them
// (its C helpers in the data's type, its Python helpers in float64), with SciPy's truncation rules.
// Checked against SciPy by an emulation of the whole engine (see docs/signal-bsplines.md).

#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include "bsplines/sym_iir.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"

namespace cusci::signal::detail {

namespace {

constexpr double pi = 3.14159265358979323846;

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<std::complex<T>> { using type = T; };

[[noreturn]] void not_converged(std::string_view fn) {
  throw value_error(cusci::detail::msg(fn, "Sum to find symmetric boundary conditions did not converge."));
}

// SciPy's _hc (C version): the causal impulse response of the two-pole filter, in T.
template <class T>
T hc(std::int64_t k, T cs, double r, double omega) {
  if (k < 0) return T(0);
  const double kd = static_cast<double>(k);
  if (omega == 0.0) return static_cast<T>(static_cast<double>(cs) * std::pow(r, kd) * (kd + 1));
  if (omega == pi)
    return static_cast<T>(static_cast<double>(cs) * std::pow(r, kd) * (kd + 1) * static_cast<double>(1 - 2 * (k % 2)));
  return static_cast<T>(static_cast<double>(cs) * std::pow(r, kd) * std::sin(omega * (kd + 1)) / std::sin(omega));
}

// SciPy's _hs (C version): the symmetric response, in T.
template <class T>
T hs(std::int64_t k, T cs, double rsq, double omega) {
  const T cssq = cs * cs;
  k = k < 0 ? -k : k;
  const double kd = static_cast<double>(k);
  const double rsupk = std::pow(rsq, kd / 2.0);
  if (omega == 0.0 || omega == pi) {
    const T c0 = static_cast<T>((1 + rsq) / ((1 - rsq) * (1 - rsq) * (1 - rsq)) * static_cast<double>(cssq));
    double gamma = (1 - rsq) / (1 + rsq);
    if (omega == pi) gamma *= static_cast<double>(1 - 2 * (k % 2));
    return static_cast<T>(static_cast<double>(c0) * rsupk * (1 + gamma * kd));
  }
  const T c0 = static_cast<T>(static_cast<double>(cssq) * (1.0 + rsq) / (1.0 - rsq) /
                              (1 - 2 * rsq * std::cos(2 * omega) + rsq * rsq));
  const double gamma = (1.0 - rsq) / (1.0 + rsq) / std::tan(omega);
  return static_cast<T>(static_cast<double>(c0) * rsupk * (std::cos(omega * kd) + gamma * std::sin(omega * kd)));
}

// SciPy's do { ...; err = diff*diff; k++ } while (err > thresh && k < N); if (k >= N) fail.
template <class T, class F>
std::vector<T> truncated(F term, T thresh, std::int64_t N, std::string_view fn) {
  std::vector<T> w;
  std::int64_t k = 0;
  for (;;) {
    const T d = term(k);
    w.push_back(d);
    const T err = d * d;
    ++k;
    if (!(err > thresh && k < N)) break;
  }
  if (k >= N) not_converged(fn);
  return w;
}

}  // namespace

double c_precision(double precision, bool single) {
  if (precision <= 0.0 || precision > 1.0) return single ? 1e-6 : 1e-11;
  return precision;
}

template <class T>
sym_filter<T> plan_symiirorder1(T c0, T z1, double precision, std::int64_t N, std::string_view fn) {
  using R = typename real_of<T>::type;
  CUSCI_EXPECTS(std::abs(z1) < R(1), value_error, cusci::detail::msg(fn, "|z1| must be less than 1.0"));
  const R prec = static_cast<R>(c_precision(precision, sizeof(R) == 4));
  const R prec2 = prec * prec;
  sym_filter<T> f;
  f.D = 1;
  // yp0 = x[0] + sum_{k} z1^(k+1) x[k], powers formed by repeated products in T, as SciPy.
  T powz(1);
  std::vector<T>& w = f.wf[0];
  std::int64_t k = 0;
  for (;;) {
    powz *= z1;
    w.push_back(powz);
    R err = std::abs(powz);
    err *= err;
    ++k;
    if (!(err > prec2 && k < N)) break;
  }
  if (k >= N) not_converged(fn);
  w[0] += T(1);
  f.g_f = T(1);
  f.a1 = z1;
  f.a2 = T(0);
  f.g_b = c0;
  f.q = -c0 / (z1 - T(1));
  return f;
}

template <class T>
sym_filter<T> plan_symiirorder2(double r, double omega, double precision, std::int64_t N, std::string_view fn) {
  CUSCI_EXPECTS(r < 1.0, value_error, cusci::detail::msg(fn, "r must be less than 1.0"));
  const T prec = static_cast<T>(c_precision(precision, sizeof(T) == 4));
  const double rsq = r * r;
  const T cs = static_cast<T>(1 - 2 * r * std::cos(omega) + rsq);
  sym_filter<T> f;
  f.D = 2;
  f.g_f = f.g_b = cs;
  f.a1 = static_cast<T>(2 * r * std::cos(omega));
  f.a2 = static_cast<T>(-rsq);
  // Forward: the C code squares the precision; backward (_sym_iir2_initial_bwd) does not.
  const T p2 = prec * prec;
  f.wf[0] = truncated<T>([&](std::int64_t k) { return hc<T>(k + 1, cs, r, omega); }, p2, N, fn);
  f.wf[0][0] += hc<T>(0, cs, r, omega);
  f.wf[1] = truncated<T>([&](std::int64_t k) { return hc<T>(k + 2, cs, r, omega); }, p2, N, fn);
  f.wf[1][0] += hc<T>(1, cs, r, omega);  // hc(1) x[0]
  if (f.wf[1].size() < 2) f.wf[1].push_back(T(0));
  f.wf[1][1] += hc<T>(0, cs, r, omega);  // hc(0) x[1]  (N >= 2 here)
  f.wb[0] = truncated<T>([&](std::int64_t k) { return static_cast<T>(hs<T>(k, cs, rsq, omega) + hs<T>(k + 1, cs, rsq, omega)); },
                         prec, N, fn);
  f.wb[1] = truncated<T>(
      [&](std::int64_t k) { return static_cast<T>(hs<T>(k - 1, cs, rsq, omega) + hs<T>(k + 2, cs, rsq, omega)); }, prec, N, fn);
  return f;
}

sym_filter<double> plan_spline_coeff(bool quadratic, std::int64_t N) {
  const double zi = quadratic ? -3 + 2 * std::sqrt(2.0) : -2 + std::sqrt(3.0);
  // SciPy multiplies by 6 (8) except for a single sample, whose value it returns unscaled.
  const double scale = N == 1 ? 1.0 : (quadratic ? 8.0 : 6.0);
  sym_filter<double> f;
  f.D = 1;
  // y[0] = x[0] + zi * sum_k zi^k x[k] over the whole signal; the powers that underflow to 0 add
  // nothing, so the sum stops there.
  double p = 1.0;
  for (std::int64_t k = 0; k < N; ++k) {
    const double t = zi * p;
    if (t == 0.0) break;
    f.wf[0].push_back(t);
    p *= zi;
  }
  if (f.wf[0].empty()) f.wf[0].push_back(0.0);
  f.wf[0][0] += 1.0;
  f.g_f = 1.0;
  f.a1 = zi;
  f.g_b = -zi * scale;
  f.q = zi / (zi - 1) * scale;
  return f;
}

sym_filter<double> plan_cubic_smooth(double lam, std::int64_t N, std::string_view fn) {
  auto domain = [&](bool ok) { CUSCI_EXPECTS(ok, value_error, cusci::detail::msg(fn, "math domain error")); };
  domain(3 + 144 * lam >= 0);
  const double xi = 1 - 96 * lam + 24 * lam * std::sqrt(3 + 144 * lam);
  domain(144 * lam - 1 >= 0);
  domain(xi >= 0);
  const double omega = std::atan2(std::sqrt(144 * lam - 1), std::sqrt(xi));
  CUSCI_EXPECTS(xi != 0.0, value_error, cusci::detail::msg(fn, "float division by zero"));
  double rho = (24 * lam - 1 - std::sqrt(xi)) / (24 * lam);
  rho = rho * std::sqrt((48 * lam + 24 * lam * std::sqrt(3 + 144 * lam)) / xi);
  const double cs = 1 - 2 * rho * std::cos(omega) + rho * rho;
  // SciPy's Python _hc / _hs (numpy arithmetic: a division by sin(0) gives inf / nan, no error).
  auto H = [&](std::int64_t k) {
    if (k < 0) return 0.0;
    return cs / std::sin(omega) * std::pow(rho, static_cast<double>(k)) * std::sin(omega * static_cast<double>(k + 1));
  };
  const double c0 = cs * cs * (1 + rho * rho) / (1 - rho * rho) / (1 - 2 * rho * rho * std::cos(2 * omega) + std::pow(rho, 4));
  const double gamma = (1 - rho * rho) / (1 + rho * rho) / std::tan(omega);
  auto S = [&](std::int64_t k) {
    const double a = static_cast<double>(k < 0 ? -k : k);
    return c0 * std::pow(rho, a) * (std::cos(omega * a) + gamma * std::sin(omega * a));
  };
  sym_filter<double> f;
  f.D = 2;
  f.g_f = f.g_b = cs;
  f.a1 = 2 * rho * std::cos(omega);
  f.a2 = -rho * rho;
  // Full-length sums as SciPy's; terms past the underflow of rho^k are exact zeros and dropped.
  auto fill = [&](std::vector<double>& w, auto term) {
    for (std::int64_t k = 0; k < N; ++k) {
      const double t = term(k);
      if (k >= 4 && std::pow(std::abs(rho), static_cast<double>(k) - 1) == 0.0) break;
      w.push_back(t);
    }
  };
  fill(f.wf[0], [&](std::int64_t k) { return H(k + 1); });
  f.wf[0][0] += H(0);
  fill(f.wf[1], [&](std::int64_t k) { return H(k + 2); });
  f.wf[1][0] += H(0);  // SciPy's Python form: hc(0) x[0] + hc(1) x[1] (not the C code's order)
  f.wf[1][1] += H(1);
  fill(f.wb[0], [&](std::int64_t k) { return S(k) + S(k + 1); });
  fill(f.wb[1], [&](std::int64_t k) { return S(k - 1) + S(k + 2); });
  return f;
}

void root_from_lambda(double lamb, double& r, double& omega) {
  const double tmp = std::sqrt(3 + 144 * lamb);
  const double xi = 1 - 96 * lamb + 24 * lamb * tmp;
  omega = std::atan(std::sqrt((144 * lamb - 1.0) / xi));
  const double tmp2 = std::sqrt(xi);
  r = (24 * lamb - 1 - tmp2) / (24 * lamb) * std::sqrt(48 * lamb + 24 * lamb * tmp) / tmp2;
}

template sym_filter<float> plan_symiirorder1<float>(float, float, double, std::int64_t, std::string_view);
template sym_filter<double> plan_symiirorder1<double>(double, double, double, std::int64_t, std::string_view);
template sym_filter<std::complex<float>> plan_symiirorder1<std::complex<float>>(std::complex<float>, std::complex<float>,
                                                                               double, std::int64_t, std::string_view);
template sym_filter<std::complex<double>> plan_symiirorder1<std::complex<double>>(std::complex<double>,
                                                                                 std::complex<double>, double,
                                                                                 std::int64_t, std::string_view);
template sym_filter<float> plan_symiirorder2<float>(double, double, double, std::int64_t, std::string_view);
template sym_filter<double> plan_symiirorder2<double>(double, double, double, std::int64_t, std::string_view);

}  // namespace cusci::signal::detail
