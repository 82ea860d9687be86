#pragma once
/// @file lu.hpp
/// The LU family of `cusci::linalg` (`scipy.linalg`): `lu`, `lu_factor`, `lu_solve`, `inv`, `det`, all
/// batched over leading dimensions as SciPy 1.18 does.
///
/// Where the work runs: the inputs are read by GPU kernels (any layout, fused finiteness check); matrices
/// whose larger side is at most 32 are factored in registers by one kernel (a group of lanes of a warp
/// per matrix, LAPACK ?getf2's pivot choice); square matrices of order 33..64 in float32, float64 or
/// complex64 by one thread block each in shared memory (LU, or Gauss-Jordan for `inv`, with getrf's
/// pivots); larger square matrices of a batch go to cuBLAS `getrfBatched` / `getriBatched` /
/// `getrsBatched` (pointer arrays built on the device, no host loop), a single larger matrix to cuSOLVER
/// `Xgetrf` / `Xgetrs`. The factors of `lu` / `lu_factor` for complex batches of such matrices come from
/// one cuSOLVER `Xgetrf` a matrix: getrfBatched pivots on the largest modulus, not on LAPACK's
/// |re| + |im|, so its pivots differ from SciPy's. The host only checks arguments and reads the failure
/// flags back.
///
/// dtypes (SciPy's choice of LAPACK type, `find_best_lapack_type`): float32, float64, complex64 and
/// complex128 are kept; bool, int8, uint8, int16, uint16 and float16 compute in float32; the other
/// integers in float64.

#include <cstdint>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/linalg/solve.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// Keyword arguments of `lu`, with SciPy's names and defaults.
struct lu_options {
  /// Return (P @ L, U) instead of (P, L, U).
  bool permute_l = false;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to `a`.
  bool overwrite_a = false;
  /// Check that `a` holds only finite numbers.
  bool check_finite = true;
  /// Return the permutation as row indices (`a = L[p, :] @ U`) instead of a permutation matrix.
  bool p_indices = false;
};

/// The factors `lu` returns. With `permute_l`, `p` is an empty default `ndarray` and `l` holds P @ L
/// (SciPy returns the pair (PL, U)).
struct lu_result {
  ndarray p;
  ndarray l;
  ndarray u;
};

/// LU decomposition with partial pivoting, `a = P @ L @ U`, of one matrix or a batch.
///
/// @param a [..., M, N] (ndim >= 2), any dtype, any layout; rectangular matrices allowed.
/// @return with K = min(M, N): `p` [..., M, M] of the real dtype of the factors (a permutation matrix),
///         or with `p_indices` [..., M] int32 with `a = L[p, :] @ U` (int64 when M = N = 1, as SciPy);
///         `l` [..., M, K] unit lower trapezoidal (with `permute_l`: P @ L); `u` [..., K, N] upper
///         trapezoidal. dtype of l and u: the LAPACK type of `a` (see the file comment). All
///         C-contiguous.
///
/// Algorithm: `?getrf` (LAPACK's partial pivoting: the first largest |a_ik|, |re| + |im| for complex;
/// the paths as in the file comment; rectangular matrices larger than 32 in a batch, and complex ones:
/// one cuSOLVER `Xgetrf` call a matrix), then kernels unpack the factors and the permutation. An exactly singular
/// matrix is factored without error or warning, as SciPy.
///
/// Stream: enqueued on the current stream; with `check_finite` **synchronizes** once to read the
/// finiteness flag, else does not synchronize.
///
/// @throws cusci::value_error when `a` has fewer than 2 dimensions, or (with `check_finite`) holds inf
///         or NaN ("array must not contain infs or NaNs").
///
/// SciPy: `scipy.linalg.lu` (1.18). Deviations: `overwrite_a` is ignored; bool/float16 inputs give no
/// DeprecationWarning.
lu_result lu(const ndarray& a, const lu_options& opts = {});

/// Keyword arguments of `lu_factor`, with SciPy's names and defaults.
struct lu_factor_options {
  /// Accepted for SciPy compatibility and ignored.
  bool overwrite_a = false;
  /// Check that `a` holds only finite numbers.
  bool check_finite = true;
};

