// GPU tests of cusci::signal's smoothing family against SciPy references
// (tests/golden/gen_signal_smoothing.py): medfilt (the 1-D kernel with every window, tile edges and
// the NaN fallback; ndimage's path for integers and N-D), medfilt2d, order_filter, wiener,
// savgol_filter (every mode, odd / even windows, derivatives, N-D with axis, C / F / strided
// inputs) and whittaker_henderson (penalties, weights, the polynomial limit, REML), each with its
// error cases; some cases run on a non-blocking stream.

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/signal/smoothing.hpp"
#include "../signal_test_util.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;
using case_t = testing::golden_case;

namespace {

const char* const module_name = "signal_smoothing";

std::vector<case_t> cases_of(const std::string& func, bool errors) {
  return signal_test::cases_in(module_name, func, errors);
}

ndarray input_of(const case_t& c) {
  host_array h = c.array("x");
  ndarray d = asarray(h);
  const std::string layout = c.get_or<std::string>("layout", "C");
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{0, {}, 2}}];
  return d;
}

/// A kernel size parameter: null (not given), a number (one for every axis) or a list.
ndimage::per_axis<std::int64_t> sizes_of(const case_t& c, const std::string& key) {
  if (!c.has(key)) return {};
  const auto p = c.params().at(key);
  if (p.is_array()) return c.get<std::vector<std::int64_t>>(key);
  return ndimage::per_axis<std::int64_t>(c.get<std::int64_t>(key));
}

/// Runs every result case of `func` (check against `expected`) and every error case (check the
/// exception), the call built by `run`.
template <class Run>
void run_cases(const std::string& func, std::size_t min_cases, Run&& run) {
  auto good = cases_of(func, false);
  REQUIRE(good.size() >= min_cases);
  stream s(true);
  int i = 0;
  for (const auto& c : good) {
    CAPTURE(c.name());
    std::optional<stream_guard> g;
    if ((i++ % 3) == 2) g.emplace(s);
    ndarray y = run(c);
    testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
  }
  s.synchronize();
  for (const auto& c : cases_of(func, true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { (void)run(c); });
  }
}

}  // namespace

TEST_CASE("medfilt matches SciPy") {
  run_cases("medfilt", 60, [](const case_t& c) { return sig::medfilt(input_of(c), sizes_of(c, "kernel_size")); });
}

TEST_CASE("medfilt2d matches SciPy") {
  run_cases("medfilt2d", 20, [](const case_t& c) {
    if (!c.has("kernel_size")) return sig::medfilt2d(input_of(c));
    return sig::medfilt2d(input_of(c), sizes_of(c, "kernel_size"));
  });
}

TEST_CASE("order_filter matches SciPy") {
  run_cases("order_filter", 20, [](const case_t& c) {
    host_array dom = c.array("domain");
    const auto rank = c.get<std::int64_t>("rank");
    if (c.get_or<bool>("domain_on_device", false)) {
      ndarray dd = asarray(dom);
      return sig::order_filter(input_of(c), dd, rank);
    }
    return sig::order_filter(input_of(c), dom, rank);
  });
}

TEST_CASE("wiener matches SciPy") {
  run_cases("wiener", 15, [](const case_t& c) {
    return sig::wiener(input_of(c), sizes_of(c, "mysize"), c.get<std::optional<double>>("noise"));
  });
}

TEST_CASE("savgol_filter matches SciPy") {
  run_cases("savgol_filter", 80, [](const case_t& c) {
    sig::savgol_filter_options o;
    o.deriv = c.get<int>("deriv");
    o.delta = c.get<double>("delta");
    o.axis = c.get<int>("axis");
    o.mode = sig::parse_savgol_mode(c.get<std::string>("mode"));
    o.cval = c.get<double>("cval");
    return sig::savgol_filter(input_of(c), c.get<std::int64_t>("window_length"), c.get<std::int64_t>("polyorder"), o);
  });
}

TEST_CASE("savgol_filter: designated options and a float32 line of 2^20") {
  // The benchmark's shape in small: float32 stays float32, interp edges on one long line.
  std::vector<float> v(1 << 20);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i % 97) * 0.01);
  ndarray x = asarray(v);
  ndarray y = sig::savgol_filter(x, 31, 3, {.mode = sig::savgol_mode::interp});
  CHECK(y.dtype() == dtype::float32);
  CHECK(y.shape() == x.shape());
  // A polynomial of degree <= polyorder passes through unchanged, edges included.
  std::vector<double> p(4000);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double t = static_cast<double>(i) / 1000.0;
    p[i] = 1.0 + 2.0 * t - 0.5 * t * t + 0.1 * t * t * t;
  }
  ndarray pd = asarray(p);
  host_array yp = to_host(sig::savgol_filter(pd, 31, 3));
  testing::check_allclose(yp, host_array::from(p), 1e-9, 1e-9);
}

TEST_CASE("whittaker_henderson matches SciPy") {
  auto run = [](const case_t& c) {
    sig::whittaker_henderson_options o;
    const auto lp = c.params().at("lamb");
    if (lp.is_string()) o.lamb = c.get<std::string>("lamb");
    else o.lamb = c.get<double>("lamb");
    o.order = c.get<int>("order");
    if (c.has("weights")) o.weights = asarray(c.array("weights"));
    return sig::whittaker_henderson(asarray(c.array("x")), o);
  };
  auto good = cases_of("whittaker_henderson", false);
  REQUIRE(good.size() >= 40);
  for (const auto& c : good) {
    CAPTURE(c.name());
    auto r = run(c);
    testing::check_allclose(r.x, c.array("expected"), c.rtol(), c.atol());
    const double el = c.get<double>("expected_lamb");
    const double lt = c.get<double>("lamb_rtol");
    CHECK(std::abs(r.lamb - el) <= lt * std::abs(el));
  }
  for (const auto& c : cases_of("whittaker_henderson", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { (void)run(c); });
  }
}
