#pragma once
// Helpers of the lombscargle tests: the cases of gen_signal_lombscargle.py and the calls they describe.

#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/lombscargle.hpp"
#include "../signal_test_util.hpp"

namespace cusci::lombscargle_test {

using case_t = testing::golden_case;

inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return signal_test::cases_in("signal_lombscargle", func, errors);
}

/// The device array the case names under `key`, as the strided view [::2] of the stored parent when
/// the case's layout is "strided" (x, y and weights; the frequencies are always stored as they are).
inline ndarray input_of(const case_t& c, const std::string& key, bool layout_applies = true) {
  ndarray d = asarray(c.array(key));
  if (layout_applies && c.get_or<std::string>("layout", "C") == "strided") return d[{slice{0, {}, 2}}];
  return d;
}

/// lombscargle on the case's arrays and options.
inline ndarray lombscargle_of(const case_t& c) {
  signal::lombscargle_options o;
  o.normalize = signal::parse_lombscargle_normalize(c.get<std::string>("normalize"));
  o.floating_mean = c.get<bool>("floating_mean");
  o.precenter = c.get<std::optional<bool>>("precenter");
  if (c.has("weights")) o.weights = input_of(c, "weights");
  return signal::lombscargle(input_of(c, "x"), input_of(c, "y"), input_of(c, "freqs", false), o);
}

}  // namespace cusci::lombscargle_test
