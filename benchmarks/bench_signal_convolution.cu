// cusci::signal convolution benchmarks (ids of the CuPy H200 baseline, ../shared/cupy-h200-baseline.md):
//   G1    fftconvolve of a (2^26,) float32 signal with 4096 float32 taps, mode same
//   G1o   oaconvolve, the same inputs
//   G1a   convolve (method auto) on the same inputs: choose_conv_method must pick fft
//   G1c   convolve2d of a 4096^2 float32 image with a 15x15 float32 kernel, mode same, boundary fill
// and the bare cuFFT work the overlap-save engine relies on (ids G1.cufft.*), so the roofline can be
// judged: the batched R2C of the gathered blocks and the C2R back, for the block length the engine
// picks for 4096 taps and its neighbours, the in-place-windows R2C that lost, and a device copy of
// the signal as the ceiling.
// Bytes = one read of the signal and one write of the output (the copy roofline of the operation).

#include <cstdio>
#include <cstdlib>

#include <cufft.h>

#include "cusci/core.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/signal/convolution.hpp"
#include "harness.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {

// A batched 1-D plan through core's cache (the same path the engine takes).
cufftHandle plan(std::int64_t n, std::int64_t idist, std::int64_t in_len, std::int64_t odist, std::int64_t out_len,
                 std::int64_t batch, cufftType t) {
  cusci::detail::fft_plan_key k;
  k.rank = 1;
  k.n[0] = n;
  k.inembed[0] = in_len;
  k.onembed[0] = out_len;
  k.idist = idist;
  k.odist = odist;
  k.batch = batch;
  k.type = static_cast<int>(t);
  return cusci::detail::fft_plan(k);
}

}  // namespace

int main() {
  if (device_count() == 0) {
    std::printf("no GPU\n");
    return 0;
  }
  const std::int64_t N = std::int64_t{1} << 26, M = 4096;
  // Inputs not zeros: a ramp through sin, as random as it needs to be for timing.
  ndarray x = sin(multiply(arange(scalar(N)).astype(dtype::float32), scalar(0.001))).astype(dtype::float32);
  ndarray h = divide(cos(multiply(arange(scalar(M)).astype(dtype::float32), scalar(0.01))), scalar(double(M)))
                  .astype(dtype::float32);
  const double bytes = 2.0 * 4.0 * static_cast<double>(N);

  ndarray y;
  auto r = bench::time_it([&] { y = sig::fftconvolve(x, h, {.mode = sig::conv_mode::same}); });
  bench::report("G1", "fftconvolve (2^26,) f32 x 4096 taps, same", r, bytes);
  r = bench::time_it([&] { y = sig::oaconvolve(x, h, {.mode = sig::conv_mode::same}); });
  bench::report("G1o", "oaconvolve (2^26,) f32 x 4096 taps, same", r, bytes);
  const auto m = sig::choose_conv_method(x, h, {.mode = sig::conv_mode::same});
  std::printf("# G1a: choose_conv_method picks %s\n", m == sig::conv_method::fft ? "fft" : "direct");
  r = bench::time_it([&] { y = sig::convolve(x, h, {.mode = sig::conv_mode::same}); });
  bench::report("G1a", "convolve auto (2^26,) f32 x 4096 taps, same", r, bytes);

  // The bare cuFFT work of the engine (batched R2C of the gathered windows [nb, n], C2R back) for
  // block lengths around its choice (n = 16384 for 4096 taps), and the R2C reading the overlapping
  // windows in place (idist = hop), the variant that lost (slower than gather + contiguous R2C).
  for (std::int64_t n : {8192, 16384, 32768}) {
    const std::int64_t B = (n - M + 1) & ~std::int64_t{3}, nc = n / 2 + 1;
    const std::int64_t nb = (N + B - 1) / B - 1;
    device_buffer<float> E(static_cast<std::size_t>(nb * n));
    device_buffer<cufftComplex> S(static_cast<std::size_t>(nb * nc));
    CUSCI_CUDA_TRY(cudaMemsetAsync(E.data(), 0, sizeof(float) * static_cast<std::size_t>(nb * n), get_current_stream()));
    const double tb = 4.0 * static_cast<double>(nb) * static_cast<double>(n + 2 * nc);
    cufftHandle f = plan(n, n, n, nc, nc, nb, CUFFT_R2C);
    r = bench::time_it([&] { CUSCI_CUFFT_TRY(cufftExecR2C(f, E.data(), S.data())); });
    bench::report("G1.cufft.r2c." + std::to_string(n), "bare batched R2C of gathered windows, n=" + std::to_string(n),
                  r, tb);
    cufftHandle g = plan(n, nc, nc, n, n, nb, CUFFT_C2R);
    r = bench::time_it([&] { CUSCI_CUFFT_TRY(cufftExecC2R(g, S.data(), E.data())); });
    bench::report("G1.cufft.c2r." + std::to_string(n), "bare batched C2R, n=" + std::to_string(n), r, tb);
    cufftHandle w = plan(n, B, n, nc, nc, nb, CUFFT_R2C);
    r = bench::time_it([&] { CUSCI_CUFFT_TRY(cufftExecR2C(w, x.data_as<float>(), S.data())); });
    bench::report("G1.cufft.r2c_windows." + std::to_string(n),
                  "bare batched R2C reading overlapping windows in place, n=" + std::to_string(n), r, tb);
  }
  {
    ndarray a = empty({N}, dtype::float32), b = empty({N}, dtype::float32);
    r = bench::time_it([&] {
      CUSCI_CUDA_TRY(cudaMemcpyAsync(b.data(), a.data(), 4 * static_cast<std::size_t>(N), cudaMemcpyDeviceToDevice,
                                     get_current_stream()));
    });
    bench::report("G1.copy", "d2d copy of the signal (the roofline)", r, bytes);
  }

  // G1c: 4096^2 float32 image, 15x15 kernel, same, fill.
  ndarray img = sin(multiply(arange(scalar(std::int64_t{4096} * 4096)).astype(dtype::float32), scalar(0.37)))
                    .astype(dtype::float32)
                    .reshape({4096, 4096});
  ndarray k = divide(cos(multiply(arange(scalar(225)).astype(dtype::float32), scalar(0.3))), scalar(225.0))
                  .astype(dtype::float32)
                  .reshape({15, 15});
  r = bench::time_it([&] { y = sig::convolve2d(img, k, {.mode = sig::conv_mode::same}); });
  bench::report("G1c", "convolve2d 4096^2 f32 x 15x15, same, fill", r, 2.0 * 4.0 * 4096.0 * 4096.0);
  r = bench::time_it([&] {
    y = sig::convolve2d(img, k, {.mode = sig::conv_mode::same, .boundary = sig::conv_boundary::symm});
  });
  bench::report("G1c.symm", "convolve2d 4096^2 f32 x 15x15, same, symm", r, 2.0 * 4.0 * 4096.0 * 4096.0);
  return 0;
}
