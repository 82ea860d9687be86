// The derivative filters (derivatives.hpp): SciPy's prewitt, sobel, laplace, gaussian_laplace,
// gaussian_gradient_magnitude, generic_laplace and generic_gradient_magnitude, as compositions of
// the axis engine's correlation passes (correlate_pass) in SciPy's order, with every intermediate in
// the output dtype, and the elementwise steps of derivative_kernels.cu.
//
// Passes never read what they write: a chain alternates between its destination and one scratch
// array so that the last pass lands in the destination (an overlapping destination, such as the
// input itself, is written only after the first pass). The sums follow SciPy's
// generic_laplace / generic_gradient_magnitude: the first derivative goes to the output, the others
// to one reused temporary, each then added (squared) in one fused kernel; the gradient magnitude's
// first square is deferred into that kernel, and its square root into the last one, whenever that
// gives SciPy's values (the derivatives then read an input that does not overlap the output).

#include "cusci/ndimage/derivatives.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/dtype.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/gaussian_kernel.hpp"
#include "engine/axis_engine.hpp"
#include "engine/boundary.hpp"
#include "filters/derivative_kernels.hpp"
#include "filters/filter_common.hpp"
#include "filters/gaussian_weights.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::ext;
using detail::fname;
using detail::num;

/// Whether `a` and `b` may share memory (their byte extents intersect; NumPy's may_share_memory).
bool may_overlap(const ndarray& a, const ndarray& b) {
  if (a.size() == 0 || b.size() == 0) return false;
  auto extent = [](const ndarray& x) {
    auto lo = reinterpret_cast<std::uintptr_t>(x.data());
    std::uintptr_t hi = lo + x.itemsize();
    for (int d = 0; d < x.ndim(); ++d) {
      const std::int64_t span = x.strides()[static_cast<std::size_t>(d)] * (x.shape()[static_cast<std::size_t>(d)] - 1);
      if (span < 0) lo -= static_cast<std::uintptr_t>(-span);
      else hi += static_cast<std::uintptr_t>(span);
    }
    return std::pair{lo, hi};
  };
  const auto [alo, ahi] = extent(a);
  const auto [blo, bhi] = extent(b);
  return alo < bhi && blo < ahi;
}

/// Whether `a` and `b` are the same view (same elements in the same places).
bool same_view(const ndarray& a, const ndarray& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && a.strides() == b.strides() &&
         (a.size() == 0 || a.data() == b.data());
}

/// NumPy's `dst[...] = src` (unsafe cast; src broadcast to dst's shape beforehand), also when the
/// two overlap.
void assign(const ndarray& dst, const ndarray& src) {
  if (same_view(dst, src) || dst.size() == 0) return;
  ndarray d = dst;
  if (may_overlap(dst, src)) {
    const ndarray copy = src.copy();
    cusci::detail::copy_cast(copy, d);
  } else {
    cusci::detail::copy_cast(src, d);
  }
}

/// The output dtype as SciPy's _get_output(output, input): the given array's or dtype, else the
/// input's. An array must have the input's shape (RuntimeError) and live on the input's device.
dtype result_dtype(const ndarray& input, const output_arg& output, const char* fn) {
  if (output.is_array()) {
    detail::check_output_shape(output, input.shape(), fn);
    cusci::detail::check_same_device(fname(fn).c_str(), {&input, &output.array()});
  }
  return output.dtype().value_or(input.dtype());
}

/// The output array: the one given, or a new C-contiguous array of dtype `od`.
ndarray make_output(const ndarray& input, const output_arg& output, dtype od, const char* fn) {
  if (output.is_array()) return output.array();
  cusci::detail::checked_size(input.shape(), fname(fn), itemsize(od));
  return cusci::empty(input.shape(), od);
}

/// The dtypes SciPy's correlate1d refuses (all RuntimeError): float16, a real output for a complex
/// input ("output must have complex dtype"), a complex output for a real input.
void check_pass_dtypes(dtype in, dtype od, const char* fn) {
  for (dtype t : {in, od})
    if (t == dtype::float16)
      throw runtime_error(fname(fn) + ": array type float16 not supported (" +
                          std::string(t == in ? "input" : "output") + " dtype)");
  if (is_complex(in) && !is_complex(od))
    throw runtime_error(fname(fn) + ": output must have complex dtype for an input of dtype " +
                        std::string(dtype_name(in)) + ", got " + std::string(dtype_name(od)));
  if (!is_complex(in) && is_complex(od))
    throw runtime_error(fname(fn) + ": array type " + std::string(dtype_name(od)) +
                        " not supported as the output of a real input of dtype " + std::string(dtype_name(in)));
}

