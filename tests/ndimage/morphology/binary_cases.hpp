#pragma once
// Shared by the binary morphology tests: the cases of tests/golden/gen_ndimage_morphology.py (module
// "ndimage_morphology") turned into calls of the public API.

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndimage/morphology.hpp"
#include "testing.hpp"

namespace morph_test {

namespace nd = cusci::ndimage;
using cusci::testing::golden_case;

inline const std::vector<std::string>& binary_funcs() {
  static const std::vector<std::string> f = {"binary_erosion", "binary_dilation", "binary_opening",
                                             "binary_closing", "binary_hit_or_miss", "binary_propagation",
                                             "binary_fill_holes"};
  return f;
}

/// A scalar or list origin parameter.
inline nd::per_axis<std::int64_t> origin_of(const golden_case& c, const std::string& key) {
  const auto j = c.params().at(key);
  if (!j.is_array()) return nd::per_axis<std::int64_t>(j.get<std::int64_t>());
  std::vector<std::int64_t> v;
  for (std::size_t i = 0; i < j.size(); ++i) v.push_back(j.at(i).get<std::int64_t>());
  return nd::per_axis<std::int64_t>(v);
}

inline std::optional<cusci::host_array> host_of(const golden_case& c, const std::string& key) {
  if (!c.has(key)) return std::nullopt;
  return c.array(key);
}

/// Arguments of a case (`make_array` turns a stored host array into the array the call receives:
/// a device array on the GPU, a header without memory on the host).
struct args {
  std::optional<cusci::host_array> structure, structure1, structure2;
  std::optional<cusci::ndarray> mask;
  std::int64_t iterations = 1;
  int border_value = 0;
  nd::per_axis<std::int64_t> origin = std::int64_t{0}, origin1 = std::int64_t{0};
  std::optional<nd::per_axis<std::int64_t>> origin2;
  bool brute_force = false;
  std::optional<std::vector<int>> axes;
  nd::output_arg output{};
};

template <class MakeArray>
args args_of(const golden_case& c, MakeArray&& make_array) {
  args a;
  a.structure = host_of(c, "structure");
  a.structure1 = host_of(c, "structure1");
  a.structure2 = host_of(c, "structure2");
  if (c.has("mask")) a.mask = make_array(c.array("mask"));
  a.iterations = c.get_or<std::int64_t>("iterations", 1);
  a.border_value = c.get_or<int>("border_value", 0);
  if (c.has("origin")) a.origin = origin_of(c, "origin");
  if (c.has("origin1")) a.origin1 = origin_of(c, "origin1");
  if (c.has("origin2")) a.origin2 = origin_of(c, "origin2");
  a.brute_force = c.get_or<bool>("brute_force", false);
  if (c.has("axes")) a.axes = c.get<std::vector<int>>("axes");
  if (c.has("output")) a.output = cusci::dtype_from_string(c.get<std::string>("output"));
  return a;
}

/// Calls the case's function.
inline cusci::ndarray call(const golden_case& c, const cusci::ndarray& x, const args& a) {
  const std::string f = c.func();
  if (f == "binary_hit_or_miss") {
    nd::hit_or_miss_options o;
    o.structure1 = a.structure1;
    o.structure2 = a.structure2;
    o.output = a.output;
    o.origin1 = a.origin1;
    o.origin2 = a.origin2;
    o.axes = a.axes;
    return nd::binary_hit_or_miss(x, o);
  }
  if (f == "binary_propagation") {
    nd::propagation_options o;
    o.structure = a.structure;
    o.mask = a.mask;
    o.output = a.output;
    o.border_value = a.border_value;
    o.origin = a.origin;
    o.axes = a.axes;
    return nd::binary_propagation(x, o);
  }
  if (f == "binary_fill_holes") {
    nd::fill_holes_options o;
    o.structure = a.structure;
    o.output = a.output;
    o.origin = a.origin;
    o.axes = a.axes;
    return nd::binary_fill_holes(x, o);
  }
  auto fill = [&](auto o) {  // binary_options or binary_opening_options: the same fields
    o.structure = a.structure;
    o.iterations = a.iterations;
    o.mask = a.mask;
    o.output = a.output;
    o.border_value = a.border_value;
    o.origin = a.origin;
    o.brute_force = a.brute_force;
    o.axes = a.axes;
    return o;
  };
  if (f == "binary_erosion") return nd::binary_erosion(x, fill(nd::binary_options{}));
  if (f == "binary_dilation") return nd::binary_dilation(x, fill(nd::binary_options{}));
  if (f == "binary_opening") return nd::binary_opening(x, fill(nd::binary_opening_options{}));
  REQUIRE(f == "binary_closing");
  return nd::binary_closing(x, fill(nd::binary_opening_options{}));
}

/// Checks that `run()` throws the exception the case names and that the message starts with
/// "cusci::ndimage::<func>: ".
template <class F>
void check_throws(const golden_case& c, F&& run) {
  cusci::testing::check_error(c, run);
  try {
    run();
  } catch (const cusci::error& e) {
    const std::string what = e.what();
    CHECK_MESSAGE(what.rfind("cusci::ndimage::" + c.func() + ": ", 0) == 0, what);
  }
}

}  // namespace morph_test
