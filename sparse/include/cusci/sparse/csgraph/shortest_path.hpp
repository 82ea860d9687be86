#pragma once
/// @file shortest_path.hpp
/// Shortest paths of cusci::sparse::csgraph: SciPy's `shortest_path`, `dijkstra`, `bellman_ford`,
/// `johnson`, `floyd_warshall`, `yen` and `NegativeCycleError` (scipy.sparse.csgraph, module
/// `_shortest_path`, SciPy 1.18.1).
///
/// Conventions (SciPy's):
///   - the graph is any sparse matrix or a dense (N, N) array (`graph_input`, see graph.hpp): stored
///     sparse entries are edges (explicit zeros are edges of weight 0, parallel edges: the smallest
///     weight counts), dense zeros / +-inf / NaN are non-edges;
///   - distances are float64, `inf` where a node cannot be reached; predecessors are int32 with
///     -9999 (`null_predecessor`) where there is none (the source itself, unreachable nodes);
///   - `indices`: none -> every node is a source, result (N, N); a scalar -> result (N,); an array of
///     shape S -> result S + (N,) (negative indices count from the end, as SciPy);
///   - `unweighted = true`: every edge weighs 1; `directed = false`: every edge can be travelled both
///     ways (where [i, j] and [j, i] are both stored the smaller weight counts);
///   - where several shortest paths exist, the predecessors may name any of them (SciPy: "output may
///     vary"); each predecessor realises the distance (dist[p] + w(p, v) == dist[v]).
///
/// Where it runs: Dijkstra, Bellman-Ford and Johnson relax on the GPU, in one of two ways.
///   - Single-block path (small graphs, non-negative weights): when no weight is negative (or
///     `unweighted`), N <= 2^17 and the CSR that is relaxed holds at most 2^19 entries (an undirected
///     graph's holds both directions), each source row runs in one thread block of 1024 threads:
///     near-far delta-stepping (Meyer & Sanders 2003; Davidson et al., IPDPS 2014) with delta = the
///     mean finite weight, its queue bitmaps and the heads of its near queues in shared memory, then a
///     breadth-first search over the "tight" edges (dist[u] + w == dist[v]) for the predecessors.
///     This covers dijkstra, bellman_ford and johnson without negative weights, and johnson's
///     relaxation of the reweighted graph.
///   - Grid path (everything else: larger graphs, negative weights, Johnson's potentials, a device
///     that cannot give the block its shared memory): a frontier-based, asynchronous Bellman-Ford / work-queue
///     relaxation inside one persistent cooperative kernel, batched over many sources, 64-bit
///     atomicMin on the distances; predecessors by the same tight-edge breadth-first search.
/// Both yield an acyclic predecessor tree. Floyd-Warshall is a blocked (tiled, 3-phase) GPU kernel on
/// the dense matrix. Yen runs on the HOST (see `yen`). Every function synchronizes (it reads sizes,
/// flags or checks for negative cycles); dijkstra, bellman_ford and johnson may return before a
/// single-block relaxation has finished (see dijkstra).

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/sparse/csgraph/graph.hpp"

namespace cusci::sparse::csgraph {

/// SciPy's NegativeCycleError: the graph has a cycle of negative total weight (Bellman-Ford, Johnson,
/// Floyd-Warshall, Yen; also cusci's dijkstra, see there). SciPy derives it from `Exception`, not from
/// ValueError; cusci derives it from `cusci::error` directly (catchable as cusci::error, not as
/// value_error).
class negative_cycle_error : public cusci::error {
 public:
  using cusci::error::error;
};

/// The predecessor value meaning "no predecessor" (SciPy's NULL_IDX).
inline constexpr std::int32_t null_predecessor = -9999;

/// SciPy's `indices` argument: none (the default: every node), one node (a scalar: 1-D results) or
/// an array of nodes of any shape (results of shape indices.shape + (N,)). Negative values count from
/// the end (i += N), as SciPy. Converts implicitly from an integer, `{i, j, ...}`, a
/// std::vector<int64_t> and a device ndarray (any real dtype, converted to int32 as NumPy's
/// `astype`: floats truncate; reading it synchronizes).
class node_indices {
 public:
  /// None: every node, in order.
  node_indices() = default;
  node_indices(std::int64_t i) : set_(true), scalar_(true), values_{i} {}  // NOLINT: SciPy's int
  node_indices(int i) : node_indices(static_cast<std::int64_t>(i)) {}        // NOLINT
  node_indices(std::initializer_list<std::int64_t> v)                          // NOLINT
      : set_(true), values_(v), shape_{static_cast<std::int64_t>(v.size())} {}
  node_indices(std::vector<std::int64_t> v)  // NOLINT
      : set_(true), values_(std::move(v)), shape_{static_cast<std::int64_t>(values_.size())} {}
  node_indices(const ndarray& a) : set_(true), array_(a) {}  // NOLINT: array_like

  /// Whether indices were given.
  bool has_value() const noexcept { return set_; }
  bool is_scalar() const noexcept { return scalar_; }
  /// The host values given (empty for an ndarray form).
  const std::vector<std::int64_t>& values() const noexcept { return values_; }
  /// The shape of the vector form ({} for a scalar).
  const shape_t& shape() const noexcept { return shape_; }
  /// The device array form, if given as an ndarray.
  const std::optional<ndarray>& array() const noexcept { return array_; }

 private:
  bool set_ = false;
  bool scalar_ = false;
  std::vector<std::int64_t> values_{};
  shape_t shape_{};
  std::optional<ndarray> array_{};
};

/// What the shortest-path functions return. Fields not requested are empty arrays (shape (0,)).
struct paths_result {
  ndarray dist_matrix;   ///< float64, shape (N, N), indices.shape + (N,), or (N,) with min_only
  ndarray predecessors;  ///< int32, same shape as dist_matrix (return_predecessors only)
  ndarray sources;       ///< int32 (N,) (dijkstra with min_only and return_predecessors only)
};

/// SciPy's `method` of shortest_path: 'auto', 'FW', 'D', 'BF', 'J'.
enum class shortest_path_method { auto_select, FW, D, BF, J };
/// Parses SciPy's strings "auto", "FW", "D", "BF", "J" (case-sensitive, as SciPy).
/// @throws cusci::value_error "unrecognized method 'X'" (SciPy's text). Host only.
shortest_path_method parse_shortest_path_method(std::string_view s);

/// Keyword arguments of `shortest_path` (SciPy's names, order and defaults).
struct shortest_path_options {
  shortest_path_method method = shortest_path_method::auto_select;
  bool directed = true;
  bool return_predecessors = false;
  bool unweighted = false;
  bool overwrite = false;
  node_indices indices{};
};

/// Shortest paths with the method chosen as SciPy's: 'auto' picks Floyd-Warshall when no indices are
/// given and the graph has at least N*N/4 edges (sparse: stored entries, duplicates included; dense:
/// finite nonzero entries), else Johnson if any edge weight is negative, else Dijkstra; then calls
/// `floyd_warshall`, `dijkstra`, `bellman_ford` or `johnson` (see those; GPU).
/// @returns dist_matrix and (return_predecessors) predecessors, shapes as the chosen function's.
/// Synchronizes ('auto' scans the weights on the device first). @throws cusci::value_error "Cannot
/// specify indices with method == 'FW'." (method FW with indices; 'auto' never chooses FW when indices
/// are given), and whatever the chosen function throws (indices out of range, graph shape errors, a
/// COO/DIA/BSR graph for FW); negative_cycle_error; cusci::type_error for complex weights.
/// SciPy: `scipy.sparse.csgraph.shortest_path(csgraph, method, directed, return_predecessors,
/// unweighted, overwrite, indices)`.
paths_result shortest_path(const graph_input& csgraph, const shortest_path_options& options = {});

/// Keyword arguments of `dijkstra` (SciPy's names, order and defaults).
struct dijkstra_options {
  bool directed = true;
  node_indices indices{};
  bool return_predecessors = false;
  bool unweighted = false;
  /// Largest distance computed (nodes farther than `limit` are reported unreachable); >= 0.
  double limit = std::numeric_limits<double>::infinity();
  /// One distance per node: from the nearest of the sources (result (N,)); with return_predecessors
  /// also `sources` (the source each node is reached from, -9999 when unreachable).
  bool min_only = false;
};

/// Single/multi-source shortest paths on a graph with non-negative weights. Runs on the GPU, many
/// sources at once, in one of two ways (see the file comment):
///   - when no weight is negative (or `unweighted`), N <= 2^17, the relaxed CSR holds at most 2^19
///     entries (stored entries, explicit zeros and duplicates included; undirected: those of the
///     graph and its transpose) and the device gives a block of 1024 threads 3 * ceil(N / 32) + 4096
///     words of dynamic shared memory (plus about 24 KiB of fixed scratch): each source row (one row
///     with min_only) runs in one thread block (a block takes further rows in turn when there are
///     more rows than resident blocks): near-far delta-stepping (Meyer & Sanders,
///     "Delta-stepping: a parallelizable shortest path algorithm", J. Algorithms 2003; Davidson et
///     al., "Work-Efficient Parallel GPU Methods for Single-Source Shortest Paths", IPDPS 2014) with
///     delta = the mean of the finite weights: nodes improved to at most the threshold are relaxed in
///     the next round, the others wait in a far pile until the threshold (raised by delta) reaches
///     them; the edges of up to 1024 queued nodes are spread over the threads, each relaxed with a
///     64-bit atomicMin. The membership bitmaps of the two near queues and of the far pile are in
///     shared memory, and so are the first 2048 entries of each near queue; further entries and the
///     far pile are in global memory. Then a breadth-first search over the tight edges in the same
///     block gives the predecessors;
///   - otherwise: a label-correcting work-queue relaxation (asynchronous Bellman-Ford over a
///     frontier, atomicMin on the 64-bit distance words; one persistent cooperative kernel, one block
///     alone while the frontier is small), then the breadth-first pass over tight edges.
/// Distances equal SciPy's (the same sums of float64 weights along a shortest path; where several
/// paths of equal length round differently, the smallest rounding is kept). A node at distance
/// > limit (or when limit is NaN, every node but the sources) is unreachable, as SciPy.
/// Negative weights: SciPy warns ("Graph has negative weights: dijkstra will give inaccurate results
/// ...", UserWarning) and returns the result of its label-setting order; cusci issues the same
/// warning through cusci::warn and returns the exact shortest paths (as bellman_ford), throwing
/// negative_cycle_error where a negative cycle is reachable (deviation: SciPy returns a wrong answer).
/// @returns dist_matrix float64 (indices.shape + (N,), (N, N) without indices, (N,) with min_only);
///          predecessors int32 (same shape; return_predecessors); sources int32 (N,) (min_only and
///          return_predecessors).
/// Synchronizes: always for the weight scan, before any relaxation; on the single-block path the
/// relaxation and the predecessor search are then enqueued on the current stream and the function
/// returns without waiting for them (the results are complete in stream order); on the other path it
/// returns when they are done. @throws cusci::value_error "indices out of range 0...N", "limit must
/// be >= 0", graph shape errors; cusci::type_error for complex weights; negative_cycle_error
/// (negative weights).
/// SciPy: `scipy.sparse.csgraph.dijkstra(csgraph, directed, indices, return_predecessors, unweighted,
/// limit, min_only)` (no return_sparse_dist).
paths_result dijkstra(const graph_input& csgraph, const dijkstra_options& options = {});

/// Keyword arguments of `bellman_ford` (SciPy's names, order and defaults).
struct bellman_ford_options {
  bool directed = true;
  node_indices indices{};
  bool return_predecessors = false;
  bool unweighted = false;
};

/// Shortest paths with negative weights allowed. Runs on the GPU: frontier-based Bellman-Ford
/// relaxation batched over the sources, at most N-1 rounds (early exit when no distance changes);
/// when round N still changed something, an edge check with SciPy's tolerance (d[u] + w + 1e-15 <
/// d[v], SciPy's DTYPE_EPS) decides whether a negative cycle exists. Undirected graphs with a
/// negative edge have a negative cycle (the edge walked back and forth), as SciPy. Without negative
/// weights the relaxation is dijkstra's (no round bound; the single-block path where the graph
/// qualifies, see dijkstra).
/// @returns dist_matrix float64 (indices.shape + (N,) or (N, N)); predecessors int32 (same shape).
/// Synchronizes (as dijkstra without negative weights). @throws negative_cycle_error "Negative cycle
/// detected on node k"; cusci::value_error "indices out of range 0...N", graph shape errors;
/// cusci::type_error.
/// SciPy: `scipy.sparse.csgraph.bellman_ford(csgraph, directed, indices, return_predecessors,
/// unweighted)`.
paths_result bellman_ford(const graph_input& csgraph, const bellman_ford_options& options = {});

/// Keyword arguments of `johnson` (SciPy's names, order and defaults).
struct johnson_options {
  bool directed = true;
  node_indices indices{};
  bool return_predecessors = false;
  bool unweighted = false;
};

/// Johnson's algorithm: potentials h from a Bellman-Ford relaxation from a virtual node joined to
/// every node by a zero-weight edge (GPU, at most N rounds, negative cycles detected as in
/// bellman_ford), edges reweighted to w + h[u] - h[v] >= 0 (rounding below 0 clamped to 0), the
/// non-negative relaxation of `dijkstra` from the sources, and distances mapped back
/// (d + h[v] - h[source]). All on the GPU. Results as `bellman_ford` (distances may differ from
/// SciPy's in the last bits: the reweighting rounds, as SciPy's does).
/// Synchronizes. @throws negative_cycle_error; cusci::value_error; cusci::type_error.
/// SciPy: `scipy.sparse.csgraph.johnson(csgraph, directed, indices, return_predecessors, unweighted)`.
paths_result johnson(const graph_input& csgraph, const johnson_options& options = {});

/// Keyword arguments of `floyd_warshall` (SciPy's names, order and defaults).
struct floyd_warshall_options {
  bool directed = true;
  bool return_predecessors = false;
  bool unweighted = false;
  /// Dense C-contiguous float64 input only: the result is also written into the input array, and
  /// dist_matrix shares the input's memory (SciPy computes in place).
  bool overwrite = false;
};

/// All-pairs shortest paths on the dense (N, N) matrix. Runs on the GPU: blocked Floyd-Warshall
/// (32 x 32 tiles; per tile step the diagonal tile, then its row and column, then every other tile;
/// Venkataraman, Sahni & Mukhopadhyaya, "A blocked all-pairs shortest-paths algorithm", 2003), with
/// SciPy's predecessor rule (pred[i, j] = pred[k, j] on every strict improvement). As SciPy, the
/// diagonal is set to 0 first (negative self-loops are ignored), undirected graphs take min(d[i, j],
/// d[j, i]), unweighted sets every edge to 1.
/// @returns dist_matrix float64 (N, N); predecessors int32 (N, N).
/// Synchronizes (reads the diagonal). @throws negative_cycle_error "Negative cycle in nodes [..]"
/// when a diagonal entry ends negative; cusci::value_error "csgraph must be lil, csr, or csc format"
/// for COO, DIA and BSR graphs (SciPy's csgraph_to_dense accepts CSR and CSC only), graph shape
/// errors; cusci::type_error.
/// SciPy: `scipy.sparse.csgraph.floyd_warshall(csgraph, directed, return_predecessors, unweighted,
/// overwrite)`.
paths_result floyd_warshall(const graph_input& csgraph, const floyd_warshall_options& options = {});

/// Keyword arguments of `yen` (SciPy's keyword-only names and defaults).
struct yen_options {
  bool directed = true;
  bool return_predecessors = false;
  bool unweighted = false;
};

/// What `yen` returns.
struct yen_result {
  ndarray dist_array;    ///< float64 (k,): the lengths of the k <= K shortest loopless paths, ascending
  ndarray predecessors;  ///< int32 (k, N): row r encodes path r (-9999 off the path and at the source)
};

/// The K shortest loopless paths from `source` to `sink` (Yen, "Finding the K shortest loopless paths
/// in a network", 1971). Runs on the HOST over a copy of the graph's CSR (Dijkstra with a binary
/// heap for every spur path); with negative weights the edges are first reweighted by Bellman-Ford
/// potentials (negative cycles raise negative_cycle_error, as SciPy). Fewer than K paths when fewer
/// exist; source == sink gives the single path of length 0. Among paths of equal length the order may
/// differ from SciPy's. Path lengths are the sums of the original weights along each path.
/// Synchronizes. @throws cusci::value_error "For csgraph with shape (N, N), must have 0 <= source < N
/// and 0 <= sink < N. ..." and "negative dimensions are not allowed" (K < 0), graph shape errors;
/// negative_cycle_error.
/// SciPy: `scipy.sparse.csgraph.yen(csgraph, source, sink, K, *, directed, return_predecessors,
/// unweighted)`.
yen_result yen(const graph_input& csgraph, std::int64_t source, std::int64_t sink, std::int64_t K,
               const yen_options& options = {});

}  // namespace cusci::sparse::csgraph
