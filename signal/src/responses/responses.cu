// Kernels of the responses family: direct evaluation of digital frequency responses in float64, one
// thread per frequency. A thread computes z^-1 = exp(-i w) once (sincos) and evaluates every filter of
// its group by Horner's rule, so the transcendental cost is shared by the filters of a batch; the
// coefficients are read with uniform (broadcast) loads, the same address for every thread of a warp.
// h is written [K, n] row-major: consecutive threads write consecutive frequencies (coalesced).

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "responses/responses_detail.hpp"

namespace cusci::signal::detail {

namespace {

struct cd {
  double re, im;
};

__device__ __forceinline__ cd cmul(cd a, cd b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
__device__ __forceinline__ cd cadd(cd a, cd b) { return {a.re + b.re, a.im + b.im}; }
__device__ __forceinline__ cd cadd(cd a, double b) { return {a.re + b, a.im}; }
__device__ __forceinline__ cd csub(cd a, cd b) { return {a.re - b.re, a.im - b.im}; }

// NumPy's complex division (Smith's method; a zero divisor gives NumPy's infinities / NaNs).
__device__ __forceinline__ cd cdiv(cd x, cd y) {
  const double ar = fabs(y.re), ai = fabs(y.im);
  if (ar >= ai) {
    if (ar == 0 && ai == 0) return {x.re / ar, x.im / ai};
    const double rat = y.im / y.re, scl = 1.0 / (y.re + y.im * rat);
    return {(x.re + x.im * rat) * scl, (x.im - x.re * rat) * scl};
  }
  const double rat = y.re / y.im, scl = 1.0 / (y.im + y.re * rat);
  return {(x.re * rat + x.im) * scl, (x.im * rat - x.re) * scl};
}

template <class T> struct coef;
template <> struct coef<double> {
  __device__ static cd horner(const double* __restrict__ c, std::int64_t n, cd x) {
    cd acc{c[n - 1], 0.0};
    for (std::int64_t j = n - 2; j >= 0; --j) acc = cadd(cmul(acc, x), c[j]);
    return acc;
  }
  __device__ static cd at(const double* c, std::int64_t j) { return {c[j], 0.0}; }
  __device__ static double raw(const double* c, std::int64_t j) { return c[j]; }
};
template <> struct coef<cd> {
  __device__ static cd horner(const cd* __restrict__ c, std::int64_t n, cd x) {
    cd acc = c[n - 1];
    for (std::int64_t j = n - 2; j >= 0; --j) acc = cadd(cmul(acc, x), c[j]);
    return acc;
  }
  __device__ static cd at(const cd* c, std::int64_t j) { return c[j]; }
  __device__ static cd raw(const cd* c, std::int64_t j) { return c[j]; }
};

// The grid in kernel form (grid_spec without host-only members).
struct kgrid {
  std::int64_t n;
  double step, stop, fs, out_scale;
  bool count, endpoint;
};

__device__ __forceinline__ double w_at(const kgrid& g, std::int64_t i, const double* __restrict__ f) {
  if (g.count) return (g.endpoint && g.n > 1 && i == g.n - 1) ? g.stop : static_cast<double>(i) * g.step;
  return 6.283185307179586 * f[i] / g.fs;
}

// Frequency i of the grid: writes w_i (in the units of fs) to w_out when `writer`, returns
// exp(sign i w_i) (sign -1: z^-1 for the Horner forms; +1: z for the root products).
__device__ __forceinline__ cd grid_point(const kgrid& g, std::int64_t i, const double* __restrict__ f, double sign,
                                         double* __restrict__ w_out, bool writer) {
  const double w = w_at(g, i, f);
  double s, c;
  sincos(w, &s, &c);
  if (w_out != nullptr && writer) w_out[i] = w * g.out_scale;
  return {c, sign * s};
}

kgrid to_kgrid(const grid_spec& g) { return {g.n, g.step, g.stop, g.fs, g.out_scale, g.count, g.endpoint}; }

constexpr int kThreads = 256;
constexpr int kGroup = 8;  // filters per thread: the sincos of a frequency is shared by this many

// blockIdx.y (strided) picks a group of up to kGroup filters.
template <class TB, class TA>
__global__ void freqz_ba_kernel(const TB* __restrict__ b, std::int64_t ntaps, const TA* __restrict__ a, std::int64_t na,
                                bool a_batched, std::int64_t K, kgrid g, const double* __restrict__ f,
                                double* __restrict__ w_out, cd* __restrict__ h) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= g.n) return;
  const cd x = grid_point(g, i, f, -1.0, w_out, blockIdx.y == 0);
  const bool fir = na == 1 && !a_batched;
  for (std::int64_t k0 = static_cast<std::int64_t>(blockIdx.y) * kGroup; k0 < K;
       k0 += static_cast<std::int64_t>(gridDim.y) * kGroup) {
    const std::int64_t k1 = k0 + kGroup < K ? k0 + kGroup : K;
    if (k1 - k0 == kGroup) {
      // A full group: the kGroup Horner recurrences advance together (independent chains of
      // dependent multiply-adds, which keeps the float64 pipes busy at any occupancy).
      cd B[kGroup];
#pragma unroll
      for (int q = 0; q < kGroup; ++q) B[q] = coef<TB>::at(b + (k0 + q) * ntaps, ntaps - 1);
      for (std::int64_t j = ntaps - 2; j >= 0; --j) {
#pragma unroll
        for (int q = 0; q < kGroup; ++q) B[q] = cadd(cmul(B[q], x), coef<TB>::raw(b + (k0 + q) * ntaps, j));
      }
#pragma unroll
      for (int q = 0; q < kGroup; ++q) {
        const std::int64_t k = k0 + q;
        const TA* ak = a + (a_batched ? k * na : 0);
        const cd A = fir ? coef<TA>::at(ak, 0) : coef<TA>::horner(ak, na, x);
        h[k * g.n + i] = cdiv(B[q], A);
      }
      continue;
    }
    for (std::int64_t k = k0; k < k1; ++k) {
      const cd B = coef<TB>::horner(b + k * ntaps, ntaps, x);
      const TA* ak = a + (a_batched ? k * na : 0);
      const cd A = fir ? coef<TA>::at(ak, 0) : coef<TA>::horner(ak, na, x);
      h[k * g.n + i] = cdiv(B, A);
    }
  }
}

// sos [K, ns, 6]; blockIdx.y (strided) picks the filter.
template <class T>
__global__ void freqz_sos_kernel(const T* __restrict__ sos, std::int64_t ns, std::int64_t K, kgrid g,
                                 const double* __restrict__ f, double* __restrict__ w_out, cd* __restrict__ h) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= g.n) return;
  const cd x = grid_point(g, i, f, -1.0, w_out, blockIdx.y == 0);
  for (std::int64_t k = blockIdx.y; k < K; k += gridDim.y) {
    const T* sk = sos + k * ns * 6;
    cd acc{1.0, 0.0};
    for (std::int64_t j = 0; j < ns; ++j) {
      const cd hs = cdiv(coef<T>::horner(sk + j * 6, 3, x), coef<T>::horner(sk + j * 6 + 3, 3, x));
      acc = j == 0 ? hs : cmul(acc, hs);
    }
    h[k * g.n + i] = acc;
  }
}

