// Host side of cusci::sparse::csgraph's shortest_path family: argument handling, SciPy's 'auto' rule,
// the drivers of the device relaxation (shortest_path_kernels.cu, which hands small graphs with
// non-negative weights to shortest_path_block.cu) and Floyd-Warshall, and Yen's algorithm over host
// copies of the CSR.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "csgraph/common/graph.hpp"
#include "csgraph/shortest_path/sp_internal.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/csgraph/shortest_path.hpp"
#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::sparse::csgraph {
namespace detail::sp {

// ---- host pieces ---------------------------------------------------------------------------------

std::int64_t graph_size(const graph_input& g, const std::string& fn) {
  if (g.is_sparse()) {
    const auto sh = g.sparse().shape();
    CUSCI_EXPECTS(sh[0] == sh[1], value_error, msg(fn, "compressed-sparse graph must be shape (N, N)"));
    CUSCI_EXPECTS(!is_complex(g.sparse().dtype()), type_error, msg(fn, "csgraph must have real weights"));
    return sh[0];
  }
  const ndarray& a = g.dense();
  CUSCI_EXPECTS(a.ndim() == 2, value_error, msg(fn, "graph should have two dimensions"));
  CUSCI_EXPECTS(a.shape()[0] == a.shape()[1], value_error, msg(fn, "graph should be a square array"));
  CUSCI_EXPECTS(!is_complex(a.dtype()), type_error, msg(fn, "graph must have real weights"));
  return a.shape()[0];
}

resolved_indices resolve_indices(const node_indices& ind, std::int64_t n, const std::string& fn) {
  resolved_indices r;
  if (!ind.has_value()) {
    r.nodes.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) r.nodes[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i);
    r.prefix = {n};
    return r;
  }
  r.given = true;
  std::vector<std::int64_t> vals;
  if (ind.array()) {
    const ndarray& a = *ind.array();
    CUSCI_EXPECTS(!is_complex(a.dtype()), type_error, msg(fn, "indices must be real integers"));
    r.prefix = a.shape();
    if (a.size() > 0) vals = a.astype(dtype::int64).get().to_vector<std::int64_t>();
  } else {
    vals = ind.values();
    r.prefix = ind.is_scalar() ? shape_t{} : ind.shape();
  }
  r.nodes.reserve(vals.size());
  for (std::int64_t v : vals) {
    if (v < 0) v += n;
    CUSCI_EXPECTS(v >= 0 && v < n, value_error, msg(fn, "indices out of range 0...N"));
    r.nodes.push_back(static_cast<std::int32_t>(v));
  }
  return r;
}

shortest_path_method auto_method(std::int64_t n, std::int64_t nk, bool any_negative, bool indices_given) {
  const double nn = static_cast<double>(n) * static_cast<double>(n) / 4.0;
  if (indices_given || static_cast<double>(nk) < nn)
    return any_negative ? shortest_path_method::J : shortest_path_method::D;
  return shortest_path_method::FW;
}

std::int64_t potentials_host(const host_csr& g, std::vector<double>& h) {
  const std::int32_t n = g.n;
  h.assign(static_cast<std::size_t>(n), 0.0);
  for (std::int32_t round = 0; round < n; ++round) {
    bool changed = false;
    for (std::int32_t u = 0; u < n; ++u)
      for (std::int64_t e = g.indptr[u]; e < g.indptr[u + 1]; ++e) {
        const double nd = h[u] + g.w[e];
        if (nd < h[g.indices[e]]) {
          h[g.indices[e]] = nd;
          changed = true;
        }
      }
    if (!changed) return -1;
  }
  for (std::int32_t u = 0; u < n; ++u)
    for (std::int64_t e = g.indptr[u]; e < g.indptr[u + 1]; ++e)
      if (h[u] + g.w[e] + dtype_eps < h[g.indices[e]]) return u;
  return -1;
}

