// cusci::signal waveforms and lombscargle benchmarks:
//   LS1   lombscargle of 1e5 irregular float64 samples at 1e4 evenly spaced frequencies (the issue's
//         target: >= 5x CuPy): the tiled trigonometric-sum kernel on its rotation path
//   LS1u  the same at 1e4 unevenly spaced frequencies (one sincos per pair)
//   LS1f  LS1 with floating_mean (6 sums a pair instead of 4)
//   VS1   vectorstrength of 1e5 events at 1e4 periods
//   WF1   chirp (linear) of 2^26 float64 times
//   WF1l  chirp (logarithmic) of 2^26 float64 times
//   WF2   square of 2^26 float32 times (duty 0.3)
//   WF3   sawtooth of 2^26 float32 times (width 0.5)
// Bytes: the waveforms read t and write the result once (8 + 8 bytes a sample for chirp, 4 + 4 for
// square / sawtooth); lombscargle's traffic is negligible (it is FP64-bound), its "bytes" are 0.

#include <cstdio>

#include "cusci/core.hpp"
#include "cusci/signal/lombscargle.hpp"
#include "cusci/signal/waveforms.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

int main() {
  if (bench::no_device()) return 77;
  {
    const std::int64_t n = 100000, nf = 10000;
    auto rng = random::default_rng(7);
    ndarray x = sort(rng.uniform(0.0, 1000.0, {n}));
    ndarray y = add(sin(multiply(x, 0.7)), rng.normal(0.0, 1.0, {n}));
    ndarray f = linspace(0.01, 10.0, nf);
    ndarray fu = sort(rng.uniform(0.01, 10.0, {nf}));
    ndarray p;
    auto r = bench::time_it([&] { p = sig::lombscargle(x, y, f); }, 20, 3);
    bench::report("LS1", "lombscargle 1e5 samples x 1e4 even freqs f64", r, 0);
    r = bench::time_it([&] { p = sig::lombscargle(x, y, fu); }, 20, 3);
    bench::report("LS1u", "lombscargle 1e5 samples x 1e4 uneven freqs f64", r, 0);
    r = bench::time_it([&] { p = sig::lombscargle(x, y, f, {.floating_mean = true}); }, 20, 3);
    bench::report("LS1f", "lombscargle floating_mean 1e5 x 1e4 even f64", r, 0);
    ndarray periods = linspace(1.0, 20.0, nf);
    sig::vectorstrength_result v;
    r = bench::time_it([&] { v = sig::vectorstrength(x, periods); }, 20, 3);
    bench::report("VS1", "vectorstrength 1e5 events x 1e4 periods f64", r, 0);
  }
  const std::int64_t n = 1 << 26;
  {
    ndarray t = linspace(0.0, 10.0, n);
    ndarray y;
    auto r = bench::time_it([&] { y = sig::chirp(t, 6.0, 10.0, 1.0); });
    bench::report("WF1", "chirp linear (2^26,) f64", r, 16.0 * n);
    r = bench::time_it([&] { y = sig::chirp(t, 1.0, 10.0, 60.0, {.method = sig::chirp_method::logarithmic}); });
    bench::report("WF1l", "chirp logarithmic (2^26,) f64", r, 16.0 * n);
  }
  {
    ndarray t = linspace(-100.0, 100.0, n, true, dtype::float32);
    ndarray y;
    auto r = bench::time_it([&] { y = sig::square(t, 0.3); });
    bench::report("WF2", "square (2^26,) f32 duty 0.3", r, 8.0 * n);
    r = bench::time_it([&] { y = sig::sawtooth(t, 0.5); });
    bench::report("WF3", "sawtooth (2^26,) f32 width 0.5", r, 8.0 * n);
  }
  return 0;
}
