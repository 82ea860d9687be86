#pragma once
/// @file linalg/lobpcg.hpp
/// `lobpcg`: a few extreme eigenpairs of a real symmetric or complex Hermitian (generalized)
/// eigenproblem A x = w B x by the Locally Optimal Block Preconditioned Conjugate Gradient method
/// (Knyazev 2001), step for step as SciPy 1.18's `_lobpcg.py`: the blocks X, R, P and their
/// products with A and B stay on the device (cuBLAS gemm for every block product and Gram matrix,
/// the Gram blocks of one Rayleigh-Ritz step computed together), the small Rayleigh-Ritz problem is
/// solved on the device by cuSOLVER sygvd / hegvd, and the small Cholesky factorizations of the
/// B-orthonormalization on the host in float64.

#include <cstdint>
#include <optional>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"

namespace cusci::sparse::linalg {

/// Keyword arguments of `lobpcg`, SciPy's names, order and defaults.
struct lobpcg_options {
  /// [n, n] B of the generalized problem (Hermitian positive definite). None: identity.
  std::optional<linear_operator> B{};
  /// [n, n] preconditioner approximating inv(A). None: none.
  std::optional<linear_operator> M{};
  /// [n, sizeY] constraints: the iterates are kept B-orthogonal to Y's columns. None: none.
  std::optional<ndarray> Y{};
  /// Residual tolerance; None (or <= 0): sqrt(eps) * n in X's precision.
  std::optional<double> tol{};
  /// Maximum number of iterations. None: 20.
  std::optional<std::int64_t> maxiter{};
  /// Largest (true) or smallest (false) eigenvalues.
  bool largest = true;
  /// Accepted and ignored (cusci prints nothing).
  int verbosityLevel = 0;
  /// Return the eigenvalue history.
  bool retLambdaHistory = false;
  /// Return the history of the residual norms.
  bool retResidualNormsHistory = false;
  /// Restart when the mean residual norm exceeds 2^restartControl times the smallest seen.
  int restartControl = 20;
};

/// Result of `lobpcg`: SciPy's `(lambda, X[, lambdaHistory][, residualNormsHistory])`.
struct lobpcg_result {
  /// [sizeX] eigenvalues, the real dtype of X (descending with largest, else ascending).
  ndarray w;
  /// [n, sizeX] eigenvectors (columns), X's dtype, B-orthonormal.
  ndarray v;
  /// With retLambdaHistory: one entry an iteration (SciPy's list; float64, on the host).
  std::vector<std::vector<double>> lambda_history;
  /// With retResidualNormsHistory: the residual norms of each iteration (host, float64).
  std::vector<std::vector<double>> residual_norms_history;
  /// Iterations done (SciPy: len(lambdaHistory) - 1 for the best iterate). Not in SciPy.
  std::int64_t iterations = 0;
};

/// sizeX extreme eigenpairs of A x = w B x from the initial block X.
///
/// Every step of SciPy 1.18's lobpcg: constraints Y applied to X and to each preconditioned
/// residual block, B-orthonormalization by Cholesky of the Gram matrix, the Rayleigh-Ritz step over
/// [X, R, P] (or [X, R] on a restart) with SciPy's implicit Gram blocks while the residuals exceed
/// sqrt(eps) (float32: always explicit), soft locking of converged columns (activeMask), restarts
/// when the residual grows 2^restartControl-fold, the best iterate kept and a final Rayleigh-Ritz
/// post-processing. When n - sizeY < 5 sizeX it solves the dense problem instead (as SciPy; A and B
/// are materialized with matmat on the identity, cuSOLVER sygvd).
///
/// @param A [n, n] Hermitian operator (a csr_matrix converts), float32/float64/complex64/complex128.
/// @param X [n, sizeX] initial block (a real non-float dtype is converted to float32, as SciPy).
/// Stream: current stream; each iteration synchronizes a few times (the residual norms, the two small
/// Cholesky factorizations and the Rayleigh-Ritz solution are read on the host).
/// @throws cusci::value_error X not 2-D or of another row count, B/M/Y of another shape,
///         "Linearly dependent constraints", "Linearly dependent initial approximations";
///         cusci::not_implemented_error for constraints with the dense fallback; whatever the
///         operators throw. Argument checks before any device work.
/// SciPy: `scipy.sparse.linalg.lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None,
/// largest=True, verbosityLevel=0, retLambdaHistory=False, retResidualNormsHistory=False,
/// restartControl=20)`. Deviations: no warnings are issued (SciPy warns when the tolerance is not
/// reached); the histories are host vectors of float64; verbosityLevel is ignored.
/// Reference: A. V. Knyazev, "Toward the optimal preconditioned eigensolver: Locally Optimal Block
/// Preconditioned Conjugate Gradient Method", SIAM J. Sci. Comput. 23(2) (2001) 517-541.
lobpcg_result lobpcg(const linear_operator& A, const ndarray& X, const lobpcg_options& options = {});

}  // namespace cusci::sparse::linalg
