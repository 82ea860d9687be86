#pragma once
// Helpers of the csgraph traversal family's tests: the cases of
// tests/golden/gen_sparse_csgraph_traversal.py, their graphs on the host (host algorithms) and on the
// device in the case's input form (weights 1 where the generator stores none), and exact comparisons.

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "csgraph/traversal/traversal_internal.hpp"  // sparse/src
#include "cusci/sparse/csgraph/laplacian.hpp"
#include "cusci/sparse/csgraph/predecessors.hpp"
#include "cusci/sparse/csgraph/traversal.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace cusci::traversal_test {

using case_t = testing::golden_case;
namespace cg = cusci::sparse::csgraph;
inline const std::string kModule = "sparse_csgraph_traversal";

inline std::vector<case_t> cases_of(const std::string& func) { return testing::cases(kModule, func); }

inline host_array arr(const std::string& name) { return testing::golden(kModule, name); }

inline std::string graph_name(const case_t& c) { return c.get<std::string>("graph"); }
inline std::string fmt(const case_t& c) { return c.get<std::string>("fmt"); }
inline std::vector<std::int64_t> shape_of(const case_t& c) { return c.get<std::vector<std::int64_t>>("shape"); }

/// The case's graph as a host adjacency (csr cases only: the validated graph is the input CSR).
inline cg::detail::host_adjacency host_graph(const case_t& c) {
  const std::string g = graph_name(c);
  cg::detail::host_adjacency h;
  h.n = static_cast<std::int32_t>(shape_of(c)[0]);
  const auto p = arr(g + "_indptr").to_vector<std::int32_t>();
  h.indptr.assign(p.begin(), p.end());
  h.indices = arr(g + "_indices").to_vector<std::int32_t>();
  return h;
}
/// Whether the case's graph stores its weights (the large csr graphs do not: their weights are all 1).
inline bool has_data(const case_t& c) { return testing::has_golden(kModule, graph_name(c) + "_data"); }

inline std::vector<double> host_data(const case_t& c) {
  if (!has_data(c)) return std::vector<double>(static_cast<std::size_t>(arr(graph_name(c) + "_indices").size()), 1.0);
  return arr(graph_name(c) + "_data").to_vector<double>();
}

/// The case's graph on the device in its form (csr, csc, coo or dense), converted to `dt`.
inline sparse::csgraph::graph_input device_graph(const case_t& c, dtype dt = dtype::float64) {
  const std::string g = graph_name(c), f = fmt(c);
  const auto sh = shape_of(c);
  const sparse::shape2 shape{sh[0], sh[1]};
  if (f == "dense") return asarray(arr(g + "_dense")).astype(dt);
  const ndarray data = has_data(c) ? asarray(arr(g + "_data")).astype(dt)
                                   : ones({arr(g + (f == "coo" ? "_row" : "_indices")).size()}, dt);
  if (f == "coo")
    return sparse::coo_matrix(data, {asarray(arr(g + "_row")), asarray(arr(g + "_col"))}, {.shape = shape});
  const ndarray ind = asarray(arr(g + "_indices")), ptr = asarray(arr(g + "_indptr"));
  if (f == "csc") return sparse::csc_matrix(data, ind, ptr, {.shape = shape});
  return sparse::csr_matrix(data, ind, ptr, {.shape = shape});
}

inline void check_equal(const std::vector<std::int32_t>& got, const host_array& want) {
  const auto w = want.astype(dtype::int32).to_vector<std::int32_t>();
  REQUIRE(got.size() == w.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (got[i] != w[i] && bad++ == 0) first = i;
  CHECK_MESSAGE(bad == 0, bad << " of " << w.size() << " differ; first at " << first << ": got " << got[first]
                              << ", expected " << w[first]);
}

inline void check_equal(const ndarray& got, const host_array& want) {
  CHECK(got.dtype() == dtype::int32);
  check_equal(to_host(got).to_vector<std::int32_t>(), want);
}

}  // namespace cusci::traversal_test
