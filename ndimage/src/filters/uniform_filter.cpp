// Host wrappers of uniform_filter1d and uniform_filter: SciPy's argument handling, then passes of the
// axis-pass engine with the running-mean policy (uniform.cu).

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndimage/filters.hpp"
#include "engine/axis_engine.hpp"
#include "filters/filter_common.hpp"

namespace cusci::ndimage {
namespace {

using detail::check_size;
using detail::fname;

detail::axis_pass uniform_axis_pass(int axis, std::int64_t size, detail::ext mode, std::int64_t origin) {
  return {axis, [size, mode, origin](const ndarray& src, const ndarray& dst, int ax, double cval) {
            detail::uniform_pass(src, dst, ax, size, mode, cval, origin);
          }};
}

}  // namespace

ndarray uniform_filter1d(const ndarray& input, std::int64_t size, int axis, const filter1d_options& opts) {
  const char* fn = "uniform_filter1d";
  const int ax = detail::normalize_axis(axis, input.ndim(), fn, "axis");
  check_size(size, fn);
  detail::check_real_kernel_dtype(input.dtype(), fn, "input");
  const dtype od = detail::output_dtype(input, opts.output, fn);
  detail::check_real_kernel_dtype(od, fn, "output");
  detail::check_origin(size, opts.origin, fn);
  return detail::run_axis_filter(input, od, {uniform_axis_pass(ax, size, detail::filter_ext(opts.mode), opts.origin)},
                                 opts.cval);
}

ndarray uniform_filter(const ndarray& input, const per_axis<std::int64_t>& size, const uniform_filter_options& opts) {
  const char* fn = "uniform_filter";
  detail::check_real_kernel_dtype(input.dtype(), fn, "input");
  const dtype od = detail::output_dtype(input, opts.output, fn);
  detail::check_real_kernel_dtype(od, fn, "output");
  const std::vector<int> axes = detail::check_axes(opts.axes, input.ndim(), fn);
  const std::size_t n = axes.size();
  if (size.empty()) throw value_error(fname(fn) + ": size must be given (one value or one per filtered axis)");
  const std::vector<std::int64_t> sizes = detail::expand(size, n, fn, "size");
  const std::vector<std::int64_t> origins = detail::expand(opts.origin, n, fn, "origin");
  const std::vector<mode> modes = detail::expand(opts.mode, n, fn, "mode");
  std::vector<detail::axis_pass> passes;
  for (std::size_t i = 0; i < n; ++i) {
    if (sizes[i] <= 1) continue;  // SciPy skips these axes
    check_size(sizes[i], fn);
    detail::check_origin(sizes[i], origins[i], fn);
    passes.push_back(uniform_axis_pass(axes[i], sizes[i], detail::filter_ext(modes[i]), origins[i]));
  }
  if (passes.empty()) return input.astype(od, true);  // SciPy: output[...] = input
  return detail::run_axis_filter(input, od, std::move(passes), opts.cval);
}

}  // namespace cusci::ndimage
