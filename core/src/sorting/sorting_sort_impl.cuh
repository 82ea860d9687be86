#pragma once
/// @file sorting_sort_impl.cuh  (internal; nvcc only)
/// Definitions of sort_bits<U> and argsort_bits<U> (see sorting_sort.cuh). Included only by the
/// translation units that instantiate them explicitly (one per key width group).

#include <utility>

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "sorting/sorting_sort.cuh"

namespace cusci::detail::srt {

// --- signed zeros after a keys-only sort of floats ---------------------------------------------------
//
// Both the input (C order of the row view) and the sorted buffer hold the rows back to back, and a
// row's zeros form one run in its sorted row. So the j-th zero of the whole sorted buffer takes the
// sign of the j-th zero of the whole input (in C order): tiles of `zt` elements count their zeros,
// one block scans the tile counts, then each tile ranks its zeros (block scans) to write the input's
// signs by rank and to read them back at the sorted zeros. Every kernel returns at once unless the
// key gather saw a -0.0 (*gate != 0).

inline constexpr int zt_threads = 256;
inline constexpr int zt_items = 16;
inline constexpr i64 zt = zt_threads * zt_items;

template <class U>
__device__ __forceinline__ bool is_zero_bits(U b) {
  return static_cast<U>(b & static_cast<U>(~top_bit<U>())) == 0;
}

template <class U>
__global__ void __launch_bounds__(zt_threads) zero_counts(const char* base, strided_indexer ix, const U* sorted, i64 n,
                                                          const int* gate, int* cin, int* cout) {
  if (*gate == 0) return;
  using reduce_t = cub::BlockReduce<int, zt_threads>;
  __shared__ typename reduce_t::TempStorage tmp;
  const i64 t0 = static_cast<i64>(blockIdx.x) * zt;
  int a = 0, b = 0;
  for (int k = 0; k < zt_items; ++k) {
    const i64 i = t0 + static_cast<i64>(k) * zt_threads + threadIdx.x;
    if (i < n) {
      a += is_zero_bits<U>(*reinterpret_cast<const U*>(base + ix.offset(i)));
      b += is_zero_bits<U>(sorted[i]);
    }
  }
  const int sa = reduce_t(tmp).Sum(a);
  __syncthreads();
  const int sb = reduce_t(tmp).Sum(b);
  if (threadIdx.x == 0) {
    cin[blockIdx.x] = sa;
    cout[blockIdx.x] = sb;
  }
}

/// Exclusive scans of both tile-count arrays (one block; the gate as above). Internal linkage: nvcc
/// emits this instantiation's host stub without its template argument, so every TU that includes
/// the header would otherwise define the same symbol.
template <int threads>
static __global__ void __launch_bounds__(threads) zero_scan(const int* cin, const int* cout, i64* sin, i64* sout, i64 tiles,
                                                     const int* gate) {
  if (*gate == 0) return;
  using scan_t = cub::BlockScan<i64, threads>;
  __shared__ typename scan_t::TempStorage tmp;
  for (int which = 0; which < 2; ++which) {
    const int* c = which ? cout : cin;
    i64* s = which ? sout : sin;
    i64 carry = 0;
    for (i64 b0 = 0; b0 < tiles; b0 += threads) {
      const i64 i = b0 + threadIdx.x;
      const i64 v = i < tiles ? c[i] : 0;
      i64 ex, agg;
      scan_t(tmp).ExclusiveSum(v, ex, agg);
      __syncthreads();
      if (i < tiles) s[i] = carry + ex;
      carry += agg;
    }
  }
}

/// apply == false: sign[rank] = sign bit of each input zero; apply == true: each zero of the sorted
/// buffer takes sign[rank].
template <class U, bool apply>
__global__ void __launch_bounds__(zt_threads) zero_ranks(const char* base, strided_indexer ix, U* sorted, i64 n,
                                                         const int* gate, const i64* start, std::uint8_t* sign) {
  if (*gate == 0) return;
  using scan_t = cub::BlockScan<int, zt_threads>;
  __shared__ typename scan_t::TempStorage tmp;
  const i64 t0 = static_cast<i64>(blockIdx.x) * zt;
  i64 rank0 = start[blockIdx.x];
  for (int k = 0; k < zt_items; ++k) {
    const i64 i = t0 + static_cast<i64>(k) * zt_threads + threadIdx.x;
    U b = 0;
    int f = 0;
    if (i < n) {
      b = apply ? sorted[i] : *reinterpret_cast<const U*>(base + ix.offset(i));
      f = is_zero_bits<U>(b) ? 1 : 0;
    }
    int ex, agg;
    scan_t(tmp).ExclusiveSum(f, ex, agg);
    __syncthreads();
    if (f) {
      if constexpr (apply) sorted[i] = sign[rank0 + ex] ? top_bit<U>() : U(0);
      else sign[rank0 + ex] = (b & top_bit<U>()) ? 1 : 0;
    }
    rank0 += agg;
  }
}

/// Restores the signs of the zeros of `sorted` (decoded words, C order of r.view's shape).
template <class U>
void restore_zero_signs(const rows_view& r, U* sorted, const int* gate, cudaStream_t st) {
  const i64 n = r.n;
  const i64 tiles = (n + zt - 1) / zt;
  const char* base = static_cast<const char*>(r.view.data());
  const strided_indexer ix = indexer_of(r.view);
  device_buffer<int> cin(static_cast<std::size_t>(tiles)), cout(static_cast<std::size_t>(tiles));
  device_buffer<i64> sin(static_cast<std::size_t>(tiles)), sout(static_cast<std::size_t>(tiles));
  device_buffer<std::uint8_t> sign(static_cast<std::size_t>(n));
  zero_counts<U><<<static_cast<unsigned>(tiles), zt_threads, 0, st>>>(base, ix, sorted, n, gate, cin.data(), cout.data());
  CUSCI_CHECK_LAUNCH();
  zero_scan<1024><<<1, 1024, 0, st>>>(cin.data(), cout.data(), sin.data(), sout.data(), tiles, gate);
  CUSCI_CHECK_LAUNCH();
  zero_ranks<U, false><<<static_cast<unsigned>(tiles), zt_threads, 0, st>>>(base, ix, sorted, n, gate, sin.data(),
                                                                          sign.data());
  CUSCI_CHECK_LAUNCH();
  zero_ranks<U, true><<<static_cast<unsigned>(tiles), zt_threads, 0, st>>>(base, ix, sorted, n, gate, sout.data(),
                                                                         sign.data());
  CUSCI_CHECK_LAUNCH();
}

template <class U>
__global__ void decode_keys(U* p, i64 n, key_mode m) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    p[i] = decode_key<U>(p[i], m);
}

