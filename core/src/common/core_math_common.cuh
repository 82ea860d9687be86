#pragma once
/// @file core_math_common.cuh  (private to core/src; nvcc only)
/// Helpers shared by the elementwise, math and reduction kernels of core: element conversion with
/// NumPy's casting rules, loads and stores of a runtime dtype, a multi-operand strided offset map built
/// after `coalesce`, 16-byte vector access, and launch sizing from the device's SM count.

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda/std/complex>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/shape.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"
#include "cusci/stream.hpp"

namespace cusci::detail::cm {

using i64 = std::int64_t;
using i128 = __int128;

template <class T> inline constexpr bool is_int128_v = std::is_same_v<T, i128>;

// ---------------------------------------------------------------------------------------------
// Conversions (NumPy's unsafe casting for the cases the engine needs).
// ---------------------------------------------------------------------------------------------

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<cuda::std::complex<T>> { using type = T; };
template <class T> using real_of_t = typename real_of<T>::type;

template <class To, class From>
__host__ __device__ __forceinline__ To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, __half>) {
    return convert<To>(__half2float(v));
  } else if constexpr (std::is_same_v<To, __half>) {
    if constexpr (is_complex_v<From>) return to_half(v.real());
    else if constexpr (is_int128_v<From>) return to_half(static_cast<double>(v));
    else return to_half(v);
  } else if constexpr (is_complex_v<To>) {
    using R = typename To::value_type;
    if constexpr (is_complex_v<From>) return To(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    else if constexpr (is_int128_v<From>) return To(static_cast<R>(static_cast<double>(v)), R(0));
    else return To(static_cast<R>(v), R(0));
  } else if constexpr (is_complex_v<From>) {
    return convert<To>(v.real());
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (is_int128_v<To>) {
    if constexpr (std::is_integral_v<From>) return static_cast<i128>(v);
    else return i128(0);  // never requested: the 128-bit path only ever loads integers
  } else {
    return static_cast<To>(v);
  }
}

/// The dtype of a device element type (cuda::std::complex maps back to complex64/complex128).
template <class T>
constexpr dtype dtype_of_host() {
  if constexpr (std::is_same_v<T, cuda::std::complex<float>>) return dtype::complex64;
  else if constexpr (std::is_same_v<T, __half>) return dtype::float16;
  else if constexpr (std::is_same_v<T, cuda::std::complex<double>>) return dtype::complex128;
  else return dtype_of<T>;
}

/// Loads the element at `p` of dtype `d` converted to T.
template <class T>
__device__ __forceinline__ T load_as(const char* p, dtype d) {
  switch (d) {
#define CUSCI_CM_LOAD_(name, type) \
  case dtype::name: return convert<T>(*reinterpret_cast<const device_type_t<type>*>(p));
    CUSCI_FOR_EACH_DTYPE(CUSCI_CM_LOAD_)
#undef CUSCI_CM_LOAD_
  }
  return T{};
}

/// Stores `v` converted to dtype `d` at `p`.
template <class T>
__device__ __forceinline__ void store_as(char* p, dtype d, T v) {
  switch (d) {
#define CUSCI_CM_STORE_(name, type)                                                            \
  case dtype::name:                                                                           \
    *reinterpret_cast<device_type_t<type>*>(p) = convert<device_type_t<type>>(v);             \
    return;
    CUSCI_FOR_EACH_DTYPE(CUSCI_CM_STORE_)
#undef CUSCI_CM_STORE_
  }
}

template <class T>
__device__ __forceinline__ bool nonzero_value(T v) {
  if constexpr (is_complex_v<T>) return v.real() != 0 || v.imag() != 0;
  else if constexpr (std::is_same_v<T, __half>) return __half2float(v) != 0.0f;
  else return v != T(0);
}

/// True when the element at `p` of dtype `d` is non-zero (NaN counts as non-zero, as in NumPy).
__device__ __forceinline__ bool is_nonzero(const char* p, dtype d) {
  switch (d) {
#define CUSCI_CM_NZ_(name, type) \
  case dtype::name: return nonzero_value(*reinterpret_cast<const device_type_t<type>*>(p));
    CUSCI_FOR_EACH_DTYPE(CUSCI_CM_NZ_)
#undef CUSCI_CM_NZ_
  }
  return false;
}

/// The value of a host scalar converted to the device type T.
template <class T>
T scalar_as(const scalar& s) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    const auto c = s.value<std::complex<R>>();
    return T(c.real(), c.imag());
  } else if constexpr (std::is_same_v<T, __half>) {
    __half_raw r;
    r.x = s.value<float16>().bits;
    return __half(r);
  } else if constexpr (is_int128_v<T>) {
    return s.dtype() == dtype::uint64 ? static_cast<i128>(s.value<std::uint64_t>())
                                      : static_cast<i128>(s.value<std::int64_t>());
  } else {
    return s.value<T>();
  }
}

