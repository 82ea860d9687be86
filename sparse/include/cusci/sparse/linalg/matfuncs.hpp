#pragma once
/// @file linalg/matfuncs.hpp
/// Matrix functions of `scipy.sparse.linalg` acting on vectors: `expm_multiply` (the action of the
/// matrix exponential, Al-Mohy & Higham 2011), `onenormest` (block 1-norm estimation, Higham &
/// Tisseur 2000) and `funm_multiply_krylov` (restarted Krylov approximation of f(tA) b).
///
/// A is a `linear_operator` (a csr_matrix converts implicitly: SciPy's `aslinearoperator`); where A
/// wraps a CSR matrix the functions use its entries (exact trace and 1-norm, fused kernels). Vectors
/// live on the device; every function works on the current stream. float32, float64, complex64 and
/// complex128 are supported wherever the operator supports them.
///
/// Results are returned as SciPy's: x 1-D [n] for b [n]; B [n, k] keeps its shape.

#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"

namespace cusci::sparse::linalg {

/// Result of `onenormest`: SciPy's `est` (and `v`, `w` when asked for), plus the work done.
struct onenormest_result {
  /// The estimate of ||A||_1 (a lower bound: ||A v||_1 = est * ||v||_1 for the returned v).
  double est = 0.0;
  /// [n] float64 elementary vector e_j with ||A e_j||_1 = est (only with compute_v; else empty).
  ndarray v;
  /// [n] A v (only with compute_w; else empty), dtype float64 or complex128 for a complex A.
  ndarray w;
  /// Products with A or A^H of [n, t] blocks (SciPy's internal `nmults`; 1 for the explicit path).
  std::int64_t nmults = 0;
  /// Random columns drawn again because they were parallel to others (SciPy's `nresamples`).
  std::int64_t nresamples = 0;
};

/// Estimates the 1-norm of a square operator A with the block algorithm of Higham & Tisseur (2000),
/// step for step as SciPy 1.18's `_onenormest_core`: t columns, at most itmax iterations, each
/// taking one product with A and one with A^H (A.rmatvec) of an [n, t] block. For t >= n the matrix
/// is formed explicitly (A times the identity) and the 1-norm is exact, as SciPy.
/// Random columns (column 1..t-1 of the starting block and resampled parallel columns) are +-1
/// vectors drawn on the device from `cusci::random::generator(seed)`: with the same seed the result
/// is reproducible (SciPy draws from NumPy's global, unseeded state: its estimate may differ from
/// this one, both are lower bounds of ||A||_1). Ties in the ordering of the row maxima h are broken
/// by a stable sort (larger index first, as the reversed ascending order); NumPy's quicksort orders
/// ties arbitrarily.
/// Synchronizes (several small reads an iteration: column sums, t x t dot products, the t
/// largest rows).
/// @param A [n, n] operator (float32/float64/complex64/complex128); needs rmatvec unless t >= n.
/// @param t columns of the block (>= 1). @param itmax maximum iterations (>= 2).
/// @param compute_v, compute_w return v / w as well.
/// @param seed key of the random sign vectors (beyond SciPy).
/// @throws cusci::value_error "expected the operator to act like a square matrix" for a non-square
///         A, t < 1 ("at least one column is required"), itmax < 2 ("at least two iterations are
///         required"); cusci::not_implemented_error when t < n and A has no rmatvec. All before any
///         device work.
/// SciPy: `scipy.sparse.linalg.onenormest(A, t=2, itmax=5, compute_v=False, compute_w=False)`
/// (returns `est` or a tuple; here always the struct). Deviations: seeded random columns; float64
/// (complex128) arithmetic for every operator dtype, as SciPy's float64 starting block.
/// Reference: N. J. Higham and F. Tisseur, "A Block Algorithm for Matrix 1-Norm Estimation, with an
/// Application to 1-Norm Pseudospectra", SIAM J. Matrix Anal. Appl. 21(4), 2000, Algorithm 2.4.
onenormest_result onenormest(const linear_operator& A, int t = 2, int itmax = 5, bool compute_v = false,
                             bool compute_w = false, std::uint64_t seed = 0);

/// Keyword arguments of `expm_multiply`, SciPy's names, order and defaults. With none of start,
/// stop, num, endpoint given, e^A B is computed at the single time t = 1; otherwise at the time
/// points of `np.linspace(start, stop, num, endpoint)` (num default 50, endpoint default true),
/// which then need start and stop.
struct expm_multiply_options {
  std::optional<double> start{};
  std::optional<double> stop{};
  std::optional<std::int64_t> num{};
  std::optional<bool> endpoint{};
  /// Trace of A, used to shift A by mu = traceA / n. None: computed exactly for a CSR operator;
  /// required for any other operator (see expm_multiply).
  std::optional<std::complex<double>> traceA{};
};

/// What `expm_multiply` chose and did (beyond SciPy; for tests and tuning).
struct expm_multiply_info {
  /// Degree of the truncated Taylor series (SciPy's m_star) and number of scaling steps (s).
  std::int64_t m_star = 0, s = 0;
  /// Products A B (A shifted by mu; one product of an [n, n0] block counts once) in the series
  /// evaluation, as counted in SciPy's `_expm_multiply_simple_core` / `_interval_core_*`.
  std::int64_t matvecs = 0;
  /// Products spent on 1-norm estimation (onenormest of A and of powers of A).
  std::int64_t norm_matvecs = 0;
  /// The 1-norm of the shifted A used (exact for CSR, an estimate otherwise) and mu.
  double A_1_norm = 0.0;
  std::complex<double> mu{};
  /// For the interval form: SciPy's status (0: q <= s, 1: q % s == 0, 2: otherwise); -1 for the single time.
  int status = -1;
};

/// The action of the matrix exponential, e^{tA} B, by the truncated Taylor series with scaling of
/// Al-Mohy & Higham (2011), exactly as SciPy 1.18's `_expm_multiply.py`: A is shifted by
/// mu = trace(A) / n; m_star and s are chosen by code fragment (3.1) with SciPy's theta table, the
/// exact 1-norm of the shifted A (CSR; the estimate of `onenormest` for other operators) and the
/// `onenormest` estimates of ||(tA)^p||_1 (t = 2, p = 2..9) when ||tA||_1 is large; the series stops
/// early when ||c1|| + ||c2|| <= 2^-53 ||F|| (infinity norms; SciPy's tolerance for every dtype, so
/// float32 always takes the m_star terms). Time points: algorithm (5.2) with SciPy's three cases
/// (q <= s; q % s == 0; otherwise), the same number of products.
/// Each series term is one product with A (CSR: cusci's SpMV; an operator: matvec per column of B)
/// followed by one fused kernel (shift, scale, F update, both infinity norms); the host reads the two
/// norms once a term (pinned memory).
/// Synchronizes (once a series term, and in the norm estimation).
/// @param A [n, n] linear_operator or csr_matrix, float32/float64/complex64/complex128.
/// @param B [n] or [n, n0] dense, any numeric dtype (integers computed in float64).
/// @param o SciPy's keyword arguments; @param info optional report of m_star, s and product counts.
/// @returns single time: B's shape, dtype the promotion of A's and B's (at least float32); time
///          points: [nsamples, *B.shape], dtype promoted with float64 (as SciPy's
///          `np.result_type(A.dtype, B.dtype, float)`).
/// @throws cusci::value_error "expected A to be like a square matrix", "shapes of matrices A (n, n)
///         and B (m,) are incompatible", "expected B to be like a matrix or a vector" (B of 0 or > 2
///         dims), start/stop missing when num or endpoint is given, num < 0, "at least two time points
///         are required", and "traceA is required for a linear_operator" for an operator that does not
///         wrap a CSR matrix when traceA is none; cusci::not_implemented_error when the norm estimation
///         needs rmatvec and the operator has none. All before any device work.
/// SciPy: `scipy.sparse.linalg.expm_multiply(A, B, start=None, stop=None, num=None, endpoint=None,
/// traceA=None)`. Deviations: traceA is required for general operators (SciPy estimates it by
/// Hutch++ with a warning); B must be dense; onenormest's random columns are seeded (see
/// onenormest); the interval form computes in its (float64-promoted) result dtype throughout.
/// References: A. H. Al-Mohy and N. J. Higham, "Computing the Action of the Matrix Exponential, with
/// an Application to Exponential Integrators", SIAM J. Sci. Comput. 33(2), 2011, algorithms 3.2 and
/// 5.2.
ndarray expm_multiply(const linear_operator& A, const ndarray& B, const expm_multiply_options& o = {},
                      expm_multiply_info* info = nullptr);

/// f for `funm_multiply_krylov`: called on the host with a small dense matrix t * H [j, j]
/// (host_array, C order, float64 for real systems, complex128 for complex ones) and returning f of
/// it, [j, j] (only column 0 is used; the dtype is converted as needed). For the exponential:
/// `scipy.linalg.expm`.
using matrix_function = std::function<host_array(const host_array&)>;

/// Keyword arguments of `funm_multiply_krylov`, SciPy's names, order and defaults.
struct funm_multiply_krylov_options {
  /// "general"/"gen" (Arnoldi) or "hermitian"/"her" (Lanczos, A assumed Hermitian).
  std::string assume_a = "general";
  /// The scaling t of f(tA) b.
  double t = 1.0;
  /// Absolute and relative tolerance on the norm of a restart's update: stop when it is
  /// <= max(atol, rtol * ||b||).
  double atol = 0.0;
  double rtol = 1e-6;
  /// Krylov dimension per restart; none: min(20, n).
  std::optional<std::int64_t> restart_every_m{};
  /// Maximum number of restarts (capped, as SciPy, at n / m + 1).
  std::int64_t max_restarts = 20;
};

/// Approximates f(tA) b by the restarted Krylov method of SciPy 1.18's `funm_multiply_krylov`
/// (Eiermann & Ernst 2006 as implemented there): Arnoldi (modified Gram-Schmidt) or Lanczos cycles
/// of m = restart_every_m vectors; after each cycle f is applied to the accumulated [end, end]
/// Hessenberg matrix t H and y += ||b|| V fH[begin:end, 0]; stops on breakdown (a new basis vector
/// of norm < eps^2, eps of b's dtype), when ||update|| <= max(atol, rtol ||b||), or after
/// max_restarts cycles. b == 0 returns a copy of b.
/// The basis V [n, m + 1] stays on the device (column-major); dot products and norms are read by the
/// host (one read per Gram-Schmidt coefficient block: the whole column of H at once), H is kept on
/// the host, f is called on the host.
/// Synchronizes (once a basis vector, and around each call of f).
/// @param f host callable (see matrix_function). @param A [n, n] operator, float/complex.
/// @param b [n] vector (1-D), numeric dtype.
/// @returns [n], dtype NumPy's `np.common_type(A, b)` (float64 for real inputs other than float32
///          pairs, complex128/complex64 for complex ones).
/// @throws cusci::value_error for an unknown assume_a ("... is not a recognized matrix structure"),
///         b not 1-D ("argument 'b' must be a 1D array."), A not square or not matching b,
///         restart_every_m <= 0, max_restarts <= 0, atol < 0; all before any device work. What f
///         throws; cusci::value_error when f returns an array of another shape than [j, j].
/// SciPy: `scipy.sparse.linalg.funm_multiply_krylov(f, A, b, *, assume_a='general', t=1.0,
/// atol=0.0, rtol=1e-6, restart_every_m=None, max_restarts=20)`. Deviation: on a breakdown after a
/// restart SciPy's update indexes V[:, :m] against j < m coefficients (a shape error); cusci adds
/// V[:, :j] fH[begin:begin+j, 0].
/// References: M. Eiermann and O. G. Ernst, "A restarted Krylov subspace method for the evaluation
/// of matrix functions", SIAM J. Numer. Anal. 44(6), 2006; SciPy's `_funm_multiply_krylov.py`.
ndarray funm_multiply_krylov(const matrix_function& f, const linear_operator& A, const ndarray& b,
                             const funm_multiply_krylov_options& o = {});

}  // namespace cusci::sparse::linalg

#if __has_include("cusci/sparse/linalg/laplacian_nd.hpp")
#include "cusci/sparse/linalg/laplacian_nd.hpp"
#endif
