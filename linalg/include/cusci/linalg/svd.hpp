#pragma once
/// @file svd.hpp
/// The SVD family of `cusci::linalg` (`scipy.linalg`): `svd`, `svdvals`, `diagsvd`, `orth`, `null_space`,
/// `subspace_angles`, `orthogonal_procrustes`, `polar`, `pinv`, `lstsq`, batched over leading dimensions
/// as SciPy 1.18 batches.
///
/// Where the work runs. Every decomposition goes through one engine (linalg/src/svd/svd_kernels.cu):
/// - matrices whose working set fits in one thread block's shared memory (for `compute_uv`:
///   (r c + c^2 + r) elements + c reals and ints, r = max(M, N), c = min(M, N); e.g. up to 64 x 64 in
///   complex128, about 110 x 110 in float32 on an H100/H200, and tall or wide ones accordingly): one GPU
///   kernel for the whole batch, one thread block a matrix, one-sided Jacobi (Hestenes) rotations with the
///   column pairs of a round spread over the block's warps; the left vectors of zero singular values and
///   the extra columns of a full U / Vh are completed to an orthonormal basis in the same kernel;
/// - larger matrices: cuSOLVER, one call a matrix (each such matrix keeps the GPU busy on its own):
///   `Xgesvdp` (polar decomposition + symmetric eigensolver) for `lapack_driver = gesdd`, `Xgesvd` (QR
///   iteration, LAPACK's ?gesvd algorithm) for `gesvd`; the operands are gathered into column-major pool
///   buffers, wide matrices transposed so that the library sees a tall one, and the factors written back
///   in C order by a relayout kernel.
/// Composite functions (orth, null_space, pinv, lstsq, polar, orthogonal_procrustes, subspace_angles)
/// add core's batched matmul (cuBLAS) and elementwise kernels; the host reads back only what SciPy's
/// results or errors depend on (status flags; the ranks of orth / null_space / subspace_angles, whose
/// output shapes depend on them).
///
/// dtypes (SciPy's LAPACK type): float32, float64, complex64, complex128 kept; bool, int8, uint8, int16,
/// uint16, float16 compute in float32; other integers in float64. Singular values have the real dtype.
///
/// Streams: everything is enqueued on the current stream; the functions that synchronize say so.

#include <cstdint>
#include <optional>
#include <string_view>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// SciPy's `lapack_driver` of `svd` / `null_space`; selects the library path for matrices too large for
/// the Jacobi kernel (both compute the same decomposition up to rounding and the signs of vectors).
enum class svd_driver {
  gesdd,  ///< "gesdd" (SciPy's default): cuSOLVER Xgesvdp (polar decomposition), the fast path
  gesvd,  ///< "gesvd": cuSOLVER Xgesvd (QR iteration), slower, robust for rank-deficient input
};
/// Parses "gesdd" / "gesvd". @throws cusci::value_error otherwise (SciPy's message).
svd_driver parse_svd_driver(std::string_view s);

/// Keyword arguments of `svd`, with SciPy's names and defaults.
struct svd_options {
  /// U is [..., M, M] and Vh [..., N, N]; else [..., M, K] and [..., K, N], K = min(M, N).
  bool full_matrices = true;
  /// Compute U and Vh (else only s).
  bool compute_uv = true;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to `a`.
  bool overwrite_a = false;
  /// Check that `a` holds only finite numbers.
  bool check_finite = true;
  /// See svd_driver.
  svd_driver lapack_driver = svd_driver::gesdd;
};

/// What `svd` returns; `u` and `vh` are empty default arrays when `compute_uv` is false.
struct svd_result {
  ndarray u;   ///< [..., M, M] or [..., M, K], the LAPACK type of `a`
  ndarray s;   ///< [..., K] descending, its real dtype
  ndarray vh;  ///< [..., N, N] or [..., K, N]
};

/// Singular value decomposition `a = u @ diag(s) @ vh` of one matrix or a batch.
///
/// @param a [..., M, N] (ndim >= 2), any dtype, any layout.
/// @return C-contiguous factors (see svd_result). An empty `a` gives identity `u`/`vh` with
///         `full_matrices` (else [..., M, 0] / [..., 0, N]) and an empty `s`, as SciPy.
///
/// Algorithm: see the file comment (Jacobi kernel, or cuSOLVER Xgesvdp / Xgesvd by `lapack_driver`).
/// Singular vectors are unique only up to a unit factor (sign / phase) per pair and within repeated
/// singular values; compare them through `u @ diag(s) @ vh` and orthogonality.
///
/// Stream: **synchronizes** once, at the end (finiteness and convergence flags: SciPy raises).
///
/// @throws cusci::value_error for ndim < 2, inf/NaN with `check_finite` ("array must not contain infs or
///         NaNs"), NaN without it ("slice = b has a NaN entry", SciPy's gesdd message).
/// @throws cusci::linalg::lin_alg_error "SVD did not converge for slice = b." (flat batch index).
///
/// SciPy: `scipy.linalg.svd` (1.18). Deviations: `lapack_driver` picks a GPU algorithm (above), not a
/// LAPACK routine, and small matrices use Jacobi with either driver (more accurate than gesdd: high
/// relative accuracy of small singular values); `overwrite_a` ignored; no DeprecationWarning for bool /
/// float16 input.
svd_result svd(const ndarray& a, const svd_options& opts = {});

