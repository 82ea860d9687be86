// The numeric family (cusci/numeric.hpp): composition of cusci's elementwise ufuncs, reductions,
// sorting, indexing and manipulation functions, interp's and isclose's kernels (numeric.cu), cuBLAS's
// nrm2 and cuSOLVER's gesvd for linalg::norm.

#include "cusci/detail/shape.hpp"
#include "cusci/numeric.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sorting.hpp"
#include "numeric/numeric_internal.hpp"

namespace cusci {
namespace {

using cusci::detail::shape_str;  // NumPy's tuple text of a shape

/// `axis` in [-nd, nd) made non-negative, else cusci::index_error naming the function.
int normalize_axis(int axis, int nd, const char* fn, const char* what = nullptr) {
  if (axis < -nd || axis >= nd)
    throw index_error(std::string(fn) + ": " + (what ? std::string(what) + ": " : std::string()) + "axis " +
                      std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(nd));
  return axis < 0 ? axis + nd : axis;
}

/// a[..., start:stop, ...] along `axis` (a view).
ndarray slice_axis(const ndarray& a, int axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop) {
  std::vector<index_spec> idx(static_cast<std::size_t>(a.ndim()), index_spec{slice{}});
  idx[static_cast<std::size_t>(axis)] = slice{start, stop, std::nullopt};
  return a[idx];
}

/// A 1-D array d reshaped to broadcast along `axis` of an nd-dimensional array.
ndarray along(const ndarray& d, int axis, int nd) {
  shape_t s(static_cast<std::size_t>(nd), 1);
  s[static_cast<std::size_t>(axis)] = d.size();
  return d.reshape(s);
}

/// max over one axis with NumPy's `initial=0` (an empty reduction gives zeros).
ndarray max0(const ndarray& a, int axis, bool keepdims = false) {
  if (a.shape(axis) == 0) {
    shape_t s = a.shape();
    if (keepdims) s[static_cast<std::size_t>(axis)] = 1;
    else s.erase(s.begin() + axis);
    return zeros(s, a.dtype());
  }
  return max(a, axis, {.keepdims = keepdims});
}

}  // namespace

// --- interp -----------------------------------------------------------------------------------------

ndarray interp(const ndarray& x, const ndarray& xp, const ndarray& fp, const interp_options& opts) {
  const char* fn = "cusci::interp";
  if (is_complex(x.dtype()) || is_complex(xp.dtype()))
    throw type_error(std::string(fn) + ": x and xp must be real (cannot cast " +
                     std::string(dtype_name(is_complex(x.dtype()) ? x.dtype() : xp.dtype())) + " to float64)");
  if (xp.ndim() != 1 || fp.ndim() != 1)
    throw value_error(std::string(fn) + ": xp and fp must be 1-D, got shapes " + shape_str(xp.shape()) + " and " +
                      shape_str(fp.shape()));
  if (xp.size() != fp.size()) throw value_error(std::string(fn) + ": fp and xp are not of the same length.");
  if (xp.size() == 0) throw value_error(std::string(fn) + ": array of sample points is empty");
  if (opts.period && *opts.period == 0.0) throw value_error(std::string(fn) + ": period must be a non-zero value");
  const bool cplx = is_complex(fp.dtype());
  const dtype rdt = cplx ? dtype::complex128 : dtype::float64;
  ndarray xd = x.astype(dtype::float64, false);
  ndarray xpd = xp.astype(dtype::float64, false);
  ndarray fpd = fp.astype(rdt, false);
  std::optional<std::complex<double>> left = opts.left, right = opts.right;
  if (opts.period) {
    const double p = std::fabs(*opts.period);
    left.reset();
    right.reset();
    xd = remainder(xd, p);
    xpd = remainder(xpd, p);
    const ndarray order_idx = argsort(xpd, 0);
    xpd = take(xpd, order_idx);
    fpd = take(fpd, order_idx);
    const ndarray first = slice_axis(xpd, 0, 0, 1), last = slice_axis(xpd, 0, -1, std::nullopt);
    xpd = concatenate({subtract(last, p), xpd, add(first, p)});
    fpd = concatenate({slice_axis(fpd, 0, -1, std::nullopt), fpd, slice_axis(fpd, 0, 0, 1)});
  }
  xd = ascontiguousarray(xd);
  xpd = ascontiguousarray(xpd);
  fpd = ascontiguousarray(fpd);
  ndarray res = empty(x.shape(), rdt);
  detail::numeric::interp_launch(xd.data_as<double>(), xd.size(), xpd.data_as<double>(),
                                 static_cast<const double*>(fpd.data()), xpd.size(), cplx, left, right,
                                 static_cast<double*>(res.data()));
  return res;
}

// --- gradient ---------------------------------------------------------------------------------------

namespace {

/// A scalar (host, weak) or an array operand of gradient's formulas.
struct val {
  std::optional<ndarray> a{};
  double s = 0.0;
  val(double v) : s(v) {}
  val(ndarray v) : a(std::move(v)) {}
};

val binop(const val& x, const val& y, char op, ndarray* out = nullptr) {
  if (!x.a && !y.a) {
    switch (op) {
      case '+': return x.s + y.s;
      case '-': return x.s - y.s;
      case '*': return x.s * y.s;
      default: return x.s / y.s;
    }
  }
  auto run = [&](auto&& l, auto&& r) -> ndarray {
    switch (op) {
      case '+': return add(l, r, out);
      case '-': return subtract(l, r, out);
      case '*': return multiply(l, r, out);
      default: return divide(l, r, out);
    }
  };
  if (x.a && y.a) return run(*x.a, *y.a);
  if (x.a) return run(*x.a, scalar(y.s));
  return run(scalar(x.s), *y.a);
}
val operator+(const val& x, const val& y) { return binop(x, y, '+'); }
val operator-(const val& x, const val& y) { return binop(x, y, '-'); }
val operator*(const val& x, const val& y) { return binop(x, y, '*'); }
val operator/(const val& x, const val& y) { return binop(x, y, '/'); }
val operator-(const val& x) { return binop(val(0.0), x, '-'); }

}  // namespace

std::vector<ndarray> gradient(const ndarray& f_in, const std::vector<gradient_spacing>& spacing,
                              const gradient_options& opts) {
  const char* fn = "cusci::gradient";
  const int nd = f_in.ndim();
  if (nd == 0) throw value_error(std::string(fn) + ": f must have at least one dimension");
  std::vector<int> axes;
  if (!opts.axis.axes) {
    for (int i = 0; i < nd; ++i) axes.push_back(i);
  } else {
    for (int a : *opts.axis.axes) {
      const int ax = normalize_axis(a, nd, fn);
      if (std::find(axes.begin(), axes.end(), ax) != axes.end())
        throw value_error(std::string(fn) + ": repeated axis");
      axes.push_back(ax);
    }
  }
  const std::size_t len_axes = axes.size();
  // spacing per axis: a scalar, a 0-d array (uniform) or the 1-D differences of the coordinates
  std::vector<val> dx;
  std::vector<bool> uniform;
  auto is_scalar_like = [](const gradient_spacing& s) {
    return std::holds_alternative<double>(s) || std::get<ndarray>(s).ndim() == 0;
  };
  auto scalar_val = [](const gradient_spacing& s) -> val {
    if (std::holds_alternative<double>(s)) return val(std::get<double>(s));
    return val(std::get<ndarray>(s));
  };
  if (spacing.empty()) {
    dx.assign(len_axes, val(1.0));
    uniform.assign(len_axes, true);
  } else if (spacing.size() == 1 && is_scalar_like(spacing[0])) {
    dx.assign(len_axes, scalar_val(spacing[0]));
    uniform.assign(len_axes, true);
  } else if (spacing.size() == len_axes) {
    for (std::size_t i = 0; i < len_axes; ++i) {
      if (is_scalar_like(spacing[i])) {
        dx.push_back(scalar_val(spacing[i]));
        uniform.push_back(true);
        continue;
      }
      ndarray d = std::get<ndarray>(spacing[i]);
      if (d.ndim() != 1) throw value_error(std::string(fn) + ": distances must be either scalars or 1d");
      if (d.size() != f_in.shape(axes[i]))
        throw value_error(std::string(fn) +
                          ": when 1d, distances must match the length of the corresponding dimension");
      if (is_bool(d.dtype()))
        throw type_error(std::string(fn) + ": boolean coordinates are not supported (NumPy's boolean negative TypeError)");
      dx.push_back(val(d));  // the coordinates; differenced after every check below
      uniform.push_back(false);
    }
  } else {
    throw type_error(std::string(fn) + ": invalid number of arguments");
  }
  if (opts.edge_order > 2) throw value_error(std::string(fn) + ": 'edge_order' greater than 2 not supported");
  if (opts.edge_order < 1) throw value_error(std::string(fn) + ": 'edge_order' must be 1 or 2");
  if (is_bool(f_in.dtype()))
    throw type_error(std::string(fn) + ": numpy boolean subtract, the `-` operator, is not supported");
  for (int ax : axes)
    if (f_in.shape(ax) < opts.edge_order + 1)
      throw value_error(std::string(fn) +
                        ": Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                        "elements are required.");
  for (std::size_t i = 0; i < len_axes; ++i) {
    if (uniform[i]) continue;
    ndarray d = *dx[i].a;
    if (is_integer(d.dtype())) d = d.astype(dtype::float64);
    dx[i] = val(diff(d));
  }
  const ndarray f = is_inexact(f_in.dtype()) ? f_in : f_in.astype(dtype::float64);
  const dtype otype = f.dtype();

  std::vector<ndarray> outs;
  for (std::size_t i = 0; i < len_axes; ++i) {
    const int ax = axes[i];
    const std::int64_t n = f.shape(ax);
    ndarray out = empty(f.shape(), otype);
    auto fs = [&](std::optional<std::int64_t> a, std::optional<std::int64_t> b) { return slice_axis(f, ax, a, b); };
    auto os = [&](std::optional<std::int64_t> a, std::optional<std::int64_t> b) { return slice_axis(out, ax, a, b); };
    // piece j of the 1-D spacing (a view reshaped along ax)
    auto dxs = [&](std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
      return val(along(slice_axis(*dx[i].a, 0, a, b), ax, nd));
    };
    const val h = dx[i];
    // interior
    if (n > 2) {
      ndarray oi = os(1, -1);
      if (uniform[i]) {
        binop(val(subtract(fs(2, std::nullopt), fs(std::nullopt, -2))), val(2.0) * h, '/', &oi);
      } else {
        const val dx1 = dxs(std::nullopt, -1), dx2 = dxs(1, std::nullopt);
        const val a = -dx2 / (dx1 * (dx1 + dx2));
        const val b = (dx2 - dx1) / (dx1 * dx2);
        const val c = dx1 / (dx2 * (dx1 + dx2));
        binop(a * val(fs(std::nullopt, -2)) + b * val(fs(1, -1)), c * val(fs(2, std::nullopt)), '+', &oi);
      }
    }
    ndarray o0 = os(0, 1), on = os(-1, std::nullopt);
    if (opts.edge_order == 1) {
      const val dx0 = uniform[i] ? h : dxs(0, 1), dxn = uniform[i] ? h : dxs(-1, std::nullopt);
      binop(val(subtract(fs(1, 2), fs(0, 1))), dx0, '/', &o0);
      binop(val(subtract(fs(-1, std::nullopt), fs(-2, -1))), dxn, '/', &on);
    } else {
      val a(0.0), b(0.0), c(0.0);
      if (uniform[i]) {
        a = val(-1.5) / h;
        b = val(2.0) / h;
        c = val(-0.5) / h;
      } else {
        const val dx1 = dxs(0, 1), dx2 = dxs(1, 2);
        a = -(val(2.0) * dx1 + dx2) / (dx1 * (dx1 + dx2));
        b = (dx1 + dx2) / (dx1 * dx2);
        c = -dx1 / (dx2 * (dx1 + dx2));
      }
      binop(a * val(fs(0, 1)) + b * val(fs(1, 2)), c * val(fs(2, 3)), '+', &o0);
      if (uniform[i]) {
        a = val(0.5) / h;
        b = val(-2.0) / h;
        c = val(1.5) / h;
      } else {
        const val dx1 = dxs(-2, -1), dx2 = dxs(-1, std::nullopt);
        a = dx2 / (dx1 * (dx1 + dx2));
        b = -(dx2 + dx1) / (dx1 * dx2);
        c = (val(2.0) * dx2 + dx1) / (dx2 * (dx1 + dx2));
      }
      binop(a * val(fs(-3, -2)) + b * val(fs(-2, -1)), c * val(fs(-1, std::nullopt)), '+', &on);
    }
    outs.push_back(out);
  }
  return outs;
}

// --- trapezoid --------------------------------------------------------------------------------------

ndarray trapezoid(const ndarray& y, const trapezoid_options& opts) {
  const char* fn = "cusci::trapezoid";
  const int nd = y.ndim();
  const int ax = normalize_axis(opts.axis, nd, fn);
  const ndarray pair = add(slice_axis(y, ax, 1, std::nullopt), slice_axis(y, ax, std::nullopt, -1));
  if (!opts.x) {
    if (is_complex(pair.dtype())) {
      // NumPy's order, element by element: dx and 2 act as complex scalars (dx + 0j), so an infinite
      // component gives NaN parts (inf * 0), which the sum then carries, as NumPy's result does.
      const ndarray t = multiply(pair, scalar(std::complex<double>(opts.dx, 0.0)));
      return sum(divide(t, scalar(std::complex<double>(2.0, 0.0))), ax);
    }
    // Real values: sum(dx * (y[1:] + y[:-1]) / 2) with the constant factor taken out of the sum (one
    // pass less; the same dtype as NumPy's, values equal to rounding, infinities and NaNs alike)
    return multiply(sum(pair, ax), opts.dx / 2.0);
  }
  const ndarray& x = *opts.x;
  ndarray d;
  if (x.ndim() == 1) {
    d = along(diff(x), ax, nd);  // a length mismatch fails to broadcast below (value_error), as NumPy
  } else {
    d = diff(x, 1, normalize_axis(opts.axis, x.ndim(), fn));
  }
  return sum(divide(multiply(d, pair), 2.0), ax);
}

// --- comparisons ------------------------------------------------------------------------------------

ndarray isclose(const ndarray& a, const ndarray& b, const isclose_options& opts) {
  const dtype dt = a.dtype();
  if (dt == b.dtype() && (dt == dtype::float32 || dt == dtype::float64) && a.shape() == b.shape() &&
      a.is_c_contiguous() && b.is_c_contiguous() && a.device() == b.device()) {
    ndarray out = empty(a.shape(), dtype::bool_);
    detail::numeric::isclose_launch(a.data(), b.data(), a.size(), dt == dtype::float64, opts.rtol, opts.atol,
                                    opts.equal_nan, out.data_as<bool>());
    return out;
  }
  const ndarray y = is_inexact(b.dtype()) ? b : b.astype(dtype::float64);
  const ndarray d = abs(subtract(a, y));
  const ndarray ay = abs(y);
  const ndarray tol = add(multiply(ay, opts.rtol), opts.atol);
  ndarray r = logical_or(logical_and(less_equal(d, tol), isfinite(y)), equal(a, y));
  if (opts.equal_nan) r = logical_or(r, logical_and(isnan(a), isnan(y)));
  return r;
}

bool allclose(const ndarray& a, const ndarray& b, const isclose_options& opts) {
  return all(isclose(a, b, opts)).item<bool>();
}

bool array_equal(const ndarray& a1, const ndarray& a2, const array_equal_options& opts) {
  if (a1.shape() != a2.shape()) return false;
  if (a1.size() == 0) return true;
  ndarray r = equal(a1, a2);
  if (opts.equal_nan && (is_inexact(a1.dtype()) || is_inexact(a2.dtype())))
    r = logical_or(r, logical_and(isnan(a1), isnan(a2)));
  return all(r).item<bool>();
}

// --- nan_to_num -------------------------------------------------------------------------------------

ndarray nan_to_num(const ndarray& x, const nan_to_num_options& opts) {
  const dtype dt = x.dtype();
  if (!is_inexact(dt)) return opts.copy ? x.copy() : x;
  const dtype rdt = real_dtype(dt);
  const double big = rdt == dtype::float16   ? 65504.0
                     : rdt == dtype::float32 ? static_cast<double>(std::numeric_limits<float>::max())
                                             : std::numeric_limits<double>::max();
  const double pinf = opts.posinf.value_or(big), ninf = opts.neginf.value_or(-big);
  const double inf = std::numeric_limits<double>::infinity();
  auto fix = [&](const ndarray& r) {
    ndarray t = where(isnan(r), scalar(opts.nan), r);
    t = where(equal(r, inf), scalar(pinf), t);
    return where(equal(r, -inf), scalar(ninf), t);
  };
  if (!is_complex(dt)) {
    ndarray t = fix(x);
    if (opts.copy) return t;
    ndarray target = x;
    positive(t, &target);
    return x;
  }
  const ndarray tr = fix(real(x)), ti = fix(imag(x));
  ndarray out = opts.copy ? empty(x.shape(), dt) : x;
  ndarray ro = real(out), io = imag(out);
  positive(tr, &ro);
  positive(ti, &io);
  return out;
}

// --- cross ------------------------------------------------------------------------------------------

ndarray cross(const ndarray& a, const ndarray& b, const cross_options& opts) {
  const char* fn = "cusci::cross";
  const int axa = opts.axis.value_or(opts.axisa), axb = opts.axis.value_or(opts.axisb),
            axc = opts.axis.value_or(opts.axisc);
  if (a.ndim() < 1 || b.ndim() < 1) throw value_error(std::string(fn) + ": At least one array has zero dimension");
  ndarray A = moveaxis(a, normalize_axis(axa, a.ndim(), fn, "axisa"), -1);
  ndarray B = moveaxis(b, normalize_axis(axb, b.ndim(), fn, "axisb"), -1);
  const std::int64_t la = A.shape().back(), lb = B.shape().back();
  if (la != 3 || lb != 3)
    throw value_error(std::string(fn) +
                      ": Both input arrays must be (arrays of) 3-dimensional vectors, but they are " +
                      std::to_string(la) + " and " + std::to_string(lb) + " dimensional instead.");
  shape_t sa(A.shape().begin(), A.shape().end() - 1), sb(B.shape().begin(), B.shape().end() - 1);
  shape_t shape = broadcast_shapes(sa, sb);
  shape.push_back(3);
  const int c = normalize_axis(axc, static_cast<int>(shape.size()), fn, "axisc");
  const dtype dt = promote_types(a.dtype(), b.dtype());
  if (is_bool(dt))
    throw type_error(std::string(fn) + ": numpy boolean subtract, the `-` operator, is not supported");
  A = A.astype(dt, false);
  B = B.astype(dt, false);
  ndarray cp = empty(shape, dt);
  auto comp = [](const ndarray& v, std::int64_t k) { return v[{ellipsis, k}]; };
  for (int k = 0; k < 3; ++k) {
    const int p = (k + 1) % 3, q = (k + 2) % 3;  // cp_k = a_p b_q - a_q b_p
    ndarray ck = comp(cp, k);
    subtract(multiply(comp(A, p), comp(B, q)), multiply(comp(A, q), comp(B, p)), &ck);
  }
  return moveaxis(cp, -1, c);
}

// --- linalg::norm -----------------------------------------------------------------------------------

namespace linalg {

norm_kind parse_norm_kind(std::string_view s) {
  if (s == "fro" || s == "f") return norm_kind::fro;
  if (s == "nuc") return norm_kind::nuc;
  throw value_error("cusci::linalg::norm: Invalid norm order '" + std::string(s) + "'");
}

namespace {

const char* norm_fn = "cusci::linalg::norm";

/// Removes (or keeps as 1) the sorted axes `ax` of `s`.
shape_t reduced_shape(const shape_t& s, const std::vector<int>& ax, bool keepdims) {
  shape_t r;
  for (int i = 0; i < static_cast<int>(s.size()); ++i) {
    if (std::find(ax.begin(), ax.end(), i) != ax.end()) {
      if (keepdims) r.push_back(1);
    } else {
      r.push_back(s[static_cast<std::size_t>(i)]);
    }
  }
  return r;
}

/// sqrt(sum |x|^2) over `axes`, scaled by max|x| (no overflow / underflow); real dtype of x.
ndarray vec2(const ndarray& x, const std::vector<int>& axes, bool keepdims) {
  const ndarray ax_abs = abs(x);
  std::int64_t count = 1;
  for (int a : axes) count *= x.shape(a);
  const axis_arg aa = axis_arg(axes);
  if (count == 0 || x.size() == 0) return sqrt(sum(square(ax_abs), aa, {.keepdims = keepdims}));
  const ndarray scale = max(ax_abs, aa, {.keepdims = true});
  const ndarray safe = where(logical_and(isfinite(scale), greater(scale, 0)), scale, scalar(1.0));
  ndarray r = multiply(sqrt(sum(square(divide(ax_abs, safe)), aa, {.keepdims = true})), safe);
  return r.reshape(reduced_shape(x.shape(), axes, keepdims));
}

/// The 2-norm of all of x: cuBLAS's nrm2 for a 1-D (or contiguous) float32/64/complex array, else vec2.
ndarray vec2_full(const ndarray& x) {
  const dtype dt = x.dtype();
  const bool blas_type = dt == dtype::float32 || dt == dtype::float64 || dt == dtype::complex64 ||
                         dt == dtype::complex128;
  std::vector<int> all_axes;
  for (int i = 0; i < x.ndim(); ++i) all_axes.push_back(i);
  if (blas_type && x.size() > 0 && x.size() < INT_MAX) {
    std::optional<ndarray> v;
    std::int64_t inc = 1;
    if (x.is_c_contiguous() || x.is_f_contiguous()) {
      v = x;
    } else if (x.ndim() == 1 && x.strides()[0] > 0 && x.strides()[0] % static_cast<std::int64_t>(x.itemsize()) == 0 &&
               x.strides()[0] / static_cast<std::int64_t>(x.itemsize()) < INT_MAX) {
      v = x;
      inc = x.strides()[0] / static_cast<std::int64_t>(x.itemsize());
    }
    if (v) {
      const dtype rdt = real_dtype(dt);
      ndarray out = empty({}, rdt);
      cublasHandle_t h = detail::cublas_handle();
      cublasPointerMode_t mode;
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasGetPointerMode)(h, &mode));
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSetPointerMode)(h, CUBLAS_POINTER_MODE_DEVICE));
      const int n = static_cast<int>(x.size()), incx = static_cast<int>(inc);
      cublasStatus_t st;
      switch (dt) {
        case dtype::float32: st = CUSCI_LAZY(cublasSnrm2)(h, n, v->data_as<float>(), incx, out.data_as<float>()); break;
        case dtype::float64: st = CUSCI_LAZY(cublasDnrm2)(h, n, v->data_as<double>(), incx, out.data_as<double>()); break;
        case dtype::complex64:
          st = CUSCI_LAZY(cublasScnrm2)(h, n, static_cast<const cuComplex*>(v->data()), incx, out.data_as<float>());
          break;
        default:
          st = CUSCI_LAZY(cublasDznrm2)(h, n, static_cast<const cuDoubleComplex*>(v->data()), incx, out.data_as<double>());
          break;
      }
      CUSCI_LAZY(cublasSetPointerMode)(h, mode);
      CUSCI_CUBLAS_TRY(st);
      return out;
    }
  }
  return vec2(x, all_axes, false);
}

