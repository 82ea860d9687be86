// Public functions of the bsplines family (bsplines.hpp): SciPy's argument checks and dtype rules,
// then plans on the symmetric IIR engine (sym_iir.hpp), the evaluation kernels (spline_eval.hpp),
// scipy.ndimage's convolve1d (sepfir2d) and core's ufuncs (gauss_spline).

#include "cusci/signal/bsplines.hpp"

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "bsplines/spline_eval.hpp"
#include "bsplines/sym_iir.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/stream.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

namespace {

using cusci::detail::msg;
using cusci::detail::shape_str;
using detail::sym_filter;

constexpr double pi = 3.14159265358979323846;

std::string dstr(dtype t) { return std::string(dtype_name(t)); }

/// `a` as a C-contiguous array of dtype `dt` (no copy when it already is one).
ndarray c_work(const ndarray& a, dtype dt) {
  ndarray t = a.dtype() == dt ? a : a.astype(dt);
  if (!t.is_c_contiguous()) t = t.copy(order::C);
  return t;
}

/// SciPy's xp_promote(force_floating=True) followed by the C helpers' type: bool and integers ->
/// float64, float16 -> float32 (the C code's minimum type), the rest kept.
dtype iir_dtype(dtype t) {
  if (t == dtype::float16) return dtype::float32;
  if (is_bool(t) || is_integer(t)) return dtype::float64;
  return t;
}

bool single_of(dtype t) { return t == dtype::float32 || t == dtype::complex64; }

/// Runs a real plan along `axis` of the C-contiguous `in` into `out` (same shape, dtype; may be the
/// same array). A complex array is filtered through its real view (the coefficients are real).
template <class R>
void run_real(const sym_filter<R>& f, const ndarray& in, const ndarray& out, int axis) {
  const auto v = cusci::detail::line_view_of(in.shape(), axis);
  const std::int64_t inner = v.inner * (is_complex(in.dtype()) ? 2 : 1);
  detail::run_sym_filter<R>(f, static_cast<const R*>(in.data()), static_cast<R*>(out.data()), v.outer, v.length, inner,
                            get_current_stream());
}

template <class C>
void run_complex(const sym_filter<C>& f, const ndarray& in, const ndarray& out, int axis) {
  const auto v = cusci::detail::line_view_of(in.shape(), axis);
  detail::run_sym_filter<C>(f, static_cast<const C*>(in.data()), static_cast<C*>(out.data()), v.outer, v.length,
                            v.inner, get_current_stream());
}

/// One real plan in the precision of a dtype: float for float32 / complex64, double otherwise.
struct real_plan {
  bool single = false;
  sym_filter<float> f;
  sym_filter<double> d;
  void run(const ndarray& in, const ndarray& out, int axis) const {
    if (single) run_real<float>(f, in, out, axis);
    else run_real<double>(d, in, out, axis);
  }
};

real_plan plan_order1(dtype dt, double c0, double z1, double precision, std::int64_t N, std::string_view fn) {
  real_plan p;
  p.single = single_of(dt);
  if (p.single) p.f = detail::plan_symiirorder1<float>(static_cast<float>(c0), static_cast<float>(z1), precision, N, fn);
  else p.d = detail::plan_symiirorder1<double>(c0, z1, precision, N, fn);
  return p;
}

real_plan plan_order2(dtype dt, double r, double omega, double precision, std::int64_t N, std::string_view fn) {
  real_plan p;
  p.single = single_of(dt);
  if (p.single) p.f = detail::plan_symiirorder2<float>(r, omega, precision, N, fn);
  else p.d = detail::plan_symiirorder2<double>(r, omega, precision, N, fn);
  return p;
}

// cspline2d / qspline2d: all checks and both plans first; run unless dry.
ndarray spline2d_impl(const ndarray& input, bool quadratic, double lamb, double precision, std::string_view fn,
                      bool dry) {
  const dtype orig = input.dtype();
  if (precision < 0.0 || precision >= 1.0) precision = single_of(orig) ? 1e-3 : 1e-6;
  if (quadratic)
    CUSCI_EXPECTS(!(lamb > 0), value_error, msg(fn, "lambda must be negative or zero"));
  const int nd = input.ndim();
  cusci::detail::normalize_axis(-1, nd, fn);  // SciPy's AxisError for a 0-d input
  const dtype dt = iir_dtype(orig);
  const shape_t& shp = input.shape();
  const std::int64_t N1 = shp.back(), N0 = shp.front();
  const bool smooth = !quadratic && lamb > 1.0 / 144.0;
  real_plan p1, p0;
  if (smooth) {
    double r = 0, omega = 0;
    detail::root_from_lambda(lamb, r, omega);
    CUSCI_EXPECTS(r < 1.0, value_error, msg(fn, "r must be less than 1.0"));
    CUSCI_EXPECTS(!is_complex(dt), type_error,
                  msg(fn, "Cannot cast array data from dtype('" + dstr(dt) + "') to dtype('float64') according to the rule 'safe'"));
    p1 = plan_order2(dt, r, omega, precision, N1, fn);
    CUSCI_EXPECTS(nd <= 1 || input.size() > 0, value_error,
                  msg(fn, "cannot filter an empty array of shape " + shape_str(shp)));
    p0 = plan_order2(dt, r, omega, precision, N0, fn);
  } else {
    const double r = quadratic ? -3 + 2 * std::sqrt(2.0) : -2 + std::sqrt(3.0);
    const double c0 = -r * (quadratic ? 8.0 : 6.0);
    p1 = plan_order1(dt, c0, r, precision, N1, fn);
    CUSCI_EXPECTS(nd <= 1 || input.size() > 0, value_error,
                  msg(fn, "cannot filter an empty array of shape " + shape_str(shp)));
    p0 = plan_order1(dt, c0, r, precision, N0, fn);
  }
  if (dry) return {};
  const ndarray x = c_work(input, dt);
  ndarray out = empty(shp, dt);
  p1.run(x, out, nd - 1);
  p0.run(out, out, 0);
  return out;
}

ndarray spline1d_impl(const ndarray& signal, bool quadratic, double lamb, std::string_view fn) {
  if (quadratic)
    CUSCI_EXPECTS(lamb == 0.0, value_error, msg(fn, "Smoothing quadratic splines not supported yet."));
  CUSCI_EXPECTS(signal.ndim() >= 1, type_error, msg(fn, "len() of unsized object (signal must be 1-D, got 0-d)"));
  CUSCI_EXPECTS(signal.ndim() == 1, value_error,
                msg(fn, "signal must be 1-D, got shape " + shape_str(signal.shape())));
  const std::int64_t N = signal.shape(0);
  const dtype dt = is_complex(signal.dtype()) ? dtype::complex128 : dtype::float64;
  sym_filter<double> plan;
  if (lamb != 0.0) {
    CUSCI_EXPECTS(!std::isnan(lamb), value_error, msg(fn, "math domain error"));
    plan = detail::plan_cubic_smooth(lamb, N < 3 ? 3 : N, fn);  // domain errors first, as SciPy
    CUSCI_EXPECTS(N >= 2, index_error,
                  msg(fn, "index " + std::to_string(N) + " is out of bounds for axis 0 with size " + std::to_string(N)));
    CUSCI_EXPECTS(N >= 3, value_error, msg(fn, "cannot reshape array of size 0 into shape (0)"));
  } else {
    CUSCI_EXPECTS(N >= 1, index_error, msg(fn, "index -1 is out of bounds for axis 0 with size 0"));
    plan = detail::plan_spline_coeff(quadratic, N);
  }
  const ndarray x = c_work(signal, dt);
  ndarray out = empty({N}, dt);
  run_real<double>(plan, x, out, 0);
  return out;
}

/// sepfir2d on an already-typed C-contiguous 2-D image with host taps.
ndarray sepfir_run(const ndarray& x, const host_array& hr, const host_array& hc) {
  if (x.size() == 0) return empty(x.shape(), x.dtype());
  ndimage::correlate1d_options o{};
  o.mode = ndimage::mode::reflect;
  auto pass = [&](const ndarray& in, const host_array& h, int axis) {
    if (is_complex(h.dtype())) {
      const host_array hh = h.astype(dtype::complex128);
      const auto* p = hh.data_as<std::complex<double>>();
      return ndimage::convolve1d(in, std::vector<std::complex<double>>(p, p + hh.size()), axis, o);
    }
    const host_array hh = h.astype(dtype::float64);
    const auto* p = hh.data_as<double>();
    return ndimage::convolve1d(in, std::vector<double>(p, p + hh.size()), axis, o);
  };
  ndarray t = pass(x, hr, 1);
  ndarray out = pass(t, hc, 0);
  if (out.dtype() != x.dtype()) out = out.astype(x.dtype());
  if (!out.is_c_contiguous()) out = out.copy(order::C);
  return out;
}

}  // namespace

ndarray cspline1d(const ndarray& signal, double lamb) {
  CUSCI_NVTX_SCOPE("cusci::signal::cspline1d");
  return spline1d_impl(signal, false, lamb, "cusci::signal::cspline1d");
}

ndarray qspline1d(const ndarray& signal, double lamb) {
  CUSCI_NVTX_SCOPE("cusci::signal::qspline1d");
  return spline1d_impl(signal, true, lamb, "cusci::signal::qspline1d");
}

ndarray cspline2d(const ndarray& input, double lambda_, double precision) {
  CUSCI_NVTX_SCOPE("cusci::signal::cspline2d");
  return spline2d_impl(input, false, lambda_, precision, "cusci::signal::cspline2d", false);
}

ndarray qspline2d(const ndarray& input, double lambda_, double precision) {
  CUSCI_NVTX_SCOPE("cusci::signal::qspline2d");
  return spline2d_impl(input, true, lambda_, precision, "cusci::signal::qspline2d", false);
}

ndarray symiirorder1(const ndarray& signal, std::complex<double> c0, std::complex<double> z1, double precision) {
  CUSCI_NVTX_SCOPE("cusci::signal::symiirorder1");
  constexpr std::string_view fn = "cusci::signal::symiirorder1";
  const dtype dt = iir_dtype(signal.dtype());
  CUSCI_EXPECTS(std::abs(z1) < 1.0, value_error, msg(fn, "|z1| must be less than 1.0"));
  CUSCI_EXPECTS(signal.ndim() <= 2, value_error, msg(fn, "Input must be 1D or 2D"));
  CUSCI_EXPECTS(signal.ndim() >= 1, value_error, msg(fn, "object of too small depth for desired array (input is 0-d)"));
  const std::int64_t N = signal.shape().back();
  const bool real_coefs = c0.imag() == 0.0 && z1.imag() == 0.0;
  if (!is_complex(dt)) {
    CUSCI_EXPECTS(z1.imag() == 0.0, not_implemented_error,
                  msg(fn, "a complex z1 with real input is not supported (pass complex input)"));
  }
  const ndarray x_view = signal;
  const int axis = signal.ndim() - 1;
  if (real_coefs || !is_complex(dt)) {
    const real_plan p = plan_order1(dt, c0.real(), z1.real(), precision, N, fn);
    CUSCI_EXPECTS(c0.imag() == 0.0, type_error, msg(fn, "float() argument must be a string or a real number, not 'complex'"));
    const ndarray x = c_work(x_view, dt);
    ndarray out = empty(signal.shape(), dt);
    p.run(x, out, axis);
    return out;
  }
  const ndarray x = c_work(x_view, dt);
  ndarray out = empty(signal.shape(), dt);
  if (dt == dtype::complex64) {
    const auto f = detail::plan_symiirorder1<std::complex<float>>(std::complex<float>(c0), std::complex<float>(z1),
                                                                   precision, N, fn);
    run_complex(f, x, out, axis);
  } else {
    const auto f = detail::plan_symiirorder1<std::complex<double>>(c0, z1, precision, N, fn);
    run_complex(f, x, out, axis);
  }
  return out;
}

ndarray symiirorder2(const ndarray& input, double r, double omega, double precision) {
  CUSCI_NVTX_SCOPE("cusci::signal::symiirorder2");
  constexpr std::string_view fn = "cusci::signal::symiirorder2";
  const dtype dt = iir_dtype(input.dtype());
  CUSCI_EXPECTS(r < 1.0, value_error, msg(fn, "r must be less than 1.0"));
  CUSCI_EXPECTS(input.ndim() <= 2, value_error, msg(fn, "Input must be 1D or 2D"));
  CUSCI_EXPECTS(input.ndim() >= 1, value_error, msg(fn, "object of too small depth for desired array (input is 0-d)"));
  CUSCI_EXPECTS(!is_complex(dt), type_error,
                msg(fn, "Cannot cast array data from dtype('" + dstr(dt) + "') to dtype('float64') according to the rule 'safe'"));
  const std::int64_t N = input.shape().back();
  const real_plan p = plan_order2(dt, r, omega, precision, N, fn);
  const ndarray x = c_work(input, dt);
  ndarray out = empty(input.shape(), dt);
  p.run(x, out, input.ndim() - 1);
  return out;
}

ndarray sepfir2d(const ndarray& input, const array_like& hrow, const array_like& hcol) {
  CUSCI_NVTX_SCOPE("cusci::signal::sepfir2d");
  constexpr std::string_view fn = "cusci::signal::sepfir2d";
  CUSCI_EXPECTS(input.ndim() == 2, value_error,
                msg(fn, "input must be a rank-2 array, got " + std::to_string(input.ndim()) + "-d"));
  const dtype dt = promote_types(input.dtype(), dtype::float32);
  auto check_taps = [&](const array_like& h, const char* name) {
    CUSCI_EXPECTS(h.ndim() == 1, value_error,
                  msg(fn, std::string(name) + " must be a rank-1 array, got shape " + shape_str(h.shape())));
    CUSCI_EXPECTS(promote_types(h.dtype(), dt) == dt, type_error,
                  msg(fn, "Cannot cast array data from dtype('" + dstr(h.dtype()) + "') to dtype('" + dstr(dt) +
                              "') according to the rule 'safe'"));
  };
  check_taps(hrow, "hrow");
  check_taps(hcol, "hcol");
  CUSCI_EXPECTS(hrow.shape()[0] % 2 == 1 && hcol.shape()[0] % 2 == 1, value_error,
                msg(fn, "hrow and hcol must be odd length"));
  const host_array hr = hrow.to_host(), hc = hcol.to_host();
  return sepfir_run(c_work(input, dt), hr, hc);
}

ndarray spline_filter(const ndarray& Iin, double lmbda) {
  CUSCI_NVTX_SCOPE("cusci::signal::spline_filter");
  constexpr std::string_view fn = "cusci::signal::spline_filter";
  const dtype intype = Iin.dtype();
  CUSCI_EXPECTS(intype == dtype::float32 || intype == dtype::float64 || is_complex(intype), type_error,
                msg(fn, "Invalid data type for Iin: Iin.dtype = dtype('" + dstr(intype) + "')"));
  const ndarray work = intype == dtype::complex128 ? Iin.astype(dtype::complex64) : Iin;
  spline2d_impl(work, false, lmbda, -1.0, fn, true);  // cspline2d's checks come first, as SciPy
  CUSCI_EXPECTS(Iin.ndim() == 2, value_error,
                msg(fn, "Iin must be a rank-2 array, got " + std::to_string(Iin.ndim()) + "-d"));
  const ndarray ck = spline2d_impl(work, false, lmbda, -1.0, fn, false);
  // SciPy's taps: float32 [1, 4, 1] / 6.
  const float t1 = 1.0f / 6.0f, t4 = 4.0f / 6.0f;
  const host_array h = host_array::from(std::vector<float>{t1, t4, t1});
  ndarray out = sepfir_run(ck, h, h);
  return out.dtype() == intype ? out : out.astype(intype);
}

ndarray gauss_spline(const ndarray& x, double n) {
  CUSCI_NVTX_SCOPE("cusci::signal::gauss_spline");
  constexpr std::string_view fn = "cusci::signal::gauss_spline";
  const double signsq = (n + 1) / 12.0;
  CUSCI_EXPECTS(!(signsq < 0) && !std::isnan(signsq), value_error, msg(fn, "math domain error (n must be > -1)"));
  CUSCI_EXPECTS(signsq != 0.0, value_error, msg(fn, "float division by zero (n must be > -1)"));
  const ndarray xf = (is_bool(x.dtype()) || is_integer(x.dtype())) ? x.astype(dtype::float64) : x;
  // SciPy: 1 / sqrt(2 pi s) * exp(-x ** 2 / 2 / s), in x's dtype (weak Python scalars).
  ndarray t = negative(square(xf));
  t = divide(t, 2.0);
  t = divide(t, signsq);
  t = exp(t);
  return multiply(1.0 / std::sqrt(2 * pi * signsq), t);
}

ndarray cspline1d_eval(const ndarray& cj, const ndarray& newx, double dx, double x0) {
  CUSCI_NVTX_SCOPE("cusci::signal::cspline1d_eval");
  constexpr std::string_view fn = "cusci::signal::cspline1d_eval";
  CUSCI_EXPECTS(!is_complex(newx.dtype()), type_error, msg(fn, "newx must be real, got " + dstr(newx.dtype())));
  CUSCI_EXPECTS(cj.size() != 0, value_error, msg(fn, "Spline coefficients 'cj' must not be empty."));
  CUSCI_EXPECTS(cj.ndim() >= 1, type_error, msg(fn, "len() of unsized object (cj must be 1-D, got 0-d)"));
  CUSCI_EXPECTS(cj.ndim() == 1, value_error, msg(fn, "cj must be 1-D, got shape " + shape_str(cj.shape())));
  const dtype rt = cj.dtype();
  CUSCI_EXPECTS(is_inexact(rt), type_error,
                msg(fn, "Cannot cast ufunc 'add' output from dtype('float64') to dtype('" + dstr(rt) +
                            "') with casting rule 'same_kind'"));
  const bool cplx = is_complex(rt);
  const dtype wt = cplx ? dtype::complex128 : dtype::float64;
  const ndarray c = c_work(cj, wt);
  const ndarray xp = c_work(newx, newx.dtype() == dtype::float32 ? dtype::float32 : dtype::float64);
  ndarray out = empty(newx.shape(), wt);
  detail::spline_eval_run(true, c, xp, out, dx, x0);
  return rt == wt ? out : out.astype(rt);
}

ndarray qspline1d_eval(const ndarray& cj, const ndarray& newx, double dx, double x0) {
  CUSCI_NVTX_SCOPE("cusci::signal::qspline1d_eval");
  constexpr std::string_view fn = "cusci::signal::qspline1d_eval";
  CUSCI_EXPECTS(!is_complex(newx.dtype()), type_error, msg(fn, "newx must be real, got " + dstr(newx.dtype())));
  // SciPy's result dtype: that of (newx - x0) / dx.
  const dtype nt = newx.dtype();
  const dtype rt = (nt == dtype::float32 || nt == dtype::float16) ? nt : dtype::float64;
  if (newx.size() == 0) return empty(newx.shape(), rt);
  CUSCI_EXPECTS(cj.size() != 0, value_error, msg(fn, "Spline coefficients 'cj' must not be empty."));
  CUSCI_EXPECTS(cj.ndim() >= 1, type_error, msg(fn, "len() of unsized object (cj must be 1-D, got 0-d)"));
  CUSCI_EXPECTS(cj.ndim() == 1, value_error, msg(fn, "cj must be 1-D, got shape " + shape_str(cj.shape())));
  CUSCI_EXPECTS(!is_complex(cj.dtype()), type_error,
                msg(fn, "Cannot cast ufunc 'add' output from dtype('complex128') to dtype('" + dstr(rt) +
                            "') with casting rule 'same_kind'"));
  const ndarray c = c_work(cj, dtype::float64);
  const ndarray xp = c_work(newx, nt == dtype::float32 ? dtype::float32 : dtype::float64);
  ndarray out = empty(newx.shape(), dtype::float64);
  detail::spline_eval_run(false, c, xp, out, dx, x0);
  return rt == dtype::float64 ? out : out.astype(rt);
}

}  // namespace cusci::signal
