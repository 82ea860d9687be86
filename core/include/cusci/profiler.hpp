#pragma once
/// @file profiler.hpp
/// Timing and NVTX ranges, as CuPy's `cupyx.profiler`: `benchmark` (CPU and GPU time of a callable
/// per repetition), `time_range` (a scoped NVTX range for Nsight Systems), and the switch for the
/// NVTX ranges cusci itself puts at the public entry points of its modules (`set_nvtx_ranges`).
/// NVTX: NVTX3 from the CUDA Toolkit (header-only; no library to link). Without a profiler attached
/// an NVTX push/pop costs next to nothing.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace cusci::profiler {

/// Options of `benchmark`, in CuPy's signature order (`func, args, kwargs, n_repeat, *, name,
/// n_warmup, max_duration, devices`; C++ callers bind the arguments into `fn`).
struct benchmark_options {
  /// Number of timed calls.
  std::int64_t n_repeat = 10000;
  /// Name printed by `to_string` (CuPy: the function's `__name__`; here empty unless given).
  std::string name{};
  /// Untimed calls before the timed ones.
  std::int64_t n_warmup = 10;
  /// Stop after the timed calls so far took longer than this many seconds in total (CPU time plus
  /// the wait for the GPU); the results hold the calls made.
  double max_duration = std::numeric_limits<double>::infinity();
  /// Device ids whose GPU time is measured (events on each device's current stream); empty: the
  /// current device.
  std::vector<int> devices{};
};

/// Summary of one series of times, in seconds.
struct time_stats {
  double min = 0, mean = 0, max = 0;
  /// Population standard deviation (NumPy's `std`, ddof=0).
  double std = 0;
};

/// The times of `benchmark`, in seconds. CuPy: `cupyx.profiler._time._PerfCaseResult`.
struct benchmark_result {
  std::string name;
  /// Host wall time of each timed call. CuPy: `cpu_times`.
  std::vector<double> cpu_times;
  /// Per device (same order as `devices`), the time between CUDA events recorded on the device's
  /// current stream before and after each call. CuPy: `gpu_times` (shape (len(devices), n)).
  std::vector<std::vector<double>> gpu_times;
  std::vector<int> devices;

  /// Statistics of `cpu_times`; all zero when there are no times.
  time_stats cpu_stats() const;
  /// Statistics of `gpu_times[i]`. @throws cusci::index_error for i out of range.
  time_stats gpu_stats(std::size_t i = 0) const;
  /// CuPy's `str(result)`: `"{name:<20}:    CPU: {mean:9.3f} us   +/- {std:6.3f} (min: {min:9.3f} /
  /// max: {max:9.3f}) us     GPU-0: ..."` (times in microseconds; the `+/-` part only for more than
  /// one call; GPU parts only with `show_gpu`). Host only.
  std::string to_string(bool show_gpu = true) const;
};

/// Calls `fn` `n_warmup` times, then up to `n_repeat` times, each timed on the host
/// (std::chrono::steady_clock around the call: the CPU time, which includes any synchronization
/// `fn` does) and on every device in `devices` (CUDA events recorded on the device's current stream
/// before and after the call; the host waits for the end event after each call, so GPU work of one
/// call never overlaps the next). Stops early once the accumulated time exceeds `max_duration`.
/// Synchronizes (after the warm-up and after each call).
/// @throws cusci::value_error for a negative `n_repeat` or `n_warmup`, or an empty `fn`;
///         cusci::index_error for an invalid device id; cusci::cuda_error; anything `fn` throws.
/// CuPy: `cupyx.profiler.benchmark(func, args, kwargs, n_repeat, name=, n_warmup=, max_duration=,
/// devices=)`.
benchmark_result benchmark(const std::function<void()>& fn, const benchmark_options& opts = {});

/// Options of `time_range`, in CuPy's signature order (`message, color_id, argb_color, sync`).
struct time_range_options {
  /// Index into NVTX's fixed palette (green, blue, yellow, purple, cyan, red, white, taken modulo 7);
  /// none and no `argb_color`: the range has no color.
  std::optional<int> color_id{};
  /// A colour as 0xAARRGGBB.
  std::optional<std::uint32_t> argb_color{};
  /// Synchronize the current device when the range opens and before it closes, so that the range
  /// covers the GPU work issued inside it.
  bool sync = false;
};

/// A scoped NVTX range named `message`: pushed by the constructor, popped by the destructor (ranges
/// nest). Always pushed, whatever `set_nvtx_ranges` says (as CuPy's). Not copyable or movable.
/// @throws (constructor) cusci::value_error when both `color_id` and `argb_color` are given;
///         cusci::cuda_error from the synchronization when `sync`.
/// CuPy: `cupyx.profiler.time_range(message, color_id, argb_color, sync)` used as a context manager
/// (a decorator has no C++ counterpart: open a range at the top of the function).
class time_range {
 public:
  explicit time_range(const std::string& message, const time_range_options& opts = {});
  ~time_range();
  time_range(const time_range&) = delete;
  time_range& operator=(const time_range&) = delete;

 private:
  bool sync_;
};

/// Turns cusci's own NVTX ranges on or off: one range per call of an instrumented public function,
/// named as the function ("cusci::ndimage::gaussian_filter"; the list is in docs/core-testing.md).
/// Off by default; on at first use when the environment variable `CUSCI_NVTX_RANGES` is `1` (a
/// call of `set_nvtx_ranges` overrides it). Process-wide, thread-safe. When off, an instrumented
/// function pays one relaxed atomic load. cusci extension (CuPy has no counterpart).
void set_nvtx_ranges(bool enabled) noexcept;
/// Whether cusci's own NVTX ranges are on (reads `CUSCI_NVTX_RANGES` on first use).
bool nvtx_ranges_enabled() noexcept;

}  // namespace cusci::profiler
