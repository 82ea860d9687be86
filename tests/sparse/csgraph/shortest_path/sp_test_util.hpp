#pragma once
// Helpers shared by the shortest_path family's tests (references: tests/golden/gen_sparse_csgraph_
// shortest_path.py): building a case's graph, its options, and the checks of predecessors (they must
// realise the distances and lead back to a source) and of Yen's paths.

#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "cusci/sparse/csgraph/shortest_path.hpp"
#include "cusci/sparse/matrix.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace cusci::sp_test {

using case_t = testing::golden_case;
namespace csg = cusci::sparse::csgraph;
inline const std::string kModule = "sparse_csgraph_shortest_path";

inline std::vector<case_t> cases_of(const std::string& func) { return testing::cases(kModule, func); }

inline ndarray garr(const case_t& /*c*/, const std::string& name) { return asarray(testing::golden(kModule, name)); }
inline host_array harr(const std::string& name) { return testing::golden(kModule, name); }

/// The graph of a case on the device, in the case's format.
inline csg::graph_input graph_of(const case_t& c) {
  const std::string key = "g_" + c.get<std::string>("graph");
  const std::string fmt = c.get<std::string>("fmt");
  const std::int64_t n = c.get<std::int64_t>("n");
  const sparse::shape2 sh{n, n};
  if (fmt == "dense") return garr(c, key + "_dense");
  if (fmt == "csr")
    return sparse::csr_matrix(garr(c, key + "_data"), garr(c, key + "_indices"), garr(c, key + "_indptr"),
                              {.shape = sh});
  if (fmt == "csc")
    return sparse::csc_matrix(garr(c, key + "_data"), garr(c, key + "_indices"), garr(c, key + "_indptr"),
                              {.shape = sh});
  return sparse::coo_matrix(garr(c, key + "_data"), {garr(c, key + "_row"), garr(c, key + "_col")}, {.shape = sh});
}

inline csg::node_indices indices_of(const case_t& c) {
  if (c.has("indices_array")) return csg::node_indices(garr(c, c.get<std::string>("indices_array")));
  if (!c.has("indices")) return {};
  const testing::golden_value v = c.params().at("indices");
  if (v.is_number()) return csg::node_indices(v.as_int64());
  return csg::node_indices(v.get<std::vector<std::int64_t>>());
}

/// The sources of each row of the result (SciPy's resolution of `indices`).
inline std::vector<std::int64_t> sources_of(const case_t& c, std::int64_t n) {
  std::vector<std::int64_t> v;
  if (c.has("indices_array")) {
    host_array a = harr(c.get<std::string>("indices_array")).astype(dtype::int64);
    v = a.to_vector<std::int64_t>();
  } else if (!c.has("indices")) {
    v.resize(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), 0);
  } else {
    const testing::golden_value j = c.params().at("indices");
    v = j.is_number() ? std::vector<std::int64_t>{j.as_int64()} : j.get<std::vector<std::int64_t>>();
  }
  for (auto& x : v)
    if (x < 0) x += n;
  return v;
}

/// Effective edges of the case: (u * n + v) -> smallest weight.
inline std::unordered_map<std::int64_t, double> edges_of(const case_t& c) {
  const std::string e = c.get<std::string>("edges");
  const std::int64_t n = c.get<std::int64_t>("n");
  const auto u = harr(e + "_u").to_vector<std::int32_t>();
  const auto v = harr(e + "_v").to_vector<std::int32_t>();
  const auto w = harr(e + "_w").to_vector<double>();
  std::unordered_map<std::int64_t, double> m;
  for (std::size_t i = 0; i < u.size(); ++i) {
    const std::int64_t k = u[i] * n + v[i];
    auto it = m.find(k);
    if (it == m.end() || w[i] < it->second) m[k] = w[i];
  }
  return m;
}

/// Checks that the predecessors realise the distances: for every row (source s, or the source set
/// with min_only) and node v with pred p != -9999, an edge p -> v with dist[p] + w == dist[v] (to
/// rtol/atol), the chain ends at a source within n steps (with `srcs`: at srcs[v]); pred -9999 only
/// for sources and unreachable nodes.
inline void check_realises(const host_array& dist_h, const host_array& pred_h, const std::vector<std::int64_t>& rows_src,
                           bool min_only, const host_array* srcs_h, const std::unordered_map<std::int64_t, double>& edges,
                           std::int64_t n, double rtol, double atol) {
  if (n == 0) return;
  const auto dist = dist_h.astype(dtype::float64).to_vector<double>();
  const auto pred = pred_h.to_vector<std::int32_t>();
  const std::int64_t rows = static_cast<std::int64_t>(dist.size()) / n;
  std::vector<char> is_src(static_cast<std::size_t>(n), 0);
  if (min_only)
    for (auto s : rows_src) is_src[static_cast<std::size_t>(s)] = 1;
  std::vector<std::int32_t> srcs;
  if (srcs_h) srcs = srcs_h->to_vector<std::int32_t>();
  std::int64_t bad = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const double* d = dist.data() + r * n;
    const std::int32_t* p = pred.data() + r * n;
    auto source = [&](std::int64_t v) { return min_only ? is_src[static_cast<std::size_t>(v)] != 0 : v == rows_src[static_cast<std::size_t>(r)]; };
    for (std::int64_t v = 0; v < n; ++v) {
      const std::int32_t q = p[v];
      if (!srcs.empty()) {
        const std::int32_t sv = srcs[static_cast<std::size_t>(v)];
        if (source(v) && sv != v && bad++ < 5) FAIL_CHECK("source " << v << ": sources says " << sv);
        if (std::isinf(d[v]) && sv != csg::null_predecessor && bad++ < 5)
          FAIL_CHECK("unreachable " << v << ": sources says " << sv);
      }
      if (q == csg::null_predecessor) {
        if (!(source(v) || std::isinf(d[v]))) {
          if (bad++ < 5) FAIL_CHECK("row " << r << " node " << v << ": no predecessor but dist " << d[v]);
        }
        continue;
      }
      auto it = edges.find(static_cast<std::int64_t>(q) * n + v);
      if (it == edges.end() || !(std::abs(d[q] + it->second - d[v]) <= atol + rtol * std::abs(d[v]))) {
        if (bad++ < 5) FAIL_CHECK("row " << r << " node " << v << ": predecessor " << q << " does not realise " << d[v]);
        continue;
      }
      std::int64_t x = v, steps = 0;
      while (p[x] != csg::null_predecessor && steps <= n) {
        x = p[x];
        ++steps;
      }
      if (steps > n || !source(x)) {
        if (bad++ < 5) FAIL_CHECK("row " << r << " node " << v << ": predecessor chain does not reach a source");
      } else if (!srcs.empty() && srcs[static_cast<std::size_t>(v)] != x) {
        if (bad++ < 5) FAIL_CHECK("node " << v << ": sources says " << srcs[static_cast<std::size_t>(v)] << ", chain ends at " << x);
      }
    }
  }
  CHECK(bad == 0);
}

}  // namespace cusci::sp_test
