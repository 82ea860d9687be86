// Device enumeration and the scoped device guard.
#include "cusci/device.hpp"

#include <string>

#include <cuda_runtime_api.h>

#include "cusci/error.hpp"

namespace cusci {

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: clear the error, report none
    return 0;
  }
  return n;
}

bool is_available() noexcept { return device_count() > 0; }

int get_device_id() {
  int d = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&d));
  return d;
}

void set_device(int device) {
  const int n = device_count();
  CUSCI_EXPECTS(device >= 0 && device < n, index_error,
                "cusci::set_device: device must be in [0, " + std::to_string(n) + "), got " + std::to_string(device));
  CUSCI_CUDA_TRY(cudaSetDevice(device));
}

void device_synchronize() { CUSCI_CUDA_TRY(cudaDeviceSynchronize()); }

device_guard::device_guard(int device) : previous_(get_device_id()) {
  if (device != previous_) set_device(device);
}

device_guard::~device_guard() {
  int now = -1;
  if (cudaGetDevice(&now) == cudaSuccess && now != previous_) cudaSetDevice(previous_);
}

}  // namespace cusci
