#pragma once
// Internal interface of the csgraph traversal family: the host algorithms (strongly connected
// components, depth-first order, reference breadth-first order, tree building) over host CSR arrays,
// and the device entry points implemented in traversal_kernels.cu. Host functions are also tested
// directly by tests/sparse/csgraph/traversal (host test).

#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

namespace cusci::sparse::csgraph::detail {

/// Host CSR adjacency (int32 indices, int64 row pointers so that any nnz fits).
struct host_adjacency {
  std::int32_t n = 0;
  std::vector<std::int64_t> indptr;  // [n + 1]
  std::vector<std::int32_t> indices;
};

/// Transposed adjacency: row j lists the i with a stored [i, j], in increasing i (stable), as SciPy's
/// csgraph.T.tocsr().
host_adjacency transpose_host(const host_adjacency& g);

/// Strongly connected components numbered as SciPy 1.18.1 (Tarjan / Tarjan-Zwick iterative DFS, roots
/// in increasing order, components numbered in emission order). labels [n]. Returns the count.
std::int32_t scc_host(const host_adjacency& g, std::int32_t* labels);

/// Weakly connected components numbered by lowest node (reference for tests).
std::int32_t weak_cc_host(const host_adjacency& g, std::int32_t* labels);

/// SciPy's depth-first order from `start` (gt: the transpose for undirected, else nullptr).
/// order [n] (first `return` entries valid), pred [n] (filled with -9999 first). Returns the length.
std::int64_t dfs_host(const host_adjacency& g, const host_adjacency* gt, std::int32_t start, std::int32_t* order,
                      std::int32_t* pred);

/// SciPy's breadth-first order (reference for tests; same contract as dfs_host).
std::int64_t bfs_host(const host_adjacency& g, const host_adjacency* gt, std::int32_t start, std::int32_t* order,
                      std::int32_t* pred);

/// reconstruct_path over host arrays: rows of the tree in increasing child order. `data` of the graph
/// is float64 [nnz]. Writes the tree's CSR arrays.
void reconstruct_path_host(const host_adjacency& g, const std::vector<double>& data, const std::int64_t* pred,
                           bool directed, std::vector<std::int32_t>& t_indptr, std::vector<std::int32_t>& t_indices,
                           std::vector<double>& t_data);

// ---- device (traversal_kernels.cu) -------------------------------------------------------------

/// Weak components on the device: labels [n] int32 numbered by lowest node. Returns the count.
/// Graphs with n + nnz <= 2^22 run one cooperative kernel (hook, compress and numbering between grid
/// barriers) where the device supports cooperative launches; larger graphs a launch sequence
/// (union-find hook over all entries, flatten, device-wide scan of the roots, labels).
/// Synchronizes (reads the count; the scratch arrays are released after it).
std::int64_t weak_components_device(std::int32_t n, std::int64_t nnz, const std::int32_t* indptr,
                                    const std::int32_t* indices, std::int32_t* labels, cudaStream_t s);

/// SciPy-ordered BFS on the device. indptr2/indices2: the transpose for undirected, else nullptr.
/// order [n] (the first `return` entries written), pred [n] (written entirely). Returns the number of
/// nodes reached. Levels of at most 4096 nodes run in one thread block (one launch for a run of such
/// levels), larger levels with three grid kernels and a scan. Synchronizes (once per block launch and
/// once per grid level: each reads the frontier's end).
std::int64_t bfs_device(std::int32_t n, const std::int32_t* indptr1, const std::int32_t* indices1,
                        const std::int32_t* indptr2, const std::int32_t* indices2, std::int32_t start,
                        std::int32_t* order, std::int32_t* pred, cudaStream_t s);

/// construct_dist_matrix on the device: dense [n, n] float64 graph (non-edges +inf), pred [n, n]
/// int32, dist [n, n] out. Returns 0 on success, 1 for a predecessor out of range, 2 for a chain
/// longer than n. Synchronizes.
int dist_matrix_device(std::int64_t n, const double* graph, const std::int32_t* pred, bool directed,
                       double null_value, double* dist, cudaStream_t s);

/// Sparse laplacian core (float64): entries (row, col, val) [nnz] int64/int64/float64; writes the
/// degrees w [n] (off-diagonal sums along `axis`: 0 = column sums) and the output COO
/// (out_row, out_col, out_val) of capacity nnz + n. Returns the output nnz. Synchronizes.
std::int64_t laplacian_coo_device(std::int64_t n, std::int64_t nnz, const std::int64_t* row, const std::int64_t* col,
                                  const double* val, bool normed, int axis, double* w, std::int64_t* out_row,
                                  std::int64_t* out_col, double* out_val, cudaStream_t s);

/// Dense laplacian core in place on a float64 C-contiguous [n, n] copy `m` (symmetrized already
/// applied by the caller when asked). Writes w [n]. Asynchronous.
void laplacian_dense_device(std::int64_t n, double* m, bool normed, int axis, double* w, cudaStream_t s);

/// out[i, j] = a[i, j] + a[j, i] (float64 [n, n]). Asynchronous.
void symmetrize_dense_device(std::int64_t n, const double* a, double* out, cudaStream_t s);

}  // namespace cusci::sparse::csgraph::detail
