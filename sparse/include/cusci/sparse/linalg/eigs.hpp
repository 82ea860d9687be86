#pragma once
/// @file linalg/eigs.hpp
/// `eigs`: k eigenvalues (and eigenvectors) of a general square operator, real or complex, standard
/// or generalized, with shift-invert, by the implicitly restarted Arnoldi method of ARPACK's
/// dnaupd/znaupd (Lehoucq & Sorensen 1996) as SciPy drives it.
///
/// How: the Arnoldi basis V [ncv, n] (one row a vector) and the residual live on the device; every new
/// vector is orthogonalised against the basis by classical Gram-Schmidt with a reorthogonalisation
/// pass (cuBLAS gemv as gemm with one column), ARPACK's 0.717 test deciding whether the residual
/// numerically lies in the span of the basis. The small upper Hessenberg matrix H [ncv, ncv] is kept
/// on the host in float64 (complex128 for complex A): its eigenpairs (LAPACK's dgeev/zgeev algorithm,
/// the Schur order of dlahqr) give the Ritz values and estimates; the exact shifts (the unwanted Ritz
/// values) are applied to H by single-shift (real or complex Givens) and Francis double-shift
/// (Householder) bulge chases with deflation checks, as ARPACK's dnapps/znapps, and the basis is
/// updated with one cuBLAS gemm a restart. The selection of wanted values (dngets/zngets with
/// ARPACK's shell sort dsortc/zsortc, conjugate pairs kept together), the convergence test
/// (estimate <= tol * max(eps^(2/3), |theta|), dnconv), the adjustment of the number kept
/// (nev + min(nconv, np / 2)) and the final selection and order (dnaup2's exit sort, dneupd's
/// reordered Schur form, SciPy's handling of the k + 1-st value) are ARPACK's and SciPy's.

#include <complex>
#include <cstdint>
#include <optional>
#include <string>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/arpack_errors.hpp"

