// GPU tests of cusci::sparse::csgraph's representation conversions against SciPy 1.18.1
// (tests/golden/gen_sparse_csgraph_tools.py): csgraph_from_dense with every null rule and dtype,
// csgraph_to_dense with parallel edges, NaN/inf weights and explicit zeros, the masked forms, and the
// errors SciPy raises.

#include <doctest/doctest.h>

#include <optional>

#include "../csgraph_test_util.hpp"
#include "cusci/sparse/csgraph/tools.hpp"

using namespace cusci;
using namespace cusci::csgraph_test;

namespace {

const std::string kModule = "sparse_csgraph_tools";

cg::from_dense_options dense_opts(const case_t& c) {
  cg::from_dense_options o;
  if (c.get_or<bool>("null_given", false)) o.null_value = c.get_or<std::optional<double>>("null_value", std::nullopt);
  o.nan_null = c.get_or<bool>("nan_null", true);
  o.infinity_null = c.get_or<bool>("infinity_null", true);
  return o;
}

void check_masked(const case_t& c, const cg::masked_graph& m) {
  testing::check_allclose(m.data, testing::golden(kModule, c.name() + "_out"), 0, 0);
  testing::check_allclose(m.mask, testing::golden(kModule, c.name() + "_out_mask"), 0, 0);
  CHECK(m.fill_value == doctest::Approx(c.get<double>("fill_value")));
}

}  // namespace

TEST_CASE("csgraph_from_dense matches SciPy") {
  auto cs = testing::cases(kModule, "csgraph_from_dense");
  REQUIRE(cs.size() >= 20);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const ndarray g = graph_of(c).dense();
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::csgraph_from_dense(g, dense_opts(c)); });
      continue;
    }
    const sparse::csr_matrix r = cg::csgraph_from_dense(g, dense_opts(c));
    CHECK(r.shape() == sparse::shape2{g.shape()[0], g.shape()[1]});
    CHECK(r.indices().dtype() == dtype::int32);
    check_csr(c, r);
  }
}

TEST_CASE("csgraph_to_dense matches SciPy: parallel edges, NaN, explicit zeros, errors") {
  auto cs = testing::cases(kModule, "csgraph_to_dense");
  REQUIRE(cs.size() >= 12);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const cg::graph_input g = graph_of(c);
    const double nv = c.get_or<double>("null_value", 0.0);
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::csgraph_to_dense(g, nv); });
      continue;
    }
    testing::check_allclose(cg::csgraph_to_dense(g, nv), testing::golden(kModule, c.name() + "_out"), 0, 0);
  }
}

TEST_CASE("csgraph_masked_from_dense, csgraph_from_masked and csgraph_to_masked match SciPy") {
  auto mfd = testing::cases(kModule, "csgraph_masked_from_dense");
  auto fm = testing::cases(kModule, "csgraph_from_masked");
  auto tm = testing::cases(kModule, "csgraph_to_masked");
  REQUIRE(mfd.size() >= 8);
  REQUIRE(fm.size() >= 5);
  REQUIRE(tm.size() >= 5);
  for (const auto& c : mfd) {
    CAPTURE(c.name());
    const ndarray g = graph_of(c).dense();
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::csgraph_masked_from_dense(g, dense_opts(c)); });
      continue;
    }
    check_masked(c, cg::csgraph_masked_from_dense(g, dense_opts(c)));
  }
  for (const auto& c : fm) {
    CAPTURE(c.name());
    const cg::masked_graph m{graph_of(c).dense(), arr(c, "mask")};
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::csgraph_from_masked(m); });
      continue;
    }
    check_csr(c, cg::csgraph_from_masked(m));
  }
  for (const auto& c : tm) {
    CAPTURE(c.name());
    const cg::graph_input g = graph_of(c);
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)cg::csgraph_to_masked(g); });
      continue;
    }
    check_masked(c, cg::csgraph_to_masked(g));
  }
}

TEST_CASE("csgraph_masked_from_dense with copy=false shares a C-contiguous input") {
  const ndarray g = asarray(std::vector<double>{0, 1, 2, 0}, {2, 2});
  const cg::masked_graph m = cg::csgraph_masked_from_dense(g, {.copy = false});
  CHECK(m.data.data() == g.data());
  const cg::masked_graph c = cg::csgraph_masked_from_dense(g);
  CHECK(c.data.data() != g.data());
}