/// Keyword arguments of `svdvals`.
struct svdvals_options {
  /// Accepted and ignored.
  bool overwrite_a = false;
  /// Check that `a` holds only finite numbers.
  bool check_finite = true;
};

/// Singular values of one matrix or a batch: `svd(a, {.compute_uv = false}).s`.
/// @param a [..., M, N]. @return [..., K] real dtype, descending. Synchronizes once; throws as `svd`.
/// SciPy: `scipy.linalg.svdvals` (1.18); `overwrite_a` ignored.
ndarray svdvals(const ndarray& a, const svdvals_options& opts = {});

/// The M x N matrix with `s` on its diagonal (SciPy's `diagsvd(s, M, N)`), batched over s's leading
/// dimensions.
/// @param s [..., K] with K == M or K == N, any dtype (kept). @return [..., M, N] C-contiguous, `s`'s dtype.
/// GPU: one zero fill and one scatter kernel; does not synchronize.
/// @throws cusci::value_error when s is 0-d, when K is neither M nor N ("Length of s must be M or N."), or
///         for a negative remaining dimension (NumPy's "negative dimensions are not allowed").
/// SciPy: `scipy.linalg.diagsvd` (1.18).
ndarray diagsvd(const ndarray& s, std::int64_t M, std::int64_t N);

/// Orthonormal basis of the range of `A`: the columns of U (economy SVD) whose singular value exceeds
/// `rcond * max(s)` (default rcond: eps of the real dtype * max(M, N)).
/// @param A [..., M, N]. @return [..., M, num], the LAPACK type of A.
/// Stream: **synchronizes** (the SVD's flags, then the singular values, which decide num).
/// @throws as `svd`; cusci::value_error for a batch whose matrices have different ranks (SciPy stacks
///         the per-matrix results and fails: "all input arrays must have the same shape").
/// SciPy: `scipy.linalg.orth` (1.18).
ndarray orth(const ndarray& A, std::optional<double> rcond = {});

/// Keyword arguments of `null_space` (all but rcond keyword-only in SciPy).
struct null_space_options {
  /// Relative threshold; default eps of the real dtype * max(M, N).
  std::optional<double> rcond{};
  /// Accepted and ignored.
  bool overwrite_a = false;
  bool check_finite = true;
  svd_driver lapack_driver = svd_driver::gesdd;
};

/// Orthonormal basis of the null space of `A`: the conjugated rows of the full Vh whose singular value
/// is at most `rcond * max(s)` (rows num..N-1), as columns.
/// @param A [..., M, N]. @return [..., N, N - num], the LAPACK type of A.
/// Stream: **synchronizes** (flags and singular values). @throws as `orth`.
/// SciPy: `scipy.linalg.null_space` (1.18).
ndarray null_space(const ndarray& A, const null_space_options& opts = {});

/// Principal angles between the column spaces of A and B (radians, descending), by Knyazev and Argentati's
/// sine/cosine algorithm as SciPy: orth of both, svdvals of QA^H QB (cosines) and of the residual (sines).
/// @param A [..., M, N], @param B [..., M, K]; batch dimensions broadcast. @return [..., min(rank A,
///        rank B)] real dtype.
/// Stream: **synchronizes** (orth's ranks; svdvals' flags).
/// @throws cusci::value_error for ndim < 2, different row counts, inf/NaN, or batch matrices of different
///         ranks (see orth).
/// SciPy: `scipy.linalg.subspace_angles` (1.18).
ndarray subspace_angles(const ndarray& A, const ndarray& B);

/// Keyword arguments of `orthogonal_procrustes`.
struct orthogonal_procrustes_options {
  bool check_finite = true;
};
/// The pair (R, scale) `orthogonal_procrustes` returns.
struct orthogonal_procrustes_result {
  ndarray R;      ///< [..., N, N]
  ndarray scale;  ///< [...] (0-d for 2-D input): the sum of the singular values of A^H B, real dtype
};
/// The unitary R minimizing ||A R - B||_F: with A^H B = U S Vh (SVD), R = U Vh and scale = sum(S).
/// @param A, B [..., M, N] of equal core shape; batch dimensions broadcast.
/// Stream: **synchronizes** once (the SVD's flags).
/// @throws cusci::value_error for ndim < 2, different core shapes ("the shapes of A and B differ"), batch
///         dimensions that do not broadcast, inf/NaN with `check_finite`.
/// SciPy: `scipy.linalg.orthogonal_procrustes` (1.18); dtype: NumPy's matmul type of A and B, then the
/// LAPACK type.
orthogonal_procrustes_result orthogonal_procrustes(const ndarray& A, const ndarray& B,
                                                   const orthogonal_procrustes_options& opts = {});

