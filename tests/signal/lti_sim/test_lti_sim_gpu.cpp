// GPU tests of the state-space simulation engine (signal/src/lti_sim, the GPU part of lsim / dlsim)
// through its internal API, against scipy.signal.dlsim / lsim (tests/golden/gen_signal_lti_sim.py):
// orders 0 (static gain), 1..8, 20, 32, 40 states, SISO and MIMO, with and without x0, lengths 0, 1,
// 600..12000 and 10^6, pole radii 0.9 ... 0.9999 (long chunks) and 1.01 (sequential), float32 / float64
// / int32 inputs in C / F / strided layouts, batches of signals, many systems (one thread per system,
// and one chunked simulation per system), lsim's first-order hold through the lookahead matrix, and
// argument errors. Every value case runs with and without the state trajectory (SISO without it takes
// the filtering engine's run_recurrence path), every other one on a non-blocking stream.

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "lti_sim/lti_sim.hpp"
#include "../signal_test_util.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::signal::detail::ss_sim_result;
using cusci::signal::detail::ss_system;
using case_t = testing::golden_case;

namespace {

std::vector<case_t> cases_of(const std::string& func, bool errors = false) {
  return signal_test::cases_in("signal_lti_sim", func, errors);
}

std::vector<double> vec(const host_array& h) { return h.astype(dtype::float64).to_vector<double>(); }

/// Entries [k * per, (k + 1) * per) of a stacked host array as float64.
std::vector<double> part(const host_array& h, std::size_t k, std::size_t per) {
  const std::vector<double> v = vec(h);
  return std::vector<double>(v.begin() + static_cast<std::ptrdiff_t>(k * per),
                             v.begin() + static_cast<std::ptrdiff_t>((k + 1) * per));
}

ss_system system_of(const case_t& c) {
  ss_system s;
  s.n = c.get<int>("n");
  s.m = c.get<int>("m");
  s.p = c.get<int>("p");
  s.A = vec(c.array("A"));
  s.B = vec(c.array("B"));
  s.C = vec(c.array("C"));
  s.D = vec(c.array("D"));
  if (c.has("B1")) s.B1 = vec(c.array("B1"));
  return s;
}

ndarray u_of(const case_t& c) {
  ndarray d = asarray(c.array("u"));
  const std::string layout = c.get_or<std::string>("layout", "C");
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{slice{0, {}, 2}, ellipsis}];
  return d;
}

std::optional<ndarray> x0_of(const case_t& c) {
  if (!c.has("x0")) return std::nullopt;
  return asarray(c.array("x0"));
}

/// Rows ::sub of the time axis (second to last) of r, and its last row.
void check_rows(const ndarray& r, const case_t& c, const std::string& rows, const std::string& last) {
  const std::int64_t sub = c.get<std::int64_t>("sub");
  testing::check_allclose(r[{ellipsis, slice{0, {}, sub}, slice{}}], c.array(rows), c.rtol(), c.atol());
  testing::check_allclose(r[{ellipsis, slice{-1, {}, {}}, slice{}}], c.array(last), c.rtol(), c.atol());
}

void check_result(const ss_sim_result& r, const case_t& c, bool want_x) {
  if (c.has("sub")) {
    check_rows(r.y, c, "y_rows", "y_last");
    if (want_x) check_rows(r.x, c, "x_rows", "x_last");
  } else {
    testing::check_allclose(r.y, c.array("y"), c.rtol(), c.atol());
    if (want_x) testing::check_allclose(r.x, c.array("x"), c.rtol(), c.atol());
  }
  if (!want_x) CHECK(r.x.size() == 0);
}

}  // namespace

TEST_CASE("simulate_ss matches scipy.signal.dlsim") {
  const auto cases = cases_of("simulate_ss");
  REQUIRE(cases.size() >= 35);
  stream st(true);
  int i = 0;
  for (const auto& c : cases) {
    for (const bool want_x : {true, false}) {
      CAPTURE(c.name());
      CAPTURE(want_x);
      std::optional<stream_guard> g;
      if (i++ % 2 == 1) g.emplace(st);
      const ss_sim_result r =
          signal::detail::simulate_ss(system_of(c), u_of(c), x0_of(c), want_x, "cusci::signal::dlsim");
      CHECK(r.y.dtype() == dtype::float64);
      check_result(r, c, want_x);
    }
  }
}