namespace {

// Dijkstra on weights `w` (>= 0) avoiding removed nodes/edges; stops when `sink` is settled (sink < 0:
// never). dist/pred [n] out, pred_edge: the edge used.
void dijkstra_core(const host_csr& g, const std::vector<double>& w, std::int32_t source, std::int32_t sink,
                   const std::vector<char>* removed_node, const std::vector<char>* removed_edge,
                   std::vector<double>& dist, std::vector<std::int32_t>& pred) {
  const std::int32_t n = g.n;
  dist.assign(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
  pred.assign(static_cast<std::size_t>(n), null_predecessor);
  std::vector<char> done(static_cast<std::size_t>(n), 0);
  using item = std::pair<double, std::int32_t>;
  std::priority_queue<item, std::vector<item>, std::greater<item>> heap;
  dist[source] = 0.0;
  heap.push({0.0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (done[u] || d > dist[u]) continue;
    done[u] = 1;
    if (u == sink) break;
    for (std::int64_t e = g.indptr[u]; e < g.indptr[u + 1]; ++e) {
      const std::int32_t v = g.indices[e];
      if (done[v] || (removed_edge && (*removed_edge)[e]) || (removed_node && (*removed_node)[v])) continue;
      const double nd = d + w[e];
      if (nd < dist[v]) {
        dist[v] = nd;
        pred[v] = u;
        heap.push({nd, v});
      }
    }
  }
}

// The smallest original weight of an edge a -> b (inf when none).
double edge_weight(const host_csr& g, std::int32_t a, std::int32_t b) {
  double best = std::numeric_limits<double>::infinity();
  for (std::int64_t e = g.indptr[a]; e < g.indptr[a + 1]; ++e)
    if (g.indices[e] == b && g.w[e] < best) best = g.w[e];
  return best;
}

double path_cost(const host_csr& g, const std::vector<std::int32_t>& p) {
  double c = 0.0;
  for (std::size_t i = 1; i < p.size(); ++i) c += edge_weight(g, p[i - 1], p[i]);
  return c;
}

}  // namespace

void dijkstra_host(const host_csr& g, std::int32_t source, std::vector<double>& dist, std::vector<std::int32_t>& pred) {
  dijkstra_core(g, g.w, source, -1, nullptr, nullptr, dist, pred);
}

void yen_host(const host_csr& g, std::int32_t source, std::int32_t sink, std::int64_t K, std::vector<double>& costs,
              std::vector<std::vector<std::int32_t>>& paths) {
  costs.clear();
  paths.clear();
  if (K <= 0) return;
  const std::int32_t n = g.n;
  // Reduced weights (Johnson) when a weight is negative.
  std::vector<double> w = g.w;
  bool negative = false;
  for (double x : g.w) negative = negative || x < 0;
  if (negative) {
    std::vector<double> h;
    const std::int64_t bad = potentials_host(g, h);
    if (bad >= 0)
      throw negative_cycle_error("cusci::sparse::csgraph::yen: Negative cycle detected on node " + std::to_string(bad));
    for (std::int32_t u = 0; u < n; ++u)
      for (std::int64_t e = g.indptr[u]; e < g.indptr[u + 1]; ++e) {
        const double x = g.w[e] + h[u] - h[g.indices[e]];
        w[e] = x < 0 ? 0.0 : x;
      }
  }
  std::vector<double> dist;
  std::vector<std::int32_t> pred;
  auto extract = [&](std::int32_t from, std::int32_t to) {
    std::vector<std::int32_t> p;
    if (!std::isfinite(dist[to])) return p;
    for (std::int32_t v = to; v != from; v = pred[v]) p.push_back(v);
    p.push_back(from);
    std::reverse(p.begin(), p.end());
    return p;
  };
  dijkstra_core(g, w, source, sink, nullptr, nullptr, dist, pred);
  std::vector<std::int32_t> first = extract(source, sink);
  if (first.empty()) return;
  paths.push_back(first);
  costs.push_back(path_cost(g, first));

  std::vector<std::pair<double, std::vector<std::int32_t>>> cand;
  std::vector<char> removed_node(static_cast<std::size_t>(n), 0);
  std::vector<char> removed_edge(g.w.size(), 0);
  for (std::int64_t k = 1; k < K; ++k) {
    const std::vector<std::int32_t> last = paths.back();
    for (std::size_t i = 0; i + 1 < last.size(); ++i) {
      const std::int32_t spur = last[i];
      const std::vector<std::int32_t> root(last.begin(), last.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      std::fill(removed_edge.begin(), removed_edge.end(), 0);
      std::fill(removed_node.begin(), removed_node.end(), 0);
      for (const auto& p : paths) {
        if (p.size() > i + 1 && std::equal(root.begin(), root.end(), p.begin())) {
          const std::int32_t nxt = p[i + 1];
          for (std::int64_t e = g.indptr[spur]; e < g.indptr[spur + 1]; ++e)
            if (g.indices[e] == nxt) removed_edge[e] = 1;
        }
      }
      for (std::size_t j = 0; j < i; ++j) removed_node[root[j]] = 1;
      dijkstra_core(g, w, spur, sink, &removed_node, &removed_edge, dist, pred);
      std::vector<std::int32_t> spur_path = extract(spur, sink);
      if (spur_path.empty()) continue;
      std::vector<std::int32_t> total = root;
      total.insert(total.end(), spur_path.begin() + 1, spur_path.end());
      bool seen = false;
      for (const auto& c : cand) seen = seen || c.second == total;
      for (const auto& p : paths) seen = seen || p == total;
      if (!seen) cand.emplace_back(path_cost(g, total), std::move(total));
    }
    if (cand.empty()) break;
    std::size_t best = 0;
    for (std::size_t c = 1; c < cand.size(); ++c)
      if (cand[c].first < cand[best].first) best = c;
    costs.push_back(cand[best].first);
    paths.push_back(std::move(cand[best].second));
    cand.erase(cand.begin() + static_cast<std::ptrdiff_t>(best));
  }
}

}  // namespace detail::sp

// ---- public functions ------------------------------------------------------------------------------

namespace {

namespace sp = detail::sp;
using detail::msg;

const std::string kNs = "cusci::sparse::csgraph::";

// The validated CSR of a problem (float64 weights, int32 indices and row pointers; undirected: both
// directions stored), its weights (ones when unweighted) and the count of negative weights.
struct prepared {
  ndarray indptr, indices, w;
  std::int64_t n = 0;
  std::int64_t negatives = 0;
  sp::dcsr g() const {
    return {indptr.data_as<std::int32_t>(), indices.data_as<std::int32_t>(), w.data_as<double>(), n,
            static_cast<std::int64_t>(w.size())};
  }
};

prepared prepare(const graph_input& graph, bool directed, bool unweighted, const std::string& fn) {
  prepared p;
  csr_matrix c = detail::validate_graph_csr(graph, directed, fn);
  if (!directed) c = detail::symmetrize_union(c);
  p.n = c.shape()[0];
  const std::int64_t nnz = c.nnz();
  p.indptr = c.indptr().astype(dtype::int32, false);
  p.indices = c.indices().astype(dtype::int32, false);
  p.w = c.data().astype(dtype::float64, false);
  if (!p.w.is_c_contiguous()) p.w = p.w.copy();
  cudaStream_t s = get_current_stream();
  std::int64_t nonnull = 0;
  sp::scan_weights_device(p.w.data_as<double>(), nnz, false, &nonnull, &p.negatives, s);
  if (unweighted) {
    p.w = ones({nnz}, dtype::float64);
  }
  return p;
}

ndarray device_nodes(const std::vector<std::int32_t>& nodes) {
  if (nodes.empty()) return empty({0}, dtype::int32);
  return asarray(nodes);
}

shape_t with_n(shape_t prefix, std::int64_t n) {
  prefix.push_back(n);
  return prefix;
}

[[noreturn]] void throw_cycle(const std::string& fn, std::int64_t node) {
  throw negative_cycle_error(msg(fn, "Negative cycle detected on node " + std::to_string(node)));
}

enum class algo { D, BF, J };

paths_result run_paths(const graph_input& graph, bool directed, const node_indices& indices, bool return_pred,
                       bool unweighted, double limit, bool min_only, algo a, const std::string& fn) {
  const std::int64_t n = sp::graph_size(graph, fn);
  const sp::resolved_indices ind = sp::resolve_indices(indices, n, fn);
  if (a == algo::D) CUSCI_EXPECTS(!(limit < 0), value_error, msg(fn, "limit must be >= 0"));
  prepared p = prepare(graph, directed, unweighted, fn);
  cudaStream_t s = get_current_stream();
  if (a == algo::D && p.negatives > 0)
    warn("UserWarning", fn,
         "Graph has negative weights: dijkstra will give inaccurate results if the graph contains negative "
         "cycles. Consider johnson or bellman_ford.");
  const bool nonneg = unweighted || p.negatives == 0;

  const std::int64_t rows = min_only ? 1 : static_cast<std::int64_t>(ind.nodes.size());
  paths_result res;
  ndarray dist = empty({rows, n}, dtype::float64);
  ndarray pred = return_pred ? empty({rows, n}, dtype::int32) : ndarray();
  ndarray srcs = (return_pred && min_only) ? empty({n}, dtype::int32) : ndarray();
  const ndarray src = device_nodes(ind.nodes);

  sp::relax_request r;
  r.sources = src.data_as<std::int32_t>();
  r.num_sources = static_cast<std::int64_t>(ind.nodes.size());
  r.min_only = min_only;
  r.limit = (a == algo::D) ? limit : std::numeric_limits<double>::infinity();
  r.dist = dist.data_as<double>();
  r.pred = return_pred ? pred.data_as<std::int32_t>() : nullptr;
  r.src_of = srcs.size() > 0 ? srcs.data_as<std::int32_t>() : nullptr;

  if (a == algo::J && !nonneg) {
    // Johnson: potentials from a virtual source, reweighting, non-negative relaxation, mapping back.
    ndarray h = empty({std::max<std::int64_t>(n, 1)}, dtype::float64);
    sp::relax_request pr;
    pr.g = p.g();
    pr.virtual_source = true;
    pr.nonneg = false;
    pr.dist = h.data_as<double>();
    const std::int64_t bad = sp::relax_device(pr, s);
    if (bad >= 0) throw_cycle(fn, bad);
    ndarray w2 = empty({static_cast<std::int64_t>(p.w.size())}, dtype::float64);
    sp::reweight_device(p.g(), h.data_as<double>(), w2.data_as<double>(), s);
    sp::dcsr g2 = p.g();
    g2.w = w2.data_as<double>();
    r.g = g2;
    r.nonneg = true;
    const std::int64_t bad2 = sp::relax_device(r, s);
    if (bad2 >= 0) throw_cycle(fn, bad2);
    sp::unreweight_device(dist.data_as<double>(), rows, n, src.data_as<std::int32_t>(), h.data_as<double>(), s);
  } else {
    r.g = p.g();
    r.nonneg = nonneg;
    const std::int64_t bad = sp::relax_device(r, s);
    if (bad >= 0) throw_cycle(fn, bad);
  }

  const shape_t out_shape = min_only ? shape_t{n} : with_n(ind.prefix, n);
  res.dist_matrix = dist.reshape(out_shape);
  if (return_pred) res.predecessors = pred.reshape(out_shape);
  if (return_pred && min_only) res.sources = srcs;
  return res;
}

}  // namespace

shortest_path_method parse_shortest_path_method(std::string_view s) {
  if (s == "auto") return shortest_path_method::auto_select;
  if (s == "FW") return shortest_path_method::FW;
  if (s == "D") return shortest_path_method::D;
  if (s == "BF") return shortest_path_method::BF;
  if (s == "J") return shortest_path_method::J;
  throw value_error(kNs + "shortest_path: unrecognized method '" + std::string(s) + "'");
}

paths_result dijkstra(const graph_input& csgraph, const dijkstra_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::dijkstra");
  return run_paths(csgraph, o.directed, o.indices, o.return_predecessors, o.unweighted, o.limit, o.min_only, algo::D,
                   kNs + "dijkstra");
}

paths_result bellman_ford(const graph_input& csgraph, const bellman_ford_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::bellman_ford");
  return run_paths(csgraph, o.directed, o.indices, o.return_predecessors, o.unweighted,
                   std::numeric_limits<double>::infinity(), false, algo::BF, kNs + "bellman_ford");
}

paths_result johnson(const graph_input& csgraph, const johnson_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::johnson");
  // As SciPy: unweighted graphs have no negative weights, and go to dijkstra.
  if (o.unweighted)
    return run_paths(csgraph, o.directed, o.indices, o.return_predecessors, true,
                     std::numeric_limits<double>::infinity(), false, algo::D, kNs + "johnson");
  return run_paths(csgraph, o.directed, o.indices, o.return_predecessors, false,
                   std::numeric_limits<double>::infinity(), false, algo::J, kNs + "johnson");
}

paths_result floyd_warshall(const graph_input& csgraph, const floyd_warshall_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::floyd_warshall");
  const std::string fn = kNs + "floyd_warshall";
  const std::int64_t n = sp::graph_size(csgraph, fn);
  // SciPy converts sparse input with csgraph_to_dense, which accepts CSR and CSC (and LIL) only.
  CUSCI_EXPECTS(!csgraph.is_sparse() || csgraph.sparse().format() == format::csr ||
                    csgraph.sparse().format() == format::csc,
                value_error, msg(fn, "csgraph must be lil, csr, or csc format"));
  ndarray d = detail::validate_graph_dense(csgraph, o.directed, fn, std::numeric_limits<double>::infinity());
  if (!d.is_c_contiguous() || d.dtype() != dtype::float64) d = d.astype(dtype::float64).copy();
  cudaStream_t s = get_current_stream();
  paths_result res;
  ndarray pred = o.return_predecessors ? empty({n, n}, dtype::int32) : ndarray();
  sp::floyd_warshall_device(d.data_as<double>(), o.return_predecessors ? pred.data_as<std::int32_t>() : nullptr, n,
                            o.directed, o.unweighted, s);
  if (n > 0) {
    std::vector<double> diag(static_cast<std::size_t>(n));
    CUSCI_CUDA_TRY(cudaMemcpy2DAsync(diag.data(), sizeof(double), d.data(), static_cast<std::size_t>(n + 1) * sizeof(double),
                                     sizeof(double), static_cast<std::size_t>(n), cudaMemcpyDeviceToHost, s));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
    std::ostringstream bad;
    bool any = false;
    for (std::int64_t i = 0; i < n; ++i)
      if (diag[static_cast<std::size_t>(i)] < 0) {
        bad << (any ? " " : "") << i;
        any = true;
      }
    if (any) throw negative_cycle_error(msg(fn, "Negative cycle in nodes [" + bad.str() + "]"));
  }
  if (o.overwrite && !csgraph.is_sparse()) {
    const ndarray& in = csgraph.dense();
    if (in.dtype() == dtype::float64 && in.is_c_contiguous() && in.data() != d.data() && n > 0) {
      CUSCI_CUDA_TRY(cudaMemcpyAsync(in.data(), d.data(), d.nbytes(), cudaMemcpyDeviceToDevice, s));
      d = in;
    }
  }
  res.dist_matrix = d;
  if (o.return_predecessors) res.predecessors = pred;
  return res;
}

paths_result shortest_path(const graph_input& csgraph, const shortest_path_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::shortest_path");
  const std::string fn = kNs + "shortest_path";
  const std::int64_t n = sp::graph_size(csgraph, fn);
  shortest_path_method m = o.method;
  if (m == shortest_path_method::auto_select) {
    std::int64_t nk = 0, neg = 0, nonnull = 0;
    cudaStream_t s = get_current_stream();
    if (csgraph.is_sparse()) {
      const spmatrix& g = csgraph.sparse();
      ndarray data;
      if (g.format() == format::csr || g.format() == format::csc || g.format() == format::coo) {
        nk = g.nnz();
        data = g.visit([](const auto& m) -> ndarray { return m.data(); });
      } else {
        const coo_matrix c = g.tocoo();
        nk = c.nnz();
        data = c.data();
      }
      ndarray d64 = data.astype(dtype::float64, false);
      if (!d64.is_c_contiguous()) d64 = d64.copy();
      sp::scan_weights_device(d64.data_as<double>(), nk, false, &nonnull, &neg, s);
    } else {
      ndarray d64 = csgraph.dense().astype(dtype::float64, false);
      if (!d64.is_c_contiguous()) d64 = d64.copy();
      sp::scan_weights_device(d64.data_as<double>(), d64.size(), true, &nk, &neg, s);
    }
    m = sp::auto_method(n, nk, neg > 0, o.indices.has_value());
  }
  switch (m) {
    case shortest_path_method::FW:
      CUSCI_EXPECTS(!o.indices.has_value(), value_error, msg(fn, "Cannot specify indices with method == 'FW'."));
      return floyd_warshall(csgraph, {.directed = o.directed, .return_predecessors = o.return_predecessors,
                                      .unweighted = o.unweighted, .overwrite = o.overwrite});
    case shortest_path_method::D:
      return dijkstra(csgraph, {.directed = o.directed, .indices = o.indices,
                                .return_predecessors = o.return_predecessors, .unweighted = o.unweighted});
    case shortest_path_method::BF:
      return bellman_ford(csgraph, {.directed = o.directed, .indices = o.indices,
                                    .return_predecessors = o.return_predecessors, .unweighted = o.unweighted});
    case shortest_path_method::J:
    default:
      return johnson(csgraph, {.directed = o.directed, .indices = o.indices,
                               .return_predecessors = o.return_predecessors, .unweighted = o.unweighted});
  }
}

yen_result yen(const graph_input& csgraph, std::int64_t source, std::int64_t sink, std::int64_t K,
               const yen_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::csgraph::yen");
  const std::string fn = kNs + "yen";
  const std::int64_t n = sp::graph_size(csgraph, fn);
  if (!(source >= 0 && source < n && sink >= 0 && sink < n)) {
    throw value_error(msg(fn, "For csgraph with shape (N, N), must have 0 <= source < N and 0 <= sink < N. Got N=" +
                                  std::to_string(n) + ", source=" + std::to_string(source) +
                                  ", sink=" + std::to_string(sink) + "."));
  }
  CUSCI_EXPECTS(K >= 0, value_error, msg(fn, "negative dimensions are not allowed"));
  csr_matrix c = detail::validate_graph_csr(csgraph, o.directed, fn);
  if (!o.directed) c = detail::symmetrize_union(c);
  sp::host_csr h;
  h.n = static_cast<std::int32_t>(n);
  h.indptr = c.indptr().astype(dtype::int64).get().to_vector<std::int64_t>();
  h.indices = c.nnz() > 0 ? c.indices().astype(dtype::int32).get().to_vector<std::int32_t>() : std::vector<std::int32_t>{};
  const std::int64_t nnz = h.indptr.empty() ? 0 : h.indptr.back();
  h.indices.resize(static_cast<std::size_t>(nnz));
  if (o.unweighted) {
    h.w.assign(static_cast<std::size_t>(nnz), 1.0);
  } else {
    h.w = nnz > 0 ? c.data().astype(dtype::float64).get().to_vector<double>() : std::vector<double>{};
    h.w.resize(static_cast<std::size_t>(nnz));
  }
  std::vector<double> costs;
  std::vector<std::vector<std::int32_t>> paths;
  sp::yen_host(h, static_cast<std::int32_t>(source), static_cast<std::int32_t>(sink), K, costs, paths);
  const std::int64_t k = static_cast<std::int64_t>(costs.size());
  yen_result r;
  r.dist_array = k > 0 ? asarray(costs) : empty({0}, dtype::float64);
  if (o.return_predecessors) {
    std::vector<std::int32_t> pred(static_cast<std::size_t>(k * n), null_predecessor);
    for (std::int64_t i = 0; i < k; ++i) {
      const auto& p = paths[static_cast<std::size_t>(i)];
      for (std::size_t j = 1; j < p.size(); ++j) pred[static_cast<std::size_t>(i * n + p[j])] = p[j - 1];
    }
    r.predecessors = pred.empty() ? empty({k, n}, dtype::int32) : asarray(pred, {k, n});
  }
  return r;
}

}  // namespace cusci::sparse::csgraph
