/// @file interop_peer.cpp
/// Copies of arrays between devices (cudaMemcpyPeerAsync), ordered against the current streams of
/// both devices with events; see `to_device` in device.hpp.

#include <string>

#include <cuda_runtime_api.h>

#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci {

ndarray to_device(const ndarray& a, int device, bool copy) {
  CUSCI_NVTX_SCOPE("cusci::to_device");
  const int n = device_count();
  CUSCI_EXPECTS(device >= 0 && device < n, index_error,
                "cusci::to_device: device must be in [0, " + std::to_string(n) + "), got " + std::to_string(device));
  const bool keep_f = a.is_f_contiguous() && !a.is_c_contiguous();
  if (a.device() == device) {
    if (!copy) return a;
    device_guard g(device);
    return a.copy(keep_f ? order::F : order::C);
  }
  const int src_dev = a.device();
  // A contiguous source on its own device (C, or F when `a` is F-contiguous).
  ndarray src;
  cudaStream_t src_stream;
  {
    device_guard g(src_dev);
    src = (a.is_c_contiguous() || keep_f) ? a : a.copy(order::C);
    src_stream = get_current_stream();
  }
  device_guard g(device);
  ndarray out(a.shape(), a.dtype(), keep_f ? order::F : order::C);
  const std::size_t bytes = a.nbytes();
  if (bytes == 0) return out;
  cudaStream_t dst_stream = get_current_stream();
  enable_peer_access(src_dev);  // false: the driver stages the copy through host memory

  // dst_stream waits for the work enqueued so far on src_stream (which writes `a`).
  {
    device_guard gs(src_dev);
    event before(true);
    before.record(src_stream);
    before.wait_on(dst_stream);
  }
  CUSCI_CUDA_TRY(cudaMemcpyPeerAsync(out.data(), device, src.data(), src_dev, bytes, dst_stream));
  // src_stream waits for the copy: the source's pool (ordered by src_stream) may then reuse its
  // memory safely once `a` or the temporary copy is released.
  {
    event after(true);
    after.record(dst_stream);
    after.wait_on(src_stream);
  }
  return out;
}

}  // namespace cusci
