#pragma once
/// @file spanning_tree.hpp
/// cusci::sparse::csgraph::minimum_spanning_tree (SciPy's `scipy.sparse.csgraph.minimum_spanning_tree`).

#include "cusci/sparse/csgraph/graph.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph {

/// Keyword arguments of minimum_spanning_tree (SciPy's names and defaults).
struct minimum_spanning_tree_options {
  /// SciPy: may overwrite the input's data. cusci never modifies the input; accepted for SciPy's
  /// signature and ignored.
  bool overwrite = false;
};

/// The minimum spanning tree (a forest when the graph is disconnected) of an undirected graph.
///
/// @param csgraph (N, N) graph: any sparse format or a dense array (see graph.hpp). Entry [i, j] is an
///        undirected edge {i, j} of that weight; where both [i, j] and [j, i] are stored, both are
///        candidate edges. Sparse input: explicit zeros are edges of weight 0; dense input: zeros,
///        +-inf and NaN are non-edges.
/// @return csr_matrix (N, N), float64 values, int32 indices: the tree edges, each at the position
///         where the input (as SciPy's `validate_graph(..., directed=True)` CSR, i.e. CSC and COO
///         converted by `tocsr()`, dense by csgraph_from_dense) stores it, in that CSR's order; edges of
///         weight 0 that belong to the tree are not stored (SciPy's `eliminate_zeros()`).
///
/// Which tree: SciPy runs Kruskal over the edges sorted stably by weight (NaN last), so among equal
/// weights the edge stored first in the CSR wins. cusci computes the unique minimum spanning forest
/// for the same total order (weight, then CSR position; -0.0 equal to 0.0, NaN above +inf) and
/// therefore returns exactly SciPy's tree, ties included.
///
/// Algorithm (GPU): the edges are ranked once by a stable radix sort of their weights; then Boruvka
/// rounds: every component takes its lowest-ranked outgoing edge (atomicMin over the edge list),
/// components hook along these edges (of a mutual pair the lower id stays the root), labels are
/// flattened by pointer jumping and edges inside a component are filtered out; about log2(N) rounds.
/// (O. Boruvka 1926; the GPU form follows Vineet et al., "Fast minimum spanning tree for large graphs
/// on the GPU", HPG 2009.)
///
/// Stream: runs on the current stream; synchronizes (once per Boruvka round to read the number of
/// merges, and to size the result).
/// @throws cusci::value_error "compressed-sparse graph must be shape (N, N)" for a non-square input,
///         "graph should have two dimensions" for a dense array that is not 2-D (messages prefixed
///         "cusci::sparse::csgraph::minimum_spanning_tree: "); cusci::type_error for complex weights
///         (SciPy casts them to float64 with a ComplexWarning); cusci::out_of_memory.
/// SciPy: `minimum_spanning_tree(csgraph, overwrite=False)`.
csr_matrix minimum_spanning_tree(const graph_input& csgraph, const minimum_spanning_tree_options& options = {});

}  // namespace cusci::sparse::csgraph
