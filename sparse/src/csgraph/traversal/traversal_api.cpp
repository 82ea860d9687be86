// Public functions of the csgraph traversal family: connected_components, breadth/depth-first orders
// and trees, reconstruct_path, construct_dist_matrix and laplacian. Validation and orchestration on
// the host; the work runs in traversal_kernels.cu (GPU) or traversal_host.cpp (host algorithms).

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "csgraph/common/graph.hpp"
#include "csgraph/traversal/traversal_internal.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/csgraph/laplacian.hpp"
#include "cusci/sparse/csgraph/predecessors.hpp"
#include "cusci/sparse/csgraph/traversal.hpp"
#include "cusci/stream.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::sparse::csgraph {
namespace {

using detail::host_adjacency;
using detail::msg;

const std::string kPrefix = "cusci::sparse::csgraph::";

// A validated graph with int32 index arrays (SciPy's ITYPE).
struct graph32 {
  csr_matrix m;
  ndarray indptr, indices;
  std::int32_t n = 0;
  std::int64_t nnz = 0;
};

graph32 validated(const graph_input& g, bool directed, const std::string& fn) {
  csr_matrix m = detail::validate_graph_csr(g, directed, fn);
  const std::int64_t n = m.shape()[0];
  CUSCI_EXPECTS(n <= 2147483647, value_error, msg(fn, "graphs of more than 2^31 - 1 nodes are not supported"));
  CUSCI_EXPECTS(m.nnz() <= 2147483647, value_error,
                msg(fn, "graphs of more than 2^31 - 1 stored edges are not supported (int32 indices)"));
  graph32 r{m, m.indptr().astype(dtype::int32, false), m.indices().astype(dtype::int32, false),
            static_cast<std::int32_t>(n), m.nnz()};
  return r;
}

// The transposed CSR (row j: the i with a stored [i, j], increasing i), int32 indices.
graph32 transposed(const graph32& g) {
  csc_matrix c = g.m.tocsc();
  csr_matrix t = csr_matrix::from_valid(c.data(), c.indices(), c.indptr(), {g.n, g.n});
  t.sort_indices();
  return graph32{t, t.indptr().astype(dtype::int32, false), t.indices().astype(dtype::int32, false), g.n, t.nnz()};
}

host_adjacency to_host(const graph32& g) {
  host_adjacency h;
  h.n = g.n;
  const auto p = cusci::to_host(g.indptr).to_vector<std::int32_t>();
  h.indptr.assign(p.begin(), p.end());
  h.indices = cusci::to_host(g.indices).to_vector<std::int32_t>();
  return h;
}

std::int32_t check_start(std::int64_t i_start, std::int32_t n, const std::string& fn) {
  if (i_start < 0 || i_start >= n)
    throw index_error(msg(fn, "i_start must be in [0, N) = [0, " + std::to_string(n) + "), got " +
                                  std::to_string(i_start)));
  return static_cast<std::int32_t>(i_start);
}

ndarray upload(const std::vector<std::int32_t>& v) { return cusci::asarray(v); }

// SciPy's reconstruct_path from a validated graph and host predecessors.
csr_matrix tree_of(const graph32& g, const host_adjacency& h, const std::vector<std::int64_t>& pred, bool directed) {
  const std::vector<double> data = cusci::to_host(g.m.data().astype(dtype::float64, false)).to_vector<double>();
  std::vector<std::int32_t> ip, ix;
  std::vector<double> dv;
  detail::reconstruct_path_host(h, data, pred.data(), directed, ip, ix, dv);
  return csr_matrix::from_valid(cusci::asarray(dv), cusci::asarray(ix), cusci::asarray(ip), {g.n, g.n}, true);
}


}  // namespace

connection_kind parse_connection(std::string_view s) {
  std::string l(s);
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (l == "weak") return connection_kind::weak;
  if (l == "strong") return connection_kind::strong;
  throw value_error(kPrefix + "connected_components: connection must be 'weak' or 'strong'");
}

components_result connected_components(const graph_input& csgraph, const components_options& options) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::connected_components");
  const std::string fn = kPrefix + "connected_components";
  const bool directed = options.connection == connection_kind::weak ? false : options.directed;
  graph32 g = validated(csgraph, directed, fn);
  components_result r;
  ndarray labels = cusci::empty({g.n}, dtype::int32);
  if (!directed) {
    r.n_components = detail::weak_components_device(g.n, g.nnz, g.indptr.data_as<std::int32_t>(),
                                                    g.indices.data_as<std::int32_t>(),
                                                    labels.data_as<std::int32_t>(), cusci::get_current_stream());
  } else {
    const host_adjacency h = to_host(g);
    std::vector<std::int32_t> lab(g.n);
    r.n_components = detail::scc_host(h, lab.data());
    labels = upload(lab);
  }
  if (options.return_labels) r.labels = labels;
  else r.labels = cusci::empty({0}, dtype::int32);
  return r;
}

order_result breadth_first_order(const graph_input& csgraph, std::int64_t i_start, const traversal_options& options) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::breadth_first_order");
  const std::string fn = kPrefix + "breadth_first_order";
  graph32 g = validated(csgraph, options.directed, fn);
  const std::int32_t start = check_start(i_start, g.n, fn);
  ndarray order = cusci::empty({g.n}, dtype::int32), pred = cusci::empty({g.n}, dtype::int32);
  std::optional<graph32> t;
  if (!options.directed) t = transposed(g);
  const std::int64_t len = detail::bfs_device(
      g.n, g.indptr.data_as<std::int32_t>(), g.indices.data_as<std::int32_t>(),
      t ? t->indptr.data_as<std::int32_t>() : nullptr, t ? t->indices.data_as<std::int32_t>() : nullptr, start, order.data_as<std::int32_t>(),
      pred.data_as<std::int32_t>(), cusci::get_current_stream());
  order_result r;
  r.order = order[{cusci::slice{0, len}}];
  r.predecessors = options.return_predecessors ? pred : cusci::empty({0}, dtype::int32);
  return r;
}

order_result depth_first_order(const graph_input& csgraph, std::int64_t i_start, const traversal_options& options) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::depth_first_order");
  const std::string fn = kPrefix + "depth_first_order";
  graph32 g = validated(csgraph, options.directed, fn);
  const std::int32_t start = check_start(i_start, g.n, fn);
  const host_adjacency h = to_host(g);
  host_adjacency ht;
  if (!options.directed) ht = detail::transpose_host(h);
  std::vector<std::int32_t> order(g.n), pred(g.n);
  const std::int64_t len =
      detail::dfs_host(h, options.directed ? nullptr : &ht, start, order.data(), pred.data());
  order.resize(static_cast<std::size_t>(len));
  order_result r;
  r.order = upload(order);
  r.predecessors = options.return_predecessors ? upload(pred) : cusci::empty({0}, dtype::int32);
  return r;
}

csr_matrix breadth_first_tree(const graph_input& csgraph, std::int64_t i_start, bool directed) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::breadth_first_tree");
  const std::string fn = kPrefix + "breadth_first_tree";
  graph32 g = validated(csgraph, directed, fn);
  check_start(i_start, g.n, fn);
  const order_result o = breadth_first_order(g.m, i_start, {.directed = directed});
  const auto p32 = cusci::to_host(o.predecessors).to_vector<std::int32_t>();
  return tree_of(g, to_host(g), std::vector<std::int64_t>(p32.begin(), p32.end()), directed);
}

csr_matrix depth_first_tree(const graph_input& csgraph, std::int64_t i_start, bool directed) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::depth_first_tree");
  const std::string fn = kPrefix + "depth_first_tree";
  graph32 g = validated(csgraph, directed, fn);
  const std::int32_t start = check_start(i_start, g.n, fn);
  const host_adjacency h = to_host(g);
  host_adjacency ht;
  if (!directed) ht = detail::transpose_host(h);
  std::vector<std::int32_t> order(g.n), pred(g.n);
  detail::dfs_host(h, directed ? nullptr : &ht, start, order.data(), pred.data());
  return tree_of(g, h, std::vector<std::int64_t>(pred.begin(), pred.end()), directed);
}

csr_matrix reconstruct_path(const graph_input& csgraph, const ndarray& predecessors, bool directed) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::reconstruct_path");
  const std::string fn = kPrefix + "reconstruct_path";
  graph32 g = validated(csgraph, directed, fn);
  CUSCI_EXPECTS(predecessors.ndim() == 1 && predecessors.shape(0) == g.n, value_error,
                msg(fn, "predecessors must have shape (N,) = (" + std::to_string(g.n) + ",)"));
  CUSCI_EXPECTS(is_integer(predecessors.dtype()), type_error,
                msg(fn, "predecessors must be an integer array, got " + std::string(dtype_name(predecessors.dtype()))));
  const std::vector<std::int64_t> pred = cusci::to_host(predecessors.astype(dtype::int64)).to_vector<std::int64_t>();
  for (std::int64_t v : pred)
    if (v >= g.n)
      throw index_error(msg(fn, "predecessor " + std::to_string(v) + " is out of bounds for N = " +
                                    std::to_string(g.n)));
  return tree_of(g, to_host(g), pred, directed);
}

ndarray construct_dist_matrix(const graph_input& graph, const ndarray& predecessors,
                              const dist_matrix_options& options) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::construct_dist_matrix");
  const std::string fn = kPrefix + "construct_dist_matrix";
  ndarray dense = detail::validate_graph_dense(graph, options.directed, fn);
  const std::int64_t n = dense.shape(0);
  CUSCI_EXPECTS(predecessors.ndim() == 2 && predecessors.shape(0) == n && predecessors.shape(1) == n, value_error,
                msg(fn, "graph and predecessors must have the same shape"));
  CUSCI_EXPECTS(predecessors.dtype() == dtype::int32, type_error,
                msg(fn, "Type of predecessors array should be int32, got " +
                            std::string(dtype_name(predecessors.dtype()))));
  if (!dense.is_c_contiguous() || dense.dtype() != dtype::float64) dense = dense.astype(dtype::float64).copy();
  const ndarray pred = predecessors.is_c_contiguous() ? predecessors : predecessors.copy();
  ndarray dist = cusci::empty({n, n}, dtype::float64);
  const int flag = detail::dist_matrix_device(n, dense.data_as<double>(), pred.data_as<std::int32_t>(),
                                              options.directed, options.null_value, dist.data_as<double>(),
                                              cusci::get_current_stream());
  if (flag & 1) throw index_error(msg(fn, "predecessors must be -9999 or in [0, N)"));
  if (flag & 2) throw value_error(msg(fn, "a predecessor chain does not reach its row's node (cycle)"));
  return dist;
}

// ---- laplacian -----------------------------------------------------------------------------------

laplacian_form parse_laplacian_form(std::string_view s) {
  if (s == "array") return laplacian_form::array;
  if (s == "function") return laplacian_form::function;
  if (s == "lo") return laplacian_form::lo;
  throw value_error(kPrefix + "laplacian: Invalid form: '" + std::string(s) + "'");
}

namespace {
void check_laplacian_common(const laplacian_options& o, dtype t, std::int64_t rows, std::int64_t cols, int ndim) {
  const std::string fn = kPrefix + "laplacian";
  CUSCI_EXPECTS(ndim == 2 && rows == cols, value_error, msg(fn, "csgraph must be a square matrix or array"));
  if (o.form != laplacian_form::array)
    throw not_implemented_error(msg(fn, std::string("form='") + (o.form == laplacian_form::lo ? "lo" : "function") +
                                            "' is not implemented (only form='array')"));
  CUSCI_EXPECTS(!is_complex(t) && t != dtype::bool_, type_error,
                msg(fn, "csgraph must have a real numeric dtype, got " + std::string(dtype_name(t))));
  if (o.dtype)
    CUSCI_EXPECTS(!is_complex(*o.dtype) && *o.dtype != dtype::bool_, type_error,
                  msg(fn, "dtype must be a real numeric dtype"));
}
dtype laplacian_dtype(const laplacian_options& o, dtype t) {
  if (o.dtype) return *o.dtype;
  if (o.normed && is_integer(t)) return dtype::float64;
  return t;
}
}  // namespace

sparse_laplacian_result laplacian(const spmatrix& csgraph, const laplacian_options& options) {
  check_laplacian_common(options, csgraph.dtype(), csgraph.shape()[0], csgraph.shape()[1], 2);
  const dtype out_t = laplacian_dtype(options, csgraph.dtype());
  const std::int64_t n = csgraph.shape()[0];
  spmatrix m = csgraph;
  // SciPy casts an integer graph to float64 first when normed; its astype sums duplicates (sorting
  // the indices within each row / column of CSR / CSC, COO by (row, col)), which fixes the order
  // of the result's entries, so do the same here.
  if (options.normed && is_integer(m.dtype())) {
    m = m.astype(dtype::float64);
    m.sum_duplicates();
  }
  if (options.symmetrized) m = add(m, conj_transpose(m));
  const coo_matrix c = m.tocoo();
  const std::int64_t nnz = c.nnz();
  const ndarray row = c.row().astype(dtype::int64), col = c.col().astype(dtype::int64);
  const ndarray val = c.data().astype(dtype::float64);
  ndarray w = cusci::empty({n}, dtype::float64);
  ndarray orow = cusci::empty({nnz + n}, dtype::int64), ocol = cusci::empty({nnz + n}, dtype::int64);
  ndarray oval = cusci::empty({nnz + n}, dtype::float64);
  const std::int64_t k = detail::laplacian_coo_device(
      n, nnz, row.data_as<std::int64_t>(), col.data_as<std::int64_t>(), val.data_as<double>(), options.normed,
      options.use_out_degree ? 1 : 0, w.data_as<double>(), orow.data_as<std::int64_t>(),
      ocol.data_as<std::int64_t>(), oval.data_as<double>(), cusci::get_current_stream());
  const dtype idx_t = get_index_dtype(std::max(n, k));
  const cusci::slice s{0, k};
  coo_matrix L = coo_matrix::from_valid(oval[{s}].astype(out_t), orow[{s}].astype(idx_t), ocol[{s}].astype(idx_t),
                                        {n, n}, false);
  // SciPy builds the result in its working dtype (that of m.data after setdiag: float64 when
  // normed, int64 / uint64 for integer graphs (the degree sums' dtype), else the graph's dtype) and
  // then calls astype(dtype); when that changes the dtype, SciPy's astype also sums duplicates,
  // which sorts the COO entries by (row, col) and merges repeated (off-diagonal) edges. Mirror it
  // so the entries come out in SciPy's order.
  const dtype in_t = m.dtype();
  const dtype work_t = options.normed                 ? dtype::float64
                       : is_signed_integer(in_t)      ? dtype::int64
                       : is_unsigned_integer(in_t)    ? dtype::uint64
                                                      : in_t;
  if (work_t != out_t) L.sum_duplicates();
  // SciPy keeps a DIA graph in DIA only when not normed (normed goes through tocoo()).
  spmatrix lap = csgraph.format() == format::dia && !options.normed ? spmatrix(L.todia()) : spmatrix(L);
  return sparse_laplacian_result{lap, options.return_diag ? w.astype(out_t) : cusci::empty({0}, out_t)};
}

dense_laplacian_result laplacian(const ndarray& csgraph, const laplacian_options& options) {
  const int nd = csgraph.ndim();
  check_laplacian_common(options, csgraph.dtype(), nd == 2 ? csgraph.shape(0) : -1, nd == 2 ? csgraph.shape(1) : -2,
                         nd);
  const dtype out_t = laplacian_dtype(options, csgraph.dtype());
  const std::int64_t n = csgraph.shape(0);
  ndarray m = csgraph.astype(dtype::float64, true);
  if (!m.is_c_contiguous()) m = m.copy();
  if (options.symmetrized) {
    ndarray s = cusci::empty({n, n}, dtype::float64);
    detail::symmetrize_dense_device(n, m.data_as<double>(), s.data_as<double>(), cusci::get_current_stream());
    m = s;
  }
  ndarray w = cusci::empty({n}, dtype::float64);
  detail::laplacian_dense_device(n, m.data_as<double>(), options.normed, options.use_out_degree ? 1 : 0,
                                 w.data_as<double>(), cusci::get_current_stream());
  dense_laplacian_result r;
  r.laplacian = out_t == dtype::float64 ? m : m.astype(out_t);
  r.diag = options.return_diag ? (out_t == dtype::float64 ? w : w.astype(out_t)) : cusci::empty({0}, out_t);
  return r;
}

}  // namespace cusci::sparse::csgraph
