// Linear detrend per segment in three kernels over a chunk table (each chunk lies in one segment, at
// most kChunk samples): (1) per chunk, the float64 sums S0 = sum(y) and S1 = sum((t - tc) y) with t the
// index in the segment and tc = (L - 1) / 2 its centre; (2) per (row, segment), one warp adds its
// chunks' sums and forms mean = S0 / L and slope = S1 / (L (L^2 - 1) / 12); (3) per chunk, y - mean -
// slope (t - tc). Three passes over the data (read, read + write); the least-squares line in closed
// form, which is SciPy's lstsq solution (minimum norm, i.e. the point itself, for L == 1).
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "fourier/fourier_detail.hpp"
#include "fourier/fourier_kernels.cuh"

namespace cusci::signal::detail {

namespace {

constexpr std::int64_t kChunk = 4096;
constexpr int kBlock = 256;

template <class T> struct elem;
template <> struct elem<float> {
  static constexpr int K = 1;
  static __device__ __forceinline__ void load(const float* p, double* v) { v[0] = *p; }
  static __device__ __forceinline__ void store(float* p, const double* v) { *p = static_cast<float>(v[0]); }
};
template <> struct elem<double> {
  static constexpr int K = 1;
  static __device__ __forceinline__ void load(const double* p, double* v) { v[0] = *p; }
  static __device__ __forceinline__ void store(double* p, const double* v) { *p = v[0]; }
};
template <> struct elem<float2> {
  static constexpr int K = 2;
  static __device__ __forceinline__ void load(const float2* p, double* v) {
    const float2 c = *p;
    v[0] = c.x;
    v[1] = c.y;
  }
  static __device__ __forceinline__ void store(float2* p, const double* v) {
    *p = make_float2(static_cast<float>(v[0]), static_cast<float>(v[1]));
  }
};
template <> struct elem<double2> {
  static constexpr int K = 2;
  static __device__ __forceinline__ void load(const double2* p, double* v) {
    const double2 c = *p;
    v[0] = c.x;
    v[1] = c.y;
  }
  static __device__ __forceinline__ void store(double2* p, const double* v) { *p = make_double2(v[0], v[1]); }
};

// chunks: [start, end, seg] triples (row-relative sample indices); bounds: the nseg + 1 segment bounds.
template <class T>
__global__ void detrend_sums_kernel(const T* __restrict__ x, std::int64_t rows, std::int64_t N,
                                    const std::int64_t* __restrict__ chunks, std::int64_t nchunks,
                                    const std::int64_t* __restrict__ bounds, double* __restrict__ partial) {
  constexpr int K = elem<T>::K;
  __shared__ double red[kBlock / 32][2 * K];
  const std::int64_t c = blockIdx.x;
  const std::int64_t start = chunks[3 * c], end = chunks[3 * c + 1], seg = chunks[3 * c + 2];
  const std::int64_t s0 = bounds[seg], L = bounds[seg + 1] - s0;
  const double tc = 0.5 * static_cast<double>(L - 1);
  for (std::int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    double acc[2 * K];
#pragma unroll
    for (int q = 0; q < 2 * K; ++q) acc[q] = 0.0;
    const T* row = x + r * N;
    for (std::int64_t i = start + threadIdx.x; i < end; i += kBlock) {
      double v[K];
      elem<T>::load(row + i, v);
      const double t = static_cast<double>(i - s0) - tc;
#pragma unroll
      for (int q = 0; q < K; ++q) {
        acc[q] += v[q];
        acc[K + q] += t * v[q];
      }
    }
#pragma unroll
    for (int q = 0; q < 2 * K; ++q)
      for (int o = 16; o > 0; o >>= 1) acc[q] += __shfl_down_sync(0xffffffffu, acc[q], o);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
#pragma unroll
      for (int q = 0; q < 2 * K; ++q) red[warp][q] = acc[q];
    __syncthreads();
    if (threadIdx.x < 2 * K) {
      double s = 0.0;
      for (int w = 0; w < kBlock / 32; ++w) s += red[w][threadIdx.x];
      partial[(r * nchunks + c) * (2 * K) + threadIdx.x] = s;
    }
    __syncthreads();  // red is reused by the next row
  }
}

// One warp per (row, segment): coef[(r * nseg + seg) * 2K ..] = mean[K], slope[K].
template <int K>
__global__ void detrend_coef_kernel(const double* __restrict__ partial, std::int64_t rows, std::int64_t nchunks,
                                    std::int64_t nseg, const std::int64_t* __restrict__ seg_chunk,
                                    const std::int64_t* __restrict__ bounds, double* __restrict__ coef) {
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) / 32;
  const int lane = threadIdx.x % 32;
  for (std::int64_t w = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; w < rows * nseg;
       w += warps) {
    const std::int64_t r = w / nseg, seg = w % nseg;
    double acc[2 * K];
#pragma unroll
    for (int q = 0; q < 2 * K; ++q) acc[q] = 0.0;
    for (std::int64_t c = seg_chunk[seg] + lane; c < seg_chunk[seg + 1]; c += 32)
#pragma unroll
      for (int q = 0; q < 2 * K; ++q) acc[q] += partial[(r * nchunks + c) * (2 * K) + q];
#pragma unroll
    for (int q = 0; q < 2 * K; ++q)
      for (int o = 16; o > 0; o >>= 1) acc[q] += __shfl_down_sync(0xffffffffu, acc[q], o);
    if (lane == 0) {
      const double L = static_cast<double>(bounds[seg + 1] - bounds[seg]);
      const double stt = L * (L * L - 1.0) / 12.0;
#pragma unroll
      for (int q = 0; q < K; ++q) {
        coef[w * (2 * K) + q] = acc[q] / L;
        coef[w * (2 * K) + K + q] = stt > 0.0 ? acc[K + q] / stt : 0.0;
      }
    }
  }
}

template <class T>
__global__ void detrend_apply_kernel(const T* __restrict__ x, T* __restrict__ out, std::int64_t rows, std::int64_t N,
                                     const std::int64_t* __restrict__ chunks, std::int64_t nseg,
                                     const std::int64_t* __restrict__ bounds, const double* __restrict__ coef) {
  constexpr int K = elem<T>::K;
  const std::int64_t c = blockIdx.x;
  const std::int64_t start = chunks[3 * c], end = chunks[3 * c + 1], seg = chunks[3 * c + 2];
  const std::int64_t s0 = bounds[seg], L = bounds[seg + 1] - s0;
  const double tc = 0.5 * static_cast<double>(L - 1);
  for (std::int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    const double* cf = coef + (r * nseg + seg) * (2 * K);
    double mean[K], slope[K];
#pragma unroll
    for (int q = 0; q < K; ++q) {
      mean[q] = cf[q];
      slope[q] = cf[K + q];
    }
    for (std::int64_t i = start + threadIdx.x; i < end; i += kBlock) {
      double v[K];
      elem<T>::load(x + r * N + i, v);
      const double t = static_cast<double>(i - s0) - tc;
#pragma unroll
      for (int q = 0; q < K; ++q) v[q] = v[q] - (mean[q] + slope[q] * t);
      elem<T>::store(out + r * N + i, v);
    }
  }
}

template <class T>
void run(const ndarray& x, ndarray& out, std::int64_t rows, std::int64_t N, const std::vector<std::int64_t>& bounds) {
  constexpr int K = elem<T>::K;
  const std::int64_t nseg = static_cast<std::int64_t>(bounds.size()) - 1;
  // Host tables: chunks (start, end, seg), then each segment's first chunk (nseg + 1), then the bounds.
  std::vector<std::int64_t> tab;
  std::vector<std::int64_t> seg_chunk;
  std::int64_t nchunks = 0;
  for (std::int64_t sg = 0; sg < nseg; ++sg) {
    seg_chunk.push_back(nchunks);
    for (std::int64_t b = bounds[sg]; b < bounds[sg + 1]; b += kChunk) {
      tab.push_back(b);
      tab.push_back(b + kChunk < bounds[sg + 1] ? b + kChunk : bounds[sg + 1]);
      tab.push_back(sg);
      ++nchunks;
    }
  }
  seg_chunk.push_back(nchunks);
  if (nchunks == 0 || rows == 0) return;
  const std::int64_t off_seg = static_cast<std::int64_t>(tab.size());
  tab.insert(tab.end(), seg_chunk.begin(), seg_chunk.end());
  const std::int64_t off_bounds = static_cast<std::int64_t>(tab.size());
  tab.insert(tab.end(), bounds.begin(), bounds.end());
  const ndarray dtab = cusci::asarray(tab);
  const std::int64_t* t = dtab.data_as<std::int64_t>();

  const cudaStream_t s = get_current_stream();
  ndarray partial = cusci::empty({rows * nchunks * 2 * K}, dtype::float64);
  ndarray coef = cusci::empty({rows * nseg * 2 * K}, dtype::float64);
  CUSCI_EXPECTS(nchunks <= 0x7fffffffLL, value_error, "cusci::signal::detrend: too many samples along the axis");
  const dim3 g(static_cast<unsigned>(nchunks), static_cast<unsigned>(rows < 65535 ? rows : 65535), 1);
  detrend_sums_kernel<T><<<g, kBlock, 0, s>>>(x.data_as<T>(), rows, N, t, nchunks, t + off_bounds,
                                              partial.data_as<double>());
  CUSCI_CHECK_LAUNCH();
  std::int64_t cb = (rows * nseg * 32 + 255) / 256;
  if (cb > (1LL << 20)) cb = 1LL << 20;
  detrend_coef_kernel<K><<<static_cast<unsigned>(cb), 256, 0, s>>>(partial.data_as<double>(), rows, nchunks, nseg,
                                                                    t + off_seg, t + off_bounds, coef.data_as<double>());
  CUSCI_CHECK_LAUNCH();
  detrend_apply_kernel<T><<<g, kBlock, 0, s>>>(x.data_as<T>(), out.data_as<T>(), rows, N, t, nseg, t + off_bounds,
                                               coef.data_as<double>());
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void detrend_linear_rows(const ndarray& x, ndarray& out, std::int64_t rows, std::int64_t N,
                         const std::vector<std::int64_t>& bounds) {
  switch (x.dtype()) {
    case dtype::float32: run<float>(x, out, rows, N, bounds); break;
    case dtype::float64: run<double>(x, out, rows, N, bounds); break;
    case dtype::complex64: run<float2>(x, out, rows, N, bounds); break;
    case dtype::complex128: run<double2>(x, out, rows, N, bounds); break;
    default: throw value_error("cusci::signal::detrend: internal: unexpected dtype");
  }
}

}  // namespace cusci::signal::detail
