// cusci::signal responses-family benchmarks (frequency responses on the GPU, float64 / complex128):
//   FR1  freqz of 64 FIR filters (numtaps 101) at once, SciPy's N-D b form b [101, 64, 1], on 2^20
//        points: h [64, 2^20] complex128 (1 GiB)
//   FR2  freqz of one order-8 IIR filter (b, a) on 2^20 points
//   FR3  freqz_sos of an order-16 filter (8 sections) on 2^20 points
// Bytes: the write of h and w (the coefficients are negligible). The evaluation is direct (Horner in
// z^-1, one sincos per frequency shared by the filters of a thread's group), so FR1 is bound by
// double-precision arithmetic (101 complex multiply-adds per point and filter) rather than memory.

#include <cmath>
#include <cstdio>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/iir_design.hpp"
#include "cusci/signal/responses.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

int main() {
  if (bench::no_device()) return 77;
  const std::int64_t n = 1 << 20;
  const std::int64_t K = 64, ntaps = 101;
  // 64 low-pass FIR filters of cutoffs 0.01 .. 0.95 (firwin), in SciPy's layout [ntaps, K, 1].
  std::vector<double> bank(static_cast<std::size_t>(ntaps * K));
  for (std::int64_t k = 0; k < K; ++k) {
    const host_array f = sig::firwin(ntaps, 0.01 + 0.94 * static_cast<double>(k) / static_cast<double>(K - 1));
    const double* p = f.data_as<double>();
    for (std::int64_t t = 0; t < ntaps; ++t) bank[static_cast<std::size_t>(t * K + k)] = p[t];
  }
  const ndarray b = asarray(bank, shape_t{ntaps, K, 1});
  sig::device_freq_response r;
  auto t = bench::time_it([&] { r = sig::freqz(b, std::nullopt, n); }, 10, 2);
  bench::report("FR1", "freqz 64 FIR filters (101 taps) x 2^20 points f64 -> c128", t, 16.0 * K * n + 8.0 * n);
  r = {};

  const sig::iir_filter iir = sig::butter(8, 0.2);
  const ndarray bi = asarray(iir.b), ai = asarray(iir.a);
  t = bench::time_it([&] { r = sig::freqz(bi, ai, n); });
  bench::report("FR2", "freqz order-8 IIR (b, a) x 2^20 points f64 -> c128", t, 16.0 * n + 8.0 * n);

  const sig::iir_filter sos = sig::butter(16, 0.2, {.output = sig::output_form::sos});
  const ndarray s = asarray(sos.sos);
  t = bench::time_it([&] { r = sig::freqz_sos(s, n); });
  bench::report("FR3", "freqz_sos order 16 (8 sections) x 2^20 points f64 -> c128", t, 16.0 * n + 8.0 * n);
  return 0;
}
