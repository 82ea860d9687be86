// The overlap-save engine of fftconvolve / oaconvolve / convolve(method fft) for a 1-D filter along one
// axis: batched cuFFT plans through core's plan cache, one multiply kernel, one crop kernel.
//
// Layout (per line l of x [lines, N], filter h [M], block length n, hop B = (n - M + 1) rounded down
// to a multiple of 4): block b of line l is the window x_l[ws(b), ws(b) + n) with
// ws(b) = o0s + b*B - (M - 1), x_l zero outside [0, N); the last B samples of the window's circular
// convolution with h (positions M-1 .. M-1+B-1) are the full-convolution samples o0s + b*B + s. The
// output range starts at o0 (mode's crop); o0s = o0 - delta, delta in [0, 4), keeps the window starts
// multiples of 4. Passes: the filter's spectrum H [nc] once per call (pad + one R2C); gather every
// window into E [lines*nb, n]; one batched R2C E -> S [lines*nb, nc]; multiply S by H and 1/n; one
// batched C2R S -> E; the crop kernel copies the valid part of each block into out [lines, Lout].
// (Reading the windows in place with idist = hop < n, which saves the gather, measured 2-3x slower in
// cuFFT's R2C on the H200 than gather + contiguous R2C: bench_signal_convolution's G1.cufft.* ids.)

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <cuda/std/complex>
#include <cufft.h>

#include "convolution/conv_common.hpp"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::signal::detail {
namespace {

template <class T> struct fft_traits;
template <> struct fft_traits<float> {
  using C = cuda::std::complex<float>;
  static constexpr bool real = true;
  static constexpr cufftType fwd = CUFFT_R2C, inv = CUFFT_C2R;
};
template <> struct fft_traits<double> {
  using C = cuda::std::complex<double>;
  static constexpr bool real = true;
  static constexpr cufftType fwd = CUFFT_D2Z, inv = CUFFT_Z2D;
};
template <> struct fft_traits<cuda::std::complex<float>> {
  using C = cuda::std::complex<float>;
  static constexpr bool real = false;
  static constexpr cufftType fwd = CUFFT_C2C, inv = CUFFT_C2C;
};
template <> struct fft_traits<cuda::std::complex<double>> {
  using C = cuda::std::complex<double>;
  static constexpr bool real = false;
  static constexpr cufftType fwd = CUFFT_Z2Z, inv = CUFFT_Z2Z;
};

template <class T> using cplx_t = typename fft_traits<T>::C;

void exec_fwd(cufftHandle h, const float* in, cuda::std::complex<float>* out) {
  CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecR2C)(h, const_cast<cufftReal*>(in), reinterpret_cast<cufftComplex*>(out)));
}
void exec_fwd(cufftHandle h, const double* in, cuda::std::complex<double>* out) {
  CUSCI_CUFFT_TRY(
      CUSCI_LAZY(cufftExecD2Z)(h, const_cast<cufftDoubleReal*>(in), reinterpret_cast<cufftDoubleComplex*>(out)));
}
void exec_fwd(cufftHandle h, const cuda::std::complex<float>* in, cuda::std::complex<float>* out) {
  CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecC2C)(h,
                                           reinterpret_cast<cufftComplex*>(const_cast<cuda::std::complex<float>*>(in)),
                                           reinterpret_cast<cufftComplex*>(out), CUFFT_FORWARD));
}
void exec_fwd(cufftHandle h, const cuda::std::complex<double>* in, cuda::std::complex<double>* out) {
  CUSCI_CUFFT_TRY(
      CUSCI_LAZY(cufftExecZ2Z)(h, reinterpret_cast<cufftDoubleComplex*>(const_cast<cuda::std::complex<double>*>(in)),
                               reinterpret_cast<cufftDoubleComplex*>(out), CUFFT_FORWARD));
}
void exec_inv(cufftHandle h, cuda::std::complex<float>* in, float* out) {
  CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecC2R)(h, reinterpret_cast<cufftComplex*>(in), out));
}
void exec_inv(cufftHandle h, cuda::std::complex<double>* in, double* out) {
  CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecZ2D)(h, reinterpret_cast<cufftDoubleComplex*>(in), out));
}
void exec_inv(cufftHandle h, cuda::std::complex<float>* in, cuda::std::complex<float>* out) {
  CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecC2C)(h, reinterpret_cast<cufftComplex*>(in), reinterpret_cast<cufftComplex*>(out),
                                           CUFFT_INVERSE));
}
void exec_inv(cufftHandle h, cuda::std::complex<double>* in, cuda::std::complex<double>* out) {
  CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftExecZ2Z)(h, reinterpret_cast<cufftDoubleComplex*>(in),
                                           reinterpret_cast<cufftDoubleComplex*>(out), CUFFT_INVERSE));
}

