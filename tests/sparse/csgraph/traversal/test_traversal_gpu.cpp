// GPU tests of cusci::sparse::csgraph's traversal family against SciPy 1.18.1
// (tests/golden/gen_sparse_csgraph_traversal.py): connected_components (weak on the GPU, strong on the
// host; directed / undirected), breadth_first_order (GPU) and depth_first_order, the trees,
// reconstruct_path, construct_dist_matrix and laplacian, on every input form (csr with duplicates,
// explicit zeros, unsorted indices and self-loops; csc; coo; dense), N = 0 and 1, graphs without
// edges, disconnected graphs and the bundled graphs; and the error cases. The generator's large
// graphs take the branches small graphs never reach: the one-block BFS handing large levels to the
// grid kernels and resuming, the general BFS and weak-components paths (N > 2^19, N + nnz > 2^22),
// and reverse_cuthill_mckee past its one-block search (the general kernel, the host fallback) and with
// a row of 3000 entries inside it.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>

#include "cusci/sparse/csgraph/reordering.hpp"
#include "traversal_test_util.hpp"

using namespace cusci;
using namespace cusci::traversal_test;

namespace {

void check_tree(const case_t& c, const sparse::csr_matrix& t) {
  const auto sh = shape_of(c);
  CHECK(t.shape()[0] == sh[0]);
  CHECK(t.shape()[1] == sh[0]);
  check_equal(t.indptr().astype(dtype::int32), c.array("t_indptr"));
  check_equal(t.indices().astype(dtype::int32), c.array("t_indices"));
  testing::check_allclose(t.data(), c.array("t_data"), c.rtol(), c.atol());
}

cg::traversal_options topts(const case_t& c) { return {.directed = c.get<bool>("directed")}; }

}  // namespace

TEST_CASE("connected_components matches SciPy on every form") {
  int n = 0;
  for (const auto& c : cases_of("connected_components")) {
    CAPTURE(c.name());
    auto call = [&] {
      return cg::connected_components(device_graph(c),
                                      {.directed = c.get<bool>("directed"),
                                       .connection = cg::parse_connection(c.get<std::string>("connection"))});
    };
    if (c.expects_error()) {
      testing::check_error(c, call);
      continue;
    }
    const auto r = call();
    CHECK(r.n_components == c.get<std::int64_t>("n_components"));
    check_equal(r.labels, c.array("labels"));
    ++n;
  }
  CHECK(n >= 100);
}

TEST_CASE("connected_components without labels, and float32 / integer weights") {
  for (const auto& c : cases_of("connected_components")) {
    if (c.expects_error() || c.get<std::string>("graph") != "r200" || fmt(c) != "csr") continue;
    CAPTURE(c.name());
    const cg::components_options o{.directed = c.get<bool>("directed"),
                                   .connection = cg::parse_connection(c.get<std::string>("connection")),
                                   .return_labels = false};
    const auto r = cg::connected_components(device_graph(c, dtype::float32), o);
    CHECK(r.n_components == c.get<std::int64_t>("n_components"));
    CHECK(r.labels.size() == 0);
  }
}

TEST_CASE("breadth_first_order and depth_first_order match SciPy exactly") {
  int n = 0;
  for (const char* func : {"breadth_first_order", "depth_first_order"}) {
    for (const auto& c : cases_of(func)) {
      CAPTURE(c.name());
      const std::int64_t i0 = c.get<std::int64_t>("i_start");
      auto call = [&] {
        return std::string(func) == "breadth_first_order" ? cg::breadth_first_order(device_graph(c), i0, topts(c))
                                                          : cg::depth_first_order(device_graph(c), i0, topts(c));
      };
      if (c.expects_error()) {
        testing::check_error(c, call);
        continue;
      }
      const auto r = call();
      check_equal(r.order, c.array("order"));
      check_equal(r.predecessors, c.array("pred"));
      ++n;
    }
  }
  CHECK(n >= 300);
}

