#pragma once
// Device helpers shared by csgraph's .cu files (include only from .cu files), and the host entry points
// of common/graph_kernels.cu that common/graph.cpp calls.

#include <cstdint>
#include <string>

#include "csgraph/common/graph.hpp"

namespace cusci::sparse::csgraph::detail {

#ifdef __CUDACC__
/// An unsigned key that orders like the double (for atomicMin/atomicMax on doubles): negatives have
/// every bit flipped, non-negatives only the sign bit. NaN is not ordered (callers skip it).
__device__ inline unsigned long long order_key(double v) {
  const unsigned long long b = static_cast<unsigned long long>(__double_as_longlong(v));
  return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
}
__device__ inline double key_value(unsigned long long k) {
  const unsigned long long b = (k >> 63) ? (k & 0x7fffffffffffffffull) : ~k;
  return __longlong_as_double(static_cast<long long>(b));
}
#endif

/// CSR (float64/int32, canonical) of a C-contiguous (n, n) float64 array under the null rules of `o`;
/// with `mask` (C-contiguous bool (n, n)) masked entries are non-edges too. Synchronizes.
csr_matrix dense_to_csr_f64(const ndarray& a, std::int64_t n, const validate_options& o, const std::string& fn,
                            const ndarray* mask = nullptr);
/// bool array of a's shape: true where a (contiguous float64) is null under `o`. Asynchronous.
ndarray null_mask_f64(const ndarray& a, const validate_options& o);
/// (rows, cols) float64: per cell the minimum of its stored entries (inf if all NaN), else null_value.
/// data float64 contiguous; indices/indptr int32 or int64 (same dtype). Asynchronous.
ndarray csr_to_dense_min_f64(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t rows,
                             std::int64_t cols, double null_value);

}  // namespace cusci::sparse::csgraph::detail
