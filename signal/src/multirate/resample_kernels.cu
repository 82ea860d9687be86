// resample's spectrum steps between the forward and the inverse FFT (one pass each, fused: window,
// bin selection, the unpaired-bin rule of SciPy 1.18's resample, and the 1 / s_fac scaling).

#include <algorithm>
#include <cstdint>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "multirate/multirate_detail.hpp"

namespace cusci::signal::detail {
namespace {

using i64 = std::int64_t;
constexpr int kThreads = 256;

// NumPy divides a complex array by a real scalar s as by (s + 0j) with Smith's algorithm, which is a
// multiplication of both parts by 1 / s computed in the array's precision.
template <class C>
__device__ __forceinline__ C scale_by(const C& v, typename C::value_type inv) {
  return C(v.real() * inv, v.imag() * inv);
}

// Real data: Y[line, k] = X[line, k] (* W[k], in double, rounded back: NumPy's in-place X *= W),
// the unpaired bin m / 2 times nyq (when nyq != 1), then / s_fac.
template <class C>
__global__ void rspectrum_kernel(const C* __restrict__ X, C* __restrict__ Y, const double* __restrict__ W, i64 lines,
                                 i64 nX, i64 m2, i64 half, double nyq, typename C::value_type inv) {
  using R = typename C::value_type;
  const i64 total = lines * m2;
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 line = i / m2, k = i - line * m2;
    C v = X[line * nX + k];
    if (W != nullptr) {
      const double w = W[k];
      v = C(static_cast<R>(static_cast<double>(v.real()) * w), static_cast<R>(static_cast<double>(v.imag()) * w));
    }
    if (nyq != 1.0 && k == half) v = C(v.real() * static_cast<R>(nyq), v.imag() * static_cast<R>(nyq));
    Y[i] = scale_by(v, inv);
  }
}

// Two-sided: Y[line, k] from X[line, :] (both of dtype C; X already multiplied by nothing: W, if any,
// is applied here in C's precision), as SciPy's zero-filled Y with the head, the tail and the unpaired
// bin m / 2 for even m; then / s_fac.
template <class C>
__global__ void cspectrum_kernel(const C* __restrict__ X, C* __restrict__ Y, const double* __restrict__ W, i64 lines,
                                 i64 n_x, i64 num, i64 m, typename C::value_type inv) {
  using R = typename C::value_type;
  const i64 m2 = m / 2 + 1, half = m / 2;
  const i64 total = lines * num;
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 line = i / num, k = i - line * num;
    const C* xl = X + line * n_x;
    auto xw = [&](i64 j) {
      C v = xl[j];
      if (W != nullptr) {
        const R w = static_cast<R>(W[j]);
        v = C(v.real() * w, v.imag() * w);
      }
      return v;
    };
    C v(0);
    if (k < m2) v = xw(k);
    else if (m2 < m && k >= num - (m - m2)) v = xw(n_x - (num - k));
    if (m % 2 == 0) {
      if (num < n_x && k == num - half) v = v + xw(n_x - half);
      if (n_x < num && (k == half || k == num - half)) {
        const C h = xw(half);
        v = C(h.real() * R(0.5), h.imag() * R(0.5));
      }
    }
    Y[i] = scale_by(v, inv);
  }
}

unsigned grid_for(i64 total) {
  return static_cast<unsigned>(std::max<i64>(1, std::min<i64>((total + kThreads - 1) / kThreads, 1LL << 30)));
}

}  // namespace

void resample_rspectrum(const ndarray& X, ndarray& Y, const ndarray* W, std::int64_t m, double nyq_scale,
                        double s_fac) {
  const i64 nX = X.shape().back(), m2 = Y.shape().back();
  const i64 lines = m2 > 0 ? Y.size() / m2 : 0;
  if (lines == 0) return;
  cudaStream_t stream = get_current_stream();
  const double* w = W ? W->data_as<double>() : nullptr;
  if (X.dtype() == dtype::complex64) {
    using C = cuda::std::complex<float>;
    rspectrum_kernel<C><<<grid_for(lines * m2), kThreads, 0, stream>>>(
        X.data_as<C>(), Y.data_as<C>(), w, lines, nX, m2, m / 2, nyq_scale, 1.0f / static_cast<float>(s_fac));
  } else {
    using C = cuda::std::complex<double>;
    rspectrum_kernel<C><<<grid_for(lines * m2), kThreads, 0, stream>>>(X.data_as<C>(), Y.data_as<C>(), w, lines, nX,
                                                                      m2, m / 2, nyq_scale, 1.0 / s_fac);
  }
  CUSCI_CHECK_LAUNCH();
}

void resample_cspectrum(const ndarray& X, ndarray& Y, const ndarray* W, std::int64_t n_x, std::int64_t num,
                        double s_fac) {
  const i64 lines = num > 0 ? Y.size() / num : 0;
  if (lines == 0) return;
  cudaStream_t stream = get_current_stream();
  const double* w = W ? W->data_as<double>() : nullptr;
  const i64 m = std::min(num, n_x);
  if (Y.dtype() == dtype::complex64) {
    using C = cuda::std::complex<float>;
    cspectrum_kernel<C><<<grid_for(lines * num), kThreads, 0, stream>>>(
        X.data_as<C>(), Y.data_as<C>(), w, lines, n_x, num, m, 1.0f / static_cast<float>(s_fac));
  } else {
    using C = cuda::std::complex<double>;
    cspectrum_kernel<C><<<grid_for(lines * num), kThreads, 0, stream>>>(X.data_as<C>(), Y.data_as<C>(), w, lines,
                                                                       n_x, num, m, 1.0 / s_fac);
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail
