// Host tests of the products family of cusci::sparse: option parsing and defaults (no device work).

#include <cmath>

#include "cusci/error.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/products.hpp"
#include "testing.hpp"

using namespace cusci::sparse;

TEST_CASE("norm_ord_from_string parses SciPy's string orders") {
  CHECK(linalg::norm_ord_from_string("fro").kind == linalg::norm_kind::fro);
  CHECK(linalg::norm_ord_from_string("f").kind == linalg::norm_kind::fro);
  const auto i = linalg::norm_ord_from_string("inf");
  CHECK(i.kind == linalg::norm_kind::p);
  CHECK(std::isinf(i.p));
  CHECK(i.p > 0);
  CHECK(linalg::norm_ord_from_string("-inf").p < 0);
  CHECK_THROWS_WITH_AS(linalg::norm_ord_from_string("nuc"), doctest::Contains("Invalid norm order"),
                       cusci::value_error);
  CHECK_THROWS_AS(linalg::norm_ord_from_string(""), cusci::value_error);
}

TEST_CASE("norm_ord: numbers are p-norms, the default is Frobenius (SciPy's ord=None)") {
  linalg::norm_ord d;
  CHECK(d.kind == linalg::norm_kind::fro);
  linalg::norm_ord one = 1.0;
  CHECK(one.kind == linalg::norm_kind::p);
  CHECK(one.p == 1.0);
  CHECK(linalg::norm_ord(0.0).p == 0.0);
}

TEST_CASE("spgemm_options defaults: automatic algorithm, chunk fraction in (0, 1]") {
  spgemm_options o;
  CHECK(o.algorithm == spgemm_algorithm::automatic);
  CHECK(o.chunk_fraction > 0.0f);
  CHECK(o.chunk_fraction <= 1.0f);
}
