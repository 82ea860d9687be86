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
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::check_size;

detail::axis_pass uniform_axis_pass(int axis, std::int64_t size, detail::ext mode, std::int64_t origin) {
  return {axis, [size, mode, origin](const ndarray& src, const ndarray& dst, int ax, double cval) {
            detail::uniform_pass(src, dst, ax, size, mode, cval, origin);
          }};
}

}  // namespace

ndarray uniform_filter1d(const ndarray& input, std::int64_t size, int axis, const filter1d_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::uniform_filter1d");
  const char* fn = "uniform_filter1d";
  // SciPy's order: axis, size, output, origin, mode, then the dtypes its C code accepts.
  const int ax = detail::normalize_axis(axis, input.ndim(), fn, "axis");
  check_size(size, fn);
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, opts.output, fn, is_complex(input.dtype()));
  detail::check_origin(size, opts.origin, fn);
  detail::check_mode(opts.mode, fn);
  detail::check_kernel_dtypes(input.dtype(), od, fn);
  ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
  detail::run_axis_filter_into(input, out, {uniform_axis_pass(ax, size, detail::filter_ext(opts.mode), opts.origin)},
                               opts.cval);
  return out;
}

ndarray uniform_filter(const ndarray& input, const per_axis<std::int64_t>& size, const uniform_filter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::uniform_filter");
  const char* fn = "uniform_filter";
  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, opts.output, fn, is_complex(input.dtype()));
  const std::vector<int> axes = detail::check_axes(opts.axes, input.ndim(), fn);
  const std::size_t n = axes.size();
  const std::vector<std::int64_t> sizes = detail::expand(size, n, fn, "size");
  const std::vector<std::int64_t> origins = detail::expand(opts.origin, n, fn, "origin");
  const std::vector<mode> modes = detail::expand(opts.mode, n, fn, "mode");
  std::vector<detail::axis_pass> passes;
  for (std::size_t i = 0; i < n; ++i) {
    if (sizes[i] <= 1) continue;  // SciPy skips these axes
    check_size(sizes[i], fn);
    detail::check_origin(sizes[i], origins[i], fn);
    detail::check_mode(modes[i], fn);
    passes.push_back(uniform_axis_pass(axes[i], sizes[i], detail::filter_ext(modes[i]), origins[i]));
  }
  if (!passes.empty()) detail::check_kernel_dtypes(input.dtype(), od, fn);
  ndarray out = detail::make_output(opts.output, input.shape(), od, input.device(), fn);
  if (passes.empty()) detail::copy_into(input, out);  // SciPy: output[...] = input[...]
  else detail::run_axis_filter_into(input, out, std::move(passes), opts.cval);
  return out;
}

}  // namespace cusci::ndimage
