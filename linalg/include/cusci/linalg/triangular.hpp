#pragma once
/// @file triangular.hpp
/// Triangular, Cholesky-factor and banded solvers and the structure queries of `scipy.linalg`
/// (1.18): `solve_triangular`, `cho_factor`, `cho_solve`, `solve_banded`, `solveh_banded`,
/// `cholesky_banded`, `cho_solve_banded`, `bandwidth`, `issymmetric`, `ishermitian`, all batched over
/// leading dimensions as SciPy 1.18 batches them.
///
/// Shapes common to the solvers (SciPy's `_apply_over_batch` with core dimensions 2 for the matrix and
/// "1|2" for the right-hand side): the matrix operand is [..., R, M]; `b` of ndim 1 is one vector [M]
/// (result [batch..., M]); `b` of ndim >= 2 is [..., M, K] (result [batch..., M, K]). Batch dimensions
/// broadcast (NumPy's rules). As SciPy: a zero-size broadcast batch is a `value_error`; an empty
/// right-hand side (without a zero-size batch) gives an empty result of `b`'s broadcast shape.
///
/// Result dtype of the solvers: SciPy's LAPACK type. Each operand is mapped to float32/float64/
/// complex64/complex128 (inexact dtypes kept; bool, int8, uint8, int16, uint16 and float16 to float32;
/// other integers to float64; `solve_banded` maps every integer and bool to float64), and the result
/// is the promotion of the two.
///
/// All results are new C-contiguous arrays; inputs are never written (`overwrite_*` accepted and
/// ignored). Argument checks run before any allocation or device work.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

// --- solve_triangular ------------------------------------------------------------------------------

/// The system `solve_triangular` solves (SciPy's `trans`: 0 / 'N', 1 / 'T', 2 / 'C').
enum class transpose_mode : int {
  N = 0,  ///< a @ x = b
  T = 1,  ///< a.T @ x = b
  C = 2,  ///< a.conj().T @ x = b (same as T for real dtypes)
};

/// Parses SciPy's `trans` strings "N", "T", "C" and "0", "1", "2".
/// @throws cusci::value_error for anything else.
transpose_mode parse_transpose_mode(std::string_view trans);

/// Keyword arguments of `solve_triangular`, with SciPy's names and defaults.
struct solve_triangular_options {
  transpose_mode trans = transpose_mode::N;
  /// Use only the lower triangle of `a` (default: only the upper triangle).
  bool lower = false;
  /// The diagonal of `a` is taken as ones and never read.
  bool unit_diagonal = false;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to `b`.
  bool overwrite_b = false;
  /// Check that the whole of `a` (both triangles) and `b` hold only finite numbers.
  bool check_finite = true;
};

/// Solves `op(a) @ x = b` for `x` with `a` triangular.
///
/// @param a [..., M, M] triangular matrices (only the triangle chosen by `lower` is read, and not the
///          diagonal with `unit_diagonal`); any dtype, any layout (C, F, strided, broadcast views).
/// @param b [M] or [..., M, K] (see the file comment); any dtype, any layout.
/// @return x, [batch..., M] or [batch..., M, K], C-contiguous, SciPy's LAPACK dtype (file comment).
///
/// Algorithm: for M < 64 or fewer than 8 right-hand-side columns, a GPU kernel with one warp per
/// (matrix, column of x) runs row-oriented forward or backward substitution (the dot product of each
/// row split over the lanes, reduced with shuffles), reading `a` in place; otherwise `a` is gathered
/// into C-order blocks and cuBLAS's ?trsmBatched solves all matrices in one call (x's C-order block is
/// the column-major X^T: a right-side solve with the same op on A^T). The zero-diagonal test (LAPACK
/// ?trtrs) is a separate kernel that records the first zero per matrix.
///
/// Stream: enqueued on the current stream; **synchronizes** once at the end to read the finiteness and
/// singularity flags.
///
/// @throws cusci::value_error when `a` has ndim < 2 or is not square ("expected square matrix"), `b`
///         has ndim 0 or its length M differs ("shapes of a ... and b ... are incompatible"), the batch
///         dimensions do not broadcast or broadcast to a zero-size batch, or (with `check_finite`) an
///         input holds inf or NaN ("array must not contain infs or NaNs").
/// @throws cusci::linalg::lin_alg_error when a diagonal entry is exactly zero (without
///         `unit_diagonal`): "singular matrix: resolution failed at diagonal i" (0-based i of the first
///         failing matrix in C order of the batch).
///
/// SciPy: `scipy.linalg.solve_triangular` (LAPACK ?trtrs). Deviation: `overwrite_b` is ignored.
ndarray solve_triangular(const ndarray& a, const ndarray& b, const solve_triangular_options& opts = {});

