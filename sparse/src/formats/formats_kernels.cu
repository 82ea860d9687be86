// Device side of the sparse formats: sorting of (major, minor) keys with a permutation payload,
// duplicate summation, compaction, compression/expansion of index pointers, dense <-> COO,
// DIA and BSR conversions, and the sortedness checks (CSR <-> CSC: formats_transpose.cu).
//
// Dispatch: data movement (gathers, scatters) is instantiated by item size (1, 2, 4, 8, 16 bytes);
// arithmetic (duplicate sums, zero tests) by "value kind" (bool, unsigned integers of 1/2/4/8 bytes —
// signed addition wraps to the same bits —, float32, float64, complex64, complex128); indices by
// int32/int64. Sorting is one CUB radix sort of a packed 64-bit (major, minor) key with an int32 or
// int64 position payload; values follow through one gather.

#include <cstdint>
#include <string>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::detail {
namespace {

using cusci::detail::grid_for;

template <class T>
struct tag {
  using type = T;
};

#define CUSCI_GRID_LOOP(i, n)                                                                  \
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

template <class F>
void dispatch_index(dtype t, F&& f) {
  if (t == dtype::int32) return f(tag<std::int32_t>{});
  if (t == dtype::int64) return f(tag<std::int64_t>{});
  throw type_error("cusci::sparse: internal index dtype must be int32 or int64, got " + std::string(dtype_name(t)));
}

struct alignas(16) item16 {
  unsigned long long a, b;
};

template <class F>
void dispatch_size(std::size_t s, F&& f) {
  switch (s) {
    case 1: return f(tag<std::uint8_t>{});
    case 2: return f(tag<std::uint16_t>{});
    case 4: return f(tag<std::uint32_t>{});
    case 8: return f(tag<std::uint64_t>{});
    case 16: return f(tag<item16>{});
  }
  throw type_error("cusci::sparse: internal item size " + std::to_string(s));
}

// Value kinds: storage type T, addition and zero test.
struct kind_bool {
  using T = std::uint8_t;
  __device__ static T add(T a, T b) { return static_cast<T>((a | b) != 0); }
  __device__ static bool nz(T a) { return a != 0; }
};
template <class U>
struct kind_uint {
  using T = U;
  __device__ static T add(T a, T b) { return static_cast<T>(a + b); }
  __device__ static bool nz(T a) { return a != 0; }
};
template <class F>
struct kind_float {
  using T = F;
  __device__ static T add(T a, T b) { return a + b; }
  __device__ static bool nz(T a) { return a != T(0); }
};
struct kind_c64 {
  using T = float2;
  __device__ static T add(T a, T b) { return make_float2(a.x + b.x, a.y + b.y); }
  __device__ static bool nz(T a) { return a.x != 0.0f || a.y != 0.0f; }
};
struct kind_c128 {
  using T = double2;
  __device__ static T add(T a, T b) { return make_double2(a.x + b.x, a.y + b.y); }
  __device__ static bool nz(T a) { return a.x != 0.0 || a.y != 0.0; }
};

template <class F>
void dispatch_kind(dtype t, F&& f) {
  switch (t) {
    case dtype::bool_: return f(tag<kind_bool>{});
    case dtype::int8: case dtype::uint8: return f(tag<kind_uint<std::uint8_t>>{});
    case dtype::int16: case dtype::uint16: return f(tag<kind_uint<std::uint16_t>>{});
    case dtype::int32: case dtype::uint32: return f(tag<kind_uint<std::uint32_t>>{});
    case dtype::int64: case dtype::uint64: return f(tag<kind_uint<std::uint64_t>>{});
    case dtype::float32: return f(tag<kind_float<float>>{});
    case dtype::float64: return f(tag<kind_float<double>>{});
    case dtype::complex64: return f(tag<kind_c64>{});
    case dtype::complex128: return f(tag<kind_c128>{});
    default: break;
  }
  throw type_error("cusci::sparse: scipy.sparse does not support dtype " + std::string(dtype_name(t)));
}

int bits_for(std::int64_t v) {  // bits to represent values in [0, v]
  int b = 0;
  while (b < 63 && (v >> b) != 0) ++b;
  return b;
}

template <class T>
T read_one(const T* p, cudaStream_t s) {
  T h{};
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, p, sizeof(T), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

// ---------------------------------------------------------------------------------------------------
// kernels

template <class I>
__global__ void k_pack_keys(const I* __restrict__ major, const I* __restrict__ minor, std::int64_t n, int mbits,
                            unsigned long long* __restrict__ keys) {
  CUSCI_GRID_LOOP(i, n) {
    const unsigned long long a = static_cast<unsigned long long>(major[i]);
    const unsigned long long b = static_cast<unsigned long long>(minor[i]);
    keys[i] = mbits >= 64 ? b : ((a << mbits) | b);
  }
}

template <class P>
__global__ void k_iota(P* __restrict__ p, std::int64_t n) {
  CUSCI_GRID_LOOP(i, n) p[i] = static_cast<P>(i);
}

// out[i * w + e] = in[perm[i] * w + e]
template <class T, class P>
__global__ void k_gather(const T* __restrict__ in, const P* __restrict__ perm, std::int64_t n, std::int64_t w,
                         T* __restrict__ out) {
  const std::int64_t total = n * w;
  CUSCI_GRID_LOOP(t, total) {
    const std::int64_t i = t / w, e = t - i * w;
    out[t] = in[static_cast<std::int64_t>(perm[i]) * w + e];
  }
}

// head[i] = 1 when key i starts a run of equal keys.
__global__ void k_heads(const unsigned long long* __restrict__ keys, std::int64_t n, std::int64_t* __restrict__ head) {
  CUSCI_GRID_LOOP(i, n) head[i] = (i == 0 || keys[i] != keys[i - 1]) ? 1 : 0;
}

// For each run start i (head), sums the run's gathered values (w values per entry) into out[pos[i]],
// and writes the run's key to out_keys[pos[i]]. pos: exclusive scan of head.
template <class K>
__global__ void k_reduce_runs(const unsigned long long* __restrict__ keys, const std::int64_t* __restrict__ pos,
                              std::int64_t n, std::int64_t w, const typename K::T* __restrict__ vals,
                              typename K::T* __restrict__ out, unsigned long long* __restrict__ out_keys) {
  using T = typename K::T;
  CUSCI_GRID_LOOP(i, n) {
    const unsigned long long k = keys[i];
    if (i > 0 && keys[i - 1] == k) continue;
    std::int64_t end = i + 1;
    while (end < n && keys[end] == k) ++end;
    const std::int64_t p = pos[i];
    out_keys[p] = k;
    for (std::int64_t e = 0; e < w; ++e) {
      T s = vals[i * w + e];
      for (std::int64_t j = i + 1; j < end; ++j) s = K::add(s, vals[j * w + e]);
      out[p * w + e] = s;
    }
  }
}

template <class I>
__global__ void k_unpack_keys(const unsigned long long* __restrict__ keys, std::int64_t n, int mbits,
                              I* __restrict__ major, I* __restrict__ minor) {
  const unsigned long long mask = mbits >= 64 ? ~0ull : ((1ull << mbits) - 1ull);
  CUSCI_GRID_LOOP(i, n) {
    const unsigned long long k = keys[i];
    if (major) major[i] = static_cast<I>(mbits >= 64 ? 0ull : (k >> mbits));
    minor[i] = static_cast<I>(k & mask);
  }
}

// indptr[r] = first position p with major[p] >= r (major sorted), r in [0, m].
template <class I>
__global__ void k_compress(const I* __restrict__ major, std::int64_t n, std::int64_t m, I* __restrict__ indptr) {
  CUSCI_GRID_LOOP(r, m + 1) {
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (static_cast<std::int64_t>(major[mid]) < r) lo = mid + 1;
      else hi = mid;
    }
    indptr[r] = static_cast<I>(lo);
  }
}

// Thread per major slice: writes its index to each of its entries.
template <class I>
__global__ void k_expand_by_row(const I* __restrict__ indptr, std::int64_t m, I* __restrict__ out) {
  CUSCI_GRID_LOOP(r, m) {
    const std::int64_t b = indptr[r], e = indptr[r + 1];
    for (std::int64_t j = b; j < e; ++j) out[j] = static_cast<I>(r);
  }
}

// flags for compaction: nonzero values (w values per entry: any nonzero keeps the entry).
template <class K>
__global__ void k_nonzero_flags(const typename K::T* __restrict__ v, std::int64_t n, std::int64_t w,
                                std::int64_t* __restrict__ flag) {
  CUSCI_GRID_LOOP(i, n) {
    bool keep = false;
    for (std::int64_t e = 0; e < w && !keep; ++e) keep = K::nz(v[i * w + e]);
    flag[i] = keep ? 1 : 0;
  }
}

// idx[pos[i]] = i for kept entries (flag from pos difference); pos has n + 1 entries.
template <class P>
__global__ void k_select(const std::int64_t* __restrict__ pos, std::int64_t n, P* __restrict__ idx) {
  CUSCI_GRID_LOOP(i, n) if (pos[i + 1] != pos[i]) idx[pos[i]] = static_cast<P>(i);
}

template <class I>
__global__ void k_remap_indptr(const I* __restrict__ indptr, std::int64_t m, const std::int64_t* __restrict__ pos,
                               I* __restrict__ out) {
  CUSCI_GRID_LOOP(r, m + 1) out[r] = static_cast<I>(pos[static_cast<std::int64_t>(indptr[r])]);
}

// Dense (C-contiguous [m, n]) nonzero flags.
template <class K>
__global__ void k_dense_flags(const typename K::T* __restrict__ d, std::int64_t total, std::int64_t* __restrict__ flag) {
  CUSCI_GRID_LOOP(i, total) flag[i] = K::nz(d[i]) ? 1 : 0;
}

template <class T, class I>
__global__ void k_dense_select(const T* __restrict__ d, const std::int64_t* __restrict__ pos, std::int64_t total,
                               std::int64_t n, I* __restrict__ row, I* __restrict__ col, T* __restrict__ out) {
  CUSCI_GRID_LOOP(i, total) {
    const std::int64_t p = pos[i];
    if (pos[i + 1] != p) {
      row[p] = static_cast<I>(i / n);
      col[p] = static_cast<I>(i % n);
      out[p] = d[i];
    }
  }
}

template <class T, class I>
__global__ void k_scatter(const T* __restrict__ v, const I* __restrict__ row, const I* __restrict__ col,
                          std::int64_t nnz, std::int64_t rs, std::int64_t cs, T* __restrict__ out) {
  CUSCI_GRID_LOOP(i, nnz) out[static_cast<std::int64_t>(row[i]) * rs + static_cast<std::int64_t>(col[i]) * cs] = v[i];
}

// Sortedness of the minor indices within each major slice: flags bit 1 unsorted (a decrease), bit 2 a
// repeat (not strictly increasing).
template <class I>
__global__ void k_check_sorted(const I* __restrict__ indptr, const I* __restrict__ ind, std::int64_t m,
                               unsigned* flags) {
  unsigned f = 0;
  CUSCI_GRID_LOOP(r, m) {
    const std::int64_t b = indptr[r], e = indptr[r + 1];
    for (std::int64_t j = b + 1; j < e; ++j) {
      if (ind[j] < ind[j - 1]) f |= 1u;
      else if (ind[j] == ind[j - 1]) f |= 2u;
    }
  }
  if (f) atomicOr(flags, f);
}

// DIA -> COO flags/count: entry (k, j) in the matrix and nonzero.
template <class K, class I>
__global__ void k_dia_flags(const typename K::T* __restrict__ data, const I* __restrict__ offsets, std::int64_t nd,
                            std::int64_t L, std::int64_t m, std::int64_t n, std::int64_t* __restrict__ flag) {
  CUSCI_GRID_LOOP(t, nd * L) {
    const std::int64_t k = t / L, j = t - k * L;
    const std::int64_t r = j - static_cast<std::int64_t>(offsets[k]);
    flag[t] = (r >= 0 && r < m && j < n && K::nz(data[t])) ? 1 : 0;
  }
}

template <class T, class I>
__global__ void k_dia_select(const T* __restrict__ data, const I* __restrict__ offsets, std::int64_t nd,
                             std::int64_t L, const std::int64_t* __restrict__ pos, I* __restrict__ row,
                             I* __restrict__ col, T* __restrict__ out) {
  CUSCI_GRID_LOOP(t, nd * L) {
    const std::int64_t p = pos[t];
    if (pos[t + 1] != p) {
      const std::int64_t k = t / L, j = t - k * L;
      row[p] = static_cast<I>(j - static_cast<std::int64_t>(offsets[k]));
      col[p] = static_cast<I>(j);
      out[p] = data[t];
    }
  }
}

// COO (no duplicates) -> DIA: presence of each diagonal d = col - row + (m - 1) in [0, m + n - 1).
template <class I>
__global__ void k_diag_present(const I* __restrict__ row, const I* __restrict__ col, std::int64_t nnz, std::int64_t m,
                               std::int64_t* __restrict__ present) {
  CUSCI_GRID_LOOP(i, nnz) {
    present[static_cast<std::int64_t>(col[i]) - static_cast<std::int64_t>(row[i]) + m - 1] = 1;
  }
}

template <class I>
__global__ void k_diag_offsets(const std::int64_t* __restrict__ pos, std::int64_t nd_all, std::int64_t m,
                               I* __restrict__ offsets) {
  CUSCI_GRID_LOOP(d, nd_all) if (pos[d + 1] != pos[d]) offsets[pos[d]] = static_cast<I>(d - (m - 1));
}

template <class T, class I>
__global__ void k_dia_scatter(const T* __restrict__ v, const I* __restrict__ row, const I* __restrict__ col,
                              std::int64_t nnz, std::int64_t m, const std::int64_t* __restrict__ pos, std::int64_t L,
                              T* __restrict__ out) {
  CUSCI_GRID_LOOP(i, nnz) {
    const std::int64_t c = col[i];
    const std::int64_t k = pos[c - static_cast<std::int64_t>(row[i]) + m - 1];
    out[k * L + c] = v[i];
  }
}

// BSR -> COO (every stored value, block by block, row-major in a block). brow: block row of each block.
template <class T, class I>
__global__ void k_bsr_to_coo(const T* __restrict__ data, const I* __restrict__ bind, const I* __restrict__ brow,
                             std::int64_t nb, std::int64_t R, std::int64_t C, I* __restrict__ row, I* __restrict__ col,
                             T* __restrict__ out) {
  const std::int64_t RC = R * C;
  CUSCI_GRID_LOOP(t, nb * RC) {
    const std::int64_t b = t / RC, e = t - b * RC, r = e / C, c = e - r * C;
    row[t] = static_cast<I>(static_cast<std::int64_t>(brow[b]) * R + r);
    col[t] = static_cast<I>(static_cast<std::int64_t>(bind[b]) * C + c);
    out[t] = data[t];
  }
}

// BSR -> CSR: output position of block b's value (r, c) in block row I: row I*R + r starts at
// bptr[I]*R*C + r * nbI * C; block b is (b - bptr[I])-th in its row.
template <class T, class I>
__global__ void k_bsr_to_csr(const T* __restrict__ data, const I* __restrict__ bind, const I* __restrict__ bptr,
                             const I* __restrict__ brow, std::int64_t nb, std::int64_t R, std::int64_t C,
                             I* __restrict__ ind, T* __restrict__ out) {
  const std::int64_t RC = R * C;
  CUSCI_GRID_LOOP(t, nb * RC) {
    const std::int64_t b = t / RC, e = t - b * RC, r = e / C, c = e - r * C;
    const std::int64_t I0 = brow[b];
    const std::int64_t p0 = bptr[I0], nbI = static_cast<std::int64_t>(bptr[I0 + 1]) - p0;
    const std::int64_t p = p0 * RC + r * nbI * C + (b - p0) * C + c;
    ind[p] = static_cast<I>(static_cast<std::int64_t>(bind[b]) * C + c);
    out[p] = data[t];
  }
}

template <class I>
__global__ void k_bsr_csr_indptr(const I* __restrict__ bptr, std::int64_t m, std::int64_t R, std::int64_t C,
                                 I* __restrict__ ptr) {
  CUSCI_GRID_LOOP(i, m + 1) {
    if (i == m) {
      ptr[i] = static_cast<I>(static_cast<std::int64_t>(bptr[m / R]) * R * C);
    } else {
      const std::int64_t I0 = i / R, r = i - I0 * R;
      const std::int64_t p0 = bptr[I0], nbI = static_cast<std::int64_t>(bptr[I0 + 1]) - p0;
      ptr[i] = static_cast<I>(p0 * R * C + r * nbI * C);
    }
  }
}

// CSR entries (sorted by block key) -> BSR blocks: block key of each entry.
template <class I>
__global__ void k_block_keys(const I* __restrict__ row, const I* __restrict__ col, std::int64_t n, std::int64_t R,
                             std::int64_t C, int cbits, unsigned long long* __restrict__ keys) {
  CUSCI_GRID_LOOP(i, n) {
    const unsigned long long bi = static_cast<unsigned long long>(static_cast<std::int64_t>(row[i]) / R);
    const unsigned long long bj = static_cast<unsigned long long>(static_cast<std::int64_t>(col[i]) / C);
    keys[i] = cbits >= 64 ? bj : ((bi << cbits) | bj);
  }
}

// Thread per run of equal block keys: sums the run's entries into its block of out (zeroed).
template <class K, class I, class P>
__global__ void k_fill_blocks(const unsigned long long* __restrict__ keys, const std::int64_t* __restrict__ pos,
                              std::int64_t n, const P* __restrict__ perm, const I* __restrict__ row,
                              const I* __restrict__ col, const typename K::T* __restrict__ v, std::int64_t R,
                              std::int64_t C, typename K::T* __restrict__ out, unsigned long long* __restrict__ bkeys) {
  using T = typename K::T;
  CUSCI_GRID_LOOP(i, n) {
    const unsigned long long k = keys[i];
    if (i > 0 && keys[i - 1] == k) continue;
    const std::int64_t b = pos[i];
    bkeys[b] = k;
    T* blk = out + b * R * C;
    for (std::int64_t j = i; j < n && keys[j] == k; ++j) {
      const std::int64_t src = perm[j];
      const std::int64_t r = static_cast<std::int64_t>(row[src]) % R, c = static_cast<std::int64_t>(col[src]) % C;
      blk[r * C + c] = K::add(blk[r * C + c], v[src]);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// host helpers

// Exclusive scan of flags[0..n) into pos[0..n] (pos[n] = total). Returns pos; total read when asked.
device_buffer<std::int64_t> exclusive_scan(const std::int64_t* flags, std::int64_t n, cudaStream_t s) {
  device_buffer<std::int64_t> pos(n + 1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(pos.data(), 0, sizeof(std::int64_t), s));
  if (n > 0) {
    std::size_t bytes = 0;
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, flags, pos.data() + 1, n, s));
    device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveSum(tmp.data(), bytes, flags, pos.data() + 1, n, s));
  }
  return pos;
}

// Gather w-wide items of `in` by a permutation (P int32/int64), into a new array of shape `shape`.
template <class P>
ndarray gather(const ndarray& in, const P* perm, std::int64_t n, std::int64_t w, const shape_t& shape, cudaStream_t s) {
  ndarray out = empty(shape, in.dtype());
  if (n * w == 0) return out;
  dispatch_size(in.itemsize(), [&](auto t) {
    using T = typename decltype(t)::type;
    k_gather<T, P><<<grid_for(n * w), 256, 0, s>>>(static_cast<const T*>(in.data()), perm, n, w,
                                                   static_cast<T*>(out.data()));
    CUSCI_CHECK_LAUNCH();
  });
  return out;
}

shape_t with_lead(const ndarray& a, std::int64_t n) {
  shape_t sh = a.shape();
  if (sh.empty()) sh.push_back(n);
  else sh[0] = n;
  return sh;
}

std::int64_t item_width(const ndarray& a) { return a.shape(0) == 0 ? 1 : a.size() / a.shape(0); }

template <class I>
__global__ void k_compress_keys(const unsigned long long* __restrict__ keys, std::int64_t n, std::int64_t m, int jbits,
                                I* __restrict__ indptr) {
  CUSCI_GRID_LOOP(r, m + 1) {
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const unsigned long long row = jbits >= 64 ? 0ull : (keys[mid] >> jbits);
      if (row < static_cast<unsigned long long>(r)) lo = mid + 1;
      else hi = mid;
    }
    indptr[r] = static_cast<I>(lo);
  }
}

