// Kernels of hilbert and hilbert2: the Hilbert-transform weights applied to a half spectrum in place and
// the analytic signal assembled from x and its transform (hilbert), the analytic-signal weights of a 2-D
// spectrum (hilbert2); and the
// family's length-1 real transforms (cuFFT is not asked for plans of length 1).
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "fourier/fourier_detail.hpp"
#include "fourier/fourier_kernels.cuh"

namespace cusci::signal::detail {

namespace {

// Rows of `half` = N/2 + 1 elements holding the R2C spectrum X: element k becomes -i X[k] / N for
// 0 < k < N/2 (k <= (N - 1) / 2 for odd N) and 0 at k = 0 and at k = N/2 of an even N, the half
// spectrum of the Hilbert transform, so that a C2R of it is the imaginary part of the analytic signal.
template <class R>
__global__ void hilbert_quadrature_kernel(cplx_t<R>* __restrict__ spec, std::int64_t N, std::int64_t rows, R w) {
  using C = cplx_t<R>;
  const std::int64_t half = N / 2 + 1;
  const bool even = (N % 2) == 0;
  CUSCI_FOURIER_ROWS(r, rows) {
    C* row = spec + r * half;
    CUSCI_FOURIER_COLS(k, half) {
      const C v = row[k];
      C o;
      if (k == 0 || (even && k == half - 1)) {
        o.x = R(0);
        o.y = R(0);
      } else {
        o.x = v.y * w;  // -i (a + ib) = b - ia
        o.y = -v.x * w;
      }
      row[k] = o;
    }
  }
}

// out[i] = x[i] + i h[i] over `total` elements: the analytic signal from the signal and its Hilbert
// transform.
template <class R>
__global__ void analytic_combine_kernel(const R* __restrict__ x, const R* __restrict__ h, cplx_t<R>* __restrict__ out,
                                        std::int64_t total) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    cplx_t<R> v;
    v.x = x[i];
    v.y = h[i];
    out[i] = v;
  }
}

__device__ __forceinline__ int orthant_weight(std::int64_t k, std::int64_t N) {
  return k == 0 ? 1 : (k < (N + 1) / 2 ? 2 : 0);
}

template <class R>
__global__ void hilbert2_weights_kernel(cplx_t<R>* __restrict__ X, std::int64_t total, std::int64_t stride0,
                                        std::int64_t N0, std::int64_t stride1, std::int64_t N1) {
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t k0 = (t / stride0) % N0, k1 = (t / stride1) % N1;
    const int w = orthant_weight(k0, N0) * orthant_weight(k1, N1);
    cplx_t<R> v = X[t];
    if (w == 0) {
      v.x = R(0);
      v.y = R(0);
    } else if (w != 1) {
      v.x *= R(w);
      v.y *= R(w);
    }
    X[t] = v;
  }
}

template <class R>
__global__ void r2c_length1_kernel(const R* __restrict__ in, cplx_t<R>* __restrict__ out, std::int64_t batch,
                                   std::int64_t in_pitch, std::int64_t out_pitch) {
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < batch;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    cplx_t<R> v;
    v.x = in[r * in_pitch];
    v.y = R(0);
    out[r * out_pitch] = v;
  }
}

template <class R>
__global__ void c2r_length1_kernel(const cplx_t<R>* __restrict__ in, R* __restrict__ out, std::int64_t batch) {
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < batch;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[r] = in[r].x;
}

unsigned flat_blocks(std::int64_t n) {
  std::int64_t b = (n + 255) / 256;
  if (b < 1) b = 1;
  if (b > (1LL << 22)) b = 1LL << 22;
  return static_cast<unsigned>(b);
}

}  // namespace

void r2c_length1(const void* in, void* out, std::int64_t batch, std::int64_t in_pitch, std::int64_t out_pitch,
                 bool dbl) {
  if (batch <= 0) return;
  const cudaStream_t s = get_current_stream();
  if (dbl)
    r2c_length1_kernel<double><<<flat_blocks(batch), 256, 0, s>>>(static_cast<const double*>(in),
                                                                 static_cast<double2*>(out), batch, in_pitch, out_pitch);
  else
    r2c_length1_kernel<float><<<flat_blocks(batch), 256, 0, s>>>(static_cast<const float*>(in),
                                                                static_cast<float2*>(out), batch, in_pitch, out_pitch);
  CUSCI_CHECK_LAUNCH();
}

void c2r_length1(const void* in, void* out, std::int64_t batch, bool dbl) {
  if (batch <= 0) return;
  const cudaStream_t s = get_current_stream();
  if (dbl)
    c2r_length1_kernel<double><<<flat_blocks(batch), 256, 0, s>>>(static_cast<const double2*>(in),
                                                                 static_cast<double*>(out), batch);
  else
    c2r_length1_kernel<float><<<flat_blocks(batch), 256, 0, s>>>(static_cast<const float2*>(in),
                                                                static_cast<float*>(out), batch);
  CUSCI_CHECK_LAUNCH();
}

void hilbert_quadrature(void* spec, std::int64_t N, std::int64_t rows, bool dbl) {
  if (N <= 0 || rows <= 0) return;
  const cudaStream_t s = get_current_stream();
  const dim3 g = row_grid(N / 2 + 1, rows);
  if (dbl)
    hilbert_quadrature_kernel<double><<<g, 256, 0, s>>>(static_cast<double2*>(spec), N, rows, 1.0 / double(N));
  else
    hilbert_quadrature_kernel<float><<<g, 256, 0, s>>>(static_cast<float2*>(spec), N, rows,
                                                       static_cast<float>(1.0 / double(N)));
  CUSCI_CHECK_LAUNCH();
}

void analytic_combine(const void* x, const void* h, void* out, std::int64_t total, bool dbl) {
  if (total <= 0) return;
  const cudaStream_t s = get_current_stream();
  std::int64_t blocks = (total + 255) / 256;
  if (blocks > (1LL << 20)) blocks = 1LL << 20;
  const unsigned g = static_cast<unsigned>(blocks);
  if (dbl)
    analytic_combine_kernel<double><<<g, 256, 0, s>>>(static_cast<const double*>(x), static_cast<const double*>(h),
                                                      static_cast<double2*>(out), total);
  else
    analytic_combine_kernel<float><<<g, 256, 0, s>>>(static_cast<const float*>(x), static_cast<const float*>(h),
                                                     static_cast<float2*>(out), total);
  CUSCI_CHECK_LAUNCH();
}

void hilbert2_weights(ndarray& X, int ax0, int ax1) {
  const std::int64_t total = X.size();
  if (total == 0) return;
  std::int64_t stride0 = 1, stride1 = 1;
  for (int d = X.ndim() - 1; d > ax0; --d) stride0 *= X.shape()[d];
  for (int d = X.ndim() - 1; d > ax1; --d) stride1 *= X.shape()[d];
  const std::int64_t N0 = X.shape()[ax0], N1 = X.shape()[ax1];
  const cudaStream_t s = get_current_stream();
  std::int64_t blocks = (total + 255) / 256;
  if (blocks > (1LL << 22)) blocks = 1LL << 22;
  const unsigned g = static_cast<unsigned>(blocks);
  if (X.dtype() == dtype::complex128)
    hilbert2_weights_kernel<double><<<g, 256, 0, s>>>(X.data_as<double2>(), total, stride0, N0, stride1, N1);
  else
    hilbert2_weights_kernel<float><<<g, 256, 0, s>>>(X.data_as<float2>(), total, stride0, N0, stride1, N1);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail
