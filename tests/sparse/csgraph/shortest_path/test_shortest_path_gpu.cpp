// GPU tests of cusci::sparse::csgraph's shortest_path family against SciPy 1.18.1
// (tests/golden/gen_sparse_csgraph_shortest_path.py): dijkstra, bellman_ford, johnson,
// floyd_warshall, shortest_path (every method and the 'auto' rule) and yen, on csr / csc / coo /
// dense inputs, directed and undirected, unweighted, explicit zeros, duplicate edges, self-loops,
// N = 0 / 1, graphs without edges, disconnected graphs, negative weights and negative cycles
// (negative_cycle_error), every form of `indices`, limit, min_only (with sources), overwrite, the
// UserWarning of dijkstra on negative weights, the errors SciPy raises that need the data, and
// dijkstra on two large graphs that keep both relaxation paths tested (one past the single-block path's
// node limit, one at its node and edge limits).
// Distances are compared to SciPy's; predecessors exactly where SciPy's are unique, else checked to
// realise the distances and to lead back to the source.

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "cusci/warnings.hpp"
#include "sp_test_util.hpp"

using namespace cusci;
using namespace cusci::sp_test;

namespace {

csg::paths_result call_paths(const case_t& c, const csg::graph_input& g) {
  const std::string f = c.func();
  const bool directed = c.get<bool>("directed");
  const bool rp = c.get<bool>("return_predecessors");
  const bool uw = c.get<bool>("unweighted");
  if (f == "dijkstra")
    return csg::dijkstra(g, {.directed = directed, .indices = indices_of(c), .return_predecessors = rp,
                             .unweighted = uw,
                             .limit = c.get_or<double>("limit", std::numeric_limits<double>::infinity()),
                             .min_only = c.get<bool>("min_only")});
  if (f == "bellman_ford")
    return csg::bellman_ford(g, {.directed = directed, .indices = indices_of(c), .return_predecessors = rp,
                                 .unweighted = uw});
  if (f == "johnson")
    return csg::johnson(g, {.directed = directed, .indices = indices_of(c), .return_predecessors = rp,
                            .unweighted = uw});
  if (f == "floyd_warshall")
    return csg::floyd_warshall(g, {.directed = directed, .return_predecessors = rp, .unweighted = uw,
                                   .overwrite = c.get<bool>("overwrite")});
  return csg::shortest_path(g, {.method = csg::parse_shortest_path_method(c.get<std::string>("method")),
                                .directed = directed,
                                .return_predecessors = rp,
                                .unweighted = uw,
                                .overwrite = c.get<bool>("overwrite"),
                                .indices = indices_of(c)});
}

void check_paths_case(const case_t& c) {
  CAPTURE(c.name());
  const csg::graph_input g = graph_of(c);
  if (c.expects_error()) {
    testing::check_error(c, [&] { (void)call_paths(c, g); });
    return;
  }
  if (c.has("raises")) {
    CHECK_THROWS_AS((void)call_paths(c, g), csg::negative_cycle_error);
    CHECK_THROWS_AS((void)call_paths(c, g), cusci::error);
    return;
  }
  warning_capture cap;
  const csg::paths_result r = call_paths(c, g);
  // warnings: SciPy's UserWarnings, same messages
  std::multiset<std::string> want, got;
  for (const auto& w : c.get<std::vector<std::string>>("warns")) want.insert(w);
  for (const auto& w : cap.warnings())
    if (w.category == "UserWarning") got.insert(w.message);
  CHECK(want == got);

  const host_array dist_ref = c.array("dist");
  testing::check_allclose(r.dist_matrix, dist_ref, c.rtol(), c.atol());
  const std::int64_t n = c.get<std::int64_t>("n");
  const bool rp = c.get<bool>("return_predecessors");
  const bool min_only = c.get<bool>("min_only");
  if (!rp) {
    CHECK(r.predecessors.size() == 0);
  } else {
    const host_array pred_ref = c.array("pred");
    const host_array pred = to_host(r.predecessors);
    REQUIRE(pred.dtype() == dtype::int32);
    REQUIRE(pred.shape() == pred_ref.shape());
    std::optional<host_array> srcs;
    if (min_only) {
      srcs = to_host(r.sources);
      REQUIRE(srcs->shape() == shape_t{n});
      REQUIRE(srcs->dtype() == dtype::int32);
    }
    if (c.get<bool>("pred_unique")) {
      testing::check_allclose(pred, pred_ref, 0, 0);
      if (min_only) testing::check_allclose(*srcs, c.array("sources"), 0, 0);
    }
    const std::vector<std::int64_t> rows_src = sources_of(c, n);
    check_realises(to_host(r.dist_matrix), pred, rows_src, min_only, srcs ? &*srcs : nullptr, edges_of(c), n,
                   std::max(c.rtol(), 1e-12), c.atol());
  }
  if (!min_only || !rp) CHECK(r.sources.size() == 0);
  if (c.get<bool>("overwrite") && !g.is_sparse()) {
    // the input array now holds the result
    testing::check_allclose(g.dense(), dist_ref, c.rtol(), c.atol());
  }
}

// The graphs of the generator's "large" group: big_csr (150,000 nodes: past the single-block path's
// node limit, so the grid path) and blk_csr (2^17 nodes and 2^19 edges: the single-block path's largest
// graph). They have a test case of their own.
bool large_graph(const case_t& c) {
  const std::string g = c.get_or<std::string>("graph", "");
  return g == "big_csr" || g == "blk_csr";
}

void run_func(const std::string& f, std::size_t at_least) {
  const auto cs = cases_of(f);
  REQUIRE(cs.size() >= at_least);
  for (const auto& c : cs) {
    if (c.expects_error() && c.get_or<std::string>("stage", "gpu") == "host") continue;  // host test
    if (large_graph(c)) continue;
    check_paths_case(c);
  }
}

}  // namespace

