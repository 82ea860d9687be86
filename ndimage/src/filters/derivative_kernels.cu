// The elementwise steps of the derivative filters (derivative_kernels.hpp): one grid-stride kernel
// per output dtype doing, per element, SciPy's `np.multiply(output, output, output)`,
// `output += tmp` (after `np.multiply(tmp, tmp, tmp)`) and `np.sqrt(output, output,
// casting='unsafe')` as selected by the flags, with NumPy's loop arithmetic:
// - integers wrap (computed in the unsigned type of at least 32 bits, then truncated);
// - bool: multiply is logical and, add logical or (bytes other than 0 and 1 count as true);
// - float16: each operation in float32, rounded once to float16 (NumPy's half loops);
// - float32 / float64: IEEE operations with no fused multiply-add (the intrinsics keep nvcc from
//   contracting o * o + t * t), so the values are NumPy's bit for bit;
// - complex: NumPy's (ar br - ai bi, ar bi + ai br) product without fused multiply-add and the
//   principal square root;
// - sqrt of an integer output: NumPy's loop type (float16 for bool / int8 / uint8, float32 for int16
//   / uint16, float64 above), then the unsafe cast back as x86-64 does it (truncation; NaN from a
//   wrapped-around negative sum gives 0 for 8- and 16-bit types and the minimum for int32 / int64).
// Memory-bound: one read of `out`, one of `tmp` and one write per element; contiguous operands of
// one layout take a kernel without index arithmetic.

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include <cuda/std/complex>
#include <cuda_fp16.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "filters/derivative_kernels.hpp"

namespace cusci::ndimage::detail {
namespace {

using cusci::detail::is_complex_v;
using cusci::detail::strided_indexer;

template <class T>
__device__ __forceinline__ T load(const char* p) {
  if constexpr (std::is_same_v<T, bool>) return *reinterpret_cast<const std::uint8_t*>(p) != 0;
  else return *reinterpret_cast<const T*>(p);
}

template <class T>
__device__ __forceinline__ void store(char* p, T v) {
  if constexpr (std::is_same_v<T, bool>) *reinterpret_cast<std::uint8_t*>(p) = v ? 1 : 0;
  else *reinterpret_cast<T*>(p) = v;
}

template <class R>
__device__ __forceinline__ R mul_rn(R a, R b) {
  if constexpr (std::is_same_v<R, float>) return __fmul_rn(a, b);
  else return __dmul_rn(a, b);
}
template <class R>
__device__ __forceinline__ R add_rn(R a, R b) {
  if constexpr (std::is_same_v<R, float>) return __fadd_rn(a, b);
  else return __dadd_rn(a, b);
}
template <class R>
__device__ __forceinline__ R sub_rn(R a, R b) {
  if constexpr (std::is_same_v<R, float>) return __fsub_rn(a, b);
  else return __dsub_rn(a, b);
}

/// Integers wrap: the operation in an unsigned type of at least 32 bits, truncated to T.
template <class T>
using wide_unsigned = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;

template <class T>
__device__ __forceinline__ T mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    using W = wide_unsigned<T>;
    return static_cast<T>(static_cast<W>(static_cast<W>(a) * static_cast<W>(b)));
  } else if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(__fmul_rn(__half2float(a), __half2float(b)));
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    return T(sub_rn(mul_rn(ar, br), mul_rn(ai, bi)), add_rn(mul_rn(ar, bi), mul_rn(ai, br)));
  } else {
    return mul_rn(a, b);
  }
}

template <class T>
__device__ __forceinline__ T add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using W = wide_unsigned<T>;
    return static_cast<T>(static_cast<W>(static_cast<W>(a) + static_cast<W>(b)));
  } else if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(__fadd_rn(__half2float(a), __half2float(b)));
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    return T(add_rn(a.real(), b.real()), add_rn(a.imag(), b.imag()));
  } else {
    return add_rn(a, b);
  }
}