cusolverStatus_t gesvd_buffer(cusolverDnHandle_t h, dtype dt, int m, int n, int* lwork) {
  switch (dt) {
    case dtype::float32: return CUSCI_LAZY(cusolverDnSgesvd_bufferSize)(h, m, n, lwork);
    case dtype::float64: return CUSCI_LAZY(cusolverDnDgesvd_bufferSize)(h, m, n, lwork);
    case dtype::complex64: return CUSCI_LAZY(cusolverDnCgesvd_bufferSize)(h, m, n, lwork);
    default: return CUSCI_LAZY(cusolverDnZgesvd_bufferSize)(h, m, n, lwork);
  }
}

cusolverStatus_t gesvd_values(cusolverDnHandle_t h, dtype dt, int m, int n, void* a, void* s, void* work, int lwork,
                              void* rwork, int* info) {
  signed char no = 'N';
  switch (dt) {
    case dtype::float32:
      return CUSCI_LAZY(cusolverDnSgesvd)(h, no, no, m, n, static_cast<float*>(a), m, static_cast<float*>(s), nullptr, 1,
                              nullptr, 1, static_cast<float*>(work), lwork, static_cast<float*>(rwork), info);
    case dtype::float64:
      return CUSCI_LAZY(cusolverDnDgesvd)(h, no, no, m, n, static_cast<double*>(a), m, static_cast<double*>(s), nullptr, 1,
                              nullptr, 1, static_cast<double*>(work), lwork, static_cast<double*>(rwork), info);
    case dtype::complex64:
      return CUSCI_LAZY(cusolverDnCgesvd)(h, no, no, m, n, static_cast<cuComplex*>(a), m, static_cast<float*>(s), nullptr, 1,
                              nullptr, 1, static_cast<cuComplex*>(work), lwork, static_cast<float*>(rwork), info);
    default:
      return CUSCI_LAZY(cusolverDnZgesvd)(h, no, no, m, n, static_cast<cuDoubleComplex*>(a), m, static_cast<double*>(s),
                              nullptr, 1, nullptr, 1, static_cast<cuDoubleComplex*>(work), lwork,
                              static_cast<double*>(rwork), info);
  }
}

/// Singular values of the matrices of x over axes (r, c): shape (...other axes, min(m, n)), real dtype.
ndarray singular_values(const ndarray& x, int r, int c) {
  const dtype dt = x.dtype();
  if (dt == dtype::float16) throw type_error(std::string(norm_fn) + ": array type float16 is unsupported in linalg");
  const ndarray y = moveaxis(x, std::vector<int>{r, c}, std::vector<int>{-2, -1});
  const int nd = y.ndim();
  const std::int64_t m = y.shape(nd - 2), n = y.shape(nd - 1), k = std::min(m, n);
  shape_t out_shape(y.shape().begin(), y.shape().end() - 2);
  std::int64_t batch = 1;
  for (auto e : out_shape) batch *= e;
  out_shape.push_back(k);
  const dtype rdt = real_dtype(dt);
  if (batch == 0 || k == 0) return empty(out_shape, rdt);
  const std::int64_t rows = std::max(m, n), cols = k;
  if (rows > INT_MAX || rows * cols > INT_MAX)
    throw value_error(std::string(norm_fn) + ": matrices of more than 2^31 elements are not supported");
  ndarray out = empty(out_shape, rdt);
  // column-major rows x cols (rows >= cols): the C-order copy of the transposed stack when m >= n
  // (then each matrix is column-major m x n), else of the stack itself (column-major n x m, the
  // transpose, which has the same singular values); always a fresh copy (gesvd overwrites it).
  const ndarray src = m >= n ? swapaxes(y, -1, -2) : y;
  ndarray buf = src.copy(order::C);
  cusolverDnHandle_t h = detail::cusolver_dn_handle();
  int lwork = 0;
  CUSCI_CUSOLVER_TRY(gesvd_buffer(h, dt, static_cast<int>(rows), static_cast<int>(cols), &lwork));
  ndarray work = empty({std::max(lwork, 1)}, dt);
  ndarray rwork = empty({std::max<std::int64_t>(k, 1)}, rdt);
  ndarray info = empty({batch}, dtype::int32);
  const std::size_t mat_bytes = static_cast<std::size_t>(rows * cols) * itemsize(dt);
  const std::size_t sv_bytes = static_cast<std::size_t>(k) * itemsize(rdt);
  for (std::int64_t b = 0; b < batch; ++b) {
    CUSCI_CUSOLVER_TRY(gesvd_values(h, dt, static_cast<int>(rows), static_cast<int>(cols),
                                    static_cast<char*>(buf.data()) + b * mat_bytes,
                                    static_cast<char*>(out.data()) + b * sv_bytes, work.data(), lwork, rwork.data(),
                                    info.data_as<int>() + b));
  }
  return out;
}

}  // namespace

ndarray norm(const ndarray& x_in, const norm_options& opts) {
  const ndarray x = is_inexact(x_in.dtype()) ? x_in : x_in.astype(dtype::float64);
  const dtype rdt = real_dtype(x.dtype());
  const int nd = x.ndim();
  const norm_ord& ord = opts.ord;
  const bool is_kind = std::holds_alternative<norm_kind>(ord.value);
  const bool is_num = std::holds_alternative<double>(ord.value);
  const double p = is_num ? std::get<double>(ord.value) : 0.0;
  const double inf = std::numeric_limits<double>::infinity();
  if (!opts.axis.axes) {
    const bool fro = is_kind && std::get<norm_kind>(ord.value) == norm_kind::fro;
    if (ord.is_none() || (fro && nd == 2) || (is_num && p == 2.0 && nd == 1)) {
      ndarray r = vec2_full(x);
      if (opts.keepdims) r = r.reshape(shape_t(static_cast<std::size_t>(nd), 1));
      return r;
    }
  }
  std::vector<int> axes;
  if (!opts.axis.axes) {
    for (int i = 0; i < nd; ++i) axes.push_back(i);
  } else {
    axes = *opts.axis.axes;
  }
  if (axes.size() == 1) {
    const int ax = normalize_axis(axes[0], nd, norm_fn);
    const bool kd = opts.keepdims;
    if (is_kind)
      throw value_error(std::string(norm_fn) + ": Invalid norm order '" +
                        (std::get<norm_kind>(ord.value) == norm_kind::fro ? "fro" : "nuc") + "' for vectors");
    if (ord.is_none() || p == 2.0) return vec2(x, {ax}, kd);
    if (p == inf) return max0(abs(x), ax, kd);
    if (p == -inf) return min(abs(x), ax, {.keepdims = kd});
    if (p == 0.0) return sum(not_equal(x, 0).astype(rdt), ax, {.keepdims = kd});
    if (p == 1.0) return sum(abs(x), ax, {.keepdims = kd});
    const ndarray s = sum(power(abs(x), p), ax, {.keepdims = kd});
    return power(s, 1.0 / p);
  }
  if (axes.size() == 2) {
    const int r = normalize_axis(axes[0], nd, norm_fn), c = normalize_axis(axes[1], nd, norm_fn);
    if (r == c) throw value_error(std::string(norm_fn) + ": Duplicate axes given.");
    ndarray ret;
    if (ord.is_none() || (is_kind && std::get<norm_kind>(ord.value) == norm_kind::fro)) {
      std::vector<int> ax2{std::min(r, c), std::max(r, c)};
      ret = vec2(x, ax2, false);
    } else if (is_kind) {  // nuc
      ret = sum(singular_values(x, r, c), -1);
    } else if (p == 2.0) {
      const ndarray sv = singular_values(x, r, c);
      ret = max0(sv, sv.ndim() - 1);
    } else if (p == -2.0) {
      ret = min(singular_values(x, r, c), -1);
    } else if (p == 1.0 || p == -1.0) {
      const int cc = c > r ? c - 1 : c;
      const ndarray s = sum(abs(x), r);
      ret = p == 1.0 ? max0(s, cc) : min(s, cc);
    } else if (p == inf || p == -inf) {
      const int rr = r > c ? r - 1 : r;
      const ndarray s = sum(abs(x), c);
      ret = p == inf ? max0(s, rr) : min(s, rr);
    } else {
      throw value_error(std::string(norm_fn) + ": Invalid norm order for matrices.");
    }
    if (opts.keepdims) {
      shape_t s = x.shape();
      s[static_cast<std::size_t>(r)] = 1;
      s[static_cast<std::size_t>(c)] = 1;
      ret = ret.reshape(s);
    }
    (void)rdt;
    return ret;
  }
  throw value_error(std::string(norm_fn) + ": Improper number of dimensions to norm.");
}

}  // namespace linalg
}  // namespace cusci
