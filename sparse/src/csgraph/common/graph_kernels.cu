// Device side of csgraph's shared pieces (common/graph.hpp): dense -> CSR with SciPy's null rules,
// CSR -> dense keeping the smallest of parallel edges, the row index of each entry, and the union
// G + G^T that undirected algorithms walk. float64 values, int32/int64 index input, int32 output.

#include <cstdint>
#include <limits>
#include <string>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "csgraph/common/graph.hpp"
#include "csgraph/common/graph_device.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::csgraph::detail {
namespace {

constexpr int threads = 256;
inline unsigned blocks_for(std::int64_t n) { return static_cast<unsigned>((n + threads - 1) / threads); }

struct null_rule {
  double null_value;
  bool has_null, nan_null, inf_null;
  __device__ bool is_null(double v) const {
    if (has_null && v == null_value) return true;
    if (nan_null && isnan(v)) return true;
    if (inf_null && isinf(v)) return true;
    return false;
  }
};

// Edges per row of a C-contiguous (n, n) float64 array: one block per row.
__global__ void count_rows(const double* __restrict__ a, const bool* __restrict__ masked, std::int64_t n, null_rule r,
                           std::int64_t* __restrict__ cnt) {
  const std::int64_t row = blockIdx.x;
  const double* p = a + row * n;
  int local = 0;
  for (std::int64_t j = threadIdx.x; j < n; j += blockDim.x)
    local += (r.is_null(p[j]) || (masked && masked[row * n + j])) ? 0 : 1;
  using reduce_t = cub::BlockScan<int, threads>;
  __shared__ typename reduce_t::TempStorage tmp;
  int total = 0;
  reduce_t(tmp).ExclusiveSum(local, local, total);
  if (threadIdx.x == 0) cnt[row + 1] = total;
}

// Writes each row's edges in column order at indptr[row]: one block per row, a block-wide scan per tile.
__global__ void fill_rows(const double* __restrict__ a, const bool* __restrict__ masked, std::int64_t n, null_rule r,
                          const std::int64_t* __restrict__ ptr,
                          double* __restrict__ data, std::int32_t* __restrict__ indices) {
  const std::int64_t row = blockIdx.x;
  const double* p = a + row * n;
  std::int64_t base = ptr[row];
  using scan_t = cub::BlockScan<int, threads>;
  __shared__ typename scan_t::TempStorage tmp;
  for (std::int64_t j0 = 0; j0 < n; j0 += threads) {
    const std::int64_t j = j0 + threadIdx.x;
    double v = 0;
    int keep = 0;
    if (j < n) {
      v = p[j];
      keep = (r.is_null(v) || (masked && masked[row * n + j])) ? 0 : 1;
    }
    int pos = 0, total = 0;
    scan_t(tmp).ExclusiveSum(keep, pos, total);
    if (keep) {
      data[base + pos] = v;
      indices[base + pos] = static_cast<std::int32_t>(j);
    }
    base += total;
    __syncthreads();  // tmp is reused by the next tile
  }
}

template <class I>
__device__ std::int64_t row_of(const I* __restrict__ indptr, std::int64_t rows, std::int64_t k) {
  // The row r with indptr[r] <= k < indptr[r + 1] (the last such r for empty rows before it).
  std::int64_t lo = 0, hi = rows;  // answer in [lo, hi)
  while (hi - lo > 1) {
    const std::int64_t mid = (lo + hi) / 2;
    if (static_cast<std::int64_t>(indptr[mid]) <= k) lo = mid;
    else hi = mid;
  }
  return lo;
}

template <class I>
__global__ void rows_kernel(const I* __restrict__ indptr, std::int64_t rows, std::int64_t nnz, std::int32_t* __restrict__ out) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k < nnz) out[k] = static_cast<std::int32_t>(row_of(indptr, rows, k));
}

__global__ void fill_keys(unsigned long long* __restrict__ out, std::int64_t size, unsigned char* __restrict__ mask) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k < size) {
    out[k] = order_key(std::numeric_limits<double>::infinity());
    mask[k] = 0;
  }
}

template <class I>
__global__ void scatter_min(const double* __restrict__ data, const I* __restrict__ indices, const I* __restrict__ indptr,
                            std::int64_t rows, std::int64_t cols, std::int64_t nnz, unsigned long long* __restrict__ out,
                            unsigned char* __restrict__ mask) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k >= nnz) return;
  const std::int64_t r = row_of(indptr, rows, k);
  const std::int64_t cell = r * cols + static_cast<std::int64_t>(indices[k]);
  mask[cell] = 1;
  const double v = data[k];
  if (!isnan(v)) atomicMin(out + cell, order_key(v));
}

