// Host wrappers of correlate and convolve: SciPy's argument handling (_correlate_or_convolve,
// _expand_footprint, _expand_origin, _complex_via_real_components), then real passes of the
// footprint engine's weighted sum (weighted_footprint_pass, correlate_nd.cu).

#include "cusci/ndimage/correlate.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "engine/axis_engine.hpp"
#include "engine/footprint_engine.hpp"
#include "filters/filter_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::fname;

/// Where the weights go: the footprint shape with one dimension per input axis, and the origins per
/// input axis (already adjusted for convolution and validated).
struct geometry {
  shape_t shape;
  std::vector<std::int64_t> origins;
};

/// SciPy's checks and expansions of _correlate_or_convolve for weights of shape `wshape`.
geometry make_geometry(const char* fn, const ndarray& input, const shape_t& wshape, const correlate_options& opts,
                       bool convolution) {
  const int nd = input.ndim();
  const std::vector<int> axes = detail::check_axes(opts.axes, nd, fn);
  const std::size_t n = axes.size();
  geometry g;
  // _expand_footprint: with fewer axes than dims, the weights' dims go to the filtered axes in
  // increasing order and unit dims are inserted at the others.
  if (static_cast<int>(n) < nd) {
    if (wshape.size() != n)
      throw runtime_error(fname(fn) + ": weights.ndim (" + std::to_string(wshape.size()) + ") must match len(axes) (" +
                          std::to_string(n) + ")");
    std::vector<int> sorted_axes = axes;
    std::sort(sorted_axes.begin(), sorted_axes.end());
    g.shape.assign(static_cast<std::size_t>(nd), 1);
    for (std::size_t i = 0; i < n; ++i) g.shape[static_cast<std::size_t>(sorted_axes[i])] = wshape[i];
  } else {
    g.shape = wshape;
  }
  // _expand_origin: one origin or one per filtered axis; with fewer axes than dims they go to the
  // axes in the order given (0 elsewhere), with all axes they stay in order.
  std::vector<std::int64_t> origins;
  if (opts.origin.is_scalar) {
    origins.assign(n, opts.origin.values.front());
  } else {
    if (opts.origin.values.size() != n)
      throw runtime_error(fname(fn) + ": sequence argument must have length equal to input rank: origin has " +
                          std::to_string(opts.origin.values.size()) + " values for " + std::to_string(n) +
                          " filtered axes");
    origins = opts.origin.values;
  }
  if (static_cast<int>(n) < nd) {
    std::vector<std::int64_t> full(static_cast<std::size_t>(nd), 0);
    for (std::size_t i = 0; i < n; ++i) full[static_cast<std::size_t>(axes[i])] = origins[i];
    origins = std::move(full);
  }
  // wshape: the dims of nonzero length must be one per input dim.
  std::size_t n_nonzero = 0;
  for (auto e : g.shape) n_nonzero += e > 0 ? 1 : 0;
  if (static_cast<int>(n_nonzero) != nd)
    throw runtime_error(fname(fn) + ": weights.ndim (" + std::to_string(n_nonzero) + ") must match len(axes) (" +
                        std::to_string(n) + ")");
  if (static_cast<int>(g.shape.size()) != nd)
    throw runtime_error(fname(fn) + ": filter weights array has incorrect shape: " +
                        cusci::detail::shape_str(g.shape) + " for an input of " + std::to_string(nd) + " dimensions");
  for (int d = 0; d < nd; ++d) {
    const auto ud = static_cast<std::size_t>(d);
    if (convolution) {
      origins[ud] = -origins[ud];
      if (g.shape[ud] % 2 == 0) origins[ud] -= 1;
    }
    const std::int64_t len = g.shape[ud];
    if (len > detail::max_filter_size)
      throw value_error(fname(fn) + ": weights extents must be at most " + std::to_string(detail::max_filter_size) +
                        ", got " + std::to_string(len));
    if (origins[ud] < -(len / 2) || origins[ud] > (len - 1) / 2)
      throw value_error(fname(fn) + ": Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= origin[k] <= "
                        "(weights.shape[k]-1) // 2, got origin " + std::to_string(origins[ud]) + " for extent " +
                        std::to_string(len) + " along axis " + std::to_string(d));
  }
  g.origins = std::move(origins);
  return g;
}