// --- NaNs with the sign bit set, after CUB's native float order ------------------------------------
//
// CUB sorts float and double keys by their twiddled bits (-0.0 and +0.0 as one key, stable), which is
// NumPy's order except for NaNs whose sign bit is set: they come before -inf instead of after +inf.
// They form a prefix of the sorted sequence; its length is found by a binary search (gated on the
// first element being such a NaN) and the prefix is rotated to the end by three reversals (the first
// two in one launch). Without such NaNs the three kernels return at once.

template <class U>
__device__ __forceinline__ bool is_neg_nan_bits(U b) {
  return (b & top_bit<U>()) != 0 && static_cast<U>(b & static_cast<U>(~top_bit<U>())) > ubits<U>::inf;
}

/// *count = length of the prefix of p[0, n) made of NaNs with the sign bit set (n >= 1; one thread).
template <class U>
__global__ void neg_nan_prefix(const U* p, i64 n, i64* count) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  if (!is_neg_nan_bits<U>(p[0])) {
    *count = 0;
    return;
  }
  i64 lo = 1, hi = n;  // first index in [1, n] that is not such a NaN
  while (lo < hi) {
    const i64 mid = lo + ((hi - lo) >> 1);
    if (is_neg_nan_bits<U>(p[mid])) lo = mid + 1;
    else hi = mid;
  }
  *count = lo;
}

