// cusci::sparse::csgraph shortest_path-family benchmarks (SciPy CPU times of the same cases:
// peers_sparse_csgraph_shortest_path.py):
//   SP1  dijkstra(nh2010, indices=0) (weighted: nh2010's integer weights) -- GPU relaxation
//   SP1p the same with return_predecessors=True (adds the tight-edge BFS)
//   SP2  dijkstra(generated graph, indices=0) (2^22 nodes, 2^25 edges, weights 1..16) -- GPU
//   SP3  dijkstra(nh2010, indices=0, 700, ..., 63*700) (64 sources) -- GPU, batched
//   SP4  floyd_warshall on a dense 2048-node random graph (30% edges, weights in [1, 2)) -- GPU
//   SP5  bellman_ford(nh2010, indices=0) -- GPU (SciPy's Bellman-Ford takes over a minute here)
//   SP6  johnson(nh2010 with negative weights, indices=0, 3000, ..., 45000) (16 sources) -- GPU
// The generated graph (graph_inputs.hpp): edge k (0 <= k < 2^25) goes from splitmix64(2k) >> 42 to
// splitmix64(2k+1) >> 42 with weight 1 + (splitmix64(2k) & 15), as a COO matrix converted to CSR
// (duplicates summed), as in bench_sparse_csgraph_traversal.cu. The dense graph: entry (i, j),
// k = i * 2048 + j, is an edge when u(k) < 0.3 with weight 1 + u(k + 2^22) (u: splitmix64 as a double
// in [0, 1)), else 0 (non-edge).
// The negative-weight graph: nh2010's edge u -> v gets w + p[u] - p[v] with p[v] = 20000 u(v + 2^30):
// potentials change no cycle's weight, so there is no negative cycle, and about a tenth of the edges
// are negative. nh2010.mtx: argv[1] (a file or a folder), else examples/data, else
// ../shared/data/matrices.

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/sparse/csgraph/shortest_path.hpp"
#include "graph_inputs.hpp"
#include "harness.hpp"

using namespace cusci;
namespace cg = cusci::sparse::csgraph;

namespace {

double uniform(std::uint64_t i) { return static_cast<double>(bench::splitmix64(i) >> 11) * 0x1.0p-53; }

ndarray dense_graph(std::int64_t n) {
  std::vector<double> d(static_cast<std::size_t>(n * n));
  for (std::int64_t k = 0; k < n * n; ++k) {
    const double u = uniform(static_cast<std::uint64_t>(k));
    d[static_cast<std::size_t>(k)] = u < 0.3 ? 1.0 + uniform(static_cast<std::uint64_t>(k) + (1ull << 22)) : 0.0;
  }
  return asarray(d, {n, n});
}

sparse::csr_matrix negative_graph(const sparse::csr_matrix& A) {
  const std::int64_t n = A.shape()[0];
  const auto indptr = A.indptr().astype(dtype::int64).get().to_vector<std::int64_t>();
  const auto indices = A.indices().astype(dtype::int64).get().to_vector<std::int64_t>();
  auto w = A.data().astype(dtype::float64).get().to_vector<double>();
  std::vector<double> p(static_cast<std::size_t>(n));
  for (std::int64_t v = 0; v < n; ++v) p[static_cast<std::size_t>(v)] = 20000.0 * uniform(static_cast<std::uint64_t>(v) + (1ull << 30));
  for (std::int64_t u = 0; u < n; ++u)
    for (std::int64_t e = indptr[u]; e < indptr[u + 1]; ++e) w[e] = (w[e] + p[u]) - p[indices[e]];
  return sparse::csr_matrix(asarray(w), A.indices(), A.indptr(), {.shape = A.shape()});
}

std::string reached(const ndarray& d) {
  const auto h = d.get().to_vector<double>();
  std::int64_t k = 0;
  for (double x : h) k += x < 1e300;
  return "\"finite\":" + std::to_string(k);
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::no_device()) return 77;
  if (const auto A = bench::read_nh2010(argc, argv, /*argv_file_as_is=*/true)) {
    const double bytes = 12.0 * A->nnz() + 8.0 * A->shape()[0];
    cg::paths_result r;
    auto t = bench::time_it([&] { r = cg::dijkstra(*A, {.indices = 0}); }, 30, 5);
    bench::report("SP1", "dijkstra nh2010 from 0", t, bytes, reached(r.dist_matrix));
    t = bench::time_it([&] { r = cg::dijkstra(*A, {.indices = 0, .return_predecessors = true}); }, 30, 5);
    bench::report("SP1p", "dijkstra nh2010 from 0 with predecessors", t, bytes, reached(r.dist_matrix));
    std::vector<std::int64_t> src64;
    for (int i = 0; i < 64; ++i) src64.push_back(700 * i);
    t = bench::time_it([&] { r = cg::dijkstra(*A, {.indices = src64}); }, 10, 2);
    bench::report("SP3", "dijkstra nh2010 from 64 sources", t, 64 * bytes, reached(r.dist_matrix));
    t = bench::time_it([&] { r = cg::bellman_ford(*A, {.indices = 0}); }, 30, 5);
    bench::report("SP5", "bellman_ford nh2010 from 0", t, bytes, reached(r.dist_matrix));
    const sparse::csr_matrix An = negative_graph(*A);
    std::vector<std::int64_t> src16;
    for (int i = 0; i < 16; ++i) src16.push_back(3000 * i);
    t = bench::time_it([&] { r = cg::johnson(An, {.indices = src16}); }, 10, 2);
    bench::report("SP6", "johnson nh2010 with negative weights from 16 sources", t, 16 * bytes,
                  reached(r.dist_matrix));
  } else {
    std::fprintf(stderr, "SP1/SP3/SP5/SP6 skipped: nh2010.mtx not found\n");
  }
  {
    const sparse::csr_matrix G = bench::generated_graph(bench::weight_1_to_16);
    cg::paths_result r;
    const auto t = bench::time_it([&] { r = cg::dijkstra(G, {.indices = 0}); }, 10, 2);
    bench::report("SP2", "dijkstra 2^22 nodes 2^25 edges from 0", t, 12.0 * G.nnz() + 8.0 * G.shape()[0],
                  reached(r.dist_matrix));
  }
  {
    const std::int64_t n = 2048;
    const ndarray D = dense_graph(n);
    cg::paths_result r;
    const auto t = bench::time_it([&] { r = cg::floyd_warshall(D); }, 10, 2);
    bench::report("SP4", "floyd_warshall dense 2048 nodes", t, 0,
                  "\"gflops\":" + std::to_string(2.0 * n * n * n / (t.median_ms * 1e6)));
  }
  return 0;
}
