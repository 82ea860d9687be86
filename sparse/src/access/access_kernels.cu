// Device kernels of cusci::sparse's access family: gathers of major lines, minor selection through a
// counting map, sampling and offsets of (major, minor) positions, last-writer-wins scatter, COO
// reshape and filter, indptr padding, DIA clearing. Values are moved as raw bytes (one kernel per
// item size); only sampling sums values and is instantiated per dtype.

#include <cstdint>
#include <string>
#include <type_traits>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda_runtime.h>

#include "access/access_internal.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::detail {
namespace {

struct alignas(16) bytes16 {
  unsigned long long a, b;
};
template <int S> struct bytes_of;
template <> struct bytes_of<1> { using type = std::uint8_t; };
template <> struct bytes_of<2> { using type = std::uint16_t; };
template <> struct bytes_of<4> { using type = std::uint32_t; };
template <> struct bytes_of<8> { using type = unsigned long long; };
template <> struct bytes_of<16> { using type = bytes16; };

template <class F>
decltype(auto) by_size(std::size_t s, F&& f) {
  switch (s) {
    case 1: return f(bytes_of<1>::type{});
    case 2: return f(bytes_of<2>::type{});
    case 4: return f(bytes_of<4>::type{});
    case 8: return f(bytes_of<8>::type{});
    case 16: return f(bytes_of<16>::type{});
    default: break;
  }
  throw type_error("cusci::sparse: unsupported item size " + std::to_string(s));
}

template <class F>
decltype(auto) by_index(cusci::dtype t, F&& f) {
  if (t == cusci::dtype::int32) return f(std::int32_t{});
  if (t == cusci::dtype::int64) return f(std::int64_t{});
  throw type_error("cusci::sparse: index arrays must be int32 or int64, got " + std::string(dtype_name(t)));
}

constexpr int threads = 256;
inline unsigned blocks_for(std::int64_t n) {
  return static_cast<unsigned>((n + threads - 1) / threads);
}

// Inclusive prefix sum of cnt [n] in place (int64). Synchronous only through the caller's reads.
void inclusive_scan(std::int64_t* cnt, std::int64_t n, cudaStream_t s) {
  if (n <= 0) return;
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, cnt, cnt, n, s));
  device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
  CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp.data(), bytes, cnt, cnt, n, s));
}

std::int64_t read_back(const std::int64_t* p, cudaStream_t s) {
  std::int64_t v = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&v, p, sizeof v, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return v;
}

template <class I>
void check_fits(std::int64_t nnz) {
  if constexpr (std::is_same_v<I, std::int32_t>)
    CUSCI_EXPECTS(nnz <= 2147483647, value_error,
                  "cusci::sparse: the selection has " + std::to_string(nnz) +
                      " entries, more than int32 indices can address; convert the matrix to int64 indices first");
}

// ---- gather of major lines ----------------------------------------------------------------------
template <class I>
__global__ void gather_count(const I* __restrict__ indptr, const std::int64_t* __restrict__ sel, std::int64_t k,
                             std::int64_t* __restrict__ cnt) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > k) return;
  if (t == 0) {
    cnt[0] = 0;
    return;
  }
  const std::int64_t r = sel[t - 1];
  cnt[t] = static_cast<std::int64_t>(indptr[r + 1]) - static_cast<std::int64_t>(indptr[r]);
}

template <class I, class V>
__global__ void gather_copy(const I* __restrict__ indptr, const I* __restrict__ idx, const V* __restrict__ data,
                            const std::int64_t* __restrict__ sel, std::int64_t k, const std::int64_t* __restrict__ pos,
                            I* __restrict__ out_indptr, I* __restrict__ out_idx, V* __restrict__ out_data) {
  const std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t w = g / 32;
  const int lane = static_cast<int>(g % 32);
  if (w >= k) return;
  const std::int64_t r = sel[w];
  const std::int64_t src = indptr[r], len = static_cast<std::int64_t>(indptr[r + 1]) - src, dst = pos[w];
  for (std::int64_t t = lane; t < len; t += 32) {
    out_idx[dst + t] = idx[src + t];
    out_data[dst + t] = data[src + t];
  }
  if (lane == 0) {
    out_indptr[w + 1] = static_cast<I>(pos[w + 1]);
    if (w == 0) out_indptr[0] = 0;
  }
}

