#pragma once
/// @file linalg/eigen.hpp
/// Sparse symmetric / Hermitian eigensolvers of `scipy.sparse.linalg`: `eigsh` (k eigenpairs of a
/// real symmetric or complex Hermitian operator, standard or generalized, shift-invert, buckling and
/// Cayley modes) and `svds` (k singular triplets through the eigenproblem of A^H A or A A^H).
///
/// Both run a thick-restart Lanczos iteration (Wu & Simon, "Thick-restart Lanczos method for large
/// symmetric eigenvalue problems", SIAM J. Matrix Anal. Appl. 22 (2000)) on the device: the basis is
/// kept as [ncv + 1, n] rows, every new vector is orthogonalised against all of them twice (classical
/// Gram-Schmidt with one full reorthogonalisation pass, cuBLAS gemv), and at each restart the wanted
/// Ritz vectors are formed with one cuBLAS gemm. The small projected (arrowhead + tridiagonal)
/// eigenproblem is solved on the host in float64. Keeping the `nev` wanted Ritz vectors is the same
/// restart as ARPACK's implicit restart with exact shifts (Wu & Simon, Section 3; Sorensen 1992), and
/// the number kept, the convergence test (|beta_m s_mi| <= tol * max(eps^(2/3), |theta_i|)) and the
/// wanted sets for every `which` are ARPACK's dsaup2/dsconv/dsgets rules, so restart counts track
/// SciPy's.

#include <cstdint>
#include <optional>
#include <string>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/arpack_errors.hpp"