/// One correlation pass: weights `w` (centred, origin 0) along `axis` with boundary `mode`.
struct weights_pass {
  int axis;
  std::vector<double> w;
  ext mode;
};

/// A scratch array of `like`'s shape and dtype, allocated on first use.
class scratch_array {
 public:
  const ndarray& get(const ndarray& like) {
    if (!a_ || a_->dtype() != like.dtype() || a_->shape() != like.shape()) a_ = cusci::empty(like.shape(), like.dtype());
    return *a_;
  }

 private:
  std::optional<ndarray> a_;
};

void run_pass(const ndarray& src, const ndarray& dst, const weights_pass& p, double cval) {
  if (is_complex(dst.dtype())) {
    // SciPy's _complex_via_real_components: the real part with cval, the imaginary part with 0.
    detail::correlate_pass(detail::component(src, 0), detail::component(dst, 0), p.axis, p.w, p.mode, cval, 0);
    detail::correlate_pass(detail::component(src, 1), detail::component(dst, 1), p.axis, p.w, p.mode, 0.0, 0);
  } else {
    detail::correlate_pass(src, dst, p.axis, p.w, p.mode, cval, 0);
  }
}

/// The passes in turn from `src` into `dst` (same shape; the dtypes checked by check_pass_dtypes),
/// each storing into dst's dtype: SciPy's chain of correlate1d calls writing `output` in place,
/// which gives the values of out-of-place passes. No passes: dst = src cast.
void run_passes(const ndarray& src, const ndarray& dst, const std::vector<weights_pass>& passes, double cval,
                scratch_array& scratch) {
  const std::size_t n = passes.size();
  if (n == 0) return assign(dst, src);
  if (dst.size() == 0) return;
  const bool overlap = may_overlap(src, dst);
  ndarray cur = src;
  for (std::size_t k = 1; k <= n; ++k) {
    // Without overlap the parity puts the last pass into dst; with overlap the first pass goes to
    // the scratch array (and an odd chain ends with a copy).
    const bool to_dst = overlap ? (k % 2 == 0) : ((n - k) % 2 == 0);
    const ndarray next = to_dst ? dst : scratch.get(dst);
    run_pass(cur, next, passes[k - 1], cval);
    cur = next;
  }
  if (overlap && n % 2 == 1) assign(dst, cur);
}

/// The derivative of SciPy's gaussian_laplace / gaussian_gradient_magnitude along one axis:
/// gaussian_filter(input, sigma, order (`order` on that axis, 0 elsewhere), output, mode, cval,
/// truncate, radius), whose passes run along every axis with sigma > 1e-15, in increasing order,
/// all with one mode. Kernels are built once per axis and order.
class gaussian_derivative {
 public:
  gaussian_derivative(const char* fn, const std::vector<double>& sigma, const std::vector<int>& axes, int order,
                      double truncate, const std::vector<std::optional<std::int64_t>>& radius)
      : sigma_(sigma) {
    const std::size_t nd = sigma.size();
    smooth_.resize(nd);
    deriv_.resize(nd);
    for (std::size_t d = 0; d < nd; ++d) {
      if (!used(d)) continue;
      const bool is_axis = std::find(axes.begin(), axes.end(), static_cast<int>(d)) != axes.end();
      // The smoothing kernel is needed along every used axis unless it is the only filtered one.
      if (!is_axis || axes.size() > 1) smooth_[d] = detail::gaussian_weights(fn, sigma[d], 0, truncate, radius[d]);
      if (is_axis) deriv_[d] = detail::gaussian_weights(fn, sigma[d], order, truncate, radius[d]);
    }
  }
  /// Whether any pass runs (else every derivative is a copy of the input).
  bool any_pass() const {
    for (std::size_t d = 0; d < sigma_.size(); ++d)
      if (used(d)) return true;
    return false;
  }
  /// Writes the derivative along `axis` of `src` into `dst`.
  void operator()(const ndarray& src, int axis, ext mode, double cval, const ndarray& dst, scratch_array& scratch) const {
    std::vector<weights_pass> passes;
    for (std::size_t d = 0; d < sigma_.size(); ++d)
      if (used(d)) passes.push_back({static_cast<int>(d), static_cast<int>(d) == axis ? deriv_[d] : smooth_[d], mode});
    run_passes(src, dst, passes, cval, scratch);
  }

