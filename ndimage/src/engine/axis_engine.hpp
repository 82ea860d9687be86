#pragma once
// The axis-pass engine of cusci::ndimage, host interface. Every 1-D filter along an axis is a pass
// of this engine: the array seen as [outer, L, inner] around the axis (any strides), the line
// extended beyond its edges by a boundary mode (boundary.hpp), tiled into shared memory, with
// input/output dtype dispatch and fast float32/float64 kernels. What differs between filters is the
// per-line arithmetic, a policy (axis_engine.cuh): the weights correlation (correlate1d,
// convolve1d, the Gaussian filters), the running mean (uniform_filter1d) and the running minimum or
// maximum (minimum_filter1d, maximum_filter1d). A multi-axis filter is a chain of passes
// (run_axis_filter). Host C++ only.

#include <cstdint>
#include <functional>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "engine/boundary.hpp"

namespace cusci::ndimage::detail {

/// out = correlation of `in` along `axis` with `w` (SciPy's NI_Correlate1D): both real, same shape,
/// ndim >= 1, `out` must not overlap `in`; any strides. `origin` already validated.
/// Enqueues on the current stream.
void correlate_pass(const ndarray& in, const ndarray& out, int axis, const std::vector<double>& w, ext mode,
                    double cval, std::int64_t origin);

/// The fast float32 -> float32 / float64 -> float64 kernels of correlate_pass alone: runs them and
/// returns true where they apply (same dtypes, a tap count they cover, a contiguous line of at least
/// 32 along a last axis or any inner layout), returns false without doing anything elsewhere.
bool fast_correlate_pass(const ndarray& in, const ndarray& out, int axis, const std::vector<double>& w, ext mode,
                         double cval, std::int64_t origin);

/// out = SciPy's NI_UniformFilter1D of `in` along `axis` (running mean over `size` values in
/// double, in SciPy's order). Same contract as correlate_pass.
void uniform_pass(const ndarray& in, const ndarray& out, int axis, std::int64_t size, ext mode, double cval,
                  std::int64_t origin);

/// out = running minimum (`minimum`) or maximum over `size` values along `axis` (SciPy's
/// NI_MinOrMaxFilter1D), exact for every real dtype. Same contract as correlate_pass.
void min_max_pass(const ndarray& in, const ndarray& out, int axis, std::int64_t size, ext mode, double cval,
                  std::int64_t origin, bool minimum);

/// One pass of a chain: `run(src, dst, axis, cval)` filters src into dst along axis.
struct axis_pass {
  int axis;
  std::function<void(const ndarray& src, const ndarray& dst, int axis, double cval)> run;
};

/// The result of the passes in turn on `input` (axes in the input's numbering), in a new array of
/// dtype `out_dt` and the input's shape. A pass never reads what it writes: passes alternate between
/// the output and one temporary; intermediate results are stored in the output dtype, as SciPy's
/// chaining through `output`. An F-contiguous input is processed as its transpose (coalesced loads)
/// and gives an F-contiguous result; a complex array is filtered as its real part (with `cval`) and
/// its imaginary part (with 0). No passes: an empty result of the right shape and dtype is returned
/// unfilled (callers copy the input themselves).
ndarray run_axis_filter(const ndarray& input, dtype out_dt, std::vector<axis_pass> passes, double cval);

/// The real (part 0) or imaginary (part 1) component of a complex array as a strided real view.
ndarray component(const ndarray& a, int part);

}  // namespace cusci::ndimage::detail
