#pragma once
// Shared by the ndimage tests: the cases of tests/golden/gen_ndimage.py and gen_ndimage_fast.py
// (read through testing::cases) run through the public API, one callable per SciPy function.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndimage/filters.hpp"
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

inline nd::mode mode_of(const nlohmann::json& j) { return nd::parse_mode(j.get<std::string>()); }
inline nd::per_axis<nd::mode> modes_of(const golden_case& c) {
  if (!c.has("mode")) return nd::mode::reflect;
  return per_axis_of<nd::mode>(c, "mode", mode_of);
}
inline nd::per_axis<std::int64_t> ints_of(const golden_case& c, const std::string& key, std::int64_t fallback) {
  if (!c.has(key)) return fallback;
  return per_axis_of<std::int64_t>(c, key, [](const nlohmann::json& j) { return j.get<std::int64_t>(); });
}
inline std::optional<cusci::dtype> output_of(const golden_case& c) {
  if (!c.has("output")) return std::nullopt;
  return cusci::dtype_from_string(c.get<std::string>("output"));
}
inline std::optional<std::vector<int>> axes_of(const golden_case& c) {
  if (!c.has("axes")) return std::nullopt;
  return c.get<std::vector<int>>("axes");
}
inline std::int64_t origin1(const golden_case& c) { return c.get_or<std::int64_t>("origin", 0); }
inline nd::filter1d_options filter1d_of(const golden_case& c) {
  return {.output = output_of(c), .mode = c.has("mode") ? mode_of(c.params().at("mode")) : nd::mode::reflect,
          .cval = c.get_or<double>("cval", 0.0), .origin = origin1(c)};
}
inline nd::min_max_filter_options min_max_of(const golden_case& c) {
  nd::min_max_filter_options o;
  if (c.has("footprint")) o.footprint = c.array("footprint");
  o.output = output_of(c);
  o.mode = modes_of(c);
  o.cval = c.get_or<double>("cval", 0.0);
  o.origin = ints_of(c, "origin", 0);
  o.axes = axes_of(c);
  return o;
}
inline nd::per_axis<std::int64_t> size_of(const golden_case& c) {
  return c.has("size") ? ints_of(c, "size", 0) : nd::per_axis<std::int64_t>{};
}

using runner = std::function<cusci::ndarray(const golden_case&, const cusci::ndarray&)>;

/// SciPy function name -> the call of the cusci function with the case's parameters.
inline const std::map<std::string, runner>& runners() {
  static const std::map<std::string, runner> table = {
      {"correlate1d",
       [](const golden_case& c, const cusci::ndarray& x) {
         return nd::correlate1d(x, c.get<std::vector<double>>("weights"), c.get<int>("axis"),
                                {.output = output_of(c), .mode = mode_of(c.params().at("mode")),
                                 .cval = c.get<double>("cval"), .origin = origin1(c)});
       }},
      {"convolve1d",
       [](const golden_case& c, const cusci::ndarray& x) {
         return nd::convolve1d(x, c.get<std::vector<double>>("weights"), c.get<int>("axis"),
                               {.output = output_of(c), .mode = mode_of(c.params().at("mode")),
                                .cval = c.get<double>("cval"), .origin = origin1(c)});
       }},
      {"gaussian_filter1d",
       [](const golden_case& c, const cusci::ndarray& x) {
         nd::gaussian_filter1d_options o{.order = c.get<int>("order"),
                                         .output = output_of(c),
                                         .mode = mode_of(c.params().at("mode")),
                                         .cval = c.get<double>("cval"),
                                         .truncate = c.get<double>("truncate")};
         if (c.has("radius")) o.radius = c.get<std::int64_t>("radius");
         return nd::gaussian_filter1d(x, c.get<double>("sigma"), c.get<int>("axis"), o);
       }},
      {"gaussian_filter",
       [](const golden_case& c, const cusci::ndarray& x) {
         nd::gaussian_filter_options o;
         o.order = per_axis_of<int>(c, "order", [](const nlohmann::json& j) { return j.get<int>(); });
         o.output = output_of(c);
         o.mode = modes_of(c);
         o.cval = c.get<double>("cval");
         o.truncate = c.get<double>("truncate");
         if (c.has("radius")) o.radius = ints_of(c, "radius", 0);
         o.axes = axes_of(c);
         const auto sigma = per_axis_of<double>(c, "sigma", [](const nlohmann::json& j) {
           return cusci::testing::golden_detail::reader<double>::read(j);
         });
         return nd::gaussian_filter(x, sigma, o);
       }},
      {"uniform_filter1d",
       [](const golden_case& c, const cusci::ndarray& x) {
         return nd::uniform_filter1d(x, c.get<std::int64_t>("size"), c.get_or<int>("axis", -1), filter1d_of(c));
       }},
      {"minimum_filter1d",
       [](const golden_case& c, const cusci::ndarray& x) {
         return nd::minimum_filter1d(x, c.get<std::int64_t>("size"), c.get_or<int>("axis", -1), filter1d_of(c));
       }},
      {"maximum_filter1d",
       [](const golden_case& c, const cusci::ndarray& x) {
         return nd::maximum_filter1d(x, c.get<std::int64_t>("size"), c.get_or<int>("axis", -1), filter1d_of(c));
       }},
      {"uniform_filter",
       [](const golden_case& c, const cusci::ndarray& x) {
         return nd::uniform_filter(x, c.has("size") ? size_of(c) : nd::per_axis<std::int64_t>(3),
                                   {.output = output_of(c), .mode = modes_of(c), .cval = c.get_or<double>("cval", 0.0),
                                    .origin = ints_of(c, "origin", 0), .axes = axes_of(c)});
       }},
      {"minimum_filter",
       [](const golden_case& c, const cusci::ndarray& x) { return nd::minimum_filter(x, size_of(c), min_max_of(c)); }},
      {"maximum_filter",
       [](const golden_case& c, const cusci::ndarray& x) { return nd::maximum_filter(x, size_of(c), min_max_of(c)); }},
  };
  return table;
}

/// Whether `func` is a filter with a runner (the other funcs are host helpers: kernel1d, numpy_sum).
inline bool is_filter(const std::string& func) { return runners().count(func) != 0; }

/// Calls the function of case `c` on `x`.
inline cusci::ndarray run_case(const golden_case& c, const cusci::ndarray& x) {
  const auto it = runners().find(c.func());
  REQUIRE_MESSAGE(it != runners().end(), "no runner for func " << c.func());
  return it->second(c, x);
}

/// Checks that case `c` (an error case) throws the exception it names.
inline void check_throws(const golden_case& c, const cusci::ndarray& x) {
  cusci::testing::check_error(c, [&] { (void)run_case(c, x); });
}

}  // namespace ndimage_test
