#pragma once
// Internal interface of the csgraph "flow" family (spanning trees, flows, matchings, reordering): the
// host algorithms (flow_host.cpp), testable without a GPU, and the device Boruvka MST
// (flow_kernels.cu).

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph::detail {

/// A CSR pattern (and values) in host memory.
struct host_csr {
  std::int64_t nr = 0, nc = 0;
  std::vector<std::int64_t> indptr{0};  // [nr + 1]
  std::vector<std::int32_t> indices;    // [nnz]
  std::vector<double> data;             // [nnz] or empty
};

/// SciPy's Reverse Cuthill-McKee over a symmetric pattern (n nodes): the reversed order (stable
/// argsort of the degrees for the start nodes).
std::vector<std::int32_t> rcm_host(const host_csr& g);

/// The neighbour order SciPy's `A + A.transpose()` gives when A's compressed arrays `a` (a CSR, or a
/// CSC's arrays read as a CSR) are not canonical (unsorted or duplicate indices): SciPy's
/// csr_binop_csr_general lists row i's entries in reverse order of first appearance in the sequence
/// (a's row i as stored, then the rows of a holding i, ascending, with repeats), entries that cancel
/// left out. `sum`: the pattern of A + A^T (symmetric, no duplicates, cancelled entries gone), rows
/// in any order.
/// Returns sum's indices reordered within each row that way (indptr unchanged). Linear time.
std::vector<std::int32_t> scipy_sum_order(const host_csr& a, const host_csr& sum);

/// SciPy's Hopcroft-Karp: x[row] = matched column or -1 (size nr), y[col] = matched row or -1 (nc).
struct hk_result {
  std::vector<std::int32_t> x, y;
  std::int64_t size = 0;
};
hk_result hopcroft_karp_host(const host_csr& g);

/// Minimum-weight full matching of a bipartite graph with nr <= nc (every row matched): for each row
/// its column. Edge weights are g.data (finite or +inf-free; the caller removed non-edges).
/// @throws value_error "<fn>: no full matching exists".
std::vector<std::int32_t> min_weight_matching_host(const host_csr& g, const std::string& fn);

/// SciPy's residual structure and a maximum flow. cap: the int32 capacities of g (one per entry).
struct flow_host_result {
  std::int64_t value = 0;
  std::vector<std::int64_t> indptr;
  std::vector<std::int32_t> indices;
  std::vector<std::int32_t> flow;
};
flow_host_result max_flow_host(std::int64_t n, const std::vector<std::int64_t>& indptr,
                               const std::vector<std::int32_t>& indices, const std::vector<std::int32_t>& cap,
                               std::int32_t source, std::int32_t sink, bool dinic);

/// Reads a CSR matrix to the host (indices as int32, indptr as int64; values as float64 if with_data).
host_csr to_host_csr(const csr_matrix& m, bool with_data);

/// SciPy's Reverse Cuthill-McKee permutation (int32 [n] on the device) of the symmetric pattern
/// (indices, indptr) of n nodes (any integer dtypes, indices < 2^31). See reordering.hpp.
ndarray rcm_ordering(const ndarray& indices, const ndarray& indptr, std::int64_t n);

/// The Boruvka minimum spanning forest on the device of a validated (N, N) float64/int32 CSR graph:
/// SciPy's result (see spanning_tree.hpp).
csr_matrix mst_boruvka(const csr_matrix& g);

}  // namespace cusci::sparse::csgraph::detail
