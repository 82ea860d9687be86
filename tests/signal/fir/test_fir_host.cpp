// Host tests of cusci::signal's FIR design (fir_design.hpp) against SciPy 1.18.1 references
// (tests/golden/gen_signal_fir.py): kaiserord, firwin2, firls, remez, minimum_phase, firwin_2d.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/fir_design.hpp"
#include "cusci/warnings.hpp"
#include "../signal_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;

namespace {

std::vector<case_t> fir_cases(const std::string& func, bool errors = false) {
  return cases_in("signal_fir", func, errors);
}

// One entry of SciPy's window tuple: a float, an int, a bool, None or a list of floats.
sig::window_param param_of(const testing::golden_value& v) {
  if (v.is_null()) return sig::window_param(std::nullopt);
  if (v.is_boolean()) return sig::window_param(v.as_bool());
  if (v.is_array()) return sig::window_param(v.get<std::vector<double>>());
  if (v.is_number_integer()) return sig::window_param(v.as_int64());
  return sig::window_param(v.as_double());
}

std::vector<sig::window_param> params_of(const testing::golden_value& list) {
  std::vector<sig::window_param> out;
  for (std::size_t i = 0; i < list.size(); ++i) out.push_back(param_of(list.at(i)));
  return out;
}

// firwin2's window: a name with its arguments, a bare Kaiser beta, or none (SciPy's window=None).
std::optional<sig::window_spec> window_of(const case_t& c) {
  if (c.get_or<bool>("window_none", false)) return std::nullopt;
  if (c.has("window_beta")) return sig::window_spec(c.get<double>("window_beta"));
  return sig::window_spec(c.get<std::string>("window"), params_of(c.params().at("window_args")));
}

sig::firwin2_options firwin2_opts(const case_t& c) {
  sig::firwin2_options o;
  if (c.has("nfreqs")) o.nfreqs = c.get<std::int64_t>("nfreqs");
  o.window = window_of(c);
  o.antisymmetric = c.get<bool>("antisymmetric");
  if (c.has("fs")) o.fs = c.get<double>("fs");
  return o;
}

sig::firls_options firls_opts(const case_t& c) {
  sig::firls_options o;
  o.weight = c.get_or<std::vector<double>>("weight", {});
  if (c.has("fs")) o.fs = c.get<double>("fs");
  return o;
}

sig::remez_options remez_opts(const case_t& c) {
  sig::remez_options o;
  o.weight = c.get_or<std::vector<double>>("weight", {});
  o.type = sig::parse_remez_type(c.get<std::string>("type"));
  o.maxiter = c.get<std::int64_t>("maxiter");
  o.grid_density = c.get<std::int64_t>("grid_density");
  if (c.has("fs")) o.fs = c.get<double>("fs");
  return o;
}

sig::minimum_phase_options minimum_phase_opts(const case_t& c) {
  sig::minimum_phase_options o;
  o.method = sig::parse_minimum_phase_method(c.get<std::string>("method"));
  if (c.has("n_fft")) o.n_fft = c.get<std::int64_t>("n_fft");
  o.half = c.get<bool>("half");
  return o;
}

std::vector<sig::window_spec> windows_2d(const case_t& c) {
  std::vector<sig::window_spec> out;
  const auto w = c.params().at("windows");
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto e = w.at(i);
    if (e.at(std::size_t{0}).is_null())
      out.emplace_back(e.at(std::size_t{1}).at(std::size_t{0}).as_double());
    else
      out.emplace_back(e.at(std::size_t{0}).as_string(), params_of(e.at(std::size_t{1})));
  }
  return out;
}

sig::firwin_2d_options firwin_2d_opts(const case_t& c) {
  sig::firwin_2d_options o;
  o.fc = c.get<std::vector<double>>("fc");
  o.fs = c.get<double>("fs");
  o.circular = c.get<bool>("circular");
  return o;
}

}  // namespace

TEST_CASE("kaiserord matches SciPy") {
  auto cases = fir_cases("kaiserord");
  REQUIRE(cases.size() > 50);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto r = sig::kaiserord(c.get<double>("ripple"), c.get<double>("width"));
    CHECK(r.numtaps == c.get<std::int64_t>("numtaps"));
    const double beta = c.get<double>("beta");
    CHECK(std::abs(r.beta - beta) <= c.atol() + c.rtol() * std::abs(beta));
  }
  for (const auto& c : fir_cases("kaiserord", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { sig::kaiserord(c.get<double>("ripple"), c.get<double>("width")); });
  }
}

TEST_CASE("firwin2 matches SciPy") {
  auto cases = fir_cases("firwin2");
  REQUIRE(cases.size() > 30);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto h = sig::firwin2(c.get<std::int64_t>("numtaps"), c.get<std::vector<double>>("freq"),
                          c.get<std::vector<double>>("gain"), firwin2_opts(c));
    testing::check_allclose(h, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("firwin2 rejects what SciPy rejects") {
  auto cases = fir_cases("firwin2", true);
  REQUIRE(cases.size() > 15);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      sig::firwin2(c.get<std::int64_t>("numtaps"), c.get<std::vector<double>>("freq"),
                   c.get<std::vector<double>>("gain"), firwin2_opts(c));
    });
  }
}

