// Host tests of cusci::signal's conversions family against SciPy references
// (tests/golden/gen_signal_conversions.py): representation conversions, normalize, the bilinear and
// frequency transformations, partial fractions and the LTI classes, with SciPy's BadCoefficients warning.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/conversions.hpp"
#include "cusci/signal/lti.hpp"
#include "cusci/warnings.hpp"
#include "../signal_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;
using cplx = std::complex<double>;

namespace {

const std::string M = "signal_conversions";

std::vector<cplx> values(const host_array& a) {
  host_array c = a.astype(dtype::complex128);
  const auto* p = c.data_as<std::complex<double>>();
  return std::vector<cplx>(p, p + c.size());
}

double max_abs(const std::vector<cplx>& v) {
  double m = 0;
  for (const auto& x : v)
    if (std::isfinite(std::abs(x))) m = std::max(m, std::abs(x));
  return m;
}

bool contains(const case_t& c, const std::string& list, const std::string& name) {
  if (!c.has(list)) return false;
  for (const auto& s : c.get<std::vector<std::string>>(list))
    if (s == name) return true;
  return false;
}

/// Greedy matching of roots: each expected root to the nearest unused actual one (ties: the first).
std::vector<std::size_t> match(const std::vector<cplx>& act, const std::vector<cplx>& exp) {
  std::vector<std::size_t> m(exp.size());
  std::vector<char> used(act.size(), 0);
  for (std::size_t i = 0; i < exp.size(); ++i) {
    std::size_t best = act.size();
    double bd = 0;
    for (std::size_t j = 0; j < act.size(); ++j) {
      if (used[j]) continue;
      const double d = std::abs(act[j] - exp[i]);
      if (best == act.size() || d < bd) {
        best = j;
        bd = d;
      }
    }
    m[i] = best;
    if (best < act.size()) used[best] = 1;
  }
  return m;
}

void check_set(const host_array& actual, const host_array& expected, double rtol, const std::string& what) {
  CAPTURE(what);
  CHECK_MESSAGE(actual.dtype() == expected.dtype(),
                "dtype " << dtype_name(actual.dtype()) << " != expected " << dtype_name(expected.dtype()));
  REQUIRE_MESSAGE(actual.shape() == expected.shape(), "shape mismatch");
  const auto a = values(actual), e = values(expected);
  const double atol = rtol * std::max(max_abs(e), 1e-300);
  const auto m = match(a, e);
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double err = std::abs(a[m[i]] - e[i]);
    CHECK_MESSAGE(err <= atol + rtol * std::abs(e[i]), what << "[" << i << "]: expected " << e[i] << ", nearest "
                                                            << a[m[i]] << " (rtol " << rtol << ")");
  }
}

/// Compares output `name` of case c: as a set for the roots the case lists, else elementwise with an
/// absolute tolerance relative to the largest expected magnitude.
void check_out(const case_t& c, const std::string& name, const host_array& actual) {
  const host_array expected = c.array("out_" + name);
  if (contains(c, "roots", name)) return check_set(actual, expected, c.rtol(), name);
  CAPTURE(name);
  const double scale = max_abs(values(expected));
  testing::check_allclose(actual, expected, c.rtol(), c.rtol() * (scale > 0 ? scale : 1.0));
}

void check_k(const case_t& c, const std::string& name, double k) {
  const double e = c.get<double>("out_" + name);
  CHECK_MESSAGE(std::abs(k - e) <= c.rtol() * std::max(std::abs(e), 1e-300) + 1e-300,
                name << ": got " << k << ", expected " << e);
}

void check_zpk(const case_t& c, const sig::zpk_coeffs& f, const std::string& prefix = "") {
  check_out(c, prefix + "z", f.z);
  check_out(c, prefix + "p", f.p);
  check_k(c, prefix + "k", f.k);
}

void check_ss(const case_t& c, const sig::ss_coeffs& s, const std::string& prefix = "") {
  check_out(c, prefix + "A", s.A);
  check_out(c, prefix + "B", s.B);
  check_out(c, prefix + "C", s.C);
  check_out(c, prefix + "D", s.D);
}

