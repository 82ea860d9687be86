#pragma once
// Shared by the ndimage tests: the cases of tests/golden/gen_ndimage.py and gen_ndimage_fast.py
// (read through testing::cases) run through the public API, one callable per SciPy function.
// A case's `output` is a dtype name; its `output_array` ({"dtype", "layout", "shape"}) asks for an
// existing output array: layout C, F, rev (last axis reversed), step2 (every other element of an
// array twice as large) or "input" (the input array itself, in place); `shape` defaults to the
// input's. Complex weights are `weights` (real parts) with `weights_im` (imaginary parts).

#include <complex>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/scalar.hpp"
#include "ndimage_layouts.hpp"
#include "testing.hpp"

namespace ndimage_test {

namespace nd = cusci::ndimage;
using cusci::testing::golden_case;

/// A scalar-or-sequence parameter as per_axis (a JSON list: one value per axis).
template <class T, class F>
nd::per_axis<T> per_axis_of(const golden_case& c, const std::string& key, F conv) {
  const auto& j = c.params().at(key);
  if (!j.is_array()) return nd::per_axis<T>(conv(j));
  std::vector<T> v;
  for (const auto& x : j) v.push_back(conv(x));
  return nd::per_axis<T>(v);
}

inline nd::mode mode_of(const cusci::testing::golden_value& j) { return nd::parse_mode(j.get<std::string>()); }
inline nd::per_axis<nd::mode> modes_of(const golden_case& c) {
  if (!c.has("mode")) return nd::mode::reflect;
  return per_axis_of<nd::mode>(c, "mode", mode_of);
}
inline nd::per_axis<std::int64_t> ints_of(const golden_case& c, const std::string& key, std::int64_t fallback) {
  if (!c.has(key)) return fallback;
  return per_axis_of<std::int64_t>(c, key, [](const cusci::testing::golden_value& j) { return j.get<std::int64_t>(); });
}
/// The existing output array a case asks for (`output_array`), or nothing. `fake`: arrays without
/// memory (the host tests), which no filter may touch before its checks fail.
inline std::optional<cusci::ndarray> output_array_of(const golden_case& c, const cusci::ndarray& x, bool fake) {
  if (!c.has("output_array")) return std::nullopt;
  const auto& j = c.params().at("output_array");
  const std::string layout = j.at("layout").get<std::string>();
  if (layout == "input") return x;
  const cusci::dtype dt = cusci::dtype_from_string(j.at("dtype").get<std::string>());
  const cusci::shape_t shape = j.contains("shape") && !j.at("shape").is_null() ? j.at("shape").get<cusci::shape_t>()
                                                                                 : x.shape();
  if (fake) return cusci::testing::fake_array(dt, shape);
  cusci::ndarray a;
  if (layout == "C" || layout == "rev") {
    a = cusci::empty(shape, dt);
  } else if (layout == "F") {
    a = cusci::empty(shape, dt, cusci::order::F);
  } else {
    REQUIRE(layout == "step2");
    cusci::shape_t big = shape;
    for (auto& n : big) n *= 2;
    a = cusci::empty(big, dt);
  }
  a.fill(cusci::scalar(77));  // any element the filter leaves unwritten shows up as 77
  if (layout == "rev" && a.ndim() > 0) return reversed_last(a);
  if (layout == "step2") return every_other(a);
  return a;
}

/// The case's `output=`: its output array when it has one, else its output dtype, else nothing.
inline nd::output_arg output_of(const golden_case& c, const std::optional<cusci::ndarray>& arr = std::nullopt) {
  if (arr) return *arr;
  if (!c.has("output")) return std::nullopt;
  return cusci::dtype_from_string(c.get<std::string>("output"));
}
inline std::optional<std::vector<int>> axes_of(const golden_case& c) {
  if (!c.has("axes")) return std::nullopt;
  return c.get<std::vector<int>>("axes");
}
inline std::int64_t origin1(const golden_case& c) { return c.get_or<std::int64_t>("origin", 0); }
inline nd::filter1d_options filter1d_of(const golden_case& c, const std::optional<cusci::ndarray>& arr) {
  return {.output = output_of(c, arr), .mode = c.has("mode") ? mode_of(c.params().at("mode")) : nd::mode::reflect,
          .cval = c.get_or<double>("cval", 0.0), .origin = origin1(c)};
}
/// The options of a footprint filter (min_max_filter_options, rank_filter_options): footprint,
/// output, mode, cval, origin and axes of the case.
template <class Options>
Options footprint_options_of(const golden_case& c, const std::optional<cusci::ndarray>& arr) {
  Options o;
  if (c.has("footprint")) o.footprint = c.array("footprint");
  o.output = output_of(c, arr);
  o.mode = modes_of(c);
  o.cval = c.get_or<double>("cval", 0.0);
  o.origin = ints_of(c, "origin", 0);
  o.axes = axes_of(c);
  return o;
}
inline nd::min_max_filter_options min_max_of(const golden_case& c, const std::optional<cusci::ndarray>& arr) {
  return footprint_options_of<nd::min_max_filter_options>(c, arr);
}
inline nd::per_axis<std::int64_t> size_of(const golden_case& c) {
  return c.has("size") ? ints_of(c, "size", 0) : nd::per_axis<std::int64_t>{};
}

using out_array = std::optional<cusci::ndarray>;
using runner = std::function<cusci::ndarray(const golden_case&, const cusci::ndarray&, const out_array&)>;

/// The case's weights: real (`weights`) or complex (`weights` + `weights_im`).
inline bool complex_weights(const golden_case& c) { return c.has("weights_im"); }
inline std::vector<std::complex<double>> cweights_of(const golden_case& c) {
  const auto re = c.get<std::vector<double>>("weights");
  const auto im = c.get<std::vector<double>>("weights_im");
  REQUIRE(re.size() == im.size());
  std::vector<std::complex<double>> w(re.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = {re[i], im[i]};
  return w;
}

/// SciPy function name -> the call of the cusci function with the case's parameters.
inline const std::map<std::string, runner>& runners() {
  static const std::map<std::string, runner> table = {
      {"correlate1d",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         const nd::correlate1d_options o{.output = output_of(c, arr), .mode = mode_of(c.params().at("mode")),
                                         .cval = c.get<double>("cval"), .origin = origin1(c)};
         if (complex_weights(c)) return nd::correlate1d(x, cweights_of(c), c.get<int>("axis"), o);
         return nd::correlate1d(x, c.get<std::vector<double>>("weights"), c.get<int>("axis"), o);
       }},
      {"convolve1d",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         const nd::correlate1d_options o{.output = output_of(c, arr), .mode = mode_of(c.params().at("mode")),
                                         .cval = c.get<double>("cval"), .origin = origin1(c)};
         if (complex_weights(c)) return nd::convolve1d(x, cweights_of(c), c.get<int>("axis"), o);
         return nd::convolve1d(x, c.get<std::vector<double>>("weights"), c.get<int>("axis"), o);
       }},
      {"gaussian_filter1d",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         nd::gaussian_filter1d_options o{.order = c.get<int>("order"),
                                         .output = output_of(c, arr),
                                         .mode = mode_of(c.params().at("mode")),
                                         .cval = c.get<double>("cval"),
                                         .truncate = c.get<double>("truncate")};
         if (c.has("radius")) o.radius = c.get<std::int64_t>("radius");
         return nd::gaussian_filter1d(x, c.get<double>("sigma"), c.get<int>("axis"), o);
       }},
      {"gaussian_filter",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         nd::gaussian_filter_options o;
         o.order = per_axis_of<int>(c, "order", [](const cusci::testing::golden_value& j) { return j.get<int>(); });
         o.output = output_of(c, arr);
         o.mode = modes_of(c);
         o.cval = c.get<double>("cval");
         o.truncate = c.get<double>("truncate");
         if (c.has("radius")) o.radius = ints_of(c, "radius", 0);
         o.axes = axes_of(c);
         const auto sigma = per_axis_of<double>(c, "sigma", [](const cusci::testing::golden_value& j) {
           return cusci::testing::golden_detail::reader<double>::read(j);
         });
         return nd::gaussian_filter(x, sigma, o);
       }},
      {"uniform_filter1d",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         return nd::uniform_filter1d(x, c.get<std::int64_t>("size"), c.get_or<int>("axis", -1), filter1d_of(c, arr));
       }},
      {"minimum_filter1d",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         return nd::minimum_filter1d(x, c.get<std::int64_t>("size"), c.get_or<int>("axis", -1), filter1d_of(c, arr));
       }},
      {"maximum_filter1d",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         return nd::maximum_filter1d(x, c.get<std::int64_t>("size"), c.get_or<int>("axis", -1), filter1d_of(c, arr));
       }},
      {"uniform_filter",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         return nd::uniform_filter(x, c.has("size") ? size_of(c) : nd::per_axis<std::int64_t>(3),
                                   {.output = output_of(c, arr), .mode = modes_of(c), .cval = c.get_or<double>("cval", 0.0),
                                    .origin = ints_of(c, "origin", 0), .axes = axes_of(c)});
       }},
      {"minimum_filter",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         return nd::minimum_filter(x, size_of(c), min_max_of(c, arr));
       }},
      {"maximum_filter",
       [](const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
         return nd::maximum_filter(x, size_of(c), min_max_of(c, arr));
       }},
  };
  return table;
}

