#pragma once
/// @file sorting_sort_complex.cuh  (internal; nvcc only)
/// argsort_complex<R> / sort_complex<R> (see sorting_sort.cuh): composite (class, real bits, imaginary
/// bits) keys sorted by CUB's radix sort with a decomposer. Several rows: one global sort with global
/// indices, then a stable radix pass on the row number (LSD). sort gathers the values by the indices.
/// Included by sorting_sort_c64.cu and sorting_sort_c128.cu only.

#include <cub/device/device_radix_sort.cuh>

#include "sorting/sorting_sort.cuh"

namespace cusci::detail::srt {

/// Row number of a global index, as the key of the second (stable) pass.
template <class I, class S>
__global__ void row_of(const I* g, S* seg, i64 n, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    seg[i] = static_cast<S>(static_cast<i64>(g[i]) / len);
}

template <class T>
__global__ void complex_keys(const char* base, strided_indexer ix, typename key_traits<T>::key* out, i64 n) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x)
    out[i] = key_traits<T>::make(*reinterpret_cast<const T*>(base + ix.offset(i)));
}

/// out[i] = element (row of i) * len + idx[i] of the strided input.
template <class T>
__global__ void gather_rows(const char* base, strided_indexer ix, const std::int64_t* idx, T* out, i64 n, i64 len) {
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 row = i / len;
    out[i] = *reinterpret_cast<const T*>(base + ix.offset(row * len + idx[i]));
  }
}

template <class T, class I>
void argsort_complex_into(const rows_view& r, std::int64_t* out) {
  using K = typename key_traits<T>::key;
  using U = decltype(K{}.re);
  cudaStream_t st = get_current_stream();
  const i64 n = r.n;
  device_buffer<K> k0(static_cast<std::size_t>(n)), k1(static_cast<std::size_t>(n));
  device_buffer<I> v0(static_cast<std::size_t>(n)), v1(static_cast<std::size_t>(n));
  complex_keys<T><<<grid(n), block, 0, st>>>(static_cast<const char*>(r.view.data()), indexer_of(r.view), k0.data(), n);
  CUSCI_CHECK_LAUNCH();
  iota_mod<I><<<grid(n), block, 0, st>>>(v0.data(), n, n);  // global indices
  CUSCI_CHECK_LAUNCH();
  cub::DoubleBuffer<K> keys(k0.data(), k1.data());
  cub::DoubleBuffer<I> vals(v0.data(), v1.data());
  cub_run([&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, keys, vals, n, complex_decomposer<U>{}, st);
  });
  if (r.rows > 1) {
    device_buffer<std::uint32_t> s0(static_cast<std::size_t>(n)), s1(static_cast<std::size_t>(n));
    row_of<<<grid(n), block, 0, st>>>(vals.Current(), s0.data(), n, r.len);
    CUSCI_CHECK_LAUNCH();
    cub::DoubleBuffer<std::uint32_t> segs(s0.data(), s1.data());
    int bits = 1;
    while (bits < 32 && (i64(1) << bits) < r.rows) ++bits;
    cub_run([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortPairs(t, b, segs, vals, n, 0, bits, st); });
  }
  widen_mod<I><<<grid(n), block, 0, st>>>(vals.Current(), out, n, r.len);
  CUSCI_CHECK_LAUNCH();
}

template <class R>
ndarray argsort_complex(const rows_view& r) {
  using T = ::cuda::std::complex<R>;
  const i64 n = r.n;
  ndarray out = empty(r.out_shape, dtype::int64);
  if (n == 0) return out;
  if (r.len <= 1) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(out.data(), 0, static_cast<std::size_t>(n) * sizeof(std::int64_t),
                                   get_current_stream()));
    return out;
  }
  if (n >= huge_row) argsort_complex_into<T, std::int64_t>(r, out.data_as<std::int64_t>());
  else argsort_complex_into<T, std::int32_t>(r, out.data_as<std::int64_t>());
  return out;
}

template <class R>
ndarray sort_complex(const rows_view& r, dtype dt) {
  using T = ::cuda::std::complex<R>;
  ndarray out = empty(r.out_shape, dt);
  if (r.n == 0) return out;
  ndarray idx = argsort_complex<R>(r);
  cudaStream_t st = get_current_stream();
  gather_rows<T><<<grid(r.n), block, 0, st>>>(static_cast<const char*>(r.view.data()), indexer_of(r.view),
                                               idx.data_as<std::int64_t>(), out.data_as<T>(), r.n, r.len);
  CUSCI_CHECK_LAUNCH();
  return out;
}

}  // namespace cusci::detail::srt
