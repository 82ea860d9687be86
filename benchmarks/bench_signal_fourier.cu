// cusci::signal fourier-family benchmarks:
//   G7   hilbert of one (2^26,) float32 signal (complex64 result): R2C, one weights kernel, C2R, one
//        kernel interleaving x and its Hilbert transform
//   G7f  the bare cuFFT calls hilbert makes at that size (R2C 2^26 into a half spectrum, then C2R 2^26
//        out of place): G7 / G7f is hilbert's overhead
//   G7c  czt of one (2^20,) complex64 signal to m = 2^20 points (complex128 result, as SciPy)
//   G7d  detrend linear of (256, 2^18) float32 along the last axis
// Bytes: G7/G7f one read of x and one write of the result; G7c one read of x and one write of the
// result; G7d one read and one write.

#include <cstdio>

#include <cufft.h>

#include "cusci/core.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/signal/fourier.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

int main() {
  if (bench::no_device()) return 77;
  const std::int64_t n = 1 << 26;
  ndarray x = random::default_rng(1).random({n}, dtype::float32);
  ndarray y;
  auto r = bench::time_it([&] { y = sig::hilbert(x); });
  bench::report("G7", "hilbert (2^26,) f32 -> c64", r, 4.0 * n + 8.0 * n);

  {
    ndarray buf = empty({n / 2 + 1}, dtype::complex64);
    ndarray h = empty({n}, dtype::float32);
    detail::fft_plan_key kr;
    kr.n[0] = n;
    kr.type = CUFFT_R2C;
    detail::fft_plan_key kc;
    kc.n[0] = n;
    kc.type = CUFFT_C2R;
    auto pr = detail::acquire_fft_plan(kr);
    auto pc = detail::acquire_fft_plan(kc);
    r = bench::time_it([&] {
      pr = detail::acquire_fft_plan(kr);
      CUSCI_CUFFT_TRY(cufftExecR2C(pr.handle, x.data_as<cufftReal>(), buf.data_as<cufftComplex>()));
      pc = detail::acquire_fft_plan(kc);
      CUSCI_CUFFT_TRY(cufftExecC2R(pc.handle, buf.data_as<cufftComplex>(), h.data_as<cufftReal>()));
    });
    bench::report("G7f", "cuFFT R2C + C2R (2^26,) f32 (hilbert's floor)", r, 4.0 * n + 8.0 * n);
  }
  x = ndarray();
  y = ndarray();

  const std::int64_t nc = 1 << 20;
  ndarray xc = random::default_rng(2).random({nc}, dtype::float32).astype(dtype::complex64);
  r = bench::time_it([&] { y = sig::czt(xc); });
  bench::report("G7c", "czt (2^20,) c64 -> m=2^20 c128", r, 8.0 * nc + 16.0 * nc);
  const sig::CZT t(nc);
  r = bench::time_it([&] { y = t(xc); });
  bench::report("G7co", "CZT object call (2^20,) c64 -> m=2^20 c128 (chirps reused)", r, 8.0 * nc + 16.0 * nc);
  xc = ndarray();

  ndarray xd = random::default_rng(3).random({256, 1 << 18}, dtype::float32);
  r = bench::time_it([&] { y = sig::detrend(xd); });
  bench::report("G7d", "detrend linear (256, 2^18) f32", r, 2.0 * 4.0 * (1 << 26));
  return 0;
}
