// cusci::sparse::csgraph traversal-family benchmarks (SciPy CPU times of the same cases:
// peers_sparse_csgraph_traversal.py):
//   CC1  connected_components(nh2010) (defaults: directed, weak) -- GPU union-find
//   CC2  connected_components on the generated graph (2^22 nodes, 2^25 edges) -- GPU
//   CC3  connected_components(connection='strong') on the generated graph -- runs on the HOST
//        (iterative Tarjan over a copy of the CSR); reported with "where":"host"
//   BF1  breadth_first_order(nh2010, 0) (directed; nh2010 is symmetric) -- GPU
//   BF2  breadth_first_order(generated graph, 0) -- GPU
//   LP1  laplacian(nh2010) (sparse, COO result) -- GPU
// The generated graph (graph_inputs.hpp): edge k (0 <= k < 2^25) goes from splitmix64(2k) >> 42 to
// splitmix64(2k+1) >> 42 with weight 1 + (splitmix64(2k) & 15), as a COO matrix converted to CSR
// (duplicates summed); the peers build the same with NumPy's uint64 arithmetic (graph_inputs.py).
// nh2010.mtx: argv[1] (a file or a folder), else examples/data, else ../shared/data/matrices.

#include <cstdio>
#include <string>

#include "cusci/core.hpp"
#include "cusci/sparse/csgraph/laplacian.hpp"
#include "cusci/sparse/csgraph/traversal.hpp"
#include "graph_inputs.hpp"
#include "harness.hpp"

using namespace cusci;
namespace cg = cusci::sparse::csgraph;

int main(int argc, char** argv) {
  if (bench::no_device()) return 77;
  if (const auto A = bench::read_nh2010(argc, argv, /*argv_file_as_is=*/true)) {
    const double bytes = 8.0 * A->nnz() + 4.0 * A->shape()[0];
    cg::components_result cr;
    auto t = bench::time_it([&] { cr = cg::connected_components(*A); }, 30, 5);
    bench::report("CC1", "connected_components nh2010 weak", t, bytes,
                  "\"n_components\":" + std::to_string(cr.n_components));
    cg::order_result o;
    t = bench::time_it([&] { o = cg::breadth_first_order(*A, 0); }, 30, 5);
    bench::report("BF1", "breadth_first_order nh2010 from 0", t, bytes, "\"reached\":" + std::to_string(o.order.size()));
    cg::sparse_laplacian_result L{sparse::spmatrix(*A), ndarray()};
    t = bench::time_it([&] { L = cg::laplacian(*A); }, 30, 5);
    bench::report("LP1", "laplacian nh2010 (coo result)", t, 2.0 * 24.0 * A->nnz());
  } else {
    std::fprintf(stderr, "CC1/BF1/LP1 skipped: nh2010.mtx not found\n");
  }
  const sparse::csr_matrix G = bench::generated_graph(bench::weight_1_to_16);
  const double bytes = 8.0 * G.nnz() + 4.0 * G.shape()[0];
  cg::components_result cr;
  auto t = bench::time_it([&] { cr = cg::connected_components(G); }, 10, 2);
  bench::report("CC2", "connected_components 2^22 nodes 2^25 edges weak", t, bytes,
                "\"n_components\":" + std::to_string(cr.n_components));
  cg::order_result o;
  t = bench::time_it([&] { o = cg::breadth_first_order(G, 0); }, 10, 2);
  bench::report("BF2", "breadth_first_order 2^22 nodes 2^25 edges from 0", t, bytes,
                "\"reached\":" + std::to_string(o.order.size()));
  t = bench::time_it([&] { cr = cg::connected_components(G, {.connection = cg::connection_kind::strong}); }, 3, 1);
  bench::report("CC3", "connected_components 2^22 nodes 2^25 edges strong (host)", t, 0,
                "\"where\":\"host\",\"n_components\":" + std::to_string(cr.n_components));
  return 0;
}
