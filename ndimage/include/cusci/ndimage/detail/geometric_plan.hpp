#pragma once
/// @file detail/geometric_plan.hpp
/// The precompiled part of `geometric_transform` shared by its two forms (the run-time-compiled
/// `device_function` of interpolation.hpp and the device functor of
/// `cusci/ndimage/nvcc/geometric_transform.cuh`): the chunk a mapping kernel fills, the chunking of
/// the output, the generated NVRTC source, and the entry point that checks the arguments, prefilters
/// and interpolates. Plain C++ (g++); not a stable API.
///
/// How a call runs (SciPy's NI_GeometricTransform computes every output point's input coordinates
/// with the mapping, then interpolates exactly as map_coordinates does): the output points are taken
/// in chunks of at most `geometric_chunk_points` (C order); for each chunk a mapping kernel writes the
/// input coordinates of the chunk's points into a float64 buffer [input_rank, n], then the
/// map_coordinates kernels interpolate the (prefiltered) input at those coordinates straight into the
/// chunk of the output. The buffer stays bounded whatever the output size.

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/device_function.hpp"
#include "cusci/ndimage/interpolation.hpp"

namespace cusci::ndimage::detail {

/// Largest input or output rank geometric_transform handles (the interpolation kernels' limit).
inline constexpr int geometric_max_rank = 16;

/// Most output points per chunk (the coordinate buffer holds input_rank x this many float64 values,
/// 32 MiB per input axis; fewer points when the input rank exceeds 4, so that the buffer stays within
/// 128 MiB).
inline constexpr std::int64_t geometric_chunk_points = std::int64_t{1} << 22;

/// One chunk of output points: the points start[d] + [0, extent[d]) of the output grid for d <
/// output_rank, in C order (extent is 1 on the leading axes the chunk does not span); n =
/// prod(extent) <= geometric_chunk_points. The mapping kernel computes the input coordinates of the
/// chunk's point t (its C-order index in the chunk, 0 <= t < n) and writes coordinate h to
/// coords[h * n + t] (h < input_rank); where the mapping returns 0 it stores 1 to *status (status is
/// null for a mapping that returns nothing). The layout is also the parameter of the generated NVRTC
/// kernel (geometric_kernel_source): keep them the same.
struct geometric_chunk {
  double* coords = nullptr;
  int* status = nullptr;
  std::int64_t n = 0;
  int output_rank = 0;
  int input_rank = 0;
  std::int64_t start[geometric_max_rank] = {};
  std::int64_t extent[geometric_max_rank] = {};
};

/// A mapping as geometric_transform_run uses it: `launch(chunk, context)` enqueues, on the current
/// stream, a kernel filling the chunk's coordinates (throwing on a launch failure).
struct geometric_mapping {
  void (*launch)(const geometric_chunk& chunk, const void* context) = nullptr;
  const void* context = nullptr;
  /// The mapping returns a status (0: failure, SciPy's LowLevelCallable convention): the call checks
  /// it once at the end (one synchronization of the current stream) and throws cusci::runtime_error
  /// when any point failed. False for a mapping returning void (the call stays asynchronous).
  bool reports_status = false;
};

/// How an output of shape `shape` is cut into chunks: the chunks span the axes after `axis` whole,
/// `rows` indices of `axis` (the last chunk of a run may have fewer), and one index of every axis
/// before it. `count` chunks in all (0 for an empty output).
struct geometric_chunking {
  int axis = 0;
  std::int64_t rows = 1;
  std::int64_t blocks_per_run = 1;  ///< chunks per index of the axes before `axis`
  std::int64_t count = 0;
};

/// The chunking of `shape` (rank 1..geometric_max_rank) into chunks of at most `max_points` (>= 1)
/// points: the first axis whose trailing block (the product of the extents after it) fits, with as
/// many of its indices per chunk as fit.
geometric_chunking plan_geometric_chunks(const shape_t& shape, std::int64_t max_points);

/// Fills `c.n`, `c.output_rank`, `c.start` and `c.extent` with chunk `index` (0 <= index <
/// plan.count) of `plan` over `shape`.
void geometric_chunk_at(const geometric_chunking& plan, const shape_t& shape, std::int64_t index,
                        geometric_chunk& c);

/// The CUDA C++ source NVRTC compiles for `mapping` (the run-time-compiled form): declarations of
/// `ptrdiff_t` and `std::ptrdiff_t` (NVRTC has no <cstddef>), the user's code, and the kernel
/// `cusci_geometric_transform_map` (one thread per point of a geometric_chunk, its only parameter)
/// around the function `mapping.name`, plus the global `cusci_gt_reports_status` whose size tells
/// whether the function returns a status (2 bytes) or void (1 byte).
/// @throws cusci::value_error naming `fn` when `mapping.name` is not a C++ (qualified) identifier or
///         `mapping.code` is empty.
std::string geometric_kernel_source(const device_function& mapping, const char* fn);

/// The NVRTC options the kernel is compiled with: `--fmad=false` (no contraction of the mapping's
/// multiply-adds, so that its arithmetic is the one SciPy's Python or C mapping performs), then
/// `mapping.options` (which may override it with `--fmad=true`).
std::vector<std::string> geometric_kernel_options(const device_function& mapping);

/// geometric_transform with `mapping`: SciPy's argument checks (before any allocation), the
/// prefilter, then the chunks (mapping kernel, interpolation). See interpolation.hpp's
/// geometric_transform for the parameters, result and exceptions.
ndarray geometric_transform_run(const ndarray& input, const geometric_mapping& mapping,
                                const geometric_transform_options& opts);

}  // namespace cusci::ndimage::detail
