#pragma once
/// @file reduction_engine.cuh  (private to core/src; nvcc only)
/// The generic reduction engine behind sum, prod, mean, min, max, var, argmax, any, ... : one set of
/// kernels parametrized by an input element type and an operation ("Op"), and the host-side plan.
///
/// The input is viewed as (kept axes) x (reduced axes): output element i (C order over the kept axes)
/// reduces the elements at `kept_offset(i) + reduced_offset(j)`, j in [0, n_red). Reduced axes are
/// ordered by decreasing |stride| and each group's contiguous axes are merged (for a C-contiguous
/// input or a single reduced axis, j is therefore NumPy's flat index of the reduced axes, which the
/// arg-reductions rely on). One of two kernels runs:
///  - rows: the reduced axes hold the fastest-varying memory (or there is a single output): a warp
///    (many outputs) or a block (few outputs) reduces a chunk of one output's elements; contiguous
///    rows of a statically typed input use 16-byte vector loads, four in flight per thread;
///  - columns: the kept axes hold the fastest-varying memory: consecutive threads own consecutive
///    outputs (with a contiguous, aligned kept axis each thread owns a 16-byte vector of outputs),
///    eight rows in flight, the reduced range split in chunks over blockIdx.y to fill the device.
/// When an output is split in chunks, per-chunk partial states go to a pool buffer and a second kernel
/// merges them in chunk order. No atomics: results are deterministic for a given shape and device.
///
/// An Op supplies:
///   using acc = ...;                              accumulator state (any trivially copyable type)
///   using load_t = ...;                           what a runtime-typed ("dyn") element loads as
///   static acc identity();
///   template <class L> static void step(acc&, L x, i64 j);   fold element x (flat reduced index j)
///   static acc merge(acc a, acc b);               a covers lower indices than b
///   static void store(char* p, dtype dt, const acc&, const store_ctx&);
///   static constexpr bool pairwise32;             optional: float32 vector groups added in float32 first
///   static load_t load_dyn(const char* p, dtype d);

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda/std/limits>

#include "common/core_math_common.cuh"
#include "cusci/reduction.hpp"

namespace cusci::detail::red {

using namespace cusci::detail::cm;
using cusci::detail::compute_t;
using cusci::detail::is_complex_v;

/// Input element type tag for inputs converted on load from a runtime dtype.
struct dyn {};

/// Values the store step may need besides the state.
struct store_ctx {
  i64 n_red = 0;      // number of reduced elements per output
  double ddof = 0;    // var/std
  bool flag = false;  // op-specific switch (std: take the square root)
};

template <class T>
__host__ __device__ __forceinline__ bool isnan_any(T v) {
  if constexpr (is_complex_v<T>) return v.real() != v.real() || v.imag() != v.imag();
  else if constexpr (std::is_same_v<T, __half>) return __hisnan(v);
  else if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

/// Lexicographic "x before y" for complex values without NaN; `<` otherwise.
template <class A>
__device__ __forceinline__ bool less_than(A x, A y) {
  if constexpr (is_complex_v<A>) return x.real() < y.real() || (x.real() == y.real() && x.imag() < y.imag());
  else return x < y;
}

/// The largest / smallest value of a compute type (infinities for floats, (inf, inf) for complex).
template <class A, bool Max>
__device__ __forceinline__ A extreme() {
  if constexpr (std::is_same_v<A, bool>) return Max;
  else if constexpr (is_complex_v<A>) {
    using R = typename A::value_type;
    const R v = Max ? cuda::std::numeric_limits<R>::infinity() : -cuda::std::numeric_limits<R>::infinity();
    return A(v, v);
  } else if constexpr (std::is_floating_point_v<A>) {
    return Max ? cuda::std::numeric_limits<A>::infinity() : -cuda::std::numeric_limits<A>::infinity();
  } else {
    return Max ? cuda::std::numeric_limits<A>::max() : cuda::std::numeric_limits<A>::lowest();
  }
}

template <class A>
__device__ __forceinline__ A quiet_nan() {
  if constexpr (is_complex_v<A>) {
    using R = typename A::value_type;
    return A(cuda::std::numeric_limits<R>::quiet_NaN(), R(0));
  } else if constexpr (std::is_floating_point_v<A>) {
    return cuda::std::numeric_limits<A>::quiet_NaN();
  } else {
    return A(0);
  }
}

/// A default runtime-typed load.
template <class L>
__device__ __forceinline__ L load_default(const char* p, dtype d) {
  return load_as<L>(p, d);
}

// ---------------------------------------------------------------------------------------------
// Warp and block helpers for any state type.
// ---------------------------------------------------------------------------------------------

constexpr unsigned full_mask = 0xffffffffu;

template <class A>
__device__ __forceinline__ A shfl_down(A v, int d) {
  if constexpr (sizeof(A) < 4) {
    if constexpr (std::is_same_v<A, bool>) return __shfl_down_sync(full_mask, static_cast<int>(v), d) != 0;
    else return static_cast<A>(__shfl_down_sync(full_mask, static_cast<int>(v), d));
  } else {
    static_assert(sizeof(A) % 4 == 0, "reduction state must be a multiple of 4 bytes");
    constexpr int W = static_cast<int>(sizeof(A) / 4);
    unsigned w[W];
    std::memcpy(w, &v, sizeof(A));
#pragma unroll
    for (int k = 0; k < W; ++k) w[k] = __shfl_down_sync(full_mask, w[k], d);
    A r;
    std::memcpy(&r, w, sizeof(A));
    return r;
  }
}

/// Lane 0 ends with the merge of the warp's states in lane order.
template <class Op>
__device__ __forceinline__ typename Op::acc warp_reduce(typename Op::acc v) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    // Lane l merges lane l + d: lower lanes always cover lower indices in the callers below.
    v = Op::merge(v, shfl_down(v, d));
  }
  return v;
}

/// Reduces over the block (blockDim.x a multiple of 32); the result is valid in thread 0. Every
/// thread of the block must call it.
template <class Op>
__device__ __forceinline__ typename Op::acc block_reduce(typename Op::acc v) {
  using A = typename Op::acc;
  __shared__ alignas(16) unsigned char raw[32 * sizeof(A)];
  A* sm = reinterpret_cast<A*>(raw);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_reduce<Op>(v);
  __syncthreads();  // a previous use of `raw` is complete
  if (lane == 0) sm[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x >> 5) ? sm[lane] : Op::identity();
    v = warp_reduce<Op>(v);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Kernels.
// ---------------------------------------------------------------------------------------------

struct reduce_args {
  const char* base;     // element 0 of the input
  dtype in_dt;          // input dtype (for dyn loads)
  nd_map<1> kept;       // output index -> input byte offset of the output's first element
  nd_map<1> red;        // reduced index -> byte offset from there
  i64 n_out, n_red;
  i64 chunks, chunk_len;
  bool vec;             // rows kernel: 16-byte vector loads of a contiguous row
  bool per_block;       // rows kernel: a block (else a warp) per (output, chunk)
  int col_vec;          // columns kernel: outputs per thread (1, or the vector width)
  void* partial;        // acc[n_out * chunks] when chunks > 1
  char* out;            // final output (when chunks == 1)
  dtype out_dt;
  int out_item;
  store_ctx ctx;
};

template <class In, class Op>
using load_type = std::conditional_t<std::is_same_v<In, dyn>, typename Op::load_t, In>;

template <class In, class Op>
__device__ __forceinline__ load_type<In, Op> load_elem(const char* p, dtype dt) {
  if constexpr (std::is_same_v<In, dyn>) return Op::load_dyn(p, dt);
  else return *reinterpret_cast<const In*>(p);
}

template <class Op, class = void> struct has_pairwise : std::false_type {};
template <class Op> struct has_pairwise<Op, std::void_t<decltype(Op::pairwise32)>>
    : std::bool_constant<Op::pairwise32> {};

/// Folds V consecutive elements starting at flat index j0. float32 sums add the group pairwise in
/// float32 first and widen once (far fewer float32 -> float64 conversions, a quarter-rate instruction
/// on sm_90), still at least as accurate as NumPy's pairwise float32 sum.
template <class Op, class L, int V>
__device__ __forceinline__ void step_vec(typename Op::acc& a, L (&x)[V], i64 j0) {
  if constexpr (has_pairwise<Op>::value && std::is_same_v<L, float> && (V & (V - 1)) == 0) {
#pragma unroll
    for (int w = V / 2; w >= 1; w /= 2) {
#pragma unroll
      for (int i = 0; i < w; ++i) x[i] = x[i] + x[i + w];
    }
    Op::step(a, x[0], j0);
  } else {
#pragma unroll
    for (int i = 0; i < V; ++i) Op::step(a, x[i], j0 + i);
  }
}

constexpr int row_unroll = 4;
constexpr int col_unroll = 8;

template <class In, class Op>
__global__ void __launch_bounds__(block_threads) reduce_rows(reduce_args g) {
  using A = typename Op::acc;
  const int lane = threadIdx.x & 31;
  const int G = g.per_block ? static_cast<int>(blockDim.x) : 32;
  const int lg = g.per_block ? static_cast<int>(threadIdx.x) : lane;
  const i64 first = g.per_block ? static_cast<i64>(blockIdx.x)
                                : (static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const i64 n_groups = g.per_block ? static_cast<i64>(gridDim.x)
                                   : (static_cast<i64>(gridDim.x) * blockDim.x) >> 5;
  const i64 n_items = g.n_out * g.chunks;
  // Every thread of a group runs the same number of iterations (block_reduce needs the whole block).
  for (i64 w = first; w < n_items; w += n_groups) {
    const i64 row = w / g.chunks, c = w - row * g.chunks;
    const i64 j0 = c * g.chunk_len;
    const i64 j1 = ::min(g.n_red, j0 + g.chunk_len);
    i64 koff[1];
    g.kept.offsets(row, koff);
    const char* rbase = g.base + koff[0];
    A acc = Op::identity();
    bool done = false;
    if constexpr (!std::is_same_v<In, dyn>) {
      if (g.vec) {
        constexpr int V = vec_width<In>;
        const In* p = reinterpret_cast<const In*>(rbase);
        const i64 q1 = j1 / V;  // j0 is a multiple of V (chunk_len is a multiple of 16)
        for (i64 q = j0 / V + lg; q < q1; q += row_unroll * G) {
          In x[row_unroll][V];
#pragma unroll
          for (int u = 0; u < row_unroll; ++u)
            if (q + u * G < q1) load_vec(p, q + u * G, x[u]);
#pragma unroll
          for (int u = 0; u < row_unroll; ++u)
            if (q + u * G < q1) step_vec<Op>(acc, x[u], (q + u * G) * V);
        }
        for (i64 j = ::max(q1 * V, j0) + lg; j < j1; j += G) Op::step(acc, p[j], j);
        done = true;
      }
    }
    if (!done) {
      for (i64 j = j0 + lg; j < j1; j += row_unroll * G) {
        load_type<In, Op> x[row_unroll];
#pragma unroll
        for (int u = 0; u < row_unroll; ++u) {
          const i64 jj = j + u * G;
          if (jj < j1) {
            i64 roff[1];
            g.red.offsets(jj, roff);
            x[u] = load_elem<In, Op>(rbase + roff[0], g.in_dt);
          }
        }
#pragma unroll
        for (int u = 0; u < row_unroll; ++u)
          if (j + u * G < j1) Op::step(acc, x[u], j + u * G);
      }
    }
    acc = g.per_block ? block_reduce<Op>(acc) : warp_reduce<Op>(acc);
    if (lg == 0) {
      if (g.chunks > 1) static_cast<A*>(g.partial)[w] = acc;
      else Op::store(g.out + row * g.out_item, g.out_dt, acc, g.ctx);
    }
  }
}

/// Merges row partials [n_out][chunks] in chunk order: a block per output.
template <class Op>
__global__ void __launch_bounds__(block_threads) combine_rows(reduce_args g) {
  using A = typename Op::acc;
  const A* part = static_cast<const A*>(g.partial);
  for (i64 row = blockIdx.x; row < g.n_out; row += gridDim.x) {
    // Thread t merges chunks [t * per, (t + 1) * per): contiguous ranges keep lanes in index order.
    const i64 per = (g.chunks + blockDim.x - 1) / blockDim.x;
    A acc = Op::identity();
    const i64 c0 = threadIdx.x * per, c1 = ::min(g.chunks, c0 + per);
    for (i64 c = c0; c < c1; ++c) acc = Op::merge(acc, part[row * g.chunks + c]);
    acc = block_reduce<Op>(acc);
    if (threadIdx.x == 0) Op::store(g.out + row * g.out_item, g.out_dt, acc, g.ctx);
  }
}

/// Columns: thread owns VC consecutive outputs (VC > 1 only for a static input whose kept group is
/// one contiguous, 16-byte aligned run of length divisible by VC).
template <class In, class Op, int VC>
__global__ void __launch_bounds__(block_threads) reduce_cols(reduce_args g) {
  using A = typename Op::acc;
  const i64 t = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  const i64 i0 = t * VC;
  if (i0 >= g.n_out) return;
  const i64 c = blockIdx.y;
  const i64 j0 = c * g.chunk_len;
  const i64 j1 = ::min(g.n_red, j0 + g.chunk_len);
  i64 koff[1];
  g.kept.offsets(i0, koff);
  const char* base = g.base + koff[0];
  A acc[VC];
#pragma unroll
  for (int v = 0; v < VC; ++v) acc[v] = Op::identity();
  for (i64 j = j0; j < j1; j += col_unroll) {
    load_type<In, Op> x[col_unroll][VC];
#pragma unroll
    for (int u = 0; u < col_unroll; ++u) {
      if (j + u < j1) {
        i64 roff[1];
        g.red.offsets(j + u, roff);
        if constexpr (VC > 1) {
          load_vec(reinterpret_cast<const In*>(base + roff[0]), 0, x[u]);
        } else {
          x[u][0] = load_elem<In, Op>(base + roff[0], g.in_dt);
        }
      }
    }
#pragma unroll
    for (int u = 0; u < col_unroll; ++u) {
      if (j + u < j1) {
#pragma unroll
        for (int v = 0; v < VC; ++v) Op::step(acc[v], x[u][v], j + u);
      }
    }
  }
#pragma unroll
  for (int v = 0; v < VC; ++v) {
    if (g.chunks > 1) static_cast<A*>(g.partial)[c * g.n_out + i0 + v] = acc[v];
    else Op::store(g.out + (i0 + v) * g.out_item, g.out_dt, acc[v], g.ctx);
  }
}

/// Merges column partials [chunks][n_out] in chunk order: a thread per output.
template <class Op>
__global__ void __launch_bounds__(block_threads) combine_cols(reduce_args g) {
  using A = typename Op::acc;
  const i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= g.n_out) return;
  const A* part = static_cast<const A*>(g.partial);
  A acc = Op::identity();
  for (i64 c = 0; c < g.chunks; ++c) acc = Op::merge(acc, part[c * g.n_out + i]);
  Op::store(g.out + i * g.out_item, g.out_dt, acc, g.ctx);
}

// ---------------------------------------------------------------------------------------------
// Host side.
// ---------------------------------------------------------------------------------------------

inline i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

/// The geometry shared by every dtype: groups, kernel choice, chunking.
struct plan {
  reduce_args g{};
  bool rows = true;
  dim3 grid{1, 1, 1};
  bool kept_vec_ok = false;  // kept group: one contiguous 16-byte-aligned run (columns kernel)
};

/// Normalizes `axis` to a mask over a's axes. @throws index_error / value_error as NumPy.
std::vector<bool> axis_mask(const char* fn, int ndim, const axis_arg& axis);

/// Output shape of a reduction with `mask` (reduced axes kept as 1 with keepdims) and the number of
/// reduced elements per output.
shape_t reduced_shape(const ndarray& a, const std::vector<bool>& mask, bool keepdims, i64& n_red);

plan make_plan(const ndarray& src, const std::vector<bool>& reduced, char* out, dtype out_dt);

/// Chunking and grid for a kernel that keeps `per_sm` blocks resident per SM.
void configure(plan& p, i64 per_sm, int col_vec);

/// Runs the reduction described by `p` with input element type In (or dyn) and operation Op.
template <class In, class Op>
void run(plan p, store_ctx ctx) {
  using A = typename Op::acc;
  cudaStream_t stream = get_current_stream();
  constexpr int VCmax = std::is_same_v<In, dyn> ? 1 : vec_width<In>;
  // A vector of outputs per thread only pays off for narrow states (at most 4 registers each).
  constexpr int VC = (VCmax > 1 && sizeof(A) * VCmax <= 64) ? VCmax : 1;
  static const int rows_per_sm = occupancy_blocks(reduce_rows<In, Op>);
  static const int cols_per_sm = occupancy_blocks(reduce_cols<In, Op, VC>);
  int col_vec = 1;
  if (!p.rows && VC > 1 && p.kept_vec_ok && p.g.n_out % VC == 0) {
    col_vec = VC;
    for (int d = 0; d < p.g.red.ndim; ++d) col_vec = (p.g.red.stride[0][d] % 16 == 0) ? col_vec : 1;
  }
  configure(p, p.rows ? rows_per_sm : cols_per_sm, col_vec);
  p.g.ctx = ctx;
  memory_ptr tmp;
  if (p.g.chunks > 1) {
    tmp = cusci::malloc(static_cast<std::size_t>(p.g.n_out * p.g.chunks) * sizeof(A), stream);
    p.g.partial = tmp->ptr();
  }
  if (p.rows) {
    fast_launch<reduce_rows<In, Op>>(p.grid, stream, p.g);
    if (p.g.chunks > 1) {
      const unsigned blocks = static_cast<unsigned>(std::clamp<i64>(p.g.n_out, 1, 65535));
      fast_launch<combine_rows<Op>>(blocks, stream, p.g);
    }
  } else {
    if (col_vec > 1) fast_launch<reduce_cols<In, Op, VC>>(p.grid, stream, p.g);
    else fast_launch<reduce_cols<In, Op, 1>>(p.grid, stream, p.g);
    if (p.g.chunks > 1)
      fast_launch<combine_cols<Op>>(static_cast<unsigned>(ceil_div(p.g.n_out, block_threads)), stream, p.g);
  }
}

/// NumPy's default result dtype of sum/prod/cumsum/cumprod: bool and narrow signed integers give
/// int64, narrow unsigned ones uint64, others keep their dtype.
inline dtype default_sum_dtype(dtype t) {
  if (t == dtype::bool_ || t == dtype::int8 || t == dtype::int16 || t == dtype::int32) return dtype::int64;
  if (t == dtype::uint8 || t == dtype::uint16 || t == dtype::uint32) return dtype::uint64;
  return t;
}

}  // namespace cusci::detail::red
