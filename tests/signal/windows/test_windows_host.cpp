// Host tests of cusci::signal's windows family: the 26 windows of cusci::signal::windows, dpss with
// every norm, Kmax and ratios, and get_window's names, aliases, parameter forms and errors, against
// SciPy (tests/golden/gen_signal_windows.py), plus the C++ spellings of window_spec and the warning of
// chebwin.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/windows.hpp"
#include "cusci/warnings.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;
namespace W = cusci::signal::windows;

namespace {

// One entry of a case's "args" list as a window parameter (JSON null / bool / integer / float / list).
sig::window_param param_of(const testing::golden_value& v) {
  if (v.is_null()) return std::nullopt;
  if (v.is_boolean()) return v.as_bool();
  if (v.is_number_integer()) return v.as_int64();
  if (v.is_array()) return v.get<std::vector<double>>();
  return v.as_double();
}

std::vector<sig::window_param> args_of(const testing::golden_case& c) {
  std::vector<sig::window_param> a;
  for (auto v : c.params().at("args")) a.push_back(param_of(v));
  return a;
}

// The direct call of window `name` with SciPy's positional parameters `a`.
host_array call_window(const std::string& name, std::int64_t M, bool sym, const testing::golden_value& a) {
  auto num = [&](std::size_t i) { return a.at(i).as_double(); };
  auto n = a.size();
  if (name == "barthann") return W::barthann(M, sym);
  if (name == "bartlett") return W::bartlett(M, sym);
  if (name == "blackman") return W::blackman(M, sym);
  if (name == "blackmanharris") return W::blackmanharris(M, sym);
  if (name == "bohman") return W::bohman(M, sym);
  if (name == "boxcar") return W::boxcar(M, sym);
  if (name == "chebwin") return W::chebwin(M, num(0), sym);
  if (name == "cosine") return W::cosine(M, sym);
  if (name == "exponential") {
    std::optional<double> center;
    if (n >= 1 && !a.at(std::size_t{0}).is_null()) center = num(0);
    return W::exponential(M, center, n >= 2 ? num(1) : 1.0, sym);
  }
  if (name == "flattop") return W::flattop(M, sym);
  if (name == "gaussian") return W::gaussian(M, num(0), sym);
  if (name == "general_cosine") return W::general_cosine(M, a.at(std::size_t{0}).get<std::vector<double>>(), sym);
  if (name == "general_gaussian") return W::general_gaussian(M, num(0), num(1), sym);
  if (name == "general_hamming") return W::general_hamming(M, num(0), sym);
  if (name == "hamming") return W::hamming(M, sym);
  if (name == "hann") return W::hann(M, sym);
  if (name == "kaiser") return W::kaiser(M, num(0), sym);
  if (name == "kaiser_bessel_derived") return W::kaiser_bessel_derived(M, num(0), sym);
  if (name == "lanczos") return W::lanczos(M, sym);
  if (name == "nuttall") return W::nuttall(M, sym);
  if (name == "parzen") return W::parzen(M, sym);
  if (name == "taylor")
    return W::taylor(M, n >= 1 ? a.at(std::size_t{0}).as_int64() : 4, n >= 2 ? num(1) : 30.0,
                     n >= 3 ? a.at(std::size_t{2}).as_bool() : true, sym);
  if (name == "triang") return W::triang(M, sym);
  if (name == "tukey") return W::tukey(M, n >= 1 ? num(0) : 0.5, sym);
  FAIL("unknown window " << name);
  return {};
}

}  // namespace

TEST_CASE("every window matches SciPy for every length, both sym and the parameter ranges") {
  int n_good = 0, n_err = 0;
  std::vector<std::string> names;
  for (const auto& c : testing::cases("signal_windows", "window")) {
    CAPTURE(c.name());
    const auto name = c.get<std::string>("window");
    auto call = [&] {
      return call_window(name, c.get<std::int64_t>("M"), c.get<bool>("sym"), c.params().at("args"));
    };
    if (c.expects_error()) {
      testing::check_error(c, call);
      ++n_err;
      continue;
    }
    warning_capture wc;
    testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
    CHECK(wc.has("UserWarning") == c.get<bool>("warns"));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    ++n_good;
  }
  CHECK(names.size() == 24);  // the 25th, dpss, below
  CHECK(n_good > 900);
  CHECK(n_err > 50);
}

TEST_CASE("dpss matches SciPy: norms, Kmax, ratios") {
  int n_good = 0, n_err = 0;
  for (const auto& c : testing::cases("signal_windows", "dpss")) {
    CAPTURE(c.name());
    W::dpss_options o;
    o.Kmax = c.get<std::optional<std::int64_t>>("Kmax");
    o.sym = c.get<bool>("sym");
    o.norm = W::parse_dpss_norm(c.get<std::string>("norm"));
    o.return_ratios = c.get<bool>("return_ratios");
    auto call = [&] { return W::dpss(c.get<std::int64_t>("M"), c.get<double>("NW"), o); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      ++n_err;
      continue;
    }
    const auto r = call();
    testing::check_allclose(r.windows, c.array("expected"), c.rtol(), c.atol());
    REQUIRE(r.ratios.has_value() == o.return_ratios);
    if (o.return_ratios) testing::check_allclose(*r.ratios, c.array("expected_ratios"), 1e-10, 1e-10);
    ++n_good;
  }
  CHECK(n_good > 100);
  CHECK(n_err > 15);
}

