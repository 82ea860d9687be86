#pragma once
// Benchmark harness: CUDA-event timing on the current stream after warm-up, median of >= 20 runs,
// one JSON line per case on stdout: {"id":..., "case":..., "ms":..., "gbps":..., "roof_pct":...}.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "cusci/device.hpp"
#include "cusci/stream.hpp"

namespace cusci::bench {

/// Device-to-device copy bandwidth measured on the H200 (read + write counted), GB/s.
inline constexpr double copy_ceiling_gbps = 4139.0;

struct result {
  double median_ms, min_ms;
};

/// Times `fn` (which enqueues work on the current stream): `warmup` untimed calls, then `runs` calls
/// each bracketed by events; returns the median and minimum in milliseconds. The environment variable
/// CUSCI_BENCH_RUNS=k replaces both counts (k timed calls, no warm-up): `CUSCI_BENCH_RUNS=1` runs each
/// case once, for a profiler.
inline result time_it(const std::function<void()>& fn, int runs = 30, int warmup = 5) {
  if (const char* e = std::getenv("CUSCI_BENCH_RUNS")) {
    const int k = std::atoi(e);
    if (k > 0) {
      runs = k;
      warmup = 0;
    }
  }
  for (int i = 0; i < warmup; ++i) fn();
  cusci::synchronize();
  std::vector<double> ms;
  cusci::event start, stop;
  for (int i = 0; i < runs; ++i) {
    start.record();
    fn();
    stop.record();
    ms.push_back(cusci::get_elapsed_time(start, stop));
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

/// Host wall milliseconds per call of `fn` over `calls` calls, after 100 warm-up calls; the device is
/// synchronized before the clock starts and before it stops (so queued work is included).
inline double wall_ms_per_call(int calls, const std::function<void()>& fn) {
  for (int i = 0; i < 100; ++i) fn();
  cusci::synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) fn();
  cusci::synchronize();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count() / calls;
}

/// Prints one JSON line. `bytes` is the minimal traffic of the operation (0 when not meaningful);
/// extra is appended verbatim as further JSON members (e.g. "\"iters\":200").
inline void report(const std::string& id, const std::string& name, const result& r, double bytes = 0,
                   const std::string& extra = "") {
  std::printf("{\"id\":\"%s\",\"case\":\"%s\",\"ms\":%.5f,\"min_ms\":%.5f", id.c_str(), name.c_str(),
              r.median_ms, r.min_ms);
  if (bytes > 0) {
    double gbps = bytes / (r.median_ms * 1e-3) / 1e9;
    std::printf(",\"gbps\":%.1f,\"roof_pct\":%.1f", gbps, 100.0 * gbps / copy_ceiling_gbps);
  }
  if (!extra.empty()) std::printf(",%s", extra.c_str());
  std::printf("}\n");
  std::fflush(stdout);
}

/// Case selection: true when the environment variable CUSCI_BENCH_IDS (comma-separated case ids, as
/// compare_cupy.py --ids sets it) is unset or empty, or names any of `ids`. Programs that honour it
/// skip the other cases entirely (their inputs are not even built).
inline bool wanted(std::initializer_list<const char*> ids) {
  const char* sel = std::getenv("CUSCI_BENCH_IDS");
  if (sel == nullptr || *sel == '\0') return true;
  const std::string s = std::string(",") + sel + ",";
  for (const char* id : ids)
    if (s.find(std::string(",") + id + ",") != std::string::npos) return true;
  return false;
}

/// True (after printing a JSON error line) when no CUDA device is visible: `main` then returns 77.
inline bool no_device() {
  if (device_count() > 0) return false;
  std::printf("{\"error\":\"no CUDA device\"}\n");
  return true;
}

}  // namespace cusci::bench
