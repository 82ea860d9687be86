// Host tests of cusci::linalg's norm family: the argument checks of norm (with check_finite) and of
// clarkson_woodruff_transform that throw before any allocation or device work (the arrays are views
// with no memory behind them; they are never read).

#include <doctest/doctest.h>

#include <cmath>

#include "cusci/linalg/norm.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::fake_array;
using cusci::testing::linalg_cases::f64;

TEST_CASE("norm: argument checks before the finiteness test") {
  const std::string fn = "cusci::linalg::norm: ";
  CHECK_THROWS_WITH_AS(linalg::norm(f64({3}), {.ord = linalg::norm_kind::fro}, true),
                       (fn + "Invalid norm order 'fro' for vectors").c_str(), value_error);
  CHECK_THROWS_WITH_AS(linalg::norm(f64({2, 2}), {.ord = linalg::norm_kind::nuc, .axis = 0}, true),
                       (fn + "Invalid norm order 'nuc' for vectors").c_str(), value_error);
  CHECK_THROWS_WITH_AS(linalg::norm(f64({2, 3, 4}), {.ord = 2}, true),
                       (fn + "Improper number of dimensions to norm.").c_str(), value_error);
  CHECK_THROWS_AS(linalg::norm(f64({2, 3, 4}), {.axis = {0, 1, 2}}, true), value_error);
  CHECK_THROWS_WITH_AS(linalg::norm(f64({2, 3, 4}), {.axis = {1, -2}}, true),
                       (fn + "Duplicate axes given.").c_str(), value_error);
  CHECK_THROWS_AS(linalg::norm(f64({2, 3, 4}), {.axis = 3}, true), index_error);
  CHECK_THROWS_AS(linalg::norm(f64({2, 3}), {.axis = {0, 2}}, true), index_error);
  CHECK_THROWS_WITH_AS(linalg::norm(f64({2, 2}), {.ord = 3}, true),
                       (fn + "Invalid norm order for matrices.").c_str(), value_error);
  CHECK_THROWS_AS(linalg::norm(f64({2, 2}), {.ord = 0.5, .axis = {0, 1}}, false), value_error);
}

TEST_CASE("clarkson_woodruff_transform: argument checks") {
  const std::string fn = "cusci::linalg::clarkson_woodruff_transform: ";
  CHECK_THROWS_AS(linalg::clarkson_woodruff_transform(f64({5}), 2, std::uint64_t{0}), index_error);
  CHECK_THROWS_AS(linalg::clarkson_woodruff_transform(f64({}), 2, std::uint64_t{0}), index_error);
  CHECK_THROWS_WITH_AS(linalg::clarkson_woodruff_transform(f64({5, 3}), 0, std::uint64_t{0}),
                       (fn + "high <= 0").c_str(), value_error);
  CHECK_THROWS_AS(linalg::clarkson_woodruff_transform(f64({5, 3}), -1, std::uint64_t{0}), value_error);
  CHECK_THROWS_WITH_AS(linalg::clarkson_woodruff_transform(f64({0, 5, 3}), 2, std::uint64_t{0}),
                       (fn + "`_batch_dot` does not support zero-size batches.").c_str(), value_error);
  const ndarray rows = fake_array(dtype::int64, {5}), signs = fake_array(dtype::int64, {5});
  CHECK_THROWS_AS(linalg::clarkson_woodruff_transform(f64({4, 3}), linalg::cwt_sketch{2, rows, signs}), value_error);
  CHECK_THROWS_AS(linalg::clarkson_woodruff_transform(f64({5, 3}), linalg::cwt_sketch{0, rows, signs}), value_error);
  CHECK_THROWS_AS(linalg::clarkson_woodruff_transform(f64({5, 3}), linalg::cwt_sketch{2, f64({5}), signs}),
                  value_error);
  CHECK_THROWS_AS(linalg::clarkson_woodruff_transform(
                      f64({5, 3}), linalg::cwt_sketch{2, rows, fake_array(dtype::int64, {4})}),
                  value_error);
}
