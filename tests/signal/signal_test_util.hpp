#pragma once
// Helpers shared by the signal tests: the cases of one function of the references that
// tests/golden/gen_signal.py computes (read through testing::cases), split into those that expect a
// result and those that expect an error.

#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "testing.hpp"

namespace cusci::signal_test {

using case_t = testing::golden_case;

/// The cases of func `func` of the references `module` (gen_<module>.py) in generator order: those that
/// expect a result, or (errors = true) those that expect an exception.
inline std::vector<case_t> cases_in(const std::string& module, const std::string& func, bool errors = false) {
  std::vector<case_t> out;
  for (const auto& c : testing::cases(module, func))
    if (c.expects_error() == errors) out.push_back(c);
  return out;
}

/// The same for gen_signal.py's cases.
inline std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return cases_in("signal", func, errors);
}

/// A case's input x on the device in the layout its `layout` parameter names: C (as stored), F (a
/// Fortran-ordered copy), strided (x holds the parent, the input is x[..., ::2]) or reversed
/// (x[..., ::-1], a negative stride).
inline ndarray input_of(const case_t& c) {
  ndarray d = asarray(c.array("x"));
  const std::string layout = c.get<std::string>("layout");
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{0, {}, 2}}];
  if (layout == "reversed") return d[{ellipsis, slice{{}, {}, -1}}];
  return d;
}

}  // namespace cusci::signal_test
