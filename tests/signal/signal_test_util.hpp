#pragma once
// Helpers shared by the signal tests: the cases of one function of the references that
// tests/golden/gen_signal.py computes (read through testing::cases), split into those that expect a
// result and those that expect an error.

#include <string>
#include <vector>

#include "testing.hpp"

namespace cusci::signal_test {

using case_t = testing::golden_case;

/// The cases of func `func` in generator order: those that expect a result, or (errors = true) those
/// that expect an exception.
inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  std::vector<case_t> out;
  for (const auto& c : testing::cases("signal", func))
    if (c.expects_error() == errors) out.push_back(c);
  return out;
}

}  // namespace cusci::signal_test
