#pragma once
/// @file linalg.hpp
/// `scipy.sparse.linalg` over cusci's sparse matrices: the conjugate gradient method `cg`, SciPy's
/// `LinearOperator` with its algebra, a Jacobi (diagonal) preconditioner (the ILU(0) / IC(0)
/// preconditioners: linalg/preconditioners.hpp), `norm` and `matrix_power` (both defined by the
/// products family).

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::linalg {

/// An abstract matrix given by its products with vectors and matrices (SciPy's `LinearOperator`).
/// Built from functions (the constructor), from any sparse matrix or a dense 2-D array
/// (`aslinearoperator`), by `jacobi()` and the incomplete factorizations of preconditioners.hpp, or
/// lazily from other operators: `A.adjoint()` (SciPy's `A.H`), `A.transpose()` (`A.T`), `A + B`,
/// `A - B`, `-A`, `A * B` (product), `alpha * A`, `A * alpha`, `A / alpha`, `pow(A, p)` (`A ** p`).
/// Value dtype: float32, float64, complex64 or complex128. Copies share the wrapped functions,
/// matrices and operands (an operator built from others holds them, not copies of their data).
///
/// Dtype rules (SciPy's `_get_dtype`): a sum or product has the NumPy promotion of its operands'
/// dtypes; `alpha * A` has the promotion of A's dtype with alpha taken as a weak (Python) scalar
/// (a real alpha keeps A's dtype; a complex alpha makes float32 complex64, float64 complex128);
/// `A.H`, `A.T` and `pow(A, p)` keep A's dtype. The dtype of a product's *result* is whatever the
/// wrapped functions return (NumPy promotion of operator and operand for matrices).
///
/// Stream behaviour: every product enqueues its work on the stream current when it is called;
/// built-in operators are asynchronous (user functions may synchronize). Building an operator
/// does no device work, except `aslinearoperator` of a sparse matrix that is not CSR (its tocsr(),
/// which may synchronize) and of an integer or bool array (a cast, asynchronous).
class linear_operator {
 public:
  /// `matvec(x)` receives x [cols] (contiguous; an [n, 1] argument of matvec() is passed as [n], as
  /// SciPy 1.18 does) and returns [rows] (or [rows, 1]); `matmat(X)` receives X [cols, k] as given
  /// and returns [rows, k]. They run on the current stream.
  using matvec_fn = std::function<ndarray(const ndarray&)>;

  /// @param shape (rows, cols), both >= 0. @param dt float32, float64, complex64 or complex128.
  /// @param matvec the product A x (may be empty when `matmat` is given: A x is then matmat of x as
  ///        a [cols, 1] column, as SciPy).
  /// @param rmatvec the adjoint product A^H x (x [rows] -> [cols]); empty: rmatvec() throws
  ///        not_implemented_error, as SciPy's operator without rmatvec (unless rmatmat is given).
  /// @param matmat A X for X [cols, k]; empty: one matvec per column, stacked (SciPy's default).
  /// @param rmatmat A^H X for X [rows, k]; empty: one rmatvec per column.
  /// Does no device work: the functions are stored and called later, on the calling thread; they
  /// must enqueue their work on the stream current at that time (and may synchronize if they need to).
  /// @throws cusci::value_error for a negative dimension or when both matvec and matmat are empty;
  ///         cusci::type_error for another dtype.
  /// SciPy: `scipy.sparse.linalg.LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=dt,
  /// rmatmat=None)`. Deviation: dtype is required (SciPy infers it from a product with zeros).
  linear_operator(shape2 shape, cusci::dtype dt, matvec_fn matvec, matvec_fn rmatvec = {}, matvec_fn matmat = {},
                  matvec_fn rmatmat = {});
  /// Wraps a CSR matrix (SciPy's `aslinearoperator(A)`); solvers recognize it (csr()) and use fused
  /// kernels. The operator's dtype is A's for float32/float64/complex64/complex128 values; integer and
  /// bool matrices are wrapped as float64 (cast once, asynchronously; SciPy keeps the integer dtype,
  /// which its solvers then compute in float64). rmatvec is the conjugate-transpose product.
  linear_operator(const csr_matrix& A);  // NOLINT: implicit, as SciPy accepts a sparse matrix anywhere

  shape2 shape() const noexcept { return shape_; }
  cusci::dtype dtype() const noexcept { return dtype_; }

  /// y = A x for x [cols] or [cols, 1]; returns [rows] or [rows, 1] (SciPy's `matvec`). Asynchronous
  /// unless the wrapped function synchronizes.
  /// @throws cusci::value_error "dimension mismatch" for another shape of x, or when the function
  ///         returns a result of the wrong size; whatever the wrapped function throws.
  /// SciPy: `LinearOperator.matvec(x)`. (SciPy 1.18 deprecates the [cols, 1] form; cusci keeps it.)
  ndarray matvec(const ndarray& x) const;
  /// y = A^H x for x [rows] or [rows, 1]; returns [cols] or [cols, 1] (SciPy's `rmatvec`). For a
  /// wrapped CSR matrix: the conjugate transpose product (a CSC product over the same arrays).
  /// Asynchronous unless the wrapped function synchronizes.
  /// @throws cusci::value_error "dimension mismatch"; cusci::not_implemented_error when the operator
  ///         was built from a matvec alone ("rmatvec is not defined", as SciPy).
  /// SciPy: `LinearOperator.rmatvec(x)`.
  ndarray rmatvec(const ndarray& x) const;
  /// Y = A X for X [cols, k] (any layout); returns [rows, k]. Matrices: one sparse-dense (SpMM) or
  /// dense product; function operators without matmat: one matvec per column, stacked.
  /// @throws cusci::value_error "expected a 2-d array" for X not 2-D, "dimension mismatch" for
  ///         X.shape[0] != cols or a result of the wrong shape.
  /// SciPy: `LinearOperator.matmat(X)`.
  ndarray matmat(const ndarray& X) const;
  /// Y = A^H X for X [rows, k]; returns [cols, k]. As matmat; cusci::not_implemented_error when
  /// rmatvec is not defined. SciPy: `LinearOperator.rmatmat(X)`.
  ndarray rmatmat(const ndarray& X) const;
  /// Whether rmatvec() is defined (for operators built from others: whether every operand's
  /// adjoint product that it needs is).
  bool has_rmatvec() const noexcept { return static_cast<bool>(rfn_) || static_cast<bool>(rmfn_); }
  /// A x for x 1-D or [cols, 1] (matvec), A X for X [cols, k > 1] (matmat). SciPy: `A.dot(x)`,
  /// `A @ x`, `A * x`.
  ndarray dot(const ndarray& x) const;
  ndarray operator*(const ndarray& x) const { return dot(x); }

  /// The Hermitian adjoint A^H: shape (cols, rows), same dtype; its matvec is A's rmatvec and back.
  /// No device work. SciPy: `A.H` / `A.adjoint()`.
  linear_operator adjoint() const;
  /// `adjoint()`. SciPy: `A.H`.
  linear_operator H() const { return adjoint(); }
  /// The transpose A^T: shape (cols, rows), same dtype; matvec(x) = conj(A.rmatvec(conj(x))) (the
  /// conjugations only for complex data), as SciPy. No device work. SciPy: `A.T` / `A.transpose()`.
  linear_operator transpose() const;
  /// `transpose()`. SciPy: `A.T`.
  linear_operator T() const { return transpose(); }

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

 protected:
  linear_operator() = default;
  /// For derived operators (preconditioners.hpp): an operator with no functions yet.
  linear_operator(shape2 shape, cusci::dtype dt) : shape_(shape), dtype_(dt) {}
  shape2 shape_{0, 0};
  cusci::dtype dtype_ = cusci::dtype::float64;
  matvec_fn fn_, rfn_, mfn_, rmfn_;
  std::shared_ptr<csr_matrix> csr_;
  std::shared_ptr<ndarray> diag_;

};

/// SciPy: `scipy.sparse.linalg.aslinearoperator(A)` for a CSR matrix (see the CSR constructor).
inline linear_operator aslinearoperator(const csr_matrix& A) { return linear_operator(A); }
/// SciPy: `aslinearoperator(A)` for a sparse matrix of any format (csc, coo, dia, bsr or an
/// spmatrix holding one): wrapped as its CSR form (`A.tocsr()`, which synchronizes for COO, DIA and
/// CSC with nnz >= 17, see matrix.hpp), so that solvers use their CSR kernels; products equal SciPy's
/// up to rounding (duplicates of COO are summed once). Integer and bool values: float64 (see the CSR
/// constructor).
linear_operator aslinearoperator(const spmatrix& A);
/// SciPy: `aslinearoperator(A)` for a dense array: A [m, n] (or [n], as (1, n), SciPy's atleast_2d),
/// any layout (kept by reference: later writes to A are seen). matvec / matmat: `matmul(A, x)`;
/// rmatvec / rmatmat: `matmul(A.T, x)` for real A, `conj(matmul(A.T, conj(x)))` for complex A (no
/// conjugated copy of A). float32/float64/complex64/complex128 kept; float16 wrapped as float32,
/// integer and bool as float64 (one cast). Asynchronous.
/// @throws cusci::value_error for a 0-d array or one of more than 2 dimensions (SciPy 1.18 accepts
///         batches of matrices; cusci does not).
linear_operator aslinearoperator(const ndarray& A);
/// An operator itself. SciPy: `aslinearoperator(op)`.
inline linear_operator aslinearoperator(const linear_operator& A) { return A; }

/// A + B (both (m, n)): matvec = A.matvec(x) + B.matvec(x), likewise rmatvec, matmat, rmatmat;
/// dtype: promotion of both. No device work.
/// @throws cusci::value_error "cannot add ... shape mismatch". SciPy: `A + B`.
linear_operator operator+(const linear_operator& A, const linear_operator& B);
/// A + (-1) B. SciPy: `A - B` (`A + (-B)`).
linear_operator operator-(const linear_operator& A, const linear_operator& B);
/// (-1) * A. SciPy: `-A`.
linear_operator operator-(const linear_operator& A);
/// The product A B (A (m, k), B (k, n) -> (m, n)): matvec = A.matvec(B.matvec(x)), rmatvec =
/// B.rmatvec(A.rmatvec(x)); dtype: promotion of both. No device work.
/// @throws cusci::value_error "cannot multiply ... shape mismatch". SciPy: `A * B` / `A @ B` / `A.dot(B)`.
linear_operator operator*(const linear_operator& A, const linear_operator& B);
/// alpha A: matvec = alpha * A.matvec(x), rmatvec = conj(alpha) * A.rmatvec(x) (alpha a weak scalar:
/// float32 results stay float32 for real alpha). dtype: see the class comment. No device work.
/// SciPy: `alpha * A` / `A * alpha` (`_ScaledLinearOperator`). Deviation: a scaled operator scaled
/// again is not merged into one factor (results equal up to rounding).
linear_operator operator*(std::complex<double> alpha, const linear_operator& A);
linear_operator operator*(double alpha, const linear_operator& A);
inline linear_operator operator*(const linear_operator& A, double alpha) { return alpha * A; }
inline linear_operator operator*(const linear_operator& A, std::complex<double> alpha) { return alpha * A; }
/// (1 / alpha) A. @throws cusci::value_error "Can only divide a linear operator by a nonzero
/// scalar" for alpha == 0 (SciPy divides and gets inf). SciPy: `A / alpha`.
linear_operator operator/(const linear_operator& A, double alpha);
linear_operator operator/(const linear_operator& A, std::complex<double> alpha);
/// A^p for a square A and p >= 0: p successive products (matvec, rmatvec, matmat, rmatmat); p = 0
/// returns a copy of x. dtype: A's. No device work.
/// @throws cusci::value_error "square LinearOperator expected" for a non-square A,
///         "non-negative integer expected as p" for p < 0. SciPy: `A ** p` (`_PowerLinearOperator`).
linear_operator pow(const linear_operator& A, std::int64_t p);
// Keeps std::pow visible to unqualified calls inside this namespace (pow above would hide it).
using std::pow;

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

/// SciPy's norm orders: a number p (1, -1, 2, 0, 3.5, ...), +-inf, or "fro".
enum class norm_kind { fro, p };
/// A norm order: `norm_ord::fro()`, or a number (`norm_ord(1)`, `norm_ord(INFINITY)`).
struct norm_ord {
  norm_kind kind = norm_kind::fro;
  double p = 0;
  norm_ord() = default;
  norm_ord(double value) : kind(norm_kind::p), p(value) {}  // NOLINT: implicit, as Python's ord=1
  static norm_ord fro() { return norm_ord(); }
};
/// Parses SciPy's string orders "fro" / "f" (and "inf", "-inf"). Host only.
/// @throws cusci::value_error "Invalid norm order 'x'." for any other string.
norm_ord norm_ord_from_string(std::string_view s);

/// Matrix norm (axis none): "fro" (default) = sqrt(sum |a|^2) over the summed entries; 1 / -1: max /
/// min absolute column sum; inf / -inf: max / min absolute row sum.
/// Vector norms along `axis` (0 or 1): p = inf / -inf: max / min |a|; 0: count of nonzeros (int64);
/// 1: sum |a|; 2 and "fro": sqrt(sum |a|^2) — each a 1-D [n] or [m] array as SciPy's; any other p:
/// (sum |a|^p)^(1/p) as a 2-D [1, n] / [m, 1] array (SciPy returns np.matrix there).
/// dtype: float64, except float32 for complex64 (SciPy's abs of a complex64 matrix); "fro" over all of
/// a float32 matrix is float32 (np.linalg.norm). Every norm acts on the deduplicated entries
/// (duplicates summed in A's dtype first, as SciPy's abs / power): |a + b|, not |a| + |b|.
/// @returns 0-d (matrix norm) or 1-D/2-D ndarray. Synchronizes for max/min based norms.
/// @throws cusci::not_implemented_error for matrix ord 2 / -2 (SciPy: svds / NotImplementedError);
///         cusci::value_error for ord +-1 with no columns, ord +-inf with no rows, and vector ord
///         +-inf along an axis of length 0 (zero-size reduction, as NumPy);
///         cusci::value_error "Invalid norm order for matrices." for other matrix orders;
///         cusci::index_error for an axis other than 0, 1, -1, -2.
/// SciPy: `scipy.sparse.linalg.norm(x, ord, axis)`.
ndarray norm(const spmatrix& A, norm_ord ord = {}, std::optional<int> axis = {});

/// Matrix power A^n by repeated squaring (n = 0: the identity of A's shape and dtype, CSR).
/// @param A [m, m] square, any format. @param n >= 0.
/// @returns csr_matrix [m, m], A's dtype. Synchronizes (SpGEMM).
/// @throws cusci::type_error "sparse matrix is not square" for a non-square A; cusci::value_error
///         "exponent must be >= 0" for n < 0.
/// SciPy: `scipy.sparse.linalg.matrix_power(A, n)` / spmatrix `A ** n`. Deviation: SciPy raises
/// TypeError for a non-square matrix; cusci too (type_error).
csr_matrix matrix_power(const spmatrix& A, std::int64_t n);

}  // namespace cusci::sparse::linalg

// The solver families (one header each under cusci/sparse/linalg/).
#if __has_include("cusci/sparse/linalg/krylov.hpp")
#include "cusci/sparse/linalg/krylov.hpp"
#endif
#if __has_include("cusci/sparse/linalg/preconditioners.hpp")
#include "cusci/sparse/linalg/preconditioners.hpp"
#endif
#if __has_include("cusci/sparse/linalg/direct.hpp")
#include "cusci/sparse/linalg/direct.hpp"
#endif
#if __has_include("cusci/sparse/linalg/eigen.hpp")
#include "cusci/sparse/linalg/eigen.hpp"
#endif
#if __has_include("cusci/sparse/linalg/eigs.hpp")
#include "cusci/sparse/linalg/eigs.hpp"
#endif
#if __has_include("cusci/sparse/linalg/lobpcg.hpp")
#include "cusci/sparse/linalg/lobpcg.hpp"
#endif
#if __has_include("cusci/sparse/linalg/matfuncs.hpp")
#include "cusci/sparse/linalg/matfuncs.hpp"
#endif
