// The per-bin kernels of ShortTimeFFT (sft_detail.hpp): tiled transposes between the spectral engine's
// (batch, slice, bin) rows and SciPy's (batch, bin, slice) layout that apply the per-bin work on the
// way (fftshift / ifftshift as an index rotation, the phase-shift and onesided2X factors from a small
// table, |.|^2 or x conj(y) for spectrograms). One read and one write of each element, both coalesced
// through a 32 x 33 shared tile. Instantiated for complex64 and complex128 only.
#include <cstdint>

#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "short_time_fft/sft_detail.hpp"

namespace cusci::signal::detail {

namespace {

constexpr int kTile = 32;  // tile edge (elements)
constexpr int kRows = 8;   // thread rows per block: 32 x 8 threads, 4 elements each

template <class C> struct real_of;
template <> struct real_of<float2> { using type = float; };
template <> struct real_of<double2> { using type = double; };

template <class C> __device__ __forceinline__ C mul(C a, C b) {
  C r;
  r.x = a.x * b.x - a.y * b.y;
  r.y = a.x * b.y + a.y * b.x;
  return r;
}

// The value written for one element of mode M (0 spectrum, 1 power, 2 cross).
template <int M, class C> struct post_op;
template <class C> struct post_op<0, C> {
  static __device__ __forceinline__ C get(const C* fx, const C*, std::int64_t i, C f) { return mul(fx[i], f); }
};
template <class C> struct post_op<1, C> {
  using R = typename real_of<C>::type;
  static __device__ __forceinline__ R get(const C* fx, const C*, std::int64_t i, C f) {
    const C v = fx[i];
    // SciPy: S.real**2 + S.imag**2 of the scaled spectrum; |f|^2 is 1 except for onesided2X's bins.
    const R p = v.x * v.x + v.y * v.y;
    return p * (f.x * f.x + f.y * f.y);
  }
};
template <class C> struct post_op<2, C> {
  static __device__ __forceinline__ C get(const C* fx, const C* fy, std::int64_t i, C f) {
    const C a = fx[i], b = fy[i];
    const auto g = f.x * f.x + f.y * f.y;
    C r;
    r.x = (a.x * b.x + a.y * b.y) * g;  // a * conj(b)
    r.y = (a.y * b.x - a.x * b.y) * g;
    return r;
  }
};

// out[b, k, s] = op(frames[b, s, (k + shift) % nfreq]); blocks: x over slice tiles, y over bin tiles,
// z over the batch (the last two grid-stride).
template <int M, class C, class O>
__global__ void __launch_bounds__(kTile * kRows)
    sft_post_kernel(const C* __restrict__ fx, const C* __restrict__ fy, const C* __restrict__ fac, std::int64_t batch,
                    std::int64_t nseg, std::int64_t nfreq, std::int64_t shift, O* __restrict__ out) {
  __shared__ O tile[kTile][kTile + 1];
  const std::int64_t s0 = static_cast<std::int64_t>(blockIdx.x) * kTile;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  for (std::int64_t k0 = static_cast<std::int64_t>(blockIdx.y) * kTile; k0 < nfreq;
       k0 += static_cast<std::int64_t>(gridDim.y) * kTile) {
    for (std::int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
      const std::int64_t k = k0 + tx;
      if (k < nfreq) {
        std::int64_t src = k + shift;
        if (src >= nfreq) src -= nfreq;
        const C f = fac[src];
#pragma unroll
        for (int i = 0; i < kTile; i += kRows) {
          const std::int64_t s = s0 + ty + i;
          if (s < nseg) tile[ty + i][tx] = post_op<M, C>::get(fx, fy, (b * nseg + s) * nfreq + src, f);
        }
      }
      __syncthreads();
      const std::int64_t s = s0 + tx;
      if (s < nseg) {
#pragma unroll
        for (int i = 0; i < kTile; i += kRows) {
          const std::int64_t kk = k0 + ty + i;
          if (kk < nfreq) out[(b * nfreq + kk) * nseg + s] = tile[tx][ty + i];
        }
      }
      __syncthreads();
    }
  }
}

// X[b, s, j] = S[b, (j + shift) % nfreq, col(s)] * fac[j], col(s) = c0 + s (+ nS when negative).
// Blocks: x over slice tiles, y over bin tiles, z over the batch.
template <class C>
__global__ void __launch_bounds__(kTile * kRows)
    sft_pre_inverse_kernel(const C* __restrict__ S, const C* __restrict__ fac, std::int64_t batch, std::int64_t nfreq,
                           std::int64_t nS, std::int64_t nq, std::int64_t shift, std::int64_t c0, C* __restrict__ X) {
  __shared__ C tile[kTile][kTile + 1];
  const std::int64_t s0 = static_cast<std::int64_t>(blockIdx.x) * kTile;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  for (std::int64_t j0 = static_cast<std::int64_t>(blockIdx.y) * kTile; j0 < nfreq;
       j0 += static_cast<std::int64_t>(gridDim.y) * kTile) {
    for (std::int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
      const std::int64_t s = s0 + tx;
      if (s < nq) {
        std::int64_t c = c0 + s;
        if (c < 0) c += nS;
#pragma unroll
        for (int i = 0; i < kTile; i += kRows) {
          const std::int64_t j = j0 + ty + i;
          if (j < nfreq) {
            std::int64_t jj = j + shift;
            if (jj >= nfreq) jj -= nfreq;
            tile[ty + i][tx] = mul(S[(b * nfreq + jj) * nS + c], fac[j]);
          }
        }
      }
      __syncthreads();
      const std::int64_t j = j0 + tx;
      if (j < nfreq) {
#pragma unroll
        for (int i = 0; i < kTile; i += kRows) {
          const std::int64_t ss = s0 + ty + i;
          if (ss < nq) X[(b * nq + ss) * nfreq + j] = tile[tx][ty + i];
        }
      }
      __syncthreads();
    }
  }
}

dim3 tile_grid(std::int64_t cols, std::int64_t rows, std::int64_t batch) {
  std::int64_t gx = (cols + kTile - 1) / kTile, gy = (rows + kTile - 1) / kTile, gz = batch;
  if (gx > 2147483647LL) gx = 2147483647LL;  // cannot happen for slice counts that fit in memory
  if (gy > 65535) gy = 65535;
  if (gz > 65535) gz = 65535;
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz));
}

