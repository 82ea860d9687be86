// Streams, the per-thread current stream of each device, and events.
#include "cusci/stream.hpp"

#include <array>
#include <string>

#include "cusci/device.hpp"
#include "cusci/error.hpp"

namespace cusci {
namespace {
constexpr int max_devices = 64;
// The current stream of each device for this thread; nullptr is the legacy null stream.
thread_local std::array<cudaStream_t, max_devices> current_streams{};
}  // namespace

stream::stream(bool non_blocking) : device_(get_device_id()), owning_(true) {
  CUSCI_CUDA_TRY(cudaStreamCreateWithFlags(&handle_, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault));
}

stream::~stream() {
  if (owning_ && handle_) cudaStreamDestroy(handle_);  // never throws; tolerates driver shutdown
}

stream::stream(stream&& o) noexcept : handle_(o.handle_), device_(o.device_), owning_(o.owning_) {
  o.handle_ = nullptr;
  o.owning_ = false;
}

stream& stream::operator=(stream&& o) noexcept {
  if (this != &o) {
    if (owning_ && handle_) cudaStreamDestroy(handle_);
    handle_ = o.handle_;
    device_ = o.device_;
    owning_ = o.owning_;
    o.handle_ = nullptr;
    o.owning_ = false;
  }
  return *this;
}

stream stream::null() noexcept {
  int d = 0;
  if (cudaGetDevice(&d) != cudaSuccess) cudaGetLastError();
  return stream(nullptr, d, false);
}

stream stream::per_thread() noexcept {
  int d = 0;
  if (cudaGetDevice(&d) != cudaSuccess) cudaGetLastError();
  return stream(cudaStreamPerThread, d, false);
}

stream stream::wrap(cudaStream_t s, int device) noexcept { return stream(s, device, false); }

void stream::synchronize() const { CUSCI_CUDA_TRY(cudaStreamSynchronize(handle_)); }

bool stream::done() const {
  cudaError_t e = cudaStreamQuery(handle_);
  if (e == cudaErrorNotReady) return false;
  CUSCI_CUDA_TRY(e);
  return true;
}

cudaStream_t get_current_stream() {
  const int d = get_device_id();
  return (d >= 0 && d < max_devices) ? current_streams[d] : nullptr;
}

stream_guard::stream_guard(const stream& s) : device_(s.device()) {
  CUSCI_EXPECTS(device_ >= 0 && device_ < max_devices, index_error,
                "cusci::stream_guard: stream device out of range: " + std::to_string(device_));
  previous_ = current_streams[device_];
  current_streams[device_] = s.handle();
}

stream_guard::~stream_guard() { current_streams[device_] = previous_; }

void synchronize() { CUSCI_CUDA_TRY(cudaStreamSynchronize(get_current_stream())); }

event::event(bool disable_timing) {
  CUSCI_CUDA_TRY(cudaEventCreateWithFlags(&handle_, disable_timing ? cudaEventDisableTiming : cudaEventDefault));
}

event::~event() {
  if (handle_) cudaEventDestroy(handle_);
}

event::event(event&& o) noexcept : handle_(o.handle_) { o.handle_ = nullptr; }

event& event::operator=(event&& o) noexcept {
  if (this != &o) {
    if (handle_) cudaEventDestroy(handle_);
    handle_ = o.handle_;
    o.handle_ = nullptr;
  }
  return *this;
}

void event::record() { CUSCI_CUDA_TRY(cudaEventRecord(handle_, get_current_stream())); }
void event::record(const stream& s) { CUSCI_CUDA_TRY(cudaEventRecord(handle_, s.handle())); }
void event::record(cudaStream_t s) { CUSCI_CUDA_TRY(cudaEventRecord(handle_, s)); }
void event::synchronize() const { CUSCI_CUDA_TRY(cudaEventSynchronize(handle_)); }

bool event::done() const {
  cudaError_t e = cudaEventQuery(handle_);
  if (e == cudaErrorNotReady) return false;
  CUSCI_CUDA_TRY(e);
  return true;
}

void event::wait_on(cudaStream_t s) const { CUSCI_CUDA_TRY(cudaStreamWaitEvent(s, handle_, 0)); }

float get_elapsed_time(const event& start, const event& end) {
  end.synchronize();
  float ms = 0;
  CUSCI_CUDA_TRY(cudaEventElapsedTime(&ms, start.handle(), end.handle()));
  return ms;
}

}  // namespace cusci
