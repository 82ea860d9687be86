#pragma once
/// @file indexer.cuh  (internal; nvcc only)
/// Strided N-D addressing for kernels: maps a linear (C-order) element index to a byte offset.
/// Host side: `make_indexer` builds one from an ndarray's shape and byte strides, after merging
/// adjacent axes that are contiguous with each other in every operand (`coalesce`).

#include <cstdint>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::detail {

inline constexpr int max_kernel_dims = 16;

struct strided_indexer {
  int ndim = 0;
  std::int64_t shape[max_kernel_dims];
  std::int64_t strides[max_kernel_dims];  // bytes
  /// Byte offset of the element with C-order linear index `i`.
  __host__ __device__ __forceinline__ std::int64_t offset(std::int64_t i) const {
    std::int64_t off = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
    for (int d = ndim - 1; d >= 0; --d) {
      const std::int64_t n = shape[d];
      const std::int64_t q = i / n;
      off += (i - q * n) * strides[d];
      i = q;
    }
    return off;
  }
};

/// Merges adjacent axes of `shape` that are contiguous in every stride list of `strides` (each list
/// describes one operand over the same shape) and drops length-1 axes. Updates both in place.
inline void coalesce(shape_t& shape, std::vector<shape_t*> strides) {
  shape_t s;
  std::vector<shape_t> st(strides.size());
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !s.empty();
    for (std::size_t k = 0; merge && k < strides.size(); ++k)
      merge = (*strides[k])[d] * shape[d] == st[k].back();
    if (merge) {
      s.back() *= shape[d];
      for (std::size_t k = 0; k < strides.size(); ++k) st[k].back() = (*strides[k])[d];
    } else {
      s.push_back(shape[d]);
      for (std::size_t k = 0; k < strides.size(); ++k) st[k].push_back((*strides[k])[d]);
    }
  }
  shape = s;
  for (std::size_t k = 0; k < strides.size(); ++k) *strides[k] = st[k];
}

inline strided_indexer make_indexer(const shape_t& shape, const shape_t& strides) {
  CUSCI_EXPECTS(shape.size() <= static_cast<std::size_t>(max_kernel_dims), value_error,
                "cusci: arrays of more than 16 non-mergeable dimensions are not supported by kernels");
  strided_indexer ix;
  ix.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < ix.ndim; ++d) {
    ix.shape[d] = shape[d];
    ix.strides[d] = strides[d];
  }
  return ix;
}

/// Grid size for a grid-stride loop over n items with `block` threads a block.
inline unsigned grid_for(std::int64_t n, int block = 256, std::int64_t max_blocks = 65535LL * 32) {
  std::int64_t g = (n + block - 1) / block;
  if (g < 1) g = 1;
  if (g > max_blocks) g = max_blocks;
  return static_cast<unsigned>(g);
}

}  // namespace cusci::detail
