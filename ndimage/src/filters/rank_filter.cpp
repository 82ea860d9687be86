// Host wrappers of rank_filter, median_filter and percentile_filter: SciPy 1.18.1's _rank_filter
// (argument checks in SciPy's order, the footprint / origin / mode expansion over `axes`, the rank
// from the operation, the minimum / maximum delegation for the first and last ranks, SciPy's 1-D
// path for 1-D arrays and its N-D path otherwise), then the kernels of rank.cu / rank_box.cu.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/rank.hpp"
#include "engine/axis_engine.hpp"
#include "engine/footprint_engine.hpp"
#include "filters/filter_common.hpp"
#include "filters/rank_pass.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::fname;

enum class rank_op { rank, median, percentile };

/// SciPy's _normalize_sequence (RuntimeError for a sequence of the wrong length).
template <class T>
std::vector<T> normalize_sequence(const per_axis<T>& v, std::size_t n, const char* fn) {
  if (v.is_scalar) return std::vector<T>(n, v.values.front());
  if (v.values.size() != n)
    throw runtime_error(fname(fn) + ": sequence argument must have length equal to input rank (expected " +
                        std::to_string(n) + " values, got " + std::to_string(v.values.size()) + ")");
  return v.values;
}

/// int64(cval) as NumPy's scalar constructor (truncation toward zero; NaN: ValueError; out of
/// range: OverflowError, here value_error).
std::int64_t int64_cval(double cval, const char* fn) {
  if (std::isnan(cval)) throw value_error(fname(fn) + ": cannot convert float NaN to integer (cval)");
  if (!(cval > -9223372036854775808.0 - 1.0 && cval < 9223372036854775808.0))
    throw value_error(fname(fn) + ": cval " + detail::num(cval) + " is out of range for int64 (SciPy: OverflowError)");
  return static_cast<std::int64_t>(cval);
}