TEST_CASE("dijkstra matches SciPy (indices, limit, min_only, unweighted, every input form)") { run_func("dijkstra", 200); }
TEST_CASE("dijkstra on large graphs: the grid path past 2^17 nodes, the single-block path at its limits") {
  int big = 0, blk = 0;
  for (const auto& c : cases_of("dijkstra")) {
    if (!large_graph(c)) continue;
    (c.get<std::string>("graph") == "big_csr" ? big : blk) += 1;
    check_paths_case(c);
  }
  CHECK(big >= 5);
  CHECK(blk >= 3);
}
TEST_CASE("bellman_ford matches SciPy, negative cycles raise negative_cycle_error") { run_func("bellman_ford", 80); }
TEST_CASE("johnson matches SciPy, negative cycles raise negative_cycle_error") { run_func("johnson", 80); }
TEST_CASE("floyd_warshall matches SciPy (blocked kernel, predecessors, overwrite)") { run_func("floyd_warshall", 50); }
TEST_CASE("shortest_path: SciPy's auto rule and every method") { run_func("shortest_path", 80); }

TEST_CASE("yen matches SciPy: path lengths, valid loopless paths") {
  const auto cs = cases_of("yen");
  REQUIRE(cs.size() >= 10);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    if (c.expects_error() && c.get_or<std::string>("stage", "gpu") == "host") continue;
    const csg::graph_input g = graph_of(c);
    const auto source = c.get<std::int64_t>("source"), sink = c.get<std::int64_t>("sink"), K = c.get<std::int64_t>("K");
    const csg::yen_options o{.directed = c.get<bool>("directed"), .return_predecessors = true,
                             .unweighted = c.get<bool>("unweighted")};
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)csg::yen(g, source, sink, K, o); });
      continue;
    }
    if (c.has("raises")) {
      CHECK_THROWS_AS((void)csg::yen(g, source, sink, K, o), csg::negative_cycle_error);
      continue;
    }
    const csg::yen_result r = csg::yen(g, source, sink, K, o);
    const host_array dref = c.array("dist");
    testing::check_allclose(r.dist_array, dref, c.rtol(), c.atol());
    const std::int64_t n = c.get<std::int64_t>("n");
    const host_array pred = to_host(r.predecessors);
    REQUIRE(pred.shape() == shape_t{dref.size(), n});
    const auto p = pred.to_vector<std::int32_t>();
    const auto costs = to_host(r.dist_array).to_vector<double>();
    const auto edges = edges_of(c);
    std::set<std::vector<std::int64_t>> seen;
    for (std::int64_t k = 0; k < dref.size(); ++k) {
      std::vector<std::int64_t> path{sink};
      double cost = 0;
      std::int64_t x = sink;
      while (x != source && path.size() <= static_cast<std::size_t>(n)) {
        const std::int32_t q = p[static_cast<std::size_t>(k * n + x)];
        REQUIRE(q != csg::null_predecessor);
        auto it = edges.find(q * n + x);
        REQUIRE(it != edges.end());
        cost += it->second;
        x = q;
        path.push_back(x);
      }
      CHECK(x == source);
      CHECK(std::abs(cost - costs[static_cast<std::size_t>(k)]) <= 1e-9 * std::max(1.0, std::abs(cost)));
      std::set<std::int64_t> nodes(path.begin(), path.end());
      CHECK(nodes.size() == path.size());  // loopless
      CHECK(seen.insert(path).second);      // distinct
    }
  }
}

TEST_CASE("node_indices forms and result shapes") {
  const ndarray dense = asarray(std::vector<double>{0, 1, 2, 0, 0, 0, 0, 1, 2, 0, 0, 3, 0, 0, 0, 0}, {4, 4});
  CHECK(csg::dijkstra(dense).dist_matrix.shape() == shape_t{4, 4});
  CHECK(csg::dijkstra(dense, {.indices = 2}).dist_matrix.shape() == shape_t{4});
  CHECK(csg::dijkstra(dense, {.indices = {0, 2, 3}}).dist_matrix.shape() == shape_t{3, 4});
  CHECK(csg::dijkstra(dense, {.indices = std::vector<std::int64_t>{}}).dist_matrix.shape() == shape_t{0, 4});
  const auto r = csg::dijkstra(dense, {.indices = {0, 2}, .return_predecessors = true, .min_only = true});
  CHECK(r.dist_matrix.shape() == shape_t{4});
  CHECK(r.sources.shape() == shape_t{4});
  CHECK(csg::shortest_path(dense, {.indices = 1}).dist_matrix.shape() == shape_t{4});
  CHECK_THROWS_AS(csg::floyd_warshall(sparse::coo_matrix(dense)), value_error);
}
