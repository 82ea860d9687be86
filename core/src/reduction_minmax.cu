/// @file reduction_minmax.cu
/// Order reductions: min, max, nanmin, nanmax, ptp, argmin, argmax, nanargmin, nanargmax.
/// float32 / float64 inputs load statically (vector loads); other dtypes load through the runtime
/// dtype into a wide compute type that holds them exactly (int64, uint64, float64, complex128), which
/// keeps the number of kernel instantiations small.

#include "reduction_ops.cuh"

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
  const ndarray src = r != a.dtype() ? a.astype(r) : a;
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
  ndarray src = a;
  if (!axis && nd > 1 && !detail::cm::dense_c(a)) src = a.copy(order::C);
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
