// Host side of cusci::ndimage's grey morphology: SciPy's argument handling (_morphology.py's grey_*
// functions and the _min_or_max_filter they call, structure included), then the engines: a box or an
// all-true footprint without structure as minimum / maximum passes on the axis-pass engine, any
// other flat footprint on the footprint engine's minimum / maximum policy, and a structure through
// grey_structure_pass (grey_kernels.cu). The composites (opening, closing, gradient, Laplace,
// top-hats) chain these and NumPy's ufuncs as SciPy does.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/grey_morphology.hpp"
#include "engine/axis_engine.hpp"
#include "engine/boundary.hpp"
#include "engine/footprint_engine.hpp"
#include "filters/filter_common.hpp"
#include "morphology/grey_kernels.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::fname;
using opts_t = grey_morphology_options;

/// `h` with every axis reversed (SciPy's a[::-1, ::-1, ...]): for a C-ordered array, the elements in
/// reverse order.
host_array reversed(const host_array& h) {
  host_array r(h.dtype(), h.shape());
  const std::size_t item = itemsize(h.dtype());
  const auto* src = static_cast<const unsigned char*>(h.data());
  auto* dst = static_cast<unsigned char*>(r.data());
  const std::size_t n = static_cast<std::size_t>(h.size());
  for (std::size_t i = 0; i < n; ++i) std::copy_n(src + (n - 1 - i) * item, item, dst + i * item);
  return r;
}

/// SciPy's _min_or_max_filter(input, size, footprint, structure, output, mode, cval, origin,
/// minimum, axes): `footprint` and `structure` as given (already mirrored for the dilation),
/// `origin` as _min_or_max_filter receives it.
ndarray min_or_max(const char* fn, const ndarray& input, per_axis<std::int64_t> size,
                   const std::optional<host_array>& footprint, const std::optional<host_array>& structure,
                   const output_arg& output, const per_axis<mode>& modes, double cval,
                   const per_axis<std::int64_t>& origin, const std::optional<std::vector<int>>& axes_opt,
                   bool minimum) {
  bool separable = true;
  shape_t fshape;
  std::vector<unsigned char> mask;
  std::vector<double> svals;
  shape_t sshape;
  if (!structure) {
    if (!footprint) {
      if (size.empty()) throw runtime_error(fname(fn) + ": no footprint provided");
    } else {
      const host_array fb = footprint->astype(dtype::bool_);
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
      if (all) {
        size = per_axis<std::int64_t>(std::vector<std::int64_t>(fshape.begin(), fshape.end()));
        mask.clear();
      }
    }
  } else {
    const host_array sf = structure->astype(dtype::float64);
    sshape = sf.shape();
    svals = sf.to_vector<double>();
    separable = false;
    if (!footprint) {
      fshape = sshape;
      mask.assign(svals.size(), 1);
    } else {
      const host_array fb = footprint->astype(dtype::bool_);
      fshape = fb.shape();
      const bool* b = fb.data_as<bool>();
      mask.assign(b, b + fb.size());
    }
  }
  if (is_complex(input.dtype())) throw type_error(fname(fn) + ": Complex type not supported");
  detail::check_output_shape(output, input.shape(), fn);
  const dtype od = detail::result_dtype(input, output, fn, false);
  const std::vector<int> axes = detail::check_axes(axes_opt, input.ndim(), fn);
  const std::size_t n = axes.size();
  const int nd = input.ndim();

  if (separable) {
    // SciPy: origins, sizes, modes normalized; axes of size <= 1 skipped; minimum_filter1d's checks.
    const std::vector<std::int64_t> origins = detail::expand(origin, n, fn, "origin");
    const std::vector<std::int64_t> sizes = detail::expand(size, n, fn, "size");
    const std::vector<mode> ms = detail::expand(modes, n, fn, "mode");
    std::vector<detail::axis_pass> passes;
    for (std::size_t i = 0; i < n; ++i) {
      if (sizes[i] <= 1) continue;
      detail::check_size(sizes[i], fn);
      detail::check_origin(sizes[i], origins[i], fn);
      detail::check_mode(ms[i], fn);
      const std::int64_t sz = sizes[i], org = origins[i];
      const detail::ext e = detail::filter_ext(ms[i]);
      passes.push_back({axes[i], [sz, e, org, minimum](const ndarray& src, const ndarray& dst, int ax, double cv) {
                          detail::min_max_pass(src, dst, ax, sz, e, cv, org, minimum);
                        }});
    }
    if (!passes.empty()) detail::check_kernel_dtypes(input.dtype(), od, fn);
    ndarray out = detail::make_output(output, input.shape(), od, input.device(), fn);
    if (passes.empty()) detail::copy_into(input, out);  // SciPy: output[...] = input[...]
    else detail::run_axis_filter_into(input, out, std::move(passes), cval);
    return out;
  }

  // Not separable: SciPy's _expand_footprint, _expand_origin, then its checks in order.
  if (n < static_cast<std::size_t>(nd) && fshape.size() != n)
    throw runtime_error(fname(fn) + ": footprint.ndim (" + std::to_string(fshape.size()) + ") must match len(axes) (" +
                        std::to_string(n) + ")");
  const std::vector<std::int64_t> origins = detail::expand(origin, n, fn, "origin");
  detail::footprint_spec f;
  if (n < static_cast<std::size_t>(nd)) {
    // The footprint's dimensions go to the filtered axes in increasing order (unit dimensions at the
    // others); the origins to the axes in the order given.
    f.shape.assign(static_cast<std::size_t>(nd), 1);
    f.origins.assign(static_cast<std::size_t>(nd), 0);
    std::vector<int> sorted_axes = axes;
    std::sort(sorted_axes.begin(), sorted_axes.end());
    for (std::size_t i = 0; i < n; ++i) {
      f.shape[static_cast<std::size_t>(sorted_axes[i])] = fshape[i];
      f.origins[static_cast<std::size_t>(axes[i])] = origins[i];
    }
  } else {
    f.shape = fshape;
    f.origins = origins;
  }
  std::size_t n_pos = 0;
  for (auto e : f.shape) n_pos += e > 0 ? 1 : 0;
  if (n_pos != static_cast<std::size_t>(nd) || f.shape.size() != static_cast<std::size_t>(nd))
    throw runtime_error(fname(fn) + ": footprint.ndim (" + std::to_string(fshape.size()) + ") must match len(axes) (" +
                        std::to_string(n) + ")");
  for (int d = 0; d < nd; ++d)
    detail::check_origin(f.shape[static_cast<std::size_t>(d)], f.origins[static_cast<std::size_t>(d)], fn);
  if (structure) {
    if (sshape.size() != n)
      throw runtime_error(fname(fn) + ": structure array has incorrect shape: " + std::to_string(sshape.size()) +
                          " dimensions for " + std::to_string(n) + " filtered axes");
    if (svals.size() != mask.size())
      throw runtime_error(fname(fn) + ": structure array has incorrect shape: " +
                          cusci::detail::shape_str(sshape) + " for a footprint of shape " +
                          cusci::detail::shape_str(fshape));
  }
  if (!modes.is_scalar)
    throw runtime_error(fname(fn) + ": A sequence of modes is not supported for non-separable footprints");
  if (modes.values.empty()) throw runtime_error(fname(fn) + ": boundary mode not supported: no mode given");
  detail::check_mode(modes.values.front(), fn);
  detail::check_kernel_dtypes(input.dtype(), od, fn);
  f.modes.assign(static_cast<std::size_t>(nd), detail::filter_ext(modes.values.front()));
  f.mask = std::move(mask);
  if (structure) f.weights = std::move(svals);
  ndarray out = detail::make_output(output, input.shape(), od, input.device(), fn);
  if (out.size() == 0) return out;
  auto pass = [&](const ndarray& dst) {
    if (structure) detail::grey_structure_pass(input, dst, f, cval, minimum);
    else detail::min_max_footprint_pass(input, dst, f, cval, minimum);
  };
  // The kernels must not write what they read: an overlapping output gets the result through a
  // separate array (SciPy's temp_needed).
  if (detail::may_share_memory(input, out)) {
    ndarray tmp = cusci::empty(input.shape(), od);
    pass(tmp);
    detail::copy_into(tmp, out);
  } else {
    pass(out);
  }
  return out;
}

