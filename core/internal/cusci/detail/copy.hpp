#pragma once
/// @file copy.hpp  (internal; host-only declarations)
/// Device entry points behind ndarray's copies, casts and creation functions, implemented in
/// core/src/copy.cu. Every function enqueues work on the current stream of the destination's device
/// and returns without synchronizing; a function given an array of size 0 launches nothing.

#include <complex>
#include <cstdint>

#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"

namespace cusci::detail {

/// Copies `src` into the preallocated `dst` elementwise, converting each element from src's dtype to
/// dst's with NumPy's unsafe casting (complex -> real keeps the real part, float -> int truncates
/// toward zero, anything -> bool is `!= 0`). Any shapes' strides (C, F, strided, negative, broadcast
/// zero strides in `src`) are accepted; same-dtype copies whose layouts coalesce to one contiguous run
/// use cudaMemcpyAsync. `dst` must not overlap `src` unless they are identical.
/// @throws cusci::value_error when the shapes differ or the arrays live on different devices.
void copy_cast(const ndarray& src, ndarray& dst);

/// Sets every element of `dst` (any layout) to `value` converted to dst's dtype as `copy_cast` would.
void fill(ndarray& dst, const scalar& value);

/// Writes NumPy's arange sequence into the contiguous 1-D array `out`: out[0] = first, out[1] =
/// second, out[i] = first + i * (second - first) computed in out's dtype (NumPy's `fill` function:
/// `first` and `second` are converted to out's dtype before the difference is taken).
void arange_fill(ndarray& out, const scalar& first, const scalar& second);

/// Writes NumPy's linspace values into the contiguous 1-D array `out` (length num), computed in
/// float64 as NumPy does: y = i * step + start when step != 0, else (i / div) * delta + start; the
/// last element is `stop` when `set_last`; integer outputs take the floor before the cast.
void linspace_fill(ndarray& out, double start, double stop, double step, double delta, std::int64_t div,
                   bool set_last);

/// Sets the elements (i, i + k) of the 2-D array `out` (any strides) to one; other elements are left
/// unchanged.
void set_diagonal_one(ndarray& out, std::int64_t k);

}  // namespace cusci::detail