/// The pair (lu, piv) `lu_factor` returns.
struct lu_factor_result {
  ndarray lu;   ///< [..., M, N]: U in the upper triangle, L (unit diagonal not stored) below it.
  ndarray piv;  ///< [..., K] int32, 0-based: row i was interchanged with row piv[i].
};

/// Pivoted LU factorization in LAPACK's packed form (`?getrf`), of one matrix or a batch.
///
/// @param a [..., M, N], any dtype (LAPACK type as in the file comment), any layout. A 1-d `a` of length
///          M is factored as the column (M, 1) and `lu` keeps the shape (M,) (as SciPy's f2py wrapper).
/// @return `lu` [..., M, N] C-contiguous, `piv` [..., K] int32 with K = min(M, N). An empty
///         non-batched `a` gives an empty `lu` of `a`'s dtype and an empty `piv` (as SciPy).
///
/// Stream: enqueued on the current stream; **synchronizes** once at the end (finiteness flag and
/// the singularity test behind the warning).
///
/// Warnings: `LinAlgWarning` "Diagonal number k is exactly zero. Singular matrix." (through
/// `cusci::warn`) when a matrix has an exactly zero pivot, once per call, for the first such matrix.
///
/// @throws cusci::value_error with `check_finite` and inf/NaN input; for a batch of zero matrices (SciPy:
///         "`lu_factor` does not support zero-size batches").
///
/// SciPy: `scipy.linalg.lu_factor` (1.18). Deviations: `overwrite_a` is ignored; a batch with several
/// singular matrices warns once (SciPy warns per matrix; Python's default filter shows one).
lu_factor_result lu_factor(const ndarray& a, const lu_factor_options& opts = {});

/// Keyword arguments of `lu_solve`, with SciPy's names and defaults.
struct lu_solve_options {
  /// 0: solve a @ x = b; 1: a^T @ x = b; 2: a^H @ x = b.
  int trans = 0;
  /// Accepted for SciPy compatibility and ignored.
  bool overwrite_b = false;
  /// Check that `b` holds only finite numbers (SciPy checks `b` only, not the factors).
  bool check_finite = true;
};

/// Solves a @ x = b (or the transposed / conjugate-transposed system) from `lu_factor`'s output.
///
/// @param lu  [..., N, N] packed factors, any layout.
/// @param piv [..., N] 0-based pivot indices, any integer dtype (an index outside [0, N) is taken as
///            "no interchange").
/// @param b   [N] or [..., N, K] (SciPy's "1|2" rule: ndim 1 is one vector, ndim >= 2 a batch of
///            (N, K) matrices). Batch dimensions of lu, piv and b broadcast (NumPy's rules).
/// @return x of shape batch + b's core shape, dtype the common LAPACK type of `lu` and `b`.
///
/// Algorithm: cuBLAS `getrsBatched` for batches (pointer arrays on the device), cuSOLVER `Xgetrs` for one
/// matrix; the operands are first gathered into column-major pool buffers.
///
/// Stream: enqueued on the current stream; with `check_finite` **synchronizes** once to read the
/// finiteness flag.
///
/// @throws cusci::value_error for lu not square, b's row count not N ("Shapes of lu ... and b ... are
///         incompatible"), piv of the wrong length, batch dimensions that do not broadcast, a batch of
///         zero matrices, trans not in {0, 1, 2}, or (with `check_finite`) inf/NaN in b.
///
/// SciPy: `scipy.linalg.lu_solve` (1.18). Deviation: `overwrite_b` is ignored.
ndarray lu_solve(const ndarray& lu, const ndarray& piv, const ndarray& b, const lu_solve_options& opts = {});
/// The same with SciPy's `lu_and_piv` pair.
ndarray lu_solve(const lu_factor_result& lu_and_piv, const ndarray& b, const lu_solve_options& opts = {});

