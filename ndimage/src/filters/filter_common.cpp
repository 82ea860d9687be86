#include "filters/filter_common.hpp"

#include <cstdint>
#include <string>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"

namespace cusci::ndimage::detail {

std::string fname(const char* fn) { return std::string("cusci::ndimage::") + fn; }

std::string num(double v) {
  std::string s = std::to_string(v);
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.push_back('0');
  }
  return s;
}

int normalize_axis(int axis, int ndim, const char* fn, const char* param) {
  if (axis < -ndim || axis >= ndim)
    throw index_error(cusci::detail::msg(fname(fn), std::string(param) + " " + std::to_string(axis) +
                                                        " is out of bounds for array of dimension " +
                                                        std::to_string(ndim)));
  return cusci::detail::normalize_axis(axis, ndim, fname(fn));
}

dtype result_dtype(const ndarray& in, std::optional<dtype> out, bool complex_output) {
  if (!out) return complex_output && !is_complex(in.dtype()) ? promote_types(in.dtype(), dtype::complex64) : in.dtype();
  if (complex_output && !is_complex(*out)) return promote_types(*out, dtype::complex64);
  return *out;
}

dtype result_dtype(const ndarray& in, const output_arg& out, const char* fn, bool complex_output) {
  if (out.is_array()) {
    if (complex_output && !is_complex(out.array().dtype()))
      throw runtime_error(fname(fn) + ": output must have complex dtype: the output array has dtype " +
                          std::string(dtype_name(out.array().dtype())) + " for a complex result");
    return out.array().dtype();
  }
  return result_dtype(in, out.dtype(), complex_output);
}

namespace {
/// A real output for a complex input, or a complex one for a real input.
void check_complex_pair(dtype in, dtype out, const char* fn) {
  if (is_complex(in) && !is_complex(out))
    throw runtime_error(fname(fn) + ": output must have complex dtype for an input of dtype " +
                        std::string(dtype_name(in)) + ", got " + std::string(dtype_name(out)));
  if (!is_complex(in) && is_complex(out))
    throw runtime_error(fname(fn) + ": array type " + std::string(dtype_name(out)) +
                        " not supported: a complex output needs a complex input (or complex weights), got input "
                        "dtype " + std::string(dtype_name(in)));
}
}  // namespace

void check_kernel_dtypes(dtype in, dtype out, const char* fn) {
  check_real_kernel_dtype(in, fn, "input");
  check_real_kernel_dtype(out, fn, "output");
  check_complex_pair(in, out, fn);
}

dtype output_dtype(const ndarray& in, std::optional<dtype> out, const char* fn, bool promote_complex) {
  const dtype od = result_dtype(in, out, promote_complex && is_complex(in.dtype()));
  check_complex_pair(in.dtype(), od, fn);
  return od;
}

dtype output_dtype(const ndarray& in, const output_arg& out, const char* fn, bool promote_complex) {
  const dtype od = result_dtype(in, out, fn, promote_complex && is_complex(in.dtype()));
  check_complex_pair(in.dtype(), od, fn);
  return od;
}

void check_output_shape(const output_arg& out, const shape_t& shape, const char* fn) {
  if (out.is_array() && out.array().shape() != shape)
    throw runtime_error(fname(fn) + ": output shape not correct: expected " + cusci::detail::shape_str(shape) +
                        ", got " + cusci::detail::shape_str(out.array().shape()));
}

ndarray deliver_output(ndarray result, const output_arg& out, const char* fn) {
  if (!out.is_array()) return result;
  check_output_shape(out, result.shape(), fn);
  ndarray dst = out.array();
  cusci::detail::copy_cast(result, dst);
  return dst;
}

ndarray make_output(const output_arg& out, const shape_t& shape, dtype od, int device, const char* fn) {
  if (!out.is_array()) return cusci::empty(shape, od);
  check_output_shape(out, shape, fn);
  if (out.array().device() != device)
    throw value_error(fname(fn) + ": the output array must live on the input's device " + std::to_string(device) +
                      ", got device " + std::to_string(out.array().device()));
  return out.array();
}

