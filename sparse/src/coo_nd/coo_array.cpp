// n-dimensional COO arrays (cusci/sparse/coo_array.hpp): argument checks, SciPy's shape, dtype and
// index-dtype rules, and the composition of the device steps: the coordinate remapping kernel
// (coo_nd_kernels.cu), the formats family's sort/duplicate-sum, scatter and compaction, core's array
// functions, and the 2-D products of the products family.

#include "cusci/sparse/coo_array.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "common/detail.hpp"
#include "coo_nd/coo_nd_detail.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/io.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sorting.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/products.hpp"

namespace cusci::sparse {
namespace {

using cusci::detail::msg;
using cusci::detail::shape_str;
using shape_type = coo_array::shape_type;

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

// SciPy's check_shape for a sparse array: rank 1..64, no negative dimension; cusci also needs the
// product within int64 (linear indices).
void check_nd_shape(const shape_type& shape, const char* fn) {
  CUSCI_EXPECTS(!shape.empty() && shape.size() <= cusci::detail::max_ndim, value_error,
                msg(fn, "shape must have length in range(1, 65), got " + shape_str(shape)));
  for (std::int64_t d : shape)
    CUSCI_EXPECTS(d >= 0, value_error, msg(fn, "'shape' elements cannot be negative, got " + shape_str(shape)));
  (void)cusci::detail::checked_size(shape_t(shape.begin(), shape.end()), fn);
}

std::int64_t max_dim(const shape_type& s) { return s.empty() ? 0 : *std::max_element(s.begin(), s.end()); }

std::int64_t prod(const shape_type& s) {
  std::int64_t p = 1;
  for (std::int64_t d : s) p *= d;  // callers pass sub-shapes of checked shapes
  return p;
}

// SciPy 1.18: int64 for ndim > 2; else int32 unless max(shape) exceeds int32 or an input index array
// is wider than int32 (`wide`).
dtype nd_index_dtype(std::size_t ndim, std::int64_t maxval, bool wide) {
  if (ndim > 2 || wide || maxval > kInt32Max) return dtype::int64;
  return dtype::int32;
}

bool casts_to_int32(dtype t) {
  return t == dtype::int8 || t == dtype::int16 || t == dtype::int32 || t == dtype::uint8 || t == dtype::uint16 ||
         t == dtype::bool_;
}

ndarray contiguous(const ndarray& a) { return a.is_c_contiguous() ? a : ascontiguousarray(a); }

shape_t to_shape_t(const shape_type& s) { return shape_t(s.begin(), s.end()); }

std::vector<int> iota_axes(int n, int start = 0) {
  std::vector<int> v;
  for (int i = start; i < n; ++i) v.push_back(i);
  return v;
}

// Entries of a coo_array seen as a 2-D (major, minor) matrix: major the C-order linear index of all
// axes but the last, minor the last axis (1-D: major 0). Both of one index dtype.
struct view2d {
  ndarray major, minor;
  std::int64_t n_major = 1, n_minor = 1;
};
view2d as_2d(const ndarray& coords, const shape_type& shape) {
  view2d v;
  const int nd = static_cast<int>(shape.size());
  const std::int64_t nnz = coords.shape(1);
  v.n_minor = shape[nd - 1];
  v.minor = coords[nd - 1];
  if (nd == 1) {
    v.major = zeros({nnz}, coords.dtype());
    v.n_major = 1;
  } else if (nd == 2) {
    v.major = coords[0];
    v.n_major = shape[0];
  } else {
    shape_type lead(shape.begin(), shape.end() - 1);
    v.n_major = prod(lead);
    v.major = detail::coo_nd_remap(coords, iota_axes(nd - 1), to_shape_t(lead), {v.n_major}, coords.dtype())[0];
  }
  return v;
}

// The [ndim, nnz] coordinates of sorted (major, minor) pairs of as_2d.
ndarray from_2d(const ndarray& major, const ndarray& minor, const shape_type& shape) {
  const int nd = static_cast<int>(shape.size());
  const std::int64_t n = minor.size();
  ndarray mi = contiguous(minor).reshape({1, n});
  if (nd == 1) return mi;
  if (nd == 2) return stack({major, minor}, 0);
  shape_type lead(shape.begin(), shape.end() - 1);
  ndarray l = detail::coo_nd_remap(contiguous(major).reshape({1, n}), {0}, {prod(lead)}, to_shape_t(lead), major.dtype());
  return concatenate({l, mi}, 0);
}

// SciPy's validateaxis for sum: none for every axis.
std::optional<std::vector<int>> validate_sum_axis(const std::optional<std::vector<int>>& axis, int ndim,
                                                  const char* fn) {
  if (!axis) return std::nullopt;
  CUSCI_EXPECTS(!axis->empty(), value_error,
                msg(fn, "sparse does not accept 0D axis (). Either use toarray (for dense) or copy (for sparse)."));
  std::vector<int> out;
  std::vector<bool> seen(static_cast<std::size_t>(ndim), false);
  for (int a : *axis) {
    const int n = a < 0 ? a + ndim : a;
    CUSCI_EXPECTS(n >= 0 && n < ndim, value_error,
                  msg(fn, "axis out of range for ndim (axis " + std::to_string(a) + ", ndim " + std::to_string(ndim) + ")"));
    CUSCI_EXPECTS(!seen[static_cast<std::size_t>(n)], value_error, msg(fn, "duplicate value in axis"));
    seen[static_cast<std::size_t>(n)] = true;
    out.push_back(n);
  }
  if (static_cast<int>(out.size()) == ndim) return std::nullopt;
  return out;
}

// SciPy's get_sum_dtype.
dtype sum_dtype(dtype t) {
  if (is_unsigned_integer(t)) return dtype::uint64;
  if (t == dtype::bool_ || is_signed_integer(t)) return dtype::int64;
  return t;
}

// Broadcast of two batch shapes (NumPy's rule), or nullopt.
std::optional<shape_type> broadcast_batch(const shape_type& a, const shape_type& b) {
  const std::size_t n = std::max(a.size(), b.size());
  shape_type out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const std::int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace

// =================================================================================================
// Construction
// =================================================================================================

coo_array coo_array::from_valid(ndarray data, ndarray coords, shape_type shape, bool canonical) {
  coo_array a{raw_tag{}};
  a.data_ = std::move(data);
  a.coords_ = std::move(coords);
  a.shape_ = std::move(shape);
  a.canonical_ = canonical;
  return a;
}

coo_array::coo_array(const shape_type& shape, std::optional<cusci::dtype> dt) {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array");
  const char* fn = "cusci::sparse::coo_array";
  check_nd_shape(shape, fn);
  const cusci::dtype t = dt.value_or(dtype::float64);
  detail::check_value_dtype(fn, t);
  data_ = empty({0}, t);
  coords_ = empty({static_cast<std::int64_t>(shape.size()), 0}, nd_index_dtype(shape.size(), max_dim(shape), false));
  shape_ = shape;
  canonical_ = true;
}

coo_array::coo_array(const ndarray& data, const std::vector<ndarray>& coords, const coo_array_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array");
  const char* fn = "cusci::sparse::coo_array";
  const std::size_t nd = coords.size();
  if (o.shape) {
    check_nd_shape(*o.shape, fn);
    CUSCI_EXPECTS(nd == o.shape->size(), value_error,
                  msg(fn, "mismatching number of index arrays for shape; got " + std::to_string(nd) + ", expected " +
                              std::to_string(o.shape->size())));
  } else {
    CUSCI_EXPECTS(nd >= 1 && nd <= cusci::detail::max_ndim, value_error,
                  msg(fn, "coords must hold 1 to 64 index arrays, got " + std::to_string(nd)));
  }
  CUSCI_EXPECTS(data.ndim() == 1, value_error, msg(fn, "coordinates and data arrays must be 1-D (data is " +
                                                           std::to_string(data.ndim()) + "-D)"));
  const std::int64_t nnz = data.shape(0);
  bool wide = false;
  for (std::size_t i = 0; i < nd; ++i) {
    const ndarray& c = coords[i];
    CUSCI_EXPECTS(is_integer(c.dtype()), type_error,
                  msg(fn, "index array " + std::to_string(i) + " must have an integer dtype, got " +
                              std::string(dtype_name(c.dtype()))));
    CUSCI_EXPECTS(c.ndim() == 1, value_error, msg(fn, "coordinates and data arrays must be 1-D (coords[" +
                                                          std::to_string(i) + "] is " + std::to_string(c.ndim()) + "-D)"));
    CUSCI_EXPECTS(c.shape(0) == nnz, value_error,
                  msg(fn, "all index and data arrays must have the same length (data " + std::to_string(nnz) +
                              ", coords[" + std::to_string(i) + "] " + std::to_string(c.shape(0)) + ")"));
    if (!casts_to_int32(c.dtype())) wide = true;
  }
  const cusci::dtype vt = o.dtype.value_or(data.dtype());
  detail::check_value_dtype(fn, data.dtype());
  detail::check_value_dtype(fn, vt);
  if (!o.shape) CUSCI_EXPECTS(nnz > 0, value_error, msg(fn, "cannot infer dimensions from zero sized index arrays"));

  // Per-axis minimum and maximum, read back once (int64).
  std::vector<std::int64_t> mx(nd, 0), mn(nd, 0);
  ndarray c64 = stack(coords, 0, dtype::int64);  // [nd, nnz]; exact for every integer dtype but uint64 > 2^63 - 1
  if (nnz > 0) {
    ndarray mm = concatenate({cusci::max(c64, 1), cusci::min(c64, 1)}, 0);
    std::vector<std::int64_t> h = to_host(mm).to_vector<std::int64_t>();
    for (std::size_t i = 0; i < nd; ++i) {
      mx[i] = h[i];
      mn[i] = h[nd + i];
    }
  }
  shape_type shape;
  if (o.shape) {
    shape = *o.shape;
  } else {
    for (std::size_t i = 0; i < nd; ++i) shape.push_back(mx[i] + 1);
    check_nd_shape(shape, fn);
  }
  for (std::size_t i = 0; i < nd && nnz > 0; ++i) {
    CUSCI_EXPECTS(mx[i] < shape[i], value_error,
                  msg(fn, "axis " + std::to_string(i) + " index " + std::to_string(mx[i]) + " exceeds matrix dimension " +
                              std::to_string(shape[i])));
    CUSCI_EXPECTS(mn[i] >= 0, value_error, msg(fn, "negative axis " + std::to_string(i) + " index: " + std::to_string(mn[i])));
  }
  const cusci::dtype it = nd_index_dtype(nd, max_dim(shape), wide);
  coords_ = it == dtype::int64 ? c64 : c64.astype(it);
  data_ = o.copy ? data.astype(vt, true) : contiguous(data.astype(vt, false));
  if (!data_.is_c_contiguous()) data_ = ascontiguousarray(data_);
  shape_ = std::move(shape);
  canonical_ = false;
}

namespace {
std::vector<ndarray> rows_of(const ndarray& coords, const char* fn) {
  CUSCI_EXPECTS(coords.ndim() == 2, value_error,
                msg(fn, "coords must be a [ndim, nnz] array, got shape " + shape_str(coords.shape())));
  std::vector<ndarray> v;
  for (std::int64_t i = 0; i < coords.shape(0); ++i) v.push_back(coords[i]);
  return v;
}
}  // namespace

coo_array::coo_array(const ndarray& data, const ndarray& coords, const coo_array_options& o)
    : coo_array(data, rows_of(coords, "cusci::sparse::coo_array"), o) {}

coo_array::coo_array(const ndarray& dense, const coo_array_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array");
  const char* fn = "cusci::sparse::coo_array";
  CUSCI_EXPECTS(dense.ndim() >= 1, value_error, msg(fn, "shape must have length in range(1, 65), got a 0-d array"));
  shape_type shape(dense.shape().begin(), dense.shape().end());
  check_nd_shape(shape, fn);
  if (o.shape) {
    check_nd_shape(*o.shape, fn);
    CUSCI_EXPECTS(*o.shape == shape, value_error,
                  msg(fn, "inconsistent shapes: " + shape_str(*o.shape) + " != " + shape_str(shape)));
  }
  detail::check_value_dtype(fn, dense.dtype());
  const cusci::dtype vt = o.dtype.value_or(dense.dtype());
  detail::check_value_dtype(fn, vt);
  const cusci::dtype it = nd_index_dtype(shape.size(), max_dim(shape), false);
  ndarray lin = flatnonzero(dense);  // int64, C order; synchronizes
  const std::int64_t nnz = lin.size();
  data_ = nnz == 0 ? empty({0}, vt) : take(dense, lin, std::nullopt, clip_mode::clip).astype(vt, false);
  data_ = contiguous(data_);
  coords_ = detail::coo_nd_remap(lin.reshape({1, nnz}), {0}, {prod(shape)}, to_shape_t(shape), it);
  shape_ = std::move(shape);
  canonical_ = true;
}

coo_array::coo_array(const spmatrix& A, std::optional<cusci::dtype> dt) {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array");
  const char* fn = "cusci::sparse::coo_array";
  if (dt) detail::check_value_dtype(fn, *dt);
  coo_matrix c = A.tocoo(false);
  data_ = dt ? c.data().astype(*dt, false) : c.data();
  data_ = contiguous(data_);
  coords_ = stack({c.row(), c.col()}, 0);
  shape_ = {c.shape()[0], c.shape()[1]};
  canonical_ = false;
}

// =================================================================================================
// Properties, maintenance, conversions
// =================================================================================================

ndarray coo_array::coords(int axis) const {
  const int a = cusci::detail::normalize_axis(axis, ndim(), "cusci::sparse::coo_array::coords");
  return coords_[a];
}

void coo_array::sum_duplicates() {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::sum_duplicates");
  if (canonical_) return;
  if (nnz() == 0) {
    canonical_ = true;
    return;
  }
  view2d v = as_2d(coords_, shape_);
  detail::sorted_entries se = detail::sort_entries(data_, v.major, v.minor, v.n_major, v.n_minor, true, false);
  coords_ = from_2d(se.major, se.minor, shape_);
  data_ = contiguous(se.data);
  canonical_ = true;
}

void coo_array::eliminate_zeros() {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::eliminate_zeros");
  if (nnz() == 0) return;
  detail::compacted c = detail::compact_nonzero(data_);
  if (c.kept == nnz()) return;
  data_ = detail::take_rows(data_, c.index);
  coords_ = take(coords_, c.index, 1, clip_mode::clip);
}

ndarray coo_array::toarray() const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::toarray");
  coo_array a = *this;
  if (!a.canonical_) {
    a = from_valid(data_, coords_, shape_, false);
    a.sum_duplicates();
  }
  view2d v = as_2d(a.coords_, shape_);
  ndarray d = detail::scatter_dense(a.data_, v.major, v.minor, shape2{v.n_major, v.n_minor}, order::C);
  return d.reshape(to_shape_t(shape_));
}

coo_matrix coo_array::to_coo_matrix() const {
  CUSCI_EXPECTS(ndim() <= 2, value_error,
                msg("cusci::sparse::coo_array::to_coo_matrix",
                    "only 1-D or 2-D arrays convert to a sparse matrix, got " + std::to_string(ndim()) + "-D"));
  if (ndim() == 1)
    return coo_matrix::from_valid(data_, zeros({nnz()}, coords_.dtype()), contiguous(coords_[0]), shape2{1, shape_[0]},
                                  canonical_);
  return coo_matrix::from_valid(data_, contiguous(coords_[0]), contiguous(coords_[1]), shape2{shape_[0], shape_[1]},
                                canonical_);
}

csr_matrix coo_array::tocsr() const {
  CUSCI_EXPECTS(ndim() <= 2, value_error,
                msg("cusci::sparse::coo_array::tocsr",
                    "Cannot convert. CSR must be 1D or 2D. Got " + std::to_string(ndim()) + "D"));
  return to_coo_matrix().tocsr();
}

coo_array coo_array::astype(cusci::dtype t, bool copy) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::astype");
  detail::check_value_dtype("cusci::sparse::coo_array::astype", t);
  if (t == dtype()) return copy ? this->copy() : *this;
  // SciPy casts a copy, then sums its duplicates in the new dtype; the flag of the result is false.
  coo_array r = from_valid(contiguous(data_.astype(t, true)), coords_, shape_, canonical_);
  r.sum_duplicates();
  if (r.coords_.memory() == coords_.memory()) r.coords_ = coords_.copy();
  r.canonical_ = false;
  return r;
}

coo_array coo_array::copy() const { return from_valid(data_.copy(), coords_.copy(), shape_, false); }

// =================================================================================================
// Shape manipulation
// =================================================================================================

coo_array coo_array::reshape(const shape_type& new_shape_in, bool copy) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::reshape");
  const char* fn = "cusci::sparse::coo_array::reshape";
  const std::int64_t size = prod(shape_);
  shape_type ns = new_shape_in;
  int neg = -1, n_neg = 0;
  for (std::size_t i = 0; i < ns.size(); ++i)
    if (ns[i] < 0) {
      neg = static_cast<int>(i);
      ++n_neg;
    }
  CUSCI_EXPECTS(n_neg <= 1, value_error, msg(fn, "can only specify one unknown dimension"));
  // Product of the specified dimensions, saturating (a product beyond int64 never equals the size).
  std::int64_t spec = 1;
  bool over = false;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    if (static_cast<int>(i) == neg) continue;
    if (ns[i] == 0) {
      spec = 0;
      over = false;
      break;
    }
    if (!over && spec > std::numeric_limits<std::int64_t>::max() / ns[i]) over = true;
    if (!over) spec *= ns[i];
  }
  if (neg < 0) {
    CUSCI_EXPECTS(!over && spec == size, value_error,
                  msg(fn, "cannot reshape array of size " + std::to_string(size) + " into shape " + shape_str(ns)));
  } else {
    CUSCI_EXPECTS(spec != 0, value_error, msg(fn, "cannot reshape array of size " + std::to_string(size) +
                                                      " into shape " + shape_str(ns) + " (division by zero)"));
    CUSCI_EXPECTS(!over && size % spec == 0, value_error,
                  msg(fn, "cannot reshape array of size " + std::to_string(size) + " into shape " + shape_str(ns)));
    ns[static_cast<std::size_t>(neg)] = size / spec;
  }
  check_nd_shape(ns, fn);
  if (ns == shape_) return copy ? this->copy() : *this;
  const cusci::dtype it = nd_index_dtype(ns.size(), max_dim(ns), coords_.dtype() == dtype::int64);
  ndarray c = detail::coo_nd_remap(coords_, iota_axes(ndim()), to_shape_t(shape_), to_shape_t(ns), it);
  return from_valid(copy ? data_.copy() : data_, std::move(c), std::move(ns), false);
}

