#pragma once
/// @file sorting_sort.cuh  (internal; nvcc only)
/// Shared pieces of sort / argsort, split over several translation units to keep compile times low:
///  - sorting_sort.cu: the public functions; maps a dtype to (key width, key mode) and calls
///  - sort_bits<U> / argsort_bits<U> (sorting_sort_k*.cu, sorting_argsort_k*.cu; one TU per key width
///    group) and argsort_complex<R> / sort_complex<R> (sorting_sort_c64.cu, sorting_sort_c128.cu).
///
/// One C-contiguous sequence is sorted by CUB straight from the input into the result: integers and
/// bool on their storage type, float32/float64 in CUB's own float order with the sign-bit NaNs (which
/// CUB puts first) rotated to the end by gated kernels (sorting_sort_impl.cuh). Otherwise real dtypes
/// are sorted as unsigned integers of their width (one CUB instantiation per width): signed integers
/// with the sign bit flipped, IEEE floats mapped to ordered bits with -0.0 given +0.0's key (NumPy: equal keys, input order kept) and every NaN the canonical
/// NaN's key (after +inf, all equal). Keys-only sorts then decode the keys in place and restore the
/// signs of the zeros (k-th zero of a row in input order -> k-th position of the row's zero run);
/// that pass is gated on a device flag set by the key gather, so it costs a few empty launches when
/// the input holds no -0.0.

#include <optional>
#include <vector>

#include "sorting/sorting_common.cuh"

namespace cusci::detail::srt {

/// How a storage word of a real dtype maps to an ordered unsigned key.
enum class key_mode : int {
  raw = 0,   ///< unsigned integers, bool: the bits themselves
  sign = 1,  ///< signed integers: sign bit flipped
  real = 2,  ///< IEEE binary16/32/64 (by width): ordered bits, -0 -> +0, NaN -> canonical NaN
};

/// The sorted axis moved last: elements in C order of `view` are the rows, back to back.
struct rows_view {
  ndarray view;
  shape_t out_shape;         // shape of the sorted buffer (view's shape)
  std::vector<int> inverse;  // transpose back (empty for axis=None)
  i64 rows = 0, len = 0, n = 0;
};

// --- entry points, explicitly instantiated in their own TUs ---------------------------------------

/// Sorted values of a real dtype of width sizeof(U) (C-contiguous [r.out_shape], dtype dt).
template <class U>
ndarray sort_bits(const rows_view& r, dtype dt, key_mode m);
/// Stable argsort of a real dtype of width sizeof(U) (int64 [r.out_shape], indices along the row).
template <class U>
ndarray argsort_bits(const rows_view& r, key_mode m);
/// Stable argsort / sort of complex<R> values (NumPy's complex order).
template <class R>
ndarray argsort_complex(const rows_view& r);
template <class R>
ndarray sort_complex(const rows_view& r, dtype dt);

// --- shared host helpers -------------------------------------------------------------------------

/// A device array over `mem` (C-contiguous, `shape`).
inline ndarray wrap(const memory_ptr& mem, dtype dt, const shape_t& shape, int device) {
  shape_t strides(shape.size());
  std::int64_t s = static_cast<std::int64_t>(itemsize(dt));
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    strides[d] = s;
    s *= shape[d] > 1 ? shape[d] : 1;
  }
  return ndarray(mem, dt, shape, strides, 0, device);
}

template <class O>
__global__ void row_offsets(O* off, i64 rows, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i <= rows;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    off[i] = static_cast<O>(i * len);
}

/// Segment offsets i * len, i = 0..rows (int64, the only offset type the segmented sorts use).
inline device_buffer<i64> offsets_for(i64 rows, i64 len, cudaStream_t st) {
  device_buffer<i64> off(static_cast<std::size_t>(rows + 1));
  row_offsets<i64><<<grid(rows + 1), block, 0, st>>>(off.data(), rows, len);
  CUSCI_CHECK_LAUNCH();
  return off;
}

/// Rows of length >= 2^31 are sorted one by one with the single-sequence radix sort (the segmented
/// sort and the int32 index payloads are used below that).
inline constexpr i64 huge_row = i64(1) << 31;

// --- keys ------------------------------------------------------------------------------------------

template <class U> struct ubits;
template <> struct ubits<std::uint8_t> {
  static constexpr std::uint8_t inf = 0, nan = 0;  // no 1-byte float
};
template <> struct ubits<std::uint16_t> {
  static constexpr std::uint16_t inf = 0x7C00u, nan = 0x7E00u;
};
template <> struct ubits<std::uint32_t> {
  static constexpr std::uint32_t inf = 0x7F800000u, nan = 0x7FC00000u;
};
template <> struct ubits<std::uint64_t> {
  static constexpr std::uint64_t inf = 0x7FF0000000000000ull, nan = 0x7FF8000000000000ull;
};

template <class U>
__host__ __device__ __forceinline__ constexpr U top_bit() {
  return static_cast<U>(U(1) << (8 * sizeof(U) - 1));
}

/// Ordered unsigned key of the storage word `b`.
template <class U>
__device__ __forceinline__ U encode_key(U b, key_mode m) {
  constexpr U top = top_bit<U>();
  if (m == key_mode::raw) return b;
  if (m == key_mode::sign) return static_cast<U>(b ^ top);
  const U mag = static_cast<U>(b & static_cast<U>(~top));
  if (mag > ubits<U>::inf) return static_cast<U>(ubits<U>::nan | top);  // every NaN: canonical, last
  if (mag == 0) return top;                                             // -0.0 and +0.0: one key
  return (b & top) ? static_cast<U>(~b) : static_cast<U>(b | top);
}

/// Storage word of the ordered key `k` (inverse of encode_key up to NaN payloads and zero signs).
template <class U>
__device__ __forceinline__ U decode_key(U k, key_mode m) {
  constexpr U top = top_bit<U>();
  if (m == key_mode::raw) return k;
  if (m == key_mode::sign) return static_cast<U>(k ^ top);
  return (k & top) ? static_cast<U>(k & static_cast<U>(~top)) : static_cast<U>(~k);
}

/// out[i] = key of the element with C index i of the strided input; sets *negzero when a -0.0 is
/// seen (real mode; negzero may be null otherwise).
template <class U>
__global__ void encode_keys(const char* base, strided_indexer ix, U* out, i64 n, key_mode m, int* negzero) {
  bool nz = false;
  // a C-contiguous input (one merged axis of unit stride) is read without per-element index arithmetic
  const bool contig = ix.ndim == 0 || (ix.ndim == 1 && ix.strides[0] == static_cast<i64>(sizeof(U)));
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const U b = contig ? reinterpret_cast<const U*>(base)[i] : *reinterpret_cast<const U*>(base + ix.offset(i));
    nz |= (m == key_mode::real && b == top_bit<U>());
    out[i] = encode_key<U>(b, m);
  }
  if (nz && negzero != nullptr) *negzero = 1;
}

/// idx[i] = i mod len (position inside its row).
template <class I>
__global__ void iota_mod(I* idx, i64 n, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    idx[i] = static_cast<I>(i % len);
}

/// out[i] = in[i] mod len (global -> row-local index; len > 0).
template <class I>
__global__ void widen_mod(const I* in, std::int64_t* out, i64 n, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    out[i] = static_cast<std::int64_t>(in[i]) % len;
}

/// out[i] = in[i] (int32 row-local indices to int64).
template <class I>
__global__ void widen(const I* in, std::int64_t* out, i64 n) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

}  // namespace cusci::detail::srt
