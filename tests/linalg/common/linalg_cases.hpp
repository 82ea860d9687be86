#pragma once
// Helpers shared by the tests of cusci::linalg's families (tests/linalg/<family>/): the reference inputs in
// the layout a case names, SciPy's errors, output comparisons, the per-function and non-blocking-stream runs
// over the references (gpu tests), and the shape-only arrays of the host tests. On the include path of every
// test under tests/linalg through cusci_add_test (its directory's common/).

#include <doctest/doctest.h>

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

namespace cusci::testing::linalg_cases {

/// The stored input as the case's layout asks: "C" as stored, "F" copied to Fortran order, "strided" the
/// even elements of the last axis (the generators store the logical input there); 0-d inputs as stored.
inline ndarray to_device(const host_array& h, const std::string& layout) {
  ndarray d = asarray(h);
  if (h.ndim() == 0) return d;
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{std::nullopt, std::nullopt, 2}}];
  return d;
}

/// Output `key` of case `c` against its reference, with the case's tolerances.
inline void check_output(const golden_case& c, const ndarray& x, const std::string& key) {
  INFO("output " << key);
  check_allclose(x, c.array(key), c.rtol(), c.atol());
}

/// The error case `c` expects from `call`: cusci::linalg::lin_alg_error for SciPy's LinAlgError, else the
/// exception kinds check_error knows.
template <class F>
void expect_error(const golden_case& c, F&& call) {
  if (c.error() == "lin_alg_error") CHECK_THROWS_AS(call(), cusci::linalg::lin_alg_error);
  else check_error(c, call);
}

/// Every case of function `func` in the references of `mod` (at least `at_least` of them) through `run`.
template <class Run>
void run_func_cases(const std::string& mod, const std::string& func, std::size_t at_least, Run&& run) {
  const auto cases = cusci::testing::cases(mod, func);
  REQUIRE(cases.size() >= at_least);
  for (const auto& c : cases) run(c);
}

/// The cases of `mod` named in `names` through `run` (in the references' order) on a non-blocking stream;
/// checks that every name was found, then synchronizes the stream.
template <class Run>
void run_on_nonblocking_stream(const std::string& mod, std::initializer_list<const char*> names, Run&& run) {
  cusci::stream s(true);
  cusci::stream_guard g(s);
  int n = 0;
  for (const auto& c : cusci::testing::cases(mod)) {
    const std::string name = c.name();
    for (const char* wanted : names) {
      if (name == wanted) {
        run(c);
        ++n;
        break;
      }
    }
  }
  CHECK(n == static_cast<int>(names.size()));
  s.synchronize();
}

/// A float64 array header of C-order shape `s` over no memory (host tests: checks before device work).
inline ndarray f64(const shape_t& s) { return fake_array(dtype::float64, s); }

}  // namespace cusci::testing::linalg_cases