/// Reverses p[0, c) and p[c, n) (first == true) or p[0, n) (first == false), c = *count; returns at
/// once unless 0 < c < n. Every pair of swapped positions belongs to one thread.
template <class U, bool first>
__global__ void rotate_step(U* p, i64 n, const i64* count) {
  const i64 c = *count;
  if (c <= 0 || c >= n) return;
  const i64 h0 = first ? c / 2 : n / 2;
  const i64 pairs = first ? h0 + (n - c) / 2 : h0;
  for (i64 t = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; t < pairs;
       t += static_cast<i64>(gridDim.x) * blockDim.x) {
    i64 a, b;
    if (first && t >= h0) {
      a = c + (t - h0);
      b = n - 1 - (t - h0);
    } else {
      a = t;
      b = (first ? c : n) - 1 - t;
    }
    const U va = p[a], vb = p[b];
    p[a] = vb;
    p[b] = va;
  }
}

/// One contiguous sequence of float (U = uint32) or double (U = uint64) values sorted by CUB from
/// `in` into `o` in NumPy's order (n >= 2). Asynchronous.
template <class U>
void sort_native_float(const void* in, void* o, i64 n, cudaStream_t st) {
  using F = std::conditional_t<sizeof(U) == 4, float, double>;
  const F* fi = static_cast<const F*>(in);
  F* fo = static_cast<F*>(o);
  cub_run([&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortKeys(t, b, fi, fo, n, 0, static_cast<int>(8 * sizeof(F)), st);
  });
  U* p = static_cast<U*>(o);
  device_buffer<i64> count(1);
  neg_nan_prefix<U><<<1, 32, 0, st>>>(p, n, count.data());
  CUSCI_CHECK_LAUNCH();
  rotate_step<U, true><<<grid(n / 2), block, 0, st>>>(p, n, count.data());
  CUSCI_CHECK_LAUNCH();
  rotate_step<U, false><<<grid(n / 2), block, 0, st>>>(p, n, count.data());
  CUSCI_CHECK_LAUNCH();
}

// --- one short row: a single block ---------------------------------------------------------------------
//
// A row of at most small_len elements is sorted by one block (cub::BlockRadixSort over the ordered keys,
// stable; a rank count for at most `block` elements), carrying each element's bits (sort) or index
// (argsort): one launch, no work area. Equal keys keep their input order, so zeros keep their signs in
// input order and NaNs (one key, after every number) keep theirs, as the device-wide paths do.

inline constexpr int small_items = 8;
inline constexpr i64 small_len = static_cast<i64>(block) * small_items;

template <class U, bool Arg>
__global__ void __launch_bounds__(block) sort_small(const char* base, strided_indexer ix, i64 n, key_mode m,
                                                    void* out) {
  using V = std::conditional_t<Arg, int, U>;
  using sorter = cub::BlockRadixSort<U, block, small_items, V>;
  __shared__ typename sorter::TempStorage tmp;
  U keys[small_items];
  V vals[small_items];
#pragma unroll
  for (int k = 0; k < small_items; ++k) {
    const i64 i = static_cast<i64>(threadIdx.x) * small_items + k;  // blocked: padding sorts after
    if (i < n) {
      const U b = *reinterpret_cast<const U*>(base + ix.offset(i));
      keys[k] = encode_key<U>(b, m);
      if constexpr (Arg) vals[k] = static_cast<int>(i);
      else vals[k] = b;
    } else {
      keys[k] = static_cast<U>(~U(0));
      vals[k] = V(0);
    }
  }
  sorter(tmp).Sort(keys, vals);
#pragma unroll
  for (int k = 0; k < small_items; ++k) {
    const i64 i = static_cast<i64>(threadIdx.x) * small_items + k;
    if (i >= n) continue;
    if constexpr (Arg) static_cast<std::int64_t*>(out)[i] = vals[k];
    else static_cast<U*>(out)[i] = vals[k];
  }
}

/// Rows of at most `block` elements: a thread per element finds its element's place by counting the
/// smaller keys and the equal keys before it (stable), a few hundred steps where the radix sort above
/// runs eight or more block-wide passes.
template <class U, bool Arg>
__global__ void __launch_bounds__(block) sort_tiny(const char* base, strided_indexer ix, int n, key_mode m,
                                                   void* out) {
  __shared__ U sk[block];
  const int t = static_cast<int>(threadIdx.x);
  U b{}, key{};
  if (t < n) {
    b = *reinterpret_cast<const U*>(base + ix.offset(t));
    key = encode_key<U>(b, m);
    sk[t] = key;
  }
  __syncthreads();
  if (t >= n) return;
  int rank = 0;
  for (int j = 0; j < n; ++j) {
    const U kj = sk[j];
    rank += (kj < key || (kj == key && j < t)) ? 1 : 0;
  }
  if constexpr (Arg) static_cast<std::int64_t*>(out)[rank] = t;
  else static_cast<U*>(out)[rank] = b;
}