__global__ void finish_dense(unsigned long long* __restrict__ keys, const unsigned char* __restrict__ mask, std::int64_t size,
                             double null_value) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k < size) reinterpret_cast<double*>(keys)[k] = mask[k] ? key_value(keys[k]) : null_value;
}

__global__ void union_keys(const std::int32_t* __restrict__ rows, const std::int32_t* __restrict__ cols,
                           const double* __restrict__ w, std::int64_t nnz, unsigned long long* __restrict__ keys,
                           double* __restrict__ vals) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k >= nnz) return;
  const unsigned long long r = static_cast<std::uint32_t>(rows[k]), c = static_cast<std::uint32_t>(cols[k]);
  keys[k] = (r << 32) | c;
  keys[nnz + k] = (c << 32) | r;
  vals[k] = w[k];
  vals[nnz + k] = w[k];
}

__global__ void split_keys(const unsigned long long* __restrict__ keys, std::int64_t m, std::int32_t* __restrict__ cols,
                           std::int64_t* __restrict__ counts) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k >= m) return;
  cols[k] = static_cast<std::int32_t>(keys[k] & 0xffffffffull);
  atomicAdd(reinterpret_cast<unsigned long long*>(counts + (keys[k] >> 32) + 1), 1ull);
}

__global__ void narrow_indptr(const std::int64_t* __restrict__ in, std::int64_t n, std::int32_t* __restrict__ out) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k < n) out[k] = static_cast<std::int32_t>(in[k]);
}

__global__ void null_mask_kernel(const double* __restrict__ a, std::int64_t size, null_rule r, bool* __restrict__ out) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k < size) out[k] = r.is_null(a[k]);
}

void inclusive_scan(std::int64_t* p, std::int64_t n, cudaStream_t s) {
  if (n <= 0) return;
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, p, p, n, s));
  device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp.data(), bytes, p, p, n, s));
}

std::int64_t read_back(const std::int64_t* p, cudaStream_t s) {
  std::int64_t v = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&v, p, sizeof v, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return v;
}

// indptr int64 [n + 1] (already scanned) -> int32, checking the total fits.
ndarray to_int32_indptr(const ndarray& ptr64, std::int64_t total, const std::string& fn, cudaStream_t s) {
  CUSCI_EXPECTS(total <= std::numeric_limits<std::int32_t>::max(), value_error,
                msg(fn, "the graph has " + std::to_string(total) +
                            " edges, more than int32 indices (SciPy's ITYPE) can address"));
  const std::int64_t n = ptr64.size();
  ndarray out = empty({n}, dtype::int32);
  if (n > 0) {
    narrow_indptr<<<blocks_for(n), threads, 0, s>>>(ptr64.data_as<std::int64_t>(), n, out.data_as<std::int32_t>());
    CUSCI_CHECK_LAUNCH();
  }
  return out;
}

}  // namespace

csr_matrix dense_to_csr_f64(const ndarray& a, std::int64_t n, const validate_options& o, const std::string& fn,
                            const ndarray* mask) {
  const bool* mk = mask ? mask->data_as<bool>() : nullptr;
  cudaStream_t s = get_current_stream();
  ndarray ptr = zeros({n + 1}, dtype::int64);
  const null_rule r{o.null_value_in, !o.null_value_none, o.nan_null, o.infinity_null};
  std::int64_t nnz = 0;
  if (n > 0) {
    CUSCI_EXPECTS(n <= std::numeric_limits<std::int32_t>::max(), value_error,
                  msg(fn, "graphs of more than 2^31 - 1 nodes are not supported (int32 indices)"));
    count_rows<<<static_cast<unsigned>(n), threads, 0, s>>>(a.data_as<double>(), mk, n, r, ptr.data_as<std::int64_t>());
    CUSCI_CHECK_LAUNCH();
    inclusive_scan(ptr.data_as<std::int64_t>(), n + 1, s);
    nnz = read_back(ptr.data_as<std::int64_t>() + n, s);
  }
  ndarray indptr = to_int32_indptr(ptr, nnz, fn, s);
  ndarray data = empty({nnz}, dtype::float64);
  ndarray indices = empty({nnz}, dtype::int32);
  if (n > 0 && nnz > 0) {
    fill_rows<<<static_cast<unsigned>(n), threads, 0, s>>>(a.data_as<double>(), mk, n, r, ptr.data_as<std::int64_t>(),
                                                         data.data_as<double>(), indices.data_as<std::int32_t>());
    CUSCI_CHECK_LAUNCH();
  }
  return csr_matrix::from_valid(data, indices, indptr, {n, n}, true);
}

