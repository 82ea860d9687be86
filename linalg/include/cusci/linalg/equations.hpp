#pragma once
/// @file equations.hpp
/// Matrix equation solvers of `scipy.linalg` 1.18: `solve_sylvester`, `solve_continuous_lyapunov`
/// (`solve_lyapunov`), `solve_discrete_lyapunov`, `solve_continuous_are`, `solve_discrete_are`. Batched over leading dimensions as SciPy 1.18's
/// `_apply_over_batch` batches them: the batch dimensions of all matrix arguments broadcast (NumPy's
/// rules), a zero-size batch is refused, results are new C-contiguous arrays of shape batch + core shape.
///
/// Where the work runs: the Schur decompositions through `linalg::schur` (the schur family), the
/// transformations (products with the Schur vectors) through core's batched `matmul` on the current
/// stream, the triangular Sylvester solves (LAPACK `?trsyl`, Bartels-Stewart's second half) on the
/// host through the system LAPACK, one matrix after the other, in double precision (`dtrsyl`/`ztrsyl`)
/// whatever the input precision; the result is cast to SciPy's dtype. The direct discrete Lyapunov
/// solver forms its Kronecker system on the GPU and solves it with `linalg::solve`.

#include <optional>
#include <string>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// Solves the Sylvester equation `a @ x + x @ b = q` for `x` (Bartels-Stewart).
///
/// @param a [..., M, M] any dtype (integers/bool promoted), any layout.
/// @param b [..., N, N]
/// @param q [..., M, N]. Batch dimensions of a, b and q broadcast.
/// @return x [batch..., M, N], C-contiguous. dtype: SciPy's LAPACK type of (a, b, q): complex if any is
///         complex, single precision (float32/complex64) if every input is float16/float32/complex64,
///         double precision otherwise. Empty `a` or `b`: an array of q's shape and that dtype (zeros;
///         SciPy: uninitialized).
///
/// Algorithm (SciPy's): real Schur forms a = U R U^H and b^H = V S V^H (`linalg::schur`, output
/// "real"; a complex input gives a complex triangular form), F = U^H q V (GPU), R Y + Y S^H = scale F by
/// LAPACK ?trsyl on the host (double precision), x = U (Y / scale... SciPy: scale * Y) V^H (GPU).
/// As in SciPy, a real quasi-triangular factor combined with a complex other operand is passed to
/// ztrsyl, which reads its upper triangle only.
///
/// Stream: enqueued on the current stream; **synchronizes** (the Schur factors are copied to the host
/// for ?trsyl and the solution copied back).
///
/// @throws cusci::value_error for ndim < 2 (after SciPy's reading of 0-d/1-d inputs: a 1-d or 0-d `a`
///         or `b` is refused as non-square, "expected square matrix"), a non-square `a` or `b`, `q`
///         whose last two dimensions are not (M, N), batch dimensions that do not broadcast, a
///         zero-size batch ("`solve_sylvester` does not support zero-size batches."), or inf/NaN in `a`
///         or `b` ("array must not contain infs or NaNs", from schur's check; `q` is not checked, as
///         in SciPy).
/// SciPy: `scipy.linalg.solve_sylvester(a, b, q)`. Deviations: single-precision inputs are solved in
///         double precision on the host (results rounded to single precision at the end).
ndarray solve_sylvester(const ndarray& a, const ndarray& b, const ndarray& q);

/// Solves the continuous Lyapunov equation `a @ x + x @ a^H = q`.
///
/// @param a [..., M, M], @param q [..., M, M]; 0-d and 1-d inputs are read as SciPy's `atleast_2d`.
/// @return x [batch..., M, M] C-contiguous; dtype: the LAPACK type of (a, q) as in `solve_sylvester`.
///
/// Algorithm (SciPy's): a = U R U^H (`linalg::schur`, output "real"), F = U^H q U, R Y + Y R^T = F
/// (real; R^H for complex) by ?trsyl on the host, x = scale * U Y U^H.
///
/// Stream: **synchronizes** (as `solve_sylvester`).
/// @throws cusci::value_error "Matrix a should be square." / "Matrix q should be square." /
///         "Matrix a and q should have the same shape.", inf/NaN in a or q ("array must not contain
///         infs or NaNs"), batch dimensions that do not broadcast, a zero-size batch.
/// SciPy: `scipy.linalg.solve_continuous_lyapunov(a, q)`. Deviations: ?trsyl's info = 1 (eigenvalues
///         of a whose sum is close to zero) gives SciPy a RuntimeWarning; cusci issues no warning.
///         Single precision solved in double precision on the host.
ndarray solve_continuous_lyapunov(const ndarray& a, const ndarray& q);

/// `scipy.linalg.solve_lyapunov`, SciPy's alias of `solve_continuous_lyapunov`.
ndarray solve_lyapunov(const ndarray& a, const ndarray& q);

/// Keyword arguments of `solve_discrete_lyapunov`.
struct solve_discrete_lyapunov_options {
  /// SciPy's `method`: unset (None) chooses "bilinear" for M >= 10 and "direct" otherwise; "direct" or
  /// "bilinear", compared case-insensitively as SciPy's `method.lower()`.
  std::optional<std::string> method;
};