/// np.sqrt(o, o, casting='unsafe') for one element of dtype T.
template <class T>
__device__ __forceinline__ T sqrt_cast(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v;  // float16 sqrt of 0 / 1, cast back to bool
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
    // float16 loop: half(sqrtf(half(v))), then half -> int through float (NaN -> 0).
    const float h = __half2float(__float2half_rn(__fsqrt_rn(static_cast<float>(v))));
    if (h != h) return T(0);
    return static_cast<T>(static_cast<int>(h));
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 2) {
    const float f = __fsqrt_rn(static_cast<float>(v));
    if (f != f) return T(0);
    return static_cast<T>(static_cast<int>(f));
  } else if constexpr (std::is_integral_v<T>) {
    double x;
    if constexpr (std::is_same_v<T, std::int64_t>) x = __ll2double_rn(static_cast<long long>(v));
    else if constexpr (std::is_same_v<T, std::uint64_t>) x = __ull2double_rn(static_cast<unsigned long long>(v));
    else x = static_cast<double>(v);
    const double d = __dsqrt_rn(x);
    if (d != d) {
      // x86-64's cvttsd2si gives the "integer indefinite" value, the type's minimum.
      if constexpr (std::is_same_v<T, std::int32_t>) return INT32_MIN;
      else if constexpr (std::is_same_v<T, std::int64_t>) return INT64_MIN;
      else return T(0);
    }
    return static_cast<T>(static_cast<long long>(d));  // d <= 2^32: fits every target
  } else if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(__fsqrt_rn(__half2float(v)));
  } else if constexpr (is_complex_v<T>) {
    return cuda::std::sqrt(v);
  } else if constexpr (std::is_same_v<T, float>) {
    return __fsqrt_rn(v);
  } else {
    return __dsqrt_rn(v);
  }
}

template <class T>
__device__ __forceinline__ T step(T o, const char* tp, unsigned flags) {
  if (flags & square_out) o = mul(o, o);
  if (flags & add_tmp) {
    T t = load<T>(tp);
    if (flags & square_tmp) t = mul(t, t);
    o = add(o, t);
  }
  if (flags & sqrt_out) o = sqrt_cast(o);
  return o;
}

constexpr int step_threads = 256;

/// Both operands contiguous in the same order: element i at byte i * sizeof(T).
template <class T>
__global__ void __launch_bounds__(step_threads)
    step_contiguous(char* out, const char* tmp, std::int64_t n, unsigned flags) {
  constexpr std::int64_t sz = sizeof(T);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    char* op = out + i * sz;
    store<T>(op, step<T>(load<T>(op), tmp + i * sz, flags));
  }
}

template <class T>
__global__ void __launch_bounds__(step_threads)
    step_strided(char* out, const char* tmp, strided_indexer oi, strided_indexer ti, std::int64_t n, unsigned flags) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    char* op = out + oi.offset(i);
    store<T>(op, step<T>(load<T>(op), tmp + ti.offset(i), flags));
  }
}

}  // namespace

void derivative_step(const ndarray& out, const ndarray* tmp, unsigned flags) {
  const std::int64_t n = out.size();
  if (n == 0 || flags == 0) return;
  if (!(flags & add_tmp)) tmp = nullptr;
  shape_t shape = out.shape();
  shape_t os = out.strides();
  shape_t ts = tmp ? tmp->strides() : out.strides();
  cusci::detail::coalesce(shape, {&os, &ts});
  const auto isz = static_cast<std::int64_t>(out.itemsize());
  const bool contiguous = shape.empty() || (shape.size() == 1 && os[0] == isz && ts[0] == isz);
  char* op = static_cast<char*>(out.data());
  const char* tp = tmp ? static_cast<const char*>(tmp->data()) : op;
  cudaStream_t stream = get_current_stream();
  const unsigned grid = cusci::detail::grid_for(n, step_threads);
  cusci::detail::dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (contiguous) {
      step_contiguous<T><<<grid, step_threads, 0, stream>>>(op, tp, n, flags);
    } else {
      const strided_indexer oi = cusci::detail::make_indexer(shape, os);
      const strided_indexer ti = cusci::detail::make_indexer(shape, ts);
      step_strided<T><<<grid, step_threads, 0, stream>>>(op, tp, oi, ti, n, flags);
    }
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::ndimage::detail
