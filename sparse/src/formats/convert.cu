// Device side of cusci::sparse format handling: index checks, COO -> CSR (radix sort + reduce by key),
// CSR row expansion, densification and the diagonal.

#include <cstdint>
#include <string>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::detail {
namespace {

using cusci::detail::grid_for;
using cusci::detail::type_tag;

template <class F>
decltype(auto) dispatch_index(dtype t, F&& f) {
  if (t == dtype::int32) return f(type_tag<std::int32_t>{});
  if (t == dtype::int64) return f(type_tag<std::int64_t>{});
  throw type_error("cusci::sparse: internal index dtype must be int32 or int64, got " +
                   std::string(dtype_name(t)));
}

template <class F>
decltype(auto) dispatch_value(dtype t, F&& f) {
  return cusci::detail::dispatch_float(t, "cusci::sparse", "data", std::forward<F>(f));
}

// flags bits: 1 negative first, 2 too big first, 4 negative second, 8 too big second.
template <class I>
__global__ void k_check_pair(const I* __restrict__ a, const I* __restrict__ b, std::int64_t nnz, std::int64_t m,
                             std::int64_t n, unsigned* flags) {
  unsigned f = 0;
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < nnz;
       i += (std::int64_t)gridDim.x * blockDim.x) {
    const std::int64_t r = a[i];
    if (r < 0) f |= 1u;
    if (r >= m) f |= 2u;
    if (b) {
      const std::int64_t c = b[i];
      if (c < 0) f |= 4u;
      if (c >= n) f |= 8u;
    }
  }
  if (f) atomicOr(flags, f);
}

template <class I>
__global__ void k_check_indptr(const I* __restrict__ p, std::int64_t m, unsigned* flags) {
  unsigned f = 0;
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < m;
       i += (std::int64_t)gridDim.x * blockDim.x)
    if (p[i + 1] < p[i]) f = 1u;
  if (f) atomicOr(flags, f);
}

unsigned read_flags(const device_buffer<unsigned>& flags, cudaStream_t s) {
  unsigned h = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, flags.data(), sizeof(unsigned), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

template <class I>
__global__ void k_make_keys(const I* __restrict__ row, const I* __restrict__ col, std::int64_t nnz, int cbits,
                            unsigned long long* keys) {
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < nnz;
       i += (std::int64_t)gridDim.x * blockDim.x) {
    const unsigned long long r = static_cast<unsigned long long>(row[i]);
    const unsigned long long c = static_cast<unsigned long long>(col[i]);
    keys[i] = cbits >= 64 ? c : ((r << cbits) | c);
  }
}

// indices[i] = key & colmask; indptr[r] = first position whose key row >= r (r in [0, m]).
template <class I>
__global__ void k_keys_to_csr(const unsigned long long* __restrict__ keys, std::int64_t nnz, std::int64_t m,
                              int cbits, I* __restrict__ indices, I* __restrict__ indptr) {
  const unsigned long long cmask = cbits >= 64 ? ~0ull : ((1ull << cbits) - 1ull);
  const std::int64_t total = nnz > m + 1 ? nnz : m + 1;
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < total;
       i += (std::int64_t)gridDim.x * blockDim.x) {
    if (i < nnz) indices[i] = static_cast<I>(keys[i] & cmask);
    if (i <= m) {
      std::int64_t pos;
      if (i == m) {
        pos = nnz;
      } else {
        // lower_bound of the first key with row >= i.
        std::int64_t lo = 0, hi = nnz;
        while (lo < hi) {
          const std::int64_t mid = lo + (hi - lo) / 2;
          const unsigned long long row = cbits >= 64 ? 0ull : (keys[mid] >> cbits);
          if (row < static_cast<unsigned long long>(i)) lo = mid + 1;
          else hi = mid;
        }
        pos = lo;
      }
      indptr[i] = static_cast<I>(pos);
    }
  }
}