// ---- minor selection ----------------------------------------------------------------------------
template <class I>
__global__ void minor_count(const I* __restrict__ indptr, const I* __restrict__ idx, std::int64_t n_major,
                            const std::int64_t* __restrict__ offsets, std::int64_t* __restrict__ cnt) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > n_major) return;
  if (t == 0) {
    cnt[0] = 0;
    return;
  }
  std::int64_t c = 0;
  for (std::int64_t e = indptr[t - 1]; e < static_cast<std::int64_t>(indptr[t]); ++e) {
    const std::int64_t j = idx[e];
    c += offsets[j + 1] - offsets[j];
  }
  cnt[t] = c;
}

template <class I, class V>
__global__ void minor_fill(const I* __restrict__ indptr, const I* __restrict__ idx, const V* __restrict__ data,
                           std::int64_t n_major, const std::int64_t* __restrict__ offsets,
                           const std::int64_t* __restrict__ order, const std::int64_t* __restrict__ pos,
                           I* __restrict__ out_indptr, I* __restrict__ out_idx, V* __restrict__ out_data) {
  const std::int64_t l = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (l >= n_major) return;
  std::int64_t dst = pos[l];
  for (std::int64_t e = indptr[l]; e < static_cast<std::int64_t>(indptr[l + 1]); ++e) {
    const std::int64_t j = idx[e];
    const V v = data[e];
    for (std::int64_t q = offsets[j]; q < offsets[j + 1]; ++q, ++dst) {
      out_idx[dst] = static_cast<I>(order[q]);
      out_data[dst] = v;
    }
  }
  out_indptr[l + 1] = static_cast<I>(pos[l + 1]);
  if (l == 0) out_indptr[0] = 0;
}

// ---- sampling and offsets -----------------------------------------------------------------------
template <class I, class T>
__global__ void sample_kernel(const I* __restrict__ indptr, const I* __restrict__ idx, const T* __restrict__ data,
                              const std::int64_t* __restrict__ pi, const std::int64_t* __restrict__ pj, std::int64_t n,
                              T* __restrict__ out) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::int64_t r = pi[k], c = pj[k];
  if constexpr (std::is_same_v<T, bool>) {
    bool acc = false;
    for (std::int64_t e = indptr[r]; e < static_cast<std::int64_t>(indptr[r + 1]); ++e)
      if (static_cast<std::int64_t>(idx[e]) == c) acc = acc || data[e];
    out[k] = acc;
  } else {
    using C = cusci::detail::compute_t<T>;
    C acc = C(0);
    for (std::int64_t e = indptr[r]; e < static_cast<std::int64_t>(indptr[r + 1]); ++e)
      if (static_cast<std::int64_t>(idx[e]) == c) acc = static_cast<C>(acc + static_cast<C>(data[e]));
    out[k] = static_cast<T>(acc);
  }
}

// Binary search of minor index c in the sorted line r (canonical arrays: at most one match).
template <class I, class V>
__global__ void sample_sorted_kernel(const I* __restrict__ indptr, const I* __restrict__ idx,
                                     const V* __restrict__ data, const std::int64_t* __restrict__ pi,
                                     const std::int64_t* __restrict__ pj, std::int64_t n, V* __restrict__ out) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::int64_t r = pi[k], c = pj[k];
  std::int64_t lo = indptr[r], hi = indptr[r + 1];
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(idx[mid]) < c) lo = mid + 1;
    else hi = mid;
  }
  if (lo < static_cast<std::int64_t>(indptr[r + 1]) && static_cast<std::int64_t>(idx[lo]) == c) out[k] = data[lo];
  else out[k] = V{};
}

template <class I>
__global__ void offsets_kernel(const I* __restrict__ indptr, const I* __restrict__ idx,
                               const std::int64_t* __restrict__ pi, const std::int64_t* __restrict__ pj, std::int64_t n,
                               std::int64_t* __restrict__ out, int* __restrict__ dup) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::int64_t r = pi[k], c = pj[k];
  std::int64_t found = -1;
  for (std::int64_t e = indptr[r]; e < static_cast<std::int64_t>(indptr[r + 1]); ++e) {
    if (static_cast<std::int64_t>(idx[e]) == c) {
      if (found >= 0) {
        *dup = 1;
        break;
      }
      found = e;
    }
  }
  out[k] = found;
}

__global__ void scatter_claim(const std::int64_t* __restrict__ off, std::int64_t n, long long* __restrict__ win) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n || off[k] < 0) return;
  atomicMax(win + off[k], static_cast<long long>(k));
}