host_array in(const case_t& c, const std::string& key) { return c.array("in_" + key); }
std::optional<host_array> opt_in(const case_t& c, const std::string& key) {
  if (!c.has("in_" + key)) return std::nullopt;
  return in(c, key);
}
std::optional<double> dt_of(const case_t& c) {
  if (!c.has("dt")) return std::nullopt;
  return c.get<double>("dt");
}

sig::zpk2sos_options sos_opts(const case_t& c) {
  sig::zpk2sos_options o;
  if (c.has("pairing")) o.pairing = sig::parse_sos_pairing(c.get<std::string>("pairing"));
  o.analog = c.get_or<bool>("analog", false);
  return o;
}

sig::residue_options res_opts(const case_t& c) {
  return {.tol = c.get<double>("tol"), .rtype = sig::parse_root_type(c.get<std::string>("rtype"))};
}

using runner = std::function<void(const case_t&)>;

/// Runs every case of func: those expecting a result through `run` (checking the BadCoefficients
/// warning against SciPy's), those expecting an error through check_error.
void run_cases(const std::string& func, const runner& run, std::size_t min_cases = 1) {
  const auto ok = cases_in(M, func), bad = cases_in(M, func, true);
  REQUIRE(ok.size() + bad.size() >= min_cases);
  for (const auto& c : ok) {
    CAPTURE(c.name());
    warning_capture w;
    run(c);
    CHECK_MESSAGE(w.has("BadCoefficients") == c.get<bool>("warns"), "BadCoefficients issued: " << w.has("BadCoefficients"));
  }
  for (const auto& c : bad) {
    CAPTURE(c.name());
    warning_capture w;
    testing::check_error(c, [&] { run(c); });
  }
}

}  // namespace

TEST_CASE("normalize") {
  run_cases("normalize", [](const case_t& c) {
    auto r = sig::normalize(in(c, "b"), in(c, "a"));
    check_out(c, "b", r.b);
    check_out(c, "a", r.a);
  }, 10);
}

TEST_CASE("tf2zpk") {
  run_cases("tf2zpk", [](const case_t& c) { check_zpk(c, sig::tf2zpk(in(c, "b"), in(c, "a"))); }, 20);
}

TEST_CASE("zpk2tf with N-D numerators") {
  run_cases("zpk2tf", [](const case_t& c) {
    auto r = sig::zpk2tf(in(c, "z"), in(c, "p"), in(c, "k"));
    check_out(c, "b", r.b);
    check_out(c, "a", r.a);
  }, 8);
}

TEST_CASE("tf2sos, sos2tf, sos2zpk") {
  run_cases("tf2sos", [](const case_t& c) { check_out(c, "sos", sig::tf2sos(in(c, "b"), in(c, "a"), sos_opts(c))); }, 5);
  run_cases("sos2tf", [](const case_t& c) {
    auto r = sig::sos2tf(in(c, "sos"));
    check_out(c, "b", r.b);
    check_out(c, "a", r.a);
  }, 5);
  run_cases("sos2zpk", [](const case_t& c) { check_zpk(c, sig::sos2zpk(in(c, "sos"))); }, 5);
}

TEST_CASE("state space: abcd_normalize, tf2ss, ss2tf, zpk2ss, ss2zpk") {
  run_cases("abcd_normalize", [](const case_t& c) {
    check_ss(c, sig::abcd_normalize(opt_in(c, "A"), opt_in(c, "B"), opt_in(c, "C"), opt_in(c, "D")));
  }, 5);
  run_cases("tf2ss", [](const case_t& c) { check_ss(c, sig::tf2ss(in(c, "num"), in(c, "den"))); }, 5);
  run_cases("ss2tf", [](const case_t& c) {
    auto r = sig::ss2tf(in(c, "A"), in(c, "B"), in(c, "C"), in(c, "D"), c.get<std::int64_t>("input"));
    check_out(c, "num", r.b);
    check_out(c, "den", r.a);
  }, 10);
  run_cases("zpk2ss", [](const case_t& c) { check_ss(c, sig::zpk2ss(in(c, "z"), in(c, "p"), c.get<double>("k"))); }, 3);
  run_cases("ss2zpk", [](const case_t& c) {
    check_zpk(c, sig::ss2zpk(in(c, "A"), in(c, "B"), in(c, "C"), in(c, "D"), c.get<std::int64_t>("input")));
  }, 5);
}

