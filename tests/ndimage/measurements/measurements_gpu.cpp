// GPU tests of cusci::ndimage's labelling and measurements: every case of
// tests/golden/gen_ndimage_measurements.py (SciPy 1.18.1) through the public API, results (values,
// dtype, shape, layout) and errors (type and SciPy's text).

#include <doctest/doctest.h>

#include <string>

#include "cusci/ndimage/measurements.hpp"
#include "cusci/stream.hpp"
#include "measurements_cases.hpp"

namespace {

void run_func(const std::string& func, int at_least) {
  int n = 0;
  for (const auto& c : cusci::testing::cases(measure_test::kModule, func)) {
    INFO("case " << c.name());
    if (c.expects_error()) {
      ndimage_test::check_throws_with(c, [&] { measure_test::run_any(c, false); }, /*names_function=*/true);
    } else {
      measure_test::check_case(c);
    }
    ++n;
  }
  CHECK(n >= at_least);
}

}  // namespace

TEST_CASE("label: SciPy's labels and numbering, structures, dtypes, layouts, outputs, errors") { run_func("label", 50); }
TEST_CASE("find_objects") { run_func("find_objects", 15); }
TEST_CASE("value_indices") { run_func("value_indices", 10); }
TEST_CASE("sum_labels") { run_func("sum_labels", 80); }
TEST_CASE("mean") { run_func("mean", 80); }
TEST_CASE("variance") { run_func("variance", 80); }
TEST_CASE("standard_deviation") { run_func("standard_deviation", 80); }
TEST_CASE("minimum") { run_func("minimum", 80); }
TEST_CASE("maximum") { run_func("maximum", 80); }
TEST_CASE("median") { run_func("median", 80); }
TEST_CASE("minimum_position") { run_func("minimum_position", 70); }
TEST_CASE("maximum_position") { run_func("maximum_position", 70); }
TEST_CASE("extrema") { run_func("extrema", 70); }
TEST_CASE("center_of_mass") { run_func("center_of_mass", 80); }
TEST_CASE("histogram") { run_func("histogram", 12); }
TEST_CASE("labeled_comprehension (run-time-compiled function)") { run_func("labeled_comprehension", 30); }

TEST_CASE("labeled_comprehension: results on a non-default stream match the null stream's") {
  namespace nd = cusci::ndimage;
  const auto& all = cusci::testing::cases(measure_test::kModule, "labeled_comprehension");
  REQUIRE(!all.empty());
  const auto& c = all.front();
  // The reference is read back on the null stream, which a non-blocking stream does not wait for.
  const cusci::host_array ref = cusci::to_host(measure_test::run_measure(c, false));
  cusci::stream s(/*non_blocking=*/true);
  cusci::stream_guard g(s);
  const cusci::ndarray r = measure_test::run_measure(c, false);
  cusci::testing::check_allclose(r, ref, 0.0, 0.0);
}

TEST_CASE("label: a 512 x 512 random image with 8-connectivity gives one label per SciPy feature order") {
  // Self-consistency on a size where many blocks race in the union-find: labels are numbered by
  // first appearance (each new label in a C-order scan is the next integer).
  namespace nd = cusci::ndimage;
  const auto& cs = cusci::testing::cases(measure_test::kModule, "label");
  for (const auto& c : cs) {
    if (c.name() != "label_random50_8conn") continue;
    const cusci::host_array h = c.array("input");
    const cusci::ndarray x = cusci::asarray(h);
    const cusci::ndarray big = cusci::tile(x, {8, 8});
    cusci::ndarray s = cusci::ones({3, 3}, cusci::dtype::bool_);
    const auto r = nd::label(big, {.structure = s});
    const cusci::host_array l = cusci::to_host(r.labels);
    const auto* p = l.data_as<std::int32_t>();
    std::int64_t next = 1;
    bool ok = true;
    for (std::int64_t i = 0; i < l.size(); ++i) {
      if (p[i] == next) ++next;
      else if (p[i] > next) ok = false;
    }
    CHECK(ok);
    CHECK(next - 1 == r.num_features);
  }
}
