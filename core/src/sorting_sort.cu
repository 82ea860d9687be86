/// @file sorting_sort.cu
/// sort, argsort, partition and argpartition.
///
/// The sorted axis is moved last (a view), the elements are gathered in C order of that view into a
/// contiguous key buffer (any input layout), then sorted as rows:
///  - one row: cub::DeviceRadixSort over a DoubleBuffer (the gather buffer and one spare, no third
///    copy); the result is returned in whichever buffer holds it;
///  - several rows: cub::DeviceSegmentedSort (stable) with row offsets i * len.
/// sort keys (real dtypes): the values themselves (CUB orders floats as NumPy, -0.0 == +0.0, stable),
/// NaNs canonicalized on gather so that they all sort last; signed integers and bool sort as
/// themselves. argsort keys: integers and floats mapped to ordered unsigned bits (one instantiation
/// per key width), complex values to (class, real bits, imaginary bits) composite keys sorted with a
/// CUB decomposer; indices are int32 while a row is shorter than 2^31 and widened to int64 at the
/// end. Complex argsort over several rows sorts globally, then stably by row number (LSD).

#include <algorithm>
#include <cctype>
#include <string>

#include "sorting_common.cuh"
#include "cusci/sorting.hpp"

namespace cusci {
namespace {

using namespace detail::srt;
using detail::dispatch;
using detail::strided_indexer;

// --- kernels ---------------------------------------------------------------------------------

/// out[i] = key of the element with C index i of the (strided) input.
template <class T, class K, class Make>
__global__ void gather_keys(const char* base, strided_indexer ix, K* out, i64 n, Make make) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x)
    out[i] = make(*reinterpret_cast<const T*>(base + ix.offset(i)));
}

/// idx[i] = i mod len (position inside its row).
template <class I>
__global__ void iota_mod(I* idx, i64 n, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x)
    idx[i] = static_cast<I>(i % len);
}

__global__ void row_offsets(i64* off, i64 rows, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i <= rows; i += static_cast<i64>(gridDim.x) * blockDim.x)
    off[i] = i * len;
}

template <class I>
__global__ void widen(const I* in, std::int64_t* out, i64 n, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x)
    out[i] = len > 0 ? static_cast<std::int64_t>(in[i]) % len : 0;
}

/// Row number of a global index, as the key of the second (stable) pass of a complex argsort.
template <class I, class S>
__global__ void row_of(const I* g, S* seg, i64 n, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x)
    seg[i] = static_cast<S>(static_cast<i64>(g[i]) / len);
}

/// out[i] = element (row of i) * len + idx[i] of the strided input.
template <class T>
__global__ void gather_rows(const char* base, strided_indexer ix, const std::int64_t* idx, T* out, i64 n, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 row = i / len;
    out[i] = *reinterpret_cast<const T*>(base + ix.offset(row * len + idx[i]));
  }
}

template <class T> struct value_key {
  __device__ __forceinline__ typename key_traits<T>::key operator()(T v) const { return key_traits<T>::make(v); }
};
/// Ordered unsigned bits for argsort keys of real types.
template <class T> struct ordered_key {
  using U = std::conditional_t<sizeof(T) == 1, std::uint8_t,
            std::conditional_t<sizeof(T) == 2, std::uint16_t,
            std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  __device__ __forceinline__ U operator()(T v) const {
    if constexpr (std::is_same_v<T, bool>) return v ? 1 : 0;
    else if constexpr (is_half_v<T>) {
      const float f = __half2float(v);
      if (f != f) return U(0xFFFF);
      const __half h = (f == 0.0f) ? __float2half(0.0f) : v;
      const U u = __half_as_ushort(h);
      return (u & 0x8000u) ? U(~u) : U(u | 0x8000u);
    } else if constexpr (std::is_floating_point_v<T>) {
      return ordered_bits<U>(v);
    } else if constexpr (std::is_signed_v<T>) {
      return static_cast<U>(static_cast<U>(v) ^ (U(1) << (8 * sizeof(U) - 1)));
    } else {
      return static_cast<U>(v);
    }
  }
};

// --- row layout --------------------------------------------------------------------------------

struct rows_view {
  ndarray view;          // elements in C order of `view` are the rows, back to back
  shape_t out_shape;     // shape of the sorted buffer (view's shape)
  std::vector<int> inverse;  // transpose back (empty for axis=None)
  i64 rows = 0, len = 0, n = 0;
};

rows_view make_rows(const ndarray& a, std::optional<int> axis, const char* fn) {
  rows_view r;
  if (!axis) {
    r.view = a;
    r.n = a.size();
    r.out_shape = {r.n};
    r.len = r.n;
    r.rows = r.n > 0 ? 1 : 0;
    return r;
  }
  const int ax = normalize_axis(*axis, a.ndim(), fn);
  r.view = move_axis_last(a, ax, r.inverse);
  r.out_shape = r.view.shape();
  r.n = a.size();
  r.len = a.shape()[ax];
  r.rows = r.len > 0 ? r.n / r.len : 0;
  return r;
}

ndarray finish(const rows_view& r, const ndarray& sorted) {
  if (r.inverse.empty()) return sorted;
  // NumPy returns a C-contiguous array for every axis: copy the moved-back view into C order.
  ndarray back = sorted.transpose(r.inverse);
  return back.is_c_contiguous() ? back : back.copy(order::C);
}

/// A device array over `mem` (C-contiguous, `shape`).
ndarray wrap(const memory_ptr& mem, dtype dt, const shape_t& shape, int device) {
  shape_t strides(shape.size());
  std::int64_t s = static_cast<std::int64_t>(itemsize(dt));
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    strides[d] = s;
    s *= std::max<std::int64_t>(shape[d], 1);
  }
  return ndarray(mem, dt, shape, strides, 0, device);
}

ndarray offsets_for(i64 rows, i64 len, cudaStream_t st) {
  ndarray off = empty({rows + 1}, dtype::int64);
  row_offsets<<<grid(rows + 1), block, 0, st>>>(off.data_as<i64>(), rows, len);
  CUSCI_CHECK_LAUNCH();
  return off;
}

// --- keys-only sort of real dtypes ---------------------------------------------------------------

template <class T>
ndarray sort_real(const rows_view& r, dtype dt) {
  using K = typename key_traits<T>::key;
  static_assert(sizeof(K) == sizeof(T));
  cudaStream_t st = get_current_stream();
  ndarray out = empty(r.out_shape, dt);
  const i64 n = r.n;
  gather_keys<T, K><<<grid(n), block, 0, st>>>(static_cast<const char*>(r.view.data()), indexer_of(r.view),
                                                out.data_as<K>(), n, value_key<T>{});
  CUSCI_CHECK_LAUNCH();
  if (r.len <= 1) return out;
  device_buffer<K> alt(static_cast<std::size_t>(n));
  cub::DoubleBuffer<K> keys(out.data_as<K>(), alt.data());
  if (r.rows == 1) {
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceRadixSort::SortKeys(t, b, keys, n, 0, static_cast<int>(8 * sizeof(K)), st);
    });
  } else {
    ndarray off = offsets_for(r.rows, r.len, st);
    const i64* o = off.data_as<i64>();
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceSegmentedSort::StableSortKeys(t, b, keys, n, r.rows, o, o + 1, st);
    });
  }
  if (keys.Current() == out.data_as<K>()) return out;
  return wrap(alt.block(), dt, r.out_shape, out.device());
}

// --- argsort ------------------------------------------------------------------------------------

/// Sorts (keys, idx) pairs row by row; the indices end in `idx` (swapped with the spare if needed).
template <class K, class I>
void sort_pairs_rows(device_buffer<K>& k0, device_buffer<I>& v0, i64 n, i64 rows, i64 len, cudaStream_t st) {
  device_buffer<K> k1(static_cast<std::size_t>(n));
  device_buffer<I> v1(static_cast<std::size_t>(n));
  cub::DoubleBuffer<K> keys(k0.data(), k1.data());
  cub::DoubleBuffer<I> vals(v0.data(), v1.data());
  if constexpr (is_complex_key<K>::value) {
    using U = decltype(K{}.re);
    // composite keys: class, real, imaginary (decomposer); several rows -> then stably by row
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, keys, vals, n, complex_decomposer<U>{}, st);
    });
    if (rows > 1) {
      device_buffer<std::uint32_t> s0(static_cast<std::size_t>(n)), s1(static_cast<std::size_t>(n));
      row_of<<<grid(n), block, 0, st>>>(vals.Current(), s0.data(), n, len);
      CUSCI_CHECK_LAUNCH();
      cub::DoubleBuffer<std::uint32_t> segs(s0.data(), s1.data());
      int bits = 1;
      while (bits < 32 && (i64(1) << bits) < rows) ++bits;
      cub_run([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, segs, vals, n, 0, bits, st);
      });
    }
  } else {
    if (rows == 1) {
      cub_run([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys, vals, n, 0, static_cast<int>(8 * sizeof(K)), st);
      });
    } else {
      ndarray off = offsets_for(rows, len, st);
      const i64* o = off.data_as<i64>();
      cub_run([&](void* t, std::size_t& b) {
        return cub::DeviceSegmentedSort::StableSortPairs(t, b, keys, vals, n, rows, o, o + 1, st);
      });
    }
  }
  if (vals.Current() != v0.data()) std::swap(v0, v1);
}

template <class T, class I>
ndarray argsort_impl(const rows_view& r) {
  cudaStream_t st = get_current_stream();
  const i64 n = r.n;
  ndarray out = empty(r.out_shape, dtype::int64);
  if (n == 0) return out;
  constexpr bool complex = is_complex_v<T>;
  using Map = std::conditional_t<complex, value_key<T>, ordered_key<T>>;
  using K = std::invoke_result_t<Map, T>;
  device_buffer<K> k0(static_cast<std::size_t>(n));
  device_buffer<I> v0(static_cast<std::size_t>(n));
  gather_keys<T, K><<<grid(n), block, 0, st>>>(static_cast<const char*>(r.view.data()), indexer_of(r.view), k0.data(),
                                                n, Map{});
  CUSCI_CHECK_LAUNCH();
  // complex over several rows sorts globally first: global indices
  const i64 idx_len = (complex && r.rows > 1) ? n : r.len;
  iota_mod<I><<<grid(n), block, 0, st>>>(v0.data(), n, idx_len);
  CUSCI_CHECK_LAUNCH();
  if (r.len > 1) sort_pairs_rows<K, I>(k0, v0, n, r.rows, r.len, st);
  widen<I><<<grid(n), block, 0, st>>>(v0.data(), out.data_as<std::int64_t>(), n, r.len);
  CUSCI_CHECK_LAUNCH();
  return out;
}

template <class T>
ndarray argsort_typed(const rows_view& r) {
  const bool wide = r.len >= (i64(1) << 31) || (is_complex_v<T> && r.rows > 1 && r.n >= (i64(1) << 31));
  return wide ? argsort_impl<T, std::int64_t>(r) : argsort_impl<T, std::int32_t>(r);
}

ndarray argsort_rows(const ndarray& a, const rows_view& r) {
  return dispatch(a.dtype(), [&](auto tag) -> ndarray {
    using T = typename decltype(tag)::type;
    return argsort_typed<T>(r);
  });
}

ndarray sort_rows(const ndarray& a, const rows_view& r) {
  return dispatch(a.dtype(), [&](auto tag) -> ndarray {
    using T = typename decltype(tag)::type;
    if (r.n == 0) return empty(r.out_shape, a.dtype());
    if constexpr (is_complex_v<T>) {
      ndarray idx = argsort_typed<T>(r);
      ndarray out = empty(r.out_shape, a.dtype());
      cudaStream_t st = get_current_stream();
      gather_rows<T><<<grid(r.n), block, 0, st>>>(static_cast<const char*>(r.view.data()), indexer_of(r.view),
                                                   idx.data_as<std::int64_t>(), out.data_as<T>(), r.n, r.len);
      CUSCI_CHECK_LAUNCH();
      return out;
    } else {
      return sort_real<T>(r, a.dtype());
    }
  });
}

void check_kth(const std::vector<std::int64_t>& kth, i64 len, const char* fn) {
  CUSCI_EXPECTS(!kth.empty(), value_error, std::string(fn) + ": kth must not be empty");
  for (std::int64_t k : kth) {
    if (k < -len || k >= len)
      throw value_error(std::string(fn) + ": kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(len) +
                        ")");
  }
}

i64 axis_len(const ndarray& a, std::optional<int> axis, const char* fn) {
  if (!axis) return a.size();
  return a.shape()[normalize_axis(*axis, a.ndim(), fn)];
}

}  // namespace

sort_kind parse_sort_kind(std::string_view s) {
  std::string l;
  for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!l.empty()) {
    if (l[0] == 'q') return sort_kind::quicksort;
    if (l[0] == 'm') return sort_kind::mergesort;
    if (l[0] == 'h') return sort_kind::heapsort;
    if (l[0] == 's') return sort_kind::stable;
  }
  throw value_error("cusci::sort: sort kind must be one of 'quick', 'heap', or 'stable' (got '" + std::string(s) + "')");
}

search_side parse_search_side(std::string_view s) {
  std::string l;
  for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!l.empty() && l[0] == 'l') return search_side::left;
  if (!l.empty() && l[0] == 'r') return search_side::right;
  throw value_error("cusci::searchsorted: side must be 'left' or 'right' (got '" + std::string(s) + "')");
}

ndarray sort(const ndarray& a, std::optional<int> axis, sort_options) {
  rows_view r = make_rows(a, axis, "cusci::sort");
  return finish(r, sort_rows(a, r));
}

ndarray argsort(const ndarray& a, std::optional<int> axis, sort_options) {
  rows_view r = make_rows(a, axis, "cusci::argsort");
  return finish(r, argsort_rows(a, r));
}

ndarray partition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis) {
  check_kth(kth, axis_len(a, axis, "cusci::partition"), "cusci::partition");
  return sort(a, axis);
}
ndarray partition(const ndarray& a, std::int64_t kth, std::optional<int> axis) {
  return partition(a, std::vector<std::int64_t>{kth}, axis);
}
ndarray argpartition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis) {
  check_kth(kth, axis_len(a, axis, "cusci::argpartition"), "cusci::argpartition");
  return argsort(a, axis);
}
ndarray argpartition(const ndarray& a, std::int64_t kth, std::optional<int> axis) {
  return argpartition(a, std::vector<std::int64_t>{kth}, axis);
}

}  // namespace cusci