coo_array coo_array::transpose(const std::optional<std::vector<int>>& axes, bool copy) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::transpose");
  const char* fn = "cusci::sparse::coo_array::transpose";
  const int nd = ndim();
  std::vector<int> perm;
  if (!axes) {
    for (int i = nd - 1; i >= 0; --i) perm.push_back(i);
  } else {
    CUSCI_EXPECTS(static_cast<int>(axes->size()) == nd, value_error,
                  msg(fn, "axes don't match matrix dimensions (" + std::to_string(axes->size()) + " axes for " +
                              std::to_string(nd) + "-D)"));
    std::vector<int> raw = *axes;
    std::sort(raw.begin(), raw.end());
    CUSCI_EXPECTS(std::adjacent_find(raw.begin(), raw.end()) == raw.end(), value_error,
                  msg(fn, "repeated axis in transpose"));
    for (int a : *axes) {
      CUSCI_EXPECTS(a >= -nd && a < nd, index_error,
                    msg(fn, "axis " + std::to_string(a) + " is out of range for a " + std::to_string(nd) + "-D array"));
      perm.push_back(a < 0 ? a + nd : a);
    }
    std::vector<int> s = perm;
    std::sort(s.begin(), s.end());
    CUSCI_EXPECTS(std::adjacent_find(s.begin(), s.end()) == s.end(), value_error,
                  msg(fn, "repeated axis in transpose"));
  }
  shape_type ns;
  shape_t sel;
  for (int a : perm) {
    ns.push_back(shape_[static_cast<std::size_t>(a)]);
    sel.push_back(shape_[static_cast<std::size_t>(a)]);
  }
  ndarray c = detail::coo_nd_remap(coords_, perm, sel, sel, coords_.dtype());
  return from_valid(copy ? data_.copy() : data_, std::move(c), std::move(ns), false);
}