__global__ void freqz_zpk_kernel(const cd* __restrict__ z, std::int64_t nz, const cd* __restrict__ p, std::int64_t np,
                                 double k, kgrid g, const double* __restrict__ f, double* __restrict__ w_out,
                                 cd* __restrict__ h) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= g.n) return;
  const cd x = grid_point(g, i, f, 1.0, w_out, true);
  cd num{1.0, 0.0}, den{1.0, 0.0};
  for (std::int64_t j = 0; j < nz; ++j) num = cmul(num, csub(x, z[j]));
  for (std::int64_t j = 0; j < np; ++j) den = cmul(den, csub(x, p[j]));
  h[i] = cdiv(cd{k * num.re, k * num.im}, den);
}

// h[k, i] = H[k * ldh + i] / a0 for i < n (the first n bins of each transformed row), and w.
template <class TA>
__global__ void fft_finish_kernel(const cd* __restrict__ H, std::int64_t ldh, std::int64_t K, const TA* __restrict__ a,
                                  kgrid g, double* __restrict__ w_out, cd* __restrict__ h) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= g.n) return;
  if (w_out != nullptr && blockIdx.y == 0) w_out[i] = w_at(g, i, nullptr) * g.out_scale;
  const cd a0 = coef<TA>::at(a, 0);
  for (std::int64_t k = blockIdx.y; k < K; k += gridDim.y) h[k * g.n + i] = cdiv(H[k * ldh + i], a0);
}

