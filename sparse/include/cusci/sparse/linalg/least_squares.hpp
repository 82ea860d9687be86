#pragma once
/// @file linalg/least_squares.hpp
/// The least-squares solvers of `scipy.sparse.linalg`: `lsqr` and `lsmr`, for square or rectangular
/// A given by its products A v and A^H u (`linear_operator`: a csr_matrix converts implicitly).
///
/// Both solve min ||b - A x||^2 + damp^2 ||x||^2 by Golub-Kahan bidiagonalization, with SciPy 1.18's
/// stopping tests and `istop` codes. The scalar recurrences (plane rotations, norm and condition
/// estimates, the stopping tests) run on the host in float64; the vector work runs on the device, on
/// the current stream: for a csr_matrix A each product is one kernel fused with its vector update and
/// norm (A^H is formed once, as a CSR matrix, when the solver starts), and the x / w (h, hbar) updates
/// are one kernel. The host reads the few device scalars of an iteration once (see each function).
///
/// x is returned 1-D [n] for b [m] or [m, 1] (as SciPy), unlike the other iterative solvers of
/// krylov.hpp which keep b's [n, 1].
///
/// `istop` (both solvers, SciPy's codes):
///   0  x = 0 (or x0) is the exact solution (b == 0, or A^H b == 0); no iteration was done;
///   1  A x - b is small enough given atol, btol (a compatible system: x solves A x = b);
///   2  the least-squares solution is good enough given atol;
///   3  the estimate of cond(Abar) exceeded conlim;
///   4  A x - b is small enough for this machine (as 1 with atol = btol = eps);
///   5  the least-squares solution is good enough for this machine (as 2 with atol = eps);
///   6  cond(Abar) seems to be too large for this machine (as 3 with conlim = 1 / eps);
///   7  the iteration limit was reached.

#include <cstdint>
#include <optional>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/krylov.hpp"

