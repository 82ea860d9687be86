#pragma once
// Internal interface between the host-side argument handling (filters.cpp) and the kernels
// (correlate1d.cu). Host C++ only.

#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/mode.hpp"

namespace cusci::ndimage::detail {

/// SciPy's extension codes for filters (_ni_support._extend_mode_to_code(mode, is_filter=True)).
enum class ext : int { nearest = 0, wrap = 1, reflect = 2, mirror = 3, constant = 4 };

inline ext filter_ext(mode m) noexcept {
  switch (m) {
    case mode::nearest: return ext::nearest;
    case mode::wrap:
    case mode::grid_wrap: return ext::wrap;
    case mode::mirror: return ext::mirror;
    case mode::constant:
    case mode::grid_constant: return ext::constant;
    case mode::reflect:
    case mode::grid_mirror: break;
  }
  return ext::reflect;
}

/// out = correlation of `in` along `axis` with `w` (SciPy's NI_Correlate1D): both real, same shape,
/// ndim >= 1, `out` must not overlap `in`; any strides. `origin` already validated.
/// Enqueues on the current stream.
void correlate_pass(const ndarray& in, const ndarray& out, int axis, const std::vector<double>& w, ext mode,
                    double cval, std::int64_t origin);

/// Which kernel the fast float32/float64 column passes (axis not last) use: 0 automatic (the
/// vectorized kernel -- 16 / itemsize adjacent inner positions per thread, 16-byte loads and stores
/// -- where it applies: unit-stride inner positions, inner extent a multiple of the vector width,
/// 16-byte aligned pointers and strides, at most 32 taps; the scalar kernel elsewhere), 1 the
/// scalar kernel always, 2 the vectorized kernel where it applies (the same as 0 today). Both give
/// bit-identical results. Default 0. Process-wide; not thread-safe against concurrent filters.
/// @throws cusci::value_error where v is not 0, 1 or 2.
void set_fast_cols_variant(int v);
int fast_cols_variant();

/// Which fast float32/float64 row kernel (axis last and contiguous) runs: 1 the kernel that loads a
/// segment's halo after storing the segment to shared memory; 2 the variant that loads the halo
/// together with the segment, before the first barrier, with a padded shared layout; 0 automatic,
/// which is 1: on the H200 variant 2 measured no faster (gaussian_filter1d 4096^2 float32 axis 1:
/// 0.0661 against 0.0658 ms) and slower on 512^3 axis 2 (0.554 against 0.526 ms). Bit-identical
/// results. Default 0. Process-wide; not thread-safe against concurrent filters.
/// @throws cusci::value_error where v is not 0, 1 or 2.
void set_fast_rows_variant(int v);
int fast_rows_variant();

}  // namespace cusci::ndimage::detail
