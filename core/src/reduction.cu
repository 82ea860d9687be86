/// @file reduction.cu
/// sum, mean, min and max over all axes, one axis or a set of axes, with NumPy's result dtypes.
///
/// The input is viewed as (kept axes) x (reduced axes): output element i (C order over the kept axes)
/// reduces the elements at `kept_offset(i) + reduced_offset(j)`, j in [0, n_red). Reduced axes are
/// ordered by decreasing |stride| and each group's contiguous axes are merged, then one of two kernels
/// runs:
///  - rows: the reduced axes hold the fastest-varying memory (or there is a single output): a warp
///    (many outputs) or a block (few outputs) reduces a chunk of one output's elements; contiguous
///    rows of a statically typed input use 16-byte vector loads, four in flight per thread;
///  - columns: the kept axes hold the fastest-varying memory: one thread per output, consecutive
///    threads reading consecutive addresses, eight loads in flight, the reduced range split in chunks
///    over blockIdx.y to fill the device.
/// When an output is split in chunks, per-chunk partials (accumulator dtype) go to a pool buffer and a
/// second kernel combines them. No atomics: results are deterministic for a given shape and device.
/// Accumulators: integer sums in int64/uint64 (wrapping like NumPy's), float32 and float64 sums in
/// float64, complex sums in complex128; min and max in the array's dtype with NaN propagation.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <cuda/std/limits>

#include "core_math_common.cuh"
#include "cusci/reduction.hpp"

namespace cusci {
namespace {

using namespace detail::cm;
using detail::is_complex_v;

/// Input element type tag for inputs converted on load from a runtime dtype.
struct dyn {};

template <class T>
__device__ __forceinline__ bool isnan_any(T v) {
  if constexpr (is_complex_v<T>) return v.real() != v.real() || v.imag() != v.imag();
  else if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

struct op_sum {
  static constexpr bool is_sum = true;
  template <class A> __device__ __forceinline__ static A identity() { return A(0); }
  template <class A> __device__ __forceinline__ static A apply(A x, A y) {
    if constexpr (std::is_integral_v<A>) {
      return static_cast<A>(static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(y));
    } else {
      return x + y;
    }
  }
};

/// Lexicographic "x before y" for complex values without NaN; `<` otherwise.
template <class A>
__device__ __forceinline__ bool less_than(A x, A y) {
  if constexpr (is_complex_v<A>) return x.real() < y.real() || (x.real() == y.real() && x.imag() < y.imag());
  else return x < y;
}

template <bool Max>
struct op_minmax {
  static constexpr bool is_sum = false;
  template <class A> __device__ __forceinline__ static A identity() {
    if constexpr (std::is_same_v<A, bool>) return !Max;
    else if constexpr (is_complex_v<A>) {
      using R = typename A::value_type;
      const R v = Max ? -cuda::std::numeric_limits<R>::infinity() : cuda::std::numeric_limits<R>::infinity();
      return A(v, v);
    } else if constexpr (std::is_floating_point_v<A>) {
      return Max ? -cuda::std::numeric_limits<A>::infinity() : cuda::std::numeric_limits<A>::infinity();
    } else {
      return Max ? cuda::std::numeric_limits<A>::lowest() : cuda::std::numeric_limits<A>::max();
    }
  }
  /// NaN propagates (the first NaN met is kept).
  template <class A> __device__ __forceinline__ static A apply(A acc, A x) {
    if (isnan_any(acc)) return acc;
    if (isnan_any(x)) return x;
    if constexpr (Max) return less_than(acc, x) ? x : acc;
    else return less_than(x, acc) ? x : acc;
  }
};
using op_min = op_minmax<false>;
using op_max = op_minmax<true>;

/// The type elements are loaded as: the input type when static, else the accumulator.
template <class In, class Acc>
using load_t = std::conditional_t<std::is_same_v<In, dyn>, Acc, In>;

template <class In, class Acc>
__device__ __forceinline__ load_t<In, Acc> load_elem(const char* p, dtype dt) {
  if constexpr (std::is_same_v<In, dyn>) return load_as<Acc>(p, dt);
  else return *reinterpret_cast<const In*>(p);
}

/// The value that leaves a reduction unchanged, as the load type.
template <class Op, class In, class Acc>
__device__ __forceinline__ load_t<In, Acc> neutral() {
  using L = load_t<In, Acc>;
  if constexpr (std::is_same_v<L, Acc>) return Op::template identity<Acc>();
  else return L(0);  // only sums load a type other than their accumulator
}

/// Folds K loaded values into the accumulator. float32 (complex64) sums add the K values pairwise in
/// float32 first and convert once: K-fold fewer float32 -> float64 conversions (a quarter-rate
/// instruction on sm_90), still at least as accurate as NumPy, whose pairwise sum adds blocks of 8
/// sequentially in float32.
template <class Op, class Acc, class L, int K>
__device__ __forceinline__ Acc fold(Acc acc, L (&x)[K]) {
  if constexpr (Op::is_sum && !std::is_same_v<L, Acc> && (K & (K - 1)) == 0) {
#pragma unroll
    for (int w = K / 2; w >= 1; w /= 2) {
#pragma unroll
      for (int i = 0; i < w; ++i) x[i] = x[i] + x[i + w];
    }
    return Op::apply(acc, convert<Acc>(x[0]));
  } else {
#pragma unroll
    for (int i = 0; i < K; ++i) acc = Op::apply(acc, convert<Acc>(x[i]));
    return acc;
  }
}

constexpr unsigned full_mask = 0xffffffffu;

template <class A>
__device__ __forceinline__ A shfl_down(A v, int d) {
  if constexpr (is_complex_v<A>) {
    return A(__shfl_down_sync(full_mask, v.real(), d), __shfl_down_sync(full_mask, v.imag(), d));
  } else if constexpr (sizeof(A) < 4) {
    return static_cast<A>(__shfl_down_sync(full_mask, static_cast<int>(v), d));
  } else {
    return __shfl_down_sync(full_mask, v, d);
  }
}

template <class Op, class A>
__device__ __forceinline__ A warp_reduce(A v) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) v = Op::apply(v, shfl_down(v, d));
  return v;
}

/// Reduces `v` over the block (blockDim.x a multiple of 32); the result is valid in thread 0.
/// Every thread of the block must call it.
template <class Op, class A>
__device__ __forceinline__ A block_reduce(A v) {
  __shared__ alignas(16) unsigned char raw[32 * sizeof(A)];
  A* sm = reinterpret_cast<A*>(raw);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_reduce<Op>(v);
  __syncthreads();  // previous use of `raw` is complete
  if (lane == 0) sm[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x >> 5) ? sm[lane] : Op::template identity<A>();
    v = warp_reduce<Op>(v);
  }
  return v;
}

