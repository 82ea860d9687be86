#pragma once
/// @file linalg/laplacian_nd.hpp
/// `LaplacianNd`: the grid Laplacian of SciPy's special sparse arrays (scipy.sparse.linalg
/// `_special_sparse_arrays.py`) with its analytic eigenvalues and eigenvectors, dense and sparse
/// forms, and a matrix-free product (a stencil kernel on the device).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::linalg {

/// The N-dimensional Laplacian of a grid of `grid_shape` points with Dirichlet, Neumann or periodic
/// boundary conditions (the negative semi-definite second difference: -2 per axis on the diagonal,
/// 1 for each neighbour along each axis), order prod(grid_shape), unknowns numbered in C order.
/// Matrix-free: products run a stencil kernel, toarray()/tosparse() build the matrix on demand.
/// Host object; the methods that return arrays enqueue on the current stream.
/// SciPy: `scipy.sparse.linalg.LaplacianNd(grid_shape, *, boundary_conditions='neumann',
/// dtype=np.int8)`.
class LaplacianNd {
 public:
  /// @param grid_shape the grid (each entry >= 1, at least one axis).
  /// @param boundary_conditions "dirichlet", "neumann" (default) or "periodic".
  /// @param dtype the matrix dtype (default int8, as SciPy): toarray()/tosparse() return it; any
  ///        integer, float or complex dtype (bool/float16 rejected).
  /// @throws cusci::value_error "Unknown value 'x' is given for 'boundary_conditions' parameter. The
  ///         valid options are 'dirichlet', 'periodic', and 'neumann' (default)." (SciPy's message), an
  ///         empty grid_shape or an entry < 1 (SciPy accepts them and fails later), an order that
  ///         overflows int64; cusci::type_error for bool/float16. Host only, no device work.
  explicit LaplacianNd(std::vector<std::int64_t> grid_shape, std::string boundary_conditions = "neumann",
                       cusci::dtype dtype = cusci::dtype::int8);

  const std::vector<std::int64_t>& grid_shape() const noexcept { return grid_shape_; }
  const std::string& boundary_conditions() const noexcept { return bc_; }
  cusci::dtype dtype() const noexcept { return dtype_; }
  /// (N, N), N = prod(grid_shape).
  shape2 shape() const noexcept { return {n_, n_}; }

  /// The eigenvalues in ascending order, float64: all N (m none), or the m largest (closest to 0),
  /// taken from the grid of the first min(grid_shape, (m,) * d) indices per axis where `min` is
  /// Python's lexicographic comparison of the two tuples, as SciPy (so the grid may differ from the
  /// elementwise minimum). Per axis of length n and index j: dirichlet -4 sin^2(pi (j+1) / (2 (n+1))),
  /// neumann -4 sin^2(pi j / (2 n)), periodic -4 sin^2(pi floor((j+1)/2) / n), summed over the axes.
  /// Ordered by a stable sort (SciPy's quicksort orders equal eigenvalues arbitrarily).
  /// Asynchronous. @param m >= 0 (m = 0: an empty array).
  /// @returns [N] or [min(m, count)] float64.
  /// @throws cusci::value_error for m < 0 (before any device work); cusci::out_of_memory.
  /// SciPy: `LaplacianNd.eigenvalues(m=None)`.
  ndarray eigenvalues(std::optional<std::int64_t> m = {}) const;

  /// The orthonormal eigenvectors of eigenvalues(m), column k for eigenvalue k: tensor products of
  /// the 1-D eigenvectors (sines/cosines of SciPy's `_ev1d`, entries of magnitude < eps set to 0),
  /// computed on the device. For equal eigenvalues the order of the columns is that of the stable
  /// sort (see eigenvalues()). Asynchronous.
  /// @returns [N, k] float64, C order. @throws cusci::value_error for m < 0; cusci::out_of_memory.
  /// SciPy: `LaplacianNd.eigenvectors(m=None)`.
  ndarray eigenvectors(std::optional<std::int64_t> m = {}) const;

  /// The dense matrix [N, N] of dtype(), built on the device (one thread an entry). Asynchronous.
  /// @throws cusci::out_of_memory. SciPy: `LaplacianNd.toarray()`.
  ndarray toarray() const;

  /// The sparse matrix in CSR form (canonical: sorted, duplicates summed, no explicit zeros), dtype(),
  /// int32 indices when they fit, else int64; built on the device. Asynchronous.
  /// SciPy: `LaplacianNd.tosparse()` (a dia_array there; convert with todia() if needed).
  /// Note: for an axis of length 1, SciPy's toarray()/tosparse() hold -1 (neumann, periodic) on the
  /// diagonal for that axis while its matvec adds 0; cusci reproduces each as SciPy does.
  csr_matrix tosparse() const;

  /// y = L x by the stencil of SciPy's `_matvec` (for each axis: -2 x + the two neighbours, wrapped
  /// for periodic, dropped at the ends for dirichlet and neumann; neumann adds x back at each end).
  /// @param x [N] or [N, k] (C order or any strides; copied when not contiguous), numeric dtype.
  /// @returns the shape of x, dtype the promotion of dtype() and x's (integers: float64).
  /// Asynchronous. @throws cusci::value_error "dimension mismatch" when x.shape[0] != N or x is not
  /// 1-D/2-D. SciPy: `LaplacianNd.matvec` / `matmat` / `@`.
  ndarray matvec(const ndarray& x) const;
  /// L is symmetric: rmatvec == matvec. SciPy: `LaplacianNd.rmatvec` (`_adjoint` returns self).
  ndarray rmatvec(const ndarray& x) const { return matvec(x); }
  ndarray operator*(const ndarray& x) const { return matvec(x); }

  /// The operator view for solvers (cg, expm_multiply, ...): matvec and rmatvec by the stencil
  /// kernel, dtype dtype() when it is a float or complex dtype, else float64 (a linear_operator
  /// cannot be integer). SciPy: the LaplacianNd object itself is the LinearOperator.
  linear_operator aslinearoperator() const;
  operator linear_operator() const { return aslinearoperator(); }  // NOLINT: implicit, as SciPy

 private:
  std::vector<std::int64_t> grid_shape_;
  std::string bc_;
  cusci::dtype dtype_;
  std::int64_t n_ = 1;
};

}  // namespace cusci::sparse::linalg
