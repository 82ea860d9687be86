// Host wrappers of minimum_filter1d, maximum_filter1d, minimum_filter and maximum_filter: SciPy's
// argument handling (_min_or_max_filter), then the axis-pass engine (a box, or a footprint that is
// all true, separated into 1-D passes) or the footprint engine (any other footprint), both with the
// minimum / maximum policies (min_max.cu).

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/filters.hpp"
#include "engine/axis_engine.hpp"
#include "engine/footprint_engine.hpp"
#include "filters/filter_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::check_size;
using detail::fname;

void check_input(const ndarray& input, const char* fn) {
  if (is_complex(input.dtype())) throw type_error(fname(fn) + ": Complex type not supported");
}

detail::axis_pass min_max_axis_pass(int axis, std::int64_t size, detail::ext mode, std::int64_t origin, bool minimum) {
  return {axis, [size, mode, origin, minimum](const ndarray& src, const ndarray& dst, int ax, double cval) {
            detail::min_max_pass(src, dst, ax, size, mode, cval, origin, minimum);
          }};
}

ndarray min_max_filter1d(const char* fn, const ndarray& input, std::int64_t size, int axis,
                         const filter1d_options& opts, bool minimum) {
  // SciPy's order: complex input, axis, size, output, origin, mode, then the dtypes its C code accepts.
  check_input(input, fn);
  const int ax = detail::normalize_axis(axis, input.ndim(), fn, "axis");
  check_size(size, fn);
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, opts.output, fn, false);
  detail::check_origin(size, opts.origin, fn);
  detail::check_mode(opts.mode, fn);
  detail::check_kernel_dtypes(input.dtype(), od, fn);
  ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
  detail::run_axis_filter_into(
      input, out, {min_max_axis_pass(ax, size, detail::filter_ext(opts.mode), opts.origin, minimum)}, opts.cval);
  return out;
}

