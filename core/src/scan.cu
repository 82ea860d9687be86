/// @file scan.cu
/// cumsum, cumprod, nancumsum, nancumprod and diff.
///
/// The output (C order) is viewed as (outer, L, inner) around the scan axis of length L:
///  - inner == 1, outer == 1 (a 1-D scan, also axis=None): CUB's single-pass decoupled look-back scan
///    (cub::DeviceScan::InclusiveScan, temporary storage from the pool);
///  - inner == 1, outer > 1 (rows along the last axis): a block per row (cub::BlockScan over tiles of
///    1024 elements, carrying the running prefix), or a CUB scan per row for a few long rows;
///  - inner > 1 (a strided axis): a column-tiled single-pass scan. A block owns 256 consecutive
///    columns and R consecutive rows (its "chunk"), holds its R x 256 elements in registers, publishes
///    the chunk's per-column aggregate, looks back over the preceding chunks of its tile for their
///    aggregates / inclusive prefixes (decoupled look-back, Merrill and Garland 2016) and writes the
///    chunk once. Chunks are handed out in order through an atomic ticket, so a block only waits on
///    blocks that are already running: no deadlock whatever the residency.
/// Accumulation: float32 and float16 in float32 (NumPy's float32 scan is sequential in float32),
/// float64 in float64, complex in complex128, integers in int64/uint64 (wrapping as NumPy).

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/atomic>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "cusci/detail/copy.hpp"
#include "cusci/elementwise.hpp"
#include "reduction_ops.cuh"

namespace cusci {
namespace {

using namespace detail::red;
using c128 = cuda::std::complex<double>;

template <bool Prod>
struct scan_op {
  template <class A>
  __host__ __device__ __forceinline__ A operator()(const A& a, const A& b) const {
#ifdef __CUDA_ARCH__
    return arith<Prod>(a, b);
#else
    return a;  // never called on the host
#endif
  }
};

template <class A, bool Prod>
__host__ __device__ __forceinline__ A scan_identity() {
  return Prod ? A(1) : A(0);
}

/// Element i of a strided 1-D input of runtime dtype, as A; NaN replaced by the identity when Nan.
template <class A, bool Prod, bool Nan>
struct loader {
  const char* base;
  i64 stride;
  dtype dt;
  __device__ __forceinline__ A operator()(i64 i) const {
    A v = load_as<A>(base + i * stride, dt);
    if constexpr (Nan) {
      if (isnan_any(v)) v = scan_identity<A, Prod>();
    }
    return v;
  }
};

template <class A, bool Prod, bool Nan>
__device__ __forceinline__ A load_fix(const char* p, dtype dt) {
  A v = load_as<A>(p, dt);
  if constexpr (Nan) {
    if (isnan_any(v)) v = scan_identity<A, Prod>();
  }
  return v;
}

/// A CUB scan of n elements (1-D, strided, runtime dtype) into out[0, n).
template <class A, bool Prod, bool Nan>
void cub_scan(const char* base, i64 stride, dtype dt, i64 n, A* out, cudaStream_t stream) {
  std::size_t bytes = 0;
  // Floating-point sums scan with cuda::std::plus (the same a + b): CUB selects its sm_90-tuned
  // policy (128 threads x 24 items, tuned look-back back-off) only for its own primitive operators;
  // a custom functor falls back to the generic 128 x 15 policy, about 60% of the copy roofline.
  using op_t = std::conditional_t<!Prod && std::is_floating_point_v<A>, ::cuda::std::plus<A>, scan_op<Prod>>;
  auto run_with = [&](auto in) {
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveScan(nullptr, bytes, in, out, op_t{}, n, stream));
    memory_ptr tmp = cusci::malloc(std::max<std::size_t>(bytes, 1), stream);
    CUSCI_CUDA_TRY(cub::DeviceScan::InclusiveScan(tmp->ptr(), bytes, in, out, op_t{}, n, stream));
  };
  if constexpr (std::is_same_v<A, float> && !Nan) {
    if (dt == dtype::float32 && stride == 4) {
      run_with(reinterpret_cast<const float*>(base));
      return;
    }
  }
  run_with(thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), loader<A, Prod, Nan>{base, stride, dt}));
}

