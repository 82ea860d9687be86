#pragma once
/// @file flow.hpp
/// Flows and matchings of cusci::sparse::csgraph (SciPy's `scipy.sparse.csgraph`): maximum_flow,
/// maximum_bipartite_matching, min_weight_full_bipartite_matching and structural_rank.
///
/// These are augmenting-path algorithms (Edmonds-Karp, Dinic, Hopcroft-Karp, sparse shortest
/// augmenting paths): they run on the HOST over a copy of the device matrix, and the results are copied
/// back to the device. Every function synchronizes the current stream.

#include <cstdint>
#include <string_view>
#include <utility>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph {

// ---- maximum_flow --------------------------------------------------------------------------------

/// SciPy's `method=` strings of maximum_flow.
enum class flow_method { edmonds_karp, dinic };

/// Parses "edmonds_karp" and "dinic" (exact). Host only.
/// @throws cusci::value_error "cusci::sparse::csgraph::maximum_flow: foo method is not supported yet."
///         (SciPy's ValueError text) for any other string.
flow_method parse_flow_method(std::string_view s);

/// Keyword arguments of maximum_flow (SciPy's names and defaults).
struct maximum_flow_options {
  flow_method method = flow_method::dinic;
};

/// SciPy's `MaximumFlowResult`.
struct flow_result {
  /// The value of the maximum flow (SciPy: an integer, the sum of the source row of `flow`; exact in a
  /// double up to 2^53).
  double flow_value = 0.0;
  /// (N, N) csr_matrix, int32 values and indices: the net flow on every edge of the residual structure
  /// SciPy builds: the input's entries plus, for each stored [i, j] without a stored [j, i], an entry
  /// [j, i] (as many as needed to pair parallel edges), rows sorted by column; flow[j, i] ==
  /// -flow[i, j] for paired entries.
  csr_matrix flow{shape2{0, 0}};
};

/// A maximum flow from `source` to `sink`.
///
/// @param csgraph (N, N) csr_matrix (other formats: type_error, as SciPy) with integer values (any integer dtype; cast to int32 as SciPy's
///        `astype(np.int32)`, which wraps out-of-range values): entry [i, j] is the capacity of the
///        directed edge i -> j. Capacities <= 0 carry no flow in their direction. Explicit zeros, self
///        loops and parallel edges are kept in the structure. Unsorted indices are accepted (SciPy
///        1.18.1 fails on some of them).
/// @param source, sink in [0, N), different.
/// @return flow_result; where several maximum flows exist, `flow` is one of them (any valid maximum
///         flow: capacities respected, flow conserved at every node but source and sink).
///
/// Algorithms (host, over a copy of the CSR): Edmonds-Karp (BFS shortest augmenting paths,
/// O(V E^2)) or Dinic (BFS level graph + blocking flows with current-arc pointers, O(V^2 E)), as
/// SciPy. Runs on the host; deviation from the project's GPU methods: no GPU push-relabel (yet).
/// Stream: synchronizes.
/// @throws cusci::type_error "graph must be in CSR format" for another format; cusci::value_error
///         "graph capacities must be integers" (bool and floating dtypes), "source and sink vertices
///         must differ", "graph must be specified as a square matrix.", "source value (7) must be between 0 and 3", "sink
///         value (...) ..." (SciPy's texts, prefixed "cusci::sparse::csgraph::maximum_flow: "), in
///         SciPy's order (integer check, source == sink, square, source range, sink range); the method is a
///         flow_method (parse_flow_method throws SciPy's message for an unknown string).
/// SciPy: `maximum_flow(csgraph, source, sink, *, method='dinic')`.
flow_result maximum_flow(const spmatrix& csgraph, std::int64_t source, std::int64_t sink,
                         const maximum_flow_options& options = {});

// ---- matchings -----------------------------------------------------------------------------------

/// SciPy's `perm_type=` strings of maximum_bipartite_matching.
enum class matching_perm_type { row, column };

/// Parses "row" and "column" (exact). Host only.
/// @throws cusci::value_error for any other string. Deviation: SciPy treats every string other than
///         'column' as 'row'.
matching_perm_type parse_perm_type(std::string_view s);

/// Keyword arguments of maximum_bipartite_matching (SciPy's names and defaults).
struct maximum_bipartite_matching_options {
  matching_perm_type perm_type = matching_perm_type::row;
};

/// A maximum-cardinality matching of the bipartite graph whose biadjacency matrix is `graph`
/// (rows: one partition, columns: the other; every stored entry is an edge, explicit zeros included;
/// values are ignored).
///
/// @param graph (M, N) csr_matrix, csc_matrix or coo_matrix (any dtype; CSC and COO through `tocsr()`).
/// @return ndarray int32: perm_type row -> [N], the row matched to each column; column -> [M], the
///         column matched to each row; -1 for unmatched vertices.
/// Algorithm: Hopcroft-Karp as SciPy implements it (BFS layers from the free rows, DFS from each free
/// row in index order, neighbours in storage order), so the matching equals SciPy's. Runs on the host
/// over a copy of the pattern. Stream: synchronizes.
/// @throws cusci::type_error "graph must be in CSC, CSR, or COO format." for DIA and BSR.
/// SciPy: `maximum_bipartite_matching(graph, perm_type='row')`.
ndarray maximum_bipartite_matching(const spmatrix& graph, const maximum_bipartite_matching_options& options = {});

/// Keyword arguments of min_weight_full_bipartite_matching (SciPy's names and defaults).
struct min_weight_full_bipartite_matching_options {
  /// true: a maximum-weight full matching (the weights are negated).
  bool maximize = false;
};

/// A minimum-weight full matching (of size min(M, N)) of the bipartite graph with biadjacency matrix
/// `biadjacency` (entry [i, j]: the weight of edge {row i, column j}).
///
/// @param biadjacency (M, N) csr_matrix, csc_matrix or coo_matrix of any real or bool dtype (values cast
///        to float64). Explicit zeros and +inf entries (after negation for maximize) are not edges
///        (SciPy removes them, with a warning for zeros: cusci warns nothing).
/// @return (row_ind, col_ind), int64 and int32 [min(M, N)] as SciPy's (when M > N: int32 rows and int64
///         columns, sorted by row): the matched pairs; row_ind is 0..M-1 when M <= N.
/// Which matching: any of minimum total weight (SciPy's LAPJVsp picks one; cusci's result has the
/// same total weight, and equals SciPy's where the optimum is unique).
/// Algorithm (host, over a copy of the matrix): feasibility by Hopcroft-Karp (as SciPy), then
/// successive shortest augmenting paths (Dijkstra on reduced costs with row/column potentials; the
/// sparse Jonker-Volgenant / Hungarian scheme). Stream: synchronizes.
/// @throws cusci::type_error "graph must be in CSC, CSR, or COO format." for DIA and BSR, and for
///         complex weights; cusci::value_error "no full matching exists" (SciPy's), and for NaN or
///         -inf weights (deviation: SciPy's result is undefined for them).
/// SciPy: `min_weight_full_bipartite_matching(biadjacency, maximize=False)`.
std::pair<ndarray, ndarray> min_weight_full_bipartite_matching(
    const spmatrix& biadjacency, const min_weight_full_bipartite_matching_options& options = {});

/// The structural rank of a matrix: the size of a maximum matching of its pattern (stored entries,
/// explicit zeros included).
/// @param graph (M, N) sparse matrix, any format (DIA and BSR through `tocsr()`, where SciPy warns
///        SparseEfficiencyWarning) and any dtype.
/// Runs on the host (Hopcroft-Karp) over a copy of the pattern. Stream: synchronizes.
/// SciPy: `structural_rank(graph)` (a dense input, a TypeError there, does not compile here).
std::int64_t structural_rank(const spmatrix& graph);

}  // namespace cusci::sparse::csgraph
