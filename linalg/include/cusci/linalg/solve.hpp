#pragma once
/// @file solve.hpp
/// `cusci::linalg::solve`: the solution of `a @ x = b` for square `a`, batched over leading
/// dimensions (`scipy.linalg.solve`).

#include <string_view>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// SciPy's `scipy.linalg.LinAlgWarning` in cusci: the category of the warnings linalg functions issue
/// through `cusci/warnings.hpp` (an ill-conditioned matrix in `solve`, a singular factor in `lu_factor`).
/// Test for it with `cusci::warning_capture::has(std::string(linalg::lin_alg_warning))`, or compare
/// `warning::category` in a handler installed with `cusci::set_warning_handler`.
inline constexpr std::string_view lin_alg_warning = "LinAlgWarning";

/// The structure `solve` may assume for `a` (SciPy's `assume_a` strings).
enum class matrix_structure {
  auto_,               ///< None (SciPy's default): the structure of each slice is detected (see `solve`)
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
/// right-hand side. For N > 32, the LU family's engine (`getrfBatched`/`Xgetrf`, then `getrsBatched`/
/// `Xgetrs`, with `trans` for `transposed`) or cuSOLVER `Xpotrf`/`Xpotrs` (one matrix at a time).
/// Condition estimate (every size, GPU, one thread block per matrix, no host loop): the 1-norm of the
/// matrix as SciPy forms it, then Hager and Higham's estimate of ||A^-1||_1 exactly as LAPACK's ?lacn2
/// (real and complex variants, at most 5 iterations) with substitutions through the factors: getrf's L\U
/// (?gecon; the register kernel's pivots are getrf's, so for N <= 32 the factors come from the LU
/// family's register factorization), the Cholesky factor (?pocon) or the triangle itself (?trcon);
/// rcond = 1 / (||A||_1 * est). "diagonal" reports max|a_jj| * max|1/a_jj| as SciPy does.
/// With `assume_a = auto_`, the same kernel first detects each slice's structure as SciPy 1.18 does:
/// bandwidths 0/0: diagonal; 1/1 with N > 3: tridiagonal; lower bandwidth 0: upper triangular; upper
/// bandwidth 0: lower triangular; otherwise symmetric/Hermitian or general.
///
/// Warnings and errors, as SciPy 1.18.1's error list: slices are walked in order; a slice whose
/// estimate is NaN or below the machine epsilon of the real type (2.2e-16, 1.19e-7; diagonal: a ratio
/// above 1/eps) is ill-conditioned and listed with its rcond; a singular slice is listed and ends the walk
/// (with `positive_definite` every slice is listed, as SciPy). Any singular entry raises
/// `lin_alg_error` "A singular matrix detected: slice(s) [p, ...] are singular." where p are the positions
/// *in that list* (SciPy's numbering, e.g. [0] for the only failing slice); otherwise the ill-conditioned
/// entries give one warning of category "LinAlgWarning" (`cusci/warnings.hpp`; capture it with
/// `warning_capture::has("LinAlgWarning")`), message "An ill-conditioned matrix detected: slice 0 has rcond =
/// 1.85e-17,slice 1 has rcond = ...." (positions in the list, rcond printed as Python's repr of the value
/// converted to double, the entries joined by "," without a space, as SciPy).
///
/// Stream: enqueued on the current stream; **synchronizes** once at the end to read the per-slice
/// records and the finiteness flag (SciPy raises on a singular matrix, which requires the device's answer).
///
/// @throws cusci::value_error when `a` is not square, the shapes of `a` and `b` are incompatible or
///         their batch dimensions do not broadcast, or (with `check_finite`) when an input holds inf or
///         NaN ("array must not contain infs or NaNs").
/// @throws cusci::linalg::lin_alg_error when a matrix is singular (an exactly zero pivot; a zero diagonal
///         entry for the triangular and diagonal structures) or, with `assume_a = positive_definite`, not
///         positive definite (see above for the message).
/// @throws cusci::not_implemented_error for `transposed` with a complex dtype (as SciPy).
/// @throws whatever the warning handler throws (`cusci::set_warning_handler`), after the result is computed.
///
/// SciPy: `scipy.linalg.solve` (1.18). Deviations:
/// - The solution: "sym"/"her" (and SciPy's detected symmetric/Hermitian slices, which SciPy solves by
///   Cholesky, falling back to ?sytrf/?hetrf) use LU on the symmetric/Hermitian matrix built from the
///   chosen triangle; "diagonal", "tridiagonal", "banded", "upper/lower triangular" use LU on the matrix
///   with the entries outside the structure set to zero (SciPy: its own division, ?gttrf, ?gbtrf, ?trtrs).
///   The solutions agree up to rounding.
/// - The estimates for those structures come from the LU factors (SciPy: ?sycon/?hecon/?pocon, ?gtcon,
///   ?gbcon from its own factors): the same quantity, ||A^-1||_1, estimated by the same algorithm, so the
///   rcond values agree to a few digits, not to the last one; the substitutions are plain (?latrs's
///   scaling against overflow is left out). Whether a slice warns agrees except for estimates within
///   rounding of the threshold.
/// - A singular "sym"/"her" slice is detected by an exactly zero LU pivot (SciPy: a zero 1x1 or 2x2 block
///   of the Bunch-Kaufman factor); both detect exactly singular matrices.
/// - `overwrite_a`/`overwrite_b` are ignored (inputs are never modified).
ndarray solve(const ndarray& a, const ndarray& b, const solve_options& opts = {});

}  // namespace cusci::linalg
