#pragma once
// Shared by the measurements tests: the cases of tests/golden/gen_ndimage_measurements.py run
// through the public API (label, find_objects, value_indices, the measurements, labeled_comprehension
// in its run-time-compiled form; the functor form is in measurements_nvcc_gpu.cu), and the checks
// of their results against SciPy's. `fake`: the arrays have no memory (host tests: only checks that
// come before any device work may run).

#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/measurements.hpp"
#include "../ndimage_cases.hpp"
#include "../ndimage_layouts.hpp"
#include "testing.hpp"

namespace measure_test {

namespace nd = cusci::ndimage;
using cusci::testing::golden_case;

inline const char* kModule = "ndimage_measurements";

/// A stored array on the device in the case's layout (`layout_key`), or a header without memory.
inline cusci::ndarray array_of(const golden_case& c, const std::string& key, const std::string& layout_key, bool fake) {
  const cusci::host_array h = c.array(key);
  if (fake) return cusci::testing::fake_array(h.dtype(), h.shape());
  return ndimage_test::with_layout(cusci::asarray(h), c.get_or<std::string>(layout_key, "C"));
}

inline cusci::ndarray input_of(const golden_case& c, bool fake) { return array_of(c, "input", "layout", fake); }

inline std::optional<cusci::ndarray> labels_of(const golden_case& c, bool fake) {
  if (!c.has("labels")) return std::nullopt;
  return array_of(c, "labels", "labels_layout", fake);
}

/// The case's index: none, a scalar, a host list, or a device array of index_dtype and index_shape
/// (given as a host list when `fake`).
inline nd::label_index index_of(const golden_case& c, bool fake) {
  const std::string kind = c.get<std::string>("index_kind");
  if (kind == "none") return {};
  if (kind == "scalar") return nd::label_index(c.get<std::int64_t>("index"));
  const auto v = c.get_or<std::vector<std::int64_t>>("index", {});
  if (kind == "list" || fake) return nd::label_index(v);
  const auto shape = c.get<cusci::shape_t>("index_shape");
  const cusci::dtype dt = cusci::dtype_from_string(c.get<std::string>("index_dtype"));
  return nd::label_index(cusci::asarray(v, shape).astype(dt));
}

/// The CUDA sources of the labeled_comprehension functions (the Python twins in the generator).
inline nd::device_function comprehension_function(const std::string& name) {
  static const std::map<std::string, std::string> body = {
      {"sum", "double t = 0; for (ptrdiff_t i = 0; i < n; ++i) t += (double)v[i]; return t;"},
      {"count", "return (double)n;"},
      {"max", "double m = (double)v[0]; for (ptrdiff_t i = 1; i < n; ++i) m = (double)v[i] > m ? (double)v[i] : m; "
              "return m;"},
      {"range", "double lo = (double)v[0], hi = lo; for (ptrdiff_t i = 1; i < n; ++i) { double x = (double)v[i]; "
                "lo = x < lo ? x : lo; hi = x > hi ? x : hi; } return hi - lo;"},
      {"possum", "double t = 0; for (ptrdiff_t i = 0; i < n; ++i) t += (double)p[i]; return t;"},
      {"weighted", "double t = 0; for (ptrdiff_t i = 0; i < n; ++i) t += (double)v[i] * (double)p[i]; return t;"},
  };
  const bool positions = name == "possum" || name == "weighted";
  const std::string sig = positions ? "(const cusci_input_t* v, const long long* p, ptrdiff_t n)"
                                    : "(const cusci_input_t* v, ptrdiff_t n)";
  return nd::device_function("__device__ double lc_" + name + sig + " { " + body.at(name) + " }\n", "lc_" + name);
}

inline nd::labeled_comprehension_options comprehension_options(const golden_case& c) {
  nd::labeled_comprehension_options o;
  o.out_dtype = cusci::dtype_from_string(c.get<std::string>("out_dtype"));
  o.default_value = c.get<double>("default");
  o.pass_positions = c.get<bool>("pass_positions");
  return o;
}

inline nd::label_options label_options_of(const golden_case& c, bool fake) {
  nd::label_options o;
  if (c.has("structure")) {
    const cusci::host_array h = c.array("structure");
    o.structure = fake ? cusci::testing::fake_array(h.dtype(), h.shape()) : cusci::asarray(h);
  }
  if (c.has("output")) o.output = cusci::dtype_from_string(c.get<std::string>("output"));
  return o;
}

/// The output array of a label case ({"dtype", "layout" C or F, "shape"}), filled with 77.
inline std::optional<cusci::ndarray> label_output_array(const golden_case& c, const cusci::ndarray& x, bool fake) {
  if (!c.has("output_array")) return std::nullopt;
  const auto j = c.params().at("output_array");
  const cusci::dtype dt = cusci::dtype_from_string(j.at("dtype").get<std::string>());
  const cusci::shape_t shape = j.contains("shape") ? j.at("shape").get<cusci::shape_t>() : x.shape();
  if (fake) return cusci::testing::fake_array(dt, shape);
  const bool f = j.at("layout").get<std::string>() == "F";
  cusci::ndarray a = cusci::empty(shape, dt, f ? cusci::order::F : cusci::order::C);
  a.fill(cusci::scalar(77));
  return a;
}

/// Calls the measurement of case `c` (not label / find_objects / value_indices / extrema) and
/// returns its array.
inline cusci::ndarray run_measure(const golden_case& c, bool fake) {
  const cusci::ndarray x = input_of(c, fake);
  const auto labels = labels_of(c, fake);
  const nd::label_index index = index_of(c, fake);
  const std::string f = c.func();
  if (f == "sum_labels") return nd::sum_labels(x, labels, index);
  if (f == "mean") return nd::mean(x, labels, index);
  if (f == "variance") return nd::variance(x, labels, index);
  if (f == "standard_deviation") return nd::standard_deviation(x, labels, index);
  if (f == "minimum") return nd::minimum(x, labels, index);
  if (f == "maximum") return nd::maximum(x, labels, index);
  if (f == "median") return nd::median(x, labels, index);
  if (f == "minimum_position") return nd::minimum_position(x, labels, index);
  if (f == "maximum_position") return nd::maximum_position(x, labels, index);
  if (f == "center_of_mass") return nd::center_of_mass(x, labels, index);
  if (f == "histogram")
    return nd::histogram(x, c.get<double>("min"), c.get<double>("max"), c.get<std::int64_t>("bins"), labels, index);
  if (f == "extrema") return nd::extrema(x, labels, index).minimums;
  if (f == "labeled_comprehension")
    return nd::labeled_comprehension(x, labels, index, comprehension_function(c.get<std::string>("function")),
                                     comprehension_options(c));
  FAIL("no runner for func " << f);
  return {};
}

/// Runs any case of the module (errors included) far enough to throw; returns nothing.
inline void run_any(const golden_case& c, bool fake) {
  const std::string f = c.func();
  if (f == "label") {
    const cusci::ndarray x = input_of(c, fake);
    nd::label_options o = label_options_of(c, fake);
    if (auto arr = label_output_array(c, x, fake)) o.output = *arr;
    (void)nd::label(x, o);
  } else if (f == "find_objects") {
    (void)nd::find_objects(input_of(c, fake), c.get_or<std::int64_t>("max_label", 0));
  } else if (f == "value_indices") {
    nd::value_indices_options o;
    if (c.has("ignore_value")) o.ignore_value = c.get<std::int64_t>("ignore_value");
    (void)nd::value_indices(input_of(c, fake), o);
  } else {
    (void)run_measure(c, fake);
  }
}

/// Checks a non-error case against SciPy's results.
inline void check_case(const golden_case& c) {
  using cusci::testing::check_allclose;
  const std::string f = c.func();
  if (f == "label") {
    const cusci::ndarray x = input_of(c, false);
    nd::label_options o = label_options_of(c, false);
    const auto arr = label_output_array(c, x, false);
    if (arr) o.output = *arr;
    const nd::label_result r = nd::label(x, o);
    CHECK(r.num_features == c.get<std::int64_t>("num_features"));
    if (arr) {
      CHECK(r.labels.data() == arr->data());
      CHECK(r.labels.strides() == arr->strides());
    } else {
      CHECK(r.labels.is_c_contiguous());
    }
    check_allclose(r.labels, c.array("expected"), 0.0, 0.0);
  } else if (f == "find_objects") {
    const auto r = nd::find_objects(input_of(c, false), c.get_or<std::int64_t>("max_label", 0));
    const auto e = c.params().at("expected_slices");
    REQUIRE(r.size() == e.size());
    for (std::size_t k = 0; k < r.size(); ++k) {
      INFO("label " << k + 1);
      const auto ek = e.at(k);
      REQUIRE(r[k].has_value() == !ek.is_null());
      if (!r[k]) continue;
      REQUIRE(r[k]->size() == ek.size());
      for (std::size_t d = 0; d < ek.size(); ++d) {
        CHECK((*r[k])[d].start.value_or(-1) == ek.at(d).at(0).get<std::int64_t>());
        CHECK((*r[k])[d].stop.value_or(-1) == ek.at(d).at(1).get<std::int64_t>());
        CHECK_FALSE((*r[k])[d].step.has_value());
      }
    }
  } else if (f == "value_indices") {
    nd::value_indices_options o;
    if (c.has("ignore_value")) o.ignore_value = c.get<std::int64_t>("ignore_value");
    const cusci::ndarray x = input_of(c, false);
    const auto r = nd::value_indices(x, o);
    const auto values = c.get<std::vector<std::int64_t>>("values");
    REQUIRE(r.size() == values.size());
    std::size_t i = 0;
    for (const auto& [value, idx] : r) {
      INFO("value " << value);
      CHECK(value == values[i]);
      const cusci::host_array e = cusci::testing::golden(kModule, c.name() + "_v" + std::to_string(i));
      REQUIRE(static_cast<int>(idx.size()) == x.ndim());
      if (x.ndim() > 0) check_allclose(cusci::stack(idx), e, 0.0, 0.0);
      ++i;
    }
  } else if (f == "extrema") {
    const nd::extrema_result r = nd::extrema(input_of(c, false), labels_of(c, false), index_of(c, false));
    check_allclose(r.minimums, c.array("expected_min"), c.rtol(), c.atol());
    check_allclose(r.maximums, c.array("expected_max"), c.rtol(), c.atol());
    check_allclose(r.min_positions, c.array("expected_minpos"), 0.0, 0.0);
    check_allclose(r.max_positions, c.array("expected_maxpos"), 0.0, 0.0);
  } else {
    check_allclose(run_measure(c, false), c.array("expected"), c.rtol(), c.atol());
  }
}

}  // namespace measure_test
