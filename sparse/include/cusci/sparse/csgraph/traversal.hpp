#pragma once
/// @file traversal.hpp
/// Graph traversal of cusci::sparse::csgraph: SciPy's `scipy.sparse.csgraph` connected_components,
/// breadth_first_order / breadth_first_tree and depth_first_order / depth_first_tree (SciPy 1.18.1).
///
/// Every function takes the graph as `graph_input` (any sparse matrix or a dense 2-D array, see
/// graph.hpp) and validates it as SciPy's `validate_graph` does (CSR, float64 weights, int32 indices).
/// Results are int32 device arrays (SciPy's ITYPE) on the current device; work is enqueued on the
/// current stream. Where a function "synchronizes" it waits for the current stream (it reads a count).

#include <cstdint>
#include <string_view>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/csgraph/graph.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph {

/// SciPy's NULL_IDX: the predecessor of a node that has none (the start node, unreached nodes).
inline constexpr std::int32_t null_idx = -9999;

/// SciPy's `connection=` of connected_components.
enum class connection_kind { weak, strong };
/// Parses SciPy's strings "weak" / "strong" (case-insensitive, as SciPy's `connection.lower()`).
/// @throws cusci::value_error "connection must be 'weak' or 'strong'" otherwise. Host only.
connection_kind parse_connection(std::string_view s);

/// Keyword arguments of `connected_components` (SciPy's names and defaults). `return_labels` is
/// accepted for symmetry with SciPy; labels are always computed (they are the algorithm's output) and
/// are left empty (size 0) when it is false.
struct components_options {
  bool directed = true;
  connection_kind connection = connection_kind::weak;
  bool return_labels = true;
};

/// Result of `connected_components`: the number of components and the int32 [N] label of each node
/// (empty when `return_labels` is false).
struct components_result {
  std::int64_t n_components = 0;
  ndarray labels;
};

/// The connected components of a graph of N nodes.
///   - weak connection, or directed = false: components of the undirected graph. Labels are numbered
///     as SciPy numbers them: in increasing order of the lowest node of each component (node 0 is
///     in component 0). Runs on the GPU: lock-free union-find (hooking the larger root under the
///     smaller with atomicCAS, path halving; ECL-CC, Jaiganesh & Burtscher 2018) over every stored
///     edge, then pointer jumping and an exclusive scan of the roots (each root is its component's
///     lowest node, which gives SciPy's numbering directly). Graphs with N + stored entries <= 2^22
///     run all of it in one cooperative kernel (grid-wide barriers between the steps; per-block root
///     counts and block scans instead of the device-wide scan) where the device supports cooperative
///     launches; larger graphs run it as a sequence of kernels.
///   - strong connection with directed = true: strongly connected components, numbered in the order
///     SciPy 1.18.1 emits them (the iterative Tarjan algorithm with the improvements of Tarjan & Zwick
///     2024 that SciPy uses: DFS roots 0, 1, ..., N-1, successors in stored order; a component gets the
///     next number when its root finishes, i.e. reverse topological order). Runs on the HOST over a
///     copy of the CSR (depth-first search is inherently sequential); the labels are copied back.
/// Explicit zeros are edges; duplicate entries are parallel edges (no effect).
/// @param csgraph (N, N) graph, any sparse format or dense (dense zeros / inf / NaN are non-edges).
/// @return n_components and int32 [N] labels.
/// Synchronizes (reads the component count; the strong version copies the graph to the host).
/// @throws cusci::value_error "compressed-sparse graph must be shape (N, N)" for a non-square graph;
///         cusci::type_error for complex weights; cusci::out_of_memory.
/// SciPy: `scipy.sparse.csgraph.connected_components(csgraph, directed, connection, return_labels)`;
/// deviation: the result is a struct (n_components and labels) for every `return_labels`.
components_result connected_components(const graph_input& csgraph, const components_options& options = {});

/// Keyword arguments of the traversal orders (SciPy's names and defaults).
struct traversal_options {
  bool directed = true;
  bool return_predecessors = true;
};

/// Result of breadth_first_order / depth_first_order: the int32 nodes in visiting order (the nodes
/// reachable from i_start, i_start first) and the int32 [N] predecessor of each node in the search
/// tree (`null_idx` = -9999 for i_start and unreached nodes; empty when return_predecessors is false).
struct order_result {
  ndarray order;
  ndarray predecessors;
};