// ---------------------------------------------------------------------------------------------
// Strided addressing of K operands over one C-order index space.
// ---------------------------------------------------------------------------------------------

/// i / n, using 32-bit division when both fit (64-bit division is a long instruction sequence).
__device__ __forceinline__ i64 fast_div(i64 i, i64 n) {
  if (((static_cast<std::uint64_t>(i) | static_cast<std::uint64_t>(n)) >> 32) == 0)
    return static_cast<i64>(static_cast<std::uint32_t>(i) / static_cast<std::uint32_t>(n));
  return i / n;
}

template <int K>
struct nd_map {
  int ndim = 0;
  i64 shape[max_kernel_dims];
  i64 stride[K][max_kernel_dims];  // bytes

  /// Byte offsets of the element with C-order linear index `i` in each of the K operands.
  __device__ __forceinline__ void offsets(i64 i, i64 (&off)[K]) const {
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] = 0;
    if (ndim == 0) return;
    for (int d = ndim - 1; d >= 1; --d) {
      const i64 n = shape[d];
      const i64 q = fast_div(i, n);
      const i64 r = i - q * n;
#pragma unroll
      for (int k = 0; k < K; ++k) off[k] += r * stride[k][d];
      i = q;
    }
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] += i * stride[k][0];
  }
};

/// Builds the map for `shape` and K stride lists (bytes) after merging contiguous axes.
template <int K>
nd_map<K> make_map(shape_t shape, std::vector<shape_t> strides) {
  std::vector<shape_t*> ptrs;
  for (auto& s : strides) ptrs.push_back(&s);
  coalesce(shape, ptrs);
  CUSCI_EXPECTS(shape.size() <= static_cast<std::size_t>(max_kernel_dims), value_error,
                "cusci: arrays of more than 16 non-mergeable dimensions are not supported by kernels");
  nd_map<K> m;
  m.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < m.ndim; ++d) {
    m.shape[d] = shape[d];
    for (int k = 0; k < K; ++k) m.stride[k][d] = strides[k][d];
  }
  return m;
}

/// Byte strides of `a` broadcast to `shape` (right-aligned; 0 where `a` has length 1 or no axis).
inline shape_t broadcast_strides(const ndarray& a, const shape_t& shape) {
  const std::size_t n = shape.size(), k = a.shape().size();
  shape_t st(n, 0);
  for (std::size_t d = 0; d < k; ++d) {
    const std::size_t od = n - k + d;
    st[od] = a.shape()[d] == 1 ? 0 : a.strides()[d];
  }
  return st;
}

/// True when `a` is C-contiguous by its strides (axes of length 1 ignored).
inline bool dense_c(const ndarray& a) {
  i64 expect = static_cast<i64>(a.itemsize());
  for (int d = a.ndim() - 1; d >= 0; --d) {
    const i64 n = a.shape()[d];
    if (n == 1) continue;
    if (a.strides()[d] != expect) return false;
    expect *= n;
  }
  return true;
}

inline bool aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

/// True when `a` is dense in some order of its axes: positive strides that, sorted, are the
/// contiguous strides of that permutation (C, F, any transposed contiguous array; axes of length 1
/// ignored). The element at data() is then the lowest address and memory order covers size()
/// consecutive elements.
inline bool dense_any(const ndarray& a) {
  constexpr int max_nd = 64;
  const int nd = a.ndim();
  if (nd > max_nd) return false;
  i64 st[max_nd], sh[max_nd];
  int m = 0;
  for (int d = 0; d < nd; ++d) {
    if (a.shape()[d] == 1) continue;
    if (a.shape()[d] == 0) return true;
    if (a.strides()[d] <= 0) return false;
    int j = m++;
    while (j > 0 && st[j - 1] > a.strides()[d]) {
      st[j] = st[j - 1];
      sh[j] = sh[j - 1];
      --j;
    }
    st[j] = a.strides()[d];
    sh[j] = a.shape()[d];
  }
  i64 expect = static_cast<i64>(a.itemsize());
  for (int j = 0; j < m; ++j) {
    if (st[j] != expect) return false;
    expect *= sh[j];
  }
  return true;
}

