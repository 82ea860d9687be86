#pragma once
/// @file nvcc/measurements.cuh
/// The functor form of labeled_comprehension, for programs compiled with nvcc (this header needs
/// nvcc; every other public header compiles with plain g++). The function is a device functor: a
/// lambda marked `__device__` (nvcc's `--extended-lambda`) or an object whose `operator()` is
/// `__device__`; it is copied to the device by value with the launch.
///
/// Parameters, results, exceptions and SciPy semantics are those of the run-time-compiled
/// labeled_comprehension of measurements.hpp (same checks in the same order, same grouping, same
/// delivery: all of it runs in cusci's precompiled library, detail/measurements_plan.hpp); only the
/// kernel calling the functor once per region is instantiated here and launched on the current
/// stream. Nothing is compiled at run time.
///
/// The functor's signature: `R f(const T* values, std::ptrdiff_t n)`, or, with the template argument
/// PassPositions = true (and `opts.pass_positions` true),
/// `R f(const T* values, const long long* positions, std::ptrdiff_t n)`; T is
/// the input's device element type (bool, std::int8_t ... std::uint64_t, __half, float, double),
/// R anything convertible to double (the result is converted to double, then to out_dtype).

#include <cuda_fp16.h>

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/detail/measurements_plan.hpp"
#include "cusci/ndimage/measurements.hpp"
#include "cusci/stream.hpp"

namespace cusci::ndimage {

namespace nvcc_detail {

template <class T, bool Positions, class F>
__global__ void comprehension_kernel(F f, const T* values, const long long* positions, const long long* offsets,
                                     double* result, long long nslots, double default_value) {
  for (long long s = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; s < nslots;
       s += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long lo = offsets[s], n = offsets[s + 1] - lo;
    if (n == 0) {
      result[s] = default_value;
      continue;
    }
    if constexpr (Positions)
      result[s] = static_cast<double>(f(values + lo, positions + lo, static_cast<std::ptrdiff_t>(n)));
    else
      result[s] = static_cast<double>(f(values + lo, static_cast<std::ptrdiff_t>(n)));
  }
}

template <class T>
constexpr cusci::dtype measurement_dtype_of() {
  if constexpr (std::is_same_v<T, __half>) return cusci::dtype::float16;
  else return cusci::dtype_of<T>;
}

template <class F>
inline constexpr bool is_measure_functor_v = !std::is_same_v<std::decay_t<F>, device_function>;

}  // namespace nvcc_detail

/// labeled_comprehension with a device functor over the input's element type T (T must match the
/// input's dtype: cusci::type_error otherwise, checked first; PassPositions must equal
/// opts.pass_positions: cusci::value_error otherwise). Everything else as the run-time-compiled
/// labeled_comprehension (measurements.hpp).
template <class T, bool PassPositions = false, class F,
          std::enable_if_t<nvcc_detail::is_measure_functor_v<F>, int> = 0>
ndarray labeled_comprehension(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index,
                              F func, const labeled_comprehension_options& opts = {}) {
  constexpr cusci::dtype tdt = nvcc_detail::measurement_dtype_of<T>();
  if (input.dtype() != tdt)
    throw type_error("cusci::ndimage::labeled_comprehension: the functor takes " + std::string(dtype_name(tdt)) +
                     " values, the input has dtype " + std::string(dtype_name(input.dtype())));
  if (opts.pass_positions != PassPositions)
    throw value_error("cusci::ndimage::labeled_comprehension: opts.pass_positions must match the functor form "
                      "(template argument PassPositions)");
  const detail::comprehension_plan p = detail::prepare_labeled_comprehension(input, labels, index, opts);
  if (p.nslots > 0) {
    const auto* v = static_cast<const T*>(p.values.data());
    const auto* pos = static_cast<const long long*>(p.positions.data());
    const auto* off = static_cast<const long long*>(p.offsets.data());
    auto* res = static_cast<double*>(p.result.data());
    nvcc_detail::comprehension_kernel<T, PassPositions><<<p.grid, p.block, 0, get_current_stream()>>>(
        func, v, pos, off, res, p.nslots, p.default_value);
    CUSCI_CHECK_LAUNCH();
  }
  return detail::finish_labeled_comprehension(p);
}

}  // namespace cusci::ndimage
