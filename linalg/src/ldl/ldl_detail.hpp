#pragma once
// Internal interface of the ldl family (host-only header): ldl_kernels.cu's cuSOLVER factorization and
// the device port of SciPy's post-processing, used by ldl.cpp.

#include <cstdint>

#include "cusci/dtype.hpp"

namespace cusci::linalg::detail {

/// Bunch-Kaufman factorization (cuSOLVER <t>sytrf, the triangle `lower`) of nbatch column-major n x n
/// matrices A in place, ipiv (nbatch x n, LAPACK's 1-based encoding). One call per matrix.
void ldl_sytrf(dtype t, std::int64_t nbatch, std::int64_t n, void* A, int* ipiv, bool lower);

/// SciPy's _ldl_sanitize_ipiv, _ldl_get_d_and_l, _ldl_construct_tri_factor and argsort, one block per
/// matrix: from the column-major factors `ldu` and `ipiv`, lu and d (C order, nbatch x n x n) and perm
/// (int64, nbatch x n). `conj2`: the 2x2 blocks of d are Hermitian (complex hermitian input).
/// status[1] = 1 when some ipiv cannot be parsed (SciPy's ValueError).
void ldl_post(dtype t, const void* ldu, const int* ipiv, std::int64_t nbatch, std::int64_t n, bool lower, bool conj2,
              void* lu, void* d, std::int64_t* perm, int* status);

}  // namespace cusci::linalg::detail
