#pragma once
/// @file detail/libraries.hpp
/// Per-device, per-thread handles of the CUDA math libraries, created lazily, bound to the current
/// stream at each fetch, with workspaces from the pool. For use inside cusci's modules.

#include <cstddef>
#include <memory>

#include <cublas_v2.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <cusparse.h>

namespace cusci::detail {

/// Creation under memory pressure (all three handles and the cuFFT plans below): a creation that
/// fails is retried once after the pool's cached blocks are returned to the device; when it fails
/// again with the library's allocation status (ALLOC_FAILED, or NOT_INITIALIZED / SETUP_FAILED, which
/// the create functions return when their internal cudaMalloc fails) it throws cusci::out_of_memory,
/// otherwise the library's error. A failed creation caches nothing and leaves no pending CUDA error:
/// the next fetch on the thread tries again from scratch.

/// cuBLAS handle of the current device and thread, set to the current stream, with its workspace
/// (cublasSetWorkspace) taken from the pool.
/// @throws cusci::out_of_memory (creation, as above, or the workspace); cusci::cublas_error.
cublasHandle_t cublas_handle();
/// cuSPARSE handle of the current device and thread, set to the current stream.
/// @throws cusci::out_of_memory (creation, as above); cusci::cusparse_error.
cusparseHandle_t cusparse_handle();
/// cuSOLVER dense handle of the current device and thread, set to the current stream.
/// @throws cusci::out_of_memory (creation, as above); cusci::cusolver_error.
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

/// A cuFFT plan in use. `keep` holds the plan (and its work area) alive while the caller executes
/// it, even when the cache evicts it meanwhile or caching is disabled.
struct fft_plan_lease {
  cufftHandle handle = 0;
  std::shared_ptr<void> keep;
};

/// The plan for `key` (key.device is overwritten with the current device) from the calling thread's
/// plan cache of the current device (see `cusci::fft::plan_cache`), made on a miss with
/// auto-allocation off and a work area from the pool; bound to the current stream (cufftSetStream)
/// and, when the stream differs from its last use, given a new work area allocated on that stream.
/// @throws cusci::out_of_memory when the plan or its work area cannot be allocated (after the retry
///         described above); cusci::cufft_error when cuFFT cannot make the plan for another reason.
fft_plan_lease acquire_fft_plan(const fft_plan_key& key);

/// The same, returning the bare handle (for callers that execute it at once): it stays valid at
/// least until the next call of fft_plan / acquire_fft_plan on this thread.
cufftHandle fft_plan(const fft_plan_key& key);

}  // namespace cusci::detail
