#pragma once
// Shared by the ndimage tests: runs one row of tests/golden/data/ndimage/MANIFEST.tsv
// (written by tests/golden/gen_ndimage.py) through the public API.

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndimage/filters.hpp"
#include "testing.hpp"

namespace ndimage_test {

using row_t = std::map<std::string, std::string>;

inline std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  if (s == "-" || s.empty()) return out;
  std::string cur;
  std::istringstream is(s);
  while (std::getline(is, cur, ',')) out.push_back(cur);
  return out;
}
inline std::vector<double> doubles(const std::string& s) {
  std::vector<double> v;
  for (auto& x : split(s)) v.push_back(std::stod(x));
  return v;
}
inline std::vector<std::int64_t> ints(const std::string& s) {
  std::vector<std::int64_t> v;
  for (auto& x : split(s)) v.push_back(std::stoll(x));
  return v;
}
/// A manifest field that may hold one value or a list: a list when it has a comma.
inline bool is_list(const std::string& s) { return s.find(',') != std::string::npos; }

template <class T, class F>
cusci::ndimage::per_axis<T> per_axis_of(const std::string& s, F conv) {
  std::vector<T> v;
  for (auto& x : split(s)) v.push_back(conv(x));
  if (v.size() == 1 && !is_list(s)) return cusci::ndimage::per_axis<T>(v[0]);
  return cusci::ndimage::per_axis<T>(v);
}

inline std::optional<cusci::dtype> output_of(const row_t& r) {
  if (r.at("output") == "-") return std::nullopt;
  return cusci::dtype_from_string(r.at("output"));
}

/// Calls the function of row `r` on `x`.
inline cusci::ndarray run_case(const row_t& r, const cusci::ndarray& x) {
  namespace nd = cusci::ndimage;
  const std::string f = r.at("func");
  const int axis = std::stoi(r.at("axis"));
  if (f == "correlate1d" || f == "convolve1d") {
    nd::correlate1d_options o{.output = output_of(r),
                              .mode = nd::parse_mode(r.at("mode")),
                              .cval = std::stod(r.at("cval")),
                              .origin = std::stoll(r.at("origin"))};
    const auto w = doubles(r.at("weights"));
    return f == "correlate1d" ? nd::correlate1d(x, w, axis, o) : nd::convolve1d(x, w, axis, o);
  }
  if (f == "gaussian_filter1d") {
    nd::gaussian_filter1d_options o{.order = std::stoi(r.at("order")),
                                    .output = output_of(r),
                                    .mode = nd::parse_mode(r.at("mode")),
                                    .cval = std::stod(r.at("cval")),
                                    .truncate = std::stod(r.at("truncate"))};
    if (r.at("radius") != "-") o.radius = std::stoll(r.at("radius"));
    return nd::gaussian_filter1d(x, std::stod(r.at("sigma")), axis, o);
  }
  REQUIRE(f == "gaussian_filter");
  nd::gaussian_filter_options o;
  o.order = per_axis_of<int>(r.at("order"), [](const std::string& s) { return std::stoi(s); });
  o.output = output_of(r);
  o.mode = per_axis_of<nd::mode>(r.at("mode"), [](const std::string& s) { return nd::parse_mode(s); });
  o.cval = std::stod(r.at("cval"));
  o.truncate = std::stod(r.at("truncate"));
  if (r.at("radius") != "-")
    o.radius = per_axis_of<std::int64_t>(r.at("radius"), [](const std::string& s) { return std::stoll(s); });
  if (r.at("axes") != "-") {
    std::vector<int> axes;
    for (auto a : ints(r.at("axes"))) axes.push_back(static_cast<int>(a));
    o.axes = axes;
  }
  const auto sigma = per_axis_of<double>(r.at("sigma"), [](const std::string& s) { return std::stod(s); });
  return nd::gaussian_filter(x, sigma, o);
}

/// Checks that row `r` (an error case) throws the exception type it names.
inline void check_throws(const row_t& r, const cusci::ndarray& x) {
  const std::string e = r.at("error");
  if (e == "value_error") CHECK_THROWS_AS(run_case(r, x), cusci::value_error);
  else if (e == "index_error") CHECK_THROWS_AS(run_case(r, x), cusci::index_error);
  else if (e == "type_error") CHECK_THROWS_AS(run_case(r, x), cusci::type_error);
  else FAIL("unknown error kind " << e);
}

inline bool is_filter_row(const row_t& r) {
  const auto& f = r.at("func");
  return f == "correlate1d" || f == "convolve1d" || f == "gaussian_filter1d" || f == "gaussian_filter";
}

}  // namespace ndimage_test
