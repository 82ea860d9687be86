#pragma once
// Shared by the flow family's tests: the reference cases (tests/golden/gen_sparse_csgraph_flow.py),
// their graphs on the host and the device, and the validity checks of flows and matchings.

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "csgraph/flow/flow_detail.hpp"
#include "cusci/sparse/csgraph/flow.hpp"
#include "cusci/sparse/csgraph/reordering.hpp"
#include "cusci/sparse/csgraph/spanning_tree.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace cusci::flow_test {

namespace cg = cusci::sparse::csgraph;
using case_t = testing::golden_case;
inline const std::string kModule = "sparse_csgraph_flow";

inline std::vector<case_t> cases_of(const std::string& func) { return testing::cases(kModule, func); }
inline host_array garray(const std::string& name) { return testing::golden(kModule, name); }
template <class T>
std::vector<T> gvec(const std::string& name) {
  return garray(name).astype(dtype_of<T>).template to_vector<T>();
}
template <class T>
std::vector<T> cvec(const case_t& c, const std::string& key) {
  return gvec<T>(c.get<std::string>(key));
}
inline sparse::shape2 shape_of(const case_t& c) {
  const auto v = c.get<std::vector<std::int64_t>>("shape");
  return {v.at(0), v.at(1)};
}

/// The case's graph as a host CSR (the arrays SciPy received, values as float64).
inline cg::detail::host_csr host_graph(const case_t& c) {
  const std::string g = c.get<std::string>("graph");
  cg::detail::host_csr h;
  h.nr = shape_of(c)[0];
  h.nc = shape_of(c)[1];
  const auto ptr = gvec<std::int64_t>(g + "_indptr");
  h.indptr.assign(ptr.begin(), ptr.end());
  h.indices = gvec<std::int32_t>(g + "_indices");
  h.data = gvec<double>(g + "_data");
  return h;
}

/// The case's graph on the device as a CSR matrix (the stored dtype).
inline sparse::csr_matrix device_csr(const case_t& c) {
  const std::string g = c.get<std::string>("graph");
  return sparse::csr_matrix(asarray(garray(g + "_data")), asarray(garray(g + "_indices")),
                            asarray(garray(g + "_indptr")), sparse::matrix_options{.shape = shape_of(c)});
}

/// The case's graph in its form (csr, csc, coo, dia, bsr) as an spmatrix.
inline sparse::spmatrix device_sparse(const case_t& c) {
  const auto m = device_csr(c);
  const std::string f = c.get<std::string>("form");
  if (f == "csr") return m;
  if (f == "csc") return m.tocsc();
  if (f == "coo") return m.tocoo();
  if (f == "dia") return m.todia();
  if (f == "bsr") return m.tobsr();
  FAIL("unknown sparse form " << f);
  return m;
}

/// A flow on SciPy's residual structure is valid: positive flows within the capacities, antisymmetric per pair of
/// nodes, conserved at every node but source and sink, `value` out of the source.
inline void check_flow(const std::vector<std::int64_t>& indptr, const std::vector<std::int32_t>& indices,
                       const std::vector<std::int32_t>& rcap, const std::vector<std::int32_t>& flow, std::int64_t value,
                       std::int64_t source, std::int64_t sink) {
  const std::int64_t n = static_cast<std::int64_t>(indptr.size()) - 1;
  REQUIRE(flow.size() == indices.size());
  REQUIRE(rcap.size() == indices.size());
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> net;
  std::int64_t bad_cap = 0, bad_conservation = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t out = 0;
    for (std::int64_t e = indptr[i]; e < indptr[i + 1]; ++e) {
      bad_cap += flow[e] > 0 && flow[e] > rcap[e];  // negative flow: the reverse entry's positive one
      out += flow[e];
      net[{i, indices[e]}] += flow[e];
    }
    if (i == source) CHECK(out == value);
    else if (i == sink) CHECK(out == -value);
    else bad_conservation += out != 0;
  }
  CHECK(bad_cap == 0);
  CHECK(bad_conservation == 0);
  std::int64_t bad_anti = 0;
  for (const auto& [k, v] : net) {
    if (k.first == k.second) {
      bad_anti += v != 0;
      continue;
    }
    const auto it = net.find({k.second, k.first});
    bad_anti += it == net.end() ? v != 0 : v != -it->second;
  }
  CHECK(bad_anti == 0);
}

/// A matching given as "row of each column" (perm_type row) or "column of each row" is valid for the
/// pattern (every pair an edge, no vertex used twice); returns its size.
inline std::int64_t check_matching(const cg::detail::host_csr& g, const std::vector<std::int32_t>& perm, bool by_column) {
  std::vector<char> used(by_column ? g.nr : g.nc, 0);
  std::int64_t size = 0;
  for (std::size_t k = 0; k < perm.size(); ++k) {
    if (perm[k] < 0) continue;
    const std::int64_t row = by_column ? perm[k] : static_cast<std::int64_t>(k);
    const std::int64_t col = by_column ? static_cast<std::int64_t>(k) : perm[k];
    REQUIRE(row < g.nr);
    REQUIRE(col < g.nc);
    bool edge = false;
    for (std::int64_t e = g.indptr[row]; e < g.indptr[row + 1]; ++e) edge = edge || g.indices[e] == col;
    CHECK(edge);
    CHECK_FALSE(used[perm[k]]);
    used[perm[k]] = 1;
    ++size;
  }
  return size;
}

}  // namespace cusci::flow_test
