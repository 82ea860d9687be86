#pragma once
/// @file eigen.hpp
/// The eigen family of `cusci::linalg` (`scipy.linalg`): `eigh`, `eigvalsh`, `eig`, `eigvals`,
/// `eig_banded`, `eigvals_banded`, `eigh_tridiagonal`, `eigvalsh_tridiagonal`, `pinvh`, batched over
/// leading dimensions as SciPy 1.18 does (docs/linalg-eigen.md).
///
/// Where the work runs: inputs are read by GPU kernels (any layout, broadcasting, the Hermitian matrix
/// formed from the chosen triangle, fused finiteness check) into column-major pool buffers. Symmetric /
/// Hermitian problems: one matrix with cuSOLVER `cusolverDnXsyevd` (all eigenpairs) or
/// `cusolverDnXsyevdx` (a subset, drivers evr / evx / default), a batch with one
/// `cusolverDnXsyevBatched` call (no host loop). Generalized problems: B factored by cuSOLVER `Xpotrf`
/// (one matrix) or one `potrfBatched` call (a batch), reduced to a standard problem with cuBLAS `trsmBatched` /
/// `gemmStridedBatched` (LAPACK ?sygst's transformation), solved as above and transformed back.
/// Nonsymmetric problems: cuSOLVER `cusolverDnXgeev`, one call per matrix (cuSOLVER has no batched
/// geev). Banded and tridiagonal matrices are expanded to dense Hermitian matrices on the GPU and take
/// the symmetric path. The host checks arguments and reads failure flags back (one synchronization).
///
/// dtypes (SciPy's LAPACK type): float32, float64, complex64, complex128 are kept; bool, int8, uint8,
/// int16, uint16 and float16 compute in float32, the other integers in float64. Eigenvalues of
/// Hermitian problems are real (float32 / float64).
///
/// Layout of results: eigenvalue arrays are C-contiguous; eigenvector matrices (and `pinvh`'s result)
/// are Fortran-ordered per matrix (strides (..., itemsize, n * itemsize)), as LAPACK writes them and as
/// SciPy returns them for a single matrix; batch dimensions are outermost.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

// --- eigh / eigvalsh -----------------------------------------------------------------------------------

/// SciPy's `driver` strings of `eigh` (`None` is `eigh_driver::none`).
///
/// GPU mapping: `none`, `evr`, `evx` (SciPy's default is evr): one matrix: cuSOLVER `Xsyevdx` when a
/// subset is asked for (only the selected eigenvectors are computed), else `Xsyevd`; `ev`, `evd`:
/// `Xsyevd`. A batch always uses `XsyevBatched` (subsets are then selected from the full spectrum).
/// `gv`, `gvd`, `gvx` (generalized): Cholesky of B + reduction + the standard path above (default gvd, or
/// gvx with a subset). The results agree with SciPy's drivers up to rounding and the eigenvectors' signs.
enum class eigh_driver { none, ev, evd, evr, evx, gv, gvd, gvx };

/// Parses SciPy's driver string ("ev", "evd", "evr", "evx", "gv", "gvd", "gvx"; "" or "None" for none).
/// @throws cusci::value_error for other strings (SciPy's message listing the possible values).
eigh_driver parse_eigh_driver(std::string_view s);

/// Keyword arguments of `eigh`, with SciPy's names, order and defaults.
struct eigh_options {
  /// Read the lower triangle of a (and b); else the upper triangle.
  bool lower = true;
  /// Compute the eigenvalues only (`v` of the result is then a default-constructed ndarray).
  bool eigvals_only = false;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to its inputs.
  bool overwrite_a = false;
  /// Accepted and ignored, as overwrite_a.
  bool overwrite_b = false;
  /// Generalized problem type: 1: a v = w b v; 2: a b v = w v; 3: b a v = w v.
  int type = 1;
  /// Check that a (and b) hold only finite numbers (both triangles, as SciPy).
  bool check_finite = true;
  /// [lo, hi] (0-based, inclusive): only the eigenvalues of ascending index lo..hi.
  std::optional<std::array<std::int64_t, 2>> subset_by_index = std::nullopt;
  /// (lo, hi]: only the eigenvalues in this half-open interval (-inf and inf allowed).
  std::optional<std::array<double, 2>> subset_by_value = std::nullopt;
  /// LAPACK driver, mapped to GPU methods as documented at `eigh_driver`.
  eigh_driver driver = eigh_driver::none;
};