ndarray compress_sorted_keys(const unsigned long long* keys, std::int64_t n, std::int64_t m, int jbits, dtype it,
                             cudaStream_t s) {
  ndarray ptr = empty({m + 1}, it);
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_compress_keys<I><<<grid_for(m + 1), 256, 0, s>>>(keys, n, m, jbits, ptr.data_as<I>());
    CUSCI_CHECK_LAUNCH();
  });
  return ptr;
}

// Sorts (major, minor, values [n, ...]) by the key (major, minor), stably; optionally sums runs.
// Returns the sorted/reduced arrays; synchronizes when summing.
sorted_entries sort_impl(const ndarray& vals, const ndarray& major, const ndarray& minor, std::int64_t n_major,
                         std::int64_t n_minor, bool sum, bool want_major) {
  const std::int64_t n = major.size();
  const dtype it = major.dtype();
  cudaStream_t s = get_current_stream();
  sorted_entries out;
  if (n == 0) {
    out.data = vals;
    out.major = major;
    out.minor = minor;
    if (!want_major) out.indptr = zeros({n_major + 1}, it);
    return out;
  }
  const int jbits = bits_for(n_minor > 0 ? n_minor - 1 : 0), ibits = bits_for(n_major > 0 ? n_major - 1 : 0);
  CUSCI_EXPECTS(ibits + jbits <= 64, not_implemented_error,
                "cusci::sparse: shape (" + std::to_string(n_major) + ", " + std::to_string(n_minor) +
                    ") needs more than 64 bits of (row, col) key");
  const int end_bit = ibits + jbits > 0 ? ibits + jbits : 1;
  const std::int64_t w = item_width(vals);
  device_buffer<unsigned long long> keys(n, s), skeys(n, s);
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_pack_keys<I><<<grid_for(n), 256, 0, s>>>(major.data_as<I>(), minor.data_as<I>(), n, jbits, keys.data());
    CUSCI_CHECK_LAUNCH();
    auto run = [&](auto ptag) {
      using P = typename decltype(ptag)::type;
      device_buffer<P> perm(n, s), sperm(n, s);
      k_iota<P><<<grid_for(n), 256, 0, s>>>(perm.data(), n);
      CUSCI_CHECK_LAUNCH();
      std::size_t bytes = 0;
      CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.data(), skeys.data(), perm.data(),
                                                     sperm.data(), n, 0, end_bit, s));
      {
        device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
        CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, keys.data(), skeys.data(), perm.data(),
                                                       sperm.data(), n, 0, end_bit, s));
      }
      ndarray g = gather(vals, sperm.data(), n, w, vals.shape(), s);
      std::int64_t nu = n;
      const unsigned long long* fkeys = skeys.data();
      if (sum) {
        device_buffer<std::int64_t> head(n, s);
        k_heads<<<grid_for(n), 256, 0, s>>>(skeys.data(), n, head.data());
        CUSCI_CHECK_LAUNCH();
        device_buffer<std::int64_t> pos = exclusive_scan(head.data(), n, s);
        nu = read_one(pos.data() + n, s);
        if (nu == n) {
          out.data = g;
        } else {
          ndarray red = empty(with_lead(vals, nu), vals.dtype());
          dispatch_kind(vals.dtype(), [&](auto ktag) {
            using K = typename decltype(ktag)::type;
            using T = typename K::T;
            k_reduce_runs<K><<<grid_for(n), 256, 0, s>>>(skeys.data(), pos.data(), n, w,
                                                         static_cast<const T*>(g.data()), static_cast<T*>(red.data()),
                                                         keys.data());
            CUSCI_CHECK_LAUNCH();
          });
          out.data = red;
          fkeys = keys.data();
        }
      } else {
        out.data = g;
      }
      out.minor = empty({nu}, it);
      out.major = want_major ? empty({nu}, it) : ndarray();
      k_unpack_keys<I><<<grid_for(nu), 256, 0, s>>>(fkeys, nu, jbits, want_major ? out.major.data_as<I>() : nullptr,
                                                    out.minor.data_as<I>());
      CUSCI_CHECK_LAUNCH();
      if (!want_major) out.indptr = compress_sorted_keys(fkeys, nu, n_major, jbits, it, s);
    };
    if (n <= 2147483647LL) run(tag<std::int32_t>{});
    else run(tag<std::int64_t>{});
  });
  return out;
}

}  // namespace

