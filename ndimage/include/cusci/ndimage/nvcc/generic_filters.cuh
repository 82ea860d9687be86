#pragma once
/// @file nvcc/generic_filters.cuh
/// The functor form of generic_filter, generic_filter1d and vectorized_filter, for programs compiled
/// with nvcc (this header needs nvcc; every other public header compiles with plain g++). The user
/// function is a device functor: a lambda marked `__device__` (nvcc's `--extended-lambda`), or an
/// object whose `operator()` is `__device__` (or `__host__ __device__`); it is copied to the device
/// by value with each launch, so captured constants play the part of SciPy's `extra_arguments`.
///
/// Parameters, results, exceptions and SciPy semantics are those of the run-time-compiled functions
/// of generic.hpp (same options structs, same checks in the same order, same padding and output
/// conversion: all of it runs in cusci's precompiled library, detail/generic_plan.hpp); only the
/// kernel that gathers the windows and calls the functor is instantiated here, once per functor
/// type (and input / result type for vectorized_filter), and launched on the current stream
/// (cusci::get_current_stream()). Nothing is compiled at run time.
///
/// The functor's signatures:
/// - generic_filter:   `double f(const double* buffer, std::ptrdiff_t filter_size)` (any return type
///                     convertible to double);
/// - generic_filter1d: `void f(const double* input_line, std::ptrdiff_t input_length,
///                     double* output_line, std::ptrdiff_t output_length)`;
/// - vectorized_filter<T, R>: `R f(const T* window, std::ptrdiff_t size)`, T the input's element type
///                     (bool, std::int8_t ... std::uint64_t, __half, float, double,
///                     cuda::std::complex<float/double>), R (default T) one of those types; the
///                     results are stored as R's dtype and delivered into the output (dtype
///                     `opts.output`'s, else the input's) with NumPy's casting.

#include <cuda/std/complex>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/detail/generic_plan.hpp"
#include "cusci/ndimage/generic.hpp"
#include "cusci/stream.hpp"

namespace cusci::ndimage {

namespace nvcc_detail {

/// The gather-and-call loop of generic_filter / vectorized_filter (the same loop as the generated
/// kernel of the run-time-compiled form): one thread per output, grid-stride; the window gathered
/// through the offsets into a local array (LOCAL > 0) or the thread's slice of the scratch buffer.
template <class T, class O, int LOCAL, class F>
__global__ void window_kernel(F f, const T* __restrict__ padded, const long long* __restrict__ geom,
                              O* __restrict__ out, T* scratch, long long count, long long window, int ndim) {
  T local[LOCAL > 0 ? LOCAL : 1];
  const long long tid = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  T* w = LOCAL > 0 ? local : scratch + tid * window;
  const long long* off = geom + 2 * ndim;
  for (long long i = tid; i < count; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long rem = i, base = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      const long long n = geom[d];
      base += (rem % n) * geom[ndim + d];
      rem /= n;
    }
    for (long long k = 0; k < window; ++k) w[k] = padded[base + off[k]];
    out[i] = static_cast<O>(f(w, static_cast<std::ptrdiff_t>(window)));
  }
}

/// generic_filter1d: one thread per line.
template <class F>
__global__ void line_kernel(F f, double* in, double* out, long long lines, long long in_len, long long out_len) {
  for (long long l = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; l < lines;
       l += static_cast<long long>(gridDim.x) * blockDim.x)
    (void)f(in + l * in_len, static_cast<std::ptrdiff_t>(in_len), out + l * out_len,
            static_cast<std::ptrdiff_t>(out_len));
}

/// The dtype of a device element type.
template <class T>
constexpr cusci::dtype dtype_of_device() {
  if constexpr (std::is_same_v<T, __half>) return cusci::dtype::float16;
  else if constexpr (std::is_same_v<T, cuda::std::complex<float>>) return cusci::dtype::complex64;
  else if constexpr (std::is_same_v<T, cuda::std::complex<double>>) return cusci::dtype::complex128;
  else return cusci::dtype_of<T>;
}

template <class T, class O, class F>
void launch_window(const F& f, const detail::window_plan& p) {
  if (p.skip || p.count == 0) return;
  const auto* padded = static_cast<const T*>(p.padded.data());
  const auto* geom = static_cast<const long long*>(p.geometry.data());
  auto* out = static_cast<O*>(p.result.data());
  cudaStream_t s = get_current_stream();
  if (p.window <= detail::generic_local_window) {
    window_kernel<T, O, static_cast<int>(detail::generic_local_window)><<<p.grid, p.block, 0, s>>>(
        f, padded, geom, out, static_cast<T*>(nullptr), p.count, p.window, p.ndim);
  } else {
    window_kernel<T, O, 0><<<p.grid, p.block, 0, s>>>(f, padded, geom, out, static_cast<T*>(p.scratch.data()), p.count,
                                                      p.window, p.ndim);
  }
  CUSCI_CHECK_LAUNCH();
}

template <class F>
inline constexpr bool is_functor_v = !std::is_same_v<std::decay_t<F>, device_function>;

}  // namespace nvcc_detail

