// Device work of cusci::distributed's vectors and matrices (matrix_kernels.hpp): the CSR product of a
// rank's diagonal and off-diagonal blocks, the gather of the halo's send buffer, and the float64
// partial dot product of a rank's blocks.
//
// The CSR product gives each row G lanes of a warp (G a power of two <= 32, about a fifth of the mean
// row length: "CSR-vector", Bell & Garland, SC 2009, with fewer lanes), the lanes of a row adding their
// products with a shuffle reduction; rows are taken in a grid-stride loop whose bounds are the same in every lane of a
// warp, so the shuffles are converged.

#include "matrix/matrix_kernels.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"

namespace cusci::distributed::detail {
namespace {

constexpr int kBlock = 256;
// Blocks of the dot product's first pass (at most): enough to fill an H100/H200 twice over; the
// second pass adds their partial sums in one block.
constexpr int kDotBlocks = 1024;

int sm_count() {
  int dev = 0, sms = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return sms > 0 ? sms : 1;
}

template <class T, class I, int G, bool ACC>
__global__ void __launch_bounds__(kBlock) k_csr_spmv(std::int64_t m, const I* __restrict__ indptr,
                                                     const I* __restrict__ indices, const T* __restrict__ data,
                                                     const T* __restrict__ x, T* __restrict__ y) {
  constexpr int rows_per_warp = 32 / G;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const int sub = lane % G;
  const std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) >> 5;
  const std::int64_t step = (static_cast<std::int64_t>(gridDim.x) * blockDim.x >> 5) * rows_per_warp;
  for (std::int64_t row0 = warp * rows_per_warp; row0 < m; row0 += step) {
    const std::int64_t row = row0 + lane / G;
    T sum = T(0);
    if (row < m) {
      const std::int64_t b = indptr[row], e = indptr[row + 1];
      for (std::int64_t j = b + sub; j < e; j += G) sum += data[j] * x[indices[j]];
    }
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o, G);
    if (sub == 0 && row < m) {
      if constexpr (ACC) y[row] += sum;
      else y[row] = sum;
    }
  }
}

template <class T, class I>
__global__ void k_pack(std::int64_t n, const T* __restrict__ x, const I* __restrict__ rows, T* __restrict__ out) {
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < n;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[k] = x[rows[k]];
}