/// Solves the discrete Lyapunov equation `x - a @ x @ a^H = q`.
///
/// @param a [..., M, M], @param q [..., M, M] (any dtype; batch dimensions broadcast).
/// @return x [batch..., M, M], C-contiguous, float64 (complex128 when a or q is complex): both of
///         SciPy's methods go through float64 identity matrices.
///
/// Algorithm (SciPy's): "direct": (I - kron(a, conj(a))) vec(x) = vec(q), the M^2 x M^2 system formed on
/// the GPU and solved with `linalg::solve` (batched); "bilinear": b = (a^H - I)(a^H + I)^-1,
/// c = 2 (a + I)^-1 q (a^H + I)^-1 (`linalg::inv`, GPU), then x = solve_continuous_lyapunov(b^H, -c).
///
/// Stream: **synchronizes** (linalg::solve/inv read their failure flags; bilinear: ?trsyl on the host).
/// @throws cusci::value_error "Unknown solver <method>" (before any work), a non-square `a` or `q` or
///         different shapes, batch dimensions that do not broadcast, a zero-size batch, inf/NaN.
/// @throws cusci::linalg::lin_alg_error when the Kronecker system or a + I is exactly singular.
/// SciPy: `scipy.linalg.solve_discrete_lyapunov(a, q, method=None)`. Deviation: SciPy's "direct"
///         checks inputs only through solve's check_finite (same exceptions).
ndarray solve_discrete_lyapunov(const ndarray& a, const ndarray& q, const solve_discrete_lyapunov_options& opts = {});

/// Keyword arguments of `solve_continuous_are` / `solve_discrete_are` (SciPy's names and defaults).
struct are_options {
  /// SciPy's `e` (None when unset): [..., M, M], the generalized equation's E.
  std::optional<ndarray> e;
  /// SciPy's `s` (None when unset): [..., M, N], the cross term.
  std::optional<ndarray> s;
  /// Balance the extended pencil first (SciPy's default).
  bool balanced = true;
};

/// Solves the continuous algebraic Riccati equation
/// `a^H x + x a - (x b + s) r^-1 (b^H x + s^H) + q = 0` (with `e`: `a^H x e + e^H x a - (e^H x b + s) r^-1
/// (b^H x e + s^H) + q = 0`) for the stabilizing solution x.
///
/// @param a [..., M, M], @param b [..., M, N], @param q [..., M, M] Hermitian, @param r [..., N, N]
///        Hermitian nonsingular; 0-d/1-d inputs read as `atleast_2d`; batch dimensions broadcast.
/// @return x [batch..., M, M] Hermitian, C-contiguous; float64, or complex128 when any input is complex.
/// Algorithm (SciPy 1.18.1's): the extended (2M+N) pencil (H, J); with `balanced`, `matrix_balance` of
/// |H| + |J| (diagonal zeroed, no permutation) turned into symmetric powers of 2 (schur family, host
/// LAPACK); QR of H's last N columns (qr family) to deflate to a 2M x 2M pencil; `ordqz` with sort
/// "lhp" (schur family, host LAPACK); with `e`, a QR of [e u00; u10]; LU of u00 (lu family) with the
/// condition test 1/cond(U) < eps; two triangular solves (triangular family) for x; the symmetry test on
/// u00^H u10; x = (x + x^H)/2. One batch slice after the other (a host loop: the QZ steps are per matrix).
/// Stream: **synchronizes** (several read-backs per slice).
/// @throws cusci::value_error with SciPy's messages: "Matrix a should be square." (q, r, e alike),
///         "Matrix a and b should have the same number of rows.", "Matrix a and q should have the same
///         shape.", "Matrix b and r should have the same number of cols.", "Matrix a and e should have the
///         same shape.", "Matrix b and s should have the same shape.", "Matrix q should be
///         symmetric/hermitian." (r alike), "Matrix r is numerically singular.", "Matrix e is numerically
///         singular.", "array must not contain infs or NaNs", zero-size batches.
/// @throws cusci::linalg::lin_alg_error "Failed to find a finite solution." and "The associated
///         Hamiltonian pencil has eigenvalues too close to the imaginary axis".
/// SciPy: `scipy.linalg.solve_continuous_are(a, b, q, r, e=None, s=None, balanced=True)`. Deviation: the
///         value checks (symmetry, singularity) run per slice after the shape checks of the whole batch.
ndarray solve_continuous_are(const ndarray& a, const ndarray& b, const ndarray& q, const ndarray& r,
                             const are_options& opts = {});

/// Solves the discrete algebraic Riccati equation
/// `a^H x a - x - (a^H x b + s)(r + b^H x b)^-1 (b^H x a + s^H) + q = 0` (with `e`: `e^H x e` for `x`).
/// Parameters, result, algorithm (ordqz sort "iuc", no singularity test of r), stream behaviour and
/// exceptions as `solve_continuous_are`; the last lin_alg_error reads "The associated symplectic pencil
/// has eigenvalues too close to the unit circle".
/// SciPy: `scipy.linalg.solve_discrete_are(a, b, q, r, e=None, s=None, balanced=True)`.
ndarray solve_discrete_are(const ndarray& a, const ndarray& b, const ndarray& q, const ndarray& r,
                           const are_options& opts = {});

}  // namespace cusci::linalg
