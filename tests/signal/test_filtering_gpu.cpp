// GPU tests of cusci::signal::lfilter / sosfilt against SciPy references (tests/golden/gen_signal.py):
// dtypes, 1-D/2-D/3-D, every axis, C / F / strided inputs, with and without zi, FIR / IIR / long
// IIR, sizes 0, 1, odd and chunked (single- and two-level carry), coefficients on host and device,
// a non-blocking stream, errors, and a real ECG record.

#include <cmath>

#include <doctest/doctest.h>

#include "cusci/core.hpp"
#include "cusci/signal/signal.hpp"
#include "signal_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;


TEST_CASE("lfilter matches SciPy") {
  auto cases = cases_of("lfilter");
  REQUIRE(cases.size() > 100);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const bool on_stream = (i % 3) == 2, device_coeffs = (i % 2) == 1;
    ++i;
    std::optional<stream_guard> g;
    if (on_stream) g.emplace(s);
    ndarray x = input_of(c);
    host_array b = c.array("b"), a = c.array("a");
    ndarray bd = asarray(b), ad = asarray(a);
    const int axis = c.get<int>("axis");
    const double rtol = c.rtol(), atol = c.atol();
    if (c.has("zi")) {
      host_array zi = c.array("zi");
      ndarray zid = asarray(zi);
      auto res = device_coeffs ? sig::lfilter(bd, ad, x, zid, {.axis = axis}) : sig::lfilter(b, a, x, zi, {.axis = axis});
      testing::check_allclose(res.y, c.array("expected"), rtol, atol);
      testing::check_allclose(res.zf, c.array("zf"), rtol, c.has("zf_atol") ? c.get<double>("zf_atol") : atol);
    } else {
      ndarray y = device_coeffs ? sig::lfilter(bd, ad, x, {.axis = axis}) : sig::lfilter(b, a, x, {.axis = axis});
      testing::check_allclose(y, c.array("expected"), rtol, atol);
    }
  }
}

TEST_CASE("sosfilt matches SciPy") {
  auto cases = cases_of("sosfilt");
  REQUIRE(cases.size() > 60);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const bool on_stream = (i % 3) == 1, device_coeffs = (i % 2) == 0;
    ++i;
    std::optional<stream_guard> g;
    if (on_stream) g.emplace(s);
    ndarray x = input_of(c);
    host_array sos = c.array("sos");
    ndarray sosd = asarray(sos);
    const int axis = c.get<int>("axis");
    const double rtol = c.rtol(), atol = c.atol();
    if (c.has("zi")) {
      host_array zi = c.array("zi");
      ndarray zid = asarray(zi);
      auto res = device_coeffs ? sig::sosfilt(sosd, x, zid, {.axis = axis}) : sig::sosfilt(sos, x, zi, {.axis = axis});
      testing::check_allclose(res.y, c.array("expected"), rtol, atol);
      testing::check_allclose(res.zf, c.array("zf"), rtol, atol);
    } else {
      ndarray y = device_coeffs ? sig::sosfilt(sosd, x, {.axis = axis}) : sig::sosfilt(sos, x, {.axis = axis});
      testing::check_allclose(y, c.array("expected"), rtol, atol);
    }
  }
}

