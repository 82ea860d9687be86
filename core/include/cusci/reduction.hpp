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

/// Which axes to reduce: all (default), one (`1`, `-1`) or several (`{0, 2}`). Negative values count
/// from the end; repeated or out-of-range axes throw cusci::index_error / value_error.
struct axis_arg {
  axis_arg() = default;
  axis_arg(int axis) : axes(std::vector<int>{axis}) {}
  axis_arg(std::initializer_list<int> list) : axes(std::vector<int>(list)) {}
  axis_arg(std::vector<int> list) : axes(std::move(list)) {}
  std::optional<std::vector<int>> axes;  ///< empty optional = all axes
};

struct reduce_options {
  /// Accumulator and result dtype (NumPy's `dtype=`); default as NumPy.
  std::optional<cusci::dtype> dtype{};
  /// Keep reduced axes with length 1 (NumPy's `keepdims`).
  bool keepdims = false;
};

/// `np.sum`. Default dtype: bool and signed integers smaller than 64 bits give int64, unsigned give
/// uint64, others keep their dtype. The sum of an empty selection is 0.
ndarray sum(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// `np.mean`: integer and bool give float64; float32 accumulates in float64 and returns float32.
/// The mean of an empty selection is NaN (NumPy warns; cusci does not).
ndarray mean(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// `np.min` / `np.max` (`amin`/`amax`): same dtype; NaN propagates; complex ordered lexicographically.
/// @throws cusci::value_error for a zero-size reduction ("zero-size array to reduction operation
///         minimum which has no identity"), as NumPy.
ndarray min(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
ndarray max(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});

}  // namespace cusci