template <class V>
__global__ void scatter_write(const std::int64_t* __restrict__ off, std::int64_t n, const long long* __restrict__ win,
                              const V* __restrict__ x, V* __restrict__ data) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::int64_t o = off[k];
  if (o < 0 || win[o] != static_cast<long long>(k)) return;
  data[o] = x[k];
}

// ---- reshape, filter, padding, DIA --------------------------------------------------------------
template <class I, class O>
__global__ void reshape_kernel(const I* __restrict__ row, const I* __restrict__ col, std::int64_t nnz, std::int64_t m0,
                               std::int64_t n0, std::int64_t m1, std::int64_t n1, bool f_order, O* __restrict__ orow,
                               O* __restrict__ ocol) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  const std::int64_t r = row[k], c = col[k];
  if (f_order) {
    const std::int64_t flat = r + c * m0;
    orow[k] = static_cast<O>(flat % m1);
    ocol[k] = static_cast<O>(flat / m1);
  } else {
    const std::int64_t flat = r * n0 + c;
    orow[k] = static_cast<O>(flat / n1);
    ocol[k] = static_cast<O>(flat % n1);
  }
}

template <class I>
__global__ void filter_flags(const I* __restrict__ row, const I* __restrict__ col, std::int64_t nnz, std::int64_t m,
                             std::int64_t n, unsigned char* __restrict__ flags) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  flags[k] = static_cast<std::int64_t>(row[k]) < m && static_cast<std::int64_t>(col[k]) < n;
}

template <class I>
__global__ void pad_kernel(const I* __restrict__ in, std::int64_t k, I* __restrict__ out, std::int64_t n) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > n) return;
  out[t] = in[t < k ? t : k];
}

template <class I, class V>
__global__ void dia_clear_kernel(V* __restrict__ data, const I* __restrict__ off, std::int64_t nd, std::int64_t L,
                                 std::int64_t old_rows) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= nd * L) return;
  const std::int64_t d = t / L, c = t - d * L;
  if (static_cast<std::int64_t>(off[d]) + old_rows <= c) data[t] = V{};
}

template <class T>
void select_flagged(const T* in, const unsigned char* flags, T* out, std::int64_t* count, std::int64_t n, cudaStream_t s) {
  std::size_t bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, bytes, in, flags, out, count, n, s));
  device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
  CUSCI_CUDA_TRY(cub::DeviceSelect::Flagged(tmp.data(), bytes, in, flags, out, count, n, s));
}

}  // namespace

compressed access_gather_major(const compressed& a, const ndarray& sel) {
  cudaStream_t s = get_current_stream();
  const std::int64_t k = sel.size();
  const cusci::dtype it = a.indices.dtype();
  return by_index(it, [&](auto itag) -> compressed {
    using I = decltype(itag);
    device_buffer<std::int64_t> pos(static_cast<std::size_t>(k + 1), s);
    gather_count<I><<<blocks_for(k + 1), threads, 0, s>>>(a.indptr.data_as<I>(), sel.data_as<std::int64_t>(), k,
                                                           pos.data());
    CUSCI_CHECK_LAUNCH();
    inclusive_scan(pos.data(), k + 1, s);
    const std::int64_t nnz = read_back(pos.data() + k, s);
    check_fits<I>(nnz);
    compressed out{empty({nnz}, a.data.dtype()), empty({nnz}, it), empty({k + 1}, it)};
    if (k == 0) {
      CUSCI_CUDA_TRY(cudaMemsetAsync(out.indptr.data(), 0, sizeof(I), s));
      return out;
    }
    by_size(a.data.itemsize(), [&](auto vtag) {
      using V = decltype(vtag);
      const std::int64_t total = k * 32;
      gather_copy<I, V><<<blocks_for(total), threads, 0, s>>>(
          a.indptr.data_as<I>(), a.indices.data_as<I>(), a.data.data_as<V>(), sel.data_as<std::int64_t>(), k, pos.data(),
          out.indptr.data_as<I>(), out.indices.data_as<I>(), out.data.data_as<V>());
      CUSCI_CHECK_LAUNCH();
    });
    return out;
  });
}

compressed access_select_minor(const compressed& a, const ndarray& offsets, const ndarray& order) {
  cudaStream_t s = get_current_stream();
  const std::int64_t n_major = a.indptr.size() - 1;
  const cusci::dtype it = a.indices.dtype();
  return by_index(it, [&](auto itag) -> compressed {
    using I = decltype(itag);
    device_buffer<std::int64_t> pos(static_cast<std::size_t>(n_major + 1), s);
    minor_count<I><<<blocks_for(n_major + 1), threads, 0, s>>>(a.indptr.data_as<I>(), a.indices.data_as<I>(), n_major,
                                                                offsets.data_as<std::int64_t>(), pos.data());
    CUSCI_CHECK_LAUNCH();
    inclusive_scan(pos.data(), n_major + 1, s);
    const std::int64_t nnz = read_back(pos.data() + n_major, s);
    check_fits<I>(nnz);
    compressed out{empty({nnz}, a.data.dtype()), empty({nnz}, it), empty({n_major + 1}, it)};
    if (n_major == 0) {
      CUSCI_CUDA_TRY(cudaMemsetAsync(out.indptr.data(), 0, sizeof(I), s));
      return out;
    }
    by_size(a.data.itemsize(), [&](auto vtag) {
      using V = decltype(vtag);
      minor_fill<I, V><<<blocks_for(n_major), threads, 0, s>>>(
          a.indptr.data_as<I>(), a.indices.data_as<I>(), a.data.data_as<V>(), n_major, offsets.data_as<std::int64_t>(),
          order.data_as<std::int64_t>(), pos.data(), out.indptr.data_as<I>(), out.indices.data_as<I>(),
          out.data.data_as<V>());
      CUSCI_CHECK_LAUNCH();
    });
    return out;
  });
}

