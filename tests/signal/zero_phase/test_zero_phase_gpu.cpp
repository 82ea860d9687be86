// GPU tests of cusci::signal::filtfilt / sosfiltfilt against SciPy references
// (tests/golden/gen_signal_zero_phase.py): every padtype, padlen unset / 0 / explicit / negative,
// Gustafsson's method with and without irlen, axes of 1-D / 2-D / 3-D inputs, C / F / strided /
// reversed layouts, float32 / float64 / complex64 / complex128 data and promotion from integers,
// complex coefficients, coefficients on the host and on the device, a non-blocking stream, the errors
// SciPy raises, and the bundled ECG record band-passed with zero phase in ba and sos forms.

#include <doctest/doctest.h>

#include <string>

#include "cusci/core.hpp"
#include "cusci/io.hpp"
#include "cusci/signal/signal.hpp"
#include "cusci/signal/zero_phase.hpp"
#include "../signal_test_util.hpp"
#include "zero_phase_cases.hpp"

using namespace cusci;
using namespace cusci::zero_phase_test;
using cusci::signal_test::input_of;


TEST_CASE("filtfilt matches SciPy") {
  auto cases = cases_of("filtfilt");
  REQUIRE(cases.size() > 90);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const bool on_stream = (i % 3) == 2, device_coeffs = (i % 2) == 1;
    ++i;
    std::optional<stream_guard> g;
    if (on_stream) g.emplace(s);
    const ndarray x = input_of(c);
    const host_array b = c.array("b"), a = c.array("a");
    const ndarray bd = asarray(b), ad = asarray(a);
    const auto opts = filtfilt_opts(c);
    const ndarray y = device_coeffs ? sig::filtfilt(bd, ad, x, opts) : sig::filtfilt(b, a, x, opts);
    CHECK(y.shape() == x.shape());
    testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("sosfiltfilt matches SciPy") {
  auto cases = cases_of("sosfiltfilt");
  REQUIRE(cases.size() > 50);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const bool on_stream = (i % 3) == 1, device_coeffs = (i % 2) == 0;
    ++i;
    std::optional<stream_guard> g;
    if (on_stream) g.emplace(s);
    const ndarray x = input_of(c);
    const host_array sos = c.array("sos");
    const ndarray sosd = asarray(sos);
    const auto opts = sosfiltfilt_opts(c);
    const ndarray y = device_coeffs ? sig::sosfiltfilt(sosd, x, opts) : sig::sosfiltfilt(sos, x, opts);
    CHECK(y.shape() == x.shape());
    testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("filtfilt and sosfiltfilt reject what SciPy rejects (device arrays)") {
  auto cases = cases_of("filtfilt", true);
  auto scases = cases_of("sosfiltfilt", true);
  REQUIRE(cases.size() >= 20);
  REQUIRE(scases.size() >= 8);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const ndarray x = asarray(c.array("x"));
    const ndarray bd = asarray(c.array("b")), ad = asarray(c.array("a"));
    testing::check_error(c, [&]() { sig::filtfilt(bd, ad, x, filtfilt_opts(c)); });
  }
  for (const auto& c : scases) {
    CAPTURE(c.name());
    const ndarray x = asarray(c.array("x"));
    const ndarray sosd = asarray(c.array("sos"));
    testing::check_error(c, [&]() { sig::sosfiltfilt(sosd, x, sosfiltfilt_opts(c)); });
  }
}

TEST_CASE("ECG record band-passed 0.5-40 Hz with zero phase matches SciPy") {
  const auto ba = sig::butter(4, {0.5, 40.0}, {.btype = sig::band_type::bandpass, .fs = 360.0});
  const auto so = sig::butter(4, {0.5, 40.0}, {.btype = sig::band_type::bandpass, .output = sig::output_form::sos, .fs = 360.0});
  const auto cases = cases_of("ecg");
  REQUIRE(cases.size() == 3);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    host_array ecg = io::read_npy(std::string(CUSCI_EXAMPLE_DATA) + "/" + c.get<std::string>("data"));
    REQUIRE(ecg.size() == 108000);
    const auto stride = c.get<std::int64_t>("stride");
    ndarray y;
    if (c.get<std::string>("form") == "ba") {
      testing::check_allclose(ba.b, c.array("b"), 1e-10, 1e-14);
      testing::check_allclose(ba.a, c.array("a"), 1e-10, 1e-12);
      y = sig::filtfilt(ba.b, ba.a, asarray(ecg));
      CHECK(y.dtype() == dtype::float64);
    } else {
      const bool f32 = c.get<std::string>("dtype") == "float32";
      const host_array sos = f32 ? so.sos.astype(dtype::float32) : so.sos;
      testing::check_allclose(sos, c.array("sos"), f32 ? 1e-6 : 1e-10, 1e-12);
      y = sig::sosfiltfilt(sos, asarray(f32 ? ecg.astype(dtype::float32) : ecg));
      CHECK(y.dtype() == (f32 ? dtype::float32 : dtype::float64));
    }
    REQUIRE(y.shape() == shape_t{108000});
    testing::check_allclose(ndarray(y[{slice{0, {}, stride}}]), c.array("expected"), c.rtol(), c.atol());
  }
}

TEST_CASE("filtfilt's pad method returns a view of x's shape, asynchronously on the current stream") {
  // A float32 signal filtered on a non-blocking stream; the result is read after that stream's work.
  std::vector<float> v(4 * 1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i % 97) * 0.01);
  const auto f = sig::butter(2, 0.1);
  const host_array b = f.b.astype(dtype::float32), a = f.a.astype(dtype::float32);
  stream s(true);
  ndarray y, ys;
  {
    stream_guard g(s);
    const ndarray x = asarray(v, {4, 1000});
    y = sig::filtfilt(b, a, x, {.axis = 1});
    ys = sig::filtfilt(b, a, x.T(), {.axis = 0});
  }
  s.synchronize();
  CHECK(y.dtype() == dtype::float32);
  CHECK(y.shape() == shape_t{4, 1000});
  CHECK(ys.shape() == shape_t{1000, 4});
  testing::check_allclose(ys.T(), to_host(y), 1e-6, 1e-6);
}