/// Eigenvalues (ascending) and eigenvectors (columns) of Hermitian problems.
struct eigh_result {
  ndarray w;  ///< [..., M] real (float32 / float64).
  ndarray v;  ///< [..., N, M] of the computation dtype; default-constructed ndarray with eigvals_only.
};

/// Eigenvalues and eigenvectors of a complex Hermitian or real symmetric matrix (or a batch).
///
/// @param a [..., N, N], any dtype and layout; only the triangle chosen by `lower` is read (the diagonal's
///          imaginary part is ignored), but `check_finite` scans the whole matrix.
/// @return w [..., M] ascending, real dtype of the computation type; v [..., N, M] with a v = w v and
///         v^H v = I (unit norm columns; signs may differ from SciPy's). M = N, or the subset's size.
///         An (..., 0, 0) input gives empty results of the right dtypes (SciPy: (0,) and (0, 0)).
///
/// Stream: enqueued on the current stream; **synchronizes** once (failure flags; with subset_by_value
/// also the per-matrix counts).
///
/// @throws cusci::value_error: a not square / ndim < 2 ("expected square \"a\" matrix"); a subset that
///         is invalid (SciPy's messages); both subsets; a driver that does not fit (a gv* driver without b,
///         ev/evd with a subset); non-finite input with check_finite; a batch whose matrices have
///         different numbers of eigenvalues in subset_by_value (NumPy's stack error in SciPy); a zero-size
///         batch ("`eigh` does not support zero-size batches").
/// @throws cusci::linalg::lin_alg_error when the eigensolver does not converge.
///
/// SciPy: `scipy.linalg.eigh` (1.18). Deviations: drivers are GPU methods (see `eigh_driver`);
/// overwrite_* are ignored; float16/bool inputs give no DeprecationWarning.
eigh_result eigh(const ndarray& a, const eigh_options& opts = {});

/// Generalized Hermitian-definite problem (type 1: a v = w b v; 2: a b v = w v; 3: b a v = w v).
///
/// @param b [..., N, N] Hermitian positive definite, any dtype; batch dimensions of a and b broadcast.
///          The computation dtype is the LAPACK type of both (e.g. float32 with float64 gives float64).
/// @return w as for the standard problem; v normalized as LAPACK ?sygvd: v^H b v = I (types 1, 2) and
///         v^H b^-1 v = I (type 3).
///
/// Algorithm: b = L L^H (cuSOLVER Xpotrf / potrfBatched); type 1: C = L^-1 a L^-H, v = L^-H y; types 2, 3:
/// C = L^H a L, v = L^-H y (2) or v = L y (3), where C y = w y (LAPACK ?sygst + ?syevd + back
/// transformation, Golub & Van Loan section 8.7).
///
/// @throws as the standard overload, plus: cusci::value_error for b not square or of another order
///         ("wrong b dimensions ..."), batch dimensions that do not broadcast, type not 1, 2 or 3, an ev*
///         driver with b; cusci::linalg::lin_alg_error when b is not positive definite ("The leading minor
///         of order k of B is not positive definite. ...").
eigh_result eigh(const ndarray& a, const ndarray& b, const eigh_options& opts = {});

/// Keyword arguments of `eigvalsh` (SciPy's names, order and defaults).
struct eigvalsh_options {
  bool lower = true;
  bool overwrite_a = false;  ///< ignored
  bool overwrite_b = false;  ///< ignored
  int type = 1;
  bool check_finite = true;
  std::optional<std::array<std::int64_t, 2>> subset_by_index = std::nullopt;
  std::optional<std::array<double, 2>> subset_by_value = std::nullopt;
  eigh_driver driver = eigh_driver::none;
};

