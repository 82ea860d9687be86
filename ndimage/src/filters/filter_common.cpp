#include "filters/filter_common.hpp"

#include <string>

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

dtype output_dtype(const ndarray& in, std::optional<dtype> out, const char* fn, bool promote_complex) {
  if (is_complex(in.dtype())) {
    if (!out) return in.dtype();
    if (is_complex(*out)) return *out;
    if (!promote_complex)
      throw type_error(fname(fn) + ": output dtype must be complex for an input of dtype " +
                       std::string(dtype_name(in.dtype())) + ", got " + std::string(dtype_name(*out)));
    return promote_types(*out, dtype::complex64);
  }
  const dtype o = out.value_or(in.dtype());
  if (is_complex(o))
    throw type_error(fname(fn) + ": output dtype " + std::string(dtype_name(o)) +
                     " is not supported for an input of real dtype " + std::string(dtype_name(in.dtype())) +
                     " (expected a real output dtype)");
  return o;
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
    throw type_error(fname(fn) + ": " + what + " dtype float16 is not supported (SciPy: array type not supported)");
}

void check_size(std::int64_t size, const char* fn) {
  if (size < 1) throw value_error(fname(fn) + ": incorrect filter size: size must be >= 1, got " + std::to_string(size));
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
