// Host tests of cusci::sparse::csgraph's flow family (no GPU): the string parsers, and the family's
// host algorithms against SciPy 1.18.1 (tests/golden/gen_sparse_csgraph_flow.py) through the internal
// header: Cuthill-McKee on the stored patterns, Hopcroft-Karp (SciPy's matching exactly), the
// minimum-weight full matching (SciPy's cost), Edmonds-Karp and Dinic (SciPy's value and residual
// structure, a valid flow).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "flow_test_util.hpp"

using namespace cusci;
using namespace cusci::flow_test;
namespace det = cusci::sparse::csgraph::detail;

TEST_CASE("the string options parse SciPy's strings") {
  CHECK(cg::parse_flow_method("dinic") == cg::flow_method::dinic);
  CHECK(cg::parse_flow_method("edmonds_karp") == cg::flow_method::edmonds_karp);
  CHECK_THROWS_AS(cg::parse_flow_method("foo"), value_error);
  CHECK_THROWS_AS(cg::parse_flow_method("Dinic"), value_error);
  CHECK(cg::parse_perm_type("row") == cg::matching_perm_type::row);
  CHECK(cg::parse_perm_type("column") == cg::matching_perm_type::column);
  CHECK_THROWS_AS(cg::parse_perm_type("col"), value_error);
  CHECK(cg::maximum_flow_options{}.method == cg::flow_method::dinic);
  CHECK(cg::maximum_bipartite_matching_options{}.perm_type == cg::matching_perm_type::row);
  CHECK_FALSE(cg::min_weight_full_bipartite_matching_options{}.maximize);
  CHECK_FALSE(cg::reverse_cuthill_mckee_options{}.symmetric_mode);
  CHECK_FALSE(cg::minimum_spanning_tree_options{}.overwrite);
  try {
    cg::parse_flow_method("bfs");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("bfs method is not supported yet.") != std::string::npos);
  }
}

TEST_CASE("Cuthill-McKee on the host gives the reference order") {
  const auto cs = cases_of("reverse_cuthill_mckee");
  int n = 0;
  for (const auto& c : cs) {
    if (c.expects_error()) continue;
    CAPTURE(c.name());
    det::host_csr h;
    h.nr = h.nc = shape_of(c)[0];
    const auto ptr = cvec<std::int64_t>(c, "pat_indptr");
    h.indptr.assign(ptr.begin(), ptr.end());
    h.indices = cvec<std::int32_t>(c, "pat_indices");
    CHECK(det::rcm_host(h) == cvec<std::int32_t>(c, "perm"));
    ++n;
  }
  CHECK(n >= 80);
}

TEST_CASE("A + A^T has SciPy's row order (the neighbour order of Cuthill-McKee)") {
  // For every symmetric_mode=false case: the input's compressed arrays (a CSC's made by a stable
  // transpose, as SciPy's tocsc), the sum's pattern with sorted rows; SciPy's A + A^T lists sorted
  // rows for a canonical input, else the order scipy_sum_order reproduces.
  int n = 0, reordered = 0;
  for (const auto& c : cases_of("reverse_cuthill_mckee")) {
    if (c.expects_error() || c.get<bool>("symmetric_mode")) continue;
    CAPTURE(c.name());
    det::host_csr a = host_graph(c);
    if (c.get<std::string>("form") == "csc") {
      det::host_csr t;
      t.nr = t.nc = a.nr;
      t.indptr.assign(a.nr + 1, 0);
      for (const auto j : a.indices) ++t.indptr[j + 1];
      for (std::int64_t i = 0; i < a.nr; ++i) t.indptr[i + 1] += t.indptr[i];
      t.indices.resize(a.indices.size());
      std::vector<std::int64_t> next(t.indptr.begin(), t.indptr.end() - 1);
      for (std::int64_t r = 0; r < a.nr; ++r)
        for (std::int64_t e = a.indptr[r]; e < a.indptr[r + 1]; ++e)
          t.indices[next[a.indices[e]]++] = static_cast<std::int32_t>(r);
      a = t;
    }
    bool canonical = true;
    for (std::int64_t i = 0; i < a.nr; ++i)
      for (std::int64_t e = a.indptr[i] + 1; e < a.indptr[i + 1]; ++e) canonical &= a.indices[e - 1] < a.indices[e];
    det::host_csr sum;
    sum.nr = sum.nc = a.nr;
    const auto ptr = cvec<std::int64_t>(c, "pat_indptr");
    sum.indptr.assign(ptr.begin(), ptr.end());
    const auto want = cvec<std::int32_t>(c, "pat_indices");
    sum.indices = want;
    for (std::int64_t i = 0; i < sum.nr; ++i) std::sort(sum.indices.begin() + sum.indptr[i], sum.indices.begin() + sum.indptr[i + 1]);
    if (canonical) {
      CHECK(sum.indices == want);
    } else {
      sum.indices = det::scipy_sum_order(a, sum);
      CHECK(sum.indices == want);
      CHECK(det::rcm_host(sum) == cvec<std::int32_t>(c, "perm"));
      ++reordered;
    }
    ++n;
  }
  CHECK(n >= 40);
  CHECK(reordered >= 6);
}