/// Eigenvalues of a Hermitian / real symmetric matrix: `eigh(a, {..., .eigvals_only = true}).w`
/// (eigenvectors are not computed). Shapes, stream behaviour and exceptions as `eigh`.
/// SciPy: `scipy.linalg.eigvalsh` (1.18).
ndarray eigvalsh(const ndarray& a, const eigvalsh_options& opts = {});
/// Generalized form, as `eigh(a, b, ...)` with eigvals_only.
ndarray eigvalsh(const ndarray& a, const ndarray& b, const eigvalsh_options& opts = {});

// --- eig / eigvals ----------------------------------------------------------------------------------

/// Keyword arguments of `eig` (SciPy's names, order and defaults).
struct eig_options {
  /// Also return the left eigenvectors vl (vl[:, i]^H a = w[i] vl[:, i]^H).
  bool left = false;
  /// Return the right eigenvectors vr (a vr[:, i] = w[i] vr[:, i]).
  bool right = true;
  bool overwrite_a = false;  ///< ignored
  bool overwrite_b = false;  ///< ignored
  bool check_finite = true;
  /// Return the eigenvalues as pairs (alpha, beta) stacked on axis -2: w [..., 2, N] with w = alpha / beta.
  bool homogeneous_eigvals = false;
};

/// What `eig` returns; vectors not asked for are default-constructed ndarrays.
struct eig_result {
  ndarray w;   ///< [..., N] complex (or [..., 2, N] with homogeneous_eigvals)
  ndarray vl;  ///< [..., N, N] when left
  ndarray vr;  ///< [..., N, N] when right
};

/// Eigenvalues and eigenvectors of a general square matrix (or a batch).
///
/// @param a [..., N, N], any dtype and layout.
/// @return w complex64 / complex128 (complex for real input too, as SciPy); vr, vl unit-norm columns,
///         the largest component real (LAPACK's normalization). dtype of vr / vl exactly as SciPy's: for
///         complex input complex; for real input the real dtype when every eigenvalue of the whole batch
///         has zero imaginary part, else complex.
///
/// Algorithm: cuSOLVER `cusolverDnXgeev` (right vectors), one call per matrix; real input uses the real
/// algorithm with complex eigenvalues, and its packed conjugate-pair vectors are unpacked by a kernel as
/// SciPy's `_make_complex_eigvecs`. Left vectors: rows of vr^-1 (cusci's batched LU inverse),
/// conjugated and normalized; valid for diagonalizable matrices.
///
/// Stream: enqueued on the current stream; **synchronizes** once (failure flags, real-eigenvalue test).
///
/// @throws cusci::value_error: a not square or ndim < 2, inf/NaN with check_finite.
/// @throws cusci::linalg::lin_alg_error: the QR algorithm did not converge ("Internal geev return info
///         = [k] for slices [s]."); left vectors of a defective matrix (singular vr).
///
/// SciPy: `scipy.linalg.eig` (1.18). Deviations: overwrite_* ignored; batches loop over matrices on
/// the host (one cuSOLVER call each); left vectors from vr^-1 (not ?geev's own), which are inaccurate
/// for nearly defective matrices.
eig_result eig(const ndarray& a, const eig_options& opts = {});

/// Generalized problem a v = w b v, computed as the standard problem of b^-1 a (cusci's batched LU
/// solve, then `cusolverDnXgeev`); batch dimensions of a and b broadcast; dtype: the LAPACK type of both.
/// With homogeneous_eigvals beta is 1 (alpha = w).
///
/// Left vectors (u^H a = w u^H b): the columns of (b X)^-H, X the right vectors, normalized as above.
///
/// @throws as `eig`; cusci::linalg::lin_alg_error for a singular b (SciPy returns infinite
///         eigenvalues instead: deviation).
///
/// SciPy: `scipy.linalg.eig(a, b)` (1.18, which calls LAPACK ?ggev, the QZ algorithm). Deviation: the
/// reduction to b^-1 a needs a nonsingular, reasonably conditioned b; the vectors are normalized to
/// unit norm, as SciPy's.
eig_result eig(const ndarray& a, const ndarray& b, const eig_options& opts = {});

