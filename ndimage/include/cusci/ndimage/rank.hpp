#pragma once
/// @file rank.hpp
/// Rank filters of cusci::ndimage with scipy.ndimage's semantics: rank_filter, median_filter and
/// percentile_filter (SciPy's `_rank_filter`).
///
/// Common rules (as SciPy 1.18.1):
/// - The neighbourhood is a box (`size`: one length or one per filtered axis) or `opts.footprint`
///   (a host array, nonzero = inside, one dimension per filtered axis); the footprint wins when both
///   are given. The footprint's n nonzero elements are ranked; rank r (0 <= r < n) selects the value
///   that sorts at index r. Negative ranks count from the end (r + n).
/// - Rank 0 and rank n - 1 are the minimum and maximum filters (SciPy delegates to
///   minimum_filter / maximum_filter, so a box then takes per-axis modes, and so do these); with NaN
///   they give SciPy's minimum_filter / maximum_filter values (filters.hpp), as does the median of
///   two values (rank 1 of 2).
/// - Ordering: values are compared in the input dtype (floats as IEEE numbers, integers exactly).
///   Windows holding NaN give SciPy's values: SciPy's selection algorithm (the quickselect of
///   NI_RankFilter for N-D arrays, the running two-heap mediator of `_rank_filter_1d` for 1-D
///   arrays) is replayed in SciPy's order for those windows, whose result depends on where the NaN
///   sits. Infinities order as numbers.
/// - 1-D arrays take SciPy's 1-D path where SciPy does (its window is the footprint's full length,
///   whatever its mask; integer and bool inputs are ranked as int64 (uint64 values >= 2^63 wrap, as
///   SciPy's cast) with cval converted to int64 by truncation, then cast back to the output dtype;
///   float16 is ranked as float32). Every other array
///   takes SciPy's N-D path: cval is first converted to the input dtype with a C cast.
/// - Output: a new C-contiguous array of the input dtype, or `opts.output` (a dtype or an existing
///   array of the input's shape, which may be the input itself).
/// - Every function enqueues its kernels on the current stream and returns without synchronizing.

#include <cstdint>
#include <optional>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/output.hpp"

namespace cusci::ndimage {

/// Keyword arguments of rank_filter, median_filter and percentile_filter (SciPy's names and
/// defaults). `mode` and `origin` take one value or one per filtered axis; several modes are
/// accepted only where SciPy accepts them (the minimum / maximum cases).
struct rank_filter_options {
  /// The neighbourhood (nonzero = inside), one dimension per filtered axis; replaces `size`.
  std::optional<host_array> footprint{};
  ndimage::output_arg output{};
  per_axis<ndimage::mode> mode = mode::reflect;
  /// Value outside the edges for mode constant / grid_constant.
  double cval = 0.0;
  /// Shift of the window per axis: -(extent / 2) <= origin <= (extent - 1) / 2.
  per_axis<std::int64_t> origin = 0;
  /// Axes to filter (negative values count from the end); default: all axes.
  std::optional<std::vector<int>> axes{};
};

/// Multidimensional rank filter: each output is the value of rank `rank` among the input values
/// under the footprint (or the box of `size`) centred on it, the input extended beyond its edges by
/// `opts.mode`.
/// @param input [any shape] bool, int8..int64, uint8..uint64, float32, float64 (float16 for 1-D
///              arrays only, as SciPy), any layout (C, F, strided, negative strides).
/// @param rank  in [-n, n) where n is the number of footprint elements.
/// @param size  window length(s), one or one per filtered axis; empty when a footprint is given.
/// @param opts  footprint, output, mode, cval, origin, axes.
/// @return [input.shape] of the output dtype (default the input's), C-contiguous; `opts.output`'s
///         array when one was given.
/// Asynchronous on the current stream. Windows holding NaN take a slower exact replay (for a 1-D
/// array: one pass over the whole line, run after the parallel one, only when the line holds NaN).
/// @throws cusci::runtime_error for no size and no footprint ("no footprint or filter size
///         provided"), a rank outside the footprint ("rank not within filter footprint size"), a
///         footprint whose ndim differs from the number of filtered axes, several modes with a rank
///         other than the minimum or maximum, a float16 array of more than one dimension ("array type
///         not supported"), an output array of another shape ("output shape not correct");
///         cusci::type_error for a complex input or output; cusci::value_error for an origin out of
///         range ("invalid origin"), a size < 1, a per-axis sequence of the wrong length, an axis out
///         of range or repeated, a NaN or out-of-range cval with an integer 1-D input (SciPy:
///         ValueError / OverflowError). An all-false footprint has no rank: runtime_error as above.
/// SciPy: `scipy.ndimage.rank_filter`. Deviations: 64-bit integers are ranked exactly (SciPy's N-D
/// path ranks them as doubles, which differs beyond 2^53); where
/// SciPy's 1-D path reads outside the array (a window longer than the line, SciPy's undefined
/// behaviour) the standard boundary extension is used; with an output dtype other than the input's,
/// SciPy's 1-D path writes garbage while cusci casts the result; the sign of a zero chosen among
/// equal -0.0 / +0.0 values may differ; `size` is ignored without a warning when a footprint is given.
ndarray rank_filter(const ndarray& input, std::int64_t rank, const per_axis<std::int64_t>& size = {},
                    const rank_filter_options& opts = {});

/// Multidimensional median filter: rank_filter with rank n / 2 (n footprint elements; for even n
/// the upper of the two middle values, as SciPy).
/// Parameters, result, stream behaviour and exceptions as rank_filter (no rank).
/// 3x3, 5x5, 7x7 and 3x3x3 boxes of float32, float64 and uint8 arrays of 2 or 3 dimensions take
/// register selection networks on shared-memory tiles; other cases the generic exact kernel.
/// SciPy: `scipy.ndimage.median_filter` (same deviations as rank_filter).
ndarray median_filter(const ndarray& input, const per_axis<std::int64_t>& size = {},
                      const rank_filter_options& opts = {});

/// Multidimensional percentile filter: rank_filter with rank int(n * percentile / 100) (n - 1 for
/// 100; a negative percentile has 100 added first).
/// @param percentile in [-100, 100].
/// Other parameters, result, stream behaviour and exceptions as rank_filter; a percentile outside
/// [-100, 100] raises cusci::runtime_error ("invalid percentile"), a NaN cusci::value_error.
/// SciPy: `scipy.ndimage.percentile_filter` (same deviations as rank_filter).
ndarray percentile_filter(const ndarray& input, double percentile, const per_axis<std::int64_t>& size = {},
                          const rank_filter_options& opts = {});

}  // namespace cusci::ndimage
