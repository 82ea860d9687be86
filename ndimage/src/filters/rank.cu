// The generic rank kernels (any footprint, any rank, every real dtype) and SciPy's 1-D path.
//
// N-D path (SciPy's NI_RankFilter): each output gathers its window in SciPy's order (footprint
// elements in C order) and selects with SciPy's quickselect replayed (rank_select.cuh), so the value
// equals SciPy's also when the window holds NaN. 1-D to 3-D arrays read their windows from a
// shared-memory tile (the footprint engine's plan: the tile plus halo is loaded once per block);
// other arrays, and tiles too large for shared memory, read through the cache. Windows of up to
// `local_taps` values are selected in registers / local memory; longer ones in a per-thread global
// scratch (interleaved, so that a warp's accesses coalesce), with the grid capped to bound it.
//
// 1-D path (SciPy's _rank_filter_1d): the same parallel kernel on a box of the footprint's length;
// for float lines a flag records whether any value is NaN, and a one-thread kernel then replays
// SciPy's running two-heap mediator over the whole line (its result with NaN depends on the
// insertion history), returning at once when the flag is clear.
//
// Roofline: the tiled kernel reads each input value about once from DRAM (halo overhead
// (T+K-1)^d / T^d) and writes each output once; the selection costs O(n) comparisons per output
// (quickselect) plus the gather of n values from shared memory, so it is compute-bound beyond a few
// dozen taps. The common median boxes take rank_box.cu's register networks instead.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "engine/footprint_engine.cuh"
#include "engine/footprint_engine.hpp"
#include "filters/rank_pass.hpp"
#include "filters/rank_select.cuh"

namespace cusci::ndimage::detail {
namespace {

/// Windows up to this many values are selected in a per-thread local array.
constexpr int local_taps = 32;
/// Bytes of global scratch the long-window kernels may use (bounds their grid).
constexpr std::int64_t scratch_budget = std::int64_t{1} << 28;

template <class T>
__device__ __forceinline__ bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

/// Per-thread selection buffer: a local array, or the thread's interleaved slice of the scratch.
template <class T, bool Local>
struct select_buffer;

template <class T>
struct select_buffer<T, true> {
  T v[local_taps];
  __device__ explicit select_buffer(T*, std::int64_t, std::int64_t) {}
  __device__ __forceinline__ T& operator()(int i) { return v[i]; }
};

template <class T>
struct select_buffer<T, false> {
  T* base;
  std::int64_t stride;
  __device__ select_buffer(T* scratch, std::int64_t s, std::int64_t gid) : base(scratch + gid), stride(s) {}
  __device__ __forceinline__ T& operator()(int i) { return base[i * stride]; }
};

template <class T, bool Local>
__global__ void __launch_bounds__(footprint_threads)
    rank_tiled_kernel(const fp_params p, T cval, int rank, std::int64_t n_blocks, T* scratch, std::int64_t sstride,
                      unsigned* nan_flag, bool round_trip) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* s = reinterpret_cast<T*>(smem);
  const int HX = p.halo[2], HY = p.halo[1], HZ = p.halo[0];
  const int TX = p.tile[2], TY = p.tile[1], TZ = p.tile[0];
  const int n_halo = HX * HY * HZ, n_out = TX * TY * TZ;
  const std::int64_t gid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  select_buffer<T, Local> buf(scratch, sstride, gid);
  bool saw_nan = false;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % p.n_tiles[2];
    const std::int64_t r = b / p.n_tiles[2];
    const std::int64_t by = r % p.n_tiles[1];
    const std::int64_t bz = r / p.n_tiles[1];
    const std::int64_t x0 = bx * TX, y0 = by * TY, z0 = bz * TZ;
    __syncthreads();
    for (int q = threadIdx.x; q < n_halo; q += blockDim.x) {
      const int hx = q % HX;
      const int t = q / HX;
      const int hy = t % HY;
      const int hz = t / HY;
      const std::int64_t gz = fp_index(z0 + hz - p.shift[0], p.shape[0], p.mode[0]);
      const std::int64_t gy = fp_index(y0 + hy - p.shift[1], p.shape[1], p.mode[1]);
      const std::int64_t gx = fp_index(x0 + hx - p.shift[2], p.shape[2], p.mode[2]);
      const T v = (gz < 0 || gy < 0 || gx < 0)
                      ? cval
                      : *reinterpret_cast<const T*>(p.in + gz * p.in_st[0] + gy * p.in_st[1] + gx * p.in_st[2]);
      saw_nan = saw_nan || is_nan(v);
      s[q] = v;
    }
    __syncthreads();
    for (int q = threadIdx.x; q < n_out; q += blockDim.x) {
      const int ox = q % TX;
      const int t = q / TX;
      const int oy = t % TY;
      const int oz = t / TY;
      const std::int64_t x = x0 + ox, y = y0 + oy, z = z0 + oz;
      if (x >= p.shape[2] || y >= p.shape[1] || z >= p.shape[0]) continue;
      const T* c = s + (oz * HY + oy) * HX + ox;
      for (int k = 0; k < p.n_taps; ++k) buf(k) = c[__ldg(p.taps + k)];
      const T v = ni_select<T>(buf, 0, p.n_taps - 1, rank);
      *reinterpret_cast<T*>(p.out + z * p.out_st[0] + y * p.out_st[1] + x * p.out_st[2]) =
          round_trip ? scipy_round_trip(v) : v;
    }
  }
  if (nan_flag != nullptr && saw_nan) atomicOr(nan_flag, 1u);
}

template <class T, bool Local>
__global__ void __launch_bounds__(footprint_threads)
    rank_generic_kernel(const fp_params p, T cval, int rank, std::int64_t n_total, T* scratch, std::int64_t sstride,
                        unsigned* nan_flag, bool round_trip) {
  const std::int64_t gid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  select_buffer<T, Local> buf(scratch, sstride, gid);
  bool saw_nan = false;
  for (std::int64_t t = gid; t < n_total; t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t coord[footprint_max_dims];
    std::int64_t rem = t, out_off = 0;
    for (int d = p.ndim - 1; d >= 0; --d) {
      coord[d] = rem % p.shape[d];
      rem /= p.shape[d];
      out_off += coord[d] * p.out_st[d];
    }
    for (int k = 0; k < p.n_taps; ++k) {
      const std::int32_t* tap = p.taps + static_cast<std::int64_t>(k) * p.ndim;
      std::int64_t off = 0;
      bool outside = false;
      for (int d = 0; d < p.ndim; ++d) {
        const std::int64_t i = fp_index(coord[d] + tap[d] - p.shift[d], p.shape[d], p.mode[d]);
        if (i < 0) {
          outside = true;
          break;
        }
        off += i * p.in_st[d];
      }
      const T v = outside ? cval : *reinterpret_cast<const T*>(p.in + off);
      saw_nan = saw_nan || is_nan(v);
      buf(k) = v;
    }
    const T v = ni_select<T>(buf, 0, p.n_taps - 1, rank);
    *reinterpret_cast<T*>(p.out + out_off) = round_trip ? scipy_round_trip(v) : v;
  }
  if (nan_flag != nullptr && saw_nan) atomicOr(nan_flag, 1u);
}

/// SciPy's running mediator (_rank_filter_1d) over one line, replayed by one thread when *flag is
/// set. heap has `w` entries addressed -rank .. w - rank - 1 (SciPy's heap pointer points at the
/// rank); pos and data have `w` entries.
template <class T>
struct mediator {
  T* data;
  int* pos;
  int* heap;  // heap + rank
  int n, idx, min_ct, max_ct;

  __device__ bool less(int i, int j) const { return data[heap[i]] < data[heap[j]]; }
  __device__ void exchange(int i, int j) {
    const int t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
    pos[heap[i]] = i;
    pos[heap[j]] = j;
  }
  __device__ bool cmp_exchange(int i, int j) {
    if (!less(i, j)) return false;
    exchange(i, j);
    return true;
  }
  __device__ void min_sort_down(int i) {
    for (i *= 2; i <= min_ct; i *= 2) {
      if (i < min_ct && less(i + 1, i)) ++i;
      if (!cmp_exchange(i, i / 2)) break;
    }
  }
  __device__ void max_sort_down(int i) {
    for (i *= 2; i >= -max_ct; i *= 2) {
      if (i > -max_ct && less(i, i - 1)) --i;
      if (!cmp_exchange(i / 2, i)) break;
    }
  }
  __device__ bool min_sort_up(int i) {
    while (i > 0 && cmp_exchange(i, i / 2)) i /= 2;
    return i == 0;
  }
  __device__ bool max_sort_up(int i) {
    while (i < 0 && cmp_exchange(i / 2, i)) i /= 2;
    return i == 0;
  }
  __device__ void insert(T v) {
    const int p = pos[idx];
    const T old = data[idx];
    data[idx] = v;
    if (++idx == n) idx = 0;
    if (p > 0) {
      if (v > old) {
        min_sort_down(p);
        return;
      }
      if (min_sort_up(p) && cmp_exchange(0, -1)) max_sort_down(-1);
    } else if (p < 0) {
      if (v < old) {
        max_sort_down(p);
        return;
      }
      if (max_sort_up(p) && cmp_exchange(1, 0)) min_sort_down(1);
    } else {
      if (max_sort_up(-1)) max_sort_down(-1);
      if (min_sort_up(1)) min_sort_down(1);
    }
  }
  __device__ T at_rank() const { return data[heap[0]]; }
};

template <class T>
__global__ void mediator_replay_kernel(const char* in, std::int64_t in_st, char* out, std::int64_t out_st, int L, int w,
                                       int rank, int mode, T cval, int origin, const unsigned* flag, T* data, int* pos,
                                       int* heap_base) {
  if (*flag == 0u || threadIdx.x != 0 || blockIdx.x != 0) return;
  // Reads SciPy would make outside the line (its undefined corner cases) are clamped to it.
  auto X = [&](std::int64_t i) -> T {
    i = i < 0 ? 0 : (i >= L ? L - 1 : i);
    return *reinterpret_cast<const T*>(in + i * in_st);
  };
  mediator<T> m{data, pos, heap_base + rank, w, 0, w - rank - 1, rank};
  for (int k = w - 1; k >= 0; --k) {
    m.pos[k] = k - rank;
    m.heap[m.pos[k]] = k;
    m.data[k] = T(0);
  }
  const int lim = (w - 1) / 2 - origin;
  const int lim2 = L - lim;
  switch (mode) {
    case static_cast<int>(ext::reflect):
      for (int i = w - lim - 1; i > -1; --i) m.insert(X(i));
      break;
    case static_cast<int>(ext::constant):
      for (int i = w - lim; i > 0; --i) m.insert(cval);
      break;
    case static_cast<int>(ext::nearest):
      for (int i = w - lim; i > 0; --i) m.insert(X(0));
      break;
    case static_cast<int>(ext::mirror):
      for (int i = w - lim; i > 0; --i) m.insert(X(i));
      break;
    default: {  // wrap
      const int offset = (w % 2 == 0) ? 2 : 0;
      for (int i = L - lim - offset - 2 * origin; i < L; ++i) m.insert(X(i));
      break;
    }
  }
  auto put = [&](int i, T v) {
    if (i >= 0 && i < L) *reinterpret_cast<T*>(out + static_cast<std::int64_t>(i) * out_st) = v;
  };
  for (int i = 0; i < lim; ++i) m.insert(X(i));
  for (int i = lim; i < L; ++i) {
    m.insert(X(i));
    put(i - lim, m.at_rank());
  }
  for (int i = 0; i < lim; ++i) {
    T v;
    switch (mode) {
      case static_cast<int>(ext::reflect): v = X(L - 1 - i); break;
      case static_cast<int>(ext::constant): v = cval; break;
      case static_cast<int>(ext::nearest): v = X(L - 1); break;
      case static_cast<int>(ext::mirror): v = X(L - 2 - i); break;
      default: v = X(i); break;
    }
    m.insert(v);
    put(lim2 + i, m.at_rank());
  }
}

