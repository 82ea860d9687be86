#pragma once
/// @file reduction.hpp
/// Reductions over all axes or a chosen set of axes, with NumPy's result dtypes.
/// Asynchronous on the current stream; the result is a device array (0-d for a full reduction;
/// read it with `.item<T>()`, which synchronizes).

#include <initializer_list>
#include <optional>
#include <utility>
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

/// Options of var / std / nanvar / nanstd (NumPy's keyword arguments).
struct var_options {
  /// Dtype of the computation's result (NumPy's `dtype=`): complex dtypes give their real dtype.
  /// Default: float64 for bool and integer inputs, else the input's real dtype.
  std::optional<cusci::dtype> dtype{};
  /// Delta degrees of freedom: the divisor is `N - ddof` (NumPy's `ddof`, default 0).
  double ddof = 0;
  /// Keep reduced axes with length 1 (NumPy's `keepdims`).
  bool keepdims = false;
};

/// Options of the reductions that take no dtype (any, all, count_nonzero, ptp, argmin, ...).
struct keepdims_options {
  /// Keep reduced axes with length 1 (NumPy's `keepdims`).
  bool keepdims = false;
};

// Common to every reduction below:
//  - `a`: input [any shape], any layout (C, F, strided, negative strides, broadcast zero strides);
//  - `axis`: axes to reduce (see axis_arg; the default reduces all axes);
//  - result: `a`'s shape without the reduced axes (kept as length 1 with keepdims); a 0-d array for a
//    full reduction (read it with `.item<T>()`, which synchronizes);
//  - asynchronous on the current stream unless stated otherwise (never synchronizes);
//  - @throws cusci::index_error for an axis out of range (NumPy's AxisError), cusci::value_error for a
//    repeated axis, cusci::out_of_memory;
//  - no `out=`, `initial=` or `where=` arguments;
//  - results are deterministic for a given shape and device (no atomics).
// Accumulation: integer sums/products in int64/uint64 (wrapping like NumPy's), float16/float32/float64
// sums in float64, complex in complex128; float results are therefore at least as accurate as NumPy's
// pairwise float32 sums (last bits may differ).

