#pragma once
/// @file graph.hpp
/// The graph argument of cusci::sparse::csgraph (SciPy's `scipy.sparse.csgraph`): what every csgraph
/// function takes as `csgraph`.
///
/// SciPy's conventions, which cusci keeps:
///   - A graph of N nodes is an (N, N) matrix; entry [i, j] is the weight of the edge i -> j.
///   - Sparse input (any format: csr, csc, coo, dia, bsr): every STORED entry is an edge, explicit zeros
///     included (an edge of weight 0); duplicate entries of a CSR/CSC matrix are parallel edges (COO, DIA
///     and BSR inputs are converted to CSR, which sums duplicates, as SciPy's `tocsr()`; BSR also drops
///     explicit zeros, as SciPy's `validate_graph`).
///   - Dense input: zeros, infinities (both signs) and NaN are non-edges (`null_value = 0`,
///     `infinity_null`, `nan_null` of `csgraph_from_dense`).
///   - Weights are converted to float64 (SciPy's DTYPE); complex weights are rejected.
///   - Undirected (`directed = false`): an edge i -> j can be travelled both ways, and where both [i, j]
///     and [j, i] are stored the smaller weight counts.
/// Masked arrays (numpy.ma) have no C++ counterpart in cusci::ndarray; `csgraph::masked_graph`
/// (tools.hpp) holds a value array and a mask, and `csgraph_from_masked` turns it into a graph.

#include <variant>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph {

/// A graph: any sparse matrix or a dense 2-D array (both on the current device). Converts implicitly
/// from every matrix class, from `spmatrix` and from `ndarray`, so a function taking `const
/// graph_input&` accepts all of them, as SciPy's functions accept "array_like or sparse".
/// Holds handles (no copy of the data).
class graph_input {
 public:
  graph_input(const spmatrix& s) : v_(s) {}             // NOLINT: implicit, SciPy accepts any sparse input
  graph_input(const csr_matrix& s) : v_(spmatrix(s)) {}  // NOLINT
  graph_input(const csc_matrix& s) : v_(spmatrix(s)) {}  // NOLINT
  graph_input(const coo_matrix& s) : v_(spmatrix(s)) {}  // NOLINT
  graph_input(const dia_matrix& s) : v_(spmatrix(s)) {}  // NOLINT
  graph_input(const bsr_matrix& s) : v_(spmatrix(s)) {}  // NOLINT
  graph_input(const ndarray& dense) : v_(dense) {}       // NOLINT: a dense graph

  bool is_sparse() const noexcept { return v_.index() == 0; }
  /// The sparse matrix (is_sparse() only).
  const spmatrix& sparse() const { return std::get<0>(v_); }
  /// The dense array (!is_sparse() only).
  const ndarray& dense() const { return std::get<1>(v_); }

 private:
  std::variant<spmatrix, ndarray> v_;
};

}  // namespace cusci::sparse::csgraph