TEST_CASE("return_predecessors = false leaves the predecessors empty") {
  const auto cs = cases_of("breadth_first_order");
  for (const auto& c : cs) {
    if (c.expects_error() || c.get<std::string>("graph") != "bus") continue;
    const auto r = cg::breadth_first_order(device_graph(c), c.get<std::int64_t>("i_start"),
                                           {.directed = c.get<bool>("directed"), .return_predecessors = false});
    check_equal(r.order, c.array("order"));
    CHECK(r.predecessors.size() == 0);
    break;
  }
}

TEST_CASE("breadth_first_tree, depth_first_tree and reconstruct_path match SciPy") {
  int n = 0;
  for (const char* func : {"breadth_first_tree", "depth_first_tree", "reconstruct_path"}) {
    for (const auto& c : cases_of(func)) {
      CAPTURE(c.name());
      const bool directed = c.get<bool>("directed");
      auto call = [&] {
        if (std::string(func) == "reconstruct_path")
          return cg::reconstruct_path(device_graph(c), asarray(c.array("pred")), directed);
        const std::int64_t i0 = c.get<std::int64_t>("i_start");
        return std::string(func) == "breadth_first_tree" ? cg::breadth_first_tree(device_graph(c), i0, directed)
                                                         : cg::depth_first_tree(device_graph(c), i0, directed);
      };
      if (c.expects_error()) {
        testing::check_error(c, call);
        continue;
      }
      check_tree(c, call());
      ++n;
    }
  }
  CHECK(n >= 150);
}

TEST_CASE("construct_dist_matrix matches SciPy") {
  int n = 0;
  for (const auto& c : cases_of("construct_dist_matrix")) {
    CAPTURE(c.name());
    const cg::dist_matrix_options o{.directed = c.get<bool>("directed"), .null_value = c.get<double>("null_value")};
    auto call = [&] { return cg::construct_dist_matrix(device_graph(c), asarray(c.array("pred")), o); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      continue;
    }
    testing::check_allclose(call(), c.array("dist"), c.rtol(), c.atol());
    ++n;
  }
  CHECK(n >= 20);
}

TEST_CASE("construct_dist_matrix rejects predecessors out of range and cycles") {
  const ndarray g = asarray(std::vector<double>{0, 1, 0, 0}, {2, 2});
  CHECK_THROWS_AS(cg::construct_dist_matrix(g, asarray(std::vector<std::int32_t>{-9999, 5, -9999, -9999}, {2, 2})),
                  index_error);
  // row 0: 1 <- 1 (a self-cycle that never reaches 0)
  CHECK_THROWS_AS(cg::construct_dist_matrix(g, asarray(std::vector<std::int32_t>{-9999, 1, -9999, -9999}, {2, 2})),
                  value_error);
}

TEST_CASE("laplacian matches SciPy on sparse and dense input") {
  int n = 0;
  for (const auto& c : cases_of("laplacian")) {
    CAPTURE(c.name());
    cg::laplacian_options o;
    o.normed = c.get<bool>("normed");
    o.use_out_degree = c.get<bool>("use_out_degree");
    o.symmetrized = c.get<bool>("symmetrized");
    o.return_diag = true;
    if (c.has("dtype")) o.dtype = dtype_from_string(c.get<std::string>("dtype"));
    if (c.has("form")) o.form = cg::parse_laplacian_form(c.get<std::string>("form"));
    const dtype in_t = dtype_from_string(c.get<std::string>("in_dtype"));
    // The generator casts the stored float64 graph with SciPy's astype, which sums duplicates (and
    // sorts the indices) when the dtype changes; cusci's astype keeps the entries as stored, so do
    // the same here to give cusci the graph SciPy got.
    auto g = device_graph(c, in_t);
    if (g.is_sparse() && in_t != dtype::float64) {
      sparse::spmatrix canon = g.sparse();
      canon.sum_duplicates();
      g = canon;
    }
    if (c.expects_error()) {
      testing::check_error(c, [&] {
        if (g.is_sparse()) cg::laplacian(g.sparse(), o);
        else cg::laplacian(g.dense(), o);
      });
      continue;
    }
    const dtype out_t = dtype_from_string(c.get<std::string>("out_dtype"));
    const std::string out_format = c.get<std::string>("out_format");
    ndarray lap, diag;
    if (g.is_sparse()) {
      auto r = cg::laplacian(g.sparse(), o);
      CHECK(sparse::to_string(r.laplacian.format()) == out_format);
      CHECK(r.laplacian.dtype() == out_t);
      if (c.has("coo_row")) {
        const sparse::coo_matrix L = r.laplacian.tocoo();
        testing::check_allclose(L.row().astype(dtype::int64), c.array("coo_row"), 0, 0);
        testing::check_allclose(L.col().astype(dtype::int64), c.array("coo_col"), 0, 0);
        testing::check_allclose(L.data().astype(dtype::float64), c.array("coo_data"), c.rtol(), c.atol());
      }
      if (c.has("lap")) lap = r.laplacian.toarray();
      diag = r.diag;
    } else {
      auto r = cg::laplacian(g.dense(), o);
      CHECK(out_format == "dense");
      CHECK(r.laplacian.dtype() == out_t);
      lap = r.laplacian;
      diag = r.diag;
    }
    if (c.has("lap")) testing::check_allclose(lap.astype(dtype::float64), c.array("lap"), c.rtol(), c.atol());
    CHECK(diag.dtype() == out_t);
    testing::check_allclose(diag.astype(dtype::float64), c.array("diag"), c.rtol(), c.atol());
    ++n;
  }
  CHECK(n >= 100);
}

TEST_CASE("reverse_cuthill_mckee: SciPy's permutation past the one-block search") {
  // The generator's graphs have one node of lowest degree, so SciPy's start node is unambiguous.
  const auto cs = cases_of("reverse_cuthill_mckee");
  REQUIRE(cs.size() >= 6);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const cg::graph_input g = device_graph(c);
    const auto p = cg::reverse_cuthill_mckee(g.sparse(), {.symmetric_mode = c.get<bool>("symmetric_mode")});
    check_equal(p, c.array("perm"));
  }
}

TEST_CASE("the large cases reach the branches their graphs are made for") {
  // Each branch keeps at least one case (the comparisons run in the tests above), and the graphs are
  // past the limits that route small graphs elsewhere (traversal_kernels.cu: levels of more than 4096
  // nodes or about 32K edges leave the one-block BFS, 2^22 nodes + entries the one-kernel weak
  // components).
  std::map<std::string, int> seen;
  for (const auto& c : testing::cases(kModule)) {
    if (!c.has("reaches")) continue;
    CAPTURE(c.name());
    const std::string r = c.get<std::string>("reaches");
    ++seen[r];
    const std::int64_t n = shape_of(c)[0];
    const std::int64_t nnz = arr(graph_name(c) + "_indices").size();
    if (r == "bfs_general") CHECK(n > (std::int64_t{1} << 19));
    if (r == "cc_general") CHECK(n + nnz > (std::int64_t{1} << 22));
    if (r.rfind("bfs_block", 0) == 0) CHECK(n <= (std::int64_t{1} << 19));
  }
  for (const char* r : {"bfs_block_handover_resume", "bfs_block_handover_end", "bfs_block_edges_handover",
                        "bfs_general", "cc_general",
                        "rcm_general_kernel", "rcm_host", "rcm_block"}) {
    CAPTURE(r);
    CHECK(seen[r] >= 1);
  }
}

TEST_CASE("an empty graph (N = 0) has no components and a 0 x 0 laplacian") {
  const sparse::csr_matrix e(sparse::shape2{0, 0});
  const auto r = cg::connected_components(e);
  CHECK(r.n_components == 0);
  CHECK(r.labels.size() == 0);
  const auto L = cg::laplacian(sparse::spmatrix(e), {.return_diag = true});
  CHECK(L.laplacian.shape()[0] == 0);
  CHECK(L.laplacian.format() == sparse::format::coo);
  CHECK(L.diag.size() == 0);
}
