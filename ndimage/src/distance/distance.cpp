// Host wrappers of cusci::ndimage's distance transforms: SciPy's argument handling
// (scipy/ndimage/_morphology.py: _distance_transform_arg_check, the metric and sampling handling, the
// checks of preallocated arrays), all before any device work, then the kernels of
// distance_kernels.cu.

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/distance.hpp"
#include "distance/distance_kernels.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

using detail::strided_target;

std::string fname(const char* fn) { return std::string("cusci::ndimage::") + fn; }

/// SciPy's _distance_transform_arg_check. @throws cusci::runtime_error with SciPy's joined messages.
void arg_check(bool dt_given, bool ft_given, bool rd, bool ri, const char* fn) {
  std::vector<std::string> m;
  if (!rd && !ri) m.emplace_back("at least one of return_distances/return_indices must be True");
  if (dt_given && !rd) m.emplace_back("return_distances must be True if distances is supplied");
  if (ft_given && !ri) m.emplace_back("return_indices must be True if indices is supplied");
  if (m.empty()) return;
  std::string s;
  for (std::size_t i = 0; i < m.size(); ++i) s += (i ? ", " : "") + m[i];
  throw runtime_error(fname(fn) + ": " + s);
}

/// SciPy's _normalize_sequence for `sampling`. @throws cusci::runtime_error for a wrong length.
std::vector<double> sampling_of(const std::optional<per_axis<double>>& s, int ndim, const char* fn) {
  if (!s) return {};
  if (s->is_scalar) return std::vector<double>(static_cast<std::size_t>(ndim), s->values.front());
  if (s->values.size() != static_cast<std::size_t>(ndim))
    throw runtime_error(fname(fn) + ": sequence argument must have length equal to input rank: sampling has " +
                        std::to_string(s->values.size()) + " values, the input has " + std::to_string(ndim) +
                        " dimensions");
  return s->values;
}

shape_t indices_shape(const shape_t& shape) {
  shape_t s{static_cast<std::int64_t>(shape.size())};
  s.insert(s.end(), shape.begin(), shape.end());
  return s;
}

/// Checks that cusci can write a preallocated array: same device as the input, no zero stride on an
/// axis longer than 1. @throws cusci::value_error.
void check_writable(const ndarray& a, const ndarray& input, const char* fn, const char* what) {
  cusci::detail::check_same_device(fname(fn).c_str(), {&input, &a});
  for (int d = 0; d < a.ndim(); ++d)
    if (a.shape()[static_cast<std::size_t>(d)] > 1 && a.strides()[static_cast<std::size_t>(d)] == 0)
      throw value_error(fname(fn) + ": the " + what + " array has a zero stride along axis " + std::to_string(d) +
                        " (several elements share one location)");
}

/// Element strides of a (the byte strides divided by the item size).
std::vector<std::int64_t> elem_strides(const ndarray& a) {
  std::vector<std::int64_t> s(a.strides().begin(), a.strides().end());
  for (auto& v : s) v /= static_cast<std::int64_t>(a.itemsize());
  return s;
}

strided_target target_of(const std::optional<ndarray>& a) {
  strided_target t;
  if (!a) return t;
  t.ptr = a->data();
  t.strides = elem_strides(*a);
  return t;
}

/// A C-contiguous copy of a caller's indices array, for SciPy's in-place gather (cdt and bf).
std::optional<ndarray> gathered_from(const std::optional<ndarray>& indices) {
  if (!indices || indices->size() == 0) return std::nullopt;
  return indices->copy(order::C);
}

/// Refuses inputs the int32 indices cannot address, and more axes than the kernels handle.
void check_size(const shape_t& shape, const char* fn) {
  const std::int64_t n = cusci::detail::checked_size(shape, fname(fn), 4);
  if (n > 2147483647LL)
    throw value_error(fname(fn) + ": the input has " + std::to_string(n) +
                      " elements; at most 2147483647 are supported (the indices are int32)");
  if (static_cast<int>(shape.size()) > detail::distance_max_axes)
    throw value_error(fname(fn) + ": the input has " + std::to_string(shape.size()) + " dimensions; at most " +
                      std::to_string(detail::distance_max_axes) + " are supported");
}

/// The foreground mask (input != 0) as a C-contiguous bool array (1 byte per element).
ndarray mask_of(const ndarray& input) {
  ndarray m = input.astype(dtype::bool_);
  if (!m.is_c_contiguous()) m = m.copy(order::C);
  return m;
}

std::string shape_text(const shape_t& s) { return cusci::detail::shape_str(s); }

}  // namespace

distance_transform_result distance_transform_edt(const ndarray& input, const edt_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::distance_transform_edt");
  const char* fn = "distance_transform_edt";
  arg_check(opts.distances.has_value(), opts.indices.has_value(), opts.return_distances, opts.return_indices, fn);
  shape_t shape = input.shape();
  if (shape.empty()) shape = {1};  // np.atleast_1d
  const int nd = static_cast<int>(shape.size());
  const std::vector<double> samp = sampling_of(opts.sampling, nd, fn);
  const shape_t ishape = indices_shape(shape);
  if (opts.indices) {
    if (opts.indices->shape() != ishape)
      throw runtime_error(fname(fn) + ": indices array has wrong shape: expected " + shape_text(ishape) + ", got " +
                          shape_text(opts.indices->shape()));
    if (opts.indices->dtype() != dtype::int32)
      throw runtime_error(fname(fn) + ": indices array must be int32, got " +
                          std::string(dtype_name(opts.indices->dtype())));
    check_writable(*opts.indices, input, fn, "indices");
  }
  if (opts.return_distances && opts.distances) {
    if (opts.distances->shape() != shape)
      throw runtime_error(fname(fn) + ": distances array has wrong shape: expected " + shape_text(shape) + ", got " +
                          shape_text(opts.distances->shape()));
    if (opts.distances->dtype() != dtype::float64)
      throw runtime_error(fname(fn) + ": distances array must be float64, got " +
                          std::string(dtype_name(opts.distances->dtype())));
    check_writable(*opts.distances, input, fn, "distances");
  }
  check_size(shape, fn);
  device_guard guard(input.device());
  distance_transform_result r;
  std::optional<ndarray> dt = opts.distances;
  std::optional<ndarray> ft = opts.indices;
  if (opts.return_distances && !dt) r.distances = dt = cusci::empty(shape, dtype::float64);
  // A new indices array starts at zero: SciPy's np.zeros, visible where no background exists.
  if (opts.return_indices && !ft) r.indices = ft = cusci::zeros(ishape, dtype::int32);
  const ndarray mask = mask_of(input).reshape(shape);
  detail::edt_run(static_cast<const std::uint8_t*>(mask.data()), shape, samp, target_of(dt), target_of(ft));
  return r;
}

distance_transform_result distance_transform_cdt(const ndarray& input, const cdt_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::distance_transform_cdt");
  const char* fn = "distance_transform_cdt";
  arg_check(opts.distances.has_value(), opts.indices.has_value(), opts.return_distances, opts.return_indices, fn);
  const shape_t& shape = input.shape();
  const int nd = input.ndim();
  // The structure, as 3^nd booleans in C order.
  std::vector<std::uint8_t> st;
  if (const auto* name = std::get_if<std::string>(&opts.metric)) {
    int rank;
    if (*name == "taxicab" || *name == "cityblock" || *name == "manhattan") rank = 1;
    else if (*name == "chessboard") rank = nd;
    else
      throw value_error(fname(fn) + ": invalid metric provided: '" + *name +
                        "' (expected 'chessboard', 'taxicab', 'cityblock', 'manhattan' or a structure array)");
    std::int64_t total = 1;
    for (int k = 0; k < nd; ++k) total *= 3;
    st.resize(static_cast<std::size_t>(total));
    for (std::int64_t e = 0; e < total; ++e) {
      std::int64_t u = e;
      int dist = 0;
      for (int k = 0; k < nd; ++k) {
        dist += (u % 3) != 1 ? 1 : 0;
        u /= 3;
      }
      st[static_cast<std::size_t>(e)] = dist <= rank ? 1 : 0;
    }
  } else {
    host_array h = std::holds_alternative<ndarray>(opts.metric) ? to_host(std::get<ndarray>(opts.metric))
                                                               : std::get<host_array>(opts.metric);
    for (std::int64_t s : h.shape())
      if (s != 3)
        throw value_error(fname(fn) + ": metric sizes must be equal to 3, got a metric of shape " +
                          shape_text(h.shape()));
    if (h.ndim() != nd)
      throw value_error(fname(fn) + ": the metric has " + std::to_string(h.ndim()) +
                        " dimensions, the input " + std::to_string(nd) + " (they must be equal)");
    const host_array b = h.astype(dtype::bool_);
    const auto* p = static_cast<const std::uint8_t*>(b.data());
    st.assign(p, p + b.size());
  }
  if (nd == 0) throw type_error(fname(fn) + ": the input must have at least one dimension (a 0-d input was given)");
  if (opts.distances) {
    if (opts.distances->dtype() != dtype::int32)
      throw value_error(fname(fn) + ": distances must be of int32 type, got " +
                        std::string(dtype_name(opts.distances->dtype())));
    if (opts.distances->shape() != shape)
      throw value_error(fname(fn) + ": distances has wrong shape: expected " + shape_text(shape) + ", got " +
                        shape_text(opts.distances->shape()));
    check_writable(*opts.distances, input, fn, "distances");
  }
  const shape_t ishape = indices_shape(shape);
  if (opts.indices) {
    if (opts.indices->dtype() != dtype::int32)
      throw value_error(fname(fn) + ": indices array must be int32, got " +
                        std::string(dtype_name(opts.indices->dtype())));
    if (opts.indices->shape() != ishape)
      throw value_error(fname(fn) + ": indices array has wrong shape: expected " + shape_text(ishape) + ", got " +
                        shape_text(opts.indices->shape()));
    check_writable(*opts.indices, input, fn, "indices");
  }
  check_size(shape, fn);
  device_guard guard(input.device());
  distance_transform_result r;
  std::optional<ndarray> dt = opts.distances;
  std::optional<ndarray> ft = opts.indices;
  if (opts.return_distances && !dt) r.distances = dt = cusci::empty(shape, dtype::int32);
  if (opts.return_indices && !ft) r.indices = ft = cusci::empty(ishape, dtype::int32);
  const ndarray mask = mask_of(input);
  // SciPy fills a supplied indices array by gathering its own former contents at each feature's flat
  // index (for a zero-filled array: zeros), not with the features' coordinates.
  const std::optional<ndarray> former = gathered_from(opts.indices);
  detail::strided_target ftt = target_of(ft);
  if (former) ftt.gather_from = static_cast<const std::int32_t*>(former->data());
  detail::cdt_run(static_cast<const std::uint8_t*>(mask.data()), shape, st, target_of(dt), ftt);
  return r;
}

