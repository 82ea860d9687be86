/// @file elementwise_math.cu
/// Float-valued unary ufuncs (sqrt ... arctanh, rint, angle) on the generic engine.
///
/// Loop dtype: NumPy 2.5's (bool/int8/uint8 -> float16, int16/uint16 -> float32, wider integers ->
/// float64, inexact kept); float16 loops compute in float32 and round once. Real functions are
/// libcu++'s `cuda::std` overloads (CUDA's libdevice: sqrt correctly rounded, the others within 1-2
/// ulp); complex ones are `cuda::std` complex functions (C99 Annex G special values) or NumPy's own
/// formulas where libcu++ has none (exp2, log2, expm1, log1p).

#include <string>

#include "elementwise/elementwise_engine.cuh"

namespace cusci {
namespace detail::ew {
namespace {

enum class mf {
  sqrt, cbrt, exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan, arcsin, arccos, arctan, sinh, cosh, tanh,
  arcsinh, arccosh, arctanh, rint
};

template <mf Op>
struct f_math {
  template <class L> using out = L;
  template <class L> static constexpr bool ok() {
    if constexpr (Op == mf::cbrt) return is_float_v<L>;
    else return is_float_v<L> || is_complex_v<L>;
  }
  template <class C> __device__ __forceinline__ C operator()(C x) const {
    namespace s = cuda::std;
    if constexpr (is_complex_v<C>) {
      using R = typename C::value_type;
      constexpr R ln2 = R(0.693147180559945309417232121458176568);
      constexpr R log2e = R(1.442695040888963407359924681001892137);
      constexpr R log10e = R(0.434294481903251827651128918916605082);
      if constexpr (Op == mf::sqrt) return s::sqrt(x);
      else if constexpr (Op == mf::exp) return s::exp(x);
      else if constexpr (Op == mf::exp2) return s::exp(C(x.real() * ln2, x.imag() * ln2));
      else if constexpr (Op == mf::expm1) {
        // NumPy's nc_expm1: expm1(a) cos(b) - 2 sin^2(b/2) + i exp(a) sin(b).
        const R a = x.real(), b = x.imag(), h = s::sin(b / R(2));
        return C(s::expm1(a) * s::cos(b) - R(2) * h * h, s::exp(a) * s::sin(b));
      } else if constexpr (Op == mf::log) return s::log(x);
      else if constexpr (Op == mf::log2) {
        // NumPy: log(z) * log2(e) (a product, not a quotient by ln 2: they differ in the last bit).
        const C l = s::log(x);
        return C(l.real() * log2e, l.imag() * log2e);
      } else if constexpr (Op == mf::log10) {
        const C l = s::log(x);
        return C(l.real() * log10e, l.imag() * log10e);
      }
      else if constexpr (Op == mf::log1p) {
        // NumPy's nc_log1p: log|1 + z| + i arg(1 + z).
        const R re = x.real() + R(1), im = x.imag();
        return C(s::log(s::hypot(re, im)), s::atan2(im, re));
      } else if constexpr (Op == mf::sin) return s::sin(x);
      else if constexpr (Op == mf::cos) return s::cos(x);
      else if constexpr (Op == mf::tan) return s::tan(x);
      else if constexpr (Op == mf::arcsin) return s::asin(x);
      else if constexpr (Op == mf::arccos) return s::acos(x);
      else if constexpr (Op == mf::arctan) return s::atan(x);
      else if constexpr (Op == mf::sinh) return s::sinh(x);
      else if constexpr (Op == mf::cosh) return s::cosh(x);
      else if constexpr (Op == mf::tanh) return s::tanh(x);
      else if constexpr (Op == mf::arcsinh) return s::asinh(x);
      else if constexpr (Op == mf::arccosh) return s::acosh(x);
      else if constexpr (Op == mf::arctanh) return s::atanh(x);
      else return C(s::rint(x.real()), s::rint(x.imag()));
    } else {
      if constexpr (Op == mf::sqrt) return s::sqrt(x);
      else if constexpr (Op == mf::cbrt) return s::cbrt(x);
      else if constexpr (Op == mf::exp) return s::exp(x);
      else if constexpr (Op == mf::exp2) return s::exp2(x);
      else if constexpr (Op == mf::expm1) return s::expm1(x);
      else if constexpr (Op == mf::log) return s::log(x);
      else if constexpr (Op == mf::log2) return s::log2(x);
      else if constexpr (Op == mf::log10) return s::log10(x);
      else if constexpr (Op == mf::log1p) return s::log1p(x);
      else if constexpr (Op == mf::sin) return s::sin(x);
      else if constexpr (Op == mf::cos) return s::cos(x);
      else if constexpr (Op == mf::tan) return s::tan(x);
      else if constexpr (Op == mf::arcsin) return s::asin(x);
      else if constexpr (Op == mf::arccos) return s::acos(x);
      else if constexpr (Op == mf::arctan) return s::atan(x);
      else if constexpr (Op == mf::sinh) return s::sinh(x);
      else if constexpr (Op == mf::cosh) return s::cosh(x);
      else if constexpr (Op == mf::tanh) return s::tanh(x);
      else if constexpr (Op == mf::arcsinh) return s::asinh(x);
      else if constexpr (Op == mf::arccosh) return s::acosh(x);
      else if constexpr (Op == mf::arctanh) return s::atanh(x);
      else return s::rint(x);
    }
  }
};

/// angle: arctan2(imag, real) (times 180/pi with deg); output the real type of the loop.
struct f_angle {
  bool deg;
  template <class L> using out = real_of_t<L>;
  template <class L> static constexpr bool ok() { return is_float_v<L> || is_complex_v<L>; }
  template <class C> __device__ __forceinline__ real_of_t<C> operator()(C x) const {
    using R = real_of_t<C>;
    R r;
    if constexpr (is_complex_v<C>) r = cuda::std::atan2(x.imag(), x.real());
    else r = cuda::std::atan2(R(0), x);
    return deg ? r * R(57.295779513082320876798154814105170332) : r;
  }
};

template <mf Op>
ndarray math1(const char* fn, const char* ufunc, const ndarray& a, ndarray* out) {
  const arg args[1] = {A(a)};
  return run<1>(fn, ufunc, float_loop(a.dtype()), args, out, f_math<Op>{});
}

}  // namespace
}  // namespace detail::ew

#define CUSCI_DEFINE_MATH_(name, op) \
  ndarray name(const ndarray& a, ndarray* out) { return detail::ew::math1<op>("cusci::" #name, #name, a, out); }
using detail::ew::mf;
CUSCI_DEFINE_MATH_(sqrt, mf::sqrt)
CUSCI_DEFINE_MATH_(cbrt, mf::cbrt)
CUSCI_DEFINE_MATH_(exp, mf::exp)
CUSCI_DEFINE_MATH_(exp2, mf::exp2)
CUSCI_DEFINE_MATH_(expm1, mf::expm1)
CUSCI_DEFINE_MATH_(log, mf::log)
CUSCI_DEFINE_MATH_(log2, mf::log2)
CUSCI_DEFINE_MATH_(log10, mf::log10)
CUSCI_DEFINE_MATH_(log1p, mf::log1p)
CUSCI_DEFINE_MATH_(sin, mf::sin)
CUSCI_DEFINE_MATH_(cos, mf::cos)
CUSCI_DEFINE_MATH_(tan, mf::tan)
CUSCI_DEFINE_MATH_(arcsin, mf::arcsin)
CUSCI_DEFINE_MATH_(arccos, mf::arccos)
CUSCI_DEFINE_MATH_(arctan, mf::arctan)
CUSCI_DEFINE_MATH_(sinh, mf::sinh)
CUSCI_DEFINE_MATH_(cosh, mf::cosh)
CUSCI_DEFINE_MATH_(tanh, mf::tanh)
CUSCI_DEFINE_MATH_(arcsinh, mf::arcsinh)
CUSCI_DEFINE_MATH_(arccosh, mf::arccosh)
CUSCI_DEFINE_MATH_(arctanh, mf::arctanh)
CUSCI_DEFINE_MATH_(rint, mf::rint)
#undef CUSCI_DEFINE_MATH_

ndarray angle(const ndarray& a, bool deg, ndarray* out) {
  using namespace detail::ew;
  const arg args[1] = {A(a)};
  // NumPy computes arctan2(0, z) for real z: the weak Python int 0 makes a bool input int64, so
  // bool gives float64 (int8/uint8 stay float16).
  const dtype l = a.dtype() == dtype::bool_ ? dtype::float64 : float_loop(a.dtype());
  return run<1>("cusci::angle", "angle", l, args, out, f_angle{deg});
}

}  // namespace cusci
