#pragma once
// The run-time-compiled form as the `Impl` of generic_cases.hpp.

#include <string>

#include "cusci/ndimage/generic.hpp"
#include "generic_sources.hpp"

namespace generic_test {

struct rtc_form {
  static cusci::ndarray gf(const cusci::ndarray& x, const std::string& fn, const nd::per_axis<std::int64_t>& size,
                           const nd::generic_filter_options& o) {
    return nd::generic_filter(x, source(fn), size, o);
  }
  static cusci::ndarray g1(const cusci::ndarray& x, const std::string& fn, std::int64_t fs, int axis,
                           const nd::generic_filter1d_options& o) {
    return nd::generic_filter1d(x, source(fn), fs, axis, o);
  }
  static cusci::ndarray vf(const cusci::ndarray& x, const std::string& fn, const nd::vectorized_filter_options& o) {
    return nd::vectorized_filter(x, source(fn), o);
  }
};

}  // namespace generic_test
