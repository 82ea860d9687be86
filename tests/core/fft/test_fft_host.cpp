// cusci::fft host helpers and argument validation (no GPU needed): fast lengths, sample frequencies,
// norm parsing, errors raised before any device work, plan-cache controls.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/fftlog.hpp"
#include "testing.hpp"

using namespace cusci;
namespace ft = cusci::fft;

namespace {
const char* M = "core_fft";
// Array headers over no memory, for checks that throw before any device work.
constexpr auto fake = &cusci::testing::fake_array;
}  // namespace

TEST_CASE("next_fast_len and prev_fast_len match scipy.fft (complex: 2,3,5,7,11-smooth; real: 2,3,5)") {
  host_array tab = testing::golden(M, "fast_len");
  REQUIRE(tab.ndim() == 2);
  const auto* p = tab.data_as<std::int64_t>();
  for (std::int64_t i = 0; i < tab.shape()[0]; ++i) {
    const std::int64_t t = p[5 * i];
    INFO("target " << t);
    CHECK(ft::next_fast_len(t) == p[5 * i + 1]);
    CHECK(ft::next_fast_len(t, true) == p[5 * i + 2]);
    CHECK(ft::prev_fast_len(t) == p[5 * i + 3]);
    CHECK(ft::prev_fast_len(t, true) == p[5 * i + 4]);
  }
  CHECK_THROWS_AS(ft::next_fast_len(-1), value_error);
  CHECK_THROWS_AS(ft::prev_fast_len(-5, true), value_error);
}

TEST_CASE("fftfreq_host and rfftfreq_host match scipy.fft") {
  std::ifstream f(testing::golden_file(M, "freq.tsv"));
  REQUIRE(f.good());
  std::string line;
  std::getline(f, line);
  int n_cases = 0;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    std::istringstream is(line);
    std::string c, n, d;
    std::getline(is, c, '\t');
    std::getline(is, n, '\t');
    std::getline(is, d, '\t');
    INFO("case " << c);
    testing::check_allclose(ft::fftfreq_host(std::stoll(n), std::stod(d)), testing::golden(M, "fftfreq_" + c), 1e-15,
                            0);
    testing::check_allclose(ft::rfftfreq_host(std::stoll(n), std::stod(d)), testing::golden(M, "rfftfreq_" + c),
                            1e-15, 0);
    ++n_cases;
  }
  CHECK(n_cases == 6);
  CHECK_THROWS_AS(ft::fftfreq_host(0), value_error);   // SciPy: ZeroDivisionError
  CHECK_THROWS_AS(ft::rfftfreq_host(-3), value_error);
  CHECK_THROWS_AS(ft::fftfreq_host(4, 0.0), value_error);
}

TEST_CASE("parse_norm takes SciPy's strings") {
  CHECK(ft::parse_norm("backward") == ft::norm_mode::backward);
  CHECK(ft::parse_norm("") == ft::norm_mode::backward);
  CHECK(ft::parse_norm("ortho") == ft::norm_mode::ortho);
  CHECK(ft::parse_norm("forward") == ft::norm_mode::forward);
  CHECK_THROWS_AS(ft::parse_norm("Ortho"), value_error);
  CHECK_THROWS_AS(ft::parse_norm("none"), value_error);
  try {
    ft::parse_norm("bad");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("Invalid norm value 'bad'") != std::string::npos);
  }
}

