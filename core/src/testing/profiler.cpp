// cusci::profiler: benchmark (CuPy's cupyx.profiler.benchmark), time_range and the NVTX ranges of
// CUSCI_NVTX_SCOPE (core/internal/cusci/detail/nvtx.hpp). NVTX3 is header-only (CUDA Toolkit).

#include "cusci/profiler.hpp"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "cusci/detail/nvtx.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"

namespace cusci::detail {

// Constant-initialized: usable from static initializers of other translation units.
constinit std::atomic<int> nvtx_ranges_state{0};

namespace {
int resolve_state() noexcept {
  int s = nvtx_ranges_state.load(std::memory_order_relaxed);
  if (s != 0) return s;
  const char* env = std::getenv("CUSCI_NVTX_RANGES");
  const int fresh = (env != nullptr && std::strcmp(env, "1") == 0) ? 2 : 1;
  int expected = 0;
  // A concurrent set_nvtx_ranges wins over the environment.
  if (nvtx_ranges_state.compare_exchange_strong(expected, fresh, std::memory_order_relaxed)) return fresh;
  return expected;
}
}  // namespace

bool nvtx_scope_push(const char* name) noexcept {
  if (resolve_state() != 2) return false;
  nvtxRangePushA(name);
  return true;
}

void nvtx_scope_pop() noexcept { nvtxRangePop(); }

}  // namespace cusci::detail