namespace cusci::sparse::linalg {

/// Keyword arguments of `lsqr`, SciPy's names, order and defaults.
struct lsqr_options {
  /// Damping factor of the regularized problem min ||A x - b||^2 + damp^2 ||x||^2.
  double damp = 0.0;
  /// Stopping tolerances: istop 1 when ||r|| <= btol ||b|| + atol ||A|| ||x||, istop 2 when
  /// ||A^H r|| <= atol ||A|| ||r||. 0 is allowed (the machine tests 4 and 5 then decide).
  double atol = 1e-6;
  double btol = 1e-6;
  /// Stop (istop 3) when the estimate of cond(Abar) exceeds conlim; 0: no limit (1 / eps, istop 6).
  double conlim = 1e8;
  /// Maximum number of iterations; none: 2 * n. <= 0: no iteration (istop 0).
  std::optional<std::int64_t> iter_lim{};
  /// Ignored (SciPy prints the iteration log); kept for SciPy's signature.
  bool show = false;
  /// Whether to estimate diag((A^H A + damp^2 I)^-1) into lsqr_result::var.
  bool calc_var = false;
  /// [n] or [n, 1] starting guess (any numeric dtype); none: zeros. A complex x0 makes a real problem
  /// complex (as SciPy's b - A x0).
  std::optional<ndarray> x0{};
};

/// Result of `lsqr`: SciPy's tuple `(x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm,
/// var)` plus the convergence history.
struct lsqr_result {
  /// [n] solution. dtype: float64 for a real problem, complex128 for a complex one (SciPy's zeros(n)
  /// plus its updates); with x0: NumPy's promotion of x0's dtype and the problem's (A's and b's)
  /// dtype. When istop is 0 it is zeros(n) float64 (SciPy's), or x0 as given.
  ndarray x;
  /// Reason for stopping (see the file comment).
  std::int64_t istop = 0;
  /// Iterations done.
  std::int64_t itn = 0;
  /// Estimate of ||b - A x|| (negative when the damped estimate underflows: SciPy's sign rule).
  double r1norm = 0;
  /// Estimate of sqrt(||b - A x||^2 + damp^2 ||x - x0||^2) (the residual the tests use).
  double r2norm = 0;
  /// Estimate of the Frobenius norm of Abar = [A; damp I].
  double anorm = 0;
  /// Estimate of cond(Abar).
  double acond = 0;
  /// Estimate of ||A^H r - damp^2 x||.
  double arnorm = 0;
  /// ||x|| (estimate).
  double xnorm = 0;
  /// [n]: with calc_var, the sum over the iterations of d_k^2 (d_k = w_k / rho_k; for a complex problem
  /// the complex square, as SciPy), dtype as x without x0; else zeros(n) float64 (SciPy's).
  ndarray var;
  /// r2norm before the first iteration (||b - A x0||) and after each iteration, with wall seconds.
  convergence_history history;
};

/// Solves min ||b - A x||^2 + damp^2 ||x||^2 (A [m, n], any m, n) by LSQR, exactly as SciPy 1.18's
/// `lsqr`: the Golub-Kahan bidiagonalization beta u = b - A x0, alfa v = A^H u, then each iteration
/// u = A v - alfa u, beta = ||u||, v = A^H u / beta - beta v, alfa = ||v|| (skipped when beta == 0),
/// the rotations eliminating damp and beta, x += (phi / rho) w, w = v - (theta / rho) w, and SciPy's
/// stopping tests in SciPy's order (istop 7, 6, 5, 4 first, then 3, 2, 1, the last that holds wins).
/// Device work: two product kernels (each with its vector update and norm) and one update kernel an
/// iteration; the host reads beta, alfa and ||w||^2 once an iteration (the only wait), computes the
/// scalar recurrences and tests in float64, and enqueues the update (the tests need no vector norm,
/// so the next iteration's products are enqueued at once).
/// Synchronizes (once before the first iteration and once an iteration; the result is ready on return).
/// @param A [m, n] linear_operator (a csr_matrix converts): float32/float64/complex64/complex128; it
///        must have rmatvec (a csr_matrix has). A csr_matrix uses cusci's fused kernels (A^H is built
///        once, doubling the matrix memory); another operator calls matvec/rmatvec once an iteration
///        each, on the calling thread.
/// @param b [m] or [m, 1], any numeric dtype (bool/integers: float64). The vectors u, v, w are kept
///        in the promotion of A's, b's (and x0's) dtypes (as SciPy); x in float64 / complex128.
/// @returns lsqr_result (x [n]).
/// @throws cusci::value_error: b of another shape ("shapes of A (m, n) and b (k,) are incompatible"),
///         x0 of another shape; cusci::type_error: b or x0 of a non-numeric dtype;
///         cusci::not_implemented_error: A without rmatvec. All raised before any device work.
///         cusci::out_of_memory.
/// SciPy: `scipy.sparse.linalg.lsqr(A, b, damp=0.0, atol=1e-06, btol=1e-06, conlim=100000000.0,
/// iter_lim=None, show=False, calc_var=False, x0=None)`. Deviations: `show` is ignored; x0 [n, 1]
/// is taken as [n] (SciPy broadcasts it into a wrong [m, m] residual); the scalar recurrences run in
/// float64 for float32 problems (SciPy mixes float32 and float64 scalars there), and for x0 of a
/// lower precision x accumulates in float64 before the final cast, so the last digits, and rarely the
/// iteration count (by one or two), can differ from SciPy's for float32 problems; the history is added.
/// Reference: C. C. Paige and M. A. Saunders, "LSQR: An algorithm for sparse linear equations and
/// sparse least squares", ACM TOMS 8(1), 1982, 43-71; SciPy's lsqr.py.
lsqr_result lsqr(const linear_operator& A, const ndarray& b, const lsqr_options& options = {});

/// Keyword arguments of `lsmr`, SciPy's names, order and defaults.
struct lsmr_options {
  /// Damping factor of min ||A x - b||^2 + damp^2 ||x||^2.
  double damp = 0.0;
  /// Stopping tolerances, as lsqr's (istop 1: ||r|| <= btol ||b|| + atol ||A|| ||x||; istop 2:
  /// ||A^H r|| <= atol ||A|| ||r||).
  double atol = 1e-6;
  double btol = 1e-6;
  /// Stop (istop 3) when the estimate of cond(Abar) exceeds conlim; 0: no limit.
  double conlim = 1e8;
  /// Maximum number of iterations; none: min(m, n). <= 0: no iteration (istop 0).
  std::optional<std::int64_t> maxiter{};
  /// Ignored (SciPy prints the iteration log); kept for SciPy's signature.
  bool show = false;
  /// [n] or [n, 1] starting guess (a float or complex dtype; complex for a complex problem); none:
  /// zeros. A complex x0 makes a real problem complex (as SciPy's b - A x0).
  std::optional<ndarray> x0{};
};

/// Result of `lsmr`: SciPy's tuple `(x, istop, itn, normr, normar, normA, condA, normx)` plus the
/// convergence history.
struct lsmr_result {
  /// [n] solution. dtype: float64 / complex128 (SciPy's `result_type(A, b, float)`); with x0: x0's
  /// dtype (SciPy updates a copy of x0 in place).
  ndarray x;
  /// Reason for stopping (see the file comment).
  std::int64_t istop = 0;
  /// Iterations done.
  std::int64_t itn = 0;
  /// Estimate of sqrt(||b - A x||^2 + damp^2 ||x||^2).
  double normr = 0;
  /// Estimate of ||A^H (b - A x) - damp^2 x||.
  double normar = 0;
  /// Estimate of the Frobenius norm of Abar = [A; damp I].
  double norma = 0;
  /// Estimate of cond(Abar).
  double conda = 0;
  /// ||x|| (computed on the device each iteration).
  double normx = 0;
  /// normr before the first iteration (||b - A x0||) and after each iteration, with wall seconds.
  convergence_history history;
};

/// Solves min ||b - A x||^2 + damp^2 ||x||^2 (A [m, n], any m, n) by LSMR, exactly as SciPy 1.18's
/// `lsmr`: the Golub-Kahan bidiagonalization of lsqr, with the rotations of Fong and Saunders that
/// make ||A^H r|| decrease monotonically; h, hbar and x updated each iteration, ||x|| computed on
/// the device, SciPy's estimates of ||r||, ||A^H r||, ||A||, cond(A) and stopping tests.
/// Device work: two product kernels and one update kernel (with ||x||^2) an iteration. For a
/// csr_matrix A the host waits once an iteration: the next iteration's products (which change only
/// u and v) are enqueued before the host reads ||x|| and tests this one, so that when it stops one
/// pair of products has been done for nothing. For another operator (whose matvec may have effects
/// or synchronize) nothing is done ahead: the host waits twice an iteration (alpha, beta; then ||x||)
/// and calls matvec and rmatvec as often as SciPy (rmatvec also when beta == 0, where SciPy skips
/// it; its result is then unused).
/// Synchronizes (as above; the result is ready on return).
/// @param A [m, n] linear_operator (a csr_matrix converts): float32/float64/complex64/complex128, with
///        rmatvec. @param b [m] or [m, 1], any numeric dtype (bool/integers: float64).
/// @returns lsmr_result (x [n]).
/// @throws cusci::value_error: b or x0 of another shape; cusci::type_error: b or x0 of a non-numeric
///         dtype, a complex A with a real b and no x0, a real x0 for a complex problem, an integer or
///         bool x0 (SciPy raises UFuncTypeError, a TypeError, for each: its in-place updates cannot
///         cast);
///         cusci::not_implemented_error: A without rmatvec. All raised before any device work.
///         cusci::out_of_memory.
/// SciPy: `scipy.sparse.linalg.lsmr(A, b, damp=0.0, atol=1e-06, btol=1e-06, conlim=100000000.0,
/// maxiter=None, show=False, x0=None)`. Deviations: `show` is ignored; x0 [n, 1] is taken as [n];
/// u is kept in the promotion of A's and b's dtypes (SciPy keeps it in b's: float32 for a float32 b
/// with a float64 A); x and hbar accumulate in float64 / complex128 and x is cast to x0's dtype at
/// the end (SciPy updates a float32 x0 in float32); the history is added.
/// Reference: D. C.-L. Fong and M. A. Saunders, "LSMR: An iterative algorithm for sparse
/// least-squares problems", SIAM J. Sci. Comput. 33(5), 2011, 2950-2971; SciPy's lsmr.py.
lsmr_result lsmr(const linear_operator& A, const ndarray& b, const lsmr_options& options = {});

}  // namespace cusci::sparse::linalg
