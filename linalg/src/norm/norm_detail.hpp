#pragma once
// Internal interface between the norm family's host drivers (norm.cpp) and its kernel
// (norm_kernels.cu). Host-only header.

#include <cstdint>

#include "common/detail.hpp"

namespace cusci::linalg::detail {

/// out (nbatch C-order k x d blocks, dtype t: int64, float64 or complex128) = S @ A_b for each matrix
/// A_b (n x d, dtype t) of the view `a`, with S the sketch in row form: row i of S has the entries
/// signs[perm[p]] at columns perm[p] for p in [rowptr[i], rowptr[i + 1]) (int64 arrays; perm sorted by
/// row, increasing column within a row). Sums in increasing p, no atomics.
void cwt_apply(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t k, std::int64_t d,
               const std::int64_t* perm, const std::int64_t* rowptr, const std::int64_t* signs, void* out);

}  // namespace cusci::linalg::detail
