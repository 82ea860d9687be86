#pragma once
/// @file solve.hpp
/// `cusci::linalg::solve`: the solution of `a @ x = b` for square `a`, batched over leading
/// dimensions (`scipy.linalg.solve`).

#include <string_view>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// The structure `solve` may assume for `a` (SciPy's `assume_a` strings).
enum class matrix_structure {
  auto_,               ///< None (SciPy's default): SciPy detects the structure; cusci uses LU (see `solve`)
  general,             ///< "general", "gen": LU with partial pivoting (getrf/getrs)
  symmetric,           ///< "symmetric", "sym": only the triangle chosen by `lower` is read
  hermitian,           ///< "hermitian", "her": only the triangle chosen by `lower` is read
  positive_definite,   ///< "positive definite", "pos": Cholesky (potrf/potrs), triangle chosen by `lower`
  diagonal,            ///< "diagonal": only the diagonal is read
  tridiagonal,         ///< "tridiagonal": only the three central diagonals are read
  banded,              ///< "banded": the whole matrix is read (the band is found from the nonzeros)
  upper_triangular,    ///< "upper triangular": only the upper triangle is read
  lower_triangular,    ///< "lower triangular": only the lower triangle is read
};

/// Parses SciPy's `assume_a` strings: "gen"/"general", "sym"/"symmetric", "her"/"hermitian",
/// "pos"/"positive definite", "diagonal", "tridiagonal", "banded", "upper triangular",
/// "lower triangular"; "" or "None" give `matrix_structure::auto_`.
/// @throws cusci::value_error for any other string ("<s> is not a recognized matrix structure").
matrix_structure parse_matrix_structure(std::string_view assume_a);

/// Keyword arguments of `solve`, with SciPy's names and defaults.
struct solve_options {
  /// With a symmetric, Hermitian or positive definite `assume_a`: read only the lower triangle of `a`
  /// (default: only the upper triangle). Ignored otherwise.
  bool lower = false;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to `a`.
  bool overwrite_a = false;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to `b`.
  bool overwrite_b = false;
  /// Check that `a` and `b` hold only finite numbers (costs nothing extra: fused into the kernels).
  bool check_finite = true;
  /// The structure of `a`; see `matrix_structure`.
  matrix_structure assume_a = matrix_structure::auto_;
  /// Solve `a.T @ x = b` instead (real dtypes only). Ignored for symmetric, Hermitian and positive
  /// definite `assume_a`, as in SciPy.
  bool transposed = false;
};

/// Solves `a @ x = b` for `x`, for one matrix or a batch of matrices.
///
/// @param a  [..., N, N] coefficient matrices; a 0-d array is taken as (1, 1) and a 1-d array of
///           length M as (1, M) (SciPy's `atleast_2d`). Any dtype (integers and bool promoted as below),
///           any layout (C, F, strided views, broadcast views).
/// @param b  [N] one right-hand side (the result is then [..., N]), or [..., N, K] a batch of
///           right-hand-side matrices. As in SciPy 1.18, only a 1-d `b` is a vector: a 2-d `b` of shape
///           (N, K) is one matrix, shared by every matrix of `a`, and a vector per matrix must be given as
///           [..., N, 1]. Batch dimensions of `a` and `b` broadcast against each other (NumPy's rules).
/// @param opts see `solve_options`.
/// @return x: broadcast(a.shape[:-2], b.shape[:-2]) + [N, K] (or + [N] for a 1-d `b`), C-contiguous.
///         dtype: `np.result_type(a, b)` when that is float32, float64, complex64 or complex128;
///         float64 when it is a bool or integer type.
///
/// Algorithm: for N <= 32, one fused kernel loads each matrix into registers (a group of
/// next_pow2(N) >= 4 lanes of a warp per matrix, several matrices per warp), factors it (LU with LAPACK's
/// partial pivoting: the largest |a_ik| (|re| + |im| for complex, as i?amax), the first on ties, so the
/// pivots and the singularity test match `?getrf`; or Cholesky for positive definite) and solves every
/// right-hand side. For N > 32, cuSOLVER's `cusolverDnXgetrf`/`Xgetrs` (`Xpotrf`/`Xpotrs`), one matrix
/// at a time, workspaces from the pool.
///
/// Stream: enqueued on the current stream; **synchronizes** once at the end to read the failure and
/// finiteness flags (SciPy raises on a singular matrix, which requires the device's answer).
///
/// @throws cusci::value_error when `a` is not square, the shapes of `a` and `b` are incompatible or
///         their batch dimensions do not broadcast, or (with `check_finite`) when an input holds inf or
///         NaN ("array must not contain infs or NaNs").
/// @throws cusci::linalg::lin_alg_error when a matrix is singular (an exactly zero pivot) or, with
///         `assume_a = positive_definite`, not positive definite ("A singular matrix detected: ...").
/// @throws cusci::not_implemented_error for `transposed` with a complex dtype (as SciPy).
///
/// SciPy: `scipy.linalg.solve` (1.18). Deviations:
/// - `assume_a = auto_` (SciPy's default None) does not detect structure: it uses LU on the whole
///   matrix, which gives the same solution up to rounding for every structure SciPy would detect.
/// - "sym"/"her" use LU on the symmetric/Hermitian matrix built from the chosen triangle (SciPy:
///   ?sysv/?hesv, Bunch-Kaufman); "diagonal", "tridiagonal", "upper/lower triangular" use LU on the
///   matrix with the entries outside the structure set to zero; "banded" uses LU on the whole matrix.
///   The solutions agree up to rounding; an exactly singular matrix is detected by a zero pivot.
/// - No reciprocal condition number is computed, so no `LinAlgWarning` for ill-conditioned matrices.
/// - The singular-slice list in the message holds the flat batch indices of the singular matrices
///   (SciPy 1.18.1 prints their positions in its error list instead).
/// - `overwrite_a`/`overwrite_b` are ignored (inputs are never modified).
ndarray solve(const ndarray& a, const ndarray& b, const solve_options& opts = {});

}  // namespace cusci::linalg
