#pragma once
/// @file distributed/solvers.hpp
/// SciPy's Krylov solvers `cg`, `bicgstab` and `gmres` on distributed matrices and vectors, with
/// Jacobi and block-Jacobi ILU(0) preconditioning (docs/distributed.md). Each is the same algorithm,
/// with the same parameters, tolerances and iteration counting, as the one-GPU solver of
/// cusci::sparse::linalg (hence SciPy 1.18's), so that on the same problem the iteration counts agree
/// up to rounding; dot products and norms are all-reduced over the communicator.
/// Every rank calls the solver with its own blocks (SPMD, collective). Value dtypes float32/float64.
///
/// Common to the three solvers:
///   - A: a distributed csr_matrix (float32 or float64); b, x0: vectors on A's communicator with A's
///     partition; b of A's dtype (the system's dtype is A's: SciPy would compute a float32 A with a
///     float64 b in float64, the distributed solvers raise instead); x0 of either float dtype (cast).
///   - Same starting residual (r0 = b - A x0, or b without x0), same tolerance atol' = max(atol,
///     rtol * norm(b)) and test order, same breakdown tests and info codes, same b == 0 handling
///     (x = b, info 0, no iteration) and maxiter default (10 n, n the global size) as the one-GPU
///     solvers and SciPy 1.18.
///   - Dot products and norms: each rank sums its block in float64 (also for float32 vectors), then
///     one all-reduce of a small float64 array adds the ranks' partial sums; the passes that need
///     several sums batch them into one all-reduce (gmres: V^T w of the whole Arnoldi column at once).
///     The sums of different rank counts differ in their order, hence by rounding only.
///   - The vector updates round each product and sum on its own, as NumPy evaluates SciPy's expressions.
///   - Every decision (convergence, breakdown, early end) is taken from all-reduced values, the same
///     on every rank (an all-reduce returns identical bits on every rank, as NCCL's ring and tree
///     algorithms and the local group do), so all ranks run the same number of iterations.
///   - Stream behaviour: device work on the current stream; the host waits once an iteration (cg,
///     bicgstab: for the residual norm and status; gmres: once an inner iteration for the Hessenberg
///     column, once more where the second Gram-Schmidt pass runs, once a restart cycle), as the one-GPU
///     solvers. The local group's collectives synchronize the host as well.
///   - The result's x is a new vector with A's partition and dtype; `history` as
///     sparse::linalg::krylov_result's (entry 0 the starting quantity, entry i the one after
///     iteration i); callbacks run on each rank's thread.
///   - Errors are raised before any device work and the same on every rank for the same arguments.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "cusci/distributed/matrix.hpp"
#include "cusci/distributed/vector.hpp"
#include "cusci/sparse/linalg/krylov.hpp"

namespace cusci::distributed {

/// A preconditioner M ~ inv(A) applied rank-locally (no communication). Copies share the data.
class preconditioner {
 public:
  enum class kind { jacobi, block_jacobi_ilu0 };
  /// z = M r: a new vector with r's partition, communicator and dtype; Jacobi multiplies by
  /// 1 / diag(A) elementwise, block Jacobi solves with the ILU(0) factors of the rank's diagonal block.
  /// Not collective; asynchronous on the current stream.
  /// @throws cusci::value_error for an empty preconditioner (default-constructed) or r of another
  ///         partition or communicator than the matrix M was made from.
  vector apply(const vector& r) const;
  kind type() const noexcept { return kind_; }
  /// Internal: the rank-local data (solvers/common.hpp).
  struct impl;
  /// Internal: the rank-local data, for the solvers. @throws cusci::value_error when empty.
  const impl& get() const;

