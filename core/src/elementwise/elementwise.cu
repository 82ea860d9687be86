/// @file elementwise.cu
/// The six comparisons, where and broadcast_shapes (arithmetic lives in elementwise_binary.cu), with NumPy 2's broadcasting and promotion (NEP 50 weak scalars).
///
/// Each operation picks a compute dtype C on the host, then runs one of two kernels for C:
///  - contiguous: every array operand already has dtype C, the output's shape and the output's dense
///    layout (C, F or any one axis order: NumPy's order='K' result),
///    16-byte aligned data: 16-byte vector loads and stores, four vectors in flight per thread, a
///    grid-stride loop over a grid sized to the SM count;
///  - strided: anything else (broadcasting, views, mixed dtypes, scalars); operands are addressed
///    through one offset map built after merging contiguous axes, and converted to C on load.
/// Comparisons share one kernel per dtype with the comparison chosen at run time (a uniform branch),
/// to keep the number of instantiations small.

#include <atomic>
#include <climits>
#include <limits>
#include <string>

#include "common/core_math_common.cuh"
#include "common/shape_text.hpp"
#include "elementwise/weak_int.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/device.hpp"

namespace cusci {
namespace detail::cm {

int sm_count() {
  static std::atomic<int> cached[64] = {};
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  const bool cacheable = dev >= 0 && dev < 64;
  if (cacheable) {
    const int c = cached[dev].load(std::memory_order_relaxed);
    if (c > 0) return c;
  }
  int n = 0;
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
  if (n < 1) n = 1;
  if (cacheable) cached[dev].store(n, std::memory_order_relaxed);
  return n;
}

namespace {
std::atomic<bool> driver_launch_on{true};
}

void set_driver_launch(bool enabled) { driver_launch_on.store(enabled, std::memory_order_relaxed); }

cu_launch_fn driver_launch() {
  static const cu_launch_fn fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || p == nullptr) {
      cudaGetLastError();
      return static_cast<cu_launch_fn>(nullptr);
    }
    return reinterpret_cast<cu_launch_fn>(p);
  }();
  return driver_launch_on.load(std::memory_order_relaxed) ? fn : nullptr;
}

}  // namespace detail::cm

namespace {

using namespace detail::cm;
using detail::is_complex_v;

enum class op_code : int {
  add, subtract, multiply, divide, equal, not_equal, less, less_equal, greater, greater_equal
};

const char* fn_name(op_code op) {
  switch (op) {
    case op_code::add: return "cusci::add";
    case op_code::subtract: return "cusci::subtract";
    case op_code::multiply: return "cusci::multiply";
    case op_code::divide: return "cusci::divide";
    case op_code::equal: return "cusci::equal";
    case op_code::not_equal: return "cusci::not_equal";
    case op_code::less: return "cusci::less";
    case op_code::less_equal: return "cusci::less_equal";
    case op_code::greater: return "cusci::greater";
    case op_code::greater_equal: return "cusci::greater_equal";
  }
  return "cusci";
}

bool is_comparison(op_code op) { return static_cast<int>(op) >= static_cast<int>(op_code::equal); }

// ---------------------------------------------------------------------------------------------
// Device operations.
// ---------------------------------------------------------------------------------------------

/// Wrapping integer arithmetic is done in an unsigned type at least as wide as int, so that no
/// signed overflow (undefined) and no promotion to signed int can occur.
template <class T>
using wide_unsigned_t = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;

template <op_code Op>
struct arith {
  template <class T>
  __device__ __forceinline__ T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      if constexpr (Op == op_code::add) return a || b;
      else return a && b;  // multiply
    } else if constexpr (std::is_integral_v<T>) {
      using U = wide_unsigned_t<T>;
      const U x = static_cast<U>(a), y = static_cast<U>(b);
      if constexpr (Op == op_code::add) return static_cast<T>(x + y);
      else if constexpr (Op == op_code::subtract) return static_cast<T>(x - y);
      else return static_cast<T>(x * y);
    } else if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
      if constexpr (Op == op_code::add) return T(ar + br, ai + bi);
      else if constexpr (Op == op_code::subtract) return T(ar - br, ai - bi);
      else if constexpr (Op == op_code::multiply) return T(ar * br - ai * bi, ar * bi + ai * br);
      else {
        // Smith's algorithm (R. L. Smith, "Algorithm 116: Complex division", CACM 5(8), 1962),
        // as NumPy uses; a zero divisor gives (ar / 0, ai / 0) like NumPy's loop.
        const R abr = br < 0 ? -br : br, abi = bi < 0 ? -bi : bi;
        if (abr >= abi) {
          if (abr == 0 && abi == 0) return T(ar / abr, ai / abr);
          const R rat = bi / br;
          const R scl = R(1) / (br + bi * rat);
          return T((ar + ai * rat) * scl, (ai - ar * rat) * scl);
        }
        const R rat = br / bi;
        const R scl = R(1) / (bi + br * rat);
        return T((ar * rat + ai) * scl, (ai * rat - ar) * scl);
      }
    } else {
      if constexpr (Op == op_code::add) return a + b;
      else if constexpr (Op == op_code::subtract) return a - b;
      else if constexpr (Op == op_code::multiply) return a * b;
      else return a / b;
    }
  }
};