/// Side of the polar decomposition: `right` a = u p, `left` a = p u.
enum class polar_side { right, left };
/// Parses "right" / "left". @throws cusci::value_error "`side` must be either 'right' or 'left'".
polar_side parse_polar_side(std::string_view s);
/// The pair (u, p) `polar` returns.
struct polar_result {
  ndarray u;  ///< [..., M, N]: orthonormal columns (M >= N) or rows (M < N)
  ndarray p;  ///< [..., N, N] (right) or [..., M, M] (left): Hermitian positive semi-definite
};
/// Polar decomposition from the economy SVD a = w s vh: u = w vh, p = vh^H s vh (right) or w s w^H (left).
/// @param a [..., M, N]. Stream: **synchronizes** once (the SVD's flags). @throws as `svd`.
/// SciPy: `scipy.linalg.polar` (1.18).
polar_result polar(const ndarray& a, polar_side side = polar_side::right);

/// Keyword arguments of `pinv` (keyword-only in SciPy).
struct pinv_options {
  /// Absolute threshold (default 0).
  std::optional<double> atol{};
  /// Relative threshold (default max(M, N) * eps of the real dtype).
  std::optional<double> rtol{};
  /// Also return the effective ranks.
  bool return_rank = false;
  bool check_finite = true;
};
/// What `pinv` returns; `rank` is an empty default array unless `return_rank`.
struct pinv_result {
  ndarray B;     ///< [..., N, M], the LAPACK type of a
  ndarray rank;  ///< [...] int64 (0-d for 2-D input): the number of singular values above the threshold
};
/// Moore-Penrose pseudo-inverse from the economy SVD: B = V diag(w) U^H with w = 1/s where
/// s > atol + rtol * max(s), else 0.
/// @param a [..., M, N]. Stream: **synchronizes** once (the SVD's flags).
/// @throws cusci::value_error for ndim < 2, a negative atol or rtol ("atol and rtol values must be
///         positive."), inf/NaN with `check_finite`.
/// SciPy: `scipy.linalg.pinv` (1.18).
pinv_result pinv(const ndarray& a, const pinv_options& opts = {});

/// SciPy's `lapack_driver` of `lstsq`. All three are computed by the SVD (see `lstsq`).
enum class lstsq_driver { gelsd, gelsy, gelss };
/// Parses "gelsd" / "gelsy" / "gelss". @throws cusci::value_error `LAPACK driver "<s>" is not found`.
lstsq_driver parse_lstsq_driver(std::string_view s);

/// Keyword arguments of `lstsq`, with SciPy's names and defaults.
struct lstsq_options {
  /// Singular values s <= cond * max(s) count as zero; default (and for a negative cond, as LAPACK) the
  /// eps of the dtype.
  std::optional<double> cond{};
  bool overwrite_a = false;  ///< accepted and ignored
  bool overwrite_b = false;  ///< accepted and ignored
  bool check_finite = true;
  /// Default (SciPy's None): gelsd.
  std::optional<lstsq_driver> lapack_driver{};
};
/// What `lstsq` returns.
struct lstsq_result {
  ndarray x;         ///< [..., N] for a 1-d b, else [..., N, K]
  ndarray residues;  ///< see lstsq
  ndarray rank;      ///< [...] int64 (0-d for 2-D a)
  ndarray s;         ///< [..., min(M, N)] real dtype; an empty default array for gelsy (SciPy: None)
};
/// Least-squares solution of a x = b (minimum norm for rank-deficient a), from the economy SVD:
/// x = V diag(w) U^H b, w = 1/s for s > cond * max(s), else 0.
///
/// @param a [..., M, N]; @param b [M] (one vector) or [..., M, K] (SciPy's "1|2" rule); batch dimensions
///        broadcast. dtype: np.result_type(a, b) made single or double precision (float64 when not
///        inexact).
/// @return residues: when M > N and the driver is not gelsy, the squared 2-norm of each column of
///         b - a x ([..., K], or [...] for a 1-d b), in x's dtype (complex for complex input), NaN for the
///         matrices whose rank is below N; otherwise an empty [..., 0] array. M == 0 or N == 0: x zeros,
///         residues |b|^2 per column when N == 0 (real dtype), rank 0, s empty.
///
/// Stream: **synchronizes** once (the SVD's flags).
/// @throws cusci::value_error for ndim(a) < 2, a 0-d b, row counts that differ ("Shape mismatch: a and b
///         should have the same number of rows"), batch dimensions that do not broadcast, inf/NaN with
///         `check_finite`; as `svd`.
///
/// SciPy: `scipy.linalg.lstsq` (1.18). Deviations: gelsd, gelss and gelsy all use the SVD (gelsy's rank
/// is then the SVD rank at `cond`, not the QR estimate; its s is not returned, as SciPy); residues are
/// computed from b - a x (same values up to rounding); overwrite_* ignored.
lstsq_result lstsq(const ndarray& a, const ndarray& b, const lstsq_options& opts = {});

}  // namespace cusci::linalg