TEST_CASE("simulate_ss_many matches dlsim / lsim per system") {
  const auto cases = cases_of("simulate_ss_many");
  REQUIRE(cases.size() >= 6);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const int n = c.get<int>("n"), m = c.get<int>("m"), p = c.get<int>("p");
    const ndarray u = asarray(c.array("u"));
    const std::size_t S = static_cast<std::size_t>(u.shape()[0]);
    std::vector<ss_system> systems(S);
    for (std::size_t k = 0; k < S; ++k) {
      ss_system& s = systems[k];
      s.n = n;
      s.m = m;
      s.p = p;
      s.A = part(c.array("A"), k, static_cast<std::size_t>(n * n));
      s.B = part(c.array("B"), k, static_cast<std::size_t>(n * m));
      s.C = part(c.array("C"), k, static_cast<std::size_t>(p * n));
      s.D = part(c.array("D"), k, static_cast<std::size_t>(p * m));
      if (c.has("B1")) s.B1 = part(c.array("B1"), k, static_cast<std::size_t>(n * m));
    }
    for (const bool want_x : {true, false}) {
      CAPTURE(want_x);
      const ss_sim_result r = signal::detail::simulate_ss_many(systems, u, x0_of(c), want_x, "cusci::signal::dlsim");
      check_result(r, c, want_x);
    }
  }
}

TEST_CASE("simulate_ss over 10^6 samples matches dlsim") {
  const auto cases = cases_of("simulate_ss_long");
  REQUIRE(cases.size() >= 3);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ss_system s = system_of(c);
    const std::int64_t N = c.get<std::int64_t>("N");
    std::vector<double> h(static_cast<std::size_t>(N) * s.m);
    for (std::int64_t k = 0; k < N; ++k)
      for (int i = 0; i < s.m; ++i)
        h[static_cast<std::size_t>(k * s.m + i)] = static_cast<double>((7919 * k + 104729 * i) % 1009) / 504.5 - 1.0;
    const ndarray u = asarray(h, {N, static_cast<std::int64_t>(s.m)});
    for (const bool want_x : {true, false}) {
      CAPTURE(want_x);
      const ss_sim_result r = signal::detail::simulate_ss(s, u, x0_of(c), want_x, "cusci::signal::dlsim");
      check_result(r, c, want_x);
    }
  }
}

TEST_CASE("simulate_ss with the lookahead matrix reproduces lsim's first-order hold") {
  const auto cases = cases_of("simulate_ss_foh");
  REQUIRE(cases.size() >= 2);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    for (const bool want_x : {true, false}) {
      CAPTURE(want_x);
      const ss_sim_result r =
          signal::detail::simulate_ss(system_of(c), asarray(c.array("u")), x0_of(c), want_x, "cusci::signal::lsim");
      check_result(r, c, want_x);
    }
  }
}

TEST_CASE("simulate_ss argument errors") {
  auto cases = cases_of("simulate_ss", true);
  const auto many = cases_of("simulate_ss_many", true);
  cases.insert(cases.end(), many.begin(), many.end());
  REQUIRE(cases.size() >= 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const int n = c.get<int>("n"), m = c.get<int>("m"), p = c.get<int>("p");
    ss_system s;
    s.n = n;
    s.m = m;
    s.p = p;
    s.A.assign(static_cast<std::size_t>(std::max(n, 0) * std::max(n, 0)), 0.1);
    s.B.assign(static_cast<std::size_t>(std::max(n, 0) * m), 1.0);
    s.C.assign(static_cast<std::size_t>(p * std::max(n, 0)), 1.0);
    s.D.assign(static_cast<std::size_t>(p * m), 0.0);
    if (c.get_or<std::string>("bad", "") == "B") s.B.push_back(1.0);
    const ndarray u =
        zeros(c.get<std::vector<std::int64_t>>("u_shape"), dtype_from_string(c.get<std::string>("u_dtype")));
    std::optional<ndarray> x0;
    if (c.has("x0_shape"))
      x0 = zeros(c.get<std::vector<std::int64_t>>("x0_shape"),
                 dtype_from_string(c.get_or<std::string>("x0_dtype", "float64")));
    if (c.func() == "simulate_ss") {
      testing::check_error(c, [&] { (void)signal::detail::simulate_ss(s, u, x0, true, "cusci::signal::dlsim"); });
    } else {
      std::vector<ss_system> systems(2, s);
      if (c.get_or<std::string>("bad", "") == "mixed") {
        ss_system t = s;
        t.n = n - 1;
        t.A.assign(static_cast<std::size_t>(t.n * t.n), 0.1);
        t.B.assign(static_cast<std::size_t>(t.n * m), 1.0);
        t.C.assign(static_cast<std::size_t>(p * t.n), 1.0);
        systems[1] = t;
      }
      testing::check_error(
          c, [&] { (void)signal::detail::simulate_ss_many(systems, u, x0, true, "cusci::signal::dlsim"); });
    }
  }
}
