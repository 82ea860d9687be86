// Device enumeration and the scoped device guard.
#include "cusci/device.hpp"

#include <array>
#include <atomic>
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

namespace {
void check_device_id(int d, const char* fn, const char* what) {
  const int n = device_count();
  CUSCI_EXPECTS(d >= 0 && d < n, index_error,
                std::string(fn) + ": " + what + " must be in [0, " + std::to_string(n) + "), got " + std::to_string(d));
}
// Peer access state per (device, peer): 0 unknown, 1 enabled, 2 impossible.
constexpr int max_peer_devices = 64;
std::array<std::array<std::atomic<signed char>, max_peer_devices>, max_peer_devices> peer_state{};
}  // namespace

bool can_access_peer(int device, int peer_device) {
  check_device_id(device, "cusci::can_access_peer", "device");
  check_device_id(peer_device, "cusci::can_access_peer", "peer_device");
  if (device == peer_device) return true;
  int ok = 0;
  CUSCI_CUDA_TRY(cudaDeviceCanAccessPeer(&ok, device, peer_device));
  return ok != 0;
}

bool enable_peer_access(int peer_device) {
  const int dev = get_device_id();
  check_device_id(peer_device, "cusci::enable_peer_access", "peer_device");
  if (dev == peer_device) return true;
  if (dev >= max_peer_devices || peer_device >= max_peer_devices) return false;
  auto& st = peer_state[dev][peer_device];
  const signed char known = st.load();
  if (known != 0) return known == 1;
  if (!can_access_peer(dev, peer_device)) {
    st.store(2);
    return false;
  }
  const cudaError_t e = cudaDeviceEnablePeerAccess(peer_device, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();  // enabled earlier, by cusci on another thread or by the application
  } else {
    CUSCI_CUDA_TRY(e);
  }
  st.store(1);
  return true;
}

}  // namespace cusci
