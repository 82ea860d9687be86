#pragma once
/// @file linalg/krylov_gmres.hpp
/// The long-recurrence Krylov solvers of `scipy.sparse.linalg`: `gmres` (restarted GMRES), `lgmres`
/// (GMRES augmented with error approximations of earlier cycles), `gcrotmk` (GCROT(m, k), flexible,
/// with a recycled subspace) and `minres` (MINRES for symmetric / Hermitian, possibly indefinite,
/// systems). Included by krylov.hpp.
///
/// Common to the four:
///   - A: [n, n] `linear_operator` (a csr_matrix converts implicitly), float32, float64, complex64 or
///     complex128; b: [n] or [n, 1] on the device, any numeric dtype (integers become float64).
///   - The solution x is [n] (also for b [n, 1], as SciPy's), of dtype promote(A, b) (at least
///     float32; complex when either is complex).
///   - The Krylov basis of gmres / lgmres / gcrotmk is one [rows, n] device matrix; the
///     orthogonalisation is classical Gram-Schmidt with one cuBLAS gemv for h = V^H w and one for
///     w -= V h, repeated (DGKS) only when ||w|| dropped below 1/sqrt(2) of its value before (SciPy
///     uses modified Gram-Schmidt: equal in exact arithmetic, and at least as accurate with the
///     DGKS pass). The small Hessenberg problems are solved on the host in float64 / complex128
///     with Givens rotations, as SciPy.
///   - Stream behaviour: device work runs on the current stream; the solvers read their scalars
///     (coefficients and norms) with one host wait per (inner) iteration, plus one more in the rare
///     iterations that need the second Gram-Schmidt pass. The operator and preconditioner functions
///     are called on the calling thread.
///   - The result's `history` (krylov.hpp) and `iterations` are documented per solver.
///   - Bad input raises before any device work: cusci::value_error for a non-square A, b / x0 / M of
///     the wrong shape, atol < 0 or non-finite rtol / atol, and each solver's own parameters;
///     cusci::type_error for an unsupported dtype.

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/krylov.hpp"