// --- cho_factor / cho_solve ------------------------------------------------------------------------

/// Keyword arguments of `cho_factor`.
struct cho_factor_options {
  /// Compute the lower factor L (`a = L L^H`) from the lower triangle; default the upper factor U.
  bool lower = false;
  /// Accepted for SciPy compatibility and ignored.
  bool overwrite_a = false;
  bool check_finite = true;
};

/// SciPy's `(c, lower)` pair returned by `cho_factor` and taken by `cho_solve`.
struct cho_factor_result {
  /// [..., M, M]: the factor in the triangle chosen by `lower`; the other triangle as SciPy 1.18.1's
  /// `cho_factor` leaves it (its documentation allows arbitrary values there): the input's entries
  /// (cast to c's dtype) for a single (M, M) matrix of a dtype SciPy casts (integers, bool, float16),
  /// which SciPy factors in place on its cast copy; zeros otherwise.
  ndarray c;
  /// Which triangle of `c` holds the factor. (SciPy returns `np.tile(lower, batch_shape)`; every
  /// element of it is this value.)
  bool lower = false;
};

/// Cholesky factorization for `cho_solve`.
///
/// @param a [..., M, M] Hermitian positive definite; only the triangle chosen by `lower` is used
///          (0-d and 1-d inputs as `cholesky`). Any dtype, any layout.
/// @return `{c, lower}`; c is C-contiguous with dtype as `cholesky`'s.
///
/// Algorithm: `cusci::linalg::cholesky` (register kernel for M <= 32, cuSOLVER potrf above).
///
/// Stream: **synchronizes** once (as `cholesky`).
/// @throws cusci::value_error as `cholesky` (not square, non-finite input).
/// @throws cusci::linalg::lin_alg_error when a matrix is not positive definite ("Internal potrf return
///         info = [k] for slices [s].").
///
/// SciPy: `scipy.linalg.cho_factor`. Deviation: `lower` is returned as one bool.
cho_factor_result cho_factor(const ndarray& a, const cho_factor_options& opts = {});

/// Keyword arguments of `cho_solve`.
struct cho_solve_options {
  bool overwrite_b = false;  ///< accepted and ignored
  bool check_finite = true;  ///< check the whole of c and b for inf/NaN
};

/// Solves `A @ x = b` given the Cholesky factor of A from `cho_factor` (`A = U^H U` or `L L^H`).
///
/// @param c_and_lower the factor c [..., M, M] (only its triangle `lower` is read; any dtype and
///        layout) and `lower`.
/// @param b [M] or [..., M, K].
/// @return x, [batch..., M] or [batch..., M, K], C-contiguous, LAPACK dtype of (c, b).
///
/// Algorithm: two triangular solves in place, U^H y = b then U x = y (or L y = b, L^H x = y), with the
/// `solve_triangular` kernel or, for M >= 64 with >= 8 columns, cuBLAS's ?trsmBatched. As LAPACK
/// ?potrs, a zero on the diagonal is not an error (the result then holds inf/NaN).
///
/// Stream: **synchronizes** at the end only when `check_finite` (to read the flag); otherwise fully
/// asynchronous.
/// @throws cusci::value_error when c is not square ("The factored matrix c is not square."), the
///         shapes are incompatible ("incompatible dimensions"), batches do not broadcast or are
///         empty, or an input is not finite (with `check_finite`).
///
/// SciPy: `scipy.linalg.cho_solve` (LAPACK ?potrs).
ndarray cho_solve(const cho_factor_result& c_and_lower, const ndarray& b, const cho_solve_options& opts = {});

// --- banded solvers --------------------------------------------------------------------------------

/// Keyword arguments of `solve_banded`.
struct solve_banded_options {
  bool overwrite_ab = false;  ///< accepted and ignored
  bool overwrite_b = false;   ///< accepted and ignored
  bool check_finite = true;   ///< check the whole of ab (the unused corners too) and b
};

