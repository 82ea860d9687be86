// scipy.ndimage's measurements over labelled regions: SciPy's argument handling (_measurements.py's
// _stats, _select, center_of_mass, histogram, labeled_comprehension), the label -> region map, and the
// delivery of per-region results per index entry. The passes are in measure_kernels.cu /
// measure_sort.cu.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndimage/detail/measurements_plan.hpp"
#include "cusci/ndimage/measurements.hpp"
#include "cusci/reduction.hpp"
#include "cusci/scalar.hpp"
#include "filters/filter_common.hpp"
#include "measurements/measure_kernels.hpp"
#include "measurements/measurements_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace detail {

shape_t measure_broadcast_shapes(const shape_t& a, const shape_t& b, const char* fn) {
  const std::size_t nd = std::max(a.size(), b.size());
  shape_t r(nd, 1);
  for (std::size_t i = 0; i < nd; ++i) {
    const std::int64_t x = i < nd - a.size() ? 1 : a[i - (nd - a.size())];
    const std::int64_t y = i < nd - b.size() ? 1 : b[i - (nd - b.size())];
    if (x != y && x != 1 && y != 1)
      throw value_error(fname(fn) + ": input and labels must have the same shape (excepting dimensions with width 1), "
                                    "got " + cusci::detail::shape_str(a) + " and " + cusci::detail::shape_str(b));
    r[i] = x == 1 ? y : x;
  }
  return r;
}

std::vector<std::int64_t> measure_index_values(const label_index& index, shape_t& shape, const char* fn) {
  if (index.list()) {
    shape = {static_cast<std::int64_t>(index.list()->size())};
    return *index.list();
  }
  const ndarray& a = *index.array();
  if (!is_integer(a.dtype()) && !is_bool(a.dtype()))
    throw type_error(fname(fn) + ": index must be an integer array, got dtype " + std::string(dtype_name(a.dtype())));
  shape = a.shape();
  const host_array h = to_host(a).astype(dtype::int64);
  return h.to_vector<std::int64_t>();
}

