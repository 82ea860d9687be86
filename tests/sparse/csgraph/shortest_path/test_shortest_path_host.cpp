// Host tests of cusci::sparse::csgraph's shortest_path family: the argument errors SciPy raises that
// cusci throws before any device work (on data-less arrays, references from
// tests/golden/gen_sparse_csgraph_shortest_path.py), the method parser, SciPy's 'auto' rule, the
// handling of `indices`, and the host algorithms through the internal header: Yen's K shortest
// loopless paths (against an exhaustive enumeration of simple paths), the Bellman-Ford potentials
// (negative cycles), the host Dijkstra.

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <random>

#include "csgraph/shortest_path/sp_internal.hpp"
#include "sp_test_util.hpp"

using namespace cusci;
using namespace cusci::sp_test;
namespace spi = cusci::sparse::csgraph::detail::sp;

TEST_CASE("argument errors are thrown before any device work, with SciPy's exception types") {
  const auto& all = testing::cases(kModule);
  int ran = 0;
  for (const auto& c : all) {
    if (!c.expects_error() || c.get_or<std::string>("stage", "") != "host") continue;
    CAPTURE(c.name());
    const auto sh = c.get<std::vector<std::int64_t>>("shape");
    const ndarray g = testing::fake_array(dtype::float64, shape_t(sh.begin(), sh.end()));
    const std::string f = c.func();
    testing::check_error(c, [&] {
      if (f == "dijkstra")
        (void)csg::dijkstra(g, {.indices = indices_of(c),
                                .limit = c.get_or<double>("limit", std::numeric_limits<double>::infinity())});
      else if (f == "bellman_ford") (void)csg::bellman_ford(g, {.indices = indices_of(c)});
      else if (f == "johnson") (void)csg::johnson(g, {.indices = indices_of(c)});
      else if (f == "floyd_warshall") (void)csg::floyd_warshall(g);
      else if (f == "shortest_path")
        (void)csg::shortest_path(g, {.method = csg::parse_shortest_path_method(c.get<std::string>("method")),
                                     .indices = indices_of(c)});
      else if (f == "parse_shortest_path_method") (void)csg::parse_shortest_path_method(c.get<std::string>("method"));
      else if (f == "yen")
        (void)csg::yen(g, c.get<std::int64_t>("source"), c.get<std::int64_t>("sink"), c.get<std::int64_t>("K"));
      else FAIL("unknown func " << f);
    });
    ++ran;
  }
  CHECK(ran >= 12);
}

TEST_CASE("error messages name the function and the parameter") {
  const ndarray g = testing::fake_array(dtype::float64, {4, 4});
  try {
    (void)csg::dijkstra(g, {.indices = 9});
    FAIL("no throw");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()) == "cusci::sparse::csgraph::dijkstra: indices out of range 0...N");
  }
  try {
    (void)csg::dijkstra(g, {.limit = -2.0});
    FAIL("no throw");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()) == "cusci::sparse::csgraph::dijkstra: limit must be >= 0");
  }
  CHECK_THROWS_WITH_AS(csg::parse_shortest_path_method("fw"),
                       "cusci::sparse::csgraph::shortest_path: unrecognized method 'fw'", value_error);
  CHECK_THROWS_AS(csg::yen(g, 0, 1, -1), value_error);
  CHECK_THROWS_AS(csg::dijkstra(testing::fake_array(dtype::complex128, {3, 3})), type_error);
  // negative_cycle_error is a cusci::error but not a value_error (SciPy: derives from Exception)
  CHECK_THROWS_AS(throw csg::negative_cycle_error("x"), cusci::error);
  CHECK_FALSE(std::is_base_of_v<value_error, csg::negative_cycle_error>);
}

TEST_CASE("parse_shortest_path_method and SciPy's auto rule") {
  using M = csg::shortest_path_method;
  CHECK(csg::parse_shortest_path_method("auto") == M::auto_select);
  CHECK(csg::parse_shortest_path_method("FW") == M::FW);
  CHECK(csg::parse_shortest_path_method("D") == M::D);
  CHECK(csg::parse_shortest_path_method("BF") == M::BF);
  CHECK(csg::parse_shortest_path_method("J") == M::J);
  CHECK(spi::auto_method(10, 25, false, false) == M::FW);  // 25 >= 100/4
  CHECK(spi::auto_method(10, 24, false, false) == M::D);
  CHECK(spi::auto_method(10, 24, true, false) == M::J);
  CHECK(spi::auto_method(10, 90, false, true) == M::D);  // indices given: never FW
  CHECK(spi::auto_method(10, 90, true, true) == M::J);
  CHECK(spi::auto_method(0, 0, false, false) == M::FW);  // 0 < 0 is false, as SciPy
  CHECK(spi::auto_method(3, 2, false, false) == M::D);  // 2 < 9/4
}

TEST_CASE("indices: none, scalar, negative, list, out of range") {
  const std::string fn = "f";
  auto r = spi::resolve_indices({}, 3, fn);
  CHECK(r.nodes == std::vector<std::int32_t>{0, 1, 2});
  CHECK(r.prefix == shape_t{3});
  CHECK_FALSE(r.given);
  r = spi::resolve_indices(2, 3, fn);
  CHECK(r.nodes == std::vector<std::int32_t>{2});
  CHECK(r.prefix == shape_t{});
  r = spi::resolve_indices(-1, 3, fn);
  CHECK(r.nodes == std::vector<std::int32_t>{2});
  r = spi::resolve_indices({0, -3, 1, 1}, 3, fn);
  CHECK(r.nodes == std::vector<std::int32_t>{0, 0, 1, 1});
  CHECK(r.prefix == shape_t{4});
  CHECK_THROWS_AS(spi::resolve_indices(3, 3, fn), value_error);
  CHECK_THROWS_AS(spi::resolve_indices(-4, 3, fn), value_error);
  CHECK_THROWS_AS(spi::resolve_indices(0, 0, fn), value_error);
  r = spi::resolve_indices(std::vector<std::int64_t>{}, 0, fn);
  CHECK(r.nodes.empty());
  CHECK(r.prefix == shape_t{0});
}

