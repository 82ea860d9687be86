// Host wrappers of cusci::ndimage's Fourier filters: SciPy's argument handling in SciPy's order
// (scipy/ndimage/_fourier.py: _get_output_fourier / _get_output_fourier_complex, then the axis, then
// _normalize_sequence; the C loops' dtype checks last and only when there is an element to filter),
// then the device work (fourier.cu).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/fourier.hpp"
#include "filters/filter_common.hpp"
#include "fourier/fourier_apply.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::fname;
using detail::fourier_kind;

const char* kind_name(fourier_kind k) {
  switch (k) {
    case fourier_kind::gaussian: return "fourier_gaussian";
    case fourier_kind::uniform: return "fourier_uniform";
    case fourier_kind::ellipsoid: return "fourier_ellipsoid";
    case fourier_kind::shift: return "fourier_shift";
  }
  return "fourier";
}

const char* param_name(fourier_kind k) {
  switch (k) {
    case fourier_kind::gaussian: return "sigma";
    case fourier_kind::shift: return "shift";
    default: return "size";
  }
}

bool is_complex_dt(dtype t) { return t == dtype::complex64 || t == dtype::complex128; }

/// SciPy's _get_output_fourier (filters) or _get_output_fourier_complex (shift) for a dtype or None:
/// the dtype of the new output array. @throws cusci::runtime_error "output type not supported".
dtype result_dtype(fourier_kind kind, dtype in, const std::optional<dtype>& given, const char* fn) {
  const bool shift = kind == fourier_kind::shift;
  if (!given) {
    if (is_complex_dt(in)) return in;
    if (!shift && in == dtype::float32) return in;
    return shift ? dtype::complex128 : dtype::float64;
  }
  const dtype o = *given;
  const bool ok = is_complex_dt(o) || (!shift && (o == dtype::float32 || o == dtype::float64));
  if (!ok)
    throw runtime_error(fname(fn) + ": output type not supported: the output dtype must be " +
                        std::string(shift ? "complex64 or complex128" : "float32, float64, complex64 or complex128") +
                        ", got " + std::string(dtype_name(o)));
  return o;
}

/// The C loops' checks (NI_FourierFilter / NI_FourierShift), made only when an element is filtered:
/// the input dtype, and the output dtype for that input. @throws cusci::runtime_error "data type not
/// supported".
void check_loop_dtypes(fourier_kind kind, dtype in, dtype out, const char* fn) {
  if (in == dtype::float16)
    throw runtime_error(fname(fn) + ": data type not supported: input dtype float16 (expected bool, an integer "
                                    "dtype, float32, float64, complex64 or complex128)");
  const bool ok = kind == fourier_kind::shift || is_complex_dt(in)
                      ? is_complex_dt(out)
                      : (is_complex_dt(out) || out == dtype::float32 || out == dtype::float64);
  if (!ok)
    throw runtime_error(fname(fn) + ": data type not supported: output dtype " + std::string(dtype_name(out)) +
                        " for an input of dtype " + std::string(dtype_name(in)) + " (expected " +
                        (kind == fourier_kind::shift || is_complex_dt(in)
                             ? "complex64 or complex128"
                             : "float32, float64, complex64 or complex128") +
                        ")");
}

ndarray fourier_run(fourier_kind kind, const ndarray& input, const per_axis<double>& param,
                    const fourier_options& opts) {
  const char* fn = kind_name(kind);
  const int ndim = input.ndim();
  if (kind == fourier_kind::ellipsoid && ndim > 3)
    throw not_implemented_error(fname(fn) + ": Only 1d, 2d and 3d inputs are supported, got an input of " +
                                std::to_string(ndim) + " dimensions");
  // _get_output_fourier[_complex]
  const dtype od = result_dtype(kind, input.dtype(), opts.output.is_array() ? std::nullopt : opts.output.dtype(), fn);
  if (opts.output.is_array()) {
    detail::check_output_shape(opts.output, input.shape(), fn);
    cusci::detail::check_same_device(fname(fn).c_str(), {&input, &opts.output.array()});
  }
  const dtype out_dt = opts.output.is_array() ? opts.output.array().dtype() : od;
  // The input's device is made current only for allocations and launches (all checks come first).
  std::optional<device_guard> guard;
  const auto new_output = [&] {
    if (!guard) guard.emplace(input.device());
    return cusci::empty(input.shape(), out_dt);
  };
  const std::int64_t size = cusci::detail::checked_size(input.shape(), fname(fn), itemsize(out_dt));
  // fourier_ellipsoid returns an empty output before looking at axis and size (SciPy, gh-17270).
  if (kind == fourier_kind::ellipsoid && size == 0)
    return opts.output.is_array() ? opts.output.array() : new_output();
  const int ax = detail::normalize_axis(opts.axis, ndim, fn, "axis");
  // _normalize_sequence
  std::vector<double> params;
  if (param.is_scalar) {
    params.assign(static_cast<std::size_t>(ndim), param.values.front());
  } else {
    if (param.values.size() != static_cast<std::size_t>(ndim))
      throw runtime_error(fname(fn) + ": sequence argument must have length equal to input rank: " +
                          param_name(kind) + " has " + std::to_string(param.values.size()) +
                          " values, the input has " + std::to_string(ndim) + " dimensions");
    params = param.values;
  }
  if (size == 0) return opts.output.is_array() ? opts.output.array() : new_output();
  check_loop_dtypes(kind, input.dtype(), out_dt, fn);
  if (!opts.output.is_array()) {
    ndarray out = new_output();
    detail::fourier_apply(kind, input, out, params, opts.n, ax);
    return out;
  }
  ndarray out = opts.output.array();
  for (int d = 0; d < ndim; ++d)
    if (out.shape()[static_cast<std::size_t>(d)] > 1 && out.strides()[static_cast<std::size_t>(d)] == 0)
      throw value_error(fname(fn) + ": the output array has a zero stride along axis " + std::to_string(d) +
                        " (several elements share one location)");
  guard.emplace(input.device());
  if (detail::may_share_memory(out, input) && !detail::same_view(out, input)) {
    // The output overlaps the input in another way: compute into a temporary, then copy.
    ndarray tmp = new_output();
    detail::fourier_apply(kind, input, tmp, params, opts.n, ax);
    return detail::deliver_output(tmp, opts.output, fn);
  }
  detail::fourier_apply(kind, input, out, params, opts.n, ax);
  return out;
}

}  // namespace

ndarray fourier_gaussian(const ndarray& input, const per_axis<double>& sigma, const fourier_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::fourier_gaussian");
  return fourier_run(fourier_kind::gaussian, input, sigma, opts);
}

ndarray fourier_uniform(const ndarray& input, const per_axis<double>& size, const fourier_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::fourier_uniform");
  return fourier_run(fourier_kind::uniform, input, size, opts);
}

ndarray fourier_ellipsoid(const ndarray& input, const per_axis<double>& size, const fourier_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::fourier_ellipsoid");
  return fourier_run(fourier_kind::ellipsoid, input, size, opts);
}

ndarray fourier_shift(const ndarray& input, const per_axis<double>& shift, const fourier_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::fourier_shift");
  return fourier_run(fourier_kind::shift, input, shift, opts);
}

}  // namespace cusci::ndimage
