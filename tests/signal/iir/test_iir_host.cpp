// Host tests of cusci::signal's IIR design (iir_design.hpp and butter) against SciPy 1.18.1 references
// (tests/golden/gen_signal_iir.py): every ftype / btype / output / analog / fs combination of iirfilter
// and the design functions, the prototypes, order selection, band_stop_obj, iirdesign, notch / peak /
// comb / gammatone filters, output dtypes, and the errors SciPy raises.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/signal/iir_design.hpp"
#include "cusci/warnings.hpp"
#include "design/iir_internal.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sig = cusci::signal;
using case_t = testing::golden_case;

namespace {

const char* M = "signal_iir";

std::vector<case_t> cases_of(const std::string& func, bool errors) {
  std::vector<case_t> out;
  for (const auto& c : testing::cases(M, func))
    if (c.expects_error() == errors) out.push_back(c);
  return out;
}

void check_dtypes(const case_t& c, std::initializer_list<const host_array*> arrs) {
  const auto names = c.get<std::vector<std::string>>("dtypes");
  REQUIRE(names.size() == arrs.size());
  std::size_t i = 0;
  for (const host_array* a : arrs) {
    CHECK_MESSAGE(std::string(dtype_name(a->dtype())) == names[i], "array " << i << ": dtype " << dtype_name(a->dtype())
                                                                             << " != SciPy's " << names[i]);
    ++i;
  }
}

// Compares a design's output form with SciPy's (values and dtypes).
void check_design(const case_t& c, const sig::iir_filter& f, sig::output_form out) {
  const double rt = c.rtol(), at = c.atol();
  CHECK(f.output == out);
  switch (out) {
    case sig::output_form::ba:
      testing::check_allclose(f.b, c.array("b"), rt, at, false);
      testing::check_allclose(f.a, c.array("a"), rt, at, false);
      check_dtypes(c, {&f.b, &f.a});
      break;
    case sig::output_form::zpk: {
      testing::check_allclose(f.z, c.array("z"), rt, at, false);
      testing::check_allclose(f.p, c.array("p"), rt, at, false);
      check_dtypes(c, {&f.z, &f.p});
      const double k = c.get<double>("k");
      if (std::isnan(k))
        CHECK(std::isnan(f.k));
      else
        CHECK_MESSAGE(std::abs(f.k - k) <= rt * std::abs(k) + 1e-300, "k " << f.k << " != " << k);
      break;
    }
    case sig::output_form::sos:
      testing::check_allclose(f.sos, c.array("sos"), rt, at, false);
      check_dtypes(c, {&f.sos});
      break;
  }
}

sig::iir_filter call_iir(const case_t& c) {
  const int N = c.get<int>("N");
  const auto Wn = c.get<std::vector<double>>("Wn");
  const auto rp = c.get<std::optional<double>>("rp");
  const auto rs = c.get<std::optional<double>>("rs");
  const auto btype = sig::parse_band_type(c.get<std::string>("btype"));
  const bool analog = c.get<bool>("analog");
  const auto ftype = sig::parse_iir_ftype(c.get<std::string>("ftype"));
  const auto output = sig::parse_output_form(c.get<std::string>("output"));
  const auto fs = c.get<std::optional<double>>("fs");
  const std::string via = c.get<std::string>("via");
  const sig::butter_options bo{.btype = btype, .analog = analog, .output = output, .fs = fs};
  if (via == "butter") return sig::butter(N, Wn, bo);
  if (via == "cheby1") return sig::cheby1(N, *rp, Wn, bo);
  if (via == "cheby2") return sig::cheby2(N, *rs, Wn, bo);
  if (via == "ellip") return sig::ellip(N, *rp, *rs, Wn, bo);
  if (via == "bessel") {
    const sig::bessel_norm norm = ftype == sig::iir_ftype::bessel_delay ? sig::bessel_norm::delay
                                  : ftype == sig::iir_ftype::bessel_mag ? sig::bessel_norm::mag
                                                                        : sig::bessel_norm::phase;
    return sig::bessel(N, Wn, {.btype = btype, .analog = analog, .output = output, .norm = norm, .fs = fs});
  }
  return sig::iirfilter(
      N, Wn, {.rp = rp, .rs = rs, .btype = btype, .analog = analog, .ftype = ftype, .output = output, .fs = fs});
}

}  // namespace