TEST_CASE("Hopcroft-Karp on the host gives SciPy's matching") {
  int n = 0;
  for (const auto& c : cases_of("maximum_bipartite_matching")) {
    if (c.expects_error() || c.get<std::string>("form") != "csr") continue;
    CAPTURE(c.name());
    const auto g = host_graph(c);
    const auto r = det::hopcroft_karp_host(g);
    const bool column = c.get<std::string>("perm_type") == "column";
    CHECK((column ? r.x : r.y) == cvec<std::int32_t>(c, "perm"));
    CHECK(r.size == c.get<std::int64_t>("size"));
    CHECK(check_matching(g, column ? r.x : r.y, !column) == r.size);
    ++n;
  }
  CHECK(n >= 30);
  for (const auto& c : cases_of("structural_rank")) {
    if (c.get<std::string>("form") != "csr") continue;
    CAPTURE(c.name());
    CHECK(det::hopcroft_karp_host(host_graph(c)).size == c.get<std::int64_t>("rank"));
  }
}

TEST_CASE("the minimum-weight full matching on the host has SciPy's cost") {
  int n = 0;
  for (const auto& c : cases_of("min_weight_full_bipartite_matching")) {
    if (c.expects_error() || c.get<std::string>("form") != "csr" || c.get<bool>("maximize")) continue;
    auto g = host_graph(c);
    if (g.nr > g.nc) continue;
    bool plain = true;  // no zero or infinite weights (the public function filters those)
    for (const double w : g.data) plain = plain && w != 0.0 && std::isfinite(w);
    for (std::int64_t i = 0; i < g.nr; ++i)  // and no parallel entries (the reference cost sums them)
      for (std::int64_t e = g.indptr[i]; e + 1 < g.indptr[i + 1]; ++e)
        for (std::int64_t f = e + 1; f < g.indptr[i + 1]; ++f) plain = plain && g.indices[e] != g.indices[f];
    if (!plain) continue;
    CAPTURE(c.name());
    const auto x = det::min_weight_matching_host(g, "test");
    REQUIRE(static_cast<std::int64_t>(x.size()) == g.nr);
    double cost = 0;
    std::vector<char> used(g.nc, 0);
    for (std::int64_t i = 0; i < g.nr; ++i) {
      REQUIRE(x[i] >= 0);
      CHECK_FALSE(used[x[i]]);
      used[x[i]] = 1;
      double w = std::numeric_limits<double>::infinity();
      for (std::int64_t e = g.indptr[i]; e < g.indptr[i + 1]; ++e)
        if (g.indices[e] == x[i]) w = std::min(w, g.data[e]);
      REQUIRE(std::isfinite(w));
      cost += w;
    }
    const double want = c.get<double>("cost");
    CHECK(std::abs(cost - want) <= 1e-9 * std::max(1.0, std::abs(want)));
    ++n;
  }
  CHECK(n >= 6);
}

TEST_CASE("Edmonds-Karp and Dinic on the host: SciPy's value and structure, a valid flow") {
  int n = 0;
  for (const auto& c : cases_of("maximum_flow")) {
    if (c.expects_error()) continue;
    CAPTURE(c.name());
    const auto g = host_graph(c);
    std::vector<std::int32_t> cap(g.data.size());
    // The capacities as SciPy's astype(int32) (the stored integers, wrapped).
    const auto raw = gvec<std::int64_t>(c.get<std::string>("graph") + "_data");
    for (std::size_t k = 0; k < cap.size(); ++k) cap[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(raw[k]));
    const auto src = c.get<std::int64_t>("source"), snk = c.get<std::int64_t>("sink");
    const auto r = det::max_flow_host(g.nr, g.indptr, g.indices, cap, static_cast<std::int32_t>(src),
                                      static_cast<std::int32_t>(snk), c.get<std::string>("method") == "dinic");
    CHECK(r.value == c.get<std::int64_t>("flow_value"));
    const auto ptr = cvec<std::int64_t>(c, "flow_indptr");
    CHECK(r.indptr == ptr);
    CHECK(r.indices == cvec<std::int32_t>(c, "flow_indices"));
    check_flow(r.indptr, r.indices, cvec<std::int32_t>(c, "rcap"), r.flow, r.value, src, snk);
    ++n;
  }
  CHECK(n >= 40);
}
