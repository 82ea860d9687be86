// Kernels of the spectral family after the framing engine's FFT: the averaging over segments (welch, csd,
// coherence: one pass over the [batch, nseg, nfreq] spectra, coalesced along frequency, that applies
// the scaling and the one-sided doubling), the median path's gather and pick, the spectrogram modes
// (psd, magnitude, angle, and the phase unwrapped along frequency by a warp scan per segment), and
// istft's overlap-add with its window normalization.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "cusci/error.hpp"
#include "cusci/sorting.hpp"
#include "cusci/stream.hpp"
#include "fourier/fourier_kernels.cuh"
#include "spectral/spectral_detail.hpp"

namespace cusci::signal::detail {

namespace {

constexpr int kTX = 32;  // frequencies per block (one warp: 256 B of complex64 per row read)
constexpr int kTY = 8;   // segment lanes per block

__device__ __forceinline__ double dbl_factor(std::int64_t k, std::int64_t nfreq, bool dbl, bool even) {
  if (!dbl || k == 0 || (even && k == nfreq - 1)) return 1.0;
  return 2.0;
}

struct mean_args {
  std::int64_t batch, nseg, nfreq, nchunk, chunk_len;
  int kind;  // avg_kind
  double scale;
  bool dbl, even;
};

// Final value from the four sums (sxy_re, sxy_im, sxx, syy) over nseg segments.
template <class P>
__device__ __forceinline__ void finalize(const double (&a)[4], std::int64_t k, const mean_args& m, P* out_r,
                                         cplx_t<P>* out_c, std::int64_t o) {
  const double f = m.scale * dbl_factor(k, m.nfreq, m.dbl, m.even) / double(m.nseg);
  if (m.kind == int(avg_kind::power)) {
    out_r[o] = P(a[2] * f);
  } else if (m.kind == int(avg_kind::cross)) {
    cplx_t<P> v;
    v.x = P(a[0] * f);
    v.y = P(a[1] * f);
    out_c[o] = v;
  } else {
    const double pr = a[0] * f, pi = a[1] * f, pxx = a[2] * f, pyy = a[3] * f;
    out_r[o] = P((pr * pr + pi * pi) / pxx / pyy);
  }
}

// grid (ceil(nfreq / kTX), nchunk, min(batch, 65535)); block (kTX, kTY). Each block sums the segments of
// its chunk for kTX frequencies; with one chunk it writes the result, otherwise four partial sums.
template <class P>
__global__ void __launch_bounds__(kTX * kTY) mean_kernel(const cplx_t<P>* __restrict__ X,
                                                        const cplx_t<P>* __restrict__ Y, mean_args m,
                                                        double* __restrict__ partial, P* __restrict__ out_r,
                                                        cplx_t<P>* __restrict__ out_c) {
  __shared__ double red[kTY][kTX][4];
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * kTX + threadIdx.x;
  const std::int64_t s0 = static_cast<std::int64_t>(blockIdx.y) * m.chunk_len;
  std::int64_t s1 = s0 + m.chunk_len;
  if (s1 > m.nseg) s1 = m.nseg;
  for (std::int64_t b = blockIdx.z; b < m.batch; b += gridDim.z) {
    double a[4] = {0, 0, 0, 0};
    if (k < m.nfreq) {
      const std::int64_t base = b * m.nseg * m.nfreq + k;
#pragma unroll 4
      for (std::int64_t s = s0 + threadIdx.y; s < s1; s += kTY) {
        const cplx_t<P> xv = X[base + s * m.nfreq];
        const double xr = xv.x, xi = xv.y;
        a[2] += xr * xr + xi * xi;
        if (m.kind != int(avg_kind::power)) {
          const cplx_t<P> yv = Y[base + s * m.nfreq];
          const double yr = yv.x, yi = yv.y;
          a[0] += xr * yr + xi * yi;  // conj(x) y
          a[1] += xr * yi - xi * yr;
          a[3] += yr * yr + yi * yi;
        }
      }
    }
    for (int v = 0; v < 4; ++v) red[threadIdx.y][threadIdx.x][v] = a[v];
    __syncthreads();
    if (threadIdx.y == 0 && k < m.nfreq) {
      for (int t = 1; t < kTY; ++t)
        for (int v = 0; v < 4; ++v) a[v] += red[t][threadIdx.x][v];
      if (m.nchunk == 1) finalize<P>(a, k, m, out_r, out_c, b * m.nfreq + k);
      else
        for (int v = 0; v < 4; ++v) partial[((b * m.nchunk + blockIdx.y) * m.nfreq + k) * 4 + v] = a[v];
    }
    __syncthreads();
  }
}

template <class P>
__global__ void mean_finalize_kernel(const double* __restrict__ partial, mean_args m, P* __restrict__ out_r,
                                     cplx_t<P>* __restrict__ out_c) {
  CUSCI_FOURIER_ROWS(b, m.batch) {
    CUSCI_FOURIER_COLS(k, m.nfreq) {
      double a[4] = {0, 0, 0, 0};
      for (std::int64_t c = 0; c < m.nchunk; ++c)
        for (int v = 0; v < 4; ++v) a[v] += partial[((b * m.nchunk + c) * m.nfreq + k) * 4 + v];
      finalize<P>(a, k, m, out_r, out_c, b * m.nfreq + k);
    }
  }
}

// Gathers [batch, nseg, nfreq] spectra into [batch, nfreq, nseg] real arrays: |X|^2 into re (power), or
// the real and imaginary parts of conj(X) Y into re, im (cross).
template <class P>
__global__ void median_gather_kernel(const cplx_t<P>* __restrict__ X, const cplx_t<P>* __restrict__ Y,
                                     std::int64_t nseg, std::int64_t nfreq, std::int64_t rows, P* __restrict__ re,
                                     P* __restrict__ im) {
  CUSCI_FOURIER_ROWS(r, rows) {  // r = b * nseg + s
    const std::int64_t b = r / nseg, s = r - b * nseg;
    CUSCI_FOURIER_COLS(k, nfreq) {
      const cplx_t<P> xv = X[r * nfreq + k];
      const std::int64_t o = (b * nfreq + k) * nseg + s;
      if (Y) {
        const cplx_t<P> yv = Y[r * nfreq + k];
        re[o] = xv.x * yv.x + xv.y * yv.y;
        im[o] = xv.x * yv.y - xv.y * yv.x;
      } else {
        re[o] = xv.x * xv.x + xv.y * xv.y;
      }
    }
  }
}

template <class P>
__device__ __forceinline__ double median_of(const P* v, std::int64_t n) {
  return (n % 2) ? double(v[n / 2]) : double(P((v[n / 2 - 1] + v[n / 2]) / P(2)));
}

template <class P>
__global__ void median_pick_kernel(const P* __restrict__ re, const P* __restrict__ im, std::int64_t batch,
                                   std::int64_t nseg, std::int64_t nfreq, double scale, double bias, bool dbl,
                                   bool even, P* __restrict__ out_r, cplx_t<P>* __restrict__ out_c) {
  CUSCI_FOURIER_ROWS(b, batch) {
    CUSCI_FOURIER_COLS(k, nfreq) {
      const std::int64_t row = (b * nfreq + k) * nseg;
      const double f = scale * dbl_factor(k, nfreq, dbl, even) / bias;
      const double mr = median_of(re + row, nseg) * f;
      if (im) {
        cplx_t<P> v;
        v.x = P(mr);
        v.y = P(median_of(im + row, nseg) * f);
        out_c[b * nfreq + k] = v;
      } else {
        out_r[b * nfreq + k] = P(mr);
      }
    }
  }
}

// numpy's floored modulo of floats (npy_divmod's remainder).
template <class P> __device__ __forceinline__ P pymod(P a, P b) {
  P r = std::fmod(a, b);
  if (r != P(0) && ((b < P(0)) != (r < P(0)))) r += b;
  return r;
}

// mode: 0 psd, 1 magnitude, 2 angle (phase is angle followed by unwrap_kernel).
template <class P>
__global__ void mode_kernel(const cplx_t<P>* __restrict__ X, std::int64_t rows, std::int64_t nfreq, int mode,
                            double scale, bool dbl, bool even, P* __restrict__ out) {
  CUSCI_FOURIER_ROWS(r, rows) {
    CUSCI_FOURIER_COLS(k, nfreq) {
      const cplx_t<P> v = X[r * nfreq + k];
      P o;
      if (mode == 0) o = P(double(v.x * v.x + v.y * v.y) * scale * dbl_factor(k, nfreq, dbl, even));
      else if (mode == 1) o = P(std::hypot(v.x, v.y));
      else o = P(std::atan2(v.y, v.x));
      out[r * nfreq + k] = o;
    }
  }
}

// numpy.unwrap (period 2 pi) along each row of nfreq angles, in place; one warp per row, a warp scan of
// the corrections per chunk of 32.
template <class P>
__global__ void unwrap_kernel(P* __restrict__ a, std::int64_t rows, std::int64_t nfreq) {
  const int lane = threadIdx.x & 31;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (blockDim.x >> 5);
  const P pi = P(3.141592653589793), two_pi = P(6.283185307179586);
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * (blockDim.x >> 5) + (threadIdx.x >> 5); r < rows;
       r += warps) {
    P* row = a + r * nfreq;
    P carry = P(0);   // cumulative correction before this chunk
    P prev_last = row[0];
    for (std::int64_t c = 0; c < nfreq; c += 32) {
      const std::int64_t k = c + lane;
      const P p = k < nfreq ? row[k] : P(0);
      P before = __shfl_up_sync(0xffffffffu, p, 1);
      if (lane == 0) before = prev_last;
      P corr = P(0);
      if (k >= 1 && k < nfreq) {
        const P dd = p - before;
        P ddmod = pymod<P>(dd + pi, two_pi) - pi;
        if (ddmod == -pi && dd > P(0)) ddmod = pi;
        corr = ddmod - dd;
        if (std::fabs(dd) < pi) corr = P(0);
      }
      // Inclusive scan of corr over the warp (sequential order kept within numpy's cumsum rounding).
      P incl = corr;
      for (int o = 1; o < 32; o <<= 1) {
        const P t = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += t;
      }
      prev_last = __shfl_sync(0xffffffffu, p, 31);
      const P total = __shfl_sync(0xffffffffu, incl, 31);
      if (k < nfreq) row[k] = p + (carry + incl);
      carry += total;
    }
  }
}

// istft: y[b, i] = sum_s (xs[b, s, j] * xscale) * w[j] / norm(i), norm(i) = sum_s w[j]^2 (or 1 where
// <= 1e-10), j = crop + i - s hop in [0, nperseg); xs rows have pitch L >= nperseg.
template <class P, bool C>
__global__ void istft_ola_kernel(const std::conditional_t<C, cplx_t<P>, P>* __restrict__ xs, const P* __restrict__ w,
                                 P xscale, std::int64_t batch, std::int64_t nseg, std::int64_t L,
                                 std::int64_t nperseg, std::int64_t hop, std::int64_t crop, std::int64_t n_out,
                                 std::conditional_t<C, cplx_t<P>, P>* __restrict__ y) {
  using V = std::conditional_t<C, cplx_t<P>, P>;
  CUSCI_FOURIER_ROWS(b, batch) {
    const V* xb = xs + b * nseg * L;
    CUSCI_FOURIER_COLS(i, n_out) {
      const std::int64_t t = crop + i;
      std::int64_t s_hi = t / hop, s_lo = t - nperseg >= 0 ? (t - nperseg) / hop + 1 : 0;
      if (s_hi > nseg - 1) s_hi = nseg - 1;
      P nr = P(0);
      V acc;
      if constexpr (C) { acc.x = P(0); acc.y = P(0); } else acc = P(0);
      for (std::int64_t s = s_lo; s <= s_hi; ++s) {
        const std::int64_t j = t - s * hop;
        const P wj = w[j];
        const V v = xb[s * L + j];
        if constexpr (C) {
          acc.x += (v.x * xscale) * wj;
          acc.y += (v.y * xscale) * wj;
        } else {
          acc += (v * xscale) * wj;
        }
        nr += wj * wj;
      }
      const P d = nr > P(1e-10) ? nr : P(1);
      if constexpr (C) { acc.x /= d; acc.y /= d; } else acc /= d;
      y[b * n_out + i] = acc;
    }
  }
}

bool is_dbl(dtype t) { return t == dtype::complex128 || t == dtype::float64; }

}  // namespace

