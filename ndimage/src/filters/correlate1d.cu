// The weights policy of the axis-pass engine: correlate1d, convolve1d, gaussian_filter1d and
// gaussian_filter are correlations of each line with a weight vector (SciPy's NI_Correlate1D).
// Generic path: sums follow NI_Correlate1D's order exactly (symmetric and antisymmetric kernels pair
// taps) with IEEE double operations and no fused multiply-add, so double results match SciPy bit for
// bit; float32 -> float32 runs in float32. Fast path (axis_fast.cuh): float32 / float64 with fused
// multiply-adds in tap order.

#include <cuda_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "engine/axis_engine.cuh"
#include "engine/axis_engine.hpp"
#include "engine/axis_fast.cuh"

namespace cusci::ndimage::detail {
namespace {

template <class A>
__device__ __forceinline__ A op_add(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dadd_rn(a, b);
  else return a + b;
}
template <class A>
__device__ __forceinline__ A op_sub(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dsub_rn(a, b);
  else return a - b;
}
template <class A>
__device__ __forceinline__ A op_mul(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dmul_rn(a, b);
  else return a * b;
}

/// The correlation of the window with the weights (NI_Correlate1D's sum order).
struct weights_policy {
  template <class Tin, class Tout>
  using acc = std::conditional_t<std::is_same_v<Tin, float> && std::is_same_v<Tout, float>, float, double>;
  static constexpr bool uses_weights = true;

  template <class A, class Get, class W>
  __device__ static A compute(const Get& get, const W& w, const pass_params& p) {
    const int K = p.K;
    if (p.symmetric > 0) {
      const int c = K >> 1;
      A s = op_mul(get(c), w[c]);
      for (int k = 0; k < c; ++k) s = op_add(s, op_mul(op_add(get(k), get(K - 1 - k)), w[k]));
      return s;
    }
    if (p.symmetric < 0) {
      const int c = K >> 1;
      A s = op_mul(get(c), w[c]);
      for (int k = 0; k < c; ++k) s = op_add(s, op_mul(op_sub(get(k), get(K - 1 - k)), w[k]));
      return s;
    }
    A s = op_mul(get(K - 1), w[K - 1]);
    for (int k = 0; k < K - 1; ++k) s = op_add(s, op_mul(get(k), w[k]));
    return s;
  }

  template <class T>
  static constexpr int max_fast_taps = fast_cfg<T>::max_taps;
  template <class T>
  __device__ static T fast_init() {
    return T(0);
  }
  template <class T>
  __device__ static T fast_step(T acc, T w, T x) {
    return fma(w, x, acc);
  }
};

/// pass_params with the weights (in the parameters, or in `wbuf` on the device when longer than
/// max_param_taps) and NI_Correlate1D's symmetry test.
pass_params weights_params(const ndarray& in, const ndarray& out, int axis, const std::vector<double>& w, ext mode,
                           double cval, std::int64_t origin, device_buffer<double>& wbuf, cudaStream_t stream) {
  const int K = static_cast<int>(w.size());
  pass_params p = make_pass_params(in, out, axis, K, origin, mode, cval);
  // NI_Correlate1D's symmetry test, on odd lengths only.
  const int s1 = K / 2;
  p.symmetric = 0;
  if (K & 1) {
    p.symmetric = 1;
    for (int i = 1; i <= s1; ++i)
      if (std::fabs(w[s1 + i] - w[s1 - i]) > DBL_EPSILON) {
        p.symmetric = 0;
        break;
      }
    if (p.symmetric == 0) {
      p.symmetric = -1;
      for (int i = 1; i <= s1; ++i)
        if (std::fabs(w[s1 + i] + w[s1 - i]) > DBL_EPSILON) {
          p.symmetric = 0;
          break;
        }
    }
  }
  if (K <= max_param_taps) {
    for (int k = 0; k < K; ++k) p.w[k] = w[k];
  } else {
    wbuf = device_buffer<double>(static_cast<std::size_t>(K), stream);
    // From pageable memory: returns once the host data is staged, so `w` may go away afterwards.
    CUSCI_CUDA_TRY(cudaMemcpyAsync(wbuf.data(), w.data(), K * sizeof(double), cudaMemcpyHostToDevice, stream));
    p.wg = wbuf.data();
  }
  return p;
}

}  // namespace

void correlate_pass(const ndarray& in, const ndarray& out, int axis, const std::vector<double>& w, ext mode,
                    double cval, std::int64_t origin) {
  if (out.size() == 0) return;
  cudaStream_t stream = get_current_stream();
  device_buffer<double> wbuf;
  const pass_params p = weights_params(in, out, axis, w, mode, cval, origin, wbuf, stream);
  if (in.dtype() == dtype::float32 && out.dtype() == dtype::float32) {
    if (try_fast<weights_policy, float>(p, w, stream)) return;
    return launch<weights_policy, float, float>(p, stream);
  }
  if (in.dtype() == dtype::float64 && out.dtype() == dtype::float64) {
    if (try_fast<weights_policy, double>(p, w, stream)) return;
    return launch<weights_policy, double, double>(p, stream);
  }
  launch_out<weights_policy, any_in>(out.dtype(), p, stream);
}

bool fast_correlate_pass(const ndarray& in, const ndarray& out, int axis, const std::vector<double>& w, ext mode,
                         double cval, std::int64_t origin) {
  const bool f32 = in.dtype() == dtype::float32 && out.dtype() == dtype::float32;
  const bool f64 = in.dtype() == dtype::float64 && out.dtype() == dtype::float64;
  if (!f32 && !f64) return false;
  if (out.size() == 0) return true;
  if (w.size() > static_cast<std::size_t>(f32 ? fast_cfg<float>::max_taps : fast_cfg<double>::max_taps)) return false;
  cudaStream_t stream = get_current_stream();
  device_buffer<double> wbuf;  // unused: fast windows are short
  const pass_params p = weights_params(in, out, axis, w, mode, cval, origin, wbuf, stream);
  return f32 ? try_fast<weights_policy, float>(p, w, stream) : try_fast<weights_policy, double>(p, w, stream);
}

}  // namespace cusci::ndimage::detail
