#pragma once
// Internal interface of the coo_nd family (n-dimensional COO arrays): the coordinate remapping kernel.

#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::sparse::detail {

/// Coordinate recomputation. `coords` [ndim_in, nnz] C-contiguous int32/int64. For each entry k, the
/// C-order linear index L of (coords[sel_axes[0]][k], ..., coords[sel_axes[s-1]][k]) over `sel_shape`
/// (sel_shape[j] is the dimension of axis sel_axes[j]) is unravelled in C order over `out_shape`;
/// returns [out_shape.size(), nnz] of `out_dt` (int32/int64), C-contiguous. The caller guarantees
/// prod(sel_shape) <= prod(out_shape) (when nnz > 0), prod(sel_shape) fits in int64 and every index
/// in range; out_dt wide enough. 1 <= out_shape.size() <= 64, sel_axes.size() <= 64 (0: L = 0).
/// Asynchronous.
ndarray coo_nd_remap(const ndarray& coords, const std::vector<int>& sel_axes, const shape_t& sel_shape,
                     const shape_t& out_shape, dtype out_dt);

}  // namespace cusci::sparse::detail