TEST_CASE("firwin and firwin2 take every window of get_window") {
  auto cases = testing::cases("signal_fir", "firwin_windows");
  REQUIRE(cases.size() > 100);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const auto n = c.get<std::int64_t>("numtaps");
    auto call = [&] {
      if (c.get<std::string>("fir") == "firwin") {
        sig::firwin_options o;
        o.window = *window_of(c);
        return sig::firwin(n, 0.3, o);
      }
      sig::firwin2_options o;
      o.window = window_of(c);
      return sig::firwin2(n, {0, 0.3, 0.4, 1}, {1, 1, 0, 0}, o);
    };
    if (c.expects_error())
      testing::check_error(c, call);
    else
      testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("firls matches SciPy") {
  auto cases = fir_cases("firls");
  REQUIRE(cases.size() > 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto h = sig::firls(c.get<std::int64_t>("numtaps"), c.get<std::vector<double>>("bands"),
                        c.get<std::vector<double>>("desired"), firls_opts(c));
    if (!c.has("resp")) {
      testing::check_allclose(h, c.array("expected"), c.rtol(), c.atol());
      continue;
    }
    // Rank-deficient normal equations: the taps are not unique; compare |H| on the bands.
    const auto taps = h.to_vector<double>();
    const auto f = c.array("resp_f").to_vector<double>();
    const double nyq = c.get_or<double>("fs", 2.0) / 2;
    std::vector<double> mag(f.size());
    for (std::size_t i = 0; i < f.size(); ++i) {
      std::complex<double> acc = 0;
      for (std::size_t k = 0; k < taps.size(); ++k)
        acc += taps[k] * std::polar(1.0, -3.14159265358979323846 * f[i] / nyq * static_cast<double>(k));
      mag[i] = std::abs(acc);
    }
    CHECK(h.dtype() == dtype::float64);
    testing::check_allclose(host_array::from(mag), c.array("resp"), 0.0, c.get<double>("resp_atol"));
  }
  for (const auto& c : fir_cases("firls", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      sig::firls(c.get<std::int64_t>("numtaps"), c.get<std::vector<double>>("bands"),
                 c.get<std::vector<double>>("desired"), firls_opts(c));
    });
  }
}

TEST_CASE("remez matches SciPy") {
  auto cases = fir_cases("remez");
  REQUIRE(cases.size() > 30);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto h = sig::remez(c.get<std::int64_t>("numtaps"), c.get<std::vector<double>>("bands"),
                        c.get<std::vector<double>>("desired"), remez_opts(c));
    testing::check_allclose(h, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("remez rejects what SciPy rejects") {
  auto cases = fir_cases("remez", true);
  REQUIRE(cases.size() > 10);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      sig::remez(c.get<std::int64_t>("numtaps"), c.get<std::vector<double>>("bands"),
                 c.get<std::vector<double>>("desired"), remez_opts(c));
    });
  }
  // SciPy's message names the iteration where the deviation stopped growing.
  try {
    sig::remez(54, {0.2297, 0.2643}, {0.06});
    FAIL("no error");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("Failure to converge at iteration 2, try reducing transition band width.") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(sig::remez(11, {0, 0.2, 0.3, 0.5}, {1, 0}, {.maxiter = 0}), value_error);
  CHECK_THROWS_AS(sig::remez(11, {}, {}), value_error);
}

TEST_CASE("minimum_phase matches SciPy") {
  auto cases = fir_cases("minimum_phase");
  REQUIRE(cases.size() > 15);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    warning_capture cap;
    auto h = sig::minimum_phase(c.array("h"), minimum_phase_opts(c));
    testing::check_allclose(h, c.array("expected"), c.rtol(), c.atol());
    CHECK(cap.has("RuntimeWarning") == c.get<bool>("warns"));
  }
  for (const auto& c : fir_cases("minimum_phase", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { sig::minimum_phase(c.array("h"), minimum_phase_opts(c)); });
  }
  for (const auto& c : fir_cases("minimum_phase_method", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { sig::parse_minimum_phase_method(c.get<std::string>("method")); });
  }
}

TEST_CASE("firwin_2d matches SciPy") {
  auto cases = fir_cases("firwin_2d");
  REQUIRE(cases.size() > 8);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto h = sig::firwin_2d(c.get<std::vector<std::int64_t>>("hsize"), windows_2d(c), firwin_2d_opts(c));
    testing::check_allclose(h, c.array("expected"), c.rtol(), c.atol());
  }
  for (const auto& c : fir_cases("firwin_2d", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      sig::firwin_2d(c.get<std::vector<std::int64_t>>("hsize"), windows_2d(c), firwin_2d_opts(c));
    });
  }
  // SciPy returns NaN taps for a separable design without fc; cusci raises.
  CHECK_THROWS_AS(sig::firwin_2d({5, 5}, {"hamming", "hann"}), value_error);
}

TEST_CASE("remez type parser") {
  CHECK(sig::parse_remez_type("bandpass") == sig::remez_type::bandpass);
  CHECK(sig::parse_remez_type("differentiator") == sig::remez_type::differentiator);
  CHECK(sig::parse_remez_type("hilbert") == sig::remez_type::hilbert);
  CHECK_THROWS_AS(sig::parse_remez_type("Hilbert"), value_error);
}
