#pragma once
// Helpers shared by the responses tests (references: tests/golden/gen_signal_responses.py): the
// parameters of a case as the C++ arguments, and the comparison of w and h.

#include <algorithm>
#include <cmath>
#include <string>

#include "cusci/signal/responses.hpp"
#include "../signal_test_util.hpp"
#include "testing.hpp"

namespace cusci::signal_test {

inline const char* kResponses = "signal_responses";

/// worN of a case: an int, or the array named by worN_arr.
inline signal::freq_points worN_of(const case_t& c) {
  if (c.has("worN")) return signal::freq_points(c.get<std::int64_t>("worN"));
  return signal::freq_points(c.array("worN_arr"));
}

inline double fs_of(const case_t& c) { return c.get_or<double>("fs", 2 * 3.141592653589793); }

/// The largest magnitude of an array (1 when empty).
inline double scale_of(const host_array& a) {
  const host_array c = a.astype(dtype::complex128);  // once: element() converts the whole array per call
  const auto* p = c.data_as<std::complex<double>>();
  double m = 0;
  for (std::int64_t i = 0; i < c.size(); ++i) m = std::max(m, std::abs(p[i]));
  return m > 0 ? m : 1.0;
}

/// w against the case's expected w (its own tolerance), then `h` against `key` with the case's tolerance.
inline void check_response(const case_t& c, const host_array& w, const host_array& h, const char* key = "h") {
  const host_array we = c.array("w");
  const double wt = c.get_or<double>("wtol", 1e-13);
  INFO("case " << c.name() << ": w");
  testing::check_allclose(w, we, wt, wt * scale_of(we));
  INFO("case " << c.name() << ": " << key);
  testing::check_allclose(h, c.array(key), c.rtol(), c.atol());
}

}  // namespace cusci::signal_test