template <class C>
void launch_post(const ndarray& fx, const ndarray* fy, const ndarray& fac, std::int64_t shift, sft_post_mode mode,
                 ndarray& out, cudaStream_t st) {
  using R = typename real_of<C>::type;
  const std::int64_t batch = fx.shape(0), nseg = fx.shape(1), nfreq = fx.shape(2);
  const dim3 grid = tile_grid(nseg, nfreq, batch), block(kTile, kRows);
  const C* x = fx.data_as<C>();
  const C* f = fac.data_as<C>();
  switch (mode) {
    case sft_post_mode::spectrum:
      sft_post_kernel<0, C, C><<<grid, block, 0, st>>>(x, nullptr, f, batch, nseg, nfreq, shift, out.data_as<C>());
      break;
    case sft_post_mode::power:
      sft_post_kernel<1, C, R><<<grid, block, 0, st>>>(x, nullptr, f, batch, nseg, nfreq, shift, out.data_as<R>());
      break;
    case sft_post_mode::cross:
      sft_post_kernel<2, C, C><<<grid, block, 0, st>>>(x, fy->data_as<C>(), f, batch, nseg, nfreq, shift,
                                                       out.data_as<C>());
      break;
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void sft_post(const ndarray& frames, const ndarray* frames_y, const ndarray& fac, std::int64_t shift, sft_post_mode mode,
              ndarray& out) {
  CUSCI_EXPECTS(frames.ndim() == 3 && frames.is_c_contiguous() && out.is_c_contiguous() &&
                    (frames.dtype() == dtype::complex64 || frames.dtype() == dtype::complex128) &&
                    fac.dtype() == frames.dtype() && fac.size() == frames.shape(2) &&
                    out.size() == frames.size() &&
                    (mode != sft_post_mode::cross ||
                     (frames_y != nullptr && frames_y->shape() == frames.shape() &&
                      frames_y->dtype() == frames.dtype() && frames_y->is_c_contiguous())),
                value_error, "cusci::signal::ShortTimeFFT: internal: inconsistent spectra from the framing engine");
  if (frames.size() == 0) return;
  const cudaStream_t st = get_current_stream();
  if (frames.dtype() == dtype::complex64) launch_post<float2>(frames, frames_y, fac, shift, mode, out, st);
  else launch_post<double2>(frames, frames_y, fac, shift, mode, out, st);
}

void sft_pre_inverse(const ndarray& S, const ndarray& fac, std::int64_t shift, std::int64_t c0, ndarray& X) {
  CUSCI_EXPECTS(S.ndim() == 3 && X.ndim() == 3 && S.is_c_contiguous() && X.is_c_contiguous() &&
                    S.dtype() == X.dtype() && fac.dtype() == S.dtype() && fac.size() == S.shape(1) &&
                    X.shape(0) == S.shape(0) && X.shape(2) == S.shape(1),
                value_error, "cusci::signal::ShortTimeFFT.istft: internal: inconsistent shapes");
  const std::int64_t batch = S.shape(0), nfreq = S.shape(1), nS = S.shape(2), nq = X.shape(1);
  if (X.size() == 0) return;
  const cudaStream_t st = get_current_stream();
  const dim3 grid = tile_grid(nq, nfreq, batch), block(kTile, kRows);
  if (S.dtype() == dtype::complex64)
    sft_pre_inverse_kernel<float2><<<grid, block, 0, st>>>(S.data_as<float2>(), fac.data_as<float2>(), batch, nfreq,
                                                           nS, nq, shift, c0, X.data_as<float2>());
  else
    sft_pre_inverse_kernel<double2><<<grid, block, 0, st>>>(S.data_as<double2>(), fac.data_as<double2>(), batch, nfreq,
                                                            nS, nq, shift, c0, X.data_as<double2>());
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail
