// Host tests of cusci::signal's ShortTimeFFT family (no GPU): every property and window of the objects of
// tests/golden/gen_signal_short_time_fft.py against SciPy, closest_STFT_dual_window, the string parsers,
// and every argument check (stft / istft on data-less arrays: the checks throw before any device work).

#include <doctest/doctest.h>

#include <cmath>

#include "sft_test_util.hpp"

using namespace cusci;
using namespace cusci::sft_test;

namespace {

void check_scalar(double got, double want, const char* what) {
  CHECK_MESSAGE(std::fabs(got - want) <= 1e-12 * std::max(1.0, std::fabs(want)), what << ": " << got << " != " << want);
}

std::vector<std::int64_t> ints(const testing::golden_value& v) { return v.get<std::vector<std::int64_t>>(); }

}  // namespace

TEST_CASE("ShortTimeFFT properties match SciPy") {
  const auto cases = cases_of("props");
  REQUIRE(cases.size() >= 40);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const sig::ShortTimeFFT o = make(c);
    const testing::golden_value p = c.params().at("props");
    testing::check_allclose(o.win(), arr(p.at("win").as_string()), 1e-13, 1e-13);
    CHECK(o.invertible() == p.at("invertible").as_bool());
    if (!p.at("dual_win").is_null()) testing::check_allclose(o.dual_win(), arr(p.at("dual_win").as_string()), 1e-12, 1e-12);
    check_scalar(o.fac_magnitude(), p.at("fac_magnitude").as_double(), "fac_magnitude");
    check_scalar(o.fac_psd(), p.at("fac_psd").as_double(), "fac_psd");
    CHECK(o.m_num() == p.at("m_num").as_int64());
    CHECK(o.m_num_mid() == p.at("m_num_mid").as_int64());
    CHECK(o.hop() == p.at("hop").as_int64());
    CHECK(o.mfft() == p.at("mfft").as_int64());
    CHECK(o.k_min() == p.at("k_min").as_int64());
    CHECK(o.p_min() == p.at("p_min").as_int64());
    const auto lbe = ints(p.at("lower_border_end"));
    CHECK(o.lower_border_end() == std::pair<std::int64_t, std::int64_t>{lbe.at(0), lbe.at(1)});
    check_scalar(o.delta_t(), p.at("delta_t").as_double(), "delta_t");
    check_scalar(o.delta_f(), p.at("delta_f").as_double(), "delta_f");
    check_scalar(o.T(), p.at("T").as_double(), "T");
    CHECK(o.f_pts() == p.at("f_pts").as_int64());
    CHECK(o.onesided_fft() == p.at("onesided_fft").as_bool());
    CHECK(o.scaling() == sig::parse_sft_scaling(p.at("scaling").as_string()));
    testing::check_allclose(o.f(), arr(p.at("f").as_string()), 1e-14, 1e-14);
    const auto ns = c.get<std::vector<std::int64_t>>("ns");
    const testing::golden_value pn = c.params().at("per_n");
    for (std::size_t j = 0; j < ns.size(); ++j) {
      const std::int64_t n = ns[j];
      CAPTURE(n);
      CHECK(o.k_max(n) == pn.at("k_max").at(j).as_int64());
      CHECK(o.p_max(n) == pn.at("p_max").at(j).as_int64());
      CHECK(o.p_num(n) == pn.at("p_num").at(j).as_int64());
      const auto ub = ints(pn.at("upper_border_begin").at(j));
      CHECK(o.upper_border_begin(n) == std::pair<std::int64_t, std::int64_t>{ub.at(0), ub.at(1)});
      if (pn.at("extent").at(j).is_null()) {
        CHECK_THROWS_AS((void)o.extent(n), value_error);
      } else {
        const auto e1 = pn.at("extent").at(j).get<std::vector<double>>();
        const auto e2 = pn.at("extent_ft_c").at(j).get<std::vector<double>>();
        const auto g1 = o.extent(n), g2 = o.extent(n, sig::sft_axes_seq::ft, true);
        for (int i = 0; i < 4; ++i) {
          check_scalar(g1[i], e1[i], "extent");
          check_scalar(g2[i], e2[i], "extent ft centred");
        }
      }
      testing::check_allclose(o.t(n), arr(pn.at("t").at(j).as_string()), 1e-14, 1e-14);
    }
    const auto ks = c.get<std::vector<std::int64_t>>("ks");
    const testing::golden_value near = c.params().at("near");
    for (std::size_t j = 0; j < ks.size(); ++j) {
      CHECK(o.nearest_k_p(ks[j]) == near.at(j).at(0).as_int64());
      CHECK(o.nearest_k_p(ks[j], false) == near.at(j).at(1).as_int64());
    }
    const auto tp = c.get<std::vector<std::int64_t>>("tp");
    testing::check_allclose(o.t(tp.at(0), tp.at(1), tp.at(2), tp.at(3)), c.array("t_p"), 1e-14, 1e-14);
  }
}