coo_array coo_array::mT() const {
  const int n = ndim();
  CUSCI_EXPECTS(n >= 2, value_error,
                msg("cusci::sparse::coo_array::mT",
                    "Array must be at least 2-dimensional, but it is " + std::to_string(n) + "-D"));
  if (n == 2) return transpose();
  std::vector<int> axes = iota_axes(n - 2);
  axes.push_back(n - 1);
  axes.push_back(n - 2);
  return transpose(axes);
}

coo_array permute_dims(const coo_array& A, const std::optional<std::vector<int>>& axes, bool copy) {
  CUSCI_NVTX_SCOPE("cusci::sparse::permute_dims");
  const char* fn = "cusci::sparse::permute_dims";
  const int nd = A.ndim();
  if (!axes) return A.transpose(std::nullopt, copy);
  CUSCI_EXPECTS(static_cast<int>(axes->size()) == nd, value_error,
                msg(fn, "Incorrect number of axes: " + std::to_string(axes->size()) + " instead of " + std::to_string(nd)));
  std::vector<int> canon;
  std::vector<bool> seen(static_cast<std::size_t>(nd), false);
  for (int a : *axes) {
    const int n = a < 0 ? a + nd : a;
    CUSCI_EXPECTS(n >= 0 && n < nd, value_error,
                  msg(fn, "axis out of range for ndim (axis " + std::to_string(a) + ", ndim " + std::to_string(nd) + ")"));
    CUSCI_EXPECTS(!seen[static_cast<std::size_t>(n)], value_error, msg(fn, "duplicate value in axis"));
    seen[static_cast<std::size_t>(n)] = true;
    canon.push_back(n);
  }
  if (canon == iota_axes(nd)) return copy ? A.copy() : A;
  return A.transpose(canon, copy);
}

