#pragma once
// Internal helpers shared by the indexing and manipulation sources (nvcc only): element types by item
// size, dispatch on the item size, small host helpers for messages and axes.

#include <cstdint>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::detail::ix {

/// A 16-byte element moved as two 8-byte words (complex128 is only guaranteed 8-byte alignment).
struct alignas(8) item16 {
  std::uint64_t lo, hi;
};
template <int N> struct item_of;
template <> struct item_of<1> { using type = std::uint8_t; };
template <> struct item_of<2> { using type = std::uint16_t; };
template <> struct item_of<4> { using type = std::uint32_t; };
template <> struct item_of<8> { using type = std::uint64_t; };
template <> struct item_of<16> { using type = item16; };

template <class T> struct size_tag { using type = T; };

/// Calls f(size_tag<U>{}) with U the unsigned element type of `itemsize` bytes.
template <class F>
decltype(auto) dispatch_itemsize(std::size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(size_tag<std::uint8_t>{});
    case 2: return f(size_tag<std::uint16_t>{});
    case 4: return f(size_tag<std::uint32_t>{});
    case 8: return f(size_tag<std::uint64_t>{});
    case 16: return f(size_tag<item16>{});
    default: break;
  }
  throw type_error("cusci: unsupported item size " + std::to_string(itemsize));
}

using detail::shape_str;

using detail::normalize_axis;

/// normalize_axis for a parameter named other than "axis" (swapaxes' axis1, ...): the message names
/// `param` in NumPy's AxisError text.
inline int norm_axis(int axis, int ndim, const char* fn, const char* param) {
  if (axis < -ndim || axis >= ndim)
    throw index_error(std::string(fn) + ": " + param + " " + std::to_string(axis) +
                      " is out of bounds for array of dimension " + std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

inline std::int64_t prod(const shape_t& s) {
  std::int64_t p = 1;
  for (auto d : s) p *= d;
  return p;
}

/// C-order byte strides of a shape.
inline shape_t c_strides(const shape_t& shape, std::int64_t itemsize) {
  shape_t st(shape.size());
  std::int64_t s = itemsize;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    st[d] = s;
    s *= shape[d] > 0 ? shape[d] : 1;
  }
  return st;
}

/// A view with the given shape/strides/offset delta over a's buffer.
inline ndarray make_view(const ndarray& a, shape_t shape, shape_t strides, std::int64_t extra_offset = 0) {
  return ndarray(a.memory(), a.dtype(), std::move(shape), std::move(strides), a.offset() + extra_offset, a.device());
}

}  // namespace cusci::detail::ix