namespace cusci::profiler {

void set_nvtx_ranges(bool enabled) noexcept {
  detail::nvtx_ranges_state.store(enabled ? 2 : 1, std::memory_order_relaxed);
}

bool nvtx_ranges_enabled() noexcept { return detail::resolve_state() == 2; }

// --- time_range ----------------------------------------------------------------------------------

namespace {
// NVTX's conventional palette, as CuPy's cupy.cuda.nvtx uses it.
constexpr std::uint32_t kColors[] = {0xff00ff00u, 0xff0000ffu, 0xffffff00u, 0xffff00ffu,
                                     0xff00ffffu, 0xffff0000u, 0xffffffffu};
}  // namespace

time_range::time_range(const std::string& message, const time_range_options& opts) : sync_(opts.sync) {
  CUSCI_EXPECTS(!(opts.color_id && opts.argb_color), cusci::value_error,
                "cusci::profiler::time_range: only either color_id or argb_color can be specified");
  if (sync_) cusci::device_synchronize();
  std::optional<std::uint32_t> color = opts.argb_color;
  if (!color && opts.color_id && *opts.color_id >= 0) color = kColors[*opts.color_id % 7];
  if (color) {
    nvtxEventAttributes_t attr;
    std::memset(&attr, 0, sizeof attr);
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.colorType = NVTX_COLOR_ARGB;
    attr.color = *color;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = message.c_str();
    nvtxRangePushEx(&attr);
  } else {
    nvtxRangePushA(message.c_str());
  }
}

time_range::~time_range() {
  if (sync_) {
    try {
      cusci::device_synchronize();
    } catch (...) {
      // A destructor must not throw; the error surfaces at the next CUDA call.
    }
  }
  nvtxRangePop();
}

// --- benchmark -----------------------------------------------------------------------------------

namespace {
time_stats stats_of(const std::vector<double>& t) {
  time_stats s;
  if (t.empty()) return s;
  s.min = *std::min_element(t.begin(), t.end());
  s.max = *std::max_element(t.begin(), t.end());
  double sum = 0;
  for (double v : t) sum += v;
  s.mean = sum / static_cast<double>(t.size());
  double sq = 0;
  for (double v : t) sq += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(sq / static_cast<double>(t.size()));
  return s;
}

std::string item_str(const std::string& label, const std::vector<double>& t) {
  const time_stats s = stats_of(t);
  char buf[256];
  std::snprintf(buf, sizeof buf, "    %s: %9.3f us", label.c_str(), s.mean * 1e6);
  std::string r = buf;
  if (t.size() > 1) {
    std::snprintf(buf, sizeof buf, "   +/- %6.3f (min: %9.3f / max: %9.3f) us", s.std * 1e6, s.min * 1e6,
                  s.max * 1e6);
    r += buf;
  }
  return r;
}

// An event recorded on a device's current stream.
struct device_events {
  int device;
  std::unique_ptr<cusci::event> start, stop;
};
}  // namespace

time_stats benchmark_result::cpu_stats() const { return stats_of(cpu_times); }

time_stats benchmark_result::gpu_stats(std::size_t i) const {
  CUSCI_EXPECTS(i < gpu_times.size(), cusci::index_error,
                "cusci::profiler::benchmark_result::gpu_stats: device index " + std::to_string(i) +
                    " is out of range for " + std::to_string(gpu_times.size()) + " devices");
  return stats_of(gpu_times[i]);
}

std::string benchmark_result::to_string(bool show_gpu) const {
  std::string r = item_str("CPU", cpu_times);
  if (show_gpu)
    for (std::size_t i = 0; i < gpu_times.size() && i < devices.size(); ++i)
      r += " " + item_str("GPU-" + std::to_string(devices[i]), gpu_times[i]);
  std::string n = name;
  if (n.size() < 20) n += std::string(20 - n.size(), ' ');
  return n + ":" + r;
}

benchmark_result benchmark(const std::function<void()>& fn, const benchmark_options& opts) {
  CUSCI_EXPECTS(static_cast<bool>(fn), cusci::value_error, "cusci::profiler::benchmark: fn is empty");
  CUSCI_EXPECTS(opts.n_repeat >= 0, cusci::value_error,
                "cusci::profiler::benchmark: n_repeat must be non-negative, got " + std::to_string(opts.n_repeat));
  CUSCI_EXPECTS(opts.n_warmup >= 0, cusci::value_error,
                "cusci::profiler::benchmark: n_warmup must be non-negative, got " + std::to_string(opts.n_warmup));
  benchmark_result res;
  res.name = opts.name;
  res.devices = opts.devices;
  if (res.devices.empty()) res.devices.push_back(cusci::get_device_id());
  const int ndev = cusci::device_count();
  for (int d : res.devices)
    CUSCI_EXPECTS(d >= 0 && d < ndev, cusci::index_error,
                  "cusci::profiler::benchmark: device " + std::to_string(d) + " is out of range for " +
                      std::to_string(ndev) + " devices");

  std::vector<device_events> ev;
  for (int d : res.devices) {
    cusci::device_guard g(d);
    ev.push_back({d, std::make_unique<cusci::event>(), std::make_unique<cusci::event>()});
  }
  auto record = [&](bool start) {
    for (auto& e : ev) {
      cusci::device_guard g(e.device);
      (start ? e.start : e.stop)->record();
    }
  };

  for (std::int64_t i = 0; i < opts.n_warmup; ++i) fn();
  record(true);
  for (auto& e : ev) e.start->synchronize();

  res.gpu_times.assign(ev.size(), {});
  res.cpu_times.reserve(static_cast<std::size_t>(std::min<std::int64_t>(opts.n_repeat, 1 << 20)));
  double duration = 0;
  using clock = std::chrono::steady_clock;
  for (std::int64_t i = 0; i < opts.n_repeat; ++i) {
    record(true);
    const auto t1 = clock::now();
    fn();
    const auto t2 = clock::now();
    res.cpu_times.push_back(std::chrono::duration<double>(t2 - t1).count());
    record(false);
    for (auto& e : ev) e.stop->synchronize();
    for (std::size_t k = 0; k < ev.size(); ++k)
      res.gpu_times[k].push_back(static_cast<double>(cusci::get_elapsed_time(*ev[k].start, *ev[k].stop)) * 1e-3);
    duration += std::chrono::duration<double>(clock::now() - t1).count();
    if (duration > opts.max_duration) break;
  }
  return res;
}

}  // namespace cusci::profiler