coo_array swapaxes(const coo_array& A, int axis1, int axis2) {
  const char* fn = "cusci::sparse::swapaxes";
  const int nd = A.ndim();
  for (int a : {axis1, axis2})
    CUSCI_EXPECTS(a >= -nd && a < nd, value_error,
                  msg(fn, "Invalid axis: " + std::to_string(a) + " is out of bounds for ndim=" + std::to_string(nd)));
  std::vector<int> axes = iota_axes(nd);
  const int a1 = axis1 < 0 ? axis1 + nd : axis1, a2 = axis2 < 0 ? axis2 + nd : axis2;
  std::swap(axes[static_cast<std::size_t>(a1)], axes[static_cast<std::size_t>(a2)]);
  return permute_dims(A, axes, true);
}

coo_array expand_dims(const coo_array& A, int axis) {
  CUSCI_NVTX_SCOPE("cusci::sparse::expand_dims");
  const char* fn = "cusci::sparse::expand_dims";
  const int nd = A.ndim();
  const int idx = axis >= 0 ? axis : axis + nd + 1;
  CUSCI_EXPECTS(idx >= 0 && idx <= nd, value_error,
                msg(fn, "Invalid axis " + std::to_string(axis) + " for N=" + std::to_string(nd) + ". Must be in [-N-1, N]."));
  CUSCI_EXPECTS(nd + 1 <= static_cast<int>(cusci::detail::max_ndim), value_error,
                msg(fn, "the result would have more than 64 dimensions"));
  std::vector<ndarray> rows;
  for (int i = 0; i < nd; ++i) {
    if (i == idx) rows.push_back(zeros({A.nnz()}, A.index_dtype()));
    rows.push_back(A.coords()[i]);
  }
  if (idx == nd) rows.push_back(zeros({A.nnz()}, A.index_dtype()));
  shape_type ns = A.shape();
  ns.insert(ns.begin() + idx, 1);
  return coo_array::from_valid(A.data().copy(), stack(rows, 0), std::move(ns), A.has_canonical_format());
}

// =================================================================================================
// Reductions
// =================================================================================================

ndarray coo_array::sum(const std::optional<std::vector<int>>& axis_in, std::optional<cusci::dtype> dt) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::sum");
  const char* fn = "cusci::sparse::coo_array::sum";
  const std::optional<std::vector<int>> axis = validate_sum_axis(axis_in, ndim(), fn);
  if (dt) {
    detail::check_value_dtype(fn, *dt);
    coo_array c = from_valid(data_, coords_, shape_, canonical_);
    c.sum_duplicates();
    return c.astype(*dt, false).sum(axis ? std::optional<std::vector<int>>(*axis) : std::nullopt).astype(*dt, false);
  }
  const cusci::dtype rt = sum_dtype(dtype());
  if (!axis) {
    if (nnz() == 0) return zeros({}, rt);
    if (canonical_) return cusci::sum(data_);
    // SciPy sums the duplicates first (bool: a duplicated true counts once).
    coo_array c = from_valid(data_, coords_, shape_, false);
    c.sum_duplicates();
    return cusci::sum(c.data_);
  }
  std::vector<int> keep;
  shape_type ns;
  shape_t keep_shape;
  for (int i = 0; i < ndim(); ++i)
    if (std::find(axis->begin(), axis->end(), i) == axis->end()) {
      keep.push_back(i);
      ns.push_back(shape_[static_cast<std::size_t>(i)]);
      keep_shape.push_back(shape_[static_cast<std::size_t>(i)]);
    }
  const std::int64_t P = prod(ns);
  if (nnz() == 0 || P == 0) return zeros(to_shape_t(ns), rt);
  ndarray key = detail::coo_nd_remap(coords_, keep, keep_shape, {P}, dtype::int64)[0];
  ndarray vals = contiguous(data_.astype(rt, false));
  detail::sorted_entries se =
      detail::sort_entries(vals, key, zeros({nnz()}, dtype::int64), P, 1, true, false);
  ndarray out = detail::scatter_dense(contiguous(se.data), contiguous(se.minor), contiguous(se.major), shape2{1, P}, order::C);
  return out.reshape(to_shape_t(ns));
}

// =================================================================================================
// Arithmetic
// =================================================================================================

namespace {
// A coo_array from a 2-D sparse result (1-D: the (1, n) row). Index dtype kept.
coo_array from_matrix_result(const spmatrix& m, int nd) {
  coo_matrix c = m.tocoo(false);
  if (nd == 1) return coo_array::from_valid(contiguous(c.data()), contiguous(c.col()).reshape({1, c.nnz()}),
                                            {c.shape()[1]}, false);
  return coo_array::from_valid(contiguous(c.data()), stack({c.row(), c.col()}, 0), {c.shape()[0], c.shape()[1]}, false);
}

void check_same_shape(const coo_array& a, const shape_type& b, const char* fn) {
  CUSCI_EXPECTS(a.shape() == b, value_error,
                msg(fn, "Incompatible shapes (" + shape_str(a.shape()) + " and " + shape_str(b) + ")"));
}
}  // namespace

coo_array coo_array::add(const coo_array& other) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::add");
  const char* fn = "cusci::sparse::coo_array::add";
  check_same_shape(*this, other.shape_, fn);
  if (ndim() <= 2) return from_matrix_result(sparse::add(spmatrix(to_coo_matrix()), spmatrix(other.to_coo_matrix())), ndim());
  const cusci::dtype t = promote_types(dtype(), other.dtype());
  ndarray d = concatenate({data_, other.data_}, 0, t);
  ndarray c = concatenate({coords_, other.coords_}, 1);
  return from_valid(std::move(d), std::move(c), shape_, false);
}

coo_array coo_array::subtract(const coo_array& other) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::subtract");
  const char* fn = "cusci::sparse::coo_array::subtract";
  check_same_shape(*this, other.shape_, fn);
  if (ndim() <= 2)
    return from_matrix_result(sparse::subtract(spmatrix(to_coo_matrix()), spmatrix(other.to_coo_matrix())), ndim());
  CUSCI_EXPECTS(other.dtype() != dtype::bool_, type_error,
                msg(fn, "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the "
                        "logical_not function instead."));
  const cusci::dtype t = promote_types(dtype(), other.dtype());
  ndarray d = concatenate({data_, negative(other.data_)}, 0, t);
  ndarray c = concatenate({coords_, other.coords_}, 1);
  return from_valid(std::move(d), std::move(c), shape_, false);
}

namespace {
ndarray broadcast_dense(const ndarray& D, const shape_type& shape, const char* fn) {
  const shape_t s(shape.begin(), shape.end());
  const std::optional<shape_type> b =
      broadcast_batch(shape_type(D.shape().begin(), D.shape().end()), shape);
  CUSCI_EXPECTS(D.ndim() <= static_cast<int>(shape.size()) && b.has_value() && *b == shape, value_error,
                msg(fn, "operands could not be broadcast together with remapped shapes " + shape_str(D.shape()) +
                            " and requested shape " + shape_str(shape)));
  return D.broadcast_to(s);
}
}  // namespace

ndarray coo_array::add(const ndarray& D) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::add");
  const char* fn = "cusci::sparse::coo_array::add";
  const ndarray Db = broadcast_dense(D, shape_, fn);
  const cusci::dtype t = promote_types(dtype(), D.dtype());
  const coo_array a = t == dtype() ? *this : from_valid(contiguous(data_.astype(t)), coords_, shape_, canonical_);
  return cusci::add(Db.astype(t), a.toarray());
}

ndarray coo_array::subtract(const ndarray& D) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::subtract");
  const ndarray Db = broadcast_dense(D, shape_, "cusci::sparse::coo_array::subtract");
  return cusci::subtract(toarray(), Db);
}

ndarray coo_array::rsubtract(const ndarray& D) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::rsubtract");
  const ndarray Db = broadcast_dense(D, shape_, "cusci::sparse::coo_array::rsubtract");
  return cusci::subtract(Db, toarray());
}

coo_array coo_array::multiply(const scalar& s) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::multiply");
  ndarray d = cusci::multiply(data_, s);
  detail::check_value_dtype("cusci::sparse::coo_array::multiply", d.dtype());
  return from_valid(contiguous(d), coords_.copy(), shape_, false);
}

coo_array coo_array::divide(const scalar& s) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::divide");
  const char* fn = "cusci::sparse::coo_array::divide";
  const std::complex<double> v = s.value<std::complex<double>>();
  CUSCI_EXPECTS(!(s.is_weak() && v == std::complex<double>(0.0)), value_error, msg(fn, "division by zero"));
  scalar inv = is_complex(s.dtype()) ? (s.is_weak() ? scalar(std::complex<double>(1.0) / v)
                                                    : scalar::of(std::complex<double>(1.0) / v, s.dtype()))
                                     : (s.is_weak() ? scalar(1.0 / v.real()) : scalar::of(1.0 / v.real(), s.dtype()));
  if (is_integer(s.dtype()) && !s.is_weak()) inv = scalar::of(1.0 / v.real(), dtype::float64);
  const coo_array base = is_complex(dtype()) ? *this : astype(dtype::float64, false);
  return base.multiply(inv);
}

coo_array coo_array::multiply(const ndarray& other) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::multiply");
  const char* fn = "cusci::sparse::coo_array::multiply";
  const shape_type os(other.shape().begin(), other.shape().end());
  CUSCI_EXPECTS(os == shape_, value_error,
                msg(fn, "inconsistent shapes: >2D multiply() does not yet support broadcasting (" + shape_str(shape_) +
                            " and " + shape_str(os) + ")"));
  detail::check_value_dtype(fn, other.dtype());
  // SciPy multiplies a 1-D or 2-D COO array by a dense one through CSR, which sums duplicates first
  // (the product of each summed entry, and one stored entry per position).
  if (ndim() <= 2 && !canonical_) {
    coo_array c = copy();
    c.sum_duplicates();
    return c.multiply(other);
  }
  const cusci::dtype t = promote_types(dtype(), other.dtype());
  ndarray g = empty({0}, other.dtype());
  if (nnz() > 0) {
    ndarray lin = detail::coo_nd_remap(coords_, iota_axes(ndim()), to_shape_t(shape_), {prod(shape_)}, dtype::int64)[0];
    g = take(other, lin, std::nullopt, clip_mode::clip);
  }
  ndarray d = nnz() > 0 ? cusci::multiply(data_, g) : empty({0}, t);
  return from_valid(contiguous(d), coords_.copy(), shape_, false);
}

