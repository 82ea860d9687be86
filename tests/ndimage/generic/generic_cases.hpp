#pragma once
// Shared by the generic filter tests: the cases of tests/golden/gen_ndimage_generic.py run through
// either form of generic_filter / generic_filter1d / vectorized_filter. `Impl` supplies the form:
//   static ndarray gf(x, function_name, size, generic_filter_options)
//   static ndarray g1(x, function_name, filter_size, axis, generic_filter1d_options)
//   static ndarray vf(x, function_name, vectorized_filter_options)

#include <string>

#include "../ndimage_cases.hpp"
#include "cusci/ndimage/generic.hpp"

namespace generic_test {

namespace nd = cusci::ndimage;
using cusci::testing::golden_case;
using ndimage_test::out_array;

template <class Impl>
cusci::ndarray call(const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
  const std::string fn = c.get<std::string>("function");
  if (c.func() == "generic_filter") {
    nd::generic_filter_options o;
    if (c.has("footprint")) o.footprint = c.array("footprint");
    o.output = ndimage_test::output_of(c, arr);
    o.mode = c.has("mode") ? ndimage_test::mode_of(c.params().at("mode")) : nd::mode::reflect;
    o.cval = c.get_or<double>("cval", 0.0);
    o.origin = ndimage_test::ints_of(c, "origin", 0);
    o.axes = ndimage_test::axes_of(c);
    return Impl::gf(x, fn, ndimage_test::size_of(c), o);
  }
  if (c.func() == "generic_filter1d") {
    nd::generic_filter1d_options o;
    o.output = ndimage_test::output_of(c, arr);
    o.mode = c.has("mode") ? ndimage_test::mode_of(c.params().at("mode")) : nd::mode::reflect;
    o.cval = c.get_or<double>("cval", 0.0);
    o.origin = c.get_or<std::int64_t>("origin", 0);
    return Impl::g1(x, fn, c.get<std::int64_t>("filter_size"), c.get_or<int>("axis", -1), o);
  }
  REQUIRE(c.func() == "vectorized_filter");
  nd::vectorized_filter_options o;
  o.size = ndimage_test::size_of(c);
  if (c.has("footprint")) o.footprint = c.array("footprint");
  o.output = ndimage_test::output_of(c, arr);
  if (c.has("mode")) o.mode = nd::vectorized_mode(c.get<std::string>("mode"));
  if (c.has("cval")) o.cval = c.get<double>("cval");
  o.origin = ndimage_test::ints_of(c, "origin", 0);
  o.axes = ndimage_test::axes_of(c);
  if (c.has("batch_memory")) o.batch_memory = c.get<std::int64_t>("batch_memory");
  return Impl::vf(x, fn, o);
}

/// Runs every case of `func` whose name starts with `prefix` (errors included); returns how many ran.
template <class Impl>
int run_cases(const std::string& func, const std::string& prefix = "") {
  int n = 0;
  for (const auto& c : cusci::testing::cases("ndimage_generic", func)) {
    if (c.name().rfind(prefix, 0) != 0) continue;
    INFO("case " << c.name());
    const auto x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    if (c.expects_error()) {
      ndimage_test::check_throws_with(
          c, [&] { (void)call<Impl>(c, x, ndimage_test::output_array_of(c, x, false)); }, /*names_function=*/true);
    } else {
      ndimage_test::check_case_with(c, x, call<Impl>);
    }
    ++n;
  }
  return n;
}

}  // namespace generic_test
