#pragma once
/// @file detail/shape.hpp
/// Shape and axis helpers shared by every module (host only): shape text for messages, the
/// "function: " message prefix, axis normalization, checked shape products, checked host sizes
/// (against int64 and the host's memory, before a buffer is allocated or a loop runs), and the
/// [outer, axis, inner] line view with the move-the-axis-last permutations. Written once here; modules
/// call these instead of keeping their own copies.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::detail {

/// NumPy's tuple text of a shape: `(3, 4)`, `(5,)`, `()`. Any range of integers (shape_t,
/// std::array<std::int64_t, 2>, std::vector<int>, ...).
template <class Shape>
std::string shape_str(const Shape& s) {
  std::string out = "(";
  std::size_t i = 0;
  for (auto d : s) {
    if (i++) out += ", ";
    out += std::to_string(static_cast<long long>(d));
  }
  if (i == 1) out += ",";
  return out + ")";
}

/// The prefix every error message starts with: `"<function>: "`.
inline std::string msg(std::string_view function, std::string_view text) {
  std::string out(function);
  out += ": ";
  out += text;
  return out;
}

/// `axis` in [0, ndim): negative axes count from the end.
/// @throws cusci::index_error "<function>: axis A is out of bounds for array of dimension N" (NumPy's
/// AxisError text).
inline int normalize_axis(int axis, int ndim, std::string_view function) {
  CUSCI_EXPECTS(axis >= -ndim && axis < ndim, index_error,
                msg(function, "axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                                  std::to_string(ndim)));
  return axis < 0 ? axis + ndim : axis;
}

/// Each axis of `axes` normalized; repeated axes are refused (NumPy: "repeated axis").
/// @throws cusci::index_error for an axis out of bounds; cusci::value_error for a repeated axis.
inline std::vector<int> normalize_axes(const std::vector<int>& axes, int ndim, std::string_view function) {
  std::vector<int> out;
  out.reserve(axes.size());
  std::vector<bool> seen(static_cast<std::size_t>(ndim > 0 ? ndim : 0), false);
  for (int a : axes) {
    const int n = normalize_axis(a, ndim, function);
    CUSCI_EXPECTS(!seen[static_cast<std::size_t>(n)], value_error, msg(function, "repeated axis"));
    seen[static_cast<std::size_t>(n)] = true;
    out.push_back(n);
  }
  return out;
}

/// NumPy's limit on the number of dimensions (NPY_MAXDIMS).
inline constexpr std::size_t max_ndim = 64;

/// The number of elements of `shape`: 0 when a dimension is 0. Checked before anything is allocated,
/// as NumPy checks: the product of the non-zero dimensions times `itemsize` must fit in int64 even
/// when another dimension is 0 (NumPy refuses `np.empty((2**62, 2**62, 0))` too).
/// @throws cusci::value_error for more than 64 dimensions, a negative dimension, or a product that
/// does not fit ("array is too big", NumPy's text).
inline std::int64_t checked_size(const shape_t& shape, std::string_view function, std::size_t itemsize = 1) {
  CUSCI_EXPECTS(shape.size() <= max_ndim, value_error,
                msg(function, "maximum supported dimension for an ndarray is 64, found " + std::to_string(shape.size())));
  bool zero = false;
  for (std::int64_t d : shape) {
    CUSCI_EXPECTS(d >= 0, value_error,
                  msg(function, "negative dimensions are not allowed, got shape " + shape_str(shape)));
    if (d == 0) zero = true;
  }
  const std::int64_t limit =
      std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(itemsize ? itemsize : 1);
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d == 0) continue;
    CUSCI_EXPECTS(n <= limit / d, value_error, msg(function, "array is too big, shape " + shape_str(shape)));
    n *= d;
  }
  return zero ? 0 : n;
}

/// `a * b` for non-negative sizes. @throws cusci::value_error naming `function` on int64 overflow.
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, std::string_view function) {
  CUSCI_EXPECTS(a >= 0 && b >= 0, value_error, msg(function, "negative size"));
  CUSCI_EXPECTS(a == 0 || b <= std::numeric_limits<std::int64_t>::max() / a, value_error,
                msg(function, "size " + std::to_string(a) + " * " + std::to_string(b) + " overflows int64"));
  return a * b;
}