ndarray erosion(const char* fn, const ndarray& input, const per_axis<std::int64_t>& size, const opts_t& o,
                const output_arg& output) {
  if (size.empty() && !o.footprint && !o.structure)
    throw value_error(fname(fn) + ": size, footprint, or structure must be specified");
  return min_or_max(fn, input, size, o.footprint, o.structure, output, o.mode, o.cval, o.origin, o.axes, true);
}

ndarray dilation(const char* fn, const ndarray& input, const per_axis<std::int64_t>& size, const opts_t& o,
                 const output_arg& output) {
  if (size.empty() && !o.footprint && !o.structure)
    throw value_error(fname(fn) + ": size, footprint, or structure must be specified");
  // SciPy: the footprint and structure reversed along every axis; the origins negated, minus one
  // along axes of even extent (the footprint's, else the structure's, else size's).
  std::optional<host_array> fp, st;
  if (o.footprint) fp = reversed(*o.footprint);
  if (o.structure) st = reversed(*o.structure);
  const std::vector<int> axes = detail::check_axes(o.axes, input.ndim(), fn);
  std::vector<std::int64_t> origins = detail::expand(o.origin, axes.size(), fn, "origin");
  for (std::size_t i = 0; i < origins.size(); ++i) {
    origins[i] = -origins[i];
    std::int64_t sz = 0;
    auto dim = [&](const host_array& h, const char* what) {
      if (static_cast<std::size_t>(h.ndim()) <= i)
        throw index_error(fname(fn) + ": tuple index out of range: the " + what + " has " + std::to_string(h.ndim()) +
                          " dimensions for " + std::to_string(axes.size()) + " filtered axes");
      return h.shape()[i];
    };
    if (fp) {
      sz = dim(*fp, "footprint");
    } else if (st) {
      sz = dim(*st, "structure");
    } else if (size.is_scalar) {
      sz = size.values.front();
    } else {
      if (size.values.size() <= i)
        throw index_error(fname(fn) + ": list index out of range: size has " + std::to_string(size.values.size()) +
                          " values for " + std::to_string(axes.size()) + " filtered axes");
      sz = size.values[i];
    }
    if ((sz & 1) == 0) origins[i] -= 1;
  }
  return min_or_max(fn, input, size, fp, st, output, o.mode, o.cval, per_axis<std::int64_t>(origins), o.axes, false);
}

