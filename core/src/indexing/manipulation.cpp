/// @file manipulation.cpp
/// View-level manipulation functions (no kernels of their own): stacking built on concatenate,
/// splitting, tile/repeat through broadcast views and one strided copy, flips, axis moves, ravel and
/// the dimension helpers.

#include <algorithm>
#include <numeric>
#include <string>

#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "indexing/indexing_common.cuh"
#include "cusci/detail/nvtx.hpp"

namespace cusci {

using detail::ix::make_view;
using detail::ix::norm_axis;
using detail::ix::shape_str;
using detail::normalize_axis;

namespace {

ndarray slice_axis(const ndarray& a, int axis, std::int64_t start, std::int64_t stop) {
  std::vector<index_spec> ix(static_cast<std::size_t>(axis), slice{});
  ix.push_back(slice{start, stop, 1});
  return a[ix];
}

std::vector<int> norm_axes(const std::vector<int>& axes, int ndim, const char* fn, const char* what) {
  std::vector<int> r;
  for (int ax : axes) {
    const int a = norm_axis(ax, ndim, fn, what);
    CUSCI_EXPECTS(std::find(r.begin(), r.end(), a) == r.end(), value_error, std::string(fn) + ": repeated axis in `" + what + "` argument");
    r.push_back(a);
  }
  return r;
}

}  // namespace

// --- joining -------------------------------------------------------------------------------------------

ndarray stack(const std::vector<ndarray>& arrays, int axis, std::optional<dtype> dt) {
  CUSCI_NVTX_SCOPE("cusci::stack");
  const char* fn = "cusci::stack";
  CUSCI_EXPECTS(!arrays.empty(), value_error, std::string(fn) + ": need at least one array to stack");
  for (const auto& a : arrays)
    CUSCI_EXPECTS(a.shape() == arrays[0].shape(), value_error, std::string(fn) + ": all input arrays must have the same shape");
  const int ax = normalize_axis(axis, arrays[0].ndim() + 1, fn);
  std::vector<ndarray> ex;
  for (const auto& a : arrays) ex.push_back(a.expand_dims(ax));
  return concatenate(ex, ax, dt);
}

ndarray hstack(const std::vector<ndarray>& arrays, std::optional<dtype> dt) {
  CUSCI_NVTX_SCOPE("cusci::hstack");
  CUSCI_EXPECTS(!arrays.empty(), value_error, "cusci::hstack: need at least one array to concatenate");
  std::vector<ndarray> v;
  for (const auto& a : arrays) v.push_back(atleast_1d(a));
  return concatenate(v, v[0].ndim() == 1 ? 0 : 1, dt);
}

ndarray vstack(const std::vector<ndarray>& arrays, std::optional<dtype> dt) {
  CUSCI_NVTX_SCOPE("cusci::vstack");
  CUSCI_EXPECTS(!arrays.empty(), value_error, "cusci::vstack: need at least one array to concatenate");
  std::vector<ndarray> v;
  for (const auto& a : arrays) v.push_back(atleast_2d(a));
  return concatenate(v, 0, dt);
}

ndarray dstack(const std::vector<ndarray>& arrays) {
  CUSCI_NVTX_SCOPE("cusci::dstack");
  CUSCI_EXPECTS(!arrays.empty(), value_error, "cusci::dstack: need at least one array to concatenate");
  std::vector<ndarray> v;
  for (const auto& a : arrays) v.push_back(atleast_3d(a));
  return concatenate(v, 2);
}

ndarray column_stack(const std::vector<ndarray>& arrays) {
  CUSCI_NVTX_SCOPE("cusci::column_stack");
  CUSCI_EXPECTS(!arrays.empty(), value_error, "cusci::column_stack: need at least one array to concatenate");
  std::vector<ndarray> v;
  for (const auto& a : arrays) v.push_back(a.ndim() < 2 ? atleast_2d(a).T() : a);
  return concatenate(v, 1);
}

// --- splitting -----------------------------------------------------------------------------------------

std::vector<ndarray> array_split(const ndarray& a, const std::vector<std::int64_t>& indices, int axis) {
  CUSCI_NVTX_SCOPE("cusci::array_split");
  const int ax = normalize_axis(axis, a.ndim(), "cusci::array_split");
  const std::int64_t n = a.shape()[ax];
  std::vector<ndarray> out;
  std::vector<std::int64_t> div;
  div.push_back(0);
  div.insert(div.end(), indices.begin(), indices.end());
  div.push_back(n);
  for (std::size_t i = 0; i + 1 < div.size(); ++i) out.push_back(slice_axis(a, ax, div[i], div[i + 1]));
  return out;
}

std::vector<ndarray> array_split(const ndarray& a, std::int64_t sections, int axis) {
  CUSCI_NVTX_SCOPE("cusci::array_split");
  const int ax = normalize_axis(axis, a.ndim(), "cusci::array_split");
  CUSCI_EXPECTS(sections > 0, value_error, "cusci::array_split: number sections must be larger than 0.");
  const std::int64_t n = a.shape()[ax], each = n / sections, extras = n % sections;
  std::vector<ndarray> out;
  std::int64_t pos = 0;
  for (std::int64_t i = 0; i < sections; ++i) {
    const std::int64_t len = each + (i < extras ? 1 : 0);
    out.push_back(slice_axis(a, ax, pos, pos + len));
    pos += len;
  }
  return out;
}

std::vector<ndarray> split(const ndarray& a, std::int64_t sections, int axis) {
  CUSCI_NVTX_SCOPE("cusci::split");
  const int ax = normalize_axis(axis, a.ndim(), "cusci::split");
  CUSCI_EXPECTS(sections > 0, value_error, "cusci::split: number sections must be larger than 0.");
  CUSCI_EXPECTS(a.shape()[ax] % sections == 0, value_error, "cusci::split: array split does not result in an equal division");
  return array_split(a, sections, ax);
}

std::vector<ndarray> split(const ndarray& a, const std::vector<std::int64_t>& indices, int axis) {
  CUSCI_NVTX_SCOPE("cusci::split");
  normalize_axis(axis, a.ndim(), "cusci::split");
  return array_split(a, indices, axis);
}

// --- tiling --------------------------------------------------------------------------------------------

ndarray tile(const ndarray& a, const std::vector<std::int64_t>& reps_in) {
  CUSCI_NVTX_SCOPE("cusci::tile");
  const char* fn = "cusci::tile";
  for (auto r : reps_in) CUSCI_EXPECTS(r >= 0, value_error, std::string(fn) + ": negative dimensions are not allowed");
  const int nd = std::max<int>(a.ndim(), static_cast<int>(reps_in.size()));
  std::vector<std::int64_t> reps(nd - reps_in.size(), 1);
  reps.insert(reps.end(), reps_in.begin(), reps_in.end());
  shape_t ashape(nd - a.ndim(), 1), astr(nd - a.ndim(), 0);
  ashape.insert(ashape.end(), a.shape().begin(), a.shape().end());
  astr.insert(astr.end(), a.strides().begin(), a.strides().end());
  shape_t vshape, vstr, out_shape;
  for (int d = 0; d < nd; ++d) {
    vshape.push_back(reps[d]);
    vstr.push_back(0);
    vshape.push_back(ashape[d]);
    vstr.push_back(astr[d]);
    out_shape.push_back(detail::saturating_mul(reps[d], ashape[d]));
  }
  // The result's size as NumPy checks it ("array is too big"), before any device work.
  (void)detail::checked_size(vshape, fn, a.itemsize());
  (void)detail::checked_size(out_shape, fn, a.itemsize());
  device_guard guard(a.device());
  return make_view(a, vshape, vstr).copy().reshape(out_shape);
}

ndarray repeat(const ndarray& a, std::int64_t repeats, std::optional<int> axis) {
  CUSCI_NVTX_SCOPE("cusci::repeat");
  const char* fn = "cusci::repeat";
  CUSCI_EXPECTS(repeats >= 0, value_error, std::string(fn) + ": negative dimensions are not allowed");
  device_guard guard(a.device());
  ndarray src = axis ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, a.ndim(), fn) : 0;
  shape_t vshape, vstr;
  for (int d = 0; d < src.ndim(); ++d) {
    vshape.push_back(src.shape()[d]);
    vstr.push_back(src.strides()[d]);
    if (d == ax) {
      vshape.push_back(repeats);
      vstr.push_back(0);
    }
  }
  shape_t out_shape = src.shape();
  out_shape[ax] *= repeats;
  return make_view(src, vshape, vstr).copy().reshape(out_shape);
}

ndarray repeat(const ndarray& a, const std::vector<std::int64_t>& repeats, std::optional<int> axis) {
  CUSCI_NVTX_SCOPE("cusci::repeat");
  const char* fn = "cusci::repeat";
  if (repeats.size() == 1) return repeat(a, repeats[0], axis);
  device_guard guard(a.device());
  ndarray src = axis ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, a.ndim(), fn) : 0;
  const std::int64_t n = src.shape()[ax];
  CUSCI_EXPECTS(static_cast<std::int64_t>(repeats.size()) == n, value_error,
                std::string(fn) + ": operands could not be broadcast together with shape (" + std::to_string(n) +
                    ",) (" + std::to_string(repeats.size()) + ",)");
  std::vector<std::int64_t> idx;
  for (std::int64_t j = 0; j < n; ++j) {
    CUSCI_EXPECTS(repeats[j] >= 0, value_error, std::string(fn) + ": repeats may not contain negative values.");
    idx.insert(idx.end(), static_cast<std::size_t>(repeats[j]), j);
  }
  // Indices are valid by construction: wrap mode needs no bounds read-back.
  return take(src, asarray(idx), ax, clip_mode::wrap);
}

// --- rearranging ------------------------------------------------------------------------------------------

ndarray flip(const ndarray& m, const std::vector<int>& axes_in) {
  CUSCI_NVTX_SCOPE("cusci::flip");
  const std::vector<int> axes = norm_axes(axes_in, m.ndim(), "cusci::flip", "axis");
  shape_t st = m.strides();
  std::int64_t off = 0;
  for (int ax : axes) {
    if (m.shape()[ax] > 0) off += (m.shape()[ax] - 1) * st[ax];
    st[ax] = -st[ax];
  }
  return make_view(m, m.shape(), st, off);
}

