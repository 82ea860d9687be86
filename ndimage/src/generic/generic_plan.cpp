// The precompiled host half of generic_filter, generic_filter1d and vectorized_filter (SciPy 1.18.1's
// argument handling in SciPy's order, the padded copy, the window offsets and launch shape, and the
// delivery of the results), shared by the run-time-compiled form (generic_rtc.cpp) and the nvcc
// functor form (cusci/ndimage/nvcc/generic_filters.cuh).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/detail/generic_plan.hpp"
#include "cusci/ndimage/generic.hpp"
#include "engine/boundary.hpp"
#include "filters/filter_common.hpp"
#include "generic/generic_kernels.hpp"

namespace cusci::ndimage {

vectorized_mode::vectorized_mode(std::string_view name) {
  if (name == "valid") {
    valid_ = true;
    return;
  }
  static constexpr const char* names[] = {"reflect",     "constant",      "nearest",   "mirror", "wrap",
                                          "grid-mirror", "grid-constant", "grid-wrap", "valid"};
  for (const char* n : names)
    if (name == n) {
      mode_ = parse_mode(name);
      return;
    }
  throw value_error("cusci::ndimage::vectorized_filter: `mode` must be one of {'reflect', 'constant', 'nearest', "
                    "'mirror', 'wrap', 'grid-mirror', 'grid-constant', 'grid-wrap', 'valid'}, got '" +
                    std::string(name) + "'");
}

namespace detail {
namespace {

constexpr std::int64_t kBlock = 128;
constexpr std::int64_t kMaxGrid = 132 * 16;
constexpr std::int64_t kScratchBudget = std::int64_t{256} << 20;  // bytes of window scratch at most

std::string fn_name(const char* fn) { return fname(fn); }

/// What a window pass gathers: the result shape, the padding of each array dimension, and the
/// footprint (its own shape, the array axis of each of its dimensions, its mask in C order).
struct window_spec {
  shape_t out_shape;
  std::vector<std::int64_t> before, extent;  // per array dimension
  bool valid = false;
  shape_t fshape;
  std::vector<int> faxis;
  std::vector<unsigned char> mask;
  std::int64_t window = 0;
};

std::int64_t count_true(const std::vector<unsigned char>& m) {
  std::int64_t n = 0;
  for (auto v : m) n += v != 0 ? 1 : 0;
  return n;
}

void check_dims(int nd, const char* fn) {
  if (nd > generic_max_dims)
    throw value_error(fn_name(fn) + ": at most " + std::to_string(generic_max_dims) + " dimensions are supported, got " +
                      std::to_string(nd));
}

/// The footprint of `size` (box of ones) or of a host array (nonzero = inside).
void footprint_of(const per_axis<std::int64_t>* size, const std::optional<host_array>& fp, std::size_t n_ax,
                  shape_t& fshape, std::vector<unsigned char>& mask, const char* fn, bool vectorized) {
  if (fp) {
    const host_array fb = fp->astype(dtype::bool_);
    fshape = fb.shape();
    const bool* b = fb.data_as<bool>();
    mask.assign(b, b + fb.size());
    if (static_cast<std::int64_t>(mask.size()) > max_filter_size)
      throw value_error(fn_name(fn) + ": the footprint may hold at most 2^30 elements, got " + std::to_string(mask.size()));
    return;
  }
  std::vector<std::int64_t> sizes;
  if (vectorized) {
    sizes = size->is_scalar ? std::vector<std::int64_t>(n_ax, size->values.front()) : size->values;
    for (auto s : sizes)
      if (s <= 0) throw value_error(fn_name(fn) + ": All elements of `size` must be positive integers. (got " + std::to_string(s) + ")");
  } else {
    sizes = expand(*size, n_ax, fn, "size");
    for (auto s : sizes)
      if (s < 0) throw value_error(fn_name(fn) + ": negative dimensions are not allowed (size " + std::to_string(s) + ")");
  }
  std::int64_t count = 1;
  for (auto s : sizes) {
    if (s > max_filter_size)
      throw value_error(fn_name(fn) + ": size must be at most 2^30, got " + std::to_string(s));
    count = cusci::detail::checked_mul(count, s, fn_name(fn));
    if (count > max_filter_size)
      throw value_error(fn_name(fn) + ": the window may hold at most 2^30 elements");
  }
  fshape.assign(sizes.begin(), sizes.end());
  mask.assign(static_cast<std::size_t>(count), 1);
}

/// The padded copy, the offsets and the launch shape of a window pass (after every check).
void build_window_plan(window_plan& p, const ndarray& input, const window_spec& s, bool to_double, const char* fn,
                       const unsigned char* cval_bytes, double cval, int ext_mode, std::int64_t scratch_budget) {
  const int nd = input.ndim();
  p.ndim = nd;
  p.window = s.window;
  p.count = 1;
  for (auto e : s.out_shape) p.count *= e;
  shape_t pshape(static_cast<std::size_t>(nd));
  for (int d = 0; d < nd; ++d) {
    const auto ud = static_cast<std::size_t>(d);
    pshape[ud] = s.valid ? input.shape()[ud] : input.shape()[ud] + s.extent[ud] - 1;
  }
  std::int64_t ptotal = 1;
  for (auto e : pshape) ptotal = cusci::detail::checked_mul(ptotal, e, fn_name(fn));
  std::vector<std::int64_t> pstride(static_cast<std::size_t>(nd), 1);
  for (int d = nd - 2; d >= 0; --d)
    pstride[static_cast<std::size_t>(d)] = pstride[static_cast<std::size_t>(d) + 1] * pshape[static_cast<std::size_t>(d) + 1];

  // Offsets of the footprint's true elements, C order over the footprint.
  std::vector<std::int64_t> geom;
  geom.reserve(static_cast<std::size_t>(2 * nd + s.window + 1));
  for (auto e : s.out_shape) geom.push_back(e);
  for (auto e : pstride) geom.push_back(e);
  const std::size_t fnd = s.fshape.size();
  std::vector<std::int64_t> k(fnd, 0);
  for (std::size_t i = 0; i < s.mask.size(); ++i) {
    if (s.mask[i]) {
      std::int64_t off = 0;
      for (std::size_t j = 0; j < fnd; ++j) off += k[j] * pstride[static_cast<std::size_t>(s.faxis[j])];
      geom.push_back(off);
    }
    for (std::size_t j = fnd; j-- > 0;) {
      if (++k[j] < s.fshape[j]) break;
      k[j] = 0;
    }
  }
  geom.push_back(0);  // never empty

  // Launch shape: a grid-stride loop; long windows take a global scratch buffer per thread.
  const dtype pdt = to_double ? dtype::float64 : input.dtype();
  std::int64_t threads = std::min<std::int64_t>(((p.count + kBlock - 1) / kBlock) * kBlock, kMaxGrid * kBlock);
  if (s.window > generic_local_window) {
    const std::int64_t per_thread = s.window * static_cast<std::int64_t>(itemsize(pdt));
    const std::int64_t fit = std::max<std::int64_t>(kBlock, (scratch_budget / per_thread) / kBlock * kBlock);
    threads = std::min(threads, fit);
  }
  p.block = static_cast<unsigned>(kBlock);
  p.grid = static_cast<unsigned>(std::max<std::int64_t>(1, threads / kBlock));

  // Allocations and the padding, after every check.
  p.geometry = asarray(host_array::from(geom));
  p.padded = cusci::empty(pshape, pdt);
  if (s.window > generic_local_window)
    p.scratch = cusci::empty({cusci::detail::checked_mul(static_cast<std::int64_t>(p.grid) * kBlock, s.window, fn_name(fn))}, pdt);
  pad_geometry g;
  g.ndim = nd;
  g.mode = ext_mode;
  for (int d = 0; d < nd; ++d) {
    const auto ud = static_cast<std::size_t>(d);
    g.shape[d] = pshape[ud];
    g.len[d] = input.shape()[ud];
    g.before[d] = s.valid ? 0 : s.before[ud];
    g.stride[d] = input.strides()[ud];
  }
  if (to_double) pad_to_double(input.data(), input.dtype(), p.padded.data_as<double>(), ptotal, g, cval);
  else pad_bytes(input.data(), input.itemsize(), p.padded.data(), ptotal, g, cval_bytes);
}

bool supported_real(dtype t) { return t != dtype::float16 && !is_complex(t); }

}  // namespace

window_plan prepare_generic_filter(const ndarray& input, const per_axis<std::int64_t>& size,
                                   const generic_filter_options& opts) {
  const char* fn = "generic_filter";
  if (is_complex(input.dtype())) throw type_error(fname(fn) + ": Complex type not supported");
  const int nd = input.ndim();
  const std::vector<int> axes = check_axes(opts.axes, nd, fn);
  const std::size_t n_ax = axes.size();
  window_spec s;
  if (!opts.footprint && size.empty()) throw runtime_error(fname(fn) + ": no footprint or filter size provided");
  footprint_of(&size, opts.footprint, n_ax, s.fshape, s.mask, fn, false);
  // SciPy's _expand_footprint: the footprint's dimensions go to the filtered axes in increasing order.
  if (n_ax < static_cast<std::size_t>(nd) && s.fshape.size() != n_ax)
    throw runtime_error(fname(fn) + ": footprint.ndim (" + std::to_string(s.fshape.size()) + ") must match len(axes) (" +
                        std::to_string(n_ax) + ")");
  std::vector<int> sorted_axes = axes;
  std::sort(sorted_axes.begin(), sorted_axes.end());
  shape_t full(static_cast<std::size_t>(nd), 1);
  if (n_ax < static_cast<std::size_t>(nd)) {
    for (std::size_t i = 0; i < n_ax; ++i) full[static_cast<std::size_t>(sorted_axes[i])] = s.fshape[i];
    s.faxis = sorted_axes;
  } else {
    full = s.fshape;
    for (std::size_t i = 0; i < s.fshape.size(); ++i) s.faxis.push_back(static_cast<int>(i));
  }
  // SciPy's _expand_origin: per filtered axis (in `axes` order) when some axes are left out, else
  // per array axis.
  const std::vector<std::int64_t> ax_origins = expand(opts.origin, n_ax, fn, "origin");
  std::vector<std::int64_t> origins(static_cast<std::size_t>(nd), 0);
  for (std::size_t i = 0; i < n_ax; ++i)
    origins[n_ax < static_cast<std::size_t>(nd) ? static_cast<std::size_t>(axes[i]) : i] = ax_origins[i];
  std::size_t nonzero_dims = 0;
  for (auto e : full) nonzero_dims += e > 0 ? 1 : 0;
  if (nonzero_dims != static_cast<std::size_t>(nd) || full.size() != static_cast<std::size_t>(nd))
    throw runtime_error(fname(fn) + ": footprint.ndim (" + std::to_string(s.fshape.size()) + ") must match len(axes) (" +
                        std::to_string(n_ax) + ")");
  for (int d = 0; d < nd; ++d) {
    const std::int64_t lenf = full[static_cast<std::size_t>(d)], o = origins[static_cast<std::size_t>(d)];
    if (lenf / 2 + o < 0 || lenf / 2 + o >= lenf)
      throw value_error(fname(fn) + ": invalid origin: extent // 2 + origin must lie in [0, extent), got extent " +
                        std::to_string(lenf) + " and origin " + std::to_string(o));
  }
  const dtype od = opts.output.dtype() ? *opts.output.dtype() : input.dtype();
  check_output_shape(opts.output, input.shape(), fn);
  if (!supported_real(input.dtype()))
    throw runtime_error(fname(fn) + ": array type not supported (input " + std::string(dtype_name(input.dtype())) + ")");
  if (!supported_real(od))
    throw runtime_error(fname(fn) + ": array type not supported (output " + std::string(dtype_name(od)) + ")");
  check_mode(opts.mode, fn);
  check_dims(nd, fn);
  s.window = count_true(s.mask);
  s.out_shape = input.shape();
  for (int d = 0; d < nd; ++d) {
    const auto ud = static_cast<std::size_t>(d);
    s.extent.push_back(full[ud]);
    s.before.push_back(full[ud] / 2 + origins[ud]);
  }

  window_plan p;
  p.input_dtype = input.dtype();
  p.output_dtype = od;
  p.output = make_output(opts.output, input.shape(), od, input.device(), fn);
  if (input.size() == 0) {
    p.skip = true;
    return p;
  }
  p.result = cusci::empty(input.shape(), dtype::float64);
  build_window_plan(p, input, s, true, fn, nullptr, opts.cval, static_cast<int>(filter_ext(opts.mode)), kScratchBudget);
  return p;
}

ndarray finish_generic_filter(const window_plan& p) {
  if (p.skip) return p.output;
  cast_geometry g;
  g.ndim = p.output.ndim();
  for (int d = 0; d < g.ndim; ++d) {
    g.shape[d] = p.output.shape()[static_cast<std::size_t>(d)];
    g.stride[d] = p.output.strides()[static_cast<std::size_t>(d)];
  }
  cast_from_double(p.result.data_as<double>(), p.output.data(), p.output_dtype, p.count, g);
  return p.output;
}

window_plan prepare_vectorized_filter(const ndarray& input, const vectorized_filter_options& opts,
                                      std::optional<cusci::dtype> result_dtype) {
  const char* fn = "vectorized_filter";
  const int nd = input.ndim();
  const bool has_size = !opts.size.empty(), has_fp = opts.footprint.has_value();
  if (!has_size && !has_fp) throw value_error(fname(fn) + ": Either `size` or `footprint` must be provided.");
  if (has_size && has_fp) throw value_error(fname(fn) + ": Either `size` or `footprint` may be provided, not both.");
  std::vector<int> axes;
  if (opts.axes) axes = *opts.axes;
  else
    for (int d = 0; d < nd; ++d) axes.push_back(d);
  const std::size_t n_ax = axes.size();
  if (n_ax > static_cast<std::size_t>(nd))
    throw value_error(fname(fn) + ": The length of `axes` may not exceed the dimensionality of `input`(`input.ndim`).");
  window_spec s;
  footprint_of(&opts.size, opts.footprint, n_ax, s.fshape, s.mask, fn, true);
  if (s.fshape.size() != n_ax)
    throw value_error(fname(fn) + ": `axes` must be compatible with the dimensionality of the window specified by "
                                  "`size` or `footprint` (" + std::to_string(s.fshape.size()) + " window dimensions, " +
                      std::to_string(n_ax) + " axes).");
  const std::vector<std::int64_t> origin =
      opts.origin.is_scalar ? std::vector<std::int64_t>(n_ax, opts.origin.values.front()) : opts.origin.values;
  if (origin.size() != n_ax)
    throw value_error(fname(fn) + ": `origin` must be an integer or tuple of integers with length equal to the number "
                                  "of axes.");
  const bool valid = opts.mode.is_valid();
  const bool any_origin = std::any_of(origin.begin(), origin.end(), [](std::int64_t o) { return o != 0; });
  if (valid && any_origin) throw value_error(fname(fn) + ": `mode='valid'` is incompatible with use of `origin`.");
  const bool constant = !valid && (opts.mode.boundary() == mode::constant || opts.mode.boundary() == mode::grid_constant);
  if (opts.cval && !constant)
    throw value_error(fname(fn) + ": Use of `cval` is compatible only with `mode='constant'`.");
  if (opts.batch_memory <= 0) throw value_error(fname(fn) + ": `batch_memory` must be positive number.");
  // np.moveaxis(input, axes, ...): AxisError / "repeated axis".
  std::vector<int> norm;
  for (int a : axes) {
    if (a < -nd || a >= nd)
      throw index_error(fname(fn) + ": axis " + std::to_string(a) + " is out of bounds for array of dimension " +
                        std::to_string(nd) + " (axes)");
    norm.push_back(a < 0 ? a + nd : a);
  }
  {
    std::vector<int> t = norm;
    std::sort(t.begin(), t.end());
    if (std::adjacent_find(t.begin(), t.end()) != t.end())
      throw value_error(fname(fn) + ": repeated axis in `source` argument (axes)");
  }
  if (!valid) check_mode(opts.mode.boundary(), fn);
  check_dims(nd, fn);
  // Geometry per array dimension.
  s.valid = valid;
  s.faxis = norm;
  s.extent.assign(static_cast<std::size_t>(nd), 1);
  s.before.assign(static_cast<std::size_t>(nd), 0);
  s.out_shape = input.shape();
  for (std::size_t i = 0; i < n_ax; ++i) {
    const auto d = static_cast<std::size_t>(norm[i]);
    const std::int64_t f = s.fshape[i], o = origin[i];
    s.extent[d] = f;
    // np.pad's widths (f // 2 + o, (f - 1) // 2 - o) must be >= 0.
    if (input.size() != 0 && (f / 2 + o < 0 || (f - 1) / 2 - o < 0))
      throw value_error(fname(fn) + ": index can't contain negative values (origin " + std::to_string(o) +
                        " for a window of " + std::to_string(f) + "; -(size // 2) <= origin <= (size - 1) // 2)");
    s.before[d] = f / 2 + o;
    if (valid) {
      if (f > input.shape()[d] && input.size() != 0)
        throw value_error(fname(fn) + ": window shape cannot be larger than input array shape (mode 'valid', axis " +
                          std::to_string(norm[i]) + ")");
      s.out_shape[d] = input.shape()[d] - f + 1;
    }
  }
  // SciPy evaluates the windows in batches along the first axis of its sliding-window view (the
  // unfiltered axes, then the filtered ones in `axes` order, then the window box): one slice of it
  // must fit in batch_memory.
  if (n_ax > 0 && input.size() != 0) {
    std::vector<std::int64_t> vshape;
    for (int d = 0; d < nd; ++d)
      if (std::find(norm.begin(), norm.end(), d) == norm.end()) vshape.push_back(s.out_shape[static_cast<std::size_t>(d)]);
    for (int a : norm) vshape.push_back(s.out_shape[static_cast<std::size_t>(a)]);
    for (auto e : s.fshape) vshape.push_back(e);
    double chunk = static_cast<double>(input.itemsize());
    for (std::size_t i = 1; i < vshape.size(); ++i) chunk *= static_cast<double>(vshape[i]);
    if (chunk > 0 && std::min(static_cast<double>(vshape[0]), std::floor(static_cast<double>(opts.batch_memory) / chunk)) < 1)
      throw value_error(fname(fn) + ": `batch_memory` is insufficient for minimum chunk size.");
  }
  const dtype od = opts.output.dtype() ? *opts.output.dtype() : input.dtype();
  if (opts.output.is_array() && opts.output.array().shape() != s.out_shape && input.size() != 0)
    throw value_error(fname(fn) + ": could not broadcast the result of shape " + cusci::detail::shape_str(s.out_shape) +
                      " into the output array of shape " + cusci::detail::shape_str(opts.output.array().shape()));
  s.window = count_true(s.mask);

  window_plan p;
  p.input_dtype = input.dtype();
  p.output_dtype = od;
  if (input.size() == 0) {  // SciPy returns the input itself
    p.skip = true;
    p.output = input;
    return p;
  }
  // The constant in the input's type (np.pad assigns the float cval with NumPy's casting).
  host_array cv(dtype::float64, {1});
  cv.data_as<double>()[0] = opts.cval.value_or(0.0);
  const host_array cvt = cv.astype(input.dtype());
  unsigned char cbytes[16] = {};
  std::memcpy(cbytes, cvt.data(), input.itemsize());
  // np.pad's modes: reflect -> symmetric (half-sample), mirror and grid-mirror -> reflect
  // (whole-sample), nearest -> edge, wrap / grid-wrap -> wrap, constant / grid-constant -> constant.
  int ext_mode = static_cast<int>(filter_ext(opts.mode.boundary()));
  if (opts.mode.boundary() == mode::grid_mirror) ext_mode = static_cast<int>(ext::mirror);

  const dtype rdt = result_dtype.value_or(od);
  if (!opts.output.is_array() && rdt == od) {
    p.result = cusci::empty(s.out_shape, od);
    p.output = p.result;
  } else {
    p.result = cusci::empty(s.out_shape, rdt);
    p.output = make_output(opts.output, s.out_shape, od, input.device(), fn);
  }
  const std::int64_t budget = std::min(opts.batch_memory, kScratchBudget);
  build_window_plan(p, input, s, false, fn, cbytes, 0.0, ext_mode, budget);
  return p;
}

ndarray finish_vectorized_filter(const window_plan& p) {
  if (p.skip) return p.output;
  const dtype rd = p.result.dtype(), od = p.output.dtype();
  if ((rd == dtype::float32 || rd == dtype::float64) && (is_integer(od) || od == dtype::bool_)) {
    // NumPy's cast of real floats to integers as on x86-64 (out-of-range and NaN: the "integer
    // indefinite" value, then its low bits), and to bool v != 0: the conversion SciPy's
    // `output[...] = result` performs, which core's astype (CUDA's saturating conversion) does not.
    const ndarray r = rd == dtype::float64 ? p.result : p.result.astype(dtype::float64);
    cast_geometry g;
    g.ndim = p.output.ndim();
    for (int d = 0; d < g.ndim; ++d) {
      g.shape[d] = p.output.shape()[static_cast<std::size_t>(d)];
      g.stride[d] = p.output.strides()[static_cast<std::size_t>(d)];
    }
    cast_from_double(r.data_as<double>(), p.output.data(), od, p.output.size(), g, /*numpy_bool=*/true);
    return p.output;
  }
  if (!same_view(p.result, p.output)) copy_into(p.result, p.output);
  return p.output;
}

line_plan prepare_generic_filter1d(const ndarray& input, std::int64_t filter_size, int axis,
                                   const generic_filter1d_options& opts) {
  const char* fn = "generic_filter1d";
  if (is_complex(input.dtype())) throw type_error(fname(fn) + ": Complex type not supported");
  const dtype od = opts.output.dtype() ? *opts.output.dtype() : input.dtype();
  check_output_shape(opts.output, input.shape(), fn);
  if (filter_size < 1) throw runtime_error(fname(fn) + ": invalid filter size (" + std::to_string(filter_size) + ")");
  const int ax = normalize_axis(axis, input.ndim(), fn, "axis");
  if (filter_size / 2 + opts.origin < 0 || filter_size / 2 + opts.origin >= filter_size)
    throw value_error(fname(fn) + ": invalid origin: filter_size // 2 + origin must lie in [0, filter_size), got " +
                      "filter_size " + std::to_string(filter_size) + " and origin " + std::to_string(opts.origin));
  check_mode(opts.mode, fn);
  if (!supported_real(input.dtype()))
    throw runtime_error(fname(fn) + ": array type not supported (input " + std::string(dtype_name(input.dtype())) + ")");
  if (!supported_real(od))
    throw runtime_error(fname(fn) + ": array type not supported (output " + std::string(dtype_name(od)) + ")");
  if (filter_size > max_filter_size)
    throw value_error(fname(fn) + ": filter_size must be at most 2^30, got " + std::to_string(filter_size));
  check_dims(input.ndim(), fn);

  line_plan p;
  p.axis = ax;
  p.output = make_output(opts.output, input.shape(), od, input.device(), fn);
  if (input.size() == 0) {
    p.skip = true;
    return p;
  }
  const ndarray v = cusci::detail::move_axis_last(input, ax);
  const int nd = v.ndim();
  p.out_length = v.shape().back();
  p.in_length = p.out_length + filter_size - 1;
  p.lines = input.size() / p.out_length;
  const std::int64_t threads = std::min<std::int64_t>(((p.lines + kBlock - 1) / kBlock) * kBlock, kMaxGrid * kBlock);
  p.block = static_cast<unsigned>(kBlock);
  p.grid = static_cast<unsigned>(std::max<std::int64_t>(1, threads / kBlock));
  p.padded = cusci::empty({p.lines, p.in_length}, dtype::float64);
  p.result = cusci::zeros({p.lines, p.out_length}, dtype::float64);
  pad_geometry g;
  g.ndim = nd;
  g.mode = static_cast<int>(filter_ext(opts.mode));
  for (int d = 0; d < nd; ++d) {
    const auto ud = static_cast<std::size_t>(d);
    g.len[d] = v.shape()[ud];
    g.shape[d] = v.shape()[ud];
    g.stride[d] = v.strides()[ud];
  }
  g.shape[nd - 1] = p.in_length;
  g.before[nd - 1] = filter_size / 2 + opts.origin;
  pad_to_double(v.data(), v.dtype(), p.padded.data_as<double>(), p.lines * p.in_length, g, opts.cval);
  return p;
}

ndarray finish_generic_filter1d(const line_plan& p) {
  if (p.skip) return p.output;
  const ndarray v = cusci::detail::move_axis_last(p.output, p.axis);
  cast_geometry g;
  g.ndim = v.ndim();
  for (int d = 0; d < g.ndim; ++d) {
    g.shape[d] = v.shape()[static_cast<std::size_t>(d)];
    g.stride[d] = v.strides()[static_cast<std::size_t>(d)];
  }
  cast_from_double(p.result.data_as<double>(), p.output.data(), p.output.dtype(), p.lines * p.out_length, g);
  return p.output;
}

}  // namespace detail
}  // namespace cusci::ndimage
