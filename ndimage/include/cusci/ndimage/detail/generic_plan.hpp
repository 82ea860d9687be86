#pragma once
/// @file detail/generic_plan.hpp
/// (detail; not a public API) The precompiled host half of generic_filter, generic_filter1d and
/// vectorized_filter, shared by the run-time-compiled form (generic.hpp) and the nvcc functor form
/// (nvcc/generic_filters.cuh): SciPy's argument checks, the padded copy of the input, the window
/// offsets, the launch shape, and the conversion of the results into the output. The only thing left
/// to the caller is the kernel that calls the user function, launched between prepare_* and finish_*
/// on the current stream. Plain C++ (no CUDA types).

#include <cstdint>
#include <optional>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/generic.hpp"

namespace cusci::ndimage::detail {

/// Most dimensions the generic filters accept.
inline constexpr int generic_max_dims = 32;
/// Windows up to this many elements are gathered into a per-thread local array; longer ones into
/// `window_plan::scratch`.
inline constexpr std::int64_t generic_local_window = 64;

/// A generic_filter / vectorized_filter pass: output i (C order over `result`'s shape) is
/// f(window, window_size), window[k] = padded[base(i) + offsets[k]], base(i) = sum_d c_d * pstride_d
/// for the coordinates c of i.
struct window_plan {
  ndarray padded;    ///< C-contiguous padded input: float64 (generic_filter) or the input dtype
  ndarray geometry;  ///< int64 [2 * ndim + window]: result shape, padded strides (elements), offsets
  ndarray result;    ///< C-contiguous results: float64 (generic_filter) or `result_dtype`
  ndarray scratch;   ///< [threads * window] of the padded dtype when window > generic_local_window
  std::int64_t count = 0;   ///< number of outputs (0: nothing to launch)
  std::int64_t window = 0;  ///< filter_size: the footprint's true elements
  int ndim = 0;
  unsigned grid = 1, block = 128;  ///< launch shape (grid-stride loop; grid * block threads)
  cusci::dtype input_dtype = cusci::dtype::float64;   ///< the input's dtype
  cusci::dtype output_dtype = cusci::dtype::float64;  ///< the dtype the filter returns
  ndarray output;    ///< the array returned (the `output=` array, a new array, or the input)
  bool skip = false; ///< nothing to compute: finish_* returns `output` as is
};

/// SciPy's generic_filter up to the call of the function (checks, output, padded float64 copy,
/// offsets, scratch). Enqueues the padding on the current stream.
window_plan prepare_generic_filter(const ndarray& input, const per_axis<std::int64_t>& size,
                                   const generic_filter_options& opts);
/// Converts `plan.result` into `plan.output` (SciPy's x86-64 C cast). Enqueues; returns the output.
ndarray finish_generic_filter(const window_plan& plan);

/// SciPy's vectorized_filter up to the calls of the function. `result_dtype`: the dtype the kernel
/// writes into `plan.result` (nullopt: the output dtype); when it differs from the output dtype,
/// finish_vectorized_filter converts with NumPy's casting.
window_plan prepare_vectorized_filter(const ndarray& input, const vectorized_filter_options& opts,
                                      std::optional<cusci::dtype> result_dtype = {});
/// Delivers `plan.result` into `plan.output`. Enqueues; returns the output.
ndarray finish_vectorized_filter(const window_plan& plan);

/// A generic_filter1d pass: line l of `padded` ([lines, in_length], float64) gives line l of
/// `result` ([lines, out_length], float64, zeros).
struct line_plan {
  ndarray padded;
  ndarray result;
  std::int64_t lines = 0, in_length = 0, out_length = 0;
  unsigned grid = 1, block = 128;
  ndarray output;
  int axis = 0;
  bool skip = false;
};

/// SciPy's generic_filter1d up to the calls of the function. Enqueues the padding.
line_plan prepare_generic_filter1d(const ndarray& input, std::int64_t filter_size, int axis,
                                   const generic_filter1d_options& opts);
/// Converts `plan.result` into `plan.output` (SciPy's x86-64 C cast). Enqueues; returns the output.
ndarray finish_generic_filter1d(const line_plan& plan);

}  // namespace cusci::ndimage::detail