constexpr int row_items = 4;

/// A block per row: tiles of block_threads * row_items elements, each thread a blocked run of
/// row_items, cub::BlockScan over the tile, then the running prefix of the row added.
template <class A, bool Prod, bool Nan>
__global__ void __launch_bounds__(block_threads) scan_rows(const char* base, dtype dt, nd_map<1> rows, i64 ax_stride,
                                                          i64 L, i64 outer, A* out) {
  using BS = cub::BlockScan<A, block_threads>;
  __shared__ typename BS::TempStorage tmp;
  const scan_op<Prod> op{};
  for (i64 row = blockIdx.x; row < outer; row += gridDim.x) {
    i64 off[1];
    rows.offsets(row, off);
    const char* rb = base + off[0];
    A* ob = out + row * L;
    A carry = scan_identity<A, Prod>();
    for (i64 t0 = 0; t0 < L; t0 += static_cast<i64>(block_threads) * row_items) {
      A x[row_items];
#pragma unroll
      for (int k = 0; k < row_items; ++k) {
        const i64 j = t0 + static_cast<i64>(threadIdx.x) * row_items + k;
        x[k] = j < L ? load_fix<A, Prod, Nan>(rb + j * ax_stride, dt) : scan_identity<A, Prod>();
      }
      A agg;
      BS(tmp).InclusiveScan(x, x, op, agg);
#pragma unroll
      for (int k = 0; k < row_items; ++k) {
        const i64 j = t0 + static_cast<i64>(threadIdx.x) * row_items + k;
        if (j < L) ob[j] = op(carry, x[k]);
      }
      carry = op(carry, agg);
      __syncthreads();  // tmp is reused by the next tile
    }
  }
}

struct col_args {
  const char* base;
  dtype dt;
  nd_map<1> cols;  // column index (outer-major, inner-minor) -> input byte offset of its row 0
  i64 ax_stride;   // bytes between rows of a column
  i64 L, inner, n_cols;
  i64 n_tiles, n_chunks;
  void* out;       // A[outer][L][inner]
  void* agg;       // A[n_chunks][n_cols]
  void* incl;      // A[n_chunks][n_cols]
  int* flags;      // [n_chunks][n_tiles]: 0 nothing, 1 aggregate, 2 inclusive prefix published
  unsigned* ticket;
};

template <class A>
constexpr int col_rows() {
  constexpr int r = static_cast<int>(128 / sizeof(A));
  return r < 4 ? 4 : (r > 32 ? 32 : r);
}

template <class A, bool Prod, bool Nan, bool Static32>
__global__ void __launch_bounds__(block_threads) scan_cols(col_args g) {
  constexpr int R = col_rows<A>();
  const scan_op<Prod> op{};
  __shared__ unsigned s_ticket;
  if (threadIdx.x == 0) s_ticket = g.n_chunks > 1 ? atomicAdd(g.ticket, 1u) : blockIdx.x;
  __syncthreads();
  const i64 t = s_ticket;
  const i64 chunk = t / g.n_tiles, tile = t - chunk * g.n_tiles;
  const i64 k = tile * block_threads + threadIdx.x;
  const bool valid = k < g.n_cols;
  const i64 r0 = chunk * R;
  const int rn = static_cast<int>(g.L - r0 < R ? g.L - r0 : R);
  A x[R];
  A local = scan_identity<A, Prod>();
  i64 o = 0, i = 0;
  if (valid) {
    i64 off[1];
    g.cols.offsets(k, off);
    const char* cb = g.base + off[0] + r0 * g.ax_stride;
    o = k / g.inner;
    i = k - o * g.inner;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (q < rn) {
        if constexpr (Static32) x[q] = *reinterpret_cast<const float*>(cb + q * g.ax_stride);
        else x[q] = load_fix<A, Prod, Nan>(cb + q * g.ax_stride, g.dt);
      }
    }
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (q < rn) local = op(local, x[q]);
  }
  A prefix = scan_identity<A, Prod>();
  if (g.n_chunks > 1) {
    A* agg = static_cast<A*>(g.agg);
    A* incl = static_cast<A*>(g.incl);
    if (valid) (chunk == 0 ? incl : agg)[chunk * g.n_cols + k] = local;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
      cuda::atomic_ref<int, cuda::thread_scope_device> f(g.flags[chunk * g.n_tiles + tile]);
      f.store(chunk == 0 ? 2 : 1, cuda::memory_order_release);
    }
    if (chunk > 0) {
      for (i64 p = chunk - 1;; --p) {
        cuda::atomic_ref<int, cuda::thread_scope_device> f(g.flags[p * g.n_tiles + tile]);
        int s;
        while ((s = f.load(cuda::memory_order_acquire)) == 0) __nanosleep(64);
        if (valid) {
          const A v = s == 2 ? incl[p * g.n_cols + k] : agg[p * g.n_cols + k];
          prefix = op(v, prefix);
        }
        if (s == 2) break;  // s is the same in every thread: the loop exits together
      }
      if (valid) incl[chunk * g.n_cols + k] = op(prefix, local);
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> f(g.flags[chunk * g.n_tiles + tile]);
        f.store(2, cuda::memory_order_release);
      }
    }
  }
  if (valid) {
    A* ob = static_cast<A*>(g.out) + (o * g.L + r0) * g.inner + i;
    A run = prefix;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (q < rn) {
        run = op(run, x[q]);
        ob[q * g.inner] = run;
      }
    }
  }
}

/// Scans `src` along `ax` into the C-contiguous A buffer `out` of src's shape.
template <class A, bool Prod, bool Nan>
void scan_into(const ndarray& src, int ax, A* out) {
  cudaStream_t stream = get_current_stream();
  const int nd = src.ndim();
  i64 outer = 1, inner = 1;
  for (int d = 0; d < ax; ++d) outer *= src.shape()[d];
  for (int d = ax + 1; d < nd; ++d) inner *= src.shape()[d];
  const i64 L = src.shape()[ax];
  const i64 ax_stride = src.strides()[ax];
  const char* base = static_cast<const char*>(src.data());
  if (inner == 1) {
    if (outer == 1 || (outer <= 8 && L >= (i64{1} << 20))) {
      shape_t os, ost;
      for (int d = 0; d < ax; ++d) { os.push_back(src.shape()[d]); ost.push_back(src.strides()[d]); }
      const nd_map<1> m = make_map<1>(os, {ost});
      // Host-side offsets of the few rows (C order over the outer axes).
      for (i64 row = 0; row < outer; ++row) {
        i64 off = 0, rem = row;
        for (int d = m.ndim - 1; d >= 0; --d) {
          off += (rem % m.shape[d]) * m.stride[0][d];
          rem /= m.shape[d];
        }
        cub_scan<A, Prod, Nan>(base + off, ax_stride, src.dtype(), L, out + row * L, stream);
      }
      return;
    }
    shape_t os, ost;
    for (int d = 0; d < ax; ++d) { os.push_back(src.shape()[d]); ost.push_back(src.strides()[d]); }
    const nd_map<1> m = make_map<1>(os, {ost});
    const unsigned blocks = static_cast<unsigned>(std::min<i64>(outer, static_cast<i64>(sm_count()) * 16));
    scan_rows<A, Prod, Nan><<<blocks, block_threads, 0, stream>>>(base, src.dtype(), m, ax_stride, L, outer, out);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  // Strided axis: columns = (outer, inner) in C order.
  shape_t cs, cst;
  for (int d = 0; d < nd; ++d) {
    if (d == ax) continue;
    cs.push_back(src.shape()[d]);
    cst.push_back(src.strides()[d]);
  }
  col_args g{};
  g.base = base;
  g.dt = src.dtype();
  g.cols = make_map<1>(cs, {cst});
  g.ax_stride = ax_stride;
  g.L = L;
  g.inner = inner;
  g.n_cols = outer * inner;
  g.n_tiles = ceil_div(g.n_cols, block_threads);
  constexpr int R = col_rows<A>();
  g.n_chunks = ceil_div(L, R);
  g.out = out;
  CUSCI_EXPECTS(g.n_tiles * g.n_chunks <= 0x7fffffffLL, value_error, "cusci::cumsum: array too large");
  memory_ptr agg, incl, flags;
  if (g.n_chunks > 1) {
    const std::size_t vals = static_cast<std::size_t>(g.n_chunks * g.n_cols) * sizeof(A);
    agg = cusci::malloc(vals, stream);
    incl = cusci::malloc(vals, stream);
    const std::size_t fbytes = static_cast<std::size_t>(g.n_chunks * g.n_tiles) * sizeof(int) + 16;
    flags = cusci::malloc(fbytes, stream);
    CUSCI_CUDA_TRY(cudaMemsetAsync(flags->ptr(), 0, fbytes, stream));
    g.agg = agg->ptr();
    g.incl = incl->ptr();
    g.ticket = static_cast<unsigned*>(flags->ptr());
    g.flags = reinterpret_cast<int*>(static_cast<char*>(flags->ptr()) + 16);
  }
  const unsigned blocks = static_cast<unsigned>(g.n_tiles * g.n_chunks);
  bool static32 = false;
  if constexpr (std::is_same_v<A, float> && !Nan) static32 = src.dtype() == dtype::float32;
  if (static32) scan_cols<A, Prod, Nan, true><<<blocks, block_threads, 0, stream>>>(g);
  else scan_cols<A, Prod, Nan, false><<<blocks, block_threads, 0, stream>>>(g);
  CUSCI_CHECK_LAUNCH();
}

/// The accumulator dtype of a scan with result dtype r.
dtype scan_acc(dtype r) {
  if (r == dtype::bool_ || is_signed_integer(r)) return dtype::int64;
  if (is_unsigned_integer(r)) return dtype::uint64;
  if (r == dtype::float16 || r == dtype::float32) return dtype::float32;
  if (r == dtype::float64) return dtype::float64;
  return dtype::complex128;
}

ndarray scan(const char* fn, bool prod, bool nan, const ndarray& a, std::optional<int> axis,
             std::optional<dtype> dt) {
  const dtype d = a.dtype();
  const dtype r = dt ? *dt : default_sum_dtype(d);
  nan = nan && is_inexact(d);
  ndarray src = a;
  const bool direct = (promote_types(d, r) == r) || (is_integer(r) && (is_integer(d) || d == dtype::bool_));
  if (!direct) src = a.astype(r);
  int ax = 0;
  if (!axis) {
    if (!detail::cm::dense_c(src)) src = src.copy(order::C);
    src = src.reshape(shape_t{src.size()});
  } else {
    const int nd = a.ndim();
    if (*axis < -nd || *axis >= nd)
      throw index_error(std::string(fn) + ": axis " + std::to_string(*axis) + " is out of bounds for array of dimension " +
                        std::to_string(nd));
    ax = *axis < 0 ? *axis + nd : *axis;
  }
  ndarray out = empty(src.shape(), r);
  if (out.size() == 0) return out;
  const dtype acc = scan_acc(r);
  // Scan straight into the output when its dtype is the accumulator's, else into a temporary.
  ndarray target = (acc == r) ? out : empty(src.shape(), acc);
  auto go = [&](auto tag) {
    using A = typename decltype(tag)::type;
    A* o = static_cast<A*>(target.data());
    if (prod) {
      if (nan) scan_into<A, true, true>(src, ax, o);
      else scan_into<A, true, false>(src, ax, o);
    } else {
      if (nan) scan_into<A, false, true>(src, ax, o);
      else scan_into<A, false, false>(src, ax, o);
    }
  };
  using detail::type_tag;
  if (acc == dtype::float32) go(type_tag<float>{});
  else if (acc == dtype::float64) go(type_tag<double>{});
  else if (acc == dtype::complex128) go(type_tag<c128>{});
  else if (acc == dtype::uint64) go(type_tag<std::uint64_t>{});
  else go(type_tag<std::int64_t>{});
  if (acc != r) detail::copy_cast(target, out);
  return out;
}

/// `b` broadcast or checked against `a`'s shape with length 1 (0-d) or its own length along `ax`.
ndarray fit_piece(const ndarray& a, const ndarray& b, int ax, const char* which) {
  if (b.ndim() == 0) {
    shape_t s = a.shape();
    s[ax] = 1;
    return b.broadcast_to(s);
  }
  bool ok = b.ndim() == a.ndim();
  for (int d = 0; ok && d < a.ndim(); ++d) ok = d == ax || b.shape()[d] == a.shape()[d];
  if (!ok)
    throw value_error(std::string("cusci::diff: ") + which + " must match a's shape " +
                      detail::cm::shape_str(a.shape()) + " except along axis " + std::to_string(ax) + ", got " +
                      detail::cm::shape_str(b.shape()));
  return b;
}

}  // namespace

ndarray cumsum(const ndarray& a, std::optional<int> axis, std::optional<dtype> dtype) {
  return scan("cusci::cumsum", false, false, a, axis, dtype);
}
ndarray cumprod(const ndarray& a, std::optional<int> axis, std::optional<dtype> dtype) {
  return scan("cusci::cumprod", true, false, a, axis, dtype);
}
ndarray nancumsum(const ndarray& a, std::optional<int> axis, std::optional<dtype> dtype) {
  return scan("cusci::nancumsum", false, true, a, axis, dtype);
}
ndarray nancumprod(const ndarray& a, std::optional<int> axis, std::optional<dtype> dtype) {
  return scan("cusci::nancumprod", true, true, a, axis, dtype);
}

ndarray diff(const ndarray& a, int n, int axis, const diff_options& opts) {
  if (n < 0) throw value_error("cusci::diff: order must be non-negative but got " + std::to_string(n));
  const int nd = a.ndim();
  if (nd == 0) throw value_error("cusci::diff: diff requires input that is at least one dimensional");
  if (axis < -nd || axis >= nd)
    throw index_error("cusci::diff: axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                      std::to_string(nd));
  const int ax = axis < 0 ? axis + nd : axis;
  if (n == 0) return a;
  ndarray x = a;
  if (opts.prepend || opts.append) {
    std::vector<ndarray> parts;
    if (opts.prepend) parts.push_back(fit_piece(a, *opts.prepend, ax, "prepend"));
    parts.push_back(a);
    if (opts.append) parts.push_back(fit_piece(a, *opts.append, ax, "append"));
    dtype rt = parts[0].dtype();
    shape_t s = a.shape();
    s[ax] = 0;
    for (const auto& p : parts) {
      rt = promote_types(rt, p.dtype());
      s[ax] += p.shape()[ax];
    }
    x = empty(s, rt);
    std::int64_t at = 0;
    for (const auto& p : parts) {
      std::vector<index_spec> idx(static_cast<std::size_t>(nd), slice{});
      idx[ax] = slice{at, at + p.shape()[ax], 1};
      ndarray dst = x[idx];
      if (p.size() > 0) detail::copy_cast(p, dst);
      at += p.shape()[ax];
    }
  }
  for (int k = 0; k < n; ++k) {
    const std::int64_t len = x.shape()[ax];
    std::vector<index_spec> hi(static_cast<std::size_t>(nd), slice{}), lo(static_cast<std::size_t>(nd), slice{});
    hi[ax] = slice{std::min<std::int64_t>(1, len), {}, 1};
    lo[ax] = slice{{}, std::max<std::int64_t>(len - 1, 0), 1};
    x = x.dtype() == dtype::bool_ ? not_equal(x[hi], x[lo]) : subtract(x[hi], x[lo]);
  }
  return x;
}

}  // namespace cusci
