// GPU tests of cusci::signal's ShortTimeFFT against SciPy (tests/golden/gen_signal_short_time_fft.py):
// stft / stft_detrend over window types, hops, every fft_mode, mfft > m_num, scaling, phase shifts,
// padding modes, p0/p1/k_offset, axes and layouts; power and cross spectrograms; istft with k0/k1 and
// moved axes; round trips x -> stft -> istft, the bundled audio recording included. Every other case runs
// on a non-blocking stream.

#include <doctest/doctest.h>

#include <optional>

#include "cusci/manipulation.hpp"
#include "cusci/stream.hpp"
#include "sft_test_util.hpp"

using namespace cusci;
using namespace cusci::sft_test;

namespace {

void check(const ndarray& got, const case_t& c) {
  CHECK_MESSAGE(dtype_name(got.dtype()) == c.get<std::string>("out_dtype"),
                "dtype " << dtype_name(got.dtype()) << " != " << c.get<std::string>("out_dtype"));
  // SciPy computes in complex128 whatever the input; cusci keeps single precision (documented).
  testing::check_allclose(got, c.array("expected"), c.rtol(), c.atol(), false);
}

}  // namespace

TEST_CASE("ShortTimeFFT.stft and stft_detrend match SciPy") {
  const auto cases = cases_of("stft");
  REQUIRE(cases.size() >= 100);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    std::optional<stream_guard> g;
    if (i++ % 2 == 1) g.emplace(s);
    const sig::ShortTimeFFT o = make(c);
    const ndarray x = signal_test::input_of(c);
    const sig::sft_detrend d = detr_of(c);
    const ndarray r = d == sig::sft_detrend::none ? o.stft(x, stft_opts_of(c)) : o.stft_detrend(x, d, stft_opts_of(c));
    check(r, c);
  }
}

TEST_CASE("ShortTimeFFT.spectrogram matches SciPy (power and cross)") {
  const auto cases = cases_of("spectrogram");
  REQUIRE(cases.size() >= 20);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    std::optional<stream_guard> g;
    if (i++ % 2 == 1) g.emplace(s);
    const sig::ShortTimeFFT o = make(c);
    const ndarray x = signal_test::input_of(c);
    const auto so = stft_opts_of(c);
    const sig::sft_spectrogram_options opts{.detr = detr_of(c), .p0 = so.p0, .p1 = so.p1, .k_offset = so.k_offset,
                                            .padding = so.padding, .axis = so.axis};
    if (c.params().at("y").is_null()) {
      check(o.spectrogram(x, opts), c);
    } else {
      const ndarray y = asarray(c.array("y"));
      check(o.spectrogram(x, y, opts), c);
    }
  }
}

TEST_CASE("ShortTimeFFT.istft matches SciPy (k0, k1, moved axes)") {
  const auto cases = cases_of("istft");
  REQUIRE(cases.size() >= 20);
  stream s(true);
  int i = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name());
    std::optional<stream_guard> g;
    if (i++ % 2 == 1) g.emplace(s);
    const sig::ShortTimeFFT o = make(c);
    const auto mv = c.get<std::vector<int>>("move");
    const ndarray S = moveaxis(asarray(c.array("S")), std::vector<int>{-2, -1}, mv);
    check(o.istft(S, istft_opts_of(c)), c);
  }
}

TEST_CASE("x -> stft -> istft round trips match SciPy (the audio recording included)") {
  const auto cases = cases_of("roundtrip");
  REQUIRE(cases.size() >= 4);
  for (const auto& c : cases) {
    CAPTURE(c.name());
    const sig::ShortTimeFFT o = make(c);
    const ndarray x = asarray(c.array("x"));
    const int axis = c.get<int>("axis");
    const std::int64_t n = x.shape(axis);
    const ndarray S = o.stft(x, {.axis = axis});
    const ndarray r = o.istft(S, {.k1 = n, .f_axis = axis == 0 ? 0 : -2, .t_axis = -1});
    check(r, c);
  }
}