// Row of entry j: the last r with indptr[r] <= j (rows with no entries skipped).
template <class I>
__device__ __forceinline__ std::int64_t row_of(const I* __restrict__ indptr, std::int64_t m, std::int64_t j) {
  std::int64_t lo = 0, hi = m;  // answer in [0, m-1]: largest r with indptr[r] <= j
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (static_cast<std::int64_t>(indptr[mid]) <= j) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

template <class I>
__global__ void k_expand_rows(const I* __restrict__ indptr, std::int64_t m, std::int64_t nnz, I* __restrict__ row) {
  for (std::int64_t j = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; j < nnz;
       j += (std::int64_t)gridDim.x * blockDim.x)
    row[j] = static_cast<I>(row_of(indptr, m, j));
}

int bits_for(std::int64_t v) {  // number of bits to represent values in [0, v]
  int b = 0;
  while (b < 63 && (v >> b) != 0) ++b;
  return b;
}

}  // namespace

coo_check check_coo_indices(const ndarray& row, const ndarray& col, std::int64_t m, std::int64_t n) {
  coo_check out;
  const std::int64_t nnz = row.size();
  if (nnz == 0) return out;
  cudaStream_t s = get_current_stream();
  device_buffer<unsigned> flags(1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(flags.data(), 0, sizeof(unsigned), s));
  dispatch_index(row.dtype(), [&](auto tag) {
    using I = typename decltype(tag)::type;
    k_check_pair<I><<<grid_for(nnz, 256, 4096), 256, 0, s>>>(row.data_as<I>(), col.data_as<I>(), nnz, m, n,
                                                              flags.data());
    CUSCI_CHECK_LAUNCH();
  });
  const unsigned f = read_flags(flags, s);
  out.neg_row = f & 1u;
  out.big_row = f & 2u;
  out.neg_col = f & 4u;
  out.big_col = f & 8u;
  return out;
}

indptr_check check_indptr(const ndarray& indptr, bool monotone) {
  indptr_check out;
  const std::int64_t m = indptr.size() - 1;
  cudaStream_t s = get_current_stream();
  device_buffer<unsigned> flags(1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(flags.data(), 0, sizeof(unsigned), s));
  dispatch_index(indptr.dtype(), [&](auto tag) {
    using I = typename decltype(tag)::type;
    if (monotone && m > 0) {
      k_check_indptr<I><<<grid_for(m, 256, 4096), 256, 0, s>>>(indptr.data_as<I>(), m, flags.data());
      CUSCI_CHECK_LAUNCH();
    }
    I ends[2] = {0, 0};
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&ends[0], indptr.data_as<I>(), sizeof(I), cudaMemcpyDeviceToHost, s));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&ends[1], indptr.data_as<I>() + m, sizeof(I), cudaMemcpyDeviceToHost, s));
    const unsigned f = read_flags(flags, s);  // synchronizes the stream, so ends[] are valid
    out.first = ends[0];
    out.last = ends[1];
    out.decreasing = f & 1u;
  });
  return out;
}

bounds_check check_indices(const ndarray& indices, std::int64_t nnz, std::int64_t n) {
  bounds_check out;
  if (nnz == 0) return out;
  cudaStream_t s = get_current_stream();
  device_buffer<unsigned> flags(1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(flags.data(), 0, sizeof(unsigned), s));
  dispatch_index(indices.dtype(), [&](auto tag) {
    using I = typename decltype(tag)::type;
    k_check_pair<I><<<grid_for(nnz, 256, 4096), 256, 0, s>>>(indices.data_as<I>(), nullptr, nnz, n, 0,
                                                              flags.data());
    CUSCI_CHECK_LAUNCH();
  });
  const unsigned f = read_flags(flags, s);
  out.negative = f & 1u;
  out.too_big = f & 2u;
  return out;
}