ndarray min_max_filter(const char* fn, const ndarray& input, const per_axis<std::int64_t>& size,
                       const min_max_filter_options& opts, bool minimum) {
  // The footprint: separable when absent (size) or all true.
  bool separable = true;
  shape_t fshape;
  std::vector<unsigned char> mask;
  if (!opts.footprint) {
    if (size.empty()) throw runtime_error(fname(fn) + ": no footprint provided (give size or footprint)");
  } else {
    const host_array fb = opts.footprint->astype(dtype::bool_);
    fshape = fb.shape();
    const bool* b = fb.data_as<bool>();
    mask.assign(b, b + fb.size());
    bool any = false, all = true;
    for (auto v : mask) {
      any = any || v != 0;
      all = all && v != 0;
    }
    if (!any) throw value_error(fname(fn) + ": All-zero footprint is not supported.");
    separable = all;
  }
  check_input(input, fn);
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, opts.output, fn, false);
  const std::vector<int> axes = detail::check_axes(opts.axes, input.ndim(), fn);
  const std::size_t n = axes.size();
  const int nd = input.ndim();
  if (separable) {
    // SciPy's order: origins, sizes (a footprint's shape), modes.
    const std::vector<std::int64_t> origins = detail::expand(opts.origin, n, fn, "origin");
    std::vector<std::int64_t> sizes;
    if (opts.footprint) {
      if (fshape.size() != n)
        throw runtime_error(fname(fn) + ": sequence argument must have length equal to input rank: the footprint has " +
                            std::to_string(fshape.size()) + " dimensions for " + std::to_string(n) + " filtered axes");
      sizes.assign(fshape.begin(), fshape.end());
    } else {
      sizes = detail::expand(size, n, fn, "size");
    }
    const std::vector<mode> modes = detail::expand(opts.mode, n, fn, "mode");
    std::vector<detail::axis_pass> passes;
    for (std::size_t i = 0; i < n; ++i) {
      if (sizes[i] <= 1) continue;  // SciPy skips these axes
      check_size(sizes[i], fn);
      detail::check_origin(sizes[i], origins[i], fn);
      detail::check_mode(modes[i], fn);
      passes.push_back(min_max_axis_pass(axes[i], sizes[i], detail::filter_ext(modes[i]), origins[i], minimum));
    }
    if (!passes.empty()) detail::check_kernel_dtypes(input.dtype(), od, fn);
    ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
    if (passes.empty()) detail::copy_into(input, out);  // SciPy: output[...] = input[...]
    else detail::run_axis_filter_into(input, out, std::move(passes), opts.cval);
    return out;
  }
  // Not separable: one footprint pass over all axes (unfiltered axes get extent 1, origin 0).
  // SciPy's order: the footprint's rank, the origins, the origin range, the modes, the dtypes.
  if (fshape.size() != n)
    throw runtime_error(fname(fn) + ": footprint.ndim (" + std::to_string(fshape.size()) + ") must match len(axes) (" +
                        std::to_string(n) + ")");
  const std::vector<std::int64_t> origins = detail::expand(opts.origin, n, fn, "origin");
  detail::footprint_spec f;
  f.shape.assign(static_cast<std::size_t>(nd), 1);
  f.origins.assign(static_cast<std::size_t>(nd), 0);
  // As SciPy's _expand_footprint / _expand_origin: the footprint's dimensions go to the filtered
  // axes in increasing order (unit dimensions inserted at the others, no transpose); the origins go
  // to the axes in the order given.
  std::vector<int> sorted_axes = axes;
  std::sort(sorted_axes.begin(), sorted_axes.end());
  for (std::size_t i = 0; i < n; ++i) {
    f.shape[static_cast<std::size_t>(sorted_axes[i])] = fshape[i];
    f.origins[static_cast<std::size_t>(axes[i])] = origins[i];
  }
  for (int d = 0; d < nd; ++d)
    detail::check_origin(f.shape[static_cast<std::size_t>(d)], f.origins[static_cast<std::size_t>(d)], fn);
  if (!opts.mode.is_scalar)
    throw runtime_error(fname(fn) + ": A sequence of modes is not supported for non-separable footprints");
  if (opts.mode.values.empty())
    throw runtime_error(fname(fn) + ": boundary mode not supported: no mode given");
  detail::check_mode(opts.mode.values.front(), fn);
  detail::check_kernel_dtypes(input.dtype(), od, fn);
  f.modes.assign(static_cast<std::size_t>(nd), detail::filter_ext(opts.mode.values.front()));
  f.mask = std::move(mask);
  ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
  if (out.size() == 0) return out;
  // The footprint kernel must not write what it reads: an overlapping output gets the result
  // through a separate array (SciPy's temp_needed).
  if (detail::may_share_memory(input, out)) {
    ndarray tmp = cusci::empty(input.shape(), od);
    detail::min_max_footprint_pass(input, tmp, f, opts.cval, minimum);
    detail::copy_into(tmp, out);
  } else {
    detail::min_max_footprint_pass(input, out, f, opts.cval, minimum);
  }
  return out;
}

}  // namespace

ndarray minimum_filter1d(const ndarray& input, std::int64_t size, int axis, const filter1d_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::minimum_filter1d");
  return min_max_filter1d("minimum_filter1d", input, size, axis, opts, true);
}

ndarray maximum_filter1d(const ndarray& input, std::int64_t size, int axis, const filter1d_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::maximum_filter1d");
  return min_max_filter1d("maximum_filter1d", input, size, axis, opts, false);
}

ndarray minimum_filter(const ndarray& input, const per_axis<std::int64_t>& size, const min_max_filter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::minimum_filter");
  return min_max_filter("minimum_filter", input, size, opts, true);
}

ndarray maximum_filter(const ndarray& input, const per_axis<std::int64_t>& size, const min_max_filter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::maximum_filter");
  return min_max_filter("maximum_filter", input, size, opts, false);
}

}  // namespace cusci::ndimage