/// Runs a NumPy step of a composite, naming the function in a type error (NumPy's casting and
/// boolean-subtract errors).
template <class F>
void numpy_step(const char* fn, F&& f) {
  try {
    f();
  } catch (const type_error& e) {
    throw type_error(fname(fn) + ": " + e.what());
  }
}

/// The input the composites read after the output has been written: a copy when the output array
/// overlaps it, so that an in-place call gives the values of a separate output.
ndarray stable_input(const ndarray& input, const output_arg& output) {
  if (output.is_array() && detail::may_share_memory(input, output.array())) return input.copy();
  return input;
}

}  // namespace

ndarray grey_erosion(const ndarray& input, const per_axis<std::int64_t>& size, const grey_morphology_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::grey_erosion");
  return erosion("grey_erosion", input, size, opts, opts.output);
}

ndarray grey_dilation(const ndarray& input, const per_axis<std::int64_t>& size, const grey_morphology_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::grey_dilation");
  return dilation("grey_dilation", input, size, opts, opts.output);
}

ndarray grey_opening(const ndarray& input, const per_axis<std::int64_t>& size, const grey_morphology_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::grey_opening");
  const char* fn = "grey_opening";
  const ndarray tmp = erosion(fn, input, size, opts, std::nullopt);
  return dilation(fn, tmp, size, opts, opts.output);
}

ndarray grey_closing(const ndarray& input, const per_axis<std::int64_t>& size, const grey_morphology_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::grey_closing");
  const char* fn = "grey_closing";
  const ndarray tmp = dilation(fn, input, size, opts, std::nullopt);
  return erosion(fn, tmp, size, opts, opts.output);
}

ndarray morphological_gradient(const ndarray& input, const per_axis<std::int64_t>& size,
                               const grey_morphology_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::morphological_gradient");
  const char* fn = "morphological_gradient";
  const ndarray tmp = dilation(fn, input, size, opts, std::nullopt);
  if (opts.output.is_array()) {
    ndarray out = opts.output.array();
    erosion(fn, input, size, opts, out);
    numpy_step(fn, [&] { cusci::subtract(tmp, out, &out); });
    return out;
  }
  ndarray r;
  const ndarray ero = erosion(fn, input, size, opts, std::nullopt);
  numpy_step(fn, [&] { r = cusci::subtract(tmp, ero); });
  return r;
}

ndarray morphological_laplace(const ndarray& input, const per_axis<std::int64_t>& size,
                              const grey_morphology_options& opts) {
  const char* fn = "morphological_laplace";
  const ndarray in = stable_input(input, opts.output);
  const ndarray tmp1 = dilation(fn, in, size, opts, std::nullopt);
  if (opts.output.is_array()) {
    ndarray out = opts.output.array();
    erosion(fn, in, size, opts, out);
    numpy_step(fn, [&] {
      cusci::add(tmp1, out, &out);
      cusci::subtract(out, in, &out);
      cusci::subtract(out, in, &out);
    });
    return out;
  }
  ndarray tmp2 = erosion(fn, in, size, opts, std::nullopt);
  numpy_step(fn, [&] {
    cusci::add(tmp1, tmp2, &tmp2);
    cusci::subtract(tmp2, in, &tmp2);
    cusci::subtract(tmp2, in, &tmp2);
  });
  return tmp2;
}

ndarray white_tophat(const ndarray& input, const per_axis<std::int64_t>& size, const grey_morphology_options& opts) {
  const char* fn = "white_tophat";
  const ndarray in = stable_input(input, opts.output);
  const ndarray ero = erosion(fn, in, size, opts, std::nullopt);
  ndarray tmp = dilation(fn, ero, size, opts, opts.output);
  numpy_step(fn, [&] {
    if (in.dtype() == dtype::bool_ && tmp.dtype() == dtype::bool_) cusci::bitwise_xor(in, tmp, &tmp);
    else cusci::subtract(in, tmp, &tmp);
  });
  return tmp;
}

ndarray black_tophat(const ndarray& input, const per_axis<std::int64_t>& size, const grey_morphology_options& opts) {
  const char* fn = "black_tophat";
  const ndarray in = stable_input(input, opts.output);
  const ndarray dil = dilation(fn, in, size, opts, std::nullopt);
  ndarray tmp = erosion(fn, dil, size, opts, opts.output);
  numpy_step(fn, [&] {
    if (in.dtype() == dtype::bool_ && tmp.dtype() == dtype::bool_) cusci::bitwise_xor(tmp, in, &tmp);
    else cusci::subtract(tmp, in, &tmp);
  });
  return tmp;
}

}  // namespace cusci::ndimage