/// Solves `a @ x = b` for `a` banded with `l` sub- and `u` superdiagonals, stored in diagonal ordered
/// form: `ab[..., u + i - j, j] == a[..., i, j]`.
///
/// @param l_and_u (l, u), both >= 0.
/// @param ab [..., l + u + 1, M]; entries outside the band (the corners) are never used. Any dtype,
///           any layout.
/// @param b [M] or [..., M, K].
/// @return x, [batch..., M] or [batch..., M, K], C-contiguous; dtype: the LAPACK type of (ab, b) with
///         integers and bool taken as float64.
///
/// Algorithm (GPU kernel): LAPACK's unblocked ?gbtf2 (LU with partial pivoting, the first largest
/// |re| + |im| as i?amax; l extra rows for the fill-in) then ?gbtrs on every right-hand side. Narrow
/// bands (l + u < 4): one thread per system, the band workspace interleaved over the batch so that
/// neighbouring threads read neighbouring addresses. Wider bands: one warp per system, the pivot
/// search, row swap, scaling and rank-1 update of each step spread over the lanes, the solve one lane
/// per right-hand-side column. M == 1 is `b / ab[u, 0]` (SciPy's special case, no singularity test).
/// The elimination is sequential over the M columns: a single large system uses one thread or warp
/// (correct, not tuned; batches are the fast case).
///
/// Stream: **synchronizes** once at the end (flags).
/// @throws cusci::value_error for l or u < 0, l + u + 1 != ab.shape[-2] ("invalid values for the
///         number of lower and upper diagonals"), M mismatch ("shapes of ab and b are not compatible."),
///         batches, non-finite input.
/// @throws cusci::linalg::lin_alg_error "singular matrix" for an exactly zero pivot.
///
/// SciPy: `scipy.linalg.solve_banded` (?gbsv; ?gtsv for l = u = 1: same solution up to rounding).
/// Deviation: l and u are scalars (SciPy also accepts arrays of them, batched); for M == 1 SciPy keeps
/// b's (inexact) dtype, cusci returns the LAPACK dtype of (ab, b).
ndarray solve_banded(std::pair<std::int64_t, std::int64_t> l_and_u, const ndarray& ab, const ndarray& b,
                     const solve_banded_options& opts = {});

/// Keyword arguments of `solveh_banded`.
struct solveh_banded_options {
  bool overwrite_ab = false;  ///< accepted and ignored
  bool overwrite_b = false;   ///< accepted and ignored
  /// `ab` holds the lower form `ab[i - j, j] == a[i, j]` (i >= j); default the upper form
  /// `ab[kd + i - j, j] == a[i, j]` (i <= j), kd = ab.shape[-2] - 1.
  bool lower = false;
  bool check_finite = true;
};

/// Solves `a @ x = b` for `a` Hermitian positive definite banded.
///
/// @param ab [..., kd + 1, M] (see `solveh_banded_options::lower`); the imaginary part of the diagonal
///           is ignored (LAPACK). Any dtype, any layout.
/// @param b [M] or [..., M, K].
/// @return x, C-contiguous, LAPACK dtype of (ab, b).
///
/// Algorithm (GPU kernels): banded Cholesky (?pbtf2) of a gathered copy of `ab`, one thread per system
/// for kd < 4 and one warp per system above (the scaling and the rank-1 update of each step over the
/// lanes), then ?pbtrs, one thread per (system, right-hand-side column).
/// Stream: **synchronizes** once at the end.
/// @throws cusci::value_error for shapes (ab.shape[-2] == 0, M mismatch: "shapes of ab and b are not
///         compatible."; kd = 1 with M = 1, which SciPy's ?ptsv path rejects), batches, non-finite
///         input.
/// @throws cusci::linalg::lin_alg_error "kth leading minor not positive definite" (first failing matrix).
///
/// SciPy: `scipy.linalg.solveh_banded` (?pbsv; ?ptsv for kd = 1: LDL^H, same solution up to rounding).
ndarray solveh_banded(const ndarray& ab, const ndarray& b, const solveh_banded_options& opts = {});

/// Keyword arguments of `cholesky_banded`.
struct cholesky_banded_options {
  bool overwrite_ab = false;  ///< accepted and ignored
  bool lower = false;         ///< lower form (see `solveh_banded_options::lower`)
  bool check_finite = true;
};

/// Cholesky factor of a Hermitian positive definite banded matrix, in the same banded form.
///
/// @param ab [..., kd + 1, M]; any dtype (SciPy's LAPACK type of ab), any layout.
/// @return c [..., kd + 1, M], C-contiguous: U (upper form) or L (lower form) in the band; the unused
///         corner entries are those of ab, as LAPACK ?pbtrf leaves them.
///
/// Algorithm (GPU kernel): LAPACK's ?pbtf2 in place in the result, one thread per matrix for kd < 4,
/// one warp per matrix above (see `solveh_banded`).
/// Stream: **synchronizes** once at the end.
/// @throws cusci::value_error for ab.ndim < 2, a zero-size batch, non-finite input.
/// @throws cusci::linalg::lin_alg_error "k-th leading minor not positive definite".
///
/// SciPy: `scipy.linalg.cholesky_banded`.
ndarray cholesky_banded(const ndarray& ab, const cholesky_banded_options& opts = {});

