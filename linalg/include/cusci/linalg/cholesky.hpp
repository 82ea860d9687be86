#pragma once
/// @file cholesky.hpp
/// `cusci::linalg::cholesky`: the Cholesky factor of Hermitian positive definite matrices, batched
/// over leading dimensions (`scipy.linalg.cholesky`).

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// Keyword arguments of `cholesky`, with SciPy's names and defaults.
struct cholesky_options {
  /// Return the lower factor L (`a = L @ L^H`) and read only the lower triangle of `a`; default: the
  /// upper factor U (`a = U^H @ U`), reading only the upper triangle.
  bool lower = false;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to `a`.
  bool overwrite_a = false;
  /// Check that the whole of `a` (both triangles) holds only finite numbers.
  bool check_finite = true;
};

/// Cholesky factorization of one matrix or a batch of Hermitian positive definite matrices.
///
/// @param a  [..., M, M] matrices; a 0-d array is taken as (1, 1) and a 1-d array of length K as
///           (1, K). Only the triangle chosen by `lower` is read, and the imaginary part of the
///           diagonal is ignored (as LAPACK's ?potrf). Any dtype, any layout.
/// @param opts see `cholesky_options`.
/// @return [..., M, M], C-contiguous, the factor with the other triangle set to zero. dtype: that of
///         `a` for float32/float64/complex64/complex128; float32 for bool, int8, uint8, int16, uint16, float16;
///         float64 for the other integers (SciPy's choice of LAPACK type).
///
/// Algorithm: for M <= 32 one kernel, a group of next_pow2(M) >= 4 lanes of a warp per matrix,
/// right-looking Cholesky in registers; for M > 32 cuSOLVER's `cusolverDnXpotrf`, one matrix at a time.
///
/// Stream: enqueued on the current stream; **synchronizes** once at the end to read the failure and
/// finiteness flags.
///
/// @throws cusci::value_error when `a` is not square in its last two dimensions, or (with
///         `check_finite`) holds inf or NaN.
/// @throws cusci::linalg::lin_alg_error when a matrix is not positive definite, with SciPy's message
///         "Internal potrf return info = [k] for slices [s]." naming the first failing slice s (flat
///         batch index) and the order k of its leading minor that is not positive definite.
///
/// SciPy: `scipy.linalg.cholesky` (1.18). Deviation: `overwrite_a` is ignored.
ndarray cholesky(const ndarray& a, const cholesky_options& opts = {});

}  // namespace cusci::linalg
