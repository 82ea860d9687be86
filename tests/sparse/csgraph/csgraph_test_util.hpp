#pragma once
// Helpers shared by the csgraph families' tests: a case's graph input on the device, and CSR results
// compared array by array with SciPy's (so row order and explicit zeros are checked too).

#include <string>

#include "cusci/sparse/csgraph/graph.hpp"
#include "cusci/sparse/sparse.hpp"
#include "testing.hpp"

namespace cusci::csgraph_test {

using case_t = testing::golden_case;
namespace cg = cusci::sparse::csgraph;

/// The device array a case stores as "<case>_<what>".
inline ndarray arr(const case_t& c, const std::string& what) {
  return asarray(testing::golden(c.module(), c.name() + "_" + what));
}

/// The graph of a case: param `graph` "dense" (array <case>_g; param layout "F" stores it Fortran-ordered
/// on the device), "csr"/"csc" (<case>_data/_indices/_indptr, param shape) or "coo" (<case>_data/_row/_col).
inline cg::graph_input graph_of(const case_t& c) {
  const std::string kind = c.get<std::string>("graph");
  if (kind == "dense") {
    ndarray g = arr(c, "g");
    if (c.get_or<std::string>("layout", "C") == "F") g = g.copy(order::F);
    return g;
  }
  const auto sh = c.get<std::vector<std::int64_t>>("shape");
  const sparse::shape2 shape{sh.at(0), sh.at(1)};
  if (kind == "csr") return sparse::csr_matrix(arr(c, "data"), arr(c, "indices"), arr(c, "indptr"), {.shape = shape});
  if (kind == "csc") return sparse::csc_matrix(arr(c, "data"), arr(c, "indices"), arr(c, "indptr"), {.shape = shape});
  if (kind == "coo") return sparse::coo_matrix(arr(c, "data"), {arr(c, "row"), arr(c, "col")}, {.shape = shape});
  FAIL("unknown graph kind " << kind);
  return ndarray();
}

/// Checks a CSR result against SciPy's arrays <case>_<prefix>data / indices / indptr (values with the
/// case's tolerances; index arrays exactly, compared as int64).
inline void check_csr(const case_t& c, const sparse::csr_matrix& g, const std::string& prefix = "out_") {
  const host_array ed = testing::golden(c.module(), c.name() + "_" + prefix + "data");
  const host_array ei = testing::golden(c.module(), c.name() + "_" + prefix + "indices");
  const host_array ep = testing::golden(c.module(), c.name() + "_" + prefix + "indptr");
  testing::check_allclose(g.data(), ed, c.rtol(), c.atol());
  testing::check_allclose(to_host(g.indices()).astype(dtype::int64), ei.astype(dtype::int64), 0, 0);
  testing::check_allclose(to_host(g.indptr()).astype(dtype::int64), ep.astype(dtype::int64), 0, 0);
}

}  // namespace cusci::csgraph_test
