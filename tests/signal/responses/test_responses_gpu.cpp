// GPU tests of the responses family (freqz, freqz_sos / sosfreqz, freqz_zpk with device coefficients)
// against SciPy 1.18.1 (tests/golden/gen_signal_responses.py): every host case again on the device
// (explicit frequencies alternately as host and device arrays, every other case on a non-blocking
// stream), SciPy's N-D b form for banks of filters, batches of sos filters, and large grids against the
// host path.

#include <doctest/doctest.h>

#include <optional>

#include "cusci/core.hpp"
#include "responses_test_util.hpp"

using namespace cusci;
using namespace cusci::signal_test;
namespace sig = cusci::signal;

namespace {

// worN with explicit frequencies on the device for odd `i`, on the host for even `i`.
sig::freq_points dev_worN(const case_t& c, int i) {
  if (c.has("worN")) return sig::freq_points(c.get<std::int64_t>("worN"));
  if (i % 2) return sig::freq_points(asarray(c.array("worN_arr")));
  return sig::freq_points(c.array("worN_arr"));
}

sig::device_freq_response dev_freqz(const case_t& c, int i) {
  std::optional<ndarray> a;
  if (c.has("a")) a = asarray(c.array("a"));
  return sig::freqz(asarray(c.array("b")), a, dev_worN(c, i),
                    {.whole = c.get_or<bool>("whole", false), .fs = fs_of(c),
                     .include_nyquist = c.get_or<bool>("include_nyquist", false)});
}

sig::freqz_sos_options sos_opts(const case_t& c) { return {.whole = c.get_or<bool>("whole", false), .fs = fs_of(c)}; }

template <class F>
void run_cases(const std::string& func, std::size_t at_least, F&& call) {
  auto cs = cases_in(kResponses, func);
  REQUIRE(cs.size() >= at_least);
  stream s(true);
  int i = 0;
  for (const auto& c : cs) {
    CAPTURE(c.name());
    std::optional<stream_guard> g;
    if (i % 2 == 1) g.emplace(s);
    const sig::device_freq_response r = call(c, i++);
    check_response(c, to_host(r.w), to_host(r.h));
  }
}

}  // namespace

TEST_CASE("freqz (GPU) matches SciPy") {
  run_cases("freqz", 50, dev_freqz);
  int i = 0;
  for (const auto& c : cases_in(kResponses, "freqz", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] { dev_freqz(c, i++); });
  }
}

TEST_CASE("freqz (GPU) of banks of filters: SciPy's N-D b form") { run_cases("freqz_batch", 2, dev_freqz); }

TEST_CASE("freqz_sos and sosfreqz (GPU) match SciPy") {
  run_cases("freqz_sos", 8, [](const case_t& c, int i) {
    return sig::freqz_sos(asarray(c.array("sos")), dev_worN(c, i), sos_opts(c));
  });
  run_cases("freqz_sos", 8, [](const case_t& c, int i) {
    return sig::sosfreqz(asarray(c.array("sos")), dev_worN(c, i), sos_opts(c));
  });
  int i = 0;
  for (const auto& c : cases_in(kResponses, "freqz_sos", true)) {
    // The device path does not read sos back to check sos[:, 3] == 1, and takes 3-D batches.
    if (c.name() == "sos_err_a0" || c.name() == "sos_err_3d") continue;
    CAPTURE(c.name());
    testing::check_error(c, [&] { sig::freqz_sos(asarray(c.array("sos")), dev_worN(c, i++), sos_opts(c)); });
  }
}

TEST_CASE("freqz_sos (GPU) of a batch of filters") {
  run_cases("freqz_sos_batch", 1, [](const case_t& c, int i) {
    return sig::freqz_sos(asarray(c.array("sos")), dev_worN(c, i), sos_opts(c));
  });
}

TEST_CASE("freqz_zpk (GPU) matches SciPy") {
  run_cases("freqz_zpk", 8, [](const case_t& c, int i) {
    return sig::freqz_zpk(asarray(c.array("z")), asarray(c.array("p")), c.get<double>("k"), dev_worN(c, i), sos_opts(c));
  });
  for (const auto& c : cases_in(kResponses, "freqz_zpk", true)) {
    CAPTURE(c.name());
    testing::check_error(c, [&] {
      sig::freqz_zpk(asarray(c.array("z")), asarray(c.array("p")), c.get<double>("k"), dev_worN(c, 0), sos_opts(c));
    });
  }
}

TEST_CASE("freqz (GPU) on large grids and many filters agrees with the host path") {
  // 20 filters (three groups of the kernel's 8 per thread), 2^16 points; one 33-tap filter on 2^18.
  std::vector<double> bank(5 * 20);
  for (std::size_t i = 0; i < bank.size(); ++i) bank[i] = std::sin(0.37 * static_cast<double>(i * i % 101)) + 0.1;
  const host_array hb = host_array::from(bank, {5, 20, 1});
  const host_array ha = host_array::from(std::vector<double>{1.0, -0.5, 0.25});
  auto d = sig::freqz(asarray(hb), asarray(ha), 1 << 16, {.whole = true});
  auto h = sig::freqz(hb, ha, 1 << 16, {.whole = true});
  CHECK(d.h.shape() == shape_t{20, 1 << 16});
  testing::check_allclose(to_host(d.w), h.w, 1e-13, 1e-13);
  testing::check_allclose(to_host(d.h), h.h, 1e-12, 1e-12 * scale_of(h.h));

  std::vector<double> b1(33);
  for (std::size_t i = 0; i < b1.size(); ++i) b1[i] = 1.0 / (1.0 + static_cast<double>(i));
  const host_array hb1 = host_array::from(b1);
  auto d1 = sig::freqz(asarray(hb1), std::nullopt, 1 << 18, {.fs = 48000.0, .include_nyquist = true});
  auto h1 = sig::freqz(hb1, std::nullopt, 1 << 18, {.fs = 48000.0, .include_nyquist = true});
  testing::check_allclose(to_host(d1.w), h1.w, 1e-13, 1e-13 * 24000.0);
  testing::check_allclose(to_host(d1.h), h1.h, 1e-11, 1e-11 * scale_of(h1.h));  // host: Bluestein FFT
}

TEST_CASE("responses (GPU) of empty grids launch nothing") {
  auto r = sig::freqz(asarray(host_array::from(std::vector<double>{1.0, 2.0})), std::nullopt, 0);
  CHECK(r.w.size() == 0);
  CHECK(r.h.size() == 0);
  auto s = sig::freqz_sos(asarray(host_array::from(std::vector<double>{1, 0, 0, 1, 0, 0}, {1, 6})), 0);
  CHECK(s.h.size() == 0);
}
