// cusci::signal host filter design, timed on the host (wall clock per call, median of 7 samples of enough
// calls for 50 ms each). compare_scipy_design.py times SciPy's functions on the same cases in the same run;
// the ids and cases are the same on both sides:
//   D1  butter(8, 0.2, sos)              D2  cheby1(8, 1, [0.1, 0.3], bandpass, sos)
//   D3  cheby2(16, 60, 0.3, sos)         D4  ellip(12, 0.5, 60, 0.3, sos)
//   D5  bessel(8, 0.2, phase, sos)       D6  ellipord(0.2, 0.3, 1, 60)
//   D7  buttord bandstop (fminbound)     D8  iirnotch(60, 30, fs=360)
//   D9  firwin(255, 0.3)                 D10 firwin2(255, [0, .3, .4, 1], [1, 1, 0, 0])
//   D11 firls(255, same bands)           D12 remez(255, [0, .15, .2, .5], [1, 0], fs=1)
//   D13 kaiser(4096, 8.6)                D14 chebwin(4096, 100)
//   D15 dpss(1024, 4, Kmax=8)            D16 zpk2sos of ellip 12
//   D17 tf2zpk of ellip 12               D18 freqz of ellip 12 (b, a) on 8192 points
//   D19 cont2discrete zoh, 8 states, 2 inputs, 2 outputs
//   D20 place_poles 6 states, 2 inputs (YT)
//   D21 minimum_phase of the D12 filter (homomorphic)
// Output: one JSON line per case {"id", "case", "ms"} (no GPU is used).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cusci/signal/signal.hpp"

namespace sig = cusci::signal;
using cusci::host_array;

namespace {

double wall_ms(const std::function<void()>& fn) {
  using clk = std::chrono::steady_clock;
  fn();
  long n = 1;
  for (;;) {
    const auto t0 = clk::now();
    for (long i = 0; i < n; ++i) fn();
    const double ms = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
    if (ms >= 50.0) break;
    n *= 2;
  }
  std::vector<double> s;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = clk::now();
    for (long i = 0; i < n; ++i) fn();
    s.push_back(std::chrono::duration<double, std::milli>(clk::now() - t0).count() / static_cast<double>(n));
  }
  std::sort(s.begin(), s.end());
  return s[3];
}

void report(const char* id, const char* name, const std::function<void()>& fn) {
  std::printf("{\"id\":\"%s\",\"case\":\"%s\",\"ms\":%.5f}\n", id, name, wall_ms(fn));
  std::fflush(stdout);
}

host_array matrix(const std::vector<double>& v, std::int64_t r, std::int64_t c) { return host_array::from(v, {r, c}); }

}  // namespace

int main() {
  using sig::band_type;
  using sig::output_form;
  const auto sos = output_form::sos;
  report("D1", "butter(8, 0.2) sos", [&] { sig::butter(8, 0.2, {.output = sos}); });
  report("D2", "cheby1(8, 1, [0.1, 0.3]) bandpass sos",
         [&] { sig::cheby1(8, 1.0, {0.1, 0.3}, {.btype = band_type::bandpass, .output = sos}); });
  report("D3", "cheby2(16, 60, 0.3) sos", [&] { sig::cheby2(16, 60.0, 0.3, {.output = sos}); });
  report("D4", "ellip(12, 0.5, 60, 0.3) sos", [&] { sig::ellip(12, 0.5, 60.0, 0.3, {.output = sos}); });
  report("D5", "bessel(8, 0.2, phase) sos", [&] { sig::bessel(8, 0.2, {.output = sos}); });
  report("D6", "ellipord(0.2, 0.3, 1, 60)", [&] { sig::ellipord(0.2, 0.3, 1.0, 60.0); });
  report("D7", "buttord([0.1, 0.6], [0.2, 0.5], 3, 40) bandstop", [&] { sig::buttord({0.1, 0.6}, {0.2, 0.5}, 3.0, 40.0); });
  report("D8", "iirnotch(60, 30, fs=360)", [&] { sig::iirnotch(60.0, 30.0, 360.0); });
  report("D9", "firwin(255, 0.3)", [&] { sig::firwin(255, 0.3); });
  report("D10", "firwin2(255, [0, .3, .4, 1], [1, 1, 0, 0])",
         [&] { sig::firwin2(255, {0.0, 0.3, 0.4, 1.0}, {1.0, 1.0, 0.0, 0.0}); });
  report("D11", "firls(255, [0, .3, .4, 1], [1, 1, 0, 0])",
         [&] { sig::firls(255, {0.0, 0.3, 0.4, 1.0}, {1.0, 1.0, 0.0, 0.0}); });
  report("D12", "remez(255, [0, .15, .2, .5], [1, 0], fs=1)",
         [&] { sig::remez(255, {0.0, 0.15, 0.2, 0.5}, {1.0, 0.0}, {.fs = 1.0}); });
  report("D13", "windows.kaiser(4096, 8.6)", [&] { sig::windows::kaiser(4096, 8.6); });
  report("D14", "windows.chebwin(4096, 100)", [&] { sig::windows::chebwin(4096, 100.0); });
  report("D15", "windows.dpss(1024, 4, Kmax=8)", [&] { sig::windows::dpss(1024, 4.0, {.Kmax = 8}); });
  const auto e12z = sig::ellip(12, 0.5, 60.0, 0.3, {.output = output_form::zpk});
  report("D16", "zpk2sos of ellip 12", [&] { sig::zpk2sos(e12z.z, e12z.p, e12z.k); });
  const auto e12 = sig::ellip(12, 0.5, 60.0, 0.3);
  report("D17", "tf2zpk of ellip 12", [&] { sig::tf2zpk(e12.b, e12.a); });
  report("D18", "freqz of ellip 12 (b, a), 8192 points", [&] { sig::freqz(e12.b, e12.a, 8192); });
  // The same seeded systems as the SciPy side draws are not reproducible across generators; the cases
  // are well-conditioned random systems of the same sizes (the costs do not depend on the values).
  std::mt19937_64 g(7);
  std::normal_distribution<double> nd;
  std::vector<double> a8(64), b8(16), c8(16), d8(4, 0.0), a6(36), b6(12);
  for (auto& v : a8) v = nd(g);
  for (int i = 0; i < 8; ++i) a8[static_cast<std::size_t>(9 * i)] -= 3.0;
  for (auto& v : b8) v = nd(g);
  for (auto& v : c8) v = nd(g);
  for (auto& v : a6) v = nd(g);
  for (auto& v : b6) v = nd(g);
  const host_array A8 = matrix(a8, 8, 8), B8 = matrix(b8, 8, 2), C8 = matrix(c8, 2, 8), D8 = matrix(d8, 2, 2);
  report("D19", "cont2discrete zoh, 8 states 2x2", [&] { sig::cont2discrete(A8, B8, C8, D8, 0.01); });
  const host_array A6 = matrix(a6, 6, 6), B6 = matrix(b6, 6, 2);
  const host_array poles6 = host_array::from(std::vector<double>{-1, -2, -3, -4, -5, -6});
  report("D20", "place_poles 6 states 2 inputs (YT)", [&] { sig::place_poles(A6, B6, poles6); });
  const host_array h255 = sig::remez(255, {0.0, 0.15, 0.2, 0.5}, {1.0, 0.0}, {.fs = 1.0});
  report("D21", "minimum_phase of a 255-tap remez filter", [&] { sig::minimum_phase(h255); });
  return 0;
}
