// Evaluation of cubic / quadratic spline coefficients at arbitrary points (cspline1d_eval,
// qspline1d_eval): one thread per point. SciPy folds points outside [0, N-1] by recursion (x < 0 ->
// -x, x > N-1 -> 2(N-1) - x); the same mirror images come here from one fmod over the period
// 2(N-1). Inside, SciPy sums the 4 (3) neighbouring coefficients, their indices clipped to [0, N-1],
// weighted by the B-spline basis at the distance.

#include <cmath>
#include <cstdint>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "bsplines/spline_eval.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"

namespace cusci::signal::detail {

namespace {

__device__ __forceinline__ double cubic_basis(double t) {
  const double a = fabs(t);
  if (a < 1.0) return 2.0 / 3.0 - a * a + a * a * a / 2.0;
  if (a < 2.0) {
    const double b = 2.0 - a;
    return b * b * b / 6.0;
  }
  return 0.0;
}

__device__ __forceinline__ double quadratic_basis(double t) {
  const double a = fabs(t);
  if (a < 0.5) return 0.75 - a * a;
  if (a < 1.5) {
    const double b = a - 1.5;
    return b * b / 2.0;
  }
  return 0.0;
}

template <class P, class T, bool Cubic>
__global__ __launch_bounds__(256) void eval_kernel(const T* __restrict__ cj, std::int64_t N, const P* __restrict__ x,
                                                   T* __restrict__ out, std::int64_t n, P x0, P dx) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  P p = (x[i] - x0) / dx;
  if (isnan(p) || isinf(p)) {
    out[i] = T(::nan("")) * cj[0];
    return;
  }
  const P last = static_cast<P>(N - 1);
  if (N == 1) {
    p = P(0);
  } else if (p < P(0) || p > last) {
    const P period = P(2) * last;
    p = fmod(fabs(p), period);
    if (p > last) p = period - p;
  }
  const double pd = static_cast<double>(p);
  T acc = T(0);
  if constexpr (Cubic) {
    const std::int64_t jl = static_cast<std::int64_t>(floor(p - P(2))) + 1;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const std::int64_t j = jl + k;
      const std::int64_t idx = j < 0 ? 0 : (j > N - 1 ? N - 1 : j);
      acc += cj[idx] * cubic_basis(pd - static_cast<double>(j));
    }
  } else {
    const std::int64_t jl = static_cast<std::int64_t>(floor(p - P(1.5))) + 1;
#pragma unroll
    for (int k = 0; k < 3; ++k) {
      const std::int64_t j = jl + k;
      const std::int64_t idx = j < 0 ? 0 : (j > N - 1 ? N - 1 : j);
      acc += cj[idx] * quadratic_basis(pd - static_cast<double>(j));
    }
  }
  out[i] = acc;
}

template <class P, class T>
void launch(bool cubic, const T* cj, std::int64_t N, const P* x, T* out, std::int64_t n, double dx, double x0) {
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  cudaStream_t s = get_current_stream();
  if (cubic) eval_kernel<P, T, true><<<blocks, 256, 0, s>>>(cj, N, x, out, n, static_cast<P>(x0), static_cast<P>(dx));
  else eval_kernel<P, T, false><<<blocks, 256, 0, s>>>(cj, N, x, out, n, static_cast<P>(x0), static_cast<P>(dx));
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void spline_eval_run(bool cubic, const ndarray& cj, const ndarray& newx, const ndarray& out, double dx, double x0) {
  const std::int64_t n = newx.size(), N = cj.size();
  if (n == 0) return;
  const bool cplx = cj.dtype() == dtype::complex128;
  const bool single = newx.dtype() == dtype::float32;
  using C = cuda::std::complex<double>;
  if (cplx) {
    if (single) launch<float, C>(cubic, cj.data_as<C>(), N, newx.data_as<float>(), out.data_as<C>(), n, dx, x0);
    else launch<double, C>(cubic, cj.data_as<C>(), N, newx.data_as<double>(), out.data_as<C>(), n, dx, x0);
  } else {
    if (single) launch<float, double>(cubic, cj.data_as<double>(), N, newx.data_as<float>(), out.data_as<double>(), n, dx, x0);
    else launch<double, double>(cubic, cj.data_as<double>(), N, newx.data_as<double>(), out.data_as<double>(), n, dx, x0);
  }
}

}  // namespace cusci::signal::detail
