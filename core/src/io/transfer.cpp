/// @file transfer.cpp
/// Host <-> device transfers through pinned staging blocks from the pinned pool.
///
/// Host to device (`asarray`): the host data is copied into a pinned block, and cudaMemcpyAsync moves
/// it to the device on the current stream. The call does not wait for the copy: the pinned block must
/// outlive it, so an event is recorded after the copy and the block is parked in a process-wide list;
/// each later transfer call releases the parked blocks whose event has completed (cudaEventQuery,
/// never blocking). If an event cannot be created or recorded, the call synchronizes the stream
/// instead. The caller's host buffer is free for reuse as soon as `asarray` returns.
///
/// Device to host (`to_host`): a C-contiguous device copy is made first when the array is not
/// C-contiguous, then copied to a pinned block on the current stream; the stream is synchronized and
/// the data copied into the host_array.

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci {
namespace {

struct parked_block {
  memory_ptr block;
  cudaEvent_t done;
};

// Leaked on purpose: blocks still parked at process exit must not be released while the CUDA runtime
// and the pools are being torn down.
std::mutex& parked_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::vector<parked_block>& parked() {
  static auto* v = new std::vector<parked_block>;
  return *v;
}

/// Releases the parked blocks whose copy has completed. Caller holds parked_mutex().
void release_finished_locked() {
  auto& v = parked();
  std::vector<parked_block> keep;
  for (auto& p : v) {
    const cudaError_t st = cudaEventQuery(p.done);
    if (st == cudaErrorNotReady) {
      keep.push_back(std::move(p));
      continue;
    }
    // Success, or an error from earlier asynchronous work (reported by the next checked call): either
    // way the copy will not touch the block any more.
    if (st != cudaSuccess) (void)cudaGetLastError();
    (void)cudaEventDestroy(p.done);
  }
  v.swap(keep);  // the released entries' blocks go back to the pinned pool with `keep`
}

void release_finished() {
  std::lock_guard<std::mutex> lock(parked_mutex());
  release_finished_locked();
}

/// Keeps `block` alive until the work enqueued so far on `stream` has completed.
void release_after(memory_ptr block, cudaStream_t stream) {
  cudaEvent_t ev = nullptr;
  if (cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) {
    (void)cudaGetLastError();
    CUSCI_CUDA_TRY(cudaStreamSynchronize(stream));
    return;
  }
  if (cudaEventRecord(ev, stream) != cudaSuccess) {
    (void)cudaGetLastError();
    (void)cudaEventDestroy(ev);
    CUSCI_CUDA_TRY(cudaStreamSynchronize(stream));
    return;
  }
  std::lock_guard<std::mutex> lock(parked_mutex());
  release_finished_locked();
  parked().push_back({std::move(block), ev});
}

}  // namespace

ndarray asarray(const void* src, dtype dt, const shape_t& shape) {
  CUSCI_NVTX_SCOPE("cusci::asarray");
  ndarray out(shape, dt, order::C);
  const std::size_t bytes = out.nbytes();
  if (bytes == 0) return out;
  CUSCI_EXPECTS(src != nullptr, value_error, "cusci::asarray: src is null for a non-empty array");
  cudaStream_t stream = get_current_stream();
  memory_ptr staging = pinned_malloc(bytes);
  std::memcpy(staging->ptr(), src, bytes);
  CUSCI_CUDA_TRY(cudaMemcpyAsync(out.data(), staging->ptr(), bytes, cudaMemcpyHostToDevice, stream));
  release_after(std::move(staging), stream);
  return out;
}

ndarray asarray(const host_array& h) { return asarray(h.data(), h.dtype(), h.shape()); }

host_array to_host(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::to_host");
  host_array h(a.dtype(), a.shape());
  const std::size_t bytes = a.nbytes();
  if (bytes == 0) return h;
  device_guard guard(a.device());
  const ndarray src = a.is_c_contiguous() ? a : a.copy(order::C);
  cudaStream_t stream = get_current_stream();
  memory_ptr staging = pinned_malloc(bytes);
  CUSCI_CUDA_TRY(cudaMemcpyAsync(staging->ptr(), src.data(), bytes, cudaMemcpyDeviceToHost, stream));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(stream));
  std::memcpy(h.data(), staging->ptr(), bytes);
  release_finished();
  return h;
}

}  // namespace cusci