TEST_CASE("bilinear and the frequency transformations") {
  auto ba = [](const sig::ba_coeffs& r, const case_t& c) {
    check_out(c, "b", r.b);
    check_out(c, "a", r.a);
  };
  run_cases("bilinear", [&](const case_t& c) { ba(sig::bilinear(in(c, "b"), in(c, "a"), c.get<double>("fs")), c); }, 20);
  run_cases("lp2lp", [&](const case_t& c) { ba(sig::lp2lp(in(c, "b"), in(c, "a"), c.get<double>("wo")), c); }, 20);
  run_cases("lp2hp", [&](const case_t& c) { ba(sig::lp2hp(in(c, "b"), in(c, "a"), c.get<double>("wo")), c); }, 20);
  run_cases("lp2bp", [&](const case_t& c) {
    ba(sig::lp2bp(in(c, "b"), in(c, "a"), c.get<double>("wo"), c.get<double>("bw")), c);
  }, 20);
  run_cases("lp2bs", [&](const case_t& c) {
    ba(sig::lp2bs(in(c, "b"), in(c, "a"), c.get<double>("wo"), c.get<double>("bw")), c);
  }, 20);
  run_cases("bilinear_zpk", [](const case_t& c) {
    check_zpk(c, sig::bilinear_zpk(in(c, "z"), in(c, "p"), c.get<double>("k"), c.get<double>("fs")));
  }, 10);
  run_cases("lp2lp_zpk", [](const case_t& c) {
    check_zpk(c, sig::lp2lp_zpk(in(c, "z"), in(c, "p"), c.get<double>("k"), c.get<double>("wo")));
  }, 10);
  run_cases("lp2hp_zpk", [](const case_t& c) {
    check_zpk(c, sig::lp2hp_zpk(in(c, "z"), in(c, "p"), c.get<double>("k"), c.get<double>("wo")));
  }, 10);
  run_cases("lp2bp_zpk", [](const case_t& c) {
    check_zpk(c, sig::lp2bp_zpk(in(c, "z"), in(c, "p"), c.get<double>("k"), c.get<double>("wo"), c.get<double>("bw")));
  }, 10);
  run_cases("lp2bs_zpk", [](const case_t& c) {
    check_zpk(c, sig::lp2bs_zpk(in(c, "z"), in(c, "p"), c.get<double>("k"), c.get<double>("wo"), c.get<double>("bw")));
  }, 10);
}

namespace {
/// Residues compared as (pole, residue) pairs matched by pole (poles of equal magnitude have no order
/// SciPy defines); k elementwise.
void check_residue(const case_t& c, const sig::residue_result& r) {
  const host_array ep = c.array("out_p"), er = c.array("out_r");
  CHECK(r.p.dtype() == ep.dtype());
  CHECK(r.r.dtype() == er.dtype());
  REQUIRE(r.p.shape() == ep.shape());
  REQUIRE(r.r.shape() == er.shape());
  const auto ap = values(r.p), ar = values(r.r), pe = values(ep), re = values(er);
  const auto m = match(ap, pe);
  const double rt = c.rtol(), pat = rt * std::max(max_abs(pe), 1e-300), rat = rt * std::max(max_abs(re), 1e-300);
  for (std::size_t i = 0; i < pe.size(); ++i) {
    CHECK_MESSAGE(std::abs(ap[m[i]] - pe[i]) <= pat + rt * std::abs(pe[i]), "pole " << i << ": " << ap[m[i]] << " vs " << pe[i]);
    CHECK_MESSAGE(std::abs(ar[m[i]] - re[i]) <= rat + rt * std::abs(re[i]), "residue " << i << ": " << ar[m[i]] << " vs " << re[i]);
  }
  check_out(c, "k", r.k);
}
}  // namespace

