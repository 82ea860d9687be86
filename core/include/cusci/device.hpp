#pragma once
/// @file device.hpp
/// Devices: how many are visible, which one is current, and a scoped guard to switch.
/// CuPy: `cupy.cuda.runtime` / `cupy.cuda.Device` (cusci core mirrors NumPy/CuPy, not SciPy).

namespace cusci {

class ndarray;

/// Number of visible CUDA devices; 0 when there is no GPU or no driver (never throws).
/// CuPy: `cupy.cuda.runtime.getDeviceCount()` (which raises without a driver).
int device_count() noexcept;

/// True when at least one CUDA device is visible (never throws). CuPy: `cupy.is_available()`.
bool is_available() noexcept;

/// The calling thread's current device (cudaGetDevice).
/// @throws cusci::cuda_error when no device is available.
/// CuPy: `cupy.cuda.runtime.getDevice()` / `cupy.cuda.get_device_id()`.
int get_device_id();

/// Makes `device` current for the calling thread.
/// @throws cusci::index_error when `device` is not in [0, device_count()); cusci::cuda_error.
/// CuPy: `cupy.cuda.Device(device).use()`.
void set_device(int device);

/// Blocks until all work on the current device has finished (cudaDeviceSynchronize).
/// @throws cusci::cuda_error (e.g. a fault in an earlier kernel). CuPy: `cupy.cuda.Device().synchronize()`.
void device_synchronize();

/// Scoped device switch, like CuPy's `with cupy.cuda.Device(id):`. Restores the previous device on
/// destruction (which never throws). CuPy: `with cupy.cuda.Device(id):`.
class device_guard {
 public:
  /// @throws cusci::index_error when `device` is not a valid device id.
  explicit device_guard(int device);
  ~device_guard();
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_;
};

// --- several devices ----------------------------------------------------------------------------

/// True when kernels and copies on `device` can access memory of `peer_device` directly over
/// NVLink/PCIe (cudaDeviceCanAccessPeer); true when the two are the same device. Host only.
/// @throws cusci::index_error for an id outside [0, device_count()); cusci::cuda_error.
/// CuPy: `cupy.cuda.runtime.deviceCanAccessPeer(device, peer_device)`.
bool can_access_peer(int device, int peer_device);

/// Enables direct access from the current device to `peer_device`'s memory
/// (cudaDeviceEnablePeerAccess) when the hardware allows it; idempotent and cached per device pair
/// (access once enabled stays enabled for the process). Host only.
/// @return true when access is enabled (or the devices are the same); false when the devices cannot
///         access each other directly (copies between them are then staged through host memory by
///         the CUDA driver).
/// @throws cusci::index_error for an id outside [0, device_count()); cusci::cuda_error.
/// CuPy: `cupy.cuda.runtime.deviceEnablePeerAccess(peer_device)` (which raises when already enabled).
bool enable_peer_access(int peer_device);

/// A copy of `a` on `device` with the same shape, dtype and values: C order, or F order when `a` is
/// F-contiguous and not C-contiguous (a non-contiguous `a` is first made C-contiguous on its own
/// device). When `a` already lives on `device`, returns `a` itself (a view sharing its memory)
/// unless `copy` is true.
/// Copy path: cudaMemcpyPeerAsync on the current stream of `device`, ordered after the work already
/// enqueued on the current stream of `a`'s device (event wait), and that stream then waits for the
/// copy, so that `a`'s memory is not reused by its pool before the copy has read it. Peer access is
/// enabled lazily for the pair when the hardware allows it; otherwise the driver stages the copy
/// through host memory. Asynchronous: the host never waits.
/// @param a  array [any shape], any dtype, any layout, on any device.
/// @param device  target device id.
/// @param copy  copy even when `a` is already on `device`.
/// @return array [a.shape()] of a.dtype() on `device`.
/// @throws cusci::index_error for a device id outside [0, device_count()); cusci::out_of_memory;
///         cusci::cuda_error.
/// CuPy: `with cupy.cuda.Device(device): b = cupy.asarray(a)` (CuPy copies between devices with
/// cudaMemcpyPeerAsync too); PyTorch: `a.to(device)`.
ndarray to_device(const ndarray& a, int device, bool copy = false);

}  // namespace cusci