/// Keyword arguments of `eigvals` (SciPy's names, order and defaults).
struct eigvals_options {
  bool overwrite_a = false;  ///< ignored
  bool check_finite = true;
  bool homogeneous_eigvals = false;
};

/// Eigenvalues of a general matrix: `eig(a, {.right = false, ...}).w`. SciPy: `scipy.linalg.eigvals`.
ndarray eigvals(const ndarray& a, const eigvals_options& opts = {});
/// Generalized form, as `eig(a, b, ...)`.
ndarray eigvals(const ndarray& a, const ndarray& b, const eigvals_options& opts = {});

// --- banded and tridiagonal --------------------------------------------------------------------------

/// SciPy's `select` strings: "a" (all), "v" (values in (lo, hi]), "i" (indices lo..hi, 0-based).
enum class eig_select { a, v, i };

/// Parses "a"/"all", "v"/"value", "i"/"index" (any case) as SciPy's _check_select.
/// @throws cusci::value_error "invalid argument for select".
eig_select parse_eig_select(std::string_view s);

/// Keyword arguments of `eig_banded` (SciPy's names, order and defaults).
struct eig_banded_options {
  /// a_band holds the lower form (a_band[i - j, j] = a[i, j], i >= j); else the upper form
  /// (a_band[u + i - j, j] = a[i, j], i <= j, u = rows - 1).
  bool lower = false;
  bool eigvals_only = false;
  bool overwrite_a_band = false;  ///< ignored
  eig_select select = eig_select::a;
  /// [lo, hi]: values (select v) or 0-based indices (select i, which must then be integers).
  std::optional<std::array<double, 2>> select_range = std::nullopt;
  /// Accepted for SciPy compatibility; cusci returns every selected eigenpair (no truncation).
  std::int64_t max_ev = 0;
  bool check_finite = true;
};

/// Eigenvalues / eigenvectors of a Hermitian band matrix in LAPACK band storage.
///
/// @param a_band [..., u + 1, N], any dtype and layout (u: the number of off-diagonals).
/// @return as `eigh` (w [..., M], v [..., N, M]).
///
/// Algorithm: the band is expanded into a dense Hermitian matrix on the GPU, then the `eigh` path
/// (SciPy: LAPACK ?sbevd / ?hbevd, or ?sbevx / ?hbevx with a selection).
///
/// Stream: **synchronizes** once. @throws cusci::value_error: a_band not 2-d (+ batch), select_range
/// invalid ("select_range must be a 2-element array-like in nondecreasing order", "select_range out of
/// bounds", non-integer indices), inf/NaN with check_finite, a zero-size batch; lin_alg_error as eigh.
///
/// SciPy: `scipy.linalg.eig_banded` (1.18). Deviations: max_ev is ignored; dense O(N^3) work instead of
/// the band reduction (fine for the sizes where a GPU pays; wasteful for very narrow bands of large N).
eigh_result eig_banded(const ndarray& a_band, const eig_banded_options& opts = {});

/// Keyword arguments of `eigvals_banded`.
struct eigvals_banded_options {
  bool lower = false;
  bool overwrite_a_band = false;  ///< ignored
  eig_select select = eig_select::a;
  std::optional<std::array<double, 2>> select_range = std::nullopt;
  bool check_finite = true;
};

/// Eigenvalues of a Hermitian band matrix: `eig_banded(..., eigvals_only)`. SciPy: `eigvals_banded`.
ndarray eigvals_banded(const ndarray& a_band, const eigvals_banded_options& opts = {});