fp_params make_params(const footprint_plan& plan, const ndarray& in, const ndarray& out, const std::int32_t* taps) {
  fp_params p{};
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  p.ndim = plan.ndim;
  for (int d = 0; d < footprint_max_dims; ++d) {
    p.shape[d] = plan.shape[d];
    p.in_st[d] = plan.in_strides[d];
    p.out_st[d] = plan.out_strides[d];
    p.shift[d] = plan.shift[d];
    p.mode[d] = plan.mode[d];
  }
  p.n_taps = plan.n_taps;
  p.taps = taps;
  p.weights = nullptr;
  for (int a = 0; a < 3; ++a) {
    p.tile[a] = plan.tile[a];
    p.halo[a] = plan.halo[a];
    p.n_tiles[a] = plan.n_tiles[a];
  }
  return p;
}

template <class T, bool Local>
void launch_rank(const footprint_plan& plan, const fp_params& p, T cval, int rank, std::int64_t n_out,
                 unsigned* nan_flag, bool round_trip, cudaStream_t stream) {
  std::int64_t n_work = plan.tiled ? plan.n_tiles[0] * plan.n_tiles[1] * plan.n_tiles[2]
                                   : (n_out + footprint_threads - 1) / footprint_threads;
  std::int64_t grid = std::max<std::int64_t>(1, std::min<std::int64_t>(n_work, 1LL << 22));
  device_buffer<T> scratch;
  std::int64_t sstride = 0;
  if constexpr (!Local) {
    const std::int64_t per_block = static_cast<std::int64_t>(footprint_threads) * plan.n_taps * sizeof(T);
    grid = std::max<std::int64_t>(1, std::min<std::int64_t>(grid, scratch_budget / per_block));
    sstride = grid * footprint_threads;
    scratch = device_buffer<T>(static_cast<std::size_t>(sstride) * static_cast<std::size_t>(plan.n_taps), stream);
  }
  if (plan.tiled) {
    rank_tiled_kernel<T, Local><<<static_cast<unsigned>(grid), footprint_threads, plan.smem_bytes, stream>>>(
        p, cval, rank, n_work, scratch.data(), sstride, nan_flag, round_trip);
  } else {
    rank_generic_kernel<T, Local><<<static_cast<unsigned>(grid), footprint_threads, 0, stream>>>(
        p, cval, rank, n_out, scratch.data(), sstride, nan_flag, round_trip);
  }
  CUSCI_CHECK_LAUNCH();
}

/// The generic pass for device type T; `nan_flag` (or nullptr) records NaN values seen;
/// `round_trip`: store SciPy's double round trip of the selected value (scipy_round_trip).
template <class T>
void generic_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, std::int64_t rank, T cval,
                  unsigned* nan_flag, bool round_trip = false) {
  const footprint_plan plan = make_footprint_plan(in, out, f, sizeof(T));
  cudaStream_t stream = get_current_stream();
  device_buffer<std::int32_t> taps(plan.taps.size(), stream);
  CUSCI_CUDA_TRY(cudaMemcpyAsync(taps.data(), plan.taps.data(), plan.taps.size() * sizeof(std::int32_t),
                                 cudaMemcpyHostToDevice, stream));
  const fp_params p = make_params(plan, in, out, taps.data());
  if (plan.n_taps <= local_taps)
    launch_rank<T, true>(plan, p, cval, static_cast<int>(rank), out.size(), nan_flag, round_trip, stream);
  else
    launch_rank<T, false>(plan, p, cval, static_cast<int>(rank), out.size(), nan_flag, round_trip, stream);
}

template <class T>
void line_pass(const ndarray& in, const ndarray& out, std::int64_t window, std::int64_t rank, std::int64_t origin,
               ext mode, double cval) {
  footprint_spec f;
  f.shape = {window};
  f.mask.assign(static_cast<std::size_t>(window), 1);
  f.origins = {origin};
  f.modes = {mode};
  const T cv = static_cast<T>(cval);
  if constexpr (!std::is_floating_point_v<T>) {
    generic_pass<T>(in, out, f, rank, cv, nullptr);
  } else {
    cudaStream_t stream = get_current_stream();
    device_buffer<unsigned> flag(1, stream);
    CUSCI_CUDA_TRY(cudaMemsetAsync(flag.data(), 0, sizeof(unsigned), stream));
    generic_pass<T>(in, out, f, rank, cv, flag.data());
    const int w = static_cast<int>(window);
    device_buffer<T> data(static_cast<std::size_t>(w), stream);
    device_buffer<int> pos(static_cast<std::size_t>(w), stream);
    device_buffer<int> heap(static_cast<std::size_t>(w), stream);
    mediator_replay_kernel<T><<<1, 1, 0, stream>>>(
        static_cast<const char*>(in.data()), in.strides()[0], static_cast<char*>(out.data()), out.strides()[0],
        static_cast<int>(in.size()), w, static_cast<int>(rank), static_cast<int>(mode), cv, static_cast<int>(origin),
        flag.data(), data.data(), pos.data(), heap.data());
    CUSCI_CHECK_LAUNCH();
  }
}

}  // namespace

void rank_footprint_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, std::int64_t rank,
                         double cval, bool round_trip) {
  if (out.size() == 0) return;
  if (median_box_pass(in, out, f, rank, cval)) return;
  switch (in.dtype()) {
    case dtype::bool_:
    case dtype::uint8: return generic_pass<std::uint8_t>(in, out, f, rank, c_cast<std::uint8_t>(cval), nullptr);
    case dtype::int8: return generic_pass<std::int8_t>(in, out, f, rank, c_cast<std::int8_t>(cval), nullptr);
    case dtype::int16: return generic_pass<std::int16_t>(in, out, f, rank, c_cast<std::int16_t>(cval), nullptr);
    case dtype::uint16: return generic_pass<std::uint16_t>(in, out, f, rank, c_cast<std::uint16_t>(cval), nullptr);
    case dtype::int32: return generic_pass<std::int32_t>(in, out, f, rank, c_cast<std::int32_t>(cval), nullptr);
    case dtype::uint32: return generic_pass<std::uint32_t>(in, out, f, rank, c_cast<std::uint32_t>(cval), nullptr);
    case dtype::int64:
      return generic_pass<std::int64_t>(in, out, f, rank, c_cast<std::int64_t>(cval), nullptr, round_trip);
    case dtype::uint64:
      return generic_pass<std::uint64_t>(in, out, f, rank, c_cast<std::uint64_t>(cval), nullptr, round_trip);
    case dtype::float32: return generic_pass<float>(in, out, f, rank, c_cast<float>(cval), nullptr);
    case dtype::float64: return generic_pass<double>(in, out, f, rank, c_cast<double>(cval), nullptr);
    default: break;
  }
  throw runtime_error("cusci::ndimage: rank filter: array type " + std::string(dtype_name(in.dtype())) +
                      " not supported");
}

void rank_line_pass(const ndarray& in, const ndarray& out, std::int64_t window, std::int64_t rank,
                    std::int64_t origin, ext mode, double cval) {
  if (out.size() == 0) return;
  CUSCI_EXPECTS(in.size() <= (std::int64_t{1} << 31) - 1, value_error,
                "cusci::ndimage: rank filter: 1-D arrays of at most 2^31 - 1 elements are supported");
  switch (in.dtype()) {
    case dtype::float32: return line_pass<float>(in, out, window, rank, origin, mode, cval);
    case dtype::float64: return line_pass<double>(in, out, window, rank, origin, mode, cval);
    case dtype::int64: return line_pass<std::int64_t>(in, out, window, rank, origin, mode, cval);
    default: break;
  }
  throw runtime_error("cusci::ndimage: rank filter: 1-D path type " + std::string(dtype_name(in.dtype())) +
                      " not supported");
}

}  // namespace cusci::ndimage::detail
