// GPU tests of cusci::signal's device lsim / dlsim (the lti_sim engine) against SciPy references
// (tests/golden/gen_signal_lti.py): the host cases again through device inputs, many systems at once, and
// long analytic inputs (every stride-th sample compared).

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/lti_functions.hpp"
#include "cusci/warnings.hpp"
#include "lti_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;

namespace {

const char* const M = "signal_lti";

/// Rows 0, stride, 2 stride, ... of a [N, k] (or [N]) device array, on the host.
host_array strided_rows(const ndarray& a, std::int64_t stride) {
  return to_host(a[{slice{0, {}, stride}}].copy());
}

/// The analytic long input of the generator: u[k, j] = sin(0.013 k (j + 1)) + 0.5 cos(0.0029 k).
host_array long_input(std::int64_t N, std::int64_t m) {
  std::vector<double> u(static_cast<std::size_t>(N * m));
  for (std::int64_t k = 0; k < N; ++k)
    for (std::int64_t j = 0; j < m; ++j) {
      const double kd = static_cast<double>(k);
      u[k * m + j] = std::sin(0.013 * kd * static_cast<double>(j + 1)) + 0.5 * std::cos(0.0029 * kd);
    }
  return m == 1 ? host_array::from(u) : host_array::from(u, {N, m});
}

}  // namespace

TEST_CASE("device dlsim matches SciPy (with and without t)") {
  warning_capture quiet;
  int done = 0;
  for (const auto& c : cases_in(M, "dlsim")) {
    CAPTURE(c.name());
    sig::dlsim_device_options o;
    if (c.has("x0")) o.x0 = asarray(c.array("x0"));
    if (c.has("t")) o.t = asarray(c.array("t"));
    auto r = sig::dlsim(dsystem_of(c), asarray(c.array("u")), o);
    testing::check_allclose(r.tout, c.array("tout"), 1e-14, 1e-15);
    testing::check_allclose(r.yout, c.array("yout"), c.rtol(), c.atol());
    if (c.has("xout"))
      testing::check_allclose(r.xout, c.array("xout"), c.rtol(), c.atol());
    else
      CHECK(r.xout.size() == 0);
    ++done;
  }
  CHECK(done >= 30);
}

TEST_CASE("device lsim matches SciPy (interp, zero-order hold, X0, T[0] > 0, one step)") {
  warning_capture quiet;
  int done = 0;
  for (const auto& c : cases_in(M, "lsim")) {
    if (!c.has("U")) continue;  // no input: the host path
    CAPTURE(c.name());
    sig::lsim_device_options o{.interp = c.get<bool>("interp")};
    if (c.has("X0")) o.X0 = asarray(c.array("X0"));
    auto r = sig::lsim(system_of(c), asarray(c.array("U")), asarray(c.array("T")), o);
    testing::check_allclose(r.tout, c.array("tout"), 0, 0);
    testing::check_allclose(r.yout, c.array("yout"), c.rtol(), c.atol());
    testing::check_allclose(r.xout, c.array("xout"), c.rtol(), c.atol());
    ++done;
  }
  CHECK(done >= 35);
}

TEST_CASE("device dlsim and lsim of many systems at once") {
  for (const auto& c : cases_in(M, "dlsim_many")) {
    CAPTURE(c.name());
    const auto S = c.get<std::int64_t>("S");
    std::vector<sig::dlti> systems;
    for (std::int64_t i = 0; i < S; ++i) {
      const std::string k = std::to_string(i);
      systems.emplace_back(c.array("A" + k), c.array("B" + k), c.array("C" + k), c.array("D" + k),
                           sig::dlti_options{.dt = c.get<double>("dt")});
    }
    auto r = sig::dlsim(systems, asarray(c.array("u")), {.x0 = asarray(c.array("x0"))});
    testing::check_allclose(r.yout, c.array("yout"), c.rtol(), c.atol());
    testing::check_allclose(r.xout, c.array("xout"), c.rtol(), c.atol());
  }
  for (const auto& c : cases_in(M, "lsim_many")) {
    CAPTURE(c.name());
    const auto S = c.get<std::int64_t>("S");
    std::vector<sig::lti> systems;
    for (std::int64_t i = 0; i < S; ++i) {
      const std::string k = std::to_string(i);
      systems.emplace_back(c.array("A" + k), c.array("B" + k), c.array("C" + k), c.array("D" + k));
    }
    auto r = sig::lsim(systems, asarray(c.array("u")), asarray(c.array("T")), {.X0 = asarray(c.array("x0"))});
    testing::check_allclose(r.yout, c.array("yout"), c.rtol(), c.atol());
    testing::check_allclose(r.xout, c.array("xout"), c.rtol(), c.atol());
  }
}

TEST_CASE("device dlsim and lsim of long signals") {
  for (const auto& c : cases_in(M, "dlsim_long")) {
    CAPTURE(c.name());
    const auto N = c.get<std::int64_t>("N"), m = c.get<std::int64_t>("m"), stride = c.get<std::int64_t>("stride");
    auto r = sig::dlsim(dsystem_of(c), asarray(long_input(N, m)));
    testing::check_allclose(strided_rows(r.yout, stride), c.array("yout"), c.rtol(), c.atol());
    testing::check_allclose(strided_rows(r.xout, stride), c.array("xout"), c.rtol(), c.atol());
  }
  for (const auto& c : cases_in(M, "lsim_long")) {
    CAPTURE(c.name());
    const auto N = c.get<std::int64_t>("N"), m = c.get<std::int64_t>("m"), stride = c.get<std::int64_t>("stride");
    const double dt = c.get<double>("dt");
    std::vector<double> t(static_cast<std::size_t>(N));
    for (std::int64_t k = 0; k < N; ++k) t[k] = static_cast<double>(k) * dt;
    auto r = sig::lsim(system_of(c), asarray(long_input(N, m)), asarray(t), {.interp = c.get<bool>("interp")});
    ndarray y = r.yout.ndim() == 1 ? r.yout.reshape({N, 1}) : r.yout;
    testing::check_allclose(strided_rows(y, stride), c.array("yout"), c.rtol(), c.atol());
    testing::check_allclose(strided_rows(r.xout, stride), c.array("xout"), c.rtol(), c.atol());
  }
}

TEST_CASE("device lsim / dlsim reject bad inputs") {
  warning_capture quiet;
  const auto cs = cases_in(M, "dlsim");
  REQUIRE(!cs.empty());
  const auto& c = cs.front();
  const sig::dlti d = dsystem_of(c);
  const host_array u = c.array("u");
  CHECK_THROWS_AS(sig::dlsim(d, asarray(u).astype(dtype::complex128)), type_error);
  CHECK_THROWS_AS(sig::dlsim(d, asarray(host_array(dtype::float64, {10, 7}))), value_error);
  CHECK_THROWS_AS(sig::dlsim(d, asarray(host_array(dtype::float64, {0}))), index_error);
  for (const auto& e : cases_in(M, "lsim", true)) {
    CAPTURE(e.name());
    testing::check_error(e, [&] { sig::lsim(system_of(e), asarray(e.array("U")), asarray(e.array("T"))); });
  }
}
