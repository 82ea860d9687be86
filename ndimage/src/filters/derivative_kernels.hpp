#pragma once
// The elementwise steps of the derivative filters (derivatives.cpp): laplace's `output += tmp` and
// the gradient magnitude's squares, sums and final square root, in the output dtype with NumPy's
// loops, fused into one kernel per step. Kernels in derivative_kernels.cu. Host C++ only.

#include "cusci/ndarray.hpp"

namespace cusci::ndimage::detail {

/// What derivative_step does to each element o of `out` (and t of `tmp`), in this order:
/// o = o * o (square_out); o = o + t, or o + t * t with square_tmp (add_tmp); o = sqrt(o) cast back
/// to out's dtype (sqrt_out).
enum derivative_step_flags : unsigned {
  square_out = 1u,
  add_tmp = 2u,
  square_tmp = 4u,
  sqrt_out = 8u,
};

/// Applies `flags` elementwise to `out` (any dtype, any layout) with `tmp` (same dtype; out's shape or
/// a broadcast view of it; may be null without add_tmp). Every product, sum and square root is
/// rounded / wrapped in out's dtype as NumPy's multiply, add and sqrt (with casting='unsafe' for
/// integer outputs, as on x86-64) do. `tmp` must not overlap `out` unless it is `out` itself.
/// Enqueues on the current stream.
void derivative_step(const ndarray& out, const ndarray* tmp, unsigned flags);

}  // namespace cusci::ndimage::detail
