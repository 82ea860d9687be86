// Device kernels of the fast Hankel transform (fftlog.cpp): the n // 2 + 1 FFTLog coefficients u_m
// (SciPy's fhtcoeff), one thread per m, and the bias power laws exp(factor ((j - j_c) dln + add)).
//
// The coefficient kernel mirrors detail::fht_coefficients / detail::log_gamma of fftlog.cpp operation by
// operation (complex log-gamma by the recurrence log Gamma(z) = log Gamma(z + N) - sum log(z + k) up to
// |z| >= 15 and Re z >= 0.5, then Stirling's series with the Bernoulli terms up to B_16), in float64.
// Every product and sum goes through the __d*_rn intrinsics so that nvcc does not contract them into
// fused multiply-adds: the host code (x86-64 without FMA) rounds each operation, and the device results
// then differ from the host's only by the last-ulp differences of log / atan2 / hypot / exp / sincos.
// The m = 0 coefficient, with its special cases (poles of the gamma functions, the singular transforms
// and their warning), is computed on the host (one point) and passed in; thread 0 stores it.

#include <cstdint>

#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"

namespace cusci::fft::detail {
namespace {

constexpr double kHalfLog2Pi = 0.91893853320467274178;

struct cplx {
  double re, im;
};

__device__ __forceinline__ cplx c_add(cplx a, cplx b) { return {__dadd_rn(a.re, b.re), __dadd_rn(a.im, b.im)}; }
__device__ __forceinline__ cplx c_sub(cplx a, cplx b) { return {__dsub_rn(a.re, b.re), __dsub_rn(a.im, b.im)}; }
__device__ __forceinline__ cplx c_mul(cplx a, cplx b) {
  return {__dsub_rn(__dmul_rn(a.re, b.re), __dmul_rn(a.im, b.im)),
          __dadd_rn(__dmul_rn(a.re, b.im), __dmul_rn(a.im, b.re))};
}
__device__ __forceinline__ cplx c_scale(double s, cplx a) { return {__dmul_rn(s, a.re), __dmul_rn(s, a.im)}; }
// 1 / w by Smith's method (w finite, non-zero).
__device__ __forceinline__ cplx c_recip(cplx w) {
  if (fabs(w.re) >= fabs(w.im)) {
    const double r = __ddiv_rn(w.im, w.re), den = __dadd_rn(w.re, __dmul_rn(w.im, r));
    return {__ddiv_rn(1.0, den), __ddiv_rn(-r, den)};
  }
  const double r = __ddiv_rn(w.re, w.im), den = __dadd_rn(__dmul_rn(w.re, r), w.im);
  return {__ddiv_rn(r, den), __ddiv_rn(-1.0, den)};
}
// Principal log: (log |z|, arg z).
__device__ __forceinline__ cplx c_log(cplx z) { return {log(hypot(z.re, z.im)), atan2(z.im, z.re)}; }

// Stirling's series for log Gamma(w), |w| >= 15 (as fftlog.cpp's stirling).
__device__ cplx stirling(cplx w) {
  constexpr double c[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156,
                          -3617.0 / 122400};
  const cplx w2 = c_recip(c_mul(w, w));
  cplx s{0.0, 0.0}, p = c_recip(w);
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    s = c_add(s, c_scale(c[k], p));
    p = c_mul(p, w2);
  }
  // (w - 0.5) log(w) - w + log(2 pi) / 2 + s, left to right
  cplx r = c_mul(cplx{__dsub_rn(w.re, 0.5), w.im}, c_log(w));
  r = c_sub(r, w);
  r.re = __dadd_rn(r.re, kHalfLog2Pi);
  return c_add(r, s);
}

__device__ __forceinline__ bool is_pole(double x) { return x <= 0 && floor(x) == x; }

// log Gamma(x + i y) with exp(result) = Gamma(x + i y) (as fftlog.cpp's log_gamma); NaN at the poles.
__device__ cplx log_gamma(double x, double y) {
  if (y == 0 && is_pole(x)) return {__longlong_as_double(0x7ff8000000000000LL), __longlong_as_double(0x7ff8000000000000LL)};
  cplx z{x, y}, shift{0.0, 0.0};
  while (hypot(z.re, z.im) < 15.0 || z.re < 0.5) {
    shift = c_add(shift, c_log(z));
    z.re = __dadd_rn(z.re, 1.0);
  }
  return c_sub(stirling(z), shift);
}

// u[k] = 2^q Gamma(xp + i y) / Gamma(xm - i y) exp(2 i (ln 2 - lnkr) y), evaluated as exp of the
// log-gammas' combination as in fftlog.cpp's fht_coefficients, with y = k step (the last point ymax
// exactly, as numpy.linspace), the Nyquist coefficient real for even n, and u[0] = u0 (from the host).
__global__ void fht_coeff_kernel(double* __restrict__ u, std::int64_t m, bool even, double xm, double xp, double q,
                                 double lnkr, double step, double ymax, double u0re, double u0im) {
  constexpr double kLn2 = 0.69314718055994530942;
  const double ln2q = __dmul_rn(kLn2, q), phase = __dmul_rn(2.0, __dsub_rn(kLn2, lnkr));
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < m;
       k += static_cast<std::int64_t>(blockDim.x) * gridDim.x) {
    double vr, vi;
    if (k == 0) {
      vr = u0re;
      vi = u0im;
    } else {
      const double y = (k == m - 1) ? ymax : __dmul_rn(static_cast<double>(k), step);
      const cplx gm = log_gamma(xm, y), gp = log_gamma(xp, y);
      const double re = __dadd_rn(__dsub_rn(gp.re, gm.re), ln2q);
      const double im = __dadd_rn(__dadd_rn(gp.im, gm.im), __dmul_rn(phase, y));
      const double e = exp(re);
      if (im == 0) {
        vr = e;
        vi = im;
      } else {
        double s, c;
        sincos(im, &s, &c);
        vr = __dmul_rn(e, c);
        vi = __dmul_rn(e, s);
      }
      if (even && k == m - 1) vi = 0.0;  // the Nyquist coefficient is real
    }
    u[2 * k] = vr;
    u[2 * k + 1] = vi;
  }
}

