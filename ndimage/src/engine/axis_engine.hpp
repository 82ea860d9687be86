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
/// NI_MinOrMaxFilter1D), exact for every real dtype, NaN included (SciPy's running list replayed on
/// the lines holding NaN; filters/min_max.cu). Windows up to 16 values: direct kernels; longer: a
/// van Herk / Gil-Werman kernel (cost independent of `size`). Same contract as correlate_pass.
void min_max_pass(const ndarray& in, const ndarray& out, int axis, std::int64_t size, ext mode, double cval,
                  std::int64_t origin, bool minimum);

/// One pass of a chain: `run(src, dst, axis, cval)` filters src into dst along axis.
struct axis_pass {
  int axis;
  std::function<void(const ndarray& src, const ndarray& dst, int axis, double cval)> run;
};

/// Runs the passes in turn from `input` into `out` (axes in the input's numbering): `out` has the
/// input's shape and any layout; both real, or both complex (then the real part is filtered with
/// `cval` and the imaginary part with 0, as SciPy's _complex_via_real_components); `out` may be
/// `input` itself or overlap it (the values are those of a separate output). Intermediate results
/// are stored in the output dtype, as SciPy's chaining through `output`. Layout: an input whose
/// strides are in Fortran order (F-contiguous, or a view of such) is processed as its transpose so
/// that loads stay coalesced; every pass but the last writes a temporary in the processing order
/// (or `out` itself where `out` is C-contiguous in that order), and the last pass writes `out`
/// through its strides. No passes or an empty array: nothing is done (callers copy the input).
/// Temporaries: none for one pass; one of out's size for two passes or where `out` serves as an
/// intermediate; two otherwise. One pass with `out` overlapping `input` copies the input first.
/// Enqueues on the current stream.
void run_axis_filter_into(const ndarray& input, const ndarray& out, std::vector<axis_pass> passes, double cval);

/// run_axis_filter_into into a new C-contiguous array of dtype `out_dt` and the input's shape (as
/// SciPy allocates its outputs, whatever the input's layout). No passes: the new array is returned
/// unfilled (callers copy the input themselves).
ndarray run_axis_filter(const ndarray& input, dtype out_dt, std::vector<axis_pass> passes, double cval);

/// Whether `a` is processed as its transpose: ndim > 1, not C-contiguous, and the magnitudes of the
/// strides of its non-unit dimensions increase from the first to the last (an F-contiguous array,
/// the real or imaginary part of one, or a strided view of one).
bool fortran_ordered(const ndarray& a);

/// The real (part 0) or imaginary (part 1) component of a complex array as a strided real view.
ndarray component(const ndarray& a, int part);

}  // namespace cusci::ndimage::detail