distance_transform_result distance_transform_bf(const ndarray& input, const bf_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::distance_transform_bf");
  const char* fn = "distance_transform_bf";
  arg_check(opts.distances.has_value(), opts.indices.has_value(), opts.return_distances, opts.return_indices, fn);
  const shape_t& shape = input.shape();
  const int nd = input.ndim();
  std::string m = opts.metric;
  std::transform(m.begin(), m.end(), m.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  int metric;
  if (m == "euclidean") metric = 1;
  else if (m == "taxicab" || m == "cityblock" || m == "manhattan") metric = 2;
  else if (m == "chessboard") metric = 3;
  else
    throw runtime_error(fname(fn) + ": distance metric not supported: '" + opts.metric +
                        "' (expected 'euclidean', 'taxicab', 'cityblock', 'manhattan' or 'chessboard')");
  const std::vector<double> samp = sampling_of(opts.sampling, nd, fn);
  const dtype ddt = metric == 1 ? dtype::float64 : dtype::uint32;
  if (opts.return_distances && opts.distances) {
    if (opts.distances->shape() != shape)
      throw runtime_error(fname(fn) + ": distances array has wrong shape: expected " + shape_text(shape) + ", got " +
                          shape_text(opts.distances->shape()));
    if (opts.distances->dtype() != ddt)
      throw runtime_error(fname(fn) + ": distances array must be " + std::string(dtype_name(ddt)) + ", got " +
                          std::string(dtype_name(opts.distances->dtype())));
    check_writable(*opts.distances, input, fn, "distances");
  }
  const shape_t ishape = indices_shape(shape);
  if (opts.return_indices && opts.indices) {
    if (opts.indices->dtype() != dtype::int32)
      throw runtime_error(fname(fn) + ": indices array must be int32, got " +
                          std::string(dtype_name(opts.indices->dtype())));
    if (opts.indices->shape() != ishape)
      throw runtime_error(fname(fn) + ": indices array has wrong shape: expected " + shape_text(ishape) + ", got " +
                          shape_text(opts.indices->shape()));
    check_writable(*opts.indices, input, fn, "indices");
  }
  check_size(shape, fn);
  device_guard guard(input.device());
  distance_transform_result r;
  std::optional<ndarray> dt = opts.distances;
  std::optional<ndarray> ft = opts.indices;
  if (opts.return_distances && !dt) r.distances = dt = cusci::empty(shape, ddt);
  if (opts.return_indices && !ft) r.indices = ft = cusci::empty(ishape, dtype::int32);
  const ndarray mask = mask_of(input);
  // As distance_transform_cdt: a supplied indices array receives its own former contents gathered at
  // each feature's flat index.
  const std::optional<ndarray> former = gathered_from(opts.return_indices ? opts.indices : std::nullopt);
  detail::strided_target ftt = nd == 0 ? strided_target{} : target_of(ft);
  if (former && ftt.ptr) ftt.gather_from = static_cast<const std::int32_t*>(former->data());
  detail::bf_run(static_cast<const std::uint8_t*>(mask.data()), shape, metric, samp, target_of(dt), ftt);
  return r;
}

}  // namespace cusci::ndimage
