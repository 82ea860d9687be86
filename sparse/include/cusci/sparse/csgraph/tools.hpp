#pragma once
/// @file tools.hpp
/// Conversions between the graph representations of `scipy.sparse.csgraph` (its `_tools` module):
/// dense arrays with a null value, CSR matrices and masked arrays.
///
/// numpy.ma masked arrays have no counterpart in cusci::ndarray: `masked_graph` holds the value array
/// and the mask (true where an entry is masked, i.e. not an edge), as `np.ma.MaskedArray.data` and
/// `.mask`.
///
/// Stream behaviour: work is enqueued on the current stream; functions that build a CSR matrix read
/// the edge count back and synchronize.

#include <optional>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/csgraph/graph.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::csgraph {

/// A masked dense graph: `data` (N, N), `mask` (N, N) bool, true where the entry is not an edge.
/// `fill_value` is the masked array's fill value (informational; NumPy's default 1e20 for float data
/// when no null value was given).
/// SciPy: the `numpy.ma.MaskedArray` that csgraph's masked functions take and return.
struct masked_graph {
  ndarray data;
  ndarray mask;
  double fill_value = 1e20;
};

/// Options of csgraph_from_dense / csgraph_masked_from_dense. `null_value`: the value of non-edges
/// (std::nullopt: none, SciPy's `null_value=None`); `nan_null` / `infinity_null`: NaN / +-inf entries
/// are non-edges too. `copy` (csgraph_masked_from_dense only): false lets `data` share the input when
/// it is already C-contiguous.
struct from_dense_options {
  std::optional<double> null_value = 0.0;
  bool nan_null = true;
  bool infinity_null = true;
  bool copy = true;
};

/// The CSR graph of a dense (N, N) array: every entry that is not null becomes an edge, in row-major
/// order. graph: any real dtype (bool, integers, float16/32/64), any layout. Result: float64 data,
/// int32 indices (SciPy's DTYPE / ITYPE), shape (N, N). Synchronizes (reads the edge count).
/// @throws cusci::value_error "graph should have two dimensions" / "graph should be a square array";
///         cusci::type_error for complex input.
/// SciPy: `scipy.sparse.csgraph.csgraph_from_dense(graph, null_value=0, nan_null=True,
///        infinity_null=True)`.
csr_matrix csgraph_from_dense(const ndarray& graph, const from_dense_options& o = {});

/// The dense (N, N) float64 form of a sparse graph: entries with no stored edge are `null_value`;
/// where several edges join the same pair (duplicate entries) the smallest weight is kept; a pair
/// whose stored weights are all NaN holds inf. Only CSR and CSC input (as SciPy, which also accepts
/// LIL, absent from cusci). Asynchronous.
/// @throws cusci::value_error "csgraph must be sparse" (dense input), "csgraph must be lil, csr, or csc
///         format", "csgraph should be a square matrix"; cusci::type_error for complex weights.
/// SciPy: `scipy.sparse.csgraph.csgraph_to_dense(csgraph, null_value=0)`.
ndarray csgraph_to_dense(const graph_input& csgraph, double null_value = 0.0);

/// A masked graph from a dense (N, N) array: `data` a copy of graph in its dtype (or graph itself with
/// `o.copy == false` when it is C-contiguous), `mask` true where the entry equals null_value, is NaN
/// (nan_null) or +-inf (infinity_null); `fill_value` the null value (1e20 with none). Asynchronous.
/// @throws cusci::value_error "graph should have two dimensions" / "graph should be a square array";
///         cusci::type_error for complex input.
/// SciPy: `scipy.sparse.csgraph.csgraph_masked_from_dense(graph, null_value=0, nan_null=True,
///        infinity_null=True, copy=True)`.
masked_graph csgraph_masked_from_dense(const ndarray& graph, const from_dense_options& o = {});

/// The CSR graph (float64 data, int32 indices) of the unmasked entries of a masked graph, in row-major
/// order; unmasked zeros are stored as explicit zero edges. Synchronizes.
/// @throws cusci::value_error "graph should have two dimensions" / "graph should be a square array",
///         or when mask's shape differs from data's; cusci::type_error for a non-bool mask or complex data.
/// SciPy: `scipy.sparse.csgraph.csgraph_from_masked(graph)`.
csr_matrix csgraph_from_masked(const masked_graph& graph);

/// The masked (N, N) float64 form of a sparse graph: `data` as `csgraph_to_dense(csgraph, NaN)` and
/// `mask` true where that value is not finite (non-edges, and infinite-weight or all-NaN edges, as
/// SciPy's `np.ma.masked_invalid`); fill_value 1e20. CSR and CSC input. Asynchronous.
/// @throws as csgraph_to_dense.
/// SciPy: `scipy.sparse.csgraph.csgraph_to_masked(csgraph)`.
masked_graph csgraph_to_masked(const graph_input& csgraph);

}  // namespace cusci::sparse::csgraph