coo_array coo_array::multiply(const coo_array& other) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::multiply");
  const char* fn = "cusci::sparse::coo_array::multiply";
  CUSCI_EXPECTS(other.shape_ == shape_, value_error,
                msg(fn, "inconsistent shapes: >2D multiply() does not yet support broadcasting (" + shape_str(shape_) +
                            " and " + shape_str(other.shape_) + ")"));
  if (ndim() <= 2)
    return from_matrix_result(sparse::multiply(spmatrix(to_coo_matrix()), spmatrix(other.to_coo_matrix())), ndim());
  const std::int64_t n = prod(shape_);
  coo_array a = reshape({1, n}), b = other.reshape({1, n});
  coo_array r = from_matrix_result(sparse::multiply(spmatrix(a.to_coo_matrix()), spmatrix(b.to_coo_matrix())), 2);
  return r.reshape(shape_);
}

// =================================================================================================
// Products
// =================================================================================================

namespace {

// Broadcast of a sparse array to `ns` (rank >= ndim, each dimension 1 or equal): entries repeated
// along the broadcast axes. SciPy: coo_array._broadcast_to.
coo_array broadcast_sparse(const coo_array& A, const shape_type& ns) {
  if (A.shape() == ns) return A;
  shape_type s(ns.size() - A.shape().size(), 1);
  s.insert(s.end(), A.shape().begin(), A.shape().end());
  coo_array a = A.reshape(s);
  ndarray data = a.data(), coords = a.coords().astype(dtype::int64, false);
  for (std::size_t i = 0; i < ns.size(); ++i) {
    if (s[i] == ns[i]) continue;
    const std::int64_t r = ns[i], n = data.size();
    data = cusci::tile(data, {r});
    ndarray tiled = contiguous(cusci::tile(coords, {1, r}));
    std::vector<ndarray> rows;
    for (std::int64_t j = 0; j < tiled.shape(0); ++j)
      rows.push_back(j == static_cast<std::int64_t>(i) ? cusci::repeat(arange(0, r, 1, dtype::int64), n) : tiled[j]);
    coords = cusci::stack(rows, 0);
  }
  return coo_array::from_valid(contiguous(data), contiguous(coords), ns, false);
}

// The sparse matrix [P, K] of A with rows the C-order ravel of `row_axes` and columns of `col_axes`.
coo_matrix as_matrix(const coo_array& A, const std::vector<int>& row_axes, const std::vector<int>& col_axes) {
  shape_t rs, cs;
  std::int64_t P = 1, K = 1;
  for (int a : row_axes) {
    rs.push_back(A.shape()[static_cast<std::size_t>(a)]);
    P *= rs.back();
  }
  for (int a : col_axes) {
    cs.push_back(A.shape()[static_cast<std::size_t>(a)]);
    K *= cs.back();
  }
  ndarray r = detail::coo_nd_remap(A.coords(), row_axes, rs, {P}, dtype::int64)[0];
  ndarray c = detail::coo_nd_remap(A.coords(), col_axes, cs, {K}, dtype::int64)[0];
  return coo_matrix::from_valid(A.data(), r, c, shape2{P, K}, false);
}

// A coo_array of shape s_new + o_new from a product C [P, Q] (P = prod(s_new) or 1, Q = prod(o_new) or 1).
coo_array unravel_product(const spmatrix& C, const shape_type& s_new, const shape_type& o_new) {
  coo_matrix c = C.tocoo(false);
  shape_type out = s_new;
  out.insert(out.end(), o_new.begin(), o_new.end());
  ndarray rc = stack({c.row(), c.col()}, 0, dtype::int64);
  ndarray coords = detail::coo_nd_remap(rc, {0, 1}, {c.shape()[0], c.shape()[1]}, to_shape_t(out), dtype::int64);
  return coo_array::from_valid(contiguous(c.data()), std::move(coords), std::move(out), false);
}

// SciPy's _process_axes.
std::pair<std::vector<int>, std::vector<int>> process_axes(int nda, int ndb, std::vector<int> a, std::vector<int> b,
                                                           const char* fn) {
  CUSCI_EXPECTS(a.size() == b.size(), value_error, msg(fn, "axes lists/tuples must be of the same length"));
  for (int x : a)
    CUSCI_EXPECTS(x < nda && x >= -nda, value_error, msg(fn, "axes indices are out of bounds for input arrays"));
  for (int x : b)
    CUSCI_EXPECTS(x < ndb && x >= -ndb, value_error, msg(fn, "axes indices are out of bounds for input arrays"));
  for (int& x : a) x = x < 0 ? x + nda : x;
  for (int& x : b) x = x < 0 ? x + ndb : x;
  auto no_repeat = [&](std::vector<int> v) {
    std::sort(v.begin(), v.end());
    CUSCI_EXPECTS(std::adjacent_find(v.begin(), v.end()) == v.end(), value_error, msg(fn, "repeated axis in axes"));
  };
  no_repeat(a);
  no_repeat(b);
  return {a, b};
}

std::vector<int> complement(int nd, const std::vector<int>& axes) {
  std::vector<int> v;
  for (int i = 0; i < nd; ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) v.push_back(i);
  return v;
}

// Sparse contraction of A's `a_axes` with B's `b_axes` (SciPy's _sparse_tensordot / _sparse_dot).
coo_array contract_sparse(const coo_array& A, const std::vector<int>& a_axes, const coo_array& B,
                          const std::vector<int>& b_axes, const char* fn) {
  const std::vector<int> an = complement(A.ndim(), a_axes), bn = complement(B.ndim(), b_axes);
  CUSCI_EXPECTS(!(an.empty() && bn.empty()), value_error,
                msg(fn, "every axis of both operands is contracted (a scalar result): use the dense overload"));
  shape_type s_new, o_new;
  for (int a : an) s_new.push_back(A.shape()[static_cast<std::size_t>(a)]);
  for (int b : bn) o_new.push_back(B.shape()[static_cast<std::size_t>(b)]);
  shape_type out = s_new;
  out.insert(out.end(), o_new.begin(), o_new.end());
  check_nd_shape(out, fn);  // rank <= 64, product within int64
  coo_matrix A2 = as_matrix(A, an, a_axes);   // [P, K]
  coo_matrix B2 = as_matrix(B, b_axes, bn);   // [K, Q]
  spmatrix C = sparse::dot(spmatrix(A2), spmatrix(B2));
  return unravel_product(C, s_new, o_new);
}

// SciPy's signature text of the matmul dimension errors.
std::string matmul_mismatch(std::int64_t N, std::int64_t K) {
  return "matmul: dimension mismatch with signature (n,..,k=" + std::to_string(N) + "),(k=" + std::to_string(K) +
         ",..,m)->(n,..,m)";
}

}  // namespace

