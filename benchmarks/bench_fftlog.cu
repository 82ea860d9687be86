// Benchmarks of core's fast Hankel transform (cusci/fftlog.hpp: fht, ifht, fhtoffset, SciPy's
// scipy.fft.fht / ifht / fhtoffset). Peers in peers_fftlog.py: SciPy 1.18.1 on the CPU of the same
// machine under the same ids (target: FH1 at least 10x faster than SciPy), CuPy's cupyx.scipy.fft.fht
// under FH<k>-cupy where it exists.
//   FH1  fht of 2^24 float64, dln = 0.01, mu = 0.5, offset 0, bias 0          (bytes 2 * 8 * N)
//   FH2  fht of 2^24 float64, mu = 0.5, bias 0.3, offset = fhtoffset(dln, mu, bias = 0.3),
//        dln = 1e-5 (not 0.01: with a bias q the input is multiplied by exp(-q (j - j_c) dln), which
//        for n = 2^24, q = 0.3 and dln = 0.01 reaches about exp(+-25,000), overflowing float64, and
//        SciPy warns "overflow encountered in exp" and returns NaN everywhere; with dln = 1e-5 the
//        power law spans exp(+-25.2), and SciPy's result is finite without warnings, the
//        coefficients not singular)                                            (bytes 2 * 8 * N)
//   FH3  ifht of 2^24 float64, dln = 0.01, mu = 0.5                             (bytes 2 * 8 * N)
//   FH4  fht along the last axis of a [16, 2^20] float64 batch, dln = 0.01, mu = 0.5 (bytes 2 * 8 * N)
//   FH5  fht of 2^24 float32 (float32 result), dln = 0.01, mu = 0.5             (bytes 2 * 4 * N)
// Bytes: only the minimal traffic of the operation, one read of the input and one write of the
// output (N elements of the input's dtype each). Not counted: the real FFT's own passes (cuFFT reads
// and writes the data more than once for 2^24 points), the half spectrum of n / 2 + 1 complex values
// written by rfft, read and written by the multiplication by the coefficients u_m and read by irfft,
// the n / 2 + 1 complex128 coefficients the device computes and writes, and with a bias (FH2) the two
// power-law multiplications. roof_pct is therefore a lower bound on the
// fraction of the copy bandwidth used.
// Inputs: uniform in [0, 1) from bench_data.cuh's hash generator (float32, converted to float64 for
// the float64 cases); SciPy's peers use np.random.default_rng(0) on the same shapes: the transform takes
// no data-dependent path, so its time does not depend on the values. Each case runs 2 warm-up calls
// and 11 timed calls . One JSON line per case.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "bench_data.cuh"
#include "cusci/core.hpp"
#include "cusci/fftlog.hpp"
#include "harness.hpp"

namespace {

constexpr int kRuns = 20;
constexpr int kWarmup = 2;

// An array of `shape` and dtype `dt` (float32 or float64) with values in [0, 1).
cusci::ndarray random_real(const cusci::shape_t& shape, cusci::dtype dt, std::uint32_t seed) {
  cusci::ndarray f = cusci::bench::random_f32(shape, seed, 0.0f);
  return f.dtype() == dt ? f : f.astype(dt);
}

// Throws unless `r` has `a`'s shape and dtype `dt` (a wrong result would make the time meaningless).
void expect_result(const cusci::ndarray& r, const cusci::ndarray& a, cusci::dtype dt, const char* id) {
  if (r.shape() != a.shape() || r.dtype() != dt)
    throw cusci::value_error(std::string("bench_fftlog ") + id + ": unexpected result shape or dtype");
}

}  // namespace

int main() {
  using namespace cusci;
  namespace ft = cusci::fft;
  using bench::report;
  using bench::time_it;
  if (bench::no_device()) return 77;
  const std::int64_t N = 1LL << 24;
  const double dln = 0.01, mu = 0.5;
  {
    ndarray x = random_real({N}, dtype::float64, 1);
    expect_result(ft::fht(x, dln, mu), x, dtype::float64, "FH1");
    report("FH1", "fht 2^24 f64 (dln 0.01, mu 0.5)", time_it([&] { ft::fht(x, dln, mu); }, kRuns, kWarmup),
           2.0 * 8 * N);

    const double dln2 = 1e-5, bias = 0.3;
    const double offset = ft::fhtoffset(dln2, mu, {.bias = bias});
    expect_result(ft::fht(x, dln2, mu, {.offset = offset, .bias = bias}), x, dtype::float64, "FH2");
    char extra[64];
    std::snprintf(extra, sizeof extra, "\"offset\":%.17g", offset);
    report("FH2", "fht 2^24 f64 (dln 1e-5, mu 0.5, fhtoffset, bias 0.3)",
           time_it([&] { ft::fht(x, dln2, mu, {.offset = offset, .bias = bias}); }, kRuns, kWarmup), 2.0 * 8 * N,
           extra);

    expect_result(ft::ifht(x, dln, mu), x, dtype::float64, "FH3");
    report("FH3", "ifht 2^24 f64 (dln 0.01, mu 0.5)", time_it([&] { ft::ifht(x, dln, mu); }, kRuns, kWarmup),
           2.0 * 8 * N);
  }
  {
    const std::int64_t rows = 16, n = 1LL << 20;
    ndarray x = random_real({rows, n}, dtype::float64, 2);
    expect_result(ft::fht(x, dln, mu), x, dtype::float64, "FH4");
    report("FH4", "fht [16, 2^20] f64 axis -1 (dln 0.01, mu 0.5)",
           time_it([&] { ft::fht(x, dln, mu); }, kRuns, kWarmup), 2.0 * 8 * rows * n,
           "");
  }
  {
    ndarray x = random_real({N}, dtype::float32, 3);
    expect_result(ft::fht(x, dln, mu), x, dtype::float32, "FH5");
    report("FH5", "fht 2^24 f32 (dln 0.01, mu 0.5)", time_it([&] { ft::fht(x, dln, mu); }, kRuns, kWarmup),
           2.0 * 4 * N);
  }
  synchronize();
  return 0;
}
