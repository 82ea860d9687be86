#pragma once
/// @file setops_detail.hpp
/// Internal entry points of the setops family's kernels (setops_kernels.cu), used by setops.cpp and
/// index_tricks.cpp. Host-only declarations (no device code).

#include <cstdint>
#include <vector>

#include "cusci/indexing.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::detail::setops {

/// NumPy's check_array_monotonic on `bins` (1-D float64, C-contiguous): 1 increasing (also for fewer
/// than two distinct values), -1 decreasing, 0 neither. Synchronizes once (reads 3 words back).
int bins_monotonicity(const ndarray& bins);

/// Flat int64 indices `idx` (C-contiguous, n elements) into `dims` (non-negative, product `total`
/// fits int64) -> writes out[d][i]. Returns -1 when every index is in [0, total), else the position of
/// the first bad one (in C order). `f_order`: column-major. Synchronizes once.
std::int64_t unravel(const ndarray& idx, const std::vector<std::int64_t>& dims, bool f_order,
                     std::vector<ndarray>& out);

/// Coordinates coords[d] (int64, C-contiguous, n elements each) -> flat int64 indices in `out` (n
/// elements). Returns false when a coordinate of a dimension with mode raise is out of range (then
/// synchronizes once); true otherwise (no synchronization without raise modes).
bool ravel(const std::vector<ndarray>& coords, const std::vector<std::int64_t>& dims,
           const std::vector<clip_mode>& modes, bool f_order, ndarray& out);

/// Maximum number of dimensions unravel/ravel handle (NumPy's NPY_MAXDIMS).
inline constexpr int max_dims = 64;

}  // namespace cusci::detail::setops