/// Sum of the elements over `axis`.
/// @param a     input [any shape], any dtype, any layout.
/// @param axis  axes to reduce (see axis_arg; `{}` means all axes).
/// @param opts  result dtype and keepdims.
/// @return default dtype: bool and signed integers narrower than 64 bits give int64, unsigned ones
///         uint64, others keep their dtype (float16 gives float16). With `opts.dtype` the elements are
///         cast to it first. The sum of an empty selection is 0.
/// NumPy: `np.sum(a, axis, dtype, keepdims=...)`.
ndarray sum(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Product of the elements over `axis`; dtypes as `sum`; the product of an empty selection is 1.
/// NumPy: `np.prod`.
ndarray prod(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Arithmetic mean over `axis`.
/// @return integer and bool inputs give float64; float16 gives float16 and float32 gives float32
///         (both accumulated in float64); otherwise the input dtype (or `opts.dtype`). The mean of an
///         empty selection is NaN (no RuntimeWarning).
/// NumPy: `np.mean`.
ndarray mean(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Minimum / maximum over `axis`; the result keeps the input dtype (or `opts.dtype`, to which the
/// elements are cast first). NaN propagates; complex values are ordered lexicographically.
/// @throws cusci::value_error for a zero-size reduction ("zero-size array to reduction operation
///         minimum which has no identity", as NumPy), besides the common errors.
/// NumPy: `np.min` / `np.max` (`amin` / `amax`).
ndarray min(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
ndarray max(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Peak to peak, `max - min`, over `axis`, in the input dtype (integers wrap as NumPy's subtraction:
/// ptp of int8 [-128, 127] is -1). NaN propagates.
/// @throws cusci::type_error for bool input (NumPy: boolean subtract is not supported);
///         cusci::value_error for a zero-size reduction ("zero-size array to reduction operation
///         maximum which has no identity"), besides the common errors.
/// NumPy: `np.ptp(a, axis, keepdims=...)`.
ndarray ptp(const ndarray& a, axis_arg axis = {}, keepdims_options opts = {});

/// Index of the first minimum / maximum: over the flattened (C-order) array when `axis` is empty,
/// else along `axis`. NaN counts as the extreme (the first NaN's index is returned), as NumPy.
/// Complex values are ordered lexicographically.
/// @param axis  an axis in [-ndim, ndim), or none (flattened).
/// @return int64, `a`'s shape without `axis` (a 0-d array when flattened; with keepdims every reduced
///         axis kept as 1).
/// @throws cusci::value_error for an empty selection ("attempt to get argmax of an empty sequence"),
///         cusci::index_error for an axis out of range; cusci::out_of_memory.
/// Asynchronous (a non-C-contiguous input reduced over all axes is copied to C order first).
/// NumPy: `np.argmin` / `np.argmax` (no `out=`).
ndarray argmin(const ndarray& a, std::optional<int> axis = {}, keepdims_options opts = {});
ndarray argmax(const ndarray& a, std::optional<int> axis = {}, keepdims_options opts = {});

/// Sum / product over `axis` treating NaN as 0 / 1; dtypes as `sum` (integers: same as `sum`/`prod`).
/// NumPy: `np.nansum` / `np.nanprod`.
ndarray nansum(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
ndarray nanprod(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Mean of the non-NaN elements over `axis`; dtypes as `mean`; an all-NaN (or empty) selection gives
/// NaN (no RuntimeWarning). NumPy: `np.nanmean`.
ndarray nanmean(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Minimum / maximum ignoring NaN; an all-NaN selection gives NaN (without NumPy's RuntimeWarning).
/// Integer and bool inputs behave as `min` / `max`.
/// @throws as `min` / `max`.
/// NumPy: `np.nanmin` / `np.nanmax` (complex: NaN elements skipped; NumPy replaces them by +-inf).
ndarray nanmin(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
ndarray nanmax(const ndarray& a, axis_arg axis = {}, reduce_options opts = {});
/// Index of the first minimum / maximum ignoring NaN; shapes and errors as `argmin` / `argmax`.
/// @throws cusci::value_error "All-NaN slice encountered" when a selection holds only NaN (as NumPy
///         2), besides argmin's errors.
/// Synchronizes (to check for all-NaN selections) when the input is float or complex.
/// NumPy: `np.nanargmin` / `np.nanargmax`.
ndarray nanargmin(const ndarray& a, std::optional<int> axis = {}, keepdims_options opts = {});
ndarray nanargmax(const ndarray& a, std::optional<int> axis = {}, keepdims_options opts = {});

/// Variance / standard deviation over `axis`: `sum(|x - mean|^2) / (N - ddof)`, one pass over the
/// data (shifted sums per thread, merged with Chan et al.'s pairwise update), in float64.
/// @return float64 for bool and integer inputs, the real dtype of the input otherwise (complex64 ->
///         float32, float16 -> float16), or the real dtype of `opts.dtype`. `N - ddof <= 0` gives inf
///         (or NaN for 0 / 0), as NumPy, without its RuntimeWarning.
/// NumPy: `np.var` / `np.std` (`ddof`, `keepdims`, `dtype`; no `mean=`, `correction=`).
ndarray var(const ndarray& a, axis_arg axis = {}, var_options opts = {});
ndarray std(const ndarray& a, axis_arg axis = {}, var_options opts = {});
/// As var / std over the non-NaN elements; a selection with `count - ddof <= 0` gives NaN.
/// NumPy: `np.nanvar` / `np.nanstd`.
ndarray nanvar(const ndarray& a, axis_arg axis = {}, var_options opts = {});
ndarray nanstd(const ndarray& a, axis_arg axis = {}, var_options opts = {});

/// Whether any / all elements over `axis` are non-zero (NaN counts as non-zero); bool result.
/// NumPy: `np.any` / `np.all`.
ndarray any(const ndarray& a, axis_arg axis = {}, keepdims_options opts = {});
ndarray all(const ndarray& a, axis_arg axis = {}, keepdims_options opts = {});
/// Number of non-zero elements over `axis`; int64 (a 0-d array for all axes).
/// NumPy: `np.count_nonzero(a, axis, keepdims=...)` (NumPy returns a Python int for axis=None).
ndarray count_nonzero(const ndarray& a, axis_arg axis = {}, keepdims_options opts = {});

/// Cumulative sum / product along `axis` (none: over the flattened C-order array, 1-D result).
/// @param a      input [any shape], any dtype, any layout.
/// @param axis   an axis in [-ndim, ndim), or none.
/// @param dtype  result and accumulation dtype (elements are cast to it first); default as `sum`:
///               bool and narrow signed integers give int64, narrow unsigned ones uint64, others keep.
/// @return a new C-contiguous array of `a`'s shape (or (a.size(),) without axis).
/// Algorithm: a single-pass decoupled look-back scan (Merrill and Garland, "Single-pass Parallel
/// Prefix Scan with Decoupled Look-back", 2016): CUB's DeviceScan for a contiguous 1-D scan, a
/// block per row for batched rows, and a column-tiled look-back kernel for scans along a strided
/// axis. float32 accumulates in float32 (as NumPy, whose scan is sequential in float32: results
/// differ from it by rounding, about sqrt(n) ulp on random data).
/// Asynchronous on the current stream.
/// @throws cusci::index_error for an axis out of range; cusci::out_of_memory.
/// NumPy: `np.cumsum` / `np.cumprod` (no `out=`).
ndarray cumsum(const ndarray& a, std::optional<int> axis = {}, std::optional<cusci::dtype> dtype = {});
ndarray cumprod(const ndarray& a, std::optional<int> axis = {}, std::optional<cusci::dtype> dtype = {});
/// As cumsum / cumprod with NaN treated as 0 / 1. NumPy: `np.nancumsum` / `np.nancumprod`.
ndarray nancumsum(const ndarray& a, std::optional<int> axis = {}, std::optional<cusci::dtype> dtype = {});
ndarray nancumprod(const ndarray& a, std::optional<int> axis = {}, std::optional<cusci::dtype> dtype = {});

/// Options of `diff` (NumPy's keyword arguments).
struct diff_options {
  /// Values concatenated before / after `a` along `axis` before differencing: a 0-d array is
  /// broadcast to `a`'s shape with length 1 along `axis`; other arrays must match `a`'s shape except
  /// along `axis`. The result dtype is the promotion of all the inputs.
  std::optional<ndarray> prepend{};
  std::optional<ndarray> append{};
};

/// n-th discrete difference along `axis`: `out[i] = a[i + 1] - a[i]`, applied n times (bool input
/// uses `!=`, as NumPy).
/// @param a     input [any shape, ndim >= 1], any dtype.
/// @param n     number of times (>= 0; 0 returns `a` itself).
/// @param axis  in [-ndim, ndim).
/// @return `a`'s shape with `shape[axis]` reduced by n (not below 0); dtype as NumPy's subtraction.
/// Asynchronous.
/// @throws cusci::value_error for n < 0 ("order must be non-negative but got -1"), a 0-d input or
///         prepend/append shapes that do not fit; cusci::index_error for an axis out of range.
/// NumPy: `np.diff(a, n, axis, prepend, append)`.
ndarray diff(const ndarray& a, int n = 1, int axis = -1, const diff_options& opts = {});

}  // namespace cusci