/// A batched 1-D plan: `batch` transforms of length n, input rows idist apart, output rows odist apart.
cusci::detail::fft_plan_lease plan_1d(std::int64_t n, std::int64_t in_len, std::int64_t idist, std::int64_t out_len,
                                      std::int64_t odist, std::int64_t batch, cufftType type) {
  cusci::detail::fft_plan_key k;
  k.rank = 1;
  k.n[0] = n;
  k.inembed[0] = in_len;  // non-zero: the advanced layout (cuFFT ignores inembed[0] for rank 1)
  k.onembed[0] = out_len;
  k.istride = 1;
  k.idist = idist;
  k.ostride = 1;
  k.odist = odist;
  k.batch = batch;
  k.type = static_cast<int>(type);
  return cusci::detail::acquire_fft_plan(k);
}

// hp[i] = h[i] for i < M, 0 up to n.
template <class T>
__global__ void pad_filter_kernel(const T* __restrict__ h, std::int64_t M, T* __restrict__ hp, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    hp[i] = i < M ? h[i] : T(0);
}

// Window gather: row e = l * nb + b of E [rows, n] is the window x_l[ws0 + b*B, ws0 + b*B + n) of
// x [lines, N], zero outside the line. x over t, y over rows.
template <class T>
__global__ void gather_kernel(const T* __restrict__ x, std::int64_t N, T* __restrict__ E, std::int64_t n,
                              std::int64_t rows, std::int64_t nb, std::int64_t ws0, std::int64_t B) {
  for (std::int64_t e = blockIdx.y; e < rows; e += gridDim.y) {
    const std::int64_t l = e / nb, b = e - l * nb;
    const std::int64_t ws = ws0 + b * B;
    const T* xl = x + l * N;
    T* row = E + e * n;
    for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
         t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
      const std::int64_t src = ws + t;
      row[t] = (src >= 0 && src < N) ? xl[src] : T(0);
    }
  }
}

// S[row, k] *= H[k] * scale: x over k, y over rows.
template <class C, class R>
__global__ void multiply_kernel(C* __restrict__ S, const C* __restrict__ H, std::int64_t nc, std::int64_t rows, R scale) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= nc) return;
  const C hk = H[k] * scale;
  for (std::int64_t r = blockIdx.y; r < rows; r += gridDim.y) S[r * nc + k] = S[r * nc + k] * hk;
}

// Block row e = l * nb + b of Q [rows, n] holds the full-convolution samples o0s + b*B + s at
// Q[e, M - 1 + s], s < B; they go to out[l, b*B + s - delta] when inside [0, Lout). x over s, y over rows.
template <class T>
__global__ void crop_kernel(const T* __restrict__ Q, std::int64_t n, std::int64_t nb, std::int64_t B,
                            std::int64_t M, std::int64_t delta, T* __restrict__ out, std::int64_t rows,
                            std::int64_t Lout) {
  const std::int64_t s = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= B) return;
  for (std::int64_t e = blockIdx.y; e < rows; e += gridDim.y) {
    const std::int64_t l = e / nb, b = e - l * nb;
    const std::int64_t j = b * B + s - delta;
    if (j >= 0 && j < Lout) out[l * Lout + j] = Q[e * n + (M - 1) + s];
  }
}

unsigned grid_for(std::int64_t n, int threads, std::int64_t cap = 1 << 20) {
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>((n + threads - 1) / threads, cap)));
}