// Blocks of kThreads frequencies along x, the filter groups (strided past 65535) along y.
dim3 grid_of(std::int64_t n, std::int64_t groups, const char* fn) {
  const std::int64_t bx = (n + kThreads - 1) / kThreads;
  CUSCI_EXPECTS(bx < 2147483647LL, value_error, std::string(fn) + ": too many frequencies for one launch");
  const std::int64_t by = groups < 65535 ? groups : 65535;
  return dim3(static_cast<unsigned>(bx), static_cast<unsigned>(by > 0 ? by : 1), 1);
}

}  // namespace

void freqz_ba_device(const void* b, bool b_complex, std::int64_t ntaps, const void* a, bool a_complex, std::int64_t na,
                     bool a_batched, std::int64_t K, const grid_spec& gs, const double* f, double* w_out, void* h) {
  if (gs.n <= 0 || K <= 0) return;
  const dim3 grid = grid_of(gs.n, (K + kGroup - 1) / kGroup, "cusci::signal::freqz");
  const kgrid g = to_kgrid(gs);
  cudaStream_t st = get_current_stream();
  cd* hh = static_cast<cd*>(h);
  if (b_complex && a_complex)
    freqz_ba_kernel<cd, cd><<<grid, kThreads, 0, st>>>(static_cast<const cd*>(b), ntaps, static_cast<const cd*>(a), na,
                                                       a_batched, K, g, f, w_out, hh);
  else if (b_complex)
    freqz_ba_kernel<cd, double><<<grid, kThreads, 0, st>>>(static_cast<const cd*>(b), ntaps, static_cast<const double*>(a),
                                                           na, a_batched, K, g, f, w_out, hh);
  else if (a_complex)
    freqz_ba_kernel<double, cd><<<grid, kThreads, 0, st>>>(static_cast<const double*>(b), ntaps, static_cast<const cd*>(a),
                                                           na, a_batched, K, g, f, w_out, hh);
  else
    freqz_ba_kernel<double, double><<<grid, kThreads, 0, st>>>(static_cast<const double*>(b), ntaps,
                                                               static_cast<const double*>(a), na, a_batched, K, g, f,
                                                               w_out, hh);
  CUSCI_CHECK_LAUNCH();
}

void freqz_fft_finish_device(const void* H, std::int64_t ldh, std::int64_t K, const void* a, bool a_complex,
                             const grid_spec& gs, double* w_out, void* h) {
  if (gs.n <= 0 || K <= 0) return;
  const dim3 grid = grid_of(gs.n, K, "cusci::signal::freqz");
  const kgrid g = to_kgrid(gs);
  cudaStream_t st = get_current_stream();
  if (a_complex)
    fft_finish_kernel<cd><<<grid, kThreads, 0, st>>>(static_cast<const cd*>(H), ldh, K, static_cast<const cd*>(a), g,
                                                     w_out, static_cast<cd*>(h));
  else
    fft_finish_kernel<double><<<grid, kThreads, 0, st>>>(static_cast<const cd*>(H), ldh, K,
                                                         static_cast<const double*>(a), g, w_out, static_cast<cd*>(h));
  CUSCI_CHECK_LAUNCH();
}

void freqz_sos_device(const void* sos, bool complex_sos, std::int64_t ns, std::int64_t K, const grid_spec& gs,
                      const double* f, double* w_out, void* h) {
  if (gs.n <= 0 || K <= 0) return;
  const dim3 grid = grid_of(gs.n, K, "cusci::signal::freqz_sos");
  const kgrid g = to_kgrid(gs);
  cudaStream_t st = get_current_stream();
  if (complex_sos)
    freqz_sos_kernel<cd><<<grid, kThreads, 0, st>>>(static_cast<const cd*>(sos), ns, K, g, f, w_out, static_cast<cd*>(h));
  else
    freqz_sos_kernel<double><<<grid, kThreads, 0, st>>>(static_cast<const double*>(sos), ns, K, g, f, w_out,
                                                        static_cast<cd*>(h));
  CUSCI_CHECK_LAUNCH();
}

void freqz_zpk_device(const void* z, std::int64_t nz, const void* p, std::int64_t np, double k, const grid_spec& gs,
                      const double* f, double* w_out, void* h) {
  if (gs.n <= 0) return;
  const dim3 grid = grid_of(gs.n, 1, "cusci::signal::freqz_zpk");
  const kgrid g = to_kgrid(gs);
  freqz_zpk_kernel<<<grid, kThreads, 0, get_current_stream()>>>(
      static_cast<const cd*>(z), nz, static_cast<const cd*>(p), np, k, g, f, w_out, static_cast<cd*>(h));
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail
