#pragma once
// Graph inputs shared by the csgraph benchmark programs (bench_sparse_csgraph_traversal.cu,
// bench_sparse_csgraph_shortest_path.cu, bench_sparse_csgraph_flow.cu); their Python peers build the
// same inputs with graph_inputs.py (NumPy's uint64 arithmetic).
//   splitmix64(i)            the splitmix64 finaliser of i, the hash every generated input is made from
//   generated_graph(weight)  2^22 nodes, 2^25 edges: edge k (0 <= k < 2^25) goes from
//                            a >> 42 to b >> 42 with a = splitmix64(2k), b = splitmix64(2k+1), and weight
//                            weight(a), as a COO matrix converted to CSR (duplicates summed)
//   weight_1_to_16(a)        1 + (a & 15): the integer weights 1..16 of traversal's and shortest_path's
//                            generated graph
//   find_data_file(...)      a data file (nh2010.mtx, bcsstk16.mtx.gz) from argv[1], examples/data or
//                            ../shared/data/matrices
//   read_nh2010(...)         nh2010.mtx, found by find_data_file, read as a float64 CSR matrix

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::bench {

inline std::uint64_t splitmix64(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// 1 + (a & 15): integer weights 1..16.
inline double weight_1_to_16(std::uint64_t a) { return 1.0 + static_cast<double>(a & 15); }

/// The generated graph: 2^22 nodes, 2^25 edges; edge k goes from splitmix64(2k) >> 42 to
/// splitmix64(2k+1) >> 42 with weight weight(splitmix64(2k)); COO converted to CSR (duplicates summed).
inline sparse::csr_matrix generated_graph(double (*weight)(std::uint64_t a)) {
  const std::int64_t n = 1 << 22, m = std::int64_t{1} << 25;
  std::vector<std::int32_t> r(m), c(m);
  std::vector<double> w(m);
  for (std::int64_t k = 0; k < m; ++k) {
    const std::uint64_t a = splitmix64(2 * static_cast<std::uint64_t>(k)), b = splitmix64(2 * static_cast<std::uint64_t>(k) + 1);
    r[k] = static_cast<std::int32_t>(a >> 42);
    c[k] = static_cast<std::int32_t>(b >> 42);
    w[k] = weight(a);
  }
  const sparse::coo_matrix coo(asarray(w), {asarray(r), asarray(c)}, {.shape = sparse::shape2{n, n}});
  return coo.tocsr();
}

/// The path of the data file `name` (e.g. "nh2010.mtx"), or "" when there is none. Candidates, in
/// order: argv[1] when given -- a folder: `name` in it; a file: the file itself when `argv_file_as_is`
/// or it is called `name`, else `name` in the file's folder -- then examples/data/`name`, then
/// ../shared/data/matrices/`name`.
inline std::string find_data_file(int argc, char** argv, const std::string& name, bool argv_file_as_is) {
  namespace fs = std::filesystem;
  std::vector<std::string> cands;
  if (argc > 1) {
    const std::string a = argv[1];
    if (fs::is_directory(a)) cands.push_back(a + "/" + name);
    else if (argv_file_as_is || fs::path(a).filename() == name) cands.push_back(a);
    else cands.push_back((fs::path(a).parent_path() / name).string());
  }
  cands.push_back("examples/data/" + name);
  cands.push_back("../shared/data/matrices/" + name);
  for (const auto& p : cands)
    if (fs::exists(p)) return p;
  return {};
}

/// nh2010.mtx (find_data_file(argc, argv, "nh2010.mtx", argv_file_as_is)) as a float64 CSR matrix, or
/// nullopt when it is not found.
inline std::optional<sparse::csr_matrix> read_nh2010(int argc, char** argv, bool argv_file_as_is) {
  const std::string nh = find_data_file(argc, argv, "nh2010.mtx", argv_file_as_is);
  if (nh.empty()) return std::nullopt;
  return io::mmread(nh).tocsr().astype(dtype::float64);
}

}  // namespace cusci::bench