void check_kernel_dtype(dtype dt, const char* fn, const char* what) {
  if (dt == dtype::float16 || is_complex(dt))
    throw runtime_error(fname(fn) + ": array type not supported: " + what + " dtype " + std::string(dtype_name(dt)) +
                        (dt == dtype::float16 ? " (float16 is not supported)" : " (a complex " + std::string(what) +
                                                                                     " needs complex input or weights)"));
}

/// One real correlation (SciPy's _nd_image.correlate): `in` (real) with the real weights `w` (C order
/// of `g.shape`, already reversed for convolution) into the real array `dst` of the same shape.
void correlate_real(const char* fn, const ndarray& in, const std::vector<double>& w, const geometry& g, mode m,
                    double cval, const ndarray& dst) {
  check_kernel_dtype(in.dtype(), fn, "input");
  check_kernel_dtype(dst.dtype(), fn, "output");
  if (dst.size() == 0) return;
  detail::footprint_spec f;
  f.shape = g.shape;
  f.origins = g.origins;
  f.modes.assign(g.shape.size(), detail::filter_ext(m));
  f.weights = w;
  f.mask.resize(w.size());
  // NI_Correlate keeps only the weights with fabs(w) > DBL_EPSILON (NaN weights drop out too).
  for (std::size_t k = 0; k < w.size(); ++k) f.mask[k] = std::fabs(w[k]) > DBL_EPSILON ? 1 : 0;
  if (in.ndim() == 0) {  // a 0-d array as one element of a 1-D one
    f.shape = {1};
    f.origins = {0};
    f.modes.resize(1, detail::filter_ext(m));
    detail::weighted_footprint_pass(in.reshape({1}), dst.reshape({1}), f, cval);
    return;
  }
  detail::weighted_footprint_pass(in, dst, f, cval);
}