TEST_CASE("unique_roots, residue, residuez, invres, invresz") {
  run_cases("unique_roots", [](const case_t& c) {
    auto r = sig::unique_roots(in(c, "p"), {.tol = c.get<double>("tol"), .rtype = sig::parse_root_type(c.get<std::string>("rtype"))});
    check_out(c, "unique", r.unique);
    check_out(c, "multiplicity", r.multiplicity);
  }, 20);
  run_cases("residue", [](const case_t& c) { check_residue(c, sig::residue(in(c, "b"), in(c, "a"), res_opts(c))); }, 20);
  run_cases("residuez", [](const case_t& c) { check_residue(c, sig::residuez(in(c, "b"), in(c, "a"), res_opts(c))); }, 20);
  auto ba = [](const sig::ba_coeffs& r, const case_t& c) {
    check_out(c, "b", r.b);
    check_out(c, "a", r.a);
  };
  run_cases("invres", [&](const case_t& c) { ba(sig::invres(in(c, "r"), in(c, "p"), in(c, "k"), res_opts(c)), c); }, 10);
  run_cases("invresz", [&](const case_t& c) { ba(sig::invresz(in(c, "r"), in(c, "p"), in(c, "k"), res_opts(c)), c); }, 10);
}

TEST_CASE("LTI classes: construction and conversions") {
  run_cases("TransferFunction", [](const case_t& c) {
    sig::TransferFunction t(in(c, "num"), in(c, "den"), dt_of(c));
    CHECK(t.dt() == dt_of(c));
    check_out(c, "num", t.num());
    check_out(c, "den", t.den());
    if (c.get_or<bool>("simo", false)) {  // several outputs: state space only, as SciPy
      CHECK(t.outputs() == in(c, "num").shape()[0]);
      const auto s = t.to_ss();
      CHECK(s.dt() == dt_of(c));
      check_ss(c, {s.A(), s.B(), s.C(), s.D()}, "ss_");
      CHECK_THROWS_AS(t.to_zpk(), cusci::value_error);
      CHECK_THROWS_AS(t.poles(), cusci::value_error);
      return;
    }
    const auto z = t.to_zpk();
    CHECK(z.dt() == dt_of(c));
    check_zpk(c, {z.zeros(), z.poles(), z.gain()}, "zpk_");
    const auto s = t.to_ss();
    CHECK(s.dt() == dt_of(c));
    check_ss(c, {s.A(), s.B(), s.C(), s.D()}, "ss_");
    check_out(c, "poles", t.poles());
    check_out(c, "zeros", t.zeros());
    // the wrappers
    if (dt_of(c)) {
      sig::dlti d(t);
      CHECK(d.dt() == *dt_of(c));
      CHECK(d.form() == sig::lti_form::tf);
      check_out(c, "poles", d.poles());
      CHECK_THROWS_AS(sig::lti{t}, cusci::value_error);
    } else {
      sig::lti l(in(c, "num"), in(c, "den"));
      CHECK(l.form() == sig::lti_form::tf);
      check_out(c, "zeros", l.zeros());
      const auto s2 = l.to_ss();
      check_ss(c, {s2.A(), s2.B(), s2.C(), s2.D()}, "ss_");
      CHECK_THROWS_AS(sig::dlti{t}, cusci::value_error);
    }
  }, 4);
  run_cases("ZerosPolesGain", [](const case_t& c) {
    sig::ZerosPolesGain z(in(c, "z"), in(c, "p"), c.get<double>("k"), dt_of(c));
    check_zpk(c, {z.zeros(), z.poles(), z.gain()});
    const auto t = z.to_tf();
    CHECK(t.dt() == dt_of(c));
    check_out(c, "tf_num", t.num());
    check_out(c, "tf_den", t.den());
    const auto s = z.to_ss();
    check_ss(c, {s.A(), s.B(), s.C(), s.D()}, "ss_");
    if (dt_of(c)) {
      sig::dlti d(in(c, "z"), in(c, "p"), c.get<double>("k"), {.dt = *dt_of(c)});
      CHECK(d.form() == sig::lti_form::zpk);
      const auto t2 = d.to_tf();
      check_out(c, "tf_num", t2.num());
    } else {
      sig::lti l(in(c, "z"), in(c, "p"), c.get<double>("k"));
      CHECK(l.form() == sig::lti_form::zpk);
      const auto s2 = l.to_ss();
      check_ss(c, {s2.A(), s2.B(), s2.C(), s2.D()}, "ss_");
    }
  }, 4);
  run_cases("StateSpace", [](const case_t& c) {
    sig::StateSpace s(in(c, "A"), in(c, "B"), in(c, "C"), in(c, "D"), dt_of(c));
    check_ss(c, {s.A(), s.B(), s.C(), s.D()});
    CHECK(s.inputs() == in(c, "D").shape()[1]);
    CHECK(s.outputs() == in(c, "D").shape()[0]);
    const auto t = s.to_tf();
    CHECK(t.dt() == dt_of(c));
    check_out(c, "tf_num", t.num());
    check_out(c, "tf_den", t.den());
    if (in(c, "D").shape()[0] == 1) {
      const auto z = s.to_zpk();
      check_zpk(c, {z.zeros(), z.poles(), z.gain()}, "zpk_");
      check_out(c, "poles", s.poles());
    } else {
      CHECK_THROWS_AS(s.poles(), cusci::value_error);  // as SciPy: to_zpk of several outputs
    }
    if (dt_of(c)) {
      sig::dlti d(in(c, "A"), in(c, "B"), in(c, "C"), in(c, "D"), {.dt = *dt_of(c)});
      CHECK(d.form() == sig::lti_form::ss);
      CHECK(d.dt() == *dt_of(c));
    } else {
      sig::lti l(s);
      CHECK(l.form() == sig::lti_form::ss);
      CHECK(!l.dt());
      check_out(c, "tf_num", l.to_tf().num());
    }
  }, 4);
}

