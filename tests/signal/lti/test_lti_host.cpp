// Host tests of cusci::signal's lti family (lti_functions.hpp) against SciPy references
// (tests/golden/gen_signal_lti.py).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/lti_functions.hpp"
#include "cusci/warnings.hpp"
#include "lti_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;

namespace {

const char* const M = "signal_lti";

std::vector<case_t> ok_cases(const char* func) { return cases_in(M, func, false); }
std::vector<case_t> err_cases(const char* func) { return cases_in(M, func, true); }

/// A host array sorted as a set of complex values (real part, then imaginary part), complex128.
host_array sorted_complex(const host_array& a) {
  auto v = a.astype(dtype::complex128).to_vector<std::complex<double>>();
  std::sort(v.begin(), v.end(), [](auto x, auto y) {
    const double tx = std::round(x.real() * 1e6), ty = std::round(y.real() * 1e6);
    return tx < ty || (tx == ty && x.imag() < y.imag());
  });
  return host_array::from(v);
}

/// `a` with each column negated where that brings it closer to the same column of `ref` (same shape).
host_array column_signs_like(const host_array& a, const host_array& ref) {
  if (a.shape() != ref.shape() || a.ndim() != 2) return a;
  host_array out = a.astype(dtype::complex128);
  const host_array r = ref.astype(dtype::complex128);
  auto* po = out.data_as<std::complex<double>>();
  const auto* pr = r.data_as<std::complex<double>>();
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  for (std::int64_t j = 0; j < n; ++j) {
    double same = 0, flip = 0;
    for (std::int64_t i = 0; i < m; ++i) {
      same += std::abs(po[i * n + j] - pr[i * n + j]);
      flip += std::abs(po[i * n + j] + pr[i * n + j]);
    }
    if (flip < same)
      for (std::int64_t i = 0; i < m; ++i) po[i * n + j] = -po[i * n + j];
  }
  return out.astype(a.dtype());
}

sig::cont2discrete_options c2d_opts(const case_t& c) {
  sig::cont2discrete_options o;
  o.method = sig::parse_discretization_method(c.get<std::string>("method"));
  if (c.has("alpha")) o.alpha = c.get<double>("alpha");
  return o;
}

}  // namespace

TEST_CASE("cont2discrete matches SciPy for every method and form") {
  warning_capture quiet;  // SciPy warns BadCoefficients for the same systems
  auto cases = ok_cases("cont2discrete");
  REQUIRE(cases.size() > 200);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const auto o = c2d_opts(c);
    const double dt = c.get<double>("dt");
    const std::string form = c.get<std::string>("form");
    const bool cls = c.get<bool>("cls");
    const double rtol = c.rtol(), atol = c.atol();
    if (form == "ss") {
      if (cls) {
        sig::StateSpace d = sig::cont2discrete(sig::StateSpace(c.array("A"), c.array("B"), c.array("C"), c.array("D")), dt, o);
        REQUIRE(d.dt().has_value());
        CHECK(*d.dt() == dt);
        testing::check_allclose(d.A(), c.array("Ad"), rtol, atol);
        testing::check_allclose(d.B(), c.array("Bd"), rtol, atol);
        testing::check_allclose(d.C(), c.array("Cd"), rtol, atol);
        testing::check_allclose(d.D(), c.array("Dd"), rtol, atol);
      } else {
        auto d = sig::cont2discrete(c.array("A"), c.array("B"), c.array("C"), c.array("D"), dt, o);
        CHECK(d.dt == dt);
        testing::check_allclose(d.A, c.array("Ad"), rtol, atol);
        testing::check_allclose(d.B, c.array("Bd"), rtol, atol);
        testing::check_allclose(d.C, c.array("Cd"), rtol, atol);
        testing::check_allclose(d.D, c.array("Dd"), rtol, atol);
      }
    } else if (form == "tf") {
      auto d = sig::cont2discrete(c.array("num"), c.array("den"), dt, o);
      testing::check_allclose(d.num, c.array("num_out"), rtol, atol);
      testing::check_allclose(d.den, c.array("den_out"), rtol, atol);
      if (cls) {
        // The class form normalises the tuple's result (as SciPy's TransferFunction does).
        sig::TransferFunction t = sig::cont2discrete(sig::TransferFunction(c.array("num"), c.array("den")), dt, o);
        sig::TransferFunction ref(c.array("num_out"), c.array("den_out"), dt);
        CHECK(t.dt() == ref.dt());
        testing::check_allclose(t.num(), ref.num(), rtol, atol);
        testing::check_allclose(t.den(), ref.den(), rtol, atol);
      }
    } else {
      auto d = sig::cont2discrete(c.array("z"), c.array("p"), c.get<double>("k"), dt, o);
      const host_array ez = c.array("z_out"), ep = c.array("p_out");
      CHECK(d.zeros.dtype() == ez.dtype());
      CHECK(d.poles.dtype() == ep.dtype());
      testing::check_allclose(sorted_complex(d.zeros), sorted_complex(ez), rtol, atol);
      testing::check_allclose(sorted_complex(d.poles), sorted_complex(ep), rtol, atol);
      const double k = c.get<double>("k_out");
      CHECK(std::abs(d.gain - k) <= 1e-9 * std::max(1.0, std::abs(k)));
      if (cls) {
        sig::ZerosPolesGain zd = sig::cont2discrete(sig::ZerosPolesGain(c.array("z"), c.array("p"), c.get<double>("k")), dt, o);
        CHECK(zd.dt() == dt);
        testing::check_allclose(sorted_complex(zd.poles()), sorted_complex(ep), rtol, atol);
      }
    }
  }
}

