#pragma once
/// @file statistics.hpp
/// Order statistics and weighted statistics with NumPy 2.5's semantics: median, percentile, quantile
/// (and their nan-variants), average, cov and corrcoef.
///
/// Common to every function here (cusci core mirrors NumPy/CuPy, not SciPy):
///  - inputs are device arrays of any layout (C, F, strided, negative strides);
///  - results are new device arrays; a result that NumPy returns as a scalar is a 0-d array (read it
///    with `.item<T>()`, which synchronizes);
///  - asynchronous on the current stream unless the function says "synchronizes";
///  - NumPy's RuntimeWarnings ("Mean of empty slice", "All-NaN slice encountered", "Degrees of freedom
///    <= 0 for slice") are issued through cusci::warn (category "RuntimeWarning", see warnings.hpp);
///  - no `out=` arguments.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/reduction.hpp"

namespace cusci {

/// NumPy's quantile estimation methods (`method=`), Hyndman and Fan's (1996) definitions 1-9 and
/// NumPy's four discontinuous legacy methods. All thirteen are implemented.
enum class quantile_method {
  inverted_cdf,               ///< H&F 1 (discontinuous)
  averaged_inverted_cdf,      ///< H&F 2
  closest_observation,        ///< H&F 3 (discontinuous)
  interpolated_inverted_cdf,  ///< H&F 4
  hazen,                      ///< H&F 5
  weibull,                    ///< H&F 6
  linear,                     ///< H&F 7 (NumPy's default)
  median_unbiased,            ///< H&F 8
  normal_unbiased,            ///< H&F 9
  lower,                      ///< the lower neighbour (discontinuous)
  higher,                     ///< the higher neighbour (discontinuous)
  midpoint,                   ///< the mean of both neighbours
  nearest,                    ///< the nearest neighbour, ties to the even index (discontinuous)
};

/// Parses NumPy's method names ("linear", "inverted_cdf", ..., "nearest").
/// @throws cusci::value_error for another string ("'foo' is not a valid method. Use one of: ...",
///         as NumPy).
quantile_method parse_quantile_method(std::string_view s);

/// Quantiles to compute: one value (a weak scalar: the result has no quantile axis) or an array of
/// values (host vector, which counts as a float64 array as NumPy's lists do, or a device array of
/// any shape, whose shape is prepended to the result's).
struct quantile_arg {
  quantile_arg(double q) : scalar(q) {}
  /// A Python int q: quantile's `linear` method then takes the order statistic itself and keeps a's
  /// dtype (NumPy's integer virtual index path), e.g. `quantile(int8_array, 1)` is int8.
  quantile_arg(int q) : scalar(static_cast<double>(q)), integer(true) {}
  quantile_arg(std::vector<double> q) : host(std::move(q)) {}
  quantile_arg(std::initializer_list<double> q) : host(std::vector<double>(q)) {}
  quantile_arg(const ndarray& q) : device(q) {}
  std::optional<double> scalar{};
  std::optional<std::vector<double>> host{};
  std::optional<ndarray> device{};
  bool integer = false;  ///< the scalar came from an int
};

/// Options of percentile / quantile / nanpercentile / nanquantile, in NumPy's order (after `axis`,
/// which is a positional argument here, and without `out`).
struct quantile_options {
  /// Accepted and ignored (NumPy may then partially sort `a` in place; cusci never modifies `a`).
  bool overwrite_input = false;
  /// Estimation method (NumPy's default "linear").
  quantile_method method = quantile_method::linear;
  /// Keep reduced axes with length 1.
  bool keepdims = false;
  /// Per-element weights; NumPy supports them for method inverted_cdf only. Not implemented in
  /// cusci: any weights throw (see the functions).
  std::optional<ndarray> weights{};
};

/// Options of median / nanmedian (NumPy's keyword arguments, without `out`).
struct median_options {
  /// Accepted and ignored (cusci never modifies `a`).
  bool overwrite_input = false;
  /// Keep reduced axes with length 1.
  bool keepdims = false;
};

/// Median over `axis`: the mean of the two middle order statistics (the middle one for odd lengths).
/// @param a     input [any shape], any dtype (complex values ordered lexicographically, as NumPy).
/// @param axis  axes to reduce (axis_arg: None, one axis or several; default all).
/// @return dtype as `mean`: float64 for bool and integers, otherwise a's dtype (float16 stays
///         float16, complex stays complex); shape of `a` without the reduced axes (kept as 1 with
///         keepdims). A selection that holds a NaN gives NaN. An empty selection gives NaN with
///         RuntimeWarning "Mean of empty slice".
/// Stream behaviour: as `sort` (asynchronous, except CUB's segmented sort over more than 300 rows,
///         which synchronizes once).
/// Algorithm: the reduced axes are moved last and the [rows, n] matrix sorted along rows (cusci::sort,
///         CUB radix sort); the two middle columns are gathered and averaged with cusci::mean; a NaN in
///         the last column (NaNs sort last) replaces the row's result. One contiguous float32 /
///         float64 row of >= 2^20 elements: radix selection of the two middle elements instead of the
///         sort (4 passes over float32 data, 8 over float64; see docs/core-statistics.md).
/// @throws cusci::index_error for an axis out of range; cusci::value_error for a repeated axis;
///         cusci::out_of_memory.
/// NumPy: `np.median(a, axis, out=None, overwrite_input, keepdims)`. Deviation: float32 medians average
///         in float64 (no overflow of x + y near FLT_MAX, where NumPy returns inf).
ndarray median(const ndarray& a, axis_arg axis = {}, median_options opts = {});

/// Median over `axis` ignoring NaNs. Dtype and shape as `median`; an all-NaN (or empty) selection
/// gives NaN with RuntimeWarning "All-NaN slice encountered". Integer and bool inputs behave as
/// `median`.
/// Synchronizes (float and complex inputs: once, to learn whether a selection was all NaN).
/// Algorithm: as `median`, with the per-row count of non-NaN values choosing the middle elements.
/// @throws as `median`.
/// NumPy: `np.nanmedian`.
ndarray nanmedian(const ndarray& a, axis_arg axis = {}, median_options opts = {});

/// q-th percentile(s) of `a` over `axis`.
/// @param a     input [any shape], bool, integer or floating dtype.
/// @param q     percentages in [0, 100]: a scalar, a host vector or a device array [any shape]
///              (a device q synchronizes: its values are read to check the range).
/// @param axis  axes to reduce (default all).
/// @param opts  method, keepdims, overwrite_input (ignored), weights (refused).
/// @return shape `q.shape + reduced shape of a` (no quantile axis for a scalar q). Dtype as NumPy:
///         lower / higher / nearest / inverted_cdf / closest_observation keep a's dtype; the other
///         methods give `result_type(a, q)` where a scalar q is weak (float64 for integer and bool
///         a, a's dtype for floating a) and an array q strong (a float32 q array with int8 a gives
///         float32; a float64 q array (or host vector) with float32 a float64). The virtual index
///         and the interpolation weight are computed in q's dtype (float64 for a scalar or a host
///         vector; float16 emulated by rounding after each operation) and the interpolation
///         `a + (b - a) * t` (or `b - (b - a) * (1 - t)` for t >= 0.5) is NumPy's _lerp with the same
///         elementwise dtypes (integer differences wrap as NumPy's: int8 [-128, 127] gives -1 for the
///         difference), so results match NumPy's rounding. A selection holding a NaN gives NaN; the
///         NumPy quirk `percentile([1, inf], 100) == nan` ((b - a) of inf - inf) is reproduced.
/// Stream behaviour: as `median`.
/// Algorithm: sort along the moved reduced axes (see `median`), a kernel computing the two
///         neighbouring order statistics' positions and the weight per (quantile, row) with NumPy's
///         formulas, two gathers (cusci::take), NumPy's _lerp with cusci's elementwise ops. One
///         contiguous float32 / float64 row of >= 2^20 elements with at most 4 quantiles: radix
///         selection of the order statistics instead of the sort (as `median`).
/// @throws cusci::value_error for q outside [0, 100] or NaN ("Percentiles must be in the range [0,
///         100]"), for weights ("Only method 'inverted_cdf' supports weights. Got: linear." for other
///         methods as NumPy; "weights are not supported by cusci" for inverted_cdf); cusci::type_error
///         for complex a ("a must be an array of real numbers") or bool a with an interpolating method
///         (NumPy: boolean subtract is not supported); cusci::index_error for an empty selection
///         ("index -1 is out of bounds for axis 0 with size 0", as NumPy) or an axis out of range;
///         cusci::value_error for a repeated axis; cusci::out_of_memory.
/// NumPy: `np.percentile(a, q, axis, out=None, overwrite_input, method, keepdims, weights)`.
/// Deviations: an integer or bool device q array is treated as float64 (NumPy's `quantile` keeps
///         integer virtual indices for such q, with the same values); no `interpolation=`.
ndarray percentile(const ndarray& a, const quantile_arg& q, axis_arg axis = {}, quantile_options opts = {});

/// q-th quantile(s): as `percentile` with q in [0, 1] ("Quantiles must be in the range [0, 1]").
/// NumPy: `np.quantile`.
ndarray quantile(const ndarray& a, const quantile_arg& q, axis_arg axis = {}, quantile_options opts = {});

/// Percentile / quantile ignoring NaNs: each selection's non-NaN values are used (their count sets the
/// virtual index); an all-NaN selection gives NaN with RuntimeWarning "All-NaN slice encountered".
/// Dtypes, shapes and errors as `percentile` / `quantile`. Integer and bool inputs behave as those,
/// except for an empty `a`, which returns `nanmean(a, axis, keepdims)` (NaN, or an empty array),
/// whatever q and the method are (NumPy's behaviour), with "Mean of empty slice" when not empty.
/// Synchronizes (float inputs: once, for the all-NaN warning; a device q: once).
/// NumPy: `np.nanpercentile`, `np.nanquantile`.
ndarray nanpercentile(const ndarray& a, const quantile_arg& q, axis_arg axis = {}, quantile_options opts = {});
ndarray nanquantile(const ndarray& a, const quantile_arg& q, axis_arg axis = {}, quantile_options opts = {});

/// Options of average, in NumPy's order after `axis`.
struct average_options {
  /// Weights [a's shape, or 1-D of a's length along a single `axis`]; none: equal weights (the mean).
  std::optional<ndarray> weights{};
  /// Also return the sum of the weights (see average_result).
  bool returned = false;
  /// Keep reduced axes with length 1.
  bool keepdims = false;
};

/// average's results: the average and, with `returned`, the sum of weights broadcast to its shape.
struct average_result {
  ndarray average;
  std::optional<ndarray> sum_of_weights{};
};

/// Weighted average over `axis`: `sum(a * w) / sum(w)`, the product and sums in the result dtype.
/// @param a     input [any shape], any dtype.
/// @param axis  axes to reduce (default all).
/// @return average: without weights, `mean(a)` (dtype as mean); with weights, the dtype is
///         `result_type(a, w)` made inexact (float64 for integer/bool pairs, at least float64 for
///         float16 + integer as NumPy: `result_type(a.dtype, w.dtype, 'f8')` for integer/bool operands).
///         sum_of_weights (with `returned`): `sum(w)` (the element count without weights) in the
///         result dtype, broadcast to the average's shape.
/// Synchronizes (with weights: once, to check that no weight sum is zero).
/// @throws cusci::type_error when weights differ in shape from `a` and no single axis is given
///         ("Axis must be specified when shapes of a and weights differ."); cusci::value_error for a
///         1-D weight array whose length differs from a's axis ("Shape of weights must be consistent
///         with shape of a along specified axis."; with several axes the weights' shape must be a's
///         lengths along them, in the order given, as NumPy 2), or a weight sum equal to zero
///         ("Weights sum to zero, can't be normalized", NumPy's ZeroDivisionError);
///         cusci::index_error for an axis out of range.
/// NumPy: `np.average(a, axis, weights, returned, keepdims)`.
average_result average(const ndarray& a, axis_arg axis = {}, average_options opts = {});

/// Options of cov, in NumPy's order after `y`.
struct cov_options {
  /// Each row is a variable and each column an observation (false: the reverse).
  bool rowvar = true;
  /// Normalize by N (true) instead of N - 1; ignored when `ddof` is given.
  bool bias = false;
  /// Delta degrees of freedom (overrides bias).
  std::optional<std::int64_t> ddof{};
  /// Integer frequency weights [observations] (non-negative integers).
  std::optional<ndarray> fweights{};
  /// Observation weights [observations] (non-negative).
  std::optional<ndarray> aweights{};
  /// Dtype of the computation and result; default `result_type(m, y, float64)`.
  std::optional<cusci::dtype> dtype{};
};

/// Covariance matrix of the variables in `m` (and `y`).
/// @param m  [n_vars, n_obs] (rowvar) or [n_obs, n_vars], or 1-D (one variable); any dtype except
///           that >2-D inputs throw.
/// @param y  optional extra variables, same layout rules, stacked after m's.
/// @return [n_vars, n_vars] (a 0-d array for one variable), dtype as `opts.dtype` (default float64,
///         or complex128 for complex input, float32/complex64 kept only when given as `dtype`).
///         Complex inputs give `X @ conj(X).T`. `N - ddof <= 0` gives inf/NaN with RuntimeWarning
///         "Degrees of freedom <= 0 for slice".
/// Synchronizes (with weights: once, to check them; otherwise never).
/// Algorithm: subtract the (weighted) mean per variable, one cusci::matmul (cuBLAS), divide.
/// @throws cusci::value_error for >2-D m or y ("m has more than 2 dimensions"), negative fweights or
///         aweights ("fweights cannot be negative"), mismatching observation counts of m and y ("all the
///         input array dimensions except for the concatenation axis must match exactly, ...");
///         cusci::type_error for non-integer fweights ("fweights must be integer") or complex weights;
///         cusci::runtime_error (NumPy's RuntimeError) for weights that are not 1-D ("cannot handle
///         multidimensional fweights") or not of the observation count ("incompatible numbers of
///         samples and aweights"); cusci::out_of_memory, cusci::cublas_error.
///         The weight checks read device values: with weights, cov synchronizes.
/// NumPy: `np.cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype=...)`.
ndarray cov(const ndarray& m, const std::optional<ndarray>& y = {}, cov_options opts = {});

/// Options of corrcoef, in NumPy's order after `y`.
struct corrcoef_options {
  bool rowvar = true;
  std::optional<cusci::dtype> dtype{};
};

/// Pearson correlation coefficients: `cov(x, y) / sqrt(outer(diag, diag))`, real parts clipped to
/// [-1, 1] (and imaginary parts for complex inputs), as NumPy.
/// @return as `cov` (a 0-d array for one variable gives 1.0, or NaN for a constant variable).
/// @throws as `cov`.
/// NumPy: `np.corrcoef(x, y, rowvar, dtype=...)` (no deprecated bias/ddof).
ndarray corrcoef(const ndarray& x, const std::optional<ndarray>& y = {}, corrcoef_options opts = {});

namespace detail {
/// Positions of the order statistics of the quantile kernel (statistics.cu), one per (q, row):
/// `prev`, `next` flat int64 indices into a C-contiguous [rows, row_len] array and `gamma` (stored
/// as float for gdt float16/float32, double for float64), computed in the q dtype `gdt` (float16 is
/// emulated by rounding after every operation). `counts` (int64 [rows]) are the valid lengths of
/// the rows (nullptr: every row has row_len values). `method_id`: a quantile_method, or -1 for the
/// median (prev/next are written interleaved into `prev` [rows, 2]). Asynchronous.
void quantile_positions(const void* q, std::int64_t nq, cusci::dtype gdt, const std::int64_t* counts,
                        std::int64_t rows, std::int64_t row_len, int method_id, std::int64_t* prev,
                        std::int64_t* next, void* gamma);
/// Values of the order statistics at `m` (1..8) ranks (device int64 [m], each in [0, n)) of the
/// contiguous float32 / float64 row `x` [n] (0 < n < 2^32), by radix selection (statistics.cu);
/// writes `out` [m + 1] of x's dtype: the m values, then NaN when x holds a NaN (else 0). NaNs rank
/// last. Asynchronous. @throws cusci::value_error / type_error for arguments outside that range.
void select_ranks(const void* x, cusci::dtype dt, std::int64_t n, const std::int64_t* ranks, int m, void* out);
/// Enables (default) or disables the radix-selection path of median / percentile / quantile (one
/// contiguous float32/float64 row of >= 2^20 elements, at most 8 order statistics); returns the previous
/// setting. For benchmarks and tests that compare it with the sort path. Process-wide, thread-safe.
bool set_statistics_selection(bool enabled) noexcept;
}  // namespace detail

}  // namespace cusci
