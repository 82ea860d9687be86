/// @file elementwise_binary.cu
/// Binary ufuncs (add ... logical_xor) on the generic engine, and the engine's host helpers
/// (broadcasting, NEP 50 result dtype, same_kind `out=` checks, overlap handling).
/// Each functor is instantiated only for the loop dtypes NumPy has for it (`ok<L>`).

#include <string>

#include "elementwise/elementwise_engine.cuh"
#include "elementwise/weak_int.hpp"

namespace cusci {
namespace detail::ew {

// ---------------------------------------------------------------------------------------------
// Engine host helpers.
// ---------------------------------------------------------------------------------------------

std::string np_shape(const shape_t& s) {
  std::string r = "(";
  for (std::size_t i = 0; i < s.size(); ++i) r += std::to_string(s[i]) + (i + 1 < s.size() ? "," : "");
  if (s.size() == 1) r += ",";
  return r + ")";
}

shape_t broadcast_args(const char* fn, const arg* args, int n) {
  std::size_t nd = 0;
  for (int k = 0; k < n; ++k)
    if (args[k].arr) nd = std::max<std::size_t>(nd, args[k].arr->shape().size());
  shape_t r(nd, 1);
  for (int k = 0; k < n; ++k) {
    if (!args[k].arr) continue;
    const shape_t& s = args[k].arr->shape();
    for (std::size_t i = 0; i < s.size(); ++i) {
      i64& d = r[nd - s.size() + i];
      const i64 x = s[i];
      if (x == d || x == 1) continue;
      if (d == 1) { d = x; continue; }
      std::string shapes;
      for (int j = 0; j < n; ++j)
        if (args[j].arr) shapes += (shapes.empty() ? "" : " ") + np_shape(args[j].arr->shape());
      throw value_error(std::string(fn) + ": operands could not be broadcast together with shapes " + shapes);
    }
  }
  return r;
}

namespace {
int cast_kind(dtype t) {
  if (is_bool(t)) return 0;
  if (is_unsigned_integer(t)) return 1;
  if (is_signed_integer(t)) return 2;
  if (is_floating(t)) return 3;
  return 4;
}
dtype weak_default(const scalar& s) {
  if (!s.is_weak()) return s.dtype();
  if (s.dtype() == dtype::bool_) return dtype::bool_;
  if (is_integer(s.dtype())) return dtype::int64;
  return s.dtype();
}
std::string dtype_repr(dtype t) { return "dtype('" + std::string(dtype_name(t)) + "')"; }
}  // namespace

bool can_cast_same_kind(dtype from, dtype to) noexcept {
  return promote_types(from, to) == to || cast_kind(from) <= cast_kind(to);
}

dtype result_of(const arg* args, int n) {
  bool have = false;
  dtype r = dtype::bool_;
  for (int k = 0; k < n; ++k) {
    const bool strong = args[k].arr || !args[k].sc->is_weak();
    if (!strong) continue;
    const dtype t = args[k].arr ? args[k].arr->dtype() : args[k].sc->dtype();
    r = have ? promote_types(r, t) : t;
    have = true;
  }
  for (int k = 0; k < n; ++k) {
    if (args[k].arr || !args[k].sc->is_weak()) continue;
    if (have) {
      r = promote_with_scalar(r, *args[k].sc);
    } else {
      r = weak_default(*args[k].sc);
      have = true;
    }
  }
  return r;
}

void check_weak_ints(const char* fn, const arg* args, int n, dtype loop) {
  for (int k = 0; k < n; ++k) {
    if (!args[k].sc || cusci::detail::weak_int_fits(*args[k].sc, loop)) continue;
    const scalar& s = *args[k].sc;
    const std::string v = s.dtype() == dtype::uint64 ? std::to_string(s.value<std::uint64_t>())
                                                      : std::to_string(s.value<std::int64_t>());
    throw value_error(std::string(fn) + ": Python integer " + v + " out of bounds for " +
                      std::string(dtype_name(loop)));
  }
}

void no_loop(const char* fn, const arg* args, int n) {
  std::string name = fn;
  if (name.rfind("cusci::", 0) == 0) name = name.substr(7);
  std::string types;
  for (int k = 0; k < n; ++k) {
    const dtype t = args[k].arr ? args[k].arr->dtype() : weak_default(*args[k].sc);
    types += (k ? ", " : "") + std::string(dtype_name(t));
  }
  throw type_error(std::string(fn) + ": ufunc '" + name + "' not supported for the input types (" + types +
                   "), and the inputs could not be safely coerced to any supported types according to the "
                   "casting rule ''safe''");
}

namespace {
/// Strides with length-1 axes zeroed, for comparing layouts.
shape_t norm_strides(const shape_t& shape, const shape_t& st) {
  shape_t r = st;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (shape[d] == 1) r[d] = 0;
  return r;
}
}  // namespace

ndarray prepare_out(const char* fn, const char* ufunc, const shape_t& shape, dtype o, ndarray* out,
                    const arg* args, int n, bool& temp) {
  temp = false;
  if (!out) {
    // The caller (run) has made the operands' device current. NumPy's order='K' layout.
    const ndarray* arrs[4] = {};
    const int m = n < 4 ? n : 4;
    for (int k = 0; k < m; ++k) arrs[k] = args[k].arr;
    return empty_k(shape, o, arrs, m);
  }
  if (out->shape() != shape)
    throw value_error(std::string(fn) + ": non-broadcastable output operand with shape " + np_shape(out->shape()) +
                      " doesn't match the broadcast shape " + np_shape(shape));
  if (!can_cast_same_kind(o, out->dtype()))
    throw type_error(std::string(fn) + ": Cannot cast ufunc '" + ufunc + "' output from " + dtype_repr(o) + " to " +
                     dtype_repr(out->dtype()) + " with casting rule 'same_kind'");
  const shape_t os = norm_strides(shape, out->strides());
  for (int k = 0; k < n; ++k) {
    const ndarray* a = args[k].arr;
    if (!a) continue;
    if (a->device() != out->device())
      throw value_error(std::string(fn) + ": out is on device " + std::to_string(out->device()) +
                        ", an operand on device " + std::to_string(a->device()));
    if (a->memory() != out->memory() || a->size() == 0) continue;
    const bool identical = a->data() == out->data() && a->dtype() == out->dtype() &&
                           norm_strides(shape, broadcast_strides(*a, shape)) == os && a->shape() == shape;
    if (!identical) temp = true;
  }
  if (temp) {
    const ndarray* arrs[4] = {};
    const int m = n < 4 ? n : 4;
    for (int k = 0; k < m; ++k) arrs[k] = args[k].arr;
    return empty_k(shape, o, arrs, m);
  }
  return *out;
}

bool contig_input(const arg& a, dtype l, const ndarray& res) {
  if (!a.arr) return true;
  const ndarray& x = *a.arr;
  return x.dtype() == l && aligned16(x.data()) && same_elem_layout(x, res);
}

namespace {

// ---------------------------------------------------------------------------------------------
// Functors. `out<L>`: output storage type of loop L; `ok<L>`: whether the loop exists.
// ---------------------------------------------------------------------------------------------

template <class T>
using wide_u = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;

#define CUSCI_SAME_OUT_ template <class L> using out = L;
#define CUSCI_BOOL_OUT_ template <class L> using out = bool;

template <class C> __device__ __forceinline__ bool isnan_(C v) {
  if constexpr (is_complex_v<C>) return v.real() != v.real() || v.imag() != v.imag();
  else return v != v;
}

struct f_add {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return true; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (is_bool_v<C>) return a || b;
    else if constexpr (is_int_v<C>) return static_cast<C>(static_cast<wide_u<C>>(a) + static_cast<wide_u<C>>(b));
    else if constexpr (is_complex_v<C>) return C(a.real() + b.real(), a.imag() + b.imag());
    else return a + b;
  }
};
struct f_subtract {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return !is_bool_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (is_int_v<C>) return static_cast<C>(static_cast<wide_u<C>>(a) - static_cast<wide_u<C>>(b));
    else if constexpr (is_complex_v<C>) return C(a.real() - b.real(), a.imag() - b.imag());
    else return a - b;
  }
};
struct f_multiply {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return true; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (is_bool_v<C>) return a && b;
    else if constexpr (is_int_v<C>) return static_cast<C>(static_cast<wide_u<C>>(a) * static_cast<wide_u<C>>(b));
    else if constexpr (is_complex_v<C>)
      return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
    else return a * b;
  }
};
struct f_divide {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return is_float_v<L> || is_complex_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (is_complex_v<C>) {
      // Smith's algorithm (R. L. Smith, "Algorithm 116: Complex division", CACM 5(8), 1962), as NumPy.
      using R = typename C::value_type;
      const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
      const R abr = br < 0 ? -br : br, abi = bi < 0 ? -bi : bi;
      if (abr >= abi) {
        if (abr == 0 && abi == 0) return C(ar / abr, ai / abr);
        const R rat = bi / br, scl = R(1) / (br + bi * rat);
        return C((ar + ai * rat) * scl, (ai - ar * rat) * scl);
      }
      const R rat = br / bi, scl = R(1) / (bi + br * rat);
      return C((ar * rat + ai) * scl, (ai * rat - ar) * scl);
    } else {
      return a / b;
    }
  }
};

