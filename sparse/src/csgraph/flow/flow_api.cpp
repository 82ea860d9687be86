// Public functions of the csgraph "flow" family: argument checks (SciPy's, in SciPy's order, before any
// device work), transfers, and dispatch to the host algorithms (flow_host.cpp) and the device
// kernels (flow_kernels.cu).

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "csgraph/common/graph.hpp"
#include "csgraph/flow/flow_detail.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/csgraph/flow.hpp"
#include "cusci/sparse/csgraph/reordering.hpp"
#include "cusci/sparse/csgraph/spanning_tree.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::sparse::csgraph {
namespace {

const std::string kMst = "cusci::sparse::csgraph::minimum_spanning_tree";
const std::string kRcm = "cusci::sparse::csgraph::reverse_cuthill_mckee";
const std::string kFlow = "cusci::sparse::csgraph::maximum_flow";
const std::string kMbm = "cusci::sparse::csgraph::maximum_bipartite_matching";
const std::string kMwf = "cusci::sparse::csgraph::min_weight_full_bipartite_matching";
const std::string kRank = "cusci::sparse::csgraph::structural_rank";

bool is_integer_dtype(cusci::dtype t) {
  using d = cusci::dtype;
  return t == d::int8 || t == d::int16 || t == d::int32 || t == d::int64 || t == d::uint8 || t == d::uint16 ||
         t == d::uint32 || t == d::uint64;
}
bool is_complex_dtype(cusci::dtype t) { return t == cusci::dtype::complex64 || t == cusci::dtype::complex128; }

void check_csr_csc_coo(const spmatrix& g, const std::string& fn) {
  const auto f = g.format();
  if (f != sparse::format::csr && f != sparse::format::csc && f != sparse::format::coo)
    throw type_error(detail::msg(fn, "graph must be in CSC, CSR, or COO format."));
}

void check_int32_size(std::int64_t nnz, std::int64_t n, const std::string& fn) {
  CUSCI_EXPECTS(nnz <= 2147483647 && n <= 2147483647, value_error,
                detail::msg(fn, "the graph has more entries or nodes than int32 indices can address"));
}

ndarray host_int32(const std::vector<std::int32_t>& v) { return asarray(v); }

}  // namespace

namespace detail {

host_csr to_host_csr(const csr_matrix& m, bool with_data) {
  host_csr h;
  h.nr = m.shape()[0];
  h.nc = m.shape()[1];
  check_int32_size(m.nnz(), std::max(h.nr, h.nc), "cusci::sparse::csgraph");
  h.indptr = to_host(m.indptr().astype(cusci::dtype::int64, false)).to_vector<std::int64_t>();
  h.indices = to_host(m.indices().astype(cusci::dtype::int32, false)).to_vector<std::int32_t>();
  if (with_data) h.data = to_host(m.data().astype(cusci::dtype::float64, false)).to_vector<double>();
  return h;
}

}  // namespace detail

// ---- minimum_spanning_tree -----------------------------------------------------------------------
csr_matrix minimum_spanning_tree(const graph_input& csgraph, const minimum_spanning_tree_options& /*options*/) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::minimum_spanning_tree");
  const csr_matrix g = detail::validate_graph_csr(csgraph, true, kMst);
  check_int32_size(g.nnz(), g.shape()[0], kMst);
  return detail::mst_boruvka(g);
}

