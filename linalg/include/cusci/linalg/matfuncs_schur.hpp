#pragma once
/// @file matfuncs_schur.hpp
/// The Schur-based matrix functions of `scipy.linalg` 1.18: `sqrtm`, `logm`, `funm`, `signm`,
/// `fractional_matrix_power`, batched over leading dimensions as SciPy 1.18 batches them (results are
/// new C-contiguous arrays; for a batch whose slices come out real and complex, the whole result is
/// complex, as NumPy's stacking of the slices).
///
/// Where the work runs: the complex Schur form through `linalg::schur` (output "complex") or, for real
/// input, `linalg::schur` (output "real") followed by `linalg::rsf2csf` as SciPy does; the triangular
/// work (the square-root recurrence, the inverse scaling and squaring of logm and of the fractional
/// power, the Schur-Parlett recurrence of funm) is sequential and runs on the host in complex double
/// precision, one matrix after the other; the back-transformation Z U Z^H runs on the GPU (core's
/// batched matmul), as do signm's Newton iteration (linalg::inv) and the integer matrix powers.
/// Every function **synchronizes** (the Schur factors are copied to the host and back).

#include <complex>
#include <functional>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// The principal square root of a square matrix (`scipy.linalg.sqrtm`, 1.18: no `disp`/`blocksize`).
///
/// @param A [..., N, N], any layout. A size-1 array of ndim < 2 gives SciPy 1.18.1's
///          `np.array([[np.exp(a.item())]])` (float64, complex128 for complex input: SciPy's own
///          behaviour, kept). A [..., 1, 1] array gives `np.emath.sqrt(A)` (complex for a negative real).
/// @return [..., N, N]: real (float32 for float16/float32, float64 for float64/integers/bool) when A is
///         real and no eigenvalue is a negative real number (the principal root is then real), else
///         complex64/complex128. Empty A: an empty array of the dtype of `sqrtm(eye(2, dtype))`.
/// Algorithm: complex Schur form T = Z^H A Z (skipped for an upper triangular slice, as SciPy: T = A,
/// and the result is R itself); R upper triangular with R^2 = T by SciPy 1.18.1's recursion (Deadman,
/// Higham and Ralha): halves of the matrix, the off-diagonal block from R11 X + X R22 = T12 through the
/// host LAPACK's ?trsyl (host, double precision), SciPy's special cases of singular 2 x 2 and 3 x 3
/// blocks included (so a singular input gives SciPy's inf/NaN entries, e.g. sqrtm(zeros((3, 3))) has
/// inf at (0, 1) and (0, 2)); Z R Z^H on the GPU.
/// @throws cusci::linalg::lin_alg_error "The input array must be at least two-dimensional" /
///         "Last 2 dimensions of the array must be square"; cusci::value_error for inf/NaN
///         ("array must not contain infs or NaNs", from schur).
/// SciPy: `scipy.linalg.sqrtm(A)`. Deviations: the LinAlgWarning for a singular or ill-conditioned
///         matrix is not issued; single precision is computed in double precision and rounded.
ndarray sqrtm(const ndarray& A);

/// The principal matrix logarithm (`scipy.linalg.logm`, 1.18: no `disp`).
///
/// @param A [..., N, N] (ndim >= 2, square).
/// @return [..., N, N] float64 when A is real and the imaginary part of the result is within
///         1e6 eps of zero (SciPy's _maybe_real), else complex128 (for every input precision, as SciPy).
/// Algorithm: SciPy's _logm: complex Schur form (real input: real Schur + rsf2csf), exactly zero
/// diagonal entries replaced by 1e-20, then the inverse scaling and squaring algorithm of Al-Mohy and
/// Higham (2012) on the triangular factor (SciPy's theta table, Pade degree m by Gauss-Legendre
/// quadrature, the diagonal and superdiagonal recomputed exactly) on the host; Z U Z^H on the GPU.
/// @throws cusci::value_error "expected a square matrix"; inf/NaN ("array must not contain infs or
///         NaNs"); a zero-size batch.
/// SciPy: `scipy.linalg.logm(A)`. Deviations: no RuntimeWarning/LogmExactlySingularWarning; the 1-norm
///         estimates that choose the scaling (SciPy: randomized onenormest) are exact 1-norms.
ndarray logm(const ndarray& A);