TEST_CASE("iirfilter and the design functions match SciPy for every ftype, btype, output and fs") {
  auto cases = cases_of("iirfilter", false);
  REQUIRE(cases.size() > 600);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    CAPTURE(c.get<std::string>("ftype"));
    CAPTURE(c.get<std::string>("via"));
    check_design(c, call_iir(c), sig::parse_output_form(c.get<std::string>("output")));
  }
}

TEST_CASE("iirfilter rejects what SciPy rejects") {
  auto cases = cases_of("iirfilter", true);
  REQUIRE(cases.size() >= 20);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { call_iir(c); });
  }
}

TEST_CASE("analog prototypes match SciPy") {
  auto cases = testing::cases(M, "proto");
  REQUIRE(cases.size() > 80);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const std::string which = c.get<std::string>("which");
    CAPTURE(which);
    const int N = c.get<int>("N");
    auto call = [&]() -> sig::zpk_coeffs {
      if (which == "buttap") return sig::buttap(N);
      if (which == "cheb1ap") return sig::cheb1ap(N, c.get<double>("rp"));
      if (which == "cheb2ap") return sig::cheb2ap(N, c.get<double>("rs"));
      if (which == "ellipap") return sig::ellipap(N, c.get<double>("rp"), c.get<double>("rs"));
      return sig::besselap(N, sig::parse_bessel_norm(c.get<std::string>("norm")));
    };
    if (c.expects_error()) {
      testing::check_error(c, [&] { call(); });
      continue;
    }
    const sig::zpk_coeffs z = call();
    sig::iir_filter f;
    f.output = sig::output_form::zpk;
    f.z = z.z;
    f.p = z.p;
    f.k = z.k;
    check_design(c, f, sig::output_form::zpk);
  }
}

TEST_CASE("order selection matches SciPy") {
  auto cases = testing::cases(M, "ord");
  REQUIRE(cases.size() > 80);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const std::string which = c.get<std::string>("which");
    CAPTURE(which);
    const auto wp = c.get<std::vector<double>>("wp"), ws = c.get<std::vector<double>>("ws");
    const double gp = c.get<double>("gpass"), gs = c.get<double>("gstop");
    const sig::iirord_options o{.analog = c.get<bool>("analog"), .fs = c.get<std::optional<double>>("fs")};
    auto call = [&] {
      if (which == "buttord") return sig::buttord(wp, ws, gp, gs, o);
      if (which == "cheb1ord") return sig::cheb1ord(wp, ws, gp, gs, o);
      if (which == "cheb2ord") return sig::cheb2ord(wp, ws, gp, gs, o);
      return sig::ellipord(wp, ws, gp, gs, o);
    };
    if (c.expects_error()) {
      testing::check_error(c, [&] { call(); });
      continue;
    }
    warning_capture cap;
    const sig::iir_order r = call();
    CHECK(r.N == c.get<int>("N"));
    const auto Wn = c.get<std::vector<double>>("Wn_expected");
    REQUIRE(r.Wn.size() == Wn.size());
    for (std::size_t i = 0; i < Wn.size(); ++i)
      CHECK_MESSAGE(std::abs(r.Wn[i] - Wn[i]) <= c.rtol() * std::abs(Wn[i]) + c.atol(), "Wn[" << i << "] " << r.Wn[i]
                                                                                           << " != " << Wn[i]);
    CHECK(cap.has("RuntimeWarning") == c.get<bool>("warned"));
  }
}