ndarray coo_array::dot(const ndarray& x) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::dot");
  const char* fn = "cusci::sparse::coo_array::dot";
  CUSCI_EXPECTS(x.ndim() >= 1, value_error, msg(fn, "x must have at least 1 dimension (use multiply for a scalar)"));
  const int on = x.ndim();
  const std::int64_t K = shape_.back();
  const std::int64_t xk = on == 1 ? x.shape(0) : x.shape(on - 2);
  CUSCI_EXPECTS(K == xk, value_error,
                msg(fn, "shapes " + shape_str(shape_) + " and " + shape_str(x.shape()) + " are not aligned for n-D dot"));
  // self as [P, K] (P = prod(shape[:-1]), 1 for 1-D); s_new = shape[:-1]; x as [K, prod(o_new)].
  shape_type s_new(shape_.begin(), shape_.end() - 1), o_new;
  const std::int64_t P = prod(s_new);
  if (on == 2) o_new.push_back(x.shape(1));
  if (on > 2) {
    o_new.assign(x.shape().begin(), x.shape().end() - 2);
    o_new.push_back(x.shape(on - 1));
  }
  shape_type out = s_new;
  out.insert(out.end(), o_new.begin(), o_new.end());
  if (!out.empty()) check_nd_shape(out, fn);
  // SciPy multiplies every stored entry (duplicates not summed first, coo_matvec / coo_matmat): the
  // values are cast to the result dtype first, so that the CSR conversion of the product sums the
  // duplicates in that dtype (a duplicated bool true counts twice in a numeric product, as in SciPy).
  const cusci::dtype rt = promote_types(dtype(), x.dtype());
  coo_array a2 = reshape({P, K});
  if (rt != dtype()) a2 = from_valid(contiguous(a2.data_.astype(rt)), a2.coords_, a2.shape_, false);
  ndarray x2 = x;
  if (on > 2) {
    std::vector<int> perm{on - 2};
    for (int i = 0; i < on - 2; ++i) perm.push_back(i);
    perm.push_back(on - 1);
    x2 = ascontiguousarray(x.transpose(perm)).reshape({K, prod(o_new)});
  }
  ndarray r = sparse::dot(spmatrix(a2.to_coo_matrix()), x2);
  return r.reshape(to_shape_t(out));
}

coo_array coo_array::matmul(const coo_array& B) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::matmul");
  const char* fn = "cusci::sparse::coo_array::matmul";
  const bool a1 = ndim() == 1, b1 = B.ndim() == 1;
  CUSCI_EXPECTS(!(a1 && b1), value_error,
                msg(fn, "the product of two 1-D arrays is a scalar: use dot with a dense operand"));
  // Shapes first (1-D operands get a dimension prepended / appended), then any device work.
  const shape_type ash = a1 ? shape_type{1, shape_[0]} : shape_;
  const shape_type bsh0 = b1 ? shape_type{B.shape_[0], 1} : B.shape_;
  const std::int64_t N = ash.back(), Kb = bsh0[bsh0.size() - 2];
  CUSCI_EXPECTS(N == Kb, value_error, msg(fn, matmul_mismatch(N, Kb)));
  const shape_type sa(ash.begin(), ash.end() - 2), sb(bsh0.begin(), bsh0.end() - 2);
  std::optional<shape_type> bs = broadcast_batch(sa, sb);
  CUSCI_EXPECTS(bs.has_value(), value_error, msg(fn, "Batch dimensions are not broadcastable"));
  coo_array A = a1 ? reshape(ash) : *this;
  coo_array Bm = b1 ? B.reshape(bsh0) : B;
  const std::int64_t M = A.shape_[A.shape_.size() - 2], Q = Bm.shape_.back();
  coo_array r;
  if (bs->empty()) {
    spmatrix C = sparse::dot(spmatrix(A.to_coo_matrix()), spmatrix(Bm.to_coo_matrix()));
    r = from_matrix_result(C, 2);
  } else {
    shape_type as = *bs, bsh = *bs;
    as.push_back(M);
    as.push_back(N);
    bsh.push_back(N);
    bsh.push_back(Q);
    const shape_type out_check = [&] {
      shape_type o = *bs;
      o.push_back(M);
      o.push_back(Q);
      return o;
    }();
    check_nd_shape(as, fn);
    check_nd_shape(bsh, fn);
    check_nd_shape(out_check, fn);
    coo_array Ab = broadcast_sparse(A, as), Bb = broadcast_sparse(Bm, bsh);
    const int nd = static_cast<int>(as.size());
    // Block-diagonal 2-D forms: rows ravel(batch..., row), columns ravel(batch..., col).
    std::vector<int> rows = iota_axes(nd - 2), cols = iota_axes(nd - 2);
    rows.push_back(nd - 2);
    cols.push_back(nd - 1);
    coo_matrix A2 = as_matrix(Ab, rows, cols), B2 = as_matrix(Bb, rows, cols);
    spmatrix C = sparse::dot(spmatrix(A2), spmatrix(B2));
    coo_matrix c = C.tocoo(false);
    shape_type out = out_check;
    shape_type row_shape = *bs;
    row_shape.push_back(M);
    const std::int64_t nb = prod(*bs);
    ndarray rc = stack({c.row(), c.col()}, 0, dtype::int64);
    ndarray lead = detail::coo_nd_remap(rc, {0}, {nb * M}, to_shape_t(row_shape), dtype::int64);
    ndarray last = detail::coo_nd_remap(rc, {1}, {nb * Q}, {nb, Q}, dtype::int64);
    ndarray coords = concatenate({lead, contiguous(last[1]).reshape({1, last.shape(1)})}, 0);
    r = from_valid(contiguous(c.data()), contiguous(coords), std::move(out), false);
  }
  if (a1) {
    shape_type s(r.shape_.begin(), r.shape_.end() - 2);
    s.push_back(r.shape_.back());
    r = r.reshape(s);
  }
  if (b1) r = r.reshape(shape_type(r.shape_.begin(), r.shape_.end() - 1));
  return r;
}

