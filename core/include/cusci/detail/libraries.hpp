#pragma once
/// @file detail/libraries.hpp
/// Per-device, per-thread handles of the CUDA math libraries, created lazily, bound to the current
/// stream at each fetch, with workspaces from the pool. For use inside cusci's modules.

#include <cstddef>

#include <cublas_v2.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <cusparse.h>

namespace cusci::detail {

/// cuBLAS handle of the current device and thread, set to the current stream, with its workspace
/// (cublasSetWorkspace) taken from the pool.
cublasHandle_t cublas_handle();
/// cuSPARSE handle of the current device and thread, set to the current stream.
cusparseHandle_t cusparse_handle();
/// cuSOLVER dense handle of the current device and thread, set to the current stream.
cusolverDnHandle_t cusolver_dn_handle();

/// Everything a cuFFT plan depends on.
struct fft_plan_key {
  int rank = 1;
  long long n[3] = {0, 0, 0};
  long long inembed[3] = {0, 0, 0};
  long long istride = 1, idist = 0;
  long long onembed[3] = {0, 0, 0};
  long long ostride = 1, odist = 0;
  long long batch = 1;
  int type = 0;  ///< cufftType
  int device = 0;
  bool operator==(const fft_plan_key&) const = default;
};

/// A cached cuFFT plan: made with auto-allocation off; each fetch binds it to the current stream,
/// and when the stream differs from the last fetch's, gives it a new work area from the pool
/// allocated on that stream.
/// Plans are cached per thread with an LRU bound (16 plans).
cufftHandle fft_plan(const fft_plan_key& key);

}  // namespace cusci::detail
