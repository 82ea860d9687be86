#pragma once
/// @file reduction.hpp
/// Reductions over all axes or a chosen set of axes, with NumPy's result dtypes.
/// Asynchronous on the current stream; the result is a device array (0-d for a full reduction;
/// read it with `.item<T>()`, which synchronizes).

#include <initializer_list>
#include <optional>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci {

/// Which axes to reduce (NumPy's `axis=`): all (default, `axis=None`), one (`1`, `-1`) or several
/// (`{0, 2}`). Negative values count from the end. A repeated axis throws cusci::value_error, an
/// out-of-range one cusci::index_error (when the reduction runs).
///
/// Trap: `{}` is NOT NumPy's `axis=()`. `cusci::sum(a, {})` picks the default constructor and reduces
/// ALL axes (like `axis=None`). To reduce no axis (NumPy's `axis=()`, which returns the elements
/// converted to the result dtype), write `axis_arg::none()` or pass an empty `std::vector<int>`.
struct axis_arg {
  /// All axes (`axis=None`).
  axis_arg() = default;
  axis_arg(int axis) : axes(std::vector<int>{axis}) {}
  axis_arg(std::initializer_list<int> list) : axes(std::vector<int>(list)) {}
  axis_arg(std::vector<int> list) : axes(std::move(list)) {}
  /// No axis (NumPy's `axis=()`): an empty axis list.
  static axis_arg none() { return axis_arg(std::vector<int>{}); }
  std::optional<std::vector<int>> axes;  ///< empty optional = all axes; empty vector = no axis
};

/// Options shared by the reductions (NumPy's keyword arguments).
struct reduce_options {
  /// Accumulator and result dtype (NumPy's `dtype=`); default as NumPy. Elements are cast to it
  /// first, as NumPy does.
  std::optional<cusci::dtype> dtype{};
  /// Keep reduced axes with length 1 (NumPy's `keepdims`).
  bool keepdims = false;
};

/// Sum of the elements over `axis`.
/// @param a     input [any shape], any dtype, any layout.
/// @param axis  axes to reduce (see axis_arg; `{}` means all axes).
/// @param opts  result dtype and keepdims.
/// @return the reduced shape (a 0-d array for a full reduction; reduced axes kept as 1 with keepdims).
///         Default dtype: bool and signed integers narrower than 64 bits give int64, unsigned ones
///         uint64, others keep their dtype. The sum of an empty selection is 0.
/// Asynchronous on the current stream; never synchronizes.
/// @throws cusci::index_error for an axis out of range; cusci::value_error for a repeated axis;
///         cusci::out_of_memory.
/// NumPy: `np.sum(a, axis, dtype, keepdims=...)` (cusci mirrors NumPy/CuPy, not SciPy). Deviations:
/// no `out=`, `initial=` or `where=`; float32 accumulates in float64 (at least as accurate as NumPy's
/// pairwise sum, last bits may differ).
ndarray sum(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Arithmetic mean over `axis`; parameters, shape and stream behaviour as `sum`.
/// @return integer and bool inputs give float64; float32 accumulates in float64 and returns float32;
///         otherwise the input dtype (or `opts.dtype`). The mean of an empty selection is NaN.
/// @throws cusci::index_error for an axis out of range; cusci::value_error for a repeated axis;
///         cusci::out_of_memory.
/// NumPy: `np.mean`. Deviations: no `out=`/`where=`; an empty selection gives NaN without NumPy's
/// RuntimeWarning.
ndarray mean(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Minimum / maximum over `axis`; parameters, shape and stream behaviour as `sum`; the result keeps
/// the input dtype (or `opts.dtype`). NaN propagates; complex values are ordered lexicographically.
/// @throws cusci::value_error for a zero-size reduction ("zero-size array to reduction operation
///         minimum which has no identity", as NumPy) or a repeated axis; cusci::index_error for an
///         axis out of range; cusci::out_of_memory.
/// NumPy: `np.min` / `np.max` (`amin` / `amax`). Deviations: no `out=`, `initial=` or `where=`.
ndarray min(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
ndarray max(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});

}  // namespace cusci
