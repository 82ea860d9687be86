#pragma once
/// @file linalg/krylov.hpp
/// The iterative solvers of `scipy.sparse.linalg` beside `cg` (linalg.hpp): what they share (the
/// result with its convergence history) and the solver families, one header each:
///   - krylov_nonsymmetric.hpp  `bicg`, `bicgstab`, `cgs`, `qmr`, `tfqmr` (short recurrences);
///   - krylov_gmres.hpp         `gmres`, `lgmres`, `gcrotmk`, `minres` (long recurrences, symmetric
///                              Lanczos);
///   - least_squares.hpp        `lsqr`, `lsmr`.
///
/// Every solver takes A as a `linear_operator` (a csr_matrix converts implicitly; see linalg.hpp),
/// b [n] or [n, 1] on the device, SciPy's keyword arguments in an options struct in SciPy's order,
/// and returns SciPy's `(x, info)` with the number of iterations and a convergence history (beyond
/// SciPy). Solvers synchronize at most once an iteration (for the convergence test), reading the
/// residual norm the test needs; that norm is what the history records.

#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::sparse::linalg {

/// The residual norm each iteration of an iterative solver reached, and when (beyond SciPy: read
/// from the result, no callback needed; in the manner of Ginkgo's convergence loggers). Entry 0 is
/// the starting residual (before the first iteration), entry i the residual after iteration i, as
/// the solver measures it for its convergence test (SciPy's `callback_type='pr_norm'` quantity for
/// gmres: the preconditioned residual estimate; lsqr/lsmr: their ||r|| estimates). Host only.
struct convergence_history {
  /// The residual norm the convergence test used, [iterations + 1] (float64).
  std::vector<double> residual_norms;
  /// Wall seconds since the solver started, when each residual norm was read, same length.
  std::vector<double> seconds;
};

/// Result of an iterative solver: SciPy's `(x, info)`, the iteration count and the history.
struct krylov_result {
  /// [n] solution (also for b [n, 1], as SciPy), dtype as SciPy's (the promotion of A's and b's
  /// dtypes, at least float32).
  ndarray x;
  /// SciPy's info: 0 converged; > 0 not converged after `info` iterations; < 0 breakdown or illegal
  /// input (each solver documents its codes).
  std::int64_t info = 0;
  /// Iterations performed (SciPy's count: for gmres, inner iterations).
  std::int64_t iterations = 0;
  /// Residual norms and times (see convergence_history).
  convergence_history history;
};

}  // namespace cusci::sparse::linalg

#if __has_include("cusci/sparse/linalg/krylov_nonsymmetric.hpp")
#include "cusci/sparse/linalg/krylov_nonsymmetric.hpp"
#endif
#if __has_include("cusci/sparse/linalg/krylov_gmres.hpp")
#include "cusci/sparse/linalg/krylov_gmres.hpp"
#endif
#if __has_include("cusci/sparse/linalg/least_squares.hpp")
#include "cusci/sparse/linalg/least_squares.hpp"
#endif
