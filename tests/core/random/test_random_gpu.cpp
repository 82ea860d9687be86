// GPU tests of cusci::random: reproducibility (same seed and calls give identical bits, whatever the
// launch configuration), distribution moments and Kolmogorov-Smirnov distances against the
// theoretical laws, integer bounds, and the properties of choice / permutation / shuffle.
// Expected values are the distributions' own formulas (the streams are cusci's, not NumPy's).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/random.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
namespace rnd = cusci::random;

namespace {

bool same_bits(const host_array& a, const host_array& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && a.nbytes() == b.nbytes() &&
         std::memcmp(a.data(), b.data(), a.nbytes()) == 0;
}

std::vector<double> as_doubles(const ndarray& a) { return to_host(a).astype(dtype::float64).to_vector<double>(); }

void check_moments(const std::vector<double>& v, double mean, double var, double mu4, const char* what) {
  CAPTURE(what);
  const double n = static_cast<double>(v.size());
  double m = 0;
  for (double x : v) m += x;
  m /= n;
  double s2 = 0;
  for (double x : v) s2 += (x - m) * (x - m);
  s2 /= (n - 1);
  // 6 standard errors: a false failure has probability ~1e-9.
  CHECK(std::fabs(m - mean) <= 6 * std::sqrt(var / n));
  CHECK(std::fabs(s2 - var) <= 6 * std::sqrt((mu4 - var * var) / n));
}

/// Kolmogorov-Smirnov distance of the sample to `cdf`; checked against 1.95 / sqrt(n) (alpha 0.001).
void check_ks(std::vector<double> v, const std::function<double(double)>& cdf, const char* what) {
  CAPTURE(what);
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  double d = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(v[i]);
    d = std::max({d, std::fabs(f - i / n), std::fabs((i + 1) / n - f)});
  }
  CHECK(d < 1.95 / std::sqrt(n));
}

/// Every method once, in a fixed order, returning the host copies.
std::vector<host_array> draw_all(std::uint64_t seed, std::int64_t n) {
  auto g = rnd::default_rng(seed);
  std::vector<host_array> r;
  r.push_back(to_host(g.random({n}, dtype::float32)));
  r.push_back(to_host(g.random({n})));
  r.push_back(to_host(g.uniform(-2.0, 3.0, {n})));
  r.push_back(to_host(g.integers(0, 3 * (std::int64_t{1} << 30), {n})));  // many 32-bit rejections
  // 64-bit path with rejections: range 3 * 2^61 + 5 (about 1/4 of the 64-bit draws rejected). Note
  // 3 << 62 would not fit int64 (it wraps to -2^62).
  r.push_back(to_host(g.integers(-5, std::int64_t{3} << 61, {n})));
  r.push_back(to_host(g.integers(-100, 100, {n}, dtype::int8, true)));
  r.push_back(to_host(g.standard_normal({n}, dtype::float32)));
  r.push_back(to_host(g.normal(1.0, 2.0, {n})));
  r.push_back(to_host(g.exponential(1.5, {n})));
  r.push_back(to_host(g.poisson(3.5, {n})));
  r.push_back(to_host(g.poisson(250.0, {n})));
  r.push_back(to_host(g.choice(n, {n / 2}, false)));
  r.push_back(to_host(g.choice(5, {n}, true, std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.0})));
  r.push_back(to_host(g.choice(6, {3}, false, std::vector<double>{0.1, 0.2, 0.3, 0.2, 0.2, 0.0})));
  r.push_back(to_host(g.permutation(n)));
  return r;
}

}  // namespace

TEST_CASE("same seed and calls give identical arrays; different seeds differ") {
  const auto a = draw_all(7, 1001), b = draw_all(7, 1001), c = draw_all(8, 1001);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(same_bits(a[i], b[i]));
    if (a[i].size() > 8) CHECK_FALSE(same_bits(a[i], c[i]));
  }
}

TEST_CASE("results do not depend on the launch configuration") {
  const auto ref = draw_all(99, 5003);
  const int configs[][2] = {{32, 1}, {1024, 7}, {64, 3}, {128, 1000}, {1, 1}};
  for (const auto& cfg : configs) {
    CAPTURE(cfg[0]);
    CAPTURE(cfg[1]);
    rnd::detail::set_launch_config(cfg[0], cfg[1]);
    const auto other = draw_all(99, 5003);
    for (std::size_t i = 0; i < ref.size(); ++i) {
      CAPTURE(i);
      CHECK(same_bits(ref[i], other[i]));
    }
  }
  rnd::detail::set_launch_config(0, 0);
}

TEST_CASE("element values depend on the index only: a longer call extends a shorter one") {
  auto g1 = rnd::default_rng(3), g2 = rnd::default_rng(3);
  const auto s = to_host(g1.random({10}, dtype::float32)).to_vector<float>();
  const auto l = to_host(g2.random({11}, dtype::float32)).to_vector<float>();
  CHECK(std::equal(s.begin(), s.end(), l.begin()));
  CHECK(g1.position() == 3u);  // ceil(10 / 4) Philox blocks
  const auto n1 = to_host(g1.standard_normal({3, 5})).to_vector<double>();
  CHECK(n1.size() == 15u);
  CHECK(g1.position() == 3u + 8u);
}

TEST_CASE("shapes, dtypes and empty outputs") {
  auto g = rnd::default_rng(11);
  CHECK(g.random({2, 0, 3}).size() == 0);
  CHECK(g.position() == 0u);
  const ndarray z = g.random({}, dtype::float32);
  CHECK(z.ndim() == 0);
  CHECK(z.dtype() == dtype::float32);
  CHECK(g.integers(0, 10, {4, 5}, dtype::uint16).dtype() == dtype::uint16);
  const auto zeros = to_host(g.poisson(0.0, {7})).to_vector<std::int64_t>();
  CHECK(std::all_of(zeros.begin(), zeros.end(), [](std::int64_t v) { return v == 0; }));
}

TEST_CASE("moments and KS distances of 1e6 draws") {
  auto g = rnd::default_rng(2026);
  const std::int64_t n = 1000000;
  {
    const auto v = as_doubles(g.random({n}, dtype::float32));
    CHECK(*std::min_element(v.begin(), v.end()) >= 0.0);
    CHECK(*std::max_element(v.begin(), v.end()) < 1.0);
    check_moments(v, 0.5, 1.0 / 12, 1.0 / 80, "random f32");
    check_ks(v, [](double x) { return std::clamp(x, 0.0, 1.0); }, "random f32");
  }
  {
    const auto v = as_doubles(g.random({n}));
    check_moments(v, 0.5, 1.0 / 12, 1.0 / 80, "random f64");
    check_ks(v, [](double x) { return std::clamp(x, 0.0, 1.0); }, "random f64");
  }
  {
    const auto v = as_doubles(g.uniform(-3.0, 5.0, {n}));
    check_moments(v, 1.0, 64.0 / 12, std::pow(8.0, 4) / 80, "uniform");
    check_ks(v, [](double x) { return std::clamp((x + 3.0) / 8.0, 0.0, 1.0); }, "uniform");
  }
  const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  {
    const auto v = as_doubles(g.standard_normal({n}, dtype::float32));
    check_moments(v, 0.0, 1.0, 3.0, "standard_normal f32");
    check_ks(v, phi, "standard_normal f32");
  }
  {
    const auto v = as_doubles(g.normal(2.0, 3.0, {n}));
    check_moments(v, 2.0, 9.0, 3.0 * 81.0, "normal");
    check_ks(v, [&](double x) { return phi((x - 2.0) / 3.0); }, "normal");
  }
  {
    const auto v = as_doubles(g.exponential(2.0, {n}));
    check_moments(v, 2.0, 4.0, 9.0 * 16.0, "exponential");
    check_ks(v, [](double x) { return x <= 0 ? 0.0 : 1.0 - std::exp(-x / 2.0); }, "exponential");
  }
  for (double lam : {0.5, 3.0, 9.9, 10.0, 47.0, 1.0e4}) {
    const auto v = as_doubles(g.poisson(lam, {n}));
    CHECK(*std::min_element(v.begin(), v.end()) >= 0.0);
    check_moments(v, lam, lam, lam * (1 + 3 * lam), lam < 10 ? "poisson multiplication" : "poisson PTRS");
  }
  {
    // integers: discrete uniform on [low, high): mean (a+b)/2, var ((b-a+1)^2 - 1) / 12
    const auto v = as_doubles(g.integers(-7, 13, {n}));
    const double N = 20, var = (N * N - 1) / 12, mu4 = (N * N - 1) * (3 * N * N - 7) / 240;
    check_moments(v, 2.5, var, mu4, "integers");
  }
}

TEST_CASE("integers stay in bounds and reach both ends") {
  auto g = rnd::default_rng(5);
  const std::int64_t n = 200000;
  {
    const auto v = to_host(g.integers(-128, 127, {n}, dtype::int8, true)).to_vector<std::int8_t>();
    CHECK(*std::min_element(v.begin(), v.end()) == -128);
    CHECK(*std::max_element(v.begin(), v.end()) == 127);
  }
  {
    const auto v = to_host(g.integers(3, 10, {n}, dtype::uint16)).to_vector<std::uint16_t>();
    CHECK(*std::min_element(v.begin(), v.end()) == 3);
    CHECK(*std::max_element(v.begin(), v.end()) == 9);
  }
  {
    const auto v = to_host(g.integers(0, 2, {n}, dtype::bool_)).astype(dtype::int64).to_vector<std::int64_t>();
    const auto ones = std::count(v.begin(), v.end(), 1);
    CHECK(std::fabs(ones - n / 2.0) < 6 * std::sqrt(n / 4.0));
  }
  {
    const auto v = to_host(g.integers(INT64_MIN, INT64_MAX, {n}, dtype::int64, true)).to_vector<std::int64_t>();
    const auto neg = std::count_if(v.begin(), v.end(), [](std::int64_t x) { return x < 0; });
    CHECK(std::fabs(neg - n / 2.0) < 6 * std::sqrt(n / 4.0));
  }
  {
    const std::int64_t hi = (std::int64_t{1} << 62) + 12345;
    const auto v = to_host(g.integers(-1000, hi, {n})).to_vector<std::int64_t>();
    CHECK(*std::min_element(v.begin(), v.end()) >= -1000);
    CHECK(*std::max_element(v.begin(), v.end()) < hi);
  }
  {
    const auto v = to_host(g.integers(0, 3000000000LL, {n}, dtype::uint32)).to_vector<std::uint32_t>();
    CHECK(*std::max_element(v.begin(), v.end()) < 3000000000u);
  }
  {
    const auto v = to_host(g.integers(7, 7, {50}, dtype::int32, true)).to_vector<std::int32_t>();
    CHECK(std::all_of(v.begin(), v.end(), [](std::int32_t x) { return x == 7; }));
  }
}

TEST_CASE("permutation, choice and shuffle") {
  auto g = rnd::default_rng(77);
  {
    auto v = to_host(g.permutation(std::int64_t{10007})).to_vector<std::int64_t>();
    std::sort(v.begin(), v.end());
    for (std::int64_t i = 0; i < 10007; ++i) REQUIRE(v[i] == i);
  }
  {
    const auto v = to_host(g.choice(1000, {600}, false)).to_vector<std::int64_t>();
    CHECK(std::set<std::int64_t>(v.begin(), v.end()).size() == 600u);
    CHECK(*std::min_element(v.begin(), v.end()) >= 0);
    CHECK(*std::max_element(v.begin(), v.end()) < 1000);
  }
  {
    const std::vector<double> p{0.1, 0.2, 0.0, 0.7};
    const std::int64_t n = 400000;
    const auto v = to_host(g.choice(4, {n}, true, p)).to_vector<std::int64_t>();
    for (int k = 0; k < 4; ++k) {
      const double c = static_cast<double>(std::count(v.begin(), v.end(), k));
      CHECK(std::fabs(c - n * p[k]) <= 6 * std::sqrt(n * p[k] * (1 - p[k])) + 1e-9);
    }
  }
  {
    // Without replacement with p: no repeats, never a zero-probability entry; the first draw
    // follows p.
    const std::vector<double> p{0.5, 0.0, 0.25, 0.125, 0.125};
    std::vector<int> first(5, 0);
    const int trials = 20000;
    for (int t = 0; t < 200; ++t) {
      const auto v = to_host(g.choice(5, {4}, false, p)).to_vector<std::int64_t>();
      CHECK(std::set<std::int64_t>(v.begin(), v.end()).size() == 4u);
      CHECK(std::find(v.begin(), v.end(), 1) == v.end());
    }
    (void)trials;
    // First-position frequencies over many independent samples, drawn as one batch of keys per call.
    const int reps = 4000;
    for (int t = 0; t < reps; ++t) ++first[to_host(g.choice(5, {1}, false, p)).to_vector<std::int64_t>()[0]];
    for (int k = 0; k < 5; ++k) CHECK(std::fabs(first[k] - reps * p[k]) <= 6 * std::sqrt(reps * p[k] * (1 - p[k])) + 1e-9);
  }
  {
    // choice / permutation of array rows, and shuffle of a strided view in place
    const ndarray base = arange(0, 40, 1, dtype::float64).reshape({10, 4});
    const auto rows = to_host(g.choice(base, {6}, false)).to_vector<double>();
    std::set<double> firsts;
    for (int r = 0; r < 6; ++r) {
      const double f = rows[r * 4];
      CHECK(std::fmod(f, 4.0) == 0.0);
      for (int c = 1; c < 4; ++c) CHECK(rows[r * 4 + c] == f + c);
      firsts.insert(f);
    }
    CHECK(firsts.size() == 6u);
    const ndarray pm = g.permutation(base);
    CHECK(pm.shape() == shape_t{10, 4});
    auto pv = to_host(pm).to_vector<double>();
    std::sort(pv.begin(), pv.end());
    for (int i = 0; i < 40; ++i) CHECK(pv[i] == i);
    ndarray big = arange(0, 60, 1, dtype::int32).reshape({20, 3});
    ndarray col = big[{slice{}, slice{1, 3}}];  // [20, 2] non-contiguous view
    g.shuffle(col);
    const auto h = to_host(big).to_vector<std::int32_t>();
    std::vector<std::int32_t> firstcol, seen;
    for (int r = 0; r < 20; ++r) {
      CHECK(h[r * 3] == 3 * r);                 // column 0 untouched
      CHECK(h[r * 3 + 2] == h[r * 3 + 1] + 1);  // rows moved whole
      seen.push_back(h[r * 3 + 1]);
    }
    std::sort(seen.begin(), seen.end());
    for (int r = 0; r < 20; ++r) CHECK(seen[r] == 3 * r + 1);
  }
  CHECK_THROWS_AS((void)g.permutation(ndarray(zeros({}))), index_error);
}

