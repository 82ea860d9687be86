#pragma once
// Argument handling shared by the host wrappers of cusci::ndimage's filters (SciPy's
// _ni_support: output dtype, axes, per-axis sequences). Host C++ only.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"

namespace cusci::ndimage::detail {

/// "cusci::ndimage::<fn>".
std::string fname(const char* fn);

/// A double as Python prints it for messages ("2.0", "-1.5").
std::string num(double v);

/// `axis` in [0, ndim). @throws cusci::index_error "<fn>: <param> A is out of bounds for array of
/// dimension N".
int normalize_axis(int axis, int ndim, const char* fn, const char* param);

/// SciPy's _get_output for a dtype argument (or None). With a complex input, a real output dtype is
/// promoted to complex (`promote_complex`) or refused. A complex output for a real input is refused.
/// @throws cusci::type_error.
dtype output_dtype(const ndarray& in, std::optional<dtype> out, const char* fn, bool promote_complex = true);

/// SciPy's _check_axes: all axes when not given; each in [-ndim, ndim) and unique, normalized.
/// @throws cusci::value_error "specified axis: A is out of range" / "axes must be unique" (SciPy's
/// ValueError texts).
std::vector<int> check_axes(const std::optional<std::vector<int>>& axes, int ndim, const char* fn);

/// SciPy's _normalize_sequence: a scalar repeated `n` times, or exactly `n` values.
/// @throws cusci::value_error when a sequence's length is not `n`.
template <class T>
std::vector<T> expand(const per_axis<T>& v, std::size_t n, const char* fn, const char* param) {
  if (v.is_scalar) return std::vector<T>(n, v.values.front());
  if (v.values.size() != n)
    throw value_error(fname(fn) + ": " + param + " must be a single value or have one value per filtered axis (" +
                      std::to_string(n) + "), got " + std::to_string(v.values.size()) + " values");
  return v.values;
}

/// Refuses dtypes SciPy's filters do not support (float16: "array type not supported").
/// @throws cusci::type_error naming `what`.
void check_real_kernel_dtype(dtype dt, const char* fn, const char* what);

/// Largest filter window accepted (the kernels count taps in int).
inline constexpr std::int64_t max_filter_size = std::int64_t{1} << 30;

/// A window length: at least 1 (SciPy: "incorrect filter size") and at most max_filter_size.
/// @throws cusci::value_error.
void check_size(std::int64_t size, const char* fn);

/// SciPy's origin test of a window of `size`: size / 2 + origin in [0, size).
/// @throws cusci::value_error "invalid origin".
void check_origin(std::int64_t size, std::int64_t origin, const char* fn);

}  // namespace cusci::ndimage::detail
