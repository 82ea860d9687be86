// Kernels of envelope: the band gathered (and resampled) from the forward spectrum, the magnitude, and
// the residual's spectrum (SciPy's resample(domain='freq') rules for complex input, the unpaired-bin
// rule and irfft for real input). Index rules: fourier_detail.hpp's envelope_plan, checked against
// scipy.signal.envelope by a numpy emulation of these kernels over every band, n_out and residual for
// n <= 17.
#include <cufft.h>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "fourier/fourier_detail.hpp"
#include "fourier/fourier_kernels.cuh"

namespace cusci::signal::detail {

namespace {

// Bin k of the full spectrum: for real input only k <= n/2 is stored (the rest is 0), with SciPy's
// doubling of [dbl_lo, dbl_hi).
template <class C>
__device__ __forceinline__ C zbin(const C* __restrict__ Zrow, std::int64_t k, bool real, const envelope_plan& p) {
  C v;
  if (real) {
    if (k > p.n / 2) {
      v.x = 0;
      v.y = 0;
      return v;
    }
    v = Zrow[k];
    if (k >= p.dbl_lo && k < p.dbl_hi) {
      v.x *= 2;
      v.y *= 2;
    }
    return v;
  }
  return Zrow[k];
}

__device__ __forceinline__ bool kept(std::int64_t k, const envelope_plan& p) {
  for (int i = 0; i < p.n_zr; ++i)
    if (k >= p.zr_lo[i] && k < p.zr_hi[i]) return false;
  return true;
}

// G[r, j] = Z[(band_p0 + j + band_off) mod n] / n for j < band_len, else 0 (ifft(Z[bp], n_out) * fak
// with the 1/n_out of the inverse folded in: fak / n_out = 1 / n).
template <class R>
__global__ void band_gather_kernel(const cplx_t<R>* __restrict__ Z, std::int64_t zlen, std::int64_t rows, bool real,
                                   envelope_plan p, R inv_n, cplx_t<R>* __restrict__ G) {
  using C = cplx_t<R>;
  CUSCI_FOURIER_ROWS(r, rows) {
    const C* Zrow = Z + r * zlen;
    CUSCI_FOURIER_COLS(j, p.n_out) {
      C v;
      v.x = 0;
      v.y = 0;
      if (j < p.band_len) {
        std::int64_t k = (p.band_p0 + j + p.band_off) % p.n;
        if (k < 0) k += p.n;
        v = cscale(zbin(Zrow, k, real, p), inv_n);
      }
      G[r * p.n_out + j] = v;
    }
  }
}

template <class R, bool ComplexOut>
__global__ void magnitude_kernel(const cplx_t<R>* __restrict__ G, std::int64_t total, bool squared,
                                 void* __restrict__ out) {
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const cplx_t<R> g = G[t];
    const R e = squared ? g.x * g.x + g.y * g.y : hypot(g.x, g.y);
    if constexpr (ComplexOut) {
      cplx_t<R> c;
      c.x = e;
      c.y = R(0);
      static_cast<cplx_t<R>*>(out)[t] = c;
    } else {
      static_cast<R*>(out)[t] = e;
    }
  }
}

// Complex input: SciPy's resample(Zr, n_out, domain='freq') spectrum Y / s_fac with the inverse's
// 1/n_out folded in (1/n in all), Zr = Z outside the zeroed ranges.
template <class R>
__global__ void residual_complex_kernel(const cplx_t<R>* __restrict__ Z, std::int64_t rows, envelope_plan p, R inv_n,
                                        cplx_t<R>* __restrict__ Y) {
  using C = cplx_t<R>;
  const std::int64_t n = p.n, n_out = p.n_out;
  const std::int64_t m = n < n_out ? n : n_out, m2 = m / 2 + 1, h = m / 2;
  const bool even = (m % 2) == 0;
  CUSCI_FOURIER_ROWS(r, rows) {
    const C* Zrow = Z + r * n;
    auto X = [&](std::int64_t k) {
      C v = Zrow[k];
      if (!kept(k, p)) {
        v.x = 0;
        v.y = 0;
      }
      return v;
    };
    CUSCI_FOURIER_COLS(j, n_out) {
      C v;
      v.x = 0;
      v.y = 0;
      if (even && n < n_out && j == n_out - h) {
        v = cscale(X(h), R(0.5));
      } else if (j < m2) {
        v = X(j);
        if (even && n_out < n && j == h) {
          const C w = X(n - h);
          v.x += w.x;
          v.y += w.y;
        }
        if (even && n < n_out && j == h) v = cscale(v, R(0.5));
      } else if (m2 < m && j >= n_out - (m - m2)) {
        v = X(j - n_out + n);
      }
      Y[r * n_out + j] = cscale(v, inv_n);
    }
  }
}

// Real input: the half spectrum H [rows, n_out/2 + 1] for irfft(Zr, n_out) * fak: Zr's bins j <= n/2
// (zero above), the unpaired bin m/2 scaled by 2 (n_out < n) or 1/2 (n_out > n) for even m, and the
// imaginary parts of bin 0 and (even n_out) bin n_out/2 dropped as pocketfft's C2R ignores them.
template <class R>
__global__ void residual_real_kernel(const cplx_t<R>* __restrict__ Z, std::int64_t zlen, std::int64_t rows,
                                     envelope_plan p, R inv_n, cplx_t<R>* __restrict__ H) {
  using C = cplx_t<R>;
  const std::int64_t n = p.n, n_out = p.n_out, nh = n_out / 2 + 1;
  const std::int64_t m = n < n_out ? n : n_out;
  CUSCI_FOURIER_ROWS(r, rows) {
    const C* Zrow = Z + r * zlen;
    CUSCI_FOURIER_COLS(j, nh) {
      C v;
      v.x = 0;
      v.y = 0;
      if (j <= n / 2 && kept(j, p)) {
        v = zbin(Zrow, j, true, p);
        R u = R(1);
        if (n_out != n && (m % 2) == 0 && j == m / 2) u = n_out < n ? R(2) : R(0.5);
        v = cscale(v, u * inv_n);
        if (j == 0 || ((n_out % 2) == 0 && j == n_out / 2)) v.y = R(0);
      }
      H[r * nh + j] = v;
    }
  }
}

unsigned flat_grid(std::int64_t n) {
  std::int64_t b = (n + 255) / 256;
  if (b < 1) b = 1;
  if (b > (1LL << 22)) b = 1LL << 22;
  return static_cast<unsigned>(b);
}

template <class R>
void run(const ndarray& Z, bool real, const envelope_plan& p, bool squared, std::int64_t rows, void* env_out,
         bool env_complex, void* res_out) {
  using C = cplx_t<R>;
  constexpr bool dbl = sizeof(R) == 8;
  const cudaStream_t s = get_current_stream();
  const std::int64_t zlen = Z.shape().back();
  const R inv_n = static_cast<R>(1.0 / static_cast<double>(p.n));
  const C* Zp = Z.data_as<C>();

  ndarray G = cusci::empty({rows, p.n_out}, Z.dtype());
  band_gather_kernel<R><<<row_grid(p.n_out, rows), 256, 0, s>>>(Zp, zlen, rows, real, p, inv_n, G.data_as<C>());
  CUSCI_CHECK_LAUNCH();
  fft_c2c_rows(G.data(), p.n_out, rows, dbl, CUFFT_INVERSE);
  const std::int64_t total = rows * p.n_out;
  if (env_complex)
    magnitude_kernel<R, true><<<flat_grid(total), 256, 0, s>>>(G.data_as<C>(), total, squared, env_out);
  else
    magnitude_kernel<R, false><<<flat_grid(total), 256, 0, s>>>(G.data_as<C>(), total, squared, env_out);
  CUSCI_CHECK_LAUNCH();

  if (res_out == nullptr) return;
  if (!real) {
    residual_complex_kernel<R><<<row_grid(p.n_out, rows), 256, 0, s>>>(Zp, rows, p, inv_n, static_cast<C*>(res_out));
    CUSCI_CHECK_LAUNCH();
    fft_c2c_rows(res_out, p.n_out, rows, dbl, CUFFT_INVERSE);
    return;
  }
  const std::int64_t nh = p.n_out / 2 + 1;
  ndarray H = cusci::empty({rows, nh}, Z.dtype());
  residual_real_kernel<R><<<row_grid(nh, rows), 256, 0, s>>>(Zp, zlen, rows, p, inv_n, H.data_as<C>());
  CUSCI_CHECK_LAUNCH();
  // cuFFT wants its data aligned to the complex element: the residual half of the stacked result is
  // not when rows * n_out is odd; then transform into a buffer and copy.
  if (reinterpret_cast<std::uintptr_t>(res_out) % sizeof(C) == 0) {
    fft_c2r_rows(H.data(), res_out, p.n_out, rows, dbl);
  } else {
    ndarray T = cusci::empty({rows, p.n_out}, dbl ? dtype::float64 : dtype::float32);
    fft_c2r_rows(H.data(), T.data(), p.n_out, rows, dbl);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(res_out, T.data(), static_cast<std::size_t>(total) * sizeof(R),
                                   cudaMemcpyDeviceToDevice, s));
  }
}

}  // namespace

void envelope_run(const ndarray& Z, bool real_input, const envelope_plan& p, bool squared, std::int64_t rows,
                  void* env_out, bool env_complex, void* res_out) {
  if (rows <= 0 || p.n_out <= 0) return;
  if (Z.dtype() == dtype::complex128)
    run<double>(Z, real_input, p, squared, rows, env_out, env_complex, res_out);
  else
    run<float>(Z, real_input, p, squared, rows, env_out, env_complex, res_out);
}

}  // namespace cusci::signal::detail