regions prepare_regions(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index,
                        const char* fn) {
  if (is_complex(input.dtype()))
    throw type_error(fname(fn) + ": complex input is not supported, got dtype " +
                     std::string(dtype_name(input.dtype())));
  regions p;
  region_view& r = p.view;
  shape_t shape = input.shape();
  if (labels) {
    const dtype lt = labels->dtype();
    if (!is_integer(lt) && !is_bool(lt))
      throw type_error(fname(fn) + ": labels must be an integer or bool array, got dtype " +
                       std::string(dtype_name(lt)));
    shape = measure_broadcast_shapes(input.shape(), labels->shape(), fn);
    ndarray l = labels->broadcast_to(shape);
    if (lt != dtype::int32 && lt != dtype::int64) l = l.astype(dtype::int64);
    r.labels = ascontiguousarray(l);
    r.has_labels = true;
    p.labels_dtype = lt;
  }
  r.values = ascontiguousarray(input.shape() == shape ? input : input.broadcast_to(shape));
  r.shape = shape;
  r.size = cusci::detail::checked_size(shape, fname(fn));
  if (!labels) {
    r.map.mode = slot_mode::all;
    r.nslots = 1;
    return p;
  }
  if (index.is_none()) {
    r.map.mode = slot_mode::positive;
    r.nslots = 1;
    return p;
  }
  if (index.is_scalar()) {
    r.map.mode = slot_mode::equal;
    r.map.lo = index.scalar();
    r.nslots = 1;
    return p;
  }
  p.array_index = true;
  // A device index array whose labels span a short range stays on the device: one pass and one small
  // read (its minimum, maximum and whether it is lo, lo + 1, ...) size the dense slot range; its slots
  // are index - lo, and a 1-D index lo, lo + 1, ..., hi needs no gather at all (measured: two
  // reductions each with its own synchronizing read cost more than the measurement's kernel).
  if (index.array() && index.array()->size() > 0) {
    const ndarray& a = *index.array();
    if (!is_integer(a.dtype()) && !is_bool(a.dtype()))
      throw type_error(fname(fn) + ": index must be an integer array, got dtype " + std::string(dtype_name(a.dtype())));
    const index_summary sm = summarize_index(a);
    const std::int64_t lo = sm.lo, hi = sm.hi;
    const long double range = static_cast<long double>(hi) - static_cast<long double>(lo) + 1;
    if (range <= std::max<long double>(65536.0L, 4.0L * static_cast<long double>(a.size()))) {
      r.map.mode = slot_mode::dense;
      r.map.lo = lo;
      r.map.hi = hi;
      r.nslots = static_cast<std::int64_t>(range);
      p.index_shape = a.shape();
      p.identity = sm.consecutive && a.ndim() == 1 && range == static_cast<long double>(a.size());
      if (p.identity) return p;
      const ndarray a64 = a.astype(dtype::int64, /*copy=*/false);
      p.entry_slot = ascontiguousarray(subtract(a64, scalar(lo)).reshape({a.size()}));
      return p;
    }
  }
  p.host_index = measure_index_values(index, p.index_shape, fn);
  const auto& v = p.host_index;
  std::vector<std::int64_t> slot(v.size());
  if (v.empty()) {
    r.map.mode = slot_mode::dense;
    r.map.lo = 1;
    r.map.hi = 0;
    r.nslots = 0;
  } else {
    const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
    const long double range = static_cast<long double>(*mx) - static_cast<long double>(*mn) + 1;
    const long double dense_limit = std::max<long double>(65536.0L, 4.0L * static_cast<long double>(v.size()));
    if (range <= dense_limit) {
      r.map.mode = slot_mode::dense;
      r.map.lo = *mn;
      r.map.hi = *mx;
      r.nslots = static_cast<std::int64_t>(range);
      bool identity = true;
      for (std::size_t i = 0; i < v.size(); ++i) {
        slot[i] = v[i] - *mn;
        identity = identity && slot[i] == static_cast<std::int64_t>(i);
      }
      // index = lo, lo + 1, ..., hi: the per-slot results are the per-entry results (no upload, no
      // gather).
      p.identity = identity && p.index_shape.size() == 1;
      if (p.identity) return p;
    } else {
      std::vector<std::int64_t> u = v;
      std::sort(u.begin(), u.end());
      u.erase(std::unique(u.begin(), u.end()), u.end());
      for (std::size_t i = 0; i < v.size(); ++i)
        slot[i] = std::lower_bound(u.begin(), u.end(), v[i]) - u.begin();
      p.sorted = asarray(u);
      r.map.mode = slot_mode::search;
      r.map.sorted = static_cast<const long long*>(p.sorted.data());
      r.map.count = static_cast<long long>(u.size());
      r.nslots = static_cast<std::int64_t>(u.size());
    }
  }
  p.entry_slot = asarray(slot, shape_t{static_cast<std::int64_t>(slot.size())});
  return p;
}

ndarray per_entry(const regions& p, const ndarray& per_slot, bool flat_index) {
  if (p.array_index && p.identity) return per_slot;  // 1-D index lo..hi: one slot per entry, in order
  if (p.array_index) {
    ndarray t = take(per_slot, p.entry_slot, 0, clip_mode::clip);  // [index.size, ...]; in range: no check
    if (flat_index) return t;
    shape_t s = p.index_shape;
    for (int d = 1; d < per_slot.ndim(); ++d) s.push_back(per_slot.shape()[d]);
    return t.reshape(s);
  }
  shape_t s(per_slot.shape().begin() + 1, per_slot.shape().end());
  return per_slot.reshape(s);
}