TEST_CASE("bad arguments throw SciPy's exception types before any device work") {
  const ndarray v = fake(dtype::float64, {8});
  const ndarray m = fake(dtype::float64, {4, 6});
  const ndarray c = fake(dtype::complex128, {8});
  const ndarray s = fake(dtype::float64, {});
  // n < 1, empty axis
  CHECK_THROWS_AS(ft::fft(v, {.n = 0}), value_error);
  CHECK_THROWS_AS(ft::ifft(v, {.n = -3}), value_error);
  CHECK_THROWS_AS(ft::rfft(fake(dtype::float32, {0})), value_error);
  CHECK_THROWS_AS(ft::irfft(fake(dtype::complex64, {1})), value_error);  // default n = 0
  CHECK_THROWS_AS(ft::hfft(fake(dtype::complex64, {1})), value_error);
  CHECK_THROWS_AS(ft::dct(v, {.n = 0}), value_error);
  // axes
  CHECK_THROWS_AS(ft::fft(m, {.axis = 2}), index_error);
  CHECK_THROWS_AS(ft::fft(m, {.axis = -3}), index_error);
  CHECK_THROWS_AS(ft::fft(s), index_error);
  CHECK_THROWS_AS(ft::dst(m, {.axis = 5}), index_error);
  CHECK_THROWS_AS(ft::fftn(m, {.axes = std::vector<int>{0, 0}}), value_error);
  CHECK_THROWS_AS(ft::fftn(m, {.axes = std::vector<int>{0, 2}}), value_error);
  CHECK_THROWS_AS(ft::fft2(m, {.axes = {-1, -1}}), value_error);
  CHECK_THROWS_AS(ft::fftn(m, {.s = shape_t{2, 3, 4}}), value_error);
  CHECK_THROWS_AS(ft::fftn(m, {.s = shape_t{2, 3}, .axes = std::vector<int>{0}}), value_error);
  CHECK_THROWS_AS(ft::ifftn(m, {.s = shape_t{4, 0}}), value_error);
  CHECK_THROWS_AS(ft::rfftn(m, {.axes = std::vector<int>{}}), value_error);
  CHECK_THROWS_AS(ft::irfftn(m, {.axes = std::vector<int>{}}), value_error);
  CHECK_THROWS_AS(ft::dctn(m, {.axes = std::vector<int>{1, 1}}), value_error);
  CHECK_THROWS_AS(ft::fftshift(m, std::vector<int>{2}), index_error);
  // dtypes and types
  CHECK_THROWS_AS(ft::rfft(c), type_error);
  CHECK_THROWS_AS(ft::ihfft(c), type_error);
  CHECK_THROWS_AS(ft::rfft2(fake(dtype::complex64, {4, 4})), type_error);
  CHECK_THROWS_AS(ft::dct(v, {.type = 0}), value_error);
  CHECK_THROWS_AS(ft::idst(v, {.type = 5}), value_error);
  CHECK_THROWS_AS(ft::dct(fake(dtype::float64, {1}), {.type = 1}), value_error);
  CHECK_THROWS_AS(ft::idctn(m, {.type = 1, .s = shape_t{1, 6}}), value_error);
  // Messages name the function and the parameter.
  try {
    ft::fft(v, {.n = 0});
    FAIL("no exception");
  } catch (const value_error& e) {
    CHECK(std::string(e.what()).find("cusci::fft::fft") != std::string::npos);
    CHECK(std::string(e.what()).find("(0)") != std::string::npos);
  }
}

TEST_CASE("plan cache controls: defaults as CuPy, bounds validated, per device") {
  ft::plan_cache c(0);
  CHECK(c.get_size() == 16);
  CHECK(c.get_memsize() == -1);
  CHECK(c.get_curr_size() == 0);
  CHECK(c.get_curr_memsize() == 0);
  c.set_size(3);
  CHECK(c.get_size() == 3);
  c.set_memsize(1 << 20);
  CHECK(c.get_memsize() == (1 << 20));
  CHECK(ft::plan_cache(1).get_size() == 16);  // another device's cache is separate
  CHECK_THROWS_AS(c.set_size(-1), value_error);
  CHECK_THROWS_AS(c.set_memsize(-2), value_error);
  CHECK_THROWS_AS(ft::plan_cache(64).get_size(), index_error);
  const std::string info = c.show_info();
  CHECK(info.find("0 / 3") != std::string::npos);
  c.clear();
  c.set_size(16);
  c.set_memsize(-1);
}

TEST_CASE("fhtoffset matches scipy.fft (host only), and fht/ifht check their input before device work") {
  int n = 0;
  for (const auto& r : testing::cases(M, "fhtoffset")) {
    ++n;
    INFO("case " << r.name());
    const double got = ft::fhtoffset(r.get<double>("dln"), r.get<double>("mu"),
                                     {.initial = r.get<double>("initial"), .bias = r.get<double>("bias")});
    const double want = r.get<double>("value");
    CHECK(std::abs(got - want) <= r.atol() + r.rtol() * std::abs(want));
  }
  CHECK(n >= 5);
  CHECK_THROWS_AS(ft::fht(fake(dtype::complex128, {8}), 0.1, 0.0), type_error);
  CHECK_THROWS_AS(ft::ifht(fake(dtype::float64, {0}), 0.1, 0.0), value_error);
  CHECK_THROWS_AS(ft::fht(fake(dtype::float64, {}), 0.1, 0.0), value_error);
}

TEST_CASE("the FFTLog coefficients' log-gamma agrees with the reflection and recurrence identities") {
  // |Gamma(1/2 + iy)|^2 = pi / cosh(pi y); Gamma(z + 1) = z Gamma(z); Gamma(1) = 1; poles give NaN.
  for (double y : {0.0, 0.3, 2.0, 17.0, 150.0}) {
    const auto g = ft::detail::log_gamma(0.5, y);
    CHECK(2 * g.first == doctest::Approx(std::log(M_PI) - (M_PI * y + std::log1p(std::exp(-2 * M_PI * y)) - std::log(2.0))).epsilon(1e-13));
    const auto a = ft::detail::log_gamma(-2.3, y), b = ft::detail::log_gamma(-1.3, y);
    const double lz = 0.5 * std::log(2.3 * 2.3 + y * y);  // log|z| with z = -2.3 + iy
    CHECK(b.first == doctest::Approx(a.first + lz).epsilon(1e-13));
  }
  CHECK(ft::detail::log_gamma(1.0, 0.0).first == doctest::Approx(0.0).epsilon(1e-15));
  CHECK(std::isnan(ft::detail::log_gamma(-3.0, 0.0).first));
}