/// Keyword arguments of `inv` (`assume_a` and `lower` are keyword-only in SciPy).
struct inv_options {
  /// Accepted for SciPy compatibility and ignored.
  bool overwrite_a = false;
  /// Check that `a` holds only finite numbers.
  bool check_finite = true;
  /// The structure of `a`: `auto_` (None), `general`, `diagonal`, `upper_triangular`,
  /// `lower_triangular`, `positive_definite`, `symmetric`, `hermitian`. Entries outside the structure
  /// (the other triangle for pos/sym/her, chosen by `lower`) are not read, except with `diagonal`, where
  /// SciPy inverts the diagonal in place and returns the off-diagonal entries of `a` unchanged.
  matrix_structure assume_a = matrix_structure::auto_;
  /// With pos/sym/her: read the lower triangle (default: the upper one).
  bool lower = false;
};

/// The inverse of one square matrix or of a batch.
///
/// @param a [..., M, M] (ndim >= 2), any dtype (LAPACK type as in the file comment), any layout.
/// @return [..., M, M] C-contiguous, the LAPACK type of `a`.
///
/// Algorithm: M <= 32: the register LU kernel solves against the identity in one launch; 33..64
/// (float32, float64, complex64): in-place Gauss-Jordan elimination with getrf's pivots, one thread block
/// a matrix in shared memory; larger: a batch goes to cuBLAS `getrfBatched` + `getriBatched`, one matrix
/// to cuSOLVER `Xgetrf` + `Xgetrs` with the identity as right-hand side. Structures are applied while
/// reading (the matrix formed from the referenced entries is inverted). `diagonal`: as SciPy 1.18, the
/// result is `a` with each diagonal entry replaced by its reciprocal and the off-diagonal entries copied
/// unchanged (one element-wise kernel; singular when a diagonal entry is exactly zero).
///
/// Stream: enqueued on the current stream; **synchronizes** once at the end (singularity and
/// finiteness flags: SciPy raises).
///
/// @throws cusci::value_error for ndim < 2, a non-square `a`, `assume_a` tridiagonal or banded (SciPy:
///         KeyError), or inf/NaN with `check_finite`.
/// @throws cusci::linalg::lin_alg_error "A singular matrix detected: slice(s) [i, ...] are singular."
///         (flat batch indices) when a matrix has an exactly zero pivot.
///
/// SciPy: `scipy.linalg.inv` (1.18). Deviations: `auto_` detects no structure (LU on the whole
/// matrix, the same inverse up to rounding); orders 33..64 use Gauss-Jordan instead of getri (same
/// pivots and singularity test, equal up to rounding); "pos" inverts the Hermitian matrix built from the chosen
/// triangle by LU, so a matrix that is not positive definite is inverted instead of raising; no
/// reciprocal condition number, hence no ill-conditioning `LinAlgWarning`; `overwrite_a` ignored.
ndarray inv(const ndarray& a, const inv_options& opts = {});

/// Keyword arguments of `det`, with SciPy's names and defaults.
struct det_options {
  /// Accepted for SciPy compatibility and ignored.
  bool overwrite_a = false;
  /// Check that `a` holds only finite numbers.
  bool check_finite = true;
};

/// Determinants of one square matrix or of a batch, from the LU factorization (product of U's
/// diagonal in order, sign from the pivots), computed in the LAPACK type of `a`: the register kernel up to
/// 32, one thread block a matrix for 33..64 (float32, float64, complex64), cuBLAS getrfBatched / cuSOLVER
/// Xgetrf beyond.
///
/// @param a [..., M, M] (ndim >= 2), any dtype, any layout.
/// @return [...] (a 0-d array for a 2-d `a`): float64, or complex128 for complex input (SciPy promotes
///         single precision after the product). Singular matrices give 0; empty matrices 1.
///
/// Stream: enqueued on the current stream; with `check_finite` **synchronizes** once to read the
/// finiteness flag, else does not synchronize.
///
/// @throws cusci::value_error for ndim < 2, a non-square `a`, or inf/NaN with `check_finite`.
///
/// SciPy: `scipy.linalg.det` (1.18). Deviation: `overwrite_a` is ignored; the result is a 0-d array
/// where SciPy returns a NumPy scalar.
ndarray det(const ndarray& a, const det_options& opts = {});

}  // namespace cusci::linalg