/// Whether `func` is a filter with a runner (the other funcs are host helpers: kernel1d, numpy_sum).
inline bool is_filter(const std::string& func) { return runners().count(func) != 0; }

/// Calls the function of case `c` on `x` (with the case's output array, made here, when it has
/// one). `fake`: `x` has no memory (see output_array_of).
inline cusci::ndarray run_case(const golden_case& c, const cusci::ndarray& x, bool fake = false) {
  const auto it = runners().find(c.func());
  REQUIRE_MESSAGE(it != runners().end(), "no runner for func " << c.func());
  return it->second(c, x, output_array_of(c, x, fake));
}

/// Runs case `c` (not an error case) through `call(c, x, output array or none)`, with the case's
/// output array made here, and checks the result against SciPy's: values, and the layout SciPy gives
/// (a new output is C-contiguous whatever the input's layout; an output array is the array
/// returned, with its own strides and dtype).
template <class Call>
void check_case_with(const golden_case& c, const cusci::ndarray& x, Call&& call) {
  const auto arr = output_array_of(c, x, false);
  const cusci::ndarray y = call(c, x, arr);
  if (arr) {
    CHECK(y.data() == arr->data());
    CHECK(y.strides() == arr->strides());
    CHECK(y.dtype() == arr->dtype());
  } else {
    CHECK(y.is_c_contiguous());
  }
  cusci::testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
}

