#pragma once
/// @file laplacian.hpp
/// The graph Laplacian of cusci::sparse::csgraph: SciPy's `scipy.sparse.csgraph.laplacian`
/// (SciPy 1.18.1).

#include <optional>
#include <string_view>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph {

/// SciPy's `form=` of laplacian.
enum class laplacian_form { array, function, lo };
/// Parses "array" / "function" / "lo". @throws cusci::value_error "Invalid form: '...'". Host only.
laplacian_form parse_laplacian_form(std::string_view s);

/// Keyword arguments of `laplacian` (SciPy's names and defaults).
///   - copy: accepted; the input is never modified (cusci always writes a new result).
///   - form: only `array` is implemented; `function` and `lo` throw not_implemented_error.
///   - dtype: the result dtype; none: the input's (integer input with normed = true: float64).
struct laplacian_options {
  bool normed = false;
  bool return_diag = false;
  bool use_out_degree = false;
  bool copy = true;
  laplacian_form form = laplacian_form::array;
  std::optional<cusci::dtype> dtype{};
  bool symmetrized = false;
};

/// Result of the sparse laplacian: the Laplacian and, when return_diag, the [N] array of degrees
/// (normed: their square roots, 1 for isolated nodes); else `diag` is empty (size 0).
struct sparse_laplacian_result {
  spmatrix laplacian;
  ndarray diag;
};
/// Result of the dense laplacian.
struct dense_laplacian_result {
  ndarray laplacian;
  ndarray diag;
};

/// The Laplacian L = D - A of a sparse graph, as SciPy computes it: with `symmetrized` A becomes
/// A + A^T first (summed, zeros dropped: SciPy's sparse addition); the degrees are the column sums
/// (row sums with use_out_degree) of the off-diagonal entries; L stores the negated off-diagonal
/// entries of A in A's COO order (CSC input: column-major; duplicates kept as stored) followed by the
/// N diagonal entries (zeros included). normed: entries divided by sqrt(d_i) sqrt(d_j) (an isolated
/// node counts 1) and the diagonal is 1 (0 for isolated nodes). Entry order as SciPy's, including
/// the effects of SciPy's astype, which sums duplicates when it changes the dtype: an integer graph
/// with normed is first cast to float64 with its duplicates summed (indices sorted within each row /
/// column of CSR / CSC, COO by (row, col)); and when SciPy's working dtype (float64 if normed, int64
/// for a signed integer graph, else the graph's dtype) differs from the result dtype, the result's
/// duplicates are summed, its entries then sorted by (row, col). The result is a coo_matrix as
/// SciPy's, except for DIA input without normed (SciPy and cusci: dia_matrix; cusci's DIA layout is
/// the COO result's todia()). Computed in float64 on the GPU and cast to the result dtype (float32
/// results may differ from SciPy's float32 arithmetic by rounding). Synchronizes.
/// @throws cusci::value_error "csgraph must be a square matrix or array"; cusci::not_implemented_error
///         for form = function / lo; cusci::type_error for complex input.
/// SciPy: `scipy.sparse.csgraph.laplacian(csgraph, normed, return_diag, use_out_degree, copy=, form=,
/// dtype=, symmetrized=)` for sparse input.
sparse_laplacian_result laplacian(const spmatrix& csgraph, const laplacian_options& options = {});

/// The Laplacian of a dense (N, N) graph (any real dtype), as SciPy's dense path: A (+ A^T when
/// symmetrized) with its diagonal zeroed; d = column sums (row sums with use_out_degree); L = diag(d) -
/// A, or normed L[i, j] = -A[i, j] / (sqrt(d_j) sqrt(d_i)) with diagonal 1 (0 for isolated nodes).
/// Returns a new C-contiguous (N, N) array of the result dtype. Runs on the GPU in float64.
/// Asynchronous. @throws as the sparse overload (value_error also for a non-2-D array).
dense_laplacian_result laplacian(const ndarray& csgraph, const laplacian_options& options = {});

}  // namespace cusci::sparse::csgraph