ndarray correlate_or_convolve(const char* fn, const ndarray& input, const host_array& weights,
                              const correlate_options& opts, bool convolution) {
  const shape_t wshape = weights.shape();
  const bool complex_input = is_complex(input.dtype());
  const bool complex_weights = is_complex(weights.dtype());
  std::vector<double> wre, wim;
  if (complex_weights) {
    const host_array wc = weights.astype(dtype::complex128);
    const auto* p = wc.data_as<std::complex<double>>();
    wre.resize(static_cast<std::size_t>(wc.size()));
    wim.resize(static_cast<std::size_t>(wc.size()));
    for (std::size_t k = 0; k < wre.size(); ++k) {
      wre[k] = p[k].real();
      // As np.correlate, correlate conjugates complex weights rather than the input.
      wim[k] = convolution ? p[k].imag() : -p[k].imag();
    }
  } else {
    const host_array wd = weights.astype(dtype::float64);
    const double* p = wd.data_as<double>();
    wre.assign(p, p + wd.size());
  }
  if (convolution) {  // reversed along every axis = the C-order sequence reversed
    std::reverse(wre.begin(), wre.end());
    std::reverse(wim.begin(), wim.end());
  }
  const double cre = opts.cval.real(), cim = opts.cval.imag();

  if (complex_input || complex_weights) {
    // _get_output(output, input, complex_output=True)
    dtype od;
    if (opts.output.is_array()) {
      detail::check_output_shape(opts.output, input.shape(), fn);
      if (!is_complex(opts.output.array().dtype()))
        throw runtime_error(fname(fn) + ": output must have complex dtype, got an output array of dtype " +
                            std::string(dtype_name(opts.output.array().dtype())));
      od = opts.output.array().dtype();
    } else if (opts.output.dtype()) {
      od = is_complex(*opts.output.dtype()) ? *opts.output.dtype() : promote_types(*opts.output.dtype(), dtype::complex64);
    } else {
      od = promote_types(input.dtype(), dtype::complex64);
    }
    if (!complex_input && cim != 0.0)
      throw value_error(fname(fn) + ": Cannot provide a complex-valued cval when the input is real.");
    const geometry g = make_geometry(fn, input, wshape, opts, convolution);
    // SciPy's sequence of real passes, written straight into the output's components in SciPy's
    // order. With an output= array that overlaps the input (in place) a later pass reads what an
    // earlier one stored, exactly as in SciPy (for complex input and weights, the imaginary passes
    // see the new real part): each pass goes through a temporary only where its source and
    // destination overlap, as SciPy's inner call does.
    ndarray result = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
    const ndarray rre = detail::component(result, 0), rim = detail::component(result, 1);
    auto pass = [&](const ndarray& src, const std::vector<double>& w, double cv, const ndarray& dst) {
      if (!detail::may_share_memory(src, dst)) return correlate_real(fn, src, w, g, opts.mode, cv, dst);
      const ndarray t = cusci::empty(dst.shape(), dst.dtype());
      correlate_real(fn, src, w, g, opts.mode, cv, t);
      detail::copy_into(t, dst);
    };
    // `dst op= pass(src)`: the pass into a new array of src's dtype (SciPy's output=None), then
    // NumPy's in-place subtract / add in dst's dtype.
    auto accumulate = [&](const ndarray& src, const std::vector<double>& w, double cv, const ndarray& dst, bool sub) {
      const ndarray t = cusci::empty(src.shape(), src.dtype());
      correlate_real(fn, src, w, g, opts.mode, cv, t);
      if (dst.size() == 0) return;
      ndarray d = dst;
      if (sub) cusci::subtract(d, t, &d);
      else cusci::add(d, t, &d);
    };
    if (complex_input && complex_weights) {
      pass(detail::component(input, 0), wre, cre, rre);
      accumulate(detail::component(input, 1), wim, cim, rre, true);
      pass(detail::component(input, 0), wim, cre, rim);
      accumulate(detail::component(input, 1), wre, cim, rim, false);
    } else if (complex_input) {
      pass(detail::component(input, 0), wre, cre, rre);
      pass(detail::component(input, 1), wre, cim, rim);
    } else {
      pass(input, wre, cre, rre);
      pass(input, wim, cre, rim);
    }
    return result;
  }

  const geometry g = make_geometry(fn, input, wshape, opts, convolution);
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = opts.output.dtype().value_or(input.dtype());
  check_kernel_dtype(input.dtype(), fn, "input");
  check_kernel_dtype(od, fn, "output");
  if (cim != 0.0)
    throw type_error(fname(fn) + ": cval must be real number, not complex, for real input and weights");
  ndarray result = cusci::empty(input.shape(), od);
  correlate_real(fn, input, wre, g, opts.mode, cre, result);
  return detail::deliver_output(std::move(result), opts.output, fn);
}

}  // namespace

ndarray correlate(const ndarray& input, const host_array& weights, const correlate_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::correlate");
  return correlate_or_convolve("correlate", input, weights, opts, false);
}

ndarray correlate(const ndarray& input, const ndarray& weights, const correlate_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::correlate");
  return correlate_or_convolve("correlate", input, weights.get(), opts, false);
}

ndarray convolve(const ndarray& input, const host_array& weights, const correlate_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::convolve");
  return correlate_or_convolve("convolve", input, weights, opts, true);
}

ndarray convolve(const ndarray& input, const ndarray& weights, const correlate_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::convolve");
  return correlate_or_convolve("convolve", input, weights.get(), opts, true);
}

}  // namespace cusci::ndimage
