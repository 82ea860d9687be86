/// @file reduction_minmax.cu
/// Order reductions: min, max, nanmin, nanmax, ptp, argmin, argmax, nanargmin, nanargmax.
/// float32 / float64 inputs load statically (vector loads); other dtypes load through the runtime
/// dtype into a wide compute type that holds them exactly (int64, uint64, float64, complex128), which
/// keeps the number of kernel instantiations small.

#include "reduction/reduction_ops.cuh"

namespace cusci {
namespace {

using namespace detail::red;
using c128 = cuda::std::complex<double>;

/// Calls `f(type_tag<In>, type_tag<A>)` with the load type and compute type for dtype `d`.
template <class F>
void by_compute(dtype d, F&& f) {
  using detail::type_tag;
  if (d == dtype::float32) f(type_tag<float>{}, type_tag<float>{});
  else if (d == dtype::float64) f(type_tag<double>{}, type_tag<double>{});
  else if (is_complex(d)) f(type_tag<dyn>{}, type_tag<c128>{});
  else if (is_floating(d)) f(type_tag<dyn>{}, type_tag<double>{});  // float16
  else if (is_unsigned_integer(d)) f(type_tag<dyn>{}, type_tag<std::uint64_t>{});
  else f(type_tag<dyn>{}, type_tag<std::int64_t>{});  // bool and signed integers
}

enum class kind { min, max, nanmin, nanmax, ptp };

ndarray order_reduce(kind k, const char* fn, const ndarray& a, const axis_arg& axis, bool keepdims,
                     std::optional<dtype> dt) {
  const std::vector<bool> mask = axis_mask(fn, a.ndim(), axis);
  const dtype r = dt ? *dt : a.dtype();
  if (k == kind::ptp && r == dtype::bool_)
    throw type_error(std::string(fn) +
                     ": numpy boolean subtract, the `-` operator, is not supported (a has dtype bool)");
  i64 n_red = 0;
  const shape_t out_shape = reduced_shape(a, mask, keepdims, n_red);
  if (n_red == 0) {  // NumPy raises even when the output is empty too, e.g. min of (0, 0) over axis 0
    const char* name = k == kind::min ? "minimum" : k == kind::nanmin ? "fmin" : k == kind::nanmax ? "fmax" : "maximum";
    throw value_error(std::string(fn) + ": zero-size array to reduction operation " + name +
                      " which has no identity");
  }
  ndarray out = empty(out_shape, r);
  if (out.size() == 0) return out;
  ndarray cast;
  if (r != a.dtype()) cast = a.astype(r);
  const ndarray& src = r != a.dtype() ? cast : a;
  const plan p = make_plan(src, mask, static_cast<char*>(out.data()), r);
  const store_ctx c{.n_red = n_red};
  const bool inexact = is_inexact(r);
  by_compute(r, [&](auto in_tag, auto a_tag) {
    using In = typename decltype(in_tag)::type;
    using A = typename decltype(a_tag)::type;
    switch (k) {
      case kind::min: run<In, op_minmax<A, false, false>>(p, c); break;
      case kind::max: run<In, op_minmax<A, true, false>>(p, c); break;
      case kind::nanmin:
        if constexpr (std::is_floating_point_v<A> || is_complex_v<A>) {
          if (inexact) { run<In, op_minmax<A, false, true>>(p, c); break; }
        }
        run<In, op_minmax<A, false, false>>(p, c);
        break;
      case kind::nanmax:
        if constexpr (std::is_floating_point_v<A> || is_complex_v<A>) {
          if (inexact) { run<In, op_minmax<A, true, true>>(p, c); break; }
        }
        run<In, op_minmax<A, true, false>>(p, c);
        break;
      case kind::ptp: run<In, op_ptp<A>>(p, c); break;
    }
  });
  return out;
}

enum class akind { argmin, argmax, nanargmin, nanargmax };

// ---------------------------------------------------------------------------------------------
// argmin / argmax of a whole contiguous float32 / float64 array. The generic engine folds every
// element into an (value, int64 index) state through the full NaN-aware merge, one long dependent
// chain per thread; here each thread loads arg_unroll 16-byte vectors per tile, picks the tile's
// best of them with a short tree (independent compares, a small local index) and folds only that
// into its running state. Left operands always cover lower indices, so "the right one wins only
// when strictly better, or NaN while the left is not" keeps NumPy's first-occurrence, NaN-first rule.
// ---------------------------------------------------------------------------------------------

constexpr int arg_unroll = 4;

/// Whether b (higher indices) replaces a (lower indices).
template <bool Max, class T>
__device__ __forceinline__ bool arg_takes(T a, T b) {
  if constexpr (Max) return !(b <= a) && a == a;
  else return !(b >= a) && a == a;
}

template <class T, bool Max>
__global__ void __launch_bounds__(block_threads) arg_contig(const T* __restrict__ x, i64 n, arg_state<T>* part,
                                                            std::int64_t* out) {
  using Op = op_arg<T, Max, false>;
  constexpr int V = vec_width<T>;
  constexpr int N = arg_unroll * V;
  constexpr i64 tile_vecs = static_cast<i64>(arg_unroll) * block_threads;
  const i64 nv = n / V;
  const i64 full_tiles = nv / tile_vecs;
  T bv = extreme<T, !Max>();
  i64 bi = no_index;
  for (i64 t = blockIdx.x; t < full_tiles; t += gridDim.x) {
    const i64 q0 = t * tile_vecs + threadIdx.x;  // vector u of this thread: q0 + u * block_threads
    T v[N];
#pragma unroll
    for (int u = 0; u < arg_unroll; ++u) {
      T w[V];
      load_vec(x, q0 + u * block_threads, w);
#pragma unroll
      for (int k = 0; k < V; ++k) v[u * V + k] = w[k];
    }
    int li[N];
#pragma unroll
    for (int k = 0; k < N; ++k) li[k] = k;
#pragma unroll
    for (int s = 1; s < N; s <<= 1) {
#pragma unroll
      for (int k = 0; k + s < N; k += 2 * s) {
        const bool take = arg_takes<Max>(v[k], v[k + s]);
        v[k] = take ? v[k + s] : v[k];
        li[k] = take ? li[k + s] : li[k];
      }
    }
    if (bi == no_index || arg_takes<Max>(bv, v[0])) {
      bv = v[0];
      bi = (q0 + static_cast<i64>(li[0] / V) * block_threads) * V + (li[0] % V);
    }
  }
  // The rest (under one tile) goes to the block that would own the next tile: its indices follow
  // everything that block has seen, in increasing order per thread.
  if (static_cast<i64>(blockIdx.x) == full_tiles % gridDim.x) {
    for (i64 j = full_tiles * tile_vecs * V + threadIdx.x; j < n; j += block_threads) {
      const T e = x[j];
      if (bi == no_index || arg_takes<Max>(bv, e)) {
        bv = e;
        bi = j;
      }
    }
  }
  arg_state<T> st{bv, bi};
  st = block_reduce<Op>(st);
  if (threadIdx.x != 0) return;
  if (out != nullptr) *out = st.i == no_index ? std::int64_t(-1) : st.i;  // a single block: the answer
  else part[blockIdx.x] = st;
}

/// Merges the per-block states in block order (one block) and stores the index.
template <class T, bool Max>
__global__ void __launch_bounds__(block_threads) arg_contig_final(const arg_state<T>* part, int n_part,
                                                                  std::int64_t* out) {
  using Op = op_arg<T, Max, false>;
  const int per = (n_part + block_threads - 1) / block_threads;
  const int c0 = static_cast<int>(threadIdx.x) * per, c1 = ::min(n_part, c0 + per);
  arg_state<T> acc = Op::identity();
  for (int c = c0; c < c1; ++c) acc = Op::merge(acc, part[c]);
  acc = block_reduce<Op>(acc);
  if (threadIdx.x == 0) *out = acc.i == no_index ? std::int64_t(-1) : acc.i;
}

template <class T, bool Max>
void run_arg_contig(const T* x, i64 n, std::int64_t* out) {
  cudaStream_t stream = get_current_stream();
  static const int per_sm = occupancy_blocks(arg_contig<T, Max>);
  constexpr i64 tile_elems = static_cast<i64>(arg_unroll) * block_threads * vec_width<T>;
  const i64 blocks = std::clamp<i64>(ceil_div(n, tile_elems), 1, static_cast<i64>(sm_count()) * per_sm);
  if (blocks == 1) {  // one tile or less: one launch, no partials (small arrays' host time)
    fast_launch<arg_contig<T, Max>>(1, stream, x, n, static_cast<arg_state<T>*>(nullptr), out);
    return;
  }
  memory_ptr tmp = cusci::malloc(static_cast<std::size_t>(blocks) * sizeof(arg_state<T>), stream);
  auto* part = static_cast<arg_state<T>*>(tmp->ptr());
  fast_launch<arg_contig<T, Max>>(static_cast<unsigned>(blocks), stream, x, n, part,
                                  static_cast<std::int64_t*>(nullptr));
  fast_launch<arg_contig_final<T, Max>>(1, stream, part, static_cast<int>(blocks), out);
}

ndarray arg_reduce(akind k, const char* fn, const ndarray& a, std::optional<int> axis, bool keepdims) {
  const int nd = a.ndim();
  std::vector<bool> mask(static_cast<std::size_t>(nd), true);
  if (axis) mask = axis_mask(fn, nd, axis_arg(*axis));
  i64 n_red = 0;
  const shape_t out_shape = reduced_shape(a, mask, keepdims, n_red);
  if (n_red == 0) {
    const bool mx = k == akind::argmax || k == akind::nanargmax;
    throw value_error(std::string(fn) + ": attempt to get " + (mx ? "argmax" : "argmin") + " of an empty sequence");
  }
  ndarray out = empty(out_shape, dtype::int64);
  if (out.size() == 0) return out;
  // The flat index of the reduced axes must be C order: over all axes, a non-C-contiguous input is
  // copied first (one reduced axis needs nothing: its index is its position).
  const bool c_copy = !axis && nd > 1 && !detail::cm::dense_c(a);
  ndarray copied;
  if (c_copy) copied = a.copy(order::C);
  const ndarray& src = c_copy ? copied : a;
  // A whole (or 1-D) dense float32 / float64 array: the dedicated kernel above.
  if ((k == akind::argmin || k == akind::argmax) && out.size() == 1 &&
      (a.dtype() == dtype::float32 || a.dtype() == dtype::float64) && detail::cm::dense_c(src) &&
      detail::cm::aligned16(src.data())) {
    auto* o = static_cast<std::int64_t*>(out.data());
    const bool mx = k == akind::argmax;
    if (a.dtype() == dtype::float32) {
      const auto* x = static_cast<const float*>(src.data());
      if (mx) run_arg_contig<float, true>(x, n_red, o);
      else run_arg_contig<float, false>(x, n_red, o);
    } else {
      const auto* x = static_cast<const double*>(src.data());
      if (mx) run_arg_contig<double, true>(x, n_red, o);
      else run_arg_contig<double, false>(x, n_red, o);
    }
    return out;
  }
  const plan p = make_plan(src, mask, static_cast<char*>(out.data()), dtype::int64);
  const store_ctx c{.n_red = n_red};
  const bool nan_kind = (k == akind::nanargmin || k == akind::nanargmax) && is_inexact(a.dtype());
  by_compute(a.dtype(), [&](auto in_tag, auto a_tag) {
    using In = typename decltype(in_tag)::type;
    using A = typename decltype(a_tag)::type;
    const bool mx = k == akind::argmax || k == akind::nanargmax;
    if constexpr (std::is_floating_point_v<A> || is_complex_v<A>) {
      if (nan_kind) {
        if (mx) run<In, op_arg<A, true, true>>(p, c);
        else run<In, op_arg<A, false, true>>(p, c);
        return;
      }
    }
    if (mx) run<In, op_arg<A, true, false>>(p, c);
    else run<In, op_arg<A, false, false>>(p, c);
  });
  if (nan_kind) {
    // All-NaN selections stored -1: NumPy 2 raises for them. Synchronizes.
    if (cusci::min(out).item<std::int64_t>() < 0)
      throw value_error(std::string(fn) + ": All-NaN slice encountered");
  }
  return out;
}

}  // namespace

ndarray min(const ndarray& a, axis_arg axis, reduce_options opts) {
  return order_reduce(kind::min, "cusci::min", a, axis, opts.keepdims, opts.dtype);
}
ndarray max(const ndarray& a, axis_arg axis, reduce_options opts) {
  return order_reduce(kind::max, "cusci::max", a, axis, opts.keepdims, opts.dtype);
}
ndarray nanmin(const ndarray& a, axis_arg axis, reduce_options opts) {
  return order_reduce(kind::nanmin, "cusci::nanmin", a, axis, opts.keepdims, opts.dtype);
}
ndarray nanmax(const ndarray& a, axis_arg axis, reduce_options opts) {
  return order_reduce(kind::nanmax, "cusci::nanmax", a, axis, opts.keepdims, opts.dtype);
}
ndarray ptp(const ndarray& a, axis_arg axis, keepdims_options opts) {
  return order_reduce(kind::ptp, "cusci::ptp", a, axis, opts.keepdims, std::nullopt);
}
ndarray argmin(const ndarray& a, std::optional<int> axis, keepdims_options opts) {
  return arg_reduce(akind::argmin, "cusci::argmin", a, axis, opts.keepdims);
}
ndarray argmax(const ndarray& a, std::optional<int> axis, keepdims_options opts) {
  return arg_reduce(akind::argmax, "cusci::argmax", a, axis, opts.keepdims);
}
ndarray nanargmin(const ndarray& a, std::optional<int> axis, keepdims_options opts) {
  return arg_reduce(akind::nanargmin, "cusci::nanargmin", a, axis, opts.keepdims);
}
ndarray nanargmax(const ndarray& a, std::optional<int> axis, keepdims_options opts) {
  return arg_reduce(akind::nanargmax, "cusci::nanargmax", a, axis, opts.keepdims);
}

}  // namespace cusci
