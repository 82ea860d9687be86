// GPU tests of cusci::signal's multirate family against SciPy (tests/golden/gen_signal_multirate.py):
// upfirdn (dtypes, every extension mode, ratios, long filters, N-D with axis, C / F / strided, empty
// axes), resample_poly (windows, explicit taps, every padtype, gcd reduction, large ratios), resample
// (real / complex / frequency domain, windows, timestamps), decimate (iir / fir, zero_phase), and the
// error cases SciPy raises. Coefficients alternate between host and device arrays; every third case
// runs on a non-blocking stream.

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/signal/multirate.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {

using case_t = testing::golden_case;
const char* const kModule = "signal_multirate";

ndarray input_of(const case_t& c) {
  ndarray d = asarray(c.array("x"));
  const std::string layout = c.get<std::string>("layout");
  if (layout == "F") return d.copy(order::F);
  if (layout == "strided") return d[{ellipsis, slice{0, {}, 2}}];
  return d;
}

/// The case's window: explicit taps (host or device), a bare Kaiser beta, a name with arguments, or
/// none.
std::optional<sig::filter_window> window_of(const case_t& c, bool device) {
  if (c.has("window_taps")) {
    host_array t = c.array("window_taps");
    if (device) return sig::filter_window(asarray(t));
    return sig::filter_window(t);
  }
  if (c.has("window_beta")) return sig::filter_window(c.get<double>("window_beta"));
  if (c.has("window"))
    return sig::filter_window(sig::window_spec(c.get<std::string>("window"), c.get<std::vector<double>>("window_args")));
  return std::nullopt;
}

template <class F>
void run_cases(const std::string& func, std::size_t at_least, F&& body) {
  auto cases = testing::cases(kModule, func);
  REQUIRE(cases.size() >= at_least);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const bool on_stream = (i % 3) == 2, device = (i % 2) == 1;
    ++i;
    std::optional<stream_guard> g;
    if (on_stream) g.emplace(s);
    body(c, device);
  }
}

}  // namespace

TEST_CASE("upfirdn matches SciPy") {
  run_cases("upfirdn", 200, [](const case_t& c, bool device) {
    const host_array h = c.array("h");
    const ndarray hd = asarray(h);
    const ndarray x = input_of(c);
    const auto up = c.get<std::int64_t>("up"), down = c.get<std::int64_t>("down");
    const sig::upfirdn_options o{.axis = c.get<int>("axis"),
                                 .mode = sig::parse_extension_mode(c.get<std::string>("mode")),
                                 .cval = c.get<double>("cval")};
    auto call = [&]() { return device ? sig::upfirdn(hd, x, up, down, o) : sig::upfirdn(h, x, up, down, o); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      return;
    }
    testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
  });
}

TEST_CASE("resample_poly matches SciPy") {
  run_cases("resample_poly", 90, [](const case_t& c, bool device) {
    const ndarray x = input_of(c);
    const auto up = c.get<std::int64_t>("up"), down = c.get<std::int64_t>("down");
    sig::resample_poly_options o{.axis = c.get<int>("axis"),
                                 .padtype = sig::parse_resample_padtype(c.get<std::string>("padtype")),
                                 .cval = c.get<std::optional<double>>("cval")};
    if (auto w = window_of(c, device)) o.window = *w;
    auto call = [&]() { return sig::resample_poly(x, up, down, o); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      return;
    }
    testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
  });
}

TEST_CASE("resample matches SciPy") {
  run_cases("resample", 100, [](const case_t& c, bool device) {
    const ndarray x = input_of(c);
    const auto num = c.get<std::int64_t>("num");
    const sig::resample_options o{.axis = c.get<int>("axis"),
                                  .window = window_of(c, device),
                                  .domain = sig::parse_resample_domain(c.get<std::string>("domain"))};
    if (c.has("t")) {
      const host_array t = c.array("t");
      const ndarray td = asarray(t);
      auto call = [&]() { return device ? sig::resample(x, num, td, o) : sig::resample(x, num, t, o); };
      if (c.expects_error()) {
        testing::check_error(c, call);
        return;
      }
      const sig::resample_result r = call();
      testing::check_allclose(r.x, c.array("expected"), c.rtol(), c.atol());
      testing::check_allclose(r.t, c.array("expected_t"), 1e-12, 1e-12);
      return;
    }
    auto call = [&]() { return sig::resample(x, num, o); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      return;
    }
    testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
  });
}

TEST_CASE("decimate matches SciPy") {
  run_cases("decimate", 35, [](const case_t& c, bool) {
    const ndarray x = input_of(c);
    const auto q = c.get<std::int64_t>("q");
    const sig::decimate_options o{.n = c.get<std::optional<int>>("n"),
                                  .ftype = sig::parse_decimate_ftype(c.get<std::string>("ftype")),
                                  .axis = c.get<int>("axis"),
                                  .zero_phase = c.get<bool>("zero_phase")};
    auto call = [&]() { return sig::decimate(x, q, o); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      return;
    }
    testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
  });
}

TEST_CASE("resample_poly 2^20 float32 by 2/3 (the benchmark's shape) matches upfirdn + slice") {
  // Consistency of the fused kept range against the full upfirdn output on a long signal (several
  // tiles per line, both kernels' paths): y_keep == upfirdn(h_padded)[n_pre_remove : ...].
  const std::int64_t n = 1 << 20;
  ndarray x = random::default_rng(7).standard_normal({n}, dtype::float32);
  ndarray y = sig::resample_poly(x, 2, 3, {.axis = -1});
  CHECK(y.shape() == shape_t{(n * 2 + 2) / 3});
  CHECK(y.dtype() == dtype::float32);
  host_array h = sig::firwin(61, 1.0 / 3, {.window = sig::window_spec("kaiser", {5.0})}).astype(dtype::float32);
  std::vector<float> hv = h.to_vector<float>();
  for (auto& v : hv) v *= 2.0f;
  hv.insert(hv.begin(), 3, 0.0f);  // n_pre_pad = 3 - 30 % 3 = 3
  ndarray full = sig::upfirdn(host_array::from(hv), x, 2, 3);
  const std::int64_t pre = (30 + 3) / 3;
  ndarray ref = full[{slice{pre, pre + y.shape()[0], {}}}];
  testing::check_allclose(y, to_host(ref), 1e-6, 1e-6);
}