namespace {

/// Sums as float64 from sum_count_pass's accumulators (uint64 two's complement for integers, unless
/// they were summed as double already).
ndarray sums_as_double(const ndarray& sums, dtype input) {
  if (sums.dtype() == dtype::float64) return sums;
  if (is_signed_integer(input) || is_bool(input)) return sums.astype(dtype::int64).astype(dtype::float64);
  return sums.astype(dtype::float64);
}

/// NumPy's sum dtype for `np.sum` of `t` (int64 for bool and signed integers, uint64 for unsigned,
/// the input's for floats).
dtype numpy_sum_dtype(dtype t) {
  if (is_bool(t) || is_signed_integer(t)) return dtype::int64;
  if (is_unsigned_integer(t)) return dtype::uint64;
  return t;
}

void check_not_empty(const regions& p, const ndarray& counts, const char* fn, const char* op) {
  if (p.array_index) return;
  if (counts.item<std::uint64_t>() == 0)
    throw value_error(fname(fn) + ": zero-size array to reduction operation " + op + " which has no identity");
}

struct extremes {
  ndarray counts, minkey, maxkey, minpos, maxpos;
};

extremes run_extremes(const regions& p, bool positions_min, bool positions_max) {
  extremes e;
  if ((positions_min || positions_max) &&
      packed_extreme_pass(p.view, positions_min, positions_max, e.counts, e.minkey, e.maxkey, e.minpos, e.maxpos))
    return e;
  extreme_pass(p.view, e.counts, e.minkey, e.maxkey);
  if (positions_min || positions_max) {
    ndarray none = empty({0}, dtype::uint64);
    if (positions_min) {
      e.minpos = empty({p.view.nslots}, dtype::uint64);
      e.minpos.fill(scalar(~0ull));
    }
    if (positions_max) {
      e.maxpos = empty({p.view.nslots}, dtype::uint64);
      e.maxpos.fill(scalar(~0ull));
    }
    ndarray mn = positions_min ? e.minpos : none, mx = positions_max ? e.maxpos : none;
    position_pass(p.view, e.minkey, e.maxkey, mn, mx);
  }
  return e;
}

ndarray values_of(const regions& p, const ndarray& keys, const ndarray& counts) {
  ndarray out = empty({p.view.nslots}, p.view.values.dtype());
  keys_to_values(keys, counts, out);
  return per_entry(p, out);
}

ndarray positions_of(const regions& p, const ndarray& pos, const ndarray& counts) {
  ndarray out;
  unravel_positions(pos, counts, p.view.shape, out);
  return per_entry(p, out, /*flat_index=*/true);
}

}  // namespace
}  // namespace detail

using detail::fname;

ndarray sum_labels(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::sum_labels");
  const detail::regions p = detail::prepare_regions(input, labels, index, "sum_labels");
  ndarray counts, sums;
  // An index array: SciPy's np.bincount with weights, a float64 sum of the values as float64. No
  // counts (one atomic per run less).
  detail::sum_count_pass(p.view, counts, sums, p.array_index, /*want_counts=*/false);
  if (p.array_index) return detail::per_entry(p, detail::sums_as_double(sums, input.dtype()));
  return detail::per_entry(p, sums.astype(detail::numpy_sum_dtype(input.dtype())));
}

ndarray mean(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::mean");
  const detail::regions p = detail::prepare_regions(input, labels, index, "mean");
  ndarray counts, sums;
  detail::sum_count_pass(p.view, counts, sums, p.array_index);
  const ndarray m = divide(detail::sums_as_double(sums, input.dtype()), counts.astype(dtype::float64));
  return detail::per_entry(p, m);
}

namespace {
ndarray variance_impl(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index,
                      const char* fn) {
  const detail::regions p = detail::prepare_regions(input, labels, index, fn);
  ndarray counts, sums;
  // SciPy centres on vals.mean() (a float64 sum) for a scalar or no index, on bincount's float64 sums
  // for an index array: float64 sums either way.
  detail::sum_count_pass(p.view, counts, sums, true);
  const ndarray c = counts.astype(dtype::float64);
  const ndarray means = divide(detail::sums_as_double(sums, input.dtype()), c);
  ndarray sc;
  detail::centered_pass(p.view, means, sc);
  return detail::per_entry(p, divide(sc, c));
}
}  // namespace

ndarray variance(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::variance");
  return variance_impl(input, labels, index, "variance");
}

ndarray standard_deviation(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::standard_deviation");
  return sqrt(variance_impl(input, labels, index, "standard_deviation"));
}

ndarray minimum(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::minimum");
  const detail::regions p = detail::prepare_regions(input, labels, index, "minimum");
  const detail::extremes e = detail::run_extremes(p, false, false);
  detail::check_not_empty(p, e.counts, "minimum", "minimum");
  return detail::values_of(p, e.minkey, e.counts);
}