/// Writes a final value: for a mean, acc / n computed in float64 (complex128).
template <class Op, class Acc>
__device__ __forceinline__ void finish(char* p, dtype dt, Acc acc, bool mean, i64 n) {
  if constexpr (Op::is_sum) {
    if (mean) {
      const double dn = static_cast<double>(n);
      if constexpr (is_complex_v<Acc>) store_as(p, dt, Acc(acc.real() / dn, acc.imag() / dn));
      else store_as(p, dt, static_cast<double>(acc) / dn);
      return;
    }
  }
  store_as(p, dt, acc);
}

struct reduce_args {
  const char* base;     // element 0 of the input
  dtype in_dt;          // input dtype (for dyn loads)
  nd_map<1> kept;       // output index -> input byte offset of the output's first element
  nd_map<1> red;        // reduced index -> byte offset from there
  i64 n_out, n_red;
  i64 chunks, chunk_len;
  bool vec;             // rows kernel: 16-byte vector loads of a contiguous row
  bool per_block;       // rows kernel: a block (else a warp) per (output, chunk)
  void* partial;        // Acc[n_out * chunks] when chunks > 1
  char* out;            // final output (when chunks == 1)
  dtype out_dt;
  int out_item;
  bool mean;
};

constexpr int row_unroll = 4;
constexpr int col_unroll = 8;

