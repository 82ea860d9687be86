// cusci::fft on the GPU against scipy.fft goldens (tests/golden/gen_core_fft.py), inverse round trips,
// streams and the plan cache.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/fftlog.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/warnings.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
namespace ft = cusci::fft;
using testing::golden_case;

// The device FFTLog coefficients (core/src/fft/fftlog.cpp; not in the public header): the same values as
// ft::detail::fht_coefficients, as a complex128 device array [n // 2 + 1].
namespace cusci::fft::detail {
ndarray fht_coefficients_device(std::int64_t n, double dln, double mu, double offset, double bias, bool inverse,
                                bool* singular);
}

namespace {
const char* M = "core_fft";

// Typed parameters of a case (None in the generator: not given).
std::optional<std::vector<std::int64_t>> lengths(const golden_case& r) {
  return r.get<std::optional<std::vector<std::int64_t>>>("s");
}
std::optional<std::vector<int>> axes_of(const golden_case& r) { return r.get<std::optional<std::vector<int>>>("axes"); }
std::optional<std::int64_t> n_of(const golden_case& r) { return r.get<std::optional<std::int64_t>>("n"); }
std::optional<bool> orth_of(const golden_case& r) { return r.get<std::optional<bool>>("orthogonalize"); }

ndarray input_of(const golden_case& r) {
  // the stored base with the case's shape (a 0-d input may be stored with shape (1,))
  const host_array stored = r.array("x");
  host_array hb(stored.dtype(), r.get<shape_t>("x_shape"));
  REQUIRE(hb.nbytes() == stored.nbytes());
  std::memcpy(hb.data(), stored.data(), stored.nbytes());
  ndarray base = asarray(hb);
  const std::string lay = r.get<std::string>("layout");
  if (lay == "F") return base.copy(order::F);
  if (lay == "strided") return base[{ellipsis, slice{{}, {}, 2}}];
  if (lay == "reversed") return base[{ellipsis, slice{{}, {}, -1}}];
  if (lay == "offset") return base[{slice{1, {}, {}}}];  // starts one element (or row) into base
  return base;
}

ndarray call(const golden_case& r, const ndarray& x) {
  const std::string f = r.func();
  const ft::norm_mode nm = ft::parse_norm(r.get<std::string>("norm"));
  const int type = r.get<int>("type");
  if (f == "fftshift") return ft::fftshift(x, axes_of(r));
  if (f == "ifftshift") return ft::ifftshift(x, axes_of(r));
  const bool nd = f.back() == 'n' || f.back() == '2';
  if (type != 0) {
    if (nd) {
      ft::dctn_options o{.type = type, .s = lengths(r), .axes = axes_of(r), .norm = nm,
                         .orthogonalize = orth_of(r)};
      if (f == "dctn") return ft::dctn(x, o);
      if (f == "idctn") return ft::idctn(x, o);
      if (f == "dstn") return ft::dstn(x, o);
      if (f == "idstn") return ft::idstn(x, o);
    } else {
      ft::dct_options o{.type = type, .n = n_of(r), .axis = r.get<int>("axis"), .norm = nm,
                        .orthogonalize = orth_of(r)};
      if (f == "dct") return ft::dct(x, o);
      if (f == "idct") return ft::idct(x, o);
      if (f == "dst") return ft::dst(x, o);
      if (f == "idst") return ft::idst(x, o);
    }
  }
  if (f.back() == '2') {
    ft::fft2_options o{.s = lengths(r), .norm = nm};
    if (auto a = axes_of(r)) o.axes = *a;
    if (f == "fft2") return ft::fft2(x, o);
    if (f == "ifft2") return ft::ifft2(x, o);
    if (f == "rfft2") return ft::rfft2(x, o);
    if (f == "irfft2") return ft::irfft2(x, o);
    if (f == "hfft2") return ft::hfft2(x, o);
    if (f == "ihfft2") return ft::ihfft2(x, o);
  } else if (nd) {
    ft::fftn_options o{.s = lengths(r), .axes = axes_of(r), .norm = nm};
    if (f == "fftn") return ft::fftn(x, o);
    if (f == "ifftn") return ft::ifftn(x, o);
    if (f == "rfftn") return ft::rfftn(x, o);
    if (f == "irfftn") return ft::irfftn(x, o);
    if (f == "hfftn") return ft::hfftn(x, o);
    if (f == "ihfftn") return ft::ihfftn(x, o);
  } else {
    ft::fft_options o{.n = n_of(r), .axis = r.get<int>("axis"), .norm = nm};
    if (f == "fft") return ft::fft(x, o);
    if (f == "ifft") return ft::ifft(x, o);
    if (f == "rfft") return ft::rfft(x, o);
    if (f == "irfft") return ft::irfft(x, o);
    if (f == "hfft") return ft::hfft(x, o);
    if (f == "ihfft") return ft::ihfft(x, o);
  }
  FAIL("unknown function " << f);
  return {};
}

int run_cases(const std::function<bool(const golden_case&)>& select) {
  int n = 0;
  for (const auto& r : testing::cases(M)) {
    if (!select(r)) continue;
    ++n;
    INFO("case " << r.name());
    const ndarray x = input_of(r);
    const std::string e = r.expects_error() ? r.error() : "ok";
    if (e == "ok") {
      // A case that throws fails alone (named), and the remaining cases still run.
      std::optional<ndarray> y;
      try {
        y = call(r, x);
      } catch (const std::exception& ex) {
        FAIL_CHECK("case " << r.name() << " threw: " << ex.what());
        continue;
      }
      CHECK(y->is_c_contiguous());
      testing::check_allclose(*y, r.array("expected"), r.rtol(), r.atol());
    } else if (e == "value_error") {
      CHECK_THROWS_AS(call(r, x), value_error);
    } else if (e == "index_error") {
      CHECK_THROWS_AS(call(r, x), index_error);
    } else if (e == "type_error") {
      CHECK_THROWS_AS(call(r, x), type_error);
    } else {
      FAIL("unknown expectation " << e);
    }
  }
  return n;
}
bool is_func(const golden_case& r, std::initializer_list<const char*> names) {
  const std::string f = r.func();
  for (const char* s : names)
    if (f == s) return true;
  return false;
}
}  // namespace

TEST_CASE("1-D DFTs match scipy.fft (dtypes, lengths, n, norms, axes, layouts, errors)") {
  CHECK(run_cases([](const golden_case& r) {
          return is_func(r, {"fft", "ifft", "rfft", "irfft", "hfft", "ihfft"});
        }) > 300);
}

TEST_CASE("2-D and N-D DFTs match scipy.fft (s, axes in any order, layouts, errors)") {
  CHECK(run_cases([](const golden_case& r) {
          return is_func(r, {"fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"});
        }) > 200);
}

TEST_CASE("Hermitian 2-D and N-D transforms match scipy.fft (hfft2, ihfft2, hfftn, ihfftn)") {
  CHECK(run_cases([](const golden_case& r) { return is_func(r, {"hfft2", "ihfft2", "hfftn", "ihfftn"}); }) > 150);
}

TEST_CASE("fast Hankel transforms match scipy.fft (fht, ifht, fhtoffset, singular biases)") {
  int n = 0;
  for (const auto& r : testing::cases(M)) {
    const std::string f = r.func();
    if (f != "fht" && f != "ifht" && f != "fhtoffset") continue;
    ++n;
    INFO("case " << r.name());
    if (f == "fhtoffset") {
      const double got = ft::fhtoffset(r.get<double>("dln"), r.get<double>("mu"),
                                       {.initial = r.get<double>("initial"), .bias = r.get<double>("bias")});
      const double want = r.get<double>("value");
      CHECK(std::abs(got - want) <= r.atol() + r.rtol() * std::abs(want));
      continue;
    }
    ndarray x = asarray(r.array("x"));
    if (r.get<std::string>("layout") == "strided") x = x[{ellipsis, slice{0, {}, 2}}];
    const ft::fht_options o{.offset = r.get<double>("offset"), .bias = r.get<double>("bias")};
    auto call = [&] {
      return f == "fht" ? ft::fht(x, r.get<double>("dln"), r.get<double>("mu"), o)
                        : ft::ifht(x, r.get<double>("dln"), r.get<double>("mu"), o);
    };
    if (r.expects_error()) {
      testing::check_error(r, call);
      continue;
    }
    warning_capture cap;
    const ndarray y = call();
    testing::check_allclose(y, r.array("expected"), r.rtol(), r.atol());
    CHECK(static_cast<int>(cap.warnings().size()) == r.get<int>("warns"));
  }
  CHECK(n >= 45);
}