ndarray access_sample(const compressed& a, const ndarray& i, const ndarray& j) {
  cudaStream_t s = get_current_stream();
  const std::int64_t n = i.size();
  ndarray out = empty({n}, a.data.dtype());
  if (n == 0) return out;
  by_index(a.indices.dtype(), [&](auto itag) {
    using I = decltype(itag);
    cusci::detail::dispatch(a.data.dtype(), [&](auto vtag) {
      using T = typename decltype(vtag)::type;
      sample_kernel<I, T><<<blocks_for(n), threads, 0, s>>>(a.indptr.data_as<I>(), a.indices.data_as<I>(),
                                                             a.data.data_as<T>(), i.data_as<std::int64_t>(),
                                                             j.data_as<std::int64_t>(), n, out.data_as<T>());
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

ndarray access_sample_sorted(const compressed& a, const ndarray& i, const ndarray& j) {
  cudaStream_t s = get_current_stream();
  const std::int64_t n = i.size();
  ndarray out = empty({n}, a.data.dtype());
  if (n == 0) return out;
  by_index(a.indices.dtype(), [&](auto itag) {
    using I = decltype(itag);
    by_size(a.data.itemsize(), [&](auto vtag) {
      using V = decltype(vtag);
      sample_sorted_kernel<I, V><<<blocks_for(n), threads, 0, s>>>(a.indptr.data_as<I>(), a.indices.data_as<I>(),
                                                                   a.data.data_as<V>(), i.data_as<std::int64_t>(),
                                                                   j.data_as<std::int64_t>(), n, out.data_as<V>());
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

ndarray access_offsets(const compressed& a, const ndarray& i, const ndarray& j, bool& duplicate) {
  cudaStream_t s = get_current_stream();
  const std::int64_t n = i.size();
  ndarray out = empty({n}, cusci::dtype::int64);
  duplicate = false;
  if (n == 0) return out;
  device_buffer<int> flag(1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(flag.data(), 0, sizeof(int), s));
  by_index(a.indices.dtype(), [&](auto itag) {
    using I = decltype(itag);
    offsets_kernel<I><<<blocks_for(n), threads, 0, s>>>(a.indptr.data_as<I>(), a.indices.data_as<I>(),
                                                        i.data_as<std::int64_t>(), j.data_as<std::int64_t>(), n,
                                                        out.data_as<std::int64_t>(), flag.data());
    CUSCI_CHECK_LAUNCH();
  });
  int h = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, flag.data(), sizeof h, cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  duplicate = h != 0;
  return out;
}

void access_scatter_last(const ndarray& data, const ndarray& off, const ndarray& x) {
  cudaStream_t s = get_current_stream();
  const std::int64_t n = off.size(), nnz = data.size();
  if (n == 0 || nnz == 0) return;
  device_buffer<long long> win(static_cast<std::size_t>(nnz), s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(win.data(), 0xff, static_cast<std::size_t>(nnz) * sizeof(long long), s));  // -1
  scatter_claim<<<blocks_for(n), threads, 0, s>>>(off.data_as<std::int64_t>(), n, win.data());
  CUSCI_CHECK_LAUNCH();
  by_size(data.itemsize(), [&](auto vtag) {
    using V = decltype(vtag);
    scatter_write<V><<<blocks_for(n), threads, 0, s>>>(off.data_as<std::int64_t>(), n, win.data(), x.data_as<V>(),
                                                       data.data_as<V>());
    CUSCI_CHECK_LAUNCH();
  });
}

std::pair<ndarray, ndarray> access_reshape_coo(const ndarray& row, const ndarray& col, shape2 from, shape2 to,
                                               bool f_order, cusci::dtype out) {
  cudaStream_t s = get_current_stream();
  const std::int64_t nnz = row.size();
  ndarray r = empty({nnz}, out), c = empty({nnz}, out);
  if (nnz == 0) return {r, c};
  by_index(row.dtype(), [&](auto itag) {
    using I = decltype(itag);
    by_index(out, [&](auto otag) {
      using O = decltype(otag);
      reshape_kernel<I, O><<<blocks_for(nnz), threads, 0, s>>>(row.data_as<I>(), col.data_as<I>(), nnz, from[0], from[1],
                                                               to[0], to[1], f_order, r.data_as<O>(), c.data_as<O>());
      CUSCI_CHECK_LAUNCH();
    });
  });
  return {r, c};
}

void access_coo_filter(ndarray& data, ndarray& row, ndarray& col, std::int64_t m, std::int64_t n) {
  cudaStream_t s = get_current_stream();
  const std::int64_t nnz = row.size();
  if (nnz == 0) return;
  device_buffer<unsigned char> flags(static_cast<std::size_t>(nnz), s);
  device_buffer<std::int64_t> count(1, s);
  ndarray d2 = empty({nnz}, data.dtype()), r2 = empty({nnz}, row.dtype()), c2 = empty({nnz}, col.dtype());
  by_index(row.dtype(), [&](auto itag) {
    using I = decltype(itag);
    filter_flags<I><<<blocks_for(nnz), threads, 0, s>>>(row.data_as<I>(), col.data_as<I>(), nnz, m, n, flags.data());
    CUSCI_CHECK_LAUNCH();
    select_flagged(row.data_as<I>(), flags.data(), r2.data_as<I>(), count.data(), nnz, s);
    select_flagged(col.data_as<I>(), flags.data(), c2.data_as<I>(), count.data(), nnz, s);
  });
  by_size(data.itemsize(), [&](auto vtag) {
    using V = decltype(vtag);
    select_flagged(data.data_as<V>(), flags.data(), d2.data_as<V>(), count.data(), nnz, s);
  });
  const std::int64_t kept = read_back(count.data(), s);
  auto head = [](const ndarray& a, std::int64_t k) {
    return ndarray(a.memory(), a.dtype(), shape_t{k}, shape_t{static_cast<std::int64_t>(a.itemsize())}, a.offset(),
                   a.device());
  };
  data = head(d2, kept);
  row = head(r2, kept);
  col = head(c2, kept);
}

ndarray access_pad_indptr(const ndarray& indptr, std::int64_t n_major) {
  cudaStream_t s = get_current_stream();
  const std::int64_t k = indptr.size() - 1;
  ndarray out = empty({n_major + 1}, indptr.dtype());
  by_index(indptr.dtype(), [&](auto itag) {
    using I = decltype(itag);
    pad_kernel<I><<<blocks_for(n_major + 1), threads, 0, s>>>(indptr.data_as<I>(), k, out.data_as<I>(), n_major);
    CUSCI_CHECK_LAUNCH();
  });
  return out;
}

void access_dia_clear(const ndarray& data, const ndarray& offsets, std::int64_t old_rows) {
  cudaStream_t s = get_current_stream();
  const std::int64_t nd = data.shape()[0], L = data.shape()[1];
  if (nd * L == 0) return;
  by_index(offsets.dtype(), [&](auto itag) {
    using I = decltype(itag);
    by_size(data.itemsize(), [&](auto vtag) {
      using V = decltype(vtag);
      dia_clear_kernel<I, V><<<blocks_for(nd * L), threads, 0, s>>>(data.data_as<V>(), offsets.data_as<I>(), nd, L,
                                                                    old_rows);
      CUSCI_CHECK_LAUNCH();
    });
  });
}

}  // namespace cusci::sparse::detail