__global__ void power_law_kernel(double* __restrict__ w, std::int64_t n, double factor, double dln, double add,
                                 double jc) {
  for (std::int64_t j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<std::int64_t>(blockDim.x) * gridDim.x)
    w[j] = exp(__dmul_rn(factor, __dadd_rn(__dmul_rn(__dsub_rn(static_cast<double>(j), jc), dln), add)));
}

unsigned blocks_for(std::int64_t n, int block) {
  std::int64_t g = (n + block - 1) / block;
  if (g < 1) g = 1;
  if (g > 65535LL * 32) g = 65535LL * 32;
  return static_cast<unsigned>(g);
}

}  // namespace

// Fills u (m = n // 2 + 1 interleaved complex128 values, device memory) on the current stream.
void launch_fht_coefficients(double* u, std::int64_t m, bool even, double xm, double xp, double q, double lnkr,
                             double step, double ymax, double u0re, double u0im) {
  if (m <= 0) return;
  constexpr int block = 128;
  fht_coeff_kernel<<<blocks_for(m, block), block, 0, get_current_stream()>>>(u, m, even, xm, xp, q, lnkr, step, ymax,
                                                                             u0re, u0im);
  CUSCI_CHECK_LAUNCH();
}

// Fills w[j] = exp(factor ((j - jc) dln + add)), j < n (float64, device memory) on the current stream.
void launch_power_law(double* w, std::int64_t n, double factor, double dln, double add, double jc) {
  if (n <= 0) return;
  constexpr int block = 256;
  power_law_kernel<<<blocks_for(n, block), block, 0, get_current_stream()>>>(w, n, factor, dln, add, jc);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::fft::detail