TEST_CASE("closest_STFT_dual_window matches SciPy") {
  const auto cases = cases_of("closest_STFT_dual_window");
  REQUIRE(cases.size() >= 6);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    std::optional<host_array> dd;
    if (!c.params().at("desired_dual").is_null()) dd = c.array("desired_dual");
    const auto [d, alpha] = signal::closest_STFT_dual_window(c.array("win"), c.get<std::int64_t>("hop"), dd,
                                                             {.scaled = c.get<bool>("scaled")});
    testing::check_allclose(d, c.array("expected"), c.rtol(), c.atol());
    const auto a = c.get<std::complex<double>>("alpha");
    CHECK(std::abs(alpha - a) <= 1e-12 * std::max(1.0, std::abs(a)));
  }
}

TEST_CASE("the ShortTimeFFT string options parse SciPy's strings") {
  CHECK(signal::parse_sft_fft_mode("onesided2X") == signal::sft_fft_mode::onesided2X);
  CHECK(signal::parse_sft_fft_mode("centered") == signal::sft_fft_mode::centered);
  CHECK_THROWS_AS(signal::parse_sft_fft_mode("onesided2x"), value_error);
  CHECK(signal::parse_sft_scaling("psd") == signal::sft_scaling::psd);
  CHECK(signal::parse_sft_scaling("None") == signal::sft_scaling::none);
  CHECK_THROWS_AS(signal::parse_sft_scaling("spectrum"), value_error);
  CHECK(signal::parse_sft_padding("odd") == signal::sft_padding::odd);
  CHECK_THROWS_AS(signal::parse_sft_padding("wrap"), value_error);
  CHECK(signal::parse_sft_detrend("linear") == signal::sft_detrend::linear);
  CHECK(signal::parse_sft_detrend("None") == signal::sft_detrend::none);
  CHECK_THROWS_AS(signal::parse_sft_detrend("quadratic"), value_error);
  CHECK(signal::parse_sft_axes_seq("ft") == signal::sft_axes_seq::ft);
  CHECK_THROWS_AS(signal::parse_sft_axes_seq("tt"), value_error);
}

TEST_CASE("ShortTimeFFT rejects what SciPy rejects, before any device work") {
  std::size_t n = 0;
  for (const auto& c : cases_of("ShortTimeFFT", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { (void)make(c); });
    ++n;
  }
  for (const auto& c : cases_of("property", true)) {
    CAPTURE(c.name());
    const std::string prop = c.get<std::string>("prop");
    testing::check_error(c, [&] {
      sig::ShortTimeFFT o = make(c);
      if (prop == "p_max") (void)o.p_max(c.get<std::int64_t>("n"));
      else if (prop == "k_max") (void)o.k_max(c.get<std::int64_t>("n"));
      else if (prop == "upper_border_begin") (void)o.upper_border_begin(c.get<std::int64_t>("n"));
      else if (prop == "t") (void)o.t(c.get<std::int64_t>("n"));
      else if (prop == "p_range")
        (void)o.p_range(c.get<std::int64_t>("n"), c.get<std::optional<std::int64_t>>("p0"),
                        c.get<std::optional<std::int64_t>>("p1"));
      else if (prop == "extent") (void)o.extent(c.get<std::int64_t>("n"));
      else if (prop == "dual_win") (void)o.dual_win();
      else if (prop == "scale_to") o.scale_to(sig::parse_sft_scaling(c.get<std::string>("scaling")));
      else if (prop == "fs") o.fs(c.get<double>("v"));
      else if (prop == "T") o.T(c.get<double>("v"));
      else if (prop == "mfft") o.mfft(c.get<std::int64_t>("v"));
      else if (prop == "phase_shift") o.phase_shift(c.get<std::int64_t>("v"));
      else if (prop == "fft_mode") o.fft_mode(sig::parse_sft_fft_mode(c.get<std::string>("mode")));
      else FAIL("unknown property " << prop);
    });
    if (prop == "dual_win") CHECK_FALSE(make(c).invertible());
    ++n;
  }
  for (const auto& c : cases_of("stft", true)) {
    CAPTURE(c.name());
    const sig::ShortTimeFFT o = make(c);
    const ndarray x = testing::fake_array(dtype_from_string(c.get<std::string>("dtype")), c.get<std::vector<std::int64_t>>("shape"));
    testing::check_error(c, [&] { (void)o.stft_detrend(x, detr_of(c), stft_opts_of(c)); });
    ++n;
  }
  for (const auto& c : cases_of("istft", true)) {
    CAPTURE(c.name());
    const sig::ShortTimeFFT o = make(c);
    const ndarray S = testing::fake_array(dtype_from_string(c.get<std::string>("dtype")), c.get<std::vector<std::int64_t>>("shape"));
    testing::check_error(c, [&] { (void)o.istft(S, istft_opts_of(c)); });
    ++n;
  }
  for (const auto& c : cases_of("closest", true)) {
    CAPTURE(c.name());
    std::optional<host_array> dd;
    if (c.has("desired_dual") && !c.params().at("desired_dual").is_null()) dd = c.array("desired_dual");
    testing::check_error(c, [&] { (void)signal::closest_STFT_dual_window(c.array("win"), c.get<std::int64_t>("hop"), dd); });
    ++n;
  }
  CHECK(n >= 60);
}
