#pragma once
/// @file linalg.hpp
/// Iterative solvers over sparse matrices and linear operators (`scipy.sparse.linalg`): the conjugate
/// gradient method `cg`, SciPy's `LinearOperator`, and a Jacobi (diagonal) preconditioner.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::linalg {

/// An abstract matrix given by its product with a vector (SciPy's `LinearOperator(shape, matvec,
/// dtype)`). Built from a function, from a csr_matrix (implicitly: `aslinearoperator`), or by
/// `jacobi()`. Copies share the wrapped function and matrix.
class linear_operator {
 public:
  /// `matvec(x)` receives x [cols] (contiguous, dtype float32/float64) and returns [rows] (or
  /// [rows, 1]); it runs on the current stream.
  using matvec_fn = std::function<ndarray(const ndarray&)>;

  /// @param shape (rows, cols), both >= 0. @param dt float32 or float64. @param matvec the product.
  /// Does no device work: `matvec` is stored and called later, by matvec()/cg, on the calling thread;
  /// it must enqueue its work on the stream current at that time (and may synchronize if it needs to).
  /// @throws cusci::value_error for a negative dimension or an empty matvec; cusci::type_error for
  ///         another dtype.
  /// SciPy: `scipy.sparse.linalg.LinearOperator(shape, matvec=matvec, dtype=dt)`.
  linear_operator(shape2 shape, cusci::dtype dt, matvec_fn matvec);
  /// Wraps a CSR matrix (SciPy's `aslinearoperator(A)`); solvers recognize it and use fused kernels.
  linear_operator(const csr_matrix& A);  // NOLINT: implicit, as SciPy accepts a sparse matrix anywhere

  shape2 shape() const noexcept { return shape_; }
  cusci::dtype dtype() const noexcept { return dtype_; }

  /// y = A x for x [cols] or [cols, 1]; returns [rows] or [rows, 1] (SciPy's `matvec`). Asynchronous
  /// unless the wrapped function synchronizes.
  /// @throws cusci::value_error "dimension mismatch" for another shape of x, or when the function
  ///         returns a result of the wrong size; whatever the wrapped function throws.
  /// SciPy: `LinearOperator.matvec(x)`.
  ndarray matvec(const ndarray& x) const;
  ndarray dot(const ndarray& x) const { return matvec(x); }
  ndarray operator*(const ndarray& x) const { return matvec(x); }

  /// The wrapped CSR matrix, or nullptr.
  const csr_matrix* csr() const noexcept { return csr_ ? csr_.get() : nullptr; }
  /// For a diagonal operator made by `jacobi()`: its diagonal [n] (the inverse of A's diagonal); else
  /// nullptr.
  const ndarray* diagonal_values() const noexcept { return diag_ ? diag_.get() : nullptr; }

  /// A diagonal operator y = d * x (elementwise), shape (n, n), dtype d.dtype(). The product's dtype
  /// is NumPy's promotion of d and x (non-float x computes in float64). @param d [n] float32/float64
  /// (kept by reference, copied on the current stream when not contiguous). Asynchronous; each
  /// product runs on the stream current when matvec is called.
  /// @throws cusci::value_error when d is not 1-D; cusci::type_error when d is not float32/float64;
  ///         cusci::out_of_memory.
  /// SciPy: `aslinearoperator(scipy.sparse.diags(d))`.
  static linear_operator diagonal(const ndarray& d);

 private:
  linear_operator() = default;
  shape2 shape_{0, 0};
  cusci::dtype dtype_ = cusci::dtype::float64;
  matvec_fn fn_;
  std::shared_ptr<csr_matrix> csr_;
  std::shared_ptr<ndarray> diag_;
};

/// SciPy: `scipy.sparse.linalg.aslinearoperator(A)` for a CSR matrix.
inline linear_operator aslinearoperator(const csr_matrix& A) { return linear_operator(A); }

/// Jacobi preconditioner for A: the diagonal operator applying 1 / diag(A) (an entry of diag(A)
/// equal to 0 gives inf, as `1 / A.diagonal()` in NumPy). Asynchronous.
/// @param A [n, n] CSR matrix. @returns an [n, n] operator of A's dtype.
/// @throws cusci::value_error when A is not square.
/// SciPy: `LinearOperator` built from `scipy.sparse.diags(1 / A.diagonal())`.
linear_operator jacobi(const csr_matrix& A);

/// Keyword arguments of `cg`, SciPy's names and defaults.
struct cg_options {
  /// [n] or [n, 1] starting guess (float32/float64/any real dtype; converted); none: zeros.
  std::optional<ndarray> x0{};
  /// Relative tolerance: stop when norm(r) < max(rtol * norm(b), atol).
  double rtol = 1e-5;
  /// Absolute tolerance (>= 0).
  double atol = 0.0;
  /// Maximum number of iterations; none: 10 * n.
  std::optional<std::int64_t> maxiter{};
  /// Preconditioner approximating inv(A): a csr_matrix, a linear_operator or `jacobi(A)`.
  std::optional<linear_operator> M{};
  /// Called after each iteration with the current iterate x [n] (a live view: copy it to keep it).
  std::function<void(const ndarray&)> callback{};
};

/// Result of `cg`: SciPy's `(x, info)`, plus the number of iterations done.
struct cg_result {
  /// [n] solution, dtype as SciPy's (float32 only when both A and b are float32).
  ndarray x;
  /// 0: converged; > 0: not converged after `info` iterations (== maxiter).
  std::int64_t info = 0;
  /// Iterations performed (the number of callback calls). Not in SciPy.
  std::int64_t iterations = 0;
};

/// Solves A x = b with the conjugate gradient method, A symmetric positive definite, exactly as
/// SciPy 1.18's `cg`: r0 = b - A x0; each iteration checks `norm(r) < atol'` with
/// atol' = max(atol, rtol * norm(b)) first, then z = M r, rho = r.z, p = z + (rho / rho_prev) p,
/// q = A p, alpha = rho / p.q, x += alpha p, r -= alpha q, callback(x). b == 0 returns x = 0, info 0.
/// There is no breakdown test (SciPy has none in cg): a zero p.q gives inf/nan and info = maxiter.
/// For a CSR A with no M or a Jacobi M the vector updates and dot products are fused with a custom
/// CSR SpMV into three kernels an iteration; the norm of r is read from pinned memory each iteration
/// (the next iteration's kernels are enqueued before the host waits). Dot products are accumulated in
/// float64 for both value dtypes.
/// Synchronizes (once an iteration).
/// @param A [n, n] csr_matrix or linear_operator, float32/float64.
/// @param b [n] or [n, 1], real dtype (non-float converted to float64).
/// @throws cusci::value_error: A not square ("expected square matrix, but got shape=..."), b or x0 of
///         the wrong shape ("shapes of A (n, n) and b (m,) are incompatible"), M of another shape
///         ("matrix and preconditioner have different shapes"), atol < 0; cusci::type_error for
///         complex b. All raised before any device work.
/// SciPy: `scipy.sparse.linalg.cg(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
/// callback=None)`. Deviations: no complex; `iterations` added; float32 dots accumulate in float64.
/// Reference: Hestenes & Stiefel (1952); Barrett et al., "Templates for the Solution of Linear
/// Systems" (1994), Fig. 2.5.
cg_result cg(const linear_operator& A, const ndarray& b, const cg_options& options = {});

}  // namespace cusci::sparse::linalg
