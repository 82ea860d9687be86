#pragma once
// Helpers shared by the lti family's host and GPU tests: a case's system as an lti / dlti, from the
// form its `form` parameter names (ss: A, B, C, D; tf: num, den; zpk: z, p, k).

#include <string>

#include "cusci/signal/lti.hpp"
#include "../signal_test_util.hpp"

namespace cusci::signal_test {

/// The continuous system of a case as an lti.
inline signal::lti system_of(const case_t& c) {
  const std::string form = c.get<std::string>("form");
  if (form == "ss") return signal::lti(c.array("A"), c.array("B"), c.array("C"), c.array("D"));
  if (form == "tf") return signal::lti(c.array("num"), c.array("den"));
  return signal::lti(c.array("z"), c.array("p"), c.get<double>("k"));
}

/// The discrete system of a case as a dlti.
inline signal::dlti dsystem_of(const case_t& c) {
  const std::string form = c.get<std::string>("form");
  const signal::dlti_options o{.dt = c.get<double>("dt")};
  if (form == "ss") return signal::dlti(c.array("A"), c.array("B"), c.array("C"), c.array("D"), o);
  if (form == "tf") return signal::dlti(c.array("num"), c.array("den"), o);
  return signal::dlti(c.array("z"), c.array("p"), c.get<double>("k"), o);
}

}  // namespace cusci::signal_test
