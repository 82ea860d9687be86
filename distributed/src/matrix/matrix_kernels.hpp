#pragma once
// Internal (host-only declarations): the device work of distributed vectors and matrices, defined in
// matrix_kernels.cu. Every function enqueues its kernels on `s` (a stream of the current device, on
// which the arrays live) and returns without synchronizing; nothing is launched for empty sizes.
// Value dtypes float32 and float64; index dtypes int32 and int64.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cusci/dtype.hpp"

namespace cusci::distributed::detail {

/// Lanes per row (a power of two, 1 to 32) of csr_spmv for a block of `rows` rows and `nnz` entries:
/// the smallest power of two at least a fifth of the mean row length (measurements in
/// matrix_kernels.cu). Host only.
int spmv_lanes(std::int64_t rows, std::int64_t nnz) noexcept;

/// y[i] = sum_j A[i, j] x[j] (accumulate: y[i] += ...) for the m-row CSR block (indptr [m + 1],
/// indices [nnz] of dtype `index`, data [nnz] of dtype `value`), with `lanes` lanes a row (spmv_lanes).
/// Sums in the value dtype, as cusci::sparse's CSR product.
void csr_spmv(cusci::dtype value, cusci::dtype index, std::int64_t m, const void* indptr, const void* indices,
              const void* data, const void* x, void* y, bool accumulate, int lanes, cudaStream_t s);

/// out[k] = x[rows[k]], k < n (the halo's send buffer). rows of dtype `index`.
void pack(cusci::dtype value, cusci::dtype index, std::int64_t n, const void* x, const void* rows, void* out,
          cudaStream_t s);

/// *out = sum_i a[i] b[i] over n elements of dtype `value`, accumulated in float64 in a fixed order
/// (per-block partial sums, then one block adds them), into the device scalar `out`. Scratch from the
/// pool on `s`.
void local_dot(cusci::dtype value, std::int64_t n, const void* a, const void* b, double* out, cudaStream_t s);

}  // namespace cusci::distributed::detail