/// SciPy's `lapack_driver` strings of eigh_tridiagonal: "auto", "stemr", "sterf", "stebz", "stev", "stevd".
/// cusci validates them as SciPy (which combinations are allowed) and computes with the dense
/// symmetric path in every case.
struct eigh_tridiagonal_options {
  bool eigvals_only = false;
  eig_select select = eig_select::a;
  std::optional<std::array<double, 2>> select_range = std::nullopt;
  bool check_finite = true;
  /// stebz's absolute tolerance; accepted and unused (the eigenvalues are computed to full accuracy).
  double tol = 0.0;
  std::string lapack_driver = "auto";
};

/// Eigenvalues / eigenvectors of a real symmetric tridiagonal matrix.
///
/// @param d [..., N] diagonal, e [..., N - 1] off-diagonal; real dtypes (integers promoted as SciPy);
///          batch dimensions broadcast.
/// @return as `eigh`: w [..., M], v [..., N, M]. The dtype is the LAPACK type of d and e together.
///
/// Stream: **synchronizes** once. @throws cusci::type_error for complex d or e ("Only real arrays
/// currently supported"); cusci::value_error: d.size != e.size + 1 ("d (n) must have one more element
/// than e (m)"), bad select_range, an unknown lapack_driver or one that does not allow the selection /
/// vectors (SciPy's messages), inf/NaN with check_finite, zero-size batches.
///
/// SciPy: `scipy.linalg.eigh_tridiagonal` (1.18). Deviations: tol and the driver choice do not change the
/// algorithm (dense symmetric eigensolver on the GPU); the 1 x 1 shortcut matches SciPy's (including
/// its float64 empty w for an empty value selection).
eigh_result eigh_tridiagonal(const ndarray& d, const ndarray& e, const eigh_tridiagonal_options& opts = {});

/// Keyword arguments of `eigvalsh_tridiagonal`.
struct eigvalsh_tridiagonal_options {
  eig_select select = eig_select::a;
  std::optional<std::array<double, 2>> select_range = std::nullopt;
  bool check_finite = true;
  double tol = 0.0;
  std::string lapack_driver = "auto";
};

/// Eigenvalues of a real symmetric tridiagonal matrix. SciPy: `scipy.linalg.eigvalsh_tridiagonal`.
ndarray eigvalsh_tridiagonal(const ndarray& d, const ndarray& e, const eigvalsh_tridiagonal_options& opts = {});

// --- pinvh -------------------------------------------------------------------------------------------

/// Keyword arguments of `pinvh` (SciPy's names, order and defaults).
struct pinvh_options {
  /// Absolute threshold (default 0).
  std::optional<double> atol = std::nullopt;
  /// Relative threshold (default N * eps of the computation dtype).
  std::optional<double> rtol = std::nullopt;
  bool lower = true;
  /// Also return the effective rank (`pinvh_result::rank`).
  bool return_rank = false;
  bool check_finite = true;
};

/// What `pinvh` returns.
struct pinvh_result {
  ndarray b;     ///< [..., N, N] the pseudo-inverse, dtype of the computation.
  ndarray rank;  ///< [...] int64 (0-d for one matrix) when return_rank, else default-constructed ndarray.
};

/// Moore-Penrose pseudo-inverse of a Hermitian matrix from its eigendecomposition:
/// b = U diag(1 / w_k for |w_k| > atol + rtol * max|w|, else 0) U^H.
///
/// @param a [..., N, N], any dtype and layout; the triangle `lower` is read.
///
/// Algorithm: `eigh` (cuSOLVER), a kernel scaling the eigenvectors by the cut-off reciprocals (and
/// counting the rank), one cuBLAS `gemmStridedBatched`.
///
/// Stream: **synchronizes** once (eigensolver failure flags).
///
/// @throws cusci::value_error: atol or rtol negative ("atol and rtol values must be positive."), a not
///         square, inf/NaN with check_finite, zero-size batches; lin_alg_error if eigh fails.
///
/// SciPy: `scipy.linalg.pinvh` (1.18).
pinvh_result pinvh(const ndarray& a, const pinvh_options& opts = {});

}  // namespace cusci::linalg