TEST_CASE("cont2discrete of an lti returns a dlti of the same form") {
  warning_capture quiet;
  auto cases = ok_cases("cont2discrete");
  int done = 0;
  for (const auto& c : cases) {
    if (c.get<std::string>("form") != "ss" || done > 5) continue;
    CAPTURE(c.name());
    sig::dlti d = sig::cont2discrete(system_of(c), c.get<double>("dt"), c2d_opts(c));
    CHECK(d.form() == sig::lti_form::ss);
    CHECK(d.dt() == c.get<double>("dt"));
    testing::check_allclose(d.to_ss().A(), c.array("Ad"), c.rtol(), c.atol());
    ++done;
  }
  CHECK(done > 0);
}

TEST_CASE("cont2discrete rejects what SciPy rejects") {
  warning_capture quiet;
  auto cases = err_cases("cont2discrete");
  REQUIRE(cases.size() >= 5);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      sig::cont2discrete(c.array("A"), c.array("B"), c.array("C"), c.array("D"), c.get<double>("dt"), c2d_opts(c));
    });
  }
  sig::StateSpace d = sig::cont2discrete(sig::StateSpace(host_array::from(std::vector<double>{-1.0}, {1, 1}),
                                                         host_array::from(std::vector<double>{1.0}, {1, 1}),
                                                         host_array::from(std::vector<double>{1.0}, {1, 1}),
                                                         host_array::from(std::vector<double>{0.0}, {1, 1})),
                                         0.1);
  CHECK_THROWS_AS(sig::cont2discrete(d, 0.1), value_error);  // already discrete
  // complex systems: documented as not supported
  const host_array one_c = host_array::from(std::vector<std::complex<double>>{{-1.0, 1.0}}, {1, 1});
  const host_array one = host_array::from(std::vector<double>{1.0}, {1, 1});
  CHECK_THROWS_AS(sig::cont2discrete(one_c, one, one, one, 0.1), not_implemented_error);
  CHECK_THROWS_AS(sig::place_poles(one_c, one, host_array::from(std::vector<double>{-1.0})), not_implemented_error);
}

namespace {
sig::place_poles_options pp_opts(const case_t& c) {
  sig::place_poles_options o;
  o.method = sig::parse_place_poles_method(c.get<std::string>("method"));
  o.rtol = c.get<double>("rtol_opt");
  o.maxiter = c.get<int>("maxiter");
  return o;
}
}  // namespace

