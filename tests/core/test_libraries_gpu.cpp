// Cached library handles: one per device and thread, bound to the current stream at each fetch, and the
// cuFFT plan cache with pool work areas.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <thread>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/detail/libraries.hpp"

using namespace cusci;

TEST_CASE("handles are cached per thread and bound to the current stream") {
  cublasHandle_t h1 = detail::cublas_handle();
  CHECK(detail::cublas_handle() == h1);
  stream s(true);
  {
    stream_guard g(s);
    cublasHandle_t h = detail::cublas_handle();
    CHECK(h == h1);
    cudaStream_t bound = nullptr;
    CHECK(cublasGetStream(h, &bound) == CUBLAS_STATUS_SUCCESS);
    CHECK(bound == s.handle());
    cusparseHandle_t sp = detail::cusparse_handle();
    CHECK(cusparseGetStream(sp, &bound) == CUSPARSE_STATUS_SUCCESS);
    CHECK(bound == s.handle());
    cusolverDnHandle_t so = detail::cusolver_dn_handle();
    CHECK(cusolverDnGetStream(so, &bound) == CUSOLVER_STATUS_SUCCESS);
    CHECK(bound == s.handle());
  }
  cublasHandle_t other = nullptr;
  std::thread t([&] { other = detail::cublas_handle(); });
  t.join();
  CHECK(other != h1);
}

TEST_CASE("cuBLAS through the cached handle computes a dot product") {
  std::vector<double> x{1, 2, 3, 4};
  memory_ptr d = cusci::malloc(4 * sizeof(double));
  CHECK(cudaMemcpy(d->ptr(), x.data(), 32, cudaMemcpyHostToDevice) == cudaSuccess);
  double r = 0;
  cublasHandle_t h = detail::cublas_handle();
  CHECK(cublasDdot(h, 4, static_cast<double*>(d->ptr()), 1, static_cast<double*>(d->ptr()), 1, &r) ==
        CUBLAS_STATUS_SUCCESS);
  synchronize();
  CHECK(r == 30.0);
}

TEST_CASE("cuFFT plans are cached by key and transform correctly with a pool work area") {
  const int n = 8;
  detail::fft_plan_key key;
  key.rank = 1;
  key.n[0] = n;
  key.type = CUFFT_Z2Z;
  key.batch = 1;
  cufftHandle p = detail::fft_plan(key);
  CHECK(detail::fft_plan(key) == p);
  std::vector<std::complex<double>> x(n);
  for (int i = 0; i < n; ++i) x[i] = {std::cos(0.3 * i), 0.5 * i};
  memory_ptr d = cusci::malloc(n * sizeof(std::complex<double>));
  CHECK(cudaMemcpy(d->ptr(), x.data(), n * 16, cudaMemcpyHostToDevice) == cudaSuccess);
  auto* dp = static_cast<cufftDoubleComplex*>(d->ptr());
  CHECK(cufftExecZ2Z(p, dp, dp, CUFFT_FORWARD) == CUFFT_SUCCESS);
  std::vector<std::complex<double>> y(n);
  CHECK(cudaMemcpy(y.data(), d->ptr(), n * 16, cudaMemcpyDeviceToHost) == cudaSuccess);
  // Direct DFT as the reference (definition of the forward transform, exp(-2*pi*i*j*k/n)).
  for (int k = 0; k < n; ++k) {
    std::complex<double> ref = 0;
    for (int j = 0; j < n; ++j) ref += x[j] * std::polar(1.0, -2.0 * M_PI * j * k / n);
    CHECK(std::abs(y[k] - ref) < 1e-12);
  }
  detail::fft_plan_key other = key;
  other.n[0] = 16;
  CHECK(detail::fft_plan(other) != 0);
  for (int m = 17; m < 40; ++m) {  // overflow the LRU bound: older plans are evicted without error
    other.n[0] = m;
    detail::fft_plan(other);
  }
  CHECK(detail::fft_plan(key) != 0);
}
