#pragma once
// Internal interface of the csgraph shortest_path family: the host pieces (argument handling, the
// 'auto' rule, Yen's algorithm over host CSR arrays; shortest_path.cpp) and the device entry points
// of shortest_path_kernels.cu (the grid relaxation, Floyd-Warshall, helpers) and
// shortest_path_block.cu (the single-block relaxation of small graphs). The host functions are tested
// directly by tests/sparse/csgraph/shortest_path (host test).

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cusci/sparse/csgraph/shortest_path.hpp"

namespace cusci::sparse::csgraph::detail::sp {

/// SciPy's DTYPE_EPS (tolerance of the negative-cycle checks).
inline constexpr double dtype_eps = 1e-15;

// ---- host ------------------------------------------------------------------------------------

/// Indices resolved against N: the flattened sources (in [0, N)) and the result shape prefix
/// (indices.shape; {} for a scalar; {N} when none given).
struct resolved_indices {
  std::vector<std::int32_t> nodes;
  shape_t prefix;
  bool given = false;
};
/// SciPy's handling of `indices`: cast to int32 (as NumPy astype), negatives += N, then every value in
/// [0, N) or value_error "fn: indices out of range 0...N". Synchronizes for the ndarray form.
resolved_indices resolve_indices(const node_indices& ind, std::int64_t n, const std::string& fn);

/// N of a graph argument with SciPy's shape checks (before any device work): dense must be 2-D
/// ("graph should have two dimensions") and square ("graph should be a square array"); sparse square
/// ("compressed-sparse graph must be shape (N, N)"). Host only.
std::int64_t graph_size(const graph_input& g, const std::string& fn);

/// SciPy's 'auto' rule: FW when no indices and nk >= N*N/4, else J when negative, else D.
shortest_path_method auto_method(std::int64_t n, std::int64_t nk, bool any_negative, bool indices_given);

/// Host CSR (float64 weights).
struct host_csr {
  std::int32_t n = 0;
  std::vector<std::int64_t> indptr;
  std::vector<std::int32_t> indices;
  std::vector<double> w;
};

/// Bellman-Ford potentials from a virtual source (h[v] <= 0), for Johnson's reweighting on the host.
/// Returns -1, or a node where a negative cycle shows (SciPy's tolerance).
std::int64_t potentials_host(const host_csr& g, std::vector<double>& h);

/// Yen's K shortest loopless paths on a host CSR (directed; the caller symmetrizes undirected graphs
/// and sets unit weights). Writes the path lengths (sums of g.w along each path) and the paths (node
/// lists, source first). Throws negative_cycle_error for a negative cycle. source/sink in [0, n).
void yen_host(const host_csr& g, std::int32_t source, std::int32_t sink, std::int64_t K,
              std::vector<double>& costs, std::vector<std::vector<std::int32_t>>& paths);

/// Single-source Dijkstra on the host (binary heap; non-negative weights): dist [n], pred [n].
/// Used by the host test as a reference.
void dijkstra_host(const host_csr& g, std::int32_t source, std::vector<double>& dist,
                   std::vector<std::int32_t>& pred);

// ---- device (shortest_path_kernels.cu) ----------------------------------------------------------

/// A device CSR graph (float64 weights, int32 indices and row pointers).
struct dcsr {
  const std::int32_t* indptr = nullptr;
  const std::int32_t* indices = nullptr;
  const double* w = nullptr;
  std::int64_t n = 0;
  std::int64_t nnz = 0;
};

/// One relaxation problem.
struct relax_request {
  dcsr g;
  const std::int32_t* sources = nullptr;  ///< device [num_sources]
  std::int64_t num_sources = 0;
  bool min_only = false;        ///< one row; every source at distance 0
  bool virtual_source = false;  ///< one row; every node at distance 0 (Johnson's potentials)
  double limit = std::numeric_limits<double>::infinity();
  bool nonneg = true;  ///< all weights >= 0 (or NaN): no round bound, integer atomicMin
  double* dist = nullptr;            ///< [rows, n] out (rows = num_sources, or 1)
  std::int32_t* pred = nullptr;      ///< [rows, n] out, or nullptr
  std::int32_t* src_of = nullptr;    ///< [n] out (min_only with predecessors), or nullptr
  bool grid_only = false;            ///< never take the single-block path (lets a test run the grid
                                     ///< path on a small graph)
};
/// Runs the relaxation (and the predecessor pass): on the single-block path when
/// relax_block_device takes the request (asynchronous then), else on the grid path (one persistent
/// cooperative kernel; synchronizes). Returns -1, or a node (the source, or for virtual_source a
/// vertex) where a negative cycle was detected (grid path only: the single-block path takes
/// non-negative weights only).
std::int64_t relax_device(const relax_request& r, cudaStream_t s);

/// The single-block path (shortest_path_block.cu): for non-negative weights (nonneg, not
/// virtual_source) on a graph of at most 2^17 nodes and 2^19 stored edges, when the device gives a
/// block of 1024 threads 3 * ceil(n / 32) + 4096 words of dynamic shared memory. Each block runs whole
/// source rows (one for min_only): near-far delta-stepping with delta = the mean of the finite
/// non-negative weights, then the tight-edge breadth-first search for the predecessors. Fills dist,
/// pred and src_of as relax_device. Returns false, with nothing enqueued, when the request does not
/// qualify (num_sources == 0 without min_only included). Asynchronous.
bool relax_block_device(const relax_request& r, cudaStream_t s);

/// Count of weights < 0 among `n` float64 values (NaN is not negative), and (dense_rule) the count of
/// finite nonzero values; the negative count then only counts finite nonzero values. Synchronizes.
void scan_weights_device(const double* a, std::int64_t n, bool dense_rule, std::int64_t* nonnull,
                         std::int64_t* negative, cudaStream_t s);

/// w[e] = 1 for every e < nnz. Asynchronous.
void fill_ones_device(double* w, std::int64_t nnz, cudaStream_t s);

/// Johnson's reweighting: out[e] = max(0, w[e] + h[row] - h[col]). Asynchronous.
void reweight_device(const dcsr& g, const double* h, double* out, cudaStream_t s);
/// Johnson's mapping back: dist[r, v] += h[v] - h[src[r]] where finite. Asynchronous.
void unreweight_device(double* dist, std::int64_t rows, std::int64_t n, const std::int32_t* src, const double* h,
                       cudaStream_t s);

/// Floyd-Warshall on the C-contiguous (n, n) float64 `d` in place (non-edges +inf): diagonal set to 0,
/// unweighted -> finite off-diagonal entries 1, undirected -> min(d, d^T), then the blocked kernel;
/// pred (n, n) int32 or nullptr. Asynchronous.
void floyd_warshall_device(double* d, std::int32_t* pred, std::int64_t n, bool directed, bool unweighted,
                           cudaStream_t s);

}  // namespace cusci::sparse::csgraph::detail::sp
