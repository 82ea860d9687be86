// Host tests of the printing family: every case of tests/golden/gen_core_printing.py printed from a
// host_array (layout S2: the rows [::2] copied on the host; F: the same values, host arrays being C
// order) and compared with NumPy's string exactly; the print options (per thread, the guard, the
// parsers) and the errors.

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <thread>

#include "cusci/error.hpp"
#include "printing_cases.hpp"

using namespace cusci;
using namespace printing_test;

TEST_CASE("printing: every NumPy case on host arrays") {
  const auto& all = cusci::testing::cases(mod);
  REQUIRE(all.size() > 500);
  int checked = 0;
  for (const golden_case& c : all) {
    host_array h = input_of(c);
    if (c.get<std::string>("layout") == "S2") h = every_other_row(h);
    const std::string expected = c.get<std::string>("expected");
    const std::string actual = run(c, h);
    CHECK_MESSAGE(actual == expected, c.name() << "\n--- cusci:\n" << actual << "\n--- NumPy:\n" << expected);
    ++checked;
  }
  MESSAGE(checked << " cases");
}

TEST_CASE("printing: operator<< and to_string print str") {
  const host_array h = host_array::from(std::vector<double>{1.0, 0.5, -2.0});
  std::ostringstream os;
  os << h;
  CHECK(os.str() == "[ 1.   0.5 -2. ]");
  CHECK(to_string(h) == os.str());
  CHECK(array_repr(h) == "array([ 1. ,  0.5, -2. ])");
  CHECK(array_repr(host_array::from(std::vector<float>{1.0f, 2.0f})) == "array([1., 2.], dtype=float32)");
  CHECK(array_repr(host_array(dtype::float64, {0, 3})) == "array([], shape=(0, 3), dtype=float64)");
}

TEST_CASE("printing: print options are per thread; the guard restores them") {
  reset_printoptions();
  CHECK(get_printoptions().precision == 8);
  {
    printoptions g({.precision = 3, .suppress = true});
    CHECK(get_printoptions().precision == 3);
    CHECK(get_printoptions().suppress);
    CHECK(get_printoptions().threshold == 1000);
    int other = -1;
    std::thread t([&] { other = get_printoptions().precision; });
    t.join();
    CHECK(other == 8);
    CHECK(to_string(host_array::from(std::vector<double>{3.14159265})) == "[3.142]");
  }
  CHECK(get_printoptions().precision == 8);
  set_printoptions({.linewidth = 10});
  CHECK(get_printoptions().linewidth == 10);
  CHECK(get_printoptions().precision == 8);
  reset_printoptions();
  CHECK(get_printoptions().linewidth == 75);
}

TEST_CASE("printing: option parsers and errors") {
  CHECK(float_mode_from_string("fixed") == float_mode::fixed);
  CHECK(float_mode_from_string("unique") == float_mode::unique);
  CHECK(float_mode_from_string("maxprec") == float_mode::maxprec);
  CHECK(float_mode_from_string("maxprec_equal") == float_mode::maxprec_equal);
  CHECK_THROWS_AS(float_mode_from_string("exact"), value_error);
  CHECK(print_sign_from_string("+") == print_sign::plus);
  CHECK(print_sign_from_string(" ") == print_sign::space);
  CHECK(print_sign_from_string("-") == print_sign::minus);
  CHECK_THROWS_AS(print_sign_from_string("x"), value_error);
  CHECK_THROWS_AS(set_printoptions({.precision = -1}), value_error);
  CHECK_THROWS_AS(set_printoptions({.edgeitems = -1}), value_error);
  CHECK_THROWS_AS(set_printoptions({.threshold = -1}), value_error);
  CHECK(get_printoptions().precision == 8);  // unchanged by the failed calls
  const host_array h = host_array::from(std::vector<double>{1.0});
  CHECK_THROWS_AS(array2string(h, {.precision = -2}), value_error);
  CHECK_THROWS_AS(array_repr(h, {.precision = -2}), value_error);
  CHECK_THROWS_AS(scalar_str(h, 1), index_error);
  // NumPy: RuntimeError "Float formatting result too large"
  CHECK_THROWS_AS(array2string(h, {.precision = 20000, .floatmode = float_mode::fixed}), cusci::runtime_error);
  CHECK(array2string(h, {.precision = 20000}) == "[1.]");  // maxprec: only the digits needed
  CHECK(scalar_str(h, 0) == "1.0");
}