/// The host's physical memory in bytes (0 when unknown). Defined in core/src/io/host_array.cpp.
std::size_t host_memory_bytes() noexcept;

/// `count` items of `itemsize` bytes that a host buffer (or a host loop building one) is about to
/// hold, checked before anything is allocated or looped over, as NumPy checks an allocation:
/// @throws cusci::value_error naming `function` and `what` for a negative count or a byte size above
///         2^63 - 1 ("array is too big", NumPy's ValueError); cusci::out_of_memory ("unable to
///         allocate", NumPy's MemoryError) for more bytes than the host's physical memory.
/// @return `count`.
inline std::int64_t checked_host_count(std::int64_t count, std::size_t itemsize, std::string_view function,
                                       std::string_view what) {
  CUSCI_EXPECTS(count >= 0, value_error, msg(function, std::string(what) + ": negative size " + std::to_string(count)));
  const std::size_t isz = itemsize ? itemsize : 1;
  CUSCI_EXPECTS(static_cast<std::uint64_t>(count) <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / isz,
                value_error, msg(function, std::string(what) + ": array is too big (" + std::to_string(count) + " x " +
                                               std::to_string(isz) + " bytes)"));
  const std::size_t bytes = static_cast<std::size_t>(count) * isz, phys = host_memory_bytes();
  if (phys != 0 && bytes > phys)
    throw out_of_memory(msg(function, std::string(what) + ": unable to allocate " + std::to_string(bytes) + " bytes (" +
                                          std::to_string(count) + " x " + std::to_string(isz) + "): more than the host's " +
                                          std::to_string(phys) + " bytes of memory"),
                        bytes, 0, phys, 0);
  return count;
}

/// `a * b` for non-negative sizes, saturating at 2^63 - 1 instead of overflowing (for sizes that
/// are then checked against a limit, such as checked_host_count).
inline std::int64_t saturating_mul(std::int64_t a, std::int64_t b) noexcept {
  if (a <= 0 || b <= 0) return 0;
  return b > std::numeric_limits<std::int64_t>::max() / a ? std::numeric_limits<std::int64_t>::max() : a * b;
}

/// A C-ordered shape seen as [outer, length, inner] around `axis` (already normalized): `outer` is
/// the product of the dimensions before it, `inner` of those after it. In a C-contiguous array the
/// element (o, i, j) of the view is at flat index (o * length + i) * inner + j.
struct line_view {
  std::int64_t outer = 1;
  std::int64_t length = 1;
  std::int64_t inner = 1;
  /// Number of lines (outer * inner).
  std::int64_t lines() const noexcept { return outer * inner; }
};

inline line_view line_view_of(const shape_t& shape, int axis) {
  line_view v;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d < axis) v.outer *= shape[static_cast<std::size_t>(d)];
    else if (d == axis) v.length = shape[static_cast<std::size_t>(d)];
    else v.inner *= shape[static_cast<std::size_t>(d)];
  }
  return v;
}

/// The permutation of [0, ndim) that moves `axis` to the end, the others in order.
inline std::vector<int> axis_last_perm(int ndim, int axis) {
  std::vector<int> p;
  p.reserve(static_cast<std::size_t>(ndim));
  for (int d = 0; d < ndim; ++d)
    if (d != axis) p.push_back(d);
  p.push_back(axis);
  return p;
}

/// The inverse of permutation `p`.
inline std::vector<int> inverse_perm(const std::vector<int>& p) {
  std::vector<int> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) q[static_cast<std::size_t>(p[i])] = static_cast<int>(i);
  return q;
}

/// A view of `a` with `axis` (normalized) moved last; no copy.
inline ndarray move_axis_last(const ndarray& a, int axis) {
  return axis == a.ndim() - 1 ? a : a.transpose(axis_last_perm(a.ndim(), axis));
}

/// The inverse of move_axis_last: a view of `a` (whose last axis came from `axis`) with that axis put
/// back at `axis`.
inline ndarray move_last_axis_to(const ndarray& a, int axis) {
  return axis == a.ndim() - 1 ? a : a.transpose(inverse_perm(axis_last_perm(a.ndim(), axis)));
}

}  // namespace cusci::detail
