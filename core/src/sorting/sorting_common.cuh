#pragma once
/// @file sorting_common.cuh  (internal; nvcc only)
/// Helpers shared by the sorting family's .cu files: NumPy's total order as radix-sortable keys, the
/// NaN-aware comparison NumPy's sorted searches use, CUB calls with pool temp storage, strided
/// gathers into contiguous buffers and axis handling.
///
/// NumPy's order (npysort): NaNs after every other value; -0.0 == +0.0; complex values ordered in
/// four classes R+Rj < R+nanj < nan+Rj < nan+nanj, lexicographically (real, imaginary) inside a
/// class, the NaN parts counting as equal.

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/util_type.cuh>  // DoubleBuffer; each .cu includes the CUB algorithms it uses
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/tuple>
#include <cuda_fp16.h>

#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"

namespace cusci::detail::srt {

using i64 = std::int64_t;
using ::cusci::detail::compute_t;
using ::cusci::detail::is_complex_v;

inline constexpr int block = 256;

template <class T> struct is_half : std::false_type {};
template <> struct is_half<__half> : std::true_type {};
template <class T> inline constexpr bool is_half_v = is_half<T>::value;
template <class T> inline constexpr bool is_real_float_v = std::is_floating_point_v<T> || is_half_v<T>;

/// Value of T in its compute type (float for __half).
template <class T>
__host__ __device__ __forceinline__ compute_t<T> cval(T v) {
  if constexpr (is_half_v<T>) return __half2float(v);
  else return v;
}

template <class T>
__device__ __forceinline__ bool isnan_v(T v) {
  if constexpr (is_complex_v<T>) return v.real() != v.real() || v.imag() != v.imag();
  else if constexpr (is_real_float_v<T>) { const auto c = cval(v); return c != c; }
  else return false;
}

/// NumPy's sort order "a before b" (npysort's LT): NaN last; complex by class then lexicographic.
template <class T>
__device__ __forceinline__ bool np_less(T a, T b) {
  if constexpr (is_complex_v<T>) {
    const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
  } else if constexpr (is_real_float_v<T>) {
    const auto x = cval(a), y = cval(b);
    return x < y || (y != y && x == x);
  } else if constexpr (std::is_same_v<T, bool>) {
    return !a && b;
  } else {
    return a < b;
  }
}

/// Equality for unique with equal_nan: every value holding a NaN equals every other such value.
template <class T>
__device__ __forceinline__ bool np_equal(T a, T b, bool equal_nan) {
  if (equal_nan && isnan_v(a) && isnan_v(b)) return true;
  if constexpr (is_real_float_v<T>) return cval(a) == cval(b);
  else return a == b;
}

// --- radix keys -----------------------------------------------------------------------------

/// Ordered unsigned bits of a real float: -0.0 maps to +0.0, every NaN to the largest code.
template <class U, class F>
__device__ __forceinline__ U ordered_bits(F x) {
  if (x != x) return ~U(0);
  if (x == F(0)) x = F(0);
  U u;
  memcpy(&u, &x, sizeof(U));
  constexpr U sign = U(1) << (8 * sizeof(U) - 1);
  return (u & sign) ? U(~u) : U(u | sign);
}

/// Radix key of a complex value: class (NaN parts), then real, then imaginary ordered bits.
template <class U>
struct complex_key {
  U im;
  U re;
  std::uint8_t cls;
};
template <class U>
struct complex_decomposer {
  __host__ __device__ ::cuda::std::tuple<std::uint8_t&, U&, U&> operator()(complex_key<U>& k) const {
    return {k.cls, k.re, k.im};
  }
};

template <class K> struct is_complex_key : std::false_type {};
template <class U> struct is_complex_key<complex_key<U>> : std::true_type {};

/// Key type CUB sorts for storage type T, and the map from T to it. Real floats keep their own type
/// (CUB orders them as NumPy, -0.0 == +0.0) with NaNs made the canonical positive NaN so they all
/// sort last and tie; bool sorts as its byte.
template <class T> struct key_traits {
  using key = T;
  static constexpr bool custom = false;
  __device__ __forceinline__ static key make(T v) {
    if constexpr (is_half_v<T>) {
      return __hisnan(v) ? __ushort_as_half(0x7e00) : v;
    } else if constexpr (std::is_floating_point_v<T>) {
      return v != v ? ::cuda::std::numeric_limits<T>::quiet_NaN() : v;
    } else {
      return v;
    }
  }
};
template <> struct key_traits<bool> {
  using key = std::uint8_t;
  static constexpr bool custom = false;
  __device__ __forceinline__ static key make(bool v) { return v ? 1 : 0; }
};
template <class R> struct key_traits<::cuda::std::complex<R>> {
  using U = std::conditional_t<sizeof(R) == 4, std::uint32_t, std::uint64_t>;
  using key = complex_key<U>;
  static constexpr bool custom = true;
  __device__ __forceinline__ static key make(::cuda::std::complex<R> v) {
    const R r = v.real(), i = v.imag();
    key k;
    k.cls = static_cast<std::uint8_t>(((r != r) ? 2 : 0) | ((i != i) ? 1 : 0));
    k.re = ordered_bits<U>(r);
    k.im = ordered_bits<U>(i);
    return k;
  }
};

// --- CUB with pool temp storage ---------------------------------------------------------------

/// Runs a CUB device algorithm twice (size query, then the work) with temp storage from the pool on
/// the current stream. `f(void* temp, size_t& bytes)` returns a cudaError_t.
template <class F>
void cub_run(F&& f) {
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(f(nullptr, bytes));
  memory_ptr tmp = cusci::malloc(bytes < 16 ? 16 : bytes);
  CUSCI_CUDA_TRY(f(tmp->ptr(), bytes));
}

inline unsigned grid(i64 n, i64 max_blocks = 132LL * 16) { return grid_for(n, block, max_blocks); }

// --- strided access ---------------------------------------------------------------------------

/// Indexer over `a` in C order of its shape (axes merged where contiguous).
inline strided_indexer indexer_of(const ndarray& a) {
  shape_t shape = a.shape(), strides = a.strides();
  coalesce(shape, {&strides});
  return make_indexer(shape, strides);
}

using cusci::detail::normalize_axis;
using cusci::detail::shape_str;

/// Calls `f(type_tag<T>{})` with T the device type of `t` (every dtype of the list).
template <class F>
decltype(auto) dispatch_all(dtype t, F&& f) {
  return dispatch(t, std::forward<F>(f));
}

}  // namespace cusci::detail::srt
