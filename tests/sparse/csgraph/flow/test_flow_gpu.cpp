// GPU tests of cusci::sparse::csgraph's flow family against SciPy 1.18.1
// (tests/golden/gen_sparse_csgraph_flow.py): minimum_spanning_tree (SciPy's tree exactly, every input
// form, ties, explicit zeros, duplicates, NaN/inf, negative weights, empty graphs, the bundled
// matrices), reverse_cuthill_mckee (the reference permutation: SciPy's wherever SciPy's start nodes
// are unambiguous), maximum_bipartite_matching (SciPy's matching), structural_rank,
// min_weight_full_bipartite_matching (valid, SciPy's cost and dtypes), maximum_flow (SciPy's value
// and residual structure, a valid flow), and SciPy's errors.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "flow_test_util.hpp"

using namespace cusci;
using namespace cusci::flow_test;

namespace {

cg::graph_input mst_input(const case_t& c) {
  if (c.get<std::string>("form") == "dense") return device_csr(c).toarray();
  return device_sparse(c);
}

}  // namespace

TEST_CASE("minimum_spanning_tree returns SciPy's tree") {
  const auto cs = cases_of("minimum_spanning_tree");
  REQUIRE(cs.size() >= 80);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::minimum_spanning_tree(mst_input(c)); });
      continue;
    }
    const auto t = cg::minimum_spanning_tree(mst_input(c));
    CHECK(t.shape() == shape_of(c));
    testing::check_allclose(t.indptr(), c.array("indptr"), 0, 0);
    testing::check_allclose(t.indices(), c.array("indices"), 0, 0);
    testing::check_allclose(t.data(), c.array("data"), 0, 0);
  }
}

TEST_CASE("minimum_spanning_tree: a 2^16-node random graph gives the forest of Kruskal's order") {
  // Larger than the references: a random graph with tied integer weights; the tree from the device
  // must have the same total weight and edge count as a host Kruskal over (weight, CSR position).
  const std::int64_t n = 1 << 16, m = 1 << 19;
  std::vector<std::int32_t> r(m), col(m);
  std::vector<double> w(m);
  std::uint64_t x = 12345;
  auto next = [&] {
    x += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (std::int64_t k = 0; k < m; ++k) {
    r[k] = static_cast<std::int32_t>(next() % n);
    col[k] = static_cast<std::int32_t>(next() % n);
    w[k] = static_cast<double>(next() % 8);
  }
  const sparse::coo_matrix coo(asarray(w), asarray(r), asarray(col), {n, n});
  const sparse::csr_matrix g = coo.tocsr();
  const auto t = cg::minimum_spanning_tree(g);
  // host Kruskal
  const auto ptr = to_host(g.indptr().astype(dtype::int64)).to_vector<std::int64_t>();
  const auto idx = to_host(g.indices().astype(dtype::int32)).to_vector<std::int32_t>();
  const auto val = to_host(g.data()).to_vector<double>();
  std::vector<std::int64_t> ord(val.size());
  std::iota(ord.begin(), ord.end(), 0);
  std::stable_sort(ord.begin(), ord.end(), [&](std::int64_t a, std::int64_t b) { return val[a] < val[b]; });
  std::vector<std::int64_t> row(val.size()), parent(n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t e = ptr[i]; e < ptr[i + 1]; ++e) row[e] = i;
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](std::int64_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  std::vector<char> keep(val.size(), 0);
  for (const auto e : ord) {
    const auto a = find(row[e]), b = find(idx[e]);
    if (a == b) continue;
    parent[a] = b;
    keep[e] = val[e] != 0.0;
  }
  std::vector<double> want_data;
  std::vector<std::int32_t> want_idx;
  for (std::size_t e = 0; e < val.size(); ++e)
    if (keep[e]) {
      want_data.push_back(val[e]);
      want_idx.push_back(idx[e]);
    }
  CHECK(to_host(t.indices()).to_vector<std::int32_t>() == want_idx);
  CHECK(to_host(t.data()).to_vector<double>() == want_data);
}

TEST_CASE("reverse_cuthill_mckee returns SciPy's permutation") {
  const auto cs = cases_of("reverse_cuthill_mckee");
  REQUIRE(cs.size() >= 80);
  int exact = 0;
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const cg::reverse_cuthill_mckee_options o{.symmetric_mode = c.get<bool>("symmetric_mode")};
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::reverse_cuthill_mckee(device_sparse(c), o); });
      continue;
    }
    const auto p = cg::reverse_cuthill_mckee(device_sparse(c), o);
    testing::check_allclose(p, c.array("perm"), 0, 0);
    exact += c.get<bool>("scipy_exact");
  }
  CHECK(exact >= 40);
}