namespace cusci::sparse::linalg {

/// Keyword arguments of `eigsh`, SciPy's names, order and defaults.
struct eigsh_options {
  /// Number of eigenpairs wanted: 0 < k < n (complex A: k < n - 1, as SciPy's eigs).
  std::int64_t k = 6;
  /// [n, n] B of the generalized problem A x = w M x (real symmetric / Hermitian positive definite for
  /// mode "normal" without sigma; positive semi-definite with sigma). None: the standard problem.
  std::optional<linear_operator> M{};
  /// Shift: find eigenvalues near sigma with the shift-invert (mode "normal"), buckling or Cayley
  /// transformation. None: no transformation (modes 1 and 2).
  std::optional<double> sigma{};
  /// "LM" largest magnitude, "SM" smallest magnitude, "LA" largest algebraic, "SA" smallest algebraic,
  /// "BE" both ends (k/2 from the low end, the rest from the high end). With sigma they apply to the
  /// transformed eigenvalues nu (shift-invert: nu = 1 / (w - sigma), so "LM" is the w closest to sigma).
  std::string which = "LM";
  /// [n] starting vector (any float/complex dtype; converted). None: uniform in [-1, 1) from `rng`.
  std::optional<ndarray> v0{};
  /// Number of Lanczos vectors, k < ncv <= n. None: min(n, max(2k + 1, 20)).
  std::optional<std::int64_t> ncv{};
  /// Maximum number of restarts (ARPACK's Arnoldi update iterations), > 0. None: 10 n.
  std::optional<std::int64_t> maxiter{};
  /// Relative accuracy of the eigenvalues; 0 (or less): machine epsilon of A's precision.
  double tol = 0.0;
  /// Also return the eigenvectors.
  bool return_eigenvectors = true;
  /// inv(M) as an operator (mode 2 only). None with M given: M is factorized (see eigsh).
  std::optional<linear_operator> Minv{};
  /// inv(A - sigma M) as an operator (with sigma only). None with sigma given: factorized (see eigsh).
  std::optional<linear_operator> OPinv{};
  /// With sigma: "normal" (shift-invert), "buckling" or "cayley".
  std::string mode = "normal";
  /// Seed of the random starting vector (SciPy's `rng`). None: a fixed seed (0), so that runs repeat.
  std::optional<std::uint64_t> rng{};
};

/// Result of `eigsh`: SciPy's `(w, v)`, plus counts.
struct eigsh_result {
  /// [k] eigenvalues, the real dtype of A (float32 for float32/complex64 A, else float64). Order as
  /// SciPy's: ascending when eigenvectors are returned and with sigma; without eigenvectors and
  /// sigma, ARPACK's own order (ascending for "LM", "LA", "BE"; descending for "SM", "SA").
  ndarray w;
  /// [n, k] eigenvectors (columns), A's dtype, B-orthonormal (V^H B V = I); empty ([0]) when
  /// return_eigenvectors is false.
  ndarray v;
  /// Lanczos cycles run (ARPACK's iteration count, iparam[2]; maxiter + 1 when maxiter ends the run).
  /// Not in SciPy.
  std::int64_t iterations = 0;
  /// Products with OP (ARPACK's iparam[8]). Not in SciPy.
  std::int64_t op_products = 0;
};

/// k eigenvalues (and eigenvectors) of the real symmetric or complex Hermitian A, solving A x = w x,
/// or A x = w M x with M.
///
/// Modes (ARPACK's iparam[6], chosen as SciPy's eigsh does):
///   1: no M, no sigma: OP = A.
///   2: M, no sigma: OP = inv(M) A, B = M; inv(M) from `Minv`, else factorized.
///   3: sigma, mode "normal": OP = inv(A - sigma M) M (M = I without M), w = sigma + 1 / nu.
///   4: sigma, "buckling": OP = inv(A - sigma M) A, B = A (A positive definite), w = sigma nu / (nu - 1).
///   5: sigma, "cayley": OP = inv(A - sigma M) (A + sigma M), B = M, w = sigma (nu + 1) / (nu - 1).
/// inv(A - sigma M) comes from `OPinv`; without it A (and M) must be csr matrices and A - sigma M is
/// factorized once: with SuperLU's sparse LU (`splu`, direct.hpp) when cusci was built with SuperLU,
/// else, for n <= 4096, with a dense LU on the device (cuSOLVER getrf; each product a getrs); larger n
/// without SuperLU throws not_implemented_error (pass OPinv). The same holds for inv(M) in mode 2
/// without Minv. (SciPy factorizes sparse matrices with splu and solves operators iteratively.)
///
/// Shapes and dtypes: A [n, n] float32/float64/complex64/complex128 (a csr_matrix converts); M,
/// Minv, OPinv [n, n]. The basis and its updates are in A's precision (float32 A: single precision
/// projections, as ARPACK's ssaupd); norms accumulate in float64; the projected eigenproblem is
/// solved in float64.
/// Stream: every device operation runs on the current stream. Synchronizes: once for the starting
/// vector's norm, once a Lanczos step (to read the step's alpha and norms; twice when a third
/// orthogonalisation pass is needed), once for a factorization; the restarts do not.
/// @throws cusci::value_error (SciPy's ValueError texts): A not square ("expected square matrix
///         (shape=(3, 4))"), k <= 0 ("k must be greater than 0."), wrong M shape ("wrong M dimensions
///         ..."), ncv outside k < ncv <= n ("ncv must be k<ncv<=n, ncv=..."), maxiter <= 0, an
///         unknown `which` or `mode`, OPinv without sigma, Minv without M or with sigma, v0 of
///         another shape, complex A with mode other than "normal" or which "BE";
///         cusci::type_error for k >= n (k >= n - 1 for complex A), which SciPy sends to dense eigh
///         and refuses for sparse / LinearOperator A, for a non-float dtype of A;
///         cusci::not_implemented_error when a needed factorization is unavailable (see above);
///         cusci::runtime_error when A - sigma M (or M) is exactly singular (SciPy's splu: "Factor is
///         exactly singular"); arpack_error (-9: zero starting vector; -9999: the factorization could
///         not be built: a non-positive or non-finite B-norm); arpack_no_convergence after maxiter
///         restarts, carrying the converged pairs. All argument checks happen before any device work.
/// SciPy: `scipy.sparse.linalg.eigsh(A, k=6, M=None, sigma=None, which='LM', v0=None, ncv=None,
/// maxiter=None, tol=0, return_eigenvectors=True, Minv=None, OPinv=None, mode='normal', rng=None)`
/// (ARPACK dsaupd/dseupd). Deviations: complex Hermitian A runs the same Hermitian Lanczos (SciPy
/// calls eigs, ARPACK znaupd) and returns eigenvalues in ascending order (eigs' order is
/// unspecified); no Ritz vector purification in mode 3 (ARPACK's dseupd adds a multiple of the
/// residual); the random starting vector differs from NumPy's stream; M of a different precision
/// is converted to A's dtype (SciPy warns).
/// Reference: K. Wu, H. Simon, SIAM J. Matrix Anal. Appl. 22(2) (2000) 602-616; R. Lehoucq,
/// D. Sorensen, C. Yang, "ARPACK Users' Guide" (1998), Ch. 4 (modes) and 5 (dsaup2).
eigsh_result eigsh(const linear_operator& A, const eigsh_options& options = {});

/// Which singular vectors `svds` returns (SciPy's return_singular_vectors True / False / "u" / "vh").
enum class singular_vectors { both, none, u, vh };

/// Keyword arguments of `svds`, SciPy's names, order and defaults.
struct svds_options {
  /// Number of singular triplets, 0 < k < min(m, n).
  std::int64_t k = 6;
  /// Lanczos vectors, k < ncv < min(m, n). None: eigsh's default.
  std::optional<std::int64_t> ncv{};
  /// Tolerance of the singular values (eigsh runs with tol^2); 0: machine precision. Must be >= 0.
  double tol = 0.0;
  /// "LM" largest or "SM" smallest singular values.
  std::string which = "LM";
  /// [min(m, n)] starting vector. None: standard normal from `rng`.
  std::optional<ndarray> v0{};
  /// Maximum restarts (> 0). None: eigsh's default.
  std::optional<std::int64_t> maxiter{};
  /// Which singular vectors to compute.
  singular_vectors return_singular_vectors = singular_vectors::both;
  /// "arpack", "lobpcg" or "propack": accepted; all run the thick-restart Lanczos of eigsh.
  std::string solver = "arpack";
  /// Seed of the random starting vector (SciPy's rng / random_state). None: a fixed seed (0).
  std::optional<std::uint64_t> rng{};
};

/// Result of `svds`: SciPy's `(u, s, vh)`.
struct svds_result {
  /// [m, k] left singular vectors (A's dtype), when requested.
  std::optional<ndarray> u;
  /// [k] singular values, ascending (SciPy's order), the real dtype of A.
  ndarray s;
  /// [k, n] right singular vectors (rows), when requested.
  std::optional<ndarray> vh;
};

/// k largest ("LM") or smallest ("SM") singular values (and vectors) of A [m, n], as SciPy's svds
/// with solver "arpack": eigsh (this file's Lanczos, tol^2) of A^H A when m >= n, else of A A^H,
/// then the Rayleigh-Ritz step of SciPy: Av = A V (V the k Ritz vectors), the SVD of Av from the
/// eigendecomposition of the k x k Gram matrix Av^H Av (host, float64), u = Av W / s and
/// vh = (V W)^H (u and vh exchanged when m < n).
/// Stream: current stream; synchronizes as eigsh and once more for the Gram matrix.
/// @throws cusci::value_error (SciPy's texts): k outside 0 < k < min(m, n), ncv outside
///         k < ncv < min(m, n), tol < 0 or not finite, which not "LM"/"SM", v0 of another shape
///         ("`v0` must have shape (n,)."), maxiter <= 0, an unknown solver, an empty A;
///         cusci::not_implemented_error when A has no rmatvec; the exceptions of eigsh.
/// SciPy: `scipy.sparse.linalg.svds(A, k=6, ncv=None, tol=0, which='LM', v0=None, maxiter=None,
/// return_singular_vectors=True, solver='arpack', rng=None, options=None)`. Deviations: "lobpcg" and
/// "propack" run the same Lanczos (k < min(m, n) for all three); `options` is not taken; the SVD of
/// Av goes through its Gram matrix (the singular values are those of A^H A's Ritz values, of the
/// accuracy SciPy's method has anyway).
svds_result svds(const linear_operator& A, const svds_options& options = {});

}  // namespace cusci::sparse::linalg
