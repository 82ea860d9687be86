#pragma once
/// @file device_function.hpp
/// The run-time-compiled form of a user function given to ndimage's generic filters
/// (`generic_filter`, `generic_filter1d`, `vectorized_filter`) and to `geometric_transform`: the CUDA
/// C++ source of a `__device__` function, compiled with NVRTC through `cusci::rtc` the first time it is
/// used with a given signature and cached like every runtime kernel (in memory and on disk, see
/// `cusci/rtc.hpp`). Programs built with g++ use this form; programs built with nvcc may instead pass a
/// device functor to the templates of the opt-in headers under `cusci/ndimage/nvcc/`.
///
/// The signature the function must have is given by the function it is passed to. SciPy passes Python
/// callables or `scipy.LowLevelCallable`s; CuPy passes `cupy.RawKernel`/`cupy.ReductionKernel` objects.
/// This is cusci's equivalent of CuPy's raw-kernel form.

#include <string>
#include <utility>
#include <vector>

namespace cusci::ndimage {

/// CUDA C++ source defining a `__device__` function named `name` (with any helpers it needs), plus
/// NVRTC options. The source is compiled together with a kernel cusci generates around the function;
/// it must not define `extern "C"` kernels of its own whose names start with `cusci_`.
struct device_function {
  std::string code;                  ///< CUDA C++ source (NVRTC, C++17 unless an `-std=` option is given)
  std::string name;                  ///< the name of the `__device__` function in `code`
  std::vector<std::string> options{};  ///< extra NVRTC options (e.g. `-DWIDTH=3`, `--use_fast_math`)

  device_function() = default;
  device_function(std::string code_, std::string name_, std::vector<std::string> options_ = {})
      : code(std::move(code_)), name(std::move(name_)), options(std::move(options_)) {}
};

}  // namespace cusci::ndimage
