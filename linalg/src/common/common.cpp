#include <cuda_runtime_api.h>

#include <cstring>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/detail.hpp"

namespace cusci::linalg::detail {

void clear_status(int* status, int count) {
  CUSCI_CUDA_TRY(cudaMemsetAsync(status, 0, static_cast<std::size_t>(count) * sizeof(int), get_current_stream()));
}

status_flags read_status(const int* status, int count) {
  memory_ptr pinned = pinned_malloc(3 * sizeof(int));
  cudaStream_t s = get_current_stream();
  CUSCI_CUDA_TRY(cudaMemcpyAsync(pinned->ptr(), status, static_cast<std::size_t>(count) * sizeof(int),
                                 cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  int v[3] = {0, 0, 0};
  std::memcpy(v, pinned->ptr(), static_cast<std::size_t>(count) * sizeof(int));
  return {v[0], v[1], v[2]};
}

std::vector<int> read_info(const int* info, std::int64_t n) {
  std::vector<int> out(static_cast<std::size_t>(n));
  if (n == 0) return out;
  cudaStream_t s = get_current_stream();
  CUSCI_CUDA_TRY(cudaMemcpyAsync(out.data(), info, out.size() * sizeof(int), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return out;
}

std::int64_t prod(const shape_t& s) {
  std::int64_t p = 1;
  for (auto v : s) p *= v;
  return p;
}

}  // namespace cusci::linalg::detail