/// SciPy's breadth-first order from `i_start`, identical to SciPy's: SciPy's queue visits the nodes of
/// the current node in stored order (directed: row i of the CSR; undirected: row i of the CSR, then
/// row i of the transposed CSR, i.e. the nodes j with a stored [j, i] in increasing j), and a node is
/// claimed by the first node of the queue that reaches it. Runs on the GPU as a level-synchronous BFS
/// that reproduces this order exactly: every frontier node claims its unvisited neighbours, the
/// smallest (position of the claimer in the order, position of the edge in its adjacency) winning;
/// the nodes a frontier node won are then written in edge order at offsets given by an exclusive scan
/// of the per-node win counts.
///   - N <= 2^19 (when the visited bitmap fits in a block's shared memory beside the claim table and
///     the frontiers: always on sm_90): the whole search in one 1024-thread block, one launch, the
///     claims in a shared-memory hash table. A level of more than 4096 nodes (or claiming more than
///     4096 new nodes) is handed to the grid kernels below, and the block resumes once the levels are
///     small again.
///   - larger graphs: grid kernels (a 64-bit atomicMin per claim in global memory, a device-wide scan)
///     for frontiers of more than 4096 nodes; runs of smaller levels in one single-block kernel.
/// Self-loops and edges back to i_start are ignored, as SciPy's.
/// @param csgraph (N, N) graph (any sparse format or dense).
/// @param i_start the start node, 0 <= i_start < N.
/// @return order: int32 [number of nodes reached]; predecessors: int32 [N].
/// Synchronizes (after each block launch and each grid level, to read where the order ends).
/// @throws cusci::index_error when i_start is not in [0, N) (deviation: SciPy prints an ignored
///         IndexError and returns an empty order, or raises OverflowError for a negative i_start);
///         cusci::value_error for a non-square graph; cusci::type_error for complex weights.
/// SciPy: `scipy.sparse.csgraph.breadth_first_order(csgraph, i_start, directed, return_predecessors)`.
order_result breadth_first_order(const graph_input& csgraph, std::int64_t i_start,
                                 const traversal_options& options = {});

/// The breadth-first tree from `i_start`: the (N, N) float64 CSR matrix with an entry [p, c] for every
/// tree edge p -> c (p = predecessor of c). Its weight is, as SciPy's `reconstruct_path`: directed,
/// the sum of the stored entries [p, c] (0 kept as an explicit zero); undirected, the smaller of the
/// sums of [p, c] and [c, p] where a zero (or missing) side counts as infinity (so an edge whose both
/// sides are zero has weight inf). Entries of each row are in increasing column order (SciPy's order
/// inside a row follows np.argsort and is unspecified). The order runs on the GPU; the tree is built
/// as `reconstruct_path` builds it (see predecessors.hpp).
/// Synchronizes. @throws as breadth_first_order.
/// SciPy: `scipy.sparse.csgraph.breadth_first_tree(csgraph, i_start, directed)`.
csr_matrix breadth_first_tree(const graph_input& csgraph, std::int64_t i_start, bool directed = true);

/// SciPy's depth-first order from `i_start`, identical to SciPy's iterative DFS: from the node on top
/// of the stack, descend into the first unvisited node of its stored adjacency (undirected: row i of
/// the CSR first, then row i of the transposed CSR); pop when none is left. Runs on the HOST over a
/// copy of the CSR (depth-first search is inherently sequential); results are copied back.
/// @return order: int32 [number of nodes reached]; predecessors: int32 [N] (`null_idx` for none).
/// Synchronizes. @throws as breadth_first_order.
/// SciPy: `scipy.sparse.csgraph.depth_first_order(csgraph, i_start, directed, return_predecessors)`.
order_result depth_first_order(const graph_input& csgraph, std::int64_t i_start,
                               const traversal_options& options = {});

/// The depth-first tree from `i_start` (CSR, N x N, weights and row order as breadth_first_tree).
/// The order runs on the host (depth_first_order). Synchronizes. @throws as breadth_first_order.
/// SciPy: `scipy.sparse.csgraph.depth_first_tree(csgraph, i_start, directed)`.
csr_matrix depth_first_tree(const graph_input& csgraph, std::int64_t i_start, bool directed = true);

}  // namespace cusci::sparse::csgraph
