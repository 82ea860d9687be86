#pragma once
// Internal interface of the matfuncs family (host-only header): the device engines behind expm,
// expm_frechet and expm_cond (matfuncs_kernels.cu). Every matrix here is a C-order n x n block of a
// contiguous batch in one of the four LAPACK dtypes; the host drivers (matfuncs.cpp) gather, cast and
// check the arguments first.

#include <cstdint>

#include "cusci/dtype.hpp"

namespace cusci::linalg::detail {

/// exp of nbatch C-order n x n matrices (n >= 2) at `a` into `out` (same layout and dtype t), by Al-Mohy
/// and Higham's scaling and squaring as SciPy 1.18.1's `matrix_exponential` (Pade order and scaling per
/// matrix from SciPy's norm tests, exact exp of diagonal matrices, Fragment 2.1 for triangular ones).
/// `a` is not modified. Synchronizes the current stream once (the per-matrix order and scaling).
void expm_engine(dtype t, const void* a, std::int64_t nbatch, std::int64_t n, void* out);

/// SciPy's `expm_frechet_algo_64` ("SPS") on nbatch C-order n x n pairs (a, e) of dtype t (float64 or
/// complex128): r = expm(a), l = its Frechet derivative in the direction e. Synchronizes once (the
/// 1-norms choosing the order and scaling).
/// @throws cusci::value_error when a 1-norm is NaN or infinite (Python's int() of it).
void expm_frechet_engine(dtype t, const void* a, const void* e, std::int64_t nbatch, std::int64_t n, void* r,
                         void* l);

/// m2 (nbatch x 2n x 2n, C order) = [[a, e], [0, a]] for nbatch n x n pairs (dtype t).
void block_enlarge(dtype t, const void* a, const void* e, std::int64_t nbatch, std::int64_t n, void* m2);
/// From nbatch 2n x 2n matrices m2: r = m2[:n, :n], l = m2[:n, n:] (C order; either may be null).
void block_split(dtype t, const void* m2, std::int64_t nbatch, std::int64_t n, void* r, void* l);

/// SciPy's expm_cond for nbatch C-order n x n matrices `a` (dtype t: float64 or complex128), whose
/// exponentials `x` (same dtype and layout) are given: kappa[b] (float64) = ||K_b||_2 ||a_b||_F / ||x_b||_F
/// with K_b the n^2 x n^2 Kronecker form of the Frechet derivative (n^2 SPS derivatives in the directions
/// e_i e_j^T, batched), its 2-norm the largest singular value from cuSOLVER Xgesvd (values only, one call
/// per matrix). Synchronizes (expm_frechet_engine).
void expm_cond_engine(dtype t, const void* a, const void* x, std::int64_t nbatch, std::int64_t n, double* kappa);

}  // namespace cusci::linalg::detail
