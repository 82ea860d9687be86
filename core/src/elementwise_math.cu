/// @file elementwise_math.cu
/// Unary math functions: abs, sqrt, exp, log, sin, cos (NumPy's ufuncs of the same names).
///
/// The input is converted on load to the compute dtype (the output dtype, or for abs of complex the
/// complex input itself). Contiguous aligned inputs of the compute dtype use a 16-byte vector kernel;
/// everything else a strided kernel over an offset map built after merging contiguous axes.
/// Real functions are CUDA's libdevice ones (sqrt correctly rounded; exp, log, sin, cos within
/// 2 ulp for float32 and 1-2 ulp for float64, per the CUDA Math API guide); complex ones are
/// libcu++'s `cuda::std` functions, which follow C99 Annex G for special values.

#include <string>

#include <cuda/std/cmath>

#include "core_math_common.cuh"
#include "cusci/elementwise.hpp"

namespace cusci {
namespace {

using namespace detail::cm;
using detail::is_complex_v;

enum class ufn : int { abs, sqrt, exp, log, sin, cos };

template <ufn Op>
struct unary_fn {
  template <class T>
  __device__ __forceinline__ auto operator()(T x) const {
    if constexpr (Op == ufn::abs) {
      if constexpr (is_complex_v<T>) {
        if constexpr (std::is_same_v<real_of_t<T>, float>) return ::hypotf(x.real(), x.imag());
        else return ::hypot(x.real(), x.imag());
      } else if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
        return x;
      } else if constexpr (std::is_integral_v<T>) {
        // |INT_MIN| wraps to INT_MIN, as in NumPy.
        using U = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;
        return x < 0 ? static_cast<T>(U(0) - static_cast<U>(x)) : x;
      } else if constexpr (std::is_same_v<T, __half>) {
        return __habs(x);
      } else if constexpr (std::is_same_v<T, float>) {
        return ::fabsf(x);
      } else {
        return ::fabs(x);
      }
    } else if constexpr (is_complex_v<T>) {
      if constexpr (Op == ufn::sqrt) return cuda::std::sqrt(x);
      else if constexpr (Op == ufn::exp) return cuda::std::exp(x);
      else if constexpr (Op == ufn::log) return cuda::std::log(x);
      else if constexpr (Op == ufn::sin) return cuda::std::sin(x);
      else return cuda::std::cos(x);
    } else if constexpr (std::is_same_v<T, float>) {
      if constexpr (Op == ufn::sqrt) return ::sqrtf(x);
      else if constexpr (Op == ufn::exp) return ::expf(x);
      else if constexpr (Op == ufn::log) return ::logf(x);
      else if constexpr (Op == ufn::sin) return ::sinf(x);
      else return ::cosf(x);
    } else {
      if constexpr (Op == ufn::sqrt) return ::sqrt(x);
      else if constexpr (Op == ufn::exp) return ::exp(x);
      else if constexpr (Op == ufn::log) return ::log(x);
      else if constexpr (Op == ufn::sin) return ::sin(x);
      else return ::cos(x);
    }
  }
};

constexpr int unroll = 4;

template <class T, class R, class F>
__global__ void __launch_bounds__(block_threads)
    unary_contig(const T* __restrict__ a, R* __restrict__ out, i64 n, F f) {
  constexpr int V = vec_width<T>;
  const i64 nv = n / V;
  const i64 step = static_cast<i64>(gridDim.x) * blockDim.x;
  const i64 tid = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (i64 k0 = tid; k0 < nv; k0 += unroll * step) {
    T x[unroll][V];
#pragma unroll
    for (int u = 0; u < unroll; ++u)
      if (k0 + u * step < nv) load_vec(a, k0 + u * step, x[u]);
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const i64 k = k0 + u * step;
      if (k < nv) {
        R r[V];
#pragma unroll
        for (int v = 0; v < V; ++v) r[v] = f(x[u][v]);
        store_vec(out, k, r);
      }
    }
  }
  for (i64 i = nv * V + tid; i < n; i += step) out[i] = f(a[i]);
}

template <class T, class R, class F>
__global__ void __launch_bounds__(block_threads)
    unary_strided(nd_map<1> m, i64 n, const char* a, dtype dt, bool same, R* __restrict__ out, F f) {
  const i64 step = static_cast<i64>(gridDim.x) * blockDim.x;
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    i64 off[1];
    m.offsets(i, off);
    const char* p = a + off[0];
    const T x = same ? *reinterpret_cast<const T*>(p) : load_as<T>(p, dt);
    out[i] = f(x);
  }
}

template <class T, class R, class F>
void launch_unary(const ndarray& a, ndarray& out, F f) {
  const i64 n = a.size();
  if (n == 0) return;
  cudaStream_t stream = get_current_stream();
  R* o = out.data_as<R>();
  const bool same = a.dtype() == dtype_of_host<T>();
  if (same && dense_c(a) && aligned16(a.data()) && aligned16(o)) {
    const i64 nv = n / vec_width<T>;
    static const int per_sm = occupancy_blocks(unary_contig<T, R, F>);
    unary_contig<T, R, F><<<grid_blocks(nv > 0 ? nv : n, per_sm), block_threads, 0, stream>>>(a.data_as<T>(), o, n, f);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  const nd_map<1> m = make_map<1>(a.shape(), {a.strides()});
  static const int per_sm = occupancy_blocks(unary_strided<T, R, F>);
  unary_strided<T, R, F><<<grid_blocks(n, per_sm), block_threads, 0, stream>>>(
      m, n, static_cast<const char*>(a.data()), a.dtype(), same, o, f);
  CUSCI_CHECK_LAUNCH();
}

/// Output dtype of sqrt/exp/log/sin/cos (see elementwise.hpp; float16 results become float32).
dtype float_result(dtype t) {
  switch (t) {
    case dtype::bool_: case dtype::int8: case dtype::uint8: case dtype::int16: case dtype::uint16:
      return dtype::float32;
    case dtype::int32: case dtype::uint32: case dtype::int64: case dtype::uint64:
      return dtype::float64;
    default:
      return t;
  }
}

template <ufn Op>
ndarray float_unary(const ndarray& a) {
  const dtype c = float_result(a.dtype());
  ndarray out = empty(a.shape(), c);
  switch (c) {
    case dtype::float32: launch_unary<float, float>(a, out, unary_fn<Op>{}); break;
    case dtype::float64: launch_unary<double, double>(a, out, unary_fn<Op>{}); break;
    case dtype::complex64:
      launch_unary<cuda::std::complex<float>, cuda::std::complex<float>>(a, out, unary_fn<Op>{});
      break;
    default:
      launch_unary<cuda::std::complex<double>, cuda::std::complex<double>>(a, out, unary_fn<Op>{});
      break;
  }
  return out;
}

}  // namespace

ndarray abs(const ndarray& a) {
  ndarray out = empty(a.shape(), real_dtype(a.dtype()));
  detail::dispatch(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_of_t<T>;
    launch_unary<T, R>(a, out, unary_fn<ufn::abs>{});
  });
  return out;
}

ndarray sqrt(const ndarray& a) { return float_unary<ufn::sqrt>(a); }
ndarray exp(const ndarray& a) { return float_unary<ufn::exp>(a); }
ndarray log(const ndarray& a) { return float_unary<ufn::log>(a); }
ndarray sin(const ndarray& a) { return float_unary<ufn::sin>(a); }
ndarray cos(const ndarray& a) { return float_unary<ufn::cos>(a); }

}  // namespace cusci
