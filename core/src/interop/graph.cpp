/// @file graph.cpp
/// CUDA graph capture and replay (CUDA Programming Guide, "CUDA Graphs": stream capture, graph
/// memory nodes). The pool's side (allocations on a capturing stream go to cudaMallocAsync) is in
/// memory.cpp, switched on by detail::capture_started / capture_ended.

#include "cusci/graph.hpp"

#include <string>
#include <utility>

#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci {
namespace {

bool is_capture_error(int status) {
  switch (static_cast<cudaError_t>(status)) {
    case cudaErrorStreamCaptureUnsupported:
    case cudaErrorStreamCaptureInvalidated:
    case cudaErrorStreamCaptureMerge:
    case cudaErrorStreamCaptureUnmatched:
    case cudaErrorStreamCaptureUnjoined:
    case cudaErrorStreamCaptureIsolation:
    case cudaErrorStreamCaptureImplicit:
    case cudaErrorCapturedEvent:
    case cudaErrorStreamCaptureWrongThread:
      return true;
    default:
      return false;
  }
}

constexpr const char* not_capturable =
    "an operation that cannot be captured into a CUDA graph (it synchronizes, returns a host value, "
    "transfers host data or allocates outside the stream-ordered allocator; see the list in "
    "cusci/graph.hpp)";

}  // namespace

graph::~graph() {
  if (capturing_) abandon_capture();
  reset();
}

graph::graph(graph&& o) noexcept
    : graph_(std::exchange(o.graph_, nullptr)), exec_(std::exchange(o.exec_, nullptr)),
      stream_(std::exchange(o.stream_, nullptr)), capturing_(std::exchange(o.capturing_, false)),
      device_(std::exchange(o.device_, -1)), capture_device_(std::exchange(o.capture_device_, -1)) {}

graph& graph::operator=(graph&& o) noexcept {
  if (this != &o) {
    if (capturing_) abandon_capture();
    reset();
    graph_ = std::exchange(o.graph_, nullptr);
    exec_ = std::exchange(o.exec_, nullptr);
    stream_ = std::exchange(o.stream_, nullptr);
    capturing_ = std::exchange(o.capturing_, false);
    device_ = std::exchange(o.device_, -1);
    capture_device_ = std::exchange(o.capture_device_, -1);
  }
  return *this;
}

void graph::reset() noexcept {
  // A graph exec destroyed while a launch is in flight is freed once the launch completes.
  if (exec_) cudaGraphExecDestroy(exec_);
  if (graph_) cudaGraphDestroy(graph_);
  exec_ = nullptr;
  graph_ = nullptr;
  device_ = -1;
  cudaGetLastError();
}

void graph::abandon_capture() noexcept {
  cudaGraph_t g = nullptr;
  if (cudaStreamEndCapture(stream_, &g) == cudaSuccess && g) cudaGraphDestroy(g);
  cudaGetLastError();  // an invalidated capture reports an error here: expected, not sticky
  capturing_ = false;
  detail::capture_ended();
}

void graph::begin_capture() {
  constexpr const char* fn = "cusci::graph::begin_capture";
  CUSCI_EXPECTS(!capturing_, value_error, std::string(fn) + ": this graph is already capturing");
  cudaStream_t s = get_current_stream();
  CUSCI_EXPECTS(s != nullptr && s != cudaStreamLegacy, value_error,
                std::string(fn) + ": the current stream is the legacy default stream, which cannot be captured; "
                                  "make a cusci::stream current with cusci::stream_guard");
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  CUSCI_CUDA_TRY(cudaStreamIsCapturing(s, &st));
  CUSCI_EXPECTS(st == cudaStreamCaptureStatusNone, value_error,
                std::string(fn) + ": the current stream is already being captured");
  const int dev = get_device_id();
  detail::capture_started();  // before the capture begins: allocations on it must see it
  const cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (e != cudaSuccess) {
    detail::capture_ended();
    CUSCI_CUDA_TRY(e);
  }
  stream_ = s;
  capturing_ = true;
  capture_device_ = dev;
}

void graph::end_capture() {
  constexpr const char* fn = "cusci::graph::end_capture";
  CUSCI_EXPECTS(capturing_, value_error, std::string(fn) + ": no capture is active (call begin_capture first)");
  cudaGraph_t g = nullptr;
  const cudaError_t e = cudaStreamEndCapture(stream_, &g);
  capturing_ = false;
  detail::capture_ended();
  if (e != cudaSuccess || g == nullptr) {
    if (g) cudaGraphDestroy(g);
    cudaGetLastError();
    throw cuda_error(std::string(fn) + ": the capture was invalidated (cudaStreamEndCapture returned " +
                         cudaGetErrorName(e) + ") by " + not_capturable,
                     static_cast<int>(e != cudaSuccess ? e : cudaErrorStreamCaptureInvalidated));
  }
  cudaGraphExec_t x = nullptr;
  const cudaError_t ie = cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  if (ie != cudaSuccess) {
    cudaGraphDestroy(g);
    cudaGetLastError();
    throw cuda_error(std::string(fn) + ": cudaGraphInstantiateWithFlags failed with " + cudaGetErrorName(ie) + ": " +
                         cudaGetErrorString(ie),
                     static_cast<int>(ie));
  }
  reset();
  graph_ = g;
  exec_ = x;
  device_ = capture_device_;
}

void graph::capture(const std::function<void()>& fn) {
  begin_capture();
  try {
    fn();
  } catch (const cuda_error& e) {
    abandon_capture();
    if (is_capture_error(e.status()))
      throw cuda_error(std::string("cusci::graph::capture: the captured function called ") + not_capturable +
                           "; the capture was abandoned and the stream is usable. Failing call: " + e.what(),
                       e.status());
    throw;
  } catch (...) {
    abandon_capture();
    throw;
  }
  end_capture();
}

void graph::launch() const {
  constexpr const char* fn = "cusci::graph::launch";
  CUSCI_EXPECTS(exec_ != nullptr, value_error, std::string(fn) + ": nothing has been captured");
  const int dev = get_device_id();
  CUSCI_EXPECTS(dev == device_, value_error,
                std::string(fn) + ": the graph was captured on device " + std::to_string(device_) +
                    " but the current device is " + std::to_string(dev));
  CUSCI_CUDA_TRY(cudaGraphLaunch(exec_, get_current_stream()));
}

void graph::upload() const {
  constexpr const char* fn = "cusci::graph::upload";
  CUSCI_EXPECTS(exec_ != nullptr, value_error, std::string(fn) + ": nothing has been captured");
  const int dev = get_device_id();
  CUSCI_EXPECTS(dev == device_, value_error,
                std::string(fn) + ": the graph was captured on device " + std::to_string(device_) +
                    " but the current device is " + std::to_string(dev));
  CUSCI_CUDA_TRY(cudaGraphUpload(exec_, get_current_stream()));
}

std::size_t graph::num_nodes() const {
  if (!graph_) return 0;
  std::size_t n = 0;
  CUSCI_CUDA_TRY(cudaGraphGetNodes(graph_, nullptr, &n));
  return n;
}

bool is_capturing(cudaStream_t s) {
  (void)get_device_id();  // throws cusci::cuda_error without a device
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(s, &st) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return st != cudaStreamCaptureStatusNone;
}

bool is_capturing() { return is_capturing(get_current_stream()); }

}  // namespace cusci
