#pragma once
/// @file elementwise_engine.cuh  (private to core/src; nvcc only)
/// The generic engine behind cusci's ufuncs: one functor per operation, one strided and one
/// contiguous kernel template, and the host side shared by every ufunc (broadcasting, the loop
/// dtype, `out=` with NumPy's same_kind rule, overlap of `out` with the inputs).
///
/// A ufunc call picks its *loop dtype* L on the host (NumPy's rule: the first loop every input
/// casts to safely; here a per-ufunc function of the promoted dtype). Inputs of any dtype are
/// converted on load to `compute_t<L>` (float for float16 loops); the functor computes; the result
/// is rounded to the loop's output type `F::out<L>` and, when `out=` has another dtype, cast once
/// more on store (NumPy's order of rounding).
///
/// Result layout: NumPy's order='K' (empty_k in core_math_common.cuh): contiguous in the axis order
/// the operands agree on, else C.
///
/// Kernels: the contiguous kernel runs when the output is dense in some axis order and every array
/// input has dtype L, the output's shape, the same element strides and 16-byte aligned data: one
/// linear loop over memory order with 16-byte vector loads and stores, `ew_unroll` vectors in
/// flight per thread, grid-stride loop over one wave of resident blocks. Binary ops whose merged
/// axes end in a run that is contiguous (or broadcast, stride 0) in every operand use the rows
/// kernel (ew_rows: broadcast value in a register per tile, 16-byte vectors, no per-element
/// division). Everything else goes through the strided kernel: one offset map (after merging axes
/// that are contiguous in every operand) gives each operand's byte offset.

#include <optional>
#include <string>
#include <type_traits>

#include <cuda/std/cmath>
#include <cuda/std/complex>

#include "common/core_math_common.cuh"
#include "cusci/detail/copy.hpp"
#include "cusci/device.hpp"
#include "cusci/elementwise.hpp"

namespace cusci::detail::ew {

using namespace cusci::detail::cm;
using cusci::detail::compute_t;
using cusci::detail::is_complex_v;

// ---------------------------------------------------------------------------------------------
// Device side.
// ---------------------------------------------------------------------------------------------

template <class T> inline constexpr bool is_half_v = std::is_same_v<T, __half>;
template <class T> inline constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_float_v = std::is_floating_point_v<T> || is_half_v<T>;

/// Up to three inputs of one loop dtype L: pointers, run-time dtypes, scalar values.
template <class L, int N>
struct inputs {
  const char* ptr[N];
  L value[N];  // for scalar inputs
  dtype dt[N];
  bool is_scalar[N];
  bool same[N];  // dtype is L: plain load
};

template <class C, class L, int N>
__device__ __forceinline__ C fetch(const inputs<L, N>& in, int k, i64 off) {
  if (in.is_scalar[k]) return convert<C>(in.value[k]);
  const char* p = in.ptr[k] + off;
  if (in.same[k]) return convert<C>(*reinterpret_cast<const L*>(p));
  return load_as<C>(p, in.dt[k]);
}

template <class F, class C, int N>
__device__ __forceinline__ auto apply(const F& f, const C (&x)[N]) {
  if constexpr (N == 1) return f(x[0]);
  else if constexpr (N == 2) return f(x[0], x[1]);
  else return f(x[0], x[1], x[2]);
}

template <class L, class O, int N, class F>
__global__ void __launch_bounds__(block_threads)
    ew_strided(nd_map<N + 1> m, i64 n, inputs<L, N> in, char* __restrict__ out, dtype odt, bool osame, F f) {
  using C = compute_t<L>;
  const i64 step = static_cast<i64>(gridDim.x) * blockDim.x;
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    i64 off[N + 1];
    m.offsets(i, off);
    C x[N];
#pragma unroll
    for (int k = 0; k < N; ++k) x[k] = fetch<C>(in, k, off[k]);
    const O r = convert<O>(apply(f, x));
    if (osame) *reinterpret_cast<O*>(out + off[N]) = r;
    else store_as<O>(out + off[N], odt, r);
  }
}

inline constexpr int ew_unroll = 4;

template <class O, int V>
__device__ __forceinline__ void store_out(O* base, i64 k, const O (&r)[V]) {
  constexpr int bytes = static_cast<int>(sizeof(O)) * V;
  if constexpr (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16) {
    store_vec(base, k, r);
  } else {
#pragma unroll
    for (int v = 0; v < V; ++v) base[k * V + v] = r[v];
  }
}

template <class L, class O, int N, class F>
__global__ void __launch_bounds__(block_threads)
    ew_contig(inputs<L, N> in, O* __restrict__ out, i64 n, F f) {
  using C = compute_t<L>;
  constexpr int V = vec_width<L>;
  const i64 nv = n / V;
  const i64 step = static_cast<i64>(gridDim.x) * blockDim.x;
  const i64 tid = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (i64 k0 = tid; k0 < nv; k0 += ew_unroll * step) {
    L x[ew_unroll][N][V];
#pragma unroll
    for (int u = 0; u < ew_unroll; ++u) {
      const i64 k = k0 + u * step;
      if (k < nv) {
#pragma unroll
        for (int j = 0; j < N; ++j)
          if (!in.is_scalar[j]) load_vec(reinterpret_cast<const L*>(in.ptr[j]), k, x[u][j]);
      }
    }
#pragma unroll
    for (int u = 0; u < ew_unroll; ++u) {
      const i64 k = k0 + u * step;
      if (k < nv) {
        O r[V];
#pragma unroll
        for (int v = 0; v < V; ++v) {
          C a[N];
#pragma unroll
          for (int j = 0; j < N; ++j) a[j] = convert<C>(in.is_scalar[j] ? in.value[j] : x[u][j][v]);
          r[v] = convert<O>(apply(f, a));
        }
        store_out(out, k, r);
      }
    }
  }
  for (i64 i = nv * V + tid; i < n; i += step) {
    C a[N];
#pragma unroll
    for (int j = 0; j < N; ++j)
      a[j] = convert<C>(in.is_scalar[j] ? in.value[j] : reinterpret_cast<const L*>(in.ptr[j])[i]);
    out[i] = convert<O>(apply(f, a));
  }
}

/// Rows of contiguous runs: the operands broadcast along the merged inner axis (stride 0: one
/// value per row, e.g. an (n,1) column) or contiguous along it (stride = itemsize), with any outer
/// strides (e.g. a (1,m) row vector beside an (n,m) array). Work is split into tiles of
/// `block_threads * ew_unroll` 16-byte vectors of one row; a block finds its row and the operands'
/// row offsets once per tile (the only divisions), loads a broadcast value once per tile and moves
/// the contiguous operands with 16-byte vector loads/stores. Requires (host-checked) every array
/// operand of dtype L, the row length a multiple of the vector width and 16-byte aligned rows.
template <class L, class O, int N, class F>
__global__ void __launch_bounds__(block_threads)
    ew_rows(nd_map<N + 1> outer, i64 ntiles, i64 tiles_per_row, i64 cv, inputs<L, N> in, unsigned bcast,
            char* __restrict__ out, F f) {
  using C = compute_t<L>;
  constexpr int V = vec_width<L>;
  constexpr i64 tile = static_cast<i64>(block_threads) * ew_unroll;
  for (i64 t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const i64 row = fast_div(t, tiles_per_row);
    const i64 c0 = (t - row * tiles_per_row) * tile + threadIdx.x;
    i64 off[N + 1];
    outer.offsets(row, off);
    C b[N];
#pragma unroll
    for (int j = 0; j < N; ++j) {
      if (in.is_scalar[j]) b[j] = convert<C>(in.value[j]);
      else if ((bcast >> j) & 1u) b[j] = convert<C>(*reinterpret_cast<const L*>(in.ptr[j] + off[j]));
      else b[j] = C{};
    }
    L x[ew_unroll][N][V];
#pragma unroll
    for (int u = 0; u < ew_unroll; ++u) {
      const i64 k = c0 + u * block_threads;
      if (k < cv) {
#pragma unroll
        for (int j = 0; j < N; ++j)
          if (!in.is_scalar[j] && !((bcast >> j) & 1u))
            load_vec(reinterpret_cast<const L*>(in.ptr[j] + off[j]), k, x[u][j]);
      }
    }
    O* orow = reinterpret_cast<O*>(out + off[N]);
#pragma unroll
    for (int u = 0; u < ew_unroll; ++u) {
      const i64 k = c0 + u * block_threads;
      if (k < cv) {
        O r[V];
#pragma unroll
        for (int v = 0; v < V; ++v) {
          C a[N];
#pragma unroll
          for (int j = 0; j < N; ++j)
            a[j] = (in.is_scalar[j] || ((bcast >> j) & 1u)) ? b[j] : convert<C>(x[u][j][v]);
          r[v] = convert<O>(apply(f, a));
        }
        store_out(orow, k, r);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Host side.
// ---------------------------------------------------------------------------------------------

/// One operand as given: an array or a scalar.
struct arg {
  const ndarray* arr = nullptr;
  const scalar* sc = nullptr;
};
inline arg A(const ndarray& a) { return arg{&a, nullptr}; }
inline arg S(const scalar& s) { return arg{nullptr, &s}; }

/// NumPy's broadcast error text: "operands could not be broadcast together with shapes (3,) (4,)".
std::string np_shape(const shape_t& s);
shape_t broadcast_args(const char* fn, const arg* args, int n);

/// NumPy's `np.can_cast(from, to, "same_kind")`.
bool can_cast_same_kind(dtype from, dtype to) noexcept;

/// np.result_type of the operands (weak scalars by NEP 50; two scalars alone by kind).
dtype result_of(const arg* args, int n);

/// NumPy's OverflowError for a weak Python int that does not fit an integer loop dtype (value_error).
void check_weak_ints(const char* fn, const arg* args, int n, dtype loop);

/// TypeError text of NumPy's for a ufunc without a loop for the operands' dtypes.
[[noreturn]] void no_loop(const char* fn, const arg* args, int n);

/// Validates `out` (shape, device, same_kind cast from `o`) or allocates the result.
/// Returns the array the kernel writes and sets `temp` when it must be copied into *out after.
ndarray prepare_out(const char* fn, const char* ufunc, const shape_t& shape, dtype o, ndarray* out,
                    const arg* args, int n, bool& temp);

/// Whether the contiguous kernel can read `a` for loop dtype `l` beside the dense output `res`:
/// dtype l, 16-byte aligned, the same element strides as `res` (any one memory order).
bool contig_input(const arg& a, dtype l, const ndarray& res);

/// Loads a scalar as device type L.
template <class L>
L scalar_value(const scalar& s) {
  return scalar_as<L>(s);
}

/// The strided map of K operands (arrays broadcast to `shape`; a null entry is a scalar, stride 0),
/// built on the stack without heap allocation: length-1 axes dropped, axes contiguous in every
/// operand merged (the rule of detail::coalesce).
template <int K>
nd_map<K> map_of(const shape_t& shape, const ndarray* const (&arrs)[K]) {
  nd_map<K> m;
  const int nd = static_cast<int>(shape.size());
  for (int d = 0; d < nd; ++d) {
    const i64 n = shape[d];
    if (n == 1) continue;
    i64 st[K];
    for (int k = 0; k < K; ++k) {
      st[k] = 0;
      if (!arrs[k]) continue;
      const int ad = d - (nd - arrs[k]->ndim());  // the operand's own axis (right-aligned)
      if (ad >= 0 && arrs[k]->shape()[ad] != 1) st[k] = arrs[k]->strides()[ad];
    }
    bool merge = m.ndim > 0;
    for (int k = 0; merge && k < K; ++k) merge = st[k] * n == m.stride[k][m.ndim - 1];
    if (merge) {
      m.shape[m.ndim - 1] *= n;
      for (int k = 0; k < K; ++k) m.stride[k][m.ndim - 1] = st[k];
      continue;
    }
    CUSCI_EXPECTS(m.ndim < max_kernel_dims, value_error,
                  "cusci: arrays of more than 16 non-mergeable dimensions are not supported by kernels");
    m.shape[m.ndim] = n;
    for (int k = 0; k < K; ++k) m.stride[k][m.ndim] = st[k];
    ++m.ndim;
  }
  return m;
}

/// Runs the rows kernel (ew_rows) when the merged map `m` has that structure; false otherwise.
template <class L, class O, int N, class F>
bool launch_rows(const nd_map<N + 1>& m, const inputs<L, N>& in, const ndarray& res, bool osame, cudaStream_t stream,
                 F f) {
  constexpr int V = vec_width<L>;
  constexpr i64 tile = static_cast<i64>(block_threads) * ew_unroll;
  if (!osame || m.ndim < 2) return false;
  const int last = m.ndim - 1;
  const i64 cols = m.shape[last];
  // Rows shorter than one block of vectors would leave most threads idle: the strided kernel is fine.
  if (cols % V != 0 || cols / V < block_threads) return false;
  constexpr i64 ovec = static_cast<i64>(sizeof(O)) * V;
  constexpr i64 oalign = (ovec == 1 || ovec == 2 || ovec == 4 || ovec == 8 || ovec == 16) ? ovec : alignof(O);
  auto aligned_to = [](const void* p, i64 a) { return reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(a) == 0; };
  if (m.stride[N][last] != static_cast<i64>(sizeof(O)) || !aligned_to(res.data(), oalign)) return false;
  for (int d = 0; d < last; ++d)
    if (m.stride[N][d] % oalign != 0) return false;
  unsigned bcast = 0;
  bool any_contig = false;
  for (int j = 0; j < N; ++j) {
    if (in.is_scalar[j]) continue;
    if (!in.same[j]) return false;
    if (m.stride[j][last] == 0) {
      bcast |= 1u << j;
      continue;
    }
    if (m.stride[j][last] != static_cast<i64>(sizeof(L)) || !aligned16(in.ptr[j])) return false;
    for (int d = 0; d < last; ++d)
      if (m.stride[j][d] % 16 != 0) return false;
    any_contig = true;
  }
  if (!any_contig && bcast == 0) return false;
  nd_map<N + 1> outer;
  outer.ndim = last;
  i64 rows = 1;
  for (int d = 0; d < last; ++d) {
    outer.shape[d] = m.shape[d];
    rows *= m.shape[d];
    for (int k = 0; k <= N; ++k) outer.stride[k][d] = m.stride[k][d];
  }
  const i64 cv = cols / V;
  const i64 tiles_per_row = (cv + tile - 1) / tile;
  const i64 ntiles = rows * tiles_per_row;
  static const int per_sm = occupancy_blocks(ew_rows<L, O, N, F>);
  const i64 cap = static_cast<i64>(sm_count()) * per_sm;
  const unsigned blocks = static_cast<unsigned>(ntiles < cap ? ntiles : cap);
  ew_rows<L, O, N, F><<<blocks, block_threads, 0, stream>>>(outer, ntiles, tiles_per_row, cv, in, bcast,
                                                          static_cast<char*>(res.data()), f);
  CUSCI_CHECK_LAUNCH();
  return true;
}

/// Runs functor F over loop device type L with N inputs into `res` (shape = broadcast shape).
/// The caller has made res's device current.
template <class L, int N, class F>
void launch(const arg* args, ndarray& res, F f) {
  using O = typename F::template out<L>;
  const i64 n = res.size();
  if (n == 0) return;
  cudaStream_t stream = get_current_stream();
  inputs<L, N> in{};
  const dtype ld = dtype_of_host<L>();
  const bool osame = res.dtype() == dtype_of_host<O>();
  bool contig = osame && aligned16(res.data()) && dense_any(res);
  for (int k = 0; k < N; ++k) {
    if (args[k].arr) {
      in.ptr[k] = static_cast<const char*>(args[k].arr->data());
      in.dt[k] = args[k].arr->dtype();
      in.is_scalar[k] = false;
      in.same[k] = in.dt[k] == ld;
      contig = contig && contig_input(args[k], ld, res);
    } else {
      in.ptr[k] = nullptr;
      in.value[k] = scalar_value<L>(*args[k].sc);
      in.dt[k] = ld;
      in.is_scalar[k] = true;
      in.same[k] = true;
    }
  }
  if (contig) {
    static const int per_sm = occupancy_blocks(ew_contig<L, O, N, F>);
    const i64 nv = n / vec_width<L>;
    fast_launch<ew_contig<L, O, N, F>>(grid_blocks(nv > 0 ? nv : n, per_sm), stream, in, res.data_as<O>(), n, f);
    return;
  }
  const ndarray* arrs[N + 1];
  for (int k = 0; k < N; ++k) arrs[k] = args[k].arr;
  arrs[N] = &res;
  const nd_map<N + 1> m = map_of<N + 1>(res.shape(), arrs);
  if constexpr (N == 2) {
    if (launch_rows<L, O, N>(m, in, res, osame, stream, f)) return;
  }
  static const int per_sm = occupancy_blocks(ew_strided<L, O, N, F>);
  fast_launch<ew_strided<L, O, N, F>>(grid_blocks(n, per_sm), stream, m, n, in, static_cast<char*>(res.data()),
              res.dtype(), osame, f);
}

/// Calls `f(type_tag<L>{})` for loop dtype `l` when functor F has a loop for it (F::ok<L>());
/// throws NumPy's TypeError (type_error) otherwise.
template <class F, class G>
void dispatch_loop(dtype l, const char* fn, const arg* args, int n, G&& g) {
  bool done = false;
  detail::dispatch(l, [&](auto tag) {
    using L = typename decltype(tag)::type;
    if constexpr (F::template ok<L>()) {
      g(tag);
      done = true;
    }
  });
  if (!done) no_loop(fn, args, n);
}

/// Makes `dev` current for its lifetime when it is not (dev < 0: nothing); one cudaGetDevice when it is.
class scoped_device {
 public:
  explicit scoped_device(int dev) {
    if (dev < 0) return;
    int cur = -1;
    CUSCI_CUDA_TRY(cudaGetDevice(&cur));
    if (cur != dev) guard_.emplace(dev);
  }

 private:
  std::optional<device_guard> guard_;
};

/// The whole ufunc call: broadcast, loop dtype `l` (already resolved and validated by the caller),
/// output, kernel, copy-back for overlapping `out`.
template <int N, class F>
ndarray run(const char* fn, const char* ufunc, dtype l, const arg* args, ndarray* out, F f) {
  for (int k = 0; k < N; ++k)
    for (int j = k + 1; j < N; ++j)
      if (args[k].arr && args[j].arr && args[k].arr->device() != args[j].arr->device())
        throw value_error(std::string(fn) + ": operands are on different devices (" +
                          std::to_string(args[k].arr->device()) + " and " + std::to_string(args[j].arr->device()) +
                          ")");
  const shape_t shape = broadcast_args(fn, args, N);
  check_weak_ints(fn, args, N, l);
  // One device switch for the whole call (allocation and launch), and none when the operands'
  // device is already current (the common case: one cudaGetDevice).
  int dev = out ? out->device() : -1;
  for (int k = 0; k < N && dev < 0; ++k)
    if (args[k].arr) dev = args[k].arr->device();
  scoped_device sd(dev);
  ndarray res;
  dispatch_loop<F>(l, fn, args, N, [&](auto tag) {
    using L = typename decltype(tag)::type;
    using O = typename F::template out<L>;
    bool temp = false;
    res = prepare_out(fn, ufunc, shape, dtype_of_host<O>(), out, args, N, temp);
    launch<L, N>(args, res, f);
    if (temp) {
      copy_cast(res, *out);
      res = *out;
    }
  });
  return res;
}

/// Loop dtype of NumPy's float-valued math ufuncs (sqrt, exp, sin, arctan2, ...): bool, int8, uint8
/// -> float16; int16, uint16 -> float32; wider integers -> float64; inexact dtypes keep theirs.
constexpr dtype float_loop(dtype t) noexcept {
  switch (t) {
    case dtype::bool_: case dtype::int8: case dtype::uint8: return dtype::float16;
    case dtype::int16: case dtype::uint16: return dtype::float32;
    case dtype::int32: case dtype::uint32: case dtype::int64: case dtype::uint64: return dtype::float64;
    default: return t;
  }
}

}  // namespace cusci::detail::ew