/// SciPy's `(cb, lower)` pair taken by `cho_solve_banded`.
struct cho_banded_factor {
  ndarray cb;          ///< [..., kd + 1, M], the factor in banded form (`cholesky_banded`)
  bool lower = false;  ///< which form cb is in
};

/// Keyword arguments of `cho_solve_banded`.
struct cho_solve_banded_options {
  bool overwrite_b = false;  ///< accepted and ignored
  bool check_finite = true;
};

/// Solves `A @ x = b` given the banded Cholesky factor of A from `cholesky_banded`.
///
/// @param cb_and_lower cb [..., kd + 1, M] and its form; any dtype and layout.
/// @param b [M] or [..., M, K].
/// @return x, C-contiguous, LAPACK dtype of (cb, b).
/// Algorithm (GPU kernel): ?pbtrs, one thread per (system, right-hand-side column). A zero diagonal is
/// not an error (inf/NaN result, as LAPACK).
/// Stream: **synchronizes** at the end only when `check_finite`.
/// @throws cusci::value_error for shapes ("shapes of cb and b are not compatible."), batches,
///         non-finite input.
/// SciPy: `scipy.linalg.cho_solve_banded`.
ndarray cho_solve_banded(const cho_banded_factor& cb_and_lower, const ndarray& b,
                         const cho_solve_banded_options& opts = {});

// --- structure queries -----------------------------------------------------------------------------

/// Lower and upper bandwidths of each matrix of `a` [..., N, M]: for each matrix, the largest i - j
/// (and j - i) over its nonzero entries (0 when there are none).
///
/// @param a [..., N, M], ndim >= 2; numeric or bool dtype except float16. Any layout.
/// @return (lower, upper): int64 arrays of shape a.shape[:-2] (0-d for a 2-d `a`; SciPy returns
///         Python ints then). An empty `a` gives zeros.
/// Algorithm (GPU kernel): one thread block per matrix, a max-reduction over its nonzero entries.
/// Stream: asynchronous (no synchronization).
/// @throws cusci::value_error for ndim < 2 ("Input array must be at least 2D.").
/// @throws cusci::type_error for float16 ("Input array with float16 dtype is not supported.").
/// SciPy: `scipy.linalg.bandwidth`. Deviation: for a 2-d `a` the results are 0-d arrays (SciPy: ints).
std::pair<ndarray, ndarray> bandwidth(const ndarray& a);

/// Tolerances of `issymmetric` / `ishermitian`. With neither given (SciPy's None), the comparison is
/// exact; with one given, the other is 0 (SciPy), and the test is `numpy.allclose`'s
/// |a_ij - a'_ij| <= atol + rtol * |a'_ij| (inf equal to the same inf, NaN never equal).
struct symmetry_options {
  std::optional<double> atol;
  std::optional<double> rtol;
};

/// Whether each matrix of `a` [..., N, N] is symmetric (`a == a.T`; complex values are not
/// conjugated). The exact test (no tolerance given) does not look at the diagonal, so NaN there is
/// ignored, as SciPy; the tolerance test is `numpy.allclose(a, a.T)` over every entry (a NaN anywhere
/// makes it false; integers and bool are converted to float64 first).
///
/// @param a [..., N, N], ndim >= 2; numeric or bool dtype except float16. Any layout.
/// @return bool array of shape a.shape[:-2] (0-d for a 2-d `a`; SciPy returns a Python bool then).
/// Algorithm (GPU kernel): one thread block per matrix, an all-reduction in shared memory; integers and
/// bool compared bitwise, floating types as values (-0 == 0, NaN never equal).
/// Stream: asynchronous (no synchronization).
/// @throws cusci::value_error for ndim < 2 ("Input array must be a 2D NumPy array."), non-square
///         ("Input array must be square."), a zero-size batch.
/// @throws cusci::type_error for float16.
/// SciPy: `scipy.linalg.issymmetric`. Deviations: for a 2-d `a` the result is a 0-d array (SciPy: a
/// bool); the tolerance test of float32 input is computed in double (NumPy: in float32).
ndarray issymmetric(const ndarray& a, const symmetry_options& opts = {});

/// Whether each matrix of `a` [..., N, N] is Hermitian (`a == a.conj().T`, the diagonal's imaginary
/// part included: it must be 0, or within the tolerances); for real dtypes the same as `issymmetric`.
/// Shapes, stream, exceptions as `issymmetric`. SciPy: `scipy.linalg.ishermitian`.
ndarray ishermitian(const ndarray& a, const symmetry_options& opts = {});

}  // namespace cusci::linalg
