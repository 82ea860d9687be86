#pragma once
/// @file predecessors.hpp
/// Predecessor tools of cusci::sparse::csgraph: SciPy's `construct_dist_matrix` and
/// `reconstruct_path` (scipy.sparse.csgraph, module `_tools`, SciPy 1.18.1).

#include <cstdint>
#include <limits>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/csgraph/graph.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph {

/// Keyword arguments of `construct_dist_matrix` (SciPy's names and defaults).
struct dist_matrix_options {
  bool directed = true;
  double null_value = std::numeric_limits<double>::infinity();
};

/// The (N, N) float64 matrix of the lengths of the paths encoded by a predecessor matrix: for row i,
/// the path to j is j <- predecessors[i, j] <- ... <- i, and dist[i, j] is the sum of the weights of its
/// edges (a non-edge weighs inf). As SciPy: dist[i, i] = 0; dist[i, j] = null_value when
/// predecessors[i, j] = -9999 (j != i); a path that stops at -9999 before reaching i keeps the sum
/// of the edges walked. Undirected: the weight of {a, b} is the smaller of [a, b] and [b, a], a zero
/// (dense) or missing entry counting as inf. Parallel sparse edges: the smallest weight (SciPy's
/// csgraph_to_dense). Runs on the GPU: one thread per (i, j) walks its path.
/// @param graph (N, N) graph, any sparse format or dense (dense zeros / inf / NaN are non-edges).
/// @param predecessors (N, N) int32 predecessor matrix (as returned by shortest_path).
/// Synchronizes (checks the predecessor values after the walk).
/// @throws cusci::value_error "graph and predecessors must have the same shape", a non-square graph,
///         or a predecessor chain that does not reach i within N steps (a cycle: SciPy loops forever);
///         cusci::type_error "predecessors must be int32" (SciPy's TypeError);
///         cusci::index_error for a predecessor outside [0, N) other than -9999 (SciPy reads out of
///         bounds).
/// SciPy: `scipy.sparse.csgraph.construct_dist_matrix(graph, predecessors, directed, null_value)`.
ndarray construct_dist_matrix(const graph_input& graph, const ndarray& predecessors,
                              const dist_matrix_options& options = {});

/// The tree encoded by a predecessor list, as an (N, N) float64 CSR matrix with an entry [p, c] for
/// every node c with predecessor p = predecessors[c] >= 0 (negative values: no predecessor). Entry
/// weights as SciPy: directed, the sum of the stored entries [p, c] of the graph (0 when none);
/// undirected, min(s(p, c), s(c, p)) where s is that sum and a 0 counts as inf. Rows list their
/// children in increasing index order (SciPy's order inside a row follows np.argsort, unspecified).
/// Runs on the HOST over copies of the CSR and of the predecessors (the result is copied back).
/// @param csgraph (N, N) graph, any sparse format or dense.
/// @param predecessors [N] int32 or int64.
/// Synchronizes.
/// @throws cusci::value_error for a non-square graph or predecessors that are not of shape (N,);
///         cusci::index_error for a predecessor >= N; cusci::type_error for non-integer predecessors.
/// SciPy: `scipy.sparse.csgraph.reconstruct_path(csgraph, predecessors, directed)`.
csr_matrix reconstruct_path(const graph_input& csgraph, const ndarray& predecessors, bool directed = true);

}  // namespace cusci::sparse::csgraph
