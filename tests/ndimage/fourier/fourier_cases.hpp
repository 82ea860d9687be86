#pragma once
// Shared by the fourier tests: the cases of tests/golden/gen_ndimage_fourier.py (module
// "ndimage_fourier") turned into calls of the public API.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndimage/fourier.hpp"
#include "testing.hpp"

namespace fourier_test {

namespace nd = cusci::ndimage;
using cusci::testing::golden_case;

inline const std::vector<std::string>& funcs() {
  static const std::vector<std::string> f = {"fourier_gaussian", "fourier_uniform", "fourier_ellipsoid",
                                             "fourier_shift"};
  return f;
}

/// The per-axis parameter of a case under SciPy's name (sigma, size or shift).
inline nd::per_axis<double> param_of(const golden_case& c) {
  const std::string key = c.func() == "fourier_gaussian" ? "sigma" : c.func() == "fourier_shift" ? "shift" : "size";
  const auto& j = c.params().at(key);
  using reader = cusci::testing::golden_detail::reader<double>;
  if (!j.is_array()) return nd::per_axis<double>(reader::read(j));
  std::vector<double> v;
  for (const auto& x : j) v.push_back(reader::read(x));
  return nd::per_axis<double>(v);
}

/// n, axis and an output dtype (SciPy's `output=np.float32`); output arrays are added by the caller.
inline nd::fourier_options options_of(const golden_case& c) {
  nd::fourier_options o;
  o.n = c.get_or<std::int64_t>("n", -1);
  o.axis = c.get_or<int>("axis", -1);
  if (c.has("output")) o.output = cusci::dtype_from_string(c.get<std::string>("output"));
  return o;
}

/// Calls the case's function.
inline cusci::ndarray call(const golden_case& c, const cusci::ndarray& x, const nd::fourier_options& o) {
  const auto p = param_of(c);
  const std::string f = c.func();
  if (f == "fourier_gaussian") return nd::fourier_gaussian(x, p, o);
  if (f == "fourier_uniform") return nd::fourier_uniform(x, p, o);
  if (f == "fourier_ellipsoid") return nd::fourier_ellipsoid(x, p, o);
  REQUIRE(f == "fourier_shift");
  return nd::fourier_shift(x, p, o);
}

/// Checks that `run()` throws the exception case `c` names (runtime_error included) and that the
/// message starts with "cusci::ndimage::<func>: ".
template <class F>
void check_throws(const golden_case& c, F&& run) {
  if (c.error() == "runtime_error") CHECK_THROWS_AS(run(), cusci::runtime_error);
  else cusci::testing::check_error(c, run);
  try {
    run();
  } catch (const cusci::error& e) {
    const std::string what = e.what();
    CHECK_MESSAGE(what.rfind("cusci::ndimage::" + c.func() + ": ", 0) == 0, what);
  }
}

}  // namespace fourier_test