sorted_entries sort_entries(const ndarray& vals, const ndarray& major, const ndarray& minor, std::int64_t n_major,
                            std::int64_t n_minor, bool sum, bool compress) {
  return sort_impl(vals, major, minor, n_major, n_minor, sum, !compress);
}

ndarray expand_indptr(const ndarray& indptr, std::int64_t nnz) {
  const dtype it = indptr.dtype();
  ndarray out = empty({nnz}, it);
  const std::int64_t m = indptr.size() - 1;
  if (nnz == 0 || m <= 0) return out;
  // Thread per slice for short slices; the binary-search expansion (load balanced) for long ones.
  if (nnz <= 32 * m) {
    cudaStream_t s = get_current_stream();
    dispatch_index(it, [&](auto itag) {
      using I = typename decltype(itag)::type;
      k_expand_by_row<I><<<grid_for(m), 256, 0, s>>>(indptr.data_as<I>(), m, out.data_as<I>());
      CUSCI_CHECK_LAUNCH();
    });
    return out;
  }
  return csr_expand_rows(indptr, nnz);
}

ndarray compress_major(const ndarray& major_sorted, std::int64_t m) {
  const dtype it = major_sorted.dtype();
  ndarray ptr = empty({m + 1}, it);
  cudaStream_t s = get_current_stream();
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_compress<I><<<grid_for(m + 1), 256, 0, s>>>(major_sorted.data_as<I>(), major_sorted.size(), m, ptr.data_as<I>());
    CUSCI_CHECK_LAUNCH();
  });
  return ptr;
}