 private:
  bool used(std::size_t d) const { return sigma_[d] > 1e-15; }  // SciPy's gaussian_filter test
  std::vector<double> sigma_;
  std::vector<std::vector<double>> smooth_, deriv_;
};

/// gaussian_filter's radius over all `nd` axes (one value or nd values), or none.
std::vector<std::optional<std::int64_t>> radii_of(const per_axis<std::int64_t>& radius, std::size_t nd,
                                                  const char* fn) {
  std::vector<std::optional<std::int64_t>> r(nd);
  if (!radius.empty()) {
    const auto v = detail::expand(radius, nd, fn, "radius");
    for (std::size_t d = 0; d < nd; ++d) r[d] = v[d];
  }
  return r;
}

/// The derivative along filtered axis number k, computed into `dst` (filtered axis 0: the output
/// array; the others: `dst` is a temporary of the output dtype and the function may fill it and
/// return it, or return another array, as a user callable does).
using derive_fn = std::function<ndarray(const ndarray& input, std::size_t k, const ndarray* dst)>;

enum class sum_kind { laplace, magnitude };

/// SciPy's generic_laplace / generic_gradient_magnitude loop over the filtered axes (at least one).
/// `builtin`: the derivative is one of this module's and fills `dst` (a temporary reused for every
/// axis); the gradient magnitude's first square may then wait for the second derivative, since the
/// derivatives read only `input`. Otherwise the callable allocates its results.
void sum_derivatives(const char* fn, sum_kind kind, const ndarray& input, const ndarray& out, std::size_t n_axes,
                     const derive_fn& derive, bool builtin) {
  const dtype od = out.dtype();
  {
    const ndarray r = derive(input, 0, &out);
    if (!same_view(r, out)) {
      if (r.shape() != out.shape()) {
        try {
          assign(out, r.broadcast_to(out.shape()));
        } catch (const value_error&) {
          throw value_error(fname(fn) + ": the derivative returned shape " + cusci::detail::shape_str(r.shape()) +
                            ", which does not broadcast to the output shape " + cusci::detail::shape_str(out.shape()));
        }
      } else {
        assign(out, r);
      }
    }
  }
  const bool magnitude = kind == sum_kind::magnitude;
  if (n_axes == 1) {
    if (magnitude) detail::derivative_step(out, nullptr, detail::square_out | detail::sqrt_out);
    return;
  }
  bool pending_square = magnitude;
  if (magnitude && !(builtin && !may_overlap(input, out))) {
    detail::derivative_step(out, nullptr, detail::square_out);
    pending_square = false;
  }
  std::optional<ndarray> tmp_buf;
  if (builtin) tmp_buf = cusci::empty(out.shape(), od);
  for (std::size_t k = 1; k < n_axes; ++k) {
    ndarray r = derive(input, k, tmp_buf ? &*tmp_buf : nullptr);
    cusci::detail::check_same_device(fname(fn).c_str(), {&out, &r});
    const bool last = k + 1 == n_axes;
    if (r.shape() != out.shape()) {
      try {
        (void)r.broadcast_to(out.shape());
      } catch (const value_error&) {
        throw value_error(fname(fn) + ": the derivative returned shape " + cusci::detail::shape_str(r.shape()) +
                          ", which does not broadcast to the output shape " + cusci::detail::shape_str(out.shape()));
      }
    }
    if (r.dtype() == od && !may_overlap(r, out)) {
      const ndarray rb = r.shape() == out.shape() ? r : r.broadcast_to(out.shape());
      unsigned flags = detail::add_tmp;
      if (magnitude) flags |= detail::square_tmp | (pending_square ? detail::square_out : 0u) | (last ? detail::sqrt_out : 0u);
      detail::derivative_step(out, &rb, flags);
      pending_square = false;
      continue;
    }
    // Another dtype (or an overlapping result): NumPy's ufuncs themselves, `tmp * tmp` in the
    // result's dtype and `output += tmp` with same_kind casting.
    if (pending_square) {
      detail::derivative_step(out, nullptr, detail::square_out);
      pending_square = false;
    }
    const ndarray term = magnitude ? cusci::multiply(r, r) : r.copy();
    ndarray o = out;
    try {
      cusci::add(o, term.shape() == out.shape() ? term : term.broadcast_to(out.shape()), &o);
    } catch (const type_error& e) {
      throw type_error(fname(fn) + ": the derivative's result does not add into the output: " + e.what());
    }
    if (magnitude && last) detail::derivative_step(out, nullptr, detail::sqrt_out);
  }
}

