#pragma once
// Internal interface between the toeplitz family's host drivers (toeplitz.cpp) and its kernel
// (toeplitz_kernels.cu). Host-only header.

#include <cstdint>

#include "common/detail.hpp"

namespace cusci::linalg::detail {

/// Levinson-Durbin recursion (SciPy's `levinson`) for nbatch Toeplitz systems of order n >= 1 with k
/// right-hand sides, one thread block per system. `c` and `r` are nbatch contiguous rows of n elements
/// of dtype t (float64 or complex128): the first column and first row of each matrix; `r == nullptr`
/// means r = conj(c). `x` holds nbatch C-order n x k blocks: the right-hand sides on entry, the
/// solutions on exit. `work` holds 2 n nbatch elements of dtype t. info[b] = 1 when system b has a
/// singular leading principal minor (then x_b is unspecified); status[1] = 1 when some info != 0.
void levinson(dtype t, const void* c, const void* r, std::int64_t nbatch, std::int64_t n, std::int64_t k, void* x,
              void* work, int* info, int* status);

}  // namespace cusci::linalg::detail