/// True when `x` has `res`'s shape and the same element strides (bytes / itemsize) on every axis
/// of length > 1: with `res` dense (dense_any), both then hold their elements in the same memory
/// order and one linear loop over memory pairs them up.
inline bool same_elem_layout(const ndarray& x, const ndarray& res) {
  if (x.shape() != res.shape()) return false;
  const i64 xi = static_cast<i64>(x.itemsize()), ri = static_cast<i64>(res.itemsize());
  for (int d = 0; d < res.ndim(); ++d) {
    if (res.shape()[d] == 1) continue;
    const i64 rs = res.strides()[d];
    if (rs % ri != 0 || x.strides()[d] != rs / ri * xi) return false;
  }
  return true;
}

/// NumPy's `order='K'` result layout for the array operands `arrs[0..n)` (null entries and scalars
/// ignored) broadcast to `shape`: the axis order of NumPy's iterator
/// (npyiter_find_best_axis_ordering): an insertion sort of the axes, innermost first, where an axis
/// moves inward past another only when every operand with non-zero strides on both says it has the
/// smaller |stride|, operands with a zero stride on either axis (broadcast, length 1) abstain, and a
/// pair on which all abstain is passed over. Writes the axes outermost first into `mem` and returns
/// false when that is plain C order (or the rank is beyond the stack buffers).
inline bool k_order(const shape_t& shape, const ndarray* const* arrs, int n, int* mem, int max_nd) {
  const int nd = static_cast<int>(shape.size());
  if (nd < 2 || nd > max_nd) return false;
  constexpr int max_ops = 4;
  auto stride_of = [&](int k, int d) -> i64 {
    const ndarray* a = arrs[k];
    if (!a) return 0;
    const int ad = d - (nd - a->ndim());
    if (ad < 0 || a->shape()[ad] == 1) return 0;
    const i64 s = a->strides()[ad];
    return s < 0 ? -s : s;
  };
  if (n > max_ops) return false;
  int it[64];  // iterator axes, innermost first
  for (int p = 0; p < nd; ++p) it[p] = nd - 1 - p;
  for (int i0 = 1; i0 < nd; ++i0) {
    const int a0 = it[i0];
    int pos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int a1 = it[i1];
      bool ambig = true, swap = false;
      for (int k = 0; k < n; ++k) {
        const i64 s0 = stride_of(k, a0), s1 = stride_of(k, a1);
        if (s0 != 0 && s1 != 0) {
          if (s1 <= s0) swap = false;
          else if (ambig) swap = true;
          ambig = false;
        }
      }
      if (!ambig) {
        if (swap) pos = i1;
        else break;
      }
    }
    if (pos != i0) {
      for (int p = i0; p > pos; --p) it[p] = it[p - 1];
      it[pos] = a0;
    }
  }
  bool identity = true;
  for (int i = 0; i < nd; ++i) {
    mem[i] = it[nd - 1 - i];
    identity = identity && mem[i] == i;
  }
  return !identity;
}

/// A new array of `shape` and dtype `dt` in NumPy's `order='K'` layout for the operands (see
/// k_order): C order unless the operands agree on another axis order, then contiguous in that
/// order (e.g. F-contiguous for F-contiguous operands). Asynchronous.
inline ndarray empty_k(const shape_t& shape, cusci::dtype dt, const ndarray* const* arrs, int n) {
  constexpr int max_nd = 64;
  int mem[max_nd];
  if (!k_order(shape, arrs, n, mem, max_nd)) return empty(shape, dt);
  const int nd = static_cast<int>(shape.size());
  shape_t pshape(shape.size());
  std::vector<int> inv(shape.size());
  for (int i = 0; i < nd; ++i) {
    pshape[i] = shape[mem[i]];
    inv[mem[i]] = i;
  }
  return empty(pshape, dt).transpose(inv);
}

// ---------------------------------------------------------------------------------------------
// 16-byte vector access.
// ---------------------------------------------------------------------------------------------

template <int Bytes> struct raw;
template <> struct raw<1> { using type = std::uint8_t; };
template <> struct raw<2> { using type = std::uint16_t; };
template <> struct raw<4> { using type = std::uint32_t; };
template <> struct raw<8> { using type = uint2; };
template <> struct raw<16> { using type = uint4; };

/// Elements of T in one 16-byte vector.
template <class T> inline constexpr int vec_width = sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));

