/// @file index_tricks.cpp
/// unravel_index and ravel_multi_index (argument checks here, index arithmetic in
/// setops_kernels.cu), indices and meshgrid (composed from arange, reshape, broadcast_to, stack).

#include "cusci/index_tricks.hpp"

#include <limits>
#include <string>

#include "cusci/dtype.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "setops/setops_detail.hpp"

namespace cusci {
namespace {

using i64 = std::int64_t;
constexpr i64 i64_max = std::numeric_limits<i64>::max();

bool int_or_bool(dtype t) { return is_integer(t) || is_bool(t); }

/// `a` as a C-contiguous int64 array (no copy when it already is one).
ndarray as_int64_c(const ndarray& a) { return ascontiguousarray(a.astype(dtype::int64, false)); }

}  // namespace

std::vector<ndarray> unravel_index(const ndarray& indices, const shape_t& shape, unravel_index_options opts) {
  const char* fn = "cusci::unravel_index: ";
  if (!int_or_bool(indices.dtype())) throw type_error(std::string(fn) + "only int indices permitted");
  const int nd = static_cast<int>(shape.size());
  if (nd > detail::setops::max_dims)
    throw value_error(std::string(fn) + "shape has " + std::to_string(nd) + " dimensions, more than " +
                      std::to_string(detail::setops::max_dims));
  if (nd == 0 && indices.ndim() > 0)
    throw value_error(std::string(fn) + "multiple indices are not supported for 0d arrays");
  for (i64 d : shape)
    if (d < 0)  // NumPy reports it as an index out of bounds for the negative product
      throw value_error(std::string(fn) + "index is out of bounds for array with a negative dimension in shape " +
                        "(all dimensions must be >= 0)");
  i64 total = 1;
  for (i64 d : shape) {
    if (d != 0 && total > i64_max / d)
      throw value_error(std::string(fn) +
                        "dimensions are too large; arrays and shapes with a total size greater than 'intp' are "
                        "not supported.");
    total *= d;
  }
  std::vector<ndarray> out;
  out.reserve(shape.size());
  for (int d = 0; d < nd; ++d) out.push_back(empty(indices.shape(), dtype::int64));
  if (indices.size() == 0) return out;
  const ndarray idx = as_int64_c(indices);
  const i64 bad = detail::setops::unravel(idx, shape, opts.order == order::F, out);  // synchronizes
  if (bad >= 0) {
    const i64 v = idx.reshape({idx.size()})[bad].item<i64>();
    throw value_error(std::string(fn) + "index " + std::to_string(v) + " is out of bounds for array with size " +
                      std::to_string(total));
  }
  return out;
}

ndarray ravel_multi_index(const std::vector<ndarray>& multi_index, const shape_t& dims,
                          ravel_multi_index_options opts) {
  const char* fn = "cusci::ravel_multi_index: ";
  const std::size_t nd = dims.size();
  if (multi_index.size() != nd)
    throw value_error(std::string(fn) + "parameter multi_index must be a sequence of length " + std::to_string(nd));
  if (static_cast<int>(nd) > detail::setops::max_dims)
    throw value_error(std::string(fn) + "dims has " + std::to_string(nd) + " dimensions, more than " +
                      std::to_string(detail::setops::max_dims));
  std::vector<clip_mode> modes = opts.mode;
  if (modes.size() == 1) modes.assign(nd, opts.mode[0]);
  if (modes.size() != nd)
    throw value_error(std::string(fn) + "list of clipmodes has wrong length (" + std::to_string(opts.mode.size()) +
                      " instead of " + std::to_string(nd) + ")");
  for (const ndarray& m : multi_index)
    if (!int_or_bool(m.dtype())) throw type_error(std::string(fn) + "only int indices permitted");
  i64 total = 1;
  for (std::size_t d = 0; d < nd; ++d) {
    if (dims[d] < 0) throw value_error(std::string(fn) + "invalid entry in coordinates array");
    if (dims[d] == 0 && modes[d] != clip_mode::raise)
      throw value_error(std::string(fn) + "cannot unravel if shape has zero entries (is empty).");
    if (dims[d] != 0 && total > i64_max / dims[d])
      throw value_error(std::string(fn) +
                        "invalid dims: array size defined by dims is larger than the maximum possible size.");
    total *= dims[d];
  }
  shape_t bshape{};
  for (const ndarray& m : multi_index) bshape = broadcast_shapes(bshape, m.shape());
  ndarray out = empty(bshape, dtype::int64);
  if (out.size() == 0) return out;
  std::vector<ndarray> coords;
  coords.reserve(nd);
  for (const ndarray& m : multi_index)
    coords.push_back(ascontiguousarray(m.astype(dtype::int64, false).broadcast_to(bshape)));
  if (!detail::setops::ravel(coords, dims, modes, opts.order == order::F, out))
    throw value_error(std::string(fn) + "invalid entry in coordinates array");
  return out;
}

indices_result indices(const shape_t& dimensions, indices_options opts) {
  const char* fn = "cusci::indices: ";
  for (i64 d : dimensions)
    if (d < 0) throw value_error(std::string(fn) + "negative dimensions are not allowed");
  if (opts.dtype == dtype::bool_)
    for (i64 d : dimensions)
      if (d > 2)
        throw type_error(std::string(fn) +
                         "arange() is only supported for booleans when the result has at most length 2.");
  const std::size_t n = dimensions.size();
  indices_result r;
  std::vector<ndarray> parts;
  parts.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    shape_t s(n, 1);
    s[i] = dimensions[i];
    parts.push_back(arange(i64{0}, dimensions[i], i64{1}).reshape(s));
  }
  if (opts.sparse) {
    for (ndarray& p : parts) r.sparse.push_back(p.astype(opts.dtype, false));
    return r;
  }
  if (n == 0) {
    r.grid = empty({0}, opts.dtype);
    return r;
  }
  for (ndarray& p : parts) p = p.broadcast_to(dimensions);
  r.grid = stack(parts, 0, opts.dtype);
  return r;
}

meshgrid_indexing parse_meshgrid_indexing(std::string_view s) {
  if (s == "xy") return meshgrid_indexing::xy;
  if (s == "ij") return meshgrid_indexing::ij;
  throw value_error("cusci::meshgrid: Valid values for `indexing` are 'xy' and 'ij'.");
}

std::vector<ndarray> meshgrid(const std::vector<ndarray>& xi, meshgrid_options opts) {
  const std::size_t n = xi.size();
  std::vector<ndarray> out;
  if (n == 0) return out;
  shape_t full_shape(n);
  for (std::size_t i = 0; i < n; ++i) full_shape[i] = xi[i].size();
  const bool swap = opts.indexing == meshgrid_indexing::xy && n >= 2;
  if (swap) std::swap(full_shape[0], full_shape[1]);
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    shape_t s(n, 1);
    std::size_t pos = i;
    if (swap && i < 2) pos = 1 - i;
    s[pos] = xi[i].size();
    ndarray v = ravel(xi[i]).reshape(s);
    if (!opts.sparse) v = v.broadcast_to(full_shape);
    if (opts.copy) v = v.copy();
    out.push_back(v);
  }
  return out;
}

}  // namespace cusci
