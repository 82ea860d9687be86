/// @file elementwise_unary.cu
/// Non-float-valued unary ufuncs (abs, negative, positive, square, reciprocal, sign, floor, ceil,
/// trunc, isnan, isinf, isfinite, logical_not, invert, conjugate), real/imag views, around and clip,
/// on the generic engine (elementwise_engine.cuh).

#include <string>

#include "elementwise/elementwise_engine.cuh"

namespace cusci {
namespace detail::ew {
namespace {

template <class T>
using wide_u = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;

/// NumPy's complex absolute value (its SIMD loop, bit for bit): with a = max(|re|, |im|) and
/// b = min(|re|, |im|), |z| = a * sqrt(fma(b/a, b/a, 1)); an infinite part gives inf even beside a
/// NaN, a NaN otherwise gives NaN, 0 gives 0. Not libm's hypot (which differs in the last bit for
/// about a third of inputs).
template <class C>
__device__ __forceinline__ typename C::value_type complex_abs(C x) {
  namespace s = cuda::std;
  using R = typename C::value_type;
  const R re = s::fabs(x.real()), im = s::fabs(x.imag());
  const R inf = s::numeric_limits<R>::infinity();
  if (re == inf || im == inf) return inf;
  if (re != re || im != im) return s::numeric_limits<R>::quiet_NaN();
  const R big = re > im ? re : im, small = re > im ? im : re;
  const R ratio = big == R(0) ? R(0) : small / big;
  return s::sqrt(s::fma(ratio, ratio, R(1))) * big;
}

enum class uf { abs, negative, positive, square, reciprocal, sign, floor, ceil, trunc, conj };

template <uf Op>
struct f_unary {
  template <class L> using out = std::conditional_t<Op == uf::abs, real_of_t<L>, L>;
  template <class L> static constexpr bool ok() {
    if constexpr (Op == uf::negative || Op == uf::positive || Op == uf::sign || Op == uf::square ||
                  Op == uf::reciprocal)
      return !is_bool_v<L>;
    else if constexpr (Op == uf::floor || Op == uf::ceil || Op == uf::trunc) return !is_complex_v<L>;
    else return true;
  }
  template <class C> __device__ __forceinline__ auto operator()(C x) const {
    namespace s = cuda::std;
    if constexpr (Op == uf::abs) {
      if constexpr (is_complex_v<C>) return complex_abs(x);
      else if constexpr (is_bool_v<C> || std::is_unsigned_v<C>) return x;
      else if constexpr (is_int_v<C>) return x < 0 ? static_cast<C>(wide_u<C>(0) - static_cast<wide_u<C>>(x)) : x;
      else return s::fabs(x);
    } else if constexpr (Op == uf::negative) {
      if constexpr (is_int_v<C>) return static_cast<C>(wide_u<C>(0) - static_cast<wide_u<C>>(x));
      else return C(-x);
    } else if constexpr (Op == uf::positive) {
      return x;
    } else if constexpr (Op == uf::square) {
      if constexpr (is_int_v<C>) return static_cast<C>(static_cast<wide_u<C>>(x) * static_cast<wide_u<C>>(x));
      else if constexpr (is_complex_v<C>)
        return C(x.real() * x.real() - x.imag() * x.imag(), x.real() * x.imag() + x.imag() * x.real());
      else return x * x;
    } else if constexpr (Op == uf::reciprocal) {
      if constexpr (is_int_v<C>) {
        // NumPy computes 1.0 / x in double and converts (x86): 1/0 = inf becomes the "integer
        // indefinite" INT_MIN for 32- and 64-bit signed types and 0 (its low bits) for the others.
        if (x == 0) {
          if constexpr (std::is_signed_v<C> && sizeof(C) >= 4) return s::numeric_limits<C>::min();
          else return C(0);
        }
        return static_cast<C>(1.0 / static_cast<double>(x));
      } else if constexpr (is_complex_v<C>) {
        // NumPy's complex reciprocal (Smith's scaling).
        using R = typename C::value_type;
        const R r = x.real(), i = x.imag();
        if (s::fabs(i) <= s::fabs(r)) {
          const R q = i / r, d = R(1) / (r + i * q);
          return C(d, -q * d);
        }
        const R q = r / i, d = R(1) / (i + r * q);
        return C(q * d, -d);
      } else {
        return C(1) / x;
      }
    } else if constexpr (Op == uf::sign) {
      if constexpr (is_complex_v<C>) {
        // NumPy 2's z / |z|: one infinite part gives that part's direction even beside a NaN
        // (sign(nan - inf j) = -1j); two infinite parts or a NaN without an infinity give NaN.
        using R = typename C::value_type;
        const R nan = s::numeric_limits<R>::quiet_NaN();
        const bool ri = s::isinf(x.real()), ii = s::isinf(x.imag());
        if (ri && ii) return C(nan, nan);
        if (ri) return C(s::copysign(R(1), x.real()), R(0));
        if (ii) return C(R(0), s::copysign(R(1), x.imag()));
        if (x.real() != x.real() || x.imag() != x.imag()) return C(nan, nan);
        if (x.real() == R(0) && x.imag() == R(0)) return C(0, 0);
        const R m = complex_abs(x);
        if (s::isinf(m)) {  // |z| overflows: scale by the larger part first
          const R big = s::fmax(s::fabs(x.real()), s::fabs(x.imag()));
          const C y(x.real() / big, x.imag() / big);
          const R my = complex_abs(y);
          return C(y.real() / my, y.imag() / my);
        }
        return C(x.real() / m, x.imag() / m);
      } else if constexpr (std::is_unsigned_v<C>) {
        return static_cast<C>(x != 0);
      } else if constexpr (is_int_v<C>) {
        return static_cast<C>(x > 0 ? 1 : (x < 0 ? -1 : 0));
      } else {
        return x > C(0) ? C(1) : (x < C(0) ? C(-1) : (x == C(0) ? C(0) : x));
      }
    } else if constexpr (Op == uf::floor || Op == uf::ceil || Op == uf::trunc) {
      if constexpr (!is_float_v<C>) return x;
      else if constexpr (Op == uf::floor) return s::floor(x);
      else if constexpr (Op == uf::ceil) return s::ceil(x);
      else return s::trunc(x);
    } else {  // conj
      if constexpr (is_complex_v<C>) return C(x.real(), -x.imag());
      else return x;
    }
  }
};

enum class pred { isnan, isinf, isfinite, logical_not };
template <pred P>
struct f_pred {
  template <class L> using out = bool;
  template <class L> static constexpr bool ok() { return true; }
  template <class C> __device__ __forceinline__ bool operator()(C x) const {
    if constexpr (P == pred::logical_not) {
      return !nonzero_value(x);
    } else if constexpr (is_complex_v<C>) {
      const auto r = x.real(), i = x.imag();
      if constexpr (P == pred::isnan) return r != r || i != i;
      else if constexpr (P == pred::isinf) return cuda::std::isinf(r) || cuda::std::isinf(i);
      else return cuda::std::isfinite(r) && cuda::std::isfinite(i);
    } else if constexpr (is_float_v<C>) {
      if constexpr (P == pred::isnan) return x != x;
      else if constexpr (P == pred::isinf) return cuda::std::isinf(x);
      else return cuda::std::isfinite(x);
    } else {
      return P == pred::isfinite;
    }
  }
};

struct f_invert {
  template <class L> using out = L;
  template <class L> static constexpr bool ok() { return is_int_v<L> || is_bool_v<L>; }
  template <class C> __device__ __forceinline__ C operator()(C x) const {
    if constexpr (is_bool_v<C>) return !x;
    else return static_cast<C>(~x);
  }
};

/// NumPy's round: rint(x * f) / f (decimals >= 0) or rint(x / f) * f (decimals < 0), in the loop type;
/// integers with negative decimals compute in double and convert back.
struct f_around {
  int decimals;
  double factor;  // 10**|decimals|
  bool half;      // float16 loop: NumPy scales, rounds and unscales in float16 steps
  template <class L> using out = L;
  template <class L> static constexpr bool ok() { return true; }
  template <class R> __device__ __forceinline__ R round_real(R x) const {
    if constexpr (std::is_same_v<R, float>) {
      if (half) {
        // float16: the factor, the scaled value and the result each round to float16 (the factor
        // 1e5 is already inf); x * 1e3 overflowing to inf gives inf as in NumPy.
        const float f = __half2float(__float2half_rn(static_cast<float>(factor)));
        if (decimals >= 0) return cuda::std::rint(__half2float(__float2half_rn(x * f))) / f;
        return cuda::std::rint(__half2float(__float2half_rn(x / f))) * f;
      }
    }
    const R f = static_cast<R>(factor);
    if (decimals >= 0) return cuda::std::rint(x * f) / f;
    return cuda::std::rint(x / f) * f;
  }
  template <class C> __device__ __forceinline__ C operator()(C x) const {
    if constexpr (is_complex_v<C>) return C(round_real(x.real()), round_real(x.imag()));
    else if constexpr (is_float_v<C>) return round_real(x);
    else if constexpr (is_bool_v<C>) return x;
    else {
      if (decimals >= 0) return x;
      return static_cast<C>(cuda::std::rint(static_cast<double>(x) / factor) * factor);
    }
  }
};

template <class F>
ndarray unary(const char* fn, const char* ufunc, dtype l, const ndarray& a, ndarray* out, F f = F{}) {
  const arg args[1] = {A(a)};
  return run<1>(fn, ufunc, l, args, out, f);
}

}  // namespace
}  // namespace detail::ew

using namespace detail::ew;

ndarray abs(const ndarray& a, ndarray* out) { return unary<f_unary<uf::abs>>("cusci::abs", "absolute", a.dtype(), a, out); }
ndarray negative(const ndarray& a, ndarray* out) {
  if (a.dtype() == dtype::bool_)
    throw type_error("cusci::negative: The numpy boolean negative, the `-` operator, is not supported, use the "
                     "`~` operator or the logical_not function instead.");
  return unary<f_unary<uf::negative>>("cusci::negative", "negative", a.dtype(), a, out);
}
ndarray positive(const ndarray& a, ndarray* out) {
  return unary<f_unary<uf::positive>>("cusci::positive", "positive", a.dtype(), a, out);
}
ndarray square(const ndarray& a, ndarray* out) {
  const dtype l = a.dtype() == dtype::bool_ ? dtype::int8 : a.dtype();
  return unary<f_unary<uf::square>>("cusci::square", "square", l, a, out);
}
ndarray reciprocal(const ndarray& a, ndarray* out) {
  const dtype l = a.dtype() == dtype::bool_ ? dtype::int8 : a.dtype();
  return unary<f_unary<uf::reciprocal>>("cusci::reciprocal", "reciprocal", l, a, out);
}
ndarray sign(const ndarray& a, ndarray* out) { return unary<f_unary<uf::sign>>("cusci::sign", "sign", a.dtype(), a, out); }
ndarray floor(const ndarray& a, ndarray* out) { return unary<f_unary<uf::floor>>("cusci::floor", "floor", a.dtype(), a, out); }
ndarray ceil(const ndarray& a, ndarray* out) { return unary<f_unary<uf::ceil>>("cusci::ceil", "ceil", a.dtype(), a, out); }
ndarray trunc(const ndarray& a, ndarray* out) { return unary<f_unary<uf::trunc>>("cusci::trunc", "trunc", a.dtype(), a, out); }
ndarray conjugate(const ndarray& a, ndarray* out) {
  const dtype l = a.dtype() == dtype::bool_ ? dtype::int8 : a.dtype();
  return unary<f_unary<uf::conj>>("cusci::conjugate", "conjugate", l, a, out);
}
ndarray conj(const ndarray& a, ndarray* out) { return conjugate(a, out); }
ndarray isnan(const ndarray& a, ndarray* out) { return unary<f_pred<pred::isnan>>("cusci::isnan", "isnan", a.dtype(), a, out); }
ndarray isinf(const ndarray& a, ndarray* out) { return unary<f_pred<pred::isinf>>("cusci::isinf", "isinf", a.dtype(), a, out); }
ndarray isfinite(const ndarray& a, ndarray* out) {
  return unary<f_pred<pred::isfinite>>("cusci::isfinite", "isfinite", a.dtype(), a, out);
}
ndarray logical_not(const ndarray& a, ndarray* out) {
  return unary<f_pred<pred::logical_not>>("cusci::logical_not", "logical_not", a.dtype(), a, out);
}
ndarray invert(const ndarray& a, ndarray* out) { return unary<f_invert>("cusci::invert", "invert", a.dtype(), a, out); }
ndarray bitwise_not(const ndarray& a, ndarray* out) { return invert(a, out); }

ndarray real(const ndarray& a) {
  if (!is_complex(a.dtype())) return a;
  return ndarray(a.memory(), real_dtype(a.dtype()), a.shape(), a.strides(), a.offset(), a.device());
}

ndarray imag(const ndarray& a) {
  if (!is_complex(a.dtype())) return zeros(a.shape(), a.dtype());
  return ndarray(a.memory(), real_dtype(a.dtype()), a.shape(), a.strides(),
                 a.offset() + static_cast<std::int64_t>(itemsize(a.dtype()) / 2), a.device());
}

ndarray around(const ndarray& a, int decimals, ndarray* out) {
  double f = 1.0;
  for (int i = 0; i < (decimals < 0 ? -decimals : decimals); ++i) f *= 10.0;
  return unary<f_around>("cusci::around", "round", a.dtype(), a, out, f_around{decimals, f, a.dtype() == dtype::float16});
}
ndarray round(const ndarray& a, int decimals, ndarray* out) { return around(a, decimals, out); }

namespace {
/// A weak integer bound outside an integer dtype's range clips at the range's end (same values as
/// NumPy 2's exact comparison); other scalars are returned unchanged.
scalar clamp_bound(const scalar& s, dtype t) {
  if (!s.is_weak() || !is_integer(t) || !is_integer(s.dtype())) return s;
  const int bits = static_cast<int>(itemsize(t)) * 8;
  const bool neg = s.dtype() == dtype::int64 && s.value<std::int64_t>() < 0;
  if (is_unsigned_integer(t)) {
    if (neg) return scalar(0);
    const std::uint64_t mx = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    return s.value<std::uint64_t>() > mx ? scalar(mx) : s;
  }
  const std::int64_t mx = bits == 64 ? INT64_MAX : (std::int64_t{1} << (bits - 1)) - 1;
  const std::int64_t mn = -mx - 1;
  if (!neg && s.dtype() == dtype::uint64 && s.value<std::uint64_t>() > static_cast<std::uint64_t>(mx))
    return scalar(mx);
  const std::int64_t v = s.value<std::int64_t>();
  return v > mx ? scalar(mx) : v < mn ? scalar(mn) : s;
}
}  // namespace

ndarray clip(const ndarray& a, const scalar& a_min, const scalar& a_max, ndarray* out) {
  const scalar lo = clamp_bound(a_min, a.dtype()), hi = clamp_bound(a_max, a.dtype());
  ndarray t = maximum(a, lo);
  return minimum(t, hi, out);
}

ndarray clip(const ndarray& a, const ndarray& a_min, const ndarray& a_max, ndarray* out) {
  ndarray t = maximum(a, a_min);
  return minimum(t, a_max, out);
}

}  // namespace cusci
