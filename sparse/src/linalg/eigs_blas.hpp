#pragma once
// Internal: the dense building blocks of the eigensolvers eigs and lobpcg, over the four value dtypes
// (float32, float64, complex64, complex128) chosen at run time: cuBLAS gemm / nrm2 / scal / axpy on
// the current stream (column-major views of row-major [k, n] blocks), host <-> device conversions of
// small coefficient arrays, and a dense LU factorization (cuSOLVER getrf once, getrs per solve) for
// the shift-invert operators.

#include <complex>
#include <cstdint>
#include <functional>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::sparse::linalg::eig_detail {

using cplx = std::complex<double>;

/// C = alpha op(A) B + beta C in cuBLAS' column-major terms (op: 'N', 'T' or 'C'), all of dtype t.
void gemm(dtype t, char opa, char opb, std::int64_t m, std::int64_t n, std::int64_t k, cplx alpha, const void* A,
          std::int64_t lda, const void* B, std::int64_t ldb, cplx beta, void* C, std::int64_t ldc);
/// ||x|| (n elements of dtype t) written to the device scalar `result` (the real dtype of t).
/// Asynchronous (device pointer mode).
void nrm2_device(dtype t, std::int64_t n, const void* x, void* result);
/// x *= alpha (host scalar; real dtypes use its real part). Asynchronous.
void scal(dtype t, std::int64_t n, cplx alpha, void* x);
/// y += alpha x. Asynchronous.
void axpy(dtype t, std::int64_t n, cplx alpha, const void* x, void* y);

/// The elements of a host buffer of dtype t as complex values.
std::vector<cplx> to_cplx(const void* p, dtype t, std::int64_t count);
/// A device array [shape] of dtype t from complex values (real dtypes take the real parts).
ndarray upload(const std::vector<cplx>& v, dtype t, const shape_t& shape);
/// `a` converted to dtype t, C-contiguous, as a 1-D [n] view when it has n elements. Complex to real
/// takes the real part.
ndarray contiguous_as(const ndarray& a, dtype t);

/// Dense LU of a square device matrix [n, n] (row-major, any inexact dtype): solve(b) returns
/// A^-1 b for b [n] (converted to the factor's dtype; a real factor with a complex b solves the real
/// and imaginary parts). Synchronizes once (the factorization's info).
/// @throws cusci::runtime_error "<fn>: Factor is exactly singular" for a singular A.
std::function<ndarray(const ndarray&)> dense_lu_solver(const ndarray& A, const char* fn);

/// The generalized Hermitian-definite eigenproblem A x = w B x of a small matrix on the device
/// (cuSOLVER sygvd / hegvd, itype 1, lower triangles): a and b are host matrices [k, k] (row-major,
/// Hermitian), computed in dtype t. Returns false when B is not positive definite (info > 0);
/// else w (ascending) and the B-orthonormal eigenvectors, column j of `vectors` ([k, k] row-major).
/// Synchronizes.
bool sygvd(dtype t, std::int64_t k, const std::vector<cplx>& a, const std::vector<cplx>& b, std::vector<double>& w,
           std::vector<cplx>& vectors);

}  // namespace cusci::sparse::linalg::eig_detail