 private:
  friend preconditioner jacobi(const csr_matrix& A);
  friend preconditioner block_jacobi_ilu0(const csr_matrix& A);
  kind kind_ = kind::jacobi;
  std::shared_ptr<const impl> impl_;
};

/// Jacobi: M = diag(A)^-1, as cusci::sparse::linalg::jacobi (SciPy: `diags(1 / A.diagonal())`), the
/// rank's part of the diagonal, in A's dtype. Not collective; synchronizes (the zero check).
/// @param A a distributed square matrix, float32/float64.
/// @throws cusci::value_error for an empty A, or naming the first zero diagonal entry of the rank's
///         rows (global row; one-GPU jacobi and NumPy give inf there instead); only the ranks owning
///         such a row raise.
preconditioner jacobi(const csr_matrix& A);

/// Block Jacobi with ILU(0) blocks: each rank's M is the ILU(0) (cusci::sparse::linalg::ilu0) of its
/// diagonal block A.diagonal_block(), ignoring the coupling to other ranks; with one rank it is ILU(0)
/// of A. Not collective; synchronizes (ilu0's set-up). SciPy: none (no distributed preconditioner;
/// spilu is not ILU(0)).
/// @throws cusci::value_error for an empty A; cusci::runtime_error as ilu0 (a missing diagonal entry,
///         "Factor is exactly singular: zero pivot"), naming the global row and the rank.
preconditioner block_jacobi_ilu0(const csr_matrix& A);

/// Result of a distributed solve: SciPy's (x, info), the iteration count and the history, as
/// cusci::sparse::linalg::krylov_result.
struct solve_result {
  /// The solution, A's partition and dtype (b == 0: a copy of b).
  vector x;
  /// 0 converged; maxiter when not converged (SciPy's convention, also info 0 for maxiter 0); < 0 a
  /// breakdown (bicgstab: -10 rho, -11 omega or r~.v == 0).
  std::int64_t info = 0;
  /// Iterations performed: cg / bicgstab the callback calls, gmres the inner iterations.
  std::int64_t iterations = 0;
  /// The residual norms the convergence tests read (see each solver) and their times.
  sparse::linalg::convergence_history history;
};

/// Keyword arguments of cg and bicgstab (SciPy's names and defaults).
struct cg_options {
  std::optional<vector> x0{};        ///< starting guess (A's partition, float32/float64); none: zeros
  double rtol = 1e-5;                ///< stop when norm(r) < max(rtol * norm(b), atol)
  double atol = 0.0;                 ///< >= 0
  std::optional<std::int64_t> maxiter{};  ///< >= 0; none: 10 * n
  std::optional<preconditioner> M{};      ///< made from A (or a matrix of A's partition); none: identity
  std::function<void(const vector&)> callback{};  ///< after each iteration, with x (a live view)
};
using bicgstab_options = cg_options;

/// Keyword arguments of gmres (SciPy's names and defaults; callback receives presid / norm(b) after
/// each inner iteration, and maxiter counts restart cycles, as SciPy's callback_type 'pr_norm').
struct gmres_options {
  std::optional<vector> x0{};             ///< starting guess; none: zeros
  double rtol = 1e-5;                     ///< stop when norm(b - A x) <= max(rtol * norm(b), atol)
  double atol = 0.0;                      ///< >= 0
  std::optional<std::int64_t> restart{};  ///< >= 1; none: 20 (taken as min(restart, n))
  std::optional<std::int64_t> maxiter{};  ///< restart cycles, >= 1; none: 10 * n
  std::optional<preconditioner> M{};      ///< left preconditioner; none: identity
  std::function<void(double)> callback{};  ///< presid / norm(b) after each inner iteration
};

/// The conjugate gradient method for symmetric positive definite A, as cusci::sparse::linalg::cg
/// (SciPy 1.18's `cg`): each iteration tests norm(r) < atol' first, then z = M r, rho = r.z,
/// p = z + (rho / rho_prev) p, q = A p, alpha = rho / p.q, x += alpha p, r -= alpha q, callback(x).
/// No breakdown test (SciPy has none: a zero p.q gives inf/nan and info = maxiter). Two all-reduces
/// an iteration (p.q; norm(r)^2 with, for M none or Jacobi, the next r.z), three with block ILU (r.z
/// on its own); the next iteration's p, A p and p.q are enqueued before the host reads norm(r) (as
/// the one-GPU cg).
/// Collective; synchronizes once an iteration.
/// @param A [n, n] distributed, SPD. @param b [n] (A's partition and dtype).
/// @returns x, info (0 / maxiter), iterations, history (norm(r) before each iteration's test and after
///          the last; empty for b == 0).
/// @throws cusci::value_error for b, x0 or M of another partition or communicator, an empty A or b,
///         atol < 0 or NaN, rtol NaN, maxiter < 0; cusci::type_error for b of another dtype than A.
/// SciPy: `scipy.sparse.linalg.cg(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
/// callback=None)`. Deviations: distributed; b must have A's dtype; maxiter < 0 raises (SciPy returns
/// info = maxiter); float32 dot products accumulate in float64; `iterations`, `history` added.
solve_result cg(const csr_matrix& A, const vector& b, const cg_options& options = {});

/// BiCGSTAB, as cusci::sparse::linalg::bicgstab (SciPy 1.18's `bicgstab`, right preconditioned):
/// rho = r~.r (r~ = r0); |rho| < eps^2: info -10; after the first iteration |omega| < eps^2: -11;
/// p = r + beta (p - omega v), beta = (rho / rho_prev)(alpha / omega); p^ = M p, v = A p^;
/// r~.v == 0: -11; alpha = rho / r~.v, s = r - alpha v; norm(s) < atol': x += alpha p^ and return
/// (converged, no callback); s^ = M s, t = A s^, omega = t.s / t.t, x += alpha p^ + omega s^,
/// r = s - omega t, callback(x). eps is the dtype's. The breakdown and early-end tests run on the
/// device from all-reduced scalars (no extra host wait); four all-reduces an iteration (r~.v; s.s;
/// t.t with t.s; r.r with the next r~.r).
/// Collective; synchronizes once an iteration.
/// @returns info 0 / maxiter / -10 / -11; iterations (callback calls; a breakdown or early end in
///          iteration k gives k); history: norm(r) before each iteration's test (norm(s) for an early
///          end, and the last after maxiter iterations; empty for b == 0).
/// @throws as cg.
/// SciPy: `scipy.sparse.linalg.bicgstab(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
/// callback=None)`. Deviations: as cg.
solve_result bicgstab(const csr_matrix& A, const vector& b, const bicgstab_options& options = {});

/// Restarted GMRES, left preconditioned, as cusci::sparse::linalg::gmres with callback_type 'pr_norm'
/// (SciPy 1.18's `gmres`): each cycle builds the Arnoldi basis of M A from v0 = M r / norm(M r), for
/// up to `restart` inner iterations, with SciPy's Givens rotations for presid and its inner tolerance
/// ptol (gh-8400), stopping at presid <= ptol or an exact breakdown (h_{j+1,j} <= eps ||w||); then
/// x += V y, and the cycle ends the solve when norm(b - A x) <= atol'. The orthogonalisation is the
/// one-GPU solver's classical Gram-Schmidt with the DGKS second pass where ||w|| fell below 1/sqrt(2)
/// of its value: V^T w of the whole column and ||w||^2 in one all-reduce, the update w -= V c with the
/// projections of the updated w and its norm in a second, the rare second pass in a third.
/// Collective; synchronizes once an inner iteration (twice with the second pass) and once a cycle.
/// @returns info 0 / maxiter (cycles); iterations: inner iterations; history: norm(M r0) / norm(b),
///          then presid / norm(b) after each inner iteration ([0] for b == 0).
/// @throws as cg, and cusci::value_error for restart < 1 or maxiter < 1.
/// SciPy: `scipy.sparse.linalg.gmres(A, b, x0=None, *, rtol=1e-05, atol=0.0, restart=None,
/// maxiter=None, M=None, callback=None, callback_type='pr_norm')`. Deviations: distributed; only
/// callback_type 'pr_norm' (the callback gets a double); classical Gram-Schmidt with DGKS instead of
/// modified Gram-Schmidt (equal in exact arithmetic); the small Hessenberg problem in float64 on the
/// host also for float32; b must have A's dtype.
solve_result gmres(const csr_matrix& A, const vector& b, const gmres_options& options = {});

}  // namespace cusci::distributed