/// generic_filter with a device functor `double f(const double* buffer, std::ptrdiff_t filter_size)`.
/// Everything else as the run-time-compiled generic_filter (generic.hpp), minus the compilation.
template <class F, std::enable_if_t<nvcc_detail::is_functor_v<F>, int> = 0>
ndarray generic_filter(const ndarray& input, F function, const per_axis<std::int64_t>& size = {},
                       const generic_filter_options& opts = {}) {
  const detail::window_plan p = detail::prepare_generic_filter(input, size, opts);
  nvcc_detail::launch_window<double, double>(function, p);
  return detail::finish_generic_filter(p);
}

/// generic_filter1d with a device functor `void f(const double* input_line, std::ptrdiff_t
/// input_length, double* output_line, std::ptrdiff_t output_length)`. Everything else as the
/// run-time-compiled generic_filter1d (generic.hpp).
template <class F, std::enable_if_t<nvcc_detail::is_functor_v<F>, int> = 0>
ndarray generic_filter1d(const ndarray& input, F function, std::int64_t filter_size, int axis = -1,
                         const generic_filter1d_options& opts = {}) {
  const detail::line_plan p = detail::prepare_generic_filter1d(input, filter_size, axis, opts);
  if (!p.skip && p.lines > 0) {
    nvcc_detail::line_kernel<<<p.grid, p.block, 0, get_current_stream()>>>(
        function, static_cast<double*>(p.padded.data()), static_cast<double*>(p.result.data()), p.lines,
        p.in_length, p.out_length);
    CUSCI_CHECK_LAUNCH();
  }
  return detail::finish_generic_filter1d(p);
}

/// vectorized_filter with a device functor `R f(const T* window, std::ptrdiff_t size)`. T must be
/// the input's element type (cusci::type_error otherwise, checked first); R (default T) is the
/// type of the results, stored as its dtype and delivered into the output with NumPy's casting
/// (output dtype: `opts.output`'s, else the input's). Everything else as the run-time-compiled
/// vectorized_filter (generic.hpp).
template <class T, class R = T, class F, std::enable_if_t<nvcc_detail::is_functor_v<F>, int> = 0>
ndarray vectorized_filter(const ndarray& input, F function, const vectorized_filter_options& opts = {}) {
  constexpr cusci::dtype tdt = nvcc_detail::dtype_of_device<T>();
  constexpr cusci::dtype rdt = nvcc_detail::dtype_of_device<R>();
  if (input.dtype() != tdt)
    throw type_error("cusci::ndimage::vectorized_filter: the functor takes " + std::string(dtype_name(tdt)) +
                     " windows, the input has dtype " + std::string(dtype_name(input.dtype())));
  const detail::window_plan p = detail::prepare_vectorized_filter(input, opts, rdt);
  nvcc_detail::launch_window<T, R>(function, p);
  return detail::finish_vectorized_filter(p);
}

}  // namespace cusci::ndimage
