#pragma once
/// @file graph.hpp
/// CUDA graphs: record a sequence of cusci operations once (stream capture) and replay it with one
/// launch, which removes the per-kernel launch and argument-checking overhead of short kernels.
///
/// Capture mode: cudaStreamCaptureModeThreadLocal. While this thread captures, CUDA calls from it
/// that are unsafe during capture (cudaMalloc, synchronization, synchronous copies, ...) fail and
/// invalidate the capture instead of silently running at capture time; other threads are not
/// restricted (cudaStreamCaptureModeGlobal would fail their unsafe calls too, Relaxed would let this
/// thread's run unrecorded).
///
/// Memory during capture: cusci's pool sees that the stream is capturing and serves the request with
/// cudaMallocAsync on it (released with cudaFreeAsync), which the capture records as graph memory
/// nodes: temporaries allocated and dropped inside the captured code are allocated and freed by each
/// replay; arrays created inside and kept afterwards (the results) keep a fixed address across
/// replays, and each replay writes its results there. The graph is instantiated with
/// cudaGraphInstantiateFlagAutoFreeOnLaunch, so that such arrays are re-allocated, at the same
/// address, by each launch.
///
/// Rules (CuPy's and CUDA's):
///  - Capture needs a stream other than the legacy default stream: make a `cusci::stream` current
///    with `cusci::stream_guard` (or use `stream::per_thread()`).
///  - Run the operations once before capturing them (warm-up): first calls may load kernels or
///    create library handles and caches, which cannot be captured.
///  - Every array the graph reads or writes must stay alive, at the same address, for as long as
///    the graph is launched: the graph holds raw device addresses, not arrays. Change inputs by
///    writing into them (copy into the same array), not by rebinding the variable.
///  - Arrays created during capture and kept must be used only after a launch (their memory exists
///    only once the graph has run), and should be kept (not dropped) while the graph is launched.
///  - The capture stream must outlive the arrays allocated during the capture.
///  - Operations that synchronize or return a host value cannot be captured: `to_host`, `asnumpy`,
///    `ndarray::get`, `ndarray::item`, `asarray` (host data), `load`/`save`/`io::savez` of device
///    arrays, `synchronize`, `device_synchronize`, `stream::synchronize`, `event::synchronize`,
///    anything returning a count or a host scalar, cuSOLVER routines that read their `info` result
///    on the host, operations whose first call on a thread creates a library handle or plan.
///    Capturing one throws (see `capture`), and the stream stays usable.

#include <cstddef>
#include <functional>

#include <cuda_runtime_api.h>

namespace cusci {

/// A captured and instantiated CUDA graph, replayed with `launch`. Move-only; the destructor
/// destroys the graph (replays in flight complete) and never throws.
/// CuPy: `cupy.cuda.Graph` with `Stream.begin_capture()` / `Stream.end_capture()`; PyTorch:
/// `torch.cuda.CUDAGraph`.
class graph {
 public:
  /// An empty graph (nothing captured yet). Never throws.
  graph() noexcept = default;
  ~graph();
  graph(graph&& other) noexcept;
  graph& operator=(graph&& other) noexcept;
  graph(const graph&) = delete;
  graph& operator=(const graph&) = delete;

  /// Runs `fn` with its work captured on the current stream, then instantiates the graph (replacing
  /// any graph captured before). Nothing `fn` enqueues runs now. Host only.
  /// @param fn  the cusci operations to record (every operation on the current stream of the current
  ///            device; work it enqueues on other streams is not captured unless joined by events).
  /// @throws cusci::value_error when the current stream is the legacy default stream or is already
  ///         capturing; cusci::cuda_error, with a message naming the failing CUDA call and the cusci
  ///         operation when it can, when `fn` performs an operation that cannot be captured (the
  ///         capture is then abandoned, the stream left usable and this graph unchanged); any
  ///         exception `fn` throws, after abandoning the capture likewise.
  /// CuPy: `stream.begin_capture(); fn(); graph = stream.end_capture()`.
  void capture(const std::function<void()>& fn);

  /// Starts capturing the current stream (cudaStreamBeginCapture, thread-local mode). Pair with
  /// `end_capture` on the same thread and stream; prefer `capture`, which also cleans up on errors.
  /// @throws cusci::value_error for the legacy default stream, a stream already capturing, or a
  ///         capture already begun by this graph; cusci::cuda_error.
  /// CuPy: `cupy.cuda.Stream.begin_capture()`.
  void begin_capture();

  /// Ends the capture begun by `begin_capture` and instantiates the graph (replacing any previous
  /// one). The capture ends even when this throws.
  /// @throws cusci::value_error when no capture is active; cusci::cuda_error when the capture was
  ///         invalidated by an operation that cannot be captured, or instantiation fails.
  /// CuPy: `cupy.cuda.Stream.end_capture()`.
  void end_capture();

  /// Enqueues one replay on the current stream (asynchronous; order with other work as any kernel).
  /// @throws cusci::value_error when nothing has been captured or the current device is not the
  ///         graph's; cusci::cuda_error. CuPy: `cupy.cuda.Graph.launch()`.
  void launch() const;

  /// Uploads the graph's work to the device ahead of the first launch (asynchronous on the current
  /// stream), so that the first launch costs what later ones do.
  /// @throws as `launch`. CuPy: `cupy.cuda.Graph.upload()`.
  void upload() const;

  /// True once a capture has been instantiated. Never throws.
  bool ready() const noexcept { return exec_ != nullptr; }
  /// True between `begin_capture` and `end_capture`. Never throws.
  bool capturing() const noexcept { return capturing_; }
  /// Number of nodes of the captured graph (0 when empty).
  /// @throws cusci::cuda_error.
  std::size_t num_nodes() const;
  /// The device the graph was captured on (-1 when empty).
  int device() const noexcept { return device_; }
  cudaGraph_t handle() const noexcept { return graph_; }
  cudaGraphExec_t exec_handle() const noexcept { return exec_; }

 private:
  void abandon_capture() noexcept;
  void reset() noexcept;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  cudaStream_t stream_ = nullptr;
  bool capturing_ = false;
  int device_ = -1;          // device of the instantiated graph
  int capture_device_ = -1;  // device of the capture in progress
};

/// True when `s` is being captured into a CUDA graph (by cusci or anyone else); false for the
/// legacy stream while another stream captures. Host only.
/// @throws cusci::cuda_error when no device is available. CuPy: `cupy.cuda.Stream.is_capturing()`.
bool is_capturing(cudaStream_t s);
/// The same for the current stream.
bool is_capturing();

}  // namespace cusci
