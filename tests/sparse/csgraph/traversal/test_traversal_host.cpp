// Host tests of cusci::sparse::csgraph's traversal family (no GPU): the string parsers, the host
// algorithms (strong components, depth-first order, and the reference breadth-first order, weak
// components and tree building that check the GPU versions' contract) against SciPy 1.18.1 on every
// CSR case of tests/golden/gen_sparse_csgraph_traversal.py, and the laplacian argument checks that
// throw before any device work (on data-less arrays).

#include <doctest/doctest.h>

#include "traversal_test_util.hpp"

using namespace cusci;
using namespace cusci::traversal_test;
namespace det = cusci::sparse::csgraph::detail;

TEST_CASE("the string options parse SciPy's strings") {
  CHECK(cg::parse_connection("weak") == cg::connection_kind::weak);
  CHECK(cg::parse_connection("Strong") == cg::connection_kind::strong);
  CHECK_THROWS_AS(cg::parse_connection("medium"), value_error);
  CHECK(cg::parse_laplacian_form("array") == cg::laplacian_form::array);
  CHECK(cg::parse_laplacian_form("function") == cg::laplacian_form::function);
  CHECK(cg::parse_laplacian_form("lo") == cg::laplacian_form::lo);
  CHECK_THROWS_AS(cg::parse_laplacian_form("foo"), value_error);
  const cg::components_options o{.directed = false, .connection = cg::connection_kind::strong};
  CHECK_FALSE(o.directed);
  CHECK(o.return_labels);
  CHECK(cg::null_idx == -9999);
}

TEST_CASE("host components match SciPy (strong: Tarjan order; weak: lowest-node order)") {
  int n_cases = 0;
  for (const auto& c : cases_of("connected_components")) {
    if (c.expects_error() || fmt(c) != "csr") continue;
    CAPTURE(c.name());
    const auto h = host_graph(c);
    std::vector<std::int32_t> lab(h.n);
    const bool strong = c.get<std::string>("connection") == "strong" && c.get<bool>("directed");
    const std::int32_t k = strong ? det::scc_host(h, lab.data()) : det::weak_cc_host(h, lab.data());
    CHECK(k == c.get<std::int64_t>("n_components"));
    check_equal(lab, c.array("labels"));
    ++n_cases;
  }
  CHECK(n_cases >= 40);
}

TEST_CASE("host breadth-first and depth-first orders match SciPy") {
  int n_cases = 0;
  for (const char* func : {"breadth_first_order", "depth_first_order"}) {
    for (const auto& c : cases_of(func)) {
      if (c.expects_error() || fmt(c) != "csr") continue;
      CAPTURE(c.name());
      const auto h = host_graph(c);
      const bool directed = c.get<bool>("directed");
      const det::host_adjacency t = det::transpose_host(h);
      std::vector<std::int32_t> order(h.n), pred(h.n);
      const auto i0 = static_cast<std::int32_t>(c.get<std::int64_t>("i_start"));
      const std::int64_t len = std::string(func) == "breadth_first_order"
                                   ? det::bfs_host(h, directed ? nullptr : &t, i0, order.data(), pred.data())
                                   : det::dfs_host(h, directed ? nullptr : &t, i0, order.data(), pred.data());
      order.resize(static_cast<std::size_t>(len));
      check_equal(order, c.array("order"));
      check_equal(pred, c.array("pred"));
      ++n_cases;
    }
  }
  CHECK(n_cases >= 50);
}

TEST_CASE("host tree building matches SciPy's reconstruct_path and the trees") {
  int n_cases = 0;
  for (const char* func : {"reconstruct_path", "breadth_first_tree", "depth_first_tree"}) {
    for (const auto& c : cases_of(func)) {
      if (c.expects_error() || fmt(c) != "csr") continue;
      CAPTURE(c.name());
      const auto h = host_graph(c);
      const bool directed = c.get<bool>("directed");
      std::vector<std::int64_t> pred(h.n);
      if (std::string(func) == "reconstruct_path") {
        const auto p = c.array("pred").astype(dtype::int64).to_vector<std::int64_t>();
        pred.assign(p.begin(), p.end());
      } else {
        const det::host_adjacency t = det::transpose_host(h);
        std::vector<std::int32_t> order(h.n), p32(h.n);
        const auto i0 = static_cast<std::int32_t>(c.get<std::int64_t>("i_start"));
        if (std::string(func) == "breadth_first_tree")
          det::bfs_host(h, directed ? nullptr : &t, i0, order.data(), p32.data());
        else
          det::dfs_host(h, directed ? nullptr : &t, i0, order.data(), p32.data());
        pred.assign(p32.begin(), p32.end());
      }
      std::vector<std::int32_t> ip, ix;
      std::vector<double> dv;
      det::reconstruct_path_host(h, host_data(c), pred.data(), directed, ip, ix, dv);
      check_equal(ip, c.array("t_indptr"));
      check_equal(ix, c.array("t_indices"));
      testing::check_allclose(host_array::from(dv), c.array("t_data"), c.rtol(), c.atol());
      ++n_cases;
    }
  }
  CHECK(n_cases >= 40);
}

TEST_CASE("laplacian rejects what SciPy rejects, before any device work") {
  using testing::fake_array;
  const ndarray rect = fake_array(dtype::float64, {2, 3});
  CHECK_THROWS_AS(cg::laplacian(rect), value_error);
  CHECK_THROWS_AS(cg::laplacian(fake_array(dtype::float64, {4})), value_error);
  const ndarray sq = fake_array(dtype::float64, {4, 4});
  CHECK_THROWS_AS(cg::laplacian(sq, {.form = cg::laplacian_form::lo}), not_implemented_error);
  CHECK_THROWS_AS(cg::laplacian(sq, {.form = cg::laplacian_form::function}), not_implemented_error);
  CHECK_THROWS_AS(cg::laplacian(fake_array(dtype::complex128, {4, 4})), type_error);
  const sparse::csr_matrix s = sparse::csr_matrix::from_valid(
      fake_array(dtype::float64, {0}), fake_array(dtype::int32, {0}), fake_array(dtype::int32, {3}), {2, 3});
  CHECK_THROWS_AS(cg::laplacian(s), value_error);
  const sparse::csr_matrix s4 = sparse::csr_matrix::from_valid(
      fake_array(dtype::float64, {0}), fake_array(dtype::int32, {0}), fake_array(dtype::int32, {5}), {4, 4});
  CHECK_THROWS_AS(cg::laplacian(s4, {.form = cg::laplacian_form::lo}), not_implemented_error);
}
