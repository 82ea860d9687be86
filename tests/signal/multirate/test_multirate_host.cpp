// Host tests of cusci::signal's multirate family: the Chebyshev designs decimate uses (cheby1, cheby2,
// cheb1ap, cheb2ap) against SciPy (tests/golden/gen_signal_multirate.py), the option parsers, and the
// argument checks that throw before any device work (fake device arrays).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cusci/signal/iir_design.hpp"
#include "cusci/signal/multirate.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {

void run_cheby(const std::string& fn) {
  auto cases = testing::cases("signal_multirate", fn);
  REQUIRE(cases.size() >= 5);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const sig::butter_options o{.btype = sig::parse_band_type(c.get<std::string>("btype")),
                                .analog = c.get<bool>("analog"),
                                .output = sig::parse_output_form(c.get<std::string>("output")),
                                .fs = c.get<std::optional<double>>("fs")};
    const int N = c.get<int>("N");
    const double r = c.get<double>("r");
    const auto Wn = c.get<std::vector<double>>("Wn");
    auto call = [&]() { return fn == "cheby1" ? sig::cheby1(N, r, Wn, o) : sig::cheby2(N, r, Wn, o); };
    if (c.expects_error()) {
      testing::check_error(c, call);
      continue;
    }
    const sig::iir_filter f = call();
    const double rt = c.rtol(), at = c.atol();
    if (o.output == sig::output_form::ba) {
      testing::check_allclose(f.b, c.array("b"), rt, at);
      testing::check_allclose(f.a, c.array("a"), rt, at);
    } else if (o.output == sig::output_form::zpk) {
      testing::check_allclose(f.z, c.array("z"), rt, at);
      testing::check_allclose(f.p, c.array("p"), rt, at);
      CHECK(f.k == doctest::Approx(c.get<double>("k")).epsilon(1e-12));
    } else {
      testing::check_allclose(f.sos, c.array("sos"), rt, at);
    }
  }
}

}  // namespace

TEST_CASE("cheby1 matches SciPy") { run_cheby("cheby1"); }
TEST_CASE("cheby2 matches SciPy") { run_cheby("cheby2"); }

TEST_CASE("cheb1ap / cheb2ap prototypes") {
  auto f = sig::cheb1ap(4, 1.0);
  CHECK(f.z.size() == 0);
  CHECK(f.p.size() == 4);
  auto g = sig::cheb1ap(0, 3.0);
  CHECK(g.k == doctest::Approx(0.70794578438413791));  // 10 ** (-3 / 20)
  auto h = sig::cheb2ap(5, 40.0);
  CHECK(h.z.size() == 4);
  CHECK(h.p.size() == 5);
  CHECK_THROWS_AS(sig::cheb1ap(-1, 1.0), value_error);
  CHECK_THROWS_AS(sig::cheb2ap(-2, 1.0), value_error);
}

TEST_CASE("multirate option parsers take SciPy's strings") {
  CHECK(sig::parse_extension_mode("constant") == sig::extension_mode::constant);
  CHECK(sig::parse_extension_mode("ANTIREFLECT") == sig::extension_mode::antireflect);
  CHECK(sig::parse_extension_mode("line") == sig::extension_mode::line);
  CHECK_THROWS_AS(sig::parse_extension_mode("nearest"), value_error);
  CHECK(sig::parse_resample_padtype("median") == sig::resample_padtype::median);
  CHECK(sig::parse_resample_padtype("wrap") == sig::resample_padtype::wrap);
  CHECK_THROWS_AS(sig::parse_resample_padtype("odd"), value_error);
  CHECK(sig::parse_resample_domain("freq") == sig::resample_domain::freq);
  CHECK_THROWS_AS(sig::parse_resample_domain("frequency"), value_error);
  CHECK(sig::parse_decimate_ftype("fir") == sig::decimate_ftype::fir);
  CHECK_THROWS_AS(sig::parse_decimate_ftype("butter"), value_error);
}

TEST_CASE("multirate argument checks throw before device work") {
  const host_array h = host_array::from(std::vector<double>{0.25, 0.5, 0.25});
  const ndarray x = testing::fake_array(dtype::float32, {4, 10});
  const ndarray x1 = testing::fake_array(dtype::float64, {3, 1});
  const ndarray x0 = testing::fake_array(dtype::float64, {0});
  CHECK_THROWS_AS(sig::upfirdn(h, x, 0, 1), value_error);
  CHECK_THROWS_AS(sig::upfirdn(h, x, 1, 0), value_error);
  CHECK_THROWS_AS(sig::upfirdn(h, x, 1, 1, {.axis = 2}), index_error);
  CHECK_THROWS_AS(sig::upfirdn(host_array::from(std::vector<double>{}), x), value_error);
  CHECK_THROWS_AS(sig::upfirdn(host_array::from(std::vector<double>{1, 2}, {1, 2}), x), value_error);
  CHECK_THROWS_AS(sig::upfirdn(h, testing::fake_array(dtype::float32, {})), index_error);
  // Deviations: SciPy reads out of bounds or divides by zero here; cusci raises.
  CHECK_THROWS_AS(sig::upfirdn(h, x1, 2, 1, {.mode = sig::extension_mode::smooth}), value_error);
  CHECK_THROWS_AS(sig::upfirdn(h, x1, 2, 1, {.mode = sig::extension_mode::reflect}), value_error);
  CHECK_THROWS_AS(sig::upfirdn(h, x1, 2, 1, {.mode = sig::extension_mode::antireflect}), value_error);
  CHECK_THROWS_AS(sig::upfirdn(h, x0, 2, 1, {.mode = sig::extension_mode::wrap}), value_error);
  CHECK_THROWS_AS(sig::resample_poly(x, 0, 2), value_error);
  CHECK_THROWS_AS(sig::resample_poly(x, 2, 3, {.padtype = sig::resample_padtype::mean, .cval = 1.0}), value_error);
  CHECK_THROWS_AS(sig::resample_poly(x, 2, 3, {.axis = -3}), index_error);
  CHECK_THROWS_AS(sig::resample_poly(x, 2, 3, {.window = sig::filter_window("nosuchwindow")}), value_error);
  CHECK_THROWS_AS(sig::resample_poly(x, 2, 3, {.window = sig::filter_window(host_array::from(std::vector<double>(4, 1.0), {2, 2}))}),
                  value_error);
  CHECK_THROWS_AS(sig::resample(x, 0), value_error);
  CHECK_THROWS_AS(sig::resample(x, 5, {.axis = 3}), index_error);
  CHECK_THROWS_AS(sig::resample(x, 5, {.window = sig::filter_window(host_array::from(std::vector<double>(3, 1.0)))}),
                  value_error);
  CHECK_THROWS_AS(sig::resample(x, 5, host_array::from(std::vector<double>{1.0})), index_error);
  CHECK_THROWS_AS(sig::decimate(x, 0), value_error);
  CHECK_THROWS_AS(sig::decimate(x, 2, {.axis = 5}), index_error);
}