ndarray flip(const ndarray& m) {
  CUSCI_NVTX_SCOPE("cusci::flip");
  std::vector<int> axes(m.ndim());
  std::iota(axes.begin(), axes.end(), 0);
  return flip(m, axes);
}

ndarray flip(const ndarray& m, int axis) { return flip(m, std::vector<int>{axis}); }

ndarray fliplr(const ndarray& m) {
  CUSCI_NVTX_SCOPE("cusci::fliplr");
  CUSCI_EXPECTS(m.ndim() >= 2, value_error, "cusci::fliplr: Input must be >= 2-d.");
  return flip(m, 1);
}

ndarray flipud(const ndarray& m) {
  CUSCI_NVTX_SCOPE("cusci::flipud");
  CUSCI_EXPECTS(m.ndim() >= 1, value_error, "cusci::flipud: Input must be >= 1-d.");
  return flip(m, 0);
}

ndarray moveaxis(const ndarray& a, const std::vector<int>& source, const std::vector<int>& destination) {
  CUSCI_NVTX_SCOPE("cusci::moveaxis");
  const char* fn = "cusci::moveaxis";
  const std::vector<int> src = norm_axes(source, a.ndim(), fn, "source");
  const std::vector<int> dst = norm_axes(destination, a.ndim(), fn, "destination");
  CUSCI_EXPECTS(src.size() == dst.size(), value_error,
                std::string(fn) + ": `source` and `destination` arguments must have the same number of elements");
  std::vector<int> order;
  for (int d = 0; d < a.ndim(); ++d)
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i < src.size(); ++i) pairs.emplace_back(dst[i], src[i]);
  std::sort(pairs.begin(), pairs.end());
  for (const auto& [d, s] : pairs) order.insert(order.begin() + d, s);
  return a.transpose(order);
}

ndarray moveaxis(const ndarray& a, int source, int destination) {
  CUSCI_NVTX_SCOPE("cusci::moveaxis");
  return moveaxis(a, std::vector<int>{source}, std::vector<int>{destination});
}

ndarray swapaxes(const ndarray& a, int axis1, int axis2) {
  CUSCI_NVTX_SCOPE("cusci::swapaxes");
  const int a1 = norm_axis(axis1, a.ndim(), "cusci::swapaxes", "axis1");
  const int a2 = norm_axis(axis2, a.ndim(), "cusci::swapaxes", "axis2");
  std::vector<int> order(a.ndim());
  std::iota(order.begin(), order.end(), 0);
  std::swap(order[a1], order[a2]);
  return a.transpose(order);
}

ndarray ravel(const ndarray& a, order ord) {
  CUSCI_NVTX_SCOPE("cusci::ravel");
  if (ord == order::F) return a.T().reshape({-1});
  return a.reshape({-1});
}

// --- dimensions --------------------------------------------------------------------------------------------

ndarray atleast_1d(const ndarray& a) { return a.ndim() == 0 ? a.reshape({1}) : a; }

ndarray atleast_2d(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::atleast_2d");
  if (a.ndim() == 0) return a.reshape({1, 1});
  if (a.ndim() == 1) return a.expand_dims(0);
  return a;
}

ndarray atleast_3d(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::atleast_3d");
  if (a.ndim() == 0) return a.reshape({1, 1, 1});
  if (a.ndim() == 1) return a.expand_dims(0).expand_dims(2);
  if (a.ndim() == 2) return a.expand_dims(2);
  return a;
}

ndarray expand_dims(const ndarray& a, const std::vector<int>& axes) {
  CUSCI_NVTX_SCOPE("cusci::expand_dims");
  const int out_nd = a.ndim() + static_cast<int>(axes.size());
  const std::vector<int> ax = norm_axes(axes, out_nd, "cusci::expand_dims", "axis");
  shape_t shape, strides;
  int k = 0;
  for (int d = 0; d < out_nd; ++d) {
    if (std::find(ax.begin(), ax.end(), d) != ax.end()) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      shape.push_back(a.shape()[k]);
      strides.push_back(a.strides()[k]);
      ++k;
    }
  }
  return make_view(a, shape, strides);
}

ndarray squeeze(const ndarray& a, const std::vector<int>& axes) {
  CUSCI_NVTX_SCOPE("cusci::squeeze");
  if (axes.empty()) return a.squeeze();
  const std::vector<int> ax = norm_axes(axes, a.ndim(), "cusci::squeeze", "axis");
  shape_t shape, strides;
  for (int d = 0; d < a.ndim(); ++d) {
    if (std::find(ax.begin(), ax.end(), d) != ax.end()) {
      CUSCI_EXPECTS(a.shape()[d] == 1, value_error,
                    "cusci::squeeze: cannot select an axis to squeeze out which has size not equal to one");
      continue;
    }
    shape.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  return make_view(a, shape, strides);
}

}  // namespace cusci
