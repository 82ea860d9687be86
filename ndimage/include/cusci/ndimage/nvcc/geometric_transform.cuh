#pragma once
/// @file nvcc/geometric_transform.cuh
/// `geometric_transform` with a device functor as the mapping, for programs compiled with nvcc (the
/// headers under `cusci/ndimage/nvcc/` are the only cusci headers that need it; everything else,
/// including the run-time-compiled form `geometric_transform(input, device_function, opts)` of
/// interpolation.hpp, works from plain g++ programs).
///
/// This header holds only the mapping kernel and its launch: the argument checks, the prefilter, the
/// chunking and the interpolation are cusci's precompiled code (detail/geometric_plan.hpp), shared
/// with the run-time-compiled form, so both give the same values.
///
///     struct swirl {
///       double k;
///       __device__ int operator()(const std::ptrdiff_t* o, double* in, int orank, int irank) const {
///         ... write in[0 .. irank - 1] from o[0 .. orank - 1] ...
///         return 1;
///       }
///     };
///     auto out = cusci::ndimage::geometric_transform(img, swirl{0.004}, {.order = 1});

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/detail/geometric_plan.hpp"
#include "cusci/ndimage/device_function.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "cusci/stream.hpp"

namespace cusci::ndimage {
namespace detail {

/// What the mapping returns when called as the kernel calls it.
template <class Mapping>
using geometric_result_t = decltype(std::declval<const Mapping&>()(std::declval<std::ptrdiff_t*>(),
                                                                   std::declval<double*>(), 0, 0));

/// Whether the mapping returns a status to check. nvcc cannot tell the result type of a
/// `__device__`-only extended lambda in host code: such a lambda is assumed to return one (its
/// status is read, a void result reads as success).
template <class Mapping>
constexpr bool geometric_reports_status() {
#if defined(__CUDACC_EXTENDED_LAMBDA__)
  if constexpr (__nv_is_extended_device_lambda_closure_type(Mapping)) {
    return true;
  } else {
    return !std::is_void_v<geometric_result_t<Mapping>>;
  }
#else
  return !std::is_void_v<geometric_result_t<Mapping>>;
#endif
}

/// One thread per point of the chunk: its output coordinates, the mapping, the input coordinates
/// stored axis by axis (coalesced). The same steps as the NVRTC kernel of geometric_kernel_source.
template <class Mapping>
__global__ void __launch_bounds__(256) geometric_map_kernel(const Mapping mapping, const geometric_chunk c) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= c.n) return;
  std::ptrdiff_t oc[geometric_max_rank];
  double ic[geometric_max_rank];
  unsigned int r = static_cast<unsigned int>(t);  // n <= geometric_chunk_points
  for (int d = c.output_rank - 1; d >= 0; --d) {
    const unsigned int e = static_cast<unsigned int>(c.extent[d]);
    const unsigned int q = r / e;
    oc[d] = static_cast<std::ptrdiff_t>(c.start[d] + static_cast<std::int64_t>(r - q * e));
    r = q;
  }
  for (int h = 0; h < c.input_rank; ++h) ic[h] = 0.0;  // coordinates the mapping leaves unwritten are 0
  bool ok = true;
  using result = decltype(mapping(oc, ic, c.output_rank, c.input_rank));
  static_assert(std::is_void_v<result> || std::is_convertible_v<result, int>,
                "cusci::ndimage::geometric_transform: the mapping must return void or a status convertible to int");
  if constexpr (std::is_void_v<result>) {
    mapping(oc, ic, c.output_rank, c.input_rank);
  } else {
    ok = mapping(oc, ic, c.output_rank, c.input_rank) != 0;
  }
  if (!ok && c.status != nullptr) *c.status = 1;
  for (int h = 0; h < c.input_rank; ++h) c.coords[h * c.n + t] = ic[h];
}

/// geometric_mapping::launch for a functor of type Mapping (`context` points to it).
template <class Mapping>
void geometric_map_launch(const geometric_chunk& c, const void* context) {
  const Mapping& mapping = *static_cast<const Mapping*>(context);
  const auto blocks = static_cast<unsigned int>((c.n + 255) / 256);
  geometric_map_kernel<Mapping><<<blocks, 256, 0, cusci::get_current_stream()>>>(mapping, c);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace detail

/// geometric_transform with a device functor: `mapping` is an object (copied to the device by value
/// at each launch: constants as members or captures, SciPy's extra_arguments) whose `__device__` (or
/// `__host__ __device__`) call operator has the signature of the run-time-compiled form,
///
///     int operator()(const std::ptrdiff_t* output_coordinates, double* input_coordinates,
///                    int output_rank, int input_rank) const;
///
/// returning nonzero on success and 0 on failure (SciPy's LowLevelCallable convention), or void;
/// or an extended lambda (nvcc's `--extended-lambda`) with these parameters (a `__device__`-only
/// lambda's status is always read, as nvcc cannot tell its result type in host code). Compile with
/// `--fmad=false` for the mapping's arithmetic to round as SciPy's does.
/// Parameters, result, stream behaviour (asynchronous for a void mapping; one synchronization at
/// the end to read the status otherwise), exceptions (except compile_error: nothing is compiled at
/// run time) and deviations: as `geometric_transform(input, device_function, opts)` in
/// interpolation.hpp. The kernel is launched on cusci::get_current_stream().
/// SciPy: `scipy.ndimage.geometric_transform` with a LowLevelCallable mapping.
template <class Mapping>
  requires(!std::is_same_v<std::remove_cvref_t<Mapping>, device_function>)
ndarray geometric_transform(const ndarray& input, const Mapping& mapping,
                            const geometric_transform_options& opts = {}) {
  static_assert(std::is_copy_constructible_v<Mapping>,
                "cusci::ndimage::geometric_transform: the mapping is copied to the kernel by value");
  detail::geometric_mapping m;
  m.launch = &detail::geometric_map_launch<Mapping>;
  m.context = &mapping;
  m.reports_status = detail::geometric_reports_status<Mapping>();
  return detail::geometric_transform_run(input, m, opts);
}

}  // namespace cusci::ndimage