TEST_CASE("the device FFTLog coefficients match the host ones (lengths, orders, offsets, biases, singular)") {
  // Max relative difference |u_dev - u_host| / |u_host| over m (exact equality where u_host is 0 or inf:
  // u_0 comes from the host in both). The device kernel mirrors the host's operations without fused
  // multiply-adds, so the differences are the last-ulp differences of log/atan2/hypot/exp/sincos, which
  // the phase (about 2 y log y, y up to pi / (2 dln)) amplifies: < 1e-12 for dln >= 0.01.
  struct params {
    double dln, mu, offset, bias;
    bool inverse, singular;
  };
  const double dln0 = std::log(1e8) / 127;  // the goldens' grid
  const std::vector<params> ps = {
      {0.01, 0.5, 0.0, 0.0, false, false},
      {0.01, 0.5, 0.0, 0.0, true, false},
      {dln0, 0.5, ft::fhtoffset(dln0, 0.5, {.bias = 0.7}), 0.7, false, false},
      {0.05, -0.5, 0.3, -0.4, true, false},
      {0.1, 2.0, -1.2, 0.3, false, false},
      {dln0, 0.0, 0.0, -1.0, false, true},   // u_0 = inf: singular fht, u_0 := 0
      {dln0, 0.0, 0.0, 1.0, true, true},     // u_0 = 0: singular ifht, u_0 := inf
      {dln0, 0.0, 0.0, 1.0, false, false},   // pole of xm: u_0 = 0
      {dln0, -3.0, 0.25, 1.0, false, false},  // negative xm, xp: the recurrence
      {dln0, -4.0, 0.0, 1.0, true, false},    // both xm and xp poles: u_0 = 2^q poch(-2, 1) = -4
  };
  auto max_rel = [](const host_array& d, const std::vector<double>& h, std::int64_t m) {
    double worst = 0;
    for (std::int64_t k = 0; k < m; ++k) {
      const std::complex<double> dv = testing::element(d, k), hv(h[2 * k], h[2 * k + 1]);
      if (!(std::isfinite(hv.real()) && std::isfinite(hv.imag())) || std::abs(hv) == 0) {
        if (!(dv == hv)) worst = std::numeric_limits<double>::infinity();
        continue;
      }
      const double r = std::abs(dv - hv) / std::abs(hv);
      if (!(r <= worst)) worst = std::isnan(r) ? std::numeric_limits<double>::infinity() : r;
    }
    return worst;
  };
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{64},
                               std::int64_t{(1 << 16) + 1}, std::int64_t{1} << 20}) {
    for (const auto& p : ps) {
      INFO("n " << n << " dln " << p.dln << " mu " << p.mu << " offset " << p.offset << " bias " << p.bias
                << " inverse " << p.inverse);
      bool sh = false, sd = false;
      const std::vector<double> h = ft::detail::fht_coefficients(n, p.dln, p.mu, p.offset, p.bias, p.inverse, &sh);
      const ndarray u = ft::detail::fht_coefficients_device(n, p.dln, p.mu, p.offset, p.bias, p.inverse, &sd);
      const std::int64_t m = n / 2 + 1;
      REQUIRE(u.dtype() == dtype::complex128);
      REQUIRE(u.shape() == shape_t{m});
      CHECK(sd == sh);
      CHECK(sh == p.singular);
      const host_array d = to_host(u);
      const double worst = max_rel(d, h, m);
      if (n == (std::int64_t{1} << 20)) MESSAGE("max relative difference " << worst << " (n 2^20, dln " << p.dln << ")");
      CHECK(worst < 1e-12);
      if (n % 2 == 0) CHECK(testing::element(d, m - 1).imag() == 0.0);  // the Nyquist coefficient is real
    }
  }
  // The benchmarks' FH2 spacing dln = 1e-5: y up to 1.6e5, phases up to about 4e6, whose last ulp
  // (~1e-9) bounds the agreement of any two float64 evaluations; reported, checked loosely.
  {
    const std::int64_t n = std::int64_t{1} << 20;
    const double off = ft::fhtoffset(1e-5, 0.5, {.bias = 0.3});
    const std::vector<double> h = ft::detail::fht_coefficients(n, 1e-5, 0.5, off, 0.3, false);
    bool sd = true;
    const host_array d = to_host(ft::detail::fht_coefficients_device(n, 1e-5, 0.5, off, 0.3, false, &sd));
    const double worst = max_rel(d, h, n / 2 + 1);
    MESSAGE("max relative difference " << worst << " (n 2^20, dln 1e-5, bias 0.3)");
    CHECK_FALSE(sd);
    CHECK(worst < 1e-8);
  }
}

