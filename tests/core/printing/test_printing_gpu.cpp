// GPU tests of the printing family: every case of tests/golden/gen_core_printing.py printed from a
// device array in the case's layout (C; F: a Fortran-order copy; S2: the strided view x[::2]) and
// compared with NumPy's string exactly. Summarised cases exercise the device-side corner gathering
// (slices + concatenate, then one copy). Also: a non-default stream, operator<<, errors.

#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "printing_cases.hpp"

using namespace cusci;
using namespace printing_test;

namespace {

ndarray device_input(const golden_case& c) {
  const ndarray d = asarray(input_of(c));
  const std::string layout = c.get<std::string>("layout");
  if (layout == "F") return d.copy(order::F);
  if (layout == "S2") return d[{slice{0, std::nullopt, 2}}];
  return d;
}

}  // namespace

TEST_CASE("printing: every NumPy case on device arrays") {
  const auto& all = cusci::testing::cases(mod);
  REQUIRE(all.size() > 500);
  int checked = 0;
  for (const golden_case& c : all) {
    const ndarray d = device_input(c);
    const std::string expected = c.get<std::string>("expected");
    const std::string actual = run(c, d);
    CHECK_MESSAGE(actual == expected, c.name() << "\n--- cusci:\n" << actual << "\n--- NumPy:\n" << expected);
    ++checked;
  }
  MESSAGE(checked << " cases");
}

TEST_CASE("printing: device arrays, views, streams, operator<<") {
  const ndarray a = arange(6000).reshape({60, 100});
  // a transposed, strided (non-contiguous) summarised view (33 x 60) prints as its host copy does
  const ndarray v = a.T()[{slice{1, std::nullopt, 3}}];
  CHECK(to_string(v) == to_string(to_host(v)));
  CHECK(array_repr(v) == array_repr(to_host(v)));
  std::ostringstream os;
  os << a;
  CHECK(os.str() == to_string(to_host(a)));
  CHECK(array_repr(zeros({0, 3})) == "array([], shape=(0, 3), dtype=float64)");
  CHECK(array_repr(full({}, 2.5, dtype::float32)) == "array(2.5, dtype=float32)");
  CHECK(to_string(full({}, 2.5, dtype::float32)) == "2.5");
  CHECK_THROWS_AS(array2string(a, {.edgeitems = -1}), value_error);
}
