#pragma once
/// @file device.hpp
/// Devices: how many are visible, which one is current, and a scoped guard to switch.
/// CuPy: `cupy.cuda.runtime` / `cupy.cuda.Device` (cusci core mirrors NumPy/CuPy, not SciPy).

namespace cusci {

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

}  // namespace cusci