TEST_CASE("place_poles matches SciPy (YT, KNV0, rank-1 and full-row-rank B)") {
  auto cases = ok_cases("place_poles");
  REQUIRE(cases.size() > 20);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    warning_capture wc;
    auto r = sig::place_poles(c.array("A"), c.array("B"), c.array("poles"), pp_opts(c));
    CHECK(wc.has("UserWarning") == c.get<bool>("warns"));
    testing::check_allclose(r.gain_matrix, c.array("gain_matrix"), c.rtol(), c.atol());
    testing::check_allclose(r.requested_poles, c.array("requested_poles"), 1e-15, 0);
    testing::check_allclose(r.computed_poles, c.array("computed_poles"), 1e-7, 1e-7);
    // X's columns are compared up to sign: SciPy's sweeps end up projecting onto nearly orthogonal vectors,
    // where rounding (or LAPACK's SVD sign convention) decides a column's sign; K does not depend on it.
    testing::check_allclose(column_signs_like(r.X, c.array("X")), c.array("X"), 1e-7, 1e-7);
    if (c.has("rtol_out")) {
      CHECK(std::abs(r.rtol - c.get<double>("rtol_out")) <= 1e-6 + 1e-4 * std::abs(c.get<double>("rtol_out")));
    } else {
      CHECK(std::isnan(r.rtol));
    }
    if (c.has("nb_iter")) {
      REQUIRE(r.nb_iter.has_value());
      CHECK(*r.nb_iter == c.get<std::int64_t>("nb_iter"));
    } else {
      CHECK(!r.nb_iter.has_value());
    }
  }
}

TEST_CASE("place_poles rejects what SciPy rejects") {
  auto cases = err_cases("place_poles");
  REQUIRE(cases.size() >= 9);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    warning_capture wc;
    testing::check_error(c, [&] { sig::place_poles(c.array("A"), c.array("B"), c.array("poles"), pp_opts(c)); });
  }
  CHECK_THROWS_AS(sig::parse_place_poles_method("KNV"), value_error);
  CHECK_THROWS_AS(sig::parse_discretization_method("zero"), value_error);
}

namespace {
std::optional<host_array> opt_array(const case_t& c, const char* key) {
  if (!c.has(key)) return std::nullopt;
  return c.array(key);
}
}  // namespace

TEST_CASE("freqresp and bode match SciPy on default and explicit grids") {
  warning_capture quiet;
  auto cases = ok_cases("freqresp");
  REQUIRE(cases.size() >= 20);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto r = sig::freqresp(system_of(c), opt_array(c, "w"), c.get<std::int64_t>("n"));
    testing::check_allclose(r.w, c.array("w_out"), 1e-12, 0);
    testing::check_allclose(r.h, c.array("h"), c.rtol(), c.atol());
  }
  auto bcases = ok_cases("bode");
  REQUIRE(bcases.size() >= 20);
  for (const auto& c : bcases) {
    CAPTURE(c.name());
    auto r = sig::bode(system_of(c), opt_array(c, "w"), c.get<std::int64_t>("n"));
    testing::check_allclose(r.w, c.array("w_out"), 1e-12, 0);
    testing::check_allclose(r.mag, c.array("mag"), c.rtol(), c.atol());
    testing::check_allclose(r.phase, c.array("phase"), c.rtol(), c.atol());
  }
  for (const auto& c : err_cases("freqresp")) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { sig::freqresp(system_of(c), std::nullopt, c.get<std::int64_t>("n")); });
  }
}

TEST_CASE("dfreqresp and dbode match SciPy") {
  warning_capture quiet;
  auto cases = ok_cases("dfreqresp");
  REQUIRE(cases.size() >= 30);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto r = sig::dfreqresp(dsystem_of(c), {.w = opt_array(c, "w"), .n = c.get<std::int64_t>("n"), .whole = c.get<bool>("whole")});
    testing::check_allclose(r.w, c.array("w_out"), 1e-12, 1e-15);
    testing::check_allclose(r.h, c.array("h"), c.rtol(), c.atol());
  }
  auto bcases = ok_cases("dbode");
  REQUIRE(bcases.size() >= 20);
  for (const auto& c : bcases) {
    CAPTURE(c.name());
    auto r = sig::dbode(dsystem_of(c), opt_array(c, "w"), c.get<std::int64_t>("n"));
    testing::check_allclose(r.w, c.array("w_out"), 1e-12, 1e-15);
    testing::check_allclose(r.mag, c.array("mag"), c.rtol(), c.atol());
    testing::check_allclose(r.phase, c.array("phase"), c.rtol(), c.atol());
  }
  for (const auto& c : err_cases("dfreqresp")) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { sig::dfreqresp(dsystem_of(c), {.n = c.get<std::int64_t>("n")}); });
  }
}

