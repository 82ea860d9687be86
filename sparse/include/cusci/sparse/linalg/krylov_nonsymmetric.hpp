#pragma once
/// @file linalg/krylov_nonsymmetric.hpp
/// The short-recurrence Krylov solvers of `scipy.sparse.linalg` for general (nonsymmetric, complex)
/// square systems: `bicg`, `bicgstab`, `cgs`, `qmr` and `tfqmr`. Each follows SciPy 1.18.1's
/// iteration step by step (scipy/sparse/linalg/_isolve/iterative.py and tfqmr.py): the same
/// convergence test, breakdown tests and info codes, hence the same iteration counts up to rounding.
///
/// Common to all five:
///   - A: [n, n] `linear_operator` (a csr_matrix converts implicitly), float32, float64, complex64 or
///     complex128. b: [n] or [n, 1], any numeric dtype (non-floating converted to float64).
///   - The system's dtype is SciPy's `coerce(A.dtype, b.dtype)`: complex when either is complex,
///     64-bit when either is 64-bit (float32 only when both are float32 / complex64 only when both
///     are single precision).
///   - The result's x is 1-D [n] of that dtype, also for b [n, 1] (SciPy ravels b). b == 0 returns
///     x = 0 and info 0 without iterating.
///   - `iterations` counts SciPy's callback calls; `history.residual_norms[0]` is the starting
///     residual norm and entry i the quantity the convergence test of iteration i read (see each
///     function).
///   - Scalars (alpha, beta, omega, ...) stay on the device, computed by the kernels; dot products
///     and norms are accumulated in float64 (complex128 for complex systems) for every dtype. The
///     breakdown tests run on the device; the host waits once an iteration, reading the residual
///     norm and the breakdown status together from pinned memory. When A is a csr_matrix and the
///     preconditioner is none or `jacobi(...)`, the vector updates, the preconditioner and the dot
///     products are fused into a few kernels an iteration beside the SpMVs (CSR-stream kernel for
///     short rows).
///   - Synchronize once an iteration (and once at the start, to read norm(b)). Every kernel runs on
///     the current stream; user operators and the callback run on the calling thread between
///     iterations.
///   - Deviations from SciPy shared by all five: x0 = "Mb" (a string) is not supported (pass M b as
///     x0); atol NaN is rejected (SciPy accepts it and never converges); complex x0 with a real
///     system is a type_error (SciPy discards the imaginary part with a ComplexWarning); the x0
///     "any nonzero" test is not made (r0 = b - A x0 whenever x0 is given: the same r0).

#include <cstdint>
#include <functional>
#include <optional>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/krylov.hpp"

