#pragma once
// Stencil matrices built on the device, shared by the sparse benchmark programs (bench_sparse.cu,
// bench_sparse_products.cu, bench_sparse_dense_products.cu, bench_sparse_linalg.cu); their Python peers
// build the same matrices as sums of Kronecker products of 1-D tridiagonal matrices.
//   stencil(k, dims, lower, diag, upper, vt)  the (2 dims + 1)-point matrix on a k^dims grid (dims 2 or
//                                             3; grid point i has coordinate (i / k^a) mod k on axis a):
//                                             row i holds, in increasing column order, `lower` at each
//                                             lower grid neighbour (stride k^(dims-1), ..., k, 1),
//                                             `diag` on the diagonal and `upper` at each upper neighbour
//                                             (stride 1, k, ..., k^(dims-1)); no entry across the
//                                             boundary (Dirichlet). With the 1-D matrix
//                                             tridiag(lower, diag / dims, upper) on every axis it is the
//                                             sum of their Kronecker products. Canonical CSR, int32
//                                             indices, values of dtype vt (float32 or float64; the
//                                             values are converted from double).
//   poisson(k, dims, vt)                      stencil(k, dims, -1, 2 dims, -1, vt): the Poisson matrix
//                                             (5-point in 2-D, 7-point in 3-D).

#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/stream.hpp"

namespace cusci::bench {

/// Number of stored entries of row i of stencil(k, dims, ...).
__device__ __forceinline__ int stencil_row_count(std::int64_t i, std::int64_t k, int dims) {
  int c = 1;
  std::int64_t rest = i;
  for (int a = 0; a < dims; ++a) {
    const std::int64_t coord = rest % k;
    rest /= k;
    c += (coord > 0) + (coord < k - 1);
  }
  return c;
}

static __global__ void k_stencil_counts(std::int64_t n, std::int64_t k, int dims, std::int32_t* cnt) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    cnt[i] = stencil_row_count(i, k, dims);
}

/// Fills the rows of stencil(k, dims, lower, diag, upper) at the offsets ptr.
template <class T>
static __global__ void k_stencil_fill(std::int64_t n, std::int64_t k, int dims, T lower, T diag, T upper,
                                      const std::int32_t* ptr, std::int32_t* ind, T* val) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t coord[3] = {0, 0, 0};
    const std::int64_t stride[3] = {1, k, k * k};
    std::int64_t rest = i;
    for (int a = 0; a < dims; ++a) {
      coord[a] = rest % k;
      rest /= k;
    }
    std::int64_t j = ptr[i];
    for (int a = dims - 1; a >= 0; --a)  // lower neighbours, largest stride first
      if (coord[a] > 0) {
        ind[j] = static_cast<std::int32_t>(i - stride[a]);
        val[j++] = lower;
      }
    ind[j] = static_cast<std::int32_t>(i);
    val[j++] = diag;
    for (int a = 0; a < dims; ++a)
      if (coord[a] < k - 1) {
        ind[j] = static_cast<std::int32_t>(i + stride[a]);
        val[j++] = upper;
      }
  }
}

/// The stencil matrix described above (made on the current stream; reads nnz back from the device).
inline sparse::csr_matrix stencil(std::int64_t k, int dims, double lower, double diag, double upper,
                                  dtype vt = dtype::float64) {
  if ((dims != 2 && dims != 3) || (vt != dtype::float32 && vt != dtype::float64))
    throw value_error("cusci::bench::stencil: dims must be 2 or 3 and vt float32 or float64");
  const std::int64_t n = dims == 3 ? k * k * k : k * k;
  cudaStream_t s = get_current_stream();
  ndarray ptr = zeros({n + 1}, dtype::int32);
  std::int32_t* p1 = ptr.data_as<std::int32_t>() + 1;
  k_stencil_counts<<<4096, 256, 0, s>>>(n, k, dims, p1);
  CUSCI_CHECK_LAUNCH();
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, p1, p1, n, s));
  device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp.data(), bytes, p1, p1, n, s));
  const std::int64_t nnz = ptr[{slice{n, n + 1}}].item<std::int64_t>();
  ndarray ind = empty({nnz}, dtype::int32), val = empty({nnz}, vt);
  if (vt == dtype::float32)
    k_stencil_fill<float><<<4096, 256, 0, s>>>(n, k, dims, static_cast<float>(lower), static_cast<float>(diag),
                                               static_cast<float>(upper), ptr.data_as<std::int32_t>(),
                                               ind.data_as<std::int32_t>(), val.data_as<float>());
  else
    k_stencil_fill<double><<<4096, 256, 0, s>>>(n, k, dims, lower, diag, upper, ptr.data_as<std::int32_t>(),
                                                ind.data_as<std::int32_t>(), val.data_as<double>());
  CUSCI_CHECK_LAUNCH();
  return sparse::csr_matrix::from_valid(val, ind, ptr, {n, n}, true);
}

/// The Poisson matrix on a k^dims grid: stencil(k, dims, -1, 2 dims, -1, vt).
inline sparse::csr_matrix poisson(std::int64_t k, int dims, dtype vt = dtype::float64) {
  return stencil(k, dims, -1.0, 2.0 * dims, -1.0, vt);
}

}  // namespace cusci::bench