template <class U, bool Arg>
void run_sort_small(const rows_view& r, key_mode m, void* out, cudaStream_t st) {
  const char* base = static_cast<const char*>(r.view.data());
  if (r.n <= block) sort_tiny<U, Arg><<<1, block, 0, st>>>(base, indexer_of(r.view), static_cast<int>(r.n), m, out);
  else sort_small<U, Arg><<<1, block, 0, st>>>(base, indexer_of(r.view), r.n, m, out);
  CUSCI_CHECK_LAUNCH();
}

// --- keys-only sort ------------------------------------------------------------------------------------

template <class U>
ndarray sort_bits(const rows_view& r, dtype dt, key_mode m) {
  cudaStream_t st = get_current_stream();
  ndarray out = empty(r.out_shape, dt);
  const i64 n = r.n;
  if (n == 0) return out;
  if (r.rows == 1 && n <= small_len) {
    run_sort_small<U, false>(r, m, out.data(), st);
    return out;
  }
  const bool one_seq = r.rows == 1 && r.len > 1 && r.len < huge_row && r.view.is_c_contiguous();
  if constexpr (sizeof(U) == 4 || sizeof(U) == 8) {
    if (one_seq && m == key_mode::real) {
      // float32 / float64, one contiguous sequence: CUB's own float order read from the input into
      // `out` (no key encode/decode passes, zero signs kept in input order by the stable sort), then
      // the sign-bit NaNs moved last
      sort_native_float<U>(r.view.data(), out.data(), n, st);
      return out;
    }
  }
  if (one_seq && m != key_mode::real) {
    // integers and bool, one contiguous sequence: CUB orders these types as NumPy (it flips the sign
    // bit of signed keys itself), so it reads the input and writes `out` directly, with no key
    // encode/decode passes.
    using S = std::make_signed_t<U>;
    if (m == key_mode::sign) {
      const S* in = static_cast<const S*>(r.view.data());
      S* o = out.data_as<S>();
      cub_run([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortKeys(t, b, in, o, n, 0, static_cast<int>(8 * sizeof(U)), st);
      });
    } else {
      const U* in = static_cast<const U*>(r.view.data());
      U* o = out.data_as<U>();
      cub_run([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortKeys(t, b, in, o, n, 0, static_cast<int>(8 * sizeof(U)), st);
      });
    }
    return out;
  }
  device_buffer<int> gate;
  if (m == key_mode::real) {
    gate = device_buffer<int>(1);
    CUSCI_CUDA_TRY(cudaMemsetAsync(gate.data(), 0, sizeof(int), st));
  }
  U* o = out.data_as<U>();
  encode_keys<U><<<grid(n), block, 0, st>>>(static_cast<const char*>(r.view.data()), indexer_of(r.view), o, n, m,
                                            gate.data());
  CUSCI_CHECK_LAUNCH();
  ndarray res = out;
  if (r.len > 1) {
    device_buffer<U> alt(static_cast<std::size_t>(n));
    if (r.rows == 1 || r.len >= huge_row) {
      // one sequence at a time (rows of >= 2^31 elements are few: n / 2^31)
      bool in_alt = false;
      for (i64 row = 0; row < r.rows; ++row) {
        cub::DoubleBuffer<U> keys(o + row * r.len, alt.data() + row * r.len);
        cub_run([&](void* t, std::size_t& b) {
          return cub::DeviceRadixSort::SortKeys(t, b, keys, r.len, 0, static_cast<int>(8 * sizeof(U)), st);
        });
        const bool here = keys.Current() != o + row * r.len;
        if (row == 0) in_alt = here;
        if (here != in_alt)  // keep every row in the same buffer
          CUSCI_CUDA_TRY(cudaMemcpyAsync(keys.Alternate(), keys.Current(), static_cast<std::size_t>(r.len) * sizeof(U),
                                         cudaMemcpyDeviceToDevice, st));
      }
      if (in_alt) res = wrap(alt.block(), dt, r.out_shape, out.device());
    } else {
      cub::DoubleBuffer<U> keys(o, alt.data());
      device_buffer<i64> off = offsets_for(r.rows, r.len, st);
      const i64* op = off.data();
      cub_run([&](void* t, std::size_t& b) {
        return cub::DeviceSegmentedSort::StableSortKeys(t, b, keys, n, r.rows, op, op + 1, st);
      });
      if (keys.Current() != o) res = wrap(alt.block(), dt, r.out_shape, out.device());
    }
  }
  U* rp = res.data_as<U>();
  if (m != key_mode::raw) {
    decode_keys<U><<<grid(n), block, 0, st>>>(rp, n, m);
    CUSCI_CHECK_LAUNCH();
  }
  if (m == key_mode::real) restore_zero_signs<U>(r, rp, gate.data(), st);
  return res;
}

