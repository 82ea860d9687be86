#pragma once
// The footprint engine of cusci::ndimage, host interface: an N-D neighbourhood given by a boolean
// footprint (any shape with one dimension per array axis), optional weights per footprint element
// (SciPy's `structure`), an origin and a boundary mode per axis. Each output is a policy's reduction
// over the footprint's values (footprint_engine.cuh: minimum and maximum now; rank filters, grey
// morphology and correlate later). 1-D to 3-D arrays are tiled in shared memory (each block loads
// its tile plus the footprint's halo once); other arrays, and tiles that do not fit, take a generic
// N-D kernel (one thread per output, values through the cache). Host C++ only.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"
#include "engine/boundary.hpp"

namespace cusci::ndimage::detail {

inline constexpr int footprint_max_dims = 16;

struct footprint_spec {
  shape_t shape;                      ///< footprint shape, one dimension per array axis, each >= 1
  std::vector<unsigned char> mask;    ///< C order, nonzero = inside; at least one nonzero
  std::vector<double> weights;        ///< empty, or one per mask element (C order)
  std::vector<std::int64_t> origins;  ///< per axis, already validated (SciPy's origin rule)
  std::vector<ext> modes;             ///< per axis
};

/// How a footprint pass runs (make_footprint_plan).
struct footprint_plan {
  bool tiled = false;  ///< shared-memory tiles (arrays of 1 to 3 dims, padded to 3); else generic
  int ndim = 0;
  std::int64_t shape[footprint_max_dims] = {};
  std::int64_t in_strides[footprint_max_dims] = {};   // bytes
  std::int64_t out_strides[footprint_max_dims] = {};  // bytes
  int shift[footprint_max_dims] = {};  ///< footprint extent / 2 + origin: out i reads in i + k - shift
  int mode[footprint_max_dims] = {};
  /// Tiled: the offset of each footprint element in the shared tile (row-major [z][y][x] of the halo
  /// tile); generic: [n_taps][ndim] footprint indices.
  std::vector<std::int32_t> taps;
  std::vector<double> weights;  ///< empty or one per tap
  int n_taps = 0;
  int tile[3] = {1, 1, 1};  ///< outputs per block, [z, y, x]
  int halo[3] = {1, 1, 1};  ///< tile + footprint extent - 1, [z, y, x]
  std::int64_t n_tiles[3] = {1, 1, 1};
  std::size_t smem_bytes = 0;
};

/// The plan of a footprint pass from `in` to `out` (same shape, any strides) for items of `itemsize`
/// bytes. Throws cusci::value_error for more than footprint_max_dims dimensions or a footprint
/// extent beyond 2^30.
footprint_plan make_footprint_plan(const ndarray& in, const ndarray& out, const footprint_spec& f,
                                   std::size_t itemsize);

/// out = minimum (`minimum`) or maximum over the footprint of `in` (SciPy's NI_MinOrMaxFilter),
/// exact, for in and out of one real dtype (bool included), same shape, no overlap, any strides.
/// `cval` is converted to the dtype as a C cast. Enqueues on the current stream.
void min_max_footprint_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval,
                            bool minimum);

}  // namespace cusci::ndimage::detail