TEST_CASE("DCT and DST of types I-IV match scipy.fft (norms, orthogonalize, n, axes, dtypes)") {
  CHECK(run_cases([](const golden_case& r) {
          return is_func(r, {"dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"});
        }) > 500);
}

TEST_CASE("fftshift and ifftshift match scipy.fft") {
  CHECK(run_cases([](const golden_case& r) { return is_func(r, {"fftshift", "ifftshift"}); }) > 30);
}

TEST_CASE("transforms on a non-default stream give the golden results") {
  stream s(true);
  stream_guard g(s);
  int n = run_cases([](const golden_case& r) {
    const std::string c = r.name();
    return c == "fft_large_pow2" || c == "irfft2_large" || c == "dct_t2_large" || c == "fftn_C_0_2";
  });
  CHECK(n == 4);
  s.synchronize();
}

TEST_CASE("inverse round trips return the input") {
  host_array hx = testing::golden(M, "fft_complex128_L45_x");
  ndarray x = asarray(hx);
  for (auto nm : {ft::norm_mode::backward, ft::norm_mode::ortho, ft::norm_mode::forward}) {
    testing::check_allclose(ft::ifft(ft::fft(x, {.norm = nm}), {.norm = nm}), hx, 1e-12, 1e-12);
    testing::check_allclose(ft::ifftn(ft::fftn(x, {.norm = nm}), {.norm = nm}), hx, 1e-12, 1e-12);
  }
  host_array hr = testing::golden(M, "rfft_float64_L45_x");
  ndarray r = asarray(hr);
  for (auto nm : {ft::norm_mode::backward, ft::norm_mode::ortho, ft::norm_mode::forward}) {
    testing::check_allclose(ft::irfft(ft::rfft(r, {.norm = nm}), {.n = 45, .norm = nm}), hr, 1e-12, 1e-12);
    testing::check_allclose(ft::hfft(ft::ihfft(r, {.norm = nm}), {.n = 45, .norm = nm}), hr, 1e-12, 1e-12);
    for (int t = 1; t <= 4; ++t) {
      INFO("type " << t);
      for (std::optional<bool> o : {std::optional<bool>{}, std::optional<bool>{true}, std::optional<bool>{false}}) {
        testing::check_allclose(ft::idct(ft::dct(r, {.type = t, .norm = nm, .orthogonalize = o}),
                                         {.type = t, .norm = nm, .orthogonalize = o}),
                                hr, 1e-11, 1e-11);
        testing::check_allclose(ft::idst(ft::dst(r, {.type = t, .norm = nm, .orthogonalize = o}),
                                         {.type = t, .norm = nm, .orthogonalize = o}),
                                hr, 1e-11, 1e-11);
      }
    }
  }
  host_array h2 = testing::golden(M, "rfft2_float64_5x7_x");
  ndarray r2 = asarray(h2);
  testing::check_allclose(ft::irfft2(ft::rfft2(r2), {.s = shape_t{5, 7}}), h2, 1e-12, 1e-12);
  testing::check_allclose(ft::idctn(ft::dctn(r2, {.type = 3}), {.type = 3}), h2, 1e-11, 1e-11);
}