namespace cusci::sparse::linalg {

/// Keyword arguments of `bicg`, `bicgstab` and `cgs`: SciPy's names, order and defaults.
struct krylov_options {
  /// [n] or [n, 1] starting guess (any real dtype, complex for a complex system; converted to the
  /// system's dtype); none: zeros.
  std::optional<ndarray> x0{};
  /// Relative tolerance: converged when norm(r) < max(atol, rtol * norm(b)).
  double rtol = 1e-5;
  /// Absolute tolerance (>= 0).
  double atol = 0.0;
  /// Maximum number of iterations; none: 10 * n. SciPy returns info = maxiter when the loop ends,
  /// also for maxiter <= 0 (info 0 for maxiter 0, without iterating); cusci too.
  std::optional<std::int64_t> maxiter{};
  /// Preconditioner approximating inv(A): a csr_matrix, a linear_operator or `jacobi(A)`; none:
  /// the identity. `bicg` also needs M's rmatvec (as SciPy: M^H applied to the shadow residual).
  std::optional<linear_operator> M{};
  /// Called after each iteration with the current iterate x [n] (a live view: copy it to keep it).
  std::function<void(const ndarray&)> callback{};
};
using bicg_options = krylov_options;
using bicgstab_options = krylov_options;
using cgs_options = krylov_options;

/// Keyword arguments of `qmr`: SciPy's names, order and defaults.
struct qmr_options {
  /// As krylov_options::x0.
  std::optional<ndarray> x0{};
  /// Relative tolerance: converged when norm(r) < max(atol, rtol * norm(b)).
  double rtol = 1e-5;
  /// Absolute tolerance (>= 0).
  double atol = 0.0;
  /// Maximum number of iterations; none: 10 * n.
  std::optional<std::int64_t> maxiter{};
  /// Left preconditioner (matvec and rmatvec used); none: the identity.
  std::optional<linear_operator> M1{};
  /// Right preconditioner (matvec and rmatvec used); none: the identity.
  std::optional<linear_operator> M2{};
  /// Called after each iteration with the current iterate x [n] (a live view).
  std::function<void(const ndarray&)> callback{};
};

/// Keyword arguments of `tfqmr`: SciPy's names, order and defaults.
struct tfqmr_options {
  /// As krylov_options::x0.
  std::optional<ndarray> x0{};
  /// Relative tolerance: converged when tau * sqrt(k + 1) < max(atol, rtol * norm(r0)) (relative to
  /// the starting residual, not to b, as SciPy's tfqmr).
  double rtol = 1e-5;
  /// Absolute tolerance (>= 0).
  double atol = 0.0;
  /// Maximum number of iterations; none: min(10000, 10 * n).
  std::optional<std::int64_t> maxiter{};
  /// Preconditioner approximating inv(A) (matvec only); none: the identity.
  std::optional<linear_operator> M{};
  /// Called after each iteration (before its convergence test, as SciPy) with x [n] (a live view).
  std::function<void(const ndarray&)> callback{};
  /// Print SciPy's convergence message to stdout at the end.
  bool show = false;
};

/// Solves A x = b with the biconjugate gradient method, exactly SciPy 1.18.1's iteration: each
/// iteration tests norm(r) < atol' first (atol' = max(atol, rtol * norm(b))), then z = M r,
/// z~ = M^H r~, rho = vdot(r~, z), p = z + beta p, p~ = z~ + conj(beta) p~, q = A p, q~ = A^H p~,
/// alpha = rho / vdot(p~, q), x += alpha p, r -= alpha q, r~ -= conj(alpha) q~, callback(x).
/// Needs A's rmatvec (a csr_matrix has it: its conjugate transpose is formed once).
/// @param A [n, n] operator. @param b [n] or [n, 1]. @param options see krylov_options.
/// @returns x [n]; info 0 converged, maxiter when not converged, -10 when |rho| < eps^2 (eps of the
///          system's precision), -11 when vdot(p~, q) == 0 (SciPy's codes); history: norm(r) before
///          each iteration's test.
/// Synchronizes once an iteration.
/// @throws cusci::value_error: A not square ("expected square matrix, but got shape=..."), b or x0
///         of the wrong shape ("shapes of A (n, n) and b (m,) are incompatible"), M of another shape
///         ("matrix and preconditioner have different shapes"), atol < 0 or NaN;
///         cusci::type_error: a dtype other than those above (float16 b is converted to float64),
///         complex x0 for a real system; cusci::not_implemented_error when A or M has no rmatvec
///         (before any device work, as every check above).
/// SciPy: `scipy.sparse.linalg.bicg(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
/// callback=None)`; deviations: see the file comment. Reference: Fletcher (1976); Barrett et al.,
/// "Templates for the Solution of Linear Systems" (1994), Fig. 2.8.
krylov_result bicg(const linear_operator& A, const ndarray& b, const bicg_options& options = {});

/// Solves A x = b with BiCGSTAB, exactly SciPy 1.18.1's iteration (right preconditioning): rho =
/// vdot(r~, r) with r~ = r0; p = r + beta (p - omega v), beta = (rho / rho_prev)(alpha / omega);
/// p^ = M p, v = A p^, alpha = rho / vdot(r~, v), s = r - alpha v; when norm(s) < atol' the
/// iteration ends early with x += alpha p^ (converged, no callback); else s^ = M s, t = A s^,
/// omega = vdot(t, s) / vdot(t, t), x += alpha p^ + omega s^, r = s - omega t, callback(x).
/// @returns info 0 / maxiter / -10 (|rho| < eps^2) / -11 (|omega| < eps^2 at the start of an
///          iteration, or vdot(r~, v) == 0); history: norm(r) before each iteration's test (norm(s)
///          for an early end).
/// Synchronizes once an iteration. @throws as `bicg` (no rmatvec needed).
/// SciPy: `scipy.sparse.linalg.bicgstab(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None,
/// M=None, callback=None)`. Reference: van der Vorst, SIAM J. Sci. Stat. Comput. 13 (1992);
/// Templates (1994), Fig. 2.10.
krylov_result bicgstab(const linear_operator& A, const ndarray& b, const bicgstab_options& options = {});

/// Solves A x = b with the conjugate gradient squared method, exactly SciPy 1.18.1's iteration:
/// rho = vdot(r~, r); u = r + beta q, p = u + beta (q + beta p); p^ = M p, v^ = A p^,
/// alpha = rho / vdot(r~, v^), q = u - alpha v^, u^ = M (u + q), x += alpha u^ and the residual
/// recomputed as r = b - A x (SciPy's choice: two products with A an iteration), callback(x).
/// @returns info 0 / maxiter / -10 (|rho| < eps^2) / -11 (vdot(r~, v^) == 0); history: norm(r).
/// Synchronizes once an iteration. @throws as `bicgstab`.
/// SciPy: `scipy.sparse.linalg.cgs(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
/// callback=None)`. Reference: Sonneveld, SIAM J. Sci. Stat. Comput. 10 (1989); Templates (1994),
/// Fig. 2.9.
krylov_result cgs(const linear_operator& A, const ndarray& b, const cgs_options& options = {});

/// Solves A x = b with the quasi-minimal residual method (look-ahead free, two-sided
/// preconditioning M1, M2), exactly SciPy 1.18.1's iteration (Templates (1994), Fig. 2.11). Needs
/// A's rmatvec and the rmatvec of M1 and M2 when given.
/// @returns info 0 / maxiter / -10 (|rho| < eps) / -15 (|xi| < eps) / -13 (|delta| < eps) /
///          -14 (|epsilon| < eps) / -11 (|beta| < eps) / -12 (gamma < eps), eps of the system's
///          precision (SciPy's codes and order); history: norm(r).
/// Synchronizes once an iteration. @throws as `bicg`; "matrix and preconditioner have different
///         shapes" for M1 or M2.
/// SciPy: `scipy.sparse.linalg.qmr(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M1=None,
/// M2=None, callback=None)`. Deviation: an operator's `psolve` attribute (SciPy's legacy split
/// preconditioner) does not exist in C++: pass M1 and M2. Reference: Freund & Nachtigal, Numer.
/// Math. 60 (1991).
krylov_result qmr(const linear_operator& A, const ndarray& b, const qmr_options& options = {});

/// Solves A x = b with the transpose-free QMR method, exactly SciPy 1.18.1's iteration (Freund,
/// SIAM J. Sci. Comput. 14 (1993), Algorithm 5.1, left preconditioned: M A is the iterated
/// operator). The convergence test is the upper bound tau * sqrt(k + 1) < max(atol, rtol *
/// norm(r0)), made after the callback of iteration k (0-based) as SciPy's.
/// @returns info 0 / maxiter / -1 (vdot(r*, v) == 0); maxiter default min(10000, 10 n); history:
///          norm(r0), then tau * sqrt(k + 1) of each iteration.
/// Synchronizes once an iteration. @throws as `bicgstab`. Deviation: SciPy checks atol only when
/// r0 != 0 (b == 0 or r0 == 0 return first); cusci checks it up front.
/// SciPy: `scipy.sparse.linalg.tfqmr(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
/// callback=None, show=False)`.
krylov_result tfqmr(const linear_operator& A, const ndarray& b, const tfqmr_options& options = {});

}  // namespace cusci::sparse::linalg