namespace {
/// [lo, hi): the bytes the elements of `a` occupy.
void byte_extent(const ndarray& a, std::uintptr_t& lo, std::uintptr_t& hi) {
  std::int64_t neg = 0, pos = 0;
  for (int d = 0; d < a.ndim(); ++d) {
    const std::int64_t span = (a.shape()[static_cast<std::size_t>(d)] - 1) * a.strides()[static_cast<std::size_t>(d)];
    if (span < 0) neg += span;
    else pos += span;
  }
  const auto base = reinterpret_cast<std::uintptr_t>(a.data());
  lo = base + static_cast<std::uintptr_t>(neg);  // wraps as intended for a negative extent
  hi = base + static_cast<std::uintptr_t>(pos) + a.itemsize();
}
}  // namespace

bool may_share_memory(const ndarray& a, const ndarray& b) {
  if (a.size() == 0 || b.size() == 0) return false;
  std::uintptr_t alo, ahi, blo, bhi;
  byte_extent(a, alo, ahi);
  byte_extent(b, blo, bhi);
  return alo < bhi && blo < ahi;
}

bool same_view(const ndarray& a, const ndarray& b) {
  return a.data() == b.data() && a.dtype() == b.dtype() && a.shape() == b.shape() && a.strides() == b.strides();
}

void copy_into(const ndarray& src, const ndarray& dst) {
  if (dst.size() == 0 || same_view(src, dst)) return;
  ndarray d = dst;
  if (may_share_memory(src, dst)) {
    cusci::detail::copy_cast(src.copy(), d);
    return;
  }
  cusci::detail::copy_cast(src, d);
}

void check_mode(mode m, const char* fn) {
  switch (m) {
    case mode::reflect:
    case mode::constant:
    case mode::nearest:
    case mode::mirror:
    case mode::wrap:
    case mode::grid_mirror:
    case mode::grid_constant:
    case mode::grid_wrap: return;
  }
  throw runtime_error(fname(fn) + ": boundary mode not supported: mode value " +
                      std::to_string(static_cast<int>(m)) + " is not one of cusci::ndimage::mode's values");
}

std::vector<int> check_axes(const std::optional<std::vector<int>>& axes, int ndim, const char* fn) {
  std::vector<int> out;
  if (!axes) {
    for (int d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  for (int a : *axes) {
    if (a < -ndim || a > ndim - 1)
      throw value_error(fname(fn) + ": specified axis: " + std::to_string(a) + " is out of range");
    out.push_back(a < 0 ? a + ndim : a);
  }
  std::vector<bool> seen(static_cast<std::size_t>(ndim), false);
  for (int a : out) {
    if (seen[static_cast<std::size_t>(a)]) throw value_error(fname(fn) + ": axes must be unique");
    seen[static_cast<std::size_t>(a)] = true;
  }
  return out;
}

void check_real_kernel_dtype(dtype dt, const char* fn, const char* what) {
  if (dt == dtype::float16)
    throw runtime_error(fname(fn) + ": array type float16 not supported (" + what + " dtype float16)");
}

void check_size(std::int64_t size, const char* fn) {
  if (size < 1)
    throw runtime_error(fname(fn) + ": incorrect filter size: size must be >= 1, got " + std::to_string(size));
  if (size > max_filter_size)
    throw value_error(fname(fn) + ": size must be at most " + std::to_string(max_filter_size) + ", got " +
                      std::to_string(size));
}

void check_origin(std::int64_t size, std::int64_t origin, const char* fn) {
  if (size / 2 + origin < 0 || size / 2 + origin >= size)
    throw value_error(fname(fn) + ": invalid origin: size // 2 + origin must lie in [0, size), got size " +
                      std::to_string(size) + " and origin " + std::to_string(origin));
}

}  // namespace cusci::ndimage::detail
