// The CUDA libraries are loaded on first use (cusci/detail/lazy_libs.hpp): a program linking cusci_core
// starts with none of cuBLAS, cuSPARSE, cuSOLVER, cuFFT, NVRTC mapped, and a call that needs one loads it
// (and it alone). Host-only: the status-string and version functions used here never touch a device.
// Must be its own executable (nothing else may have loaded the libraries first) that does NOT link
// CUDA::cublas & co.:  cusci_add_test(test_core_lazy_libs LABEL host SOURCES test_lazy_libs_host.cpp)
#include <doctest/doctest.h>

#include <cublas_v2.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <nvrtc.h>

#include <fstream>
#include <string>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/error.hpp"

namespace {
// Whether a shared object whose path contains `name` is mapped into this process.
bool mapped(const std::string& name) {
  std::ifstream f("/proc/self/maps");
  std::string line;
  while (std::getline(f, line))
    if (line.find(name) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("lazy_libs: CUDA libraries are loaded on first use, one at a time") {
  // Test order matters: this case runs first and alone in its executable.
  CHECK_FALSE(mapped("libcublas.so"));
  CHECK_FALSE(mapped("libcusparse.so"));
  CHECK_FALSE(mapped("libcusolver.so"));
  CHECK_FALSE(mapped("libcufft.so"));
  CHECK_FALSE(mapped("libnvrtc.so"));

  // throw_cublas_error names the status through cuBLAS: loads cuBLAS (and its cuBLASLt), nothing else.
  try {
    cusci::detail::throw_cublas_error(CUBLAS_STATUS_NOT_INITIALIZED, "call", "file", 1);
  } catch (const cusci::cublas_error& e) {
    CHECK(std::string(e.what()).find("CUBLAS_STATUS_NOT_INITIALIZED") != std::string::npos);
  }
  CHECK(mapped("libcublas.so"));
  CHECK_FALSE(mapped("libcusparse.so"));
  CHECK_FALSE(mapped("libcufft.so"));

  try {
    cusci::detail::throw_cusparse_error(CUSPARSE_STATUS_INVALID_VALUE, "call", "file", 2);
  } catch (const cusci::cusparse_error& e) {
    CHECK(std::string(e.what()).find("CUSPARSE_STATUS_INVALID_VALUE") != std::string::npos);
  }
  CHECK(mapped("libcusparse.so"));

  int v = 0;
  CHECK(CUSCI_LAZY(cufftGetVersion)(&v) == CUFFT_SUCCESS);
  CHECK(v / 1000 == CUFFT_VER_MAJOR);
  CHECK(CUSCI_LAZY(cusolverGetVersion)(&v) == CUSOLVER_STATUS_SUCCESS);
  CHECK(v / 1000 == CUSOLVER_VER_MAJOR);
  int major = 0, minor = 0;
  CHECK(CUSCI_LAZY(nvrtcVersion)(&major, &minor) == NVRTC_SUCCESS);
  CHECK(major == CUDART_VERSION / 1000);
  // The header's rename: cublasGetVersion is cublasGetVersion_v2, resolved by its exported name.
  CHECK(CUSCI_LAZY(cublasGetVersion)(nullptr, &v) == CUBLAS_STATUS_SUCCESS);
  CHECK(v / 10000 == CUBLAS_VER_MAJOR);
}

TEST_CASE("lazy_libs: a name of no CUDA library is an internal error, not a crash") {
  CHECK_THROWS_AS(cusci::detail::lazy_symbol("notalibraryFunction"), cusci::error);
  // A function the library lacks: cuda_error naming it.
  CHECK_THROWS_AS(cusci::detail::lazy_symbol("cufftNoSuchFunction"), cusci::cuda_error);
}
