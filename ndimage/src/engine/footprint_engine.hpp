#pragma once
// The footprint engine of cusci::ndimage, host interface: an N-D neighbourhood given by a boolean
// footprint (any shape with one dimension per array axis), optional weights per footprint element
// (SciPy's `structure`), an origin and a boundary mode per axis. Each output is a policy's reduction
// over the footprint's values (footprint_engine.cuh: minimum and maximum; rank filters and grey
// morphology later). 1-D to 3-D arrays are tiled in shared memory (each block loads its tile plus the
// footprint's halo once); other arrays, and tiles that do not fit, take a generic N-D kernel (one
// thread per output, values through the cache). The weighted sum of correlate / convolve
// (weighted_plan, weighted_footprint_pass) has its own register-blocked kernel. Host C++ only.

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

/// Dense footprint boxes up to this many elements travel in the kernel parameters of the weighted
/// (correlation) kernels; larger ones take the generic kernel.
inline constexpr int weighted_param_taps = 256;

/// How a weighted-sum (correlation) pass runs (make_weighted_plan).
///  - blocked: arrays of 2 or 3 dims (padded to [z, y, x]) whose footprint box has at most
///    weighted_param_taps elements and whose halo tile fits 48 KiB of doubles. A block of 256 threads
///    stages its tile plus halo once (float32 input as float32, any other converted to double),
///    several loads in flight per thread; each thread accumulates R = 8 outputs along the blocked
///    axis (y for 2-D, z for 3-D) in registers, one weight read per tap for its R outputs. Each
///    output sums its own taps in SciPy's C order.
///  - strip (a kind of blocked plan, chosen first): 2-D arrays with a 3 x 3 box (or 5 x 5 for float32
///    -> float32 and float64 -> float64) and 3-D arrays with a 3 x 3 x 3 box, every box element a tap,
///    input not uint32 / uint64. float32 -> float32 takes its typed variant whatever the constant. No shared memory: each thread owns a strip
///    of R outputs along the blocked axis (y for 2-D, z for 3-D) at one x (and one y for 3-D), and
///    walks the R + extent - 1 input rows (planes) of the strip in order, reading each of the values
///    it needs once from global memory (through the read-only cache; a warp's 32 lanes read
///    neighbouring x) and converting it to double once, then adding it into every output of the
///    strip that uses it. Extents, R and the loops are compile-time, so the accumulators, the row's
///    values and the weights (kernel parameters) stay in registers / the constant bank. Each output
///    still sums its taps in SciPy's C order.
///  - generic: any other array (1-D, 4-D and more, big footprints): one thread per output, the taps
///    read through the cache.
struct weighted_plan {
  bool blocked = false;
  bool strip = false;  ///< blocked, on the register strip kernel (ext, tile, n_tiles set; no smem)
  int ndim = 0;  ///< 3 when blocked
  std::int64_t shape[footprint_max_dims] = {};
  std::int64_t in_strides[footprint_max_dims] = {};   // bytes
  std::int64_t out_strides[footprint_max_dims] = {};  // bytes
  int shift[footprint_max_dims] = {};  ///< extent / 2 + origin: out i reads in i + k - shift
  int mode[footprint_max_dims] = {};
  // blocked
  int ext[3] = {1, 1, 1};   ///< footprint extents [z, y, x]
  int tile[3] = {1, 1, 1};  ///< outputs per block [z, y, x]
  int halo[3] = {1, 1, 1};  ///< tile + extent - 1
  std::int64_t n_tiles[3] = {1, 1, 1};
  int blocked_axis = 1;          ///< 0 (z) or 1 (y) of [z, y, x]
  std::vector<double> box;       ///< the footprint box's weights, C order, 0.0 where skipped
  bool all_active = true;        ///< no element of the box is skipped
  std::size_t smem_bytes = 0;
  // generic
  std::vector<std::int32_t> taps;  ///< [n_taps][ndim] footprint indices of the taps, C order
  std::vector<double> weights;     ///< one per tap
  int n_taps = 0;                  ///< taps that take part (both kinds); 0: the result is 0
};

/// Outputs per thread along the blocked axis of the blocked weighted kernel.
inline constexpr int weighted_rows_per_thread = 8;
/// Outputs per thread of the strip kernel: along y for 2-D arrays, along z for 3-D ones.
inline constexpr int weighted_strip_rows_2d = 16;
inline constexpr int weighted_strip_rows_3d = 8;

/// The plan of a weighted-sum pass from `in` to `out` (same shape, any strides, any real dtypes):
/// the taps are the footprint elements whose mask is set (SciPy's NI_Correlate keeps the weights with
/// |w| > DBL_EPSILON; callers build the mask so). Throws cusci::value_error for more than
/// footprint_max_dims dimensions or a footprint extent beyond 2^30.
weighted_plan make_weighted_plan(const ndarray& in, const ndarray& out, const footprint_spec& f);

/// out = sum over the footprint's taps of weight * in (SciPy's NI_Correlate): the taps of `f` (mask
/// set, weights given per element) in C order, each product and the running sum in double starting
/// from 0.0, the constant mode's value `cval` taken as a double (not converted to the input dtype),
/// and the sum stored into out's dtype with C's conversion as compiled for x86-64 (integers truncate
/// toward zero; out-of-range values as SciPy's cvttsd2si). float32 -> float32 and float64 -> float64
/// on the blocked kernel accumulate with fused multiply-adds in double (each step rounded once
/// instead of twice: the double sum within a few ulps of SciPy's, the float32 result equal but for
/// rare ties); every other combination repeats SciPy's operations exactly. in and out: real dtypes
/// (bool included, not float16), same shape, ndim >= 1, no overlap, any strides. Enqueues on the
/// current stream (copies the taps to the device for the generic kernel).
void weighted_footprint_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval);

/// out = minimum (`minimum`) or maximum over the footprint of `in` (SciPy's NI_MinOrMaxFilter),
/// exact, for in and out of one real dtype (bool included), same shape, no overlap, any strides.
/// `cval` is converted to the dtype as a C cast. Enqueues on the current stream.
void min_max_footprint_pass(const ndarray& in, const ndarray& out, const footprint_spec& f, double cval,
                            bool minimum);

}  // namespace cusci::ndimage::detail
