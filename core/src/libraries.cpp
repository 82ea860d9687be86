// Per-device, per-thread cuBLAS / cuSPARSE / cuSOLVER handles and the cuFFT plan cache.
//
// Handles are created lazily, bound to the caller's current stream on every fetch, and destroyed at
// thread exit. Workspaces come from the pool and are always allocated on the stream they are used on:
// when a handle or plan is fetched on another stream than before, it gets a new workspace allocated on
// the new stream and the old one goes back to the pool on the old stream. The pool reuses a block only
// on its own stream, in stream order, so no two streams ever share a workspace at once, and no call is
// ever made on a stream that may have been destroyed since.
#include "cusci/detail/libraries.hpp"

#include <array>
#include <list>

#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::detail {
namespace {
constexpr int max_devices = 64;
constexpr std::size_t cublas_workspace_bytes = 32u << 20;  // cuBLAS' recommendation for Hopper

struct per_device {
  cublasHandle_t cublas = nullptr;
  memory_ptr cublas_ws;
  cudaStream_t cublas_stream = nullptr;
  cusparseHandle_t cusparse = nullptr;
  cusolverDnHandle_t cusolver = nullptr;
};

struct fft_entry {
  fft_plan_key key;
  cufftHandle plan = 0;
  std::size_t work_bytes = 0;
  memory_ptr work;
  cudaStream_t stream = nullptr;
};

struct thread_state {
  std::array<per_device, max_devices> dev{};
  std::list<fft_entry> plans;  // most recently used first
  ~thread_state() {
    // Never throws; tolerates the CUDA runtime unloading at process exit.
    for (auto& d : dev) {
      if (d.cublas) cublasDestroy(d.cublas);
      if (d.cusparse) cusparseDestroy(d.cusparse);
      if (d.cusolver) cusolverDnDestroy(d.cusolver);
    }
    for (auto& e : plans) cufftDestroy(e.plan);
  }
};

thread_local thread_state state;

per_device& current() {
  const int d = get_device_id();
  CUSCI_EXPECTS(d < max_devices, index_error, "cusci: device id too large");
  return state.dev[d];
}
}  // namespace

cublasHandle_t cublas_handle() {
  per_device& d = current();
  const cudaStream_t s = get_current_stream();
  if (!d.cublas) CUSCI_CUBLAS_TRY(cublasCreate(&d.cublas));
  if (!d.cublas_ws || d.cublas_stream != s) {
    d.cublas_ws.reset();  // back to the pool on its own stream
    d.cublas_ws = cusci::malloc(cublas_workspace_bytes, s);
    d.cublas_stream = s;
  }
  CUSCI_CUBLAS_TRY(cublasSetStream(d.cublas, s));
  // cublasSetStream resets the workspace to the default: set ours again.
  CUSCI_CUBLAS_TRY(cublasSetWorkspace(d.cublas, d.cublas_ws->ptr(), d.cublas_ws->size()));
  return d.cublas;
}

cusparseHandle_t cusparse_handle() {
  per_device& d = current();
  if (!d.cusparse) CUSCI_CUSPARSE_TRY(cusparseCreate(&d.cusparse));
  CUSCI_CUSPARSE_TRY(cusparseSetStream(d.cusparse, get_current_stream()));
  return d.cusparse;
}

cusolverDnHandle_t cusolver_dn_handle() {
  per_device& d = current();
  if (!d.cusolver) CUSCI_CUSOLVER_TRY(cusolverDnCreate(&d.cusolver));
  CUSCI_CUSOLVER_TRY(cusolverDnSetStream(d.cusolver, get_current_stream()));
  return d.cusolver;
}

cufftHandle fft_plan(const fft_plan_key& key_in) {
  constexpr std::size_t max_plans = 16;
  fft_plan_key key = key_in;
  key.device = get_device_id();
  const cudaStream_t s = get_current_stream();
  auto& plans = state.plans;
  for (auto it = plans.begin(); it != plans.end(); ++it) {
    if (it->key == key) {
      plans.splice(plans.begin(), plans, it);  // mark most recently used
      fft_entry& e = plans.front();
      if (e.stream != s) {
        e.work.reset();  // back to the pool on its own stream
        e.work = cusci::malloc(e.work_bytes, s);
        if (e.work_bytes) CUSCI_CUFFT_TRY(cufftSetWorkArea(e.plan, e.work->ptr()));
        e.stream = s;
      }
      CUSCI_CUFFT_TRY(cufftSetStream(e.plan, s));
      return e.plan;
    }
  }
  fft_entry e;
  e.key = key;
  CUSCI_CUFFT_TRY(cufftCreate(&e.plan));
  try {
    CUSCI_CUFFT_TRY(cufftSetAutoAllocation(e.plan, 0));
    long long n[3], inembed[3], onembed[3];
    for (int i = 0; i < 3; ++i) {
      n[i] = key.n[i];
      inembed[i] = key.inembed[i];
      onembed[i] = key.onembed[i];
    }
    std::size_t work = 0;
    const bool embed = key.inembed[0] != 0;
    CUSCI_CUFFT_TRY(cufftMakePlanMany64(e.plan, key.rank, n, embed ? inembed : nullptr, key.istride, key.idist,
                                        embed ? onembed : nullptr, key.ostride, key.odist,
                                        static_cast<cufftType>(key.type), key.batch, &work));
    e.work_bytes = work;
    e.work = cusci::malloc(work, s);
    if (work) CUSCI_CUFFT_TRY(cufftSetWorkArea(e.plan, e.work->ptr()));
    CUSCI_CUFFT_TRY(cufftSetStream(e.plan, s));
  } catch (...) {
    cufftDestroy(e.plan);
    throw;
  }
  e.stream = s;
  plans.push_front(std::move(e));
  if (plans.size() > max_plans) {
    // The evicted plan may still have queued transforms (its stream may even be destroyed by now):
    // wait for the device before destroying it. Its work area returns to the pool on its stream.
    CUSCI_CUDA_TRY(cudaDeviceSynchronize());
    cufftDestroy(plans.back().plan);
    plans.pop_back();
  }
  return plans.front().plan;
}

}  // namespace cusci::detail
