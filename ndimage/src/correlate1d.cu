// Kernels of the separable 1-D correlation that every linear filter of this module is built on.
//
// The array is seen as [outer, L, inner]: the dims before the filtered axis, the axis, the dims after
// it (each group coalesced; any strides). Three kernels:
//  - rows:    inner == 1 (the axis is the last one): a block stages `lpb` line segments of `tile`
//             outputs plus the K - 1 halo in shared memory, then each thread computes outputs at a
//             block-stride, so loads and stores are coalesced along the line.
//  - columns: inner > 1: a 32 x 8 block stages a [tile_y + K - 1] x 32 tile (32 neighbouring inner
//             positions, coalesced) and each thread walks down its column.
//  - direct:  fallback when the tile would not fit in 48 KiB of shared memory (very long kernels):
//             one thread per output, taps read through the cache.
// Boundary extension is an index map applied only to positions outside [0, L) (SciPy's
// NI_ExtendLine expressed as a map; it holds for any line length, including lines shorter than the
// filter). Sums follow NI_Correlate1D's order exactly (symmetric and antisymmetric kernels pair taps)
// with IEEE double operations and no fused multiply-add, so double results match SciPy bit for bit;
// float32 -> float32 runs in float32.

#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "correlate_pass.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::ndimage::detail {
namespace {

using cusci::detail::strided_indexer;

/// Weights up to this many taps travel in the kernel parameters; longer ones in a device buffer.
constexpr int max_param_taps = 128;
/// Shared memory a block may use without opting in to more.
constexpr std::size_t smem_limit = 48 * 1024;
constexpr int block_threads = 256;
constexpr int col_tx = 32, col_ty = 8;

struct pass_params {
  const char* in;
  char* out;
  std::int64_t L, n_outer, n_inner;
  std::int64_t in_sa, out_sa;  // byte strides along the axis
  strided_indexer in_outer, out_outer, in_inner, out_inner;
  const double* wg;  // device weights when K > max_param_taps
  double cval;
  int K;
  int shift;      // K / 2 + origin: output i reads ext[i - shift + k] for tap k
  int symmetric;  // 1 symmetric, -1 antisymmetric, 0 general (NI_Correlate1D's test)
  int mode;       // ext
  int in_code;    // input dtype, for the run-time loader
  double w[max_param_taps];
};

/// Tag: the input dtype is read at run time (p.in_code).
struct any_in {};

template <class Tin, class Tout>
struct acc_of {
  using type = double;
};
template <>
struct acc_of<float, float> {
  using type = float;
};

__device__ __forceinline__ std::int64_t map_index(std::int64_t i, std::int64_t L, int mode) {
  switch (mode) {
    case static_cast<int>(ext::nearest): return i < 0 ? 0 : L - 1;
    case static_cast<int>(ext::wrap): {
      std::int64_t r = i % L;
      return r < 0 ? r + L : r;
    }
    case static_cast<int>(ext::reflect): {
      const std::int64_t per = 2 * L;
      std::int64_t r = i % per;
      if (r < 0) r += per;
      return r < L ? r : per - 1 - r;
    }
    case static_cast<int>(ext::mirror): {
      if (L == 1) return 0;
      const std::int64_t per = 2 * L - 2;
      std::int64_t r = i % per;
      if (r < 0) r += per;
      return r < L ? r : per - r;
    }
    default: return -1;  // constant
  }
}

template <class Tin, class A>
__device__ __forceinline__ A load_value(const char* ptr, int code) {
  if constexpr (std::is_same_v<Tin, any_in>) {
    switch (code) {
      case static_cast<int>(dtype::bool_):
      case static_cast<int>(dtype::uint8): return static_cast<A>(*reinterpret_cast<const std::uint8_t*>(ptr));
      case static_cast<int>(dtype::int8): return static_cast<A>(*reinterpret_cast<const std::int8_t*>(ptr));
      case static_cast<int>(dtype::int16): return static_cast<A>(*reinterpret_cast<const std::int16_t*>(ptr));
      case static_cast<int>(dtype::uint16): return static_cast<A>(*reinterpret_cast<const std::uint16_t*>(ptr));
      case static_cast<int>(dtype::int32): return static_cast<A>(*reinterpret_cast<const std::int32_t*>(ptr));
      case static_cast<int>(dtype::uint32): return static_cast<A>(*reinterpret_cast<const std::uint32_t*>(ptr));
      case static_cast<int>(dtype::int64): return static_cast<A>(*reinterpret_cast<const std::int64_t*>(ptr));
      case static_cast<int>(dtype::uint64): return static_cast<A>(*reinterpret_cast<const std::uint64_t*>(ptr));
      case static_cast<int>(dtype::float32): return static_cast<A>(*reinterpret_cast<const float*>(ptr));
      default: return static_cast<A>(*reinterpret_cast<const double*>(ptr));
    }
  } else {
    return static_cast<A>(*reinterpret_cast<const Tin*>(ptr));
  }
}

/// Stores with C's conversion from double as compiled for x86-64 (what SciPy's
/// CASE_COPY_LINE_TO_DATA does): truncation toward zero, then wrap-around to the target width.
template <class Tout, class A>
__device__ __forceinline__ void store_value(char* ptr, A v) {
  if constexpr (std::is_floating_point_v<Tout>) {
    *reinterpret_cast<Tout*>(ptr) = static_cast<Tout>(v);
  } else if constexpr (std::is_same_v<Tout, std::uint64_t>) {
    const double d = static_cast<double>(v);
    constexpr double two63 = 9223372036854775808.0;
    *reinterpret_cast<Tout*>(ptr) =
        d >= two63 ? static_cast<std::uint64_t>(static_cast<long long>(d - two63)) + (1ull << 63)
                   : static_cast<std::uint64_t>(static_cast<long long>(d));
  } else {
    *reinterpret_cast<Tout*>(ptr) = static_cast<Tout>(static_cast<long long>(static_cast<double>(v)));
  }
}

template <class A>
__device__ __forceinline__ A op_add(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dadd_rn(a, b);
  else return a + b;
}
template <class A>
__device__ __forceinline__ A op_sub(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dsub_rn(a, b);
  else return a - b;
}
template <class A>
__device__ __forceinline__ A op_mul(A a, A b) {
  if constexpr (std::is_same_v<A, double>) return __dmul_rn(a, b);
  else return a * b;
}

/// One output: `get(k)` returns the extended input under tap k (k = 0..K-1), `w` the weights.
template <class A, class Get, class Wt>
__device__ __forceinline__ A correlate_at(const Get& get, const Wt& w, int K, int symmetric) {
  if (symmetric > 0) {
    const int c = K >> 1;
    A acc = op_mul(get(c), w[c]);
    for (int k = 0; k < c; ++k) acc = op_add(acc, op_mul(op_add(get(k), get(K - 1 - k)), w[k]));
    return acc;
  }
  if (symmetric < 0) {
    const int c = K >> 1;
    A acc = op_mul(get(c), w[c]);
    for (int k = 0; k < c; ++k) acc = op_add(acc, op_mul(op_sub(get(k), get(K - 1 - k)), w[k]));
    return acc;
  }
  A acc = op_mul(get(K - 1), w[K - 1]);
  for (int k = 0; k < K - 1; ++k) acc = op_add(acc, op_mul(get(k), w[k]));
  return acc;
}

template <class A>
struct smem_get {
  const A* s;
  int stride;
  __device__ __forceinline__ A operator()(int k) const { return s[k * stride]; }
};

template <class Tin, class A>
__device__ __forceinline__ A load_ext(const pass_params& p, const char* line_base, std::int64_t i) {
  if (static_cast<std::uint64_t>(i) < static_cast<std::uint64_t>(p.L))
    return load_value<Tin, A>(line_base + i * p.in_sa, p.in_code);
  const std::int64_t m = map_index(i, p.L, p.mode);  // edge tiles only
  if (m < 0) return static_cast<A>(p.cval);
  return load_value<Tin, A>(line_base + m * p.in_sa, p.in_code);
}

template <class A>
__device__ __forceinline__ A* stage_weights(const pass_params& p, unsigned char* smem, int tid, int nthreads) {
  A* sw = reinterpret_cast<A*>(smem);
  for (int k = tid; k < p.K; k += nthreads)
    sw[k] = static_cast<A>(p.K <= max_param_taps ? p.w[k] : p.wg[k]);
  return sw;  // visible after the next __syncthreads()
}

template <class Tin, class Tout>
__global__ void __launch_bounds__(block_threads)
    rows_kernel(const pass_params p, int tile, int lpb, std::int64_t n_seg, std::int64_t n_blocks) {
  using A = typename acc_of<Tin, Tout>::type;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = threadIdx.x;
  const A* sw = stage_weights<A>(p, smem, tid, blockDim.x);
  A* buf = reinterpret_cast<A*>(smem) + p.K;
  const int W = tile + p.K - 1;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t seg = b % n_seg;
    const std::int64_t line0 = (b / n_seg) * lpb;
    const std::int64_t x0 = seg * tile;
    __syncthreads();  // the previous block's reads of buf are done
    for (int l = 0; l < lpb; ++l) {
      const std::int64_t o = line0 + l;
      if (o >= p.n_outer) break;
      const char* base = p.in + p.in_outer.offset(o);
      A* row = buf + l * W;
      for (int q = tid; q < W; q += blockDim.x) row[q] = load_ext<Tin, A>(p, base, x0 + q - p.shift);
    }
    __syncthreads();
    for (int l = 0; l < lpb; ++l) {
      const std::int64_t o = line0 + l;
      if (o >= p.n_outer) break;
      char* obase = p.out + p.out_outer.offset(o);
      const A* row = buf + l * W;
      for (int q = tid; q < tile; q += blockDim.x) {
        const std::int64_t x = x0 + q;
        if (x >= p.L) break;
        const A r = correlate_at<A>(smem_get<A>{row + q, 1}, sw, p.K, p.symmetric);
        store_value<Tout>(obase + x * p.out_sa, r);
      }
    }
  }
}

template <class Tin, class Tout>
__global__ void __launch_bounds__(col_tx* col_ty)
    cols_kernel(const pass_params p, int tile_y, std::int64_t n_bx, std::int64_t n_by, std::int64_t n_blocks) {
  using A = typename acc_of<Tin, Tout>::type;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const A* sw = stage_weights<A>(p, smem, ty * col_tx + tx, col_tx * col_ty);
  A* buf = reinterpret_cast<A*>(smem) + p.K;
  const int rows = tile_y + p.K - 1;
  for (std::int64_t b = blockIdx.x; b < n_blocks; b += gridDim.x) {
    const std::int64_t bx = b % n_bx;
    const std::int64_t t = b / n_bx;
    const std::int64_t by = t % n_by;
    const std::int64_t o = t / n_by;
    const std::int64_t n = bx * col_tx + tx;
    const std::int64_t y0 = by * tile_y;
    const bool col_ok = n < p.n_inner;
    const char* base = p.in + p.in_outer.offset(o) + (col_ok ? p.in_inner.offset(n) : 0);
    __syncthreads();
    for (int r = ty; r < rows; r += col_ty)
      buf[r * col_tx + tx] = col_ok ? load_ext<Tin, A>(p, base, y0 + r - p.shift) : A(0);
    __syncthreads();
    if (col_ok) {
      char* obase = p.out + p.out_outer.offset(o) + p.out_inner.offset(n);
      for (int r = ty; r < tile_y; r += col_ty) {
        const std::int64_t y = y0 + r;
        if (y >= p.L) break;
        const A v = correlate_at<A>(smem_get<A>{buf + r * col_tx + tx, col_tx}, sw, p.K, p.symmetric);
        store_value<Tout>(obase + y * p.out_sa, v);
      }
    }
  }
}

template <class Tin, class A>
struct global_get {
  const char* base;
  std::int64_t i0, L, sa;
  double cval;
  int mode, code;
  __device__ __forceinline__ A operator()(int k) const {
    std::int64_t i = i0 + k;
    if (static_cast<std::uint64_t>(i) >= static_cast<std::uint64_t>(L)) {
      i = map_index(i, L, mode);
      if (i < 0) return static_cast<A>(cval);
    }
    return load_value<Tin, A>(base + i * sa, code);
  }
};

template <class A>
struct global_weights {
  const double* w;
  __device__ __forceinline__ A operator[](int k) const { return static_cast<A>(w[k]); }
};

template <class Tin, class Tout>
__global__ void __launch_bounds__(block_threads) direct_kernel(const pass_params p, std::int64_t n_total) {
  using A = typename acc_of<Tin, Tout>::type;
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n_total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t n = t % p.n_inner;
    const std::int64_t rem = t / p.n_inner;
    const std::int64_t y = rem % p.L;
    const std::int64_t o = rem / p.L;
    const global_get<Tin, A> get{p.in + p.in_outer.offset(o) + p.in_inner.offset(n), y - p.shift, p.L, p.in_sa,
                                 p.cval, p.mode, p.in_code};
    // Only used for kernels longer than max_param_taps, whose weights are in p.wg.
    const A acc = correlate_at<A>(get, global_weights<A>{p.wg}, p.K, p.symmetric);
    store_value<Tout>(p.out + p.out_outer.offset(o) + y * p.out_sa + p.out_inner.offset(n), acc);
  }
}

unsigned blocks_for(std::int64_t n_blocks) {
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(n_blocks, 1), 1LL << 22));
}

template <class Tin, class Tout>
void launch(const pass_params& p, cudaStream_t stream) {
  using A = typename acc_of<Tin, Tout>::type;
  const std::size_t as = sizeof(A);
  const std::int64_t K = p.K;
  if (p.n_inner == 1) {
    // Tile length: the line rounded up to a warp, at most 2048 outputs; short lines are packed
    // several to a block so a block always has work for its 256 threads.
    std::int64_t tile = std::min<std::int64_t>((p.L + 31) / 32 * 32, 2048);
    std::int64_t lpb = std::max<std::int64_t>(1, 2048 / tile);
    lpb = std::min<std::int64_t>(lpb, p.n_outer);
    auto bytes = [&] { return static_cast<std::size_t>(K + lpb * (tile + K - 1)) * as; };
    while (bytes() > smem_limit && lpb > 1) lpb /= 2;
    while (bytes() > smem_limit && tile > 256) tile /= 2;
    if (bytes() <= smem_limit) {
      const std::int64_t n_seg = (p.L + tile - 1) / tile;
      const std::int64_t n_blocks = n_seg * ((p.n_outer + lpb - 1) / lpb);
      rows_kernel<Tin, Tout><<<blocks_for(n_blocks), block_threads, bytes(), stream>>>(
          p, static_cast<int>(tile), static_cast<int>(lpb), n_seg, n_blocks);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  } else {
    std::int64_t tile_y = std::is_same_v<A, float> ? 128 : 64;
    tile_y = std::min<std::int64_t>(tile_y, (p.L + col_ty - 1) / col_ty * col_ty);
    auto bytes = [&] { return static_cast<std::size_t>(K + (tile_y + K - 1) * col_tx) * as; };
    while (bytes() > smem_limit && tile_y > col_ty) tile_y -= col_ty;
    if (bytes() <= smem_limit) {
      const std::int64_t n_bx = (p.n_inner + col_tx - 1) / col_tx;
      const std::int64_t n_by = (p.L + tile_y - 1) / tile_y;
      const std::int64_t n_blocks = n_bx * n_by * p.n_outer;
      cols_kernel<Tin, Tout><<<blocks_for(n_blocks), dim3(col_tx, col_ty), bytes(), stream>>>(
          p, static_cast<int>(tile_y), n_bx, n_by, n_blocks);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  }
  // Fallback, reached only for K > max_param_taps (shorter kernels always fit), so p.wg is set.
  const std::int64_t n_total = p.n_outer * p.L * p.n_inner;
  direct_kernel<Tin, Tout><<<blocks_for((n_total + block_threads - 1) / block_threads), block_threads, 0, stream>>>(
      p, n_total);
  CUSCI_CHECK_LAUNCH();
}

template <class Tin>
void launch_out(dtype out, const pass_params& p, cudaStream_t stream) {
  switch (out) {
    case dtype::bool_:  // SciPy stores the truncated byte into a bool (npy_bool is unsigned char)
    case dtype::uint8: return launch<Tin, std::uint8_t>(p, stream);
    case dtype::int8: return launch<Tin, std::int8_t>(p, stream);
    case dtype::int16: return launch<Tin, std::int16_t>(p, stream);
    case dtype::uint16: return launch<Tin, std::uint16_t>(p, stream);
    case dtype::int32: return launch<Tin, std::int32_t>(p, stream);
    case dtype::uint32: return launch<Tin, std::uint32_t>(p, stream);
    case dtype::int64: return launch<Tin, std::int64_t>(p, stream);
    case dtype::uint64: return launch<Tin, std::uint64_t>(p, stream);
    case dtype::float32: return launch<Tin, float>(p, stream);
    case dtype::float64: return launch<Tin, double>(p, stream);
    default: break;
  }
  throw type_error("cusci::ndimage: output dtype " + std::string(dtype_name(out)) + " is not supported by the kernel");
}

void split_axes(const ndarray& in, const ndarray& out, int begin, int end, strided_indexer& ii, strided_indexer& oi,
                std::int64_t& count) {
  shape_t shape(in.shape().begin() + begin, in.shape().begin() + end);
  shape_t is(in.strides().begin() + begin, in.strides().begin() + end);
  shape_t os(out.strides().begin() + begin, out.strides().begin() + end);
  count = 1;
  for (auto s : shape) count *= s;
  cusci::detail::coalesce(shape, {&is, &os});
  ii = cusci::detail::make_indexer(shape, is);
  oi = cusci::detail::make_indexer(shape, os);
}

}  // namespace

void correlate_pass(const ndarray& in, const ndarray& out, int axis, const std::vector<double>& w, ext mode,
                    double cval, std::int64_t origin) {
  if (out.size() == 0) return;
  pass_params p{};
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  p.L = in.shape()[axis];
  p.in_sa = in.strides()[axis];
  p.out_sa = out.strides()[axis];
  split_axes(in, out, 0, axis, p.in_outer, p.out_outer, p.n_outer);
  split_axes(in, out, axis + 1, in.ndim(), p.in_inner, p.out_inner, p.n_inner);
  const int K = static_cast<int>(w.size());
  p.K = K;
  p.shift = static_cast<int>(K / 2 + origin);
  p.mode = static_cast<int>(mode);
  p.cval = cval;
  p.in_code = static_cast<int>(in.dtype());
  // NI_Correlate1D's symmetry test, on odd lengths only.
  const int s1 = K / 2;
  p.symmetric = 0;
  if (K & 1) {
    p.symmetric = 1;
    for (int i = 1; i <= s1; ++i)
      if (std::fabs(w[s1 + i] - w[s1 - i]) > DBL_EPSILON) {
        p.symmetric = 0;
        break;
      }
    if (p.symmetric == 0) {
      p.symmetric = -1;
      for (int i = 1; i <= s1; ++i)
        if (std::fabs(w[s1 + i] + w[s1 - i]) > DBL_EPSILON) {
          p.symmetric = 0;
          break;
        }
    }
  }
  cudaStream_t stream = get_current_stream();
  device_buffer<double> wbuf;
  if (K <= max_param_taps) {
    for (int k = 0; k < K; ++k) p.w[k] = w[k];
  } else {
    wbuf = device_buffer<double>(static_cast<std::size_t>(K), stream);
    // From pageable memory: returns once the host data is staged, so `w` may go away afterwards.
    CUSCI_CUDA_TRY(cudaMemcpyAsync(wbuf.data(), w.data(), K * sizeof(double), cudaMemcpyHostToDevice, stream));
    p.wg = wbuf.data();
  }
  if (in.dtype() == dtype::float32 && out.dtype() == dtype::float32) return launch<float, float>(p, stream);
  if (in.dtype() == dtype::float64 && out.dtype() == dtype::float64) return launch<double, double>(p, stream);
  launch_out<any_in>(out.dtype(), p, stream);
}

}  // namespace cusci::ndimage::detail