TEST_CASE("band_stop_obj matches SciPy") {
  auto cases = testing::cases(M, "band_stop_obj");
  REQUIRE(cases.size() >= 9);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    auto call = [&] {
      return sig::band_stop_obj(c.get<double>("wp"), c.get<int>("ind"), c.get<std::vector<double>>("passb"),
                                c.get<std::vector<double>>("stopb"), c.get<double>("gpass"), c.get<double>("gstop"),
                                sig::parse_band_stop_type(c.get<std::string>("type")));
    };
    if (c.expects_error()) {
      testing::check_error(c, [&] { call(); });
      continue;
    }
    const double e = c.get<double>("expected");
    CHECK(call() == doctest::Approx(e).epsilon(1e-10));
  }
}

TEST_CASE("iirdesign matches SciPy") {
  auto cases = testing::cases(M, "iirdesign");
  REQUIRE(cases.size() > 50);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const auto output = sig::parse_output_form(c.get<std::string>("output"));
    auto call = [&] {
      const sig::iirdesign_options o{.analog = c.get<bool>("analog"),
                                     .ftype = sig::parse_iir_ftype(c.get<std::string>("ftype")),
                                     .output = output,
                                     .fs = c.get<std::optional<double>>("fs")};
      return sig::iirdesign(c.get<std::vector<double>>("wp"), c.get<std::vector<double>>("ws"), c.get<double>("gpass"),
                            c.get<double>("gstop"), o);
    };
    if (c.expects_error()) {
      testing::check_error(c, [&] { call(); });
      continue;
    }
    check_design(c, call(), output);
  }
}

TEST_CASE("iirnotch, iirpeak, iircomb and gammatone match SciPy") {
  auto check_ba = [](const case_t& c, const sig::ba_coeffs& r) {
    sig::iir_filter f;
    f.b = r.b;
    f.a = r.a;
    check_design(c, f, sig::output_form::ba);
  };
  for (const auto& c : testing::cases(M, "notch")) {
    CAPTURE(c.name());
    const std::string which = c.get<std::string>("which");
    auto call = [&] {
      return which == "iirnotch" ? sig::iirnotch(c.get<double>("w0"), c.get<double>("Q"), c.get<double>("fs"))
                                 : sig::iirpeak(c.get<double>("w0"), c.get<double>("Q"), c.get<double>("fs"));
    };
    if (c.expects_error())
      testing::check_error(c, [&] { call(); });
    else
      check_ba(c, call());
  }
  for (const auto& c : testing::cases(M, "iircomb")) {
    CAPTURE(c.name());
    auto call = [&] {
      return sig::iircomb(c.get<double>("w0"), c.get<double>("Q"),
                          {.ftype = sig::parse_comb_type(c.get<std::string>("ftype")),
                           .fs = c.get<double>("fs"),
                           .pass_zero = c.get<bool>("pass_zero")});
    };
    if (c.expects_error())
      testing::check_error(c, [&] { call(); });
    else
      check_ba(c, call());
  }
  for (const auto& c : testing::cases(M, "gammatone")) {
    CAPTURE(c.name());
    auto call = [&] {
      sig::gammatone_options o;
      if (c.has("order")) o.order = c.get<int>("order");
      if (c.has("numtaps")) o.numtaps = c.get<std::int64_t>("numtaps");
      o.fs = c.get<std::optional<double>>("fs");
      return sig::gammatone(c.get<double>("freq"), sig::parse_gammatone_type(c.get<std::string>("ftype")), o);
    };
    if (c.expects_error()) {
      testing::check_error(c, [&] { call(); });
    } else {
      warning_capture cap;
      check_ba(c, call());
      const bool iir = sig::parse_gammatone_type(c.get<std::string>("ftype")) == sig::gammatone_type::iir;
      CHECK(cap.has("UserWarning") == (iir && (c.has("order") || c.has("numtaps"))));
    }
  }
}

