/// @file indexing.cu
/// Advanced indexing (integer arrays, boolean masks; read and assignment), take, put, compress,
/// extract, place, putmask, diagonal, diag, tril/triu and the triangle index functions.
///
/// Kernels move raw items of 1, 2, 4, 8 or 16 bytes (never dtype arithmetic), so every dtype, float16
/// included, shares five instantiations of each kernel.
///
/// * Integer-array indexing: one grid-stride kernel over the C-ordered result. Each result index is
///   unravelled once; the source offset is the sum of the basic (sliced) axes' terms and one term per
///   index array (each read through its own broadcast strides). Out-of-range indices in `raise` mode
///   set a status word (first offender kept with atomicCAS); the host reads it back after the kernel:
///   that read is the one synchronization of an integer-array operation.
/// * Boolean masks: tiles of 4096 elements (8 warps x 16 rounds x 32 lanes, lane-striped so loads and
///   stores coalesce). Pass 1 counts each tile's true flags (warp ballots), CUB's exclusive scan turns
///   the counts into tile offsets, the total is read back (the one synchronization of a mask read), and
///   pass 2 recomputes the ballots and writes each selected item at tile offset + warp prefix + rank in
///   the ballot. The same pass writes coordinates (nonzero) or scatters values (assignment).

#include <algorithm>
#include <cstring>
#include <string>
#include <variant>

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "cusci/device.hpp"
#include "cusci/detail/copy.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "indexing/indexing_common.cuh"
#include "indexing/indexing_internal.hpp"

namespace cusci {
namespace detail::ix {
namespace {

constexpr int block_size = 256;
constexpr int max_adv = 16;

// ---------------------------------------------------------------------------------------------
// Out-of-bounds status

struct oob_status {
  unsigned int flag;
  int axis;
  long long index;
  long long size;
};

__device__ __forceinline__ void report_oob(oob_status* st, int axis, long long index, long long size) {
  if (atomicCAS(&st->flag, 0u, 1u) == 0u) {
    st->axis = axis;
    st->index = index;
    st->size = size;
  }
}

/// Device status word; `check` reads it back (synchronizes the current stream) and throws.
class oob_checker {
 public:
  explicit oob_checker(cudaStream_t s) : stream_(s), buf_(1, s) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(buf_.data(), 0, sizeof(oob_status), s));
  }
  oob_status* get() const { return buf_.data(); }
  void check(const char* fn) const {
    oob_status h{};
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, buf_.data(), sizeof(h), cudaMemcpyDeviceToHost, stream_));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(stream_));
    if (h.flag)
      throw index_error(std::string(fn) + ": index " + std::to_string(h.index) + " is out of bounds for axis " +
                        std::to_string(h.axis) + " with size " + std::to_string(h.size));
  }

 private:
  cudaStream_t stream_;
  device_buffer<oob_status> buf_;
};

// ---------------------------------------------------------------------------------------------
// Integer-array gather / scatter

struct adv_params {
  int nd;     // result dimensions
  int n_idx;  // index entries
  int mode;   // clip_mode
  std::int64_t shape[max_kernel_dims];
  std::int64_t src_stride[max_kernel_dims];  // bytes, 0 on the broadcast-index dimensions
  std::int64_t val_stride[max_kernel_dims];  // scatter values, bytes
  const char* idx_ptr[max_adv];              // int64 data; nullptr: constant idx_const
  std::int64_t idx_const[max_adv];
  std::int64_t idx_stride[max_adv][max_kernel_dims];  // bytes per result dimension
  std::int64_t axis_len[max_adv];
  std::int64_t axis_stride[max_adv];
  int axis_id[max_adv];
};

__device__ __forceinline__ bool fix_index(std::int64_t& j, std::int64_t len, int mode, oob_status* st, int axis) {
  if (mode == static_cast<int>(clip_mode::wrap)) {
    j %= len;
    if (j < 0) j += len;
  } else if (mode == static_cast<int>(clip_mode::clip)) {
    j = j < 0 ? 0 : (j >= len ? len - 1 : j);
  } else {
    if (j < -len || j >= len) {
      report_oob(st, axis, j, len);
      return false;
    }
    if (j < 0) j += len;
  }
  return true;
}

template <class U, bool Scatter>
__global__ void adv_kernel(char* base, const char* __restrict__ vals, U* __restrict__ out, std::int64_t n,
                           const adv_params p, oob_status* st) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    std::int64_t ioff[max_adv];
    for (int k = 0; k < p.n_idx; ++k) ioff[k] = 0;
    std::int64_t src = 0, voff = 0, rem = i;
    for (int d = p.nd - 1; d >= 0; --d) {
      std::int64_t c;
      if (d > 0) {
        const std::int64_t q = rem / p.shape[d];
        c = rem - q * p.shape[d];
        rem = q;
      } else {
        c = rem;
      }
      src += c * p.src_stride[d];
      if constexpr (Scatter) voff += c * p.val_stride[d];
      for (int k = 0; k < p.n_idx; ++k) ioff[k] += c * p.idx_stride[k][d];
    }
    bool ok = true;
    for (int k = 0; k < p.n_idx; ++k) {
      std::int64_t j = p.idx_ptr[k] ? *reinterpret_cast<const std::int64_t*>(p.idx_ptr[k] + ioff[k]) : p.idx_const[k];
      if (!fix_index(j, p.axis_len[k], p.mode, st, p.axis_id[k])) {
        ok = false;
        break;
      }
      src += j * p.axis_stride[k];
    }
    if (!ok) continue;
    if constexpr (Scatter) *reinterpret_cast<U*>(base + src) = *reinterpret_cast<const U*>(vals + voff);
    else out[i] = *reinterpret_cast<const U*>(base + src);
  }
}

/// 1-D take: out[i] = a[idx[i]] (the common case, no unravelling).
template <class U>
__global__ void take1_kernel(const char* __restrict__ base, std::int64_t astride, std::int64_t len,
                             const std::int64_t* __restrict__ idx, U* __restrict__ out, std::int64_t n, int mode,
                             oob_status* st, int axis) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    std::int64_t j = idx[i];
    if (!fix_index(j, len, mode, st, axis)) continue;
    out[i] = *reinterpret_cast<const U*>(base + j * astride);
  }
}

// ---------------------------------------------------------------------------------------------
// Boolean masks

constexpr int warps_per_block = block_size / 32;
constexpr int rounds = 16;
constexpr int warp_items = rounds * 32;                 // 512
constexpr int tile_items = warps_per_block * warp_items;  // 4096

template <bool MC>
__device__ __forceinline__ bool load_flag(const unsigned char* m, const strided_indexer& mi, std::int64_t i) {
  if constexpr (MC) return m[i] != 0;
  else return *(m + mi.offset(i)) != 0;
}

template <bool MC>
__global__ void mask_count_kernel(const unsigned char* __restrict__ m, strided_indexer mi, std::int64_t n,
                                  std::int64_t n_tiles, std::int64_t* __restrict__ counts) {
  __shared__ std::int64_t warp_counts[warps_per_block];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (std::int64_t t = blockIdx.x; t < n_tiles; t += gridDim.x) {
    const std::int64_t base = t * tile_items + static_cast<std::int64_t>(warp) * warp_items;
    int c = 0;
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const std::int64_t i = base + r * 32 + lane;
      const bool f = i < n && load_flag<MC>(m, mi, i);
      c += __popc(__ballot_sync(0xffffffffu, f));
    }
    if (lane == 0) warp_counts[warp] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
      std::int64_t s = 0;
      for (int w = 0; w < warps_per_block; ++w) s += warp_counts[w];
      counts[t] = s;
    }
    __syncthreads();
  }
}

/// Copies the selected items (C order) to out[rank].
template <class U, bool AC>
struct value_sink {
  const char* src;
  strided_indexer si;
  U* out;
  __device__ __forceinline__ void operator()(std::int64_t i, std::int64_t pos) const {
    if constexpr (AC) out[pos] = reinterpret_cast<const U*>(src)[i];
    else out[pos] = *reinterpret_cast<const U*>(src + si.offset(i));
  }
};
/// Writes the coordinates (over the mask's shape) of each selected item.
struct coord_sink {
  int nd;
  std::int64_t shape[max_kernel_dims];
  std::int64_t* out[max_kernel_dims];
  __device__ __forceinline__ void operator()(std::int64_t i, std::int64_t pos) const {
    for (int d = nd - 1; d >= 0; --d) {
      const std::int64_t q = d > 0 ? i / shape[d] : 0;
      out[d][pos] = i - q * shape[d];
      i = q;
    }
  }
};
/// dst[i] = vals[rank % nv] for each selected item (mask assignment, place).
template <class U, bool AC>
struct scatter_sink {
  char* dst;
  strided_indexer di;
  const U* vals;
  std::int64_t nv;
  __device__ __forceinline__ void operator()(std::int64_t i, std::int64_t pos) const {
    const U v = vals[nv == 1 ? 0 : pos % nv];
    if constexpr (AC) reinterpret_cast<U*>(dst)[i] = v;
    else *reinterpret_cast<U*>(dst + di.offset(i)) = v;
  }
};

template <bool MC, class Sink>
__global__ void mask_compact_kernel(const unsigned char* __restrict__ m, strided_indexer mi, std::int64_t n,
                                    std::int64_t n_tiles, const std::int64_t* __restrict__ offsets, Sink sink) {
  __shared__ std::int64_t warp_counts[warps_per_block];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned lt_mask = (1u << lane) - 1u;
  for (std::int64_t t = blockIdx.x; t < n_tiles; t += gridDim.x) {
    const std::int64_t base = t * tile_items + static_cast<std::int64_t>(warp) * warp_items;
    unsigned ballots[rounds];
    int c = 0;
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const std::int64_t i = base + r * 32 + lane;
      const bool f = i < n && load_flag<MC>(m, mi, i);
      ballots[r] = __ballot_sync(0xffffffffu, f);
      c += __popc(ballots[r]);
    }
    if (lane == 0) warp_counts[warp] = c;
    __syncthreads();
    std::int64_t pos = offsets[t];
    for (int w = 0; w < warp; ++w) pos += warp_counts[w];
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const unsigned b = ballots[r];
      if (b & (1u << lane)) sink(base + r * 32 + lane, pos + __popc(b & lt_mask));
      pos += __popc(b);
    }
    __syncthreads();
  }
}

/// dst[i] = vals[nv == 1 ? 0 : i % nv] where mask[i] (putmask, mask fill). No scan needed.
template <class U, bool MC, bool AC>
__global__ void masked_assign_kernel(const unsigned char* __restrict__ m, strided_indexer mi, char* dst,
                                     strided_indexer di, std::int64_t n, const U* __restrict__ vals, std::int64_t nv) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    if (!load_flag<MC>(m, mi, i)) continue;
    const U v = vals[nv == 1 ? 0 : i % nv];
    if constexpr (AC) reinterpret_cast<U*>(dst)[i] = v;
    else *reinterpret_cast<U*>(dst + di.offset(i)) = v;
  }
}

// ---------------------------------------------------------------------------------------------
// put

template <class U>
__global__ void put_kernel(char* dst, strided_indexer di, bool contiguous, std::int64_t len,
                           const std::int64_t* __restrict__ idx, std::int64_t n, const U* __restrict__ vals,
                           std::int64_t nv, int mode, oob_status* st) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    std::int64_t j = idx[i];
    if (!fix_index(j, len, mode, st, 0)) continue;
    const U v = vals[nv == 1 ? 0 : i % nv];
    if (contiguous) reinterpret_cast<U*>(dst)[j] = v;
    else *reinterpret_cast<U*>(dst + di.offset(j)) = v;
  }
}

// ---------------------------------------------------------------------------------------------
// tril / triu

template <class U>
__global__ void tri_kernel(const char* __restrict__ src, strided_indexer rows_ix, std::int64_t col_stride,
                           U* __restrict__ out, std::int64_t n_rows, std::int64_t M, std::int64_t N, std::int64_t k,
                           bool lower) {
  for (std::int64_t row = blockIdx.y; row < n_rows; row += gridDim.y) {
    const std::int64_t r = row % M;
    const char* s = src + rows_ix.offset(row);
    U* o = out + row * N;
    for (std::int64_t x = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; x < N;
         x += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
      const bool keep = lower ? (x - r <= k) : (x - r >= k);
      U v{};
      if (keep) v = *reinterpret_cast<const U*>(s + x * col_stride);
      o[x] = v;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Host helpers

std::int64_t tiles_of(std::int64_t n) { return (n + tile_items - 1) / tile_items; }
unsigned tile_grid(std::int64_t tiles) {
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(tiles, 132LL * 16)));
}

/// A mask and a target over one shape, coalesced jointly.
struct mask_layout {
  shape_t shape;
  strided_indexer mi{}, ai{};
  bool mc = false, ac = false;
};
mask_layout layout_pair(const ndarray& mask, const ndarray* a) {
  mask_layout L;
  L.shape = mask.shape();
  shape_t ms = mask.strides(), as = a ? a->strides() : mask.strides();
  coalesce(L.shape, {&ms, &as});
  L.mc = L.shape.empty() || (L.shape.size() == 1 && ms[0] == 1);
  L.ac = a && (L.shape.empty() ||
               (L.shape.size() == 1 && as[0] == static_cast<std::int64_t>(a->itemsize())));
  if (!L.mc) L.mi = make_indexer(L.shape, ms);
  if (a && !L.ac) L.ai = make_indexer(L.shape, as);
  return L;
}

template <bool MC, class Sink>
void launch_compact(const mask_layout& L, const unsigned char* m, std::int64_t n, std::int64_t tiles,
                    const std::int64_t* offsets, const Sink& sink, cudaStream_t s) {
  mask_compact_kernel<MC, Sink><<<tile_grid(tiles), block_size, 0, s>>>(m, L.mi, n, tiles, offsets, sink);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

// --- mask scan (shared with manipulation) ---------------------------------------------------------

mask_scan scan_mask(const ndarray& mask) {
  mask_scan r;
  r.n = mask.size();
  r.tiles = tiles_of(r.n);
  cudaStream_t s = get_current_stream();
  r.offsets = device_buffer<std::int64_t>(static_cast<std::size_t>(r.tiles + 1), s);
  r.total = 0;
  if (r.n == 0) return r;
  CUSCI_CUDA_TRY(cudaMemsetAsync(r.offsets.data(), 0, sizeof(std::int64_t) * (r.tiles + 1), s));
  mask_layout L = layout_pair(mask, nullptr);
  const auto* m = static_cast<const unsigned char*>(mask.data());
  device_buffer<std::int64_t> counts(static_cast<std::size_t>(r.tiles + 1), s);
  CUSCI_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, sizeof(std::int64_t) * (r.tiles + 1), s));
  if (L.mc) mask_count_kernel<true><<<tile_grid(r.tiles), block_size, 0, s>>>(m, L.mi, r.n, r.tiles, counts.data());
  else mask_count_kernel<false><<<tile_grid(r.tiles), block_size, 0, s>>>(m, L.mi, r.n, r.tiles, counts.data());
  CUSCI_CHECK_LAUNCH();
  std::size_t temp_bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts.data(), r.offsets.data(),
                                               static_cast<int>(r.tiles + 1), s));
  device_buffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), s);
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, counts.data(), r.offsets.data(),
                                               static_cast<int>(r.tiles + 1), s));
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&r.total, r.offsets.data() + r.tiles, sizeof(std::int64_t),
                                 cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  return r;
}

std::vector<ndarray> mask_nonzero(const ndarray& mask_in) {
  const ndarray mask = mask_in.dtype() == dtype::bool_ ? mask_in : mask_in.astype(dtype::bool_);
  device_guard guard(mask.device());
  mask_scan sc = scan_mask(mask);
  const int nd = std::max(mask.ndim(), 1);
  std::vector<ndarray> out;
  for (int d = 0; d < nd; ++d) out.push_back(empty({sc.total}, dtype::int64));
  if (sc.total == 0) return out;
  coord_sink sink{};
  sink.nd = nd;
  for (int d = 0; d < nd; ++d) {
    sink.shape[d] = mask.ndim() == 0 ? 1 : mask.shape()[d];
    sink.out[d] = out[d].data_as<std::int64_t>();
  }
  CUSCI_EXPECTS(nd <= max_kernel_dims, value_error, "cusci::nonzero: more than 16 dimensions");
  mask_layout L = layout_pair(mask, nullptr);
  cudaStream_t s = get_current_stream();
  const auto* m = static_cast<const unsigned char*>(mask.data());
  if (L.mc) launch_compact<true>(L, m, sc.n, sc.tiles, sc.offsets.data(), sink, s);
  else launch_compact<false>(L, m, sc.n, sc.tiles, sc.offsets.data(), sink, s);
  return out;
}

}  // namespace detail::ix

using namespace detail;
using namespace detail::ix;

clip_mode clip_mode_from_string(std::string_view s) {
  if (s == "raise") return clip_mode::raise;
  if (s == "wrap") return clip_mode::wrap;
  if (s == "clip") return clip_mode::clip;
  throw value_error("cusci::clip_mode_from_string: clipmode must be one of 'clip', 'raise', or 'wrap', got '" +
                    std::string(s) + "'");
}

namespace {

// --- advanced index planning ---------------------------------------------------------------------

struct adv_entry {
  ndarray arr;              // int64 index array (size ignored when scalar)
  bool scalar = false;      // a plain integer
  std::int64_t value = 0;   // the integer
  int view_dim = 0;         // dimension of the basic view it indexes
  int a_axis = 0;           // axis of the indexed array (for messages)
};

struct adv_plan {
  ndarray view;
  std::vector<adv_entry> adv;
  shape_t out_shape;
  adv_params p{};
  bool basic_only = false;
};

shape_t broadcast_two(const shape_t& a, const shape_t& b, bool& ok) {
  const std::size_t nd = std::max(a.size(), b.size());
  shape_t r(nd);
  ok = true;
  for (std::size_t i = 0; i < nd; ++i) {
    const std::int64_t x = i < nd - a.size() ? 1 : a[i - (nd - a.size())];
    const std::int64_t y = i < nd - b.size() ? 1 : b[i - (nd - b.size())];
    if (x == y || y == 1) r[i] = x;
    else if (x == 1) r[i] = y;
    else ok = false;
  }
  return r;
}

/// Byte strides of `arr` broadcast (right-aligned) to `target`; zero on broadcast dimensions.
shape_t bcast_strides(const ndarray& arr, const shape_t& target) {
  shape_t st(target.size(), 0);
  const int off = static_cast<int>(target.size()) - arr.ndim();
  for (int d = 0; d < arr.ndim(); ++d)
    if (arr.shape()[d] != 1) st[off + d] = arr.strides()[d];
  return st;
}

adv_plan plan_index(const ndarray& a, const std::vector<fancy_index>& index, const char* fn) {
  int consumed = 0, n_ellipsis = 0;
  bool has_array = false;
  for (const auto& e : index) {
    if (std::holds_alternative<std::int64_t>(e) || std::holds_alternative<slice>(e)) ++consumed;
    else if (std::holds_alternative<ellipsis_t>(e)) ++n_ellipsis;
    else if (const auto* arr = std::get_if<ndarray>(&e)) {
      has_array = true;
      consumed += arr->dtype() == dtype::bool_ ? arr->ndim() : 1;
    }
  }
  CUSCI_EXPECTS(n_ellipsis <= 1, index_error, std::string(fn) + ": an index can only have a single ellipsis ('...')");
  CUSCI_EXPECTS(consumed <= a.ndim(), index_error,
                std::string(fn) + ": too many indices for array: array is " + std::to_string(a.ndim()) +
                    "-dimensional, but " + std::to_string(consumed) + " were indexed");
  adv_plan plan;
  std::vector<index_spec> basic;
  int axis = 0, vdim = 0;
  auto add_adv_array = [&](const ndarray& idx) {
    CUSCI_EXPECTS(is_integer(idx.dtype()), type_error,
                  std::string(fn) + ": arrays used as indices must be of integer (or boolean) type, got " +
                      std::string(dtype_name(idx.dtype())));
    adv_entry e;
    e.arr = idx.astype(dtype::int64, false);
    e.view_dim = vdim;
    e.a_axis = axis;
    plan.adv.push_back(std::move(e));
    basic.push_back(slice{});
    ++axis;
    ++vdim;
  };
  for (const auto& e : index) {
    if (const auto* i = std::get_if<std::int64_t>(&e)) {
      const std::int64_t len = a.shape()[axis];
      CUSCI_EXPECTS(*i >= -len && *i < len, index_error,
                    std::string(fn) + ": index " + std::to_string(*i) + " is out of bounds for axis " +
                        std::to_string(axis) + " with size " + std::to_string(len));
      if (has_array) {
        adv_entry en;
        en.scalar = true;
        en.value = *i < 0 ? *i + len : *i;
        en.view_dim = vdim;
        en.a_axis = axis;
        plan.adv.push_back(en);
        basic.push_back(slice{});
        ++vdim;
      } else {
        basic.push_back(*i);
      }
      ++axis;
    } else if (const auto* s = std::get_if<slice>(&e)) {
      basic.push_back(*s);
      ++axis;
      ++vdim;
    } else if (std::holds_alternative<newaxis_t>(e)) {
      basic.push_back(newaxis);
      ++vdim;
    } else if (std::holds_alternative<ellipsis_t>(e)) {
      for (int k = 0; k < a.ndim() - consumed; ++k) {
        basic.push_back(slice{});
        ++axis;
        ++vdim;
      }
    } else {
      const ndarray& arr = std::get<ndarray>(e);
      if (arr.dtype() == dtype::bool_) {
        if (arr.ndim() == 0)
          throw not_implemented_error(std::string(fn) + ": a 0-d boolean index is not supported");
        for (int d = 0; d < arr.ndim(); ++d)
          CUSCI_EXPECTS(arr.shape()[d] == a.shape()[axis + d], index_error,
                        std::string(fn) + ": boolean index did not match indexed array along axis " +
                            std::to_string(axis + d) + "; size of axis is " + std::to_string(a.shape()[axis + d]) +
                            " but size of corresponding boolean axis is " + std::to_string(arr.shape()[d]));
        for (ndarray& c : mask_nonzero(arr)) add_adv_array(c);
      } else {
        add_adv_array(arr);
      }
    }
  }
  plan.view = a[basic];
  if (plan.adv.empty()) {
    plan.basic_only = true;
    plan.out_shape = plan.view.shape();
    return plan;
  }
  if (plan.adv.size() > static_cast<std::size_t>(max_adv))
    throw not_implemented_error(std::string(fn) + ": more than 16 index arrays are not supported");
  // Broadcast shape of the index arrays.
  shape_t B;
  for (const auto& e : plan.adv) {
    if (e.scalar) continue;
    bool ok;
    shape_t nb = broadcast_two(B, e.arr.shape(), ok);
    if (!ok) {
      std::string msg(fn);
      msg += ": shape mismatch: indexing arrays could not be broadcast together with shapes";
      for (const auto& x : plan.adv)
        if (!x.scalar) msg += " " + shape_str(x.arr.shape());
      throw index_error(msg);
    }
    B = nb;
  }
  bool adjacent = true;
  for (std::size_t k = 1; k < plan.adv.size(); ++k)
    adjacent = adjacent && plan.adv[k].view_dim == plan.adv[0].view_dim + static_cast<int>(k);
  const int insert_at = adjacent ? plan.adv[0].view_dim : 0;
  std::vector<bool> is_adv(plan.view.ndim(), false);
  for (const auto& e : plan.adv) is_adv[e.view_dim] = true;
  // Result dimensions: (dim of view or -1 for a B dimension).
  std::vector<int> src_dim;
  int placed = 0;
  for (int d = 0; d <= plan.view.ndim(); ++d) {
    if (d == insert_at)
      for (std::size_t b = 0; b < B.size(); ++b) src_dim.push_back(-1 - static_cast<int>(b));
    if (d == plan.view.ndim()) break;
    if (!is_adv[d]) {
      src_dim.push_back(d);
      ++placed;
    }
  }
  adv_params& p = plan.p;
  p.nd = static_cast<int>(src_dim.size());
  CUSCI_EXPECTS(p.nd <= max_kernel_dims, value_error, std::string(fn) + ": the result has more than 16 dimensions");
  p.n_idx = static_cast<int>(plan.adv.size());
  for (int d = 0; d < p.nd; ++d) {
    if (src_dim[d] >= 0) {
      plan.out_shape.push_back(plan.view.shape()[src_dim[d]]);
      p.src_stride[d] = plan.view.strides()[src_dim[d]];
    } else {
      plan.out_shape.push_back(B[-1 - src_dim[d]]);
      p.src_stride[d] = 0;
    }
    p.shape[d] = plan.out_shape.back();
  }
  for (int k = 0; k < p.n_idx; ++k) {
    const adv_entry& e = plan.adv[k];
    p.axis_len[k] = plan.view.shape()[e.view_dim];
    p.axis_stride[k] = plan.view.strides()[e.view_dim];
    p.axis_id[k] = e.a_axis;
    if (e.scalar) {
      p.idx_ptr[k] = nullptr;
      p.idx_const[k] = e.value;
      for (int d = 0; d < p.nd; ++d) p.idx_stride[k][d] = 0;
    } else {
      p.idx_ptr[k] = static_cast<const char*>(e.arr.data());
      const shape_t bs = bcast_strides(e.arr, B);
      for (int d = 0; d < p.nd; ++d) p.idx_stride[k][d] = src_dim[d] >= 0 ? 0 : bs[-1 - src_dim[d]];
    }
  }
  return plan;
}

void check_nonempty_take(const adv_plan& plan, const char* fn) {
  const std::int64_t n = prod(plan.out_shape);
  if (n == 0) return;
  for (int k = 0; k < plan.p.n_idx; ++k)
    CUSCI_EXPECTS(plan.p.axis_len[k] > 0, index_error,
                  std::string(fn) + ": cannot do a non-empty take from an empty axes.");
}

ndarray run_gather(adv_plan& plan, clip_mode mode, const char* fn) {
  const ndarray& v = plan.view;
  ndarray out = empty(plan.out_shape, v.dtype());
  const std::int64_t n = out.size();
  if (n == 0) return out;
  check_nonempty_take(plan, fn);
  cudaStream_t s = get_current_stream();
  plan.p.mode = static_cast<int>(mode);
  oob_checker st(s);
  dispatch_itemsize(v.itemsize(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const adv_params& p = plan.p;
    if (p.nd == 1 && p.n_idx == 1 && p.idx_ptr[0] && p.idx_stride[0][0] == 8) {
      take1_kernel<U><<<grid_for(n, block_size), block_size, 0, s>>>(
          static_cast<const char*>(v.data()), p.axis_stride[0], p.axis_len[0],
          reinterpret_cast<const std::int64_t*>(p.idx_ptr[0]), out.data_as<U>(), n, p.mode, st.get(), p.axis_id[0]);
    } else {
      adv_kernel<U, false><<<grid_for(n, block_size), block_size, 0, s>>>(static_cast<char*>(v.data()), nullptr,
                                                                          out.data_as<U>(), n, p, st.get());
    }
    CUSCI_CHECK_LAUNCH();
  });
  if (mode == clip_mode::raise) st.check(fn);
  return out;
}

/// `value` cast to a's dtype, not aliasing a's buffer.
ndarray value_for(const ndarray& a, const ndarray& value) {
  ndarray v = value.astype(a.dtype(), false);
  if (v.memory() && a.memory() && v.memory() == a.memory()) v = v.copy();
  return v;
}

/// `value` broadcast to `shape` (leading length-1 axes beyond the shape's rank dropped).
ndarray broadcast_value(const ndarray& v, const shape_t& shape, const char* fn) {
  ndarray w = v;
  while (w.ndim() > static_cast<int>(shape.size()) && w.shape()[0] == 1) w = w.squeeze(0);
  try {
    return w.broadcast_to(shape);
  } catch (const value_error&) {
    throw value_error(std::string(fn) + ": shape mismatch: value array of shape " + shape_str(v.shape()) +
                      " could not be broadcast to indexing result of shape " + shape_str(shape));
  }
}

void run_scatter(adv_plan& plan, const ndarray& value, clip_mode mode, const char* fn) {
  ndarray& v = plan.view;
  if (plan.basic_only) {
    ndarray val = broadcast_value(value_for(v, value), plan.out_shape, fn);
    copy_cast(val, v);
    return;
  }
  const std::int64_t n = prod(plan.out_shape);
  if (n == 0) return;
  check_nonempty_take(plan, fn);
  ndarray val = broadcast_value(value_for(v, value), plan.out_shape, fn);
  for (int d = 0; d < plan.p.nd; ++d) plan.p.val_stride[d] = val.strides()[d];
  cudaStream_t s = get_current_stream();
  plan.p.mode = static_cast<int>(mode);
  oob_checker st(s);
  dispatch_itemsize(v.itemsize(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    adv_kernel<U, true><<<grid_for(n, block_size), block_size, 0, s>>>(
        static_cast<char*>(v.data()), static_cast<const char*>(val.data()), nullptr, n, plan.p, st.get());
    CUSCI_CHECK_LAUNCH();
  });
  if (mode == clip_mode::raise) st.check(fn);
}

bool is_full_mask(const ndarray& a, const ndarray& index) {
  return index.dtype() == dtype::bool_ && index.ndim() >= 1 && index.shape() == a.shape();
}

/// a[mask] for a mask of a's full shape: direct compaction.
ndarray mask_read(const ndarray& a, const ndarray& mask) {
  mask_scan sc = scan_mask(mask);
  ndarray out = empty({sc.total}, a.dtype());
  if (sc.total == 0) return out;
  mask_layout L = layout_pair(mask, &a);
  cudaStream_t s = get_current_stream();
  const auto* m = static_cast<const unsigned char*>(mask.data());
  dispatch_itemsize(a.itemsize(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    auto go = [&](auto ac_tag) {
      constexpr bool AC = decltype(ac_tag)::value;
      value_sink<U, AC> sink{static_cast<const char*>(a.data()), L.ai, out.data_as<U>()};
      if (L.mc) launch_compact<true>(L, m, sc.n, sc.tiles, sc.offsets.data(), sink, s);
      else launch_compact<false>(L, m, sc.n, sc.tiles, sc.offsets.data(), sink, s);
    };
    if (L.ac) go(std::true_type{});
    else go(std::false_type{});
  });
  return out;
}

/// dst[mask] = vals[...] without a scan: vals has one element (nv == 1) or is indexed by position.
void masked_assign(ndarray& dst, const ndarray& mask, const ndarray& vals_contig) {
  const std::int64_t n = dst.size();
  if (n == 0) return;
  mask_layout L = layout_pair(mask, &dst);
  cudaStream_t s = get_current_stream();
  const auto* m = static_cast<const unsigned char*>(mask.data());
  const std::int64_t nv = vals_contig.size();
  dispatch_itemsize(dst.itemsize(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* vp = vals_contig.data_as<U>();
    char* d = static_cast<char*>(dst.data());
    const unsigned g = grid_for(n, block_size);
    if (L.mc && L.ac) masked_assign_kernel<U, true, true><<<g, block_size, 0, s>>>(m, L.mi, d, L.ai, n, vp, nv);
    else if (L.mc) masked_assign_kernel<U, true, false><<<g, block_size, 0, s>>>(m, L.mi, d, L.ai, n, vp, nv);
    else if (L.ac) masked_assign_kernel<U, false, true><<<g, block_size, 0, s>>>(m, L.mi, d, L.ai, n, vp, nv);
    else masked_assign_kernel<U, false, false><<<g, block_size, 0, s>>>(m, L.mi, d, L.ai, n, vp, nv);
    CUSCI_CHECK_LAUNCH();
  });
}

/// dst[mask] = vals[rank % nv] with a precomputed scan.
void masked_scatter_ranked(ndarray& dst, const ndarray& mask, const mask_scan& sc, const ndarray& vals_contig) {
  if (sc.total == 0) return;
  mask_layout L = layout_pair(mask, &dst);
  cudaStream_t s = get_current_stream();
  const auto* m = static_cast<const unsigned char*>(mask.data());
  dispatch_itemsize(dst.itemsize(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    auto go = [&](auto ac_tag) {
      constexpr bool AC = decltype(ac_tag)::value;
      scatter_sink<U, AC> sink{static_cast<char*>(dst.data()), L.ai, vals_contig.data_as<U>(), vals_contig.size()};
      if (L.mc) launch_compact<true>(L, m, sc.n, sc.tiles, sc.offsets.data(), sink, s);
      else launch_compact<false>(L, m, sc.n, sc.tiles, sc.offsets.data(), sink, s);
    };
    if (L.ac) go(std::true_type{});
    else go(std::false_type{});
  });
}

/// Contiguous 1-D copy of v cast to dt (a view when already so).
ndarray flat_values(const ndarray& v, dtype dt) {
  ndarray w = v.astype(dt, false);
  return ravel(w);
}

void mask_assign(ndarray& a, const ndarray& mask, const ndarray& value, const char* fn) {
  ndarray v = value_for(a, value);
  if (v.size() == 1) {
    masked_assign(a, mask, ravel(v));
    return;
  }
  mask_scan sc = scan_mask(mask);
  // NumPy: value must broadcast to (count,) — i.e. one element or exactly count elements.
  ndarray w = v;
  while (w.ndim() > 1 && w.shape()[0] == 1) w = w.squeeze(0);
  CUSCI_EXPECTS(w.ndim() <= 1 && w.size() == sc.total, value_error,
                std::string(fn) + ": NumPy boolean array indexing assignment cannot assign " +
                    std::to_string(v.size()) + " input values to the " + std::to_string(sc.total) +
                    " output values where the mask is true");
  masked_scatter_ranked(a, mask, sc, ravel(w));
}

}  // namespace

// --- public API -------------------------------------------------------------------------------------

ndarray getitem(const ndarray& a, const std::vector<fancy_index>& index) {
  const char* fn = "cusci::getitem";
  device_guard guard(a.device());
  if (index.size() == 1)
    if (const auto* m = std::get_if<ndarray>(&index[0]); m && is_full_mask(a, *m)) return mask_read(a, *m);
  adv_plan plan = plan_index(a, index, fn);
  if (plan.basic_only) return plan.view;
  return run_gather(plan, clip_mode::raise, fn);
}

ndarray getitem(const ndarray& a, const ndarray& index) { return getitem(a, std::vector<fancy_index>{index}); }

void setitem(ndarray& a, const std::vector<fancy_index>& index, const ndarray& value) {
  const char* fn = "cusci::setitem";
  device_guard guard(a.device());
  if (index.size() == 1)
    if (const auto* m = std::get_if<ndarray>(&index[0]); m && is_full_mask(a, *m)) {
      mask_assign(a, *m, value, fn);
      return;
    }
  adv_plan plan = plan_index(a, index, fn);
  run_scatter(plan, value, clip_mode::raise, fn);
}

void setitem(ndarray& a, const std::vector<fancy_index>& index, const scalar& value) {
  setitem(a, index, full(shape_t{}, value, a.dtype()));
}
void setitem(ndarray& a, const ndarray& index, const ndarray& value) {
  setitem(a, std::vector<fancy_index>{index}, value);
}
void setitem(ndarray& a, const ndarray& index, const scalar& value) {
  setitem(a, std::vector<fancy_index>{index}, full(shape_t{}, value, a.dtype()));
}

ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis, clip_mode mode) {
  const char* fn = "cusci::take";
  CUSCI_EXPECTS(is_integer(indices.dtype()), type_error,
                std::string(fn) + ": indices must have an integer dtype, got " + std::string(dtype_name(indices.dtype())));
  device_guard guard(a.device());
  std::vector<fancy_index> index;
  ndarray src = a;
  if (!axis) {
    src = ravel(a);
  } else {
    const int ax = normalize_axis(*axis, a.ndim(), fn);
    for (int d = 0; d < ax; ++d) index.push_back(slice{});
  }
  index.push_back(indices);
  adv_plan plan = plan_index(src, index, fn);
  return run_gather(plan, mode, fn);
}

void put(ndarray& a, const ndarray& ind, const ndarray& v, clip_mode mode) {
  const char* fn = "cusci::put";
  device_guard guard(a.device());
  CUSCI_EXPECTS(is_integer(ind.dtype()), type_error,
                std::string(fn) + ": ind must have an integer dtype, got " + std::string(dtype_name(ind.dtype())));
  const std::int64_t n = ind.size();
  if (n == 0) return;
  CUSCI_EXPECTS(a.size() > 0, index_error, std::string(fn) + ": cannot replace in an empty array");
  CUSCI_EXPECTS(v.size() > 0, value_error, std::string(fn) + ": v must not be empty when ind is not");
  ndarray idx = ravel(ind.astype(dtype::int64, false));
  ndarray vals = flat_values(value_for(a, v), a.dtype());
  shape_t shape = a.shape(), as = a.strides();
  coalesce(shape, {&as});
  const bool contiguous = shape.empty() || (shape.size() == 1 && as[0] == static_cast<std::int64_t>(a.itemsize()));
  strided_indexer di{};
  if (!contiguous) di = make_indexer(a.shape(), a.strides());
  cudaStream_t s = get_current_stream();
  oob_checker st(s);
  dispatch_itemsize(a.itemsize(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    put_kernel<U><<<grid_for(n, block_size), block_size, 0, s>>>(static_cast<char*>(a.data()), di, contiguous,
                                                                   a.size(), idx.data_as<std::int64_t>(), n,
                                                                   vals.data_as<U>(), vals.size(),
                                                                   static_cast<int>(mode), st.get());
    CUSCI_CHECK_LAUNCH();
  });
  if (mode == clip_mode::raise) st.check(fn);
}

ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis) {
  const char* fn = "cusci::compress";
  device_guard guard(a.device());
  CUSCI_EXPECTS(condition.ndim() == 1, value_error,
                std::string(fn) + ": condition must be a 1-d array, got " + std::to_string(condition.ndim()) + " dimensions");
  ndarray idx = mask_nonzero(condition)[0];
  return take(a, idx, axis, clip_mode::raise);
}

ndarray extract(const ndarray& condition, const ndarray& arr) {
  device_guard guard(arr.device());
  ndarray idx = mask_nonzero(ravel(condition))[0];
  return take(ravel(arr), idx, 0, clip_mode::raise);
}

void place(ndarray& arr, const ndarray& mask, const ndarray& vals) {
  const char* fn = "cusci::place";
  device_guard guard(arr.device());
  CUSCI_EXPECTS(mask.size() == arr.size(), value_error,
                std::string(fn) + ": mask and data must be the same size, got " + std::to_string(mask.size()) +
                    " and " + std::to_string(arr.size()));
  if (arr.size() == 0) return;
  ndarray m = mask.dtype() == dtype::bool_ ? mask : mask.astype(dtype::bool_);
  m = m.shape() == arr.shape() ? m : ravel(m).reshape(arr.shape());
  if (vals.size() == 0) {
    mask_scan sc = scan_mask(m);
    CUSCI_EXPECTS(sc.total == 0, value_error, std::string(fn) + ": Cannot insert from an empty array!");
    return;
  }
  ndarray v = flat_values(value_for(arr, vals), arr.dtype());
  if (v.size() == 1) {
    masked_assign(arr, m, v);
    return;
  }
  // Ranks are needed (vals cycle over the selected positions): the scan reads its total back.
  mask_scan sc = scan_mask(m);
  masked_scatter_ranked(arr, m, sc, v);
}

void putmask(ndarray& a, const ndarray& mask, const ndarray& values) {
  const char* fn = "cusci::putmask";
  device_guard guard(a.device());
  CUSCI_EXPECTS(mask.size() == a.size(), value_error, std::string(fn) + ": mask and data must be the same size");
  if (a.size() == 0) return;
  CUSCI_EXPECTS(values.size() > 0, value_error, std::string(fn) + ": values must not be empty");
  ndarray m = mask.dtype() == dtype::bool_ ? mask : mask.astype(dtype::bool_);
  m = m.shape() == a.shape() ? m : ravel(m).reshape(a.shape());
  masked_assign(a, m, flat_values(value_for(a, values), a.dtype()));
}