TEST_CASE("impulse and step match SciPy (default grid, N, T, X0)") {
  warning_capture quiet;
  for (const char* func : {"impulse", "step"}) {
    auto cases = ok_cases(func);
    REQUIRE(cases.size() >= 20);
    for (const auto& c : cases) {
      CAPTURE(c.name());
      sig::impulse_options o{.X0 = opt_array(c, "X0"), .T = opt_array(c, "T")};
      if (c.has("N")) o.N = c.get<std::int64_t>("N");
      auto r = std::string(func) == "impulse" ? sig::impulse(system_of(c), o) : sig::step(system_of(c), o);
      testing::check_allclose(r.T, c.array("T_out"), 1e-12, 1e-14);
      testing::check_allclose(r.yout, c.array("yout"), c.rtol(), c.atol());
    }
    for (const auto& c : err_cases(func)) {
      CAPTURE(c.name());
      sig::impulse_options o{.X0 = opt_array(c, "X0"), .T = opt_array(c, "T")};
      if (c.has("N")) o.N = c.get<std::int64_t>("N");
      testing::check_error(c, [&] {
        if (std::string(func) == "impulse")
          sig::impulse(system_of(c), o);
        else
          sig::step(system_of(c), o);
      });
    }
  }
}

TEST_CASE("lsim matches SciPy (interp, zero-order hold, X0, T[0] > 0, no input, one step)") {
  warning_capture quiet;
  auto cases = ok_cases("lsim");
  REQUIRE(cases.size() >= 40);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto r = sig::lsim(system_of(c), opt_array(c, "U"), c.array("T"),
                       {.X0 = opt_array(c, "X0"), .interp = c.get<bool>("interp")});
    testing::check_allclose(r.tout, c.array("tout"), 0, 0);
    testing::check_allclose(r.yout, c.array("yout"), c.rtol(), c.atol());
    testing::check_allclose(r.xout, c.array("xout"), c.rtol(), c.atol());
  }
  auto errs = err_cases("lsim");
  REQUIRE(errs.size() >= 5);
  for (const auto& c : errs) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { sig::lsim(system_of(c), opt_array(c, "U"), c.array("T")); });
  }
}

TEST_CASE("dlsim, dimpulse and dstep match SciPy") {
  warning_capture quiet;
  auto cases = ok_cases("dlsim");
  REQUIRE(cases.size() >= 30);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto r = sig::dlsim(dsystem_of(c), c.array("u"), {.t = opt_array(c, "t"), .x0 = opt_array(c, "x0")});
    testing::check_allclose(r.tout, c.array("tout"), 1e-14, 1e-15);
    testing::check_allclose(r.yout, c.array("yout"), c.rtol(), c.atol());
    if (c.has("xout"))
      testing::check_allclose(r.xout, c.array("xout"), c.rtol(), c.atol());
    else
      CHECK(r.xout.size() == 0);
  }
  for (const char* func : {"dimpulse", "dstep"}) {
    auto dc = ok_cases(func);
    REQUIRE(dc.size() >= 20);
    for (const auto& c : dc) {
      CAPTURE(c.name());
      sig::dimpulse_options o{.x0 = opt_array(c, "x0"), .t = opt_array(c, "t")};
      if (c.has("n")) o.n = c.get<std::int64_t>("n");
      auto r = std::string(func) == "dimpulse" ? sig::dimpulse(dsystem_of(c), o) : sig::dstep(dsystem_of(c), o);
      testing::check_allclose(r.t, c.array("t_out"), 1e-14, 1e-15);
      const auto ni = c.get<std::int64_t>("n_inputs");
      REQUIRE(static_cast<std::int64_t>(r.yout.size()) == ni);
      for (std::int64_t i = 0; i < ni; ++i)
        testing::check_allclose(r.yout[i], c.array("yout_" + std::to_string(i)), c.rtol(), c.atol());
    }
  }
}