/// check_case_with for the filters of runners().
inline void check_case(const golden_case& c, const cusci::ndarray& x) {
  const auto it = runners().find(c.func());
  REQUIRE_MESSAGE(it != runners().end(), "no runner for func " << c.func());
  check_case_with(c, x, it->second);
}

/// Checks that `run()` (the call of error case `c`) throws the exception the case names and, where
/// the case gives `error_text` (SciPy's message or its gist), a message that contains it; with
/// `names_function`, also that the message names "cusci::ndimage::<func>".
template <class Run>
void check_throws_with(const golden_case& c, Run&& run, bool names_function = false) {
  cusci::testing::check_error(c, run);
  if (c.has("error_text")) {
    const std::string text = c.get<std::string>("error_text");
    std::string what;
    try {
      run();
    } catch (const cusci::error& e) {
      what = e.what();
    }
    CHECK_MESSAGE(what.find(text) != std::string::npos, "message '" << what << "' lacks '" << text << "'");
    if (names_function)
      CHECK_MESSAGE(what.find("cusci::ndimage::" + c.func()) != std::string::npos,
                    "message '" << what << "' does not name the function");
  }
}

/// check_throws_with for the filters of runners(). `fake`: `x` has no memory (see output_array_of).
inline void check_throws(const golden_case& c, const cusci::ndarray& x, bool fake = false) {
  check_throws_with(c, [&] { (void)run_case(c, x, fake); });
}

}  // namespace ndimage_test