namespace cusci::sparse::linalg {

/// What gmres passes to its callback (SciPy's `callback_type`).
enum class gmres_callback_type {
  /// SciPy's default ('legacy'): callback(presid / norm(b)) after each inner iteration, and the
  /// solve stops after `maxiter` inner iterations (maxiter counts inner iterations).
  legacy,
  /// callback(presid / norm(b)) after each inner iteration; maxiter counts restart cycles.
  pr_norm,
  /// callback(x) after each restart cycle; maxiter counts restart cycles.
  x,
};
/// Parses SciPy's strings "legacy", "pr_norm", "x". Host only.
/// @throws cusci::value_error "Unknown callback_type: 'y'" for another string.
gmres_callback_type gmres_callback_type_from_string(std::string_view s);

/// Keyword arguments of `gmres`, SciPy's names, order and defaults.
struct gmres_options {
  /// [n] or [n, 1] starting guess; none: zeros.
  std::optional<ndarray> x0{};
  /// Relative tolerance: converged when norm(b - A x) <= max(rtol * norm(b), atol).
  double rtol = 1e-5;
  /// Absolute tolerance (>= 0).
  double atol = 0.0;
  /// Krylov dimension between restarts; none: 20. Taken as min(restart, n); must be >= 1.
  std::optional<std::int64_t> restart{};
  /// Restart cycles (inner iterations for callback_type legacy with a callback); none: 10 * n.
  /// Must be >= 1.
  std::optional<std::int64_t> maxiter{};
  /// Left preconditioner approximating inv(A): a csr_matrix, a linear_operator or `jacobi(A)`.
  std::optional<linear_operator> M{};
  /// Called with a 0-d float64 array holding presid / norm(b) (callback_type legacy / pr_norm) or
  /// with the current iterate x [n] (callback_type x; a live view: copy it to keep it).
  std::function<void(const ndarray&)> callback{};
  /// What the callback receives; none: legacy (SciPy's default). A callback with no callback_type
  /// issues SciPy's DeprecationWarning (cusci/warnings.hpp) before the solve.
  std::optional<gmres_callback_type> callback_type{};
};

/// Solves A x = b with restarted GMRES, left preconditioned, exactly as SciPy 1.18's `gmres`:
/// r0 = b - A x0; each cycle builds the Arnoldi basis of M A from v0 = M r / ||M r|| for up to
/// `restart` inner iterations, updating the least-squares residual estimate presid (the
/// preconditioned residual norm) with Givens rotations, and stops the cycle when presid <= ptol
/// (SciPy's inner tolerance, adapted between cycles as in gh-8400) or at an exact breakdown
/// (h_{j+1,j} <= eps ||w||); then x += V y and the true residual norm(b - A x) is tested against
/// max(rtol * norm(b), atol). b == 0 returns x = 0 (info 0); a starting residual already below the
/// tolerance returns x0 (info 0, 0 iterations).
/// @param A [n, n] operator, float32/float64/complex64/complex128.
/// @param b [n] or [n, 1].
/// @returns x [n]; info 0 when converged, else `maxiter` (SciPy's codes); iterations: the inner
///          iterations (SciPy's callback count with callback_type 'pr_norm'); history: entry 0 is
///          norm(M r0) / norm(b), entry i presid / norm(b) after inner iteration i (SciPy's
///          'pr_norm' quantity).
/// Synchronizes (once per inner iteration, plus the rare second Gram-Schmidt pass, plus twice per
/// restart cycle: the true residual and the norm of the next starting vector).
/// @throws cusci::value_error: A not square ("expected square matrix, but got shape=..."), b / x0 of
///         the wrong shape, M of another shape, atol < 0, restart < 1, maxiter < 1;
///         cusci::type_error for a non-numeric dtype. Before any device work.
/// SciPy: `scipy.sparse.linalg.gmres(A, b, x0=None, *, rtol=1e-05, atol=0.0, restart=None,
/// maxiter=None, M=None, callback=None, callback_type=None)`. Deviations: classical Gram-Schmidt with
/// DGKS reorthogonalisation instead of modified Gram-Schmidt (iteration counts agree up to rounding);
/// the pr_norm value reaches the callback as a 0-d device array; maxiter 0 and restart 0 raise
/// value_error (SciPy fails with UnboundLocalError); `iterations` and `history` added.
/// Reference: Saad & Schultz, SIAM J. Sci. Stat. Comput. 7 (1986); Daniel, Gragg, Kaufman & Stewart,
/// Math. Comp. 30 (1976) (DGKS reorthogonalisation).
krylov_result gmres(const linear_operator& A, const ndarray& b, const gmres_options& options = {});

/// An augmentation vector of lgmres: z (an earlier error approximation, unit norm) and, when stored,
/// M A z. SciPy: an entry `(z, Az)` of `outer_v`.
struct lgmres_outer_vector {
  ndarray z;
  std::optional<ndarray> Az{};
};

/// Keyword arguments of `lgmres`, SciPy's names, order and defaults.
struct lgmres_options {
  std::optional<ndarray> x0{};
  double rtol = 1e-5;
  double atol = 0.0;
  /// Outer iterations (>= 0).
  std::int64_t maxiter = 1000;
  /// Left preconditioner.
  std::optional<linear_operator> M{};
  /// Called with the current iterate x [n] at the start of each outer iteration (a live view).
  std::function<void(const ndarray&)> callback{};
  /// Inner GMRES iterations per outer iteration (>= 1).
  std::int64_t inner_m = 30;
  /// Augmentation vectors kept between outer iterations (>= 0).
  std::int64_t outer_k = 3;
  /// In/out list of augmentation vectors (SciPy's `outer_v`): used and updated when given, so that
  /// a later solve can reuse it; none: a list local to the call.
  std::vector<lgmres_outer_vector>* outer_v = nullptr;
  /// Whether to keep M A z with each augmentation vector (saves one matvec each).
  bool store_outer_Av = true;
  /// Whether the augmentation vectors come before the Krylov vectors.
  bool prepend_outer_v = false;
};

/// Solves A x = b with LGMRES (Baker, Jessup & Manteuffel), as SciPy 1.18's `lgmres`: each outer
/// iteration tests norm(A x - b) <= max(atol, rtol * norm(b)), then runs inner_m steps of flexible
/// GMRES on M A from v0 = -M r / ||M r|| augmented with the stored error approximations, to the
/// inner tolerance SciPy adapts; x += dx and dx / ||dx|| joins the augmentation vectors.
/// @param A [n, n] operator, any float dtype. @param b [n] or [n, 1], finite.
/// @returns x [n]; info 0 converged, `maxiter` not converged, k + 1 when outer iteration k produced a
///          non-finite update (SciPy's LinAlgError exit); iterations: the outer iterations completed
///          (SciPy's callback count less one when converged; maxiter when not); history: norm(A x -
///          b) at each outer test (entry i after i outer iterations).
/// Synchronizes (once per inner iteration, twice per outer iteration, once for the finiteness of b).
/// @throws cusci::value_error as gmres, "RHS must contain only finite numbers", inner_m < 1,
///         outer_k < 0, maxiter < 0; cusci::runtime_error "Preconditioner returned a zero vector"
///         (SciPy's RuntimeError).
/// SciPy: `scipy.sparse.linalg.lgmres(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=1000, M=None,
/// callback=None, inner_m=30, outer_k=3, outer_v=None, store_outer_Av=True, prepend_outer_v=False)`.
/// Deviations: the Hessenberg least-squares problem is solved by Givens rotations rather than a QR
/// update and lstsq (the same for a nonsingular R); classical Gram-Schmidt + DGKS as gmres.
/// Reference: A. H. Baker, E. R. Jessup, T. Manteuffel, SIAM J. Matrix Anal. Appl. 26, 962 (2005).
krylov_result lgmres(const linear_operator& A, const ndarray& b, const lgmres_options& options = {});

/// How gcrotmk truncates its recycled subspace (SciPy's `truncate`).
enum class gcrotmk_truncate { oldest, smallest };
/// Parses "oldest" / "smallest". @throws cusci::value_error "Invalid value for 'truncate': 'x'".
gcrotmk_truncate gcrotmk_truncate_from_string(std::string_view s);

/// A recycled vector pair of gcrotmk: u and c = A u (c may be absent: it is then recomputed).
/// SciPy: an entry `(c, u)` of `CU`.
struct gcrotmk_cu {
  std::optional<ndarray> c{};
  ndarray u;
};

/// Keyword arguments of `gcrotmk`, SciPy's names, order and defaults.
struct gcrotmk_options {
  std::optional<ndarray> x0{};
  double rtol = 1e-5;
  double atol = 0.0;
  /// Outer iterations (>= 1).
  std::int64_t maxiter = 1000;
  /// Right preconditioner (SciPy: "preconditioner for A"; applied as A M in the inner GMRES).
  std::optional<linear_operator> M{};
  /// Called with the current iterate x [n] at the start of each outer iteration (a live view).
  std::function<void(const ndarray&)> callback{};
  /// Inner GMRES steps per outer iteration (>= 1).
  std::int64_t m = 20;
  /// Vectors kept in the recycled subspace; none: m (>= 1 when given).
  std::optional<std::int64_t> k{};
  /// In/out list of recycled (c, u) pairs (SciPy's `CU`): reused and updated when given; on return
  /// it also holds (none, x) as SciPy's.
  std::vector<gcrotmk_cu>* CU = nullptr;
  /// Keep only the u vectors in CU on return (c recomputed on reuse).
  bool discard_C = false;
  /// Which vectors to drop when the subspace is full.
  gcrotmk_truncate truncate = gcrotmk_truncate::oldest;
};

/// Solves A x = b with GCROT(m, k) (Hicken & Zingg's flexible variant), as SciPy 1.18's `gcrotmk`:
/// given recycled pairs (c, u) with c = A u, orthonormalised by a pivoted QR of C, x and r are first
/// projected; each outer iteration tests norm(r) <= max(atol, rtol * norm(b)) (recomputing r = b -
/// A x when it passes), runs m + max(k - len(CU), 0) steps of flexible GMRES on A M with w
/// orthogonalised against C, updates x and r along the new pair (cx, ux) and truncates CU to k.
/// @param A [n, n] operator, any float dtype. @param b [n] or [n, 1], finite.
/// @returns x [n]; info 0 converged, else the number of outer iterations done (maxiter, or k + 1
///          when outer iteration k failed with a non-finite Hessenberg entry; SciPy's codes);
///          iterations: outer iterations completed (SciPy's callback count less one when converged);
///          history: norm(r) at each outer test (entry i after i outer iterations).
/// Synchronizes (once per inner iteration; three or four times per outer iteration, plus once per kept
/// vector when truncate is smallest; a few times per recycled vector at the start).
/// @throws cusci::value_error as gmres, "RHS must contain only finite numbers", m < 1, k < 1,
///         maxiter < 1, CU vectors of the wrong size; cusci::not_implemented_error for truncate
///         smallest with a complex system.
/// SciPy: `scipy.sparse.linalg.gcrotmk(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=1000,
/// M=None, callback=None, m=20, k=None, CU=None, discard_C=False, truncate='oldest')`. Deviations:
/// the pivoted QR of the recycled C is pivoted Gram-Schmidt (the same subspace and pivot order, signs
/// of the pairs may differ); Givens rotations for the Hessenberg problem; truncate smallest is real
/// only; maxiter 0 raises value_error (SciPy fails with UnboundLocalError).
/// Reference: J. E. Hicken, D. W. Zingg, SIAM J. Sci. Comput. 32, 172 (2010); E. de Sturler, SIAM J.
/// Matrix Anal. Appl. 20, 864 (1999).
krylov_result gcrotmk(const linear_operator& A, const ndarray& b, const gcrotmk_options& options = {});

/// Keyword arguments of `minres`, SciPy's names, order and defaults (SciPy's minres has no atol).
struct minres_options {
  std::optional<ndarray> x0{};
  /// Relative tolerance of SciPy's stopping tests (||r|| / (||A|| ||x||) and ||A r|| / (||A|| ||r||)).
  double rtol = 1e-5;
  /// Solves (A - shift I) x = b.
  double shift = 0.0;
  /// Iterations; none: 5 * n.
  std::optional<std::int64_t> maxiter{};
  /// Symmetric positive definite preconditioner.
  std::optional<linear_operator> M{};
  /// Called with the current iterate x [n] after each iteration (a live view).
  std::function<void(const ndarray&)> callback{};
  /// Ignored (SciPy prints an iteration log).
  bool show = false;
  /// Check that A and M are symmetric (two extra products each) before iterating.
  bool check = false;
};

/// Solves (A - shift I) x = b with MINRES (Paige & Saunders) for symmetric / Hermitian A, possibly
/// indefinite, exactly as SciPy 1.18's `minres` (its Lanczos recurrence, stopping tests 1-6 and
/// the istop codes).
/// @param A [n, n] symmetric operator, any float dtype. @param b [n] or [n, 1].
/// @returns x [n]; info 0 (any istop but the iteration limit) or maxiter (istop 6); iterations: the
///          Lanczos steps (SciPy's itn, the callback count); history: entry 0 beta1, entry i SciPy's
///          rnorm estimate (phibar) after step i.
/// Synchronizes once per iteration: the test of step i (it needs norm(x_i)) is read together with the
/// scalars of step i + 1, whose matvec is therefore already done when step i stops the iteration
/// (one product more than SciPy; callback and result unaffected).
/// @throws cusci::value_error as gmres (no atol), "indefinite preconditioner" (M not positive),
///         "non-symmetric matrix" (beta^2 < 0 during the iteration, or check finds A non-symmetric),
///         "non-symmetric preconditioner" (check); shape errors before any device work.
/// SciPy: `scipy.sparse.linalg.minres(A, b, x0=None, *, rtol=1e-05, shift=0.0, maxiter=None, M=None,
/// callback=None, show=False, check=False)`. Deviations: `show` prints nothing; `iterations` and
/// `history` added.
/// Reference: C. C. Paige, M. A. Saunders, SIAM J. Numer. Anal. 12, 617 (1975).
krylov_result minres(const linear_operator& A, const ndarray& b, const minres_options& options = {});

}  // namespace cusci::sparse::linalg