// --- argsort ---------------------------------------------------------------------------------------------

template <class U>
ndarray argsort_bits(const rows_view& r, key_mode m) {
  cudaStream_t st = get_current_stream();
  const i64 n = r.n;
  ndarray out = empty(r.out_shape, dtype::int64);
  if (n == 0) return out;
  std::int64_t* op = out.data_as<std::int64_t>();
  if (r.len <= 1) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(op, 0, static_cast<std::size_t>(n) * sizeof(std::int64_t), st));
    return out;
  }
  if (r.rows == 1 && n <= small_len) {
    run_sort_small<U, true>(r, m, op, st);
    return out;
  }
  device_buffer<U> k0(static_cast<std::size_t>(n)), k1(static_cast<std::size_t>(n));
  encode_keys<U><<<grid(n), block, 0, st>>>(static_cast<const char*>(r.view.data()), indexer_of(r.view), k0.data(), n,
                                            m, nullptr);
  CUSCI_CHECK_LAUNCH();
  if (r.len >= huge_row) {
    // int64 indices sorted directly in `out`, one row at a time
    device_buffer<std::int64_t> v1(static_cast<std::size_t>(n));
    iota_mod<std::int64_t><<<grid(n), block, 0, st>>>(op, n, r.len);
    CUSCI_CHECK_LAUNCH();
    for (i64 row = 0; row < r.rows; ++row) {
      const i64 o = row * r.len;
      cub::DoubleBuffer<U> keys(k0.data() + o, k1.data() + o);
      cub::DoubleBuffer<std::int64_t> vals(op + o, v1.data() + o);
      cub_run([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys, vals, r.len, 0, static_cast<int>(8 * sizeof(U)), st);
      });
      if (vals.Current() != op + o)
        CUSCI_CUDA_TRY(cudaMemcpyAsync(op + o, vals.Current(), static_cast<std::size_t>(r.len) * sizeof(std::int64_t),
                                       cudaMemcpyDeviceToDevice, st));
    }
    return out;
  }
  device_buffer<std::int32_t> v0(static_cast<std::size_t>(n)), v1(static_cast<std::size_t>(n));
  iota_mod<std::int32_t><<<grid(n), block, 0, st>>>(v0.data(), n, r.len);
  CUSCI_CHECK_LAUNCH();
  cub::DoubleBuffer<U> keys(k0.data(), k1.data());
  cub::DoubleBuffer<std::int32_t> vals(v0.data(), v1.data());
  if (r.rows == 1) {
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, keys, vals, n, 0, static_cast<int>(8 * sizeof(U)), st);
    });
  } else {
    device_buffer<i64> off = offsets_for(r.rows, r.len, st);
    const i64* o = off.data();
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceSegmentedSort::StableSortPairs(t, b, keys, vals, n, r.rows, o, o + 1, st);
    });
  }
  widen<std::int32_t><<<grid(n), block, 0, st>>>(vals.Current(), op, n);
  CUSCI_CHECK_LAUNCH();
  return out;
}

}  // namespace cusci::detail::srt