ndarray coo_array::matmul(const ndarray& x) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::matmul");
  const char* fn = "cusci::sparse::coo_array::matmul";
  CUSCI_EXPECTS(x.ndim() >= 1, value_error, msg(fn, "matmul: x must have at least 1 dimension"));
  const int on = x.ndim();
  const std::int64_t N = shape_.back();
  if (ndim() < 3 && on < 3) {
    const std::int64_t k = x.shape(0);
    CUSCI_EXPECTS(k == N, value_error, msg(fn, "dimension mismatch"));
    return dot(x);
  }
  if (on == 1) {
    CUSCI_EXPECTS(x.shape(0) == N, value_error,
                  msg(fn, "matmul: dimension mismatch with signature (n,k=" + std::to_string(N) + "),(k=" +
                              std::to_string(x.shape(0)) + ",)->(n,)"));
    return dot(x);
  }
  CUSCI_EXPECTS(x.shape(on - 2) == N, value_error, msg(fn, matmul_mismatch(N, x.shape(on - 2))));
  if (on == 2 && x.shape(1) == 1) {
    shape_type s = shape_;
    s.back() = 1;
    return dot(x.reshape({N})).reshape(to_shape_t(s));
  }
  const bool a1 = ndim() == 1;
  const shape_type ash = a1 ? shape_type{1, N} : shape_;
  const shape_type sa(ash.begin(), ash.end() - 2), sx(x.shape().begin(), x.shape().end() - 2);
  std::optional<shape_type> bs = broadcast_batch(sa, sx);
  CUSCI_EXPECTS(bs.has_value(), value_error, msg(fn, "Batch dimensions are not broadcastable"));
  coo_array A = a1 ? reshape(ash) : *this;
  const std::int64_t M = A.shape_[A.shape_.size() - 2], Q = x.shape(on - 1);
  shape_type as = *bs, xs = *bs, out = *bs;
  as.insert(as.end(), {M, N});
  xs.insert(xs.end(), {N, Q});
  out.insert(out.end(), {M, Q});
  check_nd_shape(as, fn);
  check_nd_shape(xs, fn);
  check_nd_shape(out, fn);
  coo_array Ab = broadcast_sparse(A, as);
  // Every stored entry multiplied (SciPy's coo_matmat_dense_nd): values in the result dtype first.
  const cusci::dtype rt = promote_types(dtype(), x.dtype());
  if (rt != dtype()) Ab = from_valid(contiguous(Ab.data_.astype(rt)), Ab.coords_, Ab.shape_, false);
  const int nd = static_cast<int>(as.size());
  std::vector<int> rows = iota_axes(nd - 2), cols = iota_axes(nd - 2);
  rows.push_back(nd - 2);
  cols.push_back(nd - 1);
  coo_matrix A2 = as_matrix(Ab, rows, cols);
  const std::int64_t nb = prod(*bs);
  ndarray X = ascontiguousarray(x.broadcast_to(to_shape_t(xs))).reshape({nb * N, Q});
  ndarray r = sparse::dot(spmatrix(A2), X).reshape(to_shape_t(out));
  if (a1) {
    shape_type s(x.shape().begin(), x.shape().end() - 2);
    s.push_back(Q);
    r = r.reshape(to_shape_t(s));
  }
  return r;
}

coo_array coo_array::dot(const coo_array& B) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::dot");
  const char* fn = "cusci::sparse::coo_array::dot";
  const std::int64_t bk = B.ndim() == 1 ? B.shape_[0] : B.shape_[B.shape_.size() - 2];
  CUSCI_EXPECTS(shape_.back() == bk, value_error,
                msg(fn, "shapes " + shape_str(shape_) + " and " + shape_str(B.shape_) + " are not aligned for n-D dot"));
  if (ndim() < 3 && B.ndim() < 3) return matmul(B);
  return contract_sparse(*this, {ndim() - 1}, B, {std::max(0, B.ndim() - 2)}, fn);
}

namespace {
std::pair<std::vector<int>, std::vector<int>> int_axes(int nda, int ndb, int n, const char* fn) {
  CUSCI_EXPECTS(n >= 1 && n <= std::min(nda, ndb), value_error, msg(fn, "axes integer is out of bounds for input arrays"));
  std::vector<int> a, b;
  for (int i = nda - n; i < nda; ++i) a.push_back(i);
  for (int i = 0; i < n; ++i) b.push_back(i);
  return {a, b};
}
}  // namespace

ndarray coo_array::tensordot(const ndarray& x, int axes) const {
  auto [a, b] = int_axes(ndim(), x.ndim(), axes, "cusci::sparse::coo_array::tensordot");
  return tensordot(x, a, b);
}

ndarray coo_array::tensordot(const ndarray& x, const std::vector<int>& a_axes_in, const std::vector<int>& b_axes_in) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::tensordot");
  const char* fn = "cusci::sparse::coo_array::tensordot";
  auto [sa, oa] = process_axes(ndim(), x.ndim(), a_axes_in, b_axes_in, fn);
  for (std::size_t i = 0; i < sa.size(); ++i)
    CUSCI_EXPECTS(shape_[static_cast<std::size_t>(sa[i])] == x.shape(oa[i]), value_error,
                  msg(fn, "sizes of the corresponding axes must match"));
  const std::vector<int> sn = complement(ndim(), sa), on = complement(x.ndim(), oa);
  std::vector<int> lperm = sn;
  lperm.insert(lperm.end(), sa.begin(), sa.end());
  std::vector<int> rperm(on.begin(), on.end() - (on.empty() ? 0 : 1));
  rperm.insert(rperm.end(), oa.begin(), oa.end());
  if (!on.empty()) rperm.push_back(on.back());
  shape_type lshape;
  std::int64_t ks = 1;
  for (int i : sn) lshape.push_back(shape_[static_cast<std::size_t>(i)]);
  for (int i : sa) ks *= shape_[static_cast<std::size_t>(i)];
  lshape.push_back(ks);
  shape_t rshape;
  for (std::size_t i = 0; i + 1 < on.size(); ++i) rshape.push_back(x.shape(on[i]));
  rshape.push_back(ks);
  if (!on.empty()) rshape.push_back(x.shape(on.back()));
  coo_array left = transpose(lperm).reshape(lshape);
  ndarray right = ascontiguousarray(x.transpose(rperm)).reshape(rshape);
  return left.dot(right);
}

coo_array coo_array::tensordot(const coo_array& B, int axes) const {
  auto [a, b] = int_axes(ndim(), B.ndim(), axes, "cusci::sparse::coo_array::tensordot");
  return tensordot(B, a, b);
}

coo_array coo_array::tensordot(const coo_array& B, const std::vector<int>& a_axes_in,
                               const std::vector<int>& b_axes_in) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::coo_array::tensordot");
  const char* fn = "cusci::sparse::coo_array::tensordot";
  auto [sa, oa] = process_axes(ndim(), B.ndim(), a_axes_in, b_axes_in, fn);
  for (std::size_t i = 0; i < sa.size(); ++i)
    CUSCI_EXPECTS(shape_[static_cast<std::size_t>(sa[i])] == B.shape_[static_cast<std::size_t>(oa[i])], value_error,
                  msg(fn, "sizes of the corresponding axes must match"));
  return contract_sparse(*this, sa, B, oa, fn);
}

}  // namespace cusci::sparse