compacted compact_nonzero(const ndarray& vals) {
  const std::int64_t n = vals.ndim() == 0 ? 0 : vals.shape(0);
  const std::int64_t w = item_width(vals);
  cudaStream_t s = get_current_stream();
  compacted out;
  device_buffer<std::int64_t> flags(n > 0 ? n : 1, s);
  dispatch_kind(vals.dtype(), [&](auto ktag) {
    using K = typename decltype(ktag)::type;
    if (n > 0) {
      k_nonzero_flags<K><<<grid_for(n), 256, 0, s>>>(static_cast<const typename K::T*>(vals.data()), n, w,
                                                     flags.data());
      CUSCI_CHECK_LAUNCH();
    }
  });
  device_buffer<std::int64_t> pos = exclusive_scan(flags.data(), n, s);
  const std::int64_t kept = read_one(pos.data() + n, s);
  out.kept = kept;
  out.pos = empty({n + 1}, dtype::int64);
  CUSCI_CUDA_TRY(cudaMemcpyAsync(out.pos.data(), pos.data(), (n + 1) * sizeof(std::int64_t), cudaMemcpyDeviceToDevice, s));
  out.index = empty({kept}, dtype::int64);
  if (n > 0) {
    k_select<std::int64_t><<<grid_for(n), 256, 0, s>>>(pos.data(), n, out.index.data_as<std::int64_t>());
    CUSCI_CHECK_LAUNCH();
  }
  return out;
}