TEST_CASE("generators work on a non-blocking stream") {
  cusci::stream s(true);
  cusci::stream_guard guard(s);
  auto g1 = rnd::default_rng(4);
  const ndarray a = g1.standard_normal({1000}, dtype::float32);
  s.synchronize();
  auto g2 = rnd::default_rng(4);
  const ndarray b = g2.standard_normal({1000}, dtype::float32);
  CHECK(same_bits(to_host(a), to_host(b)));
}

TEST_CASE("standard_normal float32 is the documented Box-Muller transform of its Philox words") {
  // Reference in double from the host Philox (checked against Random123's vectors in the host test):
  // block j = counter (j, 0, 0, 0) of a fresh generator, key = the seed's two words; words (r0, r1)
  // and (r2, r3) give u1 = ((r >> 8) + 1) 2^-24, t = (r >> 9) 2^-22 - 1, radius sqrt(-2 ln u1) and
  // values radius * (cos(pi t), sin(pi t)). The float32 kernel uses the hardware sine, cosine and
  // square root: within 4.5e-6 of the exact transform by its error bounds, checked with 1e-5.
  const double pi = 3.14159265358979323846;
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{77}, std::uint64_t{0x123456789abcdefULL}}) {
    CAPTURE(seed);
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{4096 + 3}}) {
      CAPTURE(n);
      auto g = rnd::default_rng(seed);
      const auto v = to_host(g.standard_normal({n}, dtype::float32)).to_vector<float>();
      REQUIRE(v.size() == static_cast<std::size_t>(n));
      double worst = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const std::uint64_t j = static_cast<std::uint64_t>(i / 4);
        const auto w = rnd::detail::philox4x32_10(
            {static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(j >> 32), 0u, 0u},
            {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
        const int q = static_cast<int>(i % 4) / 2;
        const double u1 = static_cast<double>((w[2 * q] >> 8) + 1) * 0x1.0p-24;
        const double t = static_cast<double>(w[2 * q + 1] >> 9) * 0x1.0p-22 - 1.0;
        const double rad = std::sqrt(-2.0 * std::log(u1));
        const double ref = (i % 2 == 0) ? rad * std::cos(pi * t) : rad * std::sin(pi * t);
        worst = std::max(worst, std::fabs(static_cast<double>(v[i]) - ref));
      }
      CHECK(worst <= 1e-5);
    }
  }
}
