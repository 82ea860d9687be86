#pragma once
// The kernels of rank_filter / median_filter / percentile_filter, host interface (rank.cu,
// rank_box.cu). Host C++ only.

#include <cstdint>

#include "cusci/ndarray.hpp"
#include "engine/boundary.hpp"
#include "engine/footprint_engine.hpp"

namespace cusci::ndimage::detail {

/// SciPy's N-D path (NI_RankFilter): out = the value of rank `rank` (0 <= rank < footprint count)
/// among `in`'s values under the footprint, for `in` and `out` of one real dtype (bool, int8..int64,
/// uint8..uint64, float32, float64), same shape, ndim >= 1, no overlap, any strides. Windows are
/// ranked in SciPy's order with SciPy's quickselect (so windows holding NaN give SciPy's value);
/// median boxes 3x3, 5x5, 7x7 and 3x3x3 of float32 / float64 / uint8 take the register networks
/// (rank_box.cu) on NaN-free tiles. `cval` is converted to the dtype with a C cast. SciPy selects
/// among the values converted to double and C-casts the selected double back: with `round_trip`
/// the stored value is that round trip (it differs from the selected value only for int64 / uint64
/// beyond 2^53); without it the selected value itself (for a later cast into another dtype, which
/// then converts it to double as SciPy). Enqueues on the current stream.
void rank_footprint_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, std::int64_t rank,
                         double cval, bool round_trip = true);

/// SciPy's 1-D path (_rank_filter_1d): `in` and `out` 1-D of one dtype among float32, float64,
/// int64; a box of `window` values shifted by `origin` (validated), rank in [0, window). NaN-free
/// lines take the parallel kernel; a float line holding NaN is then replayed in order with SciPy's
/// running two-heap mediator (one thread, launched always, returning at once without NaN).
/// `cval` is already representable in the dtype. Enqueues on the current stream.
void rank_line_pass(const ndarray& in, const ndarray& out, std::int64_t window, std::int64_t rank,
                    std::int64_t origin, ext mode, double cval);

/// The register-network median of a box on tiles (rank_box.cu): runs and returns true where it
/// applies (dtype float32 / float64 / uint8, in and out of one dtype, ndim 2 or 3, box extents
/// (1,3,3), (1,5,5), (1,7,7) or (3,3,3) after padding to 3 dims, rank = count / 2); false otherwise.
bool median_box_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, std::int64_t rank,
                     double cval);

}  // namespace cusci::ndimage::detail
