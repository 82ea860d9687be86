#pragma once
// Internal interface shared by the csgraph families (sparse/src/csgraph/<family>/): SciPy's
// validate_graph, the device CSR every algorithm works on, and small device utilities.
// Implemented in common/graph.cpp (host) and common/graph_kernels.cu (device).

#include <cstdint>
#include <limits>
#include <string>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/csgraph/graph.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph::detail {

/// SciPy's `validate_graph(csgraph, directed, csr_output=True, dense_output=False)`: the graph as a
/// CSR matrix with float64 data and int32 indices (SciPy's DTYPE / ITYPE), shape (N, N).
///   - sparse input: `tocsr()` (COO/DIA sum duplicates; CSR keeps duplicates and the index order; CSC is
///     transposed when !directed, as SciPy does, else converted), BSR also `eliminate_zeros()`; float64.
///   - dense input (any real dtype, any layout, 2-D): `csgraph_from_dense(g, null_value_in,
///     nan_null, infinity_null)`.
/// `fn` names the public function in messages ("cusci::sparse::csgraph::dijkstra").
/// @throws value_error "compressed-sparse graph must be shape (N, N)" / "... must be 2-D" (SciPy's text),
///         type_error for complex or float16 weights. Synchronizes for dense input (counts edges).
struct validate_options {
  double null_value_in = 0.0;
  bool null_value_none = false;  // csgraph_from_dense's null_value=None: no value is null
  bool infinity_null = true;
  bool nan_null = true;
  bool copy_if_sparse = false;
};
csr_matrix validate_graph_csr(const graph_input& g, bool directed, const std::string& fn,
                              const validate_options& o = {});

/// SciPy's `validate_graph(csgraph, directed, dense_output=True)`: a C-contiguous (N, N) float64 array
/// where non-edges are `null_value_out` (default inf). Dense input: null entries (null_value_in, +-inf,
/// NaN per the options) become null_value_out. Sparse input: `csgraph_to_dense(g, null_value_out)`
/// (parallel edges: the smallest weight; NaN weights leave inf). Asynchronous.
ndarray validate_graph_dense(const graph_input& g, bool directed, const std::string& fn,
                             double null_value_out = std::numeric_limits<double>::infinity(),
                             const validate_options& o = {});

/// A dense graph argument after SciPy's checks ("graph should have two dimensions", "graph should be a
/// square array"; complex -> type_error) as a C-contiguous float64 array (a view when it already is one).
/// Asynchronous.
ndarray dense_f64(const ndarray& g, const std::string& fn);

/// SciPy's csgraph_from_dense on a 2-D array of any real dtype: CSR float64/int32 of the entries that
/// are not null (value != null_value unless null_value_none; not +-inf if infinity_null; not NaN if
/// nan_null), row-major order. Synchronizes (reads the edge count).
csr_matrix from_dense(const ndarray& dense, const validate_options& o, const std::string& fn);

/// SciPy's csgraph_to_dense on a CSR matrix (any real value dtype, int32/int64 indices): (N, M) float64,
/// C-contiguous; a cell with stored entries holds their minimum (inf when every one is NaN), others
/// `null_value`. Asynchronous.
ndarray csr_to_dense_min(const csr_matrix& g, double null_value);

/// The row index of each stored entry of a CSR graph (int32 [nnz]). Asynchronous.
ndarray row_of_entries(const csr_matrix& g);

/// The symmetrized graph of an undirected problem: the CSR (float64/int32, rows sorted) of G + G^T
/// where, for each pair, both directions carry every stored edge (parallel edges kept). Many undirected
/// algorithms run on it. Synchronizes.
csr_matrix symmetrize_union(const csr_matrix& g);

/// Message prefix "fn: ".
inline std::string msg(const std::string& fn, const std::string& what) { return fn + ": " + what; }

}  // namespace cusci::sparse::csgraph::detail