TEST_CASE("ECG record band-passed 0.5-40 Hz matches SciPy") {
  auto f = sig::butter(4, {0.5, 40.0}, {.btype = sig::band_type::bandpass, .output = sig::output_form::sos, .fs = 360.0});
  for (const auto& c : cases_of("ecg")) {
    CAPTURE(c.name());
    // The record the generator read from examples/data.
    host_array ecg = io::read_npy(std::string(CUSCI_EXAMPLE_DATA) + "/" + c.get<std::string>("data"));
    REQUIRE(ecg.size() == 108000);
    CHECK(c.get<double>("fs") == 360.0);
    host_array sos_gold = c.array("sos");
    const bool f32 = sos_gold.dtype() == dtype::float32;
    testing::check_allclose(f32 ? f.sos.astype(dtype::float32) : f.sos, sos_gold, f32 ? 1e-6 : 1e-10, 1e-12);
    ndarray x = asarray(f32 ? ecg.astype(dtype::float32) : ecg);
    host_array sos_used = f32 ? f.sos.astype(dtype::float32) : f.sos;
    ndarray y = sig::sosfilt(sos_used, x);
    CHECK(y.dtype() == (f32 ? dtype::float32 : dtype::float64));
    const auto stride = c.get<std::int64_t>("stride");
    testing::check_allclose(ndarray(y[{slice{0, {}, stride}}]), c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("lfilter and sosfilt reject what SciPy rejects") {
  auto cases = cases_of("lfilter", true);
  auto scases = cases_of("sosfilt", true);
  cases.insert(cases.end(), scases.begin(), scases.end());
  REQUIRE(cases.size() >= 15);
  const host_array b = host_array::from(std::vector<double>{1.0, 0.5});
  const host_array a = host_array::from(std::vector<double>{1.0, -0.2});
  const ndarray x = asarray(std::vector<double>(12, 1.0), {3, 4});
  const host_array sos = host_array::from(std::vector<double>{1, 0.5, 0.1, 1, -0.2, 0.1}, {1, 6});
  for (const auto& c : cases) {
    const std::string what = c.get<std::string>("what"), func = c.func();
    CAPTURE(c.name());
    auto run = [&]() {
      if (func == "lfilter") {
        if (what == "a0") sig::lfilter(b, host_array::from(std::vector<double>{0.0, 1.0}), x);
        if (what == "b2d") sig::lfilter(host_array::from(std::vector<double>{1, 2}, {1, 2}), a, x);
        if (what == "bempty") sig::lfilter(host_array::from(std::vector<double>{}), a, x);
        if (what == "x0d") sig::lfilter(b, a, asarray(std::vector<double>{1.0}, shape_t{}));
        if (what == "axis") sig::lfilter(b, a, x, {.axis = 2});
        if (what == "zi_shape") sig::lfilter(b, a, x, host_array::from(std::vector<double>(6, 0.0), {3, 2}));
        if (what == "zi_ndim") sig::lfilter(b, a, x, host_array::from(std::vector<double>(3, 0.0), {3}));
        if (what == "int_only")
          sig::lfilter(host_array::from(std::vector<std::int64_t>{1, 2}), host_array::from(std::vector<std::int64_t>{1}),
                       asarray(std::vector<std::int64_t>(4, 1)));
        if (what == "fir_empty") sig::lfilter(b, host_array::from(std::vector<double>{2.0}), asarray(std::vector<double>{}));
      } else {
        if (what == "sos_cols") sig::sosfilt(host_array::from(std::vector<double>(5, 1.0), {1, 5}), x);
        if (what == "sos_a0") sig::sosfilt(host_array::from(std::vector<double>{1, 0, 0, 2, 0, 0}, {1, 6}), x);
        if (what == "sos_3d") sig::sosfilt(host_array::from(std::vector<double>(6, 1.0), {1, 1, 6}), x);
        if (what == "zi_shape") sig::sosfilt(sos, x, host_array::from(std::vector<double>(6, 0.0), {3, 2}));
        if (what == "axis") sig::sosfilt(sos, x, {.axis = -3});
        if (what == "x0d") sig::sosfilt(sos, asarray(std::vector<double>{1.0}, shape_t{}));
        if (what == "int_only")
          sig::sosfilt(host_array::from(std::vector<std::int64_t>{1, 0, 0, 1, 0, 0}, {1, 6}),
                       asarray(std::vector<std::int32_t>(4, 1)));
        if (what == "zero_len") sig::sosfilt(sos, zeros({3, 0}));
      }
    };
    testing::check_error(c, run);
  }
}

namespace {

std::vector<double> ecg_record(const case_t& c) {
  host_array h = io::read_npy(std::string(CUSCI_EXAMPLE_DATA) + "/" + c.get<std::string>("data"));
  return h.astype(dtype::float64).to_vector<double>();
}

/// np.resize(v, n): v repeated to n samples.
std::vector<double> resized(const std::vector<double>& v, std::int64_t n) {
  std::vector<double> out(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = v[i % v.size()];
  return out;
}

/// max |a - b| over two arrays of the same size (a on the device).
double max_abs_diff(const ndarray& a, const host_array& b) {
  const auto av = to_host(a).astype(dtype::float64).to_vector<double>();
  const auto bv = b.astype(dtype::float64).to_vector<double>();
  REQUIRE(av.size() == bv.size());
  double m = 0;
  for (std::size_t i = 0; i < av.size(); ++i) {
    const double d = std::fabs(av[i] - bv[i]);
    if (!(d <= m)) m = d;  // NaN propagates
  }
  return m;
}

}  // namespace

TEST_CASE("ECG band-pass as a transfer function (poles near the unit circle) matches SciPy") {
  auto cases = cases_of("ecg_lfilter");
  REQUIRE(cases.size() == 3);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const std::vector<double> ecg = ecg_record(c);
    const auto stride = c.get<std::int64_t>("stride");
    const host_array b = c.array("b"), a = c.array("a");
    if (c.get<std::int64_t>("channels") == 10) {
      const std::size_t N = ecg.size();
      std::vector<double> X(N * 10);
      for (std::size_t i = 0; i < N; ++i)
        for (std::size_t k = 0; k < 10; ++k) X[i * 10 + k] = ecg[(i + 10 * N - 997 * k) % N];  // np.roll
      ndarray x = asarray(X, {static_cast<std::int64_t>(N), 10});
      ndarray y = sig::lfilter(b, a, x, {.axis = 0});
      testing::check_allclose(ndarray(y[{slice{0, {}, stride}}]), c.array("expected"), c.rtol(), c.atol());
    } else if (c.get<std::string>("zi_mode") == "steady") {
      // SciPy's idiom zi = lfilter_zi(b, a) * x[0], with x[0] read on the device.
      const host_array zi_h = sig::lfilter_zi(b, a);
      testing::check_allclose(zi_h, c.array("lfilter_zi"), 1e-14, 0.0);
      ndarray x = asarray(ecg, {static_cast<std::int64_t>(ecg.size())});
      ndarray zi = asarray(zi_h) * x[{0}];
      auto r = sig::lfilter(b, a, x, zi);
      testing::check_allclose(ndarray(r.y[{slice{0, {}, stride}}]), c.array("expected"), c.rtol(), c.atol());
      testing::check_allclose(r.zf, c.array("zf"), 1e-6, 0.0);
    } else {
      ndarray x = asarray(ecg, {static_cast<std::int64_t>(ecg.size())});
      ndarray y = sig::lfilter(b, a, x);
      const double err = max_abs_diff(ndarray(y[{slice{0, {}, stride}}]), c.array("expected"));
      MESSAGE("ECG transfer-function band-pass, max |cusci - SciPy| = " << err << " (allowed " << c.atol() << ")");
      testing::check_allclose(ndarray(y[{slice{0, {}, stride}}]), c.array("expected"), c.rtol(), c.atol());
    }
  }
}

TEST_CASE("float32 filtering is at least as close to the float64 result as SciPy's float32 loop") {
  auto cases = cases_of("ecg_accuracy");
  REQUIRE(cases.size() == 3);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    std::vector<double> x64 = ecg_record(c);
    const auto length = c.get<std::int64_t>("length");
    if (length > 0) x64 = resized(x64, length);
    const ndarray x32 = asarray(x64, {static_cast<std::int64_t>(x64.size())}).astype(dtype::float32);
    ndarray y;
    if (c.get<std::string>("form") == "sos") {
      y = sig::sosfilt(c.array("sos").astype(dtype::float32), x32);
    } else {
      y = sig::lfilter(c.array("b").astype(dtype::float32), c.array("a").astype(dtype::float32), x32);
    }
    CHECK(y.dtype() == dtype::float32);
    const double ours = max_abs_diff(ndarray(y[{slice{0, {}, c.get<std::int64_t>("stride")}}]), c.array("expected"));
    const double scipy32 = c.get<double>("scipy32_err");
    MESSAGE(c.name() << ": max |float32 - float64 reference|: cusci " << ours << ", SciPy " << scipy32);
    CHECK(std::isfinite(ours));
    CHECK(ours <= scipy32);
  }
}

TEST_CASE("2^26-sample recordings match SciPy in both forms") {
  auto cases = cases_of("ecg_long");
  REQUIRE(cases.size() == 2);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const std::vector<double> x64 = resized(ecg_record(c), c.get<std::int64_t>("length"));
    const ndarray x = asarray(x64, {static_cast<std::int64_t>(x64.size())});
    const ndarray y = c.get<std::string>("form") == "sos" ? sig::sosfilt(c.array("sos"), x)
                                                           : sig::lfilter(c.array("b"), c.array("a"), x);
    testing::check_allclose(ndarray(y[{slice{0, {}, c.get<std::int64_t>("stride")}}]), c.array("expected"), c.rtol(),
                            c.atol());
  }
}