ndarray spectra_mean(const ndarray& X, const ndarray* Y, avg_kind kind, double scale, bool onesided_double,
                     bool even_nfft) {
  const std::int64_t batch = X.shape()[0], nseg = X.shape()[1], nfreq = X.shape()[2];
  const bool dbl = is_dbl(X.dtype());
  ndarray out = empty({batch, nfreq}, kind == avg_kind::cross ? X.dtype() : (dbl ? dtype::float64 : dtype::float32));
  if (batch == 0 || nfreq == 0) return out;
  mean_args m{};
  m.batch = batch;
  m.nseg = nseg;
  m.nfreq = nfreq;
  m.kind = int(kind);
  m.scale = scale;
  m.dbl = onesided_double;
  m.even = even_nfft;
  // Enough blocks to fill the GPU (~2k on an H200): split the segments into chunks when batch x tiles
  // is small (one long signal), each chunk at least 64 segments.
  const std::int64_t tiles = (nfreq + kTX - 1) / kTX;
  const std::int64_t have = tiles * batch;
  std::int64_t nchunk = 1;
  if (have < 2048) {
    nchunk = (2048 + have - 1) / have;
    const std::int64_t max_chunks = (nseg + 63) / 64;
    if (nchunk > max_chunks) nchunk = max_chunks;
    if (nchunk < 1) nchunk = 1;
  }
  m.chunk_len = (nseg + nchunk - 1) / nchunk;
  m.nchunk = (nseg + m.chunk_len - 1) / m.chunk_len;
  if (m.nchunk < 1) m.nchunk = 1;
  ndarray partial;
  if (m.nchunk > 1) partial = empty({batch, m.nchunk, nfreq, 4}, dtype::float64);
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(m.nchunk),
                  static_cast<unsigned>(batch < 65535 ? batch : 65535));
  const dim3 block(kTX, kTY);
  const cudaStream_t st = get_current_stream();
  double* pp = m.nchunk > 1 ? partial.data_as<double>() : nullptr;
  const void* yp = Y ? Y->data() : nullptr;
  if (dbl) {
    double* orr = kind == avg_kind::cross ? nullptr : out.data_as<double>();
    double2* oc = kind == avg_kind::cross ? out.data_as<double2>() : nullptr;
    mean_kernel<double><<<grid, block, 0, st>>>(X.data_as<double2>(), static_cast<const double2*>(yp), m, pp, orr, oc);
    CUSCI_CHECK_LAUNCH();
    if (m.nchunk > 1) {
      mean_finalize_kernel<double><<<row_grid(nfreq, batch), 256, 0, st>>>(pp, m, orr, oc);
      CUSCI_CHECK_LAUNCH();
    }
  } else {
    float* orr = kind == avg_kind::cross ? nullptr : out.data_as<float>();
    float2* oc = kind == avg_kind::cross ? out.data_as<float2>() : nullptr;
    mean_kernel<float><<<grid, block, 0, st>>>(X.data_as<float2>(), static_cast<const float2*>(yp), m, pp, orr, oc);
    CUSCI_CHECK_LAUNCH();
    if (m.nchunk > 1) {
      mean_finalize_kernel<float><<<row_grid(nfreq, batch), 256, 0, st>>>(pp, m, orr, oc);
      CUSCI_CHECK_LAUNCH();
    }
  }
  return out;
}

