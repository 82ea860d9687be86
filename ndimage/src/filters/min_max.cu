// The minimum / maximum policies: on the axis-pass engine (minimum_filter1d, maximum_filter1d, and
// the separable minimum_filter / maximum_filter) and on the footprint engine (minimum_filter /
// maximum_filter with a footprint that is not all true). Exact for every real dtype: values are
// compared as doubles (exact for every dtype up to 32 bits, and what SciPy's 1-D filter does, so
// cval compares as SciPy's) or, for 64-bit integers, as themselves.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "engine/axis_engine.cuh"
#include "engine/axis_engine.hpp"
#include "engine/axis_fast.cuh"
#include "engine/cast.cuh"
#include "engine/footprint_engine.cuh"
#include "engine/footprint_engine.hpp"

namespace cusci::ndimage::detail {
namespace {

/// The running minimum (Min) or maximum over the window: the first value, then each later value
/// that compares strictly smaller (larger), as SciPy's loops.
template <bool Min>
struct extremum_policy {
  template <class Tin, class Tout>
  using acc = std::conditional_t<std::is_integral_v<Tin> && sizeof(Tin) == 8, Tin, double>;
  static constexpr bool uses_weights = false;

  template <class A>
  __device__ static bool better(A t, A v) {
    if constexpr (Min) return t < v;
    else return t > v;
  }

  // Axis engine: the window's K values.
  template <class A, class Get, class W>
  __device__ static A compute(const Get& get, const W&, const pass_params& p) {
    A v = get(0);
    for (int k = 1; k < p.K; ++k) {
      const A t = get(k);
      if (better(t, v)) v = t;
    }
    return v;
  }

  // Fast float kernels: windows of up to 16 values.
  template <class T>
  static constexpr int max_fast_taps = 16;
  template <class T>
  __device__ static T fast_init() {
    return Min ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  }
  template <class T>
  __device__ static T fast_step(T acc, T, T x) {
    return better(x, acc) ? x : acc;
  }

  // Footprint engine: the footprint's values in SciPy's order; a weight (grey morphology's
  // structure) is added to each value (subtracted for the minimum), in T, as SciPy.
  template <class T, class Get>
  __device__ static T reduce(const Get& get, int n, const double* w) {
    auto value = [&](int k) -> T {
      const T v = get(k);
      if (w == nullptr) return v;
      return static_cast<T>(static_cast<double>(v) + (Min ? -w[k] : w[k]));
    };
    T r = value(0);
    for (int k = 1; k < n; ++k) {
      const T t = value(k);
      if (better(t, r)) r = t;
    }
    return r;
  }
};

template <bool Min>
void axis_run(const ndarray& in, const ndarray& out, int axis, std::int64_t size, ext mode, double cval,
              std::int64_t origin) {
  using P = extremum_policy<Min>;
  const pass_params p = make_pass_params(in, out, axis, static_cast<int>(size), origin, mode, cval);
  cudaStream_t stream = get_current_stream();
  const std::vector<double> no_weights;
  switch (in.dtype()) {
    case dtype::bool_:
    case dtype::uint8: return launch<P, std::uint8_t, std::uint8_t>(p, stream);
    case dtype::int8: return launch<P, std::int8_t, std::int8_t>(p, stream);
    case dtype::int16: return launch<P, std::int16_t, std::int16_t>(p, stream);
    case dtype::uint16: return launch<P, std::uint16_t, std::uint16_t>(p, stream);
    case dtype::int32: return launch<P, std::int32_t, std::int32_t>(p, stream);
    case dtype::uint32: return launch<P, std::uint32_t, std::uint32_t>(p, stream);
    case dtype::int64: return launch<P, std::int64_t, std::int64_t>(p, stream);
    case dtype::uint64: return launch<P, std::uint64_t, std::uint64_t>(p, stream);
    case dtype::float32:
      if (try_fast<P, float>(p, no_weights, stream)) return;
      return launch<P, float, float>(p, stream);
    case dtype::float64:
      if (try_fast<P, double>(p, no_weights, stream)) return;
      return launch<P, double, double>(p, stream);
    default: break;
  }
  throw type_error("cusci::ndimage: dtype " + std::string(dtype_name(in.dtype())) +
                   " is not supported by the minimum / maximum kernels");
}

template <bool Min>
void footprint_run(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval) {
  using P = extremum_policy<Min>;
  switch (in.dtype()) {
    case dtype::bool_:
    case dtype::uint8: return footprint_launch<P, std::uint8_t>(in, out, f, x86_cast<std::uint8_t>(cval));
    case dtype::int8: return footprint_launch<P, std::int8_t>(in, out, f, x86_cast<std::int8_t>(cval));
    case dtype::int16: return footprint_launch<P, std::int16_t>(in, out, f, x86_cast<std::int16_t>(cval));
    case dtype::uint16: return footprint_launch<P, std::uint16_t>(in, out, f, x86_cast<std::uint16_t>(cval));
    case dtype::int32: return footprint_launch<P, std::int32_t>(in, out, f, x86_cast<std::int32_t>(cval));
    case dtype::uint32: return footprint_launch<P, std::uint32_t>(in, out, f, x86_cast<std::uint32_t>(cval));
    case dtype::int64: return footprint_launch<P, std::int64_t>(in, out, f, x86_cast<std::int64_t>(cval));
    case dtype::uint64: return footprint_launch<P, std::uint64_t>(in, out, f, x86_cast<std::uint64_t>(cval));
    case dtype::float32: return footprint_launch<P, float>(in, out, f, x86_cast<float>(cval));
    case dtype::float64: return footprint_launch<P, double>(in, out, f, x86_cast<double>(cval));
    default: break;
  }
  throw type_error("cusci::ndimage: dtype " + std::string(dtype_name(in.dtype())) +
                   " is not supported by the minimum / maximum kernels");
}

}  // namespace

void min_max_pass(const ndarray& in, const ndarray& out, int axis, std::int64_t size, ext mode, double cval,
                  std::int64_t origin, bool minimum) {
  if (out.size() == 0) return;
  if (in.dtype() != out.dtype()) {
    // SciPy stores each value of the window's extremum into the output dtype with a C cast: the
    // extremum in the input dtype, then a one-tap correlation (weight 1.0) that casts it.
    const ndarray tmp = cusci::empty(in.shape(), in.dtype());
    min_max_pass(in, tmp, axis, size, mode, cval, origin, minimum);
    correlate_pass(tmp, out, axis, {1.0}, mode, cval, 0);
    return;
  }
  if (minimum) axis_run<true>(in, out, axis, size, mode, cval, origin);
  else axis_run<false>(in, out, axis, size, mode, cval, origin);
}

void min_max_footprint_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval,
                            bool minimum) {
  if (out.size() == 0) return;
  if (in.dtype() != out.dtype()) {
    const ndarray tmp = cusci::empty(in.shape(), in.dtype());
    min_max_footprint_pass(in, tmp, f, cval, minimum);
    correlate_pass(tmp, out, out.ndim() - 1, {1.0}, ext::constant, 0.0, 0);
    return;
  }
  if (minimum) footprint_run<true>(in, out, f, cval);
  else footprint_run<false>(in, out, f, cval);
}

}  // namespace cusci::ndimage::detail