// The sum of v over the block, valid in thread 0 (blockDim.x a multiple of 32, at most 1024).
__device__ __forceinline__ double block_sum(double v) {
  __shared__ double warp_sums[32];
  const int lane = static_cast<int>(threadIdx.x & 31u), warp = static_cast<int>(threadIdx.x >> 5);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x >> 5) ? warp_sums[lane] : 0.0;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  }
  return v;
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_dot_partial(std::int64_t n, const T* __restrict__ a,
                                                        const T* __restrict__ b, double* __restrict__ partials) {
  double acc = 0.0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    acc += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  acc = block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

__global__ void __launch_bounds__(kBlock) k_dot_final(int nparts, const double* __restrict__ partials,
                                                      double* __restrict__ out) {
  double acc = 0.0;
  for (int i = static_cast<int>(threadIdx.x); i < nparts; i += blockDim.x) acc += partials[i];
  acc = block_sum(acc);
  if (threadIdx.x == 0) *out = acc;
}

// Calls f(type_tag<I>) for the index dtype int32 or int64.
template <class F>
decltype(auto) dispatch_index(cusci::dtype t, F&& f) {
  if (t == cusci::dtype::int32) return f(cusci::detail::type_tag<std::int32_t>{});
  if (t == cusci::dtype::int64) return f(cusci::detail::type_tag<std::int64_t>{});
  throw type_error("cusci::distributed: index arrays must be int32 or int64, got " + std::string(dtype_name(t)));
}

template <class T, class I, int G>
void launch_spmv(std::int64_t m, const I* indptr, const I* indices, const T* data, const T* x, T* y, bool acc,
                 cudaStream_t s) {
  constexpr int rows_per_block = kBlock / G;
  const unsigned grid = cusci::detail::grid_for((m + rows_per_block - 1) / rows_per_block, 1,
                                                static_cast<std::int64_t>(sm_count()) * (2048 / kBlock));
  if (acc) k_csr_spmv<T, I, G, true><<<grid, kBlock, 0, s>>>(m, indptr, indices, data, x, y);
  else k_csr_spmv<T, I, G, false><<<grid, kBlock, 0, s>>>(m, indptr, indices, data, x, y);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

// About kEntriesPerLane entries of a row per lane. Measured on an H200 (float64, self communicator,
// median of 30 products, lanes 1 to 32 forced): 2-D Poisson 4M rows (5 a row): 1 lane 0.086 ms, 2:
// 0.090, 8: 0.169 (cusci::sparse's CSR-stream: 0.098); banded rows of 12 / 32 / 128 entries (24M
// entries): best 2-4 lanes (0.097 ms), 8 (0.083), 32 (0.076). As many lanes as the mean row length
// (Bell & Garland's rule) was up to 2x slower on short rows.
constexpr std::int64_t kEntriesPerLane = 5;

int spmv_lanes(std::int64_t rows, std::int64_t nnz) noexcept {
  int g = 1;
  while (g < 32 && kEntriesPerLane * g * rows < nnz) g *= 2;
  return g;
}

void csr_spmv(cusci::dtype value, cusci::dtype index, std::int64_t m, const void* indptr, const void* indices,
              const void* data, const void* x, void* y, bool accumulate, int lanes, cudaStream_t s) {
  if (m <= 0) return;
  cusci::detail::dispatch_float(value, "cusci::distributed::csr_matrix::dot", "A", [&](auto vt) {
    using T = typename decltype(vt)::type;
    dispatch_index(index, [&](auto it) {
      using I = typename decltype(it)::type;
      const auto* p = static_cast<const I*>(indptr);
      const auto* c = static_cast<const I*>(indices);
      const auto* v = static_cast<const T*>(data);
      const auto* xv = static_cast<const T*>(x);
      auto* yv = static_cast<T*>(y);
      switch (lanes) {
        case 1: launch_spmv<T, I, 1>(m, p, c, v, xv, yv, accumulate, s); break;
        case 2: launch_spmv<T, I, 2>(m, p, c, v, xv, yv, accumulate, s); break;
        case 4: launch_spmv<T, I, 4>(m, p, c, v, xv, yv, accumulate, s); break;
        case 8: launch_spmv<T, I, 8>(m, p, c, v, xv, yv, accumulate, s); break;
        case 16: launch_spmv<T, I, 16>(m, p, c, v, xv, yv, accumulate, s); break;
        default: launch_spmv<T, I, 32>(m, p, c, v, xv, yv, accumulate, s); break;
      }
    });
  });
}

void pack(cusci::dtype value, cusci::dtype index, std::int64_t n, const void* x, const void* rows, void* out,
          cudaStream_t s) {
  if (n <= 0) return;
  cusci::detail::dispatch_float(value, "cusci::distributed::csr_matrix::dot", "x", [&](auto vt) {
    using T = typename decltype(vt)::type;
    dispatch_index(index, [&](auto it) {
      using I = typename decltype(it)::type;
      k_pack<T, I><<<cusci::detail::grid_for(n, kBlock), kBlock, 0, s>>>(n, static_cast<const T*>(x),
                                                                          static_cast<const I*>(rows),
                                                                          static_cast<T*>(out));
      CUSCI_CHECK_LAUNCH();
    });
  });
}

void local_dot(cusci::dtype value, std::int64_t n, const void* a, const void* b, double* out, cudaStream_t s) {
  if (n <= 0) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(out, 0, sizeof(double), s));
    return;
  }
  const unsigned grid = cusci::detail::grid_for(n, kBlock, kDotBlocks);
  device_buffer<double> partials(grid, s);
  cusci::detail::dispatch_float(value, "cusci::distributed::dot", "x", [&](auto vt) {
    using T = typename decltype(vt)::type;
    k_dot_partial<T><<<grid, kBlock, 0, s>>>(n, static_cast<const T*>(a), static_cast<const T*>(b), partials.data());
    CUSCI_CHECK_LAUNCH();
  });
  k_dot_final<<<1, kBlock, 0, s>>>(static_cast<int>(grid), partials.data(), out);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::distributed::detail
