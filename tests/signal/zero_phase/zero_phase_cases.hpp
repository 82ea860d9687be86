#pragma once
// Shared by the zero_phase tests: the reference cases of tests/golden/gen_signal_zero_phase.py and the
// calls that run one case (inputs, options and SciPy's string options parsed inside the call, so that a
// bad string raises where SciPy raises).

#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/zero_phase.hpp"
#include "../signal_test_util.hpp"
#include "testing.hpp"

namespace cusci::zero_phase_test {

using case_t = testing::golden_case;
namespace sig = cusci::signal;

/// The cases of func `func` that expect a result, or (errors = true) an exception.
inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return signal_test::cases_in("signal_zero_phase", func, errors);
}

inline std::optional<std::int64_t> opt_int(const case_t& c, const std::string& key) {
  if (!c.has(key)) return std::nullopt;
  return c.get<std::int64_t>(key);
}

inline sig::filtfilt_options filtfilt_opts(const case_t& c) {
  sig::filtfilt_options o;
  o.axis = c.get<int>("axis");
  o.padtype = sig::parse_pad_type(c.get<std::string>("padtype"));
  o.padlen = opt_int(c, "padlen");
  o.method = sig::parse_filtfilt_method(c.get<std::string>("method"));
  o.irlen = opt_int(c, "irlen");
  return o;
}

inline sig::sosfiltfilt_options sosfiltfilt_opts(const case_t& c) {
  sig::sosfiltfilt_options o;
  o.axis = c.get<int>("axis");
  o.padtype = sig::parse_pad_type(c.get<std::string>("padtype"));
  o.padlen = opt_int(c, "padlen");
  return o;
}

}  // namespace cusci::zero_phase_test
