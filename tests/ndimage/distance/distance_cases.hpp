#pragma once
// Shared by the distance transform tests: the cases of tests/golden/gen_ndimage_distance.py (module
// "ndimage_distance") turned into calls of the public API.

#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndimage/distance.hpp"
#include "testing.hpp"

namespace distance_test {

namespace nd = cusci::ndimage;
using cusci::testing::golden_case;

inline const std::vector<std::string>& funcs() {
  static const std::vector<std::string> f = {"distance_transform_edt", "distance_transform_cdt",
                                             "distance_transform_bf"};
  return f;
}

/// The sampling of a case: absent, a number or a list.
inline std::optional<nd::per_axis<double>> sampling_of(const golden_case& c) {
  if (!c.has("sampling")) return std::nullopt;
  const auto j = c.params().at("sampling");
  using reader = cusci::testing::golden_detail::reader<double>;
  if (!j.is_array()) return nd::per_axis<double>(reader::read(j));
  std::vector<double> v;
  for (const auto& x : j) v.push_back(reader::read(x));
  return nd::per_axis<double>(v);
}

/// The preallocated arrays a case asks for, made by `make(dtype, shape, order, fill)`.
struct prealloc {
  std::optional<cusci::ndarray> distances;
  std::optional<cusci::ndarray> indices;
};

/// The shapes SciPy expects for the preallocated arrays of input shape `shape` (edt: a 0-d input
/// counts as shape (1,)).
inline prealloc make_prealloc(const golden_case& c, cusci::shape_t shape,
                              const std::function<cusci::ndarray(cusci::dtype, const cusci::shape_t&, cusci::order,
                                                                 std::int32_t)>& make) {
  prealloc p;
  if (c.func() == "distance_transform_edt" && shape.empty()) shape = {1};
  if (c.has("dist_array")) {
    const auto s = c.has("dist_shape") ? c.get<std::vector<std::int64_t>>("dist_shape") : shape;
    const auto ord = c.get_or<std::string>("dist_order", "C") == "F" ? cusci::order::F : cusci::order::C;
    p.distances = make(cusci::dtype_from_string(c.get<std::string>("dist_array")), s, ord, 0);
  }
  if (c.has("ind_array")) {
    cusci::shape_t s{static_cast<std::int64_t>(shape.size())};
    s.insert(s.end(), shape.begin(), shape.end());
    if (c.has("ind_shape")) s = c.get<std::vector<std::int64_t>>("ind_shape");
    const auto ord = c.get_or<std::string>("ind_order", "C") == "F" ? cusci::order::F : cusci::order::C;
    p.indices = make(cusci::dtype_from_string(c.get<std::string>("ind_array")), s, ord,
                     static_cast<std::int32_t>(c.get_or<std::int64_t>("ind_fill", 0)));
  }
  return p;
}

/// Calls the case's function on `x` with the preallocated arrays `p`.
inline nd::distance_transform_result call(const golden_case& c, const cusci::ndarray& x, const prealloc& p) {
  const std::string f = c.func();
  const bool rd = c.get_or<bool>("return_distances", true);
  const bool ri = c.get_or<bool>("return_indices", false);
  if (f == "distance_transform_edt") {
    nd::edt_options o;
    o.sampling = sampling_of(c);
    o.return_distances = rd;
    o.return_indices = ri;
    o.distances = p.distances;
    o.indices = p.indices;
    return nd::distance_transform_edt(x, o);
  }
  if (f == "distance_transform_cdt") {
    nd::cdt_options o;
    if (c.has("metric_array")) o.metric = c.array("metric_array");
    else if (c.has("metric")) o.metric = c.get<std::string>("metric");
    o.return_distances = rd;
    o.return_indices = ri;
    o.distances = p.distances;
    o.indices = p.indices;
    return nd::distance_transform_cdt(x, o);
  }
  REQUIRE(f == "distance_transform_bf");
  nd::bf_options o;
  if (c.has("metric")) o.metric = c.get<std::string>("metric");
  o.sampling = sampling_of(c);
  o.return_distances = rd;
  o.return_indices = ri;
  o.distances = p.distances;
  o.indices = p.indices;
  return nd::distance_transform_bf(x, o);
}

/// Checks that `run()` throws the exception case `c` names and that the message starts with
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

}  // namespace distance_test