/// prewitt and sobel: the derivative along `axis`, then `smooth` along every other axis.
ndarray prewitt_sobel(const char* fn, const ndarray& input, int axis, const sobel_options& opts,
                      const std::vector<double>& smooth) {
  const int nd = input.ndim();
  const int ax = detail::normalize_axis(axis, nd, fn, "axis");
  const dtype od = result_dtype(input, opts.output, fn);
  const std::vector<mode> modes = detail::expand(opts.mode, static_cast<std::size_t>(nd), fn, "mode");
  check_pass_dtypes(input.dtype(), od, fn);
  std::vector<weights_pass> passes;
  passes.push_back({ax, {-1.0, 0.0, 1.0}, detail::filter_ext(modes[static_cast<std::size_t>(ax)])});
  for (int d = 0; d < nd; ++d)
    if (d != ax) passes.push_back({d, smooth, detail::filter_ext(modes[static_cast<std::size_t>(d)])});
  const ndarray out = make_output(input, opts.output, od, fn);
  scratch_array scratch;
  run_passes(input, out, passes, opts.cval, scratch);
  return out;
}

/// The checks every generic_laplace-shaped function starts with; returns the filtered axes.
std::vector<int> filtered_axes(const ndarray& input, const std::optional<std::vector<int>>& axes, const char* fn) {
  return detail::check_axes(axes, input.ndim(), fn);
}

}  // namespace

ndarray prewitt(const ndarray& input, int axis, const prewitt_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::prewitt");
  return prewitt_sobel("prewitt", input, axis, opts, {1.0, 1.0, 1.0});
}

ndarray sobel(const ndarray& input, int axis, const sobel_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::sobel");
  return prewitt_sobel("sobel", input, axis, opts, {1.0, 2.0, 1.0});
}

ndarray laplace(const ndarray& input, const laplace_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::laplace");
  const char* fn = "laplace";
  const dtype od = result_dtype(input, opts.output, fn);
  const std::vector<int> axes = filtered_axes(input, opts.axes, fn);
  if (axes.empty()) {
    const ndarray out = make_output(input, opts.output, od, fn);
    assign(out, input);
    return out;
  }
  const std::vector<mode> modes = detail::expand(opts.mode, axes.size(), fn, "mode");
  check_pass_dtypes(input.dtype(), od, fn);
  const ndarray out = make_output(input, opts.output, od, fn);
  scratch_array scratch;
  const derive_fn derive = [&](const ndarray& in, std::size_t k, const ndarray* dst) {
    run_passes(in, *dst, {{axes[k], {1.0, -2.0, 1.0}, detail::filter_ext(modes[k])}}, opts.cval, scratch);
    return *dst;
  };
  sum_derivatives(fn, sum_kind::laplace, input, out, axes.size(), derive, true);
  return out;
}