TEST_CASE("fftfreq and rfftfreq on the device match scipy.fft") {
  testing::check_allclose(ft::fftfreq(5, 0.1), testing::golden(M, "fftfreq_2"), 0, 0);
  testing::check_allclose(ft::rfftfreq(8, 2.5), testing::golden(M, "rfftfreq_3"), 0, 0);
}

TEST_CASE("the plan cache bounds its size and memory, evicts the least recently used plan, clears") {
  ft::plan_cache c = ft::get_plan_cache();
  const int old_size = c.get_size();
  const std::int64_t old_mem = c.get_memsize();
  c.clear();
  CHECK(c.get_curr_size() == 0);
  CHECK(c.get_curr_memsize() == 0);
  host_array hx = testing::golden(M, "fft_large_pow2_x");  // 4096 complex64
  ndarray x = asarray(hx);
  host_array y = testing::golden(M, "fft_large_pow2_y");
  c.set_size(2);
  ft::fft(x, {.n = 100});
  ft::fft(x, {.n = 200});
  CHECK(c.get_curr_size() == 2);
  ft::fft(x, {.n = 100});  // 100 becomes the most recently used
  ft::fft(x, {.n = 300});  // evicts 200
  CHECK(c.get_curr_size() == 2);
  const std::string info = c.show_info();
  CHECK(info.find("n=(100)") != std::string::npos);
  CHECK(info.find("n=(300)") != std::string::npos);
  CHECK(info.find("n=(200)") == std::string::npos);
  // Shrinking evicts; size 0 disables caching but transforms still work.
  c.set_size(1);
  CHECK(c.get_curr_size() == 1);
  c.set_size(0);
  CHECK(c.get_curr_size() == 0);
  testing::check_allclose(ft::fft(x), y, 1e-5, 1e-3);
  CHECK(c.get_curr_size() == 0);
  // Memory bound: the cached work areas never exceed it.
  c.set_size(16);
  c.set_memsize(-1);
  for (std::int64_t n : {1000, 1024, 4096, 3000, 4095}) ft::fft(x, {.n = n});
  CHECK(c.get_curr_size() == 5);
  const std::int64_t mem = c.get_curr_memsize();
  CHECK(mem >= 0);
  c.set_memsize(mem / 2);
  CHECK(c.get_curr_memsize() <= mem / 2);
  for (std::int64_t n : {1000, 1024, 4096, 3000, 4095}) ft::fft(x, {.n = n});
  CHECK(c.get_curr_memsize() <= mem / 2);
  testing::check_allclose(ft::fft(x), y, 1e-5, 1e-3);
  c.clear();
  CHECK(c.get_curr_size() == 0);
  CHECK(c.get_curr_memsize() == 0);
  CHECK_THROWS_AS(c.set_size(-1), value_error);
  CHECK_THROWS_AS(c.set_memsize(-2), value_error);
  c.set_size(old_size);
  c.set_memsize(old_mem);
  synchronize();
}