TEST_CASE("get_window matches SciPy: names, aliases, parameters, suffixes, errors") {
  int n_good = 0, n_err = 0;
  for (const auto& c : testing::cases("signal_windows", "get_window")) {
    CAPTURE(c.name());
    const sig::window_spec w = c.has("window_beta") ? sig::window_spec(c.get<double>("window_beta"))
                                                    : sig::window_spec(c.get<std::string>("window"), args_of(c));
    auto call = [&] { return sig::get_window(w, c.get<std::int64_t>("Nx"), c.get<bool>("fftbins")); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      ++n_err;
      continue;
    }
    warning_capture wc;  // chebwin below 45 dB warns
    testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
    ++n_good;
  }
  CHECK(n_good > 300);
  CHECK(n_err > 40);
}

TEST_CASE("window_spec: C++ spellings of SciPy's window argument") {
  // ('kaiser', 8.6), a bare 8.6 and a vector<double> of parameters are the same window.
  const host_array a = sig::get_window({"kaiser", {8.6}}, 31, false);
  const host_array b = sig::get_window(8.6, 31, false);
  const host_array c = sig::get_window(sig::window_spec("kaiser", std::vector<double>{8.6}), 31, false);
  const host_array d = W::kaiser(31, 8.6);
  testing::check_allclose(a, d, 0, 0);
  testing::check_allclose(b, d, 0, 0);
  testing::check_allclose(c, d, 0, 0);
  // ('exponential', None, 3.0), ('taylor', 5, 35, False), ('general_cosine', [..]).
  testing::check_allclose(sig::get_window({"exponential", {std::nullopt, 3.0}}, 16), W::exponential(16, {}, 3.0, false),
                          0, 0);
  testing::check_allclose(sig::get_window({"taylor", {5, 35.0, false}}, 16, false), W::taylor(16, 5, 35.0, false), 0,
                          0);
  CHECK_THROWS_AS(sig::get_window({"taylor", {5.0}}, 16), type_error);  // nbar must be an int, as in SciPy
  testing::check_allclose(sig::get_window({"general_cosine", {std::vector<double>{0.5, 0.5}}}, 16), W::hann(16, false),
                          0, 0);
  CHECK_THROWS_AS(sig::get_window({"general_cosine", {0.5}}, 16), index_error);
  // Defaults: hamming; get_window's fftbins default is periodic.
  testing::check_allclose(sig::get_window(sig::window_spec{}, 16), W::hamming(16, false), 0, 0);
  // Nx must be positive (the windows themselves take 0).
  CHECK_THROWS_AS(sig::get_window("hann", 0), value_error);
  CHECK(W::hann(0).size() == 0);
  CHECK(W::hann(0).dtype() == dtype::float64);
  CHECK(W::hann(1).to_vector<double>() == std::vector<double>{1.0});
}

TEST_CASE("dpss result shapes and norm parser") {
  auto r = W::dpss(64, 3.0);
  CHECK(r.windows.shape() == shape_t{64});
  CHECK(!r.ratios);
  r = W::dpss(64, 3.0, {.Kmax = 5, .return_ratios = true});
  CHECK(r.windows.shape() == shape_t{5, 64});
  REQUIRE(r.ratios);
  CHECK(r.ratios->shape() == shape_t{5});
  r = W::dpss(64, 3.0, {.sym = false, .return_ratios = true});
  CHECK(r.windows.shape() == shape_t{64});
  CHECK(r.ratios->ndim() == 0);
  r = W::dpss(1, 3.0, {.Kmax = 3, .return_ratios = true});
  CHECK(r.windows.shape() == shape_t{1});
  CHECK(r.ratios->shape() == shape_t{1});
  CHECK(W::parse_dpss_norm("2") == W::dpss_norm::two);
  CHECK(W::parse_dpss_norm("approximate") == W::dpss_norm::approximate);
  CHECK(W::parse_dpss_norm("subsample") == W::dpss_norm::subsample);
  CHECK(W::parse_dpss_norm("None") == W::dpss_norm::none);
  CHECK_THROWS_AS(W::parse_dpss_norm("x"), value_error);
}

TEST_CASE("chebwin warns below 45 dB as SciPy") {
  {
    warning_capture wc;
    (void)W::chebwin(16, 30.0);
    REQUIRE(wc.warnings().size() == 1);
    CHECK(wc.warnings()[0].category == "UserWarning");
    CHECK(wc.warnings()[0].function == "cusci::signal::windows::chebwin");
  }
  warning_capture wc;
  (void)W::chebwin(16, 60.0);
  CHECK(wc.warnings().empty());
}

TEST_CASE("firwin draws every window through the same code") {
  int n_good = 0, n_err = 0;
  for (const auto& c : testing::cases("signal_windows", "firwin")) {
    CAPTURE(c.name());
    sig::firwin_options o;
    o.window = sig::window_spec(c.get<std::string>("window"), args_of(c));
    auto call = [&] { return sig::firwin(c.get<std::int64_t>("numtaps"), 0.3, o); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      ++n_err;
      continue;
    }
    testing::check_allclose(call(), c.array("expected"), c.rtol(), c.atol());
    ++n_good;
  }
  CHECK(n_good >= 15);
  CHECK(n_err >= 3);
}