ndarray gaussian_laplace(const ndarray& input, const per_axis<double>& sigma, const gaussian_laplace_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::gaussian_laplace");
  const char* fn = "gaussian_laplace";
  const std::size_t nd = static_cast<std::size_t>(input.ndim());
  const dtype od = result_dtype(input, opts.output, fn);
  const std::vector<int> axes = filtered_axes(input, opts.axes, fn);
  const std::vector<double> sig_axes = detail::expand(sigma, axes.size(), fn, "sigma");
  // As SciPy: sigma 0 (no smoothing) along the axes that are not filtered. A sigma <= 1e-15 (also a
  // negative or NaN one) leaves its axis without a pass, derivative included (gaussian_filter).
  std::vector<double> sig(nd, 0.0);
  for (std::size_t i = 0; i < axes.size(); ++i) sig[static_cast<std::size_t>(axes[i])] = sig_axes[i];
  if (axes.empty()) {
    const ndarray out = make_output(input, opts.output, od, fn);
    assign(out, input);
    return out;
  }
  const std::vector<mode> modes = detail::expand(opts.mode, axes.size(), fn, "mode");
  const gaussian_derivative deriv(fn, sig, axes, 2, opts.truncate, radii_of(opts.radius, nd, fn));
  if (deriv.any_pass()) check_pass_dtypes(input.dtype(), od, fn);
  const ndarray out = make_output(input, opts.output, od, fn);
  scratch_array scratch;
  const derive_fn derive = [&](const ndarray& in, std::size_t k, const ndarray* dst) {
    deriv(in, axes[k], detail::filter_ext(modes[k]), opts.cval, *dst, scratch);
    return *dst;
  };
  sum_derivatives(fn, sum_kind::laplace, input, out, axes.size(), derive, true);
  return out;
}

ndarray gaussian_gradient_magnitude(const ndarray& input, const per_axis<double>& sigma,
                                    const gaussian_gradient_magnitude_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::gaussian_gradient_magnitude");
  const char* fn = "gaussian_gradient_magnitude";
  const std::size_t nd = static_cast<std::size_t>(input.ndim());
  const dtype od = result_dtype(input, opts.output, fn);
  const std::vector<int> axes = filtered_axes(input, opts.axes, fn);
  if (axes.empty()) {
    const ndarray out = make_output(input, opts.output, od, fn);
    assign(out, input);
    return out;
  }
  const std::vector<mode> modes = detail::expand(opts.mode, axes.size(), fn, "mode");
  // As SciPy: sigma goes to gaussian_filter over all axes (one value or ndim values).
  const std::vector<double> sig = detail::expand(sigma, nd, fn, "sigma");
  const gaussian_derivative deriv(fn, sig, axes, 1, opts.truncate, radii_of(opts.radius, nd, fn));
  if (deriv.any_pass()) check_pass_dtypes(input.dtype(), od, fn);
  const ndarray out = make_output(input, opts.output, od, fn);
  scratch_array scratch;
  const derive_fn derive = [&](const ndarray& in, std::size_t k, const ndarray* dst) {
    deriv(in, axes[k], detail::filter_ext(modes[k]), opts.cval, *dst, scratch);
    return *dst;
  };
  sum_derivatives(fn, sum_kind::magnitude, input, out, axes.size(), derive, true);
  return out;
}

namespace {

ndarray generic_sum(const char* fn, sum_kind kind, const ndarray& input, const derivative_function& derivative,
                    const laplace_options& opts) {
  const dtype od = result_dtype(input, opts.output, fn);
  const std::vector<int> axes = filtered_axes(input, opts.axes, fn);
  if (axes.empty()) {
    const ndarray out = make_output(input, opts.output, od, fn);
    assign(out, input);
    return out;
  }
  const std::vector<mode> modes = detail::expand(opts.mode, axes.size(), fn, "mode");
  if (!derivative)
    throw value_error(fname(fn) + ": " + (kind == sum_kind::laplace ? "derivative2" : "derivative") +
                      " must be a callable, got an empty function");
  const ndarray out = make_output(input, opts.output, od, fn);
  const derive_fn derive = [&](const ndarray& in, std::size_t k, const ndarray* dst) {
    if (k == 0) return derivative(in, axes[k], output_arg(*dst), modes[k], opts.cval);
    return derivative(in, axes[k], output_arg(od), modes[k], opts.cval);
  };
  sum_derivatives(fn, kind, input, out, axes.size(), derive, false);
  return out;
}

}  // namespace

ndarray generic_laplace(const ndarray& input, const derivative_function& derivative2,
                        const generic_laplace_options& opts) {
  return generic_sum("generic_laplace", sum_kind::laplace, input, derivative2, opts);
}

ndarray generic_gradient_magnitude(const ndarray& input, const derivative_function& derivative,
                                   const generic_gradient_magnitude_options& opts) {
  return generic_sum("generic_gradient_magnitude", sum_kind::magnitude, input, derivative, opts);
}

}  // namespace cusci::ndimage
