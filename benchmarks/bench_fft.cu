// Benchmarks of cusci::fft, with CuPy's equivalents in peers_fft.py (same shapes and dtypes):
//   F1     fft of 2^26 complex64                                       (bytes 2 * 8 * N)
//   F1raw  the same with raw cuFFT: one plan made up front, cufftExecC2C out of place on
//          preallocated buffers (the floor cusci's host path adds to)
//   F2     rfft of 2^26 float32                                        (bytes 4 * N + 8 * (N/2 + 1))
//   F3     fft2 of a 4096 x 4096 complex64 array                       (bytes 2 * 8 * N)
//   F3raw  the same with a raw rank-2 cuFFT plan
//   F4     fft along the last axis of 4096 rows of 4096 complex64      (bytes 2 * 8 * N)
//   F5     irfft2 of a 4096 x 2049 complex64 half spectrum -> 4096 x 4096 float32
//   F6     dct (type 2) along the last axis of a 4096 x 4096 float32 array
//   F7     fft of 2^26 complex128                                      (bytes 2 * 16 * N)
// Inputs are random, non-zero, generated on the device by a hash kernel (values do not change the
// FFT's work). All inputs exceed the 60 MB L2. One JSON line per case.
#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>
#include <cufft.h>

#include "cusci/core.hpp"
#include "cusci/fft.hpp"
#include "bench_data.cuh"
#include "harness.hpp"

namespace {

// An array of `shape` and dtype `dt` (float32/64, complex64/128) with values in [-0.5, 0.5): filled in
// single precision, converted for the double-precision dtypes.
cusci::ndarray random_array(const cusci::shape_t& shape, cusci::dtype dt, std::uint32_t seed) {
  const bool cplx = cusci::is_complex(dt);
  cusci::ndarray f = cusci::empty(shape, cplx ? cusci::dtype::complex64 : cusci::dtype::float32);
  cusci::bench::fill_uniform_f32<<<1024, 256, 0, cusci::get_current_stream()>>>(
      static_cast<float*>(f.data()), static_cast<std::int64_t>(f.nbytes() / 4), seed, -0.5f, 0);
  CUSCI_CHECK_LAUNCH();
  return f.dtype() == dt ? f : f.astype(dt);
}

}  // namespace

int main() {
  using namespace cusci;
  namespace ft = cusci::fft;
  const std::int64_t N = 1LL << 26;
  {
    ndarray x = random_array({N}, dtype::complex64, 1);
    auto r = bench::time_it([&] { ft::fft(x); });
    bench::report("F1", "fft 2^26 complex64", r, 2.0 * 8 * N);
    // Raw cuFFT on the same input, output preallocated, plan made once.
    ndarray y = empty({N}, dtype::complex64);
    cufftHandle p;
    CUSCI_CUFFT_TRY(cufftPlan1d(&p, static_cast<int>(N), CUFFT_C2C, 1));
    CUSCI_CUFFT_TRY(cufftSetStream(p, get_current_stream()));
    auto rr = bench::time_it([&] {
      CUSCI_CUFFT_TRY(cufftExecC2C(p, x.data_as<cufftComplex>(), y.data_as<cufftComplex>(), CUFFT_FORWARD));
    });
    bench::report("F1raw", "raw cuFFT C2C 2^26 complex64 (out of place)", rr, 2.0 * 8 * N);
    synchronize();
    cufftDestroy(p);
  }
  {
    ndarray x = random_array({N}, dtype::float32, 2);
    auto r = bench::time_it([&] { ft::rfft(x); });
    bench::report("F2", "rfft 2^26 float32", r, 4.0 * N + 8.0 * (N / 2 + 1));
  }
  {
    ndarray x = random_array({4096, 4096}, dtype::complex64, 3);
    auto r = bench::time_it([&] { ft::fft2(x); });
    bench::report("F3", "fft2 4096x4096 complex64", r, 2.0 * 8 * x.size());
    ndarray y = empty({4096, 4096}, dtype::complex64);
    cufftHandle p;
    CUSCI_CUFFT_TRY(cufftPlan2d(&p, 4096, 4096, CUFFT_C2C));
    CUSCI_CUFFT_TRY(cufftSetStream(p, get_current_stream()));
    auto rr = bench::time_it([&] {
      CUSCI_CUFFT_TRY(cufftExecC2C(p, x.data_as<cufftComplex>(), y.data_as<cufftComplex>(), CUFFT_FORWARD));
    });
    bench::report("F3raw", "raw cuFFT 2-D C2C 4096x4096 complex64 (out of place)", rr, 2.0 * 8 * x.size());
    synchronize();
    cufftDestroy(p);
    auto r4 = bench::time_it([&] { ft::fft(x); });
    bench::report("F4", "fft axis -1 of 4096 rows x 4096 complex64", r4, 2.0 * 8 * x.size());
  }
  {
    ndarray x = random_array({4096, 2049}, dtype::complex64, 4);
    auto r = bench::time_it([&] { ft::irfft2(x, {.s = shape_t{4096, 4096}}); });
    bench::report("F5", "irfft2 4096x2049 complex64 -> 4096x4096 float32", r, 8.0 * x.size() + 4.0 * 4096 * 4096);
  }
  {
    ndarray x = random_array({4096, 4096}, dtype::float32, 5);
    auto r = bench::time_it([&] { ft::dct(x, {.type = 2}); });
    bench::report("F6", "dct type 2 axis -1 of 4096x4096 float32", r, 2.0 * 4 * x.size());
  }
  {
    ndarray x = random_array({N}, dtype::complex128, 6);
    auto r = bench::time_it([&] { ft::fft(x); });
    bench::report("F7", "fft 2^26 complex128", r, 2.0 * 16 * N);
  }
  return 0;
}
