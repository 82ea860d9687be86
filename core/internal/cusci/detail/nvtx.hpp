#pragma once
// Internal (never installed): scoped NVTX ranges at the public entry points of every cusci module.
//
//   CUSCI_NVTX_SCOPE("cusci::ndimage::gaussian_filter");
//
// pushes an NVTX range named by the string literal for the rest of the enclosing scope when cusci's
// NVTX ranges are enabled (`cusci::profiler::set_nvtx_ranges(true)`, or the environment variable
// CUSCI_NVTX_RANGES=1 read at first use), and costs one relaxed atomic load and a branch when they
// are off (the default). The push/pop live in cusci_core (core/src/testing/profiler.cpp), so this
// header pulls in neither NVTX nor CUDA. Host only; never throws.

#include <atomic>

namespace cusci::detail {

/// 0: not yet decided (the environment is read at first use), 1: off, 2: on.
extern std::atomic<int> nvtx_ranges_state;
/// Slow path: resolves state 0 from the environment; pushes the range when on. Returns whether a
/// range was pushed.
bool nvtx_scope_push(const char* name) noexcept;
void nvtx_scope_pop() noexcept;

class nvtx_scope {
 public:
  explicit nvtx_scope(const char* name) noexcept
      : pushed_(nvtx_ranges_state.load(std::memory_order_relaxed) != 1 && nvtx_scope_push(name)) {}
  ~nvtx_scope() {
    if (pushed_) nvtx_scope_pop();
  }
  nvtx_scope(const nvtx_scope&) = delete;
  nvtx_scope& operator=(const nvtx_scope&) = delete;

 private:
  bool pushed_;
};

}  // namespace cusci::detail

#define CUSCI_NVTX_CONCAT2_(a, b) a##b
#define CUSCI_NVTX_CONCAT_(a, b) CUSCI_NVTX_CONCAT2_(a, b)
/// Scoped NVTX range named `name` (a string literal) when cusci's NVTX ranges are on.
#define CUSCI_NVTX_SCOPE(name) \
  const ::cusci::detail::nvtx_scope CUSCI_NVTX_CONCAT_(cusci_nvtx_scope_, __LINE__) { name }