template <class T, int V>
__device__ __forceinline__ void load_vec(const T* base, i64 k, T (&v)[V]) {
  using R = typename raw<sizeof(T) * V>::type;
  const R r = reinterpret_cast<const R*>(base)[k];
  std::memcpy(&v[0], &r, sizeof(R));
}

template <class T, int V>
__device__ __forceinline__ void store_vec(T* base, i64 k, const T (&v)[V]) {
  using R = typename raw<sizeof(T) * V>::type;
  R r;
  std::memcpy(&r, &v[0], sizeof(R));
  reinterpret_cast<R*>(base)[k] = r;
}

// ---------------------------------------------------------------------------------------------
// Launch sizing.
// ---------------------------------------------------------------------------------------------

/// Number of SMs of the current device (cached per device).
int sm_count();

inline constexpr int block_threads = 256;

/// Blocks for a grid-stride loop over `items` work items, one per thread: at most `per_sm` resident
/// blocks per SM (8 x 256 threads fill an H100/H200 SM).
inline unsigned grid_blocks(i64 items, int per_sm = 8) {
  i64 g = (items + block_threads - 1) / block_threads;
  if (g <= per_sm) return static_cast<unsigned>(g < 1 ? 1 : g);  // within any cap: no device query
  const i64 cap = static_cast<i64>(sm_count()) * per_sm;
  if (g > cap) g = cap;
  if (g < 1) g = 1;
  return static_cast<unsigned>(g);
}

/// Resident blocks of `block_threads` threads per SM for `kernel` (register and shared memory
/// limits included); grids are sized to one wave of these so that no partial second wave is left.
template <class Kernel>
int occupancy_blocks(Kernel kernel) {
  int n = 0;
  CUSCI_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, block_threads, 0));
  return n < 1 ? 1 : n;
}

// ---------------------------------------------------------------------------------------------
// Launch through the driver.
// ---------------------------------------------------------------------------------------------

/// The driver's cuLaunchKernel as the runtime resolves it for this library's default-stream
/// semantics (cudaGetDriverEntryPointByVersion; libcuda is not linked, so a machine without a driver
/// still loads the library), or null when it is unavailable or switched off by set_driver_launch.
using cu_launch_fn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  CUstream, void**, void**);
cu_launch_fn driver_launch();

/// Internal switch for benchmarks: false makes fast_launch use the runtime's launch (default true).
void set_driver_launch(bool enabled);

/// The parameter types of a __global__ function, decayed, as a tuple.
template <class K> struct kernel_params;
template <class... P> struct kernel_params<void (*)(P...)> {
  using tuple = std::tuple<std::decay_t<P>...>;
  static constexpr std::size_t count = sizeof...(P);
};

/// Kernel<<<grid, block_threads, 0, stream>>>(args...), issued through cuLaunchKernel with the
/// kernel's context-independent handle (cudaGetKernel: a CUkernel, which the driver launches in the
/// current context, as the runtime does), fetched once per kernel. The runtime's launch looks the
/// device function up from the host stub on every call; skipping that saved 0.2-0.4 us of host time
/// per 1-element x+1 on the H200 machines (E4 against E4-rt in bench_elementwise). The runtime's
/// launch is used when the entry point or the handle is unavailable, or the driver refuses the
/// launch: the runtime then repeats it and reports any error as every other launch does.
template <auto Kernel, class... A>
void fast_launch(dim3 grid, cudaStream_t stream, A&&... args) {
  using params = kernel_params<decltype(Kernel)>;
  static_assert(params::count == sizeof...(A), "fast_launch: one argument per kernel parameter");
  static const CUfunction handle = [] {
    cudaKernel_t k = nullptr;
    if (cudaGetKernel(&k, reinterpret_cast<const void*>(Kernel)) != cudaSuccess) {
      cudaGetLastError();
      return static_cast<CUfunction>(nullptr);
    }
    return reinterpret_cast<CUfunction>(k);
  }();
  typename params::tuple values{std::forward<A>(args)...};
  const cu_launch_fn launch = driver_launch();
  if (launch != nullptr && handle != nullptr) {
    void* argv[params::count > 0 ? params::count : 1];
    std::apply([&](auto&... v) {
      int k = 0;
      ((argv[k++] = static_cast<void*>(&v)), ...);
    }, values);
    if (launch(handle, grid.x, grid.y, grid.z, block_threads, 1, 1, 0, reinterpret_cast<CUstream>(stream), argv,
               nullptr) == CUDA_SUCCESS)
      return;
  }
  std::apply([&](auto&... v) { Kernel<<<grid, block_threads, 0, stream>>>(v...); }, values);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::detail::cm