ndarray maximum(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::maximum");
  const detail::regions p = detail::prepare_regions(input, labels, index, "maximum");
  const detail::extremes e = detail::run_extremes(p, false, false);
  detail::check_not_empty(p, e.counts, "maximum", "maximum");
  return detail::values_of(p, e.maxkey, e.counts);
}

ndarray minimum_position(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::minimum_position");
  const detail::regions p = detail::prepare_regions(input, labels, index, "minimum_position");
  const detail::extremes e = detail::run_extremes(p, true, false);
  detail::check_not_empty(p, e.counts, "minimum_position", "minimum");
  return detail::positions_of(p, e.minpos, e.counts);
}

ndarray maximum_position(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::maximum_position");
  const detail::regions p = detail::prepare_regions(input, labels, index, "maximum_position");
  const detail::extremes e = detail::run_extremes(p, false, true);
  detail::check_not_empty(p, e.counts, "maximum_position", "maximum");
  return detail::positions_of(p, e.maxpos, e.counts);
}

extrema_result extrema(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::extrema");
  const detail::regions p = detail::prepare_regions(input, labels, index, "extrema");
  const detail::extremes e = detail::run_extremes(p, true, true);
  detail::check_not_empty(p, e.counts, "extrema", "minimum");
  return {detail::values_of(p, e.minkey, e.counts), detail::values_of(p, e.maxkey, e.counts),
          detail::positions_of(p, e.minpos, e.counts), detail::positions_of(p, e.maxpos, e.counts)};
}

ndarray median(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::median");
  const detail::regions p = detail::prepare_regions(input, labels, index, "median");
  const dtype it = input.dtype();
  const dtype rt = is_floating(it) ? it : dtype::float64;
  ndarray positions, offsets, sorted;
  detail::group_by_slot(p.view, /*by_value=*/true, positions, offsets);
  detail::gather_flat(p.view.values, positions, sorted);
  ndarray absent = full({}, scalar(std::numeric_limits<double>::quiet_NaN()), rt);
  if (p.array_index && p.view.nslots > 0) {
    // SciPy's value for a label without elements: the middle of input[0] and input[0] of its
    // lexsort by (label, value) over all elements, i.e. the smallest value of the smallest label.
    const host_array off = to_host(offsets);
    const auto* o = off.data_as<std::int64_t>();
    bool any_absent = false;
    for (std::int64_t s = 0; s < p.view.nslots && !any_absent; ++s) any_absent = o[s + 1] == o[s];
    if (any_absent && p.view.size > 0) {
      detail::regions q = p;
      q.array_index = false;
      q.view.map = detail::slot_map{};
      q.view.map.mode = detail::slot_mode::equal;
      q.view.map.lo = cusci::min(p.view.labels).astype(dtype::int64).item<std::int64_t>();
      q.view.nslots = 1;
      const detail::extremes e = detail::run_extremes(q, false, false);
      const ndarray v0 = detail::values_of(q, e.minkey, e.counts);  // 0-d, input dtype
      absent = v0.astype(rt);
    }
  }
  ndarray out = empty({p.view.nslots}, rt);
  detail::median_finish(sorted, offsets, absent, out);
  return detail::per_entry(p, out);
}

ndarray center_of_mass(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::center_of_mass");
  const detail::regions p = detail::prepare_regions(input, labels, index, "center_of_mass");
  ndarray moments;
  detail::moment_pass(p.view, moments);  // [nslots, ndim + 1]: sums of x * coordinate, then of x
  const std::int64_t nd = static_cast<std::int64_t>(p.view.shape.size());
  const ndarray num = moments[{cusci::slice{}, cusci::slice{0, nd, std::nullopt}}];
  const ndarray norm = moments[{cusci::slice{}, cusci::slice{nd, nd + 1, std::nullopt}}];
  return detail::per_entry(p, divide(num, norm), /*flat_index=*/true);
}