// ---- reverse_cuthill_mckee -----------------------------------------------------------------------
ndarray reverse_cuthill_mckee(const spmatrix& graph, const reverse_cuthill_mckee_options& options) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::reverse_cuthill_mckee");
  const auto f = graph.format();
  if (f != sparse::format::csr && f != sparse::format::csc)
    throw type_error(detail::msg(kRcm, "Input must be in CSC or CSR sparse format."));
  const auto shape = graph.shape();
  CUSCI_EXPECTS(shape[0] == shape[1], value_error,
                detail::msg(kRcm, "graph must be square, got shape (" + std::to_string(shape[0]) + ", " +
                                      std::to_string(shape[1]) + ")"));
  CUSCI_EXPECTS(shape[0] > 0, value_error,
                detail::msg(kRcm, "graph must have at least one node (SciPy: zero-size array to reduction "
                                  "operation maximum which has no identity)"));
  ndarray indices, indptr;
  if (!options.symmetric_mode) {
    // SciPy: graph + graph.transpose() (sums, drops entries that cancel); its pattern is symmetric, so
    // the CSR form's arrays equal the CSC result's that SciPy reads for a CSC input.
    const csr_matrix s = (graph + transpose(graph)).tocsr();
    indices = s.indices();
    indptr = s.indptr();
    const bool canonical = f == sparse::format::csr ? graph.get<csr_matrix>().has_canonical_format()
                                                    : graph.get<csc_matrix>().has_canonical_format();
    if (!canonical) {
      // SciPy adds a non-canonical matrix (duplicates or unsorted indices) by csr_binop_csr_general,
      // whose rows are not sorted: their order is the search's neighbour order, which the permutation
      // depends on. Reproduce it on the host from the input's compressed arrays (linear time).
      detail::host_csr a;
      a.nr = a.nc = shape[0];
      const ndarray aptr = f == sparse::format::csr ? graph.get<csr_matrix>().indptr() : graph.get<csc_matrix>().indptr();
      const ndarray aind = f == sparse::format::csr ? graph.get<csr_matrix>().indices() : graph.get<csc_matrix>().indices();
      check_int32_size(aind.size(), shape[0], kRcm);
      a.indptr = to_host(aptr.astype(cusci::dtype::int64, false)).to_vector<std::int64_t>();
      a.indices = to_host(aind.astype(cusci::dtype::int32, false)).to_vector<std::int32_t>();
      const detail::host_csr h = detail::to_host_csr(s, false);
      indices = asarray(detail::scipy_sum_order(a, h));
    }
  } else if (f == sparse::format::csr) {
    indices = graph.get<csr_matrix>().indices();
    indptr = graph.get<csr_matrix>().indptr();
  } else {  // SciPy reads a CSC matrix's compressed arrays as they are
    indices = graph.get<csc_matrix>().indices();
    indptr = graph.get<csc_matrix>().indptr();
  }
  check_int32_size(indices.size(), shape[0], kRcm);
  return detail::rcm_ordering(indices, indptr, shape[0]);
}

// ---- matchings -----------------------------------------------------------------------------------
matching_perm_type parse_perm_type(std::string_view s) {
  if (s == "row") return matching_perm_type::row;
  if (s == "column") return matching_perm_type::column;
  throw value_error(detail::msg(kMbm, "perm_type must be 'row' or 'column', got '" + std::string(s) + "'"));
}

ndarray maximum_bipartite_matching(const spmatrix& graph, const maximum_bipartite_matching_options& options) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::maximum_bipartite_matching");
  check_csr_csc_coo(graph, kMbm);
  const auto h = detail::to_host_csr(graph.tocsr(), false);
  const auto r = detail::hopcroft_karp_host(h);
  return host_int32(options.perm_type == matching_perm_type::column ? r.x : r.y);
}

std::int64_t structural_rank(const spmatrix& graph) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::structural_rank");
  const auto h = detail::to_host_csr(graph.tocsr(), false);
  return detail::hopcroft_karp_host(h).size;
}