ndarray csr_to_dense_min_f64(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t rows,
                             std::int64_t cols, double null_value) {
  cudaStream_t s = get_current_stream();
  const std::int64_t size = rows * cols, nnz = data.size();
  ndarray out = empty({rows, cols}, dtype::float64);
  if (size == 0) return out;
  device_buffer<unsigned char> mask(static_cast<std::size_t>(size), s);
  auto* keys = reinterpret_cast<unsigned long long*>(out.data());
  fill_keys<<<blocks_for(size), threads, 0, s>>>(keys, size, mask.data());
  CUSCI_CHECK_LAUNCH();
  if (nnz > 0) {
    if (indices.dtype() == dtype::int32)
      scatter_min<<<blocks_for(nnz), threads, 0, s>>>(data.data_as<double>(), indices.data_as<std::int32_t>(),
                                                      indptr.data_as<std::int32_t>(), rows, cols, nnz, keys, mask.data());
    else
      scatter_min<<<blocks_for(nnz), threads, 0, s>>>(data.data_as<double>(), indices.data_as<std::int64_t>(),
                                                      indptr.data_as<std::int64_t>(), rows, cols, nnz, keys, mask.data());
    CUSCI_CHECK_LAUNCH();
  }
  finish_dense<<<blocks_for(size), threads, 0, s>>>(keys, mask.data(), size, null_value);
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray null_mask_f64(const ndarray& a, const validate_options& o) {
  cudaStream_t s = get_current_stream();
  ndarray out = empty(a.shape(), dtype::bool_);
  const std::int64_t size = a.size();
  const null_rule r{o.null_value_in, !o.null_value_none, o.nan_null, o.infinity_null};
  if (size > 0) {
    null_mask_kernel<<<blocks_for(size), threads, 0, s>>>(a.data_as<double>(), size, r, out.data_as<bool>());
    CUSCI_CHECK_LAUNCH();
  }
  return out;
}

ndarray row_of_entries(const csr_matrix& g) {
  cudaStream_t s = get_current_stream();
  const std::int64_t nnz = g.nnz(), rows = g.shape()[0];
  ndarray out = empty({nnz}, dtype::int32);
  if (nnz == 0) return out;
  if (g.indptr().dtype() == dtype::int32)
    rows_kernel<<<blocks_for(nnz), threads, 0, s>>>(g.indptr().data_as<std::int32_t>(), rows, nnz, out.data_as<std::int32_t>());
  else
    rows_kernel<<<blocks_for(nnz), threads, 0, s>>>(g.indptr().data_as<std::int64_t>(), rows, nnz, out.data_as<std::int32_t>());
  CUSCI_CHECK_LAUNCH();
  return out;
}

csr_matrix symmetrize_union(const csr_matrix& g) {
  const std::string fn = "cusci::sparse::csgraph";
  cudaStream_t s = get_current_stream();
  const std::int64_t n = g.shape()[0], nnz = g.nnz(), m = 2 * nnz;
  CUSCI_EXPECTS(g.indices().dtype() == dtype::int32 && g.dtype() == dtype::float64, type_error,
                msg(fn, "symmetrize_union expects a validated graph (float64 data, int32 indices)"));
  CUSCI_EXPECTS(m <= std::numeric_limits<std::int32_t>::max(), value_error,
                msg(fn, "the symmetrized graph would have " + std::to_string(m) +
                            " edges, more than int32 indices (SciPy's ITYPE) can address"));
  ndarray ptr = zeros({n + 1}, dtype::int64);
  ndarray data = empty({m}, dtype::float64);
  ndarray cols = empty({m}, dtype::int32);
  if (m > 0) {
    ndarray rows = row_of_entries(g);
    device_buffer<unsigned long long> keys(static_cast<std::size_t>(m), s), keys_out(static_cast<std::size_t>(m), s);
    device_buffer<double> vals(static_cast<std::size_t>(m), s);
    union_keys<<<blocks_for(nnz), threads, 0, s>>>(rows.data_as<std::int32_t>(), g.indices().data_as<std::int32_t>(),
                                                   g.data().data_as<double>(), nnz, keys.data(), vals.data());
    CUSCI_CHECK_LAUNCH();
    int end_bit = 64;
    std::size_t bytes = 0;
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.data(), keys_out.data(), vals.data(),
                                                   data.data_as<double>(), m, 0, end_bit, s));
    device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, keys.data(), keys_out.data(), vals.data(),
                                                   data.data_as<double>(), m, 0, end_bit, s));
    split_keys<<<blocks_for(m), threads, 0, s>>>(keys_out.data(), m, cols.data_as<std::int32_t>(), ptr.data_as<std::int64_t>());
    CUSCI_CHECK_LAUNCH();
    inclusive_scan(ptr.data_as<std::int64_t>(), n + 1, s);
  }
  ndarray indptr = to_int32_indptr(ptr, m, fn, s);
  return csr_matrix::from_valid(data, cols, indptr, {n, n}, false);
}

}  // namespace cusci::sparse::csgraph::detail