ndarray spectra_median(const ndarray& X, const ndarray* Y, bool cross, double scale, double bias,
                       bool onesided_double, bool even_nfft) {
  const std::int64_t batch = X.shape()[0], nseg = X.shape()[1], nfreq = X.shape()[2];
  const bool dbl = is_dbl(X.dtype());
  const dtype rt = dbl ? dtype::float64 : dtype::float32;
  ndarray out = empty({batch, nfreq}, cross ? X.dtype() : rt);
  if (batch == 0 || nfreq == 0 || nseg == 0) return out;
  ndarray re = empty({batch, nfreq, nseg}, rt);
  ndarray im;
  if (cross) im = empty({batch, nfreq, nseg}, rt);
  const cudaStream_t st = get_current_stream();
  const dim3 g = row_grid(nfreq, batch * nseg);
  if (dbl)
    median_gather_kernel<double><<<g, 256, 0, st>>>(X.data_as<double2>(), cross ? Y->data_as<double2>() : nullptr,
                                                    nseg, nfreq, batch * nseg, re.data_as<double>(),
                                                    cross ? im.data_as<double>() : nullptr);
  else
    median_gather_kernel<float><<<g, 256, 0, st>>>(X.data_as<float2>(), cross ? Y->data_as<float2>() : nullptr, nseg,
                                                   nfreq, batch * nseg, re.data_as<float>(),
                                                   cross ? im.data_as<float>() : nullptr);
  CUSCI_CHECK_LAUNCH();
  re = cusci::sort(re, -1);
  if (cross) im = cusci::sort(im, -1);
  const dim3 g2 = row_grid(nfreq, batch);
  if (dbl)
    median_pick_kernel<double><<<g2, 256, 0, st>>>(re.data_as<double>(), cross ? im.data_as<double>() : nullptr, batch,
                                                   nseg, nfreq, scale, bias, onesided_double, even_nfft,
                                                   cross ? nullptr : out.data_as<double>(),
                                                   cross ? out.data_as<double2>() : nullptr);
  else
    median_pick_kernel<float><<<g2, 256, 0, st>>>(re.data_as<float>(), cross ? im.data_as<float>() : nullptr, batch,
                                                  nseg, nfreq, scale, bias, onesided_double, even_nfft,
                                                  cross ? nullptr : out.data_as<float>(),
                                                  cross ? out.data_as<float2>() : nullptr);
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray spectrogram_mode_apply(const ndarray& X, spectrogram_mode mode, double scale, bool onesided_double,
                               bool even_nfft) {
  const std::int64_t batch = X.shape()[0], nseg = X.shape()[1], nfreq = X.shape()[2];
  const bool dbl = is_dbl(X.dtype());
  ndarray out = empty({batch, nseg, nfreq}, dbl ? dtype::float64 : dtype::float32);
  const std::int64_t rows = batch * nseg;
  if (rows == 0 || nfreq == 0) return out;
  const int m = mode == spectrogram_mode::psd ? 0 : mode == spectrogram_mode::magnitude ? 1 : 2;
  const cudaStream_t st = get_current_stream();
  const dim3 g = row_grid(nfreq, rows);
  if (dbl)
    mode_kernel<double><<<g, 256, 0, st>>>(X.data_as<double2>(), rows, nfreq, m, scale, onesided_double, even_nfft,
                                           out.data_as<double>());
  else
    mode_kernel<float><<<g, 256, 0, st>>>(X.data_as<float2>(), rows, nfreq, m, scale, onesided_double, even_nfft,
                                          out.data_as<float>());
  CUSCI_CHECK_LAUNCH();
  if (mode == spectrogram_mode::phase) {
    std::int64_t blocks = (rows + 7) / 8;
    if (blocks > (1LL << 20)) blocks = 1LL << 20;
    if (dbl) unwrap_kernel<double><<<static_cast<unsigned>(blocks), 256, 0, st>>>(out.data_as<double>(), rows, nfreq);
    else unwrap_kernel<float><<<static_cast<unsigned>(blocks), 256, 0, st>>>(out.data_as<float>(), rows, nfreq);
    CUSCI_CHECK_LAUNCH();
  }
  return out;
}

ndarray istft_ola(const ndarray& xs, const ndarray& win, double xscale, std::int64_t hop, std::int64_t crop,
                  std::int64_t n_out) {
  const std::int64_t batch = xs.shape()[0], nseg = xs.shape()[1], L = xs.shape()[2];
  const std::int64_t nperseg = win.shape()[0];
  const bool c = is_complex(xs.dtype());
  const bool dbl = is_dbl(xs.dtype());
  ndarray y = empty({batch, n_out}, xs.dtype());
  if (batch == 0 || n_out == 0) return y;
  const cudaStream_t st = get_current_stream();
  const dim3 g = row_grid(n_out, batch);
  if (dbl) {
    if (c)
      istft_ola_kernel<double, true><<<g, 256, 0, st>>>(xs.data_as<double2>(), win.data_as<double>(), xscale, batch,
                                                        nseg, L, nperseg, hop, crop, n_out, y.data_as<double2>());
    else
      istft_ola_kernel<double, false><<<g, 256, 0, st>>>(xs.data_as<double>(), win.data_as<double>(), xscale, batch,
                                                         nseg, L, nperseg, hop, crop, n_out, y.data_as<double>());
  } else {
    const float xf = static_cast<float>(xscale);
    if (c)
      istft_ola_kernel<float, true><<<g, 256, 0, st>>>(xs.data_as<float2>(), win.data_as<float>(), xf, batch, nseg, L,
                                                       nperseg, hop, crop, n_out, y.data_as<float2>());
    else
      istft_ola_kernel<float, false><<<g, 256, 0, st>>>(xs.data_as<float>(), win.data_as<float>(), xf, batch, nseg, L,
                                                        nperseg, hop, crop, n_out, y.data_as<float>());
  }
  CUSCI_CHECK_LAUNCH();
  return y;
}

}  // namespace cusci::signal::detail