template <class T>
void oa_typed(const ndarray& xa, const ndarray& ha, std::int64_t o0, std::int64_t Lout, ndarray& outa, std::int64_t n) {
  using C = cplx_t<T>;
  using R = decltype(cuda::std::real(C{}));
  constexpr bool real = fft_traits<T>::real;
  cudaStream_t stream = get_current_stream();
  const T* x = static_cast<const T*>(xa.data());
  const T* h = static_cast<const T*>(ha.data());
  T* out = static_cast<T*>(outa.data());
  const std::int64_t N = xa.shape().back();
  const std::int64_t lines = N > 0 ? xa.size() / N : 0;
  const std::int64_t M = ha.size();
  if (lines == 0 || Lout == 0) return;
  const std::int64_t nc = real ? n / 2 + 1 : n;
  const std::int64_t B = (n - M + 1) & ~std::int64_t{3};
  const std::int64_t delta = (((o0 - (M - 1)) % 4) + 4) % 4;
  const std::int64_t o0s = o0 - delta;
  const std::int64_t ws0 = o0s - (M - 1);  // window start of block 0 (a multiple of 4)
  const std::int64_t nb = (delta + Lout + B - 1) / B;
  const std::int64_t rows = lines * nb;

  // The filter's spectrum, once.
  device_buffer<T> hp(static_cast<std::size_t>(n), stream);
  device_buffer<C> H(static_cast<std::size_t>(nc), stream);
  pad_filter_kernel<T><<<grid_for(n, 256), 256, 0, stream>>>(h, M, hp.data(), n);
  CUSCI_CHECK_LAUNCH();
  {
    auto p = plan_1d(n, n, n, nc, nc, 1, fft_traits<T>::fwd);
    exec_fwd(p.handle, hp.data(), H.data());
  }

  // Every window gathered, zero-padded at the line ends, into E [rows, n] (cuFFT's batched R2C on
  // windows read in place through idist = hop measured 2-3x slower than gather + contiguous R2C).
  device_buffer<T> E(static_cast<std::size_t>(rows * n), stream);
  {
    dim3 g(grid_for(n, 256, 64), static_cast<unsigned>(std::min<std::int64_t>(rows, 65535)));
    gather_kernel<T><<<g, 256, 0, stream>>>(x, N, E.data(), n, rows, nb, ws0, B);
    CUSCI_CHECK_LAUNCH();
  }
  device_buffer<C> S(static_cast<std::size_t>(rows * nc), stream);
  {
    auto p = plan_1d(n, n, n, nc, nc, rows, fft_traits<T>::fwd);
    exec_fwd(p.handle, E.data(), S.data());
  }
  {
    dim3 g(grid_for(nc, 256), static_cast<unsigned>(std::min<std::int64_t>(rows, 65535)));
    multiply_kernel<C, R><<<g, 256, 0, stream>>>(S.data(), H.data(), nc, rows,
                                                 static_cast<R>(1.0 / static_cast<double>(n)));
    CUSCI_CHECK_LAUNCH();
  }
  {
    auto p = plan_1d(n, nc, nc, n, n, rows, fft_traits<T>::inv);
    exec_inv(p.handle, S.data(), E.data());  // E now holds the blocks' circular convolutions
  }
  {
    dim3 g(grid_for(B, 256), static_cast<unsigned>(std::min<std::int64_t>(rows, 65535)));
    crop_kernel<T><<<g, 256, 0, stream>>>(E.data(), n, nb, B, M, delta, out, rows, Lout);
    CUSCI_CHECK_LAUNCH();
  }
}

}  // namespace

std::int64_t oa_block_length(std::int64_t M) {
  // Work per output sample ~ n (log2 n + c) / B: the two transforms plus the passes over memory (c).
  // The smallest allowed n keeps B >= M + 3 so blocks stay useful; the largest is 2^14, or the
  // smallest allowed one for longer filters. Measured on the H200 (2^26 float32, 4096 taps): batched
  // C2R of n = 16384 runs at 3.6 TB/s, n = 32768 at 2.2 TB/s, n = 65536 at 1.8 TB/s.
  constexpr double c = 8.0;
  std::int64_t n = 16;
  while (n < 2 * M + 4) n *= 2;
  if (n > (std::int64_t{1} << 24)) return 0;
  std::int64_t best = n;
  double best_cost = 1e300;
  for (std::int64_t m = n; m <= std::max<std::int64_t>(n, std::int64_t{1} << 14); m *= 2) {
    const double B = static_cast<double>((m - M + 1) & ~std::int64_t{3});
    const double cost = static_cast<double>(m) * (std::log2(static_cast<double>(m)) + c) / B;
    if (cost < best_cost) {
      best_cost = cost;
      best = m;
    }
  }
  return best;
}

void oa_convolve_lines(const ndarray& x, const ndarray& h, std::int64_t o0, std::int64_t Lout, ndarray& out,
                       std::int64_t nfft) {
  switch (x.dtype()) {
    case dtype::float32: oa_typed<float>(x, h, o0, Lout, out, nfft); break;
    case dtype::float64: oa_typed<double>(x, h, o0, Lout, out, nfft); break;
    case dtype::complex64: oa_typed<cuda::std::complex<float>>(x, h, o0, Lout, out, nfft); break;
    case dtype::complex128: oa_typed<cuda::std::complex<double>>(x, h, o0, Lout, out, nfft); break;
    default: CUSCI_EXPECTS(false, not_implemented_error, "cusci::signal: overlap-save engine: unsupported dtype");
  }
}

}  // namespace cusci::signal::detail