ndarray diagonal(const ndarray& a, std::int64_t offset, int axis1, int axis2) {
  const char* fn = "cusci::diagonal";
  CUSCI_EXPECTS(a.ndim() >= 2, value_error, std::string(fn) + ": diag requires an array of at least two dimensions");
  const int a1 = norm_axis(axis1, a.ndim(), fn, "axis1"), a2 = norm_axis(axis2, a.ndim(), fn, "axis2");
  CUSCI_EXPECTS(a1 != a2, value_error, std::string(fn) + ": axis1 and axis2 cannot be the same");
  const std::int64_t n1 = a.shape()[a1], n2 = a.shape()[a2];
  std::int64_t len, start = 0;
  if (offset >= 0) {
    len = std::max<std::int64_t>(0, std::min(n1, n2 - offset));
    if (len > 0) start = offset * a.strides()[a2];
  } else {
    len = std::max<std::int64_t>(0, std::min(n1 + offset, n2));
    if (len > 0) start = -offset * a.strides()[a1];
  }
  shape_t shape, strides;
  for (int d = 0; d < a.ndim(); ++d)
    if (d != a1 && d != a2) {
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    }
  shape.push_back(len);
  strides.push_back(a.strides()[a1] + a.strides()[a2]);
  return make_view(a, shape, strides, start);
}

ndarray diag(const ndarray& v, std::int64_t k) {
  const char* fn = "cusci::diag";
  device_guard guard(v.device());
  if (v.ndim() == 1) {
    const std::int64_t n = v.shape()[0] + (k < 0 ? -k : k);
    ndarray out = zeros({n, n}, v.dtype());
    ndarray d = diagonal(out, k);
    copy_cast(v, d);
    return out;
  }
  CUSCI_EXPECTS(v.ndim() == 2, value_error, std::string(fn) + ": Input must be 1- or 2-d.");
  return diagonal(v, k).copy();
}

namespace {
ndarray tri_impl(const ndarray& m_in, std::int64_t k, bool lower, const char* fn) {
  CUSCI_EXPECTS(m_in.ndim() >= 1, value_error, std::string(fn) + ": input must have at least 1 dimension");
  device_guard guard(m_in.device());
  ndarray m = m_in.ndim() == 1 ? m_in.broadcast_to({m_in.shape()[0], m_in.shape()[0]}) : m_in;
  ndarray out = empty(m.shape(), m.dtype());
  const std::int64_t N = m.shape()[m.ndim() - 1], M = m.shape()[m.ndim() - 2];
  const std::int64_t n_rows = out.size() / std::max<std::int64_t>(N, 1);
  if (out.size() == 0) return out;
  shape_t rshape(m.shape().begin(), m.shape().end() - 1), rstr(m.strides().begin(), m.strides().end() - 1);
  strided_indexer rix = make_indexer(rshape, rstr);
  cudaStream_t s = get_current_stream();
  const unsigned gx = static_cast<unsigned>(std::min<std::int64_t>((N + 1023) / 1024, 1024));
  const unsigned gy = static_cast<unsigned>(std::min<std::int64_t>(n_rows, 65535));
  dispatch_itemsize(m.itemsize(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    tri_kernel<U><<<dim3(gx, gy), block_size, 0, s>>>(static_cast<const char*>(m.data()), rix,
                                                      m.strides()[m.ndim() - 1], out.data_as<U>(), n_rows, M, N, k,
                                                      lower);
    CUSCI_CHECK_LAUNCH();
  });
  return out;
}

std::pair<ndarray, ndarray> tri_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m_opt, bool lower,
                                        const char* fn) {
  const std::int64_t m = m_opt ? *m_opt : n;
  CUSCI_EXPECTS(n >= 0 && m >= 0, value_error, std::string(fn) + ": n and m must be non-negative");
  // NumPy builds arange(n), arange(m) (int64) and the (n, m) boolean mask first: the same sizes are
  // checked here (ValueError "array is too big", MemoryError beyond the host's memory) before anything
  // runs, so an absurd n, m or k fails at once.
  (void)detail::checked_host_count(n, sizeof(std::int64_t), fn, "n");
  (void)detail::checked_host_count(m, sizeof(std::int64_t), fn, "m");
  (void)detail::checked_host_count(detail::checked_size({n, m}, fn), 1, fn, "the (n, m) mask");
  // Row i holds columns j with j - i <= k (lower) or j - i >= k (upper); k beyond [-n, m] selects
  // the same as the bound, so it is clamped first (no overflow in i + k).
  const std::int64_t kc = std::clamp<std::int64_t>(k, -n - 1, m + 1);
  auto cols = [&](std::int64_t i) -> std::pair<std::int64_t, std::int64_t> {  // [lo, hi)
    return lower ? std::pair<std::int64_t, std::int64_t>{0, std::clamp<std::int64_t>(i + kc + 1, 0, m)}
                 : std::pair<std::int64_t, std::int64_t>{std::clamp<std::int64_t>(i + kc, 0, m), m};
  };
  std::int64_t count = 0;
  for (std::int64_t i = 0; i < n; ++i) count += cols(i).second - cols(i).first;
  std::vector<std::int64_t> r, c;
  r.reserve(static_cast<std::size_t>(count));
  c.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto [lo, hi] = cols(i);
    for (std::int64_t j = lo; j < hi; ++j) {
      r.push_back(i);
      c.push_back(j);
    }
  }
  return {asarray(r), asarray(c)};
}
}  // namespace

ndarray tril(const ndarray& m, std::int64_t k) { return tri_impl(m, k, true, "cusci::tril"); }
ndarray triu(const ndarray& m, std::int64_t k) { return tri_impl(m, k, false, "cusci::triu"); }

std::pair<ndarray, ndarray> tril_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m) {
  return tri_indices(n, k, m, true, "cusci::tril_indices");
}
std::pair<ndarray, ndarray> triu_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m) {
  return tri_indices(n, k, m, false, "cusci::triu_indices");
}

}  // namespace cusci