TEST_CASE("conversions: deviations and checks beyond SciPy's references") {
  // A complex gain cannot be returned in zpk_coeffs: rejected, not truncated.
  const auto b = host_array::from(std::vector<cplx>{cplx(0, 1), 2.0, 1.0});
  const auto a = host_array::from(std::vector<double>{1.0, 3.0, 2.0});
  CHECK_THROWS_AS(sig::tf2zpk(b, a), cusci::not_implemented_error);
  // parse_root_type accepts SciPy's six spellings only
  CHECK(sig::parse_root_type("maximum") == sig::root_type::max);
  CHECK(sig::parse_root_type("mean") == sig::root_type::avg);
  CHECK_THROWS_AS(sig::parse_root_type("median"), cusci::value_error);
  // sos of a wrong shape
  CHECK_THROWS_AS(sig::sos2tf(host_array(dtype::float64, shape_t{2, 5})), cusci::value_error);
  CHECK_THROWS_AS(sig::sos2zpk(host_array(dtype::float64, shape_t{6})), cusci::value_error);
  // the BadCoefficients warning names the function and carries SciPy's message
  {
    warning_capture w;
    sig::normalize(host_array::from(std::vector<double>{1e-16, 1.0}), host_array::from(std::vector<double>{1.0}));
    const auto ws = w.warnings();
    REQUIRE(ws.size() == 1);
    CHECK(ws[0].category == "BadCoefficients");
    CHECK(ws[0].function == "cusci::signal::normalize");
    CHECK(ws[0].message.find("Badly conditioned filter coefficients") != std::string::npos);
  }
  // lti defaults and form access
  sig::dlti d(host_array::from(std::vector<double>{1.0}), host_array::from(std::vector<double>{1.0, -0.5}));
  CHECK(d.dt() == 1.0);
  CHECK(std::holds_alternative<sig::TransferFunction>(d.system()));
  sig::StateSpace e;
  CHECK(e.nstates() == 0);
}
