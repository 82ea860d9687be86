#pragma once
// Helpers shared by the .npy and .npz readers and writers (core/src/npy.cpp, core/src/npz.cpp).

#include <cstddef>

#include "cusci/ndarray.hpp"

namespace cusci::detail {

/// Copies between C order and Fortran order: `c_to_f` reads `src` in C order and writes `dst` in F
/// order; otherwise the reverse. `shape` is the array's shape, `isz` its item size. Host only.
void permute_copy(const std::byte* src, std::byte* dst, const shape_t& shape, std::size_t isz, bool c_to_f);

}  // namespace cusci::detail
