// cusci::sparse::csgraph flow-family benchmarks (SciPy CPU times of the same cases:
// peers_sparse_csgraph_flow.py):
//   MS1  minimum_spanning_tree(nh2010 with weights) -- GPU Boruvka
//   MS2  minimum_spanning_tree on the generated graph (2^22 nodes, 2^25 edges, random weights) -- GPU
//   RC1  reverse_cuthill_mckee(nh2010) (symmetric_mode=False) -- A + A^T on the GPU, one-block BFS
//   RC2  reverse_cuthill_mckee(bcsstk16) -- same
//   RC3  reverse_cuthill_mckee on the generated graph -- same
//   MF1  maximum_flow (dinic) on a generated 512 x 512 grid graph, corner to corner -- HOST
//   BM1  maximum_bipartite_matching on a generated 2^20 x 2^20 bipartite graph, 2^22 edges -- HOST
// nh2010's weights: entry k of its CSR (row-major order) gets 1 + (splitmix64(k) & 0xFFFFF) / 2^20.
// The generated graph (graph_inputs.hpp): edge k (0 <= k < 2^25) goes from splitmix64(2k) >> 42 to
// splitmix64(2k+1) >> 42 with weight 1 + (splitmix64(2k) & 0xFFFFF) / 2^20, as a COO matrix converted
// to CSR (duplicates summed). The grid: node v = i * 512 + j has edges to its 4 neighbours; edge
// 4v + d (d: right, down, left, up) has capacity 1 + splitmix64(4v + d) % 100 (int32). The bipartite
// graph: edge k joins row splitmix64(2k) >> 44 and column splitmix64(2k+1) >> 44 (value 1). The peers
// build the same with NumPy's uint64 arithmetic (graph_inputs.py). nh2010.mtx: argv[1] (a file or a
// folder), else examples/data, else ../shared/data/matrices; bcsstk16.mtx.gz from examples/data (or the
// folder of argv[1]).

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/sparse/csgraph/flow.hpp"
#include "cusci/sparse/csgraph/reordering.hpp"
#include "cusci/sparse/csgraph/spanning_tree.hpp"
#include "cusci/sparse/io.hpp"
#include "graph_inputs.hpp"
#include "harness.hpp"

using namespace cusci;
namespace cg = cusci::sparse::csgraph;

namespace {

using bench::splitmix64;

double weight_of(std::uint64_t a) { return 1.0 + static_cast<double>(a & 0xFFFFF) / 1048576.0; }

sparse::csr_matrix grid_graph(std::int64_t side) {
  std::vector<std::int32_t> r, c, cap;
  const int di[4] = {0, 1, 0, -1}, dj[4] = {1, 0, -1, 0};
  for (std::int64_t i = 0; i < side; ++i)
    for (std::int64_t j = 0; j < side; ++j)
      for (int d = 0; d < 4; ++d) {
        const std::int64_t a = i + di[d], b = j + dj[d];
        if (a < 0 || a >= side || b < 0 || b >= side) continue;
        const std::uint64_t k = 4 * static_cast<std::uint64_t>(i * side + j) + static_cast<std::uint64_t>(d);
        r.push_back(static_cast<std::int32_t>(i * side + j));
        c.push_back(static_cast<std::int32_t>(a * side + b));
        cap.push_back(static_cast<std::int32_t>(1 + splitmix64(k) % 100));
      }
  const std::int64_t n = side * side;
  const sparse::coo_matrix coo(asarray(cap), {asarray(r), asarray(c)}, {.shape = sparse::shape2{n, n}});
  return coo.tocsr();
}

sparse::csr_matrix bipartite_graph() {
  const std::int64_t n = 1 << 20, m = 1 << 22;
  std::vector<std::int32_t> r(m), c(m);
  std::vector<double> w(m, 1.0);
  for (std::int64_t k = 0; k < m; ++k) {
    r[k] = static_cast<std::int32_t>(splitmix64(2 * static_cast<std::uint64_t>(k)) >> 44);
    c[k] = static_cast<std::int32_t>(splitmix64(2 * static_cast<std::uint64_t>(k) + 1) >> 44);
  }
  const sparse::coo_matrix coo(asarray(w), {asarray(r), asarray(c)}, {.shape = sparse::shape2{n, n}});
  return coo.tocsr();
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::no_device()) return 77;
  if (const auto P = bench::read_nh2010(argc, argv, /*argv_file_as_is=*/false)) {
    std::vector<double> w(P->nnz());
    for (std::size_t k = 0; k < w.size(); ++k) w[k] = weight_of(splitmix64(k));
    const sparse::csr_matrix A(asarray(w), P->indices(), P->indptr(), {.shape = P->shape()});
    const double bytes = 12.0 * A.nnz() + 4.0 * A.shape()[0];
    sparse::csr_matrix T = cg::minimum_spanning_tree(A);
    auto t = bench::time_it([&] { T = cg::minimum_spanning_tree(A); }, 20, 3);
    bench::report("MS1", "minimum_spanning_tree nh2010 (weighted)", t, bytes, "\"edges\":" + std::to_string(T.nnz()));
    ndarray p;
    t = bench::time_it([&] { p = cg::reverse_cuthill_mckee(*P); }, 20, 3);
    bench::report("RC1", "reverse_cuthill_mckee nh2010", t, 8.0 * P->nnz());
  } else {
    std::fprintf(stderr, "MS1/RC1 skipped: nh2010.mtx not found\n");
  }
  const std::string b16 = bench::find_data_file(argc, argv, "bcsstk16.mtx.gz", /*argv_file_as_is=*/false);
  if (!b16.empty()) {
    const sparse::csr_matrix B = io::mmread(b16).tocsr();
    ndarray p;
    auto t = bench::time_it([&] { p = cg::reverse_cuthill_mckee(B); }, 20, 3);
    bench::report("RC2", "reverse_cuthill_mckee bcsstk16", t, 8.0 * B.nnz());
  } else {
    std::fprintf(stderr, "RC2 skipped: bcsstk16.mtx.gz not found\n");
  }
  {
    const sparse::csr_matrix G = bench::generated_graph(weight_of);
    sparse::csr_matrix T = cg::minimum_spanning_tree(G);
    auto t = bench::time_it([&] { T = cg::minimum_spanning_tree(G); }, 5, 1);
    bench::report("MS2", "minimum_spanning_tree 2^22 nodes 2^25 edges random weights", t, 12.0 * G.nnz(),
                  "\"edges\":" + std::to_string(T.nnz()));
    ndarray p;
    t = bench::time_it([&] { p = cg::reverse_cuthill_mckee(G); }, 5, 1);
    bench::report("RC3", "reverse_cuthill_mckee 2^22 nodes 2^25 edges", t, 8.0 * G.nnz());
  }
  {
    const sparse::csr_matrix F = grid_graph(512);
    cg::flow_result r = cg::maximum_flow(F, 0, F.shape()[0] - 1);
    auto t = bench::time_it([&] { r = cg::maximum_flow(F, 0, F.shape()[0] - 1); }, 5, 1);
    bench::report("MF1", "maximum_flow dinic 512x512 grid corner to corner (host)", t, 0,
                  "\"where\":\"host\",\"flow_value\":" + std::to_string(static_cast<long long>(r.flow_value)));
  }
  {
    const sparse::csr_matrix M = bipartite_graph();
    ndarray p;
    auto t = bench::time_it([&] { p = cg::maximum_bipartite_matching(M); }, 5, 1);
    bench::report("BM1", "maximum_bipartite_matching 2^20 x 2^20, 2^22 edges (host)", t, 0,
                  "\"where\":\"host\",\"size\":" + std::to_string(cg::structural_rank(M)));
  }
  return 0;
}
