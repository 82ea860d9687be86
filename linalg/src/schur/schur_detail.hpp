#pragma once
// Internal interface between the schur family's host drivers (schur.cpp) and its kernels (schur.cu).
// Host-only header.

#include <cstdint>

#include "cusci/dtype.hpp"

namespace cusci::linalg::schur_detail {

/// SciPy's rsf2csf in place on nbatch pairs of column-major n x n matrices t, z of dtype ct (complex64 or
/// complex128): for m = n-1 .. 1 a Givens rotation (from the 2x2 block's eigenvalue) when the
/// subdiagonal entry t[m, m-1] exceeds eps64 (|t[m-1,m-1]| + |t[m,m]|), then t[m, m-1] = 0. One thread
/// block per matrix (the sweep over m is sequential, each rotation's row / column updates parallel).
void rsf2csf_device(dtype ct, std::int64_t nbatch, std::int64_t n, void* t, void* z);

/// SciPy's cdf2rdf on nbatch C-order complex128 operands w (n) and v (n x n): wr (n x n, float64, C order)
/// and vr (n x n, float64, C order). status[0] = 1 for a non-finite entry, status[1] = 1 when some matrix
/// has an odd number of complex eigenvalues (imaginary part != 0). `partner` is scratch of nbatch * n ints.
void cdf2rdf_device(std::int64_t nbatch, std::int64_t n, const void* w, const void* v, double* wr, double* vr,
                    int* partner, int* status);

}  // namespace cusci::linalg::schur_detail