namespace {

/// Checks SciPy's labeled_comprehension rules on labels and index before any device work (an array
/// index is read to the host): an index needs labels, and its values must survive the conversion
/// to the labels' dtype.
void check_comprehension_index(const std::optional<ndarray>& labels, const label_index& index, const char* fn) {
  if (!labels) {
    if (!index.is_none()) throw value_error(fname(fn) + ": index without defined labels");
    return;
  }
  if (index.is_none()) return;
  const dtype lt = labels->dtype();
  if (!is_integer(lt) && !is_bool(lt)) return;  // refused by prepare_regions
  std::vector<std::int64_t> v;
  if (index.is_scalar()) {
    v.push_back(index.scalar());
  } else {
    shape_t ignored;
    v = detail::measure_index_values(index, ignored, fn);
  }
  const dtype src = index.array() ? index.array()->dtype() : dtype::int64;
  for (const std::int64_t x : v) {
    bool ok = true;
    if (is_bool(lt)) ok = x == 0 || x == 1;
    else if (is_unsigned_integer(lt) && lt != dtype::uint64) ok = x >= 0 && (x >> (8 * itemsize(lt))) == 0;
    else if (lt == dtype::uint64) ok = x >= 0;
    else if (itemsize(lt) < 8) {
      const std::int64_t lim = std::int64_t{1} << (8 * itemsize(lt) - 1);
      ok = x >= -lim && x < lim;
    }
    if (!ok)
      throw value_error(fname(fn) + ": Cannot convert index values from <" + std::string(dtype_name(src)) + "> to <" +
                        std::string(dtype_name(lt)) + "> (labels' type) without loss of precision");
  }
}

}  // namespace

ndarray histogram(const ndarray& input, double min, double max, std::int64_t bins,
                  const std::optional<ndarray>& labels, const label_index& index) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::histogram");
  const char* fn = "histogram";
  if (bins < 0)
    throw value_error(fname(fn) + ": Number of samples, " + std::to_string(bins + 1) + ", must be non-negative.");
  // np.linspace(min, max, bins + 1)
  const std::int64_t num = bins + 1;
  std::vector<double> edges(static_cast<std::size_t>(num));
  const double delta = max - min;
  if (bins > 0) {
    const double step = delta / static_cast<double>(bins);
    for (std::int64_t i = 0; i < num; ++i) {
      edges[i] = step == 0 ? static_cast<double>(i) / static_cast<double>(bins) * delta + min
                           : static_cast<double>(i) * step + min;
    }
    edges[num - 1] = max;
  } else {
    edges[0] = min;
  }
  for (std::int64_t i = 0; i + 1 < num; ++i)
    if (edges[i] > edges[i + 1]) throw value_error(fname(fn) + ": `bins` must increase monotonically, when an array");
  check_comprehension_index(labels, index, fn);
  const detail::regions p = detail::prepare_regions(input, labels, index, fn);
  const ndarray e = asarray(edges);
  ndarray counts;
  detail::histogram_pass(p.view, e, bins, counts);
  return detail::per_entry(p, counts, /*flat_index=*/true);
}

namespace detail {

comprehension_plan prepare_labeled_comprehension(const ndarray& input, const std::optional<ndarray>& labels,
                                                 const label_index& index, const labeled_comprehension_options& opts) {
  const char* fn = "labeled_comprehension";
  check_comprehension_index(labels, index, fn);
  const regions p = prepare_regions(input, labels, index, fn);
  comprehension_plan c;
  c.nslots = p.view.nslots;
  c.default_value = opts.default_value;
  c.pass_positions = opts.pass_positions;
  c.input_dtype = input.dtype();
  c.out_dtype = opts.out_dtype;
  c.array_index = p.array_index;
  c.index_shape = p.index_shape;
  c.entry_slot = p.entry_slot;
  c.identity = p.identity;
  group_by_slot(p.view, /*by_value=*/false, c.positions, c.offsets);
  gather_flat(p.view.values, c.positions, c.values);
  c.result = empty({c.nslots}, dtype::float64);
  c.block = 128;
  c.grid = static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>((c.nslots + 127) / 128, 132 * 8)));
  return c;
}

ndarray finish_labeled_comprehension(const comprehension_plan& c) {
  regions p;
  p.array_index = c.array_index;
  p.identity = c.identity;
  p.index_shape = c.index_shape;
  p.entry_slot = c.entry_slot;
  return per_entry(p, c.result).astype(c.out_dtype);
}

}  // namespace detail

}  // namespace cusci::ndimage