TEST_CASE("IIR string options parse as SciPy's") {
  CHECK(sig::parse_iir_ftype("Cauer") == sig::iir_ftype::ellip);
  CHECK(sig::parse_iir_ftype("chebyshevii") == sig::iir_ftype::cheby2);
  CHECK(sig::parse_iir_ftype("bessel") == sig::iir_ftype::bessel_phase);
  CHECK(sig::parse_iir_ftype("BUTTERWORTH") == sig::iir_ftype::butter);
  CHECK_THROWS_AS(sig::parse_iir_ftype("chebyshev3"), value_error);
  CHECK(sig::parse_bessel_norm("mag") == sig::bessel_norm::mag);
  CHECK_THROWS_AS(sig::parse_bessel_norm("Phase"), value_error);
  CHECK(sig::parse_band_stop_type("cheby") == sig::band_stop_type::cheby);
  CHECK_THROWS_AS(sig::parse_band_stop_type("cheby1"), value_error);
  CHECK(sig::parse_comb_type("Peak") == sig::comb_type::peak);
  CHECK_THROWS_AS(sig::parse_comb_type("comb"), value_error);
  CHECK(sig::parse_gammatone_type("FIR") == sig::gammatone_type::fir);
  CHECK_THROWS_AS(sig::parse_gammatone_type("fft"), value_error);
  // Scalar overloads agree with the list forms.
  CHECK(sig::buttord(0.2, 0.3, 1.0, 40.0).N == sig::buttord({0.2}, {0.3}, 1.0, 40.0).N);
  CHECK(sig::ellip(4, 1.0, 40.0, 0.3).b.size() == 5);
  CHECK(sig::bessel(3, 0.3).a.size() == 4);
  CHECK(sig::iirfilter(2, 0.3, {.btype = sig::band_type::lowpass}).b.size() == 3);
  CHECK(sig::iirdesign(0.2, 0.3, 1.0, 40.0, {.output = sig::output_form::sos}).sos.ndim() == 2);
}

TEST_CASE("the cephes elliptic functions of ellipap match scipy.special") {
  namespace iir = cusci::signal::detail::iir;
  const case_t ck = testing::cases(M, "special").at(0), cj = testing::cases(M, "special").at(1);
  const auto m = ck.array("m").to_vector<double>(), k = ck.array("k").to_vector<double>(),
             km1 = ck.array("km1").to_vector<double>();
  auto close = [](double a, double e, double rtol, double atol) {
    if (std::isnan(e)) return std::isnan(a);
    if (std::isinf(e)) return a == e;
    return std::abs(a - e) <= rtol * std::abs(e) + atol;
  };
  for (std::size_t i = 0; i < m.size(); ++i) {
    CAPTURE(m[i]);
    CHECK_MESSAGE(close(iir::ellipk(m[i]), k[i], ck.rtol(), ck.atol()), iir::ellipk(m[i]) << " != " << k[i]);
    CHECK_MESSAGE(close(iir::ellipkm1(m[i]), km1[i], ck.rtol(), ck.atol()), iir::ellipkm1(m[i]) << " != " << km1[i]);
  }
  const auto u = cj.array("u").to_vector<double>(), jm = cj.array("m").to_vector<double>();
  const auto sn = cj.array("sn").to_vector<double>(), cn = cj.array("cn").to_vector<double>(),
             dn = cj.array("dn").to_vector<double>(), ph = cj.array("ph").to_vector<double>();
  for (std::size_t i = 0; i < u.size(); ++i) {
    CAPTURE(u[i]);
    CAPTURE(jm[i]);
    const iir::jacobi_t r = iir::ellipj(u[i], jm[i]);
    CHECK(close(r.sn, sn[i], cj.rtol(), cj.atol()));
    CHECK(close(r.cn, cn[i], cj.rtol(), cj.atol()));
    CHECK(close(r.dn, dn[i], cj.rtol(), cj.atol()));
    CHECK(close(r.ph, ph[i], cj.rtol(), cj.atol() * std::max(1.0, std::abs(ph[i]))));
  }
}