template <class In, class Acc, class Op>
__global__ void __launch_bounds__(block_threads) reduce_rows(reduce_args g) {
  const int lane = threadIdx.x & 31;
  const int G = g.per_block ? static_cast<int>(blockDim.x) : 32;
  const int lg = g.per_block ? static_cast<int>(threadIdx.x) : lane;
  const i64 first = g.per_block ? static_cast<i64>(blockIdx.x)
                                : (static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const i64 n_groups = g.per_block ? static_cast<i64>(gridDim.x)
                                   : (static_cast<i64>(gridDim.x) * blockDim.x) >> 5;
  const i64 n_items = g.n_out * g.chunks;
  for (i64 w = first; w < n_items; w += n_groups) {
    const i64 row = w / g.chunks, c = w - row * g.chunks;
    const i64 j0 = c * g.chunk_len;
    const i64 j1 = ::min(g.n_red, j0 + g.chunk_len);
    i64 koff[1];
    g.kept.offsets(row, koff);
    const char* rbase = g.base + koff[0];
    Acc acc = Op::template identity<Acc>();
    bool done = false;
    if constexpr (!std::is_same_v<In, dyn>) {
      if (g.vec) {
        constexpr int V = vec_width<In>;
        const In* p = reinterpret_cast<const In*>(rbase);
        const i64 q1 = j1 / V;
        for (i64 q = j0 / V + lg; q < q1; q += row_unroll * G) {
          In x[row_unroll][V];
#pragma unroll
          for (int u = 0; u < row_unroll; ++u)
            if (q + u * G < q1) load_vec(p, q + u * G, x[u]);
#pragma unroll
          for (int u = 0; u < row_unroll; ++u)
            if (q + u * G < q1) acc = fold<Op>(acc, x[u]);
        }
        for (i64 j = q1 * V + lg; j < j1; j += G) acc = Op::apply(acc, convert<Acc>(p[j]));
        done = true;
      }
    }
    if (!done) {
      for (i64 j = j0 + lg; j < j1; j += row_unroll * G) {
        load_t<In, Acc> x[row_unroll];
#pragma unroll
        for (int u = 0; u < row_unroll; ++u) {
          const i64 jj = j + u * G;
          if (jj < j1) {
            i64 roff[1];
            g.red.offsets(jj, roff);
            x[u] = load_elem<In, Acc>(rbase + roff[0], g.in_dt);
          } else {
            x[u] = neutral<Op, In, Acc>();
          }
        }
        acc = fold<Op>(acc, x);
      }
    }
    acc = g.per_block ? block_reduce<Op>(acc) : warp_reduce<Op>(acc);
    if (lg == 0) {
      if (g.chunks > 1) static_cast<Acc*>(g.partial)[w] = acc;
      else finish<Op>(g.out + row * g.out_item, g.out_dt, acc, g.mean, g.n_red);
    }
  }
}

/// Combines row partials [n_out][chunks]: a block per output.
template <class Acc, class Op>
__global__ void __launch_bounds__(block_threads) combine_rows(reduce_args g) {
  const Acc* part = static_cast<const Acc*>(g.partial);
  for (i64 row = blockIdx.x; row < g.n_out; row += gridDim.x) {
    Acc acc = Op::template identity<Acc>();
    for (i64 c = threadIdx.x; c < g.chunks; c += blockDim.x) acc = Op::apply(acc, part[row * g.chunks + c]);
    acc = block_reduce<Op>(acc);
    if (threadIdx.x == 0) finish<Op>(g.out + row * g.out_item, g.out_dt, acc, g.mean, g.n_red);
  }
}

template <class In, class Acc, class Op>
__global__ void __launch_bounds__(block_threads) reduce_cols(reduce_args g) {
  const i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= g.n_out) return;
  const i64 c = blockIdx.y;
  const i64 j0 = c * g.chunk_len;
  const i64 j1 = ::min(g.n_red, j0 + g.chunk_len);
  i64 koff[1];
  g.kept.offsets(i, koff);
  const char* base = g.base + koff[0];
  Acc acc = Op::template identity<Acc>();
  for (i64 j = j0; j < j1; j += col_unroll) {
    load_t<In, Acc> x[col_unroll];
#pragma unroll
    for (int u = 0; u < col_unroll; ++u) {
      if (j + u < j1) {
        i64 roff[1];
        g.red.offsets(j + u, roff);
        x[u] = load_elem<In, Acc>(base + roff[0], g.in_dt);
      } else {
        x[u] = neutral<Op, In, Acc>();
      }
    }
    acc = fold<Op>(acc, x);
  }
  if (g.chunks > 1) static_cast<Acc*>(g.partial)[c * g.n_out + i] = acc;
  else finish<Op>(g.out + i * g.out_item, g.out_dt, acc, g.mean, g.n_red);
}

/// Combines column partials [chunks][n_out]: a thread per output.
template <class Acc, class Op>
__global__ void __launch_bounds__(block_threads) combine_cols(reduce_args g) {
  const i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= g.n_out) return;
  const Acc* part = static_cast<const Acc*>(g.partial);
  Acc acc = Op::template identity<Acc>();
  for (i64 c = 0; c < g.chunks; ++c) acc = Op::apply(acc, part[c * g.n_out + i]);
  finish<Op>(g.out + i * g.out_item, g.out_dt, acc, g.mean, g.n_red);
}

// ---------------------------------------------------------------------------------------------
// Host side.
// ---------------------------------------------------------------------------------------------

enum class kind { sum, mean, min, max };

const char* fn_name(kind k) {
  switch (k) {
    case kind::sum: return "cusci::sum";
    case kind::mean: return "cusci::mean";
    case kind::min: return "cusci::min";
    default: return "cusci::max";
  }
}

i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

/// The geometry shared by every dtype: groups, kernel choice, chunking.
struct plan {
  reduce_args g{};
  bool rows = true;
  dim3 grid{1, 1, 1};
  bool static_contig = false;  // reduced group is one contiguous run (stride == itemsize)
};

plan make_plan(const ndarray& src, const std::vector<bool>& reduced, char* out, dtype out_dt) {
  plan p;
  shape_t ks, kst, rs, rst;
  std::vector<std::pair<i64, i64>> red;  // (stride, length)
  for (int d = 0; d < src.ndim(); ++d) {
    if (reduced[d]) red.emplace_back(src.strides()[d], src.shape()[d]);
    else { ks.push_back(src.shape()[d]); kst.push_back(src.strides()[d]); }
  }
  std::stable_sort(red.begin(), red.end(), [](const auto& x, const auto& y) {
    return std::llabs(x.first) > std::llabs(y.first);
  });
  for (auto& [st, len] : red) { rs.push_back(len); rst.push_back(st); }
  i64 n_out = 1, n_red = 1;
  for (i64 v : ks) n_out *= v;
  for (i64 v : rs) n_red *= v;
  // Geometry after merging (size-0 groups are never launched; size-1 axes vanish).
  shape_t ks2 = ks, rs2 = rs;
  std::vector<shape_t> kst2{kst}, rst2{rst};
  p.g.kept = make_map<1>(ks2, kst2);
  p.g.red = make_map<1>(rs2, rst2);
  const i64 item = static_cast<i64>(src.itemsize());
  p.g.base = static_cast<const char*>(src.data());
  p.g.in_dt = src.dtype();
  p.g.n_out = n_out;
  p.g.n_red = n_red;
  p.g.out = out;
  p.g.out_dt = out_dt;
  p.g.out_item = static_cast<int>(itemsize(out_dt));
  const int nr = p.g.red.ndim, nk = p.g.kept.ndim;
  const i64 r_last = nr > 0 ? std::llabs(p.g.red.stride[0][nr - 1]) : 0;
  const i64 k_last = nk > 0 ? std::llabs(p.g.kept.stride[0][nk - 1]) : 0;
  if (n_out == 1) p.rows = true;
  else if (nr == 0) p.rows = false;
  else p.rows = r_last < k_last;
  p.static_contig = nr == 1 && p.g.red.stride[0][0] == item;
  bool kept_aligned = aligned16(src.data());
  for (int d = 0; d < nk; ++d) kept_aligned = kept_aligned && (p.g.kept.stride[0][d] % 16 == 0);
  p.g.vec = p.static_contig && kept_aligned;

  return p;
}

/// Chunking and grid of a plan for a kernel that keeps `per_sm` blocks resident per SM: outputs
/// are split into chunks so that the work items fill at most one wave of resident blocks (warps).
void configure(plan& p, i64 per_sm) {
  const i64 sms = sm_count();
  const i64 n_out = p.g.n_out, n_red = p.g.n_red;
  const i64 resident_blocks = sms * per_sm;
  const i64 resident_warps = resident_blocks * (block_threads / 32);
  if (p.rows) {
    const bool many_rows = n_out >= resident_warps / 2;
    p.g.per_block = !many_rows && n_red > 4096;
    i64 chunks;
    if (p.g.per_block) chunks = std::clamp<i64>(resident_blocks / n_out, 1, std::max<i64>(1, ceil_div(n_red, 4096)));
    else if (many_rows) chunks = 1;
    else chunks = std::clamp<i64>(resident_warps / n_out, 1, std::max<i64>(1, ceil_div(n_red, 1024)));
    i64 len = std::max<i64>(1, ceil_div(n_red, chunks));
    len = ceil_div(len, 16) * 16;  // keeps every chunk start on a 16-byte vector boundary
    p.g.chunk_len = len;
    p.g.chunks = std::max<i64>(1, ceil_div(n_red, len));
    const i64 items = n_out * p.g.chunks;
    const i64 blocks = p.g.per_block ? items : ceil_div(items, block_threads / 32);
    p.grid = dim3(static_cast<unsigned>(std::clamp<i64>(blocks, 1, resident_blocks)), 1, 1);
  } else {
    p.g.per_block = false;
    const i64 bx = ceil_div(n_out, block_threads);
    CUSCI_EXPECTS(bx <= 0x7fffffffLL, value_error, "cusci: reduction output too large");
    i64 chunks = std::clamp<i64>(resident_blocks / bx, 1, std::max<i64>(1, ceil_div(n_red, 64)));
    chunks = std::min<i64>(chunks, 65535);
    const i64 len = std::max<i64>(1, ceil_div(n_red, chunks));
    p.g.chunk_len = len;
    p.g.chunks = std::max<i64>(1, ceil_div(n_red, len));
    p.grid = dim3(static_cast<unsigned>(bx), static_cast<unsigned>(p.g.chunks), 1);
  }
}

template <class In, class Acc, class Op>
void run(plan p, bool mean) {
  cudaStream_t stream = get_current_stream();
  static const int rows_per_sm = occupancy_blocks(reduce_rows<In, Acc, Op>);
  static const int cols_per_sm = occupancy_blocks(reduce_cols<In, Acc, Op>);
  configure(p, p.rows ? rows_per_sm : cols_per_sm);
  p.g.mean = mean;
  memory_ptr tmp;
  if (p.g.chunks > 1) {
    tmp = cusci::malloc(static_cast<std::size_t>(p.g.n_out * p.g.chunks) * sizeof(Acc), stream);
    p.g.partial = tmp->ptr();
  }
  if (p.rows) {
    reduce_rows<In, Acc, Op><<<p.grid, block_threads, 0, stream>>>(p.g);
    CUSCI_CHECK_LAUNCH();
    if (p.g.chunks > 1) {
      const unsigned blocks = static_cast<unsigned>(std::clamp<i64>(p.g.n_out, 1, 65535));
      combine_rows<Acc, Op><<<blocks, block_threads, 0, stream>>>(p.g);
      CUSCI_CHECK_LAUNCH();
    }
  } else {
    reduce_cols<In, Acc, Op><<<p.grid, block_threads, 0, stream>>>(p.g);
    CUSCI_CHECK_LAUNCH();
    if (p.g.chunks > 1) {
      combine_cols<Acc, Op><<<static_cast<unsigned>(ceil_div(p.g.n_out, block_threads)), block_threads, 0,
                              stream>>>(p.g);
      CUSCI_CHECK_LAUNCH();
    }
  }
}

/// Normalizes `axis` to a mask over a's axes. @throws index_error / value_error as NumPy.
std::vector<bool> axis_mask(const char* fn, int ndim, const axis_arg& axis) {
  std::vector<bool> m(static_cast<std::size_t>(ndim), !axis.axes.has_value());
  if (!axis.axes) return m;
  for (int ax : *axis.axes) {
    if (ax < -ndim || ax >= ndim)
      throw index_error(std::string(fn) + ": axis " + std::to_string(ax) + " is out of bounds for array of dimension " +
                        std::to_string(ndim));
    const int a = ax < 0 ? ax + ndim : ax;
    if (m[a]) throw value_error(std::string(fn) + ": duplicate value in 'axis'");
    m[a] = true;
  }
  return m;
}

dtype default_sum_dtype(dtype t) {
  if (t == dtype::bool_ || t == dtype::int8 || t == dtype::int16 || t == dtype::int32) return dtype::int64;
  if (t == dtype::uint8 || t == dtype::uint16 || t == dtype::uint32) return dtype::uint64;
  return t;
}

/// Accumulator dtype of a sum or mean with result dtype r.
dtype sum_acc(dtype r) {
  if (r == dtype::bool_ || is_signed_integer(r)) return dtype::int64;
  if (is_unsigned_integer(r)) return dtype::uint64;
  if (is_floating(r)) return dtype::float64;
  return dtype::complex128;
}

ndarray reduce(kind k, const ndarray& a, const axis_arg& axis, const reduce_options& opts) {
  const char* fn = fn_name(k);
  const std::vector<bool> mask = axis_mask(fn, a.ndim(), axis);
  const dtype d = a.dtype();
  dtype r;
  if (opts.dtype) r = *opts.dtype;
  else if (k == kind::sum) r = default_sum_dtype(d);
  else if (k == kind::mean) r = (d == dtype::bool_ || is_integer(d)) ? dtype::float64 : d;
  else r = d;

  shape_t out_shape;
  i64 n_red = 1;
  for (int i = 0; i < a.ndim(); ++i) {
    if (mask[i]) {
      n_red *= a.shape()[i];
      if (opts.keepdims) out_shape.push_back(1);
    } else {
      out_shape.push_back(a.shape()[i]);
    }
  }
  if ((k == kind::min || k == kind::max) && n_red == 0)
    throw value_error(std::string(fn) + ": zero-size array to reduction operation " +
                      (k == kind::min ? "minimum" : "maximum") + " which has no identity");
  ndarray out = empty(out_shape, r);
  if (out.size() == 0) return out;

  // Inputs whose cast to the result dtype changes values the accumulator would see differently
  // (float -> int truncation, complex -> real, narrowing floats, anything -> bool) are cast first.
  ndarray src = a;
  if (k == kind::min || k == kind::max) {
    if (d != r) src = a.astype(r);
  } else {
    const bool direct = (promote_types(d, r) == r) ||
                        (is_integer(r) && (is_integer(d) || d == dtype::bool_));
    if (!direct) src = a.astype(r);
  }
  const plan p = make_plan(src, mask, static_cast<char*>(out.data()), r);
  const dtype sd = src.dtype();

  if (k == kind::sum || k == kind::mean) {
    const bool mean = k == kind::mean;
    const dtype acc = sum_acc(r);
    using c64 = cuda::std::complex<float>;
    using c128 = cuda::std::complex<double>;
    // The float32 (complex64) kernels add small groups in float32 before widening: only used when
    // the result is float32 (complex64) too; a float32 input summed to float64 widens every element.
    if (r == dtype::float32 && sd == dtype::float32) run<float, double, op_sum>(p, mean);
    else if (acc == dtype::float64 && sd == dtype::float64) run<double, double, op_sum>(p, mean);
    else if (r == dtype::complex64 && sd == dtype::complex64) run<c64, c128, op_sum>(p, mean);
    else if (acc == dtype::complex128 && sd == dtype::complex128) run<c128, c128, op_sum>(p, mean);
    else if (acc == dtype::float64) run<dyn, double, op_sum>(p, mean);
    else if (acc == dtype::complex128) run<dyn, c128, op_sum>(p, mean);
    else if (acc == dtype::uint64) run<dyn, std::uint64_t, op_sum>(p, mean);
    else run<dyn, std::int64_t, op_sum>(p, mean);
    return out;
  }
  detail::dispatch(r, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (k == kind::min) run<T, T, op_min>(p, false);
    else run<T, T, op_max>(p, false);
  });
  return out;
}

}  // namespace

ndarray sum(const ndarray& a, axis_arg axis, reduce_options opts) { return reduce(kind::sum, a, axis, opts); }
ndarray mean(const ndarray& a, axis_arg axis, reduce_options opts) { return reduce(kind::mean, a, axis, opts); }
ndarray min(const ndarray& a, axis_arg axis, reduce_options opts) { return reduce(kind::min, a, axis, opts); }
ndarray max(const ndarray& a, axis_arg axis, reduce_options opts) { return reduce(kind::max, a, axis, opts); }

}  // namespace cusci