/// The six comparisons, chosen at run time. Complex values: NumPy's lexicographic order, where a NaN
/// imaginary part makes an ordering test on unequal real parts false.
struct compare {
  int code;  // 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=
  template <class T>
  __device__ __forceinline__ bool operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      const auto xr = a.real(), xi = a.imag(), yr = b.real(), yi = b.imag();
      const bool ok = xi == xi && yi == yi;
      switch (code) {
        case 0: return xr == yr && xi == yi;
        case 1: return xr != yr || xi != yi;
        case 2: return (xr < yr && ok) || (xr == yr && xi < yi);
        case 3: return (xr < yr && ok) || (xr == yr && xi <= yi);
        case 4: return (xr > yr && ok) || (xr == yr && xi > yi);
        default: return (xr > yr && ok) || (xr == yr && xi >= yi);
      }
    } else {
      switch (code) {
        case 0: return a == b;
        case 1: return a != b;
        case 2: return a < b;
        case 3: return a <= b;
        case 4: return a > b;
        default: return a >= b;
      }
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Kernels.
// ---------------------------------------------------------------------------------------------

/// Operand modes of the contiguous kernel.
enum : int { both_arrays = 0, b_scalar = 1, a_scalar = 2 };

/// Vectors in flight per thread in the contiguous kernels.
constexpr int unroll = 4;

template <class T, class Out, class F>
__global__ void __launch_bounds__(block_threads)
    binary_contig(const T* __restrict__ a, const T* __restrict__ b, T sa, T sb, int mode,
                  Out* __restrict__ out, i64 n, F f) {
  constexpr int V = vec_width<T>;
  const i64 nv = n / V;
  const i64 step = static_cast<i64>(gridDim.x) * blockDim.x;
  const i64 tid = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (i64 k0 = tid; k0 < nv; k0 += unroll * step) {
    T xa[unroll][V], xb[unroll][V];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const i64 k = k0 + u * step;
      if (k < nv) {
        if (mode != a_scalar) load_vec(a, k, xa[u]);
        if (mode != b_scalar) load_vec(b, k, xb[u]);
      }
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const i64 k = k0 + u * step;
      if (k < nv) {
        Out r[V];
#pragma unroll
        for (int v = 0; v < V; ++v)
          r[v] = f(mode == a_scalar ? sa : xa[u][v], mode == b_scalar ? sb : xb[u][v]);
        store_vec(out, k, r);
      }
    }
  }
  for (i64 i = nv * V + tid; i < n; i += step)
    out[i] = f(mode == a_scalar ? sa : a[i], mode == b_scalar ? sb : b[i]);
}

template <class T>
struct operand {
  const char* ptr;  // element 0 (unused for a scalar)
  T value;          // the scalar's value
  dtype dt;         // the array's dtype
  bool is_scalar;
  bool same;        // dt is the compute dtype: plain load
};

template <class T>
__device__ __forceinline__ T fetch(const operand<T>& o, i64 off) {
  if (o.is_scalar) return o.value;
  const char* p = o.ptr + off;
  if (o.same) return *reinterpret_cast<const T*>(p);
  return load_as<T>(p, o.dt);
}

template <class T, class Out, class F>
__global__ void __launch_bounds__(block_threads)
    binary_strided(nd_map<2> m, i64 n, operand<T> a, operand<T> b, Out* __restrict__ out, F f) {
  const i64 step = static_cast<i64>(gridDim.x) * blockDim.x;
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    i64 off[2];
    m.offsets(i, off);
    out[i] = f(fetch(a, off[0]), fetch(b, off[1]));
  }
}

template <class T>
__global__ void __launch_bounds__(block_threads)
    where_strided(nd_map<3> m, i64 n, const char* cond, dtype cdt, operand<T> x, operand<T> y,
                  T* __restrict__ out) {
  const i64 step = static_cast<i64>(gridDim.x) * blockDim.x;
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    i64 off[3];
    m.offsets(i, off);
    out[i] = is_nonzero(cond + off[0], cdt) ? fetch(x, off[1]) : fetch(y, off[2]);
  }
}

// ---------------------------------------------------------------------------------------------
// Host side.
// ---------------------------------------------------------------------------------------------

/// One operand as given: an array or a scalar.
struct side {
  const ndarray* arr = nullptr;
  const scalar* sc = nullptr;
};

// NumPy writes the shapes of its broadcast error without spaces: "(4,1,2) (3,3)".
using detail::compact_shape_str;

/// NumPy's broadcasting of two shapes into `r`; false when a dimension pair is neither equal nor 1.
bool broadcast_pair(const shape_t& a, const shape_t& b, shape_t& r) {
  const std::size_t n = std::max(a.size(), b.size());
  r.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const i64 x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const i64 y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x == y || y == 1) r[i] = x;
    else if (x == 1) r[i] = y;
    else return false;
  }
  return true;
}

shape_t broadcast_or_throw(const char* fn, const shape_t& a, const shape_t& b) {
  shape_t r;
  if (!broadcast_pair(a, b, r))
    throw value_error(std::string(fn) + ": operands could not be broadcast together with shapes " +
                      compact_shape_str(a) + " " + compact_shape_str(b));
  return r;
}

shape_t side_shape(const side& s) { return s.arr ? s.arr->shape() : shape_t{}; }

std::string weak_int_str(const scalar& s) {
  return s.dtype() == dtype::uint64 ? std::to_string(s.value<std::uint64_t>())
                                    : std::to_string(s.value<std::int64_t>());
}

void check_weak_int(const char* fn, const scalar& s, dtype t) {
  if (!detail::weak_int_fits(s, t))
    throw value_error(std::string(fn) + ": Python integer " + weak_int_str(s) + " out of bounds for " +
                      std::string(dtype_name(t)));
}

/// The dtype a scalar contributes when it stands alone: its own when strong, its kind's default
/// (bool, int64, float64, complex128) when weak.
dtype weak_default(const scalar& s) {
  if (!s.is_weak()) return s.dtype();
  if (s.dtype() == dtype::bool_) return dtype::bool_;
  if (is_integer(s.dtype())) return dtype::int64;
  return s.dtype();
}

/// np.result_type of two operands, either of which may be a (weak or strong) scalar.
dtype result_of(const side& a, const side& b) {
  if (a.arr && b.arr) return promote_types(a.arr->dtype(), b.arr->dtype());
  if (a.arr) return promote_with_scalar(a.arr->dtype(), *b.sc);
  if (b.arr) return promote_with_scalar(b.arr->dtype(), *a.sc);
  if (!a.sc->is_weak()) return promote_with_scalar(a.sc->dtype(), *b.sc);
  if (!b.sc->is_weak()) return promote_with_scalar(b.sc->dtype(), *a.sc);
  return promote_types(weak_default(*a.sc), weak_default(*b.sc));
}

template <class T>
operand<T> make_operand(const side& s) {
  operand<T> o{};
  if (s.arr) {
    o.ptr = static_cast<const char*>(s.arr->data());
    o.dt = s.arr->dtype();
    o.is_scalar = false;
    if constexpr (is_int128_v<T>) o.same = false;
    else o.same = o.dt == dtype_of_host<T>();
  } else {
    o.value = scalar_as<T>(*s.sc);
    o.is_scalar = true;
    o.same = true;
    o.dt = dtype::bool_;
  }
  return o;
}

/// Whether `s` can be read by the contiguous kernel for compute dtype `c` beside the dense output
/// `out` (same element strides: one memory order for all).
bool contig_ok(const side& s, dtype c, const ndarray& out) {
  if (!s.arr) return true;
  const ndarray& a = *s.arr;
  return a.dtype() == c && aligned16(a.data()) && same_elem_layout(a, out);
}

template <class T, class Out, class F>
void launch_binary(const side& a, const side& b, dtype c, ndarray& out, F f) {
  const i64 n = out.size();
  if (n == 0) return;
  cudaStream_t stream = get_current_stream();
  Out* o = out.data_as<Out>();
  if constexpr (!is_int128_v<T>) {
    if (contig_ok(a, c, out) && contig_ok(b, c, out) && aligned16(o) && dense_any(out)) {
      const int mode = !a.arr ? a_scalar : !b.arr ? b_scalar : both_arrays;
      const T sa = a.arr ? T{} : scalar_as<T>(*a.sc);
      const T sb = b.arr ? T{} : scalar_as<T>(*b.sc);
      const T* pa = a.arr ? a.arr->data_as<T>() : nullptr;
      const T* pb = b.arr ? b.arr->data_as<T>() : nullptr;
      const i64 nv = n / vec_width<T>;
      static const int per_sm = occupancy_blocks(binary_contig<T, Out, F>);
      const unsigned blocks = grid_blocks(nv > 0 ? nv : n, per_sm);
      binary_contig<T, Out, F><<<blocks, block_threads, 0, stream>>>(pa, pb, sa, sb, mode, o, n, f);
      CUSCI_CHECK_LAUNCH();
      return;
    }
  }
  const shape_t& shape = out.shape();
  shape_t sa = a.arr ? broadcast_strides(*a.arr, shape) : shape_t(shape.size(), 0);
  shape_t sb = b.arr ? broadcast_strides(*b.arr, shape) : shape_t(shape.size(), 0);
  const nd_map<2> m = make_map<2>(shape, {sa, sb});
  static const int per_sm = occupancy_blocks(binary_strided<T, Out, F>);
  binary_strided<T, Out, F><<<grid_blocks(n, per_sm), block_threads, 0, stream>>>(m, n, make_operand<T>(a),
                                                                          make_operand<T>(b), o, f);
  CUSCI_CHECK_LAUNCH();
}

void check_devices(const char* fn, const side& a, const side& b) {
  if (a.arr && b.arr && a.arr->device() != b.arr->device())
    throw value_error(std::string(fn) + ": operands are on different devices (" +
                      std::to_string(a.arr->device()) + " and " + std::to_string(b.arr->device()) + ")");
}

/// Signed integer vs uint64 comparisons are exact in NumPy 2 (no detour through float64).
bool needs_i128_compare(dtype x, dtype y) {
  return (is_signed_integer(x) && y == dtype::uint64) || (x == dtype::uint64 && is_signed_integer(y));
}

/// For a comparison of an integer array with a weak Python int that does not fit its dtype, the
/// result is the same for every element (NumPy 2): returns that value.
bool out_of_range_compare(op_code op, const scalar& s, bool scalar_is_right) {
  // The scalar is either above the dtype's range (non-negative) or below it (negative).
  const bool above = !(s.dtype() == dtype::int64 && s.value<std::int64_t>() < 0);
  // array OP scalar, with array < scalar when above.
  bool lt = above;
  if (!scalar_is_right) lt = !lt;  // scalar OP array: flip
  switch (op) {
    case op_code::equal: return false;
    case op_code::not_equal: return true;
    case op_code::less: return lt;
    case op_code::less_equal: return lt;
    case op_code::greater: return !lt;
    default: return !lt;  // greater_equal
  }
}

ndarray binary(op_code op, const side& a, const side& b) {
  const char* fn = fn_name(op);
  check_devices(fn, a, b);
  const shape_t shape = broadcast_or_throw(fn, side_shape(a), side_shape(b));
  dtype c = result_of(a, b);
  // True division of integers runs in float64, so NumPy takes any Python int there (no OverflowError).
  const bool int_divide = op == op_code::divide && !is_inexact(c);
  if (a.sc && !int_divide) check_weak_int(fn, *a.sc, c);
  if (b.sc && !int_divide) check_weak_int(fn, *b.sc, c);
  const bool cmp = is_comparison(op);
  if (op == op_code::subtract && c == dtype::bool_)
    throw type_error(std::string(fn) +
                     ": numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                     "the `^` operator, or the logical_xor function instead.");
  if (int_divide) c = dtype::float64;
  // NumPy's order='K' result layout when the operands share one (then the contiguous kernel runs
  // over memory order); the strided kernel writes C order, so C otherwise.
  const ndarray* arrs[2] = {a.arr, b.arr};
  ndarray out = empty_k(shape, cmp ? dtype::bool_ : c, arrs, 2);
  if (!dense_c(out)) {
    // (The int128 comparison loop is never direct: its compute dtype float64 is neither operand's.)
    const bool direct = contig_ok(a, c, out) && contig_ok(b, c, out) && aligned16(out.data());
    if (!direct) out = empty(shape, cmp ? dtype::bool_ : c);
  }
  if (out.size() == 0) return out;

  if (cmp) {
    const compare f{static_cast<int>(op) - static_cast<int>(op_code::equal)};
    const dtype da = a.arr ? a.arr->dtype() : a.sc->dtype();
    const dtype db = b.arr ? b.arr->dtype() : b.sc->dtype();
    const bool a_weak = a.sc && a.sc->is_weak(), b_weak = b.sc && b.sc->is_weak();
    if (!a_weak && !b_weak && needs_i128_compare(da, db)) {
      launch_binary<i128, bool>(a, b, c, out, f);
      return out;
    }
    detail::dispatch(c, [&](auto tag) {
      using T = typename decltype(tag)::type;
      launch_binary<T, bool>(a, b, c, out, f);
    });
    return out;
  }
  throw type_error(std::string(fn) + ": not a comparison");
}

/// Comparison of an array with a scalar: handles weak Python ints outside the array's integer range.
ndarray compare_scalar(op_code op, const ndarray& a, const scalar& s) {
  const dtype c = result_of(side{&a, nullptr}, side{nullptr, &s});
  if (!detail::weak_int_fits(s, c)) {
    ndarray out = empty(a.shape(), dtype::bool_);
    if (out.size() > 0) out.fill(scalar(out_of_range_compare(op, s, true)));
    return out;
  }
  return binary(op, side{&a, nullptr}, side{nullptr, &s});
}

ndarray where_impl(const ndarray& cond, const side& x, const side& y) {
  const char* fn = "cusci::where";
  check_devices(fn, side{&cond, nullptr}, x);
  check_devices(fn, side{&cond, nullptr}, y);
  check_devices(fn, x, y);
  shape_t shape = cond.shape();
  if (x.arr) shape = broadcast_or_throw(fn, shape, x.arr->shape());
  if (y.arr) shape = broadcast_or_throw(fn, shape, y.arr->shape());
  const dtype c = result_of(x, y);
  if (x.sc) check_weak_int(fn, *x.sc, c);
  if (y.sc) check_weak_int(fn, *y.sc, c);
  ndarray out = empty(shape, c);
  const i64 n = out.size();
  if (n == 0) return out;
  const shape_t sc = broadcast_strides(cond, shape);
  const shape_t sx = x.arr ? broadcast_strides(*x.arr, shape) : shape_t(shape.size(), 0);
  const shape_t sy = y.arr ? broadcast_strides(*y.arr, shape) : shape_t(shape.size(), 0);
  const nd_map<3> m = make_map<3>(shape, {sc, sx, sy});
  cudaStream_t stream = get_current_stream();
  detail::dispatch(c, [&](auto tag) {
    using T = typename decltype(tag)::type;
    static const int per_sm = occupancy_blocks(where_strided<T>);
    where_strided<T><<<grid_blocks(n, per_sm), block_threads, 0, stream>>>(
        m, n, static_cast<const char*>(cond.data()), cond.dtype(), make_operand<T>(x), make_operand<T>(y),
        out.data_as<T>());
    CUSCI_CHECK_LAUNCH();
  });
  return out;
}

side A(const ndarray& a) { return side{&a, nullptr}; }
side S(const scalar& s) { return side{nullptr, &s}; }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public API.
// ---------------------------------------------------------------------------------------------

ndarray equal(const ndarray& a, const ndarray& b) { return binary(op_code::equal, A(a), A(b)); }
ndarray equal(const ndarray& a, const scalar& b) { return compare_scalar(op_code::equal, a, b); }
ndarray not_equal(const ndarray& a, const ndarray& b) { return binary(op_code::not_equal, A(a), A(b)); }
ndarray not_equal(const ndarray& a, const scalar& b) { return compare_scalar(op_code::not_equal, a, b); }
ndarray less(const ndarray& a, const ndarray& b) { return binary(op_code::less, A(a), A(b)); }
ndarray less(const ndarray& a, const scalar& b) { return compare_scalar(op_code::less, a, b); }
ndarray less_equal(const ndarray& a, const ndarray& b) { return binary(op_code::less_equal, A(a), A(b)); }
ndarray less_equal(const ndarray& a, const scalar& b) { return compare_scalar(op_code::less_equal, a, b); }
ndarray greater(const ndarray& a, const ndarray& b) { return binary(op_code::greater, A(a), A(b)); }
ndarray greater(const ndarray& a, const scalar& b) { return compare_scalar(op_code::greater, a, b); }
ndarray greater_equal(const ndarray& a, const ndarray& b) {
  return binary(op_code::greater_equal, A(a), A(b));
}
ndarray greater_equal(const ndarray& a, const scalar& b) {
  return compare_scalar(op_code::greater_equal, a, b);
}

ndarray where(const ndarray& condition, const ndarray& x, const ndarray& y) {
  return where_impl(condition, A(x), A(y));
}
ndarray where(const ndarray& condition, const ndarray& x, const scalar& y) {
  return where_impl(condition, A(x), S(y));
}
ndarray where(const ndarray& condition, const scalar& x, const ndarray& y) {
  return where_impl(condition, S(x), A(y));
}
ndarray where(const ndarray& condition, const scalar& x, const scalar& y) {
  return where_impl(condition, S(x), S(y));
}

shape_t broadcast_shapes(const shape_t& a, const shape_t& b) {
  for (const shape_t* s : {&a, &b})
    for (i64 d : *s)
      if (d < 0)
        throw value_error("cusci::broadcast_shapes: negative dimensions are not allowed, got " +
                          detail::shape_str(*s));
  shape_t r;
  if (!broadcast_pair(a, b, r))
    throw value_error(
        "cusci::broadcast_shapes: shape mismatch: objects cannot be broadcast to a single shape.  "
        "Mismatch is at arg 0 with shape " + detail::shape_str(a) + " and arg 1 with shape " + detail::shape_str(b) +
        ".");
  return r;
}

}  // namespace cusci