namespace cusci::sparse::linalg {

/// Keyword arguments of `eigs`, SciPy's names, order and defaults.
struct eigs_options {
  /// Number of eigenvalues wanted: 0 < k < n - 1.
  std::int64_t k = 6;
  /// [n, n] M of the generalized problem A x = w M x. None: the standard problem.
  std::optional<linear_operator> M{};
  /// Shift: find eigenvalues near sigma (shift-invert, OP = inv(A - sigma M) M). A complex sigma with
  /// a real A uses the real (OPpart "r") or imaginary ("i") part of that operator, as ARPACK's modes
  /// 3 and 4. None: no transformation.
  std::optional<std::complex<double>> sigma{};
  /// "LM" largest magnitude, "SM" smallest magnitude, "LR" / "SR" largest / smallest real part, "LI"
  /// / "SI" largest / smallest imaginary part (real A: absolute imaginary part, conjugate pairs
  /// together). With sigma: of the transformed eigenvalues nu = 1 / (w - sigma).
  std::string which = "LM";
  /// [n] starting vector (any float/complex dtype; converted to A's). None: uniform in [-1, 1) from
  /// `rng`.
  std::optional<ndarray> v0{};
  /// Number of Arnoldi vectors: k + 1 < ncv <= n (complex A: k < ncv <= n); larger values are
  /// reduced to n. None: min(n, max(2k + 1, 20)).
  std::optional<std::int64_t> ncv{};
  /// Maximum number of Arnoldi update iterations (restarts), > 0. None: 10 n.
  std::optional<std::int64_t> maxiter{};
  /// Relative accuracy of the Ritz values; 0 (or less): machine epsilon of A's precision.
  double tol = 0.0;
  /// Also compute the eigenvectors.
  bool return_eigenvectors = true;
  /// inv(M) as an operator (M given, sigma none). None: M is factorized (see eigs).
  std::optional<linear_operator> Minv{};
  /// inv(A - sigma M) as an operator (sigma given). None: A - sigma M is factorized (see eigs).
  std::optional<linear_operator> OPinv{};
  /// "r" or "i" (real A with sigma only; "i" needs a complex sigma). None: "r".
  std::optional<std::string> OPpart{};
  /// Seed of the random starting vector (SciPy's `rng`). None: a fixed seed (0), so that runs repeat.
  std::optional<std::uint64_t> rng{};
};

/// Result of `eigs`: SciPy's `(w, v)`, plus counts.
struct eigs_result {
  /// [k] eigenvalues, complex64 for float32/complex64 A, else complex128 (fewer than k when ARPACK
  /// converged to fewer, as SciPy). Order as SciPy's: when more than k values converged (a complex
  /// pair across the boundary), the k most wanted first; otherwise with eigenvectors the order of
  /// the reordered Schur form (dneupd), without them the increasing order of `which` (ARPACK's exit
  /// sort; "LM": ascending magnitude).
  ndarray w;
  /// [n, k] eigenvectors (columns), complex (dtype of w), unit 2-norm; empty ([0]) when
  /// return_eigenvectors is false.
  ndarray v;
  /// Arnoldi update iterations done (ARPACK's iparam[2]). Not in SciPy.
  std::int64_t iterations = 0;
  /// Products with OP (ARPACK's iparam[8]). Not in SciPy.
  std::int64_t op_products = 0;
};

/// k eigenvalues (and eigenvectors) of the square operator A: A x = w x, or A x = w M x with M.
///
/// Modes (ARPACK's, chosen as SciPy's eigs does):
///   1: no M, no sigma: OP = A.
///   2: M, no sigma: OP = inv(M) A; inv(M) from `Minv`, else factorized.
///   3: sigma (complex A, or real A with a real sigma or OPpart "r"): OP = inv(A - sigma M) M (real
///      A: its real part); w = sigma + 1 / nu (real A with complex sigma: Rayleigh quotients
///      z^H A z of the unit eigenvectors, as SciPy).
///   4: real A, complex sigma, OPpart "i": OP = imag(inv(A - sigma M) M); w from Rayleigh quotients.
/// inv(A - sigma M) (inv(A) for sigma = 0, as SciPy) comes from `OPinv`; without it A (and M) must
/// wrap csr matrices: the sparse A - sigma M is factorized with `splu` when cusci has SuperLU
/// (has_superlu()), else, for n <= 4096, as a dense matrix on the device (cuSOLVER getrf once, getrs
/// a product); otherwise cusci::not_implemented_error (pass OPinv). The same holds for inv(M).
///
/// Shapes and dtypes: A [n, n] float32/float64/complex64/complex128 (a csr_matrix converts); M, Minv,
/// OPinv [n, n]. The iteration runs in A's dtype (float32 dot products in float32, as ARPACK's
/// snaupd); H and its eigenproblem in float64 on the host.
/// Stream: all device work runs on the current stream; each Arnoldi step synchronizes once (to read
/// the new column of H), each restart once more (the new residual norm).
/// @throws cusci::value_error (SciPy's ValueError texts): A not square ("expected square matrix
///         (shape=(3, 4))"), k <= 0, wrong M shape ("wrong M dimensions (2, 2), should be (3, 3)"),
///         ncv outside its range ("ncv must be k+1<ncv<=n, ncv=5"; complex: "ncv must be
///         k<ncv<=n"), maxiter <= 0, an unknown `which`, OPinv or OPpart without sigma, Minv without
///         M or with sigma, OPpart with complex A, OPpart not "r"/"i", OPpart "i" with a real sigma,
///         v0 of another size; cusci::type_error for k >= n - 1 (SciPy sends it to dense eig and
///         refuses sparse / LinearOperator A) and for a non-inexact dtype;
///         cusci::not_implemented_error when a needed factorization is unavailable (see above);
///         cusci::runtime_error "Factor is exactly singular" for a singular A - sigma M (or M);
///         arpack_error(-9) for a zero starting vector; arpack_no_convergence after maxiter
///         iterations, carrying the converged eigenvalues and eigenvectors. Argument checks come
///         before any device work.
/// SciPy: `scipy.sparse.linalg.eigs(A, k=6, M=None, sigma=None, which='LM', v0=None, ncv=None,
/// maxiter=None, tol=0, return_eigenvectors=True, Minv=None, OPinv=None, OPpart=None, rng=None)`
/// (ARPACK dnaupd/dneupd, znaupd/zneupd). Deviations: the Arnoldi vectors are orthonormal in the
/// Euclidean inner product also with M (ARPACK's are M-orthonormal: the converged eigenpairs are
/// the same, the eigenvectors are returned with unit 2-norm instead of unit M-norm, and iteration
/// counts may differ slightly); no Ritz vector purification in shift-invert mode; a real A with a
/// complex sigma gets its Rayleigh quotients also without eigenvectors (SciPy's are then computed
/// from zero vectors); the random starting vector differs from NumPy's stream; an operator A
/// without a csr matrix needs OPinv / Minv (SciPy falls back to gmres).
/// Reference: R. Lehoucq, D. Sorensen, C. Yang, "ARPACK Users' Guide" (SIAM 1998), Ch. 4-5;
/// R. Lehoucq, D. Sorensen, "Deflation techniques for an implicitly restarted Arnoldi iteration",
/// SIAM J. Matrix Anal. Appl. 17 (1996).
eigs_result eigs(const linear_operator& A, const eigs_options& options = {});

}  // namespace cusci::sparse::linalg