std::pair<ndarray, ndarray> min_weight_full_bipartite_matching(
    const spmatrix& biadjacency, const min_weight_full_bipartite_matching_options& options) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::min_weight_full_bipartite_matching");
  check_csr_csc_coo(biadjacency, kMwf);
  if (is_complex_dtype(biadjacency.dtype()))
    throw type_error(detail::msg(kMwf, "complex weights are not supported (SciPy casts them to float64)"));
  const auto full = detail::to_host_csr(biadjacency.tocsr(), true);
  // SciPy: astype(float64), negate for maximize, +inf -> 0, eliminate_zeros().
  detail::host_csr g;
  g.nr = full.nr;
  g.nc = full.nc;
  g.indptr.assign(g.nr + 1, 0);
  for (std::int64_t i = 0; i < g.nr; ++i) {
    for (std::int64_t e = full.indptr[i]; e < full.indptr[i + 1]; ++e) {
      const double w = options.maximize ? -full.data[e] : full.data[e];
      CUSCI_EXPECTS(!std::isnan(w) && w != -std::numeric_limits<double>::infinity(), value_error,
                    detail::msg(kMwf, "weights must not be NaN or -inf (after negation for maximize)"));
      if (w == 0.0 || w == std::numeric_limits<double>::infinity()) continue;
      g.indices.push_back(full.indices[e]);
      g.data.push_back(w);
    }
    g.indptr[i + 1] = static_cast<std::int64_t>(g.indices.size());
  }
  const bool transposed = g.nc < g.nr;
  if (transposed) {  // the algorithm wants at least as many columns as rows
    detail::host_csr t;
    t.nr = g.nc;
    t.nc = g.nr;
    t.indptr.assign(t.nr + 1, 0);
    for (const auto j : g.indices) ++t.indptr[j + 1];
    for (std::int64_t k = 0; k < t.nr; ++k) t.indptr[k + 1] += t.indptr[k];
    t.indices.resize(g.indices.size());
    t.data.resize(g.data.size());
    std::vector<std::int64_t> pos(t.indptr.begin(), t.indptr.end() - 1);
    for (std::int64_t i = 0; i < g.nr; ++i)
      for (std::int64_t e = g.indptr[i]; e < g.indptr[i + 1]; ++e) {
        const std::int64_t p = pos[g.indices[e]]++;
        t.indices[p] = static_cast<std::int32_t>(i);
        t.data[p] = g.data[e];
      }
    g = std::move(t);
  }
  const auto hk = detail::hopcroft_karp_host(g);
  CUSCI_EXPECTS(hk.size == std::min(g.nr, g.nc), value_error, detail::msg(kMwf, "no full matching exists"));
  const std::vector<std::int32_t> b = detail::min_weight_matching_host(g, kMwf);
  std::vector<std::int64_t> a(b.size());
  std::iota(a.begin(), a.end(), std::int64_t{0});
  if (!transposed) return {asarray(a), host_int32(b)};
  std::vector<std::int64_t> idx(b.size());
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t p, std::int64_t q) { return b[p] < b[q]; });
  std::vector<std::int32_t> rows(b.size());
  std::vector<std::int64_t> cols(b.size());
  for (std::size_t k = 0; k < idx.size(); ++k) {
    rows[k] = b[idx[k]];
    cols[k] = a[idx[k]];
  }
  return {host_int32(rows), asarray(cols)};
}

// ---- maximum_flow --------------------------------------------------------------------------------
flow_method parse_flow_method(std::string_view s) {
  if (s == "dinic") return flow_method::dinic;
  if (s == "edmonds_karp") return flow_method::edmonds_karp;
  throw value_error(detail::msg(kFlow, std::string(s) + " method is not supported yet."));
}

flow_result maximum_flow(const spmatrix& csgraph, std::int64_t source, std::int64_t sink,
                         const maximum_flow_options& options) {
  if (csgraph.format() != sparse::format::csr) throw type_error(detail::msg(kFlow, "graph must be in CSR format"));
  CUSCI_EXPECTS(is_integer_dtype(csgraph.dtype()), value_error, detail::msg(kFlow, "graph capacities must be integers"));
  CUSCI_EXPECTS(source != sink, value_error, detail::msg(kFlow, "source and sink vertices must differ"));
  const auto shape = csgraph.shape();
  CUSCI_EXPECTS(shape[0] == shape[1], value_error, detail::msg(kFlow, "graph must be specified as a square matrix."));
  const std::int64_t n = shape[0];
  CUSCI_EXPECTS(source >= 0 && source < n, value_error,
                detail::msg(kFlow, "source value (" + std::to_string(source) + ") must be between 0 and " +
                                       std::to_string(n - 1)));
  CUSCI_EXPECTS(sink >= 0 && sink < n, value_error,
                detail::msg(kFlow, "sink value (" + std::to_string(sink) + ") must be between 0 and " +
                                       std::to_string(n - 1)));
  const csr_matrix& g = csgraph.get<csr_matrix>();
  check_int32_size(2 * g.nnz(), n, kFlow);
  auto h = detail::to_host_csr(g, false);
  const auto cap = to_host(g.data().astype(cusci::dtype::int32, false)).to_vector<std::int32_t>();
  const auto r = detail::max_flow_host(n, h.indptr, h.indices, cap, static_cast<std::int32_t>(source),
                                       static_cast<std::int32_t>(sink), options.method == flow_method::dinic);
  std::vector<std::int32_t> indptr32(r.indptr.begin(), r.indptr.end());
  csr_matrix flow = csr_matrix::from_valid(host_int32(r.flow), host_int32(r.indices), host_int32(indptr32), {n, n});
  flow.set_has_sorted_indices(true);
  return flow_result{static_cast<double>(r.value), std::move(flow)};
}

}  // namespace cusci::sparse::csgraph
