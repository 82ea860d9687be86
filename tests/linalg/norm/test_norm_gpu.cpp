// GPU tests of cusci::linalg's norm family: norm with check_finite against scipy.linalg.norm 1.18
// (tests/golden/gen_linalg_norm.py: vector and matrix orders, axes over stacks, keepdims, every dtype,
// C / F / strided layouts, scaling of 2-norms, empty inputs, non-finite inputs with and without the
// check, argument errors), clarkson_woodruff_transform applied with the sketch SciPy drew (exact
// construction; every dtype, batches, layouts, empty inputs, errors), and the distributional
// properties of cusci's own sketches (no reference: cusci's Philox stream is not NumPy's PCG64).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/linalg/norm.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/random.hpp"
#include "cusci/stream.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;
using cusci::testing::golden_case;

namespace {

const std::string mod = "linalg_norm";

linalg::norm_ord parse_ord(const std::string& s) {
  if (s == "none") return {};
  if (s == "fro" || s == "nuc") return linalg::parse_norm_kind(s);
  return std::stod(s);
}

ndarray call_case(const golden_case& c) {
  const std::string layout = c.get<std::string>("layout");
  auto in = [&](const char* key) { return to_device(c.array(key), layout); };
  if (c.func() == "norm") {
    linalg::norm_options o;
    o.ord = parse_ord(c.get<std::string>("ord"));
    if (c.has("axis")) o.axis = axis_arg(c.get<std::vector<int>>("axis"));
    o.keepdims = c.get<bool>("keepdims");
    return linalg::norm(in("a"), o, c.get<bool>("check_finite"));
  }
  if (c.func() == "cwt") {
    if (!c.has("rows"))  // error cases: SciPy's own call with rng=seed
      return linalg::clarkson_woodruff_transform(in("a"), c.get<std::int64_t>("sketch_size"),
                                                 static_cast<std::uint64_t>(c.get<std::int64_t>("seed")));
    const linalg::cwt_sketch s{c.get<std::int64_t>("sketch_size"), in("rows"), in("signs")};
    return linalg::clarkson_woodruff_transform(in("a"), s);
  }
  FAIL("unknown func " << c.func());
  return {};
}

void run_case(const golden_case& c) {
  INFO("case " << c.name());
  if (c.expects_error()) {
    cusci::testing::check_error(c, [&] { return call_case(c); });
  } else {
    ndarray x;
    REQUIRE_NOTHROW(x = call_case(c));
    cusci::testing::check_allclose(x, c.array("expected"), c.rtol(), c.atol());
  }
}

}  // namespace

TEST_CASE("norm family matches scipy.linalg (references)") {
  const auto& cases = cusci::testing::cases(mod);
  REQUIRE(cases.size() > 450);
  for (const auto& c : cases) run_case(c);
}

TEST_CASE("norm family on a non-blocking stream") {
  run_on_nonblocking_stream(mod, {"n_c64_mat_nuc_kd1", "n_stack_ax0_2_2.0_kd0", "n_inf_checked", "cwt_batch2",
                                  "cwt_f64_n200_d5_k3"}, run_case);
}

TEST_CASE("cwt_matrix: rows uniform, signs fair, one entry per column") {
  random::generator g = random::default_rng(20261205);
  const std::int64_t k = 10, n = 200000;
  const linalg::cwt_sketch s = linalg::cwt_matrix(k, n, g);
  CHECK(s.n_rows == k);
  REQUIRE(s.rows.shape() == shape_t{n});
  REQUIRE(s.signs.shape() == shape_t{n});
  CHECK(s.rows.dtype() == dtype::int64);
  CHECK(s.signs.dtype() == dtype::int64);
  const std::vector<std::int64_t> rows = to_host(s.rows).to_vector<std::int64_t>();
  const std::vector<std::int64_t> signs = to_host(s.signs).to_vector<std::int64_t>();
  std::vector<std::int64_t> count(static_cast<std::size_t>(k), 0);
  std::int64_t plus = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    REQUIRE(rows[j] >= 0);
    REQUIRE(rows[j] < k);
    REQUIRE((signs[j] == 1 || signs[j] == -1));
    ++count[static_cast<std::size_t>(rows[j])];
    plus += signs[j] == 1;
  }
  // binomial counts: 5 standard deviations
  const double p = 1.0 / static_cast<double>(k), sd = std::sqrt(n * p * (1 - p));
  double chi2 = 0;
  for (std::int64_t c : count) {
    CHECK(std::abs(static_cast<double>(c) - n * p) < 5 * sd);
    chi2 += (c - n * p) * (c - n * p) / (n * p);
  }
  CHECK(chi2 < 40.0);  // chi-square with 9 degrees of freedom: P(> 40) < 1e-5
  CHECK(std::abs(static_cast<double>(plus) - n / 2.0) < 5 * std::sqrt(n / 4.0));
  // a second draw from the same generator is a different sketch; the same seed repeats it
  const linalg::cwt_sketch s2 = linalg::cwt_matrix(k, n, g);
  CHECK(to_host(s2.rows).to_vector<std::int64_t>() != rows);
  random::generator g2 = random::default_rng(20261205);
  CHECK(to_host(linalg::cwt_matrix(k, n, g2).rows).to_vector<std::int64_t>() == rows);
  CHECK_THROWS_AS(linalg::cwt_matrix(0, 3, g), value_error);
}