TEST_CASE("maximum_bipartite_matching returns SciPy's matching; structural_rank its size") {
  for (const auto& c : cases_of("maximum_bipartite_matching")) {
    CAPTURE(c.name());
    const auto pt = cg::parse_perm_type(c.get<std::string>("perm_type"));
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::maximum_bipartite_matching(device_sparse(c), {.perm_type = pt}); });
      continue;
    }
    const auto p = cg::maximum_bipartite_matching(device_sparse(c), {.perm_type = pt});
    testing::check_allclose(p, c.array("perm"), 0, 0);
  }
  for (const auto& c : cases_of("structural_rank")) {
    CAPTURE(c.name());
    CHECK(cg::structural_rank(device_sparse(c)) == c.get<std::int64_t>("rank"));
  }
}

TEST_CASE("min_weight_full_bipartite_matching: a valid full matching of SciPy's cost") {
  for (const auto& c : cases_of("min_weight_full_bipartite_matching")) {
    CAPTURE(c.name());
    const cg::min_weight_full_bipartite_matching_options o{.maximize = c.get<bool>("maximize")};
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::min_weight_full_bipartite_matching(device_sparse(c), o); });
      continue;
    }
    const auto [rows, cols] = cg::min_weight_full_bipartite_matching(device_sparse(c), o);
    CHECK(dtype_name(rows.dtype()) == c.get<std::string>("row_dtype"));
    CHECK(dtype_name(cols.dtype()) == c.get<std::string>("col_dtype"));
    const auto want_rows = c.array("row");
    REQUIRE(rows.size() == want_rows.size());
    const auto r = to_host(rows.astype(dtype::int64)).to_vector<std::int64_t>();
    const auto k = to_host(cols.astype(dtype::int64)).to_vector<std::int64_t>();
    CHECK(r == want_rows.astype(dtype::int64).to_vector<std::int64_t>());  // sorted rows (or 0..M-1)
    // cost from the summed matrix, as the generator's
    const auto sum = device_csr(c).astype(dtype::float64);
    sparse::csr_matrix summed = sum.copy();
    summed.sum_duplicates();
    const auto h = cg::detail::to_host_csr(summed, true);
    double cost = 0;
    std::vector<char> used_c(h.nc, 0);
    for (std::size_t q = 0; q < r.size(); ++q) {
      CHECK_FALSE(used_c[k[q]]);
      used_c[k[q]] = 1;
      bool found = false;
      for (std::int64_t e = h.indptr[r[q]]; e < h.indptr[r[q] + 1]; ++e)
        if (h.indices[e] == k[q]) {
          cost += h.data[e];
          found = true;
        }
      CHECK(found);
    }
    const double want = c.get<double>("cost");
    CHECK(std::abs(cost - want) <= 1e-9 * std::max(1.0, std::abs(want)));
  }
}

TEST_CASE("maximum_flow: SciPy's value and structure, a valid flow; SciPy's errors") {
  for (const auto& c : cases_of("maximum_flow")) {
    CAPTURE(c.name());
    const cg::maximum_flow_options o{.method = cg::parse_flow_method(c.get<std::string>("method"))};
    const auto src = c.get<std::int64_t>("source"), snk = c.get<std::int64_t>("sink");
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::maximum_flow(device_sparse(c), src, snk, o); });
      continue;
    }
    const auto r = cg::maximum_flow(device_sparse(c), src, snk, o);
    CHECK(r.flow_value == static_cast<double>(c.get<std::int64_t>("flow_value")));
    CHECK(r.flow.shape() == shape_of(c));
    CHECK(r.flow.dtype() == dtype::int32);
    testing::check_allclose(r.flow.indptr(), c.array("flow_indptr"), 0, 0);
    testing::check_allclose(r.flow.indices(), c.array("flow_indices"), 0, 0);
    const auto ptr = to_host(r.flow.indptr().astype(dtype::int64)).to_vector<std::int64_t>();
    check_flow(ptr, to_host(r.flow.indices()).to_vector<std::int32_t>(), cvec<std::int32_t>(c, "rcap"),
               to_host(r.flow.data()).to_vector<std::int32_t>(), c.get<std::int64_t>("flow_value"), src, snk);
  }
}
