#pragma once
// (internal to core/src/hostla) LAPACK-style building blocks shared by the hostla sources: a 1-based
// column-major view, machine constants as dlamch, scaled 2-norms and the elementary reflector larfg.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cusci/detail/host_linalg.hpp"

namespace cusci::detail::hostla::kern {

// Column-major 1-based view over a work array (leading dimension ld).
template <class T>
struct fm {
  T* p;
  std::int64_t ld;
  T& operator()(std::int64_t i, std::int64_t j) const { return p[(j - 1) * ld + (i - 1)]; }
};

constexpr double kSafmin = std::numeric_limits<double>::min();       // dlamch('S')
constexpr double kEps = std::numeric_limits<double>::epsilon() / 2;  // dlamch('E')
constexpr double kUlp = std::numeric_limits<double>::epsilon();      // dlamch('P')

inline double sign(double a, double b) { return std::signbit(b) ? -std::fabs(a) : std::fabs(a); }
inline double cabs1(cplx z) { return std::fabs(z.real()) + std::fabs(z.imag()); }
inline double absv(double x) { return std::fabs(x); }
inline double absv(cplx x) { return std::abs(x); }
inline double sq(double x) { return x * x; }
inline bool nonzero(double x) { return x != 0.0; }
inline bool nonzero(cplx x) { return x.real() != 0.0 || x.imag() != 0.0; }
inline double conjv(double x) { return x; }
inline cplx conjv(cplx x) { return std::conj(x); }

// 2-norm of n entries with stride inc, scaled against overflow.
template <class T>
inline double nrm2(std::int64_t n, const T* x, std::int64_t inc) {
  double scale = 0, ssq = 1;
  for (std::int64_t i = 0; i < n; ++i) {
    double parts[2];
    int np = 1;
    if constexpr (std::is_same_v<T, cplx>) {
      parts[0] = x[i * inc].real();
      parts[1] = x[i * inc].imag();
      np = 2;
    } else {
      parts[0] = x[i * inc];
    }
    for (int q = 0; q < np; ++q) {
      double a = std::fabs(parts[q]);
      if (a == 0) continue;
      if (scale < a) {
        ssq = 1 + ssq * sq(scale / a);
        scale = a;
      } else {
        ssq += sq(a / scale);
      }
    }
  }
  return scale * std::sqrt(ssq);
}

inline double lapy2(double x, double y) { return std::hypot(x, y); }
inline double lapy3(double x, double y, double z) {
  double w = std::max({std::fabs(x), std::fabs(y), std::fabs(z)});
  if (w == 0) return std::fabs(x) + std::fabs(y) + std::fabs(z);
  return w * std::sqrt(sq(x / w) + sq(y / w) + sq(z / w));
}

// ---- larfg: elementary reflector H = I - tau v v^H with v(1) = 1, H^H (alpha; x) = (beta; 0) ----------
inline void larfg(std::int64_t n, double& alpha, double* x, std::int64_t inc, double& tau) {
  if (n <= 1) {
    tau = 0;
    return;
  }
  double xnorm = nrm2(n - 1, x, inc);
  if (xnorm == 0) {
    tau = 0;
    return;
  }
  double beta = -sign(lapy2(alpha, xnorm), alpha);
  const double safmin = kSafmin / kEps;
  int knt = 0;
  if (std::fabs(beta) < safmin) {
    double rsafmn = 1 / safmin;
    do {
      ++knt;
      for (std::int64_t i = 0; i < n - 1; ++i) x[i * inc] *= rsafmn;
      beta *= rsafmn;
      alpha *= rsafmn;
    } while (std::fabs(beta) < safmin && knt < 20);
    xnorm = nrm2(n - 1, x, inc);
    beta = -sign(lapy2(alpha, xnorm), alpha);
  }
  tau = (beta - alpha) / beta;
  double sc = 1 / (alpha - beta);
  for (std::int64_t i = 0; i < n - 1; ++i) x[i * inc] *= sc;
  for (int j = 0; j < knt; ++j) beta *= safmin;
  alpha = beta;
}

inline void larfg(std::int64_t n, cplx& alpha, cplx* x, std::int64_t inc, cplx& tau) {
  if (n <= 0) {
    tau = 0;
    return;
  }
  double xnorm = nrm2(n - 1, x, inc);
  double alphr = alpha.real(), alphi = alpha.imag();
  if (xnorm == 0 && alphi == 0) {
    tau = 0;
    return;
  }
  double beta = -sign(lapy3(alphr, alphi, xnorm), alphr);
  const double safmin = kSafmin / kEps;
  int knt = 0;
  if (std::fabs(beta) < safmin) {
    double rsafmn = 1 / safmin;
    do {
      ++knt;
      for (std::int64_t i = 0; i < n - 1; ++i) x[i * inc] *= rsafmn;
      beta *= rsafmn;
      alphi *= rsafmn;
      alphr *= rsafmn;
    } while (std::fabs(beta) < safmin && knt < 20);
    xnorm = nrm2(n - 1, x, inc);
    alpha = cplx(alphr, alphi);
    beta = -sign(lapy3(alphr, alphi, xnorm), alphr);
  }
  tau = cplx((beta - alphr) / beta, -alphi / beta);
  cplx sc = cplx(1.0) / (alpha - beta);
  for (std::int64_t i = 0; i < n - 1; ++i) x[i * inc] *= sc;
  for (int j = 0; j < knt; ++j) beta *= safmin;
  alpha = beta;
}

}  // namespace cusci::detail::hostla::kern