TEST_CASE("clarkson_woodruff_transform is S @ A for the sketch of its seed") {
  const std::int64_t n = 300, k = 17;
  // S @ I = S: one +-1 per column, in the row the sketch names
  const ndarray s_dense = linalg::clarkson_woodruff_transform(eye(n), k, std::uint64_t{42});
  CHECK(s_dense.dtype() == dtype::float64);
  REQUIRE(s_dense.shape() == shape_t{k, n});
  random::generator g = random::default_rng(42);
  const linalg::cwt_sketch s = linalg::cwt_matrix(k, n, g);
  const std::vector<std::int64_t> rows = to_host(s.rows).to_vector<std::int64_t>();
  const std::vector<std::int64_t> signs = to_host(s.signs).to_vector<std::int64_t>();
  const std::vector<double> dense = to_host(s_dense).to_vector<double>();
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < k; ++i)
      CHECK(dense[static_cast<std::size_t>(i * n + j)] == (i == rows[j] ? static_cast<double>(signs[j]) : 0.0));
  // the batch shares one sketch
  random::generator ga = random::default_rng(3);
  const ndarray a = ga.standard_normal({40, 3});
  const ndarray one = linalg::clarkson_woodruff_transform(a, 8, std::uint64_t{5});
  const ndarray two = linalg::clarkson_woodruff_transform(stack({a, multiply(a, scalar(2.0))}), 8, std::uint64_t{5});
  REQUIRE(two.shape() == shape_t{2, 8, 3});
  cusci::testing::check_allclose(two[{0}], to_host(one), 0.0, 0.0);
  cusci::testing::check_allclose(two[{1}], to_host(multiply(one, scalar(2.0))), 0.0, 0.0);
  // integers stay exact (int64)
  const ndarray ai = ga.integers(-100, 100, {50, 4}, dtype::int32);
  const ndarray si = linalg::clarkson_woodruff_transform(ai, 6, std::uint64_t{9});
  CHECK(si.dtype() == dtype::int64);
  cusci::testing::check_allclose(si, to_host(linalg::clarkson_woodruff_transform(ai.astype(dtype::float64), 6,
                                                                                 std::uint64_t{9})),
                                 0.0, 0.0, false);
}

TEST_CASE("clarkson_woodruff_transform preserves norms in expectation") {
  // E ||S a||^2 = ||a||^2 and Var = O(2 ||a||^4 / k) (Woodruff 2014, Theorem 14's proof).
  random::generator ga = random::default_rng(11);
  const std::int64_t n = 4000, k = 2000;
  const ndarray a = ga.standard_normal({n, 1});
  const double na = std::pow(linalg::norm(a).item<double>(), 2);
  double mean = 0;
  const int trials = 20;
  for (int t = 0; t < trials; ++t) {
    const ndarray sa = linalg::clarkson_woodruff_transform(a, k, static_cast<std::uint64_t>(100 + t));
    const double r = std::pow(linalg::norm(sa).item<double>(), 2) / na;
    CHECK(std::abs(r - 1.0) < 0.25);  // about 8 standard deviations
    mean += r / trials;
  }
  CHECK(std::abs(mean - 1.0) < 0.05);
}
