// Direct (sum of products) convolution kernels: the N-D correlation of convolve / correlate with
// method direct, and the tiled 2-D correlation with boundary conditions of convolve2d / correlate2d.
// Instantiated for float32, float64, complex64, complex128 and int64 (integer inputs are summed in
// int64 and wrapped to their width by the caller, which is the modular result NumPy's integer loops
// give).

#include <algorithm>
#include <cstdint>

#include <cuda/std/complex>

#include "convolution/conv_common.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"

namespace cusci::signal::detail {
namespace {

using i64 = std::int64_t;

template <class T> __device__ __forceinline__ T maybe_conj(const T& v, bool c) { return v; }
template <class R>
__device__ __forceinline__ cuda::std::complex<R> maybe_conj(const cuda::std::complex<R>& v, bool c) {
  return c ? cuda::std::conj(v) : v;
}

// ------------------------------------------------------------------------------------- N-D kernel

struct nd_params {
  int nd;
  i64 out_shape[direct_max_ndim];
  i64 x_shape[direct_max_ndim];
  i64 x_stride[direct_max_ndim];  // elements
  i64 w_shape[direct_max_ndim];
  i64 w_stride[direct_max_ndim];  // elements
  i64 p[direct_max_ndim];
  i64 w_size;
};

// One thread per output element: out[o] = sum_k X[o + k - p] W[k] (X zero outside). k walks W in
// C order with an odometer, so the inner loop has no division.
template <class T>
__global__ void direct_nd_kernel(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out, i64 out_size,
                                 nd_params prm, bool conj_x, bool conj_w) {
  for (i64 o = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; o < out_size;
       o += static_cast<i64>(gridDim.x) * blockDim.x) {
    i64 base[direct_max_ndim];  // o_d - p_d
    i64 rem = o;
    for (int d = prm.nd - 1; d >= 0; --d) {
      const i64 od = rem % prm.out_shape[d];
      rem /= prm.out_shape[d];
      base[d] = od - prm.p[d];
    }
    i64 k[direct_max_ndim];
    for (int d = 0; d < prm.nd; ++d) k[d] = 0;
    T acc = T(0);
    for (i64 kk = 0; kk < prm.w_size; ++kk) {
      bool inside = true;
      i64 xo = 0, wo = 0;
      for (int d = 0; d < prm.nd; ++d) {
        const i64 xi = base[d] + k[d];
        inside = inside && xi >= 0 && xi < prm.x_shape[d];
        xo += xi * prm.x_stride[d];
        wo += k[d] * prm.w_stride[d];
      }
      if (inside) acc += maybe_conj(x[xo], conj_x) * maybe_conj(w[wo], conj_w);
      for (int d = prm.nd - 1; d >= 0; --d) {  // next k in C order
        if (++k[d] < prm.w_shape[d]) break;
        k[d] = 0;
      }
    }
    out[o] = acc;
  }
}

// ------------------------------------------------------------------------------------- 2-D kernels

struct bnd2d {
  int mode;  // 0 fill, 1 wrap, 2 symm
  __device__ __forceinline__ i64 map(i64 i, i64 n) const {
    if (i >= 0 && i < n) return i;
    if (mode == 1) {
      i64 m = i % n;
      return m < 0 ? m + n : m;
    }
    if (mode == 2) {
      const i64 period = 2 * n;
      i64 m = i % period;
      if (m < 0) m += period;
      return m < n ? m : period - 1 - m;
    }
    return -1;  // fill
  }
};

struct p2d {
  i64 xr, xc, xs0, xs1;  // x shape, strides (elements)
  i64 kh, kw, ws0, ws1;  // w shape, strides
  i64 orows, ocols, p0, p1;
  int boundary;
  bool conj_w, flip_out;
};

template <class T>
__device__ __forceinline__ T load_ext(const T* __restrict__ x, const p2d& q, i64 i, i64 j, const T& fill) {
  const bnd2d bd{q.boundary};
  const i64 mi = bd.map(i, q.xr), mj = bd.map(j, q.xc);
  return (mi < 0 || mj < 0) ? fill : x[mi * q.xs0 + mj * q.xs1];
}

template <class T>
__device__ __forceinline__ void store_out(T* __restrict__ out, const p2d& q, i64 i, i64 j, const T& v) {
  if (q.flip_out) {
    i = q.orows - 1 - i;
    j = q.ocols - 1 - j;
  }
  out[i * q.ocols + j] = v;
}

// Fallback: one thread per output, extended input read through the boundary map.
template <class T>
__global__ void direct_2d_simple(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out, p2d q, T fill) {
  const i64 total = q.orows * q.ocols;
  for (i64 o = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; o < total;
       o += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 i = o / q.ocols, j = o - i * q.ocols;
    T acc = T(0);
    for (i64 a = 0; a < q.kh; ++a)
      for (i64 b = 0; b < q.kw; ++b)
        acc += load_ext(x, q, i + a - q.p0, j + b - q.p1, fill) * maybe_conj(w[a * q.ws0 + b * q.ws1], q.conj_w);
    store_out(out, q, i, j, acc);
  }
}

// Tiled: a block of 32 x 8 threads computes a tile of TR = 8 * RY rows x 32 columns; each thread
// owns RY consecutive rows of one column. The extended input tile (TR + kh - 1) x (32 + kw - 1) is
// loaded once into shared memory with the boundary applied, the weights too. The kernel rows are
// taken KH at a time (zero-padded): for each kernel column b the KH weights of the chunk sit in
// registers, and each input value of the column window is loaded once from shared memory and used
// for up to RY products (register indices are compile-time after unrolling).
constexpr int TILE_C = 32;
constexpr int BLOCK_Y = 8;
constexpr int RY = 8;
constexpr int TILE_R = BLOCK_Y * RY;

template <class T, int KH>
__global__ void __launch_bounds__(TILE_C* BLOCK_Y)
    direct_2d_tiled(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out, p2d q, T fill,
                    i64 tiles_r) {
  extern __shared__ unsigned char smem_raw[];
  T* sw = reinterpret_cast<T*>(smem_raw);  // kh * kw weights
  const int KWi = static_cast<int>(q.kw), KHi = static_cast<int>(q.kh);
  const int SC = TILE_C + KWi - 1, SR = TILE_R + KHi - 1;
  T* sx = sw + KHi * KWi;  // SR x SC input tile
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TILE_C + tx;
  constexpr int NT = TILE_C * BLOCK_Y;
  for (int i = tid; i < KHi * KWi; i += NT) {
    const int a = i / KWi, b = i - a * KWi;
    sw[i] = maybe_conj(w[a * q.ws0 + b * q.ws1], q.conj_w);
  }
  const i64 c0 = static_cast<i64>(blockIdx.x) * TILE_C;
  for (i64 tr = blockIdx.y; tr < tiles_r; tr += gridDim.y) {
    const i64 r0 = tr * TILE_R;
    __syncthreads();  // the previous tile's readers are done (and the weights are visible)
    for (int i = tid; i < SR * SC; i += NT) {
      const int u = i / SC, v = i - u * SC;
      sx[i] = load_ext(x, q, r0 + u - q.p0, c0 + v - q.p1, fill);
    }
    __syncthreads();
    T acc[RY];
#pragma unroll
    for (int r = 0; r < RY; ++r) acc[r] = T(0);
    for (int a0 = 0; a0 < KHi; a0 += KH) {
      for (int b = 0; b < KWi; ++b) {
        T wc[KH];
#pragma unroll
        for (int a = 0; a < KH; ++a) wc[a] = (a0 + a < KHi) ? sw[(a0 + a) * KWi + b] : T(0);
        const T* col = sx + (ty * RY + a0) * SC + tx + b;
#pragma unroll
        for (int t = 0; t < RY + KH - 1; ++t) {
          // rows past the tile's end hold only what padded weights (zero) multiply; skip the load
          const T v = (ty * RY + a0 + t < SR) ? col[t * SC] : T(0);
#pragma unroll
          for (int r = 0; r < RY; ++r) {
            const int a = t - r;
            if (a >= 0 && a < KH) acc[r] += v * wc[a];
          }
        }
      }
    }
    const i64 j = c0 + tx;
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      const i64 i = r0 + ty * RY + r;
      if (i < q.orows && j < q.ocols) store_out(out, q, i, j, acc[r]);
    }
  }
}

unsigned grid_1d(i64 n, int threads) {
  return static_cast<unsigned>(std::max<i64>(1, std::min<i64>((n + threads - 1) / threads, i64{1} << 20)));
}

template <class T> T from_complex(const std::complex<double>& v) { return static_cast<T>(v.real()); }
template <> cuda::std::complex<float> from_complex(const std::complex<double>& v) {
  return {static_cast<float>(v.real()), static_cast<float>(v.imag())};
}
template <> cuda::std::complex<double> from_complex(const std::complex<double>& v) { return {v.real(), v.imag()}; }

template <class T>
void direct_nd_typed(const ndarray& x, const ndarray& w, ndarray& out, const std::vector<i64>& p, bool cx, bool cw) {
  nd_params prm{};
  prm.nd = x.ndim();
  const i64 es = static_cast<i64>(x.itemsize());
  for (int d = 0; d < prm.nd; ++d) {
    prm.out_shape[d] = out.shape()[static_cast<std::size_t>(d)];
    prm.x_shape[d] = x.shape()[static_cast<std::size_t>(d)];
    prm.x_stride[d] = x.strides()[static_cast<std::size_t>(d)] / es;
    prm.w_shape[d] = w.shape()[static_cast<std::size_t>(d)];
    prm.w_stride[d] = w.strides()[static_cast<std::size_t>(d)] / es;
    prm.p[d] = p[static_cast<std::size_t>(d)];
  }
  prm.w_size = w.size();
  const i64 n = out.size();
  if (n == 0) return;
  cudaStream_t s = get_current_stream();
  direct_nd_kernel<T><<<grid_1d(n, 256), 256, 0, s>>>(static_cast<const T*>(x.data()), static_cast<const T*>(w.data()),
                                                      static_cast<T*>(out.data()), n, prm, cx, cw);
  CUSCI_CHECK_LAUNCH();
}

template <class T>
void direct_2d_typed(const ndarray& x, const ndarray& w, ndarray& out, const p2d& q, const std::complex<double>& fillc) {
  const i64 total = q.orows * q.ocols;
  if (total == 0) return;
  cudaStream_t s = get_current_stream();
  const T fill = from_complex<T>(fillc);
  const T* xp = static_cast<const T*>(x.data());
  const T* wp = static_cast<const T*>(w.data());
  T* op = static_cast<T*>(out.data());
  const std::size_t smem =
      sizeof(T) * static_cast<std::size_t>(q.kh * q.kw + (TILE_R + q.kh - 1) * (TILE_C + q.kw - 1));
  if (q.kh * q.kw > 1 && smem <= 48 * 1024) {
    const i64 tiles_r = (q.orows + TILE_R - 1) / TILE_R, tiles_c = (q.ocols + TILE_C - 1) / TILE_C;
    CUSCI_EXPECTS(tiles_c <= 0x7fffffff, value_error, "cusci::signal::convolve2d: output too wide");
    dim3 grid(static_cast<unsigned>(tiles_c), static_cast<unsigned>(std::min<i64>(tiles_r, 65535)));
    dim3 block(TILE_C, BLOCK_Y);
    if (q.kh <= 4)
      direct_2d_tiled<T, 4><<<grid, block, smem, s>>>(xp, wp, op, q, fill, tiles_r);
    else
      direct_2d_tiled<T, 16><<<grid, block, smem, s>>>(xp, wp, op, q, fill, tiles_r);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  direct_2d_simple<T><<<grid_1d(total, 256), 256, 0, s>>>(xp, wp, op, q, fill);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

ndarray direct_correlate(const ndarray& x, const ndarray& w, const shape_t& out_shape, const std::vector<std::int64_t>& p,
                         bool conj_x, bool conj_w) {
  ndarray out = empty(out_shape, x.dtype());
  switch (x.dtype()) {
    case dtype::float32: direct_nd_typed<float>(x, w, out, p, conj_x, conj_w); break;
    case dtype::float64: direct_nd_typed<double>(x, w, out, p, conj_x, conj_w); break;
    case dtype::complex64: direct_nd_typed<cuda::std::complex<float>>(x, w, out, p, conj_x, conj_w); break;
    case dtype::complex128: direct_nd_typed<cuda::std::complex<double>>(x, w, out, p, conj_x, conj_w); break;
    case dtype::int64: direct_nd_typed<long long>(x, w, out, p, conj_x, conj_w); break;
    default: CUSCI_EXPECTS(false, not_implemented_error, "cusci::signal: direct convolution: unsupported dtype");
  }
  return out;
}

ndarray direct_correlate2d(const ndarray& x, const ndarray& w, std::int64_t out_rows, std::int64_t out_cols,
                           std::int64_t p0, std::int64_t p1, conv_boundary boundary, const std::complex<double>& fill,
                           bool conj_w, bool flip_out) {
  ndarray out = empty(shape_t{out_rows, out_cols}, x.dtype());
  const i64 es = static_cast<i64>(x.itemsize());
  p2d q{};
  q.xr = x.shape()[0];
  q.xc = x.shape()[1];
  q.xs0 = x.strides()[0] / es;
  q.xs1 = x.strides()[1] / es;
  q.kh = w.shape()[0];
  q.kw = w.shape()[1];
  q.ws0 = w.strides()[0] / es;
  q.ws1 = w.strides()[1] / es;
  q.orows = out_rows;
  q.ocols = out_cols;
  q.p0 = p0;
  q.p1 = p1;
  q.boundary = boundary == conv_boundary::fill ? 0 : boundary == conv_boundary::wrap ? 1 : 2;
  q.conj_w = conj_w;
  q.flip_out = flip_out;
  switch (x.dtype()) {
    case dtype::float32: direct_2d_typed<float>(x, w, out, q, fill); break;
    case dtype::float64: direct_2d_typed<double>(x, w, out, q, fill); break;
    case dtype::complex64: direct_2d_typed<cuda::std::complex<float>>(x, w, out, q, fill); break;
    case dtype::complex128: direct_2d_typed<cuda::std::complex<double>>(x, w, out, q, fill); break;
    case dtype::int64: direct_2d_typed<long long>(x, w, out, q, fill); break;
    default: CUSCI_EXPECTS(false, not_implemented_error, "cusci::signal: convolve2d: unsupported dtype");
  }
  return out;
}

}  // namespace cusci::signal::detail
