// GPU tests of cusci::signal's convolution family against SciPy references
// (tests/golden/gen_signal_convolution.py): convolve / correlate (every mode and method, 1-D..3-D,
// in2 larger than in1, dtypes with SciPy's result types, 0-d, C / F / strided inputs), fftconvolve /
// oaconvolve (axes, broadcasting, the overlap-save engine on one and several lines, along axis 0 and
// 1), convolve2d / correlate2d (every boundary, fillvalue, the tiled and the simple kernel),
// choose_conv_method on integer inputs, deconvolve, the errors, and a long signal through method auto.

#include <doctest/doctest.h>

#include <complex>
#include <optional>

#include "cusci/core.hpp"
#include "cusci/signal/convolution.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;
using case_t = testing::golden_case;

namespace {

constexpr const char* module = "signal_convolution";

ndarray input_of(const case_t& c, const std::string& key, const std::string& layout) {
  ndarray d = asarray(c.array(key));
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{0, {}, 2}}];
  return d;
}

/// The two inputs of a case: stored arrays with their layouts, or the formula of gen = "sincos".
std::pair<ndarray, ndarray> inputs_of(const case_t& c) {
  if (c.has("gen")) {
    const auto n1 = c.get<std::int64_t>("n1"), n2 = c.get<std::int64_t>("n2");
    ndarray a = sin(multiply(arange(scalar(n1)).astype(dtype::float64), scalar(0.01))).astype(dtype::float32);
    ndarray b = divide(cos(multiply(arange(scalar(n2)).astype(dtype::float64), scalar(0.02))), scalar(double(n2)))
                    .astype(dtype::float32);
    return {a, b};
  }
  return {input_of(c, "in1", c.get<std::string>("layout1")), input_of(c, "in2", c.get<std::string>("layout2"))};
}

/// The result as the case stores it (every stride-th sample for gen cases).
ndarray stored_form(const case_t& c, const ndarray& out) {
  if (!c.has("gen")) return out;
  return out[{slice{0, {}, c.get<std::int64_t>("stride")}}].copy();
}

template <class F> void run_cases(const std::string& func, int min_cases, F&& call) {
  auto cases = testing::cases(module, func);
  REQUIRE(static_cast<int>(cases.size()) >= min_cases);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    std::optional<stream_guard> g;
    if (i++ % 3 == 2) g.emplace(s);
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)call(c); });
      continue;
    }
    ndarray out = call(c);
    testing::check_allclose(stored_form(c, out), c.array("expected"), c.rtol(), c.atol());
  }
}

sig::convolve_options conv_opts(const case_t& c) {
  return {.mode = sig::parse_conv_mode(c.get<std::string>("mode")),
          .method = sig::parse_conv_method(c.get<std::string>("method"))};
}

sig::fftconvolve_options fft_opts(const case_t& c) {
  sig::fftconvolve_options o{.mode = sig::parse_conv_mode(c.get<std::string>("mode"))};
  if (c.has("axes")) o.axes = c.get<std::vector<int>>("axes");
  return o;
}

sig::convolve2d_options c2d_opts(const case_t& c) {
  const auto fv = c.get<std::vector<double>>("fillvalue");
  sig::convolve2d_options o{.mode = sig::parse_conv_mode(c.get<std::string>("mode")),
                            .boundary = sig::parse_conv_boundary(c.get<std::string>("boundary"))};
  o.fillvalue = fv[1] == 0.0 ? scalar(fv[0]) : scalar(std::complex<double>(fv[0], fv[1]));
  return o;
}

}  // namespace

TEST_CASE("convolve matches SciPy") {
  run_cases("convolve", 300, [](const case_t& c) {
    auto [a, b] = inputs_of(c);
    return sig::convolve(a, b, conv_opts(c));
  });
}

TEST_CASE("correlate matches SciPy") {
  run_cases("correlate", 300, [](const case_t& c) {
    auto [a, b] = inputs_of(c);
    return sig::correlate(a, b, conv_opts(c));
  });
}

TEST_CASE("fftconvolve matches SciPy") {
  run_cases("fftconvolve", 100, [](const case_t& c) {
    auto [a, b] = inputs_of(c);
    return sig::fftconvolve(a, b, fft_opts(c));
  });
}

TEST_CASE("oaconvolve matches SciPy") {
  run_cases("oaconvolve", 100, [](const case_t& c) {
    auto [a, b] = inputs_of(c);
    return sig::oaconvolve(a, b, fft_opts(c));
  });
}

TEST_CASE("convolve2d matches SciPy") {
  run_cases("convolve2d", 100, [](const case_t& c) {
    auto [a, b] = inputs_of(c);
    return sig::convolve2d(a, b, c2d_opts(c));
  });
}

TEST_CASE("correlate2d matches SciPy") {
  run_cases("correlate2d", 100, [](const case_t& c) {
    auto [a, b] = inputs_of(c);
    return sig::correlate2d(a, b, c2d_opts(c));
  });
}

TEST_CASE("choose_conv_method on integer and bool inputs matches SciPy") {
  int n = 0;
  for (const auto& c : testing::cases(module, "choose_conv_method")) {
    if (!c.has("in1")) continue;
    CAPTURE(c.name());
    ++n;
    ndarray a = asarray(c.array("in1")), b = asarray(c.array("in2"));
    const auto m = sig::choose_conv_method(a, b, {.mode = sig::parse_conv_mode(c.get<std::string>("mode"))});
    CHECK(m == sig::parse_conv_method(c.get<std::string>("expected")));
  }
  CHECK(n >= 4);
}

TEST_CASE("deconvolve matches SciPy") {
  auto cases = testing::cases(module, "deconvolve");
  REQUIRE(cases.size() >= 8);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    ndarray sgn = asarray(c.array("signal")), div = asarray(c.array("divisor"));
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)sig::deconvolve(sgn, div); });
      continue;
    }
    auto r = sig::deconvolve(sgn, div);
    testing::check_allclose(r.quotient, c.array("quotient"), c.rtol(), c.atol());
    testing::check_allclose(r.remainder, c.array("remainder"), c.rtol(), c.atol());
  }
}

TEST_CASE("convolve: the result does not depend on the stream and leaves the inputs alone") {
  ndarray a = asarray(std::vector<double>{1, 2, 3, 4, 5}), b = asarray(std::vector<double>{1, -1});
  // The inputs were uploaded on the default stream: order them before the other stream reads them
  // (cusci, as CuPy, leaves ordering across streams to the caller).
  device_synchronize();
  stream s(true);
  ndarray y;
  {
    stream_guard g(s);
    y = sig::convolve(a, b, {.method = sig::conv_method::direct});
  }
  s.synchronize();
  testing::check_allclose(y, to_host(asarray(std::vector<double>{1, 1, 1, 1, 1, -5})), 0, 0);
  testing::check_allclose(a, to_host(asarray(std::vector<double>{1, 2, 3, 4, 5})), 0, 0);
}