/// NumPy's npy_divmod for floats: returns the floor quotient, sets the remainder.
template <class C> __device__ __forceinline__ C float_divmod(C a, C b, C& mod) {
  mod = cuda::std::fmod(a, b);
  if (b == C(0)) return a / b;
  C div = (a - mod) / b;
  if (mod != C(0)) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= C(1);
    }
  } else {
    mod = cuda::std::copysign(C(0), b);
  }
  C fl;
  if (div != C(0)) {
    fl = cuda::std::floor(div);
    if (div - fl > C(0.5)) fl += C(1);
  } else {
    fl = cuda::std::copysign(C(0), a / b);
  }
  return fl;
}

struct f_floor_divide {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return is_int_v<L> || is_float_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (is_int_v<C>) {
      if (b == 0) return C(0);
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) return static_cast<C>(wide_u<C>(0) - static_cast<wide_u<C>>(a));
        C q = static_cast<C>(a / b);
        if (static_cast<C>(a % b) != 0 && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return static_cast<C>(a / b);
      }
    } else {
      C m;
      return float_divmod(a, b, m);
    }
  }
};
struct f_remainder {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return is_int_v<L> || is_float_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (is_int_v<C>) {
      if (b == 0) return C(0);
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) return C(0);
        C r = static_cast<C>(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
        return r;
      } else {
        return static_cast<C>(a % b);
      }
    } else {
      if (b == C(0)) return cuda::std::fmod(a, b);
      C m;
      float_divmod(a, b, m);
      return m;
    }
  }
};

