// Host tests of cusci::signal's waveforms family (no GPU): the method parser, gausspulse's cutoff form,
// max_len_seq's shift register and default taps against SciPy (through the host loop the public
// function runs), and every argument check, run on data-less arrays of the dtype and shape SciPy
// rejected (gen_signal_waveforms.py's error cases): the checks throw before any device work.

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "waveforms/waveforms_detail.hpp"
#include "waveforms_test_util.hpp"

using namespace cusci;
using namespace cusci::waveforms_test;

TEST_CASE("parse_chirp_method takes SciPy's names and abbreviations") {
  using signal::chirp_method;
  for (const char* s : {"linear", "lin", "li"}) CHECK(signal::parse_chirp_method(s) == chirp_method::linear);
  for (const char* s : {"quadratic", "quad", "q"}) CHECK(signal::parse_chirp_method(s) == chirp_method::quadratic);
  for (const char* s : {"logarithmic", "log", "lo"}) CHECK(signal::parse_chirp_method(s) == chirp_method::logarithmic);
  for (const char* s : {"hyperbolic", "hyp"}) CHECK(signal::parse_chirp_method(s) == chirp_method::hyperbolic);
  for (const char* s : {"cubic", "l", "hyperbola", ""}) CHECK_THROWS_AS(signal::parse_chirp_method(s), value_error);
}

TEST_CASE("gausspulse('cutoff') matches SciPy") {
  auto cases = cases_of("gausspulse_cutoff");
  REQUIRE(cases.size() >= 3);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const double v = signal::gausspulse(c.get<std::string>("t_string"), gauss_opts(c));
    const double e = c.get<double>("value");
    if (std::isinf(e)) {
      CHECK(v == e);
    } else {
      CHECK(std::abs(v - e) <= c.rtol() * std::abs(e));
    }
    CHECK(signal::gausspulse_cutoff(gauss_opts(c)) == v);
  }
}

TEST_CASE("max_len_seq's register loop and default taps match SciPy") {
  auto cases = cases_of("max_len_seq");
  REQUIRE(cases.size() >= 25);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const int nbits = c.get<int>("nbits");
    const auto o = mls_opts(c);
    std::vector<std::int64_t> taps;
    if (o.taps) {
      taps = *o.taps;
      std::sort(taps.begin(), taps.end());
      taps.erase(std::unique(taps.begin(), taps.end()), taps.end());
      std::reverse(taps.begin(), taps.end());
    } else {
      REQUIRE(signal::detail::mls_default_taps(nbits) != nullptr);
      taps = *signal::detail::mls_default_taps(nbits);
    }
    std::vector<std::int8_t> state;
    if (o.state)
      for (double v : *o.state) state.push_back(v != 0 ? 1 : 0);
    else
      state.assign(static_cast<std::size_t>(nbits), 1);
    const host_array seq_e = c.array("seq");
    std::vector<std::int8_t> seq(static_cast<std::size_t>(seq_e.size()));
    signal::detail::mls_run(taps, state, nbits, seq_e.size(), seq.data());
    testing::check_allclose(host_array::from(seq, {seq_e.size()}), seq_e, 0, 0);
    testing::check_allclose(host_array::from(state), c.array("state_out"), 0, 0);
  }
  CHECK(signal::detail::mls_default_taps(1) == nullptr);
  CHECK(signal::detail::mls_default_taps(33) == nullptr);
}

TEST_CASE("the waveforms reject what SciPy rejects, before any device work") {
  std::vector<case_t> cases;
  for (const char* f : {"chirp", "gausspulse", "gausspulse_cutoff", "sawtooth", "square", "unit_impulse", "max_len_seq"}) {
    auto v = cases_of(f, true);
    cases.insert(cases.end(), v.begin(), v.end());
  }
  REQUIRE(cases.size() >= 28);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const std::string f = c.func();
    if (f == "chirp") {
      const ndarray t = testing::fake_array(dtype::float64, c.get<std::vector<std::int64_t>>("shape"));
      testing::check_error(c, [&] {
        (void)signal::chirp(t, c.get<double>("f0"), c.get<double>("t1"), c.get<double>("f1"), chirp_opts(c));
      });
    } else if (f == "gausspulse") {
      const ndarray t = testing::fake_array(dtype::float64, c.get<std::vector<std::int64_t>>("shape"));
      testing::check_error(c, [&] { (void)signal::gausspulse(t, gauss_opts(c)); });
    } else if (f == "gausspulse_cutoff") {
      testing::check_error(c, [&] { (void)signal::gausspulse(c.get<std::string>("t_string"), gauss_opts(c)); });
    } else if (f == "sawtooth" || f == "square") {
      const ndarray t = testing::fake_array(dtype::float64, c.get<std::vector<std::int64_t>>("shape"));
      const ndarray w = testing::fake_array(dtype::float64, c.get<std::vector<std::int64_t>>("w_shape"));
      testing::check_error(c, [&] { (void)(f == "square" ? signal::square(t, w) : signal::sawtooth(t, w)); });
    } else if (f == "unit_impulse") {
      testing::check_error(c, [&] { (void)unit_impulse_of(c); });
    } else {
      testing::check_error(c, [&] { (void)signal::max_len_seq(c.get<int>("nbits"), mls_opts(c)); });
    }
  }
  // complex t is refused (SciPy would compute a complex phase)
  const ndarray tc = testing::fake_array(dtype::complex128, {4});
  CHECK_THROWS_AS(signal::chirp(tc, 1, 1, 2), type_error);
  CHECK_THROWS_AS(signal::gausspulse(tc), type_error);
  CHECK_THROWS_AS(signal::sawtooth(tc), type_error);
  CHECK_THROWS_AS(signal::square(tc), type_error);
  CHECK_THROWS_AS(signal::sweep_poly(tc, {1.0}), type_error);
}

TEST_CASE("chirp's constants follow SciPy's Python arithmetic") {
  using signal::chirp_method;
  auto c = signal::detail::chirp_consts_of(2.0, 3.0, 5.0, {.method = chirp_method::logarithmic, .phi = 90.0});
  CHECK(c.kind == 3);
  CHECK(c.a == 5.0 / 2.0);
  CHECK(c.strong == 2 * 3.141592653589793 * (3.0 / std::log(2.5)) * 2.0);
  CHECK(c.phi == 90.0 * (3.141592653589793 / 180.0));
  c = signal::detail::chirp_consts_of(4.0, 1.0, 4.0, {.method = chirp_method::hyperbolic});
  CHECK(c.kind == 5);
  c = signal::detail::chirp_consts_of(1.0, 2.0, 3.0, {.method = chirp_method::quadratic, .vertex_zero = false});
  CHECK(c.kind == 2);
  CHECK(c.d == 8.0);
}