/// funm's function: applied to each eigenvalue (the diagonal of the complex Schur form).
using funm_function = std::function<std::complex<double>(std::complex<double>)>;

/// Result of `funm`: the matrix function and SciPy's error estimate (disp=False's second output).
struct funm_result {
  ndarray F;       ///< [..., N, N]
  ndarray errest;  ///< float64 of the batch shape (0-d for one matrix)
};

/// A matrix function through the Schur-Parlett recurrence (`scipy.linalg.funm`).
///
/// @param A [..., N, N] (ndim >= 2, square).
/// @param func applied to each diagonal entry of the complex Schur form (SciPy calls it once on the
///        diagonal vector; an elementwise function gives the same values).
/// @param disp SciPy's `disp`: when true and the estimate exceeds 1000 tol, prints SciPy's message
///        "funm result may be inaccurate, approximate err = <err>" on stdout; both outputs are always
///        returned (SciPy returns only F when disp is true).
/// @return F [..., N, N]: real (float32/float64) when A is real and imag(F) is within SciPy's _maybe_real
///         tolerance (1e3 eps of float32 / 1e6 eps of float64), else complex64/complex128 (the Schur
///         form's precision: single for float16/float32/complex64 input); errest float64.
/// Algorithm: T = Z^H A Z (schur real + rsf2csf, GPU/host per the schur family), F_ii = func(T_ii),
/// F_ij = (T_ij (F_jj - F_ii) + sum_k T_ik F_kj - F_ik T_kj) / (T_jj - T_ii) (not divided when the
/// denominator is 0) on the host, Z F Z^H on the GPU; err = min(1, max(tol, tol / min|T_jj - T_ii| *
/// ||triu(T, 1)||_1)), inf when every entry of F is non-finite.
/// @throws cusci::value_error "expected square array_like input", inf/NaN, a zero-size batch.
/// SciPy: `scipy.linalg.funm(A, func, disp=True)`.
funm_result funm(const ndarray& A, const funm_function& func, bool disp = true);

/// The matrix sign function (`scipy.linalg.signm`, 1.18: no `disp`).
///
/// @param A [..., N, N]. @return [..., N, N], dtype as `funm` (the Newton fallback: A's dtype promoted
///          with float64 as SciPy's `A + c * identity(dtype=A.dtype)`).
/// Algorithm (SciPy's): funm with the rounded sign of the real part of each eigenvalue; when its error
/// estimate is not below 1e3 eps, the Newton iteration S <- (S + S^-1)/2 from A + I/(2 sigma_max) (at
/// most 100 steps; linalg::inv and matmul on the GPU, the stopping test read back each step).
/// @throws cusci::value_error "expected square array_like input", inf/NaN, a zero-size batch.
/// SciPy: `scipy.linalg.signm(A)`. Deviation: SciPy prints "signm result may be inaccurate" when the
///         iteration does not converge; cusci prints the same on stdout.
ndarray signm(const ndarray& A);

/// The fractional power A^t (`scipy.linalg.fractional_matrix_power`).
///
/// @param A [..., N, N]. @param t the power.
/// @return integer t: A^t by repeated squaring (negative t: through linalg::inv), A's dtype (integers
///         kept, as NumPy's matrix_power); otherwise SciPy's Schur-Pade algorithm (Higham and Lin 2011):
///         float64 or complex128.
/// @throws cusci::value_error "expected a square matrix", a zero-size batch;
///         cusci::linalg::lin_alg_error for a singular matrix and integer t < 0.
/// SciPy: `scipy.linalg.fractional_matrix_power(A, t)`. Deviation: the condition number that picks
///         floor or ceil of t is from exact singular values (as SciPy's svdvals); 1-norm estimates exact.
ndarray fractional_matrix_power(const ndarray& A, double t);

}  // namespace cusci::linalg