template <class C> __device__ __forceinline__ C cmul(C a, C b) {
  return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

struct f_power {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return !is_bool_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (is_int_v<C>) {
      using U = wide_u<C>;
      if constexpr (std::is_signed_v<C>) {
        if (b < 0) return C(0);  // rejected on the host before the launch
      }
      U r = 1, base = static_cast<U>(a);
      auto e = b;
      while (e != 0) {
        if (e & 1) r *= base;
        base *= base;
        e = static_cast<C>(e >> 1);
      }
      return static_cast<C>(r);
    } else if constexpr (is_complex_v<C>) {
      // NumPy's nc_pow: exact special cases, small integer exponents by repeated multiplication.
      using R = typename C::value_type;
      const R br = b.real(), bi = b.imag();
      if (br == R(0) && bi == R(0)) return C(1, 0);
      if (a.real() == R(0) && a.imag() == R(0)) {
        if (br > R(0) && bi == R(0)) return C(0, 0);
        const R nan = cuda::std::numeric_limits<R>::quiet_NaN();
        return C(nan, nan);
      }
      if (bi == R(0) && br == cuda::std::trunc(br) && br > R(-100) && br < R(100)) {
        int n = static_cast<int>(br);
        const bool neg = n < 0;
        if (neg) n = -n;
        C r(1, 0), p = a;
        while (n) {
          if (n & 1) r = cmul(r, p);
          p = cmul(p, p);
          n >>= 1;
        }
        if (neg) return f_divide{}(C(1, 0), r);
        return r;
      }
      return cuda::std::pow(a, b);
    } else {
      return cuda::std::pow(a, b);
    }
  }
};

/// Lexicographic complex >= / <= with NumPy's NaN rule (CGE / CLE).
template <class C> __device__ __forceinline__ bool cge(C a, C b) {
  return (a.real() > b.real() && a.imag() == a.imag() && b.imag() == b.imag()) ||
         (a.real() == b.real() && a.imag() >= b.imag());
}
template <class C> __device__ __forceinline__ bool cle(C a, C b) {
  return (a.real() < b.real() && a.imag() == a.imag() && b.imag() == b.imag()) ||
         (a.real() == b.real() && a.imag() <= b.imag());
}

template <bool Max, bool PropagateNaN>
struct f_minmax {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return true; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    bool take_a;
    if constexpr (is_complex_v<C>) take_a = Max ? cge(a, b) : cle(a, b);
    else take_a = Max ? (a >= b) : (a <= b);
    if constexpr (is_float_v<C> || is_complex_v<C>) {
      if (PropagateNaN) take_a = take_a || isnan_(a);
      else take_a = take_a || isnan_(b);
    }
    return take_a ? a : b;
  }
};

struct f_copysign {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return is_float_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const { return cuda::std::copysign(a, b); }
};
struct f_arctan2 {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return is_float_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const { return cuda::std::atan2(a, b); }
};
struct f_hypot {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return is_float_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const { return cuda::std::hypot(a, b); }
};

using f_maximum = f_minmax<true, true>;
using f_minimum = f_minmax<false, true>;
using f_fmax = f_minmax<true, false>;
using f_fmin = f_minmax<false, false>;

enum class bit_op { and_, or_, xor_ };
template <bit_op Op>
struct f_bitwise {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return is_int_v<L> || is_bool_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (Op == bit_op::and_) return static_cast<C>(a & b);
    else if constexpr (Op == bit_op::or_) return static_cast<C>(a | b);
    else return static_cast<C>(a ^ b);
  }
};
template <bool Left>
struct f_shift {
  CUSCI_SAME_OUT_
  template <class L> static constexpr bool ok() { return is_int_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C a, C b) const {
    constexpr unsigned long long bits = sizeof(C) * 8;
    const unsigned long long n = static_cast<unsigned long long>(static_cast<long long>(b));
    if constexpr (Left) {
      if (n >= bits) return C(0);
      return static_cast<C>(static_cast<wide_u<C>>(a) << n);
    } else {
      if (n >= bits) return (std::is_signed_v<C> && a < 0) ? C(-1) : C(0);
      return static_cast<C>(a >> n);
    }
  }
};
template <bit_op Op>
struct f_logical {
  CUSCI_BOOL_OUT_
  template <class L> static constexpr bool ok() { return true; }
  template <class C> __device__ __forceinline__ bool operator()(C a, C b) const {
    const bool x = nonzero_value(a), y = nonzero_value(b);
    if constexpr (Op == bit_op::and_) return x && y;
    else if constexpr (Op == bit_op::or_) return x || y;
    else return x != y;
  }
};

using f_bitwise_and = f_bitwise<bit_op::and_>;
using f_bitwise_or = f_bitwise<bit_op::or_>;
using f_bitwise_xor = f_bitwise<bit_op::xor_>;
using f_left_shift = f_shift<true>;
using f_right_shift = f_shift<false>;
using f_logical_and = f_logical<bit_op::and_>;
using f_logical_or = f_logical<bit_op::or_>;
using f_logical_xor = f_logical<bit_op::xor_>;

/// Any element of the (integer) exponent operand negative: one flag read back (synchronizes).
__global__ void any_negative_kernel(nd_map<1> m, i64 n, const char* p, dtype dt, int* flag) {
  const i64 step = static_cast<i64>(gridDim.x) * blockDim.x;
  for (i64 i = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    i64 off[1];
    m.offsets(i, off);
    if (load_as<i64>(p + off[0], dt) < 0) {
      *flag = 1;
      return;
    }
  }
}

void check_negative_powers(const char* fn, const arg& e, dtype loop) {
  if (!is_signed_integer(loop)) return;
  const char* msg = ": Integers to negative integer powers are not allowed.";
  if (e.sc) {
    if (scalar_as<i64>(*e.sc) < 0 && is_integer(e.sc->dtype())) throw value_error(std::string(fn) + msg);
    return;
  }
  const ndarray& x = *e.arr;
  if (!is_signed_integer(x.dtype()) || x.size() == 0) return;
  device_guard guard(x.device());
  ndarray flag = zeros({1}, dtype::int32);
  const nd_map<1> m = make_map<1>(x.shape(), {x.strides()});
  any_negative_kernel<<<grid_blocks(x.size()), block_threads, 0, get_current_stream()>>>(
      m, x.size(), static_cast<const char*>(x.data()), x.dtype(), flag.data_as<int>());
  CUSCI_CHECK_LAUNCH();
  if (flag.item<std::int32_t>() != 0) throw value_error(std::string(fn) + msg);
}

// ---------------------------------------------------------------------------------------------
// Loop dtype rules.
// ---------------------------------------------------------------------------------------------

enum class rule { same, divide, int8_for_bool, floating };

dtype loop_dtype(rule r, const arg* args, int n) {
  const dtype t = result_of(args, n);
  switch (r) {
    case rule::same: return t;
    case rule::divide: return is_inexact(t) ? t : dtype::float64;
    case rule::int8_for_bool: return t == dtype::bool_ ? dtype::int8 : t;
    case rule::floating: return float_loop(t);
  }
  return t;
}

template <class F>
ndarray binop(const char* fn, const char* ufunc, rule r, arg a, arg b, ndarray* out) {
  const arg args[2] = {a, b};
  const dtype l = loop_dtype(r, args, 2);
  if constexpr (std::is_same_v<F, f_subtract>) {
    if (l == dtype::bool_)
      throw type_error(std::string(fn) +
                       ": numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                       "operator, or the logical_xor function instead.");
  }
  if constexpr (std::is_same_v<F, f_power>) {
    broadcast_args(fn, args, 2);
    check_negative_powers(fn, b, l);
  }
  return run<2>(fn, ufunc, l, args, out, F{});
}

}  // namespace
}  // namespace detail::ew

using detail::ew::A;
using detail::ew::S;
using detail::ew::rule;

#define CUSCI_DEFINE_BINARY_(name, F, r)                                                                 \
  ndarray name(const ndarray& a, const ndarray& b, ndarray* out) {                                     \
    return detail::ew::binop<detail::ew::F>("cusci::" #name, #name, r, A(a), A(b), out);               \
  }                                                                                                    \
  ndarray name(const ndarray& a, const scalar& b, ndarray* out) {                                      \
    return detail::ew::binop<detail::ew::F>("cusci::" #name, #name, r, A(a), S(b), out);               \
  }                                                                                                    \
  ndarray name(const scalar& a, const ndarray& b, ndarray* out) {                                      \
    return detail::ew::binop<detail::ew::F>("cusci::" #name, #name, r, S(a), A(b), out);               \
  }

CUSCI_DEFINE_BINARY_(add, f_add, rule::same)
CUSCI_DEFINE_BINARY_(subtract, f_subtract, rule::same)
CUSCI_DEFINE_BINARY_(multiply, f_multiply, rule::same)
CUSCI_DEFINE_BINARY_(divide, f_divide, rule::divide)
CUSCI_DEFINE_BINARY_(floor_divide, f_floor_divide, rule::int8_for_bool)
CUSCI_DEFINE_BINARY_(remainder, f_remainder, rule::int8_for_bool)
CUSCI_DEFINE_BINARY_(power, f_power, rule::int8_for_bool)
CUSCI_DEFINE_BINARY_(maximum, f_maximum, rule::same)
CUSCI_DEFINE_BINARY_(minimum, f_minimum, rule::same)
CUSCI_DEFINE_BINARY_(fmax, f_fmax, rule::same)
CUSCI_DEFINE_BINARY_(fmin, f_fmin, rule::same)
CUSCI_DEFINE_BINARY_(copysign, f_copysign, rule::floating)
CUSCI_DEFINE_BINARY_(arctan2, f_arctan2, rule::floating)
CUSCI_DEFINE_BINARY_(hypot, f_hypot, rule::floating)
CUSCI_DEFINE_BINARY_(bitwise_and, f_bitwise_and, rule::same)
CUSCI_DEFINE_BINARY_(bitwise_or, f_bitwise_or, rule::same)
CUSCI_DEFINE_BINARY_(bitwise_xor, f_bitwise_xor, rule::same)
CUSCI_DEFINE_BINARY_(left_shift, f_left_shift, rule::int8_for_bool)
CUSCI_DEFINE_BINARY_(right_shift, f_right_shift, rule::int8_for_bool)
CUSCI_DEFINE_BINARY_(logical_and, f_logical_and, rule::same)
CUSCI_DEFINE_BINARY_(logical_or, f_logical_or, rule::same)
CUSCI_DEFINE_BINARY_(logical_xor, f_logical_xor, rule::same)

}  // namespace cusci
