#pragma once
// Host-side shape handling shared by solve.cpp and cholesky.cpp.

#include <cstdint>
#include <string>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "common/detail.hpp"

namespace cusci::linalg::detail {

using cusci::detail::shape_str;

/// Shape and byte strides of an operand after NumPy's atleast_1d / atleast_2d.
struct operand {
  shape_t shape;
  shape_t strides;
};

inline operand atleast(const ndarray& x, std::size_t min_ndim) {
  operand o{x.shape(), x.strides()};
  while (o.shape.size() < min_ndim) {
    o.shape.insert(o.shape.begin(), 1);
    o.strides.insert(o.strides.begin(), 0);
  }
  return o;
}

/// NumPy's broadcast of two batch shapes; nullopt-like failure reported through `ok`.
inline shape_t broadcast_batch(const shape_t& x, const shape_t& y, bool& ok) {
  ok = true;
  const std::size_t nd = std::max(x.size(), y.size());
  shape_t r(nd, 1);
  for (std::size_t k = 0; k < nd; ++k) {
    const std::int64_t dx = k < nd - x.size() ? 1 : x[k - (nd - x.size())];
    const std::int64_t dy = k < nd - y.size() ? 1 : y[k - (nd - y.size())];
    if (dx == dy || dy == 1) r[k] = dx;
    else if (dx == 1) r[k] = dy;
    else ok = false;
  }
  return r;
}

/// View of operand `o` (batch dims + two matrix dims) with its batch dims broadcast to `batch`.
inline batch_view broadcast_view(const void* data, const operand& o, const shape_t& batch) {
  batch_view v;
  v.data = data;
  const std::size_t nd = o.shape.size(), own = nd - 2;
  v.batch_shape = batch;
  v.batch_strides.assign(batch.size(), 0);
  for (std::size_t k = 0; k < own; ++k) {
    const std::size_t bd = batch.size() - own + k;
    v.batch_strides[bd] = o.shape[k] == 1 ? 0 : o.strides[k];
  }
  v.s_row = o.strides[nd - 2];
  v.s_col = o.strides[nd - 1];
  return v;
}

inline shape_t concat(shape_t a, std::initializer_list<std::int64_t> tail) {
  a.insert(a.end(), tail.begin(), tail.end());
  return a;
}

}  // namespace cusci::linalg::detail
