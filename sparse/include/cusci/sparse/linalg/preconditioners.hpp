#pragma once
/// @file linalg/preconditioners.hpp
/// Incomplete factorization preconditioners computed on the device: ILU(0) (zero fill-in incomplete
/// LU) and IC(0) (zero fill-in incomplete Cholesky) of a CSR matrix. Each returns an
/// `incomplete_factorization`: a `linear_operator` applying M^-1 (two sparse triangular solves)
/// that every solver takes as its preconditioner `M`, with the factors themselves.
///
/// Algorithms (both exact, in the row order of the sequential algorithms, not iterative
/// approximations): one kernel factorizes all rows, a warp a row; rows are handed to warps in
/// increasing order through an atomic counter, and a row waits (spinning on a per-row ready flag in
/// global memory) only for the earlier rows it depends on, so rows of one dependency level run in
/// parallel without computing the levels first ("synchronization-free" scheduling: W. Liu, A. Li,
/// J. Hogg, I. S. Duff, B. Vinter, "A synchronization-free algorithm for parallel sparse triangular
/// solves", Euro-Par 2016). The triangular solves of every application are scheduled the same way.
/// ILU(0): Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed. (2003), Algorithm 10.4
/// (IKJ variant); IC(0): the same zero fill-in rule on the Cholesky factor (row-oriented, each
/// entry a sparse dot product of two rows of L).

#include <memory>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::linalg {

/// An incomplete factorization M = L U of a square matrix and the operator y = M^-1 x. A
/// `linear_operator` (so `options.M = ilu0(A)` works for every solver): matvec(x) solves L z = x,
/// then U y = z; rmatvec(x) applies M^-H (solves with U^H, then L^H; the conjugate transposes of the
/// factors are formed on first use); matmat / rmatmat solve column by column. The result dtype is
/// the promotion of the factors' dtype and x's (non-float x: float64). Each application allocates
/// its scratch (ready flags, [n] ints) from the pool, so an operator may be applied on several
/// streams or threads at once. Asynchronous: two kernels and two memsets a solve on the current
/// stream. Copies share the factors.
class incomplete_factorization : public linear_operator {
 public:
  /// Lower triangular factor [n, n], CSR, sorted indices, diagonal stored. ILU(0): unit diagonal
  /// (stored as explicit ones, as SuperLU's L of SciPy's spilu), pattern = the lower triangle of A's
  /// pattern. IC(0): the Cholesky factor, A ~ L L^H.
  const csr_matrix& L() const noexcept { return *L_; }
  /// Upper triangular factor [n, n], CSR, sorted, diagonal stored: ILU(0) U (pattern = the upper
  /// triangle of A's); IC(0): L^H.
  const csr_matrix& U() const noexcept { return *U_; }
  /// y = M^-1 b (matvec). SciPy: `SuperLU.solve(b)` of `spilu`.
  ndarray solve(const ndarray& b) const { return matvec(b); }

  /// Internal: made by ilu0 / ic0 (preconditioners.cu).
  struct impl;

 private:
  friend incomplete_factorization ilu0(const csr_matrix& A);
  friend incomplete_factorization ic0(const csr_matrix& A);
  incomplete_factorization(shape2 shape, cusci::dtype dt) : linear_operator(shape, dt) {}
  std::shared_ptr<const csr_matrix> L_, U_;
  std::shared_ptr<impl> impl_;
};

/// ILU(0): the incomplete LU factorization of A with no fill-in: L unit lower and U upper triangular
/// with the patterns of A's lower and upper triangles, such that (L U)[i, j] = A[i, j] on every
/// stored position (i, j) of A (Saad, Algorithm 10.4, IKJ order, pivots U[k, k] unmodified, no
/// pivoting). The pattern is A's stored entries after summing duplicates (explicit zeros belong to
/// it). Values: float32/float64/complex64/complex128 (integer and bool A: float64).
/// @param A [n, n] csr_matrix, any index dtype, any order of indices (a sorted canonical copy of the
///        index arrays is made when A is not canonical; the values are always copied).
/// @returns the factorization, usable as M of every solver.
/// Synchronizes (a few times while setting up: duplicate summation when A is not canonical, the
/// diagonal check, the zero-pivot flag, the split into L and U).
/// @throws cusci::value_error "cusci::sparse::linalg::ilu0: A must be square, got shape (m, n)";
///         cusci::type_error for float16 values (not a sparse dtype) - both before any device work;
///         cusci::runtime_error "... row i has no stored diagonal entry" or "Factor is exactly
///         singular: zero pivot in row i" (the wording of SciPy's spilu), naming the first such row.
/// SciPy: none. `scipy.sparse.linalg.spilu(A, drop_tol=0, fill_factor=1)` is not ILU(0): SuperLU's
/// ILUTP admits fill-in and drops by its own rules (on a 2-D Poisson matrix its L keeps about half of
/// ILU(0)'s entries); this is the textbook ILU(0) of Saad and of cuSPARSE's deprecated csrilu02.
incomplete_factorization ilu0(const csr_matrix& A);

/// IC(0): the incomplete Cholesky factorization of a Hermitian positive definite A with no fill-in:
/// L lower triangular with the pattern of A's lower triangle such that (L L^H)[i, j] = A[i, j] on
/// every stored position of tril(A). Only the lower triangle of A is read (as cuSPARSE's csric02).
/// Values: float32/float64/complex64/complex128 (integer and bool A: float64).
/// @param A [n, n] csr_matrix, any index dtype.
/// @returns the factorization (L() the factor, U() = L^H), usable as M of every solver; its
///          rmatvec equals its matvec (M is Hermitian).
/// Synchronizes (tril, the diagonal check, the pivot flag, the conjugate transpose of L).
/// @throws cusci::value_error when A is not square; cusci::type_error for float16 values (both before
///         any device work); cusci::runtime_error "... row i has no stored
///         diagonal entry", "... not positive definite: pivot <= 0 in row i" (the first such row; the
///         incomplete factorization of some positive definite matrices breaks down too).
/// SciPy: none (SciPy has no incomplete Cholesky); the textbook IC(0) (Saad, section 10.3.5; Meijerink
/// & van der Vorst 1977), as cuSPARSE's csric02.
incomplete_factorization ic0(const csr_matrix& A);

}  // namespace cusci::sparse::linalg