void coo_to_csr(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, ndarray& out_data,
                ndarray& out_indices, ndarray& out_indptr) {
  const std::int64_t m = shape[0], n = shape[1], nnz = data.size();
  const dtype it = row.dtype();
  cudaStream_t s = get_current_stream();
  if (nnz == 0 || m == 0 || n == 0) {
    out_data = empty({0}, data.dtype());
    out_indices = empty({0}, it);
    out_indptr = zeros({m + 1}, it);
    return;
  }
  const int rbits = bits_for(m - 1), cbits = bits_for(n - 1);
  CUSCI_EXPECTS(rbits + cbits <= 64, not_implemented_error,
                "cusci::sparse::coo_matrix::tocsr: shape (" + std::to_string(m) + ", " + std::to_string(n) +
                    ") needs more than 64 bits of (row, col) key");
  const int end_bit = rbits + cbits > 0 ? rbits + cbits : 1;
  device_buffer<unsigned long long> keys(nnz, s), keys_sorted(nnz, s);
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    dispatch_value(data.dtype(), [&](auto vtag) {
      using T = typename decltype(vtag)::type;
      k_make_keys<I><<<grid_for(nnz), 256, 0, s>>>(row.data_as<I>(), col.data_as<I>(), nnz, cbits, keys.data());
      CUSCI_CHECK_LAUNCH();
      device_buffer<T> vals_sorted(nnz, s);
      std::size_t sort_bytes = 0;
      CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys.data(), keys_sorted.data(),
                                                     data.data_as<T>(), vals_sorted.data(), nnz, 0, end_bit, s));
      {
        device_buffer<unsigned char> tmp(sort_bytes > 0 ? sort_bytes : 1, s);
        CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp.data(), sort_bytes, keys.data(), keys_sorted.data(),
                                                       data.data_as<T>(), vals_sorted.data(), nnz, 0, end_bit, s));
      }
      // Reduce by key into the (now free) unsorted-key buffer and a value array of capacity nnz.
      ndarray agg = empty({nnz}, data.dtype());
      device_buffer<std::int64_t> nruns(1, s);
      std::size_t red_bytes = 0;
      CUSCI_CUDA_TRY(cub::DeviceReduce::ReduceByKey(nullptr, red_bytes, keys_sorted.data(), keys.data(),
                                                    vals_sorted.data(), agg.data_as<T>(), nruns.data(),
                                                    ::cuda::std::plus<T>{}, nnz, s));
      {
        device_buffer<unsigned char> tmp(red_bytes > 0 ? red_bytes : 1, s);
        CUSCI_CUDA_TRY(cub::DeviceReduce::ReduceByKey(tmp.data(), red_bytes, keys_sorted.data(), keys.data(),
                                                      vals_sorted.data(), agg.data_as<T>(), nruns.data(),
                                                      ::cuda::std::plus<T>{}, nnz, s));
      }
      std::int64_t nu = 0;
      CUSCI_CUDA_TRY(cudaMemcpyAsync(&nu, nruns.data(), sizeof(nu), cudaMemcpyDeviceToHost, s));
      CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
      out_data = head(agg, nu);
      out_indices = empty({nu}, it);
      out_indptr = empty({m + 1}, it);
      const std::int64_t total = nu > m + 1 ? nu : m + 1;
      k_keys_to_csr<I><<<grid_for(total), 256, 0, s>>>(keys.data(), nu, m, cbits, out_indices.data_as<I>(),
                                                       out_indptr.data_as<I>());
      CUSCI_CHECK_LAUNCH();
      // keys / keys_sorted / vals_sorted go back to the pool of stream s: stream order keeps them
      // alive for the kernels above.
    });
  });
}

ndarray csr_expand_rows(const ndarray& indptr, std::int64_t nnz) {
  const dtype it = indptr.dtype();
  ndarray row = empty({nnz}, it);
  if (nnz == 0) return row;
  const std::int64_t m = indptr.size() - 1;
  cudaStream_t s = get_current_stream();
  dispatch_index(it, [&](auto tag) {
    using I = typename decltype(tag)::type;
    k_expand_rows<I><<<grid_for(nnz), 256, 0, s>>>(indptr.data_as<I>(), m, nnz, row.data_as<I>());
    CUSCI_CHECK_LAUNCH();
  });
  return row;
}


}  // namespace cusci::sparse::detail