ndarray take_rows(const ndarray& a, const ndarray& index) {
  const std::int64_t n = index.size();
  return gather(a, index.data_as<std::int64_t>(), n, item_width(a), with_lead(a, n), get_current_stream());
}

ndarray remap_indptr(const ndarray& indptr, const ndarray& pos) {
  const std::int64_t m = indptr.size() - 1;
  ndarray out = empty({m + 1}, indptr.dtype());
  cudaStream_t s = get_current_stream();
  dispatch_index(indptr.dtype(), [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_remap_indptr<I><<<grid_for(m + 1), 256, 0, s>>>(indptr.data_as<I>(), m, pos.data_as<std::int64_t>(),
                                                      out.data_as<I>());
    CUSCI_CHECK_LAUNCH();
  });
  return out;
}

coo_arrays dense_to_coo(const ndarray& dense, dtype it) {
  const std::int64_t m = dense.shape(0), n = dense.shape(1), total = m * n;
  cudaStream_t s = get_current_stream();
  device_buffer<std::int64_t> flags(total > 0 ? total : 1, s);
  dispatch_kind(dense.dtype(), [&](auto ktag) {
    using K = typename decltype(ktag)::type;
    if (total > 0) {
      k_dense_flags<K><<<grid_for(total), 256, 0, s>>>(static_cast<const typename K::T*>(dense.data()), total,
                                                       flags.data());
      CUSCI_CHECK_LAUNCH();
    }
  });
  device_buffer<std::int64_t> pos = exclusive_scan(flags.data(), total, s);
  const std::int64_t nnz = read_one(pos.data() + total, s);
  coo_arrays out{empty({nnz}, dense.dtype()), empty({nnz}, it), empty({nnz}, it)};
  if (nnz == 0) return out;
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    dispatch_size(dense.itemsize(), [&](auto t) {
      using T = typename decltype(t)::type;
      k_dense_select<T, I><<<grid_for(total), 256, 0, s>>>(static_cast<const T*>(dense.data()), pos.data(), total, n,
                                                           out.row.data_as<I>(), out.col.data_as<I>(),
                                                           static_cast<T*>(out.data.data()));
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

ndarray scatter_dense(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, order ord) {
  ndarray out = zeros({shape[0], shape[1]}, data.dtype(), ord);
  const std::int64_t nnz = data.size();
  if (nnz == 0) return out;
  const std::int64_t rs = ord == order::C ? shape[1] : 1, cs = ord == order::C ? 1 : shape[0];
  cudaStream_t s = get_current_stream();
  dispatch_index(row.dtype(), [&](auto itag) {
    using I = typename decltype(itag)::type;
    dispatch_size(data.itemsize(), [&](auto t) {
      using T = typename decltype(t)::type;
      k_scatter<T, I><<<grid_for(nnz), 256, 0, s>>>(static_cast<const T*>(data.data()), row.data_as<I>(),
                                                    col.data_as<I>(), nnz, rs, cs, static_cast<T*>(out.data()));
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

sortedness check_sorted(const ndarray& indptr, const ndarray& indices) {
  sortedness out;
  const std::int64_t m = indptr.size() - 1;
  if (m <= 0 || indices.size() == 0) return out;
  cudaStream_t s = get_current_stream();
  device_buffer<unsigned> flags(1, s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(flags.data(), 0, sizeof(unsigned), s));
  dispatch_index(indptr.dtype(), [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_check_sorted<I><<<grid_for(m), 256, 0, s>>>(indptr.data_as<I>(), indices.data_as<I>(), m, flags.data());
    CUSCI_CHECK_LAUNCH();
  });
  const unsigned f = read_one(flags.data(), s);
  out.sorted = !(f & 1u);
  out.canonical = f == 0;
  return out;
}

coo_arrays dia_to_coo(const ndarray& data, const ndarray& offsets, shape2 shape, dtype it) {
  const std::int64_t nd = data.shape(0), L = data.shape(1), total = nd * L;
  cudaStream_t s = get_current_stream();
  device_buffer<std::int64_t> flags(total > 0 ? total : 1, s);
  ndarray off = offsets.astype(it, false);
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    dispatch_kind(data.dtype(), [&](auto ktag) {
      using K = typename decltype(ktag)::type;
      if (total > 0) {
        k_dia_flags<K, I><<<grid_for(total), 256, 0, s>>>(static_cast<const typename K::T*>(data.data()),
                                                          off.data_as<I>(), nd, L, shape[0], shape[1], flags.data());
        CUSCI_CHECK_LAUNCH();
      }
    });
  });
  device_buffer<std::int64_t> pos = exclusive_scan(flags.data(), total, s);
  const std::int64_t nnz = read_one(pos.data() + total, s);
  coo_arrays out{empty({nnz}, data.dtype()), empty({nnz}, it), empty({nnz}, it)};
  if (nnz == 0) return out;
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    dispatch_size(data.itemsize(), [&](auto t) {
      using T = typename decltype(t)::type;
      k_dia_select<T, I><<<grid_for(total), 256, 0, s>>>(static_cast<const T*>(data.data()), off.data_as<I>(), nd, L,
                                                         pos.data(), out.row.data_as<I>(), out.col.data_as<I>(),
                                                         static_cast<T*>(out.data.data()));
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

dia_arrays coo_to_dia(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, std::int64_t width) {
  const std::int64_t m = shape[0], n = shape[1], nnz = data.size();
  const std::int64_t nd_all = m + n > 0 ? m + n - 1 : 0;
  cudaStream_t s = get_current_stream();
  const dtype it = row.dtype();
  dia_arrays out;
  device_buffer<std::int64_t> present(nd_all > 0 ? nd_all : 1, s);
  if (nd_all > 0) CUSCI_CUDA_TRY(cudaMemsetAsync(present.data(), 0, nd_all * sizeof(std::int64_t), s));
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    if (nnz > 0) {
      k_diag_present<I><<<grid_for(nnz), 256, 0, s>>>(row.data_as<I>(), col.data_as<I>(), nnz, m, present.data());
      CUSCI_CHECK_LAUNCH();
    }
  });
  device_buffer<std::int64_t> pos = exclusive_scan(present.data(), nd_all, s);
  const std::int64_t nd = read_one(pos.data() + nd_all, s);
  out.offsets = empty({nd}, it);
  out.data = zeros({nd, nd > 0 ? width : 0}, data.dtype());
  if (nd == 0) return out;
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_diag_offsets<I><<<grid_for(nd_all), 256, 0, s>>>(pos.data(), nd_all, m, out.offsets.data_as<I>());
    CUSCI_CHECK_LAUNCH();
    dispatch_size(data.itemsize(), [&](auto t) {
      using T = typename decltype(t)::type;
      k_dia_scatter<T, I><<<grid_for(nnz), 256, 0, s>>>(static_cast<const T*>(data.data()), row.data_as<I>(),
                                                        col.data_as<I>(), nnz, m, pos.data(), width,
                                                        static_cast<T*>(out.data.data()));
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

coo_arrays bsr_to_coo(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t R,
                      std::int64_t C) {
  const std::int64_t nb = indices.size(), total = nb * R * C;
  const dtype it = indices.dtype();
  coo_arrays out{empty({total}, data.dtype()), empty({total}, it), empty({total}, it)};
  if (total == 0) return out;
  ndarray brow = expand_indptr(indptr, nb);
  cudaStream_t s = get_current_stream();
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    dispatch_size(data.itemsize(), [&](auto t) {
      using T = typename decltype(t)::type;
      k_bsr_to_coo<T, I><<<grid_for(total), 256, 0, s>>>(static_cast<const T*>(data.data()), indices.data_as<I>(),
                                                         brow.data_as<I>(), nb, R, C, out.row.data_as<I>(),
                                                         out.col.data_as<I>(), static_cast<T*>(out.data.data()));
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

compressed_arrays bsr_to_csr(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t m,
                             std::int64_t R, std::int64_t C) {
  const std::int64_t nb = indices.size(), total = nb * R * C;
  const dtype it = indices.dtype();
  compressed_arrays out{empty({total}, data.dtype()), empty({total}, it), empty({m + 1}, it)};
  cudaStream_t s = get_current_stream();
  ndarray brow = expand_indptr(indptr, nb);
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_bsr_csr_indptr<I><<<grid_for(m + 1), 256, 0, s>>>(indptr.data_as<I>(), m, R, C, out.indptr.data_as<I>());
    CUSCI_CHECK_LAUNCH();
    if (total == 0) return;
    dispatch_size(data.itemsize(), [&](auto t) {
      using T = typename decltype(t)::type;
      k_bsr_to_csr<T, I><<<grid_for(total), 256, 0, s>>>(static_cast<const T*>(data.data()), indices.data_as<I>(),
                                                         indptr.data_as<I>(), brow.data_as<I>(), nb, R, C,
                                                         out.indices.data_as<I>(), static_cast<T*>(out.data.data()));
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

compressed_arrays coo_to_bsr(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, std::int64_t R,
                             std::int64_t C) {
  const std::int64_t n = data.size(), MB = shape[0] / R, NB = shape[1] / C;
  const dtype it = row.dtype();
  cudaStream_t s = get_current_stream();
  compressed_arrays out;
  if (n == 0) {
    out.data = empty({0, R, C}, data.dtype());
    out.indices = empty({0}, it);
    out.indptr = zeros({MB + 1}, it);
    return out;
  }
  const int jbits = bits_for(NB > 0 ? NB - 1 : 0), ibits = bits_for(MB > 0 ? MB - 1 : 0);
  CUSCI_EXPECTS(ibits + jbits <= 64, not_implemented_error, "cusci::sparse::tobsr: block grid too large");
  const int end_bit = ibits + jbits > 0 ? ibits + jbits : 1;
  device_buffer<unsigned long long> keys(n, s), skeys(n, s);
  device_buffer<std::int64_t> perm(n, s), sperm(n, s), head(n, s);
  dispatch_index(it, [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_block_keys<I><<<grid_for(n), 256, 0, s>>>(row.data_as<I>(), col.data_as<I>(), n, R, C, jbits, keys.data());
    CUSCI_CHECK_LAUNCH();
    k_iota<std::int64_t><<<grid_for(n), 256, 0, s>>>(perm.data(), n);
    CUSCI_CHECK_LAUNCH();
    std::size_t bytes = 0;
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.data(), skeys.data(), perm.data(), sperm.data(),
                                                   n, 0, end_bit, s));
    {
      device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
      CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortPairs(tmp.data(), bytes, keys.data(), skeys.data(), perm.data(),
                                                     sperm.data(), n, 0, end_bit, s));
    }
    k_heads<<<grid_for(n), 256, 0, s>>>(skeys.data(), n, head.data());
    CUSCI_CHECK_LAUNCH();
    device_buffer<std::int64_t> pos = exclusive_scan(head.data(), n, s);
    const std::int64_t nb = read_one(pos.data() + n, s);
    out.data = zeros({nb, R, C}, data.dtype());
    out.indices = empty({nb}, it);
    dispatch_kind(data.dtype(), [&](auto ktag) {
      using K = typename decltype(ktag)::type;
      using T = typename K::T;
      k_fill_blocks<K, I, std::int64_t><<<grid_for(n), 256, 0, s>>>(
          skeys.data(), pos.data(), n, sperm.data(), row.data_as<I>(), col.data_as<I>(),
          static_cast<const T*>(data.data()), R, C, static_cast<T*>(out.data.data()), keys.data());
      CUSCI_CHECK_LAUNCH();
    });
    k_unpack_keys<I><<<grid_for(nb), 256, 0, s>>>(keys.data(), nb, jbits, nullptr, out.indices.data_as<I>());
    CUSCI_CHECK_LAUNCH();
    out.indptr = compress_sorted_keys(keys.data(), nb, MB, jbits, it, s);
  });
  return out;
}

std::int64_t count_blocks(const ndarray& row, const ndarray& col, std::int64_t R, std::int64_t C, shape2 shape) {
  const std::int64_t n = row.size();
  if (n == 0) return 0;
  const std::int64_t MB = (shape[0] + R - 1) / R, NB = (shape[1] + C - 1) / C;
  const int jbits = bits_for(NB > 0 ? NB - 1 : 0), ibits = bits_for(MB > 0 ? MB - 1 : 0);
  const int end_bit = ibits + jbits > 0 ? ibits + jbits : 1;
  cudaStream_t s = get_current_stream();
  device_buffer<unsigned long long> keys(n, s), skeys(n, s);
  device_buffer<std::int64_t> head(n, s);
  std::int64_t nb = 0;
  dispatch_index(row.dtype(), [&](auto itag) {
    using I = typename decltype(itag)::type;
    k_block_keys<I><<<grid_for(n), 256, 0, s>>>(row.data_as<I>(), col.data_as<I>(), n, R, C, jbits, keys.data());
    CUSCI_CHECK_LAUNCH();
    std::size_t bytes = 0;
    CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys.data(), skeys.data(), n, 0, end_bit, s));
    {
      device_buffer<unsigned char> tmp(bytes > 0 ? bytes : 1, s);
      CUSCI_CUDA_TRY(cub::DeviceRadixSort::SortKeys(tmp.data(), bytes, keys.data(), skeys.data(), n, 0, end_bit, s));
    }
    k_heads<<<grid_for(n), 256, 0, s>>>(skeys.data(), n, head.data());
    CUSCI_CHECK_LAUNCH();
    device_buffer<std::int64_t> pos = exclusive_scan(head.data(), n, s);
    nb = read_one(pos.data() + n, s);
  });
  return nb;
}

}  // namespace cusci::sparse::detail
