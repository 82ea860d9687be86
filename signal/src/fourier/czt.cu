// Kernels of the chirp z-transform (Bluestein): premultiply and zero-pad, multiply by the kernel's
// spectrum, postmultiply the slice [n-1, n-1+m); the two transforms between are batched in-place cuFFT
// Z2Z calls of length nfft.
#include <cufft.h>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "fourier/fourier_detail.hpp"
#include "fourier/fourier_kernels.cuh"

namespace cusci::signal::detail {

namespace {

template <class T> struct as_c128;
template <> struct as_c128<float> {
  static __device__ __forceinline__ double2 get(float v) { return make_double2(v, 0.0); }
};
template <> struct as_c128<double> {
  static __device__ __forceinline__ double2 get(double v) { return make_double2(v, 0.0); }
};
template <> struct as_c128<float2> {
  static __device__ __forceinline__ double2 get(float2 v) { return make_double2(v.x, v.y); }
};
template <> struct as_c128<double2> {
  static __device__ __forceinline__ double2 get(double2 v) { return v; }
};

// buf[r, j] = x[r, j] * awk2[j] for j < n, 0 for n <= j < nfft.
template <class T>
__global__ void czt_premul_kernel(const T* __restrict__ x, std::int64_t rows, std::int64_t n, std::int64_t nfft,
                                  const double2* __restrict__ awk2, double2* __restrict__ buf) {
  CUSCI_FOURIER_ROWS(r, rows) {
    CUSCI_FOURIER_COLS(j, nfft) {
      double2 v = make_double2(0.0, 0.0);
      if (j < n) {
        double2 xv = as_c128<T>::get(x[r * n + j]);
        // SciPy: x * Awk2 (a real x multiplies both parts).
        v = cmul(xv, awk2[j]);
      }
      buf[r * nfft + j] = v;
    }
  }
}

__global__ void czt_kernel_mul(double2* __restrict__ buf, std::int64_t rows, std::int64_t nfft,
                               const double2* __restrict__ fwk2) {
  CUSCI_FOURIER_ROWS(r, rows) {
    CUSCI_FOURIER_COLS(j, nfft) { buf[r * nfft + j] = cmul(fwk2[j], buf[r * nfft + j]); }
  }
}

// out[r, i] = buf[r, n - 1 + i] / nfft * wk2[i].
__global__ void czt_postmul_kernel(const double2* __restrict__ buf, std::int64_t rows, std::int64_t n,
                                   std::int64_t m, std::int64_t nfft, const double2* __restrict__ wk2,
                                   double inv_nfft, double2* __restrict__ out) {
  CUSCI_FOURIER_ROWS(r, rows) {
    CUSCI_FOURIER_COLS(i, m) {
      out[r * m + i] = cmul(cscale(buf[r * nfft + n - 1 + i], inv_nfft), wk2[i]);
    }
  }
}

template <class T>
void premul(const ndarray& x, std::int64_t rows, std::int64_t n, std::int64_t nfft, const ndarray& awk2,
            double2* buf, cudaStream_t s) {
  czt_premul_kernel<T><<<row_grid(nfft, rows), 256, 0, s>>>(x.data_as<T>(), rows, n, nfft, awk2.data_as<double2>(),
                                                            buf);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void czt_apply(const ndarray& x, ndarray& out, std::int64_t rows, std::int64_t n, std::int64_t m, std::int64_t nfft,
               const ndarray& awk2, const ndarray& fwk2, const ndarray& wk2) {
  if (rows <= 0) return;
  const cudaStream_t s = get_current_stream();
  ndarray buf = cusci::empty({rows, nfft}, dtype::complex128);
  double2* b = buf.data_as<double2>();
  switch (x.dtype()) {
    case dtype::float32: premul<float>(x, rows, n, nfft, awk2, b, s); break;
    case dtype::float64: premul<double>(x, rows, n, nfft, awk2, b, s); break;
    case dtype::complex64: premul<float2>(x, rows, n, nfft, awk2, b, s); break;
    case dtype::complex128: premul<double2>(x, rows, n, nfft, awk2, b, s); break;
    default: throw value_error("cusci::signal::czt: internal: unexpected dtype");
  }
  fft_c2c_rows(b, nfft, rows, true, CUFFT_FORWARD);
  czt_kernel_mul<<<row_grid(nfft, rows), 256, 0, s>>>(b, rows, nfft, fwk2.data_as<double2>());
  CUSCI_CHECK_LAUNCH();
  fft_c2c_rows(b, nfft, rows, true, CUFFT_INVERSE);
  czt_postmul_kernel<<<row_grid(m, rows), 256, 0, s>>>(b, rows, n, m, nfft, wk2.data_as<double2>(),
                                                       1.0 / static_cast<double>(nfft), out.data_as<double2>());
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail

// --- the chirps, computed on the device ----------------------------------------------------------

namespace cusci::signal::detail {

namespace {

__device__ __forceinline__ double2 expi_d(double ph) {
  double s, c;
  sincos(ph, &s, &c);
  return make_double2(c, s);
}

// numpy's 1 / z (Smith's algorithm, as numpy's complex division loop).
__device__ __forceinline__ double2 recip_d(double2 z) {
  if (fabs(z.x) >= fabs(z.y)) {
    const double rat = z.y / z.x, scl = 1.0 / (z.x + z.y * rat);
    return make_double2(scl, -rat * scl);
  }
  const double rat = z.x / z.y, scl = 1.0 / (z.y + z.x * rat);
  return make_double2(rat * scl, -scl);
}

// numpy's complex power a ** e for a real exponent e (npy_cpow): repeated multiplication for an
// integral |e| < 100, else exp(e log a) (glibc's cpow); lg = log(a) from the host.
__device__ double2 cpow_d(double2 a, double2 lg, double e) {
  if (e == 0.0) return make_double2(1.0, 0.0);
  if (a.x == 0.0 && a.y == 0.0) return e > 0 ? make_double2(0.0, 0.0) : make_double2(nan(""), nan(""));
  if (fabs(e) < 100.0 && static_cast<double>(static_cast<long long>(e)) == e) {
    const long long n = static_cast<long long>(e);
    if (n == 1) return a;
    if (n == 2) return cmul(a, a);
    if (n == 3) return cmul(a, cmul(a, a));
    long long k = n < 0 ? -n : n, mask = 1;
    double2 aa = make_double2(1.0, 0.0), p = a;
    while (true) {
      if (k & mask) aa = cmul(aa, p);
      mask <<= 1;
      if (k < mask) break;
      p = cmul(p, p);
    }
    return e < 0 ? recip_d(aa) : aa;
  }
  const double r = exp(e * lg.x);
  const double2 u = expi_d(e * lg.y);
  return make_double2(r * u.x, r * u.y);
}

__global__ void czt_chirps_kernel(chirp_spec s, std::int64_t K, double2* __restrict__ awk2, double2* __restrict__ wk2,
                                  double2* __restrict__ kern) {
  const double inv_m = 1.0 / static_cast<double>(s.m);
  const double2 w = make_double2(s.w_re, s.w_im), wlog = make_double2(s.wlog_re, s.wlog_im);
  const double2 a = make_double2(s.a_re, s.a_im), alog = make_double2(s.alog_re, s.alog_im);
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < K;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const double kd = static_cast<double>(k);
    double2 c;
    if (s.kind == 0) {
      // SciPy: exp(-(1j * pi * ((k**2) % (2*m))) / m), the square reduced exactly in integers.
      const unsigned long long uk = static_cast<unsigned long long>(k);
      const unsigned long long r = (uk * uk) % (2ULL * static_cast<unsigned long long>(s.m));
      c = expi_d(-(3.141592653589793 * static_cast<double>(r)) * inv_m);
    } else if (s.kind == 1) {
      c = cpow_d(w, wlog, kd * kd / 2.0);  // w ** (k**2 / 2.)
    } else {
      c = expi_d(-(s.ps * (kd * kd)) * inv_m);  // exp(-(1j * pi * scale * k**2) / m)
    }
    if (k < s.m) {
      wk2[k] = c;
      kern[s.n - 1 + k] = recip_d(c);
    }
    if (k >= 1 && k < s.n) kern[s.n - 1 - k] = recip_d(c);
    if (k < s.n) {
      const double2 ak = s.kind == 2 ? expi_d(s.f * kd) : cpow_d(a, alog, -kd);
      awk2[k] = cmul(ak, c);
    }
  }
}

}  // namespace

void czt_chirps(const chirp_spec& s, ndarray& awk2, ndarray& wk2, ndarray& kern) {
  const std::int64_t K = s.m > s.n ? s.m : s.n;
  std::int64_t blocks = (K + 255) / 256;
  if (blocks > (1LL << 20)) blocks = 1LL << 20;
  czt_chirps_kernel<<<static_cast<unsigned>(blocks), 256, 0, get_current_stream()>>>(
      s, K, awk2.data_as<double2>(), wk2.data_as<double2>(), kern.data_as<double2>());
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail
