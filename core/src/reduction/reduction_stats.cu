/// @file reduction_stats.cu
/// var, std, nanvar, nanstd: one pass over the data (see op_var in reduction_ops.cuh).

#include "reduction/reduction_ops.cuh"

namespace cusci {
namespace {

using namespace detail::red;

ndarray variance(const char* fn, const ndarray& a, const axis_arg& axis, const var_options& opts, bool take_sqrt,
                 bool skip_nan) {
  const std::vector<bool> mask = axis_mask(fn, a.ndim(), axis);
  const dtype d = a.dtype();
  dtype r;
  if (opts.dtype) r = real_dtype(*opts.dtype);
  else r = (d == dtype::bool_ || is_integer(d)) ? dtype::float64 : real_dtype(d);
  if (!is_floating(r))
    throw type_error(std::string(fn) + ": dtype must be floating or complex, got " + std::string(dtype_name(*opts.dtype)));
  i64 n_red = 0;
  const shape_t out_shape = reduced_shape(a, mask, opts.keepdims, n_red);
  ndarray out = empty(out_shape, r);
  if (out.size() == 0) return out;
  // A narrower dtype= rounds the elements first, as NumPy computes in that dtype.
  const bool narrow = opts.dtype && promote_types(d, *opts.dtype) != *opts.dtype;
  ndarray cast;
  if (narrow) cast = a.astype(*opts.dtype);
  const ndarray& src = narrow ? cast : a;
  const plan p = make_plan(src, mask, static_cast<char*>(out.data()), r);
  const store_ctx c{.n_red = n_red, .ddof = opts.ddof, .flag = take_sqrt};
  const dtype sd = src.dtype();
  const bool nan = skip_nan && is_inexact(sd);
  if (is_complex(sd)) {
    if (nan) run<dyn, op_var<true, true>>(p, c);
    else run<dyn, op_var<true, false>>(p, c);
  } else if (sd == dtype::float32) {
    if (nan) run<float, op_var<false, true>>(p, c);
    else run<float, op_var<false, false>>(p, c);
  } else if (sd == dtype::float64) {
    if (nan) run<double, op_var<false, true>>(p, c);
    else run<double, op_var<false, false>>(p, c);
  } else {
    if (nan) run<dyn, op_var<false, true>>(p, c);
    else run<dyn, op_var<false, false>>(p, c);
  }
  return out;
}

}  // namespace

ndarray var(const ndarray& a, axis_arg axis, var_options opts) {
  return variance("cusci::var", a, axis, opts, false, false);
}
ndarray std(const ndarray& a, axis_arg axis, var_options opts) {
  return variance("cusci::std", a, axis, opts, true, false);
}
ndarray nanvar(const ndarray& a, axis_arg axis, var_options opts) {
  return variance("cusci::nanvar", a, axis, opts, false, true);
}
ndarray nanstd(const ndarray& a, axis_arg axis, var_options opts) {
  return variance("cusci::nanstd", a, axis, opts, true, true);
}

}  // namespace cusci