namespace {

spi::host_csr random_graph(std::mt19937_64& rng, int n, double p, bool integer, double lo, double hi) {
  spi::host_csr g;
  g.n = n;
  g.indptr.push_back(0);
  std::uniform_real_distribution<double> u(0, 1), w(lo, hi);
  std::uniform_int_distribution<int> wi(static_cast<int>(lo), static_cast<int>(hi));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      if (i != j && u(rng) < p) {
        g.indices.push_back(j);
        g.w.push_back(integer ? wi(rng) : w(rng));
      }
    g.indptr.push_back(static_cast<std::int64_t>(g.indices.size()));
  }
  return g;
}

// Every simple path's length from s to t, sorted.
std::vector<double> all_simple_paths(const spi::host_csr& g, int s, int t) {
  std::vector<double> out;
  std::vector<char> on(static_cast<std::size_t>(g.n), 0);
  std::function<void(int, double)> go = [&](int v, double c) {
    if (v == t) {
      out.push_back(c);
      return;
    }
    on[v] = 1;
    for (std::int64_t e = g.indptr[v]; e < g.indptr[v + 1]; ++e) {
      const int x = g.indices[e];
      if (!on[x]) {
        // parallel edges: only the smallest weight per (v, x) pair forms a distinct node path
        double best = g.w[e];
        bool first = true;
        for (std::int64_t f = g.indptr[v]; f < g.indptr[v + 1]; ++f)
          if (g.indices[f] == x) {
            if (f < e) first = false;
            best = std::min(best, g.w[f]);
          }
        if (first) go(x, c + best);
      }
    }
    on[v] = 0;
  };
  go(s, 0.0);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("yen_host: the K shortest loopless paths equal the K smallest simple-path lengths") {
  std::mt19937_64 rng(20261202);
  for (int trial = 0; trial < 40; ++trial) {
    CAPTURE(trial);
    const bool integer = trial % 2 == 0;
    const spi::host_csr g = random_graph(rng, 7 + trial % 3, 0.35, integer, 1, integer ? 3 : 9);
    const int s = trial % g.n, t = (trial * 3 + 1) % g.n;
    const std::vector<double> ref = all_simple_paths(g, s, t);
    const std::int64_t K = 1 + trial % 9;
    std::vector<double> costs;
    std::vector<std::vector<std::int32_t>> paths;
    spi::yen_host(g, s, t, K, costs, paths);
    const std::size_t expect = s == t ? 1 : std::min<std::size_t>(ref.size(), static_cast<std::size_t>(K));
    REQUIRE(costs.size() == expect);
    for (std::size_t k = 0; k < costs.size(); ++k) {
      CHECK(costs[k] == doctest::Approx(ref[k]).epsilon(1e-12));
      CHECK(paths[k].front() == s);
      CHECK(paths[k].back() == t);
    }
    CHECK(std::is_sorted(costs.begin(), costs.end()));
  }
}

TEST_CASE("yen_host with negative weights (reweighted) and negative cycles") {
  // 0 -> 1 (2), 0 -> 2 (5), 2 -> 1 (-4), 1 -> 3 (1), 2 -> 3 (3)
  spi::host_csr g;
  g.n = 4;
  g.indptr = {0, 2, 3, 5, 5};
  g.indices = {1, 2, 3, 1, 3};
  g.w = {2, 5, 1, -4, 3};
  std::vector<double> costs;
  std::vector<std::vector<std::int32_t>> paths;
  spi::yen_host(g, 0, 3, 5, costs, paths);
  REQUIRE(costs.size() == 3);
  CHECK(costs[0] == 2.0);  // 0 2 1 3
  CHECK(costs[1] == 3.0);  // 0 1 3
  CHECK(costs[2] == 8.0);  // 0 2 3
  CHECK(paths[0] == std::vector<std::int32_t>{0, 2, 1, 3});
  g.w[2] = -10;  // 1 -> 3 stays; make a cycle: add 3 -> 0? instead 1 -> 3 (-10) has no cycle
  g.indptr = {0, 2, 3, 5, 6};
  g.indices.push_back(0);
  g.w.push_back(1.0);  // 3 -> 0 (1): cycle 0 1 3 0 = 2 - 10 + 1 < 0
  CHECK_THROWS_AS(spi::yen_host(g, 0, 3, 2, costs, paths), csg::negative_cycle_error);
  std::vector<double> h;
  CHECK(spi::potentials_host(g, h) >= 0);
}

TEST_CASE("dijkstra_host and potentials_host") {
  spi::host_csr g;
  g.n = 4;
  g.indptr = {0, 2, 3, 5, 5};
  g.indices = {1, 2, 3, 0, 3};
  g.w = {1, 2, 1, 2, 3};
  std::vector<double> d;
  std::vector<std::int32_t> p;
  spi::dijkstra_host(g, 0, d, p);
  CHECK(d == std::vector<double>{0, 1, 2, 2});
  CHECK(p == std::vector<std::int32_t>{-9999, 0, 0, 1});
  std::vector<double> h;
  CHECK(spi::potentials_host(g, h) == -1);
  CHECK(h == std::vector<double>{0, 0, 0, 0});
}