ndarray rank_impl(const char* fn, const ndarray& input, std::int64_t rank_arg, double pct_arg, rank_op op, const per_axis<std::int64_t>& size,
                  const rank_filter_options& opts) {
  if (is_complex(input.dtype())) throw type_error(fname(fn) + ": Complex type not supported");
  const int nd = input.ndim();
  const std::vector<int> axes = detail::check_axes(opts.axes, nd, fn);
  const std::size_t n_ax = axes.size();

  // The footprint over the filtered axes.
  shape_t fshape;
  std::vector<unsigned char> mask;
  if (!opts.footprint) {
    if (size.empty()) throw runtime_error(fname(fn) + ": no footprint or filter size provided");
    const std::vector<std::int64_t> sizes = normalize_sequence(size, n_ax, fn);
    std::int64_t count = 1;
    for (auto s : sizes) {
      if (s < 0) throw value_error(fname(fn) + ": negative dimensions are not allowed (size " + std::to_string(s) + ")");
      if (s > detail::max_filter_size)
        throw value_error(fname(fn) + ": size must be at most " + std::to_string(detail::max_filter_size) + ", got " +
                          std::to_string(s));
      count = cusci::detail::checked_mul(count, s, fname(fn));
    }
    if (count > detail::max_filter_size)
      throw value_error(fname(fn) + ": the footprint may hold at most 2^30 elements, got " + std::to_string(count));
    fshape.assign(sizes.begin(), sizes.end());
    mask.assign(static_cast<std::size_t>(count), 1);
  } else {
    const host_array fb = opts.footprint->astype(dtype::bool_);
    fshape = fb.shape();
    const bool* b = fb.data_as<bool>();
    mask.assign(b, b + fb.size());
  }
  // SciPy's _expand_footprint: only when some axes are left out.
  if (n_ax < static_cast<std::size_t>(nd) && fshape.size() != n_ax)
    throw runtime_error(fname(fn) + ": footprint.ndim (" + std::to_string(fshape.size()) + ") must match len(axes) (" +
                        std::to_string(n_ax) + ")");
  std::vector<int> sorted_axes = axes;
  std::sort(sorted_axes.begin(), sorted_axes.end());
  shape_t full_shape = fshape;
  if (n_ax < static_cast<std::size_t>(nd)) {
    full_shape.assign(static_cast<std::size_t>(nd), 1);
    for (std::size_t i = 0; i < n_ax; ++i) full_shape[static_cast<std::size_t>(sorted_axes[i])] = fshape[i];
  }
  // _expand_origin / _expand_mode.
  const std::vector<std::int64_t> ax_origins = normalize_sequence(opts.origin, n_ax, fn);
  std::vector<std::int64_t> origins(static_cast<std::size_t>(nd), 0);
  for (std::size_t i = 0; i < n_ax; ++i) origins[static_cast<std::size_t>(axes[i])] = ax_origins[i];
  const bool mode_seq = !opts.mode.is_scalar;
  std::vector<mode> modes(static_cast<std::size_t>(nd), opts.mode.values.empty() ? mode::reflect : opts.mode.values.front());
  if (mode_seq) {
    const std::vector<mode> m = normalize_sequence(opts.mode, n_ax, fn);
    std::fill(modes.begin(), modes.end(), mode::constant);
    for (std::size_t i = 0; i < n_ax; ++i) modes[static_cast<std::size_t>(axes[i])] = m[i];
  }
  // fshape without zero extents must have one entry per input dimension.
  std::size_t nonzero_dims = 0;
  for (auto e : full_shape) nonzero_dims += e > 0 ? 1 : 0;
  if (nonzero_dims != static_cast<std::size_t>(nd))
    throw runtime_error(fname(fn) + ": footprint.ndim (" + std::to_string(full_shape.size()) + ") must match len(axes) (" +
                        std::to_string(n_ax) + ")");
  for (int d = 0; d < nd; ++d) {
    const std::int64_t lenf = full_shape[static_cast<std::size_t>(d)], o = origins[static_cast<std::size_t>(d)];
    if (lenf / 2 + o < 0 || lenf / 2 + o >= lenf)
      throw value_error(fname(fn) + ": invalid origin: extent // 2 + origin must lie in [0, extent), got extent " +
                        std::to_string(lenf) + " and origin " + std::to_string(o));
  }
  std::int64_t filter_size = 0;
  for (auto v : mask) filter_size += v != 0 ? 1 : 0;
  const std::int64_t fp_total = static_cast<std::int64_t>(mask.size());

  // The rank.
  std::int64_t rank = 0;
  if (op == rank_op::median) {
    rank = filter_size / 2;
  } else if (op == rank_op::percentile) {
    double pct = pct_arg;
    if (pct < 0.0) pct += 100.0;
    if (pct < 0.0 || pct > 100.0) throw runtime_error(fname(fn) + ": invalid percentile: " + detail::num(pct_arg));
    if (pct == 100.0) {
      rank = filter_size - 1;
    } else {
      const double r = static_cast<double>(filter_size) * pct / 100.0;
      if (std::isnan(r)) throw value_error(fname(fn) + ": cannot convert float NaN to integer (percentile)");
      rank = static_cast<std::int64_t>(r);
    }
  } else {
    rank = rank_arg;
  }
  if (rank < 0 && rank >= -filter_size) rank += filter_size;
  if (rank < 0 || rank >= filter_size)
    throw runtime_error(fname(fn) + ": rank not within filter footprint size (rank " + std::to_string(rank) +
                        ", footprint of " + std::to_string(filter_size) + " elements)");

  // A complex output dtype: SciPy's C code refuses it.
  if (opts.output.dtype() && is_complex(*opts.output.dtype()))
    throw runtime_error(fname(fn) + ": array type not supported (complex output " +
                        std::string(dtype_name(*opts.output.dtype())) + ")");

  if (rank == 0 || rank == filter_size - 1) {
    // SciPy: minimum_filter / maximum_filter(input, None, footprint, output, mode, cval, origins).
    min_max_filter_options mo;
    host_array fh(dtype::bool_, full_shape);
    bool* fp = fh.data_as<bool>();
    for (std::size_t i = 0; i < mask.size(); ++i) fp[i] = mask[i] != 0;
    mo.footprint = std::move(fh);
    mo.output = opts.output.dtype();
    if (mode_seq) mo.mode = per_axis<mode>(modes);
    else mo.mode = opts.mode;
    mo.cval = opts.cval;
    mo.origin = per_axis<std::int64_t>(origins);
    detail::check_output_shape(opts.output, input.shape(), fn);
    ndarray r = rank == 0 ? minimum_filter(input, {}, mo) : maximum_filter(input, {}, mo);
    return detail::deliver_output(std::move(r), opts.output, fn);
  }

  detail::check_output_shape(opts.output, input.shape(), fn);
  const dtype od = detail::output_dtype(input, opts.output, fn);
  if (mode_seq)
    throw runtime_error(fname(fn) + ": A sequence of modes is not supported by non-separable rank filters");
  const detail::ext em = detail::filter_ext(modes.front());

  // SciPy's 1-D path.
  if (nd == 1) {
    const std::int64_t lim2 = input.size() - ((fp_total - 1) / 2 - origins[0]);
    if (lim2 >= 0 || input.size() == 1) {
      const dtype dt = input.dtype();
      dtype wt = dt;
      double cv = opts.cval;
      if (dt == dtype::float16) {
        wt = dtype::float32;
      } else if (dt != dtype::int64 && dt != dtype::float64 && dt != dtype::float32) {
        wt = dtype::int64;
      }
      if (wt == dtype::int64) cv = static_cast<double>(int64_cval(opts.cval, fn));
      else if (wt == dtype::float32) cv = static_cast<double>(static_cast<float>(opts.cval));
      const ndarray x = wt == dt ? input : input.astype(wt, true);
      ndarray y = cusci::empty(input.shape(), wt);
      // (An int64 cval travels as a double: exact up to 2^53.)
      if (y.size() > 0) detail::rank_line_pass(x, y, fp_total, rank, origins[0], em, cv);
      ndarray r = wt == od ? y : y.astype(od, true);
      return detail::deliver_output(std::move(r), opts.output, fn);
    }
  }

  // SciPy's N-D path (NI_RankFilter): float16 is not among its types.
  if (input.dtype() == dtype::float16 || od == dtype::float16)
    throw runtime_error(fname(fn) + ": array type not supported (float16)");
  detail::footprint_spec f;
  f.shape = full_shape;
  f.mask = std::move(mask);
  f.origins = origins;
  f.modes.assign(static_cast<std::size_t>(nd), em);
  ndarray out = cusci::empty(input.shape(), od);
  if (out.size() > 0) {
    if (od == input.dtype()) {
      detail::rank_footprint_pass(input, out, f, rank, opts.cval);
    } else {
      // SciPy stores the selected value (in the input dtype) into the output dtype with a C cast.
      const ndarray tmp = cusci::empty(input.shape(), input.dtype());
      detail::rank_footprint_pass(input, tmp, f, rank, opts.cval, false);
      detail::correlate_pass(tmp, out, nd - 1, {1.0}, detail::ext::constant, 0.0, 0);
    }
  }
  return detail::deliver_output(std::move(out), opts.output, fn);
}

}  // namespace

ndarray rank_filter(const ndarray& input, std::int64_t rank, const per_axis<std::int64_t>& size,
                    const rank_filter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::rank_filter");
  return rank_impl("rank_filter", input, rank, 0.0, rank_op::rank, size, opts);
}

ndarray median_filter(const ndarray& input, const per_axis<std::int64_t>& size, const rank_filter_options& opts) {
  return rank_impl("median_filter", input, 0, 0.0, rank_op::median, size, opts);
}

ndarray percentile_filter(const ndarray& input, double percentile, const per_axis<std::int64_t>& size,
                          const rank_filter_options& opts) {
  return rank_impl("percentile_filter", input, 0, percentile, rank_op::percentile, size, opts);
}

}  // namespace cusci::ndimage
