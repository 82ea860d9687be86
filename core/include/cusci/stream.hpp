#pragma once
/// @file stream.hpp
/// Streams and events, with CuPy's model: each thread has a current stream per device, changed by a
/// scoped guard (CuPy's `with stream:`). Every cusci operation is enqueued on the current stream of the
/// current device and returns without waiting unless its documentation says it synchronizes.
/// CuPy: `cupy.cuda.Stream` / `cupy.cuda.Event` (cusci core mirrors NumPy/CuPy, not SciPy).

#include <cuda_runtime_api.h>

namespace cusci {

/// A CUDA stream. Owning when created by the constructor (destroyed with the object); non-owning for
/// `stream::null()`, `stream::per_thread()` and `stream::wrap()`. Move-only.
/// CuPy: `cupy.cuda.Stream` (`Stream.null`, `Stream.ptds`, `ExternalStream`).
class stream {
 public:
  /// Creates a new stream on the current device. `non_blocking` makes it not synchronize with the
  /// legacy null stream (cudaStreamNonBlocking).
  /// @throws cusci::cuda_error
  explicit stream(bool non_blocking = false);
  ~stream();
  stream(stream&& other) noexcept;
  stream& operator=(stream&& other) noexcept;
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  /// The legacy default (null) stream.
  static stream null() noexcept;
  /// The per-thread default stream (cudaStreamPerThread).
  static stream per_thread() noexcept;
  /// Wraps a stream created elsewhere, without taking ownership.
  static stream wrap(cudaStream_t s, int device) noexcept;

  cudaStream_t handle() const noexcept { return handle_; }
  int device() const noexcept { return device_; }
  /// Blocks the host until all work enqueued on this stream has finished.
  /// @throws cusci::cuda_error. CuPy: `Stream.synchronize()`.
  void synchronize() const;
  /// True when all work on this stream has finished (cudaStreamQuery), without blocking.
  /// @throws cusci::cuda_error for an error other than "not ready". CuPy: `Stream.done`.
  bool done() const;

 private:
  stream(cudaStream_t s, int device, bool owning) noexcept : handle_(s), device_(device), owning_(owning) {}
  cudaStream_t handle_ = nullptr;
  int device_ = 0;
  bool owning_ = false;
};

/// The calling thread's current stream on the current device (the null stream unless a
/// `stream_guard` is active). CuPy: `cupy.cuda.get_current_stream()`.
/// @throws cusci::cuda_error when no device is available.
cudaStream_t get_current_stream();

/// Scoped current-stream switch (CuPy's `with stream:`): while alive, cusci operations on the stream's
/// device are enqueued on `s`. Restores the previous stream on destruction. Guards nest.
/// @throws (constructor) cusci::index_error when the stream's device id is out of range.
/// CuPy: `with stream:`.
class stream_guard {
 public:
  explicit stream_guard(const stream& s);
  ~stream_guard();
  stream_guard(const stream_guard&) = delete;
  stream_guard& operator=(const stream_guard&) = delete;

 private:
  int device_;
  cudaStream_t previous_;
};

/// Blocks until the current stream has finished its work.
/// @throws cusci::cuda_error. CuPy: `cupy.cuda.get_current_stream().synchronize()`.
void synchronize();

/// A CUDA event. Timing is enabled unless `disable_timing` is set. Member functions throw
/// cusci::cuda_error when CUDA fails. CuPy: `cupy.cuda.Event` (`record`, `synchronize`, `done`,
/// and `Stream.wait_event` for `wait_on`).
class event {
 public:
  explicit event(bool disable_timing = false);
  ~event();
  event(event&& other) noexcept;
  event& operator=(event&& other) noexcept;
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  /// Records the event on `s` (default: the current stream).
  void record();
  void record(const stream& s);
  void record(cudaStream_t s);
  /// Blocks the host until the event has completed.
  void synchronize() const;
  /// True when the event has completed, without blocking.
  bool done() const;
  /// Makes `s` wait for this event (cudaStreamWaitEvent) without blocking the host.
  void wait_on(cudaStream_t s) const;
  cudaEvent_t handle() const noexcept { return handle_; }

 private:
  cudaEvent_t handle_ = nullptr;
};

/// Milliseconds between two recorded events. Synchronizes on `end`.
/// CuPy: `cupy.cuda.get_elapsed_time(start, end)`.
/// @throws cusci::cuda_error when either event was created with timing disabled or not recorded.
float get_elapsed_time(const event& start, const event& end);

}  // namespace cusci
